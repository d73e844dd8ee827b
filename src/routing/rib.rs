//! One device's main RIB: connected, local and static candidates, static next hops
//! resolved to a fixed point, the lowest administrative distance kept per prefix (every
//! next hop of the winners: ECMP), and what is not computed yet named.

use super::connected;
use super::dynamic::{self, Incomplete};
use super::ospf;
use super::route::Route;
use super::statics::{self, Candidate, Skipped};
use crate::model::{DeviceConfig, Vendor};
use serde::{Deserialize, Serialize};

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
    // Sorted first (stable: equal rows keep their order), so that each (VRF, network)
    // is one run: no map of a border router's 350,000 prefixes.
    routes.sort_by(|a, b| {
        (&a.vrf, a.network, a.protocol, &a.next_hop).cmp(&(
            &b.vrf,
            b.network,
            b.protocol,
            &b.next_hop,
        ))
    });
    let mut keep = Vec::with_capacity(routes.len());
    for run in routes.chunk_by(|a, b| a.vrf == b.vrf && a.network == b.network) {
        let best = run.iter().map(|r| r.admin_distance).min();
        keep.extend(run.iter().map(|r| Some(r.admin_distance) == best));
    }
    let mut k = keep.into_iter();
    routes.retain(|_| k.next().unwrap_or(false));
    routes.dedup();
    routes
}

/// A device's RIB before the network-wide protocols: its connected and local routes,
/// its static routes waiting for resolution, what is not computed.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The device.
    pub hostname: String,
    /// Its vendor.
    pub vendor: Vendor,
    base: Vec<Route>,
    waiting: Vec<Candidate>,
    /// What is not computed (the dynamic protocols other than OSPF).
    pub incomplete: Vec<Incomplete>,
}

/// One device as the network computation takes it.
#[derive(Debug, Clone, Copy)]
pub struct DeviceInput<'a> {
    /// The hostname.
    pub hostname: &'a str,
    /// Its vendor.
    pub vendor: Vendor,
    /// Its parsed configuration.
    pub config: &'a DeviceConfig,
    /// Its configuration text (for the protocols the model does not record).
    pub text: &'a str,
}

/// A device's connected and local routes and static candidates, from its configuration.
pub fn prepare(d: DeviceInput<'_>) -> Prepared {
    let (hostname, vendor, config) = (d.hostname, d.vendor, d.config);
    let down = super::autostate::down_svis(config, vendor);
    let base = connected::routes(config, vendor, &down);
    let mut waiting: Vec<Candidate> = Vec::new();
    let mut incomplete = dynamic::incomplete(config, vendor, d.text);
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
    Prepared {
        hostname: hostname.to_owned(),
        vendor,
        base,
        waiting,
        incomplete,
    }
}

/// The RIB of a prepared device with the routes the network's protocols gave it
/// (`learned`) and what they leave incomplete: static next hops resolved to a fixed point
/// through everything installed, the lowest administrative distance kept per prefix.
pub fn finish(p: &Prepared, learned: &[Route], more: &[Incomplete]) -> DeviceRib {
    finish_owned(p, learned.to_vec(), more)
}

/// [`finish`] taking the learned routes (not copying a backbone router's 350,000).
pub fn finish_owned(p: &Prepared, learned: Vec<Route>, more: &[Incomplete]) -> DeviceRib {
    let mut waiting = p.waiting.clone();
    let mut all = Vec::with_capacity(p.base.len() + learned.len());
    all.extend(p.base.iter().cloned());
    all.extend(learned);
    let mut installed = select(all);
    // Each round installs at least one route or stops: at most one round per route.
    // (Choosing among the installed routes and the new ones is choosing among all: a
    // route the first choice dropped loses to what it kept.)
    loop {
        let (now, later): (Vec<Candidate>, Vec<Candidate>) = waiting
            .into_iter()
            .partition(|c| statics::resolves(c, &installed));
        waiting = later;
        if now.is_empty() {
            break;
        }
        installed.extend(now.into_iter().map(|c| c.route));
        installed = select(installed);
    }
    let mut incomplete = p.incomplete.clone();
    for i in more {
        if !incomplete.contains(i) {
            incomplete.push(i.clone());
        }
    }
    incomplete.sort();
    DeviceRib {
        hostname: p.hostname.clone(),
        vendor: p.vendor,
        routes: installed,
        incomplete,
        unresolved_statics: waiting.len() as u32,
    }
}

/// The device's OSPF speaker, from its configuration and its RIB without OSPF.
pub fn speaker(d: DeviceInput<'_>, p: &Prepared) -> ospf::Speaker {
    let before = finish(p, &[], &[]);
    ospf::Speaker::of(d.vendor, d.config, &before.routes, !p.incomplete.is_empty())
}

/// Every device's main RIB, the network-wide protocols (OSPF) computed over all of them:
/// each device prepared, its RIB without OSPF computed (what OSPF redistributes), OSPF
/// over the network, then each RIB again with the OSPF routes (static next hops may now
/// resolve through them). In `devices`' order.
pub fn network(devices: &[DeviceInput<'_>]) -> Vec<DeviceRib> {
    let prepared: Vec<Prepared> = devices.iter().map(|d| prepare(*d)).collect();
    let speakers: Vec<ospf::Speaker> = devices
        .iter()
        .zip(&prepared)
        .map(|(d, p)| speaker(*d, p))
        .collect();
    let names: Vec<&str> = devices.iter().map(|d| d.hostname).collect();
    let learned = ospf::routes(&names, speakers);
    prepared
        .iter()
        .enumerate()
        .map(|(d, p)| {
            let (routes, inc) = learned.device(d);
            finish(p, &routes, &inc)
        })
        .collect()
}

/// The main RIB of one device from its parsed configuration (and its text, for the
/// dynamic protocols the model does not record), as a network of that device alone.
pub fn compute(hostname: &str, vendor: Vendor, config: &DeviceConfig, text: &str) -> DeviceRib {
    let input = DeviceInput {
        hostname,
        vendor,
        config,
        text,
    };
    let p = prepare(input);
    let (routes, inc) = ospf::routes(&[hostname], vec![speaker(input, &p)]).device(0);
    finish(&p, &routes, &inc)
}
