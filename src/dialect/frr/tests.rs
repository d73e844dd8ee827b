use super::*;
use crate::dialect::stanza::statements;
use crate::dialect::{candidate_text, render as render_any, show, Show};
use crate::model::{StaticRoute, Vendor};

const CUMULUS: &str = include_str!("../../../fixtures/dialect/frr-net/configs/leaf1.cfg");
const SONIC: &str = include_str!("../../../fixtures/dialect/sonic.cfg");

/// The stored route on its line of the fixture, as the parser numbers it.
fn stored_route(line: &str) -> StaticRoute {
    let no = CUMULUS
        .lines()
        .position(|l| l.trim() == line)
        .map_or(0, |i| i as u32 + 1);
    let mut r = static_route_line(line)
        .and_then(|r| r.route)
        .expect("a route line");
    r.line = no;
    r
}

/// What a Cumulus text holds besides frr.conf: kept as stored by every candidate.
fn ifupdown(text: &str) -> &str {
    text.split("frr version").next().unwrap_or_default()
}

/// Every change: its vtysh lines, their rollback, and what the candidate's frr.conf
/// holds; the rollback applied to the candidate gives back every stored statement.
#[test]
fn every_change_renders_vtysh_lines_and_rolls_back() {
    let attrs = [IfChange::Description("new".into()), IfChange::Shutdown];
    let readdress = [IfChange::Address("10.9.9.1/30".parse().expect("net"))];
    let up = [IfChange::NoShutdown];
    let undescribe = [IfChange::NoDescription];
    let removed = stored_route("ip route 192.0.2.0/24 10.0.0.2");
    let in_vrf = stored_route("ip route 198.18.0.0/24 10.1.0.2");
    let change = |name, changes, replaced: Option<&str>| Change::Interface {
        name,
        changes,
        switchport: None,
        replaced: replaced.map(|r| r.parse().expect("net")),
    };
    let table: Vec<(Change<'_>, &str, &str, &str, &str)> = vec![
        (
            change("swp2", &attrs, None),
            "interface swp2\n description new\n shutdown",
            "interface swp2\n description to-telia\n no shutdown",
            "interface swp2 / shutdown",
            "to-telia",
        ),
        (
            change("swp2", &readdress, Some("10.0.0.1/30")),
            "interface swp2\n no ip address 10.0.0.1/30\n ip address 10.9.9.1/30",
            "interface swp2\n no ip address 10.9.9.1/30\n ip address 10.0.0.1/30",
            "interface swp2 / ip address 10.9.9.1/30",
            "10.0.0.1/30",
        ),
        (
            change("swp3", &readdress, None),
            "interface swp3\n ip address 10.9.9.1/30",
            "interface swp3\n no ip address 10.9.9.1/30",
            "interface swp3 / ip address 10.9.9.1/30",
            "no ip address",
        ),
        (
            change("swp3", &up, None),
            "interface swp3\n no shutdown",
            "interface swp3\n shutdown",
            "interface swp3",
            "shutdown",
        ),
        (
            change("swp2", &undescribe, None),
            "interface swp2\n no description",
            "interface swp2\n description to-telia",
            "interface swp2 / ip address 10.0.0.1/30",
            "interface swp2 / description",
        ),
        (
            Change::AddStaticRoute {
                prefix: "198.51.100.0/24".parse().expect("net"),
                next_hop: "10.0.0.2".parse().expect("ip"),
            },
            "ip route 198.51.100.0/24 10.0.0.2",
            "no ip route 198.51.100.0/24 10.0.0.2",
            "ip route 198.51.100.0/24 10.0.0.2",
            "no ip route",
        ),
        (
            Change::AddDiscardRoute {
                prefix: "198.51.100.0/24".parse().expect("net"),
            },
            "ip route 198.51.100.0/24 blackhole",
            "no ip route 198.51.100.0/24 blackhole",
            "ip route 198.51.100.0/24 blackhole",
            "no ip route",
        ),
        (
            Change::RemoveStaticRoute {
                route: &removed,
                hops: 1,
            },
            "no ip route 192.0.2.0/24 10.0.0.2",
            "ip route 192.0.2.0/24 10.0.0.2",
            "ip route 203.0.113.0/24 blackhole",
            "192.0.2.0/24",
        ),
        (
            Change::RemoveStaticRoute {
                route: &in_vrf,
                hops: 1,
            },
            "vrf RED\n no ip route 198.18.0.0/24 10.1.0.2",
            "vrf RED\n ip route 198.18.0.0/24 10.1.0.2",
            "vrf RED / exit-vrf",
            "198.18.0.0/24",
        ),
        (
            Change::ShutForDecommission {
                name: "swp2",
                description: "DECOMMISSIONED",
                units: 1,
            },
            "interface swp2\n description DECOMMISSIONED\n shutdown",
            "interface swp2\n description to-telia\n no shutdown",
            "interface swp2 / description DECOMMISSIONED",
            "to-telia",
        ),
        (
            Change::RemoveNeighbor {
                peer: "10.0.0.2",
                vrf: "default",
                local_as: 65001,
            },
            "router bgp 65001\n no neighbor 10.0.0.2",
            "router bgp 65001\n neighbor 10.0.0.2 remote-as 7575\n neighbor 10.0.0.2 description Telia\n address-family ipv4 unicast\n  neighbor 10.0.0.2 route-map PASS in\n  neighbor 10.0.0.2 route-map PASS out",
            "router bgp 65001 vrf RED / neighbor 10.0.0.2 remote-as 64999",
            "Telia",
        ),
        (
            Change::RemoveNeighbor {
                peer: "swp4",
                vrf: "default",
                local_as: 65001,
            },
            "router bgp 65001\n no neighbor swp4",
            "router bgp 65001\n neighbor swp4 interface remote-as external",
            "router bgp 65001 / neighbor 10.0.0.2 remote-as 7575",
            "neighbor swp4",
        ),
        (
            Change::RemoveNeighbor {
                peer: "10.0.0.2",
                vrf: "RED",
                local_as: 65001,
            },
            "router bgp 65001 vrf RED\n no neighbor 10.0.0.2",
            "router bgp 65001 vrf RED\n neighbor 10.0.0.2 remote-as 64999",
            "router bgp 65001 / neighbor 10.0.0.2 remote-as 7575",
            "64999",
        ),
    ];
    let before = statements(CUMULUS);
    for (change, apply, rollback, holds, gone) in table {
        let l = render_any(Vendor::Frr, "leaf1", CUMULUS, &change).expect("rendered");
        let (plan, back) = l.texts();
        let vtysh = |l: &str| format!("configure terminal\n{l}\nend\nwrite memory");
        assert_eq!(plan, vtysh(apply), "{change:?}");
        assert_eq!(back, vtysh(rollback), "{change:?}");
        let cand = candidate_text(Vendor::Frr, CUMULUS, &plan);
        assert_eq!(ifupdown(&cand), ifupdown(CUMULUS), "{change:?}");
        let frr = &cand[ifupdown(&cand).len()..];
        let after = statements(frr);
        assert!(
            after.iter().any(|s| s == holds),
            "{change:?}: {holds}\n{frr}"
        );
        assert!(
            !after.iter().any(|s| s.contains(gone)),
            "{change:?}: {gone}\n{frr}"
        );
        assert_ne!(
            statements(&cand),
            before,
            "{change:?}: the plan changes nothing"
        );
        assert!(
            !cand.contains("write memory") && !cand.contains("configure terminal"),
            "{cand}"
        );
        let restored = candidate_text(Vendor::Frr, &cand, &back);
        assert_eq!(statements(&restored), before, "{change:?}\n{restored}");
    }
}

/// SONiC keeps config_db.json beside frr.conf: the plan is applied to frr.conf only.
#[test]
fn a_sonic_candidate_keeps_config_db() {
    let l = render(
        "spine1",
        SONIC,
        &Change::Interface {
            name: "Ethernet4",
            changes: &[IfChange::Shutdown],
            switchport: None,
            replaced: None,
        },
    )
    .expect("rendered");
    let cand = candidate_text(Vendor::Frr, SONIC, &l.texts().0);
    let json_end = SONIC
        .find(crate::import::parse::frr::sonic::FRR_CONF_MARKER)
        .unwrap_or_default();
    assert_eq!(cand[..json_end], SONIC[..json_end]);
    assert!(cand[json_end..].contains("interface Ethernet4\n description spare\n shutdown\n"));
}

#[test]
fn what_frr_does_not_hold_is_not_drafted() {
    let mtu = [IfChange::Mtu(9000)];
    let e = render(
        "leaf1",
        CUMULUS,
        &Change::Interface {
            name: "swp2",
            changes: &mtu,
            switchport: None,
            replaced: None,
        },
    )
    .expect_err("refused");
    assert!(e.contains("/etc/network/interfaces"), "{e}");
    // swp1's address is ifupdown2's, not FRR's.
    let e = render(
        "leaf1",
        CUMULUS,
        &Change::Interface {
            name: "swp1",
            changes: &[IfChange::Address("10.9.9.1/31".parse().expect("net"))],
            switchport: None,
            replaced: Some("10.0.1.1/31".parse().expect("net")),
        },
    )
    .expect_err("refused");
    assert!(e.contains("not in frr.conf"), "{e}");
    let e = render(
        "leaf1",
        CUMULUS,
        &Change::RemoveNeighbor {
            peer: "10.0.0.2",
            vrf: "BLUE",
            local_as: 65001,
        },
    )
    .expect_err("refused");
    assert!(e.contains("router bgp 65001 vrf BLUE"), "{e}");
}

#[test]
fn plan_lines_read_back_as_sections_and_routes() {
    for (line, section, prefix, removes) in [
        (
            "ip route 10.0.0.0/8 blackhole",
            Some("ip route"),
            Some("10.0.0.0/8"),
            Some(true),
        ),
        (
            "no ip route 10.0.0.0/8 192.0.2.1",
            Some("ip route"),
            Some("10.0.0.0/8"),
            Some(true),
        ),
        ("interface swp1", Some("interface swp1"), None, None),
        ("configure terminal", None, None, None),
        ("write memory", None, None, None),
        ("end", None, None, None),
    ] {
        assert_eq!(
            crate::dialect::section_of(Vendor::Frr, line).as_deref(),
            section,
            "{line}"
        );
        assert_eq!(
            crate::dialect::route_prefix(line).as_deref(),
            prefix,
            "{line}"
        );
        if let Some(r) = static_route_line(line) {
            assert_eq!(Some(r.removes), removes.map(|_| line.starts_with("no ")));
        }
    }
    // FRR's discard route drops what it matches, as IOS's Null0 does.
    assert!(static_route_line("ip route 10.0.0.0/8 blackhole")
        .and_then(|r| r.route)
        .is_some_and(|r| r.discards()));
    let r = static_route_line("ip route 10.0.0.0 255.0.0.0 192.0.2.1 20").and_then(|r| r.route);
    assert_eq!(
        r.map(|r| (r.prefix.to_string(), r.next_hop, r.distance)),
        Some(("10.0.0.0/8".to_owned(), "192.0.2.1".parse().ok(), Some(20)))
    );
}

#[test]
fn show_commands_run_through_vtysh() {
    assert_eq!(
        show(
            Vendor::Frr,
            Show::Route("10.1.0.0/16".parse().expect("net"))
        ),
        ["vtysh -c 'show ip route 10.1.0.0/16'"]
    );
    assert_eq!(
        show(Vendor::Frr, Show::BgpSummary),
        ["vtysh -c 'show bgp summary'"]
    );
    assert_eq!(
        igp_checks("router ospf\n network 10.0.0.0/8 area 0\n"),
        ["vtysh -c 'show ip ospf neighbor'"]
    );
}
