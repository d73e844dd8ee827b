//! BGP (IPv4 unicast) over the whole network, after connected, static and OSPF routes:
//! the sessions that come up ([`sessions`]), what each device originates
//! ([`originate`]), the exchange to a fixed point ([`exchange`]) with policy
//! ([`policy`]) and best-path selection ([`select`]); each device's BGP routes for its
//! main RIB (protocols `bgp`, `ibgp`, `aggregate`) and its BGP RIB (`--rib bgp`).
//!
//! A **BGP domain** is the tables (a device's VRF) joined by sessions. What a table of a
//! domain configures that olav does not compute (a policy it does not evaluate, a
//! statement it does not model) makes every table of the domain incomplete, named with
//! the device, since its routes may reach all of them (`docs/routing.md`).

mod exchange;
mod expression;
pub mod external;
mod junos;
pub mod lookup;
mod originate;
mod panos;
pub mod policy;
mod row;
pub mod select;
pub mod sessions;
mod sros;
pub mod vpn;

pub use external::External;
pub use row::{BgpRoute, BGP_COLUMNS};

use super::connected::vrf_name;
use super::dynamic::Incomplete;
use super::rib::DeviceInput;
use super::route::{NextHop, Protocol, Route};
use crate::model::{BgpNeighbor, BgpPeer, BgpProcess, DeviceConfig, Vendor};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::net::{IpAddr, Ipv4Addr};

/// A domain of more (tables and session ends) × (originated prefixes) than this is not
/// computed: its devices are marked incomplete instead. Every session end may hold a
/// path for every prefix; this bounds the exchange's memory (a few hundred MB) and time.
pub const MAX_DOMAIN_ROWS: usize = 500_000;

/// A path's ORIGIN attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Origin {
    /// From a `network` statement or an aggregate (`i`).
    Igp,
    /// EGP (`e`).
    Egp,
    /// Redistributed (`?`).
    Incomplete,
}

impl Origin {
    /// Batfish's `Origin_Type` name.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Igp => "igp",
            Origin::Egp => "egp",
            Origin::Incomplete => "incomplete",
        }
    }
}

/// Where a path comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Originated here (`network`, redistribution).
    Local,
    /// An aggregate made here.
    Aggregate {
        /// `summary-only`: its more specific routes are not advertised.
        summary_only: bool,
    },
    /// Received over a session.
    Peer {
        /// The receiving end (index into the sessions' ends).
        end: usize,
        /// Over eBGP.
        ebgp: bool,
        /// The sender's router id.
        router_id: Ipv4Addr,
        /// The sender's address.
        peer_ip: Ipv4Addr,
        /// The sender is a route-reflector client of this device.
        client: bool,
        /// Received from another member AS of the confederation.
        confed: bool,
    },
    /// Imported from another VRF by route targets ([`vpn`]).
    Vpn {
        /// The main RIB's next hop: the exporting VRF (on the device) or the VTEP (EVPN).
        hop: NextHop,
        /// Received over eBGP (the exporter's path, or the overlay session).
        ebgp: bool,
        /// Originated in the exporting VRF of this device.
        local: bool,
        /// The exporter's router id.
        router_id: Ipv4Addr,
    },
}

impl Source {
    /// Whether the path was received (imported ones too, unless originated on the
    /// device).
    pub fn is_peer(&self) -> bool {
        matches!(self, Source::Peer { .. } | Source::Vpn { local: false, .. })
    }
}

/// One BGP path of one prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// The prefix.
    pub prefix: Ipv4Net,
    /// NEXT_HOP (0.0.0.0 when originated here).
    pub next_hop: Ipv4Addr,
    /// AS_PATH, nearest AS first.
    pub as_path: Vec<u32>,
    /// AS_CONFED_SEQUENCE (member ASes crossed inside the confederation), nearest first;
    /// not counted in the path's length.
    pub confed: Vec<u32>,
    /// LOCAL_PREF.
    pub local_pref: u32,
    /// MED (the main RIB's metric).
    pub med: u32,
    /// Weight (local to the device).
    pub weight: u32,
    /// ORIGIN.
    pub origin: Origin,
    /// Communities as written.
    pub communities: Vec<String>,
    /// Route targets (extended communities) it carries: those of the VRF it was
    /// imported from ([`vpn`]).
    pub route_targets: Vec<String>,
    /// Where it comes from.
    pub source: Source,
    /// ORIGINATOR_ID, once reflected.
    pub originator: Option<Ipv4Addr>,
    /// CLUSTER_LIST.
    pub cluster_list: Vec<Ipv4Addr>,
    /// The IGP cost to the next hop (the metric of the route resolving it).
    pub igp_cost: u32,
    /// The interface of the route it was originated from (`match interface`).
    pub via: Option<String>,
    /// The route tag a route-map set on this device (not carried to peers).
    pub tag: u32,
}

impl Path {
    /// A path this device originates for `prefix`: no AS path, local preference 100, no
    /// attributes; callers set what differs (MED, weight, source, origin).
    pub fn originated(prefix: Ipv4Net) -> Path {
        Path {
            prefix,
            next_hop: Ipv4Addr::UNSPECIFIED,
            as_path: Vec::new(),
            confed: Vec::new(),
            local_pref: 100,
            med: 0,
            weight: 0,
            origin: Origin::Igp,
            communities: Vec::new(),
            route_targets: Vec::new(),
            source: Source::Local,
            originator: None,
            cluster_list: Vec::new(),
            igp_cost: 0,
            via: None,
            tag: 0,
        }
    }

    /// Whether it was received over eBGP.
    pub fn ebgp(&self) -> bool {
        matches!(
            self.source,
            Source::Peer { ebgp: true, .. } | Source::Vpn { ebgp: true, .. }
        )
    }
}

/// A device's VRF running BGP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The device (index into the network's devices).
    pub dev: usize,
    /// The VRF.
    pub vrf: String,
}

/// A device as BGP reads it.
pub struct Speaker<'a> {
    /// Its vendor.
    pub vendor: Vendor,
    /// Its configuration.
    pub config: &'a DeviceConfig,
    /// Its BGP process.
    pub bgp: &'a BgpProcess,
    /// Its router id (configured, else its highest loopback address, else its highest
    /// address).
    pub router_id: Ipv4Addr,
    /// Its RIB before BGP (the rows its scope names, when it has one).
    rib: &'a [Route],
    /// What its RIB holds when made for BGP alone (None: all of it).
    scope: Option<&'a lookup::Scope>,
    /// That RIB indexed (empty for a device without BGP).
    pub lookup: lookup::Lookup<'a>,
}

impl<'a> Speaker<'a> {
    /// Its whole RIB before BGP, for what reads every row (redistribution, Junos export
    /// policies, EOS aggregates' contributors): a RIB made for BGP alone records that it
    /// was needed whole.
    pub fn whole_rib(&self) -> &'a [Route] {
        if let Some(s) = self.scope {
            s.needs_whole();
        }
        self.rib
    }

    /// `maximum-paths` for eBGP and iBGP in `vrf` (1 unless configured, FRR 64; EOS's
    /// one number covers both).
    pub fn maximum_paths(&self, vrf: &str) -> (u32, u32) {
        let r = &self.bgp.routing;
        let of = |v: &[(Option<String>, u32)]| {
            v.iter()
                .rev()
                .find(|(x, _)| vrf_name(x) == vrf)
                .map(|(_, n)| *n)
        };
        // FRR installs up to 64 equal paths of each kind unless told otherwise.
        let default = if self.vendor == Vendor::Frr { 64 } else { 1 };
        let e = of(&r.maximum_paths).unwrap_or(default);
        let i = match self.vendor {
            Vendor::AristaEos => e,
            _ => of(&r.maximum_paths_ibgp).unwrap_or(default),
        };
        (e, i)
    }

    /// Whether `bgp bestpath as-path multipath-relax` holds in `vrf`.
    pub fn multipath_relax(&self, vrf: &str) -> bool {
        self.bgp
            .routing
            .multipath_relax
            .iter()
            .any(|v| vrf_name(v) == vrf)
    }

    /// Whether it reflects routes (a neighbor is its route-reflector client).
    pub fn is_reflector(&self) -> bool {
        self.bgp
            .neighbors
            .iter()
            .any(|n| n.routing.route_reflector_client)
    }

    /// Whether it sends communities to `n` (Junos and SR OS always; the others with
    /// `send-community`).
    pub fn sends_communities(&self, n: &BgpNeighbor) -> bool {
        self.vendor.policy_chains() || n.routing.send_community
    }

    /// Whether it sends extended communities (route targets) to `n`: Junos always, EOS
    /// with any `send-community`, IOS and NX-OS with `both` / `extended`.
    pub fn sends_route_targets(&self, n: &BgpNeighbor) -> bool {
        match self.vendor {
            Vendor::JuniperJunos => true,
            Vendor::AristaEos => n.routing.send_community,
            _ => n.routing.send_ext_community,
        }
    }

    /// Administrative distances in `vrf`: (eBGP, iBGP, aggregate); `distance bgp` when
    /// configured.
    pub fn distances(&self, vrf: &str) -> (u32, u32, u32) {
        if let Some((_, e, i, l)) = self
            .bgp
            .routing
            .distances
            .iter()
            .rev()
            .find(|(v, ..)| vrf_name(v) == vrf)
        {
            return (*e, *i, *l);
        }
        match self.vendor {
            Vendor::CiscoIos | Vendor::CiscoIosXr => (20, 200, 200),
            Vendor::CiscoNxos => (20, 200, 220),
            Vendor::AristaEos => (200, 200, 200),
            Vendor::JuniperJunos | Vendor::NokiaSros => (170, 170, 130),
            // PAN-OS' defaults; the parser writes each virtual router's own.
            Vendor::PaloAltoPanos => (20, 200, 200),
            // FRR: eBGP 20, iBGP 200, local (aggregates, `network`) 200.
            Vendor::Frr => (20, 200, 200),
        }
    }
}

fn router_id(config: &DeviceConfig, bgp: &BgpProcess) -> Ipv4Addr {
    if let Some(IpAddr::V4(id)) = bgp.router_id {
        return id;
    }
    let addrs = |lo: bool| {
        config
            .interfaces
            .iter()
            .filter(|i| i.admin_up && (!lo || i.name.to_lowercase().starts_with("lo")))
            .flat_map(|i| i.addresses.iter())
            .filter_map(|a| match a.address.addr() {
                IpAddr::V4(ip) => Some(ip),
                IpAddr::V6(_) => None,
            })
            .max()
    };
    addrs(true)
        .or_else(|| addrs(false))
        .unwrap_or(Ipv4Addr::UNSPECIFIED)
}

/// Every device's BGP routes, what BGP leaves incomplete, and the BGP RIBs.
#[derive(Debug, Default)]
pub struct Learned {
    routes: Vec<Vec<Route>>,
    incomplete: Vec<Vec<Incomplete>>,
    ribs: Vec<Vec<BgpRoute>>,
    external: Vec<Vec<External>>,
}

impl Learned {
    /// Device `d`'s BGP main-RIB routes, its incomplete parts, its BGP RIB and its
    /// peers outside the network; taken out (a second call gives nothing).
    #[allow(clippy::type_complexity)]
    pub fn take(
        &mut self,
        d: usize,
    ) -> (Vec<Route>, Vec<Incomplete>, Vec<BgpRoute>, Vec<External>) {
        fn t<T>(v: &mut [Vec<T>], d: usize) -> Vec<T> {
            v.get_mut(d).map(std::mem::take).unwrap_or_default()
        }
        (
            t(&mut self.routes, d),
            t(&mut self.incomplete, d),
            t(&mut self.ribs, d),
            t(&mut self.external, d),
        )
    }
}

/// Separates an outside peer's address from its reason in a device's notes.
const PEER: &str = "\u{0}";

/// A domain's reasons: each with the devices (and outside peers) it comes from.
type Reasons = BTreeMap<String, BTreeSet<String>>;

/// What a device configures that olav does not compute, per VRF (None: every VRF).
fn unmodelled(
    vendor: Vendor,
    config: &DeviceConfig,
    bgp: &BgpProcess,
) -> Vec<(Option<String>, String)> {
    let mut out: Vec<(Option<String>, String)> = Vec::new();
    for (v, s) in &bgp.routing.unmodelled {
        out.push((Some(vrf_name(v)), format!("BGP `{s}`")));
    }
    for a in bgp
        .routing
        .aggregates
        .iter()
        .filter(|a| !a.other.is_empty())
    {
        out.push((
            Some(vrf_name(&a.vrf)),
            format!("BGP aggregate-address {} {}", a.prefix, a.other.join(" ")),
        ));
    }
    // Only neighbors exchanging IPv4 unicast routes matter (an EVPN overlay's do not).
    for n in bgp
        .neighbors
        .iter()
        .filter(|n| !n.shutdown && sessions::ipv4_unicast(vendor, n))
    {
        let vrf = Some(vrf_name(&n.vrf));
        for u in &n.routing.unmodelled {
            out.push((vrf.clone(), format!("BGP neighbor {} {u}", n.peer)));
        }
        match &n.peer {
            // Computed where the cabling is known (an interface the cabling leaves out
            // is not connected: its session stays down).
            BgpPeer::Interface(_) if !config.interfaces.iter().any(|i| i.linked_to.is_some()) => {
                out.push((
                    vrf.clone(),
                    "BGP unnumbered (interface) sessions without cabling".into(),
                ))
            }
            BgpPeer::Interface(_) => {}
            BgpPeer::ListenRange(_) | BgpPeer::Address(_) => {}
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Each device as BGP reads it, over `ribs` holding what `scopes` name.
fn speakers<'a>(
    devices: &[DeviceInput<'a>],
    ribs: &[&'a [Route]],
    scopes: &[Option<&'a lookup::Scope>],
    empty: &'a BgpProcess,
) -> Vec<Speaker<'a>> {
    devices
        .iter()
        .enumerate()
        .map(|(d, dev)| {
            let bgp = dev.config.bgp.as_ref().unwrap_or(empty);
            let rib: &[Route] = ribs.get(d).copied().unwrap_or(&[]);
            let scope = scopes.get(d).copied().flatten();
            Speaker {
                vendor: dev.vendor,
                config: dev.config,
                bgp,
                router_id: router_id(dev.config, bgp),
                rib,
                scope,
                lookup: if dev.config.bgp.is_some() {
                    lookup::Lookup::scoped(rib, scope)
                } else {
                    lookup::Lookup::default()
                },
            }
        })
        .collect()
}

/// BGP over the network: `ribs[d]` is device `d`'s RIB before BGP, whole or what
/// `scopes[d]` names (missing: whole). Where VRFs export EVPN routes, the overlay's
/// sessions and VTEPs are reached through the default VRF's BGP routes too (an underlay
/// of eBGP): BGP is computed once without the overlay, and again with it over those
/// routes.
pub fn routes(
    devices: &[DeviceInput<'_>],
    ribs: &[&[Route]],
    scopes: &[Option<&lookup::Scope>],
) -> Learned {
    let empty = BgpProcess::default();
    let speakers = speakers(devices, ribs, scopes, &empty);
    if !speakers.iter().any(vpn::exports_evpn) {
        return compute(devices, &speakers, None);
    }
    let underlay = compute(devices, &speakers, None);
    let with_bgp: Vec<Vec<Route>> = (0..devices.len())
        .map(|d| {
            let mut r = ribs.get(d).copied().unwrap_or(&[]).to_vec();
            r.extend(
                underlay
                    .routes
                    .get(d)
                    .into_iter()
                    .flatten()
                    .filter(|r| r.vrf == "default")
                    .cloned(),
            );
            r
        })
        .collect();
    let refs: Vec<&[Route]> = with_bgp.iter().map(Vec::as_slice).collect();
    let overlay = self::speakers(devices, &refs, scopes, &empty);
    compute(devices, &speakers, Some(&overlay))
}

/// BGP over `speakers`; `overlay`: the speakers whose RIBs carry the EVPN overlay (None:
/// no EVPN routes).
fn compute(
    devices: &[DeviceInput<'_>],
    speakers: &[Speaker<'_>],
    overlay: Option<&[Speaker<'_>]>,
) -> Learned {
    let n = devices.len();
    let hostnames: Vec<&str> = devices.iter().map(|d| d.hostname).collect();
    let mut learned = Learned {
        routes: vec![Vec::new(); n],
        incomplete: vec![Vec::new(); n],
        ribs: vec![Vec::new(); n],
        external: vec![Vec::new(); n],
    };
    // Tables: every VRF where a device runs BGP (a neighbor, a network, an aggregate, a
    // redistribution).
    let mut tables: Vec<Table> = Vec::new();
    let mut notes: Vec<Vec<(Option<String>, String)>> = vec![Vec::new(); n];
    for (d, dev) in devices.iter().enumerate() {
        let Some(bgp) = &dev.config.bgp else {
            continue;
        };
        let r = &bgp.routing;
        let vrfs: BTreeSet<String> = bgp
            .neighbors
            .iter()
            .filter(|n| !n.shutdown)
            .map(|n| vrf_name(&n.vrf))
            .chain(bgp.networks.iter().map(|x| vrf_name(&x.vrf)))
            .chain(r.aggregates.iter().map(|a| vrf_name(&a.vrf)))
            .chain(r.redistribute.iter().map(|(v, _, _)| vrf_name(v)))
            .chain(
                r.vrf_vpn
                    .iter()
                    .filter(|v| !v.import.is_empty() || !v.export.is_empty())
                    .map(|v| v.vrf.clone()),
            )
            .collect();
        // Without a process AS a VRF still peers when each of its neighbors has its own
        // `local-as` (Junos groups in a routing instance with no `autonomous-system`).
        let (known, unknown): (Vec<String>, Vec<String>) = vrfs.into_iter().partition(|v| {
            bgp.local_as.is_some() || {
                let mut ns = bgp
                    .neighbors
                    .iter()
                    .filter(|n| !n.shutdown && vrf_name(&n.vrf) == *v)
                    .peekable();
                ns.peek().is_some() && ns.all(|n| n.local_as.is_some())
            }
        });
        notes[d] = unmodelled(dev.vendor, dev.config, bgp);
        // A configuration not fully read (a routing line, its end): what it leaves out
        // may be what its neighbours learn.
        if !crate::routing::dynamic::unread(dev.config, dev.vendor).is_empty() {
            for v in &known {
                notes[d].push((
                    Some(v.clone()),
                    "BGP of a configuration olav could not fully read".into(),
                ));
            }
        }
        for v in unknown {
            notes[d].push((Some(v), "BGP without a local AS".into()));
        }
        tables.extend(known.into_iter().map(|vrf| Table { dev: d, vrf }));
    }
    // Neighbors on a device whose configuration was not fully read: what it sends them is
    // not known, whether or not its side of the session was read.
    let unread: std::collections::HashMap<IpAddr, &str> = devices
        .iter()
        .filter(|dev| !crate::routing::dynamic::unread(dev.config, dev.vendor).is_empty())
        .flat_map(|dev| {
            dev.config
                .interfaces
                .iter()
                .flat_map(|i| i.addresses.iter().map(|a| (a.address.addr(), dev.hostname)))
        })
        .collect();
    if !unread.is_empty() {
        for t in &tables {
            let Some(bgp) = &devices[t.dev].config.bgp else {
                continue;
            };
            for n in bgp.neighbors.iter().filter(|n| vrf_name(&n.vrf) == t.vrf) {
                if let BgpPeer::Address(a) = n.peer {
                    if let Some(far) = unread.get(&a).filter(|f| **f != devices[t.dev].hostname) {
                        notes[t.dev].push((
                            Some(t.vrf.clone()),
                            format!(
                                "BGP peer {far}, whose configuration olav could not fully read"
                            ),
                        ));
                    }
                }
            }
        }
    }
    let sessions::Established {
        ends,
        outside,
        configured,
    } = sessions::established(speakers, &hostnames, &tables, sessions::ipv4_unicast);
    for o in &outside {
        let table = &tables[o.table];
        notes[table.dev].push((
            Some(table.vrf.clone()),
            format!("{}{PEER}{}", crate::routing::dynamic::OUTSIDE, o.peer_ip),
        ));
    }
    // One neighbor address answered by several devices (the same address on separate
    // links, which only the cabling tells apart): which of them the session reaches is
    // not known from the configurations.
    let mut answered: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for e in &ends {
        let n = &speakers[tables[e.table].dev].bgp.neighbors[e.neighbor];
        if matches!(n.peer, BgpPeer::Address(_)) {
            answered
                .entry((e.table, e.neighbor))
                .or_default()
                .push(tables[ends[e.far].table].dev);
        }
    }
    for ((t, nb), far) in answered.into_iter().filter(|(_, f)| f.len() > 1) {
        let table = &tables[t];
        let names: Vec<&str> = far.iter().map(|d| devices[*d].hostname).collect();
        notes[table.dev].push((
            Some(table.vrf.clone()),
            format!(
                "BGP sessions to an address several devices own ({} on {})",
                speakers[table.dev].bgp.neighbors[nb].peer,
                names.join(", ")
            ),
        ));
    }
    // VRFs importing each other's routes by route targets, on a device and over EVPN.
    let overlay_ends = match overlay {
        Some(o) => {
            let est = sessions::established(o, &hostnames, &tables, sessions::evpn);
            for o in est.outside {
                let (dev, peer) = (tables[o.table].dev, o.peer_ip);
                for v in vpn::vpn_vrfs(&speakers[dev]) {
                    notes[dev].push((
                        Some(v.vrf.clone()),
                        format!("BGP EVPN routes from peers outside the network{PEER}{peer}"),
                    ));
                }
            }
            est.ends
        }
        None => Vec::new(),
    };
    let (vpn_links, vpn_notes) = vpn::links(
        speakers,
        overlay.unwrap_or(speakers),
        &tables,
        &overlay_ends,
    );
    for (dev, vrf, why) in vpn_notes {
        notes[dev].push((Some(vrf), why));
    }
    // Domains: tables joined by sessions (union-find).
    let mut parent: Vec<usize> = (0..tables.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    // Joined by sessions, and by peerings configured that do not come up (what one
    // side leaves incomplete may be why).
    let links: Vec<(usize, usize)> = ends
        .iter()
        .map(|e| (e.table, ends[e.far].table))
        .chain(configured)
        .chain(vpn_links.iter().map(|l| (l.from, l.to)))
        .collect();
    for (x, y) in links {
        let (a, b) = (root(&mut parent, x), root(&mut parent, y));
        parent[a] = b;
    }
    let domain: Vec<usize> = (0..tables.len()).map(|t| root(&mut parent, t)).collect();
    // The domain's reasons, each with the devices it comes from.
    let mut reasons: BTreeMap<usize, Reasons> = BTreeMap::new();
    // Per domain: its tables, the prefixes they originate (each once: a session end holds
    // a path per prefix), the rows redistribution and Junos export policies may announce,
    // and the tables and session ends that hold paths.
    let mut size: BTreeMap<usize, (usize, BTreeSet<ipnet::IpNet>, usize, usize)> = BTreeMap::new();
    let mut ends_of = vec![0usize; tables.len()];
    for e in &ends {
        ends_of[e.table] += 1;
    }
    for l in &vpn_links {
        ends_of[l.to] += 1;
    }
    for (t, table) in tables.iter().enumerate() {
        let host = devices[table.dev].hostname;
        for (v, why) in &notes[table.dev] {
            if v.as_ref().is_none_or(|v| *v == table.vrf) {
                // An outside peer is named with its device: `r1 peer 203.0.113.1`.
                let (why, at) = match why.split_once(PEER) {
                    Some((w, peer)) => (w.to_owned(), format!("{host} peer {peer}")),
                    None => (why.clone(), host.to_owned()),
                };
                reasons
                    .entry(domain[t])
                    .or_default()
                    .entry(why)
                    .or_default()
                    .insert(at);
            }
        }
        let s = &speakers[table.dev];
        // Redistribution and Junos export policies may announce the whole RIB.
        let e = size.entry(domain[t]).or_default();
        e.0 += 1;
        e.1.extend(s.bgp.networks.iter().map(|n| n.prefix));
        e.1.extend(s.bgp.routing.aggregates.iter().map(|a| a.prefix));
        if !s.bgp.routing.redistribute.is_empty() || s.vendor.policy_chains() {
            e.2 += s.whole_rib().len();
        }
        e.3 += 1 + ends_of[t];
    }
    let origins = |d: &usize| size.get(d).map_or(0, |(_, p, rows, _)| p.len() + rows);
    let too_large: BTreeSet<usize> = size
        .iter()
        .filter(|(d, (.., holders))| holders.saturating_mul(origins(d)) > MAX_DOMAIN_ROWS)
        .map(|(d, _)| *d)
        .collect();
    // The exchange runs over the domains small enough (their tables and ends only).
    let keep: Vec<bool> = domain.iter().map(|d| !too_large.contains(d)).collect();
    let mut index = vec![usize::MAX; tables.len()];
    let mut kept_tables = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        if keep[t] {
            index[t] = kept_tables.len();
            kept_tables.push(table.clone());
        }
    }
    let mut end_index = vec![usize::MAX; ends.len()];
    let mut kept_ends: Vec<sessions::End> = Vec::new();
    for (e, end) in ends.iter().enumerate() {
        if keep[end.table] {
            end_index[e] = kept_ends.len();
            kept_ends.push(end.clone());
        }
    }
    for e in &mut kept_ends {
        e.table = index[e.table];
        e.far = end_index[e.far];
    }
    let kept_links: Vec<vpn::Link> = vpn_links
        .iter()
        .filter(|l| keep[l.from] && keep[l.to])
        .map(|l| vpn::Link {
            from: index[l.from],
            to: index[l.to],
            kind: l.kind.clone(),
            route_targets: l.route_targets.clone(),
        })
        .collect();
    let outcome = exchange::run(speakers, &kept_tables, &kept_ends, &kept_links);
    let kept_outside: Vec<sessions::End> = outside
        .iter()
        .filter(|o| keep[o.table])
        .map(|o| sessions::End {
            table: index[o.table],
            ..o.clone()
        })
        .collect();
    let (sel, cut) = (&outcome.selected, outcome.cut_off);
    for (t, x) in external::of(speakers, &kept_tables, &kept_ends, &kept_outside, sel, cut) {
        learned.external[kept_tables[t].dev].push(x);
    }
    // Policies not evaluated anywhere in a domain.
    for (t, table) in tables.iter().enumerate() {
        if keep[t] {
            for x in &outcome.unknown[index[t]] {
                reasons
                    .entry(domain[t])
                    .or_default()
                    .entry(format!("BGP policy not evaluated: {}", x.0))
                    .or_default()
                    .insert(devices[table.dev].hostname.to_owned());
            }
        }
    }
    // Each reason once, with its first devices: a domain of thousands of devices names
    // a few.
    let said: BTreeMap<usize, BTreeSet<String>> = reasons
        .iter()
        .map(|(d, rs)| {
            let lines = rs
                .iter()
                .map(|(why, at)| {
                    let mut names: Vec<&str> = at.iter().take(3).map(String::as_str).collect();
                    let more = at.len().saturating_sub(3);
                    let more = if more > 0 {
                        format!(" and {more} more")
                    } else {
                        String::new()
                    };
                    names.sort_unstable();
                    format!("{why} ({}{more})", names.join(", "))
                })
                .collect();
            (*d, lines)
        })
        .collect();
    for (t, table) in tables.iter().enumerate() {
        let d = table.dev;
        let dom = domain[t];
        let mut why: BTreeSet<String> = said.get(&dom).cloned().unwrap_or_default();
        if too_large.contains(&dom) {
            why.insert(format!(
                "BGP domain of {} tables and {} originated prefixes (over {MAX_DOMAIN_ROWS} session × prefix rows) is too large to compute",
                size.get(&dom).map_or(0, |s| s.0),
                origins(&dom)
            ));
        }
        if keep[t] {
            let k = index[t];
            if outcome.cut_off {
                why.insert(format!(
                    "BGP did not converge: cut off after {} updates of one table",
                    exchange::MAX_VISITS
                ));
            }
            install(
                &speakers[d],
                &ends,
                &table.vrf,
                &outcome.selected[k],
                &outcome.candidates[k],
                &mut learned.routes[d],
                &mut learned.ribs[d],
            );
        }
        for w in why {
            let i = Incomplete {
                vrf: Some(table.vrf.clone()),
                reason: format!("{w}: not computed yet"),
            };
            if !learned.incomplete[d].contains(&i) {
                learned.incomplete[d].push(i);
            }
        }
    }
    for (d, ns) in notes.iter().enumerate() {
        if devices[d]
            .config
            .bgp
            .as_ref()
            .is_some_and(|b| b.local_as.is_none())
        {
            for (v, w) in ns {
                learned.incomplete[d].push(Incomplete {
                    vrf: v.clone(),
                    reason: format!("{w}: not computed"),
                });
            }
        }
    }
    learned
}

/// A learned path's next hop in the main RIB: over an unnumbered session, the far end's
/// stand-in address is the session's interface.
fn hop(ends: &[sessions::End], end: usize, p: &Path) -> NextHop {
    match ends.get(end) {
        Some(e)
            if e.interface.is_some() && ends.get(e.far).map(|f| f.local_ip) == Some(p.next_hop) =>
        {
            NextHop::Interface {
                interface: e.interface.as_deref().unwrap_or_default().into(),
                ip: None,
            }
        }
        _ => NextHop::Ip(p.next_hop),
    }
}

/// The main-RIB routes and BGP-RIB rows of one table.
fn install(
    s: &Speaker<'_>,
    ends: &[sessions::End],
    vrf: &str,
    selected: &BTreeMap<Ipv4Net, Vec<Path>>,
    candidates: &BTreeMap<Ipv4Net, Vec<Path>>,
    routes: &mut Vec<Route>,
    rib: &mut Vec<BgpRoute>,
) {
    let (ebgp, ibgp, aggregate) = s.distances(vrf);
    // PAN-OS without `install-route`: BGP selects and advertises, the main RIB holds none.
    let installs = !s
        .bgp
        .routing
        .not_installed
        .iter()
        .any(|v| vrf_name(v) == vrf);
    for (prefix, paths) in selected.iter().filter(|_| installs) {
        for p in paths {
            let (protocol, next_hop, distance) = match &p.source {
                Source::Local => continue,
                Source::Aggregate { .. } => (Protocol::Aggregate, NextHop::Discard, aggregate),
                Source::Peer {
                    ebgp: true, end, ..
                } => (Protocol::Bgp, hop(ends, *end, p), ebgp),
                Source::Peer { end, .. } => (Protocol::Ibgp, hop(ends, *end, p), ibgp),
                // Batfish gives a path leaked from a local origination eBGP's distance.
                Source::Vpn {
                    hop,
                    ebgp: false,
                    local: false,
                    ..
                } => (Protocol::Ibgp, hop.clone(), ibgp),
                Source::Vpn { hop, .. } => (Protocol::Bgp, hop.clone(), ebgp),
            };
            // NX-OS tags a BGP route with the AS it came from (its own for a local one).
            let tag = (s.vendor == Vendor::CiscoNxos && protocol != Protocol::Aggregate)
                .then(|| p.as_path.first().copied().or(s.bgp.local_as))
                .flatten();
            routes.push(Route {
                vrf: vrf.into(),
                network: *prefix,
                next_hop,
                protocol,
                metric: p.med,
                admin_distance: distance,
                tag,
            });
        }
    }
    for (prefix, paths) in candidates {
        let installed = selected.get(prefix).map(Vec::as_slice).unwrap_or(&[]);
        for (i, p) in paths.iter().enumerate() {
            rib.push(BgpRoute {
                vrf: vrf.into(),
                network: *prefix,
                next_hop: p.source.is_peer().then_some(p.next_hop),
                protocol: match p.source {
                    Source::Local => "local",
                    Source::Aggregate { .. } => "aggregate",
                    Source::Peer { ebgp: true, .. } => "bgp",
                    Source::Peer { .. } => "ibgp",
                    Source::Vpn {
                        ebgp: false,
                        local: false,
                        ..
                    } => "ibgp",
                    Source::Vpn { .. } => "bgp",
                }
                .to_owned(),
                as_path: p.as_path.clone(),
                local_pref: p.local_pref,
                med: p.med,
                weight: p.weight,
                origin: p.origin,
                communities: p.communities.clone(),
                best: i == 0,
                installed: installed.contains(p),
            });
        }
    }
}

#[cfg(test)]
mod iosxr_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod vpn_tests;
