//! Lines inside an `interface` block of the Cisco-style dialects.

use super::{parse_addr_mask, parse_prefix, reference, rest_after_words};
use crate::model::{AddressKind, DeviceConfig, InterfaceAddress, StructureKind, SwitchportMode};
use ipnet::IpNet;
use std::net::IpAddr;

/// Handles interface sub-commands common to the dialects. Returns false when not recognised.
pub fn interface_line(
    dev: &mut DeviceConfig,
    idx: usize,
    text: &str,
    w: &[&str],
    line: u32,
) -> bool {
    if super::ospf::interface_line(dev, idx, w, line) {
        return true;
    }
    let Some(iface) = dev.interfaces.get_mut(idx) else {
        return false;
    };
    match w {
        ["description", ..] => {
            iface.description = Some(rest_after_words(text, 1).to_owned());
        }
        ["no", "description", ..] => iface.description = None,
        ["shutdown"] => iface.admin_up = false,
        ["no", "shutdown"] => iface.admin_up = true,
        ["no", "mtu", ..] => iface.mtu = None,
        ["no", "ip", "mtu", ..] => iface.ip_mtu = None,
        ["ip", "mtu", v] => match v.parse() {
            Ok(m) => iface.ip_mtu = Some(m),
            Err(_) => dev.warn(line, format!("ip mtu: '{v}' is not a number")),
        },
        ["mtu", v] => match v.parse() {
            Ok(m) => iface.mtu = Some(m),
            Err(_) => dev.warn(line, format!("mtu: '{v}' is not a number")),
        },
        ["speed", v, ..] => {
            let v = v.trim_start_matches("forced").trim_end_matches("full");
            iface.speed_mbps = parse_speed(v);
        }
        ["vrf", "forwarding", v] | ["ip", "vrf", "forwarding", v] | ["vrf", "member", v] => {
            iface.vrf = Some((*v).to_owned());
        }
        ["vrf", v] => iface.vrf = Some((*v).to_owned()),
        ["no", "switchport"] | ["default", "switchport"] => {
            iface.switchport_mode = None;
        }
        ["switchport"] => {
            if iface.switchport_mode.is_none() {
                iface.switchport_mode = Some(SwitchportMode::Access);
            }
        }
        ["switchport", "mode", mode] => match *mode {
            "access" => iface.switchport_mode = Some(SwitchportMode::Access),
            "trunk" => iface.switchport_mode = Some(SwitchportMode::Trunk),
            "dynamic" | "dot1q-tunnel" | "private-vlan" | "routed" => {}
            other => dev.warn(line, format!("switchport mode: unknown mode '{other}'")),
        },
        ["switchport", "mode", ..] => {}
        ["switchport", "access", "vlan", v] => match v.parse() {
            Ok(n) => iface.access_vlan = Some(n),
            Err(_) => dev.warn(
                line,
                format!("switchport access vlan: '{v}' is not a VLAN id"),
            ),
        },
        ["switchport", "trunk", "allowed", "vlan", "add", v] => {
            let joined = match iface.trunk_vlans.take() {
                Some(prev) => format!("{prev},{v}"),
                None => (*v).to_owned(),
            };
            iface.trunk_vlans = Some(joined);
        }
        ["switchport", "trunk", "allowed", "vlan", v] => iface.trunk_vlans = Some((*v).to_owned()),
        ["switchport", ..] => {}
        ["channel-group", n, ..] => match n.parse::<u32>() {
            Ok(n) => iface.channel_group = Some(format!("Port-channel{n}")),
            Err(_) => dev.warn(line, format!("channel-group: '{n}' is not a number")),
        },
        // The interface borrows another's address (modelled as such, never copied: it has
        // no subnet of its own). IOS and NX-OS `ip unnumbered`, EOS `ip address unnumbered`;
        // it replaces the interface's own IPv4 address, as on the device.
        ["ip", "unnumbered", source] | ["ip", "address", "unnumbered", source] => {
            iface
                .addresses
                .retain(|a| a.kind != AddressKind::Primary || !a.address.addr().is_ipv4());
            iface.unnumbered = Some((*source).to_owned());
        }
        ["no", "ip", "unnumbered", ..] | ["no", "ip", "address", "unnumbered", ..] => {
            iface.unnumbered = None;
        }
        // Later lines amend (a plan or rollback appended to a running config).
        ["no", "ip", "address"] => iface
            .addresses
            .retain(|a| a.kind == AddressKind::Virtual || !a.address.addr().is_ipv4()),
        ["no", "ip", "address", addr, rest @ ..] if *addr != "virtual" => {
            let gone = match rest {
                [m, ..] if !m.contains('/') && m.contains('.') => parse_addr_mask(addr, m),
                _ => parse_prefix(addr),
            };
            if let Some(gone) = gone {
                iface.addresses.retain(|a| a.address != gone);
            }
        }
        ["ip", "address", "dhcp" | "negotiated", ..] => iface.dhcp = true,
        ["ip" | "ipv6", "address", addr, rest @ ..] if *addr != "virtual" => {
            let (net, secondary) = match rest {
                [m, tail @ ..] if !m.contains('/') && m.contains('.') => {
                    (parse_addr_mask(addr, m), tail.first() == Some(&"secondary"))
                }
                tail => (parse_prefix(addr), tail.first() == Some(&"secondary")),
            };
            if let (Some(new), false) = (net, secondary) {
                if new.addr().is_ipv4() {
                    iface.unnumbered = None;
                }
                // A new primary address replaces the old one, as on the device.
                iface.addresses.retain(|a| {
                    a.kind != AddressKind::Primary
                        || a.address.addr().is_ipv4() != new.addr().is_ipv4()
                });
            }
            match net {
                Some(address) => iface.addresses.push(InterfaceAddress {
                    address,
                    kind: if secondary {
                        AddressKind::Secondary
                    } else {
                        AddressKind::Primary
                    },
                    line,
                }),
                None => dev.warn(
                    line,
                    format!("ip address: cannot read '{}'", w[2..].join(" ")),
                ),
            }
        }
        ["ip", "address", "virtual", addr, ..] | ["ip", "virtual-router", "address", addr, ..] => {
            push_virtual(dev, idx, addr, line);
        }
        ["vrrp", _, "ip" | "ipv4", addr, ..]
        | ["standby", _, "ip", addr, ..]
        | ["standby", "ip", addr, ..] => {
            push_virtual(dev, idx, addr, line);
        }
        // IOS `encapsulation dot1Q 100 [native]`, EOS `encapsulation dot1q vlan 100`; the
        // native VLAN's frames go untagged, so a `native` subinterface carries no tag.
        ["encapsulation", kind, rest @ ..] if kind.eq_ignore_ascii_case("dot1q") => {
            let tag = rest.iter().find(|x| **x != "vlan").copied().unwrap_or("");
            match tag.parse() {
                Ok(_) if rest.contains(&"native") => iface.encapsulation_vlan = None,
                Ok(t) => iface.encapsulation_vlan = Some(t),
                Err(_) => dev.warn(
                    line,
                    format!("encapsulation dot1q: '{tag}' is not a VLAN id"),
                ),
            }
        }
        ["ip", "access-group", name, dir] | ["ip", "port", "access-group", name, dir] => {
            let ifname = iface.name.clone();
            let context = if *dir == "out" {
                "interface outbound access-group"
            } else {
                "interface inbound access-group"
            };
            reference(dev, StructureKind::AccessList, name, context, line);
            super::acl::bind(dev, &ifname, name, dir, line);
        }
        ["no", "ip", "access-group", _, dir] | ["no", "ip", "port", "access-group", _, dir] => {
            let ifname = iface.name.clone();
            super::acl::unbind(dev, &ifname, dir);
        }
        ["ip" | "ipv6" | "no" | "negotiation" | "duplex" | "media-type" | "load-interval"
        | "spanning-tree" | "storm-control" | "bandwidth" | "encapsulation" | "cdp" | "lldp"
        | "logging" | "service-policy" | "mac-address" | "standby" | "vrrp" | "hsrp"
        | "carrier-delay" | "keepalive" | "delay" | "hold-queue" | "power" | "udld"
        | "flowcontrol" | "bfd" | "isis" | "mpls" | "pim" | "mop" | "arp" | "qos" | "mls"
        | "priority-queue" | "srr-queue" | "auto" | "tunnel" | "errdisable" | "mode" | "lacp"
        | "port-channel" | "medium" | "dot1x" | "authentication" | "snmp" | "peer-gateway"
        | "vpc" | "sflow" | "traffic-loopback", ..] => {}
        _ => return false,
    }
    true
}

fn parse_speed(v: &str) -> Option<u32> {
    match v {
        "auto" | "" => None,
        "10g" | "10000" => Some(10_000),
        "25g" => Some(25_000),
        "40g" => Some(40_000),
        "100g" => Some(100_000),
        "1g" | "1000" => Some(1_000),
        other => other
            .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .parse()
            .ok(),
    }
}

/// An address of an FRR, ifupdown2 or SONiC interface (`A/L`): every one is kept, the
/// first of its family primary and the others secondary (Linux holds them all alike).
pub fn frr_address(dev: &mut DeviceConfig, idx: usize, addr: &str, line: u32) {
    let Some(net) = parse_prefix(addr) else {
        dev.warn(line, format!("address: cannot read '{addr}'"));
        return;
    };
    let iface = &mut dev.interfaces[idx];
    if iface.addresses.iter().any(|a| a.address == net) {
        return;
    }
    let kind = if iface.addresses.iter().any(|a| {
        a.kind == AddressKind::Primary && a.address.addr().is_ipv4() == net.addr().is_ipv4()
    }) {
        AddressKind::Secondary
    } else {
        AddressKind::Primary
    };
    iface.addresses.push(InterfaceAddress {
        address: net,
        kind,
        line,
    });
}

/// Adds a first-hop-redundancy or anycast virtual address (VRRP, HSRP, VARP, EOS `ip
/// address virtual`) to interface `idx`. A written prefix length is kept (EOS `ip address
/// virtual 10.1.40.1/24`); without one the address lives in the primary subnet.
pub fn push_virtual(dev: &mut DeviceConfig, idx: usize, addr: &str, line: u32) {
    if let Some(net) = addr.contains('/').then(|| parse_prefix(addr)).flatten() {
        dev.interfaces[idx].addresses.push(InterfaceAddress {
            address: net,
            kind: AddressKind::Virtual,
            line,
        });
        return;
    }
    let addr_only = addr.split('/').next().unwrap_or(addr);
    let Ok(ip) = addr_only.parse::<IpAddr>() else {
        dev.warn(line, format!("virtual address: cannot read '{addr}'"));
        return;
    };
    let iface = &mut dev.interfaces[idx];
    // A virtual address lives in the interface's primary subnet.
    let len = iface
        .addresses
        .iter()
        .find(|a| a.kind == AddressKind::Primary && a.address.addr().is_ipv4() == ip.is_ipv4())
        .map(|a| a.address.prefix_len())
        .unwrap_or(if ip.is_ipv4() { 32 } else { 128 });
    if let Ok(address) = IpNet::new(ip, len) {
        iface.addresses.push(InterfaceAddress {
            address,
            kind: AddressKind::Virtual,
            line,
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::import::parse::parser_for;
    use crate::model::Vendor;

    /// IOS `ip unnumbered`, NX-OS `medium p2p` + `ip unnumbered`, and their removal: the
    /// interface borrows the loopback's address, no own address and no warning.
    #[test]
    fn unnumbered_interfaces_borrow_without_a_warning() {
        // Test input, read by the IOS and NX-OS parsers.
        let ios = "hostname r1\ninterface Loopback0\n ip address 10.0.0.1 255.255.255.255\ninterface GigabitEthernet1\n ip address 10.9.0.1 255.255.255.252\n ip unnumbered Loopback0\ninterface GigabitEthernet2\n ip unnumbered Loopback0\n no ip unnumbered\n";
        let nxos = "hostname n1\ninterface loopback0\n  ip address 10.0.0.2/32\ninterface Ethernet1/1\n  no switchport\n  medium p2p\n  ip unnumbered loopback0\n  no shutdown\n";
        for (vendor, text, port, source) in [
            (Vendor::CiscoIos, ios, "GigabitEthernet1", "Loopback0"),
            (Vendor::CiscoNxos, nxos, "Ethernet1/1", "loopback0"),
        ] {
            let c = parser_for(vendor).parse(text);
            assert!(c.warnings.is_empty(), "{:?}", c.warnings);
            let i = c.interfaces.iter().find(|i| i.name == port).expect("port");
            assert_eq!(i.unnumbered.as_deref(), Some(source));
            assert!(i.addresses.is_empty(), "{:?}", i.addresses);
        }
        let c = parser_for(Vendor::CiscoIos).parse(ios);
        let gi2 = c.interfaces.iter().find(|i| i.name == "GigabitEthernet2");
        assert_eq!(gi2.and_then(|i| i.unnumbered.clone()), None);
    }
}
