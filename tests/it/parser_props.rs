//! Property tests of every parser of outside input: configs (all vendors), vendor
//! detection, the state file, interface names.

use olav::import::opstate;
use olav::import::parse::{decode, detect, junos, parser_for, PARSERS};
use olav::model::DeviceConfig;
use proptest::prelude::*;
use std::collections::BTreeSet;

const DEMO_IOS: &str = include_str!("../../fixtures/demo/configs/alpha-border-1.cfg");
const DEMO_EOS: &str =
    include_str!("../../fixtures/demo/configs/beta-border-1/show_running-config.txt");

/// The Junos fixtures, both syntaxes.
/// FRR in its layouts: Cumulus concatenated files and a SONiC frr.conf.
const FRR: &[&str] = &[
    include_str!("../../fixtures/lab-validation/cumulusfrr_ospf_unnumbered/configs/r1/r1.cfg"),
    include_str!(
        "../../fixtures/lab-validation/cumulusfrr_bgp_community/configs/cumulusfrr2/cumulusfrr2.cfg"
    ),
    include_str!("../../fixtures/lab-validation/sonic_bgp_lab/sonic_configs/ed01/frr.conf"),
];
const SONIC_DB: &str =
    include_str!("../../fixtures/lab-validation/sonic_bgp_lab/sonic_configs/ed01/config_db.json");

const JUNOS: &[&str] = &[
    include_str!("../../fixtures/junos/set/interfaces.cfg"),
    include_str!("../../fixtures/junos/brace/interfaces.cfg"),
    include_str!("../../fixtures/junos/set/routing.cfg"),
    include_str!("../../fixtures/junos/brace/routing.cfg"),
    include_str!("../../fixtures/junos/set/bgp.cfg"),
    include_str!("../../fixtures/junos/brace/bgp.cfg"),
    include_str!("../../fixtures/junos/set/ospf.cfg"),
    include_str!("../../fixtures/junos/brace/ospf.cfg"),
    include_str!("../../fixtures/junos/set/policy.cfg"),
    include_str!("../../fixtures/junos/brace/policy.cfg"),
    include_str!("../../fixtures/junos/set/groups.cfg"),
    include_str!("../../fixtures/junos/brace/groups.cfg"),
];

/// The addresses of every BGP peer and interface address of a model.
fn model_addresses(d: &DeviceConfig) -> BTreeSet<String> {
    let peers = d.bgp.iter().flat_map(|b| {
        b.neighbors.iter().map(|n| match &n.peer {
            olav::model::BgpPeer::Address(a) => a.to_string(),
            olav::model::BgpPeer::ListenRange(r) => r.addr().to_string(),
            olav::model::BgpPeer::Interface(i) => i.clone(),
        })
    });
    let addresses = d
        .interfaces
        .iter()
        .flat_map(|i| i.addresses.iter().map(|a| a.address.addr().to_string()));
    peers.chain(addresses).collect()
}

/// The addresses written in a text (`10.0.0.1/24` counts as `10.0.0.1`).
fn written_addresses(text: &str) -> BTreeSet<String> {
    text.split(|c: char| c.is_whitespace() || ";{}[]\"".contains(c))
        .map(|t| t.split('/').next().unwrap_or(t).to_owned())
        .collect()
}

/// Junos words and punctuation, for inputs that reach deep into the Junos parser.
fn junos_line() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "set",
        "deactivate",
        "delete",
        "interfaces",
        "ge-0/0/0",
        "ae0",
        "lo0",
        "unit",
        "0",
        "family",
        "inet",
        "inet6",
        "address",
        "10.0.0.1/24",
        "10.0.0.300/24",
        "primary",
        "vrrp-group",
        "virtual-address",
        "vlan-id",
        "disable",
        "description",
        "\"a b\"",
        "\"",
        "protocols",
        "bgp",
        "group",
        "G",
        "neighbor",
        "10.0.0.2",
        "allow",
        "type",
        "internal",
        "external",
        "peer-as",
        "65001",
        "local-as",
        "local-address",
        "import",
        "export",
        "multihop",
        "ttl",
        "routing-options",
        "autonomous-system",
        "static",
        "route",
        "next-hop",
        "discard",
        "qualified-next-hop",
        "preference",
        "rib",
        "inet6.0",
        "routing-instances",
        "VRF",
        "instance-type",
        "vrf",
        "interface",
        "policy-options",
        "policy-statement",
        "term",
        "from",
        "then",
        "prefix-list",
        "community",
        "add",
        "groups",
        "apply-groups",
        "<*>",
        "system",
        "host-name",
        "ospf",
        "area",
        "{",
        "}",
        ";",
        "[",
        "]",
        "inactive:",
        "protect:",
        "/*",
        "*/",
        "#",
        "(",
        "&&",
        ")",
    ]);
    (0usize..9, prop::collection::vec(words, 0..10))
        .prop_map(|(indent, w)| format!("{}{}", " ".repeat(indent), w.join(" ")))
}

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
    fn junos_never_panics_on_junos_like_lines(lines in prop::collection::vec(junos_line(), 0..80)) {
        let text = lines.join("\n");
        let dev = junos::parse(&text);
        prop_assert_eq!(dev.lines_total as usize, text.lines().count());
        prop_assert!(dev.lines_unrecognised <= dev.lines_total);
        for w in &dev.warnings {
            prop_assert!(w.line >= 1 && w.line as usize <= lines.len().max(1), "{:?}", w);
        }
    }

    /// Deleting, duplicating or swapping lines of a Junos fixture never panics, never
    /// invents a BGP peer or an address the text does not hold (deleting a `deactivate`
    /// line may well activate one), and keeps every line number in the file.
    #[test]
    fn mutated_junos_fixtures(
        which in 0usize..12,
        ops in prop::collection::vec((0usize..3, 0usize..200, 0usize..200), 1..12),
    ) {
        let full_text = JUNOS[which];
        let written = written_addresses(full_text);
        let mut lines: Vec<&str> = full_text.lines().collect();
        for (op, a, b) in ops {
            if lines.is_empty() {
                break;
            }
            let (a, b) = (a % lines.len(), b % lines.len());
            match op {
                0 => { lines.remove(a); }
                1 => lines.insert(b, lines[a]),
                _ => lines.swap(a, b),
            }
        }
        let text = lines.join("\n");
        let part = junos::parse(&text);
        let found = model_addresses(&part);
        prop_assert!(found.is_subset(&written), "invented {:?}", found.difference(&written).collect::<Vec<_>>());
        let n = text.lines().count() as u32;
        for w in &part.warnings {
            prop_assert!(w.line >= 1 && w.line <= n, "{:?}", w);
        }
        for i in &part.interfaces {
            prop_assert!(i.line >= 1 && i.line <= n);
        }
    }

    /// Deleting, duplicating or swapping lines of an FRR config (Cumulus concatenated,
    /// plain frr.conf) never panics, never invents an address, and keeps every line
    /// number in the file; a SONiC pair with its config_db.json cut anywhere says so
    /// with a warning naming the file, never a panic.
    #[test]
    fn mutated_frr_configs(
        which in 0usize..3,
        ops in prop::collection::vec((0usize..3, 0usize..200, 0usize..200), 1..12),
        cut in 0usize..4000,
    ) {
        let full_text = FRR[which];
        let parser = parser_for(olav::model::Vendor::Frr);
        let mut lines: Vec<&str> = full_text.lines().collect();
        for (op, a, b) in ops {
            if lines.is_empty() {
                break;
            }
            let (a, b) = (a % lines.len(), b % lines.len());
            match op {
                0 => { lines.remove(a); }
                1 => lines.insert(b, lines[a]),
                _ => lines.swap(a, b),
            }
        }
        let text = lines.join("\n");
        let part = parser.parse(&text);
        let n = text.lines().count() as u32;
        for w in &part.warnings {
            prop_assert!(w.line >= 1 && w.line <= n, "{:?}", w);
        }
        let found = model_addresses(&part);
        prop_assert!(found.iter().all(|a| full_text.contains(a.as_str())), "invented {:?}", found);
        let db = &SONIC_DB.as_bytes()[..cut.min(SONIC_DB.len())];
        let joined = olav::import::parse::frr::sonic::join(db, FRR[2].as_bytes());
        let dev = parser.parse(&String::from_utf8_lossy(&joined));
        if cut < SONIC_DB.trim_end().len() {
            prop_assert!(dev.warnings.iter().any(|w| w.message.contains("config_db.json")));
        }
    }

    /// A brace-form config cut after any line says it looks truncated exactly when a
    /// block is left open, and keeps a subset of the full config's addresses.
    #[test]
    fn truncated_junos_brace_configs(which in 0usize..6, cut in 0usize..200) {
        let full_text = JUNOS[which * 2 + 1];
        let addresses = model_addresses(&junos::parse(full_text));
        let part_text: String = full_text.lines().take(cut).map(|l| format!("{l}\n")).collect();
        let part = junos::parse(&part_text);
        let open = part_text.matches('{').count() > part_text.matches('}').count();
        let warned = part.warnings.iter().any(|w| w.message.contains("looks truncated"));
        prop_assert_eq!(warned, open);
        prop_assert!(model_addresses(&part).is_subset(&addresses));
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

/// A real plan's text, drafted from the snapshot format's own example in the plan docs.
const PLAN: &str = include_str!("snapshots/it__pipeline__decommission_plan.snap");

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Plans come from files people edit: arbitrary text, and a real plan with lines
    /// dropped or garbled, is read or refused with a reason — never a panic.
    #[test]
    fn plan_reader_never_panics(
        text in "\\PC{0,400}",
        mask in prop::collection::vec(any::<u8>(), 200),
    ) {
        let _ = olav::plan::Plan::from_markdown(&text);
        let body = PLAN.split_once("---\n").map_or(PLAN, |(_, b)| b);
        let mutated: String = body
            .lines()
            .zip(mask.iter().cycle())
            .filter_map(|(l, m)| match m % 8 {
                0 => None,
                1 => Some(format!("{}\n", l.chars().rev().collect::<String>())),
                _ => Some(format!("{l}\n")),
            })
            .collect();
        if let Ok(p) = olav::plan::Plan::from_markdown(&mutated) {
            // What reads back writes out and reads again to the same plan.
            let again = olav::plan::Plan::from_markdown(&p.to_markdown());
            prop_assert!(again.is_ok());
        }
    }

    /// YAML from any of olav's inputs stays within its budget: deep or alias-heavy
    /// documents are refused quickly, never parsed for minutes.
    #[test]
    fn yaml_budget_never_panics(depth in 0usize..5000, aliases in 0usize..200, width in 0usize..2000) {
        let doc = format!(
            "a: &x '{}'\nb: [{}]\nc: {}{}\n",
            "y".repeat(width),
            vec!["*x"; aliases].join(", "),
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let _ = olav::yaml::parse_value(&doc);
        let _ = opstate::parse(&doc);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Batfish answers come from a server olav does not control: any JSON, or a real
    /// answer's shape with values garbled, decodes or is refused with a reason.
    #[test]
    fn batfish_answer_decoding_never_panics(
        text in "\\PC{0,300}",
        cols in prop::collection::vec(("[a-z_]{0,8}", "[A-Za-z_:<>]{0,12}"), 0..4),
        cells in prop::collection::vec(prop_oneof![Just(serde_json::Value::Null), any::<i64>().prop_map(serde_json::Value::from), "\\PC{0,20}".prop_map(serde_json::Value::from)], 0..8),
    ) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) {
            let _ = olav::batfish::client::decode_table(&v, "q");
        }
        let columns: Vec<serde_json::Value> = cols
            .iter()
            .map(|(n, t)| serde_json::json!({"name": n, "schema": t}))
            .collect();
        let row: serde_json::Map<String, serde_json::Value> = cols
            .iter()
            .zip(cells.iter().cycle())
            .map(|((n, _), c)| (n.clone(), c.clone()))
            .collect();
        let answer = serde_json::json!({
            "status": "SUCCESS",
            "answerElements": [{"metadata": {"columnMetadata": columns}, "rows": [row]}],
        });
        let _ = olav::batfish::client::decode_table(&answer, "q");
        let wrapped = serde_json::json!([["answer", answer.to_string()]]);
        let _ = olav::batfish::client::decode_table(&wrapped, "q");
    }
}

/// EIGRP and IS-IS sections that run (IOS, NX-OS and EOS read what is theirs).
const IGP_BASE: &str = "interface Loopback0\n ip address 10.255.0.1 255.255.255.255\n ip router isis\ninterface GigabitEthernet1\n ip address 10.0.0.1 255.255.255.0\n ip address 10.0.0.1/24\n ip router isis\n isis enable CORE\n ip router eigrp 1\n no shutdown\nrouter eigrp 1\n network 10.0.0.0\n redistribute connected\nrouter isis\n net 49.0001.0000.0000.0001.00\n address-family ipv4 unicast\n";

/// Lines of EIGRP and IS-IS sections (Cisco-style and Junos words mixed).
fn igp_line() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "router",
        "eigrp",
        "isis",
        "1",
        "CORE",
        "network",
        "10.0.0.0",
        "0.0.0.255",
        "10.0.0.1/24",
        "passive-interface",
        "default",
        "no",
        "redistribute",
        "connected",
        "static",
        "metric",
        "1000",
        "route-map",
        "address-family",
        "ipv4",
        "ipv6",
        "unicast",
        "vrf",
        "autonomous-system",
        "af-interface",
        "exit-af-interface",
        "topology",
        "base",
        "delay",
        "bandwidth",
        "interface",
        "GigabitEthernet1",
        "Ethernet1/1",
        "ip",
        "address",
        "net",
        "49.0001.0000.0000.0001.00",
        "49",
        "is-type",
        "level-1",
        "level-2-only",
        "circuit-type",
        "metric-style",
        "wide",
        "enable",
        "passive",
        "set",
        "protocols",
        "interfaces",
        "ge-0/0/0",
        "unit",
        "0",
        "family",
        "iso",
        "level",
        "disable",
        "lo0",
    ]);
    (0usize..5, prop::collection::vec(words, 0..9))
        .prop_map(|(indent, w)| format!("{}{}", " ".repeat(indent), w.join(" ")))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// EIGRP and IS-IS sections never make a parser, nor the routing computation, panic.
    #[test]
    fn igp_sections_never_panic(
        lines in prop::collection::vec(igp_line(), 0..60),
        base in any::<bool>(),
    ) {
        // Half the cases start from sections that run, so that the random lines change
        // a working computation.
        let start = if base { IGP_BASE } else { "" };
        let text = format!("{start}{}", lines.join("\n"));
        for p in PARSERS {
            let dev = p.parse(&text);
            prop_assert_eq!(dev.lines_total as usize, text.lines().count());
            let rib = olav::routing::compute("r", p.vendor(), &dev, &text);
            prop_assert!(rib.routes.iter().all(|r| r.admin_distance <= 255));
            // Two devices of one text share every subnet: adjacencies, paths, filters.
            let inputs: Vec<olav::routing::DeviceInput> = ["a", "b"]
                .iter()
                .map(|h| olav::routing::DeviceInput {
                    hostname: h,
                    vendor: p.vendor(),
                    config: &dev,
                    text: &text,
                })
                .collect();
            prop_assert_eq!(olav::routing::network(&inputs).len(), 2);
        }
    }
}
