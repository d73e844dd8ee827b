//! One device's main RIB: connected, local and static candidates, static next hops
//! resolved to a fixed point, the lowest administrative distance kept per prefix (every
//! next hop of the winners: ECMP), and what is not computed yet named.

use super::connected;
use super::dynamic::{self, Incomplete};
use super::route::Route;
use super::statics::{self, Candidate, Skipped};
use crate::model::{DeviceConfig, Vendor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A device's computed main RIB.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceRib {
    /// The device.
    pub hostname: String,
    /// Its vendor.
    pub vendor: Vendor,
    /// Every installed route, one row per next hop, sorted by VRF, network, protocol and
    /// next hop.
    pub routes: Vec<Route>,
    /// What is not computed yet (the dynamic protocols it runs), per VRF.
    pub incomplete: Vec<Incomplete>,
    /// Static routes left out because their next hop did not resolve with the routes
    /// olav computes (a dynamic protocol may resolve them on the device).
    pub unresolved_statics: u32,
}

impl DeviceRib {
    /// Whether the RIB of `vrf` is incomplete, and why (the reasons, in order).
    pub fn incomplete_in(&self, vrf: &str) -> Vec<&str> {
        self.incomplete
            .iter()
            .filter(|i| i.vrf.as_deref().is_none_or(|v| v == vrf))
            .map(|i| i.reason.as_str())
            .collect()
    }
}

/// Keeps, per (VRF, network), the routes with the lowest administrative distance;
/// sorted, duplicates removed.
fn select(mut routes: Vec<Route>) -> Vec<Route> {
    let mut best: BTreeMap<(&str, ipnet::Ipv4Net), u32> = BTreeMap::new();
    for r in &routes {
        let e = best.entry((&r.vrf, r.network)).or_insert(r.admin_distance);
        *e = (*e).min(r.admin_distance);
    }
    let keep: Vec<bool> = routes
        .iter()
        .map(|r| best.get(&(r.vrf.as_str(), r.network)) == Some(&r.admin_distance))
        .collect();
    let mut k = keep.into_iter();
    routes.retain(|_| k.next().unwrap_or(false));
    routes.sort_by(|a, b| {
        (&a.vrf, a.network, a.protocol, &a.next_hop).cmp(&(
            &b.vrf,
            b.network,
            b.protocol,
            &b.next_hop,
        ))
    });
    routes.dedup();
    routes
}

/// The main RIB of one device from its parsed configuration (and its text, for the
/// dynamic protocols the model does not record yet).
pub fn compute(hostname: &str, vendor: Vendor, config: &DeviceConfig, text: &str) -> DeviceRib {
    let down = super::autostate::down_svis(config, vendor);
    let base = connected::routes(config, vendor, &down);
    let mut waiting: Vec<Candidate> = Vec::new();
    let mut incomplete = dynamic::incomplete(config, vendor, text);
    for r in &config.static_routes {
        match statics::candidate(r, config, vendor, &down) {
            Ok(c) => waiting.push(c),
            // A Junos route without a next hop of its own looks up another table.
            Err(Skipped::NoNextHop) if vendor == Vendor::JuniperJunos => {
                let i = Incomplete {
                    vrf: Some(connected::vrf_name(&r.vrf)),
                    reason: "Junos next-table static routes are not computed yet".to_owned(),
                };
                if !incomplete.contains(&i) {
                    incomplete.push(i);
                }
            }
            Err(_) => {}
        }
    }
    let mut installed = select(base.clone());
    let mut taken: Vec<Route> = Vec::new();
    // Each round installs at least one route or stops: at most one round per route.
    loop {
        let (now, later): (Vec<Candidate>, Vec<Candidate>) = waiting
            .into_iter()
            .partition(|c| statics::resolves(c, &installed));
        waiting = later;
        if now.is_empty() {
            break;
        }
        taken.extend(now.into_iter().map(|c| c.route));
        installed = select(base.iter().chain(&taken).cloned().collect());
    }
    DeviceRib {
        hostname: hostname.to_owned(),
        vendor,
        routes: installed,
        incomplete,
        unresolved_statics: waiting.len() as u32,
    }
}
