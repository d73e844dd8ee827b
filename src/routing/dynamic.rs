//! The dynamic routing protocols a device runs, so that its RIB is never presented as
//! complete while olav does not compute them yet.
//!
//! Read from the parsed configuration where it says (BGP neighbors and aggregates per
//! VRF) and from the configuration text for what the model does not hold yet: IOS-style
//! `router eigrp|isis|rip …` lines (with their `vrf`), Junos `protocols isis|rip`
//! statements in either syntax. OSPF is computed ([`super::ospf`]), which names what it
//! leaves out itself.

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

/// A dynamic protocol by the name people use.
fn reason(protocol: &str) -> String {
    format!("{protocol} routes are not computed yet")
}

/// The mark of a device's BGP before the network's BGP is computed
/// ([`super::rib::finish_all`] replaces it with what BGP leaves incomplete).
pub fn bgp_pending(i: &Incomplete) -> bool {
    i.reason == reason("BGP")
}

/// What the device's dynamic protocols leave uncomputed, per VRF.
pub fn incomplete(config: &DeviceConfig, vendor: Vendor, text: &str) -> Vec<Incomplete> {
    let mut out: BTreeSet<Incomplete> = BTreeSet::new();
    let add = |out: &mut BTreeSet<Incomplete>, vrf: Option<String>, protocol: &str| {
        out.insert(Incomplete {
            vrf,
            reason: reason(protocol),
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

/// Protocols the text configures that the model does not record: (VRF when the line
/// names one, protocol).
fn from_text(vendor: Vendor, text: &str) -> Vec<(Option<String>, &'static str)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        let words: Vec<&str> = t.split_whitespace().collect();
        match vendor {
            Vendor::JuniperJunos => {
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

fn junos_protocol(word: &str) -> Option<&'static str> {
    match word {
        "isis" => Some("IS-IS"),
        "rip" => Some("RIP"),
        _ => None,
    }
}
