//! Vendor dialects: the only place olav writes configuration syntax. One module per
//! vendor family — [`cisco`] (IOS / IOS-XE, EOS, NX-OS, their differences inside) and
//! [`junos`] — each rendering vendor-neutral changes into config lines, the exact
//! rollback from the stored configuration, the verification `show` commands, and the
//! candidate configuration: a stored config with a plan's lines applied, as the device
//! would hold it. The intents (`agents::analyzer::draft`) say *what* changes; a dialect
//! says how the device is told. Nothing here reads the state DB or the analyzer.

pub mod cisco;
pub mod junos;
pub mod running;

use crate::model::{StaticRoute, Vendor};
use ipnet::IpNet;
use std::net::IpAddr;

/// A change to an interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfChange {
    /// New description.
    Description(String),
    /// New primary address.
    Address(IpNet),
    /// Shut it.
    Shutdown,
    /// Bring it up.
    NoShutdown,
    /// New MTU.
    Mtu(u32),
    /// Remove the description.
    NoDescription,
}

impl std::fmt::Display for IfChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IfChange::Description(d) => write!(f, "description → \"{d}\""),
            IfChange::Address(a) => write!(f, "address → {a}"),
            IfChange::Shutdown => f.write_str("shutdown"),
            IfChange::NoShutdown => f.write_str("no shutdown"),
            IfChange::Mtu(m) => write!(f, "MTU → {m}"),
            IfChange::NoDescription => f.write_str("remove the description"),
        }
    }
}

/// A vendor-neutral change to one device, as an intent resolves it.
#[derive(Debug, Clone, Copy)]
pub enum Change<'a> {
    /// Attributes of one interface.
    Interface {
        /// The interface.
        name: &'a str,
        /// What changes, in order.
        changes: &'a [IfChange],
        /// Its switched mode, when it is a switched port (no address can be planned).
        switchport: Option<&'a str>,
        /// The address an address change replaces (Junos keeps addresses on units: a
        /// port's is its unit 0's).
        replaced: Option<IpNet>,
    },
    /// A new static route in the global table.
    AddStaticRoute {
        /// Destination.
        prefix: IpNet,
        /// Next hop.
        next_hop: IpAddr,
    },
    /// A stored static route removed.
    RemoveStaticRoute {
        /// The route as parsed from the stored configuration.
        route: &'a StaticRoute,
        /// How many next hops its prefix has in its VRF.
        hops: usize,
    },
    /// An interface re-described and shut, for a decommission.
    ShutForDecommission {
        /// The interface.
        name: &'a str,
        /// Its new description.
        description: &'a str,
        /// How many units its port has (Junos: the port goes dark when this is its only one).
        units: usize,
    },
    /// A BGP neighbor removed where it is configured.
    RemoveNeighbor {
        /// Its address.
        peer: &'a str,
        /// Its VRF (`default`: the global table).
        vrf: &'a str,
        /// The device's AS.
        local_as: u32,
    },
}

/// A change in one dialect: the lines that make it and the lines that undo it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lines {
    /// The change.
    pub apply: Vec<String>,
    /// Its rollback.
    pub rollback: Vec<String>,
    /// Where the change sits in the stored configuration, as the dialect names it (a
    /// removed route's line or path), when that says more than the lines.
    pub at: Option<String>,
}

impl Lines {
    /// Both, as text.
    pub fn texts(&self) -> (String, String) {
        (self.apply.join("\n"), self.rollback.join("\n"))
    }
}

/// Whether a device of `v` speaks the Junos dialect.
pub fn is_junos(v: Vendor) -> bool {
    v == Vendor::JuniperJunos
}

/// Renders `change` for `device` (of vendor `v`, stored configuration `text`): its lines
/// and the exact rollback.
pub fn render(v: Vendor, device: &str, text: &str, change: &Change<'_>) -> Result<Lines, String> {
    if is_junos(v) {
        return junos::render(&junos::Stored::new(text), device, change);
    }
    match *change {
        Change::Interface {
            name,
            changes,
            switchport,
            ..
        } => cisco::interface_change(v, device, name, switchport, changes, text),
        Change::AddStaticRoute { prefix, next_hop } => {
            Ok(cisco::add_static_route(v, prefix, next_hop))
        }
        Change::RemoveStaticRoute { route, .. } => cisco::remove_static_route(device, text, route),
        Change::ShutForDecommission {
            name, description, ..
        } => Ok(cisco::shut_for_decommission(v, text, name, description)),
        Change::RemoveNeighbor {
            peer,
            vrf,
            local_as,
        } => cisco::remove_neighbor(v, device, text, peer, vrf, local_as),
    }
}

/// What a verification command shows.
#[derive(Debug, Clone, Copy)]
pub enum Show<'a> {
    /// One interface: its configuration and state.
    Interface(&'a str),
    /// The route to a prefix.
    Route(IpNet),
    /// The BGP sessions.
    BgpSummary,
    /// Every interface's state, briefly.
    Interfaces,
}

/// The `show` commands for `what` on a device of `v`.
pub fn show(v: Vendor, what: Show<'_>) -> Vec<String> {
    let junos = is_junos(v);
    match what {
        Show::Interface(i) if junos => vec![
            format!("show configuration interfaces {}", junos::port_of(i)),
            format!("show interfaces {i} terse"),
        ],
        Show::Interface(i) => vec![
            format!("show running-config interface {i}"),
            format!("show interfaces {i}"),
        ],
        Show::Route(p) if junos => vec![format!("show route {p} exact")],
        Show::Route(p) => vec![format!("show ip route {}", p.network())],
        Show::BgpSummary if junos => vec!["show bgp summary".to_owned()],
        Show::BgpSummary => vec!["show ip bgp summary".to_owned()],
        Show::Interfaces if junos => vec!["show interfaces terse".to_owned()],
        Show::Interfaces => vec!["show ip interface brief".to_owned()],
    }
}

/// The IGP adjacency checks worth running on a device: only for the IGPs its stored
/// configuration runs (the dialect told by the text itself).
pub fn igp_checks(text: &str) -> Vec<&'static str> {
    if crate::import::parse::detect(text) == Ok(Vendor::JuniperJunos) {
        return junos::Stored::new(text).igp_checks();
    }
    cisco::igp_checks(text)
}

/// How an OSPF router is drained before it goes, in the vendor's words.
pub fn ospf_drain(v: Vendor) -> &'static str {
    if is_junos(v) {
        "OSPF `overload`"
    } else {
        "OSPF `max-metric router-lsa`"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn igp_checks_follow_the_configured_igps() {
        assert_eq!(
            igp_checks("hostname a\nrouter ospf 1\n network 10.0.0.0 0.0.0.255 area 0\n"),
            ["show ip ospf neighbor"]
        );
        assert_eq!(
            igp_checks("router isis CORE\n net 49.0001.0000.0000.0001.00\n"),
            ["show isis neighbors"]
        );
        // BGP only, and an OSPF word inside another stanza: nothing to suggest.
        assert!(igp_checks("router bgp 65000\n description router ospf\n").is_empty());
    }
}
