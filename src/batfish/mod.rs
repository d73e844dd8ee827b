//! Formal verification with Batfish: the base snapshot from the state DB (configs and the
//! snapshot's other files), a candidate forked from it with the plan applied, the
//! questions a change verifier asks of both, and only what is new in the candidate
//! counted. Every call goes through the run's circuit breaker. What olav relies on in
//! Batfish's behaviour, with the source of each: `docs/verification.md`.

pub mod client;
pub mod snapshot;
mod verify;

pub use verify::UNVERIFIED;

use crate::engine::breaker::{ErrorClass, ToolError, Tools};
use crate::plan::{Plan, Target};
use client::{snapshot_zip, BatfishError, Client, TableAnswer, Upload};
use serde_json::json;
use snapshot::GeneratedIsp;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The Batfish network olav works in.
pub const NETWORK: &str = "olav";

/// A finding of the formal verification.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    /// error / warning / info.
    pub severity: &'static str,
    /// The question that found it.
    pub question: &'static str,
    /// What it found.
    pub message: String,
}

/// The configs the base snapshot is built from: (hostname, text).
pub type Configs = Vec<(String, String)>;

/// Everything a verification sends to Batfish, read from the state DB.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// Every device's configuration: (hostname as stored, text).
    pub configs: Configs,
    /// The snapshot's other files as the state DB keeps them: (relative path, bytes).
    pub extra: Vec<(String, Vec<u8>)>,
    /// `isp_config.json` generated for the base, when the snapshot has none.
    pub isp_base: Option<GeneratedIsp>,
    /// The same for the candidate (the plan may add a provider session).
    pub isp_candidate: Option<GeneratedIsp>,
}

/// How the verification treats snapshots it creates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Housekeeping {
    /// Candidate snapshots kept for debugging (the newest N); 0 deletes each once read.
    pub keep_snapshots: usize,
}

fn tool<T>(
    tools: &Tools,
    name: &str,
    args: serde_json::Value,
    f: impl FnOnce() -> Result<T, BatfishError>,
) -> Result<T, ToolError> {
    tools.call(name, args, || {
        f().map_err(|e| (ErrorClass::Environment, e.to_string()))
    })
}

/// The probe's answer when nothing listens at `endpoint` (connection refused), as the
/// probe itself records it.
pub fn unreachable(tools: &Tools, endpoint: &client::Endpoint) -> Result<String, ToolError> {
    tool(
        tools,
        "batfish.version",
        json!({"host": endpoint.address()}),
        || {
            Err(BatfishError::Unreachable {
                address: endpoint.address(),
                reason: client::REFUSED.to_owned(),
            })
        },
    )
}

/// Whether Batfish answers the probe (within `probe`): its version, or why not.
pub fn probe(tools: &Tools, c: &Client, probe: std::time::Duration) -> Result<String, ToolError> {
    tool(
        tools,
        "batfish.version",
        json!({"host": c.endpoint().address()}),
        || c.version(probe),
    )
}

fn digest(inputs: &Inputs) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (n, t) in &inputs.configs {
        h.update(n.as_bytes());
        h.update([0]);
        h.update(t.as_bytes());
    }
    for (p, b) in base_extra(inputs) {
        h.update([1]);
        h.update(p.as_bytes());
        h.update([0]);
        h.update(&b);
    }
    h.finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The base's files besides configs: the stored ones, plus the generated ISP file.
fn base_extra(inputs: &Inputs) -> Vec<(String, Vec<u8>)> {
    let mut extra = inputs.extra.clone();
    if let Some(isp) = &inputs.isp_base {
        extra.push((snapshot::ISP_CONFIG.to_owned(), isp.json.clone()));
    }
    extra
}

/// The path of a device's config in the snapshot (and in fileParseStatus's File_Name).
fn config_path(host: &str) -> String {
    format!("configs/{host}.cfg")
}

/// The snapshot's config files: a SONiC device as its two files in
/// `sonic_configs/<host>/`, as Batfish reads it.
fn files(configs: &Configs) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(configs.len());
    for (h, t) in configs.iter() {
        match crate::import::parse::frr::sonic::split(t) {
            Some((db, frr)) => {
                out.push((format!("sonic_configs/{h}/config_db.json"), db.to_owned()));
                out.push((format!("sonic_configs/{h}/frr.conf"), frr.to_owned()));
            }
            None => out.push((config_path(h), t.clone())),
        }
    }
    out
}

fn rows_as_lines(t: &TableAnswer, cols: &[&str]) -> BTreeSet<String> {
    t.rows
        .iter()
        .map(|r| {
            cols.iter()
                .map(|c| TableAnswer::cell(r, c))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// A Batfish node specifier naming exactly these nodes: lowercase (Batfish's node names),
/// quoted so that no name is read as a regex or an IP (`SpecifierLexer.g4`).
pub fn node_spec<'a>(nodes: impl IntoIterator<Item = &'a str>) -> String {
    nodes
        .into_iter()
        .map(|n| format!("\"{}\"", n.to_lowercase().replace('"', "\\\"")))
        .collect::<Vec<_>>()
        .join(",")
}

fn zip_error(e: std::io::Error) -> ToolError {
    ToolError::Failed {
        signature: "batfish.zip".into(),
        message: e.to_string(),
        class: ErrorClass::Environment,
    }
}

/// Processing statuses in which a snapshot has parsed and questions can be queued
/// (`InitializationMetadata.ProcessingStatus`; `WorkQueueMgr` refuses work on the others).
fn usable(status: &str) -> bool {
    matches!(status, "PARSED" | "DATAPLANING" | "DATAPLANED")
}

/// How long an uploaded but never parsed base is given for its parse work to be queued
/// by the run that uploaded it, before it counts as abandoned.
const UNINITIALIZED_GRACE: Duration = Duration::from_secs(10);

/// Makes sure the base snapshot exists and has parsed: reuses it when its status says it
/// parsed, waits while another run parses it, and deletes and uploads it again when its
/// parse failed (or it was left unparsed).
fn ensure_base(
    tools: &Tools,
    c: &Client,
    net: &str,
    base: &str,
    inputs: &Inputs,
) -> Result<(), ToolError> {
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(200);
    let mut replaced = 0;
    loop {
        let existing = tool(tools, "batfish.snapshots", json!({"network": net}), || {
            c.snapshots(net)
        })?;
        let status = existing
            .iter()
            .find(|s| s.name == base)
            .map(|s| s.status.clone().unwrap_or_default());
        match status.as_deref() {
            None => {
                let zip = snapshot_zip(base, &files(&inputs.configs), &base_extra(inputs))
                    .map_err(zip_error)?;
                let up = tool(tools, "batfish.upload", json!({"snapshot": base}), || {
                    c.upload_snapshot(net, base, zip)
                })?;
                if up == Upload::AlreadyExists {
                    // Another run uploaded it between our list and our upload: look again.
                    continue;
                }
                return tool(tools, "batfish.parse", json!({"snapshot": base}), || {
                    c.parse(net, base)
                });
            }
            // A Batfish without statuses in its list: trust the name, as before.
            Some("") => return Ok(()),
            Some(s) if usable(s) => return Ok(()),
            Some("PARSING") => {}
            Some("UNINITIALIZED") if started.elapsed() < UNINITIALIZED_GRACE => {}
            Some(s) => {
                // PARSING_FAIL, DATAPLANING_FAIL or abandoned: every question on it would
                // fail ("Status is PARSING_FAIL but no incomplete parsing work exists").
                replaced += 1;
                if replaced > 2 {
                    return Err(ToolError::Failed {
                        signature: "batfish.base".into(),
                        message: format!(
                            "base snapshot {base} is {s} again after being uploaded anew twice"
                        ),
                        class: ErrorClass::Environment,
                    });
                }
                tracing::info!("base snapshot {base} is {s}: deleting it and uploading it again");
                tool(tools, "batfish.delete", json!({"snapshot": base}), || {
                    c.delete_snapshot(net, base)
                })?;
                continue;
            }
        }
        tool(tools, "batfish.wait", json!({"snapshot": base}), || {
            c.pause(pause, &format!("waiting for snapshot {base} to parse"))
        })?;
        pause = (pause * 2).min(Duration::from_secs(2));
    }
}

/// The plan's candidate: changed configs, deactivated nodes and interfaces, and what the
/// plan declares it takes away.
struct Candidate {
    /// (hostname as stored, candidate config text) of each device the plan changes.
    touched: Vec<(String, String)>,
    /// The plan's own lines per device (lowercase hostname), trimmed: a candidate-only
    /// issue on one of them is about the plan.
    lines: BTreeMap<String, BTreeSet<String>>,
    /// Nodes deactivated (lowercase).
    nodes: Vec<String>,
    /// Physical interfaces deactivated: (lowercase node, canonical name).
    interfaces: Vec<(String, String)>,
    /// Interfaces the plan takes down, physical or not: (lowercase node, name as stored).
    down: Vec<(String, String)>,
    /// BGP peers the plan removes: (lowercase node, peer address).
    peers: Vec<(String, String)>,
}

/// The interfaces a removal plan takes down: (device, interface) as the plan names them.
fn removed_interfaces(plan: &Plan) -> Vec<(String, String)> {
    plan.header
        .targets
        .iter()
        .flat_map(|t| match (plan.header.intent.as_str(), t) {
            ("decommission_interface", Target::Interface { device, interface }) => {
                vec![(device.clone(), interface.clone())]
            }
            (
                "decommission_link",
                Target::Link {
                    device_a,
                    interface_a,
                    device_b,
                    interface_b,
                },
            ) => vec![
                (device_a.clone(), interface_a.clone()),
                (device_b.clone(), interface_b.clone()),
            ],
            _ => Vec::new(),
        })
        .collect()
}

/// The interfaces a plan's targets name that its candidate shuts (a shutdown the request
/// asks for): what runs over them ends as the plan declares. (lowercase node, name as
/// stored.)
fn shut_targets<'a>(
    plan: &Plan,
    lines: &BTreeMap<String, (String, String)>,
    touched: &[(String, String)],
    stored: &dyn Fn(&str) -> Option<&'a (String, String)>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for t in &plan.header.targets {
        let Target::Interface { device, interface } = t else {
            continue;
        };
        let Some((h, after)) = touched.iter().find(|(h, _)| h.eq_ignore_ascii_case(device)) else {
            continue;
        };
        let (Some((_, before)), Some((_, os))) = (stored(h), lines.get(h)) else {
            continue;
        };
        let parser = crate::import::parse::parser_for(crate::model::Vendor::from_os(os));
        let (before, after) = (parser.parse(before), parser.parse(after));
        for i in before
            .interfaces
            .iter()
            .filter(|i| i.admin_up && crate::ifname::covers(interface, &i.name))
        {
            if after
                .interfaces
                .iter()
                .any(|j| j.name == i.name && !j.admin_up)
            {
                out.push((h.to_lowercase(), i.name.clone()));
            }
        }
    }
    out
}

fn candidate_of(configs: &Configs, plan: &Plan) -> Candidate {
    let stored = |device: &str| configs.iter().find(|(h, _)| h.eq_ignore_ascii_case(device));
    // Every block for a device, in the plan's order (hostname as stored → lines, OS).
    let mut lines: BTreeMap<String, (String, String)> = BTreeMap::new();
    for b in &plan.implementation {
        let Some((h, _)) = stored(&b.device) else {
            continue;
        };
        let e = lines
            .entry(h.clone())
            .or_insert_with(|| (String::new(), b.os.clone()));
        e.0.push_str(&b.text);
        e.0.push('\n');
    }
    // Batfish deactivates only physical interfaces, by their canonical names
    // (`Batfish.java`: the blacklist is matched against the physical interfaces); any
    // other interface a removal takes down is shut in the candidate config instead.
    let mut interfaces = Vec::new();
    let mut down = Vec::new();
    for (device, interface) in removed_interfaces(plan) {
        down.push((device.to_lowercase(), interface.clone()));
        if crate::ifname::is_physical(&interface) {
            interfaces.push((device.to_lowercase(), crate::ifname::expand(&interface)));
            continue;
        }
        let Some((h, text)) = stored(&device) else {
            continue;
        };
        let os = lines
            .get(h)
            .map(|(_, os)| os.clone())
            .or_else(|| {
                plan.implementation
                    .iter()
                    .find(|b| b.device.eq_ignore_ascii_case(h))
                    .map(|b| b.os.clone())
            })
            .unwrap_or_default();
        let vendor = crate::model::Vendor::from_os(&os);
        let shut = crate::dialect::Change::Interface {
            name: &interface,
            changes: &[crate::dialect::IfChange::Shutdown],
            switchport: None,
            replaced: None,
        };
        if let Ok(l) = crate::dialect::render(vendor, h, text, &shut) {
            let e = lines
                .entry(h.clone())
                .or_insert_with(|| (String::new(), os));
            for line in l.apply {
                e.0.push_str(&line);
                e.0.push('\n');
            }
        }
    }
    let touched: Vec<(String, String)> = lines
        .iter()
        .filter_map(|(h, (l, os))| {
            let (_, text) = stored(h)?;
            let vendor = crate::model::Vendor::from_os(os);
            Some((h.clone(), crate::dialect::candidate_text(vendor, text, l)))
        })
        .collect();
    down.extend(shut_targets(plan, &lines, &touched, &stored));
    let plan_lines = lines
        .iter()
        .map(|(h, (l, _))| {
            let set = l
                .lines()
                .map(str::trim)
                .filter(|x| !x.is_empty() && *x != "!")
                .map(str::to_owned)
                .collect();
            (h.to_lowercase(), set)
        })
        .collect();
    // Batfish looks deactivated nodes up among its (lowercase) node names
    // (`Batfish.processNodeBlacklist`); a name in capitals would deactivate nothing.
    let nodes: Vec<String> = crate::checks::model::removed_devices(plan)
        .into_iter()
        .map(str::to_lowercase)
        .collect();
    let peers = plan
        .header
        .targets
        .iter()
        .filter_map(|t| match t {
            Target::Peer { device, peer, .. }
                if matches!(
                    plan.header.intent.as_str(),
                    "decommission_peer" | "remove_session"
                ) =>
            {
                Some((device.to_lowercase(), peer.clone()))
            }
            _ => None,
        })
        .collect();
    Candidate {
        touched,
        lines: plan_lines,
        nodes,
        interfaces,
        down,
        peers,
    }
}

/// Verifies `plan` against the network in `inputs`. Returns the findings.
pub fn verify(
    tools: &Tools,
    c: &Client,
    inputs: &Inputs,
    plan: &Plan,
    housekeeping: Housekeeping,
) -> Result<Vec<Finding>, ToolError> {
    let net = NETWORK;
    tool(
        tools,
        "batfish.ensure_network",
        json!({"network": net}),
        || c.ensure_network(net),
    )?;
    let base = format!("olav-base-{}", digest(inputs));
    ensure_base(tools, c, net, &base, inputs)?;
    let cand = candidate_of(&inputs.configs, plan);
    let candidate = format!("olav-cand-{}", &uuid::Uuid::new_v4().to_string()[..8]);
    let mut extra: Vec<(String, Vec<u8>)> = Vec::new();
    if let Some(isp) = inputs
        .isp_candidate
        .as_ref()
        .filter(|i| Some(*i) != inputs.isp_base.as_ref())
    {
        extra.push((snapshot::ISP_CONFIG.to_owned(), isp.json.clone()));
    }
    let zip = if cand.touched.is_empty() && extra.is_empty() {
        None
    } else {
        Some(snapshot_zip(&candidate, &files(&cand.touched), &extra).map_err(zip_error)?)
    };
    tool(
        tools,
        "batfish.fork",
        json!({"base": base, "new": candidate}),
        || c.fork(net, &base, &candidate, zip, &cand.nodes, &cand.interfaces),
    )?;
    let found = verify::ask_all(tools, c, net, &base, &candidate, inputs, &cand);
    // The fork is deleted once its answers are read, whatever they were.
    let cleanup = clean_up(tools, c, net, &candidate, housekeeping);
    let mut found = found?;
    if let Err(e) = cleanup {
        found.push(Finding {
            severity: "info",
            question: "housekeeping",
            message: format!("could not delete candidate snapshot {candidate}: {e}"),
        });
    }
    Ok(found)
}

/// Deletes the candidate, or with `keep_snapshots` N, the candidates older than the newest N.
fn clean_up(
    tools: &Tools,
    c: &Client,
    net: &str,
    candidate: &str,
    housekeeping: Housekeeping,
) -> Result<(), ToolError> {
    let doomed: Vec<String> = if housekeeping.keep_snapshots == 0 {
        vec![candidate.to_owned()]
    } else {
        let mut forks: Vec<client::SnapshotInfo> =
            tool(tools, "batfish.snapshots", json!({"network": net}), || {
                c.snapshots(net)
            })?
            .into_iter()
            .filter(|s| s.name.starts_with("olav-cand-") && s.name != candidate)
            .collect();
        // Newest first; this run's candidate is one of the kept.
        forks.sort_by(|a, b| b.created.total_cmp(&a.created));
        forks
            .into_iter()
            .skip(housekeeping.keep_snapshots.saturating_sub(1))
            .map(|s| s.name)
            .collect()
    };
    for ss in doomed {
        tool(tools, "batfish.delete", json!({"snapshot": ss}), || {
            c.delete_snapshot(net, &ss)
        })?;
    }
    Ok(())
}

/// Deployment guidance when Batfish is absent.
pub fn guidance(address: &str, plan_path: &str) -> String {
    format!(
        "To verify formally with Batfish (expected at {address}):\n\
         \x20 1. start Batfish with its port published:\n\
         \x20    docker run --name batfish -d -p 9996:9996 batfish/allinone\n\
         \x20 2. if it runs on another host, point olav at it (also OLAV_BATFISH_HTTP_PORT, OLAV_BATFISH_SSL):\n\
         \x20    export OLAV_BATFISH_HOST=<host>\n\
         \x20 3. re-run this verification:\n\
         \x20    olav verify {plan_path}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_specifiers_are_lowercase_quoted_names() {
        assert_eq!(
            node_spec(["Alpha-Border-1", "beta-core-2"]),
            "\"alpha-border-1\",\"beta-core-2\""
        );
    }
}
