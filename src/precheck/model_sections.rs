//! A device model cut into comparable sections, for telling whether a plan followed by
//! its rollback gives back the stored configuration.

/// A device model in comparable sections, line numbers and statement order aside (a
/// rollback re-adds lines at the end).
pub fn sections(c: &crate::model::DeviceConfig) -> [(&'static str, String); 6] {
    let mut c = c.clone();
    for i in &mut c.interfaces {
        i.line = 0;
        for a in &mut i.addresses {
            a.line = 0;
        }
    }
    // Order carries no meaning: a Junos rollback re-adds a deleted interface's statements
    // after the others, as the device itself would list them.
    c.interfaces.sort_by(|a, b| a.name.cmp(&b.name));
    for i in &mut c.interfaces {
        i.addresses.sort_by_key(|a| format!("{a:?}"));
    }
    if let Some(b) = &mut c.bgp {
        b.line = 0;
        for n in &mut b.neighbors {
            n.line = 0;
            n.address_families.sort();
        }
        b.neighbors
            .sort_by_key(|n| (n.vrf.clone(), n.peer.to_string()));
        for n in &mut b.networks {
            n.line = 0;
        }
        b.networks.sort_by_key(|n| (n.vrf.clone(), n.prefix));
    }
    for r in &mut c.static_routes {
        r.line = 0;
    }
    c.static_routes.sort_by_key(|r| format!("{r:?}"));
    for e in &mut c.prefix_lists {
        e.line = 0;
    }
    c.prefix_lists.sort_by_key(|e| format!("{e:?}"));
    for r in &mut c.route_map_clauses {
        r.line = 0;
        // A clause's settings apply together: a rollback re-adds a changed one last.
        r.sets.sort_by_key(|x| format!("{x:?}"));
        r.matches.sort_by_key(|x| format!("{x:?}"));
        r.other.sort();
    }
    c.route_map_clauses.sort_by_key(|r| format!("{r:?}"));
    // A filter's entries in order, by what they match: an entry's number and text are
    // how it was written (IOS lists none, its candidate numbers them).
    for f in &mut c.filters {
        for l in &mut f.lines {
            l.line = 0;
            l.seq = None;
            l.text.clear();
        }
    }
    c.filters.sort_by(|a, b| a.name.cmp(&b.name));
    for b in &mut c.filter_bindings {
        b.line = 0;
    }
    c.filter_bindings.sort_by_key(|b| format!("{b:?}"));
    [
        ("interfaces", format!("{:?}", c.interfaces)),
        ("BGP", format!("{:?}", c.bgp)),
        ("static routes", format!("{:?}", c.static_routes)),
        (
            "routing policy",
            format!("{:?}{:?}", c.prefix_lists, c.route_map_clauses),
        ),
        (
            "packet filters",
            format!("{:?}{:?}", c.filters, c.filter_bindings),
        ),
        ("OSPF", format!("{:?}", ospf_settings(&c))),
    ]
}

/// The OSPF settings a change can alter (each interface's cost, area, passive state and
/// network type, the processes and their network statements), line numbers aside, in
/// sorted lines.
fn ospf_settings(c: &crate::model::DeviceConfig) -> Vec<String> {
    let mut out: Vec<String> = c
        .ospf_networks
        .iter()
        .map(|n| {
            let mut n = n.clone();
            n.line = 0;
            format!("{n:?}")
        })
        .collect();
    // Passive lists are sets (a rollback may list an interface again at the end), and
    // line numbers are spread through the OSPF model: compared without any `line: N`.
    let mut ospf = c.ospf.clone();
    for p in &mut ospf.processes {
        p.passive.sort();
        p.not_passive.sort();
    }
    let text = format!("{ospf:?}");
    let mut cleaned = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find("line: ") {
        cleaned.push_str(&rest[..i]);
        rest = rest[i + 6..].trim_start_matches(|ch: char| ch.is_ascii_digit());
    }
    cleaned.push_str(rest);
    out.push(cleaned);
    out.sort();
    out
}
