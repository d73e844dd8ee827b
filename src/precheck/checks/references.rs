//! Route-maps and prefix-lists the plan references exist on the device or in the plan.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// Route-maps and prefix-lists referenced exist.
pub const CHECK: Check = Check {
    codes: &["precheck.references"],
    name: "route-maps and prefix-lists referenced exist",
    reads: "the plan's references and definitions; stored definitions",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let st = &cx.state;
    if cx.blocks.iter().all(|(_, c, _)| c.references.is_empty()) {
        return Ok(out.not_applicable());
    }
    for (dev, cfg, _) in &cx.blocks {
        for r in &cfg.references {
            let kind = r.kind.as_str();
            let in_state = st.is_defined(dev, kind, &r.name)?;
            let in_plan = cfg
                .structures
                .iter()
                .any(|s| s.kind == r.kind && s.name == r.name);
            if !in_state && !in_plan {
                out.add(
                    Severity::Error,
                    dev,
                    format!(
                        "{kind} {} ({}) is not defined on the device or in the plan",
                        r.name, r.context
                    ),
                    format!(
                        "define {kind} {} in the plan, or reference an existing one",
                        r.name
                    ),
                );
            }
        }
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::dialect::cisco::sample::bgp;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn route_map_in(name: &str) -> Outcome {
        let p = plan(
            "modify_session",
            vec![device("r1")],
            &[(
                "r1",
                &bgp(65001, &format!(" neighbor 203.0.113.2 route-map {name} in")),
            )],
            &[],
        );
        run(&CHECK, &triangle(), &p)
    }

    #[test]
    fn an_undefined_route_map_fails() {
        let o = route_map_in("NOWHERE");
        assert!(has(&o, Severity::Error, "NOWHERE"), "{o:?}");
    }

    #[test]
    fn a_defined_route_map_passes_and_no_reference_is_not_applicable() {
        assert!(route_map_in("ISP-IN").passed());
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }

    use super::super::Outcome;
}
