//! What EIGRP and IS-IS share: which interfaces are up (they install their connected
//! route), an interface's IPv4 subnets, and domains (the routers joined by adjacencies,
//! over which what one router does not model reaches every other).

use super::route::{NextHop, Protocol, Route};
use crate::model::{AddressKind, DeviceConfig, Interface, Vendor};
use ipnet::{IpNet, Ipv4Net};

/// Whether interface `name` is up in `vrf`: the RIB before the IGPs holds its connected
/// route (not shut, not the management plane's, its SVI up).
pub fn up(rib: &[Route], vrf: &str, name: &str) -> bool {
    rib.iter().any(|r| {
        r.protocol == Protocol::Connected
            && r.vrf == vrf
            && matches!(&r.next_hop, NextHop::Interface { interface, .. } if interface == name)
    })
}

/// An interface's primary IPv4 address and its secondary subnets (virtual addresses
/// left out); None without an IPv4 address.
pub fn addresses(i: &Interface) -> Option<(Ipv4Net, Vec<Ipv4Net>)> {
    let mut v4 = i
        .addresses
        .iter()
        .filter_map(|a| match (a.kind, a.address) {
            (AddressKind::Virtual, _) => None,
            (_, IpNet::V4(n)) => Some(n),
            _ => None,
        });
    let primary = v4.next()?;
    let secondaries = v4
        .map(|n| n.trunc())
        .filter(|n| *n != primary.trunc())
        .collect();
    Some((primary, secondaries))
}

/// Whether an interface name is a loopback (`Loopback0`, `loopback0`, Junos `lo0.0`).
pub fn is_loopback(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.starts_with("loopback") || n.starts_with("lo0")
}

/// Union-find over `n` nodes: the domains adjacencies make.
#[derive(Debug, Clone)]
pub struct Domains {
    parent: Vec<usize>,
}

impl Domains {
    /// Every node its own domain.
    pub fn new(n: usize) -> Domains {
        Domains {
            parent: (0..n).collect(),
        }
    }

    /// The domain (its root node) of `x`.
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Joins the domains of `a` and `b`.
    pub fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.parent[ra] = rb;
    }
}

/// Whether the device passes routes of the IGP `protocol` (`eigrp`, `ospf`) on into
/// another protocol: a `redistribute` naming it under EIGRP, OSPF, IS-IS or BGP. A
/// vendor whose routing policies olav does not read for that (Junos and SR OS export
/// policies, PAN-OS) is taken to, whenever it runs BGP or another IGP.
pub fn passes_on(vendor: Vendor, config: &DeviceConfig, protocol: &str) -> bool {
    let named = |p: &str| p.starts_with(protocol);
    if matches!(
        vendor,
        Vendor::JuniperJunos | Vendor::NokiaSros | Vendor::PaloAltoPanos
    ) {
        return config.bgp.is_some() || !config.isis.processes.is_empty();
    }
    config
        .eigrp
        .processes
        .iter()
        .flat_map(|p| &p.redistribute)
        .any(|r| named(&r.protocol))
        || config
            .ospf
            .processes
            .iter()
            .flat_map(|p| &p.redistribute)
            .any(|r| named(&r.protocol))
        || config
            .isis
            .processes
            .iter()
            .flat_map(|p| &p.redistribute)
            .any(|r| named(&r.protocol))
        || config.bgp.as_ref().is_some_and(|b| {
            b.redistribute.iter().any(|(p, _)| named(p))
                || b.routing.redistribute.iter().any(|(_, p, _)| named(p))
        })
}

/// Whether a reason an IGP speaker gives (`redistribution of bgp`, `redistribution
/// route-map RM (…)`) is only about the externals it originates itself: a router never
/// installs its own externals (OSPF does not route by its own LSAs; EIGRP drops an
/// external carrying its own router ID), so they leave its own RIB as computed.
pub fn own_externals(reason: &str) -> bool {
    [
        "redistribution of ",
        "redistribution route-map ",
        "redistributions with an undefined ",
    ]
    .iter()
    .any(|p| reason.starts_with(p))
}

/// Whether the device has routes that a router's IGP externals of distance 170 could beat
/// while it redistributes them (iBGP routes, distance 200; static routes of distance 170
/// or more): an EIGRP router redistributing those may depend on which of two stable
/// states the network settles in, so its own externals are not left out of its RIB's
/// reasons.
pub fn weak_sources(config: &DeviceConfig) -> bool {
    let ibgp = config.bgp.as_ref().is_some_and(|b| {
        b.neighbors
            .iter()
            .any(|n| n.peer_asn.is_none() || n.peer_asn == b.local_as)
    });
    ibgp || config
        .static_routes
        .iter()
        .any(|r| r.distance.is_some_and(|d| d >= 170))
}
