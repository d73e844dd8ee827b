//! One main-RIB route with Batfish's `routes` columns: the protocol names, the next-hop
//! object and the JSON row.

use compact_str::CompactString;
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::net::Ipv4Addr;

/// The protocol a route comes from, with Batfish's names (`RoutingProtocol`). Only the
/// protocols olav computes so far; the other dynamic ones come with their models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Protocol {
    /// The subnet of an up interface address.
    Connected,
    /// The /32 of an interface address (vendors differ on when: `routing.md`).
    Local,
    /// A static route.
    Static,
    /// OSPF intra-area.
    Ospf,
    /// OSPF inter-area.
    OspfIA,
    /// OSPF external type 1.
    OspfE1,
    /// OSPF external type 2.
    OspfE2,
    /// An OSPF area range's discard route on the ABR that summarises it.
    OspfIS,
    /// EIGRP internal.
    Eigrp,
    /// EIGRP external (redistributed).
    EigrpEx,
    /// IS-IS level 1.
    IsisL1,
    /// IS-IS level 2.
    IsisL2,
    /// eBGP.
    Bgp,
    /// iBGP.
    Ibgp,
    /// A BGP aggregate (`aggregate-address`), a discard route.
    Aggregate,
}

impl Protocol {
    /// Every protocol olav computes, in display order.
    pub const ALL: [Protocol; 15] = [
        Protocol::Connected,
        Protocol::Local,
        Protocol::Static,
        Protocol::Ospf,
        Protocol::OspfIA,
        Protocol::OspfE1,
        Protocol::OspfE2,
        Protocol::OspfIS,
        Protocol::Eigrp,
        Protocol::EigrpEx,
        Protocol::IsisL1,
        Protocol::IsisL2,
        Protocol::Bgp,
        Protocol::Ibgp,
        Protocol::Aggregate,
    ];

    /// Batfish's name (`connected`, `local`, `static`, `ospf`, `ospfIA`, `ospfE1`,
    /// `ospfE2`, `ospfIS`, `bgp`, `ibgp`, `aggregate`).
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Connected => "connected",
            Protocol::Local => "local",
            Protocol::Static => "static",
            Protocol::Ospf => "ospf",
            Protocol::OspfIA => "ospfIA",
            Protocol::OspfE1 => "ospfE1",
            Protocol::OspfE2 => "ospfE2",
            Protocol::OspfIS => "ospfIS",
            Protocol::Eigrp => "eigrp",
            Protocol::EigrpEx => "eigrpEX",
            Protocol::IsisL1 => "isisL1",
            Protocol::IsisL2 => "isisL2",
            Protocol::Bgp => "bgp",
            Protocol::Ibgp => "ibgp",
            Protocol::Aggregate => "aggregate",
        }
    }

    /// The protocol Batfish's `name` means, when olav computes it.
    pub fn from_name(name: &str) -> Option<Protocol> {
        Protocol::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a route sends traffic: Batfish's `NextHop` object.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum NextHop {
    /// Dropped (`Null0`, Junos `discard` / `reject`): `{"type":"discard"}`.
    Discard,
    /// Out of an interface, optionally to an address on it:
    /// `{"type":"interface","interface":…[,"ip":…]}`.
    Interface {
        /// The interface, as configured (held inline up to 24 bytes).
        interface: CompactString,
        /// The address it is sent to, when the route names one.
        ip: Option<Ipv4Addr>,
    },
    /// To an address, resolved through the RIB: `{"type":"ip","ip":…}`.
    Ip(Ipv4Addr),
    /// Looked up again in another VRF: `{"type":"vrf","vrf":…}`.
    Vrf(String),
    /// Into a VXLAN tunnel to a VTEP (EVPN): `{"type":"vtep","vni":…,"vtep":…}`.
    Vtep {
        /// The VNI the packet is sent with.
        vni: u32,
        /// The far VTEP's address.
        vtep: Ipv4Addr,
    },
}

impl NextHop {
    /// Batfish's JSON form of the next hop.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            NextHop::Discard => json!({"type": "discard"}),
            NextHop::Interface {
                interface,
                ip: Some(ip),
            } => json!({"type": "interface", "interface": interface, "ip": ip.to_string()}),
            NextHop::Interface {
                interface,
                ip: None,
            } => {
                json!({"type": "interface", "interface": interface})
            }
            NextHop::Ip(ip) => json!({"type": "ip", "ip": ip.to_string()}),
            NextHop::Vrf(v) => json!({"type": "vrf", "vrf": v}),
            NextHop::Vtep { vni, vtep } => {
                json!({"type": "vtep", "vni": vni, "vtep": vtep.to_string()})
            }
        }
    }
}

impl fmt::Display for NextHop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NextHop::Discard => f.write_str("discard"),
            NextHop::Interface {
                interface,
                ip: Some(ip),
            } => write!(f, "{ip} via {interface}"),
            NextHop::Interface {
                interface,
                ip: None,
            } => f.write_str(interface),
            NextHop::Ip(ip) => write!(f, "{ip}"),
            NextHop::Vrf(v) => write!(f, "vrf {v}"),
            NextHop::Vtep { vni, vtep } => write!(f, "vtep {vtep} vni {vni}"),
        }
    }
}

/// One row of a device's main RIB: one next hop of one route (an ECMP route is one row
/// per next hop, as Batfish and the devices' parsers split them).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Route {
    /// The VRF (`default` for the global table); held inline (no allocation per row).
    pub vrf: CompactString,
    /// The destination.
    pub network: Ipv4Net,
    /// Where it goes.
    pub next_hop: NextHop,
    /// Where it comes from.
    pub protocol: Protocol,
    /// The metric (0 for connected and local routes; OSPF: the path cost, E2 the
    /// advertised metric).
    pub metric: u32,
    /// The administrative distance (Junos: the preference).
    pub admin_distance: u32,
    /// The route tag, when set.
    pub tag: Option<u32>,
}

/// Batfish's `routes` columns, in order.
pub const COLUMNS: [&str; 8] = [
    "Node",
    "VRF",
    "Network",
    "Next_Hop",
    "Protocol",
    "Metric",
    "Admin_Distance",
    "Tag",
];

impl Route {
    /// The row as Batfish's `routes` answer gives it (`Node` lowercase, as Batfish names
    /// nodes).
    pub fn to_json(&self, node: &str) -> serde_json::Value {
        let node = node.to_lowercase();
        serde_json::json!({
            "Node": {"id": format!("node-{node}"), "name": node},
            "VRF": self.vrf,
            "Network": self.network.to_string(),
            "Next_Hop": self.next_hop.to_json(),
            "Protocol": self.protocol.as_str(),
            "Metric": self.metric,
            "Admin_Distance": self.admin_distance,
            "Tag": self.tag,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_hops_have_batfish_json_forms() {
        let ip: Ipv4Addr = "10.0.0.1".parse().unwrap();
        assert_eq!(
            NextHop::Discard.to_json().to_string(),
            r#"{"type":"discard"}"#
        );
        assert_eq!(
            NextHop::Ip(ip).to_json().to_string(),
            r#"{"ip":"10.0.0.1","type":"ip"}"#
        );
        let i = NextHop::Interface {
            interface: "Ethernet1".into(),
            ip: None,
        };
        assert_eq!(
            i.to_json().to_string(),
            r#"{"interface":"Ethernet1","type":"interface"}"#
        );
        assert_eq!(Protocol::from_name("STATIC"), Some(Protocol::Static));
        assert_eq!(Protocol::from_name("ospfE2"), Some(Protocol::OspfE2));
        assert_eq!(Protocol::from_name("bgp"), Some(Protocol::Bgp));
        assert_eq!(Protocol::from_name("eigrp"), Some(Protocol::Eigrp));
        assert_eq!(Protocol::from_name("rip"), None);
    }
}
