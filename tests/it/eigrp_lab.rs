//! The routing-aware pre-check through the binary on a real EIGRP lab,
//! `fixtures/lab-validation/iosxe_redistribution` (batfish/lab-validation): D1_redist is a
//! hub with one link to each of D2_static (a static default back), D3_eigrp (EIGRP only,
//! its one adjacency to D1 over D3 GigabitEthernet1 – D1 GigabitEthernet2), D4_bgp (eBGP)
//! and D5_ospf (OSPF only); D1 redistributes between all of them through prefix-list
//! route-maps. A star: no path in it is redundant, so the "one of two paths" control has
//! nothing to shut here (the demo's tests carry it).

use crate::common::{self, draft_any, findings, olav, precheck_report as precheck};

/// A fresh folder with the lab imported as users do.
fn lab() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    common::import(
        dir.path(),
        &common::fixture("lab-validation/iosxe_redistribution"),
    );
    dir
}

/// The example: a static route on the EIGRP-only router whose next hop (D1's
/// loopback) only EIGRP resolves, towards a router with no route for the prefix. The
/// reason is the blackhole at D1, never "the device runs no routing protocol".
#[test]
fn a_static_route_to_a_router_without_the_prefix_is_a_blackhole_there() {
    let dir = lab();
    let plan = draft_any(
        dir.path(),
        "add a static route to 10.99.0.0/16 via 192.168.123.1 on D3_eigrp",
    );
    let (code, report) = precheck(dir.path(), &plan);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["verdict"], "FAIL");
    let f = findings(&report);
    assert!(
        f.iter().any(|(c, s, e, m)| c == "precheck.blackhole"
            && s == "error"
            && e.contains("10.99.0.0/16 on D3_eigrp")
            && m.contains("dropped at D1_redist: no route for 10.99.0.1")
            && m.contains("D3_eigrp (GigabitEthernet1) → D1_redist")),
        "{f:#?}"
    );
    assert!(
        !f.iter()
            .any(|(_, _, _, m)| m.contains("runs no routing protocol")),
        "{f:#?}"
    );
    // The next hop resolved through EIGRP: no finding says it does not install.
    assert!(
        !f.iter()
            .any(|(c, s, _, _)| c == "precheck.static_routes" && s == "error"),
        "{f:#?}"
    );
}

/// The same route towards a prefix D1 does route (its connected 10.12.11.0/24): the
/// traffic arrives, no error. D3's own RIB stays incomplete (D1's redistribution of BGP
/// and OSPF into EIGRP is not computed yet), so whether the network already gives D3 a
/// route there is said to be unknown, not asserted.
#[test]
fn a_static_route_to_a_router_that_routes_the_prefix_is_no_error() {
    let dir = lab();
    let plan = draft_any(
        dir.path(),
        "add a static route to 10.12.11.0/24 via 192.168.123.1 on D3_eigrp",
    );
    let (code, report) = precheck(dir.path(), &plan);
    assert_eq!(code, 0, "{report:#}");
    let f = findings(&report);
    assert!(!f.iter().any(|(_, s, _, _)| s == "error"), "{f:#?}");
    assert!(
        !f.iter().any(|(c, _, _, _)| c == "precheck.blackhole"),
        "{f:#?}"
    );
    assert!(
        f.iter()
            .all(|(_, s, _, m)| s != "warning" || m.contains("olav cannot tell")),
        "{f:#?}"
    );
}

/// The hub's RIB is complete (its own externals never come back to it); the EIGRP and
/// OSPF spokes are incomplete by what D1 redistributes from BGP and OSPF, named; D3 has
/// D1's loopback through EIGRP (a prefix-list route-map, computed).
#[test]
fn the_hub_is_complete_and_the_spokes_name_what_is_not_computed() {
    let dir = lab();
    olav(dir.path())
        .args(["routes", "--device", "D1_redist"])
        .assert()
        .success();
    olav(dir.path())
        .args(["routes", "--device", "D3_eigrp"])
        .assert()
        .code(3)
        .stdout(predicates::str::contains(
            "EIGRP redistribution of bgp (D1_redist) not computed yet",
        ))
        .stdout(predicates::str::contains(
            "192.168.123.1/32  10.13.21.1 via GigabitEthernet1  eigrpEX    2585856",
        ));
}

/// Shutting D3's only EIGRP adjacency: the routes lost are named, device by device (D3
/// loses D1's loopback), and D3's loopback, which D1 and (through BGP) D4 routed, leaves
/// the network's routing: withdrawn, an error — never "0 prefixes".
#[test]
fn losing_the_only_eigrp_adjacency_names_the_routes_lost() {
    let dir = lab();
    let plan = draft_any(dir.path(), "shutdown D3_eigrp GigabitEthernet1");
    let (code, report) = precheck(dir.path(), &plan);
    assert_eq!(report["verdict"], "FAIL", "{report:#}");
    assert_eq!(code, 1);
    let f = findings(&report);
    let lost = |prefix: &str, on: &str| {
        f.iter().any(|(_, s, e, m)| {
            s != "info" && e == prefix && m.contains("routes lost") && m.contains(on)
        })
    };
    assert!(
        f.iter().any(|(c, s, e, m)| c == "precheck.withdrawn"
            && s == "error"
            && e == "192.168.123.3/32"
            && m.contains("before, 2 did (D1_redist, D4_bgp)")),
        "{f:#?}"
    );
    assert!(lost("192.168.123.1/32", "D3_eigrp"), "{f:#?}");
}

/// The what-if on the same interface lists the routes lost (a removal: info rows).
#[test]
fn the_what_if_losing_the_only_adjacency_lists_the_routes_lost() {
    let dir = lab();
    let plan = draft_any(dir.path(), "what if D3_eigrp GigabitEthernet1 goes down");
    let (_, report) = precheck(dir.path(), &plan);
    let f = findings(&report);
    for p in ["192.168.123.1/32", "192.168.123.2/32"] {
        assert!(
            f.iter()
                .any(|(_, _, e, m)| e == p && m.contains("routes lost")),
            "{p}: {f:#?}"
        );
    }
    // D3's loopback leaves every other router's table: withdrawn, as the what-if means.
    assert!(
        f.iter().any(|(c, s, _, m)| c == "precheck.withdrawn"
            && s == "info"
            && m.contains(
                "withdrawn with what the plan removes, shuts or readdresses: 192.168.123.3/32"
            )),
        "{f:#?}"
    );
    assert!(
        report["blast"]["prefixes_withdrawn"]
            .as_array()
            .is_some_and(|a| a.contains(&serde_json::json!("192.168.123.3/32"))),
        "{report:#}"
    );
}

/// The what-if alone on a lab with no border, core or external peer — its state file
/// calls every router `access`, so none is inferred from the topology: what the change
/// cuts off cannot be computed, so neither "isolated none" nor "withdrawn none" —
/// unknown, said, with where the routes lost are.
#[test]
fn the_blast_radius_what_if_says_isolation_is_unknown_not_none() {
    let dir = tempfile::tempdir().expect("tempdir");
    let snap = dir.path().join("lab");
    common::copy_dir(
        &common::fixture("lab-validation/iosxe_redistribution"),
        &snap,
    );
    let devices: String = ["D1_redist", "D2_static", "D3_eigrp", "D4_bgp", "D5_ospf"]
        .iter()
        .map(|h| format!("  - {{hostname: {h}, role: access}}\n"))
        .collect();
    std::fs::write(snap.join("state.yaml"), format!("devices:\n{devices}")).expect("write");
    common::import(dir.path(), &snap);
    let out = olav(dir.path())
        .args(["blast-radius", "--interface", "D3_eigrp:GigabitEthernet1"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("isolated unknown"), "{text}");
    assert!(!text.contains("isolated       none"), "{text}");
    // What no router routes any more is known from the routing model, roles or not.
    assert!(text.contains("withdrawn      192.168.123.3/32\n"), "{text}");
    let out = olav(dir.path())
        .args([
            "blast-radius",
            "--interface",
            "D3_eigrp:GigabitEthernet1",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["isolation_unknown"], true, "{v:#}");
    let out = olav(dir.path())
        .args(["-q", "what if D3_eigrp GigabitEthernet1 goes down"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("isolated unknown · "), "{text}");
    assert!(!text.contains("prefixes withdrawn 0\n"), "{text}");
}

/// Shutting D3's only link takes its loopback out of every other router's table: the
/// pre-check fails (a network withdrawn that the plan does not take away), and the
/// blast radius's "prefixes withdrawn" counts what the routing loses, not only the
/// subnets of removed or isolated devices (it said "withdrawn none" here before).
#[test]
fn losing_the_only_eigrp_adjacency_fails_and_withdraws_prefixes() {
    let dir = lab();
    let plan = draft_any(dir.path(), "shutdown D3_eigrp GigabitEthernet1");
    let (code, report) = precheck(dir.path(), &plan);
    assert_eq!(code, 1, "{report:#}");
    let out = olav(dir.path())
        .args([
            "blast-radius",
            "--interface",
            "D3_eigrp:GigabitEthernet1",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(
        v["blast_radius"]["prefixes_withdrawn"]
            .as_array()
            .is_some_and(|a| !a.is_empty()),
        "{v:#}"
    );
}

/// The control: a description change on the lab passes.
#[test]
fn a_description_change_on_the_lab_passes() {
    let dir = lab();
    let plan = draft_any(
        dir.path(),
        "set the description of D3_eigrp GigabitEthernet1 to \"uplink to D1\"",
    );
    let (code, report) = precheck(dir.path(), &plan);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["verdict"], "PASS", "{report:#}");
}
