//! Imported networks without roles (a real lab, `fixtures/real-networks/`): roles are
//! inferred from names, eBGP and the topology, and marked; the state's freshness is
//! judged from the collection time the snapshot states, never from file times.

use crate::common::{self, olav};
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, SystemTime};

const LAB: &str = "real-networks/ospf_lab_validation";

fn json(dir: &Path, args: &[&str]) -> Value {
    let out = olav(dir).args(args).output().expect("runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// The freshness finding of a decommission request's pre-check.
fn freshness(dir: &Path) -> Value {
    let run = json(
        dir,
        &[
            "-q",
            "--format",
            "json",
            "--agent",
            "netops",
            "decommission R4-ios",
        ],
    );
    run["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["code"] == "precheck.freshness")
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn a_lab_without_roles_gets_them_inferred_from_its_topology() {
    let tmp = tempfile::tempdir().expect("tempdir");
    common::import(tmp.path(), &common::fixture(LAB));
    let devices = json(
        tmp.path(),
        &["--format", "json", "state", "show", "devices"],
    );
    let roles: Vec<(String, String)> = devices
        .as_array()
        .expect("devices")
        .iter()
        .map(|d| {
            (
                d["hostname"].as_str().unwrap_or_default().to_owned(),
                d["role"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    // R1 is the hub every other router hangs on; R3 has routers behind it.
    let role = |h: &str| {
        roles
            .iter()
            .find(|(d, _)| d == h)
            .map_or("", |(_, r)| r.as_str())
    };
    assert_eq!(role("R1-ios"), "core (inferred)", "{roles:?}");
    assert_eq!(role("R3-iosxe"), "distribution (inferred)", "{roles:?}");
    assert_eq!(role("R4-ios"), "access (inferred)", "{roles:?}");
    assert!(
        roles.iter().all(|(_, r)| r.ends_with(" (inferred)")),
        "{roles:?}"
    );
    // With an anchor known, what a removal cuts off is computed, not unknown.
    let br = json(
        tmp.path(),
        &["--format", "json", "blast-radius", "--device", "R3-iosxe"],
    );
    assert!(br.get("isolation_unknown").is_none(), "{br}");
}

#[test]
fn freshness_is_judged_from_the_time_the_snapshot_states() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("lab");
    common::copy_dir(&common::fixture(LAB), &snap);
    // Files last written years ago, no collection time stated: the age is not known,
    // an info, never a warning.
    let old = SystemTime::now() - Duration::from_secs(3 * 365 * 24 * 3600);
    age_files(&snap.join("configs"), old);
    common::import(tmp.path(), &snap);
    let stats = json(tmp.path(), &["--format", "json", "state", "stats"]);
    assert_eq!(stats["collected_at"], Value::Null, "{stats}");
    let f = freshness(tmp.path());
    assert_eq!(f["severity"], "info", "{f}");
    // A stated time that old warns.
    std::fs::write(
        snap.join("state.yaml"),
        "collected_at: \"2020-01-01T00:00:00Z\"\n",
    )
    .expect("write");
    common::import(tmp.path(), &snap);
    let f = freshness(tmp.path());
    assert_eq!(f["severity"], "warning", "{f}");
    assert!(
        f["message"]
            .as_str()
            .unwrap_or_default()
            .contains("2020-01-01"),
        "{f}"
    );
}

/// Sets the modification time of every file below `dir`.
fn age_files(dir: &Path, when: SystemTime) {
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            age_files(&p, when);
        } else {
            std::fs::File::options()
                .write(true)
                .open(&p)
                .and_then(|f| f.set_modified(when))
                .expect("set the file time");
        }
    }
}

#[test]
fn a_stub_cut_off_from_the_inferred_core_is_isolated() {
    // The EIGRP lab: a star around D1_redist, no roles, no external peer. D1 is inferred
    // the core, so the router whose only link goes down is cut off, not "unknown".
    let tmp = tempfile::tempdir().expect("tempdir");
    common::import(
        tmp.path(),
        &common::fixture("lab-validation/iosxe_redistribution"),
    );
    let v = json(
        tmp.path(),
        &[
            "--format",
            "json",
            "blast-radius",
            "--interface",
            "D3_eigrp:GigabitEthernet1",
        ],
    );
    assert_eq!(
        v["blast_radius"]["isolated"],
        serde_json::json!(["D3_eigrp"]),
        "{v:#}"
    );
    assert!(v.get("isolation_unknown").is_none(), "{v:#}");
}
