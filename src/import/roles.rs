//! Device roles when the state file gives none: inferred from the hostname's usual
//! words, then from the config (eBGP to an AS outside the network makes a border), then
//! from the topology (a stub is access; with no border or core known, the best-connected
//! devices are the core, so that the blast radius has anchors), and marked as inferred.

use super::links::Link;
use super::ParsedDevice;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Hostname words and the role each implies, most specific first.
const WORDS: &[(&str, &str)] = &[
    ("border", "border"),
    ("edge", "border"),
    ("bdr", "border"),
    ("inet", "border"),
    ("pe", "border"),
    ("core", "core"),
    ("spine", "core"),
    ("dist", "distribution"),
    ("distribution", "distribution"),
    ("agg", "distribution"),
    ("leaf", "access"),
    ("access", "access"),
    ("acc", "access"),
    ("asw", "access"),
    // `br` in hostnames is almost always a branch site's switch, not a border router.
    ("br", "access"),
    ("branch", "access"),
];

/// Fills in roles the state file did not give.
pub fn infer(devices: &mut [ParsedDevice]) {
    let internal_as: HashSet<u32> = devices
        .iter()
        .filter_map(|d| d.config.bgp.as_ref().and_then(|b| b.local_as))
        .collect();
    for d in devices.iter_mut().filter(|d| d.role.is_none()) {
        let lower = d.hostname.to_ascii_lowercase();
        let by_name = lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .flat_map(|tok| {
                // `core1`, `dist02`, `leaf1a`: the word before the number.
                let word = tok
                    .split(|c: char| c.is_ascii_digit())
                    .next()
                    .unwrap_or_default();
                WORDS.iter().find(|(w, _)| *w == word).map(|(_, r)| *r)
            })
            .next();
        let external_ebgp = d.config.bgp.as_ref().is_some_and(|b| {
            b.neighbors
                .iter()
                .any(|n| n.peer_asn.is_some_and(|a| !internal_as.contains(&a)))
        });
        let role = by_name.or(external_ebgp.then_some("border"));
        if let Some(r) = role {
            d.role = Some(r.to_owned());
            d.role_inferred = true;
        }
    }
}

/// Fills in, from the links, roles that neither the state file, the names nor the
/// config gave: a device with one neighbour is a stub, `access`; when no device is a
/// border or a core, the devices with the most neighbours (two at least) are the
/// `core`; a device next to a border or core is `distribution`. Each marked inferred.
pub fn infer_from_topology(devices: &mut [ParsedDevice], links: &[Link]) {
    let mut neighbours: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for l in links {
        if l.a.0 != l.b.0 {
            neighbours.entry(&l.a.0).or_default().insert(&l.b.0);
            neighbours.entry(&l.b.0).or_default().insert(&l.a.0);
        }
    }
    let degree = |h: &str| neighbours.get(h).map_or(0, BTreeSet::len);
    let anchor = |r: Option<&str>| matches!(r, Some("border" | "core"));
    let mut roles: BTreeMap<String, &'static str> = BTreeMap::new();
    let unknown: Vec<&ParsedDevice> = devices.iter().filter(|d| d.role.is_none()).collect();
    if !devices.iter().any(|d| anchor(d.role.as_deref())) {
        let most = unknown
            .iter()
            .map(|d| degree(&d.hostname))
            .max()
            .unwrap_or(0);
        if most >= 2 {
            for d in unknown.iter().filter(|d| degree(&d.hostname) == most) {
                roles.insert(d.hostname.clone(), "core");
            }
        }
    }
    let anchors: HashSet<&str> = devices
        .iter()
        .filter(|d| anchor(d.role.as_deref()) || roles.contains_key(&d.hostname))
        .map(|d| d.hostname.as_str())
        .collect();
    for d in &unknown {
        if roles.contains_key(&d.hostname) {
            continue;
        }
        let n = neighbours.get(d.hostname.as_str());
        let role = match n.map_or(0, BTreeSet::len) {
            0 => None,
            1 => Some("access"),
            _ if n.is_some_and(|n| n.iter().any(|x| anchors.contains(x))) => Some("distribution"),
            _ => None,
        };
        if let Some(r) = role {
            roles.insert(d.hostname.clone(), r);
        }
    }
    for d in devices.iter_mut().filter(|d| d.role.is_none()) {
        if let Some(r) = roles.get(&d.hostname) {
            d.role = Some((*r).to_owned());
            d.role_inferred = true;
        }
    }
}
