//! The paths a device originates into BGP in one VRF: `network` statements whose prefix
//! its RIB holds (IOS, NX-OS and EOS require the exact prefix), and `redistribute
//! connected | static | ospf` (OSPF: its internal routes, as IOS and EOS take them by
//! default), each through its route-map. Aggregates depend on what BGP selects; they are
//! made in [`super::exchange`].

use super::policy::{self, Unknown};
use super::{Origin, Path, Speaker};
use crate::model::{DeviceConfig, Vendor};
use crate::routing::route::{NextHop, Protocol, Route};

/// The weight of a locally originated path (Cisco: 32768; EOS and Junos have none).
pub fn local_weight(vendor: Vendor) -> u32 {
    match vendor {
        Vendor::CiscoIos | Vendor::CiscoNxos => 32768,
        _ => 0,
    }
}

fn local_path(vendor: Vendor, r: &Route, origin: Origin) -> Path {
    Path {
        med: r.metric,
        weight: local_weight(vendor),
        origin,
        via: match &r.next_hop {
            NextHop::Interface { interface, .. } => Some(interface.to_string()),
            _ => None,
        },
        ..Path::originated(r.network)
    }
}

/// Which RIB routes a `redistribute` names, when olav computes it: the protocols, or
/// Unknown for another protocol or option.
fn redistributed(
    vendor: Vendor,
    config: &DeviceConfig,
    vrf: &str,
    spec: &str,
) -> Result<&'static [Protocol], Unknown> {
    let words: Vec<&str> = spec.split_whitespace().collect();
    let plain = words.iter().skip(1).all(|w| w.parse::<u32>().is_ok());
    let cisco_style = matches!(
        vendor,
        Vendor::CiscoIos | Vendor::CiscoNxos | Vendor::AristaEos
    );
    // The RIB does not tell processes apart: one EIGRP process in the VRF is what the
    // statement names.
    let eigrp_processes = config
        .eigrp
        .processes
        .iter()
        .filter(|p| crate::routing::connected::vrf_name(&p.vrf) == vrf)
        .count();
    match (words.first().copied(), plain) {
        (Some("connected" | "direct"), true) => Ok(&[Protocol::Connected]),
        (Some("static"), true) => Ok(&[Protocol::Static]),
        // Internal OSPF routes (IOS and NX-OS take externals only when told to).
        (Some("ospf"), true) if cisco_style => Ok(&[Protocol::Ospf, Protocol::OspfIA]),
        (Some("eigrp"), true)
            if matches!(vendor, Vendor::CiscoIos | Vendor::CiscoNxos) && eigrp_processes == 1 =>
        {
            Ok(&[Protocol::Eigrp, Protocol::EigrpEx])
        }
        _ => Err(Unknown(format!("redistribute {spec}"))),
    }
}

/// What the device originates in `vrf`, and what it cannot compute there.
pub fn paths(s: &Speaker<'_>, vrf: &str) -> (Vec<Path>, Vec<Unknown>) {
    let (vendor, config, bgp, lookup) = (s.vendor, s.config, s.bgp, &s.lookup);
    let mut out = Vec::new();
    let mut unknown = Vec::new();
    let in_vrf = |v: &Option<String>| crate::routing::connected::vrf_name(v) == vrf;
    let push = |p: Path, rm: Option<&str>, out: &mut Vec<Path>, unknown: &mut Vec<Unknown>| match rm
    {
        Some(rm) => match policy::route_map(vendor, config, rm, &p) {
            Ok(Some(p)) => out.push(p),
            Ok(None) => {}
            Err(u) => unknown.push(u),
        },
        None => out.push(p),
    };
    // PAN-OS announces a prefix by a `redist-rules` entry, origin incomplete unless set.
    let network_origin = if vendor == Vendor::PaloAltoPanos {
        Origin::Incomplete
    } else {
        Origin::Igp
    };
    for n in bgp.networks.iter().filter(|n| in_vrf(&n.vrf)) {
        let ipnet::IpNet::V4(prefix) = n.prefix else {
            continue;
        };
        // The route the RIB holds for exactly that prefix (the lowest distance wins there).
        if let Some(r) = lookup.exact(vrf, prefix).first() {
            push(
                local_path(vendor, r, network_origin),
                n.route_map.as_deref(),
                &mut out,
                &mut unknown,
            );
        }
    }
    // EOS marks redistributed routes IGP (its `show ip bgp` shows `i`); Cisco incomplete.
    let origin = if vendor == Vendor::AristaEos {
        Origin::Igp
    } else {
        Origin::Incomplete
    };
    for (v, spec, rm) in &bgp.routing.redistribute {
        if !in_vrf(v) {
            continue;
        }
        match redistributed(vendor, config, vrf, spec) {
            Ok(protocols) => {
                let mut seen = std::collections::BTreeSet::new();
                for r in s
                    .whole_rib()
                    .iter()
                    .filter(|r| r.vrf == vrf && protocols.contains(&r.protocol))
                {
                    if seen.insert(r.network) {
                        push(
                            local_path(vendor, r, origin),
                            rm.as_deref(),
                            &mut out,
                            &mut unknown,
                        );
                    }
                }
            }
            Err(u) => unknown.push(u),
        }
    }
    // A prefix originated twice (network and redistribution): the first.
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|p| seen.insert(p.prefix));
    (out, unknown)
}
