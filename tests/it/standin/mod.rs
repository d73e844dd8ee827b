//! An in-process stand-in for Batfish's coordinator (tests only): Batfish's v2 wire format
//! and the coordinator's behaviour where olav depends on it, from the coordinator's own
//! sources (`projects/coordinator/.../WorkMgr.java`, `WorkQueueMgr.java`, `resources/*`):
//! a wrong Content-Type is refused (415), an uploaded zip must hold one top-level folder
//! with `configs/` (or `hosts/`, …), names already taken are refused with Batfish's
//! messages, work on a snapshot whose parse failed is refused with HTTP 500, questions are
//! stored as sent and their `${var}` placeholders filled as `Question.preprocessQuestion`
//! does. It records every request and every departure from what Batfish accepts.

use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The API key the tests send.
pub const KEY: &str = "s3cr3t-api-key-for-tests-0000000";

/// Where the stand-in misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// None.
    None,
    /// Sleep past the client's deadline on requests whose path contains this text.
    Slow(&'static str),
    /// Answer this status on requests whose path contains the text.
    Status(&'static str, u16),
    /// Answer 500 with the request's headers echoed in the body (the API key among them),
    /// as some proxies and debug servers do.
    EchoHeaders(&'static str),
    /// Answer this status the first `n` times a path containing the text is requested.
    StatusTimes(&'static str, u16, u32),
    /// Close the connection without answering, the first time a path containing the text is requested.
    ResetOnce(&'static str),
    /// Answer 302 to the same path on another port (another host's service).
    Redirect(&'static str, u16),
    /// Answer a 1 GiB body on the path containing the text (declared length or streamed).
    Huge(&'static str, bool),
    /// Malformed JSON from work polling.
    MalformedWork,
    /// Every parse work ends TERMINATEDABNORMALLY.
    Abnormal,
    /// The first parse work ends TERMINATEDABNORMALLY, later ones normally.
    AbnormalOnce,
    /// Answers carry status FAILURE.
    AnswerFailure,
    /// Another run wins every race: the network is created and the base snapshot uploaded
    /// (and parsed) between olav's look and its own attempt.
    Race,
}

/// One request as received.
#[derive(Debug, Clone)]
pub struct Seen {
    /// Method.
    pub method: String,
    /// Path without the query.
    pub path: String,
    /// Query pairs, decoded.
    pub query: Vec<(String, String)>,
    /// The Content-Type header, if any.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
    /// For PUT question: the question after the server filled its variables.
    pub substituted: Option<Value>,
}

/// What a test can make the stand-in answer.
pub struct AnswerCtx<'a> {
    /// The question class.
    pub class: &'a str,
    /// The snapshot asked.
    pub snapshot: &'a str,
    /// The reference snapshot of a differential question.
    pub reference: Option<&'a str>,
    /// The question after substitution.
    pub question: &'a Value,
    /// The snapshot's files (path relative to its root → bytes).
    pub files: &'a BTreeMap<String, Vec<u8>>,
}

/// Rows for a question, overriding the defaults (None: the default answer).
pub type Answers = Box<dyn Fn(&AnswerCtx<'_>) -> Option<Value> + Send>;

/// How a stand-in starts.
pub struct Options {
    /// Fault.
    pub fault: Fault,
    /// Answer overrides.
    pub answers: Option<Answers>,
    /// Snapshots present at start: (name, processing status).
    pub preload: Vec<(String, &'static str)>,
    /// Question templates served at `GET /v2/question_templates` (name → template).
    pub templates: BTreeMap<String, Value>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fault: Fault::None,
            answers: None,
            preload: Vec::new(),
            templates: BTreeMap::new(),
        }
    }
}

/// A running stand-in.
pub struct StandIn {
    /// Its port on 127.0.0.1.
    pub port: u16,
    /// Requests received.
    pub seen: Arc<Mutex<Vec<Seen>>>,
    /// What Batfish would not have accepted.
    pub problems: Arc<Mutex<Vec<String>>>,
    /// Snapshots and their statuses now.
    pub snapshots: Arc<Mutex<BTreeMap<String, Snap>>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A stored snapshot.
#[derive(Debug, Clone, Default)]
pub struct Snap {
    /// Files, relative to the snapshot's root.
    pub files: BTreeMap<String, Vec<u8>>,
    /// `InitializationMetadata.ProcessingStatus`.
    pub status: String,
    /// Nodes deactivated by a fork (`node_blacklist`).
    pub node_blacklist: Vec<String>,
    /// Interfaces deactivated by a fork.
    // Kept as the coordinator keeps it, though no test asserts on it yet.
    #[allow(dead_code)]
    pub interface_blacklist: Vec<(String, String)>,
    /// Order of creation.
    pub created: u64,
}

/// The entries of a zip: (name, bytes).
pub fn zip_files(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for i in 0..z.len() {
        let mut f = z.by_index(i).map_err(|e| e.to_string())?;
        let mut b = Vec::new();
        f.read_to_end(&mut b).map_err(|e| e.to_string())?;
        out.push((f.name().to_owned(), b));
    }
    Ok(out)
}

/// Paths the coordinator ignores at a zip's top (`WorkMgr.IGNORED_PATHS`).
const IGNORED: &[&str] = &[".DS_Store", "__MACOSX"];

/// A zip's files under its single top-level folder, as `WorkMgr.getSnapshotSubdir` and
/// `validateSnapshotDir` demand; Err with the coordinator's message otherwise.
pub fn snapshot_files(bytes: &[u8]) -> Result<(String, BTreeMap<String, Vec<u8>>), String> {
    let entries = zip_files(bytes).map_err(|e| format!("Failed to extract uploaded zip: {e}"))?;
    let tops: BTreeSet<String> = entries
        .iter()
        .filter_map(|(n, _)| n.split('/').next().map(str::to_owned))
        .filter(|t| !IGNORED.contains(&t.as_str()))
        .collect();
    let single_folder = tops.len() == 1
        && entries
            .iter()
            .all(|(n, _)| n.contains('/') || IGNORED.contains(&n.as_str()));
    if !single_folder {
        return Err(
            "Unexpected packaging of snapshot. There should be just one top-level folder.".into(),
        );
    }
    let top = tops.into_iter().next().unwrap_or_default();
    let files: BTreeMap<String, Vec<u8>> = entries
        .into_iter()
        .filter(|(n, _)| !n.ends_with('/'))
        .filter_map(|(n, b)| {
            n.strip_prefix(&format!("{top}/"))
                .map(|r| (r.to_owned(), b))
        })
        .collect();
    Ok((top, files))
}

fn table(columns: &[(&str, &str)], rows: Vec<Value>) -> Value {
    json!({
        "answerElements": [{
            "class": "org.batfish.datamodel.table.TableAnswerElement",
            "metadata": {"columnMetadata": columns.iter().map(|(n, s)| json!({"name": n, "schema": s, "description": "", "isKey": true, "isValue": false})).collect::<Vec<_>>(), "textDesc": ""},
            "rows": rows,
            "excludedRows": [],
            "summary": {"numResults": 0}
        }],
        "question": {},
        "status": "SUCCESS",
        "summary": {"numResults": 0}
    })
}

/// A table answer with Batfish's columns for `class` (the schemas of Batfish's answerers).
pub fn answer(class: &str, rows: Vec<Value>) -> Value {
    let cols: &[(&str, &str)] = if class.ends_with("FileParseStatusQuestion") {
        &[
            ("File_Name", "String"),
            ("Status", "String"),
            ("File_Format", "String"),
            ("Nodes", "List<Node>"),
        ]
    } else if class.ends_with("BgpSessionCompatibilityQuestion") {
        &[
            ("Node", "Node"),
            ("VRF", "String"),
            ("Local_AS", "Long"),
            ("Local_Interface", "Interface"),
            ("Local_IP", "Ip"),
            ("Remote_AS", "String"),
            ("Remote_Node", "Node"),
            ("Remote_Interface", "Interface"),
            ("Remote_IP", "SelfDescribing"),
            ("Address_Families", "Set<String>"),
            ("Session_Type", "String"),
            ("Configured_Status", "String"),
        ]
    } else if class.ends_with("BgpSessionStatusQuestion") {
        &[
            ("Node", "Node"),
            ("VRF", "String"),
            ("Local_AS", "Long"),
            ("Local_Interface", "Interface"),
            ("Local_IP", "Ip"),
            ("Remote_AS", "String"),
            ("Remote_Node", "Node"),
            ("Remote_Interface", "Interface"),
            ("Remote_IP", "SelfDescribing"),
            ("Address_Families", "Set<String>"),
            ("Session_Type", "String"),
            ("Established_Status", "String"),
        ]
    } else if class.ends_with("DifferentialReachabilityQuestion") {
        &[
            ("Flow", "Flow"),
            ("Snapshot_Traces", "Set<Trace>"),
            ("Snapshot_TraceCount", "Integer"),
            ("Reference_Traces", "Set<Trace>"),
            ("Reference_TraceCount", "Integer"),
        ]
    } else if class.ends_with("SpecifiersReachabilityQuestion") {
        // `SpecifiersReachabilityAnswerer` / `TracerouteAnswerer` columns.
        &[
            ("Flow", "Flow"),
            ("Traces", "Set<Trace>"),
            ("TraceCount", "Integer"),
        ]
    } else if class.ends_with("IpOwnersQuestion") {
        &[
            ("Node", "Node"),
            ("VRF", "String"),
            ("Interface", "String"),
            ("IP", "Ip"),
            ("Mask", "Integer"),
            ("Active", "Boolean"),
        ]
    } else if class.ends_with("UndefinedReferencesQuestion") {
        &[
            ("File_Name", "String"),
            ("Struct_Type", "String"),
            ("Ref_Name", "String"),
            ("Context", "String"),
            ("Lines", "FileLines"),
        ]
    } else if class.ends_with("RoutesQuestion") {
        // `RoutesAnswerer.java`, main RIB.
        &[
            ("Node", "Node"),
            ("VRF", "String"),
            ("Network", "Prefix"),
            ("Next_Hop", "NextHop"),
            ("Protocol", "String"),
            ("Metric", "Long"),
            ("Admin_Distance", "Long"),
            ("Tag", "Long"),
        ]
    } else if class.ends_with("InitIssuesQuestion") {
        // `InitIssuesAnswerer.java`.
        &[
            ("Nodes", "List<String>"),
            ("Source_Lines", "List<FileLines>"),
            ("Type", "String"),
            ("Details", "String"),
            ("Line_Text", "String"),
            ("Parser_Context", "String"),
        ]
    } else if class.ends_with("ParseWarningQuestion") {
        // `ParseWarningAnswerer.java`, without aggregation.
        &[
            ("Filename", "String"),
            ("Line", "Integer"),
            ("Text", "String"),
            ("Parser_Context", "String"),
            ("Comment", "String"),
        ]
    } else {
        &[("Node", "Node"), ("Issue", "String")]
    };
    table(cols, rows)
}

/// A session row of Batfish's BGP answers.
pub fn session_row(
    node: &str,
    remote_ip: &str,
    session_type: &str,
    status_col: &str,
    status: &str,
) -> Value {
    json!({"Node": {"id": format!("node-{node}"), "name": node}, "VRF": "default", "Local_AS": 64512,
        "Local_Interface": null, "Local_IP": null, "Remote_AS": "7575", "Remote_Node": null,
        "Remote_Interface": null, "Remote_IP": {"schema": "Ip", "value": remote_ip},
        "Address_Families": ["IPV4_UNICAST"], "Session_Type": session_type, status_col: status})
}

/// A differentialReachability row in Batfish's wire format: a flow and one trace each side.
pub fn flow_row() -> Value {
    json!({
        "Flow": {"dscp": 0, "dstIp": "10.20.120.10", "dstPort": 80, "ecn": 0, "fragmentOffset": 0,
            "icmpCode": null, "icmpVar": null, "ingressInterface": "Vlan10", "ingressNode": "alpha-dist-1",
            "ingressVrf": "default", "ipProtocol": "TCP", "packetLength": 512, "srcIp": "10.20.10.5",
            "srcPort": 49152, "tcpFlagsAck": 0, "tcpFlagsCwr": 0, "tcpFlagsEce": 0, "tcpFlagsFin": 0,
            "tcpFlagsPsh": 0, "tcpFlagsRst": 0, "tcpFlagsSyn": 1, "tcpFlagsUrg": 0},
        "Snapshot_Traces": [{"disposition": "NO_ROUTE", "hops": [{"node": {"id": "node-alpha-dist-1", "name": "alpha-dist-1"}, "steps": [
            {"type": "EnterInputInterface", "action": "RECEIVED", "detail": {"inputInterface": {"hostname": "alpha-dist-1", "interface": "Vlan10"}, "inputVrf": "default"}},
            {"type": "Routing", "action": "NO_ROUTE", "detail": {"routes": []}}]}]}],
        "Snapshot_TraceCount": 1,
        "Reference_Traces": [{"disposition": "ACCEPTED", "hops": [
            {"node": {"id": "node-alpha-dist-1", "name": "alpha-dist-1"}, "steps": [
                {"type": "EnterInputInterface", "action": "RECEIVED", "detail": {"inputInterface": {"hostname": "alpha-dist-1", "interface": "Vlan10"}, "inputVrf": "default"}},
                {"type": "Routing", "action": "FORWARDED", "detail": {"routes": [{"protocol": "ospf", "network": "10.20.120.0/24", "nextHopIp": "10.20.1.2", "admin": 110, "metric": 20}]}},
                {"type": "ExitOutputInterface", "action": "TRANSMITTED", "detail": {"outputInterface": {"hostname": "alpha-dist-1", "interface": "TwentyFiveGigE1/0/4"}}}]},
            {"node": {"id": "node-alpha-br-3560", "name": "alpha-br-3560"}, "steps": [
                {"type": "EnterInputInterface", "action": "RECEIVED", "detail": {"inputInterface": {"hostname": "alpha-br-3560", "interface": "GigabitEthernet0/1"}, "inputVrf": "default"}},
                {"type": "Inbound", "action": "ACCEPTED", "detail": {}}]}]}],
        "Reference_TraceCount": 1
    })
}

/// The question templates of the questions olav asks (`question_templates.json`).
pub fn templates() -> BTreeMap<String, Value> {
    let all: BTreeMap<String, Value> =
        serde_json::from_str(include_str!("question_templates.json")).expect("templates");
    all.into_iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .collect()
}

/// The nodes a node specifier names, when it is a list of (quoted) names.
fn spec_nodes(spec: &str) -> BTreeSet<String> {
    spec.split(',')
        .map(|n| n.trim().trim_matches('"').to_lowercase())
        .filter(|n| !n.is_empty())
        .collect()
}

fn default_answer(ctx: &AnswerCtx<'_>) -> Value {
    let c = ctx.class;
    if c.ends_with("FileParseStatusQuestion") {
        // Every file of the snapshot, as Batfish lists them: PASSED, nodes in lowercase.
        let rows = ctx
            .files
            .keys()
            .filter(|f| f.starts_with("configs/"))
            .map(|f| {
                let node = f
                    .trim_start_matches("configs/")
                    .split('/')
                    .next()
                    .unwrap_or_default()
                    .trim_end_matches(".cfg")
                    .to_lowercase();
                json!({"File_Name": f, "Status": "PASSED", "File_Format": "CISCO_IOS", "Nodes": [{"id": format!("node-{node}"), "name": node}]})
            })
            .collect();
        return answer(c, rows);
    }
    if c.ends_with("BgpSessionCompatibilityQuestion") {
        // Every `neighbor A remote-as N` of the asked nodes' configs, as Batfish lists
        // configured sessions: eBGP to an address no config holds is UNKNOWN_REMOTE.
        let nodes = ctx.question["nodes"].as_str().map(spec_nodes);
        let mut rows = Vec::new();
        for (f, bytes) in ctx.files.iter().filter(|(f, _)| f.starts_with("configs/")) {
            let node = f
                .trim_start_matches("configs/")
                .trim_end_matches(".cfg")
                .to_lowercase();
            if nodes.as_ref().is_some_and(|n| !n.contains(&node)) {
                continue;
            }
            let text = String::from_utf8_lossy(bytes);
            let mut local_as = None;
            for line in text.lines() {
                let w: Vec<&str> = line.split_whitespace().collect();
                match w.as_slice() {
                    ["router", "bgp", asn] => local_as = Some(asn.to_string()),
                    ["neighbor", peer, "remote-as", asn] if peer.contains('.') => {
                        let ibgp = local_as.as_deref() == Some(*asn);
                        let owned = ctx.files.values().any(|b| {
                            String::from_utf8_lossy(b).contains(&format!("ip address {peer} "))
                        });
                        rows.push(session_row(
                            &node,
                            peer,
                            if ibgp { "IBGP" } else { "EBGP_SINGLEHOP" },
                            "Configured_Status",
                            if owned || ibgp {
                                "UNIQUE_MATCH"
                            } else {
                                "UNKNOWN_REMOTE"
                            },
                        ));
                    }
                    _ => {}
                }
            }
        }
        if rows.is_empty() {
            rows.push(session_row(
                "alpha-border-1",
                "203.0.113.2",
                "EBGP_SINGLEHOP",
                "Configured_Status",
                "UNKNOWN_REMOTE",
            ));
        }
        return answer(c, rows);
    }
    if c.ends_with("RoutesQuestion") {
        // The static routes (`ip route P M NH`) of the asked nodes for the asked network.
        let nodes = ctx.question["nodes"].as_str().map(spec_nodes);
        let network = ctx.question["network"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let mut rows = Vec::new();
        for (f, bytes) in ctx.files.iter().filter(|(f, _)| f.starts_with("configs/")) {
            let node = f
                .trim_start_matches("configs/")
                .trim_end_matches(".cfg")
                .to_lowercase();
            if nodes.as_ref().is_some_and(|n| !n.contains(&node)) {
                continue;
            }
            for line in String::from_utf8_lossy(bytes).lines() {
                if let ["ip", "route", p, m, nh, ..] =
                    line.split_whitespace().collect::<Vec<_>>().as_slice()
                {
                    let len = m
                        .split('.')
                        .filter_map(|o| o.parse::<u8>().ok())
                        .map(u8::count_ones)
                        .sum::<u32>();
                    if format!("{p}/{len}") == network {
                        rows.push(json!({"Node": {"id": format!("node-{node}"), "name": node},
                            "VRF": "default", "Network": network,
                            "Next_Hop": {"type": "ip", "ip": nh}, "Protocol": "static",
                            "Metric": 0, "Admin_Distance": 1, "Tag": null}));
                    }
                }
            }
        }
        return answer(c, rows);
    }
    if c.ends_with("BgpSessionStatusQuestion") {
        // With an ISP file, Batfish builds the provider nodes and their sessions come up
        // (`IspModelingUtils.java`); without one the peer is unknown.
        let isp = ctx.files.contains_key("batfish/isp_config.json");
        let mut row = session_row(
            "alpha-border-1",
            "203.0.113.2",
            "EBGP_SINGLEHOP",
            "Established_Status",
            if isp { "ESTABLISHED" } else { "NOT_COMPATIBLE" },
        );
        if isp {
            row["Remote_Node"] = json!({"id": "node-isp_7575", "name": "isp_7575"});
        }
        return answer(c, vec![row]);
    }
    // Outside a plan's own destinations (`invertSearch`), nothing changes unless a test
    // says so; otherwise one flow differs.
    if c.ends_with("DifferentialReachabilityQuestion") && ctx.reference.is_some() {
        if ctx.question["invertSearch"] == json!(true) {
            return answer(c, vec![]);
        }
        return answer(c, vec![flow_row()]);
    }
    answer(c, vec![])
}

/// Fills a question's `${var}` placeholders from `instance.variables`, as the coordinator's
/// `Question.preprocessQuestion` does: an optional variable without a value removes the
/// keys holding its placeholder; a value replaces `"${var}"` with its JSON and an inline
/// `${var}` with its text.
pub fn substitute(q: &Value) -> Value {
    let mut q = q.clone();
    let vars = q
        .pointer("/instance/variables")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(obj) = q.as_object_mut() {
        for (name, var) in &vars {
            let value = var.get("value").filter(|v| !v.is_null());
            let optional = var
                .get("optional")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if value.is_none() && optional {
                let holder = format!("${{{name}}}");
                obj.retain(|_, v| v.as_str() != Some(holder.as_str()));
            }
        }
    }
    let mut text = q.to_string();
    for (name, var) in &vars {
        let Some(value) = var.get("value").filter(|v| !v.is_null()) else {
            continue;
        };
        let json_text = value.to_string();
        text = text.replace(&format!("\"${{{name}}}\""), &json_text);
        let inline = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        text = text.replace(&format!("${{{name}}}"), &inline);
    }
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

struct State {
    networks: BTreeSet<String>,
    snapshots: Arc<Mutex<BTreeMap<String, Snap>>>,
    questions: HashMap<String, Value>,
    polls: HashMap<String, u32>,
    work: HashMap<String, Value>,
    answered: BTreeSet<(String, String, Option<String>)>,
    hits: HashMap<&'static str, u32>,
    parses: u32,
    created: u64,
}

fn respond(req: tiny_http::Request, code: u16, body: String) {
    let _ = req.respond(tiny_http::Response::from_string(body).with_status_code(code));
}

/// Zeros, as many as asked, produced as read: a huge body without the memory.
struct Zeros(u64);

impl Read for Zeros {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (buf.len() as u64).min(self.0) as usize;
        buf[..n].fill(b'0');
        self.0 -= n as u64;
        Ok(n)
    }
}

impl StandIn {
    /// A stand-in with the default answers and this fault.
    pub fn start(fault: Fault) -> StandIn {
        StandIn::with(Options {
            fault,
            ..Options::default()
        })
    }

    /// A stand-in with these options.
    pub fn with(opts: Options) -> StandIn {
        let server = tiny_http::Server::http("127.0.0.1:0").expect("listen");
        let port = server
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .expect("port");
        let seen = Arc::new(Mutex::new(Vec::new()));
        let problems = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let snapshots = Arc::new(Mutex::new(BTreeMap::new()));
        let mut st = State {
            networks: BTreeSet::new(),
            snapshots: snapshots.clone(),
            questions: HashMap::new(),
            polls: HashMap::new(),
            work: HashMap::new(),
            answered: BTreeSet::new(),
            hits: HashMap::new(),
            parses: 0,
            created: 0,
        };
        if !opts.preload.is_empty() {
            st.networks.insert("olav".into());
            for (name, status) in &opts.preload {
                st.created += 1;
                snapshots.lock().expect("lock").insert(
                    name.clone(),
                    Snap {
                        status: (*status).to_owned(),
                        created: st.created,
                        ..Snap::default()
                    },
                );
            }
        }
        let (seen2, problems2, stop2) = (seen.clone(), problems.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop2.load(std::sync::atomic::Ordering::SeqCst) {
                let Ok(Some(req)) = server.recv_timeout(Duration::from_millis(20)) else {
                    continue;
                };
                handle(req, &opts, &mut st, &seen2, &problems2);
            }
        });
        StandIn {
            port,
            seen,
            problems,
            snapshots,
            stop,
        }
    }

    /// The requests so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("lock").clone()
    }

    /// The problems so far.
    pub fn problems(&self) -> Vec<String> {
        self.problems.lock().expect("lock").clone()
    }

    /// The snapshots now: name → status.
    pub fn statuses(&self) -> BTreeMap<String, String> {
        self.snapshots
            .lock()
            .expect("lock")
            .iter()
            .map(|(n, s)| (n.clone(), s.status.clone()))
            .collect()
    }
}

fn decode_query(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let dec = |s: &str| {
                let s = s.replace('+', " ");
                let mut out = Vec::new();
                let b = s.as_bytes();
                let mut i = 0;
                while i < b.len() {
                    if b[i] == b'%' && i + 2 < b.len() {
                        if let Ok(x) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                            out.push(x);
                            i += 3;
                            continue;
                        }
                    }
                    out.push(b[i]);
                    i += 1;
                }
                String::from_utf8_lossy(&out).into_owned()
            };
            (dec(k), dec(v))
        })
        .collect()
}

fn usable(status: &str) -> bool {
    matches!(status, "PARSED" | "DATAPLANING" | "DATAPLANED")
}

fn handle(
    mut req: tiny_http::Request,
    opts: &Options,
    st: &mut State,
    seen: &Arc<Mutex<Vec<Seen>>>,
    problems: &Arc<Mutex<Vec<String>>>,
) {
    let mut body = Vec::new();
    let _ = req.as_reader().read_to_end(&mut body);
    let url = req.url().to_owned();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let path = path.to_owned();
    let query = decode_query(query);
    let q = |k: &str| query.iter().find(|(x, _)| x == k).map(|(_, v)| v.clone());
    let headers: HashMap<String, String> = req
        .headers()
        .iter()
        .map(|h| {
            (
                h.field.as_str().as_str().to_ascii_lowercase(),
                h.value.as_str().to_owned(),
            )
        })
        .collect();
    let content_type = headers.get("content-type").cloned();
    let method = req.method().as_str().to_owned();
    let problem = |p: String| problems.lock().expect("lock").push(p);
    let record = |substituted: Option<Value>| {
        seen.lock().expect("lock").push(Seen {
            method: method.clone(),
            path: path.clone(),
            query: query.clone(),
            content_type: content_type.clone(),
            body: body.clone(),
            substituted,
        });
    };
    if path != "/v2/version" && path != "/v2/question_templates" {
        if headers.get("x-batfish-apikey").map(String::as_str) != Some(KEY) {
            problem(format!(
                "{method} {path}: missing or wrong X-Batfish-Apikey"
            ));
        }
        if !headers.contains_key("x-batfish-version") {
            problem(format!("{method} {path}: no X-Batfish-Version"));
        }
    }
    let parts: Vec<String> = path
        .trim_start_matches("/v2/")
        .split('/')
        .map(str::to_owned)
        .collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let json_body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    // The substituted question is recorded with the PUT, before any fault answers it.
    let substituted = (method == "PUT" && parts.len() == 4 && parts[2] == "questions")
        .then(|| substitute(&json_body));
    record(substituted.clone());
    let ct_is = |want: &str| {
        content_type
            .as_deref()
            .is_some_and(|c| c.split(';').next().unwrap_or("").trim() == want)
    };
    match opts.fault {
        Fault::Slow(stage) if path.contains(stage) => std::thread::sleep(Duration::from_secs(4)),
        Fault::Status(stage, code) if path.contains(stage) => {
            return respond(req, code, format!("stand-in says {code}"));
        }
        Fault::EchoHeaders(stage) if path.contains(stage) => {
            let echoed: Vec<String> = headers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            return respond(
                req,
                500,
                format!("internal error; request was {}", echoed.join("; ")),
            );
        }
        Fault::StatusTimes(stage, code, n) if path.contains(stage) => {
            let hits = st.hits.entry(stage).or_insert(0);
            *hits += 1;
            if *hits <= n {
                return respond(req, code, format!("stand-in says {code}"));
            }
        }
        Fault::ResetOnce(stage) if path.contains(stage) => {
            let hits = st.hits.entry(stage).or_insert(0);
            *hits += 1;
            if *hits == 1 {
                // Dropping the request unanswered closes the connection.
                drop(req);
                return;
            }
        }
        Fault::Redirect(stage, port) if path.contains(stage) => {
            let to = format!("http://127.0.0.1:{port}{path}");
            let resp = tiny_http::Response::from_string("moved")
                .with_status_code(302)
                .with_header(
                    tiny_http::Header::from_bytes(&b"Location"[..], to.as_bytes()).expect("header"),
                );
            let _ = req.respond(resp);
            return;
        }
        Fault::Huge(stage, declared) if path.contains(stage) => {
            let size: u64 = 1 << 30;
            let resp = tiny_http::Response::new(
                tiny_http::StatusCode(200),
                vec![],
                Zeros(size),
                declared.then_some(size as usize),
                None,
            );
            let _ = req.respond(resp);
            return;
        }
        _ => {}
    }
    let snaps = st.snapshots.clone();
    let mut snaps = snaps.lock().expect("lock");
    let (code, reply): (u16, String) = match (method.as_str(), parts.as_slice()) {
        ("GET", ["version"]) => (
            200,
            json!({"Batfish": "2025.07.07", "api_version": "2.1.0"}).to_string(),
        ),
        ("GET", ["question_templates"]) => (
            200,
            Value::Object(
                opts.templates
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.to_string())))
                    .collect(),
            )
            .to_string(),
        ),
        ("GET", ["networks", n]) => {
            if opts.fault == Fault::Race && !st.networks.contains(*n) {
                // Another run creates it right after this answer.
                st.networks.insert((*n).to_owned());
                (404, format!("Network '{n}' does not exist"))
            } else if st.networks.contains(*n) {
                (200, json!({"name": n}).to_string())
            } else {
                (404, format!("Network '{n}' does not exist"))
            }
        }
        ("POST", ["networks"]) => {
            let name = q("name").unwrap_or_default();
            if name.is_empty() {
                problem("POST /v2/networks without ?name=".into());
            }
            if st.networks.contains(&name) {
                (400, format!("Network '{name}' already exists!"))
            } else {
                st.networks.insert(name);
                (201, String::new())
            }
        }
        (_, ["networks", n, ..]) if !st.networks.contains(*n) => {
            (404, format!("Network '{n}' does not exist"))
        }
        ("GET", ["networks", _, "snapshots"]) => {
            let verbose = q("verbose").is_some_and(|v| v.eq_ignore_ascii_case("true"));
            let list: Vec<Value> = snaps
                .iter()
                .map(|(n, s)| {
                    if verbose {
                        json!({"name": n, "metadata": {"creationTimestamp": 1_700_000_000.0 + s.created as f64,
                            "initializationMetadata": {"currentStatus": s.status, "errMessage": null, "statusHistory": []},
                            "parentSnapshotId": null}})
                    } else {
                        json!(n)
                    }
                })
                .collect();
            (200, Value::Array(list).to_string())
        }
        ("POST", ["networks", _, "snapshots:fork"]) => {
            if !ct_is("application/json") {
                problem(format!("fork: Content-Type {content_type:?}"));
                (415, "HTTP 415 Unsupported Media Type".into())
            } else {
                let base = json_body["snapshotBase"].as_str().unwrap_or("").to_owned();
                let new = json_body["snapshotNew"].as_str().unwrap_or("").to_owned();
                if new.is_empty() || base.is_empty() {
                    (400, "Parameter new snapshot is required".into())
                } else if snaps.contains_key(&new) {
                    (400, format!("Snapshot with name: '{new}' already exists"))
                } else if let Some(b) = snaps.get(&base).cloned() {
                    let mut files = b.files.clone();
                    let mut ok = true;
                    let mut msg = String::new();
                    if let Some(z) = json_body["zipFile"].as_str() {
                        use base64::Engine;
                        match base64::engine::general_purpose::STANDARD
                            .decode(z)
                            .map_err(|e| e.to_string())
                            .and_then(|b| snapshot_files(&b))
                        {
                            Ok((_, added)) => files.extend(added),
                            Err(e) => {
                                problem(format!("fork zipFile: {e}"));
                                ok = false;
                                msg = e;
                            }
                        }
                    }
                    if ok {
                        let mut node_blacklist = b.node_blacklist.clone();
                        node_blacklist.extend(
                            json_body["deactivateNodes"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter_map(|v| v.as_str().map(str::to_owned)),
                        );
                        let interface_blacklist: Vec<(String, String)> = json_body
                            ["deactivateInterfaces"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|v| {
                                (
                                    v["hostname"].as_str().unwrap_or("").to_owned(),
                                    v["interface"].as_str().unwrap_or("").to_owned(),
                                )
                            })
                            .collect();
                        // `Batfish.java` blacklists physical interfaces only, by exact name:
                        // any other name deactivates nothing.
                        for (h, i) in &interface_blacklist {
                            let l = i.to_ascii_lowercase();
                            if i.contains('.')
                                || [
                                    "vlan",
                                    "port-channel",
                                    "loopback",
                                    "ae",
                                    "irb",
                                    "lo",
                                    "tunnel",
                                ]
                                .iter()
                                .any(|p| l.starts_with(p))
                            {
                                problem(format!(
                                    "deactivateInterfaces {h}:{i}: Batfish deactivates only physical interfaces, so this does nothing"
                                ));
                            }
                        }
                        st.created += 1;
                        snaps.insert(
                            new,
                            Snap {
                                files,
                                status: "UNINITIALIZED".into(),
                                node_blacklist,
                                interface_blacklist,
                                created: st.created,
                            },
                        );
                        (200, String::new())
                    } else {
                        (500, msg)
                    }
                } else {
                    (
                        404,
                        format!("Base snapshot with name: '{base}' does not exist"),
                    )
                }
            }
        }
        ("POST", ["networks", n, "snapshots", ss]) => {
            if opts.fault == Fault::Race && !snaps.contains_key(*ss) {
                // Another run uploaded and parsed the same snapshot a moment earlier.
                if let Ok((_, files)) = snapshot_files(&body) {
                    st.created += 1;
                    snaps.insert(
                        (*ss).to_owned(),
                        Snap {
                            files,
                            status: "PARSED".into(),
                            created: st.created,
                            ..Snap::default()
                        },
                    );
                }
            }
            if !ct_is("application/octet-stream") {
                problem(format!("upload: Content-Type {content_type:?}"));
                (415, "HTTP 415 Unsupported Media Type".into())
            } else if snaps.contains_key(*ss) {
                (
                    400,
                    format!("Snapshot in network '{n}' with name: '{ss}' already exists"),
                )
            } else {
                match snapshot_files(&body) {
                    Ok((_, files)) => {
                        if ![
                            "configs/",
                            "hosts/",
                            "aws_configs/",
                            "sonic_configs/",
                            "azure_configs/",
                        ]
                        .iter()
                        .any(|d| files.keys().any(|f| f.starts_with(d)))
                        {
                            problem("upload: no configs/".into());
                            (400, "Error uploading snapshot: Unexpected packaging of snapshot. At least one of these directories must exist: [configs, hosts, aws_configs, sonic_configs, azure_configs].".into())
                        } else {
                            st.created += 1;
                            snaps.insert(
                                (*ss).to_owned(),
                                Snap {
                                    files,
                                    status: "UNINITIALIZED".into(),
                                    created: st.created,
                                    ..Snap::default()
                                },
                            );
                            (201, String::new())
                        }
                    }
                    Err(e) => {
                        problem(format!("upload: {e}"));
                        (400, format!("Error uploading snapshot: {e}"))
                    }
                }
            }
        }
        ("DELETE", ["networks", _, "snapshots", ss]) => {
            if snaps.remove(*ss).is_some() {
                (200, String::new())
            } else {
                (404, String::new())
            }
        }
        ("PUT", ["networks", _, "questions", qn]) => match &substituted {
            Some(s)
                if s.get("class")
                    .and_then(Value::as_str)
                    .is_some_and(|c| c.starts_with("org.batfish.question")) =>
            {
                st.questions.insert((*qn).to_owned(), s.clone());
                (200, String::new())
            }
            _ => {
                problem(format!("question {qn}: not a question"));
                (400, format!("Invalid question olav/{qn}"))
            }
        },
        ("POST", ["networks", n, "work"]) => {
            let id = json_body["id"].as_str().unwrap_or("").to_owned();
            let params = &json_body["requestParams"];
            let ss = params["testrig"].as_str().unwrap_or("").to_owned();
            let duplicate = st.work.contains_key(&id);
            if !ct_is("application/json") {
                problem(format!("work: Content-Type {content_type:?}"));
                (415, "HTTP 415 Unsupported Media Type".into())
            } else if json_body["containerName"].as_str() != Some(*n)
                || json_body["testrigName"].as_str() != Some(ss.as_str())
                || uuid::Uuid::parse_str(&id).is_err()
            {
                problem(format!("work item: {json_body}"));
                (400, "bad work item".into())
            } else if duplicate {
                (
                    400,
                    format!("Supplied WorkID '{id}' is a duplicate of existing WorkID: '{id}'"),
                )
            } else if !snaps.contains_key(&ss) {
                (
                    500,
                    format!("Failed to queue work: Snapshot '{ss}' does not exist"),
                )
            } else if params.get("answer").is_some() {
                let mut refused = None;
                for s in std::iter::once(ss.as_str()).chain(params["deltatestrig"].as_str()) {
                    match snaps.get(s) {
                        Some(x) if usable(&x.status) => {}
                        Some(x) => {
                            refused = Some(format!("Failed to queue work: Cannot queue parsing dependent work for {s}: Status is {} but no incomplete parsing work exists", x.status));
                        }
                        None => {
                            refused = Some(format!(
                                "Failed to queue work: Snapshot '{s}' does not exist"
                            ))
                        }
                    }
                }
                match refused {
                    Some(m) => {
                        problem(format!("work refused: {m}"));
                        (500, m)
                    }
                    None => {
                        st.work.insert(id, json_body.clone());
                        (201, String::new())
                    }
                }
            } else {
                match snaps.get_mut(&ss) {
                    Some(x) if x.status == "PARSING" => (500, format!("Failed to queue work: Cannot queue parsing work for {ss}: Status is PARSING but no incomplete parsing work exists")),
                    Some(x) => {
                        x.status = "PARSING".into();
                        st.work.insert(id, json_body.clone());
                        (201, String::new())
                    }
                    None => (500, "Failed to queue work".into()),
                }
            }
        }
        ("GET", ["networks", _, "work", id]) => {
            if opts.fault == Fault::MalformedWork {
                (200, "{\"workstatuscode\": ".into())
            } else if let Some(item) = st.work.get(*id).cloned() {
                let n = st.polls.entry((*id).to_owned()).or_insert(0);
                *n += 1;
                let params = &item["requestParams"];
                let ss = params["testrig"].as_str().unwrap_or("").to_owned();
                let is_parse = params.get("answer").is_none();
                let code = if *n < 2 {
                    "ASSIGNED"
                } else if is_parse {
                    let fail = match opts.fault {
                        Fault::Abnormal => true,
                        Fault::AbnormalOnce => st.parses == 0,
                        _ => false,
                    };
                    if *n == 2 {
                        st.parses += 1;
                        if let Some(x) = snaps.get_mut(&ss) {
                            x.status = if fail {
                                "PARSING_FAIL".into()
                            } else {
                                "PARSED".into()
                            };
                        }
                    }
                    if fail {
                        "TERMINATEDABNORMALLY"
                    } else {
                        "TERMINATEDNORMALLY"
                    }
                } else {
                    let qn = params["questionname"].as_str().unwrap_or("").to_owned();
                    let reference = params["deltatestrig"].as_str().map(str::to_owned);
                    st.answered.insert((qn, ss, reference));
                    "TERMINATEDNORMALLY"
                };
                (
                    200,
                    json!({"workitem": item, "workstatuscode": code, "task": {"batches": []}})
                        .to_string(),
                )
            } else {
                (404, String::new())
            }
        }
        ("GET", ["networks", _, "snapshots", _, "worklog", _]) => (
            200,
            "ERROR: configs/alpha-dist-1.cfg: parser crashed at line 42".into(),
        ),
        ("GET", ["networks", _, "questions", qn, "answer"]) => {
            let snapshot = q("snapshot").unwrap_or_default();
            let reference = q("referenceSnapshot");
            if snapshot.is_empty() {
                (
                    400,
                    "Snapshot must be specified to fetch question answer".into(),
                )
            } else if !snaps.contains_key(&snapshot) {
                (
                    404,
                    format!("Snapshot {snapshot} not found in network olav"),
                )
            } else if !st.questions.contains_key(*qn) {
                (
                    404,
                    format!("Question '{qn}' does not exist for network: olav"),
                )
            } else if !st.answered.contains(&(
                (*qn).to_owned(),
                snapshot.clone(),
                reference.clone(),
            )) {
                problem(format!(
                    "answer of {qn} on {snapshot}/{reference:?} never computed"
                ));
                (404, format!("Answer not found for question {qn}"))
            } else if opts.fault == Fault::AnswerFailure {
                (200, json!({"answerElements": [{"answer": "java.lang.NullPointerException in BgpTopologyUtils"}], "status": "FAILURE", "summary": {}}).to_string())
            } else {
                let question = st.questions.get(*qn).cloned().unwrap_or(Value::Null);
                let class = question["class"].as_str().unwrap_or("").to_owned();
                let files = snaps
                    .get(&snapshot)
                    .map(|s| s.files.clone())
                    .unwrap_or_default();
                let ctx = AnswerCtx {
                    class: &class,
                    snapshot: &snapshot,
                    reference: reference.as_deref(),
                    question: &question,
                    files: &files,
                };
                let mut ans = opts
                    .answers
                    .as_ref()
                    .and_then(|f| f(&ctx))
                    .unwrap_or_else(|| default_answer(&ctx));
                // Node filters: only the rows of the nodes named (Batfish's nodes are lowercase).
                if let Some(spec) = question.get("nodes").and_then(Value::as_str) {
                    let nodes = spec_nodes(spec);
                    if spec != ".*" {
                        if let Some(rows) = ans
                            .pointer_mut("/answerElements/0/rows")
                            .and_then(Value::as_array_mut)
                        {
                            rows.retain(|r| {
                                r.pointer("/Node/name")
                                    .and_then(Value::as_str)
                                    .is_none_or(|n| nodes.contains(n))
                            });
                        }
                    }
                }
                (200, ans.to_string())
            }
        }
        _ => {
            problem(format!("unexpected {method} {path}"));
            (404, "unknown endpoint".into())
        }
    };
    drop(snaps);
    respond(req, code, reply);
}
