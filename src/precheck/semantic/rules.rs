//! What the semantic diff needs to know of the model beyond its shape: the order of its
//! categories, what it leaves out, and how the elements of a list are known (their
//! identity). A field with no rule is still diffed: a list's elements are then known by
//! their whole content, an object's fields are compared one by one.

/// Top-level fields in the order the report lists their changes; fields not named here
/// come after them (in name order), and the device's own settings (hostname, version)
/// last.
pub const CATEGORIES: &[&str] = &[
    "interfaces",
    "static_routes",
    "ospf_networks",
    "ospf",
    "isis",
    "eigrp",
    "bgp",
    "prefix_lists",
    "route_map_clauses",
    "policy_options",
    "route_lists",
    "filters",
    "filter_bindings",
];

/// Top-level fields that are bookkeeping, not configuration: counts of lines read, parse
/// warnings, whether the file ended with `end`; and `structures` / `references`, which
/// restate the definitions and uses the other fields hold (a route-map clause, a
/// neighbor's route-map): listing them would say every change twice.
pub const SKIPPED: &[&str] = &[
    "lines_total",
    "lines_unrecognised",
    "warnings",
    "saw_end",
    "structures",
    "references",
];

/// Fields left out anywhere: judged or filled after parsing rather than configured (a
/// static route's `activity`, an interface's `linked_to` from the cabling), and the
/// views of the session checks that restate the routing model's fuller ones
/// (`bgp.redistribute` and `bgp.aggregates` hold the default VRF's share of
/// `bgp.routing`'s). Line numbers are left out too (see [`is_line_number`]).
pub const DERIVED: &[&str] = &["activity", "linked_to"];

/// Paths left out (see [`DERIVED`]); and a route-map clause's `prefix_lists`, which its
/// typed `matches` restate.
pub const RESTATED: &[&str] = &[
    "bgp.redistribute",
    "bgp.aggregates",
    "route_map_clauses.prefix_lists",
];

/// Paths left out when a sibling field (the second) holds anything on either side: a
/// route-map clause's `other` statements are its `matches` in words where the parser
/// types them (the Junos parser records some in `other` only).
pub const RESTATED_BY: &[(&str, &str)] = &[("route_map_clauses.other", "matches")];

/// Whether a field is a source line number (`line`, `lines`, `…_line`): a number or a
/// list of numbers under such a name. Moving a line is not a change. (A filter's `lines`
/// are its entries, not numbers, and stay.)
pub fn is_line_number(name: &str, v: &serde_json::Value) -> bool {
    let named =
        name == "line" || name == "lines" || name.ends_with("_line") || name.ends_with("_lines");
    named
        && match v {
            serde_json::Value::Number(_) => true,
            serde_json::Value::Array(a) => a.iter().all(serde_json::Value::is_number),
            _ => false,
        }
}

/// Top-level fields left out when another (a path from the top) holds anything on either
/// side: the Junos parser writes each policy-statement's terms as route-map clauses too,
/// for the checks that read route-maps; the statements say it in the device's own terms.
pub const SHADOWED_BY: &[(&str, &str)] = &[("route_map_clauses", "policy_options.statements")];

/// How the elements of one list are known.
pub struct Rule {
    /// The list's path from the top (`bgp.neighbors`; a nested list: its element's
    /// path and its own name, `policy_options.statements.terms`).
    pub path: &'static str,
    /// What an element is, in words (`BGP neighbor`).
    pub kind: &'static str,
    /// The identity: (word before it, field) pairs; the field's value, when present,
    /// follows its word (`via 10.0.12.2`). An empty key: the whole element.
    pub key: &'static [(&'static str, &'static str)],
    /// Names for a tuple's parts, which make it an object before it is compared.
    pub tuple: &'static [&'static str],
    /// The list holds settings of an interface (named by the key): its changes are
    /// changes of that interface, its fields named after this word (`OSPF cost`).
    pub attach: Option<&'static str>,
}

const fn rule(
    path: &'static str,
    kind: &'static str,
    key: &'static [(&'static str, &'static str)],
) -> Rule {
    Rule {
        path,
        kind,
        key,
        tuple: &[],
        attach: None,
    }
}

const fn tuple(
    path: &'static str,
    kind: &'static str,
    key: &'static [(&'static str, &'static str)],
    parts: &'static [&'static str],
) -> Rule {
    Rule {
        path,
        kind,
        key,
        tuple: parts,
        attach: None,
    }
}

const fn attached(path: &'static str, word: &'static str) -> Rule {
    Rule {
        path,
        kind: "interface",
        key: &[("", "interface")],
        tuple: &[],
        attach: Some(word),
    }
}

/// The rules, by path.
pub const RULES: &[Rule] = &[
    rule("interfaces", "interface", &[("", "name")]),
    attached("ospf.interfaces", "OSPF"),
    attached("eigrp.interfaces", "EIGRP"),
    attached("isis.interfaces", "IS-IS"),
    rule(
        "static_routes",
        "static route",
        &[
            ("vrf", "vrf"),
            ("", "prefix"),
            ("via", "next_hop"),
            ("via", "next_hop_interface"),
        ],
    ),
    rule(
        "ospf_networks",
        "OSPF network",
        &[("process", "process"), ("", "prefix"), ("on", "interface")],
    ),
    rule(
        "ospf.processes",
        "OSPF process",
        &[("", "id"), ("vrf", "vrf")],
    ),
    rule(
        "isis.processes",
        "IS-IS process",
        &[("", "tag"), ("vrf", "vrf")],
    ),
    rule(
        "eigrp.processes",
        "EIGRP process",
        &[("", "id"), ("vrf", "vrf")],
    ),
    rule(
        "bgp.neighbors",
        "BGP neighbor",
        &[("", "peer"), ("vrf", "vrf")],
    ),
    rule(
        "bgp.networks",
        "BGP network",
        &[("", "prefix"), ("vrf", "vrf")],
    ),
    rule(
        "bgp.routing.aggregates",
        "BGP aggregate",
        &[("", "prefix"), ("vrf", "vrf")],
    ),
    tuple(
        "bgp.routing.redistribute",
        "BGP redistribution",
        &[("", "protocol"), ("vrf", "vrf")],
        &["vrf", "protocol", "route_map"],
    ),
    rule("bgp.routing.vrf_vpn", "VRF route targets", &[("", "vrf")]),
    rule(
        "prefix_lists",
        "prefix-list",
        &[("", "name"), ("seq", "seq"), ("", "prefix")],
    ),
    rule(
        "route_map_clauses",
        "route-map",
        &[("", "name"), ("", "seq")],
    ),
    rule(
        "policy_options.statements",
        "policy-statement",
        &[("", "name")],
    ),
    rule(
        "policy_options.statements.terms",
        "policy-statement",
        &[("term", "name")],
    ),
    tuple(
        "policy_options.communities",
        "community",
        &[("", "name")],
        &["name", "members"],
    ),
    tuple(
        "policy_options.as_paths",
        "AS-path",
        &[("", "name")],
        &["name", "regex"],
    ),
    rule("route_lists.access_lists", "access-list entry", &[]),
    rule("route_lists.community_lists", "community-list entry", &[]),
    tuple(
        "route_lists.as_path_lists",
        "AS-path list entry",
        &[("", "name"), ("", "regex")],
        &["name", "permit", "regex"],
    ),
    rule(
        "route_lists.ext_community_lists",
        "extended community-list entry",
        &[],
    ),
    rule("filters", "packet filter", &[("", "name")]),
    rule(
        "filters.lines",
        "packet filter entry",
        &[("term", "term"), ("", "text")],
    ),
    rule(
        "filter_bindings",
        "filter binding",
        &[("", "interface"), ("", "direction")],
    ),
];

/// Lists whose elements are named by their own configuration line (a filter entry): an
/// added or removed one lists no fields beside it.
pub const SELF_DESCRIBED: &[&str] = &["filters.lines"];

/// The group settings' kinds: what an object's own fields are, in words.
pub const GROUPS: &[(&str, &str)] = &[("bgp", "BGP process")];

/// The rule of the list at `path`, if it has one.
pub fn rule_of(path: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.path == path)
}

/// The rank of a top-level field in the report's order.
pub fn rank(field: &str) -> usize {
    CATEGORIES
        .iter()
        .position(|c| *c == field)
        .unwrap_or(CATEGORIES.len())
}
