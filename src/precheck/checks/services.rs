//! Services the change hits. A removal's services are its point: shown, warning for
//! critical and high ones down. Any other plan must declare what it hits (PRODUCT.md):
//! an undeclared service hit is an error.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::services::declared_services;
use crate::precheck::Severity;
use crate::state::StateError;

/// Services keep their endpoints, or the plan declares them.
pub const CHECK: Check = Check {
    codes: &["precheck.service_down", "precheck.service_degraded"],
    name: "services keep their endpoints, or the plan declares the ones it hits",
    reads: "the recomputed blast radius's services; the plan's declared services",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let removal = cx.is_removal();
    let declared = declared_services(cx.plan);
    for h in &cx.blast.services {
        let (name, crit) = (&h.name, &h.criticality);
        let what = if h.down() {
            format!(
                "{crit} service down: none of its {} endpoint(s) remains",
                h.endpoints
            )
        } else {
            format!(
                "{crit} service degraded: {} of {} endpoints remain",
                h.remaining, h.endpoints
            )
        };
        let code = if h.down() {
            CHECK.codes[0]
        } else {
            CHECK.codes[1]
        };
        if !removal && !declared.iter().any(|d| d == name) {
            out.add_as(
                code,
                Severity::Error,
                format!("service {name}"),
                format!("{what}, and the plan does not declare it"),
                "declare it in the plan's blast radius, or change the plan so that the service keeps its endpoints",
            );
        } else if !h.down() {
            out.add_as(
                code,
                Severity::Info,
                format!("service {name}"),
                what,
                "the remaining endpoints carry it; check their capacity",
            );
        } else if crit != "critical" && crit != "high" {
            out.add_as(
                code,
                Severity::Info,
                format!("service {name}"),
                what,
                "move or announce it if it matters",
            );
        } else {
            out.add_as(
                code,
                Severity::Warning,
                format!("service {name}"),
                what,
                "move or announce it before the window",
            );
        }
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn readdress_lan(declared: &str) -> Outcome {
        let mut p = plan(
            "modify_interface",
            vec![interface("r2", "GigabitEthernet0/2")],
            &[(
                "r2",
                "interface GigabitEthernet0/2\n ip address 10.2.0.1 255.255.255.0",
            )],
            &[],
        );
        p.blast_radius = format!("| Services affected | {declared} |");
        run(&CHECK, &triangle(), &p)
    }

    #[test]
    fn an_undeclared_service_hit_fails_and_a_declared_one_warns() {
        let o = readdress_lan("none");
        assert!(has(&o, Severity::Error, "high service down: none of its 1 endpoint(s) remains, and the plan does not declare it"), "{o:?}");
        assert_eq!(o.findings[0].code, "precheck.service_down");
        let o = readdress_lan("lan (high, down)");
        assert!(has(&o, Severity::Warning, "high service down"), "{o:?}");
    }

    #[test]
    fn a_change_that_hits_no_service_passes() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }

    use super::super::Outcome;
}
