//! The state commands through the binary: demo bootstrap, import idempotency, bad
//! files, a failed import, synth.

use crate::common::{copy_dir, demo_dir, olav, olav_process};

use rusqlite::Connection;
use std::path::{Path, PathBuf};

fn json(out: &[u8]) -> serde_json::Value {
    serde_json::from_slice(out).expect("valid JSON on stdout")
}

/// Every state table's rows, sorted, as text.
fn dump(db: &Path) -> Vec<(String, Vec<String>)> {
    let conn = Connection::open(db).expect("open db");
    olav::state::schema::STATE_TABLES
        .iter()
        .map(|t| {
            let mut st = conn.prepare(&format!("SELECT * FROM {t}")).expect("select");
            let n = st.column_count();
            let mut rows: Vec<String> = st
                .query_map([], |r| {
                    let mut s = String::new();
                    for i in 0..n {
                        let v: rusqlite::types::Value = r.get(i)?;
                        s.push_str(&format!("{v:?}|"));
                    }
                    Ok(s)
                })
                .expect("query")
                .collect::<Result<_, _>>()
                .expect("rows");
            rows.sort();
            ((*t).to_owned(), rows)
        })
        .collect()
}

#[test]
fn demo_db_is_created_in_any_working_directory() {
    let cwd = tempfile::tempdir().expect("tempdir");
    let out = olav(cwd.path())
        .args(["state", "stats", "--format", "json"])
        .assert()
        .success();
    let o = out.get_output();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("created it from the bundled demo network"),
        "{stderr}"
    );
    let v = json(&o.stdout);
    let devices = v["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r[0] == "device"))
        .map(|r| r[1].clone());
    assert_eq!(devices, Some(serde_json::json!(20)));
    assert_eq!(v["state_version"], 1);
    assert!(cwd.path().join(".olav/state.db").is_file());
    // Second run: the DB exists, nothing is said.
    let again = olav(cwd.path()).args(["state", "stats"]).assert().success();
    assert!(again.get_output().stderr.is_empty());
}

#[test]
fn importing_twice_leaves_identical_contents() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = tmp.path().join("s.db");
    let run = || {
        olav(tmp.path())
            .args(["--db"])
            .arg(&db)
            .args(["state", "import"])
            .arg(demo_dir())
            .assert()
            .success()
    };
    let first = run();
    assert!(String::from_utf8_lossy(&first.get_output().stdout).contains("Imported 20 devices"));
    let before = dump(&db);
    let second = run();
    let text = String::from_utf8_lossy(&second.get_output().stdout).into_owned();
    assert!(text.contains("state version 2"), "{text}");
    assert!(text.contains("same files as the previous import"), "{text}");
    assert_eq!(before, dump(&db));
    let stats = olav(tmp.path())
        .arg("--db")
        .arg(&db)
        .args(["state", "stats", "--format", "json"])
        .assert()
        .success();
    let v = json(&stats.get_output().stdout);
    assert_eq!(v["state_version"], 2);
    assert_eq!(v["collected_at"], "2026-11-28T06:00:00Z");
}

#[test]
fn show_commands_report_the_demo_network() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = tmp.path().join("s.db");
    let bgp = olav(tmp.path())
        .arg("--db")
        .arg(&db)
        .args([
            "state",
            "show",
            "bgp",
            "--device",
            "alpha-border-1",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let rows = json(&bgp.get_output().stdout);
    let ebgp: Vec<_> = rows
        .as_array()
        .expect("array")
        .iter()
        .filter(|r| r["peer_asn"] == 7575)
        .collect();
    assert_eq!(ebgp.len(), 1, "alpha has exactly one AARNet session");
    assert_eq!(ebgp[0]["peer"], "203.0.113.2");
    assert_eq!(ebgp[0]["local_ip"], "203.0.113.1");
    assert_eq!(ebgp[0]["route_map_in"], "AARNET-IN");

    let links = olav(tmp.path())
        .arg("--db")
        .arg(&db)
        .args([
            "state",
            "show",
            "links",
            "--device",
            "alpha-br-3560",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let rows = json(&links.get_output().stdout);
    let peers: Vec<String> = rows
        .as_array()
        .expect("array")
        .iter()
        .map(|r| {
            if r["hostname_a"] == "alpha-br-3560" {
                r["hostname_b"].as_str().unwrap_or("").to_owned()
            } else {
                r["hostname_a"].as_str().unwrap_or("").to_owned()
            }
        })
        .collect();
    assert_eq!(peers.len(), 3);
    assert_eq!(
        peers.iter().filter(|p| p.starts_with("alpha-dist")).count(),
        1,
        "the branch switch is single-homed: {peers:?}"
    );

    let services = olav(tmp.path())
        .arg("--db")
        .arg(&db)
        .args(["state", "show", "services", "--device", "alpha-br-3560"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&services.get_output().stdout).into_owned();
    for s in [
        "alpha-branch-data",
        "alpha-branch-voice",
        "alpha-branch-wifi",
    ] {
        assert!(text.contains(s), "{text}");
    }
    // The abbreviated interface in state.yaml (Vl120) was resolved to the config's name.
    assert!(text.contains("alpha-br-3560:Vlan120"), "{text}");
}

#[test]
fn unknown_device_is_bad_input_with_a_suggestion() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .arg("--db")
        .arg(tmp.path().join("s.db"))
        .args(["state", "show", "interfaces", "--device", "alpha-br-3650"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("no device 'alpha-br-3650'"), "{err}");
    assert!(err.contains("did you mean alpha-br-3560?"), "{err}");
}

#[test]
fn bad_files_are_named_and_good_files_imported() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("snap");
    let configs = snap.join("configs");
    std::fs::create_dir_all(&configs).expect("mkdir");
    let demo = demo_dir().join("configs");
    std::fs::copy(
        demo.join("alpha-border-1.cfg"),
        configs.join("alpha-border-1.cfg"),
    )
    .expect("copy");
    copy_dir(&demo.join("beta-core-1"), &configs.join("beta-core-1"));
    let mut binary = vec![0x7fu8, b'E', b'L', b'F', 2, 1, 1, 0];
    binary.extend((0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    std::fs::write(configs.join("firmware.bin"), binary).expect("write");
    std::fs::write(configs.join("empty.cfg"), "").expect("write");
    let full = std::fs::read_to_string(demo.join("alpha-dist-1.cfg")).expect("read");
    let cut: String = full.lines().take(120).map(|l| format!("{l}\n")).collect();
    std::fs::write(configs.join("alpha-dist-1.cfg"), cut).expect("write");
    // 10 MB of random words, newline-separated: text, but not a configuration.
    let words = [
        "lorem", "ipsum", "dolor", "sit", "amet", "vlan", "route", "42", "peer",
    ];
    let mut noise = String::with_capacity(10 << 20);
    let mut x = 0x2545_f491_u64;
    while noise.len() < 10 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise.push_str(words[(x % words.len() as u64) as usize]);
        noise.push(if x % 11 == 0 { '\n' } else { ' ' });
    }
    std::fs::write(configs.join("notes.txt"), noise).expect("write");

    let out = olav(tmp.path())
        .arg("--db")
        .arg(tmp.path().join("s.db"))
        .args(["state", "import"])
        .arg(&snap)
        .assert()
        .code(3);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("Partly imported 3 devices"), "{text}");
    assert!(text.contains("configs/firmware.bin: binary file"), "{text}");
    assert!(text.contains("configs/empty.cfg: empty file"), "{text}");
    assert!(
        text.contains("configs/notes.txt: no device configuration found"),
        "{text}"
    );
    assert!(
        text.contains("configs/alpha-dist-1.cfg: no closing 'end' line"),
        "truncated config is imported and named: {text}"
    );
    let show = olav(tmp.path())
        .arg("--db")
        .arg(tmp.path().join("s.db"))
        .args(["state", "show", "devices", "--format", "json"])
        .assert()
        .success();
    let names: Vec<String> = json(&show.get_output().stdout)
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|r| r["hostname"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(names, vec!["alpha-border-1", "alpha-dist-1", "beta-core-1"]);
}

#[test]
fn a_failed_import_leaves_the_previous_state_intact() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = tmp.path().join("s.db");
    olav(tmp.path())
        .arg("--db")
        .arg(&db)
        .args(["state", "import"])
        .arg(demo_dir())
        .assert()
        .success();
    let before = dump(&db);
    // Force a failure halfway: devices and interfaces are written, BGP sessions are not.
    Connection::open(&db)
        .and_then(|c| {
            c.execute_batch(
                "CREATE TRIGGER fail_import BEFORE INSERT ON bgp_session
                 BEGIN SELECT RAISE(ABORT, 'forced failure'); END;",
            )
        })
        .expect("trigger");
    let synth = tmp.path().join("synth");
    olav(tmp.path())
        .args(["synth", "--devices", "40"])
        .arg(&synth)
        .assert()
        .success();
    let out = olav(tmp.path())
        .arg("--db")
        .arg(&db)
        .args(["state", "import"])
        .arg(&synth)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("forced failure"), "{err}");
    assert_eq!(before, dump(&db), "the previous state is untouched");
    let version: i64 = Connection::open(&db)
        .and_then(|c| {
            c.query_row("SELECT MAX(state_version) FROM import_run", [], |r| {
                r.get(0)
            })
        })
        .expect("version");
    assert_eq!(version, 1);
}

#[test]
fn synth_is_deterministic_and_imports() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for dir in [&a, &b] {
        olav(tmp.path())
            .args(["synth", "--devices", "450", "--seed", "7"])
            .arg(dir)
            .assert()
            .success();
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(a.join("configs"))
        .expect("configs")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 450);
    for f in &files {
        let name = f.file_name().expect("name");
        assert_eq!(
            std::fs::read(f).expect("read a"),
            std::fs::read(b.join("configs").join(name)).expect("read b"),
            "{name:?} differs between two runs with one seed"
        );
    }
    let out = olav(tmp.path())
        .arg("--db")
        .arg(tmp.path().join("s.db"))
        .args(["state", "import", "--format", "json"])
        .arg(&a)
        .assert()
        .success();
    let v = json(&out.get_output().stdout);
    assert_eq!(v["devices"], 450);
    assert!(
        v["warnings"].as_array().is_some_and(|w| w.is_empty()),
        "{v}"
    );
    let links = v["links"].as_u64().unwrap_or(0);
    assert!(links >= 4 * 450 * 8 / 10, "{links} links for 450 devices");
    assert!(v["bgp_sessions"].as_u64().unwrap_or(0) > 0);
    assert!(v["services"].as_u64().unwrap_or(0) > 0);
}

/// A reader that stops early (`olav state show interfaces | head -1`) ends olav quietly:
/// no panic message, no exit status 101.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for _ in 0..5 {
        let mut child = olav_process(tmp.path())
            .args(["state", "show", "interfaces"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawns");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("waits");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_ne!(out.status.code(), Some(101), "{stderr}");
    }
}
