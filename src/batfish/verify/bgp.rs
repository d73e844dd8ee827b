//! BGP sessions: the compatibility of the sessions the plan's devices configure, and
//! every session of the network established before the plan and not after it —
//! declared by the plan (a decommissioned device, interface, link or peer) or not.

use super::{Ask, Asker};
use crate::batfish::client::TableAnswer;
use crate::batfish::{node_spec, Finding};
use crate::checks::bgp::{Session, SessionType, Status};
use crate::engine::breaker::ToolError;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

const BGP_COMPATIBILITY: Ask = Ask {
    name: "bgpSessionCompatibility",
    class: "org.batfish.question.bgpsessionstatus.BgpSessionCompatibilityQuestion",
};
const BGP_STATUS: Ask = Ask {
    name: "bgpSessionStatus",
    class: "org.batfish.question.bgpsessionstatus.BgpSessionStatusQuestion",
};

/// Batfish's configured status from its name.
fn status_named(s: &str) -> Option<Status> {
    [
        Status::UniqueMatch,
        Status::DynamicMatch,
        Status::NoLocalAs,
        Status::NoRemoteAs,
        Status::NoLocalIp,
        Status::LocalIpUnknownStatically,
        Status::InvalidLocalIp,
        Status::UnknownRemote,
        Status::HalfOpen,
        Status::MultipleRemotes,
        Status::NoMatchFound,
    ]
    .into_iter()
    .find(|x| x.as_str() == s)
}

/// Batfish's session type, the unnumbered ones as their numbered kin (`SessionType.java`).
fn session_type_named(s: &str) -> Option<SessionType> {
    match s {
        "IBGP" | "IBGP_UNNUMBERED" => Some(SessionType::Ibgp),
        "EBGP_SINGLEHOP" | "EBGP_UNNUMBERED" => Some(SessionType::EbgpSinglehop),
        "EBGP_MULTIHOP" => Some(SessionType::EbgpMultihop),
        _ => None,
    }
}

/// Whether a bgpSessionCompatibility row is a problem, by the static checks' own rule
/// (`checks::bgp::Session::is_problem`: UNKNOWN_REMOTE on eBGP is a peer outside the network).
pub(super) fn compat_problem(status: &str, session_type: &str) -> bool {
    let Some(configured_status) = status_named(status) else {
        // A status olav does not know is not silently passed.
        return true;
    };
    Session {
        node: String::new(),
        vrf: String::new(),
        local_as: None,
        local_interface: None,
        local_ip: None,
        remote_as: None,
        remote_node: None,
        remote_interface: None,
        remote_ip: String::new(),
        session_type: session_type_named(session_type),
        configured_status,
    }
    .is_problem()
}

/// A session's key in Batfish's BGP answers: node (lowercase), VRF, and the remote IP —
/// or, for an unnumbered session (no remote IP), its local interface.
pub(super) fn session_key(r: &[(String, String)]) -> (String, String, String) {
    let remote = TableAnswer::cell(r, "Remote_IP");
    let peer = if remote.is_empty() {
        format!("interface {}", TableAnswer::cell(r, "Local_Interface"))
    } else {
        remote.to_owned()
    };
    (
        TableAnswer::cell(r, "Node").to_lowercase(),
        TableAnswer::cell(r, "VRF").to_owned(),
        peer,
    )
}

/// The addresses of the interfaces the plan takes down, per lowercase node (a Junos
/// port's units with it: `covers`).
fn down_addresses(a: &Asker<'_>) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (node, iface) in &a.cand.down {
        let Some(config) = a.stored_config(node) else {
            continue;
        };
        for i in config
            .interfaces
            .iter()
            .filter(|i| crate::ifname::covers(iface, &i.name))
        {
            for addr in &i.addresses {
                out.insert((node.clone(), addr.address.addr().to_string()));
            }
        }
    }
    out
}

/// Whether the plan declares the loss of this session (a status row).
fn declared(a: &Asker<'_>, r: &[(String, String)], down: &BTreeSet<(String, String)>) -> bool {
    let node = TableAnswer::cell(r, "Node").to_lowercase();
    let remote_node = TableAnswer::cell(r, "Remote_Node").to_lowercase();
    let remote_ip = TableAnswer::cell(r, "Remote_IP");
    let local_ip = TableAnswer::cell(r, "Local_IP");
    a.cand.nodes.contains(&node)
        || (!remote_node.is_empty() && a.cand.nodes.contains(&remote_node))
        || a.cand
            .peers
            .iter()
            .any(|(d, p)| (*d == node && p == remote_ip) || (*d == remote_node && p == local_ip))
        || down.contains(&(node.clone(), local_ip.to_owned()))
        || (!remote_node.is_empty() && down.contains(&(remote_node, remote_ip.to_owned())))
}

/// Compatibility on the plan's devices; establishment network-wide.
pub(super) fn findings(a: &Asker<'_>) -> Result<Vec<Finding>, ToolError> {
    let mut out = Vec::new();
    let mut exempt = BTreeSet::new();
    if !a.touched.is_empty() {
        let spec = node_spec(a.touched.iter().map(String::as_str));
        let compat = |ss: &str| a.ask(&BGP_COMPATIBILITY, ss, None, json!({"nodes": spec}));
        let (compat_base, compat_cand) = (compat(a.base)?, compat(a.candidate)?);
        let was: BTreeMap<_, String> = compat_base
            .rows
            .iter()
            .map(|r| {
                (
                    session_key(r),
                    TableAnswer::cell(r, "Configured_Status").to_owned(),
                )
            })
            .collect();
        // A session whose local address the plan takes down ends as it declares (its
        // row after the plan has no local IP left: the base row says which it was).
        let down = down_addresses(a);
        let ends_declared: BTreeSet<_> = compat_base
            .rows
            .iter()
            .filter(|r| declared(a, r, &down))
            .map(|r| session_key(r))
            .collect();
        out.extend(super::routes::session_findings(
            a,
            &super::routes::sessions(&compat_cand),
        ));
        for r in &compat_cand.rows {
            let key = session_key(r);
            let status = TableAnswer::cell(r, "Configured_Status");
            if !compat_problem(status, TableAnswer::cell(r, "Session_Type")) {
                exempt.insert(key);
                continue;
            }
            if !a.touched.contains(&key.0)
                || was.get(&key).map(String::as_str) == Some(status)
                || ends_declared.contains(&key)
            {
                continue;
            }
            out.push(Finding {
                severity: "error",
                question: "bgpSessionCompatibility",
                message: format!("{} → {}: {status}", a.show(&key.0), key.2),
            });
        }
    }
    // Every session of the network: a path through a deactivated link can carry a
    // session between two devices the plan never names.
    let established = |ss: &str| a.ask(&BGP_STATUS, ss, None, json!({}));
    let (status_base, status_cand) = (established(a.base)?, established(a.candidate)?);
    let was: BTreeMap<_, String> = status_base
        .rows
        .iter()
        .map(|r| {
            (
                session_key(r),
                TableAnswer::cell(r, "Established_Status").to_owned(),
            )
        })
        .collect();
    let now: BTreeMap<_, &[(String, String)]> = status_cand
        .rows
        .iter()
        .map(|r| (session_key(r), r.as_slice()))
        .collect();
    // The providers olav described must exist as nodes, else every provider session is
    // UNKNOWN_REMOTE and Batfish computes nothing the providers announce: said in the
    // report (the plan may not touch the providers at all).
    if a.isp_generated
        && !status_base.rows.iter().any(|r| {
            super::modeled::is_isp_node(&TableAnswer::cell(r, "Remote_Node").to_lowercase())
        })
    {
        out.push(Finding {
            severity: "info",
            question: "bgpSessionStatus",
            message: "no session reaches a provider node (isp_*): Batfish did not model the providers olav described in isp_config.json, so routes from them are not part of this verification".into(),
        });
    }
    let down = down_addresses(a);
    let (mut lost_declared, mut lost) = (0usize, Vec::new());
    for r in &status_base.rows {
        let key = session_key(r);
        if TableAnswer::cell(r, "Established_Status") != "ESTABLISHED" {
            continue;
        }
        let after = now
            .get(&key)
            .map_or("absent", |c| TableAnswer::cell(c, "Established_Status"));
        if after == "ESTABLISHED" {
            continue;
        }
        if declared(a, r, &down) {
            lost_declared += 1;
        } else {
            lost.push(format!(
                "{} → {}: ESTABLISHED before the plan, {after} after — not a loss the plan declares",
                a.show(&key.0),
                key.2
            ));
        }
    }
    for message in lost {
        out.push(Finding {
            severity: "warning",
            question: "bgpSessionStatus",
            message,
        });
    }
    if lost_declared > 0 {
        out.push(Finding {
            severity: "info",
            question: "bgpSessionStatus",
            message: format!(
                "{lost_declared} session(s) established before the plan are down after it, as the plan declares"
            ),
        });
    }
    // The plan's devices' sessions that were not established before and are still not
    // (or are new and do not come up), beyond the exemptions of the compatibility rule.
    for r in &status_cand.rows {
        let key = session_key(r);
        let st = TableAnswer::cell(r, "Established_Status");
        let before = was.get(&key).map(String::as_str);
        if st == "ESTABLISHED"
            || !a.touched.contains(&key.0)
            || (st == "NOT_COMPATIBLE" && exempt.contains(&key))
            || before == Some(st)
            || before == Some("ESTABLISHED")
        {
            continue;
        }
        out.push(Finding {
            severity: "warning",
            question: "bgpSessionStatus",
            message: format!(
                "{} → {}: {st} (was {})",
                a.show(&key.0),
                key.2,
                before.unwrap_or("absent")
            ),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_static_checks_exemption_decides_compatibility_problems() {
        assert!(!compat_problem("UNIQUE_MATCH", "IBGP"));
        assert!(!compat_problem("UNKNOWN_REMOTE", "EBGP_SINGLEHOP"));
        assert!(!compat_problem("UNKNOWN_REMOTE", "EBGP_UNNUMBERED"));
        assert!(compat_problem("UNKNOWN_REMOTE", "IBGP"));
        assert!(compat_problem("UNKNOWN_REMOTE", "IBGP_UNNUMBERED"));
        assert!(compat_problem("NO_LOCAL_IP", "EBGP_SINGLEHOP"));
        assert!(compat_problem("SOMETHING_NEW", "EBGP_SINGLEHOP"));
    }

    #[test]
    fn unnumbered_sessions_are_keyed_by_their_interface() {
        let row = |ip: &str, iface: &str| -> Vec<(String, String)> {
            vec![
                ("Node".into(), "Leaf".into()),
                ("VRF".into(), "default".into()),
                ("Remote_IP".into(), ip.into()),
                ("Local_Interface".into(), iface.into()),
            ]
        };
        let a = session_key(&row("", "leaf:Ethernet1"));
        let b = session_key(&row("", "leaf:Ethernet2"));
        assert_ne!(a, b);
        assert_eq!(session_key(&row("10.0.0.1", "")).2, "10.0.0.1");
        assert_eq!(a.0, "leaf");
    }
}
