//! Formal verification with Batfish: the base snapshot from the configs in the state DB,
//! a candidate forked from it with the plan applied, and the questions a change
//! verifier asks. Every call goes through the run's circuit breaker.

pub mod client;

use crate::agents::capability::Tools;
use crate::engine::breaker::{ErrorClass, ToolError};
use crate::plan::{Plan, Target};
use client::{question, snapshot_zip, BatfishError, Client, TableAnswer};
use serde_json::json;
use std::collections::BTreeSet;

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

/// Whether Batfish answers the probe (within `probe`): its version, or why not.
pub fn probe(tools: &Tools, c: &Client, probe: std::time::Duration) -> Result<String, ToolError> {
    tool(
        tools,
        "batfish.version",
        json!({"host": c.endpoint().address()}),
        || c.version(probe),
    )
}

fn digest(configs: &Configs) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (n, t) in configs {
        h.update(n.as_bytes());
        h.update([0]);
        h.update(t.as_bytes());
    }
    h.finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn files(configs: &Configs) -> Vec<(String, String)> {
    configs
        .iter()
        .map(|(h, t)| (format!("configs/{h}.cfg"), t.clone()))
        .collect()
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

/// Verifies `plan` against the network in `configs`. Returns the findings.
pub fn verify(
    tools: &Tools,
    c: &Client,
    configs: &Configs,
    plan: &Plan,
) -> Result<Vec<Finding>, ToolError> {
    let net = NETWORK;
    tool(
        tools,
        "batfish.ensure_network",
        json!({"network": net}),
        || c.ensure_network(net),
    )?;
    let base = format!("olav-base-{}", digest(configs));
    let existing = tool(tools, "batfish.snapshots", json!({"network": net}), || {
        c.snapshots(net)
    })?;
    if !existing.contains(&base) {
        let zip = snapshot_zip(&base, &files(configs)).map_err(|e| ToolError::Failed {
            signature: "batfish.zip".into(),
            message: e.to_string(),
            class: ErrorClass::Environment,
        })?;
        tool(tools, "batfish.upload", json!({"snapshot": base}), || {
            c.upload_snapshot(net, &base, zip)
        })?;
        tool(tools, "batfish.parse", json!({"snapshot": base}), || {
            c.parse(net, &base)
        })?;
    }
    // The candidate: touched devices' configs with the plan's lines appended; decommissioned nodes deactivated.
    let candidate = format!("olav-cand-{}", &uuid::Uuid::new_v4().to_string()[..8]);
    let mut touched: Vec<(String, String)> = Vec::new();
    for b in &plan.implementation {
        if let Some((h, t)) = configs.iter().find(|(h, _)| *h == b.device) {
            match touched.iter_mut().find(|(x, _)| x == h) {
                Some(entry) => entry.1 = format!("{}\n{}\n", entry.1, b.text),
                None => touched.push((h.clone(), format!("{t}\n{}\n", b.text))),
            }
        }
    }
    let nodes: Vec<String> = plan
        .header
        .targets
        .iter()
        .filter_map(|t| match t {
            Target::Device { device } if plan.header.intent == "decommission_device" => {
                Some(device.clone())
            }
            _ => None,
        })
        .collect();
    let interfaces: Vec<(String, String)> = plan
        .header
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
            ) => {
                vec![
                    (device_a.clone(), interface_a.clone()),
                    (device_b.clone(), interface_b.clone()),
                ]
            }
            _ => Vec::new(),
        })
        .collect();
    let zip = if touched.is_empty() {
        None
    } else {
        Some(
            snapshot_zip(&candidate, &files(&touched)).map_err(|e| ToolError::Failed {
                signature: "batfish.zip".into(),
                message: e.to_string(),
                class: ErrorClass::Environment,
            })?,
        )
    };
    tool(
        tools,
        "batfish.fork",
        json!({"base": base, "new": candidate}),
        || c.fork(net, &base, &candidate, zip, &nodes, &interfaces),
    )?;
    tool(
        tools,
        "batfish.parse",
        json!({"snapshot": candidate}),
        || c.parse(net, &candidate),
    )?;
    let touched_nodes: BTreeSet<String> = touched.iter().map(|(h, _)| h.clone()).collect();
    let ask = |name: &'static str,
               class: &str,
               ss: &str,
               reference: Option<&str>,
               params: serde_json::Value| {
        let q = question(class, name, reference.is_some(), params);
        tool(
            tools,
            "batfish.ask",
            json!({"question": name, "snapshot": ss}),
            || c.ask(net, ss, reference, &q),
        )
    };
    let mut out = Vec::new();
    let fps = ask(
        "fileParseStatus",
        "org.batfish.question.initialization.FileParseStatusQuestion",
        &candidate,
        None,
        json!({}),
    )?;
    for r in &fps.rows {
        let status = TableAnswer::cell(r, "Status");
        let file = TableAnswer::cell(r, "File_Name");
        if status != "PASSED" && touched_nodes.iter().any(|h| file.contains(h.as_str())) {
            out.push(Finding {
                severity: if status == "FAILED" {
                    "error"
                } else {
                    "warning"
                },
                question: "fileParseStatus",
                message: format!("{file}: {status}"),
            });
        }
    }
    let init = ask(
        "initIssues",
        "org.batfish.question.initialization.InitIssuesQuestion",
        &candidate,
        None,
        json!({}),
    )?;
    let pw = ask(
        "parseWarning",
        "org.batfish.question.initialization.ParseWarningQuestion",
        &candidate,
        None,
        json!({"aggregateDuplicates": true}),
    )?;
    out.push(Finding {
        severity: "info",
        question: "initIssues",
        message: format!(
            "{} initialization issue(s), {} parse warning(s) in the candidate",
            init.rows.len(),
            pw.rows.len()
        ),
    });
    let cols = ["File_Name", "Struct_Type", "Ref_Name", "Context"];
    let refs_base = rows_as_lines(
        &ask(
            "undefinedReferences",
            "org.batfish.question.UndefinedReferencesQuestionPlugin$UndefinedReferencesQuestion",
            &base,
            None,
            json!({}),
        )?,
        &cols,
    );
    let refs_cand = rows_as_lines(
        &ask(
            "undefinedReferences",
            "org.batfish.question.UndefinedReferencesQuestionPlugin$UndefinedReferencesQuestion",
            &candidate,
            None,
            json!({}),
        )?,
        &cols,
    );
    for r in refs_cand.difference(&refs_base) {
        out.push(Finding {
            severity: "error",
            question: "undefinedReferences",
            message: format!("new undefined reference: {r}"),
        });
    }
    let ip_cols = ["Node", "VRF", "Interface", "IP"];
    let dup_base = rows_as_lines(
        &ask(
            "ipOwners",
            "org.batfish.question.ipowners.IpOwnersQuestion",
            &base,
            None,
            json!({"duplicatesOnly": true}),
        )?,
        &ip_cols,
    );
    let dup_cand = rows_as_lines(
        &ask(
            "ipOwners",
            "org.batfish.question.ipowners.IpOwnersQuestion",
            &candidate,
            None,
            json!({"duplicatesOnly": true}),
        )?,
        &ip_cols,
    );
    for r in dup_cand.difference(&dup_base) {
        out.push(Finding {
            severity: "error",
            question: "ipOwners",
            message: format!("new duplicate IP owner: {r}"),
        });
    }
    let compat = ask(
        "bgpSessionCompatibility",
        "org.batfish.question.bgpsessionstatus.BgpSessionCompatibilityQuestion",
        &candidate,
        None,
        json!({}),
    )?;
    for r in &compat.rows {
        let node = TableAnswer::cell(r, "Node");
        let status = TableAnswer::cell(r, "Configured_Status");
        let stype = TableAnswer::cell(r, "Session_Type");
        let fine = matches!(status, "UNIQUE_MATCH" | "DYNAMIC_MATCH")
            || (status == "UNKNOWN_REMOTE" && stype != "IBGP");
        if touched_nodes.contains(node) && !fine {
            out.push(Finding {
                severity: "error",
                question: "bgpSessionCompatibility",
                message: format!("{node} → {}: {status}", TableAnswer::cell(r, "Remote_IP")),
            });
        }
    }
    let status = ask(
        "bgpSessionStatus",
        "org.batfish.question.bgpsessionstatus.BgpSessionStatusQuestion",
        &candidate,
        None,
        json!({}),
    )?;
    for r in &status.rows {
        let node = TableAnswer::cell(r, "Node");
        let st = TableAnswer::cell(r, "Established_Status");
        if touched_nodes.contains(node) && st != "ESTABLISHED" {
            out.push(Finding {
                severity: "warning",
                question: "bgpSessionStatus",
                message: format!("{node} → {}: {st}", TableAnswer::cell(r, "Remote_IP")),
            });
        }
    }
    let diff = ask(
        "differentialReachability",
        "org.batfish.question.differentialreachability.DifferentialReachabilityQuestion",
        &candidate,
        Some(&base),
        json!({}),
    )?;
    if !diff.rows.is_empty() {
        out.push(Finding {
            severity: "warning",
            question: "differentialReachability",
            message: format!(
                "{} flow(s) behave differently after the change (first: {})",
                diff.rows.len(),
                diff.rows[0]
                    .iter()
                    .map(|(c, v)| format!("{c}={v}"))
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    Ok(out)
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
