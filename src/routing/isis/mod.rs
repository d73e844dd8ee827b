//! IS-IS (IPv4, default VRF), network-wide: each device's IS-IS speaker ([`Speaker::of`]:
//! its levels, areas, metric style, interfaces with their levels and metrics), then
//! adjacencies and shortest paths per level over every device at once ([`routes`]),
//! giving each device its `isisL1` and `isisL2` routes and the reasons they may be
//! incomplete (`docs/routing.md`, "IS-IS").
//!
//! - level-1 adjacencies need both circuits at level 1 and a common area; level-2 ones
//!   both at level 2; neither on a passive interface or a loopback;
//! - every IS-IS interface (passive ones and loopbacks included) advertises its subnets
//!   at its metric in its levels; a level-1-2 router also advertises into level 2 what it
//!   reaches in level 1 (at its level-1 metric);
//! - a router prefers level-1 routes over level-2 ones; a level-1-only router installs a
//!   default route towards the nearest attached level-1-2 routers of its area (attached:
//!   their level-2 topology reaches another area).

#[cfg(test)]
mod tests;

use super::connected::vrf_name;
use super::dynamic::Incomplete;
use super::igp::{self, Domains};
use super::route::{NextHop, Protocol, Route};
use crate::model::{DeviceConfig, IsisLevels, Vendor};
use ipnet::Ipv4Net;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap};
use std::net::Ipv4Addr;

/// Above this many (routers × prefixes) in one IS-IS domain, its routes are not computed
/// (as OSPF's); its devices are marked incomplete.
pub const MAX_DOMAIN_ROWS: u64 = 1_000_000;

/// The metric styles a router sends and understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Narrow (6-bit interface metrics) only: IOS's default.
    Narrow,
    /// Wide only: NX-OS's and EOS's default, Junos `wide-metrics-only`.
    Wide,
    /// Both (`metric-style transition`, Junos's default).
    Both,
}

/// One interface running IS-IS.
#[derive(Debug, Clone)]
pub struct IsisIf {
    /// The interface name.
    pub name: String,
    /// Its primary address.
    pub address: Ipv4Net,
    /// Its secondary subnets.
    pub secondaries: Vec<Ipv4Net>,
    /// Passive: advertised, never adjacent.
    pub passive: bool,
    /// The levels it runs (the router's and the circuit type's).
    pub levels: IsisLevels,
    /// Its metric at level 1 and level 2.
    pub metric: (u32, u32),
}

/// What one device brings to IS-IS (default VRF).
#[derive(Debug, Clone, Default)]
pub struct Speaker {
    /// Junos (its distances differ).
    pub junos: bool,
    /// The router's levels.
    pub levels: IsisLevels,
    /// Its area addresses.
    pub areas: Vec<String>,
    /// Its metric style (None: runs nothing).
    pub style: Option<Style>,
    /// Its IS-IS interfaces.
    pub ifs: Vec<IsisIf>,
    /// What it redistributes: (prefix, metric, levels).
    pub externals: Vec<(Ipv4Net, u32, IsisLevels)>,
    /// What olav does not model in its default-VRF IS-IS, in words.
    pub unsupported: Vec<String>,
    /// Incomplete parts of its other VRFs' IS-IS.
    pub vrf_incomplete: Vec<Incomplete>,
}

impl Speaker {
    /// Whether the device runs IS-IS in its default VRF.
    pub fn runs(&self) -> bool {
        !self.ifs.is_empty()
    }

    /// The speaker of one device; `rib` is its RIB before the IGPs (which interfaces are
    /// up).
    pub fn of(vendor: Vendor, config: &DeviceConfig, rib: &[Route]) -> Speaker {
        let mut sp = Speaker {
            junos: vendor == Vendor::JuniperJunos,
            ..Speaker::default()
        };
        let procs: Vec<_> = config
            .isis
            .processes
            .iter()
            .filter(|p| !p.shutdown)
            .collect();
        for p in procs.iter().filter(|p| p.vrf.is_some()) {
            let i = Incomplete {
                vrf: Some(vrf_name(&p.vrf)),
                reason: "IS-IS in VRFs other than the default is not computed yet".to_owned(),
            };
            if !sp.vrf_incomplete.contains(&i) {
                sp.vrf_incomplete.push(i);
            }
        }
        let default: Vec<_> = procs.iter().filter(|p| p.vrf.is_none()).collect();
        let Some(p) = default.first() else {
            return sp;
        };
        // EOS carries IPv4 only under `address-family ipv4 unicast`.
        if vendor == Vendor::AristaEos && !p.ipv4 {
            return sp;
        }
        if default.len() > 1 {
            sp.unsupported.push("several IS-IS processes".to_owned());
        }
        sp.unsupported.extend(p.unsupported.iter().cloned());
        sp.levels = p.levels;
        sp.areas = p.areas.clone();
        let style = match (p.wide, p.transition) {
            (_, true) => Style::Both,
            (Some(true), _) => Style::Wide,
            (Some(false), _) => Style::Narrow,
            (None, _) => match vendor {
                Vendor::CiscoIos => Style::Narrow,
                Vendor::JuniperJunos => Style::Both,
                _ => Style::Wide,
            },
        };
        sp.style = Some(style);
        for i in &config.interfaces {
            if i.vrf
                .as_deref()
                .is_some_and(|v| vrf_name(&Some(v.to_owned())) != "default")
                || !igp::up(rib, "default", &i.name)
            {
                continue;
            }
            let s = config.isis.interface(&i.name);
            let listed = |l: &[String]| l.iter().any(|x| crate::ifname::same(x, &i.name));
            let enabled = s.is_some_and(|s| s.process.as_deref() == Some(p.tag.as_str()))
                && !s.is_some_and(|s| s.disabled);
            // IOS `passive-interface X` advertises X without running IS-IS on it.
            let passive_listed = listed(&p.passive);
            if !enabled && !passive_listed {
                continue;
            }
            if vendor == Vendor::JuniperJunos && !config.isis.iso_units.contains(&i.name) {
                continue;
            }
            let Some((address, secondaries)) = igp::addresses(i) else {
                if enabled {
                    sp.unsupported.push("unnumbered interfaces".to_owned());
                }
                continue;
            };
            let circuit = s.and_then(|s| s.circuit).unwrap_or_default();
            let levels = match (p.levels.l1() && circuit.l1(), p.levels.l2() && circuit.l2()) {
                (true, true) => IsisLevels::L1L2,
                (true, false) => IsisLevels::L1,
                (false, true) => IsisLevels::L2,
                (false, false) => continue,
            };
            let default_metric = default_metric(vendor, config, &i.name);
            let cap = |m: u32| if style == Style::Narrow { m.min(63) } else { m };
            let (m1, m2) = s.map(|s| s.metric).unwrap_or_default();
            let passive = passive_listed
                || s.is_some_and(|s| s.passive)
                || (p.passive_default && !listed(&p.not_passive));
            sp.ifs.push(IsisIf {
                name: i.name.clone(),
                address,
                secondaries,
                passive,
                levels,
                metric: (
                    cap(m1.unwrap_or(default_metric)),
                    cap(m2.unwrap_or(default_metric)),
                ),
            });
        }
        redistribution(&mut sp, p, rib);
        sp.unsupported.sort();
        sp.unsupported.dedup();
        sp
    }
}

/// What the process redistributes from the RIB before the IGPs (default VRF): connected
/// and static routes at the written metric (0 when none), into the written levels (level
/// 2 when none). Only a router that runs IS-IS advertises them.
fn redistribution(sp: &mut Speaker, p: &crate::model::IsisProcess, rib: &[Route]) {
    for r in &p.redistribute {
        let protocol = match r.protocol.as_str() {
            "connected" | "direct" => Protocol::Connected,
            "static" => Protocol::Static,
            other => {
                sp.unsupported.push(format!("redistribution of {other}"));
                continue;
            }
        };
        if r.route_map.is_some() {
            sp.unsupported
                .push("redistribution through route-maps".to_owned());
            continue;
        }
        let own: BTreeSet<Ipv4Net> = sp
            .ifs
            .iter()
            .flat_map(|i| std::iter::once(i.address.trunc()).chain(i.secondaries.clone()))
            .collect();
        let mut seen = BTreeSet::new();
        for route in rib
            .iter()
            .filter(|x| x.vrf == "default" && x.protocol == protocol)
        {
            if own.contains(&route.network) || !seen.insert(route.network) {
                continue;
            }
            sp.externals
                .push((route.network, r.metric.unwrap_or(0), r.levels));
        }
    }
    if sp.ifs.is_empty() {
        sp.externals.clear();
    }
}

/// An interface's metric when none is configured: 10 (Junos `lo0`: 0); NX-OS the
/// reference bandwidth (40 Gbit/s) over the interface's, at least 1, loopbacks 1.
fn default_metric(vendor: Vendor, config: &DeviceConfig, name: &str) -> u32 {
    match vendor {
        Vendor::JuniperJunos if name.starts_with("lo0") => 0,
        Vendor::CiscoNxos if igp::is_loopback(name) => 1,
        Vendor::CiscoNxos => {
            let bw = super::eigrp::metric::bandwidth(vendor, config, name).max(1);
            u32::try_from((40_000_000 / bw).clamp(1, 16_777_214)).unwrap_or(1)
        }
        _ => 10,
    }
}

/// A first hop: (this router's interface index, the neighbour's address).
type Hop = (usize, Ipv4Addr);

/// Per level: each router's neighbours: (neighbour, cost, first hop).
type Graph = Vec<Vec<(usize, u64, Hop)>>;

/// Each router's distance and first hops from one router (None: not reached).
type Paths = Vec<Option<(u64, Vec<Hop>)>>;

/// Dijkstra from `s`: each router's distance and first hops (ECMP).
fn spf(g: &Graph, s: usize) -> Paths {
    let mut best: Paths = vec![None; g.len()];
    let mut heap = BinaryHeap::new();
    best[s] = Some((0, Vec::new()));
    heap.push(Reverse((0u64, s)));
    let mut done = vec![false; g.len()];
    while let Some(Reverse((d, u))) = heap.pop() {
        if done[u] {
            continue;
        }
        done[u] = true;
        let hops_u = best[u].as_ref().map(|b| b.1.clone()).unwrap_or_default();
        for &(v, c, hop) in &g[u] {
            if v == s {
                continue;
            }
            let nd = d.saturating_add(c);
            let via = if u == s { vec![hop] } else { hops_u.clone() };
            match &mut best[v] {
                Some((bd, bh)) if *bd == nd => {
                    for h in via {
                        if !bh.contains(&h) {
                            bh.push(h);
                        }
                    }
                }
                Some((bd, _)) if *bd < nd => {}
                slot => {
                    *slot = Some((nd, via));
                    heap.push(Reverse((nd, v)));
                }
            }
        }
    }
    best
}

/// Offers a path to a table: a lower metric replaces, an equal one adds its hops.
fn offer(t: &mut BTreeMap<Ipv4Net, (u64, Vec<Hop>)>, p: Ipv4Net, m: u64, hops: &[Hop]) {
    match t.get_mut(&p) {
        Some((c, h)) if *c == m => {
            for x in hops {
                if !h.contains(x) {
                    h.push(*x);
                }
            }
        }
        Some((c, _)) if *c < m => {}
        _ => {
            t.insert(p, (m, hops.to_vec()));
        }
    }
}

/// What a router advertises at a level: (prefix, metric), what it redistributes included.
fn adverts(s: &Speaker, level1: bool) -> Vec<(Ipv4Net, u64)> {
    let mut out: Vec<(Ipv4Net, u64)> = s
        .externals
        .iter()
        .filter(|(_, _, l)| if level1 { l.l1() } else { l.l2() })
        .filter(|_| if level1 { s.levels.l1() } else { s.levels.l2() })
        .map(|(p, m, _)| (*p, u64::from(*m)))
        .collect();
    for i in &s.ifs {
        let (runs, m) = if level1 {
            (i.levels.l1(), i.metric.0)
        } else {
            (i.levels.l2(), i.metric.1)
        };
        if runs {
            for p in std::iter::once(i.address.trunc()).chain(i.secondaries.iter().copied()) {
                out.push((p, u64::from(m)));
            }
        }
    }
    out
}

/// What a device that runs no IS-IS in its default VRF leaves incomplete: its other VRFs'
/// IS-IS, and what it configures there that olav does not model.
fn idle(s: &Speaker, hostname: &str) -> Vec<Incomplete> {
    let mut inc = s.vrf_incomplete.clone();
    inc.extend(s.unsupported.iter().map(|u| Incomplete {
        vrf: Some("default".to_owned()),
        reason: format!("IS-IS {u} ({hostname}) not computed yet"),
    }));
    inc
}

/// Whether an IS-IS interface forms adjacencies: not passive, not a loopback, not a /32.
pub fn forms_adjacencies(i: &IsisIf) -> bool {
    !i.passive && !igp::is_loopback(&i.name) && i.address.prefix_len() < 32
}

/// The levels at which two interfaces of one subnet on different routers are adjacent:
/// level 1 when both circuits run it and the routers share an area, level 2 when both
/// circuits run it.
pub fn levels_between(sa: &Speaker, a: &IsisIf, sb: &Speaker, b: &IsisIf) -> (bool, bool) {
    let common = sa.areas.iter().any(|x| sb.areas.contains(x));
    (
        a.levels.l1() && b.levels.l1() && common,
        a.levels.l2() && b.levels.l2(),
    )
}

/// Each device's IS-IS routes and what IS-IS leaves incomplete there, in `speakers'` order.
pub fn routes(hostnames: &[&str], speakers: &[Speaker]) -> Vec<(Vec<Route>, Vec<Incomplete>)> {
    let n = speakers.len();
    if !speakers.iter().any(Speaker::runs) {
        // Nothing to compute: only what is configured and not modelled.
        return speakers
            .iter()
            .zip(hostnames)
            .map(|(s, h)| (Vec::new(), idle(s, h)))
            .collect();
    }
    let mut g1: Graph = vec![Vec::new(); n];
    let mut g2: Graph = vec![Vec::new(); n];
    let mut domains = Domains::new(n);
    let mut by_subnet: BTreeMap<Ipv4Net, Vec<(usize, usize)>> = BTreeMap::new();
    for (d, s) in speakers.iter().enumerate() {
        for (k, i) in s.ifs.iter().enumerate() {
            if forms_adjacencies(i) {
                by_subnet.entry(i.address.trunc()).or_default().push((d, k));
            }
        }
    }
    for members in by_subnet.values() {
        for &(u, ui) in members {
            for &(v, vi) in members {
                if u == v {
                    continue;
                }
                let (a, b) = (&speakers[u].ifs[ui], &speakers[v].ifs[vi]);
                let hop = (ui, b.address.addr());
                let (l1, l2) = levels_between(&speakers[u], a, &speakers[v], b);
                if l1 {
                    g1[u].push((v, u64::from(a.metric.0), hop));
                    domains.join(u, v);
                }
                if l2 {
                    g2[u].push((v, u64::from(a.metric.1), hop));
                    domains.join(u, v);
                }
            }
        }
    }
    let root: Vec<usize> = (0..n).map(|d| domains.find(d)).collect();
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for d in (0..n).filter(|d| speakers[*d].runs()) {
        members.entry(root[d]).or_default().push(d);
    }
    let mut reasons: HashMap<usize, BTreeSet<String>> = HashMap::new();
    let mut skip: BTreeSet<usize> = BTreeSet::new();
    for (r, m) in &members {
        let set = reasons.entry(*r).or_default();
        for &d in m {
            for u in &speakers[d].unsupported {
                set.insert(format!("IS-IS {u} ({}) not computed yet", hostnames[d]));
            }
        }
        let narrow: Vec<&str> = m
            .iter()
            .filter(|d| speakers[**d].style == Some(Style::Narrow))
            .map(|d| hostnames[*d])
            .collect();
        let wide: Vec<&str> = m
            .iter()
            .filter(|d| speakers[**d].style == Some(Style::Wide))
            .map(|d| hostnames[*d])
            .collect();
        if !narrow.is_empty() && !wide.is_empty() {
            set.insert(format!(
                "IS-IS metric styles differ (narrow on {}, wide on {}) not computed yet",
                narrow.join(", "),
                wide.join(", ")
            ));
        }
        let prefixes: u64 = m
            .iter()
            .map(|d| (speakers[*d].ifs.len() + speakers[*d].externals.len()) as u64)
            .sum();
        if (m.len() as u64).saturating_mul(prefixes) > MAX_DOMAIN_ROWS {
            skip.insert(*r);
            set.insert(format!(
                "IS-IS is not computed in a domain this large ({} routers, {prefixes} prefixes: over {MAX_DOMAIN_ROWS} routes)",
                m.len()
            ));
        }
    }
    let runs = |d: usize| speakers[d].runs() && !skip.contains(&root[d]);
    let own: Vec<BTreeSet<Ipv4Net>> = speakers
        .iter()
        .map(|s| {
            s.ifs
                .iter()
                .flat_map(|i| std::iter::once(i.address.trunc()).chain(i.secondaries.clone()))
                .chain(s.externals.iter().map(|e| e.0))
                .collect()
        })
        .collect();
    // Level 1: every router's routes, its distances to the others.
    let mut l1: Vec<BTreeMap<Ipv4Net, (u64, Vec<Hop>)>> = vec![BTreeMap::new(); n];
    let mut l1_dist: Vec<Paths> = vec![Vec::new(); n];
    let ads1: Vec<Vec<(Ipv4Net, u64)>> = speakers.iter().map(|s| adverts(s, true)).collect();
    for d in (0..n).filter(|d| runs(*d) && speakers[*d].levels.l1()) {
        let dist = spf(&g1, d);
        for (x, r) in dist.iter().enumerate() {
            let Some((c, hops)) = r else { continue };
            if x == d {
                continue;
            }
            for (p, m) in &ads1[x] {
                if !own[d].contains(p) {
                    offer(&mut l1[d], *p, c.saturating_add(*m), hops);
                }
            }
        }
        l1_dist[d] = dist;
    }
    // Level 2: own level-2 prefixes, and a level-1-2 router's level-1 ones (leaked up).
    let ads2: Vec<Vec<(Ipv4Net, u64)>> = (0..n)
        .map(|d| {
            let s = &speakers[d];
            let mut a = adverts(s, false);
            if s.levels == IsisLevels::L1L2 {
                a.extend(adverts(s, true));
                a.extend(l1[d].iter().map(|(p, (m, _))| (*p, *m)));
            }
            a
        })
        .collect();
    // The areas each level-2 component reaches: who is attached.
    let mut l2_dist: Vec<Paths> = vec![Vec::new(); n];
    let mut attached = vec![false; n];
    for d in (0..n).filter(|d| runs(*d) && speakers[*d].levels.l2()) {
        let dist = spf(&g2, d);
        attached[d] = speakers[d].levels == IsisLevels::L1L2
            && dist.iter().enumerate().any(|(x, r)| {
                r.is_some()
                    && !speakers[x].areas.is_empty()
                    && !speakers[x]
                        .areas
                        .iter()
                        .any(|a| speakers[d].areas.contains(a))
            });
        l2_dist[d] = dist;
    }
    let mut out: Vec<(Vec<Route>, Vec<Incomplete>)> = vec![(Vec::new(), Vec::new()); n];
    for d in (0..n).filter(|d| runs(*d)) {
        let mut l2: BTreeMap<Ipv4Net, (u64, Vec<Hop>)> = BTreeMap::new();
        for (x, r) in l2_dist[d].iter().enumerate() {
            let Some((c, hops)) = r else { continue };
            if x == d {
                continue;
            }
            for (p, m) in &ads2[x] {
                if !own[d].contains(p) && !l1[d].contains_key(p) {
                    offer(&mut l2, *p, c.saturating_add(*m), hops);
                }
            }
        }
        let mut l1d = std::mem::take(&mut l1[d]);
        if speakers[d].levels == IsisLevels::L1 {
            let any = Ipv4Net::default();
            for (x, r) in l1_dist[d].iter().enumerate() {
                if let (Some((c, hops)), true) = (r, attached[x]) {
                    if x != d {
                        offer(&mut l1d, any, *c, hops);
                    }
                }
            }
        }
        let (ad1, ad2) = if speakers[d].junos {
            (15, 18)
        } else {
            (115, 115)
        };
        for (table, protocol, ad) in [(&l1d, Protocol::IsisL1, ad1), (&l2, Protocol::IsisL2, ad2)] {
            for (p, (m, hops)) in table {
                let mut hops = hops.clone();
                hops.sort();
                for (k, ip) in hops {
                    out[d].0.push(Route {
                        vrf: "default".into(),
                        network: *p,
                        next_hop: NextHop::Interface {
                            interface: speakers[d].ifs[k].name.as_str().into(),
                            ip: Some(ip),
                        },
                        protocol,
                        metric: u32::try_from(*m).unwrap_or(u32::MAX),
                        admin_distance: ad,
                        tag: None,
                    });
                }
            }
        }
    }
    for d in 0..n {
        if !speakers[d].runs() {
            out[d].1 = idle(&speakers[d], hostnames[d]);
            continue;
        }
        let mut inc = speakers[d].vrf_incomplete.clone();
        inc.extend(
            reasons
                .get(&root[d])
                .into_iter()
                .flatten()
                .map(|reason| Incomplete {
                    vrf: Some("default".to_owned()),
                    reason: reason.clone(),
                }),
        );
        out[d].1 = inc;
    }
    out
}
