//! A redundant uplink relies on the existing sessions to the same peer being up.

use super::{Check, Context, Findings, Outcome};
use crate::plan::Target;
use crate::precheck::Severity;
use crate::state::StateError;

/// Sessions the plan relies on are up.
pub const CHECK: Check = Check {
    codes: &["precheck.sessions_relied_on"],
    name: "sessions the plan relies on are up",
    reads: "the plan's peer target; observed session states",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let st = &cx.state;
    if plan.header.intent != "add_uplink" {
        return Ok(out.not_applicable());
    }
    for t in &plan.header.targets {
        let Target::Peer {
            asn: Some(asn),
            name,
            ..
        } = t
        else {
            continue;
        };
        for (h, p, _, _) in st.sessions.iter().filter(|s| s.2 == Some(*asn)) {
            if let Some(state) = st.observed.get(&(h.clone(), p.clone())) {
                if !state.eq_ignore_ascii_case("established") {
                    out.add(
                        Severity::Error,
                        format!("{h} neighbor {p}"),
                        format!(
                            "the existing session to {} (AS{asn}) is {state}, not Established",
                            name.as_deref().unwrap_or("the peer")
                        ),
                        "find out why before adding a redundant session to the same peer",
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

    fn uplink() -> crate::plan::Plan {
        plan(
            "add_uplink",
            vec![
                interface("r1", "GigabitEthernet0/3"),
                crate::plan::Target::Peer {
                    device: "r1".into(),
                    peer: "203.0.113.6".into(),
                    asn: Some(64500),
                    name: Some("ISP-A".into()),
                },
            ],
            &[],
            &[],
        )
    }

    #[test]
    fn a_redundant_uplink_to_a_peer_whose_session_is_down_fails() {
        let net = triangle_with(&STATE.replace(
            "{hostname: r1, peer: 203.0.113.2, state: Established}",
            "{hostname: r1, peer: 203.0.113.2, state: Idle}",
        ));
        let o = run(&CHECK, &net, &uplink());
        assert!(
            has(
                &o,
                Severity::Error,
                "the existing session to ISP-A (AS64500) is Idle"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn an_established_session_passes_and_other_requests_are_not_applicable() {
        let net = triangle();
        assert!(run(&CHECK, &net, &uplink()).passed());
        assert!(!run(&CHECK, &net, &description_only()).applies);
    }
}
