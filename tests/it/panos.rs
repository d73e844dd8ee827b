//! PAN-OS firewalls in the routing model: the real lab `panos_ebgp_loop_prevention`
//! (fixtures/real-networks: five PAN-OS devices in eBGP, sender-side loop detection on
//! and off, an AS number removed by an export rule), every device's main RIB against its
//! own `show routing route`.

use crate::common;
use olav::model::Vendor;
use olav::routing::{network, DeviceInput, NextHop, Protocol};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The active rows (flag `A`) of a PAN-OS `show routing route`: (destination, protocol,
/// next hop: the address, else the interface; none for a local `H` row).
fn shown(text: &str) -> BTreeSet<(String, String, String)> {
    const FLAGS: [&str; 15] = [
        "A", "?", "C", "H", "S", "~", "R", "O", "B", "Oi", "Oo", "O1", "O2", "E", "M",
    ];
    let number = |w: &str| w.chars().all(|c| c.is_ascii_digit());
    text.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() < 3 || !w[0].contains('/') {
                return None;
            }
            // destination nexthop [metric] flags… [age] [interface] [next-AS]
            let mut k = 2 + usize::from(number(w[2]));
            let mut flags = Vec::new();
            while k < w.len() && FLAGS.contains(&w[k]) {
                flags.push(w[k]);
                k += 1;
            }
            k += usize::from(w.get(k).is_some_and(|a| number(a)));
            let interface = w.get(k).copied().unwrap_or_default();
            if !flags.contains(&"A") {
                return None;
            }
            let (protocol, hop) = match () {
                _ if flags.contains(&"C") => ("connected", interface),
                _ if flags.contains(&"H") => ("local", ""),
                _ if flags.contains(&"B") => ("bgp", w[1]),
                _ if flags.contains(&"S") && w[1] == "0.0.0.0" => ("static", interface),
                _ if flags.contains(&"S") => ("static", w[1]),
                _ => ("other", w[1]),
            };
            Some((w[0].to_owned(), protocol.to_owned(), hop.to_owned()))
        })
        .collect()
}

#[test]
fn panos_routes_agree_with_the_devices() {
    let lab = common::fixture("real-networks").join("panos_ebgp_loop_prevention");
    let parsed = common::parsed(&lab);
    assert_eq!(parsed.devices.len(), 5);
    assert!(parsed
        .devices
        .iter()
        .all(|d| d.vendor == Vendor::PaloAltoPanos));
    let inputs: Vec<DeviceInput> = parsed.devices.iter().map(DeviceInput::of).collect();
    let ribs = network(&inputs);
    for rib in &ribs {
        let show = std::fs::read_to_string(
            lab.join("show")
                .join(&rib.hostname)
                .join("run_show_routing_route.txt"),
        )
        .expect("show output");
        let device = shown(&show);
        let olav: BTreeSet<(String, String, String)> = rib
            .routes
            .iter()
            .map(|r| {
                let hop = match &r.next_hop {
                    _ if r.protocol == Protocol::Local => String::new(),
                    NextHop::Ip(ip) => ip.to_string(),
                    NextHop::Interface { interface, .. } => interface.to_string(),
                    other => format!("{other:?}"),
                };
                (r.network.to_string(), r.protocol.as_str().to_owned(), hop)
            })
            .collect();
        let marks: Vec<&str> = rib.incomplete.iter().map(|i| i.reason.as_str()).collect();
        // d2 sends d5 the paths holding AS 65001 through a rule updating `as-path
        // remove`: the AS numbers its expression `_65001_` matches are taken out (the
        // device's BGP table shows `65002` alone).
        if rib.hostname == "d5" {
            let one = rib
                .bgp
                .iter()
                .find(|r| r.network.to_string() == "192.168.123.1/32")
                .expect("d1's loopback at d5");
            assert_eq!(one.as_path, vec![65002]);
        }
        assert!(marks.is_empty(), "{}: {marks:?}", rib.hostname);
        assert_eq!(olav, device, "{}: {marks:?}", rib.hostname);
    }
}

/// The lab's configuration texts.
fn lab_texts() -> Vec<String> {
    let lab = common::fixture("real-networks").join("panos_ebgp_loop_prevention");
    common::parsed(&lab)
        .devices
        .into_iter()
        .map(|d| d.text)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Damaged PAN-OS configurations (lines dropped, repeated, cut, their numbers
    /// changed) are read and the lab computed without a panic.
    #[test]
    fn damaged_panos_configs_compute(
        edits in proptest::collection::vec((0usize..400, 0u8..4, 0u32..70000), 0..40),
    ) {
        let texts: Vec<String> = lab_texts()
            .iter()
            .map(|t| crate::routes_props::damage(t, &edits))
            .collect();
        let parser = olav::import::parse::parser_for(Vendor::PaloAltoPanos);
        let configs: Vec<olav::model::DeviceConfig> =
            texts.iter().map(|t| parser.parse(t)).collect();
        let names: Vec<String> = (0..texts.len()).map(|i| format!("d{i}")).collect();
        let inputs: Vec<DeviceInput> = configs
            .iter()
            .zip(&texts)
            .zip(&names)
            .map(|((c, t), h)| DeviceInput { hostname: h, vendor: Vendor::PaloAltoPanos, config: c, text: t })
            .collect();
        prop_assert_eq!(network(&inputs).len(), inputs.len());
    }

    /// Any `set` line of PAN-OS words, quotes and brackets is read without a panic.
    #[test]
    fn any_set_line_is_read(
        words in proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(vec![
                    "network", "interface", "ethernet", "ethernet1/1", "layer3", "units",
                    "ip", "virtual-router", "default", "protocol", "bgp", "peer-group",
                    "peer", "policy", "import", "export", "rules", "match", "address-prefix",
                    "action", "allow", "update", "used-by", "redist-rules", "redist-profile",
                    "routing-table", "static-route", "destination", "nexthop", "[", "]",
                    "\"", "10.0.0.1/24", "0.0.0.0/0", "65001", "yes", "no", "exact",
                ]).prop_map(str::to_owned),
                "\\PC{0,8}",
            ],
            0..14,
        ),
    ) {
        let text = format!("set {}\nset {}\n", words.join(" "), words.join(" "));
        let _ = olav::import::parse::panos::parse(&text);
    }
}
