//! The pre-check on the demo network: the blast-radius scenarios, hand-edited and
//! broken plans, path confinement, drift; and properties of the two independent
//! blast-radius implementations.

use crate::common::{self, draft, draft_any, olav};

use olav::precheck::blast::{Graph, Spec};
use olav::topology::{Network, Removal};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const CHANGE: &str = "Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router";
const DECOM: &str = "Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose";

fn json(a: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_slice(&a.get_output().stdout).expect("JSON on stdout")
}

fn precheck(dir: &Path, plan: &str) -> (i32, serde_json::Value) {
    let out = olav(dir)
        .args(["precheck", plan, "--format", "json"])
        .assert();
    let code = out.get_output().status.code().unwrap_or(-1);
    (
        code,
        serde_json::from_slice(&out.get_output().stdout).unwrap_or_default(),
    )
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn decommissioning_the_branch_switch_isolates_exactly_what_is_behind_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 0, "{v}");
    let b = &v["report"]["blast"];
    assert_eq!(strings(&b["removed"]), vec!["alpha-br-3560"]);
    assert_eq!(
        strings(&b["isolated"]),
        vec!["alpha-br-2960-1", "alpha-br-2960-2"]
    );
    let services: Vec<String> = b["services"]
        .as_array()
        .expect("services")
        .iter()
        .map(|s| {
            format!(
                "{} ({}, {} of {})",
                s["name"].as_str().unwrap_or(""),
                s["criticality"].as_str().unwrap_or(""),
                s["remaining"],
                s["endpoints"]
            )
        })
        .collect();
    assert_eq!(
        services,
        vec![
            "alpha-branch-data (high, 0 of 3)",
            "alpha-branch-voice (critical, 0 of 3)",
            "alpha-branch-wifi (medium, 0 of 3)"
        ]
    );
    assert_eq!(
        v["report"]["verdict"], "WARN",
        "critical services are warnings"
    );
    assert_eq!(v["report"]["claimed"], 3);
    let report = v["report_path"].as_str().expect("report path");
    let md = std::fs::read_to_string(tmp.path().join(report)).expect("report saved");
    assert!(
        md.starts_with("# Pre-check: Decommission alpha-br-3560\n\n**Verdict: WARN**"),
        "{md}"
    );
}

#[test]
fn removing_one_of_two_redundant_links_isolates_nothing_and_degrades() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args([
            "-q",
            "blast-radius",
            "--link",
            "alpha-acc-1:Te1/1/1-alpha-dist-1:TwentyFiveGigE1/0/5",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let v = json(&out);
    assert_eq!(v["number"], 0);
    assert_eq!(
        strings(&v["blast_radius"]["isolated"]),
        Vec::<String>::new()
    );
    assert_eq!(strings(&v["blast_radius"]["degraded"]), vec!["alpha-acc-1"]);
    assert_eq!(v["blast_radius"]["links_removed"], 1);
}

#[test]
fn the_new_uplink_plan_removes_the_aarnet_single_point_of_failure() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["report"]["verdict"], "PASS", "{v}");
    let info = v["report"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["element"] == "redundancy to AS7575")
        .cloned()
        .expect("redundancy finding");
    let msg = info["message"].as_str().unwrap_or("");
    assert!(
        msg.starts_with(
            "single point(s) of failure removed: session alpha-border-1 via GigabitEthernet0/0/0"
        ),
        "{msg}"
    );
    assert!(
        msg.contains("after: 2 session(s); single points of failure: device alpha-border-1"),
        "{msg}"
    );
}

#[test]
fn a_hand_edited_wrong_number_is_flagged_with_both_numbers() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    std::fs::write(
        &path,
        text.replace("**Blast-radius number: 3**", "**Blast-radius number: 1**"),
    )
    .expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "FAIL exits 1");
    assert_eq!(v["report"]["verdict"], "FAIL");
    let f = &v["report"]["findings"][0];
    assert_eq!(f["severity"], "error");
    assert_eq!(
        f["message"],
        "the plan claims 1, recomputed independently: 3 (removed 1 + isolated 2)"
    );
    // And when the number is missing altogether.
    std::fs::write(&path, text.replace("**Blast-radius number: 3**", "")).expect("edit");
    let (_, v) = precheck(tmp.path(), &plan);
    assert!(v["report"]["findings"][0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("quotes no blast-radius number; recomputed: 3")));
}

#[test]
fn conflicting_edits_are_errors() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    let edited = text
        .replace(
            "ip address 203.0.113.5 255.255.255.252",
            "ip address 10.0.1.1 255.255.255.254",
        )
        .replace(
            "neighbor 203.0.113.6 route-map AARNET-IN in",
            "neighbor 203.0.113.6 route-map AARNET-INBOUND in",
        )
        .replace(
            "neighbor 203.0.113.6 remote-as 7575",
            "neighbor 203.0.113.6 remote-as 7574",
        );
    std::fs::write(&path, edited).expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1);
    let msgs: Vec<String> = v["report"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["severity"] == "error")
        .map(|f| f["message"].as_str().unwrap_or("").to_owned())
        .collect();
    let has = |s: &str| msgs.iter().any(|m| m.contains(s));
    assert!(
        has("10.0.1.1 is already configured on alpha-core-1 Ethernet1"),
        "{msgs:?}"
    );
    assert!(
        has("route-map AARNET-INBOUND (bgp inbound route-map) is not defined"),
        "{msgs:?}"
    );
    assert!(
        has("remote-as 7574, but the state DB knows this peer as AS7575"),
        "{msgs:?}"
    );
    assert!(has("the peer is in no connected subnet"), "{msgs:?}");
}

#[test]
fn a_malformed_plan_fails_naming_what_is_missing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    std::fs::write(&path, text.replace("## Rollback", "## Undo")).expect("edit");
    // Bad input: exit 2, the report still saying what is missing.
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 2);
    assert_eq!(
        v["report"]["findings"][0]["message"],
        "the plan cannot be read: missing section '## Rollback'"
    );
    std::fs::write(&path, "just some text\n").expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 2);
    assert!(v["report"]["findings"][0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("no plan header")));
}

#[test]
fn paths_outside_the_exports_folder_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let outside = tmp.path().join("outside.md");
    std::fs::copy(tmp.path().join(&plan), &outside).expect("copy");
    let out = olav(tmp.path())
        .args(["precheck"])
        .arg(&outside)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("is outside the exports folder"), "{err}");
    #[cfg(unix)]
    {
        let link = tmp.path().join("exports/change_plans/sneaky.md");
        std::os::unix::fs::symlink(&outside, &link).expect("symlink");
        let out = olav(tmp.path())
            .args(["precheck", "exports/change_plans/sneaky.md"])
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(err.contains("links are followed"), "{err}");
    }
}

#[test]
fn drift_since_drafting_is_reported() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    // A newer snapshot: the spare interface got an address.
    let snap = common::demo_copy(tmp.path());
    let cfg = snap.join("configs/alpha-border-1.cfg");
    let text = std::fs::read_to_string(&cfg).expect("cfg");
    let changed = text.replace(
        "interface GigabitEthernet0/0/3\n description spare\n no ip address\n shutdown",
        "interface GigabitEthernet0/0/3\n description customer X\n ip address 192.0.2.1 255.255.255.0",
    );
    assert_ne!(changed, text);
    std::fs::write(&cfg, changed).expect("write");
    common::import(tmp.path(), &snap);
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1);
    let msgs: Vec<String> = v["report"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["message"].as_str().unwrap_or("").to_owned())
        .collect();
    assert!(
        msgs.iter().any(|m| m == "the plan was drafted against state version 1, the state is now version 2: config changed on alpha-border-1"),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("interface is not free: it has 192.0.2.1/24")),
        "{msgs:?}"
    );
}

struct Demo {
    _dir: tempfile::TempDir,
    graph: std::sync::Arc<Graph>,
    net: Network,
    devices: Vec<String>,
    links: Vec<olav::model::LinkEnds>,
}

fn demo() -> Demo {
    let dir = tempfile::tempdir().expect("tempdir");
    let path: PathBuf = dir.path().join("s.db");
    let db = common::state_db(&path, &olav::demo::parsed().expect("demo"));
    let net = Network::load(&db).expect("network");
    let graph = Graph::load(&db).expect("graph");
    let devices = net.devices.iter().map(|d| d.hostname.clone()).collect();
    let links = net
        .links
        .iter()
        .map(|l| {
            (
                (net.devices[l.a.0].hostname.clone(), l.a.1.clone()),
                (net.devices[l.b.0].hostname.clone(), l.b.1.clone()),
            )
        })
        .collect();
    Demo {
        _dir: dir,
        graph,
        net,
        devices,
        links,
    }
}

fn lost(g: &Graph, devs: &[String], links: &[olav::model::LinkEnds]) -> BTreeSet<String> {
    let b = g.blast(&Spec {
        devices: devs.to_vec(),
        links: links.to_vec(),
        ..Spec::default()
    });
    b.removed.into_iter().chain(b.isolated).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Removing a superset never loses fewer devices (removed or isolated).
    #[test]
    fn a_superset_never_isolates_fewer(dev_mask in any::<u32>(), extra_dev in any::<u32>(), link_mask in any::<u64>(), extra_link in any::<u64>()) {
        let d = demo();
        let pick_d = |m: u32| -> Vec<String> { d.devices.iter().enumerate().filter(|(i, _)| m & (1 << (i % 32)) != 0 && i % 3 == 0).map(|(_, h)| h.clone()).collect() };
        let pick_l = |m: u64| -> Vec<_> { d.links.iter().enumerate().filter(|(i, _)| m & (1 << (i % 64)) != 0).map(|(_, l)| l.clone()).collect() };
        let (da, la) = (pick_d(dev_mask), pick_l(link_mask));
        let (db, lb) = (pick_d(dev_mask | extra_dev), pick_l(link_mask | extra_link));
        let small = lost(&d.graph, &da, &la);
        let big = lost(&d.graph, &db, &lb);
        prop_assert!(small.is_subset(&big), "{small:?} ⊄ {big:?}");
    }

    /// The analyzer's and the reporter's implementations agree on every removal.
    #[test]
    fn the_two_implementations_agree(dev_mask in any::<u32>(), link_mask in any::<u64>()) {
        let d = demo();
        let devs: Vec<usize> = (0..d.devices.len()).filter(|i| dev_mask & (1 << i) != 0 && i % 4 == 1).collect();
        let links: Vec<usize> = (0..d.links.len()).filter(|i| link_mask & (1 << (i % 64)) != 0 && i % 2 == 0).collect();
        let a = d.net.blast_radius(&Removal {
            devices: devs.iter().copied().collect(),
            links: links.iter().copied().collect(),
            ..Removal::default()
        });
        let b = d.graph.blast(&Spec {
            devices: devs.iter().map(|i| d.devices[*i].clone()).collect(),
            links: links.iter().map(|i| d.links[*i].clone()).collect(),
            ..Spec::default()
        });
        prop_assert_eq!(a.number(), b.number());
        prop_assert_eq!(&a.isolated, &b.isolated);
        prop_assert_eq!(&a.degraded, &b.degraded);
        prop_assert_eq!(&a.prefixes_withdrawn, &b.prefixes_withdrawn);
        // Both say which services are hit, and how many endpoints remain.
        let sa: Vec<(String, usize, usize)> = a
            .services_affected
            .iter()
            .map(|s| (s.name.clone(), s.remaining, s.endpoints))
            .collect();
        let sb: Vec<(String, usize, usize)> = b
            .services
            .iter()
            .map(|s| (s.name.clone(), s.remaining, s.endpoints))
            .collect();
        prop_assert_eq!(sa, sb);
    }
}

#[test]
fn the_same_request_asked_twice_is_named_a_duplicate_not_a_conflict_per_element() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let request = "shutdown alpha-core-1 Ethernet10";
    let first = draft(tmp.path(), request);
    let second = draft(tmp.path(), request);
    assert_ne!(first, second, "a second file, not an overwrite");
    let (code, v) = precheck(tmp.path(), &second);
    let findings = v["report"]["findings"].as_array().expect("findings");
    let conflicts: Vec<&serde_json::Value> = findings
        .iter()
        .filter(|f| f["code"] == "precheck.plan_conflict")
        .collect();
    assert_eq!(conflicts.len(), 1, "{conflicts:?}");
    let f = conflicts[0];
    assert_eq!(f["severity"], "warning");
    let msg = f["message"].as_str().unwrap_or("");
    assert!(msg.contains("drafts the same change: a duplicate"), "{msg}");
    assert!(msg.contains(&first), "{msg}");
    assert!(
        f["suggestion"]
            .as_str()
            .is_some_and(|s| s.starts_with("keep one: olav plans withdraw ")),
        "{f}"
    );
    assert_eq!(code, 0, "a duplicate is a warning: {v}");
}

/// The findings as (severity, element, message).
fn findings(v: &serde_json::Value) -> Vec<(String, String, String)> {
    v["report"]["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    let s = |k: &str| f[k].as_str().unwrap_or_default().to_owned();
                    (s("severity"), s("element"), s("message"))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn re_addressing_a_gateway_declares_the_service_it_hits_and_an_undeclared_hit_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // alpha-acc-1 Vlan10 is the gateway of 10.10.10.0/24, where alpha-campus-data lives
    // (endpoints: that interface, alpha-acc-2 Vlan11 and the prefix 10.10.10.0/24).
    let plan = draft(
        tmp.path(),
        "change the ip address of Vlan10 on alpha-acc-1 to 10.10.99.1/24",
    );
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    assert!(
        text.contains(
            "| Services affected | alpha-campus-data (high, degraded: 1 of 3 endpoints remain) |"
        ),
        "{text}"
    );
    assert!(text.contains("leaves 10.10.10.0/24, which no other interface has"));
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!((code, v["report"]["verdict"].as_str()), (0, Some("WARN")));
    let f = findings(&v);
    assert!(
        f.contains(&(
            "warning".into(),
            "alpha-acc-1 Vlan10".into(),
            "leaves 10.10.10.0/24, which no other interface has: hosts there lose their gateway"
                .into()
        )),
        "{f:#?}"
    );
    assert!(
        f.contains(&(
            "info".into(),
            "service alpha-campus-data".into(),
            "high service degraded: 1 of 3 endpoints remain".into()
        )),
        "{f:#?}"
    );
    // The same plan without the declaration: not a decommission, so an error.
    std::fs::write(
        &path,
        text.replace(
            "| Services affected | alpha-campus-data (high, degraded: 1 of 3 endpoints remain) |",
            "| Services affected | none |",
        ),
    )
    .expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!((code, v["report"]["verdict"].as_str()), (1, Some("FAIL")));
    assert!(findings(&v).contains(&(
        "error".into(),
        "service alpha-campus-data".into(),
        "high service degraded: 1 of 3 endpoints remain, and the plan does not declare it".into()
    )));
}

#[test]
fn a_new_address_in_the_same_subnet_moves_the_gateway_and_a_narrower_one_leaves_part() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(
        tmp.path(),
        "change the ip address of Vlan10 on alpha-acc-1 to 10.10.10.5/24",
    );
    let text = std::fs::read_to_string(tmp.path().join(&plan)).expect("plan");
    assert!(text.contains("| Services affected | none |"), "{text}");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 0);
    let f = findings(&v);
    assert!(f.contains(&(
        "warning".into(),
        "alpha-acc-1 Vlan10".into(),
        "the gateway address moves from 10.10.10.1 to 10.10.10.5 in the same subnet, and no HSRP/VRRP address stands in for it: hosts configured with 10.10.10.1 lose their gateway".into()
    )), "{f:#?}");
    assert!(
        !f.iter()
            .any(|(_, _, m)| m.contains("leaves") || m.contains("service")),
        "{f:#?}"
    );
    // /23 to /24 on the same gateway: the interface and its service stay; the rest of
    // the old subnet is named.
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(
        tmp.path(),
        "set the address of Vlan30 on alpha-acc-2 to 10.10.30.1/24",
    );
    let text = std::fs::read_to_string(tmp.path().join(&plan)).expect("plan");
    assert!(
        text.contains("narrows 10.10.30.0/23 to 10.10.30.0/24"),
        "{text}"
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 0);
    let f = findings(&v);
    assert!(f.contains(&(
        "warning".into(),
        "alpha-acc-2 Vlan30".into(),
        "narrows 10.10.30.0/23 to 10.10.30.0/24: hosts outside 10.10.30.0/24 lose their gateway".into()
    )), "{f:#?}");
    assert!(
        !f.iter().any(|(_, e, _)| e.starts_with("service ")),
        "{f:#?}"
    );
}

#[test]
fn shutting_a_junos_port_declares_the_service_on_its_unit() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // gamma-office-data's endpoint is the unit xe-0/1/3.0 of the port shut here.
    let plan = draft(tmp.path(), "shut down interface xe-0/1/3 on gamma-border-1");
    let text = std::fs::read_to_string(tmp.path().join(&plan)).expect("plan");
    assert!(text.contains("gamma-office-data (high, "), "{text}");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_ne!(code, 1, "{:#?}", findings(&v));
    assert!(findings(&v)
        .iter()
        .any(|(_, e, _)| e == "service gamma-office-data"));
}

/// The demo with a host route on alpha-dist-1 to alpha-core-1's loopback (its iBGP
/// peer), imported as `dir`'s state DB; with or without the switch's OSPF.
fn demo_with_a_route_to_the_route_reflector(dir: &Path, keep_ospf: bool) {
    let snap = common::demo_copy(dir);
    let cfg = snap.join("configs/alpha-dist-1.cfg");
    let mut text = std::fs::read_to_string(&cfg).expect("config");
    if !keep_ospf {
        let at = text.find("router ospf 1").expect("ospf");
        let end = at + text[at..].find("\n!").expect("end of block");
        text.replace_range(at..=end, "");
    }
    let text = text.replacen(
        "\nrouter bgp",
        "\nip route 10.255.1.2 255.255.255.255 10.0.1.6\n!\nrouter bgp",
        1,
    );
    std::fs::write(&cfg, text).expect("edit");
    common::import(dir, &snap);
}

#[test]
fn removing_the_static_route_an_ibgp_session_rides_fails_or_is_unknown_under_an_igp() {
    let tmp = tempfile::tempdir().expect("tempdir");
    demo_with_a_route_to_the_route_reflector(tmp.path(), false);
    let plan = draft_any(
        tmp.path(),
        "remove the static route 10.255.1.2/32 on alpha-dist-1",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(findings(&v).contains(&(
        "error".into(),
        "alpha-dist-1 → 10.255.1.2".into(),
        "the session is lost as a side effect: the static route that reached its peer is removed, and no other route olav knows of (connected, static; the device runs no IGP) reaches it".into()
    )), "{:#?}", findings(&v));
    // The recomputed blast radius counts the session.
    assert!(strings(&v["report"]["blast"]["sessions_lost"])
        .contains(&"alpha-dist-1 → 10.255.1.2".to_owned()));
    // With OSPF running, olav cannot know whether the peer stays reachable: it says so.
    let tmp = tempfile::tempdir().expect("tempdir");
    demo_with_a_route_to_the_route_reflector(tmp.path(), true);
    let plan = draft_any(
        tmp.path(),
        "remove the static route 10.255.1.2/32 on alpha-dist-1",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 0, "{:#?}", findings(&v));
    assert_eq!(v["report"]["verdict"], "WARN");
    assert!(findings(&v).iter().any(|(s, e, m)| s == "warning"
        && e == "alpha-dist-1 → 10.255.1.2"
        && m.contains("(10.255.1.2/32 via 10.0.1.6) is removed; the device runs an IGP")));
}

#[test]
fn a_plan_edited_beyond_its_request_fails_and_an_edit_is_named() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(
        tmp.path(),
        "shut down GigabitEthernet0/0/1 on alpha-border-1",
    );
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    // Lines a hand added: the transit ACL stripped, OSPF made passive on the other uplink.
    std::fs::write(
        &path,
        text.replacen(
            "interface GigabitEthernet0/0/1\n shutdown\n",
            "interface GigabitEthernet0/0/1\n shutdown\ninterface GigabitEthernet0/0/0\n no ip access-group EDGE-IN in\nrouter ospf 1\n passive-interface GigabitEthernet0/0/2\n",
            1,
        ),
    )
    .expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    let f = findings(&v);
    for element in [
        "alpha-border-1 interface GigabitEthernet0/0/0",
        "alpha-border-1 router ospf",
    ] {
        assert!(
            f.iter().any(|(s, e, m)| s == "error"
                && e == element
                && m.ends_with("which its request (modify_interface) does not name: a plan wider than its request")),
            "{element}: {f:#?}"
        );
    }
    assert!(f
        .iter()
        .any(|(s, e, _)| s == "warning" && e == "implementation"));
    // The draft as olav wrote it is within its scope and named as drafted.
    std::fs::write(&path, &text).expect("restore");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_ne!(code, 1, "{:#?}", findings(&v));
    assert!(!findings(&v).iter().any(|(_, e, _)| e == "implementation"));
}

#[test]
fn a_what_if_on_an_interface_the_device_lacks_is_unknown_not_harmless() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (element, ok) in [
        ("alpha-acc-1:Vlan99", false),
        ("alpha-acc-1:Loopback7", false),
        ("alpha-acc-1:Vlan20", true),
        ("alpha-acc-1:vlan20", true),
        ("gamma-border-1:xe-0/1/3", true),
    ] {
        let out = olav(tmp.path())
            .args(["-q", "blast-radius", "--interface", element])
            .assert();
        let code = out.get_output().status.code();
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        if ok {
            assert_eq!(code, Some(0), "{element}: {err}");
        } else {
            assert_eq!(code, Some(2), "{element}");
            assert!(
                err.contains(&format!("not in the state DB: {element}")),
                "{err}"
            );
        }
    }
}

#[test]
fn removing_a_route_that_falls_back_to_a_discard_route_warns() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // gamma-border-1: 10.40.20.0/24 via 10.40.10.20, and 10.40.0.0/16 discard.
    let plan = draft(
        tmp.path(),
        "remove the static route 10.40.20.0/24 on gamma-border-1",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!((code, v["report"]["verdict"].as_str()), (0, Some("WARN")));
    assert!(
        findings(&v).iter().any(|(s, _, m)| s == "warning"
            && m.starts_with("after the plan, traffic to 10.40.20.0/24 matches 10.40.0.0/16 via discard, a discard route: it is dropped")),
        "{:#?}",
        findings(&v)
    );
}

#[test]
fn a_static_route_inside_a_connected_subnet_wins_by_longest_match_one_equal_to_it_never_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // alpha-acc-1 Vlan10 is 10.10.10.1/24.
    let plan = draft_any(
        tmp.path(),
        "add a static route 10.10.10.128/25 via 10.10.10.5 on alpha-acc-1",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 0, "{:#?}", findings(&v));
    assert!(findings(&v).iter().any(|(s, _, m)| s == "warning"
        && m.starts_with("10.10.10.128/25 is inside the connected subnet 10.10.10.0/24: being more specific, the static route wins for it")));
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "add a static route 10.10.10.0/24 via 10.10.10.5 on alpha-acc-1",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(findings(&v).iter().any(|(s, _, m)| s == "error"
        && m.contains(
            "is the connected subnet 10.10.10.0/24: the connected route wins (distance 0)"
        )));
}

#[test]
fn a_session_to_an_offline_device_is_down_not_a_way_out_of_the_network() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = common::demo_copy(tmp.path());
    let state = snap.join("state.yaml");
    let text = std::fs::read_to_string(&state).expect("state");
    let line = text
        .lines()
        .find(|l| l.contains("{hostname: alpha-core-2,"))
        .expect("alpha-core-2");
    std::fs::write(
        &state,
        text.replace(line, &line.replace("status: active", "status: offline")),
    )
    .expect("edit");
    common::import(tmp.path(), &snap);
    // alpha-core-2 offline: removing alpha-core-1 cuts the alpha site off. Its devices'
    // iBGP sessions to alpha-core-2's loopback are not a path to an "external peer".
    let out = olav(tmp.path())
        .args([
            "-q",
            "blast-radius",
            "--device",
            "alpha-core-1",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let v = json(&out);
    assert_eq!(
        strings(&v["blast_radius"]["isolated"]),
        [
            "alpha-acc-1",
            "alpha-acc-2",
            "alpha-br-2960-1",
            "alpha-br-2960-2",
            "alpha-br-3560",
            "alpha-dist-1",
            "alpha-dist-2"
        ]
    );
    // The analyzer's plan agrees with the recomputation.
    let plan = draft_any(tmp.path(), "decommission alpha-core-1");
    let text = std::fs::read_to_string(tmp.path().join(&plan)).expect("plan");
    assert!(text.contains("**Blast-radius number: 8**"), "{text}");
    let (_, v) = precheck(tmp.path(), &plan);
    assert!(
        !findings(&v)
            .iter()
            .any(|(_, e, _)| e == "blast radius" && v["report"]["verdict"] == "FAIL"),
        "{:#?}",
        findings(&v)
    );
    assert_eq!(
        v["report"]["blast"]["isolated"].as_array().map(Vec::len),
        Some(7)
    );
}

#[test]
fn more_of_the_same_kind_of_change_than_the_request_names_fails() {
    // A static-route plan with a second route added by hand.
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(
        tmp.path(),
        "add a static route 10.60.0.0/16 via 10.0.1.7 on alpha-core-1",
    );
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    std::fs::write(
        &path,
        text.replacen(
            "ip route 10.60.0.0/16 10.0.1.7\n",
            "ip route 10.60.0.0/16 10.0.1.7\nip route 0.0.0.0/0 10.0.1.7\n",
            1,
        )
        .replacen(
            "no ip route 10.60.0.0/16 10.0.1.7\n",
            "no ip route 10.60.0.0/16 10.0.1.7\nno ip route 0.0.0.0/0 10.0.1.7\n",
            1,
        ),
    )
    .expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(findings(&v).iter().any(|(s, e, m)| s == "error"
        && e == "static routes"
        && m.contains("10.60.0.0/16, 0.0.0.0/0")));
    // An uplink plan that also shuts the provider's existing session.
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(
        tmp.path(),
        "add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router",
    );
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    let edited = text.replacen(
        "router bgp 65001\n",
        "router bgp 65001\n neighbor 203.0.113.2 shutdown\n",
        1,
    );
    assert_ne!(edited, text, "the plan configures router bgp");
    std::fs::write(&path, edited).expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(
        findings(&v).iter().any(|(s, e, m)| s == "error"
            && e == "alpha-border-1 → 203.0.113.2"
            && m.contains("a plan wider than its request")),
        "{:#?}",
        findings(&v)
    );
}

#[test]
fn a_what_if_on_a_junos_port_takes_its_units() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args([
            "-q",
            "blast-radius",
            "--interface",
            "gamma-border-1:xe-0/1/2",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let v = json(&out);
    assert_eq!(
        strings(&v["blast_radius"]["sessions_lost"]),
        ["gamma-border-1 → 62.115.152.90"]
    );
    assert_eq!(
        strings(&v["blast_radius"]["peers_lost"]),
        ["Telia (AS1299)"]
    );
}

#[test]
fn an_mtu_change_on_an_eos_port_facing_ios_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // alpha-core-1 Ethernet3 (EOS mtu 9198) – alpha-dist-1 (IOS-XE mtu 9198): equal IP MTUs.
    let plan = draft_any(
        tmp.path(),
        "set the mtu of Ethernet3 on alpha-core-1 to 1500",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(findings(&v).iter().any(|(s, _, m)| s == "error"
        && m.contains("an OSPF adjacency over the link (where OSPF runs) stalls in EXSTART")));
}

#[test]
fn a_junos_port_mtu_is_compared_with_the_far_end_as_an_ip_mtu() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // gamma-border-1 xe-0/1/0 (port mtu 9228: IP MTU 9214 on its unit xe-0/1/0.0) –
    // alpha-core-1 Ethernet12 (EOS mtu 9214).
    let plan = draft_any(
        tmp.path(),
        "change the MTU on gamma-border-1 xe-0/1/0 to 1500",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(
        findings(&v).iter().any(|(s, e, m)| s == "error"
            && e == "gamma-border-1 xe-0/1/0.0"
            && m.contains("MTU 1486 here, 9214 at the far end alpha-core-1 Ethernet12")
            && m.contains("port xe-0/1/0 mtu 1500 less the 14-byte Ethernet header")),
        "{:#?}",
        findings(&v)
    );
    // The trial's change: the Junos port set to the far end's number, 9214, is 14 bytes
    // short of it in IP MTU — a failure naming both ends with both values, never a pass.
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "change the MTU on gamma-border-1 xe-0/1/0 to 9214",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(
        findings(&v).iter().any(|(s, e, m)| s == "error"
            && e == "gamma-border-1 xe-0/1/0.0"
            && m.contains("MTU 9200 here, 9214 at the far end alpha-core-1 Ethernet12")
            && m.contains("port xe-0/1/0 mtu 9214 less the 14-byte Ethernet header")),
        "{:#?}",
        findings(&v)
    );
    let passed = v["report"]["passed"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !passed.iter().any(|p| p
            .as_str()
            .is_some_and(|p| p.starts_with("MTU equal at both ends"))),
        "{passed:?}"
    );
    // A unit's `family inet mtu` is an IP MTU: 9000 against 9214 moves the ends apart.
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "change the MTU on gamma-border-1 xe-0/1/0.0 to 9000",
    );
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(findings(&v).iter().any(|(s, _, m)| s == "error"
        && m.contains("MTU 9000 here, 9214 at the far end alpha-core-1 Ethernet12")));
}

#[test]
fn deleting_the_address_of_a_junos_link_unit_breaks_the_link() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "change the MTU on gamma-border-1 xe-0/1/0 to 9214",
    );
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    let edited = text
        .replacen(
            "set interfaces xe-0/1/0 mtu 9214\n",
            "delete interfaces xe-0/1/0 unit 0 family inet address 10.0.3.0/31\n",
            1,
        )
        .replacen(
            "delete interfaces xe-0/1/0 mtu\nset interfaces xe-0/1/0 mtu 9228\n",
            "set interfaces xe-0/1/0 unit 0 family inet address 10.0.3.0/31\n",
            1,
        );
    assert!(
        edited.contains("delete interfaces xe-0/1/0 unit 0"),
        "{text}"
    );
    std::fs::write(&path, edited).expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{:#?}", findings(&v));
    assert!(
        findings(&v).iter().any(|(s, e, m)| s == "error"
            && e == "alpha-core-1:Ethernet12 – gamma-border-1:xe-0/1/0.0"
            && m.contains("the plan breaks this link")
            && m.contains("gamma-border-1 xe-0/1/0.0 (10.0.3.0/31) is no longer configured")),
        "{:#?}",
        findings(&v)
    );
    assert!(!strings(&v["report"]["passed"])
        .iter()
        .any(|p| p.starts_with("links the plan touches")));
}

#[test]
fn an_uplink_plan_that_shuts_the_primary_uplink_fails_and_counts_what_is_left() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    let edited = text
        .replacen(
            " maximum-prefix 1200000 90 warning-only\n```",
            " maximum-prefix 1200000 90 warning-only\n!\ninterface GigabitEthernet0/0/0\n shutdown\n```",
            1,
        )
        .replacen(
            " no ip address\n shutdown\n```",
            " no ip address\n shutdown\n!\ninterface GigabitEthernet0/0/0\n no shutdown\n```",
            1,
        );
    assert_eq!(
        edited.matches("GigabitEthernet0/0/0\n").count(),
        2,
        "{text}"
    );
    std::fs::write(&path, edited).expect("edit");
    let (code, v) = precheck(tmp.path(), &plan);
    let f = findings(&v);
    assert_eq!(code, 1, "{f:#?}");
    assert!(
        f.iter().any(|(s, e, m)| s == "error"
            && e == "alpha-border-1 → 203.0.113.2"
            && m.contains("which its request (add_uplink) does not name")),
        "{f:#?}"
    );
    assert!(
        f.iter().any(|(s, e, m)| s == "info"
            && e == "redundancy to AS7575"
            && m.contains("adds no redundancy towards the peer: 1 session(s) before, 1 after")
            && !m.contains("removed:")),
        "{f:#?}"
    );
}
