//! The dynamic routing protocols a device runs, so that its RIB is never presented as
//! complete while olav does not compute them yet.
//!
//! Read from the parsed configuration where it says (BGP neighbors and aggregates per
//! VRF) and from the configuration text for what the model does not hold yet: IOS-style
//! `router eigrp|isis|rip …` lines (with their `vrf`), Junos `protocols isis|rip`
//! statements in either syntax. OSPF is computed ([`super::ospf`]), which names what it
//! leaves out itself; so are EIGRP and IS-IS when the network is computed at once
//! ([`super::rib::complete`] drops their reasons from here and [`super::eigrp`],
//! [`super::isis`] name what they leave out).

use super::connected::vrf_name;
use crate::model::{DeviceConfig, Vendor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A part of a device's RIB olav does not compute yet.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Incomplete {
    /// The VRF it affects (None: every VRF of the device).
    pub vrf: Option<String>,
    /// Why, in words ("OSPF routes are not computed yet").
    pub reason: String,
}

/// The reason a dynamic protocol olav does not compute gives, by the name people use.
pub fn not_computed(protocol: &str) -> String {
    format!("{protocol} routes are not computed yet")
}

/// How the reason for routes from BGP peers outside the network begins.
pub const OUTSIDE: &str = "BGP routes from peers outside the network";

/// Whether an incompleteness is only the routes BGP peers outside the network send.
pub fn from_outside(reason: &str) -> bool {
    reason.starts_with(OUTSIDE)
}

/// The mark of a device's BGP before the network's BGP is computed
/// ([`super::rib::finish_all`] replaces it with what BGP leaves incomplete).
pub fn bgp_pending(i: &Incomplete) -> bool {
    i.reason == not_computed("BGP")
}

/// What the device's dynamic protocols leave uncomputed, per VRF.
pub fn incomplete(config: &DeviceConfig, vendor: Vendor, text: &str) -> Vec<Incomplete> {
    let mut out: BTreeSet<Incomplete> = BTreeSet::new();
    let add = |out: &mut BTreeSet<Incomplete>, vrf: Option<String>, protocol: &str| {
        out.insert(Incomplete {
            vrf,
            reason: not_computed(protocol),
        });
    };
    if let Some(b) = &config.bgp {
        for n in b.neighbors.iter().filter(|n| !n.shutdown) {
            add(&mut out, Some(vrf_name(&n.vrf)), "BGP");
        }
        if !b.aggregates.is_empty() || !b.networks.is_empty() {
            add(&mut out, Some("default".to_owned()), "BGP");
        }
    }
    for (vrf, protocol) in from_text(vendor, text) {
        add(&mut out, vrf, protocol);
    }
    out.extend(unread(config, vendor));
    out.extend(tracked(vendor, text));
    // An address from DHCP: its subnet, and the default route DHCP usually brings, are
    // not in the configuration.
    for i in config.interfaces.iter().filter(|i| i.dhcp && i.admin_up) {
        out.insert(Incomplete {
            vrf: Some(vrf_name(&i.vrf)),
            reason: format!(
                "{} takes its address from DHCP: its connected route and any default route DHCP gives are not known",
                i.name
            ),
        });
    }
    // A protocol on every VRF makes its per-VRF entries redundant.
    let every: Vec<String> = out
        .iter()
        .filter(|i| i.vrf.is_none())
        .map(|i| i.reason.clone())
        .collect();
    out.into_iter()
        .filter(|i| i.vrf.is_none() || !every.contains(&i.reason))
        .collect()
}

/// IOS-style static routes with `track N`: installed only while the tracked object (an
/// IP SLA probe, an interface) is up, which the configuration does not tell — olav
/// installs them, and says the VRF's table may differ.
fn tracked(vendor: Vendor, text: &str) -> Vec<Incomplete> {
    if vendor == Vendor::JuniperJunos {
        return Vec::new();
    }
    let mut vrfs: BTreeSet<Option<String>> = BTreeSet::new();
    for line in text.lines().filter(|l| !l.starts_with(' ')) {
        let w: Vec<&str> = line.split_whitespace().collect();
        if let ["ip", "route", rest @ ..] = w.as_slice() {
            if rest.contains(&"track") {
                let vrf = match rest {
                    ["vrf", v, ..] => Some(vrf_name(&Some((*v).to_owned()))),
                    _ => Some("default".to_owned()),
                };
                vrfs.insert(vrf);
            }
        }
    }
    vrfs.into_iter()
        .map(|vrf| Incomplete {
            vrf,
            reason: "static routes with `track` are installed as if their object is up: whether it is, only the device knows".to_owned(),
        })
        .collect()
}

/// Warnings whose line configures routing (static routes, a routing process, an
/// interface's routing settings), by the message's first words.
const ROUTING_WARNINGS: &[&str] = &[
    // `ip route: …`, `ip ospf cost: …`, `ip address: …` (a connected route), as the
    // parsers head their messages.
    "ip ",
    "static",
    "ospf",
    "eigrp",
    "isis",
    "is-is",
    "bgp",
    "router",
    "network",
    "neighbor",
    "reference-bandwidth",
    "confederation",
    "delay",
    "redistribute",
    "distance",
    "maximum-paths",
    "area",
];

/// What the parser could not read that the RIB depends on: a routing line it warned
/// about, or a configuration that stops before its closing `end` (IOS, IOS-XR, EOS) — the
/// routes of what is missing are not known.
pub(crate) fn unread(config: &DeviceConfig, vendor: Vendor) -> Vec<Incomplete> {
    let mut out = Vec::new();
    let routing: Vec<&crate::model::LineWarning> = config
        .warnings
        .iter()
        .filter(|w| {
            let m = w.message.to_ascii_lowercase();
            ROUTING_WARNINGS.iter().any(|p| m.starts_with(p))
        })
        .collect();
    if let [w, rest @ ..] = routing.as_slice() {
        out.push(Incomplete {
            vrf: None,
            reason: format!(
                "a routing line olav could not read or does not compute (line {}: {}{})",
                w.line,
                w.message,
                if rest.is_empty() {
                    String::new()
                } else {
                    format!("; and {} more", rest.len())
                }
            ),
        });
    }
    let ends = matches!(
        vendor,
        Vendor::CiscoIos | Vendor::AristaEos | Vendor::CiscoIosXr
    );
    if ends && config.lines_total > 0 && !config.saw_end {
        out.push(Incomplete {
            vrf: None,
            reason: "the configuration stops before its closing 'end' (truncated?): routes of what is missing are not known".to_owned(),
        });
    }
    out
}

/// Protocols the text configures that the model does not record: (VRF when the line
/// names one, protocol).
fn from_text(vendor: Vendor, text: &str) -> Vec<(Option<String>, &'static str)> {
    let mut out = Vec::new();
    // Junos brace form: the routing instance the lines are in.
    let (mut in_instances, mut instance): (bool, Option<String>) = (false, None);
    for line in text.lines() {
        let t = line.trim();
        let words: Vec<&str> = t.split_whitespace().collect();
        match vendor {
            Vendor::JuniperJunos => {
                let indent = line.len() - line.trim_start().len();
                match (indent, words.as_slice()) {
                    (0, ["routing-instances", "{"]) => in_instances = true,
                    (0, ["}"]) => (in_instances, instance) = (false, None),
                    (4, [name, "{"]) if in_instances => instance = Some((*name).to_owned()),
                    _ => {}
                }
                // A VRF importing routes by route target (an L3VPN): they come over BGP
                // VPN families, which olav does not compute.
                let vpn = match words.as_slice() {
                    ["set", "routing-instances", v, "vrf-target" | "vrf-import", ..] => {
                        Some((*v).to_owned())
                    }
                    ["vrf-target" | "vrf-import", ..] if in_instances => instance.clone(),
                    _ => None,
                };
                if let Some(v) = vpn {
                    out.push((Some(v), VPN));
                }
                let set = match words.as_slice() {
                    ["set", "protocols", p, ..] => Some((None, *p)),
                    ["set", "routing-instances", v, "protocols", p, ..] => {
                        Some((Some((*v).to_owned()), *p))
                    }
                    [p, "{"] if line.starts_with("    ") => Some((None, *p)),
                    _ => None,
                };
                if let Some((vrf, p)) = set {
                    if let Some(name) = junos_protocol(p) {
                        // Brace form: the instance is not known from one line.
                        let vrf = if words[0] == "set" { vrf } else { None };
                        out.push((vrf.map(|v| vrf_name(&Some(v))), name));
                    }
                }
            }
            Vendor::PaloAltoPanos => {
                // Per virtual router: the protocols the PAN-OS reader does not read, and
                // static routes it cannot install as the device does.
                let ["set", "network", "virtual-router", vr, rest @ ..] = words.as_slice() else {
                    continue;
                };
                let name = match rest {
                    ["protocol", "ospf", "enable", "yes"] => "OSPF",
                    ["protocol", "rip", "enable", "yes"] => "RIP",
                    ["routing-table", "ip", "static-route", _, "nexthop", "next-vr", ..] => {
                        "next-vr static"
                    }
                    ["routing-table", "ip", "static-route", _, "path-monitor", "enable", "yes"] => {
                        "path-monitored static"
                    }
                    _ => continue,
                };
                out.push((Some((*vr).to_owned()), name));
            }
            _ => {
                if line.starts_with(' ') {
                    continue;
                }
                let name = match words.as_slice() {
                    ["router", "eigrp", ..] => "EIGRP",
                    ["router", "isis", ..] => "IS-IS",
                    ["router", "rip", ..] => "RIP",
                    _ => continue,
                };
                let vrf = words
                    .iter()
                    .position(|w| *w == "vrf")
                    .and_then(|i| words.get(i + 1))
                    .map(|v| (*v).to_owned());
                out.push((vrf, name));
            }
        }
    }
    out
}

/// The routes a VRF imports by route target, by the name people use.
pub const VPN: &str = "BGP VPN (route-target import)";

fn junos_protocol(word: &str) -> Option<&'static str> {
    match word {
        "isis" => Some("IS-IS"),
        "rip" => Some("RIP"),
        _ => None,
    }
}
