//! IS-IS on small hand-made networks, each device read by its vendor's parser and the
//! network computed at once.

use crate::model::Vendor;
use crate::routing::testkit::{adjacencies, rows, run};
use crate::routing::DeviceRib;

/// `network protocol [AD/metric] next-hop` of the IS-IS rows.
fn isis(r: &DeviceRib) -> Vec<String> {
    rows(r, "isis")
}

/// An IOS router `rN`: loopback `10.255.0.N/32`, the interfaces (name, address /30) and
/// the `router isis` body.
fn ios(n: u8, ifs: &[(&str, &str)], body: &str) -> (String, Vendor, String) {
    let mut s = format!(
        "hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\n ip router isis\n"
    );
    for (name, addr) in ifs {
        s.push_str(&format!(
            "interface {name}\n ip address {addr} 255.255.255.252\n ip router isis\n"
        ));
    }
    s.push_str(&format!("router isis\n{body}"));
    (format!("r{n}"), Vendor::CiscoIos, s)
}

fn net(devices: Vec<(String, Vendor, String)>) -> Vec<DeviceRib> {
    let v: Vec<(&str, Vendor, String)> = devices
        .iter()
        .map(|(h, v, t)| (h.as_str(), *v, t.clone()))
        .collect();
    run(&v)
}

/// Three level-2 routers in a line: metrics add up per interface (10 each, loopbacks 10).
#[test]
fn level_2_chain() {
    let body = |n: u8| format!(" net 49.000{n}.0000.0000.000{n}.00\n is-type level-2-only\n");
    let rib = net(vec![
        ios(1, &[("GigabitEthernet1", "10.0.12.1")], &body(1)),
        ios(
            2,
            &[
                ("GigabitEthernet1", "10.0.12.2"),
                ("GigabitEthernet2", "10.0.23.1"),
            ],
            &body(2),
        ),
        ios(3, &[("GigabitEthernet1", "10.0.23.2")], &body(3)),
    ]);
    assert_eq!(
        isis(&rib[0]),
        [
            "10.0.23.0/30 isisL2 [115/20] 10.0.12.2 via GigabitEthernet1",
            "10.255.0.2/32 isisL2 [115/20] 10.0.12.2 via GigabitEthernet1",
            "10.255.0.3/32 isisL2 [115/30] 10.0.12.2 via GigabitEthernet1",
        ]
    );
    assert!(rib.iter().all(|r| r.incomplete.is_empty()));
}

/// A level-1 router behind a level-1-2 one: level-1 routes in its area and a default
/// route towards the attached router; the far level-2 router hears the area's prefixes
/// leaked into level 2.
#[test]
fn levels_attached_default_and_leaking() {
    let rib = net(vec![
        ios(
            1,
            &[("GigabitEthernet1", "10.0.12.1")],
            " net 49.0001.0000.0000.0001.00\n is-type level-1\n",
        ),
        ios(
            2,
            &[
                ("GigabitEthernet1", "10.0.12.2"),
                ("GigabitEthernet2", "10.0.23.1"),
            ],
            " net 49.0001.0000.0000.0002.00\n",
        ),
        ios(
            3,
            &[("GigabitEthernet1", "10.0.23.2")],
            " net 49.0002.0000.0000.0003.00\n is-type level-2-only\n",
        ),
    ]);
    assert_eq!(
        isis(&rib[0]),
        [
            "0.0.0.0/0 isisL1 [115/10] 10.0.12.2 via GigabitEthernet1",
            "10.0.23.0/30 isisL1 [115/20] 10.0.12.2 via GigabitEthernet1",
            "10.255.0.2/32 isisL1 [115/20] 10.0.12.2 via GigabitEthernet1",
        ]
    );
    assert_eq!(
        isis(&rib[2]),
        [
            "10.0.12.0/30 isisL2 [115/20] 10.0.23.1 via GigabitEthernet1",
            "10.255.0.1/32 isisL2 [115/30] 10.0.23.1 via GigabitEthernet1",
            "10.255.0.2/32 isisL2 [115/20] 10.0.23.1 via GigabitEthernet1",
        ]
    );
}

/// Junos: `family iso` units only, `lo0` at metric 0, preferences 15 / 18.
#[test]
fn junos_levels_and_preferences() {
    let j = |n: u8, level1_off: bool| {
        let mut s = format!("set system host-name j{n}\nset interfaces ge-0/0/0 unit 0 family inet address 10.0.0.{n}/24\nset interfaces ge-0/0/0 unit 0 family iso\nset interfaces lo0 unit 0 family inet address 10.255.0.{n}/32\nset interfaces lo0 unit 0 family iso address 49.0001.0000.0000.000{n}.00\nset protocols isis interface ge-0/0/0.0\nset protocols isis interface lo0.0 passive\n");
        if level1_off {
            s.push_str("set protocols isis level 1 disable\n");
        }
        (format!("j{n}"), Vendor::JuniperJunos, s)
    };
    let rib = net(vec![j(1, false), j(2, false)]);
    assert_eq!(
        isis(&rib[0]),
        ["10.255.0.2/32 isisL1 [15/10] 10.0.0.2 via ge-0/0/0.0"]
    );
    let rib = net(vec![j(1, true), j(2, true)]);
    assert_eq!(
        isis(&rib[0]),
        ["10.255.0.2/32 isisL2 [18/10] 10.0.0.2 via ge-0/0/0.0"]
    );
}

/// A narrow-only router next to a wide-only one: the domain says so instead of guessing.
#[test]
fn metric_style_mismatch_is_incomplete() {
    let eos = "hostname e2\ninterface Ethernet1\n   no switchport\n   ip address 10.0.12.2/30\n   isis enable CORE\nrouter isis CORE\n   net 49.0001.0000.0000.0002.00\n   address-family ipv4 unicast\n".to_owned();
    let rib = net(vec![
        ios(
            1,
            &[("GigabitEthernet1", "10.0.12.1")],
            " net 49.0001.0000.0000.0001.00\n",
        ),
        ("e2".to_owned(), Vendor::AristaEos, eos),
    ]);
    assert!(rib.iter().all(|r| r.incomplete.iter().any(|i| i
        .reason
        .contains("metric styles differ (narrow on r1, wide on e2)"))));
}

/// NX-OS: interface metrics from a 40 Gbit/s reference (40 on Ethernet), loopbacks 1;
/// IS-IS lines on interfaces enable it.
#[test]
fn nxos_default_metrics() {
    let nx = |n: u8| {
        (format!("n{n}"), Vendor::CiscoNxos, format!("hostname n{n}\nfeature isis\nrouter isis CORE\n  net 49.0001.0000.0000.000{n}.00\n  is-type level-2\ninterface loopback0\n  ip address 10.255.0.{n}/32\n  ip router isis CORE\ninterface Ethernet1/1\n  no switchport\n  ip address 10.0.0.{n}/24\n  ip router isis CORE\n  no shutdown\n"))
    };
    let rib = net(vec![nx(1), nx(2)]);
    assert_eq!(
        isis(&rib[0]),
        ["10.255.0.2/32 isisL2 [115/41] 10.0.0.2 via Ethernet1/1"]
    );
}

/// `redistribute connected` (level 2, metric 0 unless written): the neighbour reaches the
/// subnet at its path cost plus the written metric.
#[test]
fn redistributed_connected_routes() {
    let mut r1 = ios(
        1,
        &[("GigabitEthernet1", "10.0.12.1")],
        " net 49.0001.0000.0000.0001.00\n is-type level-2-only\n redistribute connected metric 5\n",
    );
    r1.2 = r1.2.replace(
        "\nrouter isis\n",
        "\ninterface GigabitEthernet3\n ip address 172.16.0.1 255.255.255.0\nrouter isis\n",
    );
    let rib = net(vec![
        r1,
        ios(
            2,
            &[("GigabitEthernet1", "10.0.12.2")],
            " net 49.0001.0000.0000.0002.00\n is-type level-2-only\n",
        ),
    ]);
    assert_eq!(
        isis(&rib[1]),
        [
            "10.255.0.1/32 isisL2 [115/20] 10.0.12.1 via GigabitEthernet1",
            "172.16.0.0/24 isisL2 [115/15] 10.0.12.1 via GigabitEthernet1",
        ]
    );
}

/// EOS: IS-IS carries IPv4 only under `address-family ipv4 unicast`; metrics 10.
#[test]
fn eos_needs_the_ipv4_address_family() {
    let e = |n: u8, af: &str| {
        (format!("e{n}"), Vendor::AristaEos, format!("hostname e{n}\ninterface Ethernet1\n   no switchport\n   ip address 10.0.0.{n}/24\n   isis enable CORE\ninterface Loopback0\n   ip address 10.255.0.{n}/32\n   isis enable CORE\nrouter isis CORE\n   net 49.0001.0000.0000.000{n}.00\n   is-type level-2\n{af}"))
    };
    let af = "   address-family ipv4 unicast\n";
    let rib = net(vec![e(1, af), e(2, af)]);
    assert_eq!(
        isis(&rib[0]),
        ["10.255.0.2/32 isisL2 [115/20] 10.0.0.2 via Ethernet1"]
    );
    let rib = net(vec![e(1, ""), e(2, "")]);
    assert!(rib.iter().all(|r| isis(r).is_empty()));
}

/// IS-IS adjacencies per level: two level-2-only routers form one at level 2; a level-1
/// router in another area forms none with a level-1-2 router (no common area at level
/// 1, and it does not run level 2).
#[test]
fn adjacencies_per_level() {
    let found = |devices: &[(String, Vendor, String)]| {
        let v: Vec<(&str, Vendor, String)> = devices
            .iter()
            .map(|(h, v, t)| (h.as_str(), *v, t.clone()))
            .collect();
        adjacencies(&v).0
    };
    let l2 = |n: u8| format!(" net 49.000{n}.0000.0000.000{n}.00\n is-type level-2-only\n");
    assert_eq!(
        found(&[
            ios(1, &[("GigabitEthernet1", "10.0.12.1")], &l2(1)),
            ios(2, &[("GigabitEthernet1", "10.0.12.2")], &l2(2)),
        ]),
        ["IS-IS level 2 r1 GigabitEthernet1 ↔ r2 GigabitEthernet1"]
    );
    let apart = found(&[
        ios(
            1,
            &[("GigabitEthernet1", "10.0.12.1")],
            " net 49.0001.0000.0000.0001.00\n is-type level-1\n",
        ),
        ios(
            2,
            &[("GigabitEthernet1", "10.0.12.2")],
            " net 49.0002.0000.0000.0002.00\n",
        ),
    ]);
    assert!(apart.is_empty(), "{apart:?}");
}
