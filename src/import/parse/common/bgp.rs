//! `router bgp` of the Cisco-style dialects: the process, its neighbors and peer-groups
//! (IOS peer-groups, EOS `peer group`, NX-OS templates and nested neighbor blocks),
//! resolved into one neighbor per peer.

use super::neighbor_settings::{PeerKind, Settings};
use super::{define, parse_addr_mask, parse_asn, parse_prefix, reference, rest_after_words};
use crate::model::{
    AsRange, BgpAggregate, BgpNeighbor, BgpNetwork, BgpPeer, BgpProcess, DeviceConfig, RouteTarget,
    RtFamily, StructureKind, VrfVpn,
};
use ipnet::{IpNet, Ipv4Net};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};

/// Collects a BGP process while lines arrive; resolves peer-group inheritance at the end.
#[derive(Debug, Default)]
pub struct BgpBuilder {
    process: Option<BgpProcess>,
    groups: HashMap<String, Settings>,
    neighbors: Vec<(Option<String>, BgpPeer, u32, Settings)>,
    index: HashMap<(Option<String>, BgpPeer), usize>,
    /// Neighbors a later `no neighbor X` removed.
    removed: std::collections::HashSet<usize>,
    /// The lines that configured each neighbor: a removed neighbor's references go with it.
    lines: HashMap<usize, Vec<u32>>,
    no_default_ipv4: bool,
    /// Each VRF's route targets and VNI (IOS `vrf definition`, NX-OS `vrf context`, EOS
    /// `router bgp / vrf`, `interface Vxlan1`).
    vpn: Vec<VrfVpn>,
    /// VRF statements that change routes and that olav does not compute (`import map`,
    /// a route target with a route-map): (VRF, statement).
    vpn_unmodelled: Vec<(String, String)>,
    /// The VTEP's source interface.
    vtep_interface: Option<String>,
    /// EOS `peer-filter` definitions: their rules by sequence number.
    peer_filters: HashMap<String, Vec<(u32, AsRange)>>,
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

    /// `redistribute <protocol> … [route-map M]` and `aggregate-address`, every VRF (the
    /// checks' fields keep the default VRF's).
    pub fn origination(&mut self, vrf: Option<&str>, w: &[&str]) {
        let Some(p) = &mut self.process else {
            return;
        };
        let owned = vrf.map(str::to_owned);
        match w {
            ["redistribute", proto, rest @ ..] => {
                let rm = rest
                    .iter()
                    .position(|x| *x == "route-map")
                    .and_then(|i| rest.get(i + 1))
                    .map(|x| (*x).to_owned());
                // Options other than the route-map (OSPF `match external`, a metric)
                // change what is redistributed and how: not computed.
                let other = rest.iter().enumerate().any(|(i, x)| {
                    *x != "route-map"
                        && (i == 0 || rest[i - 1] != "route-map")
                        && x.parse::<u32>().is_err()
                });
                if other && !matches!(*proto, "ospf" | "eigrp" | "isis") {
                    p.routing
                        .unmodelled
                        .push((owned.clone(), format!("redistribute {}", rest.join(" "))));
                }
                let proto = if other && matches!(*proto, "ospf" | "eigrp" | "isis") {
                    format!("{proto} {}", rest.join(" "))
                } else {
                    (*proto).to_owned()
                };
                if vrf.is_none() {
                    p.redistribute.push((proto.clone(), rm.clone()));
                }
                p.routing.redistribute.push((owned, proto, rm));
            }
            ["aggregate-address", a, rest @ ..] => {
                let (prefix, opts) = match rest {
                    [m, opts @ ..] if !a.contains('/') => (parse_addr_mask(a, m), opts),
                    _ => (parse_prefix(a), rest),
                };
                let Some(prefix) = prefix.map(|n| n.trunc()) else {
                    return;
                };
                if vrf.is_none() {
                    p.aggregates.push(prefix);
                }
                p.routing.aggregates.push(BgpAggregate {
                    vrf: owned,
                    prefix,
                    summary_only: opts.contains(&"summary-only"),
                    other: opts
                        .iter()
                        .filter(|o| **o != "summary-only")
                        .map(|o| (*o).to_owned())
                        .collect(),
                });
            }
            _ => {}
        }
    }

    /// `maximum-paths N [ecmp M]` / `maximum-paths ibgp N`.
    /// `bgp bestpath as-path multipath-relax`.
    pub fn multipath_relax(&mut self, vrf: Option<&str>) {
        if let Some(p) = &mut self.process {
            p.routing.multipath_relax.push(vrf.map(str::to_owned));
        }
    }

    /// `maximum-paths [ibgp|eibgp] N`.
    pub fn maximum_paths(&mut self, vrf: Option<&str>, w: &[&str]) {
        let Some(p) = &mut self.process else {
            return;
        };
        let owned = vrf.map(str::to_owned);
        match w {
            ["ibgp", n, ..] => {
                if let Ok(n) = n.parse() {
                    p.routing.maximum_paths_ibgp.push((owned, n));
                }
            }
            // eBGP and iBGP paths together: olav keeps them apart, each up to N.
            ["eibgp", n, ..] => {
                if let Ok(n) = n.parse() {
                    p.routing.maximum_paths_ibgp.push((owned.clone(), n));
                    p.routing.maximum_paths.push((owned, n));
                }
            }
            [n, ..] => match n.parse() {
                Ok(n) => p.routing.maximum_paths.push((owned, n)),
                Err(_) => p
                    .routing
                    .unmodelled
                    .push((owned, format!("maximum-paths {}", w.join(" ")))),
            },
            [] => {}
        }
    }

    /// `distance bgp E I L` (IOS, EOS) / `distance E I L` (NX-OS); another form is not
    /// computed.
    pub fn distance(&mut self, vrf: Option<&str>, w: &[&str]) {
        let Some(p) = &mut self.process else {
            return;
        };
        let nums = match w {
            ["bgp", rest @ ..] => rest,
            rest => rest,
        };
        let parsed: Option<Vec<u32>> = nums.iter().map(|n| n.parse().ok()).collect();
        match parsed.as_deref() {
            Some([e, i, l]) => p
                .routing
                .distances
                .push((vrf.map(str::to_owned), *e, *i, *l)),
            _ => p
                .routing
                .unmodelled
                .push((vrf.map(str::to_owned), format!("distance {}", w.join(" ")))),
        }
    }

    fn vrf_vpn(&mut self, vrf: &str) -> &mut VrfVpn {
        let i = match self.vpn.iter().position(|v| v.vrf == vrf) {
            Some(i) => i,
            None => {
                self.vpn.push(VrfVpn {
                    vrf: vrf.to_owned(),
                    ..VrfVpn::default()
                });
                self.vpn.len() - 1
            }
        };
        &mut self.vpn[i]
    }

    /// A VRF's `route-target import|export|both [family] VALUE [family]` (IOS, NX-OS and
    /// EOS forms); `family` is what a statement naming none applies to. A route target
    /// given by a route-map, or unreadable, is kept as a statement olav does not compute.
    pub fn route_target(&mut self, vrf: &str, w: &[&str], family: RtFamily) {
        let (dirs, rest): (&[bool], &[&str]) = match w {
            ["route-target", "import", rest @ ..] => (&[true], rest),
            ["route-target", "export", rest @ ..] => (&[false], rest),
            ["route-target", "both", rest @ ..] => (&[true, false], rest),
            _ => (&[], &[]),
        };
        let mut fam = family;
        let mut value = None;
        let mut other = dirs.is_empty();
        for word in rest {
            match *word {
                "evpn" | "stitching" => fam = RtFamily::Evpn,
                "vpn-ipv4" | "ipv4" => fam = RtFamily::Vpn,
                // IPv6 routes are not computed; their route targets change no IPv4 route.
                "vpn-ipv6" | "ipv6" => return,
                "auto" => value = Some("auto".to_owned()),
                v if v.contains(':') => value = Some(v.to_owned()),
                _ => other = true,
            }
        }
        let Some(value) = value.filter(|_| !other) else {
            self.vpn_unmodelled.push((vrf.to_owned(), w.join(" ")));
            return;
        };
        let rt = RouteTarget { value, family: fam };
        let v = self.vrf_vpn(vrf);
        for import in dirs {
            let list = if *import {
                &mut v.import
            } else {
                &mut v.export
            };
            if !list.contains(&rt) {
                list.push(rt.clone());
            }
        }
    }

    /// A VRF statement that changes which routes it imports or exports and that olav does
    /// not compute (IOS `import map`, `export map`).
    pub fn vrf_unmodelled(&mut self, vrf: &str, w: &[&str]) {
        self.vpn_unmodelled.push((vrf.to_owned(), w.join(" ")));
    }

    /// A VRF's layer-3 VNI (EOS `vxlan vrf X vni N`, NX-OS `vrf context X / vni N`).
    pub fn vrf_vni(&mut self, dev: &mut DeviceConfig, vrf: &str, vni: &str, line: u32) {
        match vni.parse::<u32>() {
            Ok(n) => self.vrf_vpn(vrf).vni = Some(n),
            Err(_) => dev.warn(line, format!("vni: '{vni}' is not a number")),
        }
    }

    /// The VTEP's source interface (EOS `vxlan source-interface`, NX-OS `interface nve1 /
    /// source-interface`).
    pub fn vtep_interface(&mut self, name: &str) {
        self.vtep_interface = Some(name.to_owned());
    }

    /// A process statement that changes routes and that olav does not compute.
    pub fn unmodelled(&mut self, vrf: Option<&str>, w: &[&str]) {
        if let Some(p) = &mut self.process {
            p.routing
                .unmodelled
                .push((vrf.map(str::to_owned), w.join(" ")));
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
                route_map: w
                    .iter()
                    .position(|x| *x == "route-map")
                    .and_then(|i| w.get(i + 1))
                    .map(|x| (*x).to_owned()),
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

    /// EOS `peer-filter NAME` (defined, even with no rule).
    pub fn define_peer_filter(&mut self, name: &str) {
        self.peer_filters.entry(name.to_owned()).or_default();
    }

    /// A rule of EOS `peer-filter NAME`: `SEQ match as-range LOW[-HIGH] result
    /// accept|reject` (rules kept in sequence order).
    pub fn peer_filter_rule(&mut self, dev: &mut DeviceConfig, name: &str, w: &[&str], line: u32) {
        let rule = match w {
            [seq, "match", "as-range", range, "result", result] => {
                let (lo, hi) = range.split_once('-').unwrap_or((range, range));
                match (seq.parse::<u32>(), parse_asn(lo), parse_asn(hi), *result) {
                    (Ok(seq), Some(low), Some(high), "accept" | "reject") if low <= high => Some((
                        seq,
                        AsRange {
                            low,
                            high,
                            accept: *result == "accept",
                        },
                    )),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some((seq, rule)) = rule else {
            dev.warn(
                line,
                format!("peer-filter {name}: cannot read '{}'", w.join(" ")),
            );
            return;
        };
        // Rules apply in sequence order; a sequence written again replaces its rule.
        let rules = self.peer_filters.entry(name.to_owned()).or_default();
        rules.retain(|(s, _)| *s != seq);
        let pos = rules.partition_point(|(s, _)| *s < seq);
        rules.insert(pos, (seq, rule));
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
                ("peer-filter", Some(f), _) => {
                    s.peer_filter = Some((*f).to_owned());
                    i += 2;
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
                    s.peer_kind = PeerKind::parse(a);
                    if s.peer_asn.is_none() && s.peer_kind.is_none() {
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
            // An FRR unnumbered neighbor (`neighbor swp1 interface …`) is named by its
            // interface in later lines.
            Err(_) => match self
                .index
                .get(&(vrf.map(str::to_owned), BgpPeer::Interface(id.to_owned())))
            {
                Some(i) => Target::Neighbor(*i),
                None => Target::Group(id.to_owned()),
            },
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
        if let Target::Neighbor(i) = &target {
            self.lines.entry(*i).or_default().push(line);
        }
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
        // A policy of another address family filters other routes than IPv4 unicast: an
        // IPv6 one none olav computes; an EVPN or VPN one the routes a VRF imports.
        let family = af.unwrap_or("ipv4 unicast");
        if !matches!(family, "ipv4 unicast" | "ipv4")
            && matches!(
                attr,
                [
                    "route-map" | "prefix-list" | "distribute-list" | "filter-list",
                    _,
                    _
                ]
            )
        {
            let kind = match attr[0] {
                "route-map" => Some(StructureKind::RouteMap),
                "prefix-list" => Some(StructureKind::PrefixList),
                "distribute-list" => Some(StructureKind::AccessList),
                _ => None,
            };
            if let Some(kind) = kind {
                reference(
                    dev,
                    kind,
                    attr[1],
                    "bgp neighbor address-family policy",
                    line,
                );
            }
            if !family.starts_with("ipv6") {
                let p = format!("{} (address-family {family})", attr.join(" "));
                if !s.routing.family_policies.contains(&p) {
                    s.routing.family_policies.push(p);
                }
            }
            return true;
        }
        match attr {
            ["remote-as", kind @ ("external" | "internal"), ..] => {
                s.peer_asn = None;
                s.peer_kind = PeerKind::parse(kind);
            }
            ["remote-as", asn, ..] => match parse_asn(asn) {
                Some(a) => {
                    s.peer_asn = Some(a);
                    s.peer_kind = None;
                }
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
                // Not evaluated: said, never taken as no filter.
                let u = attr.join(" ");
                if !s.routing.unmodelled.contains(&u) {
                    s.routing.unmodelled.push(u);
                }
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
                    s.routing.local_as_no_prepend = rest.contains(&"no-prepend");
                    s.routing.local_as_replace_as = rest.contains(&"replace-as");
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
            ["route-reflector-client", ..] => s.routing.route_reflector_client = true,
            ["next-hop-self", ..] => s.routing.next_hop_self = true,
            ["allowas-in"] => s.routing.allowas_in = Some(3),
            ["allowas-in", n, ..] => s.routing.allowas_in = Some(n.parse().unwrap_or(3)),
            ["send-community", rest @ ..] => {
                s.routing.send_community = true;
                s.routing.send_ext_community |= matches!(rest, ["both" | "extended" | "all", ..]);
            }
            ["weight", n] => match n.parse() {
                Ok(n) => s.routing.weight = Some(n),
                Err(_) => dev.warn(line, format!("neighbor {id} weight: '{n}' is not a number")),
            },
            ["default-originate"] => s.routing.default_originate = true,
            ["remove-private-as", rest @ ..] => {
                s.routing.remove_private_as = Some(rest.iter().map(|x| (*x).to_owned()).collect())
            }
            ["disable-peer-as-check"] => s.routing.disable_peer_as_check = true,
            ["password", ..] => s.routing.password = true,
            ["default-originate"
            | "as-override"
            | "filter-list"
            | "unsuppress-map"
            | "attribute-unchanged"
            | "next-hop-unchanged"
            | "next-hop-peer"
            | "as-path"
            | "advertise-map"
            | "weight"
            | "local-v6-addr"
            | "next-hop-third-party", ..] => {
                let u = attr.join(" ");
                if !s.routing.unmodelled.contains(&u) {
                    s.routing.unmodelled.push(u);
                }
            }
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
            ["route-reflector-client", ..] => s.routing.route_reflector_client = false,
            ["next-hop-self", ..] => s.routing.next_hop_self = false,
            ["allowas-in", ..] => s.routing.allowas_in = None,
            ["send-community", ..] => {
                s.routing.send_community = false;
                s.routing.send_ext_community = false;
            }
            ["prefix-list", _, dir] if *dir == "out" => s.prefix_list_out = None,
            ["prefix-list", _, _] => s.prefix_list_in = None,
            ["route-map", _, dir] if *dir == "out" => s.route_map_out = None,
            ["route-map", _, _] => s.route_map_in = None,
            ["remote-as", ..] => {
                s.peer_asn = None;
                s.peer_kind = None;
            }
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
        if af == "ipv4 unicast" {
            s.ipv4_deactivated = true;
        }
    }

    /// Resolves inheritance and stores the process in `dev`.
    pub fn finish(mut self, dev: &mut DeviceConfig) {
        let Some(mut process) = self.process.take() else {
            return;
        };
        for (vrf, w) in std::mem::take(&mut self.vpn_unmodelled) {
            process.routing.unmodelled.push((Some(vrf), w));
        }
        process.routing.vrf_vpn = std::mem::take(&mut self.vpn);
        process.routing.vtep_interface = self.vtep_interface.take();
        for (i, (vrf, peer, line, mut s)) in self.neighbors.into_iter().enumerate() {
            if self.removed.contains(&i) {
                if let Some(gone) = self.lines.get(&i) {
                    dev.references.retain(|r| !gone.contains(&r.line));
                }
                continue;
            }
            if let Some(g) = s.peer_group.clone() {
                if let Some(gs) = self.groups.get(&g) {
                    s.inherit(gs);
                }
            }
            // IOS, EOS and FRR activate IPv4 unicast for every neighbor unless told not to
            // (an IPv6 activation leaves it on).
            if !self.no_default_ipv4
                && vrf.is_none()
                && !s.ipv4_deactivated
                && s.address_families.iter().all(|a| a.starts_with("ipv6"))
            {
                s.address_families.push("ipv4 unicast".to_owned());
            }
            let mut n = BgpNeighbor::new(vrf, peer, line);
            n.peer_asn = s.peer_asn;
            if let (None, Some(kind)) = (s.peer_asn, s.peer_kind) {
                n.peer_filter = Some(kind.filter(process.local_as));
            }
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
            n.routing = s.routing;
            if let Some(f) = &s.peer_filter {
                let rules = self.peer_filters.get(f);
                if rules.is_none() {
                    dev.warn(
                        line,
                        format!("bgp listen range {}: peer-filter {f} is not defined; no peer is accepted", n.peer),
                    );
                }
                n.peer_filter = Some(
                    rules
                        .map(|r| r.iter().map(|(_, a)| *a).collect())
                        .unwrap_or_default(),
                );
            }
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

#[cfg(test)]
mod tests {
    use super::interface_range;

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
}
