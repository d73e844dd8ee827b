//! The context walk for Cisco-style indented configuration, shared by the IOS/IOS-XE,
//! EOS and NX-OS modules. Their syntax differs in details (mask vs prefix length,
//! `peer-group` vs `peer group`, NX-OS's nested `neighbor` blocks); the walk accepts
//! each dialect's form, so a vendor module only adds what is truly its own.

use super::common::{self, BgpBuilder, Scope, StructureBlock};
use super::lines::{ConfigLines, ContextStack};
use crate::model::{DeviceConfig, Interface, NextHopResolution, RtFamily, StructureKind};

/// What the dialects do differently inside the shared walk.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dialect {
    /// Whether `interface VlanN` starts administratively down until `no shutdown` (NX-OS:
    /// its SVIs are shut by default; IOS and EOS bring them up).
    pub svi_shut_by_default: bool,
    /// FRR's forms (`router bgp N vrf V`, `router ospf [vrf V]`, `interface X vrf V`,
    /// `bgp community-list`, `vrf X` blocks, every `ip address` of an interface kept).
    pub frr: bool,
}

#[derive(Debug, Clone)]
enum Ctx {
    Interface(usize),
    /// A first-hop redundancy group block under an interface (NX-OS `hsrp 10` / `vrrp 10`,
    /// IOS-XE `vrrp 10 address-family ipv4`): its `ip` / `address` lines are virtual addresses.
    Fhrp(usize),
    Bgp {
        vrf: Option<String>,
        af: Option<String>,
    },
    BgpNeighbor {
        vrf: Option<String>,
        af: Option<String>,
        id: String,
    },
    RouteMap,
    PrefixList(String),
    /// An IPv4 ACL block: its entries are packet-filter lines.
    Acl {
        name: String,
        standard: bool,
    },
    /// EOS `peer-filter NAME`: the AS ranges a listen range accepts.
    PeerFilter(String),
    Ospf(String),
    Eigrp(common::eigrp::Block),
    Isis(String),
    VrfContext(String),
    /// IOS `vrf definition X` / `ip vrf X`: its route targets leak routes between VRFs.
    VrfDefinition(String),
    /// An address family of a VRF definition or context (`ipv4`: its route targets count).
    VrfAf {
        vrf: String,
        ipv4: bool,
    },
    Line,
    /// A recognised block whose body olav does not model.
    Opaque,
    /// An unknown block: its body counts as unknown too.
    Unknown,
}

/// Parses a Cisco-style configuration into the device model.
pub fn parse(text: &str, dialect: Dialect) -> DeviceConfig {
    let mut dev = DeviceConfig::default();
    let mut bgp = BgpBuilder::default();
    let mut stack: ContextStack<Ctx> = ContextStack::default();
    let mut lines = ConfigLines::new(text);
    let mut words: Vec<&str> = Vec::with_capacity(16);
    let mut unknown = 0u32;
    // Interfaces by name: a config with tens of thousands of them stays linear.
    let mut if_index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for line in lines.by_ref() {
        words.clear();
        words.extend(line.text.split_ascii_whitespace());
        stack.enter_line(line.indent);
        let next = match stack.top() {
            None => top_level(&mut dev, &mut bgp, &mut if_index, dialect, &words, line.no),
            Some(ctx) => {
                let ctx = ctx.clone();
                nested(
                    &mut dev, &mut bgp, &ctx, dialect, &words, line.text, line.no,
                )
            }
        };
        match next {
            Step::Push(ctx) => stack.push(line.indent, ctx),
            Step::Known => {}
            Step::Unknown => unknown += 1,
            Step::UnknownBlock => {
                unknown += 1;
                stack.push(line.indent, Ctx::Unknown);
            }
        }
    }
    bgp.finish(&mut dev);
    common::ospf::finish(&mut dev);
    dev.judge_static_routes(|_| NextHopResolution::Recursive);
    dev.lines_total = lines.lines_read();
    dev.lines_unrecognised = unknown;
    dev
}

enum Step {
    Push(Ctx),
    Known,
    Unknown,
    UnknownBlock,
}

/// A new interface as the dialect brings it up: NX-OS SVIs start shut.
fn new_interface(name: String, no: u32, dialect: Dialect) -> Interface {
    let mut i = Interface::new(name, no);
    if dialect.svi_shut_by_default && i.svi_vlan().is_some() {
        i.admin_up = false;
    }
    i
}

fn top_level(
    dev: &mut DeviceConfig,
    bgp: &mut BgpBuilder,
    if_index: &mut std::collections::HashMap<String, usize>,
    dialect: Dialect,
    w: &[&str],
    no: u32,
) -> Step {
    match w {
        ["hostname", name, ..] => {
            dev.hostname = Some(name.trim_matches('"').to_owned());
            Step::Known
        }
        ["version", v, ..] => {
            dev.os_version = Some((*v).to_owned());
            Step::Known
        }
        ["end"] => {
            dev.saw_end = true;
            Step::Known
        }
        ["interface", name, "vrf", vrf] if dialect.frr => {
            let idx = frr_interface(dev, if_index, name, no);
            dev.interfaces[idx].vrf = Some((*vrf).to_owned());
            Step::Push(Ctx::Interface(idx))
        }
        ["router", "bgp", asn, "vrf", vrf, ..] if dialect.frr => {
            bgp.start(dev, asn, no);
            Step::Push(Ctx::Bgp {
                vrf: Some((*vrf).to_owned()),
                af: None,
            })
        }
        ["router", "ospf", rest @ ..]
            if dialect.frr && rest.first().is_none_or(|p| p.parse::<u32>().is_err()) =>
        {
            // FRR runs one OSPF instance per VRF, unnumbered.
            let process = match rest {
                ["vrf", v, ..] => format!("vrf {v}"),
                _ => "1".to_owned(),
            };
            let p = dev.ospf.process_mut(&process, no);
            if let ["vrf", v, ..] = rest {
                p.vrf = Some((*v).to_owned());
            }
            Step::Push(Ctx::Ospf(process))
        }
        ["bgp", kind @ ("community-list" | "extcommunity-list" | "large-community-list" | "as-path"), rest @ ..]
            if dialect.frr =>
        {
            let mut ip: Vec<&str> = vec!["ip", kind];
            ip.extend_from_slice(rest);
            top_level(dev, bgp, if_index, dialect, &ip, no)
        }
        ["vrf", _] if dialect.frr => Step::Push(Ctx::Opaque),
        ["exit" | "exit-vrf" | "frr" | "log" | "username" | "service" | "agentx" | "password"
        | "enable", ..]
            if dialect.frr =>
        {
            Step::Known
        }
        ["interface", name, ..] => {
            let name = if w.len() > 2 {
                // `interface Ethernet 1` (spaced forms some tools print)
                w[1..].concat()
            } else {
                (*name).to_owned()
            };
            let idx = match if_index.get(&name) {
                Some(i) => *i,
                None => {
                    if_index.insert(name.clone(), dev.interfaces.len());
                    dev.interfaces.push(new_interface(name, no, dialect));
                    dev.interfaces.len() - 1
                }
            };
            Step::Push(Ctx::Interface(idx))
        }
        // Running-config amendments (plans and rollbacks appended to a config).
        ["default", "interface", name] => {
            if let Some(i) = if_index.get(*name).and_then(|i| dev.interfaces.get_mut(*i)) {
                *i = new_interface((*name).to_owned(), i.line, dialect);
            }
            Step::Known
        }
        ["no", "interface", name] => {
            dev.interfaces.retain(|i| i.name != *name);
            *if_index = dev
                .interfaces
                .iter()
                .enumerate()
                .map(|(i, x)| (x.name.clone(), i))
                .collect();
            Step::Known
        }
        // `no ip prefix-list L [seq N …]`: the entry, or the whole list.
        ["no", "ip", "prefix-list", name, rest @ ..] => {
            let seq = match rest {
                ["seq", n, ..] => n.parse::<u32>().ok(),
                _ => None,
            };
            dev.prefix_lists.retain(|e| {
                !(e.name == *name && (rest.is_empty() || (seq.is_some() && e.seq == seq)))
            });
            if rest.is_empty() {
                dev.structures.retain(|d| {
                    !(d.kind == crate::model::StructureKind::PrefixList && d.name == *name)
                });
            }
            Step::Known
        }
        // `no route-map M [permit|deny N]`: the clause, or the whole route-map.
        ["no", "route-map", name, rest @ ..] => {
            let seq = rest.get(1).and_then(|n| n.parse::<u32>().ok());
            dev.route_map_clauses
                .retain(|c| !(c.name == *name && seq.is_none_or(|n| c.seq == n)));
            if seq.is_none() {
                dev.structures.retain(|d| {
                    !(d.kind == crate::model::StructureKind::RouteMap && d.name == *name)
                });
            }
            Step::Known
        }
        ["no", "ip", "access-list", "standard" | "extended", name]
        | ["no", "ip", "access-list", name]
        | ["no", "access-list", name] => {
            common::acl::remove(dev, name);
            Step::Known
        }
        ["no", "ip", "route", "vrf", vrf, rest @ ..] => {
            common::remove_static_route(dev, Some((*vrf).to_owned()), rest, no);
            Step::Known
        }
        ["no", "ip", "route", rest @ ..] => {
            common::remove_static_route(dev, None, rest, no);
            Step::Known
        }
        ["router", "bgp", asn, ..] => {
            bgp.start(dev, asn, no);
            Step::Push(Ctx::Bgp {
                vrf: None,
                af: None,
            })
        }
        ["router", "ospf", process, rest @ ..] => {
            let p = dev.ospf.process_mut(process, no);
            if let ["vrf", v, ..] = rest {
                p.vrf = Some((*v).to_owned());
            }
            Step::Push(Ctx::Ospf((*process).to_owned()))
        }
        ["router", "eigrp", id, ..] => Step::Push(Ctx::Eigrp(common::eigrp::start(dev, id, no))),
        ["router", "isis", rest @ ..] => Step::Push(Ctx::Isis(common::isis::start(dev, rest, no))),
        ["router", ..] => Step::Push(Ctx::Opaque),
        ["ip" | "ipv6", "route", "vrf", vrf, rest @ ..] => {
            if w[0] == "ip" {
                common::static_route(dev, Some((*vrf).to_owned()), rest, no);
            }
            Step::Known
        }
        ["ip", "route", rest @ ..] => {
            common::static_route(dev, None, rest, no);
            Step::Known
        }
        ["ipv6", "route", ..] => Step::Known,
        ["vrf", "context", name] => Step::Push(Ctx::VrfContext((*name).to_owned())),
        ["vrf", "definition", name] | ["ip", "vrf", name] => {
            Step::Push(Ctx::VrfDefinition((*name).to_owned()))
        }
        ["vrf", "definition" | "instance", ..] | ["ip", "vrf", ..] | ["vlan", ..] => {
            Step::Push(Ctx::Opaque)
        }
        ["line", ..] => Step::Push(Ctx::Line),
        // EOS `management ssh` / `management api …`: what guards access to the device.
        ["management", ..] => Step::Push(Ctx::Line),
        ["peer-filter", name] => {
            bgp.define_peer_filter(name);
            Step::Push(Ctx::PeerFilter((*name).to_owned()))
        }
        _ => match common::structure_line(dev, w, no) {
            Some(StructureBlock::RouteMap) => Step::Push(Ctx::RouteMap),
            Some(StructureBlock::PrefixList(name)) => Step::Push(Ctx::PrefixList(name)),
            Some(StructureBlock::Entries) => Step::Push(Ctx::Opaque),
            Some(StructureBlock::Acl { name, standard }) => Step::Push(Ctx::Acl { name, standard }),
            Some(StructureBlock::None) => Step::Known,
            None => Step::UnknownBlock,
        },
    }
}

/// FRR's `interface X …`: the interface, created once.
fn frr_interface(
    dev: &mut DeviceConfig,
    if_index: &mut std::collections::HashMap<String, usize>,
    name: &str,
    no: u32,
) -> usize {
    if let Some(i) = if_index.get(name) {
        return *i;
    }
    if_index.insert(name.to_owned(), dev.interfaces.len());
    dev.interfaces.push(Interface::new(name.to_owned(), no));
    dev.interfaces.len() - 1
}

fn nested(
    dev: &mut DeviceConfig,
    bgp: &mut BgpBuilder,
    ctx: &Ctx,
    dialect: Dialect,
    w: &[&str],
    text: &str,
    no: u32,
) -> Step {
    match ctx {
        // FRR keeps every `ip address` of an interface: the first is primary.
        Ctx::Interface(idx)
            if dialect.frr && matches!(w, ["ip", "address", a] if a.contains('/')) =>
        {
            common::frr_address(dev, *idx, w[2], no);
            Step::Known
        }
        Ctx::Ospf(process) if dialect.frr && w.first() == Some(&"ospf") => {
            common::ospf::process_line(dev, process, &w[1..], no);
            Step::Known
        }
        Ctx::Interface(idx) => match w {
            // NX-OS `hsrp 10 [ipv4]`, `vrrp 10`; IOS-XE VRRPv3 `vrrp 10 address-family ipv4`.
            ["hsrp" | "vrrp", group]
            | ["hsrp", group, "ipv4"]
            | ["vrrp", group, "address-family", "ipv4"]
                if group.parse::<u32>().is_ok() =>
            {
                Step::Push(Ctx::Fhrp(*idx))
            }
            ["hsrp", _, "ipv6"] | ["vrrp", _, "address-family", "ipv6"] => Step::Push(Ctx::Opaque),
            // EOS `interface Vxlan1`: the VRFs' layer-3 VNIs and the VTEP address.
            ["vxlan", "vrf", vrf, "vni", vni] => {
                bgp.vrf_vni(dev, vrf, vni, no);
                Step::Known
            }
            ["vxlan", "source-interface", name] | ["source-interface", name]
                if dev.interfaces.get(*idx).is_some_and(|i| {
                    let n = i.name.to_ascii_lowercase();
                    n.starts_with("vxlan") || n.starts_with("nve")
                }) =>
            {
                bgp.vtep_interface(name);
                Step::Known
            }
            _ => known(
                common::eigrp::interface_line(dev, *idx, w, no)
                    || common::isis::interface_line(dev, *idx, w, no)
                    || common::interface_line(dev, *idx, text, w, no),
            ),
        },
        Ctx::Fhrp(idx) => {
            match w {
                ["ip" | "address", addr, ..] if addr.parse::<std::net::IpAddr>().is_ok() => {
                    common::push_virtual(dev, *idx, addr, no)
                }
                _ => {}
            }
            Step::Known
        }
        Ctx::Bgp { vrf, af } => bgp_line(dev, bgp, vrf.as_deref(), af.as_deref(), w, text, no),
        Ctx::BgpNeighbor { vrf, af, id } => match w {
            // NX-OS: a neighbor's address-family block activates the family.
            ["address-family", rest @ ..] => {
                let family = af_name(rest);
                let scope = Scope {
                    vrf: vrf.as_deref(),
                    af: Some(&family),
                };
                bgp.neighbor(dev, scope, id, &["activate"], text, no);
                Step::Push(Ctx::BgpNeighbor {
                    vrf: vrf.clone(),
                    af: Some(family),
                    id: id.clone(),
                })
            }
            ["inherit", "peer-session" | "peer-policy", ..] => Step::Known,
            ["no", attr @ ..] => {
                bgp.unset(
                    Scope {
                        vrf: vrf.as_deref(),
                        af: af.as_deref(),
                    },
                    id,
                    attr,
                    no,
                );
                Step::Known
            }
            _ => {
                bgp.neighbor(
                    dev,
                    Scope {
                        vrf: vrf.as_deref(),
                        af: af.as_deref(),
                    },
                    id,
                    w,
                    text,
                    no,
                );
                Step::Known
            }
        },
        Ctx::RouteMap => known(common::route_map_line(dev, w, no)),
        Ctx::PrefixList(name) => {
            common::prefix_list_entry(dev, name, w, no);
            Step::Known
        }
        Ctx::Acl { name, standard } => {
            common::acl::block_line(dev, name, *standard, w, text, no);
            Step::Known
        }
        Ctx::PeerFilter(name) => {
            bgp.peer_filter_rule(dev, name, w, no);
            Step::Known
        }
        Ctx::Ospf(process) => {
            if common::ospf::process_line(dev, process, w, no) {
                return Step::Push(Ctx::Opaque);
            }
            Step::Known
        }
        Ctx::Eigrp(b) => match common::eigrp::process_line(dev, b, w, no) {
            Some(inner) => Step::Push(Ctx::Eigrp(inner)),
            None => Step::Known,
        },
        Ctx::Isis(tag) => match common::isis::process_line(dev, tag, w, no) {
            Some(true) => Step::Push(Ctx::Isis(tag.clone())),
            Some(false) => Step::Push(Ctx::Opaque),
            None => Step::Known,
        },
        Ctx::VrfContext(vrf) => {
            match w {
                ["ip", "route", rest @ ..] => {
                    common::static_route(dev, Some(vrf.clone()), rest, no)
                }
                ["no", "ip", "route", rest @ ..] => {
                    common::remove_static_route(dev, Some(vrf.clone()), rest, no)
                }
                ["vni", vni] => bgp.vrf_vni(dev, vrf, vni, no),
                ["address-family", af, ..] => {
                    return Step::Push(Ctx::VrfAf {
                        vrf: vrf.clone(),
                        ipv4: *af == "ipv4",
                    })
                }
                _ => vrf_line(bgp, vrf, w),
            }
            Step::Known
        }
        Ctx::VrfDefinition(vrf) => {
            if let ["address-family", af, ..] = w {
                return Step::Push(Ctx::VrfAf {
                    vrf: vrf.clone(),
                    ipv4: *af == "ipv4",
                });
            }
            vrf_line(bgp, vrf, w);
            Step::Known
        }
        Ctx::VrfAf { vrf, ipv4 } => {
            if *ipv4 {
                vrf_line(bgp, vrf, w);
            }
            Step::Known
        }
        Ctx::Line => {
            match w {
                ["access-class", acl, ..] => {
                    common::reference(dev, StructureKind::AccessList, acl, "line access-class", no)
                }
                ["ip" | "ipv6", "access-group", acl, ..] => common::reference(
                    dev,
                    StructureKind::AccessList,
                    acl,
                    "management access list",
                    no,
                ),
                _ => {}
            }
            Step::Known
        }
        Ctx::Opaque => Step::Known,
        Ctx::Unknown => Step::Unknown,
    }
}

/// A VRF definition's (or its IPv4 family's) route targets and import / export maps.
fn vrf_line(bgp: &mut BgpBuilder, vrf: &str, w: &[&str]) {
    match w {
        ["route-target", ..] => bgp.route_target(vrf, w, RtFamily::Vpn),
        ["import" | "export", "map", ..] | ["import" | "export", "ipv4", ..] => {
            bgp.vrf_unmodelled(vrf, w)
        }
        _ => {}
    }
}

fn known(recognised: bool) -> Step {
    if recognised {
        Step::Known
    } else {
        Step::Unknown
    }
}

/// `ipv4`, `ipv4 unicast`, `ipv4 vrf X` → `ipv4 unicast`.
fn af_name(rest: &[&str]) -> String {
    let family = rest.first().copied().unwrap_or("ipv4");
    let safi = match rest.get(1) {
        Some(&"multicast") => "multicast",
        Some(&"labeled-unicast") => "labeled-unicast",
        _ if family == "vpnv4" || family == "vpnv6" || family == "evpn" || family == "l2vpn" => "",
        _ => "unicast",
    };
    if safi.is_empty() {
        family.to_owned()
    } else {
        format!("{family} {safi}")
    }
}

fn bgp_line(
    dev: &mut DeviceConfig,
    bgp: &mut BgpBuilder,
    vrf: Option<&str>,
    af: Option<&str>,
    w: &[&str],
    text: &str,
    no: u32,
) -> Step {
    match w {
        // Only the default VRF's router-id is the device's.
        ["bgp", "router-id", id] | ["router-id", id] if vrf.is_none() => bgp.router_id(dev, id, no),
        ["no", "bgp", "default", "ipv4-unicast"] => bgp.disable_default_ipv4(),
        ["bgp", "confederation", "identifier", id] | ["confederation", "identifier", id]
            if vrf.is_none() =>
        {
            bgp.confederation_id(dev, id, no)
        }
        ["bgp", "confederation", "peers", peers @ ..] | ["confederation", "peers", peers @ ..]
            if vrf.is_none() =>
        {
            bgp.confederation_peers(dev, peers, no)
        }
        ["bgp", "listen", "range", rest @ ..] => bgp.listen_range(dev, vrf, rest, no),
        ["address-family", rest @ ..] => {
            let vrf = match rest.iter().position(|x| *x == "vrf") {
                Some(i) => rest.get(i + 1).map(|v| (*v).to_owned()),
                None => vrf.map(str::to_owned),
            };
            return Step::Push(Ctx::Bgp {
                vrf,
                af: Some(af_name(rest)),
            });
        }
        ["vrf", name] => {
            return Step::Push(Ctx::Bgp {
                vrf: Some((*name).to_owned()),
                af: None,
            })
        }
        ["template", "peer", name] => {
            bgp.define_group(dev, name, no);
            return Step::Push(Ctx::BgpNeighbor {
                vrf: vrf.map(str::to_owned),
                af: None,
                id: (*name).to_owned(),
            });
        }
        ["template", ..] => return Step::Push(Ctx::Opaque),
        // EOS EVPN MAC-VRF blocks: layer 2, no IPv4 routes of their own.
        ["vlan-aware-bundle", ..] | ["vlan", _] => return Step::Push(Ctx::Opaque),
        ["no", "neighbor", "interface", range, ..] => bgp.remove_interface_neighbors(vrf, range),
        ["no", "neighbor", id, "activate"] => bgp.deactivate(vrf, af, id, no),
        ["no", "neighbor", id] => bgp.remove_neighbor(vrf, id),
        ["no", "neighbor", id, attr @ ..] => bgp.unset(Scope { vrf, af }, id, attr, no),
        ["neighbor", "interface", rest @ ..] => bgp.interface_neighbors(dev, vrf, rest, no),
        // FRR BGP unnumbered: `neighbor swp1 interface [v6only] [peer-group G|remote-as X]`.
        ["neighbor", id, "interface", rest @ ..] => {
            let mut words = vec![*id];
            words.extend_from_slice(rest);
            bgp.interface_neighbors(dev, vrf, &words, no)
        }
        ["neighbor", id, attr @ ..] => {
            bgp.neighbor(dev, Scope { vrf, af }, id, attr, text, no);
            // NX-OS puts a neighbor's settings in a block under it.
            return Step::Push(Ctx::BgpNeighbor {
                vrf: vrf.map(str::to_owned),
                af: af.map(str::to_owned),
                id: (*id).to_owned(),
            });
        }
        ["network", rest @ ..] => bgp.network(dev, vrf, rest, no),
        ["no", "network", rest @ ..] => bgp.remove_network(vrf, rest),
        ["redistribute", ..] => {
            bgp.origination(vrf, w);
            common::redistribute(dev, w, "bgp redistribute route-map", no)
        }
        ["aggregate-address", ..] => bgp.origination(vrf, w),
        ["maximum-paths", rest @ ..] => bgp.maximum_paths(vrf, rest),
        // EOS `router bgp / vrf X / route-target import evpn …`.
        ["route-target", ..] => match vrf {
            Some(v) => bgp.route_target(v, w, RtFamily::Both),
            None => bgp.unmodelled(vrf, w),
        },
        ["distance", rest @ ..] => bgp.distance(vrf, rest),
        // Olav breaks the last tie by router id already (it knows no path's age).
        ["bgp", "bestpath", "tie-break", "router-id"] | ["bgp", "bestpath", "compare-routerid"] => {
        }
        ["bgp", "bestpath", "as-path", "multipath-relax"] => bgp.multipath_relax(vrf),
        // What changes routes and is not computed: the routes of the VRF are incomplete.
        ["bgp", "bestpath" | "always-compare-med" | "redistribute-internal", ..]
        | ["bgp", "default", "local-preference", ..]
        | ["default-information", ..]
        | ["default-metric", ..]
        | ["table-map", ..]
        | ["auto-summary", ..]
        | ["import", ..]
        | ["export", ..] => bgp.unmodelled(vrf, w),
        _ => {}
    }
    Step::Known
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AddressKind, BgpPeer};

    #[test]
    fn ios_vrf_peer_groups_inherit_remote_as() {
        let cfg = "hostname d1\n!\ninterface GigabitEthernet1\n vrf forwarding vrf2\n ip address 10.12.11.1 255.255.255.252\n ip address 10.9.9.1 255.255.255.0 secondary\n!\nrouter bgp 65001\n bgp router-id 192.168.1.1\n address-family ipv4 vrf vrf2\n  neighbor d2 peer-group\n  neighbor d2 remote-as 65002\n  neighbor d2 route-map IN in\n  neighbor 10.12.11.2 peer-group d2\n  neighbor 10.12.11.2 activate\n exit-address-family\n!\nend\n";
        let dev = parse(cfg, Dialect::default());
        assert_eq!(dev.hostname.as_deref(), Some("d1"));
        assert!(dev.saw_end);
        let i = &dev.interfaces[0];
        assert_eq!(i.vrf.as_deref(), Some("vrf2"));
        assert_eq!(i.addresses.len(), 2);
        assert_eq!(i.addresses[1].kind, AddressKind::Secondary);
        let bgp = dev
            .bgp
            .as_ref()
            .map(|b| b.neighbors.clone())
            .unwrap_or_default();
        assert_eq!(bgp.len(), 1);
        let n = &bgp[0];
        assert_eq!(n.vrf.as_deref(), Some("vrf2"));
        assert_eq!(n.peer, BgpPeer::Address("10.12.11.2".parse().unwrap()));
        assert_eq!(n.peer_asn, Some(65002));
        assert_eq!(n.route_map_in.as_deref(), Some("IN"));
        assert_eq!(n.address_families, vec!["ipv4 unicast".to_string()]);
    }

    #[test]
    fn nxos_neighbor_blocks_and_templates() {
        let cfg = "hostname r1\nrouter bgp 65001\n  router-id 1.1.1.1\n  template peer UP\n    remote-as 65100\n    update-source loopback0\n  neighbor 10.0.0.1\n    remote-as 65002\n    description to r2\n    address-family ipv4 unicast\n      route-map RM-IN in\n  neighbor 10.0.0.9\n    inherit peer UP\n";
        let dev = parse(cfg, Dialect::default());
        let n = dev
            .bgp
            .as_ref()
            .map(|b| b.neighbors.clone())
            .unwrap_or_default();
        assert_eq!(n.len(), 2);
        assert_eq!(n[0].peer_asn, Some(65002));
        assert_eq!(n[0].description.as_deref(), Some("to r2"));
        assert_eq!(n[0].route_map_in.as_deref(), Some("RM-IN"));
        assert_eq!(n[1].peer_asn, Some(65100));
        assert_eq!(n[1].update_source.as_deref(), Some("loopback0"));
    }

    #[test]
    fn malformed_lines_warn_with_line_numbers() {
        let cfg = "hostname x\ninterface Gi1\n ip address 10.0.0.300 255.255.255.0\nrouter bgp 65000\n neighbor 10.0.0.2 remote-as sixty\n";
        let dev = parse(cfg, Dialect::default());
        let lines: Vec<u32> = dev.warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, vec![3, 5]);
    }

    #[test]
    fn nxos_svis_start_shut_and_hsrp_blocks_are_virtual() {
        let cfg = "hostname n1\ninterface Vlan1\ninterface Vlan10\n  no shutdown\n  ip address 10.10.10.2/24\n  hsrp version 2\n  hsrp 10\n    preempt\n    ip 10.10.10.1\ninterface Vlan20\n  ip address 10.20.0.2/24\n  vrrp 20\n    address 10.20.0.1\n";
        let nx = parse(
            cfg,
            Dialect {
                svi_shut_by_default: true,
                ..Dialect::default()
            },
        );
        let up: Vec<(&str, bool)> = nx
            .interfaces
            .iter()
            .map(|i| (i.name.as_str(), i.admin_up))
            .collect();
        assert_eq!(
            up,
            vec![("Vlan1", false), ("Vlan10", true), ("Vlan20", false)]
        );
        let virtuals = |d: &DeviceConfig| -> Vec<String> {
            d.interfaces
                .iter()
                .flat_map(|i| {
                    i.addresses
                        .iter()
                        .filter(|a| a.kind == AddressKind::Virtual)
                })
                .map(|a| a.address.to_string())
                .collect()
        };
        assert_eq!(virtuals(&nx), vec!["10.10.10.1/24", "10.20.0.1/24"]);
        assert_eq!(nx.lines_unrecognised, 0);
        // IOS and EOS bring an SVI up without `no shutdown`.
        assert!(parse(cfg, Dialect::default())
            .interfaces
            .iter()
            .all(|i| i.admin_up));
    }

    #[test]
    fn virtual_addresses_keep_their_written_length() {
        let cfg = "hostname e1\ninterface Vlan150\n   ip address virtual 10.1.40.1/24\ninterface Vlan100\n   ip address 10.1.100.2/24\n   ip virtual-router address 10.1.100.1\ninterface GigabitEthernet1\n standby ip 10.2.0.1\n ip address 10.2.0.2 255.255.255.0\n standby 5 ip 10.2.0.5\n";
        let d = parse(cfg, Dialect::default());
        let addrs: Vec<(String, AddressKind)> = d
            .interfaces
            .iter()
            .flat_map(|i| i.addresses.iter().map(|a| (a.address.to_string(), a.kind)))
            .collect();
        assert_eq!(
            addrs,
            vec![
                ("10.1.40.1/24".into(), AddressKind::Virtual),
                ("10.1.100.2/24".into(), AddressKind::Primary),
                ("10.1.100.1/24".into(), AddressKind::Virtual),
                // Written before the primary address: a host address until one exists.
                ("10.2.0.1/32".into(), AddressKind::Virtual),
                ("10.2.0.2/24".into(), AddressKind::Primary),
                ("10.2.0.5/24".into(), AddressKind::Virtual),
            ]
        );
    }

    #[test]
    fn eos_unnumbered_neighbors_and_their_removal() {
        let cfg = "hostname s\nrouter bgp 65000\n   neighbor LEAVES peer group\n   neighbor LEAVES remote-as 65001\n   neighbor interface Ethernet1-3 peer-group LEAVES\n   neighbor interface Ethernet9 peer group LEAVES remote-as 65009\n   no neighbor interface Ethernet2\n";
        let d = parse(cfg, Dialect::default());
        let peers: Vec<(String, Option<u32>, Option<String>)> = d
            .bgp
            .iter()
            .flat_map(|b| &b.neighbors)
            .map(|n| (n.peer.to_string(), n.peer_asn, n.peer_group.clone()))
            .collect();
        let g = Some("LEAVES".to_owned());
        assert_eq!(
            peers,
            vec![
                ("Ethernet1".into(), Some(65001), g.clone()),
                ("Ethernet3".into(), Some(65001), g.clone()),
                ("Ethernet9".into(), Some(65009), g),
            ]
        );
        assert!(d.warnings.is_empty() && d.lines_unrecognised == 0);
    }

    #[test]
    fn dot1q_tags_of_subinterfaces() {
        let cfg = "hostname r\ninterface GigabitEthernet1.100\n encapsulation dot1Q 100\ninterface Ethernet1.200\n   encapsulation dot1q vlan 200\ninterface Ethernet1.300\n   encapsulation dot1q vlan x\ninterface GigabitEthernet1.1\n encapsulation dot1Q 1 native\n";
        let d = parse(cfg, Dialect::default());
        let tags: Vec<Option<u32>> = d.interfaces.iter().map(|i| i.encapsulation_vlan).collect();
        assert_eq!(tags, vec![Some(100), Some(200), None, None]);
        assert_eq!(d.warnings.len(), 1);
    }
}
