//! The scoped candidate checks ([`super::findings`]) equal the checks run on the whole
//! candidate network, for random changes on generated networks: addresses moved onto
//! other devices' (duplicates), wider subnets (overlaps), peerings repointed, ranges
//! listened on, ports shut, devices removed.

use super::{within, Footprints};
use crate::checks::model::{far_ends, link_interfaces, Model};
use crate::checks::{run, Findings};
use crate::model::{AddressKind, BgpPeer, InterfaceAddress};
use crate::network::ParsedDevice;
use ipnet::IpNet;
use proptest::prelude::*;
use std::sync::Arc;

/// `olav synth`'s network, parsed and cabled as the stored model holds it.
pub(crate) fn network(devices: usize, seed: u64) -> Vec<Arc<ParsedDevice>> {
    let p = crate::import::parse_snapshot(&crate::synth::generate(devices, seed).to_snapshot())
        .expect("the generated network parses");
    let links: Vec<crate::model::LinkEnds> =
        p.links.iter().map(|l| (l.a.clone(), l.b.clone())).collect();
    let far = far_ends(&links);
    let mut out: Vec<Arc<ParsedDevice>> = p
        .devices
        .iter()
        .map(|d| {
            let mut config = d.config.clone();
            config.warnings = Vec::new();
            link_interfaces(&d.hostname, &mut config, &far);
            Arc::new(ParsedDevice {
                hostname: d.hostname.clone(),
                os: d.vendor.os_name().to_owned(),
                source_file: d.source_file.clone(),
                vtep: Vec::new(),
                config: *config,
                down_svis: Vec::new(),
            })
        })
        .collect();
    out.sort_by(|a, b| a.hostname.cmp(&b.hostname));
    unnumbered(&mut out);
    out
}

/// Peers every BGP speaker's cabled neighbors that speak BGP too over their cable as
/// well, unnumbered (the only peerings the checks find through cables).
fn unnumbered(devices: &mut [Arc<ParsedDevice>]) {
    let speakers: std::collections::BTreeSet<String> = devices
        .iter()
        .filter(|d| {
            d.config
                .bgp
                .as_ref()
                .is_some_and(|b| !b.neighbors.is_empty())
        })
        .map(|d| d.hostname.clone())
        .collect();
    for d in devices.iter_mut() {
        let Some(first) = d
            .config
            .bgp
            .as_ref()
            .and_then(|b| b.neighbors.first().cloned())
        else {
            continue;
        };
        let over: Vec<String> = d
            .config
            .interfaces
            .iter()
            .filter(|i| {
                i.linked_to
                    .as_ref()
                    .is_some_and(|f| speakers.contains(&f.0))
            })
            .map(|i| i.name.clone())
            .collect();
        let d = Arc::make_mut(d);
        if let Some(bgp) = d.config.bgp.as_mut() {
            for name in over {
                let mut nb = first.clone();
                nb.peer = BgpPeer::Interface(name);
                bgp.neighbors.push(nb);
            }
        }
    }
}

/// Device `k`: a BGP speaker for even `k` (most of the checks' rows are theirs), any
/// device for odd.
fn pick(base: &[Arc<ParsedDevice>], k: usize) -> usize {
    let speakers: Vec<usize> = (0..base.len())
        .filter(|&i| base[i].config.bgp.is_some())
        .collect();
    if k % 2 == 0 && !speakers.is_empty() {
        speakers[(k / 2) % speakers.len()]
    } else {
        (k * 37) % base.len()
    }
}

/// A network of several sites, made once: within a site most devices are related.
pub(crate) fn generated() -> &'static [Arc<ParsedDevice>] {
    static NET: std::sync::OnceLock<Vec<Arc<ParsedDevice>>> = std::sync::OnceLock::new();
    NET.get_or_init(|| network(300, 2))
}

/// One change to one device; numbers pick interfaces, neighbors and other devices.
#[derive(Debug, Clone)]
pub(crate) enum Edit {
    /// Remove the device.
    Remove,
    /// Shut (or bring up) an interface.
    Toggle(usize),
    /// Give an interface another device's interface address (a duplicate).
    Take(usize, usize, usize),
    /// Add to an interface a subnet holding another device's (an overlap).
    Wider(usize, usize, usize, u8),
    /// Point a neighbor at another device's address.
    Repoint(usize, usize, usize),
    /// Remove a neighbor.
    Drop(usize),
    /// Listen on a range holding another device's address.
    Listen(usize, usize, u8),
    /// Take an interface's addresses away.
    Clear(usize),
}

/// Edits among a dozen devices and their first interfaces and neighbors, so that one
/// edit often meets another's device (a duplicate made, then ended).
pub(crate) fn edit() -> impl Strategy<Value = Edit> {
    let n = || 0..12usize;
    prop_oneof![
        Just(Edit::Remove),
        n().prop_map(Edit::Toggle),
        (n(), n(), n()).prop_map(|(a, b, c)| Edit::Take(a, b, c)),
        (n(), n(), n(), 8u8..30).prop_map(|(a, b, c, l)| Edit::Wider(a, b, c, l)),
        (n(), n(), n()).prop_map(|(a, b, c)| Edit::Repoint(a, b, c)),
        n().prop_map(Edit::Drop),
        (n(), n(), 8u8..32).prop_map(|(a, b, l)| Edit::Listen(a, b, l)),
        n().prop_map(Edit::Clear),
    ]
}

/// An address of device `d` (its `k`th addressed interface's first), if it has one.
fn address_of(d: &ParsedDevice, k: usize) -> Option<IpNet> {
    let with: Vec<&crate::model::Interface> = d
        .config
        .interfaces
        .iter()
        .filter(|i| !i.addresses.is_empty())
        .collect();
    (!with.is_empty()).then(|| with[k % with.len()].addresses[0].address)
}

/// Applies `edits` ((device, edit), by number) to `base`: the changed devices as the
/// edits leave them, and the removed ones.
fn apply(
    base: &[Arc<ParsedDevice>],
    edits: &[(usize, Edit)],
) -> (Vec<Arc<ParsedDevice>>, Vec<String>) {
    let mut changed: std::collections::BTreeMap<usize, ParsedDevice> = Default::default();
    let mut removed = Vec::new();
    for (k, e) in edits {
        let di = pick(base, *k);
        if let Edit::Remove = e {
            removed.push(base[di].hostname.clone());
            continue;
        }
        let d = changed.entry(di).or_insert_with(|| (*base[di]).clone());
        let ifs = d.config.interfaces.len().max(1);
        let other = |j: usize, k: usize| address_of(&base[pick(base, j)], k);
        match e {
            Edit::Remove => {}
            Edit::Toggle(i) => {
                if let Some(i) = d.config.interfaces.get_mut(i % ifs) {
                    i.admin_up = !i.admin_up;
                }
            }
            Edit::Take(i, j, k) => {
                if let (Some(a), Some(i)) = (other(*j, *k), d.config.interfaces.get_mut(i % ifs)) {
                    i.addresses = vec![InterfaceAddress {
                        address: a,
                        kind: AddressKind::Primary,
                        line: 1,
                    }];
                }
            }
            Edit::Wider(i, j, k, len) => {
                if let (Some(a), Some(i)) = (other(*j, *k), d.config.interfaces.get_mut(i % ifs)) {
                    if let Ok(w) = IpNet::new(a.addr(), (*len).min(a.prefix_len())) {
                        i.addresses.push(InterfaceAddress {
                            address: w,
                            kind: AddressKind::Secondary,
                            line: 1,
                        });
                    }
                }
            }
            Edit::Repoint(b, j, k) => {
                let to = other(*j, *k);
                if let (Some(a), Some(bgp)) = (to, d.config.bgp.as_mut()) {
                    let count = bgp.neighbors.len();
                    if let Some(nb) = bgp.neighbors.get_mut(b % count.max(1)) {
                        nb.peer = BgpPeer::Address(a.addr());
                    }
                }
            }
            Edit::Drop(b) => {
                if let Some(bgp) = d.config.bgp.as_mut() {
                    if !bgp.neighbors.is_empty() {
                        let at = b % bgp.neighbors.len();
                        bgp.neighbors.remove(at);
                    }
                }
            }
            Edit::Listen(j, k, len) => {
                let to = other(*j, *k);
                if let (Some(a), Some(bgp)) = (to, d.config.bgp.as_mut()) {
                    if let (Some(first), Ok(r)) =
                        (bgp.neighbors.first().cloned(), IpNet::new(a.addr(), *len))
                    {
                        let mut nb = first;
                        nb.peer = BgpPeer::ListenRange(r.trunc());
                        nb.peer_asn = None;
                        bgp.neighbors.push(nb);
                    }
                }
            }
            Edit::Clear(i) => {
                if let Some(i) = d.config.interfaces.get_mut(i % ifs) {
                    i.addresses.clear();
                }
            }
        }
    }
    let changed = changed
        .into_iter()
        .filter(|(i, _)| !removed.contains(&base[*i].hostname))
        .map(|(_, d)| Arc::new(d))
        .collect();
    (changed, removed)
}

/// `got` has `want`'s rows, check by check (`context` says after what).
pub(crate) fn assert_same(got: &Findings, want: &Findings, context: &str) {
    assert_eq!(got.duplicates, want.duplicates, "duplicates {context}");
    assert_eq!(got.overlaps, want.overlaps, "overlaps {context}");
    assert_eq!(got.bgp, want.bgp, "BGP {context}");
    assert_eq!(got.references, want.references, "references {context}");
}

/// The checks on every device of `devices`.
pub(crate) fn checked(devices: &[Arc<ParsedDevice>]) -> Findings {
    run(
        &Model {
            devices: devices.to_vec(),
        },
        &[],
    )
}

/// `base` as `edits` leave it.
pub(crate) fn edited(
    base: &[Arc<ParsedDevice>],
    edits: &[(usize, Edit)],
) -> Vec<Arc<ParsedDevice>> {
    let (changed, removed) = apply(base, edits);
    base.iter()
        .filter(|d| !removed.contains(&d.hostname))
        .map(|d| {
            changed
                .iter()
                .find(|c| c.hostname == d.hostname)
                .map_or_else(|| Arc::clone(d), Arc::clone)
        })
        .collect()
}

/// The scoped answer equals the whole one; returns whether the candidate has problems.
fn same_as_whole(base: &[Arc<ParsedDevice>], edits: &[(usize, Edit)]) -> bool {
    let imported = checked(base);
    let footprints = Footprints::of(1, base.iter().cloned().map(Some));
    let (changed, removed) = apply(base, edits);
    let whole = checked(&edited(base, edits));
    let removed: Vec<&str> = removed.iter().map(String::as_str).collect();
    let scoped: Findings = within(
        &imported,
        &footprints,
        &changed,
        &removed,
        |i| base.get(i as usize).cloned(),
        1.0,
    )
    .expect("every device loads");
    assert_same(&scoped, &whole, &format!("after {edits:?}"));
    !whole.clean()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn the_scoped_checks_are_the_whole_ones_on_a_generated_network(
        before in proptest::collection::vec((0..12usize, edit()), 0..4),
        edits in proptest::collection::vec((0..12usize, edit()), 1..4)
    ) {
        // The network is first edited itself, so that it has problems (and devices
        // related by more than their cables) for the plan's edits to end or change.
        same_as_whole(&edited(generated(), &before), &edits);
    }
}

#[test]
fn a_duplicate_made_and_a_peering_broken_are_found_in_scope() {
    let base = network(60, 1);
    // Some edit in the list makes a problem the scope must report.
    let problems = (0..40)
        .filter(|k| {
            same_as_whole(
                &base,
                &[(*k, Edit::Take(0, k + 7, 0)), (k + 3, Edit::Drop(0))],
            )
        })
        .count();
    assert!(
        problems > 0,
        "no edit made a problem: the test would not see a missed one"
    );
}

#[test]
fn a_small_change_reaches_a_small_part_of_the_network() {
    let base = network(400, 1);
    let imported = checked(&base);
    let footprints = Footprints::of(1, base.iter().cloned().map(Some));
    let access = base
        .iter()
        .position(|d| d.hostname.contains("-acc-"))
        .expect("the synth has access switches");
    let mut port = (*base[access]).clone();
    port.config.interfaces[0].admin_up = !port.config.interfaces[0].admin_up;
    let changed = vec![Arc::new(port)];
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let scoped = super::findings(&imported, &footprints, &changed, &[], |i| {
        seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        base.get(i as usize).cloned()
    });
    assert!(
        scoped.is_some(),
        "an access switch's port reaches most of the network"
    );
    let read = seen.into_inner();
    assert!(
        read < base.len() / 4,
        "{read} of {} devices read",
        base.len()
    );
}

#[test]
fn a_device_that_does_not_decode_leaves_the_whole_network_to_check() {
    let base = network(60, 1);
    let imported = checked(&base);
    let mut given: Vec<Option<Arc<ParsedDevice>>> = base.iter().cloned().map(Some).collect();
    given[1] = None;
    let footprints = Footprints::of(1, given.into_iter());
    assert!(!footprints.complete);
    let (changed, _) = apply(&base, &[(0, Edit::Toggle(0))]);
    let scoped = within(
        &imported,
        &footprints,
        &changed,
        &[],
        |i| base.get(i as usize).cloned(),
        1.0,
    );
    assert!(scoped.is_none(), "scoped on footprints that miss a device");
}
