//! The simulator against an in-process stand-in for Batfish (tests only) that speaks
//! Batfish's v2 wire format and checks what it receives: zip layout, headers, question
//! JSON, work items. Then each fault: a clear message, no hang, no panic. And the
//! absent-service path from both workflows. One test, ignored by default, runs against
//! a real Batfish when OLAV_BATFISH_HOST is set.

use assert_cmd::Command;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const KEY: &str = "s3cr3t-api-key-for-tests-0000000";
const DECOM: &str = "Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose";
const CHANGE: &str = "Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router";

/// Where the stand-in misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    /// Sleep past the client's deadline on requests whose path contains this text.
    Slow(&'static str),
    /// Answer this status on requests whose path contains the text.
    Status(&'static str, u16),
    /// Malformed JSON from work polling.
    MalformedWork,
    /// Parse work ends TERMINATEDABNORMALLY.
    Abnormal,
    /// Answers carry status FAILURE.
    AnswerFailure,
}

#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    body: Vec<u8>,
}

struct StandIn {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    problems: Arc<Mutex<Vec<String>>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

fn zip_entries(bytes: &[u8]) -> Result<Vec<String>, String> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| e.to_string())?;
    Ok((0..z.len())
        .filter_map(|i| z.by_index(i).ok().map(|f| f.name().to_owned()))
        .collect())
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

fn answer_for(class: &str, snapshot: &str) -> Value {
    if class.ends_with("FileParseStatusQuestion") {
        return table(
            &[
                ("File_Name", "String"),
                ("Status", "String"),
                ("File_Format", "String"),
                ("Nodes", "List<String>"),
            ],
            vec![
                json!({"File_Name": "configs/alpha-dist-1.cfg", "Status": "PASSED", "File_Format": "CISCO_IOS", "Nodes": ["alpha-dist-1"]}),
            ],
        );
    }
    if class.ends_with("BgpSessionCompatibilityQuestion") {
        return table(
            &[
                ("Node", "Node"),
                ("VRF", "String"),
                ("Remote_IP", "SelfDescribing"),
                ("Session_Type", "String"),
                ("Configured_Status", "String"),
            ],
            vec![
                json!({"Node": {"id": "node-1", "name": "alpha-border-1"}, "VRF": "default", "Remote_IP": {"schema": "Ip", "value": "203.0.113.6"}, "Session_Type": "EBGP_SINGLEHOP", "Configured_Status": "UNKNOWN_REMOTE"}),
            ],
        );
    }
    if class.ends_with("DifferentialReachabilityQuestion") && snapshot.starts_with("olav-cand") {
        return table(
            &[("Flow", "String"), ("Snapshot_Traces", "String")],
            vec![
                json!({"Flow": "start=alpha-dist-1 dst=10.20.120.10", "Snapshot_Traces": "NO_ROUTE"}),
            ],
        );
    }
    table(&[("Node", "Node"), ("Issue", "String")], vec![])
}

impl StandIn {
    fn start(fault: Fault) -> StandIn {
        let server = tiny_http::Server::http("127.0.0.1:0").expect("listen");
        let port = server
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .expect("port");
        let seen = Arc::new(Mutex::new(Vec::new()));
        let problems = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (seen2, problems2, stop2) = (seen.clone(), problems.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut networks: Vec<String> = Vec::new();
            let mut snapshots: Vec<String> = Vec::new();
            let mut questions: HashMap<String, String> = HashMap::new();
            let mut polls: HashMap<String, u32> = HashMap::new();
            let mut work_kind: HashMap<String, String> = HashMap::new();
            while !stop2.load(std::sync::atomic::Ordering::SeqCst) {
                let Ok(Some(mut req)) = server.recv_timeout(Duration::from_millis(50)) else {
                    continue;
                };
                let mut body = Vec::new();
                let _ = req.as_reader().read_to_end(&mut body);
                let url = req.url().to_owned();
                let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
                let path = path.to_owned();
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
                let method = req.method().as_str().to_owned();
                seen2.lock().expect("lock").push(Seen {
                    method: method.clone(),
                    path: path.clone(),
                    body: body.clone(),
                });
                let problem = |p: String| problems2.lock().expect("lock").push(p);
                if path != "/v2/version" {
                    if headers.get("x-batfish-apikey").map(String::as_str) != Some(KEY) {
                        problem(format!(
                            "{method} {path}: missing or wrong X-Batfish-Apikey"
                        ));
                    }
                    if !headers.contains_key("x-batfish-version") {
                        problem(format!("{method} {path}: no X-Batfish-Version"));
                    }
                }
                if let Fault::Slow(stage) = fault {
                    if path.contains(stage) {
                        std::thread::sleep(Duration::from_secs(4));
                    }
                }
                if let Fault::Status(stage, code) = fault {
                    if path.contains(stage) {
                        let _ = req.respond(
                            tiny_http::Response::from_string(format!("stand-in says {code}"))
                                .with_status_code(code),
                        );
                        continue;
                    }
                }
                let parts: Vec<&str> = path.trim_start_matches("/v2/").split('/').collect();
                let json_body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let (code, reply): (u16, String) = match (method.as_str(), parts.as_slice()) {
                    ("GET", ["version"]) => (
                        200,
                        json!({"Batfish": "2025.07.07", "api_version": "2.1.0"}).to_string(),
                    ),
                    ("GET", ["networks", n]) => {
                        if networks.iter().any(|x| x == n) {
                            (200, json!({"name": n}).to_string())
                        } else {
                            (404, "no such network".into())
                        }
                    }
                    ("POST", ["networks"]) => {
                        let name = query.strip_prefix("name=").unwrap_or("").to_owned();
                        if name.is_empty() {
                            problem("POST /v2/networks without ?name=".into());
                        }
                        networks.push(name);
                        (201, String::new())
                    }
                    ("GET", ["networks", _, "snapshots"]) => (200, json!(snapshots).to_string()),
                    ("POST", ["networks", _, "snapshots:fork"]) => {
                        for k in ["snapshotBase", "snapshotNew", "deactivateNodes", "zipFile"] {
                            if json_body.get(k).is_none() {
                                problem(format!("fork: no {k}"));
                            }
                        }
                        let new = json_body["snapshotNew"].as_str().unwrap_or("").to_owned();
                        if let Some(z) = json_body["zipFile"].as_str() {
                            use base64::Engine;
                            match base64::engine::general_purpose::STANDARD
                                .decode(z)
                                .map_err(|e| e.to_string())
                                .and_then(|b| zip_entries(&b))
                            {
                                Ok(entries) => {
                                    if !entries
                                        .iter()
                                        .all(|e| e.starts_with(&format!("{new}/configs/")))
                                    {
                                        problem(format!("fork zip layout: {entries:?}"));
                                    }
                                }
                                Err(e) => problem(format!("fork zipFile: {e}")),
                            }
                        }
                        snapshots.push(new);
                        (200, String::new())
                    }
                    ("POST", ["networks", _, "snapshots", ss]) => {
                        if headers.get("content-type").map(String::as_str)
                            != Some("application/octet-stream")
                        {
                            problem("upload: content type".into());
                        }
                        match zip_entries(&body) {
                            Ok(entries) => {
                                let tops: std::collections::BTreeSet<&str> =
                                    entries.iter().filter_map(|e| e.split('/').next()).collect();
                                if tops.len() != 1
                                    || !tops.contains(ss)
                                    || !entries
                                        .iter()
                                        .any(|e| e == &format!("{ss}/configs/alpha-br-3560.cfg"))
                                {
                                    problem(format!("upload zip layout: {entries:?}"));
                                }
                            }
                            Err(e) => problem(format!("upload: not a zip: {e}")),
                        }
                        snapshots.push((*ss).to_owned());
                        (201, String::new())
                    }
                    ("PUT", ["networks", _, "questions", q]) => {
                        let class = json_body["class"].as_str().unwrap_or("").to_owned();
                        if !class.starts_with("org.batfish.question") {
                            problem(format!("question {q}: class {class}"));
                        }
                        if json_body
                            .pointer("/instance/instanceName")
                            .and_then(Value::as_str)
                            != Some(*q)
                        {
                            problem(format!("question {q}: instanceName differs"));
                        }
                        questions.insert((*q).to_owned(), class);
                        (200, String::new())
                    }
                    ("POST", ["networks", n, "work"]) => {
                        let id = json_body["id"].as_str().unwrap_or("").to_owned();
                        if json_body["containerName"].as_str() != Some(*n)
                            || json_body["testrigName"].as_str().is_none()
                            || json_body["requestParams"].get("testrig").is_none()
                            || id.len() != 36
                        {
                            problem(format!("work item: {json_body}"));
                        }
                        let kind = if json_body["requestParams"].get("questionname").is_some() {
                            "answer"
                        } else {
                            "parse"
                        };
                        work_kind.insert(id, kind.to_owned());
                        (201, String::new())
                    }
                    ("GET", ["networks", _, "work", id]) => {
                        if fault == Fault::MalformedWork {
                            (200, "{\"workstatuscode\": ".into())
                        } else {
                            let n = polls.entry((*id).to_owned()).or_insert(0);
                            *n += 1;
                            let code = if *n < 2 {
                                "ASSIGNED"
                            } else if fault == Fault::Abnormal
                                && work_kind.get(*id).map(String::as_str) == Some("parse")
                            {
                                "TERMINATEDABNORMALLY"
                            } else {
                                "TERMINATEDNORMALLY"
                            };
                            (200, json!({"workitem": {"id": id}, "workstatuscode": code, "task": {"batches": []}}).to_string())
                        }
                    }
                    ("GET", ["networks", _, "snapshots", _, "worklog", _]) => (
                        200,
                        "ERROR: configs/alpha-dist-1.cfg: parser crashed at line 42".into(),
                    ),
                    ("GET", ["networks", _, "questions", q, "answer"]) => {
                        let snapshot = query
                            .split('&')
                            .find_map(|kv| kv.strip_prefix("snapshot="))
                            .unwrap_or("");
                        if fault == Fault::AnswerFailure {
                            (200, json!({"answerElements": [{"answer": "java.lang.NullPointerException in BgpTopologyUtils"}], "status": "FAILURE", "summary": {}}).to_string())
                        } else {
                            (
                                200,
                                answer_for(
                                    questions.get(*q).map(String::as_str).unwrap_or(""),
                                    snapshot,
                                )
                                .to_string(),
                            )
                        }
                    }
                    _ => {
                        problem(format!("unexpected {method} {path}"));
                        (404, "unknown endpoint".into())
                    }
                };
                let _ = req.respond(tiny_http::Response::from_string(reply).with_status_code(code));
            }
        });
        StandIn {
            port,
            seen,
            problems,
            stop,
        }
    }
}

fn olav(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("olav").expect("binary builds");
    c.env_remove("OLAV_DB")
        .env_remove("OLAV_BATFISH_HOST")
        .env_remove("OLAV_BATFISH_HTTP_PORT")
        .current_dir(dir);
    c
}

fn draft(dir: &Path, request: &str) -> String {
    let out = olav(dir)
        .args([
            "-q",
            "--batfish-host",
            "127.0.0.1",
            "--batfish-port",
            "9",
            "--format",
            "json",
            request,
        ])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    v["steps"][0]["artifact"].as_str().expect("plan").to_owned()
}

fn verify(dir: &Path, plan: &str, port: u16, deadline: &str) -> assert_cmd::assert::Assert {
    olav(dir)
        .env("OLAV_BATFISH_APIKEY", KEY)
        .args([
            "--batfish-host",
            "127.0.0.1",
            "--batfish-port",
            &port.to_string(),
            "--batfish-deadline",
            deadline,
            "verify",
            plan,
        ])
        .timeout(Duration::from_secs(60))
        .assert()
}

#[test]
fn verification_against_the_stand_in_speaks_the_wire_format() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let bf = StandIn::start(Fault::None);
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stdout.starts_with("Verdict: WARN"), "{stdout}");
    assert!(
        stdout.contains("Batfish 2025.07.07 at 127.0.0.1:"),
        "{stdout}"
    );
    assert!(
        stdout.contains("differentialReachability: 1 flow(s) behave differently"),
        "{stdout}"
    );
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "the API key is never printed"
    );
    let problems = bf.problems.lock().expect("lock").clone();
    assert!(problems.is_empty(), "{problems:#?}");
    let seen = bf.seen.lock().expect("lock").clone();
    let paths: Vec<String> = seen
        .iter()
        .map(|s| format!("{} {}", s.method, s.path))
        .collect();
    for expected in [
        "GET /v2/version",
        "POST /v2/networks",
        "POST /v2/networks/olav/snapshots:fork",
        "PUT /v2/networks/olav/questions/",
        "POST /v2/networks/olav/work",
    ] {
        assert!(
            paths.iter().any(|p| p.starts_with(expected)),
            "{expected} not requested: {paths:#?}"
        );
    }
    let fork = seen
        .iter()
        .find(|s| s.path.ends_with("snapshots:fork"))
        .expect("fork");
    let body: Value = serde_json::from_slice(&fork.body).expect("json");
    assert_eq!(body["deactivateNodes"], json!(["alpha-br-3560"]));
    let classes: Vec<String> = seen
        .iter()
        .filter(|s| s.method == "PUT")
        .filter_map(|s| serde_json::from_slice::<Value>(&s.body).ok())
        .filter_map(|q| q["class"].as_str().map(str::to_owned))
        .collect();
    for q in [
        "FileParseStatusQuestion",
        "InitIssuesQuestion",
        "ParseWarningQuestion",
        "UndefinedReferencesQuestion",
        "IpOwnersQuestion",
        "BgpSessionCompatibilityQuestion",
        "BgpSessionStatusQuestion",
        "DifferentialReachabilityQuestion",
    ] {
        assert!(
            classes.iter().any(|c| c.ends_with(q)),
            "{q} not asked: {classes:?}"
        );
    }
    let ip_owners = seen
        .iter()
        .filter(|s| s.method == "PUT")
        .filter_map(|s| serde_json::from_slice::<Value>(&s.body).ok())
        .find(|q| {
            q["class"]
                .as_str()
                .is_some_and(|c| c.ends_with("IpOwnersQuestion"))
        })
        .expect("ipOwners");
    assert_eq!(ip_owners["duplicatesOnly"], true);
    let differential = seen
        .iter()
        .filter(|s| s.path.ends_with("/work"))
        .filter_map(|s| serde_json::from_slice::<Value>(&s.body).ok())
        .find(|w| w["requestParams"].get("deltatestrig").is_some())
        .expect("differential work item");
    assert!(differential["requestParams"]["deltatestrig"]
        .as_str()
        .is_some_and(|s| s.starts_with("olav-base-")));
}

#[test]
fn each_fault_gives_a_clear_message_without_hanging() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let cases: Vec<(Fault, &str, &str)> = vec![
        (Fault::Slow("/version"), "3", "Formal verification did not run"),
        (Fault::Slow("/networks/olav"), "3", "did not answer GET /v2/networks/olav within"),
        (Fault::Slow("/snapshots/olav-base"), "3", "did not answer POST /v2/networks/olav/snapshots/olav-base"),
        (Fault::Slow("snapshots:fork"), "3", "did not answer POST /v2/networks/olav/snapshots:fork"),
        (Fault::Slow("/work"), "3", "did not answer POST /v2/networks/olav/work within"),
        (Fault::Slow("/questions/"), "3", "/questions/olav_"),
        (Fault::Status("/snapshots/olav-base", 400), "60", "HTTP 400: stand-in says 400"),
        (Fault::Status("/questions/", 500), "60", "HTTP 500: stand-in says 500"),
        (Fault::MalformedWork, "60", "malformed JSON"),
        (Fault::Abnormal, "60", "ended TERMINATEDABNORMALLY; work log:\nERROR: configs/alpha-dist-1.cfg: parser crashed at line 42"),
        (Fault::AnswerFailure, "60", "could not answer olav_fileParseStatus"),
    ];
    for (fault, deadline, expect) in cases {
        let bf = StandIn::start(fault);
        let started = std::time::Instant::now();
        let out = verify(tmp.path(), &plan, bf.port, deadline);
        let o = out.get_output();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            text.contains(expect),
            "{fault:?}: expected '{expect}' in:\n{text}"
        );
        assert!(!text.contains("panicked"), "{fault:?}: {text}");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{fault:?} took {:?}",
            started.elapsed()
        );
        // A slow probe is an absent Batfish (fallback, exit 0); every other fault fails the verification.
        let code = o.status.code().unwrap_or(-1);
        if fault == Fault::Slow("/version") {
            assert_eq!(code, 0, "{text}");
            assert!(
                text.contains("static checks (not Batfish)")
                    || text.contains("Static checks (not Batfish)"),
                "{text}"
            );
        } else {
            assert_eq!(code, 2, "{fault:?}: {text}");
        }
    }
}

#[test]
fn connection_refused_falls_back_and_require_batfish_makes_it_an_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let out = verify(tmp.path(), &plan, 9, "60").success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.starts_with("Verdict: UNVERIFIED"), "{text}");
    assert!(text.contains("not reachable at 127.0.0.1:9"), "{text}");
    let out = olav(tmp.path())
        .args([
            "--batfish-host",
            "127.0.0.1",
            "--batfish-port",
            "9",
            "--require-batfish",
            "verify",
            &plan,
        ])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("Batfish is required (--require-batfish)"),
        "{err}"
    );
}

#[test]
fn the_absent_service_path_from_both_workflows() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (request, header) in [(CHANGE, "## Draft"), (DECOM, "## Decommission plan")] {
        let out = olav(tmp.path())
            .args([
                "-q",
                "--batfish-host",
                "127.0.0.1",
                "--batfish-port",
                "9",
                request,
            ])
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let formal = text
            .split("## Formal verification (Batfish)")
            .nth(1)
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            text.contains(header) && text.contains("## Pre-check (reporter)\n\nPre-check "),
            "{text}"
        );
        assert!(
            formal.contains("Batfish is not reachable at 127.0.0.1:9"),
            "{formal}"
        );
        assert!(
            formal.contains("docker run --name batfish -d -p 9996:9996 batfish/allinone"),
            "{formal}"
        );
        assert!(
            formal.contains("export OLAV_BATFISH_HOST=<host>"),
            "{formal}"
        );
        assert!(
            formal.contains("olav verify exports/change_plans/"),
            "{formal}"
        );
        assert!(
            formal.contains("Static checks (not Batfish) on the candidate network"),
            "{formal}"
        );
        assert!(formal.contains("VERDICT: UNVERIFIED"), "{formal}");
    }
}

#[test]
fn a_plan_that_conflicts_fails_the_static_fallback() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    std::fs::write(
        &path,
        text.replace(
            "ip address 203.0.113.5 255.255.255.252",
            "ip address 10.0.1.1 255.255.255.254",
        ),
    )
    .expect("edit");
    let out = verify(tmp.path(), &plan, 9, "60").code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.starts_with("Verdict: FAIL"), "{text}");
    assert!(text.contains("duplicate IP 10.0.1.1"), "{text}");
}

/// Against a real Batfish: `OLAV_BATFISH_HOST=<host> cargo test --test batfish -- --ignored`.
#[test]
#[ignore = "needs a running Batfish (set OLAV_BATFISH_HOST)"]
fn against_a_real_batfish() {
    let Ok(host) = std::env::var("OLAV_BATFISH_HOST") else {
        eprintln!("SKIPPED: OLAV_BATFISH_HOST is not set");
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let out = Command::cargo_bin("olav")
        .expect("bin")
        .current_dir(tmp.path())
        .env_remove("OLAV_DB")
        .args([
            "--batfish-host",
            &host,
            "--require-batfish",
            "verify",
            &plan,
        ])
        .timeout(Duration::from_secs(600))
        .assert();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.contains("Batfish ") && !text.contains("did not run"),
        "{text}"
    );
}
