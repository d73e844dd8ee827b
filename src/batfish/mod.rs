//! Formal verification with Batfish: the base snapshot from the state DB (configs and the
//! snapshot's other files), a candidate forked from it with the plan applied, the
//! questions a change verifier asks of both, and only what is new in the candidate
//! counted. Every call goes through the run's circuit breaker. What olav relies on in
//! Batfish's behaviour, with the source of each: `docs/verification.md`.

pub mod client;
pub mod snapshot;

use crate::checks::bgp::{Session, SessionType, Status};
use crate::engine::breaker::{ErrorClass, ToolError, Tools};
use crate::plan::{Plan, Target};
use client::{question, snapshot_zip, BatfishError, Client, TableAnswer, Upload};
use serde_json::json;
use snapshot::GeneratedIsp;
use std::collections::{BTreeMap, BTreeSet, HashMap};
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

fn files(configs: &Configs) -> Vec<(String, String)> {
    configs
        .iter()
        .map(|(h, t)| (config_path(h), t.clone()))
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

/// The plan's candidate: changed configs, deactivated nodes and interfaces.
struct Candidate {
    touched: Vec<(String, String)>,
    nodes: Vec<String>,
    interfaces: Vec<(String, String)>,
}

fn candidate_of(configs: &Configs, plan: &Plan) -> Candidate {
    let mut touched: Vec<(String, String)> = Vec::new();
    for b in &plan.implementation {
        let Some((h, t)) = configs
            .iter()
            .find(|(h, _)| h.eq_ignore_ascii_case(&b.device))
        else {
            continue;
        };
        if touched.iter().any(|(x, _)| x == h) {
            continue;
        }
        // Every block for the device, in the plan's order.
        let lines: String = plan
            .implementation
            .iter()
            .filter(|x| x.device.eq_ignore_ascii_case(h))
            .map(|x| format!("{}\n", x.text))
            .collect();
        let vendor = crate::model::Vendor::from_os(&b.os);
        touched.push((h.clone(), crate::dialect::candidate_text(vendor, t, &lines)));
    }
    // Batfish looks deactivated nodes up among its (lowercase) node names
    // (`Batfish.processNodeBlacklist`); a name in capitals would deactivate nothing.
    let nodes: Vec<String> = plan
        .header
        .targets
        .iter()
        .filter_map(|t| match t {
            Target::Device { device } if plan.header.intent == "decommission_device" => {
                Some(device.to_lowercase())
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
                vec![(device.to_lowercase(), interface.clone())]
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
                    (device_a.to_lowercase(), interface_a.clone()),
                    (device_b.to_lowercase(), interface_b.clone()),
                ]
            }
            _ => Vec::new(),
        })
        .collect();
    Candidate {
        touched,
        nodes,
        interfaces,
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
    let found = ask_all(tools, c, net, &base, &candidate, inputs, &cand);
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

/// A question olav asks: Batfish's class and the parameters pybatfish would send after
/// the server filled its template (template defaults included, unset optional ones left out).
struct Ask {
    name: &'static str,
    class: &'static str,
}

const FILE_PARSE_STATUS: Ask = Ask {
    name: "fileParseStatus",
    class: "org.batfish.question.initialization.FileParseStatusQuestion",
};
const INIT_ISSUES: Ask = Ask {
    name: "initIssues",
    class: "org.batfish.question.initialization.InitIssuesQuestion",
};
const PARSE_WARNING: Ask = Ask {
    name: "parseWarning",
    class: "org.batfish.question.initialization.ParseWarningQuestion",
};
const UNDEFINED_REFERENCES: Ask = Ask {
    name: "undefinedReferences",
    class: "org.batfish.question.UndefinedReferencesQuestionPlugin$UndefinedReferencesQuestion",
};
const IP_OWNERS: Ask = Ask {
    name: "ipOwners",
    class: "org.batfish.question.ipowners.IpOwnersQuestion",
};
const BGP_COMPATIBILITY: Ask = Ask {
    name: "bgpSessionCompatibility",
    class: "org.batfish.question.bgpsessionstatus.BgpSessionCompatibilityQuestion",
};
const BGP_STATUS: Ask = Ask {
    name: "bgpSessionStatus",
    class: "org.batfish.question.bgpsessionstatus.BgpSessionStatusQuestion",
};
const DIFFERENTIAL_REACHABILITY: Ask = Ask {
    name: "differentialReachability",
    class: "org.batfish.question.differentialreachability.DifferentialReachabilityQuestion",
};

/// Batfish's configured status from its name.
fn status_named(s: &str) -> Option<Status> {
    [
        Status::UniqueMatch,
        Status::DynamicMatch,
        Status::NoLocalAs,
        Status::NoRemoteAs,
        Status::NoLocalIp,
        Status::LocalIpUnknownStatically,
        Status::InvalidLocalIp,
        Status::UnknownRemote,
        Status::HalfOpen,
        Status::MultipleRemotes,
        Status::NoMatchFound,
    ]
    .into_iter()
    .find(|x| x.as_str() == s)
}

fn session_type_named(s: &str) -> Option<SessionType> {
    [
        SessionType::Ibgp,
        SessionType::EbgpSinglehop,
        SessionType::EbgpMultihop,
    ]
    .into_iter()
    .find(|x| x.as_str() == s)
}

/// Whether a bgpSessionCompatibility row is a problem, by the static checks' own rule
/// (`checks::bgp::Session::is_problem`: UNKNOWN_REMOTE on eBGP is a peer outside the network).
fn compat_problem(status: &str, session_type: &str) -> bool {
    let Some(configured_status) = status_named(status) else {
        // A status olav does not know is not silently passed.
        return true;
    };
    Session {
        node: String::new(),
        vrf: String::new(),
        local_as: None,
        local_interface: None,
        local_ip: None,
        remote_as: None,
        remote_node: None,
        remote_interface: None,
        remote_ip: String::new(),
        session_type: session_type_named(session_type),
        configured_status,
    }
    .is_problem()
}

/// A session's key in Batfish's BGP answers: node (lowercase), VRF, remote IP.
fn session_key(r: &[(String, String)]) -> (String, String, String) {
    (
        TableAnswer::cell(r, "Node").to_lowercase(),
        TableAnswer::cell(r, "VRF").to_owned(),
        TableAnswer::cell(r, "Remote_IP").to_owned(),
    )
}

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
fn first_trace(cell: &str) -> String {
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

fn ask_all(
    tools: &Tools,
    c: &Client,
    net: &str,
    base: &str,
    candidate: &str,
    inputs: &Inputs,
    cand: &Candidate,
) -> Result<Vec<Finding>, ToolError> {
    tool(
        tools,
        "batfish.parse",
        json!({"snapshot": candidate}),
        || c.parse(net, candidate),
    )?;
    let ask = |q: &Ask, ss: &str, reference: Option<&str>, params: serde_json::Value| {
        let question = question(q.class, q.name, reference.is_some(), params);
        tool(
            tools,
            "batfish.ask",
            json!({"question": q.name, "snapshot": ss}),
            || c.ask(net, ss, reference, &question),
        )
    };
    // Answers name nodes in lowercase; people see the names as stored.
    let shown: HashMap<String, String> = inputs
        .configs
        .iter()
        .map(|(h, _)| (h.to_lowercase(), h.clone()))
        .collect();
    let show = |node: &str| {
        shown
            .get(&node.to_lowercase())
            .cloned()
            .unwrap_or_else(|| node.to_owned())
    };
    let touched: BTreeSet<String> = cand.touched.iter().map(|(h, _)| h.to_lowercase()).collect();
    let mut out = Vec::new();
    if let Some(isp) = &inputs.isp_candidate {
        let asns: Vec<String> = isp.asns.iter().map(u32::to_string).collect();
        out.push(Finding {
            severity: "info",
            question: "ispConfig",
            message: format!(
                "the snapshot has no batfish/isp_config.json: olav generated one from the external BGP sessions (border interfaces: {}; peers without one: {}), so Batfish models the providers (AS {})",
                if isp.border_interfaces.is_empty() { "none".to_owned() } else { isp.border_interfaces.join(", ") },
                if isp.bgp_peers.is_empty() { "none".to_owned() } else { isp.bgp_peers.join(", ") },
                asns.join(", ")
            ),
        });
    }

    // fileParseStatus: the plan's files, by exact path, compared with the base.
    let parse_status = |ss: &str| -> Result<HashMap<String, String>, ToolError> {
        Ok(ask(&FILE_PARSE_STATUS, ss, None, json!({}))?
            .rows
            .iter()
            .map(|r| {
                (
                    TableAnswer::cell(r, "File_Name").to_owned(),
                    TableAnswer::cell(r, "Status").to_owned(),
                )
            })
            .collect())
    };
    let fps_base = parse_status(base)?;
    let fps_cand = parse_status(candidate)?;
    for (host, _) in &cand.touched {
        let file = config_path(host);
        let Some(status) = fps_cand.get(&file) else {
            continue;
        };
        if status == "PASSED" || fps_base.get(&file) == Some(status) {
            continue;
        }
        out.push(Finding {
            severity: if status == "FAILED" {
                "error"
            } else {
                "warning"
            },
            question: "fileParseStatus",
            message: format!(
                "{file}: {status} (was {})",
                fps_base.get(&file).map_or("absent", String::as_str)
            ),
        });
    }
    let init = ask(&INIT_ISSUES, candidate, None, json!({}))?;
    let pw = ask(
        &PARSE_WARNING,
        candidate,
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
    let refs = |ss: &str| -> Result<BTreeSet<String>, ToolError> {
        Ok(rows_as_lines(
            &ask(&UNDEFINED_REFERENCES, ss, None, json!({"nodes": ".*"}))?,
            &cols,
        ))
    };
    let (refs_base, refs_cand) = (refs(base)?, refs(candidate)?);
    for r in refs_cand.difference(&refs_base) {
        out.push(Finding {
            severity: "error",
            question: "undefinedReferences",
            message: format!("new undefined reference: {r}"),
        });
    }
    let ip_cols = ["Node", "VRF", "Interface", "IP"];
    let dups = |ss: &str| -> Result<BTreeSet<String>, ToolError> {
        let t = ask(&IP_OWNERS, ss, None, json!({"duplicatesOnly": true}))?;
        Ok(t.rows
            .iter()
            .map(|r| {
                ip_cols
                    .iter()
                    .map(|c| {
                        let v = TableAnswer::cell(r, c);
                        if *c == "Node" {
                            show(v)
                        } else {
                            v.to_owned()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect())
    };
    let (dup_base, dup_cand) = (dups(base)?, dups(candidate)?);
    for r in dup_cand.difference(&dup_base) {
        out.push(Finding {
            severity: "error",
            question: "ipOwners",
            message: format!("new duplicate IP owner: {r}"),
        });
    }

    // BGP: the sessions of the devices the plan changes, in both snapshots; only a
    // problem the base does not already have counts.
    if touched.is_empty() {
        out.push(Finding {
            severity: "info",
            question: "bgpSessionStatus",
            message: "not asked: the plan changes no configuration (sessions lost by a removal are the pre-check's blast radius)".into(),
        });
    } else {
        let spec = node_spec(touched.iter().map(String::as_str));
        let compat = |ss: &str| ask(&BGP_COMPATIBILITY, ss, None, json!({"nodes": spec}));
        let (compat_base, compat_cand) = (compat(base)?, compat(candidate)?);
        let was: BTreeMap<_, String> = compat_base
            .rows
            .iter()
            .map(|r| {
                (
                    session_key(r),
                    TableAnswer::cell(r, "Configured_Status").to_owned(),
                )
            })
            .collect();
        let mut exempt = BTreeSet::new();
        for r in &compat_cand.rows {
            let key = session_key(r);
            let status = TableAnswer::cell(r, "Configured_Status");
            if !compat_problem(status, TableAnswer::cell(r, "Session_Type")) {
                exempt.insert(key);
                continue;
            }
            if !touched.contains(&key.0) || was.get(&key).map(String::as_str) == Some(status) {
                continue;
            }
            out.push(Finding {
                severity: "error",
                question: "bgpSessionCompatibility",
                message: format!("{} → {}: {status}", show(&key.0), key.2),
            });
        }
        let established = |ss: &str| ask(&BGP_STATUS, ss, None, json!({"nodes": spec}));
        let (status_base, status_cand) = (established(base)?, established(candidate)?);
        let was: BTreeMap<_, String> = status_base
            .rows
            .iter()
            .map(|r| {
                (
                    session_key(r),
                    TableAnswer::cell(r, "Established_Status").to_owned(),
                )
            })
            .collect();
        for r in &status_cand.rows {
            let key = session_key(r);
            let st = TableAnswer::cell(r, "Established_Status");
            // NOT_COMPATIBLE of a session the compatibility check exempts (a peer outside
            // the network) is that same exemption.
            if st == "ESTABLISHED"
                || !touched.contains(&key.0)
                || (st == "NOT_COMPATIBLE" && exempt.contains(&key))
                || was.get(&key).map(String::as_str) == Some(st)
            {
                continue;
            }
            out.push(Finding {
                severity: "warning",
                question: "bgpSessionStatus",
                message: format!(
                    "{} → {}: {st} (was {})",
                    show(&key.0),
                    key.2,
                    was.get(&key).map_or("absent", String::as_str)
                ),
            });
        }
    }

    let diff = ask(
        &DIFFERENTIAL_REACHABILITY,
        candidate,
        Some(base),
        json!({"actions": "success", "ignoreFilters": false}),
    )?;
    if !diff.rows.is_empty() {
        let mut message = format!(
            "{} flow(s) behave differently after the change",
            diff.rows.len()
        );
        for (i, r) in diff.rows.iter().take(FLOWS_SHOWN).enumerate() {
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
        if diff.rows.len() > FLOWS_SHOWN {
            message.push_str(&format!(
                "\n    … and {} more",
                diff.rows.len() - FLOWS_SHOWN
            ));
        }
        out.push(Finding {
            severity: "warning",
            question: "differentialReachability",
            message,
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

    #[test]
    fn the_static_checks_exemption_decides_compatibility_problems() {
        assert!(!compat_problem("UNIQUE_MATCH", "IBGP"));
        assert!(!compat_problem("UNKNOWN_REMOTE", "EBGP_SINGLEHOP"));
        assert!(compat_problem("UNKNOWN_REMOTE", "IBGP"));
        assert!(compat_problem("NO_LOCAL_IP", "EBGP_SINGLEHOP"));
        assert!(compat_problem("SOMETHING_NEW", "EBGP_SINGLEHOP"));
    }

    #[test]
    fn the_first_trace_stops_at_the_next_disposition() {
        let cell =
            "ACCEPTED\n1. node: a\n  RECEIVED(x)\n2. node: b\n  ACCEPTED\nDENIED_IN\n1. node: a";
        assert_eq!(
            first_trace(cell),
            "ACCEPTED\n1. node: a\n  RECEIVED(x)\n2. node: b\n  ACCEPTED"
        );
    }
}
