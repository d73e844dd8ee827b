//! BGP sessions named by their peer address, or by the two devices they join.

use super::mentions::has_word;
use super::{clarify, Intent, Resolution};
use crate::agents::analyzer::facts::{Bgp, Facts};
use std::net::IpAddr;

/// One BGP session named by its neighbor address.
pub(super) fn resolve_session_by_address(
    toks: &[String],
    lower: &str,
    devs: &[String],
    removal: bool,
    facts: &Facts,
) -> Option<Resolution> {
    let addrs: Vec<String> = toks
        .iter()
        .filter(|t| !t.contains('/') && t.parse::<IpAddr>().is_ok())
        .cloned()
        .collect();
    let sessions: Vec<&Bgp> = facts
        .sessions
        .iter()
        .filter(|s| addrs.contains(&s.peer))
        .filter(|s| devs.is_empty() || devs.contains(&s.hostname))
        .collect();
    let sessionish = has_word(
        toks,
        lower,
        &["neighbor", "neighbour", "session", "peer", "peering", "bgp"],
    );
    if sessions.is_empty() || !(sessionish || removal) {
        return None;
    }
    if !removal {
        return Some(Resolution::Refuse {
            what: "changing an existing BGP session (only adding or removing sessions)".to_owned(),
        });
    }
    let s = match sessions.as_slice() {
        [s] => *s,
        _ => {
            return Some(clarify(
                "Several sessions match. Which device?",
                sessions
                    .iter()
                    .map(|s| format!("{} → {}", s.hostname, s.peer))
                    .collect(),
            ))
        }
    };
    let peer_device = facts
        .sessions
        .iter()
        .find_map(|x| (x.local_ip.as_deref() == Some(s.peer.as_str())).then(|| x.hostname.clone()))
        .or_else(|| facts.owner_of(&s.peer));
    Some(Resolution::Intent(Intent::RemoveSession {
        device: s.hostname.clone(),
        peer: s.peer.clone(),
        peer_asn: s.peer_asn,
        peer_device,
    }))
}

pub(super) fn sessions_to(facts: &Facts, asn: u32) -> Vec<(String, String)> {
    facts
        .external_sessions()
        .filter(|s| s.peer_asn == Some(asn))
        .map(|s| (s.hostname.clone(), s.peer.clone()))
        .collect()
}

/// "remove the BGP session between A and B": the session(s) from A to an address of B.
pub(super) fn resolve_sessions_between(devs: &[String], facts: &Facts) -> Resolution {
    let [a, b] = devs else {
        return clarify(
            "Which BGP session? Name its neighbor address and device, or the two devices it joins.",
            Vec::new(),
        );
    };
    let owns = |dev: &str, addr: &str| {
        facts.interfaces.get(dev).is_some_and(|ifs| {
            ifs.iter()
                .any(|i| i.addresses.iter().any(|n| n.addr().to_string() == addr))
        })
    };
    let between: Vec<&Bgp> = facts
        .sessions
        .iter()
        .filter(|s| {
            (s.hostname == *a && owns(b, &s.peer)) || (s.hostname == *b && owns(a, &s.peer))
        })
        .collect();
    // Each session appears once per end: keep the first-named device's view.
    let from_a: Vec<&Bgp> = between
        .iter()
        .copied()
        .filter(|s| s.hostname == *a)
        .collect();
    let pick = if from_a.is_empty() { between } else { from_a };
    match pick.as_slice() {
        [] => clarify(
            format!("There is no BGP session between {a} and {b}."),
            Vec::new(),
        ),
        [s] => {
            let other = if s.hostname == *a { b } else { a };
            Resolution::Intent(Intent::RemoveSession {
                device: s.hostname.clone(),
                peer: s.peer.clone(),
                peer_asn: s.peer_asn,
                peer_device: Some(other.clone()),
            })
        }
        _ => clarify(
            format!("There are several BGP sessions between {a} and {b}. Which one?"),
            pick.iter()
                .map(|s| format!("{} → {} (vrf {})", s.hostname, s.peer, s.vrf))
                .collect(),
        ),
    }
}
