//! The devices' own routing tables, read from their show output: what the fidelity tests
//! compare olav's RIB with, parsed as batfish/lab-validation's parsers read them
//! (`docs/routing.md`). Outside input: nothing here panics, whatever the text.

mod cisco;
mod frr;
mod json;
mod sros;

pub use cisco::{ios, nxos};
pub use frr::{frr, frr_text};
pub use json::{eos, junos};
pub use sros::sros;

use ipnet::Ipv4Net;
use std::net::Ipv4Addr;

/// A show output that cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum ShownError {
    /// The JSON does not parse.
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The JSON parses but is not the command's shape.
    #[error("unexpected shape: {0}")]
    Shape(&'static str),
}

/// One next hop of one route, as the device shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownRoute {
    /// The VRF (`default` for the global table).
    pub vrf: String,
    /// The destination.
    pub network: Ipv4Net,
    /// The protocol, with Batfish's name where one maps (`connected`, `local`, `static`,
    /// `bgp`, `ospfIA`, …), else the device's own word, lowercased.
    pub protocol: String,
    /// The next-hop address, when shown.
    pub next_hop_ip: Option<Ipv4Addr>,
    /// The exit interface, when shown (as the device spells it).
    pub next_hop_interface: Option<String>,
    /// Whether it drops what it matches (`Null0`, Junos `Discard` / `Reject`).
    pub discard: bool,
    /// The metric (0 when not shown).
    pub metric: u64,
    /// The administrative distance (Junos preference).
    pub admin_distance: u32,
    /// The tag, when shown.
    pub tag: Option<u64>,
    /// Whether the device marks it active / best (NX-OS `*via`, Junos `*`); true where
    /// the output shows only active routes.
    pub best: bool,
}

impl ShownRoute {
    fn new(vrf: &str, network: Ipv4Net, protocol: &str) -> ShownRoute {
        ShownRoute {
            vrf: vrf.to_owned(),
            network: network.trunc(),
            protocol: protocol.to_owned(),
            next_hop_ip: None,
            next_hop_interface: None,
            discard: false,
            metric: 0,
            admin_distance: 0,
            tag: None,
            best: true,
        }
    }

    /// Sets the exit interface, or marks the route a discard one for `Null0`.
    fn set_interface(&mut self, name: &str) {
        if name.to_ascii_lowercase().starts_with("null") {
            self.discard = true;
        } else {
            self.next_hop_interface = Some(name.to_owned());
        }
    }
}
