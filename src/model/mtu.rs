//! The IP MTU an interface applies, as each vendor reads its `mtu`: the one rule the
//! pre-check's MTU comparison and the OSPF adjacency test share.

use super::{DeviceConfig, Interface, Vendor};

/// IP MTU when none is configured: 1500 on every vendor olav reads (a Junos Ethernet
/// port's default media MTU, 1514, less its 14-byte header).
const DEFAULT_MTU: u32 = 1500;

/// The Ethernet header a Junos media MTU includes: 14 bytes, 18 with a VLAN tag.
const JUNOS_L2_HEADER: u32 = 14;
const JUNOS_L2_HEADER_TAGGED: u32 = 18;

impl DeviceConfig {
    /// The IP MTU of a link end as the device applies it, and how it was derived when that
    /// is not the configured value as is.
    ///
    /// Cisco-style `mtu` (IOS, EOS, NX-OS) is the layer-3 MTU. On Junos the link's address
    /// sits on a unit (`xe-0/1/0.0`) and the port's `mtu` is the media MTU, which includes
    /// the Ethernet header: a unit's IP MTU is its `family inet mtu` when set, else its
    /// port's `mtu` less 14 bytes (18 on a VLAN-tagged unit), else 1500.
    pub fn ip_mtu(&self, vendor: Vendor, i: &Interface) -> (u32, Option<String>) {
        if vendor != Vendor::JuniperJunos {
            // IOS `ip mtu` sets the IP MTU below the interface's.
            return (i.ip_mtu.or(i.mtu).unwrap_or(DEFAULT_MTU), None);
        }
        let (port, header) = match i.name.split_once('.') {
            // A unit's `family inet mtu`: an IP MTU already.
            Some(_) if i.mtu.is_some() => return (i.mtu.unwrap_or(DEFAULT_MTU), None),
            Some((port, _)) => (
                self.interfaces
                    .iter()
                    .find(|p| crate::ifname::same(&p.name, port)),
                if i.encapsulation_vlan.is_some() {
                    JUNOS_L2_HEADER_TAGGED
                } else {
                    JUNOS_L2_HEADER
                },
            ),
            None => (Some(i), JUNOS_L2_HEADER),
        };
        match port.and_then(|p| p.mtu.map(|m| (p, m))) {
            Some((p, media)) => {
                let ip = media.saturating_sub(header);
                (
                    ip,
                    Some(format!(
                        "{} IP MTU {ip}: port {} mtu {media} less the {header}-byte Ethernet header",
                        i.name, p.name
                    )),
                )
            }
            None => (DEFAULT_MTU, None),
        }
    }
}
