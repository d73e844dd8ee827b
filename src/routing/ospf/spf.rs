//! The shortest-path computation: per area, Dijkstra from a router over routers and
//! transit networks, run when that router's routes are asked for (the ABRs' runs once,
//! for what they summarise into the backbone); intra-area routes from each router's and network's advertisements;
//! inter-area routes through area border routers (summaries into the backbone of their
//! other areas' routes, and into their other areas of everything they reach); external
//! E1/E2 routes towards the autonomous-system boundary routers that redistribute.
//!
//! Preference among a prefix's OSPF paths: intra-area, then inter-area, then E1, then E2
//! (E2 by its metric, then the cost to the boundary router); equal best paths are all
//! kept (ECMP), each with its first hop: the outgoing interface and the neighbour's
//! address on it.

use super::topology::{OspfIf, Segment};
use crate::routing::{FastMap as HashMap, FastSet as HashSet};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A first hop: (this router's interface, the neighbour's interface), indexes into the
/// interface list. `NONE` as the neighbour: a transit network the source is on.
pub type Hop = (u32, u32);
const NONE: u32 = u32::MAX;

/// What a router or network advertises: a prefix, or (for boundary routers) itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dest {
    /// A prefix.
    Net(Ipv4Net),
    /// A router that redistributes (an ASBR), by device.
    Router(usize),
}

/// How a route was learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Intra-area (`ospf`).
    Intra,
    /// Inter-area (`ospfIA`).
    Inter,
    /// External type 1 (`ospfE1`).
    E1,
    /// External type 2 (`ospfE2`).
    E2,
    /// An area range's discard route on the ABR that summarises it (`ospfIS`).
    Summary,
}

/// An area range of one ABR: the intra-area routes of `area` inside `prefix` are
/// summarised as one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    /// The area whose routes it summarises.
    pub area: u32,
    /// The range.
    pub prefix: Ipv4Net,
    /// Sent to the other areas (IOS `not-advertise`, Junos `restrict`: not).
    pub advertise: bool,
    /// The configured cost (else from the components).
    pub cost: Option<u32>,
    /// Junos `exact`: only a route of exactly the range is a component.
    pub exact: bool,
    /// The ABR installs a discard route for it while it has a component.
    pub discard: bool,
}

impl Range {
    fn covers(&self, p: &Ipv4Net) -> bool {
        if self.exact {
            *p == self.prefix
        } else {
            self.prefix.contains(p)
        }
    }
}

/// What an ABR's ranges make of routes it would summarise one by one: each summarised
/// item is left out; each range with components costs (`max`: the costliest, else the
/// cheapest, or its configured cost) and is sent when advertised.
#[derive(Debug, Default)]
struct Ranged {
    /// The items left as they are, then the advertised summaries.
    items: Vec<(Dest, u64)>,
    /// The active ranges (with at least one component) and their cost.
    active: Vec<(usize, u64)>,
    /// Active ranges whose cost the rule decides (components of different costs, none
    /// configured) where the rule is not known: (range, cheapest, costliest).
    unsure: Vec<(usize, u64, u64)>,
}

fn apply_ranges(
    ranges: &[Range],
    max: Option<bool>,
    items: impl Iterator<Item = (Dest, u64, u32)>,
) -> Ranged {
    let mut out = Ranged::default();
    let mut cost: Vec<Option<(u64, u64)>> = vec![None; ranges.len()];
    for (d, c, area) in items {
        // The most specific range of the item's area that covers it.
        let hit = match d {
            Dest::Net(p) => ranges
                .iter()
                .enumerate()
                .filter(|(_, r)| r.area == area && r.covers(&p))
                .max_by_key(|(_, r)| r.prefix.prefix_len())
                .map(|(k, _)| k),
            Dest::Router(_) => None,
        };
        match hit {
            Some(k) => {
                cost[k] = Some(match cost[k] {
                    Some((lo, hi)) => (lo.min(c), hi.max(c)),
                    None => (c, c),
                })
            }
            None => out.items.push((d, c)),
        }
    }
    for (k, c) in cost.into_iter().enumerate() {
        let Some((lo, hi)) = c else { continue };
        let r = &ranges[k];
        if max.is_none() && lo != hi && r.cost.is_none() {
            out.unsure.push((k, lo, hi));
        }
        let c = r
            .cost
            .map_or(if max == Some(true) { hi } else { lo }, u64::from);
        out.active.push((k, c));
        if r.advertise {
            out.items.push((Dest::Net(r.prefix), c));
        }
    }
    out
}

/// A redistributed prefix: an AS-external advertisement.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct External {
    /// The boundary router (device).
    pub device: usize,
    /// The prefix.
    pub prefix: Ipv4Net,
    /// Its metric.
    pub metric: u32,
    /// Type 1 (else type 2).
    pub type1: bool,
    /// A type-7 advertisement, heard only in this not-so-stubby area (None: type 5,
    /// heard everywhere but in stub areas and NSSAs).
    pub area: Option<u32>,
    /// A type-7 external translated by its NSSA's ABR (`device`), which still installs
    /// the type-7 route it translates.
    pub translated: bool,
}

/// A not-so-stubby area as one router configures it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nssa {
    /// `no-summary`: its ABR sends a default route instead of the other areas' routes.
    pub no_summary: bool,
    /// `default-information-originate`: (metric, type 1) of the type-7 default route
    /// its ABR originates into it.
    pub default: Option<(u32, bool)>,
}

/// One OSPF route of one router.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OspfRoute {
    /// The prefix.
    pub prefix: Ipv4Net,
    /// How it was learned.
    pub kind: Kind,
    /// Its metric (the path cost; E2: the advertised metric).
    pub metric: u64,
    /// Its first hops, sorted.
    pub hops: Vec<Hop>,
}

mod area;

use area::{Area, View};

type Table = HashMap<Dest, (u64, Vec<Hop>)>;

/// The prefixes a router's routes are asked for (None: all of them).
pub type Only<'a> = Option<&'a HashSet<Ipv4Net>>;

/// Adds a path to a table: a better one replaces, an equal one adds its hops.
fn offer(t: &mut Table, d: Dest, cost: u64, hops: &[Hop]) {
    match t.get_mut(&d) {
        Some((c, h)) if *c == cost => {
            h.extend_from_slice(hops);
            h.sort_unstable();
            h.dedup();
        }
        Some((c, _)) if *c < cost => {}
        _ => {
            let mut h = hops.to_vec();
            h.sort_unstable();
            h.dedup();
            t.insert(d, (cost, h));
        }
    }
}

/// The network's OSPF as far as its routers share it: every area's graph and what each
/// ABR summarises into the backbone. A router's own routes are computed from it when
/// they are asked for ([`Net::routes_for`]): one shortest-path run per area it is in, the
/// summaries of its area's ABRs, the externals — never every router's table at once.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Net {
    /// Each device's areas, in the order its interfaces name them.
    areas_of: Vec<Vec<u32>>,
    /// Each area's graph, by area number.
    graphs: BTreeMap<u32, Packed>,
    /// The area border routers (devices), sorted.
    abrs: Vec<usize>,
    /// (device, area) where the area is a stub area: its no-summary flag.
    stub_of: BTreeMap<(usize, u32), bool>,
    /// (device, area) where the area is a not-so-stubby area.
    nssa_of: BTreeMap<(usize, u32), Nssa>,
    /// (device, area): the cost of the default route it sends into the area as its ABR,
    /// when it is a stub area or NSSA and the device sends one.
    default_cost_of: BTreeMap<(usize, u32), u32>,
    /// Per ABR: its intra-area routes of its other areas, as it summarises them into the
    /// backbone (sorted).
    into_backbone: BTreeMap<usize, Vec<(Dest, u64)>>,
    /// How many destinations `into_backbone` names, each once: a backbone router's
    /// inter-area table is sized by it at once (grown by doubling, rehashing was a
    /// quarter of its query at 50,000 devices).
    backbone_dests: usize,
    /// The same summaries by destination: (destination, ABR, cost), sorted; made when a
    /// router's routes for a few prefixes are asked for ([`Net::routes_for`]).
    #[serde(skip)]
    summarised: OnceLock<Vec<(Dest, usize, u64)>>,
    /// Every redistributed prefix.
    externals: Vec<External>,
    /// Each ABR's area ranges, with whether their summary costs the costliest component
    /// (None: not known for its vendor).
    ranges: BTreeMap<usize, (Vec<Range>, Option<bool>)>,
    /// Active ranges whose summary's cost olav cannot tell (see [`Ranged::unsure`]): (ABR,
    /// range, cheapest, costliest component), found when the network is built.
    #[serde(skip)]
    pub unsure_ranges: Vec<(usize, Ipv4Net, u64, u64)>,
    /// Type-7 externals whose translation to type 5 olav does not compute: (boundary
    /// router, prefix, why), found when the network is built.
    #[serde(skip)]
    pub untranslated: Vec<(usize, Ipv4Net, &'static str)>,
}

/// An area's graph, stored encoded and decoded when a query needs it: a router's routes
/// need its own areas' graphs (and the backbone's), not the other sites'.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Packed {
    #[serde(with = "serde_bytes")]
    bytes: Vec<u8>,
    #[serde(skip)]
    area: OnceLock<Option<Area>>,
}

impl Packed {
    /// A graph, encoded, and kept decoded for the build's ABR runs.
    fn new(g: Area) -> Packed {
        Packed {
            // Encoding plain data into a vector cannot fail.
            bytes: postcard::to_stdvec(&g).unwrap_or_default(),
            area: OnceLock::from(Some(g)),
        }
    }
}

/// An ABR's own tables: its view of each of its areas, its best intra-area route per
/// destination (with the area), its inter-area routes learned over the backbone.
struct AbrState {
    views: Vec<(u32, View)>,
    bests: HashMap<Dest, (u64, u32)>,
    inter: Table,
    /// Its active ranges (index into its ranges) and their cost.
    summaries: Vec<(usize, u64)>,
}

impl Net {
    /// The areas' graphs and the ABRs' summaries into the backbone, from the OSPF
    /// interfaces of `devices` devices, their adjacency segments and the externals.
    pub fn build(
        devices: usize,
        ifs: &[OspfIf],
        segs: &[Segment],
        externals: &[External],
        ranges: BTreeMap<usize, (Vec<Range>, Option<bool>)>,
    ) -> Net {
        let mut areas_of: Vec<Vec<u32>> = vec![Vec::new(); devices];
        for i in ifs {
            if !areas_of[i.device].contains(&i.area) {
                areas_of[i.device].push(i.area);
            }
        }
        let is_abr = |d: usize| areas_of[d].len() > 1 && areas_of[d].contains(&0);
        let nssa_of: BTreeMap<(usize, u32), Nssa> = ifs
            .iter()
            .filter_map(|i| i.nssa.map(|n| ((i.device, i.area), n)))
            .collect();
        // An NSSA's ABR with `default-information-originate` sends a type-7 default
        // route into it.
        let mut externals = externals.to_vec();
        for ((d, a), n) in &nssa_of {
            if let (Some((metric, type1)), true) = (n.default, is_abr(*d)) {
                externals.push(External {
                    device: *d,
                    prefix: Ipv4Net::default(),
                    metric,
                    type1,
                    area: Some(*a),
                    translated: false,
                });
            }
        }
        // An NSSA's ABR translates its type-7 externals into type 5 for the rest of the
        // domain. Done for a type-2 external of an NSSA with one ABR: the forwarding
        // address lies behind that ABR, so the path and the metric are those through it;
        // a type-1 metric would add the ABR's cost to the forwarding address, and several
        // ABRs elect a translator: both said, not computed.
        let mut untranslated = Vec::new();
        let mut translated = Vec::new();
        for e in &externals {
            let Some(a) = e.area.filter(|_| !is_abr(e.device)) else {
                continue;
            };
            let abrs: Vec<usize> = (0..devices)
                .filter(|d| is_abr(*d) && areas_of[*d].contains(&a))
                .collect();
            match abrs.as_slice() {
                [] => {}
                [abr] if !e.type1 => translated.push(External {
                    device: *abr,
                    area: None,
                    translated: true,
                    ..e.clone()
                }),
                [_] => untranslated.push((
                    e.device,
                    e.prefix,
                    "a type-1 metric through the forwarding address",
                )),
                _ => untranslated.push((
                    e.device,
                    e.prefix,
                    "several area border routers elect the translator",
                )),
            }
        }
        externals.extend(translated);
        let asbr: HashSet<usize> = externals.iter().map(|e| e.device).collect();
        // Each area's interfaces and segments, listed once (not filtered per area).
        let mut by_area: BTreeMap<u32, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
        for (k, i) in ifs.iter().enumerate() {
            by_area.entry(i.area).or_default().0.push(k);
        }
        for (k, s) in segs.iter().enumerate() {
            by_area.entry(s.area).or_default().1.push(k);
        }
        let abrs: Vec<usize> = (0..devices).filter(|d| is_abr(*d)).collect();
        let graphs = by_area
            .iter()
            .map(|(a, (mine, its_segs))| {
                let g = Area::build((ifs, mine), (segs, its_segs), &asbr);
                (*a, Packed::new(g))
            })
            .collect();
        let default_cost_of = ifs
            .iter()
            .filter(|i| i.stub.is_some() || i.nssa.is_some())
            .filter_map(|i| i.default_cost.map(|c| ((i.device, i.area), c)))
            .collect();
        let stub_of = ifs
            .iter()
            .filter_map(|i| i.stub.map(|n| ((i.device, i.area), n)))
            .collect();
        let mut net = Net {
            areas_of,
            graphs,
            abrs,
            stub_of,
            nssa_of,
            default_cost_of,
            into_backbone: BTreeMap::new(),
            backbone_dests: 0,
            summarised: OnceLock::new(),
            externals,
            ranges,
            unsure_ranges: Vec::new(),
            untranslated,
        };
        net.ranges.retain(|d, _| net.abrs.binary_search(d).is_ok());
        let wanted = net.abr_set();
        // Each ABR's views are computed once here, kept only as its summaries.
        for &b in &net.abrs {
            let views = net.views(b, &wanted, None);
            let bests = Self::bests(&views);
            let all = net.ranged(b, bests.iter().map(|(d, (c, a))| (*d, *c, *a)));
            if let Some((ranges, _)) = net.ranges.get(&b) {
                for (k, lo, hi) in all.unsure {
                    net.unsure_ranges.push((b, ranges[k].prefix, lo, hi));
                }
            }
            let mut into = net
                .ranged(
                    b,
                    bests
                        .iter()
                        .filter(|(_, (_, a))| *a != 0)
                        .map(|(d, (c, a))| (*d, *c, *a)),
                )
                .items;
            into.sort_unstable();
            into.dedup_by_key(|(d, _)| *d);
            net.into_backbone.insert(b, into);
        }
        let mut dests: Vec<&Dest> = net
            .into_backbone
            .values()
            .flatten()
            .map(|(d, _)| d)
            .collect();
        dests.sort_unstable();
        dests.dedup();
        net.backbone_dests = dests.len();
        net
    }

    /// Area `a`'s graph, decoded the first time it is needed.
    fn graph(&self, a: u32) -> Option<&Area> {
        let p = self.graphs.get(&a)?;
        p.area
            .get_or_init(|| {
                postcard::from_bytes(&p.bytes)
                    .map_err(|e| {
                        tracing::warn!("OSPF area {a}: its stored graph does not decode ({e})")
                    })
                    .ok()
            })
            .as_ref()
    }

    /// ABR `b`'s routes to summarise (destination, cost, area) with its ranges applied.
    fn ranged(&self, b: usize, items: impl Iterator<Item = (Dest, u64, u32)>) -> Ranged {
        match self.ranges.get(&b) {
            Some((ranges, max)) => apply_ranges(ranges, *max, items),
            None => Ranged {
                items: items.map(|(d, c, _)| (d, c)).collect(),
                ..Ranged::default()
            },
        }
    }

    fn abr_set(&self) -> HashSet<usize> {
        self.abrs.iter().copied().collect()
    }

    fn is_abr(&self, d: usize) -> bool {
        self.abrs.binary_search(&d).is_ok()
    }

    fn areas(&self, d: usize) -> &[u32] {
        self.areas_of.get(d).map_or(&[], Vec::as_slice)
    }

    /// Router `d`'s view of each of its areas (one shortest-path run each).
    /// With `only`, just its routes to those prefixes (and to every router), unless it
    /// has area ranges (whose summaries need every route they cover).
    fn views(&self, d: usize, wanted: &HashSet<usize>, only: Only<'_>) -> Vec<(u32, View)> {
        let only = only.filter(|_| !self.ranges.contains_key(&d));
        self.areas(d)
            .iter()
            .filter_map(|a| self.graph(*a).map(|g| (*a, g.intra(d, wanted, only))))
            .collect()
    }

    /// An ABR's best intra-area route per destination, with its area (the first of its
    /// areas on a tie).
    fn bests(views: &[(u32, View)]) -> HashMap<Dest, (u64, u32)> {
        let mut m: HashMap<Dest, (u64, u32)> = HashMap::default();
        for (a, v) in views {
            for (d, (c, _)) in v.routes.iter().chain(&v.mine) {
                let e = m.entry(*d).or_insert((*c, *a));
                if *c < e.0 {
                    *e = (*c, *a);
                }
            }
        }
        m
    }

    /// An ABR's views, bests and inter-area routes (learned over the backbone from the
    /// other ABRs' summaries).
    fn abr_state(&self, b: usize, wanted: &HashSet<usize>, only: Only<'_>) -> AbrState {
        let views = self.views(b, wanted, only);
        let bests = Self::bests(&views);
        // A summary equal to one of its own active ranges is ignored (RFC 2328 16.2).
        let own = self.ranged(b, bests.iter().map(|(d, (c, a))| (*d, *c, *a)));
        let own_ranges: HashSet<Dest> =
            self.ranges.get(&b).map_or_else(HashSet::default, |(r, _)| {
                own.active
                    .iter()
                    .map(|(k, _)| Dest::Net(r[*k].prefix))
                    .collect()
            });
        let mut inter = Table::default();
        if let Some((_, backbone)) = views.iter().find(|(a, _)| *a == 0) {
            let skip = |d: &Dest| bests.contains_key(d) || own_ranges.contains(d);
            self.offer_backbone(&backbone.to, only, skip, &mut inter);
        }
        AbrState {
            views,
            bests,
            inter,
            summaries: own.active,
        }
    }

    /// Offers into `t` what the ABRs a router reaches over the backbone (`to`: its
    /// distances to them) summarise into it, but the destinations `skip` names. With
    /// `only`, just those prefixes (and every boundary router), found through the
    /// summaries' index: not every ABR's summaries read (350,000 at 50,000 devices).
    fn offer_backbone(
        &self,
        to: &Table,
        only: Only<'_>,
        skip: impl Fn(&Dest) -> bool,
        t: &mut Table,
    ) {
        let Some(only) = only else {
            let offered: usize = to
                .keys()
                .filter_map(|r| match r {
                    Dest::Router(b) => self.into_backbone.get(b).map(Vec::len),
                    Dest::Net(_) => None,
                })
                .sum();
            t.reserve(offered.min(self.backbone_dests));
            for (r, (c, h)) in to {
                let Dest::Router(other) = r else { continue };
                for (d, sc) in self.into_backbone.get(other).into_iter().flatten() {
                    if !skip(d) {
                        offer(t, *d, c.saturating_add(*sc), h);
                    }
                }
            }
            return;
        };
        let index = self.summarised.get_or_init(|| {
            let mut v: Vec<(Dest, usize, u64)> = self
                .into_backbone
                .iter()
                .flat_map(|(b, items)| items.iter().map(|(d, c)| (*d, *b, *c)))
                .collect();
            v.sort_unstable();
            v
        });
        // Routers sort after prefixes: the index's tail.
        let routers = index.partition_point(|(d, ..)| matches!(d, Dest::Net(_)));
        let of = |d: Dest| {
            let lo = index.partition_point(|(x, ..)| *x < d);
            let hi = index.partition_point(|(x, ..)| *x <= d);
            &index[lo..hi]
        };
        let nets = only.iter().flat_map(|p| of(Dest::Net(*p)));
        for (d, b, sc) in nets.chain(&index[routers..]) {
            if let Some((c, h)) = to.get(&Dest::Router(*b)).filter(|_| !skip(d)) {
                offer(t, *d, c.saturating_add(*sc), h);
            }
        }
    }

    /// What ABR `b` summarises into `area`, not the backbone (that is
    /// `into_backbone`): what it reaches except that area's own (a stub area: a default
    /// route instead of externals, with no-summary only that).
    fn summary_into(
        &self,
        b: usize,
        area: u32,
        wanted: &HashSet<usize>,
        only: Only<'_>,
    ) -> Vec<(Dest, u64)> {
        let mut m: HashMap<Dest, u64> = HashMap::default();
        let stub = self.stub_of.get(&(b, area)).copied();
        let nssa = self.nssa_of.get(&(b, area));
        // A stub area gets a default route (IOS `default-cost`, 1 unless written; Junos
        // only with `default-metric`), a totally stubby one or a `no-summary` NSSA only
        // that.
        if stub.is_some() || nssa.is_some_and(|n| n.no_summary) {
            if let Some(c) = self.default_cost_of.get(&(b, area)) {
                m.insert(Dest::Net(Ipv4Net::default()), u64::from(*c));
            }
            if stub == Some(true) || nssa.is_some() {
                return m.into_iter().collect();
            }
        }
        let st = self.abr_state(b, wanted, only);
        let empty = View::default();
        let view = st
            .views
            .iter()
            .find(|(a, _)| *a == area)
            .map_or(&empty, |(_, v)| v);
        let own = self.ranged(
            b,
            st.bests
                .iter()
                .filter(|(d, (_, a))| {
                    *a != area && !view.routes.contains_key(d) && !view.mine.contains_key(d)
                })
                .map(|(d, (c, a))| (*d, *c, *a)),
        );
        for (d, c) in own.items {
            let e = m.entry(d).or_insert(c);
            *e = (*e).min(c);
        }
        for (d, (c, _)) in &st.inter {
            m.entry(*d).or_insert(*c);
        }
        if stub.is_some() || nssa.is_some() {
            // No boundary routers (type 4) into a stub area or NSSA: no type-5 externals
            // there.
            m.retain(|d, _| matches!(d, Dest::Net(_)));
        }
        m.into_iter().collect()
    }

    /// Router `s`'s OSPF routes, sorted by prefix and kind; with `only`, just its routes
    /// for those prefixes (the same rows, made without its whole table).
    pub fn routes_for(&self, s: usize, only: Only<'_>) -> Vec<OspfRoute> {
        let mut routes = Vec::new();
        let areas = self.areas(s);
        if areas.is_empty() {
            return routes;
        }
        let wanted = self.abr_set();
        let abr = self.is_abr(s).then(|| self.abr_state(s, &wanted, only));
        let own = match &abr {
            Some(_) => Vec::new(),
            None => self.views(s, &wanted, only),
        };
        let views: &[(u32, View)] = abr.as_ref().map_or(&own, |st| &st.views);
        let mut intra_t = Table::default();
        let mut mine: HashSet<Dest> = HashSet::default();
        for (_, v) in views {
            for (d, (c, h)) in &v.routes {
                offer(&mut intra_t, *d, *c, h);
            }
            mine.extend(v.mine.keys().copied());
        }
        intra_t.retain(|d, _| !mine.contains(d));
        let mut inter_t = Table::default();
        let mut discards = Vec::new();
        if let Some(st) = abr {
            if let Some((ranges, _)) = self.ranges.get(&s) {
                for (k, c) in &st.summaries {
                    let r = &ranges[*k];
                    if r.discard {
                        discards.push(OspfRoute {
                            prefix: r.prefix,
                            kind: Kind::Summary,
                            metric: *c,
                            hops: Vec::new(),
                        });
                    }
                }
            }
            inter_t = st.inter;
        } else {
            let skip = |d: &Dest| intra_t.contains_key(d) || mine.contains(d);
            for (a, v) in views {
                if *a == 0 {
                    self.offer_backbone(&v.to, only, skip, &mut inter_t);
                    continue;
                }
                for (r, (c, h)) in &v.to {
                    let Dest::Router(b) = r else { continue };
                    for (d, sc) in self.summary_into(*b, *a, &wanted, only) {
                        if !skip(&d) {
                            offer(&mut inter_t, d, c.saturating_add(sc), h);
                        }
                    }
                }
            }
        }
        inter_t.retain(|d, _| !intra_t.contains_key(d) && !mine.contains(d));
        // A router whose every area is a stub area or NSSA hears no type-5 external; in
        // an NSSA it hears that area's type-7 ones.
        let stubby =
            |a: &u32| self.stub_of.contains_key(&(s, *a)) || self.nssa_of.contains_key(&(s, *a));
        let type5 = !areas.iter().all(stubby);
        routes.extend(self.externals_of(s, type5, &intra_t, &inter_t));
        // Sized at once (a backbone router's 350,000 routes at 50,000 devices), the
        // tables' first hops moved, not copied; one route per prefix and kind, so the
        // order before the sort does not matter.
        routes.reserve_exact(intra_t.len() + inter_t.len());
        for (t, kind) in [(intra_t, Kind::Intra), (inter_t, Kind::Inter)] {
            for (d, (c, hops)) in t {
                if let Dest::Net(prefix) = d {
                    routes.push(OspfRoute {
                        prefix,
                        kind,
                        metric: c,
                        hops,
                    });
                }
            }
        }
        if let Some(only) = only {
            routes.retain(|r| only.contains(&r.prefix));
            discards.retain(|r| only.contains(&r.prefix));
        }
        // One route per prefix so far (the tables' keys, the externals of the prefixes
        // neither table has): no two keys equal, the order is the stable sort's. Two
        // ranges of one prefix keep their order.
        // By (prefix, kind) as one number: the comparisons of 350,000 routes.
        routes.sort_unstable_by_key(|r| {
            let p = r.prefix;
            u64::from(u32::from(p.addr())) << 16 | u64::from(p.prefix_len()) << 8 | r.kind as u64
        });
        if !discards.is_empty() {
            routes.extend(discards);
            routes.sort_by_key(|r| (r.prefix, r.kind));
        }
        routes
    }

    /// Router `s`'s external routes: E1 by total cost; E2 by metric, then the cost to
    /// the boundary router.
    fn externals_of(
        &self,
        s: usize,
        type5: bool,
        intra_t: &Table,
        inter_t: &Table,
    ) -> Vec<OspfRoute> {
        let route_to = |d: &Dest| intra_t.get(d).or_else(|| inter_t.get(d));
        let own_ext: HashSet<Ipv4Net> = self
            .externals
            .iter()
            .filter(|e| e.device == s && !e.translated)
            .map(|e| e.prefix)
            .collect();
        let mut ext: HashMap<Ipv4Net, (Kind, u64, u64, Vec<Hop>)> = HashMap::default();
        let heard = |e: &&External| match e.area {
            None => type5,
            Some(a) => self.areas(s).contains(&a),
        };
        for e in self
            .externals
            .iter()
            .filter(|e| e.device != s)
            .filter(heard)
        {
            if own_ext.contains(&e.prefix) || route_to(&Dest::Net(e.prefix)).is_some() {
                continue;
            }
            let Some((to, h)) = route_to(&Dest::Router(e.device)) else {
                continue;
            };
            let m = u64::from(e.metric);
            let cand = if e.type1 {
                (Kind::E1, to.saturating_add(m), 0)
            } else {
                (Kind::E2, m, *to)
            };
            match ext.get_mut(&e.prefix) {
                Some(cur) if (cur.0, cur.1, cur.2) == cand => {
                    cur.3.extend_from_slice(h);
                    cur.3.sort_unstable();
                    cur.3.dedup();
                }
                Some(cur) if (cur.0, cur.1, cur.2) < cand => {}
                _ => {
                    ext.insert(e.prefix, (cand.0, cand.1, cand.2, h.clone()));
                }
            }
        }
        ext.into_iter()
            .map(|(prefix, (kind, metric, _, hops))| OspfRoute {
                prefix,
                kind,
                metric,
                hops,
            })
            .collect()
    }
}
