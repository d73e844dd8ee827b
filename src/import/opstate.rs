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
