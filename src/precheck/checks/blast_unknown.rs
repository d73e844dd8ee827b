//! What the blast radius cannot say: isolation on a network with no anchor (no border or
//! core role, no external peer), and plan elements the state does not know.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// The blast radius can be computed for everything the plan names.
pub const CHECK: Check = Check {
    codes: &["precheck.blast_unknown"],
    name: "the blast radius can be computed for everything the plan names",
    reads: "the topology's anchors; the recomputed blast radius's unknown elements",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    // A change that cuts nothing (no device, link, interface or session) cuts nobody
    // off, anchors or not: no false alarm on a description change.
    let cuts = !cx.blast.removed.is_empty()
        || cx.blast.links_removed > 0
        || !cx.blast.sessions_lost.is_empty()
        || !cx.cand.shut.is_empty()
        || !cx.cand.lost_links.is_empty();
    if cx.graph.anchor_count() == 0 && cuts {
        out.add(
            Severity::Warning,
            "blast radius",
            "no device has a border or core role and no external peer is known: which devices the change cuts off cannot be computed (isolation is unknown, not none)",
            "give the devices roles in state.yaml (border, core, distribution, access) and re-import",
        );
    }
    if !cx.blast.unknown.is_empty() {
        out.add(
            Severity::Warning,
            "blast radius",
            format!(
                "not in the state DB, left out of the blast radius: {}",
                cx.blast.unknown.join(", ")
            ),
            "check the plan's targets",
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
    fn an_unknown_target_and_a_network_without_anchors_warn() {
        let p = plan("decommission_device", vec![device("r9")], &[], &[]);
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(&o, Severity::Warning, "left out of the blast radius: r9"),
            "{o:?}"
        );
        let net = network(
            &[("r3", "hostname r3\n!\ninterface GigabitEthernet0/0\n ip address 10.0.13.2 255.255.255.252\n!\nend\n")],
            "devices:\n  - {hostname: r3, role: access}\n",
        );
        let p = plan(
            "shutdown_interface",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", "interface GigabitEthernet0/0\n shutdown")],
            &[],
        );
        let o = run(&CHECK, &net, &p);
        assert!(
            has(&o, Severity::Warning, "isolation is unknown, not none"),
            "{o:?}"
        );
        // A description change cuts nothing: no anchor is needed to say so.
        let p = plan(
            "set_description",
            vec![device("r3")],
            &[("r3", "interface GigabitEthernet0/0\n description spare")],
            &[],
        );
        assert!(run(&CHECK, &net, &p).passed());
    }

    #[test]
    fn known_targets_on_an_anchored_network_pass() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
