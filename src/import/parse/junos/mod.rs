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

mod bgp;
mod filter;
mod interfaces;
mod isis;
mod policy;
mod routing;
pub(super) mod statements;

use super::common::define;
use super::ConfigParser;
use crate::model::{DeviceConfig, NextHopResolution, RouteMapClause, StructureKind, Vendor};
use bgp::BgpInstance;
use interfaces::{PendingAddress, Switching};
use ipnet::IpNet;
use routing::StaticBlock;
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

/// A routing instance.
#[derive(Default)]
struct Instance {
    name: String,
    kind: Option<String>,
    interfaces: Vec<(String, u32)>,
    asn: Option<u32>,
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
    /// `system default-address-selection`: locally generated traffic leaves from the
    /// device's default address (the loopback's) unless told otherwise.
    default_address_selection: bool,
    instances: Vec<Instance>,
    asn: Option<u32>,
    router_id: Option<IpAddr>,
    confederation: Option<u32>,
    confederation_members: Vec<u32>,
    /// Routing options that change what BGP announces or resolves and that olav does not
    /// compute (resolution policies, aggregate and generated routes): (instance, what).
    bgp_unmodelled: Vec<(Option<String>, String)>,
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
            ["system", "default-address-selection", ..] => self.default_address_selection = true,
            ["interfaces", name, "unit", unit, "family", "iso", iso @ ..] => {
                self.iso_family(name, unit, iso, st);
                self.interfaces(&w[1..], st);
            }
            ["interfaces", rest @ ..] => self.interfaces(rest, st),
            ["routing-options", rest @ ..] => self.routing_options(None, rest, st),
            ["routing-instances", name, rest @ ..] => self.routing_instance(name, rest, st),
            ["protocols", "bgp", rest @ ..] => self.bgp(None, rest, st),
            ["protocols", "ospf", rest @ ..] => self.ospf(None, rest, st),
            // OSPFv3 is not modelled; an area range Junos refuses at commit is still named.
            ["protocols", "ospf3", "area", _, "area-range", p, ..] => {
                if let Some(net) = parse_net(p) {
                    self.refused_at_commit("OSPFv3 area-range", net, st.line_of(&w[5..]));
                }
            }
            ["protocols", "isis", rest @ ..] => self.isis(None, rest, st),
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
                sets: Vec::new(),
                matches: Vec::new(),
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
}

#[cfg(test)]
mod tests {
    use super::bgp::family_name;
    use super::interfaces::parse_speed;
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
}
