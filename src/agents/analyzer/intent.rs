//! Request → intent, deterministically, resolved against the state DB. When the request
//! is ambiguous or names something unknown, the answer is a question with candidates,
//! never a guess.

mod decommission;
mod interface;
mod mentions;
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
