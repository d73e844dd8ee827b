//! The routing model never panics nor hangs on damaged configurations: real lab configs
//! (fixtures/lab-validation) with lines dropped, repeated and their numbers changed, the
//! whole lab computed at once, then every device traced towards an address.

use crate::common;
use olav::import::parse::parser_for;
use olav::import::{parse_snapshot, Snapshot};
use olav::model::{DeviceConfig, Vendor};
use olav::routing::trace::{trace, Addresses};
use olav::routing::{network, DeviceInput, DeviceRib};
use proptest::prelude::*;
use std::path::PathBuf;

/// Every lab's devices as the import reads them: (vendor, config text), by lab.
fn labs() -> Vec<Vec<(Vendor, String)>> {
    let root = common::fixture("lab-validation");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/lab-validation")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("configs").is_dir())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|d| {
            let snap = Snapshot::from_dir(d).expect("a lab snapshot");
            let parsed = parse_snapshot(&snap).expect("a lab parses");
            parsed
                .devices
                .into_iter()
                .map(|d| (d.vendor, d.text))
                .collect()
        })
        .collect()
}

/// One damage to a config: (which line, what is done to it).
pub fn damage(text: &str, edits: &[(usize, u8, u32)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for &(at, op, n) in edits {
        if lines.is_empty() {
            break;
        }
        let i = at % lines.len();
        match op % 4 {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            // Every number on the line replaced (costs, masks, AS numbers, distances).
            2 => {
                let l: String = lines[i]
                    .split(' ')
                    .map(|w| {
                        if !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()) {
                            n.to_string()
                        } else {
                            w.to_owned()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                lines[i] = l;
            }
            _ => {
                let half = lines[i].len() / 2;
                let cut = (0..=half)
                    .rev()
                    .find(|&k| lines[i].is_char_boundary(k))
                    .unwrap_or(0);
                lines[i].truncate(cut);
            }
        }
    }
    lines.join("\n")
}

/// The undamaged labs are all read (the property below would pass vacuously otherwise).
#[test]
fn every_lab_config_is_read() {
    let all = labs();
    assert_eq!(all.len(), 23);
    assert!(all.iter().all(|lab| !lab.is_empty()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn damaged_labs_compute_and_trace(
        lab in 0usize..64,
        edits in proptest::collection::vec((0usize..4000, 0u8..4, 0u32..70000), 0..40),
        dst in any::<[u8; 4]>(),
    ) {
        let all = labs();
        let devices = &all[lab % all.len()];
        let texts: Vec<String> = devices.iter().map(|(_, t)| damage(t, &edits)).collect();
        let parsed: Vec<(String, Vendor, DeviceConfig)> = devices
            .iter()
            .zip(&texts)
            .enumerate()
            .map(|(i, ((v, _), t))| (format!("d{i}"), *v, parser_for(*v).parse(t)))
            .collect();
        let inputs: Vec<DeviceInput> = parsed
            .iter()
            .zip(&texts)
            .map(|((h, v, c), t)| DeviceInput { hostname: h, vendor: *v, config: c, text: t })
            .collect();
        let ribs: Vec<DeviceRib> = network(&inputs);
        prop_assert_eq!(ribs.len(), inputs.len());
        let mut addresses = Addresses::default();
        for (h, _, c) in &parsed {
            addresses.of_config(h, c);
        }
        let lookup = |h: &str| ribs.iter().find(|r| r.hostname == h).cloned().map(std::sync::Arc::new);
        for (h, _, _) in &parsed {
            let b = trace(&lookup, &addresses, h, "default", dst.into());
            prop_assert!(!b.is_empty() && b.len() <= 256);
            prop_assert!(b.iter().all(|b| b.hops.len() <= 65));
        }
    }
}

/// The stored model (the network's OSPF kept shared, each RIB made when asked for) gives
/// every device the same RIB as computing the whole network at once, on every
/// developed-against lab and the demo.
#[test]
fn the_stored_model_answers_as_the_whole_network_computed_at_once() {
    let mut snaps: Vec<PathBuf> = std::fs::read_dir(common::fixture("lab-validation"))
        .expect("labs")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("configs").is_dir())
        .collect();
    snaps.sort();
    snaps.push(common::demo_dir());
    let (mut devices, mut bgp_rows) = (0usize, 0usize);
    for snap in snaps {
        let mut parsed =
            parse_snapshot(&Snapshot::from_dir(&snap).expect("snapshot")).expect("parses");
        let dir = tempfile::tempdir().expect("tempdir");
        let mut db = olav::state::StateDb::open(&dir.path().join("state.db")).expect("db");
        db.import(&parsed).expect("import");
        // The whole computation sees the cabling as the stored model does (unnumbered
        // OSPF and BGP run over it).
        let ends: Vec<olav::model::LinkEnds> = parsed
            .links
            .iter()
            .map(|l| (l.a.clone(), l.b.clone()))
            .collect();
        let far = olav::checks::model::far_ends(&ends);
        for d in parsed.devices.iter_mut() {
            olav::checks::model::link_interfaces(&d.hostname, &mut d.config, &far);
        }
        let model = olav::routing::RoutingModel::build(&db).expect("model");
        let inputs: Vec<DeviceInput> = parsed.devices.iter().map(DeviceInput::of).collect();
        for rib in network(&inputs) {
            let stored = model
                .device(&db, &rib.hostname)
                .expect("reads")
                .expect("the device is in the model");
            assert_eq!(
                stored.routes,
                rib.routes,
                "{} in {}",
                rib.hostname,
                snap.display()
            );
            assert_eq!(
                stored.incomplete,
                rib.incomplete,
                "{} in {}",
                rib.hostname,
                snap.display()
            );
            assert_eq!(
                stored.bgp,
                rib.bgp,
                "{} in {}",
                rib.hostname,
                snap.display()
            );
            devices += 1;
            bgp_rows += rib.bgp.len();
        }
    }
    // Not vacuous: every lab device and the demo's, BGP among them.
    assert!(devices >= 70, "{devices} devices compared");
    assert!(bgp_rows > 0);
}
