//! The request table (`fixtures/requests/table.txt`): requests as engineers write them on
//! the demo network, each with the reading it must get, scored in two sets — the tuning set
//! and a held-out set never looked at while tuning (its misses are printed only with
//! `OLAV_TABLE_SHOW_HELD=1`). A reading counts when the analyzer reads the intent and its
//! key entities (or asks, offering the expected readings as requests to run) and the
//! router sends the request to the workflow of that reading.

use crate::common;
use olav::agents::analyzer::facts::Facts;
use olav::agents::analyzer::intent::{resolve, IfChange, Intent, Resolution};
use olav::agents::NETOPS;
use olav::workflow::route::{route, Route};
use olav::workflow::{load, AgentDir, Catalog};

/// The floors the two sets must keep (raised as the reading improves).
const TUNING_FLOOR: usize = 108;
const HELD_OUT_FLOOR: usize = 110;

fn demo_facts() -> Facts {
    let tmp = tempfile::tempdir().expect("tempdir");
    let parsed = common::parsed(&common::demo_dir());
    let db = common::state_db(&tmp.path().join("s.db"), &parsed);
    Facts::load(&db).expect("facts")
}

/// The requests a question offers to run.
fn candidate_requests(r: &Resolution) -> Vec<String> {
    match r {
        Resolution::Clarify { candidates, .. } => candidates
            .iter()
            .filter_map(|c| c.request.clone())
            .collect(),
        _ => Vec::new(),
    }
}

fn question(r: &Resolution) -> Option<&str> {
    match r {
        Resolution::Clarify { question, .. } => Some(question),
        _ => None,
    }
}

fn pair(s: &str) -> (String, String) {
    let (d, i) = s.split_once(':').unwrap_or((s, ""));
    (d.to_owned(), i.to_owned())
}

/// Whether `got` is the intent `want` (one expectation, not `ask`/`one-change`) describes.
fn intent_matches(want: &str, got: &Intent) -> bool {
    let w: Vec<&str> = want.split_whitespace().collect();
    let Some((&kind, args)) = w.split_first() else {
        return false;
    };
    match (kind, got) {
        (
            "uplink",
            Intent::AddUplink {
                device,
                peer,
                redundant,
                ..
            },
        ) => {
            args.len() == 3
                && device == args[0]
                && peer.asn.to_string() == args[1]
                && *redundant == (args[2] == "redundant")
        }
        ("peering", Intent::AddPeering { device, peer }) => {
            args.len() >= 4
                && device == args[0]
                && peer.name.eq_ignore_ascii_case(args[1])
                && peer.asn.to_string() == args[2]
                && peer.link.to_string() == args[3]
                && peer.interface.as_deref() == args.get(4).copied()
        }
        ("session", Intent::RemoveSession { device, peer, .. }) => {
            args.len() == 2 && device == args[0] && peer == args[1]
        }
        ("peer-off", Intent::DecommissionPeer { device, peer }) => {
            args.len() == 2 && device == args[0] && peer.asn.to_string() == args[1]
        }
        (
            "if",
            Intent::ModifyInterface {
                device,
                interface,
                changes,
            },
        ) => {
            let rest = want.splitn(4, ' ').nth(3).unwrap_or_default();
            let mut wanted: Vec<IfChange> = Vec::new();
            let (plain, desc) = match rest.find("desc=") {
                Some(i) => (&rest[..i], Some(rest[i + 5..].to_owned())),
                None => (rest, None),
            };
            for c in plain.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                wanted.push(match c {
                    "shut" => IfChange::Shutdown,
                    "noshut" => IfChange::NoShutdown,
                    "nodesc" => IfChange::NoDescription,
                    _ => match c.split_once('=') {
                        Some(("mtu", n)) => IfChange::Mtu(n.parse().unwrap_or(0)),
                        Some(("addr", a)) => match a.parse() {
                            Ok(a) => IfChange::Address(a),
                            Err(_) => return false,
                        },
                        _ => return false,
                    },
                });
            }
            if let Some(d) = desc {
                wanted.push(IfChange::Description(d));
            }
            args.len() >= 3 && device == args[0] && interface == args[1] && *changes == wanted
        }
        (
            "route+",
            Intent::AddStaticRoute {
                device,
                prefix,
                next_hop,
            },
        ) => {
            args.len() == 3
                && device == args[0]
                && prefix.to_string() == args[1]
                && next_hop.to_string() == args[2]
        }
        ("route-", Intent::RemoveStaticRoute { device, prefix, .. }) => {
            args.len() == 2 && device == args[0] && prefix.to_string() == args[1]
        }
        ("decom", Intent::DecommissionDevice { devices }) => {
            args.len() == 1 && devices.join(",") == args[0]
        }
        ("decom-if", Intent::DecommissionInterface { device, interface }) => {
            args.len() == 2 && device == args[0] && interface == args[1]
        }
        ("decom-link", Intent::DecommissionLink { a, b }) => {
            let (x, y) = (
                pair(args.first().copied().unwrap_or_default()),
                pair(args.get(1).copied().unwrap_or_default()),
            );
            (*a == x && *b == y) || (*a == y && *b == x)
        }
        _ => other_intent_matches(kind, args, got),
    }
}

/// Readings the table names that older intents had no variant for.
fn other_intent_matches(kind: &str, args: &[&str], got: &Intent) -> bool {
    match (kind, got) {
        ("route+", Intent::AddDiscardRoute { device, prefix }) => {
            args.len() == 3
                && device == args[0]
                && prefix.to_string() == args[1]
                && args[2] == "discard"
        }
        ("decom-ifs", Intent::DecommissionInterfaces { interfaces }) => {
            let want: Vec<(String, String)> = args
                .first()
                .copied()
                .unwrap_or_default()
                .split(',')
                .map(pair)
                .collect();
            *interfaces == want
        }
        _ => false,
    }
}

/// The workflow an intent belongs to.
fn workflow_of(i: &Intent) -> &'static str {
    if i.is_removal() {
        "decommission_impact"
    } else {
        "change_plan"
    }
}

/// Whether each expectation is what one of the question's candidate requests reads as.
fn offers(expected: &str, got: &Resolution, facts: &Facts) -> bool {
    let offered: Vec<Intent> = candidate_requests(got)
        .iter()
        .filter_map(|c| match resolve(c, facts) {
            Resolution::Intent(i) => Some(i),
            _ => None,
        })
        .collect();
    expected
        .split(" ; ")
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .all(|e| offered.iter().any(|i| intent_matches(e, i)))
}

/// Whether the request is read as the row expects.
fn read_right(request: &str, expected: &str, facts: &Facts, cat: &Catalog) -> Result<(), String> {
    let got = resolve(request, facts);
    let routed = route(cat, request);
    let routed_to = match &routed {
        Route::Workflow { workflow, .. } => Some(workflow.name.as_str()),
        _ => None,
    };
    let (kind, rest) = expected.split_once(' ').unwrap_or((expected, ""));
    let ok = match kind {
        "refuse" => matches!(&got, Resolution::Refuse { what } if what.contains(rest)),
        "ask" => question(&got).is_some() && routed_to.is_some() && offers(rest, &got, facts),
        "one-change" => {
            question(&got).is_some_and(|q| q.contains("one change per plan"))
                && !matches!(routed, Route::None)
                && offers(rest, &got, facts)
        }
        _ => match &got {
            Resolution::Intent(i) => {
                intent_matches(expected, i) && routed_to == Some(workflow_of(i))
            }
            _ => false,
        },
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{request}\n    want {expected}\n    got  {got:?}\n    routed {routed_to:?}"
        ))
    }
}

#[test]
fn requests_as_engineers_write_them_are_read_right() {
    let text = std::fs::read_to_string(common::crate_dir().join("fixtures/requests/table.txt"))
        .expect("the request table");
    let facts = demo_facts();
    let cat = load(&NETOPS, &AgentDir::Bundled).expect("bundled workflows load");
    let show_held = std::env::var_os("OLAV_TABLE_SHOW_HELD").is_some();
    let (mut tuning, mut held) = ((0, 0), (0, 0));
    let mut misses = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (set, rest) = line.split_once(' ').expect("set");
        let (request, expected) = rest.split_once(" => ").expect("=> expectation");
        let result = read_right(request.trim(), expected.trim(), &facts, &cat);
        let tally = if set == "T" { &mut tuning } else { &mut held };
        tally.1 += 1;
        match result {
            Ok(()) => tally.0 += 1,
            Err(m) if set == "T" || show_held => misses.push(m),
            Err(_) => {}
        }
    }
    println!(
        "request table: tuning {}/{}, held out {}/{}",
        tuning.0, tuning.1, held.0, held.1
    );
    for m in &misses {
        println!("{m}");
    }
    assert!(tuning.1 + held.1 >= 200, "{} requests", tuning.1 + held.1);
    assert!(
        tuning.0 >= TUNING_FLOOR && held.0 >= HELD_OUT_FLOOR,
        "tuning {}/{} (floor {TUNING_FLOOR}), held out {}/{} (floor {HELD_OUT_FLOOR})",
        tuning.0,
        tuning.1,
        held.0,
        held.1
    );
}
