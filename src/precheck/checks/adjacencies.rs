//! IGP adjacencies (OSPF, EIGRP, IS-IS) the plan ends or forms, like BGP sessions: the
//! routing model's adjacencies of the devices the plan changes, before and after.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::candidate::Cause;
use crate::precheck::Severity;
use crate::routing::adjacency::Adjacency;
use crate::state::StateError;

/// IGP adjacencies the plan ends or forms are the ones it means to.
pub const CHECK: Check = Check {
    codes: &["precheck.adjacency"],
    name: "IGP adjacencies the plan ends or forms are the ones it means to",
    reads: "the OSPF, EIGRP and IS-IS adjacencies of the devices the plan changes, before and after (the routing model's rules); the interfaces it shuts or removes; its intent",
    run,
};

/// How many adjacencies a removal's row names before counting the rest.
const SHOWN: usize = 5;

/// Whether the plan takes away an end of `a` on purpose: it shuts or deletes the
/// interface, or removes the device (readdressing one end is not taking it away).
fn taken(cx: &Context, removed: &[&str], a: &Adjacency) -> bool {
    a.ends.iter().any(|e| {
        removed.contains(&e.device.as_str())
            || cx.cand.shut.iter().any(|(d, i)| a.on(d, i))
            || cx.cand.lost_links.iter().any(|l| {
                matches!(l.cause, Cause::Down | Cause::Gone)
                    && a.on(&l.a.0, &l.a.1)
                    && a.on(&l.b.0, &l.b.1)
            })
    })
}

/// Whether one of the plan's blocks configures an end's interface (adds, addresses or
/// enables it): an adjacency formed there is the plan's own.
fn configured(cx: &Context, a: &Adjacency) -> bool {
    cx.blocks.iter().any(|(device, config, _)| {
        config.interfaces.iter().any(|i| {
            a.ends
                .iter()
                .any(|e| e.device == *device && crate::ifname::same(&e.interface, &i.name))
        })
    })
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let f = &cx.forwarding;
    if f.not_computed.is_some() {
        return Ok(out.not_applicable());
    }
    let change = &f.adjacencies;
    let removed = crate::checks::model::removed_devices(cx.plan);
    // A removal ends every adjacency of what it removes: one row, not one per neighbour.
    let mut ended: Vec<String> = Vec::new();
    for (a, why) in &change.lost {
        let why = why.as_str();
        let el = a.describe();
        if cx.is_removal() {
            ended.push(el);
        } else if taken(cx, &removed, a) && (cx.shuts_only_targets() || cx.cand.shut.is_empty()) {
            // The request's own shutdown: what the adjacency carried is judged by the
            // flows, routes and redundancy checks, not here (a warning per shut link
            // would cry wolf on every redundant link taken down).
            out.add(
                Severity::Info,
                el,
                "adjacency ends with the interface the plan takes down",
                "what it carried is judged by the forwarding checks and the blast radius",
            );
        } else if taken(cx, &removed, a) {
            out.add(
                Severity::Warning,
                el,
                "adjacency ends with an interface the plan shuts that its request does not name",
                "keep the plan to what its request names, or confirm the adjacency is redundant",
            );
        } else {
            out.add(
                Severity::Error,
                el,
                format!("the plan ends this adjacency without taking its interfaces down: {why} — the routes it carries are withdrawn"),
                "change both ends together, or keep what the adjacency needs (subnet, area, MTU, timers, passive-interface)",
            );
        }
    }
    if !ended.is_empty() {
        let n = ended.len();
        let mut named = ended
            .iter()
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join("; ");
        if n > SHOWN {
            named.push_str(&format!("; and {} more", n - SHOWN));
        }
        out.add(
            Severity::Info,
            "IGP adjacencies",
            format!("{n} adjacency(ies) ended by the plan: {named}"),
            "what they carried is judged by the forwarding checks and the blast radius",
        );
    }
    for a in &change.formed {
        let el = a.describe();
        if configured(cx, a) {
            out.add(
                Severity::Info,
                el,
                "adjacency formed on an interface the plan configures",
                "routes are exchanged over it from now on",
            );
        } else {
            out.add(
                Severity::Warning,
                el,
                "the plan forms this adjacency on an interface it does not configure: routes are exchanged with a neighbour the request does not name",
                "make the interface passive, or narrow the network statement the plan adds",
            );
        }
    }
    if change.lost.is_empty() && change.formed.is_empty() && cx.cand.touched.is_empty() {
        return Ok(out.not_applicable());
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{self, interface, square, square_plan};
    use super::CHECK;
    use crate::precheck::Severity;

    fn by(o: &super::Outcome, severity: Severity) -> Vec<String> {
        o.findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(|f| format!("{}: {}", f.element, f.message))
            .collect()
    }

    #[test]
    fn a_description_change_touches_no_adjacency() {
        let o = testkit::run(&CHECK, &square(), &testkit::square_description());
        assert!(o.passed(), "{:?}", o.findings);
        assert!(o.findings.is_empty(), "{:?}", o.findings);
    }

    #[test]
    fn the_adjacency_over_a_link_the_request_shuts_is_listed_not_alarmed() {
        let o = testkit::run(&CHECK, &square(), &testkit::square_shut());
        assert!(o.passed(), "{:?}", o.findings);
        assert_eq!(
            by(&o, Severity::Info),
            ["OSPF area 0 r2 GigabitEthernet0/1 ↔ r4 GigabitEthernet0/0: adjacency ends with the interface the plan takes down"]
        );
    }

    #[test]
    fn a_passive_interface_ends_the_adjacency_as_an_error_saying_why() {
        let p = square_plan("modify_ospf", Vec::new(), "r2", "passive", "no_passive");
        let o = testkit::run(&CHECK, &square(), &p);
        let errors = by(&o, Severity::Error);
        assert_eq!(errors.len(), 1, "{:?}", o.findings);
        assert!(
            errors[0].starts_with("OSPF area 0 r2 GigabitEthernet0/1 ↔ r4 GigabitEthernet0/0: ")
                && errors[0].contains("r2 GigabitEthernet0/1 is passive"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_removal_lists_what_it_ends() {
        let o = testkit::run(&CHECK, &square(), &testkit::square_isolate(true));
        assert!(o.passed(), "{:?}", o.findings);
        assert_eq!(
            by(&o, Severity::Info),
            ["IGP adjacencies: 2 adjacency(ies) ended by the plan: OSPF area 0 r2 GigabitEthernet0/1 ↔ r4 GigabitEthernet0/0; OSPF area 0 r3 GigabitEthernet0/1 ↔ r4 GigabitEthernet0/1"]
        );
    }

    #[test]
    fn an_adjacency_formed_on_an_interface_the_plan_configures_is_its_own() {
        let p = square_plan(
            "add_interface",
            vec![interface("r2", "GigabitEthernet0/2")],
            "r2",
            "lan",
            "no_lan",
        );
        let o = testkit::run(&CHECK, &square(), &p);
        assert!(o.passed(), "{:?}", o.findings);
        assert_eq!(
            by(&o, Severity::Info),
            ["OSPF area 0 r2 GigabitEthernet0/2 ↔ r4 GigabitEthernet0/2: adjacency formed on an interface the plan configures"]
        );
    }
}
