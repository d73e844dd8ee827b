//! Scheduled pre-checks and the plan lifecycle: drift scenarios on the demo network,
//! `schedule --once` exit statuses, concurrent scheduler / draft / import, and the
//! clear failures (invalid cron, a plan file gone, a locked DB).

use crate::common::{self, copy_dir, demo_dir, olav, olav_process, replace};

use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

const CHANGE: &str = "Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router";
const DECOM: &str = "Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose";

/// A temp dir with both plans drafted and pre-checked once.
fn setup() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    olav(tmp.path()).args(["-q", CHANGE]).assert().success();
    olav(tmp.path()).args(["-q", DECOM]).assert().success();
    olav(tmp.path())
        .args(["-q", "precheck", "--all"])
        .assert()
        .success();
    tmp
}

fn statuses(dir: &Path) -> Vec<(String, String, String)> {
    let out = olav(dir)
        .args(["plans", "list", "--all", "--format", "json"])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    let mut rows: Vec<(String, String, String)> = v
        .as_array()
        .expect("rows")
        .iter()
        .map(|p| {
            let id = p["plan_id"].as_str().unwrap_or("");
            let kind = if id.contains("add-uplink") {
                "uplink"
            } else {
                "decom"
            };
            (
                kind.to_owned(),
                p["status"].as_str().unwrap_or("").to_owned(),
                p["status_reason"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    rows.sort();
    rows
}

/// Imports the demo with one file edited.
fn import_modified(dir: &Path, edit: impl Fn(&Path)) {
    let snap = common::demo_copy(dir);
    edit(&snap);
    common::import(dir, &snap);
}

#[test]
fn the_uplink_interface_now_used_makes_the_uplink_plan_stale() {
    let tmp = setup();
    assert_eq!(
        statuses(tmp.path())
            .iter()
            .map(|s| s.1.as_str())
            .collect::<Vec<_>>(),
        vec!["prechecked", "prechecked"]
    );
    import_modified(tmp.path(), |snap| {
        replace(
            &snap.join("configs/alpha-border-1.cfg"),
            "interface GigabitEthernet0/0/3\n description spare\n no ip address\n shutdown",
            "interface GigabitEthernet0/0/3\n description new customer\n ip address 192.0.2.1 255.255.255.0",
        )
    });
    let out = olav(tmp.path())
        .args(["precheck", "--all"])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("prechecked → stale"), "{text}");
    assert!(
        text.contains("state v1 → v2: changed or gone: alpha-border-1"),
        "drift recorded: {text}"
    );
    let s = statuses(tmp.path());
    assert_eq!(
        s[0].1, "prechecked",
        "the decommission plan is untouched: {s:?}"
    );
    assert_eq!(s[1].1, "stale");
    assert!(
        s[1].2
            .contains("interface is not free: it has 192.0.2.1/24"),
        "{s:?}"
    );
    assert!(s[1].2.starts_with("passed on "), "{s:?}");
    let id = olav(tmp.path())
        .args(["plans", "list", "--format", "json"])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&id.get_output().stdout).expect("json");
    let uplink = v
        .as_array()
        .and_then(|a| {
            a.iter().find(|p| {
                p["plan_id"]
                    .as_str()
                    .is_some_and(|i| i.contains("add-uplink"))
            })
        })
        .expect("plan");
    let id = uplink["plan_id"].as_str().unwrap_or_default().to_owned();
    let show = olav(tmp.path())
        .args(["plans", "show", &id])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&show.get_output().stdout).into_owned();
    assert!(
        text.contains("PASS") && text.contains("FAIL"),
        "history shows both runs: {text}"
    );
    let refused = olav(tmp.path())
        .args(["plans", "approve", &id])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(
        err.contains("cannot be approved: its last pre-check"),
        "{err}"
    );
}

#[test]
fn the_aarnet_session_down_makes_the_uplink_plan_stale() {
    let tmp = setup();
    import_modified(tmp.path(), |snap| {
        replace(
            &snap.join("state.yaml"),
            "{hostname: alpha-border-1, peer: 203.0.113.2, state: Established}",
            "{hostname: alpha-border-1, peer: 203.0.113.2, state: Idle}",
        )
    });
    olav(tmp.path())
        .args(["precheck", "--all"])
        .assert()
        .code(1);
    let s = statuses(tmp.path());
    assert_eq!(s[0].1, "prechecked", "{s:?}");
    assert_eq!(s[1].1, "stale", "{s:?}");
    assert!(
        s[1].2
            .contains("the existing session to AARNet (AS7575) is Idle, not Established"),
        "{s:?}"
    );
}

#[test]
fn the_distribution_switch_gone_makes_the_decommission_plan_stale() {
    let tmp = setup();
    import_modified(tmp.path(), |snap| {
        std::fs::remove_file(snap.join("configs/alpha-dist-1.cfg")).expect("rm");
        let state = snap.join("state.yaml");
        let t = std::fs::read_to_string(&state).expect("read");
        let kept: String = t
            .lines()
            .filter(|l| !l.contains("alpha-dist-1"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&state, kept).expect("write");
    });
    olav(tmp.path())
        .args(["precheck", "--all"])
        .assert()
        .code(1);
    let s = statuses(tmp.path());
    assert_eq!(s[0].1, "stale", "{s:?}");
    assert!(
        s[0].2
            .contains("alpha-dist-1: device is not in the state DB"),
        "{s:?}"
    );
    assert_eq!(
        s[1].1, "prechecked",
        "the uplink plan does not depend on alpha-dist-1: {s:?}"
    );
}

#[test]
fn once_exits_0_when_all_pass_and_1_when_one_fails() {
    let tmp = setup();
    olav(tmp.path())
        .args(["-q", "schedule", "--once"])
        .assert()
        .code(0);
    import_modified(tmp.path(), |snap| {
        replace(
            &snap.join("state.yaml"),
            "{hostname: alpha-border-1, peer: 203.0.113.2, state: Established}",
            "{hostname: alpha-border-1, peer: 203.0.113.2, state: Active}",
        )
    });
    olav(tmp.path())
        .args(["-q", "schedule", "--once"])
        .assert()
        .code(1);
    // Withdrawn plans are no longer re-checked.
    let out = olav(tmp.path())
        .args(["plans", "list", "--format", "json"])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    for p in v.as_array().expect("rows") {
        if p["status"] == "stale" {
            olav(tmp.path())
                .args(["plans", "withdraw", p["plan_id"].as_str().unwrap_or("")])
                .assert()
                .success();
        }
    }
    olav(tmp.path())
        .args(["-q", "schedule", "--once"])
        .assert()
        .code(0);
}

#[test]
fn a_plan_file_gone_is_reported_not_crashed_on() {
    let tmp = setup();
    for e in std::fs::read_dir(tmp.path().join("exports/change_plans")).expect("dir") {
        let p = e.expect("entry").path();
        if p.to_string_lossy().contains("decommission") {
            std::fs::remove_file(p).expect("rm");
        }
    }
    let out = olav(tmp.path())
        .args(["precheck", "--all"])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("MISSING"), "{text}");
    assert!(text.contains("is gone"), "{text}");
}

#[test]
fn invalid_cron_and_a_locked_db_are_clear_messages() {
    let tmp = setup();
    let out = olav(tmp.path())
        .args(["schedule", "--cron", "every monday"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("cron expression 'every monday': expected 5 fields"),
        "{err}"
    );
    let out = olav(tmp.path())
        .args(["schedule", "--cron", "0 25 * * *"])
        .assert()
        .code(2);
    assert!(
        String::from_utf8_lossy(&out.get_output().stderr).contains("cron expression '0 25 * * *'")
    );
    let db = tmp.path().join(".olav/state.db");
    let conn = rusqlite::Connection::open(&db).expect("open");
    conn.execute_batch("BEGIN EXCLUSIVE").expect("lock");
    let out = olav(tmp.path())
        .env("OLAV_BUSY_TIMEOUT_MS", "300")
        .args(["precheck", "--all"])
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("database is locked"), "{err}");
    conn.execute_batch("ROLLBACK").expect("unlock");
}

#[test]
fn scheduler_draft_and_import_at_the_same_time_lose_nothing() {
    let tmp = setup();
    let dir = tmp.path().to_path_buf();
    let mut handles = Vec::new();
    for i in 0..3 {
        let d = dir.clone();
        handles.push(std::thread::spawn(move || {
            let out = olav(&d)
                .args(["-q", "schedule", "--once"])
                .output()
                .expect("run");
            (format!("schedule {i}"), out.status.code())
        }));
        let d = dir.clone();
        handles.push(std::thread::spawn(move || {
            let out = olav(&d)
                .args(["-q", &format!("decommission alpha-br-2960-{}", 1 + i % 2)])
                .output()
                .expect("run");
            (format!("draft {i}"), out.status.code())
        }));
        let d = dir.clone();
        handles.push(std::thread::spawn(move || {
            let out = olav(&d)
                .args(["-q", "state", "import"])
                .arg(demo_dir())
                .output()
                .expect("run");
            (format!("import {i}"), out.status.code())
        }));
    }
    for h in handles {
        let (what, code) = h.join().expect("thread");
        assert!(matches!(code, Some(0) | Some(1)), "{what} exited {code:?}");
    }
    let db = olav::state::StateDb::open(&dir.join(".olav/state.db")).expect("db");
    let raw = rusqlite::Connection::open(dir.join(".olav/state.db")).expect("open");
    assert!(db.integrity_ok().expect("integrity"));
    let count = |sql: &str| -> i64 { raw.query_row(sql, [], |r| r.get(0)).expect("count") };
    assert_eq!(
        count("SELECT COUNT(*) FROM run"),
        5,
        "2 setup drafts + 3 concurrent"
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM run WHERE status = 'running'"),
        0
    );
    assert_eq!(count("SELECT COUNT(*) FROM plan"), 5);
    assert_eq!(
        count("SELECT COUNT(*) FROM schedule_cycle"),
        4,
        "setup + 3 concurrent"
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM schedule_cycle WHERE finished IS NULL"),
        0
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM import_run"),
        4,
        "demo bootstrap + 3 imports"
    );
    assert_eq!(count("SELECT COUNT(*) FROM device"), 20);
}

#[cfg(unix)]
#[test]
fn the_scheduler_runs_cycles_and_stops_cleanly_on_sigterm() {
    let tmp = setup();
    let mut scheduler = Running(
        olav_process(tmp.path())
            // Six fields: every second.
            .args(["schedule", "--cron", "* * * * * *"])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn"),
    );
    let mut err = Lines::of(&mut scheduler.0);
    // Two cycles logged, then SIGTERM.
    let deadline = Instant::now() + Duration::from_secs(60);
    while err.cycles() < 2 {
        assert!(err.next_before(deadline), "no two cycles: {}", err.text);
    }
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &scheduler.0.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    // It stops: its stderr ends before the deadline.
    let deadline = Instant::now() + Duration::from_secs(20);
    while err.next_before(deadline) {}
    assert!(err.ended, "the scheduler did not stop: {}", err.text);
    let status = scheduler.0.wait().expect("wait");
    let err = err.text;
    assert!(status.success(), "{err}");
    assert!(err.contains("olav schedule: cycle"), "{err}");
    assert!(err.contains("stopped"), "{err}");
    let db = olav::state::StateDb::open(&tmp.path().join(".olav/state.db")).expect("db");
    let raw = rusqlite::Connection::open(tmp.path().join(".olav/state.db")).expect("open");
    let (cycles, open): (i64, i64) = raw
        .query_row(
            "SELECT COUNT(*), SUM(finished IS NULL) FROM schedule_cycle WHERE note = 'scheduled'",
            [],
            |r| Ok((r.get(0)?, r.get::<_, Option<i64>>(1)?.unwrap_or(0))),
        )
        .expect("count");
    assert!(
        cycles >= 2,
        "{cycles} scheduled cycles before SIGTERM: {err}"
    );
    assert_eq!(open, 0, "no half-written cycle");
    assert!(db.integrity_ok().expect("integrity"));
}

/// The scheduler's process, killed if its test ends first (a failed assertion).
#[cfg(unix)]
struct Running(std::process::Child);

#[cfg(unix)]
impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A process's stderr as it comes, line by line, read on a thread so that the test waits
/// on each line with a deadline.
#[cfg(unix)]
struct Lines {
    rx: std::sync::mpsc::Receiver<String>,
    /// Everything read so far.
    text: String,
    /// The stream has ended (the process closed it, i.e. exited).
    ended: bool,
}

#[cfg(unix)]
impl Lines {
    fn of(child: &mut std::process::Child) -> Lines {
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Lines {
            rx,
            text: String::new(),
            ended: false,
        }
    }

    /// Reads the next line; false when none came before `deadline` or the stream ended.
    fn next_before(&mut self, deadline: Instant) -> bool {
        match self
            .rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => {
                self.text.push_str(&line);
                self.text.push('\n');
                true
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                self.ended = true;
                false
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => false,
        }
    }

    /// The cycles the scheduler logged as done.
    fn cycles(&self) -> usize {
        self.text
            .lines()
            .filter(|l| l.starts_with("olav schedule: cycle ") && l.contains(" open plan(s)"))
            .count()
    }
}

#[test]
fn schedule_once_with_import_picks_up_a_changed_snapshot() {
    let tmp = setup();
    let snap = tmp.path().join("backups");
    copy_dir(&demo_dir(), &snap);
    let once = |expect: i32| -> String {
        let out = olav(tmp.path())
            .args(["schedule", "--once", "--import", "backups"])
            .assert()
            .code(expect);
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    // The same files as the network the state DB holds: nothing imported.
    let text = once(0);
    assert!(
        text.starts_with("snapshot backups unchanged since state v1\n"),
        "{text}"
    );
    assert_eq!(
        statuses(tmp.path())
            .iter()
            .map(|s| s.1.as_str())
            .collect::<Vec<_>>(),
        vec!["prechecked", "prechecked"]
    );
    // The backup tool saves a new config: the uplink's free interface is now in use.
    replace(
        &snap.join("configs/alpha-border-1.cfg"),
        "interface GigabitEthernet0/0/3\n description spare\n no ip address\n shutdown",
        "interface GigabitEthernet0/0/3\n description new customer\n ip address 192.0.2.1 255.255.255.0",
    );
    let text = once(1);
    assert!(
        text.starts_with("snapshot backups changed: imported 20 devices → state v2\n"),
        "{text}"
    );
    assert!(text.contains("prechecked → stale"), "{text}");
    let s = statuses(tmp.path());
    assert_eq!(
        s[0].1, "prechecked",
        "the decommission plan still passes: {s:?}"
    );
    assert_eq!(s[1].1, "stale", "{s:?}");
    assert!(
        s[1].2
            .contains("interface is not free: it has 192.0.2.1/24"),
        "{s:?}"
    );
    // Next cycle: the folder is as imported, so no new state version.
    let text = once(1);
    assert!(
        text.starts_with("snapshot backups unchanged since state v2\n"),
        "{text}"
    );
    let out = olav(tmp.path())
        .args([
            "--format", "json", "schedule", "--once", "--import", "backups",
        ])
        .assert()
        .code(1);
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    assert_eq!(v["refresh"]["outcome"], "unchanged");
    assert_eq!(v["refresh"]["state_version"], 2);
    // The cycle records say what each cycle did with the folder.
    let raw = rusqlite::Connection::open(tmp.path().join(".olav/state.db")).expect("open");
    let notes: Vec<String> = {
        let mut st = raw
            .prepare("SELECT note FROM schedule_cycle WHERE note LIKE 'once;%' ORDER BY id")
            .expect("sql");
        st.query_map([], |r| r.get(0))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("notes")
    };
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert!(
        notes[1].contains("imported 20 devices → state v2"),
        "{notes:?}"
    );
}

#[test]
fn a_snapshot_that_cannot_be_imported_leaves_the_state_and_says_so() {
    let tmp = setup();
    let snap = tmp.path().join("backups");
    copy_dir(&demo_dir(), &snap);
    olav(tmp.path())
        .args(["-q", "schedule", "--once", "--import", "backups"])
        .assert()
        .success();
    // Every config gone: an import with no device is refused, the state kept.
    for e in std::fs::read_dir(snap.join("configs")).expect("configs") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            std::fs::remove_dir_all(&p).expect("rm");
        } else {
            std::fs::remove_file(&p).expect("rm");
        }
    }
    let out = olav(tmp.path())
        .args(["schedule", "--once", "--import", "backups"])
        .assert()
        .code(3);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.starts_with("snapshot backups not imported: "),
        "{text}"
    );
    assert!(
        text.contains("plans re-checked against the state as it was"),
        "{text}"
    );
    assert!(
        text.contains("WARN — 2 open plan(s) pre-checked"),
        "the worst plan warns: {text}"
    );
}

#[test]
fn schedule_with_import_starts_from_the_snapshot_not_the_demo() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("backups");
    copy_dir(&demo_dir(), &snap);
    let out = olav(tmp.path())
        .args(["schedule", "--once", "--import", "backups"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.starts_with("snapshot backups changed: imported 20 devices → state v1\n"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(!err.contains("bundled demo network"), "{err}");
}

#[test]
fn a_plan_edited_after_its_pre_check_is_not_approved_until_pre_checked_again() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args(["-q", "--format", "json", "shut down Vlan30 on alpha-acc-2"])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    let plan = v["steps"][0]["artifact"].as_str().expect("plan").to_owned();
    let path = tmp.path().join(&plan);
    // A line added by hand, with its rollback, on the same interface (within the
    // request's scope).
    let text = std::fs::read_to_string(&path).expect("plan");
    std::fs::write(
        &path,
        text.replacen(
            "interface Vlan30\n shutdown\n",
            "interface Vlan30\n shutdown\n description parked\n",
            1,
        )
        .replacen(
            "interface Vlan30\n no shutdown\n",
            "interface Vlan30\n no shutdown\n description CAMPUS-WIFI\n",
            1,
        ),
    )
    .expect("edit");
    let refused = olav(tmp.path())
        .args(["plans", "approve", &plan])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(
        err.contains("its configuration was edited after its last pre-check; run: olav precheck"),
        "{err}"
    );
    // The listing says so before anyone tries to approve it.
    let show = olav(tmp.path())
        .args(["plans", "show", &plan])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&show.get_output().stdout).into_owned();
    assert!(
        text.contains("EDITED   the file's configuration changed after its last pre-check"),
        "{text}"
    );
    let list = olav(tmp.path()).args(["plans", "list"]).assert().success();
    let text = String::from_utf8_lossy(&list.get_output().stdout).into_owned();
    assert!(text.contains("prechecked (edited since)"), "{text}");
    // Pre-checked again: the edit is named (drift and a warning), then it can be approved.
    let out = olav(tmp.path())
        .args(["--format", "json", "precheck", &plan])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    assert!(
        v["report"]["findings"]
            .as_array()
            .is_some_and(|f| f.iter().any(|x| x["code"] == "precheck.as_drafted")),
        "{v:#}"
    );
    let show = olav(tmp.path())
        .args(["plans", "show", &plan])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&show.get_output().stdout).into_owned();
    assert!(
        text.contains("the plan's configuration was edited since the last pre-check"),
        "{text}"
    );
    olav(tmp.path())
        .args(["plans", "approve", &plan])
        .assert()
        .success();
}

#[test]
fn two_plans_that_split_the_sites_only_together_fail_together() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for core in ["alpha-core-1", "alpha-core-2"] {
        // Alone, each leaves the other link between alpha and beta: a warning at most.
        olav(tmp.path())
            .args(["-q", &format!("shutdown interface Ethernet10 on {core}")])
            .assert()
            .success();
    }
    let out = olav(tmp.path())
        .args(["precheck", "--all"])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.starts_with("FAIL — 2 open plan(s) pre-checked, 2 failing"),
        "{text}"
    );
    assert_eq!(text.matches("together with ").count(), 2, "{text}");
    assert!(text.contains("The open plans together ("), "{text}");
    assert!(
        text.contains("error   BGP session alpha-core-1 → 10.255.2.2: reached 10.255.2.2 before the plan; after it, it is dropped at alpha-core-1: no route for 10.255.2.2"),
        "{text}"
    );
    let json = olav(tmp.path())
        .args(["precheck", "--all", "--format", "json"])
        .assert()
        .code(1);
    let v: Value = serde_json::from_slice(&json.get_output().stdout).expect("json");
    let together = v["together"].as_array().expect("together");
    assert!(together
        .iter()
        .all(|t| t["plans"].as_array().map(Vec::len) == Some(2)));
    assert!(together
        .iter()
        .any(|t| t["finding"]["code"] == "precheck.sessions_split"));
}
