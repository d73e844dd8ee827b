//! Forwarding: differentialReachability of the candidate against the base. A flow that
//! starts on or goes to what the plan removes is an expected loss (info); any other flow
//! that behaves differently is a warning, shown the way pybatfish prints it.

use super::{Ask, Asker};
use crate::batfish::client::TableAnswer;
use crate::batfish::Finding;
use crate::engine::breaker::ToolError;
use crate::import::parse::{detect, parser_for};
use serde_json::json;
use std::collections::BTreeSet;

const DIFFERENTIAL_REACHABILITY: Ask = Ask {
    name: "differentialReachability",
    class: "org.batfish.question.differentialreachability.DifferentialReachabilityQuestion",
};

/// How many differing flows are shown with their traces.
const FLOWS_SHOWN: usize = 3;

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| format!("{by}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first trace of a Set<Trace> cell: its disposition line and the hop and step lines
/// under it (the decoder writes the traces one after the other, each from its disposition).
pub(super) fn first_trace(cell: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for (i, line) in cell.lines().enumerate() {
        // A new trace starts with a disposition: a line that is neither a hop nor a step.
        let hop_or_step = line.starts_with("  ")
            || line
                .split_once(". node:")
                .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()));
        if i > 0 && !hop_or_step {
            break;
        }
        out.push(line);
    }
    out.join("\n")
}

/// A flow's start node and destination address, from its printed form
/// (`start=node … [src:port->dst:port …]`).
pub(super) fn flow_ends(flow: &str) -> (String, String) {
    let start = flow
        .strip_prefix("start=")
        .and_then(|s| s.split([' ', '[']).next())
        .unwrap_or_default()
        .to_lowercase();
    let dst = flow
        .split_once("->")
        .map(|(_, d)| d.split([' ', ':', ']']).next().unwrap_or_default())
        .unwrap_or_default()
        .to_owned();
    (start, dst)
}

/// The addresses of the devices the plan decommissions.
fn removed_addresses(a: &Asker<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for node in &a.cand.nodes {
        let Some((_, text)) = a.configs.iter().find(|(h, _)| h.eq_ignore_ascii_case(node)) else {
            continue;
        };
        let Ok(vendor) = detect(text) else { continue };
        for i in parser_for(vendor).parse(text).interfaces {
            for addr in i.addresses {
                out.insert(addr.address.addr().to_string());
            }
        }
    }
    out
}

/// The differentialReachability finding.
pub(super) fn findings(a: &Asker<'_>) -> Result<Vec<Finding>, ToolError> {
    // One trace per flow: the answer stays small (an unbounded one can pass the client's
    // body cap) and one trace is all the evidence shows.
    let diff = a.ask(
        &DIFFERENTIAL_REACHABILITY,
        a.candidate,
        Some(a.base),
        json!({"actions": "success", "ignoreFilters": false, "maxTraces": 1}),
    )?;
    let removed = removed_addresses(a);
    let (expected, rows): (Vec<_>, Vec<_>) = diff.rows.iter().partition(|r| {
        let (start, dst) = flow_ends(TableAnswer::cell(r, "Flow"));
        a.cand.nodes.contains(&start) || removed.contains(&dst)
    });
    let mut out = Vec::new();
    if !expected.is_empty() {
        out.push(Finding {
            severity: "info",
            question: "differentialReachability",
            message: format!(
                "{} flow(s) from or to the decommissioned device(s) change, as the plan declares",
                expected.len()
            ),
        });
    }
    if rows.is_empty() {
        return Ok(out);
    }
    let mut message = format!("{} flow(s) behave differently after the change", rows.len());
    for (i, r) in rows.iter().take(FLOWS_SHOWN).enumerate() {
        message.push_str(&format!(
            "\n    flow {}: {}\n      before: {}\n      after:  {}",
            i + 1,
            TableAnswer::cell(r, "Flow"),
            indent(
                &first_trace(TableAnswer::cell(r, "Reference_Traces")),
                "        "
            )
            .trim_start(),
            indent(
                &first_trace(TableAnswer::cell(r, "Snapshot_Traces")),
                "        "
            )
            .trim_start(),
        ));
    }
    if rows.len() > FLOWS_SHOWN {
        message.push_str(&format!("\n    … and {} more", rows.len() - FLOWS_SHOWN));
    }
    out.push(Finding {
        severity: "warning",
        question: "differentialReachability",
        message,
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_trace_stops_at_the_next_disposition() {
        let cell =
            "ACCEPTED\n1. node: a\n  RECEIVED(x)\n2. node: b\n  ACCEPTED\nDENIED_IN\n1. node: a";
        assert_eq!(
            first_trace(cell),
            "ACCEPTED\n1. node: a\n  RECEIVED(x)\n2. node: b\n  ACCEPTED"
        );
    }

    #[test]
    fn a_flow_names_its_start_and_destination() {
        assert_eq!(
            flow_ends(
                "start=Alpha-Acc-1 interface=Vlan10 [10.10.10.5:49152->10.20.0.1:22 TCP (SYN)]"
            ),
            ("alpha-acc-1".to_owned(), "10.20.0.1".to_owned())
        );
        assert_eq!(
            flow_ends("start=r1 [10.0.0.1->10.0.0.2 ICMP (type=8, code=0)]"),
            ("r1".to_owned(), "10.0.0.2".to_owned())
        );
    }
}
