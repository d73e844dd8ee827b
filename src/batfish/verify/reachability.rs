//! Forwarding: differentialReachability of the candidate against the base. A flow that
//! starts on or goes to what the plan removes is an expected loss (info); any other flow
//! that behaves differently is a warning, shown the way pybatfish prints it. A plan that
//! changes static routes is validated by Batfish's own recipe (pybatfish's "Introduction
//! to Forwarding Change Validation"): its intent as `reachability` (traffic from the
//! device to each added prefix must not fail) and no side effects as
//! `differentialReachability` outside its prefixes (`invertSearch`): any flow there is a
//! FAIL.

use super::{Ask, Asker};
use crate::batfish::client::TableAnswer;
use crate::batfish::Finding;
use crate::engine::breaker::ToolError;
use serde_json::json;
use std::collections::BTreeSet;

const DIFFERENTIAL_REACHABILITY: Ask = Ask {
    name: "differentialReachability",
    class: "org.batfish.question.differentialreachability.DifferentialReachabilityQuestion",
};
const REACHABILITY: Ask = Ask {
    name: "reachability",
    class: "org.batfish.question.specifiers.SpecifiersReachabilityQuestion",
};

/// Dispositions that mean a static route the plan adds does not carry its traffic
/// (`FlowDisposition.java`); the other failures (filters, unknown neighbors) are warnings.
const BROKEN: &[&str] = &["NO_ROUTE", "NULL_ROUTED", "LOOP"];

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
    a.cand
        .nodes
        .iter()
        .filter_map(|node| a.stored_config(node))
        .flat_map(|c| c.interfaces)
        .flat_map(|i| i.addresses)
        .map(|addr| addr.address.addr().to_string())
        .collect()
}

/// The static prefixes the plan changes, per device (lowercase): (VRF, prefix, whether
/// the plan adds a route that forwards, not a discard).
fn changed_statics(a: &Asker<'_>) -> Vec<(String, String, String, bool)> {
    let mut out = Vec::new();
    for (host, before, after) in &a.changed {
        let key = |r: &crate::model::StaticRoute| {
            (
                r.vrf.clone().unwrap_or_else(|| "default".into()),
                r.prefix.trunc().to_string(),
                r.next_hop.map(|h| h.to_string()),
                r.next_hop_interface.clone(),
            )
        };
        let b: BTreeSet<_> = before.static_routes.iter().map(key).collect();
        let c: BTreeSet<_> = after.static_routes.iter().map(key).collect();
        let mut seen = BTreeSet::new();
        for (vrf, prefix, hop, iface) in b.symmetric_difference(&c) {
            if !seen.insert((vrf.clone(), prefix.clone())) {
                continue;
            }
            let forwards =
                c.iter().any(|(v, p, h, i)| {
                    v == vrf
                        && p == prefix
                        && (h.is_some() || i.as_deref().is_some_and(|i| !is_discard(i)))
                }) && !b.contains(&(vrf.clone(), prefix.clone(), hop.clone(), iface.clone()));
            out.push((host.clone(), vrf.clone(), prefix.clone(), forwards));
        }
    }
    out
}

/// Whether an exit interface drops what it is sent (`Null0`, Junos `discard`/`reject`).
fn is_discard(i: &str) -> bool {
    let l = i.to_ascii_lowercase();
    l.starts_with("null") || l == "discard" || l == "reject"
}

/// Batfish's change-validation recipe for a plan that changes static routes only.
fn recipe(
    a: &Asker<'_>,
    statics: &[(String, String, String, bool)],
) -> Result<Vec<Finding>, ToolError> {
    let mut out = Vec::new();
    // The intent is asked from the device's global table: a start location in another
    // VRF of one node is not something olav writes yet, so those routes are left to the
    // side-effect search below.
    for (host, _, prefix, _) in statics.iter().filter(|s| s.3 && s.1 == "default") {
        let path = json!({"startLocation": crate::batfish::node_spec([host.as_str()])});
        let t = a.ask(
            &REACHABILITY,
            a.candidate,
            None,
            // `includeOneTableKeys` as Batfish's template sets it (pybatfish sends it).
            json!({"pathConstraints": path, "headers": {"dstIps": prefix}, "actions": "failure", "maxTraces": 1, "includeOneTableKeys": true}),
        )?;
        for r in t.rows.iter().take(FLOWS_SHOWN) {
            let traces = TableAnswer::cell(r, "Traces");
            let disposition = traces.lines().next().unwrap_or_default();
            out.push(Finding {
                severity: if BROKEN.contains(&disposition) { "error" } else { "warning" },
                question: "reachability",
                message: format!(
                    "the plan's intent is not met: traffic from {} to {prefix} ends {disposition}\n    flow: {}\n      {}",
                    a.show(host),
                    TableAnswer::cell(r, "Flow"),
                    indent(&first_trace(traces), "        ").trim_start()
                ),
            });
        }
    }
    let prefixes: BTreeSet<&str> = statics.iter().map(|s| s.2.as_str()).collect();
    let outside = prefixes.into_iter().collect::<Vec<_>>().join(",");
    let diff = a.ask(
        &DIFFERENTIAL_REACHABILITY,
        a.candidate,
        Some(a.base),
        json!({"actions": "success", "ignoreFilters": false, "maxTraces": 1,
            "headers": {"dstIps": outside}, "invertSearch": true}),
    )?;
    if !diff.rows.is_empty() {
        out.push(Finding {
            severity: "error",
            question: "differentialReachability",
            message: flows_message(
                &format!(
                    "{} flow(s) to destinations outside the plan's prefixes ({outside}) behave differently: a side effect",
                    diff.rows.len()
                ),
                &diff.rows.iter().collect::<Vec<_>>(),
            ),
        });
    }
    Ok(out)
}

/// A message with the first flows and their traces, before and after.
fn flows_message(head: &str, rows: &[&Vec<(String, String)>]) -> String {
    let mut message = head.to_owned();
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
    message
}

/// The reachability findings.
pub(super) fn findings(a: &Asker<'_>) -> Result<Vec<Finding>, ToolError> {
    let statics = changed_statics(a);
    // The recipe needs the plan's effects declared as destinations: a plan that changes
    // static routes and removes nothing.
    let only_routes = !statics.is_empty()
        && a.cand.nodes.is_empty()
        && a.cand.down.is_empty()
        && a.cand.peers.is_empty();
    if only_routes {
        return recipe(a, &statics);
    }
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
    let message = flows_message(
        &format!("{} flow(s) behave differently after the change", rows.len()),
        &rows,
    );
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
