//! Redundancy beyond each device's own path to an anchor: the paths between two sites,
//! and from the core towards each external peer, that a change leaves depending on a
//! single device or link (`docs/precheck.md`, "Redundancy").

use super::{Cut, Elem, Graph, Roots, SessE, Spec};
use serde::Serialize;
use std::collections::BTreeSet;

/// Above this many sites, only the pairs with a site the change touches are judged.
const ALL_PAIRS_UP_TO: usize = 64;

/// The largest network whose paths between sites and towards peers are judged: each
/// site or peer judged is a dominator run over the whole network, before and after
/// (2.3 s of a 10,000-device pre-check with its 50 sites; `docs/performance.md`).
pub const JUDGED_UP_TO: usize = 2_000;

/// What a change leaves depending on a single device or link that did not before.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SinglePoints {
    /// `(site, site, element)`: every path between the two sites now crosses it.
    pub between_sites: Vec<(String, String, String)>,
    /// `(peer, element)`: every path from the core towards the peer now crosses it.
    pub towards_peers: Vec<(String, String)>,
    /// Whether only the site pairs with a site the change touches were judged (many
    /// sites).
    pub touched_sites_only: bool,
    /// Why nothing was judged, when it was not (a network too large).
    pub not_judged: Option<String>,
}

impl Graph {
    /// Names an element of the subdivided graph (`device X`, `link a:i – b:j`,
    /// `session X via i`, or `session X → peer` when it names no interface); None for
    /// the root and peers.
    pub(super) fn describe(&self, e: &Elem, extra: &[SessE]) -> Option<String> {
        match e {
            Elem::Device(x) => Some(format!("device {}", self.names[*x as usize])),
            Elem::Link(l) => {
                let l = &self.links[*l];
                Some(format!(
                    "link {}:{} – {}:{}",
                    self.names[l.a as usize],
                    self.ifname(l.ia),
                    self.names[l.b as usize],
                    self.ifname(l.ib)
                ))
            }
            Elem::Session(s) => {
                let s = self
                    .sessions
                    .get(*s)
                    .or_else(|| extra.get(s - self.sessions.len()))?;
                // The local interface is known only when the session names one; the
                // peer address always is, and says which session it is.
                Some(match s.local_if.as_deref() {
                    Some(i) => format!("session {} via {i}", self.names[s.dev as usize]),
                    None => format!("session {} → {}", self.names[s.dev as usize], s.peer),
                })
            }
            Elem::Peer | Elem::Root => None,
        }
    }

    /// The devices of each site that `cut` leaves.
    fn members(&self, cut: &Cut) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new(); self.sites.len()];
        for (d, s) in self.site.iter().enumerate() {
            if let Some(m) = out.get_mut(*s as usize).filter(|_| !cut.dev[d]) {
                m.push(d as u32);
            }
        }
        out
    }

    /// For each pair of sites (`from` one of `sources`), the elements every path between
    /// them crosses — within the network (not through an external peer).
    fn site_chains(&self, cut: &Cut, sources: &[usize]) -> BTreeSet<(usize, usize, String)> {
        let members = self.members(cut);
        let mut out = BTreeSet::new();
        for &a in sources {
            if members[a].is_empty() {
                continue;
            }
            let (csr, root, kinds) = self.subdivided(cut, &[], Roots::Devices(&members[a]));
            let idom = csr.idom(root);
            // The dominators of a device, itself included, up to the root.
            let chain = |v: u32| -> BTreeSet<u32> {
                let mut c = BTreeSet::new();
                let mut v = v;
                while v != root && v != u32::MAX && c.insert(v) {
                    v = idom[v as usize];
                }
                c
            };
            for (b, devices) in members.iter().enumerate() {
                if b == a || (sources.contains(&b) && b < a) {
                    continue;
                }
                let mut reached = devices.iter().filter(|d| idom[**d as usize] != u32::MAX);
                // No path at all is a split, which the sessions and flows report.
                let Some(first) = reached.next() else {
                    continue;
                };
                let mut common = chain(*first);
                for d in reached {
                    let c = chain(*d);
                    common.retain(|x| c.contains(x));
                    if common.is_empty() {
                        break;
                    }
                }
                for x in common {
                    if let Some(name) = self.describe(&kinds[x as usize], &[]) {
                        let (p, q) = if a < b { (a, b) } else { (b, a) };
                        out.insert((p, q, name));
                    }
                }
            }
        }
        out
    }

    /// Per external peer, the elements every path from the core towards it crosses.
    fn peer_chains(&self, spec: Option<&Spec>) -> BTreeSet<(String, String)> {
        let mut out = BTreeSet::new();
        for (i, asn) in self.peer_asns.iter().enumerate() {
            let (sessions, chain) = self.peer_single_points(*asn, &[], spec);
            // A peer with no session left is lost, not degraded (the blast radius says).
            if sessions == 0 || chain.iter().any(|c| c.starts_with("the peer is not")) {
                continue;
            }
            let peer = format!("{} (AS{asn})", self.peer_names[i]);
            out.extend(chain.into_iter().map(|c| (peer.clone(), c)));
        }
        out
    }

    /// What removing what `spec` names leaves depending on a single device or link,
    /// between two sites or towards an external peer, that did not before.
    pub fn single_points(&self, spec: &Spec) -> SinglePoints {
        let cut = self.cut_for(spec, &mut Vec::new());
        let mut out = SinglePoints::default();
        if !cut.dev.iter().chain(&cut.link).chain(&cut.sess).any(|x| *x) {
            return out;
        }
        if self.names.len() > JUDGED_UP_TO {
            out.not_judged = Some(format!(
                "judged on networks of up to {JUDGED_UP_TO} devices for now ({} here): each site and provider is a dominator run over the whole network",
                self.names.len()
            ));
            return out;
        }
        let sources: Vec<usize> = if self.sites.len() <= ALL_PAIRS_UP_TO {
            (0..self.sites.len()).collect()
        } else {
            out.touched_sites_only = true;
            let mut touched: BTreeSet<usize> = BTreeSet::new();
            let mut site_of = |d: u32| {
                if let Some(s) = self.site.get(d as usize).filter(|s| **s != u32::MAX) {
                    touched.insert(*s as usize);
                }
            };
            for (d, gone) in cut.dev.iter().enumerate() {
                if *gone {
                    site_of(d as u32);
                }
            }
            for (l, gone) in cut.link.iter().enumerate() {
                if *gone {
                    site_of(self.links[l].a);
                    site_of(self.links[l].b);
                }
            }
            touched.into_iter().collect()
        };
        let before = self.site_chains(&self.no_cut(), &sources);
        for (a, b, e) in self.site_chains(&cut, &sources) {
            if !before.contains(&(a, b, e.clone())) {
                out.between_sites
                    .push((self.sites[a].clone(), self.sites[b].clone(), e));
            }
        }
        let before = self.peer_chains(None);
        out.towards_peers = self
            .peer_chains(Some(spec))
            .into_iter()
            .filter(|x| !before.contains(x))
            .collect();
        out
    }
}
