//! Routing policy on a BGP path: prefix-lists and route-maps (IOS, NX-OS, EOS). A
//! route-map's clauses in sequence order; the first whose matches all hold decides
//! (permit: its `set`s applied; deny: rejected); none: rejected. What olav does not
//! evaluate (a match other than a prefix-list, `continue`, a `set` it does not know, an
//! undefined list or map where the vendor's behaviour is not known) is an [`Unknown`]
//! naming it, never a guess. Known: IOS denies everything through an undefined route-map
//! (Batfish's lab-tested rule, batfish#6523); an NX-OS route-map clause matching an
//! undefined prefix-list matches every route (batfish#6983, Cisco CSCty33210).

use super::Path;
use crate::model::{DeviceConfig, RouteMapMatch, RouteMapSet, Vendor};
use ipnet::IpNet;

/// A policy olav cannot evaluate, in words ("route-map RM: match community 10").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown(pub String);

/// Whether prefix-list `name` permits `path`'s prefix: its first matching entry decides,
/// none denies. An undefined list is unknown (vendors differ on it).
pub fn prefix_list(config: &DeviceConfig, name: &str, path: &Path) -> Result<bool, Unknown> {
    let mut entries: Vec<_> = config
        .prefix_lists
        .iter()
        .filter(|e| e.name == name)
        .collect();
    if entries.is_empty() {
        return Err(Unknown(format!("prefix-list {name} is not defined")));
    }
    entries.sort_by_key(|e| e.seq.unwrap_or(0));
    let p = IpNet::V4(path.prefix);
    Ok(entries
        .iter()
        .find(|e| e.matches(&p))
        .is_some_and(|e| e.permit))
}

/// Applies route-map `name` to `path`: Some(the path as changed) when permitted, None
/// when denied.
pub fn route_map(
    vendor: Vendor,
    config: &DeviceConfig,
    name: &str,
    path: &Path,
) -> Result<Option<Path>, Unknown> {
    let mut clauses: Vec<_> = config
        .route_map_clauses
        .iter()
        .filter(|c| c.name == name)
        .collect();
    if clauses.is_empty() {
        return match vendor {
            Vendor::CiscoIos => Ok(None),
            _ => Err(Unknown(format!("route-map {name} is not defined"))),
        };
    }
    clauses.sort_by_key(|c| c.seq);
    for c in clauses {
        // One condition per kind, its values alternatives; every kind must hold. A
        // condition olav does not evaluate decides only when the others all hold.
        let mut prefix: Option<bool> = None;
        let mut interface: Option<bool> = None;
        let mut unknown: Option<Unknown> = None;
        for m in &c.matches {
            match m {
                RouteMapMatch::PrefixList(names) => {
                    for pl in names {
                        let defined = config.prefix_lists.iter().any(|e| e.name == *pl);
                        let hit = if !defined && vendor == Vendor::CiscoNxos {
                            true
                        } else {
                            prefix_list(config, pl, path)?
                        };
                        prefix = Some(prefix.unwrap_or(false) || hit);
                    }
                }
                RouteMapMatch::Interface(names) => {
                    // Only a route originated here leaves by an interface of its own.
                    let Some(via) = &path.via else {
                        unknown.get_or_insert(Unknown(format!(
                            "route-map {name}: match interface on a received route"
                        )));
                        continue;
                    };
                    let hit = names.iter().any(|n| crate::ifname::same(n, via));
                    interface = Some(interface.unwrap_or(false) || hit);
                }
                RouteMapMatch::Other(o) => {
                    unknown.get_or_insert(Unknown(format!("route-map {name}: {o}")));
                }
            }
        }
        let matched = prefix.unwrap_or(true) && interface.unwrap_or(true);
        if let (true, Some(u)) = (matched, unknown) {
            return Err(u);
        }
        if !matched {
            continue;
        }
        if !c.permit {
            return Ok(None);
        }
        let mut out = path.clone();
        for s in &c.sets {
            match s {
                RouteMapSet::LocalPreference(v) => out.local_pref = *v,
                RouteMapSet::Metric(v) => out.med = *v,
                RouteMapSet::Weight(v) => out.weight = *v,
                RouteMapSet::Prepend(asns) => {
                    let mut p = asns.clone();
                    p.extend_from_slice(&out.as_path);
                    out.as_path = p;
                }
                RouteMapSet::Community { values, additive } => {
                    if !additive {
                        out.communities.clear();
                    }
                    for v in values {
                        if !out.communities.contains(v) {
                            out.communities.push(v.clone());
                        }
                    }
                }
                RouteMapSet::NextHop(std::net::IpAddr::V4(ip)) => out.next_hop = *ip,
                RouteMapSet::NextHop(other) => {
                    return Err(Unknown(format!(
                        "route-map {name}: set ip next-hop {other}"
                    )))
                }
                RouteMapSet::Other(o) => return Err(Unknown(format!("route-map {name}: {o}"))),
            }
        }
        return Ok(Some(out));
    }
    Ok(None)
}

/// A neighbor's policy in one direction: its prefix-list, then its route-map.
pub fn neighbor(
    vendor: Vendor,
    config: &DeviceConfig,
    prefix_list_name: Option<&str>,
    route_map_name: Option<&str>,
    path: Path,
) -> Result<Option<Path>, Unknown> {
    if let Some(pl) = prefix_list_name {
        if !prefix_list(config, pl, &path)? {
            return Ok(None);
        }
    }
    match route_map_name {
        Some(rm) => route_map(vendor, config, rm, &path),
        None => Ok(Some(path)),
    }
}
