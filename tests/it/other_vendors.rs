//! Configurations of vendors olav does not read are named and skipped, never misread
//! (fixtures/other-vendors: real configs from batfish/lab-validation). The Cumulus
//! concatenated file there is read (FRR), beside the IOS router.

use crate::common;

#[test]
fn other_vendors_are_named_skipped_and_never_stored_as_another() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = common::olav(dir.path())
        .args(["state", "import"])
        .arg(common::fixture("other-vendors"))
        .assert()
        .code(3);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.starts_with("Partly imported 2 devices"), "{text}");
    for (file, os) in [
        ("configs/xr-border01.cfg", "Cisco IOS-XR"),
        ("configs/a10-lb.cfg", "A10 ACOS"),
        ("configs/fortios-fw.cfg", "Fortinet FortiOS"),
        ("configs/checkpoint-fw.cfg", "Check Point Gaia"),
        (
            "configs/cp-mgmt/show-hosts.json",
            "Check Point management data",
        ),
        ("configs/panos-pa.cfg", "Palo Alto PAN-OS"),
        ("hosts/c1.json", "host files"),
    ] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(file)
                && l.contains(os)
                && l.contains("not read yet")),
            "{file} named as {os}: {text}"
        );
    }
    assert!(text.contains("skipped 7 files — "), "{text}");
    // Only the IOS router and the Cumulus switch are stored.
    let devices = common::olav(dir.path())
        .args(["--format", "json", "state", "show", "devices"])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&devices.stdout).expect("json");
    let rows = v["rows"]
        .as_array()
        .or(v.as_array())
        .cloned()
        .unwrap_or_default();
    assert_eq!(rows.len(), 2, "{v}");
    // The skipped files are in the stored warnings.
    common::olav(dir.path())
        .args(["state", "show", "warnings"])
        .assert()
        .stdout(predicates::str::contains("Cisco IOS-XR: not read yet"));
    // The routing tables say that routers olav does not read are missing from them: a
    // partial answer, never a complete one (checkpoint_basic_fw_policy differed silently).
    let routes = common::olav(dir.path()).args(["routes"]).assert().code(3);
    let text = String::from_utf8_lossy(&routes.get_output().stdout).into_owned();
    assert!(
        text.lines()
            .next()
            .is_some_and(|l| l.contains("INCOMPLETE")),
        "{text}"
    );
    assert!(
        text.contains(
            "device configurations olav does not read (configs/a10-lb.cfg: A10 ACOS and 4 more)"
        ),
        "{text}"
    );
}

#[test]
fn a_snapshot_of_other_vendors_only_says_why_nothing_was_imported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let snap = dir.path().join("snap");
    std::fs::create_dir_all(snap.join("configs")).expect("mkdir");
    for f in ["xr-border01.cfg", "fortios-fw.cfg"] {
        std::fs::copy(
            common::fixture("other-vendors/configs").join(f),
            snap.join("configs").join(f),
        )
        .expect("copy");
    }
    common::olav(dir.path())
        .args(["state", "import"])
        .arg(&snap)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "no device could be imported (2 file(s) skipped: Cisco IOS-XR: not read yet (1 file); Fortinet FortiOS: not read yet (1 file))",
        ));
}
