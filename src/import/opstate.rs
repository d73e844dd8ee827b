//! The operational-state file: what configs do not say. Roles and sites, LLDP
//! neighbors, declared links, BGP session states, interface oper states, services and
//! when it was all collected. Format: `docs/state-file.md`.

use crate::yaml;
use serde::Deserialize;

/// File name of the state file, beside `configs/` in a snapshot.
pub const FILE_NAME: &str = "state.yaml";

/// The whole state file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpState {
    /// When the snapshot was collected (RFC 3339).
    pub collected_at: Option<String>,
    /// Per-device facts.
    #[serde(default)]
    pub devices: Vec<DeviceFacts>,
    /// LLDP neighbor table entries.
    #[serde(default)]
    pub lldp: Vec<LldpNeighbor>,
    /// Links declared by a source of truth (cabling database, NetBox).
    #[serde(default)]
    pub links: Vec<DeclaredLink>,
    /// Observed BGP session states.
    #[serde(default)]
    pub bgp_sessions: Vec<BgpSessionState>,
    /// Observed interface states.
    #[serde(default)]
    pub interfaces: Vec<InterfaceState>,
    /// Services and where they live.
    #[serde(default)]
    pub services: Vec<Service>,
}

/// Facts about one device.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceFacts {
    /// Hostname as in its config.
    pub hostname: String,
    /// Role (border, core, distribution, access, …).
    pub role: Option<String>,
    /// Site name.
    pub site: Option<String>,
    /// NetBox-style status (active, planned, offline, decommissioning).
    pub status: Option<String>,
    /// Hardware model.
    pub model: Option<String>,
    /// Management address.
    pub management_address: Option<String>,
}

/// One LLDP neighbor entry as seen from `hostname`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LldpNeighbor {
    /// Local device.
    pub hostname: String,
    /// Local interface (any usual spelling).
    pub ifname: String,
    /// Neighbor's system name.
    pub neighbor: String,
    /// Neighbor's port (any usual spelling).
    pub neighbor_ifname: String,
}

/// A declared link, `device:interface` on each side.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeclaredLink {
    /// One end, `device:interface`.
    pub a: String,
    /// Other end, `device:interface`.
    pub b: String,
}

/// An observed BGP session state.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BgpSessionState {
    /// Device.
    pub hostname: String,
    /// VRF (default when absent).
    pub vrf: Option<String>,
    /// Peer address.
    pub peer: String,
    /// State as the device reports it (Established, Idle, Active, …).
    pub state: String,
}

/// An observed interface state.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterfaceState {
    /// Device.
    pub hostname: String,
    /// Interface (any usual spelling).
    pub ifname: String,
    /// up / down / lowerlayerdown / notpresent.
    pub oper_state: String,
}

/// A service: something users notice when it breaks.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Service {
    /// Unique name.
    pub name: String,
    /// Kind (voice, data, wifi, internet, …).
    pub kind: Option<String>,
    /// critical / high / medium / low.
    pub criticality: Option<String>,
    /// Where it lives.
    #[serde(default)]
    pub endpoints: Vec<Endpoint>,
}

/// Where a service lives: exactly one of device, interface (`device:ifname`) or prefix.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    /// A whole device.
    pub device: Option<String>,
    /// An interface, `device:ifname`.
    pub interface: Option<String>,
    /// A prefix.
    pub prefix: Option<String>,
}

/// Reads a state file's text.
pub fn parse(text: &str) -> Result<OpState, yaml::YamlError> {
    yaml::from_str(text)
}

/// Values of the state file that are wrong but not fatal, each with the line it is on:
/// a time that is not RFC 3339, an unknown criticality, a management address that is
/// not an address, names with control characters (which are replaced by spaces so they
/// can never pose as other lines). The state keeps the rest.
pub fn validate(state: &mut OpState, text: &str) -> Vec<(Option<u32>, String)> {
    let line_of = |needle: &str| -> Option<u32> {
        text.lines()
            .position(|l| l.contains(needle))
            .map(|i| i as u32 + 1)
    };
    let mut out = Vec::new();
    if let Some(at) = &state.collected_at {
        if chrono::DateTime::parse_from_rfc3339(at).is_err() {
            out.push((
                line_of("collected_at"),
                format!("collected_at: '{at}' is not an RFC 3339 time (e.g. 2026-11-28T06:00:00Z); ignored"),
            ));
            state.collected_at = None;
        }
    }
    let clean = |s: &mut String, what: &str, out: &mut Vec<(Option<u32>, String)>| {
        if s.chars().any(char::is_control) {
            out.push((
                line_of(s.lines().next().unwrap_or("")),
                format!("{what} {s:?} has control characters; they are replaced by spaces"),
            ));
            *s = s
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
        }
    };
    for d in &mut state.devices {
        clean(&mut d.hostname, "hostname", &mut out);
        if let Some(a) = &d.management_address {
            if a.parse::<std::net::IpAddr>().is_err() {
                out.push((
                    line_of(a),
                    format!(
                        "devices: {}: management_address '{a}' is not an IP address; ignored",
                        d.hostname
                    ),
                ));
                d.management_address = None;
            }
        }
    }
    for s in &mut state.services {
        clean(&mut s.name, "service", &mut out);
        if let Some(c) = &s.criticality {
            if !matches!(c.as_str(), "critical" | "high" | "medium" | "low") {
                out.push((
                    line_of(&format!("criticality: {c}")).or_else(|| line_of(c)),
                    format!("services: {}: criticality '{c}' is not critical, high, medium or low; unrated", s.name),
                ));
                s.criticality = None;
            }
        }
    }
    out
}
