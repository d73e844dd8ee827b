//! Policy and IGP changes judged by routing, through the pre-check on the demo network:
//! a prefix-list edit that withdraws a prefix from the only provider announcing it, an
//! inbound prefix-list edit that changes what a provider's routes are accepted, an OSPF
//! cost change that moves paths. Each plan is a drafted one whose lines an engineer
//! replaced with their own.

use crate::common::{draft, olav};
use std::path::Path;

/// A plan on `device` whose implementation is `lines` (and an empty rollback block).
fn plan_of(dir: &Path, device: &str, lines: &str) -> String {
    let plan = draft(
        dir,
        &format!("set the description of GigabitEthernet0/0/3 on {device} to \"spare port\""),
    );
    let path = dir.join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    let open = format!("```config device={device} os=ios\n");
    let at = text.find(&open).expect("a config block") + open.len();
    let end = at + text[at..].find("```").expect("the block's end");
    let mut edited = text.clone();
    edited.replace_range(at..end, lines);
    std::fs::write(&path, edited).expect("edit");
    plan
}

/// The pre-check's exit status and findings: (severity, element, message).
fn precheck(dir: &Path, plan: &str) -> (i32, Vec<(String, String, String)>, serde_json::Value) {
    let out = olav(dir)
        .args(["precheck", plan, "--format", "json"])
        .assert();
    let code = out.get_output().status.code().unwrap_or(-1);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap_or_default();
    let f = v["report"]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_owned();
            (s("severity"), s("element"), s("message"))
        })
        .collect();
    (code, f, v)
}

#[test]
fn a_prefix_list_edit_that_withdraws_a_prefix_from_the_only_provider_is_an_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = plan_of(
        tmp.path(),
        "alpha-border-1",
        "no ip prefix-list OUR-PREFIXES seq 20 permit 10.20.0.0/16\n",
    );
    let (code, f, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{f:#?}");
    assert!(
        f.iter().any(|(s, e, m)| s == "error"
            && e == "prefix 10.20.0.0/16"
            && m.contains("no provider hears 10.20.0.0/16 after the plan")),
        "{f:#?}"
    );
    // The table says it too: alpha's session sends 10.10.0.0/16 alone after.
    let after = &v["report"]["announcements"]["after"];
    let alpha = after
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["device"] == "alpha-border-1")
        .expect("alpha's session");
    assert_eq!(alpha["prefixes"], serde_json::json!(["10.10.0.0/16"]));
}

#[test]
fn an_inbound_prefix_list_edit_reports_what_the_provider_gets_accepted_before_and_after() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = plan_of(
        tmp.path(),
        "alpha-border-1",
        "no ip prefix-list AARNET-IN seq 5 deny 0.0.0.0/0\n",
    );
    let (_, f, _) = precheck(tmp.path(), &plan);
    assert!(
        f.iter().any(|(s, e, m)| s == "warning"
            && e == "alpha-border-1 ← 203.0.113.2"
            && m.ends_with("default route: rejected; all prefixes: accepted → default route: accepted; all prefixes: accepted")),
        "{f:#?}"
    );
}

#[test]
fn an_ospf_cost_change_names_the_loopback_paths_that_move() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = plan_of(
        tmp.path(),
        "alpha-border-1",
        "interface GigabitEthernet0/0/1\n ip ospf cost 500\n",
    );
    let (_, f, _) = precheck(tmp.path(), &plan);
    let moved = f
        .iter()
        .find(|(s, e, _)| s == "info" && e == "alpha-border-1 paths")
        .unwrap_or_else(|| panic!("{f:#?}"));
    // alpha-core-1's loopback was reached over its own link (Gi0/0/1, 10.0.1.1) and is
    // now reached through alpha-core-2 (10.0.1.3).
    assert!(
        moved.2.contains(
            "10.255.1.2/32: 10.0.1.1 via GigabitEthernet0/0/1 → 10.0.1.3 via GigabitEthernet0/0/2"
        ),
        "{moved:#?}"
    );
}
