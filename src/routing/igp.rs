//! What EIGRP and IS-IS share: which interfaces are up (they install their connected
//! route), an interface's IPv4 subnets, and domains (the routers joined by adjacencies,
//! over which what one router does not model reaches every other).

use super::route::{NextHop, Protocol, Route};
use crate::model::{AddressKind, Interface};
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
