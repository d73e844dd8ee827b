//! Nokia SR OS (MD-CLI) read for the routing model, on a real lab
//! (`fixtures/real-networks/sros_static`, batfish/lab-validation's `sros_static`): the
//! SR OS router's RIB is computed as its own route table shows it, and its cEOS peer
//! learns the routes its export policy sends — rows the peer's own table holds.

use crate::common;
use olav::model::Vendor;
use olav::routing::shown;
use olav::routing::{network, DeviceInput, NextHop, Protocol};
use std::net::Ipv4Addr;

fn lab() -> std::path::PathBuf {
    common::fixture("real-networks").join("sros_static")
}

#[test]
fn an_sros_router_and_its_eos_peer_route_as_the_devices_show() {
    let parsed = common::parsed(&lab());
    let inputs: Vec<DeviceInput> = parsed.devices.iter().map(DeviceInput::of).collect();
    let ribs = network(&inputs);
    let rib_of = |host: &str| {
        let i = parsed
            .devices
            .iter()
            .position(|d| d.hostname == host)
            .expect("device");
        (&parsed.devices[i], &ribs[i])
    };
    let (r1, r1_rib) = rib_of("r1");
    assert_eq!(r1.vendor, Vendor::NokiaSros);
    assert!(r1_rib.incomplete.is_empty(), "{:?}", r1_rib.incomplete);
    // show/r1/show_router_route-table.txt, row by row.
    let rows: Vec<(String, String, Protocol, u32, u32)> = r1_rib
        .routes
        .iter()
        .map(|r| {
            let hop = match &r.next_hop {
                NextHop::Ip(ip) => ip.to_string(),
                NextHop::Interface { interface, .. } => interface.to_string(),
                NextHop::Discard => "Black Hole".into(),
                NextHop::Vrf(v) => v.clone(),
                NextHop::Vtep { vtep, .. } => vtep.to_string(),
            };
            (
                r.network.to_string(),
                hop,
                r.protocol,
                r.metric,
                r.admin_distance,
            )
        })
        .collect();
    let want = |n: &str, h: &str, p, m, d| (n.to_owned(), h.to_owned(), p, m, d);
    assert_eq!(
        rows,
        vec![
            want("1.1.1.1/32", "system", Protocol::Connected, 0, 0),
            want("2.2.2.2/32", "10.0.0.1", Protocol::Bgp, 0, 170),
            want("10.0.0.0/31", "to-r2", Protocol::Connected, 0, 0),
            want("192.0.2.0/24", "10.0.0.1", Protocol::Static, 1, 5),
            want("192.168.1.1/32", "lo1", Protocol::Connected, 0, 0),
            want("198.51.100.0/24", "Black Hole", Protocol::Static, 1, 5),
        ]
    );
    // The same table as `routing::shown::sros` reads the device's JSON state.
    let show = lab().join("show/r1");
    let read = |f: &str| std::fs::read_to_string(show.join(f)).expect("show output");
    let interfaces = read("info_json_state_router_Base_interface.txt");
    let shown: Vec<(String, String, String, u32, u32)> = shown::sros(
        &read("info_json_state_router_Base_route-table.txt"),
        Some(&interfaces),
    )
    .expect("reads")
    .into_iter()
    .map(|r| {
        let hop = match (r.discard, r.next_hop_ip, r.next_hop_interface) {
            (true, ..) => "Black Hole".to_owned(),
            (_, Some(ip), _) => ip.to_string(),
            (_, None, Some(i)) => i,
            (_, None, None) => String::new(),
        };
        (
            r.network.to_string(),
            hop,
            r.protocol,
            r.metric as u32,
            r.admin_distance,
        )
    })
    .collect();
    let ours: Vec<(String, String, String, u32, u32)> = rows
        .iter()
        .map(|(n, h, p, m, d)| (n.clone(), h.clone(), p.as_str().to_owned(), *m, *d))
        .collect();
    assert_eq!(ours, shown);
    // r2 learns r1's system address (and only it: the export policy's prefix-list, then
    // the eBGP default reject), as its own table shows.
    let (_, r2_rib) = rib_of("r2");
    assert!(r2_rib.incomplete.is_empty(), "{:?}", r2_rib.incomplete);
    let text = std::fs::read_to_string(lab().join("show/r2/show_ip_route_vrf_all_pipe_json.txt"))
        .expect("show output");
    let shown_bgp: Vec<(String, Option<Ipv4Addr>, u32)> = shown::eos(&text)
        .expect("reads")
        .into_iter()
        .filter(|r| r.protocol == "bgp")
        .map(|r| (r.network.to_string(), r.next_hop_ip, r.admin_distance))
        .collect();
    let olav_bgp: Vec<(String, Option<Ipv4Addr>, u32)> = r2_rib
        .routes
        .iter()
        .filter(|r| r.protocol == Protocol::Bgp)
        .map(|r| {
            let ip = match &r.next_hop {
                NextHop::Ip(ip) => Some(*ip),
                NextHop::Interface { ip, .. } => *ip,
                _ => None,
            };
            (r.network.to_string(), ip, r.admin_distance)
        })
        .collect();
    assert_eq!(
        shown_bgp,
        vec![(
            "1.1.1.1/32".to_owned(),
            Some(Ipv4Addr::new(10, 0, 0, 0)),
            200
        )]
    );
    assert_eq!(olav_bgp, shown_bgp);
}

const R1: &str = include_str!("../../fixtures/real-networks/sros_static/configs/r1/r1.cfg");
const R2: &str =
    include_str!("../../fixtures/real-networks/sros_static/configs/r2/show_running-config.txt");

/// SR OS MD-CLI words and punctuation, for inputs that reach deep into the parser.
fn sros_line() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let words = prop::sample::select(vec![
        "configure",
        "{",
        "}",
        "[",
        "]",
        "router",
        "\"Base\"",
        "interface",
        "\"to-r2\"",
        "\"system\"",
        "ipv4",
        "primary",
        "secondary",
        "address",
        "10.0.0.0",
        "10.0.0.300",
        "prefix-length",
        "31",
        "99",
        "port",
        "1/1/c1/1",
        "admin-state",
        "enable",
        "disable",
        "loopback",
        "bgp",
        "group",
        "\"ebgp\"",
        "neighbor",
        "\"10.0.0.1\"",
        "peer-as",
        "65002",
        "type",
        "internal",
        "import",
        "export",
        "policy",
        "[\"p\"]",
        "static-routes",
        "route",
        "192.0.2.0/24",
        "route-type",
        "unicast",
        "next-hop",
        "blackhole",
        "indirect",
        "preference",
        "metric",
        "policy-options",
        "prefix-list",
        "\"pl\"",
        "prefix",
        "exact",
        "longer",
        "through",
        "through-length",
        "range",
        "start-length",
        "end-length",
        "policy-statement",
        "\"p\"",
        "entry",
        "10",
        "from",
        "action",
        "action-type",
        "accept",
        "reject",
        "next-entry",
        "default-action",
        "community",
        "add",
        "member",
        "as-path-prepend",
        "as-path",
        "repeat",
        "4294967295",
        "ospf",
        "service",
        "vprn",
        "system",
        "name",
        "\"r1\"",
        "#",
        "\"",
        "ebgp-default-reject-policy",
        "true",
        "false",
    ]);
    prop::collection::vec(words, 0..8).prop_map(|w| w.join(" "))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// No SR OS-like text makes the parser panic.
    #[test]
    fn the_sros_parser_never_panics_on_sros_like_lines(
        lines in proptest::collection::vec(sros_line(), 0..80)
    ) {
        let mut text = String::from("configure {\n");
        for l in &lines {
            text.push_str(l);
            text.push('\n');
        }
        let _ = olav::import::parse::sros::parse(&text);
    }

    /// The real configuration with lines dropped, repeated or truncated is read without a
    /// panic, never gains a BGP neighbor, and the network's routing is computed over it.
    #[test]
    fn damaged_sros_configurations_are_read_and_routed(
        mask in proptest::collection::vec(0u8..8, 400),
        cut in 0usize..12_000,
    ) {
        let lines: Vec<&str> = R1.lines().collect();
        let mut text = String::new();
        for (i, l) in lines.iter().enumerate() {
            match mask.get(i % mask.len()).copied().unwrap_or(0) {
                0 => {}
                1 => {
                    text.push_str(l);
                    text.push('\n');
                    text.push_str(l);
                    text.push('\n');
                }
                _ => {
                    text.push_str(l);
                    text.push('\n');
                }
            }
        }
        let cut = (0..=cut.min(text.len())).rev().find(|c| text.is_char_boundary(*c)).unwrap_or(0);
        let damaged = &text[..cut];
        let whole = olav::import::parse::sros::parse(R1);
        let d = olav::import::parse::sros::parse(damaged);
        let count = |c: &olav::model::DeviceConfig| c.bgp.as_ref().map_or(0, |b| b.neighbors.len());
        proptest::prop_assert!(count(&d) <= count(&whole));
        let eos = olav::import::parse::parser_for(Vendor::AristaEos).parse(R2);
        let inputs = [
            DeviceInput { hostname: "r1", vendor: Vendor::NokiaSros, config: &d, text: damaged },
            DeviceInput { hostname: "r2", vendor: Vendor::AristaEos, config: &eos, text: R2 },
        ];
        let _ = network(&inputs);
    }
}

/// olav reads SR OS but writes none: a change on an SR OS device is refused, never
/// rendered in another vendor's syntax.
#[test]
fn drafting_a_change_on_an_sros_device_is_refused() {
    let change = olav::dialect::Change::AddStaticRoute {
        prefix: "192.0.2.0/24".parse().expect("net"),
        next_hop: "10.0.0.1".parse().expect("ip"),
    };
    let err = olav::dialect::render(Vendor::NokiaSros, "r1", R1, &change).expect_err("refused");
    assert!(err.contains("Nokia SR OS"), "{err}");
}
