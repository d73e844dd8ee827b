//! How the routes to what the network exists for change with a plan, device by device:
//! the routes to every loopback, the default route and the services' prefixes, lost,
//! narrowed to one next hop, discarded, or moved to other next hops (an IGP cost change
//! moves paths without losing any).

use crate::network::NetworkModel;
use crate::routing::igp::is_loopback;
use crate::routing::{DeviceRib, NextHop, Route};
use ipnet::{IpNet, Ipv4Net};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::net::IpAddr;

/// How one network's routes change on the devices that hold them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shift {
    /// Devices that lose every route to it.
    pub lost: Vec<String>,
    /// Devices that had two or more next hops for it and keep one.
    pub narrowed: Vec<String>,
    /// Devices whose routes to it change otherwise (next hop, protocol, metric).
    pub changed: Vec<String>,
    /// Devices whose every route to it is now a discard route (`Null0`, `discard`,
    /// `reject`) and was not before: its traffic is dropped there.
    pub discarded: Vec<String>,
    /// Devices that use a next hop to it they did not use before (not a discard route):
    /// where its traffic now leaves, before → after.
    pub moved: Vec<Moved>,
}

/// A device whose path to a network moves: its next hops before and after the plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Moved {
    /// The device.
    pub device: String,
    /// Its next hops before, as the RIB names them (`10.0.1.2`, `GigabitEthernet0/0/1`).
    pub before: Vec<String>,
    /// Its next hops after.
    pub after: Vec<String>,
}

/// The networks whose routes are watched: every device's loopback addresses, the
/// default route, and the services' prefixes and interface subnets — less `dropped`,
/// what the plan takes away on purpose.
fn watched(m: &NetworkModel, dropped: &HashSet<Ipv4Net>) -> HashSet<Ipv4Net> {
    let mut out: HashSet<Ipv4Net> = HashSet::new();
    out.insert(Ipv4Net::default());
    for a in &m.addresses {
        let (IpAddr::V4(ip), IpNet::V4(_)) = (a.address, a.prefix) else {
            continue;
        };
        if is_loopback(m.name(a.ifname)) {
            out.insert(Ipv4Net::from(ip));
        }
    }
    out.extend(m.service_networks().into_iter().map(|(_, _, n)| n));
    out.retain(|n| !dropped.contains(n));
    out
}

/// The rows of `rib` for the watched networks, by VRF and network.
fn group<'a>(
    rib: Option<&'a DeviceRib>,
    watched: &HashSet<Ipv4Net>,
) -> BTreeMap<(&'a str, Ipv4Net), Vec<&'a Route>> {
    let mut g: BTreeMap<(&str, Ipv4Net), Vec<&Route>> = BTreeMap::new();
    for r in rib.iter().flat_map(|r| r.routes.iter()) {
        if watched.contains(&r.network) {
            g.entry((r.vrf.as_str(), r.network)).or_default().push(r);
        }
    }
    g
}

/// The distinct next hops of a network's rows, sorted.
fn next_hops(rows: &[&Route]) -> Vec<String> {
    let set: BTreeSet<String> = rows.iter().map(|r| r.next_hop.to_string()).collect();
    set.into_iter().collect()
}

/// How the watched networks' routes change, told one device at a time (its RIB before
/// and after the plan), in hostname order.
pub struct Shifts {
    watched: HashSet<Ipv4Net>,
    out: BTreeMap<(String, Ipv4Net), Shift>,
}

impl Shifts {
    /// For the networks of `m` watched, less `on_purpose` (what the plan takes away).
    pub fn new(m: &NetworkModel, on_purpose: &HashSet<Ipv4Net>) -> Shifts {
        Shifts {
            watched: watched(m, on_purpose),
            out: BTreeMap::new(),
        }
    }

    /// Device `h` the plan keeps: its RIB before and after (None: it has none).
    pub fn device(&mut self, h: &str, was: Option<&DeviceRib>, is: Option<&DeviceRib>) {
        let (a, b) = (group(was, &self.watched), group(is, &self.watched));
        let hops = |x: &[&Route]| {
            x.iter()
                .map(|r| &r.next_hop)
                .collect::<BTreeSet<&NextHop>>()
                .len()
        };
        for (key, rows) in &a {
            let after_rows = b.get(key).map(Vec::as_slice).unwrap_or_default();
            if rows.as_slice() == after_rows {
                continue;
            }
            let entry = self.out.entry((key.0.to_owned(), key.1)).or_default();
            let drops = |x: &[&Route]| x.iter().all(|r| r.next_hop == NextHop::Discard);
            if after_rows.is_empty() {
                entry.lost.push(h.to_owned());
            } else if drops(after_rows) && !drops(rows) {
                entry.discarded.push(h.to_owned());
            } else if hops(rows) >= 2 && hops(after_rows) == 1 {
                entry.narrowed.push(h.to_owned());
            } else {
                entry.changed.push(h.to_owned());
            }
            let (was, is) = (next_hops(rows), next_hops(after_rows));
            // A next hop it did not use before: the path moves (fewer of the same ones is
            // `narrowed`, reported as such).
            if !drops(after_rows) && is.iter().any(|h| !was.contains(h)) {
                entry.moved.push(Moved {
                    device: h.to_owned(),
                    before: was,
                    after: is,
                });
            }
        }
    }

    /// Adds what `other` was told, of devices after this one's in hostname order.
    pub fn merge(&mut self, other: Shifts) {
        for (key, s) in other.out {
            let mine = self.out.entry(key).or_default();
            mine.lost.extend(s.lost);
            mine.narrowed.extend(s.narrowed);
            mine.changed.extend(s.changed);
            mine.discarded.extend(s.discarded);
            mine.moved.extend(s.moved);
        }
    }

    /// The shifts, by VRF and network.
    pub fn finish(self) -> BTreeMap<(String, Ipv4Net), Shift> {
        self.out
    }
}
