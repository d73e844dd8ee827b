//! BGP on small hand-made networks, each device read by its vendor's parser and the
//! network computed at once.

use crate::import::parse::parser_for;
use crate::model::Vendor;
use crate::routing::{network, DeviceInput, DeviceRib};
use proptest::prelude::*;

/// Every device's RIB, the devices named r1, r2, … in order.
pub(super) fn run(devices: &[(Vendor, &str)]) -> Vec<DeviceRib> {
    let configs: Vec<_> = devices
        .iter()
        .map(|(v, t)| parser_for(*v).parse(t))
        .collect();
    let names: Vec<String> = (1..=devices.len()).map(|i| format!("r{i}")).collect();
    let inputs: Vec<DeviceInput> = devices
        .iter()
        .zip(&configs)
        .zip(&names)
        .map(|(((v, t), c), h)| DeviceInput {
            hostname: h,
            vendor: *v,
            config: c,
            text: t,
        })
        .collect();
    network(&inputs)
}

/// `network protocol [AD/metric] next-hop` of the BGP rows.
fn bgp(r: &DeviceRib) -> Vec<String> {
    r.routes
        .iter()
        .filter(|r| r.protocol.as_str().contains("bgp") || r.protocol.as_str() == "aggregate")
        .map(|r| {
            format!(
                "{} {} [{}/{}] {}",
                r.network, r.protocol, r.admin_distance, r.metric, r.next_hop
            )
        })
        .collect()
}

fn ios(name: &str, body: &str) -> String {
    format!("hostname {name}\n{body}end\n")
}

#[test]
fn two_ios_routers_exchange_their_networks_over_ebgp() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n network 1.1.1.1 mask 255.255.255.255\n network 9.9.9.0 mask 255.255.255.0\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\ninterface Loopback0\n ip address 2.2.2.2 255.255.255.255\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n redistribute connected\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    // r2 learns r1's loopback (9.9.9.0/24 is not in r1's RIB: not announced); r1 learns
    // r2's connected routes, its own link's subnet losing to connected (0 < 20).
    assert_eq!(bgp(&ribs[1]), ["1.1.1.1/32 bgp [20/0] 10.0.12.1"]);
    assert_eq!(bgp(&ribs[0]), ["2.2.2.2/32 bgp [20/0] 10.0.12.2"]);
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
    // The BGP RIB: r1's path to 2.2.2.2 through AS 65002, best, origin incomplete.
    let b = ribs[0]
        .bgp
        .iter()
        .find(|b| b.network.to_string() == "2.2.2.2/32")
        .expect("path");
    assert_eq!(
        (b.as_path.clone(), b.best, b.origin.as_str()),
        (vec![65002], true, "incomplete")
    );
    let row = b.to_json("R1");
    assert_eq!(row["Node"]["name"], "r1");
    assert_eq!(row["Status"], serde_json::json!(["BEST"]));
    assert_eq!(row["AS_Path"], "65002");
    assert_eq!(
        row["Next_Hop"],
        serde_json::json!({"type": "ip", "ip": "10.0.12.2"})
    );
    assert_eq!(
        (row["Local_Pref"].as_u64(), row["Weight"].as_u64()),
        (Some(100), Some(0))
    );
}

#[test]
fn a_session_whose_as_numbers_disagree_stays_down() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65009\n network 1.1.1.1 mask 255.255.255.255\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    assert!(bgp(&ribs[1]).is_empty());
    assert!(ribs[1].incomplete.is_empty());
}

/// A route reflector with two clients over iBGP: each client learns the other's
/// loopback (reflected), next hop unchanged, distance 200.
#[test]
fn a_route_reflector_reflects_between_its_clients() {
    let rr = ios(
        "rr",
        "interface Gi0/1\n ip address 10.0.1.1 255.255.255.0\ninterface Gi0/2\n ip address 10.0.2.1 255.255.255.0\nrouter bgp 65000\n neighbor 10.0.1.2 remote-as 65000\n neighbor 10.0.1.2 route-reflector-client\n neighbor 10.0.2.2 remote-as 65000\n neighbor 10.0.2.2 route-reflector-client\n",
    );
    let client = |n: u8| {
        ios(
            &format!("c{n}"),
            &format!("interface Gi0/1\n ip address 10.0.{n}.2 255.255.255.0\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\nip route 10.0.0.0 255.255.0.0 10.0.{n}.1\nrouter bgp 65000\n neighbor 10.0.{n}.1 remote-as 65000\n network 10.255.0.{n} mask 255.255.255.255\n"),
        )
    };
    let (c1, c2) = (client(1), client(2));
    let ribs = run(&[
        (Vendor::CiscoIos, &rr),
        (Vendor::CiscoIos, &c1),
        (Vendor::CiscoIos, &c2),
    ]);
    assert_eq!(bgp(&ribs[1]), ["10.255.0.2/32 ibgp [200/0] 10.0.2.2"]);
    assert_eq!(bgp(&ribs[2]), ["10.255.0.1/32 ibgp [200/0] 10.0.1.2"]);
    // Without reflection the clients learn nothing from each other.
    let plain = rr
        .replace(" neighbor 10.0.1.2 route-reflector-client\n", "")
        .replace(" neighbor 10.0.2.2 route-reflector-client\n", "");
    let ribs = run(&[
        (Vendor::CiscoIos, &plain),
        (Vendor::CiscoIos, &c1),
        (Vendor::CiscoIos, &c2),
    ]);
    assert!(bgp(&ribs[1]).is_empty());
    assert_eq!(bgp(&ribs[0]).len(), 2, "the reflector itself learns both");
}

/// Two exits to one prefix: a route-map raising the local preference of one path on the
/// receiving router decides; with equal attributes `maximum-paths` keeps both.
#[test]
fn local_preference_from_a_route_map_picks_the_path() {
    let origin = |n: u8| {
        ios(
            &format!("o{n}"),
            &format!("interface Gi0/0\n ip address 10.0.{n}.2 255.255.255.0\ninterface Loopback0\n ip address 8.8.8.8 255.255.255.255\nrouter bgp 6500{n}\n neighbor 10.0.{n}.1 remote-as 65000\n network 8.8.8.8 mask 255.255.255.255\n"),
        )
    };
    let (o1, o2) = (origin(1), origin(2));
    let edge = |extra: &str| {
        ios(
            "edge",
            &format!("interface Gi0/1\n ip address 10.0.1.1 255.255.255.0\ninterface Gi0/2\n ip address 10.0.2.1 255.255.255.0\nip prefix-list ANY seq 5 permit 0.0.0.0/0 le 32\nroute-map PREFER permit 10\n match ip address prefix-list ANY\n set local-preference 300\nrouter bgp 65000\n neighbor 10.0.1.2 remote-as 65001\n neighbor 10.0.2.2 remote-as 65002\n{extra}"),
        )
    };
    let preferred = edge(" neighbor 10.0.2.2 route-map PREFER in\n");
    let ribs = run(&[
        (Vendor::CiscoIos, &preferred),
        (Vendor::CiscoIos, &o1),
        (Vendor::CiscoIos, &o2),
    ]);
    assert_eq!(bgp(&ribs[0]), ["8.8.8.8/32 bgp [20/0] 10.0.2.2"]);
    let chosen = ribs[0].bgp.iter().find(|b| b.best).expect("best");
    assert_eq!(chosen.local_pref, 300);
    // Equal paths but different AS paths: one best (lowest router id), no ECMP.
    let multi = edge(" maximum-paths 2\n");
    let ribs = run(&[
        (Vendor::CiscoIos, &multi),
        (Vendor::CiscoIos, &o1),
        (Vendor::CiscoIos, &o2),
    ]);
    assert_eq!(bgp(&ribs[0]).len(), 1, "{:?}", bgp(&ribs[0]));
}

/// Two equal eBGP paths from one neighbouring AS: one row without `maximum-paths`, both
/// with `maximum-paths 2` (ECMP).
#[test]
fn maximum_paths_keeps_equal_paths() {
    let origin = |n: u8| {
        ios(
            &format!("o{n}"),
            &format!("interface Gi0/0\n ip address 10.0.{n}.2 255.255.255.0\ninterface Loopback0\n ip address 8.8.8.8 255.255.255.255\nrouter bgp 65001\n neighbor 10.0.{n}.1 remote-as 65000\n network 8.8.8.8 mask 255.255.255.255\n"),
        )
    };
    let (o1, o2) = (origin(1), origin(2));
    let edge = |extra: &str| {
        ios(
            "edge",
            &format!("interface Gi0/1\n ip address 10.0.1.1 255.255.255.0\ninterface Gi0/2\n ip address 10.0.2.1 255.255.255.0\nrouter bgp 65000\n neighbor 10.0.1.2 remote-as 65001\n neighbor 10.0.2.2 remote-as 65001\n{extra}"),
        )
    };
    let one = edge("");
    let ribs = run(&[
        (Vendor::CiscoIos, &one),
        (Vendor::CiscoIos, &o1),
        (Vendor::CiscoIos, &o2),
    ]);
    assert_eq!(bgp(&ribs[0]).len(), 1);
    let two = edge(" maximum-paths 2\n");
    let ribs = run(&[
        (Vendor::CiscoIos, &two),
        (Vendor::CiscoIos, &o1),
        (Vendor::CiscoIos, &o2),
    ]);
    assert_eq!(
        bgp(&ribs[0]),
        [
            "8.8.8.8/32 bgp [20/0] 10.0.1.2",
            "8.8.8.8/32 bgp [20/0] 10.0.2.2"
        ]
    );
}

/// A route-map condition olav does not evaluate marks the domain incomplete, named.
#[test]
fn an_unevaluated_match_marks_the_domain_incomplete() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nroute-map OUT permit 10\n match community 5\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n neighbor 10.0.12.2 route-map OUT out\n network 1.1.1.1 mask 255.255.255.255\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    for r in &ribs {
        assert_eq!(
            r.incomplete_in("default"),
            ["BGP policy not evaluated: route-map OUT: community-list 5 (undefined, or a form olav does not evaluate) (r1): not computed yet"]
        );
    }
}

/// IOS denies every route through an undefined neighbor route-map; EOS lets every route
/// through.
#[test]
fn an_undefined_neighbor_route_map_denies_on_ios_and_permits_on_eos() {
    let r1 = |vendor_word: &str| {
        ios(
            "r1",
            &format!("interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n neighbor 10.0.12.2 route-map {vendor_word} out\n network 1.1.1.1 mask 255.255.255.255\n"),
        )
    };
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n",
    );
    let a = r1("NOWHERE");
    let ribs = run(&[(Vendor::CiscoIos, &a), (Vendor::CiscoIos, &r2)]);
    assert!(bgp(&ribs[1]).is_empty());
    assert!(ribs[1].incomplete.is_empty(), "{:?}", ribs[1].incomplete);
    // EOS lets every route through (NX-OS, like IOS, denies them).
    let ribs = run(&[(Vendor::AristaEos, &a), (Vendor::CiscoIos, &r2)]);
    assert_eq!(bgp(&ribs[1]), ["1.1.1.1/32 bgp [20/0] 10.0.12.1"]);
    assert!(ribs[1].incomplete.is_empty(), "{:?}", ribs[1].incomplete);
}

/// `redistribute connected route-map` with `match interface`: only that interface's
/// subnet is announced.
#[test]
fn match_interface_picks_the_redistributed_connected_routes() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\ninterface Loopback1\n ip address 1.1.1.2 255.255.255.255\nroute-map LO permit 10\n match interface Loopback0\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n redistribute connected route-map LO\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    assert_eq!(bgp(&ribs[1]), ["1.1.1.1/32 bgp [20/0] 10.0.12.1"]);
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
}

/// Access lists and community lists in route-maps: the sender tags one route with a
/// community (sent with `send-community`), the receiver raises the local preference of
/// what an expanded list matches and drops what a numbered access list denies.
#[test]
fn access_lists_and_community_lists_are_evaluated() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\ninterface Loopback1\n ip address 1.1.1.2 255.255.255.255\ninterface Loopback2\n ip address 1.1.1.3 255.255.255.255\naccess-list 10 permit 1.1.1.1\nroute-map TAG permit 10\n match ip address 10\n set community 1:2 additive\nroute-map TAG permit 20\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n neighbor 10.0.12.2 send-community\n neighbor 10.0.12.2 route-map TAG out\n redistribute connected\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nip community-list expanded ONE permit _1:\naccess-list 101 deny ip host 1.1.1.3 host 255.255.255.255\naccess-list 101 permit ip any any\nroute-map IN deny 5\n match ip address 101\n match community ONE\nroute-map IN permit 10\n match community ONE\n set local-preference 300\nroute-map IN permit 20\n match ip address 101\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n neighbor 10.0.12.1 route-map IN in\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    // 1.1.1.1 carries 1:2 and 101 permits it: clause 5 denies it. 1.1.1.3: 101 denies
    // it and it has no community: no clause matches. 1.1.1.2: clause 20 (as is the
    // link's subnet, a BGP path the connected route keeps out of the main RIB).
    let got: Vec<(String, u32)> = ribs[1]
        .bgp
        .iter()
        .filter(|p| p.best)
        .map(|p| (p.network.to_string(), p.local_pref))
        .collect();
    assert_eq!(
        got,
        [
            ("1.1.1.2/32".to_owned(), 100),
            ("10.0.12.0/24".to_owned(), 100)
        ]
    );
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
    // An as-path access list: the paths from AS 65001 alone get local preference 200.
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nip as-path access-list 5 permit ^65001$\nroute-map IN permit 10\n match as-path 5\n set local-preference 200\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n neighbor 10.0.12.1 route-map IN in\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    assert!(
        ribs[1].bgp.iter().all(|p| p.local_pref == 200),
        "{:?}",
        ribs[1].bgp
    );
    // The three loopbacks and the link's subnet.
    assert_eq!(ribs[1].bgp.len(), 4);
}

/// An outbound `set as-path prepend` goes behind the AS the session prepends.
#[test]
fn an_outbound_prepend_follows_the_own_as() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nroute-map OUT permit 10\n set as-path prepend 65101\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n neighbor 10.0.12.2 route-map OUT out\n network 1.1.1.1 mask 255.255.255.255\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    let p = ribs[1].bgp.iter().find(|p| p.best).expect("path");
    assert_eq!(p.as_path, [65001, 65101]);
}

/// A confederation: between member ASes routes keep iBGP's attributes (distance 200,
/// next hop unchanged); outside, the path carries the confederation identifier only.
#[test]
fn a_confederation_looks_like_one_as_from_outside() {
    let a = ios(
        "a",
        "interface Gi0/0\n ip address 10.0.1.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nrouter bgp 65001\n bgp confederation identifier 100\n bgp confederation peers 65002\n neighbor 10.0.1.2 remote-as 65002\n network 1.1.1.1 mask 255.255.255.255\n",
    );
    let b = ios(
        "b",
        "interface Gi0/0\n ip address 10.0.1.2 255.255.255.0\ninterface Gi0/1\n ip address 10.0.2.1 255.255.255.0\nrouter bgp 65002\n bgp confederation identifier 100\n bgp confederation peers 65001\n neighbor 10.0.1.1 remote-as 65001\n neighbor 10.0.2.2 remote-as 200\n",
    );
    let c = ios(
        "c",
        "interface Gi0/0\n ip address 10.0.2.2 255.255.255.0\nrouter bgp 200\n neighbor 10.0.2.1 remote-as 100\n",
    );
    let ribs = run(&[
        (Vendor::CiscoIos, &a),
        (Vendor::CiscoIos, &b),
        (Vendor::CiscoIos, &c),
    ]);
    assert_eq!(bgp(&ribs[1]), ["1.1.1.1/32 ibgp [200/0] 10.0.1.1"]);
    assert_eq!(bgp(&ribs[2]), ["1.1.1.1/32 bgp [20/0] 10.0.2.1"]);
    let at_c = ribs[2].bgp.iter().find(|p| p.best).expect("path");
    assert_eq!(at_c.as_path, [100]);
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
}

/// Junos: an export chain's first policy that decides wins (here the second, after the
/// first's `next policy`); without an export policy Junos announces no direct route.
#[test]
fn a_junos_export_chain_decides_in_order() {
    let j1 = "set system host-name r1
set interfaces xe-0/0/0 unit 0 family inet address 10.0.12.1/24
set interfaces lo0 unit 0 family inet address 1.1.1.1/32
set interfaces lo0 unit 0 family inet address 1.1.1.2/32
set routing-options autonomous-system 65001
set policy-options prefix-list ONE 1.1.1.1/32
set policy-options policy-statement SKIP term a then next policy
set policy-options policy-statement LOOPBACKS term a from prefix-list ONE
set policy-options policy-statement LOOPBACKS term a then accept
set policy-options policy-statement LOOPBACKS term b then reject
set protocols bgp group EXT type external
set protocols bgp group EXT peer-as 65002
set protocols bgp group EXT neighbor 10.0.12.2 export [ SKIP LOOPBACKS ]
";
    let j2 = "set system host-name r2
set interfaces xe-0/0/0 unit 0 family inet address 10.0.12.2/24
set interfaces lo0 unit 0 family inet address 2.2.2.2/32
set routing-options autonomous-system 65002
set protocols bgp group EXT type external
set protocols bgp group EXT peer-as 65001
set protocols bgp group EXT neighbor 10.0.12.1
";
    let ribs = run(&[(Vendor::JuniperJunos, j1), (Vendor::JuniperJunos, j2)]);
    assert_eq!(bgp(&ribs[1]), ["1.1.1.1/32 bgp [170/0] 10.0.12.1"]);
    assert!(
        bgp(&ribs[0]).is_empty(),
        "r2 exports nothing without a policy"
    );
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
}

/// An aggregate with a contributing route is installed as a discard route; `summary-only`
/// keeps the contributor from the neighbour.
#[test]
fn an_aggregate_needs_a_contributor_and_suppresses_with_summary_only() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback1\n ip address 172.16.1.1 255.255.255.0\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n network 172.16.1.0 mask 255.255.255.0\n aggregate-address 172.16.0.0 255.255.0.0 summary-only\n aggregate-address 192.168.0.0 255.255.0.0\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    assert_eq!(bgp(&ribs[0]), ["172.16.0.0/16 aggregate [200/0] discard"]);
    assert_eq!(bgp(&ribs[1]), ["172.16.0.0/16 bgp [20/0] 10.0.12.1"]);
}

/// An eBGP path holding the receiver's own AS is dropped, unless `allowas-in`.
#[test]
fn as_path_loops_are_rejected_unless_allowed() {
    let hub = ios(
        "hub",
        "interface Gi0/1\n ip address 10.0.1.1 255.255.255.0\ninterface Gi0/2\n ip address 10.0.2.1 255.255.255.0\nrouter bgp 65000\n neighbor 10.0.1.2 remote-as 65001\n neighbor 10.0.2.2 remote-as 65001\n",
    );
    let site = |n: u8, extra: &str| {
        ios(
            &format!("s{n}"),
            &format!("interface Gi0/0\n ip address 10.0.{n}.2 255.255.255.0\ninterface Loopback0\n ip address 10.9.{n}.1 255.255.255.0\nrouter bgp 65001\n neighbor 10.0.{n}.1 remote-as 65000\n{extra} network 10.9.{n}.0 mask 255.255.255.0\n"),
        )
    };
    let (s1, s2) = (site(1, ""), site(2, ""));
    let ribs = run(&[
        (Vendor::CiscoIos, &hub),
        (Vendor::CiscoIos, &s1),
        (Vendor::CiscoIos, &s2),
    ]);
    assert!(bgp(&ribs[1]).is_empty(), "{:?}", bgp(&ribs[1]));
    let s1 = site(1, " neighbor 10.0.1.1 allowas-in\n");
    let ribs = run(&[
        (Vendor::CiscoIos, &hub),
        (Vendor::CiscoIos, &s1),
        (Vendor::CiscoIos, &s2),
    ]);
    assert_eq!(bgp(&ribs[1]), ["10.9.2.0/24 bgp [20/0] 10.0.1.1"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random small networks of IOS routers peering with random AS numbers, networks,
    /// aggregates and route-maps: BGP always finishes (no panic, no hang).
    #[test]
    fn bgp_never_panics_on_random_small_networks(
        devices in prop::collection::vec(
            (1u32..4, prop::collection::vec((0u8..4, 0u8..4), 0..4), any::<bool>(), any::<bool>()),
            1..5,
        )
    ) {
        let texts: Vec<String> = devices
            .iter()
            .enumerate()
            .map(|(i, (asn, peers, aggregate, reflector))| {
                let mut s = format!("hostname r{i}\ninterface Loopback0\n ip address 10.255.0.{i} 255.255.255.255\n");
                for j in 0..4u8 {
                    s.push_str(&format!("interface Gi0/{j}\n ip address 10.{}.{}.{} 255.255.255.0\n", i.min(j as usize), i.max(j as usize), i + 1));
                }
                s.push_str(&format!("route-map RM permit 10\n set local-preference {}\n set as-path prepend {asn}\nrouter bgp {}\n", 100 + i, 65000 + asn));
                for (peer, pas) in peers {
                    let p = *peer as usize;
                    s.push_str(&format!(" neighbor 10.{}.{}.{} remote-as {}\n", i.min(p), i.max(p), p + 1, 65000 + u32::from(*pas)));
                    s.push_str(&format!(" neighbor 10.{}.{}.{} route-map RM in\n", i.min(p), i.max(p), p + 1));
                    if *reflector {
                        s.push_str(&format!(" neighbor 10.{}.{}.{} route-reflector-client\n", i.min(p), i.max(p), p + 1));
                    }
                }
                s.push_str(&format!(" network 10.255.0.{i} mask 255.255.255.255\n redistribute connected\n"));
                if *aggregate {
                    s.push_str(" aggregate-address 10.0.0.0 255.0.0.0\n");
                }
                s.push_str("end\n");
                s
            })
            .collect();
        let input: Vec<(Vendor, &str)> = texts.iter().map(|t| (Vendor::CiscoIos, t.as_str())).collect();
        let ribs = run(&input);
        prop_assert_eq!(ribs.len(), devices.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random Junos export and import chains from a vocabulary of conditions and actions
    /// (known and unknown ones, undefined policies) over a small eBGP ring: BGP always
    /// finishes.
    #[test]
    fn junos_chains_never_panic(
        terms in prop::collection::vec((0usize..8, 0usize..9), 1..8),
        routers in 2usize..5,
    ) {
        const FROM: [&str; 8] = [
            "from protocol direct",
            "from protocol bgp",
            "from route-filter 10.0.0.0/8 orlonger",
            "from prefix-list NOPE",
            "from as-path ANY",
            "from community C1",
            "from neighbor 10.0.0.2",
            "from condition X",
        ];
        const THEN: [&str; 9] = [
            "then accept",
            "then reject",
            "then next policy",
            "then next term",
            "then local-preference add 10",
            "then metric 7",
            "then community add C1",
            "then as-path-prepend \"65000 65000\"",
            "then next-hop self",
        ];
        let texts: Vec<String> = (0..routers)
            .map(|i| {
                let next = (i + 1) % routers;
                let mut s = format!(
                    "set system host-name r{i}\nset interfaces lo0 unit 0 family inet address 10.255.0.{i}/32\nset interfaces xe-0/0/0 unit 0 family inet address 10.{}.{}.{}/24\nset interfaces xe-0/0/1 unit 0 family inet address 10.{}.{}.{}/24\nset routing-options autonomous-system {}\nset policy-options as-path ANY \".*\"\nset policy-options community C1 members 1:1\n",
                    i.min(next), i.max(next), i + 1,
                    i.min((i + routers - 1) % routers), i.max((i + routers - 1) % routers), i + 1,
                    65000 + i,
                );
                for (k, (f, t)) in terms.iter().enumerate() {
                    s.push_str(&format!("set policy-options policy-statement P term t{k} {}\n", FROM[*f]));
                    s.push_str(&format!("set policy-options policy-statement P term t{k} {}\n", THEN[*t]));
                }
                let prev = (i + routers - 1) % routers;
                for (peer, far) in [(next, next + 1), (prev, prev + 1)] {
                    s.push_str(&format!(
                        "set protocols bgp group G neighbor 10.{}.{}.{far} peer-as {}\n",
                        i.min(peer), i.max(peer), 65000 + peer
                    ));
                }
                s.push_str("set protocols bgp group G export [ P UNDEFINED ]\nset protocols bgp group G import P\n");
                s
            })
            .collect();
        let input: Vec<(Vendor, &str)> = texts.iter().map(|t| (Vendor::JuniperJunos, t.as_str())).collect();
        let ribs = run(&input);
        prop_assert_eq!(ribs.len(), routers);
    }
}

#[test]
fn default_originate_sends_a_default_route_the_rib_does_not_hold() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n address-family ipv4\n  neighbor 10.0.12.2 activate\n  neighbor 10.0.12.2 default-originate\n exit-address-family\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    assert_eq!(bgp(&ribs[1]), ["0.0.0.0/0 bgp [20/0] 10.0.12.1"]);
    assert!(bgp(&ribs[0]).is_empty());
}

/// EOS dynamic peers through a `peer-filter`: the listen range accepts the AS numbers
/// its filter's first matching rule accepts (AS 65001 here), and no other.
#[test]
fn a_peer_filter_decides_which_dynamic_peers_come_up() {
    let eos = |name: &str, body: &str| format!("hostname {name}\n{body}end\n");
    let spine = eos(
        "spine",
        "interface Ethernet1\n   no switchport\n   ip address 10.0.0.0/31\ninterface Ethernet2\n   no switchport\n   ip address 10.0.0.2/31\ninterface Loopback0\n   ip address 1.1.1.1/32\npeer-filter LEAVES\n   20 match as-range 65300 result reject\n   10 match as-range 65000-65099 result accept\nrouter bgp 65100\n   bgp listen range 10.0.0.0/16 peer-group FABRIC peer-filter LEAVES\n   network 1.1.1.1/32\n",
    );
    let leaf = |name: &str, addr: &str, peer: &str, asn: u32, lo: &str| {
        eos(
            name,
            &format!("interface Ethernet1\n   no switchport\n   ip address {addr}/31\ninterface Loopback0\n   ip address {lo}/32\nrouter bgp {asn}\n   neighbor {peer} remote-as 65100\n   network {lo}/32\n"),
        )
    };
    let good = leaf("leaf1", "10.0.0.1", "10.0.0.0", 65001, "2.2.2.2");
    let bad = leaf("leaf2", "10.0.0.3", "10.0.0.2", 65300, "3.3.3.3");
    let ribs = run(&[
        (Vendor::AristaEos, &spine),
        (Vendor::AristaEos, &good),
        (Vendor::AristaEos, &bad),
    ]);
    assert_eq!(bgp(&ribs[0]), ["2.2.2.2/32 bgp [200/0] 10.0.0.1"]);
    assert_eq!(bgp(&ribs[1]), ["1.1.1.1/32 bgp [200/0] 10.0.0.0"]);
    assert!(bgp(&ribs[2]).is_empty());
}

/// `next-hop-self` towards a confederation peer rewrites an iBGP-learned path too (only a
/// reflected iBGP path keeps its next hop): r3 reaches r1's loopback through r2.
#[test]
fn next_hop_self_to_a_confederation_peer_rewrites_ibgp_paths() {
    let confed = "bgp confederation identifier 65100\n bgp confederation peers 65001 65002\n";
    let r1 = ios(
        "r1",
        &format!("interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nrouter bgp 65001\n {confed} neighbor 10.0.12.2 remote-as 65001\n network 1.1.1.1 mask 255.255.255.255\n"),
    );
    let r2 = ios(
        "r2",
        &format!("interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\ninterface Gi0/1\n ip address 10.0.23.2 255.255.255.0\nrouter bgp 65001\n {confed} neighbor 10.0.12.1 remote-as 65001\n neighbor 10.0.23.3 remote-as 65002\n neighbor 10.0.23.3 next-hop-self\n"),
    );
    let r3 = ios(
        "r3",
        &format!("interface Gi0/1\n ip address 10.0.23.3 255.255.255.0\nrouter bgp 65002\n {confed} neighbor 10.0.23.2 remote-as 65001\n"),
    );
    let ribs = run(&[
        (Vendor::CiscoIos, &r1),
        (Vendor::CiscoIos, &r2),
        (Vendor::CiscoIos, &r3),
    ]);
    assert_eq!(bgp(&ribs[2]), ["1.1.1.1/32 ibgp [200/0] 10.0.23.2"]);
}

/// Two separate pairs reusing one subnet: each neighbor address is owned by two devices
/// and only the cabling says which one is on the link — marked incomplete, not guessed.
#[test]
fn a_peer_address_owned_by_several_devices_is_incomplete() {
    let pair = |name: &str, own: &str, peer: &str, asn: u32, peer_as: u32| {
        ios(
            name,
            &format!("interface Gi0/0\n ip address {own} 255.255.255.252\nrouter bgp {asn}\n neighbor {peer} remote-as {peer_as}\n redistribute connected\n"),
        )
    };
    let a1 = pair("a1", "10.1.1.1", "10.1.1.2", 100, 200);
    let a2 = pair("a2", "10.1.1.2", "10.1.1.1", 200, 100);
    let ribs = run(&[
        (Vendor::CiscoIos, &a1),
        (Vendor::CiscoIos, &a2),
        (Vendor::CiscoIos, &a1),
        (Vendor::CiscoIos, &a2),
    ]);
    assert!(
        ribs[0].incomplete.iter().any(|i| i
            .reason
            .contains("several devices own (10.1.1.2 on r2, r4)")),
        "{:?}",
        ribs[0].incomplete
    );
}

/// `continue`: the clause's sets apply and evaluation goes on at the named clause (a
/// clause that does not match is passed over; none matching keeps the path as changed).
/// EOS stops at a `continue` to a sequence number no clause has.
#[test]
fn route_map_continue_carries_the_sets_on() {
    let eos = |name: &str, body: &str| format!("hostname {name}\n{body}end\n");
    let sender = eos(
        "r1",
        "interface Ethernet1\n   no switchport\n   ip address 10.0.12.1/24\ninterface Loopback0\n   ip address 1.1.1.1/32\nrouter bgp 65001\n   neighbor 10.0.12.2 remote-as 65002\n   network 1.1.1.1/32\n",
    );
    let receiver = |maps: &str| {
        eos(
            "r2",
            &format!("interface Ethernet1\n   no switchport\n   ip address 10.0.12.2/24\nip prefix-list OTHER seq 10 permit 9.9.9.9/32\n{maps}router bgp 65002\n   neighbor 10.0.12.1 remote-as 65001\n   neighbor 10.0.12.1 route-map IN in\n"),
        )
    };
    let path_of = |maps: &str| {
        let r2 = receiver(maps);
        let ribs = run(&[(Vendor::AristaEos, &sender), (Vendor::AristaEos, &r2)]);
        assert!(ribs[1].incomplete.is_empty(), "{:?}", ribs[1].incomplete);
        ribs[1]
            .bgp
            .iter()
            .map(|p| p.as_path.clone())
            .collect::<Vec<_>>()
    };
    // 10 continues to 30, which does not match; 40 does.
    assert_eq!(
        path_of("route-map IN permit 10\n   continue 30\n   set as-path prepend 10\nroute-map IN permit 20\n   set as-path prepend 20\nroute-map IN permit 30\n   match ip address prefix-list OTHER\n   set as-path prepend 30\nroute-map IN permit 40\n   set as-path prepend 40\n"),
        [vec![40, 10, 65001]]
    );
    // No clause 30: EOS stops with clause 10's sets.
    assert_eq!(
        path_of("route-map IN permit 10\n   continue 30\n   set as-path prepend 10\nroute-map IN permit 20\n   set as-path prepend 20\nroute-map IN permit 40\n   set as-path prepend 40\n"),
        [vec![10, 65001]]
    );
    // A deny after a continue denies.
    assert!(path_of(
        "route-map IN permit 10\n   continue\n   set as-path prepend 10\nroute-map IN deny 20\n"
    )
    .is_empty());
}

/// Junos community members as regular expressions (AS part and value part each): a
/// `community delete` of `.*:.*` strips every community; `from community` with
/// `65001:1.*` matches 65001:10 and not 65002:1.
#[test]
fn junos_community_expressions_match_and_delete() {
    let j1 = "set system host-name r1
set interfaces xe-0/0/0 unit 0 family inet address 10.0.12.1/24
set interfaces lo0 unit 0 family inet address 1.1.1.1/32
set interfaces lo0 unit 0 family inet address 1.1.1.2/32
set routing-options autonomous-system 65001
set policy-options prefix-list ONE 1.1.1.1/32
set policy-options community TEN members 65001:10
set policy-options community OTHER members 65002:1
set policy-options policy-statement OUT term a from prefix-list ONE
set policy-options policy-statement OUT term a then community add TEN
set policy-options policy-statement OUT term a then accept
set policy-options policy-statement OUT term b from protocol direct
set policy-options policy-statement OUT term b then community add OTHER
set policy-options policy-statement OUT term b then accept
set protocols bgp group EXT type external
set protocols bgp group EXT peer-as 65002
set protocols bgp group EXT neighbor 10.0.12.2 export OUT
";
    let j2 = |import: &str| {
        format!(
            "set system host-name r2
set interfaces xe-0/0/0 unit 0 family inet address 10.0.12.2/24
set routing-options autonomous-system 65002
set policy-options community ANY members .*:.*
set policy-options community FROM-ONE members 65001:1.*
{import}set protocols bgp group EXT type external
set protocols bgp group EXT peer-as 65001
set protocols bgp group EXT neighbor 10.0.12.1 import IN
"
        )
    };
    let strip = j2(
        "set policy-options policy-statement IN term a then community delete ANY
set policy-options policy-statement IN term a then accept
",
    );
    let ribs = run(&[(Vendor::JuniperJunos, j1), (Vendor::JuniperJunos, &strip)]);
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
    assert_eq!(ribs[1].bgp.len(), 3, "{:?}", ribs[1].bgp);
    assert!(ribs[1].bgp.iter().all(|p| p.communities.is_empty()));
    let only = j2(
        "set policy-options policy-statement IN term a from community FROM-ONE
set policy-options policy-statement IN term a then accept
set policy-options policy-statement IN term b then reject
",
    );
    let ribs = run(&[(Vendor::JuniperJunos, j1), (Vendor::JuniperJunos, &only)]);
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
    assert_eq!(bgp(&ribs[1]), ["1.1.1.1/32 bgp [170/0] 10.0.12.1"]);
}

/// Junos adds an export policy's `as-path-prepend` after its own AS (the receivers of
/// `junos_as_path_acl` show `65102 65100`); IOS puts its own AS in front.
#[test]
fn junos_prepends_after_its_own_as() {
    let j1 = "set system host-name r1
set interfaces xe-0/0/0 unit 0 family inet address 10.0.12.1/24
set interfaces lo0 unit 0 family inet address 1.1.1.1/32
set routing-options autonomous-system 65100
set policy-options policy-statement OUT term a from protocol direct
set policy-options policy-statement OUT term a then as-path-prepend 65102
set policy-options policy-statement OUT term a then accept
set protocols bgp group EXT type external
set protocols bgp group EXT peer-as 65002
set protocols bgp group EXT neighbor 10.0.12.2 export OUT
";
    let j2 = "set system host-name r2
set interfaces xe-0/0/0 unit 0 family inet address 10.0.12.2/24
set routing-options autonomous-system 65002
set protocols bgp group EXT type external
set protocols bgp group EXT peer-as 65100
set protocols bgp group EXT neighbor 10.0.12.1
";
    let ribs = run(&[(Vendor::JuniperJunos, j1), (Vendor::JuniperJunos, j2)]);
    let b = ribs[1]
        .bgp
        .iter()
        .find(|b| b.network.to_string() == "1.1.1.1/32")
        .expect("path");
    assert_eq!(b.as_path, vec![65102, 65100]);
}

/// A neighbour whose configuration stops before its `end` (truncated): what it would
/// send is not known, and the device peering with it says so.
#[test]
fn a_truncated_neighbour_makes_its_peers_incomplete() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n",
    );
    let r2 =
        "hostname r2\ninterface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n";
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, r2)]);
    assert!(
        ribs[0].incomplete.iter().any(|i| i
            .reason
            .contains("BGP peer r2, whose configuration olav could not fully read")),
        "{:?}",
        ribs[0].incomplete
    );
}

/// A session to a known device whose interface is shut is down, not a peer outside the
/// network (a trial user's finding: every "shut this link" what-if came out partial).
#[test]
fn a_peer_behind_a_shut_interface_is_down_not_outside() {
    let r1 = ios(
        "r1",
        "interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n network 1.1.1.1 mask 255.255.255.255\n",
    );
    let r2 = ios(
        "r2",
        "interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\n shutdown\ninterface Loopback0\n ip address 2.2.2.2 255.255.255.255\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n network 2.2.2.2 mask 255.255.255.255\n",
    );
    let ribs = run(&[(Vendor::CiscoIos, &r1), (Vendor::CiscoIos, &r2)]);
    assert!(bgp(&ribs[0]).is_empty(), "{:?}", bgp(&ribs[0]));
    assert!(bgp(&ribs[1]).is_empty(), "{:?}", bgp(&ribs[1]));
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "{ribs:?}");
}

/// A password on one side only keeps the session down (a trial user's finding: the
/// routes were exchanged anyway); on both sides it comes up (keys are not compared).
#[test]
fn a_password_on_one_side_only_keeps_the_session_down() {
    let r1 = |extra: &str| {
        ios(
            "r1",
            &format!("interface Gi0/0\n ip address 10.0.12.1 255.255.255.0\ninterface Loopback0\n ip address 1.1.1.1 255.255.255.255\nrouter bgp 65001\n neighbor 10.0.12.2 remote-as 65002\n{extra} network 1.1.1.1 mask 255.255.255.255\n"),
        )
    };
    let r2 = |extra: &str| {
        ios(
            "r2",
            &format!("interface Gi0/0\n ip address 10.0.12.2 255.255.255.0\nrouter bgp 65002\n neighbor 10.0.12.1 remote-as 65001\n{extra}"),
        )
    };
    let one = run(&[
        (
            Vendor::CiscoIos,
            &r1(" neighbor 10.0.12.2 password 7 0822455D0A16\n"),
        ),
        (Vendor::CiscoIos, &r2("")),
    ]);
    assert!(bgp(&one[1]).is_empty(), "{:?}", bgp(&one[1]));
    let both = run(&[
        (
            Vendor::CiscoIos,
            &r1(" neighbor 10.0.12.2 password s3cret\n"),
        ),
        (
            Vendor::CiscoIos,
            &r2(" neighbor 10.0.12.1 password s3cret\n"),
        ),
    ]);
    assert_eq!(bgp(&both[1]), ["1.1.1.1/32 bgp [20/0] 10.0.12.1"]);
}
