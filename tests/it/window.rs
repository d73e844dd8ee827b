//! The change window as a whole (`olav precheck --all`): effects only the open plans
//! together have, reported on each plan involved; a plan's own effect is no news there
//! (`docs/precheck.md`, "The change window").

use crate::common::olav;
use serde_json::Value;
use std::path::Path;

/// Drafts `request` in `dir` (its own pre-check may warn).
fn draft(dir: &Path, request: &str) {
    olav(dir).args(["-q", request]).output().expect("runs");
}

/// `precheck --all` as JSON: the exit status and the answer.
fn window(dir: &Path) -> (i32, Value) {
    let out = olav(dir)
        .args(["precheck", "--all", "--format", "json"])
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    (out.status.code().unwrap_or(-1), v)
}

/// A session removal next to a description change: the removal's own ended sessions are
/// not "wider than the request" in the combination (a false FAIL of every window holding
/// a removal, trial 2026-12-02).
#[test]
fn a_removal_beside_another_plan_is_no_news_together() {
    let tmp = tempfile::tempdir().expect("tempdir");
    draft(
        tmp.path(),
        "set the description of alpha-core-1 Ethernet11 to \"to beta-core-2 (planned)\"",
    );
    draft(
        tmp.path(),
        "remove the BGP neighbor 10.255.2.2 on beta-border-1",
    );
    let (code, v) = window(tmp.path());
    assert_eq!(code, 0, "{v:#}");
    assert!(v["together"].as_array().is_none_or(Vec::is_empty), "{v:#}");
}

/// Two plans that each remove one of beta-border-1's two iBGP sessions pass alone;
/// together they leave the border with none, and the site's aggregate leaves every other
/// router's table: reported on both plans (issue #25's example).
#[test]
fn two_removals_that_cut_a_border_off_together_are_reported_on_both() {
    let tmp = tempfile::tempdir().expect("tempdir");
    draft(
        tmp.path(),
        "remove the BGP neighbor 10.255.2.2 on beta-border-1",
    );
    draft(
        tmp.path(),
        "remove the BGP neighbor 10.255.2.3 on beta-border-1",
    );
    let (_, v) = window(tmp.path());
    let together = v["together"].as_array().expect("together effects");
    let withdrawn = together
        .iter()
        .find(|t| {
            t["finding"]["code"] == "precheck.withdrawn"
                && t["finding"]["element"] == "10.30.0.0/16"
        })
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_ne!(withdrawn["finding"]["severity"], "info", "{v:#}");
    assert_eq!(
        withdrawn["plans"].as_array().map(Vec::len),
        Some(2),
        "{v:#}"
    );
    let rows = v["rows"].as_array().expect("rows");
    assert!(
        rows.iter().all(|r| r["verdict"] != "PASS"),
        "each plan involved carries it: {v:#}"
    );
}
