//! The state has not changed, since the plan was drafted, where the plan depends on it.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// Drafted against the current state version.
pub const CHECK: Check = Check {
    codes: &["precheck.drift"],
    name: "drafted against the current state version",
    reads: "the plan's state version and devices; the candidate's link ends and sessions; device versions",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let cand = &cx.cand;
    let state_version = cx.state_version;
    let v = plan.header.state_version;
    if v == state_version {
        return Ok(out.ran());
    }
    // What the plan depends on: the devices it targets or configures, the far ends
    // of the links it touches, the far ends of the sessions it changes.
    let mut deps: std::collections::BTreeSet<String> = crate::state::plans::plan_devices(plan)
        .into_iter()
        .collect();
    deps.extend(cand.touched_link_ends());
    deps.extend(cand.lost_sessions.iter().map(|s| s.device.clone()));
    match cx.db.changed_since(v)? {
            None => out.add(
                Severity::Warning,
                "state",
                format!("the plan was drafted against state version {v}, which is no longer known (now {state_version})"),
                "re-read the plan against the current state, or re-draft it",
            ),
            Some(c) => {
                let hit = |v: &[String]| -> Vec<String> {
                    v.iter().filter(|d| deps.contains(*d)).cloned().collect()
                };
                let (changed, removed) = (hit(&c.changed), hit(&c.removed));
                let elsewhere = c.changed.len() + c.removed.len() + c.added.len()
                    - changed.len()
                    - removed.len();
                let mut parts = Vec::new();
                if !changed.is_empty() {
                    parts.push(format!("config changed on {}", changed.join(", ")));
                }
                if !removed.is_empty() {
                    parts.push(format!("gone: {}", removed.join(", ")));
                }
                if parts.is_empty() {
                    out.add(
                        Severity::Info,
                        "state",
                        format!("the state moved from version {v} to {state_version}; {elsewhere} device(s) changed, none that this plan depends on"),
                        "nothing to do",
                    );
                } else {
                    out.add(
                        Severity::Warning,
                        "state",
                        format!("the plan was drafted against state version {v}, the state is now version {state_version}: {}", parts.join("; ")),
                        "re-read the plan against the changes, or re-draft it",
                    );
                }
            }
        }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn a_plan_drafted_against_an_unknown_state_version_warns() {
        let mut p = description_only();
        p.header.state_version = 7;
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Warning,
                "state version 7, which is no longer known"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn a_plan_drafted_against_the_current_state_passes() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
