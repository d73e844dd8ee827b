//! Devices the change cuts off from every border, core and external peer: the outage
//! itself, declared or not — never a quiet PASS.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// No device is cut off.
pub const CHECK: Check = Check {
    codes: &["precheck.isolated"],
    name: "no device is cut off from every border, core and external peer",
    reads: "the recomputed blast radius's isolated devices",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let isolated = &cx.blast.isolated;
    if !isolated.is_empty() {
        let shown: Vec<&str> = isolated.iter().take(10).map(String::as_str).collect();
        out.add_grouped(
            Severity::Warning,
            "blast radius",
            format!(
                "{} device(s) cut off from every border, core and external peer: {}{}",
                isolated.len(),
                shown.join(", "),
                if isolated.len() > shown.len() {
                    ", …"
                } else {
                    ""
                }
            ),
            "confirm each is meant to go dark, or keep a path for it",
            isolated.clone(),
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
    fn a_device_cut_off_warns() {
        let p = plan(
            "shutdown_interface",
            vec![device("r3")],
            &[(
                "r3",
                "interface GigabitEthernet0/0\n shutdown\ninterface GigabitEthernet0/1\n shutdown",
            )],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Warning,
                "1 device(s) cut off from every border, core and external peer: r3"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn a_change_that_cuts_nothing_off_passes() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
