//! Readings beside the intents' own: a request that names things but no verb (a question
//! offering what it could mean), a vague reference to a device ("the branch switch",
//! "the Telstra router"), and two changes in one sentence (one change per plan).

use super::mentions::{has_word, interface_like, tokens};
use super::{offer, resolve_at, Candidate, Intent, Resolution};
use crate::agents::analyzer::facts::Facts;
use std::collections::BTreeSet;

/// Verbs (after the lexicon of `language`) that say what to do.
const VERBS: &[&str] = &[
    "add",
    "configure",
    "set",
    "change",
    "modify",
    "create",
    "establish",
    "enable",
    "disable",
    "shut",
    "shutdown",
    "remove",
    "delete",
    "decommission",
    "retire",
    "tear",
    "unconfigure",
    "clear",
    "need",
    "want",
    "second",
    "another",
    "redundant",
    "backup",
    "additional",
    "extra",
    "new",
    "deploy",
    "install",
    "mtu",
];

/// Words that carry no verb and name nothing: a request of only these and names is verbless.
const FILLER: &[&str] = &[
    "the",
    "a",
    "an",
    "on",
    "of",
    "in",
    "at",
    "for",
    "to",
    "from",
    "is",
    "are",
    "it",
    "its",
    "this",
    "that",
    "please",
    "pls",
    "plz",
    "interface",
    "int",
    "port",
    "device",
    "router",
    "switch",
    "session",
    "peer",
    "neighbor",
    "neighbour",
    "route",
    "static",
    "bgp",
    "ebgp",
    "link",
    "and",
    "with",
    "unneeded",
    "via",
    "discard",
    "transit",
    "provider",
    "uplink",
];

/// Words that ask for something to be done without saying what.
const HELP: &[&str] = &[
    "deal", "fix", "handle", "sort", "unneeded", "flapping", "broken",
];

/// Whether the request says what to do.
pub(super) fn has_verb(toks: &[String], lower: &str) -> bool {
    has_word(toks, lower, VERBS) || crate::language::what_if(lower)
}

fn is_name(t: &str, facts: &Facts) -> bool {
    facts.devices.keys().any(|h| h.eq_ignore_ascii_case(t))
        || interface_like(t)
        || t.split('/')
            .next()
            .is_some_and(|a| a.parse::<std::net::IpAddr>().is_ok())
        || t.to_ascii_lowercase()
            .strip_prefix("as")
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        || facts.external_sessions().any(|s| {
            s.description.as_deref().is_some_and(|d| {
                d.split(|c: char| !c.is_alphanumeric())
                    .any(|w| w.len() > 2 && w.eq_ignore_ascii_case(t))
            })
        })
}

/// A request that names things but says nothing to do with them: the readings it could
/// have, each as a request to run.
pub(super) fn verbless(
    toks: &[String],
    lower: &str,
    devs: &[String],
    peers: &[super::Peer],
    facts: &Facts,
) -> Option<Resolution> {
    let content: Vec<&String> = toks
        .iter()
        .filter(|t| !is_name(t, facts) && !FILLER.contains(&t.to_ascii_lowercase().as_str()))
        .collect();
    if !(content.is_empty() || has_word(toks, lower, HELP)) {
        return None;
    }
    let mut offers: Vec<Candidate> = Vec::new();
    let add = |offers: &mut Vec<Candidate>, text: String, request: String| {
        offers.push(Candidate::run(text, request))
    };
    let addrs: Vec<&String> = toks
        .iter()
        .filter(|t| t.parse::<std::net::IpAddr>().is_ok())
        .collect();
    let prefixes: Vec<&String> = toks
        .iter()
        .filter(|t| t.contains('/') && t.parse::<ipnet::IpNet>().is_ok())
        .collect();
    for d in devs {
        for a in &addrs {
            if facts
                .sessions
                .iter()
                .any(|s| s.hostname == *d && s.peer == **a)
            {
                add(
                    &mut offers,
                    format!("{d} → {a}"),
                    format!("remove the BGP neighbor {a} on {d}"),
                );
            }
        }
        for p in &prefixes {
            if facts
                .routes
                .iter()
                .any(|r| r.hostname == *d && r.prefix.to_string() == **p)
            {
                add(
                    &mut offers,
                    format!("{p} on {d}"),
                    format!("remove the static route {p} on {d}"),
                );
            }
        }
        let (ifs, _) = super::mentions::interfaces_on(toks, d, facts);
        for i in &ifs {
            let down = facts
                .interfaces
                .get(d)
                .and_then(|v| v.iter().find(|x| x.name == *i))
                .is_some_and(|x| x.admin_state == "down");
            let verb = if down { "no shutdown" } else { "shutdown" };
            add(
                &mut offers,
                format!("{verb} {d} {i}"),
                format!("{verb} {d} {i}"),
            );
            add(
                &mut offers,
                format!("decommission {d} {i}"),
                format!("decommission interface {i} on {d}"),
            );
        }
        for p in peers {
            if p.sessions.iter().any(|s| s.0 == *d) {
                add(
                    &mut offers,
                    format!("remove {} from {d}", p.name),
                    format!("remove the AS{} peering from {d}", p.asn),
                );
                add(
                    &mut offers,
                    format!("add a redundant uplink to {} on {d}", p.name),
                    format!("add a redundant uplink to AS{} on {d}", p.asn),
                );
            }
        }
    }
    if devs.len() == 1
        && addrs.is_empty()
        && prefixes.is_empty()
        && peers.is_empty()
        && offers.is_empty()
    {
        let d = &devs[0];
        add(
            &mut offers,
            format!("decommission {d}"),
            format!("decommission {d}"),
        );
    }
    if devs.is_empty() {
        for a in &addrs {
            for s in facts.sessions.iter().filter(|s| s.peer == **a) {
                add(
                    &mut offers,
                    format!("{} → {a}", s.hostname),
                    format!("remove the BGP neighbor {a} on {}", s.hostname),
                );
            }
        }
    }
    if offers.is_empty() {
        return None;
    }
    Some(offer(
        "The request names what to change but not what to do with it. Did you mean:",
        offers,
    ))
}

/// Nouns a vague reference ends with.
const DEVICE_NOUNS: &[&str] = &[
    "router", "switch", "switches", "box", "device", "devices", "rtr", "sw", "firewall", "node",
];

/// The request with the reference at `idx` (with its article and noun) replaced by `name`.
pub(super) fn replace_reference(toks: &[String], idx: &[usize], name: &str) -> String {
    let (Some(&first), Some(&last)) = (idx.iter().min(), idx.iter().max()) else {
        return toks.join(" ");
    };
    let mut start = first;
    while start > 0
        && first - start < 3
        && matches!(
            toks[start - 1].to_ascii_lowercase().as_str(),
            "the" | "our" | "that" | "this" | "both" | "a"
        )
    {
        start -= 1;
    }
    let end = toks
        .iter()
        .enumerate()
        .skip(last + 1)
        .take(2)
        .find(|(_, t)| DEVICE_NOUNS.contains(&t.to_ascii_lowercase().as_str()))
        .map_or(last, |(k, _)| k);
    let mut out: Vec<&str> = toks[..start].iter().map(String::as_str).collect();
    out.push(name);
    out.extend(toks[end + 1..].iter().map(String::as_str));
    out.join(" ")
}

/// "the branch switch", "the 3560", "the 2960s", "the Telstra router": the devices it could
/// mean (by a part of their names, or the provider they peer with), offered as requests.
pub(super) fn vague_reference(toks: &[String], facts: &Facts) -> Option<Resolution> {
    let mut idx: Vec<usize> = Vec::new();
    let mut found: BTreeSet<String> = BTreeSet::new();
    for (i, t) in toks.iter().enumerate() {
        let lt = t.to_ascii_lowercase();
        let next_noun = toks
            .get(i + 1)
            .is_some_and(|n| DEVICE_NOUNS.contains(&n.to_ascii_lowercase().as_str()));
        let after_article = i > 0
            && matches!(
                toks[i - 1].to_ascii_lowercase().as_str(),
                "the" | "both" | "our"
            );
        if !(next_noun || after_article) {
            continue;
        }
        // A provider's router: the devices with a session to it.
        let hosts: Vec<String> = facts
            .external_sessions()
            .filter(|s| {
                next_noun
                    && s.description.as_deref().is_some_and(|d| {
                        d.split(|c: char| !c.is_alphanumeric())
                            .any(|w| w.len() > 2 && w.eq_ignore_ascii_case(t))
                    })
            })
            .map(|s| s.hostname.clone())
            .collect();
        // A part of the names: "branch" for br, "3560", "2960s".
        let stem = lt
            .strip_suffix('s')
            .filter(|s| s.chars().all(|c| c.is_ascii_digit()))
            .unwrap_or(&lt);
        let by_name: Vec<String> = facts
            .devices
            .keys()
            .filter(|h| {
                h.split('-').any(|seg| {
                    let seg = seg.to_ascii_lowercase();
                    let numeric =
                        seg.len() >= 3 && seg.chars().all(|c| c.is_ascii_digit()) && seg == stem;
                    let abbreviated = seg.len() >= 2
                        && seg.len() < stem.len()
                        && stem.len() >= 4
                        && seg.chars().all(|c| c.is_ascii_alphabetic())
                        && stem.starts_with(&seg);
                    numeric || abbreviated
                })
            })
            .cloned()
            .collect();
        let hit: Vec<String> = if hosts.is_empty() { by_name } else { hosts };
        if !hit.is_empty() {
            idx.push(i);
            found.extend(hit);
        }
    }
    if found.is_empty() {
        return None;
    }
    let offers = found
        .iter()
        .map(|d| Candidate::run(d.clone(), replace_reference(toks, &idx, d)))
        .collect();
    Some(offer("Which device do you mean?", offers))
}

/// Where a sentence joins two requests.
const JOINS: &[&str] = &[
    " and then ",
    ", then ",
    " then ",
    "; ",
    " and also ",
    " and ",
];

/// Two changes in one sentence: one change per plan, each offered as its own request; two
/// interfaces that fail together are one what-if. `None` when the sentence is one request.
pub(super) fn several_changes(bare: &str, facts: &Facts) -> Option<Resolution> {
    let lower = bare.to_lowercase();
    if lower.contains("between") {
        return None;
    }
    let mut parts: Vec<String> = vec![bare.to_owned()];
    for j in JOINS {
        parts = parts
            .iter()
            .flat_map(|p| p.split(j).map(str::to_owned).collect::<Vec<_>>())
            .collect();
    }
    let parts: Vec<String> = parts
        .into_iter()
        .map(|p| {
            p.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '，'))
                .to_owned()
        })
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let what_if = crate::language::what_if(bare);
    let first = tokens(&parts[0]);
    let lead: Vec<&str> = first
        .iter()
        .take_while(|t| !is_name(t, facts))
        .map(String::as_str)
        .collect();
    let mut requests: Vec<String> = Vec::new();
    let mut device: Option<String> = None;
    for p in &parts {
        let toks = tokens(p);
        let mut r = p.clone();
        if !has_verb(&toks, &p.to_lowercase()) && !what_if {
            r = format!("{} {r}", lead.join(" "));
        }
        let named = toks
            .iter()
            .find(|t| facts.devices.contains_key(t.as_str()))
            .cloned();
        match (&named, &device) {
            (None, Some(d)) if toks.iter().any(|t| interface_like(t)) => r = format!("{r} on {d}"),
            _ => {}
        }
        if named.is_some() {
            device = named;
        }
        if what_if && !r.to_lowercase().contains("decommission") {
            r.push_str(" decommission");
        }
        requests.push(r);
    }
    let mut intents: Vec<Intent> = Vec::new();
    for r in &requests {
        match resolve_at(r, facts, false) {
            Resolution::Intent(i) => intents.push(i),
            _ => return None,
        }
    }
    let interfaces: Vec<(String, String)> = intents
        .iter()
        .filter_map(|i| match i {
            Intent::DecommissionInterface { device, interface } => {
                Some((device.clone(), interface.clone()))
            }
            _ => None,
        })
        .collect();
    if interfaces.len() == intents.len() {
        let mut unique: Vec<(String, String)> = Vec::new();
        for i in interfaces {
            if !unique.contains(&i) {
                unique.push(i);
            }
        }
        return Some(Resolution::Intent(match unique.len() {
            1 => intents.remove(0),
            _ => Intent::DecommissionInterfaces { interfaces: unique },
        }));
    }
    if intents
        .iter()
        .all(|i| matches!(i, Intent::DecommissionDevice { .. }))
        || intents.windows(2).all(|w| w[0] == w[1])
    {
        return None;
    }
    let offers = requests
        .iter()
        .map(|r| Candidate::run(r.trim().to_owned(), r.trim().to_owned()))
        .collect();
    Some(offer(
        format!("The request asks for {} changes; olav drafts one change per plan. Run them one at a time:", requests.len()),
        offers,
    ))
}
