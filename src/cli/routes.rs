//! `olav routes`: the computed main RIBs, as a table for people or Batfish's `routes`
//! rows in JSON.

use super::{open_or_demo, Cli, Exit};
use crate::output::Format;
use crate::routing::bgp::BGP_COLUMNS;
use crate::routing::{DeviceRib, Protocol, Query, RoutingModel, COLUMNS};
use anyhow::{bail, Result};
use ipnet::Ipv4Net;
use std::io::Write;

/// Reads `--prefix`: a prefix, or an address (its /32).
fn prefix(p: &str) -> Result<Ipv4Net> {
    if let Ok(n) = p.parse::<Ipv4Net>() {
        if n != n.trunc() {
            bail!(
                "--prefix '{p}' has host bits set: did you mean the network {} or the address {}?",
                n.trunc(),
                n.addr()
            );
        }
        return Ok(n);
    }
    match p.parse::<std::net::Ipv4Addr>() {
        Ok(a) => Ok(Ipv4Net::from(a)),
        Err(_) => bail!("--prefix '{p}': expected an IPv4 prefix (10.0.0.0/8) or address"),
    }
}

/// Reads `--protocol`: Batfish's name of a protocol olav computes.
fn protocol(p: &str) -> Result<Protocol> {
    match Protocol::from_name(p) {
        Some(p) => Ok(p),
        None => {
            let names: Vec<String> = Protocol::ALL.map(|p| p.as_str().to_owned()).to_vec();
            bail!(
                "--protocol '{p}': not a protocol olav computes{}; it computes {}",
                crate::fuzzy::closest(p, &names)
                    .map(|c| format!(" (did you mean {c}?)"))
                    .unwrap_or_default(),
                names.join(", ")
            )
        }
    }
}

/// The incomplete RIBs, one line per reason: the devices (with the VRF where it is not
/// every one), and the static routes left out with them.
fn incomplete_lines(ribs: &[DeviceRib]) -> Vec<String> {
    const SHOWN: usize = 8;
    // Per reason and VRF (None: every VRF of the device), the devices.
    let mut by_reason: std::collections::BTreeMap<(&str, Option<&str>), Vec<&str>> =
        Default::default();
    for r in ribs {
        for i in &r.incomplete {
            let list = by_reason
                .entry((i.reason.as_str(), i.vrf.as_deref()))
                .or_default();
            if !list.contains(&r.hostname.as_str()) {
                list.push(&r.hostname);
            }
        }
    }
    let mut out: Vec<String> = by_reason
        .into_iter()
        .map(|((reason, vrf), devices)| {
            let more = devices.len().saturating_sub(SHOWN);
            let mut names = devices[..devices.len().min(SHOWN)].join(", ");
            if more > 0 {
                names.push_str(&format!(", … {more} more (--format json lists them)"));
            }
            let scope = vrf.map_or_else(|| "every VRF".to_owned(), |v| format!("VRF {v}"));
            format!("  {reason} — {scope}: {names}")
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

/// An error unless the model has device `d` (with a suggestion for a typo).
pub fn known_device(db: &crate::state::StateDb, model: &RoutingModel, d: &str) -> Result<()> {
    if model.hostnames().iter().any(|h| h == d) {
        return Ok(());
    }
    if db.has_device(d)? {
        bail!("device '{d}' has no stored configuration: olav has no routes for it");
    }
    let names = db.hostnames()?;
    bail!(
        "no device '{d}' in {}{}",
        db.path().display(),
        crate::fuzzy::closest(d, &names)
            .map(|c| format!("; did you mean {c}?"))
            .unwrap_or_default()
    )
}

/// Whether `vrf` is the management plane's (kept out of the model); an error when no
/// device in scope (`device`, else any) has a VRF of that name.
pub fn known_vrf(db: &crate::state::StateDb, vrf: &str, device: Option<&str>) -> Result<bool> {
    if vrf == "default" {
        return Ok(false);
    }
    let m = crate::network::NetworkModel::shared(db)?;
    let in_scope = |h: &str| device.is_none_or(|d| d == h);
    let mut names: std::collections::BTreeSet<String> = m
        .addresses
        .iter()
        .filter(|a| in_scope(m.name(a.hostname)))
        .map(|a| m.name(a.vrf).to_owned())
        .collect();
    names.extend(
        m.static_routes
            .iter()
            .filter(|r| in_scope(&r.hostname))
            .map(|r| r.vrf.clone()),
    );
    names.insert("default".to_owned());
    if names.contains(vrf) {
        return Ok(crate::routing::connected::is_management("", vrf));
    }
    let list: Vec<&str> = names.iter().map(String::as_str).collect();
    bail!(
        "--vrf '{vrf}': no VRF of that name{}; VRFs: {}",
        device.map(|d| format!(" on {d}")).unwrap_or_default(),
        list.join(", ")
    )
}

/// The filters of `olav routes`, read.
pub fn query(
    device: Option<&str>,
    vrf: Option<&str>,
    prefix_arg: Option<&str>,
    protocol_arg: Option<&str>,
) -> Result<Query> {
    Ok(Query {
        device: device.map(str::to_owned),
        vrf: vrf.map(str::to_owned),
        prefix: prefix_arg.map(prefix).transpose()?,
        protocol: protocol_arg.map(protocol).transpose()?,
    })
}

/// What `olav routes` is asked.
pub struct Ask<'a> {
    /// `--device`.
    pub device: Option<&'a str>,
    /// `--vrf`.
    pub vrf: Option<&'a str>,
    /// `--prefix`.
    pub prefix: Option<&'a str>,
    /// `--protocol`.
    pub protocol: Option<&'a str>,
    /// `--rib`: `main` or `bgp`.
    pub rib: &'a str,
}

/// `olav routes`.
pub fn routes(cli: &Cli, ask: Ask<'_>) -> Result<Exit> {
    let Ask {
        device,
        vrf,
        prefix: prefix_arg,
        protocol: protocol_arg,
        rib,
    } = ask;
    let bgp_rib = match rib {
        "main" => false,
        "bgp" => true,
        other => bail!("--rib '{other}': expected main or bgp"),
    };
    let q = query(device, vrf, prefix_arg, protocol_arg)?;
    let db = open_or_demo(cli)?;
    let model = RoutingModel::shared(&db)?;
    if let Some(d) = device {
        known_device(&db, &model, d)?;
    }
    let management = match vrf {
        Some(v) => known_vrf(&db, v, device)?,
        None => false,
    };
    if management {
        let why = format!(
            "VRF {} is the management plane's: olav keeps it out of the routing model, as Batfish does — its routes are not known",
            vrf.unwrap_or_default()
        );
        match cli.format {
            Format::Json => println!(
                "{}",
                serde_json::json!({"state_version": model.state_version, "columns": COLUMNS,
                    "routes": [], "incomplete": [{"node": device, "vrf": vrf, "reason": why}]})
            ),
            Format::Text => println!("UNKNOWN — {why}"),
        }
        return Ok(Exit::Partial);
    }
    let network = unread_reason(&db)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if bgp_rib {
        // The BGP RIB: its rows by the same VRF and prefix; the main RIB's rows unused.
        let mut ribs = model.select(&db, &q)?;
        for r in &mut ribs {
            r.routes.clear();
            r.bgp.retain(|b| {
                q.vrf.as_ref().is_none_or(|v| *v == b.vrf)
                    && q.prefix.is_none_or(|p| b.network.contains(&p))
                    && q.protocol.is_none_or(|p| p.as_str() == b.protocol)
            });
        }
        match cli.format {
            Format::Json => write_bgp_json(&mut out, model.state_version, &ribs)?,
            Format::Text => write_bgp_text(&mut out, &ribs)?,
        }
        out.flush()?;
        return Ok(
            if network.is_some() || ribs.iter().any(|r| !r.incomplete.is_empty()) {
                Exit::Partial
            } else {
                Exit::Ok
            },
        );
    }
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
        Format::Json => write_json(&mut out, model.state_version, &mut each, network.as_deref())?,
        Format::Text => write_text(&mut out, &mut each, network.as_deref())?,
    }
    out.flush()?;
    // An incomplete RIB is a partial answer (PRODUCT.md: exit 3), so that a script never
    // takes it for the whole table.
    Ok(if partial || network.is_some() {
        Exit::Partial
    } else {
        Exit::Ok
    })
}

/// Why every table may miss routes: the snapshot holds device configurations olav does
/// not read (their routes, and what they pass on, are not computed).
fn unread_reason(db: &crate::state::StateDb) -> Result<Option<String>> {
    let unread = db.unread_configs()?;
    let Some((file, what)) = unread.first() else {
        return Ok(None);
    };
    let more = match unread.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    Ok(Some(format!(
        "the snapshot holds device configurations olav does not read ({file}: {what}{more}): routes they send are in no table here"
    )))
}

/// Visits each RIB of the answer, in order.
type Each<'a> = dyn FnMut(&mut dyn FnMut(&DeviceRib) -> Result<()>) -> Result<()> + 'a;

/// The JSON answer, a row at a time (a whole network's rows held as JSON values took a
/// gigabyte at 10,000 devices).
fn write_json(
    out: &mut impl Write,
    state_version: i64,
    each: &mut Each<'_>,
    network: Option<&str>,
) -> Result<()> {
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
    if let Some(why) = network {
        incomplete.push(serde_json::json!({"node": null, "vrf": null, "reason": why}));
    }
    writeln!(out, "\n  ],")?;
    writeln!(
        out,
        "  \"incomplete\": {},",
        serde_json::to_string(&incomplete)?
    )?;
    // The exit status in words, as every JSON answer carries it (docs/json.md).
    let status = if incomplete.is_empty() {
        "ok"
    } else {
        "partial"
    };
    writeln!(out, "  \"status\": \"{status}\"")?;
    writeln!(out, "}}")?;
    Ok(())
}

/// The `incomplete` entries of a JSON answer.
fn incomplete_json(ribs: &[DeviceRib]) -> Vec<serde_json::Value> {
    ribs.iter()
        .flat_map(|r| {
            r.incomplete.iter().map(
                move |i| serde_json::json!({"node": r.hostname, "vrf": i.vrf, "reason": i.reason}),
            )
        })
        .collect()
}

/// The BGP RIB as JSON: Batfish's `bgpRib` rows.
fn write_bgp_json(out: &mut impl Write, state_version: i64, ribs: &[DeviceRib]) -> Result<()> {
    let rows: Vec<serde_json::Value> = ribs
        .iter()
        .flat_map(|r| r.bgp.iter().map(move |b| b.to_json(&r.hostname)))
        .collect();
    let answer = serde_json::json!({
        "state_version": state_version,
        "columns": BGP_COLUMNS,
        "routes": rows,
        "incomplete": incomplete_json(ribs),
    });
    writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    Ok(())
}

/// The BGP RIB as text: the verdict, then one line per path (`*` the best ones).
fn write_bgp_text(out: &mut impl Write, ribs: &[DeviceRib]) -> Result<()> {
    let header = [
        "",
        "NODE",
        "VRF",
        "NETWORK",
        "NEXT_HOP",
        "PROTOCOL",
        "AS_PATH",
        "MED",
        "LOCAL_PREF",
        "WEIGHT",
        "ORIGIN",
        "COMMUNITIES",
    ]
    .map(str::to_owned);
    let rows: Vec<[String; 12]> = ribs
        .iter()
        .flat_map(|r| {
            r.bgp.iter().map(move |b| {
                [
                    if b.installed { "*" } else { " " }.to_owned(),
                    r.hostname.clone(),
                    b.vrf.clone(),
                    b.network.to_string(),
                    b.next_hop
                        .map_or_else(|| "local".to_owned(), |n| n.to_string()),
                    b.protocol.clone(),
                    b.as_path
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                    b.med.to_string(),
                    b.local_pref.to_string(),
                    b.weight.to_string(),
                    b.origin.as_str().to_owned(),
                    b.communities.join(" "),
                ]
            })
        })
        .collect();
    let partial = ribs.iter().filter(|r| !r.incomplete.is_empty()).count();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    writeln!(
        out,
        "{} BGP path{} on {} device{} (* installed) — {}",
        rows.len(),
        plural(rows.len()),
        ribs.len(),
        plural(ribs.len()),
        if partial == 0 {
            "complete".to_owned()
        } else {
            format!("INCOMPLETE on {partial} device{}", plural(partial))
        }
    )?;
    for l in incomplete_lines(ribs) {
        writeln!(out, "{l}")?;
    }
    if rows.is_empty() {
        writeln!(out, "(no BGP paths)")?;
        return Ok(());
    }
    let mut widths = header.clone().map(|h| h.chars().count());
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    writeln!(out)?;
    for r in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        writeln!(out, "{}", cells.join("  ").trim_end())?;
    }
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
fn write_text(out: &mut impl Write, each: &mut Each<'_>, network: Option<&str>) -> Result<()> {
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
                bgp: Vec::new(),
            });
        }
        Ok(())
    })?;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let partial = verdicts.len();
    let verdict = if partial == 0 && network.is_some() {
        "INCOMPLETE: configurations olav does not read (below)".to_owned()
    } else if partial == 0 {
        "complete".to_owned()
    } else {
        format!(
            "INCOMPLETE on {partial} device{}: routes olav does not compute or could not read (below)",
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
    if let Some(why) = network {
        writeln!(out, "  {why}")?;
    }
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
