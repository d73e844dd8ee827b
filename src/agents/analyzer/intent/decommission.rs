//! Decommissioning a device, or what its failure would take down.

use super::mentions::{has_word, interfaces_on};
use super::sessions::resolve_sessions_between;
use super::{clarify, Intent, Peer, Resolution};
use crate::agents::analyzer::facts::{Facts, LinkEnds};
use std::collections::BTreeSet;

pub(super) fn resolve_decommission(
    toks: &[String],
    lower: &str,
    devs: &[String],
    peers: &[Peer],
    facts: &Facts,
) -> Resolution {
    let wants_link = has_word(toks, lower, &["link", "cable", "connection", "circuit"]);
    // Smaller things than a device, named without being resolvable: never a device-level plan.
    for (words, what) in [
        (
            &["address", "ip", "ipv4"][..],
            "removing an interface address",
        ),
        (&["vrf", "vlan"][..], "removing VRFs or VLANs"),
        (
            &["bgp", "ospf", "routing"][..],
            "removing a routing process",
        ),
        // "pull the running config from X" is no decommission of X.
        (
            &[
                "config",
                "configuration",
                "running-config",
                "startup-config",
                "log",
                "logs",
                "file",
                "files",
                "image",
            ][..],
            "removing or fetching a device's configuration, logs or files",
        ),
    ] {
        if has_word(toks, lower, words)
            && !has_word(
                toks,
                lower,
                &["peer", "peering", "session", "neighbor", "neighbour"],
            )
        {
            return Resolution::Refuse {
                what: what.to_owned(),
            };
        }
    }
    let wants_peer = has_word(
        toks,
        lower,
        &["peer", "peering", "session", "neighbor", "neighbour"],
    ) || !peers.is_empty();
    if wants_link {
        let mut ends: Vec<(String, String)> = Vec::new();
        for d in devs {
            let (ifs, _) = interfaces_on(toks, d, facts);
            for i in ifs {
                ends.push((d.clone(), i));
            }
        }
        let links = devs.first().map_or_else(Vec::new, |d| facts.links_of(d));
        let candidates: Vec<&LinkEnds> = links
            .iter()
            .filter(|(a, b)| {
                let touches = |d: &String| a.0 == *d || b.0 == *d;
                devs.iter().all(touches) && !devs.is_empty()
            })
            .filter(|(a, b)| ends.iter().all(|e| *e == *a || *e == *b))
            .collect();
        return match candidates.len() {
            1 => Resolution::Intent(Intent::DecommissionLink {
                a: candidates[0].0.clone(),
                b: candidates[0].1.clone(),
            }),
            0 => clarify(
                format!(
                    "No link matches{}.",
                    if devs.is_empty() {
                        " (name its two devices)".to_owned()
                    } else {
                        format!(" between {}", devs.join(" and "))
                    }
                ),
                Vec::new(),
            ),
            _ => clarify(
                "Which link? Name it by its interfaces:",
                candidates
                    .iter()
                    .map(|(a, b)| format!("{}:{} – {}:{}", a.0, a.1, b.0, b.1))
                    .collect(),
            ),
        };
    }
    if wants_peer && peers.is_empty() {
        return resolve_sessions_between(devs, facts);
    }
    if wants_peer && !peers.is_empty() {
        if peers.len() > 1 {
            return clarify(
                "Which peer?",
                peers
                    .iter()
                    .map(|p| format!("{} (AS{})", p.name, p.asn))
                    .collect(),
            );
        }
        let peer = peers[0].clone();
        let hosts: BTreeSet<String> = peer.sessions.iter().map(|s| s.0.clone()).collect();
        let device = match devs.len() {
            1 if hosts.contains(&devs[0]) => devs[0].clone(),
            1 => {
                return clarify(
                    format!(
                        "{} has no session to {}. Devices that do:",
                        devs[0], peer.name
                    ),
                    hosts.into_iter().collect(),
                )
            }
            0 if hosts.len() == 1 => hosts.into_iter().next().unwrap_or_default(),
            _ => {
                return clarify(
                    format!("Remove {} from which device?", peer.name),
                    hosts.into_iter().collect(),
                )
            }
        };
        return Resolution::Intent(Intent::DecommissionPeer { device, peer });
    }
    match devs.len() {
        0 => clarify(
            "What should be decommissioned? Name a device, an interface (device and interface), a link or a BGP peer.",
            Vec::new(),
        ),
        1 => {
            let device = devs[0].clone();
            let (ifs, unknown) = interfaces_on(toks, &device, facts);
            if let Some(u) = unknown.first() {
                let names: Vec<String> = facts
                    .interfaces
                    .get(&device)
                    .map(|v| v.iter().map(|i| i.name.clone()).collect())
                    .unwrap_or_default();
                return clarify(format!("{device} has no interface '{u}'. Its interfaces:"), names);
            }
            match ifs.len() {
                0 => Resolution::Intent(Intent::DecommissionDevice {
                    devices: vec![device],
                }),
                1 => Resolution::Intent(Intent::DecommissionInterface {
                    device,
                    interface: ifs[0].clone(),
                }),
                _ => clarify("Which interface?", ifs),
            }
        }
        _ => {
            let with_ifs: Vec<String> = devs
                .iter()
                .filter(|d| !interfaces_on(toks, d, facts).0.is_empty())
                .cloned()
                .collect();
            if with_ifs.is_empty() {
                Resolution::Intent(Intent::DecommissionDevice {
                    devices: devs.to_vec(),
                })
            } else {
                clarify(
                    "The request names several devices and interfaces. Decommission the devices, or one interface?",
                    devs.to_vec(),
                )
            }
        }
    }
}
