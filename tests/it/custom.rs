//! `olav plan --device NAME --config FILE`: an engineer's own lines through the whole
//! pipeline on the demo network — the registered plan with its derived rollback, the
//! pre-check's verdict and findings, and the refusals (exit 2).

use crate::common;
use std::path::Path;

/// `olav plan` in `dir` with one device and its lines; the exit status and the JSON answer.
fn plan(dir: &Path, device: &str, file: &str) -> (i32, serde_json::Value) {
    let out = common::olav(dir)
        .args([
            "-q", "--format", "json", "plan", "--device", device, "--config",
        ])
        .arg(common::fixture(&format!("custom/{file}")))
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{file}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().unwrap_or(-1), v)
}

/// The plan file the run registered.
fn plan_text(dir: &Path, v: &serde_json::Value) -> String {
    let p = v["plan_path"]
        .as_str()
        .unwrap_or_else(|| panic!("no plan: {v:#}"));
    std::fs::read_to_string(dir.join(p)).expect("plan file")
}

/// The run's findings as (code, severity, message).
fn findings(v: &serde_json::Value) -> Vec<(String, String, String)> {
    v["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    let s = |k: &str| f[k].as_str().unwrap_or_default().to_owned();
                    (s("code"), s("severity"), s("message"))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn an_added_acl_entry_is_registered_with_its_rollback_and_passes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-border-1", "acl-permit.ios");
    assert_eq!(code, 0, "{v:#}");
    let text = plan_text(tmp.path(), &v);
    assert!(text.contains("intent: custom"), "{text}");
    assert!(
        text.contains("## Rollback\n\n```config device=alpha-border-1 os=ios\nip access-list extended EDGE-IN\n no 25\n```"),
        "{text}"
    );
    assert_eq!(v["workflow"], "custom_plan");
    // A permit before `permit ip any any` changes no packet's fate, and olav says so.
    assert!(
        findings(&v)
            .iter()
            .any(|f| f.0 == "precheck.filters"
                && f.2.contains("permits and denies the same packets")),
        "{:#?}",
        findings(&v)
    );
    assert!(v["report_paths"]["precheck"].is_string(), "{v:#}");
    assert!(
        !findings(&v).iter().any(|f| f.1 == "error"),
        "{:#?}",
        findings(&v)
    );
}

#[test]
fn an_acl_entry_that_drops_the_providers_bgp_fails_naming_the_session() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-border-1", "acl-blocks-bgp.ios");
    assert_eq!(code, 1, "{v:#}");
    let f = findings(&v);
    assert!(
        f.iter().any(|(c, s, m)| c == "precheck.filters"
            && s == "error"
            && m.contains("EDGE-IN")
            && m.contains("203.0.113.2")),
        "{f:#?}"
    );
    // What the filter newly denies, in header-space words.
    assert!(
        f.iter().any(|(c, s, m)| c == "precheck.filters"
            && s == "info"
            && m.contains("newly denied: tcp from 203.0.113.2 to any port 179")),
        "{f:#?}"
    );
    assert!(plan_text(tmp.path(), &v).contains("ip access-list extended EDGE-IN\n no 15\n"));
}

#[test]
fn a_rollback_written_by_hand_that_restores_nothing_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = common::olav(tmp.path())
        .args([
            "-q",
            "--format",
            "json",
            "plan",
            "--device",
            "alpha-border-1",
            "--config",
        ])
        .arg(common::fixture("custom/acl-blocks-bgp.ios"))
        .arg("--rollback")
        .arg(common::fixture("custom/acl-blocks-bgp.wrong-rollback.ios"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let f = findings(&v);
    assert!(
        f.iter().any(|(c, s, m)| c == "precheck.rollback"
            && s == "error"
            && m.contains("packet filters differ")),
        "{f:#?}"
    );
}

#[test]
fn a_core_filter_that_drops_services_traffic_and_a_narrowed_management_acl_warn() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-border-1", "core-filter.ios");
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["verdict"], "WARN", "{v:#}");
    let f = findings(&v);
    assert!(
        f.iter().any(|(c, s, m)| c == "precheck.filters"
            && s == "warning"
            && m.contains("alpha-campus-data")
            && m.contains("does not trace")),
        "{f:#?}"
    );
    let (code, v) = plan(tmp.path(), "alpha-border-1", "mgmt-acl.ios");
    assert_eq!(code, 0, "{v:#}");
    let f = findings(&v);
    assert!(
        f.iter().any(|(c, s, m)| c == "precheck.filters"
            && s == "warning"
            && m.contains("MGMT-ACCESS guards access to alpha-border-1 itself")),
        "{f:#?}"
    );
}

#[test]
fn a_prefix_list_edit_that_withdraws_a_prefix_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-border-1", "prefix-withdraw.ios");
    assert_eq!(code, 1, "{v:#}");
    let f = findings(&v);
    assert!(
        f.iter().any(|(c, s, m)| c == "precheck.announcements"
            && s == "error"
            && m.contains("10.20.0.0/16")),
        "{f:#?}"
    );
    // The stored line comes back.
    assert!(
        plan_text(tmp.path(), &v)
            .contains("```config device=alpha-border-1 os=ios\nip prefix-list OUR-PREFIXES seq 20 permit 10.20.0.0/16\n```"),
    );
}

#[test]
fn an_ospf_cost_change_reports_the_routes_that_move() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-border-1", "ospf-cost.ios");
    assert_eq!(code, 0, "{v:#}");
    let f = findings(&v);
    assert!(
        f.iter()
            .any(|(c, _, m)| c == "precheck.routes" && m.contains("10.255.1.2/32")),
        "{f:#?}"
    );
    assert!(plan_text(tmp.path(), &v)
        .contains("interface GigabitEthernet0/0/1\n ip ospf cost 500\n```"));
}

#[test]
fn a_discard_route_over_a_critical_service_given_by_its_interface_fails() {
    // alpha-campus-voice is given in state.yaml by its gateway (alpha-acc-1:Vlan20), not
    // by prefix: blackholing its subnet is the same outage (it was a warning).
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "gamma-border-1", "discard-voice.junos");
    assert_eq!(code, 1, "{v:#}");
    let f = findings(&v);
    assert!(
        f.iter().any(|(c, s, m)| c == "precheck.routes"
            && s == "error"
            && m.contains("alpha-campus-voice (critical)")),
        "{f:#?}"
    );
}

#[test]
fn a_passive_interface_undone_is_rolled_back_without_a_false_rollback_error() {
    // Under `passive-interface default` the derived rollback `passive-interface
    // Loopback0` gives back the stored configuration (it failed the rollback check).
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-dist-1", "ospf-not-passive.ios");
    let f = findings(&v);
    assert!(
        !f.iter().any(|(c, _, _)| c == "precheck.rollback"),
        "{f:#?}"
    );
    assert_eq!(code, 0, "{v:#}");
    assert!(plan_text(tmp.path(), &v).contains("router ospf 1\n passive-interface Loopback0\n```"));
}

#[test]
fn an_ospf_process_removed_ends_every_adjacency_and_comes_back_whole() {
    // IOS takes `ip ospf 1 area 0` off the interfaces with the process: the candidate
    // ran OSPF on them still, at default costs.
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-dist-1", "no-ospf.ios");
    assert_eq!(code, 1, "{v:#}");
    let f = findings(&v);
    let lost = f
        .iter()
        .filter(|(c, s, m)| {
            c == "precheck.adjacency" && s == "error" && m.contains("no longer runs OSPF")
        })
        .count();
    assert!(lost >= 6, "{f:#?}");
    assert!(
        !f.iter().any(|(c, _, _)| c == "precheck.rollback"),
        "{f:#?}"
    );
    let text = plan_text(tmp.path(), &v);
    assert!(
        text.contains("interface TwentyFiveGigE1/0/1\n ip ospf 1 area 0"),
        "{text}"
    );
}

#[test]
fn a_neighbor_the_lines_remove_is_a_warning_and_its_far_end_left_half_open_is_said() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-border-1", "remove-neighbor.ios");
    let f = findings(&v);
    assert!(
        f.iter().any(|(c, s, m)| c == "precheck.sessions_lost"
            && s == "warning"
            && m.contains("the plan's own lines remove or shut this neighbor")),
        "{f:#?}"
    );
    assert!(
        !f.iter()
            .any(|(_, _, m)| m.contains("wider than its request")),
        "{f:#?}"
    );
    // The route reflector still peers with it: the static checks find it half-open.
    assert_eq!(code, 1, "{v:#}");
    let out = common::olav(tmp.path())
        .args(["runs", "show", "1"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("HALF_OPEN"), "{text}");
}

#[test]
fn a_junos_disable_is_undone_by_its_delete_and_what_it_cuts_off_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "gamma-border-1", "office-disable.junos");
    assert_eq!(code, 1, "{v:#}");
    assert!(plan_text(tmp.path(), &v).contains(
        "```config device=gamma-border-1 os=junos\ndelete interfaces xe-0/1/3 disable\n```"
    ));
    let f = findings(&v);
    assert!(
        f.iter()
            .any(|(c, s, _)| c == "precheck.service_down" && s == "error"),
        "{f:#?}"
    );
}

#[test]
fn unreadable_lines_and_unknown_devices_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (code, v) = plan(tmp.path(), "alpha-border-1", "unreadable.ios");
    assert_eq!(code, 2, "{v:#}");
    let asked = v["clarification"]["candidates"].to_string();
    // Lines 3 and 4 of the file (the scaffolding around them is not read).
    assert!(
        asked.contains("unreadable.ios:3: `ip ospf cost 500`"),
        "{asked}"
    );
    assert!(
        asked.contains("unreadable.ios:4: `frobnicate the router`"),
        "{asked}"
    );
    assert!(!asked.contains("unreadable.ios:1"), "{asked}");
    assert!(v["plan_path"].is_null(), "{v:#}");
    let (code, v) = plan(tmp.path(), "alpha-bordr-1", "ospf-cost.ios");
    assert_eq!(code, 2, "{v:#}");
    let asked = v["clarification"].to_string();
    assert!(
        asked.contains("no device 'alpha-bordr-1'") && asked.contains("alpha-border-1"),
        "{asked}"
    );
    assert!(!tmp.path().join("exports/change_plans").exists());
}

#[test]
fn config_files_pair_with_devices_and_stdin_reads() {
    let tmp = tempfile::tempdir().expect("tempdir");
    common::olav(tmp.path())
        .args([
            "-q",
            "plan",
            "--device",
            "alpha-border-1",
            "--device",
            "beta-border-1",
            "--config",
            "x",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("2 --device and 1 --config"));
    let out = common::olav(tmp.path())
        .args([
            "-q",
            "--format",
            "json",
            "plan",
            "--device",
            "alpha-border-1",
            "--config",
            "-",
        ])
        .write_stdin("interface GigabitEthernet0/0/1\n ip ospf cost 500\n")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(
        v["steps"][0]["reply"]
            .to_string()
            .contains("alpha-border-1: 2 line(s)"),
        "{v:#}"
    );
}

/// A change of thousands of lines (a whole configuration pasted as a change) took
/// minutes to read line by line: more than 2,000 lines for one device is refused at
/// once, naming the file and what to do instead.
#[test]
fn a_change_longer_than_two_thousand_lines_is_refused_at_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let lines: String = (0..2_500)
        .map(|i| format!("interface Loopback{i}\n description probe\n"))
        .collect();
    let file = tmp.path().join("big.txt");
    std::fs::write(&file, lines).expect("write");
    let out = common::olav(tmp.path())
        .args(["plan", "--device", "alpha-core-1", "--config"])
        .arg(&file)
        .output()
        .expect("runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("5000 lines; olav verifies a change of at most 2000 lines"),
        "{text}"
    );
}
