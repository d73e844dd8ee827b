//! Networks a change withdraws from the network's routing: some device routes them
//! before (a route that is not the device's own connected or local one, and carries
//! traffic: not a discard route), no device routes them after, and no device that lost
//! one has a shorter route other than the default in its place that no device discards
//! (a summary still carries the traffic, unless it ends in its originator's discard
//! route; a default is where traffic goes when routing has nothing better, and is not
//! itself judged). `docs/precheck.md`, "Prefixes withdrawn".

use super::dynamic::from_outside;
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
    /// Whether it is certain only by taking peers outside the network to send no route
    /// for the network's own addresses ([`super::trace::ASSUMED`]).
    pub assumed: bool,
}

/// The networks withdrawn between `now` (every device's RIB as the network is, counted
/// in `routed`) and `after` (every kept device's RIB after the change: a device the
/// change does not touch shares its `now` RIB, the same `Arc`). `inside` says whether
/// peers outside the network can be taken to send no route for a network (its own
/// address space, one AS: [`super::trace::Addresses::stays_inside`]).
pub fn withdrawn(
    routed: &Routed,
    now: &HashMap<String, Arc<DeviceRib>>,
    after: &[Arc<DeviceRib>],
    inside: &dyn Fn(Ipv4Net) -> bool,
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
    // The networks some device discards after the change (aggregates, area ranges, Null0
    // routes), made only when a shorter route is weighed.
    let mut discarded: Option<BTreeSet<(&str, Ipv4Net)>> = None;
    let mut out = Vec::new();
    for ((vrf, network), (d, mut lost_on)) in delta {
        let before = i64::from(routed.devices(vrf, network));
        // The default route is where traffic goes when routing has nothing better, not a
        // place where something lives: a device's static default losing its next hop is
        // the routes check's to name.
        if before == 0 || before + d > 0 || network.prefix_len() == 0 {
            continue;
        }
        // A shorter route in its place still carries it — unless some device discards
        // that shorter network (an aggregate or area range whose originator has a
        // discard route for it: traffic for the lost part ends there).
        let covers: Vec<(&str, Ipv4Net)> = lost_on
            .iter()
            .filter_map(|h| after_by.get(h))
            .flat_map(|r| r.routes.iter())
            .filter(|x| {
                x.vrf == vrf
                    && x.network.prefix_len() > 0
                    && x.network.prefix_len() < network.prefix_len()
                    && x.network.contains(&network)
                    && routes(x)
            })
            .map(|x| (x.vrf.as_str(), x.network))
            .collect();
        let covered = !covers.is_empty() && {
            let dropped = discarded.get_or_insert_with(|| {
                after
                    .iter()
                    .flat_map(|r| r.routes.iter())
                    .filter(|x| x.next_hop == NextHop::Discard)
                    .map(|x| (x.vrf.as_str(), x.network))
                    .collect()
            });
            covers.iter().any(|c| !dropped.contains(c))
        };
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
        let reasons: Vec<&str> = lost_on
            .iter()
            .filter_map(|h| after_by.get(h))
            .flat_map(|r| r.incomplete_in(vrf))
            .collect();
        let own = inside(network);
        let uncertain = reasons.iter().any(|r| !(own && from_outside(r)));
        if uncertain {
            let other: Vec<&&str> = reasons.iter().filter(|r| !from_outside(r)).collect();
            tracing::debug!("withdrawn {network}: uncertain (own address space: {own}): {other:?}");
        }
        out.push(Withdrawn {
            vrf: vrf.to_owned(),
            network,
            lost_on: lost_on.into_iter().map(str::to_owned).collect(),
            uncertain,
            assumed: !uncertain && !reasons.is_empty(),
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
            external: Vec::new(),
        }
    }

    /// The definition, over every device: routed by some device before, by none after,
    /// and no device that lost it has a shorter non-default route in its place.
    fn plain(now: &[Arc<DeviceRib>], after: &[Arc<DeviceRib>]) -> BTreeSet<(Ipv4Net, Vec<String>)> {
        let routed =
            |r: &DeviceRib, n: Ipv4Net| r.routes.iter().any(|x| x.network == n && routes(x));
        let mut out = BTreeSet::new();
        for n in pool().into_iter().filter(|n| n.prefix_len() > 0) {
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
            let dropped = |c: Ipv4Net| {
                after.iter().any(|r| {
                    r.routes
                        .iter()
                        .any(|x| x.network == c && x.next_hop == NextHop::Discard)
                })
            };
            let covered = lost.iter().any(|r| {
                r.routes.iter().any(|x| {
                    x.network.prefix_len() > 0
                        && x.network.prefix_len() < n.prefix_len()
                        && x.network.contains(&n)
                        && routes(x)
                        && !dropped(x.network)
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
            let got: BTreeSet<(Ipv4Net, Vec<String>)> = withdrawn(&routed, &by_name, &after, &|_| false)
                .into_iter()
                .map(|Withdrawn { network, lost_on, .. }| (network, lost_on))
                .collect();
            prop_assert_eq!(got, plain(&now, &after));
        }
    }
}
