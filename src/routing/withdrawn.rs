//! Networks a change withdraws from the network's routing: some device routes them
//! before (a route that is not the device's own connected or local one, and carries
//! traffic: not a discard route), no device routes them after, and no device that lost
//! one has a shorter route other than the default in its place that no device discards
//! (a summary still carries the traffic, unless it ends in its originator's discard
//! route; a default is where traffic goes when routing has nothing better, and is not
//! itself judged). `docs/precheck.md`, "Prefixes withdrawn".

use super::dynamic::from_outside;
use super::route::{NextHop, Protocol, Route};
use super::{DeviceRib, FastMap, FastSet};
use ipnet::Ipv4Net;
use std::collections::BTreeMap;

/// Whether a row routes its network somewhere from elsewhere in the network.
fn routes(r: &Route) -> bool {
    !matches!(r.protocol, Protocol::Connected | Protocol::Local) && r.next_hop != NextHop::Discard
}

/// The networks one RIB routes, by VRF, sorted (as its rows are).
fn routed_by(rib: &DeviceRib) -> Vec<(&str, Ipv4Net)> {
    let mut out: Vec<(&str, Ipv4Net)> = rib
        .routes
        .iter()
        .filter(|r| routes(r))
        .map(|r| (r.vrf.as_str(), r.network))
        .collect();
    out.dedup();
    out
}

/// What `a` holds that `b` does not, both sorted and without duplicates.
fn less<'a, T: Ord + Copy>(a: &'a [T], b: &'a [T]) -> impl Iterator<Item = T> + 'a {
    a.iter().filter(|x| b.binary_search(x).is_err()).copied()
}

/// How many devices route each (VRF, network).
#[derive(Debug, Default)]
pub struct Routed {
    /// By VRF, then network.
    count: FastMap<String, FastMap<Ipv4Net, u32>>,
}

impl Routed {
    /// How many devices route `network` in `vrf`.
    pub fn devices(&self, vrf: &str, network: Ipv4Net) -> u32 {
        self.count
            .get(vrf)
            .and_then(|c| c.get(&network))
            .copied()
            .unwrap_or(0)
    }

    /// Counts one device's networks (sorted by VRF).
    fn add(&mut self, networks: &[(&str, Ipv4Net)]) {
        for run in networks.chunk_by(|a, b| a.0 == b.0) {
            let vrf = run[0].0;
            if !self.count.contains_key(vrf) {
                self.count.insert(vrf.to_owned(), FastMap::default());
            }
            if let Some(c) = self.count.get_mut(vrf) {
                for (_, n) in run {
                    *c.entry(*n).or_default() += 1;
                }
            }
        }
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

/// How one network's count of devices moves, and who lost it.
#[derive(Debug, Default)]
struct Delta {
    /// Devices routing it after less before, among the devices recomputed.
    moved: i64,
    /// The kept devices that lost it.
    lost_on: Vec<String>,
    /// The shorter networks (not the default) those devices route in its place after.
    covers: Vec<Ipv4Net>,
    /// Why their RIBs in its VRF are incomplete after.
    reasons: Vec<String>,
}

/// The networks a change withdraws, told one device at a time — its RIB before and after —
/// so that no more than one device's tables need be held at once.
#[derive(Debug, Default)]
pub struct Withdrawals {
    /// How many devices route each network before the change.
    routed: Routed,
    /// Per (VRF, network): how the recomputed devices' count moves, and who lost it.
    delta: BTreeMap<(String, Ipv4Net), Delta>,
    /// The networks some device discards after the change (aggregates, area ranges, Null0
    /// routes).
    discarded: FastSet<(String, Ipv4Net)>,
    /// The networks some kept device holds after the change (connected or local).
    held: FastSet<(String, Ipv4Net)>,
}

impl Withdrawals {
    /// Device `hostname`: `was` its RIB before the change (None: it has none), `is` after
    /// it (None: the change removes it); `same` when the change does not recompute it
    /// (`is` is `was`). Every device of the network before and after is told once.
    pub fn device(
        &mut self,
        hostname: &str,
        was: Option<&DeviceRib>,
        is: Option<&DeviceRib>,
        same: bool,
    ) {
        let before = was.map(routed_by).unwrap_or_default();
        self.routed.add(&before);
        for x in is.iter().flat_map(|r| r.routes.iter()) {
            if x.next_hop == NextHop::Discard {
                self.discarded.insert((x.vrf.to_string(), x.network));
            }
            if matches!(x.protocol, Protocol::Connected | Protocol::Local) {
                self.held.insert((x.vrf.to_string(), x.network));
            }
        }
        if same {
            return;
        }
        let after = is.map(routed_by).unwrap_or_default();
        for (vrf, n) in less(&before, &after) {
            let e = self.delta.entry((vrf.to_owned(), n)).or_default();
            e.moved -= 1;
            if let Some(is) = is {
                e.lost_on.push(hostname.to_owned());
                e.covers.extend(covers(is, vrf, n));
                e.reasons
                    .extend(is.incomplete_in(vrf).into_iter().map(str::to_owned));
            }
        }
        for (vrf, n) in less(&after, &before) {
            self.delta.entry((vrf.to_owned(), n)).or_default().moved += 1;
        }
    }

    /// Adds what `other` was told (of other devices).
    pub fn merge(&mut self, other: Withdrawals) {
        for (vrf, counts) in other.routed.count {
            let mine = self.routed.count.entry(vrf).or_default();
            for (n, k) in counts {
                *mine.entry(n).or_default() += k;
            }
        }
        for (key, d) in other.delta {
            let mine = self.delta.entry(key).or_default();
            mine.moved += d.moved;
            mine.lost_on.extend(d.lost_on);
            mine.covers.extend(d.covers);
            mine.reasons.extend(d.reasons);
        }
        self.discarded.extend(other.discarded);
        self.held.extend(other.held);
    }

    /// How many devices routed each network before the change.
    pub fn routed(&self) -> &Routed {
        &self.routed
    }

    /// The networks withdrawn. `inside` says whether peers outside the network can be
    /// taken to send no route for a network (its own address space, one AS:
    /// [`super::trace::Addresses::stays_inside`]).
    pub fn finish(self, inside: &dyn Fn(Ipv4Net) -> bool) -> Vec<Withdrawn> {
        let mut out = Vec::new();
        for ((vrf, network), mut d) in self.delta {
            let before = i64::from(self.routed.devices(&vrf, network));
            // The default route is where traffic goes when routing has nothing better, not
            // a place where something lives: a device's static default losing its next
            // hop is the routes check's to name.
            if before == 0 || before + d.moved > 0 || network.prefix_len() == 0 {
                continue;
            }
            // A shorter route in its place still carries it — unless some device discards
            // that shorter network (an aggregate or area range whose originator has a
            // discard route for it: traffic for the lost part ends there).
            let covered = d
                .covers
                .iter()
                .any(|c| !self.discarded.contains(&(vrf.clone(), *c)));
            // Routed only by devices the change removes: withdrawn when it lives on a kept
            // device that nothing routes to now, not when it was a removed device's own
            // route elsewhere (its static default goes with it).
            let lives_on_kept = || self.held.contains(&(vrf.clone(), network));
            if covered || (d.lost_on.is_empty() && !lives_on_kept()) {
                continue;
            }
            d.lost_on.sort_unstable();
            let own = inside(network);
            let uncertain = d.reasons.iter().any(|r| !(own && from_outside(r)));
            if uncertain {
                let other: Vec<&String> = d.reasons.iter().filter(|r| !from_outside(r)).collect();
                tracing::debug!(
                    "withdrawn {network}: uncertain (own address space: {own}): {other:?}"
                );
            }
            out.push(Withdrawn {
                vrf,
                network,
                lost_on: d.lost_on,
                uncertain,
                assumed: !uncertain && !d.reasons.is_empty(),
            });
        }
        out
    }
}

/// The shorter networks other than the default that `rib` routes in `vrf` in place of
/// `network` (its rows are sorted by VRF and network).
fn covers(rib: &DeviceRib, vrf: &str, network: Ipv4Net) -> Vec<Ipv4Net> {
    let mut out = Vec::new();
    for len in 1..network.prefix_len() {
        let Ok(c) = Ipv4Net::new(network.network(), len).map(|c| c.trunc()) else {
            continue;
        };
        let start = rib
            .routes
            .partition_point(|x| (x.vrf.as_str(), x.network) < (vrf, c));
        let routed = rib.routes[start..]
            .iter()
            .take_while(|x| x.vrf == vrf && x.network == c)
            .any(routes);
        if routed {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{routes, Withdrawals, Withdrawn};
    use crate::model::Vendor;
    use crate::routing::route::{NextHop, Protocol, Route};
    use crate::routing::DeviceRib;
    use ipnet::Ipv4Net;
    use proptest::prelude::*;
    use std::collections::BTreeSet;
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

    /// A RIB of `rows`, sorted as every RIB is.
    fn rib(h: usize, rows: &[(usize, u8)]) -> DeviceRib {
        let mut routes: Vec<Route> = rows.iter().map(|(n, k)| row(*n, *k)).collect();
        routes.sort();
        DeviceRib {
            hostname: format!("d{h}"),
            vendor: Vendor::CiscoIos,
            routes,
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
        /// Told one device at a time, moving only the recomputed devices' counts, it gives
        /// what the definition gives over every device.
        #[test]
        fn the_answer_told_device_by_device_is_the_definition(
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
            let mut told = Withdrawals::default();
            for (h, (before, fate, changed)) in devices.iter().enumerate() {
                let was = Arc::new(rib(h, before));
                match fate {
                    // Untouched: the same RIB.
                    0 => {
                        told.device(&was.hostname, Some(&was), Some(&was), true);
                        after.push(Arc::clone(&was));
                    }
                    // Recomputed.
                    1 => {
                        let is = Arc::new(rib(h, changed));
                        told.device(&was.hostname, Some(&was), Some(&is), false);
                        after.push(is);
                    }
                    // Removed.
                    _ => told.device(&was.hostname, Some(&was), None, false),
                }
                now.push(was);
            }
            let got: BTreeSet<(Ipv4Net, Vec<String>)> = told
                .finish(&|_| false)
                .into_iter()
                .map(|Withdrawn { network, lost_on, .. }| (network, lost_on))
                .collect();
            prop_assert_eq!(got, plain(&now, &after));
        }
    }
}
