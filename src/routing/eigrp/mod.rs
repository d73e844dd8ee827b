//! EIGRP (IPv4), network-wide: each device's EIGRP instances ([`Speaker::of`]: per
//! process and VRF, its interfaces with their bandwidth and delay, what it redistributes,
//! what olav does not model), then adjacencies and the distance-vector computation over
//! every device at once ([`routes`]), giving each device its `eigrp` and `eigrpEX` routes
//! and the reasons they may be incomplete (`docs/routing.md`, "EIGRP").
//!
//! - an interface runs EIGRP in an instance when its primary address is in one of the
//!   instance's `network` statements (NX-OS: `ip router eigrp TAG`), it is up and in the
//!   instance's VRF;
//! - two instances are neighbours when their interfaces share a subnet, their AS numbers
//!   are equal and neither interface is passive;
//! - each router takes, per prefix, the best of what its neighbours use (internal before
//!   external, then the lowest composite metric in its own mode), with the neighbour's
//!   bandwidth and delay combined with its own interface's: the devices' DUAL at rest.
//!   Equal best metrics are all kept (ECMP).

pub mod filter;
pub mod metric;

#[cfg(test)]
mod tests;

use super::connected::vrf_name;
use super::dynamic::Incomplete;
use super::igp::{self, Domains};
use super::route::{NextHop, Protocol, Route};
use crate::model::{DeviceConfig, EigrpProcess, EigrpStub, Vendor};
use ipnet::Ipv4Net;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::net::Ipv4Addr;

/// Above this many (routers × prefixes) in one EIGRP domain, its routes are not computed
/// (as OSPF's [`super::ospf::MAX_DOMAIN_ROWS`]); its devices are marked incomplete.
pub const MAX_DOMAIN_ROWS: u64 = 1_000_000;

/// Internal and external administrative distances (IOS, NX-OS).
const INTERNAL: u32 = 90;
const EXTERNAL: u32 = 170;

/// One interface running EIGRP.
#[derive(Debug, Clone)]
pub struct EigrpIf {
    /// The interface name.
    pub name: String,
    /// Its primary address.
    pub address: Ipv4Net,
    /// Its secondary subnets (advertised too).
    pub secondaries: Vec<Ipv4Net>,
    /// Passive: advertised, never adjacent.
    pub passive: bool,
    /// Its bandwidth, kbit/s.
    pub bw: u64,
    /// Its delay, ps.
    pub delay: u64,
}

/// One EIGRP instance of a device: a process in one VRF.
#[derive(Debug, Clone)]
pub struct Instance {
    /// The VRF (`default` for the global table).
    pub vrf: String,
    /// The autonomous system.
    pub asn: u32,
    /// Named mode (wide metrics).
    pub named: bool,
    /// Its interfaces.
    pub ifs: Vec<EigrpIf>,
    /// What it redistributes: (prefix, bandwidth kbit/s, delay ps, from a static route).
    pub externals: Vec<(Ipv4Net, u64, u64, bool)>,
    /// A stub router: what it advertises.
    pub stub: Option<EigrpStub>,
    /// Its distribute-lists.
    pub filters: Vec<filter::Filter>,
    /// What olav does not model in it, in words.
    pub unsupported: Vec<String>,
}

impl Instance {
    /// Whether the instance accepts (`inbound`) or advertises `p` on its interface `k`.
    fn passes(&self, inbound: bool, k: usize, p: Ipv4Net) -> bool {
        let name = self.ifs.get(k).map_or("", |i| i.name.as_str());
        self.filters
            .iter()
            .filter(|f| f.applies(inbound, name))
            .all(|f| f.permits(p))
    }
}

/// What one device brings to EIGRP.
#[derive(Debug, Clone, Default)]
pub struct Speaker {
    /// Its instances that run.
    pub instances: Vec<Instance>,
    /// It redistributes EIGRP routes into another protocol ([`igp::passes_on`]).
    pub passes_on: bool,
    /// It has routes its own externals could beat ([`igp::weak_sources`]).
    pub weak_sources: bool,
}

impl Speaker {
    /// Whether the device runs EIGRP.
    pub fn runs(&self) -> bool {
        !self.instances.is_empty()
    }

    /// The speaker of one device: `rib` is its RIB before the IGPs (connected, local and
    /// static routes), which tells the interfaces that are up and what redistribution
    /// takes.
    pub fn of(vendor: Vendor, config: &DeviceConfig, rib: &[Route]) -> Speaker {
        let mut sp = Speaker {
            passes_on: igp::passes_on(vendor, config, "eigrp"),
            weak_sources: igp::weak_sources(config),
            ..Speaker::default()
        };
        for p in config.eigrp.processes.iter().filter(|p| !p.shutdown) {
            let Some(asn) = p.asn else { continue };
            let inst = instance(vendor, config, rib, p, asn);
            if !inst.ifs.is_empty() {
                sp.instances.push(inst);
            }
        }
        sp
    }
}

/// One process's instance in its VRF.
fn instance(
    vendor: Vendor,
    config: &DeviceConfig,
    rib: &[Route],
    p: &EigrpProcess,
    asn: u32,
) -> Instance {
    let vrf = vrf_name(&p.vrf);
    let mut inst = Instance {
        vrf: vrf.clone(),
        asn,
        named: p.named,
        ifs: Vec::new(),
        externals: Vec::new(),
        stub: p.stub,
        filters: Vec::new(),
        unsupported: p.unsupported.clone(),
    };
    for d in &p.distribute {
        match filter::compile(config, d) {
            Ok(f) => inst.filters.push(f),
            Err(why) => inst.unsupported.push(why),
        }
    }
    for i in &config.interfaces {
        if vrf_name(&i.vrf) != vrf || !igp::up(rib, &vrf, &i.name) {
            continue;
        }
        let settings = config.eigrp.interface(&i.name);
        let Some((primary, secondaries)) = igp::addresses(i) else {
            if settings.and_then(|s| s.process.as_deref()) == Some(p.id.as_str()) {
                inst.unsupported.push("unnumbered interfaces".to_owned());
            }
            continue;
        };
        let enabled = match settings.and_then(|s| s.process.as_deref()) {
            Some(tag) => tag == p.id,
            None => p.networks.iter().any(|n| n.contains(&primary.addr())),
        };
        if !enabled {
            continue;
        }
        let (bw, delay) = if_metric(vendor, config, p.named, &i.name);
        inst.ifs.push(EigrpIf {
            name: i.name.clone(),
            address: primary,
            secondaries,
            passive: p.is_passive(&i.name) || settings.is_some_and(|s| s.passive),
            bw,
            delay,
        });
    }
    redistribution(&mut inst, config, p, rib, &|name| {
        if_metric(vendor, config, p.named, name)
    });
    inst.unsupported.sort();
    inst.unsupported.dedup();
    inst
}

/// An interface's bandwidth (kbit/s) and delay (ps): configured, else its type's defaults
/// (named mode: 10⁷ / bandwidth µs from 1 Gbit/s up).
fn if_metric(vendor: Vendor, config: &DeviceConfig, named: bool, name: &str) -> (u64, u64) {
    let (dbw, ddelay) = metric::interface_defaults(vendor, name);
    let bw = metric::bandwidth(vendor, config, name);
    let delay = match config.eigrp.interface(name).and_then(|s| s.delay_tens_us) {
        Some(d) => d.saturating_mul(metric::PS_PER_TENS_US),
        // A loopback's named-mode delay follows its type's bandwidth, not a configured one.
        None if named && igp::is_loopback(name) => metric::named_delay(dbw, ddelay),
        None if named => metric::named_delay(bw, ddelay),
        None => ddelay,
    };
    (bw, delay)
}

/// What the instance redistributes from the RIB before the IGPs: connected routes (with
/// their interface's bandwidth and delay unless a metric is written) and static routes
/// (with the written metric), through a route-map that matches only on prefix-lists.
fn redistribution(
    inst: &mut Instance,
    config: &DeviceConfig,
    p: &EigrpProcess,
    rib: &[Route],
    if_metric: &dyn Fn(&str) -> (u64, u64),
) {
    for r in &p.redistribute {
        let protocol = match r.protocol.as_str() {
            "connected" | "direct" => Protocol::Connected,
            "static" => Protocol::Static,
            other => {
                inst.unsupported.push(format!("redistribution of {other}"));
                continue;
            }
        };
        let map = match r
            .route_map
            .as_deref()
            .map(|m| filter::redistribution(config, m))
        {
            None => None,
            Some(Ok(f)) => Some(f),
            Some(Err(why)) => {
                inst.unsupported.push(why);
                continue;
            }
        };
        let written = r.metric.or(p.default_metric);
        if written.is_none() && protocol == Protocol::Static {
            inst.unsupported
                .push("redistribution of static routes without a metric".to_owned());
            continue;
        }
        let mut seen = BTreeSet::new();
        for route in rib
            .iter()
            .filter(|x| x.vrf == inst.vrf && x.protocol == protocol)
            .filter(|x| map.as_ref().is_none_or(|m| m.permits(x.network)))
        {
            if !seen.insert(route.network) {
                continue;
            }
            let (bw, delay) = match written {
                Some((bw, d)) => (bw, d.saturating_mul(metric::PS_PER_TENS_US)),
                None => match &route.next_hop {
                    // A connected route takes its interface's metric.
                    NextHop::Interface { interface, .. } => if_metric(interface),
                    _ => continue,
                },
            };
            inst.externals
                .push((route.network, bw, delay, protocol == Protocol::Static));
        }
    }
}

/// Where a router's own route for a prefix comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// An interface EIGRP runs on (internal).
    Network,
    /// A redistributed connected route (external).
    Connected,
    /// A redistributed static route (external).
    Static,
}

impl Source {
    /// Whether a stub router advertises what comes from here.
    fn stub_advertises(self, s: &EigrpStub) -> bool {
        match self {
            Source::Network => s.connected,
            Source::Connected => s.connected || s.redistributed,
            Source::Static => s.static_routes || s.redistributed,
        }
    }
}

/// A node: one instance of one device.
struct Node {
    device: usize,
    instance: usize,
}

/// What a router uses for one prefix: internal or external, its composite metric in its
/// own mode, the bandwidth and delay it passes on, its first hops; or that it originates
/// the prefix itself.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Label {
    external: bool,
    composite: u64,
    bw: u64,
    delay: u64,
    /// (the node's interface index, the neighbour's address).
    hops: Vec<(usize, Ipv4Addr)>,
    /// Originated here, from there.
    origin: Option<Source>,
}

/// Whether an EIGRP interface forms adjacencies: not passive, not a loopback, not a /32.
/// Two such interfaces of one subnet and AS on different devices are neighbours.
pub fn forms_adjacencies(i: &EigrpIf) -> bool {
    !i.passive && !igp::is_loopback(&i.name) && i.address.prefix_len() < 32
}

/// Each device's EIGRP routes and what EIGRP leaves incomplete there, in `speakers'` order.
pub fn routes(hostnames: &[&str], speakers: &[Speaker]) -> Vec<(Vec<Route>, Vec<Incomplete>)> {
    let mut nodes: Vec<Node> = Vec::new();
    for (d, s) in speakers.iter().enumerate() {
        for k in 0..s.instances.len() {
            nodes.push(Node {
                device: d,
                instance: k,
            });
        }
    }
    let inst = |n: usize| &speakers[nodes[n].device].instances[nodes[n].instance];
    // Adjacency: non-passive interfaces of one subnet and AS on different devices.
    let mut by_subnet: BTreeMap<(Ipv4Net, u32), Vec<(usize, usize)>> = BTreeMap::new();
    for n in 0..nodes.len() {
        for (k, i) in inst(n).ifs.iter().enumerate() {
            if forms_adjacencies(i) {
                by_subnet
                    .entry((i.address.trunc(), inst(n).asn))
                    .or_default()
                    .push((n, k));
            }
        }
    }
    // out[v]: (u, v's interface, u's interface, u's address): v may route through u.
    let mut out: Vec<Vec<Edge>> = vec![Vec::new(); nodes.len()];
    let mut domains = Domains::new(nodes.len());
    for members in by_subnet.values() {
        for &(v, vi) in members {
            for &(u, ui) in members {
                if nodes[u].device != nodes[v].device {
                    out[v].push((u, vi, ui, inst(u).ifs[ui].address.addr()));
                    domains.join(u, v);
                }
            }
        }
    }
    let mut inn: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (v, edges) in out.iter().enumerate() {
        for &(u, _, _, _) in edges {
            if !inn[u].contains(&v) {
                inn[u].push(v);
            }
        }
    }
    // Origins per prefix: (node, source, bandwidth, delay).
    let mut origins: BTreeMap<Ipv4Net, Vec<Origin>> = BTreeMap::new();
    let mut prefixes_of: HashMap<usize, u64> = HashMap::new();
    let root: Vec<usize> = (0..nodes.len()).map(|n| domains.find(n)).collect();
    for (n, r) in root.iter().enumerate() {
        let i = inst(n);
        for f in &i.ifs {
            for p in std::iter::once(f.address.trunc()).chain(f.secondaries.iter().copied()) {
                origins
                    .entry(p)
                    .or_default()
                    .push((n, Source::Network, f.bw, f.delay));
            }
        }
        for (p, bw, delay, from_static) in &i.externals {
            let source = if *from_static {
                Source::Static
            } else {
                Source::Connected
            };
            origins
                .entry(*p)
                .or_default()
                .push((n, source, *bw, *delay));
        }
        *prefixes_of.entry(*r).or_default() += (i.ifs.len() + i.externals.len()) as u64;
    }
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for (n, r) in root.iter().enumerate() {
        members.entry(*r).or_default().push(n);
    }
    let mut reasons: HashMap<usize, BTreeSet<String>> = HashMap::new();
    // Per device, the reasons of its own that leave its own RIB as computed: its own
    // externals, when no other router of the domain passes EIGRP routes on elsewhere
    // (they would come back to it by another protocol).
    let mut own: HashMap<usize, BTreeSet<String>> = HashMap::new();
    let mut too_big: BTreeSet<usize> = BTreeSet::new();
    for (r, m) in &members {
        let set = reasons.entry(*r).or_default();
        let passers: BTreeSet<usize> = m
            .iter()
            .map(|&o| nodes[o].device)
            .filter(|&o| speakers[o].passes_on)
            .collect();
        for &n in m {
            let d = nodes[n].device;
            let alone = passers.iter().all(|&o| o == d);
            for u in &inst(n).unsupported {
                let reason = format!("EIGRP {u} ({}) not computed yet", hostnames[d]);
                if alone && !speakers[d].weak_sources && igp::own_externals(u) {
                    own.entry(d).or_default().insert(reason.clone());
                }
                set.insert(reason);
            }
        }
        let prefixes = prefixes_of.get(r).copied().unwrap_or(0);
        if (m.len() as u64).saturating_mul(prefixes) > MAX_DOMAIN_ROWS {
            too_big.insert(*r);
            set.insert(format!(
                "EIGRP is not computed in a domain this large ({} routers, {prefixes} prefixes: over {MAX_DOMAIN_ROWS} routes)",
                m.len()
            ));
        }
    }
    let mut out_routes: Vec<Vec<Route>> = vec![Vec::new(); speakers.len()];
    let mut not_converged: BTreeSet<usize> = BTreeSet::new();
    for (prefix, from) in &origins {
        let from: Vec<_> = from
            .iter()
            .filter(|o| !too_big.contains(&root[o.0]))
            .copied()
            .collect();
        if from.is_empty() {
            continue;
        }
        let (labels, converged) = settle(*prefix, &from, &out, &inn, &|n| inst(n));
        if !converged {
            not_converged.extend(from.iter().map(|o| root[o.0]));
        }
        for (n, l) in labels {
            if l.origin.is_some() {
                continue;
            }
            let i = inst(n);
            for (k, ip) in &l.hops {
                out_routes[nodes[n].device].push(Route {
                    vrf: i.vrf.as_str().into(),
                    network: *prefix,
                    next_hop: NextHop::Interface {
                        interface: i.ifs[*k].name.as_str().into(),
                        ip: Some(*ip),
                    },
                    protocol: if l.external {
                        Protocol::EigrpEx
                    } else {
                        Protocol::Eigrp
                    },
                    metric: metric::shown(i.named, l.composite),
                    admin_distance: if l.external { EXTERNAL } else { INTERNAL },
                    tag: None,
                });
            }
        }
    }
    for r in not_converged {
        reasons
            .entry(r)
            .or_default()
            .insert("EIGRP did not converge in olav's computation".to_owned());
    }
    let mut incomplete: Vec<Vec<Incomplete>> = vec![Vec::new(); speakers.len()];
    for (n, node) in nodes.iter().enumerate() {
        for reason in reasons.get(&root[n]).into_iter().flatten() {
            if own.get(&node.device).is_some_and(|o| o.contains(reason)) {
                continue;
            }
            let i = Incomplete {
                vrf: Some(inst(n).vrf.clone()),
                reason: reason.clone(),
            };
            if !incomplete[node.device].contains(&i) {
                incomplete[node.device].push(i);
            }
        }
    }
    out_routes.into_iter().zip(incomplete).collect()
}

/// An adjacency as the router using it sees it: (the neighbour, its own interface, the
/// neighbour's interface, the neighbour's address).
type Edge = (usize, usize, usize, Ipv4Addr);

/// A router originating a prefix: (node, source, bandwidth, delay).
type Origin = (usize, Source, u64, u64);

/// The distance-vector fixed point for one prefix: each router's best of what its
/// neighbours use (what their distribute-lists let through; a stub router only what it
/// originates and its stub settings advertise), recomputed whenever a
/// neighbour's choice changes. Returns the labels and whether it settled within its
/// budget.
fn settle<'a>(
    prefix: Ipv4Net,
    from: &[Origin],
    out: &[Vec<Edge>],
    inn: &[Vec<usize>],
    inst: &dyn Fn(usize) -> &'a Instance,
) -> (BTreeMap<usize, Label>, bool) {
    let mut labels: BTreeMap<usize, Label> = BTreeMap::new();
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &(n, source, bw, delay) in from {
        let l = Label {
            external: source != Source::Network,
            composite: metric::composite(inst(n).named, bw, delay),
            bw,
            delay,
            hops: Vec::new(),
            origin: Some(source),
        };
        // A router originating a prefix both ways advertises it as internal.
        let better = labels
            .get(&n)
            .is_none_or(|c| (l.external, l.composite) < (c.external, c.composite));
        if better {
            labels.insert(n, l);
            queue.push_back(n);
        }
    }
    let mut budget = 64 * out.iter().map(Vec::len).sum::<usize>() + 64;
    while let Some(u) = queue.pop_front() {
        for &v in &inn[u] {
            if labels.get(&v).is_some_and(|l| l.origin.is_some()) {
                continue;
            }
            if budget == 0 {
                return (labels, false);
            }
            budget -= 1;
            let me = inst(v);
            let mut best: Option<Label> = None;
            for &(w, k, wk, ip) in &out[v] {
                let Some(lw) = labels.get(&w) else { continue };
                if !me.passes(true, k, prefix) || !inst(w).passes(false, wk, prefix) {
                    continue;
                }
                // A stub router passes on only what it originates, as its settings say.
                if let Some(stub) = &inst(w).stub {
                    if !lw.origin.is_some_and(|o| o.stub_advertises(stub)) {
                        continue;
                    }
                }
                let f = &me.ifs[k];
                let bw = lw.bw.min(f.bw);
                let delay = lw.delay.saturating_add(f.delay);
                let cand = Label {
                    external: lw.external,
                    composite: metric::composite(me.named, bw, delay),
                    bw,
                    delay,
                    hops: vec![(k, ip)],
                    origin: None,
                };
                let key = |l: &Label| (l.external, l.composite);
                best = match best {
                    None => Some(cand),
                    Some(mut b) if key(&b) == key(&cand) => {
                        // Equal metrics: ECMP; the vector passed on is the smaller one.
                        if (cand.delay, cand.bw) < (b.delay, b.bw) {
                            b.delay = cand.delay;
                            b.bw = cand.bw;
                        }
                        if !b.hops.contains(&(k, ip)) {
                            b.hops.push((k, ip));
                        }
                        Some(b)
                    }
                    Some(b) if key(&cand) < key(&b) => Some(cand),
                    keep => keep,
                };
            }
            let Some(mut best) = best else { continue };
            best.hops.sort();
            if labels.get(&v) != Some(&best) {
                labels.insert(v, best);
                queue.push_back(v);
            }
        }
    }
    (labels, true)
}
