//! Junos `policy-options` and `firewall`: structure definitions, policy-statement terms
//! as route-map-like clauses, and every reference to them with Batfish's usage names.

use super::statements::Statement;
use super::{parse_net, Junos};
use crate::import::parse::common::reference;
use crate::model::{
    PolicyAction, PolicyMatch, PolicyStatement, PolicyTerm, PrefixListEntry, RouteMapClause,
    StructureKind,
};
use ipnet::IpNet;

/// Policy names of a chain or expression (`( A && B )` names A and B), each with the
/// line it is written on.
pub(super) fn policy_names<'a>(words: &[&'a str], st: &Statement) -> Vec<(&'a str, u32)> {
    words
        .iter()
        .enumerate()
        .map(|(k, w)| {
            (
                w.trim_matches(|c| c == '(' || c == ')'),
                st.line_of(&words[k..]),
            )
        })
        .filter(|(w, _)| !w.is_empty() && !matches!(*w, "&&" | "||" | "!"))
        .collect()
}

impl Junos {
    /// References to each of `names` (a tail of the statement's words), each at the line
    /// its name is written on.
    pub(super) fn refs(
        &mut self,
        kind: StructureKind,
        names: &[&str],
        context: &str,
        st: &Statement,
    ) {
        for (k, n) in names.iter().enumerate() {
            reference(&mut self.dev, kind, n, context, st.line_of(&names[k..]));
        }
    }

    /// A reference to the first of `rest`, a tail of the statement's words.
    fn ref_one(&mut self, kind: StructureKind, rest: &[&str], context: &str, st: &Statement) {
        if let Some(name) = rest.first() {
            reference(&mut self.dev, kind, name, context, st.line_of(rest));
        }
    }

    /// References to the policies of a chain or policy expression.
    pub(super) fn policy_refs(&mut self, words: &[&str], context: &str, st: &Statement) {
        for (p, line) in policy_names(words, st) {
            reference(
                &mut self.dev,
                StructureKind::PolicyStatement,
                p,
                context,
                line,
            );
        }
    }

    pub(super) fn policy_options(&mut self, w: &[&str], st: &Statement) {
        let Some(at) = w.get(1..).map(|name| st.line_of(name)) else {
            return;
        };
        match w {
            ["policy-statement", name, rest @ ..] => {
                self.define(StructureKind::PolicyStatement, name, at);
                let (term, rest) = match rest {
                    ["term", t, tail @ ..] => (*t, tail),
                    tail => ("", tail),
                };
                self.term(name, term, rest, st);
                self.policy_term(name, term, rest);
                self.policy_clause(rest, st);
            }
            ["prefix-list", name, rest @ ..] => {
                self.define(StructureKind::PrefixList, name, at);
                // `from prefix-list` matches its prefixes exactly.
                if let [p] = rest {
                    if let Some(prefix) = parse_net(p) {
                        self.dev.prefix_lists.push(PrefixListEntry {
                            name: (*name).to_owned(),
                            seq: None,
                            permit: true,
                            prefix: prefix.trunc(),
                            ge: None,
                            le: None,
                            line: st.line_of(rest),
                        });
                    }
                }
                match self.prefix_list_index.get(*name) {
                    Some(i) => self.prefix_lists[*i].2 |= !rest.is_empty(),
                    None => {
                        self.prefix_list_index
                            .insert((*name).to_owned(), self.prefix_lists.len());
                        self.prefix_lists
                            .push(((*name).to_owned(), at, !rest.is_empty()));
                    }
                }
            }
            ["community", name, rest @ ..] => {
                self.define(StructureKind::Community, name, at);
                if let ["members", members @ ..] = rest {
                    let members: Vec<String> = members
                        .iter()
                        .map(|m| m.trim_matches('"'))
                        .filter(|m| !matches!(*m, "[" | "]" | ""))
                        .map(str::to_owned)
                        .collect();
                    let c = &mut self.dev.policy_options.communities;
                    match c.iter_mut().find(|(n, _)| n == name) {
                        Some((_, m)) => m.extend(members),
                        None => c.push(((*name).to_owned(), members)),
                    }
                }
            }
            ["as-path", name, rest @ ..] => {
                self.define(StructureKind::AsPath, name, at);
                if !rest.is_empty() {
                    let regex = rest.join(" ").trim_matches('"').to_owned();
                    self.dev
                        .policy_options
                        .as_paths
                        .push(((*name).to_owned(), regex));
                }
            }
            ["as-path-group", name, ..] => self.define(StructureKind::AsPathGroup, name, at),
            _ => {}
        }
    }

    /// A policy-statement term as a route-map-like clause, so that what an export policy
    /// announces can be evaluated: `from prefix-list` (and `prefix-list-filter … exact`)
    /// are its prefix lists, `then accept` / `reject` its verdict; any other match
    /// condition or flow action is kept as not evaluated (the answer is then unknown).
    fn term(&mut self, policy: &str, term: &str, w: &[&str], st: &Statement) {
        let key = (policy.to_owned(), term.to_owned());
        let i = match self.terms.get(&key) {
            Some((i, _)) => *i,
            None => {
                let seq = 10
                    * (1 + self
                        .dev
                        .route_map_clauses
                        .iter()
                        .filter(|c| c.name == policy)
                        .count() as u32);
                self.terms
                    .insert(key.clone(), (self.dev.route_map_clauses.len(), false));
                self.dev.route_map_clauses.push(RouteMapClause {
                    name: policy.to_owned(),
                    seq,
                    permit: false,
                    prefix_lists: Vec::new(),
                    other: Vec::new(),
                    line: st.line_of(w),
                    sets: Vec::new(),
                    matches: Vec::new(),
                });
                self.dev.route_map_clauses.len() - 1
            }
        };
        let clause = &mut self.dev.route_map_clauses[i];
        match w {
            ["from", "prefix-list", names @ ..] => clause
                .prefix_lists
                .extend(names.iter().map(|n| (*n).to_owned())),
            ["from", "prefix-list-filter", name, "exact"] => {
                clause.prefix_lists.push((*name).to_owned())
            }
            ["then", verdict @ ("accept" | "reject")] => {
                clause.permit = *verdict == "accept";
                if let Some(t) = self.terms.get_mut(&key) {
                    t.1 = true;
                }
            }
            ["then", "next" | "default-action", ..] | ["from" | "to", ..] => {
                clause.other.push(w.join(" "))
            }
            _ => {}
        }
    }

    /// A policy-statement's `from` or `then` statement, for the routing model
    /// (`model::PolicyOptions`).
    fn policy_term(&mut self, policy: &str, term: &str, w: &[&str]) {
        let st = &mut self.dev.policy_options.statements;
        let si = match st.iter().position(|s| s.name == policy) {
            Some(i) => i,
            None => {
                st.push(PolicyStatement {
                    name: policy.to_owned(),
                    terms: Vec::new(),
                });
                st.len() - 1
            }
        };
        let terms = &mut st[si].terms;
        // The statements outside any term are its last, unnamed term.
        let ti = match terms.iter().position(|t| t.name == term) {
            Some(i) => i,
            None if term.is_empty() => {
                terms.push(PolicyTerm::default());
                terms.len() - 1
            }
            None => {
                let at = terms
                    .iter()
                    .position(|t| t.name.is_empty())
                    .unwrap_or(terms.len());
                terms.insert(
                    at,
                    PolicyTerm {
                        name: term.to_owned(),
                        ..PolicyTerm::default()
                    },
                );
                at
            }
        };
        let t = &mut terms[ti];
        let values = |v: &[&str]| -> Vec<String> {
            v.iter()
                .map(|x| x.trim_matches('"'))
                .filter(|x| !matches!(*x, "[" | "]" | ""))
                .map(str::to_owned)
                .collect()
        };
        match w {
            ["from", rest @ ..] => {
                let m = from_condition(rest, &values);
                // Values of one kind add up (`from protocol a` then `from protocol b`).
                let merged = t.from.iter_mut().any(|x| match (x, &m) {
                    (PolicyMatch::Protocol(a), PolicyMatch::Protocol(b))
                    | (PolicyMatch::Community(a), PolicyMatch::Community(b))
                    | (PolicyMatch::Interface(a), PolicyMatch::Interface(b)) => {
                        a.extend(b.iter().cloned());
                        true
                    }
                    (PolicyMatch::AsPath(a), PolicyMatch::AsPath(b)) => {
                        a.extend(b.iter().cloned());
                        true
                    }
                    (PolicyMatch::Neighbor(a), PolicyMatch::Neighbor(b)) => {
                        a.extend(b.iter().copied());
                        true
                    }
                    _ => false,
                });
                if !merged {
                    t.from.push(m);
                }
            }
            ["then", rest @ ..] => t.then.push(then_action(rest, &values)),
            ["to", ..] => t.from.push(PolicyMatch::Other(w.join(" "))),
            _ => {}
        }
    }

    /// A policy-statement's `from`, `to` or `then` clause.
    fn policy_clause(&mut self, w: &[&str], st: &Statement) {
        use StructureKind::{AsPath, AsPathGroup, Community, PrefixList};
        match w {
            ["from" | "to", "prefix-list", names @ ..] => {
                self.refs(PrefixList, names, "policy-statement prefix-list", st)
            }
            ["from" | "to", "prefix-list-filter", _, ..] => self.ref_one(
                PrefixList,
                &w[2..],
                "policy-statement prefix-list-filter",
                st,
            ),
            ["from" | "to", "community", names @ ..] => {
                self.refs(Community, names, "policy-statement from community", st)
            }
            ["from" | "to", "as-path", names @ ..] => {
                self.refs(AsPath, names, "policy-statement from as-path", st)
            }
            ["from" | "to", "as-path-group", names @ ..] => self.refs(
                AsPathGroup,
                names,
                "policy-statement from as-path-group",
                st,
            ),
            ["from" | "to", "policy", names @ ..] => {
                self.policy_refs(names, "policy-statement policy", st)
            }
            ["then", "community", op @ ("add" | "delete" | "set"), _, ..] => {
                let context = format!("policy-statement then {op} community");
                self.ref_one(Community, &w[3..], &context, st);
            }
            _ => {}
        }
    }

    pub(super) fn firewall(&mut self, w: &[&str], st: &Statement) {
        let (defines, name_at, rest) = match w {
            ["filter", _, rest @ ..] => (true, &w[1..], rest),
            ["family", "inet", "filter", _, rest @ ..] => (true, &w[3..], rest),
            // Other families' filters are separate namespaces olav does not model; their
            // terms still reference prefix-lists.
            ["family", _, "filter", _, rest @ ..] => (false, &w[3..], rest),
            _ => return,
        };
        if defines {
            let name = name_at[0];
            self.define(StructureKind::FirewallFilter, name, st.line_of(name_at));
            self.filter_statement(name, rest, st);
        }
        if let ["term", _, "from", kind, _, ..] = rest {
            let context = match *kind {
                "source-prefix-list" => "firewall filter source prefix-list",
                "destination-prefix-list" => "firewall filter destination prefix-list",
                "prefix-list" => "firewall filter prefix-list",
                _ => return,
            };
            self.ref_one(StructureKind::PrefixList, &rest[4..], context, st);
        }
    }
}

/// A `from` condition (the words after `from`).
fn from_condition(w: &[&str], values: &dyn Fn(&[&str]) -> Vec<String>) -> PolicyMatch {
    let other = || PolicyMatch::Other(format!("from {}", w.join(" ")));
    match w {
        ["protocol", v @ ..] => PolicyMatch::Protocol(values(v)),
        ["prefix-list", name] => PolicyMatch::PrefixList((*name).to_owned()),
        ["prefix-list-filter", name, m @ ("exact" | "orlonger" | "longer")] => {
            PolicyMatch::PrefixListFilter {
                name: (*name).to_owned(),
                modifier: (*m).to_owned(),
            }
        }
        ["community", v @ ..] => PolicyMatch::Community(values(v)),
        ["interface", v @ ..] => PolicyMatch::Interface(values(v)),
        ["as-path", v @ ..] => PolicyMatch::AsPath(values(v)),
        ["local-preference", n] => n
            .parse()
            .map_or_else(|_| other(), PolicyMatch::LocalPreference),
        ["neighbor", v @ ..] => {
            let addrs: Option<Vec<std::net::IpAddr>> =
                values(v).iter().map(|a| a.parse().ok()).collect();
            addrs.map_or_else(other, PolicyMatch::Neighbor)
        }
        ["route-filter", p, m @ ..] => {
            let Some(prefix) = parse_net(p).map(|n| n.trunc()) else {
                return other();
            };
            route_filter(prefix, m).unwrap_or_else(other)
        }
        _ => other(),
    }
}

/// A route-filter's lengths from its modifier (no action after it: that is not
/// evaluated).
fn route_filter(prefix: IpNet, m: &[&str]) -> Option<PolicyMatch> {
    let len = prefix.prefix_len();
    let max = prefix.max_prefix_len();
    let slash = |s: &str| s.trim_start_matches('/').parse::<u8>().ok();
    let lengths = match m {
        ["exact"] => (len, len),
        ["orlonger"] => (len, max),
        ["longer"] => (len.checked_add(1)?, max),
        ["upto", n] => (len, slash(n)?),
        ["prefix-length-range", r] => {
            let (a, b) = r.split_once('-')?;
            (slash(a)?, slash(b)?)
        }
        _ => return None,
    };
    Some(PolicyMatch::RouteFilter { prefix, lengths })
}

/// A `then` action (the words after `then`).
fn then_action(w: &[&str], values: &dyn Fn(&[&str]) -> Vec<String>) -> PolicyAction {
    let other = || PolicyAction::Other(format!("then {}", w.join(" ")));
    match w {
        ["accept"] => PolicyAction::Accept,
        ["reject"] => PolicyAction::Reject,
        ["next", "term"] => PolicyAction::NextTerm,
        ["next", "policy"] => PolicyAction::NextPolicy,
        ["local-preference", n] => n
            .parse()
            .map_or_else(|_| other(), PolicyAction::LocalPreference),
        ["metric", n] => n.parse().map_or_else(|_| other(), PolicyAction::Metric),
        ["local-preference" | "metric", op @ ("add" | "subtract"), n] => {
            let Ok(v) = n.parse::<i64>() else {
                return other();
            };
            let v = if *op == "add" { v } else { -v };
            if w[0] == "metric" {
                PolicyAction::MetricAdd(v)
            } else {
                PolicyAction::LocalPreferenceAdd(v)
            }
        }
        ["validation-state", state] => PolicyAction::ValidationState((*state).to_owned()),
        ["community", op @ ("add" | "set" | "delete"), name] => PolicyAction::Community {
            op: (*op).to_owned(),
            name: (*name).to_owned(),
        },
        ["next-hop", "self"] => PolicyAction::NextHopSelf,
        ["next-hop", a] => a.parse().map_or_else(|_| other(), PolicyAction::NextHop),
        ["as-path-prepend", v @ ..] => {
            let asns: Option<Vec<u32>> = values(v)
                .iter()
                .flat_map(|x| x.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
                .map(|a| crate::import::parse::common::parse_asn(&a))
                .collect();
            asns.filter(|a| !a.is_empty())
                .map_or_else(other, PolicyAction::Prepend)
        }
        // Forwarding-table export only: no effect on routes.
        ["load-balance", ..] => PolicyAction::Other("then load-balance".into()),
        _ => other(),
    }
}
