//! Every config block is labelled with its device's OS: the label decides the dialect
//! the block is read in (parser, scope, rollback, candidate), so a wrong one makes every
//! other check read the lines as something they are not.

use super::{Check, Context, Findings, Outcome};
use crate::model::Vendor;
use crate::precheck::Severity;
use crate::state::StateError;

/// Config blocks are labelled with their device's OS.
pub const CHECK: Check = Check {
    codes: &["precheck.block_os"],
    name: "config blocks are labelled with their device's OS",
    reads: "the plan's blocks (implementation and rollback); each device's OS in the state",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let blocks: Vec<_> = plan.implementation.iter().chain(&plan.rollback).collect();
    if blocks.is_empty() {
        return Ok(out.not_applicable());
    }
    let mut seen = std::collections::BTreeSet::new();
    for b in blocks {
        // An unknown device is the targets check's finding.
        let Some((_, os, _)) = cx.state.devices.get(&b.device) else {
            continue;
        };
        if Vendor::from_os(&b.os) != Vendor::from_os(os) && seen.insert((&b.device, &b.os)) {
            out.add(
                Severity::Error,
                &b.device,
                format!(
                    "a block for {} is labelled os={}, but the device runs {os}: its lines are read in the wrong dialect, so no check of them can be trusted",
                    b.device, b.os
                ),
                format!("label the block os={os} (re-draft the plan, or correct the label by hand)"),
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

    #[test]
    fn a_block_labelled_with_another_os_is_an_error() {
        let mut p = description_only();
        p.rollback[0].os = "junos".into();
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "labelled os=junos, but the device runs ios"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn blocks_with_their_devices_os_pass_and_no_block_is_not_applicable() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
        let none = plan("decommission_device", vec![device("r1")], &[], &[]);
        assert!(!run(&CHECK, &triangle(), &none).applies);
    }
}
