//! BGP over RIBs made for it alone (`rib::bgp_over`: each speaker's rows for what BGP
//! looks up, widened while it looks up more) gives what BGP over the whole RIBs gives:
//! on every lab of the corpus and on a generated network.

use super::bgp;
use super::rib::{bgp_over, finish, igps, prepare, speakers, DeviceInput, Prepared};
use crate::import::{parse_snapshot, Snapshot};
use crate::model::DeviceConfig;
use std::path::Path;

/// Asserts that every BGP speaker of `devices` learns the same from scoped RIBs as from
/// whole ones; how many speakers learned a route.
fn same_bgp(name: &str, devices: &[DeviceInput<'_>]) -> usize {
    let mut prepared: Vec<Prepared> = devices.iter().map(|d| prepare(*d)).collect();
    let sp = devices
        .iter()
        .zip(&prepared)
        .map(|(d, p)| speakers(*d, p))
        .collect();
    let igp = igps(&mut prepared, sp);
    let scoped = bgp_over(&prepared, |d, only| {
        let rows = igp[d]
            .0
            .iter()
            .filter(|r| only.is_none_or(|o| o.contains(&r.network)))
            .cloned()
            .collect();
        (rows, igp[d].1.clone())
    });
    let ribs: Vec<Vec<_>> = prepared
        .iter()
        .zip(&igp)
        .map(|(p, (r, i))| finish(p, r, i).routes)
        .collect();
    let refs: Vec<&[_]> = ribs.iter().map(Vec::as_slice).collect();
    let empty = DeviceConfig::default();
    let inputs: Vec<DeviceInput<'_>> = prepared
        .iter()
        .map(|p| DeviceInput {
            hostname: &p.hostname,
            vendor: p.vendor,
            config: p.bgp.as_deref().unwrap_or(&empty),
            text: "",
        })
        .collect();
    let mut whole = bgp::routes(&inputs, &refs, &[]);
    let mut n = 0;
    for (d, s) in scoped.into_iter().enumerate() {
        if let Some(s) = s {
            n += usize::from(!s.0.is_empty());
            assert_eq!(s, whole.take(d), "{name}: {}", prepared[d].hostname);
        }
    }
    n
}

#[test]
fn scoped_ribs_give_the_whole_ribs_bgp_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lab-validation");
    let mut labs: Vec<_> = std::fs::read_dir(&root)
        .expect("corpus")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("configs").is_dir())
        .collect();
    labs.sort();
    let mut learning = 0;
    for lab in &labs {
        let snap = Snapshot::from_dir(lab).expect("snapshot");
        let parsed = parse_snapshot(&snap).expect("parses");
        let inputs: Vec<DeviceInput<'_>> = parsed.devices.iter().map(DeviceInput::of).collect();
        learning += same_bgp(&lab.display().to_string(), &inputs);
    }
    assert!(
        learning > 20,
        "{learning} BGP speakers learn a route in the corpus"
    );
}

#[test]
fn scoped_ribs_give_the_whole_ribs_bgp_on_a_generated_network() {
    let g = crate::synth::generate(700, 1);
    let parsed = parse_snapshot(&g.to_snapshot()).expect("parses");
    let inputs: Vec<DeviceInput<'_>> = parsed.devices.iter().map(DeviceInput::of).collect();
    let n = same_bgp("synth 700", &inputs);
    // The borders and cores learn the other borders' prefix (the distribution switches
    // reach its next hops only through the default route, less specific than the prefix:
    // not installed, as the devices do).
    assert!(n >= 8, "{n} BGP speakers learn a route");
}

/// Each device's OSPF routes for a few prefixes ([`super::ospf::Learned::device_for`])
/// are its whole table's rows for them.
fn same_ospf(name: &str, devices: &[DeviceInput<'_>]) {
    let ospf: Vec<_> = devices
        .iter()
        .map(|d| speakers(*d, &prepare(*d)).ospf)
        .collect();
    let names: Vec<&str> = devices.iter().map(|d| d.hostname).collect();
    let learned = super::ospf::routes(&names, ospf);
    for (d, name_d) in names.iter().enumerate() {
        let (all, _) = learned.device(d);
        // Every other prefix of its table, and one it does not hold.
        let mut only: super::FastSet<ipnet::Ipv4Net> = all
            .iter()
            .map(|r| r.network)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .step_by(2)
            .collect();
        only.insert("192.0.2.0/24".parse().expect("prefix"));
        let want: Vec<_> = all
            .into_iter()
            .filter(|r| only.contains(&r.network))
            .collect();
        assert_eq!(
            learned.device_for(d, Some(&only)).0,
            want,
            "{name}: {name_d}"
        );
    }
}

#[test]
fn ospf_routes_for_a_few_prefixes_are_the_whole_tables_rows() {
    let g = crate::synth::generate(700, 1);
    let parsed = parse_snapshot(&g.to_snapshot()).expect("parses");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lab-validation");
    let mut nets = vec![("synth 700".to_owned(), parsed)];
    for lab in std::fs::read_dir(&root)
        .expect("corpus")
        .filter_map(Result::ok)
    {
        if let Ok(p) = Snapshot::from_dir(&lab.path()).and_then(|s| parse_snapshot(&s)) {
            nets.push((lab.path().display().to_string(), p));
        }
    }
    for (name, parsed) in &nets {
        let inputs: Vec<DeviceInput<'_>> = parsed.devices.iter().map(DeviceInput::of).collect();
        same_ospf(name, &inputs);
    }
}
