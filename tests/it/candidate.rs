//! The pre-check on the candidate network, one case per check, on the demo network:
//! each asserts the finding, its severity and the element it names. And the property:
//! for every plan olav drafts, the candidate of plan-then-rollback loses nothing.

use crate::common::{self, draft_any, olav};

use olav::agents::analyzer::draft::{self, Ctx};
use olav::agents::analyzer::facts::Facts;
use olav::agents::analyzer::intent::{resolve, Resolution};
use olav::import::parse_snapshot;
use olav::plan::{ConfigBlock, Plan};
use olav::precheck::candidate::Candidate;
use olav::state::StateDb;
use olav::topology::Network;
use std::path::Path;

fn edit(dir: &Path, plan: &str, from: &str, to: &str) {
    let path = dir.join(plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    assert!(text.contains(from), "{from} not in {plan}:\n{text}");
    std::fs::write(&path, text.replace(from, to)).expect("write");
}

/// (verdict, findings as (severity, element, message)).
fn precheck(dir: &Path, plan: &str) -> (String, Vec<(String, String, String)>, serde_json::Value) {
    let out = olav(dir)
        .args(["precheck", plan, "--format", "json"])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let r = &v["report"];
    let findings = r["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["severity"].as_str().unwrap_or("").to_owned(),
                f["element"].as_str().unwrap_or("").to_owned(),
                f["message"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    (
        r["verdict"].as_str().unwrap_or("").to_owned(),
        findings,
        r.clone(),
    )
}

fn has(f: &[(String, String, String)], sev: &str, element: &str, msg: &str) -> bool {
    f.iter()
        .any(|(s, e, m)| s == sev && e == element && m.contains(msg))
}

#[test]
fn an_address_change_that_leaves_the_far_end_behind_fails_naming_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "change the IP address of alpha-dist-1 TwentyFiveGigE1/0/10 to 10.0.9.0/31",
    );
    let (verdict, f, r) = precheck(tmp.path(), &plan);
    assert_eq!(verdict, "FAIL", "{f:?}");
    assert!(
        has(&f, "error", "alpha-br-3560:GigabitEthernet0/25 – alpha-dist-1:TwentyFiveGigE1/0/10", "alpha-br-3560 GigabitEthernet0/25 (10.0.1.41/31) and alpha-dist-1 TwentyFiveGigE1/0/10 (10.0.9.0/31) no longer share a subnet"),
        "{f:#?}"
    );
    // The blast radius counts what is behind the broken link.
    assert_eq!(r["blast"]["isolated"].as_array().map(Vec::len), Some(3));
}

#[test]
fn an_mtu_unequal_to_the_far_end_fails_naming_both() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "change the MTU on alpha-core-1 Ethernet10 to 1400",
    );
    let (verdict, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(verdict, "FAIL");
    assert!(
        has(
            &f,
            "error",
            "alpha-core-1 Ethernet10",
            "MTU 1400 here, 9214 at the far end beta-core-1 Ethernet10"
        ),
        "{f:#?}"
    );
}

#[test]
fn an_mtu_change_that_leaves_a_mismatch_in_place_is_a_warning_and_one_that_widens_it_fails() {
    // A demo whose alpha-core-1 Ethernet3 (EOS mtu 9214) and alpha-dist-1
    // TwentyFiveGigE1/0/1 (IOS-XE mtu 9198) differ by 16, as the fixture once did: a change
    // that keeps them as far apart or closer is the network's mismatch (a warning, never
    // a pass); one that widens it is the plan's.
    let mismatched = |tmp: &Path| {
        let snap = common::demo_copy(tmp);
        let core = snap.join("configs/alpha-core-1/show_running-config.txt");
        common::replace(
            &core,
            "description alpha-dist-1 TwentyFiveGigE1/0/1\n   mtu 9198",
            "description alpha-dist-1 TwentyFiveGigE1/0/1\n   mtu 9214",
        );
        common::import(tmp, &snap);
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    mismatched(tmp.path());
    let plan = draft_any(tmp.path(), "set mtu 9206 on Ethernet3 of alpha-core-1");
    let (verdict, f, r) = precheck(tmp.path(), &plan);
    assert_eq!(verdict, "WARN", "{f:#?}");
    assert!(
        has(
            &f,
            "warning",
            "alpha-core-1 Ethernet3",
            "MTU 9206 here, 9198 at the far end alpha-dist-1 TwentyFiveGigE1/0/1: the ends already differed before the plan (9214 and 9198)"
        ),
        "{f:#?}"
    );
    let passed = r["passed"].as_array().cloned().unwrap_or_default();
    assert!(
        !passed
            .iter()
            .any(|p| p.as_str() == Some("MTU equal at both ends of links the plan touches")),
        "{passed:?}"
    );
    let tmp = tempfile::tempdir().expect("tempdir");
    mismatched(tmp.path());
    let plan = draft_any(tmp.path(), "set mtu 1500 on Ethernet3 of alpha-core-1");
    let (verdict, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(verdict, "FAIL", "{f:#?}");
    assert!(
        has(
            &f,
            "error",
            "alpha-core-1 Ethernet3",
            "MTU 1500 here, 9198 at the far end alpha-dist-1 TwentyFiveGigE1/0/1"
        ),
        "{f:#?}"
    );
}

#[test]
fn a_shut_port_is_declared_and_counted_not_an_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(tmp.path(), "shutdown alpha-dist-1 TwentyFiveGigE1/0/10");
    let (verdict, f, r) = precheck(tmp.path(), &plan);
    assert_eq!(verdict, "WARN", "{f:#?}");
    assert!(has(
        &f,
        "info",
        "alpha-br-3560:GigabitEthernet0/25 – alpha-dist-1:TwentyFiveGigE1/0/10",
        "link taken down by the plan"
    ));
    assert!(has(
        &f,
        "warning",
        "service alpha-branch-voice",
        "critical service down"
    ));
    assert_eq!(r["blast"]["isolated"].as_array().map(Vec::len), Some(3));
}

#[test]
fn static_route_checks() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // A prefix connected on the device.
    let plan = draft_any(
        tmp.path(),
        "add a static route to 10.0.1.0/31 via 10.0.1.6 on alpha-core-1",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL");
    assert!(
        has(
            &f,
            "error",
            "alpha-core-1 10.0.1.0/31 via 10.0.1.6",
            "is the connected subnet 10.0.1.0/31: the connected route wins"
        ),
        "{f:#?}"
    );
    // A next hop nothing resolves: the candidate's computed RIB has no route to it.
    let plan = draft_any(
        tmp.path(),
        "add a static route to 10.99.0.0/16 via 172.31.0.1 on alpha-br-2960-1",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL");
    assert!(
        has(
            &f,
            "error",
            "alpha-br-2960-1 10.99.0.0/16 via 172.31.0.1",
            "the route does not install"
        ),
        "{f:#?}"
    );
    // The same on a BGP speaker whose RIB lacks the providers' routes (outside the
    // network): one of them might resolve it, so a warning.
    let plan = draft_any(
        tmp.path(),
        "add a static route to 10.97.0.0/16 via 172.31.0.1 on beta-core-1",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "WARN", "{f:#?}");
    assert!(
        has(
            &f,
            "warning",
            "beta-core-1 10.97.0.0/16 via 172.31.0.1",
            "whether it installs is unknown"
        ),
        "{f:#?}"
    );
    // An identical route already there (hand-edited: the analyzer refuses to draft it).
    let plan = draft_any(
        tmp.path(),
        "add a static route to 10.96.0.0/16 via 10.0.1.40 on alpha-br-3560",
    );
    edit(
        tmp.path(),
        &plan,
        "ip route 10.96.0.0 255.255.0.0 10.0.1.40",
        "ip route 0.0.0.0 0.0.0.0 10.0.1.40",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL");
    assert!(
        has(
            &f,
            "error",
            "alpha-br-3560 0.0.0.0/0 via 10.0.1.40",
            "identical static route is already configured"
        ),
        "{f:#?}"
    );
    // Removing a route the device does not have.
    let plan = draft_any(
        tmp.path(),
        "remove the static route 0.0.0.0/0 on alpha-br-3560",
    );
    edit(
        tmp.path(),
        &plan,
        "no ip route 0.0.0.0 0.0.0.0 10.0.1.40",
        "no ip route 10.77.0.0 255.255.0.0 10.0.1.40",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL");
    assert!(
        has(
            &f,
            "error",
            "alpha-br-3560 10.77.0.0/16 via 10.0.1.40",
            "removes a static route the device does not have"
        ),
        "{f:#?}"
    );
}

#[test]
fn a_new_neighbor_inside_the_network_must_match_its_device() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "add a redundant uplink to AARNet on alpha-border-1",
    );
    // Hand-edited: the new neighbor is alpha-core-2's address, with the provider's AS.
    let path = tmp.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    std::fs::write(&path, text.replace("203.0.113.6", "10.0.1.3")).expect("write");
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL");
    assert!(
        has(
            &f,
            "error",
            "alpha-border-1 neighbor 10.0.1.3",
            "10.0.1.3 is alpha-core-2 Ethernet1, in AS65001, not AS7575"
        ),
        "{f:#?}"
    );
    assert!(
        has(
            &f,
            "warning",
            "alpha-border-1 neighbor 10.0.1.3",
            "alpha-core-2 has no neighbor back"
        ),
        "{f:#?}"
    );
    assert!(
        !f.iter().any(|x| x.2.contains("session with no")),
        "the copied policy filters both ways: {f:#?}"
    );
}

/// The plan at `plan` (relative to `dir`), as text.
fn plan_text(dir: &Path, plan: &str) -> String {
    std::fs::read_to_string(dir.join(plan)).expect("plan")
}

#[test]
fn a_new_provider_is_drafted_with_the_borders_own_filters_and_not_warned() {
    // IOS, EOS and Junos borders: each reuses what its existing provider session filters
    // with, leaving out what sets that provider's attributes.
    for (request, lines) in [
        (
            "add a peering to Hurricane Electric AS6939 on alpha-border-1 link 192.0.2.8/31",
            &[
                "route-map HURRICANE-ELECTRIC-IN permit 10\n match ip address prefix-list AARNET-IN\n!",
                "  neighbor 192.0.2.9 prefix-list AARNET-IN in\n  neighbor 192.0.2.9 route-map HURRICANE-ELECTRIC-IN in\n  neighbor 192.0.2.9 route-map AARNET-OUT out",
                "no route-map HURRICANE-ELECTRIC-IN",
            ][..],
        ),
        (
            "add a peering to Cogent AS174 on beta-border-1 link 198.18.0.5/31",
            &[
                "route-map COGENT-IN permit 10\n   match ip address prefix-list TELSTRA-IN\n!",
                "   neighbor 198.18.0.4 route-map COGENT-IN in\n   neighbor 198.18.0.4 route-map TELSTRA-OUT out",
            ][..],
        ),
        (
            "add a peering to Cogent AS174 on gamma-border-1 link 198.18.0.9/31",
            &[
                "set protocols bgp group EBGP-COGENT import TELIA-IN\nset protocols bgp group EBGP-COGENT export TELIA-OUT",
                "left out: SET-LOCAL-PREF",
            ][..],
        ),
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let plan = draft_any(tmp.path(), request);
        let text = plan_text(tmp.path(), &plan);
        for l in lines {
            assert!(text.contains(l), "{request}: {l:?} not in\n{text}");
        }
        assert!(!text.contains("drafted shut"), "{text}");
        let (v, f, _) = precheck(tmp.path(), &plan);
        assert_eq!(v, "PASS", "{request}: {f:#?}");
    }
}

#[test]
fn a_new_provider_with_no_outbound_policy_to_have_is_drafted_shut_and_not_warned() {
    // alpha-core-1 (EOS) has no provider session and originates no public prefix: the
    // inbound filter is built, the session drafted shut.
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "add a peering to Cogent AS174 on alpha-core-1 link 198.18.1.5/31",
    );
    let text = plan_text(tmp.path(), &plan);
    for l in [
        "ip prefix-list COGENT-IN\n   seq 5 deny 0.0.0.0/0\n   seq 10 deny 0.0.0.0/8 le 32",
        "   seq 80 permit 0.0.0.0/0 le 24\n!",
        "   neighbor 198.18.1.4 shutdown\n   neighbor 198.18.1.4 prefix-list COGENT-IN in",
        "no ip prefix-list COGENT-IN",
        "the session is drafted shut (`neighbor 198.18.1.4 shutdown`)",
    ] {
        assert!(text.contains(l), "{l:?} not in\n{text}");
    }
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert!(!f.iter().any(|x| x.2.contains("session with no")), "{f:#?}");
    assert_eq!(v, "PASS", "{f:#?}");
}

#[test]
fn a_junos_neighbor_with_no_export_policy_to_reuse_is_drafted_deactivated() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = common::demo_copy(tmp.path());
    // Telia's export policy prepends: it is Telia's, not a filter to reuse.
    common::replace(
        &snap.join("configs/gamma-border-1/show_configuration.txt"),
        "                prefix-list GAMMA-PREFIXES;\n            }\n            then accept;",
        "                prefix-list GAMMA-PREFIXES;\n            }\n            then {\n                as-path-prepend \"65001 65001\";\n                accept;\n            }",
    );
    common::import(tmp.path(), &snap);
    let plan = draft_any(
        tmp.path(),
        "add a peering to Cogent AS174 on gamma-border-1 link 198.18.0.9/31",
    );
    let text = plan_text(tmp.path(), &plan);
    for l in [
        "set protocols bgp group EBGP-COGENT import TELIA-IN",
        "deactivate protocols bgp group EBGP-COGENT neighbor 198.18.0.8",
        "activate protocols bgp group EBGP-COGENT neighbor 198.18.0.8`",
    ] {
        assert!(text.contains(l), "{l:?} not in\n{text}");
    }
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("set ") && l.contains(" export ")),
        "{text}"
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert!(!f.iter().any(|x| x.2.contains("session with no")), "{f:#?}");
    assert_ne!(v, "FAIL", "{f:#?}");
}

#[test]
fn a_hand_written_unfiltered_session_is_still_warned() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "add a peering to Hurricane Electric AS6939 on alpha-border-1 link 192.0.2.8/31",
    );
    // The engineer deletes the policy olav drafted.
    edit(
        tmp.path(),
        &plan,
        "  neighbor 192.0.2.9 prefix-list AARNET-IN in\n  neighbor 192.0.2.9 route-map HURRICANE-ELECTRIC-IN in\n  neighbor 192.0.2.9 route-map AARNET-OUT out\n",
        "",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "WARN");
    assert!(
        has(
            &f,
            "warning",
            "alpha-border-1 neighbor 192.0.2.9",
            "no in and no out filter"
        ),
        "{f:#?}"
    );
}

#[test]
fn a_session_lost_as_a_side_effect_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // Re-addressing alpha-core-1's loopback strands every iBGP session to 10.255.1.2.
    let plan = draft_any(
        tmp.path(),
        "change the ip address of alpha-core-1 Loopback0 to 10.255.9.9/32",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL");
    assert!(
        has(
            &f,
            "error",
            "alpha-border-1 → 10.255.1.2",
            "lost as a side effect"
        ),
        "{f:#?}"
    );
}

#[test]
fn open_plans_that_cannot_both_be_applied_name_each_other() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let uplink = draft_any(
        tmp.path(),
        "add a redundant uplink to AARNet on alpha-border-1",
    );
    let decom = draft_any(tmp.path(), "decommission alpha-border-1");
    let (v, f, _) = precheck(tmp.path(), &uplink);
    assert_eq!(v, "FAIL");
    assert!(
        f.iter().any(|x| x.0 == "error"
            && x.1 == "alpha-border-1"
            && x.2
                .contains("removes this device, which this plan configures")
            && x.2.contains(&decom)),
        "{f:#?}"
    );
    // Two plans giving the same subnet: a hand-written copy with another plan id and
    // other lines (an identical copy would be a duplicate, not a conflict).
    let path = tmp.path().join(&uplink);
    let text = std::fs::read_to_string(&path).expect("plan");
    let copy = text.replacen("plan_id: ", "plan_id: copy-", 1).replacen(
        " description AARNet transit (AS7575) - redundant uplink",
        " description second AARNet circuit",
        1,
    );
    assert_ne!(copy, text.replacen("plan_id: ", "plan_id: copy-", 1));
    std::fs::write(tmp.path().join("exports/change_plans/copy.md"), copy).expect("write");
    olav(tmp.path())
        .args(["precheck", "exports/change_plans/copy.md"])
        .output()
        .expect("runs");
    let (_, f, _) = precheck(tmp.path(), &uplink);
    assert!(
        has(&f, "error", "subnet 203.0.113.4/30", "uses the same subnet"),
        "{f:#?}"
    );
    assert!(
        has(
            &f,
            "error",
            "alpha-border-1 GigabitEthernet0/0/3",
            "addresses the same interface"
        ),
        "{f:#?}"
    );
}

#[test]
fn drift_elsewhere_is_information_not_a_warning() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "set the description of beta-border-1 Ethernet3 to \"reserved\"",
    );
    let snap = common::demo_copy(tmp.path());
    let cfg = snap.join("configs/alpha-border-1.cfg");
    let text = std::fs::read_to_string(&cfg).expect("cfg");
    std::fs::write(
        &cfg,
        text.replace(" description spare\n", " description spare (moved)\n"),
    )
    .expect("write");
    common::import(tmp.path(), &snap);
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "PASS", "{f:#?}");
    assert!(
        has(&f, "info", "state", "none that this plan depends on"),
        "{f:#?}"
    );
}

#[test]
fn a_service_with_endpoints_left_is_degraded_not_down() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(tmp.path(), "decommission beta-acc-2");
    let (_, f, r) = precheck(tmp.path(), &plan);
    assert!(
        has(
            &f,
            "info",
            "service beta-campus-data",
            "degraded: 1 of 2 endpoints remain"
        ),
        "{f:#?}"
    );
    assert!(
        !f.iter()
            .any(|x| x.0 == "warning" && x.1 == "service beta-campus-data"),
        "{f:#?}"
    );
    assert_eq!(r["blast"]["services"][0]["remaining"], 1);
}

#[test]
fn only_checks_that_ran_are_listed_as_passed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "set the description of beta-border-1 Ethernet3 to \"reserved\"",
    );
    let (v, _, r) = precheck(tmp.path(), &plan);
    assert_eq!(v, "PASS");
    let passed: Vec<&str> = r["passed"]
        .as_array()
        .expect("passed")
        .iter()
        .filter_map(|x| x.as_str())
        .collect();
    let na: Vec<&str> = r["not_applicable"]
        .as_array()
        .expect("n/a")
        .iter()
        .filter_map(|x| x.as_str())
        .collect();
    for c in [
        "new BGP neighbors are reachable, match the peer's AS and are new",
        "static routes are new, not connected, resolvable; removed ones exist",
        "new addresses duplicate and overlap nothing",
        "MTU equal at both ends of links the plan touches",
    ] {
        assert!(na.contains(&c), "{c} not applicable: {na:?}");
        assert!(!passed.contains(&c), "{c} listed as passed: {passed:?}");
    }
    assert!(passed.contains(&"the claimed blast radius matches the recomputed one"));
}

/// Plan then rollback, as one plan: the candidate loses nothing, and the full pre-check
/// finds no error and no warning (state age aside: generated networks are old).
fn round_trips_leave_nothing(db: &StateDb, min: usize, stride: usize) {
    let facts = Facts::load(db).expect("facts");
    let net = Network::load(db).expect("network");
    let config = |d: &str| db.config_text(d).ok().flatten();
    let ctx = Ctx {
        request: "round trip",
        workflow: "change_plan",
        now: "2026-12-01T00:00:00Z",
        reading: "Understood: round trip",
        config: &config,
    };
    let mut requests: Vec<String> = Vec::new();
    for d in facts.devices.keys() {
        requests.push(format!("decommission {d}"));
        for p in facts.providers_of(d) {
            requests.push(format!("add a redundant uplink to AS{} on {d}", p.1));
        }
    }
    for s in &facts.sessions {
        requests.push(format!(
            "remove the BGP neighbor {} on {}",
            s.peer, s.hostname
        ));
    }
    for r in &facts.routes {
        requests.push(format!(
            "remove the static route {} on {}",
            r.prefix, r.hostname
        ));
    }
    for d in facts.devices.keys() {
        for i in facts.interfaces.get(d).into_iter().flatten() {
            requests.push(format!("shutdown {d} {}", i.name));
            requests.push(format!("change the MTU on {d} {} to 1400", i.name));
            requests.push(format!("decommission {d} {}", i.name));
        }
    }
    let opts = olav::precheck::Options {
        max_age: chrono::Duration::days(100_000),
    };
    let mut checked = 0;
    // A stride keeps the run short on larger networks; every kind of request still comes.
    for r in requests.into_iter().step_by(stride) {
        let Resolution::Intent(intent) = resolve(&r, &facts) else {
            continue;
        };
        let Ok(d) = draft::draft(&intent, &facts, &net, &ctx) else {
            continue;
        };
        let both: Vec<ConfigBlock> = d
            .plan
            .implementation
            .iter()
            .map(|b| {
                let rb: String = d
                    .plan
                    .rollback
                    .iter()
                    .filter(|x| x.device == b.device)
                    .map(|x| format!("\n{}", x.text))
                    .collect();
                ConfigBlock {
                    device: b.device.clone(),
                    os: b.os.clone(),
                    text: format!("{}{rb}", b.text),
                }
            })
            .collect();
        let mut round = Plan {
            implementation: both,
            ..d.plan.clone()
        };
        // Nothing is removed: the round trip is a no-op change claiming 0, of no intent
        // olav drafts (its lines reach every device the draft touched), and not a draft.
        round.header.intent = "round_trip".into();
        round.header.drafted = String::new();
        // The rollback is already in the implementation: nothing is left to undo.
        round.rollback = round
            .implementation
            .iter()
            .map(|b| ConfigBlock {
                device: b.device.clone(),
                os: b.os.clone(),
                text: "!".into(),
            })
            .collect();
        round.header.targets = round
            .implementation
            .iter()
            .map(|b| olav::plan::Target::Device {
                device: b.device.clone(),
            })
            .collect();
        round.claimed_blast_radius = Some(0);
        round.blast_radius = "**Blast-radius number: 0**".into();
        let c = Candidate::build(db, &round).expect("candidate");
        assert!(
            c.lost_links.is_empty()
                && c.lost_sessions.is_empty()
                && c.shut.is_empty()
                && c.mtu.is_empty(),
            "{r}: links {:?} sessions {:?} shut {:?} mtu {:?}",
            c.lost_links,
            c.lost_sessions,
            c.shut,
            c.mtu
        );
        let report = olav::precheck::precheck(db, "round-trip.md", &round.to_markdown(), &opts)
            .expect("precheck");
        let bad: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.severity != olav::precheck::Severity::Info)
            .collect();
        assert!(bad.is_empty(), "{r}: {bad:#?}");
        assert_eq!(report.blast.as_ref().map(|b| b.number()), Some(0), "{r}");
        checked += 1;
    }
    assert!(checked >= min, "{checked} plans");
}

#[test]
fn plan_then_rollback_leaves_nothing_on_the_demo() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let parsed = common::parsed(&common::demo_dir());
    let db = common::state_db(&tmp.path().join("s.db"), &parsed);
    round_trips_leave_nothing(&db, 200, 1);
}

#[test]
fn plan_then_rollback_leaves_nothing_on_a_generated_network() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let parsed = parse_snapshot(&olav::synth::generate(120, 7).to_snapshot()).expect("parses");
    let db = common::state_db(&tmp.path().join("s.db"), &parsed);
    round_trips_leave_nothing(&db, 60, 7);
}

#[test]
fn what_the_internet_sees_before_and_after() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // The only session announcing beta's block goes: the block is withdrawn, and beta's
    // internet service is down. A removal: warnings.
    let plan = draft_any(tmp.path(), "remove the Telstra peer");
    let (v, f, r) = precheck(tmp.path(), &plan);
    assert_eq!(v, "WARN", "{f:#?}");
    assert!(
        has(
            &f,
            "warning",
            "prefix 10.30.0.0/16",
            "withdrawn from the internet"
        ),
        "{f:#?}"
    );
    assert!(
        has(
            &f,
            "warning",
            "service beta-internet",
            "critical service down"
        ),
        "{f:#?}"
    );
    let before = &r["announcements"]["before"];
    assert!(
        before
            .as_array()
            .expect("before")
            .iter()
            .any(|s| s["device"] == "alpha-border-1"
                && s["prefixes"] == serde_json::json!(["10.10.0.0/16", "10.20.0.0/16"])),
        "{before:#}"
    );
    // Removing the Null0 route that anchors the `network` statement withdraws it too —
    // an effect the plan does not declare: an error.
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "remove the static route 10.30.0.0/16 on beta-border-1",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL", "{f:#?}");
    assert!(
        has(
            &f,
            "error",
            "prefix 10.30.0.0/16",
            "withdrawn from the internet"
        ),
        "{f:#?}"
    );
    // An outbound policy olav cannot evaluate: "unknown", never "none".
    let plan = draft_any(
        tmp.path(),
        "set the description of beta-border-1 Ethernet3 to \"reserved\"",
    );
    edit(
        tmp.path(),
        &plan,
        "   description reserved",
        "   description reserved\n!\nroute-map TELSTRA-OUT permit 5\n   match community CUSTOMERS",
    );
    let (_, f, _) = precheck(tmp.path(), &plan);
    assert!(
        has(
            &f,
            "warning",
            "announcements",
            "community-list CUSTOMERS (undefined, or a form olav does not evaluate): olav cannot tell what is announced there"
        ),
        "{f:#?}"
    );
    assert!(
        !f.iter().any(|x| x.1.starts_with("prefix ")),
        "unknown is not withdrawn: {f:#?}"
    );
}

/// BGP unnumbered sessions ride their interface: shutting it ends them, named by the
/// interface, with no unknown peer in the blast radius.
#[test]
fn an_unnumbered_session_ends_with_its_interface() {
    let tmp = tempfile::tempdir().expect("tempdir");
    common::import(tmp.path(), &common::fixture("fidelity/unnumbered"));
    let plan = draft_any(tmp.path(), "shutdown leaf1 Ethernet1");
    let (_, f, _) = precheck(tmp.path(), &plan);
    assert!(
        has(
            &f,
            "warning",
            "leaf1 → Ethernet1",
            "ends with the interface the plan shuts"
        ),
        "{f:#?}"
    );
    assert!(
        !f.iter().any(|x| x.2.contains("not in the state DB")),
        "{f:#?}"
    );
}

#[test]
fn an_uplink_shut_or_a_border_removed_withdraws_what_it_announced() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(tmp.path(), "shutdown alpha-border-1 GigabitEthernet0/0/0");
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL", "{f:#?}");
    assert!(
        has(
            &f,
            "error",
            "prefix 10.10.0.0/16",
            "withdrawn from the internet"
        ),
        "{f:#?}"
    );
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(tmp.path(), "decommission alpha-border-1");
    let (_, f, r) = precheck(tmp.path(), &plan);
    assert!(
        has(
            &f,
            "warning",
            "prefix 10.20.0.0/16",
            "withdrawn from the internet"
        ),
        "{f:#?}"
    );
    assert!(
        !r["passed"]
            .as_array()
            .expect("passed")
            .iter()
            .any(|p| p.as_str().is_some_and(|p| p.contains("announced"))),
        "{r:#}"
    );
}

#[test]
fn a_hand_edit_that_widens_announcements_or_breaks_the_rollback_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "set the description of alpha-border-1 GigabitEthernet0/0/3 to \"reserved\"",
    );
    edit(
        tmp.path(),
        &plan,
        " description reserved",
        " description reserved\n!\nrouter bgp 65001\n address-family ipv4\n  no neighbor 203.0.113.2 route-map AARNET-OUT out",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "FAIL", "{f:#?}");
    assert!(
        has(
            &f,
            "error",
            "alpha-border-1 → 203.0.113.2",
            "did not before"
        ),
        "{f:#?}"
    );
    assert!(
        has(
            &f,
            "error",
            "alpha-border-1",
            "does not give back the stored configuration: BGP differ"
        ),
        "{f:#?}"
    );
}

/// A what-if is answered with a plan but is not a change: it claims nothing and blocks
/// no honest plan; a file whose plan id was edited supersedes its old registration.
#[test]
fn what_ifs_and_re_identified_files_leave_no_phantom_open_plans() {
    let tmp = tempfile::tempdir().expect("tempdir");
    draft_any(tmp.path(), "what if alpha-core-2 fails");
    let plan = draft_any(
        tmp.path(),
        "set the description of alpha-core-2 Ethernet10 to \"to beta\"",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    assert_eq!(v, "PASS", "{f:#?}");
    let out = olav(tmp.path())
        .args(["--format", "json", "plans", "list"])
        .output()
        .expect("runs");
    let open: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(open.as_array().map(Vec::len), Some(1), "{open:#}");
    // The same file, its id edited: one open plan, not two.
    edit(tmp.path(), &plan, "plan_id: ", "plan_id: edited-");
    precheck(tmp.path(), &plan);
    let out = olav(tmp.path())
        .args(["--format", "json", "plans", "list"])
        .output()
        .expect("runs");
    let open: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let ids: Vec<&str> = open
        .as_array()
        .expect("plans")
        .iter()
        .filter_map(|p| p["plan_id"].as_str())
        .collect();
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert!(ids[0].starts_with("edited-"), "{ids:?}");
}

/// What olav understood but cannot plan as asked is a refusal, with its reason.
#[test]
fn nothing_to_change_is_a_refusal_not_a_question() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args([
            "-q",
            "--format",
            "json",
            "--agent",
            "netops",
            "shutdown alpha-core-1 Ethernet11",
        ])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(v["clarification"]["kind"], "refusal", "{v:#}");
    assert!(
        v["clarification"]["refused"]
            .as_str()
            .is_some_and(|r| r.contains("already shut down")),
        "{v:#}"
    );
}

/// Both links between the sites shut: every iBGP session across them ends, though each
/// site still reaches its own anchors.
#[test]
fn splitting_the_network_ends_the_sessions_across_the_split() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(tmp.path(), "shutdown alpha-core-1 Ethernet10");
    let (_, f, _) = precheck(tmp.path(), &plan);
    assert!(
        !f.iter().any(|x| x.2.contains("splits the network")),
        "one link left: {f:#?}"
    );
    edit(
        tmp.path(),
        &plan,
        "interface Ethernet10\n   shutdown\n```",
        "interface Ethernet10\n   shutdown\n```\n\n```config device=alpha-core-2 os=eos\ninterface Ethernet10\n   shutdown\n```",
    );
    edit(
        tmp.path(),
        &plan,
        "interface Ethernet10\n   no shutdown\n```",
        "interface Ethernet10\n   no shutdown\n```\n\n```config device=alpha-core-2 os=eos\ninterface Ethernet10\n   no shutdown\n```",
    );
    let (v, f, _) = precheck(tmp.path(), &plan);
    // The hand-added shutdown on alpha-core-2 is beyond the request: it fails, and the
    // split is still shown.
    assert_eq!(v, "FAIL", "{f:#?}");
    assert!(
        has(
            &f,
            "error",
            "alpha-core-2 interface Ethernet10",
            "a plan wider than its request"
        ),
        "{f:#?}"
    );
    assert!(
        has(
            &f,
            "warning",
            "alpha-core-1 → 10.255.2.2",
            "splits the network"
        ),
        "{f:#?}"
    );
    assert!(
        has(
            &f,
            "warning",
            "beta-core-2 → 10.255.1.3",
            "splits the network"
        ),
        "{f:#?}"
    );
}

/// A neighbor that lives in a VRF is removed inside that VRF; and on a network with no
/// border or core role, isolation is said to be unknown, not none.
#[test]
fn a_vrf_neighbor_is_removed_in_its_vrf_and_unknown_isolation_is_said() {
    let tmp = tempfile::tempdir().expect("tempdir");
    common::import(tmp.path(), &common::fixture("checks/bgp-fidelity"));
    let plan = draft_any(tmp.path(), "decommission leak-global");
    let text = std::fs::read_to_string(tmp.path().join(&plan)).expect("plan");
    assert!(
        text.contains(" address-family ipv4 vrf CUSTOMER\n  neighbor 10.4.0.0 shutdown\n  no neighbor 10.4.0.0"),
        "{text}"
    );
    let (_, f, _) = precheck(tmp.path(), &plan);
    assert!(
        has(
            &f,
            "info",
            "leak-vrf → 10.4.0.0",
            "session ended by the plan"
        ),
        "{f:#?}"
    );
    assert!(!f.iter().any(|x| x.0 == "error"), "{f:#?}");
    // Two routers with no role and no external peer: nothing to measure isolation from.
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("snap");
    std::fs::create_dir_all(snap.join("configs")).expect("mkdir");
    for (h, a) in [("r1", "10.5.0.0"), ("r2", "10.5.0.1")] {
        std::fs::write(
            snap.join(format!("configs/{h}.cfg")),
            format!("hostname {h}\ninterface GigabitEthernet1\n ip address {a} 255.255.255.254\n!\nend\n"),
        )
        .expect("write");
    }
    common::import(tmp.path(), &snap);
    let plan = draft_any(tmp.path(), "decommission r2");
    let (_, f, _) = precheck(tmp.path(), &plan);
    assert!(
        has(
            &f,
            "warning",
            "blast radius",
            "isolation is unknown, not none"
        ),
        "{f:#?}"
    );
    // The plan says so too, rather than "Isolated devices: none".
    let text = std::fs::read_to_string(tmp.path().join(&plan)).expect("plan");
    assert!(
        text.contains("(removed 1 + isolated unknown)")
            && text.contains(
                "| Isolated devices | unknown: no device has a border, core, edge or spine role"
            ),
        "{text}"
    );
}
