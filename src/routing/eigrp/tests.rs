//! EIGRP on small hand-made networks, each device read by its vendor's parser and the
//! network computed at once; metrics as the devices print them.

use crate::model::Vendor;
use crate::routing::testkit::{adjacencies, rows, run};
use crate::routing::DeviceRib;

/// `network protocol [AD/metric] next-hop` of the EIGRP rows.
fn eigrp(r: &DeviceRib) -> Vec<String> {
    rows(r, "eigrp")
}

fn reasons(r: &DeviceRib) -> Vec<&str> {
    r.incomplete.iter().map(|i| i.reason.as_str()).collect()
}

/// Two IOS routers as in the corpus' `iosxe_redistribution` (D1 and D3): a loopback /32
/// over GigabitEthernet is `[90/130816]` (256 × (10 + 1 + 500)); D1's connected routes
/// redistributed with `metric 1000 100 …` are `[170/2585856]` on D3 (256 × (10,000 + 101)).
#[test]
fn classic_metrics_internal_and_external() {
    let d1 = "hostname D1\ninterface Loopback123\n ip address 192.168.123.1 255.255.255.255\ninterface GigabitEthernet2\n ip address 10.13.21.1 255.255.255.0\ninterface GigabitEthernet3\n ip address 10.14.31.1 255.255.255.0\nrouter eigrp 1\n network 10.13.21.0 0.0.0.255\n redistribute connected metric 1000 100 255 1 1500\n passive-interface default\n no passive-interface GigabitEthernet2\n".to_owned();
    let d3 = "hostname D3\ninterface Loopback123\n ip address 192.168.123.3 255.255.255.255\ninterface GigabitEthernet1\n ip address 10.13.21.2 255.255.255.0\nrouter eigrp 1\n network 10.13.21.0 0.0.0.255\n network 192.168.123.3 0.0.0.0\n passive-interface default\n no passive-interface GigabitEthernet1\n eigrp router-id 192.168.123.3\n".to_owned();
    let r = run(&[("D1", Vendor::CiscoIos, d1), ("D3", Vendor::CiscoIos, d3)]);
    assert_eq!(
        eigrp(&r[0]),
        ["192.168.123.3/32 eigrp [90/130816] 10.13.21.2 via GigabitEthernet2"]
    );
    assert_eq!(
        eigrp(&r[1]),
        [
            "10.14.31.0/24 eigrpEX [170/2585856] 10.13.21.1 via GigabitEthernet1",
            "192.168.123.1/32 eigrpEX [170/2585856] 10.13.21.1 via GigabitEthernet1",
        ]
    );
    assert!(
        r.iter().all(|x| x.incomplete.is_empty()),
        "{:?}",
        r[0].incomplete
    );
}

/// A triangle where the direct link's delay equals the two-hop path's: both kept (ECMP).
#[test]
fn equal_composite_metrics_are_ecmp() {
    let r = |n: u8, a: (&str, &str), b: (&str, &str)| {
        format!(
            "hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\ninterface GigabitEthernet1\n ip address {} 255.255.255.252\n delay {}\ninterface GigabitEthernet2\n ip address {} 255.255.255.252\n delay {}\nrouter eigrp 10\n network 10.0.0.0\n",
            a.0, a.1, b.0, b.1
        )
    };
    let net = [
        (
            "r1",
            Vendor::CiscoIos,
            r(1, ("10.0.12.1", "100"), ("10.0.13.1", "50")),
        ),
        (
            "r2",
            Vendor::CiscoIos,
            r(2, ("10.0.12.2", "100"), ("10.0.23.2", "50")),
        ),
        (
            "r3",
            Vendor::CiscoIos,
            r(3, ("10.0.13.2", "50"), ("10.0.23.1", "50")),
        ),
    ];
    let rib = run(&net);
    let to_r2: Vec<String> = eigrp(&rib[0])
        .into_iter()
        .filter(|x| x.starts_with("10.255.0.2/32"))
        .collect();
    // 256 × (10 + 100 + 500) either way.
    assert_eq!(
        to_r2,
        [
            "10.255.0.2/32 eigrp [90/156160] 10.0.12.2 via GigabitEthernet1",
            "10.255.0.2/32 eigrp [90/156160] 10.0.13.2 via GigabitEthernet2",
        ]
    );
}

/// Named mode: wide metrics shown over the RIB scale; a Gigabit link and a loopback
/// (8 Gbit/s, 1.25 µs) give 10880 — (655,360 + 11.25 × 10⁶ × 65,536 / 10⁶) / 128.
#[test]
fn named_mode_wide_metrics() {
    let r = |n: u8, a: &str| {
        format!("hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\ninterface GigabitEthernet1\n ip address {a} 255.255.255.0\nrouter eigrp CORE\n address-family ipv4 unicast autonomous-system 100\n  network 10.0.0.0\n exit-address-family\n")
    };
    let rib = run(&[
        ("r1", Vendor::CiscoIos, r(1, "10.0.0.1")),
        ("r2", Vendor::CiscoIos, r(2, "10.0.0.2")),
    ]);
    assert_eq!(
        eigrp(&rib[0]),
        ["10.255.0.2/32 eigrp [90/10880] 10.0.0.2 via GigabitEthernet1"]
    );
}

/// NX-OS interface mode; a passive interface or another AS makes no neighbour; what is
/// not modelled is named on every router of the domain.
#[test]
fn nxos_passive_other_as_and_unmodelled() {
    let nx = |n: u8, asn: u32, extra: &str| {
        format!("hostname n{n}\nfeature eigrp\nrouter eigrp {asn}\ninterface loopback0\n  ip address 10.255.0.{n}/32\n  ip router eigrp {asn}\ninterface Ethernet1/1\n  no switchport\n  ip address 10.0.0.{n}/24\n  ip router eigrp {asn}\n{extra}  no shutdown\n")
    };
    let rib = run(&[
        ("n1", Vendor::CiscoNxos, nx(1, 1, "")),
        ("n2", Vendor::CiscoNxos, nx(2, 1, "")),
    ]);
    assert_eq!(
        eigrp(&rib[0]),
        ["10.255.0.2/32 eigrp [90/130816] 10.0.0.2 via Ethernet1/1"]
    );
    let rib = run(&[
        (
            "n1",
            Vendor::CiscoNxos,
            nx(1, 1, "  ip passive-interface eigrp 1\n"),
        ),
        ("n2", Vendor::CiscoNxos, nx(2, 1, "")),
        ("n3", Vendor::CiscoNxos, nx(3, 2, "")),
    ]);
    assert!(rib.iter().all(|r| eigrp(r).is_empty()));
    let ios = |n: u8, extra: &str| {
        format!("hostname r{n}\ninterface GigabitEthernet1\n ip address 10.0.0.{n} 255.255.255.0\nrouter eigrp 1\n network 10.0.0.0 0.0.0.255\n{extra}")
    };
    let rib = run(&[
        (
            "r1",
            Vendor::CiscoIos,
            ios(1, " redistribute static route-map RM\n"),
        ),
        ("r2", Vendor::CiscoIos, ios(2, "")),
    ]);
    // r1's own externals leave only its neighbour incomplete.
    assert_eq!(
        reasons(&rib[1]),
        ["EIGRP redistributions with an undefined route-map RM (r1) not computed yet"]
    );
    assert!(reasons(&rib[0]).is_empty());
}

/// `iosxe_redistribution` D1: connected routes redistributed through a route-map whose
/// prefix-list permits only the loopback reach D3 as that one external; a route-map that
/// sets something, or matches on anything but prefix-lists, stays incomplete.
#[test]
fn redistribution_through_a_prefix_list_route_map() {
    let d1 = |map: &str| {
        format!("hostname D1\ninterface Loopback123\n ip address 192.168.123.1 255.255.255.255\ninterface GigabitEthernet2\n ip address 10.13.21.1 255.255.255.0\ninterface GigabitEthernet3\n ip address 10.14.31.1 255.255.255.0\nrouter eigrp 1\n network 10.13.21.0 0.0.0.255\n redistribute connected metric 1000 100 255 1 1500 route-map RC\nip prefix-list LO seq 5 permit 192.168.123.1/32\nroute-map RC permit 10\n match ip address prefix-list LO\n{map}")
    };
    let d3 = "hostname D3\ninterface GigabitEthernet1\n ip address 10.13.21.2 255.255.255.0\nrouter eigrp 1\n network 10.13.21.0 0.0.0.255\n".to_owned();
    let r = run(&[
        ("D1", Vendor::CiscoIos, d1("")),
        ("D3", Vendor::CiscoIos, d3.clone()),
    ]);
    assert_eq!(
        eigrp(&r[1]),
        ["192.168.123.1/32 eigrpEX [170/2585856] 10.13.21.1 via GigabitEthernet1"]
    );
    assert!(r.iter().all(|x| x.incomplete.is_empty()), "{r:?}");
    for (extra, why) in [
        (" set tag 7\n", "EIGRP redistribution route-map RC (its set statements are not evaluated) (D1) not computed yet"),
        (" match interface GigabitEthernet3\n", "EIGRP redistribution route-map RC ('match interface GigabitEthernet3' is not evaluated) (D1) not computed yet"),
    ] {
        let r = run(&[
            ("D1", Vendor::CiscoIos, d1(extra)),
            ("D3", Vendor::CiscoIos, d3.clone()),
        ]);
        assert!(eigrp(&r[1]).is_empty(), "{extra}");
        assert_eq!(reasons(&r[1]), [why]);
    }
}

/// A port-channel's bandwidth is its up members' sum: two Gigabit members give 2 Gbit/s,
/// 256 × (5 + 1 + 500) = 129536 to the neighbour's loopback.
#[test]
fn port_channel_bandwidth_is_the_members_sum() {
    let r = |n: u8| {
        format!("hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\ninterface Port-channel1\n ip address 10.0.0.{n} 255.255.255.0\ninterface GigabitEthernet1\n channel-group 1 mode active\ninterface GigabitEthernet2\n channel-group 1 mode active\nrouter eigrp 1\n network 10.0.0.0\n")
    };
    let rib = run(&[
        ("r1", Vendor::CiscoIos, r(1)),
        ("r2", Vendor::CiscoIos, r(2)),
    ]);
    assert_eq!(
        eigrp(&rib[0]),
        ["10.255.0.2/32 eigrp [90/129536] 10.0.0.2 via Port-channel1"]
    );
}

/// `redistribute connected` without a metric: each connected route with its interface's
/// bandwidth and delay, 256 × (10 + 1 + 1) = 3072 one Gigabit hop away.
#[test]
fn connected_redistribution_takes_the_interface_metric() {
    let r1 = "hostname r1\ninterface GigabitEthernet1\n ip address 10.0.0.1 255.255.255.0\ninterface GigabitEthernet3\n ip address 10.14.31.1 255.255.255.0\nrouter eigrp 1\n network 10.0.0.0 0.0.0.255\n redistribute connected\n".to_owned();
    let r2 = "hostname r2\ninterface GigabitEthernet1\n ip address 10.0.0.2 255.255.255.0\nrouter eigrp 1\n network 10.0.0.0 0.0.0.255\n".to_owned();
    let rib = run(&[("r1", Vendor::CiscoIos, r1), ("r2", Vendor::CiscoIos, r2)]);
    assert_eq!(
        eigrp(&rib[1]),
        ["10.14.31.0/24 eigrpEX [170/3072] 10.0.0.1 via GigabitEthernet1"]
    );
}

/// Distribute-lists: a prefix-list out on one router, a route-map (prefix-lists only) in
/// on the other; an access-list one is named incomplete instead.
#[test]
fn distribute_lists_filter_what_they_say() {
    let r = |n: u8, extra: &str| {
        format!("hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\ninterface Loopback1\n ip address 10.254.0.{n} 255.255.255.255\ninterface GigabitEthernet1\n ip address 10.0.0.{n} 255.255.255.0\nip prefix-list NOT_LO0 seq 5 deny 10.255.0.0/16 le 32\nip prefix-list NOT_LO0 seq 10 permit 0.0.0.0/0 le 32\nip prefix-list LO1 seq 5 permit 10.254.0.0/16 le 32\nroute-map ONLY_LO1 permit 10\n match ip address prefix-list LO1\n set tag 5\nrouter eigrp 1\n network 10.0.0.0\n{extra}")
    };
    let rib = run(&[
        (
            "r1",
            Vendor::CiscoIos,
            r(1, " distribute-list prefix NOT_LO0 out\n"),
        ),
        (
            "r2",
            Vendor::CiscoIos,
            r(
                2,
                " distribute-list route-map ONLY_LO1 in GigabitEthernet1\n",
            ),
        ),
    ]);
    // r2 takes only Loopback1s in; r1 sends no Loopback0.
    assert_eq!(
        eigrp(&rib[1]),
        ["10.254.0.1/32 eigrp [90/130816] 10.0.0.1 via GigabitEthernet1"]
    );
    assert_eq!(
        eigrp(&rib[0]),
        [
            "10.254.0.2/32 eigrp [90/130816] 10.0.0.2 via GigabitEthernet1",
            "10.255.0.2/32 eigrp [90/130816] 10.0.0.2 via GigabitEthernet1",
        ]
    );
    assert!(rib.iter().all(|x| x.incomplete.is_empty()));
    let rib = run(&[
        ("r1", Vendor::CiscoIos, r(1, " distribute-list 10 in\n")),
        ("r2", Vendor::CiscoIos, r(2, "")),
    ]);
    assert_eq!(
        reasons(&rib[1]),
        ["EIGRP distribute-lists by access-list 10 (r1) not computed yet"]
    );
}

/// NX-OS distribute-lists on the interface.
#[test]
fn nxos_interface_distribute_lists() {
    let nx = |n: u8, other: u8| {
        format!("hostname n{n}\nfeature eigrp\ninterface Ethernet1/1\n  no switchport\n  ip address 10.0.0.{n}/24\n  ip router eigrp 1\n  ip distribute-list eigrp 1 prefix-list BLOCK in\n  no shutdown\ninterface loopback100\n  ip address 172.16.100.{n}/32\n  ip router eigrp 1\nip prefix-list BLOCK seq 5 deny 172.16.100.{other}/32\nip prefix-list BLOCK seq 10 permit 0.0.0.0/0 le 32\nrouter eigrp 1\n")
    };
    let rib = run(&[
        ("n1", Vendor::CiscoNxos, nx(1, 2)),
        ("n2", Vendor::CiscoNxos, nx(2, 1)),
    ]);
    assert!(eigrp(&rib[0]).is_empty(), "{:?}", eigrp(&rib[0]));
    assert!(rib[0].incomplete.is_empty(), "{:?}", rib[0].incomplete);
}

/// The routes do not depend on the order the devices come in: a ring of five routers
/// running EIGRP (unequal delays) and IS-IS, computed forwards and backwards.
#[test]
fn results_do_not_depend_on_device_order() {
    let r = |n: u8| {
        let (a, b) = (n, n % 5 + 1);
        let prev = if n == 1 { 5 } else { n - 1 };
        format!("hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\n ip router isis\ninterface GigabitEthernet1\n ip address 10.{a}.{b}.1 255.255.255.0\n delay {}\n ip router isis\ninterface GigabitEthernet2\n ip address 10.{prev}.{n}.2 255.255.255.0\n ip router isis\nrouter eigrp 1\n network 10.0.0.0\nrouter isis\n net 49.0001.0000.0000.000{n}.00\n", 10 * u32::from(n))
    };
    let names: Vec<String> = (1..=5).map(|n| format!("r{n}")).collect();
    let devices: Vec<(&str, Vendor, String)> = names
        .iter()
        .zip(1..=5u8)
        .map(|(h, n)| (h.as_str(), Vendor::CiscoIos, r(n)))
        .collect();
    let forwards = run(&devices);
    let mut reversed = devices.clone();
    reversed.reverse();
    let mut backwards = run(&reversed);
    backwards.reverse();
    assert_eq!(forwards, backwards);
    assert!(forwards.iter().all(|x| x.incomplete.is_empty()));
    assert!(forwards
        .iter()
        .all(|x| x.routes.iter().any(|r| r.protocol.as_str() == "eigrp")));
}

/// A stub router in the middle of a chain advertises its connected subnets only: the
/// routers either side learn its subnets and loopback, never each other's loopback.
#[test]
fn stub_routers_pass_on_only_their_own() {
    let r = |n: u8, ifs: &[(&str, &str)], extra: &str| {
        let mut s = format!(
            "hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\n"
        );
        for (name, a) in ifs {
            s.push_str(&format!(
                "interface {name}\n ip address {a} 255.255.255.0\n"
            ));
        }
        s.push_str(&format!("router eigrp 1\n network 10.0.0.0\n{extra}"));
        s
    };
    let chain = |stub: &str| {
        run(&[
            (
                "r1",
                Vendor::CiscoIos,
                r(1, &[("GigabitEthernet1", "10.0.12.1")], ""),
            ),
            (
                "r2",
                Vendor::CiscoIos,
                r(
                    2,
                    &[
                        ("GigabitEthernet1", "10.0.12.2"),
                        ("GigabitEthernet2", "10.0.23.2"),
                    ],
                    stub,
                ),
            ),
            (
                "r3",
                Vendor::CiscoIos,
                r(3, &[("GigabitEthernet1", "10.0.23.3")], ""),
            ),
        ])
    };
    let nets = |rib: &DeviceRib| -> Vec<String> {
        rib.routes
            .iter()
            .filter(|r| r.protocol.as_str() == "eigrp")
            .map(|r| r.network.to_string())
            .collect()
    };
    let rib = chain(" eigrp stub\n");
    assert_eq!(nets(&rib[0]), ["10.0.23.0/24", "10.255.0.2/32"]);
    assert_eq!(nets(&rib[2]), ["10.0.12.0/24", "10.255.0.2/32"]);
    // The stub still learns both sides.
    assert_eq!(nets(&rib[1]), ["10.255.0.1/32", "10.255.0.3/32"]);
    let rib = chain(" eigrp stub receive-only\n");
    assert!(nets(&rib[0]).is_empty() && nets(&rib[2]).is_empty());
    let rib = chain("");
    assert_eq!(
        nets(&rib[0]),
        ["10.0.23.0/24", "10.255.0.2/32", "10.255.0.3/32"]
    );
}

/// The adjacencies olav forms are the ones the route computation uses: D1–D3 over their
/// shared subnet, D3 learning D1's LAN over it; with D1's interface passive, no adjacency,
/// no route, and the reason names the passive interface.
#[test]
fn adjacencies_follow_the_route_computation() {
    let d1 = |passive: &str| {
        format!("hostname D1\ninterface GigabitEthernet2\n ip address 10.13.21.1 255.255.255.0\ninterface GigabitEthernet3\n ip address 10.14.31.1 255.255.255.0\nrouter eigrp 1\n network 10.0.0.0\n{passive}")
    };
    let d3 = "hostname D3\ninterface GigabitEthernet1\n ip address 10.13.21.2 255.255.255.0\nrouter eigrp 1\n network 10.13.21.0 0.0.0.255\n".to_owned();
    let up = [
        ("D1", Vendor::CiscoIos, d1("")),
        ("D3", Vendor::CiscoIos, d3.clone()),
    ];
    let (found, _) = adjacencies(&up);
    assert_eq!(
        found,
        ["EIGRP AS 1 D1 GigabitEthernet2 ↔ D3 GigabitEthernet1"]
    );
    assert_eq!(eigrp(&run(&up)[1]).len(), 1);
    let passive = [
        (
            "D1",
            Vendor::CiscoIos,
            d1(" passive-interface GigabitEthernet2\n"),
        ),
        ("D3", Vendor::CiscoIos, d3),
    ];
    let (none, igps) = adjacencies(&passive);
    assert!(none.is_empty(), "{none:?}");
    assert!(eigrp(&run(&passive)[1]).is_empty());
    let end = |d: &str, i: &str| crate::routing::adjacency::End {
        device: d.into(),
        interface: i.into(),
    };
    let gone = crate::routing::adjacency::Adjacency {
        protocol: "EIGRP",
        scope: "AS 1".into(),
        subnet: "10.13.21.0/24".parse().expect("a subnet"),
        ends: [end("D1", "GigabitEthernet2"), end("D3", "GigabitEthernet1")],
    };
    assert_eq!(igps.why_not(&gone), "D1 GigabitEthernet2 is passive");
}

/// A router's own externals never come back to it: D1 redistributing BGP (olav does not
/// compute that yet) leaves D3 incomplete, not D1 itself — unless another router of the
/// domain passes EIGRP routes on into another protocol (they could come back by it), or
/// D1 has iBGP routes its own externals could beat.
#[test]
fn a_router_is_not_incomplete_by_its_own_externals() {
    let d1 = |bgp_peer_as: u32| {
        format!("hostname D1\ninterface GigabitEthernet2\n ip address 10.13.21.1 255.255.255.0\ninterface GigabitEthernet3\n ip address 10.14.31.1 255.255.255.0\nrouter eigrp 1\n network 10.13.21.0 0.0.0.255\n redistribute bgp 65001 metric 800 100 255 1 1500\nrouter bgp 65001\n neighbor 10.14.31.2 remote-as {bgp_peer_as}\n")
    };
    let d3 = |extra: &str| {
        format!("hostname D3\ninterface GigabitEthernet1\n ip address 10.13.21.2 255.255.255.0\nrouter eigrp 1\n network 10.13.21.0 0.0.0.255\n{extra}")
    };
    let why = "EIGRP redistribution of bgp (D1) not computed yet";
    let has = |r: &DeviceRib| reasons(r).contains(&why);
    let r = run(&[
        ("D1", Vendor::CiscoIos, d1(65004)),
        ("D3", Vendor::CiscoIos, d3("")),
    ]);
    assert!(!has(&r[0]), "{:?}", r[0].incomplete);
    assert!(has(&r[1]), "{:?}", r[1].incomplete);
    let r = run(&[
        ("D1", Vendor::CiscoIos, d1(65004)),
        (
            "D3",
            Vendor::CiscoIos,
            d3("router ospf 1\n redistribute eigrp 1 subnets\n"),
        ),
    ]);
    assert!(has(&r[0]) && has(&r[1]));
    let r = run(&[
        ("D1", Vendor::CiscoIos, d1(65001)),
        ("D3", Vendor::CiscoIos, d3("")),
    ]);
    assert!(has(&r[0]) && has(&r[1]));
}
