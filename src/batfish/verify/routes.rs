//! Proof that Batfish modeled the plan's routes and sessions: every static route the plan
//! adds or removes must change Batfish's `routes` answer for its prefix on that device,
//! and every BGP neighbor the plan adds (removes) must appear in (vanish from) Batfish's
//! sessions. Where Batfish shows no difference, the plan was not modeled there:
//! UNVERIFIED.

use super::{Ask, Asker, UNVERIFIED};
use crate::batfish::client::TableAnswer;
use crate::batfish::{node_spec, rows_as_lines, Finding};
use crate::engine::breaker::ToolError;
use crate::model::{BgpPeer, DeviceConfig};
use serde_json::json;
use std::collections::BTreeSet;

const ROUTES: Ask = Ask {
    name: "routes",
    class: "org.batfish.question.routes.RoutesQuestion",
};

/// At most this many changed prefixes are asked about (each is two questions).
const MAX_PREFIXES: usize = 8;

/// (VRF, prefix, next hop or interface) of every static route.
fn statics(c: &DeviceConfig) -> BTreeSet<(String, String, String)> {
    c.static_routes
        .iter()
        .map(|r| {
            (
                r.vrf.clone().unwrap_or_else(|| "default".into()),
                r.prefix.trunc().to_string(),
                r.next_hop
                    .map(|h| h.to_string())
                    .or_else(|| r.next_hop_interface.clone())
                    .unwrap_or_default(),
            )
        })
        .collect()
}

/// (VRF, peer address) of every configured, not shut, neighbor with an address.
pub(super) fn neighbors(c: &DeviceConfig) -> BTreeSet<(String, String)> {
    c.bgp
        .iter()
        .flat_map(|b| b.neighbors.iter())
        .filter(|n| !n.shutdown)
        .filter_map(|n| match &n.peer {
            BgpPeer::Address(a) => Some((
                n.vrf.clone().unwrap_or_else(|| "default".into()),
                a.to_string(),
            )),
            _ => None,
        })
        .collect()
}

/// Whether Batfish's `routes` answers differ for each static prefix the plan changes.
pub(super) fn findings(a: &Asker<'_>) -> Result<Vec<Finding>, ToolError> {
    let mut out = Vec::new();
    let mut asked = 0usize;
    for (host, before, after) in &a.changed {
        let (b, c) = (statics(before), statics(after));
        let changed: BTreeSet<(String, String)> = b
            .symmetric_difference(&c)
            .map(|(vrf, p, _)| (vrf.clone(), p.clone()))
            .collect();
        for (vrf, prefix) in changed {
            if asked >= MAX_PREFIXES {
                // Not asked is not proven: never a PASS on what was not looked at.
                out.push(Finding {
                    severity: UNVERIFIED,
                    question: "routes",
                    message: format!("more than {MAX_PREFIXES} changed static prefixes: the rest were not asked about, so not shown to be modeled"),
                });
                return Ok(out);
            }
            asked += 1;
            let params = json!({
                "nodes": node_spec([host.as_str()]),
                "network": prefix,
                "prefixMatchType": "EXACT",
                "vrfs": vrf,
            });
            let cols = [
                "Node",
                "VRF",
                "Network",
                "Next_Hop",
                "Protocol",
                "Admin_Distance",
            ];
            let rows = |ss: &str| -> Result<BTreeSet<String>, ToolError> {
                Ok(rows_as_lines(
                    &a.ask(&ROUTES, ss, None, params.clone())?,
                    &cols,
                ))
            };
            if rows(a.base)? == rows(a.candidate)? {
                out.push(Finding {
                    severity: UNVERIFIED,
                    question: "routes",
                    message: format!(
                        "{} {prefix} (VRF {vrf}): the plan changes its static routes, yet Batfish's routing table for it is the same before and after — the change was not modeled (or the route never resolves)",
                        a.show(host)
                    ),
                });
            }
        }
    }
    Ok(out)
}

/// Whether the sessions the plan adds appear in Batfish's compatibility answer of the
/// candidate, and the ones it removes are gone from it.
pub(super) fn session_findings(
    a: &Asker<'_>,
    candidate_sessions: &BTreeSet<(String, String, String)>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (host, before, after) in &a.changed {
        let (b, c) = (neighbors(before), neighbors(after));
        for (vrf, peer) in c.difference(&b) {
            if !candidate_sessions.contains(&(host.clone(), vrf.clone(), peer.clone())) {
                out.push(Finding {
                    severity: UNVERIFIED,
                    question: "bgpSessionCompatibility",
                    message: format!(
                        "{} → {peer} (VRF {vrf}): the plan adds this neighbor, yet Batfish's candidate has no such session — the change was not modeled",
                        a.show(host)
                    ),
                });
            }
        }
        for (vrf, peer) in b.difference(&c) {
            if candidate_sessions.contains(&(host.clone(), vrf.clone(), peer.clone())) {
                out.push(Finding {
                    severity: UNVERIFIED,
                    question: "bgpSessionCompatibility",
                    message: format!(
                        "{} → {peer} (VRF {vrf}): the plan removes this neighbor, yet Batfish's candidate still has the session — the removal was not modeled",
                        a.show(host)
                    ),
                });
            }
        }
    }
    out
}

/// The sessions of a compatibility answer: (node lowercase, VRF, remote IP).
pub(super) fn sessions(t: &TableAnswer) -> BTreeSet<(String, String, String)> {
    t.rows.iter().map(|r| super::bgp::session_key(r)).collect()
}
