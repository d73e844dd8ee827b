//! Static routes a plan adds or removes, checked on the candidate device: an added route
//! must be new, must not point at a connected prefix, and its next hop must be connected
//! or resolvable through another route; a removed route must exist.

use super::candidate::Candidate;
use super::{Finding, Severity};
use crate::import::parse::parser_for;
use crate::model::{AddressKind, StaticRoute, Vendor};

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

fn finding(severity: Severity, element: String, message: String, suggestion: &str) -> Finding {
    Finding {
        code: "precheck.static_routes",
        severity,
        element,
        message,
        suggestion: suggestion.to_owned(),
    }
}

/// The findings, or None when the plan touches no static route.
pub fn check(cand: &Candidate, blocks: &[(String, String, &str)]) -> Option<Vec<Finding>> {
    let mut out = Vec::new();
    let mut applies = false;
    for (dev, os, text) in blocks {
        let Some(d) = cand.devices.get(dev) else {
            continue;
        };
        let parser = parser_for(Vendor::from_os(os));
        // The device's routes as the plan's lines are applied one after another.
        let mut routes: Vec<StaticRoute> = d.base.static_routes.clone();
        // What the plan's lines say, line by line: `ip route …` adds, `no ip route …` removes.
        for line in text.lines().map(str::trim) {
            let (removing, route_line) = match line.strip_prefix("no ") {
                Some(rest) if rest.starts_with("ip route") => (true, rest),
                _ if line.starts_with("ip route") => (false, line),
                _ => continue,
            };
            applies = true;
            let Some(r) = parser.parse(route_line).static_routes.into_iter().next() else {
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
                routes.retain(|b| !same(&b));
                if routes.len() == before {
                    out.push(finding(
                        Severity::Error,
                        el,
                        "the plan removes a static route the device does not have".into(),
                        "check the prefix and next hop against `olav state show routes`",
                    ));
                } else if r.prefix.prefix_len() == 0
                    && d.cand.bgp.is_none()
                    && d.cand.ospf_networks.is_empty()
                    && !d
                        .cand
                        .static_routes
                        .iter()
                        .any(|o| o.prefix.prefix_len() == 0 && o.vrf == r.vrf)
                {
                    out.push(finding(
                        Severity::Warning,
                        el,
                        "this is the device's only default route and it runs no routing protocol: it loses every destination outside its connected subnets (including its management, if that is remote)".into(),
                        "add the replacement route in the same plan, or confirm out-of-band access",
                    ));
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
            if let Some(c) = connected.iter().find(|c| c.contains(&r.prefix)) {
                out.push(finding(
                    Severity::Error,
                    el.clone(),
                    format!(
                        "{} is inside the connected subnet {c}: the connected route always wins",
                        r.prefix
                    ),
                    "a static route to a connected prefix does nothing; drop it",
                ));
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
                let dynamic = d.cand.bgp.is_some() || !d.cand.ospf_networks.is_empty();
                if !is_connected && !via_other {
                    if dynamic {
                        out.push(finding(
                            Severity::Warning,
                            el,
                            format!("next hop {nh} is in no connected subnet and no other static route covers it; it resolves only through a dynamic route, which olav cannot see"),
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
    }
    applies.then_some(out)
}
