//! `policy-options` as the Junos-style terms the routing model evaluates
//! ([`crate::model::PolicyOptions`]): each `entry` of a policy-statement is a term, in
//! entry order, its `from` conditions, its actions in order and its `action-type` last;
//! `default-action` is the last term, without conditions. A `prefix-list` in `from` is
//! its entries as route filters (SR OS lists say per prefix which lengths match:
//! `exact`, `longer` — the prefix and every longer one —, `through N`, `range S E`).
//! AS-path expressions match the whole path, AS numbers as tokens (Nokia's examples:
//! `11 22 33 .*` begins with 11 22 33), as Junos' do. Whatever olav does not evaluate
//! (`to`, `null` and alternations in AS-path expressions, …) is kept as written, so that a
//! route reaching it is unknown, never guessed.

use super::Statement;
use crate::import::parse::common::define;
use crate::model::{
    DeviceConfig, PolicyAction, PolicyMatch, PolicyStatement, PolicyTerm, StructureKind,
};
use ipnet::IpNet;
use std::collections::BTreeMap;

/// One prefix-list entry as read: the prefix, its type and lengths.
struct Entry {
    prefix: IpNet,
    kind: String,
    lengths: (Option<u8>, Option<u8>),
}

/// A `from` condition before prefix-lists are resolved.
enum From {
    PrefixLists(Vec<String>),
    Match(PolicyMatch),
}

/// One `entry` (or the `default-action`).
#[derive(Default)]
struct Term {
    from: Vec<From>,
    actions: Vec<PolicyAction>,
    verdict: Option<PolicyAction>,
    prepend: (Option<u32>, Option<u32>),
}

/// A policy-statement: its entries by number, its default action.
#[derive(Default)]
struct Policy {
    entries: BTreeMap<u32, Term>,
    default: Option<Term>,
    /// Statements olav does not read, which a route reaches before any entry decides.
    other: Vec<String>,
}

/// Everything `policy-options` holds, as read.
#[derive(Default)]
pub(super) struct Policies {
    prefix_lists: BTreeMap<String, Vec<Entry>>,
    communities: Vec<(String, Vec<String>)>,
    as_paths: Vec<(String, String)>,
    policies: Vec<(String, Policy)>,
}

impl Policies {
    /// One statement under `policy-options`.
    pub(super) fn statement(&mut self, w: &[&str], st: &Statement, dev: &mut DeviceConfig) {
        match w {
            ["prefix-list", name, rest @ ..] => {
                define(dev, StructureKind::PrefixList, name, st.line);
                let list = self.prefix_lists.entry((*name).to_owned()).or_default();
                if let ["prefix", p, "type", kind, tail @ ..] = rest {
                    let Ok(prefix) = p.parse::<IpNet>() else {
                        dev.warn(
                            st.line,
                            format!("policy-options prefix-list {name}: '{p}' is not a prefix"),
                        );
                        return;
                    };
                    let i = match list
                        .iter()
                        .position(|e| e.prefix == prefix && e.kind == *kind)
                    {
                        Some(i) => i,
                        None => {
                            list.push(Entry {
                                prefix,
                                kind: (*kind).to_owned(),
                                lengths: (None, None),
                            });
                            list.len() - 1
                        }
                    };
                    let e = &mut list[i];
                    match tail {
                        ["through-length", n] => e.lengths.1 = n.parse().ok(),
                        ["start-length", n] => e.lengths.0 = n.parse().ok(),
                        ["end-length", n] => e.lengths.1 = n.parse().ok(),
                        _ => {}
                    }
                }
            }
            ["community", name, rest @ ..] => {
                define(dev, StructureKind::Community, name, st.line);
                let i = match self.communities.iter().position(|(n, _)| n == name) {
                    Some(i) => i,
                    None => {
                        self.communities.push(((*name).to_owned(), Vec::new()));
                        self.communities.len() - 1
                    }
                };
                match rest {
                    ["member", m] => self.communities[i].1.push((*m).to_owned()),
                    // An expression is a regular expression over the communities: a
                    // member olav does not evaluate.
                    ["expression", ..] => {
                        self.communities[i].1.push(format!("({})", rest.join(" ")))
                    }
                    _ => {}
                }
            }
            ["policy-statement", name, rest @ ..] => {
                define(dev, StructureKind::PolicyStatement, name, st.line);
                let i = match self.policies.iter().position(|(n, _)| n == name) {
                    Some(i) => i,
                    None => {
                        self.policies.push(((*name).to_owned(), Policy::default()));
                        self.policies.len() - 1
                    }
                };
                let p = &mut self.policies[i].1;
                match rest {
                    ["entry", n, tail @ ..] => match n.parse::<u32>() {
                        Ok(n) => term(p.entries.entry(n).or_default(), tail),
                        Err(_) => p.other.push(rest.join(" ")),
                    },
                    // `default-action` holds what an entry's `action` holds.
                    ["default-action", tail @ ..] => {
                        let w: Vec<&str> = std::iter::once("action")
                            .chain(tail.iter().copied())
                            .collect();
                        term(p.default.get_or_insert_with(Term::default), &w)
                    }
                    ["description", ..] | [] => {}
                    _ => p.other.push(rest.join(" ")),
                }
            }
            // An AS-path expression: AS numbers as tokens, matched against the whole path
            // (as on Junos; `null` and forms olav does not evaluate make routes unknown).
            ["as-path", name, rest @ ..] => {
                define(dev, StructureKind::AsPath, name, st.line);
                if let ["expression", e] = rest {
                    self.as_paths.push(((*name).to_owned(), (*e).to_owned()));
                }
            }
            _ => {}
        }
    }

    /// The policies into the model.
    pub(super) fn finish(&mut self, dev: &mut DeviceConfig) {
        dev.policy_options.communities = std::mem::take(&mut self.communities);
        dev.policy_options.as_paths = std::mem::take(&mut self.as_paths);
        for (name, p) in std::mem::take(&mut self.policies) {
            let mut terms: Vec<PolicyTerm> = Vec::new();
            if !p.other.is_empty() {
                terms.push(PolicyTerm {
                    name: "unread".into(),
                    from: vec![PolicyMatch::Other(format!(
                        "policy-statement {name}: {}",
                        p.other.join("; ")
                    ))],
                    then: Vec::new(),
                });
            }
            let entries = p.entries.into_iter().map(|(n, t)| (n.to_string(), t));
            for (label, t) in entries.chain(p.default.map(|t| ("default-action".to_owned(), t))) {
                terms.push(self.term(label, t));
            }
            dev.policy_options
                .statements
                .push(PolicyStatement { name, terms });
        }
    }

    fn term(&self, name: String, t: Term) -> PolicyTerm {
        let mut from = Vec::new();
        for f in t.from {
            match f {
                From::Match(m) => from.push(m),
                From::PrefixLists(names) => {
                    for n in names {
                        from.extend(self.prefix_list(&n));
                    }
                }
            }
        }
        let mut then = t.actions;
        if let (Some(asn), repeat) = t.prepend {
            // SR OS repeats a prepend at most 50 times.
            let n = repeat.unwrap_or(1).min(50) as usize;
            then.push(PolicyAction::Prepend(vec![asn; n]));
        }
        // No action-type: the entry changes the route and goes on to the next one.
        then.push(t.verdict.unwrap_or(PolicyAction::NextTerm));
        PolicyTerm { name, from, then }
    }

    /// A prefix-list's entries as route filters (alternatives of one another).
    fn prefix_list(&self, name: &str) -> Vec<PolicyMatch> {
        let Some(entries) = self.prefix_lists.get(name).filter(|e| !e.is_empty()) else {
            return vec![PolicyMatch::Other(format!(
                "prefix-list {name} is not defined or empty"
            ))];
        };
        entries
            .iter()
            .map(|e| {
                let len = e.prefix.prefix_len();
                let max = e.prefix.max_prefix_len();
                let lengths = match (e.kind.as_str(), e.lengths) {
                    ("exact", _) => Some((len, len)),
                    ("longer", _) => Some((len, max)),
                    ("through", (_, Some(t))) if t >= len => Some((len, t)),
                    ("range", (Some(s), Some(t))) if s <= t => Some((s, t)),
                    _ => None,
                };
                match lengths {
                    Some(lengths) => PolicyMatch::RouteFilter {
                        prefix: e.prefix.trunc(),
                        lengths,
                    },
                    None => PolicyMatch::Other(format!(
                        "prefix-list {name} prefix {} type {}",
                        e.prefix, e.kind
                    )),
                }
            })
            .collect()
    }
}

/// One statement of an entry (or of `default-action`).
fn term(t: &mut Term, w: &[&str]) {
    let other = |t: &mut Term, what: &str| t.actions.push(PolicyAction::Other(what.to_owned()));
    match w {
        ["from", "prefix-list", names @ ..] => t.from.push(From::PrefixLists(
            names.iter().map(|s| (*s).to_owned()).collect(),
        )),
        ["from", "protocol", "name", names @ ..] => t.from.push(From::Match(
            PolicyMatch::Protocol(names.iter().map(|s| (*s).to_owned()).collect()),
        )),
        ["from", "community", "name", c] => t
            .from
            .push(From::Match(PolicyMatch::Community(vec![(*c).to_owned()]))),
        ["from", "as-path", "name", a] => t
            .from
            .push(From::Match(PolicyMatch::AsPath(vec![(*a).to_owned()]))),
        ["from", "neighbor", "ip-address", a] => t.from.push(From::Match(match a.parse() {
            Ok(ip) => PolicyMatch::Neighbor(vec![ip]),
            Err(_) => PolicyMatch::Other(w.join(" ")),
        })),
        // olav computes IPv4 unicast only: an `ipv4` family condition holds for its routes.
        ["from", "family", "ipv4"] | ["description", ..] | ["from"] | ["action"] => {}
        ["from" | "to", ..] => t.from.push(From::Match(PolicyMatch::Other(w.join(" ")))),
        ["action", "action-type", a] => {
            t.verdict = Some(match *a {
                "accept" => PolicyAction::Accept,
                "reject" => PolicyAction::Reject,
                "next-entry" => PolicyAction::NextTerm,
                "next-policy" => PolicyAction::NextPolicy,
                _ => PolicyAction::Other(w.join(" ")),
            })
        }
        ["action", "local-preference", v] => match v.parse() {
            Ok(n) => t.actions.push(PolicyAction::LocalPreference(n)),
            Err(_) => other(t, &w.join(" ")),
        },
        ["action", "metric", op, v] => match (*op, v.parse::<i64>()) {
            ("set", Ok(n)) => t
                .actions
                .push(PolicyAction::Metric(u32::try_from(n).unwrap_or(0))),
            ("add", Ok(n)) => t.actions.push(PolicyAction::MetricAdd(n)),
            ("subtract", Ok(n)) => t.actions.push(PolicyAction::MetricAdd(-n)),
            _ => other(t, &w.join(" ")),
        },
        ["action", "community", op, names @ ..] => {
            let op = match *op {
                "add" => "add",
                "remove" => "delete",
                "replace" => "set",
                _ => {
                    other(t, &w.join(" "));
                    return;
                }
            };
            for n in names {
                t.actions.push(PolicyAction::Community {
                    op: op.to_owned(),
                    name: (*n).to_owned(),
                });
            }
        }
        ["action", "as-path-prepend", "as-path", a] => match a.parse() {
            Ok(n) => t.prepend.0 = Some(n),
            Err(_) => other(t, &w.join(" ")),
        },
        ["action", "as-path-prepend", "repeat", r] => match r.parse() {
            Ok(n) => t.prepend.1 = Some(n),
            Err(_) => other(t, &w.join(" ")),
        },
        ["action", "origin", o] => t.actions.push(PolicyAction::Origin((*o).to_owned())),
        ["action", "next-hop", "self"] => t.actions.push(PolicyAction::NextHopSelf),
        ["action", "next-hop", a] => match a.parse() {
            Ok(ip) => t.actions.push(PolicyAction::NextHop(ip)),
            Err(_) => other(t, &w.join(" ")),
        },
        _ => other(t, &w.join(" ")),
    }
}
