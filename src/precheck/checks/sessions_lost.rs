//! BGP sessions the plan ends are the ones its request means to end.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::candidate::Cause;
use crate::precheck::Severity;
use crate::state::StateError;

/// BGP sessions the plan ends are the ones it means to end.
pub const CHECK: Check = Check {
    codes: &["precheck.sessions_lost"],
    name: "BGP sessions the plan ends are the ones it means to end",
    reads: "the candidate's lost sessions and removed static routes; the plan's intent",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let cand = &cx.cand;
    let touches_bgp = cand
        .touched
        .iter()
        .any(|d| cand.devices.get(d).is_some_and(|x| x.base.bgp.is_some()));
    if !touches_bgp && cand.lost_sessions.is_empty() && cand.route_unknown.is_empty() {
        return Ok(out.not_applicable());
    }
    let removal =
        plan.header.intent.starts_with("decommission") || plan.header.intent == "remove_session";
    let custom = plan.header.intent == crate::agents::writer::INTENT;
    // A loopback the request shuts is declared, the sessions it sources are not: they
    // are the network's routing, not the interface (`docs/precheck.md`).
    let ends_on_loopback = cx.ends_on_shut_loopback()?;
    for s in &cand.lost_sessions {
        let el = format!("{} → {}", s.device, s.peer);
        let on_loopback = ends_on_loopback(s);
        if removal {
            out.add(
                Severity::Info,
                el,
                "session ended by the plan",
                "counted in the blast radius",
            );
        } else if s.cause == Cause::NeighborRemoved && custom {
            // A hand-written plan's own `no neighbor` (or its shutdown) is what it
            // asks for; what the session carried is judged by the other checks.
            out.add(
                Severity::Warning,
                el,
                "the plan's own lines remove or shut this neighbor: the session ends",
                "confirm what the session carries has another path (the withdrawn-networks and services checks say what goes)",
            );
        } else if s.cause == Cause::NeighborRemoved {
            // Only a removal request ends a session by removing or shutting its
            // neighbor: anything else that does is wider than its request.
            out.add(
                    Severity::Error,
                    el,
                    format!("the plan removes or shuts this existing neighbor, which its request ({}) does not ask for: a plan wider than its request", plan.header.intent),
                    "remove those lines, or plan the session's removal on its own",
                );
        } else if cx.shuts_only_targets() && on_loopback {
            out.add(
                Severity::Error,
                el,
                "the session ends with the loopback the plan shuts: a loopback whose loss ends sessions ends the routing they carry, which the request does not declare",
                "move the sessions to another source address first, or plan their removal on their own",
            );
        } else if cx.shuts_only_targets() {
            // Declared by the shutdown the request asks for, but worth a look: routing
            // over it goes.
            out.add(
                Severity::Warning,
                el,
                "the session ends with the interface the plan shuts",
                "move what the session carries first, or confirm it is redundant",
            );
        } else if !cand.shut.is_empty() {
            let named: Vec<String> = cand.shut.iter().map(|(d, i)| format!("{d} {i}")).collect();
            out.add(
                    Severity::Error,
                    el,
                    format!("the session ends with the interface(s) the plan shuts ({}), which its request ({}) does not name: a session lost as a side effect", named.join(", "), plan.header.intent),
                    "remove the shutdown, or plan the session's removal on its own",
                );
        } else if s.cause == Cause::RouteGone {
            out.add(
                    Severity::Error,
                    el,
                    "the session is lost as a side effect: the static route that reached its peer is removed, and no other route olav knows of (connected, static; the device runs no IGP) reaches it",
                    "keep a route to the peer, or move the session in the same plan",
                );
        } else {
            out.add(
                    Severity::Error,
                    el,
                    "the session is lost as a side effect: its local or peer address is no longer on an active interface",
                    "keep the session's addresses, or move the session in the same plan",
                );
        }
    }
    for (s, route) in &cand.route_unknown {
        out.add(
                Severity::Warning,
                format!("{} → {}", s.device, s.peer),
                format!(
                    "the static route that reached this session's peer ({route}) is removed; the device runs an IGP, whose routes olav does not model, so whether the session stays up is unknown"
                ),
                format!("check `show ip route {}` on {} before the window", s.peer, s.device),
            );
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::dialect::cisco::sample::bgp;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn remove_ibgp(intent: &str) -> Outcome {
        let p = plan(
            intent,
            vec![device("r1")],
            &[("r1", &bgp(65001, " no neighbor 10.0.12.2"))],
            &[],
        );
        run(&CHECK, &triangle(), &p)
    }

    #[test]
    fn shutting_the_loopback_that_sources_sessions_is_an_error_even_when_requested() {
        let p = crate::precheck::checks::testkit::plan(
            "modify_interface",
            vec![crate::precheck::checks::testkit::interface(
                "r4",
                "Loopback0",
            )],
            &[("r4", "interface Loopback0\n shutdown")],
            &[("r4", "interface Loopback0\n no shutdown")],
        );
        let net = crate::precheck::checks::testkit::square();
        let o = crate::precheck::checks::testkit::run(&CHECK, &net, &p);
        assert!(
            crate::precheck::checks::testkit::has(
                &o,
                crate::precheck::Severity::Error,
                "the session ends with the loopback the plan shuts"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn a_neighbor_removed_by_a_plan_not_asked_to_fails() {
        let o = remove_ibgp("modify_interface");
        assert!(
            has(&o, Severity::Error, "a plan wider than its request"),
            "{o:?}"
        );
    }

    #[test]
    fn a_hand_written_plan_removing_a_neighbor_is_a_warning_not_a_wider_plan() {
        let o = remove_ibgp(crate::agents::writer::INTENT);
        assert!(
            has(
                &o,
                Severity::Warning,
                "the plan's own lines remove or shut this neighbor"
            ) && !o.findings.iter().any(|f| f.severity == Severity::Error),
            "{o:?}"
        );
    }

    #[test]
    fn a_removal_ends_its_session_and_a_device_without_bgp_is_not_applicable() {
        let o = remove_ibgp("remove_session");
        assert!(
            o.passed() && has(&o, Severity::Info, "session ended by the plan"),
            "{o:?}"
        );
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }

    #[test]
    fn a_session_ended_by_a_shutdown_the_request_does_not_name_fails() {
        // An uplink plan that also shuts the primary uplink, edited in by hand.
        let p = uplink_with(
            "interface GigabitEthernet0/2\n shutdown",
            "interface GigabitEthernet0/2\n no shutdown",
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "the session ends with the interface(s) the plan shuts (r1 GigabitEthernet0/2), which its request (add_uplink) does not name"
            ),
            "{o:?}"
        );
        // Shutting the interface the request names is declared: a warning.
        let p = plan(
            "modify_interface",
            vec![interface("r1", "GigabitEthernet0/2")],
            &[("r1", "interface GigabitEthernet0/2\n shutdown")],
            &[("r1", "interface GigabitEthernet0/2\n no shutdown")],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Warning,
                "the session ends with the interface the plan shuts"
            ) && !o.findings.iter().any(|f| f.severity == Severity::Error),
            "{o:?}"
        );
    }

    use super::super::Outcome;
}
