//! Whether a compatible BGP session comes up: its two ends must reach each other's
//! address, which Batfish's bgpSessionStatus judges with the data plane
//! (ESTABLISHED / NOT_ESTABLISHED) and bgpSessionCompatibility does not ask. olav asks its
//! own routing model ([`crate::routing`]), tracing each end's address from the other.
//!
//! Only sessions whose peer is not on a connected subnet are traced (a single-hop peer on
//! an up interface's subnet is reached by the connected route), and only where the answer
//! is certain: a session is NOT_ESTABLISHED only when every branch of a trace ends without
//! a route, in a discard or a loop, through RIBs complete in their VRF (`docs/checks.md`).

use super::bgp::{Session, Status};
use super::Problem;
use crate::network::NetworkModel;
use crate::routing::trace::{trace, Addresses, Branch, Disposition};
use crate::routing::{DeviceRib, FastMap, RoutingModel};
use crate::state::{StateDb, StateError};
use serde::Serialize;
use std::cell::RefCell;
use std::net::Ipv4Addr;
use std::sync::Arc;

/// The largest network whose sessions `olav check` traces. Each device traced needs its
/// RIB, made from its configuration again: on a 10,000-device network whose routing
/// model was stored, 48 sessions took 1.1 s and 460 MB (a backbone router's table holds
/// every site's prefixes), and building the model takes 1.3 s; at 300 devices the whole
/// judgement takes hundredths of a second (`docs/performance.md`).
pub const JUDGED_UP_TO: usize = 300;

/// Batfish's bgpSessionStatus names for a compatible session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Established {
    /// Each end reaches the other's address.
    Established,
    /// One end has no way to the other's address: the session cannot come up.
    NotEstablished,
}

impl Established {
    /// Batfish's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Established::Established => "ESTABLISHED",
            Established::NotEstablished => "NOT_ESTABLISHED",
        }
    }
}

/// One traced session: Batfish's bgpSessionStatus row, reduced to what identifies it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Traced {
    /// Node.
    pub node: String,
    /// VRF.
    pub vrf: String,
    /// Remote IP.
    pub remote_ip: String,
    /// Remote node.
    pub remote_node: Option<String>,
    /// The session type (Batfish's name).
    pub session_type: Option<&'static str>,
    /// Established status.
    pub established_status: Established,
    /// Why, in words (the trace that failed).
    pub reason: String,
}

/// What the routing model said about the compatible sessions that need it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Reachability {
    /// The sessions judged.
    pub sessions: Vec<Traced>,
    /// Why some sessions were not judged (None: every one that needs it was).
    pub note: Option<String>,
}

impl Reachability {
    /// The sessions that cannot come up, as problems (`check.bgp.not_established`).
    pub fn problems(&self) -> Vec<Problem> {
        self.sessions
            .iter()
            .filter(|t| t.established_status == Established::NotEstablished)
            .map(|t| Problem {
                code: "check.bgp.not_established".into(),
                element: format!("{} {} → {}", t.node, t.vrf, t.remote_ip),
                message: format!(
                    "BGP {} {} → {} ({}): UNIQUE_MATCH but NOT_ESTABLISHED — {}",
                    t.node,
                    t.vrf,
                    t.remote_ip,
                    t.session_type.unwrap_or("?"),
                    t.reason
                ),
            })
            .collect()
    }
}

/// How one direction of a session traces.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Way {
    /// Every branch is accepted by the expected device.
    Reached,
    /// Certainly not reached: why.
    Not(String),
    /// olav cannot tell.
    Unknown,
}

/// The compatible sessions whose peer is not on a connected subnet: (row, its local and
/// remote addresses).
fn to_trace(bgp: &[Session]) -> Vec<(&Session, Ipv4Addr, Ipv4Addr)> {
    bgp.iter()
        .filter(|s| s.configured_status == Status::UniqueMatch && s.local_interface.is_none())
        .filter(|s| !crate::routing::connected::is_management("", &s.vrf))
        .filter_map(|s| {
            let local = s.local_ip.as_deref()?.parse().ok()?;
            let remote = s.remote_ip.parse().ok()?;
            s.remote_node.as_ref()?;
            Some((s, local, remote))
        })
        .collect()
}

/// How the branches of a trace towards `dst` from `from` end, for a session with
/// `expected` (the device that holds `dst`).
fn way(branches: &[Branch], from: &str, vrf: &str, dst: Ipv4Addr, expected: &str) -> Way {
    if branches.is_empty() {
        return Way::Unknown;
    }
    let reached = |b: &Branch| {
        b.disposition == Disposition::Accepted && b.hops.last().is_some_and(|h| h.node == expected)
    };
    if branches.iter().all(reached) {
        return Way::Reached;
    }
    // Certain only without a caveat: an incomplete RIB, a shared address or a cut-off
    // trace leaves the session as it is.
    let lost = |b: &Branch| {
        b.caveats.is_empty()
            && matches!(
                b.disposition,
                Disposition::NoRoute | Disposition::NullRouted | Disposition::Loop
            )
    };
    if !branches.iter().all(lost) {
        return Way::Unknown;
    }
    let b = &branches[0];
    let at = b.hops.last().map_or(from, |h| h.node.as_str());
    Way::Not(match b.disposition {
        Disposition::NoRoute if at == from => {
            format!("{from} has no route to {dst} in VRF {vrf}")
        }
        d => format!("{from} → {dst} in VRF {vrf}: {d} at {at}"),
    })
}

/// Judges every compatible session that needs the routing model, on a network of at
/// most [`JUDGED_UP_TO`] devices; a larger one judges none and says so.
pub fn judge(db: &StateDb, bgp: &[Session]) -> Result<Reachability, StateError> {
    let wanted = to_trace(bgp);
    if wanted.is_empty() {
        return Ok(Reachability::default());
    }
    let devices = db.hostnames()?.len();
    if devices > JUDGED_UP_TO {
        return Ok(Reachability {
            sessions: Vec::new(),
            note: Some(format!(
                "whether the {} BGP session(s) between addresses on no shared subnet reach each other is not judged: the network has {devices} devices, more than the {JUDGED_UP_TO} whose routing tables `olav check` traces (`olav routes --trace DEVICE PEER` answers one session)",
                wanted.len()
            )),
        });
    }
    // The stored model of this state version, else built now (and stored).
    let model = RoutingModel::shared(db)?;
    let addresses = Addresses::of_model(NetworkModel::shared(db)?.as_ref());
    let ribs: RefCell<FastMap<String, Option<Arc<DeviceRib>>>> = RefCell::default();
    let lookup = |h: &str| {
        if let Some(r) = ribs.borrow().get(h) {
            return r.clone();
        }
        let r = model.device(db, h).ok().flatten().map(Arc::new);
        ribs.borrow_mut().insert(h.to_owned(), r.clone());
        r
    };
    // One direction of a session is the other direction of its peer's row.
    let mut memo: FastMap<(String, String, Ipv4Addr), Way> = FastMap::default();
    let mut out = Reachability::default();
    let mut unknown = 0;
    for (s, local, remote) in &wanted {
        let Some(remote_node) = s.remote_node.as_deref() else {
            continue;
        };
        let mut go = |from: &str, vrf: &str, dst: Ipv4Addr, expected: &str| {
            let key = (from.to_owned(), vrf.to_owned(), dst);
            if let Some(w) = memo.get(&key) {
                return w.clone();
            }
            // The source VRF must be one the model computed: a VRF without a route in
            // the device's RIB (kept out of the model) would trace as NO_ROUTE.
            let modelled = lookup(from).is_some_and(|r| r.routes.iter().any(|x| x.vrf == vrf));
            let w = if modelled {
                way(
                    &trace(&lookup, &addresses, from, vrf, dst),
                    from,
                    vrf,
                    dst,
                    expected,
                )
            } else {
                Way::Unknown
            };
            memo.insert(key, w.clone());
            w
        };
        let forward = go(&s.node, &s.vrf, *remote, remote_node);
        // The peer answers from the VRF where it holds the address.
        let back = match addresses.device_of(*remote) {
            Some((h, v)) if h == remote_node => go(h, v, *local, &s.node),
            _ => Way::Unknown,
        };
        let status = match (&forward, &back) {
            (Way::Not(why), _) | (_, Way::Not(why)) => {
                Some((Established::NotEstablished, why.clone()))
            }
            (Way::Reached, Way::Reached) => Some((
                Established::Established,
                format!("{} and {remote_node} reach each other's address", s.node),
            )),
            _ => {
                unknown += 1;
                None
            }
        };
        if let Some((established_status, reason)) = status {
            out.sessions.push(Traced {
                node: s.node.clone(),
                vrf: s.vrf.clone(),
                remote_ip: s.remote_ip.clone(),
                remote_node: s.remote_node.clone(),
                session_type: s.session_type.map(|t| t.as_str()),
                established_status,
                reason,
            });
        }
    }
    if unknown > 0 {
        out.note = Some(format!(
            "whether {unknown} of the {} BGP session(s) between addresses on no shared subnet reach each other is not judged: a routing table on the way is incomplete, or the trace is not certain (`olav routes --trace DEVICE PEER` shows why)",
            wanted.len()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::trace::Hop;

    fn branch(node: &str, d: Disposition, caveat: Option<&str>) -> Branch {
        Branch {
            hops: vec![Hop {
                node: node.to_owned(),
                vrf: "default".to_owned(),
                network: None,
                protocol: None,
                next_hop: None,
                egress: None,
            }],
            disposition: d,
            caveats: caveat.into_iter().map(str::to_owned).collect(),
        }
    }

    #[test]
    fn only_certain_traces_judge_a_session() {
        let dst: Ipv4Addr = "10.0.0.2".parse().expect("ip");
        let w = |b: &[Branch]| way(b, "a", "default", dst, "b");
        assert_eq!(w(&[branch("b", Disposition::Accepted, None)]), Way::Reached);
        assert_eq!(
            w(&[branch("a", Disposition::NoRoute, None)]),
            Way::Not("a has no route to 10.0.0.2 in VRF default".into())
        );
        assert_eq!(
            w(&[branch("c", Disposition::NullRouted, None)]),
            Way::Not("a → 10.0.0.2 in VRF default: NULL_ROUTED at c".into())
        );
        // An incomplete RIB on the way, another holder, ECMP branches that disagree, an
        // answer olav cannot give: never judged.
        let incomplete = Some("a's RIB is incomplete: OSPF routes are not computed yet");
        assert_eq!(
            w(&[branch("a", Disposition::NoRoute, incomplete)]),
            Way::Unknown
        );
        assert_eq!(w(&[branch("c", Disposition::Accepted, None)]), Way::Unknown);
        assert_eq!(
            w(&[
                branch("b", Disposition::Accepted, None),
                branch("c", Disposition::NoRoute, None)
            ]),
            Way::Unknown
        );
        assert_eq!(
            w(&[branch("a", Disposition::InsufficientInfo, None)]),
            Way::Unknown
        );
        assert_eq!(w(&[]), Way::Unknown);
    }
}
