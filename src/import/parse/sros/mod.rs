//! Nokia SR OS in its model-driven form: `configure { … }` as `admin show configuration`
//! and `info` print it (MD-CLI), one statement a line, blocks in braces.
//!
//! The text is flattened into statements by the Junos brace walk
//! ([`super::junos::statements::read_line_ended`]: a line ends a statement, `[ ]` lists
//! may touch their words), then each statement under `configure` is read once:
//!
//! - `system name` is the hostname;
//! - each `port` and `lag` is an interface (what the cabling names; a LAG's members its
//!   channel group), up with `admin-state enable` (disabled otherwise); the interfaces of `router "Base"` are the
//!   device's layer-3 interfaces, named as SR OS names them (`system`, `to-r2`), each on
//!   its `port`: their `ipv4 primary` address and secondaries, their `admin-state` and
//!   their port's; `loopback` and `system` interfaces have no port;
//! - `static-routes`: each `next-hop`, `blackhole` and `interface` of a route, in force only
//!   with `admin-state enable` (MD-CLI's default is disable), with its `preference` and
//!   `metric`; a `next-hop` must be on a connected subnet, an `indirect` one resolves
//!   through the routing table;
//! - BGP (`bgp` of `router "Base"`): settings resolve neighbor over group over instance;
//!   import and export policy chains; `ebgp-default-reject-policy` (true unless set false:
//!   these configurations are model-driven);
//! - `policy-options` become the Junos-style terms the routing model evaluates
//!   ([`policy`]).
//!
//! Everything else is configuration olav does not read: counted as unrecognised, and
//! where it makes routes (OSPF, IS-IS, RIP, aggregates, VPRN and IES services, other
//! routers, configuration groups) a routing warning, so that the routing model marks the
//! device incomplete.

mod bgp;
mod policy;
mod router;

use super::junos::statements::{read_line_ended, Statement};
use super::ConfigParser;
use crate::model::{DeviceConfig, NextHopResolution, Vendor};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Parser for Nokia SR OS MD-CLI configurations.
pub struct SrosParser;

impl ConfigParser for SrosParser {
    fn vendor(&self) -> Vendor {
        Vendor::NokiaSros
    }

    fn markers(&self) -> &'static [(&'static str, u32)] {
        &[("configure {", 5), ("# TiMOS-", 3)]
    }

    fn rancid_types(&self) -> &'static [&'static str] {
        &[]
    }

    fn parse(&self, text: &str) -> DeviceConfig {
        parse(text)
    }
}

/// Whether `text` is an SR OS configuration in the model-driven form: a `configure {`
/// block at the top level (the classic CLI writes `configure` without a brace).
pub fn is_model_driven(text: &str) -> bool {
    text.lines().take(super::DETECT_LINES).any(tells)
}

/// Whether `line` opens the model-driven `configure` block ([`is_model_driven`], a line at
/// a time).
pub(super) fn tells(line: &str) -> bool {
    line.starts_with("configure") && line.trim_end() == "configure {"
}

/// Parses an SR OS MD-CLI configuration.
pub fn parse(text: &str) -> DeviceConfig {
    let read = read_line_ended(text);
    let mut s = Sros::default();
    s.dev.warnings = read.warnings;
    let mut words: Vec<&str> = Vec::with_capacity(24);
    for st in &read.list {
        words.clear();
        words.extend(st.words.iter().map(String::as_str));
        // Outside `configure` (`persistent-indices`) is bookkeeping, not configuration.
        if let ["configure", rest @ ..] = words.as_slice() {
            s.statement(rest, st);
        }
    }
    s.finish(text)
}

/// Top-level blocks of `configure` that hold no routing.
const KNOWN_TOP: &[&str] = &[
    "card",
    "chassis",
    "filter",
    "log",
    "port",
    "qos",
    "sfm",
    "system",
    "lag",
    "eth-cfm",
    "multicast-management",
    "saa",
    "call-trace",
    "python",
    "oam-pm",
    "test-oam",
    "aaa",
    "cflowd",
    "mirror",
    "redundancy",
];

/// The walk's state.
#[derive(Default)]
struct Sros {
    dev: DeviceConfig,
    router: router::Router,
    bgp: bgp::Bgp,
    policy: policy::Policies,
    /// Ports, in file order, with their lines.
    ports: Vec<(String, u32)>,
    /// Ports and LAGs with `admin-state enable`.
    ports_up: HashSet<String>,
    /// The LAG each member port belongs to.
    lag_of: HashMap<String, String>,
    warned: BTreeSet<String>,
    unrecognised: BTreeSet<u32>,
}

impl Sros {
    fn statement(&mut self, w: &[&str], st: &Statement) {
        // Configuration groups would add statements olav does not see.
        if w.iter()
            .any(|x| *x == "apply-groups" || *x == "apply-groups-exclude")
        {
            self.warn_once(
                st.line,
                "router: configuration groups (apply-groups) are not applied: what they configure is left out".to_owned(),
            );
            return;
        }
        match w {
            ["system", "name", n, ..] => self.dev.hostname = Some((*n).to_owned()),
            // A LAG is a port of its own, its members' aggregate.
            ["port" | "lag", p, rest @ ..] => {
                if !self.ports.iter().any(|(n, _)| n == p) {
                    self.ports.push(((*p).to_owned(), st.line_of(w)));
                }
                match rest {
                    ["admin-state", "enable"] => {
                        self.ports_up.insert((*p).to_owned());
                    }
                    ["port", member, ..] if w[0] == "lag" => {
                        self.lag_of.insert((*member).to_owned(), (*p).to_owned());
                    }
                    _ => {}
                }
            }
            ["router", "Base", rest @ ..] => self.router_base(rest, st),
            // The management router's table is apart from the device's routing.
            ["router", "management", ..] => {}
            ["router", other, rest @ ..] if !rest.is_empty() => self.warn_once(
                st.line,
                format!("router \"{other}\" is not read: its interfaces and routes are left out"),
            ),
            ["service", "vprn", name, ..] => self.warn_once(
                st.line,
                format!("router (service vprn \"{name}\"): VPRN services are not read: their interfaces and routes are left out"),
            ),
            // IES interfaces sit in the Base table.
            ["service", "ies", name, ..] => self.warn_once(
                st.line,
                format!("router (service ies \"{name}\"): IES services are not read: their interfaces, in the Base table, are left out"),
            ),
            // Layer-2 services and their plumbing route nothing.
            ["service", ..] => {}
            ["policy-options", rest @ ..] => self.policy.statement(rest, st, &mut self.dev),
            [top, ..] if KNOWN_TOP.contains(top) => {}
            _ => {
                self.unrecognised.insert(st.line);
            }
        }
    }

    fn router_base(&mut self, w: &[&str], st: &Statement) {
        match w {
            ["autonomous-system", a] => match a.parse() {
                Ok(n) => self.bgp.asn = Some(n),
                Err(_) => self.dev.warn(
                    st.line,
                    format!("router autonomous-system: '{a}' is not an AS number"),
                ),
            },
            ["router-id", id] => match id.parse() {
                Ok(ip) => self.bgp.router_level_id = Some(ip),
                Err(_) => self
                    .dev
                    .warn(st.line, format!("router router-id: '{id}' is not an address")),
            },
            ["ecmp", n] => self.router.ecmp = n.parse().ok(),
            ["interface", name, rest @ ..] => self.router.interface(name, rest, st, &mut self.dev),
            ["static-routes", rest @ ..] => self.router.static_route(rest, st, &mut self.dev),
            ["bgp", rest @ ..] => self.bgp.statement(rest, st, &mut self.dev),
            // Settings that change no route of the main table.
            [
                "ecmp" | "ldp" | "mpls" | "rsvp" | "mpls-labels" | "bfd" | "pim" | "igmp" | "mld"
                | "segment-routing" | "sgt-qos" | "ttl-propagate" | "icmp-tunneling" | "bier"
                | "router-advertisement" | "mc-maximum-routes" | "ipv6" | "radius",
                ..,
            ] => {}
            [protocol @ ("ospf" | "ospf3" | "isis" | "rip" | "ripng" | "aggregates"
            | "route-next-hop-policy" | "policy-options" | "static-routes-v6"
            | "import-policy" | "export-policy" | "interface-export" | "vrrp"), ..] => self.warn_once(
                st.line,
                format!("router Base {protocol}: SR OS {protocol} is not computed by olav: the routes it makes are missing"),
            ),
            _ => {
                self.unrecognised.insert(st.line);
            }
        }
    }

    fn warn_once(&mut self, line: u32, message: String) {
        if self.warned.insert(message.clone()) {
            self.dev.warn(line, message);
        }
    }

    fn finish(mut self, text: &str) -> DeviceConfig {
        let ports = router::Ports {
            list: &self.ports,
            up: &self.ports_up,
            lag_of: &self.lag_of,
        };
        self.router.finish(&mut self.dev, &ports);
        self.bgp.finish(&mut self.dev);
        self.policy.finish(&mut self.dev);
        let indirect = std::mem::take(&mut self.router.indirect);
        self.dev.judge_static_routes(|r| {
            if indirect.contains(&(r.prefix, r.next_hop)) {
                NextHopResolution::Recursive
            } else {
                NextHopResolution::ConnectedOnly
            }
        });
        self.dev.warnings.sort_by_key(|w| w.line);
        self.dev.lines_total = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
        self.dev.lines_unrecognised = u32::try_from(self.unrecognised.len()).unwrap_or(u32::MAX);
        self.dev
    }
}

#[cfg(test)]
mod tests;
