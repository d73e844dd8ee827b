//! BGP best-path selection in the vendors' order and the equal paths multipath keeps.
//!
//! Highest weight, highest local preference, locally originated, shortest AS path,
//! lowest origin (IGP < EGP < incomplete), lowest MED (between paths from the same
//! neighbouring AS), eBGP over iBGP, lowest IGP cost to the next hop — the paths equal
//! so far are multipath candidates (with the same AS path, as IOS, NX-OS and EOS
//! require) — then the lowest router id and the lowest peer address. Junos has no
//! weight (every path 0).

use super::{Origin, Path, Source};
use std::cmp::Ordering;

/// Orders two paths up to the multipath point: `Less` when `a` is better.
fn up_to_multipath(a: &Path, b: &Path) -> Ordering {
    let same_neighbour_as = a.as_path.first() == b.as_path.first();
    b.weight
        .cmp(&a.weight)
        .then(b.local_pref.cmp(&a.local_pref))
        .then(a.source.is_peer().cmp(&b.source.is_peer()))
        .then(a.as_path.len().cmp(&b.as_path.len()))
        .then(origin_rank(a.origin).cmp(&origin_rank(b.origin)))
        .then(if same_neighbour_as {
            a.med.cmp(&b.med)
        } else {
            Ordering::Equal
        })
        .then(b.ebgp().cmp(&a.ebgp()))
        .then(a.igp_cost.cmp(&b.igp_cost))
}

fn origin_rank(o: Origin) -> u8 {
    match o {
        Origin::Igp => 0,
        Origin::Egp => 1,
        Origin::Incomplete => 2,
    }
}

/// The full order: `Less` when `a` is better.
fn order(a: &Path, b: &Path) -> Ordering {
    let tie = |p: &Path| match &p.source {
        Source::Peer {
            router_id, peer_ip, ..
        } => (*router_id, *peer_ip),
        Source::Vpn { router_id, .. } => (*router_id, p.next_hop),
        _ => (
            std::net::Ipv4Addr::UNSPECIFIED,
            std::net::Ipv4Addr::UNSPECIFIED,
        ),
    };
    up_to_multipath(a, b).then(tie(a).cmp(&tie(b)))
}

/// The paths of one prefix to install, best first: the best path and up to
/// `max_ebgp` / `max_ibgp` paths in all (by the best path's kind) equal to it up to the
/// multipath point, with its AS path (`relax`: any AS path, of the same length) and
/// distinct next hops. Empty when there are no candidates.
pub fn best(mut candidates: Vec<Path>, max_ebgp: u32, max_ibgp: u32, relax: bool) -> Vec<Path> {
    candidates.sort_by(order);
    let Some(first) = candidates.first().cloned() else {
        return Vec::new();
    };
    let max = if first.ebgp() { max_ebgp } else { max_ibgp }.max(1) as usize;
    let mut out = vec![first.clone()];
    if !first.source.is_peer() {
        return out;
    }
    for p in candidates.into_iter().skip(1) {
        if out.len() >= max {
            break;
        }
        if up_to_multipath(&first, &p) == Ordering::Equal
            && (p.as_path == first.as_path || relax)
            && p.ebgp() == first.ebgp()
            && out.iter().all(|o| o.next_hop != p.next_hop)
        {
            out.push(p);
        }
    }
    out
}
