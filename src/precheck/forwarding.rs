//! How a plan changes forwarding: the candidate network's RIBs (every device's routes
//! recomputed with the plan applied) against the stored routing model, for what the
//! network exists for — each BGP session's peer address from the device that configures
//! it, each service's endpoints from one another, what each border still announces to
//! its providers — and the routes to loopbacks, defaults and service prefixes
//! (`docs/precheck.md`, "Forwarding").

use super::announce::Announcements;
use super::now::{now, Reader};
pub use super::shifts::{Moved, Shift};
use crate::network::NetworkModel;
use crate::plan::Plan;
use crate::routing::adjacency;
use crate::routing::candidate::{self, MAX_DEVICES};
use crate::routing::igp::is_loopback;
use crate::routing::trace::{trace, Addresses, Branch, Disposition};
use crate::routing::withdrawn::{Withdrawals, Withdrawn};
use crate::routing::{DeviceRib, NextHop, Protocol};
use crate::state::{StateDb, StateError};
use ipnet::{IpNet, Ipv4Net};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

/// How many flows one service contributes (pairs of endpoints).
const MAX_SERVICE_FLOWS: usize = 64;

/// What a traced flow is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    /// A BGP session: its peer address from the device that configures it.
    Session,
    /// A static route the plan adds: traffic for its prefix from its device.
    Route,
    /// A device managed in band: its management address from a border (or core), and
    /// back from the device to that border's loopback.
    Management {
        /// The managed device.
        device: String,
    },
    /// A service towards the internet: from one of its devices to an address no subnet
    /// holds (the probe, [`INTERNET`]), out through a provider.
    Internet {
        /// The service.
        name: String,
        /// Its criticality (`unrated` when the state gives none).
        criticality: String,
    },
    /// A service, between two of its endpoints.
    Service {
        /// The service.
        name: String,
        /// Its criticality (`unrated` when the state gives none).
        criticality: String,
    },
}

/// Traffic from a device (and VRF) to an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow {
    /// What it is for.
    pub purpose: Purpose,
    /// The device it starts on.
    pub source: String,
    /// The VRF it is looked up in there.
    pub vrf: String,
    /// Where it goes.
    pub dst: Ipv4Addr,
    /// The flow as the report names it (`BGP session r1 → 10.0.12.2`).
    pub what: String,
}

/// A flow that reached its destination before the plan and does not after it.
#[derive(Debug, Clone)]
pub struct Broken {
    /// The flow.
    pub flow: Flow,
    /// How the failing branch ends: a loop, no route, a discard route, or a next hop
    /// the plan removes.
    pub disposition: Disposition,
    /// The failing branch, device by device with the interfaces it leaves by.
    pub path: String,
    /// The same branch as data: each device with the interface it leaves by.
    pub hops: Vec<super::PathHop>,
    /// The route the branch's last device matched, when one did.
    pub matched: Option<String>,
    /// Whether other ECMP branches still reach it.
    pub partial: bool,
    /// What the trace assumed to get there (routes from outside peers ruled out for the
    /// network's own addresses), if anything.
    pub assumed: Option<String>,
}

/// A prefix a border still announces to a provider after the plan with no route behind
/// it on the border (only discard routes or none): traffic from the internet is dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dark {
    /// The border.
    pub border: String,
    /// The provider's peer address.
    pub peer: String,
    /// The announced prefix.
    pub prefix: IpNet,
}

/// What the plan does to forwarding.
#[derive(Debug, Clone, Default)]
pub struct Forwarding {
    /// Why it was not computed, when it was not.
    pub not_computed: Option<String>,
    /// When it was not computed: the devices whose routing configuration the plan
    /// changes (none: forwarding cannot move).
    pub unseen: Vec<String>,
    /// How many flows were compared (reached before the plan, with complete RIBs).
    pub flows: usize,
    /// Flows the plan breaks.
    pub broken: Vec<Broken>,
    /// Flows that reached before and whose fate after cannot be told, with why.
    pub unknown: Vec<(Flow, String)>,
    /// Announcements left with nothing behind them.
    pub dark: Vec<Dark>,
    /// What each provider is sent and accepts, before and after, from the routing model
    /// (None where it is not computed).
    pub announcements: Option<Announcements>,
    /// Routes to loopbacks, defaults and service prefixes that change, by VRF and
    /// network.
    pub shifts: BTreeMap<(String, Ipv4Net), Shift>,
    /// Whether each static route the plan adds installs in its device's candidate RIB,
    /// by (device, VRF, prefix): None when that RIB is incomplete (a route olav does not
    /// compute may resolve its next hop on the device).
    pub installs: HashMap<(String, String, Ipv4Net), Option<bool>>,
    /// The IGP adjacencies of the devices the plan changes, lost and formed.
    pub adjacencies: adjacency::Change,
    /// Static routes that installed before the plan and do not after it, though the plan
    /// does not remove them (their next hop resolves through nothing left): (device, VRF,
    /// prefix, next hop).
    pub uninstalled: Vec<(String, String, Ipv4Net, String)>,
    /// The services' prefixes some device still routes after the plan (routed before, and
    /// not withdrawn): an aggregate withdrawn around one does not take it.
    pub service_prefixes_routed: Vec<Ipv4Net>,
    /// Networks no device routes after the plan, with whether the plan takes them away
    /// on purpose (a subnet or address of a device it removes or an interface it shuts).
    pub withdrawn: Vec<(Withdrawn, bool)>,
}

/// How a flow's branches end, taken together.
pub(super) enum Reach {
    Reached,
    Broken(Box<Broken>),
    Unknown(String),
}

/// The VRF name the routing model uses for a VRF the network model stores.
fn vrf_of(v: &str) -> String {
    crate::routing::connected::vrf_name(&(!v.is_empty()).then(|| v.to_owned()))
}

/// The address a host in `p` has for a probe: its first host (the network itself for a
/// /31 or /32; for a default route, 198.18.0.1, an address no network uses for itself).
fn host_in(p: Ipv4Net) -> Ipv4Addr {
    if p.prefix_len() == 0 {
        Ipv4Addr::new(198, 18, 0, 1)
    } else if p.prefix_len() >= 31 {
        p.network()
    } else {
        Ipv4Addr::from(u32::from(p.network()).saturating_add(1))
    }
}

/// A service endpoint: its device (none for a prefix), its address and VRF, its name.
type End<'a> = (Option<&'a str>, Option<(Ipv4Addr, String)>, String);

/// The addresses traced for "the internet", in order of preference: in the range set
/// aside for benchmarks (RFC 2544), which networks rarely use for themselves, so that only
/// a default route (or a provider's routes) carries them. The first that no subnet of the
/// network holds is used — before the plan, and after it too (a new peering link may
/// take 198.18.0.0/30).
const INTERNET: [Ipv4Addr; 4] = [
    Ipv4Addr::new(198, 18, 0, 1),
    Ipv4Addr::new(198, 19, 255, 254),
    Ipv4Addr::new(198, 18, 255, 254),
    Ipv4Addr::new(198, 19, 0, 1),
];

/// The internet probe for a network whose subnets are `held` (and, after a plan, `also`).
pub(super) fn internet_probe(held: &Addresses, also: Option<&Addresses>) -> Option<Ipv4Addr> {
    INTERNET
        .into_iter()
        .find(|p| !held.in_own_subnet(*p) && !also.is_some_and(|a| a.in_own_subnet(*p)))
}

/// Devices managed in band: (device, its management address), the address on a
/// data-plane interface or a loopback of the device.
pub type InBand = Vec<(String, Ipv4Addr)>;

/// The devices of `db` managed in band.
pub(super) fn in_band(db: &StateDb, m: &NetworkModel) -> Result<InBand, StateError> {
    let mut out = Vec::new();
    for d in m.devices.iter().filter(|d| d.status == "active") {
        let Some(access) = db.management_access(&d.hostname)? else {
            continue;
        };
        let (Ok(ip), Some((ifname, vrf))) = (access.address.parse::<Ipv4Addr>(), access.held_on)
        else {
            continue;
        };
        if !crate::model::management::is_management(&ifname, &vrf) {
            out.push((d.hostname.clone(), ip));
        }
    }
    Ok(out)
}

/// Every flow the network exists for, as the state describes it.
pub(super) fn flows(m: &NetworkModel, in_band: &InBand, internet: Option<Ipv4Addr>) -> Vec<Flow> {
    let mut out: Vec<Flow> = Vec::new();
    let mut seen: HashSet<(String, String, Ipv4Addr)> = HashSet::new();
    for s in &m.sessions {
        let Ok(dst) = s.peer.parse::<Ipv4Addr>() else {
            continue;
        };
        let vrf = vrf_of(&s.vrf);
        if s.shutdown || crate::model::management::is_management("", &vrf) {
            continue;
        }
        if seen.insert((s.hostname.clone(), vrf.clone(), dst)) {
            out.push(Flow {
                purpose: Purpose::Session,
                what: format!("BGP session {} → {dst}", s.hostname),
                source: s.hostname.clone(),
                vrf,
                dst,
            });
        }
    }
    // An endpoint's address (its interface's, a device's loopback, a prefix's first
    // host) and the device and VRF it can be a source on.
    let address_of = |h: &str, i: Option<&str>| -> Option<(Ipv4Addr, String)> {
        m.addresses
            .iter()
            .filter(|a| m.name(a.hostname) == h)
            .filter(|a| match i {
                Some(i) => crate::ifname::same(m.name(a.ifname), i),
                None => is_loopback(m.name(a.ifname)),
            })
            .find_map(|a| match a.address {
                IpAddr::V4(ip) => Some((ip, vrf_of(m.name(a.vrf)))),
                IpAddr::V6(_) => None,
            })
    };
    // Management in band: from a border (of the device's site when it has one), else a
    // core, to the address; and back to that device's loopback.
    let anchors = |role: &str| -> Vec<(&str, Option<&str>)> {
        m.devices
            .iter()
            .filter(|d| d.status == "active" && d.role.as_deref() == Some(role))
            .map(|d| (d.hostname.as_str(), d.site.as_deref()))
            .collect()
    };
    let (borders, cores) = (anchors("border"), anchors("core"));
    let pool = if borders.is_empty() { &cores } else { &borders };
    for (device, ip) in in_band {
        let site = m
            .devices
            .iter()
            .find(|d| d.hostname == *device)
            .and_then(|d| d.site.as_deref());
        let Some((from, _)) = pool
            .iter()
            .find(|(h, s)| *s == site && h != device)
            .or_else(|| pool.iter().find(|(h, _)| h != device))
        else {
            continue;
        };
        let purpose = Purpose::Management {
            device: device.clone(),
        };
        if seen.insert(((*from).to_owned(), "default".to_owned(), *ip)) {
            out.push(Flow {
                purpose: purpose.clone(),
                what: format!("management of {device}: {from} → {ip}"),
                source: (*from).to_owned(),
                vrf: "default".into(),
                dst: *ip,
            });
        }
        if let Some((back, vrf)) = address_of(from, None) {
            if vrf == "default" && seen.insert((device.clone(), vrf.clone(), back)) {
                out.push(Flow {
                    purpose,
                    what: format!("management of {device}: {device} → {from} ({back})"),
                    source: device.clone(),
                    vrf,
                    dst: back,
                });
            }
        }
    }
    for svc in &m.services {
        let ends: Vec<End> = svc
            .endpoints
            .iter()
            .filter_map(|e| match (&e.hostname, &e.ifname, &e.prefix) {
                (Some(h), i, _) => Some((
                    Some(h.as_str()),
                    address_of(h, i.as_deref()),
                    match i {
                        Some(i) => format!("{h}:{i}"),
                        None => h.clone(),
                    },
                )),
                (None, _, Some(p)) => p.parse::<Ipv4Net>().ok().map(|n| {
                    let dst = host_in(n);
                    (None, Some((dst, String::new())), format!("{n} ({dst})"))
                }),
                _ => None,
            })
            .collect();
        // Towards the internet, from each of the service's devices.
        for (src, from, _) in &ends {
            let (Some(src), Some(internet)) = (src, internet) else {
                continue;
            };
            let vrf = from
                .as_ref()
                .map_or_else(|| "default".to_owned(), |(_, v)| v.clone());
            if seen.insert(((*src).to_owned(), vrf.clone(), internet)) {
                out.push(Flow {
                    purpose: Purpose::Internet {
                        name: svc.name.clone(),
                        criticality: svc.criticality.clone().unwrap_or_else(|| "unrated".into()),
                    },
                    what: format!("service {}: {src} → the internet", svc.name),
                    source: (*src).to_owned(),
                    vrf,
                    dst: internet,
                });
            }
        }
        let mut n = 0;
        for (src, from, _) in &ends {
            let Some(src) = src else { continue };
            let vrf = from
                .as_ref()
                .map_or_else(|| "default".to_owned(), |(_, v)| v.clone());
            for (host, to, name) in &ends {
                let Some((dst, _)) = to else { continue };
                if host.is_some_and(|h| h == *src) || n >= MAX_SERVICE_FLOWS {
                    continue;
                }
                if seen.insert(((*src).to_owned(), vrf.clone(), *dst)) {
                    n += 1;
                    out.push(Flow {
                        purpose: Purpose::Service {
                            name: svc.name.clone(),
                            criticality: svc
                                .criticality
                                .clone()
                                .unwrap_or_else(|| "unrated".into()),
                        },
                        what: format!("service {}: {src} → {name}", svc.name),
                        source: (*src).to_owned(),
                        vrf: vrf.clone(),
                        dst: *dst,
                    });
                }
            }
        }
    }
    out
}

/// A branch as the report shows it: each device with the interface it leaves by.
fn path_text(b: &Branch) -> String {
    b.hops
        .iter()
        .map(|h| match &h.egress {
            Some(e) => format!("{} ({e})", h.node),
            None => h.node.clone(),
        })
        .collect::<Vec<_>>()
        .join(" → ")
}

/// The address a branch's last device sent the packet to, when it names one.
fn last_next_hop(b: &Branch) -> Option<Ipv4Addr> {
    match b.hops.last()?.next_hop.as_ref()? {
        NextHop::Ip(ip) => Some(*ip),
        NextHop::Interface { ip: Some(ip), .. } => Some(*ip),
        _ => None,
    }
}

/// How the branches of one flow end together; `gone` holds addresses the plan takes
/// away (a branch handed to one of them is dropped: nothing answers there any more).
pub(super) fn reach(
    flow: &Flow,
    branches: Vec<Branch>,
    gone: &HashSet<Ipv4Addr>,
    ribs: &dyn Fn(&str) -> Option<Arc<DeviceRib>>,
) -> Reach {
    let mut failed: Option<(Branch, Disposition)> = None;
    let mut reached = false;
    for b in branches {
        let d = match b.disposition {
            // Towards the internet, a router whose only unknown routes are the providers'
            // is as far as olav can follow: it hears them, so the traffic gets out there.
            Disposition::InsufficientInfo
                if matches!(flow.purpose, Purpose::Internet { .. })
                    && b.hops
                        .last()
                        .is_some_and(|h| hears_providers(ribs, &h.node, &h.vrf)) =>
            {
                Disposition::ExitsNetwork
            }
            Disposition::DeliveredToSubnet | Disposition::ExitsNetwork
                if last_next_hop(&b).is_some_and(|ip| gone.contains(&ip)) =>
            {
                Disposition::NoRoute
            }
            d => d,
        };
        match d {
            Disposition::Accepted | Disposition::DeliveredToSubnet | Disposition::ExitsNetwork => {
                reached = true
            }
            Disposition::InsufficientInfo => {
                let why = if b.caveats.is_empty() {
                    "a RIB on the way is incomplete".to_owned()
                } else {
                    b.caveats.join("; ")
                };
                return Reach::Unknown(why);
            }
            Disposition::NoRoute | Disposition::NullRouted | Disposition::Loop => {
                if failed.is_none() {
                    failed = Some((b, d));
                }
            }
        }
    }
    match failed {
        None if reached => Reach::Reached,
        None => Reach::Unknown("no branch was traced".into()),
        Some((b, d)) => Reach::Broken(Box::new(Broken {
            flow: flow.clone(),
            disposition: d,
            path: path_text(&b),
            hops: b
                .hops
                .iter()
                .map(|h| super::PathHop {
                    device: h.node.clone(),
                    egress: h.egress.clone(),
                })
                .collect(),
            matched: b.hops.last().and_then(|h| h.network.clone()),
            partial: reached,
            assumed: b
                .caveats
                .iter()
                .find(|c| c.starts_with(crate::routing::trace::ASSUMED))
                .cloned(),
        })),
    }
}

/// Whether `node`'s RIB in `vrf` lacks only the routes BGP peers outside the network send.
fn hears_providers(ribs: &dyn Fn(&str) -> Option<Arc<DeviceRib>>, node: &str, vrf: &str) -> bool {
    ribs(node).is_some_and(|r| {
        let unknown = r.incomplete_in(vrf);
        !unknown.is_empty()
            && unknown
                .iter()
                .all(|u| crate::routing::dynamic::from_outside(u))
    })
}

/// Whether `rib` holds a route inside `p` that carries traffic somewhere (not a discard
/// route).
fn backed(rib: Option<&DeviceRib>, p: Ipv4Net) -> bool {
    rib.is_some_and(|r| {
        r.routes
            .iter()
            .any(|x| x.vrf == "default" && p.contains(&x.network) && x.next_hop != NextHop::Discard)
    })
}

/// What the plan takes away on purpose: the devices it removes and the interfaces it
/// shuts or removes; forwarding towards them is the blast radius's, not a side effect.
#[derive(Debug, Clone, Default)]
pub struct Declared {
    /// Devices the plan removes.
    pub devices: Vec<String>,
    /// Interfaces the plan shuts or removes: (device, interface).
    pub interfaces: Vec<(String, String)>,
    /// Static routes the plan removes: (device, VRF, prefix).
    pub statics: Vec<(String, String, Ipv4Net)>,
}

/// Compares forwarding before and after `plan`, and what each provider is sent and
/// accepts; `added` are the static routes it adds: (device, VRF, prefix).
pub fn compute(
    db: &StateDb,
    plan: &Plan,
    declared: &Declared,
    added: &[(String, String, Ipv4Net)],
) -> Result<Forwarding, StateError> {
    let model = NetworkModel::shared(db)?;
    let n = model.devices.len();
    if n > MAX_DEVICES {
        return Ok(Forwarding {
            unseen: candidate::changes_routing(db, plan)?,
            not_computed: Some(format!(
                "olav compares every device's routing table before and after a plan only on networks of up to {MAX_DEVICES} devices for now ({n} here)"
            )),
            ..Forwarding::default()
        });
    }
    let now = now(db)?;
    let read = Reader::new(&now, db);
    let t0 = std::time::Instant::now();
    let candidate::Scoped {
        network: after,
        addresses: after_addresses,
        adjacencies,
    } = candidate::after_scoped(db, plan, &|h| now.model.has(h))?;
    tracing::debug!(
        "forwarding: candidate network in {:?} ({} device(s) recomputed)",
        t0.elapsed(),
        after.recomputed_count()
    );
    let base = |h: &str| read.rib(h);
    let cand = |h: &str| after.rib(h, &base);
    let removed: BTreeSet<&str> = declared.devices.iter().map(String::as_str).collect();
    // Addresses some device answers on before and none after.
    let gone: HashSet<Ipv4Addr> = model
        .addresses
        .iter()
        .filter(|a| a.up)
        .filter_map(|a| match a.address {
            IpAddr::V4(ip) if after_addresses.holders(ip).is_empty() => Some(ip),
            _ => None,
        })
        .collect();
    let mut out = Forwarding {
        adjacencies,
        ..Forwarding::default()
    };
    let reached = now.reached(&model, &base);
    let started = std::time::Instant::now();
    // The plan may address the range the internet probe sits in: another probe, held by
    // neither side, then, traced before the plan again.
    let moved = now
        .probe
        .filter(|p| after_addresses.in_own_subnet(*p))
        .map(|_| internet_probe(&now.addresses, Some(&after_addresses)));
    for flow in reached {
        if removed.contains(flow.source.as_str()) || gone.contains(&flow.dst) {
            continue;
        }
        let moved_flow;
        let flow = match (&flow.purpose, moved) {
            (Purpose::Internet { .. }, Some(None)) => continue,
            (Purpose::Internet { .. }, Some(Some(dst))) => {
                moved_flow = Flow {
                    dst,
                    ..flow.clone()
                };
                let was = trace(&base, &now.addresses, &flow.source, &flow.vrf, dst);
                if !matches!(
                    reach(&moved_flow, was, &HashSet::new(), &base),
                    Reach::Reached
                ) {
                    continue;
                }
                &moved_flow
            }
            _ => flow,
        };
        out.flows += 1;
        let is = trace(&cand, &after_addresses, &flow.source, &flow.vrf, flow.dst);
        match reach(flow, is, &gone, &cand) {
            Reach::Reached => {}
            Reach::Broken(b) => out.broken.push(*b),
            Reach::Unknown(why) => out.unknown.push((flow.clone(), why)),
        }
    }
    // A route the plan adds carries its prefix's traffic somewhere: it must install,
    // and what it carries must arrive.
    let peers: HashSet<Ipv4Addr> = if added.is_empty() {
        HashSet::new()
    } else {
        model
            .sessions
            .iter()
            .filter_map(|s| s.peer.parse::<Ipv4Addr>().ok())
            .collect()
    };
    for (device, vrf, prefix) in added {
        let rib = cand(device);
        let installed = rib.as_ref().is_some_and(|r| {
            r.routes
                .iter()
                .any(|x| x.vrf == *vrf && x.network == *prefix && x.protocol == Protocol::Static)
        });
        let known = installed || rib.is_some_and(|r| r.incomplete_in(vrf).is_empty());
        out.installs.insert(
            (device.clone(), vrf.clone(), *prefix),
            known.then_some(installed),
        );
        // A route that does not install carries nothing: the static-route check says so.
        if !installed {
            continue;
        }
        let flow = Flow {
            purpose: Purpose::Route,
            what: format!("static route {prefix} on {device}"),
            source: device.clone(),
            vrf: vrf.clone(),
            dst: host_in(*prefix),
        };
        let is = trace(&cand, &after_addresses, device, vrf, flow.dst);
        // Handed to an address no device olav knows holds, and no BGP peer (a provider):
        // a server or firewall whose onward routing olav cannot see. A default route is
        // internet-bound by nature and leaves the network on purpose.
        let beyond: Option<Ipv4Addr> = (prefix.prefix_len() > 0)
            .then(|| {
                is.iter()
                    .filter(|b| b.disposition == Disposition::ExitsNetwork)
                    .filter_map(last_next_hop)
                    .find(|ip| !peers.contains(ip))
            })
            .flatten();
        match reach(&flow, is, &gone, &cand) {
            Reach::Reached => {
                if let Some(ip) = beyond {
                    let why = format!(
                        "its traffic leaves the devices olav knows at {ip} (no configuration olav has holds that address, and it is no BGP peer): whether it arrives is not known"
                    );
                    out.unknown.push((flow, why));
                }
            }
            Reach::Broken(b) => out.broken.push(*b),
            // Never a silent pass: where the traffic goes could not be followed.
            Reach::Unknown(why) => out.unknown.push((flow, why)),
        }
    }
    tracing::debug!(
        "forwarding: {} of the {} flows that reach now compared in {:?}",
        out.flows,
        reached.len(),
        started.elapsed()
    );
    // Every device's RIB before and after, one device at a time: the routes that shift,
    // the networks withdrawn, the announcements, the static routes left uninstalled.
    let t0 = std::time::Instant::now();
    let on_purpose = declared_networks(&model, declared);
    let tallies = super::now::pass(
        db,
        &now,
        &after,
        &|h| removed.contains(h),
        &|| Tally {
            shifts: Some(super::shifts::Shifts::new(&model, &on_purpose)),
            ..Tally::default()
        },
        &|t, d| t.device(d, declared),
    )?;
    let mut tallies = tallies.into_iter();
    let Tally {
        shifts,
        mut told,
        mut borders_now,
        mut borders_after,
        mut unplaced,
    } = tallies.next().unwrap_or_default();
    let mut shifts = shifts.unwrap_or_else(|| super::shifts::Shifts::new(&model, &on_purpose));
    for t in tallies {
        if let Some(more) = t.shifts {
            shifts.merge(more);
        }
        told.merge(t.told);
        borders_now.extend(t.borders_now);
        borders_after.extend(t.borders_after);
        unplaced.extend(t.unplaced);
    }
    // The unchanged borders announce after as before.
    borders_after.extend(
        borders_now
            .iter()
            .filter(|r| !removed.contains(r.hostname.as_str()) && !after.recomputed(&r.hostname))
            .cloned(),
    );
    tracing::debug!("forwarding: every device compared in {:?}", t0.elapsed());
    // Announcements: a prefix a border still sends, to any provider, with nothing behind
    // it where it had something before (one it had nothing behind already is the
    // network's condition, not the plan's).
    let announcements = super::announce::from_ribs(
        borders_now.iter().map(Arc::as_ref),
        borders_after.iter().map(Arc::as_ref),
        &declared.devices,
    );
    for s in &announcements.after {
        if removed.contains(s.device.as_str()) {
            continue;
        }
        for p in &s.prefixes {
            let IpNet::V4(v4) = p else { continue };
            if !backed(cand(&s.device).as_deref(), *v4) && backed(base(&s.device).as_deref(), *v4) {
                out.dark.push(Dark {
                    border: s.device.clone(),
                    peer: s.peer.clone(),
                    prefix: *p,
                });
            }
        }
    }
    out.announcements = Some(announcements);
    out.shifts = shifts.finish();
    // The services' prefixes some device routes now.
    let routed_now: Vec<Ipv4Net> = model
        .services
        .iter()
        .flat_map(|svc| svc.endpoints.iter().filter_map(|e| e.prefix.as_deref()))
        .filter_map(|p| p.parse::<Ipv4Net>().ok())
        .filter(|p| told.routed().devices("default", *p) > 0)
        .collect();
    // The network's own address space as it is: a withdrawn address may be on no
    // interface after the plan.
    let inside = |n: Ipv4Net| now.addresses.stays_inside(n.network());
    out.withdrawn = told
        .finish(&inside)
        .into_iter()
        .map(|w| {
            let mine = on_purpose.contains(&w.network);
            (w, mine)
        })
        .collect();
    out.service_prefixes_routed = routed_now
        .into_iter()
        .filter(|p| {
            !out.withdrawn
                .iter()
                .any(|(w, _)| w.vrf == "default" && w.network == *p)
        })
        .collect();
    // Static routes left without a next hop: configured still, installed no more. A
    // network withdrawn is the withdrawn check's.
    out.uninstalled = unplaced
        .into_iter()
        .filter(|(_, v, p, _)| {
            !out.withdrawn
                .iter()
                .any(|(w, _)| w.vrf == *v && w.network == *p)
        })
        .collect();
    read.finish()?;
    Ok(out)
}

/// The networks a what-if withdraws from the network's routing: `devices` gone and
/// `interfaces` shut, recomputed as a plan's candidate is. None when it cannot be told:
/// a network larger than the candidate's limit, or a device whose shutdown olav cannot
/// write in its dialect.
pub fn what_if_withdrawn(
    db: &StateDb,
    devices: &[String],
    interfaces: &[(String, String)],
) -> Result<Option<Vec<Withdrawn>>, StateError> {
    if NetworkModel::shared(db)?.devices.len() > MAX_DEVICES {
        return Ok(None);
    }
    let mut lines: BTreeMap<String, String> = BTreeMap::new();
    for (device, interface) in interfaces {
        if devices.contains(device) {
            continue;
        }
        let Some((os, text)) = db.os_and_config(device)? else {
            return Ok(None);
        };
        let change = crate::dialect::Change::Interface {
            name: interface,
            changes: &[crate::dialect::IfChange::Shutdown],
            switchport: None,
            replaced: None,
        };
        let Ok(rendered) =
            crate::dialect::render(crate::model::Vendor::from_os(&os), device, &text, &change)
        else {
            return Ok(None);
        };
        let e = lines.entry(device.clone()).or_default();
        e.push_str(&rendered.apply.join("\n"));
        e.push('\n');
    }
    let now = now(db)?;
    let removed: Vec<&str> = devices.iter().map(String::as_str).collect();
    let after = candidate::after_scoped_with(db, &removed, &lines, &|h| now.model.has(h))?.network;
    let mut told = Withdrawals::default();
    for t in super::now::pass(
        db,
        &now,
        &after,
        &|h| removed.contains(&h),
        &Withdrawals::default,
        &|t, d| t.device(d.hostname, Some(&d.was), d.is.as_deref(), d.same),
    )? {
        told.merge(t);
    }
    let inside = |n: Ipv4Net| now.addresses.stays_inside(n.network());
    Ok(Some(told.finish(&inside)))
}

/// What the pass over every device gathers for [`compute`] (one per thread, merged in
/// hostname order).
#[derive(Default)]
struct Tally {
    /// The routes to what the network exists for that shift.
    shifts: Option<super::shifts::Shifts>,
    /// The networks withdrawn.
    told: Withdrawals,
    /// The devices with sessions to peers outside the network, before and after (the
    /// devices the plan recomputes).
    borders_now: Vec<Arc<DeviceRib>>,
    borders_after: Vec<Arc<DeviceRib>>,
    /// Static routes that installed before and do not after: (device, VRF, prefix, next
    /// hop).
    unplaced: Vec<(String, String, Ipv4Net, String)>,
}

impl Tally {
    /// One device of the pass.
    fn device(&mut self, d: super::now::Sides<'_>, declared: &Declared) {
        let h = d.hostname;
        let was = d.was;
        self.told.device(h, Some(&was), d.is.as_deref(), d.same);
        if !was.external.is_empty() {
            self.borders_now.push(Arc::clone(&was));
        }
        let Some(is) = d.is.filter(|_| !d.same) else {
            return;
        };
        if !is.external.is_empty() {
            self.borders_after.push(Arc::clone(&is));
        }
        if let Some(shifts) = &mut self.shifts {
            shifts.device(h, Some(&was), Some(&is));
        }
        for s in was.routes.iter().filter(|x| x.protocol == Protocol::Static) {
            let kept = is.routes.iter().any(|x| {
                x.protocol == Protocol::Static && x.vrf == s.vrf && x.network == s.network
            });
            let removed_by_plan = declared
                .statics
                .iter()
                .any(|(d, v, p)| d == h && *v == s.vrf && *p == s.network);
            let seen = self
                .unplaced
                .iter()
                .any(|(d, v, p, _)| d == h && *v == s.vrf && *p == s.network);
            if !kept && !removed_by_plan && !seen {
                self.unplaced.push((
                    h.to_owned(),
                    s.vrf.to_string(),
                    s.network,
                    s.next_hop.to_string(),
                ));
            }
        }
    }
}

/// The subnets and addresses of the devices the plan removes and the interfaces it shuts.
fn declared_networks(m: &NetworkModel, declared: &Declared) -> HashSet<Ipv4Net> {
    let mut out = HashSet::new();
    for a in &m.addresses {
        let (IpAddr::V4(ip), IpNet::V4(p)) = (a.address, a.prefix) else {
            continue;
        };
        let (h, i) = (m.name(a.hostname), m.name(a.ifname));
        let mine = declared.devices.iter().any(|d| d == h)
            || declared
                .interfaces
                .iter()
                .any(|(d, x)| d == h && crate::ifname::same(x, i));
        if mine {
            out.insert(p.trunc());
            out.insert(Ipv4Net::from(ip));
        }
    }
    out
}
