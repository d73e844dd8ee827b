//! A device the plan configures that an earlier block of the plan (or of its rollback)
//! cuts off from the management network: the rest of the change, or the rollback, can no
//! longer be sent to it.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::lockout::{find, Phase};
use crate::precheck::Severity;
use crate::state::StateError;

/// No lock-out.
pub const CHECK: Check = Check {
    codes: &["precheck.lockout"],
    name: "every device stays reachable for management until its own step and its rollback",
    reads: "the plan's blocks and its rollback's, applied one by one; management addresses; the recomputed blast radius after each block",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    if cx.plan.implementation.is_empty() {
        return Ok(out.not_applicable());
    }
    let t0 = std::time::Instant::now();
    let found = find(cx.db, cx.plan, &cx.graph, &cx.blast, &cx.cand)?;
    tracing::debug!(
        "lock-out: {} block(s) judged in {:?}",
        cx.plan.implementation.len() + cx.plan.rollback.len(),
        t0.elapsed()
    );
    for l in found {
        let which = match l.phase {
            Phase::Step => format!("step {}", l.step),
            Phase::Rollback => format!("rollback step {}", l.step),
        };
        let message = format!(
            "{which} cannot reach {}: {} cuts it off from the management network — {}",
            l.device, l.cut_by, l.how
        );
        match l.safety {
            Some(safety) => out.add(
                Severity::Warning,
                &l.device,
                format!("{message}; the plan relies on `{safety}` to restore it on its own"),
                "the change undoes itself unless it can be confirmed: make sure that is the intent",
            ),
            None => out.add(
                Severity::Error,
                &l.device,
                message,
                match l.phase {
                    Phase::Step => "reorder the plan so that the device that is cut off is configured first (the far side last), or change it from the side that stays reachable",
                    Phase::Rollback => "make the change from the far side (the device that stays reachable), or name the platform's safety in the plan (`commit confirmed`, `reload in`, `configure replace … time`)",
                },
            ),
        }
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    const SHUT_BOTH: &str =
        "interface GigabitEthernet0/0\n shutdown\ninterface GigabitEthernet0/1\n shutdown";
    const OPEN_BOTH: &str =
        "interface GigabitEthernet0/0\n no shutdown\ninterface GigabitEthernet0/1\n no shutdown";

    #[test]
    fn cutting_off_the_device_the_plan_configures_is_an_error() {
        let p = plan(
            "shutdown_interface",
            vec![device("r3")],
            &[("r3", SHUT_BOTH)],
            &[("r3", OPEN_BOTH)],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "rollback step 1 cannot reach r3: step 1 (r3) cuts it off from the management network — managed in band"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn the_platforms_safety_named_in_the_plan_makes_it_a_warning() {
        let mut p = plan(
            "shutdown_interface",
            vec![device("r3")],
            &[("r3", SHUT_BOTH)],
            &[("r3", OPEN_BOTH)],
        );
        p.implementation_notes = "Before the change, on r3: `reload in 10`.".into();
        let o = run(&CHECK, &triangle(), &p);
        assert!(has(&o, Severity::Warning, "relies on `reload in`"), "{o:?}");
        assert!(!o.findings.iter().any(|f| f.severity == Severity::Error));
    }

    #[test]
    fn a_step_after_the_one_that_cuts_its_device_off_is_an_error_the_other_order_is_not() {
        // r1 and r2 shut their links to r3 first, then r3 is configured: too late.
        let r1 = "interface GigabitEthernet0/1\n shutdown";
        let r2 = "interface GigabitEthernet0/1\n shutdown";
        let r3 = "interface GigabitEthernet0/0\n description spare";
        let late = plan(
            "shutdown_interface",
            vec![device("r3")],
            &[("r1", r1), ("r2", r2), ("r3", r3)],
            &[],
        );
        let o = run(&CHECK, &triangle(), &late);
        assert!(
            has(
                &o,
                Severity::Error,
                "step 3 cannot reach r3: step 2 (r2) cuts it off"
            ),
            "{o:?}"
        );
        let first = plan(
            "shutdown_interface",
            vec![device("r3")],
            &[("r3", r3), ("r1", r1), ("r2", r2)],
            &[],
        );
        assert!(run(&CHECK, &triangle(), &first).passed());
    }

    #[test]
    fn a_shutdown_from_the_side_that_stays_reachable_passes() {
        // r3 is cut off, but r1 and r2 — which the plan configures — are not.
        let p = plan(
            "shutdown_interface",
            vec![device("r3")],
            &[
                ("r1", "interface GigabitEthernet0/1\n shutdown"),
                ("r2", "interface GigabitEthernet0/1\n shutdown"),
            ],
            &[
                ("r1", "interface GigabitEthernet0/1\n no shutdown"),
                ("r2", "interface GigabitEthernet0/1\n no shutdown"),
            ],
        );
        assert!(run(&CHECK, &triangle(), &p).passed());
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
