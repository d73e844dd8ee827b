//! Junos `policy-options` and `firewall`: structure definitions, policy-statement terms
//! as route-map-like clauses, and every reference to them with Batfish's usage names.

use super::statements::Statement;
use super::{parse_net, Junos};
use crate::import::parse::common::reference;
use crate::model::{PrefixListEntry, RouteMapClause, StructureKind};

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
            ["community", name, ..] => self.define(StructureKind::Community, name, at),
            ["as-path", name, ..] => self.define(StructureKind::AsPath, name, at),
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
