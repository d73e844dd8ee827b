//! Every device the plan targets or configures is in the state and active.

use super::{Check, Context, Findings, Outcome};
use crate::plan::Target;
use crate::precheck::Severity;
use crate::state::StateError;

/// Targets and configured devices exist and are active.
pub const CHECK: Check = Check {
    codes: &["precheck.targets"],
    name: "targets and configured devices exist and are active",
    reads: "the plan's targets and blocks; devices in the state",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let st = &cx.state;
    let mut devices: Vec<String> = Vec::new();
    for t in &plan.header.targets {
        match t {
            Target::Device { device }
            | Target::Interface { device, .. }
            | Target::Peer { device, .. } => devices.push(device.clone()),
            Target::Link {
                device_a, device_b, ..
            } => devices.extend([device_a.clone(), device_b.clone()]),
        }
    }
    devices.extend(plan.implementation.iter().map(|b| b.device.clone()));
    devices.sort();
    devices.dedup();
    for d in devices {
        match st.devices.get(&d) {
            None => out.add(
                Severity::Error,
                &d,
                "device is not in the state DB",
                "check the name; was it decommissioned since the plan was drafted?",
            ),
            Some((status, _, _)) if status != "active" => out.add(
                Severity::Warning,
                &d,
                format!("device status is '{status}', not active"),
                "confirm the device is in service before the window",
            ),
            Some(_) => {}
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
    fn an_unknown_device_is_an_error() {
        let p = plan("decommission_device", vec![device("r9")], &[], &[]);
        let o = run(&CHECK, &triangle(), &p);
        assert!(has(&o, Severity::Error, "not in the state DB"), "{o:?}");
    }

    #[test]
    fn known_active_devices_pass() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
