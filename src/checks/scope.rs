//! The candidate's checks recomputed only where a plan reaches.
//!
//! A device's rows (its duplicate owners, its overlaps, its peerings, its references)
//! depend on itself and on the devices *related* to it: those holding an address range
//! that overlaps one of its own, or one it refers to, and those its cables join. What a
//! device holds: every interface subnet (a management interface's address alone, which
//! is all the checks read of one); what it refers to: every BGP peer address, listen
//! range and local address. Two devices that only refer to the same address (two
//! clients of one route reflector) are not related: neither reads the other. For the
//! devices C a plan changes (or removes), A = C and every device related to C before or
//! after the plan: no other device's rows can change. After the plan, the rows about A
//! are computed on A and the devices related to A (S): only A's own peerings and
//! references are made, and the address checks (duplicates, overlaps) read A alone (see
//! [`about`]). Before it, A's peerings and references are the imported rows of A's
//! devices, and the address checks are made on A alone too. The candidate's findings
//! are the imported ones with A's old rows replaced by its new ones.
//! `scope_tests.rs` checks this equals the whole recomputation on generated networks
//! under random changes.

use super::model::Model;
use super::{bgp, Findings};
use crate::model::BgpPeer;
use crate::network::ParsedDevice;
use ipnet::IpNet;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

#[cfg(test)]
#[path = "scope_tests.rs"]
pub(crate) mod tests;

/// Above this share of the network reached, the whole network is checked again: the
/// scope would save little.
const MOST: f64 = 0.5;

/// Every device's footprint, as address ranges, and its cables: what relates devices.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Footprints {
    /// The state version.
    pub state_version: i64,
    /// Hostnames, in the parsed configurations' order (by hostname).
    #[serde(deserialize_with = "crate::network::store::sized")]
    pub hostnames: Vec<String>,
    /// Whether every device decoded: a device that did not has no footprint, so no
    /// plan is scoped on these footprints (the whole candidate is checked).
    pub complete: bool,
    /// (first address, last address, device, held — not only referred to), sorted;
    /// IPv4 as IPv4-mapped addresses.
    #[serde(deserialize_with = "crate::network::store::sized")]
    ranges: Vec<(u128, u128, u32, bool)>,
    /// The distinct widths (last − first) of the ranges, for finding those holding an
    /// address.
    #[serde(deserialize_with = "crate::network::store::sized")]
    widths: Vec<u128>,
    /// Cabled device pairs, both ways, sorted.
    #[serde(deserialize_with = "crate::network::store::sized")]
    cables: Vec<(u32, u32)>,
}

fn span(p: &IpNet) -> (u128, u128) {
    let t = p.trunc();
    match (t.network(), t.broadcast()) {
        (std::net::IpAddr::V4(a), std::net::IpAddr::V4(b)) => (
            u128::from(a.to_ipv6_mapped()),
            u128::from(b.to_ipv6_mapped()),
        ),
        (a, b) => (ip128(a), ip128(b)),
    }
}

fn ip128(a: std::net::IpAddr) -> u128 {
    match a {
        std::net::IpAddr::V4(v) => u128::from(v.to_ipv6_mapped()),
        std::net::IpAddr::V6(v) => u128::from(v),
    }
}

/// A device's footprint: the address ranges it holds (true) or refers to (false).
pub fn footprint(d: &ParsedDevice) -> Vec<(u128, u128, bool)> {
    let mut out = Vec::new();
    for i in &d.config.interfaces {
        let management = crate::import::links::is_management(i);
        for a in &i.addresses {
            if management {
                let x = ip128(a.address.addr());
                out.push((x, x, true));
            } else {
                let (lo, hi) = span(&a.address);
                out.push((lo, hi, true));
            }
        }
    }
    if let Some(bgp) = &d.config.bgp {
        for n in &bgp.neighbors {
            match &n.peer {
                BgpPeer::Address(a) => out.push((ip128(*a), ip128(*a), false)),
                BgpPeer::ListenRange(r) => {
                    let (lo, hi) = span(r);
                    out.push((lo, hi, false));
                }
                BgpPeer::Interface(_) => {}
            }
            if let Some(a) = n.local_address {
                out.push((ip128(a), ip128(a), false));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The hostnames device `d`'s cables lead to.
fn cabled(d: &ParsedDevice) -> impl Iterator<Item = &str> {
    d.config
        .interfaces
        .iter()
        .filter_map(|i| i.linked_to.as_deref().map(|(h, _)| h.as_str()))
}

impl Footprints {
    /// The footprints of every device, given in hostname order (the parsed
    /// configurations'); when one does not decode (None), none is used.
    pub fn of(
        state_version: i64,
        devices: impl Iterator<Item = Option<Arc<ParsedDevice>>>,
    ) -> Footprints {
        let mut f = Footprints {
            state_version,
            complete: true,
            ..Footprints::default()
        };
        let mut far: Vec<(u32, String)> = Vec::new();
        for (i, d) in devices.enumerate() {
            let i = i as u32;
            let Some(d) = d else {
                return Footprints {
                    state_version,
                    ..Footprints::default()
                };
            };
            f.hostnames.push(d.hostname.clone());
            f.ranges.extend(
                footprint(&d)
                    .into_iter()
                    .map(|(lo, hi, held)| (lo, hi, i, held)),
            );
            far.extend(cabled(&d).map(|h| (i, h.to_owned())));
        }
        for (i, h) in far {
            if let Some(j) = f.device(&h) {
                f.cables.extend([(i, j), (j, i)]);
            }
        }
        f.ranges.sort_unstable();
        f.cables.sort_unstable();
        f.cables.dedup();
        let mut widths: Vec<u128> = f.ranges.iter().map(|r| r.1 - r.0).collect();
        widths.sort_unstable();
        widths.dedup();
        f.widths = widths;
        f
    }

    /// The device numbered by hostname.
    pub fn device(&self, hostname: &str) -> Option<u32> {
        self.hostnames
            .binary_search_by(|h| h.as_str().cmp(hostname))
            .ok()
            .map(|i| i as u32)
    }

    /// Adds to `out` every device related through the range `(lo, hi)`, held or only
    /// referred to: the devices holding a range that overlaps it, and when it is held,
    /// those referring to one too.
    fn overlapping(&self, (lo, hi, held): (u128, u128, bool), out: &mut BTreeSet<u32>) {
        let relates = |r: &&(u128, u128, u32, bool)| held || r.3;
        // Ranges starting inside [lo, hi].
        let from = self.ranges.partition_point(|r| r.0 < lo);
        out.extend(
            self.ranges[from..]
                .iter()
                .take_while(|r| r.0 <= hi)
                .filter(relates)
                .map(|r| r.2),
        );
        // Ranges starting before `lo` that reach it: every range is a prefix, so one
        // holding `lo` and wider than [lo, hi] starts at `lo` with its low bits cleared.
        for &w in self.widths.iter().filter(|&&w| w > hi - lo) {
            let start = lo & !w;
            if start >= lo {
                continue;
            }
            let at = self.ranges.partition_point(|r| r.0 < start);
            out.extend(
                self.ranges[at..]
                    .iter()
                    .take_while(|r| r.0 == start)
                    .filter(|r| r.1 >= lo)
                    .filter(relates)
                    .map(|r| r.2),
            );
        }
    }

    /// Adds the devices related to one with `footprint`.
    pub(super) fn related(&self, footprint: &[(u128, u128, bool)], out: &mut BTreeSet<u32>) {
        for r in footprint {
            self.overlapping(*r, out);
        }
    }

    /// Adds the devices cabled to `d`.
    pub(super) fn cabled_to(&self, d: u32, out: &mut BTreeSet<u32>) {
        let at = self.cables.partition_point(|c| c.0 < d);
        out.extend(
            self.cables[at..]
                .iter()
                .take_while(|c| c.0 == d)
                .map(|c| c.1),
        );
    }
}

/// The candidate's findings, recomputed only where the plan reaches: `imported` is the
/// whole network's, `changed` the plan's devices as it leaves them, `removed` those it
/// takes out, `load` decodes devices by number. None when the plan reaches most of the
/// network (or a device `load` cannot give): the caller checks the whole network then.
pub fn findings(
    imported: &Findings,
    footprints: &Footprints,
    changed: &[Arc<ParsedDevice>],
    removed: &[&str],
    load: impl Fn(u32) -> Option<Arc<ParsedDevice>> + Sync,
) -> Option<Findings> {
    within(imported, footprints, changed, removed, load, MOST)
}

/// [`findings`], falling back above `most` of the network reached.
fn within(
    imported: &Findings,
    footprints: &Footprints,
    changed: &[Arc<ParsedDevice>],
    removed: &[&str],
    load: impl Fn(u32) -> Option<Arc<ParsedDevice>> + Sync,
    most: f64,
) -> Option<Findings> {
    if !footprints.complete {
        return None;
    }
    let total = footprints.hostnames.len();
    let mut c: BTreeSet<u32> = BTreeSet::new();
    for h in changed
        .iter()
        .map(|d| d.hostname.as_str())
        .chain(removed.iter().copied())
    {
        c.insert(footprints.device(h)?);
    }
    // A device read from the store, if it is the one the footprints name.
    let fetch =
        |i: u32| load(i).filter(|d| footprints.hostnames.get(i as usize) == Some(&d.hostname));
    let mut base: HashMap<u32, Arc<ParsedDevice>> = HashMap::new();
    let get = |i: u32, base: &mut HashMap<u32, Arc<ParsedDevice>>| -> Option<Arc<ParsedDevice>> {
        if let Some(d) = base.get(&i) {
            return Some(Arc::clone(d));
        }
        let d = fetch(i)?;
        base.insert(i, Arc::clone(&d));
        Some(d)
    };
    // The devices not read yet are decoded on two threads: 5,642 of them for a
    // 50,000-device decommission.
    let read_all = |ids: &BTreeSet<u32>, base: &mut HashMap<u32, Arc<ParsedDevice>>| {
        let missing: Vec<u32> = ids
            .iter()
            .copied()
            .filter(|i| !base.contains_key(i))
            .collect();
        let decode = |part: &[u32]| -> Vec<(u32, Option<Arc<ParsedDevice>>)> {
            part.iter().map(|&i| (i, fetch(i))).collect()
        };
        let (first, second) = missing.split_at(missing.len() / 2);
        let (first, second) = crate::parallel::both(|| decode(first), || decode(second));
        for (i, d) in first.into_iter().chain(second) {
            base.insert(i, d?);
        }
        Some(())
    };
    let after_prints: Vec<Vec<(u128, u128, bool)>> = changed.iter().map(|d| footprint(d)).collect();
    // A: the changed devices and every device related to them, before or after.
    let mut a = c.clone();
    for &i in &c {
        footprints.related(&footprint(&*get(i, &mut base)?), &mut a);
        footprints.cabled_to(i, &mut a);
    }
    for p in &after_prints {
        footprints.related(p, &mut a);
    }
    // S: A and every device related to A, before or after.
    let mut s = a.clone();
    for p in &after_prints {
        footprints.related(p, &mut s);
    }
    read_all(&a, &mut base)?;
    for &i in &a {
        footprints.related(&footprint(&*get(i, &mut base)?), &mut s);
        footprints.cabled_to(i, &mut s);
        if s.len() as f64 > most * total as f64 {
            tracing::debug!("candidate checks: the plan reaches most of the network");
            return None;
        }
    }
    tracing::debug!(
        "candidate checks: {} of {total} devices reached, {} read",
        a.len(),
        s.len()
    );
    read_all(&s, &mut base)?;
    let mut before = Vec::with_capacity(s.len());
    for &i in &s {
        before.push((a.contains(&i), get(i, &mut base)?));
    }
    let by_name: HashMap<&str, &Arc<ParsedDevice>> =
        changed.iter().map(|d| (d.hostname.as_str(), d)).collect();
    let after: Vec<(bool, Arc<ParsedDevice>)> = before
        .iter()
        .filter(|(_, d)| !removed.contains(&d.hostname.as_str()))
        .map(|(held, d)| {
            let d = by_name.get(d.hostname.as_str()).copied().unwrap_or(d);
            (*held, Arc::clone(d))
        })
        .collect();
    // A's own peerings and references before the plan are the imported ones: each is
    // its device's row, read on the devices related to it, all of them in S
    // ([`super::whole`]). Only the address checks are made again on A.
    let (_, reached) = models(&before);
    let mine = hostnames(&reached);
    let old = Findings {
        duplicates: super::duplicates(&reached),
        overlaps: super::overlaps(&reached),
        bgp: imported
            .bgp
            .iter()
            .filter(|r| mine.contains(r.node.as_str()))
            .cloned()
            .collect(),
        references: imported
            .references
            .iter()
            .filter(|r| mine.contains(r.node.as_str()))
            .cloned()
            .collect(),
    };
    let new = about(&after);
    drop(mine);
    crate::parallel::drop_aside((base, before, after, reached));
    Some(Findings {
        duplicates: replaced(&imported.duplicates, old.duplicates, new.duplicates)?,
        overlaps: replaced(&imported.overlaps, old.overlaps, new.overlaps)?,
        bgp: replaced(&imported.bgp, old.bgp, new.bgp)?,
        references: replaced(&imported.references, old.references, new.references)?,
    })
}

/// The rows of the checks about the devices marked (A), on `devices` (S). Only A's own
/// peerings and references are made, reading all of S as far ends. The address checks
/// (duplicates, overlaps) read A alone: a group or pair whose rows the plan changes holds
/// a changed device, every member of it is related to that device and so in A; a group
/// without one has the same rows before and after, which cancel out.
fn about(devices: &[(bool, Arc<ParsedDevice>)]) -> Findings {
    let (all, reached) = models(devices);
    Findings {
        duplicates: super::duplicates(&reached),
        overlaps: super::overlaps(&reached),
        bgp: bgp::compatibility_of(&all, |d| devices[d].0),
        references: super::references(&reached),
    }
}

/// Every device of `devices` and the marked ones alone, as two models.
pub(super) fn models(devices: &[(bool, Arc<ParsedDevice>)]) -> (Model, Model) {
    let all = Model {
        devices: devices.iter().map(|(_, d)| Arc::clone(d)).collect(),
    };
    let marked = Model {
        devices: devices
            .iter()
            .filter(|(a, _)| *a)
            .map(|(_, d)| Arc::clone(d))
            .collect(),
    };
    (all, marked)
}

/// The hostnames of a model's devices.
pub(super) fn hostnames(m: &Model) -> std::collections::HashSet<&str> {
    m.devices.iter().map(|d| d.hostname.as_str()).collect()
}

/// `all` with the rows `old` (each taken once) replaced by `new`, sorted as the checks
/// sort their rows; None when `all` lacks one of `old` (then the scope missed something
/// and the whole network is checked instead).
fn replaced<T: Ord + Clone>(all: &[T], mut old: Vec<T>, new: Vec<T>) -> Option<Vec<T>> {
    old.sort();
    let mut taken = vec![false; old.len()];
    let mut out: Vec<T> = all
        .iter()
        .filter(|r| {
            let from = old.partition_point(|o| o < *r);
            match (from..old.len())
                .take_while(|&k| old[k] == **r)
                .find(|&k| !taken[k])
            {
                Some(k) => {
                    taken[k] = true;
                    false
                }
                None => true,
            }
        })
        .cloned()
        .collect();
    if taken.iter().any(|t| !t) {
        return None;
    }
    out.extend(new);
    out.sort();
    Some(out)
}
