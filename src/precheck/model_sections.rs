//! A device model cut into comparable sections, for telling whether a plan followed by
//! its rollback gives back the stored configuration.

/// A device model in comparable sections, line numbers and statement order aside (a
/// rollback re-adds lines at the end).
pub fn sections(c: &crate::model::DeviceConfig) -> [(&'static str, String); 4] {
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
    }
    c.route_map_clauses.sort_by_key(|r| format!("{r:?}"));
    [
        ("interfaces", format!("{:?}", c.interfaces)),
        ("BGP", format!("{:?}", c.bgp)),
        ("static routes", format!("{:?}", c.static_routes)),
        (
            "routing policy",
            format!("{:?}{:?}", c.prefix_lists, c.route_map_clauses),
        ),
    ]
}
