//! The routing model of a candidate network — a plan's lines applied to the stored
//! configurations, decommissioned devices gone — and the routes it changes.
//!
//! [`after_scoped`] recomputes only the devices the plan can reach — the components of
//! the devices it changes over adjacencies, cabling and BGP ([`scope`]) — from their
//! configurations as the plan leaves them ([`crate::dialect::candidate_text`]), and takes
//! every other device's RIB as the network has it now (`docs/routing.md`, "Candidates").
//! Its [`Candidate`] makes a device's RIB when it is asked for, as the stored model does:
//! the whole network's tables at once are gigabytes at a thousand devices.

mod cabling;
pub mod scope;
#[cfg(test)]
mod tests;

use super::adjacency;
use super::kept::Kept;
use super::rib::{DeviceInput, DeviceRib};
use super::route::Route;
use super::trace::Addresses;
use super::{Lazy, RoutingModel};
use crate::checks::model::removed_devices;
use crate::import::parse::parser_for;
use crate::model::{DeviceConfig, Vendor};
use crate::plan::Plan;
use crate::state::{StateDb, StateError};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The largest network whose candidate is compared with the network as it is: every
/// device's table is made twice, one device at a time (seconds at 1,000 devices).
pub const MAX_DEVICES: usize = 2_000;

/// Every device's RIB and every address as the network is, computed as a candidate is,
/// every table at once (tests compare with it).
#[cfg(test)]
pub fn now(db: &StateDb) -> Result<(Vec<DeviceRib>, Addresses), StateError> {
    network_of(db, &[], &BTreeMap::new())
}

/// Every address of the network as it is (as [`now`] has them).
pub fn addresses(db: &StateDb) -> Result<Addresses, StateError> {
    let ends = db.link_ends()?;
    let far = crate::checks::model::far_ends(&ends);
    let mut addresses = Addresses::default();
    db.each_config(|hostname, os, stored| {
        let mut config = parser_for(Vendor::from_os(os)).parse(stored);
        crate::checks::model::link_interfaces(hostname, &mut config, &far);
        addresses.of_config(hostname, &config);
    })?;
    Ok(addresses)
}

/// The network after a plan, as [`after_scoped`] computes it.
pub struct Scoped {
    /// Every kept device's RIB, made when asked for.
    pub network: Candidate,
    /// Every address.
    pub addresses: Addresses,
    /// The IGP adjacencies of the devices the plan changes, lost and formed.
    pub adjacencies: adjacency::Change,
}

/// A device as the plan leaves it, parsed: hostname, vendor, configuration, text.
type Owned = (String, Vendor, DeviceConfig, String);

/// How the routing reads an [`Owned`] device.
fn input(o: &Owned) -> DeviceInput<'_> {
    DeviceInput {
        hostname: &o.0,
        vendor: o.1,
        config: &o.2,
        text: &o.3,
    }
}

/// The candidate network's RIBs, each device's made when it is asked for: the devices the
/// plan can reach ([`scope`]) from the network-wide protocols computed over them alone,
/// every other device's as the network has it now (the caller's `now`). No device's whole
/// table is made before it is asked for: a network's tables at once are gigabytes at a
/// thousand devices.
pub struct Candidate {
    /// The devices the plan keeps, in hostname order.
    kept: Vec<String>,
    /// The devices recomputed, as the plan leaves them.
    recomputed: Lazy<Owned>,
    /// The recomputed RIBs made so far with [`Candidate::rib`], while they fit.
    made: Kept,
}

impl Candidate {
    /// The devices the plan keeps, in hostname order.
    pub fn hostnames(&self) -> &[String] {
        &self.kept
    }

    /// Whether the plan keeps `hostname`.
    pub fn keeps(&self, hostname: &str) -> bool {
        self.kept
            .binary_search_by(|h| h.as_str().cmp(hostname))
            .is_ok()
    }

    /// Whether the plan may change `hostname`'s RIB (it is recomputed); a kept device
    /// that is not has the RIB it has now.
    pub fn recomputed(&self, hostname: &str) -> bool {
        self.recomputed.has(hostname)
    }

    /// How many devices are recomputed.
    pub fn recomputed_count(&self) -> usize {
        self.recomputed.len()
    }

    /// `hostname`'s RIB after the plan (None: the plan removes it, or no such device):
    /// a recomputed device's made once and kept, every other device's `now`'s.
    pub fn rib(
        &self,
        hostname: &str,
        now: &dyn Fn(&str) -> Option<Arc<DeviceRib>>,
    ) -> Option<Arc<DeviceRib>> {
        if !self.recomputed(hostname) {
            return self.rib_once(hostname, now);
        }
        self.made
            .get_or_make(hostname, || self.recomputed.rib(hostname, input))
    }

    /// [`Candidate::rib`] without keeping a recomputed RIB it had not made yet: a pass
    /// over every device holds one at a time.
    pub fn rib_once(
        &self,
        hostname: &str,
        now: &dyn Fn(&str) -> Option<Arc<DeviceRib>>,
    ) -> Option<Arc<DeviceRib>> {
        if self.recomputed(hostname) {
            return self
                .made
                .get(hostname)
                .or_else(|| self.recomputed.rib(hostname, input).map(Arc::new));
        }
        self.kept
            .binary_search_by(|h| h.as_str().cmp(hostname))
            .ok()?;
        now(hostname)
    }

    /// Every kept device's RIB, in hostname order, all at once.
    pub fn all(&self, now: &dyn Fn(&str) -> Option<Arc<DeviceRib>>) -> Vec<Arc<DeviceRib>> {
        self.kept
            .iter()
            .filter_map(|h| self.rib_once(h, now))
            .collect()
    }
}

/// Every device's RIB and every address as the network would be after `plan`, the same
/// as [`after`]'s: the devices the plan can reach recomputed ([`scope`]), every other
/// device's RIB taken from `now` (its RIB as the network is, as [`now`] computes it;
/// `known` says which devices it has one for); and how the adjacencies of the devices it
/// changes change.
pub fn after_scoped(
    db: &StateDb,
    plan: &Plan,
    known: &dyn Fn(&str) -> bool,
) -> Result<Scoped, StateError> {
    after_scoped_with(
        db,
        &removed_devices(plan),
        &crate::dialect::plan_lines(plan),
        known,
    )
}

/// [`after_scoped`] for the network with `removed` gone and `lines` (per device, in its
/// dialect) applied: a what-if that is not a plan.
pub fn after_scoped_with(
    db: &StateDb,
    removed: &[&str],
    lines: &BTreeMap<String, String>,
    known: &dyn Fn(&str) -> bool,
) -> Result<Scoped, StateError> {
    let ends = db.link_ends()?;
    let far = crate::checks::model::far_ends(&ends);
    // (hostname, vendor, as it is, as the plan leaves it when it changes its text).
    type Parsed = (DeviceConfig, String);
    let mut devices: Vec<(String, Vendor, Parsed, Option<Option<Parsed>>)> = Vec::new();
    db.each_config(|hostname, os, stored| {
        let vendor = Vendor::from_os(os);
        let parse = |text: String| {
            let mut config = parser_for(vendor).parse(&text);
            crate::checks::model::link_interfaces(hostname, &mut config, &far);
            (config, text)
        };
        let after = if removed.contains(&hostname) {
            Some(None)
        } else {
            lines
                .get(hostname)
                .map(|l| Some(parse(crate::dialect::candidate_text(vendor, stored, l))))
        };
        devices.push((hostname.to_owned(), vendor, parse(stored.to_owned()), after));
    })?;
    // The far ends of the cables the plan shuts go down with them.
    let cables = db.cable_ends()?;
    let shut: Vec<(&str, Vec<String>)> = devices
        .iter()
        .filter_map(|(h, _, now, after)| {
            let after = after.as_ref()?;
            Some((
                h.as_str(),
                cabling::shut(&now.0, after.as_ref().map(|a| &a.0)),
            ))
        })
        .collect();
    let down = cabling::far_ends(&cables, &shut);
    for (h, _, now, after) in devices.iter_mut() {
        let Some(ifnames) = down.get(h.as_str()) else {
            continue;
        };
        let after = after.get_or_insert_with(|| Some(now.clone()));
        if let Some(a) = after {
            cabling::take_down(&mut a.0, ifnames);
        }
    }
    fn side<'a>(
        hostname: &'a str,
        vendor: Vendor,
        parsed: &'a (DeviceConfig, String),
    ) -> DeviceInput<'a> {
        DeviceInput {
            hostname,
            vendor,
            config: &parsed.0,
            text: &parsed.1,
        }
    }
    let sides: Vec<scope::Sides<'_>> = devices
        .iter()
        .map(|(h, v, now, after)| {
            let now = side(h, *v, now);
            scope::Sides {
                now,
                after: match after {
                    None => Some(now),
                    Some(None) => None,
                    Some(Some(a)) => Some(side(h, *v, a)),
                },
            }
        })
        .collect();
    let mut addresses = Addresses::default();
    for s in &sides {
        if let Some(a) = s.after {
            addresses.of_config(a.hostname, a.config);
        }
    }
    let changed_flags = scope::changed(&sides);
    let near = scope::near(&sides, &ends, &changed_flags);
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for (s, _) in sides.iter().zip(&near).filter(|(_, n)| **n) {
        before.push(s.now);
        after.extend(s.after);
    }
    let changed: BTreeSet<&str> = sides
        .iter()
        .zip(&changed_flags)
        .filter(|(_, c)| **c)
        .map(|(s, _)| s.now.hostname)
        .collect();
    let (before, after) = (adjacency::Igps::of(&before), adjacency::Igps::of(&after));
    let adjacencies = adjacency::change(&before, &after, &|h| changed.contains(h));
    tracing::debug!(
        "candidate: adjacencies of {} changed device(s) among {}: {} before, {} after; {} lost, {} formed",
        changed.len(),
        near.iter().filter(|n| **n).count(),
        before.adjacencies().len(),
        after.adjacencies().len(),
        adjacencies.lost.len(),
        adjacencies.formed.len()
    );
    let hit = scope::recomputed(&sides, &ends, &changed_flags, known);
    drop(sides);
    let mut kept = Vec::with_capacity(devices.len());
    let mut reached: Vec<Owned> = Vec::new();
    for ((h, v, now, after), hit) in devices.into_iter().zip(hit) {
        let after = match after {
            None => now,
            Some(None) => continue,
            Some(Some(a)) => a,
        };
        if hit {
            reached.push((h.clone(), v, after.0, after.1));
        }
        kept.push(h);
    }
    tracing::debug!(
        "candidate: {} of {} devices recomputed",
        reached.len(),
        kept.len()
    );
    Ok(Scoped {
        network: Candidate {
            kept,
            recomputed: Lazy::new(reached, input)?,
            made: Kept::default(),
        },
        addresses,
        adjacencies,
    })
}

/// The network with `removed` gone and `lines` applied to their devices.
#[cfg(test)]
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
    // The interfaces the plan shuts, by device: their cables' far ends go down too.
    let mut shut: Vec<(String, Vec<String>)> = Vec::new();
    db.each_config(|hostname, os, stored| {
        let vendor = Vendor::from_os(os);
        let changed = removed.contains(&hostname) || lines.contains_key(hostname);
        let before = changed.then(|| parser_for(vendor).parse(stored));
        if removed.contains(&hostname) {
            if let Some(b) = &before {
                shut.push((hostname.to_owned(), cabling::shut(b, None)));
            }
            return;
        }
        let text = match lines.get(hostname) {
            Some(l) => crate::dialect::candidate_text(vendor, stored, l),
            None => stored.to_owned(),
        };
        let mut config = parser_for(vendor).parse(&text);
        if let Some(b) = &before {
            shut.push((hostname.to_owned(), cabling::shut(b, Some(&config))));
        }
        crate::checks::model::link_interfaces(hostname, &mut config, &far);
        devices.push((hostname.to_owned(), vendor, config, text));
    })?;
    let cables = db.cable_ends()?;
    let shut: Vec<(&str, Vec<String>)> =
        shut.iter().map(|(h, i)| (h.as_str(), i.clone())).collect();
    let down = cabling::far_ends(&cables, &shut);
    for (h, _, config, _) in devices.iter_mut() {
        if let Some(ifnames) = down.get(h.as_str()) {
            cabling::take_down(config, ifnames);
        }
    }
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
    Ok((super::rib::network(&inputs), addresses))
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

/// The devices whose configuration as the routing reads it `plan` changes (the ones it
/// removes among them), in hostname order: where forwarding is not compared, whether the
/// plan could move it at all. Each configured device is parsed twice, nothing else.
pub fn changes_routing(db: &StateDb, plan: &Plan) -> Result<Vec<String>, StateError> {
    let mut out: Vec<String> = removed_devices(plan)
        .into_iter()
        .map(str::to_owned)
        .collect();
    for (hostname, lines) in crate::dialect::plan_lines(plan) {
        let Some((os, stored)) = db.os_and_config(&hostname)? else {
            continue;
        };
        let vendor = Vendor::from_os(&os);
        let text = crate::dialect::candidate_text(vendor, &stored, &lines);
        let (was, is) = (
            parser_for(vendor).parse(&stored),
            parser_for(vendor).parse(&text),
        );
        let now = DeviceInput {
            hostname: &hostname,
            vendor,
            config: &was,
            text: &stored,
        };
        let after = DeviceInput {
            config: &is,
            text: &text,
            ..now
        };
        let sides = [scope::Sides {
            now,
            after: Some(after),
        }];
        if scope::changed(&sides).first().copied().unwrap_or(true) {
            out.push(hostname);
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The devices whose RIBs differ between the stored model and the candidate `after` (or
/// that have static routes left uninstalled by the plan), in hostname order; `keep`
/// filters the rows compared; `visit` is shown every kept device's RIB after the plan,
/// one at a time.
pub fn diff(
    db: &StateDb,
    before: &RoutingModel,
    after: &Candidate,
    keep: &dyn Fn(&Route) -> bool,
    visit: &mut dyn FnMut(&DeviceRib),
) -> Result<Vec<RouteChange>, StateError> {
    let mut out = Vec::new();
    for name in before.hostnames() {
        let old = before.device(db, name)?;
        let recomputed = after.recomputed(name);
        let new = if recomputed {
            after.rib_once(name, &|_| None)
        } else if after.keeps(name) {
            // Not recomputed: its RIB is the one it has now.
            if let Some(r) = &old {
                visit(r);
            }
            continue;
        } else {
            None
        };
        if let Some(r) = &new {
            visit(r);
        }
        let new = new.as_deref();
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
