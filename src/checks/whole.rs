//! Every check on the whole network without decoding it whole: a run of devices at a
//! time, each run with the devices related to it (see [`super::scope`]), which are all
//! its rows read. At 50,000 devices the network decoded at once took 450 MB.
//!
//! A run's rows are exactly its devices' rows on the whole network: a duplicate's other
//! owners hold the same address, an overlap's container holds a range over the contained
//! subnet, a peering's far ends hold or refer to its addresses or share its cable — each
//! is related to the device and so decoded with it. An overlap is the contained subnet's
//! device's row, so every row belongs to one device and one run.

use super::scope::{footprint, hostnames, models, Footprints};
use super::{bgp, Findings};
use crate::network::ParsedDevice;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// Devices a run starts from; with those related to them, a run of the generated 50,000
/// devices decodes a few thousand.
pub const RUN: usize = 2048;

/// Every check's rows on the network `footprints` describes, `run` devices at a time;
/// `load` decodes a device by number. None when a device does not decode.
pub fn findings(
    footprints: &Footprints,
    load: impl Fn(u32) -> Option<Arc<ParsedDevice>>,
    run: usize,
) -> Option<Findings> {
    if !footprints.complete {
        return None;
    }
    let total = footprints.hostnames.len() as u32;
    let load =
        |i: u32| load(i).filter(|d| footprints.hostnames.get(i as usize) == Some(&d.hostname));
    let run = run.max(1);
    let mut out = Findings::default();
    for start in (0..total).step_by(run) {
        let a: BTreeSet<u32> = (start..total.min(start + run as u32)).collect();
        let mut held: HashMap<u32, Arc<ParsedDevice>> = HashMap::with_capacity(a.len());
        let mut s = a.clone();
        for &i in &a {
            let d = load(i)?;
            footprints.related(&footprint(&d), &mut s);
            footprints.cabled_to(i, &mut s);
            held.insert(i, d);
        }
        let mut devices: Vec<(bool, Arc<ParsedDevice>)> = Vec::with_capacity(s.len());
        for i in s {
            let d = match held.remove(&i) {
                Some(d) => d,
                None => load(i)?,
            };
            devices.push((a.contains(&i), d));
        }
        let rows = of_run(&devices);
        out.duplicates.extend(rows.duplicates);
        out.overlaps.extend(rows.overlaps);
        out.bgp.extend(rows.bgp);
        out.references.extend(rows.references);
    }
    out.duplicates.sort();
    out.overlaps.sort();
    out.bgp.sort();
    out.references.sort();
    Some(out)
}

/// The rows of the devices marked (a run), read on all of `devices` (the run and the
/// devices related to it), in hostname order.
fn of_run(devices: &[(bool, Arc<ParsedDevice>)]) -> Findings {
    let (all, reached) = models(devices);
    let mine = hostnames(&reached);
    Findings {
        duplicates: super::duplicates(&all)
            .into_iter()
            .filter(|o| mine.contains(o.node.as_str()))
            .collect(),
        overlaps: super::overlaps_between(&all)
            .into_iter()
            .filter(|(_, [_, contained])| devices[*contained].0)
            .map(|(o, _)| o)
            .collect(),
        bgp: bgp::compatibility_of(&all, |d| devices[d].0),
        references: super::references(&reached),
    }
}

#[cfg(test)]
mod tests {
    use super::findings;
    use crate::checks::scope::tests::{
        assert_same, checked, edit, edited, generated, network, Edit,
    };
    use crate::checks::scope::Footprints;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// The whole network's checks, run by run, equal them run at once.
    fn same(devices: &[Arc<crate::network::ParsedDevice>], run_len: usize) -> bool {
        let footprints = Footprints::of(1, devices.iter().cloned().map(Some));
        let whole = checked(devices);
        let by_run = findings(&footprints, |i| devices.get(i as usize).cloned(), run_len)
            .expect("every device decodes");
        assert_same(&by_run, &whole, &format!("runs of {run_len}"));
        !whole.clean()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn run_by_run_the_checks_are_those_of_the_whole_network(
            edits in proptest::collection::vec((0..12usize, edit()), 0..6),
            run_len in 1..80usize,
        ) {
            same(&edited(generated(), &edits), run_len);
        }
    }

    #[test]
    fn problems_across_runs_are_found() {
        let base = network(60, 1);
        let problems = (0..30)
            .filter(|k| {
                same(
                    &edited(
                        &base,
                        &[(*k, Edit::Take(0, k + 7, 0)), (k + 3, Edit::Drop(0))],
                    ),
                    5,
                )
            })
            .count();
        assert!(
            problems > 0,
            "no edit made a problem: the test would not see a missed one"
        );
    }

    #[test]
    fn a_device_that_does_not_decode_gives_no_answer() {
        let base = network(30, 1);
        let footprints = Footprints::of(1, base.iter().cloned().map(Some));
        let answer = findings(
            &footprints,
            |i| (i != 7).then(|| base[i as usize].clone()),
            4,
        );
        assert!(answer.is_none());
    }
}
