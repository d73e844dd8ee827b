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
        if covered {
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
