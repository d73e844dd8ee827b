//! Networks withdrawn from the routing, and the in-band lock-out, on the demo network
//! through the binary (`docs/precheck.md`, "Prefixes withdrawn", "Lock-out").

use crate::common::{draft_any, findings, olav, precheck_report, replace};
use std::path::Path;

/// The pre-check's exit status and findings as (code, severity, element, message).
fn precheck(dir: &Path, plan: &str) -> (i32, Vec<(String, String, String, String)>) {
    let (code, report) = precheck_report(dir, plan);
    (code, findings(&report))
}

/// The branch switch's only uplink shut on the switch itself: its LANs leave every other
/// router's table — errors, although the border's 10.20.0.0/16 aggregate still covers
/// them (it ends in the border's Null0) — and nothing can send the rollback. The switch's
/// static default losing its next hop is no "withdrawn network".
#[test]
fn the_branch_switch_cut_off_withdraws_its_lans_not_the_default() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "shut down interface GigabitEthernet0/25 on alpha-br-3560",
    );
    let (code, f) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{f:#?}");
    for lan in ["10.20.110.0/24", "10.20.199.0/24", "10.255.1.8/32"] {
        assert!(
            f.iter()
                .any(|(c, s, e, _)| c == "precheck.withdrawn" && s == "error" && e == lan),
            "{lan}: {f:#?}"
        );
    }
    assert!(
        !f.iter()
            .any(|(c, _, e, _)| c == "precheck.withdrawn" && e == "0.0.0.0/0"),
        "{f:#?}"
    );
    assert!(
        f.iter()
            .any(|(c, s, _, _)| c == "precheck.lockout" && s == "error"),
        "{f:#?}"
    );
}

/// The loopback that holds an in-band managed switch's management address, shut or
/// renumbered: the rollback cannot reach it — a lock-out error, and the old address is
/// the plan's own doing (information), not an undeclared withdrawal.
#[test]
fn taking_an_in_band_management_address_away_locks_the_plan_out() {
    for request in [
        "shut down interface Loopback0 on alpha-br-3560",
        "change the address of interface Loopback0 on alpha-br-3560 to 10.255.1.88/32",
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let plan = draft_any(tmp.path(), request);
        let (code, f) = precheck(tmp.path(), &plan);
        assert_eq!(code, 1, "{request}: {f:#?}");
        assert!(
            f.iter().any(|(c, s, _, m)| c == "precheck.lockout"
                && s == "error"
                && m.contains("the plan shuts that interface or takes its address")),
            "{request}: {f:#?}"
        );
        assert!(
            !f.iter()
                .any(|(c, s, _, _)| c == "precheck.withdrawn" && s != "info"),
            "{request}: {f:#?}"
        );
    }
}

/// A redundant link shut: nothing leaves the routing but the link's own subnet.
#[test]
fn a_redundant_link_shut_withdraws_only_its_own_subnet() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(tmp.path(), "shut down interface Ethernet3 on alpha-core-1");
    let (_, f) = precheck(tmp.path(), &plan);
    assert!(
        !f.iter()
            .any(|(c, s, _, _)| c == "precheck.withdrawn" && s != "info"),
        "{f:#?}"
    );
}

/// The what-if on the demo (18 devices) recomputes the routing: the branch switch's
/// loopback is listed as withdrawn.
#[test]
fn the_what_if_lists_the_routing_s_withdrawn_networks() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args([
            "blast-radius",
            "--device",
            "alpha-br-3560",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["withdrawn_from_routing"], true, "{v:#}");
    assert!(
        v["blast_radius"]["prefixes_withdrawn"]
            .as_array()
            .is_some_and(|a| a.contains(&serde_json::json!("10.255.1.8/32"))),
        "{v:#}"
    );
}

/// On a lab with no BGP session, service or managed device (no flow to compare), a static
/// route the plan adds is still traced: towards a router without the prefix it fails;
/// via a host no configuration holds (not a BGP peer), its fate is unknown — a warning,
/// never a silent pass.
#[test]
fn a_static_route_is_traced_on_a_network_with_no_other_flow() {
    let tmp = tempfile::tempdir().expect("tempdir");
    crate::common::import(
        tmp.path(),
        &crate::common::fixture("lab-validation/nxos_static_route"),
    );
    let plan = draft_any(
        tmp.path(),
        "add a static route to 10.51.0.0/16 via 10.12.11.2 on D1",
    );
    let (code, f) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{f:#?}");
    assert!(
        f.iter().any(|(_, s, _, m)| s == "error"
            && m.contains("does not arrive: it is dropped at D2: no route for 10.51.0.1")),
        "{f:#?}"
    );
    let plan = draft_any(
        tmp.path(),
        "add a static route to 10.50.0.0/16 via 10.12.11.20 on D1",
    );
    let (_, f) = precheck(tmp.path(), &plan);
    assert!(
        f.iter().any(|(_, s, _, m)| s == "warning"
            && m.contains("leaves the devices olav knows at 10.12.11.20")),
        "{f:#?}"
    );
}

/// Towards the internet: the branch switch's traffic reaches a distribution router that
/// hears the providers; a static default that sends it to a switch with no route drops
/// it there — an error naming the service, the path and where it ends. A removal
/// combined with another open plan in the change window does not trace from the device
/// it removes (checked by `schedule::` tests through `precheck --all`).
#[test]
fn a_default_to_a_switch_without_one_cuts_the_branch_off_the_internet() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "add a static route 0.0.0.0/0 via 10.20.199.11 on alpha-br-3560",
    );
    let (code, f) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{f:#?}");
    assert!(
        f.iter().any(|(c, s, e, m)| c == "precheck.blackhole"
            && s == "error"
            && e == "service alpha-branch-data: alpha-br-3560 → the internet"
            && m.contains("dropped at alpha-br-2960-1: no route for 198.18.0.1")),
        "{f:#?}"
    );
}

/// A static route re-pointed by hand to Null0 over a high service's prefix drops the
/// service's traffic on the border: an error naming the service (trial S10). A request
/// that asks for the discard itself declares it (`route_shifts`' unit test).
#[test]
fn a_discard_route_over_a_service_prefix_is_an_error_unless_asked_for() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "add a static route 10.20.110.0/24 via 10.0.1.1 on alpha-border-1",
    );
    replace(
        &tmp.path().join(&plan),
        "255.255.255.0 10.0.1.1",
        "255.255.255.0 Null0",
    );
    let (code, f) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{f:#?}");
    assert!(
        f.iter().any(|(c, s, e, m)| c == "precheck.routes"
            && s == "error"
            && e == "10.20.110.0/24"
            && m.contains("alpha-border-1")
            && m.contains("service alpha-branch-data (high)")),
        "{f:#?}"
    );
}

/// The stages agree on a requested shutdown: the session over the shut uplink ends as
/// the plan declares — the pre-check's warning, and the static fallback lists it as ended,
/// not as a conflict the plan introduces.
#[test]
fn the_fallback_counts_a_session_a_requested_shutdown_ends_as_declared() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "shut down interface GigabitEthernet0/0/0 on alpha-border-1",
    );
    let (_, f) = precheck(tmp.path(), &plan);
    assert!(
        f.iter().any(|(c, s, e, _)| c == "precheck.sessions_lost"
            && s == "warning"
            && e == "alpha-border-1 → 203.0.113.2"),
        "{f:#?}"
    );
    let out = olav(tmp.path())
        .args(["verify", &plan])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("no conflict found — 0 problem(s) introduced")
            && text.contains(
                "ended as the plan declares: BGP alpha-border-1 default → 203.0.113.2 (EBGP_SINGLEHOP): NO_LOCAL_IP"
            ),
        "{text}"
    );
}

/// Readdressing the gamma office LAN into the subnet of the static route to the servers
/// behind it: the route's next hop (10.40.10.20) is left on no subnet, the route no
/// longer installs — an error naming it (trial 2026-12-02, miss A).
#[test]
fn a_static_route_left_without_its_next_hop_is_an_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(
        tmp.path(),
        "change the IP address of gamma-border-1 xe-0/1/3.0 to 10.40.20.1/24",
    );
    let (code, f) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{f:#?}");
    assert!(
        f.iter().any(|(c, s, e, m)| c == "precheck.static_routes"
            && s == "error"
            && e == "gamma-border-1 10.40.20.0/24 via 10.40.10.20"
            && m.contains("no longer installs")),
        "{f:#?}"
    );
}

/// gamma-border-1's loopback shut: its iBGP sessions end (errors) and gamma's aggregate
/// 10.40.0.0/16 leaves the other routers' tables, but the office's own 10.40.10.0/24
/// stays routed by OSPF — the service living there is not degraded (trial false alarm 4).
#[test]
fn an_aggregate_withdrawn_around_a_routed_service_prefix_does_not_take_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft_any(tmp.path(), "shutdown gamma-border-1 lo0.0");
    let (code, f) = precheck(tmp.path(), &plan);
    assert_eq!(code, 1, "{f:#?}");
    assert!(
        f.iter()
            .any(|(c, _, e, _)| c == "precheck.withdrawn" && e == "10.40.0.0/16"),
        "{f:#?}"
    );
    assert!(
        !f.iter()
            .any(|(c, _, e, _)| c == "precheck.services" && e == "service gamma-office-data"),
        "{f:#?}"
    );
}
