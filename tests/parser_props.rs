//! Property tests of every parser of outside input: configs (all vendors), vendor
//! detection, the state file, interface names.

use olav::import::opstate;
use olav::import::parse::{decode, detect, parser_for, PARSERS};
use proptest::prelude::*;

const DEMO_IOS: &str = include_str!("../fixtures/demo/configs/alpha-border-1.cfg");
const DEMO_EOS: &str =
    include_str!("../fixtures/demo/configs/beta-border-1/show_running-config.txt");

/// Lines that look like configuration, for inputs that reach deep into the parsers.
fn config_line() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "interface",
        "router",
        "bgp",
        "neighbor",
        "remote-as",
        "peer-group",
        "peer",
        "group",
        "ip",
        "address",
        "route",
        "vrf",
        "forwarding",
        "route-map",
        "prefix-list",
        "access-list",
        "community-list",
        "network",
        "mask",
        "area",
        "shutdown",
        "no",
        "description",
        "switchport",
        "mode",
        "trunk",
        "access",
        "vlan",
        "channel-group",
        "mtu",
        "speed",
        "exit-address-family",
        "address-family",
        "ipv4",
        "unicast",
        "banner",
        "motd",
        "^C",
        "10.0.0.1",
        "255.255.255.0",
        "10.0.0.0/8",
        "65001",
        "1.100",
        "in",
        "out",
        "secondary",
        "template",
        "inherit",
        "update-source",
        "ebgp-multihop",
        "listen",
        "range",
        "!",
        "end",
        "hostname",
        "standby",
        "vrrp",
        "1",
        "x",
    ]);
    (0usize..7, prop::collection::vec(words, 0..8))
        .prop_map(|(indent, w)| format!("{}{}", " ".repeat(indent), w.join(" ")))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_arbitrary_text(text in "\\PC{0,400}") {
        let _ = detect(&text);
        for p in PARSERS {
            let dev = p.parse(&text);
            prop_assert!(dev.lines_unrecognised <= dev.lines_total);
        }
    }

    #[test]
    fn parsers_never_panic_on_config_like_lines(lines in prop::collection::vec(config_line(), 0..80)) {
        let text = lines.join("\n");
        for p in PARSERS {
            let dev = p.parse(&text);
            prop_assert_eq!(dev.lines_total as usize, text.lines().count());
            for w in &dev.warnings {
                prop_assert!(w.line >= 1 && w.line as usize <= lines.len());
            }
        }
    }

    #[test]
    fn decode_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        if let Ok(text) = decode(&bytes) {
            let _ = detect(&text);
        }
    }

    /// A config cut after any line holds a prefix of the full config's interfaces, and
    /// every address it read is one the full config has.
    #[test]
    fn truncated_configs_yield_a_prefix(cut in 0usize..400, eos in any::<bool>()) {
        let full_text = if eos { DEMO_EOS } else { DEMO_IOS };
        let vendor = detect(full_text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let parser = parser_for(vendor);
        let full = parser.parse(full_text);
        let part_text: String = full_text.lines().take(cut).map(|l| format!("{l}\n")).collect();
        let part = parser.parse(&part_text);
        prop_assert!(part.interfaces.len() <= full.interfaces.len());
        for (p, f) in part.interfaces.iter().zip(&full.interfaces) {
            prop_assert_eq!(&p.name, &f.name);
            for a in &p.addresses {
                prop_assert!(f.addresses.contains(a));
            }
        }
        prop_assert_eq!(part.saw_end, cut >= full_text.lines().count());
    }

    /// Deleting lines never makes a parser panic or invent BGP neighbors.
    #[test]
    fn deleting_lines_never_adds_neighbors(mask in prop::collection::vec(any::<bool>(), 400)) {
        for text in [DEMO_IOS, DEMO_EOS] {
            let vendor = detect(text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let parser = parser_for(vendor);
            let full = parser.parse(text);
            let kept: String = text
                .lines()
                .zip(mask.iter().cycle())
                .filter(|(_, keep)| **keep)
                .map(|(l, _)| format!("{l}\n"))
                .collect();
            let part = parser.parse(&kept);
            let all: Vec<_> = full.bgp.iter().flat_map(|b| b.neighbors.iter().map(|n| n.peer.clone())).collect();
            for n in part.bgp.iter().flat_map(|b| b.neighbors.iter()) {
                prop_assert!(all.contains(&n.peer), "invented neighbor {}", n.peer);
            }
        }
    }

    #[test]
    fn workflow_loader_never_panics(text in "\\PC{0,300}", steps in prop::collection::vec(config_line(), 0..6)) {
        let doc = format!("schema_version: 1\nname: x\nsteps:\n{}", steps.iter().map(|s| format!("  - {{agent: analyzer, prompt: 'p {}'}}\n", s.replace('\'', ""))).collect::<String>());
        let cat = olav::workflow::load_texts(
            &olav::agents::NETOPS,
            vec![("workflows/a.workflow.yaml".into(), Ok(text)), ("workflows/b.workflow.yaml".into(), Ok(doc))],
        );
        prop_assert_eq!(cat.files.len(), 2);
        prop_assert_eq!(cat.files[1].loaded.is_some(), steps.len() >= 2);
    }

    #[test]
    fn state_file_parser_never_panics(text in "\\PC{0,300}") {
        let _ = opstate::parse(&text);
    }

    #[test]
    fn interface_name_matching_is_symmetric(
        a in "(Gi|GigabitEthernet|Te|Et|Eth|Ethernet|Po|Port-channel|Lo|Vlan|Vl|x)[0-9]{1,2}(/[0-9]{1,2})?",
        b in "(Gi|GigabitEthernet|Te|Et|Eth|Ethernet|Po|Port-channel|Lo|Vlan|Vl|x)[0-9]{1,2}(/[0-9]{1,2})?",
    ) {
        prop_assert_eq!(olav::ifname::same(&a, &b), olav::ifname::same(&b, &a));
        prop_assert!(olav::ifname::same(&a, &olav::ifname::expand(&a)));
    }
}

#[test]
fn state_file_errors_name_the_line() {
    let err = opstate::parse("collected_at: x\ndevices:\n  - {hostname: a, rol: border}\n")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("unknown field `rol`"), "{err}");
    assert!(err.contains("line 3"), "{err}");
}
