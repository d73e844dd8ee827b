//! Junos interfaces: physical ports and their units as interfaces of their own, their
//! addresses (the unit's primary: flagged `primary`, else the lowest of the family),
//! switching and VLANs.

use super::statements::Statement;
use super::{parse_net, Junos, LAYER2_INSTANCES, MANAGEMENT_PORTS, NOT_INTERFACES};
use crate::model::{AddressKind, Interface, InterfaceAddress, StructureKind, SwitchportMode};
use ipnet::IpNet;
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

/// An address as configured, before the unit's primary address is known.
pub(super) struct PendingAddress {
    iface: usize,
    net: IpNet,
    primary: bool,
    line: u32,
}

/// `family ethernet-switching` of a unit.
#[derive(Default)]
pub(super) struct Switching {
    mode: Option<SwitchportMode>,
    members: Vec<String>,
}

/// Junos speeds in Mbit/s: `10g`, `2.5g`, `100m`.
pub(super) fn parse_speed(v: &str) -> Option<u32> {
    let v = v.to_ascii_lowercase();
    let (num, scale) = match (v.strip_suffix('g'), v.strip_suffix('m')) {
        (Some(n), _) => (n, 1000.0),
        (_, Some(n)) => (n, 1.0),
        _ => return None,
    };
    let mbps = num.parse::<f64>().ok()? * scale;
    // Non-finite and out-of-range values fail both comparisons.
    (mbps >= 1.0 && mbps <= f64::from(u32::MAX)).then(|| mbps.round() as u32)
}

impl Junos {
    /// The index of interface `name`, created at `line` when new.
    fn interface(&mut self, name: &str, line: u32) -> usize {
        if let Some(i) = self.index.get(name) {
            return *i;
        }
        let i = self.dev.interfaces.len();
        self.dev
            .interfaces
            .push(Interface::new(name.to_owned(), line));
        self.index.insert(name.to_owned(), i);
        i
    }

    pub(super) fn interfaces(&mut self, w: &[&str], st: &Statement) {
        let [name, rest @ ..] = w else { return };
        if *name == "interface-range" {
            let range = rest.first().copied().unwrap_or("");
            self.warn_once(
                st.line_of(w),
                &format!("interfaces interface-range {range}: not modelled; settings it gives its member interfaces are not applied"),
            );
            return;
        }
        if NOT_INTERFACES.contains(name) {
            return;
        }
        let phys = self.interface(name, st.line_of(w));
        let line = st.line;
        match rest {
            ["unit", unit, tail @ ..] => {
                let idx = self.interface(&format!("{name}.{unit}"), st.line_of(&rest[1..]));
                self.unit(idx, tail, st);
            }
            ["description", d @ ..] => self.dev.interfaces[phys].description = Some(d.join(" ")),
            ["disable", ..] => self.dev.interfaces[phys].admin_up = false,
            ["mtu", v] => match v.parse() {
                Ok(m) => self.dev.interfaces[phys].mtu = Some(m),
                Err(_) => self.dev.warn(line, format!("mtu: '{v}' is not a number")),
            },
            // `auto`, `auto-10m-100m`: negotiated, no configured speed.
            ["speed", v] if v.starts_with("auto") => {}
            ["speed", v] => match parse_speed(v) {
                Some(s) => self.dev.interfaces[phys].speed_mbps = Some(s),
                None => self.dev.warn(line, format!("speed: cannot read '{v}'")),
            },
            ["gigether-options" | "ether-options", "802.3ad", tail @ ..] => {
                let bundle = match tail {
                    ["bundle", ae, ..] => Some(*ae),
                    [ae, ..] if !matches!(*ae, "lacp" | "primary" | "backup") => Some(*ae),
                    _ => None,
                };
                if let Some(ae) = bundle {
                    self.dev.interfaces[phys].channel_group = Some(ae.to_owned());
                }
            }
            _ => {}
        }
    }

    fn unit(&mut self, idx: usize, w: &[&str], st: &Statement) {
        let line = st.line;
        match w {
            ["description", d @ ..] => self.dev.interfaces[idx].description = Some(d.join(" ")),
            ["disable", ..] => self.dev.interfaces[idx].admin_up = false,
            ["vlan-id", v] => match v.parse() {
                Ok(n) => {
                    let unit = &mut self.dev.interfaces[idx];
                    unit.access_vlan = Some(n);
                    unit.encapsulation_vlan = Some(n);
                }
                Err(_) => self
                    .dev
                    .warn(line, format!("vlan-id: '{v}' is not a VLAN id")),
            },
            ["family", "inet" | "inet6", "address", rest @ ..] => self.address(idx, rest, st),
            ["family", "inet", "dhcp" | "dhcp-client", ..] => self.dev.interfaces[idx].dhcp = true,
            ["family", "inet", "mtu", v] => match v.parse() {
                Ok(m) => self.dev.interfaces[idx].mtu = Some(m),
                Err(_) => self
                    .dev
                    .warn(line, format!("family inet mtu: '{v}' is not a number")),
            },
            ["family", "inet", "filter", dir, names @ ..] => {
                let context = match *dir {
                    "input" => "interface firewall filter input",
                    "output" => "interface firewall filter output",
                    "input-list" => "interface firewall filter input-list",
                    "output-list" => "interface firewall filter output-list",
                    _ => return,
                };
                self.refs(StructureKind::FirewallFilter, names, context, st);
                if let (["input" | "output"], [name]) = (&[*dir][..], names) {
                    let unit = self.dev.interfaces[idx].name.clone();
                    self.bind_filter(&unit, dir, name, line);
                }
            }
            ["family", "ethernet-switching", tail @ ..] => {
                let sw = self.switching.entry(idx).or_default();
                match tail {
                    ["interface-mode" | "port-mode", mode] => match *mode {
                        "access" => sw.mode = Some(SwitchportMode::Access),
                        "trunk" => sw.mode = Some(SwitchportMode::Trunk),
                        other => self.dev.warn(
                            line,
                            format!("ethernet-switching interface-mode: unknown mode '{other}'"),
                        ),
                    },
                    ["vlan", "members", members @ ..] => {
                        sw.members.extend(members.iter().map(|m| (*m).to_owned()))
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// `address A/L [primary | preferred | vrrp-group N virtual-address V…]`.
    pub(super) fn address(&mut self, idx: usize, w: &[&str], st: &Statement) {
        let [a, tail @ ..] = w else { return };
        let line = st.line_of(w);
        let Some(net) = parse_net(a) else {
            self.dev
                .warn(line, format!("family address: cannot read '{a}'"));
            return;
        };
        let primary = tail.first() == Some(&"primary");
        match self.address_index.get(&(idx, net)) {
            Some(i) => self.addresses[*i].primary |= primary,
            None => {
                self.address_index.insert((idx, net), self.addresses.len());
                self.addresses.push(PendingAddress {
                    iface: idx,
                    net,
                    primary,
                    line,
                });
            }
        }
        // Virtual addresses live in A's subnet.
        if let Some(i) = tail
            .iter()
            .position(|x| matches!(*x, "virtual-address" | "virtual-inet6-address"))
        {
            let vips = &tail[i + 1..];
            for (k, v) in vips.iter().enumerate() {
                let line = st.line_of(&vips[k..]);
                match v
                    .parse::<IpAddr>()
                    .ok()
                    .and_then(|ip| IpNet::new(ip, net.prefix_len()).ok())
                {
                    Some(vip) => {
                        if !self.virtuals.iter().any(|(i, n, _)| *i == idx && *n == vip) {
                            self.virtuals.push((idx, vip, line));
                        }
                    }
                    None => self
                        .dev
                        .warn(line, format!("virtual-address: cannot read '{v}'")),
                }
            }
        }
    }

    pub(super) fn finish_interfaces(&mut self) {
        // Primary address per unit and family: the one flagged, else the lowest.
        let key = |p: &PendingAddress| (p.iface, p.net.addr().is_ipv4());
        let flagged: HashSet<(usize, bool)> = self
            .addresses
            .iter()
            .filter(|p| p.primary)
            .map(key)
            .collect();
        let mut primary: HashMap<(usize, bool), IpNet> = HashMap::new();
        for p in &self.addresses {
            if flagged.contains(&key(p)) {
                if p.primary {
                    primary.entry(key(p)).or_insert(p.net);
                }
                continue;
            }
            let cur = primary.entry(key(p)).or_insert(p.net);
            if p.net.addr() < cur.addr() {
                *cur = p.net;
            }
        }
        for p in &self.addresses {
            let is_primary = primary.get(&key(p)) == Some(&p.net);
            self.dev.interfaces[p.iface]
                .addresses
                .push(InterfaceAddress {
                    address: p.net,
                    kind: if is_primary {
                        AddressKind::Primary
                    } else {
                        AddressKind::Secondary
                    },
                    line: p.line,
                });
        }
        for (idx, vip, line) in &self.virtuals {
            self.dev.interfaces[*idx].addresses.push(InterfaceAddress {
                address: *vip,
                kind: AddressKind::Virtual,
                line: *line,
            });
        }
        // A disabled physical port takes its units down.
        let down: HashSet<String> = self
            .dev
            .interfaces
            .iter()
            .filter(|i| !i.admin_up && !i.name.contains('.'))
            .map(|i| i.name.clone())
            .collect();
        for i in self.dev.interfaces.iter_mut() {
            if let Some((phys, _)) = i.name.rsplit_once('.') {
                if down.contains(phys) {
                    i.admin_up = false;
                }
            }
        }
        for (idx, sw) in std::mem::take(&mut self.switching) {
            let resolve = |m: &String| {
                self.vlans
                    .get(m)
                    .map_or_else(|| m.clone(), |n| n.to_string())
            };
            let members: Vec<String> = sw.members.iter().map(resolve).collect();
            let iface = &mut self.dev.interfaces[idx];
            let mode = sw.mode.unwrap_or(SwitchportMode::Access);
            iface.switchport_mode = Some(mode);
            match mode {
                SwitchportMode::Access => {
                    iface.access_vlan = members.first().and_then(|m| m.parse().ok())
                }
                SwitchportMode::Trunk if !members.is_empty() => {
                    iface.trunk_vlans = Some(members.join(","))
                }
                SwitchportMode::Trunk => {}
            }
        }
        let mut missing = Vec::new();
        for ri in &self.instances {
            if ri
                .kind
                .as_deref()
                .is_some_and(|k| LAYER2_INSTANCES.contains(&k))
            {
                continue;
            }
            for (name, line) in &ri.interfaces {
                // `interface ge-0/0/1` without a unit means unit 0.
                let unit = if name.contains('.') {
                    name.clone()
                } else {
                    format!("{name}.0")
                };
                let idx = self.index.get(&unit);
                match idx {
                    Some(i) => self.dev.interfaces[*i].vrf = Some(ri.name.clone()),
                    None => missing.push((
                        *line,
                        format!(
                            "routing-instance {}: interface {name} is not configured",
                            ri.name
                        ),
                    )),
                }
            }
        }
        for (line, m) in missing {
            self.dev.warn(line, m);
        }
        if self.management_instance {
            for i in self.dev.interfaces.iter_mut().filter(|i| i.vrf.is_none()) {
                let port = i.name.split('.').next().unwrap_or("");
                if MANAGEMENT_PORTS.contains(&port) {
                    i.vrf = Some("mgmt_junos".to_owned());
                }
            }
        }
    }
}
