//! Static routes a plan adds or removes, checked on the candidate device: an added route
//! must be new, must not point at a connected prefix, and its next hop must be connected
//! or resolvable through another route; a removed route must exist.

use super::candidate::Candidate;
use super::{Finding, Severity};
use crate::dialect::{static_route_changes, StaticRouteLine};
use crate::model::{AddressKind, StaticRoute, Vendor};

/// Whether each added static route installs: (device, VRF, prefix) → Some(installed),
/// or None when the device's candidate RIB is incomplete.
pub type Installs = std::collections::HashMap<(String, String, ipnet::Ipv4Net), Option<bool>>;

fn show(r: &StaticRoute) -> String {
    format!(
        "{}{} via {}",
        r.vrf
            .as_ref()
            .map(|v| format!("vrf {v} "))
            .unwrap_or_default(),
        r.prefix,
        r.next_hop
            .map(|n| n.to_string())
            .or(r.next_hop_interface.clone())
            .unwrap_or_else(|| "?".into())
    )
}

/// Whether the device runs a routing protocol that may give it routes: BGP, or an IGP
/// (OSPF, EIGRP, IS-IS, RIP) in its stored or candidate configuration. EIGRP and IS-IS
/// count as OSPF does: an EIGRP-only router resolves next hops through EIGRP.
fn routing_protocol(d: &super::candidate::Dev) -> bool {
    d.igp
        || d.cand.bgp.is_some()
        || !d.cand.ospf_networks.is_empty()
        || d.cand.eigrp.processes.iter().any(|p| !p.shutdown)
}

fn finding(severity: Severity, element: String, message: String, suggestion: &str) -> Finding {
    Finding {
        code: "precheck.static_routes",
        severity,
        element,
        message,
        suggestion: suggestion.to_owned(),
        path: None,
        covers: Vec::new(),
    }
}

/// The static route that matches a removed route's prefix once it is gone
/// (`routes`: the device's routes as the plan leaves them), when that is a discard
/// route: the most specific usable covering route, unless a connected subnet covers the
/// prefix.
fn discard_after<'a>(
    cfg: &crate::model::DeviceConfig,
    routes: &'a [StaticRoute],
    removed: &StaticRoute,
) -> Option<&'a StaticRoute> {
    let p = removed.prefix;
    let connected = cfg
        .interfaces
        .iter()
        .filter(|i| i.admin_up && i.vrf == removed.vrf)
        .flat_map(|i| i.addresses.iter())
        .filter(|a| a.kind != AddressKind::Virtual)
        .any(|a| a.address.trunc().contains(&p));
    if connected {
        return None;
    }
    let best = routes
        .iter()
        .filter(|o| o.vrf == removed.vrf && o.prefix.contains(&p))
        .filter(|o| o.activity == crate::model::RouteActivity::Usable)
        .max_by_key(|o| o.prefix.prefix_len())?;
    best.discards().then_some(best)
}

/// The findings, or None when the plan touches no static route; `installs` says
/// whether an added route installs in its device's candidate RIB (by device, VRF,
/// prefix; None inside: that RIB is incomplete), when the candidate's routing was
/// computed.
pub fn check(
    db: &crate::state::StateDb,
    cand: &Candidate,
    blocks: &[(String, String, &str)],
    installs: Option<&Installs>,
    covered: &dyn Fn(&str, &StaticRoute) -> Option<bool>,
) -> Option<Vec<Finding>> {
    let mut out = Vec::new();
    let mut applies = false;
    for (dev, os, text) in blocks {
        let Some(d) = cand.devices.get(dev) else {
            continue;
        };
        let vendor = Vendor::from_os(os);
        // The device's routes as the plan's lines are applied one after another.
        let mut routes: Vec<StaticRoute> = d.base.static_routes.clone();
        let mut removed_forwarding: Vec<(String, StaticRoute)> = Vec::new();
        // What the plan's lines say, line by line: `ip route …` adds, `no ip route …`
        // removes; on Junos `set … static route …` adds, `delete … static route …` removes
        // (the whole route when no next hop is named).
        for StaticRouteLine {
            removes: removing,
            route,
        } in static_route_changes(vendor, text)
        {
            applies = true;
            let Some(r) = route else {
                continue;
            };
            let same = |b: &&StaticRoute| {
                b.vrf == r.vrf
                    && b.prefix == r.prefix
                    && (r.next_hop.is_none() && r.next_hop_interface.is_none()
                        || (b.next_hop == r.next_hop
                            && b.next_hop_interface == r.next_hop_interface))
            };
            let el = format!("{dev} {}", show(&r));
            if removing {
                let before = routes.len();
                // What the line removes as stored (a Junos `delete` names no next hop).
                let forwarded = routes.iter().filter(|b| same(b)).any(|b| !b.discards());
                routes.retain(|b| !same(&b));
                if routes.len() == before {
                    out.push(finding(
                        Severity::Error,
                        el,
                        "the plan removes a static route the device does not have".into(),
                        "check the prefix and next hop against `olav state show routes`",
                    ));
                } else if r.prefix.prefix_len() == 0
                    && !d
                        .cand
                        .static_routes
                        .iter()
                        .any(|o| o.prefix.prefix_len() == 0 && o.vrf == r.vrf)
                {
                    out.push(finding(
                        Severity::Warning,
                        el,
                        if routing_protocol(d) {
                            "this is the device's last static default route: unless a routing protocol supplies a default, the device loses every destination outside what it learns (the routes check says whether its computed RIB keeps a default)".into()
                        } else {
                            "this is the device's only default route and it runs no routing protocol: it loses every destination outside its connected subnets (including its management, if that is remote)".into()
                        },
                        "add the replacement route in the same plan, or confirm where the default comes from",
                    ));
                } else if forwarded {
                    removed_forwarding.push((el, r.clone()));
                }
                continue;
            }
            if routes.iter().any(|b| same(&b)) {
                out.push(finding(
                    Severity::Error,
                    el,
                    "an identical static route is already configured: the plan adds nothing, and its rollback would delete the existing route".into(),
                    "drop the route from the plan",
                ));
                continue;
            }
            routes.push(r.clone());
            let vrf_of = |i: &crate::model::Interface| i.vrf == r.vrf;
            let connected: Vec<ipnet::IpNet> = d
                .cand
                .interfaces
                .iter()
                .filter(|i| i.admin_up && vrf_of(i))
                .flat_map(|i| {
                    i.addresses
                        .iter()
                        .filter(|a| a.kind != AddressKind::Virtual)
                        .map(|a| a.address.trunc())
                })
                .collect();
            if let Some(c) = connected.iter().find(|c| **c == r.prefix) {
                out.push(finding(
                    Severity::Error,
                    el.clone(),
                    format!(
                        "{} is the connected subnet {c}: the connected route wins (distance 0), so this static route is never used",
                        r.prefix
                    ),
                    "a static route to a connected prefix does nothing; drop it",
                ));
            } else if let Some(c) = connected.iter().find(|c| c.contains(&r.prefix)) {
                // Longest match: the more specific static route takes that part of the LAN.
                out.push(finding(
                    Severity::Warning,
                    el.clone(),
                    format!(
                        "{} is inside the connected subnet {c}: being more specific, the static route wins for it, and hosts there are reached via the next hop instead of the LAN",
                        r.prefix
                    ),
                    "confirm that part of the subnet really lives behind the next hop",
                ));
            }
            // A route via the device's own address installs nothing: that error alone.
            let own: Vec<std::net::IpAddr> = d
                .cand
                .interfaces
                .iter()
                .flat_map(|i| i.addresses.iter().map(|a| a.address.addr()))
                .collect();
            if let Some(nh) = r.next_hop.filter(|nh| own.contains(nh)) {
                out.push(finding(
                    Severity::Error,
                    el.clone(),
                    format!(
                        "next hop {nh} is an address of {dev} itself: {}",
                        if vendor == Vendor::JuniperJunos {
                            "the route commits but never installs"
                        } else {
                            "the device refuses the route"
                        }
                    ),
                    "use the neighbour's address as the next hop",
                ));
                continue;
            }
            // A subnet connected elsewhere in the network: the static route (distance 1 unless
            // set) overrides what the IGP gives to it.
            if r.prefix.prefix_len() > 0 {
                if let Some((h, i, net)) = connected_elsewhere(db, dev, &r.prefix) {
                    let what = if net == r.prefix {
                        "the subnet".to_owned()
                    } else {
                        format!("inside {net}")
                    };
                    // Whether the network's routing gives the device a route to it now:
                    // when it gives none, the static route overrides nothing (whether
                    // its traffic arrives is the forwarding check's).
                    let covers = covered(dev, &r);
                    if covers == Some(false) {
                        out.push(finding(
                            Severity::Info,
                            el.clone(),
                            format!(
                                "{} is {what}, connected on {h} {i}; {dev} has no route to it now (its computed RIB is complete): the static route gives it one",
                                r.prefix
                            ),
                            "",
                        ));
                    } else {
                        out.push(finding(
                            Severity::Warning,
                            el.clone(),
                            format!(
                                "{} is {what}, connected on {h} {i}: this static route overrides {}",
                                r.prefix,
                                if covers == Some(true) {
                                    "the route the network's routing gives to it".to_owned()
                                } else {
                                    format!("any route the network's routing gives to it (whether it gives {dev} one, olav cannot tell: its computed RIB is incomplete or not compared)")
                                }
                            ),
                            "make sure the next hop leads to that subnet, or use a higher administrative distance",
                        ));
                    }
                }
            }
            if let Some(nh) = r.next_hop {
                let is_connected = connected.iter().any(|c| c.contains(&nh));
                let via_other = d.cand.static_routes.iter().any(|o| {
                    o.vrf == r.vrf
                        && o.prefix != r.prefix
                        && o.prefix.contains(&nh)
                        && o.next_hop_interface
                            .as_deref()
                            .is_none_or(|i| !i.eq_ignore_ascii_case("null0"))
                });
                let dynamic = routing_protocol(d);
                // The candidate's computed RIB says whether the next hop resolves (any
                // protocol, EIGRP and IS-IS too); without it, whether the device runs a
                // routing protocol is all there is to go on.
                let computed = match (installs, r.prefix) {
                    (Some(m), ipnet::IpNet::V4(p)) => m
                        .get(&(dev.clone(), crate::routing::connected::vrf_name(&r.vrf), p))
                        .copied(),
                    _ => None,
                };
                if !is_connected && !via_other {
                    if let Some(known) = computed {
                        if known == Some(false) {
                            out.push(finding(
                                Severity::Error,
                                el,
                                format!("next hop {nh} resolves through no route of {dev}'s RIB after the plan (connected, static and every routing protocol computed): the route does not install"),
                                "use a next hop the device has a route to (olav routes --device DEVICE --prefix NEXT_HOP)",
                            ));
                        } else if known.is_none() {
                            out.push(finding(
                                Severity::Warning,
                                el,
                                format!("next hop {nh} is in no connected subnet and resolves through none of the routes olav computes for {dev}, whose RIB is incomplete (`olav routes --device {dev}` names what olav does not compute there): whether it installs is unknown"),
                                "confirm the route to the next hop in the device's RIB",
                            ));
                        }
                    } else if dynamic {
                        out.push(finding(
                            Severity::Warning,
                            el,
                            format!("next hop {nh} is in no connected subnet and no other static route covers it; it resolves only through a dynamic route, which the pre-check does not read yet (`olav routes --plan` shows whether it installs)"),
                            "use a connected next hop, or confirm the route to it in the device's RIB",
                        ));
                    } else {
                        out.push(finding(
                            Severity::Error,
                            el,
                            format!("next hop {nh} is in no connected subnet, no other static route covers it and the device runs no routing protocol: the route can never be active"),
                            "use a next hop in a connected subnet",
                        ));
                    }
                }
            }
        }
        // Judged on the candidate with every block applied: another block may add the
        // route back.
        for (el, r) in removed_forwarding {
            if let Some(q) = discard_after(&d.cand, &d.cand.static_routes, &r) {
                // The next match the device has for the prefix drops it.
                out.push(finding(
                    Severity::Warning,
                    el,
                    format!(
                        "after the plan, traffic to {} matches {}, a discard route: it is dropped, unless a routing protocol supplies a more specific route (the pre-check does not read the computed RIB yet: `olav routes`)",
                        r.prefix,
                        show(q)
                    ),
                    "confirm nothing still lives behind the route, or keep it",
                ));
            }
        }
    }
    applies.then_some(out)
}

/// A subnet configured on another device that holds `p`: (device, interface, subnet).
fn connected_elsewhere(
    db: &crate::state::StateDb,
    dev: &str,
    p: &ipnet::IpNet,
) -> Option<(String, String, ipnet::IpNet)> {
    for len in (8..=p.prefix_len()).rev() {
        let Ok(net) = ipnet::IpNet::new(p.network(), len).map(|n| n.trunc()) else {
            continue;
        };
        if let Ok(Some((h, i))) = db.subnet_holder(&net.to_string(), dev) {
            return Some((h, i, net));
        }
    }
    None
}
