//! IS-IS in the Cisco-style dialects: `router isis [TAG]` (`net`, `is-type`,
//! `metric-style`, `passive-interface`, what olav does not model) and interface lines
//! (IOS / NX-OS `ip router isis [TAG]`, EOS `isis enable TAG`, `isis metric N [level-N]`,
//! `isis circuit-type`, `isis passive`, NX-OS `isis passive-interface`).

use super::reference;
use crate::model::{DeviceConfig, IsisLevels, IsisRedistribute, StructureKind};

/// The area address of a NET (`49.0001.0000.0000.0001.00` → `49.0001`): everything but
/// the system id (three groups) and the selector, lowercased.
pub fn area_of_net(net: &str) -> Option<String> {
    let groups: Vec<&str> = net.split('.').collect();
    if groups.len() < 5 || groups.iter().any(|g| g.is_empty()) {
        return None;
    }
    Some(groups[..groups.len() - 4].join(".").to_ascii_lowercase())
}

/// `router isis [TAG]`: the process its lines are read in.
pub fn start(dev: &mut DeviceConfig, w: &[&str], line: u32) -> String {
    let tag = w.first().copied().unwrap_or_default().to_owned();
    let p = dev.isis.process_mut(&tag, line);
    if let ["vrf", v, ..] = w.get(1..).unwrap_or_default() {
        p.vrf = Some((*v).to_owned());
    }
    tag
}

/// Handles a line inside `router isis TAG`; returns whether it opens a block whose lines
/// belong to the process too (`address-family ipv4 unicast`), Some(false) for a block
/// olav does not read (IPv6 address families), None for a plain line.
pub fn process_line(dev: &mut DeviceConfig, tag: &str, w: &[&str], line: u32) -> Option<bool> {
    let p = dev.isis.process_mut(tag, line);
    match w {
        ["net", net] => match area_of_net(net) {
            Some(a) => {
                if !p.areas.contains(&a) {
                    p.areas.push(a);
                }
            }
            None => dev.warn(line, format!("isis net: cannot read '{net}'")),
        },
        ["is-type", t] => match IsisLevels::parse(t) {
            Some(l) => p.levels = l,
            None => dev.warn(line, format!("isis is-type: cannot read '{t}'")),
        },
        ["metric-style", style, ..] => match *style {
            "wide" => p.wide = Some(true),
            "narrow" => p.wide = Some(false),
            _ => p.transition = true,
        },
        ["passive-interface", "default", ..] => p.passive_default = true,
        ["no", "passive-interface", "default", ..] => p.passive_default = false,
        ["passive-interface", name, ..] => p.passive.push((*name).to_owned()),
        ["no", "passive-interface", name, ..] => p.not_passive.push((*name).to_owned()),
        ["address-family", "ipv4", ..] => {
            p.ipv4 = true;
            return Some(true);
        }
        ["address-family", ..] => return Some(false),
        ["vrf", _] => {
            p.unsupported("IS-IS VRF blocks");
            return Some(false);
        }
        ["shutdown"] => p.shutdown = true,
        ["redistribute", protocol, rest @ ..] => {
            let mut r = IsisRedistribute {
                protocol: (*protocol).to_owned(),
                levels: IsisLevels::L2,
                metric: None,
                route_map: None,
            };
            for (k, x) in rest.iter().enumerate() {
                match *x {
                    "metric" => r.metric = rest.get(k + 1).and_then(|m| m.parse().ok()),
                    "route-map" => r.route_map = rest.get(k + 1).map(|m| (*m).to_owned()),
                    l => {
                        if let Some(l) = IsisLevels::parse(l) {
                            r.levels = l;
                        }
                    }
                }
            }
            if let Some(m) = &r.route_map {
                reference(
                    dev,
                    StructureKind::RouteMap,
                    m,
                    "isis redistribute route-map",
                    line,
                );
            }
            dev.isis.process_mut(tag, line).redistribute.push(r);
        }
        ["default-information", ..] => p.unsupported("default-information originate"),
        ["summary-address", ..] | ["summary-prefix", ..] => p.unsupported("summary addresses"),
        ["distribute-list", ..] => p.unsupported("distribute-lists"),
        ["distance", ..] => p.unsupported("IS-IS distances"),
        ["multi-topology", ..] => p.unsupported("multi-topology"),
        ["max-metric", ..] | ["set-overload-bit", ..] => p.unsupported("the overload bit"),
        ["maximum-paths", n, ..] if n.parse::<u32>().is_ok_and(|n| n < 4) => {
            p.unsupported("maximum-paths below 4")
        }
        ["metric", ..] => p.unsupported("a process-wide default metric"),
        ["exit-address-family" | "no" | "log-adjacency-changes" | "maximum-paths", ..] => {}
        ["hostname" | "router-id" | "authentication" | "authentication-mode", ..] => {}
        ["authentication-key" | "timers" | "spf-interval" | "lsp-gen-interval", ..] => {}
        ["prc-interval" | "lsp-refresh-interval" | "max-lsp-lifetime" | "nsf", ..] => {}
        ["graceful-restart" | "bfd" | "log-adjacency" | "area-password", ..] => {}
        ["domain-password" | "ispf" | "fast-flood" | "advertise", ..] => {}
        _ => p.unsupported(&format!("`{}`", w.join(" "))),
    }
    None
}

/// Handles an IS-IS line inside `interface X` (index `idx`); returns whether it was one.
pub fn interface_line(dev: &mut DeviceConfig, idx: usize, w: &[&str], line: u32) -> bool {
    let Some(name) = dev.interfaces.get(idx).map(|i| i.name.clone()) else {
        return false;
    };
    let level = |rest: &[&str]| rest.first().and_then(|l| IsisLevels::parse(l));
    match w {
        ["ip", "router", "isis", rest @ ..] | ["isis", "enable", rest @ ..] => {
            let tag = rest.first().copied().unwrap_or_default().to_owned();
            dev.isis.interface_mut(&name).process = Some(tag);
        }
        ["isis", "metric", m, rest @ ..] => match m.parse::<u32>() {
            Ok(m) => {
                let s = dev.isis.interface_mut(&name);
                match level(rest) {
                    Some(IsisLevels::L1) => s.metric.0 = Some(m),
                    Some(IsisLevels::L2) => s.metric.1 = Some(m),
                    _ => s.metric = (Some(m), Some(m)),
                }
            }
            Err(_) => dev.warn(line, format!("isis metric: '{m}' is not a number")),
        },
        ["isis", "circuit-type", t] => match IsisLevels::parse(t) {
            Some(l) => dev.isis.interface_mut(&name).circuit = Some(l),
            None => dev.warn(line, format!("isis circuit-type: cannot read '{t}'")),
        },
        ["isis", "passive", ..] | ["isis", "passive-interface", ..] => {
            dev.isis.interface_mut(&name).passive = true
        }
        ["no", "isis", "passive", ..] | ["no", "isis", "passive-interface", ..] => {
            dev.isis.interface_mut(&name).passive = false
        }
        ["isis" | "medium", ..] => {}
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::area_of_net;
    use crate::import::parse::parser_for;
    use crate::model::{IsisLevels, Vendor};

    #[test]
    fn nets_give_areas() {
        assert_eq!(
            area_of_net("49.0001.0000.0000.0001.00").as_deref(),
            Some("49.0001")
        );
        assert_eq!(
            area_of_net("49.0001.AB12.1921.6800.1001.00").as_deref(),
            Some("49.0001.ab12")
        );
        assert_eq!(area_of_net("49.0001"), None);
    }

    #[test]
    fn ios_nxos_and_eos_forms() {
        let ios = "hostname r\ninterface GigabitEthernet1\n ip address 10.0.0.1 255.255.255.0\n ip router isis\n isis metric 20 level-2\n isis circuit-type level-2-only\nrouter isis\n net 49.0001.0000.0000.0001.00\n is-type level-1-2\n metric-style wide\n passive-interface Loopback0\n";
        let d = parser_for(Vendor::CiscoIos).parse(ios);
        let p = &d.isis.processes[0];
        assert_eq!(
            (p.tag.as_str(), p.areas.as_slice()),
            ("", &["49.0001".to_owned()][..])
        );
        assert_eq!((p.levels, p.wide), (IsisLevels::L1L2, Some(true)));
        assert_eq!(p.passive, ["Loopback0"]);
        let i = d.isis.interface("Gi1").expect("enabled");
        assert_eq!(i.process.as_deref(), Some(""));
        assert_eq!(
            (i.metric, i.circuit),
            ((None, Some(20)), Some(IsisLevels::L2))
        );
        assert_eq!(d.lines_unrecognised, 0);
        let nx = "hostname n\nfeature isis\nrouter isis CORE\n  net 49.0002.0000.0000.0002.00\n  is-type level-2\n  address-family ipv4 unicast\n    redistribute direct route-map X\ninterface Ethernet1/1\n  ip router isis CORE\n  isis passive-interface level-1-2\n";
        let d = parser_for(Vendor::CiscoNxos).parse(nx);
        let p = &d.isis.processes[0];
        assert_eq!((p.tag.as_str(), p.levels), ("CORE", IsisLevels::L2));
        assert_eq!(p.redistribute[0].route_map.as_deref(), Some("X"));
        assert!(d.isis.interface("Ethernet1/1").is_some_and(|i| i.passive));
        let eos = "hostname e\ninterface Ethernet1\n   no switchport\n   ip address 10.0.0.1/31\n   isis enable CORE\n   isis metric 30\n   isis network point-to-point\nrouter isis CORE\n   net 49.0003.0000.0000.0003.00\n   address-family ipv4 unicast\n";
        let d = parser_for(Vendor::AristaEos).parse(eos);
        let i = d.isis.interface("Ethernet1").expect("enabled");
        assert_eq!(
            (i.process.as_deref(), i.metric),
            (Some("CORE"), (Some(30), Some(30)))
        );
        assert_eq!(d.isis.processes[0].areas, ["49.0003"]);
    }
}
