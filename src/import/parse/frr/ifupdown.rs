//! Cumulus Linux's `/etc/network/interfaces` (ifupdown2), as the concatenated file holds
//! it: `auto X`, `iface X [inet static|loopback|dhcp]` stanzas with `address A/L`,
//! `vrf V`, `alias`, `mtu`, `link-down yes`, `bond-slaves`, `bridge-ports` /
//! `bridge-access` / `bridge-vids`, `vlan-id` and `address-virtual`. A stanza with
//! `vrf-table` defines a VRF, not an interface.

use crate::import::parse::common;
use crate::model::{DeviceConfig, Interface, SwitchportMode};

/// The interfaces `lines` define (`first` is the index of `lines[0]` in the file).
pub(super) fn parse(dev: &mut DeviceConfig, lines: &[&str], first: usize) -> Vec<Interface> {
    let mut host = DeviceConfig::default();
    let mut current: Option<usize> = None;
    // Members named by a bond or a bridge, resolved once every stanza is read.
    let mut bonds: Vec<(String, Vec<String>)> = Vec::new();
    let mut bridge_ports: Vec<String> = Vec::new();
    for (k, raw) in lines.iter().enumerate() {
        let no = (first + k + 1) as u32;
        let line = raw.split('#').next().unwrap_or("");
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.is_empty() {
            continue;
        }
        let indented = raw.starts_with(' ') || raw.starts_with('\t');
        match (indented, w.as_slice()) {
            (false, ["iface", name, rest @ ..]) => {
                let idx = index_of(&mut host, name, no);
                if rest.contains(&"dhcp") {
                    host.interfaces[idx].dhcp = true;
                }
                current = Some(idx);
            }
            (false, ["auto" | "allow-hotplug", ..] | ["source" | "source-directory", ..]) => {
                current = None;
            }
            (false, _) => {
                current = None;
                dev.warn(no, format!("interfaces: '{}' not understood", line.trim()));
            }
            (true, attr) => {
                let Some(idx) = current else { continue };
                stanza_line(&mut host, idx, attr, no, &mut bonds, &mut bridge_ports);
            }
        }
    }
    for (bond, members) in bonds {
        for m in members {
            let idx = index_of(&mut host, &m, 0);
            host.interfaces[idx].channel_group = Some(bond.clone());
        }
    }
    for p in bridge_ports {
        if let Some(i) = host.interfaces.iter_mut().find(|i| i.name == p) {
            if i.switchport_mode.is_none() {
                i.switchport_mode = Some(SwitchportMode::Trunk);
            }
        }
    }
    dev.warnings.append(&mut host.warnings);
    host.interfaces
}

/// The interface named `name`, created when first seen.
fn index_of(host: &mut DeviceConfig, name: &str, no: u32) -> usize {
    match host.interfaces.iter().position(|i| i.name == name) {
        Some(i) => i,
        None => {
            host.interfaces.push(Interface::new(name.to_owned(), no));
            host.interfaces.len() - 1
        }
    }
}

/// One indented line of an `iface` stanza.
fn stanza_line(
    host: &mut DeviceConfig,
    idx: usize,
    w: &[&str],
    no: u32,
    bonds: &mut Vec<(String, Vec<String>)>,
    bridge_ports: &mut Vec<String>,
) {
    let name = host.interfaces[idx].name.clone();
    match w {
        ["address", addrs @ ..] => {
            for a in addrs {
                common::frr_address(host, idx, a, no);
            }
        }
        ["address-virtual", _mac, addrs @ ..] => {
            for a in addrs {
                common::push_virtual(host, idx, a, no);
            }
        }
        ["vrf", v] => host.interfaces[idx].vrf = Some((*v).to_owned()),
        // The VRF's own device: its addresses are the VRF's (a loopback of it).
        ["vrf-table", ..] => {
            host.interfaces[idx].vrf = Some(name);
        }
        ["alias", ..] => {
            host.interfaces[idx].description = Some(w[1..].join(" "));
        }
        ["mtu", m] => match m.parse() {
            Ok(m) => host.interfaces[idx].mtu = Some(m),
            Err(_) => host.warn(no, format!("interfaces: mtu '{m}' is not a number")),
        },
        ["link-down", "yes"] => host.interfaces[idx].admin_up = false,
        ["link-speed", s] => host.interfaces[idx].speed_mbps = s.parse().ok(),
        ["bond-slaves", members @ ..] => {
            bonds.push((name, members.iter().map(|m| (*m).to_owned()).collect()));
        }
        ["bridge-ports", ports @ ..] => bridge_ports.extend(ports.iter().map(|p| (*p).to_owned())),
        ["bridge-access", v] => {
            let i = &mut host.interfaces[idx];
            i.switchport_mode = Some(SwitchportMode::Access);
            i.access_vlan = v.parse().ok();
        }
        ["bridge-vids", vids @ ..] => {
            let i = &mut host.interfaces[idx];
            if i.switchport_mode != Some(SwitchportMode::Access) {
                i.switchport_mode = Some(SwitchportMode::Trunk);
                i.trunk_vlans = Some(vids.join(","));
            }
        }
        ["vlan-id", v] => host.interfaces[idx].encapsulation_vlan = v.parse().ok(),
        // Kernel and switchd settings that change no address or route olav computes.
        _ => {}
    }
}
