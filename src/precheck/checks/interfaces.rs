//! The interfaces the plan targets exist and, for an addition, are free.

use super::{Check, Context, Findings, Outcome};
use crate::plan::Target;
use crate::precheck::Severity;
use crate::state::StateError;

/// Interfaces exist and, for additions, are free.
pub const CHECK: Check = Check {
    codes: &["precheck.interfaces"],
    name: "interfaces exist and, for additions, are free",
    reads: "the plan's interface and link targets; stored interfaces, addresses and links",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let st = &cx.state;
    let adding = cx.plan.header.intent.starts_with("add_");
    if !plan
        .header
        .targets
        .iter()
        .any(|t| matches!(t, Target::Interface { .. } | Target::Link { .. }))
    {
        return Ok(out.not_applicable());
    }
    for t in &plan.header.targets {
        let ends: Vec<(&String, &String)> = match t {
            Target::Interface { device, interface } => vec![(device, interface)],
            Target::Link {
                device_a,
                interface_a,
                device_b,
                interface_b,
            } => vec![(device_a, interface_a), (device_b, interface_b)],
            _ => Vec::new(),
        };
        for (d, i) in ends {
            if !st.devices.contains_key(d) {
                continue;
            }
            let Some((real, _)) = st.iface(d, i)? else {
                out.add(
                    Severity::Error,
                    format!("{d} {i}"),
                    "interface does not exist",
                    "check the interface name against `olav state show interfaces --device`",
                );
                continue;
            };
            if adding {
                let addrs: Vec<String> = st
                    .addresses_on(d, &real)?
                    .iter()
                    .map(|a| a.to_string())
                    .collect();
                if !addrs.is_empty() {
                    out.add(
                        Severity::Error,
                        format!("{d} {real}"),
                        format!("interface is not free: it has {}", addrs.join(", ")),
                        "pick another free interface (re-draft the plan)",
                    );
                }
                if st.is_linked(d, &real)? {
                    out.add(
                        Severity::Error,
                        format!("{d} {real}"),
                        "interface is not free: a link ends on it",
                        "pick another free interface (re-draft the plan)",
                    );
                }
            }
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
    fn an_addition_on_a_used_or_missing_interface_fails() {
        let net = triangle();
        let p = plan("add_uplink", vec![interface("r1", "Gi0/0")], &[], &[]);
        let o = run(&CHECK, &net, &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "interface is not free: it has 10.0.12.1/30"
            ),
            "{o:?}"
        );
        let p = plan("add_uplink", vec![interface("r1", "Gi0/9")], &[], &[]);
        let o = run(&CHECK, &net, &p);
        assert!(
            has(&o, Severity::Error, "interface does not exist"),
            "{o:?}"
        );
    }

    #[test]
    fn an_addition_on_a_free_interface_passes_and_no_interface_target_is_not_applicable() {
        let net = triangle();
        let p = plan("add_uplink", vec![interface("r1", "Gi0/3")], &[], &[]);
        assert!(run(&CHECK, &net, &p).passed());
        let p = plan("decommission_device", vec![device("r3")], &[], &[]);
        assert!(!run(&CHECK, &net, &p).applies);
    }
}
