//! The file is the plan registered under its id.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// The file is the plan registered under its id.
pub const CHECK: Check = Check {
    codes: &["precheck.registered_file"],
    name: "the file is the plan registered under its id",
    reads: "the plan's id and path; registered plans",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let plan_path = cx.plan_path;
    let Some(registered) = cx.db.plan(&plan.header.plan_id)? else {
        return Ok(out.not_applicable());
    };
    let here = crate::state::plans::canonical(plan_path);
    if crate::state::plans::canonical(&registered.path) != here {
        out.add(
                Severity::Error,
                plan_path,
                format!(
                    "plan id {} is registered for {}; this is another file with the same id, so its result is not recorded against that plan",
                    plan.header.plan_id, registered.path
                ),
                "pre-check the registered file, or give this file a plan id of its own",
            );
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn another_file_with_a_registered_id_fails() {
        let net = triangle();
        let p = description_only();
        net.db.register_plan(&p, "elsewhere.md").expect("register");
        let o = run(&CHECK, &net, &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "elsewhere.md; this is another file with the same id"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn the_registered_file_passes_and_an_unregistered_plan_is_not_applicable() {
        let net = triangle();
        let p = description_only();
        assert!(!run(&CHECK, &net, &p).applies);
        net.db.register_plan(&p, "plan.md").expect("register");
        assert!(run(&CHECK, &net, &p).passed());
    }
}
