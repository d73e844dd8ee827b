//! `olav routes --plan PLAN`: the routes a plan would change, device by device — the
//! candidate network's RIBs against the stored ones.

use super::{open_or_demo, Cli, Exit};
use crate::agents::capability::{PlanReader, Tools};
use crate::output::Format;
use crate::routing::candidate::{diff, ribs, RouteChange};
use crate::routing::{Query, RoutingModel};
use anyhow::{anyhow, Result};
use std::path::Path;

/// `olav routes --plan PLAN [--device] [--vrf] [--prefix] [--protocol]`.
pub fn run(cli: &Cli, plan: &Path, q: &Query) -> Result<Exit> {
    let db = open_or_demo(cli)?;
    let reader = PlanReader::new(&cli.exports, Tools::default());
    let named = plan.to_string_lossy();
    let (_, text) = reader.read(&named).map_err(|e| anyhow!("{e}"))?;
    let parsed = crate::plan::Plan::from_markdown(&text).map_err(|e| anyhow!("{named}: {e}"))?;
    let before = RoutingModel::shared(&db)?;
    let after = ribs(&db, &parsed)?;
    let mut changes = diff(&before, &after, &|r| q.matches(r));
    if let Some(d) = &q.device {
        changes.retain(|c| &c.node == d);
    }
    match cli.format {
        Format::Json => {
            let rows = |c: &RouteChange, removed: bool| -> Vec<serde_json::Value> {
                let rows = if removed { &c.removed } else { &c.added };
                rows.iter().map(|r| r.to_json(&c.node)).collect()
            };
            let v: Vec<serde_json::Value> = changes
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "node": c.node,
                        "removed": rows(c, true),
                        "added": rows(c, false),
                        "incomplete": c.incomplete,
                    })
                })
                .collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({
                    "plan": named,
                    "state_version": before.state_version,
                    "changes": v,
                }))?
            );
        }
        Format::Text => print!("{}", text_answer(&named, &changes)),
    }
    Ok(if changes.iter().any(|c| c.incomplete) {
        Exit::Partial
    } else {
        Exit::Ok
    })
}

/// The answer for people: how many routes change where, then `-`/`+` rows per device.
fn text_answer(plan: &str, changes: &[RouteChange]) -> String {
    let n: usize = changes
        .iter()
        .map(|c| c.removed.len() + c.added.len())
        .sum();
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let mut out = if changes.is_empty() {
        format!("{plan} changes no computed route\n")
    } else {
        format!(
            "{plan} changes {} on {}\n",
            plural(n, "route"),
            plural(changes.len(), "device")
        )
    };
    let unsure: Vec<&str> = changes
        .iter()
        .filter(|c| c.incomplete)
        .map(|c| c.node.as_str())
        .collect();
    if !unsure.is_empty() {
        out.push_str(&format!(
            "  incomplete RIBs (routes olav does not compute may change too): {}\n",
            unsure.join(", ")
        ));
    }
    for c in changes {
        out.push_str(&format!(
            "\n{}: -{} +{}\n",
            c.node,
            c.removed.len(),
            c.added.len()
        ));
        let rows = c
            .removed
            .iter()
            .map(|r| ('-', r))
            .chain(c.added.iter().map(|r| ('+', r)));
        for (sign, r) in rows {
            out.push_str(&format!(
                "  {sign} {:<8} {:<18} {:<10} {:<40} [{}/{}]\n",
                r.vrf,
                r.network.to_string(),
                r.protocol.as_str(),
                r.next_hop.to_string(),
                r.admin_distance,
                r.metric
            ));
        }
    }
    out.push_str(&format!("\nNext: olav precheck {plan}\n"));
    out
}
