//! Which VLAN interfaces (SVIs) are up: on EOS and NX-OS an SVI is up only while an up
//! layer-2 port carries its VLAN (autostate), as the devices show and Batfish models.
//!
//! A port carries a VLAN when it is administratively up and: a trunk whose allowed list
//! holds it (no list: every VLAN), or an access port (a port with neither a mode nor an
//! address counts as one: the vendors' default switchport) of that VLAN (default 1). A
//! member of a port-channel carries nothing itself; the port-channel carries while it is
//! up and one of its members is (or none is configured). A device with a VXLAN interface
//! bridges its VLANs to remote VTEPs: its SVIs are taken as up. IOS and Junos SVIs (`irb`)
//! are taken as up when not shut.

use crate::model::{DeviceConfig, Interface, SwitchportMode, Vendor};
use std::collections::HashSet;

/// The VLANs of an allowed list (`10,20,30-40`); None when it does not read (then every
/// VLAN is taken as allowed).
fn vlan_list(list: &str) -> Option<HashSet<u32>> {
    let mut out = HashSet::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if b < a || b > 4094 {
                    return None;
                }
                out.extend(a..=b);
            }
            None if part == "none" => {}
            None => {
                out.insert(part.parse().ok()?);
            }
        }
    }
    Some(out)
}

/// Whether a port carries `vlan` by its own configuration.
fn carries(i: &Interface, vlan: u32) -> bool {
    match i.switchport_mode {
        Some(SwitchportMode::Trunk) => i
            .trunk_vlans
            .as_deref()
            .and_then(vlan_list)
            .is_none_or(|l| l.contains(&vlan)),
        Some(SwitchportMode::Access) => i.access_vlan.unwrap_or(1) == vlan,
        None => i.addresses.is_empty() && i.access_vlan.unwrap_or(1) == vlan,
    }
}

fn is_port(i: &Interface) -> bool {
    let n = i.name.to_ascii_lowercase();
    i.svi_vlan().is_none()
        && !n.starts_with("loopback")
        && !n.starts_with("lo")
        && !n.starts_with("vxlan")
        && !n.starts_with("tunnel")
        && !n.starts_with("null")
        && !n.starts_with("management")
        && !n.starts_with("mgmt")
        && !n.contains('.')
}

/// The SVIs of the device that are down because no up port carries their VLAN.
pub fn down_svis(config: &DeviceConfig, vendor: Vendor) -> HashSet<String> {
    if !matches!(vendor, Vendor::AristaEos | Vendor::CiscoNxos)
        || config
            .interfaces
            .iter()
            .any(|i| i.name.to_ascii_lowercase().starts_with("vxlan"))
    {
        return HashSet::new();
    }
    let bundle_up = |pc: &Interface| {
        let members: Vec<&Interface> = config
            .interfaces
            .iter()
            .filter(|m| {
                m.channel_group.as_deref().is_some_and(|g| {
                    crate::ifname::same(g, &pc.name)
                        || g.trim_start_matches(|c: char| !c.is_ascii_digit())
                            == pc.name.trim_start_matches(|c: char| !c.is_ascii_digit())
                })
            })
            .collect();
        members.is_empty() || members.iter().any(|m| m.admin_up)
    };
    let ports: Vec<&Interface> = config
        .interfaces
        .iter()
        .filter(|i| i.admin_up && is_port(i) && i.channel_group.is_none())
        .filter(|i| !i.name.to_ascii_lowercase().starts_with("port-channel") || bundle_up(i))
        .collect();
    config
        .interfaces
        .iter()
        .filter_map(|i| Some((i, i.svi_vlan()?)))
        .filter(|(_, vlan)| !ports.iter().any(|p| carries(p, *vlan)))
        .map(|(i, _)| i.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_lists_read() {
        assert_eq!(vlan_list("10,20-22").map(|l| l.len()), Some(4));
        assert!(vlan_list("10,x").is_none());
        assert_eq!(vlan_list("none").map(|l| l.len()), Some(0));
    }
}
