//! Statement handlers shared by the Cisco-style dialects (IOS/IOS-XE, EOS, NX-OS).
//!
//! The three print much of their configuration the same way (interfaces, route-maps,
//! prefix-lists, `neighbor X …` lines). Each vendor module drives these handlers from
//! its own context walk and handles only what differs.

use crate::model::{
    AddressKind, BgpNeighbor, BgpNetwork, BgpPeer, BgpProcess, DeviceConfig, InterfaceAddress,
    OspfNetwork, PrefixListEntry, RouteActivity, RouteMapClause, StaticRoute, StructureDef,
    StructureKind, StructureRef, SwitchportMode,
};
use ipnet::{IpNet, Ipv4Net};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};

/// Parses `a.b.c.d/len`, `a:b::/len`, keeping host bits.
pub fn parse_prefix(s: &str) -> Option<IpNet> {
    s.parse::<IpNet>().ok()
}

/// Parses an address and a dotted mask (`10.0.0.1 255.255.255.0`).
pub fn parse_addr_mask(addr: &str, mask: &str) -> Option<IpNet> {
    let a: Ipv4Addr = addr.parse().ok()?;
    let m: Ipv4Addr = mask.parse().ok()?;
    let len = ipnet::ipv4_mask_to_prefix(m).ok()?;
    Ipv4Net::new(a, len).ok().map(IpNet::V4)
}

/// Parses an OSPF wildcard (`0.0.0.255`) as a prefix with `addr`.
pub fn parse_addr_wildcard(addr: &str, wildcard: &str) -> Option<IpNet> {
    let a: Ipv4Addr = addr.parse().ok()?;
    let w: Ipv4Addr = wildcard.parse().ok()?;
    let mask = Ipv4Addr::from(!u32::from(w));
    let len = ipnet::ipv4_mask_to_prefix(mask).ok()?;
    Ipv4Net::new(a, len).ok().map(|n| IpNet::V4(n.trunc()))
}

/// Parses an AS number in asplain (`65001`) or asdot (`1.100`) notation.
pub fn parse_asn(s: &str) -> Option<u32> {
    if let Some((hi, lo)) = s.split_once('.') {
        let hi: u32 = hi.parse().ok()?;
        let lo: u32 = lo.parse().ok()?;
        if hi > 0xFFFF || lo > 0xFFFF {
            return None;
        }
        return Some(hi * 65536 + lo);
    }
    s.parse().ok()
}

/// The text after the first `n` words of `line`, as written.
pub fn rest_after_words(line: &str, n: usize) -> &str {
    let mut rest = line;
    for _ in 0..n {
        rest = rest.trim_start();
        match rest.find(char::is_whitespace) {
            Some(i) => rest = &rest[i..],
            None => return "",
        }
    }
    rest.trim()
}

/// Records a structure definition once per (kind, name).
pub fn define(dev: &mut DeviceConfig, kind: StructureKind, name: &str, line: u32) {
    if !dev
        .structures
        .iter()
        .any(|d| d.kind == kind && d.name == name)
    {
        dev.structures.push(StructureDef {
            kind,
            name: name.to_owned(),
            line,
        });
    }
}

/// Records a structure reference.
pub fn reference(
    dev: &mut DeviceConfig,
    kind: StructureKind,
    name: &str,
    context: &str,
    line: u32,
) {
    dev.references.push(StructureRef {
        kind,
        name: name.to_owned(),
        context: context.to_owned(),
        line,
    });
}

/// What a top-level structure line opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StructureBlock {
    /// A route-map clause: its sub-lines are `match` / `set`.
    RouteMap,
    /// An EOS-style prefix-list block: its sub-lines are `seq N permit|deny P …`.
    PrefixList(String),
    /// A block whose body (prefix-list or ACL entries) needs no further parsing.
    Entries,
    /// A one-line definition.
    None,
}

/// Handles top-level definitions of route-maps, prefix-lists, ACLs and community-lists.
/// Returns `None` when the line is not one of them.
pub fn structure_line(dev: &mut DeviceConfig, w: &[&str], line: u32) -> Option<StructureBlock> {
    match w {
        ["route-map", name, rest @ ..] => {
            define(dev, StructureKind::RouteMap, name, line);
            let (permit, seq) = match rest {
                [action, seq, ..] => (*action != "deny", seq.parse().unwrap_or(10)),
                [action] => (*action != "deny", 10),
                [] => (true, 10),
            };
            dev.route_map_clauses.push(RouteMapClause {
                name: (*name).to_owned(),
                seq,
                permit,
                prefix_lists: Vec::new(),
                other: Vec::new(),
                line,
            });
            Some(StructureBlock::RouteMap)
        }
        ["ip" | "ipv6", "prefix-list", name, rest @ ..] => {
            if *name == "sequence-number" {
                return Some(StructureBlock::None);
            }
            define(dev, StructureKind::PrefixList, name, line);
            Some(if rest.is_empty() {
                StructureBlock::PrefixList((*name).to_owned())
            } else {
                prefix_list_entry(dev, name, rest, line);
                StructureBlock::None
            })
        }
        ["ip" | "ipv6", "access-list", kind, name, ..]
            if matches!(*kind, "standard" | "extended" | "resequence") =>
        {
            if *kind == "resequence" {
                return Some(StructureBlock::None);
            }
            define(dev, StructureKind::AccessList, name, line);
            Some(StructureBlock::Entries)
        }
        ["ip" | "ipv6", "access-list", name] => {
            define(dev, StructureKind::AccessList, name, line);
            Some(StructureBlock::Entries)
        }
        ["access-list", name, ..] => {
            define(dev, StructureKind::AccessList, name, line);
            Some(StructureBlock::None)
        }
        ["ip", "community-list", kind, name, ..] if matches!(*kind, "standard" | "expanded") => {
            define(dev, StructureKind::CommunityList, name, line);
            Some(StructureBlock::None)
        }
        ["ip", "community-list", kind, name, ..] if matches!(*kind, "regexp") => {
            define(dev, StructureKind::CommunityList, name, line);
            Some(StructureBlock::None)
        }
        ["ip", "community-list", name, ..] => {
            define(dev, StructureKind::CommunityList, name, line);
            Some(StructureBlock::None)
        }
        _ => None,
    }
}

/// `[seq N] permit|deny P [ge X] [le Y]` of prefix-list `name` (IOS and NX-OS on one
/// line, EOS in a block). `description` lines are not entries.
pub fn prefix_list_entry(dev: &mut DeviceConfig, name: &str, w: &[&str], line: u32) {
    let (seq, rest) = match w {
        ["seq", n, rest @ ..] => (n.parse().ok(), rest),
        _ => (None, w),
    };
    let (permit, p, tail) = match rest {
        ["permit", p, tail @ ..] => (true, p, tail),
        ["deny", p, tail @ ..] => (false, p, tail),
        ["description", ..] | ["remark", ..] => return,
        _ => {
            dev.warn(
                line,
                format!("prefix-list {name}: cannot read '{}'", w.join(" ")),
            );
            return;
        }
    };
    let Some(prefix) = parse_prefix(p) else {
        dev.warn(line, format!("prefix-list {name}: '{p}' is not a prefix"));
        return;
    };
    let mut ge = None;
    let mut le = None;
    for pair in tail.chunks(2) {
        match pair {
            ["ge", v] => ge = v.parse().ok(),
            ["le", v] => le = v.parse().ok(),
            ["eq", v] => {
                ge = v.parse().ok();
                le = ge;
            }
            _ => {}
        }
    }
    dev.prefix_lists.push(PrefixListEntry {
        name: name.to_owned(),
        seq,
        permit,
        prefix,
        ge,
        le,
        line,
    });
}

/// Handles a line inside a route-map clause. Returns false when not recognised.
pub fn route_map_line(dev: &mut DeviceConfig, w: &[&str], line: u32) -> bool {
    // What the clause matches on: prefix-lists are evaluated, anything else is recorded
    // so that an evaluation reaching this clause says "unknown".
    if let Some(c) = dev.route_map_clauses.last_mut() {
        match w {
            ["match", "ip", "address", "prefix-list", names @ ..] => {
                c.prefix_lists.extend(names.iter().map(|n| (*n).to_owned()))
            }
            ["match", ..] | ["continue", ..] => c.other.push(w.join(" ")),
            _ => {}
        }
    }
    match w {
        ["match", "ip" | "ipv6", "address", "prefix-list", names @ ..] => {
            for n in names {
                reference(
                    dev,
                    StructureKind::PrefixList,
                    n,
                    "route-map match prefix-list",
                    line,
                );
            }
            true
        }
        ["match", "ip" | "ipv6", "address", "access-list", names @ ..] => {
            for n in names {
                reference(
                    dev,
                    StructureKind::AccessList,
                    n,
                    "route-map match access-list",
                    line,
                );
            }
            true
        }
        ["match", "ip" | "ipv6", "address", names @ ..] => {
            for n in names {
                reference(
                    dev,
                    StructureKind::AccessList,
                    n,
                    "route-map match access-list",
                    line,
                );
            }
            true
        }
        ["match", "community", names @ ..] => {
            for n in names.iter().filter(|n| **n != "exact-match") {
                reference(
                    dev,
                    StructureKind::CommunityList,
                    n,
                    "route-map match community-list",
                    line,
                );
            }
            true
        }
        ["set", "comm-list", name, "delete"] => {
            reference(
                dev,
                StructureKind::CommunityList,
                name,
                "route-map set comm-list delete",
                line,
            );
            true
        }
        ["match" | "set" | "description" | "continue", ..] => true,
        _ => false,
    }
}

/// Handles interface sub-commands common to the dialects. Returns false when not recognised.
pub fn interface_line(
    dev: &mut DeviceConfig,
    idx: usize,
    text: &str,
    w: &[&str],
    line: u32,
) -> bool {
    let Some(iface) = dev.interfaces.get_mut(idx) else {
        return false;
    };
    match w {
        ["description", ..] => {
            iface.description = Some(rest_after_words(text, 1).to_owned());
        }
        ["no", "description", ..] => iface.description = None,
        ["shutdown"] => iface.admin_up = false,
        ["no", "shutdown"] => iface.admin_up = true,
        ["no", "mtu", ..] => iface.mtu = None,
        ["mtu", v] => match v.parse() {
            Ok(m) => iface.mtu = Some(m),
            Err(_) => dev.warn(line, format!("mtu: '{v}' is not a number")),
        },
        ["speed", v, ..] => {
            let v = v.trim_start_matches("forced").trim_end_matches("full");
            iface.speed_mbps = parse_speed(v);
        }
        ["vrf", "forwarding", v] | ["ip", "vrf", "forwarding", v] | ["vrf", "member", v] => {
            iface.vrf = Some((*v).to_owned());
        }
        ["vrf", v] => iface.vrf = Some((*v).to_owned()),
        ["no", "switchport"] | ["default", "switchport"] => {
            iface.switchport_mode = None;
        }
        ["switchport"] => {
            if iface.switchport_mode.is_none() {
                iface.switchport_mode = Some(SwitchportMode::Access);
            }
        }
        ["switchport", "mode", mode] => match *mode {
            "access" => iface.switchport_mode = Some(SwitchportMode::Access),
            "trunk" => iface.switchport_mode = Some(SwitchportMode::Trunk),
            "dynamic" | "dot1q-tunnel" | "private-vlan" | "routed" => {}
            other => dev.warn(line, format!("switchport mode: unknown mode '{other}'")),
        },
        ["switchport", "mode", ..] => {}
        ["switchport", "access", "vlan", v] => match v.parse() {
            Ok(n) => iface.access_vlan = Some(n),
            Err(_) => dev.warn(
                line,
                format!("switchport access vlan: '{v}' is not a VLAN id"),
            ),
        },
        ["switchport", "trunk", "allowed", "vlan", "add", v] => {
            let joined = match iface.trunk_vlans.take() {
                Some(prev) => format!("{prev},{v}"),
                None => (*v).to_owned(),
            };
            iface.trunk_vlans = Some(joined);
        }
        ["switchport", "trunk", "allowed", "vlan", v] => iface.trunk_vlans = Some((*v).to_owned()),
        ["switchport", ..] => {}
        ["channel-group", n, ..] => match n.parse::<u32>() {
            Ok(n) => iface.channel_group = Some(format!("Port-channel{n}")),
            Err(_) => dev.warn(line, format!("channel-group: '{n}' is not a number")),
        },
        // Later lines amend (a plan or rollback appended to a running config).
        ["no", "ip", "address"] => iface
            .addresses
            .retain(|a| a.kind == AddressKind::Virtual || !a.address.addr().is_ipv4()),
        ["no", "ip", "address", addr, rest @ ..] if *addr != "virtual" => {
            let gone = match rest {
                [m, ..] if !m.contains('/') && m.contains('.') => parse_addr_mask(addr, m),
                _ => parse_prefix(addr),
            };
            if let Some(gone) = gone {
                iface.addresses.retain(|a| a.address != gone);
            }
        }
        ["ip", "address", "dhcp" | "negotiated", ..] => {}
        ["ip" | "ipv6", "address", addr, rest @ ..] if *addr != "virtual" => {
            let (net, secondary) = match rest {
                [m, tail @ ..] if !m.contains('/') && m.contains('.') => {
                    (parse_addr_mask(addr, m), tail.first() == Some(&"secondary"))
                }
                tail => (parse_prefix(addr), tail.first() == Some(&"secondary")),
            };
            if let (Some(new), false) = (net, secondary) {
                // A new primary address replaces the old one, as on the device.
                iface.addresses.retain(|a| {
                    a.kind != AddressKind::Primary
                        || a.address.addr().is_ipv4() != new.addr().is_ipv4()
                });
            }
            match net {
                Some(address) => iface.addresses.push(InterfaceAddress {
                    address,
                    kind: if secondary {
                        AddressKind::Secondary
                    } else {
                        AddressKind::Primary
                    },
                    line,
                }),
                None => dev.warn(
                    line,
                    format!("ip address: cannot read '{}'", w[2..].join(" ")),
                ),
            }
        }
        ["ip", "address", "virtual", addr, ..] | ["ip", "virtual-router", "address", addr, ..] => {
            push_virtual(dev, idx, addr, line);
        }
        ["vrrp", _, "ip" | "ipv4", addr, ..]
        | ["standby", _, "ip", addr, ..]
        | ["standby", "ip", addr, ..] => {
            push_virtual(dev, idx, addr, line);
        }
        // IOS `encapsulation dot1Q 100 [native]`, EOS `encapsulation dot1q vlan 100`; the
        // native VLAN's frames go untagged, so a `native` subinterface carries no tag.
        ["encapsulation", kind, rest @ ..] if kind.eq_ignore_ascii_case("dot1q") => {
            let tag = rest.iter().find(|x| **x != "vlan").copied().unwrap_or("");
            match tag.parse() {
                Ok(_) if rest.contains(&"native") => iface.encapsulation_vlan = None,
                Ok(t) => iface.encapsulation_vlan = Some(t),
                Err(_) => dev.warn(
                    line,
                    format!("encapsulation dot1q: '{tag}' is not a VLAN id"),
                ),
            }
        }
        ["ip", "access-group", name, dir] => {
            let context = if *dir == "out" {
                "interface outbound access-group"
            } else {
                "interface inbound access-group"
            };
            reference(dev, StructureKind::AccessList, name, context, line);
        }
        ["ip", "ospf", process, "area", area] => {
            let process = (*process).to_owned();
            let area = (*area).to_owned();
            let name = dev.interfaces[idx].name.clone();
            dev.ospf_networks.push(OspfNetwork {
                process,
                prefix: None,
                interface: Some(name),
                area,
                line,
            });
        }
        ["ip", "router", "ospf", process, "area", area] => {
            let process = (*process).to_owned();
            let area = (*area).to_owned();
            let name = dev.interfaces[idx].name.clone();
            dev.ospf_networks.push(OspfNetwork {
                process,
                prefix: None,
                interface: Some(name),
                area,
                line,
            });
        }
        ["ip" | "ipv6" | "no" | "negotiation" | "duplex" | "media-type" | "load-interval"
        | "spanning-tree" | "storm-control" | "bandwidth" | "encapsulation" | "cdp" | "lldp"
        | "logging" | "service-policy" | "mac-address" | "standby" | "vrrp" | "hsrp"
        | "carrier-delay" | "keepalive" | "delay" | "hold-queue" | "power" | "udld"
        | "flowcontrol" | "bfd" | "isis" | "mpls" | "pim" | "mop" | "arp" | "qos" | "mls"
        | "priority-queue" | "srr-queue" | "auto" | "tunnel" | "errdisable" | "mode" | "lacp"
        | "port-channel" | "medium" | "dot1x" | "authentication" | "snmp" | "peer-gateway"
        | "vpc" | "sflow" | "traffic-loopback", ..] => {}
        _ => return false,
    }
    true
}

fn parse_speed(v: &str) -> Option<u32> {
    match v {
        "auto" | "" => None,
        "10g" | "10000" => Some(10_000),
        "25g" => Some(25_000),
        "40g" => Some(40_000),
        "100g" => Some(100_000),
        "1g" | "1000" => Some(1_000),
        other => other
            .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .parse()
            .ok(),
    }
}

/// Adds a first-hop-redundancy or anycast virtual address (VRRP, HSRP, VARP, EOS `ip
/// address virtual`) to interface `idx`. A written prefix length is kept (EOS `ip address
/// virtual 10.1.40.1/24`); without one the address lives in the primary subnet.
pub fn push_virtual(dev: &mut DeviceConfig, idx: usize, addr: &str, line: u32) {
    if let Some(net) = addr.contains('/').then(|| parse_prefix(addr)).flatten() {
        dev.interfaces[idx].addresses.push(InterfaceAddress {
            address: net,
            kind: AddressKind::Virtual,
            line,
        });
        return;
    }
    let addr_only = addr.split('/').next().unwrap_or(addr);
    let Ok(ip) = addr_only.parse::<IpAddr>() else {
        dev.warn(line, format!("virtual address: cannot read '{addr}'"));
        return;
    };
    let iface = &mut dev.interfaces[idx];
    // A virtual address lives in the interface's primary subnet.
    let len = iface
        .addresses
        .iter()
        .find(|a| a.kind == AddressKind::Primary && a.address.addr().is_ipv4() == ip.is_ipv4())
        .map(|a| a.address.prefix_len())
        .unwrap_or(if ip.is_ipv4() { 32 } else { 128 });
    if let Ok(address) = IpNet::new(ip, len) {
        iface.addresses.push(InterfaceAddress {
            address,
            kind: AddressKind::Virtual,
            line,
        });
    }
}

/// Adds the static route after `ip route [vrf V]`: `PREFIX [MASK] [IF] [NH] [AD] …`.
pub fn static_route(dev: &mut DeviceConfig, vrf: Option<String>, w: &[&str], line: u32) {
    if let Some(route) = read_static_route(dev, vrf, w, line) {
        // The same route configured again is one route, as on the device.
        let same = |r: &StaticRoute| {
            r.vrf == route.vrf
                && r.prefix == route.prefix
                && r.next_hop == route.next_hop
                && r.next_hop_interface == route.next_hop_interface
        };
        if !dev.static_routes.iter().any(same) {
            dev.static_routes.push(route);
        }
    }
}

/// `no ip route …`: removes the routes it names (every route to the prefix when no next
/// hop or exit interface is given), as the device would.
pub fn remove_static_route(dev: &mut DeviceConfig, vrf: Option<String>, w: &[&str], line: u32) {
    let warnings = dev.warnings.len();
    let Some(gone) = read_static_route(dev, vrf, w, line) else {
        return;
    };
    // "no next hop" is not a fault in a removal.
    dev.warnings.truncate(warnings);
    dev.static_routes.retain(|r| {
        !(r.vrf == gone.vrf
            && r.prefix == gone.prefix
            && gone.next_hop.is_none_or(|n| r.next_hop == Some(n))
            && gone
                .next_hop_interface
                .as_ref()
                .is_none_or(|i| r.next_hop_interface.as_ref() == Some(i)))
    });
}

fn read_static_route(
    dev: &mut DeviceConfig,
    vrf: Option<String>,
    w: &[&str],
    line: u32,
) -> Option<StaticRoute> {
    let (prefix, rest) = match w {
        [p, m, rest @ ..] if !p.contains('/') => (parse_addr_mask(p, m), rest),
        [p, rest @ ..] => (parse_prefix(p), rest),
        [] => (None, w),
    };
    let Some(prefix) = prefix else {
        dev.warn(
            line,
            format!("ip route: cannot read the prefix in '{}'", w.join(" ")),
        );
        return None;
    };
    let mut route = StaticRoute {
        vrf,
        prefix: prefix.trunc(),
        next_hop: None,
        next_hop_interface: None,
        distance: None,
        activity: RouteActivity::Usable,
        line,
    };
    let mut it = rest.iter().peekable();
    while let Some(word) = it.next() {
        if let Ok(ip) = word.split('/').next().unwrap_or(word).parse::<IpAddr>() {
            if route.next_hop.is_none() {
                route.next_hop = Some(ip);
                continue;
            }
        }
        if let Ok(d) = word.parse::<u32>() {
            if route.distance.is_none() && d <= 255 {
                route.distance = Some(d);
            }
            continue;
        }
        match *word {
            "name" | "tag" | "track" | "description" | "metric" | "vrf" => {
                it.next();
            }
            "permanent" | "global" | "multicast" | "dhcp" => {}
            w if route.next_hop.is_none()
                && route.next_hop_interface.is_none()
                && w.starts_with(|c: char| c.is_ascii_alphabetic()) =>
            {
                route.next_hop_interface = Some(w.to_owned());
            }
            _ => {}
        }
    }
    if route.next_hop.is_none() && route.next_hop_interface.is_none() {
        dev.warn(line, "ip route: no next hop or exit interface");
    }
    Some(route)
}

/// BGP settings of a neighbor or of a peer-group, before inheritance.
#[derive(Debug, Clone, Default)]
struct Settings {
    peer_asn: Option<u32>,
    peer_group: Option<String>,
    description: Option<String>,
    update_source: Option<String>,
    route_map_in: Option<String>,
    route_map_out: Option<String>,
    ebgp_multihop: Option<u32>,
    prefix_list_in: Option<String>,
    prefix_list_out: Option<String>,
    local_as: Option<u32>,
    dual_as: bool,
    shutdown: bool,
    address_families: Vec<String>,
}

impl Settings {
    fn inherit(&mut self, g: &Settings) {
        self.peer_asn = self.peer_asn.or(g.peer_asn);
        if self.description.is_none() {
            self.description.clone_from(&g.description);
        }
        if self.update_source.is_none() {
            self.update_source.clone_from(&g.update_source);
        }
        if self.route_map_in.is_none() {
            self.route_map_in.clone_from(&g.route_map_in);
        }
        if self.route_map_out.is_none() {
            self.route_map_out.clone_from(&g.route_map_out);
        }
        self.ebgp_multihop = self.ebgp_multihop.or(g.ebgp_multihop);
        if self.prefix_list_in.is_none() {
            self.prefix_list_in.clone_from(&g.prefix_list_in);
        }
        if self.prefix_list_out.is_none() {
            self.prefix_list_out.clone_from(&g.prefix_list_out);
        }
        if self.local_as.is_none() {
            self.local_as = g.local_as;
            self.dual_as = g.dual_as;
        }
        self.shutdown |= g.shutdown;
        for af in &g.address_families {
            if !self.address_families.contains(af) {
                self.address_families.push(af.clone());
            }
        }
    }
}

/// Collects a BGP process while lines arrive; resolves peer-group inheritance at the end.
#[derive(Debug, Default)]
pub struct BgpBuilder {
    process: Option<BgpProcess>,
    groups: HashMap<String, Settings>,
    neighbors: Vec<(Option<String>, BgpPeer, u32, Settings)>,
    index: HashMap<(Option<String>, BgpPeer), usize>,
    /// Neighbors a later `no neighbor X` removed.
    removed: std::collections::HashSet<usize>,
    no_default_ipv4: bool,
}

/// Where a BGP line sits: its VRF and address family (None: default VRF, no family).
#[derive(Debug, Clone, Copy, Default)]
pub struct Scope<'a> {
    /// VRF.
    pub vrf: Option<&'a str>,
    /// Address family (`ipv4 unicast`).
    pub af: Option<&'a str>,
}

/// Whom a `neighbor X …` line addresses.
enum Target {
    Neighbor(usize),
    Group(String),
}

impl BgpBuilder {
    /// `router bgp <asn>`.
    pub fn start(&mut self, dev: &mut DeviceConfig, asn: &str, line: u32) {
        let local_as = parse_asn(asn);
        if local_as.is_none() {
            dev.warn(line, format!("router bgp: '{asn}' is not an AS number"));
        }
        match &mut self.process {
            Some(p) => {
                if p.local_as.is_none() {
                    p.local_as = local_as;
                }
            }
            None => {
                self.process = Some(BgpProcess {
                    local_as,
                    line,
                    ..BgpProcess::default()
                })
            }
        }
    }

    /// `bgp router-id X` / `router-id X`.
    pub fn router_id(&mut self, dev: &mut DeviceConfig, id: &str, line: u32) {
        match id.parse::<IpAddr>() {
            Ok(ip) => {
                if let Some(p) = &mut self.process {
                    // The process-level router-id wins over VRF ones (first seen).
                    p.router_id.get_or_insert(ip);
                }
            }
            Err(_) => dev.warn(line, format!("router-id: '{id}' is not an address")),
        }
    }

    /// `bgp confederation identifier X` (IOS, EOS) / `confederation identifier X` (NX-OS).
    pub fn confederation_id(&mut self, dev: &mut DeviceConfig, id: &str, line: u32) {
        match (parse_asn(id), &mut self.process) {
            (Some(a), Some(p)) => p.confederation_id = Some(a),
            (None, _) => dev.warn(
                line,
                format!("confederation identifier: '{id}' is not an AS number"),
            ),
            _ => {}
        }
    }

    /// `bgp confederation peers A B …` / `confederation peers A B …` (lines add up).
    pub fn confederation_peers(&mut self, dev: &mut DeviceConfig, peers: &[&str], line: u32) {
        for id in peers {
            match (parse_asn(id), &mut self.process) {
                (Some(a), Some(p)) if !p.confederation_peers.contains(&a) => {
                    p.confederation_peers.push(a);
                }
                (None, _) => dev.warn(
                    line,
                    format!("confederation peers: '{id}' is not an AS number"),
                ),
                _ => {}
            }
        }
    }

    /// `redistribute <protocol> … [route-map M]` and `aggregate-address` in the default VRF.
    pub fn origination(&mut self, vrf: Option<&str>, w: &[&str]) {
        let (Some(p), None) = (&mut self.process, vrf) else {
            return;
        };
        match w {
            ["redistribute", proto, rest @ ..] => {
                let rm = rest
                    .iter()
                    .position(|x| *x == "route-map")
                    .and_then(|i| rest.get(i + 1))
                    .map(|x| (*x).to_owned());
                p.redistribute.push(((*proto).to_owned(), rm));
            }
            ["aggregate-address", a, m, ..] if !a.contains('/') => {
                if let Some(n) = parse_addr_mask(a, m) {
                    p.aggregates.push(n.trunc());
                }
            }
            ["aggregate-address", a, ..] => {
                if let Some(n) = parse_prefix(a) {
                    p.aggregates.push(n.trunc());
                }
            }
            _ => {}
        }
    }

    /// `no bgp default ipv4-unicast`.
    pub fn disable_default_ipv4(&mut self) {
        self.no_default_ipv4 = true;
    }

    /// `network …` inside BGP (both `A mask M` and `P/L` forms).
    pub fn network(&mut self, dev: &mut DeviceConfig, vrf: Option<&str>, w: &[&str], line: u32) {
        let prefix = match w {
            [a, "mask", m, ..] => parse_addr_mask(a, m),
            [p, ..] if p.contains('/') => parse_prefix(p),
            [a, ..] => a.parse::<Ipv4Addr>().ok().map(classful),
            [] => None,
        };
        if let Some(i) = w.iter().position(|x| *x == "route-map") {
            if let Some(rm) = w.get(i + 1) {
                reference(
                    dev,
                    StructureKind::RouteMap,
                    rm,
                    "bgp network route-map",
                    line,
                );
            }
        }
        match (prefix, &mut self.process) {
            (Some(prefix), Some(p)) => p.networks.push(BgpNetwork {
                vrf: vrf.map(str::to_owned),
                prefix: prefix.trunc(),
                line,
            }),
            (None, _) => dev.warn(line, format!("network: cannot read '{}'", w.join(" "))),
            _ => {}
        }
    }

    /// `no network …`: the statement is gone.
    pub fn remove_network(&mut self, vrf: Option<&str>, w: &[&str]) {
        let prefix = match w {
            [a, "mask", m, ..] => parse_addr_mask(a, m),
            [p, ..] if p.contains('/') => parse_prefix(p),
            [a, ..] => a.parse::<Ipv4Addr>().ok().map(classful),
            [] => None,
        };
        if let (Some(prefix), Some(p)) = (prefix, &mut self.process) {
            p.networks
                .retain(|n| !(n.vrf.as_deref() == vrf && n.prefix == prefix.trunc()));
        }
    }

    /// `bgp listen range P peer-group G [remote-as N]`.
    pub fn listen_range(
        &mut self,
        dev: &mut DeviceConfig,
        vrf: Option<&str>,
        w: &[&str],
        line: u32,
    ) {
        let Some(range) = w.first().and_then(|p| parse_prefix(p)) else {
            dev.warn(line, "bgp listen range: cannot read the range");
            return;
        };
        let mut s = Settings::default();
        let mut i = 1;
        while i < w.len() {
            match (w[i], w.get(i + 1), w.get(i + 2)) {
                ("peer-group", Some(g), _) => {
                    s.peer_group = Some((*g).to_owned());
                    i += 2;
                }
                ("peer", Some(&"group"), Some(g)) => {
                    s.peer_group = Some((*g).to_owned());
                    i += 3;
                }
                ("remote-as", Some(a), _) => {
                    s.peer_asn = parse_asn(a);
                    if s.peer_asn.is_none() {
                        dev.warn(line, format!("bgp listen range: '{a}' is not an AS number"));
                    }
                    i += 2;
                }
                _ => i += 1,
            }
        }
        if let Some(g) = &s.peer_group {
            reference(
                dev,
                StructureKind::PeerGroup,
                g,
                "bgp listen range peer-group",
                line,
            );
        }
        let key = (vrf.map(str::to_owned), BgpPeer::ListenRange(range.trunc()));
        let idx = self.neighbors.len();
        self.index.insert(key.clone(), idx);
        self.neighbors.push((key.0, key.1, line, s));
    }

    /// `neighbor interface Ethernet1-2,4 peer-group G [remote-as N]` (EOS BGP unnumbered):
    /// one interface peering per interface the range names.
    pub fn interface_neighbors(
        &mut self,
        dev: &mut DeviceConfig,
        vrf: Option<&str>,
        w: &[&str],
        line: u32,
    ) {
        let Some(names) = w
            .first()
            .map(|r| interface_range(r))
            .filter(|n| !n.is_empty())
        else {
            dev.warn(line, "neighbor interface: cannot read the interfaces");
            return;
        };
        let mut s = Settings::default();
        let mut i = 1;
        while i < w.len() {
            match (w[i], w.get(i + 1), w.get(i + 2)) {
                ("peer-group", Some(g), _) | ("peer", Some(&"group"), Some(g)) => {
                    s.peer_group = Some((*g).to_owned());
                    reference(
                        dev,
                        StructureKind::PeerGroup,
                        g,
                        "bgp neighbor peer-group",
                        line,
                    );
                    i += if w[i] == "peer" { 3 } else { 2 };
                }
                ("remote-as", Some(a), _) => {
                    s.peer_asn = parse_asn(a);
                    if s.peer_asn.is_none() {
                        dev.warn(
                            line,
                            format!("neighbor interface: '{a}' is not an AS number"),
                        );
                    }
                    i += 2;
                }
                _ => i += 1,
            }
        }
        for name in names {
            let key = (vrf.map(str::to_owned), BgpPeer::Interface(name));
            match self.index.get(&key) {
                Some(&k) => self.neighbors[k].3 = s.clone(),
                None => {
                    self.index.insert(key.clone(), self.neighbors.len());
                    self.neighbors.push((key.0, key.1, line, s.clone()));
                }
            }
        }
    }

    /// `no neighbor interface RANGE …`: those unnumbered peerings are gone.
    pub fn remove_interface_neighbors(&mut self, vrf: Option<&str>, range: &str) {
        for name in interface_range(range) {
            let key = (vrf.map(str::to_owned), BgpPeer::Interface(name));
            if let Some(i) = self.index.remove(&key) {
                self.removed.insert(i);
            }
        }
    }

    /// Defines a peer-group / peer group / template.
    pub fn define_group(&mut self, dev: &mut DeviceConfig, name: &str, line: u32) {
        define(dev, StructureKind::PeerGroup, name, line);
        self.groups.entry(name.to_owned()).or_default();
    }

    fn target(&mut self, vrf: Option<&str>, id: &str, line: u32) -> Target {
        match id.parse::<IpAddr>() {
            Ok(ip) => {
                let key = (vrf.map(str::to_owned), BgpPeer::Address(ip));
                if let Some(i) = self.index.get(&key) {
                    return Target::Neighbor(*i);
                }
                let i = self.neighbors.len();
                self.index.insert(key.clone(), i);
                self.neighbors
                    .push((key.0, key.1, line, Settings::default()));
                Target::Neighbor(i)
            }
            Err(_) => Target::Group(id.to_owned()),
        }
    }

    /// Applies `attr` (the words after `neighbor <id>`) to a neighbor or group.
    /// `af` is the address family the line sits in, if any. Returns false when
    /// the attribute is not recognised.
    pub fn neighbor(
        &mut self,
        dev: &mut DeviceConfig,
        scope: Scope<'_>,
        id: &str,
        attr: &[&str],
        text: &str,
        line: u32,
    ) -> bool {
        let Scope { vrf, af } = scope;
        let target = self.target(vrf, id, line);
        // A group-definition line: `neighbor G peer-group` / `neighbor G peer group`.
        if let Target::Group(g) = &target {
            if matches!(attr, ["peer-group"] | ["peer", "group"] | []) {
                self.define_group(dev, g, line);
                return true;
            }
        }
        let s = match &target {
            Target::Neighbor(i) => &mut self.neighbors[*i].3,
            Target::Group(g) => self.groups.entry(g.clone()).or_default(),
        };
        match attr {
            ["remote-as", asn, ..] => match parse_asn(asn) {
                Some(a) => s.peer_asn = Some(a),
                None => dev.warn(
                    line,
                    format!("neighbor {id} remote-as: '{asn}' is not an AS number"),
                ),
            },
            ["peer-group", g] | ["peer", "group", g] | ["inherit", "peer", g, ..] => {
                s.peer_group = Some((*g).to_owned());
                reference(
                    dev,
                    StructureKind::PeerGroup,
                    g,
                    "bgp neighbor peer-group",
                    line,
                );
            }
            ["description", ..] => {
                let n = text
                    .split_whitespace()
                    .take_while(|x| *x != "description")
                    .count()
                    + 1;
                s.description = Some(rest_after_words(text, n).to_owned());
            }
            ["update-source", ifname] => s.update_source = Some((*ifname).to_owned()),
            ["route-map", rm, dir] => {
                let context = if *dir == "out" {
                    s.route_map_out = Some((*rm).to_owned());
                    "bgp outbound route-map"
                } else {
                    s.route_map_in = Some((*rm).to_owned());
                    "bgp inbound route-map"
                };
                reference(dev, StructureKind::RouteMap, rm, context, line);
            }
            ["prefix-list", pl, dir] => {
                let context = if *dir == "out" {
                    s.prefix_list_out = Some((*pl).to_owned());
                    "bgp outbound prefix-list"
                } else {
                    s.prefix_list_in = Some((*pl).to_owned());
                    "bgp inbound prefix-list"
                };
                reference(dev, StructureKind::PrefixList, pl, context, line);
            }
            ["distribute-list", acl, dir] => {
                let context = if *dir == "out" {
                    "bgp outbound distribute-list"
                } else {
                    "bgp inbound distribute-list"
                };
                reference(dev, StructureKind::AccessList, acl, context, line);
            }
            ["default-originate", "route-map", rm] => {
                reference(
                    dev,
                    StructureKind::RouteMap,
                    rm,
                    "bgp default-originate route-map",
                    line,
                );
            }
            // IOS `local-as N [no-prepend [replace-as [dual-as]]]`, EOS `local-as N
            // no-prepend replace-as`, NX-OS `local-as N [no-prepend [replace-as [dual-as]]]`.
            ["local-as", asn, rest @ ..] => match parse_asn(asn) {
                Some(a) => {
                    s.local_as = Some(a);
                    s.dual_as = rest.contains(&"dual-as");
                }
                None => dev.warn(
                    line,
                    format!("neighbor {id} local-as: '{asn}' is not an AS number"),
                ),
            },
            ["ebgp-multihop"] => s.ebgp_multihop = Some(255),
            ["ebgp-multihop", ttl] => match ttl.parse() {
                Ok(t) => s.ebgp_multihop = Some(t),
                Err(_) => dev.warn(
                    line,
                    format!("neighbor {id} ebgp-multihop: '{ttl}' is not a TTL"),
                ),
            },
            ["shutdown", ..] => s.shutdown = true,
            ["activate"] => {
                let af = af.unwrap_or("ipv4 unicast").to_owned();
                if !s.address_families.contains(&af) {
                    s.address_families.push(af);
                }
            }
            [_, ..] => {}
            [] => return false,
        }
        true
    }

    /// `no neighbor X`: the neighbor (or peer-group) is gone with all its settings.
    pub fn remove_neighbor(&mut self, vrf: Option<&str>, id: &str) {
        match id.parse::<IpAddr>() {
            Ok(ip) => {
                let key = (vrf.map(str::to_owned), BgpPeer::Address(ip));
                if let Some(i) = self.index.remove(&key) {
                    self.removed.insert(i);
                }
            }
            Err(_) => {
                self.groups.remove(id);
            }
        }
    }

    /// `no neighbor X <attr> …`: the setting returns to its default.
    pub fn unset(&mut self, scope: Scope<'_>, id: &str, attr: &[&str], line: u32) {
        if attr == ["activate"] {
            self.deactivate(scope.vrf, scope.af, id, line);
            return;
        }
        let s = match self.target(scope.vrf, id, line) {
            Target::Neighbor(i) => &mut self.neighbors[i].3,
            Target::Group(g) => self.groups.entry(g).or_default(),
        };
        match attr {
            ["shutdown", ..] => s.shutdown = false,
            ["description", ..] => s.description = None,
            ["update-source", ..] => s.update_source = None,
            ["ebgp-multihop", ..] => s.ebgp_multihop = None,
            ["local-as", ..] => {
                s.local_as = None;
                s.dual_as = false;
            }
            ["prefix-list", _, dir] if *dir == "out" => s.prefix_list_out = None,
            ["prefix-list", _, _] => s.prefix_list_in = None,
            ["route-map", _, dir] if *dir == "out" => s.route_map_out = None,
            ["route-map", _, _] => s.route_map_in = None,
            ["remote-as", ..] => s.peer_asn = None,
            ["peer-group" | "peer", ..] => s.peer_group = None,
            _ => {}
        }
    }

    /// `no neighbor X activate`.
    pub fn deactivate(&mut self, vrf: Option<&str>, af: Option<&str>, id: &str, line: u32) {
        let af = af.unwrap_or("ipv4 unicast");
        let s = match self.target(vrf, id, line) {
            Target::Neighbor(i) => &mut self.neighbors[i].3,
            Target::Group(g) => self.groups.entry(g).or_default(),
        };
        s.address_families.retain(|a| a != af);
    }

    /// Resolves inheritance and stores the process in `dev`.
    pub fn finish(mut self, dev: &mut DeviceConfig) {
        let Some(mut process) = self.process.take() else {
            return;
        };
        for (i, (vrf, peer, line, mut s)) in self.neighbors.into_iter().enumerate() {
            if self.removed.contains(&i) {
                continue;
            }
            if let Some(g) = s.peer_group.clone() {
                if let Some(gs) = self.groups.get(&g) {
                    s.inherit(gs);
                }
            }
            // IOS and EOS activate IPv4 unicast for every neighbor unless told not to.
            if !self.no_default_ipv4 && vrf.is_none() && s.address_families.is_empty() {
                s.address_families.push("ipv4 unicast".to_owned());
            }
            let mut n = BgpNeighbor::new(vrf, peer, line);
            n.peer_asn = s.peer_asn;
            n.peer_group = s.peer_group;
            n.description = s.description;
            n.update_source = s.update_source;
            n.route_map_in = s.route_map_in;
            n.route_map_out = s.route_map_out;
            n.ebgp_multihop = s.ebgp_multihop;
            n.prefix_list_in = s.prefix_list_in;
            n.prefix_list_out = s.prefix_list_out;
            n.local_as = s.local_as;
            n.dual_as = s.dual_as;
            n.shutdown = s.shutdown;
            n.address_families = s.address_families;
            process.neighbors.push(n);
        }
        dev.bgp = Some(process);
    }
}

/// The interfaces an EOS range names: `Ethernet1-3,5` → Ethernet1, Ethernet2, Ethernet3,
/// Ethernet5; `Ethernet1/1-2` → Ethernet1/1, Ethernet1/2. A piece without a type takes
/// the previous piece's.
fn interface_range(spec: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut base = String::new();
    for piece in spec.split(',').filter(|p| !p.is_empty()) {
        // The part before the last number is the type and slot (`Ethernet`, `Ethernet1/`).
        let (head, tail) = match piece.rfind(|c: char| !c.is_ascii_digit() && c != '-') {
            Some(i) => (&piece[..=i], &piece[i + 1..]),
            None => (base.as_str(), piece),
        };
        let head = head.to_owned();
        match tail.split_once('-') {
            Some((lo, hi)) => match (lo.parse::<u32>(), hi.parse::<u32>()) {
                (Ok(lo), Ok(hi)) if lo <= hi && hi - lo < 4096 => {
                    out.extend((lo..=hi).map(|n| format!("{head}{n}")));
                }
                _ => return Vec::new(),
            },
            None if !tail.is_empty() => out.push(format!("{head}{tail}")),
            None => return Vec::new(),
        }
        base = head;
    }
    out
}

/// The classful network of an address (IOS `network 10.0.0.0` without a mask).
fn classful(a: Ipv4Addr) -> IpNet {
    let first = a.octets()[0];
    let len = if first < 128 {
        8
    } else if first < 192 {
        16
    } else {
        24
    };
    IpNet::V4(
        Ipv4Net::new(a, len)
            .map(|n| n.trunc())
            .unwrap_or_else(|_| Ipv4Net::from(a)),
    )
}

/// Handles `redistribute … route-map RM` in a routing process.
pub fn redistribute(dev: &mut DeviceConfig, w: &[&str], context: &str, line: u32) {
    if let Some(i) = w.iter().position(|x| *x == "route-map") {
        if let Some(rm) = w.get(i + 1) {
            reference(dev, StructureKind::RouteMap, rm, context, line);
        }
    }
}

/// Handles `network A W area X` (IOS) and `network P/L area X` (EOS) in an OSPF process.
pub fn ospf_network(dev: &mut DeviceConfig, process: &str, w: &[&str], line: u32) {
    let (prefix, area) = match w {
        [a, wc, "area", area] => (parse_addr_wildcard(a, wc), *area),
        [p, "area", area] => (parse_prefix(p).map(|p| p.trunc()), *area),
        _ => (None, ""),
    };
    match prefix {
        Some(prefix) => dev.ospf_networks.push(OspfNetwork {
            process: process.to_owned(),
            prefix: Some(prefix),
            interface: None,
            area: area.to_owned(),
            line,
        }),
        None => dev.warn(line, format!("ospf network: cannot read '{}'", w.join(" "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_wildcards() {
        assert_eq!(
            parse_addr_mask("10.0.0.1", "255.255.255.252").map(|n| n.to_string()),
            Some("10.0.0.1/30".into())
        );
        assert_eq!(parse_addr_mask("10.0.0.1", "255.0.255.0"), None);
        assert_eq!(
            parse_addr_wildcard("192.168.1.0", "0.0.0.3").map(|n| n.to_string()),
            Some("192.168.1.0/30".into())
        );
    }

    #[test]
    fn asdot() {
        assert_eq!(parse_asn("1.100"), Some(65636));
        assert_eq!(parse_asn("7575"), Some(7575));
        assert_eq!(parse_asn("x"), None);
    }

    #[test]
    fn eos_interface_ranges() {
        assert_eq!(interface_range("Ethernet1"), vec!["Ethernet1"]);
        assert_eq!(
            interface_range("Ethernet1-3,5"),
            vec!["Ethernet1", "Ethernet2", "Ethernet3", "Ethernet5"]
        );
        assert_eq!(
            interface_range("Ethernet1/1-2"),
            vec!["Ethernet1/1", "Ethernet1/2"]
        );
        assert!(interface_range("Ethernet3-1").is_empty());
        assert!(interface_range("").is_empty());
    }

    #[test]
    fn rest_keeps_spacing() {
        assert_eq!(rest_after_words(" description  to   core ", 1), "to   core");
    }
}
