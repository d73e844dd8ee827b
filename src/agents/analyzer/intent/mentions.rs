//! What a request mentions, found in its words: devices, peers (by name, AS or
//! address), interfaces, numbers and quoted text, each resolved against the facts.

use super::reading::replace_reference;
use super::{clarify, offer, Candidate, Peer, Resolution};
use crate::agents::analyzer::facts::Facts;
use crate::ifname;
use crate::language::stem;
use std::collections::BTreeSet;

/// Splits a request into tokens that keep hostnames, interfaces, addresses and prefixes whole.
pub(super) fn tokens(request: &str) -> Vec<String> {
    request
        .split(|c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    ',' | ';'
                        | '('
                        | ')'
                        | '"'
                        | '\''
                        | '`'
                        | '—'
                        | '–'
                        | '!'
                        | '?'
                        | '，'
                        | '。'
                        | '、'
                )
        })
        .map(|t| t.trim_end_matches(['.', ':']).to_owned())
        .filter(|t| !t.is_empty())
        .collect()
}

pub(super) fn has_word(toks: &[String], request_lower: &str, words: &[&str]) -> bool {
    words.iter().any(|w| {
        if w.is_ascii() {
            let sw = stem(w);
            toks.iter().any(|t| stem(t) == sw)
        } else {
            request_lower.contains(w)
        }
    })
}

fn looks_like_hostname(t: &str, facts: &Facts) -> bool {
    let lower = t.to_ascii_lowercase();
    let hyphenated = lower.contains('-')
        && lower
            .split('-')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric()));
    if !hyphenated {
        return false;
    }
    let known_site = facts
        .devices
        .values()
        .filter_map(|d| d.site.as_deref())
        .any(|s| lower.starts_with(&format!("{}-", s.to_ascii_lowercase())));
    known_site || lower.chars().any(|c| c.is_ascii_digit())
}

/// Junos interface names: `ge-0/0/1`, `xe-1/0/0.100`, `ae0`, `irb.10`, `lo0.0`.
fn junos_interface(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    let dashed = ["ge-", "xe-", "et-", "fe-", "gr-", "lt-", "so-"]
        .iter()
        .any(|p| l.starts_with(p) && l[p.len()..].starts_with(|c: char| c.is_ascii_digit()));
    let plain = ["ae", "lo", "irb", "em", "fxp", "me", "reth"]
        .iter()
        .any(|p| {
            l.strip_prefix(p)
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
        });
    dashed || plain
}

pub(super) fn interface_like(t: &str) -> bool {
    if junos_interface(t) {
        return true;
    }
    let Some(first_digit) = t.find(|c: char| c.is_ascii_digit()) else {
        return false;
    };
    let (kind, num) = t.split_at(first_digit);
    !kind.is_empty()
        && kind.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
        && num
            .chars()
            .all(|c| c.is_ascii_digit() || c == '/' || c == '.' || c == ':')
        && ifname::known_kind(kind)
}

/// Words that name a role.
const ROLE_WORDS: &[(&str, &str)] = &[
    ("border", "border"),
    ("edge", "border"),
    ("core", "core"),
    ("distribution", "distribution"),
    ("dist", "distribution"),
    ("access", "access"),
];

/// Devices named in the request, exactly or by site and role; unknown names separately.
pub(super) fn devices(toks: &[String], facts: &Facts) -> Result<Vec<String>, Resolution> {
    let mut found: Vec<String> = Vec::new();
    let mut unknown = Vec::new();
    for t in toks {
        // The exact name first; any case only when it names one device.
        let exact = facts.devices.contains_key(t.as_str()).then(|| t.clone());
        let any_case: Vec<&String> = facts
            .devices
            .keys()
            .filter(|h| h.eq_ignore_ascii_case(t))
            .collect();
        let hit = match (exact, any_case.as_slice()) {
            (Some(h), _) => Some(h),
            (None, [h]) => Some((*h).clone()),
            (None, []) => None,
            (None, several) => {
                return Err(clarify(
                    format!("'{t}' matches several devices that differ only in case. Which one?"),
                    several.iter().map(|h| (*h).clone()).collect(),
                ))
            }
        };
        match hit {
            Some(h) if !found.contains(&h) => found.push(h),
            Some(_) => {}
            None if looks_like_hostname(t, facts) && !interface_like(t) => unknown.push(t.clone()),
            None => {}
        }
    }
    if let Some(u) = unknown.first() {
        let names: Vec<String> = facts.devices.keys().cloned().collect();
        let mut close: Vec<(usize, String)> = names
            .iter()
            .map(|n| {
                (
                    crate::fuzzy::edit_distance(&u.to_ascii_lowercase(), &n.to_ascii_lowercase()),
                    n.clone(),
                )
            })
            .collect();
        close.sort();
        let at: Vec<usize> = toks.iter().position(|t| t == u).into_iter().collect();
        let candidates: Vec<Candidate> = close
            .into_iter()
            .take(3)
            .map(|(_, n)| {
                let mut r: Vec<String> = toks.to_vec();
                if let Some(&i) = at.first() {
                    r[i] = n.clone();
                }
                Candidate::run(n, r.join(" "))
            })
            .collect();
        return Err(offer(
            format!("There is no device '{u}' in the state DB. Did you mean one of these?"),
            candidates,
        ));
    }
    if found.is_empty() {
        // "the 'alpha' border router": a site and a role.
        let sites: BTreeSet<&str> = facts
            .devices
            .values()
            .filter_map(|d| d.site.as_deref())
            .collect();
        let site = sites
            .iter()
            .find(|s| toks.iter().any(|t| t.eq_ignore_ascii_case(s)))
            .copied();
        let role = ROLE_WORDS
            .iter()
            .find(|(w, _)| toks.iter().any(|t| t.eq_ignore_ascii_case(w)))
            .map(|(_, r)| *r);
        if role.is_some() || site.is_some() {
            let matching: Vec<String> = facts
                .devices
                .values()
                .filter(|d| site.is_none_or(|s| d.site.as_deref() == Some(s)))
                .filter(|d| role.is_none_or(|r| d.role.as_deref() == Some(r)))
                .map(|d| d.hostname.clone())
                .collect();
            let what = format!(
                "{}{}",
                site.map(|s| format!("'{s}' ")).unwrap_or_default(),
                role.unwrap_or("device")
            );
            match matching.len() {
                1 if role.is_some() => found = matching,
                0 if role.is_some() => {
                    return Err(clarify(
                        format!("No {what} is known in the state DB."),
                        Vec::new(),
                    ))
                }
                n if n > 1 && role.is_some() => {
                    let idx: Vec<usize> = toks
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| {
                            site.is_some_and(|s| t.eq_ignore_ascii_case(s))
                                || ROLE_WORDS.iter().any(|(w, _)| t.eq_ignore_ascii_case(w))
                        })
                        .map(|(i, _)| i)
                        .collect();
                    return Err(offer(
                        format!("Which {what} do you mean?"),
                        matching
                            .into_iter()
                            .map(|d| {
                                let r = replace_reference(toks, &idx, &d);
                                Candidate::run(d, r)
                            })
                            .collect(),
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(found)
}

/// The AS number token `i` gives: "AS7575", or "AS"/"ASN" followed by the number.
pub(super) fn asn_at(toks: &[String], i: usize) -> Option<u32> {
    let lt = toks.get(i)?.to_ascii_lowercase();
    let digits = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit());
    match lt.strip_prefix("as").filter(|r| digits(r)) {
        Some(n) => n.parse().ok(),
        // "remote-as 64999", as the devices write it.
        None if lt == "as" || lt == "asn" || lt == "remote-as" => toks
            .get(i + 1)
            .filter(|n| digits(n))
            .and_then(|n| n.parse().ok()),
        None => None,
    }
}

/// External peers named by name (a word of a session description), AS or address.
pub(super) fn peers(toks: &[String], facts: &Facts) -> Vec<Peer> {
    let mut out: Vec<Peer> = Vec::new();
    let ext: Vec<_> = facts.external_sessions().collect();
    let mut asns: BTreeSet<u32> = BTreeSet::new();
    for (i, t) in toks.iter().enumerate() {
        let lt = t.to_ascii_lowercase();
        if let Some(n) = asn_at(toks, i) {
            if ext.iter().any(|s| s.peer_asn == Some(n)) {
                asns.insert(n);
            }
        }
        // Words every provider's description has name none of them.
        const GENERIC: &[&str] = &[
            "transit",
            "peer",
            "peering",
            "provider",
            "uplink",
            "upstream",
            "internet",
            "isp",
            "ebgp",
            "bgp",
            "circuit",
            "link",
            "session",
            "the",
            "and",
            "for",
            "redundant",
        ];
        for s in &ext {
            let named = !GENERIC.contains(&lt.as_str())
                && s.description.as_deref().is_some_and(|d| {
                    d.split(|c: char| !c.is_alphanumeric())
                        .any(|w| w.len() > 2 && w.eq_ignore_ascii_case(t))
                });
            if named || s.peer == *t {
                if let Some(a) = s.peer_asn {
                    asns.insert(a);
                }
            }
        }
    }
    for asn in asns {
        let sessions: Vec<(String, String)> = ext
            .iter()
            .filter(|s| s.peer_asn == Some(asn))
            .map(|s| (s.hostname.clone(), s.peer.clone()))
            .collect();
        out.push(Peer {
            name: facts.peer_name(asn),
            asn,
            sessions,
        });
    }
    out
}

/// Interfaces named in the request, resolved on `device`.
pub(super) fn interfaces_on(
    toks: &[String],
    device: &str,
    facts: &Facts,
) -> (Vec<String>, Vec<String>) {
    let names: Vec<&str> = facts
        .interfaces
        .get(device)
        .map(|v| v.iter().map(|i| i.name.as_str()).collect())
        .unwrap_or_default();
    let mut found = Vec::new();
    let mut unknown = Vec::new();
    for t in toks.iter().filter(|t| interface_like(t)) {
        match ifname::resolve(t, names.iter().copied()) {
            Some(n) => {
                if !found.iter().any(|f: &String| f == n) {
                    found.push(n.to_owned());
                }
            }
            None => unknown.push(t.clone()),
        }
    }
    (found, unknown)
}

pub(super) fn number_after(toks: &[String], word: &str) -> Option<u32> {
    let i = toks.iter().position(|t| t.eq_ignore_ascii_case(word))?;
    toks[i + 1..]
        .iter()
        .take(6)
        .find_map(|t| t.parse::<u32>().ok())
}

pub(super) fn quoted(request: &str) -> Option<String> {
    // Single quotes count only around several words: 'alpha' names a site, "to core" is text.
    for (open, close, multiword) in [('"', '"', false), ('“', '”', false), ('\'', '\'', true)] {
        let mut rest = request;
        while let Some(start) = rest.find(open) {
            let after = &rest[start + open.len_utf8()..];
            let Some(end) = after.find(close) else {
                break;
            };
            let q = after[..end].trim();
            if !q.is_empty() && (!multiword || q.contains(' ')) {
                return Some(q.to_owned());
            }
            rest = &after[end + close.len_utf8()..];
        }
    }
    None
}

/// The request without its quoted text (a quoted description names nothing to resolve).
pub(super) fn without_quotes(request: &str) -> String {
    match quoted(request) {
        Some(q) => request.replacen(&q, " ", 1),
        None => request.to_owned(),
    }
}
