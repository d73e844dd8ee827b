//! Device roles when the state file gives none: inferred from the hostname's usual
//! words, then from the config (eBGP to an AS outside the network makes a border), and
//! marked as inferred.

use super::ParsedDevice;
use std::collections::HashSet;

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
                // `core1`, `dist02`: strip the trailing number.
                let word = tok.trim_end_matches(|c: char| c.is_ascii_digit());
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
