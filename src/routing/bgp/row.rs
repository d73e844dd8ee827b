//! One row of a device's BGP RIB as olav gives it (`olav routes --rib bgp`).

use super::Origin;
use crate::routing::route::NextHop;
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;

/// One row of a device's BGP RIB (`olav routes --rib bgp`): Batfish's `bgpRib` columns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgpRoute {
    /// The VRF.
    pub vrf: String,
    /// The prefix.
    pub network: Ipv4Net,
    /// The next hop (None: originated here).
    pub next_hop: Option<Ipv4Addr>,
    /// `bgp`, `ibgp`, `aggregate`, or the protocol it was originated from (`local`).
    pub protocol: String,
    /// AS path, nearest first.
    pub as_path: Vec<u32>,
    /// Local preference.
    pub local_pref: u32,
    /// MED.
    pub med: u32,
    /// Weight.
    pub weight: u32,
    /// Origin type.
    pub origin: Origin,
    /// Communities.
    pub communities: Vec<String>,
    /// Whether it is the best path (else a backup, or an equal one multipath installs:
    /// `installed`).
    pub best: bool,
    /// Whether the main RIB holds it (the best path and its multipath equals).
    pub installed: bool,
}

/// Batfish's `bgpRib` columns olav gives, in order.
pub const BGP_COLUMNS: [&str; 12] = [
    "Node",
    "VRF",
    "Network",
    "Status",
    "Next_Hop",
    "Protocol",
    "AS_Path",
    "Metric",
    "Local_Pref",
    "Communities",
    "Origin_Type",
    "Weight",
];

impl BgpRoute {
    /// The row as Batfish's `routes(rib=bgp)` answer gives it: `Status` BEST for the
    /// installed paths, else BACKUP; `Next_Hop` the received next hop, discard for an
    /// aggregate, null for a path originated here.
    pub fn to_json(&self, node: &str) -> serde_json::Value {
        let node = node.to_lowercase();
        let next_hop = match (self.next_hop, self.protocol.as_str()) {
            (Some(ip), _) => NextHop::Ip(ip).to_json(),
            (None, "aggregate") => NextHop::Discard.to_json(),
            (None, _) => serde_json::Value::Null,
        };
        serde_json::json!({
            "Node": {"id": format!("node-{node}"), "name": node},
            "VRF": self.vrf,
            "Network": self.network.to_string(),
            "Status": [if self.installed { "BEST" } else { "BACKUP" }],
            "Next_Hop": next_hop,
            "Protocol": self.protocol,
            "AS_Path": self.as_path.iter().map(u32::to_string).collect::<Vec<_>>().join(" "),
            "Metric": self.med,
            "Local_Pref": self.local_pref,
            "Communities": self.communities,
            "Origin_Type": self.origin.as_str(),
            "Weight": self.weight,
        })
    }
}
