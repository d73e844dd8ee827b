//! What IOS-XR and FRR share: an interface stanza's description and admin state written
//! and undone from the stored lines, a plan's session commands (`configure`, `commit`,
//! `end`, `write memory`) left out when it is applied, and a static route read from
//! its words.

use super::cisco::{running::Running, stored};
use super::{IfChange, Lines};
use crate::model::{RouteActivity, StaticRoute};
use ipnet::IpNet;
use std::net::IpAddr;

/// The line (without indentation) and its rollback for a description or admin-state
/// change of the stored `stanza`; None for the other changes. Err: a description to
/// remove that is not there.
pub fn attribute(
    stanza: &[String],
    change: &IfChange,
    what: &str,
) -> Option<Result<(String, String), String>> {
    let admin = if stored(stanza, "shutdown").is_some() {
        "shutdown"
    } else {
        "no shutdown"
    };
    let desc = stored(stanza, "description");
    let pair = |a: &str, b: &str| Some(Ok((a.to_owned(), b.to_owned())));
    match change {
        IfChange::Description(d) => pair(
            &format!("description {d}"),
            desc.unwrap_or("no description"),
        ),
        IfChange::NoDescription => Some(match desc {
            Some(old) => Ok(("no description".to_owned(), old.to_owned())),
            None => Err(format!("{what} has no description: nothing to remove")),
        }),
        IfChange::Shutdown => pair("shutdown", admin),
        IfChange::NoShutdown => pair("no shutdown", admin),
        IfChange::Address(_) | IfChange::Mtu(_) => None,
    }
}

/// The `interface` block of `changes` on `device`'s interface `name` and its rollback:
/// description and admin state from the stored lines ([`attribute`]); the other changes
/// (MTU, addresses) are the dialect's own, written by `other` into the block.
pub fn interface_block(
    device: &str,
    text: &str,
    name: &str,
    changes: &[IfChange],
    mut other: impl FnMut(&[String], &IfChange, &str, &mut Lines) -> Result<(), String>,
) -> Result<Lines, String> {
    let stanza = Running::new(text).interface(name);
    let what = format!("{device} {name}");
    let mut out = Lines {
        apply: vec![format!("interface {name}")],
        rollback: vec![format!("interface {name}")],
        at: None,
    };
    for c in changes {
        match attribute(&stanza, c, &what) {
            Some(pair) => {
                let (a, r) = pair?;
                out.apply.push(format!(" {a}"));
                out.rollback.push(format!(" {r}"));
            }
            None => other(&stanza, c, &what, &mut out)?,
        }
    }
    Ok(out)
}

/// A port shut for a decommission, described as such; the rollback gives back its stored
/// description and admin state.
pub fn shut_for_decommission(
    device: &str,
    text: &str,
    name: &str,
    description: &str,
) -> Result<Lines, String> {
    let changes = [
        IfChange::Description(description.to_owned()),
        IfChange::Shutdown,
    ];
    interface_block(device, text, name, &changes, |_, _, _, _| Ok(()))
}

/// A plan's lines without the session commands that frame them (the device's own
/// `configure` / `commit` / `end` / `write memory`, and `commit confirmed N` or `commit
/// comment …` written in place of a `commit`), which configure nothing.
pub fn without_session(lines: &str, session: &[&str]) -> String {
    lines
        .lines()
        .filter(|l| {
            let t = l.trim();
            !(session.contains(&t) || (session.contains(&"commit") && t.starts_with("commit ")))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A static route from the words after its prefix: next-hop address and / or exit
/// interface, then a bare number (the distance), `tag N`, `vrf V` (FRR).
pub fn route(prefix: IpNet, rest: &[&str]) -> StaticRoute {
    let mut r = StaticRoute {
        vrf: None,
        prefix,
        next_hop: None,
        next_hop_interface: None,
        distance: None,
        metric: None,
        tag: None,
        activity: RouteActivity::Usable,
        line: 0,
    };
    let mut w = rest.iter();
    while let Some(word) = w.next() {
        match *word {
            "tag" => r.tag = w.next().and_then(|t| t.parse().ok()),
            "vrf" | "nexthop-vrf" if r.vrf.is_none() => r.vrf = w.next().map(|v| (*v).to_owned()),
            "metric" => r.metric = w.next().and_then(|t| t.parse().ok()),
            "description" | "label" | "table" | "onlink" | "permanent" | "bfd" => break,
            _ => {
                if let Ok(a) = word.parse::<IpAddr>() {
                    r.next_hop.get_or_insert(a);
                } else if let Ok(d) = word.parse::<u32>() {
                    r.distance.get_or_insert(d);
                } else if r.next_hop.is_none() && r.next_hop_interface.is_none() {
                    r.next_hop_interface = Some((*word).to_owned());
                }
            }
        }
    }
    r
}

/// The statements of an indented configuration, each with its parents (`router bgp 1 /
/// neighbor 10.0.0.2 / remote-as 2`), sorted: what a change and its rollback must give
/// back, order and separators aside.
#[cfg(test)]
pub fn statements(text: &str) -> Vec<String> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut out = Vec::new();
    for l in text.lines() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('!') || t.starts_with('#') {
            continue;
        }
        let indent = l.len() - l.trim_start().len();
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let words = t.split_whitespace().collect::<Vec<_>>().join(" ");
        let path = match stack.last() {
            Some((_, p)) => format!("{p} / {words}"),
            None => words,
        };
        out.push(path.clone());
        stack.push((indent, path));
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_read_from_its_words() {
        let p: IpNet = "10.0.0.0/8".parse().expect("net");
        for (words, hop, ifc, dist, tag) in [
            ("10.1.1.1", Some("10.1.1.1"), None, None, None),
            ("Null0 200 tag 7", None, Some("Null0"), Some(200), Some(7)),
            (
                "GigabitEthernet0/0/0/1 10.1.1.1 5",
                Some("10.1.1.1"),
                Some("GigabitEthernet0/0/0/1"),
                Some(5),
                None,
            ),
            ("blackhole", None, Some("blackhole"), None, None),
        ] {
            let w: Vec<&str> = words.split_whitespace().collect();
            let r = route(p, &w);
            assert_eq!(r.next_hop.map(|a| a.to_string()).as_deref(), hop, "{words}");
            assert_eq!(r.next_hop_interface.as_deref(), ifc, "{words}");
            assert_eq!((r.distance, r.tag), (dist, tag), "{words}");
        }
    }
}
