//! The HTML report engineers attach to a change ticket: one self-contained file (inline
//! CSS and SVG, no script, no outside address) beside each plan's pre-check report, and
//! for what-if questions. This module gathers what the picture shows from the state DB
//! and the recomputed blast radius; `svg` lays it out and draws it, `html` writes the
//! document around it.

pub mod html;
pub mod path;
pub mod svg;

use crate::model::LinkEnds;
use crate::plan::{Plan, Target};
use crate::precheck::blast::{Blast, Spec};
use crate::precheck::candidate::{Candidate, LostLink};
use crate::precheck::{Finding, Severity, TracedPath};
use crate::state::{StateDb, StateError};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

/// Escapes text for HTML and SVG content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters (terminal escapes) have no business in a report; keep line breaks and tabs.
            c if c.is_control() && !matches!(c, '\n' | '\t' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The HTML report's file name for a plan's file stem (beside `<stem>.precheck.md`).
pub fn file_name(stem: &str) -> String {
    format!("{stem}.html")
}

/// The HTML report written beside a pre-check report (`<stem>.precheck.md`).
pub fn beside(precheck_md: &std::path::Path) -> std::path::PathBuf {
    let name = precheck_md
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".precheck.md").unwrap_or(&name);
    precheck_md.with_file_name(file_name(stem))
}

/// How a device is affected; the most serious mark wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Removed by the change.
    Removed,
    /// No path to an anchor any more.
    Isolated,
    /// Still connected, through a new single point of failure.
    Degraded,
    /// Configured or named by the change, and not removed.
    Changed,
    /// Within two hops of the change, not affected.
    Context,
}

impl Mark {
    /// The word the picture and the legend use.
    pub fn label(self) -> &'static str {
        match self {
            Mark::Removed => "removed",
            Mark::Isolated => "isolated",
            Mark::Degraded => "degraded",
            Mark::Changed => "changed",
            Mark::Context => "unaffected",
        }
    }
}

/// A device in the picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Hostname.
    pub name: String,
    /// Role from the state DB (`border`, `core`, …), if any.
    pub role: Option<String>,
    /// Site from the state DB, if any.
    pub site: Option<String>,
    /// How the change affects it.
    pub mark: Mark,
}

/// A link between two drawn devices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// One end: device, interface.
    pub a: (String, String),
    /// The other end.
    pub b: (String, String),
    /// Lost by the change.
    pub lost: bool,
}

/// What happens to a BGP session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Stays.
    Kept,
    /// Ended by the change.
    Lost,
    /// Added by the change.
    New,
}

/// An external BGP peer (one per AS, or per address when the AS is unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// What identifies it: `AS7575`, or the address.
    pub key: String,
    /// What the picture prints (`AARNet · AS7575`).
    pub label: String,
    /// Every session to it is lost.
    pub lost: bool,
}

/// A session drawn in the picture: to an external peer (`to` is the peer's key), or a
/// lost internal session (`to` is the far device).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The device.
    pub device: String,
    /// The peer's key or the far device.
    pub to: String,
    /// Whether `to` is an external peer.
    pub external: bool,
    /// Peer address.
    pub address: String,
    /// What the change does to it.
    pub fate: Fate,
}

/// A service the change reaches, with its endpoint devices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Service {
    /// Name.
    pub name: String,
    /// Criticality.
    pub criticality: String,
    /// Endpoints in all.
    pub endpoints: usize,
    /// Endpoints that remain.
    pub remaining: usize,
    /// Devices holding an endpoint (prefix endpoints have none).
    pub devices: Vec<String>,
    /// The site most of those devices are in (ties: the first by name); the service is
    /// drawn in that site's panel.
    pub site: Option<String>,
}

impl Service {
    /// No endpoint remains.
    pub fn down(&self) -> bool {
        self.remaining == 0
    }
}

/// A flow the plan breaks, with the path its traffic takes: drawn on the picture and
/// listed under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowPath {
    /// The flow, as its finding names it (`BGP session r1 → 10.255.0.4`).
    pub flow: String,
    /// Its finding's severity.
    pub severity: Severity,
    /// The failing branch.
    pub path: TracedPath,
}

impl FlowPath {
    /// The flows of a pre-check's findings that name a traced path, in their order.
    pub fn of_findings(findings: &[Finding]) -> Vec<FlowPath> {
        findings
            .iter()
            .filter_map(|f| {
                Some(FlowPath {
                    flow: f.element.clone(),
                    severity: f.severity,
                    path: f.path.as_deref()?.clone(),
                })
            })
            .collect()
    }
}

/// The affected part of the network: what the SVG draws.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picture {
    /// Devices, by hostname.
    pub nodes: Vec<Node>,
    /// Links between drawn devices.
    pub edges: Vec<Edge>,
    /// External peers of drawn devices.
    pub peers: Vec<Peer>,
    /// Sessions to external peers, and lost internal sessions.
    pub sessions: Vec<Session>,
    /// Affected services.
    pub services: Vec<Service>,
    /// How many hops around the changed elements are drawn (2, or fewer on a large network).
    pub hops: usize,
    /// Devices within two hops left out to keep the picture readable.
    pub left_out: usize,
    /// Flows the change breaks, with their paths.
    pub paths: Vec<FlowPath>,
}

/// A session the change adds: device, peer address, peer AS, peer name.
pub type NewSession = (String, String, Option<u32>, Option<String>);

/// What a change does, as the picture needs it: the recomputed blast radius and what
/// the change names or configures.
#[derive(Debug, Clone, Default)]
pub struct Impact {
    /// Devices the change configures or names (targets, configured devices).
    pub changed: Vec<String>,
    /// Interfaces removed or shut: (device, interface).
    pub interfaces: Vec<(String, String)>,
    /// Links lost by name (both ends).
    pub links: Vec<LinkEnds>,
    /// Sessions the change adds.
    pub new_sessions: Vec<NewSession>,
    /// Flows the pre-check found the change breaks, with their paths.
    pub paths: Vec<FlowPath>,
}

impl Impact {
    /// A what-if question's removal.
    pub fn of_spec(spec: &Spec) -> Impact {
        let mut changed: Vec<String> = spec.devices.clone();
        changed.extend(spec.interfaces.iter().map(|(d, _)| d.clone()));
        changed.extend(
            spec.links
                .iter()
                .flat_map(|((a, _), (b, _))| [a.clone(), b.clone()]),
        );
        changed.extend(spec.peers.iter().filter_map(|(d, _)| d.clone()));
        Impact {
            changed,
            interfaces: spec.interfaces.clone(),
            links: spec.links.clone(),
            new_sessions: Vec::new(),
            paths: Vec::new(),
        }
    }

    /// A plan's change: its targets, configured devices, and what its candidate network
    /// loses and gains (shut interfaces, broken links, new neighbors).
    pub fn of_plan(db: &StateDb, plan: &Plan) -> Result<Impact, StateError> {
        let mut i = Impact::default();
        for t in &plan.header.targets {
            match t {
                Target::Device { device } | Target::Peer { device, .. } => {
                    i.changed.push(device.clone())
                }
                Target::Interface { device, interface } => {
                    i.changed.push(device.clone());
                    if plan.header.intent == "decommission_interface" {
                        i.interfaces.push((device.clone(), interface.clone()));
                    }
                }
                Target::Link {
                    device_a,
                    interface_a,
                    device_b,
                    interface_b,
                } => {
                    i.changed.extend([device_a.clone(), device_b.clone()]);
                    if plan.header.intent == "decommission_link" {
                        i.links.push((
                            (device_a.clone(), interface_a.clone()),
                            (device_b.clone(), interface_b.clone()),
                        ));
                    }
                }
            }
        }
        i.changed
            .extend(plan.implementation.iter().map(|b| b.device.clone()));
        let cand = Candidate::shared(db, plan)?;
        i.interfaces.extend(cand.shut.iter().cloned());
        i.links.extend(
            cand.lost_links
                .iter()
                .map(|LostLink { a, b, .. }| (a.clone(), b.clone())),
        );
        for d in &cand.touched {
            let Some(dev) = cand.devices.get(d) else {
                continue;
            };
            let before = dev.base.bgp.as_ref().map_or(&[][..], |b| &b.neighbors[..]);
            let after = dev.cand.bgp.as_ref().map_or(&[][..], |b| &b.neighbors[..]);
            // Address peers only: an unnumbered or listen-range neighbor has no one peer to draw.
            let drawable = |n: &&crate::model::BgpNeighbor| {
                !n.shutdown && matches!(n.peer, crate::model::BgpPeer::Address(_))
            };
            for n in after.iter().filter(drawable) {
                if !before.iter().any(|o| o.peer == n.peer && o.vrf == n.vrf) {
                    i.new_sessions.push(new_session(d, n));
                }
            }
        }
        Ok(i)
    }
}

fn new_session(device: &str, n: &crate::model::BgpNeighbor) -> NewSession {
    let name = crate::network::peer_name(n.description.as_deref()).map(str::to_owned);
    (device.to_owned(), n.peer.to_string(), n.peer_asn, name)
}

/// Most devices the picture draws; past this it draws fewer hops, then only the
/// affected devices, and says how many it left out.
pub const MAX_DEVICES: usize = 48;

impl Picture {
    /// The affected part of the network: the changed elements and everything within two
    /// hops, marked with what the blast radius says of each.
    pub fn load(db: &StateDb, impact: &Impact, blast: &Blast) -> Result<Picture, StateError> {
        let m = crate::network::NetworkModel::shared(db)?;
        let devices = Devices(&m);
        let up = m.sym("up");
        let n = |s| m.name(s);
        // A 50,000-device network has 200,000 links: they are walked by number, and only
        // the ones near the affected devices are named.
        let links = || m.links.iter().filter(|l| Some(l.status) == up);
        type Ends<'a> = ((&'a str, &'a str), (&'a str, &'a str));
        let ends = |l: &crate::network::Link| -> Ends<'_> {
            (
                (n(l.hostname_a), n(l.ifname_a)),
                (n(l.hostname_b), n(l.ifname_b)),
            )
        };
        let syms = |names: &mut dyn Iterator<Item = &str>| -> HashSet<crate::network::Sym> {
            names.filter_map(|d| m.sym(d)).collect()
        };
        let removed: BTreeSet<&str> = blast.removed.iter().map(String::as_str).collect();
        // The devices whose ports or links the plan takes: a link elsewhere is not lost
        // by them, and is not compared name by name.
        let touched: HashSet<&str> = impact
            .interfaces
            .iter()
            .map(|(d, _)| d.as_str())
            .chain(
                impact
                    .links
                    .iter()
                    .flat_map(|(x, y)| [x.0.as_str(), y.0.as_str()]),
            )
            .collect();
        let (removed_syms, touched_syms) = (
            syms(&mut removed.iter().copied()),
            syms(&mut touched.iter().copied()),
        );
        // Whether a link can be lost at all, by number: most cannot.
        let may_be_lost = |l: &crate::network::Link| {
            [l.hostname_a, l.hostname_b]
                .iter()
                .any(|d| removed_syms.contains(d) || touched_syms.contains(d))
        };
        let link_lost = |(a, b): &Ends<'_>| {
            if removed.contains(a.0) || removed.contains(b.0) {
                return true;
            }
            if !touched.contains(a.0) && !touched.contains(b.0) {
                return false;
            }
            let end_gone = |(d, i): &(&str, &str)| {
                impact
                    .interfaces
                    .iter()
                    .any(|(x, y)| x == d && crate::ifname::same(y, i))
            };
            let same = |p: &(String, String), q: &(&str, &str)| {
                p.0 == q.0 && crate::ifname::same(&p.1, q.1)
            };
            end_gone(a)
                || end_gone(b)
                || impact
                    .links
                    .iter()
                    .any(|(x, y)| (same(x, a) && same(y, b)) || (same(x, b) && same(y, a)))
        };
        let lost_sessions: Vec<(&str, &str)> = blast
            .sessions_lost
            .iter()
            .filter_map(|s| s.split_once(" → "))
            .collect();
        // The devices the picture is about, then everything within two hops of them.
        let mut marks: BTreeMap<String, Mark> = BTreeMap::new();
        let mut mark = |d: &str, m: Mark| {
            if devices.known(d) {
                let slot = marks.entry(d.to_owned()).or_insert(m);
                *slot = (*slot).min(m);
            }
        };
        for d in &blast.removed {
            mark(d, Mark::Removed);
        }
        for d in &blast.isolated {
            mark(d, Mark::Isolated);
        }
        for d in &blast.degraded {
            mark(d, Mark::Degraded);
        }
        for d in &impact.changed {
            mark(d, Mark::Changed);
        }
        for (a, b) in links()
            .filter(|l| may_be_lost(l))
            .map(ends)
            .filter(|l| link_lost(l))
        {
            mark(a.0, Mark::Context);
            mark(b.0, Mark::Context);
        }
        for (d, _) in &lost_sessions {
            mark(d, Mark::Context);
        }
        for (d, ..) in &impact.new_sessions {
            mark(d, Mark::Changed);
        }
        // Every device a broken flow passes is drawn, so that its path is.
        for f in &impact.paths {
            for h in &f.path.hops {
                mark(&h.device, Mark::Context);
            }
        }
        let endpoints = service_devices(db, blast)?;
        for devs in endpoints.values() {
            for d in devs {
                mark(d, Mark::Context);
            }
        }
        let mut focus: Vec<(Mark, String)> = marks.iter().map(|(d, m)| (*m, d.clone())).collect();
        focus.sort();
        let focus: Vec<String> = focus.into_iter().map(|(_, d)| d).collect();
        // Two hops out at most: the neighbours of the focus and of their neighbours are
        // all the walk reads.
        let focus_syms = syms(&mut focus.iter().map(String::as_str));
        let mut near = focus_syms.clone();
        for l in links() {
            if focus_syms.contains(&l.hostname_a) || focus_syms.contains(&l.hostname_b) {
                near.extend([l.hostname_a, l.hostname_b]);
            }
        }
        let mut adjacent: HashMap<&str, BTreeSet<&str>> = HashMap::new();
        for l in links().filter(|l| near.contains(&l.hostname_a) || near.contains(&l.hostname_b)) {
            let (a, b) = (n(l.hostname_a), n(l.hostname_b));
            adjacent.entry(a).or_default().insert(b);
            adjacent.entry(b).or_default().insert(a);
        }
        let (drawn, hops, left_out) = neighbourhood(&focus, &adjacent);
        let mut pic = Picture {
            hops,
            left_out,
            paths: impact.paths.clone(),
            ..Picture::default()
        };
        for d in &drawn {
            let (role, site) = devices.role_and_site(d);
            pic.nodes.push(Node {
                name: d.clone(),
                role,
                site,
                mark: marks.get(d).copied().unwrap_or(Mark::Context),
            });
        }
        let drawn_set: BTreeSet<&str> = drawn.iter().map(String::as_str).collect();
        let drawn_syms = syms(&mut drawn_set.iter().copied());
        for l in &links()
            .filter(|l| drawn_syms.contains(&l.hostname_a) && drawn_syms.contains(&l.hostname_b))
            .map(ends)
            .collect::<Vec<_>>()
        {
            let owned = |(d, i): (&str, &str)| (d.to_owned(), i.to_owned());
            pic.edges.push(Edge {
                a: owned(l.0),
                b: owned(l.1),
                lost: link_lost(l),
            });
        }
        pic.sessions_and_peers(db, &drawn_set, &lost_sessions, impact, blast)?;
        for s in &blast.services {
            pic.services.push(Service {
                name: s.name.clone(),
                criticality: s.criticality.clone(),
                endpoints: s.endpoints,
                remaining: s.remaining,
                devices: endpoints.get(&s.name).cloned().unwrap_or_default(),
                site: endpoints
                    .get(&s.name)
                    .and_then(|devs| majority_site(devs, &devices)),
            });
        }
        Ok(pic)
    }

    /// External peers of drawn devices with their sessions (kept, lost, new), and the
    /// lost internal sessions between drawn devices.
    fn sessions_and_peers(
        &mut self,
        db: &StateDb,
        drawn: &BTreeSet<&str>,
        lost: &[(&str, &str)],
        impact: &Impact,
        blast: &Blast,
    ) -> Result<(), StateError> {
        let mut stored: Vec<crate::network::Session> = Vec::new();
        for d in drawn {
            stored.extend(crate::network::sessions_of(db, d)?);
        }
        let owner = |addr: &str| db.address_owner(addr);
        let mut peers: BTreeMap<String, Peer> = BTreeMap::new();
        let mut add_peer = |key: &str, name: Option<&str>, asn: Option<u32>| {
            let label = match (name, asn) {
                (Some(n), Some(a)) => format!("{n} · AS{a}"),
                (Some(n), None) => n.to_owned(),
                (None, _) => key.to_owned(),
            };
            let lost = asn.is_some_and(|a| {
                let tail = format!("(AS{a})");
                blast.peers_lost.iter().any(|p| p.ends_with(&tail))
            });
            peers.entry(key.to_owned()).or_insert(Peer {
                key: key.to_owned(),
                label,
                lost,
            });
        };
        let mut internal_lost: BTreeSet<(String, String, String)> = BTreeSet::new();
        for stored_session in &stored {
            let crate::network::Session {
                hostname: dev,
                peer: addr,
                peer_asn: asn,
                shutdown,
                ..
            } = stored_session;
            let is_lost = lost.iter().any(|(d, p)| d == dev && p == addr);
            match owner(addr)? {
                Some(far) => {
                    if is_lost && drawn.contains(far.as_str()) && far != *dev {
                        // One line per pair of devices, whichever end lists it.
                        let (x, y) = if *dev < far {
                            (dev.clone(), far)
                        } else {
                            (far, dev.clone())
                        };
                        internal_lost.insert((x, y, addr.clone()));
                    }
                }
                None if *shutdown && !is_lost => {}
                None => {
                    let key = peer_key(*asn, addr);
                    let name = stored_session.peer_name();
                    add_peer(&key, name, *asn);
                    self.sessions.push(Session {
                        device: dev.clone(),
                        to: key,
                        external: true,
                        address: addr.clone(),
                        fate: if is_lost { Fate::Lost } else { Fate::Kept },
                    });
                }
            }
        }
        let mut seen_pairs: BTreeSet<(String, String)> = BTreeSet::new();
        for (a, b, addr) in internal_lost {
            if seen_pairs.insert((a.clone(), b.clone())) {
                self.sessions.push(Session {
                    device: a,
                    to: b,
                    external: false,
                    address: addr,
                    fate: Fate::Lost,
                });
            }
        }
        for (dev, addr, asn, name) in &impact.new_sessions {
            if !drawn.contains(dev.as_str()) || owner(addr)?.is_some() {
                continue;
            }
            let key = peer_key(*asn, addr);
            add_peer(&key, name.as_deref(), *asn);
            self.sessions.push(Session {
                device: dev.clone(),
                to: key,
                external: true,
                address: addr.clone(),
                fate: Fate::New,
            });
        }
        self.peers = peers.into_values().collect();
        Ok(())
    }
}

fn peer_key(asn: Option<u32>, addr: &str) -> String {
    asn.map_or_else(|| addr.to_owned(), |a| format!("AS{a}"))
}

/// The devices holding an endpoint of each affected service.
fn service_devices(
    db: &StateDb,
    blast: &Blast,
) -> Result<BTreeMap<String, Vec<String>>, StateError> {
    let mut out = BTreeMap::new();
    for s in &blast.services {
        out.insert(s.name.clone(), db.service_devices(&s.name)?);
    }
    Ok(out)
}

/// The model's devices, looked up by name: not copied into a map of every device to
/// draw at most [`MAX_DEVICES`].
struct Devices<'a>(&'a crate::network::NetworkModel);

impl Devices<'_> {
    /// Whether the model has a device of that name.
    fn known(&self, hostname: &str) -> bool {
        self.0.device(hostname).is_some()
    }

    /// Its role and site, where known.
    fn role_and_site(&self, hostname: &str) -> (Option<String>, Option<String>) {
        self.0
            .device(hostname)
            .and_then(|i| self.0.devices.get(i))
            .map(|d| (d.role.clone(), d.site.clone()))
            .unwrap_or_default()
    }
}

/// The focus devices (most affected first) and everything within two hops, or fewer
/// hops when that is too many to draw: (devices by name, hops drawn, devices within two
/// hops left out).
fn neighbourhood(
    focus: &[String],
    adjacent: &HashMap<&str, BTreeSet<&str>>,
) -> (Vec<String>, usize, usize) {
    let within = |hops: usize| -> BTreeSet<String> {
        let mut seen: BTreeSet<String> = focus.iter().cloned().collect();
        let mut queue: VecDeque<(String, usize)> = focus.iter().map(|d| (d.clone(), 0)).collect();
        while let Some((d, k)) = queue.pop_front() {
            if k == hops {
                continue;
            }
            for n in adjacent.get(d.as_str()).into_iter().flatten() {
                if seen.insert((*n).to_owned()) {
                    queue.push_back(((*n).to_owned(), k + 1));
                }
            }
        }
        seen
    };
    let two = within(2);
    for hops in [2, 1] {
        let set = if hops == 2 { two.clone() } else { within(hops) };
        if set.len() <= MAX_DEVICES {
            let left_out = two.len() - set.len();
            return (set.into_iter().collect(), hops, left_out);
        }
    }
    // Too many even one hop out: the focus alone, the most affected first when even
    // that is too many (the tables list everything).
    let mut drawn: Vec<String> = focus.iter().take(MAX_DEVICES).cloned().collect();
    drawn.sort();
    drawn.dedup();
    let left_out = two.len() - drawn.len();
    (drawn, 0, left_out)
}

/// The site most of `devs` are in (ties: the first by name), from the devices' sites.
fn majority_site(devs: &[String], devices: &Devices<'_>) -> Option<String> {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for d in devs {
        if let (_, Some(site)) = devices.role_and_site(d) {
            *count.entry(site).or_default() += 1;
        }
    }
    let most = count.values().copied().max()?;
    count
        .into_iter()
        .find(|(_, n)| *n == most)
        .map(|(s, _)| s.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: usize) -> (Vec<String>, Vec<(String, String)>) {
        let names: Vec<String> = (0..n).map(|i| format!("d{i:03}")).collect();
        let pairs = names
            .windows(2)
            .map(|w| (w[0].clone(), w[1].clone()))
            .collect();
        (names, pairs)
    }

    #[test]
    fn two_hops_around_the_focus() {
        let (names, pairs) = chain(10);
        let mut adj: HashMap<&str, BTreeSet<&str>> = HashMap::new();
        for (a, b) in &pairs {
            adj.entry(a).or_default().insert(b);
            adj.entry(b).or_default().insert(a);
        }
        let (drawn, hops, left) = neighbourhood(&[names[5].clone()], &adj);
        assert_eq!(drawn, names[3..=7].to_vec());
        assert_eq!((hops, left), (2, 0));
    }

    #[test]
    fn too_many_affected_devices_keeps_the_most_affected() {
        // 60 focus devices in a ring: even alone they are too many to draw.
        let names: Vec<String> = (0..60).map(|i| format!("f{i:02}")).collect();
        let mut adj: HashMap<&str, BTreeSet<&str>> = HashMap::new();
        for i in 0..60 {
            let (a, b) = (names[i].as_str(), names[(i + 1) % 60].as_str());
            adj.entry(a).or_default().insert(b);
            adj.entry(b).or_default().insert(a);
        }
        // Most affected first: the last names come first in the focus.
        let focus: Vec<String> = names.iter().rev().cloned().collect();
        let (drawn, hops, left) = neighbourhood(&focus, &adj);
        assert_eq!(hops, 0);
        assert_eq!(drawn.len(), MAX_DEVICES);
        assert_eq!(drawn.first().map(String::as_str), Some("f12"));
        assert_eq!(left, 60 - MAX_DEVICES);
    }

    #[test]
    fn a_hub_with_many_neighbours_is_drawn_with_fewer_hops() {
        // One hub with 30 spokes, each spoke with 2 leaves: 91 devices within two hops.
        let mut pairs: Vec<(String, String)> = Vec::new();
        for s in 0..30 {
            pairs.push(("hub".into(), format!("s{s:02}")));
            for l in 0..2 {
                pairs.push((format!("s{s:02}"), format!("s{s:02}-l{l}")));
            }
        }
        let mut adj: HashMap<&str, BTreeSet<&str>> = HashMap::new();
        for (a, b) in &pairs {
            adj.entry(a).or_default().insert(b);
            adj.entry(b).or_default().insert(a);
        }
        let (drawn, hops, left) = neighbourhood(&["hub".to_owned()], &adj);
        assert_eq!(hops, 1);
        assert_eq!(drawn.len(), 31);
        assert_eq!(left, 60);
    }
}
