//! Answers unchanged by the shared network model (issue #16): blast radius, static
//! checks and request verdicts on the demo and on a generated network, compared with
//! what olav answered before the model existed.
//!
//! The expected answers in `fixtures/answers/` were written by the olav built from the
//! commit before the model (`da695fa`):
//! `OLAV_ANSWERS_BIN=<that olav> OLAV_ANSWERS_BLESS=1 cargo test --test it answers`.
//! One answer changed since, on purpose: "decommission alpha-br-3560" carries the new
//! warning for the two switches it cuts off (`precheck.isolated`); and `check` carries
//! `warnings` (management addresses on no interface: none on either network); and the
//! pre-check names the paths that move to other next hops (issue 30: one info finding a
//! device for a shut link, one for a removal).

use crate::common;

use std::path::Path;

/// Devices whose removal is asked of `blast-radius` on each network.
const DEMO_DEVICES: &[&str] = &[
    "alpha-br-3560",
    "alpha-border-1",
    "alpha-core-1",
    "alpha-dist-2",
    "beta-dist-1",
    "gamma-border-1",
];
const DEMO_REQUESTS: &[&str] = &[
    "decommission alpha-br-3560",
    "Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router",
    "remove the BGP neighbor 203.0.113.2 on alpha-border-1",
    "shut down Ethernet3 on alpha-core-1",
];
const SYNTH_DEVICES: &[&str] = &[
    "s001-dist-01a",
    "s001-core-1",
    "s001-border-1",
    "s001-acc-0005",
    "s002-dist-02b",
];
const SYNTH_REQUESTS: &[&str] = &["Decommission s001-dist-01a", "Decommission s001-core-2"];

fn command(dir: &Path) -> assert_cmd::Command {
    match std::env::var_os("OLAV_ANSWERS_BIN") {
        Some(bin) => {
            let mut c = assert_cmd::Command::new(bin);
            c.env_remove("OLAV_DB")
                .env("OLAV_BATFISH_HOST", "127.0.0.1")
                .env("OLAV_BATFISH_HTTP_PORT", "9")
                .current_dir(dir);
            c
        }
        None => common::olav(dir),
    }
}

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = command(dir).args(args).output().expect("olav runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "olav {args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// Dates and times in a text replaced by `DATE`, and the age of a state ("N days ago")
/// by `N`, so that answers compare across days.
fn undated(text: &str) -> String {
    let dated = without_dates(text);
    let mut parts = dated.split(" days ago");
    let mut out = parts.next().unwrap_or("").to_string();
    for part in parts {
        let kept = out.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if kept < out.len() {
            out.truncate(kept);
            out.push('N');
        }
        out.push_str(" days ago");
        out.push_str(part);
    }
    out
}

/// Dates and times in a text replaced by `DATE`.
fn without_dates(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let is_date = b.len() >= i + 10
            && b[i..i + 4].iter().all(u8::is_ascii_digit)
            && b[i + 4] == b'-'
            && b[i + 5..i + 7].iter().all(u8::is_ascii_digit)
            && b[i + 7] == b'-'
            && b[i + 8..i + 10].iter().all(u8::is_ascii_digit);
        if is_date {
            out.push_str("DATE");
            i += 10;
            // A time after it, and the rest of a run of date-like characters.
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b":.+-".contains(&b[i])) {
                i += 1;
            }
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Every answer on one network (its state DB at `db`): the blast radius of each device,
/// every static check, and each request's verdicts and step replies. Each request runs
/// on its own copy of the DB, so that no request is drafted around another's plan.
fn answers(dir: &Path, db: &Path, devices: &[&str], requests: &[&str]) -> serde_json::Value {
    let db_s = db.to_string_lossy().to_string();
    let mut out = serde_json::Map::new();
    for d in devices {
        out.insert(
            format!("blast-radius {d}"),
            json(
                dir,
                &[
                    "--db",
                    &db_s,
                    "blast-radius",
                    "--device",
                    d,
                    "--format",
                    "json",
                ],
            ),
        );
    }
    out.insert(
        "check".into(),
        json(dir, &["--db", &db_s, "check", "--format", "json"]),
    );
    for (i, r) in requests.iter().enumerate() {
        let own = dir.join(format!("request-{i}"));
        std::fs::create_dir_all(&own).expect("mkdir");
        let own_db = own.join("state.db");
        std::fs::copy(db, &own_db).expect("copy DB");
        let own_db = own_db.to_string_lossy().to_string();
        let run = json(
            &own,
            &["--db", &own_db, "--agent", "netops", r, "--format", "json"],
        );
        let steps: Vec<serde_json::Value> = run["steps"]
            .as_array()
            .map(|s| {
                s.iter()
                    .map(|x| {
                        serde_json::json!([
                            x["agent"],
                            x["verdict"],
                            undated(x["reply"].as_str().unwrap_or(""))
                        ])
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.insert(
            format!("request {r}"),
            serde_json::json!({"verdict": run["verdict"], "steps": steps}),
        );
    }
    serde_json::Value::Object(out)
}

fn check(name: &str, snapshot: &Path, devices: &[&str], requests: &[&str]) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = tmp.path().join(".olav/state.db");
    let db_s = db.to_string_lossy().to_string();
    let snap = snapshot.to_string_lossy().to_string();
    command(tmp.path())
        .args(["--db", &db_s, "state", "import", &snap, "-q"])
        .assert()
        .success();
    let got = answers(tmp.path(), &db, devices, requests);
    let file = common::fixture(&format!("answers/{name}.json"));
    if std::env::var_os("OLAV_ANSWERS_BLESS").is_some() {
        std::fs::create_dir_all(file.parent().expect("folder")).expect("mkdir");
        let text = serde_json::to_string_pretty(&got).expect("json");
        std::fs::write(&file, text + "\n").expect("write");
        return;
    }
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("expected answers"))
            .expect("expected answers are JSON");
    let (got, want) = (
        got.as_object().expect("map"),
        want.as_object().expect("map"),
    );
    let mut differ = Vec::new();
    for (k, w) in want {
        if got.get(k) != Some(w) {
            differ.push(format!(
                "{k}:\n  expected {}\n  got      {}",
                w,
                got.get(k).cloned().unwrap_or_default()
            ));
        }
    }
    assert!(
        differ.is_empty() && got.len() == want.len(),
        "{name}: {} answer(s) changed:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn the_demo_answers_as_before() {
    check("demo", &common::demo_dir(), DEMO_DEVICES, DEMO_REQUESTS);
}

#[test]
fn a_generated_network_answers_as_before() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("syn400");
    command(tmp.path())
        .args(["synth", "--devices", "400", "--seed", "1"])
        .arg(&snap)
        .assert()
        .success();
    check("synth400", &snap, SYNTH_DEVICES, SYNTH_REQUESTS);
}
