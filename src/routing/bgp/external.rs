//! What a device advertises to, and accepts from, each BGP peer outside the network (a
//! provider, a customer, an AS olav has no configuration of). Sent: the session's
//! adj-RIB-out once the exchange has converged — the device's best paths by the
//! propagation rules of its session (eBGP: whatever it selected, iBGP-learned paths
//! included), through the session's outbound policy. Accepted: olav does not know what
//! such a peer sends, so the inbound policy is judged on [`probes`]: a default route,
//! ordinary internet prefixes ("any prefix") and the prefixes the inbound policy's
//! prefix-lists name (`docs/routing.md`, "Peers outside the network").

use super::sessions::End;
use super::{exchange, Path, Source, Speaker, Table};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

/// At most this many prefixes named by an inbound policy are probed (a bogon list names
/// a few dozen; a customer's allowed list may name thousands).
const MAX_NAMED: usize = 64;

/// What a device advertises to, and accepts from, one peer outside the network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct External {
    /// The VRF of the session.
    pub vrf: String,
    /// The peer's address.
    pub peer: Ipv4Addr,
    /// The peer's AS.
    pub peer_asn: Option<u32>,
    /// Whether the session is eBGP (the peer AS is not the device's own).
    pub ebgp: bool,
    /// The prefixes advertised to it, after the outbound policy.
    pub sent: Vec<Ipv4Net>,
    /// Prefixes whose outbound policy olav does not evaluate: advertised or not.
    pub maybe: Vec<Ipv4Net>,
    /// Why the answer is incomplete, when it is (each policy not evaluated, once).
    pub unknown: Vec<String>,
    /// The inbound policy on each probe ([`probes`]): Some(accepted), None when it is
    /// not evaluated.
    pub accepts: Vec<(Ipv4Net, Option<bool>)>,
}

/// "Any prefix": ordinary internet prefixes of the lengths providers send (a /24, a
/// /16, a /8) that no private or documentation range holds.
pub fn samples() -> Vec<Ipv4Net> {
    [
        (Ipv4Addr::new(8, 8, 8, 0), 24),
        (Ipv4Addr::new(1, 1, 1, 0), 24),
        (Ipv4Addr::new(151, 101, 0, 0), 16),
        (Ipv4Addr::new(17, 0, 0, 0), 8),
    ]
    .into_iter()
    .filter_map(|(a, l)| Ipv4Net::new(a, l).ok())
    .collect()
}

/// The prefixes a session's inbound policy is judged on: the default route, the
/// [`samples`], then the prefixes its prefix-lists name (the prefix-list of the neighbor
/// and those its route-map matches; an entry with `ge` at that length), in order.
pub fn probes(s: &Speaker<'_>, end: &End) -> Vec<Ipv4Net> {
    let n = &s.bgp.neighbors[end.neighbor];
    let mut out = vec![Ipv4Net::default()];
    out.extend(samples());
    let mut lists: Vec<&str> = n.prefix_list_in.iter().map(String::as_str).collect();
    if let Some(rm) = &n.route_map_in {
        lists.extend(
            s.config
                .route_map_clauses
                .iter()
                .filter(|c| c.name == *rm)
                .flat_map(|c| c.prefix_lists.iter().map(String::as_str)),
        );
    }
    let mut named = BTreeSet::new();
    for e in s
        .config
        .prefix_lists
        .iter()
        .filter(|e| lists.contains(&e.name.as_str()))
    {
        let ipnet::IpNet::V4(p) = e.prefix else {
            continue;
        };
        let len = e.ge.unwrap_or(p.prefix_len()).min(32);
        if let Ok(p) = Ipv4Net::new(p.network(), len) {
            named.insert(p.trunc());
        }
    }
    for p in named {
        if out.len() >= MAX_NAMED + 5 {
            break;
        }
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// Whether the inbound policy of `end` takes `prefix` from the peer (None: not
/// evaluated): a path as the peer would send it, its AS first.
fn accepted(s: &Speaker<'_>, end: &End, prefix: Ipv4Net) -> Option<bool> {
    let n = &s.bgp.neighbors[end.neighbor];
    let p = Path {
        next_hop: end.peer_ip,
        as_path: n.peer_asn.into_iter().collect(),
        source: Source::Peer {
            end: usize::MAX,
            ebgp: end.ebgp,
            router_id: end.peer_ip,
            peer_ip: end.peer_ip,
            client: false,
            confed: false,
        },
        ..Path::originated(prefix)
    };
    exchange::import_policy(s, end, p).ok().map(|v| v.is_some())
}

/// Each outside peering's answer, with its table: `outside` are ends without a far end
/// (their `table` an index into `tables`), `ends` the established sessions' ends,
/// `selected` each table's converged selection; `cut_off`: the exchange did not converge.
pub fn of(
    speakers: &[Speaker<'_>],
    tables: &[Table],
    ends: &[End],
    outside: &[End],
    selected: &[BTreeMap<Ipv4Net, Vec<Path>>],
    cut_off: bool,
) -> Vec<(usize, External)> {
    if outside.is_empty() {
        return Vec::new();
    }
    // The outside ends after the established ones: a path's source end is never one.
    let mut all = ends.to_vec();
    all.extend(outside.iter().cloned());
    let mut out = Vec::with_capacity(outside.len());
    for (i, o) in outside.iter().enumerate() {
        let t = o.table;
        let s = &speakers[tables[t].dev];
        let empty = BTreeMap::new();
        let sel = selected.get(t).unwrap_or(&empty);
        let (sent, u) = exchange::advertise(speakers, tables, &all, t, ends.len() + i, sel);
        let mut unknown: Vec<String> = Vec::new();
        if cut_off {
            unknown.push(format!(
                "BGP did not converge: cut off after {} updates of one table",
                exchange::MAX_VISITS
            ));
        }
        let mut maybe = BTreeSet::new();
        for (p, why) in u {
            maybe.insert(p);
            if !unknown.contains(&why.0) {
                unknown.push(why.0);
            }
        }
        let sent: BTreeSet<Ipv4Net> = sent.into_iter().map(|p| p.prefix).collect();
        let accepts = probes(s, o)
            .into_iter()
            .map(|p| (p, accepted(s, o, p)))
            .collect();
        let n = &s.bgp.neighbors[o.neighbor];
        out.push((
            t,
            External {
                vrf: tables[t].vrf.clone(),
                peer: o.peer_ip,
                peer_asn: n.peer_asn,
                ebgp: o.ebgp,
                sent: sent.into_iter().collect(),
                maybe: maybe.into_iter().collect(),
                unknown,
                accepts,
            },
        ));
    }
    out
}
