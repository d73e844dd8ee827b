//! IOS-XR `router bgp`: neighbors are blocks (`neighbor A` with `remote-as`, `use
//! neighbor-group G`, and an `address-family` block holding its `route-policy X in|out`),
//! `neighbor-group` blocks hold the same lines for the neighbors that use them (the
//! neighbor's own lines win), and each `vrf X` block repeats the process's shape with its
//! own `rd`, address family and neighbors.
//!
//! IOS-XR sends communities to iBGP peers without being told and to eBGP peers only with
//! `send-community-ebgp` (extended ones: `send-extended-community-ebgp`): the parser sets
//! the neighbor's flags so.

use super::igp::policy_after;
use super::tree::Node;
use crate::import::parse::common::{define, parse_asn, parse_prefix, reference};
use crate::model::{
    BgpAggregate, BgpNeighbor, BgpNetwork, BgpPeer, BgpProcess, DeviceConfig, StructureKind,
};
use std::collections::HashMap;

/// Reads `router bgp ASN`.
pub fn read(dev: &mut DeviceConfig, asn: &str, n: &Node) {
    let mut bgp = dev.bgp.take().unwrap_or_default();
    bgp.local_as = parse_asn(asn);
    bgp.line = n.line;
    let groups: HashMap<&str, &Node> = n
        .children
        .iter()
        .filter_map(|c| {
            let mut w = c.text.split_whitespace();
            (w.next() == Some("neighbor-group"))
                .then(|| w.next())
                .flatten()
                .map(|g| (g, c))
        })
        .collect();
    for (g, c) in &groups {
        define(dev, StructureKind::PeerGroup, g, c.line);
    }
    let mut b = Builder {
        dev,
        bgp: &mut bgp,
        groups: &groups,
    };
    b.instance(None, n);
    let local = bgp.local_as;
    for nb in bgp.neighbors.iter_mut() {
        let ibgp = nb.peer_asn.is_some() && nb.peer_asn == local;
        nb.routing.send_community |= ibgp;
        nb.routing.send_ext_community |= ibgp;
    }
    dev.bgp = Some(bgp);
}

struct Builder<'a, 'g> {
    dev: &'a mut DeviceConfig,
    bgp: &'a mut BgpProcess,
    groups: &'a HashMap<&'g str, &'g Node>,
}

impl Builder<'_, '_> {
    /// The process (`vrf` None) or one `vrf` block.
    fn instance(&mut self, vrf: Option<&str>, n: &Node) {
        for c in &n.children {
            match c.words().as_slice() {
                ["bgp", "router-id", r] if vrf.is_none() => self.bgp.router_id = r.parse().ok(),
                ["address-family", "ipv4", "unicast"] => self.family(vrf, c),
                ["neighbor", a] => self.neighbor(vrf, a, c),
                ["vrf", v] if vrf.is_none() => self.instance(Some(v), c),
                ["rd", ..]
                | ["bgp", ..]
                | ["neighbor-group", ..]
                | ["address-family", ..]
                | ["timers", ..]
                | ["nsr", ..]
                | ["ibgp", ..] => {}
                _ => self.unmodelled(vrf, &c.text),
            }
        }
    }

    fn unmodelled(&mut self, vrf: Option<&str>, text: &str) {
        self.bgp
            .routing
            .unmodelled
            .push((vrf.map(str::to_owned), text.to_owned()));
    }

    /// `address-family ipv4 unicast` of the process or a VRF.
    fn family(&mut self, vrf: Option<&str>, n: &Node) {
        let owned = vrf.map(str::to_owned);
        for c in &n.children {
            let w = c.words();
            match w.as_slice() {
                ["network", p, rest @ ..] => {
                    let rm = policy_after(rest);
                    if let Some(name) = &rm {
                        reference(
                            self.dev,
                            StructureKind::RouteMap,
                            name,
                            "bgp network route-policy",
                            c.line,
                        );
                    }
                    if let Some(prefix) = parse_prefix(p) {
                        self.bgp.networks.push(BgpNetwork {
                            vrf: owned.clone(),
                            prefix: prefix.trunc(),
                            line: c.line,
                            route_map: rm,
                        });
                    }
                }
                ["aggregate-address", p, opts @ ..] => {
                    let Some(prefix) = parse_prefix(p) else {
                        continue;
                    };
                    if vrf.is_none() {
                        self.bgp.aggregates.push(prefix);
                    }
                    self.bgp.routing.aggregates.push(BgpAggregate {
                        vrf: owned.clone(),
                        prefix: prefix.trunc(),
                        summary_only: opts.contains(&"summary-only"),
                        other: opts
                            .iter()
                            .filter(|o| **o != "summary-only")
                            .map(|o| (*o).to_owned())
                            .collect(),
                    });
                }
                ["redistribute", proto, rest @ ..] => {
                    // `redistribute ospf 1 route-policy X`: the process id is part of it.
                    let protocol = match rest.first() {
                        Some(id) if *id != "route-policy" && *id != "metric" => {
                            format!("{proto} {id}")
                        }
                        _ => (*proto).to_owned(),
                    };
                    let rm = policy_after(rest);
                    if let Some(name) = &rm {
                        reference(
                            self.dev,
                            StructureKind::RouteMap,
                            name,
                            "bgp redistribute route-policy",
                            c.line,
                        );
                    }
                    if vrf.is_none() {
                        self.bgp.redistribute.push((protocol.clone(), rm.clone()));
                    }
                    self.bgp
                        .routing
                        .redistribute
                        .push((owned.clone(), protocol, rm));
                }
                ["maximum-paths", "ebgp", m, ..] => {
                    if let Ok(m) = m.parse() {
                        self.bgp.routing.maximum_paths.push((owned.clone(), m));
                    }
                }
                ["maximum-paths", "ibgp", m, ..] => {
                    if let Ok(m) = m.parse() {
                        self.bgp.routing.maximum_paths_ibgp.push((owned.clone(), m));
                    }
                }
                ["distance", "bgp", e, i, l] => {
                    if let (Ok(e), Ok(i), Ok(l)) = (e.parse(), i.parse(), l.parse()) {
                        self.bgp.routing.distances.push((owned.clone(), e, i, l));
                    }
                }
                ["additional-paths", ..] | ["label", ..] | ["bgp", "bestpath", ..] => {}
                _ => self.unmodelled(vrf, &c.text),
            }
        }
    }

    fn neighbor(&mut self, vrf: Option<&str>, addr: &str, n: &Node) {
        let peer = match addr.parse() {
            Ok(a) => BgpPeer::Address(a),
            Err(_) => match parse_prefix(addr) {
                Some(p) => BgpPeer::ListenRange(p),
                None => {
                    self.dev
                        .warn(n.line, format!("bgp: cannot read the neighbor '{addr}'"));
                    return;
                }
            },
        };
        let mut nb = BgpNeighbor::new(vrf.map(str::to_owned), peer, n.line);
        let group = n.children.iter().find_map(|c| match c.words().as_slice() {
            ["use", "neighbor-group", g] => Some((*g).to_owned()),
            _ => None,
        });
        if let Some(g) = &group {
            reference(
                self.dev,
                StructureKind::PeerGroup,
                g,
                "bgp use neighbor-group",
                n.line,
            );
            nb.peer_group = Some(g.clone());
            if let Some(block) = self.groups.get(g.as_str()) {
                let block = *block;
                self.settings(&mut nb, block);
            }
        }
        self.settings(&mut nb, n);
        self.bgp.neighbors.push(nb);
    }

    /// The lines of a neighbor or neighbor-group block, applied to `nb`.
    fn settings(&mut self, nb: &mut BgpNeighbor, n: &Node) {
        for c in &n.children {
            match c.words().as_slice() {
                ["remote-as", a] => nb.peer_asn = parse_asn(a),
                ["description", ..] => {
                    nb.description =
                        Some(crate::import::parse::common::rest_after_words(&c.text, 1).to_owned());
                }
                ["update-source", i] => nb.update_source = Some((*i).to_owned()),
                ["shutdown"] => nb.shutdown = true,
                ["ebgp-multihop", rest @ ..] => {
                    nb.ebgp_multihop =
                        Some(rest.first().and_then(|t| t.parse().ok()).unwrap_or(255));
                }
                ["local-as", a, rest @ ..] => {
                    nb.local_as = parse_asn(a);
                    nb.routing.local_as_no_prepend = rest.contains(&"no-prepend");
                    nb.routing.local_as_replace_as = rest.contains(&"replace-as");
                    nb.dual_as = rest.contains(&"dual-as");
                }
                ["password", ..] => nb.routing.password = true,
                ["address-family", af @ ..] => {
                    // `vpnv4 unicast` is the family IOS calls `vpnv4`.
                    let family = match af {
                        ["vpnv4", "unicast"] => "vpnv4".to_owned(),
                        _ => af.join(" "),
                    };
                    if !nb.address_families.contains(&family) {
                        nb.address_families.push(family.clone());
                    }
                    self.family_settings(nb, &family, c);
                }
                ["use", "neighbor-group", _] => {}
                ["use", ..] => nb.routing.unmodelled.push(c.text.clone()),
                ["timers", ..] | ["bfd", ..] | ["session-open-mode", ..] | ["ttl-security"] => {}
                _ => {}
            }
        }
    }

    fn family_settings(&mut self, nb: &mut BgpNeighbor, family: &str, n: &Node) {
        let ipv4 = family == "ipv4 unicast";
        for c in &n.children {
            match c.words().as_slice() {
                ["route-policy", p, dir] => {
                    reference(
                        self.dev,
                        StructureKind::RouteMap,
                        p,
                        "bgp neighbor route-policy",
                        c.line,
                    );
                    if !ipv4 {
                        nb.routing
                            .family_policies
                            .push(format!("route-policy {p} {dir} ({family})"));
                        continue;
                    }
                    match *dir {
                        "in" => nb.route_map_in = Some((*p).to_owned()),
                        "out" => nb.route_map_out = Some((*p).to_owned()),
                        _ => {}
                    }
                }
                ["next-hop-self", ..] if ipv4 => nb.routing.next_hop_self = true,
                ["route-reflector-client"] if ipv4 || family == "vpnv4" => {
                    nb.routing.route_reflector_client = true;
                }
                ["send-community-ebgp"] => nb.routing.send_community = true,
                ["send-extended-community-ebgp"] => nb.routing.send_ext_community = true,
                ["remove-private-AS", rest @ ..] | ["remove-private-as", rest @ ..] if ipv4 => {
                    nb.routing.remove_private_as =
                        Some(rest.iter().map(|r| (*r).to_owned()).collect());
                }
                ["allowas-in", rest @ ..] if ipv4 => {
                    nb.routing.allowas_in =
                        Some(rest.first().and_then(|t| t.parse().ok()).unwrap_or(3));
                }
                ["default-originate", ..] if ipv4 => {
                    nb.routing.default_originate = true;
                }
                ["soft-reconfiguration", ..] | ["maximum-prefix", ..] => {}
                _ if ipv4 => nb.routing.unmodelled.push(c.text.clone()),
                _ => {}
            }
        }
    }
}
