//! The plan's blast-radius number matches the recomputed one.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// The claimed blast radius matches the recomputed one.
pub const CHECK: Check = Check {
    codes: &["precheck.blast_claim"],
    name: "the claimed blast radius matches the recomputed one",
    reads: "the plan's claimed number; the recomputed blast radius",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let b = &cx.blast;
    let recomputed = b.number();
    // A hand-written plan claims nothing: the recomputed radius is its evidence.
    if plan.header.intent == crate::agents::writer::INTENT {
        return Ok(out.not_applicable());
    }
    match plan.claimed_blast_radius {
            None => out.add(Severity::Error, "blast radius", format!("the plan quotes no blast-radius number; recomputed: {recomputed}"), "add 'Blast-radius number: N' to the Blast radius section"),
            Some(c) if c as usize != recomputed => out.add(
                Severity::Error,
                "blast radius",
                format!("the plan claims {c}, recomputed independently: {recomputed} (removed {} + isolated {})", b.removed.len(), b.isolated.len()),
                "correct the plan's number and its Summary and Risks, or re-draft it",
            ),
            Some(_) => {}
        }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn a_wrong_or_missing_claim_fails() {
        let net = triangle();
        let mut p = description_only();
        p.claimed_blast_radius = Some(5);
        let o = run(&CHECK, &net, &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "the plan claims 5, recomputed independently: 0"
            ),
            "{o:?}"
        );
        p.claimed_blast_radius = None;
        let o = run(&CHECK, &net, &p);
        assert!(
            has(&o, Severity::Error, "quotes no blast-radius number"),
            "{o:?}"
        );
    }

    #[test]
    fn the_right_claim_passes() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
