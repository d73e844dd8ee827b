use super::*;
use crate::model::{BgpPeer, PolicyAction, PolicyMatch};

/// A small firewall: two virtual routers, a subinterface, a loopback, an interface in no
/// virtual router, static routes, BGP with rules and redistribution.
const FW: &str = r#"set deviceconfig system hostname fw1
set address GW ip-netmask 10.0.0.1
set network interface ethernet ethernet1/1 comment "to r1"
set network interface ethernet ethernet1/1 layer3 ip 10.0.0.0/31
set network interface ethernet ethernet1/2 layer3 units ethernet1/2.5 ip [ 10.5.0.1/24 10.6.0.1/24 ]
set network interface ethernet ethernet1/2 layer3 units ethernet1/2.5 tag 5
set network interface ethernet ethernet1/3 layer3 ip 10.9.0.1/24
set network interface loopback units loopback.1 ip 192.0.2.1/32
set network virtual-router default interface [ ethernet1/1 loopback.1 ]
set network virtual-router blue interface ethernet1/2.5
set network virtual-router default routing-table ip static-route DEF destination 0.0.0.0/0
set network virtual-router default routing-table ip static-route DEF nexthop ip-address GW
set network virtual-router default routing-table ip static-route NULL destination 198.51.100.0/24
set network virtual-router default routing-table ip static-route NULL nexthop discard
set network virtual-router default routing-table ip static-route NULL admin-dist 50
set network virtual-router default protocol bgp enable yes
set network virtual-router default protocol bgp router-id 192.0.2.1
set network virtual-router default protocol bgp local-as 65001
set network virtual-router default protocol bgp install-route yes
set network virtual-router default protocol bgp peer-group EXT enable yes
set network virtual-router default protocol bgp peer-group EXT type ebgp
set network virtual-router default protocol bgp peer-group EXT peer r1 peer-as 65002
set network virtual-router default protocol bgp peer-group EXT peer r1 enable yes
set network virtual-router default protocol bgp peer-group EXT peer r1 peer-address ip 10.0.0.1
set network virtual-router default protocol bgp peer-group EXT peer r1 local-address ip 10.0.0.0/31
set network virtual-router default protocol bgp peer-group EXT peer r1 local-address interface ethernet1/1
set network virtual-router default protocol bgp peer-group EXT peer r1 enable-sender-side-loop-detection no
set network virtual-router default protocol bgp peer-group EXT peer off peer-as 65003
set network virtual-router default protocol bgp peer-group EXT peer off enable no
set network virtual-router default protocol bgp peer-group EXT peer off peer-address ip 10.0.0.3
set network virtual-router default protocol bgp policy import rules IN match address-prefix 10.0.0.0/8 exact no
set network virtual-router default protocol bgp policy import rules IN action allow update med 100
set network virtual-router default protocol bgp policy import rules IN used-by EXT
set network virtual-router default protocol bgp policy export rules OUT match address-prefix 192.0.2.1/32 exact yes
set network virtual-router default protocol bgp policy export rules OUT match as-path regex _65002_
set network virtual-router default protocol bgp policy export rules OUT action allow update as-path prepend 2
set network virtual-router default protocol bgp policy export rules OUT used-by [ EXT ]
set network virtual-router default protocol bgp redist-rules 192.0.2.1/32 enable yes
set network virtual-router default protocol bgp redist-rules CONN enable yes
set network virtual-router default redist-profile CONN filter type connect
set network virtual-router default redist-profile CONN filter destination 10.0.0.0/31
set network virtual-router default redist-profile CONN action redist
"#;

#[test]
fn reads_interfaces_and_virtual_routers() {
    let c = parse(FW);
    assert_eq!(c.hostname.as_deref(), Some("fw1"));
    let names: Vec<&str> = c.interfaces.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        ["ethernet1/1", "ethernet1/2.5", "ethernet1/3", "loopback.1"]
    );
    let e11 = &c.interfaces[0];
    assert_eq!(e11.description.as_deref(), Some("to r1"));
    assert_eq!(e11.vrf, None);
    assert!(e11.admin_up);
    let sub = &c.interfaces[1];
    assert_eq!(sub.vrf.as_deref(), Some("blue"));
    assert_eq!(sub.encapsulation_vlan, Some(5));
    assert_eq!(sub.addresses.len(), 2);
    assert_eq!(sub.addresses[1].kind, AddressKind::Secondary);
    // In no virtual router: routes nothing.
    assert!(!c.interfaces[2].admin_up);
    assert!(c
        .warnings
        .iter()
        .any(|w| w.message.contains("no virtual-router")));
    assert!(c.saw_end);
}

#[test]
fn reads_static_routes_with_panos_defaults() {
    let c = parse(FW);
    assert_eq!(c.static_routes.len(), 2);
    let def = c
        .static_routes
        .iter()
        .find(|r| r.prefix.prefix_len() == 0)
        .expect("default route");
    assert_eq!(def.next_hop, Some("10.0.0.1".parse().expect("ip")));
    assert_eq!((def.distance, def.metric), (Some(10), Some(10)));
    let null = c
        .static_routes
        .iter()
        .find(|r| r.prefix.prefix_len() == 24)
        .expect("discard route");
    assert!(null.discards());
    assert_eq!(null.distance, Some(50));
}

#[test]
fn reads_bgp_peers_rules_and_redistribution() {
    let c = parse(FW);
    let b = c.bgp.as_ref().expect("bgp");
    assert_eq!(b.local_as, Some(65001));
    // The peer with `enable no` takes no part.
    assert_eq!(b.neighbors.len(), 1);
    let n = &b.neighbors[0];
    assert_eq!(n.peer, BgpPeer::Address("10.0.0.1".parse().expect("ip")));
    assert_eq!(n.peer_asn, Some(65002));
    assert_eq!(n.local_address, Some("10.0.0.0".parse().expect("ip")));
    assert!(n.routing.send_community && n.routing.disable_peer_as_check);
    assert_eq!(b.routing.distances, vec![(None, 20, 200, 200)]);
    assert!(b.routing.not_installed.is_empty());
    let import = c
        .policy_options
        .statements
        .iter()
        .find(|s| s.name == n.routing.import_chain[0])
        .expect("import statement");
    // reject-default-route, the rule, the default refusal.
    assert_eq!(import.terms.len(), 3);
    assert_eq!(import.terms[0].then, vec![PolicyAction::Reject]);
    assert_eq!(
        import.terms[1].then,
        vec![PolicyAction::Metric(100), PolicyAction::Accept]
    );
    assert_eq!(import.terms[2].then, vec![PolicyAction::Reject]);
    let export = c
        .policy_options
        .statements
        .iter()
        .find(|s| s.name == n.routing.export_chain[0])
        .expect("export statement");
    let out = &export.terms[0];
    // The AS-path expression is kept as a list the route-map evaluation reads.
    let PolicyMatch::AsPath(lists) = &out.from[1] else {
        panic!("{:?}", out.from[1]);
    };
    assert!(c
        .route_lists
        .as_path_lists
        .iter()
        .any(|(n, permit, re)| *n == lists[0] && *permit && re == "_65002_"));
    assert_eq!(out.then[0], PolicyAction::Prepend(vec![65001, 65001]));
    assert_eq!(b.networks.len(), 1);
    assert_eq!(
        b.routing.redistribute,
        vec![(
            None,
            "connected".into(),
            Some("~redist:default:CONN~".into())
        )]
    );
    assert!(c
        .prefix_lists
        .iter()
        .any(|e| e.name == "~redist:default:CONN~" && e.permit && e.prefix.prefix_len() == 31));
}

#[test]
fn bgp_without_install_route_or_enable() {
    let c = parse(&FW.replace("install-route yes", "install-route no"));
    let b = c.bgp.as_ref().expect("bgp");
    assert_eq!(b.routing.not_installed, vec![None]);
    let c = parse(&FW.replace("protocol bgp enable yes", "protocol bgp enable no"));
    assert!(c.bgp.is_none());
    // A virtual router without BGP lines has no BGP, and no warning about it.
    let c = parse("set network virtual-router vr2 admin-dists ebgp 30\n");
    assert!(c.bgp.is_none() && c.warnings.is_empty());
}

#[test]
fn words_keep_quotes_and_lists() {
    assert_eq!(
        words(r#"set a "b c" [ d e ]"#),
        ["set", "a", "b c", "[", "d", "e", "]"]
    );
    assert_eq!(values(&["[".into(), "x".into(), "]".into()]), ["x"]);
    assert_eq!(values(&["y".into()]), ["y"]);
}

#[test]
fn detection_picks_panos_for_the_set_form() {
    assert_eq!(super::super::detect(FW), Ok(Vendor::PaloAltoPanos));
}
