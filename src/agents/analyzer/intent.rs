//! Request → intent, deterministically, resolved against the state DB. When the request
//! is ambiguous or names something unknown, the answer is a question with candidates,
//! never a guess.

use super::facts::Facts;
use crate::ifname;
use crate::workflow::route::stem;
use ipnet::IpNet;
use std::collections::BTreeSet;
use std::net::IpAddr;

/// An external BGP peer, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// Name (from session descriptions, else `AS<n>`).
    pub name: String,
    /// Its AS.
    pub asn: u32,
    /// (device, peer address) of every session to it.
    pub sessions: Vec<(String, String)>,
}

/// A change to an interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfChange {
    /// New description.
    Description(String),
    /// New primary address.
    Address(IpNet),
    /// Shut it.
    Shutdown,
    /// Bring it up.
    NoShutdown,
    /// New MTU.
    Mtu(u32),
}

/// What the request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    /// Add an eBGP uplink / peering to a peer on a device.
    AddUplink {
        /// Device.
        device: String,
        /// Peer.
        peer: Peer,
        /// Whether the request asks for redundancy (or the peer is already reached).
        redundant: bool,
    },
    /// Modify an interface.
    ModifyInterface {
        /// Device.
        device: String,
        /// Interface as configured.
        interface: String,
        /// Changes.
        changes: Vec<IfChange>,
    },
    /// Add a static route.
    AddStaticRoute {
        /// Device.
        device: String,
        /// Destination.
        prefix: IpNet,
        /// Next hop.
        next_hop: IpAddr,
    },
    /// Decommission a device.
    DecommissionDevice {
        /// Device.
        device: String,
    },
    /// Decommission an interface.
    DecommissionInterface {
        /// Device.
        device: String,
        /// Interface as configured.
        interface: String,
    },
    /// Decommission a link.
    DecommissionLink {
        /// One end.
        a: (String, String),
        /// Other end.
        b: (String, String),
    },
    /// Remove a BGP peer from a device.
    DecommissionPeer {
        /// Device.
        device: String,
        /// Peer.
        peer: Peer,
    },
}

/// The analyzer's reading of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// A plannable intent.
    Intent(Intent),
    /// A question, with the candidates to choose from.
    Clarify {
        /// The question.
        question: String,
        /// Candidates (may be empty).
        candidates: Vec<String>,
    },
}

fn clarify(question: impl Into<String>, candidates: Vec<String>) -> Resolution {
    Resolution::Clarify {
        question: question.into(),
        candidates,
    }
}

/// What the analyzer can plan, for requests it cannot.
pub const CAN_PLAN: &[&str] = &[
    "add an eBGP uplink / peering (redundant or not) to a named peer on a device",
    "modify an interface: description, address, shutdown / no shutdown, MTU",
    "add a static route: <prefix> via <next hop> on a device",
    "decommission a device, an interface, a link or a BGP peer",
];

const DECOM_WORDS: &[&str] = &[
    "decommission",
    "remove",
    "retire",
    "delete",
    "tear",
    "退役",
    "下线",
    "拆除",
];
const UPLINK_WORDS: &[&str] = &[
    "uplink",
    "peering",
    "peer",
    "session",
    "ebgp",
    "transit",
    "neighbor",
    "neighbour",
    "上联",
];
const REDUNDANT_WORDS: &[&str] = &[
    "redundant",
    "second",
    "additional",
    "another",
    "backup",
    "冗余",
];

/// Splits a request into tokens that keep hostnames, interfaces, addresses and prefixes whole.
fn tokens(request: &str) -> Vec<String> {
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

fn has_word(toks: &[String], request_lower: &str, words: &[&str]) -> bool {
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

fn interface_like(t: &str) -> bool {
    let Some(first_digit) = t.find(|c: char| c.is_ascii_digit()) else {
        return false;
    };
    let (kind, num) = t.split_at(first_digit);
    !kind.is_empty()
        && kind.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
        && num
            .chars()
            .all(|c| c.is_ascii_digit() || c == '/' || c == '.' || c == ':')
        && (ifname::expand(t) != t || {
            let e = ifname::expand(&format!("{}0", kind.to_ascii_lowercase()));
            e != format!("{}0", kind.to_ascii_lowercase())
        })
}

/// Devices named in the request, exactly or by site and role; unknown names separately.
fn devices(toks: &[String], facts: &Facts) -> Result<Vec<String>, Resolution> {
    let mut found: Vec<String> = Vec::new();
    let mut unknown = Vec::new();
    for t in toks {
        match facts.devices.keys().find(|h| h.eq_ignore_ascii_case(t)) {
            Some(h) if !found.contains(h) => found.push(h.clone()),
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
        let candidates: Vec<String> = close.into_iter().take(3).map(|(_, n)| n).collect();
        return Err(clarify(
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
        let role = [
            ("border", "border"),
            ("edge", "border"),
            ("core", "core"),
            ("distribution", "distribution"),
            ("dist", "distribution"),
            ("access", "access"),
        ]
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
                    return Err(clarify(format!("Which {what} do you mean?"), matching))
                }
                _ => {}
            }
        }
    }
    Ok(found)
}

/// External peers named by name (a word of a session description), AS or address.
fn peers(toks: &[String], facts: &Facts) -> Vec<Peer> {
    let mut out: Vec<Peer> = Vec::new();
    let ext: Vec<_> = facts.external_sessions().collect();
    let mut asns: BTreeSet<u32> = BTreeSet::new();
    for (i, t) in toks.iter().enumerate() {
        let lt = t.to_ascii_lowercase();
        let asn_tok = lt
            .strip_prefix("as")
            .filter(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_owned)
            .or_else(|| {
                (lt == "as" || lt == "asn")
                    .then(|| toks.get(i + 1).cloned())
                    .flatten()
                    .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
            });
        if let Some(n) = asn_tok.and_then(|n| n.parse::<u32>().ok()) {
            if ext.iter().any(|s| s.peer_asn == Some(n)) {
                asns.insert(n);
            }
        }
        for s in &ext {
            let named = s.description.as_deref().is_some_and(|d| {
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
        let name = ext
            .iter()
            .filter(|s| s.peer_asn == Some(asn))
            .find_map(|s| {
                s.description
                    .as_deref()?
                    .split_whitespace()
                    .next()
                    .map(str::to_owned)
            })
            .unwrap_or_else(|| format!("AS{asn}"));
        out.push(Peer {
            name,
            asn,
            sessions,
        });
    }
    out
}

/// Interfaces named in the request, resolved on `device`.
fn interfaces_on(toks: &[String], device: &str, facts: &Facts) -> (Vec<String>, Vec<String>) {
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

fn number_after(toks: &[String], word: &str) -> Option<u32> {
    let i = toks.iter().position(|t| t.eq_ignore_ascii_case(word))?;
    toks[i + 1..]
        .iter()
        .take(6)
        .find_map(|t| t.parse::<u32>().ok())
}

fn quoted(request: &str) -> Option<String> {
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
fn without_quotes(request: &str) -> String {
    match quoted(request) {
        Some(q) => request.replacen(&q, " ", 1),
        None => request.to_owned(),
    }
}

/// Reads a request.
pub fn resolve(request: &str, facts: &Facts) -> Resolution {
    let bare = without_quotes(request);
    let toks = tokens(&bare);
    let lower = bare.to_lowercase();
    let devs = match devices(&toks, facts) {
        Ok(d) => d,
        Err(r) => return r,
    };
    let peers = peers(&toks, facts);
    let decom = has_word(&toks, &lower, DECOM_WORDS);
    if decom {
        return resolve_decommission(&toks, &lower, &devs, &peers, facts);
    }
    let uplinkish = has_word(&toks, &lower, UPLINK_WORDS);
    let has_prefix = toks
        .iter()
        .any(|t| t.contains('/') && t.parse::<IpNet>().is_ok());
    if (uplinkish || !peers.is_empty()) && !has_prefix {
        let peer = match peers.len() {
            1 => peers[0].clone(),
            0 => {
                let known: BTreeSet<String> = facts
                    .external_sessions()
                    .filter_map(|s| {
                        let n = s
                            .description
                            .as_deref()?
                            .split_whitespace()
                            .next()?
                            .to_owned();
                        Some(format!("{n} (AS{})", s.peer_asn?))
                    })
                    .collect();
                return clarify(
                    "Which peer should the uplink go to?",
                    known.into_iter().collect(),
                );
            }
            _ => {
                return clarify(
                    "The request names more than one peer. Which one?",
                    peers
                        .iter()
                        .map(|p| format!("{} (AS{})", p.name, p.asn))
                        .collect(),
                )
            }
        };
        let device = match devs.len() {
            1 => devs[0].clone(),
            0 => {
                let hosts: BTreeSet<String> = peer.sessions.iter().map(|s| s.0.clone()).collect();
                if hosts.len() == 1 {
                    hosts.into_iter().next().unwrap_or_default()
                } else {
                    let borders: Vec<String> = facts
                        .devices
                        .values()
                        .filter(|d| d.role.as_deref() == Some("border"))
                        .map(|d| d.hostname.clone())
                        .collect();
                    return clarify(
                        format!(
                            "On which device should the uplink to {} be added?",
                            peer.name
                        ),
                        borders,
                    );
                }
            }
            _ => {
                return clarify(
                    "The request names more than one device. On which one?",
                    devs,
                )
            }
        };
        let redundant =
            has_word(&toks, &lower, REDUNDANT_WORDS) || peer.sessions.iter().any(|s| s.0 == device);
        return Resolution::Intent(Intent::AddUplink {
            device,
            peer,
            redundant,
        });
    }
    let Some(device) = devs.first().cloned() else {
        return clarify(
            format!("Which device? I can plan: {}.", CAN_PLAN.join("; ")),
            Vec::new(),
        );
    };
    if devs.len() > 1 {
        return clarify("The request names more than one device. Which one?", devs);
    }
    if has_word(&toks, &lower, &["route"]) && has_prefix {
        let prefix = toks
            .iter()
            .find_map(|t| t.parse::<IpNet>().ok().filter(|_| t.contains('/')));
        let next_hop = toks.iter().find_map(|t| t.parse::<IpAddr>().ok());
        return match (prefix, next_hop) {
            (Some(prefix), Some(next_hop)) => Resolution::Intent(Intent::AddStaticRoute {
                device,
                prefix: prefix.trunc(),
                next_hop,
            }),
            _ => clarify(
                "A static route needs a prefix and a next-hop address, e.g. '10.99.0.0/16 via 10.0.1.1'.",
                Vec::new(),
            ),
        };
    }
    let (ifs, unknown_ifs) = interfaces_on(&toks, &device, facts);
    if let Some(u) = unknown_ifs.first() {
        let names: Vec<String> = facts
            .interfaces
            .get(&device)
            .map(|v| v.iter().map(|i| i.name.clone()).collect())
            .unwrap_or_default();
        return clarify(
            format!("{device} has no interface '{u}'. Its interfaces:"),
            names,
        );
    }
    if let Some(interface) = ifs.first().cloned() {
        let mut changes = Vec::new();
        if lower.contains("no shutdown")
            || has_word(&toks, &lower, &["enable", "unshut"])
            || lower.contains("bring up")
        {
            changes.push(IfChange::NoShutdown);
        } else if lower.contains("shutdown")
            || lower.contains("shut down")
            || has_word(&toks, &lower, &["shut", "disable"])
        {
            changes.push(IfChange::Shutdown);
        }
        if let Some(m) = number_after(&toks, "mtu") {
            if !(576..=65_535).contains(&m) {
                return clarify(
                    format!("MTU {m} is not a plausible MTU (576–65535)."),
                    Vec::new(),
                );
            }
            changes.push(IfChange::Mtu(m));
        }
        if lower.contains("description") {
            match quoted(request) {
                Some(d) => changes.push(IfChange::Description(d)),
                None => {
                    return clarify(
                        "What should the description say? Put it in quotes: description \"to alpha-dist-2\".",
                        Vec::new(),
                    )
                }
            }
        }
        if let Some(a) = toks
            .iter()
            .filter(|t| t.contains('/'))
            .find_map(|t| t.parse::<IpNet>().ok())
            .filter(|_| lower.contains("address") || lower.contains(" ip "))
        {
            changes.push(IfChange::Address(a));
        }
        if changes.is_empty() {
            return clarify(
                format!("What should change on {device} {interface}? I can change its description, address, shutdown / no shutdown and MTU."),
                Vec::new(),
            );
        }
        return Resolution::Intent(Intent::ModifyInterface {
            device,
            interface,
            changes,
        });
    }
    clarify(
        format!(
            "I cannot plan that for {device}. I can plan: {}.",
            CAN_PLAN.join("; ")
        ),
        Vec::new(),
    )
}

fn resolve_decommission(
    toks: &[String],
    lower: &str,
    devs: &[String],
    peers: &[Peer],
    facts: &Facts,
) -> Resolution {
    let wants_link = has_word(toks, lower, &["link", "链路", "cable"]);
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
        let candidates: Vec<&super::facts::LinkEnds> = facts
            .links
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
                0 => Resolution::Intent(Intent::DecommissionDevice { device }),
                1 => Resolution::Intent(Intent::DecommissionInterface {
                    device,
                    interface: ifs[0].clone(),
                }),
                _ => clarify("Which interface?", ifs),
            }
        }
        _ => clarify("The request names more than one device. Which one is to go?", devs.to_vec()),
    }
}
