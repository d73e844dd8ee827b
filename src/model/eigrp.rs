//! EIGRP as the parsers read it, vendor-neutral: the processes (classic `router eigrp N`
//! and its `address-family ipv4 vrf X` blocks, named mode `router eigrp NAME` with its
//! address families), what enables interfaces (`network` statements, NX-OS `ip router
//! eigrp N`), passive interfaces, redistribution, what olav does not model; and each
//! interface's `delay` and `bandwidth`, which the composite metric is made of.

use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;

/// A device's EIGRP configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EigrpConfig {
    /// One per (process, VRF): a classic process's `address-family ipv4 vrf X` block and
    /// a named process's address families are instances of their own.
    pub processes: Vec<EigrpProcess>,
    /// Per-interface settings (only interfaces that set one).
    pub interfaces: Vec<EigrpInterface>,
}

impl EigrpConfig {
    /// The instance of process `id` in `vrf`, created when missing.
    pub fn process_mut(&mut self, id: &str, vrf: Option<&str>, line: u32) -> &mut EigrpProcess {
        let i = match self
            .processes
            .iter()
            .position(|p| p.id == id && p.vrf.as_deref() == vrf)
        {
            Some(i) => i,
            None => {
                self.processes.push(EigrpProcess {
                    id: id.to_owned(),
                    vrf: vrf.map(str::to_owned),
                    line,
                    ..EigrpProcess::default()
                });
                self.processes.len() - 1
            }
        };
        &mut self.processes[i]
    }

    /// The settings of interface `name`, created when missing.
    pub fn interface_mut(&mut self, name: &str) -> &mut EigrpInterface {
        super::per_interface::setting_mut(&mut self.interfaces, name)
    }

    /// The settings of interface `name`, when any is configured.
    pub fn interface(&self, name: &str) -> Option<&EigrpInterface> {
        super::per_interface::setting(&self.interfaces, name)
    }
}

/// One EIGRP instance: a process in one VRF.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EigrpProcess {
    /// The process as written (`1`, a named mode's name).
    pub id: String,
    /// The autonomous system (classic: the process number; named and VRF blocks:
    /// `autonomous-system N`). None: not known (the instance runs nothing).
    pub asn: Option<u32>,
    /// The VRF (None: the default VRF).
    pub vrf: Option<String>,
    /// Named mode (wide metrics, shown scaled down by the RIB scale).
    pub named: bool,
    /// `network A [wildcard]` statements, as prefixes (a classful network without a
    /// wildcard).
    pub networks: Vec<Ipv4Net>,
    /// `eigrp router-id`.
    pub router_id: Option<Ipv4Addr>,
    /// `passive-interface default`.
    pub passive_default: bool,
    /// `passive-interface X` (named mode: `af-interface X` / `passive-interface`).
    pub passive: Vec<String>,
    /// `no passive-interface X`.
    pub not_passive: Vec<String>,
    /// `redistribute …` lines.
    pub redistribute: Vec<EigrpRedistribute>,
    /// `distribute-list …` lines (NX-OS: `ip distribute-list eigrp TAG …` on interfaces).
    #[serde(default)]
    pub distribute: Vec<EigrpDistribute>,
    /// `default-metric bw delay rel load mtu`: (bandwidth kbit/s, delay in tens of µs).
    pub default_metric: Option<(u64, u64)>,
    /// `eigrp stub …` (NX-OS `stub …`): what a stub router advertises.
    #[serde(default)]
    pub stub: Option<EigrpStub>,
    /// `shutdown`.
    pub shutdown: bool,
    /// What the instance configures that olav does not model, in words, each once.
    pub unsupported: Vec<String>,
    /// Line of the process.
    pub line: u32,
}

impl EigrpProcess {
    /// Records a feature olav does not model (once).
    pub fn unsupported(&mut self, what: &str) {
        if !self.unsupported.iter().any(|u| u == what) {
            self.unsupported.push(what.to_owned());
        }
    }

    /// Whether interface `name` is passive in this instance.
    pub fn is_passive(&self, name: &str) -> bool {
        let listed = |l: &[String]| l.iter().any(|p| p == name || crate::ifname::same(p, name));
        if self.passive_default {
            !listed(&self.not_passive)
        } else {
            listed(&self.passive)
        }
    }
}

/// `redistribute P [metric bw delay rel load mtu] [route-map M]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EigrpRedistribute {
    /// The source protocol as written (`connected`, `static`, `ospf`, …).
    pub protocol: String,
    /// `metric bw delay …`: (bandwidth kbit/s, delay in tens of µs).
    pub metric: Option<(u64, u64)>,
    /// `route-map M`.
    pub route_map: Option<String>,
}

/// What a stub router advertises (`eigrp stub` alone: connected and summary routes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EigrpStub {
    /// `connected` (NX-OS `direct`): its connected subnets, those EIGRP runs on included.
    pub connected: bool,
    /// `static`: the static routes it redistributes.
    pub static_routes: bool,
    /// `redistributed`: every route it redistributes.
    pub redistributed: bool,
}

/// What a distribute-list filters with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DistributeList {
    /// `prefix NAME` / NX-OS `prefix-list NAME`.
    PrefixList(String),
    /// `route-map NAME`.
    RouteMap(String),
    /// An access-list, a `gateway` list, or anything else olav does not evaluate, as
    /// written.
    Other(String),
}

/// `distribute-list LIST in|out [INTERFACE]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EigrpDistribute {
    /// The list.
    pub list: DistributeList,
    /// Inbound (what the router accepts), else outbound (what it advertises).
    pub inbound: bool,
    /// Only on this interface (None: all of them).
    pub interface: Option<String>,
}

/// One interface's EIGRP settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EigrpInterface {
    /// The interface.
    pub interface: String,
    /// `delay N` (tens of µs).
    pub delay_tens_us: Option<u64>,
    /// `bandwidth N` (kbit/s).
    pub bandwidth_kbps: Option<u64>,
    /// NX-OS `ip router eigrp N`: the process enabling it.
    pub process: Option<String>,
    /// NX-OS `ip passive-interface eigrp N`.
    pub passive: bool,
}

impl super::per_interface::InterfaceSettings for EigrpInterface {
    fn interface(&self) -> &str {
        &self.interface
    }

    fn of(name: &str) -> Self {
        EigrpInterface {
            interface: name.to_owned(),
            ..EigrpInterface::default()
        }
    }
}
