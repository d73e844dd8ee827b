//! EIGRP in the Cisco-style dialects: `router eigrp N` (classic, with its `address-family
//! ipv4 vrf X` blocks), `router eigrp NAME` (named mode: `address-family ipv4 unicast
//! [vrf X] autonomous-system N`, `af-interface`, `topology base`), NX-OS `router eigrp
//! TAG` with `autonomous-system` and `vrf` blocks; interface `delay`, `bandwidth`, NX-OS
//! `ip router eigrp TAG` and `ip passive-interface eigrp TAG`. EOS has no EIGRP.

use super::{parse_addr_wildcard, reference};
use crate::model::{
    DeviceConfig, DistributeList, EigrpDistribute, EigrpRedistribute, EigrpStub, StructureKind,
};
use ipnet::{IpNet, Ipv4Net};
use std::net::Ipv4Addr;

/// Where a line inside `router eigrp` sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The process as written.
    pub id: String,
    /// The VRF of the address family or `vrf` block (None: default).
    pub vrf: Option<String>,
    /// Named mode.
    pub named: bool,
    /// Inside `af-interface X` (named mode).
    pub af_interface: Option<String>,
    /// Inside an IPv6 address family (not read).
    pub ipv6: bool,
}

/// `router eigrp X`: the block its lines are read in. A number is a classic process whose
/// AS it is (NX-OS: a tag, its AS the tag when numeric, else `autonomous-system N`); a
/// name whose `address-family ipv4 … autonomous-system N` gives the AS is a named-mode
/// process (IOS).
pub fn start(dev: &mut DeviceConfig, id: &str, line: u32) -> Block {
    dev.eigrp.process_mut(id, None, line).asn = id.parse::<u32>().ok();
    Block {
        id: id.to_owned(),
        vrf: None,
        named: false,
        af_interface: None,
        ipv6: false,
    }
}

/// The classful network of an address (`network 10.0.0.0` without a wildcard).
fn classful(a: Ipv4Addr) -> Ipv4Net {
    let len = match a.octets()[0] {
        0..=127 => 8,
        128..=191 => 16,
        _ => 24,
    };
    Ipv4Net::new(a, len).map(|n| n.trunc()).unwrap_or_default()
}

/// `metric bw delay reliability load mtu`: (bandwidth, delay).
fn metric_of(w: &[&str]) -> Option<(u64, u64)> {
    match w {
        [bw, delay, ..] => Some((bw.parse().ok()?, delay.parse().ok()?)),
        _ => None,
    }
}

/// Handles a line inside an EIGRP block; returns the block a line opens, if any.
pub fn process_line(dev: &mut DeviceConfig, b: &Block, w: &[&str], line: u32) -> Option<Block> {
    let vrf = b.vrf.as_deref();
    if b.ipv6 {
        return None;
    }
    if let Some(i) = &b.af_interface {
        let p = dev.eigrp.process_mut(&b.id, vrf, line);
        match w {
            ["passive-interface"] if i == "default" => p.passive_default = true,
            ["no", "passive-interface"] if i == "default" => p.passive_default = false,
            ["passive-interface"] => p.passive.push(i.clone()),
            ["no", "passive-interface"] => p.not_passive.push(i.clone()),
            ["summary-address", ..] => p.unsupported("summary addresses"),
            ["exit-af-interface"] | ["hello-interval" | "hold-time" | "authentication", ..] => {}
            ["bandwidth-percent" | "split-horizon" | "no" | "next-hop-self", ..] => {}
            _ => p.unsupported(&format!("af-interface `{}`", w.join(" "))),
        }
        return None;
    }
    let p = dev.eigrp.process_mut(&b.id, vrf, line);
    p.named |= b.named;
    match w {
        ["address-family", "ipv4", rest @ ..] => {
            let v = rest
                .iter()
                .position(|x| *x == "vrf")
                .and_then(|i| rest.get(i + 1))
                .map(|v| (*v).to_owned());
            let asn = rest
                .iter()
                .position(|x| *x == "autonomous-system")
                .and_then(|i| rest.get(i + 1))
                .and_then(|a| a.parse::<u32>().ok());
            // Named mode: a process name with the AS in its address family.
            let named = b.named || (asn.is_some() && b.id.parse::<u32>().is_err());
            let q = dev.eigrp.process_mut(&b.id, v.as_deref().or(vrf), line);
            q.named = named;
            if asn.is_some() {
                q.asn = asn;
            } else if v.is_some() && !b.named {
                // A classic VRF block without `autonomous-system` runs nothing until it has one.
                q.asn = None;
            }
            return Some(Block {
                vrf: v.or(b.vrf.clone()),
                named,
                ..b.clone()
            });
        }
        ["address-family", ..] => {
            return Some(Block {
                ipv6: true,
                ..b.clone()
            });
        }
        // NX-OS `vrf X` under the process.
        ["vrf", v] => {
            let asn = p.asn;
            dev.eigrp.process_mut(&b.id, Some(v), line).asn = asn;
            return Some(Block {
                vrf: Some((*v).to_owned()),
                ..b.clone()
            });
        }
        ["af-interface", i] => {
            return Some(Block {
                af_interface: Some((*i).to_owned()),
                ..b.clone()
            })
        }
        ["topology", "base"] => return Some(b.clone()),
        ["topology", ..] => p.unsupported("multi-topology"),
        ["autonomous-system", a] => match a.parse() {
            Ok(a) => p.asn = Some(a),
            Err(_) => dev.warn(
                line,
                format!("eigrp autonomous-system: '{a}' is not a number"),
            ),
        },
        ["network", a, rest @ ..] => {
            let net = match rest {
                [wc, ..] => match parse_addr_wildcard(a, wc) {
                    Some(IpNet::V4(n)) => Some(n),
                    _ => None,
                },
                [] => a.parse::<Ipv4Addr>().ok().map(classful),
            };
            match net {
                Some(n) => p.networks.push(n),
                None => dev.warn(
                    line,
                    format!("eigrp network: cannot read '{}'", w.join(" ")),
                ),
            }
        }
        ["eigrp", "router-id", id] | ["router-id", id] => {
            if let Ok(a) = id.parse() {
                p.router_id = Some(a);
            }
        }
        ["passive-interface", "default"] => p.passive_default = true,
        ["no", "passive-interface", "default"] => p.passive_default = false,
        ["passive-interface", rest @ ..] => p.passive.push(rest.concat()),
        ["no", "passive-interface", rest @ ..] => p.not_passive.push(rest.concat()),
        ["redistribute", protocol, rest @ ..] => {
            let mut r = EigrpRedistribute {
                protocol: (*protocol).to_owned(),
                metric: None,
                route_map: None,
            };
            for (k, x) in rest.iter().enumerate() {
                match *x {
                    "metric" => r.metric = metric_of(&rest[k + 1..]),
                    "route-map" => r.route_map = rest.get(k + 1).map(|m| (*m).to_owned()),
                    _ => {}
                }
            }
            if let Some(m) = &r.route_map {
                reference(
                    dev,
                    StructureKind::RouteMap,
                    m,
                    "eigrp redistribute route-map",
                    line,
                );
            }
            dev.eigrp.process_mut(&b.id, vrf, line).redistribute.push(r);
        }
        ["default-metric", rest @ ..] => p.default_metric = metric_of(rest),
        ["shutdown"] => p.shutdown = true,
        ["metric", "rib-scale", ..] => p.unsupported("metric rib-scale"),
        ["metric", "version", "64bit"] => p.unsupported("64-bit metrics"),
        ["metric", "weights", rest @ ..] => {
            // The default K values are `0 1 0 1 0 0` (TOS first).
            if !matches!(
                rest,
                ["0", "1", "0", "1", "0", "0", ..] | ["0", "1", "0", "1", "0"]
            ) {
                p.unsupported("K values");
            }
        }
        ["eigrp", "stub", rest @ ..] | ["stub", rest @ ..] => {
            // Alone: connected and summary routes; `receive-only`: nothing.
            let mut stub = EigrpStub {
                connected: rest.is_empty(),
                ..EigrpStub::default()
            };
            for x in rest {
                match *x {
                    "connected" | "direct" => stub.connected = true,
                    "static" => stub.static_routes = true,
                    "redistributed" => stub.redistributed = true,
                    "summary" | "receive-only" => {}
                    _ => p.unsupported("stub leak-maps"),
                }
            }
            p.stub = Some(stub);
        }
        ["distribute-list", rest @ ..] => match distribute(rest) {
            Some(d) => p.distribute.push(d),
            None => dev.warn(
                line,
                format!("distribute-list: cannot read '{}'", w.join(" ")),
            ),
        },
        ["offset-list", ..] => p.unsupported("offset-lists"),
        ["summary-address", ..] => p.unsupported("summary addresses"),
        ["distance", ..] => p.unsupported("EIGRP distances"),
        ["variance", ..] => p.unsupported("unequal-cost load balancing (variance)"),
        ["maximum-paths", n] if n.parse::<u32>().is_ok_and(|n| n < 4) => {
            p.unsupported("maximum-paths below 4")
        }
        ["auto-summary"] => p.unsupported("auto-summary"),
        ["exit-address-family" | "exit-af-topology" | "exit-af-interface" | "no", ..] => {}
        ["eigrp" | "timers" | "nsf" | "log-neighbor-changes" | "maximum-paths", ..] => {}
        ["graceful-restart" | "log-adjacency-changes" | "bfd", ..] => {}
        _ => p.unsupported(&format!("`{}`", w.join(" "))),
    }
    None
}

/// `prefix NAME | prefix-list NAME | route-map NAME | ACL | gateway NAME` then `in|out
/// [INTERFACE]`.
fn distribute(w: &[&str]) -> Option<EigrpDistribute> {
    let (list, rest) = match w {
        ["prefix" | "prefix-list", name, rest @ ..] => {
            (DistributeList::PrefixList((*name).to_owned()), rest)
        }
        ["route-map", name, rest @ ..] => (DistributeList::RouteMap((*name).to_owned()), rest),
        ["gateway", name, rest @ ..] => (DistributeList::Other(format!("gateway {name}")), rest),
        [name, rest @ ..] => (DistributeList::Other(format!("access-list {name}")), rest),
        [] => return None,
    };
    let inbound = match rest.first() {
        Some(&"in") => true,
        Some(&"out") => false,
        _ => return None,
    };
    Some(EigrpDistribute {
        list,
        inbound,
        interface: rest.get(1..).filter(|r| !r.is_empty()).map(|r| r.concat()),
    })
}

/// Handles an EIGRP line inside `interface X` (index `idx`): `delay`, `bandwidth` (read
/// here and by OSPF too: returns false for it), NX-OS `ip router eigrp TAG`, `ip
/// passive-interface eigrp TAG`, per-interface summaries. Returns whether it was one.
pub fn interface_line(dev: &mut DeviceConfig, idx: usize, w: &[&str], line: u32) -> bool {
    let Some(name) = dev.interfaces.get(idx).map(|i| i.name.clone()) else {
        return false;
    };
    match w {
        ["delay", d] => match d.parse() {
            Ok(d) => dev.eigrp.interface_mut(&name).delay_tens_us = Some(d),
            Err(_) => dev.warn(line, format!("delay: '{d}' is not a number")),
        },
        ["bandwidth", b, ..] => {
            if let Ok(b) = b.parse() {
                dev.eigrp.interface_mut(&name).bandwidth_kbps = Some(b);
            }
            return false;
        }
        ["ip", "router", "eigrp", tag] => {
            dev.eigrp.interface_mut(&name).process = Some((*tag).to_owned())
        }
        ["ip", "passive-interface", "eigrp", _] => dev.eigrp.interface_mut(&name).passive = true,
        ["ip", "summary-address", "eigrp", tag, ..] => dev
            .eigrp
            .process_mut(tag, None, line)
            .unsupported("summary addresses"),
        ["ip", "distribute-list", "eigrp", tag, rest @ ..] => match distribute(rest) {
            Some(mut d) => {
                d.interface = Some(name);
                dev.eigrp.process_mut(tag, None, line).distribute.push(d);
            }
            None => dev.warn(
                line,
                format!("ip distribute-list: cannot read '{}'", w.join(" ")),
            ),
        },
        ["ip", "hello-interval" | "hold-time" | "authentication", "eigrp", ..] => {}
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::import::parse::parser_for;
    use crate::model::Vendor;

    #[test]
    fn classic_process_with_vrf_blocks_passive_and_redistribution() {
        let cfg = "hostname r\ninterface GigabitEthernet1\n ip address 10.0.0.1 255.255.255.0\n delay 20\n bandwidth 100000\nrouter eigrp 1\n network 10.0.0.0 0.0.0.255\n network 172.16.0.0\n passive-interface default\n no passive-interface GigabitEthernet1\n redistribute connected metric 1000 100 255 1 1500 route-map RM\n eigrp router-id 1.1.1.1\n address-family ipv4 vrf RED autonomous-system 10\n  network 192.168.1.0 0.0.0.255\n exit-address-family\n";
        let d = parser_for(Vendor::CiscoIos).parse(cfg);
        let p = &d.eigrp.processes[0];
        assert_eq!((p.id.as_str(), p.asn, p.named), ("1", Some(1), false));
        assert_eq!(
            p.networks.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
            ["10.0.0.0/24", "172.16.0.0/16"]
        );
        assert!(p.is_passive("Gi2") && !p.is_passive("GigabitEthernet1"));
        assert_eq!(p.redistribute[0].metric, Some((1000, 100)));
        assert_eq!(p.redistribute[0].route_map.as_deref(), Some("RM"));
        assert_eq!(p.router_id, Some("1.1.1.1".parse().unwrap()));
        assert!(p.unsupported.is_empty(), "{:?}", p.unsupported);
        let v = &d.eigrp.processes[1];
        assert_eq!((v.vrf.as_deref(), v.asn), (Some("RED"), Some(10)));
        assert_eq!(v.networks[0].to_string(), "192.168.1.0/24");
        let i = d.eigrp.interface("Gi1").expect("settings");
        assert_eq!(
            (i.delay_tens_us, i.bandwidth_kbps),
            (Some(20), Some(100_000))
        );
        // OSPF still reads the bandwidth.
        assert_eq!(
            d.ospf.interface("Gi1").and_then(|s| s.bandwidth_kbps),
            Some(100_000)
        );
        assert_eq!(d.lines_unrecognised, 0);
    }

    #[test]
    fn named_mode_and_nxos_interfaces() {
        let cfg = "hostname r\nrouter eigrp CORE\n address-family ipv4 unicast autonomous-system 100\n  af-interface default\n   passive-interface\n  exit-af-interface\n  af-interface GigabitEthernet2\n   no passive-interface\n  exit-af-interface\n  topology base\n   redistribute static metric 10000 10 255 1 1500\n  exit-af-topology\n  network 10.0.0.0\n  eigrp stub connected\n exit-address-family\n";
        let d = parser_for(Vendor::CiscoIos).parse(cfg);
        let p = &d.eigrp.processes[0];
        assert_eq!((p.asn, p.named), (Some(100), true));
        assert!(p.is_passive("Gi1") && !p.is_passive("Gi2"));
        assert_eq!(p.redistribute[0].metric, Some((10_000, 10)));
        assert!(p.unsupported.is_empty());
        assert_eq!(
            p.stub.map(|s| (s.connected, s.static_routes)),
            Some((true, false))
        );
        let nx = "hostname n\nfeature eigrp\nrouter eigrp 7\n  autonomous-system 70\n  vrf BLUE\n    autonomous-system 71\ninterface Ethernet1/1\n  ip router eigrp 7\n  ip passive-interface eigrp 7\n";
        let d = parser_for(Vendor::CiscoNxos).parse(nx);
        let ps: Vec<(Option<&str>, Option<u32>, bool)> = d
            .eigrp
            .processes
            .iter()
            .map(|p| (p.vrf.as_deref(), p.asn, p.named))
            .collect();
        assert_eq!(
            ps,
            [(None, Some(70), false), (Some("BLUE"), Some(71), false)]
        );
        let i = d.eigrp.interface("Ethernet1/1").expect("enabled");
        assert_eq!(i.process.as_deref(), Some("7"));
        assert!(i.passive);
    }
}
