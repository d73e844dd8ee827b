//! Lock-out: a device the plan configures that the plan itself cuts off from the
//! management network before its own step, or before its rollback step — after which
//! nothing can send it the rest of the change or the rollback (`docs/precheck.md`,
//! "Lock-out").
//!
//! The plan is applied block by block, in its order, then its rollback block by block;
//! before each block the device it configures must still be reachable for management.
//! olav does not know where the management station sits, so:
//! - a device managed **out of band** (its management address on a management port or
//!   in a management VRF) is cut off only when the plan shuts that interface or takes
//!   its address away;
//! - a device managed **in band** (its management address on a data-plane interface or
//!   loopback, or no management address known) is reached through the network: it is cut
//!   off when the change leaves it no path to a border, core or external peer (the blast
//!   radius's isolated devices), or when the plan shuts the interface that holds its
//!   management address or takes that address away.
//!
//! A device the plan decommissions is meant to go dark and is not judged.

use super::blast::{Blast, Graph, Spec};
use super::candidate::Candidate;
use super::context::blast_spec;
use crate::model::management::is_management;
use crate::model::Vendor;
use crate::plan::{ConfigBlock, Plan};
use crate::state::{StateDb, StateError};
use std::collections::BTreeMap;

/// Which list a block belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The implementation.
    Step,
    /// The rollback.
    Rollback,
}

/// A block that cannot reach its device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lockout {
    /// The device the block configures.
    pub device: String,
    /// Implementation or rollback.
    pub phase: Phase,
    /// The block's number in its list, from 1.
    pub step: usize,
    /// The blocks before it after which the device is first cut off (`step 2
    /// (alpha-dist-1)`, `rollback step 1 (…)`).
    pub cut_by: String,
    /// How the device is managed and what the change does to it.
    pub how: String,
    /// The platform's own rollback safety the plan names for this device, if any.
    pub safety: Option<&'static str>,
}

/// How a device is reached for management.
enum Access {
    /// On this interface of its own, a management port or in a management VRF.
    OutOfBand { ifname: String, address: String },
    /// Through the network: how, and the (interface, address) that holds its
    /// management address when one does.
    InBand(String, Option<(String, String)>),
}

impl Access {
    /// Whether the plan, as `cand` leaves the device, takes its management address away
    /// (shuts the interface that holds it or readdresses it).
    fn address_lost(&self, cand: Option<&Candidate>, device: &str) -> bool {
        let held = match self {
            Access::OutOfBand { ifname, address } => Some((ifname, address)),
            Access::InBand(_, held) => held.as_ref().map(|(i, a)| (i, a)),
        };
        held.zip(cand)
            .is_some_and(|((ifname, address), c)| management_lost(c, device, ifname, address))
    }
}

fn access(db: &StateDb, device: &str) -> Result<Access, StateError> {
    Ok(match db.management_access(device)? {
        Some(m) => match m.held_on {
            Some((ifname, vrf)) if is_management(&ifname, &vrf) => Access::OutOfBand {
                ifname,
                address: m.address,
            },
            Some((ifname, _)) => Access::InBand(
                format!("managed in band ({} on {ifname})", m.address),
                Some((ifname, m.address)),
            ),
            None => Access::InBand(
                format!(
                    "managed in band (its management address {} is on none of its interfaces)",
                    m.address
                ),
                None,
            ),
        },
        None => Access::InBand(
            "managed in band (no management address known)".to_owned(),
            None,
        ),
    })
}

/// Every block of `plan` (implementation, then rollback) whose device an earlier block
/// has cut off from management.
/// `whole` and `cand` are the whole plan's blast radius and candidate: when the whole plan
/// cuts off none of the devices it configures and no device has two blocks, the blocks are
/// not replayed — a plan whose later block (on another device) restores what an earlier
/// one cut is then judged as a whole (`docs/precheck.md`, "Lock-out").
pub fn find(
    db: &StateDb,
    plan: &Plan,
    graph: &Graph,
    whole: &Blast,
    cand: &Candidate,
) -> Result<Vec<Lockout>, StateError> {
    let decommissioned = crate::checks::model::removed_devices(plan);
    let blocks: Vec<(Phase, usize, &ConfigBlock)> = plan
        .implementation
        .iter()
        .enumerate()
        .map(|(i, b)| (Phase::Step, i + 1, b))
        .chain(
            plan.rollback
                .iter()
                .enumerate()
                .map(|(i, b)| (Phase::Rollback, i + 1, b)),
        )
        .collect();
    let mut accesses: BTreeMap<&str, Access> = BTreeMap::new();
    for (_, _, b) in &blocks {
        if !decommissioned.contains(&b.device.as_str()) && !accesses.contains_key(b.device.as_str())
        {
            accesses.insert(&b.device, access(db, &b.device)?);
        }
    }
    let cut_whole = accesses.iter().any(|(device, how)| {
        how.address_lost(Some(cand), device)
            || matches!(how, Access::InBand(..))
                && whole
                    .isolated
                    .iter()
                    .chain(&whole.removed)
                    .any(|d| d == device)
    });
    let mut seen: Vec<&str> = Vec::new();
    let repeated = plan.implementation.iter().any(|b| {
        let again = seen.contains(&b.device.as_str());
        seen.push(&b.device);
        again
    });
    if !cut_whole && !repeated {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    // Where each device was first cut off: (the block after which, described).
    let mut first_cut: BTreeMap<&str, (String, bool)> = BTreeMap::new();
    // Each configured device's candidate and what it cuts, as its blocks so far leave it:
    // one device's blocks at a time, so that a plan of many blocks parses each device a
    // few times, not the whole plan once per block.
    let mut cut_by_device: BTreeMap<&str, (Candidate, Spec)> = BTreeMap::new();
    for n in 1..blocks.len() {
        let (phase, step, block) = blocks[n - 1];
        let mut partial = plan.clone();
        partial.implementation = blocks[..n]
            .iter()
            .filter(|(_, _, b)| b.device == block.device)
            .map(|(_, _, b)| (*b).clone())
            .collect();
        partial.rollback.clear();
        let cand = Candidate::build(db, &partial)?;
        let spec = blast_spec(&partial, &cand);
        cut_by_device.insert(&block.device, (cand, spec));
        let mut spec = Spec::default();
        for (_, s) in cut_by_device.values() {
            spec.devices.extend(s.devices.iter().cloned());
            spec.interfaces.extend(s.interfaces.iter().cloned());
            spec.links.extend(s.links.iter().cloned());
            spec.peers.extend(s.peers.iter().cloned());
        }
        let blast = graph.blast(&spec);
        let label = match phase {
            Phase::Step => format!("step {step} ({})", block.device),
            Phase::Rollback => format!("rollback step {step} ({})", block.device),
        };
        for (device, how) in &accesses {
            let taken = how.address_lost(cut_by_device.get(device).map(|(c, _)| c), device);
            let isolated = matches!(how, Access::InBand(..))
                && (blast.isolated.iter().any(|d| d == device)
                    || blast.removed.iter().any(|d| d == device));
            if taken || isolated {
                first_cut
                    .entry(device)
                    .or_insert_with(|| (label.clone(), taken));
            } else {
                first_cut.remove(device);
            }
        }
        let (next_phase, next_step, next) = blocks[n];
        let Some(how) = accesses.get(next.device.as_str()) else {
            continue;
        };
        if let Some((cut_by, taken)) = first_cut.get(next.device.as_str()) {
            let vendor = Vendor::from_os(&next.os);
            let safety = crate::dialect::safety::rollback_safety(vendor, &next.text)
                .or_else(|| named_safety(plan, &next.device, vendor));
            out.push(Lockout {
                device: next.device.clone(),
                phase: next_phase,
                step: next_step,
                cut_by: cut_by.clone(),
                how: match how {
                    Access::InBand(w, _) if *taken => format!(
                        "{w}: the plan shuts that interface or takes its address"
                    ),
                    Access::InBand(w, _) => format!(
                        "{w}: no path to any border, core or external peer is left"
                    ),
                    Access::OutOfBand { ifname, address } => format!(
                        "managed out of band ({address} on {ifname}): the plan shuts that interface or takes its address"
                    ),
                },
                safety,
            });
        }
    }
    Ok(out)
}

/// The platform's own rollback safety the plan names for `device` (`commit confirmed`,
/// `reload in`, …), in one of its implementation blocks or in the implementation notes.
pub fn named_safety(plan: &Plan, device: &str, vendor: Vendor) -> Option<&'static str> {
    plan.implementation
        .iter()
        .filter(|b| b.device == device)
        .find_map(|b| crate::dialect::safety::rollback_safety(vendor, &b.text))
        .or_else(|| crate::dialect::safety::rollback_safety(vendor, &plan.implementation_notes))
}

/// Whether the candidate no longer holds `address` up on the device's `ifname`.
fn management_lost(cand: &Candidate, device: &str, ifname: &str, address: &str) -> bool {
    let Some(dev) = cand.devices.get(device) else {
        return false;
    };
    if !cand.touched.contains(device) {
        return false;
    }
    let Ok(address) = address.parse::<std::net::IpAddr>() else {
        return false;
    };
    !dev.cand.interfaces.iter().any(|i| {
        i.admin_up
            && i.name.eq_ignore_ascii_case(ifname)
            && i.addresses.iter().any(|a| a.address.addr() == address)
    })
}
