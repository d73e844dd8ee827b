//! A compact undirected graph and its dominator tree: what the blast radius walks.

/// Compact undirected adjacency (CSR).
pub(super) struct Csr {
    pub(super) start: Vec<u32>,
    pub(super) adj: Vec<u32>,
}

impl Csr {
    pub(super) fn new(n: usize, edges: &[(u32, u32)]) -> Csr {
        let mut deg = vec![0u32; n + 1];
        for &(a, b) in edges {
            deg[a as usize] += 1;
            deg[b as usize] += 1;
        }
        let mut start = vec![0u32; n + 1];
        for i in 0..n {
            start[i + 1] = start[i] + deg[i];
        }
        let mut fill = start.clone();
        let mut adj = vec![0u32; start[n] as usize];
        for &(a, b) in edges {
            adj[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            adj[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        Csr { start, adj }
    }

    pub(super) fn n(&self) -> usize {
        self.start.len() - 1
    }

    pub(super) fn nb(&self, v: u32) -> &[u32] {
        &self.adj[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }

    pub(super) fn reach(&self, root: u32) -> Vec<bool> {
        let mut seen = vec![false; self.n()];
        let mut q = std::collections::VecDeque::from([root]);
        seen[root as usize] = true;
        while let Some(v) = q.pop_front() {
            for &w in self.nb(v) {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    q.push_back(w);
                }
            }
        }
        seen
    }

    /// Immediate dominators from `root` (u32::MAX: unreachable).
    pub(super) fn idom(&self, root: u32) -> Vec<u32> {
        let n = self.n();
        const NONE: u32 = u32::MAX;
        // Reverse postorder by iterative DFS.
        let mut order: Vec<u32> = Vec::with_capacity(n);
        let mut visited = vec![false; n];
        let mut stack: Vec<(u32, u32)> = vec![(root, 0)];
        visited[root as usize] = true;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            let nb = self.nb(v);
            if (*i as usize) < nb.len() {
                let w = nb[*i as usize];
                *i += 1;
                if !visited[w as usize] {
                    visited[w as usize] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
                stack.pop();
            }
        }
        order.reverse();
        let mut rpo = vec![NONE; n];
        for (i, &v) in order.iter().enumerate() {
            rpo[v as usize] = i as u32;
        }
        let mut idom = vec![NONE; n];
        idom[root as usize] = root;
        let mut changed = true;
        while changed {
            changed = false;
            for &v in order.iter().skip(1) {
                let mut new = NONE;
                for &p in self.nb(v) {
                    if idom[p as usize] == NONE {
                        continue;
                    }
                    new = if new == NONE {
                        p
                    } else {
                        let (mut a, mut b) = (p, new);
                        while a != b {
                            while rpo[a as usize] > rpo[b as usize] {
                                a = idom[a as usize];
                            }
                            while rpo[b as usize] > rpo[a as usize] {
                                b = idom[b as usize];
                            }
                        }
                        a
                    };
                }
                if new != NONE && idom[v as usize] != new {
                    idom[v as usize] = new;
                    changed = true;
                }
            }
        }
        idom
    }
}

#[cfg(test)]
mod tests {
    use super::Csr;

    #[test]
    fn dominators_of_a_diamond_with_a_tail() {
        // 0 root; 0-1, 0-2, 1-3, 2-3, 3-4.
        let c = Csr::new(5, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]);
        let idom = c.idom(0);
        assert_eq!(idom, vec![0, 0, 0, 0, 3]);
    }
}
