//! IOS-XR's routing policy language (RPL): `prefix-set`, `as-path-set`, `community-set`
//! and `route-policy` definitions, and the references between them.
//!
//! A `prefix-set` becomes a prefix-list. A `route-policy` becomes the route-map clauses
//! that decide the same: every way through its `if … elseif … else … endif` blocks is one
//! clause, in order (an earlier branch first), matching the branch conditions taken and
//! applying the sets met on the way; it permits when the way ends in `done`, or passes
//! (`pass`, or any `set`) without a `drop`. A route-map clause matches on the first
//! clause whose conditions hold, which is the way RPL takes: a route taking a later branch
//! failed the earlier conditions. What the routing model does not evaluate — conditions
//! other than one `destination in SET` on a way (communities, AS paths, `and`/`or`/`not`),
//! `apply`, parameters, actions other than `set local-preference|med|weight|community|
//! next-hop` and `prepend as-path` — becomes a condition or set the route-map evaluation
//! answers "unknown" for, never a route decided wrongly.

use super::tree::Node;
use crate::import::parse::common::{define, reference};
use crate::model::{
    DeviceConfig, PrefixListEntry, RouteMapClause, RouteMapMatch, RouteMapSet, StructureKind,
};
use ipnet::IpNet;
use std::collections::HashMap;

/// Ways through one policy beyond which it is not expanded (a policy that large is
/// answered "unknown").
const MAX_WAYS: usize = 256;

/// A definition's body lines: (text, line).
type Body = Vec<(String, u32)>;

/// RPL definitions collected during the walk, turned into route-maps at the end (a policy
/// may name a set defined after it).
#[derive(Default)]
pub struct Rpl {
    /// Each route-policy: (name, line, its body lines).
    policies: Vec<(String, u32, Body)>,
    /// `community-set` values by name.
    communities: HashMap<String, Vec<String>>,
}

impl Rpl {
    /// Reads one top-level RPL definition.
    pub fn definition(&mut self, dev: &mut DeviceConfig, n: &Node) {
        let w = n.words();
        let (Some(kind), Some(raw)) = (w.first(), w.get(1)) else {
            return;
        };
        // `route-policy NAME($p)`: the parameters are not evaluated.
        let name = raw.split('(').next().unwrap_or(raw).to_owned();
        let body: Vec<(String, u32)> = n
            .flatten()
            .into_iter()
            .skip(1)
            .map(|c| (c.text.clone(), c.line))
            .filter(|(t, _)| !t.starts_with('#'))
            .collect();
        match *kind {
            "prefix-set" => {
                define(dev, StructureKind::PrefixList, &name, n.line);
                let text: Vec<&str> = body.iter().map(|(t, _)| t.as_str()).collect();
                prefix_entries(dev, &name, &text.join(" "), n.line);
            }
            "as-path-set" => define(dev, StructureKind::AsPath, &name, n.line),
            "community-set" => {
                define(dev, StructureKind::CommunityList, &name, n.line);
                let values = body
                    .iter()
                    .flat_map(|(t, _)| t.split(','))
                    .map(|v| v.trim().to_owned())
                    .filter(|v| !v.is_empty())
                    .collect();
                self.communities.insert(name, values);
            }
            _ => {
                define(dev, StructureKind::RouteMap, &name, n.line);
                let mut body = body;
                if raw.contains('(') {
                    body.insert(0, (format!("parameters {raw}"), n.line));
                }
                self.policies.push((name, n.line, body));
            }
        }
    }

    /// Turns every route-policy into route-map clauses.
    pub fn finish(&mut self, dev: &mut DeviceConfig) {
        for (name, line, body) in std::mem::take(&mut self.policies) {
            let mut at = 0;
            let mut inline = 0;
            let stmts = {
                let mut p = Parser {
                    dev,
                    policy: &name,
                    lines: &body,
                    communities: &self.communities,
                    inline: &mut inline,
                };
                p.block(&mut at)
            };
            let start = Way::default();
            let mut ways = run(&stmts, vec![start]);
            if ways.len() > MAX_WAYS {
                let mut w = Way::default();
                w.unknown_if
                    .push(format!("more than {MAX_WAYS} ways through the policy"));
                ways = vec![w];
            }
            for (k, w) in ways.into_iter().enumerate() {
                dev.route_map_clauses.push(w.clause(&name, k, line));
            }
        }
    }
}

/// Adds a prefix-set's entries (`P [ge N] [le M] [eq N]`, comma-separated).
fn prefix_entries(dev: &mut DeviceConfig, name: &str, text: &str, line: u32) {
    for entry in text.split(',') {
        let w: Vec<&str> = entry.split_whitespace().collect();
        let Some(prefix) = w.first().and_then(|p| p.parse::<IpNet>().ok()) else {
            if !w.is_empty() {
                dev.warn(
                    line,
                    format!("prefix-set {name}: cannot read '{}'", entry.trim()),
                );
            }
            continue;
        };
        let num = |k: &str| {
            w.iter()
                .position(|x| *x == k)
                .and_then(|i| w.get(i + 1))
                .and_then(|v| v.parse::<u8>().ok())
        };
        let (mut ge, mut le) = (num("ge"), num("le"));
        if let Some(eq) = num("eq") {
            (ge, le) = (Some(eq), Some(eq));
        }
        dev.prefix_lists.push(PrefixListEntry {
            name: name.to_owned(),
            seq: None,
            permit: true,
            prefix,
            ge,
            le,
            line,
        });
    }
}

/// One RPL statement.
enum Stmt {
    Pass,
    Drop,
    Done,
    Set(RouteMapSet),
    /// `if` / `elseif` branches (condition, body) and the `else` body.
    If(Vec<(Cond, Vec<Stmt>)>, Vec<Stmt>),
}

/// One branch condition.
enum Cond {
    /// `destination in SET`: the prefix-list.
    Destination(String),
    /// Anything else, as written.
    Other(String),
}

struct Parser<'a> {
    dev: &'a mut DeviceConfig,
    policy: &'a str,
    lines: &'a [(String, u32)],
    communities: &'a HashMap<String, Vec<String>>,
    inline: &'a mut u32,
}

impl Parser<'_> {
    /// Statements from `at` up to the `elseif`/`else`/`endif` closing the block (left at
    /// `at`) or the end.
    fn block(&mut self, at: &mut usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        while let Some((text, line)) = self.lines.get(*at) {
            let t = text.as_str();
            if t.starts_with("elseif ") || t == "else" || t == "endif" {
                return out;
            }
            *at += 1;
            if let Some(cond) = t.strip_prefix("if ").and_then(|c| c.strip_suffix(" then")) {
                let mut branches = vec![(self.cond(cond, *line), self.block(at))];
                let mut otherwise = Vec::new();
                while let Some((next, l)) = self.lines.get(*at) {
                    *at += 1;
                    if let Some(c) = next
                        .strip_prefix("elseif ")
                        .and_then(|c| c.strip_suffix(" then"))
                    {
                        let c = self.cond(c, *l);
                        branches.push((c, self.block(at)));
                    } else if next == "else" {
                        otherwise = self.block(at);
                    } else {
                        break;
                    }
                }
                out.push(Stmt::If(branches, otherwise));
                continue;
            }
            out.push(self.action(t, *line));
        }
        out
    }

    fn cond(&mut self, c: &str, line: u32) -> Cond {
        let w: Vec<&str> = c.split_whitespace().collect();
        match w.as_slice() {
            ["destination", "in", set] if !set.starts_with('(') => {
                reference(
                    self.dev,
                    StructureKind::PrefixList,
                    set,
                    "route-policy destination in",
                    line,
                );
                Cond::Destination((*set).to_owned())
            }
            ["destination", "in", ..]
                if c.ends_with(')') && !c.contains(" and ") && !c.contains(" or ") =>
            {
                *self.inline += 1;
                let name = format!("{}~inline{}", self.policy, self.inline);
                let inner = c
                    .split_once('(')
                    .map(|(_, r)| r.trim_end_matches(')'))
                    .unwrap_or_default();
                prefix_entries(self.dev, &name, inner, line);
                Cond::Destination(name)
            }
            _ => {
                self.references(&w, line);
                Cond::Other(format!("route-policy {}: if {c}", self.policy))
            }
        }
    }

    /// Records the sets a condition olav does not evaluate names.
    fn references(&mut self, w: &[&str], line: u32) {
        for pair in w.windows(3) {
            let kind = match pair {
                ["destination", "in", _] => StructureKind::PrefixList,
                ["community", "matches-any" | "matches-every" | "in", _] => {
                    StructureKind::CommunityList
                }
                ["as-path", "in", _] => StructureKind::AsPath,
                _ => continue,
            };
            let name = pair[2];
            if !name.starts_with('(') && !name.starts_with('$') {
                reference(self.dev, kind, name, "route-policy condition", line);
            }
        }
    }

    fn action(&mut self, t: &str, line: u32) -> Stmt {
        let w: Vec<&str> = t.split_whitespace().collect();
        let other = || Stmt::Set(RouteMapSet::Other(t.to_owned()));
        match w.as_slice() {
            ["pass"] => Stmt::Pass,
            ["drop"] => Stmt::Drop,
            ["done"] => Stmt::Done,
            ["set", "local-preference", n] => n
                .parse()
                .map_or_else(|_| other(), |n| Stmt::Set(RouteMapSet::LocalPreference(n))),
            ["set", "med", n] => n
                .parse()
                .map_or_else(|_| other(), |n| Stmt::Set(RouteMapSet::Metric(n))),
            ["set", "weight", n] => n
                .parse()
                .map_or_else(|_| other(), |n| Stmt::Set(RouteMapSet::Weight(n))),
            ["set", "next-hop", a] => a
                .parse()
                .map_or_else(|_| other(), |a| Stmt::Set(RouteMapSet::NextHop(a))),
            ["prepend", "as-path", asn, rest @ ..] => match (
                asn.parse::<u32>(),
                rest.first().map_or(Ok(1), |n| n.parse::<usize>()),
            ) {
                (Ok(a), Ok(k)) if rest.len() <= 1 => Stmt::Set(RouteMapSet::Prepend(vec![a; k])),
                _ => other(),
            },
            ["set", "community", rest @ ..] => {
                let additive = rest.last() == Some(&"additive");
                let list = rest.join(" ").replace("additive", "");
                let list = list.trim();
                let values: Option<Vec<String>> =
                    if let Some(inner) = list.strip_prefix('(').and_then(|l| l.strip_suffix(')')) {
                        Some(inner.split(',').map(|v| v.trim().to_owned()).collect())
                    } else {
                        reference(
                            self.dev,
                            StructureKind::CommunityList,
                            list,
                            "route-policy set community",
                            line,
                        );
                        self.communities.get(list).cloned()
                    };
                match values {
                    Some(values) if values.iter().all(|v| !v.contains('$') && !v.contains('*')) => {
                        Stmt::Set(RouteMapSet::Community { values, additive })
                    }
                    _ => other(),
                }
            }
            ["apply", p, ..] => {
                let p = p.split('(').next().unwrap_or(p);
                reference(
                    self.dev,
                    StructureKind::RouteMap,
                    p,
                    "route-policy apply",
                    line,
                );
                other()
            }
            _ => other(),
        }
    }
}

/// One way through a policy: the conditions taken, the sets met, and how it ended.
#[derive(Clone, Default)]
struct Way {
    destinations: Vec<String>,
    unknown_if: Vec<String>,
    sets: Vec<RouteMapSet>,
    passed: bool,
    /// `done` (true) or `drop` (false).
    end: Option<bool>,
}

impl Way {
    fn clause(self, name: &str, k: usize, line: u32) -> RouteMapClause {
        let mut matches = Vec::new();
        let mut destinations = self.destinations;
        destinations.dedup();
        if destinations.len() > 1 {
            // Route-map clauses hold one prefix condition (its lists alternatives).
            matches.push(RouteMapMatch::Other(format!(
                "route-policy {name}: destination in {} together",
                destinations.join(" and ")
            )));
        } else if let Some(d) = destinations.first() {
            matches.push(RouteMapMatch::PrefixList(vec![d.clone()]));
        }
        matches.extend(self.unknown_if.into_iter().map(RouteMapMatch::Other));
        let permit = self.end.unwrap_or(self.passed);
        RouteMapClause {
            name: name.to_owned(),
            seq: u32::try_from(10 * (k + 1)).unwrap_or(u32::MAX),
            permit,
            prefix_lists: destinations,
            other: Vec::new(),
            line,
            sets: if permit { self.sets } else { Vec::new() },
            matches,
        }
    }
}

/// The ways `stmts` lead each of `ways` on, in order.
fn run(stmts: &[Stmt], mut ways: Vec<Way>) -> Vec<Way> {
    for s in stmts {
        if ways.len() > MAX_WAYS {
            return ways;
        }
        let mut next = Vec::with_capacity(ways.len());
        for mut w in ways {
            if w.end.is_some() {
                next.push(w);
                continue;
            }
            match s {
                Stmt::Pass => w.passed = true,
                Stmt::Drop => w.end = Some(false),
                Stmt::Done => w.end = Some(true),
                Stmt::Set(set) => {
                    w.passed = true;
                    w.sets.push(set.clone());
                }
                Stmt::If(branches, otherwise) => {
                    for (c, body) in branches {
                        let mut b = w.clone();
                        match c {
                            Cond::Destination(d) => b.destinations.push(d.clone()),
                            Cond::Other(o) => b.unknown_if.push(o.clone()),
                        }
                        next.extend(run(body, vec![b]));
                    }
                    next.extend(run(otherwise, vec![w]));
                    continue;
                }
            }
            next.push(w);
        }
        ways = next;
    }
    ways
}
