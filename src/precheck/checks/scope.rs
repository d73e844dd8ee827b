//! A narrow request's plan configures only what the request names.

use super::{Check, Context, Findings, Outcome};
use crate::state::StateError;

/// The configuration stays within what the request names.
pub const CHECK: Check = Check {
    codes: &["precheck.scope"],
    name: "the configuration stays within what the request names",
    reads: "the plan's targets and blocks",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    match crate::precheck::scope::check(cx.plan) {
        None => Ok(out.not_applicable()),
        Some(found) => {
            out.extend(found);
            Ok(out.ran())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn interface_change(lines: &str) -> Outcome {
        let p = plan(
            "modify_interface",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", lines)],
            &[],
        );
        run(&CHECK, &triangle(), &p)
    }

    #[test]
    fn an_interface_change_that_reaches_further_fails() {
        let o = interface_change("interface GigabitEthernet0/0\n mtu 9000\nrouter ospf 1\n network 10.0.0.0 0.255.255.255 area 0");
        assert!(
            o.findings.iter().any(|f| f.severity == Severity::Error),
            "{o:?}"
        );
    }

    #[test]
    fn an_interface_change_within_its_interface_passes_and_other_requests_are_not_applicable() {
        assert!(interface_change("interface GigabitEthernet0/0\n mtu 9000").passed());
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }

    use super::super::Outcome;
}
