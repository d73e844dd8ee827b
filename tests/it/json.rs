//! The JSON every command prints for scripts: its top-level keys are stable (a snapshot
//! guards them) and every finding carries a stable code.

use crate::common::olav;
use std::path::Path;

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = olav(dir).args(args).output().expect("runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn keys(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(m) => m.keys().cloned().collect::<Vec<_>>().join(", "),
        serde_json::Value::Array(a) => a.first().map_or("(empty)".into(), keys),
        other => format!("({other})"),
    }
}

#[test]
fn top_level_keys_of_every_command() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    let run = json(
        d,
        &[
            "-q",
            "--format",
            "json",
            "--agent",
            "netops",
            "decommission alpha-br-3560",
        ],
    );
    let plan = run["plan_path"].as_str().expect("plan path").to_owned();
    let question = json(
        d,
        &[
            "-q",
            "--format",
            "json",
            "--agent",
            "netops",
            "decommission the alpha core switch",
        ],
    );
    let refusal = json(
        d,
        &[
            "-q",
            "--format",
            "json",
            "--agent",
            "netops",
            "set local preference 300 towards AARNet",
        ],
    );
    let unrouted = json(
        d,
        &["-q", "--format", "json", "--agent", "netops", "frobnicate"],
    );
    let pre = json(d, &["--format", "json", "precheck", &plan]);
    let ver = json(d, &["--format", "json", "verify", &plan]);
    let check = json(d, &["--format", "json", "check"]);
    let br = json(
        d,
        &[
            "--format",
            "json",
            "blast-radius",
            "--device",
            "alpha-br-3560",
        ],
    );
    let stats = json(d, &["--format", "json", "state", "stats"]);
    let plans = json(d, &["--format", "json", "plans", "list"]);
    let routes = json(
        d,
        // A BGP border: its RIB is incomplete, so `incomplete` has rows.
        &["--format", "json", "routes", "--device", "gamma-border-1"],
    );
    let shape = [
        ("request", keys(&run)),
        ("request step", keys(&run["steps"])),
        (
            "request clarification (question)",
            keys(&question["clarification"]),
        ),
        (
            "request clarification (refusal)",
            keys(&refusal["clarification"]),
        ),
        ("request report_paths", keys(&run["report_paths"])),
        ("request finding", keys(&run["findings"])),
        ("request unrouted", keys(&unrouted)),
        (
            "request unrouted clarification",
            keys(&unrouted["clarification"]),
        ),
        ("precheck", keys(&pre)),
        ("precheck report", keys(&pre["report"])),
        ("precheck finding", keys(&pre["report"]["findings"])),
        ("precheck blast", keys(&pre["report"]["blast"])),
        ("precheck changes", keys(&pre["report"]["changes"])),
        (
            "precheck change",
            keys(&pre["report"]["changes"][0]["changes"]),
        ),
        (
            "precheck change field",
            keys(&pre["report"]["changes"][0]["changes"][0]["fields"]),
        ),
        ("verify", keys(&ver)),
        ("check", keys(&check)),
        ("check problem", keys(&check["problems"])),
        ("blast-radius", keys(&br)),
        ("state stats", keys(&stats)),
        ("plans list", keys(&plans)),
        ("routes", keys(&routes)),
        ("routes row", keys(&routes["routes"])),
        ("routes incomplete", keys(&routes["incomplete"])),
    ]
    .iter()
    .map(|(k, v)| format!("{k}: {v}"))
    .collect::<Vec<_>>()
    .join("\n");
    insta::assert_snapshot!("json_top_level_keys", shape);
    assert_eq!(question["clarification"]["kind"], "question");
    assert_eq!(refusal["clarification"]["kind"], "refusal");
    assert_eq!(
        run["verdict"], "WARN",
        "the worst of the steps (pre-check WARN, verification UNVERIFIED)"
    );
    assert_eq!(keys(&run), keys(&unrouted), "one shape, routed or not");
    assert_eq!(keys(&run), keys(&question), "one shape, run or asked");
}

#[test]
fn a_request_lists_its_reports_and_every_finding_of_every_step() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    let run = json(
        d,
        &[
            "-q",
            "--format",
            "json",
            "--agent",
            "netops",
            "decommission alpha-br-3560",
        ],
    );
    for (key, end) in [
        ("precheck", ".precheck.md"),
        ("verification", ".verify.md"),
        ("html", ".html"),
    ] {
        let p = run["report_paths"][key].as_str().unwrap_or_default();
        assert!(p.ends_with(end), "{key}: {p}");
        assert!(d.join(p).is_file(), "{key}: {p} is not written");
    }
    let findings = run["findings"].as_array().expect("findings");
    let by = |step: &str| -> Vec<&serde_json::Value> {
        findings.iter().filter(|f| f["step"] == step).collect()
    };
    // The pre-check's findings are the ones `olav precheck` gives, in its order.
    let plan = run["plan_path"].as_str().expect("plan").to_owned();
    let pre = json(d, &["--format", "json", "precheck", &plan]);
    let pre_codes: Vec<&serde_json::Value> = pre["report"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| &f["code"])
        .collect();
    let run_codes: Vec<&serde_json::Value> = by("reporter").iter().map(|f| &f["code"]).collect();
    assert_eq!(run_codes, pre_codes);
    // The verification's: the blackhole its forwarding comparison warns of.
    let ver = by("simulator");
    assert!(
        ver.iter()
            .any(|f| f["code"] == "precheck.blackhole" && f["severity"] == "warning"),
        "{ver:?}"
    );
    for f in findings {
        for k in ["code", "severity", "element", "message", "step"] {
            assert!(f[k].is_string(), "{k} in {f}");
        }
    }
}

#[test]
fn fail_on_warn_makes_a_warning_exit_1() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    let ask = |extra: &[&str]| {
        let mut args = vec!["-q", "--agent", "netops"];
        args.extend_from_slice(extra);
        args.push("decommission alpha-br-3560");
        olav(d).args(&args).output().expect("runs")
    };
    assert_eq!(ask(&[]).status.code(), Some(0), "WARN exits 0 by default");
    assert_eq!(ask(&["--fail-on", "warn"]).status.code(), Some(1));
    assert_eq!(ask(&["--fail-on", "fail"]).status.code(), Some(0));
    let plan = std::fs::read_dir(d.join("exports/change_plans"))
        .expect("plans")
        .flatten()
        .next()
        .expect("a plan")
        .path();
    let precheck = |extra: &[&str]| {
        olav(d)
            .args(extra)
            .arg("precheck")
            .arg(&plan)
            .output()
            .expect("runs")
            .status
            .code()
    };
    assert_eq!(precheck(&[]), Some(0));
    assert_eq!(precheck(&["--fail-on", "warn"]), Some(1));
    // UNVERIFIED (no Batfish) says what did not run; it is not a warning.
    let verify = olav(d)
        .args(["--fail-on", "warn", "verify"])
        .arg(&plan)
        .output()
        .expect("runs");
    assert_eq!(verify.status.code(), Some(0));
}

#[test]
fn every_finding_has_a_stable_code() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    let mut seen = 0;
    for request in [
        "decommission alpha-br-3560",
        "change the MTU on alpha-core-1 Ethernet10 to 1400",
        "remove the Telstra peer",
        "change the IP address of alpha-dist-1 TwentyFiveGigE1/0/10 to 10.0.9.0/31",
        "add a redundant uplink to AARNet on alpha-border-1",
    ] {
        let run = json(d, &["-q", "--format", "json", "--agent", "netops", request]);
        let plan = run["plan_path"].as_str().expect("plan").to_owned();
        let pre = json(d, &["--format", "json", "precheck", &plan]);
        for f in pre["report"]["findings"].as_array().expect("findings") {
            let code = f["code"].as_str().unwrap_or("");
            assert!(
                code.starts_with("precheck.")
                    && code.len() > 9
                    && code[9..]
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_'),
                "{request}: {f}"
            );
            seen += 1;
        }
    }
    assert!(seen > 10, "{seen} findings");
    // Static checks on a network with problems: a duplicate address.
    let snap = tmp.path().join("snap");
    std::fs::create_dir_all(snap.join("configs")).expect("mkdir");
    for (h, a) in [("r1", "10.9.9.1"), ("r2", "10.9.9.1")] {
        std::fs::write(
            snap.join(format!("configs/{h}.cfg")),
            format!("hostname {h}\ninterface GigabitEthernet1\n ip address {a} 255.255.255.0\n!\nrouter bgp 65001\n neighbor 10.9.9.9 remote-as 65001\n!\nend\n"),
        )
        .expect("write");
    }
    olav(d)
        .args(["-q", "--db", "p.db", "state", "import"])
        .arg(&snap)
        .assert()
        .success();
    let check = json(d, &["--db", "p.db", "--format", "json", "check"]);
    let codes: Vec<&str> = check["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(|p| p["code"].as_str())
        .collect();
    assert!(codes.contains(&"check.duplicate_ip"), "{codes:?}");
    assert!(codes.iter().all(|c| c.starts_with("check.")), "{codes:?}");
    assert_eq!(check["verdict"], "FAIL");
}

/// A vague reference asks which device, each candidate in its parts: what it shows, the
/// exact request to run, the intent it is read as.
#[test]
fn a_question_s_candidates_are_structured() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let v = json(
        tmp.path(),
        &["--format", "json", "decommission the branch switch"],
    );
    let c = &v["clarification"];
    assert_eq!(c["kind"], "question", "{v:#}");
    let candidates = c["candidates"].as_array().expect("candidates");
    assert!(
        candidates.iter().any(|x| x["text"] == "alpha-br-3560"
            && x["request"] == "decommission alpha-br-3560"
            && x["intent"] == "decommission_device"),
        "{v:#}"
    );
}
