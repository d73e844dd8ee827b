//! EIGRP distribute-lists: a prefix-list, or a route-map whose clauses match only on
//! prefix-lists (its `set` lines mean nothing to a distribute-list), compiled from the
//! device's configuration so that the network computation can ask, per prefix, whether a
//! router accepts or advertises it. Anything else (access-lists, `gateway` lists, other
//! `match` conditions, undefined lists) is not evaluated: the caller names it incomplete.

use crate::model::{DeviceConfig, DistributeList, EigrpDistribute, PrefixListEntry};
use ipnet::{IpNet, Ipv4Net};

/// A prefix-list's entries in order (sequence, then line).
type Entries = Vec<PrefixListEntry>;

/// What a filter evaluates.
#[derive(Debug, Clone)]
enum Rules {
    /// A prefix-list: the first matching entry decides; none: deny.
    PrefixList(Entries),
    /// A route-map's clauses in order: (permit, its prefix-lists — any of them matching;
    /// none: every prefix). No clause matching: deny.
    RouteMap(Vec<(bool, Vec<Entries>)>),
}

/// One compiled distribute-list.
#[derive(Debug, Clone)]
pub struct Filter {
    /// Inbound (what the router accepts), else outbound (what it advertises).
    pub inbound: bool,
    /// Only on this interface (None: all of them).
    pub interface: Option<String>,
    rules: Rules,
}

/// A prefix-list's entries, or None when it is not defined.
fn entries(config: &DeviceConfig, name: &str) -> Option<Entries> {
    let mut e: Entries = config
        .prefix_lists
        .iter()
        .filter(|x| x.name == name)
        .cloned()
        .collect();
    if e.is_empty() {
        return None;
    }
    e.sort_by_key(|x| (x.seq.unwrap_or(u32::MAX), x.line));
    Some(e)
}

fn prefix_list_permits(e: &Entries, p: &IpNet) -> bool {
    e.iter().find(|x| x.matches(p)).is_some_and(|x| x.permit)
}

/// Compiles a distribute-list, or says in words why it cannot be evaluated.
pub fn compile(config: &DeviceConfig, d: &EigrpDistribute) -> Result<Filter, String> {
    let rules = match &d.list {
        DistributeList::PrefixList(name) => Rules::PrefixList(
            entries(config, name)
                .ok_or_else(|| format!("distribute-lists with an undefined prefix-list {name}"))?,
        ),
        DistributeList::RouteMap(name) => route_map(config, name, "distribute-list")?,
        DistributeList::Other(what) => return Err(format!("distribute-lists by {what}")),
    };
    Ok(Filter {
        inbound: d.inbound,
        interface: d.interface.clone(),
        rules,
    })
}

/// A route-map's clauses as rules, or why they cannot be evaluated; `what` names its use
/// in the reason (`distribute-list`, `redistribution`). Its `set` lines are left to the
/// caller.
fn route_map(config: &DeviceConfig, name: &str, what: &str) -> Result<Rules, String> {
    let mut clauses: Vec<_> = config
        .route_map_clauses
        .iter()
        .filter(|c| c.name == *name)
        .collect();
    if clauses.is_empty() {
        return Err(format!("{what}s with an undefined route-map {name}"));
    }
    clauses.sort_by_key(|c| c.seq);
    let mut out = Vec::new();
    for c in clauses {
        if let Some(o) = c.other.first() {
            return Err(format!("{what} route-map {name} ('{o}' is not evaluated)"));
        }
        let mut lists = Vec::new();
        for pl in &c.prefix_lists {
            lists.push(
                entries(config, pl)
                    .ok_or_else(|| format!("{what}s with an undefined prefix-list {pl}"))?,
            );
        }
        out.push((c.permit, lists));
    }
    Ok(Rules::RouteMap(out))
}

/// The route-map `name` of a `redistribute … route-map` line as a filter of the routes
/// it takes, when its clauses match only on prefix-lists and set nothing (a `set metric`
/// or `set tag` would change what is advertised); else why not, in words.
pub fn redistribution(config: &DeviceConfig, name: &str) -> Result<Filter, String> {
    let rules = route_map(config, name, "redistribution")?;
    if config
        .route_map_clauses
        .iter()
        .any(|c| c.name == name && !c.sets.is_empty())
    {
        return Err(format!(
            "redistribution route-map {name} (its set statements are not evaluated)"
        ));
    }
    Ok(Filter {
        inbound: false,
        interface: None,
        rules,
    })
}

impl Filter {
    /// Whether the filter lets `p` through.
    pub fn permits(&self, p: Ipv4Net) -> bool {
        let p = IpNet::V4(p);
        match &self.rules {
            Rules::PrefixList(e) => prefix_list_permits(e, &p),
            Rules::RouteMap(clauses) => clauses
                .iter()
                .find(|(_, lists)| {
                    lists.is_empty() || lists.iter().any(|e| prefix_list_permits(e, &p))
                })
                .is_some_and(|(permit, _)| *permit),
        }
    }

    /// Whether it applies on interface `name` in direction `inbound`.
    pub fn applies(&self, inbound: bool, name: &str) -> bool {
        self.inbound == inbound
            && self
                .interface
                .as_deref()
                .is_none_or(|i| crate::ifname::same(i, name))
    }
}
