//! Hand-written lines are outside input: whatever an engineer types, reading it and
//! deriving its rollback never panics; and lines drawn from what engineers change on the
//! demo's border routers, followed by the rollback olav derives, give the stored device
//! back (its model: interfaces, BGP, static routes, routing policy).

use olav::dialect::{candidate_text, derived_rollback, readable::unreadable};
use olav::import::parse::parser_for;
use olav::model::Vendor;
use olav::precheck::model_sections::sections;
use proptest::prelude::*;

fn stored(path: &str) -> String {
    std::fs::read_to_string(crate::common::fixture(path)).expect("demo config")
}

fn restores(v: Vendor, stored: &str, lines: &str) -> Result<(), TestCaseError> {
    let rb = derived_rollback(v, stored, lines).expect("derived");
    let back = candidate_text(v, &candidate_text(v, stored, lines), &rb);
    let p = parser_for(v);
    prop_assert_eq!(
        sections(&p.parse(&back)),
        sections(&p.parse(stored)),
        "lines:\n{}\nrollback:\n{}",
        lines,
        rb
    );
    Ok(())
}

/// One IOS change on alpha-border-1.
fn ios_change() -> impl Strategy<Value = String> {
    let iface = prop::sample::select(vec![
        "GigabitEthernet0/0/0",
        "GigabitEthernet0/0/1",
        "Loopback0",
        "Loopback7",
    ]);
    prop_oneof![
        (iface.clone(), 1280u32..9200).prop_map(|(i, m)| format!("interface {i}\n mtu {m}")),
        (iface.clone(), 1u32..1000).prop_map(|(i, c)| format!("interface {i}\n ip ospf cost {c}")),
        (iface.clone(), "[a-z]{1,8}").prop_map(|(i, d)| format!("interface {i}\n description {d}")),
        iface
            .clone()
            .prop_map(|i| format!("interface {i}\n shutdown")),
        iface
            .clone()
            .prop_map(|i| format!("interface {i}\n no shutdown")),
        (iface, 1u8..250)
            .prop_map(|(i, h)| format!("interface {i}\n ip address 10.77.{h}.1 255.255.255.0")),
        (1u32..40, 1u16..1024).prop_map(|(n, p)| format!(
            "ip access-list extended EDGE-IN\n {n} permit tcp any any eq {p}"
        )),
        prop::sample::select(vec![10u32, 20, 30])
            .prop_map(|n| format!("ip access-list extended EDGE-IN\n no {n}")),
        (1u8..250).prop_map(|o| format!("ip route 198.18.{o}.0 255.255.255.0 203.0.113.2")),
        Just("no ip route 10.10.0.0 255.255.0.0 Null0 250 name AGGREGATE".to_owned()),
        (30u32..90, 1u8..250)
            .prop_map(|(s, o)| format!("ip prefix-list OUR-PREFIXES seq {s} permit 10.{o}.0.0/16")),
        Just("no ip prefix-list OUR-PREFIXES seq 20 permit 10.20.0.0/16".to_owned()),
        Just("router bgp 65001\n neighbor 203.0.113.2 route-map OTHER out".to_owned()),
        // Under `passive-interface default`: one made active, one made passive again.
        Just("router ospf 1\n no passive-interface Loopback0".to_owned()),
        Just("router ospf 1\n passive-interface GigabitEthernet0/0/1".to_owned()),
        Just("no route-map AARNET-OUT deny 100".to_owned()),
    ]
}

/// One Junos change on gamma-border-1.
fn junos_change() -> impl Strategy<Value = String> {
    let port = prop::sample::select(vec!["xe-0/1/0", "xe-0/1/1", "xe-0/1/2", "xe-0/1/3"]);
    prop_oneof![
        port.clone()
            .prop_map(|p| format!("set interfaces {p} disable")),
        (port.clone(), 1500u32..9200).prop_map(|(p, m)| format!("set interfaces {p} mtu {m}")),
        (port.clone(), "[a-z]{1,8}")
            .prop_map(|(p, d)| format!("set interfaces {p} description {d}")),
        port.clone()
            .prop_map(|p| format!("delete interfaces {p} description")),
        (port, 1u8..250).prop_map(|(p, o)| format!(
            "set interfaces {p} unit 0 family inet address 10.78.{o}.1/24"
        )),
        (1u8..250).prop_map(|o| format!(
            "set routing-options static route 198.18.{o}.0/24 next-hop 62.115.152.90"
        )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_text_reads_without_panicking(text in "(([ ]{0,3}[ -~]{0,40})\n){0,12}") {
        for (v, path) in [
            (Vendor::CiscoIos, "demo/configs/alpha-border-1.cfg"),
            (Vendor::JuniperJunos, "demo/configs/gamma-border-1/show_configuration.txt"),
        ] {
            let s = stored(path);
            let _ = unreadable(v, &s, &text);
            let _ = derived_rollback(v, &s, &text);
        }
    }

    #[test]
    fn ios_changes_are_undone_by_the_derived_rollback(changes in prop::collection::vec(ios_change(), 1..6)) {
        let s = stored("demo/configs/alpha-border-1.cfg");
        let lines = changes.join("\n");
        prop_assert!(unreadable(Vendor::CiscoIos, &s, &lines).is_empty(), "{:?}", unreadable(Vendor::CiscoIos, &s, &lines));
        restores(Vendor::CiscoIos, &s, &lines)?;
    }

    #[test]
    fn junos_changes_are_undone_by_the_derived_rollback(changes in prop::collection::vec(junos_change(), 1..6)) {
        let s = stored("demo/configs/gamma-border-1/show_configuration.txt");
        restores(Vendor::JuniperJunos, &s, &changes.join("\n"))?;
    }
}
