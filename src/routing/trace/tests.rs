//! Traces over small hand-made IOS networks, their RIBs computed by the routing model.

use super::{trace, Addresses, Branch};
use crate::dialect::cisco::sample::ip_route;
use crate::import::parse::parser_for;
use crate::model::Vendor;
use crate::routing::testkit::run_ios;
use crate::routing::DeviceRib;

/// An IOS router `rN`: loopback `10.255.0.N/32`, point-to-point /30s (name, address) in
/// OSPF area 0, and extra global lines.
fn ios(n: u8, ifs: &[(&str, &str)], extra: &str) -> (String, String) {
    let mut s =
        format!("hostname r{n}\ninterface Loopback0\n ip address 10.255.0.{n} 255.255.255.255\n");
    for (name, addr) in ifs {
        s.push_str(&format!(
            "interface {name}\n ip address {addr} 255.255.255.252\n ip ospf network point-to-point\n"
        ));
    }
    s.push_str(&format!(
        "router ospf 1\n network 10.0.0.0 0.255.255.255 area 0\n{extra}end\n"
    ));
    (format!("r{n}"), s)
}

/// A global static route line (the dialect writes the syntax).
fn route(spec: &str) -> String {
    format!("{}\n", ip_route(spec))
}

/// The network's RIBs and addresses.
fn build(devices: &[(String, String)]) -> (Vec<DeviceRib>, Addresses) {
    let mut addresses = Addresses::default();
    for (h, t) in devices {
        addresses.of_config(h, &parser_for(Vendor::CiscoIos).parse(t));
    }
    (run_ios(devices), addresses)
}

fn run(devices: &[(String, String)], from: &str, dst: &str) -> Vec<Branch> {
    let (ribs, addresses) = build(devices);
    let lookup = |h: &str| {
        ribs.iter()
            .find(|r| r.hostname == h)
            .cloned()
            .map(std::sync::Arc::new)
    };
    trace(&lookup, &addresses, from, "default", dst.parse().unwrap())
}

/// `r1>r2>r3 DISPOSITION` per branch.
fn paths(b: &[Branch]) -> Vec<String> {
    b.iter()
        .map(|b| {
            let nodes: Vec<&str> = b.hops.iter().map(|h| h.node.as_str()).collect();
            format!("{} {}", nodes.join(">"), b.disposition)
        })
        .collect()
}

/// A square r1–r2–r4 and r1–r3–r4, equal costs: r1 reaches r4's loopback both ways.
fn square(extra1: &str) -> Vec<(String, String)> {
    vec![
        ios(
            1,
            &[("Ethernet0/1", "10.0.12.1"), ("Ethernet0/2", "10.0.13.1")],
            extra1,
        ),
        ios(
            2,
            &[("Ethernet0/1", "10.0.12.2"), ("Ethernet0/2", "10.0.24.1")],
            "",
        ),
        ios(
            3,
            &[("Ethernet0/1", "10.0.13.2"), ("Ethernet0/2", "10.0.34.1")],
            "",
        ),
        ios(
            4,
            &[("Ethernet0/1", "10.0.24.2"), ("Ethernet0/2", "10.0.34.2")],
            "",
        ),
    ]
}

#[test]
fn ecmp_branches_are_both_followed_to_the_owner() {
    let b = run(&square(""), "r1", "10.255.0.4");
    assert_eq!(paths(&b), ["r1>r2>r4 ACCEPTED", "r1>r3>r4 ACCEPTED"]);
    let first = &b[0].hops[0];
    assert_eq!(first.network.as_deref(), Some("10.255.0.4/32"));
    assert_eq!(first.protocol.as_deref(), Some("ospf"));
    assert_eq!(first.egress.as_deref(), Some("Ethernet0/1"));
    assert!(b.iter().all(|b| b.caveats.is_empty()), "{b:?}");
}

#[test]
fn the_source_owning_the_address_accepts_it() {
    let b = run(&square(""), "r1", "10.0.13.1");
    assert_eq!(paths(&b), ["r1 ACCEPTED"]);
}

#[test]
fn no_route_discard_and_exit_are_told_apart() {
    assert_eq!(paths(&run(&square(""), "r2", "192.0.2.1")), ["r2 NO_ROUTE"]);
    let null = square(&route("192.0.2.0 255.255.255.0 Null0"));
    assert_eq!(paths(&run(&null, "r1", "192.0.2.1")), ["r1 NULL_ROUTED"]);
    // A static route to an address on r1's link that no device owns: out of the network.
    let out = square(&route("198.51.100.0 255.255.255.0 10.0.12.3"));
    let b = run(&out, "r1", "198.51.100.7");
    assert_eq!(paths(&b), ["r1 EXITS_NETWORK"]);
    // r1 does not redistribute it: r2 has no route.
    assert_eq!(paths(&run(&out, "r2", "198.51.100.7")), ["r2 NO_ROUTE"]);
}

#[test]
fn a_recursive_static_route_follows_the_igp_path() {
    // r1 sends 203.0.113.0/24 to r4's loopback, resolved through OSPF (ECMP); r4 drops it.
    let mut devices = square(&route("203.0.113.0 255.255.255.0 10.255.0.4"));
    // Without redistribution r2 and r3 have no route for it: dropped there, as the
    // devices would.
    devices[3].1 = devices[3].1.replace(
        "end\n",
        &format!("{}end\n", route("203.0.113.0 255.255.255.0 Null0")),
    );
    let b = run(&devices, "r1", "203.0.113.9");
    assert_eq!(paths(&b), ["r1>r2 NO_ROUTE", "r1>r3 NO_ROUTE"]);
    assert_eq!(b[0].hops[0].protocol.as_deref(), Some("static"));
    assert_eq!(b[0].hops[0].egress.as_deref(), Some("Ethernet0/1"));
    // r4 redistributing its static route gives r2 and r3 an external route to it.
    devices[3].1 = devices[3]
        .1
        .replace("area 0\n", "area 0\n redistribute static subnets\n");
    let b = run(&devices, "r1", "203.0.113.9");
    assert_eq!(paths(&b), ["r1>r2>r4 NULL_ROUTED", "r1>r3>r4 NULL_ROUTED"]);
    assert_eq!(b[0].hops[1].protocol.as_deref(), Some("ospfE2"));
}

#[test]
fn a_routing_loop_is_caught() {
    // r1 sends 203.0.113.0/24 to r2, r2 sends it back to r1.
    let mut devices = square(&route("203.0.113.0 255.255.255.0 10.0.12.2"));
    devices[1].1 = devices[1].1.replace(
        "end\n",
        &format!("{}end\n", route("203.0.113.0 255.255.255.0 10.0.12.1")),
    );
    let b = run(&devices, "r1", "203.0.113.9");
    assert_eq!(paths(&b), ["r1>r2>r1 LOOP"]);
}

#[test]
fn an_incomplete_rib_says_it_cannot_know() {
    let mut devices = square("");
    devices[1].1 = devices[1]
        .1
        .replace("end\n", "router rip\n network 10.0.0.0\nend\n");
    let b = run(&devices, "r2", "192.0.2.1");
    assert_eq!(paths(&b), ["r2 INSUFFICIENT_INFO"]);
    assert!(b[0].caveats[0].contains("incomplete"), "{b:?}");
    let unknown = run(&devices, "r9", "10.255.0.4");
    assert_eq!(paths(&unknown), ["r9 INSUFFICIENT_INFO"]);
}

#[test]
fn an_interface_route_to_an_address_off_the_subnet_is_not_delivered_for_sure() {
    // Out of Ethernet0/1 (10.0.12.0/30) towards 10.203.9.9: only proxy ARP delivers it.
    let net = square(&route("10.203.0.0 255.255.0.0 Ethernet0/1"));
    let b = run(&net, "r1", "10.203.9.9");
    assert_eq!(paths(&b), ["r1 INSUFFICIENT_INFO"]);
    assert!(b[0].caveats[0].contains("proxy ARP"), "{b:?}");
}
