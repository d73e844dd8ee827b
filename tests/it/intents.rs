//! Every intent, end to end on the demo network through the binary: the request is read,
//! drafted, pre-checked and verified (the static fallback: no Batfish answers here), and
//! `olav check --plan` finds no problem in the candidate network.

use crate::common::{self, olav};
use std::collections::BTreeSet;

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
    ("decommission_device", "Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose"),
    ("decommission_device", "decommission alpha-br-2960-1 and alpha-br-2960-2"),
    ("decommission_device", "what if alpha-core-1 fails?"),
    ("decommission_interface", "decommission interface Gi0/0/3 on alpha-border-1"),
    ("decommission_link", "remove the link between alpha-dist-1 and alpha-br-3560"),
    ("add_uplink", "add a redundant eBGP uplink to the Telia peer on gamma-border-1"),
    ("decommission_device", "decommission gamma-border-1, what do we lose"),
    ("decommission_device", "what if alpha-core-2 fails?"),
    ("modify_interface", "shutdown gamma-border-1 xe-0/1/3"),
    ("add_static_route", "add a static route to 10.99.0.0/16 via 10.40.10.30 on gamma-border-1"),
    ("remove_static_route", "remove the static route 10.40.20.0/24 on gamma-border-1"),
    ("add_static_route", "add a static route 10.99.0.0/16 -> Null0 on alpha-border-1"),
    ("add_static_route", "blackhole 10.66.0.0/16 on gamma-border-1"),
    ("modify_interface", "set description on alpha-core-1 Et11 to planned link to beta-core-2"),
    ("decommission_peer", "drop the Telstra peer"),
    ("modify_interface", "bring Et11 on alpha-core-1 back up"),
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

/// Every intent on the demo's Junos router drafts Junos lines: `set` / `delete` to apply,
/// a rollback of `delete` / `set` lines from the stored config, Junos `show` commands.
/// A request, its intent, lines the plan applies, lines of its rollback, show commands.
type JunosCase = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
);

const JUNOS: &[JunosCase] = &[
    (
        "add a redundant eBGP uplink to the Telia peer on gamma-border-1",
        "add_uplink",
        &[
            "delete interfaces xe-0/1/4 disable",
            "set interfaces xe-0/1/4 description \"Telia transit (AS1299) - redundant uplink\"",
            "set interfaces xe-0/1/4 unit 0 family inet filter input EDGE-IN",
            "set interfaces xe-0/1/4 unit 0 family inet address 62.115.152.1/30",
            "set protocols bgp group TRANSIT-TELIA neighbor 62.115.152.2 description \"Telia transit (AS1299) - redundant uplink\"",
        ],
        &[
            "delete protocols bgp group TRANSIT-TELIA neighbor 62.115.152.2",
            "delete interfaces xe-0/1/4",
            "set interfaces xe-0/1/4 description spare",
            "set interfaces xe-0/1/4 disable",
        ],
        &["show bgp neighbor 62.115.152.2", "show route receive-protocol bgp 62.115.152.2"],
    ),
    (
        "add an eBGP peering to Cogent AS174 on gamma-border-1 link 198.18.0.1/31",
        "add_peering",
        &[
            "set interfaces xe-0/1/4 unit 0 family inet address 198.18.0.1/31",
            "set protocols bgp group EBGP-COGENT type external",
            "set protocols bgp group EBGP-COGENT peer-as 174",
            "set protocols bgp group EBGP-COGENT neighbor 198.18.0.0 description \"Cogent transit (AS174)\"",
        ],
        &["delete protocols bgp group EBGP-COGENT", "delete interfaces xe-0/1/4", "set interfaces xe-0/1/4 disable"],
        &["show bgp neighbor 198.18.0.0"],
    ),
    (
        "remove the BGP neighbor 10.255.1.2 on gamma-border-1",
        "remove_session",
        &["delete protocols bgp group IBGP-RR neighbor 10.255.1.2"],
        &["set protocols bgp group IBGP-RR neighbor 10.255.1.2 description alpha-core-1"],
        &["show bgp summary"],
    ),
    (
        "remove the Telia peer",
        "decommission_peer",
        &["delete protocols bgp group TRANSIT-TELIA neighbor 62.115.152.90"],
        &["set protocols bgp group TRANSIT-TELIA neighbor 62.115.152.90 description \"Telia transit (AS1299)\""],
        &["show bgp summary"],
    ),
    (
        "shutdown gamma-border-1 xe-0/1/3",
        "modify_interface",
        &["set interfaces xe-0/1/3 disable"],
        &["delete interfaces xe-0/1/3 disable"],
        &["show interfaces xe-0/1/3 terse"],
    ),
    (
        "bring up gamma-border-1 xe-0/1/4",
        "modify_interface",
        &["delete interfaces xe-0/1/4 disable"],
        &["set interfaces xe-0/1/4 disable"],
        &["show interfaces xe-0/1/4 terse"],
    ),
    (
        // 9214: the IP MTU the port (mtu 9228) gives already and the far end's (9000
        // would not be: precheck.rs checks that it fails).
        "change the MTU on gamma-border-1 xe-0/1/0.0 to 9214",
        "modify_interface",
        &["set interfaces xe-0/1/0 unit 0 family inet mtu 9214"],
        &["delete interfaces xe-0/1/0 unit 0 family inet mtu"],
        &["show ospf neighbor"],
    ),
    (
        "set the description of gamma-border-1 xe-0/1/3 to \"gamma office LAN (moved)\"",
        "modify_interface",
        &["set interfaces xe-0/1/3 description \"gamma office LAN (moved)\""],
        &["delete interfaces xe-0/1/3 description", "set interfaces xe-0/1/3 description \"gamma office LAN\""],
        &["show configuration interfaces xe-0/1/3"],
    ),
    (
        "change the ip address on gamma-border-1 xe-0/1/3.0 to 10.40.11.1/24",
        "modify_interface",
        &[
            "delete interfaces xe-0/1/3 unit 0 family inet address 10.40.10.1/24",
            "set interfaces xe-0/1/3 unit 0 family inet address 10.40.11.1/24",
        ],
        &[
            "delete interfaces xe-0/1/3 unit 0 family inet address 10.40.11.1/24",
            "set interfaces xe-0/1/3 unit 0 family inet address 10.40.10.1/24",
        ],
        &["show interfaces xe-0/1/3.0 terse"],
    ),
    (
        "add a static route to 10.99.0.0/16 via 10.40.10.30 on gamma-border-1",
        "add_static_route",
        &["set routing-options static route 10.99.0.0/16 next-hop 10.40.10.30"],
        &["delete routing-options static route 10.99.0.0/16"],
        &["show route 10.99.0.0/16 exact"],
    ),
    (
        "remove the static route 10.40.20.0/24 on gamma-border-1",
        "remove_static_route",
        &["delete routing-options static route 10.40.20.0/24"],
        &["set routing-options static route 10.40.20.0/24 next-hop 10.40.10.20"],
        &["show route 10.40.20.0/24 exact"],
    ),
    (
        "decommission interface xe-0/1/3 on gamma-border-1",
        "decommission_interface",
        &["set interfaces xe-0/1/3 description DECOMMISSIONED", "set interfaces xe-0/1/3 disable"],
        &["set interfaces xe-0/1/3 description \"gamma office LAN\"", "delete interfaces xe-0/1/3 disable"],
        &["show interfaces terse"],
    ),
    (
        "remove the link between gamma-border-1 and alpha-core-1",
        "decommission_link",
        &["set interfaces xe-0/1/0 description \"DECOMMISSIONED - was alpha-core-1 Ethernet12\"", "set interfaces xe-0/1/0 disable"],
        &["set interfaces xe-0/1/0 description \"alpha-core-1 Ethernet12\"", "delete interfaces xe-0/1/0 disable"],
        &["show interfaces terse", "show ospf neighbor"],
    ),
    (
        "what if alpha-core-2 fails?",
        "decommission_device",
        &["set interfaces xe-0/1/1 disable", "delete protocols bgp group IBGP-RR neighbor 10.255.1.3"],
        &["set interfaces xe-0/1/1 description \"alpha-core-2 Ethernet12\"", "set protocols bgp group IBGP-RR neighbor 10.255.1.3 description alpha-core-2"],
        &["show bgp summary"],
    ),
];

/// The Junos block of a plan section (`## Implementation`, `## Rollback`) for gamma-border-1.
fn junos_block<'a>(plan: &'a str, section: &str) -> &'a str {
    let from = plan
        .find(section)
        .unwrap_or_else(|| panic!("{section}: {plan}"));
    let rest = &plan[from..];
    let start = rest
        .find("```config device=gamma-border-1 os=junos\n")
        .unwrap_or_else(|| panic!("a Junos block in {section}: {plan}"));
    let block = &rest[start..];
    let body = &block[block.find('\n').map_or(0, |i| i + 1)..];
    &body[..body.find("```").unwrap_or(body.len())]
}

#[test]
fn every_intent_on_the_junos_router_drafts_junos_lines() {
    for (request, intent, apply, rollback, checks) in JUNOS {
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = olav(tmp.path())
            .args(["-q", "--format", "json", "--agent", "netops", request])
            .output()
            .expect("runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{request}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(v["status"], "ok", "{request}: {v:#}");
        let steps = v["steps"].as_array().expect("steps");
        assert_ne!(
            steps[1]["verdict"], "FAIL",
            "{request}: {}",
            steps[1]["reply"]
        );
        let plan_path = steps[0]["artifact"].as_str().expect("plan path");
        let plan = std::fs::read_to_string(tmp.path().join(plan_path)).expect("plan");
        assert!(
            plan.contains(&format!("intent: {intent}\n")),
            "{request}: {plan}"
        );
        let (a, r) = (
            junos_block(&plan, "## Implementation"),
            junos_block(&plan, "## Rollback"),
        );
        for l in *apply {
            assert!(a.lines().any(|x| x == *l), "{request}: `{l}` in\n{a}");
        }
        for l in *rollback {
            assert!(
                r.lines().any(|x| x == *l),
                "{request}: `{l}` in rollback\n{r}"
            );
        }
        // Junos syntax only: no Cisco-style line in a Junos block.
        for x in a.lines().chain(r.lines()) {
            assert!(
                ["set ", "delete ", "deactivate "]
                    .iter()
                    .any(|p| x.starts_with(p)),
                "{request}: `{x}`"
            );
        }
        for c in *checks {
            assert!(plan.contains(c), "{request}: `{c}` in verification: {plan}");
        }
        let on_junos = plan
            .split("On gamma-border-1")
            .nth(1)
            .and_then(|v| v.split("```").nth(1))
            .unwrap_or_else(|| panic!("{request}: commands for gamma-border-1: {plan}"));
        assert!(
            !on_junos.contains("show ip "),
            "{request}: Cisco show commands for Junos: {on_junos}"
        );
    }
}

/// One next hop of a `next-hop [ A B ]` list cannot be removed faithfully: refused with
/// the reason, never drafted wrongly.
#[test]
fn a_junos_plan_on_another_lab_and_the_one_refusal() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("lab");
    std::fs::create_dir_all(snap.join("configs")).expect("mkdir");
    std::fs::write(
        snap.join("configs/jx1.cfg"),
        "system { host-name jx1; }\ninterfaces {\n    ge-0/0/0 { unit 0 { family inet { address 10.1.0.1/24; } } }\n    ge-0/0/1 { unit 0 { family inet { address 10.2.0.1/24; } } }\n}\nrouting-options {\n    static {\n        route 10.9.0.0/16 next-hop [ 10.1.0.2 10.2.0.2 ];\n    }\n}\n",
    )
    .expect("write");
    common::import(tmp.path(), &snap);
    let out = olav(tmp.path())
        .args([
            "-q",
            "--agent",
            "netops",
            "remove the static route 10.9.0.0/16 via 10.2.0.2 on jx1",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("configured as one list"), "{text}");
    let out = olav(tmp.path())
        .args(["-q", "--agent", "netops", "shutdown jx1 ge-0/0/1"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let path = text
        .lines()
        .find_map(|l| l.strip_prefix("PLAN_PATH: "))
        .unwrap_or_else(|| panic!("a plan: {text}"));
    let plan = std::fs::read_to_string(tmp.path().join(path)).expect("plan");
    assert!(plan.contains("set interfaces ge-0/0/1 disable\n"), "{plan}");
}

/// The Junos router announces its aggregate from a discard route through its export
/// policy: removing the route withdraws the prefix from the internet, and the pre-check
/// fails the plan for it.
#[test]
fn removing_the_junos_aggregate_route_withdraws_it_and_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args([
            "-q",
            "--agent",
            "netops",
            "remove the static route 10.40.0.0/16 on gamma-border-1",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("no provider hears 10.40.0.0/16 after the plan (announced before via gamma-border-1 → 62.115.152.90 (AS1299))"),
        "{text}"
    );
    let path = text
        .lines()
        .find_map(|l| l.strip_prefix("PLAN_PATH: "))
        .unwrap_or_else(|| panic!("a plan: {text}"));
    let plan = std::fs::read_to_string(tmp.path().join(path)).expect("plan");
    assert!(
        plan.contains("\ndelete routing-options static route 10.40.0.0/16\n"),
        "{plan}"
    );
    assert!(
        plan.contains("\nset routing-options static route 10.40.0.0/16 discard\n"),
        "{plan}"
    );
}

/// The branch switch's only default route removed: the branch's services lose the
/// internet (traced towards it), an error the request does not declare — the static
/// routes check's warning about the last default alone would understate it.
#[test]
fn removing_the_branch_default_cuts_its_services_off_the_internet() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args([
            "-q",
            "--format",
            "json",
            "remove the static route 0.0.0.0/0 on alpha-br-3560",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let findings = v["findings"].as_array().expect("findings");
    assert!(
        findings.iter().any(|f| f["code"] == "precheck.blackhole"
            && f["severity"] == "error"
            && f["element"] == "service alpha-branch-data: alpha-br-3560 → the internet"),
        "{v:#}"
    );
}

/// "pull the running config from X" (a ticket's "pull" reads as "remove") names a
/// device's configuration, not the device: refused, never a decommission of the router
/// nor an interface brought up ("back up the config").
#[test]
fn fetching_a_device_s_config_or_logs_is_never_a_decommission() {
    for request in [
        "pull the running config from alpha-core-1",
        "remove the running config from alpha-core-1",
        "pull the logs from alpha-core-1",
        "back up the config of alpha-border-1",
        "save the running-config on alpha-acc-1 Vlan10",
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = olav(tmp.path())
            .args(["-q", "--agent", "netops", request])
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{request}: {text}");
        assert!(!text.contains("Understood:"), "{request}: {text}");
    }
}

/// A request on an IOS-XR or FRR network: the snapshot, the request, its intent, and a
/// line its plan applies and one of its rollback on `device`.
type DialectCase = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

const XR_RR: &str = "lab-validation/iosxr_ibgp_rr_over_ospf";
const XR_EBGP: &str = "lab-validation/iosxr_ebgp_basic";
const FRR: &str = "dialect/frr-net";

const XR_AND_FRR: &[DialectCase] = &[
    (
        XR_EBGP,
        "add an eBGP peering to Cogent AS174 on border01 link 198.18.0.1/31",
        "add_peering",
        "border01",
        "  remote-as 174",
        " no neighbor 198.18.0.0",
    ),
    (
        FRR,
        "add an eBGP peering to Cogent AS174 on spine1 link 198.18.0.1/31",
        "add_peering",
        "spine1",
        " neighbor 198.18.0.0 remote-as 174",
        " no neighbor 198.18.0.0",
    ),
    (
        FRR,
        "add a redundant uplink to AS7575 on leaf1",
        "add_uplink",
        "leaf1",
        "  neighbor 10.0.0.6 route-map PASS out",
        " no ip address 10.0.0.5/30",
    ),
    (
        XR_EBGP,
        "set the description of border01 GigabitEthernet0/0/0/2 to \"spare\"",
        "modify_interface",
        "border01",
        " description spare",
        " no description",
    ),
    (
        XR_EBGP,
        "bring up border01 GigabitEthernet0/0/0/2",
        "modify_interface",
        "border01",
        " no shutdown",
        " shutdown",
    ),
    (
        XR_EBGP,
        "change the MTU on border01 GigabitEthernet0/0/0/2 to 9000",
        "modify_interface",
        "border01",
        " mtu 9000",
        " no mtu",
    ),
    (
        XR_EBGP,
        "change the ip address on border01 GigabitEthernet0/0/0/2 to 10.0.50.0/31",
        "modify_interface",
        "border01",
        " ipv4 address 10.0.50.0 255.255.255.254",
        " no ipv4 address",
    ),
    (
        XR_RR,
        "add a static route to 192.168.122.0/25 via 10.188.248.18 on border01",
        "add_static_route",
        "border01",
        "  192.168.122.0/25 10.188.248.18",
        "  no 192.168.122.0/25 10.188.248.18",
    ),
    (
        XR_EBGP,
        "blackhole 10.66.0.0/16 on border01",
        "add_static_route",
        "border01",
        "  10.66.0.0/16 Null0",
        "  no 10.66.0.0/16 Null0",
    ),
    (
        XR_EBGP,
        "remove the static route 192.168.123.3/32 on azure",
        "remove_static_route",
        "azure",
        "  no 192.168.123.3/32 10.103.127.1",
        "  192.168.123.3/32 10.103.127.1",
    ),
    (
        XR_EBGP,
        "remove the BGP neighbor 10.103.127.6 on border01",
        "remove_session",
        "border01",
        "  no neighbor 10.103.127.6",
        "   remote-as 65300",
    ),
    (
        XR_RR,
        "remove the BGP neighbor 10.169.6.152 on border01",
        "remove_session",
        "border01",
        " no neighbor 10.169.6.152",
        " neighbor 10.169.6.152",
    ),
    (
        XR_EBGP,
        "decommission interface GigabitEthernet0/0/0/1.35 on border01",
        "decommission_interface",
        "border01",
        " shutdown",
        " no shutdown",
    ),
    (
        XR_EBGP,
        "decommission azure",
        "decommission_device",
        "border01",
        " description DECOMMISSIONED - was azure GigabitEthernet0/0/0/1.35",
        " description Azure-EAST",
    ),
    (
        XR_RR,
        "what if RR fails?",
        "decommission_device",
        "border01",
        " shutdown",
        " no shutdown",
    ),
    (
        XR_RR,
        "remove the link between border01 and border02",
        "decommission_link",
        "border02",
        " shutdown",
        " no shutdown",
    ),
    (
        FRR,
        "set the description of spine1 eth2 to \"spare port\"",
        "modify_interface",
        "spine1",
        " description spare port",
        " description spare",
    ),
    (
        FRR,
        "bring up spine1 eth2",
        "modify_interface",
        "spine1",
        " no shutdown",
        " shutdown",
    ),
    (
        FRR,
        "remove the description on spine1 eth1",
        "modify_interface",
        "spine1",
        " no description",
        " description to-leaf1",
    ),
    (
        FRR,
        "change the ip address on spine1 eth2 to 10.0.50.0/31",
        "modify_interface",
        "spine1",
        " ip address 10.0.50.0/31",
        " no ip address 10.0.50.0/31",
    ),
    (
        FRR,
        "add a static route to 10.99.0.0/16 via 10.0.1.1 on spine1",
        "add_static_route",
        "spine1",
        "ip route 10.99.0.0/16 10.0.1.1",
        "no ip route 10.99.0.0/16 10.0.1.1",
    ),
    (
        FRR,
        "blackhole 10.66.0.0/16 on spine1",
        "add_static_route",
        "spine1",
        "ip route 10.66.0.0/16 blackhole",
        "no ip route 10.66.0.0/16 blackhole",
    ),
    (
        FRR,
        "remove the static route 10.200.0.0/16 on spine1",
        "remove_static_route",
        "spine1",
        "no ip route 10.200.0.0/16 10.0.1.1",
        "ip route 10.200.0.0/16 10.0.1.1",
    ),
    (
        FRR,
        "remove the static route 192.0.2.0/24 on leaf1",
        "remove_static_route",
        "leaf1",
        "no ip route 192.0.2.0/24 10.0.0.2",
        "ip route 192.0.2.0/24 10.0.0.2",
    ),
    (
        FRR,
        "remove the BGP neighbor 10.0.1.1 on spine1",
        "remove_session",
        "spine1",
        " no neighbor 10.0.1.1",
        " neighbor 10.0.1.1 description leaf1",
    ),
    (
        FRR,
        "remove the BGP neighbor 10.12.11.2 on cumulusfrr1",
        "remove_session",
        "cumulusfrr1",
        " no neighbor 10.12.11.2",
        "  neighbor 10.12.11.2 route-map com_test1 out",
    ),
    (
        FRR,
        "decommission interface eth2 on spine1",
        "decommission_interface",
        "spine1",
        " description DECOMMISSIONED",
        " description spare",
    ),
    (
        FRR,
        "decommission leaf1",
        "decommission_device",
        "spine1",
        " description DECOMMISSIONED - was leaf1 swp1",
        " description to-leaf1",
    ),
    (
        FRR,
        "remove the link between leaf1 and spine1",
        "decommission_link",
        "spine1",
        " shutdown",
        " no shutdown",
    ),
];

/// The body of `device`'s block in a plan section, as the device is told it.
fn block_of<'a>(plan: &'a str, section: &str, device: &str, os: &str) -> &'a str {
    let rest = &plan[plan
        .find(section)
        .unwrap_or_else(|| panic!("{section}: {plan}"))..];
    let head = format!("```config device={device} os={os}\n");
    let block = &rest[rest
        .find(&head)
        .unwrap_or_else(|| panic!("{head} in {section}: {plan}"))
        + head.len()..];
    &block[..block.find("```").unwrap_or(block.len())]
}

/// Every intent drafts on IOS-XR and FRR, end to end, a new provider session too: the
/// device's own framing (`configure` … `commit` / vtysh's `configure terminal` … `end`,
/// `write memory`), its words, a pre-check that does not fail, no problem introduced;
/// an FRR MTU is refused by name.
#[test]
fn every_intent_drafts_in_iosxr_and_frr() {
    for (snapshot, request, intent, device, apply, rollback) in XR_AND_FRR {
        let tmp = tempfile::tempdir().expect("tempdir");
        common::import(tmp.path(), &common::fixture(snapshot));
        let out = olav(tmp.path())
            .args(["-q", "--format", "json", "--agent", "netops", request])
            .output()
            .expect("runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{request}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(out.status.code(), Some(0), "{request}: {v:#}");
        let steps = v["steps"].as_array().expect("steps");
        assert_ne!(
            steps[1]["verdict"], "FAIL",
            "{request}: {}",
            steps[1]["reply"]
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
        let xr = *snapshot != FRR;
        let os = if xr { "iosxr" } else { "frr" };
        for (section, line) in [("## Implementation", apply), ("## Rollback", rollback)] {
            let b = block_of(&plan, section, device, os);
            assert!(
                b.lines().any(|l| l == *line),
                "{request}: `{line}` in {section}\n{b}"
            );
            let (first, last) = if xr {
                ("configure\n", "commit\nend\n")
            } else {
                ("configure terminal\n", "end\nwrite memory\n")
            };
            assert!(
                b.starts_with(first) && b.ends_with(last),
                "{request}: {section}\n{b}"
            );
            // No other dialect's words.
            for l in b.lines() {
                let t = l.trim();
                if xr {
                    assert!(
                        !t.starts_with("ip ") && !t.starts_with("no ip "),
                        "{request}: `{l}`"
                    );
                } else {
                    assert!(!t.starts_with("ipv4 ") && t != "commit", "{request}: `{l}`");
                }
            }
        }
        // The plan introduces no problem: the candidate network's are among the stored
        // network's (the handmade FRR leaf keeps a session each way on purpose).
        let problems = |args: &[&str]| -> BTreeSet<String> {
            let out = olav(tmp.path()).args(args).output().expect("runs");
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|l| l.starts_with("  ") && !l.trim_start().starts_with("Next:"))
                // Where a problem sits moves with the candidate's lines.
                .map(|l| match l.rfind(" (") {
                    Some(i) if l[i..].contains("configs/") => l[..i].to_owned(),
                    _ => l.to_owned(),
                })
                .collect()
        };
        let before = problems(&["-q", "check"]);
        let mut after = problems(&["-q", "check", "--plan", plan_path]);
        // A link's decommission ends the sessions over it (the pre-check says so); their
        // neighbors stay configured, without a local address.
        if *intent == "decommission_link" {
            after.retain(|p| !p.ends_with("NO_LOCAL_IP"));
        }
        assert!(
            after.is_subset(&before),
            "{request}: introduced {:?}",
            after.difference(&before).collect::<Vec<_>>()
        );
    }
    // What FRR does not hold is refused by name.
    let tmp = tempfile::tempdir().expect("tempdir");
    common::import(tmp.path(), &common::fixture(FRR));
    let request = "change the MTU on spine1 eth2 to 9000";
    let out = olav(tmp.path())
        .args(["-q", "--agent", "netops", request])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{request}: {text}");
    assert!(
        text.contains("FRR does not hold an interface's MTU"),
        "{request}: {text}"
    );
}
