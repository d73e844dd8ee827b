use super::*;
use crate::dialect::stanza::statements;
use crate::dialect::{candidate_text, render as render_any, show, Show};
use crate::model::{StaticRoute, Vendor};

const XR: &str = include_str!("../../../fixtures/dialect/iosxr.cfg");

/// The stored route on the fixture's line `line` (as the parser numbers it).
fn stored_route(prefix: &str, hop: &str) -> StaticRoute {
    let line = XR
        .lines()
        .position(|l| l.trim() == format!("{prefix} {hop}"))
        .map_or(0, |i| i as u32 + 1);
    let mut r = route(prefix.parse().expect("net"), &[hop]);
    r.line = line;
    r
}

/// Every change: its commit, its rollback commit, and what the candidate holds; the
/// rollback applied to the candidate gives back every stored statement.
#[test]
fn every_change_renders_commits_and_rolls_back() {
    let attrs = [
        IfChange::Description("new".into()),
        IfChange::Mtu(1500),
        IfChange::Shutdown,
    ];
    let address = [IfChange::Address("10.9.9.1/30".parse().expect("net"))];
    let up = [IfChange::NoShutdown, IfChange::NoDescription];
    let removed = stored_route("192.0.2.0/24", "10.0.0.2");
    let in_vrf = stored_route("198.18.0.0/24", "10.1.0.2");
    let if_change = |name, changes| Change::Interface {
        name,
        changes,
        switchport: None,
        replaced: None,
    };
    let table: Vec<(Change<'_>, &str, &str, &str, &str)> = vec![
        (
            if_change("GigabitEthernet0/0/0/0", &attrs),
            "interface GigabitEthernet0/0/0/0\n description new\n mtu 1500\n shutdown",
            "interface GigabitEthernet0/0/0/0\n description to-telia\n mtu 9000\n no shutdown",
            "interface GigabitEthernet0/0/0/0 / shutdown",
            "interface GigabitEthernet0/0/0/0 / mtu 9000",
        ),
        (
            if_change("GigabitEthernet0/0/0/0", &address),
            "interface GigabitEthernet0/0/0/0\n ipv4 address 10.9.9.1 255.255.255.252",
            "interface GigabitEthernet0/0/0/0\n ipv4 address 10.0.0.1 255.255.255.252",
            "interface GigabitEthernet0/0/0/0 / ipv4 address 10.9.9.1 255.255.255.252",
            "interface GigabitEthernet0/0/0/0 / ipv4 address 10.0.0.1 255.255.255.252",
        ),
        (
            if_change("GigabitEthernet0/0/0/1", &address),
            "interface GigabitEthernet0/0/0/1\n ipv4 address 10.9.9.1 255.255.255.252",
            "interface GigabitEthernet0/0/0/1\n no ipv4 address",
            "interface GigabitEthernet0/0/0/1 / ipv4 address 10.9.9.1 255.255.255.252",
            "no ipv4 address",
        ),
        (
            Change::Interface {
                name: "GigabitEthernet0/0/0/0",
                changes: &up,
                switchport: None,
                replaced: None,
            },
            "interface GigabitEthernet0/0/0/0\n no shutdown\n no description",
            "interface GigabitEthernet0/0/0/0\n no shutdown\n description to-telia",
            "interface GigabitEthernet0/0/0/0 / mtu 9000",
            "no shutdown",
        ),
        (
            Change::Interface {
                name: "GigabitEthernet0/0/0/1",
                changes: &up[..1],
                switchport: None,
                replaced: None,
            },
            "interface GigabitEthernet0/0/0/1\n no shutdown",
            "interface GigabitEthernet0/0/0/1\n shutdown",
            "interface GigabitEthernet0/0/0/1",
            "interface GigabitEthernet0/0/0/1 / shutdown",
        ),
        (
            Change::AddStaticRoute {
                prefix: "198.51.100.0/24".parse().expect("net"),
                next_hop: "10.0.0.2".parse().expect("ip"),
            },
            "router static\n address-family ipv4 unicast\n  198.51.100.0/24 10.0.0.2",
            "router static\n address-family ipv4 unicast\n  no 198.51.100.0/24 10.0.0.2",
            "router static / address-family ipv4 unicast / 198.51.100.0/24 10.0.0.2",
            "no 198.51.100.0/24",
        ),
        (
            Change::AddDiscardRoute {
                prefix: "198.51.100.0/24".parse().expect("net"),
            },
            "router static\n address-family ipv4 unicast\n  198.51.100.0/24 Null0",
            "router static\n address-family ipv4 unicast\n  no 198.51.100.0/24 Null0",
            "router static / address-family ipv4 unicast / 198.51.100.0/24 Null0",
            "no 198.51.100.0/24",
        ),
        (
            Change::RemoveStaticRoute {
                route: &removed,
                hops: 1,
            },
            "router static\n address-family ipv4 unicast\n  no 192.0.2.0/24 10.0.0.2",
            "router static\n address-family ipv4 unicast\n  192.0.2.0/24 10.0.0.2",
            "router static / address-family ipv4 unicast / 203.0.113.0/24 Null0",
            "192.0.2.0/24 10.0.0.2",
        ),
        (
            Change::RemoveStaticRoute {
                route: &in_vrf,
                hops: 1,
            },
            "router static\n vrf RED\n  address-family ipv4 unicast\n   no 198.18.0.0/24 10.1.0.2",
            "router static\n vrf RED\n  address-family ipv4 unicast\n   198.18.0.0/24 10.1.0.2",
            "router static / address-family ipv4 unicast / 192.0.2.0/24 10.0.0.2",
            "198.18.0.0/24",
        ),
        (
            Change::ShutForDecommission {
                name: "GigabitEthernet0/0/0/0",
                description: "DECOMMISSIONED",
                units: 1,
            },
            "interface GigabitEthernet0/0/0/0\n description DECOMMISSIONED\n shutdown",
            "interface GigabitEthernet0/0/0/0\n description to-telia\n no shutdown",
            "interface GigabitEthernet0/0/0/0 / description DECOMMISSIONED",
            "to-telia",
        ),
        (
            Change::RemoveNeighbor {
                peer: "10.0.0.2",
                vrf: "default",
                local_as: 65001,
            },
            "router bgp 65001\n no neighbor 10.0.0.2",
            "router bgp 65001\n neighbor 10.0.0.2\n  remote-as 7575\n  description Telia\n  address-family ipv4 unicast\n   route-policy PASS in\n   route-policy PASS out",
            "router bgp 65001 / vrf RED / neighbor 10.0.0.2 / remote-as 64999",
            "remote-as 7575",
        ),
        (
            Change::RemoveNeighbor {
                peer: "10.0.0.2",
                vrf: "RED",
                local_as: 65001,
            },
            "router bgp 65001\n vrf RED\n  no neighbor 10.0.0.2",
            "router bgp 65001\n vrf RED\n  neighbor 10.0.0.2\n   remote-as 64999\n   address-family ipv4 unicast\n    route-policy PASS in\n    route-policy PASS out",
            "router bgp 65001 / neighbor 10.0.0.2 / remote-as 7575",
            "remote-as 64999",
        ),
    ];
    let before = statements(XR);
    for (change, apply, rollback, holds, gone) in table {
        let l = render_any(Vendor::CiscoIosXr, "xr1", XR, &change).expect("rendered");
        let (plan, back) = l.texts();
        assert_eq!(
            plan,
            format!("configure\n{apply}\ncommit\nend"),
            "{change:?}"
        );
        assert_eq!(
            back,
            format!("configure\n{rollback}\ncommit\nend"),
            "{change:?}"
        );
        let cand = candidate_text(Vendor::CiscoIosXr, XR, &plan);
        let after = statements(&cand);
        assert!(
            after.iter().any(|s| s == holds),
            "{change:?}: {holds}\n{cand}"
        );
        assert!(
            !after.iter().any(|s| s.contains(gone)),
            "{change:?}: {gone}\n{cand}"
        );
        assert_ne!(after, before, "{change:?}: the plan changes nothing");
        assert!(
            !cand.contains("commit") && !cand.contains("configure"),
            "{cand}"
        );
        let restored = candidate_text(Vendor::CiscoIosXr, &cand, &back);
        assert_eq!(statements(&restored), before, "{change:?}\n{restored}");
    }
}

#[test]
fn what_is_not_drafted_says_why() {
    let address = [IfChange::Address("10.9.9.1/30".parse().expect("net"))];
    let e = render(
        "xr1",
        XR,
        &Change::Interface {
            name: "GigabitEthernet0/0/0/3.10 l2transport",
            changes: &address,
            switchport: None,
            replaced: None,
        },
    )
    .expect_err("refused");
    assert!(e.contains("layer-2"), "{e}");
    let e = render(
        "xr1",
        XR,
        &Change::RemoveNeighbor {
            peer: "10.9.9.9",
            vrf: "default",
            local_as: 65001,
        },
    )
    .expect_err("refused");
    assert!(e.contains("router bgp 65001 / neighbor 10.9.9.9"), "{e}");
    let e = render(
        "xr1",
        XR,
        &Change::Interface {
            name: "GigabitEthernet0/0/0/1",
            changes: &[IfChange::NoDescription],
            switchport: None,
            replaced: None,
        },
    )
    .expect_err("refused");
    assert!(e.contains("no description"), "{e}");
}

#[test]
fn plan_lines_read_back_as_sections_and_routes() {
    for (line, section, prefix, removes) in [
        ("router static", Some("router static"), None, None),
        // Nested under `router static`: no section of its own, but a route.
        (
            "  192.0.2.0/24 10.0.0.2 200",
            None,
            Some("192.0.2.0/24"),
            Some(false),
        ),
        (
            "192.0.2.0/24 10.0.0.2",
            Some("router static"),
            Some("192.0.2.0/24"),
            Some(false),
        ),
        (
            "no 192.0.2.0/24 Null0",
            Some("router static"),
            Some("192.0.2.0/24"),
            Some(true),
        ),
        (
            "interface GigabitEthernet0/0/0/0",
            Some("interface GigabitEthernet0/0/0/0"),
            None,
            None,
        ),
        ("commit", None, None, None),
        ("configure", None, None, None),
    ] {
        let trimmed = line.trim();
        assert_eq!(
            crate::dialect::section_of(Vendor::CiscoIosXr, line).as_deref(),
            section,
            "{line}"
        );
        assert_eq!(
            crate::dialect::route_prefix(trimmed).as_deref(),
            prefix,
            "{line}"
        );
        if prefix.is_some() {
            assert_eq!(
                crate::dialect::static_route_line(Vendor::CiscoIosXr, trimmed).map(|r| r.removes),
                removes,
                "{line}"
            );
        }
    }
    let r = static_route_line("no 192.0.2.0/24 Null0").and_then(|r| r.route);
    assert!(r.is_some_and(|r| r.discards()));
    assert!(crate::dialect::is_static_route_section("router static"));
}

#[test]
fn show_commands_are_the_devices() {
    assert_eq!(
        show(
            Vendor::CiscoIosXr,
            Show::Route("10.1.0.0/16".parse().expect("net"))
        ),
        ["show route 10.1.0.0/16"]
    );
    assert_eq!(
        show(Vendor::CiscoIosXr, Show::BgpSummary),
        ["show bgp summary"]
    );
    assert_eq!(
        show(
            Vendor::CiscoIosXr,
            Show::Interface("GigabitEthernet0/0/0/0")
        ),
        [
            "show running-config interface GigabitEthernet0/0/0/0",
            "show interfaces GigabitEthernet0/0/0/0"
        ]
    );
    assert_eq!(
        igp_checks("router ospf 1\n area 0\n"),
        ["show ospf neighbor"]
    );
}

/// A plan edited to `commit confirmed` (the device's own safety) applies the same.
#[test]
fn commit_confirmed_frames_the_same_change() {
    let plan =
        "configure\ninterface GigabitEthernet0/0/0/1\n no shutdown\ncommit confirmed 300\nend\n";
    let cand = apply_text(XR, plan);
    assert!(!cand.contains("commit"), "{cand}");
    assert!(
        !statements(&cand)
            .iter()
            .any(|s| s == "interface GigabitEthernet0/0/0/1 / shutdown"),
        "{cand}"
    );
}
