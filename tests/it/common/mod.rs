//! Helpers shared by the integration tests: the olav binary, the fixtures, snapshot
//! copies and imports.

use assert_cmd::Command;
use olav::import::{parse_snapshot, ParsedSnapshot, Snapshot};
use olav::state::StateDb;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long one run of the binary may take before its test fails: a hung binary fails
/// its test instead of hanging CI. Tests that wait on Batfish set their own.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The olav binary run in `dir`, with no DB from the environment and Batfish pointed at
/// a port where nothing answers (the static fallback, unless the test names a Batfish
/// with `--batfish-host`/`--batfish-port`), bounded in time.
pub fn olav(dir: &Path) -> Command {
    let mut c = Command::from_std(olav_process(dir));
    c.timeout(TIMEOUT);
    c
}

/// The same run as [`olav`], as a process the test drives itself (signals, pipes).
pub fn olav_process(dir: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_olav"));
    c.env_remove("OLAV_DB")
        .env("OLAV_BATFISH_HOST", "127.0.0.1")
        .env("OLAV_BATFISH_HTTP_PORT", "9")
        .current_dir(dir);
    c
}

/// The crate's root folder (the working directory cargo gives the tests).
pub fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A bundled fixture, by its path under `fixtures/`.
pub fn fixture(path: &str) -> PathBuf {
    crate_dir().join("fixtures").join(path)
}

/// The bundled demo snapshot.
pub fn demo_dir() -> PathBuf {
    fixture("demo")
}

/// Copies a folder tree (snapshot variants are made from copies of the demo).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// A fresh copy of the demo snapshot at `dir/snap`, for a test to edit.
pub fn demo_copy(dir: &Path) -> PathBuf {
    let snap = dir.join("snap");
    let _ = std::fs::remove_dir_all(&snap);
    copy_dir(&demo_dir(), &snap);
    snap
}

/// Replaces `from` by `to` in `file`, which must hold it.
pub fn replace(file: &Path, from: &str, to: &str) {
    let t = std::fs::read_to_string(file).expect("read");
    assert!(t.contains(from), "{}: {from}", file.display());
    std::fs::write(file, t.replace(from, to)).expect("write");
}

/// `olav state import <snapshot>` run in `dir` (into its `.olav/state.db`), as users do.
pub fn import(dir: &Path, snapshot: &Path) {
    olav(dir)
        .args(["-q", "state", "import"])
        .arg(snapshot)
        .assert()
        .success();
}

/// The snapshot in `dir`, read.
pub fn parsed(dir: &Path) -> ParsedSnapshot {
    parse_snapshot(&Snapshot::from_dir(dir).expect("snapshot")).expect("parses")
}

/// `parsed` imported through the library into a new state DB at `db`.
pub fn state_db(db: &Path, parsed: &ParsedSnapshot) -> StateDb {
    let mut s = StateDb::open(db).expect("db");
    s.import(parsed).expect("import");
    s
}

/// Drafts a plan from `request` in `dir` with the whole pipeline, which must succeed,
/// and returns the plan's path (relative to `dir`).
pub fn draft(dir: &Path, request: &str) -> String {
    let out = olav(dir)
        .args(["-q", "--format", "json", request])
        .assert()
        .success();
    plan_path(request, &out.get_output().stdout)
}

/// Drafts a plan whose own pre-check may fail (the request exits 1) and returns its path.
pub fn draft_any(dir: &Path, request: &str) -> String {
    let out = olav(dir)
        .args(["-q", "--format", "json", request])
        .output()
        .expect("runs");
    plan_path(request, &out.stdout)
}

/// The plan a request's JSON names.
fn plan_path(request: &str, stdout: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(stdout).expect("JSON on stdout");
    v["steps"][0]["artifact"]
        .as_str()
        .unwrap_or_else(|| panic!("{request}: no plan: {v:#}"))
        .to_owned()
}

/// `olav precheck PLAN --format json` in `dir`: the exit status and the report.
pub fn precheck_report(dir: &Path, plan: &str) -> (i32, serde_json::Value) {
    let out = olav(dir)
        .args(["precheck", plan, "--format", "json"])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    (out.status.code().unwrap_or(-1), v["report"].clone())
}

/// A pre-check report's findings as (code, severity, element, message).
pub fn findings(report: &serde_json::Value) -> Vec<(String, String, String, String)> {
    report["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    let s = |k: &str| f[k].as_str().unwrap_or_default().to_owned();
                    (s("code"), s("severity"), s("element"), s("message"))
                })
                .collect()
        })
        .unwrap_or_default()
}
