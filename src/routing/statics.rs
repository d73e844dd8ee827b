//! Static routes: what each configured route would install, and whether its next hop
//! resolves through the routes installed so far.
//!
//! - an exit interface (with or without a next-hop address) installs while the interface
//!   is up (`Null0`, Junos `discard` / `reject`, FRR `blackhole`: always, as a discard
//!   route);
//! - a next-hop address installs when the RIB resolves it: recursively through any
//!   installed route on IOS, NX-OS and EOS; on Junos only through a connected subnet,
//!   unless the route says `resolve` (then through a route with a gateway: not a discard
//!   or interface-only route); never through a route for the route's own prefix;
//! - the administrative distance is the configured one, else the vendor's default
//!   (Junos 5, the others 1); the RIB keeps the lowest per prefix, so a floating route
//!   installs only when the better one does not;
//! - a next-hop address the device holds itself (in the route's VRF) installs nothing:
//!   IOS, NX-OS and EOS refuse the command, Junos never installs it (Batfish would,
//!   through the connected subnet; olav follows the devices);
//! - a Junos `next-table` route (no next hop of its own) is not computed yet.

use super::connected::{active, is_management, vrf_name};
use super::route::{NextHop, Protocol, Route};
use crate::model::{DeviceConfig, RouteActivity, StaticRoute, Vendor};
use ipnet::IpNet;
use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr};

/// The administrative distance of a static route with none configured.
pub fn default_distance(vendor: Vendor) -> u32 {
    match vendor {
        Vendor::JuniperJunos | Vendor::NokiaSros => 5,
        _ => 1,
    }
}

/// What a static route needs before it installs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Needs {
    /// Nothing: it installs as it is.
    Nothing,
    /// Its next-hop address resolved (recursively through any route, or through a
    /// connected subnet only).
    Resolution {
        /// The next-hop address.
        ip: Ipv4Addr,
        /// Through any installed route (else a connected subnet only).
        recursive: bool,
    },
}

/// A configured static route as a candidate for the RIB.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The route it installs.
    pub route: Route,
    /// What it needs first.
    pub needs: Needs,
    /// A Junos route with `resolve`: it resolves only through a route with a gateway.
    pub junos_resolve: bool,
}

/// Why a configured static route is no candidate at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skipped {
    /// Its exit interface is shut, missing or the management plane's.
    InterfaceDown,
    /// It lies in the management VRF.
    Management,
    /// It is an IPv6 route (the IPv4 RIB only, as Batfish's `routes`).
    Ipv6,
    /// A Junos `next-table` route, or one without a next hop.
    NoNextHop,
    /// Its next-hop address is the device's own (in the route's VRF): IOS, NX-OS and
    /// EOS refuse the command, Junos commits it and never installs it.
    OwnAddress,
}

fn v4(ip: IpAddr) -> Option<Ipv4Addr> {
    match ip {
        IpAddr::V4(a) => Some(a),
        IpAddr::V6(_) => None,
    }
}

fn is_discard(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.starts_with("null") || n == "discard" || n == "reject" || n == "blackhole"
}

/// The candidate a configured static route gives, or why none; `down` names the SVIs
/// that are down though not shut ([`super::autostate::down_svis`]).
pub fn candidate(
    r: &StaticRoute,
    config: &DeviceConfig,
    vendor: Vendor,
    down: &HashSet<String>,
) -> Result<Candidate, Skipped> {
    let IpNet::V4(network) = r.prefix else {
        return Err(Skipped::Ipv6);
    };
    let vrf = vrf_name(&r.vrf);
    if is_management("", &vrf) {
        return Err(Skipped::Management);
    }
    let route = |next_hop| Route {
        vrf: vrf.as_str().into(),
        network: network.trunc(),
        next_hop,
        protocol: Protocol::Static,
        metric: r.metric.unwrap_or(0),
        admin_distance: r.distance.unwrap_or_else(|| default_distance(vendor)),
        tag: r.tag,
    };
    let hop = r.next_hop.map(v4);
    match (&r.next_hop_interface, hop) {
        (_, Some(None)) => Err(Skipped::Ipv6),
        (Some(name), _) if is_discard(name) => Ok(Candidate {
            route: route(NextHop::Discard),
            needs: Needs::Nothing,
            junos_resolve: false,
        }),
        (Some(name), hop) => {
            let exit = config
                .interfaces
                .iter()
                .find(|i| crate::ifname::same(name, &i.name))
                .filter(|i| active(i) && !down.contains(&i.name))
                .ok_or(Skipped::InterfaceDown)?;
            Ok(Candidate {
                route: route(NextHop::Interface {
                    interface: exit.name.as_str().into(),
                    ip: hop.flatten(),
                }),
                needs: Needs::Nothing,
                junos_resolve: false,
            })
        }
        (None, Some(Some(ip))) => {
            let own = config.interfaces.iter().any(|i| {
                vrf_name(&i.vrf) == vrf
                    && i.addresses
                        .iter()
                        .any(|a| a.address.addr() == IpAddr::V4(ip))
            });
            if own {
                return Err(Skipped::OwnAddress);
            }
            let junos_resolve =
                vendor == Vendor::JuniperJunos && r.activity == RouteActivity::ViaRouting;
            Ok(Candidate {
                route: route(NextHop::Ip(ip)),
                needs: Needs::Resolution {
                    ip,
                    recursive: vendor != Vendor::JuniperJunos || junos_resolve,
                },
                junos_resolve,
            })
        }
        (None, None) => Err(Skipped::NoNextHop),
    }
}

/// Whether `c`'s next hop resolves through `installed` (the VRF's installed routes):
/// the longest match holding the address, not the route's own prefix; connected only
/// unless recursive.
pub fn resolves(c: &Candidate, installed: &[Route]) -> bool {
    let Needs::Resolution { ip, recursive } = c.needs else {
        return true;
    };
    let holding = installed
        .iter()
        .filter(|r| r.vrf == c.route.vrf && r.network.contains(&ip));
    if !recursive {
        return installed.iter().any(|r| {
            r.vrf == c.route.vrf
                && r.protocol == Protocol::Connected
                && r.network.contains(&ip)
                && r.network.prefix_len() < 32
        }) && !installed.iter().any(|r| {
            r.vrf == c.route.vrf && r.protocol == Protocol::Local && r.network.addr() == ip
        });
    }
    let holding: Vec<&Route> = holding.collect();
    let Some(best) = holding
        .iter()
        .map(|r| r.network)
        .max_by_key(|n| n.prefix_len())
    else {
        return false;
    };
    if best == c.route.network {
        return false;
    }
    // Junos `resolve` needs a gateway: not a discard route, not an interface-only one.
    !c.junos_resolve
        || holding
            .iter()
            .filter(|r| r.network == best)
            .any(|r| match &r.next_hop {
                NextHop::Discard | NextHop::Vrf(_) | NextHop::Vtep { .. } => false,
                NextHop::Interface { ip, .. } => ip.is_some() || r.protocol == Protocol::Connected,
                NextHop::Ip(_) => true,
            })
}
