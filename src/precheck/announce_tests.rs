//! The routing model's announcements ([`from_ribs`]) against the configurations' alone
//! ([`evaluate`]) on the demo network and generated ones: every difference is one the
//! routing model is right about (`docs/precheck.md`, "What the internet sees").

use super::announce::{evaluate, from_ribs, Announcements, Sent};
use super::candidate::Candidate;
use crate::import::{parse_snapshot, Snapshot};
use crate::precheck::checks::testkit::plan;
use crate::state::StateDb;
use std::collections::BTreeSet;

/// Both answers for a network as it is (a plan that changes nothing).
fn both(snap: &Snapshot) -> (Announcements, Announcements) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut db = StateDb::open(&dir.path().join("state.db")).expect("open");
    db.import(&parse_snapshot(snap).expect("parse"))
        .expect("import");
    let p = plan("set_description", Vec::new(), &[], &[]);
    let cand = Candidate::build(&db, &p).expect("candidate");
    let old = evaluate(&db, &cand, &[]).expect("old");
    let (ribs, _) = crate::routing::candidate::now(&db).expect("ribs");
    (old, from_ribs(ribs.iter(), ribs.iter(), &[]))
}

/// (sessions in both, prefixes in both, each difference in words).
fn compare(old: &[Sent], new: &[Sent]) -> (usize, usize, Vec<String>) {
    let key = |s: &Sent| (s.device.clone(), s.peer.clone());
    let keys: BTreeSet<_> = old.iter().chain(new).map(key).collect();
    let (mut sessions, mut agree, mut diff) = (0, 0, Vec::new());
    for k in keys {
        let o = old.iter().find(|s| key(s) == k);
        let n = new.iter().find(|s| key(s) == k);
        let (Some(o), Some(n)) = (o, n) else {
            diff.push(format!(
                "{k:?}: session old {} new {}",
                o.is_some(),
                n.is_some()
            ));
            continue;
        };
        sessions += 1;
        agree += o.prefixes.intersection(&n.prefixes).count();
        for p in o.prefixes.symmetric_difference(&n.prefixes) {
            diff.push(format!(
                "{k:?}: {p} old {} new {}",
                o.prefixes.contains(p),
                n.prefixes.contains(p)
            ));
        }
        if o.unknown.is_some() != n.unknown.is_some() {
            diff.push(format!(
                "{k:?}: unknown old {:?} new {:?}",
                o.unknown, n.unknown
            ));
        }
    }
    (sessions, agree, diff)
}

#[test]
fn the_demo_agrees_with_the_configurations_alone() {
    let (old, new) = both(&crate::demo::snapshot());
    let (sessions, agree, diff) = compare(&old.before, &new.before);
    eprintln!("demo: {sessions} sessions, {agree} prefixes agree, {diff:#?}");
    for s in &new.before {
        eprintln!("{} {} {:?}", s.device, s.peer, s.accepts_summary());
    }
    assert!(diff.is_empty(), "{diff:#?}");
}

#[test]
fn generated_networks_agree_with_the_configurations_alone() {
    for (devices, seed) in [(60, 1), (150, 2), (300, 3)] {
        let g = crate::synth::generate(devices, seed);
        let (old, new) = both(&g.to_snapshot());
        let (sessions, agree, diff) = compare(&old.before, &new.before);
        eprintln!("synth {devices}/{seed}: {sessions} sessions, {agree} prefixes agree, {} differences: {:#?}", diff.len(), diff.iter().take(20).collect::<Vec<_>>());
    }
}

/// The same comparison over every snapshot among the fixtures (the lab-validation and
/// real-network labs) and the corpus of real configurations: printed, for `docs/precheck.md` (`cargo test --lib
/// announce_tests::fixtures -- --ignored --nocapture`).
#[test]
#[ignore = "a measurement: prints the agreement over the fixture labs"]
fn fixtures_agreement() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut dirs = Vec::new();
    for group in [
        "lab-validation",
        "real-networks",
        "other-vendors",
        "fidelity",
    ] {
        let Ok(rd) = std::fs::read_dir(root.join(group)) else {
            continue;
        };
        dirs.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    dirs.push(root.join("other-vendors"));
    // The corpus of real configurations, where it is (`../shared/reference/configs`, or `OLAV_CORPUS`).
    let corpus = std::env::var_os("OLAV_CORPUS").map_or_else(
        || root.join("../../shared/reference/configs/lab-validation"),
        std::path::PathBuf::from,
    );
    if let Ok(rd) = std::fs::read_dir(&corpus) {
        dirs.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    dirs.sort();
    let (mut sessions, mut agree, mut diffs, mut labs) = (0, 0, 0, 0);
    for d in dirs {
        let Ok(snap) = Snapshot::from_dir(&d) else {
            continue;
        };
        if snap.configs.is_empty() {
            continue;
        }
        let (old, new) = both(&snap);
        let (s, a, diff) = compare(&old.before, &new.before);
        labs += 1;
        sessions += s;
        agree += a;
        diffs += diff.len();
        if s > 0 || !diff.is_empty() {
            eprintln!(
                "{}: {s} sessions, {a} prefixes agree, {diff:#?}",
                d.display()
            );
        }
    }
    eprintln!("{labs} snapshots: {sessions} sessions, {agree} prefixes agree, {diffs} differences");
}
