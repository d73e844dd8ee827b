//! Paths between two sites, and from the core towards each external peer, that the
//! change leaves depending on a single device or link (`docs/precheck.md`,
//! "Redundancy").

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// No path between sites or towards a provider is left on a single device or link.
pub const CHECK: Check = Check {
    codes: &["precheck.single_point"],
    name: "no path between sites or towards a provider is left on a single device or link",
    reads: "the paths between sites and from the core towards each external peer, before and after (dominators over the topology)",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    // Not judged is never passed: listed under Not applicable, with why in the docs.
    if cx.single_points.not_judged.is_some() {
        return Ok(out.not_applicable());
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
}
