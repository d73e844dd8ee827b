//! Links the plan touches keep equal MTUs at both ends.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// MTU equal at both ends of links the plan touches.
pub const CHECK: Check = Check {
    codes: &["precheck.mtu"],
    name: "MTU equal at both ends of links the plan touches",
    reads: "the candidate's links and interface MTUs",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let cand = &cx.cand;
    // By name: a plan that adds an interface shifts the candidate's list; IOS `ip mtu`
    // changes the IP MTU as `mtu` does.
    let changes_mtu = cand.touched.iter().any(|d| {
        cand.devices.get(d).is_some_and(|x| {
            x.cand.interfaces.iter().any(|b| {
                match x.base.interfaces.iter().find(|a| a.name == b.name) {
                    Some(a) => a.mtu != b.mtu || a.ip_mtu != b.ip_mtu,
                    None => b.mtu.is_some() || b.ip_mtu.is_some(),
                }
            })
        })
    });
    if cand.links.is_empty() || !changes_mtu {
        return Ok(out.not_applicable());
    }
    for m in &cand.mtu {
        let how = if m.notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", m.notes.join("; "))
        };
        // A mismatch that was there before and is no wider after is the network's,
        // not the plan's; one the plan widens is the plan's.
        let wider = m
            .before
            .is_some_and(|(here, there)| m.changed.2.abs_diff(m.far.2) > here.abs_diff(there));
        if let Some((here, there)) = m.before.filter(|_| !wider) {
            out.add(
                    Severity::Warning,
                    format!("{} {}", m.changed.0, m.changed.1),
                    format!(
                        "MTU {} here, {} at the far end {} {}: the ends already differed before the plan ({here} and {there}) and still differ after it{how}",
                        m.changed.2, m.far.2, m.far.0, m.far.1
                    ),
                    format!("set MTU {} on {} {} too, or make the ends equal in this plan", m.changed.2, m.far.0, m.far.1),
                );
            continue;
        }
        out.add(
                Severity::Error,
                format!("{} {}", m.changed.0, m.changed.1),
                format!(
                    "MTU {} here, {} at the far end {} {}: packets larger than the smaller MTU are dropped, and an OSPF adjacency over the link (where OSPF runs) stalls in EXSTART{how}",
                    m.changed.2, m.far.2, m.far.0, m.far.1
                ),
                format!("set MTU {} on {} {} in the same plan, or keep the MTUs equal", m.changed.2, m.far.0, m.far.1),
            );
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn mtu_on_r3(mtu: u32) -> Outcome {
        let p = plan(
            "modify_interface",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", &format!("interface GigabitEthernet0/0\n mtu {mtu}"))],
            &[],
        );
        run(&CHECK, &triangle(), &p)
    }

    #[test]
    fn an_mtu_unequal_to_the_far_end_fails() {
        let o = mtu_on_r3(9000);
        assert!(
            has(
                &o,
                Severity::Error,
                "MTU 9000 here, 1500 at the far end r1 GigabitEthernet0/1"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn an_ios_ip_mtu_is_the_mtu_compared() {
        let p = plan(
            "modify_interface",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", "interface GigabitEthernet0/0\n ip mtu 1400")],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "MTU 1400 here, 1500 at the far end r1 GigabitEthernet0/1"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn an_mtu_equal_to_the_far_end_passes_and_a_description_is_not_applicable() {
        assert!(mtu_on_r3(1500).passed());
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }

    fn junos_port_mtu(mtu: u32) -> Outcome {
        let p = junos_plan(
            "modify_interface",
            vec![interface("j1", "xe-0/1/0")],
            &junos_set(&format!("interfaces xe-0/1/0 mtu {mtu}")),
            &junos_set("interfaces xe-0/1/0 mtu 9214"),
        );
        run(&CHECK, &junos_eos(), &p)
    }

    #[test]
    fn a_junos_port_mtu_is_compared_as_its_units_ip_mtu() {
        // The port's media MTU less the 14-byte header against EOS's IP MTU.
        let o = junos_port_mtu(1500);
        assert!(
            has(
                &o,
                Severity::Error,
                "MTU 1486 here, 9214 at the far end e1 Ethernet12"
            ) && has(
                &o,
                Severity::Error,
                "port xe-0/1/0 mtu 1500 less the 14-byte"
            ),
            "{o:?}"
        );
        // 9228 on the Junos port is 9214 bytes of IP: equal to the far end.
        let o = junos_port_mtu(9228);
        assert!(o.passed() && o.findings.is_empty(), "{o:?}");
    }

    #[test]
    fn a_junos_unit_family_mtu_is_an_ip_mtu() {
        let unit = |mtu: u32| {
            let p = junos_plan(
                "modify_interface",
                vec![interface("j1", "xe-0/1/0.0")],
                &junos_set(&format!("interfaces xe-0/1/0 unit 0 family inet mtu {mtu}")),
                &junos_delete("interfaces xe-0/1/0 unit 0 family inet mtu"),
            );
            run(&CHECK, &junos_eos(), &p)
        };
        // 9200 is what the port gives already: the ends still differ (9200, 9214).
        let o = unit(9200);
        assert!(
            has(
                &o,
                Severity::Warning,
                "already differed before the plan (9200 and 9214)"
            ),
            "{o:?}"
        );
        let o = unit(9000);
        assert!(
            has(&o, Severity::Error, "MTU 9000 here, 9214 at the far end"),
            "{o:?}"
        );
    }

    use super::super::Outcome;
}
