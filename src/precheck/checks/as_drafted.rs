//! The configuration is the one olav drafted for the request (its digest in the header).

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// The configuration is the one olav drafted for the request.
pub const CHECK: Check = Check {
    codes: &["precheck.as_drafted"],
    name: "the configuration is the one olav drafted for the request",
    reads: "the plan's header digest and blocks",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    if plan.header.drafted.is_empty() {
        return Ok(out.not_applicable());
    }
    if plan.header.drafted != plan.config_digest() {
        out.add(
                Severity::Warning,
                "implementation",
                "the implementation or rollback differs from what olav drafted for the request: lines edited by hand are checked only where a check covers them (addresses, links, sessions, static routes, MTU, announcements, ACLs and firewall filters); IGP settings and the rest are not",
                "review every edited line, or draft the plan again",
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
    fn a_configuration_edited_after_drafting_warns() {
        let mut p = description_only();
        p.header.drafted = "not the digest".into();
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(&o, Severity::Warning, "differs from what olav drafted"),
            "{o:?}"
        );
    }

    #[test]
    fn the_drafted_configuration_passes_and_no_digest_is_not_applicable() {
        let net = triangle();
        let mut p = description_only();
        assert!(!run(&CHECK, &net, &p).applies);
        p.header.drafted = p.config_digest();
        assert!(run(&CHECK, &net, &p).passed());
    }
}
