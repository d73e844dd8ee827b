//! The plan file reads: its header and sections are there. An unreadable plan is the one
//! finding of its pre-check (no other check can run); a plan that reads passes.

use super::{Check, Context, Findings, Outcome};
use crate::plan::Plan;
use crate::precheck::{Finding, Severity};
use crate::state::StateError;

/// The plan reads.
pub const CHECK: Check = Check {
    codes: &["precheck.plan_unreadable"],
    name: "the plan reads",
    reads: "the plan file",
    run,
};

/// Reads a plan's text; what is wrong with it as the finding when it does not read.
pub fn read(plan_path: &str, text: &str) -> Result<Plan, Box<Finding>> {
    Plan::from_markdown(text).map_err(|e| {
        Box::new(Finding {
            code: CHECK.codes[0],
            severity: Severity::Error,
            element: plan_path.to_owned(),
            message: format!("the plan cannot be read: {e}"),
            suggestion: "re-draft the plan, or restore what is missing (docs/plan-format.md)"
                .into(),
            path: None,
            covers: Vec::new(),
        })
    })
}

/// A context exists only for a plan that was read.
fn run(_: &Context) -> Result<Outcome, StateError> {
    Ok(Findings::new(CHECK.codes[0]).ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn a_plan_that_does_not_read_is_the_finding() {
        let f = super::read("p.md", "no header here").expect_err("unreadable");
        assert_eq!(f.code, CHECK.codes[0]);
        assert_eq!(f.severity, Severity::Error);
        assert!(f.message.contains("cannot be read"), "{f:?}");
    }

    #[test]
    fn a_plan_that_reads_passes() {
        let p = description_only();
        let back = super::read("p.md", &p.to_markdown()).expect("reads");
        assert_eq!(back.header.plan_id, p.header.plan_id);
        assert!(run(&CHECK, &triangle(), &p).passed());
    }
}
