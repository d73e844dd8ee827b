//! Traffic the network exists for still gets through after the plan: each BGP session's
//! peer address, each service's endpoints and its way to the internet, each in-band
//! management address, traced through the candidate network's RIBs; no loop, no blackhole, no prefix announced to a provider with nothing behind it.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::forwarding::{Broken, Purpose};
use crate::precheck::{PathEnd, Severity, TracedPath};
use crate::routing::trace::Disposition;
use crate::state::StateError;

/// Traffic the network exists for still reaches its destination.
pub const CHECK: Check = Check {
    codes: &[
        "precheck.reachability",
        "precheck.loop",
        "precheck.blackhole",
    ],
    name: "BGP peers, service endpoints, the internet and in-band management stay reachable, without loops or blackholes",
    reads: "the candidate network's RIBs against the stored routing model: traces to each BGP session's peer address, between each service's endpoints, from each service towards the internet, to and from each in-band management address; what each border announces to its providers",
    run,
};

/// How a broken flow ends, in words.
fn ending(b: &Broken) -> String {
    let at = b
        .path
        .rsplit(" → ")
        .next()
        .unwrap_or(&b.flow.source)
        .to_owned();
    let end = match b.disposition {
        Disposition::Loop => "it loops".to_owned(),
        Disposition::NullRouted => format!(
            "it is dropped at {at} by a discard route{}",
            b.matched
                .as_ref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        ),
        _ => format!("it is dropped at {at}: no route for {}", b.flow.dst),
    };
    match &b.assumed {
        Some(a) => format!("{end} ({a})"),
        None => end,
    }
}

/// The failing branch as the report draws it.
fn traced(b: &Broken) -> TracedPath {
    TracedPath {
        destination: b.flow.dst,
        matched: b.matched.clone(),
        ends: match b.disposition {
            Disposition::Loop => PathEnd::Loop,
            Disposition::NullRouted => PathEnd::Discard,
            _ => PathEnd::NoRoute,
        },
        partial: b.partial,
        hops: b.hops.clone(),
    }
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let f = &cx.forwarding;
    if let Some(why) = &f.not_computed {
        // A plan that changes what the routing reads may move traffic where olav did not
        // look: never a silent pass. One that changes nothing of it cannot.
        if f.unseen.is_empty() {
            out.add(
                Severity::Info,
                "forwarding",
                format!("not compared: {why}; the plan changes nothing the routing reads"),
                "verify the plan with Batfish (olav verify) for its effect on forwarding",
            );
        } else {
            out.add(
                Severity::Warning,
                "forwarding",
                format!(
                    "not compared: {why}; the plan changes the routing configuration of {}",
                    f.unseen.join(", ")
                ),
                "verify the plan with Batfish (olav verify) for its effect on forwarding",
            );
        }
        return Ok(out.not_applicable());
    }
    let sends = cx
        .announcements
        .after
        .iter()
        .any(|s| !s.prefixes.is_empty());
    // Nothing traced and nothing announced: not applicable — unless a route the plan adds
    // was traced (its flow is not counted among those that reached before).
    if f.flows == 0 && !sends && f.broken.is_empty() && f.unknown.is_empty() {
        return Ok(out.not_applicable());
    }
    let removal = cx.is_removal();
    // A shutdown the request asks for declares what goes dark behind it, as a removal
    // does: what it cuts off is listed, not an error (the blast radius warns).
    let declared = removal || cx.shuts_only_targets();
    // The subnets of the interfaces the plan shuts: a session to a peer there rides the
    // shut link itself, which the request names; a session that ends because the network
    // splits (an iBGP session between loopbacks) is wider than the request.
    let mut shut_subnets: Vec<ipnet::IpNet> = Vec::new();
    for (d, i) in &cx.cand.shut {
        shut_subnets.extend(cx.state.addresses_on(d, i)?);
    }
    let on_shut_link = |dst: std::net::Ipv4Addr| {
        shut_subnets
            .iter()
            .any(|n| n.contains(&std::net::IpAddr::V4(dst)))
    };
    for b in &f.broken {
        // A loop is nobody's purpose, nor is a route the plan adds that drops; a session
        // a removal ends as a side effect is wider than the request (sessions to what it
        // removes are not traced); a service cut off by what the request declares is
        // listed by criticality, as the blast radius lists services.
        let severity = match (&b.flow.purpose, b.disposition) {
            (_, Disposition::Loop) | (Purpose::Route, _) => Severity::Error,
            // A session over the link a removal takes away ends with it: its point.
            (Purpose::Session, _) if removal && on_shut_link(b.flow.dst) => Severity::Info,
            (Purpose::Session, _) if removal || !declared || !on_shut_link(b.flow.dst) => {
                Severity::Error
            }
            (Purpose::Session, _) => Severity::Warning,
            // A device left unmanageable by routing: one the blast radius cuts off is
            // warned there already; what a removal or a requested shutdown leaves
            // unmanaged is a warning, anything else an error.
            (Purpose::Management { device }, _) if cx.blast.isolated.contains(device) => {
                Severity::Info
            }
            (Purpose::Management { .. }, _) if !declared => Severity::Error,
            (Purpose::Management { .. }, _) => Severity::Warning,
            (Purpose::Service { .. } | Purpose::Internet { .. }, _) if !declared => Severity::Error,
            (Purpose::Service { criticality, .. } | Purpose::Internet { criticality, .. }, _) => {
                if matches!(criticality.as_str(), "critical" | "high") {
                    Severity::Warning
                } else {
                    Severity::Info
                }
            }
        };
        let code = if b.disposition == Disposition::Loop {
            "precheck.loop"
        } else {
            "precheck.blackhole"
        };
        if b.flow.purpose == Purpose::Route {
            out.add_traced(
                code,
                severity,
                b.flow.what.clone(),
                format!(
                    "traffic for it ({} traced) does not arrive: {}; path: {}",
                    b.flow.dst,
                    ending(b),
                    b.path
                ),
                "point the route at a next hop that has a route for the prefix, or add that route in the same plan",
                traced(b),
            );
            continue;
        }
        let some = if b.partial {
            "some of its ECMP branches reach it, but on one "
        } else {
            ""
        };
        out.add_traced(
            code,
            severity,
            b.flow.what.clone(),
            format!(
                "reached {} before the plan; after it, {some}{}; path: {}",
                b.flow.dst,
                ending(b),
                b.path
            ),
            "keep a route towards it on the path (olav routes --plan PLAN shows what moves)",
            traced(b),
        );
    }
    for (flow, why) in &f.unknown {
        out.add(
            if declared {
                Severity::Info
            } else {
                Severity::Warning
            },
            flow.what.clone(),
            if flow.purpose == Purpose::Route {
                format!(
                    "where its traffic ({} traced) goes after the plan, olav cannot tell: {why}",
                    flow.dst
                )
            } else {
                format!(
                    "reached {} before the plan; after it, olav cannot tell: {why}",
                    flow.dst
                )
            },
            "verify the plan with Batfish (olav verify)",
        );
    }
    for d in &f.dark {
        out.add_as(
            "precheck.blackhole",
            if declared {
                Severity::Warning
            } else {
                Severity::Error
            },
            format!("{} → {}: {}", d.border, d.peer, d.prefix),
            format!(
                "still announced to the provider after the plan with no route behind it on {}: traffic from the internet for it is dropped there",
                d.border
            ),
            "withdraw the announcement in the same plan, or keep a route behind it",
        );
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{self, has, square, square_plan};
    use super::CHECK;
    use crate::precheck::{PathEnd, Severity};

    fn codes(o: &super::Outcome, severity: Severity) -> Vec<&'static str> {
        o.findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(|f| f.code)
            .collect()
    }

    #[test]
    fn a_description_change_finds_nothing_and_passes() {
        let net = square();
        let p = testkit::square_description();
        let o = testkit::run(&CHECK, &net, &p);
        assert!(o.passed(), "{:?}", o.findings);
        assert!(o.findings.is_empty(), "{:?}", o.findings);
    }

    #[test]
    fn one_of_two_paths_shut_reroutes_without_an_error() {
        let net = square();
        let p = testkit::square_shut();
        let o = testkit::run(&CHECK, &net, &p);
        assert!(o.passed(), "{:?}", o.findings);
    }

    #[test]
    fn a_static_route_back_to_the_sender_is_a_loop_naming_the_path() {
        let net = square();
        let p = square_plan("add_static_route", Vec::new(), "r2", "loop", "no_loop");
        let o = testkit::run(&CHECK, &net, &p);
        assert!(
            codes(&o, Severity::Error).contains(&"precheck.loop"),
            "{:?}",
            o.findings
        );
        // The session's traffic takes both ECMP branches: the one through r2 loops.
        let session = o
            .findings
            .iter()
            .find(|f| f.element == "BGP session r1 → 10.255.0.4")
            .expect("the iBGP session's path is named");
        assert_eq!(session.severity, Severity::Error);
        assert!(
            session
                .message
                .contains("some of its ECMP branches reach it")
                && session.message.contains("r1 (GigabitEthernet0/0) → r2"),
            "{}",
            session.message
        );
        // The same path as data, for the report's picture: it comes back to r1.
        let path = session.path.as_ref().expect("the path as data");
        assert_eq!(path.ends, PathEnd::Loop);
        assert!(path.partial);
        let hops: Vec<(&str, Option<&str>)> = path
            .hops
            .iter()
            .map(|h| (h.device.as_str(), h.egress.as_deref()))
            .collect();
        assert_eq!(
            hops,
            vec![
                ("r1", Some("GigabitEthernet0/0")),
                ("r2", Some("GigabitEthernet0/0")),
                ("r1", None)
            ]
        );
        assert_eq!(path.loops_at(), Some("r1"));
    }

    #[test]
    fn a_static_route_to_a_router_without_a_route_is_a_blackhole() {
        let net = square();
        let p = square_plan(
            "add_static_route",
            Vec::new(),
            "r1",
            "nowhere",
            "no_nowhere",
        );
        let o = testkit::run(&CHECK, &net, &p);
        assert!(
            has(&o, Severity::Error, "dropped at r2: no route for 10.99.0.1"),
            "{:?}",
            o.findings
        );
        assert_eq!(o.findings[0].code, "precheck.blackhole");
        assert_eq!(o.findings[0].element, "static route 10.99.0.0/16 on r1");
    }

    #[test]
    fn cutting_a_site_off_blackholes_its_service_and_session_as_errors() {
        let net = square();
        let p = testkit::square_isolate(false);
        let o = testkit::run(&CHECK, &net, &p);
        let broken: Vec<&str> = o
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error && f.code == "precheck.blackhole")
            .map(|f| f.element.as_str())
            .collect();
        assert!(
            broken.contains(&"BGP session r1 → 10.255.0.4")
                && broken.contains(&"service office: r1 → r4:GigabitEthernet0/2"),
            "{:?}",
            o.findings
        );
    }

    #[test]
    fn a_service_cut_off_from_the_internet_is_an_error_and_a_description_is_not() {
        let net = testkit::square_internet();
        let o = testkit::run(&CHECK, &net, &testkit::square_description());
        assert!(o.passed() && o.findings.is_empty(), "{:?}", o.findings);
        let o = testkit::run(&CHECK, &net, &testkit::square_isolate(false));
        assert!(
            o.findings.iter().any(|f| f.severity == Severity::Error
                && f.element == "service office: r4 → the internet"
                && f.message.contains("dropped at r4: no route for 198.18.0.1")),
            "{:?}",
            o.findings
        );
        // r1's own way out does not cross what the plan shuts.
        assert!(
            !o.findings
                .iter()
                .any(|f| f.element == "service office: r1 → the internet"),
            "{:?}",
            o.findings
        );
    }

    #[test]
    fn a_device_managed_in_band_left_unreachable_by_a_route_is_an_error() {
        let net = testkit::square_internet();
        let p = square_plan(
            "add_static_route",
            Vec::new(),
            "r1",
            "discard_r3",
            "no_discard_r3",
        );
        let o = testkit::run(&CHECK, &net, &p);
        assert!(
            o.findings.iter().any(|f| f.severity == Severity::Error
                && f.element == "management of r3: r1 → 10.255.0.3"
                && f.message.contains("dropped at r1 by a discard route")),
            "{:?}",
            o.findings
        );
    }

    #[test]
    fn a_removal_lists_a_service_it_cuts_off_by_criticality() {
        let net = square();
        let p = testkit::square_isolate(true);
        let o = testkit::run(&CHECK, &net, &p);
        let service = o
            .findings
            .iter()
            .find(|f| f.element == "service office: r1 → r4:GigabitEthernet0/2")
            .expect("the service's lost path is listed");
        // A high service cut off by a removal is a warning; the iBGP session it ends
        // as a side effect stays an error.
        assert_eq!(service.severity, Severity::Warning);
        assert!(codes(&o, Severity::Error).contains(&"precheck.blackhole"));
    }
}
