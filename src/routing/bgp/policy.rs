//! Routing policy on a BGP path: prefix-lists and route-maps (IOS, NX-OS, EOS). A
//! route-map's clauses in sequence order; the first whose matches all hold decides
//! (permit: its `set`s applied; deny: rejected); none: rejected. What olav does not
//! evaluate (a match other than a prefix-list, `continue`, a `set` it does not know, an
//! undefined list or map where the vendor's behaviour is not known) is an [`Unknown`]
//! naming it, never a guess. Known: IOS denies everything through an undefined route-map
//! (Batfish's lab-tested rule, batfish#6523); an NX-OS route-map clause matching an
//! undefined prefix-list matches every route (batfish#6983, Cisco CSCty33210).

use super::{expression, Path};
use crate::model::{DeviceConfig, RouteMapMatch, RouteMapSet, Vendor};
use ipnet::IpNet;
use std::net::Ipv4Addr;

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
    // Where evaluation starts, and the path as the clauses that permitted with `continue`
    // changed it (then a route no later clause matches is permitted as changed).
    let mut start = 0;
    let mut carried: Option<Path> = None;
    'clauses: while start < clauses.len() {
        let current = carried.as_ref().unwrap_or(path);
        let i = start;
        let c = clauses[i];
        let path = current;
        // One condition per kind, its values alternatives; every kind must hold. A
        // condition olav does not evaluate decides only when the others all hold.
        let mut prefix: Option<bool> = None;
        let mut interface: Option<bool> = None;
        let mut access: Option<bool> = None;
        let mut community: Option<bool> = None;
        let mut route_target: Option<bool> = None;
        let mut as_path: Option<bool> = None;
        let mut tag: Option<bool> = None;
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
                RouteMapMatch::AccessList(names) => {
                    for acl in names {
                        match access_list(config, acl, path) {
                            Some(hit) => access = Some(access.unwrap_or(false) || hit),
                            None => {
                                unknown.get_or_insert(Unknown(format!(
                                    "route-map {name}: access-list {acl} (undefined, named, or a form olav does not read)"
                                )));
                            }
                        }
                    }
                }
                RouteMapMatch::AsPath(names) => {
                    for list in names {
                        match as_path_list(config, list, path) {
                            Some(hit) => as_path = Some(as_path.unwrap_or(false) || hit),
                            None => {
                                unknown.get_or_insert(Unknown(format!(
                                    "route-map {name}: as-path access-list {list} (undefined, or an expression olav does not evaluate)"
                                )));
                            }
                        }
                    }
                }
                RouteMapMatch::Community { names, exact } => {
                    if *exact {
                        unknown.get_or_insert(Unknown(format!(
                            "route-map {name}: match community exact-match"
                        )));
                        continue;
                    }
                    for list in names {
                        match community_list(config, list, path) {
                            Some(hit) => community = Some(community.unwrap_or(false) || hit),
                            // FRR: a list that does not exist matches nothing.
                            None if vendor == Vendor::Frr
                                && !config
                                    .route_lists
                                    .community_lists
                                    .iter()
                                    .any(|e| e.name == *list) =>
                            {
                                community = Some(community.unwrap_or(false));
                            }
                            None => {
                                unknown.get_or_insert(Unknown(format!(
                                    "route-map {name}: community-list {list} (undefined, or a form olav does not evaluate)"
                                )));
                            }
                        }
                    }
                }
                RouteMapMatch::ExtCommunity(names) => {
                    for list in names {
                        match ext_community_list(config, list, path) {
                            Some(hit) => route_target = Some(route_target.unwrap_or(false) || hit),
                            None => {
                                unknown.get_or_insert(Unknown(format!(
                                    "route-map {name}: extcommunity-list {list} (undefined, or a form olav does not evaluate)"
                                )));
                            }
                        }
                    }
                }
                RouteMapMatch::Other(o) => {
                    unknown.get_or_insert(Unknown(format!("route-map {name}: {o}")));
                }
                RouteMapMatch::Tag(tags) => {
                    tag = Some(tag.unwrap_or(false) || tags.contains(&path.tag));
                }
                RouteMapMatch::Continue(_) => {}
            }
        }
        let matched = [
            prefix,
            interface,
            access,
            community,
            route_target,
            as_path,
            tag,
        ]
        .iter()
        .all(|c| c.unwrap_or(true));
        if let (true, Some(u)) = (matched, unknown) {
            return Err(u);
        }
        if !matched {
            start = i + 1;
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
                RouteMapSet::Tag(t) => out.tag = *t,
                RouteMapSet::Origin(o) => {
                    out.origin = match o.as_str() {
                        "igp" => super::Origin::Igp,
                        "egp" => super::Origin::Egp,
                        _ => super::Origin::Incomplete,
                    }
                }
                RouteMapSet::NextHop(other) => {
                    return Err(Unknown(format!(
                        "route-map {name}: set ip next-hop {other}"
                    )))
                }
                RouteMapSet::Other(o) => return Err(Unknown(format!("route-map {name}: {o}"))),
            }
        }
        let next = c.matches.iter().find_map(|m| match m {
            RouteMapMatch::Continue(to) => Some(*to),
            _ => None,
        });
        match next {
            None => return Ok(Some(out)),
            Some(None) => start = i + 1,
            // A sequence number that is not a later clause: EOS stops there, the route
            // permitted as changed (batfish/lab-validation `eos_rm_undefined_continue`);
            // what the others do is not known.
            Some(Some(seq)) => match clauses.iter().position(|x| x.seq == seq) {
                Some(at) if at > i => start = at,
                _ if vendor == Vendor::AristaEos => return Ok(Some(out)),
                _ => {
                    return Err(Unknown(format!(
                        "route-map {name}: continue {seq} (no later clause {seq})"
                    )))
                }
            },
        }
        carried = Some(out);
        continue 'clauses;
    }
    Ok(carried)
}

/// Whether numbered access list `name` permits `path`'s prefix (a standard entry matches
/// its network address; an extended one its network address and, as destination, its
/// mask): the first matching entry decides, none denies. None: the list was not read.
fn access_list(config: &DeviceConfig, name: &str, path: &Path) -> Option<bool> {
    let entries: Vec<_> = config
        .route_lists
        .access_lists
        .iter()
        .filter(|e| e.name == name)
        .collect();
    if entries.is_empty() {
        return None;
    }
    let fits = |(a, w): (Ipv4Addr, Ipv4Addr), x: Ipv4Addr| {
        let keep = !u32::from(w);
        u32::from(a) & keep == u32::from(x) & keep
    };
    let network = path.prefix.network();
    let mask = path.prefix.netmask();
    Some(
        entries
            .iter()
            .find(|e| fits(e.source, network) && e.destination.is_none_or(|d| fits(d, mask)))
            .is_some_and(|e| e.permit),
    )
}

/// Whether as-path access list `name` permits `path`: the first entry whose expression
/// is found in the AS path written out (`65001 65002`) decides, none denies. None: not
/// defined, or an expression olav does not evaluate.
pub(super) fn as_path_list(config: &DeviceConfig, name: &str, path: &Path) -> Option<bool> {
    let entries: Vec<_> = config
        .route_lists
        .as_path_lists
        .iter()
        .filter(|(n, _, _)| n == name)
        .collect();
    if entries.is_empty() {
        return None;
    }
    let written = path
        .as_path
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    for (_, permit, expr) in entries {
        if expression::matches(expr, &written)? {
            return Some(*permit);
        }
    }
    Some(false)
}

/// Whether community list `name` permits `path`: a standard entry when the path carries
/// every value, an expanded one when its expression matches the communities written
/// out; the first matching entry decides, none denies. None: not defined, or an
/// expression olav does not evaluate.
pub(super) fn community_list(config: &DeviceConfig, name: &str, path: &Path) -> Option<bool> {
    let entries: Vec<_> = config
        .route_lists
        .community_lists
        .iter()
        .filter(|e| e.name == name)
        .collect();
    if entries.is_empty() {
        return None;
    }
    let written = path.communities.join(" ");
    for e in entries {
        let hit = if e.expanded {
            expression::matches(e.values.first()?, &written)?
        } else {
            // Well-known names (`internet`, `no-export`) are not compared by value.
            if e.values.iter().any(|v| !v.contains(':')) {
                return None;
            }
            e.values.iter().all(|v| path.communities.contains(v))
        };
        if hit {
            return Some(e.permit);
        }
    }
    Some(false)
}

/// Whether extended community list `name` permits `path`: a standard entry when the
/// path carries every route target it names; the first matching entry decides, none
/// denies. None: not defined, or an entry olav does not evaluate.
fn ext_community_list(config: &DeviceConfig, name: &str, path: &Path) -> Option<bool> {
    let entries: Vec<_> = config
        .route_lists
        .ext_community_lists
        .iter()
        .filter(|e| e.name == name)
        .collect();
    if entries.is_empty() {
        return None;
    }
    for e in entries {
        if e.expanded {
            return None;
        }
        if e.values.iter().all(|v| path.route_targets.contains(v)) {
            return Some(e.permit);
        }
    }
    Some(false)
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
        // A neighbor's reference to a route-map that does not exist
        // (batfish/lab-validation's `*_undefined_route_map` labs, in and out): NX-OS
        // denies every route, as IOS does (`route_map`), EOS lets every route through.
        Some(rm) if !config.route_map_clauses.iter().any(|c| c.name == rm) => match vendor {
            Vendor::CiscoNxos => Ok(None),
            Vendor::AristaEos => Ok(Some(path)),
            _ => route_map(vendor, config, rm, &path),
        },
        Some(rm) => route_map(vendor, config, rm, &path),
        None => Ok(Some(path)),
    }
}
