//! BGP over the network's sessions, to a fixed point: each table (a device's VRF)
//! selects its paths from what it originates and what its sessions bring, and
//! advertises its best paths to its neighbours through their policies; a table whose
//! selection changes is selected again at its neighbours. Bounded: a table selected more
//! than [`MAX_VISITS`] times stops the exchange (a policy loop that does not converge).

use super::policy::{self, Unknown};
use super::sessions::End;
use super::vpn::{self, Link};
use super::{junos, originate, panos, select, Path, Source, Speaker, Table};
use crate::model::Vendor;
use crate::routing::route::{NextHop, Protocol, Route};
use ipnet::{IpNet, Ipv4Net};
use std::collections::{BTreeMap, VecDeque};

/// How often one table may be selected again before the exchange is cut off.
pub const MAX_VISITS: u32 = 200;

/// Each table's selected paths per prefix (best first), and what olav could not evaluate.
pub struct Outcome {
    /// Per table: prefix → installed paths, best first.
    pub selected: Vec<BTreeMap<Ipv4Net, Vec<Path>>>,
    /// Per table: every candidate path per prefix (the BGP RIB), best first.
    pub candidates: Vec<BTreeMap<Ipv4Net, Vec<Path>>>,
    /// Per table: policies and statements not evaluated.
    pub unknown: Vec<Vec<Unknown>>,
    /// Whether the exchange was cut off.
    pub cut_off: bool,
}

/// Runs the exchange over `tables` joined by `ends`, VRFs importing each other's paths
/// by `links`.
pub fn run(speakers: &[Speaker<'_>], tables: &[Table], ends: &[End], links: &[Link]) -> Outcome {
    let n = tables.len();
    let mut unknown: Vec<Vec<Unknown>> = vec![Vec::new(); n];
    let mut local: Vec<Vec<Path>> = Vec::with_capacity(n);
    for (t, table) in tables.iter().enumerate() {
        let s = &speakers[table.dev];
        let (paths, u) = originate::paths(s, &table.vrf);
        local.push(paths);
        unknown[t].extend(u);
    }
    let mut ends_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, end) in ends.iter().enumerate() {
        ends_of[end.table].push(e);
    }
    let mut links_from: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut links_to: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (l, link) in links.iter().enumerate() {
        links_from[link.from].push(l);
        links_to[link.to].push(l);
    }
    // What each end received from its far end, after its import policy.
    let mut received: Vec<BTreeMap<Ipv4Net, Path>> = vec![BTreeMap::new(); ends.len()];
    // What each link brings into its importing table.
    let mut imported: Vec<BTreeMap<Ipv4Net, Path>> = vec![BTreeMap::new(); links.len()];
    let mut selected: Vec<BTreeMap<Ipv4Net, Vec<Path>>> = vec![BTreeMap::new(); n];
    let mut candidates: Vec<BTreeMap<Ipv4Net, Vec<Path>>> = vec![BTreeMap::new(); n];
    let mut visits = vec![0u32; n];
    let mut queued = vec![true; n];
    let mut queue: VecDeque<usize> = (0..n).collect();
    let mut cut_off = false;
    while let Some(t) = queue.pop_front() {
        queued[t] = false;
        visits[t] += 1;
        if visits[t] > MAX_VISITS {
            cut_off = true;
            break;
        }
        let brought = links_to[t].iter().flat_map(|l| imported[*l].values());
        let (sel, cands) = choose(
            speakers,
            tables,
            t,
            &local[t],
            &ends_of[t],
            &received,
            brought,
        );
        candidates[t] = cands;
        // The first visit advertises even an empty selection: Junos exports routes of
        // other protocols.
        if visits[t] > 1 && sel == selected[t] {
            continue;
        }
        selected[t] = sel;
        for &l in &links_from[t] {
            let got: BTreeMap<Ipv4Net, Path> = selected[t]
                .values()
                .filter_map(|ps| ps.first())
                .filter_map(|b| vpn::import(speakers, tables, &links[l], b))
                .map(|p| (p.prefix, p))
                .collect();
            if got != imported[l] {
                imported[l] = got;
                let to = links[l].to;
                if !queued[to] {
                    queued[to] = true;
                    queue.push_back(to);
                }
            }
        }
        for &e in &ends_of[t] {
            let far = ends[e].far;
            let mut got = BTreeMap::new();
            let (sent, u) = advertise(speakers, tables, ends, t, e, &selected[t]);
            for (_, u) in u {
                if !unknown[t].contains(&u) {
                    unknown[t].push(u);
                }
            }
            for p in sent {
                match accept(speakers, tables, ends, far, p) {
                    Ok(Some(p)) => {
                        got.insert(p.prefix, p);
                    }
                    Ok(None) => {}
                    Err(u) => {
                        let ft = ends[far].table;
                        if !unknown[ft].contains(&u) {
                            unknown[ft].push(u);
                        }
                    }
                }
            }
            if got != received[far] {
                received[far] = got;
                let ft = ends[far].table;
                if !queued[ft] {
                    queued[ft] = true;
                    queue.push_back(ft);
                }
            }
        }
    }
    Outcome {
        selected,
        candidates,
        unknown,
        cut_off,
    }
}

/// Table `t`'s selection from its own paths, what its ends received and what it imports
/// from other VRFs, aggregates included: (installed paths per prefix, every candidate
/// per prefix, best first).
#[allow(clippy::type_complexity)]
fn choose<'p>(
    speakers: &[Speaker<'_>],
    tables: &[Table],
    t: usize,
    local: &[Path],
    ends_of: &[usize],
    received: &[BTreeMap<Ipv4Net, Path>],
    imported: impl Iterator<Item = &'p Path>,
) -> (BTreeMap<Ipv4Net, Vec<Path>>, BTreeMap<Ipv4Net, Vec<Path>>) {
    let s = &speakers[tables[t].dev];
    let (max_e, max_i) = s.maximum_paths(&tables[t].vrf);
    let relax = s.multipath_relax(&tables[t].vrf);
    let mut all: BTreeMap<Ipv4Net, Vec<Path>> = BTreeMap::new();
    for p in local.iter().cloned() {
        all.entry(p.prefix).or_default().push(p);
    }
    for &e in ends_of {
        for p in received[e].values() {
            all.entry(p.prefix).or_default().push(p.clone());
        }
    }
    for p in imported {
        all.entry(p.prefix).or_default().push(p.clone());
    }
    // Aggregates: active while a more specific selected route lies inside.
    for a in s.bgp.routing.aggregates.iter().filter(|a| {
        crate::routing::connected::vrf_name(&a.vrf) == tables[t].vrf && a.other.is_empty()
    }) {
        let IpNet::V4(agg) = a.prefix else { continue };
        let inside = |p: &Ipv4Net| p.prefix_len() > agg.prefix_len() && agg.contains(p);
        // EOS takes contributors from its routing table too (a static route activates
        // an aggregate: `eos_ospf_bgp`); the others from BGP's routes only.
        let contributes = all.keys().any(inside)
            || (s.vendor == Vendor::AristaEos
                && s.whole_rib()
                    .iter()
                    .any(|r| r.vrf == tables[t].vrf && inside(&r.network)));
        if contributes {
            all.entry(agg).or_default().push(Path {
                weight: originate::local_weight(s.vendor),
                source: Source::Aggregate {
                    summary_only: a.summary_only,
                },
                ..Path::originated(agg)
            });
        }
    }
    let mut sel = BTreeMap::new();
    let mut cands = BTreeMap::new();
    for (prefix, paths) in all {
        let best = select::best(paths.clone(), max_e, max_i, relax);
        let mut sorted = best.clone();
        sorted.extend(paths.into_iter().filter(|p| !best.contains(p)));
        cands.insert(prefix, sorted);
        sel.insert(prefix, best);
    }
    (sel, cands)
}

/// What table `t` advertises over end `e`: its best path per prefix, by the
/// propagation rules (no iBGP to iBGP unless reflecting; not back to its source; not
/// what a summary-only aggregate suppresses), attributes set for the session, through
/// the neighbor's outbound policy.
/// A path whose policy is not evaluated is returned with its prefix and why.
pub(super) fn advertise(
    speakers: &[Speaker<'_>],
    tables: &[Table],
    ends: &[End],
    t: usize,
    e: usize,
    selected: &BTreeMap<Ipv4Net, Vec<Path>>,
) -> (Vec<Path>, Vec<(Ipv4Net, Unknown)>) {
    let s = &speakers[tables[t].dev];
    let end = &ends[e];
    let n = &s.bgp.neighbors[end.neighbor];
    let suppressing: Vec<Ipv4Net> = selected
        .iter()
        .filter(|(_, ps)| {
            ps.first()
                .is_some_and(|p| matches!(p.source, Source::Aggregate { summary_only: true }))
        })
        .map(|(k, _)| *k)
        .collect();
    let mut out = Vec::new();
    let mut unknown = Vec::new();
    let mut candidates =
        export_candidates(s, &tables[t].vrf, selected, n.routing.advertise_inactive);
    // `default-originate`: a default route to this neighbor, whatever the RIB holds.
    if n.routing.default_originate {
        let default = Ipv4Net::default();
        candidates.retain(|(p, _, _)| p.prefix != default);
        candidates.push((Path::originated(default), Protocol::Bgp, None));
    }
    // A prefix sent once: the first candidate the policy lets through (Junos
    // `advertise-inactive` offers the inactive BGP path after the active route).
    let mut sent: std::collections::HashSet<Ipv4Net> = std::collections::HashSet::new();
    for (best, protocol, interface) in candidates {
        let prefix = &best.prefix;
        if sent.contains(prefix) {
            continue;
        }
        if suppressing
            .iter()
            .any(|a| a.prefix_len() < prefix.prefix_len() && a.contains(prefix))
        {
            continue;
        }
        let mut p = best.clone();
        match &best.source {
            Source::Peer { end: from, .. } if *from == e => continue,
            Source::Peer {
                ebgp: false,
                confed: false,
                client,
                ..
            } if !end.ebgp && !end.confed => {
                // iBGP to iBGP: only a route reflector, from a client to all, from a
                // non-client to its clients.
                if !(*client || n.routing.route_reflector_client) || !s.is_reflector() {
                    continue;
                }
                p.originator = p.originator.or(match &best.source {
                    Source::Peer { router_id, .. } => Some(*router_id),
                    _ => None,
                });
                p.cluster_list.insert(0, s.router_id);
            }
            // Imported over iBGP EVPN: iBGP's rule, to a reflector's clients only.
            Source::Vpn {
                ebgp: false,
                local: false,
                ..
            } if !(end.ebgp
                || end.confed
                || n.routing.route_reflector_client && s.is_reflector()) =>
            {
                continue
            }
            _ => {}
        }
        // Junos holds back from an eBGP peer what it learned from the peer's AS.
        if s.vendor == Vendor::JuniperJunos
            && end.ebgp
            && best.ebgp()
            && !n.routing.advertise_peer_as
            && best.as_path.first().is_some_and(|a| Some(*a) == n.peer_asn)
        {
            continue;
        }
        let local = !best.source.is_peer();
        // The AS numbers an eBGP session prepends, after the outbound policy's own
        // prepends (the devices show `own policy… path`).
        let mut own: Vec<u32> = Vec::new();
        if end.ebgp {
            // A `local-as` is sent in front of the process AS, alone with `replace-as`
            // (the confederation identifier outside a confederation is not computed).
            let presented = s.bgp.presented_as(n).first().copied().unwrap_or(0);
            // NX-OS does not send a peer a path learned from the peer's AS (its first AS:
            // `nxos_ebgp_loop_prevention` d2 sends d4 `222 65001`, prepended inbound), nor
            // does PAN-OS with sender-side loop detection.
            if matches!(s.vendor, Vendor::CiscoNxos | Vendor::PaloAltoPanos)
                && !n.routing.disable_peer_as_check
                && n.peer_asn.is_some_and(|a| p.as_path.first() == Some(&a))
            {
                continue;
            }
            if let Some(opts) = &n.routing.remove_private_as {
                p.as_path = remove_private(s.vendor, &p.as_path, opts, presented);
            }
            let mut prepend = vec![presented];
            if n.local_as.is_some() && !n.routing.local_as_replace_as {
                prepend.extend(s.bgp.local_as.filter(|a| *a != presented));
            }
            own = prepend;
            p.next_hop = end.local_ip;
            // PAN-OS sends the MED on (`cv_demo_base_panos`: the border routers show the
            // MED the firewall's import rule set).
            if !local && s.vendor != Vendor::PaloAltoPanos {
                p.med = 0;
            }
            p.originator = None;
            p.cluster_list.clear();
            p.confed.clear();
        } else {
            // Inside the AS or the confederation: next hop, MED and LOCAL_PREF kept; a
            // confederation peer gets the member AS in AS_CONFED_SEQUENCE.
            if end.confed {
                p.confed.insert(0, s.bgp.local_as.unwrap_or(0));
            }
            // `next-hop-self` rewrites every path sent but a reflected iBGP one: what came
            // from outside the AS or from a confederation peer, and anything sent to a
            // confederation peer (`iosxe_bgp_confederation`: D2 to D1 and to D4).
            let reflected = !best.ebgp()
                && !end.confed
                && matches!(best.source, Source::Peer { confed: false, .. });
            if local || (n.routing.next_hop_self && !reflected) {
                p.next_hop = end.local_ip;
            }
        }
        if !s.sends_communities(n) {
            p.communities.clear();
        }
        if !s.sends_route_targets(n) {
            p.route_targets.clear();
        }
        p.weight = 0;
        let before = p.as_path.len();
        let verdict = if s.vendor.policy_chains() {
            let ctx = junos::Context {
                protocol,
                interface: interface.as_deref(),
                neighbor: match best.source {
                    Source::Peer { peer_ip, .. } => Some(peer_ip),
                    _ => None,
                },
                local_ip: end.local_ip,
                export: true,
            };
            let chain = &n.routing.export_chain;
            super::sros::chain(s.vendor, s.config, &n.routing, chain, p, &ctx, end.ebgp)
        } else if s.vendor == Vendor::PaloAltoPanos {
            let from = match best.source {
                Source::Peer { peer_ip, .. } => Some(peer_ip),
                _ => None,
            };
            panos::export(s.config, n, p, from)
        } else if s.vendor == Vendor::CiscoIosXr && end.ebgp && n.route_map_out.is_none() {
            // IOS-XR sends an eBGP peer nothing without an outbound route-policy (RFC 8212).
            Ok(None)
        } else {
            policy::neighbor(
                s.vendor,
                s.config,
                n.prefix_list_out.as_deref(),
                n.route_map_out.as_deref(),
                p,
            )
        };
        match verdict {
            Ok(Some(mut p)) => {
                if !own.is_empty() {
                    // IOS, NX-OS and EOS put their own AS in front of what the outbound
                    // policy prepends; Junos adds `as-path-prepend` after its own AS
                    // (`junos_as_path_acl`: the receivers show `65102 65100`).
                    let at = if s.vendor == Vendor::JuniperJunos {
                        p.as_path.len().saturating_sub(before)
                    } else {
                        0
                    };
                    let rest = p.as_path.split_off(at);
                    p.as_path.extend(own);
                    p.as_path.extend(rest);
                }
                sent.insert(p.prefix);
                out.push(p);
            }
            Ok(None) => {}
            Err(u) => unknown.push((*prefix, u)),
        }
    }
    (out, unknown)
}

/// Whether an AS number is private (RFC 6996).
fn private(a: u32) -> bool {
    (64512..=65534).contains(&a) || (4_200_000_000..=4_294_967_294).contains(&a)
}

/// The AS path with private AS numbers removed (or replaced by `own`) as `remove-private-as`
/// says (`opts`: `all`, `replace-as`; Junos `all`, `replace`): IOS, NX-OS and EOS
/// without `all` only when every AS is private; Junos the leading private ones.
fn remove_private(vendor: Vendor, path: &[u32], opts: &[String], own: u32) -> Vec<u32> {
    let all = opts.iter().any(|o| o == "all");
    let replace = opts.iter().any(|o| o == "replace-as" || o == "replace");
    let fix = |a: u32| -> Option<u32> {
        if !private(a) {
            Some(a)
        } else if replace {
            Some(own)
        } else {
            None
        }
    };
    if all {
        return path.iter().filter_map(|a| fix(*a)).collect();
    }
    if vendor == Vendor::JuniperJunos {
        let lead = path.iter().take_while(|a| private(**a)).count();
        let mut out: Vec<u32> = path[..lead].iter().filter_map(|a| fix(*a)).collect();
        out.extend_from_slice(&path[lead..]);
        return out;
    }
    if path.iter().all(|a| private(*a)) {
        return path.iter().filter_map(|a| fix(*a)).collect();
    }
    path.to_vec()
}

/// What a table offers its neighbours, before the propagation rules and policies: its
/// best BGP path per prefix with the protocol it counts as; on Junos, whose export
/// policies see the whole routing table, every active route (a route of another
/// protocol where it beats BGP by preference), local /32s aside; with Junos
/// `advertise-inactive`, then the best BGP path of a prefix where another protocol's
/// route is active.
fn export_candidates(
    s: &Speaker<'_>,
    vrf: &str,
    selected: &BTreeMap<Ipv4Net, Vec<Path>>,
    advertise_inactive: bool,
) -> Vec<(Path, Protocol, Option<String>)> {
    let bgp_protocol = |p: &Path| match p.source {
        Source::Aggregate { .. } => Protocol::Aggregate,
        Source::Peer { ebgp: false, .. }
        | Source::Vpn {
            ebgp: false,
            local: false,
            ..
        } => Protocol::Ibgp,
        _ => Protocol::Bgp,
    };
    let mut out: Vec<(Path, Protocol, Option<String>)> = Vec::new();
    if !s.vendor.policy_chains() {
        let (ebgp, ibgp, aggregate) = s.distances(vrf);
        for paths in selected.values() {
            let Some(b) = paths.first() else { continue };
            // EOS advertises only routes active in its RIB (no `bgp advertise-inactive`):
            // not a BGP path (an aggregate included) that a route of another protocol
            // beats by distance.
            if s.vendor == Vendor::AristaEos {
                let distance = match b.source {
                    Source::Local => None,
                    Source::Aggregate { .. } => Some(aggregate),
                    Source::Peer { ebgp: true, .. } => Some(ebgp),
                    Source::Peer { .. } => Some(ibgp),
                    Source::Vpn {
                        ebgp: false,
                        local: false,
                        ..
                    } => Some(ibgp),
                    Source::Vpn { .. } => Some(ebgp),
                };
                let beaten = distance.is_some_and(|d| {
                    s.lookup
                        .exact(vrf, b.prefix)
                        .iter()
                        .any(|r| r.admin_distance < d)
                });
                if beaten {
                    continue;
                }
            }
            out.push((b.clone(), bgp_protocol(b), None));
        }
        return out;
    }
    let (ebgp, _, aggregate) = s.distances(vrf);
    let mut other: BTreeMap<Ipv4Net, &Route> = BTreeMap::new();
    let mut inactive = Vec::new();
    for r in s
        .whole_rib()
        .iter()
        .filter(|r| r.vrf == vrf && r.protocol != Protocol::Local)
    {
        other.entry(r.network).or_insert(r);
    }
    for (prefix, paths) in selected {
        let Some(b) = paths.first() else { continue };
        let distance = if matches!(b.source, Source::Aggregate { .. }) {
            aggregate
        } else {
            ebgp
        };
        if other
            .get(prefix)
            .is_none_or(|r| r.admin_distance > distance)
        {
            other.remove(prefix);
            out.push((b.clone(), bgp_protocol(b), None));
        } else if advertise_inactive {
            inactive.push((b.clone(), bgp_protocol(b), None));
        }
    }
    for (prefix, r) in other {
        let interface = match &r.next_hop {
            NextHop::Interface { interface, .. } => Some(interface.to_string()),
            _ => None,
        };
        out.push((
            Path {
                med: r.metric,
                ..Path::originated(prefix)
            },
            r.protocol,
            interface,
        ));
    }
    out.extend(inactive);
    out
}

/// The inbound policy of `end` (a session end of speaker `s`) on a path received over
/// it: Some(the path as the policy changed it) when taken.
pub(super) fn import_policy(s: &Speaker<'_>, end: &End, p: Path) -> Result<Option<Path>, Unknown> {
    let n = &s.bgp.neighbors[end.neighbor];
    Ok(if s.vendor.policy_chains() {
        let ctx = junos::Context {
            protocol: if end.ebgp {
                Protocol::Bgp
            } else {
                Protocol::Ibgp
            },
            interface: None,
            neighbor: Some(end.peer_ip),
            local_ip: end.local_ip,
            export: false,
        };
        let chain = &n.routing.import_chain;
        super::sros::chain(s.vendor, s.config, &n.routing, chain, p, &ctx, end.ebgp)?
    } else if s.vendor == Vendor::PaloAltoPanos {
        panos::import(s.config, n, p, end.peer_ip)?
    } else if s.vendor == Vendor::CiscoIosXr && end.ebgp && n.route_map_in.is_none() {
        // IOS-XR accepts nothing from an eBGP peer without an inbound route-policy.
        None
    } else {
        policy::neighbor(
            s.vendor,
            s.config,
            n.prefix_list_in.as_deref(),
            n.route_map_in.as_deref(),
            p,
        )?
    })
}

/// What end `far` keeps of a path its peer advertised: AS-path loop check (`allowas-in`),
/// reflection loop checks, local preference and weight, inbound policy, and the next
/// hop resolved through the RIB before BGP (its cost the IGP cost).
fn accept(
    speakers: &[Speaker<'_>],
    tables: &[Table],
    ends: &[End],
    far: usize,
    mut p: Path,
) -> Result<Option<Path>, Unknown> {
    let end = &ends[far];
    let table = &tables[end.table];
    let s = &speakers[table.dev];
    let n = &s.bgp.neighbors[end.neighbor];
    if end.confed && s.bgp.local_as.is_some_and(|a| p.confed.contains(&a)) {
        return Ok(None);
    }
    if end.ebgp {
        let own: Vec<u32> = s
            .bgp
            .local_as
            .into_iter()
            .chain(n.local_as)
            .chain(s.bgp.confederation_id)
            .collect();
        let seen = p.as_path.iter().filter(|a| own.contains(a)).count() as u32;
        if seen > n.routing.allowas_in.unwrap_or(0) {
            return Ok(None);
        }
        // A `local-as` is prepended to what is received, unless `no-prepend`.
        if let (Some(l), false) = (n.local_as, n.routing.local_as_no_prepend) {
            p.as_path.insert(0, l);
        }
        p.local_pref = 100;
    } else if p.originator == Some(s.router_id) || p.cluster_list.contains(&s.router_id) {
        return Ok(None);
    }
    p.weight = n.routing.weight.unwrap_or(0);
    // A route tag is the sender's own: BGP does not carry it.
    p.tag = 0;
    // IOS drops the route targets of a path a VRF receives from its neighbor (the
    // `iosxe_vrf_route_leaking_bgp_peering` lab: a VRF's peer sees none; the default
    // VRF's keeps them).
    if s.vendor == Vendor::CiscoIos && table.vrf != "default" {
        p.route_targets.clear();
    }
    p.source = Source::Peer {
        end: far,
        ebgp: end.ebgp,
        router_id: speakers[tables[ends[end.far].table].dev].router_id,
        peer_ip: end.peer_ip,
        client: n.routing.route_reflector_client,
        confed: end.confed,
    };
    let Some(mut p) = import_policy(s, end, p)? else {
        return Ok(None);
    };
    // Over an unnumbered session the far end's stand-in address is on the link.
    if end.interface.is_some() && ends.get(end.far).map(|f| f.local_ip) == Some(p.next_hop) {
        p.igp_cost = 0;
        if s.vendor.policy_chains() {
            p.weight = 0;
        }
        return Ok(Some(p));
    }
    // The longest match that is not a discard route resolves the next hop.
    let via = s
        .lookup
        .longest(&table.vrf, p.next_hop, |r| r.next_hop != NextHop::Discard);
    match via.first() {
        // A next hop that the path's own prefix would match more specifically than the
        // route resolving it would resolve through the route itself: the devices do not
        // install it (a default route from a neighbor on a connected subnet is fine).
        Some(r)
            if p.prefix.contains(&p.next_hop) && r.network.prefix_len() < p.prefix.prefix_len() =>
        {
            return Ok(None)
        }
        Some(r) => p.igp_cost = r.metric,
        None => return Ok(None),
    }
    // Junos and SR OS have no weight.
    if s.vendor.policy_chains() {
        p.weight = 0;
    }
    Ok(Some(p))
}
