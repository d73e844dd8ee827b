//! The plan followed by its rollback gives back every configured device's stored
//! configuration.

use super::{Check, Context, Findings, Outcome};
use crate::dialect::candidate_text;
use crate::import::parse::parser_for;
use crate::model::Vendor;
use crate::plan::Target;
use crate::precheck::model_sections::sections;
use crate::precheck::Severity;
use crate::state::StateError;

/// The rollback restores every device the plan configures.
pub const CHECK: Check = Check {
    codes: &["precheck.rollback"],
    name: "the rollback restores every device the plan configures",
    reads: "the plan's implementation and rollback; stored configurations",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    if plan.implementation.is_empty() {
        return Ok(out.not_applicable());
    }
    let targets: std::collections::BTreeSet<&str> = plan
        .header
        .targets
        .iter()
        .flat_map(|t| match t {
            Target::Device { device }
            | Target::Interface { device, .. }
            | Target::Peer { device, .. } => vec![device.as_str()],
            Target::Link {
                device_a, device_b, ..
            } => vec![device_a.as_str(), device_b.as_str()],
        })
        .collect();
    let decommission = plan.header.intent.starts_with("decommission");
    let devices: std::collections::BTreeSet<&str> = plan
        .implementation
        .iter()
        .map(|b| b.device.as_str())
        .collect();
    for d in devices {
        if !decommission && !targets.contains(d) {
            out.add(
                        Severity::Warning,
                        d,
                        "the plan configures this device, which its header's targets do not name (edited after drafting?)",
                        "re-draft the plan, or review every block by hand",
                    );
        }
        let Some(text) = cx.db.config_text(d)? else {
            continue;
        };
        let os = plan
            .implementation
            .iter()
            .find(|b| b.device == d)
            .map_or("ios", |b| b.os.as_str());
        let lines = |blocks: &[crate::plan::ConfigBlock]| {
            blocks
                .iter()
                .filter(|b| b.device == d)
                .map(|b| format!("\n{}\n", b.text))
                .collect::<String>()
        };
        let rollback = lines(&plan.rollback);
        if rollback.trim().is_empty() {
            out.add(
                Severity::Error,
                d,
                "the plan configures this device and has no rollback for it",
                "add the rollback block (the lines that restore the stored config)",
            );
            continue;
        }
        // Applied as the device would hold them: the implementation, then the rollback.
        let vendor = Vendor::from_os(os);
        let parser = parser_for(vendor);
        let stored = parser.parse(&text);
        let changed = candidate_text(vendor, &text, &lines(&plan.implementation));
        let back = parser.parse(&candidate_text(vendor, &changed, &rollback));
        let (before, after) = (sections(&stored), sections(&back));
        let differ: Vec<&str> = before
            .iter()
            .zip(&after)
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| a.0)
            .collect();
        if !differ.is_empty() {
            out.add(
                        Severity::Error,
                        d,
                        format!(
                            "the plan followed by its rollback does not give back the stored configuration: {} differ{}",
                            differ.join(", "),
                            left_over(&stored, &back)
                        ),
                        "make the rollback undo every line of the implementation",
                    );
        }
    }
    Ok(out.ran())
}

/// What the rollback leaves changed, in words (the first three elements).
fn left_over(stored: &crate::model::DeviceConfig, back: &crate::model::DeviceConfig) -> String {
    let changes = crate::precheck::semantic::diff(stored, back);
    if changes.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = changes.iter().take(3).map(ToString::to_string).collect();
    let more = changes.len().saturating_sub(3);
    format!(
        " — after it: {}{}",
        shown.join("; "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn a_missing_or_incomplete_rollback_fails() {
        let net = triangle();
        let p = plan(
            "set_description",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", "interface GigabitEthernet0/0\n description x")],
            &[],
        );
        let o = run(&CHECK, &net, &p);
        assert!(has(&o, Severity::Error, "has no rollback for it"), "{o:?}");
        let p = plan(
            "set_description",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", "interface GigabitEthernet0/0\n mtu 9000")],
            &[("r3", "interface GigabitEthernet0/0\n description y")],
        );
        let o = run(&CHECK, &net, &p);
        assert!(has(&o, Severity::Error, "interfaces differ"), "{o:?}");
    }

    #[test]
    fn a_rollback_that_restores_passes_and_no_configuration_is_not_applicable() {
        let net = triangle();
        assert!(run(&CHECK, &net, &description_only()).passed());
        let p = plan("decommission_device", vec![device("r3")], &[], &[]);
        assert!(!run(&CHECK, &net, &p).applies);
    }
}
