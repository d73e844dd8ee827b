//! PAN-OS BGP, per virtual router: the process (`enable`, `router-id`, `local-as`,
//! `install-route`, `reject-default-route`), peer groups and their peers, import and
//! export rules, redistribution rules and profiles.
//!
//! Read as PAN-OS (and Batfish's conversion) take them:
//! - BGP, a peer group and a peer take part unless `enable no` (PAN-OS' default is on:
//!   in `panos_ebgp_loop_prevention` a group without an `enable` line peers; Batfish
//!   takes them as off), a group without `type` is eBGP;
//! - a peer's import rules are the enabled rules `used-by` its group, in order, the first
//!   matching one deciding (`allow` with its updates, or `deny`); when the group has
//!   rules and none matches, the route is refused; with none, everything is taken. The
//!   same for export, after the common export condition (a BGP route or a redistributed
//!   one). Each direction and group becomes one policy statement (named
//!   `~import:VR:GROUP~`, `~export:VR:GROUP~`) whose terms are the rules and a last term
//!   with that default; `reject-default-route` (on unless `no`) is a first import term
//!   refusing 0.0.0.0/0;
//! - a `redist-rules` entry named by a prefix announces that prefix when the routing table
//!   holds it (a `network` statement); one named by a `redist-profile` redistributes the
//!   profile's route types (connected, static), limited to its destinations;
//! - what changes routes and is not computed (a condition or update olav does not
//!   evaluate, confederations, aggregation, conditional advertisement) is kept so the
//!   routing model marks the routes incomplete.

use super::{values, vrf};
use crate::import::parse::common::{define, parse_asn, parse_prefix};
use crate::model::{
    BgpNeighbor, BgpNetwork, BgpPeer, BgpProcess, CommunityListEntry, DeviceConfig, PolicyAction,
    PolicyMatch, PolicyStatement, PolicyTerm, PrefixListEntry, RouteMapClause, RouteMapMatch,
    StructureKind,
};
use ipnet::IpNet;
use std::collections::BTreeMap;
use std::net::IpAddr;

/// The administrative distances of a virtual router unless `admin-dists` says otherwise
/// (PAN-OS' documented defaults: eBGP 20, iBGP 200).
const DEFAULT_EBGP: u32 = 20;
const DEFAULT_IBGP: u32 = 200;

#[derive(Default)]
struct Peer {
    line: u32,
    disabled: bool,
    peer_as: Option<String>,
    local_ip: Option<String>,
    local_interface: Option<String>,
    peer_ip: Option<String>,
    multihop: Option<u32>,
    sender_loop_detection: Option<bool>,
    reflector_client: bool,
    ipv6: bool,
}

#[derive(Default)]
struct Group {
    disabled: bool,
    kind: Option<String>,
    remove_private: bool,
    next_hop_self: bool,
    other: Vec<String>,
    peers: Vec<(String, Peer)>,
}

#[derive(Default)]
struct Rule {
    enable: Option<bool>,
    allow: Option<bool>,
    updates: Vec<PolicyAction>,
    prepend: Option<u32>,
    /// `match address-prefix P exact yes|no`: (prefix, exact).
    prefixes: Vec<(String, bool)>,
    from_peer: Vec<String>,
    /// `match as-path regex R`, `match community regex R`.
    as_path: Vec<String>,
    community: Vec<String>,
    /// Conditions and updates olav does not evaluate, as written.
    other: Vec<String>,
    other_updates: Vec<String>,
    /// `update as-path remove`.
    remove_as: bool,
    /// `update community append|overwrite [ … ]`, `remove-all`: (operation, values).
    community_updates: Vec<(String, Vec<String>)>,
    used_by: Vec<String>,
}

#[derive(Default)]
struct Redist {
    line: u32,
    enable: Option<bool>,
    ipv6: bool,
    other: Vec<String>,
}

#[derive(Default)]
struct Profile {
    types: Vec<String>,
    destinations: Vec<String>,
    redist: Option<bool>,
    other: Vec<String>,
}

#[derive(Default)]
struct Vr {
    line: u32,
    /// A `protocol bgp` line was seen (other lines create the entry too).
    configured: bool,
    disabled: bool,
    router_id: Option<String>,
    local_as: Option<String>,
    install_route: bool,
    reject_default: Option<bool>,
    allow_default_redist: bool,
    groups: Vec<(String, Group)>,
    import: Vec<(String, Rule)>,
    export: Vec<(String, Rule)>,
    redist: Vec<(String, Redist)>,
    profiles: BTreeMap<String, Profile>,
    ebgp: Option<u32>,
    ibgp: Option<u32>,
    unmodelled: Vec<String>,
}

/// Every virtual router's BGP lines, collected until the whole file is read.
#[derive(Default)]
pub(super) struct Reader {
    vrs: BTreeMap<String, Vr>,
}

fn entry<'a, T: Default>(v: &'a mut Vec<(String, T)>, name: &str) -> &'a mut T {
    let i = match v.iter().position(|(n, _)| n == name) {
        Some(i) => i,
        None => {
            v.push((name.to_owned(), T::default()));
            v.len() - 1
        }
    };
    &mut v[i].1
}

fn yes(w: Option<&&str>) -> bool {
    w.is_some_and(|w| *w == "yes")
}

impl Reader {
    fn vr(&mut self, vr: &str, line: u32) -> &mut Vr {
        self.vrs.entry(vr.to_owned()).or_insert_with(|| Vr {
            line,
            ..Default::default()
        })
    }

    /// `admin-dists ebgp|ibgp N`.
    pub(super) fn distance(&mut self, vr: &str, kind: &str, n: u32) {
        let v = self.vr(vr, 0);
        match kind {
            "ebgp" => v.ebgp = Some(n),
            "ibgp" => v.ibgp = Some(n),
            _ => {}
        }
    }

    /// A statement of the virtual router that changes routes and is not computed.
    pub(super) fn unmodelled(&mut self, vr: &str, what: &str) {
        let v = self.vr(vr, 0);
        if !v.unmodelled.iter().any(|u| u == what) {
            v.unmodelled.push(what.to_owned());
        }
    }

    /// `redist-profile NAME …` (the words after the name).
    pub(super) fn redist_profile(
        &mut self,
        vr: &str,
        name: &str,
        rest: &[String],
        line: u32,
        dev: &mut DeviceConfig,
    ) {
        define(dev, StructureKind::RouteMap, name, line);
        let p = self
            .vr(vr, line)
            .profiles
            .entry(name.to_owned())
            .or_default();
        let w: Vec<&str> = rest.iter().map(String::as_str).collect();
        match w.as_slice() {
            ["filter", "type", ..] => p.types.extend(values(&rest[2..])),
            ["filter", "destination", ..] => p.destinations.extend(values(&rest[2..])),
            ["filter", what, ..] => p.other.push(format!("filter {what}")),
            ["action", a, ..] => p.redist = Some(*a == "redist"),
            _ => {}
        }
    }

    /// One `protocol bgp …` line (the words after `bgp`).
    pub(super) fn line(&mut self, vr: &str, all: &[String], line: u32, dev: &mut DeviceConfig) {
        let v = self.vr(vr, line);
        if v.line == 0 {
            v.line = line;
        }
        v.configured = true;
        let w: Vec<&str> = all.iter().map(String::as_str).collect();
        match w.as_slice() {
            ["enable", e, ..] => v.disabled = *e == "no",
            ["router-id", id, ..] => v.router_id = Some((*id).to_owned()),
            ["local-as", a, ..] => v.local_as = Some((*a).to_owned()),
            ["install-route", e, ..] => v.install_route = *e == "yes",
            ["reject-default-route", e, ..] => v.reject_default = Some(*e == "yes"),
            ["allow-redist-default-route", e, ..] => v.allow_default_redist = *e == "yes",
            ["routing-options", "default-local-preference", n, ..] if *n != "100" => {
                v.unmodelled.push(format!("default-local-preference {n}"));
            }
            ["routing-options", "always-compare-med", e, ..] if *e == "yes" => {
                v.unmodelled.push("always-compare-med".into());
            }
            ["routing-options", "confederation-member-as", ..] => {
                v.unmodelled.push("confederation".into());
            }
            ["policy", "aggregation", ..] => v.unmodelled.push("aggregation".into()),
            ["policy", "conditional-advertisement", ..] => {
                v.unmodelled.push("conditional-advertisement".into())
            }
            ["peer-group", g, rest @ ..] => {
                if !v.groups.iter().any(|(n, _)| n == g) {
                    define(dev, StructureKind::PeerGroup, g, line);
                }
                group_line(entry(&mut v.groups, g), rest, line);
            }
            ["policy", dir @ ("import" | "export"), "rules", name, rest @ ..] => {
                let rules = if *dir == "import" {
                    &mut v.import
                } else {
                    &mut v.export
                };
                rule_line(entry(rules, name), rest, &all[4..]);
            }
            ["redist-rules", key, rest @ ..] => {
                let r = entry(&mut v.redist, key);
                if r.line == 0 {
                    r.line = line;
                }
                match rest {
                    ["enable", e, ..] => r.enable = Some(*e == "yes"),
                    ["address-family-identifier", a, ..] => r.ipv6 = *a == "ipv6",
                    ["set-origin", "incomplete", ..] | ["route-table", "unicast" | "both", ..] => {}
                    [what, ..] if what.starts_with("set-") || *what == "metric" => {
                        r.other.push((*what).to_owned())
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// The BGP process, its neighbors and policies, into the model.
    pub(super) fn finish(self, dev: &mut DeviceConfig, resolve: &dyn Fn(&str) -> Option<IpAddr>) {
        let mut process: Option<BgpProcess> = None;
        // The default virtual router first: its AS and router id are the process's.
        let mut vrs: Vec<(String, Vr)> = self.vrs.into_iter().collect();
        vrs.sort_by_key(|(n, _)| n != "default");
        for (name, v) in vrs {
            if v.disabled || !v.configured {
                continue;
            }
            let local_as = v.local_as.as_deref().and_then(parse_asn);
            let router_id = v
                .router_id
                .as_deref()
                .and_then(|r| r.parse::<IpAddr>().ok());
            let (Some(local_as), Some(router_id)) = (local_as, router_id) else {
                // PAN-OS refuses to enable BGP without both (Batfish disables it).
                dev.warn(
                    v.line,
                    format!(
                        "virtual-router {name}: BGP without local-as or router-id is not enabled"
                    ),
                );
                continue;
            };
            let p = process.get_or_insert_with(|| BgpProcess {
                local_as: Some(local_as),
                router_id: Some(router_id),
                line: v.line,
                ..Default::default()
            });
            read_vr(&name, v, local_as, p, dev, resolve);
        }
        dev.bgp = process;
    }
}

fn group_line(g: &mut Group, rest: &[&str], line: u32) {
    match rest {
        ["enable", e, ..] => g.disabled = *e == "no",
        ["type", kind, opts @ ..] => {
            g.kind = Some((*kind).to_owned());
            match opts {
                ["remove-private-as", e, ..] => g.remove_private = *e == "yes",
                ["export-nexthop", "use-self", ..] => g.next_hop_self = true,
                ["import-nexthop", "use-peer", ..] => {
                    g.other.push("import-nexthop use-peer".into())
                }
                _ => {}
            }
        }
        ["peer", name, attrs @ ..] => {
            let p = entry(&mut g.peers, name);
            if p.line == 0 {
                p.line = line;
            }
            match attrs {
                ["enable", e, ..] => p.disabled = *e == "no",
                ["peer-as", a, ..] => p.peer_as = Some((*a).to_owned()),
                ["local-address", "ip", a, ..] => p.local_ip = Some((*a).to_owned()),
                ["local-address", "interface", i, ..] => p.local_interface = Some((*i).to_owned()),
                ["peer-address", "ip", a, ..] => p.peer_ip = Some((*a).to_owned()),
                ["connection-options", "multihop", n, ..] => p.multihop = n.parse().ok(),
                ["enable-sender-side-loop-detection", e, ..] => {
                    p.sender_loop_detection = Some(yes(Some(e)))
                }
                ["reflector-client", c, ..] => p.reflector_client = *c != "non-client",
                ["address-family-identifier", a, ..] => p.ipv6 = *a == "ipv6",
                _ => {}
            }
        }
        _ => {}
    }
}

fn rule_line(r: &mut Rule, rest: &[&str], owned: &[String]) {
    match rest {
        ["enable", e, ..] => r.enable = Some(*e == "yes"),
        ["used-by", ..] => r.used_by.extend(values(&owned[1..])),
        ["match", "address-prefix", p, more @ ..] => {
            let exact = matches!(more, ["exact", "yes", ..]);
            match r.prefixes.iter_mut().find(|(q, _)| q == p) {
                Some(e) => e.1 = exact,
                None => r.prefixes.push(((*p).to_owned(), exact)),
            }
        }
        ["match", "from-peer", ..] => r.from_peer.extend(values(&owned[2..])),
        ["match", "route-table", "unicast" | "both", ..] => {}
        ["match", "as-path", "regex", re, ..] => r.as_path.push((*re).to_owned()),
        ["match", "community", "regex", re, ..] => r.community.push((*re).to_owned()),
        ["match", ..] => r.other.push(rest.join(" ")),
        ["action", "deny", ..] => r.allow = Some(false),
        ["action", "allow", more @ ..] => {
            r.allow = Some(true);
            match more {
                ["update", "med", n, ..] => match n.parse() {
                    Ok(n) => r.updates.push(PolicyAction::Metric(n)),
                    Err(_) => r.other_updates.push(format!("update med {n}")),
                },
                ["update", "local-preference", n, ..] => match n.parse() {
                    Ok(n) => r.updates.push(PolicyAction::LocalPreference(n)),
                    Err(_) => r.other_updates.push(format!("update local-preference {n}")),
                },
                ["update", "as-path", "prepend", n, ..] => r.prepend = n.parse().ok(),
                ["update", "as-path", "remove"] => r.remove_as = true,
                ["update", "community", "remove-all", ..] => {
                    r.community_updates.push(("set".into(), Vec::new()))
                }
                ["update", "community", op @ ("append" | "overwrite"), ..] => {
                    let op = if *op == "append" { "add" } else { "set" };
                    // `action allow update community OP` are the rule line's first five words.
                    r.community_updates.push((op.into(), values(&owned[5..])));
                }
                ["update", "origin", o @ ("igp" | "egp" | "incomplete"), ..] => {
                    r.updates.push(PolicyAction::Origin((*o).to_owned()))
                }
                ["update", "as-path", "none", ..]
                | ["update", "community", "none", ..]
                | ["update", "extended-community", "none", ..]
                | ["dampening", ..]
                | [] => {}
                ["update", ..] => r.other_updates.push(more.join(" ")),
                _ => {}
            }
        }
        _ => {}
    }
}

/// One virtual router's BGP into the process.
fn read_vr(
    name: &str,
    v: Vr,
    local_as: u32,
    p: &mut BgpProcess,
    dev: &mut DeviceConfig,
    resolve: &dyn Fn(&str) -> Option<IpAddr>,
) {
    let vrf = vrf(name);
    for u in &v.unmodelled {
        p.routing.unmodelled.push((vrf.clone(), u.clone()));
    }
    // One process serves every virtual router: a second one with an AS or a router id
    // of its own is not computed.
    if p.router_id != v.router_id.as_deref().and_then(|r| r.parse().ok()) {
        p.routing
            .unmodelled
            .push((vrf.clone(), "a router-id of its own".into()));
    }
    if p.local_as != Some(local_as) {
        p.routing
            .unmodelled
            .push((vrf.clone(), "a local-as of its own".into()));
    }
    p.routing.distances.push((
        vrf.clone(),
        v.ebgp.unwrap_or(DEFAULT_EBGP),
        v.ibgp.unwrap_or(DEFAULT_IBGP),
        v.ibgp.unwrap_or(DEFAULT_IBGP),
    ));
    if !v.install_route {
        p.routing.not_installed.push(vrf.clone());
    }
    // Peers by name, for `match from-peer`.
    let peer_ips: BTreeMap<&str, IpAddr> = v
        .groups
        .iter()
        .flat_map(|(_, g)| g.peers.iter())
        .filter_map(|(n, peer)| {
            let ip = peer.peer_ip.as_deref().and_then(resolve)?;
            Some((n.as_str(), ip))
        })
        .collect();
    for (gname, g) in v.groups.iter().filter(|(_, g)| !g.disabled) {
        let import = statement(
            dev,
            format!("~import:{name}:{gname}~"),
            &v.import,
            gname,
            v.reject_default.unwrap_or(true),
            local_as,
            &peer_ips,
        );
        let export = statement(
            dev,
            format!("~export:{name}:{gname}~"),
            &v.export,
            gname,
            false,
            local_as,
            &peer_ips,
        );
        for (pname, peer) in g.peers.iter().filter(|(_, peer)| !peer.disabled) {
            let Some(ip) = peer.peer_ip.as_deref().and_then(resolve) else {
                dev.warn(
                    peer.line,
                    format!("BGP peer {pname}: no peer-address olav understands"),
                );
                continue;
            };
            let peer_as = peer.peer_as.as_deref().and_then(parse_asn);
            let peer_asn = match g.kind.as_deref() {
                Some("ibgp") => Some(local_as),
                Some("ebgp") | None if peer_as.is_none() || peer_as == Some(local_as) => {
                    dev.warn(
                        peer.line,
                        format!("eBGP peer {pname}: peer-as missing or the local AS; not enabled"),
                    );
                    continue;
                }
                _ => peer_as,
            };
            let mut n = BgpNeighbor::new(vrf.clone(), BgpPeer::Address(ip), peer.line);
            n.peer_asn = peer_asn;
            n.peer_group = Some(gname.clone());
            n.description = Some(pname.clone());
            n.local_address = peer.local_ip.as_deref().and_then(resolve);
            n.update_source.clone_from(&peer.local_interface);
            // PAN-OS multihop 0 and 1 both mean a directly connected peer.
            n.ebgp_multihop = peer.multihop.filter(|m| *m > 1);
            n.address_families = vec![if peer.ipv6 {
                "ipv6 unicast"
            } else {
                "ipv4 unicast"
            }
            .into()];
            let r = &mut n.routing;
            // PAN-OS always sends communities.
            r.send_community = true;
            // Sender-side loop detection (on unless `no`): a path holding the peer's AS
            // is not sent to it.
            r.disable_peer_as_check = peer.sender_loop_detection == Some(false);
            r.route_reflector_client = peer.reflector_client;
            r.next_hop_self = g.next_hop_self;
            r.import_chain = vec![import.clone()];
            r.export_chain = vec![export.clone()];
            n.route_map_in = Some(import.clone());
            n.route_map_out = Some(export.clone());
            if matches!(g.kind.as_deref(), Some("ebgp-confed" | "ibgp-confed")) {
                r.unmodelled.push("confederation peer group".into());
            }
            if g.remove_private {
                r.unmodelled.push("remove-private-as".into());
            }
            r.unmodelled.extend(g.other.iter().cloned());
            p.neighbors.push(n);
        }
    }
    for (key, r) in v
        .redist
        .iter()
        .filter(|(_, r)| r.enable != Some(false) && !r.ipv6)
    {
        for o in &r.other {
            p.routing
                .unmodelled
                .push((vrf.clone(), format!("redist-rules {key} {o}")));
        }
        match parse_prefix(key) {
            Some(prefix) => {
                if prefix.prefix_len() == 0 && !v.allow_default_redist {
                    continue;
                }
                p.networks.push(BgpNetwork {
                    vrf: vrf.clone(),
                    prefix: prefix.trunc(),
                    line: r.line,
                    route_map: None,
                });
            }
            None => redistribute(name, key, &v, r.line, p, dev),
        }
    }
}

/// A `redist-rules` entry naming a redistribution profile: its connected and static
/// routes through a route-map of its destinations (the default route only with
/// `allow-redist-default-route`); anything else is not computed.
fn redistribute(
    vr: &str,
    profile: &str,
    v: &Vr,
    line: u32,
    p: &mut BgpProcess,
    dev: &mut DeviceConfig,
) {
    let vrf = vrf(vr);
    let Some(pr) = v.profiles.get(profile) else {
        p.routing.unmodelled.push((
            vrf,
            format!("redist-rules {profile}: no such redist-profile"),
        ));
        return;
    };
    let plain = pr.redist == Some(true)
        && pr.other.is_empty()
        && pr.types.iter().all(|t| t == "connect" || t == "static");
    if !plain {
        p.routing
            .unmodelled
            .push((vrf, format!("redist-profile {profile}")));
        return;
    }
    let map = format!("~redist:{vr}:{profile}~");
    let mut entries: Vec<PrefixListEntry> = Vec::new();
    let entry = |prefix: IpNet, permit: bool, le: Option<u8>| PrefixListEntry {
        name: map.clone(),
        seq: None,
        permit,
        prefix,
        ge: None,
        le,
        line,
    };
    let default = IpNet::V4(ipnet::Ipv4Net::default());
    if !v.allow_default_redist {
        entries.push(entry(default, false, None));
    }
    if pr.destinations.is_empty() {
        entries.push(entry(default, true, Some(32)));
    }
    for d in &pr.destinations {
        match parse_prefix(d) {
            Some(n) => entries.push(entry(n.trunc(), true, None)),
            None => {
                p.routing.unmodelled.push((
                    vrf.clone(),
                    format!("redist-profile {profile} destination {d}"),
                ));
            }
        }
    }
    dev.prefix_lists.extend(entries);
    dev.route_map_clauses.push(RouteMapClause {
        name: map.clone(),
        seq: 10,
        permit: true,
        prefix_lists: vec![map.clone()],
        other: Vec::new(),
        line,
        sets: Vec::new(),
        matches: vec![RouteMapMatch::PrefixList(vec![map.clone()])],
    });
    for t in &pr.types {
        let protocol = if t == "connect" {
            "connected"
        } else {
            "static"
        };
        p.routing
            .redistribute
            .push((vrf.clone(), protocol.into(), Some(map.clone())));
        if vrf.is_none() {
            p.redistribute.push((protocol.into(), Some(map.clone())));
        }
    }
}

/// The policy statement of one direction and group: the enabled rules used by the group
/// in order, each a term; first, when asked, a term refusing the default route; last, the
/// default (refuse when the group has rules, else take). Returns its name.
fn statement(
    dev: &mut DeviceConfig,
    name: String,
    rules: &[(String, Rule)],
    group: &str,
    reject_default: bool,
    local_as: u32,
    peers: &BTreeMap<&str, IpAddr>,
) -> String {
    let mut terms = Vec::new();
    if reject_default {
        terms.push(PolicyTerm {
            name: "reject-default-route".into(),
            from: vec![PolicyMatch::RouteFilter {
                prefix: IpNet::V4(ipnet::Ipv4Net::default()),
                lengths: (0, 0),
            }],
            then: vec![PolicyAction::Reject],
        });
    }
    let used: Vec<&(String, Rule)> = rules
        .iter()
        .filter(|(_, r)| r.enable != Some(false) && r.used_by.iter().any(|g| g == group))
        .collect();
    for (rname, r) in &used {
        let mut from = Vec::new();
        for (p, exact) in &r.prefixes {
            match parse_prefix(p) {
                Some(n) => {
                    let len = n.prefix_len();
                    from.push(PolicyMatch::RouteFilter {
                        prefix: n.trunc(),
                        lengths: (len, if *exact { len } else { n.max_prefix_len() }),
                    });
                }
                None => from.push(PolicyMatch::Other(format!(
                    "rule {rname}: match address-prefix {p}"
                ))),
            }
        }
        if !r.from_peer.is_empty() {
            let ips: Option<Vec<IpAddr>> = r
                .from_peer
                .iter()
                .map(|p| peers.get(p.as_str()).copied())
                .collect();
            from.push(match ips {
                Some(ips) => PolicyMatch::Neighbor(ips),
                None => {
                    PolicyMatch::Other(format!("rule {rname}: match from-peer of an unknown peer"))
                }
            });
        }
        // Regular expressions are Cisco-style (`_65001_`): kept as lists the route-map
        // evaluation reads, named after the statement and rule.
        let mut as_path_lists = Vec::new();
        for (k, re) in r.as_path.iter().enumerate() {
            let list = format!("{name}{rname}:as-path:{k}");
            dev.route_lists
                .as_path_lists
                .push((list.clone(), true, re.clone()));
            from.push(PolicyMatch::AsPath(vec![list.clone()]));
            as_path_lists.push(list);
        }
        for (k, re) in r.community.iter().enumerate() {
            let list = format!("{name}{rname}:community:{k}");
            dev.route_lists.community_lists.push(CommunityListEntry {
                name: list.clone(),
                permit: true,
                expanded: true,
                values: vec![re.clone()],
            });
            from.push(PolicyMatch::Community(vec![list]));
        }
        for o in &r.other {
            from.push(PolicyMatch::Other(format!("rule {rname}: {o}")));
        }
        let mut then = r.updates.clone();
        // `remove` takes out the AS numbers the rule's AS-path expression matches (PAN-OS
        // knowledge base, "Using RegEx to Remove AS Numbers from BGP AS-Path Attribute").
        if r.remove_as {
            then.push(if as_path_lists.is_empty() {
                PolicyAction::Other(format!(
                    "rule {rname}: update as-path remove without an AS-path expression"
                ))
            } else {
                PolicyAction::RemoveAs(as_path_lists)
            });
        }
        for (k, (op, members)) in r.community_updates.iter().enumerate() {
            let list = format!("{name}{rname}:update-community:{k}");
            dev.policy_options
                .communities
                .push((list.clone(), members.clone()));
            then.push(PolicyAction::Community {
                op: op.clone(),
                name: list,
            });
        }
        for o in &r.other_updates {
            then.push(PolicyAction::Other(format!("rule {rname}: {o}")));
        }
        if let Some(n) = r.prepend {
            then.push(PolicyAction::Prepend(vec![
                local_as;
                usize::try_from(n).unwrap_or(0)
            ]));
        }
        then.push(match r.allow {
            Some(true) => PolicyAction::Accept,
            Some(false) => PolicyAction::Reject,
            None => PolicyAction::Other(format!("rule {rname} without an action")),
        });
        terms.push(PolicyTerm {
            name: rname.clone(),
            from,
            then,
        });
    }
    terms.push(PolicyTerm {
        name: "no rule matched".into(),
        from: Vec::new(),
        then: vec![if used.is_empty() {
            PolicyAction::Accept
        } else {
            PolicyAction::Reject
        }],
    });
    dev.policy_options.statements.push(PolicyStatement {
        name: name.clone(),
        terms,
    });
    name
}
