//! `olav precheck`, `olav report` and `olav blast-radius`.

use super::{open_or_demo, Cli, Exit};
use crate::agents::capability::{PlanReader, ReportWriter, StateReader, Tools};
use crate::agents::reporter::Reporter;
use crate::output::{self, Format};
use crate::precheck::blast::{Graph, Spec};
use crate::precheck::Options;
use crate::report::{Impact, Picture};
use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;

/// Parses `7d`, `12h`, `30m`.
pub fn parse_age(s: &str) -> Result<chrono::Duration> {
    let (num, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: i64 = num
        .parse()
        .map_err(|_| anyhow!("--max-age '{s}': expected a number and d, h or m (7d)"))?;
    Ok(match unit {
        "d" | "" => chrono::Duration::days(n),
        "h" => chrono::Duration::hours(n),
        "m" => chrono::Duration::minutes(n),
        _ => bail!("--max-age '{s}': the unit must be d, h or m"),
    })
}

/// The largest network whose what-if recomputes every routing table without
/// `--routing`: 100 synth devices take 0.1 s and 26 MB, 400 take 0.7 s and 50 MB
/// (`docs/performance.md`).
const ROUTING_BY_DEFAULT: usize = 300;

/// `olav precheck <plan.md>`.
pub fn precheck(cli: &Cli, plan: &Path, max_age: &str) -> Result<Exit> {
    let options = Options {
        max_age: parse_age(max_age)?,
    };
    drop(open_or_demo(cli)?);
    let tools = Tools::default();
    let reporter = Reporter::new(
        StateReader::new(&cli.db, tools.clone()),
        PlanReader::new(&cli.exports, tools.clone()),
        ReportWriter::new(&cli.exports, &cli.db, tools),
    )
    .with_options(options);
    let named = plan.to_string_lossy();
    let checked = reporter.check(&named).map_err(|e| anyhow!("{e}"))?;
    let (report, saved) = (&checked.report, &checked.saved);
    match cli.format {
        Format::Json => println!(
            "{}",
            output::json(&serde_json::json!({
                "report": report,
                "report_path": saved,
                "html_report": checked.html.as_ref().ok(),
                "html_missing": checked.html.as_ref().err(),
            }))
        ),
        Format::Text => {
            print!("{}", report.summary());
            println!("Report: {}", saved.display());
            println!("{}", checked.html_line());
            if report.verdict != "FAIL" {
                println!("Next: {} verify {named}", crate::output::invoked());
            }
        }
    }
    // A plan that cannot be read is bad input: its report says why, and there is no
    // verdict on a change to give. A verdict without its HTML report is a partial
    // result, unless it fails anyway.
    Ok(if report.plan_id.is_none() {
        Exit::BadInput
    } else if cli.fail_on.fails(report.verdict) {
        Exit::Fail
    } else if checked.html.is_err() {
        Exit::Partial
    } else {
        Exit::Ok
    })
}

/// `olav report <plan.md>`: the plan's HTML page again, from the current state.
pub fn report(cli: &Cli, plan: &Path, max_age: &str) -> Result<Exit> {
    let options = Options {
        max_age: parse_age(max_age)?,
    };
    drop(open_or_demo(cli)?);
    let tools = Tools::default();
    let reporter = Reporter::new(
        StateReader::new(&cli.db, tools.clone()),
        PlanReader::new(&cli.exports, tools.clone()),
        ReportWriter::new(&cli.exports, &cli.db, tools),
    )
    .with_options(options);
    let (report, page) = reporter
        .render(&plan.to_string_lossy())
        .map_err(|e| anyhow!("{e}"))?;
    match cli.format {
        Format::Json => println!(
            "{}",
            output::json(&serde_json::json!({"verdict": report.verdict, "html_path": page}))
        ),
        Format::Text => println!(
            "HTML report: {} (pre-check {} on state version {})",
            page.display(),
            report.verdict,
            report.state_version
        ),
    }
    Ok(Exit::Ok)
}

fn split_end(s: &str) -> Option<(String, String)> {
    let (d, i) = s.split_once(':')?;
    Some((d.trim().to_owned(), i.trim().to_owned()))
}

/// One end of a link: (device, interface).
type End = (String, String);

/// `A:IF-B:IF` → its two ends, split on the '-' that starts the second end: hostnames
/// and Junos interface names (`ge-0/0/0.0`) contain '-', hostnames never contain '/'.
fn split_link(l: &str) -> Option<(End, End)> {
    l.match_indices('-')
        .map(|(i, _)| (&l[..i], &l[i + 1..]))
        .find_map(|(a, b)| {
            let (a, b) = (split_end(a)?, split_end(b)?);
            (!a.1.is_empty()
                && !b.1.is_empty()
                && !a.1.contains(':')
                && !b.0.is_empty()
                && !b.0.contains('/'))
            .then_some((a, b))
        })
}

/// `olav blast-radius --device X --interface D:I --link A:I-B:J --peer NAME|IP [--html FILE]`.
pub fn blast_radius(
    cli: &Cli,
    devices: &[String],
    interfaces: &[String],
    links: &[String],
    peers: &[String],
    html: Option<&Path>,
    routing: bool,
) -> Result<Exit> {
    if devices.is_empty() && interfaces.is_empty() && links.is_empty() && peers.is_empty() {
        bail!("name at least one element: --device, --interface DEV:IF, --link DEV:IF-DEV:IF or --peer NAME|IP|DEVICE:IP");
    }
    let mut spec = Spec {
        devices: devices.to_vec(),
        ..Spec::default()
    };
    for i in interfaces {
        spec.interfaces.push(
            split_end(i).ok_or_else(|| anyhow!("--interface '{i}': expected DEVICE:INTERFACE"))?,
        );
    }
    for l in links {
        let parsed = split_link(l)
            .ok_or_else(|| anyhow!("--link '{l}': expected DEVICE:INTERFACE-DEVICE:INTERFACE"))?;
        spec.links.push(parsed);
    }
    for p in peers {
        // DEVICE:ADDRESS names one session; an IPv6 address alone has colons too.
        match p.split_once(':') {
            Some((dev, addr))
                if dev.parse::<std::net::IpAddr>().is_err()
                    && addr.parse::<std::net::IpAddr>().is_ok() =>
            {
                spec.peers.push((Some(dev.to_owned()), addr.to_owned()))
            }
            _ => spec.peers.push((None, p.clone())),
        }
    }
    let db = open_or_demo(cli)?;
    // An interface the device does not have is unknown, not harmless (the model's
    // interfaces are read only when an interface is named).
    let mut missing: Vec<String> = Vec::new();
    if !spec.interfaces.is_empty() {
        let model = crate::network::NetworkModel::shared(&db)?;
        let rows = crate::network::Interfaces::shared(&db)?;
        missing = spec
            .interfaces
            .iter()
            .filter(|(d, i)| {
                model.device(d).is_some_and(|x| {
                    !rows
                        .of(x)
                        .iter()
                        .any(|r| crate::ifname::same(i, rows.name(r.name)))
                })
            })
            .map(|(d, i)| format!("{d}:{i}"))
            .collect();
    }
    let g = Graph::load(&db)?;
    let mut b = g.blast(&spec);
    b.unknown.extend(missing);
    if !b.unknown.is_empty() {
        bail!("not in the state DB: {}", b.unknown.join(", "));
    }
    // The routing model's answer: the networks no device routes after the what-if (a
    // session named alone is not replayed in it: its prefixes are the topology's). Every
    // table is recomputed: by default only where that stays well under a second.
    let small = g.device_count() <= ROUTING_BY_DEFAULT;
    let routed = if spec.peers.is_empty() && (routing || small) {
        let mut shut = spec.interfaces.clone();
        for (a, z) in &spec.links {
            shut.extend([a.clone(), z.clone()]);
        }
        crate::precheck::forwarding::what_if_withdrawn(&db, &spec.devices, &shut)?
    } else {
        None
    };
    if let Some(w) = &routed {
        crate::precheck::add_withdrawn(&db, &mut b, w, &|_| false)?;
    }
    if let Some(file) = html {
        let picture = Picture::load(&db, &Impact::of_spec(&spec), &b)?;
        let page = crate::report::html::what_if_page(
            &spec,
            &b,
            &picture,
            db.state_version()?,
            &crate::state::now(),
        );
        crate::fsutil::write_atomic(file, page.as_bytes())
            .with_context(|| format!("writing the HTML page {}", file.display()))?;
    }
    // Without anchors nothing can be called cut off, nor its prefixes withdrawn: unknown,
    // never "none".
    let unknown = g.anchor_count() == 0;
    match cli.format {
        Format::Json => {
            let mut v = serde_json::json!({
                "number": b.number(),
                "blast_radius": b,
                "withdrawn_from_routing": routed.is_some(),
            });
            // Only when it is so: a network with anchors answers as it always did.
            if unknown {
                v["isolation_unknown"] = serde_json::Value::Bool(true);
            }
            println!("{}", output::json(&v))
        }
        Format::Text => {
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_owned()
                } else {
                    v.join(", ")
                }
            };
            let services: Vec<String> = b.services.iter().map(ToString::to_string).collect();
            println!(
                "Blast radius: {} device(s) — removed {}, isolated {}",
                b.number(),
                b.removed.len(),
                if unknown {
                    "unknown".to_owned()
                } else {
                    b.isolated.len().to_string()
                }
            );
            let withdrawn = if unknown && routed.is_none() {
                format!(
                    "{} (held only by removed devices; what the change cuts off, and the prefixes only it holds, are unknown)",
                    list(&b.prefixes_withdrawn)
                )
            } else if routed.is_none() && !spec.peers.is_empty() {
                format!(
                    "{} (from the topology: a what-if that names a session is not replayed in the routing model)",
                    list(&b.prefixes_withdrawn)
                )
            } else if routed.is_none() && !routing {
                format!(
                    "{} (from the topology; --routing adds the networks no device routes any more)",
                    list(&b.prefixes_withdrawn)
                )
            } else if routed.is_none() {
                format!(
                    "{} (from the topology: the routing model is recomputed for networks of up to {} devices ({} here) whose shutdowns olav can write in each device's dialect)",
                    list(&b.prefixes_withdrawn),
                    crate::routing::candidate::MAX_DEVICES,
                    g.device_count()
                )
            } else {
                list(&b.prefixes_withdrawn)
            };
            let rows = [
                ("removed", list(&b.removed)),
                (
                    "isolated",
                    if unknown {
                        "unknown: no device has a border or core role and no external peer is known"
                            .to_owned()
                    } else {
                        list(&b.isolated)
                    },
                ),
                ("degraded", list(&b.degraded)),
                ("links removed", b.links_removed.to_string()),
                ("sessions lost", list(&b.sessions_lost)),
                ("peers lost", list(&b.peers_lost)),
                ("withdrawn", withdrawn),
                ("services", list(&services)),
            ];
            for (k, v) in rows {
                println!("  {k:<14} {v}");
            }
            if unknown {
                println!("  The routes the change loses, device by device: draft it (\"what if … goes down\") and pre-check the plan, or `olav routes --plan <plan>`.");
            }
            if let Some(file) = html {
                println!("HTML page: {}", file.display());
            }
        }
    }
    Ok(Exit::Ok)
}

/// `olav check [--only …] [--plan <plan.md>]`.
pub fn static_checks(cli: &Cli, only: &[crate::checks::Only], plan: Option<&Path>) -> Result<Exit> {
    use crate::checks;
    let db = open_or_demo(cli)?;
    let (f, label) = match plan {
        None => (
            checks::imported(&db)?.only(only),
            "the imported network".to_owned(),
        ),
        Some(p) => {
            let tools = Tools::default();
            let reader = PlanReader::new(&cli.exports, tools);
            let named = p.to_string_lossy();
            let (_, text) = reader.read(&named).map_err(|e| anyhow!("{e}"))?;
            let parsed =
                crate::plan::Plan::from_markdown(&text).map_err(|e| anyhow!("{named}: {e}"))?;
            // Recomputed where the plan reaches, as the verification does (the whole
            // candidate where it cannot be scoped): the same rows, without decoding
            // every device.
            let version = db.state_version()?;
            let imported = checks::imported(&db)?;
            (
                checks::candidate(&db, &parsed, &imported, version)?.only(only),
                format!("the candidate network of {named}"),
            )
        }
    };
    // Whether compatible sessions come up, from the routing model (the imported network
    // only: a candidate's routes are `olav routes --plan`'s).
    let reach = if plan.is_none() && (only.is_empty() || only.contains(&checks::Only::Bgp)) {
        checks::reach::judge(&db, &f.bgp)?
    } else {
        checks::reach::Reachability::default()
    };
    let mut rows = f.problems();
    rows.extend(reach.problems());
    let problems: Vec<String> = rows.iter().map(|p| p.message.clone()).collect();
    // About the imported state, not a configuration: a candidate adds none.
    let warnings =
        if plan.is_none() && (only.is_empty() || only.contains(&checks::Only::Management)) {
            checks::warnings(&db)?
        } else {
            Vec::new()
        };
    // Files the import did not read (other vendors) may hold the peers an iBGP session is
    // UNKNOWN_REMOTE towards (`checkpoint_simple_routing`: an IOS router's iBGP peer is the
    // Check Point firewall, named and skipped): then those rows cannot tell, and when
    // they are the only problems the verdict is partial, not FAIL.
    let skipped = db.stats()?.files_skipped;
    let unknown_remotes = f
        .bgp_problems()
        .filter(|s| s.configured_status == checks::bgp::Status::UnknownRemote)
        .count();
    let verdict = if problems.is_empty() {
        "PASS"
    } else if skipped > 0 && problems.len() == unknown_remotes {
        "PARTIAL"
    } else {
        "FAIL"
    };
    let note = (skipped > 0).then(|| {
        format!(
            "{skipped} file(s) were not read by the last import (`state show warnings`): what they configure is not checked{}",
            if unknown_remotes > 0 {
                ", and an UNKNOWN_REMOTE peer may be on them"
            } else {
                ""
            }
        )
    });
    match cli.format {
        Format::Json => println!(
            "{}",
            output::json(&serde_json::json!({
                "verdict": verdict,
                "not_read": note,
                "scope": label,
                "problems": rows,
                "duplicates": f.duplicates,
                "overlaps": f.overlaps,
                "bgp": f.bgp,
                "references": f.references,
                "established": reach.sessions,
                "not_judged": reach.note,
                "warnings": warnings,
            }))
        ),
        Format::Text => {
            let peerings = f.bgp.len();
            let bad_bgp = f.bgp_problems().count() + reach.problems().len();
            println!(
                "{verdict} — static checks (not Batfish) on {label}: {} duplicate IP owner(s), {} overlap(s), {bad_bgp} of {peerings} BGP peering(s) with a problem, {} undefined reference(s)",
                f.duplicates.len(),
                f.overlaps.len(),
                f.references.len()
            );
            for p in &problems {
                println!("  {p}");
            }
            for w in &warnings {
                println!("  warning: {}", w.message);
            }
            if let Some(n) = &note {
                println!("Note: {n}");
            }
            if let Some(n) = &reach.note {
                println!("Note: {n}");
            }
            if !problems.is_empty() {
                println!(
                    "Next: {} check --format json   # every row, with Batfish's column names",
                    crate::output::invoked()
                );
            }
        }
    }
    Ok(match verdict {
        "PASS" => Exit::Ok,
        "PARTIAL" => Exit::Partial,
        _ => Exit::Fail,
    })
}

/// `olav verify <plan.md>`.
pub fn verify(cli: &Cli, plan: &Path) -> Result<Exit> {
    use crate::agents::capability::{BatfishCaller, ConfigReader};
    use crate::agents::simulator::Simulator;
    drop(open_or_demo(cli)?);
    let tools = Tools::default();
    let sim = Simulator::new(
        PlanReader::new(&cli.exports, tools.clone()),
        ReportWriter::new(&cli.exports, &cli.db, tools.clone()),
        ConfigReader::new(&cli.db, tools.clone()),
        BatfishCaller::new(super::batfish_settings(cli), tools),
    );
    let v = sim
        .verify(&plan.to_string_lossy())
        .map_err(|e| anyhow!("{e}"))?;
    match cli.format {
        Format::Json => println!("{}", output::json(&v)),
        Format::Text => {
            println!("Verdict: {}", v.verdict);
            print!("{}", v.text);
            println!("Report: {}", v.report.display());
        }
    }
    Ok(if cli.fail_on.fails(v.verdict) {
        Exit::Fail
    } else {
        Exit::Ok
    })
}

/// `olav batfish status`.
pub fn batfish_status(cli: &Cli) -> Result<Exit> {
    let s = super::batfish_settings(cli);
    let client = crate::batfish::client::Client::new(s.endpoint.clone(), s.deadline)
        .map_err(|e| anyhow!("{e}"))?;
    match client.version(s.probe) {
        Ok(v) => {
            match cli.format {
                Format::Json => println!(
                    "{}",
                    output::json(
                        &serde_json::json!({"reachable": true, "address": s.endpoint.address(), "version": v})
                    )
                ),
                Format::Text => println!("Batfish {v} is reachable at {}", s.endpoint.address()),
            }
            Ok(Exit::Ok)
        }
        Err(e) => {
            match cli.format {
                Format::Json => println!(
                    "{}",
                    output::json(
                        &serde_json::json!({"reachable": false, "address": s.endpoint.address(), "error": e.to_string()})
                    )
                ),
                Format::Text => {
                    println!("{e}");
                    print!(
                        "{}",
                        crate::batfish::guidance(&s.endpoint.address(), "<plan.md>")
                    );
                }
            }
            Ok(Exit::BadInput)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_split_between_their_ends() {
        let end = |d: &str, i: &str| (d.to_owned(), i.to_owned());
        assert_eq!(
            split_link("alpha-core-1:Gi0/1-alpha-dist-1:Gi0/2"),
            Some((end("alpha-core-1", "Gi0/1"), end("alpha-dist-1", "Gi0/2")))
        );
        assert_eq!(
            split_link("jx-border1:ge-0/0/0.0-jx-core1:ge-0/0/0.0"),
            Some((
                end("jx-border1", "ge-0/0/0.0"),
                end("jx-core1", "ge-0/0/0.0")
            ))
        );
        assert_eq!(split_link("r1:Gi1"), None);
    }
}
