//! `olav routes`: the computed main RIBs, as a table for people or Batfish's `routes`
//! rows in JSON.

use super::{open_or_demo, Cli, Exit};
use crate::output::{self, Format, Table};
use crate::routing::{DeviceRib, Protocol, Query, RoutingModel, COLUMNS};
use anyhow::{bail, Result};
use ipnet::Ipv4Net;

/// Reads `--prefix`: a prefix, or an address (its /32).
fn prefix(p: &str) -> Result<Ipv4Net> {
    if let Ok(n) = p.parse::<Ipv4Net>() {
        return Ok(n);
    }
    match p.parse::<std::net::Ipv4Addr>() {
        Ok(a) => Ok(Ipv4Net::from(a)),
        Err(_) => bail!("--prefix '{p}': expected an IPv4 prefix (10.0.0.0/8) or address"),
    }
}

/// Reads `--protocol`.
fn protocol(p: &str) -> Result<Protocol> {
    match Protocol::from_name(p) {
        Some(p) => Ok(p),
        None => bail!(
            "--protocol '{p}': olav computes {} so far (dynamic protocols are not computed yet)",
            Protocol::ALL.map(Protocol::as_str).join(", ")
        ),
    }
}

/// The incomplete RIBs, one line per reason: the devices (with the VRF where it is not
/// every one), and the static routes left out with them.
fn incomplete_lines(ribs: &[DeviceRib]) -> Vec<String> {
    const SHOWN: usize = 8;
    let mut by_reason: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for r in ribs {
        for i in &r.incomplete {
            let at = match &i.vrf {
                Some(v) if v != "default" => format!("{} (VRF {v})", r.hostname),
                _ => r.hostname.clone(),
            };
            let list = by_reason.entry(i.reason.as_str()).or_default();
            if !list.contains(&at) {
                list.push(at);
            }
        }
    }
    let mut out: Vec<String> = by_reason
        .into_iter()
        .map(|(reason, devices)| {
            let more = devices.len().saturating_sub(SHOWN);
            let mut names = devices
                .iter()
                .take(SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if more > 0 {
                names.push_str(&format!(", … {more} more"));
            }
            format!("  {reason}: {names}")
        })
        .collect();
    let left: u32 = ribs
        .iter()
        .filter(|r| !r.incomplete.is_empty())
        .map(|r| r.unresolved_statics)
        .sum();
    if left > 0 {
        out.push(format!(
            "  {left} static route{} left out: no computed route resolves the next hop (a dynamic protocol may)",
            if left == 1 { "" } else { "s" }
        ));
    }
    out
}

/// `olav routes`.
pub fn routes(
    cli: &Cli,
    device: Option<&str>,
    vrf: Option<&str>,
    prefix_arg: Option<&str>,
    protocol_arg: Option<&str>,
) -> Result<Exit> {
    let q = Query {
        device: device.map(str::to_owned),
        vrf: vrf.map(str::to_owned),
        prefix: prefix_arg.map(prefix).transpose()?,
        protocol: protocol_arg.map(protocol).transpose()?,
    };
    let db = open_or_demo(cli)?;
    let model = RoutingModel::shared(&db)?;
    if let Some(d) = device {
        if !model.hostnames().iter().any(|h| h == d) && db.has_device(d)? {
            bail!("device '{d}' has no stored configuration: olav has no routes for it");
        }
        if !model.hostnames().iter().any(|h| h == d) {
            let names = db.hostnames()?;
            bail!(
                "no device '{d}' in {}{}",
                db.path().display(),
                crate::fuzzy::closest(d, &names)
                    .map(|c| format!("; did you mean {c}?"))
                    .unwrap_or_default()
            );
        }
    }
    let ribs = model.select(&q);
    let rows = ribs
        .iter()
        .flat_map(|r| r.routes.iter().map(move |x| (r, x)));
    match cli.format {
        Format::Json => {
            let routes: Vec<serde_json::Value> =
                rows.map(|(r, x)| x.to_json(&r.hostname)).collect();
            let incomplete: Vec<serde_json::Value> = ribs
                .iter()
                .flat_map(|r| {
                    r.incomplete.iter().map(move |i| {
                        serde_json::json!({"node": r.hostname, "vrf": i.vrf, "reason": i.reason})
                    })
                })
                .collect();
            println!(
                "{}",
                output::json(&serde_json::json!({
                    "state_version": model.state_version,
                    "columns": COLUMNS,
                    "routes": routes,
                    "incomplete": incomplete,
                }))
            );
        }
        Format::Text => {
            let table = Table {
                columns: COLUMNS.iter().map(|c| (*c).to_owned()).collect(),
                rows: rows
                    .map(|(r, x)| {
                        vec![
                            r.hostname.clone().into(),
                            x.vrf.clone().into(),
                            x.network.to_string().into(),
                            x.next_hop.to_string().into(),
                            x.protocol.as_str().into(),
                            x.metric.into(),
                            x.admin_distance.into(),
                            x.tag.into(),
                        ]
                    })
                    .collect(),
            };
            let devices = ribs.len();
            let lines = incomplete_lines(&ribs);
            let plural = |n: usize| if n == 1 { "" } else { "s" };
            let partial = ribs.iter().filter(|r| !r.incomplete.is_empty()).count();
            let verdict = if partial == 0 {
                "complete".to_owned()
            } else {
                format!(
                    "INCOMPLETE on {partial} device{}: they run routing protocols olav does not compute yet",
                    plural(partial)
                )
            };
            println!(
                "{} route{} on {devices} device{} — {verdict}",
                table.rows.len(),
                plural(table.rows.len()),
                plural(devices)
            );
            for l in &lines {
                println!("{l}");
            }
            if table.rows.is_empty() {
                println!("(no routes)");
            } else {
                println!();
                print!("{}", table.to_text());
            }
        }
    }
    Ok(Exit::Ok)
}
