//! OSPF on small hand-made networks, each device read by its vendor's parser and the
//! network computed at once.

use crate::model::Vendor;
use crate::routing::testkit::{self, rows, run_ios};
use crate::routing::DeviceRib;

/// An IOS router: loopback `10.255.0.N/32`, the given interfaces (name, address, mask
/// length, extra lines) and the `router ospf 1` body.
pub(super) fn ios(n: u8, ifs: &[(&str, &str, &str)], ospf: &str) -> (String, String) {
    let mut s =
        format!("hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\n");
    for (name, addr, extra) in ifs {
        s.push_str(&format!(
            "interface {name}\n ip address {addr} 255.255.255.252\n ip ospf network point-to-point\n{extra}"
        ));
    }
    s.push_str(&format!("router ospf 1\n{ospf}end\n"));
    (format!("r{n}"), s)
}

pub(super) fn run(devices: &[(String, String)]) -> Vec<DeviceRib> {
    run_ios(devices)
}

/// `network protocol [AD/metric] next-hop` of the OSPF rows.
pub(super) fn ospf(r: &DeviceRib) -> Vec<String> {
    rows(r, "ospf")
}

/// A triangle: r1–r2 cost 10, r1–r3 and r3–r2 cost 5: r1 reaches r2's loopback both ways
/// at 11 (ECMP, one row per next hop).
#[test]
fn triangle_costs_and_ecmp() {
    let all = " network 10.0.0.0 0.255.255.255 area 0\n";
    let net = [
        ios(
            1,
            &[
                ("GigabitEthernet0/1", "10.0.12.1", " ip ospf cost 10\n"),
                ("GigabitEthernet0/2", "10.0.13.1", " ip ospf cost 5\n"),
            ],
            all,
        ),
        ios(
            2,
            &[
                ("GigabitEthernet0/1", "10.0.12.2", " ip ospf cost 10\n"),
                ("GigabitEthernet0/2", "10.0.23.2", " ip ospf cost 5\n"),
            ],
            all,
        ),
        ios(
            3,
            &[
                ("GigabitEthernet0/1", "10.0.13.2", " ip ospf cost 5\n"),
                ("GigabitEthernet0/2", "10.0.23.1", " ip ospf cost 5\n"),
            ],
            all,
        ),
    ];
    let ribs = run(&net);
    let r1 = ospf(&ribs[0]);
    assert!(
        r1.contains(&"10.255.0.2/32 ospf [110/11] 10.0.12.2 via GigabitEthernet0/1".to_owned())
            && r1.contains(
                &"10.255.0.2/32 ospf [110/11] 10.0.13.2 via GigabitEthernet0/2".to_owned()
            ),
        "{r1:#?}"
    );
    assert!(r1.contains(&"10.255.0.3/32 ospf [110/6] 10.0.13.2 via GigabitEthernet0/2".to_owned()));
    // The r2–r3 link: 5 + 5 through r3 (10 straight to r2 + 5 is worse).
    assert!(r1.contains(&"10.0.23.0/30 ospf [110/10] 10.0.13.2 via GigabitEthernet0/2".to_owned()));
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "complete");
}

/// r1 in area 1, r2 the ABR, r3 in area 0 redistributing a static route (E2, metric 20)
/// and with a passive LAN; the passive side forms no adjacency but is advertised.
#[test]
fn two_areas_through_an_abr_and_external_routes() {
    let net = [
        ios(
            1,
            &[("GigabitEthernet0/1", "10.0.12.1", "")],
            " network 10.0.0.0 0.255.255.255 area 1\n",
        ),
        ios(
            2,
            &[
                ("GigabitEthernet0/1", "10.0.12.2", ""),
                ("GigabitEthernet0/2", "10.0.23.2", ""),
            ],
            " network 10.0.12.0 0.0.0.3 area 1\n network 10.0.0.0 0.255.255.255 area 0\n",
        ),
        {
            let (h, t) = ios(
                3,
                &[
                    ("GigabitEthernet0/1", "10.0.23.1", ""),
                    ("GigabitEthernet0/2", "10.0.34.1", ""),
                ],
                " passive-interface GigabitEthernet0/2\n redistribute static subnets\n network 10.0.0.0 0.255.255.255 area 0\n",
            );
            (
                h,
                t.replace("end\n", "\nip route 192.0.2.0 255.255.255.0 Null0\nend\n"),
            )
        },
        // Would be adjacent to r3 on 10.0.34.0/30, but r3's side is passive.
        ios(
            4,
            &[("GigabitEthernet0/1", "10.0.34.2", "")],
            " network 10.0.0.0 0.255.255.255 area 0\n",
        ),
    ];
    let ribs = run(&net);
    let r1 = ospf(&ribs[0]);
    let want = [
        "10.0.23.0/30 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1",
        "10.0.34.0/30 ospfIA [110/3] 10.0.12.2 via GigabitEthernet0/1",
        "10.255.0.2/32 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1",
        "10.255.0.3/32 ospfIA [110/3] 10.0.12.2 via GigabitEthernet0/1",
        "192.0.2.0/24 ospfE2 [110/20] 10.0.12.2 via GigabitEthernet0/1",
    ];
    assert_eq!(r1, want);
    let r3 = ospf(&ribs[2]);
    assert!(
        r3.contains(&"10.0.12.0/30 ospfIA [110/2] 10.0.23.2 via GigabitEthernet0/1".to_owned()),
        "{r3:#?}"
    );
    assert!(
        r3.contains(&"10.255.0.1/32 ospfIA [110/3] 10.0.23.2 via GigabitEthernet0/1".to_owned())
    );
    // r4 has no neighbour: no OSPF route at all.
    assert!(ospf(&ribs[3]).is_empty());
    // E1: the metric adds the cost to the boundary router.
    let mut e1 = net.clone();
    e1[2].1 = e1[2].1.replace(
        "redistribute static subnets",
        "redistribute static subnets metric-type 1",
    );
    let r1 = ospf(&run(&e1)[0]);
    assert!(
        r1.contains(&"192.0.2.0/24 ospfE1 [110/22] 10.0.12.2 via GigabitEthernet0/1".to_owned()),
        "{r1:#?}"
    );
}

/// An MTU mismatch stops the adjacency (no route either way); `ip ospf mtu-ignore` on one
/// side brings it back.
#[test]
fn mtu_mismatch_blocks_the_adjacency() {
    let all = " network 10.0.0.0 0.255.255.255 area 0\n";
    let net = [
        ios(
            1,
            &[("GigabitEthernet0/1", "10.0.12.1", " mtu 9000\n")],
            all,
        ),
        ios(2, &[("GigabitEthernet0/1", "10.0.12.2", "")], all),
    ];
    let ribs = run(&net);
    assert!(ospf(&ribs[0]).is_empty() && ospf(&ribs[1]).is_empty());
    // Said on both ends: the routes across it are missing, as on the devices.
    for r in &ribs {
        assert!(
            r.incomplete_in("default").iter().any(|i| i.starts_with(
                "no OSPF adjacency r1 GigabitEthernet0/1 ↔ r2 GigabitEthernet0/1: IP MTU 9000 ≠ 1500"
            )),
            "{:?}",
            r.incomplete
        );
    }
    let mut ignore = net.clone();
    ignore[0].1 = ignore[0]
        .1
        .replace(" mtu 9000\n", " mtu 9000\n ip ospf mtu-ignore\n");
    let ribs = run(&ignore);
    assert_eq!(
        ospf(&ribs[1]),
        ["10.255.0.1/32 ospf [110/2] 10.0.12.1 via GigabitEthernet0/1"]
    );
    assert!(ribs[1].incomplete.is_empty(), "{:?}", ribs[1].incomplete);
}

/// What olav does not model marks every device of the OSPF domain incomplete, by name.
#[test]
fn unmodelled_features_mark_the_domain_incomplete() {
    let all = " network 10.0.0.0 0.255.255.255 area 0\n";
    let net = [
        ios(
            1,
            &[("GigabitEthernet0/1", "10.0.12.1", "")],
            &format!("{all} area 1 virtual-link 10.255.0.9\n"),
        ),
        ios(
            2,
            &[("GigabitEthernet0/1", "10.0.12.2", "")],
            &format!("{all} redistribute bgp 65000 subnets\n"),
        ),
        ios(3, &[("GigabitEthernet0/1", "10.0.99.1", "")], all),
    ];
    let ribs = run(&net);
    assert_eq!(
        ribs[0].incomplete_in("default"),
        [
            "OSPF redistribution of bgp (r2) not computed yet",
            "OSPF virtual links (r1) not computed yet"
        ]
    );
    // r2's own externals are not in its own routes.
    assert_eq!(
        ribs[1].incomplete_in("default"),
        ["OSPF virtual links (r1) not computed yet"]
    );
    // r3 shares no adjacency with them: its own OSPF is complete.
    assert!(ribs[2].incomplete.is_empty());
}

/// A static route whose next hop only OSPF resolves is installed once OSPF is computed;
/// a static route beats OSPF for the same prefix (distance 5 < 110).
#[test]
fn statics_resolve_through_ospf_and_win_by_distance() {
    let all = " network 10.0.0.0 0.255.255.255 area 0\n";
    let (h1, t1) = ios(1, &[("GigabitEthernet0/1", "10.0.12.1", "")], all);
    let with = |extra: &str| {
        let t = t1.replace("end\n", &format!("{extra}end\n"));
        let net = [
            (h1.clone(), t),
            ios(2, &[("GigabitEthernet0/1", "10.0.12.2", "")], all),
        ];
        let r1 = run(&net).remove(0);
        r1.routes
            .iter()
            .filter(|r| !r.network.to_string().starts_with("10.0.12"))
            .map(|r| format!("{} {} [{}]", r.network, r.protocol, r.admin_distance))
            .collect::<Vec<String>>()
    };
    let via = "\nip route 198.51.100.0 255.255.255.0 10.255.0.2\n";
    assert_eq!(
        with(via),
        [
            "10.255.0.1/32 connected [0]",
            "10.255.0.2/32 ospf [110]",
            "198.51.100.0/24 static [1]"
        ]
    );
    assert_eq!(
        with(&format!(
            "{via}ip route 10.255.0.2 255.255.255.255 10.0.12.2 5\n"
        )),
        [
            "10.255.0.1/32 connected [0]",
            "10.255.0.2/32 static [5]",
            "198.51.100.0/24 static [1]"
        ]
    );
}

/// OSPF in another VRF is not computed: that VRF is marked incomplete, and its process's
/// `network` statements enable nothing in the default VRF.
#[test]
fn ospf_in_a_vrf_marks_that_vrf_only() {
    let all = " network 10.0.0.0 0.255.255.255 area 0\n";
    let (h1, t1) = ios(1, &[("GigabitEthernet0/1", "10.0.12.1", "")], "");
    let t1 = t1.replace("router ospf 1\n", &format!("router ospf 2 vrf RED\n{all}"));
    let net = [
        (h1, t1),
        ios(2, &[("GigabitEthernet0/1", "10.0.12.2", "")], all),
    ];
    let ribs = run(&net);
    assert!(ospf(&ribs[0]).is_empty() && ospf(&ribs[1]).is_empty());
    assert_eq!(
        ribs[0].incomplete_in("RED"),
        ["OSPF in VRFs other than the default is not computed yet"]
    );
    assert!(ribs[0].incomplete_in("default").is_empty());
    // A shut process enables nothing either.
    let mut shut = net.clone();
    shut[0] = ios(
        1,
        &[("GigabitEthernet0/1", "10.0.12.1", "")],
        &format!("{all} shutdown\n"),
    );
    let ribs = run(&shut);
    assert!(ospf(&ribs[0]).is_empty() && ospf(&ribs[1]).is_empty());
}

/// A stub area: its routers hear no external route and get a default route from the
/// ABR (default-cost 1) instead; `no-summary` on the ABR leaves only the default.
#[test]
fn stub_areas_get_a_default_instead_of_externals() {
    let net = |abr_stub: &str| {
        [
            ios(
                1,
                &[("GigabitEthernet0/1", "10.0.12.1", "")],
                " area 1 stub\n network 10.0.0.0 0.255.255.255 area 1\n",
            ),
            ios(
                2,
                &[
                    ("GigabitEthernet0/1", "10.0.12.2", ""),
                    ("GigabitEthernet0/2", "10.0.23.2", ""),
                ],
                &format!(" {abr_stub}\n network 10.0.12.0 0.0.0.3 area 1\n network 10.0.0.0 0.255.255.255 area 0\n"),
            ),
            {
                let (h, t) = ios(
                    3,
                    &[("GigabitEthernet0/1", "10.0.23.1", "")],
                    " redistribute static subnets\n network 10.0.0.0 0.255.255.255 area 0\n",
                );
                (h, t.replace("end\n", "\nip route 192.0.2.0 255.255.255.0 Null0\nend\n"))
            },
        ]
    };
    let r1 = ospf(&run(&net("area 1 stub"))[0]);
    assert_eq!(
        r1,
        [
            "0.0.0.0/0 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1",
            "10.0.23.0/30 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1",
            "10.255.0.2/32 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1",
            "10.255.0.3/32 ospfIA [110/3] 10.0.12.2 via GigabitEthernet0/1",
        ]
    );
    let r1 = ospf(&run(&net("area 1 stub no-summary"))[0]);
    assert_eq!(
        r1,
        ["0.0.0.0/0 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1"]
    );
    // The ABR not configured stub: the flags disagree, no adjacency.
    assert!(ospf(&run(&net(""))[0]).is_empty());
}

/// `olav synth`'s routing is computed whole: each site a totally stubby area (its
/// routers hold their site and the cores' default), the backbone routers every site's
/// prefixes, and nothing marked incomplete for OSPF.
#[test]
fn synth_sites_are_totally_stubby_areas_under_a_backbone() {
    let g = crate::synth::generate(250, 1);
    let devices: Vec<(&str, Vendor, String)> = g
        .configs
        .iter()
        .map(|(path, text)| {
            let host = path.trim_start_matches("configs/").trim_end_matches(".cfg");
            let vendor = if text.starts_with("! Command: show running-config") {
                Vendor::AristaEos
            } else {
                Vendor::CiscoIos
            };
            (host, vendor, text.clone())
        })
        .collect();
    let ribs = testkit::run(&devices);
    for r in &ribs {
        assert!(
            r.incomplete.iter().all(|i| !i.reason.contains("OSPF")),
            "{}: {:?}",
            r.hostname,
            r.incomplete
        );
    }
    let rib = |h: &str| ribs.iter().find(|r| r.hostname == h).expect(h);
    let access = rib("s001-acc-0005");
    let inter: Vec<String> = access
        .routes
        .iter()
        .filter(|r| r.protocol.as_str() == "ospfIA")
        .map(|r| r.network.to_string())
        .collect();
    assert!(
        !inter.is_empty() && inter.iter().all(|n| n == "0.0.0.0/0"),
        "{inter:?}"
    );
    // Site 2's user VLANs: not in site 1's area, in the backbone as summaries.
    let vlan = rib("s002-acc-0001")
        .routes
        .iter()
        .find(|r| r.protocol.as_str() == "connected" && r.network.prefix_len() == 26)
        .map(|r| r.network)
        .expect("a user VLAN");
    assert!(access.routes.iter().all(|r| r.network != vlan));
    let border = rib("s001-border-1");
    assert!(border
        .routes
        .iter()
        .any(|r| r.network == vlan && r.protocol.as_str() == "ospfIA"));
    // The borders originate the default: the cores learn it as an external.
    assert!(rib("s002-core-1")
        .routes
        .iter()
        .any(|r| r.network.prefix_len() == 0 && r.protocol.as_str() == "ospfE2"));
}

/// A pathological domain — thousands of ABRs, each in the one huge backbone and the
/// one huge other area — is cut off with the reason, before any shortest path.
#[test]
fn a_domain_too_costly_for_its_abrs_is_cut_off_with_the_reason() {
    use super::topology::OspfIf;
    use super::Speaker;
    use ipnet::Ipv4Net;
    use std::net::Ipv4Addr;
    let n = 4_000u32;
    let iface = |name: &str, base: [u8; 4], k: u32, area: u32| OspfIf {
        device: 0,
        name: name.to_owned(),
        address: Ipv4Net::new(Ipv4Addr::from(u32::from(Ipv4Addr::from(base)) + k + 1), 18)
            .expect("prefix"),
        secondaries: Vec::new(),
        area,
        cost: 1,
        passive: false,
        loopback: false,
        p2p: false,
        mtu: Some(1500),
        stub: None,
        nssa: None,
        default_cost: None,
        unnumbered: false,
        peer: None,
        hello: Default::default(),
        priority: 1,
    };
    let speakers: Vec<Speaker> = (0..n)
        .map(|k| Speaker {
            vendor: Some(Vendor::CiscoIos),
            ifs: vec![
                iface("Ethernet1", [10, 0, 0, 0], k, 0),
                iface("Ethernet2", [10, 1, 0, 0], k, 1),
            ],
            ..Speaker::default()
        })
        .collect();
    let names: Vec<String> = (0..n).map(|k| format!("r{k}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let learned = super::routes(&names, speakers);
    let (routes, incomplete) = learned.device(7);
    assert!(routes.is_empty());
    assert!(
        incomplete.iter().any(|i| i
            .reason
            .contains("OSPF is not computed in a domain this large (4000 routers")),
        "{incomplete:?}"
    );
}

/// r3 (area 1) — r2 (the ABR) — r1 (area 0). r3's passive LANs 172.16.1.0/24 (cost 1)
/// and 172.16.2.0/24 (cost 10) and 172.17.1.0/24 are ranged at r2: r1 hears one summary
/// at the cheapest component's cost (RFC 1583 compatibility, the default), none of a
/// `not-advertise` range; r2 installs a discard route for the advertised one only.
#[test]
fn ios_area_ranges_summarise_into_the_backbone() {
    let net = |ranges: &str| {
        let lans = "interface GigabitEthernet0/2\n ip address 172.16.1.1 255.255.255.0\n ip ospf cost 1\ninterface GigabitEthernet0/3\n ip address 172.16.2.1 255.255.255.0\n ip ospf cost 10\ninterface GigabitEthernet0/4\n ip address 172.17.1.1 255.255.255.0\n";
        let (h3, t3) = ios(
            3,
            &[("GigabitEthernet0/1", "10.0.23.1", "")],
            " passive-interface default\n no passive-interface GigabitEthernet0/1\n network 10.0.0.0 0.255.255.255 area 1\n network 172.16.0.0 0.1.255.255 area 1\n",
        );
        let t3 = t3.replace("router ospf 1\n", &format!("{lans}router ospf 1\n"));
        vec![
            ios(
                1,
                &[("GigabitEthernet0/1", "10.0.12.1", "")],
                " network 10.0.0.0 0.255.255.255 area 0\n",
            ),
            ios(
                2,
                &[
                    ("GigabitEthernet0/1", "10.0.12.2", ""),
                    ("GigabitEthernet0/2", "10.0.23.2", ""),
                ],
                &format!(" network 10.0.23.0 0.0.0.3 area 1\n network 10.0.0.0 0.255.255.255 area 0\n{ranges}"),
            ),
            (h3, t3),
        ]
    };
    let ranges = " area 1 range 172.16.0.0 255.255.0.0\n area 1 range 172.17.0.0 255.255.0.0 not-advertise\n";
    let ribs = run(&net(ranges));
    let r1 = ospf(&ribs[0]);
    assert!(
        r1.contains(&"172.16.0.0/16 ospfIA [110/3] 10.0.12.2 via GigabitEthernet0/1".to_owned()),
        "{r1:#?}"
    );
    assert!(!r1
        .iter()
        .any(|r| r.starts_with("172.16.1.") || r.starts_with("172.17.")));
    // Outside every range: as before.
    assert!(
        r1.contains(&"10.255.0.3/32 ospfIA [110/3] 10.0.12.2 via GigabitEthernet0/1".to_owned())
    );
    let r2 = ospf(&ribs[1]);
    assert!(
        r2.contains(&"172.16.0.0/16 ospfIS [110/2] discard".to_owned()),
        "{r2:#?}"
    );
    assert!(!r2.iter().any(|r| r.starts_with("172.17.0.0/16")));
    // The components stay intra-area routes of the ABR itself.
    assert!(r2.contains(&"172.16.2.0/24 ospf [110/11] 10.0.23.1 via GigabitEthernet0/2".to_owned()));
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "complete");
    // `cost N` fixes the summary's cost; without RFC 1583 compatibility the costliest
    // component's is used.
    let r1 = ospf(&run(&net(" area 1 range 172.16.0.0 255.255.0.0 cost 100\n"))[0]);
    assert!(
        r1.contains(&"172.16.0.0/16 ospfIA [110/101] 10.0.12.2 via GigabitEthernet0/1".to_owned())
    );
    let r1 = ospf(
        &run(&net(
            " area 1 range 172.16.0.0 255.255.0.0\n no compatible rfc1583\n",
        ))[0],
    );
    assert!(
        r1.contains(&"172.16.0.0/16 ospfIA [110/12] 10.0.12.2 via GigabitEthernet0/1".to_owned())
    );
}

/// A Junos ABR ranging backbone routes into area 2: the summary reaches the area-2
/// router, a `restrict` range sends nothing, and the ABR installs a discard route for
/// both (Junos preference 10, metric 16777215); the backbone keeps the components.
#[test]
fn junos_area_ranges_and_their_discard_routes() {
    let j = "set system host-name j2\nset interfaces ge-0/0/0 unit 0 family inet address 10.0.12.2/30\nset interfaces ge-0/0/1 unit 0 family inet address 10.0.23.2/30\nset interfaces ge-0/0/2 unit 0 family inet address 10.7.7.1/24\nset interfaces ge-0/0/3 unit 0 family inet address 10.8.8.1/24\nset interfaces lo0 unit 0 family inet address 10.255.0.2/32\nset protocols ospf area 0.0.0.0 area-range 10.7.0.0/16 override-metric 50\nset protocols ospf area 0.0.0.0 area-range 10.8.0.0/16 restrict\nset protocols ospf area 0.0.0.0 interface ge-0/0/0.0 interface-type p2p\nset protocols ospf area 0.0.0.0 interface lo0.0 passive\nset protocols ospf area 0.0.0.0 interface ge-0/0/2.0 passive\nset protocols ospf area 0.0.0.0 interface ge-0/0/3.0 passive\nset protocols ospf area 0.0.0.2 interface ge-0/0/1.0 interface-type p2p\n";
    let (h1, t1) = ios(
        1,
        &[("GigabitEthernet0/1", "10.0.12.1", "")],
        " network 10.0.0.0 0.255.255.255 area 0\n",
    );
    let (h3, t3) = ios(
        3,
        &[("GigabitEthernet0/1", "10.0.23.1", "")],
        " network 10.0.0.0 0.255.255.255 area 2\n",
    );
    let ribs = testkit::run(&[
        (h1.as_str(), Vendor::CiscoIos, t1),
        ("j2", Vendor::JuniperJunos, j.to_owned()),
        (h3.as_str(), Vendor::CiscoIos, t3),
    ]);
    let r3 = ospf(&ribs[2]);
    assert!(
        r3.contains(&"10.7.0.0/16 ospfIA [110/51] 10.0.23.2 via GigabitEthernet0/1".to_owned()),
        "{r3:#?}"
    );
    assert!(!r3
        .iter()
        .any(|r| r.starts_with("10.7.7.") || r.starts_with("10.8.")));
    let j2 = ospf(&ribs[1]);
    for p in ["10.7.0.0/16", "10.8.0.0/16"] {
        assert!(
            j2.contains(&format!("{p} ospfIS [10/16777215] discard")),
            "{j2:#?}"
        );
    }
    let r1 = ospf(&ribs[0]);
    assert!(r1.contains(&"10.7.7.0/24 ospf [110/2] 10.0.12.2 via GigabitEthernet0/1".to_owned()));
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "complete");
}

/// r1 — r2 — r3 over unnumbered point-to-point links (`ip unnumbered Loopback0`), each
/// link named by the cabling (`Interface::linked_to`): routes to the far loopbacks go to
/// the neighbour's borrowed address out of the unnumbered interface. Without the cabling
/// the neighbour is not known, and the domain says so.
#[test]
fn unnumbered_links_run_to_the_cabled_neighbour() {
    let router = |n: u8, ifs: &[&str]| {
        let mut s = format!(
            "hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\n"
        );
        for i in ifs {
            s.push_str(&format!(
                "interface {i}\n ip unnumbered Loopback0\n ip ospf network point-to-point\n"
            ));
        }
        s.push_str("router ospf 1\n network 10.255.0.0 0.0.0.255 area 0\nend\n");
        s
    };
    let texts = [
        ("r1", router(1, &["GigabitEthernet0/1"])),
        (
            "r2",
            router(2, &["GigabitEthernet0/1", "GigabitEthernet0/2"]),
        ),
        ("r3", router(3, &["GigabitEthernet0/1"])),
    ];
    let cables = [
        (("r1", "GigabitEthernet0/1"), ("r2", "GigabitEthernet0/1")),
        (("r2", "GigabitEthernet0/2"), ("r3", "GigabitEthernet0/1")),
    ];
    let compute = |cabled: bool| {
        let mut configs: Vec<_> = texts
            .iter()
            .map(|(_, t)| crate::import::parse::parser_for(Vendor::CiscoIos).parse(t))
            .collect();
        if cabled {
            for ((ha, ia), (hb, ib)) in cables {
                for ((h, i), far) in [((ha, ia), (hb, ib)), ((hb, ib), (ha, ia))] {
                    let d = texts.iter().position(|(n, _)| *n == h).unwrap_or(0);
                    if let Some(x) = configs[d].interfaces.iter_mut().find(|x| x.name == i) {
                        x.linked_to = Some(Box::new((far.0.to_owned(), far.1.to_owned())));
                    }
                }
            }
        }
        let inputs: Vec<crate::routing::DeviceInput> = texts
            .iter()
            .zip(&configs)
            .map(|((h, t), c)| crate::routing::DeviceInput {
                hostname: h,
                vendor: Vendor::CiscoIos,
                config: c,
                text: t,
            })
            .collect();
        crate::routing::network(&inputs)
    };
    let ribs = compute(true);
    assert_eq!(
        ospf(&ribs[0]),
        [
            "10.255.0.2/32 ospf [110/2] 10.255.0.2 via GigabitEthernet0/1",
            "10.255.0.3/32 ospf [110/3] 10.255.0.2 via GigabitEthernet0/1",
        ]
    );
    assert!(ospf(&ribs[1])
        .contains(&"10.255.0.3/32 ospf [110/2] 10.255.0.3 via GigabitEthernet0/2".to_owned()));
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "complete");
    let ribs = compute(false);
    assert!(ospf(&ribs[0]).is_empty());
    assert_eq!(
        ribs[1].incomplete_in("default"),
        ["OSPF over unnumbered interfaces whose neighbour no cable names (GigabitEthernet0/1, GigabitEthernet0/2) (r2) not computed yet"]
    );
}

/// An NSSA: like a stub area no type-5 external enters, but no default comes with it
/// unless its ABR says `default-information-originate` (a type-7 default, `ospfE2`
/// metric 1 unless written) or `no-summary` (an inter-area default instead of the other
/// areas' routes); redistributing inside it (type-7 externals) is not modelled.
#[test]
fn nssa_areas_take_their_defaults_from_the_abr() {
    let net = |r1_extra: &str, abr_nssa: &str| {
        [
            ios(
                1,
                &[("GigabitEthernet0/1", "10.0.12.1", "")],
                &format!(" area 1 nssa\n{r1_extra} network 10.0.0.0 0.255.255.255 area 1\n"),
            ),
            ios(
                2,
                &[
                    ("GigabitEthernet0/1", "10.0.12.2", ""),
                    ("GigabitEthernet0/2", "10.0.23.2", ""),
                ],
                &format!(" {abr_nssa}\n network 10.0.12.0 0.0.0.3 area 1\n network 10.0.0.0 0.255.255.255 area 0\n"),
            ),
            {
                let (h, t) = ios(
                    3,
                    &[("GigabitEthernet0/1", "10.0.23.1", "")],
                    " redistribute static subnets\n network 10.0.0.0 0.255.255.255 area 0\n",
                );
                (h, t.replace("end\n", "\nip route 192.0.2.0 255.255.255.0 Null0\nend\n"))
            },
        ]
    };
    let inter = [
        "10.0.23.0/30 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1",
        "10.255.0.2/32 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1",
        "10.255.0.3/32 ospfIA [110/3] 10.0.12.2 via GigabitEthernet0/1",
    ];
    let ribs = run(&net("", "area 1 nssa"));
    assert_eq!(ospf(&ribs[0]), inter);
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "complete");
    // The backbone still hears the type-5 external; the ABR installs no default.
    assert!(ospf(&ribs[1])
        .contains(&"192.0.2.0/24 ospfE2 [110/20] 10.0.23.1 via GigabitEthernet0/2".to_owned()));
    let r1 = ospf(&run(&net("", "area 1 nssa default-information-originate"))[0]);
    let mut want = vec!["0.0.0.0/0 ospfE2 [110/1] 10.0.12.2 via GigabitEthernet0/1"];
    want.extend(inter);
    assert_eq!(r1, want);
    let r1 = ospf(&run(&net("", "area 1 nssa no-summary"))[0]);
    assert_eq!(
        r1,
        ["0.0.0.0/0 ospfIA [110/2] 10.0.12.2 via GigabitEthernet0/1"]
    );
    // The ABR not configured NSSA: the flags disagree, no adjacency.
    assert!(ospf(&run(&net("", ""))[0]).is_empty());
    // Redistribution inside the NSSA: type-7 externals, heard in the area (IOS `O N2`)
    // and translated by its only ABR into type 5 for the backbone.
    let with_static = |metric_type: &str| {
        let mut n = net(
            &format!(" redistribute static subnets{metric_type}\n"),
            "area 1 nssa",
        );
        n[0].1 = n[0].1.replace(
            "end\n",
            "\nip route 198.51.100.0 255.255.255.0 Null0\nend\n",
        );
        run(&n)
    };
    let ribs = with_static("");
    assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "complete");
    assert!(ospf(&ribs[1])
        .contains(&"198.51.100.0/24 ospfE2 [110/20] 10.0.12.1 via GigabitEthernet0/1".to_owned()));
    assert!(ospf(&ribs[2])
        .contains(&"198.51.100.0/24 ospfE2 [110/20] 10.0.23.2 via GigabitEthernet0/1".to_owned()));
    // A type-1 metric outside the NSSA runs through the forwarding address: said.
    let ribs = with_static(" metric-type 1");
    assert!(ospf(&ribs[1])
        .contains(&"198.51.100.0/24 ospfE1 [110/21] 10.0.12.1 via GigabitEthernet0/1".to_owned()));
    assert_eq!(
        ribs[2].incomplete_in("default"),
        ["OSPF type-7 external 198.51.100.0/24 out of its NSSA (a type-1 metric through the forwarding address) (r1) not computed yet"]
    );
}

/// An EOS ABR's range over components of different costs: which one the summary costs
/// depends on RFC 1583 compatibility, whose EOS default olav does not know — said, not
/// guessed — unless the device configures it; its discard route is not known either (said
/// on the ABR alone).
#[test]
fn an_eos_range_cost_is_said_unknown_unless_configured() {
    let net = |rfc: &str| {
        let eos = format!(
            "hostname r2\ninterface Ethernet1\n   no switchport\n   ip address 10.0.12.2/30\n   ip ospf network point-to-point\n   ip ospf area 0.0.0.0\ninterface Ethernet2\n   no switchport\n   ip address 10.0.23.2/30\n   ip ospf network point-to-point\n   ip ospf area 0.0.0.1\nrouter ospf 1\n   router-id 10.255.0.2\n   area 0.0.0.1 range 172.16.0.0/16\n{rfc}"
        );
        let (h1, t1) = ios(
            1,
            &[("GigabitEthernet0/1", "10.0.12.1", "")],
            " network 10.0.0.0 0.255.255.255 area 0\n",
        );
        let (h3, t3) = ios(
            3,
            &[("GigabitEthernet0/1", "10.0.23.1", "")],
            " passive-interface default\n no passive-interface GigabitEthernet0/1\n network 10.0.0.0 0.255.255.255 area 1\n network 172.16.0.0 0.0.255.255 area 1\n",
        );
        let lans = "interface GigabitEthernet0/2\n ip address 172.16.1.1 255.255.255.0\n ip ospf cost 1\ninterface GigabitEthernet0/3\n ip address 172.16.2.1 255.255.255.0\n ip ospf cost 10\n";
        let t3 = t3.replace("router ospf 1\n", &format!("{lans}router ospf 1\n"));
        testkit::run(&[
            (h1.as_str(), Vendor::CiscoIos, t1),
            ("r2", Vendor::AristaEos, eos),
            (h3.as_str(), Vendor::CiscoIos, t3),
        ])
    };
    let ribs = net("");
    assert_eq!(
        ribs[0].incomplete_in("default"),
        ["OSPF area range 172.16.0.0/16 summary cost (its cheapest component costs 11, its costliest 20; which one eos uses depends on RFC 1583 compatibility) (r2) not computed yet"]
    );
    let ribs = net("   compatible rfc1583\n");
    assert!(ribs[0].incomplete.is_empty(), "{:?}", ribs[0].incomplete);
    assert!(ospf(&ribs[0])
        .contains(&"172.16.0.0/16 ospfIA [110/12] 10.0.12.2 via GigabitEthernet0/1".to_owned()));
    assert_eq!(
        ribs[1].incomplete_in("default"),
        ["the discard route of OSPF area range 172.16.0.0/16 (area 0.0.0.1) is not computed yet"]
    );
}

/// An unnumbered interface cabled to a numbered OSPF interface: whether the devices form
/// the adjacency is not known to olav — said on both, not guessed.
#[test]
fn an_unnumbered_interface_facing_a_numbered_one_is_said() {
    let r1 = "hostname r1\ninterface Loopback0\n ip address 10.255.0.1 255.255.255.255\ninterface GigabitEthernet0/1\n ip unnumbered Loopback0\n ip ospf network point-to-point\nrouter ospf 1\n network 10.0.0.0 0.255.255.255 area 0\nend\n";
    let (_, r2) = ios(
        2,
        &[("GigabitEthernet0/1", "10.0.12.2", "")],
        " network 10.0.0.0 0.255.255.255 area 0\n",
    );
    let texts = [("r1", r1.to_owned()), ("r2", r2)];
    let mut configs: Vec<_> = texts
        .iter()
        .map(|(_, t)| crate::import::parse::parser_for(Vendor::CiscoIos).parse(t))
        .collect();
    for (d, far) in [
        (0, ("r2", "GigabitEthernet0/1")),
        (1, ("r1", "GigabitEthernet0/1")),
    ] {
        if let Some(x) = configs[d]
            .interfaces
            .iter_mut()
            .find(|x| x.name == "GigabitEthernet0/1")
        {
            x.linked_to = Some(Box::new((far.0.to_owned(), far.1.to_owned())));
        }
    }
    let inputs: Vec<crate::routing::DeviceInput> = texts
        .iter()
        .zip(&configs)
        .map(|((h, t), c)| crate::routing::DeviceInput {
            hostname: h,
            vendor: Vendor::CiscoIos,
            config: c,
            text: t,
        })
        .collect();
    let ribs = crate::routing::network(&inputs);
    assert_eq!(
        ribs[0].incomplete_in("default"),
        ["OSPF over an unnumbered interface facing a numbered one (GigabitEthernet0/1) (r1) not computed yet"]
    );
    assert_eq!(
        ribs[1].incomplete_in("default"),
        ["OSPF over an unnumbered interface facing a numbered one (GigabitEthernet0/1) (r2) not computed yet"]
    );
}

/// A Junos ABR of a stub area sends a default route only with `default-metric` (at that
/// cost), and with `no-summaries` nothing else; an IOS ABR's `area A default-cost N` sets
/// the default's cost.
#[test]
fn stub_defaults_follow_junos_default_metric_and_ios_default_cost() {
    let junos = |stub: &str| {
        let j = format!("set system host-name j2\nset interfaces ge-0/0/0 unit 0 family inet address 10.0.12.2/30\nset interfaces ge-0/0/1 unit 0 family inet address 10.0.23.2/30\nset protocols ospf area 0.0.0.0 interface ge-0/0/0.0 interface-type p2p\nset protocols ospf area 0.0.0.1 interface ge-0/0/1.0 interface-type p2p\n{stub}");
        let (h1, t1) = ios(
            1,
            &[("GigabitEthernet0/1", "10.0.12.1", "")],
            " network 10.0.0.0 0.255.255.255 area 0\n",
        );
        let (h3, t3) = ios(
            3,
            &[("GigabitEthernet0/1", "10.0.23.1", "")],
            " area 1 stub\n network 10.0.0.0 0.255.255.255 area 1\n",
        );
        let ribs = testkit::run(&[
            (h1.as_str(), Vendor::CiscoIos, t1),
            ("j2", Vendor::JuniperJunos, j),
            (h3.as_str(), Vendor::CiscoIos, t3),
        ]);
        assert!(ribs.iter().all(|r| r.incomplete.is_empty()), "complete");
        ospf(&ribs[2])
    };
    let area = "set protocols ospf area 0.0.0.1 stub\n";
    let r3 = junos(area);
    assert!(!r3.iter().any(|r| r.starts_with("0.0.0.0/0")), "{r3:#?}");
    assert!(
        r3.contains(&"10.255.0.1/32 ospfIA [110/3] 10.0.23.2 via GigabitEthernet0/1".to_owned())
    );
    let metric = "set protocols ospf area 0.0.0.1 stub default-metric 10\n";
    let r3 = junos(&format!("{area}{metric}"));
    assert!(r3.contains(&"0.0.0.0/0 ospfIA [110/11] 10.0.23.2 via GigabitEthernet0/1".to_owned()));
    let r3 = junos(&format!(
        "{area}{metric}set protocols ospf area 0.0.0.1 stub no-summaries\n"
    ));
    assert_eq!(
        r3,
        ["0.0.0.0/0 ospfIA [110/11] 10.0.23.2 via GigabitEthernet0/1"]
    );
    // The same options on one line.
    assert_eq!(
        junos("set protocols ospf area 0.0.0.1 stub default-metric 10 no-summaries\n"),
        r3
    );
    // IOS: the default's cost.
    let net = [
        ios(
            1,
            &[("GigabitEthernet0/1", "10.0.12.1", "")],
            " area 1 stub\n network 10.0.0.0 0.255.255.255 area 1\n",
        ),
        ios(
            2,
            &[("GigabitEthernet0/1", "10.0.12.2", "")],
            " area 1 stub no-summary\n area 1 default-cost 50\n network 10.0.12.0 0.0.0.3 area 1\n network 10.255.0.0 0.0.0.255 area 0\n",
        ),
    ];
    assert_eq!(
        ospf(&run(&net)[0]),
        ["0.0.0.0/0 ospfIA [110/51] 10.0.12.2 via GigabitEthernet0/1"]
    );
}

/// Neighbours must agree on the hello packet's fields — intervals and authentication
/// type — and a broadcast segment needs a router that may be designated; IOS `ip mtu` is
/// the MTU compared (a trial user's findings: each left the adjacency up, silently).
#[test]
fn hello_fields_priorities_and_ip_mtu_decide_the_adjacency() {
    let all = " network 10.0.0.0 0.255.255.255 area 0\n";
    let adjacent = |e1: &str, e2: &str, o1: &str, broadcast: bool| {
        let fix = |(h, t): (String, String)| {
            let t = if broadcast {
                t.replace(" ip ospf network point-to-point\n", "")
            } else {
                t
            };
            (h, t)
        };
        let net = [
            fix(ios(
                1,
                &[("GigabitEthernet0/1", "10.0.12.1", e1)],
                &format!("{o1}{all}"),
            )),
            fix(ios(2, &[("GigabitEthernet0/1", "10.0.12.2", e2)], all)),
        ];
        let ribs = run(&net);
        // An MTU mismatch is said (olav may not know the effective MTU); nothing else.
        assert!(
            ribs.iter()
                .flat_map(|r| &r.incomplete)
                .all(|i| i.reason.contains("IP MTU")),
            "{ribs:?}"
        );
        !ospf(&ribs[0]).is_empty()
    };
    assert!(adjacent("", "", "", false));
    assert!(!adjacent(" ip ospf hello-interval 5\n", "", "", false));
    // Both at 5 s: the dead intervals follow (20 s) and agree.
    assert!(adjacent(
        " ip ospf hello-interval 5\n",
        " ip ospf hello-interval 5\n",
        "",
        false
    ));
    assert!(!adjacent(" ip ospf dead-interval 30\n", "", "", false));
    assert!(!adjacent(
        " ip ospf authentication message-digest\n ip ospf message-digest-key 1 md5 k\n",
        "",
        "",
        false
    ));
    // The area's authentication on one router only.
    assert!(!adjacent(
        "",
        "",
        " area 0 authentication message-digest\n",
        false
    ));
    assert!(adjacent(
        "",
        " ip ospf authentication message-digest\n",
        " area 0 authentication message-digest\n",
        false
    ));
    // Priorities: broadcast needs a possible designated router; point-to-point does not.
    assert!(!adjacent(
        " ip ospf priority 0\n",
        " ip ospf priority 0\n",
        "",
        true
    ));
    assert!(adjacent(" ip ospf priority 0\n", "", "", true));
    assert!(adjacent(
        " ip ospf priority 0\n",
        " ip ospf priority 0\n",
        "",
        false
    ));
    // IOS `ip mtu` is the IP MTU compared.
    assert!(!adjacent(" ip mtu 1400\n", "", "", false));
}

/// A Junos NSSA is not computed, but its flag is read: its IOS neighbour in the same
/// NSSA stays adjacent and is marked with it (a trial user's finding: the neighbour lost
/// its OSPF routes and said complete).
#[test]
fn a_junos_nssa_marks_its_neighbours_too() {
    let j = "set system host-name j1\nset interfaces ge-0/0/0 unit 0 family inet address 10.0.12.2/30\nset interfaces lo0 unit 0 family inet address 10.255.0.9/32\nset protocols ospf area 0.0.0.2 nssa\nset protocols ospf area 0.0.0.2 interface ge-0/0/0.0 interface-type p2p\nset protocols ospf area 0.0.0.2 interface lo0.0 passive\n".to_owned();
    let (h1, t1) = ios(
        1,
        &[("GigabitEthernet0/1", "10.0.12.1", "")],
        " area 2 nssa\n network 10.0.0.0 0.255.255.255 area 2\n",
    );
    let ribs = testkit::run(&[
        (h1.as_str(), Vendor::CiscoIos, t1),
        ("j1", Vendor::JuniperJunos, j),
    ]);
    assert!(
        ribs[0]
            .incomplete
            .iter()
            .any(|i| i.reason.contains("NSSA areas (j1)")),
        "{:?}",
        ribs[0].incomplete
    );
    assert!(ospf(&ribs[0])
        .iter()
        .any(|r| r.starts_with("10.255.0.9/32")));
}
