//! Junos, the second configuration dialect: the few kinds of lines the intents need, as
//! `set` / `delete` commands, and rollbacks made of the stored configuration's own
//! statements in `display set` form. A rollback gives a path back exactly as stored:
//! `delete <path>`, then every stored statement under it (with its `deactivate` line when
//! it was inactive), so plan then rollback leaves the device's model as it was.
//!
//! Decisions:
//! - A Junos interface name with a unit (`xe-0/1/2.0`) is unit 0 of port `xe-0/1/2`:
//!   description, `disable` and MTU go where the name points (a unit's MTU is `family inet
//!   mtu`), addresses always on a unit (a port name means its unit 0).
//! - A neighbor is found where the stored config has it (`[routing-instances R] protocols
//!   bgp group G neighbor X`); removing it deletes that path, restoring it re-adds every
//!   stored statement under it.
//! - A redundant uplink joins the existing session's group on the same device: it inherits
//!   the group's type, peer AS, import and export chains — the Junos form of copying the
//!   existing uplink's policy — and the existing unit's filters are copied to the new unit.

pub mod policy;
pub mod rollback;

use super::{Change, IfChange, Lines, StaticRouteLine};
use crate::import::parse::junos::{quote, set_form, set_lines, SetLine};
use crate::model::{StaticRoute, Vendor};
use ipnet::IpNet;
use std::net::IpAddr;

/// The stored configuration of a Junos device, in set form.
pub struct Stored {
    lines: Vec<SetLine>,
}

/// Words of a path.
pub fn path(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn joined(a: &[String], b: &[&str]) -> Vec<String> {
    a.iter().cloned().chain(path(b)).collect()
}

/// `set <path>`, words quoted where needed.
pub fn set(p: &[String]) -> String {
    format!("set {}", words(p))
}

/// `delete <path>`.
pub fn delete(p: &[String]) -> String {
    format!("delete {}", words(p))
}

fn words(p: &[String]) -> String {
    p.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

/// The configuration path of an interface or unit: `xe-0/1/2.0` → `interfaces xe-0/1/2
/// unit 0`.
pub fn interface_path(name: &str) -> Vec<String> {
    match name.rsplit_once('.') {
        Some((port, unit)) if !unit.is_empty() && unit.bytes().all(|b| b.is_ascii_digit()) => {
            path(&["interfaces", port, "unit", unit])
        }
        _ => path(&["interfaces", name]),
    }
}

/// The port of an interface or unit name.
pub fn port_of(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((port, unit)) if unit.bytes().all(|b| b.is_ascii_digit()) => port,
        _ => name,
    }
}

/// Whether a name is a physical Ethernet port a new link can use (`ge-`, `xe-`, `et-`,
/// `mge-`, `fe-`): not a unit, loopback, IRB, management or aggregate interface.
pub fn is_port(name: &str) -> bool {
    ["ge-", "xe-", "et-", "mge-", "fe-"]
        .iter()
        .any(|p| name.starts_with(p))
        && port_of(name) == name
}

impl Stored {
    /// Reads a stored configuration (either syntax).
    pub fn new(text: &str) -> Self {
        Stored {
            lines: set_lines(text),
        }
    }

    fn under<'a>(&'a self, p: &'a [String]) -> impl Iterator<Item = &'a SetLine> + 'a {
        self.lines.iter().filter(move |l| l.words.starts_with(p))
    }

    /// Whether anything is configured at or under `p`.
    pub fn has(&self, p: &[String]) -> bool {
        self.under(p).next().is_some()
    }

    /// The stored statements under `p`, as `set` (and `deactivate`) lines.
    pub fn lines_under(&self, p: &[String]) -> Vec<String> {
        self.under(p).map(SetLine::render).collect()
    }

    /// What gives `p` back exactly as stored: `delete p`, then every stored statement
    /// under it.
    pub fn restore(&self, p: &[String]) -> Vec<String> {
        let mut out = vec![delete(p)];
        out.extend(self.lines_under(p));
        out
    }

    /// Where BGP neighbor `peer` of `vrf` is configured: `[routing-instances R] protocols
    /// bgp group G neighbor <peer>`.
    pub fn neighbor_path(&self, peer: &str, vrf: &str) -> Option<Vec<String>> {
        self.lines.iter().find_map(|l| {
            let w: Vec<&str> = l.words.iter().map(String::as_str).collect();
            let (inst, rest) = match w.as_slice() {
                ["routing-instances", r, rest @ ..] => (Some(*r), rest),
                rest => (None, rest),
            };
            if inst.unwrap_or("default") != vrf {
                return None;
            }
            match rest {
                ["protocols", "bgp", "group", g, "neighbor", n, ..] if *n == peer => {
                    let mut p = inst
                        .map(|r| path(&["routing-instances", r]))
                        .unwrap_or_default();
                    p.extend(path(&["protocols", "bgp", "group", g, "neighbor", n]));
                    Some(p)
                }
                _ => None,
            }
        })
    }

    /// The group a neighbor is configured in (default instance).
    pub fn group_of(&self, peer: &str) -> Option<String> {
        self.neighbor_path(peer, "default")
            .and_then(|p| p.get(3).cloned())
    }

    /// The stored paths of static routes to `prefix` in `vrf` (None: the master instance),
    /// each up to and including the prefix: `[routing-instances R] routing-options [rib T]
    /// static route P`.
    pub fn route_paths(&self, prefix: &str, vrf: Option<&str>) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = Vec::new();
        for l in &self.lines {
            let w = &l.words;
            let inst = (w.first().map(String::as_str) == Some("routing-instances"))
                .then(|| w.get(1).map(String::as_str))
                .flatten();
            if inst != vrf {
                continue;
            }
            let Some(i) = w
                .windows(3)
                .position(|x| x[0] == "static" && x[1] == "route" && x[2] == prefix)
            else {
                continue;
            };
            let p = w[..i + 3].to_vec();
            if p.contains(&"routing-options".to_owned()) && !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// The IGP adjacency checks worth running: only for the IGPs configured.
    pub fn igp_checks(&self) -> Vec<&'static str> {
        let runs = |igp: &str| {
            self.lines.iter().any(|l| {
                let w = &l.words;
                let at = if w.first().map(String::as_str) == Some("routing-instances") {
                    2
                } else {
                    0
                };
                w.get(at).map(String::as_str) == Some("protocols")
                    && w.get(at + 1).map(String::as_str) == Some(igp)
            })
        };
        let mut v = Vec::new();
        if runs("ospf") {
            v.push("show ospf neighbor");
        }
        if runs("isis") {
            v.push("show isis adjacency");
        }
        v
    }
}

/// Renders a change in Junos lines.
pub fn render(st: &Stored, device: &str, change: &Change<'_>) -> Result<Lines, String> {
    let mut out = Lines::default();
    match *change {
        Change::Interface {
            name,
            changes,
            switchport,
            replaced,
        } => {
            for c in changes {
                if let (IfChange::Address(_), Some(mode)) = (c, switchport) {
                    return Err(format!(
                        "{device} {name} is a switched port (family ethernet-switching, {mode}); olav cannot plan converting it to a routed port yet — it would drop the VLANs it carries"
                    ));
                }
                interface_change(st, name, c, replaced, &mut out)
                    .map_err(|e| format!("{device} {e}"))?;
            }
        }
        Change::AddStaticRoute { prefix, next_hop } => {
            let at = path(&["routing-options", "static", "route", &prefix.to_string()]);
            let with_hop = joined(&at, &["next-hop", &next_hop.to_string()]);
            // Another next hop to the prefix stays when this one is rolled back.
            let undo = if st.route_paths(&prefix.to_string(), None).is_empty() {
                delete(&at)
            } else {
                delete(&with_hop)
            };
            out.apply.push(set(&with_hop));
            out.rollback.push(undo);
        }
        Change::AddDiscardRoute { prefix } => {
            let at = path(&["routing-options", "static", "route", &prefix.to_string()]);
            // A prefix already routed elsewhere is not turned into a discard route here.
            if !st.route_paths(&prefix.to_string(), None).is_empty() {
                return Err(format!(
                    "{device} already has a static route to {prefix}; olav does not replace its next hops with discard"
                ));
            }
            out.apply.push(set(&joined(&at, &["discard"])));
            out.rollback.push(delete(&at));
        }
        Change::RemoveStaticRoute { route, hops } => {
            return remove_static_route(st, route, hops, device);
        }
        Change::ShutForDecommission {
            name,
            description,
            units,
        } => shut_for_decommission(st, units, name, description, &mut out),
        Change::RemoveNeighbor { peer, vrf, .. } => {
            remove_neighbor(st, device, peer, vrf, &mut out)?;
        }
    }
    Ok(out)
}

/// A route removal: the whole route when it has one next hop, else that next hop alone;
/// the rollback is the stored statements of what goes, `at` the route's path.
fn remove_static_route(
    st: &Stored,
    route: &StaticRoute,
    hops: usize,
    device: &str,
) -> Result<Lines, String> {
    let prefix = route.prefix.to_string();
    let paths = st.route_paths(&prefix, route.vrf.as_deref());
    let [at] = paths.as_slice() else {
        return Err(format!(
            "the stored configuration of {device} configures the route to {prefix} in {} places; a faithful rollback cannot be written",
            paths.len()
        ));
    };
    let what = if hops <= 1 {
        at.clone()
    } else {
        let hop = route.next_hop.map(|n| n.to_string()).ok_or_else(|| {
            format!("the route to {prefix} on {device} has several next hops; name the next-hop address to remove")
        })?;
        // `next-hop [ A B ]` is one statement: deleting A alone cannot be written as a
        // path, and deleting the statement would take B too.
        if st.lines_under(at).iter().any(|l| l.contains('[')) {
            return Err(format!(
                "the next hops of the route to {prefix} on {device} are configured as one list; olav cannot remove one of them faithfully — edit the list by hand"
            ));
        }
        ["next-hop", "qualified-next-hop"]
            .iter()
            .map(|k| joined(at, &[k, &hop]))
            .find(|p| st.has(p))
            .ok_or_else(|| {
                format!("the stored configuration of {device} has no next hop {hop} for {prefix}")
            })?
    };
    Ok(Lines {
        apply: vec![delete(&what)],
        rollback: st.lines_under(&what),
        at: Some(set(at).trim_start_matches("set ").to_owned()),
    })
}

/// A description, MTU, admin-state or address change of `interface`. `old` is the
/// address an address change replaces (the unit's primary).
fn interface_change(
    st: &Stored,
    interface: &str,
    change: &IfChange,
    old: Option<IpNet>,
    out: &mut Lines,
) -> Result<(), String> {
    let at = interface_path(interface);
    let unit = at.len() == 4;
    match change {
        IfChange::Description(d) => {
            out.apply.push(set(&joined(&at, &["description", d])));
            out.rollback
                .extend(st.restore(&joined(&at, &["description"])));
        }
        IfChange::NoDescription => {
            let p = joined(&at, &["description"]);
            if !st.has(&p) {
                return Err(format!(
                    "{interface} has no description of its own in the stored config: nothing to remove"
                ));
            }
            out.apply.push(delete(&p));
            out.rollback.extend(st.restore(&p));
        }
        IfChange::Mtu(m) => {
            let key: &[&str] = if unit {
                &["family", "inet", "mtu"]
            } else {
                &["mtu"]
            };
            let p = joined(&at, key);
            out.apply.push(set(&joined(&p, &[&m.to_string()])));
            out.rollback.extend(st.restore(&p));
        }
        IfChange::Shutdown => {
            let p = joined(&at, &["disable"]);
            out.apply.push(set(&p));
            out.rollback.extend(st.restore(&p));
        }
        IfChange::NoShutdown => {
            // A unit is down by its own `disable` or by its port's.
            let own = joined(&at, &["disable"]);
            let port = joined(&interface_path(port_of(interface)), &["disable"]);
            let p = if st.has(&own) {
                own
            } else if st.has(&port) {
                port
            } else {
                return Err(format!(
                    "{interface} is down, but neither it nor its port has `disable` in the stored config"
                ));
            };
            out.apply.push(delete(&p));
            out.rollback.extend(st.restore(&p));
        }
        IfChange::Address(a) => {
            let unit_path = if unit {
                at
            } else {
                joined(&at, &["unit", "0"])
            };
            let fam = joined(&unit_path, &["family", "inet", "address"]);
            if let Some(o) = old {
                out.apply.push(delete(&joined(&fam, &[&o.to_string()])));
            }
            out.apply.push(set(&joined(&fam, &[&a.to_string()])));
            out.rollback.push(delete(&joined(&fam, &[&a.to_string()])));
            if let Some(o) = old {
                out.rollback
                    .extend(st.lines_under(&joined(&fam, &[&o.to_string()])));
            }
        }
    }
    Ok(())
}

/// What shuts a link's end for a decommission, and restores it: the port when the unit is
/// its only one (`units`: how many its port has; the cable goes dark), else the unit alone.
fn shut_for_decommission(
    st: &Stored,
    units: usize,
    interface: &str,
    description: &str,
    out: &mut Lines,
) {
    let port = port_of(interface);
    let at = if units <= 1 {
        interface_path(port)
    } else {
        interface_path(interface)
    };
    out.apply
        .push(set(&joined(&at, &["description", description])));
    out.apply.push(set(&joined(&at, &["disable"])));
    out.rollback
        .extend(st.restore(&joined(&at, &["description"])));
    out.rollback.extend(st.restore(&joined(&at, &["disable"])));
}

/// Removes a BGP neighbor where it is configured; its rollback is its stored statements.
fn remove_neighbor(
    st: &Stored,
    device: &str,
    peer: &str,
    vrf: &str,
    out: &mut Lines,
) -> Result<(), String> {
    let p = st.neighbor_path(peer, vrf).ok_or_else(|| {
        format!("the stored configuration of {device} has no neighbor {peer}; a faithful rollback cannot be written")
    })?;
    out.apply.push(delete(&p));
    out.rollback.extend(st.lines_under(&p));
    Ok(())
}

/// A new eBGP session on a free port, in Junos lines.
pub struct NewSession<'a> {
    /// The free port's name.
    pub port: &'a str,
    /// Its description and the neighbor's.
    pub description: &'a str,
    /// Our address on the link.
    pub ours: IpNet,
    /// The provider's address.
    pub theirs: IpAddr,
    /// The provider's AS.
    pub asn: u32,
    /// The provider's name (for a new group's and new policies' names).
    pub name: &'a str,
    /// The device's stored configuration (either syntax).
    pub text: &'a str,
}

/// The existing session to the same provider a new one copies.
pub struct Template<'a> {
    /// The device it is on.
    pub hostname: &'a str,
    /// Its neighbor address.
    pub peer: &'a str,
}

/// What drafting a Junos session produced.
pub struct Session {
    /// Lines and rollback.
    pub lines: Lines,
    /// The unit the session runs on.
    pub unit: String,
    /// Where the policy came from, when copied.
    pub copied_from: Option<String>,
    /// Why it was not, when not.
    pub not_copied: Option<String>,
    /// Whether the existing session authenticates (the new one inherits or needs a key).
    pub authenticated: bool,
    /// Where the neighbor's policy came from, and whether it is drafted deactivated.
    pub policy: crate::dialect::policy::Decided,
}

/// Unit statements that are the existing uplink's identity, not its policy.
const UNIT_IDENTITY: &[&str] = &["description", "disable", "vlan-id", "family inet address"];

/// Drafts a session: unit 0 of the free port addressed, its filters copied from the
/// existing uplink's unit; the neighbor in the existing session's group (on this device),
/// else in a new external group with the peer AS.
pub fn new_session(
    st: &Stored,
    n: &NewSession<'_>,
    template: Option<&Template<'_>>,
    template_unit: Option<&str>,
) -> Session {
    let port = n.port;
    let port_path = interface_path(port);
    let unit_path = joined(&port_path, &["unit", "0"]);
    let mut lines = Lines::default();
    // The port as it is now: `disable` goes, the description is the session's.
    if st.has(&joined(&port_path, &["disable"])) {
        lines.apply.push(delete(&joined(&port_path, &["disable"])));
    }
    lines
        .apply
        .push(set(&joined(&port_path, &["description", n.description])));
    let mut copied_from = None;
    if let Some(tu) = template_unit {
        let from = interface_path(tu);
        for l in st.under(&from) {
            let rest = l.words[from.len()..].join(" ");
            if rest.is_empty()
                || UNIT_IDENTITY
                    .iter()
                    .any(|k| rest == *k || rest.starts_with(&format!("{k} ")))
            {
                continue;
            }
            let copy = SetLine {
                words: unit_path
                    .iter()
                    .cloned()
                    .chain(l.words[from.len()..].iter().cloned())
                    .collect(),
                list_from: l.list_from.map(|i| i - from.len() + unit_path.len()),
                inactive: l.inactive,
            };
            lines.apply.push(copy.render());
        }
    }
    lines.apply.push(set(&joined(
        &unit_path,
        &["family", "inet", "address", &n.ours.to_string()],
    )));
    let theirs = n.theirs.to_string();
    let group = template.and_then(|t| st.group_of(t.peer));
    let mut authenticated = false;
    let mut not_copied = None;
    // A chain set at the `protocols bgp` level applies to every group without its own.
    let global = path(&["protocols", "bgp"]);
    let chain_at = |p: &[String]| -> Vec<&'static str> {
        ["import", "export"]
            .into_iter()
            .filter(|w| {
                st.lines.iter().any(|l| {
                    l.words.len() > p.len() && l.words.starts_with(p) && l.words[p.len()] == *w
                })
            })
            .collect()
    };
    let mut inherited = chain_at(&global);
    let (neighbor, at) = match (&group, template) {
        (Some(g), Some(t)) => {
            let gp = path(&["protocols", "bgp", "group", g]);
            copied_from = Some(format!("group {g} (the session to {})", t.peer));
            authenticated = st
                .under(&gp)
                .any(|l| l.words.iter().any(|w| w == "authentication-key"));
            // Only the group's own chains reach the new neighbor, not the existing
            // neighbor's.
            inherited.extend(chain_at(&gp));
            let nb = joined(&gp, &["neighbor", &theirs]);
            (nb.clone(), nb)
        }
        _ => {
            if let Some(t) = template {
                not_copied = Some(format!(
                    "the existing session ({} neighbor {}) is on another device; its group and policies were not copied",
                    t.hostname, t.peer
                ));
            }
            let g = format!("EBGP-{}", n.name.to_ascii_uppercase().replace(' ', "-"));
            let gp = path(&["protocols", "bgp", "group", &g]);
            lines.apply.push(set(&joined(&gp, &["type", "external"])));
            lines
                .apply
                .push(set(&joined(&gp, &["peer-as", &n.asn.to_string()])));
            lines.rollback.extend(st.restore(&gp));
            (joined(&gp, &["neighbor", &theirs]), gp)
        }
    };
    let mut pol = policy::decide(st, n.text, n.theirs, n.name, &at, &inherited);
    lines.apply.append(&mut pol.apply);
    lines
        .apply
        .push(set(&joined(&neighbor, &["description", n.description])));
    if pol.decided.shut {
        let w = words(&neighbor);
        lines.apply.push(format!("deactivate {w}"));
        pol.decided.notes.push(super::policy::shut_note(
            &format!("`deactivate {w}`"),
            &format!("`activate {w}`"),
        ));
    }
    if group.is_some() {
        lines.rollback.insert(0, delete(&neighbor));
    }
    lines.rollback.append(&mut pol.rollback);
    // The port back exactly as stored.
    lines.rollback.extend(st.restore(&port_path));
    Session {
        lines,
        unit: format!("{port}.0"),
        copied_from,
        not_copied,
        authenticated,
        policy: pol.decided,
    }
}

/// The stored configuration with a plan's `set` / `delete` lines applied, in set form:
/// deleted paths gone, as `show configuration | display set` would print it after the
/// commit (a file mixing the brace form with set lines is not a Junos config).
pub fn apply_text(stored: &str, lines: &str) -> String {
    set_form(&format!("{}{lines}\n", set_form(stored)))
}

/// The risk when the group a new neighbor joins authenticates: it inherits the key.
pub fn key_risk(provider: &str) -> String {
    format!("The existing session's group authenticates with an authentication-key, which the new neighbor inherits: confirm with {provider} that the new session uses the same key, or set one on the neighbor — olav never writes a key.")
}

/// The verification commands for a new session.
pub fn session_checks(unit: &str, ours: IpAddr, theirs: IpAddr) -> String {
    format!(
        "show interfaces {unit} terse\nping {theirs} source {ours} count 5\nshow bgp summary\nshow bgp neighbor {theirs}\nshow route receive-protocol bgp {theirs}\nshow route advertising-protocol bgp {theirs}"
    )
}

/// The section the static routes are in.
pub const STATIC_ROUTES: &str = "routing-options static";

/// `set … static route …` adds a route, `delete … static route …` removes it (the whole
/// route when no next hop is named).
pub fn static_route_line(line: &str) -> Option<StaticRouteLine> {
    if !line.contains(" static route ") {
        return None;
    }
    let (removes, route) = match line.strip_prefix("delete ") {
        Some(rest) => (true, format!("set {rest}")),
        None if line.starts_with("set ") => (false, line.to_owned()),
        None => return None,
    };
    let parsed = crate::import::parse::parser_for(Vendor::JuniperJunos)
        .parse(&route)
        .static_routes
        .into_iter()
        .next();
    Some(StaticRouteLine {
        removes,
        route: parsed.or_else(|| whole_route(&route)),
    })
}

/// The route a `… static route P` line names without a next hop: every next hop of P
/// (in its routing instance).
fn whole_route(line: &str) -> Option<StaticRoute> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w.windows(2).position(|x| x == ["static", "route"])?;
    let prefix = w.get(i + 2)?.parse().ok()?;
    let vrf = (w.get(1) == Some(&"routing-instances"))
        .then(|| w.get(2).map(|v| (*v).to_owned()))
        .flatten();
    Some(StaticRoute {
        vrf,
        prefix,
        next_hop: None,
        next_hop_interface: None,
        distance: None,
        metric: None,
        tag: None,
        activity: crate::model::RouteActivity::Usable,
        line: 0,
    })
}

/// The statement path a line configures: `interfaces <port>` (a unit's port), else its
/// first two words (`routing-options static`, `protocols ospf`).
pub fn section_of(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["set" | "delete" | "deactivate" | "activate", "interfaces", port, ..] => Some(format!(
            "interfaces {}",
            port.split('.').next().unwrap_or(port)
        )),
        ["set" | "delete" | "deactivate" | "activate", a, b, ..] => Some(format!("{a} {b}")),
        ["set" | "delete" | "deactivate" | "activate", a] => Some((*a).to_owned()),
        _ => None,
    }
}

/// The prefix of a `… static route P …` line.
pub fn route_prefix(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "route")?;
    if !words.contains(&"static") {
        return None;
    }
    words.get(i + 1).map(|p| (*p).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const STORED: &str = "interfaces {\n    xe-0/1/2 {\n        description \"Telia transit\";\n        unit 0 {\n            family inet {\n                filter {\n                    input EDGE-IN;\n                }\n                address 62.115.152.89/30;\n            }\n        }\n    }\n    xe-0/1/4 {\n        description spare;\n        disable;\n    }\n}\nprotocols {\n    bgp {\n        group T {\n            type external;\n            import [ A B ];\n            peer-as 1299;\n            neighbor 62.115.152.90 {\n                description \"Telia transit (AS1299)\";\n            }\n        }\n    }\n}\n";

    #[test]
    fn a_deactivated_neighbor_comes_back_with_activate() {
        // The neighbors in force, by address and AS (line numbers differ between forms).
        let parse = |t: &str| {
            let bgp = crate::import::parse::junos::parse(t).bgp;
            bgp.map(|b| {
                b.neighbors
                    .iter()
                    .map(|n| format!("{:?} {:?}", n.peer, n.peer_asn))
                    .collect::<Vec<_>>()
            })
        };
        let path = "protocols bgp group T neighbor 62.115.152.90";
        let off = apply_text(STORED, &format!("deactivate {path}"));
        assert_ne!(parse(&off), parse(STORED), "{off}");
        let back = apply_text(&off, &format!("activate {path}"));
        assert_eq!(parse(&back), parse(STORED), "{back}");
    }

    #[test]
    fn plan_lines_read_as_sections_and_routes() {
        for (line, section, prefix, removes) in [
            (
                "set routing-options static route 10.0.0.0/8 next-hop 192.0.2.1",
                Some("routing-options static"),
                Some("10.0.0.0/8"),
                Some(false),
            ),
            (
                "delete routing-instances R routing-options static route 10.0.0.0/8",
                Some("routing-instances R"),
                Some("10.0.0.0/8"),
                Some(true),
            ),
            (
                "set interfaces xe-0/0/1 unit 0 description x",
                Some("interfaces xe-0/0/1"),
                None,
                None,
            ),
            (
                "set protocols ospf area 0",
                Some("protocols ospf"),
                None,
                None,
            ),
            ("interfaces {", None, None, None),
        ] {
            assert_eq!(section_of(line).as_deref(), section, "{line}");
            assert_eq!(route_prefix(line).as_deref(), prefix, "{line}");
            assert_eq!(
                static_route_line(line).map(|r| r.removes),
                removes,
                "{line}"
            );
        }
        // A whole route deleted names every next hop, in its instance.
        let r =
            static_route_line("delete routing-instances R routing-options static route 10.0.0.0/8")
                .and_then(|r| r.route);
        assert_eq!(
            r.map(|r| (r.vrf, r.next_hop)),
            Some((Some("R".to_owned()), None))
        );
    }

    #[test]
    fn names_paths_and_ports() {
        assert_eq!(
            interface_path("xe-0/1/2.0"),
            path(&["interfaces", "xe-0/1/2", "unit", "0"])
        );
        assert_eq!(interface_path("lo0"), path(&["interfaces", "lo0"]));
        assert!(is_port("xe-0/1/4") && !is_port("xe-0/1/4.0") && !is_port("lo0"));
        assert!(!is_port("ae0") && !is_port("fxp0"));
    }

    #[test]
    fn a_path_is_restored_from_its_stored_statements() {
        let st = Stored::new(STORED);
        assert_eq!(
            st.restore(&path(&["interfaces", "xe-0/1/4"])),
            vec![
                "delete interfaces xe-0/1/4",
                "set interfaces xe-0/1/4 description spare",
                "set interfaces xe-0/1/4 disable",
            ]
        );
        assert_eq!(
            st.neighbor_path("62.115.152.90", "default"),
            Some(path(&[
                "protocols",
                "bgp",
                "group",
                "T",
                "neighbor",
                "62.115.152.90"
            ]))
        );
        assert_eq!(
            st.lines_under(&path(&["protocols", "bgp", "group", "T", "import"])),
            vec!["set protocols bgp group T import [ A B ]"]
        );
    }
}
