//! IOS-XR's BGP rules on a two-router eBGP network (`fixtures/iosxr`): no route-policy on
//! an eBGP session accepts and sends nothing (RFC 8212); RPL policies decide as IOS-XR
//! evaluates them.

use super::tests::run;
use crate::model::Vendor;
use crate::routing::DeviceRib;

const R1: &str = include_str!("../../../fixtures/iosxr/r1.cfg");
const R2: &str = include_str!("../../../fixtures/iosxr/r2.cfg");

/// The BGP routes installed: `network local-pref`.
fn received(r: &DeviceRib) -> Vec<String> {
    r.bgp
        .iter()
        .filter(|b| b.installed && b.next_hop.is_some())
        .map(|b| format!("{} {}", b.network, b.local_pref))
        .collect()
}

/// r1 with `route-policy IN in` and `route-policy OUT out` on its session.
fn r1_with(inbound: &str, outbound: &str) -> String {
    R1.replacen(
        "  remote-as 65002\n  address-family ipv4 unicast\n",
        &format!(
            "  remote-as 65002\n  address-family ipv4 unicast\n   route-policy {inbound} in\n   route-policy {outbound} out\n"
        ),
        1,
    )
}

#[test]
fn ebgp_without_a_policy_accepts_and_sends_nothing() {
    let ribs = run(&[(Vendor::CiscoIosXr, R1), (Vendor::CiscoIosXr, R2)]);
    assert!(received(&ribs[0]).is_empty(), "{:?}", received(&ribs[0]));
    assert!(received(&ribs[1]).is_empty(), "{:?}", received(&ribs[1]));
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()));
}

#[test]
fn a_pass_policy_lets_routes_through() {
    let r1 = r1_with("PASS", "PASS");
    let ribs = run(&[(Vendor::CiscoIosXr, &r1), (Vendor::CiscoIosXr, R2)]);
    assert_eq!(received(&ribs[0]), ["2.2.2.2/32 100", "2.2.3.2/32 100"]);
    assert_eq!(received(&ribs[1]), ["1.1.1.1/32 100"]);
}

#[test]
fn rpl_sets_and_drops_by_destination() {
    let r1 = r1_with("LP", "PASS");
    let ribs = run(&[(Vendor::CiscoIosXr, &r1), (Vendor::CiscoIosXr, R2)]);
    assert_eq!(received(&ribs[0]), ["2.2.2.2/32 300"]);
    assert!(ribs[0].incomplete.is_empty());
}
