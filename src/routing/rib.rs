//! One device's main RIB: connected, local and static candidates, static next hops
//! resolved to a fixed point, the lowest administrative distance kept per prefix (every
//! next hop of the winners: ECMP), and what is not computed yet named.

use super::bgp::{self, lookup::Scope, BgpRoute};
use super::connected;
use super::dynamic::{self, Incomplete};
use super::route::Route;
use super::statics::{self, Candidate, Skipped};
use super::{eigrp, isis, ospf};
use crate::model::{DeviceConfig, Vendor};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};

/// A device's computed main RIB.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceRib {
    /// The device.
    pub hostname: String,
    /// Its vendor.
    pub vendor: Vendor,
    /// Every installed route, one row per next hop, sorted by VRF, network, protocol and
    /// next hop.
    pub routes: Vec<Route>,
    /// What is not computed yet (the dynamic protocols it runs), per VRF.
    pub incomplete: Vec<Incomplete>,
    /// Static routes left out because their next hop did not resolve with the routes
    /// olav computes (a dynamic protocol may resolve them on the device).
    pub unresolved_statics: u32,
    /// Its BGP RIB: every BGP path per prefix, best first (`olav routes --rib bgp`).
    #[serde(default)]
    pub bgp: Vec<BgpRoute>,
    /// What it advertises to, and accepts from, its BGP peers outside the network.
    #[serde(default)]
    pub external: Vec<bgp::External>,
}

impl DeviceRib {
    /// Whether the RIB of `vrf` is incomplete, and why (the reasons, in order).
    pub fn incomplete_in(&self, vrf: &str) -> Vec<&str> {
        self.incomplete
            .iter()
            .filter(|i| i.vrf.as_deref().is_none_or(|v| v == vrf))
            .map(|i| i.reason.as_str())
            .collect()
    }
}

/// Keeps, per (VRF, network), the routes with the lowest administrative distance;
/// sorted, duplicates removed.
fn select(mut routes: Vec<Route>) -> Vec<Route> {
    // Sorted first (stable: equal rows keep their order), so that each (VRF, network)
    // is one run: no map of a border router's 350,000 prefixes.
    // Most tables are one VRF's: their VRF names are not compared row against row (a
    // fifth of making a thousand devices' tables).
    if routes.windows(2).all(|w| w[0].vrf == w[1].vrf) {
        routes.sort_by(|a, b| {
            (a.network, a.protocol, &a.next_hop).cmp(&(b.network, b.protocol, &b.next_hop))
        });
    } else {
        routes.sort_by(|a, b| {
            (&a.vrf, a.network, a.protocol, &a.next_hop).cmp(&(
                &b.vrf,
                b.network,
                b.protocol,
                &b.next_hop,
            ))
        });
    }
    let mut keep = Vec::with_capacity(routes.len());
    // The networks compared before the VRFs' names (the cheaper comparison first).
    for run in routes.chunk_by(|a, b| a.network == b.network && a.vrf == b.vrf) {
        let best = run.iter().map(|r| r.admin_distance).min();
        keep.extend(run.iter().map(|r| Some(r.admin_distance) == best));
    }
    let mut k = keep.into_iter();
    routes.retain(|_| k.next().unwrap_or(false));
    routes.dedup_by(|a, b| a.network == b.network && a.next_hop == b.next_hop && a == b);
    routes
}

/// A device's RIB before the network-wide protocols: its connected and local routes,
/// its static routes waiting for resolution, what is not computed.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The device.
    pub hostname: String,
    /// Its vendor.
    pub vendor: Vendor,
    base: Vec<Route>,
    waiting: Vec<Candidate>,
    /// What is not computed (the dynamic protocols other than OSPF).
    pub incomplete: Vec<Incomplete>,
    /// What BGP reads of the configuration, kept when the device runs BGP.
    pub(crate) bgp: Option<Box<DeviceConfig>>,
}

/// One device as the network computation takes it.
#[derive(Debug, Clone, Copy)]
pub struct DeviceInput<'a> {
    /// The hostname.
    pub hostname: &'a str,
    /// Its vendor.
    pub vendor: Vendor,
    /// Its parsed configuration.
    pub config: &'a DeviceConfig,
    /// Its configuration text (for the protocols the model does not record).
    pub text: &'a str,
}

impl<'a> DeviceInput<'a> {
    /// One imported device as the network computation takes it.
    pub fn of(d: &'a crate::import::ParsedDevice) -> DeviceInput<'a> {
        DeviceInput {
            hostname: &d.hostname,
            vendor: d.vendor,
            config: &d.config,
            text: &d.text,
        }
    }
}

/// What BGP reads of a speaker's interfaces (their names, state, VRFs and addresses: its
/// router ID, session sources, peers' owners, VTEP): at 50,000 devices the whole
/// interfaces of the 5,464 speakers were 55 MB, kept through the build.
fn bgp_interfaces(config: &DeviceConfig) -> Vec<crate::model::Interface> {
    let unnumbered_over = |name: &str| {
        config.bgp.as_ref().is_some_and(|b| {
            b.neighbors.iter().any(
                |n| matches!(&n.peer, crate::model::BgpPeer::Interface(x) if crate::ifname::same(x, name)),
            )
        })
    };
    config
        .interfaces
        .iter()
        // An up interface without an address gives BGP nothing but an unnumbered
        // session over its cable; a shut one may be a VTEP's (`vpn::vtep_shut`).
        .filter(|i| !i.addresses.is_empty() || !i.admin_up || unnumbered_over(&i.name))
        .map(|i| crate::model::Interface {
            admin_up: i.admin_up,
            vrf: i.vrf.clone(),
            addresses: i.addresses.clone(),
            linked_to: i.linked_to.clone(),
            ..crate::model::Interface::new(i.name.clone(), i.line)
        })
        .collect()
}

/// A device's connected and local routes and static candidates, from its configuration.
pub fn prepare(d: DeviceInput<'_>) -> Prepared {
    let (hostname, vendor, config) = (d.hostname, d.vendor, d.config);
    let down = super::autostate::down_svis(config, vendor);
    let mut base = connected::routes(config, vendor, &down);
    let mut waiting: Vec<Candidate> = Vec::new();
    let mut incomplete = dynamic::incomplete(config, vendor, d.text);
    for r in &config.static_routes {
        match statics::candidate(r, config, vendor, &down) {
            Ok(c) => waiting.push(c),
            // A Junos route without a next hop of its own looks up another table.
            Err(Skipped::NoNextHop) if vendor == Vendor::JuniperJunos => {
                let i = Incomplete {
                    vrf: Some(connected::vrf_name(&r.vrf)),
                    reason: "Junos next-table static routes are not computed yet".to_owned(),
                };
                if !incomplete.contains(&i) {
                    incomplete.push(i);
                }
            }
            Err(_) => {}
        }
    }
    let bgp = config.bgp.as_ref().map(|b| {
        let mut b = b.clone();
        // A VRF whose route-target imports are not computed sends its BGP peers what it
        // imports too: the mark travels with its sessions (`junos_evpn_type5`: a Junos
        // VRF's EVPN routes reach a peer in another AS).
        let vpn = dynamic::not_computed(dynamic::VPN);
        for i in incomplete.iter().filter(|i| i.reason == vpn) {
            let vrf = i.vrf.clone().filter(|v| v != "default");
            let what = "routes imported by route target, not computed".to_owned();
            if !b.routing.unmodelled.contains(&(vrf.clone(), what.clone())) {
                b.routing.unmodelled.push((vrf, what));
            }
        }
        Box::new(DeviceConfig {
            interfaces: bgp_interfaces(config),
            bgp: Some(b),
            prefix_lists: config.prefix_lists.clone(),
            route_map_clauses: config.route_map_clauses.clone(),
            policy_options: config.policy_options.clone(),
            route_lists: config.route_lists.clone(),
            // `redistribute eigrp N` names a process (`originate::redistributed`).
            eigrp: crate::model::EigrpConfig {
                processes: config.eigrp.processes.clone(),
                ..Default::default()
            },
            // What was not read reaches the device's BGP neighbours too (`dynamic::unread`).
            warnings: config.warnings.clone(),
            saw_end: config.saw_end,
            lines_total: config.lines_total,
            ..DeviceConfig::default()
        })
    });
    base.shrink_to_fit();
    waiting.shrink_to_fit();
    Prepared {
        hostname: hostname.to_owned(),
        vendor,
        base,
        waiting,
        incomplete,
        bgp,
    }
}

/// The RIB of a prepared device with the routes the network's protocols gave it
/// (`learned`) and what they leave incomplete: static next hops resolved to a fixed point
/// through everything installed, the lowest administrative distance kept per prefix.
pub fn finish(p: &Prepared, learned: &[Route], more: &[Incomplete]) -> DeviceRib {
    finish_owned(p, learned.to_vec(), more)
}

/// [`finish`] taking the learned routes (not copying a backbone router's 350,000).
pub fn finish_owned(p: &Prepared, learned: Vec<Route>, more: &[Incomplete]) -> DeviceRib {
    finish_keeping(p, learned, more, |_| true)
}

/// [`finish_owned`] with only the prepared RIB's incomplete parts that `keep` keeps (the
/// prepared RIB is not copied to drop some).
fn finish_keeping(
    p: &Prepared,
    learned: Vec<Route>,
    more: &[Incomplete],
    keep: impl Fn(&Incomplete) -> bool,
) -> DeviceRib {
    let mut all = Vec::with_capacity(p.base.len() + learned.len());
    all.extend(p.base.iter().cloned());
    all.extend(learned);
    finish_all_rows(p, all, more, keep)
}

/// [`finish_with`] for one device's whole table, its rows made in one vector: the
/// prepared RIB's own, then those `fill` adds (given the room to leave for the rows that
/// follow, and giving what it leaves incomplete), then `igp`'s, then BGP's.
pub fn finish_filled(
    p: &Prepared,
    fill: impl FnOnce(usize, &mut Vec<Route>) -> Vec<Incomplete>,
    igp: (Vec<Route>, Vec<Incomplete>),
    bgp: Option<BgpLearned>,
) -> DeviceRib {
    let spare = igp.0.len() + bgp.as_ref().map_or(0, |b| b.0.len());
    let mut all = Vec::with_capacity(p.base.len());
    all.extend(p.base.iter().cloned());
    let mut why = fill(spare, &mut all);
    all.extend(igp.0);
    why.extend(igp.1);
    let Some((routes, inc, table, external)) = bgp else {
        return finish_all_rows(p, all, &why, |_| true);
    };
    all.extend(routes);
    why.extend(inc);
    let mut rib = finish_all_rows(p, all, &why, |i| !dynamic::bgp_pending(i));
    rib.bgp = table;
    rib.external = external;
    rib
}

/// [`finish_keeping`] of rows that already begin with the prepared RIB's own.
fn finish_all_rows(
    p: &Prepared,
    all: Vec<Route>,
    more: &[Incomplete],
    keep: impl Fn(&Incomplete) -> bool,
) -> DeviceRib {
    let mut waiting = p.waiting.clone();
    let mut installed = select(all);
    // Each round installs at least one route or stops: at most one round per route.
    // (Choosing among the installed routes and the new ones is choosing among all: a
    // route the first choice dropped loses to what it kept.)
    loop {
        let (now, later): (Vec<Candidate>, Vec<Candidate>) = waiting
            .into_iter()
            .partition(|c| statics::resolves(c, &installed));
        waiting = later;
        if now.is_empty() {
            break;
        }
        installed.extend(now.into_iter().map(|c| c.route));
        installed = select(installed);
    }
    let mut incomplete: Vec<Incomplete> =
        p.incomplete.iter().filter(|i| keep(i)).cloned().collect();
    for i in more {
        if !incomplete.contains(i) {
            incomplete.push(i.clone());
        }
    }
    incomplete.sort();
    DeviceRib {
        hostname: p.hostname.clone(),
        vendor: p.vendor,
        routes: installed,
        incomplete,
        unresolved_statics: waiting.len() as u32,
        bgp: Vec::new(),
        external: Vec::new(),
    }
}

/// The reasons [`dynamic`] gives from the configuration text for the IGPs that
/// [`network`] computes (EIGRP, IS-IS): dropped there, replaced by what they leave out.
pub fn computed_here(i: &Incomplete) -> bool {
    i.reason == dynamic::not_computed("EIGRP") || i.reason == dynamic::not_computed("IS-IS")
}

/// What one device brings to the network-wide protocols, kept (with its [`Prepared`]) until
/// they are computed: only this of its configuration.
#[derive(Debug, Clone, Default)]
pub struct Speakers {
    /// Its OSPF speaker.
    pub ospf: ospf::Speaker,
    /// Its EIGRP instances.
    pub eigrp: eigrp::Speaker,
    /// Its IS-IS speaker.
    pub isis: isis::Speaker,
}

/// The device's speakers of the network-wide protocols (OSPF, EIGRP, IS-IS), from its
/// configuration and its RIB without them.
pub fn speakers(d: DeviceInput<'_>, p: &Prepared) -> Speakers {
    let before = finish(p, &[], &[]);
    Speakers {
        eigrp: eigrp::Speaker::of(d.vendor, d.config, &before.routes),
        isis: isis::Speaker::of(d.vendor, d.config, &before.routes),
        ospf: ospf::Speaker::of(d.vendor, d.config, &before.routes, !p.incomplete.is_empty()),
    }
}

/// What the IGPs (OSPF, EIGRP, IS-IS) give each device (routes, what they leave
/// incomplete), computed over the network from the devices' prepared RIBs and speakers
/// (in the same order); the prepared RIBs lose the marks the IGPs replace.
pub fn igps(
    prepared: &mut [Prepared],
    speakers: Vec<Speakers>,
) -> Vec<(Vec<Route>, Vec<Incomplete>)> {
    let n = speakers.len();
    let (mut o, mut e, mut i) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for s in speakers {
        o.push(s.ospf);
        e.push(s.eigrp);
        i.push(s.isis);
    }
    for p in prepared.iter_mut() {
        p.incomplete.retain(|i| !computed_here(i));
    }
    let names: Vec<&str> = prepared.iter().map(|p| p.hostname.as_str()).collect();
    let learned = ospf::routes(&names, o);
    let mut igps: Vec<(Vec<Route>, Vec<Incomplete>)> = eigrp::routes(&names, &e);
    drop(e);
    for (k, (r, inc)) in isis::routes(&names, &i).into_iter().enumerate() {
        igps[k].0.extend(r);
        igps[k].1.extend(inc);
    }
    igps.into_iter()
        .enumerate()
        .map(|(d, (mut routes, mut inc))| {
            let (r, i) = learned.device(d);
            routes.extend(r);
            inc.extend(i);
            (routes, inc)
        })
        .collect()
}

/// Every device's main RIB from its prepared RIB and speakers (in the same order): each
/// IGP over the network ([`igps`]), then BGP over the RIBs with them ([`finish_all`]),
/// chosen by administrative distance (static next hops may now resolve through them).
/// Each RIB is handed to `each`, in order.
pub fn complete_each(
    prepared: &mut [Prepared],
    speakers: Vec<Speakers>,
    mut each: impl FnMut(DeviceRib),
) {
    let igp = igps(prepared, speakers);
    for rib in finish_all(prepared, &igp) {
        each(rib);
    }
}

/// [`complete_each`], the RIBs collected.
pub fn complete(prepared: &mut [Prepared], speakers: Vec<Speakers>) -> Vec<DeviceRib> {
    let mut out = Vec::with_capacity(prepared.len());
    complete_each(prepared, speakers, |r| out.push(r));
    out
}

/// What BGP gives one device: its BGP routes, what BGP leaves incomplete, its BGP RIB.
pub type BgpLearned = (
    Vec<Route>,
    Vec<Incomplete>,
    Vec<BgpRoute>,
    Vec<bgp::External>,
);

/// BGP over RIBs made for it alone gives up after this many rounds of widening their
/// scopes (each round: BGP computed, then every scope widened by what it looked up
/// outside it; a round without such a lookup is exact).
const SCOPE_ROUNDS: usize = 8;

/// At most this many rows of the BGP speakers' RIBs are held to compute BGP (about 100
/// bytes each): past it BGP is said to be too large rather than holding gigabytes.
const BGP_RIB_BUDGET: usize = 1_500_000;

/// What BGP first reads of a speaker's RIB (None: all of it): the rows towards its
/// neighbours and its static routes' next hops, the rows of the prefixes it announces.
/// Redistribution, Junos and SR OS export policies and EOS aggregates read every row.
fn seed_scope(p: &Prepared) -> Option<Scope> {
    let b = p.bgp.as_ref()?.bgp.as_ref()?;
    let whole = p.vendor.policy_chains()
        || !b.routing.redistribute.is_empty()
        || (p.vendor == Vendor::AristaEos && !b.routing.aggregates.is_empty());
    if whole {
        return None;
    }
    let v4 = |ip: std::net::IpAddr| match ip {
        std::net::IpAddr::V4(ip) => Some(ip),
        std::net::IpAddr::V6(_) => None,
    };
    let peers = b.neighbors.iter().filter_map(|n| match n.peer {
        crate::model::BgpPeer::Address(a) => v4(a),
        _ => None,
    });
    let hops = p.waiting.iter().filter_map(|c| match c.needs {
        statics::Needs::Resolution { ip, .. } => Some(ip),
        statics::Needs::Nothing => None,
    });
    let nets = b
        .networks
        .iter()
        .map(|n| n.prefix)
        .chain(b.routing.aggregates.iter().map(|a| a.prefix))
        .filter_map(|n| match n {
            ipnet::IpNet::V4(n) => Some(n),
            ipnet::IpNet::V6(_) => None,
        });
    Some(Scope::new(peers.chain(hops).collect(), nets.collect()))
}

/// BGP over `prepared` devices, each speaker's RIB before BGP made by `rib_of(d, only)`
/// (the routes the IGPs gave device `d`, and what they leave incomplete; with `only`,
/// at least their rows for those prefixes): what it gives each device that runs BGP (None
/// for the others). A speaker's RIB is made for BGP alone — the rows its [`Scope`] names
/// — and BGP computed again, its scope widened, while BGP looked up anything outside it:
/// the outcome of the last round read nothing it was not given, so it is BGP over the
/// whole RIBs. A backbone router's table, 350,000 rows at 50,000 devices, is not made.
pub fn bgp_over(
    prepared: &[Prepared],
    mut rib_of: impl FnMut(usize, Option<&super::FastSet<Ipv4Net>>) -> (Vec<Route>, Vec<Incomplete>),
) -> Vec<Option<BgpLearned>> {
    if prepared.iter().all(|p| p.bgp.is_none()) {
        return vec![None; prepared.len()];
    }
    if let Some(why) = bgp_too_large(prepared.iter()) {
        return bgp_not_computed(prepared, &why);
    }
    let empty = DeviceConfig::default();
    let inputs: Vec<DeviceInput<'_>> = prepared
        .iter()
        .map(|p| DeviceInput {
            hostname: &p.hostname,
            vendor: p.vendor,
            config: p.bgp.as_deref().unwrap_or(&empty),
            text: "",
        })
        .collect();
    let mut scopes: Vec<Option<Scope>> = prepared.iter().map(seed_scope).collect();
    // Devices without BGP: BGP reads nothing of their RIBs.
    let mut ribs: Vec<Option<Vec<Route>>> = prepared
        .iter()
        .map(|p| p.bgp.is_none().then(Vec::new))
        .collect();
    for round in 1..=SCOPE_ROUNDS {
        let mut rows = 0usize;
        let made = ribs.iter().filter(|r| r.is_none()).count();
        for (d, p) in prepared.iter().enumerate() {
            let rib = ribs[d].get_or_insert_with(|| {
                let (learned, inc) = rib_of(d, scopes[d].as_ref().map(Scope::prefixes));
                let mut routes = finish_owned(p, learned, &inc).routes;
                // Held through the round: 324,000 rows at 50,000 devices.
                routes.shrink_to_fit();
                routes
            });
            rows += rib.len();
        }
        if rows > BGP_RIB_BUDGET {
            let why = format!(
                "BGP needs more than {BGP_RIB_BUDGET} rows of its speakers' tables at once: too large to compute"
            );
            return bgp_not_computed(prepared, &why);
        }
        tracing::debug!("BGP round {round}: {made} speakers' tables made, {rows} rows held");
        let refs: Vec<&[Route]> = ribs.iter().map(|r| r.as_deref().unwrap_or(&[])).collect();
        let scope_refs: Vec<Option<&Scope>> = scopes.iter().map(Option::as_ref).collect();
        crate::memory::phase("routing model", "BGP's tables made");
        let mut bgp = bgp::routes(&inputs, &refs, &scope_refs);
        crate::memory::phase("routing model", "BGP round computed");
        let mut again = false;
        for (d, scope) in scopes.iter_mut().enumerate() {
            let Some(s) = scope else { continue };
            let widened = if s.whole() {
                *scope = None;
                true
            } else {
                s.widen()
            };
            if widened {
                ribs[d] = None;
                again = true;
            }
        }
        if !again {
            return prepared
                .iter()
                .enumerate()
                .map(|(d, p)| p.bgp.as_ref().map(|_| bgp.take(d)))
                .collect();
        }
        drop(bgp);
        crate::memory::release_freed();
    }
    let why =
        format!("BGP kept looking up routes outside what it was given after {SCOPE_ROUNDS} rounds");
    bgp_not_computed(prepared, &why)
}

/// Why BGP over these devices is not computed at all, when its speakers times the
/// prefixes they originate (`network` statements and aggregates, each prefix once: a
/// table holds a path per prefix from each of its sessions) pass the BGP cap
/// ([`bgp::MAX_DOMAIN_ROWS`]). The whole network counts as one domain here (an upper
/// bound of any domain's size).
pub fn bgp_too_large<'a>(prepared: impl Iterator<Item = &'a Prepared>) -> Option<String> {
    let mut speakers = 0usize;
    let mut origins = std::collections::BTreeSet::new();
    for p in prepared {
        if let Some(b) = p.bgp.as_ref().and_then(|c| c.bgp.as_ref()) {
            speakers += 1;
            origins.extend(b.networks.iter().map(|n| n.prefix));
            origins.extend(b.routing.aggregates.iter().map(|a| a.prefix));
        }
    }
    (speakers.saturating_mul(origins.len()) > bgp::MAX_DOMAIN_ROWS).then(|| {
        format!(
            "BGP over {speakers} speakers originating {} prefixes (over {} speaker × prefix rows) is too large to compute",
            origins.len(),
            bgp::MAX_DOMAIN_ROWS
        )
    })
}

/// What BGP gives each speaker when it is not computed: nothing, and why.
pub fn bgp_not_computed(prepared: &[Prepared], why: &str) -> Vec<Option<BgpLearned>> {
    prepared
        .iter()
        .map(|p| {
            p.bgp.as_ref().map(|_| {
                let i = Incomplete {
                    vrf: None,
                    reason: format!("{why}: not computed yet"),
                };
                (Vec::new(), vec![i], Vec::new(), Vec::new())
            })
        })
        .collect()
}

/// A device's RIB from its prepared part, what the IGPs gave it and what BGP gave it:
/// BGP's routes merged by administrative distance, its "BGP not computed" mark replaced
/// by what BGP leaves incomplete. The IGP routes are taken, not copied (a backbone
/// router's 350,000).
pub fn finish_with(
    p: &Prepared,
    igp: (Vec<Route>, Vec<Incomplete>),
    bgp: Option<BgpLearned>,
) -> DeviceRib {
    let (mut all, mut why) = igp;
    let Some((routes, inc, table, external)) = bgp else {
        return finish_owned(p, all, &why);
    };
    all.extend(routes);
    why.extend(inc);
    let mut rib = finish_keeping(p, all, &why, |i| !dynamic::bgp_pending(i));
    rib.bgp = table;
    rib.external = external;
    rib
}

/// Every device's RIB from its prepared part and what the IGPs gave it (`igp[d]`: routes,
/// incomplete parts): each RIB with the IGP routes, then BGP over those RIBs (its next
/// hops resolved through them), each BGP device's RIB finished with its BGP routes.
pub fn finish_all(prepared: &[Prepared], igp: &[(Vec<Route>, Vec<Incomplete>)]) -> Vec<DeviceRib> {
    let none = (Vec::new(), Vec::new());
    let igp_of = |d: usize| igp.get(d).unwrap_or(&none);
    let bgp = bgp_over(prepared, |d, only| {
        let (routes, inc) = igp_of(d);
        let routes = routes
            .iter()
            .filter(|r| only.is_none_or(|o| o.contains(&r.network)))
            .cloned()
            .collect();
        (routes, inc.clone())
    });
    prepared
        .iter()
        .zip(bgp)
        .enumerate()
        .map(|(d, (p, b))| finish_with(p, igp_of(d).clone(), b))
        .collect()
}

/// Every device's main RIB, the network-wide protocols (OSPF, EIGRP, IS-IS, then BGP)
/// computed over all of them: each device prepared, its RIB without them computed (what
/// they redistribute), then [`complete`]. In `devices`' order.
pub fn network(devices: &[DeviceInput<'_>]) -> Vec<DeviceRib> {
    let mut prepared: Vec<Prepared> = devices.iter().map(|d| prepare(*d)).collect();
    let speakers: Vec<Speakers> = devices
        .iter()
        .zip(&prepared)
        .map(|(d, p)| speakers(*d, p))
        .collect();
    complete(&mut prepared, speakers)
}

/// The main RIB of one device from its parsed configuration (and its text, for the
/// dynamic protocols the model does not record), as a network of that device alone.
pub fn compute(hostname: &str, vendor: Vendor, config: &DeviceConfig, text: &str) -> DeviceRib {
    let input = DeviceInput {
        hostname,
        vendor,
        config,
        text,
    };
    network(&[input])
        .pop()
        .unwrap_or_else(|| finish(&prepare(input), &[], &[]))
}
