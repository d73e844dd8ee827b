//! Junos `protocols bgp`: settings at the global, group and neighbor levels, resolved
//! neighbor over group over global (the most specific level that sets one wins).

use super::policy::policy_names;
use super::statements::Statement;
use super::{parse_net, Junos};
use crate::import::parse::common::{parse_asn, reference};
use crate::model::{AddressKind, BgpNeighbor, BgpPeer, BgpProcess, DeviceConfig, StructureKind};
use ipnet::IpNet;
use std::collections::HashMap;
use std::net::IpAddr;

/// An import or export policy chain set at one BGP level.
#[derive(Debug, Default, Clone)]
pub(super) struct Chain {
    names: Vec<String>,
    /// Set by an explicit statement: inherited (group) statements no longer add to it.
    explicit: bool,
}

impl Chain {
    fn push(&mut self, names: &[&str], inherited: bool) {
        if !inherited && !self.explicit {
            self.names.clear();
            self.explicit = true;
        }
        self.names.extend(names.iter().map(|n| (*n).to_owned()));
    }
}

/// BGP settings at one level (`protocols bgp`, a group, a neighbor).
#[derive(Debug, Default, Clone)]
struct Level {
    internal: Option<bool>,
    peer_as: Option<u32>,
    local_as: Option<(u32, bool)>,
    local_address: Option<IpAddr>,
    import: Chain,
    export: Chain,
    multihop: Option<u32>,
    description: Option<String>,
    families: Vec<String>,
    shutdown: bool,
    /// `cluster ID`: the group's neighbors are route-reflector clients.
    cluster: bool,
    /// `multipath`.
    multipath: bool,
    /// `advertise-peer-as`.
    advertise_peer_as: bool,
    /// `advertise-inactive`.
    advertise_inactive: bool,
    /// `authentication-key`.
    password: bool,
    /// `family inet unicast loops N`: the own AS may appear N − 1 times.
    loops: Option<u32>,
    /// `remove-private [all] [replace]`.
    remove_private: Option<Vec<String>>,
    /// Statements that change routes and that olav does not compute.
    unmodelled: Vec<String>,
}

impl Level {
    /// The settings in force: the most specific level that sets a value wins.
    fn resolve(levels: [&Level; 3]) -> Level {
        let pick = |f: &dyn Fn(&Level) -> bool| levels.iter().rev().copied().find(|l| f(l));
        Level {
            internal: levels.iter().rev().find_map(|l| l.internal),
            peer_as: levels.iter().rev().find_map(|l| l.peer_as),
            local_as: levels.iter().rev().find_map(|l| l.local_as),
            local_address: levels.iter().rev().find_map(|l| l.local_address),
            import: pick(&|l| !l.import.names.is_empty())
                .map(|l| l.import.clone())
                .unwrap_or_default(),
            export: pick(&|l| !l.export.names.is_empty())
                .map(|l| l.export.clone())
                .unwrap_or_default(),
            multihop: levels.iter().rev().find_map(|l| l.multihop),
            description: levels.iter().rev().find_map(|l| l.description.clone()),
            families: pick(&|l| !l.families.is_empty())
                .map(|l| l.families.clone())
                .unwrap_or_default(),
            shutdown: levels.iter().any(|l| l.shutdown),
            cluster: levels.iter().any(|l| l.cluster),
            multipath: levels.iter().any(|l| l.multipath),
            advertise_peer_as: levels.iter().any(|l| l.advertise_peer_as),
            advertise_inactive: levels.iter().any(|l| l.advertise_inactive),
            password: levels.iter().any(|l| l.password),
            loops: levels.iter().rev().find_map(|l| l.loops),
            remove_private: levels.iter().rev().find_map(|l| l.remove_private.clone()),
            unmodelled: levels.iter().flat_map(|l| l.unmodelled.clone()).collect(),
        }
    }
}

/// A BGP group.
struct Group {
    name: String,
    level: Level,
    neighbors: Vec<(IpAddr, Level, u32)>,
    index: HashMap<IpAddr, usize>,
    allows: Vec<(IpNet, u32)>,
}

/// `protocols bgp` of one routing instance (None: the master instance).
pub(super) struct BgpInstance {
    vrf: Option<String>,
    global: Level,
    groups: Vec<Group>,
}

/// A Junos address-family name as olav names address families (`ipv4 unicast`, `vpnv4`).
pub(super) fn family_name(family: &str, safi: Option<&str>) -> String {
    let afi = match family {
        "inet" => "ipv4",
        "inet6" => "ipv6",
        "inet-vpn" => return "vpnv4".into(),
        "inet6-vpn" => return "vpnv6".into(),
        "evpn" | "l2vpn" => return family.into(),
        other => return safi.map_or_else(|| other.to_owned(), |s| format!("{other} {s}")),
    };
    match safi {
        Some("multicast") => format!("{afi} multicast"),
        Some("labeled-unicast") => format!("{afi} labeled-unicast"),
        Some("flow") => format!("{afi} flowspec"),
        _ => format!("{afi} unicast"),
    }
}

/// One BGP statement at a level (the words after `protocols bgp`, `group G` or
/// `neighbor X`).
fn bgp_level(l: &mut Level, dev: &mut DeviceConfig, w: &[&str], st: &Statement) {
    let line = st.line;
    match w {
        ["type", "internal"] => l.internal = Some(true),
        ["type", "external"] => l.internal = Some(false),
        ["peer-as", a] => match parse_asn(a) {
            Some(a) => l.peer_as = Some(a),
            None => dev.warn(line, format!("bgp peer-as: '{a}' is not an AS number")),
        },
        // `local-as N [private | alias | no-prepend-global-as | loops N]`; with `alias`
        // either AS is accepted, as Cisco's `dual-as`.
        ["local-as", a, rest @ ..] => match parse_asn(a) {
            Some(a) => l.local_as = Some((a, rest.contains(&"alias"))),
            None => dev.warn(line, format!("bgp local-as: '{a}' is not an AS number")),
        },
        ["local-address", a] => match a.parse::<IpAddr>() {
            Ok(ip) => l.local_address = Some(ip),
            Err(_) => dev.warn(line, format!("bgp local-address: '{a}' is not an address")),
        },
        [dir @ ("import" | "export"), ps @ ..] => {
            let names = policy_names(ps, st);
            let context = if *dir == "import" {
                "bgp import policy-statement"
            } else {
                "bgp export policy-statement"
            };
            for (p, at) in &names {
                reference(dev, StructureKind::PolicyStatement, p, context, *at);
            }
            let names: Vec<&str> = names.into_iter().map(|(p, _)| p).collect();
            let chain = if *dir == "import" {
                &mut l.import
            } else {
                &mut l.export
            };
            chain.push(&names, st.inherited);
        }
        // Junos' multihop TTL is 64 unless one is given.
        ["multihop", "ttl", ttl, ..] => match ttl.parse() {
            Ok(t) => l.multihop = Some(t),
            Err(_) => dev.warn(line, format!("bgp multihop ttl: '{ttl}' is not a TTL")),
        },
        ["multihop", ..] => {
            l.multihop.get_or_insert(64);
        }
        ["description", d @ ..] => l.description = Some(d.join(" ")),
        ["family", family, rest @ ..] => {
            if let Some(i) = rest.iter().position(|x| *x == "loops") {
                l.loops = rest.get(i + 1).and_then(|n| n.parse().ok());
            }
            let name = family_name(family, rest.first().copied());
            if !l.families.contains(&name) {
                l.families.push(name);
            }
        }
        ["shutdown", ..] => l.shutdown = true,
        ["cluster", ..] => l.cluster = true,
        ["multipath", ..] => l.multipath = true,
        ["advertise-peer-as"] => l.advertise_peer_as = true,
        ["advertise-inactive"] => l.advertise_inactive = true,
        ["authentication-key", ..] => l.password = true,
        ["remove-private", rest @ ..] => {
            l.remove_private = Some(rest.iter().map(|x| (*x).to_owned()).collect())
        }
        ["local-preference"
        | "metric-out"
        | "as-override"
        | "advertise-external"
        | "preference"
        | "accept-remote-nexthop"
        | "keep"
        | "no-advertise-peer-as"
        | "default-originate", ..] => {
            let u = w.join(" ");
            if !l.unmodelled.contains(&u) {
                l.unmodelled.push(u);
            }
        }
        // `passive` only waits for the peer to open the session; it changes nothing olav
        // checks. Other statements (timers, authentication, BFD, …) are not modelled.
        _ => {}
    }
}

impl Junos {
    /// A statement under `protocols bgp` (`w`: the words after `bgp`).
    pub(super) fn bgp(&mut self, inst: Option<&str>, w: &[&str], st: &Statement) {
        let line = st.line;
        // The line of the `bgp` word itself.
        let bgp_at = st
            .word_lines
            .get(st.words.len().saturating_sub(w.len() + 1))
            .copied()
            .unwrap_or(line);
        self.bgp_line.get_or_insert(bgp_at);
        let vrf = inst.map(str::to_owned);
        let bi = match self.bgp.iter().position(|b| b.vrf == vrf) {
            Some(i) => i,
            None => {
                self.bgp.push(BgpInstance {
                    vrf,
                    global: Level::default(),
                    groups: Vec::new(),
                });
                self.bgp.len() - 1
            }
        };
        let dev = &mut self.dev;
        let bi = &mut self.bgp[bi];
        match w {
            ["group", g, rest @ ..] => {
                let gi = match bi.groups.iter().position(|x| x.name == *g) {
                    Some(i) => i,
                    None => {
                        bi.groups.push(Group {
                            name: (*g).to_owned(),
                            level: Level::default(),
                            neighbors: Vec::new(),
                            index: HashMap::new(),
                            allows: Vec::new(),
                        });
                        bi.groups.len() - 1
                    }
                };
                let group = &mut bi.groups[gi];
                match rest {
                    ["neighbor", addr, tail @ ..] => {
                        let at = st.line_of(&rest[1..]);
                        let Ok(ip) = addr.parse::<IpAddr>() else {
                            dev.warn(
                                at,
                                format!("bgp group {g} neighbor: '{addr}' is not an address"),
                            );
                            return;
                        };
                        let ni = match group.index.get(&ip) {
                            Some(i) => *i,
                            None => {
                                group.index.insert(ip, group.neighbors.len());
                                group.neighbors.push((ip, Level::default(), at));
                                group.neighbors.len() - 1
                            }
                        };
                        bgp_level(&mut group.neighbors[ni].1, dev, tail, st);
                    }
                    ["allow", ranges @ ..] => {
                        for (k, r) in ranges.iter().enumerate() {
                            let at = st.line_of(&ranges[k..]);
                            let range = if *r == "all" {
                                Some(IpNet::V4(ipnet::Ipv4Net::default()))
                            } else {
                                parse_net(r).map(|n| n.trunc())
                            };
                            match range {
                                Some(n) => {
                                    if !group.allows.iter().any(|(x, _)| *x == n) {
                                        group.allows.push((n, at));
                                    }
                                }
                                None => {
                                    dev.warn(at, format!("bgp group {g} allow: cannot read '{r}'"))
                                }
                            }
                        }
                    }
                    tail => bgp_level(&mut group.level, dev, tail, st),
                }
            }
            tail => bgp_level(&mut bi.global, dev, tail, st),
        }
    }

    /// A session's source under `system default-address-selection` (the lab
    /// `junos_default_address_selection`, whose devices show it): an eBGP single-hop
    /// session still leaves from the interface facing the peer; an iBGP or multihop one in
    /// the master instance from the default address, `lo0.0`'s primary address of the
    /// peer's family, else from the primary interface's, which the device picks (olav reads
    /// no `primary` interface flag) — then the source is unknown, not guessed, and the
    /// routes over the session are marked as not computed.
    fn default_source(&self, n: &mut BgpNeighbor, internal: bool) {
        let ibgp = internal
            || n.peer_asn
                .is_some_and(|p| Some(p) == n.local_as.or(self.asn));
        let BgpPeer::Address(peer) = n.peer else {
            return;
        };
        if n.vrf.is_some() || !(ibgp || n.ebgp_multihop.is_some()) {
            return;
        }
        let loopback = self
            .dev
            .interfaces
            .iter()
            .find(|i| i.name == "lo0.0" && i.vrf.is_none())
            .and_then(|i| {
                i.addresses.iter().find(|a| {
                    a.kind == AddressKind::Primary
                        && a.address.addr().is_ipv4() == peer.is_ipv4()
                        && !a.address.addr().is_loopback()
                })
            });
        match loopback {
            Some(a) => {
                n.local_address = Some(a.address.addr());
                n.update_source = Some("lo0.0".into());
            }
            None => {
                n.local_address_unknown = true;
                n.routing.unmodelled.push(
                    "source address (system default-address-selection, no loopback address: the primary interface's)".into(),
                );
            }
        }
    }

    pub(super) fn finish_bgp(&mut self) {
        let Some(line) = self.bgp_line else { return };
        let mut process = BgpProcess {
            local_as: self.asn,
            router_id: self.router_id,
            confederation_id: self.confederation,
            confederation_peers: self
                .confederation_members
                .iter()
                .copied()
                .filter(|m| Some(*m) != self.asn)
                .collect(),
            line,
            ..BgpProcess::default()
        };
        process.routing.unmodelled = std::mem::take(&mut self.bgp_unmodelled);
        for bi in &self.bgp {
            let instance_as = bi
                .vrf
                .as_deref()
                .and_then(|v| self.instances.iter().find(|r| r.name == v))
                .and_then(|r| r.asn);
            let empty = Level::default();
            for g in &bi.groups {
                let peers = g
                    .neighbors
                    .iter()
                    .map(|(ip, l, line)| (BgpPeer::Address(*ip), l, *line))
                    .chain(
                        g.allows
                            .iter()
                            .map(|(n, line)| (BgpPeer::ListenRange(*n), &empty, *line)),
                    );
                for (peer, own, line) in peers {
                    let eff = Level::resolve([&bi.global, &g.level, own]);
                    let mut n = BgpNeighbor::new(bi.vrf.clone(), peer, line);
                    // An instance with an AS of its own presents it, like a local-as.
                    n.local_as = eff
                        .local_as
                        .map(|(a, _)| a)
                        .or(instance_as.filter(|a| Some(*a) != self.asn));
                    n.dual_as = eff.local_as.is_some_and(|(_, alias)| alias);
                    n.peer_asn = if eff.internal == Some(true) {
                        n.local_as.or(self.asn)
                    } else {
                        eff.peer_as
                    };
                    n.peer_group = Some(g.name.clone());
                    n.description = eff.description;
                    n.local_address = eff.local_address;
                    n.update_source = eff
                        .local_address
                        .and_then(|ip| self.owner_of(ip, bi.vrf.as_deref()));
                    n.route_map_in = eff.import.names.first().cloned();
                    n.route_map_out = eff.export.names.first().cloned();
                    n.routing.import_chain = eff.import.names.clone();
                    n.routing.export_chain = eff.export.names.clone();
                    n.routing.route_reflector_client = eff.cluster && eff.internal == Some(true);
                    n.routing.unmodelled = eff.unmodelled.clone();
                    n.routing.advertise_peer_as = eff.advertise_peer_as;
                    n.routing.advertise_inactive = eff.advertise_inactive;
                    n.routing.password = eff.password;
                    n.routing.allowas_in = eff.loops.map(|l| l.saturating_sub(1));
                    n.routing.remove_private_as = eff.remove_private.clone();
                    if eff.multipath {
                        process.routing.maximum_paths.push((bi.vrf.clone(), 64));
                        process
                            .routing
                            .maximum_paths_ibgp
                            .push((bi.vrf.clone(), 64));
                    }
                    n.ebgp_multihop = eff.multihop;
                    if n.local_address.is_none() && self.default_address_selection {
                        self.default_source(&mut n, eff.internal == Some(true));
                    }
                    n.shutdown = eff.shutdown;
                    n.address_families = if eff.families.is_empty() {
                        vec!["ipv4 unicast".to_owned()]
                    } else {
                        eff.families
                    };
                    process.neighbors.push(n);
                }
            }
        }
        // A Junos export policy can announce any active route, static and direct ones
        // included (what `redistribute static` / `connected` make candidates on IOS);
        // each neighbor's export chain then decides.
        if process
            .neighbors
            .iter()
            .any(|n| n.vrf.is_none() && n.route_map_out.is_some())
        {
            process.redistribute = vec![("static".into(), None), ("connected".into(), None)];
        }
        self.dev.bgp = Some(process);
    }
}

#[cfg(test)]
mod tests {
    use super::Chain;

    #[test]
    fn an_explicit_chain_replaces_an_inherited_one_at_its_level() {
        // Inherited statements come first (`statements::read` orders them so).
        let mut c = Chain::default();
        c.push(&["G1"], true);
        c.push(&["G2"], true);
        assert_eq!(c.names, ["G1", "G2"]);
        c.push(&["A"], false);
        c.push(&["B"], false);
        assert_eq!(c.names, ["A", "B"]);
    }
}
