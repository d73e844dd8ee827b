//! Static routes (`ip route`, `ipv6 route`) and `redistribute` lines of the
//! Cisco-style dialects.

use super::{parse_addr_mask, parse_prefix, reference};
use crate::model::{DeviceConfig, RouteActivity, StaticRoute, StructureKind};
use std::net::IpAddr;

/// Adds the static route after `ip route [vrf V]`: `PREFIX [MASK] [IF] [NH] [AD] …`.
pub fn static_route(dev: &mut DeviceConfig, vrf: Option<String>, w: &[&str], line: u32) {
    if let Some(route) = read_static_route(dev, vrf, w, line) {
        // The same route configured again is one route, as on the device.
        let same = |r: &StaticRoute| {
            r.vrf == route.vrf
                && r.prefix == route.prefix
                && r.next_hop == route.next_hop
                && r.next_hop_interface == route.next_hop_interface
        };
        if !dev.static_routes.iter().any(same) {
            dev.static_routes.push(route);
        }
    }
}

/// `no ip route …`: removes the routes it names (every route to the prefix when no next
/// hop or exit interface is given), as the device would.
pub fn remove_static_route(dev: &mut DeviceConfig, vrf: Option<String>, w: &[&str], line: u32) {
    let warnings = dev.warnings.len();
    let Some(gone) = read_static_route(dev, vrf, w, line) else {
        return;
    };
    // "no next hop" is not a fault in a removal.
    dev.warnings.truncate(warnings);
    dev.static_routes.retain(|r| {
        !(r.vrf == gone.vrf
            && r.prefix == gone.prefix
            && gone.next_hop.is_none_or(|n| r.next_hop == Some(n))
            && gone
                .next_hop_interface
                .as_ref()
                .is_none_or(|i| r.next_hop_interface.as_ref() == Some(i)))
    });
}

fn read_static_route(
    dev: &mut DeviceConfig,
    vrf: Option<String>,
    w: &[&str],
    line: u32,
) -> Option<StaticRoute> {
    let (prefix, rest) = match w {
        [p, m, rest @ ..] if !p.contains('/') => (parse_addr_mask(p, m), rest),
        [p, rest @ ..] => (parse_prefix(p), rest),
        [] => (None, w),
    };
    let Some(prefix) = prefix else {
        dev.warn(
            line,
            format!("ip route: cannot read the prefix in '{}'", w.join(" ")),
        );
        return None;
    };
    // The device refuses an address with host bits beyond its mask ("Inconsistent
    // address and mask"): said, never silently read as the network.
    if prefix != prefix.trunc() {
        dev.warn(
            line,
            format!(
                "ip route: {prefix} has host bits set: the device refuses this line (the network would be {})",
                prefix.trunc()
            ),
        );
        return None;
    }
    let mut route = StaticRoute {
        vrf,
        prefix: prefix.trunc(),
        next_hop: None,
        next_hop_interface: None,
        distance: None,
        metric: None,
        tag: None,
        activity: RouteActivity::Usable,
        line,
    };
    let mut it = rest.iter().peekable();
    while let Some(word) = it.next() {
        if let Ok(ip) = word.split('/').next().unwrap_or(word).parse::<IpAddr>() {
            if route.next_hop.is_none() {
                route.next_hop = Some(ip);
                continue;
            }
        }
        if let Ok(d) = word.parse::<u32>() {
            if route.distance.is_none() {
                if !(1..=255).contains(&d) {
                    dev.warn(
                        line,
                        format!(
                            "ip route: distance {d} is outside 1-255: the device refuses this line"
                        ),
                    );
                    return None;
                }
                route.distance = Some(d);
            }
            continue;
        }
        match *word {
            "tag" => route.tag = it.next().and_then(|t| t.parse().ok()),
            "name" | "track" | "description" | "metric" | "vrf" => {
                it.next();
            }
            "permanent" | "global" | "multicast" | "dhcp" => {}
            w if route.next_hop.is_none()
                && route.next_hop_interface.is_none()
                && w.starts_with(|c: char| c.is_ascii_alphabetic()) =>
            {
                route.next_hop_interface = Some(w.to_owned());
            }
            _ => {}
        }
    }
    if route.next_hop.is_none() && route.next_hop_interface.is_none() {
        dev.warn(line, "ip route: no next hop or exit interface");
    }
    Some(route)
}

/// Handles `redistribute … route-map RM` in a routing process.
pub fn redistribute(dev: &mut DeviceConfig, w: &[&str], context: &str, line: u32) {
    if let Some(i) = w.iter().position(|x| *x == "route-map") {
        if let Some(rm) = w.get(i + 1) {
            reference(dev, StructureKind::RouteMap, rm, context, line);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::import::parse::parser_for;
    use crate::model::Vendor;

    #[test]
    fn lines_the_device_refuses_are_warned_about_and_left_out() {
        let c = parser_for(Vendor::CiscoIos).parse(
            "hostname r1\nip route 10.70.1.0 255.255.0.0 10.0.0.1\nip route 10.90.0.0 255.255.0.0 10.0.0.1 300\nip route 10.91.0.0 255.255.0.0 10.0.0.1 250\nend\n",
        );
        let prefixes: Vec<String> = c
            .static_routes
            .iter()
            .map(|r| r.prefix.to_string())
            .collect();
        assert_eq!(prefixes, ["10.91.0.0/16"]);
        assert_eq!(c.static_routes[0].distance, Some(250));
        let w: Vec<&str> = c.warnings.iter().map(|w| w.message.as_str()).collect();
        assert!(w[0].contains("10.70.1.0/16 has host bits set"), "{w:?}");
        assert!(w[1].contains("distance 300 is outside 1-255"), "{w:?}");
    }
}
