use super::parse;
use crate::model::{PolicyAction, PolicyMatch, RouteActivity};

const R1: &str = r#"# TiMOS-B-26.3.R1 both/x86_64 Nokia 7750 SR-1
# Configuration format version 26.3 revision 0

configure {
    policy-options {
        community "tag" {
            member "65001:100" { }
        }
        prefix-list "system-pfx" {
            prefix 1.1.1.1/32 type exact {
            }
        }
        prefix-list "lo-range" {
            prefix 192.168.0.0/16 type through {
                through-length 32
            }
        }
        policy-statement "export-system" {
            entry 10 {
                from {
                    prefix-list ["system-pfx" "lo-range"]
                }
                action {
                    action-type accept
                    as-path-prepend {
                        as-path 65001
                        repeat 2
                    }
                    community {
                        add ["tag"]
                    }
                }
            }
        }
        policy-statement "import-all" {
            default-action {
                action-type accept
            }
        }
    }
    port 1/1/c1/1 {
        admin-state enable
    }
    port 1/1/c2/1 {
    }
    router "Base" {
        autonomous-system 65001
        interface "system" {
            ipv4 {
                primary {
                    address 1.1.1.1
                    prefix-length 32
                }
            }
        }
        interface "to-r2" {
            port 1/1/c1/1
            ipv4 {
                primary {
                    address 10.0.0.0
                    prefix-length 31
                }
            }
        }
        interface "to-r3" {
            port 1/1/c2/1
            ipv4 {
                primary {
                    address 10.0.1.0
                    prefix-length 31
                }
            }
        }
        bgp {
            group "ebgp" {
                peer-as 65002
                import {
                    policy ["import-all"]
                }
                export {
                    policy ["export-system"]
                }
            }
            neighbor "10.0.0.1" {
                group "ebgp"
            }
        }
        static-routes {
            route 192.0.2.0/24 route-type unicast {
                next-hop "10.0.0.1" {
                    admin-state enable
                    preference 50
                }
                next-hop "10.0.0.3" {
                }
            }
            route 198.51.100.0/24 route-type unicast {
                blackhole {
                    admin-state enable
                }
            }
        }
    }
    system {
        name "r1"
    }
}

persistent-indices {
    vrtr-if-id {
        router-name "Base" interface-name "to-r2" vrtr-id 1 if-index 3
    }
}
"#;

#[test]
fn reads_interfaces_statics_bgp_and_policies() {
    let d = parse(R1);
    assert_eq!(d.hostname.as_deref(), Some("r1"));
    let ifs: Vec<(String, bool, Vec<String>)> = d
        .interfaces
        .iter()
        .map(|i| {
            (
                i.name.clone(),
                i.admin_up,
                i.addresses.iter().map(|a| a.address.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(
        ifs,
        vec![
            ("1/1/c1/1".into(), true, vec![]),
            // Not `admin-state enable`.
            ("1/1/c2/1".into(), false, vec![]),
            ("system".into(), true, vec!["1.1.1.1/32".into()]),
            ("to-r2".into(), true, vec!["10.0.0.0/31".into()]),
            // Its port is not enabled.
            ("to-r3".into(), false, vec!["10.0.1.0/31".into()]),
        ]
    );
    // The next hop without `admin-state enable` is not in force.
    let statics: Vec<(String, Option<String>, Option<u32>, bool)> = d
        .static_routes
        .iter()
        .map(|r| {
            (
                r.prefix.to_string(),
                r.next_hop.map(|n| n.to_string()),
                r.distance,
                r.discards(),
            )
        })
        .collect();
    assert_eq!(
        statics,
        vec![
            (
                "192.0.2.0/24".into(),
                Some("10.0.0.1".into()),
                Some(50),
                false
            ),
            ("198.51.100.0/24".into(), None, None, true),
        ]
    );
    assert!(d
        .static_routes
        .iter()
        .all(|r| r.activity == RouteActivity::Usable));
    let bgp = d.bgp.as_ref().expect("bgp");
    assert_eq!(bgp.local_as, Some(65001));
    assert_eq!(bgp.router_id, Some("1.1.1.1".parse().expect("ip")));
    let n = &bgp.neighbors[0];
    assert_eq!(n.peer_asn, Some(65002));
    assert_eq!(n.routing.import_chain, ["import-all"]);
    assert_eq!(n.routing.export_chain, ["export-system"]);
    assert_eq!(n.routing.ebgp_default_reject, (true, true));
    let export = d
        .policy_options
        .statements
        .iter()
        .find(|s| s.name == "export-system")
        .expect("policy");
    let t = &export.terms[0];
    assert_eq!(
        t.from,
        vec![
            PolicyMatch::RouteFilter {
                prefix: "1.1.1.1/32".parse().expect("net"),
                lengths: (32, 32)
            },
            PolicyMatch::RouteFilter {
                prefix: "192.168.0.0/16".parse().expect("net"),
                lengths: (16, 32)
            },
        ]
    );
    assert_eq!(
        t.then,
        vec![
            PolicyAction::Community {
                op: "add".into(),
                name: "tag".into()
            },
            PolicyAction::Prepend(vec![65001, 65001]),
            PolicyAction::Accept,
        ]
    );
    let import = d
        .policy_options
        .statements
        .iter()
        .find(|s| s.name == "import-all")
        .expect("policy");
    assert_eq!(import.terms.len(), 1);
    assert!(import.terms[0].from.is_empty());
    assert_eq!(import.terms[0].then, vec![PolicyAction::Accept]);
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
}

#[test]
fn unread_routing_is_a_routing_warning() {
    let d = parse("configure {\n    router \"Base\" {\n        ospf 0 {\n            area 0.0.0.0 {\n            }\n        }\n    }\n}\n");
    assert!(d
        .warnings
        .iter()
        .any(|w| w.message.starts_with("router Base ospf")));
    let d = parse("configure {\n    router \"Base\" {\n        apply-groups [\"g\"]\n    }\n}\n");
    assert!(d
        .warnings
        .iter()
        .any(|w| w.message.starts_with("router: configuration groups")));
    // A family other than IPv4 in a policy: not evaluated.
    let d = parse("configure {\n    policy-options {\n        policy-statement \"p\" {\n            entry 10 {\n                from {\n                    family [vpn-ipv4]\n                }\n            }\n        }\n    }\n}\n");
    let t = &d.policy_options.statements[0].terms[0];
    assert!(
        matches!(t.from.as_slice(), [PolicyMatch::Other(_)]),
        "{t:?}"
    );
}

#[test]
fn damaged_input_never_panics() {
    for cut in (0..R1.len()).step_by(97) {
        if let Some(head) = R1.get(..cut) {
            let _ = parse(head);
        }
    }
    let _ = parse("configure {\n ] [ \" { } }}} prefix-list [\n");
}

#[test]
fn equal_next_hops_beyond_ecmp_are_a_routing_warning() {
    let route = "configure {\n    router \"Base\" {\n ECMP       static-routes {\n            route 192.0.2.0/24 route-type unicast {\n                next-hop \"10.0.0.1\" {\n                    admin-state enable\n                }\n                next-hop \"10.0.1.1\" {\n                    admin-state enable\n                }\n            }\n        }\n    }\n}\n";
    let without = parse(&route.replace(" ECMP", ""));
    assert_eq!(without.static_routes.len(), 2);
    assert!(
        without.warnings.iter().any(|w| w
            .message
            .starts_with("static route 192.0.2.0/24: 2 next hops")),
        "{:?}",
        without.warnings
    );
    let with = parse(&route.replace(" ECMP", "        ecmp 2\n"));
    assert!(with.warnings.is_empty(), "{:?}", with.warnings);
}

#[test]
fn a_lag_is_an_interface_its_members_and_router_interfaces_ride_on() {
    let d = parse("configure {\n    lag \"lag-1\" {\n        admin-state enable\n        port 1/1/c1/1 {\n        }\n    }\n    port 1/1/c1/1 {\n        admin-state enable\n    }\n    router \"Base\" {\n        interface \"to-r2\" {\n            port lag-1\n            ipv4 {\n                primary {\n                    address 10.0.0.0\n                    prefix-length 31\n                }\n            }\n        }\n    }\n}\n");
    let show: Vec<(String, bool, Option<String>, Option<String>)> = d
        .interfaces
        .iter()
        .map(|i| {
            (
                i.name.clone(),
                i.admin_up,
                i.channel_group.clone(),
                i.port.clone(),
            )
        })
        .collect();
    assert_eq!(
        show,
        vec![
            ("lag-1".into(), true, None, None),
            ("1/1/c1/1".into(), true, Some("lag-1".into()), None),
            ("to-r2".into(), true, None, Some("lag-1".into())),
        ]
    );
}

#[test]
fn as_path_expressions_and_origin_are_read() {
    let d = parse("configure {\n    policy-options {\n        as-path \"via\" {\n            expression \"65003\"\n        }\n        policy-statement \"p\" {\n            entry 20 {\n                from {\n                    as-path {\n                        name \"via\"\n                    }\n                }\n                action {\n                    action-type accept\n                    origin igp\n                }\n            }\n        }\n    }\n}\n");
    assert_eq!(
        d.policy_options.as_paths,
        vec![("via".to_owned(), "65003".to_owned())]
    );
    let t = &d.policy_options.statements[0].terms[0];
    assert_eq!(t.from, vec![PolicyMatch::AsPath(vec!["via".into()])]);
    assert_eq!(
        t.then,
        vec![PolicyAction::Origin("igp".into()), PolicyAction::Accept]
    );
}
