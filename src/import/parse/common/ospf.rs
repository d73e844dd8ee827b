//! OSPF in the Cisco-style dialects: interface lines (`ip ospf cost`, `ip ospf network`,
//! EOS `ip ospf area A`, `ip ospf N area A`, NX-OS `ip router ospf N area A`, `ip ospf
//! passive-interface`, `bandwidth`) and the `router ospf N [vrf V]` process lines.

use super::{parse_addr_mask, parse_addr_wildcard, parse_prefix, reference};
use crate::model::{
    DeviceConfig, OspfAreaRange, OspfAuth, OspfDefaultOriginate, OspfNetwork, OspfNetworkType,
    OspfNssa, OspfRedistribute, StructureKind,
};
use std::net::Ipv4Addr;

/// The process EOS interface-mode `ip ospf area A` is recorded under until the walk
/// ends ([`finish`] gives it the device's only default-VRF process).
pub const INTERFACE_PROCESS: &str = "";

/// Handles an OSPF line inside `interface X` (index `idx`). Returns false when it is not
/// one.
pub fn interface_line(dev: &mut DeviceConfig, idx: usize, w: &[&str], line: u32) -> bool {
    let Some(name) = dev.interfaces.get(idx).map(|i| i.name.clone()) else {
        return false;
    };
    let enable = |dev: &mut DeviceConfig, process: &str, area: &str| {
        dev.ospf_networks.push(OspfNetwork {
            process: process.to_owned(),
            prefix: None,
            interface: Some(name.clone()),
            area: area.to_owned(),
            line,
        });
    };
    match w {
        ["ip", "ospf", "area", area] => enable(dev, INTERFACE_PROCESS, area),
        ["ip", "ospf", process, "area", area, ..]
        | ["ip", "router", "ospf", process, "area", area, ..] => enable(dev, process, area),
        ["ip", "ospf", "cost", c] => match c.parse() {
            Ok(c) => dev.ospf.interface_mut(&name).cost = Some(c),
            Err(_) => dev.warn(line, format!("ip ospf cost: '{c}' is not a number")),
        },
        ["ip", "ospf", "network", t, ..] => {
            dev.ospf.interface_mut(&name).network_type = Some(match *t {
                "point-to-point" => OspfNetworkType::PointToPoint,
                _ => OspfNetworkType::Broadcast,
            });
            if *t != "point-to-point" && *t != "broadcast" {
                dev.ospf
                    .process_mut(INTERFACE_PROCESS, line)
                    .unsupported(&format!("OSPF network type {t}"));
            }
        }
        ["ip", "ospf", "passive-interface"] => dev.ospf.interface_mut(&name).passive = Some(true),
        ["no", "ip", "ospf", "passive-interface"] => {
            dev.ospf.interface_mut(&name).passive = Some(false)
        }
        ["ip", "ospf", "mtu-ignore"] => dev.ospf.interface_mut(&name).mtu_ignore = true,
        ["ip", "ospf", "hello-interval", n] => match n.parse() {
            Ok(n) => dev.ospf.interface_mut(&name).hello = Some(n),
            Err(_) => dev.warn(
                line,
                format!("ip ospf hello-interval: '{n}' is not a number"),
            ),
        },
        ["ip", "ospf", "dead-interval", "minimal", ..] => {
            dev.ospf.interface_mut(&name).dead = Some(1)
        }
        ["ip", "ospf", "dead-interval", n] => match n.parse() {
            Ok(n) => dev.ospf.interface_mut(&name).dead = Some(n),
            Err(_) => dev.warn(
                line,
                format!("ip ospf dead-interval: '{n}' is not a number"),
            ),
        },
        ["ip", "ospf", "priority", n] => match n.parse() {
            Ok(n) => dev.ospf.interface_mut(&name).priority = Some(n),
            Err(_) => dev.warn(line, format!("ip ospf priority: '{n}' is not a number")),
        },
        ["ip", "ospf", "authentication", rest @ ..] => {
            dev.ospf.interface_mut(&name).auth = Some(auth_type(rest))
        }
        // Keys are compared by no one here: their presence changes nothing olav computes.
        ["ip", "ospf", "authentication-key" | "message-digest-key", ..] => {}
        ["bandwidth", b, ..] => {
            if let Ok(b) = b.parse() {
                dev.ospf.interface_mut(&name).bandwidth_kbps = Some(b);
            }
        }
        _ => return false,
    }
    true
}

/// After the walk: EOS interface-mode enablements (`ip ospf area A`, process
/// [`INTERFACE_PROCESS`]) and what was recorded for them join the device's only
/// default-VRF process, when it has exactly one.
pub fn finish(dev: &mut DeviceConfig) {
    let named: Vec<String> = dev
        .ospf
        .processes
        .iter()
        .filter(|p| p.vrf.is_none() && p.id != INTERFACE_PROCESS)
        .map(|p| p.id.clone())
        .collect();
    let [only] = named.as_slice() else {
        return;
    };
    for o in dev
        .ospf_networks
        .iter_mut()
        .filter(|o| o.process == INTERFACE_PROCESS)
    {
        o.process = only.clone();
    }
    if let Some(i) = dev
        .ospf
        .processes
        .iter()
        .position(|p| p.id == INTERFACE_PROCESS)
    {
        let anon = dev.ospf.processes.remove(i);
        if let Some(p) = dev.ospf.processes.iter_mut().find(|p| p.id == *only) {
            for u in &anon.unsupported {
                p.unsupported(u);
            }
        }
    }
}

/// `metric-type 1|2`, `metric N`, `route-map M`, `always`, `subnets` after a
/// `redistribute` or `default-information originate`.
struct Options {
    metric: Option<u32>,
    metric_type: u8,
    route_map: Option<String>,
    always: bool,
    subnets: bool,
}

fn options(w: &[&str]) -> Options {
    let mut o = Options {
        metric: None,
        metric_type: 2,
        route_map: None,
        always: false,
        subnets: false,
    };
    let mut it = w.iter();
    while let Some(x) = it.next() {
        match *x {
            "metric" => o.metric = it.next().and_then(|m| m.parse().ok()),
            "metric-type" => {
                o.metric_type = match it.next() {
                    Some(&"1") => 1,
                    _ => 2,
                }
            }
            "route-map" => o.route_map = it.next().map(|m| (*m).to_owned()),
            "always" => o.always = true,
            "subnets" => o.subnets = true,
            _ => {}
        }
    }
    o
}

/// Handles a line inside `router ospf <process>`; returns whether it opens a block olav
/// does not read (an NX-OS `vrf V` block).
pub fn process_line(dev: &mut DeviceConfig, process: &str, w: &[&str], line: u32) -> bool {
    let p = || process.to_owned();
    match w {
        ["network", rest @ ..] => ospf_network(dev, process, rest, line),
        ["router-id", id] => match id.parse::<Ipv4Addr>() {
            Ok(a) => dev.ospf.process_mut(&p(), line).router_id = Some(a),
            Err(_) => dev.warn(line, format!("ospf router-id: '{id}' is not an address")),
        },
        ["auto-cost", "reference-bandwidth", b, unit @ ..] => {
            let scale = match unit.first() {
                Some(&"Gbps") | Some(&"gbps") => 1000,
                _ => 1,
            };
            match b.parse::<u64>() {
                Ok(b) => {
                    dev.ospf.process_mut(&p(), line).reference_bandwidth_mbps = Some(b * scale)
                }
                Err(_) => dev.warn(line, format!("reference-bandwidth: '{b}' is not a number")),
            }
        }
        ["passive-interface", "default"] => dev.ospf.process_mut(&p(), line).passive_default = true,
        ["no", "passive-interface", "default"] => {
            dev.ospf.process_mut(&p(), line).passive_default = false
        }
        ["passive-interface", _, ..] => {
            let n = name_of(&w[1..]);
            dev.ospf.process_mut(&p(), line).passive.push(n);
        }
        ["no", "passive-interface", ..] => {
            let n = name_of(&w[2..]);
            dev.ospf.process_mut(&p(), line).not_passive.push(n);
        }
        ["redistribute", protocol, rest @ ..] => {
            let o = options(rest);
            if let Some(rm) = &o.route_map {
                reference(
                    dev,
                    StructureKind::RouteMap,
                    rm,
                    "ospf redistribute route-map",
                    line,
                );
            }
            let proc_ = dev.ospf.process_mut(&p(), line);
            proc_.redistribute.push(OspfRedistribute {
                protocol: (*protocol).to_owned(),
                subnets: o.subnets,
                metric: o.metric,
                metric_type: o.metric_type,
                route_map: o.route_map,
            });
        }
        ["default-information", "originate", rest @ ..] => {
            let o = options(rest);
            dev.ospf.process_mut(&p(), line).default_originate = Some(OspfDefaultOriginate {
                always: o.always,
                metric: o.metric,
                metric_type: o.metric_type,
                route_map: o.route_map,
            });
        }
        ["shutdown"] => dev.ospf.process_mut(&p(), line).shutdown = true,
        // NX-OS `vrf V` under the process: its own process, in that VRF.
        ["vrf", v] => {
            let id = format!("{process} vrf {v}");
            dev.ospf.process_mut(&id, line).vrf = Some((*v).to_owned());
            return true;
        }
        // IOS, EOS, NX-OS `area A stub [no-summary]` (Junos stub areas stay unmodelled:
        // their ABR sends a default only with `default-metric`).
        ["area", area, "stub", rest @ ..] => {
            let no_summary = rest.contains(&"no-summary");
            let p = dev.ospf.process_mut(&p(), line);
            p.stub_areas.retain(|(a, _)| a != area);
            p.stub_areas.push(((*area).to_owned(), no_summary));
        }
        ["area", area, "range", rest @ ..] => area_range(dev, process, area, rest, line),
        ["area", area, "nssa", rest @ ..] => nssa(dev, process, area, rest, line),
        ["area", area, "default-cost", c] => match c.parse() {
            Ok(c) => {
                let p = dev.ospf.process_mut(&p(), line);
                p.default_costs.retain(|(a, _)| a != area);
                p.default_costs.push(((*area).to_owned(), c));
            }
            Err(_) => dev.warn(
                line,
                format!("ospf area default-cost: '{c}' is not a number"),
            ),
        },
        ["area", area, "authentication", rest @ ..] => {
            let a = auth_type(rest);
            let pr = dev.ospf.process_mut(&p(), line);
            pr.area_auth.retain(|(x, _)| x != area);
            pr.area_auth.push(((*area).to_owned(), a));
        }
        ["no", "compatible", "rfc1583"] => dev.ospf.process_mut(&p(), line).rfc1583 = Some(false),
        ["compatible", "rfc1583"] | ["rfc1583compatibility"] => {
            dev.ospf.process_mut(&p(), line).rfc1583 = Some(true)
        }
        ["area", _, kind, ..] => {
            let what = match *kind {
                "nssa" => "NSSA areas",
                "virtual-link" => "virtual links",
                "filter-list" => "area filter-lists",
                "default-cost" => "area default-cost",
                _ => "area settings",
            };
            dev.ospf.process_mut(&p(), line).unsupported(what);
        }
        ["distribute-list", ..] => dev
            .ospf
            .process_mut(&p(), line)
            .unsupported("distribute-lists"),
        ["summary-address", ..] => dev
            .ospf
            .process_mut(&p(), line)
            .unsupported("summary addresses"),
        ["max-metric", ..] => dev.ospf.process_mut(&p(), line).unsupported("max-metric"),
        ["default-metric", ..] => dev
            .ospf
            .process_mut(&p(), line)
            .unsupported("default-metric"),
        ["distance", ..] => dev
            .ospf
            .process_mut(&p(), line)
            .unsupported("OSPF distances"),
        // Fewer equal-cost paths than olav installs (it installs every one; the
        // vendors' defaults are 4 and more).
        ["maximum-paths", n] if n.parse::<u32>().is_ok_and(|n| n < 4) => dev
            .ospf
            .process_mut(&p(), line)
            .unsupported("maximum-paths below 4"),
        [first, ..] if HARMLESS.contains(first) => {
            dev.ospf.process_mut(&p(), line);
        }
        _ => {
            // A line olav does not read may change the routes: said, never guessed.
            let text: String = w.join(" ").chars().take(40).collect();
            dev.ospf
                .process_mut(&p(), line)
                .unsupported(&format!("line {line} '{text}'"));
        }
    }
    false
}

/// `area A nssa [no-summary] [default-information-originate [metric N] [metric-type T]]`;
/// any other option (translation, `no-redistribution`, …) is not modelled.
fn nssa(dev: &mut DeviceConfig, process: &str, area: &str, w: &[&str], line: u32) {
    let mut n = OspfNssa {
        area: area.to_owned(),
        no_summary: false,
        default_originate: None,
    };
    let mut it = w.iter().peekable();
    while let Some(o) = it.next() {
        match *o {
            "no-summary" => n.no_summary = true,
            "default-information-originate" => {
                let (mut metric, mut kind) = (None, 2);
                while let Some(&&k) = it.peek() {
                    match (k, it.clone().nth(1)) {
                        ("metric", Some(m)) => metric = m.parse().ok(),
                        ("metric-type", Some(t)) => kind = if *t == "1" { 1 } else { 2 },
                        _ => break,
                    }
                    it.nth(1);
                }
                n.default_originate = Some((metric, kind));
            }
            other => {
                let what = format!("NSSA option {other}");
                dev.ospf.process_mut(process, line).unsupported(&what);
                break;
            }
        }
    }
    let p = dev.ospf.process_mut(process, line);
    p.nssa_areas.retain(|x| x.area != n.area);
    p.nssa_areas.push(n);
}

/// `area A range P [advertise|not-advertise] [cost N]` (IOS address and mask, EOS and
/// NX-OS a prefix too).
fn area_range(dev: &mut DeviceConfig, process: &str, area: &str, w: &[&str], line: u32) {
    let (prefix, opts) = match w {
        [a, m, opts @ ..] if m.contains('.') => (parse_addr_mask(a, m), opts),
        [p, opts @ ..] => (parse_prefix(p), opts),
        [] => (None, w),
    };
    let Some(ipnet::IpNet::V4(prefix)) = prefix else {
        dev.warn(
            line,
            format!("ospf area range: cannot read '{}'", w.join(" ")),
        );
        return;
    };
    let mut range = OspfAreaRange {
        area: area.to_owned(),
        prefix: prefix.trunc(),
        advertise: true,
        cost: None,
        exact: false,
    };
    let mut it = opts.iter();
    while let Some(o) = it.next() {
        match *o {
            "not-advertise" => range.advertise = false,
            "advertise" => {}
            "cost" => match it.next().and_then(|c| c.parse().ok()) {
                Some(c) => range.cost = Some(c),
                None => dev.warn(line, "ospf area range: cost is not a number".to_owned()),
            },
            other => {
                let what = format!("area range option {other}");
                dev.ospf.process_mut(process, line).unsupported(&what);
            }
        }
    }
    let p = dev.ospf.process_mut(process, line);
    p.ranges
        .retain(|r| !(r.area == range.area && r.prefix == range.prefix));
    p.ranges.push(range);
}

/// Process lines that leave the routes as olav computes them (logging, timers, graceful
/// restart, BFD, what belongs to other address families, `no` forms of defaults).
const HARMLESS: &[&str] = &[
    "log-adjacency-changes",
    "log",
    "bfd",
    "timers",
    "nsf",
    "graceful-restart",
    "ispf",
    "capability",
    "description",
    "mpls",
    "segment-routing",
    "fast-reroute",
    "max-lsa",
    "ignore",
    "compatible",
    "prefix-suppression",
    "auto-cost",
    "maximum-paths",
    "no",
    "exit",
    "exit-address-family",
    "!",
    "adjacency",
    "lsa",
    "address-family",
    "point-to-point",
];

/// An interface name after `passive-interface` (`Ethernet 1` spaced forms joined).
fn name_of(w: &[&str]) -> String {
    w.concat()
}

/// Handles `network A W area X` (IOS) and `network P/L area X` (EOS) in an OSPF process.
pub fn ospf_network(dev: &mut DeviceConfig, process: &str, w: &[&str], line: u32) {
    let (prefix, area) = match w {
        [a, wc, "area", area] => (parse_addr_wildcard(a, wc), *area),
        [p, "area", area] => (parse_prefix(p).map(|p| p.trunc()), *area),
        _ => (None, ""),
    };
    match prefix {
        Some(prefix) => dev.ospf_networks.push(OspfNetwork {
            process: process.to_owned(),
            prefix: Some(prefix),
            interface: None,
            area: area.to_owned(),
            line,
        }),
        None => dev.warn(line, format!("ospf network: cannot read '{}'", w.join(" "))),
    }
}

/// The authentication type of `ip ospf authentication [message-digest|null|key-chain …]`
/// (what follows `authentication`).
fn auth_type(rest: &[&str]) -> OspfAuth {
    match rest {
        [] => OspfAuth::Plain,
        ["message-digest", ..] => OspfAuth::Md5,
        ["null", ..] => OspfAuth::Null,
        _ => OspfAuth::Other,
    }
}

#[cfg(test)]
mod tests {
    use crate::import::parse::parser_for;
    use crate::model::{OspfNetworkType, Vendor};

    #[test]
    fn eos_interface_mode_area_costs_passive_and_redistribution() {
        let cfg = "hostname c1\ninterface Ethernet1\n   no switchport\n   ip address 10.0.0.1/31\n   ip ospf area 0.0.0.0\n   ip ospf cost 7\n   ip ospf network point-to-point\ninterface Loopback0\n   ip address 10.255.0.1/32\n   ip ospf area 0.0.0.0\nrouter ospf 1\n   router-id 10.255.0.1\n   passive-interface Loopback0\n   redistribute static metric 50 metric-type 1\n   redistribute connected route-map RM\n   default-information originate always\n   area 1 stub\n";
        let d = parser_for(Vendor::AristaEos).parse(cfg);
        let areas: Vec<(&str, &str)> = d
            .ospf_networks
            .iter()
            .map(|o| (o.interface.as_deref().unwrap_or(""), o.area.as_str()))
            .collect();
        assert_eq!(areas, [("Ethernet1", "0.0.0.0"), ("Loopback0", "0.0.0.0")]);
        assert!(d.ospf_networks.iter().all(|o| o.process == "1"));
        assert_eq!(d.ospf.processes.len(), 1);
        let e1 = d.ospf.interface("Ethernet1").expect("settings");
        assert_eq!(e1.cost, Some(7));
        assert_eq!(e1.network_type, Some(OspfNetworkType::PointToPoint));
        let p = &d.ospf.processes[0];
        assert_eq!(p.router_id, Some("10.255.0.1".parse().unwrap()));
        assert!(p.is_passive("Loopback0") && !p.is_passive("Ethernet1"));
        assert_eq!(p.redistribute.len(), 2);
        assert_eq!(
            (p.redistribute[0].metric, p.redistribute[0].metric_type),
            (Some(50), 1)
        );
        assert_eq!(p.redistribute[1].route_map.as_deref(), Some("RM"));
        assert!(p.default_originate.as_ref().is_some_and(|o| o.always));
        assert!(p.unsupported.is_empty());
        assert_eq!(p.stub_areas, [("1".to_owned(), false)]);
        assert_eq!(d.lines_unrecognised, 0);
    }

    #[test]
    fn area_ranges_in_each_syntax() {
        let eos = "hostname c1\nrouter ospf 1\n   area 0.0.0.1 range 10.4.0.0/16\n   area 0.0.0.1 range 10.5.0.0 255.255.0.0 not-advertise\n   area 1 range 10.6.0.0/16 cost 100\n";
        let d = parser_for(Vendor::AristaEos).parse(eos);
        let p = &d.ospf.processes[0];
        let got: Vec<(&str, String, bool, Option<u32>)> = p
            .ranges
            .iter()
            .map(|r| (r.area.as_str(), r.prefix.to_string(), r.advertise, r.cost))
            .collect();
        assert_eq!(
            got,
            [
                ("0.0.0.1", "10.4.0.0/16".to_owned(), true, None),
                ("0.0.0.1", "10.5.0.0/16".to_owned(), false, None),
                ("1", "10.6.0.0/16".to_owned(), true, Some(100)),
            ]
        );
        assert!(p.unsupported.is_empty() && p.rfc1583.is_none());
        let ios = "hostname r\nrouter ospf 1\n area 16 nssa default-information-originate metric 5 metric-type 1 no-summary\n area 17 nssa translate type7 suppress-fa\n";
        let d = parser_for(Vendor::CiscoIos).parse(ios);
        let p = &d.ospf.processes[0];
        let n = &p.nssa_areas[0];
        assert_eq!(
            (n.area.as_str(), n.no_summary, n.default_originate),
            ("16", true, Some((Some(5), 1)))
        );
        assert_eq!(p.unsupported, ["NSSA option translate"]);
        let junos = "set protocols ospf no-rfc-1583\nset protocols ospf area 0.0.0.0 area-range 10.8.0.0/16 restrict\nset protocols ospf area 0.0.0.0 area-range 10.8.0.0/16 exact\nset protocols ospf area 0.0.0.0 area-range 10.9.0.0/16 override-metric 100\n";
        let d = parser_for(Vendor::JuniperJunos).parse(junos);
        let p = &d.ospf.processes[0];
        let got: Vec<(String, bool, Option<u32>, bool)> = p
            .ranges
            .iter()
            .map(|r| (r.prefix.to_string(), r.advertise, r.cost, r.exact))
            .collect();
        assert_eq!(
            got,
            [
                ("10.8.0.0/16".to_owned(), false, None, true),
                ("10.9.0.0/16".to_owned(), true, Some(100), false),
            ]
        );
        assert!(p.unsupported.is_empty() && p.rfc1583 == Some(false));
    }

    #[test]
    fn ios_passive_default_nxos_vrf_blocks_and_junos_interfaces() {
        let ios = "hostname r\nrouter ospf 10\n passive-interface default\n no passive-interface GigabitEthernet0/2\n auto-cost reference-bandwidth 10000\n network 10.0.0.0 0.0.0.255 area 1\n";
        let d = parser_for(Vendor::CiscoIos).parse(ios);
        let p = &d.ospf.processes[0];
        assert!(p.is_passive("Gi0/1") && !p.is_passive("GigabitEthernet0/2"));
        assert_eq!(p.reference_bandwidth_mbps, Some(10_000));
        let nx = "hostname n\nrouter ospf 1\n  router-id 1.1.1.1\n  vrf RED\n    router-id 2.2.2.2\ninterface Ethernet1/1\n  ip router ospf 1 area 0.0.0.0\n";
        let d = parser_for(Vendor::CiscoNxos).parse(nx);
        let ids: Vec<(&str, Option<&str>)> = d
            .ospf
            .processes
            .iter()
            .map(|p| (p.id.as_str(), p.vrf.as_deref()))
            .collect();
        assert_eq!(ids, [("1", None), ("1 vrf RED", Some("RED"))]);
        assert_eq!(
            d.ospf.processes[0].router_id,
            Some("1.1.1.1".parse().unwrap())
        );
        let junos = "set interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/30\nset protocols ospf area 0.0.0.0 interface ge-0/0/0.0 metric 30\nset protocols ospf area 0.0.0.0 interface lo0.0 passive\nset protocols ospf area 0.0.0.1 nssa\n";
        let d = parser_for(Vendor::JuniperJunos).parse(junos);
        assert_eq!(
            d.ospf.interface("ge-0/0/0.0").and_then(|s| s.cost),
            Some(30)
        );
        assert_eq!(
            d.ospf.interface("lo0.0").and_then(|s| s.passive),
            Some(true)
        );
        assert_eq!(d.ospf.processes[0].unsupported, ["NSSA areas"]);
    }
}
