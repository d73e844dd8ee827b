//! Request → intent, deterministically, resolved against the state DB. When the request
//! is ambiguous or names something unknown, the answer is a question with candidates,
//! never a guess.

use super::facts::Facts;
use crate::ifname;
use crate::language::stem;
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

/// A provider the network has no session to yet, as the request describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPeer {
    /// Name as the request gives it.
    pub name: String,
    /// Its AS.
    pub asn: u32,
    /// The link subnet the provider assigned (host bits set: our address).
    pub link: IpNet,
    /// The interface to use, when the request names one.
    pub interface: Option<String>,
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
    /// Remove the description.
    NoDescription,
}

impl std::fmt::Display for IfChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IfChange::Description(d) => write!(f, "description → \"{d}\""),
            IfChange::Address(a) => write!(f, "address → {a}"),
            IfChange::Shutdown => f.write_str("shutdown"),
            IfChange::NoShutdown => f.write_str("no shutdown"),
            IfChange::Mtu(m) => write!(f, "MTU → {m}"),
            IfChange::NoDescription => f.write_str("remove the description"),
        }
    }
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
        /// The link subnet, when the request gives it (else olav allocates one).
        link: Option<IpNet>,
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
    /// Add an eBGP peering to a provider the network has no session to yet.
    AddPeering {
        /// Device.
        device: String,
        /// The provider.
        peer: NewPeer,
    },
    /// Remove one BGP session (by neighbor address) from a device.
    RemoveSession {
        /// Device.
        device: String,
        /// Neighbor address.
        peer: String,
        /// The neighbor's AS.
        peer_asn: Option<u32>,
        /// The device at the far end, when it is in the network.
        peer_device: Option<String>,
    },
    /// Remove a static route.
    RemoveStaticRoute {
        /// Device.
        device: String,
        /// Destination.
        prefix: IpNet,
        /// Next hop (None: every route to the prefix on the device — there is exactly one).
        next_hop: Option<IpAddr>,
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
    /// Decommission one or several devices.
    DecommissionDevice {
        /// Devices, in the order named.
        devices: Vec<String>,
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
    /// A request olav understands but cannot plan: never a different plan instead.
    Refuse {
        /// What was asked, in words (`BGP local-preference`).
        what: String,
    },
}

impl Intent {
    /// Whether the intent removes something (the decommission-impact family).
    pub fn is_removal(&self) -> bool {
        matches!(
            self,
            Intent::DecommissionDevice { .. }
                | Intent::DecommissionInterface { .. }
                | Intent::DecommissionLink { .. }
                | Intent::DecommissionPeer { .. }
                | Intent::RemoveSession { .. }
                | Intent::RemoveStaticRoute { .. }
        )
    }

    /// The reading of the request in one line, shown before anything else.
    pub fn reading(&self) -> String {
        let body = match self {
            Intent::AddUplink {
                device,
                peer,
                redundant,
                link,
            } => format!(
                "add {}eBGP uplink from {device} to {} (AS{}){}",
                if *redundant { "a redundant " } else { "an " },
                peer.name,
                peer.asn,
                link.map(|l| format!(" on link {l}")).unwrap_or_default()
            ),
            Intent::AddPeering { device, peer } => format!(
                "add an eBGP peering from {device} to the new provider {} (AS{}) on link {}{}",
                peer.name,
                peer.asn,
                peer.link,
                peer.interface
                    .as_ref()
                    .map(|i| format!(" via {i}"))
                    .unwrap_or_default()
            ),
            Intent::ModifyInterface {
                device,
                interface,
                changes,
            } => format!(
                "change {device} {interface}: {}",
                changes
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Intent::AddStaticRoute {
                device,
                prefix,
                next_hop,
            } => format!("add the static route {prefix} via {next_hop} on {device}"),
            Intent::RemoveStaticRoute {
                device,
                prefix,
                next_hop,
            } => format!(
                "remove the static route {prefix}{} on {device}",
                next_hop.map(|n| format!(" via {n}")).unwrap_or_default()
            ),
            Intent::RemoveSession {
                device,
                peer,
                peer_asn,
                peer_device,
            } => {
                let asn = peer_asn
                    .map(|a| format!("AS{a}"))
                    .unwrap_or("AS unknown".into());
                let far = match peer_device {
                    Some(d) => format!(", to {d}; both ends"),
                    None => ", external".to_owned(),
                };
                format!("remove the BGP session {device} → {peer} ({asn}{far})")
            }
            Intent::DecommissionDevice { devices } => {
                format!("decommission {}", devices.join(" and "))
            }
            Intent::DecommissionInterface { device, interface } => {
                format!("decommission {device} {interface}")
            }
            Intent::DecommissionLink { a, b } => {
                format!("decommission the link {}:{} – {}:{}", a.0, a.1, b.0, b.1)
            }
            Intent::DecommissionPeer { device, peer } => format!(
                "remove every BGP session from {device} to {} (AS{})",
                peer.name, peer.asn
            ),
        };
        format!("Understood: {body}")
    }
}

/// The request with `<address> <dotted netmask>` written as `<address>/<length>`
/// ("10.10.99.1 255.255.255.0" → "10.10.99.1/24").
fn with_prefix_lengths(request: &str) -> String {
    let words: Vec<&str> = request.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let pair = words.get(i + 1).and_then(|m| {
            let addr = words[i].parse::<std::net::Ipv4Addr>().ok()?;
            let mask = m.parse::<std::net::Ipv4Addr>().ok()?;
            let net = ipnet::Ipv4Net::with_netmask(addr, mask).ok()?;
            Some(format!("{addr}/{}", net.prefix_len()))
        });
        match pair {
            Some(p) => {
                out.push(p);
                i += 2;
            }
            None => {
                out.push(words[i].to_owned());
                i += 1;
            }
        }
    }
    out.join(" ")
}

/// Whether a request negates what it names ("don't", "do not", "never", "without").
fn negated(toks: &[String], lower: &str) -> bool {
    lower.contains("n't")
        || lower.contains("n’t")
        || ["不要", "不用", "别", "请勿", "禁止"]
            .iter()
            .any(|w| lower.contains(w))
        || toks.iter().any(|t| {
            matches!(
                t.to_ascii_lowercase().as_str(),
                "not" | "never" | "dont" | "without" | "nor"
            )
        })
}

fn clarify(question: impl Into<String>, candidates: Vec<String>) -> Resolution {
    Resolution::Clarify {
        question: question.into(),
        candidates,
    }
}

/// What the analyzer can plan, for requests it cannot.
pub const CAN_PLAN: &[&str] = &[
    "add a (redundant) eBGP uplink to an existing provider, or a peering to a new provider (name and AS)",
    "remove one BGP session (by neighbor address, provider name or AS) from a device",
    "change an interface: shutdown / no shutdown, description, MTU, IP address",
    "add or remove a static route: <prefix> via <next hop> on a device",
    "decommission one or several devices, an interface, a link or a provider's sessions; \"what if X fails\"",
];

/// Topics olav recognises but cannot plan yet: (words that name it, how to say it).
const UNSUPPORTED: &[(&[&str], &str)] = &[
    (
        &[
            "ntp", "snmp", "syslog", "logging", "aaa", "tacacs", "radius", "username",
        ],
        "management-plane settings",
    ),
    (
        &[
            "local-preference",
            "local-pref",
            "localpref",
            "local_preference",
        ],
        "BGP local-preference",
    ),
    (&["med", "multi-exit"], "BGP MED"),
    (
        &["weight", "prepend", "as-path", "community", "communities"],
        "BGP path attributes (weight, AS-path, communities)",
    ),
    (
        &["route-map", "prefix-list", "distribute-list"],
        "routing policy (route-maps, prefix-lists)",
    ),
    (
        &["password", "md5", "authentication"],
        "BGP or routing-protocol authentication",
    ),
    (&["bfd"], "BFD"),
    (&["timers", "keepalive", "holdtime"], "BGP timers"),
    (
        &["acl", "acls", "access-list", "access-group", "firewall"],
        "ACLs and firewall rules",
    ),
    (
        &["vlan", "vlans", "trunk", "switchport"],
        "VLANs and switchport settings",
    ),
    (
        &["ospf", "isis", "eigrp", "cost"],
        "IGP settings (OSPF, IS-IS, EIGRP)",
    ),
    (
        &["qos", "policy-map", "service-policy", "shaping", "policing"],
        "QoS",
    ),
    (&["nat"], "NAT"),
    (
        &["hsrp", "vrrp", "standby", "glbp"],
        "first-hop redundancy (HSRP, VRRP)",
    ),
    (&["spanning-tree", "stp"], "spanning tree"),
    (&["speed", "duplex"], "interface speed and duplex"),
    (&["vrf", "vrfs"], "VRFs"),
    (
        &["lacp", "channel-group", "port-channel", "lag"],
        "port-channels",
    ),
    (
        &["upgrade", "reload", "reboot", "firmware", "image"],
        "software upgrades and reloads",
    ),
    (&["ipv6"], "IPv6 changes"),
    (&["multicast", "pim", "igmp"], "multicast"),
    (&["mpls", "ldp", "segment-routing"], "MPLS"),
];

const DECOM_WORDS: &[&str] = &[
    "decommission",
    "remove",
    "retire",
    "delete",
    "tear",
    "unconfigure",
    "drop",
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
    "provider",
];
const REDUNDANT_WORDS: &[&str] = &["redundant", "second", "additional", "another", "backup"];

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

fn interface_like(t: &str) -> bool {
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

/// The AS number token `i` gives: "AS7575", or "AS"/"ASN" followed by the number.
fn asn_at(toks: &[String], i: usize) -> Option<u32> {
    let lt = toks.get(i)?.to_ascii_lowercase();
    let digits = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit());
    match lt.strip_prefix("as").filter(|r| digits(r)) {
        Some(n) => n.parse().ok(),
        None if lt == "as" || lt == "asn" => toks
            .get(i + 1)
            .filter(|n| digits(n))
            .and_then(|n| n.parse().ok()),
        None => None,
    }
}

/// External peers named by name (a word of a session description), AS or address.
fn peers(toks: &[String], facts: &Facts) -> Vec<Peer> {
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

/// The topic of an unsupported ask, when the request names one.
fn unsupported(toks: &[String], lower: &str) -> Option<&'static str> {
    if lower.contains("local preference") || lower.contains("local pref") {
        return Some("BGP local-preference");
    }
    if lower.contains("access list") || lower.contains("spanning tree") {
        return Some(if lower.contains("access") {
            "ACLs and firewall rules"
        } else {
            "spanning tree"
        });
    }
    UNSUPPORTED.iter().find_map(|(words, what)| {
        toks.iter()
            .any(|t| words.iter().any(|w| t.eq_ignore_ascii_case(w)))
            .then_some(*what)
    })
}

/// Reads a request.
pub fn resolve(request: &str, facts: &Facts) -> Resolution {
    let bare = with_prefix_lengths(&crate::language::normalise(&without_quotes(request)));
    let toks = tokens(&bare);
    let lower = bare.to_lowercase();
    // "don't remove …", "do not shut …": the words name a change the request forbids.
    // Planning them would do the opposite of what was asked.
    if negated(&toks, &lower) {
        return clarify(
            format!("The request says what not to do. olav plans one change at a time: say only what to change. I can plan: {}.", CAN_PLAN.join("; ")),
            Vec::new(),
        );
    }
    if let Some(what) = unsupported(&toks, &lower) {
        return Resolution::Refuse {
            what: what.to_owned(),
        };
    }
    let devs = match devices(&toks, facts) {
        Ok(d) => d,
        Err(r) => return r,
    };
    let removal = has_word(&toks, &lower, DECOM_WORDS) || has_word(&toks, &lower, &["clear"]);
    // Something smaller than a device, named: its own intent, never a device-level one.
    if let Some(r) = resolve_session_by_address(&toks, &lower, &devs, removal, facts) {
        return r;
    }
    if let Some(r) = resolve_interface_change(request, &toks, &lower, &devs, removal, facts) {
        return r;
    }
    if let Some(r) = resolve_static_route(&toks, &lower, &devs, removal, facts) {
        return r;
    }
    let peers = peers(&toks, facts);
    if removal {
        return resolve_decommission(&toks, &lower, &devs, &peers, facts);
    }
    let uplinkish = has_word(&toks, &lower, UPLINK_WORDS);
    if uplinkish || !peers.is_empty() {
        return resolve_uplink(&toks, &lower, &devs, &peers, facts);
    }
    match devs.first() {
        None => clarify(
            format!("What should change? I can plan: {}.", CAN_PLAN.join("; ")),
            Vec::new(),
        ),
        Some(device) => Resolution::Refuse {
            what: format!("this change on {device}"),
        },
    }
}

/// Interface changes: shutdown / no shutdown, description, MTU, address. `None` when the
/// request names no interface attribute (it may still name an interface to decommission).
fn resolve_interface_change(
    request: &str,
    toks: &[String],
    lower: &str,
    devs: &[String],
    removal: bool,
    facts: &Facts,
) -> Option<Resolution> {
    let no_shut = lower.contains("no shutdown")
        || lower.contains("no shut")
        || has_word(toks, lower, &["enable", "unshut"])
        || lower.contains("bring up");
    let shut = !no_shut
        && (lower.contains("shutdown")
            || lower.contains("shut down")
            || has_word(toks, lower, &["shut", "disable"]));
    let mtu = has_word(toks, lower, &["mtu"]);
    let description = has_word(toks, lower, &["description", "descr", "desc"]);
    let address = (has_word(toks, lower, &["address", "ip"]))
        && (removal
            || toks
                .iter()
                .any(|t| t.contains('/') && t.parse::<IpNet>().is_ok()));
    let named_route = has_word(toks, lower, &["route"]);
    // "… address of Vlan10 on X to 10.10.99.1": an address without its prefix length.
    if has_word(toks, lower, &["address", "ip"]) && !address && !removal && !named_route {
        let bare_v4 = toks
            .iter()
            .find(|t| t.parse::<std::net::Ipv4Addr>().is_ok());
        let on_interface = devs
            .iter()
            .any(|d| !interfaces_on(toks, d, facts).0.is_empty());
        if let (Some(ip), true) = (bare_v4, on_interface) {
            return Some(clarify(
                format!("Which prefix length for {ip}? Say e.g. {ip}/24."),
                Vec::new(),
            ));
        }
    }
    if !(no_shut || shut || mtu || description || (address && !named_route)) {
        return None;
    }
    // "shutdown bgp on X", "disable the ospf process": not an interface.
    if has_word(toks, lower, &["bgp", "ospf", "isis", "process", "routing"])
        && devs
            .iter()
            .all(|d| interfaces_on(toks, d, facts).0.is_empty())
    {
        return Some(Resolution::Refuse {
            what: "shutting down or changing a routing process".to_owned(),
        });
    }
    if address && removal && !description {
        return Some(Resolution::Refuse {
            what: "removing an interface address".to_owned(),
        });
    }
    let device = match devs {
        [d] => d.clone(),
        [] => {
            return Some(clarify(
                "On which device? Name the device and the interface.",
                Vec::new(),
            ))
        }
        _ => {
            return Some(clarify(
                "The request names more than one device. Which one?",
                devs.to_vec(),
            ))
        }
    };
    let all_ifs: Vec<String> = facts
        .interfaces
        .get(&device)
        .map(|v| v.iter().map(|i| i.name.clone()).collect())
        .unwrap_or_default();
    let (ifs, unknown_ifs) = interfaces_on(toks, &device, facts);
    if let Some(u) = unknown_ifs.first() {
        return Some(clarify(
            format!("{device} has no interface '{u}'. Its interfaces:"),
            all_ifs,
        ));
    }
    let interface = match ifs.as_slice() {
        [i] => i.clone(),
        [] => return Some(clarify(format!("Which interface of {device}?"), all_ifs)),
        _ => return Some(clarify("Which interface? The request names several:", ifs)),
    };
    let mut changes = Vec::new();
    if no_shut {
        changes.push(IfChange::NoShutdown);
    } else if shut {
        changes.push(IfChange::Shutdown);
    }
    if mtu {
        match number_after(toks, "mtu") {
            Some(m) if (576..=65_535).contains(&m) => changes.push(IfChange::Mtu(m)),
            Some(m) => {
                return Some(clarify(
                    format!("MTU {m} is not a plausible MTU (576–65535)."),
                    Vec::new(),
                ))
            }
            None => {
                return Some(clarify(
                    format!("Which MTU should {device} {interface} have?"),
                    Vec::new(),
                ))
            }
        }
    }
    if description {
        match quoted(request) {
            Some(d) => changes.push(IfChange::Description(d)),
            None if removal => changes.push(IfChange::NoDescription),
            None => {
                return Some(clarify(
                    "What should the description say? Put it in quotes: description \"to alpha-dist-2\".",
                    Vec::new(),
                ))
            }
        }
    }
    if address {
        let mut named: Vec<IpNet> = Vec::new();
        for a in toks
            .iter()
            .filter(|t| t.contains('/'))
            .filter_map(|t| t.parse::<IpNet>().ok())
        {
            if !named.contains(&a) {
                named.push(a);
            }
        }
        match named.as_slice() {
            [] => {}
            // An interface needs a host address of its subnet.
            [a] if a.prefix_len() < 8 => {
                return Some(clarify(
                    format!("{a} is not an interface subnet. Which address and prefix length?"),
                    Vec::new(),
                ))
            }
            [a] if a.addr().is_ipv4()
                && a.max_prefix_len() - a.prefix_len() >= 2
                && (a.addr() == a.network() || a.addr() == a.broadcast()) =>
            {
                return Some(clarify(
                    format!("{} is the {} address of {}, not a host address. Which host address?", a.addr(), if a.addr() == a.network() { "network" } else { "broadcast" }, a.trunc()),
                    Vec::new(),
                ))
            }
            [a] => changes.push(IfChange::Address(*a)),
            // One address is planned; a second is never dropped silently.
            _ => {
                return Some(clarify(
                    format!("The request names more than one address for {device} {interface}; a plan sets one. Which one?"),
                    named.iter().map(ToString::to_string).collect(),
                ))
            }
        }
    }
    if removal
        && changes
            .iter()
            .any(|c| matches!(c, IfChange::Shutdown | IfChange::NoShutdown))
    {
        return Some(clarify(
            format!("Decommission {device} {interface}, or only shut it? Say 'decommission' or 'shutdown'."),
            vec![
                format!("decommission {device} {interface}"),
                format!("shutdown {device} {interface}"),
            ],
        ));
    }
    Some(Resolution::Intent(Intent::ModifyInterface {
        device,
        interface,
        changes,
    }))
}

/// Static routes: `<prefix> via <next hop>`, added or removed.
fn resolve_static_route(
    toks: &[String],
    lower: &str,
    devs: &[String],
    removal: bool,
    facts: &Facts,
) -> Option<Resolution> {
    let prefix = toks
        .iter()
        .find_map(|t| t.parse::<IpNet>().ok().filter(|_| t.contains('/')))
        .or_else(|| {
            (lower.contains("default route") || lower.contains("default gateway route"))
                .then(|| "0.0.0.0/0".parse().ok())
                .flatten()
        });
    if !has_word(toks, lower, &["route"]) {
        return None;
    }
    // Details olav does not draft are refused, never dropped: a "floating" route drafted
    // at distance 1 would override the routes it was meant to back up.
    if has_word(
        toks,
        lower,
        &[
            "distance",
            "floating",
            "tag",
            "track",
            "tracked",
            "name",
            "named",
            "permanent",
            "metric",
            "preference",
        ],
    ) {
        return Some(Resolution::Refuse {
            what: "a static route with an administrative distance, tag, tracking or name (olav drafts plain static routes only)".to_owned(),
        });
    }
    // A prefix with host bits set is asked about, not silently truncated.
    if let Some(p) = toks
        .iter()
        .filter(|t| t.contains('/'))
        .filter_map(|t| t.parse::<IpNet>().ok())
        .find(|p| p.trunc() != *p)
    {
        return Some(clarify(
            format!("{p} has host bits set. Did you mean {}?", p.trunc()),
            vec![p.trunc().to_string()],
        ));
    }
    // One plan is one change: a second prefix or next hop is never dropped silently.
    let mut prefixes: Vec<IpNet> = Vec::new();
    for p in toks
        .iter()
        .filter(|t| t.contains('/'))
        .filter_map(|t| t.parse::<IpNet>().ok())
    {
        if !prefixes.contains(&p.trunc()) {
            prefixes.push(p.trunc());
        }
    }
    if prefixes.len() > 1 {
        return Some(clarify(
            "The request names more than one route; a plan is one change. Which one?",
            prefixes.iter().map(ToString::to_string).collect(),
        ));
    }
    let mut hops: Vec<IpAddr> = Vec::new();
    for h in toks
        .iter()
        .filter(|t| !t.contains('/'))
        .filter_map(|t| t.parse::<IpAddr>().ok())
    {
        if !hops.contains(&h) {
            hops.push(h);
        }
    }
    if hops.len() > 1 {
        return Some(clarify(
            "The request names more than one next hop; a plan is one change. Which one?",
            hops.iter().map(ToString::to_string).collect(),
        ));
    }
    let device = match devs {
        [d] => d.clone(),
        [] => return Some(clarify("On which device is the static route?", Vec::new())),
        _ => {
            return Some(clarify(
                "The request names more than one device. On which one?",
                devs.to_vec(),
            ))
        }
    };
    let on_device: Vec<&super::facts::Route> = facts
        .routes
        .iter()
        .filter(|r| r.hostname == device)
        .collect();
    let next_hop = toks
        .iter()
        .filter(|t| !t.contains('/'))
        .find_map(|t| t.parse::<IpAddr>().ok());
    let show = |r: &super::facts::Route| {
        format!(
            "{}{}",
            r.prefix,
            r.next_hop
                .map(|n| format!(" via {n}"))
                .or(r.next_hop_interface.as_ref().map(|i| format!(" via {i}")))
                .unwrap_or_default()
        )
    };
    let Some(prefix) = prefix.map(|p| p.trunc()) else {
        return Some(if removal {
            clarify(
                format!("Which static route of {device}?"),
                on_device.iter().map(|r| show(r)).collect(),
            )
        } else {
            clarify(
                "A static route needs a prefix and a next-hop address, e.g. '10.99.0.0/16 via 10.0.1.1'.",
                Vec::new(),
            )
        });
    };
    let same: Vec<&&super::facts::Route> = on_device
        .iter()
        .filter(|r| r.prefix == prefix && next_hop.is_none_or(|n| r.next_hop == Some(n)))
        .collect();
    if removal {
        return Some(match same.as_slice() {
            [r] => Resolution::Intent(Intent::RemoveStaticRoute {
                device,
                prefix,
                next_hop: r.next_hop,
            }),
            [] => clarify(
                format!(
                    "{device} has no static route to {prefix}{}. Its static routes:",
                    next_hop.map(|n| format!(" via {n}")).unwrap_or_default()
                ),
                on_device.iter().map(|r| show(r)).collect(),
            ),
            _ => clarify(
                format!("{device} has several static routes to {prefix}. Which next hop?"),
                same.iter().map(|r| show(r)).collect(),
            ),
        });
    }
    let Some(next_hop) = next_hop else {
        return Some(clarify(
            "A static route needs a prefix and a next-hop address, e.g. '10.99.0.0/16 via 10.0.1.1'.",
            Vec::new(),
        ));
    };
    if same.iter().any(|r| r.next_hop == Some(next_hop)) {
        return Some(Resolution::Refuse {
            what: format!(
                "adding the static route {prefix} via {next_hop} on {device}: it is already configured (nothing to add, nothing to roll back)"
            ),
        });
    }
    Some(Resolution::Intent(Intent::AddStaticRoute {
        device,
        prefix,
        next_hop,
    }))
}

/// One BGP session named by its neighbor address.
fn resolve_session_by_address(
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
    let sessions: Vec<&super::facts::Bgp> = facts
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
        if matches!(prev.as_deref(), Some("to" | "with" | "provider")) {
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

fn resolve_uplink(
    toks: &[String],
    lower: &str,
    devs: &[String],
    peers: &[Peer],
    facts: &Facts,
) -> Resolution {
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
        let free = super::facts::free_interface(facts, &device).map(|i| i.name.clone());
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

fn sessions_to(facts: &Facts, asn: u32) -> Vec<(String, String)> {
    facts
        .external_sessions()
        .filter(|s| s.peer_asn == Some(asn))
        .map(|s| (s.hostname.clone(), s.peer.clone()))
        .collect()
}

/// "remove the BGP session between A and B": the session(s) from A to an address of B.
fn resolve_sessions_between(devs: &[String], facts: &Facts) -> Resolution {
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
    let between: Vec<&super::facts::Bgp> = facts
        .sessions
        .iter()
        .filter(|s| {
            (s.hostname == *a && owns(b, &s.peer)) || (s.hostname == *b && owns(a, &s.peer))
        })
        .collect();
    // Each session appears once per end: keep the first-named device's view.
    let from_a: Vec<&super::facts::Bgp> = between
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

fn resolve_decommission(
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
        let candidates: Vec<&super::facts::LinkEnds> = links
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
