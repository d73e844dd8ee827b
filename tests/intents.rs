//! Every intent, end to end on the demo network through the binary: the request is read,
//! drafted, pre-checked and verified (the static fallback: no Batfish answers here), and
//! `olav check --plan` finds no problem in the candidate network.

mod common;
use common::olav;
use std::path::Path;

const REQUESTS: &[(&str, &str)] = &[
    ("add_uplink", "Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router"),
    ("add_peering", "add an eBGP peering to Cogent AS174 on alpha-border-1 link 198.18.0.1/31"),
    ("remove_session", "remove the BGP neighbor 10.255.1.2 on alpha-border-1"),
    ("decommission_peer", "remove the AARNet peer"),
    ("modify_interface", "shutdown alpha-core-1 Ethernet10"),
    ("modify_interface", "bring up alpha-core-1 Ethernet11"),
    ("modify_interface", "set the description of alpha-core-1 Ethernet11 to \"to beta-core-2 (planned)\""),
    ("modify_interface", "remove the description on alpha-core-1 Ethernet10"),
    ("modify_interface", "change the MTU on alpha-core-1 Ethernet11 to 9000"),
    ("modify_interface", "change the ip address on alpha-core-1 Ethernet11 to 10.0.50.0/31"),
    ("add_static_route", "add a static route to 10.99.0.0/16 via 10.0.1.6 on alpha-dist-1"),
    ("remove_static_route", "remove the static route 0.0.0.0/0 on alpha-br-3560"),
    ("decommission_device", "Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose"),
    ("decommission_device", "decommission alpha-br-2960-1 and alpha-br-2960-2"),
    ("decommission_device", "what if alpha-core-1 fails?"),
    ("decommission_interface", "decommission interface Gi0/0/3 on alpha-border-1"),
    ("decommission_link", "remove the link between alpha-dist-1 and alpha-br-3560"),
];

#[test]
fn every_intent_runs_end_to_end_and_introduces_no_problem() {
    for (intent, request) in REQUESTS {
        // Each request on its own copy of the demo: open plans claim what they use.
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = olav(tmp.path())
            .args(["-q", "--format", "json", "--agent", "netops", request])
            .output()
            .expect("runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{request}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(out.status.code(), Some(0), "{request}: {v:#}");
        assert_eq!(v["status"], "ok", "{request}");
        let steps = v["steps"].as_array().expect("steps");
        let draft = steps[0]["reply"].as_str().unwrap_or_default();
        assert!(draft.starts_with("Understood: "), "{request}: {draft}");
        assert_ne!(
            steps[1]["verdict"], "FAIL",
            "{request}: {}",
            steps[1]["reply"]
        );
        assert_eq!(
            steps[2]["verdict"], "UNVERIFIED",
            "{request}: {}",
            steps[2]["reply"]
        );
        let verify = steps[2]["reply"].as_str().unwrap_or_default();
        assert!(
            verify.contains(" 0 problem(s) introduced by the plan"),
            "{request}: {verify}"
        );
        let plan_path = steps[0]["artifact"].as_str().expect("plan path");
        let plan = std::fs::read_to_string(tmp.path().join(plan_path)).expect("plan");
        assert!(
            plan.contains(&format!("intent: {intent}\n")),
            "{request}: {plan}"
        );
        assert!(plan.contains("\n> Understood: "), "{request}");
        let check = olav(tmp.path())
            .args(["-q", "check", "--plan", plan_path])
            .output()
            .expect("runs");
        assert_eq!(
            check.status.code(),
            Some(0),
            "{request}: {}",
            String::from_utf8_lossy(&check.stdout)
        );
    }
}

/// A plan that would configure a Junos device is refused, not drafted in Cisco syntax.
#[test]
fn a_plan_for_a_junos_device_is_refused_until_junos_is_drafted() {
    let tmp = tempfile::tempdir().expect("tempdir");
    olav(tmp.path())
        .args(["-q", "state", "import"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/checks/junos"))
        .assert()
        .success();
    for request in ["shutdown jx-core1 ge-0/0/1", "decommission ios-acc"] {
        let out = olav(tmp.path())
            .args(["-q", "--agent", "netops", request])
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{request}: {text}");
        assert!(
            text.contains("olav does not draft Junos configuration yet"),
            "{request}: {text}"
        );
        assert!(!text.contains("PLAN_PATH:"), "{request}: {text}");
    }
}
