//! Every prefix announced to a provider before is announced after, and nothing new is.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// Every prefix announced to a provider before is announced after.
pub const CHECK: Check = Check {
    codes: &["precheck.announcements"],
    name: "every prefix announced to a provider before is announced after",
    reads: "announcements and inbound policies before and after; the plan's blocks",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let ann = &cx.announcements;
    if ann.before.is_empty() && ann.after.is_empty() {
        return Ok(out.not_applicable());
    }
    let removal =
        plan.header.intent.starts_with("decommission") || plan.header.intent == "remove_session";
    for p in ann.withdrawn() {
        let was: Vec<String> = ann
            .before
            .iter()
            .filter(|s| s.prefixes.contains(&p))
            .map(|s| {
                format!(
                    "{} → {}{}",
                    s.device,
                    s.peer,
                    s.peer_asn.map(|a| format!(" (AS{a})")).unwrap_or_default()
                )
            })
            .collect();
        out.add(
                if removal { Severity::Warning } else { Severity::Error },
                format!("prefix {p}"),
                format!("no provider hears {p} after the plan (announced before via {}): it is withdrawn from the internet", was.join(", ")),
                "keep another session announcing it, or accept the outage for what lives in it",
            );
    }
    for (d, peer, p) in ann.withdrawn_from_one() {
        out.add(
            if removal { Severity::Info } else { Severity::Warning },
            format!("{d} → {peer}"),
            format!("the plan makes {d} stop announcing {p} to {peer} (other providers still hear it): that provider's traffic for it moves to them"),
            "keep the outbound policy as it was, or confirm the other providers carry it alone",
        );
    }
    for (d, peer, p) in ann.newly_announced() {
        out.add(
                Severity::Error,
                format!("{d} → {peer}"),
                format!("the plan makes {d} announce {p} to {peer}, which it did not before (an undeclared wider announcement: a route leak if {peer} is a provider)"),
                "keep the outbound policy as it was, or declare the new announcement in its own plan",
            );
    }
    // What a provider's routes are accepted: a default route rejected now may leave
    // the network without a way out (the forwarding checks trace it).
    for (d, peer, before, after) in ann.accepts_changed() {
        out.add(
            Severity::Warning,
            format!("{d} ← {peer}"),
            format!("the plan changes what {d} accepts from {peer}: {before} → {after}"),
            "make sure the provider's routes the network relies on are still taken",
        );
    }
    // An unknown the plan neither causes nor touches (the same before, and the plan's
    // lines on that device name neither the session nor any routing policy) is not
    // this plan's finding: the table still says it.
    let touches = |s: &crate::precheck::announce::Sent| {
        plan.implementation.iter().any(|b| {
            b.device == s.device
                && (b.text.contains(&s.peer)
                    || [
                        "route-map",
                        "prefix-list",
                        "policy-options",
                        " export",
                        " import",
                    ]
                    .iter()
                    .any(|w| b.text.contains(w)))
        })
    };
    for (s, same_before) in ann.unknown_after() {
        if same_before && !touches(s) {
            continue;
        }
        out.add(
            Severity::Warning,
            "announcements",
            format!(
                "what {} → {}: {}: olav cannot tell what is announced there",
                s.device,
                s.peer,
                s.unknown.as_deref().unwrap_or_default()
            ),
            "check the outbound policy by hand",
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

    #[test]
    fn a_prefix_no_provider_hears_any_more_fails_outside_a_removal() {
        let p = plan(
            "modify_session",
            vec![device("r1")],
            &[("r1", &bgp(65001, " no network 10.1.0.0 mask 255.255.255.0"))],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "no provider hears 10.1.0.0/24 after the plan"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn announcements_kept_pass_and_a_network_without_providers_is_not_applicable() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
        let net = network(&[("r3", "hostname r3\n!\ninterface GigabitEthernet0/0\n ip address 10.0.13.2 255.255.255.252\n!\nend\n")], "devices:\n  - {hostname: r3, role: core}\n");
        let p = plan("set_description", vec![device("r3")], &[], &[]);
        assert!(!run(&CHECK, &net, &p).applies);
    }
}
