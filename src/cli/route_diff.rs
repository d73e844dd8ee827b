//! `olav routes --plan PLAN`: the routes a plan would change, device by device — the
//! candidate network's RIBs against the stored ones.

use super::{open_or_demo, Cli, Exit};
use crate::agents::capability::{PlanReader, Tools};
use crate::output::Format;
use crate::routing::candidate::{after_scoped, diff, RouteChange, MAX_DEVICES};
use crate::routing::Route;
use crate::routing::{Query, RoutingModel};
use anyhow::{anyhow, Result};
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// `olav routes --plan PLAN [--device] [--vrf] [--prefix] [--protocol]`.
pub fn run(cli: &Cli, plan: &Path, q: &Query) -> Result<Exit> {
    let db = open_or_demo(cli)?;
    let reader = PlanReader::new(&cli.exports, Tools::default());
    let named = plan.to_string_lossy();
    let (_, text) = reader.read(&named).map_err(|e| anyhow!("{e}"))?;
    let parsed = crate::plan::Plan::from_markdown(&text).map_err(|e| anyhow!("{named}: {e}"))?;
    let before = RoutingModel::shared(&db)?;
    // Every device's table is made twice (as it is and after the plan), one device at a
    // time: bounded in time, as the pre-check's forwarding comparison is.
    if before.hostnames().len() > MAX_DEVICES {
        println!(
            "UNKNOWN — {named}: olav routes --plan compares every device's table before and after the plan and is limited to {MAX_DEVICES} devices for now ({} here); the plan's routes were not computed",
            before.hostnames().len()
        );
        return Ok(Exit::Partial);
    }
    // A plan for a device olav does not know changes nothing it can compute: bad input,
    // not "no route changes".
    let lines = crate::dialect::plan_lines(&parsed);
    let removed = crate::checks::model::removed_devices(&parsed);
    if let Some(d) = lines
        .keys()
        .map(String::as_str)
        .chain(removed.iter().copied())
        .find(|d| !before.has(d))
    {
        return Err(anyhow!(
            "{named}: the plan configures {d}, which is not in the state DB"
        ));
    }
    if let Some(d) = &q.device {
        super::routes::known_device(&db, &before, d)?;
    }
    if let Some(v) = &q.vrf {
        super::routes::known_vrf(&db, v, q.device.as_deref())?;
    }
    let after = after_scoped(&db, &parsed, &|h| before.has(h))?.network;
    // Incomplete RIBs in scope, changed or not: a route olav does not compute may change
    // there too (the filters narrow the rows shown, not what is known).
    let mut unsure: Vec<String> = Vec::new();
    let mut changes = diff(&db, &before, &after, &|r| q.matches(r), &mut |r| {
        let incomplete = match &q.vrf {
            Some(v) => !r.incomplete_in(v).is_empty(),
            None => !r.incomplete.is_empty(),
        };
        if incomplete && q.device.as_ref().is_none_or(|d| &r.hostname == d) {
            unsure.push(r.hostname.clone());
        }
    })?;
    if let Some(d) = &q.device {
        changes.retain(|c| &c.node == d);
    }
    match cli.format {
        Format::Json => {
            // Written as it is serialized: a thousand devices' changes as one JSON value
            // took 470 MB for 35 MB of text.
            let answer = Answer {
                changes: Changes(&changes),
                incomplete_nodes: &unsure,
                plan: &named,
                state_version: before.state_version,
            };
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            serde_json::to_writer_pretty(&mut out, &answer)?;
            writeln!(out)?;
            out.flush()?;
        }
        Format::Text => print!("{}", text_answer(&named, &changes, &unsure)),
    }
    Ok(if !unsure.is_empty() {
        Exit::Partial
    } else {
        Exit::Ok
    })
}

/// The JSON answer, its keys in the order `serde_json::json!` gave them (sorted).
#[derive(Serialize)]
struct Answer<'a> {
    changes: Changes<'a>,
    incomplete_nodes: &'a [String],
    plan: &'a str,
    state_version: i64,
}

/// Every device's change, each serialized when written.
struct Changes<'a>(&'a [RouteChange]);

impl Serialize for Changes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for c in self.0 {
            seq.serialize_element(&Change {
                added: Rows(&c.added, &c.node),
                incomplete: c.incomplete,
                node: &c.node,
                removed: Rows(&c.removed, &c.node),
                static_routes_not_installed: c.unresolved,
            })?;
        }
        seq.end()
    }
}

/// One device's change (keys sorted, as [`Answer`]'s).
#[derive(Serialize)]
struct Change<'a> {
    added: Rows<'a>,
    incomplete: bool,
    node: &'a str,
    removed: Rows<'a>,
    static_routes_not_installed: u32,
}

/// Rows of one device, each made into Batfish's row form when written.
struct Rows<'a>(&'a [Route], &'a str);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for r in self.0 {
            seq.serialize_element(&r.to_json(self.1))?;
        }
        seq.end()
    }
}

/// The answer for people: how many routes change where, what olav cannot know, then
/// `-`/`+` rows per device.
fn text_answer(plan: &str, changes: &[RouteChange], unsure: &[String]) -> String {
    let n: usize = changes
        .iter()
        .map(|c| c.removed.len() + c.added.len())
        .sum();
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let mut out = if n == 0 {
        format!("{plan} changes no computed route\n")
    } else {
        format!(
            "{plan} changes {} on {}\n",
            plural(n, "route"),
            plural(
                changes
                    .iter()
                    .filter(|c| !c.removed.is_empty() || !c.added.is_empty())
                    .count(),
                "device"
            )
        )
    };
    if !unsure.is_empty() {
        out.push_str(&format!(
            "  incomplete RIBs (routes olav does not compute may change too): {}\n",
            unsure.join(", ")
        ));
    }
    for c in changes.iter().filter(|c| c.unresolved > 0) {
        out.push_str(&format!(
            "  {}: {} static route{} not installed after the plan: no computed route resolves the next hop\n",
            c.node,
            c.unresolved,
            if c.unresolved == 1 { "" } else { "s" }
        ));
    }
    for c in changes
        .iter()
        .filter(|c| !c.removed.is_empty() || !c.added.is_empty())
    {
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
