//! VRFs and route targets: which VRF imports which other VRF's best BGP paths.
//!
//! A VRF's best paths carry its export route targets; a VRF whose import route targets
//! meet them takes them in. On one device ([`Kind::Local`]: IOS `vrf definition`
//! leaking) the path keeps its attributes and its next hop is looked up in the exporting
//! VRF. Between devices over the EVPN overlay ([`Kind::Evpn`]: type-5 IP prefix routes)
//! the path reaches the importing device the way the overlay sessions carry it (AS
//! numbers prepended over eBGP, iBGP only through route reflectors) and its next hop is
//! the exporter's VTEP. Imported paths are not exported again (`docs/routing.md`).

use super::sessions::End;
use super::{Path, Source, Speaker, Table};
use crate::model::{RouteTarget, RtFamily, VrfVpn};
use crate::routing::route::NextHop;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::net::{IpAddr, Ipv4Addr};

/// More VRF imports than this over the EVPN overlay are not computed: each may carry a
/// path per prefix (a fabric of a thousand leaves with ten VRFs makes ten million).
pub const MAX_EVPN_LINKS: usize = 200_000;

/// How routes travel from one VRF to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Between two VRFs of one device.
    Local,
    /// Over the EVPN overlay, as type-5 routes.
    Evpn {
        /// The exporter's VTEP (the next hop).
        vtep: Ipv4Addr,
        /// The exporting VRF's layer-3 VNI.
        vni: u32,
        /// Whether the overlay session that delivers them is eBGP.
        ebgp: bool,
        /// The AS numbers the overlay prepends, nearest first.
        as_path: Vec<u32>,
        /// The exporter's router id.
        router_id: Ipv4Addr,
        /// The importer's IGP cost to the VTEP.
        cost: u32,
    },
}

/// One VRF importing another's routes.
#[derive(Debug, Clone)]
pub struct Link {
    /// The exporting table.
    pub from: usize,
    /// The importing table.
    pub to: usize,
    /// How.
    pub kind: Kind,
    /// The exporter's route targets, which the imported paths carry.
    pub route_targets: Vec<String>,
}

/// The VRFs of a device that take part in route-target import or export.
pub fn vpn_vrfs<'a>(s: &Speaker<'a>) -> impl Iterator<Item = &'a VrfVpn> {
    s.bgp
        .routing
        .vrf_vpn
        .iter()
        .filter(|v| !v.import.is_empty() || !v.export.is_empty())
}

/// Whether a device exports EVPN routes from a VRF.
pub fn exports_evpn(s: &Speaker<'_>) -> bool {
    vpn_vrfs(s).any(|v| v.export.iter().any(|r| r.family != RtFamily::Vpn))
}

/// The route targets of `rts` for `family`, `auto` resolved to ASN:VNI (NX-OS). Without
/// a VNI (or an AS) `auto` is the VRF's own value, which no other VRF names (NX-OS
/// derives it from the VRF's id): it imports and exports nothing olav could miss.
fn targets(
    rts: &[RouteTarget],
    family: RtFamily,
    asn: Option<u32>,
    vni: Option<u32>,
    vrf: &str,
) -> BTreeSet<String> {
    rts.iter()
        .filter(|r| r.family == family || r.family == RtFamily::Both)
        .map(|rt| match (rt.value.as_str(), asn, vni) {
            ("auto", Some(a), Some(n)) => format!("{a}:{n}"),
            ("auto", ..) => format!("auto {vrf}"),
            (v, ..) => v.to_owned(),
        })
        .collect()
}

/// The address of the device's VTEP: its VTEP source interface's primary address.
fn vtep(s: &Speaker<'_>) -> Option<Ipv4Addr> {
    let name = s.bgp.routing.vtep_interface.as_deref()?;
    if vtep_shut(s) {
        return None;
    }
    let i = s
        .config
        .interfaces
        .iter()
        .find(|i| crate::ifname::same(name, &i.name) && i.admin_up)?;
    i.addresses.iter().find_map(|a| match a.address.addr() {
        IpAddr::V4(ip) if a.kind == crate::model::AddressKind::Primary => Some(ip),
        _ => None,
    })
}

/// Whether the device's VTEP is shut: its NVE or VXLAN interface, or the interface whose
/// address it takes. It then carries no EVPN route either way.
fn vtep_shut(s: &Speaker<'_>) -> bool {
    s.config.interfaces.iter().any(|i| {
        let n = i.name.to_ascii_lowercase();
        let source = s
            .bgp
            .routing
            .vtep_interface
            .as_deref()
            .is_some_and(|v| crate::ifname::same(v, &i.name));
        (source || n.starts_with("nve") || n.starts_with("vxlan")) && !i.admin_up
    })
}

/// Where EVPN routes originated by the table `origin` (a default VRF) arrive over the
/// overlay sessions `ends`: per table, the AS numbers prepended on the way (nearest
/// first) and whether the last session was eBGP. Routes go on as BGP sends them: what
/// arrived over eBGP to every peer, what arrived over iBGP to eBGP peers and, from a
/// route reflector, to its clients (and from a client to every peer); a table whose AS
/// is already in the path drops it. The shortest path wins.
fn overlay_arrivals(
    speakers: &[Speaker<'_>],
    tables: &[Table],
    ends: &[End],
    ends_of: &[Vec<usize>],
    origin: usize,
) -> BTreeMap<usize, (Vec<u32>, bool)> {
    // Per table: (AS path, arrived over eBGP, from a route-reflector client).
    let mut best: BTreeMap<usize, (Vec<u32>, bool, bool)> = BTreeMap::new();
    let mut queue: VecDeque<usize> = VecDeque::from([origin]);
    best.insert(origin, (Vec::new(), true, true));
    while let Some(x) = queue.pop_front() {
        let (path, ebgp_in, from_client) = best[&x].clone();
        let s = &speakers[tables[x].dev];
        for &e in &ends_of[x] {
            let end = &ends[e];
            let far = &ends[end.far];
            let y = far.table;
            let n = &s.bgp.neighbors[end.neighbor];
            // Without extended communities the path carries no route target: nothing
            // downstream imports it.
            if !s.sends_route_targets(n) {
                continue;
            }
            let sends = x == origin
                || ebgp_in
                || end.ebgp
                || (s.is_reflector() && (from_client || n.routing.route_reflector_client));
            if !sends || y == origin {
                continue;
            }
            let mut p = path.clone();
            if end.ebgp {
                p.insert(0, s.bgp.presented_as(n).first().copied().unwrap_or(0));
            }
            let r = &speakers[tables[y].dev];
            let rn = &r.bgp.neighbors[far.neighbor];
            let own = r.bgp.local_as;
            let seen = p.iter().filter(|a| Some(**a) == own).count() as u32;
            if end.ebgp && seen > rn.routing.allowas_in.unwrap_or(0) {
                continue;
            }
            let better = best.get(&y).is_none_or(|(q, qe, _)| {
                p.len() < q.len() || (p.len() == q.len() && end.ebgp && !qe)
            });
            if better {
                best.insert(y, (p, end.ebgp, rn.routing.route_reflector_client));
                queue.push_back(y);
            }
        }
    }
    best.remove(&origin);
    best.into_iter().map(|(t, (p, e, _))| (t, (p, e))).collect()
}

/// The import links between `tables`, the EVPN overlay's sessions being `evpn_ends`
/// (between default-VRF tables, over the `overlay` speakers' RIBs), and what olav cannot
/// compute: (device, VRF, reason).
pub fn links(
    speakers: &[Speaker<'_>],
    overlay: &[Speaker<'_>],
    tables: &[Table],
    evpn_ends: &[End],
) -> (Vec<Link>, Vec<(usize, String, String)>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    let table_of: BTreeMap<(usize, &str), usize> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| ((t.dev, t.vrf.as_str()), i))
        .collect();
    // Per table taking part: its import and export targets per family.
    struct Rts {
        import: BTreeSet<String>,
        export: BTreeSet<String>,
    }
    let mut vpn: BTreeMap<usize, Rts> = BTreeMap::new();
    let mut evpn: BTreeMap<usize, (Rts, Option<u32>)> = BTreeMap::new();
    for (d, s) in speakers.iter().enumerate() {
        let asn = s.bgp.local_as;
        for v in vpn_vrfs(s) {
            let Some(&t) = table_of.get(&(d, v.vrf.as_str())) else {
                continue;
            };
            let of = |f| Rts {
                import: targets(&v.import, f, asn, v.vni, &v.vrf),
                export: targets(&v.export, f, asn, v.vni, &v.vrf),
            };
            vpn.insert(t, of(RtFamily::Vpn));
            evpn.insert(t, (of(RtFamily::Evpn), v.vni));
        }
    }
    // On one device: VPN targets.
    for (&a, ra) in &vpn {
        for (&b, rb) in &vpn {
            if a != b && tables[a].dev == tables[b].dev && !ra.export.is_disjoint(&rb.import) {
                out.push(Link {
                    from: a,
                    to: b,
                    kind: Kind::Local,
                    route_targets: ra.export.iter().cloned().collect(),
                });
            }
        }
    }
    // VPN targets towards other devices travel over VPNv4 sessions, not computed.
    for (&t, r) in &vpn {
        let s = &speakers[tables[t].dev];
        let vpnv4 = s
            .bgp
            .neighbors
            .iter()
            .any(|n| !n.shutdown && n.address_families.iter().any(|a| a == "vpnv4"));
        if vpnv4 && !(r.import.is_empty() && r.export.is_empty()) {
            notes.push((
                tables[t].dev,
                tables[t].vrf.clone(),
                "BGP VPNv4 routes between devices".to_owned(),
            ));
        }
    }
    // EVPN policies on the overlay's sessions are not evaluated: every VRF taking part
    // is said to be incomplete, naming them.
    let policies: Vec<String> = overlay
        .iter()
        .flat_map(|s| {
            s.bgp
                .neighbors
                .iter()
                .filter(|n| !n.shutdown)
                .flat_map(|n| {
                    n.routing
                        .family_policies
                        .iter()
                        .filter(|p| p.contains("evpn"))
                        .map(move |p| format!("neighbor {} {p}", n.peer))
                })
        })
        .collect();
    if let Some(first) = policies.first() {
        let more = match policies.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        for t in evpn.keys() {
            notes.push((
                tables[*t].dev,
                tables[*t].vrf.clone(),
                format!("BGP EVPN policy not evaluated ({first}{more})"),
            ));
        }
    }
    // Over the EVPN overlay.
    let mut ends_of: Vec<Vec<usize>> = vec![Vec::new(); tables.len()];
    for (e, end) in evpn_ends.iter().enumerate() {
        ends_of[end.table].push(e);
    }
    let mut evpn_of: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for t in evpn.keys() {
        evpn_of.entry(tables[*t].dev).or_default().push(*t);
    }
    let local_links = out.len();
    let exporters: Vec<usize> = evpn
        .iter()
        .filter(|(_, (r, _))| !r.export.is_empty())
        .map(|(t, _)| *t)
        .collect();
    let mut devices: BTreeSet<usize> = exporters.iter().map(|t| tables[*t].dev).collect();
    devices.retain(|d| table_of.contains_key(&(*d, "default")));
    // Whose VTEP is shut, once per device rather than per imported path.
    let shut: Vec<bool> = overlay.iter().map(vtep_shut).collect();
    'devices: for d in devices {
        let s = &speakers[d];
        let origin = table_of[&(d, "default")];
        if ends_of[origin].is_empty() {
            continue;
        }
        let mine: Vec<usize> = exporters
            .iter()
            .copied()
            .filter(|t| tables[*t].dev == d)
            .collect();
        let Some(vtep) = vtep(s) else {
            if shut[d] {
                continue;
            }
            for t in mine {
                notes.push((
                    d,
                    tables[t].vrf.clone(),
                    "BGP EVPN export without a VTEP address (VXLAN source interface)".to_owned(),
                ));
            }
            continue;
        };
        let arrivals = overlay_arrivals(overlay, tables, evpn_ends, &ends_of, origin);
        for u in mine {
            let (ru, vni) = &evpn[&u];
            let Some(vni) = *vni else {
                notes.push((
                    tables[u].dev,
                    tables[u].vrf.clone(),
                    "BGP EVPN export from a VRF without a layer-3 VNI".to_owned(),
                ));
                continue;
            };
            for (&at, (as_path, ebgp)) in &arrivals {
                let dev = tables[at].dev;
                if shut[dev] {
                    continue;
                }
                // The importer must reach the VTEP in its default VRF.
                let reach = overlay[dev]
                    .lookup
                    .longest("default", vtep, |r| r.next_hop != NextHop::Discard);
                let Some(cost) = reach.first().map(|r| r.metric) else {
                    continue;
                };
                for &t in evpn_of.get(&dev).into_iter().flatten() {
                    let (rt, _) = &evpn[&t];
                    if !ru.export.is_disjoint(&rt.import) {
                        out.push(Link {
                            from: u,
                            to: t,
                            kind: Kind::Evpn {
                                vtep,
                                vni,
                                ebgp: *ebgp,
                                as_path: as_path.clone(),
                                router_id: s.router_id,
                                cost,
                            },
                            route_targets: ru.export.iter().cloned().collect(),
                        });
                        if out.len() - local_links > MAX_EVPN_LINKS {
                            break 'devices;
                        }
                    }
                }
            }
        }
    }
    if out.len() - local_links > MAX_EVPN_LINKS {
        out.truncate(local_links);
        for t in evpn.keys() {
            notes.push((
                tables[*t].dev,
                tables[*t].vrf.clone(),
                format!("BGP EVPN with over {MAX_EVPN_LINKS} VRF imports is too large to compute"),
            ));
        }
    }
    (out, notes)
}

/// What `link` brings into its importing table from the exporter's best path `best`:
/// None for a path that was itself imported (not exported again) or that the importer
/// refuses (its own AS in the path, the VTEP unreachable).
pub fn import(
    speakers: &[Speaker<'_>],
    tables: &[Table],
    link: &Link,
    best: &Path,
) -> Option<Path> {
    if matches!(best.source, Source::Vpn { .. }) {
        return None;
    }
    let mut p = best.clone();
    p.route_targets.clone_from(&link.route_targets);
    let to = &speakers[tables[link.to].dev];
    match &link.kind {
        Kind::Local => {
            p.source = Source::Vpn {
                hop: NextHop::Vrf(tables[link.from].vrf.clone()),
                ebgp: best.ebgp(),
                local: !best.source.is_peer(),
                router_id: to.router_id,
            };
        }
        Kind::Evpn {
            vtep,
            vni,
            ebgp,
            as_path,
            router_id,
            cost,
        } => {
            let mut path = as_path.clone();
            path.extend_from_slice(&best.as_path);
            if to.bgp.local_as.is_some_and(|a| path.contains(&a)) {
                return None;
            }
            let local = !best.source.is_peer();
            if *ebgp {
                p.local_pref = 100;
                if !local {
                    p.med = 0;
                }
            }
            p.as_path = path;
            p.next_hop = *vtep;
            p.weight = 0;
            p.originator = None;
            p.cluster_list.clear();
            p.confed.clear();
            p.igp_cost = *cost;
            p.source = Source::Vpn {
                hop: NextHop::Vtep {
                    vni: *vni,
                    vtep: *vtep,
                },
                ebgp: *ebgp,
                local: false,
                router_id: *router_id,
            };
        }
    }
    Some(p)
}
