//! Graph algorithms over a multigraph: connectivity, and biconnected blocks (Tarjan,
//! iterative, parallel edges counted apart) for single points of failure.

use petgraph::graph::{EdgeIndex, NodeIndex, UnGraph};
use petgraph::visit::EdgeRef;
use std::collections::VecDeque;

/// Nodes reachable from any of `sources`.
pub fn reachable<N, E>(
    g: &UnGraph<N, E>,
    sources: impl IntoIterator<Item = NodeIndex>,
) -> Vec<bool> {
    let mut seen = vec![false; g.node_count()];
    let mut queue: VecDeque<NodeIndex> = VecDeque::new();
    for s in sources {
        if !seen[s.index()] {
            seen[s.index()] = true;
            queue.push_back(s);
        }
    }
    while let Some(v) = queue.pop_front() {
        for w in g.neighbors(v) {
            if !seen[w.index()] {
                seen[w.index()] = true;
                queue.push_back(w);
            }
        }
    }
    seen
}

/// A biconnected block: its nodes and edges.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// Nodes of the block.
    pub nodes: Vec<NodeIndex>,
    /// Edges of the block.
    pub edges: Vec<EdgeIndex>,
}

/// The biconnected blocks of a multigraph. A bridge is a block with one edge; two
/// parallel edges between two nodes form a block of two nodes and two edges.
pub fn blocks<N, E>(g: &UnGraph<N, E>) -> Vec<Block> {
    let n = g.node_count();
    let mut disc = vec![0usize; n];
    let mut low = vec![0usize; n];
    let mut time = 0usize;
    let mut out = Vec::new();
    let mut edge_stack: Vec<EdgeIndex> = Vec::new();
    // Frame: node, the edge we came in by, neighbor edges, position.
    struct Frame {
        v: NodeIndex,
        via: Option<EdgeIndex>,
        edges: Vec<(EdgeIndex, NodeIndex)>,
        pos: usize,
    }
    for root in g.node_indices() {
        if disc[root.index()] != 0 {
            continue;
        }
        time += 1;
        disc[root.index()] = time;
        low[root.index()] = time;
        let mut stack = vec![Frame {
            v: root,
            via: None,
            edges: g
                .edges(root)
                .map(|e| (e.id(), other(e.source(), e.target(), root)))
                .collect(),
            pos: 0,
        }];
        while let Some(top) = stack.last_mut() {
            if top.pos < top.edges.len() {
                let (eid, w) = top.edges[top.pos];
                top.pos += 1;
                if Some(eid) == top.via {
                    continue;
                }
                let v = top.v;
                if disc[w.index()] == 0 {
                    edge_stack.push(eid);
                    time += 1;
                    disc[w.index()] = time;
                    low[w.index()] = time;
                    let edges = g
                        .edges(w)
                        .map(|e| (e.id(), other(e.source(), e.target(), w)))
                        .collect();
                    stack.push(Frame {
                        v: w,
                        via: Some(eid),
                        edges,
                        pos: 0,
                    });
                } else if disc[w.index()] < disc[v.index()] {
                    edge_stack.push(eid);
                    low[v.index()] = low[v.index()].min(disc[w.index()]);
                }
            } else {
                let done = stack.pop().map(|f| (f.v, f.via));
                let (Some((w, Some(via))), Some(parent)) = (done, stack.last()) else {
                    continue;
                };
                let v = parent.v;
                low[v.index()] = low[v.index()].min(low[w.index()]);
                if low[w.index()] >= disc[v.index()] {
                    let mut block = Block::default();
                    while let Some(e) = edge_stack.pop() {
                        block.edges.push(e);
                        if let Some((a, b)) = g.edge_endpoints(e) {
                            block.nodes.push(a);
                            block.nodes.push(b);
                        }
                        if e == via {
                            break;
                        }
                    }
                    block.nodes.sort();
                    block.nodes.dedup();
                    out.push(block);
                }
            }
        }
    }
    out
}

fn other(a: NodeIndex, b: NodeIndex, me: NodeIndex) -> NodeIndex {
    if a == me {
        b
    } else {
        a
    }
}

/// Nodes that share a block with `s`: those with two node-disjoint paths to `s`
/// (or adjacent to it by parallel edges only when the neighbor is `s` itself).
pub fn protected_by<N, E>(g: &UnGraph<N, E>, s: NodeIndex) -> Vec<bool> {
    let mut out = vec![false; g.node_count()];
    out[s.index()] = true;
    for b in blocks(g) {
        // A block of one edge (a bridge) protects nothing.
        if b.edges.len() < 2 || !b.nodes.contains(&s) {
            continue;
        }
        for v in b.nodes {
            out[v.index()] = true;
        }
    }
    out
}

/// The nodes and edges whose loss alone separates `a` from `b`: cut nodes on every
/// path and bridges between them.
pub fn separators<N, E>(
    g: &UnGraph<N, E>,
    a: NodeIndex,
    b: NodeIndex,
) -> (Vec<NodeIndex>, Vec<EdgeIndex>) {
    if !reachable(g, [a])[b.index()] {
        return (Vec::new(), Vec::new());
    }
    let bl = blocks(g);
    // Block-cut tree: block nodes 0..bl.len(), then graph nodes offset by bl.len().
    let k = bl.len();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); k + g.node_count()];
    for (i, blk) in bl.iter().enumerate() {
        for v in &blk.nodes {
            adj[i].push(k + v.index());
            adj[k + v.index()].push(i);
        }
    }
    // BFS from node a to node b in the tree; the path alternates nodes and blocks.
    let start = k + a.index();
    let goal = k + b.index();
    let mut prev = vec![usize::MAX; adj.len()];
    let mut queue = VecDeque::from([start]);
    prev[start] = start;
    while let Some(x) = queue.pop_front() {
        if x == goal {
            break;
        }
        for &y in &adj[x] {
            if prev[y] == usize::MAX {
                prev[y] = x;
                queue.push_back(y);
            }
        }
    }
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    let mut x = goal;
    while prev[x] != x && prev[x] != usize::MAX {
        if x < k {
            if bl[x].edges.len() == 1 {
                edges.push(bl[x].edges[0]);
            }
        } else if x != goal {
            nodes.push(NodeIndex::new(x - k));
        }
        x = prev[x];
    }
    nodes.reverse();
    edges.reverse();
    (nodes, edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(n: usize, edges: &[(usize, usize)]) -> UnGraph<(), ()> {
        let mut g = UnGraph::new_undirected();
        let ids: Vec<_> = (0..n).map(|_| g.add_node(())).collect();
        for (a, b) in edges {
            g.add_edge(ids[*a], ids[*b], ());
        }
        g
    }

    #[test]
    fn square_with_tail() {
        // 0-1-2-3-0 square, 3-4 tail, 4=5 parallel pair.
        let gr = g(6, &[(0, 1), (1, 2), (2, 3), (3, 0), (3, 4), (4, 5), (4, 5)]);
        let p = protected_by(&gr, NodeIndex::new(0));
        assert_eq!(p, vec![true, true, true, true, false, false]);
        let (nodes, edges) = separators(&gr, NodeIndex::new(5), NodeIndex::new(0));
        assert_eq!(nodes, vec![NodeIndex::new(4), NodeIndex::new(3)]);
        assert_eq!(edges.len(), 1, "3-4 is a bridge; 4=5 is not");
    }
}
