//! Juniper Junos, in both syntaxes: `show configuration | display set` and the
//! hierarchical brace form.
//!
//! The text is first flattened into `set`-style statements (`statements`: brace blocks
//! walked with a path stack, inactive configuration dropped, configuration groups
//! inherited), then each statement is read once into the vendor-neutral model:
//!
//! - interfaces: the physical port (`ge-0/0/0`) and each unit (`ge-0/0/0.0`, `ae0.100`,
//!   `irb.10`, `lo0.0`) are interfaces of their own, named as Junos names them; addresses
//!   live on units. A unit's primary address is the one flagged `primary`, else the
//!   numerically lowest of its family (Junos' rule); the others are secondary.
//! - routing instances of a layer-3 type are VRFs: their `interface` lines place units in
//!   them, and their static routes and BGP neighbors carry the instance name as VRF.
//! - BGP: settings resolve neighbor over group over `protocols bgp` level, the most
//!   specific level that sets a value wins (import and export chains included, as on the
//!   device); an internal group's peer AS is the local AS.
//! - policy-options and firewall filters are structures; every reference to them is
//!   kept with its line, under Batfish's names for Junos structure types and usages.

mod statements;

use super::common::{define, parse_asn, reference};
use super::ConfigParser;
use crate::model::{
    AddressKind, BgpNeighbor, BgpPeer, BgpProcess, DeviceConfig, Interface, InterfaceAddress,
    NextHopResolution, OspfNetwork, PrefixListEntry, RouteActivity, RouteMapClause, StaticRoute,
    StructureKind, SwitchportMode, Vendor,
};
use ipnet::IpNet;
use statements::Statement;
pub use statements::{quote, set_lines, SetLine};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::net::IpAddr;

/// Parser for Juniper Junos configurations.
pub struct JunosParser;

impl ConfigParser for JunosParser {
    fn vendor(&self) -> Vendor {
        Vendor::JuniperJunos
    }

    fn markers(&self) -> &'static [(&'static str, u32)] {
        &[
            ("set system host-name ", 5),
            ("set version ", 3),
            ("set interfaces ", 3),
            ("set protocols ", 3),
            ("set routing-options ", 3),
            ("set policy-options ", 3),
            ("set routing-instances ", 3),
            ("## Last commit", 5),
            ("## Last changed", 5),
            ("system {", 5),
            ("interfaces {", 5),
            ("routing-options {", 5),
            ("protocols {", 5),
            ("policy-options {", 5),
            ("routing-instances {", 5),
        ]
    }

    fn rancid_types(&self) -> &'static [&'static str] {
        &["juniper", "junos"]
    }

    fn parse(&self, text: &str) -> DeviceConfig {
        parse(text)
    }
}

/// The configuration in `display set` form (inactive statements with their `deactivate`
/// lines): what Batfish is given when a plan's `set` / `delete` lines are appended to a
/// configuration stored in the brace form, since one file cannot mix the two syntaxes.
pub fn set_form(text: &str) -> String {
    set_lines(text)
        .iter()
        .map(|l| format!("{}\n", l.render()))
        .collect()
}

/// Parses a Junos configuration in either syntax.
pub fn parse(text: &str) -> DeviceConfig {
    let read = statements::read(text);
    let mut j = Junos {
        unrecognised: read.unrecognised_lines,
        ..Junos::default()
    };
    j.dev.warnings = read.warnings;
    let mut words: Vec<&str> = Vec::with_capacity(24);
    for st in &read.list {
        words.clear();
        words.extend(st.words.iter().map(String::as_str));
        j.statement(&words, st);
    }
    j.finish(text)
}

/// Top-level hierarchies olav reads nothing from, but which are configuration.
const KNOWN_TOP: &[&str] = &[
    "access",
    "access-profile",
    "accounting-options",
    "applications",
    "bridge-domains",
    "chassis",
    "class-of-service",
    "dynamic-profiles",
    "ethernet-switching-options",
    "event-options",
    "fabric",
    "forwarding-options",
    "jsrc",
    "multi-chassis",
    "multicast-snooping-options",
    "poe",
    "protocols",
    "schedulers",
    "security",
    "services",
    "smtp",
    "snmp",
    "switch-options",
    "system",
    "tenants",
    "utility",
    "virtual-chassis",
    "vlans",
    "vmhost",
];

/// Words under `interfaces` that are not interface names.
const NOT_INTERFACES: &[&str] = &[
    "traceoptions",
    "interface-set",
    "stacked-interface-set",
    "apply-groups-except",
];

/// Routing-instance types that are not VRFs (their interfaces are layer 2).
const LAYER2_INSTANCES: &[&str] = &[
    "virtual-switch",
    "mac-vrf",
    "evpn",
    "evpn-vpws",
    "vpls",
    "l2vpn",
    "l2backhaul-vpn",
    "layer2-control",
];

/// The interfaces `system management-instance` moves into `mgmt_junos`.
const MANAGEMENT_PORTS: &[&str] = &["fxp0", "em0", "me0"];

/// An address as configured, before the unit's primary address is known.
struct PendingAddress {
    iface: usize,
    net: IpNet,
    primary: bool,
    line: u32,
}

/// `family ethernet-switching` of a unit.
#[derive(Default)]
struct Switching {
    mode: Option<SwitchportMode>,
    members: Vec<String>,
}

/// A routing instance.
#[derive(Default)]
struct Instance {
    name: String,
    kind: Option<String>,
    interfaces: Vec<(String, u32)>,
    asn: Option<u32>,
}

/// A `static` block: one per routing instance and address family.
struct StaticBlock {
    vrf: Option<String>,
    inet6: bool,
    default_preference: Option<u32>,
    routes: Vec<StaticSpec>,
    index: HashMap<IpNet, usize>,
}

/// Everything configured for one static prefix.
struct StaticSpec {
    prefix: IpNet,
    line: u32,
    next_hops: Vec<(String, u32)>,
    qualified: Vec<(String, Option<u32>, u32)>,
    discard: Option<u32>,
    reject: Option<u32>,
    next_table: Option<u32>,
    preference: Option<u32>,
    /// `resolve`: the next hop may be resolved recursively (default: connected only).
    resolve: bool,
}

/// An import or export policy chain set at one BGP level.
#[derive(Debug, Default, Clone)]
struct Chain {
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
struct BgpInstance {
    vrf: Option<String>,
    global: Level,
    groups: Vec<Group>,
}

/// The walk's state.
#[derive(Default)]
struct Junos {
    dev: DeviceConfig,
    index: HashMap<String, usize>,
    addresses: Vec<PendingAddress>,
    address_index: HashMap<(usize, IpNet), usize>,
    virtuals: Vec<(usize, IpNet, u32)>,
    switching: HashMap<usize, Switching>,
    vlans: HashMap<String, u32>,
    management_instance: bool,
    instances: Vec<Instance>,
    asn: Option<u32>,
    router_id: Option<IpAddr>,
    confederation: Option<u32>,
    confederation_members: Vec<u32>,
    statics: Vec<StaticBlock>,
    /// Static prefixes (per VRF) configured with `resolve`.
    resolving: HashSet<(Option<String>, IpNet)>,
    bgp: Vec<BgpInstance>,
    bgp_line: Option<u32>,
    ospf: Vec<(Option<String>, String, String, u32, bool)>,
    ospf_index: HashMap<(Option<String>, String, String), usize>,
    prefix_lists: Vec<(String, u32, bool)>,
    prefix_list_index: HashMap<String, usize>,
    /// Policy-statement terms as clauses (`dev.route_map_clauses`), by (policy, term),
    /// with whether the term ends in `accept` or `reject`.
    terms: HashMap<(String, String), (usize, bool)>,
    defined: HashSet<(StructureKind, String)>,
    warned: BTreeSet<String>,
    unrecognised: BTreeSet<u32>,
}

/// Policy names of a chain or expression (`( A && B )` names A and B), each with the
/// line it is written on.
fn policy_names<'a>(words: &[&'a str], st: &Statement) -> Vec<(&'a str, u32)> {
    words
        .iter()
        .enumerate()
        .map(|(k, w)| {
            (
                w.trim_matches(|c| c == '(' || c == ')'),
                st.line_of(&words[k..]),
            )
        })
        .filter(|(w, _)| !w.is_empty() && !matches!(*w, "&&" | "||" | "!"))
        .collect()
}

/// Junos speeds in Mbit/s: `10g`, `2.5g`, `100m`.
fn parse_speed(v: &str) -> Option<u32> {
    let v = v.to_ascii_lowercase();
    let (num, scale) = match (v.strip_suffix('g'), v.strip_suffix('m')) {
        (Some(n), _) => (n, 1000.0),
        (_, Some(n)) => (n, 1.0),
        _ => return None,
    };
    let mbps = num.parse::<f64>().ok()? * scale;
    // Non-finite and out-of-range values fail both comparisons.
    (mbps >= 1.0 && mbps <= f64::from(u32::MAX)).then(|| mbps.round() as u32)
}

/// A Junos address-family name as olav names address families (`ipv4 unicast`, `vpnv4`).
fn family_name(family: &str, safi: Option<&str>) -> String {
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

/// An address or prefix (`10.0.0.1/24`, or a bare address as a host route).
fn parse_net(s: &str) -> Option<IpNet> {
    s.parse::<IpNet>()
        .ok()
        .or_else(|| s.parse::<IpAddr>().ok().map(IpNet::from))
}

impl Junos {
    fn statement(&mut self, w: &[&str], st: &Statement) {
        match w {
            ["version", v, ..] => self.dev.os_version = Some((*v).to_owned()),
            ["system", "host-name", h, ..] => self.dev.hostname = Some((*h).to_owned()),
            ["system", "management-instance", ..] => self.management_instance = true,
            ["interfaces", rest @ ..] => self.interfaces(rest, st),
            ["routing-options", rest @ ..] => self.routing_options(None, rest, st),
            ["routing-instances", name, rest @ ..] => self.routing_instance(name, rest, st),
            ["protocols", "bgp", rest @ ..] => self.bgp(None, rest, st),
            ["protocols", "ospf", rest @ ..] => self.ospf(None, rest, st),
            ["policy-options", rest @ ..] => self.policy_options(rest, st),
            ["firewall", rest @ ..] => self.firewall(rest, st),
            ["vlans", name, "vlan-id", id, ..] => match id.parse() {
                Ok(n) => {
                    self.vlans.insert((*name).to_owned(), n);
                }
                Err(_) => self.dev.warn(
                    st.line,
                    format!("vlans {name} vlan-id: '{id}' is not a VLAN id"),
                ),
            },
            ["logical-systems", ..] => self.warn_once(
                st.line_of(w),
                "logical-systems are not modelled: their interfaces, routing and BGP are left out",
            ),
            [top, ..] if KNOWN_TOP.contains(top) => {}
            _ => {
                self.unrecognised.insert(st.line);
            }
        }
    }

    /// Defines a structure once: its first statement's line is the definition's.
    fn define(&mut self, kind: StructureKind, name: &str, line: u32) {
        if self.defined.insert((kind, name.to_owned())) {
            define(&mut self.dev, kind, name, line);
        }
    }

    fn warn_once(&mut self, line: u32, message: &str) {
        if self.warned.insert(message.to_owned()) {
            self.dev.warn(line, message);
        }
    }

    /// The index of interface `name`, created at `line` when new.
    fn interface(&mut self, name: &str, line: u32) -> usize {
        if let Some(i) = self.index.get(name) {
            return *i;
        }
        let i = self.dev.interfaces.len();
        self.dev
            .interfaces
            .push(Interface::new(name.to_owned(), line));
        self.index.insert(name.to_owned(), i);
        i
    }

    fn interfaces(&mut self, w: &[&str], st: &Statement) {
        let [name, rest @ ..] = w else { return };
        if *name == "interface-range" {
            let range = rest.first().copied().unwrap_or("");
            self.warn_once(
                st.line_of(w),
                &format!("interfaces interface-range {range}: not modelled; settings it gives its member interfaces are not applied"),
            );
            return;
        }
        if NOT_INTERFACES.contains(name) {
            return;
        }
        let phys = self.interface(name, st.line_of(w));
        let line = st.line;
        match rest {
            ["unit", unit, tail @ ..] => {
                let idx = self.interface(&format!("{name}.{unit}"), st.line_of(&rest[1..]));
                self.unit(idx, tail, st);
            }
            ["description", d @ ..] => self.dev.interfaces[phys].description = Some(d.join(" ")),
            ["disable", ..] => self.dev.interfaces[phys].admin_up = false,
            ["mtu", v] => match v.parse() {
                Ok(m) => self.dev.interfaces[phys].mtu = Some(m),
                Err(_) => self.dev.warn(line, format!("mtu: '{v}' is not a number")),
            },
            // `auto`, `auto-10m-100m`: negotiated, no configured speed.
            ["speed", v] if v.starts_with("auto") => {}
            ["speed", v] => match parse_speed(v) {
                Some(s) => self.dev.interfaces[phys].speed_mbps = Some(s),
                None => self.dev.warn(line, format!("speed: cannot read '{v}'")),
            },
            ["gigether-options" | "ether-options", "802.3ad", tail @ ..] => {
                let bundle = match tail {
                    ["bundle", ae, ..] => Some(*ae),
                    [ae, ..] if !matches!(*ae, "lacp" | "primary" | "backup") => Some(*ae),
                    _ => None,
                };
                if let Some(ae) = bundle {
                    self.dev.interfaces[phys].channel_group = Some(ae.to_owned());
                }
            }
            _ => {}
        }
    }

    fn unit(&mut self, idx: usize, w: &[&str], st: &Statement) {
        let line = st.line;
        match w {
            ["description", d @ ..] => self.dev.interfaces[idx].description = Some(d.join(" ")),
            ["disable", ..] => self.dev.interfaces[idx].admin_up = false,
            ["vlan-id", v] => match v.parse() {
                Ok(n) => {
                    let unit = &mut self.dev.interfaces[idx];
                    unit.access_vlan = Some(n);
                    unit.encapsulation_vlan = Some(n);
                }
                Err(_) => self
                    .dev
                    .warn(line, format!("vlan-id: '{v}' is not a VLAN id")),
            },
            ["family", "inet" | "inet6", "address", rest @ ..] => self.address(idx, rest, st),
            ["family", "inet", "mtu", v] => match v.parse() {
                Ok(m) => self.dev.interfaces[idx].mtu = Some(m),
                Err(_) => self
                    .dev
                    .warn(line, format!("family inet mtu: '{v}' is not a number")),
            },
            ["family", "inet", "filter", dir, names @ ..] => {
                let context = match *dir {
                    "input" => "interface firewall filter input",
                    "output" => "interface firewall filter output",
                    "input-list" => "interface firewall filter input-list",
                    "output-list" => "interface firewall filter output-list",
                    _ => return,
                };
                self.refs(StructureKind::FirewallFilter, names, context, st);
            }
            ["family", "ethernet-switching", tail @ ..] => {
                let sw = self.switching.entry(idx).or_default();
                match tail {
                    ["interface-mode" | "port-mode", mode] => match *mode {
                        "access" => sw.mode = Some(SwitchportMode::Access),
                        "trunk" => sw.mode = Some(SwitchportMode::Trunk),
                        other => self.dev.warn(
                            line,
                            format!("ethernet-switching interface-mode: unknown mode '{other}'"),
                        ),
                    },
                    ["vlan", "members", members @ ..] => {
                        sw.members.extend(members.iter().map(|m| (*m).to_owned()))
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// `address A/L [primary | preferred | vrrp-group N virtual-address V…]`.
    fn address(&mut self, idx: usize, w: &[&str], st: &Statement) {
        let [a, tail @ ..] = w else { return };
        let line = st.line_of(w);
        let Some(net) = parse_net(a) else {
            self.dev
                .warn(line, format!("family address: cannot read '{a}'"));
            return;
        };
        let primary = tail.first() == Some(&"primary");
        match self.address_index.get(&(idx, net)) {
            Some(i) => self.addresses[*i].primary |= primary,
            None => {
                self.address_index.insert((idx, net), self.addresses.len());
                self.addresses.push(PendingAddress {
                    iface: idx,
                    net,
                    primary,
                    line,
                });
            }
        }
        // Virtual addresses live in A's subnet.
        if let Some(i) = tail
            .iter()
            .position(|x| matches!(*x, "virtual-address" | "virtual-inet6-address"))
        {
            let vips = &tail[i + 1..];
            for (k, v) in vips.iter().enumerate() {
                let line = st.line_of(&vips[k..]);
                match v
                    .parse::<IpAddr>()
                    .ok()
                    .and_then(|ip| IpNet::new(ip, net.prefix_len()).ok())
                {
                    Some(vip) => {
                        if !self.virtuals.iter().any(|(i, n, _)| *i == idx && *n == vip) {
                            self.virtuals.push((idx, vip, line));
                        }
                    }
                    None => self
                        .dev
                        .warn(line, format!("virtual-address: cannot read '{v}'")),
                }
            }
        }
    }

    /// References to each of `names` (a tail of the statement's words), each at the line
    /// its name is written on.
    fn refs(&mut self, kind: StructureKind, names: &[&str], context: &str, st: &Statement) {
        for (k, n) in names.iter().enumerate() {
            reference(&mut self.dev, kind, n, context, st.line_of(&names[k..]));
        }
    }

    /// A reference to the first of `rest`, a tail of the statement's words.
    fn ref_one(&mut self, kind: StructureKind, rest: &[&str], context: &str, st: &Statement) {
        if let Some(name) = rest.first() {
            reference(&mut self.dev, kind, name, context, st.line_of(rest));
        }
    }

    /// References to the policies of a chain or policy expression.
    fn policy_refs(&mut self, words: &[&str], context: &str, st: &Statement) {
        for (p, line) in policy_names(words, st) {
            reference(
                &mut self.dev,
                StructureKind::PolicyStatement,
                p,
                context,
                line,
            );
        }
    }

    fn instance(&mut self, name: &str) -> &mut Instance {
        let i = match self.instances.iter().position(|r| r.name == name) {
            Some(i) => i,
            None => {
                self.instances.push(Instance {
                    name: name.to_owned(),
                    ..Instance::default()
                });
                self.instances.len() - 1
            }
        };
        &mut self.instances[i]
    }

    fn routing_instance(&mut self, name: &str, w: &[&str], st: &Statement) {
        let ri = self.instance(name);
        match w {
            ["instance-type", t, ..] => ri.kind = Some((*t).to_owned()),
            ["interface", i, ..] if !ri.interfaces.iter().any(|(n, _)| n == i) => {
                ri.interfaces.push(((*i).to_owned(), st.line_of(&w[1..])));
            }
            ["interface", ..] => {}
            ["routing-options", rest @ ..] => self.routing_options(Some(name), rest, st),
            ["protocols", "bgp", rest @ ..] => self.bgp(Some(name), rest, st),
            ["protocols", "ospf", rest @ ..] => self.ospf(Some(name), rest, st),
            ["vrf-import", ps @ ..] => self.policy_refs(ps, "routing-instance vrf-import", st),
            ["vrf-export", ps @ ..] => self.policy_refs(ps, "routing-instance vrf-export", st),
            _ => {}
        }
    }

    fn routing_options(&mut self, inst: Option<&str>, w: &[&str], st: &Statement) {
        let line = st.line;
        match w {
            ["autonomous-system", asn, ..] => match parse_asn(asn) {
                Some(a) => match inst {
                    Some(name) => self.instance(name).asn = Some(a),
                    None => self.asn = Some(a),
                },
                None => self.dev.warn(
                    line,
                    format!("autonomous-system: '{asn}' is not an AS number"),
                ),
            },
            ["router-id", id] => match id.parse::<IpAddr>() {
                // Only the master instance's router-id is the device's.
                Ok(ip) if inst.is_none() => self.router_id = Some(ip),
                Ok(_) => {}
                Err(_) => self
                    .dev
                    .warn(line, format!("router-id: '{id}' is not an address")),
            },
            ["confederation", id, rest @ ..] if inst.is_none() => {
                match parse_asn(id) {
                    Some(a) => self.confederation = Some(a),
                    None => self
                        .dev
                        .warn(line, format!("confederation: '{id}' is not an AS number")),
                }
                if let ["members", members @ ..] = rest {
                    for m in members {
                        match parse_asn(m) {
                            Some(a) if !self.confederation_members.contains(&a) => {
                                self.confederation_members.push(a)
                            }
                            Some(_) => {}
                            None => self.dev.warn(
                                line,
                                format!("confederation members: '{m}' is not an AS number"),
                            ),
                        }
                    }
                }
            }
            ["static", rest @ ..] => self.static_line(inst, false, rest, st),
            ["rib", rib, rest @ ..] => {
                // Only the unicast tables (`inet.0`, `inet6.0`, `X.inet6.0`) hold the
                // routes olav models; `inet.3` and the like are MPLS resolution tables.
                let table = rib.rsplit('.').nth(1).unwrap_or("");
                let unicast = rib.ends_with(".0") && matches!(table, "inet" | "inet6");
                match rest {
                    ["static", tail @ ..] if unicast => {
                        self.static_line(inst, table == "inet6", tail, st)
                    }
                    ["static", ..] => {}
                    _ => self.routing_options(inst, rest, st),
                }
            }
            [kind @ ("aggregate" | "generated"), rest @ ..] => {
                if let Some(i) = rest.iter().position(|x| *x == "policy") {
                    let context = if *kind == "aggregate" {
                        "aggregate route policy"
                    } else {
                        "generated route policy-statement"
                    };
                    self.policy_refs(&rest[i + 1..], context, st);
                }
            }
            ["forwarding-table", "export", ps @ ..] => {
                self.policy_refs(ps, "forwarding-table export policy-statement", st)
            }
            ["resolution", "rib", _, "import", ps @ ..] => {
                self.policy_refs(ps, "routing-instance resolution rib import", st)
            }
            ["instance-import", ps @ ..] => self.policy_refs(ps, "instance import policy", st),
            _ => {}
        }
    }

    fn static_line(&mut self, inst: Option<&str>, inet6: bool, w: &[&str], st: &Statement) {
        let line = st.line;
        let vrf = inst.map(str::to_owned);
        let b = match self
            .statics
            .iter()
            .position(|b| b.vrf == vrf && b.inet6 == inet6)
        {
            Some(b) => b,
            None => {
                self.statics.push(StaticBlock {
                    vrf,
                    inet6,
                    default_preference: None,
                    routes: Vec::new(),
                    index: HashMap::new(),
                });
                self.statics.len() - 1
            }
        };
        match w {
            ["defaults", "preference", p, ..] => match p.parse() {
                Ok(p) => self.statics[b].default_preference = Some(p),
                Err(_) => self.dev.warn(
                    line,
                    format!("static defaults preference: '{p}' is not a number"),
                ),
            },
            ["route", p, tail @ ..] => {
                let Some(prefix) = parse_net(p).map(|n| n.trunc()) else {
                    self.dev.warn(
                        st.line_of(&w[1..]),
                        format!("static route: cannot read the prefix '{p}'"),
                    );
                    return;
                };
                let block = &mut self.statics[b];
                let routes = &mut block.routes;
                let r = match block.index.get(&prefix) {
                    Some(r) => *r,
                    None => {
                        block.index.insert(prefix, routes.len());
                        routes.push(StaticSpec {
                            prefix,
                            line: st.line_of(&w[1..]),
                            next_hops: Vec::new(),
                            qualified: Vec::new(),
                            discard: None,
                            reject: None,
                            next_table: None,
                            preference: None,
                            resolve: false,
                        });
                        routes.len() - 1
                    }
                };
                let r = &mut routes[r];
                match tail {
                    ["next-hop", hops @ ..] => {
                        for (k, h) in hops.iter().enumerate() {
                            if !r.next_hops.iter().any(|(x, _)| x == h) {
                                r.next_hops.push(((*h).to_owned(), st.line_of(&hops[k..])));
                            }
                        }
                    }
                    ["qualified-next-hop", h, rest @ ..] => {
                        let q = match r.qualified.iter().position(|(x, _, _)| x == h) {
                            Some(q) => q,
                            None => {
                                r.qualified
                                    .push(((*h).to_owned(), None, st.line_of(&tail[1..])));
                                r.qualified.len() - 1
                            }
                        };
                        if let ["preference", p, ..] = rest {
                            match p.parse() {
                                Ok(p) => r.qualified[q].1 = Some(p),
                                Err(_) => self.dev.warn(
                                    line,
                                    format!("qualified-next-hop preference: '{p}' is not a number"),
                                ),
                            }
                        }
                    }
                    ["discard", ..] => r.discard = Some(st.line_of(tail)),
                    ["reject", ..] => r.reject = Some(st.line_of(tail)),
                    ["next-table", ..] => r.next_table = Some(st.line_of(tail)),
                    ["resolve"] => r.resolve = true,
                    ["no-resolve"] => r.resolve = false,
                    ["preference", p, ..] => match p.parse() {
                        Ok(p) => r.preference = Some(p),
                        Err(_) => self.dev.warn(
                            line,
                            format!("static route preference: '{p}' is not a number"),
                        ),
                    },
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// A statement under `protocols bgp` (`w`: the words after `bgp`).
    fn bgp(&mut self, inst: Option<&str>, w: &[&str], st: &Statement) {
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

    fn ospf(&mut self, inst: Option<&str>, w: &[&str], st: &Statement) {
        match w {
            ["area", area, "interface", ifname, rest @ ..] => {
                let disabled = rest.first() == Some(&"disable");
                let key = (
                    inst.map(str::to_owned),
                    (*area).to_owned(),
                    (*ifname).to_owned(),
                );
                match self.ospf_index.get(&key) {
                    Some(i) => self.ospf[*i].4 |= disabled,
                    None => {
                        self.ospf_index.insert(key.clone(), self.ospf.len());
                        self.ospf
                            .push((key.0, key.1, key.2, st.line_of(&w[3..]), disabled));
                    }
                }
            }
            ["export", ps @ ..] => self.policy_refs(ps, "ospf export policy-statement", st),
            _ => {}
        }
    }

    fn policy_options(&mut self, w: &[&str], st: &Statement) {
        let Some(at) = w.get(1..).map(|name| st.line_of(name)) else {
            return;
        };
        match w {
            ["policy-statement", name, rest @ ..] => {
                self.define(StructureKind::PolicyStatement, name, at);
                let (term, rest) = match rest {
                    ["term", t, tail @ ..] => (*t, tail),
                    tail => ("", tail),
                };
                self.term(name, term, rest, st);
                self.policy_clause(rest, st);
            }
            ["prefix-list", name, rest @ ..] => {
                self.define(StructureKind::PrefixList, name, at);
                // `from prefix-list` matches its prefixes exactly.
                if let [p] = rest {
                    if let Some(prefix) = parse_net(p) {
                        self.dev.prefix_lists.push(PrefixListEntry {
                            name: (*name).to_owned(),
                            seq: None,
                            permit: true,
                            prefix: prefix.trunc(),
                            ge: None,
                            le: None,
                            line: st.line_of(rest),
                        });
                    }
                }
                match self.prefix_list_index.get(*name) {
                    Some(i) => self.prefix_lists[*i].2 |= !rest.is_empty(),
                    None => {
                        self.prefix_list_index
                            .insert((*name).to_owned(), self.prefix_lists.len());
                        self.prefix_lists
                            .push(((*name).to_owned(), at, !rest.is_empty()));
                    }
                }
            }
            ["community", name, ..] => self.define(StructureKind::Community, name, at),
            ["as-path", name, ..] => self.define(StructureKind::AsPath, name, at),
            ["as-path-group", name, ..] => self.define(StructureKind::AsPathGroup, name, at),
            _ => {}
        }
    }

    /// A policy-statement term as a route-map-like clause, so that what an export policy
    /// announces can be evaluated: `from prefix-list` (and `prefix-list-filter … exact`)
    /// are its prefix lists, `then accept` / `reject` its verdict; any other match
    /// condition or flow action is kept as not evaluated (the answer is then unknown).
    fn term(&mut self, policy: &str, term: &str, w: &[&str], st: &Statement) {
        let key = (policy.to_owned(), term.to_owned());
        let i = match self.terms.get(&key) {
            Some((i, _)) => *i,
            None => {
                let seq = 10
                    * (1 + self
                        .dev
                        .route_map_clauses
                        .iter()
                        .filter(|c| c.name == policy)
                        .count() as u32);
                self.terms
                    .insert(key.clone(), (self.dev.route_map_clauses.len(), false));
                self.dev.route_map_clauses.push(RouteMapClause {
                    name: policy.to_owned(),
                    seq,
                    permit: false,
                    prefix_lists: Vec::new(),
                    other: Vec::new(),
                    line: st.line_of(w),
                });
                self.dev.route_map_clauses.len() - 1
            }
        };
        let clause = &mut self.dev.route_map_clauses[i];
        match w {
            ["from", "prefix-list", names @ ..] => clause
                .prefix_lists
                .extend(names.iter().map(|n| (*n).to_owned())),
            ["from", "prefix-list-filter", name, "exact"] => {
                clause.prefix_lists.push((*name).to_owned())
            }
            ["then", verdict @ ("accept" | "reject")] => {
                clause.permit = *verdict == "accept";
                if let Some(t) = self.terms.get_mut(&key) {
                    t.1 = true;
                }
            }
            ["then", "next" | "default-action", ..] | ["from" | "to", ..] => {
                clause.other.push(w.join(" "))
            }
            _ => {}
        }
    }

    /// A policy-statement's `from`, `to` or `then` clause.
    fn policy_clause(&mut self, w: &[&str], st: &Statement) {
        use StructureKind::{AsPath, AsPathGroup, Community, PrefixList};
        match w {
            ["from" | "to", "prefix-list", names @ ..] => {
                self.refs(PrefixList, names, "policy-statement prefix-list", st)
            }
            ["from" | "to", "prefix-list-filter", _, ..] => self.ref_one(
                PrefixList,
                &w[2..],
                "policy-statement prefix-list-filter",
                st,
            ),
            ["from" | "to", "community", names @ ..] => {
                self.refs(Community, names, "policy-statement from community", st)
            }
            ["from" | "to", "as-path", names @ ..] => {
                self.refs(AsPath, names, "policy-statement from as-path", st)
            }
            ["from" | "to", "as-path-group", names @ ..] => self.refs(
                AsPathGroup,
                names,
                "policy-statement from as-path-group",
                st,
            ),
            ["from" | "to", "policy", names @ ..] => {
                self.policy_refs(names, "policy-statement policy", st)
            }
            ["then", "community", op @ ("add" | "delete" | "set"), _, ..] => {
                let context = format!("policy-statement then {op} community");
                self.ref_one(Community, &w[3..], &context, st);
            }
            _ => {}
        }
    }

    fn firewall(&mut self, w: &[&str], st: &Statement) {
        let (defines, name_at, rest) = match w {
            ["filter", _, rest @ ..] => (true, &w[1..], rest),
            ["family", "inet", "filter", _, rest @ ..] => (true, &w[3..], rest),
            // Other families' filters are separate namespaces olav does not model; their
            // terms still reference prefix-lists.
            ["family", _, "filter", _, rest @ ..] => (false, &w[3..], rest),
            _ => return,
        };
        if defines {
            let name = name_at[0];
            self.define(StructureKind::FirewallFilter, name, st.line_of(name_at));
        }
        if let ["term", _, "from", kind, _, ..] = rest {
            let context = match *kind {
                "source-prefix-list" => "firewall filter source prefix-list",
                "destination-prefix-list" => "firewall filter destination prefix-list",
                "prefix-list" => "firewall filter prefix-list",
                _ => return,
            };
            self.ref_one(StructureKind::PrefixList, &rest[4..], context, st);
        }
    }

    fn finish(mut self, text: &str) -> DeviceConfig {
        self.finish_interfaces();
        self.finish_statics();
        self.finish_bgp();
        self.finish_ospf();
        let resolving = std::mem::take(&mut self.resolving);
        self.dev.judge_static_routes(|r| {
            if resolving.contains(&(r.vrf.clone(), r.prefix)) {
                NextHopResolution::ProtocolsOnly
            } else {
                NextHopResolution::ConnectedOnly
            }
        });
        // A term without `accept` or `reject` goes on to the next term; a policy whose
        // terms all miss goes on to the chain's next policy, then the protocol's default.
        for (i, terminal) in self.terms.values() {
            if !terminal {
                self.dev.route_map_clauses[*i]
                    .other
                    .push("a term without accept or reject".into());
            }
        }
        let policies: BTreeSet<(String, u32)> = self
            .dev
            .route_map_clauses
            .iter()
            .map(|c| (c.name.clone(), c.line))
            .collect();
        let mut last: std::collections::BTreeMap<String, u32> = Default::default();
        for (name, line) in policies {
            last.entry(name).or_insert(line);
        }
        for (name, line) in last {
            self.dev.route_map_clauses.push(RouteMapClause {
                name,
                seq: u32::MAX,
                permit: false,
                prefix_lists: Vec::new(),
                other: vec![
                    "no term matched: the chain's next policy or the default policy decides".into(),
                ],
                line,
            });
        }
        for (name, line, has_entries) in std::mem::take(&mut self.prefix_lists) {
            if !has_entries {
                self.dev.warn(
                    line,
                    format!(
                        "prefix-list '{name}' is empty: a policy term matching it matches no route"
                    ),
                );
            }
        }
        self.dev.warnings.sort_by_key(|w| w.line);
        self.dev.lines_total = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
        self.dev.lines_unrecognised = u32::try_from(self.unrecognised.len()).unwrap_or(u32::MAX);
        self.dev
    }

    fn finish_interfaces(&mut self) {
        // Primary address per unit and family: the one flagged, else the lowest.
        let key = |p: &PendingAddress| (p.iface, p.net.addr().is_ipv4());
        let flagged: HashSet<(usize, bool)> = self
            .addresses
            .iter()
            .filter(|p| p.primary)
            .map(key)
            .collect();
        let mut primary: HashMap<(usize, bool), IpNet> = HashMap::new();
        for p in &self.addresses {
            if flagged.contains(&key(p)) {
                if p.primary {
                    primary.entry(key(p)).or_insert(p.net);
                }
                continue;
            }
            let cur = primary.entry(key(p)).or_insert(p.net);
            if p.net.addr() < cur.addr() {
                *cur = p.net;
            }
        }
        for p in &self.addresses {
            let is_primary = primary.get(&key(p)) == Some(&p.net);
            self.dev.interfaces[p.iface]
                .addresses
                .push(InterfaceAddress {
                    address: p.net,
                    kind: if is_primary {
                        AddressKind::Primary
                    } else {
                        AddressKind::Secondary
                    },
                    line: p.line,
                });
        }
        for (idx, vip, line) in &self.virtuals {
            self.dev.interfaces[*idx].addresses.push(InterfaceAddress {
                address: *vip,
                kind: AddressKind::Virtual,
                line: *line,
            });
        }
        // A disabled physical port takes its units down.
        let down: HashSet<String> = self
            .dev
            .interfaces
            .iter()
            .filter(|i| !i.admin_up && !i.name.contains('.'))
            .map(|i| i.name.clone())
            .collect();
        for i in self.dev.interfaces.iter_mut() {
            if let Some((phys, _)) = i.name.rsplit_once('.') {
                if down.contains(phys) {
                    i.admin_up = false;
                }
            }
        }
        for (idx, sw) in std::mem::take(&mut self.switching) {
            let resolve = |m: &String| {
                self.vlans
                    .get(m)
                    .map_or_else(|| m.clone(), |n| n.to_string())
            };
            let members: Vec<String> = sw.members.iter().map(resolve).collect();
            let iface = &mut self.dev.interfaces[idx];
            let mode = sw.mode.unwrap_or(SwitchportMode::Access);
            iface.switchport_mode = Some(mode);
            match mode {
                SwitchportMode::Access => {
                    iface.access_vlan = members.first().and_then(|m| m.parse().ok())
                }
                SwitchportMode::Trunk if !members.is_empty() => {
                    iface.trunk_vlans = Some(members.join(","))
                }
                SwitchportMode::Trunk => {}
            }
        }
        let mut missing = Vec::new();
        for ri in &self.instances {
            if ri
                .kind
                .as_deref()
                .is_some_and(|k| LAYER2_INSTANCES.contains(&k))
            {
                continue;
            }
            for (name, line) in &ri.interfaces {
                // `interface ge-0/0/1` without a unit means unit 0.
                let unit = if name.contains('.') {
                    name.clone()
                } else {
                    format!("{name}.0")
                };
                let idx = self.index.get(&unit);
                match idx {
                    Some(i) => self.dev.interfaces[*i].vrf = Some(ri.name.clone()),
                    None => missing.push((
                        *line,
                        format!(
                            "routing-instance {}: interface {name} is not configured",
                            ri.name
                        ),
                    )),
                }
            }
        }
        for (line, m) in missing {
            self.dev.warn(line, m);
        }
        if self.management_instance {
            for i in self.dev.interfaces.iter_mut().filter(|i| i.vrf.is_none()) {
                let port = i.name.split('.').next().unwrap_or("");
                if MANAGEMENT_PORTS.contains(&port) {
                    i.vrf = Some("mgmt_junos".to_owned());
                }
            }
        }
    }

    fn finish_statics(&mut self) {
        for b in std::mem::take(&mut self.statics) {
            for r in b.routes {
                if r.resolve {
                    self.resolving.insert((b.vrf.clone(), r.prefix));
                }
                let distance = r.preference.or(b.default_preference);
                let row = |line: u32| StaticRoute {
                    vrf: b.vrf.clone(),
                    prefix: r.prefix,
                    next_hop: None,
                    next_hop_interface: None,
                    distance,
                    activity: RouteActivity::Usable,
                    line,
                };
                let mut rows = Vec::new();
                let hop = |mut route: StaticRoute, h: &str| {
                    match h.parse::<IpAddr>() {
                        Ok(ip) => route.next_hop = Some(ip),
                        Err(_) => route.next_hop_interface = Some(h.to_owned()),
                    }
                    route
                };
                for (h, line) in &r.next_hops {
                    rows.push(hop(row(*line), h));
                }
                for (h, pref, line) in &r.qualified {
                    let mut route = hop(row(*line), h);
                    route.distance = pref.or(distance);
                    rows.push(route);
                }
                for (kind, line) in [("discard", r.discard), ("reject", r.reject)] {
                    if let Some(line) = line {
                        let mut route = row(line);
                        route.next_hop_interface = Some(kind.to_owned());
                        rows.push(route);
                    }
                }
                if rows.is_empty() {
                    match r.next_table {
                        // A lookup in another table: a route without a next hop of its own.
                        Some(line) => rows.push(row(line)),
                        None => self.dev.warn(
                            r.line,
                            format!(
                                "static route {}: no next-hop, qualified-next-hop, discard, reject or next-table",
                                r.prefix
                            ),
                        ),
                    }
                }
                self.dev.static_routes.extend(rows);
            }
        }
    }

    /// The interface owning `ip`, preferring one in `vrf`.
    fn owner_of(&self, ip: IpAddr, vrf: Option<&str>) -> Option<String> {
        let owners: Vec<&Interface> = self
            .dev
            .interfaces
            .iter()
            .filter(|i| i.addresses.iter().any(|a| a.address.addr() == ip))
            .collect();
        owners
            .iter()
            .find(|i| i.vrf.as_deref() == vrf)
            .or(owners.first())
            .map(|i| i.name.clone())
    }

    fn finish_bgp(&mut self) {
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
                    n.ebgp_multihop = eff.multihop;
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

    fn finish_ospf(&mut self) {
        for (vrf, area, ifname, line, disabled) in std::mem::take(&mut self.ospf) {
            if disabled {
                continue;
            }
            let unit = if ifname.contains('.') {
                ifname.clone()
            } else {
                format!("{ifname}.0")
            };
            let iface = self.index.get(&unit).map(|i| &self.dev.interfaces[*i]);
            let prefix = iface.and_then(|i| {
                i.addresses
                    .iter()
                    .find(|a| a.kind == AddressKind::Primary && a.address.addr().is_ipv4())
                    .map(|a| a.address.trunc())
            });
            self.dev.ospf_networks.push(OspfNetwork {
                process: vrf.unwrap_or_else(|| "default".to_owned()),
                prefix,
                interface: Some(ifname),
                area,
                line,
            });
        }
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
            let name = family_name(family, rest.first().copied());
            if !l.families.contains(&name) {
                l.families.push(name);
            }
        }
        ["shutdown", ..] => l.shutdown = true,
        // `passive` only waits for the peer to open the session; it changes nothing olav
        // checks. Other statements (timers, authentication, BFD, …) are not modelled.
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_terms_become_clauses_that_can_be_evaluated() {
        let d = parse("set policy-options prefix-list OURS 10.40.0.0/16\nset policy-options policy-statement OUT term ours from prefix-list OURS\nset policy-options policy-statement OUT term ours then accept\nset policy-options policy-statement OUT term tag then community add X\nset policy-options policy-statement OUT term last then reject\nset policy-options policy-statement P2 term a from protocol static\nset policy-options policy-statement P2 term a then accept\n");
        let show: Vec<(String, u32, bool, Vec<String>, usize)> = d
            .route_map_clauses
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    c.seq,
                    c.permit,
                    c.prefix_lists.clone(),
                    c.other.len(),
                )
            })
            .collect();
        assert_eq!(
            show,
            vec![
                ("OUT".into(), 10, true, vec!["OURS".into()], 0),
                ("OUT".into(), 20, false, vec![], 1),
                ("OUT".into(), 30, false, vec![], 0),
                ("P2".into(), 10, true, vec![], 1),
                ("OUT".into(), u32::MAX, false, vec![], 1),
                ("P2".into(), u32::MAX, false, vec![], 1),
            ]
        );
        assert_eq!(d.prefix_lists.len(), 1);
        assert!(d.prefix_lists[0].matches(&"10.40.0.0/16".parse().expect("net")));
        assert!(!d.prefix_lists[0].matches(&"10.40.1.0/24".parse().expect("net")));
    }

    #[test]
    fn speeds_and_families() {
        assert_eq!(parse_speed("10g"), Some(10_000));
        assert_eq!(parse_speed("2.5G"), Some(2_500));
        assert_eq!(parse_speed("100m"), Some(100));
        assert_eq!(parse_speed("infg"), None);
        assert_eq!(parse_speed("fast"), None);
        assert_eq!(family_name("inet", Some("unicast")), "ipv4 unicast");
        assert_eq!(family_name("inet6", None), "ipv6 unicast");
        assert_eq!(
            family_name("inet", Some("labeled-unicast")),
            "ipv4 labeled-unicast"
        );
        assert_eq!(family_name("inet-vpn", Some("unicast")), "vpnv4");
        assert_eq!(family_name("evpn", Some("signaling")), "evpn");
        assert_eq!(family_name("route-target", None), "route-target");
    }

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
