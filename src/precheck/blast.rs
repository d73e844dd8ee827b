//! The reporter's blast radius: a second implementation that shares nothing with the
//! analyzer's (`topology`). Its own loading, compact adjacency arrays, breadth-first
//! search for isolation, and dominators (Cooper–Harvey–Kennedy) over a graph whose
//! links and sessions are subdivided into nodes of their own, so that one dominator
//! tree names both the single devices and the single links every path depends on.
//! The analyzer uses Tarjan's biconnected blocks instead.

use crate::network::{NetworkModel, Sym};
use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Arc;

mod between;
mod csr;

pub use between::SinglePoints;
use csr::Csr;

/// A link between two devices, interface names in the graph's `ifnames`.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct LinkE {
    a: u32,
    ia: Sym,
    b: u32,
    ib: Sym,
}

impl LinkE {
    /// The two devices, smaller index first.
    fn pair(&self) -> (u32, u32) {
        (self.a.min(self.b), self.a.max(self.b))
    }
}

/// A configured session with a peer address.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct SessE {
    dev: u32,
    peer: String,
    asn: Option<u32>,
    local_if: Option<String>,
    peer_dev: Option<u32>,
    shutdown: bool,
    description: Option<String>,
}

/// What to remove, by name.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    /// Devices.
    pub devices: Vec<String>,
    /// (device, interface).
    pub interfaces: Vec<(String, String)>,
    /// Links by their two ends.
    pub links: Vec<crate::model::LinkEnds>,
    /// Sessions: (device or None for every device, peer address or `AS<n>` / peer name).
    pub peers: Vec<(Option<String>, String)>,
}

/// The recomputed blast radius.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Blast {
    /// Removed devices.
    pub removed: Vec<String>,
    /// Links removed.
    pub links_removed: usize,
    /// Devices with no path to an anchor.
    pub isolated: Vec<String>,
    /// Devices that lost their redundancy.
    pub degraded: Vec<String>,
    /// Sessions lost: `device → peer`.
    pub sessions_lost: Vec<String>,
    /// Of those, sessions lost only because the change splits the network between their
    /// two ends (both still up, no path left between them).
    pub sessions_split: Vec<String>,
    /// External peers with no session left.
    pub peers_lost: Vec<String>,
    /// Prefixes originated only by removed or isolated devices.
    pub prefixes_withdrawn: Vec<String>,
    /// Services hit: down when no endpoint remains, degraded when some do.
    pub services: Vec<ServiceHit>,
    /// Names in the spec that are not in the state DB.
    pub unknown: Vec<String>,
}

impl Blast {
    /// Removed + isolated devices.
    pub fn number(&self) -> usize {
        self.removed.len() + self.isolated.len()
    }
}

/// A service the removal reaches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServiceHit {
    /// Name.
    pub name: String,
    /// Criticality.
    pub criticality: String,
    /// Its endpoints.
    pub endpoints: usize,
    /// Endpoints that remain reachable.
    pub remaining: usize,
}

impl ServiceHit {
    /// No endpoint remains.
    pub fn down(&self) -> bool {
        self.remaining == 0
    }
}

impl std::fmt::Display for ServiceHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.down() {
            write!(f, "{} ({}, down)", self.name, self.criticality)
        } else {
            write!(
                f,
                "{} ({}, degraded: {} of {} endpoints remain)",
                self.name, self.criticality, self.remaining, self.endpoints
            )
        }
    }
}

/// A device's address (not a virtual one).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct AddrE {
    dev: u32,
    /// Interface name in the graph's `ifnames`.
    ifname: Sym,
    prefix: IpNet,
    address: IpAddr,
}

/// The network as the reporter sees it: arrays indexed by device number, names by
/// number, built once per state version and stored with it (the `graph` part), so that a
/// process only decodes it.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Graph {
    /// Device hostnames, sorted: a device's number is its place here.
    #[serde(deserialize_with = "crate::network::store::sized")]
    names: Vec<String>,
    #[serde(deserialize_with = "crate::network::store::sized")]
    anchor: Vec<bool>,
    /// Links sorted by their pair of devices.
    #[serde(deserialize_with = "crate::network::store::sized")]
    links: Vec<LinkE>,
    #[serde(deserialize_with = "crate::network::store::sized")]
    sessions: Vec<SessE>,
    /// External peer ASes, node ids after the devices.
    peer_asns: Vec<u32>,
    peer_names: Vec<String>,
    /// Addresses by device, each device's in the table's order.
    #[serde(deserialize_with = "crate::network::store::sized")]
    addresses: Vec<AddrE>,
    /// Device `d`'s addresses are `addresses[addr_start[d]..addr_start[d + 1]]`.
    #[serde(deserialize_with = "crate::network::store::sized")]
    addr_start: Vec<u32>,
    /// Interface names links and addresses refer to by number.
    #[serde(deserialize_with = "crate::network::store::sized")]
    ifnames: Vec<String>,
    /// Addresses whose subnet is wider than a host, by subnet: who has each prefix.
    #[serde(deserialize_with = "crate::network::store::sized")]
    holders: Vec<u32>,
    /// Prefixes of `network` statements, by device.
    #[serde(deserialize_with = "crate::network::store::sized")]
    originated: Vec<(u32, IpNet)>,
    services: Vec<(String, String, Vec<Ep>)>,
    #[serde(deserialize_with = "crate::network::store::sized")]
    protected_before: Vec<bool>,
    #[serde(deserialize_with = "crate::network::store::sized")]
    reachable_before: Vec<bool>,
    /// Each device's site, a number into `sites` (`u32::MAX`: none known).
    #[serde(deserialize_with = "crate::network::store::sized")]
    site: Vec<u32>,
    /// Site names.
    sites: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
enum Ep {
    Dev(u32),
    If(u32, String),
    Prefix(IpNet),
}

/// Removal state as flags.
struct Cut {
    dev: Vec<bool>,
    link: Vec<bool>,
    sess: Vec<bool>,
}

/// What the root of the subdivided graph joins.
#[derive(Clone, Copy)]
enum Roots<'a> {
    /// Every anchor and every external peer.
    Anchors,
    /// The anchors not listed (to look at one peer from the core).
    InsideExcept(&'a HashSet<u32>),
    /// These devices only.
    Devices(&'a [u32]),
}

/// Element kinds of the subdivided graph, for naming dominators.
enum Elem {
    Device(u32),
    Peer,
    Link(usize),
    Session(usize),
    Root,
}

impl Graph {
    /// The graph of the DB's current state version: built from the network model once per
    /// state version (its own reading of it, independent of the analyzer's), stored with
    /// the state, and loaded once per process.
    pub fn load(db: &StateDb) -> Result<Arc<Graph>, StateError> {
        crate::network::store::shared(
            db,
            "graph",
            |db| {
                let m = NetworkModel::shared(db)?;
                Ok(Graph::from_model(&m))
            },
            |_| {},
        )
    }

    /// The graph of a network model.
    pub fn from_model(m: &NetworkModel) -> Graph {
        let mut g = Graph::default();
        let mut live: Vec<&crate::network::Device> = m
            .devices
            .iter()
            .filter(|d| d.status != "offline" && d.status != "decommissioned")
            .collect();
        live.sort_by(|a, b| a.hostname.cmp(&b.hostname));
        // A hostname's number in the model's names → the device's in the graph.
        let mut sym_dev = vec![u32::MAX; m.names.len()];
        for d in &live {
            if let Some(s) = m.sym(&d.hostname) {
                sym_dev[s as usize] = g.names.len() as u32;
            }
            g.names.push(d.hostname.clone());
            g.site.push(match d.site.as_deref() {
                Some(name) => match g.sites.iter().position(|x| x == name) {
                    Some(i) => i as u32,
                    None => {
                        g.sites.push(name.to_owned());
                        g.sites.len() as u32 - 1
                    }
                },
                None => u32::MAX,
            });
            g.anchor.push(matches!(
                d.role.as_deref().unwrap_or(""),
                "border" | "core" | "edge" | "spine"
            ));
        }
        let dev_of = |s: Sym| sym_dev.get(s as usize).copied().filter(|&d| d != u32::MAX);
        // Hostnames are names of the model's table too; the graph keeps only interfaces'.
        let mut ifsym = vec![u32::MAX; m.names.len()];
        let mut ifnames: Vec<String> = Vec::new();
        let mut intern = |s: Sym| {
            let slot = &mut ifsym[s as usize];
            if *slot == u32::MAX {
                *slot = ifnames.len() as Sym;
                ifnames.push(m.name(s).to_owned());
            }
            *slot
        };
        let up = m.sym("up");
        for l in m.links.iter().filter(|l| Some(l.status) == up) {
            if let (Some(a), Some(b)) = (dev_of(l.hostname_a), dev_of(l.hostname_b)) {
                g.links.push(LinkE {
                    a,
                    ia: intern(l.ifname_a),
                    b,
                    ib: intern(l.ifname_b),
                });
            }
        }
        g.links.sort_by_key(|l| l.pair());
        // Sessions first: the address pass then keeps only the addresses sessions need.
        let raw: Vec<(u32, &crate::network::Session)> = m
            .sessions
            .iter()
            .filter_map(|s| Some((g.device(&s.hostname)?, s)))
            .collect();
        // Stored addresses are text; sessions name them as text: compared parsed.
        let peers_wanted: HashSet<IpAddr> = raw
            .iter()
            .filter_map(|(_, s)| s.peer.parse().ok())
            .collect();
        let locals_wanted: HashSet<(u32, IpAddr)> = raw
            .iter()
            .filter_map(|(d, s)| Some((*d, s.local_ip.as_deref()?.parse().ok()?)))
            .collect();
        let mut owner: HashMap<IpAddr, u32> = HashMap::new();
        let mut by_addr: HashMap<(u32, IpAddr), &str> = HashMap::new();
        let virt = m.sym("virtual");
        // Addresses of devices out of service (offline, decommissioned): a session to one
        // is down, not a session to a peer outside the network.
        let mut out_of_service: HashSet<IpAddr> = HashSet::new();
        for r in &m.addresses {
            let Some(d) = dev_of(r.hostname) else {
                if Some(r.kind) != virt
                    && peers_wanted.contains(&r.address)
                    && m.device(m.name(r.hostname)).is_some()
                {
                    out_of_service.insert(r.address);
                }
                continue;
            };
            let a = r.address;
            let virtual_addr = Some(r.kind) == virt;
            if locals_wanted.contains(&(d, a)) {
                by_addr.insert((d, a), m.name(r.ifname));
            }
            if !virtual_addr && peers_wanted.contains(&a) {
                owner.insert(a, d);
            }
            if !virtual_addr {
                g.addresses.push(AddrE {
                    dev: d,
                    ifname: intern(r.ifname),
                    prefix: r.prefix,
                    address: a,
                });
            }
        }
        g.ifnames = ifnames;
        let mut peer_idx: HashMap<u32, usize> = HashMap::new();
        for (dev, s) in raw {
            let local_if = s.update_source.clone().or_else(|| {
                let ip = s.local_ip.as_deref()?.parse().ok()?;
                by_addr.get(&(dev, ip)).map(|i| (*i).to_owned())
            });
            let peer_ip: Option<IpAddr> = s.peer.parse().ok();
            let peer_dev = peer_ip.and_then(|p| owner.get(&p).copied());
            if peer_dev.is_none() && peer_ip.is_some_and(|p| out_of_service.contains(&p)) {
                continue;
            }
            if peer_dev.is_none() {
                if let Some(a) = s.peer_asn {
                    if let std::collections::hash_map::Entry::Vacant(slot) = peer_idx.entry(a) {
                        slot.insert(g.peer_asns.len());
                        g.peer_asns.push(a);
                        g.peer_names
                            .push(crate::network::peer_as_name([s.description.as_deref()], a));
                    }
                }
            }
            g.sessions.push(SessE {
                dev,
                peer: s.peer.clone(),
                asn: s.peer_asn,
                local_if,
                peer_dev,
                shutdown: s.shutdown,
                description: s.description.clone(),
            });
        }
        for n in &m.bgp_networks {
            if let (Some(d), Ok(p)) = (g.device(&n.hostname), n.prefix.parse()) {
                g.originated.push((d, p));
            }
        }
        for s in m.services.iter().filter(|s| !s.endpoints.is_empty()) {
            let crit = s
                .criticality
                .clone()
                .unwrap_or_else(|| "unrated".to_owned());
            let eps = s
                .endpoints
                .iter()
                .filter_map(|e| {
                    match (
                        e.hostname.as_deref().and_then(|h| g.device(h)),
                        &e.ifname,
                        &e.prefix,
                    ) {
                        (Some(d), Some(i), _) => Some(Ep::If(d, i.clone())),
                        (Some(d), None, _) => Some(Ep::Dev(d)),
                        (None, _, Some(p)) => p.parse().ok().map(Ep::Prefix),
                        _ => None,
                    }
                })
                .collect();
            g.services.push((s.name.clone(), crit, eps));
        }
        // By device, each device's addresses in the table's order (a stable sort).
        g.addresses.sort_by_key(|a| a.dev);
        g.addr_start = vec![0; g.names.len() + 1];
        for a in &g.addresses {
            g.addr_start[a.dev as usize + 1] += 1;
        }
        for i in 0..g.names.len() {
            g.addr_start[i + 1] += g.addr_start[i];
        }
        g.holders = (0..g.addresses.len() as u32)
            .filter(|&i| {
                let p = g.addresses[i as usize].prefix;
                p.prefix_len() < p.max_prefix_len()
            })
            .collect();
        g.holders
            .sort_by_key(|&i| (g.addresses[i as usize].prefix, i));
        let none = g.no_cut();
        g.protected_before = g.protection(&none);
        let (csr, root, _) = g.subdivided(&none, &[], Roots::Anchors);
        let reach = csr.reach(root);
        g.reachable_before = (0..g.names.len()).map(|v| reach[v]).collect();
        g
    }

    /// A device's number.
    fn device(&self, hostname: &str) -> Option<u32> {
        self.names
            .binary_search_by(|n| n.as_str().cmp(hostname))
            .ok()
            .map(|i| i as u32)
    }

    /// The addresses of device `d`.
    fn addresses_of(&self, d: u32) -> &[AddrE] {
        let (s, e) = (self.addr_start[d as usize], self.addr_start[d as usize + 1]);
        &self.addresses[s as usize..e as usize]
    }

    /// The addresses whose subnet is `p`.
    fn holding(&self, p: &IpNet) -> impl Iterator<Item = &AddrE> {
        let at = |i: &u32| self.addresses[*i as usize].prefix;
        let s = self.holders.partition_point(|i| at(i) < *p);
        let e = self.holders.partition_point(|i| at(i) <= *p);
        self.holders[s..e]
            .iter()
            .map(|&i| &self.addresses[i as usize])
    }

    fn ifname(&self, s: u32) -> &str {
        self.ifnames.get(s as usize).map_or("", String::as_str)
    }

    fn no_cut(&self) -> Cut {
        Cut {
            dev: vec![false; self.names.len()],
            link: vec![false; self.links.len()],
            sess: vec![false; self.sessions.len()],
        }
    }

    fn peer_node(&self, asn: u32) -> Option<u32> {
        self.peer_asns
            .iter()
            .position(|a| *a == asn)
            .map(|i| (self.names.len() + i) as u32)
    }

    /// The subdivided graph: devices, peers, root, then one node per link and session.
    /// The root joins what `roots` says.
    fn subdivided(
        &self,
        cut: &Cut,
        extra_sessions: &[SessE],
        roots: Roots<'_>,
    ) -> (Csr, u32, Vec<Elem>) {
        let nd = self.names.len();
        let np = self.peer_asns.len();
        let root = (nd + np) as u32;
        let mut kinds: Vec<Elem> = (0..nd as u32).map(Elem::Device).collect();
        kinds.extend((0..np).map(|_| Elem::Peer));
        kinds.push(Elem::Root);
        let mut edges: Vec<(u32, u32)> = Vec::with_capacity(self.links.len() * 2 + nd);
        for (i, a) in self.anchor.iter().enumerate() {
            let joined = match roots {
                Roots::Anchors => *a,
                Roots::InsideExcept(h) => *a && !h.contains(&(i as u32)),
                // Sorted by device number (`between::members`).
                Roots::Devices(d) => d.binary_search(&(i as u32)).is_ok(),
            };
            if joined && !cut.dev[i] {
                edges.push((root, i as u32));
            }
        }
        if matches!(roots, Roots::Anchors) {
            for p in 0..np {
                edges.push((root, (nd + p) as u32));
            }
        }
        // Parallel links (or sessions) between one pair are never a single point of
        // failure: they become one plain edge. A lone link or session is subdivided so
        // that it can show up as a dominator. Links are sorted by their pair at load.
        let alive_link = |i: usize| {
            let l = &self.links[i];
            !(cut.link[i] || cut.dev[l.a as usize] || cut.dev[l.b as usize])
        };
        let mut i = 0;
        while i < self.links.len() {
            let pair = self.links[i].pair();
            let mut j = i;
            let mut alive = Vec::new();
            while j < self.links.len() && self.links[j].pair() == pair {
                if alive_link(j) {
                    alive.push(j);
                }
                j += 1;
            }
            match alive.as_slice() {
                [] => {}
                [only] => {
                    let mid = kinds.len() as u32;
                    kinds.push(Elem::Link(*only));
                    edges.push((pair.0, mid));
                    edges.push((mid, pair.1));
                }
                _ => edges.push(pair),
            }
            i = j;
        }
        let mut by_pair: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
        // Between sites, the way through an external peer is not a path of the network.
        let peers = !matches!(roots, Roots::Devices(_));
        for (i, s) in self
            .sessions
            .iter()
            .chain(extra_sessions)
            .enumerate()
            .filter(|_| peers)
        {
            let cut_here = i < self.sessions.len() && cut.sess[i];
            if cut_here || s.shutdown || s.peer_dev.is_some() || cut.dev[s.dev as usize] {
                continue;
            }
            let Some(p) = s.asn.and_then(|a| self.peer_node(a)) else {
                continue;
            };
            by_pair.entry((s.dev, p)).or_default().push(i);
        }
        let mut pairs: Vec<((u32, u32), Vec<usize>)> = by_pair.into_iter().collect();
        pairs.sort();
        for ((dev, p), sessions) in pairs {
            if let [only] = sessions.as_slice() {
                let mid = kinds.len() as u32;
                kinds.push(Elem::Session(*only));
                edges.push((dev, mid));
                edges.push((mid, p));
            } else {
                edges.push((dev, p));
            }
        }
        (Csr::new(kinds.len(), &edges), root, kinds)
    }

    /// Connected components of the devices over the links that survive `cut` (a label per
    /// device; removed devices are alone).
    fn components(&self, cut: &Cut) -> Vec<u32> {
        let n = self.names.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn root(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                parent[x as usize] = parent[parent[x as usize] as usize];
                x = parent[x as usize];
            }
            x
        }
        for (i, l) in self.links.iter().enumerate() {
            if cut.link[i] || cut.dev[l.a as usize] || cut.dev[l.b as usize] {
                continue;
            }
            let (ra, rb) = (root(&mut parent, l.a), root(&mut parent, l.b));
            if ra != rb {
                parent[ra as usize] = rb;
            }
        }
        (0..n as u32).map(|x| root(&mut parent, x)).collect()
    }

    /// Devices with two independent paths (no single device or link in common) to the anchors.
    fn protection(&self, cut: &Cut) -> Vec<bool> {
        let (csr, root, _) = self.subdivided(cut, &[], Roots::Anchors);
        let idom = csr.idom(root);
        (0..self.names.len()).map(|v| idom[v] == root).collect()
    }

    fn cut_for(&self, spec: &Spec, unknown: &mut Vec<String>) -> Cut {
        let mut cut = self.no_cut();
        let mut ifs: HashSet<(u32, &str)> = HashSet::new();
        for d in &spec.devices {
            match self.device(d) {
                Some(i) => cut.dev[i as usize] = true,
                None => unknown.push(d.clone()),
            }
        }
        for (d, i) in &spec.interfaces {
            match self.device(d) {
                Some(x) => {
                    ifs.insert((x, i.as_str()));
                }
                None => unknown.push(format!("{d}:{i}")),
            }
        }
        for ((da, ia), (db, ib)) in &spec.links {
            let hit: Vec<usize> = self
                .links
                .iter()
                .enumerate()
                .filter(|(_, l)| {
                    let (na, nb) = (&self.names[l.a as usize], &self.names[l.b as usize]);
                    let same =
                        |h: &str, i: &str, n: &str, li: &str| h == n && crate::ifname::same(i, li);
                    let (la, lb) = (self.ifname(l.ia), self.ifname(l.ib));
                    (same(da, ia, na, la) && same(db, ib, nb, lb))
                        || (same(da, ia, nb, lb) && same(db, ib, na, la))
                })
                .map(|(i, _)| i)
                .collect();
            if hit.is_empty() {
                unknown.push(format!("{da}:{ia}-{db}:{ib}"));
            }
            for i in hit {
                cut.link[i] = true;
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            let gone = |d: u32, ifn: &str| {
                cut.dev[d as usize]
                    || ifs
                        .iter()
                        .any(|(x, y)| *x == d && crate::ifname::covers(y, ifn))
            };
            if gone(l.a, self.ifname(l.ia)) || gone(l.b, self.ifname(l.ib)) {
                cut.link[i] = true;
            }
        }
        let touched: BTreeSet<u32> = ifs
            .iter()
            .map(|(d, _)| *d)
            .chain((0..self.names.len() as u32).filter(|d| cut.dev[*d as usize]))
            .collect();
        let removed_addrs: HashSet<IpAddr> = touched
            .iter()
            .flat_map(|d| self.addresses_of(*d))
            .filter(|a| {
                cut.dev[a.dev as usize]
                    || ifs.iter().any(|(x, y)| {
                        *x == a.dev && crate::ifname::covers(y, self.ifname(a.ifname))
                    })
            })
            .map(|a| a.address)
            .collect();
        for (dev, who) in &spec.peers {
            let dev_i = dev.as_deref().and_then(|d| self.device(d));
            if dev.is_some() && dev_i.is_none() {
                unknown.push(dev.clone().unwrap_or_default());
                continue;
            }
            let asn = who.strip_prefix("AS").and_then(|a| a.parse::<u32>().ok());
            let mut any = false;
            for (i, s) in self.sessions.iter().enumerate() {
                let by_name = crate::network::peer_name(s.description.as_deref())
                    .is_some_and(|w| w.eq_ignore_ascii_case(who));
                let matches = s.peer == *who || asn.is_some_and(|a| s.asn == Some(a)) || by_name;
                if matches && dev_i.is_none_or(|d| d == s.dev) {
                    cut.sess[i] = true;
                    any = true;
                }
            }
            if !any {
                unknown.push(who.clone());
            }
        }
        for (i, s) in self.sessions.iter().enumerate() {
            let local_gone = s.local_if.as_deref().is_some_and(|li| {
                ifs.iter()
                    .any(|(x, y)| *x == s.dev && crate::ifname::covers(y, li))
            });
            let peer_gone = s.peer_dev.is_some_and(|p| cut.dev[p as usize])
                || s.peer
                    .parse()
                    .is_ok_and(|p: std::net::IpAddr| removed_addrs.contains(&p));
            if cut.dev[s.dev as usize] || local_gone || peer_gone {
                cut.sess[i] = true;
            }
        }
        cut
    }

    /// The blast radius of removing what `spec` names.
    pub fn blast(&self, spec: &Spec) -> Blast {
        let mut b = Blast::default();
        let cut = self.cut_for(spec, &mut b.unknown);
        let (csr, root, _) = self.subdivided(&cut, &[], Roots::Anchors);
        let reach = csr.reach(root);
        let idom = csr.idom(root);
        let mut gone = cut.dev.clone();
        for (v, name) in self.names.iter().enumerate() {
            if cut.dev[v] {
                b.removed.push(name.clone());
            } else if !reach[v] {
                // Only what this removal cuts off: a device already cut off is not its doing.
                if self.reachable_before[v] {
                    b.isolated.push(name.clone());
                    gone[v] = true;
                }
            } else if !self.anchor[v] && self.protected_before[v] && idom[v] != root {
                b.degraded.push(name.clone());
            }
        }
        b.links_removed = cut.link.iter().filter(|x| **x).count();
        // Sessions between two devices of the network need a path between them: when the
        // change splits the network, those across the split end even though both ends
        // still reach an anchor of their own.
        let before_parts = self.components(&self.no_cut());
        let after_parts = self.components(&cut);
        let mut lost_by_asn: HashMap<u32, (usize, usize)> = HashMap::new();
        for (i, s) in self.sessions.iter().enumerate() {
            let split = s.peer_dev.is_some_and(|p| {
                before_parts[s.dev as usize] == before_parts[p as usize]
                    && after_parts[s.dev as usize] != after_parts[p as usize]
            });
            let lost = cut.sess[i] || gone[s.dev as usize] || split;
            if split
                && !cut.sess[i]
                && !gone[s.dev as usize]
                && !s.peer_dev.is_some_and(|p| gone[p as usize])
            {
                b.sessions_split
                    .push(format!("{} → {}", self.names[s.dev as usize], s.peer));
            }
            if lost {
                b.sessions_lost
                    .push(format!("{} → {}", self.names[s.dev as usize], s.peer));
            }
            if let (None, Some(a), false) = (s.peer_dev, s.asn, s.shutdown) {
                let e = lost_by_asn.entry(a).or_default();
                e.0 += 1;
                e.1 += usize::from(lost);
            }
        }
        b.sessions_lost.sort();
        for (i, a) in self.peer_asns.iter().enumerate() {
            if let Some((total, lost)) = lost_by_asn.get(a) {
                if total == lost {
                    b.peers_lost.push(format!("{} (AS{a})", self.peer_names[i]));
                }
            }
        }
        b.peers_lost.sort();
        let if_gone =
            |d: u32, i: &str| gone[d as usize] || cut_if(spec, &self.names[d as usize], i);
        // Candidates: the prefixes of what is gone; withdrawn when no survivor has them.
        let mut withdrawn: BTreeSet<IpNet> = BTreeSet::new();
        let gone_devices = (0..self.names.len()).filter(|d| gone[*d]);
        let gone_ifs = spec
            .interfaces
            .iter()
            .filter_map(|(d, _)| self.device(d).map(|x| x as usize));
        let mut candidates: BTreeSet<IpNet> = BTreeSet::new();
        for d in gone_devices.chain(gone_ifs) {
            for a in self.addresses_of(d as u32) {
                if if_gone(a.dev, self.ifname(a.ifname)) {
                    candidates.insert(a.prefix);
                }
            }
        }
        for (d, p) in &self.originated {
            if gone[*d as usize] {
                candidates.insert(*p);
            }
        }
        for p in candidates {
            let held = self
                .holding(&p)
                .any(|a| !if_gone(a.dev, self.ifname(a.ifname)))
                || self
                    .originated
                    .iter()
                    .any(|(d, o)| *o == p && !gone[*d as usize]);
            if !held && p.prefix_len() < p.max_prefix_len() {
                withdrawn.insert(p);
            }
        }
        b.prefixes_withdrawn = withdrawn.iter().map(|p| p.to_string()).collect();
        for (name, crit, eps) in &self.services {
            let lost = eps
                .iter()
                .filter(|ep| match ep {
                    Ep::Dev(d) => gone[*d as usize],
                    Ep::If(d, i) => if_gone(*d, i),
                    Ep::Prefix(p) => withdrawn.iter().any(|w| w.contains(p)),
                })
                .count();
            if lost > 0 {
                b.services.push(ServiceHit {
                    name: name.clone(),
                    criticality: crit.clone(),
                    endpoints: eps.len(),
                    remaining: eps.len() - lost,
                });
            }
        }
        b
    }

    /// Single points of failure between an external peer AS and the inside of the
    /// network (its core), with `extra` sessions added: the peer's dominator chain.
    /// With `after`, what a plan's candidate loses (shut interfaces, lost links and
    /// sessions) is cut first: the sessions counted are the ones left.
    pub fn peer_single_points(
        &self,
        asn: u32,
        extra: &[(String, String)],
        after: Option<&Spec>,
    ) -> (usize, Vec<String>) {
        let extra: Vec<SessE> = extra
            .iter()
            .filter_map(|(d, ifn)| {
                Some(SessE {
                    dev: self.device(d)?,
                    peer: String::new(),
                    asn: Some(asn),
                    local_if: Some(ifn.clone()),
                    peer_dev: None,
                    shutdown: false,
                    description: None,
                })
            })
            .collect();
        let Some(peer) = self.peer_node(asn) else {
            return (0, Vec::new());
        };
        let cut = after.map_or_else(|| self.no_cut(), |x| self.cut_for(x, &mut Vec::new()));
        let live = |i: usize, s: &SessE| {
            !(cut.dev[s.dev as usize] || (i < self.sessions.len() && cut.sess[i]))
        };
        let sessions = self
            .sessions
            .iter()
            .chain(&extra)
            .enumerate()
            .filter(|(i, s)| {
                s.asn == Some(asn) && s.peer_dev.is_none() && !s.shutdown && live(*i, s)
            })
            .count();
        // Root the dominator tree at the inside: anchors that host no session to this peer.
        let hosts: HashSet<u32> = self
            .sessions
            .iter()
            .chain(&extra)
            .enumerate()
            .filter(|(i, s)| s.asn == Some(asn) && live(*i, s))
            .map(|(_, s)| s.dev)
            .collect();
        let (inside, root, kinds) = self.subdivided(&cut, &extra, Roots::InsideExcept(&hosts));
        let idom = inside.idom(root);
        let mut out = Vec::new();
        let mut v = peer;
        while idom[v as usize] != u32::MAX && idom[v as usize] != v {
            let d = idom[v as usize];
            if d == root {
                break;
            }
            out.extend(self.describe(&kinds[d as usize], &extra));
            v = d;
        }
        if idom[peer as usize] == u32::MAX {
            out.push("the peer is not reachable from the core at all".to_owned());
        }
        (sessions, out)
    }

    /// Anchors: border, core, edge and spine devices (by role) and external peers.
    pub fn anchor_count(&self) -> usize {
        self.anchor.iter().filter(|a| **a).count() + self.peer_asns.len()
    }

    /// Devices in the graph.
    pub fn device_count(&self) -> usize {
        self.names.len()
    }

    /// Link count.
    pub fn link_count(&self) -> usize {
        self.links.len()
    }
}

fn cut_if(spec: &Spec, dev: &str, ifn: &str) -> bool {
    spec.interfaces
        .iter()
        .any(|(d, i)| d == dev && crate::ifname::covers(i, ifn))
}
