//! `olav routes`: the computed main RIBs, as a table for people or Batfish's `routes`
//! rows in JSON.

use super::{open_or_demo, Cli, Exit};
use crate::output::Format;
use crate::routing::{DeviceRib, Protocol, Query, RoutingModel, COLUMNS};
use anyhow::{bail, Result};
use ipnet::Ipv4Net;
use std::io::Write;

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
            "--protocol '{p}': olav computes {} so far (BGP, EIGRP, IS-IS and RIP are not computed yet)",
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
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // One device's RIB is made once; a whole network's one at a time, never held
    // together (50 million rows at 10,000 devices): JSON as they come, text in two
    // passes (the column widths, then the rows).
    let one = match q.device {
        Some(_) => Some(model.select(&db, &q)?),
        None => None,
    };
    let mut partial = false;
    let mut each = |f: &mut dyn FnMut(&DeviceRib) -> Result<()>| -> Result<()> {
        let mut visit = |rib: &DeviceRib| {
            partial |= !rib.incomplete.is_empty();
            f(rib)
        };
        match &one {
            Some(ribs) => ribs.iter().try_for_each(&mut visit),
            None => model.ribs(&db, &q).try_for_each(|rib| visit(&rib?)),
        }
    };
    match cli.format {
        Format::Json => write_json(&mut out, model.state_version, &mut each)?,
        Format::Text => write_text(&mut out, &mut each)?,
    }
    out.flush()?;
    // An incomplete RIB is a partial answer (PRODUCT.md: exit 3), so that a script never
    // takes it for the whole table.
    Ok(if partial { Exit::Partial } else { Exit::Ok })
}

/// Visits each RIB of the answer, in order.
type Each<'a> = dyn FnMut(&mut dyn FnMut(&DeviceRib) -> Result<()>) -> Result<()> + 'a;

/// The JSON answer, a row at a time (a whole network's rows held as JSON values took a
/// gigabyte at 10,000 devices).
fn write_json(out: &mut impl Write, state_version: i64, each: &mut Each<'_>) -> Result<()> {
    writeln!(out, "{{")?;
    writeln!(out, "  \"state_version\": {state_version},")?;
    writeln!(out, "  \"columns\": {},", serde_json::to_string(&COLUMNS)?)?;
    writeln!(out, "  \"routes\": [")?;
    let mut first = true;
    let mut incomplete: Vec<serde_json::Value> = Vec::new();
    each(&mut |r| {
        for x in &r.routes {
            let sep = if std::mem::take(&mut first) {
                ""
            } else {
                ",\n"
            };
            write!(out, "{sep}    {}", x.to_json(&r.hostname))?;
        }
        incomplete.extend(
            r.incomplete
                .iter()
                .map(|i| serde_json::json!({"node": r.hostname, "vrf": i.vrf, "reason": i.reason})),
        );
        Ok(())
    })?;
    writeln!(out, "\n  ],")?;
    writeln!(
        out,
        "  \"incomplete\": {}",
        serde_json::to_string(&incomplete)?
    )?;
    writeln!(out, "}}")?;
    Ok(())
}

/// A route's cells in the text table.
fn cells(hostname: &str, x: &crate::routing::Route) -> [String; 8] {
    [
        hostname.to_owned(),
        x.vrf.clone(),
        x.network.to_string(),
        x.next_hop.to_string(),
        x.protocol.as_str().to_owned(),
        x.metric.to_string(),
        x.admin_distance.to_string(),
        x.tag.map_or_else(|| "-".to_owned(), |t| t.to_string()),
    ]
}

/// The text answer: the verdict, the incomplete RIBs, then the aligned rows. The RIBs
/// are visited twice: for the verdict and the column widths, then for the rows.
fn write_text(out: &mut impl Write, each: &mut Each<'_>) -> Result<()> {
    let header = COLUMNS.map(str::to_uppercase);
    let mut widths = header.clone().map(|h| h.chars().count());
    let (mut rows, mut devices) = (0usize, 0usize);
    // What the verdict needs of each RIB: all but its routes.
    let mut verdicts: Vec<DeviceRib> = Vec::new();
    each(&mut |r| {
        devices += 1;
        rows += r.routes.len();
        for x in &r.routes {
            for (w, c) in widths.iter_mut().zip(cells(&r.hostname, x)) {
                *w = (*w).max(c.chars().count());
            }
        }
        if !r.incomplete.is_empty() {
            verdicts.push(DeviceRib {
                hostname: r.hostname.clone(),
                vendor: r.vendor,
                routes: Vec::new(),
                incomplete: r.incomplete.clone(),
                unresolved_statics: r.unresolved_statics,
            });
        }
        Ok(())
    })?;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let partial = verdicts.len();
    let verdict = if partial == 0 {
        "complete".to_owned()
    } else {
        format!(
            "INCOMPLETE on {partial} device{}: they run routing protocols olav does not compute yet",
            plural(partial)
        )
    };
    writeln!(
        out,
        "{} route{} on {} device{} — {verdict}",
        rows,
        plural(rows),
        devices,
        plural(devices)
    )?;
    for l in incomplete_lines(&verdicts) {
        writeln!(out, "{l}")?;
    }
    if rows == 0 {
        writeln!(out, "(no routes)")?;
        return Ok(());
    }
    let line = |cells: &[String; 8]| {
        let mut l = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i + 1 == cells.len() {
                l.push_str(c);
            } else {
                l.push_str(&format!("{c:<w$}  "));
            }
        }
        l
    };
    writeln!(out)?;
    writeln!(out, "{}", line(&header))?;
    each(&mut |r| {
        for x in &r.routes {
            writeln!(out, "{}", line(&cells(&r.hostname, x)))?;
        }
        Ok(())
    })?;
    Ok(())
}
