//! OSPF redistribution on small hand-made networks: through route-maps, and a router's
//! own externals.

use super::tests::{ios, ospf, run};

/// Connected routes redistributed through a route-map that matches only on a prefix-list
/// (`iosxe_redistribution` D1): only what the list permits becomes an external; a
/// route-map that sets something stays incomplete.
#[test]
fn redistribution_through_a_prefix_list_route_map() {
    let net = |set: &str| {
        [
            ios(
                1,
                &[("GigabitEthernet0/1", "10.0.12.1", "")],
                " network 10.0.12.0 0.0.0.3 area 0\n",
            ),
            ios(
                2,
                &[
                    ("GigabitEthernet0/1", "10.0.12.2", ""),
                    ("GigabitEthernet0/2", "172.16.5.1", ""),
                    ("GigabitEthernet0/3", "172.16.6.1", ""),
                ],
                &format!(" network 10.0.12.0 0.0.0.3 area 0\n redistribute connected subnets route-map RC\nip prefix-list P5 seq 5 permit 172.16.5.0/30\nroute-map RC permit 10\n match ip address prefix-list P5\n{set}"),
            ),
        ]
    };
    let ribs = run(&net(""));
    assert_eq!(
        ospf(&ribs[0]),
        ["172.16.5.0/30 ospfE2 [110/20] 10.0.12.2 via GigabitEthernet0/1"]
    );
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
    let ribs = run(&net(" set metric 5\n"));
    assert!(ospf(&ribs[0]).is_empty());
    assert_eq!(
        ribs[0].incomplete_in("default"),
        ["OSPF redistribution route-map RC (its set statements are not evaluated) (r2) not computed yet"]
    );
}

/// A router does not route by its own LSAs: r2 redistributing BGP (not computed yet)
/// leaves r1 incomplete, not r2 — unless another router of the domain passes OSPF
/// routes on into another protocol.
#[test]
fn a_router_is_not_incomplete_by_its_own_externals() {
    let net = |r1_extra: &str| {
        [
            ios(
                1,
                &[("GigabitEthernet0/1", "10.0.12.1", "")],
                &format!(" network 10.0.12.0 0.0.0.3 area 0\n{r1_extra}"),
            ),
            ios(
                2,
                &[("GigabitEthernet0/1", "10.0.12.2", "")],
                " network 10.0.12.0 0.0.0.3 area 0\n redistribute bgp 65000 subnets\n",
            ),
        ]
    };
    let why = "OSPF redistribution of bgp (r2) not computed yet";
    let ribs = run(&net(""));
    assert_eq!(ribs[0].incomplete_in("default"), [why]);
    assert!(ribs[1].incomplete.is_empty(), "{:?}", ribs[1].incomplete);
    let ribs = run(&net("router eigrp 1\n redistribute ospf 1\n"));
    assert!(ribs[1].incomplete_in("default").contains(&why));
}
