//! How olav reads requests, on the demo network: for each request (English and Chinese,
//! several phrasings per intent, typos, several devices, unsupported and ambiguous asks)
//! the intent with every slot, or the question with its candidates, or the refusal.
//! A request must never be read as something wider than what it names.

use crate::common;

use olav::agents::analyzer::facts::Facts;
use olav::agents::analyzer::intent::{resolve, IfChange, Intent, NewPeer, Peer, Resolution};

fn demo_facts() -> Facts {
    let tmp = tempfile::tempdir().expect("tempdir");
    let parsed = common::parsed(&common::demo_dir());
    let db = common::state_db(&tmp.path().join("s.db"), &parsed);
    Facts::load(&db).expect("facts")
}

fn aarnet() -> Peer {
    Peer {
        name: "AARNet".into(),
        asn: 7575,
        sessions: vec![("alpha-border-1".into(), "203.0.113.2".into())],
    }
}

fn telstra() -> Peer {
    Peer {
        name: "Telstra".into(),
        asn: 1221,
        sessions: vec![("beta-border-1".into(), "198.51.100.2".into())],
    }
}

/// What a request must resolve to.
enum Want {
    /// Exactly this intent.
    Is(Intent),
    /// A question containing the text, with exactly these candidates (in any order).
    Ask(&'static str, &'static [&'static str]),
    /// A refusal naming the topic.
    Refuse(&'static str),
}

fn uplink(device: &str, peer: Peer, redundant: bool) -> Want {
    Want::Is(Intent::AddUplink {
        device: device.into(),
        peer,
        redundant,
        link: None,
    })
}

fn iface(device: &str, interface: &str, changes: Vec<IfChange>) -> Want {
    Want::Is(Intent::ModifyInterface {
        device: device.into(),
        interface: interface.into(),
        changes,
    })
}

fn decom(devices: &[&str]) -> Want {
    Want::Is(Intent::DecommissionDevice {
        devices: devices.iter().map(|d| (*d).to_owned()).collect(),
    })
}

fn decom_if(device: &str, interface: &str) -> Want {
    Want::Is(Intent::DecommissionInterface {
        device: device.into(),
        interface: interface.into(),
    })
}

fn session(device: &str, peer: &str, asn: u32, peer_device: Option<&str>) -> Want {
    Want::Is(Intent::RemoveSession {
        device: device.into(),
        peer: peer.into(),
        peer_asn: Some(asn),
        peer_device: peer_device.map(str::to_owned),
    })
}

fn add_route(device: &str, prefix: &str, nh: &str) -> Want {
    Want::Is(Intent::AddStaticRoute {
        device: device.into(),
        prefix: prefix.parse().expect("prefix"),
        next_hop: nh.parse().expect("next hop"),
    })
}

fn del_route(device: &str, prefix: &str, nh: Option<&str>) -> Want {
    Want::Is(Intent::RemoveStaticRoute {
        device: device.into(),
        prefix: prefix.parse().expect("prefix"),
        next_hop: nh.map(|n| n.parse().expect("next hop")),
    })
}

fn peering(device: &str, name: &str, asn: u32, link: &str, interface: Option<&str>) -> Want {
    Want::Is(Intent::AddPeering {
        device: device.into(),
        peer: NewPeer {
            name: name.into(),
            asn,
            link: link.parse().expect("link"),
            interface: interface.map(str::to_owned),
        },
    })
}

fn table() -> Vec<(&'static str, Want)> {
    use IfChange::*;
    let link = |a: (&str, &str), b: (&str, &str)| {
        Want::Is(Intent::DecommissionLink {
            a: (a.0.into(), a.1.into()),
            b: (b.0.into(), b.1.into()),
        })
    };
    let peer_gone = |device: &str, peer: Peer| {
        Want::Is(Intent::DecommissionPeer {
            device: device.into(),
            peer,
        })
    };
    vec![
        // --- redundant uplink to an existing provider ---
        ("Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router", uplink("alpha-border-1", aarnet(), true)),
        ("add a redundant uplink to AARNet on alpha-border-1", uplink("alpha-border-1", aarnet(), true)),
        ("Add an eBGP peering to AS7575 on ALPHA-BORDER-1", uplink("alpha-border-1", aarnet(), true)),
        ("add a second Telstra session on the beta border router", uplink("beta-border-1", telstra(), true)),
        ("add an uplink to AARNet on beta-border-1", uplink("beta-border-1", aarnet(), false)),
        ("add a redundant uplink on alpha-border-1", uplink("alpha-border-1", aarnet(), true)),
        ("add a second uplink from beta border router to its transit provider", uplink("beta-border-1", telstra(), true)),
        ("add a backup uplink to Telstra", uplink("beta-border-1", telstra(), true)),
        ("adding a redundant uplink towards AS 1221 on beta-border-1", uplink("beta-border-1", telstra(), true)),
        ("在alpha-border-1上增加一条到AARNet的冗余上联", uplink("alpha-border-1", aarnet(), true)),
        ("给 beta-border-1 新增 Telstra 冗余上联", uplink("beta-border-1", telstra(), true)),
        ("add a redundnat uplink to AARNet on alpha-border-1", uplink("alpha-border-1", aarnet(), true)),
        // --- a peering to a new provider ---
        ("add an eBGP peering to Cogent AS174 on alpha-border-1 link 198.18.0.1/31", peering("alpha-border-1", "Cogent", 174, "198.18.0.1/31", None)),
        ("add a new provider Cogent AS 174 on alpha-border-1 via Gi0/0/3, link 198.18.0.0/30", peering("alpha-border-1", "Cogent", 174, "198.18.0.0/30", Some("GigabitEthernet0/0/3"))),
        ("add an eBGP peering to Cogent AS174 on alpha-border-1", Want::Ask("Which link subnet did Cogent assign", &[])),
        ("add an eBGP peering to Cogent on alpha-border-1", Want::Ask("What AS number does Cogent use", &[])),
        // A neighbor address and AS written as the device writes them: never replaced by
        // an existing provider's uplink.
        ("add BGP neighbor 203.0.113.9 remote-as 64999 on beta-border-1", Want::Ask("names the neighbor address 203.0.113.9", &[])),
        ("add BGP neighbor remote-as 64999 on beta-border-1", Want::Ask("Which link subnet did AS64999 assign", &[])),
        ("在alpha-border-1上新增到Lumen AS3356的eBGP对等体 链路 198.18.1.0/31", peering("alpha-border-1", "Lumen", 3356, "198.18.1.0/31", None)),
        // --- remove one BGP session ---
        ("remove the BGP neighbor 10.255.1.2 on alpha-border-1", session("alpha-border-1", "10.255.1.2", 65001, Some("alpha-core-1"))),
        ("delete neighbor 10.255.1.3 from alpha-border-1", session("alpha-border-1", "10.255.1.3", 65001, Some("alpha-core-2"))),
        ("remove the iBGP session from alpha-core-1 to 10.255.2.2", session("alpha-core-1", "10.255.2.2", 65001, Some("beta-core-1"))),
        ("删除alpha-border-1上的BGP邻居10.255.1.2", session("alpha-border-1", "10.255.1.2", 65001, Some("alpha-core-1"))),
        ("remove the BGP session 203.0.113.2 on alpha-border-1", session("alpha-border-1", "203.0.113.2", 7575, None)),
        ("remove the AARNet peer", peer_gone("alpha-border-1", aarnet())),
        ("remove the Telstra peer", peer_gone("beta-border-1", telstra())),
        ("remove the AS7575 peering from alpha-border-1", peer_gone("alpha-border-1", aarnet())),
        ("移除beta-border-1上的Telstra对等体", peer_gone("beta-border-1", telstra())),
        ("remove the AARNet peer from beta-border-1", Want::Ask("beta-border-1 has no session to AARNet", &["alpha-border-1"])),
        ("remove neighbor 10.255.1.2", Want::Ask("Several sessions match", &["alpha-border-1 → 10.255.1.2", "alpha-dist-1 → 10.255.1.2", "alpha-dist-2 → 10.255.1.2", "alpha-core-2 → 10.255.1.2", "beta-core-1 → 10.255.1.2", "beta-core-2 → 10.255.1.2", "gamma-border-1 → 10.255.1.2"])),
        // --- interface changes ---
        ("shutdown alpha-core-1 Ethernet10", iface("alpha-core-1", "Ethernet10", vec![Shutdown])),
        ("shut down Et10 on alpha-core-1", iface("alpha-core-1", "Ethernet10", vec![Shutdown])),
        ("disable interface Ethernet10 on alpha-core-1", iface("alpha-core-1", "Ethernet10", vec![Shutdown])),
        ("shutdwn alpha-core-1 Ethernet10", iface("alpha-core-1", "Ethernet10", vec![Shutdown])),
        ("关闭alpha-core-1的Ethernet10接口", iface("alpha-core-1", "Ethernet10", vec![Shutdown])),
        ("configure no shutdown on Ethernet11 of alpha-core-1", iface("alpha-core-1", "Ethernet11", vec![NoShutdown])),
        ("bring up alpha-core-1 Ethernet11", iface("alpha-core-1", "Ethernet11", vec![NoShutdown])),
        ("启用alpha-core-1 Ethernet11", iface("alpha-core-1", "Ethernet11", vec![NoShutdown])),
        ("change the MTU of Et2 on alpha-core-1 to 9000", iface("alpha-core-1", "Ethernet2", vec![Mtu(9000)])),
        ("change the MTU on alpha-core-1 Ethernet10 to 1400", iface("alpha-core-1", "Ethernet10", vec![Mtu(1400)])),
        ("set mtu 9100 on alpha-dist-1 Twe1/0/10", iface("alpha-dist-1", "TwentyFiveGigE1/0/10", vec![Mtu(9100)])),
        ("修改alpha-core-1 Ethernet2的MTU为9000", iface("alpha-core-1", "Ethernet2", vec![Mtu(9000)])),
        ("change the MTU of Et2 on alpha-core-1 to 99999", Want::Ask("not a plausible MTU", &[])),
        ("modify the description of gig0/0/3 on alpha-border-1 to \"spare - reserved for AARNet\"", iface("alpha-border-1", "GigabitEthernet0/0/3", vec![Description("spare - reserved for AARNet".into())])),
        ("set the description of alpha-core-1 Ethernet11 to \"to beta-core-2 (planned)\"", iface("alpha-core-1", "Ethernet11", vec![Description("to beta-core-2 (planned)".into())])),
        ("remove the description on alpha-core-1 Ethernet10", iface("alpha-core-1", "Ethernet10", vec![NoDescription])),
        ("delete the description of Ethernet11 on alpha-core-1", iface("alpha-core-1", "Ethernet11", vec![NoDescription])),
        ("删除alpha-core-1 Ethernet10的描述", iface("alpha-core-1", "Ethernet10", vec![NoDescription])),
        ("change the description of alpha-core-1 Ethernet10", Want::Ask("What should the description say", &[])),
        ("change the IP address of alpha-dist-1 TwentyFiveGigE1/0/10 to 10.0.9.0/31", iface("alpha-dist-1", "TwentyFiveGigE1/0/10", vec![Address("10.0.9.0/31".parse().expect("net"))])),
        ("change the ip address on alpha-core-1 Ethernet11 to 10.0.50.0/31", iface("alpha-core-1", "Ethernet11", vec![Address("10.0.50.0/31".parse().expect("net"))])),
        ("修改alpha-core-1 Ethernet11的地址为10.0.50.0/31", iface("alpha-core-1", "Ethernet11", vec![Address("10.0.50.0/31".parse().expect("net"))])),
        ("remove the ip address 10.0.0.0/31 from alpha-core-1 Ethernet10", Want::Refuse("removing an interface address")),
        ("shutdown Gi9/9 on alpha-border-1", Want::Ask("alpha-border-1 has no interface 'Gi9/9'", &[])),
        ("shutdown Ethernet10", Want::Ask("On which device", &[])),
        ("shutdown alpha-core-1", Want::Ask("Which interface of alpha-core-1", &[])),
        // --- static routes ---
        ("add a static route to 10.99.0.0/16 via 10.0.1.6 on alpha-dist-1", add_route("alpha-dist-1", "10.99.0.0/16", "10.0.1.6")),
        ("add static route 10.98.0.0/16 next hop 10.0.1.0 on alpha-border-1", add_route("alpha-border-1", "10.98.0.0/16", "10.0.1.0")),
        ("在alpha-dist-1上添加静态路由10.99.0.0/16 下一跳 10.0.1.6", add_route("alpha-dist-1", "10.99.0.0/16", "10.0.1.6")),
        ("add a static route on alpha-dist-1", Want::Ask("A static route needs a prefix and a next-hop", &[])),
        ("add a static route to 0.0.0.0/0 via 10.0.1.40 on alpha-br-3560", Want::Refuse("already configured")),
        ("remove the static route 0.0.0.0/0 on alpha-br-3560", del_route("alpha-br-3560", "0.0.0.0/0", Some("10.0.1.40"))),
        ("delete the route 10.30.0.0/16 from beta-border-1", del_route("beta-border-1", "10.30.0.0/16", None)),
        ("删除beta-border-1上的静态路由10.30.0.0/16", del_route("beta-border-1", "10.30.0.0/16", None)),
        ("remove the static route 10.77.0.0/16 on alpha-dist-1", Want::Ask("alpha-dist-1 has no static route to 10.77.0.0/16", &[])),
        ("remove a static route from alpha-border-1", Want::Ask("Which static route of alpha-border-1", &["10.10.0.0/16 via Null0", "10.20.0.0/16 via Null0"])),
        // --- decommissions and what-ifs ---
        ("Decommission branch switch alpha-br-3560, what do we lose", decom(&["alpha-br-3560"])),
        ("retire beta-acc-2", decom(&["beta-acc-2"])),
        ("退役 alpha-br-2960-2", decom(&["alpha-br-2960-2"])),
        ("下线alpha-br-3560", decom(&["alpha-br-3560"])),
        ("decomission alpha-br-3560", decom(&["alpha-br-3560"])),
        ("decommission alpha-dist-1 and alpha-dist-2", decom(&["alpha-dist-1", "alpha-dist-2"])),
        ("what do we lose if alpha-dist-2 goes away", decom(&["alpha-dist-2"])),
        ("what if alpha-core-1 fails?", decom(&["alpha-core-1"])),
        ("如果alpha-core-2故障会怎样", decom(&["alpha-core-2"])),
        ("decommission interface Gi0/0/3 on alpha-border-1", decom_if("alpha-border-1", "GigabitEthernet0/0/3")),
        ("what if alpha-core-1 Ethernet10 goes down", decom_if("alpha-core-1", "Ethernet10")),
        ("remove the link between alpha-dist-1 and alpha-br-3560", link(("alpha-br-3560", "GigabitEthernet0/25"), ("alpha-dist-1", "TwentyFiveGigE1/0/10"))),
        ("decommission the link alpha-core-1 Ethernet10 to beta-core-1", link(("alpha-core-1", "Ethernet10"), ("beta-core-1", "Ethernet10"))),
        ("拆除alpha-core-1和beta-core-1之间的链路", link(("alpha-core-1", "Ethernet10"), ("beta-core-1", "Ethernet10"))),
        ("decommission the alpha core switch", Want::Ask("Which 'alpha' core", &["alpha-core-1", "alpha-core-2"])),
        ("decommission alpha-br-3650", Want::Ask("no device 'alpha-br-3650'", &["alpha-br-3560", "alpha-br-2960-1", "alpha-br-2960-2"])),
        ("decommission Gi9/9 on alpha-border-1", Want::Ask("has no interface 'Gi9/9'", &[])),
        ("remove the link between alpha-acc-1 and alpha-dist-2 and alpha-dist-1", Want::Ask("No link matches", &[])),
        // --- found by a first-time user: sessions between devices, attributes, phrasings ---
        ("remove the bgp session between alpha-core-1 and beta-core-2", session("alpha-core-1", "10.255.2.3", 65001, Some("beta-core-2"))),
        ("remove the iBGP peering between alpha-border-1 and alpha-core-2", session("alpha-border-1", "10.255.1.3", 65001, Some("alpha-core-2"))),
        ("删除alpha-dist-1和alpha-core-1之间的BGP邻居", session("alpha-dist-1", "10.255.1.2", 65001, Some("alpha-core-1"))),
        ("drop the BGP neighbor 10.255.1.3 on alpha-border-1", session("alpha-border-1", "10.255.1.3", 65001, Some("alpha-core-2"))),
        ("remove the connection between alpha-dist-1 and alpha-dist-2", link(("alpha-dist-1", "TwentyFiveGigE1/0/3"), ("alpha-dist-2", "TwentyFiveGigE1/0/3"))),
        ("remove alpha-border-1 from bgp", Want::Refuse("removing a routing process")),
        ("shutdown bgp on alpha-border-1", Want::Refuse("routing process")),
        ("remove the ip address from alpha-dist-1 Twe1/0/3", Want::Refuse("removing an interface address")),
        ("delete the snmp community on alpha-br-3560", Want::Refuse("management-plane")),
        ("remove the default route on alpha-br-3560", del_route("alpha-br-3560", "0.0.0.0/0", Some("10.0.1.40"))),
        ("把alpha-core-2的Ethernet10的MTU改成9000", iface("alpha-core-2", "Ethernet10", vec![Mtu(9000)])),
        ("re-ip alpha-core-1 Ethernet11 to 10.0.50.0/31", iface("alpha-core-1", "Ethernet11", vec![Address("10.0.50.0/31".parse().expect("net"))])),
        ("add an eBGP peering to Telstra AS1221 on alpha-border-1 link 192.0.2.20/31", Want::Is(Intent::AddUplink { device: "alpha-border-1".into(), peer: telstra(), redundant: false, link: Some("192.0.2.20/31".parse().expect("net")) })),
        ("add a peering to Hurricane Electric AS6939 on alpha-border-1 link 192.0.2.8/31", peering("alpha-border-1", "Hurricane Electric", 6939, "192.0.2.8/31", None)),
        // --- what olav cannot plan: a refusal, never a different plan ---
        ("modify the BGP local-preference for AARNet to 300", Want::Refuse("BGP local-preference")),
        ("set local preference 200 on the AARNet session", Want::Refuse("BGP local-preference")),
        ("add an ACL to block telnet on alpha-border-1 Gi0/0/0", Want::Refuse("ACLs")),
        ("add vlan 30 to the trunk on alpha-acc-1", Want::Refuse("VLANs")),
        ("change the OSPF cost on alpha-core-1 Ethernet10 to 100", Want::Refuse("IGP settings")),
        ("apply a QoS policy on alpha-border-1 Gi0/0/0", Want::Refuse("QoS")),
        ("add MD5 password to the AARNet session", Want::Refuse("authentication")),
        ("prepend our AS twice towards Telstra", Want::Refuse("BGP path attributes")),
        ("upgrade alpha-core-1 to EOS 4.32", Want::Refuse("software upgrades")),
        ("change the speed of alpha-core-1 Ethernet11 to 10g", Want::Refuse("speed and duplex")),
        ("shutdown the BGP neighbor 10.255.1.2 on alpha-border-1", Want::Refuse("changing an existing BGP session")),
        ("do something nice to alpha-core-1", Want::Refuse("this change on alpha-core-1")),
        ("change something somewhere", Want::Ask("I can plan", &[])),
        // A request that forbids a change is never planned as that change.
        ("don't remove the static route 10.40.20.0/24 on gamma-border-1", Want::Ask("what not to do", &[])),
        ("do not shut down GigabitEthernet0/0/1 on alpha-border-1", Want::Ask("what not to do", &[])),
        ("keep xe-0/1/0 on gamma-border-1 up, don’t shut it", Want::Ask("what not to do", &[])),
        ("Never decommission alpha-core-1", Want::Ask("what not to do", &[])),
        ("decommission alpha-br-3560 without touching alpha-dist-1", Want::Ask("what not to do", &[])),
        // A provider or an interface the request names is never replaced by another.
        ("add a redundant eBGP uplink to the Cogent peer on alpha-border-1", Want::Ask("Cogent has no session", &[])),
        (
            "add a redundant eBGP uplink to AARNet on alpha-border-1 using GigabitEthernet0/0/1",
            Want::Ask("cannot place it on GigabitEthernet0/0/1", &["GigabitEthernet0/0/3"]),
        ),
        ("add a redundant eBGP uplink to AARNet on alpha-border-1 using Gi0/0/9", Want::Ask("has no interface 'Gi0/0/9'", &[])),
        // Details olav does not draft are refused; host bits, network and broadcast
        // addresses are asked about.
        ("add a floating static route 10.60.0.0/16 via 10.0.1.7 on alpha-core-1", Want::Refuse("administrative distance")),
        ("add a static route 10.60.0.0/16 via 10.0.1.7 on alpha-core-1 with administrative distance 250", Want::Refuse("administrative distance")),
        ("add a static route 10.60.0.0/16 via 10.0.1.7 on alpha-core-1 tag 500", Want::Refuse("tag")),
        ("add a static route 10.60.0.5/16 via 10.0.1.7 on alpha-core-1", Want::Ask("host bits set", &["10.60.0.0/16"])),
        ("change the ip address of Vlan10 on alpha-acc-1 to 10.10.10.0/24", Want::Ask("network address of 10.10.10.0/24", &[])),
        ("change the ip address of Vlan10 on alpha-acc-1 to 10.10.10.255/24", Want::Ask("broadcast address", &[])),
        ("change the ip address of Vlan10 on alpha-acc-1 to 10.10.10.1/0", Want::Ask("not an interface subnet", &[])),
        // A dotted netmask is read as a prefix length; a missing one is asked for.
        (
            "change the ip address of Vlan10 on alpha-acc-1 to 10.10.99.1 255.255.255.0",
            iface("alpha-acc-1", "Vlan10", vec![IfChange::Address("10.10.99.1/24".parse().expect("net"))]),
        ),
        (
            "change the ip address of Vlan10 on alpha-acc-1 to 10.10.99.1",
            Want::Ask("Which prefix length for 10.10.99.1?", &[]),
        ),
        // Two routes in one sentence: asked, never the second one dropped.
        (
            "add a static route 10.99.0.0/16 via 10.0.1.6 on alpha-dist-1 and also add 10.98.0.0/16 via 10.0.1.6",
            Want::Ask("more than one route", &["10.99.0.0/16", "10.98.0.0/16"]),
        ),
        (
            "add a static route 10.99.0.0/16 via 10.0.1.6 or 10.0.1.10 on alpha-dist-1",
            Want::Ask("more than one next hop", &["10.0.1.6", "10.0.1.10"]),
        ),
        (
            "change the ip address of Vlan10 on alpha-acc-1 to 10.10.99.1/24 and 10.10.98.1/24",
            Want::Ask("more than one address", &["10.10.99.1/24", "10.10.98.1/24"]),
        ),
        (
            "remove the static routes 10.40.20.0/24 and 10.40.0.0/16 on gamma-border-1",
            Want::Ask("more than one route", &["10.40.20.0/24", "10.40.0.0/16"]),
        ),
    ]
}

#[test]
fn every_request_reads_as_exactly_what_it_names() {
    let facts = demo_facts();
    let rows = table();
    assert!(rows.len() >= 80, "{} requests", rows.len());
    let mut failures = Vec::new();
    for (request, want) in &rows {
        let got = resolve(request, &facts);
        let ok = match (want, &got) {
            (Want::Is(i), Resolution::Intent(g)) => i == g,
            (
                Want::Ask(q, c),
                Resolution::Clarify {
                    question,
                    candidates,
                },
            ) => {
                let mut a: Vec<&str> = candidates.iter().map(|c| c.text.as_str()).collect();
                let mut b: Vec<&str> = c.to_vec();
                a.sort_unstable();
                b.sort_unstable();
                question.contains(q) && (c.is_empty() || a == b)
            }
            (Want::Refuse(w), Resolution::Refuse { what }) => what.contains(w),
            _ => false,
        };
        if !ok {
            failures.push(format!("{request}\n    got {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} requests read wrongly:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn the_reading_is_stated_in_one_line() {
    let facts = demo_facts();
    let Resolution::Intent(i) = resolve(
        "remove the BGP neighbor 10.255.1.2 on alpha-border-1",
        &facts,
    ) else {
        panic!("no intent");
    };
    assert_eq!(
        i.reading(),
        "Understood: remove the BGP session alpha-border-1 → 10.255.1.2 (AS65001, to alpha-core-1; both ends)"
    );
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Any sentence of request-like words, addresses and masks reads as something (an
    /// intent, a question, a refusal) without panicking.
    #[test]
    fn request_reading_never_panics(
        words in proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(vec![
                    "add", "remove", "don't", "shut", "down", "the", "static", "route", "via",
                    "address", "ip", "of", "on", "to", "mtu", "Vlan10", "alpha-acc-1",
                    "alpha-border-1", "uplink", "AARNet", "Cogent", "peer", "floating", "and",
                    "255.255.255.0", "255.0.0.0", "0.0.0.0", "10.10.99.1", "10.0.0.0/8",
                    "10.10.10.255/24", "::1/128", "decommission", "what", "if", "/", "",
                ])
                .prop_map(str::to_owned),
                "\\PC{0,12}",
            ],
            0..14,
        )
    ) {
        let facts = demo_facts();
        let _ = resolve(&words.join(" "), &facts);
    }
}
