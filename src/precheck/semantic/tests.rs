//! The semantic diff on small configurations (`fixtures/semantic`) and the demo network.

use super::{diff, diff_values, Change, Status};
use crate::import::parse::parser_for;
use crate::model::{DeviceConfig, Vendor};
use proptest::prelude::*;
use serde_json::json;
use std::sync::OnceLock;

fn fixture(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/semantic")
        .join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The stored model of `base` and the model with the lines of `changes` applied in
/// order, as the pre-check's candidate is built.
fn models(vendor: Vendor, base: &str, changes: &[&str]) -> (DeviceConfig, DeviceConfig) {
    let stored = fixture(base);
    let lines: Vec<String> = changes
        .iter()
        .map(|c| fixture(&format!("changes/{c}.txt")))
        .collect();
    let parser = parser_for(vendor);
    let cand = crate::dialect::candidate_text(vendor, &stored, &lines.join("\n"));
    (parser.parse(&stored), parser.parse(&cand))
}

fn lines(changes: &[Change]) -> Vec<String> {
    changes.iter().map(ToString::to_string).collect()
}

/// The changes of IOS changes to `ios-base.cfg`, one line each.
fn ios(changes: &[&str]) -> Vec<String> {
    let (b, c) = models(Vendor::CiscoIos, "ios-base.cfg", changes);
    lines(&diff(&b, &c))
}

#[test]
fn each_change_is_named_in_words() {
    let table: &[(&str, &str)] = &[
        ("mtu", "interface GigabitEthernet0/0: MTU 1500 → 9000"),
        ("shut", "interface GigabitEthernet0/1: shutdown: no → yes"),
        (
            "static-route",
            "static route 10.8.0.0/16 via 10.0.13.2 added",
        ),
        (
            "neighbor-route-map",
            "BGP neighbor 192.0.2.1: outbound route-map RM-OUT → RM-OUT2",
        ),
        (
            "prefix-list",
            "prefix-list OURS seq 10 10.2.0.0/24 added (permit)",
        ),
        (
            "ospf-cost",
            "interface GigabitEthernet0/0: OSPF cost 10 → 50",
        ),
        ("route-map-clause", "route-map RM-OUT 20 removed (deny)"),
    ];
    for (change, words) in table {
        assert_eq!(ios(&[change]), vec![(*words).to_owned()], "{change}");
    }
}

#[test]
fn a_junos_disable_shuts_the_port_and_its_unit() {
    let (b, c) = models(Vendor::JuniperJunos, "junos-base.conf", &["junos-disable"]);
    assert_eq!(
        lines(&diff(&b, &c)),
        [
            "interface ge-0/0/1: shutdown: no → yes",
            "interface ge-0/0/1.0: shutdown: no → yes",
        ]
    );
}

#[test]
fn lines_olav_does_not_model_change_nothing() {
    assert!(ios(&["unmodelled"]).is_empty());
}

#[test]
fn changes_come_in_category_order_whatever_the_lines_order() {
    let got = ios(&[
        "route-map-clause",
        "prefix-list",
        "neighbor-route-map",
        "static-route",
        "ospf-cost",
        "mtu",
    ]);
    assert_eq!(
        got,
        [
            "interface GigabitEthernet0/0: MTU 1500 → 9000; OSPF cost 10 → 50",
            "static route 10.8.0.0/16 via 10.0.13.2 added",
            "BGP neighbor 192.0.2.1: outbound route-map RM-OUT → RM-OUT2",
            "prefix-list OURS seq 10 10.2.0.0/24 added (permit)",
            "route-map RM-OUT 20 removed (deny)",
        ]
    );
}

#[test]
fn an_element_added_lists_what_it_holds() {
    let (b, _) = models(Vendor::CiscoIos, "ios-base.cfg", &[]);
    let got = lines(&diff(&DeviceConfig::default(), &b));
    assert!(got.contains(&"interface GigabitEthernet0/0 added (addresses 10.0.12.1/30 (primary); description to s2; MTU 1500; OSPF cost 10)".to_owned()), "{got:#?}");
    assert!(got.contains(&"BGP process added (local AS 65001)".to_owned()));
    assert!(got.contains(&"device: hostname none → s1".to_owned()));
    assert_eq!(
        got.last().map(String::as_str),
        Some("device: hostname none → s1")
    );
}

#[test]
fn a_field_without_a_rule_is_diffed() {
    // A list the rules do not name (IS-IS's ISO units) and a tuple list (maximum paths).
    let (b, _) = models(Vendor::CiscoIos, "ios-base.cfg", &[]);
    let mut c = b.clone();
    c.isis.iso_units.push("ge-0/0/1.0".into());
    if let Some(bgp) = c.bgp.as_mut() {
        bgp.routing.maximum_paths.push((None, 4));
    }
    assert_eq!(
        lines(&diff(&b, &c)),
        [
            "IS-IS: ISO units none → ge-0/0/1.0",
            "BGP process: maximum paths none → 4",
        ]
    );
    // A top-level field the model gains later: a list of objects known by their
    // content, its line numbers left out; a scalar is a device setting.
    let base = json!({"packet_things": [{"name": "A", "line": 3}], "lines_total": 10});
    let cand = json!({
        "packet_things": [{"name": "A", "line": 9}, {"name": "B", "lines": [10, 11]}],
        "lines_total": 12,
        "new_flag": true,
    });
    assert_eq!(
        lines(&diff_values(&base, &cand)),
        ["packet things B added", "device: new flag none → yes"]
    );
}

#[test]
fn moved_lines_are_not_changes() {
    let (b, _) = models(Vendor::CiscoIos, "ios-base.cfg", &[]);
    let mut c = b.clone();
    c.interfaces.reverse();
    for (i, x) in c.interfaces.iter_mut().enumerate() {
        x.line += 100 + i as u32;
    }
    c.lines_total += 7;
    assert!(diff(&b, &c).is_empty());
}

fn demo() -> &'static [DeviceConfig] {
    static DEMO: OnceLock<Vec<DeviceConfig>> = OnceLock::new();
    DEMO.get_or_init(|| {
        crate::demo::parsed()
            .expect("the demo parses")
            .devices
            .into_iter()
            .map(|d| *d.config)
            .collect()
    })
}

/// A change as compared: (element, status, (field, before, after)).
type Compared = (String, Status, Vec<(String, String, String)>);

/// The changes as compared, by element; `flip`: additions and removals swapped and each
/// field's before and after swapped — what the reverse diff should give.
fn compared(changes: &[Change], flip: bool) -> Vec<Compared> {
    let mut v: Vec<Compared> = changes
        .iter()
        .map(|c| {
            let status = match (c.status, flip) {
                (Status::Added, true) => Status::Removed,
                (Status::Removed, true) => Status::Added,
                (s, _) => s,
            };
            let fields = c
                .fields
                .iter()
                .map(|f| {
                    let (b, a) = (f.before.clone(), f.after.clone());
                    let (b, a) = if flip { (a, b) } else { (b, a) };
                    (f.field.clone(), b, a)
                })
                .collect();
            (c.name(), status, fields)
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A device against itself changes nothing; two devices (or a device and itself with
    /// elements dropped) differ by the same elements both ways, additions and removals
    /// swapped.
    #[test]
    fn the_diff_is_empty_on_itself_and_symmetric(
        a in 0usize..1000,
        b in 0usize..1000,
        drop in proptest::collection::vec(any::<bool>(), 0..40),
    ) {
        let d = demo();
        let (a, b) = (&d[a % d.len()], &d[b % d.len()]);
        prop_assert!(diff(a, a).is_empty());
        let mut thinned = a.clone();
        let mut keep = drop.iter().cycle().map(|x| !x);
        thinned.interfaces.retain(|_| keep.next().unwrap_or(true));
        thinned.static_routes.retain(|_| keep.next().unwrap_or(true));
        thinned.route_map_clauses.retain(|_| keep.next().unwrap_or(true));
        if let Some(bgp) = thinned.bgp.as_mut() {
            bgp.neighbors.retain(|_| keep.next().unwrap_or(true));
        }
        for other in [b, &thinned] {
            let (there, back) = (diff(a, other), diff(other, a));
            prop_assert_eq!(compared(&there, true), compared(&back, false));
        }
    }
}
