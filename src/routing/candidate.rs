//! The routing model of a candidate network — a plan's lines applied to the stored
//! configurations, decommissioned devices gone — and the routes it changes.
//!
//! The whole network is recomputed from its configurations, the plan's devices' as the
//! plan leaves them ([`crate::dialect::candidate_text`]): OSPF and BGP are network-wide,
//! so a change on one device can move routes anywhere.

use super::rib::{network, DeviceInput, DeviceRib};
use super::route::Route;
use super::trace::Addresses;
use super::RoutingModel;
use crate::checks::model::removed_devices;
use crate::import::parse::parser_for;
use crate::model::{DeviceConfig, Vendor};
use crate::plan::Plan;
use crate::state::{StateDb, StateError};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The largest network whose candidate is recomputed: every device's table is held at
/// once.
pub const MAX_DEVICES: usize = 2_000;

/// Every device's RIB as the network would be after `plan`.
pub fn ribs(db: &StateDb, plan: &Plan) -> Result<Vec<DeviceRib>, StateError> {
    Ok(after(db, plan)?.0)
}

/// Every device's RIB and every address as the network would be after `plan`.
pub fn after(db: &StateDb, plan: &Plan) -> Result<(Vec<DeviceRib>, Addresses), StateError> {
    network_of(
        db,
        &removed_devices(plan),
        &crate::dialect::plan_lines(plan),
    )
}

/// Every device's RIB and every address as the network is, computed as a candidate is
/// (every table at once): what a candidate is compared with row for row.
pub fn now(db: &StateDb) -> Result<(Vec<DeviceRib>, Addresses), StateError> {
    network_of(db, &[], &BTreeMap::new())
}

/// The network with `removed` gone and `lines` applied to their devices.
fn network_of(
    db: &StateDb,
    removed: &[&str],
    lines: &BTreeMap<String, String>,
) -> Result<(Vec<DeviceRib>, Addresses), StateError> {
    // Parsed in full: the checks' parsed configurations leave routing out.
    let mut devices: Vec<(String, Vendor, DeviceConfig, String)> = Vec::new();
    // The cabling stays as imported (OSPF over unnumbered interfaces follows it).
    let ends = db.link_ends()?;
    let far = crate::checks::model::far_ends(&ends);
    db.each_config(|hostname, os, stored| {
        if removed.contains(&hostname) {
            return;
        }
        let vendor = Vendor::from_os(os);
        let text = match lines.get(hostname) {
            Some(l) => crate::dialect::candidate_text(vendor, stored, l),
            None => stored.to_owned(),
        };
        let mut config = parser_for(vendor).parse(&text);
        crate::checks::model::link_interfaces(hostname, &mut config, &far);
        devices.push((hostname.to_owned(), vendor, config, text));
    })?;
    let inputs: Vec<DeviceInput> = devices
        .iter()
        .map(|(hostname, vendor, config, text)| DeviceInput {
            hostname,
            vendor: *vendor,
            config,
            text,
        })
        .collect();
    let mut addresses = Addresses::default();
    for (hostname, _, config, _) in &devices {
        addresses.of_config(hostname, config);
    }
    Ok((network(&inputs), addresses))
}

/// The routes one device loses and gains.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RouteChange {
    /// The device.
    pub node: String,
    /// Rows the device has now and would not have (all of them when the plan removes it).
    pub removed: Vec<Route>,
    /// Rows it would have and does not have now.
    pub added: Vec<Route>,
    /// Whether its RIB is incomplete before or after (a protocol olav does not compute):
    /// the change may be larger than shown.
    pub incomplete: bool,
    /// Static routes that do not install after the plan and did before it (or that the
    /// plan adds and that do not install): their next hop resolves through no computed
    /// route.
    pub unresolved: u32,
}

/// The devices whose RIBs differ between the stored model and `after` (or that have
/// static routes left uninstalled by the plan), in hostname order; `keep` filters the
/// rows compared.
pub fn diff(
    db: &StateDb,
    before: &RoutingModel,
    after: &[DeviceRib],
    keep: &dyn Fn(&Route) -> bool,
) -> Result<Vec<RouteChange>, StateError> {
    let mut names: BTreeSet<&str> = before.hostnames().iter().map(String::as_str).collect();
    names.extend(after.iter().map(|r| r.hostname.as_str()));
    let by_name: HashMap<&str, &DeviceRib> =
        after.iter().map(|r| (r.hostname.as_str(), r)).collect();
    let mut out = Vec::new();
    for name in names {
        let old = before.device(db, name)?;
        let new = by_name.get(name).copied();
        let rows = |r: Option<&DeviceRib>| -> BTreeSet<Route> {
            r.map(|r| r.routes.iter().filter(|x| keep(x)).cloned().collect())
                .unwrap_or_default()
        };
        let (a, b) = (rows(old.as_ref()), rows(new));
        let unresolved = new
            .map_or(0, |r| r.unresolved_statics)
            .saturating_sub(old.as_ref().map_or(0, |r| r.unresolved_statics));
        if a == b && unresolved == 0 {
            continue;
        }
        out.push(RouteChange {
            node: name.to_owned(),
            removed: a.difference(&b).cloned().collect(),
            added: b.difference(&a).cloned().collect(),
            incomplete: old.is_some_and(|r| !r.incomplete.is_empty())
                || new.is_some_and(|r| !r.incomplete.is_empty()),
            unresolved,
        });
    }
    Ok(out)
}
