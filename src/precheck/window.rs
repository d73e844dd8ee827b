//! The change window as a whole: every open plan applied together, in their order, and
//! the effects on the network that appear only then (`docs/precheck.md`, "The change
//! window as a whole").
//!
//! Two plans that each remove one of a border's two iBGP sessions each pass alone; together
//! they cut it off. The combined plan — every block of every plan, in order; their targets
//! together — runs the same checks; an effect on the network (a device cut off, a session
//! lost, a flow broken, …) that no plan has alone is an effect of the combination. Each
//! plan is then left out in turn: the plans without which the effect disappears are the
//! ones involved (all of them when no single one is needed). The finding keeps the
//! severity the checks give it in the combined plan, as one plan making the whole change
//! would get.

use super::checks::{run_all, Context};
use super::{Finding, Options};
use crate::plan::Plan;
use crate::state::{StateDb, StateError};
use serde::Serialize;
use std::collections::BTreeSet;

/// The codes of effects on the network: what a combination can cause that no plan
/// causes alone. Findings about a plan's own text, registration or claims are not.
const EFFECTS: &[&str] = &[
    "precheck.isolated",
    "precheck.lockout",
    "precheck.degraded",
    "precheck.single_point",
    "precheck.withdrawn",
    "precheck.services",
    "precheck.sessions_lost",
    "precheck.sessions_split",
    "precheck.reachability",
    "precheck.loop",
    "precheck.blackhole",
    "precheck.announcements",
    "precheck.redundancy",
];

/// An effect only the open plans together have.
#[derive(Debug, Clone, Serialize)]
pub struct Together {
    /// The finding, as the combined plan gives it.
    pub finding: Finding,
    /// The plans involved, by id, in the window's order.
    pub plans: Vec<String>,
}

/// One open plan: its id and contents, and what its own pre-check found.
pub struct Open<'a> {
    /// Plan id.
    pub id: &'a str,
    /// The plan.
    pub plan: &'a Plan,
    /// Its own findings.
    pub alone: &'a [Finding],
}

type Key = (&'static str, String, String);

/// What a finding is about, for comparing the plans together with the plans alone: a
/// device cut off is one key per device (the combination lists them together); a prefix
/// announced with nothing behind it is the border's and the prefix's whatever the peer
/// (a new session of one plan hears what another plan leaves dark).
fn keys(f: &Finding) -> Vec<Key> {
    // A network withdrawn is one key whatever the severity: a removal's grouped row
    // covers them all, and the combination (declared by none of its plans) reports each
    // on its own.
    if f.code == "precheck.withdrawn" && f.element != "routes" {
        return vec![(f.code, f.element.clone(), String::new())];
    }
    // A grouped finding (networks withdrawn, devices cut off) is one key per element it
    // covers, every one of them, not only those its message names.
    if !f.covers.is_empty() {
        return f
            .covers
            .iter()
            .map(|n| (f.code, n.clone(), String::new()))
            .collect();
    }
    if let Some((border, rest)) = f.element.split_once(" → ") {
        if let Some((_, prefix)) = rest.split_once(": ") {
            return vec![(f.code, format!("{border}: {prefix}"), f.message.clone())];
        }
    }
    // A finding that names its element (a session, a flow, a service, a device) is the
    // same effect whatever its wording: the combination judges it as declared by none, so
    // a plan's own effect reads differently there. A service lost whole only together
    // is news beside one only degraded alone.
    match f.code {
        "precheck.services" => {
            let down = if f.message.contains("service down") {
                "down"
            } else {
                ""
            };
            vec![(f.code, f.element.clone(), down.to_owned())]
        }
        "precheck.sessions_lost"
        | "precheck.sessions_split"
        | "precheck.lockout"
        | "precheck.reachability"
        | "precheck.loop"
        | "precheck.blackhole"
        | "precheck.redundancy" => vec![(f.code, f.element.clone(), String::new())],
        _ => vec![(f.code, f.element.clone(), f.message.clone())],
    }
}

fn effects(db: &StateDb, plans: &[&Plan], opts: &Options) -> Result<Vec<Finding>, StateError> {
    let Some(combined) = combine(plans) else {
        return Ok(Vec::new());
    };
    let cx = Context::build(db, "(the open plans together)", &combined, opts)?;
    Ok(run_all(&cx)?
        .findings
        .into_iter()
        .filter(|f| EFFECTS.contains(&f.code))
        .collect())
}

/// The plans as one: their blocks and rollbacks in order (the rollback undoes the last
/// plan first), their targets together. Its intent is none of theirs: what each plan
/// declares is in its own findings, so whatever only the combination does is declared by
/// none (two session removals that together cut a border off are not "a removal's
/// point"); the devices the decommissions remove stay removed.
fn combine(plans: &[&Plan]) -> Option<Plan> {
    let first = plans.first()?;
    let mut out = (*first).clone();
    out.header.plan_id = "open-plans-together".into();
    out.header.targets = plans
        .iter()
        .flat_map(|p| p.header.targets.iter().cloned())
        .collect();
    out.header.removes = plans
        .iter()
        .flat_map(|p| crate::checks::model::removed_devices(p))
        .map(str::to_owned)
        .collect();
    out.header.intent = "combined".into();
    out.implementation = plans
        .iter()
        .flat_map(|p| p.implementation.iter().cloned())
        .collect();
    out.rollback = plans
        .iter()
        .rev()
        .flat_map(|p| p.rollback.iter().cloned())
        .collect();
    out.implementation_notes = plans
        .iter()
        .map(|p| p.implementation_notes.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    Some(out)
}

/// Up to how many open plans an effect of the combination is traced to the plans
/// involved (one combination without each plan).
pub const ATTRIBUTED: usize = 24;

/// The effects that only the open plans together have, with the plans involved in each.
pub fn together(
    db: &StateDb,
    open: &[Open<'_>],
    opts: &Options,
) -> Result<Vec<Together>, StateError> {
    if open.len() < 2 {
        return Ok(Vec::new());
    }
    let mut alone: BTreeSet<Key> = open
        .iter()
        .flat_map(|o| o.alone.iter().flat_map(keys))
        .collect();
    // A device a plan decommissions goes dark on purpose: cut off in the combination
    // (whose intent is no longer that plan's) is not news.
    for o in open {
        for device in crate::checks::model::removed_devices(o.plan) {
            alone.insert(("precheck.isolated", device.to_owned(), String::new()));
        }
    }
    let is_new = |f: &Finding, seen: &BTreeSet<Key>| keys(f).iter().any(|k| !seen.contains(k));
    let plans: Vec<&Plan> = open.iter().map(|o| o.plan).collect();
    let new: Vec<Finding> = effects(db, &plans, opts)?
        .into_iter()
        .filter(|f| is_new(f, &alone))
        .collect();
    if new.is_empty() {
        return Ok(Vec::new());
    }
    let mut involved: Vec<Vec<String>> = vec![Vec::new(); new.len()];
    // Singling out the plans involved takes one combination per plan, each as large as
    // all of them: beyond ATTRIBUTED plans that grows with their square, so the effect
    // is laid on every open plan (no one singled out), and says so.
    let attributed = open.len() <= ATTRIBUTED;
    let mut new = new;
    if !attributed {
        for f in &mut new {
            f.message.push_str(&format!(
                " (with {} open plans, olav does not single out the plans involved: each is named)",
                open.len()
            ));
        }
    }
    if attributed && open.len() > 2 {
        for (i, o) in open.iter().enumerate() {
            let without: Vec<&Plan> = plans
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, p)| *p)
                .collect();
            let left: BTreeSet<Key> = effects(db, &without, opts)?.iter().flat_map(keys).collect();
            for (f, who) in new.iter().zip(involved.iter_mut()) {
                if is_new(f, &left) {
                    who.push(o.id.to_owned());
                }
            }
        }
    }
    let mut out: Vec<Together> = new
        .into_iter()
        .zip(involved)
        .map(|(finding, who)| Together {
            finding,
            plans: if who.is_empty() {
                open.iter().map(|o| o.id.to_owned()).collect()
            } else {
                who
            },
        })
        .collect();
    out.sort_by_key(|t| t.finding.severity);
    Ok(out)
}
