//! Connected and local routes: what each up interface address installs, per VRF, as each
//! vendor installs it.
//!
//! - every address of an up interface gives its subnet as a `connected` route, out of
//!   the interface, administrative distance 0;
//! - `local` /32s: IOS and Junos install one for every address shorter than /32; NX-OS
//!   for every address, /32s included (a loopback /32 is both `local` and `connected`);
//!   EOS none; PAN-OS one for every address, and a loopback's address only as `local`;
//! - first-hop-redundancy virtual addresses (HSRP, VRRP, VARP) install nothing of their
//!   own: their subnet is the interface's. An interface whose only address of a subnet is
//!   virtual (EOS `ip address virtual`, the anycast gateway) installs that subnet;
//! - Junos 127/8 addresses (`lo0` loopback) install nothing;
//! - shut interfaces, management interfaces and management VRFs install nothing
//!   ([`is_management`]), nor do EOS and NX-OS SVIs no up port carries the VLAN of
//!   ([`super::autostate`]).

use super::route::{NextHop, Protocol, Route};
use crate::model::{AddressKind, DeviceConfig, Interface, Vendor};
use ipnet::{IpNet, Ipv4Net};
use std::collections::HashSet;

/// The VRF name of an interface or route (`default` for the global table).
pub fn vrf_name(vrf: &Option<String>) -> String {
    match vrf.as_deref() {
        None | Some("") | Some("master") => "default".to_owned(),
        Some(v) => v.to_owned(),
    }
}

pub use crate::model::management::is_management;

/// Whether an interface installs routes: administratively up, not the management
/// plane's.
pub fn active(i: &Interface) -> bool {
    i.admin_up && !is_management(&i.name, &vrf_name(&i.vrf))
}

/// The IPv4 addresses of an interface that install routes (virtual ones only where no
/// real address holds their subnet), with whether each is virtual.
fn addresses(i: &Interface, vendor: Vendor) -> Vec<(Ipv4Net, bool)> {
    let v4 = |a: &IpNet| match a {
        IpNet::V4(n) => Some(*n),
        IpNet::V6(_) => None,
    };
    let real: Vec<Ipv4Net> = i
        .addresses
        .iter()
        .filter(|a| a.kind != AddressKind::Virtual)
        .filter_map(|a| v4(&a.address))
        .collect();
    let mut out: Vec<(Ipv4Net, bool)> = real.iter().map(|n| (*n, false)).collect();
    for a in i
        .addresses
        .iter()
        .filter(|a| a.kind == AddressKind::Virtual)
    {
        if let Some(n) = v4(&a.address) {
            if !real.iter().any(|r| r.trunc() == n.trunc()) && !out.contains(&(n, true)) {
                out.push((n, true));
            }
        }
    }
    out.retain(|(n, _)| !(vendor == Vendor::JuniperJunos && n.addr().octets()[0] == 127));
    out
}

/// Whether the vendor installs a `local` /32 for this address.
fn installs_local(vendor: Vendor, net: &Ipv4Net) -> bool {
    match vendor {
        // SR OS shows an interface's subnet only (`Local`), no host route of its address.
        // FRR (4.x to 7.x, the labs' versions) shows connected routes only; FRR 8.4+
        // adds `local` host routes, which the labs do not hold.
        Vendor::AristaEos | Vendor::NokiaSros | Vendor::Frr => false,
        Vendor::CiscoNxos | Vendor::PaloAltoPanos => true,
        // IOS-XR shows a /32 address as `L` alone: its connected route, as Batfish has it.
        Vendor::CiscoIos | Vendor::CiscoIosXr | Vendor::JuniperJunos => net.prefix_len() < 32,
    }
}

/// The connected and local routes of a device, every VRF; `down` names the SVIs no up
/// port carries the VLAN of ([`super::autostate::down_svis`]).
pub fn routes(config: &DeviceConfig, vendor: Vendor, down: &HashSet<String>) -> Vec<Route> {
    let mut out = Vec::new();
    for i in config
        .interfaces
        .iter()
        .filter(|i| active(i) && !down.contains(&i.name))
    {
        let vrf = vrf_name(&i.vrf);
        let via = || NextHop::Interface {
            interface: i.name.as_str().into(),
            ip: None,
        };
        // A PAN-OS loopback's address is a local route only (the devices show it `H`).
        let connected = !(vendor == Vendor::PaloAltoPanos && i.name.starts_with("loopback"));
        for (net, virtual_only) in addresses(i, vendor) {
            if connected {
                out.push(Route {
                    vrf: vrf.as_str().into(),
                    network: net.trunc(),
                    next_hop: via(),
                    protocol: Protocol::Connected,
                    metric: 0,
                    admin_distance: 0,
                    tag: None,
                });
            }
            if !virtual_only && installs_local(vendor, &net) {
                out.push(Route {
                    vrf: vrf.as_str().into(),
                    // A /32 always parses.
                    network: Ipv4Net::new(net.addr(), 32).unwrap_or(net),
                    next_hop: via(),
                    protocol: Protocol::Local,
                    metric: 0,
                    admin_distance: 0,
                    tag: None,
                });
            }
        }
    }
    out
}
