//! Named structures of the Cisco-style dialects: ACLs, prefix-lists, route-maps and the
//! other blocks a config defines, their entries and clauses.

use super::{define, parse_prefix, reference};
use crate::model::{
    AccessListEntry, CommunityListEntry, DeviceConfig, PrefixListEntry, RouteMapClause,
    RouteMapMatch, RouteMapSet, StructureKind,
};
use std::net::Ipv4Addr;

/// What a top-level structure line opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StructureBlock {
    /// A route-map clause: its sub-lines are `match` / `set`.
    RouteMap,
    /// An EOS-style prefix-list block: its sub-lines are `seq N permit|deny P …`.
    PrefixList(String),
    /// A block whose body (prefix-list or ACL entries) needs no further parsing.
    Entries,
    /// An IPv4 ACL block (`standard`: source-only entries).
    Acl {
        /// The ACL's name.
        name: String,
        /// Whether its entries are standard ones.
        standard: bool,
    },
    /// A one-line definition.
    None,
}

/// Handles top-level definitions of route-maps, prefix-lists, ACLs and community-lists.
/// Returns `None` when the line is not one of them.
pub fn structure_line(dev: &mut DeviceConfig, w: &[&str], line: u32) -> Option<StructureBlock> {
    match w {
        ["route-map", name, rest @ ..] => {
            define(dev, StructureKind::RouteMap, name, line);
            let (permit, seq) = match rest {
                [action, seq, ..] => (*action != "deny", seq.parse().unwrap_or(10)),
                [action] => (*action != "deny", 10),
                [] => (true, 10),
            };
            dev.route_map_clauses.push(RouteMapClause {
                name: (*name).to_owned(),
                seq,
                permit,
                prefix_lists: Vec::new(),
                other: Vec::new(),
                line,
                sets: Vec::new(),
                matches: Vec::new(),
            });
            Some(StructureBlock::RouteMap)
        }
        ["ip" | "ipv6", "prefix-list", name, rest @ ..] => {
            if *name == "sequence-number" {
                return Some(StructureBlock::None);
            }
            define(dev, StructureKind::PrefixList, name, line);
            Some(if rest.is_empty() {
                StructureBlock::PrefixList((*name).to_owned())
            } else {
                prefix_list_entry(dev, name, rest, line);
                StructureBlock::None
            })
        }
        ["ip" | "ipv6", "access-list", kind, name, ..]
            if matches!(*kind, "standard" | "extended" | "resequence") =>
        {
            if *kind == "resequence" {
                return Some(StructureBlock::None);
            }
            define(dev, StructureKind::AccessList, name, line);
            if w[0] == "ipv6" {
                return Some(StructureBlock::Entries);
            }
            super::acl::open(dev, name);
            Some(StructureBlock::Acl {
                name: (*name).to_owned(),
                standard: *kind == "standard",
            })
        }
        ["ip" | "ipv6", "access-list", name] => {
            define(dev, StructureKind::AccessList, name, line);
            if w[0] == "ipv6" {
                return Some(StructureBlock::Entries);
            }
            // EOS and NX-OS: `ip access-list NAME` is an extended list.
            super::acl::open(dev, name);
            Some(StructureBlock::Acl {
                name: (*name).to_owned(),
                standard: false,
            })
        }
        ["access-list", name, rest @ ..] => {
            define(dev, StructureKind::AccessList, name, line);
            access_list_entry(dev, name, rest);
            super::acl::numbered_line(dev, name, rest, &w.join(" "), line);
            Some(StructureBlock::None)
        }
        ["ip", "as-path", "access-list", name, action @ ("permit" | "deny"), expr @ ..] => {
            // EOS appends the origin it matches (`any`, `igp`, …): only `any` is the
            // plain list.
            let expr = match expr {
                [e @ .., "any"] => e,
                e => e,
            };
            dev.route_lists.as_path_lists.push((
                (*name).to_owned(),
                *action == "permit",
                expr.join(" "),
            ));
            Some(StructureBlock::None)
        }
        ["ip", "extcommunity-list", kind, name, rest @ ..]
            if matches!(*kind, "standard" | "expanded") =>
        {
            ext_community_list_entry(dev, name, *kind == "expanded", rest);
            Some(StructureBlock::None)
        }
        ["ip", "community-list", kind, name, rest @ ..]
            if matches!(*kind, "standard" | "expanded") =>
        {
            define(dev, StructureKind::CommunityList, name, line);
            community_list_entry(dev, name, *kind == "expanded", rest);
            Some(StructureBlock::None)
        }
        ["ip", "community-list", kind, name, ..] if matches!(*kind, "regexp") => {
            define(dev, StructureKind::CommunityList, name, line);
            Some(StructureBlock::None)
        }
        ["ip", "community-list", name, rest @ ..] => {
            define(dev, StructureKind::CommunityList, name, line);
            // Numbered lists: 1-99 standard, 100-500 expanded.
            if let Ok(n) = name.parse::<u32>() {
                community_list_entry(dev, name, n >= 100, rest);
            }
            Some(StructureBlock::None)
        }
        _ => None,
    }
}

/// An address and wildcard from `host A`, `any` or `A W`, and the words after it.
fn address_wildcard<'a, 'b>(w: &'a [&'b str]) -> Option<((Ipv4Addr, Ipv4Addr), &'a [&'b str])> {
    match w {
        ["any", rest @ ..] => Some(((Ipv4Addr::UNSPECIFIED, Ipv4Addr::BROADCAST), rest)),
        ["host", a, rest @ ..] => Some(((a.parse().ok()?, Ipv4Addr::UNSPECIFIED), rest)),
        [a, wild, rest @ ..] if wild.parse::<Ipv4Addr>().is_ok() => {
            Some(((a.parse().ok()?, wild.parse().ok()?), rest))
        }
        [a, rest @ ..] => Some(((a.parse().ok()?, Ipv4Addr::UNSPECIFIED), rest)),
        [] => None,
    }
}

/// `access-list N permit|deny …` (numbered IPv4 lists: standard `A [W]`, `host A`, `any`;
/// extended `ip SRC DST`). Other forms are not entries a route-map can be evaluated with.
fn access_list_entry(dev: &mut DeviceConfig, name: &str, w: &[&str]) {
    let (permit, rest) = match w {
        ["permit", rest @ ..] => (true, rest),
        ["deny", rest @ ..] => (false, rest),
        _ => return,
    };
    let entry = match rest {
        ["ip", spec @ ..] => address_wildcard(spec)
            .and_then(|(src, tail)| address_wildcard(tail).map(|(dst, _)| (src, Some(dst)))),
        spec => address_wildcard(spec).map(|(src, _)| (src, None)),
    };
    if let Some((source, destination)) = entry {
        dev.route_lists.access_lists.push(AccessListEntry {
            name: name.to_owned(),
            permit,
            source,
            destination,
        });
    }
}

/// `ip extcommunity-list standard|expanded NAME permit|deny rt V …`: a standard entry
/// naming only route targets keeps their values; anything else (`soo`, an expression) is
/// an entry olav does not evaluate (`expanded`, values as written).
fn ext_community_list_entry(dev: &mut DeviceConfig, name: &str, expanded: bool, w: &[&str]) {
    let (permit, rest) = match w {
        ["permit", v @ ..] => (true, v),
        ["deny", v @ ..] => (false, v),
        _ => return,
    };
    let rts: Option<Vec<String>> = rest
        .chunks(2)
        .map(|c| match c {
            ["rt", v] => Some((*v).to_owned()),
            _ => None,
        })
        .collect();
    let (expanded, values) = match rts {
        Some(v) if !expanded && !v.is_empty() => (false, v),
        _ => (true, vec![rest.join(" ")]),
    };
    dev.route_lists
        .ext_community_lists
        .push(CommunityListEntry {
            name: name.to_owned(),
            permit,
            expanded,
            values,
        });
}

/// `ip community-list [standard|expanded] NAME permit|deny …`.
fn community_list_entry(dev: &mut DeviceConfig, name: &str, expanded: bool, w: &[&str]) {
    let (permit, values) = match w {
        ["permit", v @ ..] => (true, v),
        ["deny", v @ ..] => (false, v),
        _ => return,
    };
    let values: Vec<String> = if expanded {
        vec![values.join(" ")]
    } else {
        values.iter().map(|v| (*v).to_owned()).collect()
    };
    dev.route_lists.community_lists.push(CommunityListEntry {
        name: name.to_owned(),
        permit,
        expanded,
        values,
    });
}

/// `[seq N] permit|deny P [ge X] [le Y]` of prefix-list `name` (IOS and NX-OS on one
/// line, EOS in a block). `description` lines are not entries.
pub fn prefix_list_entry(dev: &mut DeviceConfig, name: &str, w: &[&str], line: u32) {
    let (seq, rest) = match w {
        ["seq", n, rest @ ..] => (n.parse().ok(), rest),
        _ => (None, w),
    };
    let (permit, p, tail) = match rest {
        ["permit", p, tail @ ..] => (true, p, tail),
        ["deny", p, tail @ ..] => (false, p, tail),
        ["description", ..] | ["remark", ..] => return,
        _ => {
            dev.warn(
                line,
                format!("prefix-list {name}: cannot read '{}'", w.join(" ")),
            );
            return;
        }
    };
    let Some(prefix) = parse_prefix(p) else {
        dev.warn(line, format!("prefix-list {name}: '{p}' is not a prefix"));
        return;
    };
    let mut ge = None;
    let mut le = None;
    for pair in tail.chunks(2) {
        match pair {
            ["ge", v] => ge = v.parse().ok(),
            ["le", v] => le = v.parse().ok(),
            ["eq", v] => {
                ge = v.parse().ok();
                le = ge;
            }
            _ => {}
        }
    }
    dev.prefix_lists.push(PrefixListEntry {
        name: name.to_owned(),
        seq,
        permit,
        prefix,
        ge,
        le,
        line,
    });
}

/// A route-map `set` statement (the words after `set`).
fn route_map_set(w: &[&str]) -> RouteMapSet {
    let num = |x: &str| x.parse::<u32>().ok();
    let set = match w {
        ["local-preference", n] => num(n).map(RouteMapSet::LocalPreference),
        ["metric", n] => num(n).map(RouteMapSet::Metric),
        ["weight", n] => num(n).map(RouteMapSet::Weight),
        ["as-path", "prepend", asns @ ..] if !asns.is_empty() => asns
            .iter()
            .map(|a| super::parse_asn(a))
            .collect::<Option<Vec<u32>>>()
            .map(RouteMapSet::Prepend),
        ["community", values @ ..] if !values.is_empty() => {
            let additive = values.contains(&"additive");
            Some(RouteMapSet::Community {
                values: values
                    .iter()
                    .filter(|v| **v != "additive")
                    .map(|v| (*v).to_owned())
                    .collect(),
                additive,
            })
        }
        ["ip", "next-hop", a] => a.parse().ok().map(RouteMapSet::NextHop),
        ["origin", o @ ("igp" | "egp" | "incomplete")] => {
            Some(RouteMapSet::Origin((*o).to_owned()))
        }
        ["tag", n] => num(n).map(RouteMapSet::Tag),
        _ => None,
    };
    set.unwrap_or_else(|| RouteMapSet::Other(format!("set {}", w.join(" "))))
}

/// Handles a line inside a route-map clause. Returns false when not recognised.
pub fn route_map_line(dev: &mut DeviceConfig, w: &[&str], line: u32) -> bool {
    // What the clause matches on: prefix-lists are evaluated, anything else is recorded
    // so that an evaluation reaching this clause says "unknown".
    if let Some(c) = dev.route_map_clauses.last_mut() {
        match w {
            // An IPv6 prefix-list holds no IPv4 prefix: it matches no route olav computes.
            ["match", "ip" | "ipv6", "address", "prefix-list", names @ ..] => {
                c.prefix_lists.extend(names.iter().map(|n| (*n).to_owned()));
                c.matches.push(RouteMapMatch::PrefixList(
                    names.iter().map(|n| (*n).to_owned()).collect(),
                ));
            }
            ["match", "ip", "address", names @ ..]
                if !names.is_empty() && names[0] != "prefix-list" =>
            {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::AccessList(
                    names.iter().map(|n| (*n).to_owned()).collect(),
                ));
            }
            ["match", "as-path", names @ ..] if !names.is_empty() => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::AsPath(
                    names.iter().map(|n| (*n).to_owned()).collect(),
                ));
            }
            ["match", "community", names @ ..] if !names.is_empty() => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::Community {
                    names: names
                        .iter()
                        .filter(|n| **n != "exact-match")
                        .map(|n| (*n).to_owned())
                        .collect(),
                    exact: names.contains(&"exact-match"),
                });
            }
            ["match", "extcommunity", names @ ..] if !names.is_empty() => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::ExtCommunity(
                    names.iter().map(|n| (*n).to_owned()).collect(),
                ));
            }
            ["match", "interface", names @ ..] if !names.is_empty() => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::Interface(
                    names.iter().map(|n| (*n).to_owned()).collect(),
                ));
            }
            ["continue"] => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::Continue(None));
            }
            ["match", "tag", tags @ ..]
                if !tags.is_empty() && tags.iter().all(|t| t.parse::<u32>().is_ok()) =>
            {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::Tag(
                    tags.iter().filter_map(|t| t.parse().ok()).collect(),
                ));
            }
            // FRR `on-match next` / `on-match goto N`: IOS's `continue [N]`.
            ["on-match", "next"] => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::Continue(None));
            }
            ["on-match", "goto", n] if n.parse::<u32>().is_ok() => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::Continue(n.parse().ok()));
            }
            ["continue", n] if n.parse::<u32>().is_ok() => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::Continue(n.parse().ok()));
            }
            ["match", ..] | ["continue", ..] => {
                c.other.push(w.join(" "));
                c.matches.push(RouteMapMatch::Other(w.join(" ")));
            }
            ["set", rest @ ..] => c.sets.push(route_map_set(rest)),
            _ => {}
        }
    }
    match w {
        ["match", "ip" | "ipv6", "address", "prefix-list", names @ ..] => {
            for n in names {
                reference(
                    dev,
                    StructureKind::PrefixList,
                    n,
                    "route-map match prefix-list",
                    line,
                );
            }
            true
        }
        ["match", "ip" | "ipv6", "address", "access-list", names @ ..] => {
            for n in names {
                reference(
                    dev,
                    StructureKind::AccessList,
                    n,
                    "route-map match access-list",
                    line,
                );
            }
            true
        }
        ["match", "ip" | "ipv6", "address", names @ ..] => {
            for n in names {
                reference(
                    dev,
                    StructureKind::AccessList,
                    n,
                    "route-map match access-list",
                    line,
                );
            }
            true
        }
        ["match", "community", names @ ..] => {
            for n in names.iter().filter(|n| **n != "exact-match") {
                reference(
                    dev,
                    StructureKind::CommunityList,
                    n,
                    "route-map match community-list",
                    line,
                );
            }
            true
        }
        ["set", "comm-list", name, "delete"] => {
            reference(
                dev,
                StructureKind::CommunityList,
                name,
                "route-map set comm-list delete",
                line,
            );
            true
        }
        ["match" | "set" | "description" | "continue" | "on-match", ..] => true,
        _ => false,
    }
}
