//! IS-IS as the parsers read it, vendor-neutral: the processes (`router isis [TAG]`,
//! Junos `protocols isis`) with their NETs, level and metric style, and each interface
//! that runs IS-IS with its levels, metrics and passive flag.

use serde::{Deserialize, Serialize};

/// The levels a router or circuit runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum IsisLevels {
    /// Level 1 only.
    L1,
    /// Level 2 only.
    L2,
    /// Both (every vendor's default).
    #[default]
    L1L2,
}

impl IsisLevels {
    /// Whether level 1 runs.
    pub fn l1(self) -> bool {
        self != IsisLevels::L2
    }

    /// Whether level 2 runs.
    pub fn l2(self) -> bool {
        self != IsisLevels::L1
    }

    /// Reads `level-1`, `level-2`, `level-2-only`, `level-1-2` (and Junos `1`, `2`).
    pub fn parse(word: &str) -> Option<IsisLevels> {
        match word {
            "level-1" | "level-1-only" | "1" => Some(IsisLevels::L1),
            "level-2" | "level-2-only" | "2" => Some(IsisLevels::L2),
            "level-1-2" => Some(IsisLevels::L1L2),
            _ => None,
        }
    }
}

/// A device's IS-IS configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IsisConfig {
    /// The processes (IOS-style by tag, `` for none; Junos: the routing instance).
    pub processes: Vec<IsisProcess>,
    /// Interfaces that run IS-IS or set an IS-IS setting.
    pub interfaces: Vec<IsisInterface>,
    /// Junos units with `family iso` (IS-IS runs only there).
    pub iso_units: Vec<String>,
}

impl IsisConfig {
    /// The process `tag`, created when missing.
    pub fn process_mut(&mut self, tag: &str, line: u32) -> &mut IsisProcess {
        let i = match self.processes.iter().position(|p| p.tag == tag) {
            Some(i) => i,
            None => {
                self.processes.push(IsisProcess {
                    tag: tag.to_owned(),
                    line,
                    ..IsisProcess::default()
                });
                self.processes.len() - 1
            }
        };
        &mut self.processes[i]
    }

    /// The settings of interface `name`, created when missing.
    pub fn interface_mut(&mut self, name: &str) -> &mut IsisInterface {
        super::per_interface::setting_mut(&mut self.interfaces, name)
    }

    /// The settings of interface `name`, when any is configured.
    pub fn interface(&self, name: &str) -> Option<&IsisInterface> {
        super::per_interface::setting(&self.interfaces, name)
    }
}

/// One IS-IS process.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IsisProcess {
    /// The tag as written (`` without one; Junos: the routing instance, `default`).
    pub tag: String,
    /// The VRF (None: the default VRF).
    pub vrf: Option<String>,
    /// Area addresses from the `net` lines (`49.0001`), lowercased.
    pub areas: Vec<String>,
    /// `is-type` (Junos: the levels not disabled).
    pub levels: IsisLevels,
    /// `metric-style wide` (Some(true)), `narrow` (Some(false)), `transition` (None with
    /// `transition` set).
    pub wide: Option<bool>,
    /// `metric-style transition`.
    pub transition: bool,
    /// `passive-interface default`.
    pub passive_default: bool,
    /// `passive-interface X`.
    pub passive: Vec<String>,
    /// `no passive-interface X`.
    pub not_passive: Vec<String>,
    /// `address-family ipv4 [unicast]` configured (EOS routes IPv4 only with it).
    #[serde(default)]
    pub ipv4: bool,
    /// `redistribute connected|static …` lines.
    pub redistribute: Vec<IsisRedistribute>,
    /// `shutdown` / Junos `disable`.
    pub shutdown: bool,
    /// What the process configures that olav does not model, in words, each once.
    pub unsupported: Vec<String>,
    /// Line of the process.
    pub line: u32,
}

impl IsisProcess {
    /// Records a feature olav does not model (once).
    pub fn unsupported(&mut self, what: &str) {
        if !self.unsupported.iter().any(|u| u == what) {
            self.unsupported.push(what.to_owned());
        }
    }
}

/// `redistribute P [ip] [level-1|level-2|level-1-2] [metric N] [route-map M]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IsisRedistribute {
    /// The source protocol as written (`connected`, `static`, `direct`, `bgp`, …).
    pub protocol: String,
    /// The levels it goes into (level 2 when not written).
    pub levels: IsisLevels,
    /// `metric N` (0 when not written).
    pub metric: Option<u32>,
    /// `route-map M`.
    pub route_map: Option<String>,
}

/// One interface's IS-IS settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IsisInterface {
    /// The interface (Junos: the unit).
    pub interface: String,
    /// The process enabling it (`ip router isis [TAG]`, EOS `isis enable TAG`, Junos
    /// `protocols isis interface`): None when only a setting is written.
    pub process: Option<String>,
    /// `isis circuit-type` (Junos: levels not disabled on the interface).
    pub circuit: Option<IsisLevels>,
    /// `isis metric N [level-1|level-2]` / Junos `level N metric M`: (L1, L2).
    pub metric: (Option<u32>, Option<u32>),
    /// Passive here (`isis passive`, Junos `passive`).
    pub passive: bool,
    /// Junos `disable` on the interface (or on every level).
    pub disabled: bool,
}

impl super::per_interface::InterfaceSettings for IsisInterface {
    fn interface(&self) -> &str {
        &self.interface
    }

    fn of(name: &str) -> Self {
        IsisInterface {
            interface: name.to_owned(),
            ..IsisInterface::default()
        }
    }
}
