//! The simulator against an in-process stand-in for Batfish's coordinator (tests only,
//! `tests/it/standin`) that speaks Batfish's v2 wire format and checks what it receives: zip
//! layout, headers, question JSON, work items. Then each fault: a clear message, no hang,
//! no panic; each behaviour of a real Batfish olav depends on (issue 14); and the
//! absent-service path from both workflows. One test, ignored by default, runs against
//! a real Batfish when OLAV_BATFISH_HOST is set.

use crate::common::{self, draft, olav};
use crate::standin;

use crate::standin::{answer, session_row, Fault, Options, StandIn, KEY};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

pub(crate) const DECOM: &str = "Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose";
pub(crate) const CHANGE: &str = "Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router";

pub(crate) fn verify(
    dir: &Path,
    plan: &str,
    port: u16,
    deadline: &str,
) -> assert_cmd::assert::Assert {
    verify_with(dir, plan, port, deadline, &[])
}

fn verify_with(
    dir: &Path,
    plan: &str,
    port: u16,
    deadline: &str,
    extra: &[&str],
) -> assert_cmd::assert::Assert {
    olav(dir)
        .env("OLAV_BATFISH_APIKEY", KEY)
        .args([
            "--batfish-host",
            "127.0.0.1",
            "--batfish-port",
            &port.to_string(),
            "--batfish-deadline",
            deadline,
        ])
        .args(extra)
        .args(["verify", plan])
        .timeout(Duration::from_secs(60))
        .assert()
}

pub(crate) fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

fn all_output(a: &assert_cmd::assert::Assert) -> String {
    let o = a.get_output();
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The questions olav PUT, after the stand-in filled their variables.
pub(crate) fn questions(seen: &[standin::Seen]) -> Vec<Value> {
    seen.iter().filter_map(|s| s.substituted.clone()).collect()
}

#[test]
fn verification_against_the_stand_in_speaks_the_wire_format() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let bf = StandIn::start(Fault::None);
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    let text = stdout(&out);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(text.starts_with("Verdict: WARN"), "{text}");
    assert!(text.contains("Batfish 2025.07.07 at 127.0.0.1:"), "{text}");
    assert!(
        text.contains("differentialReachability: 1 flow(s) behave differently"),
        "{text}"
    );
    assert!(
        !text.contains(KEY) && !stderr.contains(KEY),
        "the API key is never printed"
    );
    let problems = bf.problems();
    assert!(problems.is_empty(), "{problems:#?}");
    let seen = bf.seen();
    let paths: Vec<String> = seen
        .iter()
        .map(|s| format!("{} {}", s.method, s.path))
        .collect();
    for expected in [
        "GET /v2/version",
        "POST /v2/networks",
        "POST /v2/networks/olav/snapshots/olav-base-",
        "POST /v2/networks/olav/snapshots:fork",
        "PUT /v2/networks/olav/questions/",
        "POST /v2/networks/olav/work",
        "DELETE /v2/networks/olav/snapshots/olav-cand-",
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
    let differential = seen
        .iter()
        .filter(|s| s.path.ends_with("/work"))
        .filter_map(|s| serde_json::from_slice::<Value>(&s.body).ok())
        .find(|w| w["requestParams"].get("deltatestrig").is_some())
        .expect("differential work item");
    assert!(differential["requestParams"]["deltatestrig"]
        .as_str()
        .is_some_and(|s| s.starts_with("olav-base-")));

    // A change asks every question; the BGP ones name the changed device.
    let plan = draft(tmp.path(), CHANGE);
    let bf = StandIn::start(Fault::None);
    verify(tmp.path(), &plan, bf.port, "60").success();
    assert!(bf.problems().is_empty(), "{:#?}", bf.problems());
    let qs = questions(&bf.seen());
    let class = |q: &Value| q["class"].as_str().unwrap_or("").to_owned();
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
            qs.iter().any(|x| class(x).ends_with(q)),
            "{q} not asked: {qs:#?}"
        );
    }
    let ip_owners = qs
        .iter()
        .find(|q| class(q).ends_with("IpOwnersQuestion"))
        .expect("ipOwners");
    assert_eq!(ip_owners["duplicatesOnly"], true);
    // Compatibility on the plan's devices; establishment network-wide (a session between
    // devices the plan never names can lose its path).
    for q in qs
        .iter()
        .filter(|q| class(q).ends_with("BgpSessionCompatibilityQuestion"))
    {
        assert_eq!(q["nodes"], json!("\"alpha-border-1\""), "{q}");
    }
    for q in qs
        .iter()
        .filter(|q| class(q).ends_with("BgpSessionStatusQuestion"))
    {
        assert!(
            q.get("nodes").is_none_or(|n| n == ".*" || n.is_null()),
            "{q}"
        );
    }
    let diff = qs
        .iter()
        .find(|q| class(q).ends_with("DifferentialReachabilityQuestion"))
        .expect("differentialReachability");
    assert_eq!(diff["maxTraces"], 1, "{diff}");
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
        (Fault::Abnormal, "60", "ended TERMINATEDABNORMALLY; work log:\n    │ ERROR: configs/alpha-dist-1.cfg: parser crashed at line 42"),
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
    // The fallback answers for forwarding too, labelled as olav's own model.
    let compared = text
        .lines()
        .find_map(|l| l.strip_prefix("Forwarding (olav's routing model, not Batfish): "))
        .unwrap_or_else(|| panic!("{text}"));
    let flows: usize = compared
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{compared}"));
    assert!(flows > 20, "{compared}");
    assert!(compared.ends_with("0 error(s), 0 warning(s)"), "{compared}");
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

#[test]
fn a_plan_that_loops_traffic_fails_the_static_fallback_naming_the_path() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // alpha-dist-1 sends alpha-border-1's loopback to the branch switch, whose only way
    // back to the rest of the network is alpha-dist-1.
    let plan = common::draft_any(
        tmp.path(),
        "add a static route to 10.255.1.1/32 via 10.0.1.41 on alpha-dist-1",
    );
    let out = verify(tmp.path(), &plan, 9, "60").code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.starts_with("Verdict: FAIL"), "{text}");
    assert!(
        text.contains("Static checks (not Batfish) on the candidate network: no conflict found"),
        "{text}"
    );
    assert!(
        text.contains("Forwarding (olav's routing model, not Batfish): "),
        "{text}"
    );
    assert!(
        text.contains("error precheck.loop: static route 10.255.1.1/32 on alpha-dist-1")
            && text.contains(
                "path: alpha-dist-1 (TwentyFiveGigE1/0/10) → alpha-br-3560 (GigabitEthernet0/25) → alpha-dist-1"
            ),
        "{text}"
    );
}

/// The demo network with two hostnames in capitals, imported into its own DB.
fn mixed_case_db(dir: &Path) -> std::path::PathBuf {
    let snap = dir.join("mixed");
    common::copy_dir(&common::demo_dir(), &snap);
    fn rename(p: &Path) {
        for e in std::fs::read_dir(p).expect("read_dir") {
            let path = e.expect("entry").path();
            if path.is_dir() {
                rename(&path);
            } else {
                let text = std::fs::read_to_string(&path).expect("read");
                std::fs::write(
                    &path,
                    text.replace("alpha-border-1", "Alpha-Border-1")
                        .replace("alpha-br-3560", "Alpha-BR-3560"),
                )
                .expect("write");
            }
        }
    }
    rename(&snap);
    let db = dir.join("mixed.db");
    olav(dir)
        .args(["-q", "--db", &db.to_string_lossy(), "state", "import"])
        .arg(&snap)
        .assert()
        .success();
    db
}

/// A plan drafted on the demo, its device names as the mixed-case network spells them.
fn mixed_case_plan(dir: &Path, request: &str) -> String {
    let plan = draft(dir, request);
    let path = dir.join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    std::fs::write(
        &path,
        text.replace("alpha-border-1", "Alpha-Border-1")
            .replace("alpha-br-3560", "Alpha-BR-3560"),
    )
    .expect("write");
    plan
}

#[test]
fn node_names_go_to_batfish_in_lowercase_and_answers_match_whatever_the_case() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = mixed_case_db(tmp.path());
    let db = db.to_string_lossy().into_owned();
    // Batfish names nodes in lowercase: the candidate's new session on the router has no local IP.
    let bf = StandIn::with(Options {
        answers: Some(Box::new(|ctx| {
            (ctx.class.ends_with("BgpSessionCompatibilityQuestion")
                && ctx.snapshot.starts_with("olav-cand-"))
            .then(|| {
                answer(
                    ctx.class,
                    vec![
                        session_row(
                            "alpha-border-1",
                            "203.0.113.2",
                            "EBGP_SINGLEHOP",
                            "Configured_Status",
                            "UNKNOWN_REMOTE",
                        ),
                        session_row(
                            "alpha-border-1",
                            "203.0.113.6",
                            "EBGP_SINGLEHOP",
                            "Configured_Status",
                            "NO_LOCAL_IP",
                        ),
                    ],
                )
            })
        })),
        ..Options::default()
    });
    let plan = mixed_case_plan(tmp.path(), CHANGE);
    let out = verify_with(tmp.path(), &plan, bf.port, "60", &["--db", &db]).code(1);
    let text = stdout(&out);
    assert!(text.starts_with("Verdict: FAIL"), "{text}");
    assert!(
        text.contains("error bgpSessionCompatibility: Alpha-Border-1 → 203.0.113.6: NO_LOCAL_IP"),
        "the hostname shown as stored: {text}"
    );
    let qs = questions(&bf.seen());
    let bgp: Vec<&Value> = qs
        .iter()
        .filter(|q| {
            q["class"]
                .as_str()
                .is_some_and(|c| c.contains("BgpSessionCompatibility"))
        })
        .collect();
    assert!(!bgp.is_empty());
    for q in bgp {
        assert_eq!(q["nodes"], json!("\"alpha-border-1\""), "{q}");
    }
    // The upload keeps the file name as stored; the ISP file names the node in lowercase.
    let upload = bf
        .seen()
        .into_iter()
        .find(|s| s.method == "POST" && s.path.contains("/snapshots/olav-base-"))
        .expect("upload");
    let (_, files) = standin::snapshot_files(&upload.body).expect("zip");
    assert!(
        files.contains_key("configs/Alpha-Border-1.cfg"),
        "{:?}",
        files.keys()
    );

    // Decommissioning the router in capitals deactivates Batfish's (lowercase) node.
    let bf = StandIn::start(Fault::None);
    let plan = mixed_case_plan(tmp.path(), DECOM);
    verify_with(tmp.path(), &plan, bf.port, "60", &["--db", &db]).success();
    let fork = bf
        .seen()
        .into_iter()
        .find(|s| s.path.ends_with("snapshots:fork"))
        .expect("fork");
    let body: Value = serde_json::from_slice(&fork.body).expect("json");
    assert_eq!(body["deactivateNodes"], json!(["alpha-br-3560"]));
}

#[test]
fn a_base_whose_parse_failed_is_uploaded_again_by_the_next_verification() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let bf = StandIn::start(Fault::AbnormalOnce);
    let first = verify(tmp.path(), &plan, bf.port, "60").code(2);
    assert!(
        all_output(&first).contains("ended TERMINATEDABNORMALLY"),
        "{}",
        all_output(&first)
    );
    let statuses = bf.statuses();
    let (base, status) = statuses
        .iter()
        .find(|(n, _)| n.starts_with("olav-base-"))
        .expect("a base");
    assert_eq!(status, "PARSING_FAIL");
    let before = bf.seen().len();
    let second = verify(tmp.path(), &plan, bf.port, "60").success();
    assert!(
        stdout(&second).starts_with("Verdict: WARN"),
        "{}",
        stdout(&second)
    );
    let again: Vec<String> = bf.seen()[before..]
        .iter()
        .map(|s| format!("{} {}", s.method, s.path))
        .collect();
    let delete = again
        .iter()
        .position(|p| p == &format!("DELETE /v2/networks/olav/snapshots/{base}"))
        .unwrap_or_else(|| panic!("the failed base is deleted: {again:#?}"));
    let upload = again
        .iter()
        .position(|p| p == &format!("POST /v2/networks/olav/snapshots/{base}"))
        .unwrap_or_else(|| panic!("and uploaded again: {again:#?}"));
    assert!(delete < upload, "{again:#?}");
    assert_eq!(bf.statuses().get(base).map(String::as_str), Some("PARSED"));
}

/// The demo's DB with the snapshot's `batfish/` files kept in a table, as the fidelity
/// work stores them.
fn db_with_snapshot_files(dir: &Path, files: &[(&str, &str)]) -> String {
    let db = dir.join("files.db");
    olav(dir)
        .args(["-q", "--db", &db.to_string_lossy(), "state", "import"])
        .arg(common::demo_dir())
        .assert()
        .success();
    let conn = rusqlite::Connection::open(&db).expect("open");
    conn.execute_batch("CREATE TABLE snapshot_file (path TEXT PRIMARY KEY, content BLOB NOT NULL)")
        .expect("table");
    for (p, c) in files {
        conn.execute(
            "INSERT INTO snapshot_file (path, content) VALUES (?1, ?2)",
            rusqlite::params![p, c.as_bytes()],
        )
        .expect("insert");
    }
    db.to_string_lossy().into_owned()
}

fn uploaded_files(bf: &StandIn) -> std::collections::BTreeMap<String, Vec<u8>> {
    let upload = bf
        .seen()
        .into_iter()
        .find(|s| s.method == "POST" && s.path.contains("/snapshots/olav-base-"))
        .expect("upload");
    standin::snapshot_files(&upload.body).expect("zip").1
}

#[test]
fn the_whole_snapshot_goes_to_batfish_and_an_isp_file_is_generated_when_there_is_none() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let layer1 = r#"{"edges": [{"node1": {"hostname": "alpha-border-1", "interfaceName": "GigabitEthernet0/0/1"}, "node2": {"hostname": "alpha-core-1", "interfaceName": "Ethernet1"}}]}"#;
    let db = db_with_snapshot_files(
        tmp.path(),
        &[
            ("batfish/layer1_topology.json", layer1),
            ("batfish/runtime_data.json", r#"{"runtimeData": {}}"#),
        ],
    );
    let bf = StandIn::start(Fault::None);
    let out = verify_with(tmp.path(), &plan, bf.port, "60", &["--db", &db]).success();
    assert!(bf.problems().is_empty(), "{:#?}", bf.problems());
    let files = uploaded_files(&bf);
    assert_eq!(
        files.get("batfish/layer1_topology.json").map(Vec::as_slice),
        Some(layer1.as_bytes())
    );
    assert!(
        files.contains_key("batfish/runtime_data.json"),
        "{:?}",
        files.keys()
    );
    assert!(files.contains_key("configs/alpha-border-1.cfg"));
    // No isp_config.json in the snapshot: one generated from the external sessions.
    let isp: Value = serde_json::from_slice(
        files
            .get("batfish/isp_config.json")
            .expect("isp_config.json"),
    )
    .expect("json");
    let border = isp["borderInterfaces"]
        .as_array()
        .expect("borderInterfaces");
    assert!(
        border
            .iter()
            .any(|b| b["borderInterface"]["hostname"] == "alpha-border-1"),
        "{isp:#}"
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "info ispConfig: the snapshot has no batfish/isp_config.json: olav generated one"
        ),
        "{text}"
    );
    // The candidate's file carries the plan's new uplink too.
    let fork = bf
        .seen()
        .into_iter()
        .find(|s| s.path.ends_with("snapshots:fork"))
        .expect("fork");
    let body: Value = serde_json::from_slice(&fork.body).expect("json");
    use base64::Engine;
    let zip = base64::engine::general_purpose::STANDARD
        .decode(body["zipFile"].as_str().expect("zipFile"))
        .expect("base64");
    let (_, cand) = standin::snapshot_files(&zip).expect("zip");
    let cand_isp =
        String::from_utf8_lossy(cand.get("batfish/isp_config.json").expect("candidate isp"))
            .into_owned();
    assert!(cand_isp.contains("GigabitEthernet0/0/3"), "{cand_isp}");

    // A snapshot with its own isp_config.json: sent as it is, nothing generated.
    let tmp2 = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp2.path(), CHANGE);
    let own = r#"{"borderInterfaces": [], "bgpPeers": [{"hostname": "alpha-border-1", "peerAddress": "203.0.113.2"}]}"#;
    let db = db_with_snapshot_files(tmp2.path(), &[("isp_config.json", own)]);
    let bf = StandIn::start(Fault::None);
    let out = verify_with(tmp2.path(), &plan, bf.port, "60", &["--db", &db]).success();
    let files = uploaded_files(&bf);
    assert_eq!(
        files.get("batfish/isp_config.json").map(Vec::as_slice),
        Some(own.as_bytes())
    );
    assert!(!stdout(&out).contains("ispConfig"), "{}", stdout(&out));
}

#[test]
fn a_session_already_down_in_the_base_does_not_block_a_pass_but_a_new_one_is_reported() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    // The existing uplink is not established in the base already; nothing else differs.
    let stand_in = |new_problem: bool| {
        StandIn::with(Options {
            answers: Some(Box::new(move |ctx| {
                let cand = ctx.snapshot.starts_with("olav-cand-");
                if ctx.class.ends_with("BgpSessionStatusQuestion") {
                    let mut rows = vec![
                        session_row(
                            "alpha-border-1",
                            "203.0.113.2",
                            "EBGP_SINGLEHOP",
                            "Established_Status",
                            "NOT_ESTABLISHED",
                        ),
                        // The new uplink to a provider outside the network: exempt like the static checks.
                        session_row(
                            "alpha-border-1",
                            "203.0.113.6",
                            "EBGP_SINGLEHOP",
                            "Established_Status",
                            "NOT_COMPATIBLE",
                        ),
                    ];
                    if new_problem && cand {
                        rows.push(session_row(
                            "alpha-border-1",
                            "10.255.1.2",
                            "IBGP",
                            "Established_Status",
                            "NOT_ESTABLISHED",
                        ));
                    } else {
                        rows.push(session_row(
                            "alpha-border-1",
                            "10.255.1.2",
                            "IBGP",
                            "Established_Status",
                            "ESTABLISHED",
                        ));
                    }
                    return Some(answer(ctx.class, rows));
                }
                if ctx.class.ends_with("BgpSessionCompatibilityQuestion") {
                    return Some(answer(
                        ctx.class,
                        vec![
                            session_row(
                                "alpha-border-1",
                                "203.0.113.2",
                                "EBGP_SINGLEHOP",
                                "Configured_Status",
                                "UNIQUE_MATCH",
                            ),
                            session_row(
                                "alpha-border-1",
                                "203.0.113.6",
                                "EBGP_SINGLEHOP",
                                "Configured_Status",
                                "UNKNOWN_REMOTE",
                            ),
                            session_row(
                                "alpha-border-1",
                                "10.255.1.2",
                                "IBGP",
                                "Configured_Status",
                                "UNIQUE_MATCH",
                            ),
                        ],
                    ));
                }
                ctx.class
                    .ends_with("DifferentialReachabilityQuestion")
                    .then(|| answer(ctx.class, vec![]))
            })),
            ..Options::default()
        })
    };
    let bf = stand_in(false);
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    assert!(
        stdout(&out).starts_with("Verdict: PASS"),
        "{}",
        stdout(&out)
    );
    let bf = stand_in(true);
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    let text = stdout(&out);
    assert!(text.starts_with("Verdict: WARN"), "{text}");
    assert!(
        text.contains("warning bgpSessionStatus: alpha-border-1 → 10.255.1.2: ESTABLISHED before the plan, NOT_ESTABLISHED after — not a loss the plan declares"),
        "{text}"
    );
    assert!(!text.contains("203.0.113.2"), "{text}");
}

#[test]
fn file_parse_status_blames_exactly_the_changed_file_and_only_what_the_change_broke() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let stand_in = |broken: bool| {
        StandIn::with(Options {
            answers: Some(Box::new(move |ctx| {
                ctx.class.ends_with("FileParseStatusQuestion").then(|| {
                    let cand = ctx.snapshot.starts_with("olav-cand-");
                    let mine = if broken && cand { "FAILED" } else { "PASSED" };
                    answer(
                        ctx.class,
                        vec![
                            json!({"File_Name": "configs/alpha-border-1.cfg", "Status": mine, "File_Format": "CISCO_IOS", "Nodes": [{"id": "node-alpha-border-1", "name": "alpha-border-1"}]}),
                            // Another router whose name starts the same, failing before and after.
                            json!({"File_Name": "configs/alpha-border-10.cfg", "Status": "FAILED", "File_Format": "CISCO_IOS", "Nodes": []}),
                        ],
                    )
                })
            })),
            ..Options::default()
        })
    };
    let bf = stand_in(false);
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").success());
    assert!(!text.contains("fileParseStatus"), "{text}");
    let bf = stand_in(true);
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").code(1));
    assert!(
        text.contains("error fileParseStatus: configs/alpha-border-1.cfg: FAILED (was PASSED)"),
        "{text}"
    );
    assert!(!text.contains("alpha-border-10"), "{text}");
}

#[test]
fn differential_reachability_shows_flows_and_traces_as_pybatfish_prints_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let bf = StandIn::start(Fault::None);
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").success());
    for expected in [
        "1 flow(s) behave differently after the change",
        "flow 1: start=alpha-dist-1 interface=Vlan10 [10.20.10.5:49152->10.20.120.10:80 TCP (SYN)]",
        "before: ACCEPTED",
        "1. node: alpha-dist-1",
        "RECEIVED(Vlan10)",
        "FORWARDED(ospf (Network: 10.20.120.0/24, Next Hop IP:10.20.1.2))",
        "TRANSMITTED(TwentyFiveGigE1/0/4)",
        "2. node: alpha-br-3560",
        "after:  NO_ROUTE",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }
    assert!(!text.contains("\"dscp\""), "no raw JSON: {text}");
}

#[test]
fn candidate_snapshots_are_deleted_once_read_unless_kept() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let bf = StandIn::start(Fault::None);
    for _ in 0..2 {
        verify(tmp.path(), &plan, bf.port, "60").success();
    }
    let forks = |bf: &StandIn| {
        bf.statuses()
            .keys()
            .filter(|n| n.starts_with("olav-cand-"))
            .count()
    };
    assert_eq!(forks(&bf), 0, "{:?}", bf.statuses());
    assert_eq!(
        bf.statuses()
            .keys()
            .filter(|n| n.starts_with("olav-base-"))
            .count(),
        1,
        "the base is reused"
    );
    for _ in 0..3 {
        verify_with(tmp.path(), &plan, bf.port, "60", &["--keep-snapshots", "2"]).success();
    }
    assert_eq!(forks(&bf), 2, "{:?}", bf.statuses());
}

#[test]
fn busy_or_flaky_batfish_is_retried_within_the_deadline() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    // 429 on queueing work (twice), then accepted.
    let bf = StandIn::start(Fault::StatusTimes("/work", 429, 2));
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    assert!(
        stdout(&out).starts_with("Verdict: WARN"),
        "{}",
        all_output(&out)
    );
    let posts = bf
        .seen()
        .iter()
        .filter(|s| s.method == "POST" && s.path.ends_with("/work"))
        .count();
    assert!(posts >= 3, "{posts}");
    // 503 then an answer.
    let bf = StandIn::start(Fault::StatusTimes("/answer", 503, 1));
    verify(tmp.path(), &plan, bf.port, "60").success();
    // A connection reset while reading an answer.
    let bf = StandIn::start(Fault::ResetOnce("/answer"));
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    assert!(
        stdout(&out).starts_with("Verdict: WARN"),
        "{}",
        all_output(&out)
    );
    // Still 503 when the deadline comes: the last answer, said once.
    let bf = StandIn::start(Fault::Status("/answer", 503));
    let started = std::time::Instant::now();
    let out = verify(tmp.path(), &plan, bf.port, "3").code(2);
    assert!(
        all_output(&out).contains("HTTP 503: stand-in says 503"),
        "{}",
        all_output(&out)
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn two_runs_at_once_share_the_network_and_the_base() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    // Another run creates the network and uploads the base between olav's look and its try.
    let bf = StandIn::start(Fault::Race);
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    assert!(
        stdout(&out).starts_with("Verdict: WARN"),
        "{}",
        all_output(&out)
    );
    // And two real processes at once.
    let bf = StandIn::start(Fault::None);
    let port = bf.port;
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let (dir, plan) = (tmp.path().to_path_buf(), plan.clone());
            std::thread::spawn(move || verify(&dir, &plan, port, "60").get_output().clone())
        })
        .collect();
    for r in runs {
        let o = r.join().expect("thread");
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn a_huge_response_body_is_refused_without_reading_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    for declared in [true, false] {
        let bf = StandIn::start(Fault::Huge("/answer", declared));
        let started = std::time::Instant::now();
        let out = verify(tmp.path(), &plan, bf.port, "60").code(2);
        let text = all_output(&out);
        assert!(
            text.contains("with a body over 8 MB; olav stops reading there"),
            "{text}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{:?}",
            started.elapsed()
        );
    }
}

/// Against a real Batfish: `OLAV_BATFISH_HOST=<host> cargo test --test it batfish -- --ignored`.
#[test]
#[ignore = "needs a running Batfish (set OLAV_BATFISH_HOST)"]
fn against_a_real_batfish() {
    let Ok(host) = std::env::var("OLAV_BATFISH_HOST") else {
        eprintln!("SKIPPED: OLAV_BATFISH_HOST is not set");
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let mut real = olav(tmp.path());
    // The Batfish the environment names, on the port it names or Batfish's own.
    match std::env::var("OLAV_BATFISH_HTTP_PORT") {
        Ok(port) => real.env("OLAV_BATFISH_HTTP_PORT", port),
        Err(_) => real.env_remove("OLAV_BATFISH_HTTP_PORT"),
    };
    let out = real
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

/// A server that echoes request headers in its error bodies never gets the API key
/// printed, written to a report or stored in the run records.
#[test]
fn the_api_key_never_leaks_from_an_echoing_server() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let bf = StandIn::start(Fault::EchoHeaders("/questions/"));
    let out = verify(tmp.path(), &plan, bf.port, "60");
    let text = all_output(&out);
    assert!(text.contains("[redacted API key]"), "{text}");
    assert!(!text.contains(KEY), "{text}");
    for dir in ["exports/reports", ".olav"] {
        for e in std::fs::read_dir(tmp.path().join(dir))
            .expect("dir")
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            assert!(
                !String::from_utf8_lossy(&bytes).contains(KEY),
                "{} holds the key",
                e.path().display()
            );
        }
    }
}

/// The plan's status and reason as `plans show --format json` gives them.
fn plan_status(dir: &Path, plan: &str) -> (String, String, usize) {
    let out = olav(dir)
        .args(["--format", "json", "plans", "show", plan])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    (
        v["plan"]["status"].as_str().unwrap_or_default().to_owned(),
        v["plan"]["status_reason"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        v["verifications"].as_array().map_or(0, Vec::len),
    )
}

/// A stand-in whose candidate has the README uplink's new session without a local IP:
/// Batfish's verification of that plan FAILs.
fn no_local_ip_for_the_new_uplink() -> StandIn {
    StandIn::with(Options {
        answers: Some(Box::new(|ctx| {
            (ctx.class.ends_with("BgpSessionCompatibilityQuestion")
                && ctx.snapshot.starts_with("olav-cand-"))
            .then(|| {
                answer(
                    ctx.class,
                    vec![session_row(
                        "alpha-border-1",
                        "203.0.113.6",
                        "EBGP_SINGLEHOP",
                        "Configured_Status",
                        "NO_LOCAL_IP",
                    )],
                )
            })
        })),
        ..Options::default()
    })
}

#[test]
fn a_failed_verification_blocks_approval_until_batfish_passes_the_plan() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let (status, _, runs) = plan_status(tmp.path(), &plan);
    assert_eq!(status, "prechecked", "the request pre-checked it");
    assert_eq!(
        runs, 1,
        "the request's own verification (Batfish absent) is recorded"
    );
    // Batfish finds the candidate's new session without a local IP.
    let failing = no_local_ip_for_the_new_uplink();
    verify(tmp.path(), &plan, failing.port, "60").code(1);
    let (status, reason, runs) = plan_status(tmp.path(), &plan);
    assert_eq!((status.as_str(), runs), ("stale", 2), "{reason}");
    assert!(
        reason.starts_with(
            "verification (Batfish 2025.07.07) failed on state v1: error bgpSessionCompatibility"
        ),
        "{reason}"
    );
    let refused = olav(tmp.path())
        .args(["plans", "approve", &plan])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(
        err.contains("cannot be approved: its last verification (Batfish 2025.07.07"),
        "{err}"
    );
    // A passing pre-check and the static checks alone do not overrule Batfish.
    olav(tmp.path())
        .args(["precheck", &plan])
        .assert()
        .success();
    verify(tmp.path(), &plan, 9, "60").success();
    let refused = olav(tmp.path())
        .args(["plans", "approve", &plan])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(err.contains("its last verification by Batfish"), "{err}");
    // Batfish passing it again makes it verified, and approvable.
    let passing = StandIn::start(Fault::None);
    let out = verify(tmp.path(), &plan, passing.port, "60").success();
    assert!(
        !stdout(&out).starts_with("Verdict: FAIL"),
        "{}",
        stdout(&out)
    );
    assert_eq!(plan_status(tmp.path(), &plan).0, "verified");
    olav(tmp.path())
        .args(["plans", "approve", &plan])
        .assert()
        .success();
    let show = olav(tmp.path())
        .args(["plans", "show", &plan])
        .assert()
        .success();
    let text = stdout(&show);
    assert!(
        text.contains("Verifications:") && text.contains("static checks"),
        "{text}"
    );
}

/// A shutdown the request asks for ends the session over it: Batfish's candidate shows
/// NO_LOCAL_IP where the base had the session's local address on the shut port — ended as
/// the plan declares, not a compatibility error (the pre-check warns about it).
#[test]
fn a_session_a_requested_shutdown_ends_is_no_compatibility_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = common::draft_any(
        tmp.path(),
        "shut down interface GigabitEthernet0/0/0 on alpha-border-1",
    );
    let bf = StandIn::with(Options {
        answers: Some(Box::new(|ctx| {
            ctx.class
                .ends_with("BgpSessionCompatibilityQuestion")
                .then(|| {
                    let mut row = session_row(
                        "alpha-border-1",
                        "203.0.113.2",
                        "EBGP_SINGLEHOP",
                        "Configured_Status",
                        "NO_LOCAL_IP",
                    );
                    if ctx.snapshot.starts_with("olav-base-") {
                        row["Local_IP"] = json!("203.0.113.1");
                        row["Configured_Status"] = json!("UNIQUE_MATCH");
                    }
                    answer(ctx.class, vec![row])
                })
        })),
        ..Options::default()
    });
    let out = verify(tmp.path(), &plan, bf.port, "60");
    let text = stdout(&out);
    assert!(
        !text.contains("error bgpSessionCompatibility"),
        "a declared end is no error: {text}"
    );
    assert!(
        text.contains("203.0.113.2") || text.starts_with("Verdict"),
        "{text}"
    );
}

/// A service answering 302 towards another host never gets olav to follow: the other host
/// sees no request (so never the API key), and the verification says why it did not run
/// (issue 31, item 1).
#[test]
fn a_redirect_is_never_followed_so_the_api_key_stays_with_the_host() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let elsewhere = StandIn::start(Fault::None);
    let bf = StandIn::start(Fault::Redirect("/networks", elsewhere.port));
    let out = verify(tmp.path(), &plan, bf.port, "60").code(2);
    let text = all_output(&out);
    assert!(text.contains("HTTP 302, a redirect to"), "{text}");
    assert!(text.contains("olav does not follow redirects"), "{text}");
    assert!(!text.contains("Verdict: PASS"), "{text}");
    assert!(elsewhere.seen().is_empty(), "{:?}", elsewhere.seen());
}

/// A raw HTTP server on a free port: each request's head is read, then `reply(head)`
/// is written and the connection closed. Returns the port.
fn raw_server(reply: impl Fn(&[u8]) -> Vec<u8> + Send + 'static) -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let _ = stream.write_all(&reply(&head));
        }
    });
    port
}

/// A server that answers `/v2/version` and then, to every other request, declares a 4 KB
/// body, sends a few bytes of it and closes the connection.
fn cutting_server() -> u16 {
    raw_server(|head| {
        if head.starts_with(b"GET /v2/version ") {
            b"HTTP/1.1 200 OK\r\nContent-Length: 25\r\nConnection: close\r\n\r\n{\"Batfish\": \"2025.07.07\"}".to_vec()
        } else {
            b"HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n{\"cut".to_vec()
        }
    })
}

/// A connection closed part-way through an answer is said as such, not as a timeout the
/// client never waited for (issue 31, item 18).
#[test]
fn a_body_cut_short_is_a_closed_connection_not_a_timeout() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let port = cutting_server();
    let started = std::time::Instant::now();
    let out = verify(tmp.path(), &plan, port, "60").code(2);
    let text = all_output(&out);
    assert!(text.contains("the connection closed after"), "{text}");
    assert!(!text.contains("did not answer"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// A service whose every answer is empty (a broken or foreign Batfish) names none of the
/// snapshot's files, nodes or sessions: the verification cannot vouch for anything, so it is
/// UNVERIFIED and says what was missing — never a PASS (issue 31, item 5).
#[test]
fn all_empty_answers_are_never_a_pass() {
    for request in [DECOM, CHANGE] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let plan = draft(tmp.path(), request);
        let bf = StandIn::with(Options {
            answers: Some(Box::new(|ctx| Some(answer(ctx.class, Vec::new())))),
            ..Options::default()
        });
        let out = verify(tmp.path(), &plan, bf.port, "60");
        let text = all_output(&out);
        let first = text.lines().next().unwrap_or_default();
        assert!(!first.contains("PASS"), "{request}: {text}");
        assert!(
            text.contains("named none of the snapshot's"),
            "{request}: {text}"
        );
    }
}

/// A failed verification follows the plan, not its id: renaming `plan_id` in the file, or
/// copying the file under a new name and id, then pre-checking twice, does not make the
/// failed configuration approvable (issue 31, item 2).
#[test]
fn a_renamed_or_copied_plan_does_not_escape_its_failed_verification() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let failing = no_local_ip_for_the_new_uplink();
    verify(tmp.path(), &plan, failing.port, "60").code(1);
    let md = std::fs::read_to_string(tmp.path().join(&plan)).expect("plan");
    let id_line = md
        .lines()
        .find(|l| l.starts_with("plan_id:"))
        .expect("plan_id")
        .to_owned();
    let copy = plan.replace(".md", "-copy.md");
    for (path, new_id) in [(&plan, "renamed-1"), (&copy, "copied-1")] {
        std::fs::write(
            tmp.path().join(path),
            md.replacen(&id_line, &format!("plan_id: {new_id}"), 1),
        )
        .expect("write");
        for _ in 0..2 {
            olav(tmp.path()).args(["precheck", path]).assert().success();
        }
        let refused = olav(tmp.path())
            .args(["plans", "approve", new_id])
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
        assert!(
            err.contains("cannot be approved: its last verification"),
            "{new_id}: {err}"
        );
    }
}

/// A server on Batfish's port answering with escape sequences and a line of its own
/// (`\nVERDICT: PASS`) had it printed raw: a cleared screen and a forged verdict line on
/// stdout and in the verification report. Server text is shown with its control
/// characters escaped and its later lines quoted (`│ `), so no line of it passes for
/// olav's.
#[test]
fn a_server_cannot_forge_a_verdict_line_or_drive_the_terminal() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let port = raw_server(|_| {
        let body = "\u{1b}[2J\u{1b}]0;pwn\u{7}\nVERDICT: PASS\n";
        format!(
            "HTTP/1.1 500 Internal Server Error\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    });
    let out = verify(tmp.path(), &plan, port, "20");
    let text = all_output(&out);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(
        !text
            .lines()
            .any(|l| l.trim_start().starts_with("VERDICT: PASS")),
        "{text}"
    );
    let reports = tmp.path().join("exports/reports");
    for e in std::fs::read_dir(&reports).expect("reports").flatten() {
        let md = std::fs::read_to_string(e.path()).unwrap_or_default();
        assert!(
            !md.lines()
                .any(|l| l.trim_start().starts_with("VERDICT: PASS")),
            "{}: {md}",
            e.path().display()
        );
    }
}
