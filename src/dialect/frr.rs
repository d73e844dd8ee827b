//! The FRR dialect: plain FRR, Cumulus Linux and SONiC, all told through `vtysh` in
//! `frr.conf` syntax. Each change is one `configure terminal` … `end` block followed by
//! `write memory` (so `frr.conf` keeps it), and so is its rollback: the stored lines.
//!
//! Why vtysh and not Cumulus NCLU (`net add …`) or NVUE (`nv set …`): vtysh is the same
//! on the three platforms (NCLU exists only on Cumulus 3–4, NVUE only on Cumulus 5, SONiC
//! has neither), and it speaks exactly the `frr.conf` olav read the device from, so the
//! rollback is the stored lines themselves. What FRR does not hold is not drafted: an
//! interface's MTU is the kernel's (Cumulus `/etc/network/interfaces`, SONiC
//! `config_db.json`), and an address configured there is not FRR's to replace.
//!
//! A stored Cumulus or SONiC configuration holds more than `frr.conf` (the interfaces
//! file, `config_db.json`, joined as the importer stores them); the candidate applies the
//! plan to the `frr.conf` part and keeps the rest as it was.

use super::cisco::{self, running::Running, stored};
use super::stanza::{self, route, without_session};
use super::{Change, IfChange, Lines, StaticRouteLine};
use crate::import::parse::frr::sonic;
use ipnet::IpNet;

/// The session commands that frame a change.
const SESSION: &[&str] = &[
    "configure terminal",
    "configure",
    "end",
    "write memory",
    "write",
];

/// Frames the lines of one change for vtysh, saved to `frr.conf`.
fn vtysh(body: Vec<String>) -> Vec<String> {
    let mut out = vec!["configure terminal".to_owned()];
    out.extend(body);
    out.push("end".to_owned());
    out.push("write memory".to_owned());
    out
}

/// Renders `change` for `device` (stored configuration `text`): its vtysh lines and
/// those that undo it.
pub fn render(device: &str, text: &str, change: &Change<'_>) -> Result<Lines, String> {
    let l = match *change {
        Change::Interface {
            name,
            changes,
            switchport,
            replaced,
        } => interface(device, text, name, switchport, replaced, changes)?,
        Change::AddStaticRoute { prefix, next_hop } => static_route(prefix, &next_hop.to_string()),
        Change::AddDiscardRoute { prefix } => static_route(prefix, "blackhole"),
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
    Ok(Lines {
        apply: vtysh(l.apply),
        rollback: vtysh(l.rollback),
        at: l.at,
    })
}

/// `ip address` / `ipv6 address` for an address.
fn family(a: IpNet) -> &'static str {
    match a {
        IpNet::V4(_) => "ip",
        IpNet::V6(_) => "ipv6",
    }
}

/// Attribute changes of one interface. FRR's addresses add up, so a new address is
/// added and the one it replaces removed by its own `no` line (and the reverse to roll
/// back).
fn interface(
    device: &str,
    text: &str,
    name: &str,
    switchport: Option<&str>,
    replaced: Option<IpNet>,
    changes: &[IfChange],
) -> Result<Lines, String> {
    stanza::interface_block(device, text, name, changes, |stanza, c, what, out| {
        match c {
            IfChange::Mtu(_) => {
                return Err(format!(
                    "{what}: FRR does not hold an interface's MTU (the kernel does: Cumulus `mtu` in /etc/network/interfaces then `ifreload -a`, SONiC `config interface mtu`); olav does not draft it in vtysh"
                ));
            }
            IfChange::Address(a) => {
                if let Some(mode) = switchport {
                    return Err(format!(
                        "{what} is a switched port ({mode}); olav cannot plan converting it to a routed port yet"
                    ));
                }
                let f = family(*a);
                let old = match replaced {
                    Some(r) => {
                        let line = format!("{} address {r}", family(r));
                        if stored(stanza, &line).is_none() {
                            return Err(format!(
                                "{what}: its address {r} is not in frr.conf (Cumulus keeps addresses in /etc/network/interfaces, SONiC in config_db.json); vtysh cannot replace it — change it there"
                            ));
                        }
                        Some(line)
                    }
                    None => None,
                };
                if let Some(o) = &old {
                    out.apply.push(format!(" no {o}"));
                }
                out.apply.push(format!(" {f} address {a}"));
                out.rollback.push(format!(" no {f} address {a}"));
                if let Some(o) = old {
                    out.rollback.push(format!(" {o}"));
                }
            }
            _ => {}
        }
        Ok(())
    })
}

/// A new static route in the global table (`target`: next hop or `blackhole`); its
/// rollback removes it.
fn static_route(prefix: IpNet, target: &str) -> Lines {
    let r = format!("{} route {prefix} {target}", family(prefix));
    Lines {
        rollback: vec![format!("no {r}")],
        apply: vec![r],
        at: None,
    }
}

/// Removes a BGP neighbor from its BGP instance (`router bgp N`, a VRF's `router bgp N
/// vrf V`): `no neighbor A` removes every line of it; the rollback is those stored lines.
fn remove_neighbor(
    device: &str,
    text: &str,
    peer: &str,
    vrf: &str,
    local_as: u32,
) -> Result<Lines, String> {
    let root = if vrf == "default" {
        format!("router bgp {local_as}")
    } else {
        format!("router bgp {local_as} vrf {vrf}")
    };
    let stored = Running::new(text).neighbor_under(&root, peer);
    if stored.is_empty() {
        return Err(format!(
            "the stored configuration of {device} has no line for neighbor {peer} under `{root}`; a faithful rollback cannot be written"
        ));
    }
    Ok(Lines {
        apply: vec![root, format!(" no neighbor {peer}")],
        rollback: stored,
        at: None,
    })
}

/// Where the `frr.conf` part of a stored configuration starts, as the importer reads it
/// (`import::parse::frr`): after SONiC's `frr.conf` marker line; else at the `frr
/// version` (or `frr defaults`) line of a Cumulus concatenated file; else the whole text
/// is `frr.conf`.
fn frr_start(stored: &str) -> usize {
    let mut at = 0;
    let mut version = None;
    for l in stored.split_inclusive('\n') {
        let t = l.trim_end();
        if t == sonic::FRR_CONF_MARKER {
            return at + l.len();
        }
        if version.is_none() && (t.starts_with("frr version") || t.starts_with("frr defaults")) {
            version = Some(at);
        }
        at += l.len();
    }
    version.unwrap_or(0)
}

/// The stored configuration with a plan's lines applied, as `frr.conf` holds it after
/// `write memory` — removals edited out — beside the parts FRR does not hold.
pub fn apply_text(stored: &str, lines: &str) -> String {
    let (other, frr) = stored.split_at(frr_start(stored));
    let applied = cisco::candidate::apply_styled(
        frr,
        &without_session(lines, SESSION),
        cisco::candidate::Style {
            toggles: &[],
            keeps_unmatched_no: true,
            address_replaces: false,
        },
    );
    format!("{other}{applied}")
}

/// A plan line (trimmed) as a static-route change: `ip route P …` adds, `no ip route P
/// …` removes.
pub fn static_route_line(line: &str) -> Option<StaticRouteLine> {
    let (removes, l) = match line.strip_prefix("no ") {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let w: Vec<&str> = l.split_whitespace().collect();
    let (prefix, rest): (IpNet, &[&str]) = match w.as_slice() {
        ["ip" | "ipv6", "route", p, m, rest @ ..] if !p.contains('/') => {
            let mask: std::net::Ipv4Addr = m.parse().ok()?;
            let len = ipnet::ipv4_mask_to_prefix(mask).ok()?;
            (IpNet::new(p.parse().ok()?, len).ok()?.trunc(), rest)
        }
        ["ip" | "ipv6", "route", p, rest @ ..] => (p.parse().ok()?, rest),
        _ => return None,
    };
    Some(StaticRouteLine {
        removes,
        route: Some(route(prefix, rest)),
    })
}

/// The IGP adjacency checks worth running, through vtysh: only for the IGPs configured.
pub fn igp_checks(text: &str) -> Vec<&'static str> {
    cisco::igp_checks(text)
        .into_iter()
        .map(|c| match c {
            "show ip ospf neighbor" => "vtysh -c 'show ip ospf neighbor'",
            "show isis neighbors" => "vtysh -c 'show isis neighbor'",
            other => other,
        })
        .collect()
}

pub mod session;

#[cfg(test)]
mod tests;
