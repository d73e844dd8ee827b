//! `olav routes --trace SRC DST`: the forwarding path of one address from a device,
//! through the computed RIBs, every ECMP branch.

use super::{open_or_demo, Cli, Exit};
use crate::network::NetworkModel;
use crate::output::Format;
use crate::routing::trace::{trace, Addresses, Branch, Disposition};
use crate::routing::RoutingModel;
use anyhow::{bail, Result};
use std::net::Ipv4Addr;

/// `olav routes --trace SRC DST [--vrf V]`: SRC is a device or an address one holds.
pub fn run(cli: &Cli, src: &str, dst: &str, vrf: Option<&str>) -> Result<Exit> {
    let Ok(dst_ip) = dst.parse::<Ipv4Addr>() else {
        bail!("--trace destination '{dst}': expected an IPv4 address (10.1.2.3)");
    };
    let db = open_or_demo(cli)?;
    let model = RoutingModel::shared(&db)?;
    let net = NetworkModel::shared(&db)?;
    let addresses = Addresses::of_model(&net);
    let (source, src_vrf) = match src.parse::<Ipv4Addr>() {
        Ok(ip) => match addresses.device_of(ip) {
            Some((h, v)) => (h.to_owned(), v.to_owned()),
            None => match addresses.holders(ip).as_slice() {
                [] => bail!("--trace source {src}: no device of the state holds this address"),
                many => bail!(
                    "--trace source {src}: held by {} (a shared, first-hop redundancy address): give one of them as SRC",
                    many.join(", ")
                ),
            },
        },
        Err(_) if model.hostnames().iter().any(|h| h == src) => (src.to_owned(), "default".into()),
        Err(_) => {
            let names = db.hostnames()?;
            bail!(
                "--trace source '{src}': no device of that name with a stored configuration in {}{}",
                db.path().display(),
                crate::fuzzy::closest(src, &names)
                    .map(|c| format!("; did you mean {c}?"))
                    .unwrap_or_default()
            );
        }
    };
    let vrf = vrf.map_or(src_vrf, str::to_owned);
    if super::routes::known_vrf(&db, &vrf, Some(&source))? {
        let why = format!(
            "VRF {vrf} is the management plane's: olav keeps it out of the routing model, as Batfish does — how {source} forwards there is not known"
        );
        match cli.format {
            Format::Json => println!(
                "{}",
                serde_json::json!({"state_version": model.state_version, "source": source,
                    "vrf": vrf, "destination": dst_ip.to_string(), "branches": [],
                    "disposition": "INSUFFICIENT_INFO", "caveats": [why]})
            ),
            Format::Text => println!("{source} → {dst_ip} (VRF {vrf}): INSUFFICIENT_INFO — {why}"),
        }
        return Ok(Exit::Partial);
    }
    let lookup = |h: &str| model.device(&db, h).ok().flatten().map(std::sync::Arc::new);
    let branches = trace(&lookup, &addresses, &source, &vrf, dst_ip);
    match cli.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "state_version": model.state_version,
                "source": source,
                "vrf": vrf,
                "destination": dst_ip.to_string(),
                "branches": branches,
            }))?
        ),
        Format::Text => print!("{}", text(&source, &vrf, dst_ip, &branches)),
    }
    // A branch olav could not follow to its end is a partial answer.
    let unsure = branches
        .iter()
        .any(|b| b.disposition == Disposition::InsufficientInfo || !b.caveats.is_empty());
    Ok(if unsure { Exit::Partial } else { Exit::Ok })
}

/// The answer for people: the verdict (each disposition and where), each branch's hops
/// aligned, the caveats, the next command.
fn text(source: &str, vrf: &str, dst: Ipv4Addr, branches: &[Branch]) -> String {
    let mut ends: Vec<String> = Vec::new();
    for b in branches {
        let at = b.hops.last().map_or("", |h| h.node.as_str());
        let e = format!("{} at {at}", b.disposition);
        if !ends.contains(&e) {
            ends.push(e);
        }
    }
    let n = branches.len();
    let mut out = format!(
        "{source} → {dst} (VRF {vrf}): {} — {n} branch{}\n",
        ends.join(", "),
        if n == 1 { "" } else { "es" }
    );
    let mut caveats: Vec<&str> = Vec::new();
    for (i, b) in branches.iter().enumerate() {
        out.push_str(&format!("\nbranch {}: {}\n", i + 1, b.disposition));
        let rows: Vec<[String; 5]> = b
            .hops
            .iter()
            .map(|h| {
                let or = |x: &Option<String>| x.clone().unwrap_or_else(|| "-".to_owned());
                [
                    h.node.clone(),
                    h.vrf.clone(),
                    or(&h.network),
                    or(&h.protocol),
                    match (&h.next_hop, &h.egress) {
                        (Some(n), Some(e)) => {
                            let n = n.to_string();
                            // The exit interface always shown, once.
                            if n.ends_with(e.as_str()) {
                                n
                            } else {
                                format!("{n} (out {e})")
                            }
                        }
                        (Some(n), None) => n.to_string(),
                        (None, Some(on)) if b.disposition == Disposition::Accepted => {
                            format!("accepts: holds {dst} on {on}")
                        }
                        (None, _) => "-".to_owned(),
                    },
                ]
            })
            .collect();
        let mut w = [0usize; 5];
        for r in &rows {
            for (w, c) in w.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        for r in &rows {
            let line = format!(
                "  {:<a$}  {:<b$}  {:<c$}  {:<d$}  {}",
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                a = w[0],
                b = w[1],
                c = w[2],
                d = w[3]
            );
            out.push_str(line.trim_end());
            out.push('\n');
        }
        for c in &b.caveats {
            if !caveats.contains(&c.as_str()) {
                caveats.push(c);
            }
        }
    }
    if !caveats.is_empty() {
        out.push_str("\nolav cannot be sure:\n");
        for c in caveats {
            out.push_str(&format!("  {c}\n"));
        }
    }
    let in_vrf = if vrf == "default" {
        String::new()
    } else {
        format!(" --vrf {vrf}")
    };
    out.push_str(&format!(
        "\nNext: olav routes --device {source} --prefix {dst}{in_vrf}\n"
    ));
    out
}
