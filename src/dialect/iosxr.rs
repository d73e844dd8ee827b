//! The IOS-XR dialect. IOS-XR nests by indentation like IOS, but its changes are staged
//! and take effect at `commit`: every change is its own `configure` … `commit` … `end`
//! block, and so is its rollback — explicit inverse configuration made of the stored
//! lines (the device's own `rollback configuration last 1` undoes the same commit, and
//! the plan may name it as a safety, but the rollback does not rely on it).
//!
//! Its words: `ipv4 address A M`; static routes under `router static` / `address-family
//! ipv4 unicast` as `P NH` (`P Null0` to discard); BGP neighbors as `neighbor A` blocks
//! under `router bgp N` (a VRF's under `vrf V`), removed whole by `no neighbor A`.

use super::cisco::{self, running::Running, stored};
use super::stanza::{self, route, without_session};
use super::{Change, IfChange, Lines, StaticRouteLine};
use ipnet::IpNet;

/// The section the static routes are in.
pub const STATIC_ROUTES: &str = "router static";

/// The session commands that frame a change.
const SESSION: &[&str] = &["configure", "configure terminal", "commit", "end"];

/// Frames the lines of one change as one commit.
fn commit(body: Vec<String>) -> Vec<String> {
    let mut out = vec!["configure".to_owned()];
    out.extend(body);
    out.push("commit".to_owned());
    out.push("end".to_owned());
    out
}

/// Frames both the change and its rollback.
fn framed(l: Lines) -> Lines {
    Lines {
        apply: commit(l.apply),
        rollback: commit(l.rollback),
        at: l.at,
    }
}

/// Renders `change` for `device` (stored configuration `text`): its commit and the commit
/// that undoes it.
pub fn render(device: &str, text: &str, change: &Change<'_>) -> Result<Lines, String> {
    let l = match *change {
        Change::Interface {
            name,
            changes,
            switchport,
            ..
        } => interface(device, text, name, switchport, changes)?,
        Change::AddStaticRoute { prefix, next_hop } => static_route(prefix, &next_hop.to_string()),
        Change::AddDiscardRoute { prefix } => static_route(prefix, "Null0"),
        Change::RemoveStaticRoute { route, .. } => cisco::remove_static_route(device, text, route)?,
        Change::ShutForDecommission {
            name, description, ..
        } => stanza::shut_for_decommission(device, text, name, description)?,
        Change::RemoveNeighbor {
            peer,
            vrf,
            local_as,
        } => remove_neighbor(device, text, peer, vrf, local_as)?,
    };
    Ok(framed(l))
}

/// Attribute changes of one interface; each rollback line the stored one, or its `no`
/// form when there was none.
fn interface(
    device: &str,
    text: &str,
    name: &str,
    switchport: Option<&str>,
    changes: &[IfChange],
) -> Result<Lines, String> {
    stanza::interface_block(device, text, name, changes, |stanza, c, what, out| {
        match c {
            IfChange::Mtu(m) => {
                out.apply.push(format!(" mtu {m}"));
                out.rollback
                    .push(format!(" {}", stored(stanza, "mtu").unwrap_or("no mtu")));
            }
            IfChange::Address(a) => {
                let l2 = stored(stanza, "l2transport").is_some() || name.ends_with(" l2transport");
                if let Some(mode) = switchport.or(l2.then_some("l2transport")) {
                    return Err(format!(
                        "{what} is a layer-2 port ({mode}); olav cannot plan converting it to a routed port yet"
                    ));
                }
                match a {
                    IpNet::V4(v4) => {
                        out.apply
                            .push(format!(" ipv4 address {} {}", v4.addr(), v4.netmask()));
                        let primary =
                            stanza.iter().skip(1).map(|l| l.trim()).find(|l| {
                                l.starts_with("ipv4 address ") && !l.ends_with(" secondary")
                            });
                        out.rollback
                            .push(format!(" {}", primary.unwrap_or("no ipv4 address")));
                    }
                    IpNet::V6(_) => {
                        out.apply.push(format!(" ipv6 address {a}"));
                        out.rollback.push(format!(" no ipv6 address {a}"));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    })
}

/// A new static route in the global table (`target`: next hop or `Null0`); its rollback
/// removes it.
fn static_route(prefix: IpNet, target: &str) -> Lines {
    let af = match prefix {
        IpNet::V4(_) => "ipv4",
        IpNet::V6(_) => "ipv6",
    };
    let head = |l: String| {
        vec![
            STATIC_ROUTES.to_owned(),
            format!(" address-family {af} unicast"),
            l,
        ]
    };
    Lines {
        apply: head(format!("  {prefix} {target}")),
        rollback: head(format!("  no {prefix} {target}")),
        at: None,
    }
}

/// Removes a BGP neighbor where it is configured: `no neighbor A` takes its whole block
/// (address families and policies) in one commit, and IOS-XR tells the peer with a
/// Cease itself; the rollback is the stored block.
fn remove_neighbor(
    device: &str,
    text: &str,
    peer: &str,
    vrf: &str,
    local_as: u32,
) -> Result<Lines, String> {
    let bgp = format!("router bgp {local_as}");
    let in_vrf = format!("vrf {vrf}");
    let head = format!("neighbor {peer}");
    let path: Vec<&str> = if vrf == "default" {
        vec![&bgp, &head]
    } else {
        vec![&bgp, &in_vrf, &head]
    };
    let stored = Running::new(text).path(&path);
    if stored.is_empty() {
        return Err(format!(
            "the stored configuration of {device} has no block `{}`; a faithful rollback cannot be written",
            path.join(" / ")
        ));
    }
    let mut apply: Vec<String> = path[..path.len() - 1]
        .iter()
        .enumerate()
        .map(|(k, l)| format!("{}{l}", " ".repeat(k)))
        .collect();
    apply.push(format!("{}no {head}", " ".repeat(path.len() - 1)));
    Ok(Lines {
        apply,
        rollback: stored,
        at: None,
    })
}

/// The stored configuration with a plan's lines applied, as IOS-XR holds it after the
/// commit: removals edited out, no `no` line kept (IOS-XR lists none).
pub fn apply_text(stored: &str, lines: &str) -> String {
    let applied = cisco::candidate::apply_styled(
        &fold(stored),
        &fold(&without_session(lines, SESSION)),
        cisco::candidate::Style {
            toggles: &[],
            keeps_unmatched_no: false,
            address_replaces: true,
        },
    );
    applied
        .lines()
        .map(|l| match l.strip_prefix(' ') {
            Some(end) if RPL_ENDS.contains(&end) => format!("{end}\n"),
            _ => format!("{l}\n"),
        })
        .collect()
}

/// The lines that close an RPL definition, at column 0 as IOS-XR prints them.
const RPL_ENDS: &[&str] = &["end-policy", "end-set"];

/// The text with each RPL closing line indented one column, so that the indentation walk
/// keeps it inside its definition (and `no route-policy X` takes it with the rest).
fn fold(text: &str) -> String {
    text.lines()
        .map(|l| {
            if RPL_ENDS.contains(&l.trim_end()) {
                format!(" {}\n", l.trim_end())
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

/// A static route's prefix in a plan line: `P …` or `no P …` (inside `router static`).
fn prefix_of(line: &str) -> Option<(bool, IpNet, Vec<&str>)> {
    let (removes, l) = match line.strip_prefix("no ") {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let mut w = l.split_whitespace();
    let prefix: IpNet = w.next()?.parse().ok()?;
    Some((removes, prefix, w.collect()))
}

/// A plan line (trimmed) as a static-route change: `P NH` adds, `no P NH` removes (in
/// the global table: a trimmed line does not say its VRF).
pub fn static_route_line(line: &str) -> Option<StaticRouteLine> {
    let (removes, prefix, rest) = prefix_of(line)?;
    Some(StaticRouteLine {
        removes,
        route: Some(route(prefix, &rest)),
    })
}

/// The prefix of a static-route line, as written.
pub fn route_prefix(line: &str) -> Option<String> {
    prefix_of(line).map(|(_, p, _)| p.to_string())
}

/// The top-level command a line configures (`interface X`, `router static`, `router
/// bgp`); nested lines and the session commands configure none.
pub fn section_of(line: &str) -> Option<String> {
    if SESSION.contains(&line.trim()) {
        return None;
    }
    // A route written at the top (by hand) is still a static route.
    if !line.starts_with(' ') && prefix_of(line).is_some() {
        return Some(STATIC_ROUTES.to_owned());
    }
    cisco::section_of(line)
}

/// The IGP adjacency checks worth running: only for the IGPs configured.
pub fn igp_checks(text: &str) -> Vec<&'static str> {
    cisco::igp_checks(text)
        .into_iter()
        .map(|c| match c {
            "show ip ospf neighbor" => "show ospf neighbor",
            other => other,
        })
        .collect()
}

pub mod session;

#[cfg(test)]
mod tests;
