//! The services a plan reaches: those its withdrawn prefixes and abandoned subnets hit,
//! and those its blast radius declares.

use super::blast::{Blast, ServiceHit};
use super::readdressing::Left;
use crate::plan::Plan;
use crate::routing::withdrawn::Withdrawn;
use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use std::collections::BTreeSet;

/// Services hit by prefixes no provider hears any more (a prefix endpoint inside one is
/// lost; an internet service whose devices are all borders that fell silent is down),
/// and by subnets a plan's new addresses leave behind (a prefix endpoint inside one, or
/// the re-addressed interface itself, is lost).
pub fn service_hits(
    db: &StateDb,
    withdrawn: &[IpNet],
    silent: &[&str],
    left: &[Left],
    routed: &dyn Fn(&IpNet) -> bool,
) -> Result<Vec<ServiceHit>, StateError> {
    let rows = db.service_endpoints()?;
    let mut out: Vec<ServiceHit> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let name = rows[i].service.clone();
        let eps: Vec<&crate::state::ServiceEndpoint> =
            rows[i..].iter().take_while(|r| r.service == name).collect();
        i += eps.len();
        let internet = eps[0].kind.as_deref() == Some("internet");
        let lost = eps
            .iter()
            .filter(|r| {
                let prefix = r.prefix.as_deref().and_then(|p| p.parse::<IpNet>().ok());
                let in_withdrawn = prefix.is_some_and(|p| {
                    // An aggregate around the prefix takes it only when the prefix is
                    // not routed on its own any more.
                    withdrawn.iter().any(|w| {
                        w.contains(&p) && (w.prefix_len() >= p.prefix_len() || !routed(&p))
                    }) || left.iter().any(|l| l.loses(&p))
                });
                let moved = match (&r.hostname, &r.ifname) {
                    (Some(h), Some(i)) => left.iter().any(|l| {
                        l.kept.is_none() && l.device == *h && crate::ifname::same(i, &l.interface)
                    }),
                    _ => false,
                };
                let silent_border =
                    internet && r.hostname.as_deref().is_some_and(|h| silent.contains(&h));
                in_withdrawn || moved || silent_border
            })
            .count();
        if lost > 0 {
            out.push(ServiceHit {
                name,
                criticality: eps[0].criticality.clone(),
                endpoints: eps.len(),
                remaining: eps.len() - lost,
            });
        }
    }
    Ok(out)
}

/// Adds services hit to the blast radius's; a service hit twice (cut off and withdrawn)
/// keeps the larger loss.
pub(super) fn merge_hits(blast: &mut Blast, hits: Vec<ServiceHit>) {
    for hit in hits {
        match blast.services.iter_mut().find(|x| x.name == hit.name) {
            Some(x) => x.remaining = x.remaining.min(hit.remaining),
            None => blast.services.push(hit),
        }
    }
    blast.services.sort_by(|x, y| x.name.cmp(&y.name));
}

/// Adds the networks the routing model says no device routes any more (global table)
/// to the blast radius's prefixes withdrawn, and the services with a prefix inside one.
pub fn add_withdrawn<'a>(
    db: &StateDb,
    blast: &mut Blast,
    withdrawn: impl IntoIterator<Item = &'a Withdrawn>,
    routed: &dyn Fn(&IpNet) -> bool,
) -> Result<(), StateError> {
    // (The default route is never among them: `routing::withdrawn` does not judge it.)
    let nets: Vec<IpNet> = withdrawn
        .into_iter()
        .filter(|w| w.vrf == "default")
        .map(|w| IpNet::V4(w.network))
        .collect();
    if nets.is_empty() {
        return Ok(());
    }
    let mut all: BTreeSet<IpNet> = blast
        .prefixes_withdrawn
        .iter()
        .filter_map(|p| p.parse().ok())
        .collect();
    all.extend(nets.iter().copied());
    blast.prefixes_withdrawn = all.iter().map(ToString::to_string).collect();
    merge_hits(blast, service_hits(db, &nets, &[], &[], routed)?);
    Ok(())
}

/// The services a plan names in its blast radius ("Services affected").
pub fn declared_services(plan: &Plan) -> Vec<String> {
    let Some(cell) = plan.blast_radius.lines().find_map(|l| {
        l.trim()
            .strip_prefix("| Services affected |")
            .map(|rest| crate::output::md_uncell(rest.trim_end_matches('|').trim()))
    }) else {
        return Vec::new();
    };
    let cell = cell.as_str();
    // Entries are `name (criticality, …)`, separated by commas outside parentheses.
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in cell.char_indices().chain([(cell.len(), ',')]) {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                let entry = cell[start..i].trim();
                let name = entry.split(" (").next().unwrap_or(entry).trim();
                if !name.is_empty() && name != "none" {
                    out.push(name.to_owned());
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}
