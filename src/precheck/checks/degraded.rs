//! Devices left with a single path to the anchors: a new single point of failure.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// No new single point of failure.
pub const CHECK: Check = Check {
    codes: &["precheck.degraded"],
    name: "no device, site or provider is left with a single point of failure",
    reads: "the recomputed blast radius's degraded devices; the paths between sites and from the core towards each external peer, before and after",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    if !cx.blast.degraded.is_empty() {
        out.add(
            Severity::Warning,
            "blast radius",
            format!(
                "new single point of failure for: {}",
                cx.blast.degraded.join(", ")
            ),
            "make sure the remaining path is healthy before the window",
        );
    }
    let sp = &cx.single_points;
    // One finding per site pair and per peer, naming every element it now depends on.
    let mut by_pair: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for (a, b, element) in &sp.between_sites {
        by_pair
            .entry(format!("between sites {a} and {b}"))
            .or_default()
            .push(element);
    }
    for (peer, element) in &sp.towards_peers {
        by_pair
            .entry(format!("from the core towards {peer}"))
            .or_default()
            .push(element);
    }
    for (what, elements) in by_pair {
        out.add(
            Severity::Warning,
            "redundancy",
            format!(
                "every path {what} now crosses {}: {}",
                if elements.len() == 1 {
                    "a single point of failure"
                } else {
                    "single points of failure"
                },
                elements.join(", ")
            ),
            "make sure the remaining path is healthy before the window",
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
    fn a_device_left_with_one_path_warns() {
        let p = plan(
            "shutdown_interface",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", "interface GigabitEthernet0/0\n shutdown")],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(&o, Severity::Warning, "new single point of failure for: r3"),
            "{o:?}"
        );
    }

    #[test]
    fn losing_one_of_two_links_between_sites_names_what_is_left() {
        let o = run(&CHECK, &square_two_sites(), &square_shut());
        assert!(
            has(
                &o,
                Severity::Warning,
                "every path between sites a and b now crosses single points of failure: device r1, device r3, link r1:GigabitEthernet0/1 – r3:GigabitEthernet0/0"
            ),
            "{o:?}"
        );
        // One site: nothing between sites to lose.
        let one = run(&CHECK, &square(), &square_shut());
        assert!(!has(&one, Severity::Warning, "between sites"), "{one:?}");
        assert!(run(&CHECK, &square_two_sites(), &square_description()).passed());
    }

    #[test]
    fn a_change_that_keeps_every_path_passes() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
