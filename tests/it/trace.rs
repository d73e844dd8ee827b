//! `olav routes --trace` (the forwarding path through the computed RIBs) and `olav routes
//! --plan` (the routes a plan changes), on the demo.

use crate::common;

/// alpha-acc-1 reaches alpha-acc-2's VLAN 11 address through both distribution
/// switches (OSPF ECMP); the exit status says whether every RIB read was complete.
#[test]
fn trace_follows_both_ecmp_branches_on_the_demo() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = common::olav(dir.path())
        .args([
            "routes",
            "--trace",
            "alpha-acc-1",
            "10.10.11.1",
            "--format",
            "json",
        ])
        .output()
        .expect("olav runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    let branches = v["branches"].as_array().expect("branches");
    let paths: Vec<Vec<&str>> = branches
        .iter()
        .map(|b| {
            b["hops"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|h| h["node"].as_str())
                .collect()
        })
        .collect();
    assert_eq!(
        paths,
        [
            ["alpha-acc-1", "alpha-dist-1", "alpha-acc-2"],
            ["alpha-acc-1", "alpha-dist-2", "alpha-acc-2"]
        ],
        "{v}"
    );
    assert!(
        branches.iter().all(|b| b["disposition"] == "ACCEPTED"),
        "{v}"
    );
    assert_eq!(branches[0]["hops"][0]["protocol"], "ospf");
    assert_eq!(branches[0]["hops"][0]["egress"], "TenGigabitEthernet1/1/1");
    // Exit 3 exactly when a branch carries a caveat (an incomplete RIB on the way).
    let caveats = branches
        .iter()
        .any(|b| !b["caveats"].as_array().is_none_or(Vec::is_empty));
    assert_eq!(out.status.code(), Some(if caveats { 3 } else { 0 }), "{v}");

    let text = common::olav(dir.path())
        .args(["routes", "--trace", "alpha-acc-1", "10.10.11.1"])
        .output()
        .expect("olav runs");
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    assert!(
        text.starts_with(
            "alpha-acc-1 → 10.10.11.1 (VRF default): ACCEPTED at alpha-acc-2 — 2 branches"
        ),
        "{text}"
    );
    assert!(text
        .trim_end()
        .ends_with("olav routes --device alpha-acc-1 --prefix 10.10.11.1"));
}

/// The demo is true to itself (issue #25): every OSPF adjacency forms (IP MTUs equal
/// across vendors), so the only routes olav marks missing are the providers'; gamma's
/// office reaches the other sites and they reach it.
#[test]
fn the_demo_s_sites_reach_each_other_and_only_the_providers_routes_are_missing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = common::olav(dir.path())
        .args(["-q", "routes", "--format", "json"])
        .output()
        .expect("olav runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    let text = v.to_string();
    assert!(!text.contains("no OSPF adjacency"), "{text}");
    assert!(
        text.contains("BGP routes from peers outside the network"),
        "{text}"
    );
    for (from, to, at) in [
        ("beta-acc-1", "10.40.10.1", "gamma-border-1"),
        ("alpha-acc-2", "10.40.10.1", "gamma-border-1"),
        ("alpha-br-3560", "10.40.10.1", "gamma-border-1"),
        ("gamma-border-1", "10.20.110.1", "alpha-br-3560"),
        ("gamma-border-1", "10.30.10.1", "beta-acc-1"),
    ] {
        let out = common::olav(dir.path())
            .args(["-q", "routes", "--trace", from, to])
            .output()
            .expect("olav runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            text.starts_with(&format!("{from} → {to} (VRF default): ACCEPTED at {at}")),
            "{text}"
        );
    }
    // Beyond the office LAN, gamma's aggregate reaches the route reflectors over iBGP.
    let out = common::olav(dir.path())
        .args([
            "-q",
            "routes",
            "--device",
            "alpha-core-1",
            "--prefix",
            "10.40.20.0/24",
        ])
        .output()
        .expect("olav runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.contains("alpha-core-1  default  10.40.0.0/16  10.255.3.1  ibgp"),
        "{text}"
    );
}

/// A switch without a route for the address: NO_ROUTE, a complete answer (exit 0); a
/// source given as an address starts at the device that holds it.
#[test]
fn trace_without_a_route_is_no_route() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::olav(dir.path())
        .args(["routes", "--trace", "10.20.199.11", "10.10.10.1"])
        .assert()
        .code(0)
        .stdout(predicates::str::starts_with(
            "alpha-br-2960-1 → 10.10.10.1 (VRF default): NO_ROUTE at alpha-br-2960-1",
        ));
}

/// Bad sources and destinations are bad input (exit 2), named.
#[test]
fn trace_rejects_what_it_cannot_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::olav(dir.path())
        .args(["routes", "--trace", "alpha-acc-l", "10.0.0.1"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("did you mean alpha-acc-1?"));
    common::olav(dir.path())
        .args(["routes", "--trace", "alpha-acc-1", "alpha-acc-2"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--trace destination 'alpha-acc-2': expected an IPv4 address",
        ));
    common::olav(dir.path())
        .args(["routes", "--trace", "192.0.2.99", "10.0.0.1"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no device of the state holds"));
}

/// A plan shutting one of alpha-acc-1's two uplinks: its routes through that uplink
/// move to the other one (at a higher cost); alpha-acc-2, alpha-dist-1, the cores and
/// the branch switch lose the equal-cost paths through it (to alpha-acc-1's subnets).
/// The cable's far end (alpha-dist-1 TwentyFiveGigE1/0/5, seen by LLDP) goes down with
/// it, so the uplink's own subnet 10.0.1.16/31 leaves every router's table: that is all
/// that changes elsewhere.
#[test]
fn routes_plan_shows_the_routes_a_plan_moves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = common::draft_any(
        dir.path(),
        "shut down interface TenGigabitEthernet1/1/1 on alpha-acc-1",
    );
    let out = common::olav(dir.path())
        .args(["routes", "--plan", &plan, "--format", "json"])
        .output()
        .expect("olav runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    let changes = v["changes"].as_array().expect("changes");
    let nodes: Vec<&str> = changes.iter().filter_map(|c| c["node"].as_str()).collect();
    assert_eq!(
        nodes,
        [
            "alpha-acc-1",
            "alpha-acc-2",
            "alpha-border-1",
            "alpha-br-3560",
            "alpha-core-1",
            "alpha-core-2",
            "alpha-dist-1",
            "alpha-dist-2",
            "beta-acc-1",
            "beta-acc-2",
            "beta-border-1",
            "beta-core-1",
            "beta-core-2",
            "beta-dist-1",
            "beta-dist-2",
            "delta-core-1",
            "delta-leaf-1",
            "gamma-border-1"
        ],
        "{v}"
    );
    let far = ["alpha-border-1", "beta-acc-1", "gamma-border-1"];
    for c in changes
        .iter()
        .filter(|c| far.contains(&c["node"].as_str().unwrap_or("")))
    {
        assert!(
            c["added"].as_array().is_some_and(Vec::is_empty)
                && c["removed"]
                    .as_array()
                    .expect("removed")
                    .iter()
                    .all(|r| r["Network"] == "10.0.1.16/31"),
            "{c}"
        );
    }
    let acc1 = &changes[0];
    let removed = acc1["removed"].as_array().expect("removed");
    assert!(
        removed
            .iter()
            .any(|r| r["Protocol"] == "connected" && r["Network"] == "10.0.1.16/31"),
        "{v}"
    );
    // Every route added on alpha-acc-1 leaves by the remaining uplink.
    assert!(
        acc1["added"]
            .as_array()
            .expect("added")
            .iter()
            .all(|r| r["Next_Hop"]["interface"] == "TenGigabitEthernet1/1/2"),
        "{v}"
    );
    let code = out.status.code();
    // Exit 3 exactly when a RIB in scope is incomplete (changed or not).
    let partial = !v["incomplete_nodes"].as_array().is_none_or(Vec::is_empty);
    assert_eq!(code, Some(if partial { 3 } else { 0 }), "{v}");

    common::olav(dir.path())
        .args(["routes", "--plan", &plan, "--device", "alpha-acc-2"])
        .assert()
        .stdout(predicates::str::contains("changes 4 routes on 1 device"));
}

/// A static route whose next hop nothing resolves is said not to install; an unknown
/// device or VRF with --plan is bad input.
#[test]
fn routes_plan_names_a_static_route_that_does_not_install() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = common::draft_any(
        dir.path(),
        "add a static route to 10.98.0.0/16 via 10.77.7.7 on alpha-dist-1",
    );
    let out = common::olav(dir.path())
        .args(["routes", "--plan", &plan])
        .output()
        .expect("olav runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.contains("alpha-dist-1: 1 static route not installed after the plan"),
        "{text}"
    );
    common::olav(dir.path())
        .args(["routes", "--plan", &plan, "--device", "alpha-dist-l"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("did you mean alpha-dist-1?"));
    common::olav(dir.path())
        .args(["routes", "--plan", &plan, "--vrf", "nosuch"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--vrf 'nosuch': no VRF of that name",
        ));
}

/// The management VRF is not modelled: "not known", exit 3 — never "no route".
#[test]
fn the_management_vrf_is_not_known_rather_than_empty() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::olav(dir.path())
        .args(["routes", "--device", "alpha-acc-1", "--vrf", "Mgmt-intf"])
        .assert()
        .code(3)
        .stdout(predicates::str::starts_with(
            "UNKNOWN — VRF Mgmt-intf is the management plane's",
        ));
    common::olav(dir.path())
        .args(["routes", "--trace", "192.168.100.16", "192.168.100.1"])
        .assert()
        .code(3)
        .stdout(predicates::str::contains("INSUFFICIENT_INFO"));
    common::olav(dir.path())
        .args(["routes", "--vrf", "nosuch"])
        .assert()
        .code(2);
}

/// A less specific discard route in a RIB missing BGP is no verdict: INSUFFICIENT_INFO.
#[test]
fn a_discard_in_an_incomplete_rib_is_not_a_verdict() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = common::olav(dir.path())
        .args(["routes", "--trace", "alpha-border-1", "10.10.99.5"])
        .output()
        .expect("olav runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // The demo's border runs BGP with peers outside the network: its RIB is incomplete,
    // and no subnet of its aggregate's (10.10.0.0/16, to Null0) holds 10.10.99.5.
    assert!(
        text.contains("alpha-border-1's RIB is incomplete"),
        "{text}"
    );
    assert!(
        text.starts_with("alpha-border-1 → 10.10.99.5 (VRF default): INSUFFICIENT_INFO"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(3));
}

/// A Junos VRF importing routes by route target (an L3VPN) is never "complete": its
/// remote routes come over BGP VPN families olav does not compute (junos_l3vpn, a real
/// lab: the device's own CUSTOMERS table holds pe2's 10.100.2.0/24).
#[test]
fn a_vpn_vrf_is_incomplete_not_empty() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::olav(dir.path())
        .args(["state", "import"])
        .arg(common::fixture("lab-validation/junos_l3vpn"))
        .assert()
        .success();
    common::olav(dir.path())
        .args(["routes", "--device", "pe1", "--vrf", "CUSTOMERS"])
        .assert()
        .code(3)
        .stdout(predicates::str::contains(
            "BGP VPN (route-target import) routes are not computed yet — VRF CUSTOMERS: pe1",
        ));
    common::olav(dir.path())
        .args([
            "routes",
            "--trace",
            "pe1",
            "10.100.2.5",
            "--vrf",
            "CUSTOMERS",
        ])
        .assert()
        .code(3)
        .stdout(predicates::str::contains("INSUFFICIENT_INFO"));
}

/// A first-hop redundancy address as the source names the devices sharing it.
#[test]
fn a_shared_address_as_source_names_its_holders() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::olav(dir.path())
        .args(["state", "import"])
        .arg(common::fixture("lab-validation/ios_basic_vrrp"))
        .assert()
        .success();
    common::olav(dir.path())
        .args(["routes", "--trace", "192.168.1.254", "10.0.0.1"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("held by BR1, BR2"));
}

/// A plan whose lines name a device the state DB does not hold is bad input (exit 2), not
/// "no route changes"; `--rib bgp` is refused with `--plan` rather than ignored.
#[test]
fn routes_plan_refuses_an_unknown_device_and_the_bgp_rib() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = common::draft_any(dir.path(), "shut down interface Ethernet10 on alpha-core-1");
    let path = dir.path().join(&plan);
    let text = std::fs::read_to_string(&path).expect("plan");
    assert!(text.contains("device=alpha-core-1 "), "{text}");
    std::fs::write(
        &path,
        text.replace("device=alpha-core-1 ", "device=zeta-core-9 "),
    )
    .expect("written");
    let out = common::olav(dir.path())
        .args(["routes", "--plan", &plan])
        .output()
        .expect("olav runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("zeta-core-9, which is not in the state DB"),
        "{err}"
    );
    let out = common::olav(dir.path())
        .args(["routes", "--plan", &plan, "--rib", "bgp"])
        .output()
        .expect("olav runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--rib bgp with --plan"), "{err}");
}
