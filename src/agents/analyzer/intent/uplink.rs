//! A new uplink: to an existing provider (redundancy) or to a new one.

use super::mentions::{asn_at, has_word, interfaces_on};
use super::sessions::sessions_to;
use super::{clarify, Intent, NewPeer, Peer, Resolution, REDUNDANT_WORDS};
use crate::agents::analyzer::facts::{free_interface, Facts};
use ipnet::IpNet;
use std::collections::BTreeSet;

/// A provider named in the request that the network has no session to: (name, AS).
fn new_provider(toks: &[String], facts: &Facts) -> (Option<String>, Option<u32>) {
    const NOT_NAMES: &[&str] = &[
        "to",
        "the",
        "a",
        "an",
        "with",
        "peer",
        "peering",
        "provider",
        "new",
        "ebgp",
        "bgp",
        "uplink",
        "session",
        "on",
        "from",
        "transit",
        "add",
        "as",
        "asn",
        "and",
        "router",
        "border",
        "our",
        "their",
        "its",
        "second",
        "redundant",
        "for",
        "another",
        "existing",
        "current",
        "same",
        "upstream",
    ];
    // The last AS number the request gives.
    let asn = (0..toks.len()).rev().find_map(|i| asn_at(toks, i));
    let mut name = None;
    let known = |t: &str| {
        facts.devices.keys().any(|h| h.eq_ignore_ascii_case(t))
            || facts.devices.values().any(|d| {
                d.site.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(t))
                    || d.role.as_deref().is_some_and(|r| r.eq_ignore_ascii_case(t))
            })
    };
    for (i, t) in toks.iter().enumerate() {
        // The word before, over articles and adjectives: "to the Cogent peer".
        let prev = toks[..i]
            .iter()
            .rev()
            .map(|p| p.to_ascii_lowercase())
            .find(|p| {
                !matches!(
                    p.as_str(),
                    "the"
                        | "a"
                        | "an"
                        | "our"
                        | "new"
                        | "second"
                        | "another"
                        | "redundant"
                        | "ebgp"
                        | "bgp"
                )
            });
        if matches!(
            prev.as_deref(),
            Some("to" | "with" | "provider" | "transit" | "from")
        ) {
            let lt = t.to_ascii_lowercase();
            if t.chars().all(|c| c.is_alphanumeric() || c == '-')
                && t.chars().next().is_some_and(|c| c.is_alphabetic())
                && !NOT_NAMES.contains(&lt.as_str())
                && !lt.starts_with("as")
                && !known(t)
            {
                // A name may run over several capitalised words ("Hurricane Electric").
                let mut full = t.clone();
                for next in &toks[i + 1..] {
                    let starts_upper = next.chars().next().is_some_and(|c| c.is_uppercase());
                    let ln = next.to_ascii_lowercase();
                    if !starts_upper
                        || ln.starts_with("as")
                        || known(next)
                        || NOT_NAMES.contains(&ln.as_str())
                    {
                        break;
                    }
                    full.push(' ');
                    full.push_str(next);
                }
                name = Some(full);
                break;
            }
        }
    }
    (name, asn)
}

pub(super) fn resolve_uplink(
    toks: &[String],
    lower: &str,
    devs: &[String],
    peers: &[Peer],
    facts: &Facts,
) -> Resolution {
    // A neighbor address olav would not use is never silently dropped: an uplink is
    // drafted from the link subnet the provider assigned.
    let named_peer = toks.iter().find_map(|t| {
        let ip = t.parse::<std::net::Ipv4Addr>().ok()?;
        let known = facts
            .external_sessions()
            .any(|s| s.peer.parse::<std::net::Ipv4Addr>().ok() == Some(ip));
        (!known).then_some(ip)
    });
    if let Some(ip) = named_peer {
        return clarify(
            format!("The request names the neighbor address {ip}: olav drafts a new uplink from the link subnet the provider assigned, not from the neighbor's address. Say the provider (name and AS) and the link subnet with our address, e.g. 'link 203.0.113.8/31'."),
            Vec::new(),
        );
    }
    let device = match devs {
        [d] => Some(d.clone()),
        [] => None,
        _ => {
            return clarify(
                "The request names more than one device. On which one?",
                devs.to_vec(),
            )
        }
    };
    let peer = match peers {
        [p] => p.clone(),
        [] => {
            let (name, asn) = new_provider(toks, facts);
            let Some(device) = device.clone() else {
                let borders: Vec<String> = facts
                    .devices
                    .values()
                    .filter(|d| d.role.as_deref() == Some("border"))
                    .map(|d| d.hostname.clone())
                    .collect();
                return clarify("On which device should the uplink be added?", borders);
            };
            match (name, asn) {
                (name, Some(asn)) => {
                    let name = name.unwrap_or_else(|| format!("AS{asn}"));
                    let link = toks
                        .iter()
                        .find_map(|t| t.parse::<IpNet>().ok().filter(|_| t.contains('/')));
                    let (ifs, unknown) = interfaces_on(toks, &device, facts);
                    if let Some(u) = unknown.first() {
                        return clarify(format!("{device} has no interface '{u}'."), Vec::new());
                    }
                    let Some(link) = link else {
                        return clarify(
                            format!("Which link subnet did {name} assign for the peering? Say e.g. 'link 203.0.113.1/31' (with host bits: our address)."),
                            Vec::new(),
                        );
                    };
                    return Resolution::Intent(Intent::AddPeering {
                        device,
                        peer: NewPeer {
                            name,
                            asn,
                            link,
                            interface: ifs.first().cloned(),
                        },
                    });
                }
                (Some(name), None) => {
                    return clarify(
                        format!("{name} has no session in the state DB. What AS number does {name} use? Say e.g. '{name} AS64500'."),
                        Vec::new(),
                    )
                }
                (None, None) => {}
            }
            let providers = facts.providers_of(&device);
            match providers.as_slice() {
                [(name, asn)] => Peer {
                    name: name.clone(),
                    asn: *asn,
                    sessions: sessions_to(facts, *asn),
                },
                [] => {
                    return clarify(
                        format!(
                            "{device} has no external provider yet. Which provider (name and AS)?"
                        ),
                        Vec::new(),
                    )
                }
                _ => {
                    return clarify(
                        format!("Which of {device}'s providers should the uplink go to?"),
                        providers
                            .iter()
                            .map(|(n, a)| format!("{n} (AS{a})"))
                            .collect(),
                    )
                }
            }
        }
        _ => {
            return clarify(
                "The request names more than one provider. Which one?",
                peers
                    .iter()
                    .map(|p| format!("{} (AS{})", p.name, p.asn))
                    .collect(),
            )
        }
    };
    let device = match device {
        Some(d) => d,
        None => {
            let hosts: BTreeSet<String> = peer.sessions.iter().map(|s| s.0.clone()).collect();
            match hosts.len() {
                1 => hosts.into_iter().next().unwrap_or_default(),
                _ => {
                    return clarify(
                        format!(
                            "On which device should the uplink to {} be added?",
                            peer.name
                        ),
                        hosts.into_iter().collect(),
                    )
                }
            }
        }
    };
    let redundant =
        has_word(toks, lower, REDUNDANT_WORDS) || peer.sessions.iter().any(|s| s.0 == device);
    let link = toks
        .iter()
        .find_map(|t| t.parse::<IpNet>().ok().filter(|_| t.contains('/')));
    // The uplink goes on the first free interface; an interface the request names is
    // never silently replaced by another.
    let (named, unknown) = interfaces_on(toks, &device, facts);
    if let Some(u) = unknown.first() {
        return clarify(format!("{device} has no interface '{u}'."), Vec::new());
    }
    if let Some(n) = named.first() {
        let free = free_interface(facts, &device).map(|i| i.name.clone());
        if free.as_deref() != Some(n.as_str()) {
            return clarify(
                match &free {
                    Some(f) => format!("olav places a new uplink on the first free interface of {device}, {f}; it cannot place it on {n}. Ask again without naming an interface, or name {f}."),
                    None => format!("{device} has no free interface for a new uplink (olav cannot place it on {n})."),
                },
                free.into_iter().collect(),
            );
        }
    }
    Resolution::Intent(Intent::AddUplink {
        device,
        peer,
        redundant,
        link,
    })
}
