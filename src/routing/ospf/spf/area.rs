//! One OSPF area's graph (routers, then transit networks) and the shortest-path run
//! from one of its routers: its distances, first hops and intra-area routes.

use super::{offer, Dest, Hop, Only, Table, NONE};
use crate::routing::ospf::topology::{OspfIf, Segment};
use crate::routing::{FastMap as HashMap, FastSet as HashSet};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Debug, Serialize, Deserialize)]
struct Edge {
    /// The node it leads to (u32 and the cost's u32 halve the graphs' memory).
    to: u32,
    cost: u32,
    local: u32,
    remote: u32,
}

/// One area's graph: router nodes (devices) then transit-network nodes.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Area {
    routers: Vec<usize>,
    node_of: HashMap<usize, usize>,
    edges: Vec<Vec<Edge>>,
    adverts: Vec<Vec<(Dest, u64)>>,
}

impl Area {
    /// The graph of the area whose interfaces are `ifs[k]` for `mine` and segments
    /// `segs[k]` for `its_segs`.
    pub(super) fn build(
        (ifs, mine): (&[OspfIf], &[usize]),
        (segs, its_segs): (&[Segment], &[usize]),
        asbr: &HashSet<usize>,
    ) -> Area {
        let mut routers: Vec<usize> = mine.iter().map(|&k| ifs[k].device).collect();
        routers.sort_unstable();
        routers.dedup();
        let node_of: HashMap<usize, usize> =
            routers.iter().enumerate().map(|(n, d)| (*d, n)).collect();
        let area_segs = || its_segs.iter().map(|&k| &segs[k]);
        let transit: Vec<&Segment> = area_segs().filter(|s| !s.p2p).collect();
        let n = routers.len() + transit.len();
        let mut edges: Vec<Vec<Edge>> = (0..n).map(|_| Vec::new()).collect();
        let mut adverts: Vec<Vec<(Dest, u64)>> = vec![Vec::new(); n];
        let mut on_transit: HashSet<usize> = HashSet::default();
        for s in area_segs().filter(|s| s.p2p) {
            let (a, b) = (s.members[0], s.members[1]);
            for (x, y) in [(a, b), (b, a)] {
                if let (Some(&nx), Some(&ny)) =
                    (node_of.get(&ifs[x].device), node_of.get(&ifs[y].device))
                {
                    edges[nx].push(Edge {
                        to: ny as u32,
                        cost: ifs[x].cost,
                        local: x as u32,
                        remote: y as u32,
                    });
                }
            }
        }
        for (t, s) in transit.iter().enumerate() {
            let tn = routers.len() + t;
            adverts[tn].push((Dest::Net(s.prefix), 0));
            for &m in &s.members {
                on_transit.insert(m);
                if let Some(&r) = node_of.get(&ifs[m].device) {
                    edges[r].push(Edge {
                        to: tn as u32,
                        cost: ifs[m].cost,
                        local: m as u32,
                        remote: NONE,
                    });
                    edges[tn].push(Edge {
                        to: r as u32,
                        cost: 0,
                        local: NONE,
                        remote: m as u32,
                    });
                }
            }
        }
        for (k, i) in mine.iter().map(|&k| (k, &ifs[k])) {
            let Some(&r) = node_of.get(&i.device) else {
                continue;
            };
            if i.unnumbered {
                // Its borrowed address is the source interface's to advertise.
            } else if i.loopback || i.address.prefix_len() == 32 {
                let host = Ipv4Net::new(i.address.addr(), 32).unwrap_or(i.address);
                adverts[r].push((Dest::Net(host), u64::from(i.cost)));
            } else if !on_transit.contains(&k) {
                adverts[r].push((Dest::Net(i.address.trunc()), u64::from(i.cost)));
            }
            for s in &i.secondaries {
                adverts[r].push((Dest::Net(*s), u64::from(i.cost)));
            }
        }
        for (n, d) in routers.iter().enumerate() {
            if asbr.contains(d) {
                adverts[n].push((Dest::Router(*d), 0));
            }
        }
        Area {
            routers,
            node_of,
            edges,
            adverts,
        }
    }

    /// Dijkstra from node `s`: each node's distance and first hops. The distances
    /// first, without a hop list made per relaxation (the ABRs' and BGP speakers' runs
    /// were a third of the 50,000-device build), then each node's first hops, the union
    /// of its predecessors' on shortest paths, in an order where every predecessor comes
    /// first: by distance, a transit network before the routers at the same distance
    /// (its edges to them cost 0). Another edge of cost 0 on a shortest path would break
    /// that order: then [`Area::spf_relaxing`] computes them.
    fn spf(&self, s: usize) -> (Vec<u64>, Vec<Vec<Hop>>) {
        let n = self.edges.len();
        let mut dist = vec![u64::MAX; n];
        let mut order = Vec::with_capacity(n);
        let mut heap = BinaryHeap::new();
        dist[s] = 0;
        heap.push(Reverse((0u64, s)));
        while let Some(Reverse((d, u))) = heap.pop() {
            if d > dist[u] {
                continue;
            }
            order.push(u);
            for e in &self.edges[u] {
                let to = e.to as usize;
                let nd = d.saturating_add(u64::from(e.cost));
                if nd < dist[to] {
                    dist[to] = nd;
                    heap.push(Reverse((nd, to)));
                }
            }
        }
        let routers = self.routers.len();
        order.sort_by_key(|&u| (dist[u], u < routers));
        let mut hops: Vec<Vec<Hop>> = vec![Vec::new(); n];
        for &u in &order {
            let mine = std::mem::take(&mut hops[u]);
            let mine = if u == s {
                mine
            } else {
                let mut h = mine;
                h.sort_unstable();
                h.dedup();
                h
            };
            for e in &self.edges[u] {
                let to = e.to as usize;
                if to == s || dist[u].saturating_add(u64::from(e.cost)) != dist[to] {
                    continue;
                }
                if e.cost == 0 && (u < routers || to >= routers || to == u) {
                    return self.spf_relaxing(s);
                }
                if u == s {
                    hops[to].push((e.local, e.remote));
                } else {
                    hops[to].extend(mine.iter().map(|&(l, r)| {
                        if r == NONE {
                            (l, e.remote)
                        } else {
                            (l, r)
                        }
                    }));
                }
            }
            hops[u] = mine;
        }
        (dist, hops)
    }

    /// [`Area::spf`] relaxing each edge with the first hops as it goes: right whatever
    /// edges cost 0, slower (a hop list per relaxation).
    fn spf_relaxing(&self, s: usize) -> (Vec<u64>, Vec<Vec<Hop>>) {
        let n = self.edges.len();
        let mut dist = vec![u64::MAX; n];
        let mut hops: Vec<Vec<Hop>> = vec![Vec::new(); n];
        let mut heap = BinaryHeap::new();
        dist[s] = 0;
        heap.push(Reverse((0u64, s)));
        while let Some(Reverse((d, u))) = heap.pop() {
            if d > dist[u] {
                continue;
            }
            for e in &self.edges[u] {
                let to = e.to as usize;
                if to == s {
                    continue;
                }
                let nd = d.saturating_add(u64::from(e.cost));
                // Only a path no longer than the best known adds hops (made only then).
                if nd > dist[to] {
                    continue;
                }
                let via: Vec<Hop> = if u == s {
                    vec![(e.local, e.remote)]
                } else {
                    hops[u]
                        .iter()
                        .map(|&(l, r)| if r == NONE { (l, e.remote) } else { (l, r) })
                        .collect()
                };
                if nd < dist[to] {
                    dist[to] = nd;
                    hops[to] = via;
                    heap.push(Reverse((nd, to)));
                } else if nd == dist[to] {
                    let before = hops[to].len();
                    hops[to].extend(via);
                    hops[to].sort_unstable();
                    hops[to].dedup();
                    // Hops learned late (equal-cost paths through zero-cost edges)
                    // propagate again.
                    if hops[to].len() != before {
                        heap.push(Reverse((nd, to)));
                    }
                }
            }
        }
        (dist, hops)
    }

    /// The intra-area view of router `device`: its routes, its distances to `wanted`
    /// routers, and what it reaches without a hop (its own stubs and transit networks,
    /// which an ABR summarises too).
    /// With `only`, just the routes to those prefixes (and to every router).
    pub(super) fn intra(&self, device: usize, wanted: &HashSet<usize>, only: Only<'_>) -> View {
        let mut v = View::default();
        let Some(&s) = self.node_of.get(&device) else {
            return v;
        };
        let (dist, hops) = self.spf(s);
        let own: HashSet<Dest> = self.adverts[s].iter().map(|(d, _)| *d).collect();
        for (d, c) in &self.adverts[s] {
            offer(&mut v.mine, *d, *c, &[]);
        }
        let (t, to) = (&mut v.routes, &mut v.to);
        for (n, ads) in self.adverts.iter().enumerate() {
            if n == s || dist[n] == u64::MAX {
                continue;
            }
            if hops[n].iter().any(|(_, r)| *r == NONE) {
                for (d, c) in ads {
                    offer(&mut v.mine, *d, dist[n].saturating_add(*c), &[]);
                }
                continue;
            }
            let asked = |d: &Dest| match (d, only) {
                (Dest::Net(p), Some(only)) => only.contains(p),
                _ => true,
            };
            for (d, c) in ads {
                if !own.contains(d) && asked(d) {
                    offer(t, *d, dist[n].saturating_add(*c), &hops[n]);
                }
            }
            if let Some(&r) = self.routers.get(n) {
                if wanted.contains(&r) {
                    offer(to, Dest::Router(r), dist[n], &hops[n]);
                }
            }
        }
        v.routes.retain(|d, _| !v.mine.contains_key(d));
        v
    }
}

/// One router's view of one area.
#[derive(Default)]
pub(super) struct View {
    /// Its intra-area routes.
    pub(super) routes: Table,
    /// Its distances to the area's ABRs.
    pub(super) to: Table,
    /// What it reaches itself (its stubs, its transit networks), at their cost.
    pub(super) mine: Table,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// An area of `r` routers and `t` transit networks: router links (cost, both ends'
    /// numbers) and transit memberships (router, network, cost), costs small so that
    /// equal-cost paths abound.
    fn area(r: usize, t: usize, links: &[(usize, usize, u32)], on: &[(usize, usize, u32)]) -> Area {
        let n = r + t;
        let mut edges: Vec<Vec<Edge>> = (0..n).map(|_| Vec::new()).collect();
        let mut k = 0u32;
        for &(a, b, cost) in links {
            let (a, b) = (a % r, b % r);
            if a == b {
                continue;
            }
            edges[a].push(Edge {
                to: b as u32,
                cost,
                local: k,
                remote: k + 1,
            });
            edges[b].push(Edge {
                to: a as u32,
                cost,
                local: k + 1,
                remote: k,
            });
            k += 2;
        }
        for &(a, x, cost) in on.iter().filter(|_| t > 0) {
            let (a, x) = (a % r, r + x % t);
            edges[a].push(Edge {
                to: x as u32,
                cost,
                local: k,
                remote: NONE,
            });
            edges[x].push(Edge {
                to: a as u32,
                cost: 0,
                local: NONE,
                remote: k,
            });
            k += 1;
        }
        Area {
            routers: (0..r).collect(),
            node_of: (0..r).map(|d| (d, d)).collect(),
            edges,
            adverts: vec![Vec::new(); n],
        }
    }

    proptest! {
        /// The distances and first hops computed in two passes are those of relaxing
        /// each edge with its hops, from every router, ties and transit networks included.
        #[test]
        fn two_passes_give_the_relaxed_hops(
            r in 1usize..12,
            t in 0usize..4,
            links in proptest::collection::vec((0usize..12, 0usize..12, 1u32..4), 0..30),
            on in proptest::collection::vec((0usize..12, 0usize..4, 1u32..4), 0..12),
            zero in proptest::bool::ANY,
        ) {
            let mut links = links;
            // An edge of cost 0 between routers: the two-pass order does not hold there.
            if zero {
                links.push((0, 1, 0));
            }
            let g = area(r, t, &links, &on);
            for s in 0..r {
                prop_assert_eq!(g.spf(s), g.spf_relaxing(s));
            }
        }
    }
}
