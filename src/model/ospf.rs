//! OSPF as the parsers read it, vendor-neutral: the processes (router-id, reference
//! bandwidth, passive defaults, redistribution, default origination, what olav does not
//! model) and each interface's settings (cost, network type, passive, bandwidth). Which
//! interfaces run OSPF in which area is [`super::OspfNetwork`].

use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;

/// A device's OSPF configuration beyond the enablements.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OspfConfig {
    /// The processes (IOS-style `router ospf N`; Junos: one per routing instance).
    pub processes: Vec<OspfProcess>,
    /// Per-interface settings, by interface name (only interfaces that set one).
    pub interfaces: Vec<OspfInterfaceSettings>,
}

impl OspfConfig {
    /// The process `id`, created when missing.
    pub fn process_mut(&mut self, id: &str, line: u32) -> &mut OspfProcess {
        let i = match self.processes.iter().position(|p| p.id == id) {
            Some(i) => i,
            None => {
                self.processes.push(OspfProcess::new(id, line));
                self.processes.len() - 1
            }
        };
        &mut self.processes[i]
    }

    /// The settings of interface `name`, created when missing.
    pub fn interface_mut(&mut self, name: &str) -> &mut OspfInterfaceSettings {
        super::per_interface::setting_mut(&mut self.interfaces, name)
    }

    /// The settings of interface `name`, when any is configured.
    pub fn interface(&self, name: &str) -> Option<&OspfInterfaceSettings> {
        super::per_interface::setting(&self.interfaces, name)
    }
}

/// One OSPF process.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OspfProcess {
    /// The process id as written (Junos: the routing instance, `default` for the master).
    pub id: String,
    /// The VRF it runs in (None: the default VRF).
    pub vrf: Option<String>,
    /// `router-id`, when configured.
    pub router_id: Option<Ipv4Addr>,
    /// `auto-cost reference-bandwidth` / Junos `reference-bandwidth`, in Mbit/s.
    pub reference_bandwidth_mbps: Option<u64>,
    /// `passive-interface default`.
    pub passive_default: bool,
    /// `passive-interface X` (Junos: `interface X passive`).
    pub passive: Vec<String>,
    /// `no passive-interface X`.
    pub not_passive: Vec<String>,
    /// `redistribute …` lines.
    pub redistribute: Vec<OspfRedistribute>,
    /// `default-information originate`, when configured.
    pub default_originate: Option<OspfDefaultOriginate>,
    /// `area A authentication [message-digest]`: (area as written, type).
    #[serde(default)]
    pub area_auth: Vec<(String, OspfAuth)>,
    /// `area A stub [no-summary]`: (area as written, no-summary).
    #[serde(default)]
    pub stub_areas: Vec<(String, bool)>,
    /// The cost of the default route an ABR sends into a stub area or `no-summary` NSSA
    /// (IOS, NX-OS, EOS `area A default-cost N`; Junos `area A stub default-metric N`):
    /// (area as written, cost).
    #[serde(default)]
    pub default_costs: Vec<(String, u32)>,
    /// Not-so-stubby areas (IOS, NX-OS, EOS `area A nssa …`).
    #[serde(default)]
    pub nssa_areas: Vec<OspfNssa>,
    /// Area ranges (`area A range P …`, Junos `area A area-range P …`).
    #[serde(default)]
    pub ranges: Vec<OspfAreaRange>,
    /// RFC 1583 compatibility as configured: on (IOS, EOS `compatible rfc1583`, NX-OS
    /// `rfc1583compatibility`: a range's summary costs its cheapest component) or off (IOS
    /// `no compatible rfc1583`, Junos `no-rfc-1583`: its costliest); None when not written.
    #[serde(default)]
    pub rfc1583: Option<bool>,
    /// `shutdown` (the process runs nothing).
    pub shutdown: bool,
    /// What the process configures that olav does not model, in words ("stub areas",
    /// "area ranges"), each once: the device's OSPF routes are then incomplete.
    pub unsupported: Vec<String>,
    /// Line of the process.
    pub line: u32,
}

impl OspfProcess {
    /// A process with nothing configured.
    pub fn new(id: &str, line: u32) -> Self {
        OspfProcess {
            id: id.to_owned(),
            line,
            ..OspfProcess::default()
        }
    }

    /// Records a feature olav does not model (once).
    pub fn unsupported(&mut self, what: &str) {
        if !self.unsupported.iter().any(|u| u == what) {
            self.unsupported.push(what.to_owned());
        }
    }

    /// Whether interface `name` is passive in this process.
    pub fn is_passive(&self, name: &str) -> bool {
        let listed = |l: &[String]| l.iter().any(|p| p == name || crate::ifname::same(p, name));
        if self.passive_default {
            !listed(&self.not_passive)
        } else {
            listed(&self.passive)
        }
    }
}

/// `area A nssa [no-summary] [default-information-originate [metric N] [metric-type T]]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OspfNssa {
    /// The area, as written.
    pub area: String,
    /// `no-summary`: its ABR sends a default route instead of the other areas' routes.
    pub no_summary: bool,
    /// `default-information-originate`: (metric, metric type) of the type-7 default route
    /// its ABR originates into it.
    pub default_originate: Option<(Option<u32>, u8)>,
}

/// An area range: an ABR advertises one summary for the area's intra-area routes inside
/// `prefix` instead of each of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OspfAreaRange {
    /// The area, as written.
    pub area: String,
    /// The range.
    pub prefix: Ipv4Net,
    /// Advertised (IOS `not-advertise` / Junos `restrict`: the components are suppressed
    /// and nothing is sent).
    pub advertise: bool,
    /// IOS `cost N`, Junos `override-metric N`.
    pub cost: Option<u32>,
    /// Junos `exact`: only a route of exactly `prefix` is a component.
    pub exact: bool,
}

/// `redistribute connected|static [subnets] [metric N] [metric-type 1|2] [route-map M]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OspfRedistribute {
    /// The source protocol as written (`connected`, `static`, `bgp`, …).
    pub protocol: String,
    /// `subnets` (IOS without it redistributes classful networks only).
    pub subnets: bool,
    /// `metric N`.
    pub metric: Option<u32>,
    /// `metric-type 1|2` (2 when not written).
    pub metric_type: u8,
    /// `route-map M`.
    pub route_map: Option<String>,
}

/// `default-information originate [always] [metric N] [metric-type 1|2] [route-map M]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OspfDefaultOriginate {
    /// `always`: originated even without a default route in the RIB.
    pub always: bool,
    /// `metric N` (1 when not written).
    pub metric: Option<u32>,
    /// `metric-type 1|2` (2 when not written).
    pub metric_type: u8,
    /// `route-map M`.
    pub route_map: Option<String>,
}

/// How OSPF runs on an interface.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum OspfNetworkType {
    /// Broadcast (the default on Ethernet): a designated router, a transit network.
    #[default]
    Broadcast,
    /// Point-to-point (`ip ospf network point-to-point`, Junos `interface-type p2p`).
    PointToPoint,
}

/// One interface's OSPF settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OspfInterfaceSettings {
    /// The interface.
    pub interface: String,
    /// `ip ospf cost N` / Junos `metric N`.
    pub cost: Option<u32>,
    /// The network type, when configured.
    pub network_type: Option<OspfNetworkType>,
    /// Passive set on the interface itself (NX-OS `ip ospf passive-interface`, Junos
    /// `passive`): Some(true) passive, Some(false) explicitly not.
    pub passive: Option<bool>,
    /// `bandwidth N` (kbit/s), which the cost is derived from.
    pub bandwidth_kbps: Option<u64>,
    /// `ip ospf mtu-ignore`.
    pub mtu_ignore: bool,
    /// `ip ospf hello-interval N` / Junos `hello-interval N` (seconds).
    #[serde(default)]
    pub hello: Option<u32>,
    /// `ip ospf dead-interval N` / Junos `dead-interval N` (seconds; `minimal` is 1).
    #[serde(default)]
    pub dead: Option<u32>,
    /// The authentication the interface sets (`ip ospf authentication …`, Junos
    /// `authentication md5|simple-password`), over its area's.
    #[serde(default)]
    pub auth: Option<OspfAuth>,
    /// `ip ospf priority N` / Junos `priority N`.
    #[serde(default)]
    pub priority: Option<u32>,
}

/// An OSPF authentication type: neighbours must use the same one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum OspfAuth {
    /// None (`null`).
    #[default]
    Null,
    /// Simple password.
    Plain,
    /// Message digest (MD5).
    Md5,
    /// Another kind (key chains, HMAC-SHA).
    Other,
}

impl super::per_interface::InterfaceSettings for OspfInterfaceSettings {
    fn interface(&self) -> &str {
        &self.interface
    }

    fn of(name: &str) -> Self {
        OspfInterfaceSettings {
            interface: name.to_owned(),
            ..OspfInterfaceSettings::default()
        }
    }
}
