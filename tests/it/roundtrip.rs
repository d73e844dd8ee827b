//! Plan then rollback leaves every device as it was: for every plan olav drafts on the
//! demo network (IOS, EOS and the Junos router gamma-border-1), on an NX-OS site, on two
//! IOS-XR labs and on an FRR network (Cumulus and plain FRR), the stored config with the
//! plan's lines and then the rollback's lines applied parses to the same device model as
//! the stored config alone (source line numbers and statement order aside). And the
//! plan's lines alone do change the model, so the comparison is not vacuous.
//!
//! The Cisco family and Junos are checked twice: lines appended to the stored text, and
//! through the candidate builder. IOS-XR and FRR plans are `configure` … `commit` and
//! vtysh sessions, which no stored configuration holds: they are checked through the
//! candidate builder, the one every check reads.

use crate::common;

use olav::agents::analyzer::draft::{self, Ctx, Draft};
use olav::agents::analyzer::facts::Facts;
use olav::agents::analyzer::intent::{resolve, IfChange, Intent, Resolution};
use olav::dialect::candidate_text;
use olav::import::parse::parser_for;
use olav::model::{DeviceConfig, Vendor};
use olav::state::StateDb;
use olav::topology::Network;
use std::collections::BTreeSet;
use std::path::Path;

/// The parsed model with what legitimately differs removed: line numbers, statement
/// order, counters and warnings; references as a set (a re-added line references again).
fn normalised(mut c: DeviceConfig) -> String {
    for i in &mut c.interfaces {
        i.line = 0;
        for a in &mut i.addresses {
            a.line = 0;
        }
    }
    // Order carries no meaning: a Junos rollback re-adds a deleted interface's statements
    // after the others, as the device itself would list them.
    c.interfaces.sort_by(|a, b| a.name.cmp(&b.name));
    for i in &mut c.interfaces {
        i.addresses.sort_by_key(|a| format!("{a:?}"));
    }
    if let Some(b) = &mut c.bgp {
        b.line = 0;
        for n in &mut b.neighbors {
            n.line = 0;
            n.address_families.sort();
        }
        b.neighbors
            .sort_by_key(|n| (n.vrf.clone(), n.peer.to_string()));
        for n in &mut b.networks {
            n.line = 0;
        }
    }
    for r in &mut c.static_routes {
        r.line = 0;
    }
    c.static_routes.sort_by_key(|r| format!("{r:?}"));
    for o in &mut c.ospf_networks {
        o.line = 0;
    }
    for s in &mut c.structures {
        s.line = 0;
    }
    let refs: BTreeSet<String> = c
        .references
        .iter()
        .map(|r| format!("{:?} {} {}", r.kind, r.name, r.context))
        .collect();
    let defs: BTreeSet<String> = c.structures.iter().map(|s| format!("{s:?}")).collect();
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{refs:?}\n{defs:?}",
        c.hostname, c.interfaces, c.bgp, c.static_routes, c.ospf_networks, c.os_version
    )
}

struct Net {
    _tmp: tempfile::TempDir,
    db: StateDb,
    facts: Facts,
    net: Network,
}

fn load(snapshot: &Path) -> Net {
    let tmp = tempfile::tempdir().expect("tempdir");
    let parsed = common::parsed(snapshot);
    let db = common::state_db(&tmp.path().join("s.db"), &parsed);
    let facts = Facts::load(&db).expect("facts");
    let net = Network::load(&db).expect("network");
    Net {
        _tmp: tmp,
        db,
        facts,
        net,
    }
}

/// Every intent worth drafting on the network: each device, interface attribute, link,
/// session, provider and static route.
fn intents(n: &Net) -> Vec<Intent> {
    let f = &n.facts;
    let mut requests: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut read = |r: String| requests.push(r);
    for d in f.devices.keys() {
        read(format!("decommission {d}"));
        for p in f.providers_of(d) {
            read(format!("add a redundant uplink to AS{} on {d}", p.1));
            read(format!("remove the AS{} peer from {d}", p.1));
        }
        read(format!(
            "add an eBGP peering to Cogent AS174 on {d} link 198.18.7.1/31"
        ));
    }
    for s in &f.sessions {
        read(format!(
            "remove the BGP neighbor {} on {}",
            s.peer, s.hostname
        ));
    }
    if let Some(d) = f.devices.keys().next() {
        read(format!(
            "add a static route to 10.198.0.0/16 via 10.0.1.1 on {d}"
        ));
    }
    for r in &f.routes {
        read(format!(
            "remove the static route {} on {}",
            r.prefix, r.hostname
        ));
    }
    let mut k = 0u8;
    for d in f.devices.keys() {
        for i in f.interfaces.get(d).into_iter().flatten() {
            let l = i.name.to_ascii_lowercase();
            if l.starts_with("mgmt") || l.starts_with("management") || i.vrf.contains("MGMT") {
                continue;
            }
            let mut changes = vec![
                vec![IfChange::Description("round trip".into())],
                vec![IfChange::Mtu(if i.mtu == Some(9100) { 9000 } else { 9100 })],
                vec![if i.admin_state == "down" {
                    IfChange::NoShutdown
                } else {
                    IfChange::Shutdown
                }],
            ];
            if i.description.is_some() {
                changes.push(vec![IfChange::NoDescription]);
            }
            if i.switchport_mode.is_none() && !l.starts_with("loopback") {
                k = k.wrapping_add(2);
                changes.push(vec![IfChange::Address(
                    format!("10.199.{k}.0/31").parse().expect("net"),
                )]);
            }
            for c in changes {
                out.push(Intent::ModifyInterface {
                    device: d.clone(),
                    interface: i.name.clone(),
                    changes: c,
                });
            }
            out.push(Intent::DecommissionInterface {
                device: d.clone(),
                interface: i.name.clone(),
            });
        }
    }
    // Every link once: from its A end's device.
    for d in f.devices.keys() {
        for (a, b) in f.links_of(d).into_iter().filter(|(a, _)| a.0 == *d) {
            out.push(Intent::DecommissionLink { a, b });
        }
    }
    for r in requests {
        if let Resolution::Intent(i) = resolve(&r, f) {
            out.push(i);
        }
    }
    out
}

/// Every intent drafted on `snapshot`, each plan and its rollback applied; at least
/// `min_plans` plans, and every kind of plan in `kinds` among them.
fn check_round_trips(snapshot: &Path, min_plans: usize) {
    check_round_trips_of(snapshot, min_plans, &[]);
}

fn check_round_trips_of(snapshot: &Path, min_plans: usize, kinds: &[&str]) {
    let n = load(snapshot);
    let mut drafted: BTreeSet<String> = BTreeSet::new();
    let config = |d: &str| n.db.config_text(d).ok().flatten();
    let ctx = Ctx {
        request: "round trip",
        workflow: "change_plan",
        now: "2026-12-01T00:00:00Z",
        reading: "Understood: round trip",
        config: &config,
    };
    let mut plans = 0;
    let mut failures = Vec::new();
    for intent in intents(&n) {
        let Ok(Draft { plan, .. }) = draft::draft(&intent, &n.facts, &n.net, &ctx) else {
            continue;
        };
        plans += 1;
        drafted.insert(plan.header.intent.clone());
        let devices: BTreeSet<&str> = plan
            .implementation
            .iter()
            .map(|b| b.device.as_str())
            .collect();
        for d in devices {
            let os = n.facts.devices.get(d).map_or("ios", |x| x.os.as_str());
            let parser = parser_for(Vendor::from_os(os));
            let base = config(d).expect("stored config");
            let lines = |blocks: &[olav::plan::ConfigBlock]| {
                blocks
                    .iter()
                    .filter(|b| b.device == d)
                    .map(|b| format!("\n{}\n", b.text))
                    .collect::<String>()
            };
            let applied = format!("{base}{}", lines(&plan.implementation));
            let restored = format!("{applied}{}", lines(&plan.rollback));
            let before = normalised(parser.parse(&base));
            let v = Vendor::from_os(os);
            let appended = !matches!(v, Vendor::CiscoIosXr | Vendor::Frr);
            if appended && normalised(parser.parse(&applied)) == before {
                failures.push(format!("{}: the plan changes nothing on {d}", plan.title));
            }
            if appended && normalised(parser.parse(&restored)) != before {
                failures.push(format!(
                    "{}: plan + rollback does not restore {d}\n--- plan\n{}\n--- rollback\n{}",
                    plan.title,
                    lines(&plan.implementation),
                    lines(&plan.rollback)
                ));
            }
            // The same through the one candidate builder, which edits removals out of
            // the stored config as the device would.
            let candidate = candidate_text(v, &base, &lines(&plan.implementation));
            let back = candidate_text(v, &candidate, &lines(&plan.rollback));
            if normalised(parser.parse(&candidate)) == before {
                failures.push(format!(
                    "{}: the candidate of {d} equals its stored config",
                    plan.title
                ));
            }
            if normalised(parser.parse(&back)) != before {
                failures.push(format!(
                    "{}: the candidate with the rollback applied does not restore {d}\n--- candidate\n{candidate}\n--- after rollback\n{back}",
                    plan.title
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s) in {plans} plans:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(plans >= min_plans, "only {plans} plans drafted");
    for k in kinds {
        assert!(drafted.contains(*k), "no {k} plan: {drafted:?}");
    }
}

/// Every intent olav drafts on IOS-XR and FRR (a redundant uplink needs a public provider
/// AS: the IOS-XR labs peer with private ones, so there it is a new peering).
const XR_AND_FRR_KINDS: &[&str] = &[
    "add_peering",
    "modify_interface",
    "add_static_route",
    "remove_static_route",
    "remove_session",
    "decommission_device",
    "decommission_interface",
    "decommission_link",
];

#[test]
fn every_iosxr_plan_and_its_rollback_restore_the_devices() {
    check_round_trips_of(
        &common::fixture("lab-validation/iosxr_ebgp_basic"),
        180,
        XR_AND_FRR_KINDS,
    );
    check_round_trips_of(
        &common::fixture("lab-validation/iosxr_ibgp_rr_over_ospf"),
        240,
        XR_AND_FRR_KINDS,
    );
}

#[test]
fn every_frr_plan_and_its_rollback_restore_the_devices() {
    let kinds = [XR_AND_FRR_KINDS, &["add_uplink"]].concat();
    check_round_trips_of(&common::fixture("dialect/frr-net"), 65, &kinds);
}

#[test]
fn every_demo_plan_and_its_rollback_restore_the_devices() {
    check_round_trips(&common::demo_dir(), 150);
}

#[test]
fn every_nxos_plan_and_its_rollback_restore_the_devices() {
    check_round_trips(&common::fixture("nxos-site"), 25);
}

/// Every plan that configures the demo's Junos router: plan then rollback restores its
/// model, over every intent drafted on it; and the test has teeth — dropping any `set`
/// line of the rollback (or its only line) leaves the device changed, and is caught.
#[test]
fn every_junos_plan_round_trips_and_a_mutated_rollback_is_caught() {
    const DEVICE: &str = "gamma-border-1";
    let n = load(&common::demo_dir());
    let config = |d: &str| n.db.config_text(d).ok().flatten();
    let ctx = Ctx {
        request: "round trip",
        workflow: "change_plan",
        now: "2026-12-01T00:00:00Z",
        reading: "Understood: round trip",
        config: &config,
    };
    let parser = parser_for(Vendor::JuniperJunos);
    let base = config(DEVICE).expect("stored config");
    let before = normalised(parser.parse(&base));
    let mut extra = vec![
        format!("add a static route to 10.198.0.0/16 via 10.40.10.30 on {DEVICE}"),
        format!("add a static route to 10.40.20.0/24 via 10.40.10.21 on {DEVICE}"),
    ];
    extra.push(format!(
        "add a redundant uplink to the Telia peer on {DEVICE}"
    ));
    let mut all = intents(&n);
    all.extend(extra.iter().filter_map(|r| match resolve(r, &n.facts) {
        Resolution::Intent(i) => Some(i),
        _ => None,
    }));
    let mut kinds: BTreeSet<String> = BTreeSet::new();
    let mut failures = Vec::new();
    let mut plans = 0;
    for intent in all {
        let Ok(Draft { plan, .. }) = draft::draft(&intent, &n.facts, &n.net, &ctx) else {
            continue;
        };
        let block = |blocks: &[olav::plan::ConfigBlock]| -> Vec<String> {
            blocks
                .iter()
                .filter(|b| b.device == DEVICE)
                .flat_map(|b| b.text.lines().map(str::to_owned))
                .collect()
        };
        let (apply, rollback) = (block(&plan.implementation), block(&plan.rollback));
        if apply.is_empty() {
            continue;
        }
        plans += 1;
        kinds.insert(plan.header.intent.clone());
        let text =
            |lines: &[String]| format!("{base}\n{}\n{}\n", apply.join("\n"), lines.join("\n"));
        if normalised(parser.parse(&format!("{base}\n{}\n", apply.join("\n")))) == before {
            failures.push(format!("{}: the plan changes nothing", plan.title));
        }
        if normalised(parser.parse(&text(&rollback))) != before {
            failures.push(format!(
                "{}: plan + rollback does not restore {DEVICE}\n--- plan\n{}\n--- rollback\n{}",
                plan.title,
                apply.join("\n"),
                rollback.join("\n")
            ));
        }
        let only = rollback.len() == 1;
        for (k, l) in rollback.iter().enumerate() {
            if !(only || l.starts_with("set ")) {
                continue;
            }
            let mut mutated = rollback.clone();
            mutated.remove(k);
            if normalised(parser.parse(&text(&mutated))) == before {
                failures.push(format!(
                    "{}: the rollback without `{l}` still passes: the comparison has no teeth",
                    plan.title
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s) in {plans} Junos plans:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for k in [
        "add_uplink",
        "add_peering",
        "remove_session",
        "decommission_peer",
        "modify_interface",
        "add_static_route",
        "remove_static_route",
        "decommission_device",
        "decommission_interface",
        "decommission_link",
    ] {
        assert!(
            kinds.contains(k),
            "no {k} plan configured {DEVICE}: {kinds:?}"
        );
    }
    assert!(plans >= 40, "only {plans} Junos plans");
}
