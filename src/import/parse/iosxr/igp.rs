//! IOS-XR `router ospf` and `router isis`: interfaces are named inside the process (an
//! OSPF `area` holds its `interface` blocks), and settings written at the process or the
//! area level are inherited by the interfaces below, as IOS-XR does.

use super::tree::Node;
use crate::model::{
    DeviceConfig, IsisLevels, OspfNetwork, OspfNetworkType, OspfRedistribute, StructureKind,
};

/// The OSPF settings a level passes down to the interfaces under it.
#[derive(Clone, Copy, Default)]
struct OspfInherited {
    cost: Option<u32>,
    network: Option<OspfNetworkType>,
    passive: Option<bool>,
}

impl OspfInherited {
    /// Reads one setting line; false when it is not one.
    fn read(&mut self, w: &[&str]) -> bool {
        match w {
            ["cost", c] => self.cost = c.parse().ok(),
            ["network", "point-to-point"] => self.network = Some(OspfNetworkType::PointToPoint),
            ["network", "broadcast"] => self.network = Some(OspfNetworkType::Broadcast),
            ["passive"] | ["passive", "enable"] => self.passive = Some(true),
            ["passive", "disable"] => self.passive = Some(false),
            _ => return false,
        }
        true
    }
}

/// Reads `router ospf ID` (with its `vrf` blocks).
pub fn ospf(dev: &mut DeviceConfig, id: &str, n: &Node) {
    ospf_instance(dev, id, None, n);
}

fn ospf_instance(dev: &mut DeviceConfig, id: &str, vrf: Option<&str>, n: &Node) {
    // One process per VRF, named as the routing model keys them.
    let key = match vrf {
        Some(v) => format!("{id}:{v}"),
        None => id.to_owned(),
    };
    dev.ospf.process_mut(&key, n.line).vrf = vrf.map(str::to_owned);
    let mut top = OspfInherited::default();
    let mut areas = Vec::new();
    for c in &n.children {
        let w = c.words();
        if top.read(&w) {
            continue;
        }
        let p = dev.ospf.process_mut(&key, n.line);
        match w.as_slice() {
            ["router-id", r] => p.router_id = r.parse().ok(),
            ["auto-cost", "reference-bandwidth", b] => p.reference_bandwidth_mbps = b.parse().ok(),
            ["shutdown"] => p.shutdown = true,
            ["area", a] => areas.push((*a, c)),
            ["vrf", v] if vrf.is_none() => ospf_instance(dev, id, Some(v), c),
            ["redistribute", proto, rest @ ..] => {
                let route_map = policy_after(rest);
                p.redistribute.push(OspfRedistribute {
                    protocol: (*proto).to_owned(),
                    subnets: true,
                    metric: rest
                        .iter()
                        .position(|x| *x == "metric")
                        .and_then(|i| rest.get(i + 1))
                        .and_then(|m| m.parse().ok()),
                    metric_type: if rest.windows(2).any(|x| x == ["metric-type", "1"]) {
                        1
                    } else {
                        2
                    },
                    route_map: route_map.clone(),
                });
                if let Some(rm) = route_map {
                    super::super::common::reference(
                        dev,
                        StructureKind::RouteMap,
                        &rm,
                        "ospf redistribute route-policy",
                        c.line,
                    );
                }
            }
            ["log", ..]
            | ["nsr", ..]
            | ["max-metric", ..]
            | ["address-family", ..]
            | ["bfd", ..]
            | ["timers", ..]
            | ["mpls", ..] => {}
            _ => {
                let what = format!("'{}'", c.text);
                p.unsupported(&what);
            }
        }
    }
    for (area, block) in areas {
        let mut at_area = top;
        for c in &block.children {
            let w = c.words();
            if at_area.read(&w) {
                continue;
            }
            if let ["interface", name] = w.as_slice() {
                let mut here = at_area;
                for s in &c.children {
                    here.read(&s.words());
                }
                let settings = dev.ospf.interface_mut(name);
                settings.cost = here.cost.or(settings.cost);
                settings.network_type = here.network.or(settings.network_type);
                settings.passive = here.passive.or(settings.passive);
                dev.ospf_networks.push(OspfNetwork {
                    process: key.clone(),
                    prefix: None,
                    interface: Some((*name).to_owned()),
                    area: area.to_owned(),
                    line: c.line,
                });
            }
        }
    }
}

/// The policy named by `route-policy NAME` in `w`.
pub fn policy_after(w: &[&str]) -> Option<String> {
    w.iter()
        .position(|x| *x == "route-policy")
        .and_then(|i| w.get(i + 1))
        .map(|s| (*s).to_owned())
}

/// Reads `router isis TAG`.
pub fn isis(dev: &mut DeviceConfig, tag: &str, n: &Node) {
    let mut metric: Option<u32> = None;
    for c in &n.children {
        let w = c.words();
        match w.as_slice() {
            ["net", net] => {
                // The area precedes the system id (three groups) and the selector.
                let area = net
                    .rsplitn(5, '.')
                    .last()
                    .unwrap_or_default()
                    .to_lowercase();
                let p = dev.isis.process_mut(tag, n.line);
                if !p.areas.contains(&area) {
                    p.areas.push(area);
                }
            }
            ["is-type", l] => {
                if let Some(l) = IsisLevels::parse(l) {
                    dev.isis.process_mut(tag, n.line).levels = l;
                }
            }
            ["address-family", "ipv4", "unicast"] => {
                let p = dev.isis.process_mut(tag, n.line);
                p.ipv4 = true;
                for s in &c.children {
                    match s.words().as_slice() {
                        ["metric-style", "wide", ..] => p.wide = Some(true),
                        ["metric-style", "narrow", ..] => p.wide = Some(false),
                        ["metric-style", "transition", ..] => p.transition = true,
                        ["metric", m, ..] => metric = m.parse().ok(),
                        _ => {}
                    }
                }
            }
            ["interface", name] => isis_interface(dev, tag, name, c),
            _ => {}
        }
    }
    let p = dev.isis.process_mut(tag, n.line);
    // IOS-XR's default metric style is narrow.
    if p.wide.is_none() && !p.transition {
        p.wide = Some(false);
    }
    if let Some(m) = metric {
        for i in dev.isis.interfaces.iter_mut() {
            if i.process.as_deref() == Some(tag) {
                i.metric.0 = i.metric.0.or(Some(m));
                i.metric.1 = i.metric.1.or(Some(m));
            }
        }
    }
}

fn isis_interface(dev: &mut DeviceConfig, tag: &str, name: &str, n: &Node) {
    let i = dev.isis.interface_mut(name);
    for c in &n.children {
        match c.words().as_slice() {
            ["passive"] => i.passive = true,
            ["shutdown"] => i.disabled = true,
            ["circuit-type", l] => i.circuit = IsisLevels::parse(l),
            // IPv4 runs on the interface only with its address family.
            ["address-family", "ipv4", "unicast"] => {
                i.process = Some(tag.to_owned());
                for s in &c.children {
                    match s.words().as_slice() {
                        ["metric", m, "level", "1"] => i.metric.0 = m.parse().ok(),
                        ["metric", m, "level", "2"] => i.metric.1 = m.parse().ok(),
                        ["metric", m] => {
                            let m = m.parse().ok();
                            i.metric = (m, m);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// Gives each OSPF interface statement its interface's primary subnet, once every
/// interface is read.
pub fn finish(dev: &mut DeviceConfig) {
    let subnets: Vec<(String, ipnet::IpNet)> = dev
        .interfaces
        .iter()
        .filter_map(|i| {
            i.addresses
                .iter()
                .find(|a| a.kind == crate::model::AddressKind::Primary)
                .map(|a| (i.name.clone(), a.address.trunc()))
        })
        .collect();
    for n in dev.ospf_networks.iter_mut() {
        if let Some(name) = &n.interface {
            n.prefix = subnets.iter().find(|(i, _)| i == name).map(|(_, p)| *p);
        }
    }
}
