//! For an added uplink: redundancy towards the peer before and after, and the single
//! points of failure the change removes (for the record).

use super::{Check, Context, Findings, Outcome};
use crate::plan::{Plan, Target};
use crate::precheck::blast::{Graph, Spec};
use crate::precheck::Severity;
use crate::state::StateError;

/// Redundancy towards the peer is reported.
pub const CHECK: Check = Check {
    codes: &["precheck.redundancy"],
    name: "redundancy towards the peer is reported",
    reads: "the plan's interface and peer targets; the topology's sessions to the peer",
    run,
};

/// Sessions and single points of failure towards a peer AS, before and after the plan.
#[derive(Debug, Clone)]
pub struct Redundancy {
    /// The peer's AS.
    pub asn: u32,
    /// Before: (sessions, single points of failure).
    pub before: (usize, Vec<String>),
    /// After.
    pub after: (usize, Vec<String>),
}

impl Redundancy {
    /// One side in words.
    pub fn describe((n, v): &(usize, Vec<String>)) -> String {
        format!(
            "{n} session(s); single points of failure: {}",
            if v.is_empty() {
                "none".to_owned()
            } else {
                v.join(", ")
            }
        )
    }
}

/// Redundancy towards the peer of an `add_uplink` plan (its interface and peer AS).
/// After the plan, what its candidate loses (`after`: shut interfaces, lost links and
/// sessions) is cut: the sessions counted are the ones the candidate really has.
pub fn towards_peer(plan: &Plan, g: &Graph, after: &Spec) -> Option<Redundancy> {
    if plan.header.intent != "add_uplink" {
        return None;
    }
    let (dev, ifn, asn) = uplink_target(plan)?;
    Some(Redundancy {
        asn,
        before: g.peer_single_points(asn, &[], None),
        after: g.peer_single_points(asn, &[(dev, ifn)], Some(after)),
    })
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let Some(r) = &cx.redundancy else {
        return Ok(out.not_applicable());
    };
    let (before, after) = (&r.before.1, &r.after.1);
    let gone: Vec<&String> = before.iter().filter(|p| !after.contains(p)).collect();
    let msg = if r.after.0 <= r.before.0 {
        // What the plan ends counts too: an uplink that replaces the session it shuts
        // removes no single point of failure.
        format!(
            "the change adds no redundancy towards the peer: {} session(s) before, {} after",
            r.before.0, r.after.0
        )
    } else if gone.is_empty() {
        "the change removes no single point of failure towards the peer".to_owned()
    } else {
        format!(
            "single point(s) of failure removed: {}",
            gone.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    out.add(
        Severity::Info,
        format!("redundancy to AS{}", r.asn),
        format!(
            "{msg}; before: {}; after: {}",
            Redundancy::describe(&r.before),
            Redundancy::describe(&r.after)
        ),
        if after.is_empty() {
            "none".to_owned()
        } else {
            format!("remaining: {}", after.join(", "))
        },
    );
    Ok(out.ran())
}

fn uplink_target(plan: &Plan) -> Option<(String, String, u32)> {
    let mut dev_if = None;
    let mut asn = None;
    for t in &plan.header.targets {
        match t {
            Target::Interface { device, interface } => {
                dev_if = Some((device.clone(), interface.clone()))
            }
            Target::Peer { asn: Some(a), .. } => asn = Some(*a),
            _ => {}
        }
    }
    let (d, i) = dev_if?;
    Some((d, i, asn?))
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;

    #[test]
    fn an_added_uplink_says_its_redundancy() {
        let p = plan(
            "add_uplink",
            vec![
                interface("r1", "GigabitEthernet0/3"),
                crate::plan::Target::Peer {
                    device: "r1".into(),
                    peer: "203.0.113.6".into(),
                    asn: Some(64500),
                    name: None,
                },
            ],
            &[],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(o.passed(), "{o:?}");
        assert!(
            o.findings
                .iter()
                .any(|f| f.element == "redundancy to AS64500"),
            "{o:?}"
        );
    }

    #[test]
    fn the_sessions_after_are_the_ones_the_candidate_keeps() {
        let net = triangle();
        let o = run(&CHECK, &net, &uplink_with("", ""));
        assert!(
            o.findings
                .iter()
                .any(|f| f.message.contains("before: 1 session(s)")
                    && f.message.contains("after: 2 session(s)")),
            "{o:?}"
        );
        // The primary uplink shut by hand: one session before, one after.
        let p = uplink_with(
            "interface GigabitEthernet0/2\n shutdown",
            "interface GigabitEthernet0/2\n no shutdown",
        );
        let o = run(&CHECK, &net, &p);
        assert!(
            o.findings.iter().any(|f| f.message.contains(
                "the change adds no redundancy towards the peer: 1 session(s) before, 1 after"
            )) && !o.findings.iter().any(|f| f.message.contains("removed:")),
            "{o:?}"
        );
    }

    #[test]
    fn other_requests_are_not_applicable() {
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }
}
