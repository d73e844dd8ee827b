//! OSPF (IPv4), network-wide: each device's OSPF speaker ([`Speaker::of`]: its OSPF
//! interfaces, what it redistributes, what olav does not model), then adjacencies, areas
//! and what the ABRs summarise over every device at once ([`routes`]); each device's
//! `ospf`, `ospfIA`, `ospfE1` and `ospfE2` routes are computed from that when they are
//! asked for ([`Learned::device`]), with the reasons they may be incomplete
//! (`docs/routing.md`, "OSPF").

pub mod spf;
pub mod topology;

#[cfg(test)]
mod redistribution_tests;
#[cfg(test)]
mod tests;

use super::dynamic::Incomplete;
use super::route::{NextHop, Protocol, Route};
use crate::model::{DeviceConfig, Vendor};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use spf::{External, Kind, Range};
use std::collections::{BTreeSet, HashMap};
use std::net::Ipv4Addr;
use topology::OspfIf;

/// Above this much shortest-path work in one OSPF domain — every ABR's runs over each of
/// its areas (routers, interfaces and advertisements of the area), which the network's
/// OSPF costs before any router's routes are asked for — its routes are not computed and
/// its devices are marked incomplete instead. A router's own routes cost one run per area
/// it is in, whatever the domain's size.
pub const MAX_DOMAIN_WORK: u64 = 50_000_000;

/// What one device brings to OSPF (default VRF), read from its configuration and its
/// RIB before OSPF.
#[derive(Debug, Clone, Default)]
pub struct Speaker {
    /// The device's vendor.
    pub vendor: Option<Vendor>,
    /// Its OSPF interfaces (their `device` set when the network is assembled).
    pub ifs: Vec<OspfIf>,
    /// What it redistributes: (prefix, metric, type 1).
    pub externals: Vec<(Ipv4Net, u32, bool)>,
    /// What olav does not model in its default-VRF OSPF, in words.
    pub unsupported: Vec<String>,
    /// Incomplete parts of its other VRFs' OSPF (and of its own table alone).
    pub vrf_incomplete: Vec<Incomplete>,
    /// Its area ranges (they act when it is an ABR).
    pub ranges: Vec<Range>,
    /// Whether its ranges' summaries cost their costliest component (RFC 1583
    /// compatibility off) or their cheapest; None: not known for its vendor.
    pub ranges_max: Option<bool>,
    /// It redistributes OSPF routes into another protocol ([`super::igp::passes_on`]).
    pub passes_on: bool,
}

/// The class an IOS network belongs to (A /8, B /16, C /24), for `redistribute` without
/// `subnets`.
fn classful(p: &Ipv4Net) -> bool {
    let first = p.addr().octets()[0];
    let len = match first {
        0..=127 => 8,
        128..=191 => 16,
        _ => 24,
    };
    p.prefix_len() == len
}

impl Speaker {
    /// The speaker of one device: `rib` is its RIB without OSPF (connected, local and
    /// static routes), which tells the interfaces that are up and what redistribution
    /// takes; `dynamic` whether another protocol's routes (not computed) are in it.
    pub fn of(vendor: Vendor, config: &DeviceConfig, rib: &[Route], dynamic: bool) -> Speaker {
        let mut sp = Speaker {
            vendor: Some(vendor),
            passes_on: super::igp::passes_on(vendor, config, "ospf"),
            ..Speaker::default()
        };
        let procs: Vec<_> = config
            .ospf
            .processes
            .iter()
            .filter(|p| !p.shutdown)
            .collect();
        for p in procs.iter().filter(|p| p.vrf.is_some()) {
            let vrf = super::connected::vrf_name(&p.vrf);
            let i = Incomplete {
                vrf: Some(vrf),
                reason: "OSPF in VRFs other than the default is not computed yet".to_owned(),
            };
            if !sp.vrf_incomplete.contains(&i) {
                sp.vrf_incomplete.push(i);
            }
        }
        let default: Vec<_> = procs.iter().filter(|p| p.vrf.is_none()).collect();
        if default.iter().filter(|p| !p.id.is_empty()).count() > 1 {
            sp.unsupported.push("several OSPF processes".to_owned());
        }
        let up = |name: &str| {
            rib.iter().any(|r| {
                r.protocol == Protocol::Connected
                    && r.vrf == "default"
                    && matches!(&r.next_hop, NextHop::Interface { interface, .. } if interface == name)
            })
        };
        let mut unnumbered = Vec::new();
        sp.ifs = topology::interfaces(0, vendor, config, &up, &mut unnumbered);
        // Kept until the network's OSPF is computed: 557,716 of them at 50,000 devices.
        sp.ifs.shrink_to_fit();
        if !unnumbered.is_empty() {
            sp.unsupported.push(format!(
                "over unnumbered interfaces whose neighbour no cable names ({})",
                unnumbered.join(", ")
            ));
        }
        if config
            .ospf_networks
            .iter()
            .any(|o| o.interface.as_deref() == Some("all"))
        {
            sp.unsupported.push("`interface all`".to_owned());
        }
        let in_default = |r: &&Route| r.vrf == "default";
        for p in &default {
            sp.unsupported.extend(p.unsupported.iter().cloned());
            // IOS and Junos are RFC 1583 compatible unless told (the cheapest component,
            // as Batfish has it); NX-OS and EOS defaults are not known here.
            let default =
                matches!(vendor, Vendor::CiscoIos | Vendor::JuniperJunos).then_some(false);
            sp.ranges_max = p.rfc1583.map(|on| !on).or(default);
            for r in &p.ranges {
                let Some(area) = topology::area_number(&r.area) else {
                    sp.unsupported
                        .push(format!("area range of area {}", r.area));
                    continue;
                };
                // The discard route an ABR installs for an active range: IOS while the
                // range is advertised (`not-advertise` installs none), Junos always
                // (`restrict` too); NX-OS and EOS not known, said on the device.
                let discard = match vendor {
                    Vendor::CiscoIos => r.advertise,
                    Vendor::JuniperJunos => true,
                    _ => {
                        let i = Incomplete {
                            vrf: Some("default".to_owned()),
                            reason: format!(
                                "the discard route of OSPF area range {} (area {}) is not computed yet",
                                r.prefix, r.area
                            ),
                        };
                        sp.vrf_incomplete.push(i);
                        false
                    }
                };
                sp.ranges.push(Range {
                    area,
                    prefix: r.prefix,
                    advertise: r.advertise,
                    cost: r.cost,
                    exact: r.exact,
                    discard,
                });
            }
            for r in &p.redistribute {
                let protocol = match r.protocol.as_str() {
                    "connected" => Protocol::Connected,
                    "static" => Protocol::Static,
                    other => {
                        sp.unsupported.push(format!("redistribution of {other}"));
                        continue;
                    }
                };
                // A route-map that matches only on prefix-lists and sets nothing filters.
                let map = match r
                    .route_map
                    .as_deref()
                    .map(|m| super::eigrp::filter::redistribution(config, m))
                {
                    None => None,
                    Some(Ok(f)) => Some(f),
                    Some(Err(why)) => {
                        sp.unsupported.push(why);
                        continue;
                    }
                };
                let classful_only = vendor == Vendor::CiscoIos && !r.subnets;
                let mut seen = BTreeSet::new();
                for route in rib
                    .iter()
                    .filter(in_default)
                    .filter(|x| x.protocol == protocol)
                    .filter(|x| map.as_ref().is_none_or(|m| m.permits(x.network)))
                {
                    let n = route.network;
                    if n.prefix_len() == 0 || (classful_only && !classful(&n)) || !seen.insert(n) {
                        continue;
                    }
                    sp.externals
                        .push((n, r.metric.unwrap_or(20), r.metric_type == 1));
                }
            }
            if let Some(d) = &p.default_originate {
                if d.route_map.is_some() {
                    sp.unsupported
                        .push("default-information route-maps".to_owned());
                    continue;
                }
                let has_default = rib
                    .iter()
                    .filter(in_default)
                    .any(|r| r.network.prefix_len() == 0);
                if d.always || has_default {
                    let any = Ipv4Net::default();
                    sp.externals
                        .push((any, d.metric.unwrap_or(1), d.metric_type == 1));
                } else if dynamic {
                    sp.unsupported.push(
                        "default-information originate from a learned default route".to_owned(),
                    );
                }
            }
        }
        if sp.ifs.is_empty() {
            // Redistribution without an OSPF interface reaches no neighbour.
            sp.externals.clear();
        }
        if !sp.externals.is_empty() && sp.ifs.iter().all(|i| i.stub.is_some()) {
            sp.unsupported
                .push("redistribution in a stub area".to_owned());
        }
        let areas: BTreeSet<u32> = sp.ifs.iter().map(|i| i.area).collect();
        let abr = areas.len() > 1 && areas.contains(&0);
        if !abr
            && sp
                .ifs
                .iter()
                .any(|i| i.nssa.is_some_and(|n| n.default.is_some()))
        {
            sp.unsupported
                .push("NSSA default-information-originate off an area border router".to_owned());
        }
        // A router inside one NSSA originates type-7 externals; one also in other areas
        // (an NSSA's ABR) would originate both kinds: not modelled.
        if !sp.externals.is_empty() && sp.ifs.iter().any(|i| i.nssa.is_some()) && areas.len() > 1 {
            sp.unsupported
                .push("redistribution on an NSSA's area border router".to_owned());
        }
        sp.unsupported.sort();
        sp.unsupported.dedup();
        sp
    }

    /// Whether the device runs OSPF in its default VRF.
    pub fn runs(&self) -> bool {
        !self.ifs.is_empty()
    }
}

/// The OSPF routes and incomplete parts of every device (in `speakers`' order); the
/// speakers' interfaces are taken, not copied (at 50,000 devices they are 40 MB).
pub fn routes(hostnames: &[&str], mut speakers: Vec<Speaker>) -> Learned {
    // Sized at once: grown by doubling, the vector and its copies were 140 MB at 50,000
    // devices.
    let mut ifs: Vec<OspfIf> = Vec::with_capacity(speakers.iter().map(|s| s.ifs.len()).sum());
    for (d, s) in speakers.iter_mut().enumerate() {
        ifs.extend(take_ifs(d, s));
    }
    routes_over(hostnames, speakers, ifs)
}

/// A speaker's interfaces taken out of it, marked as device `d`'s (a network's
/// interfaces are one vector: [`routes_over`]).
pub fn take_ifs(d: usize, s: &mut Speaker) -> impl Iterator<Item = OspfIf> {
    std::mem::take(&mut s.ifs).into_iter().map(move |mut i| {
        i.device = d;
        i
    })
}

/// [`routes`] with the speakers' interfaces already taken into one vector, in device
/// order ([`take_ifs`]): the network's build collects them so while it parses, rather
/// than holding them twice.
pub fn routes_over(
    hostnames: &[&str],
    mut speakers: Vec<Speaker>,
    mut ifs: Vec<OspfIf>,
) -> Learned {
    let n = speakers.len();
    // The speakers' interfaces are in `ifs` now.
    let mut runs = vec![false; n];
    for i in &ifs {
        runs[i.device] = true;
    }
    // Hostnames as the snapshot's links name them (case aside).
    let device_of: HashMap<String, usize> = hostnames
        .iter()
        .enumerate()
        .map(|(d, h)| (h.to_ascii_lowercase(), d))
        .collect();
    let device_named = |h: &str| device_of.get(&h.to_ascii_lowercase()).copied();
    let all_segments = |ifs: &[OspfIf]| {
        let mut segs = topology::segments(ifs);
        let (more, refused) = topology::unnumbered_segments(ifs, &device_named);
        segs.extend(more);
        (segs, refused)
    };
    let (segs, refused) = all_segments(&ifs);
    // Adjacencies the devices would stop on an MTU mismatch: named on both ends, since
    // the routes that would cross them are missing from the tables (as on the devices,
    // unless they are up there after all).
    let mut mtu_notes: HashMap<usize, Vec<String>> = HashMap::new();
    for (a, b) in topology::mtu_mismatches(&ifs) {
        let (ia, ib) = (&ifs[a], &ifs[b]);
        let note = format!(
            "no OSPF adjacency {} {} ↔ {} {}: IP MTU {} ≠ {} (the devices stop before exchanging routes; `ip ospf mtu-ignore` lifts the check) — if it is up on the network, routes across it are missing here",
            hostnames[ia.device],
            ia.name,
            hostnames[ib.device],
            ib.name,
            ia.mtu.unwrap_or_default(),
            ib.mtu.unwrap_or_default()
        );
        for d in [ia.device, ib.device] {
            mtu_notes.entry(d).or_default().push(note.clone());
        }
    }
    for (a, b, why) in refused {
        let (ia, ib) = (&ifs[a], &ifs[b]);
        if why == topology::Refused::Mtu {
            let note = format!(
                "no OSPF adjacency {} {} ↔ {} {} (unnumbered): IP MTU {} ≠ {} (the devices stop before exchanging routes; `ip ospf mtu-ignore` lifts the check) — if it is up on the network, routes across it are missing here",
                hostnames[ia.device],
                ia.name,
                hostnames[ib.device],
                ib.name,
                ia.mtu.unwrap_or_default(),
                ib.mtu.unwrap_or_default()
            );
            for d in [ia.device, ib.device] {
                mtu_notes.entry(d).or_default().push(note.clone());
            }
        } else {
            let what = match why {
                topology::Refused::Numbered => "facing a numbered one",
                _ => "not point-to-point",
            };
            for (d, name) in [(ia.device, &ia.name), (ib.device, &ib.name)] {
                speakers[d]
                    .unsupported
                    .push(format!("over an unnumbered interface {what} ({name})"));
            }
        }
    }
    // Domains: devices joined by adjacencies (union-find).
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for s in &segs {
        for w in s.members.windows(2) {
            let (a, b) = (
                find(&mut parent, ifs[w[0]].device),
                find(&mut parent, ifs[w[1]].device),
            );
            parent[a] = b;
        }
    }
    let root: Vec<usize> = (0..n).map(|d| find(&mut parent, d)).collect();
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for d in (0..n).filter(|d| runs[*d]) {
        members.entry(root[d]).or_default().push(d);
    }
    let too_big = too_big(&speakers, &ifs, &root, &members);
    let keep = |d: usize| !too_big.contains_key(&root[d]);
    let segs = if too_big.is_empty() {
        segs
    } else {
        drop(segs);
        ifs.retain(|i| keep(i.device));
        all_segments(&ifs).0
    };
    // A router whose OSPF interfaces are all in one NSSA redistributes into it (type 7).
    let mut nssa_only: HashMap<usize, Option<u32>> = HashMap::new();
    for i in &ifs {
        let here = i.nssa.map(|_| i.area);
        nssa_only
            .entry(i.device)
            .and_modify(|a| {
                if *a != here {
                    *a = None;
                }
            })
            .or_insert(here);
    }
    let externals: Vec<External> = speakers
        .iter()
        .enumerate()
        .filter(|(d, _)| keep(*d) && runs[*d])
        .flat_map(|(d, s)| {
            let area = nssa_only.get(&d).copied().flatten();
            s.externals.iter().map(move |(p, m, t1)| External {
                device: d,
                prefix: *p,
                metric: *m,
                type1: *t1,
                area,
                translated: false,
            })
        })
        .collect();
    let ranges = speakers
        .iter_mut()
        .enumerate()
        .filter(|(d, s)| keep(*d) && !s.ranges.is_empty())
        .map(|(d, s)| (d, (std::mem::take(&mut s.ranges), s.ranges_max)))
        .collect();
    let mut net = spf::Net::build(n, &ifs, &segs, &externals, ranges);
    for (d, prefix, why) in std::mem::take(&mut net.untranslated) {
        speakers[d]
            .unsupported
            .push(format!("type-7 external {prefix} out of its NSSA ({why})"));
    }
    // A summary whose cost depends on a rule olav does not know for the ABR's vendor.
    for (b, prefix, lo, hi) in std::mem::take(&mut net.unsure_ranges) {
        let os = speakers[b].vendor.map_or("the device", |v| v.os_name());
        let why = format!(
            "area range {prefix} summary cost (its cheapest component costs {lo}, its costliest {hi}; which one {os} uses depends on RFC 1583 compatibility)"
        );
        speakers[b].unsupported.push(why);
    }
    drop(segs);
    let mut hops = HopIfs::default();
    for i in &ifs {
        hops.names.push_str(&i.name);
        hops.ends.push(hops.names.len() as u32);
        hops.addrs.push(i.address.addr());
    }
    drop(ifs);
    // What each domain does not model, named on every device of the domain.
    let mut domain_reasons: HashMap<usize, BTreeSet<String>> = HashMap::new();
    // Per device, the reasons of its own that leave its own RIB as computed: its own
    // externals (a router does not route by its own LSAs), when no other router of the
    // domain passes OSPF routes on elsewhere (they would come back by another protocol).
    let mut own: HashMap<usize, BTreeSet<String>> = HashMap::new();
    for (r, m) in &members {
        let set = domain_reasons.entry(*r).or_default();
        let passers: BTreeSet<usize> = m
            .iter()
            .copied()
            .filter(|&o| speakers[o].passes_on)
            .collect();
        for &d in m {
            let alone = passers.iter().all(|&o| o == d);
            for u in &speakers[d].unsupported {
                let reason = format!("OSPF {u} ({}) not computed yet", hostnames[d]);
                if alone && super::igp::own_externals(u) {
                    own.entry(d).or_default().insert(reason.clone());
                }
                set.insert(reason);
            }
        }
        if let Some(big) = too_big.get(r) {
            set.insert(big.clone());
        }
    }
    let incomplete = (0..n)
        .map(|d| {
            let sp = &speakers[d];
            let mut inc: Vec<Incomplete> = sp.vrf_incomplete.clone();
            let reasons = if runs[d] {
                let mut set = domain_reasons.get(&root[d]).cloned().unwrap_or_default();
                if let Some(o) = own.get(&d) {
                    set.retain(|x| !o.contains(x));
                }
                set
            } else {
                // Not running in the default VRF, yet configured there.
                sp.unsupported
                    .iter()
                    .map(|u| format!("OSPF {u} ({}) not computed yet", hostnames[d]))
                    .collect()
            };
            inc.extend(reasons.into_iter().map(|reason| Incomplete {
                vrf: Some("default".to_owned()),
                reason,
            }));
            inc.extend(
                mtu_notes
                    .get(&d)
                    .into_iter()
                    .flatten()
                    .map(|reason| Incomplete {
                        vrf: Some("default".to_owned()),
                        reason: reason.clone(),
                    }),
            );
            inc
        })
        .collect();
    Learned {
        junos: speakers
            .iter()
            .map(|s| s.vendor == Some(Vendor::JuniperJunos))
            .collect(),
        hops,
        net,
        incomplete,
    }
}

/// The domains (by their root device) whose OSPF would cost more than
/// [`MAX_DOMAIN_WORK`] to build, with the reason in words. The work of an area is its
/// routers, interfaces and redistributed prefixes; an ABR runs over each of its areas.
fn too_big(
    speakers: &[Speaker],
    ifs: &[OspfIf],
    root: &[usize],
    members: &HashMap<usize, Vec<usize>>,
) -> HashMap<usize, String> {
    let mut size: HashMap<(usize, u32), u64> = HashMap::new();
    let mut areas: Vec<Vec<u32>> = vec![Vec::new(); speakers.len()];
    for i in ifs {
        let d = i.device;
        *size.entry((root[d], i.area)).or_default() += 1 + i.secondaries.len() as u64;
        if !areas[d].contains(&i.area) {
            areas[d].push(i.area);
            *size.entry((root[d], i.area)).or_default() += 1 + speakers[d].externals.len() as u64;
        }
    }
    members
        .iter()
        .filter_map(|(r, m)| {
            let work: u64 = m
                .iter()
                .filter(|d| areas[**d].len() > 1 && areas[**d].contains(&0))
                .flat_map(|d| &areas[*d])
                .map(|a| size.get(&(*r, *a)).copied().unwrap_or(0))
                .fold(0u64, u64::saturating_add);
            (work > MAX_DOMAIN_WORK).then(|| {
                (*r, format!(
                    "OSPF is not computed in a domain this large ({} routers; its area border routers' shortest paths would cost {work} steps, over {MAX_DOMAIN_WORK})",
                    m.len()
                ))
            })
        })
        .collect()
}

/// Each OSPF interface's name and address, as a route's first hop names them: the
/// names in one string (not one allocation per interface: 560,000 at 50,000 devices).
#[derive(Debug, Default, Serialize, Deserialize)]
struct HopIfs {
    names: String,
    /// Where each name ends in `names`.
    ends: Vec<u32>,
    addrs: Vec<Ipv4Addr>,
}

impl HopIfs {
    fn name(&self, k: u32) -> Option<&str> {
        let k = k as usize;
        let start = match k {
            0 => 0,
            _ => *self.ends.get(k - 1)? as usize,
        };
        self.names.get(start..*self.ends.get(k)? as usize)
    }

    fn addr(&self, k: u32) -> Option<Ipv4Addr> {
        self.addrs.get(k as usize).copied()
    }
}

/// The network's OSPF: what every router shares ([`spf::Net`]) and what each device
/// leaves incomplete; a device's rows are made when its RIB is ([`Learned::device`]).
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Learned {
    junos: Vec<bool>,
    /// Each OSPF interface's name and address, which a route's first hop names.
    hops: HopIfs,
    net: spf::Net,
    incomplete: Vec<Vec<Incomplete>>,
}

impl Learned {
    /// Device `d`'s OSPF routes (one row per next hop) and what OSPF leaves incomplete
    /// there.
    pub fn device(&self, d: usize) -> (Vec<Route>, Vec<Incomplete>) {
        self.device_for(d, None)
    }

    /// Device `d`'s OSPF routes for the prefixes `only` names (None: all), and what
    /// OSPF leaves incomplete there.
    pub fn device_for(&self, d: usize, only: spf::Only<'_>) -> (Vec<Route>, Vec<Incomplete>) {
        let mut out = Vec::new();
        let inc = self.device_into(d, only, 0, &mut out);
        (out, inc)
    }

    /// [`Learned::device_for`] with the routes added to `out`, which is grown once, by
    /// them and `spare` more (a backbone router's table is 350,000 rows at 50,000
    /// devices: grown again for the rows that follow, it was copied twice).
    pub fn device_into(
        &self,
        d: usize,
        only: spf::Only<'_>,
        spare: usize,
        out: &mut Vec<Route>,
    ) -> Vec<Incomplete> {
        let (internal, external) = if self.junos.get(d).copied().unwrap_or(false) {
            (10, 150)
        } else {
            (110, 110)
        };
        let routes = self.net.routes_for(d, only);
        out.reserve_exact(routes.iter().map(|r| r.hops.len()).sum::<usize>() + spare);
        for r in routes {
            let (protocol, ad) = match r.kind {
                Kind::Intra => (Protocol::Ospf, internal),
                Kind::Inter => (Protocol::OspfIA, internal),
                Kind::E1 => (Protocol::OspfE1, external),
                Kind::E2 => (Protocol::OspfE2, external),
                Kind::Summary => (Protocol::OspfIS, internal),
            };
            if r.kind == Kind::Summary {
                // Junos shows the range's discard route at the largest metric.
                let metric = match internal {
                    10 => 16_777_215,
                    _ => u32::try_from(r.metric).unwrap_or(u32::MAX),
                };
                out.push(Route {
                    vrf: "default".into(),
                    network: r.prefix,
                    next_hop: NextHop::Discard,
                    protocol: Protocol::OspfIS,
                    metric,
                    admin_distance: internal,
                    tag: None,
                });
                continue;
            }
            for (l, nbr) in &r.hops {
                let (Some(l), Some(nbr)) = (self.hops.name(*l), self.hops.addr(*nbr)) else {
                    continue;
                };
                out.push(Route {
                    vrf: "default".into(),
                    network: r.prefix,
                    next_hop: NextHop::Interface {
                        interface: l.into(),
                        ip: Some(nbr),
                    },
                    protocol,
                    metric: u32::try_from(r.metric).unwrap_or(u32::MAX),
                    admin_distance: ad,
                    tag: None,
                });
            }
        }
        self.incomplete.get(d).cloned().unwrap_or_default()
    }
}
