//! Junos: every fixture in `fixtures/junos/` gives the same model in the `set` syntax and
//! the brace syntax, the values read are the configured ones, and Junos devices take
//! part in the import (links, roles, management ports), the static checks and the blast
//! radius beside Cisco devices (`fixtures/checks/junos/`).

use crate::common::{self, fixture};
use olav::import::parse::{detect, junos};
use olav::model::{AddressKind, BgpPeer, DeviceConfig, Interface, SwitchportMode, Vendor};
use std::path::PathBuf;

/// One fixture per construct group, each in both syntaxes.
const GROUPS: &[&str] = &["interfaces", "routing", "bgp", "ospf", "policy", "groups"];

fn parse(form: &str, group: &str) -> DeviceConfig {
    let path = fixture("junos").join(form).join(format!("{group}.cfg"));
    let text = std::fs::read_to_string(&path).expect("fixture readable");
    assert_eq!(
        detect(&text),
        Ok(Vendor::JuniperJunos),
        "{}",
        path.display()
    );
    junos::parse(&text)
}

/// The model as text, without source lines (the only thing the syntax may change);
/// warnings as a sorted list of messages.
fn without_lines(mut d: DeviceConfig) -> String {
    for i in &mut d.interfaces {
        i.line = 0;
        for a in &mut i.addresses {
            a.line = 0;
        }
    }
    if let Some(b) = &mut d.bgp {
        b.line = 0;
        for n in &mut b.neighbors {
            n.line = 0;
        }
    }
    for r in &mut d.static_routes {
        r.line = 0;
    }
    for o in &mut d.ospf_networks {
        o.line = 0;
    }
    for s in &mut d.structures {
        s.line = 0;
    }
    for r in &mut d.references {
        r.line = 0;
    }
    let mut warnings: Vec<&str> = d.warnings.iter().map(|w| w.message.as_str()).collect();
    warnings.sort_unstable();
    format!(
        "{:#?}\n{:#?}\n{:#?}\n{:#?}\n{:#?}\n{:#?}\n{:#?}\n{:#?}\n{:#?}",
        (&d.hostname, &d.os_version, &d.model),
        d.interfaces,
        d.bgp,
        d.static_routes,
        d.ospf_networks,
        d.structures,
        d.references,
        warnings,
        d.lines_unrecognised,
    )
}

#[test]
fn both_syntaxes_give_the_same_model() {
    let mut mismatches = Vec::new();
    for group in GROUPS {
        let (set, brace) = (parse("set", group), parse("brace", group));
        let (set, brace) = (without_lines(set), without_lines(brace));
        if set != brace {
            let first = set
                .lines()
                .zip(brace.lines())
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .map(|(i, (a, b))| format!("line {i}: set `{a}`, brace `{b}`"))
                .unwrap_or_else(|| "one model is longer".into());
            mismatches.push(format!("{group}: {first}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// The set form olav writes for Batfish's candidate (`junos::set_form`) reads back as the
/// same model, for every fixture in both syntaxes and the demo's Junos router: lists keep
/// their brackets, words their quotes, inactive statements their `deactivate` line.
#[test]
fn the_set_form_olav_writes_reads_back_as_the_same_model() {
    let mut texts: Vec<(String, String)> = Vec::new();
    for group in GROUPS {
        for form in ["set", "brace"] {
            let path = fixture("junos").join(form).join(format!("{group}.cfg"));
            texts.push((
                path.display().to_string(),
                std::fs::read_to_string(&path).expect("fixture"),
            ));
        }
    }
    let demo = fixture("demo/configs/gamma-border-1/show_configuration.txt");
    texts.push((
        demo.display().to_string(),
        std::fs::read_to_string(&demo).expect("demo"),
    ));
    for (name, text) in texts {
        let flat = junos::set_form(&text);
        assert!(
            flat.lines()
                .all(|l| l.starts_with("set ") || l.starts_with("deactivate ")),
            "{name}"
        );
        // Warnings of the brace walk (unclosed blocks) do not survive flattening; the rest must.
        let strip = |mut d: DeviceConfig| {
            d.warnings
                .retain(|w| !w.message.contains("looks truncated"));
            d.lines_unrecognised = 0;
            without_lines(d)
        };
        assert_eq!(
            strip(junos::parse(&flat)),
            strip(junos::parse(&text)),
            "{name}\n{flat}"
        );
    }
}

/// Every element of the model points at the line where what identifies it is written:
/// an interface at its name (a unit at `unit N`), an address, a neighbor, a next hop, a
/// structure or a reference at its value — in the brace form too, where one statement
/// spans the lines of its enclosing blocks.
#[test]
fn every_element_keeps_its_source_line() {
    let mut wrong = Vec::new();
    for form in ["set", "brace"] {
        for group in GROUPS {
            let path = fixture("junos").join(form).join(format!("{group}.cfg"));
            let text = std::fs::read_to_string(&path).expect("fixture");
            let lines: Vec<&str> = text.lines().collect();
            let d = junos::parse(&text);
            let mut check = |what: String, line: u32, needle: String| {
                let ok = line >= 1
                    && lines
                        .get(line as usize - 1)
                        .is_some_and(|l| l.contains(&needle));
                if !ok {
                    wrong.push(format!(
                        "{form}/{group}: {what} at line {line}, expected `{needle}` there"
                    ));
                }
            };
            for i in &d.interfaces {
                let needle = match i.name.rsplit_once('.') {
                    Some((_, unit)) => format!("unit {unit}"),
                    None => i.name.clone(),
                };
                check(format!("interface {}", i.name), i.line, needle);
                for a in &i.addresses {
                    let ip = a.address.addr().to_string();
                    check(format!("address {ip}"), a.line, ip);
                }
            }
            for n in d.bgp.iter().flat_map(|b| b.neighbors.iter()) {
                check(format!("neighbor {}", n.peer), n.line, n.peer.to_string());
            }
            for r in &d.static_routes {
                let hop = r
                    .next_hop
                    .map(|h| h.to_string())
                    .or_else(|| r.next_hop_interface.clone())
                    .unwrap_or_else(|| "next-table".into());
                check(format!("route {}", r.prefix), r.line, hop);
            }
            for o in &d.ospf_networks {
                let name = o.interface.clone().unwrap_or_default();
                check(format!("ospf {name}"), o.line, name);
            }
            for x in &d.structures {
                check(format!("definition {}", x.name), x.line, x.name.clone());
            }
            for r in &d.references {
                check(format!("reference {}", r.name), r.line, r.name.clone());
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn iface<'a>(d: &'a DeviceConfig, name: &str) -> &'a Interface {
    d.interfaces
        .iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("no interface {name}"))
}

/// (address, kind) of an interface.
fn addrs(d: &DeviceConfig, name: &str) -> Vec<(String, AddressKind)> {
    iface(d, name)
        .addresses
        .iter()
        .map(|a| (a.address.to_string(), a.kind))
        .collect()
}

#[test]
fn interfaces_and_units() {
    let d = parse("set", "interfaces");
    assert_eq!(d.hostname.as_deref(), Some("jx-int"));
    assert_eq!(d.os_version.as_deref(), Some("21.4R3.15"));
    let names: Vec<&str> = d.interfaces.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ge-0/0/0",
            "ge-0/0/0.0",
            "ge-0/0/1",
            "ge-0/0/1.0",
            "ge-0/0/2",
            "ge-0/0/3",
            "ae0",
            "ae0.100",
            "ae0.200",
            "ge-0/0/4",
            "ge-0/0/4.0",
            "ge-0/0/5",
            "ge-0/0/5.0",
            "ge-0/0/6",
            "ge-0/0/6.0",
            "ge-0/0/7",
            "ge-0/0/7.0",
            "irb",
            "irb.10",
            "lo0",
            "lo0.0",
            "fxp0",
            "fxp0.0"
        ]
    );
    let ge0 = iface(&d, "ge-0/0/0");
    assert_eq!(ge0.description.as_deref(), Some("uplink to core-1"));
    assert_eq!((ge0.mtu, ge0.speed_mbps), (Some(9192), Some(10_000)));
    let unit = iface(&d, "ge-0/0/0.0");
    assert_eq!(unit.description.as_deref(), Some("p2p core-1"));
    assert_eq!(unit.mtu, Some(9000));
    use AddressKind::*;
    assert_eq!(
        addrs(&d, "ge-0/0/0.0"),
        [
            ("10.0.0.1/31".to_owned(), Primary),
            ("2001:db8:0:1::1/64".to_owned(), Primary)
        ]
    );
    // A disabled port takes its units down.
    assert!(!iface(&d, "ge-0/0/1").admin_up && !iface(&d, "ge-0/0/1.0").admin_up);
    assert!(iface(&d, "ae0.100").admin_up && !iface(&d, "ae0.200").admin_up);
    for member in ["ge-0/0/2", "ge-0/0/3"] {
        assert_eq!(iface(&d, member).channel_group.as_deref(), Some("ae0"));
    }
    assert_eq!(iface(&d, "ae0.100").access_vlan, Some(100));
    assert_eq!(iface(&d, "ae0.200").access_vlan, Some(200));
    // `primary` wins; otherwise the lowest address is the primary (Junos' rule).
    assert_eq!(
        addrs(&d, "ge-0/0/4.0"),
        [
            ("10.4.0.9/24".to_owned(), Secondary),
            ("10.4.0.2/24".to_owned(), Primary),
            ("10.4.0.5/24".to_owned(), Secondary)
        ]
    );
    assert_eq!(
        addrs(&d, "lo0.0"),
        [
            ("192.0.2.9/32".to_owned(), Secondary),
            ("192.0.2.1/32".to_owned(), Primary)
        ]
    );
    assert_eq!(
        addrs(&d, "ge-0/0/5.0"),
        [
            ("10.5.0.2/24".to_owned(), Primary),
            ("10.5.0.1/24".to_owned(), Virtual)
        ]
    );
    let trunk = iface(&d, "ge-0/0/6.0");
    assert_eq!(trunk.switchport_mode, Some(SwitchportMode::Trunk));
    assert_eq!(trunk.trunk_vlans.as_deref(), Some("10,30"));
    let access = iface(&d, "ge-0/0/7.0");
    assert_eq!(access.switchport_mode, Some(SwitchportMode::Access));
    assert_eq!(access.access_vlan, Some(10));
    // Without `system management-instance`, fxp0 stays in the default table.
    assert_eq!(iface(&d, "fxp0.0").vrf, None);
    let refs: Vec<(&str, &str)> = d
        .references
        .iter()
        .map(|r| (r.name.as_str(), r.context.as_str()))
        .collect();
    assert_eq!(refs, [("PROTECT-IN", "interface firewall filter input")]);
    assert_eq!(d.structures[0].kind.as_str(), "firewall filter");
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
}

#[test]
fn routing_options_and_instances() {
    let d = parse("set", "routing");
    let vrf = |n: &str| iface(&d, n).vrf.clone();
    assert_eq!(vrf("ge-0/0/1.0").as_deref(), Some("CUSTOMERS"));
    assert_eq!(vrf("lo0.1").as_deref(), Some("CUSTOMERS"));
    // `interface ge-0/0/2` without a unit is unit 0.
    assert_eq!(vrf("ge-0/0/2.0").as_deref(), Some("LAB"));
    // A virtual-switch is layer 2, not a VRF.
    assert_eq!(vrf("ge-0/0/3.5"), None);
    assert_eq!(vrf("ge-0/0/0.0"), None);
    // `system management-instance` moves fxp0 into mgmt_junos.
    assert_eq!(vrf("fxp0").as_deref(), Some("mgmt_junos"));
    assert_eq!(vrf("fxp0.0").as_deref(), Some("mgmt_junos"));
    let routes: Vec<String> = d
        .static_routes
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {}",
                r.vrf.as_deref().unwrap_or("default"),
                r.prefix,
                r.next_hop.map_or("-".into(), |h| h.to_string()),
                r.next_hop_interface.as_deref().unwrap_or("-"),
                r.distance.map_or("-".into(), |d| d.to_string())
            )
        })
        .collect();
    assert_eq!(
        routes,
        [
            "default 0.0.0.0/0 10.0.0.1 - 50",
            "default 0.0.0.0/0 10.0.0.3 - 50",
            "default 10.9.0.0/16 - discard 50",
            "default 10.8.0.0/16 - reject 50",
            "default 10.7.0.0/16 10.0.0.1 - 50",
            "default 10.7.0.0/16 10.0.0.3 - 7",
            "default 10.6.0.0/16 - ge-0/0/0.0 20",
            "default 10.5.0.0/16 - - 50",
            "default ::/0 2001:db8::1 - -",
            "CUSTOMERS 10.100.0.0/16 - discard -",
            "LAB 0.0.0.0/0 10.200.1.254 - 80",
            "mgmt_junos 0.0.0.0/0 172.16.0.1 - -",
        ]
    );
    let warnings: Vec<&str> = d.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        warnings,
        [
            "static route 10.4.0.0/16: no next-hop, qualified-next-hop, discard, reject or next-table",
            "routing-instance GHOST: interface ge-0/0/9.0 is not configured",
        ]
    );
    assert_eq!(d.references[0].context, "routing-instance vrf-import");
    // No BGP configured: no BGP process, whatever the autonomous-system.
    assert!(d.bgp.is_none());
}

#[test]
fn bgp_groups_and_neighbors() {
    let d = parse("brace", "bgp");
    let b = d.bgp.as_ref().expect("bgp");
    assert_eq!(b.local_as, Some(65000));
    assert_eq!(
        b.router_id.map(|r| r.to_string()).as_deref(),
        Some("10.255.0.1")
    );
    assert_eq!(b.confederation_id, Some(64999));
    assert_eq!(b.confederation_peers, [65001]);
    let n = |peer: &str| {
        b.neighbors
            .iter()
            .find(|n| n.peer.to_string() == peer)
            .unwrap_or_else(|| panic!("no neighbor {peer}"))
    };
    let peers: Vec<String> = b.neighbors.iter().map(|n| n.peer.to_string()).collect();
    assert_eq!(
        peers,
        [
            "10.100.1.2",
            "10.255.0.2",
            "10.255.0.3",
            "10.0.0.1",
            "10.0.1.1",
            "192.0.2.7",
            "198.51.100.7",
            "10.200.0.0/24",
            "10.255.0.9"
        ]
    );
    // A routing instance with its own AS presents it.
    let ce = n("10.100.1.2");
    assert_eq!(ce.vrf.as_deref(), Some("CUSTOMERS"));
    assert_eq!((ce.peer_asn, ce.local_as), (Some(65020), Some(65010)));
    assert_eq!(b.presented_as(ce), [65010]);
    // Internal: the peer AS is the local AS; local-address owned by lo0.0.
    let rr = n("10.255.0.2");
    assert_eq!(rr.peer_asn, Some(65000));
    assert_eq!(rr.peer_group.as_deref(), Some("IBGP"));
    assert_eq!(rr.description.as_deref(), Some("rr-1 (core)"));
    assert_eq!(
        rr.local_address.map(|a| a.to_string()).as_deref(),
        Some("10.255.0.1")
    );
    assert_eq!(rr.update_source.as_deref(), Some("lo0.0"));
    // Chains: the most specific level that sets one wins; the first policy is the map.
    assert_eq!(rr.route_map_in.as_deref(), Some("GLOBAL-IN"));
    assert_eq!(rr.route_map_out.as_deref(), Some("NHS"));
    assert_eq!(rr.address_families, ["ipv4 unicast", "vpnv4"]);
    assert_eq!(n("10.255.0.3").route_map_in.as_deref(), Some("RR-IN"));
    let up = n("10.0.0.1");
    assert_eq!(up.peer_asn, Some(65100));
    assert_eq!(up.route_map_in.as_deref(), Some("UP-IN"));
    assert_eq!(up.route_map_out.as_deref(), Some("GLOBAL-OUT"));
    assert_eq!(up.address_families, ["ipv4 unicast"]);
    assert_eq!(up.ebgp_multihop, None);
    // Outside the confederation the identifier is presented.
    assert_eq!(b.presented_as(up), [64999]);
    let p2 = n("10.0.1.1");
    assert_eq!(
        (p2.peer_asn, p2.local_as, p2.dual_as),
        (Some(65101), Some(65050), true)
    );
    assert_eq!(p2.route_map_in.as_deref(), Some("PEER2-IN"));
    assert_eq!(b.presented_as(p2), [65050, 65000]);
    let mh = n("192.0.2.7");
    assert_eq!((mh.peer_asn, mh.ebgp_multihop), (Some(65001), Some(3)));
    assert_eq!(b.presented_as(mh), [65000]);
    assert_eq!(n("198.51.100.7").ebgp_multihop, Some(64));
    let dynamic = n("10.200.0.0/24");
    assert!(matches!(dynamic.peer, BgpPeer::ListenRange(_)));
    assert_eq!(dynamic.peer_asn, Some(65300));
    // An internal group with local-as peers in that AS.
    let las = n("10.255.0.9");
    assert_eq!((las.peer_asn, las.local_as), (Some(65444), Some(65444)));
    let imports = d
        .references
        .iter()
        .filter(|r| r.context == "bgp import policy-statement")
        .count();
    assert_eq!(imports, 6);
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
}

#[test]
fn ospf_interfaces() {
    let d = parse("set", "ospf");
    let got: Vec<String> = d
        .ospf_networks
        .iter()
        .map(|o| {
            format!(
                "{} {} {} {}",
                o.process,
                o.area,
                o.interface.as_deref().unwrap_or("-"),
                o.prefix.map_or("-".into(), |p| p.to_string())
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "CUSTOMERS 0.0.0.0 ge-0/0/2.0 10.100.1.0/24",
            "default 0.0.0.0 ge-0/0/0.0 10.0.0.0/31",
            "default 0.0.0.0 lo0.0 10.255.0.1/32",
            "default 0.0.0.1 ge-0/0/9.0 -",
        ]
    );
    assert_eq!(d.references[0].context, "ospf export policy-statement");
}

#[test]
fn policy_options_and_undefined_references() {
    let d = parse("brace", "policy");
    let mut defined: Vec<String> = d
        .structures
        .iter()
        .map(|s| format!("{} {}", s.kind.as_str(), s.name))
        .collect();
    defined.sort();
    assert_eq!(
        defined,
        [
            "as-path AP-OK",
            "as-path-group APG-OK",
            "community CM-OK",
            "firewall filter PROTECT-RE",
            "policy-statement AGG-POL",
            "policy-statement EXPORT-OK",
            "policy-statement LOAD-BALANCE",
            "policy-statement SUB-POL",
            "prefix-list PL-DYN",
            "prefix-list PL-EMPTY",
            "prefix-list PL-OK",
        ]
    );
    let mut undefined: Vec<String> = d
        .references
        .iter()
        .filter(|r| {
            !d.structures
                .iter()
                .any(|s| s.kind == r.kind && s.name == r.name)
        })
        .map(|r| format!("{} {} ({})", r.kind.as_str(), r.name, r.context))
        .collect();
    undefined.sort();
    assert_eq!(
        undefined,
        [
            "as-path AP-MISSING (policy-statement from as-path)",
            "community CM-MISSING (policy-statement then add community)",
            "firewall filter MISSING-FILTER (interface firewall filter output)",
            "policy-statement MISSING-GEN (generated route policy-statement)",
            "policy-statement MISSING-IMPORT (bgp import policy-statement)",
            "prefix-list MGMT-MISSING (firewall filter destination prefix-list)",
            "prefix-list PL-MISSING (policy-statement prefix-list-filter)",
        ]
    );
    let warnings: Vec<&str> = d.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        warnings,
        ["prefix-list 'PL-EMPTY' is empty: a policy term matching it matches no route"]
    );
}

#[test]
fn groups_inactive_and_comments() {
    for form in ["set", "brace"] {
        let d = parse(form, "groups");
        // The explicit host-name wins over the group's.
        assert_eq!(d.hostname.as_deref(), Some("jx-grp"), "{form}");
        let ge0 = iface(&d, "ge-0/0/0");
        assert_eq!(ge0.mtu, Some(9000), "{form}: inherited");
        assert_eq!(ge0.description.as_deref(), Some("explicit"), "{form}");
        // `interfaces apply-groups IFACES` inherits IFACES' interfaces.
        assert_eq!(addrs(&d, "ge-0/0/1.0")[0].0, "10.1.0.1/24", "{form}");
        // Inactive configuration is not in force.
        assert!(
            !d.interfaces.iter().any(|i| i.name.starts_with("ge-0/0/2")),
            "{form}"
        );
        assert!(
            d.interfaces.iter().all(|i| i.name != "ge-0/0/3.0"),
            "{form}"
        );
        assert_eq!(
            iface(&d, "ge-0/0/3").description.as_deref(),
            Some("half inactive")
        );
        // Groups not applied are not inherited; wildcard ones are not modelled.
        assert!(d.interfaces.iter().all(|i| i.name != "ge-0/0/9"), "{form}");
        assert!(ge0.admin_up, "{form}");
        let mut warnings: Vec<&str> = d.warnings.iter().map(|w| w.message.as_str()).collect();
        warnings.sort_unstable();
        assert_eq!(
            warnings,
            [
                "apply-groups: group 'MISSING-GROUP' is not defined",
                "group 'WILD': 2 statement(s) with wildcards (<*> patterns) or nested apply-groups are not modelled and not inherited",
            ],
            "{form}"
        );
        let b = d.bgp.as_ref().expect("bgp");
        // An explicit import chain replaces the one a group gives the same level.
        assert_eq!(
            b.neighbors[0].route_map_in.as_deref(),
            Some("EXPLICIT-IN"),
            "{form}"
        );
        assert_eq!(
            b.neighbors[1].route_map_in.as_deref(),
            Some("GROUP-IN"),
            "{form}"
        );
        assert!(
            d.structures.iter().any(|s| s.name == "GROUP-IN"),
            "{form}: definitions are inherited too"
        );
        assert_eq!(d.lines_unrecognised, 0, "{form}");
    }
}

#[test]
fn a_truncated_brace_config_says_so() {
    let text = "system {\n    host-name cut;\n}\ninterfaces {\n    ge-0/0/0 {\n        unit 0 {\n            family inet {\n                address 10.0.0.1/31;\n";
    let d = junos::parse(text);
    assert_eq!(d.hostname.as_deref(), Some("cut"));
    assert_eq!(addrs(&d, "ge-0/0/0.0")[0].0, "10.0.0.1/31");
    assert_eq!(d.warnings.len(), 1);
    assert_eq!(d.warnings[0].line, 4);
    assert!(d.warnings[0].message.contains("looks truncated"));
}

#[test]
fn malformed_statements_warn_with_their_line() {
    let text = "set interfaces ge-0/0/0 unit 0 family inet address 10.0.0.300/24\nset routing-options autonomous-system sixty\nset protocols bgp group G peer-as x\nset protocols bgp group G neighbor 10.0.0.1\nset interfaces ge-0/0/0 mtu big\nset frobnicate on\n";
    let d = junos::parse(text);
    let lines: Vec<u32> = d.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [1, 2, 3, 5]);
    assert_eq!(d.lines_unrecognised, 1);
    assert_eq!(d.lines_total, 6);
}

// --- Junos devices in a network ------------------------------------------------------

fn network() -> PathBuf {
    fixture("checks/junos")
}

#[test]
fn junos_devices_take_part_in_links_roles_and_management() {
    let parsed = common::parsed(&network());
    assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
    let links: Vec<String> = parsed
        .links
        .iter()
        .map(|l| format!("{}:{} {}:{}", l.a.0, l.a.1, l.b.0, l.b.1))
        .collect();
    // The management ports (fxp0.0, Gi0 in Mgmt-intf) share 10.99.0.0/24 and link nothing.
    assert_eq!(
        links,
        [
            "ios-acc:GigabitEthernet1 jx-core1:ge-0/0/2.0",
            "ios-core2:GigabitEthernet1 jx-core1:ge-0/0/1.0",
            "jx-border1:ge-0/0/0.0 jx-core1:ge-0/0/0.0",
        ]
    );
    let role = |h: &str| {
        parsed
            .devices
            .iter()
            .find(|d| d.hostname == h)
            .and_then(|d| d.role.clone())
    };
    assert_eq!(role("jx-border1").as_deref(), Some("border"));
    assert_eq!(role("jx-core1").as_deref(), Some("core"));
    let border = parsed
        .devices
        .iter()
        .find(|d| d.hostname == "jx-border1")
        .expect("device");
    assert_eq!(border.vendor, Vendor::JuniperJunos);
    assert_eq!(border.management_address.as_deref(), Some("10.99.0.1"));
    // Junos configs have no `end` line: no "truncated" warning for them.
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
}

#[test]
fn junos_devices_in_the_static_checks_and_the_blast_radius() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("s.db");
    let olav = || {
        let mut c = common::olav(dir.path());
        c.arg("--db").arg(&db);
        c
    };
    olav()
        .args(["state", "import"])
        .arg(network())
        .assert()
        .success();
    let out = olav()
        .args(["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "an undefined reference and a bad local address"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let status = |node: &str, remote: &str| -> String {
        v["bgp"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["node"] == node && s["remote_ip"] == remote)
            .map(|s| {
                format!(
                    "{} {}",
                    s["session_type"].as_str().unwrap_or("-"),
                    s["configured_status"].as_str().unwrap_or("-")
                )
            })
            .unwrap_or_else(|| format!("no row {node} → {remote}"))
    };
    for (node, remote, want) in [
        ("jx-border1", "10.255.0.2", "IBGP UNIQUE_MATCH"),
        ("jx-border1", "10.255.0.3", "IBGP UNIQUE_MATCH"),
        ("jx-core1", "10.255.0.1", "IBGP UNIQUE_MATCH"),
        ("ios-core2", "10.255.0.1", "IBGP UNIQUE_MATCH"),
        ("ios-core2", "10.255.0.2", "IBGP UNIQUE_MATCH"),
        ("jx-core1", "10.0.50.2", "EBGP_SINGLEHOP DYNAMIC_MATCH"),
        ("ios-acc", "10.0.50.1", "EBGP_SINGLEHOP UNIQUE_MATCH"),
        ("jx-border1", "203.0.113.2", "EBGP_SINGLEHOP UNKNOWN_REMOTE"),
        ("jx-border1", "10.255.0.77", "IBGP INVALID_LOCAL_IP"),
    ] {
        assert_eq!(status(node, remote), want, "{node} → {remote}");
    }
    let refs = v["references"].as_array().expect("references");
    assert_eq!(refs.len(), 1, "{refs:?}");
    assert_eq!(refs[0]["struct_type"], "policy-statement");
    assert_eq!(refs[0]["ref_name"], "MISSING-POLICY");
    assert_eq!(refs[0]["context"], "bgp import policy-statement");
    assert_eq!(refs[0]["line"], 21);
    assert_eq!(v["duplicates"].as_array().map(Vec::len), Some(0));
    assert_eq!(v["overlaps"].as_array().map(Vec::len), Some(0));
    let out = olav()
        .args([
            "--format",
            "json",
            "blast-radius",
            "--link",
            "jx-core1:ge-0/0/2.0-ios-acc:GigabitEthernet1",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let b: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        b["blast_radius"]["isolated"],
        serde_json::json!(["ios-acc"])
    );
    let out = olav()
        .args(["--format", "json", "blast-radius", "--device", "jx-border1"])
        .output()
        .expect("runs");
    let b: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        b["blast_radius"]["removed"],
        serde_json::json!(["jx-border1"])
    );
    let lost = b["blast_radius"]["peers_lost"].to_string();
    assert!(lost.contains("AS64500"), "{lost}");
}
