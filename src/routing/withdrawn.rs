//! Networks a change withdraws from the network's routing: some device routes them
//! before (a route that is not the device's own connected or local one, and carries
//! traffic: not a discard route), no device routes them after, and no device that lost
//! one has a shorter route other than the default in its place (a summary still
//! carries the traffic; a default is where traffic goes when routing has nothing
//! better). `docs/precheck.md`, "Prefixes withdrawn".

use super::route::{NextHop, Protocol, Route};
use super::{DeviceRib, FastMap};
use ipnet::Ipv4Net;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// Whether a row routes its network somewhere from elsewhere in the network.
fn routes(r: &Route) -> bool {
    !matches!(r.protocol, Protocol::Connected | Protocol::Local) && r.next_hop != NextHop::Discard
}

/// The networks one RIB routes, by VRF.
fn routed_by(rib: &DeviceRib) -> BTreeSet<(&str, Ipv4Net)> {
    rib.routes
        .iter()
        .filter(|r| routes(r))
        .map(|r| (r.vrf.as_str(), r.network))
        .collect()
}

/// How many devices route each (VRF, network): made once per state version, so that a
/// change is judged by the devices it recomputes alone.
#[derive(Debug, Default)]
pub struct Routed {
    count: FastMap<(String, Ipv4Net), u32>,
}

impl Routed {
    /// Counts the networks the RIBs route.
    pub fn of<'a>(ribs: impl IntoIterator<Item = &'a DeviceRib>) -> Routed {
        let mut count: FastMap<(String, Ipv4Net), u32> = FastMap::default();
        for rib in ribs {
            for (vrf, n) in routed_by(rib) {
                *count.entry((vrf.to_owned(), n)).or_default() += 1;
            }
        }
        Routed { count }
    }

    /// How many devices route `network` in `vrf`.
    pub fn devices(&self, vrf: &str, network: Ipv4Net) -> u32 {
        self.count
            .get(&(vrf.to_owned(), network))
            .copied()
            .unwrap_or(0)
    }
}

/// One network the change withdraws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawn {
    /// The VRF.
    pub vrf: String,
    /// The network.
    pub network: Ipv4Net,
    /// The devices that routed it before and are kept, sorted.
    pub lost_on: Vec<String>,
    /// Whether a device that lost it has an incomplete RIB in that VRF after the change
    /// (a protocol olav does not compute may still bring it).
    pub uncertain: bool,
}

/// The networks withdrawn between `now` (every device's RIB as the network is, counted
/// in `routed`) and `after` (every kept device's RIB after the change: a device the
/// change does not touch shares its `now` RIB, the same `Arc`).
pub fn withdrawn(
    routed: &Routed,
    now: &HashMap<String, Arc<DeviceRib>>,
    after: &[Arc<DeviceRib>],
) -> Vec<Withdrawn> {
    let after_by: HashMap<&str, &Arc<DeviceRib>> =
        after.iter().map(|r| (r.hostname.as_str(), r)).collect();
    // Per (VRF, network): how the recomputed devices' count moves, and who lost it.
    let mut delta: BTreeMap<(&str, Ipv4Net), (i64, Vec<&str>)> = BTreeMap::new();
    for (h, was) in now {
        let is = after_by.get(h.as_str());
        if is.is_some_and(|is| Arc::ptr_eq(is, was)) {
            continue;
        }
        let before = routed_by(was);
        let after = is.map(|r| routed_by(r)).unwrap_or_default();
        for k in before.difference(&after) {
            let e = delta.entry(*k).or_default();
            e.0 -= 1;
            if is.is_some() {
                e.1.push(h.as_str());
            }
        }
        for k in after.difference(&before) {
            delta.entry(*k).or_default().0 += 1;
        }
    }
    let mut out = Vec::new();
    for ((vrf, network), (d, mut lost_on)) in delta {
        let before = i64::from(routed.devices(vrf, network));
        if before == 0 || before + d > 0 {
            continue;
        }
        // A shorter route in its place (an area range, an aggregate) still carries it.
        let covered = lost_on.iter().any(|h| {
            after_by.get(h).is_some_and(|r| {
                r.routes.iter().any(|x| {
                    x.vrf == vrf
                        && x.network.prefix_len() > 0
                        && x.network.prefix_len() < network.prefix_len()
                        && x.network.contains(&network)
                        && routes(x)
                })
            })
        });
        // Routed only by devices the change removes: withdrawn when it lives on a kept
        // device that nothing routes to now, not when it was a removed device's own
        // route elsewhere (its static default goes with it).
        let lives_on_kept = || {
            after.iter().any(|r| {
                r.routes.iter().any(|x| {
                    x.vrf == vrf
                        && x.network == network
                        && matches!(x.protocol, Protocol::Connected | Protocol::Local)
                })
            })
        };
        if covered || (lost_on.is_empty() && !lives_on_kept()) {
            continue;
        }
        lost_on.sort_unstable();
        let uncertain = lost_on.iter().any(|h| {
            after_by
                .get(h)
                .is_some_and(|r| !r.incomplete_in(vrf).is_empty())
        });
        out.push(Withdrawn {
            vrf: vrf.to_owned(),
            network,
            lost_on: lost_on.into_iter().map(str::to_owned).collect(),
            uncertain,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{routes, withdrawn, Routed, Withdrawn};
    use crate::model::Vendor;
    use crate::routing::route::{NextHop, Protocol, Route};
    use crate::routing::DeviceRib;
    use ipnet::Ipv4Net;
    use proptest::prelude::*;
    use std::collections::{BTreeSet, HashMap};
    use std::net::Ipv4Addr;
    use std::sync::Arc;

    /// The networks rows are drawn from: a default, a /16 and two /24s inside it, a /32.
    fn pool() -> Vec<Ipv4Net> {
        [
            "0.0.0.0/0",
            "10.1.0.0/16",
            "10.1.1.0/24",
            "10.1.2.0/24",
            "10.9.9.9/32",
        ]
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect()
    }

    /// A row: network `n` of the pool, of kind `k` (connected, OSPF, static, discard).
    fn row(n: usize, k: u8) -> Route {
        let (protocol, next_hop) = match k % 4 {
            0 => (
                Protocol::Connected,
                NextHop::Interface {
                    interface: "Gi0/0".into(),
                    ip: None,
                },
            ),
            1 => (Protocol::Ospf, NextHop::Ip(Ipv4Addr::new(10, 0, 0, 1))),
            2 => (Protocol::Static, NextHop::Ip(Ipv4Addr::new(10, 0, 0, 2))),
            _ => (Protocol::Static, NextHop::Discard),
        };
        Route {
            vrf: "default".into(),
            network: pool()[n % pool().len()],
            next_hop,
            protocol,
            metric: 0,
            admin_distance: 0,
            tag: None,
        }
    }

    fn rib(h: usize, rows: &[(usize, u8)]) -> DeviceRib {
        DeviceRib {
            hostname: format!("d{h}"),
            vendor: Vendor::CiscoIos,
            routes: rows.iter().map(|(n, k)| row(*n, *k)).collect(),
            incomplete: Vec::new(),
            unresolved_statics: 0,
            bgp: Vec::new(),
        }
    }

    /// The definition, over every device: routed by some device before, by none after,
    /// and no device that lost it has a shorter non-default route in its place.
    fn plain(now: &[Arc<DeviceRib>], after: &[Arc<DeviceRib>]) -> BTreeSet<(Ipv4Net, Vec<String>)> {
        let routed =
            |r: &DeviceRib, n: Ipv4Net| r.routes.iter().any(|x| x.network == n && routes(x));
        let mut out = BTreeSet::new();
        for n in pool() {
            if !now.iter().any(|r| routed(r, n)) || after.iter().any(|r| routed(r, n)) {
                continue;
            }
            let lost: Vec<&Arc<DeviceRib>> = after
                .iter()
                .filter(|a| now.iter().any(|r| r.hostname == a.hostname && routed(r, n)))
                .collect();
            let held = after.iter().any(|r| {
                r.routes
                    .iter()
                    .any(|x| x.network == n && x.protocol == Protocol::Connected)
            });
            if lost.is_empty() && !held {
                continue;
            }
            let covered = lost.iter().any(|r| {
                r.routes.iter().any(|x| {
                    x.network.prefix_len() > 0
                        && x.network.prefix_len() < n.prefix_len()
                        && x.network.contains(&n)
                        && routes(x)
                })
            });
            if !covered {
                let mut names: Vec<String> = lost.iter().map(|r| r.hostname.clone()).collect();
                names.sort();
                out.insert((n, names));
            }
        }
        out
    }

    proptest! {
        /// Counting once and moving only the recomputed devices' counts gives what the
        /// definition gives over every device.
        #[test]
        fn the_counted_answer_is_the_definition(
            devices in proptest::collection::vec(
                (
                    proptest::collection::vec((0usize..5, 0u8..4), 0..5),
                    0u8..3,
                    proptest::collection::vec((0usize..5, 0u8..4), 0..5),
                ),
                1..6,
            )
        ) {
            let mut now: Vec<Arc<DeviceRib>> = Vec::new();
            let mut after: Vec<Arc<DeviceRib>> = Vec::new();
            for (h, (before, fate, changed)) in devices.iter().enumerate() {
                let was = Arc::new(rib(h, before));
                match fate {
                    // Untouched: the same RIB.
                    0 => after.push(Arc::clone(&was)),
                    // Recomputed.
                    1 => after.push(Arc::new(rib(h, changed))),
                    // Removed.
                    _ => {}
                }
                now.push(was);
            }
            let by_name: HashMap<String, Arc<DeviceRib>> =
                now.iter().map(|r| (r.hostname.clone(), Arc::clone(r))).collect();
            let routed = Routed::of(now.iter().map(|r| r.as_ref()));
            let got: BTreeSet<(Ipv4Net, Vec<String>)> = withdrawn(&routed, &by_name, &after)
                .into_iter()
                .map(|Withdrawn { network, lost_on, .. }| (network, lost_on))
                .collect();
            prop_assert_eq!(got, plain(&now, &after));
        }
    }
}
