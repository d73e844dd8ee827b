//! Devices left with a single path to the anchors: a new single point of failure.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// No new single point of failure.
pub const CHECK: Check = Check {
    codes: &["precheck.degraded"],
    name: "no device is left with a single point of failure",
    reads: "the recomputed blast radius's degraded devices",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    if !cx.blast.degraded.is_empty() {
        out.add(
            Severity::Warning,
            "blast radius",
            format!(
                "new single point of failure for: {}",
                cx.blast.degraded.join(", ")
            ),
            "make sure the remaining path is healthy before the window",
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
    fn a_device_left_with_one_path_warns() {
        let p = plan(
            "shutdown_interface",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", "interface GigabitEthernet0/0\n shutdown")],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(&o, Severity::Warning, "new single point of failure for: r3"),
            "{o:?}"
        );
    }

    #[test]
    fn a_change_that_keeps_every_path_passes() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
