//! Request → intent, deterministically, resolved against the state DB. When the request
//! is ambiguous or names something unknown, the answer is a question with candidates,
//! never a guess.

mod decommission;
mod description;
mod interface;
mod mentions;
mod reading;
mod sessions;
mod static_route;
mod uplink;

use super::facts::Facts;
use decommission::resolve_decommission;
use interface::resolve_interface_change;
use ipnet::IpNet;
use mentions::{devices, has_word, peers, tokens, without_quotes};
use sessions::resolve_session_by_address;
use static_route::resolve_static_route;
use std::net::IpAddr;
use uplink::resolve_uplink;

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

pub use crate::dialect::IfChange;

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
    /// Add a static route to discard (Null0, Junos `discard`).
    AddDiscardRoute {
        /// Device.
        device: String,
        /// Destination.
        prefix: IpNet,
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
    /// Decommission several interfaces at once ("what if both fail").
    DecommissionInterfaces {
        /// (device, interface as configured), in the order named.
        interfaces: Vec<(String, String)>,
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

/// One answer a question offers: what it shows, and when it is a reading of the
/// request, the exact request that plans it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Candidate {
    /// What the question lists (a device, an interface, a route, or the request itself).
    pub text: String,
    /// The exact request to run for this reading.
    pub request: Option<String>,
    /// The intent that request is read as (`decommission_device`, …).
    pub intent: Option<String>,
    /// That reading in one line (`decommission beta-acc-2`).
    pub reading: Option<String>,
}

impl Candidate {
    /// A candidate that is only shown.
    pub fn text(text: impl Into<String>) -> Self {
        Candidate {
            text: text.into(),
            request: None,
            intent: None,
            reading: None,
        }
    }

    /// A candidate shown as `text` whose reading is planned by `request`.
    pub fn run(text: impl Into<String>, request: impl Into<String>) -> Self {
        Candidate {
            request: Some(request.into()),
            ..Candidate::text(text)
        }
    }

    /// The candidate in one line: `text`, then ` ⇒ "<request>" (<intent>: <reading>)`.
    pub fn line(&self) -> String {
        match (&self.request, &self.intent, &self.reading) {
            (Some(r), Some(i), Some(d)) => format!("{} ⇒ \"{r}\" ({i}: {d})", self.text),
            (Some(r), _, _) => format!("{} ⇒ \"{r}\"", self.text),
            _ => self.text.clone(),
        }
    }

    /// Reads a line [`Candidate::line`] wrote (a contract `CANDIDATE:` value).
    pub fn parse(line: &str) -> Candidate {
        let Some((text, rest)) = line.split_once(" ⇒ \"") else {
            return Candidate::text(line);
        };
        let Some((request, tail)) = rest.split_once('"') else {
            return Candidate::text(line);
        };
        let meaning = tail
            .trim()
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .and_then(|t| t.split_once(": "));
        Candidate {
            text: text.to_owned(),
            request: Some(request.to_owned()),
            intent: meaning.map(|m| m.0.to_owned()),
            reading: meaning.map(|m| m.1.to_owned()),
        }
    }
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
        candidates: Vec<Candidate>,
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
                | Intent::DecommissionInterfaces { .. }
                | Intent::DecommissionLink { .. }
                | Intent::DecommissionPeer { .. }
                | Intent::RemoveSession { .. }
                | Intent::RemoveStaticRoute { .. }
        )
    }

    /// The plan's intent name (`add_uplink`, `decommission_device`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Intent::AddUplink { .. } => "add_uplink",
            Intent::AddPeering { .. } => "add_peering",
            Intent::ModifyInterface { .. } => "modify_interface",
            Intent::RemoveSession { .. } => "remove_session",
            Intent::RemoveStaticRoute { .. } => "remove_static_route",
            Intent::AddStaticRoute { .. } | Intent::AddDiscardRoute { .. } => "add_static_route",
            Intent::DecommissionDevice { .. } => "decommission_device",
            Intent::DecommissionInterface { .. } | Intent::DecommissionInterfaces { .. } => {
                "decommission_interface"
            }
            Intent::DecommissionLink { .. } => "decommission_link",
            Intent::DecommissionPeer { .. } => "decommission_peer",
        }
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
            Intent::AddDiscardRoute { device, prefix } => {
                format!("add the static route {prefix} to discard (Null0) on {device}")
            }
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
            Intent::DecommissionInterfaces { interfaces } => format!(
                "decommission {} together",
                interfaces
                    .iter()
                    .map(|(d, i)| format!("{d} {i}"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
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
        candidates: candidates.into_iter().map(Candidate::text).collect(),
    }
}

/// A question whose candidates are readings, each with its request.
fn offer(question: impl Into<String>, candidates: Vec<Candidate>) -> Resolution {
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
    "add or remove a static route: <prefix> via <next hop> (or Null0 / discard) on a device",
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

/// A device's configuration, named as the thing a request reads or copies.
const CONFIG_WORDS: &[&str] = &[
    "config",
    "configs",
    "configuration",
    "configurations",
    "running-config",
    "startup-config",
];

/// Verbs that read, copy or keep a configuration rather than change one.
const KEEP_VERBS: &[&str] = &[
    "back", "backup", "save", "copy", "pull", "fetch", "download", "archive", "export", "show",
    "display", "get", "grab",
];

/// The topic of an unsupported ask, when the request names one.
fn unsupported(toks: &[String], lower: &str) -> Option<&'static str> {
    // "back up the config of X" is no change to X ("up" once read as `no shutdown`).
    if has_word(toks, lower, CONFIG_WORDS) && has_word(toks, lower, KEEP_VERBS) {
        return Some("backing up, fetching or showing a configuration (olav drafts changes; `olav state show files` lists the configurations it imported)");
    }
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

/// Reads a request: the readings a question offers say what each of them plans.
pub fn resolve(request: &str, facts: &Facts) -> Resolution {
    match resolve_at(request, facts, true) {
        Resolution::Clarify {
            question,
            candidates,
        } => Resolution::Clarify {
            question,
            candidates: candidates
                .into_iter()
                .map(|mut c| {
                    match c.request.as_deref().map(|r| resolve_at(r, facts, false)) {
                        Some(Resolution::Intent(i)) => {
                            c.intent = Some(i.name().to_owned());
                            c.reading =
                                Some(i.reading().trim_start_matches("Understood: ").to_owned());
                        }
                        // A request that would only ask again is no reading to offer.
                        _ => c.request = None,
                    }
                    c
                })
                .collect(),
        },
        r => r,
    }
}

/// Reads a request; `whole` when it is the request as asked (not one part of it, nor a
/// candidate being checked).
fn resolve_at(request: &str, facts: &Facts, whole: bool) -> Resolution {
    let (request, description) = match description::unquoted(request) {
        Some((text, without)) => (without, Some(text)),
        None => (request.to_owned(), None),
    };
    let request = request.as_str();
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
    if whole && description.is_none() {
        if let Some(r) = reading::several_changes(&bare, facts) {
            return r;
        }
    }
    let devs = match devices(&toks, facts) {
        Ok(d) => d,
        Err(r) => return r,
    };
    if devs.is_empty() {
        if let Some(r) = reading::vague_reference(&toks, facts) {
            return r;
        }
    }
    let peers = peers(&toks, facts);
    let verb = reading::has_verb(&toks, &lower) || description.is_some();
    if !verb {
        if let Some(r) = reading::verbless(&toks, &lower, &devs, &peers, facts) {
            return r;
        }
    }
    let removal = has_word(&toks, &lower, DECOM_WORDS) || has_word(&toks, &lower, &["clear"]);
    // Something smaller than a device, named: its own intent, never a device-level one.
    if let Some(r) = resolve_session_by_address(&toks, &lower, &devs, removal, facts) {
        return r;
    }
    let said = interface::Said {
        request,
        description: description.as_deref(),
    };
    if let Some(r) = resolve_interface_change(&said, &toks, &lower, &devs, removal, facts) {
        return r;
    }
    if let Some(r) = resolve_static_route(&toks, &lower, &devs, removal, verb, facts) {
        return r;
    }
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

#[cfg(test)]
mod tests {
    use super::Candidate;

    #[test]
    fn a_candidate_line_reads_back() {
        let c = Candidate {
            text: "alpha-br-3560".into(),
            request: Some("decommission alpha-br-3560".into()),
            intent: Some("decommission_device".into()),
            reading: Some("decommission alpha-br-3560".into()),
        };
        assert_eq!(Candidate::parse(&c.line()), c);
        let plain = Candidate::text("Ethernet10");
        assert_eq!(Candidate::parse(&plain.line()), plain);
        let bare = Candidate::run("x", "shutdown alpha-core-1 Et10");
        assert_eq!(Candidate::parse(&bare.line()), bare);
    }
}
