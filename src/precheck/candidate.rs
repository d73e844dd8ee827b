//! The candidate network of a plan, as far as the change reaches: each device the plan
//! configures is parsed from `dialect::candidate_text` (its stored config with the plan's
//! lines applied as the device would hold them), its link neighbours are parsed as stored,
//! and what depends on them is compared before and after — links (subnet still shared,
//! both ends up, both routed or both switched, MTU equal), BGP sessions at both ends,
//! and static routes. Only touched devices and their neighbours are read.

use crate::import::parse::parser_for;
use crate::model::{
    AddressKind, BgpPeer, DeviceConfig, Interface, RouteActivity, StaticRoute, Vendor,
};
use crate::plan::Plan;
use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;

/// A device before and after the plan (equal for untouched neighbours).
pub struct Dev {
    /// OS (`ios`, `eos`, `nxos`).
    pub os: String,
    /// As stored.
    pub base: DeviceConfig,
    /// With the plan's lines applied.
    pub cand: DeviceConfig,
    /// Whether the stored configuration runs an IGP (whose routes olav does not model).
    pub igp: bool,
}

/// Whether a configuration runs an IGP: OSPF, IS-IS, EIGRP or RIP, in any vendor's form.
fn runs_igp(text: &str) -> bool {
    const STARTS: &[&str] = &[
        "router ospf",
        "router isis",
        "router eigrp",
        "router rip",
        "ipv6 router ospf",
        "set protocols ospf",
        "set protocols isis",
        "set protocols rip",
        "ospf {",
        "ospf3 {",
        "isis {",
        "rip {",
    ];
    text.lines().any(|l| {
        let l = l.trim_start();
        STARTS
            .iter()
            .any(|p| l.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p)))
    })
}

/// The static route a device forwards `peer` by: the most specific usable one covering
/// it in the neighbor's VRF, unless a connected subnet holds the peer.
fn static_route_to<'a>(
    cfg: &'a DeviceConfig,
    vrf: &Option<String>,
    peer: IpAddr,
) -> Option<&'a StaticRoute> {
    let vrf_of = |v: &Option<String>| v.clone().unwrap_or_default();
    let connected = cfg
        .interfaces
        .iter()
        .filter(|i| i.admin_up && vrf_of(&i.vrf) == vrf_of(vrf))
        .any(|i| nets(i).iter().any(|a| a.contains(&peer)));
    if connected {
        return None;
    }
    cfg.static_routes
        .iter()
        .filter(|r| vrf_of(&r.vrf) == vrf_of(vrf) && r.prefix.contains(&peer))
        .filter(|r| r.activity == RouteActivity::Usable)
        .max_by_key(|r| r.prefix.prefix_len())
}

/// Why a link or session is lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// An end is administratively down.
    Down,
    /// An end is no longer configured (the plan deletes the interface or unit).
    Gone,
    /// The two ends no longer share a subnet.
    SubnetNotShared,
    /// One end routed, the other switched.
    RoutedSwitched,
    /// The neighbor statement was removed or shut.
    NeighborRemoved,
    /// The session's local or peer address went away.
    AddressGone,
    /// The static route that reached a multihop session's peer went away, and nothing
    /// else olav knows of reaches it.
    RouteGone,
}

/// A link the plan breaks.
#[derive(Debug, Clone)]
pub struct LostLink {
    /// One end.
    pub a: (String, String),
    /// The other end.
    pub b: (String, String),
    /// Why.
    pub cause: Cause,
    /// In words, naming the far end.
    pub detail: String,
}

/// A session the plan ends.
#[derive(Debug, Clone)]
pub struct LostSession {
    /// Device.
    pub device: String,
    /// Peer address.
    pub peer: String,
    /// Why.
    pub cause: Cause,
}

/// A link whose two ends end up with different MTUs.
#[derive(Debug, Clone)]
pub struct MtuMismatch {
    /// The end the plan changed, with its MTU.
    pub changed: (String, String, u32),
    /// The far end, with its MTU.
    pub far: (String, String, u32),
    /// The two MTUs before the plan when they already differed (the plan changed one and
    /// left them unequal); None when the plan makes equal MTUs differ.
    pub before: Option<(u32, u32)>,
    /// How an end's IP MTU was derived when it is not the configured `mtu` as is
    /// (a Junos unit: its port's media MTU less the Ethernet header).
    pub notes: Vec<String>,
}

/// The candidate network around a plan.
pub struct Candidate {
    /// Touched devices and their link neighbours, by hostname.
    pub devices: BTreeMap<String, Dev>,
    /// Devices the plan configures.
    pub touched: BTreeSet<String>,
    /// Links that end on a touched device: (a, b) ends.
    pub links: Vec<((String, String), (String, String))>,
    /// Links lost.
    pub lost_links: Vec<LostLink>,
    /// Sessions lost (at either end).
    pub lost_sessions: Vec<LostSession>,
    /// Interfaces administratively down after the plan that were up before.
    pub shut: Vec<(String, String)>,
    /// MTU mismatches the plan introduces.
    pub mtu: Vec<MtuMismatch>,
    /// Sessions whose peer a removed static route reached, on devices that run an IGP:
    /// whether the IGP reaches the peer is unknown. With the route: (session, route).
    pub route_unknown: Vec<(LostSession, String)>,
}

fn find<'a>(cfg: &'a DeviceConfig, name: &str) -> Option<&'a Interface> {
    cfg.interfaces
        .iter()
        .find(|i| crate::ifname::same(&i.name, name))
}

fn nets(i: &Interface) -> Vec<IpNet> {
    i.addresses
        .iter()
        .filter(|a| a.kind != AddressKind::Virtual)
        .map(|a| a.address)
        .collect()
}

fn share_subnet(a: &Interface, b: &Interface) -> bool {
    nets(a)
        .iter()
        .any(|x| nets(b).iter().any(|y| x.trunc() == y.trunc()))
}

/// Addresses the device answers on: active interfaces, non-virtual.
fn live_addresses(cfg: &DeviceConfig) -> BTreeSet<IpAddr> {
    cfg.interfaces
        .iter()
        .filter(|i| i.admin_up)
        .flat_map(|i| nets(i).into_iter().map(|n| n.addr()))
        .collect()
}

/// What a built candidate is known by: the DB, its state version and when that was
/// imported, and the plan's blocks (device, OS, lines) — all [`Candidate::build`] reads.
type Known = (
    std::path::PathBuf,
    i64,
    Option<String>,
    Vec<(String, String, String)>,
);

/// The candidate built last in this process: a pre-check and its report's picture read
/// the same plan's, which parses every device the plan configures or cables to.
static LAST: std::sync::Mutex<Option<(Known, std::sync::Arc<Candidate>)>> =
    std::sync::Mutex::new(None);

impl Candidate {
    /// The candidate network of `plan` on the DB's current state: the one this process
    /// built last when it is of the same DB, state and blocks, else built now.
    pub fn shared(db: &StateDb, plan: &Plan) -> Result<std::sync::Arc<Candidate>, StateError> {
        let known: Known = (
            std::fs::canonicalize(db.path()).unwrap_or_else(|_| db.path().to_path_buf()),
            db.state_version()?,
            db.last_import()?.map(|l| l.imported_at),
            plan.implementation
                .iter()
                .map(|b| (b.device.clone(), b.os.clone(), b.text.clone()))
                .collect(),
        );
        if let Ok(last) = LAST.lock() {
            if let Some((_, c)) = last.as_ref().filter(|(k, _)| *k == known) {
                return Ok(std::sync::Arc::clone(c));
            }
        }
        let built = std::sync::Arc::new(Candidate::build(db, plan)?);
        if let Ok(mut last) = LAST.lock() {
            *last = Some((known, std::sync::Arc::clone(&built)));
        }
        Ok(built)
    }

    /// Builds the candidate network of `plan` from the state DB.
    pub fn build(db: &StateDb, plan: &Plan) -> Result<Candidate, StateError> {
        let mut blocks: BTreeMap<String, (String, String)> = BTreeMap::new();
        for b in &plan.implementation {
            let entry = blocks.entry(b.device.clone()).or_default();
            entry.0.clone_from(&b.os);
            entry.1.push('\n');
            entry.1.push_str(&b.text);
            entry.1.push('\n');
        }
        let touched: BTreeSet<String> = blocks.keys().cloned().collect();
        let mut links = Vec::new();
        for d in &touched {
            for l in db.links_of(d)? {
                if !links.contains(&l) {
                    links.push(l);
                }
            }
        }
        let mut names: BTreeSet<String> = touched.clone();
        for (a, b) in &links {
            names.insert(a.0.clone());
            names.insert(b.0.clone());
        }
        let mut devices = BTreeMap::new();
        for name in names {
            let row = db.os_and_config(&name)?;
            let Some((os, text)) = row else { continue };
            let parser = parser_for(Vendor::from_os(&os));
            let base = parser.parse(&text);
            let cand = match blocks.get(&name) {
                Some((_, lines)) => parser.parse(&crate::dialect::candidate_text(
                    Vendor::from_os(&os),
                    &text,
                    lines,
                )),
                None => base.clone(),
            };
            let igp = runs_igp(&text);
            devices.insert(
                name,
                Dev {
                    os,
                    base,
                    cand,
                    igp,
                },
            );
        }
        let mut c = Candidate {
            devices,
            touched,
            links,
            lost_links: Vec::new(),
            lost_sessions: Vec::new(),
            shut: Vec::new(),
            mtu: Vec::new(),
            route_unknown: Vec::new(),
        };
        c.compare_interfaces();
        c.compare_links();
        c.compare_sessions(db)?;
        Ok(c)
    }

    fn compare_interfaces(&mut self) {
        for d in &self.touched {
            let Some(dev) = self.devices.get(d) else {
                continue;
            };
            for b in &dev.base.interfaces {
                let up_after = find(&dev.cand, &b.name).is_some_and(|i| i.admin_up);
                if b.admin_up && !up_after {
                    self.shut.push((d.clone(), b.name.clone()));
                }
            }
        }
    }

    fn compare_links(&mut self) {
        for (a, b) in &self.links {
            let end = |x: &(String, String), after: bool| {
                self.devices
                    .get(&x.0)
                    .and_then(|d| find(if after { &d.cand } else { &d.base }, &x.1))
            };
            let (Some(a0), Some(b0)) = (end(a, false), end(b, false)) else {
                continue;
            };
            let (a1, b1) = (end(a, true), end(b, true));
            // A unit's port (`xe-0/1/0` of `xe-0/1/0.0`) gives it its media MTU.
            let port = |x: &(String, String), after: bool| {
                let (p, _) = x.1.split_once('.')?;
                end(&(x.0.clone(), p.to_owned()), after)
            };
            if (a1 == Some(a0))
                && (b1 == Some(b0))
                && port(a, false) == port(a, true)
                && port(b, false) == port(b, true)
            {
                continue;
            }
            let (Some(a1), Some(b1)) = (a1, b1) else {
                let ends = |x: &(String, String), before: &Interface, after: Option<&Interface>| {
                    let n: Vec<String> = nets(before).iter().map(|n| n.to_string()).collect();
                    let addr = if n.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", n.join(", "))
                    };
                    match after {
                        None => format!("{} {}{addr} is no longer configured", x.0, x.1),
                        Some(_) => format!("{} {}{addr} loses its far end", x.0, x.1),
                    }
                };
                self.lost_links.push(LostLink {
                    a: a.clone(),
                    b: b.clone(),
                    cause: Cause::Gone,
                    detail: format!("{}; {}", ends(a, a0, a1), ends(b, b0, b1)),
                });
                continue;
            };
            let describe = |x: &(String, String), i: &Interface| {
                let n: Vec<String> = nets(i).iter().map(|n| n.to_string()).collect();
                format!(
                    "{} {}{}",
                    x.0,
                    x.1,
                    if n.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", n.join(", "))
                    }
                )
            };
            let lost = if (a0.admin_up && b0.admin_up) && !(a1.admin_up && b1.admin_up) {
                Some((Cause::Down, "an end is shut down".to_owned()))
            } else if share_subnet(a0, b0) && !share_subnet(a1, b1) {
                Some((
                    Cause::SubnetNotShared,
                    format!(
                        "{} and {} no longer share a subnet",
                        describe(a, a1),
                        describe(b, b1)
                    ),
                ))
            } else if (a0.switchport_mode.is_none() == b0.switchport_mode.is_none())
                && (a1.switchport_mode.is_none() != b1.switchport_mode.is_none())
            {
                Some((
                    Cause::RoutedSwitched,
                    format!(
                        "{} {} is {} and {} {} is {}",
                        a.0,
                        a.1,
                        if a1.switchport_mode.is_none() {
                            "routed"
                        } else {
                            "switched"
                        },
                        b.0,
                        b.1,
                        if b1.switchport_mode.is_none() {
                            "routed"
                        } else {
                            "switched"
                        }
                    ),
                ))
            } else {
                None
            };
            if let Some((cause, detail)) = lost {
                self.lost_links.push(LostLink {
                    a: a.clone(),
                    b: b.clone(),
                    cause,
                    detail,
                });
                continue;
            }
            let (da, db) = (&self.devices[&a.0], &self.devices[&b.0]);
            let mtu_a = |i: &Interface, after: bool| {
                (if after { &da.cand } else { &da.base }).ip_mtu(Vendor::from_os(&da.os), i)
            };
            let mtu_b = |i: &Interface, after: bool| {
                (if after { &db.cand } else { &db.base }).ip_mtu(Vendor::from_os(&db.os), i)
            };
            let (ma0, ma1, mb0, mb1) = (
                mtu_a(a0, false),
                mtu_a(a1, true),
                mtu_b(b0, false),
                mtu_b(b1, true),
            );
            // A configured MTU the plan changes, even one that leaves the IP MTU as it
            // was (a Junos unit's `family inet mtu` set to what its port gives).
            let a_changed = a0.mtu != a1.mtu || ma0 != ma1;
            let plan_changed = a_changed || b0.mtu != b1.mtu || mb0 != mb1;
            let (ma0, mb0) = (ma0.0, mb0.0);
            let routed = a1.switchport_mode.is_none() && b1.switchport_mode.is_none();
            // A mismatch the plan makes, or one it leaves in place while changing an MTU
            // of the link: "MTU equal" is not a check the plan passed either way.
            if routed && ma1.0 != mb1.0 && (ma0 == mb0 || plan_changed) {
                let (changed, far, before) = if a_changed {
                    ((a, &ma1), (b, &mb1), (ma0, mb0))
                } else {
                    ((b, &mb1), (a, &ma1), (mb0, ma0))
                };
                self.mtu.push(MtuMismatch {
                    changed: (changed.0 .0.clone(), changed.0 .1.clone(), changed.1 .0),
                    far: (far.0 .0.clone(), far.0 .1.clone(), far.1 .0),
                    before: (before.0 != before.1).then_some(before),
                    notes: [&changed.1 .1, &far.1 .1]
                        .into_iter()
                        .flatten()
                        .cloned()
                        .collect(),
                });
            }
        }
    }

    fn compare_sessions(&mut self, db: &StateDb) -> Result<(), StateError> {
        let mut gone_addrs: BTreeSet<String> = BTreeSet::new();
        let mut unknown: Vec<(LostSession, String)> = Vec::new();
        for d in &self.touched {
            let Some(dev) = self.devices.get(d) else {
                continue;
            };
            let before = live_addresses(&dev.base);
            let after = live_addresses(&dev.cand);
            gone_addrs.extend(before.difference(&after).map(|a| a.to_string()));
            let (Some(b0), Some(b1)) = (&dev.base.bgp, &dev.cand.bgp) else {
                continue;
            };
            for n0 in b0.neighbors.iter().filter(|n| !n.shutdown) {
                // Unnumbered: the session rides its interface.
                if let BgpPeer::Interface(ifname) = &n0.peer {
                    let n1 = b1
                        .neighbors
                        .iter()
                        .find(|n| n.peer == n0.peer && n.vrf == n0.vrf);
                    let cause = match n1 {
                        None => Some(Cause::NeighborRemoved),
                        Some(n) if n.shutdown => Some(Cause::NeighborRemoved),
                        Some(_) if !find(&dev.cand, ifname).is_some_and(|i| i.admin_up) => {
                            Some(Cause::Down)
                        }
                        Some(_) => None,
                    };
                    if let Some(cause) = cause {
                        self.lost_sessions.push(LostSession {
                            device: d.clone(),
                            peer: ifname.clone(),
                            cause,
                        });
                    }
                    continue;
                }
                let BgpPeer::Address(peer) = n0.peer else {
                    continue;
                };
                let n1 = b1
                    .neighbors
                    .iter()
                    .find(|n| n.peer == n0.peer && n.vrf == n0.vrf);
                let cause = match n1 {
                    None => Some(Cause::NeighborRemoved),
                    Some(n) if n.shutdown => Some(Cause::NeighborRemoved),
                    Some(n) => {
                        // The local end: the update-source, else a connected subnet.
                        let local_ok = match &n.update_source {
                            Some(src) => {
                                find(&dev.cand, src)
                                    .is_some_and(|i| i.admin_up && !nets(i).is_empty())
                                    || find(&dev.base, src).is_none()
                            }
                            None => {
                                let connected_before = dev.base.interfaces.iter().any(|i| {
                                    i.admin_up && nets(i).iter().any(|a| a.contains(&peer))
                                });
                                !connected_before
                                    || dev.cand.interfaces.iter().any(|i| {
                                        i.admin_up && nets(i).iter().any(|a| a.contains(&peer))
                                    })
                            }
                        };
                        (!local_ok).then_some(Cause::AddressGone)
                    }
                };
                // A multihop session (a loopback peer) that a static route reached.
                let cause = cause.or_else(|| {
                    let before =
                        static_route_to(&dev.base, &n0.vrf, peer).filter(|r| !r.discards())?;
                    let after = static_route_to(&dev.cand, &n0.vrf, peer);
                    if after.is_some_and(|r| !r.discards()) {
                        return None;
                    }
                    let route = format!(
                        "{} via {}",
                        before.prefix,
                        before
                            .next_hop
                            .map(|n| n.to_string())
                            .or(before.next_hop_interface.clone())
                            .unwrap_or_default()
                    );
                    if dev.igp {
                        unknown.push((
                            LostSession {
                                device: d.clone(),
                                peer: peer.to_string(),
                                cause: Cause::RouteGone,
                            },
                            route,
                        ));
                        return None;
                    }
                    Some(Cause::RouteGone)
                });
                if let Some(cause) = cause {
                    self.lost_sessions.push(LostSession {
                        device: d.clone(),
                        peer: peer.to_string(),
                        cause,
                    });
                }
            }
        }
        // Far ends: sessions anywhere to an address a touched device no longer answers on.
        for a in &gone_addrs {
            for (h, p) in db.sessions_to(a)? {
                if !self
                    .lost_sessions
                    .iter()
                    .any(|s| s.device == h && s.peer == p)
                {
                    self.lost_sessions.push(LostSession {
                        device: h,
                        peer: p,
                        cause: Cause::AddressGone,
                    });
                }
            }
        }
        self.route_unknown = unknown;
        Ok(())
    }

    /// Devices at either end of a link whose interface the plan changes.
    pub fn touched_link_ends(&self) -> Vec<String> {
        let changed = |x: &(String, String)| {
            self.touched.contains(&x.0)
                && self
                    .devices
                    .get(&x.0)
                    .is_some_and(|d| find(&d.base, &x.1) != find(&d.cand, &x.1))
        };
        self.links
            .iter()
            .filter(|(a, b)| changed(a) || changed(b))
            .flat_map(|(a, b)| [a.0.clone(), b.0.clone()])
            .collect()
    }

    /// Static routes the plan adds and removes on `device`.
    pub fn route_changes(&self, device: &str) -> (Vec<&StaticRoute>, Vec<&StaticRoute>) {
        let Some(d) = self.devices.get(device) else {
            return (Vec::new(), Vec::new());
        };
        let same = |a: &StaticRoute, b: &StaticRoute| {
            a.vrf == b.vrf
                && a.prefix == b.prefix
                && a.next_hop == b.next_hop
                && a.next_hop_interface == b.next_hop_interface
        };
        let added = d
            .cand
            .static_routes
            .iter()
            .filter(|r| !d.base.static_routes.iter().any(|b| same(b, r)))
            .collect();
        let removed = d
            .base
            .static_routes
            .iter()
            .filter(|r| !d.cand.static_routes.iter().any(|c| same(c, r)))
            .collect();
        (added, removed)
    }
}
