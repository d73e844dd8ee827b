//! The network as a graph, and the blast radius of removing elements from it, as
//! PRODUCT.md defines it. This is the analyzer's computation; the reporter checks it
//! with an implementation of its own.
//!
//! Graph: devices are nodes, links are edges (parallel links kept apart), external BGP
//! peers (one node per peer AS) attach where their sessions terminate. Anchors: border
//! and core devices and the external peers.

pub mod graph;

use crate::routing::{FastMap, FastSet};
use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use petgraph::graph::{NodeIndex, UnGraph};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Arc;

/// A device as the topology sees it.
#[derive(Debug, Clone)]
pub struct Device {
    /// Hostname.
    pub hostname: String,
    /// Role.
    pub role: Option<String>,
    /// Whether it anchors the network (border or core).
    pub anchor: bool,
    /// OS.
    pub os: String,
}

/// A link between two device interfaces.
#[derive(Debug, Clone)]
pub struct Link {
    /// Side A: device index, interface.
    pub a: (usize, String),
    /// Side B.
    pub b: (usize, String),
}

/// A configured BGP session.
#[derive(Debug, Clone)]
pub struct Session {
    /// Device index.
    pub device: usize,
    /// VRF.
    pub vrf: String,
    /// Peer address.
    pub peer: IpAddr,
    /// Peer AS.
    pub peer_asn: Option<u32>,
    /// Description.
    pub description: Option<String>,
    /// Local interface, when known (update-source or connected interface).
    pub local_interface: Option<String>,
    /// Device index owning the peer address, for internal sessions.
    pub peer_device: Option<usize>,
    /// Administratively shut.
    pub shutdown: bool,
}

/// A service endpoint.
#[derive(Debug, Clone)]
pub enum Endpoint {
    /// A device.
    Device(usize),
    /// An interface.
    Interface(usize, String),
    /// A prefix.
    Prefix(IpNet),
}

/// A service.
#[derive(Debug, Clone)]
pub struct Service {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: Option<String>,
    /// Criticality.
    pub criticality: Option<String>,
    /// Where it lives.
    pub endpoints: Vec<Endpoint>,
}

/// The network, loaded from the state DB.
#[derive(Debug, Clone, Default)]
pub struct Network {
    /// Devices, sorted by hostname.
    pub devices: Vec<Device>,
    index: HashMap<String, usize>,
    /// Links that are up.
    pub links: Vec<Link>,
    /// BGP sessions (address peers only).
    pub sessions: Vec<Session>,
    /// Connected subnets: (device, interface, address); an interface's name is one
    /// shared string however many addresses name it.
    pub addresses: Vec<(usize, Arc<str>, IpNet)>,
    /// Prefixes originated by BGP `network` statements.
    pub bgp_networks: Vec<(usize, IpNet)>,
    /// Services.
    pub services: Vec<Service>,
    /// The state version it was loaded from.
    pub state_version: i64,
}

fn is_anchor_role(role: Option<&str>) -> bool {
    matches!(role, Some("border" | "core" | "edge" | "spine"))
}

impl Network {
    /// Loads the network from the state version's model.
    pub fn load(db: &StateDb) -> Result<Network, StateError> {
        let m = crate::network::NetworkModel::shared(db)?;
        Ok(Network::from_model(&m))
    }

    /// The network as the model holds it: devices not offline, links up, sessions with
    /// a peer address.
    pub fn from_model(m: &crate::network::NetworkModel) -> Network {
        // Sized at once: grown by doubling, a 50,000-device network's 600,000 addresses
        // were copied and their fresh pages faulted in several times over.
        let mut net = Network {
            state_version: m.state_version,
            devices: Vec::with_capacity(m.devices.len()),
            links: Vec::with_capacity(m.links.len()),
            addresses: Vec::with_capacity(m.addresses.len()),
            index: HashMap::with_capacity(m.devices.len()),
            ..Network::default()
        };
        for d in m.devices.iter().filter(|d| d.status != "offline") {
            net.index.insert(d.hostname.clone(), net.devices.len());
            net.devices.push(Device {
                anchor: is_anchor_role(d.role.as_deref()),
                hostname: d.hostname.clone(),
                role: d.role.clone(),
                os: d.os.clone(),
            });
        }
        let n = |s| m.name(s);
        // A hostname's number → its device's here, made once: rows looked up by
        // hostname text cost a string hash each, a million of them at 50,000 devices.
        let mut sym_dev = vec![usize::MAX; m.names.len()];
        for d in &net.devices {
            if let (Some(s), Some(&i)) = (m.sym(&d.hostname), net.index.get(&d.hostname)) {
                sym_dev[s as usize] = i;
            }
        }
        let dev_of = |s: crate::network::Sym| {
            sym_dev
                .get(s as usize)
                .copied()
                .filter(|&d| d != usize::MAX)
        };
        let up = m.sym("up");
        for l in m.links.iter().filter(|l| Some(l.status) == up) {
            if let (Some(a), Some(b)) = (dev_of(l.hostname_a), dev_of(l.hostname_b)) {
                net.links.push(Link {
                    a: (a, n(l.ifname_a).to_owned()),
                    b: (b, n(l.ifname_b).to_owned()),
                });
            }
        }
        // Only the addresses sessions name are looked up: maps over every address cost
        // more than the rest of the network together (and fast-hashed: 600,000 lookups).
        let peers_wanted: FastSet<IpAddr> = m
            .sessions
            .iter()
            .filter_map(|s| s.peer.parse().ok())
            .collect();
        let locals_wanted: FastSet<IpAddr> = m
            .sessions
            .iter()
            .filter_map(|s| s.local_ip.as_deref()?.parse().ok())
            .collect();
        let mut owner: FastMap<IpAddr, usize> = FastMap::default();
        let mut if_of: FastMap<(usize, IpAddr), &str> = FastMap::default();
        let mut ifname: Vec<Option<Arc<str>>> = vec![None; m.names.len()];
        let virt = m.sym("virtual");
        // Addresses of devices out of service (offline): a session to one is down, not a
        // session to a peer outside the network.
        let mut out_of_service: FastSet<IpAddr> = FastSet::default();
        for a in m.addresses.iter().filter(|a| Some(a.kind) != virt) {
            let Some(d) = dev_of(a.hostname) else {
                if peers_wanted.contains(&a.address) && m.device(n(a.hostname)).is_some() {
                    out_of_service.insert(a.address);
                }
                continue;
            };
            if peers_wanted.contains(&a.address) {
                owner.insert(a.address, d);
            }
            if locals_wanted.contains(&a.address) {
                if_of.insert((d, a.address), n(a.ifname));
            }
            if let Ok(p) = IpNet::new(a.address, a.prefix.prefix_len()) {
                let name = ifname[a.ifname as usize].get_or_insert_with(|| n(a.ifname).into());
                net.addresses.push((d, Arc::clone(name), p));
            }
        }
        let mut sessions: Vec<&crate::network::Session> = m.sessions.iter().collect();
        sessions.sort_by(|a, b| (&a.hostname, a.source_line).cmp(&(&b.hostname, b.source_line)));
        for s in sessions {
            let (Some(&d), Ok(peer)) = (net.index.get(&s.hostname), s.peer.parse::<IpAddr>())
            else {
                continue;
            };
            if !owner.contains_key(&peer) && out_of_service.contains(&peer) {
                continue;
            }
            let local_interface = s.update_source.clone().or_else(|| {
                let ip: IpAddr = s.local_ip.as_deref()?.parse().ok()?;
                if_of.get(&(d, ip)).map(|i| (*i).to_owned())
            });
            net.sessions.push(Session {
                device: d,
                vrf: s.vrf.clone(),
                peer,
                peer_asn: s.peer_asn,
                description: s.description.clone(),
                local_interface,
                peer_device: owner.get(&peer).copied(),
                shutdown: s.shutdown,
            });
        }
        for n in &m.bgp_networks {
            if let (Some(&d), Ok(p)) = (net.index.get(&n.hostname), n.prefix.parse()) {
                net.bgp_networks.push((d, p));
            }
        }
        for s in &m.services {
            let mut svc = Service {
                name: s.name.clone(),
                kind: s.kind.clone(),
                criticality: s.criticality.clone(),
                endpoints: Vec::new(),
            };
            for e in &s.endpoints {
                let ep = match (
                    e.hostname.as_ref().and_then(|h| net.index.get(h)),
                    &e.ifname,
                    &e.prefix,
                ) {
                    (Some(&d), Some(i), _) => Some(Endpoint::Interface(d, i.clone())),
                    (Some(&d), None, _) => Some(Endpoint::Device(d)),
                    (None, _, Some(p)) => p.parse().ok().map(Endpoint::Prefix),
                    _ => None,
                };
                svc.endpoints.extend(ep);
            }
            net.services.push(svc);
        }
        net
    }

    /// Device index by hostname.
    pub fn device(&self, hostname: &str) -> Option<usize> {
        self.index.get(hostname).copied()
    }

    /// What giving `interface` of device `d` the address `new` takes away: the subnets
    /// it had that no other interface of the network has, each with the part of it the
    /// new address no longer covers (all of it when the new subnet is elsewhere; the
    /// rest when it narrows), and the services with an endpoint there — a prefix in a
    /// part no longer covered, or the interface itself when it leaves a subnet.
    pub fn readdressed(
        &self,
        d: usize,
        interface: &str,
        new: IpNet,
    ) -> (Vec<(IpNet, Option<IpNet>)>, Vec<ServiceRef>) {
        let here = |dev: usize, i: &str| dev == d && crate::ifname::same(interface, i);
        let new = new.trunc();
        let mut old: Vec<IpNet> = self
            .addresses
            .iter()
            .filter(|(dev, i, n)| here(*dev, i) && n.prefix_len() < n.max_prefix_len())
            .map(|(_, _, n)| n.trunc())
            // Kept, or widened: nothing is left behind.
            .filter(|n| !new.contains(n))
            .collect();
        old.sort();
        old.dedup();
        old.retain(|s| {
            !self
                .addresses
                .iter()
                .any(|(dev, i, n)| !here(*dev, i) && n.trunc() == *s)
        });
        // (old subnet, the part still covered when the new one narrows it)
        let left: Vec<(IpNet, Option<IpNet>)> = old
            .into_iter()
            .map(|s| (s, s.contains(&new).then_some(new)))
            .collect();
        let mut hit = Vec::new();
        if left.is_empty() {
            return (left, hit);
        }
        let lost_prefix = |p: &IpNet| {
            left.iter()
                .any(|(s, kept)| s.contains(p) && !kept.is_some_and(|k| k.contains(p)))
        };
        let interface_leaves = left.iter().any(|(_, kept)| kept.is_none());
        for s in &self.services {
            let lost = s
                .endpoints
                .iter()
                .filter(|e| match e {
                    Endpoint::Prefix(p) => lost_prefix(p),
                    Endpoint::Interface(dev, i) => interface_leaves && here(*dev, i),
                    Endpoint::Device(_) => false,
                })
                .count();
            if lost > 0 {
                hit.push(ServiceRef {
                    name: s.name.clone(),
                    criticality: s.criticality.clone(),
                    endpoints: s.endpoints.len(),
                    remaining: s.endpoints.len() - lost,
                });
            }
        }
        (left, hit)
    }

    /// Whether a session goes to a peer outside the network.
    pub fn is_external(&self, s: &Session) -> bool {
        s.peer_device.is_none()
    }

    /// The external peers: AS → sessions.
    pub fn external_peers(&self) -> BTreeMap<u32, Vec<usize>> {
        let mut out: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, s) in self.sessions.iter().enumerate() {
            if let (true, Some(asn)) = (self.is_external(s), s.peer_asn) {
                out.entry(asn).or_default().push(i);
            }
        }
        out
    }

    /// A readable name for an external peer AS: the first word of a session description.
    pub fn peer_name(&self, asn: u32) -> String {
        crate::network::peer_as_name(
            self.sessions
                .iter()
                .filter(|s| s.peer_asn == Some(asn) && s.peer_device.is_none())
                .map(|s| s.description.as_deref()),
            asn,
        )
    }
}

/// Elements to remove.
#[derive(Debug, Clone, Default)]
pub struct Removal {
    /// Device indices.
    pub devices: BTreeSet<usize>,
    /// (device, interface).
    pub interfaces: BTreeSet<(usize, String)>,
    /// Link indices.
    pub links: BTreeSet<usize>,
    /// Session indices.
    pub sessions: BTreeSet<usize>,
}

/// A session, for reports.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SessionRef {
    /// Device.
    pub hostname: String,
    /// Peer address.
    pub peer: String,
    /// Peer AS.
    pub peer_asn: Option<u32>,
}

/// A service hit, for reports: down when no endpoint remains, degraded when some do.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ServiceRef {
    /// Name.
    pub name: String,
    /// Criticality.
    pub criticality: Option<String>,
    /// Its endpoints.
    pub endpoints: usize,
    /// Endpoints that remain reachable.
    pub remaining: usize,
}

impl ServiceRef {
    /// No endpoint remains.
    pub fn down(&self) -> bool {
        self.remaining == 0
    }
}

/// The blast radius of a removal, per PRODUCT.md.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BlastRadius {
    /// Removed devices.
    pub removed_devices: Vec<String>,
    /// Removed interfaces (`device:ifname`), beyond those of removed devices.
    pub removed_interfaces: Vec<String>,
    /// Removed links (`a:if – b:if`).
    pub removed_links: Vec<String>,
    /// Devices with no path to an anchor any more.
    pub isolated: Vec<String>,
    /// Devices still connected whose every path now crosses a single device or link.
    pub degraded: Vec<String>,
    /// Sessions lost.
    pub sessions_lost: Vec<SessionRef>,
    /// External peers (by AS) with every session gone.
    pub external_peers_lost: Vec<String>,
    /// Prefixes originated only by removed or isolated devices.
    pub prefixes_withdrawn: Vec<String>,
    /// Services with an endpoint on a removed or isolated element.
    pub services_affected: Vec<ServiceRef>,
    /// No device has a border, core, edge or spine role and no external peer is known:
    /// which devices a change cuts off cannot be computed (isolated is unknown, not none).
    pub isolation_unknown: bool,
}

impl BlastRadius {
    /// The blast-radius number: removed + isolated devices.
    pub fn number(&self) -> usize {
        self.removed_devices.len() + self.isolated.len()
    }
}

/// Node kinds of the analysis graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Device(usize),
    Peer(u32),
    Super,
}

struct Built {
    g: UnGraph<Node, ()>,
    dev_node: Vec<Option<NodeIndex>>,
    sup: NodeIndex,
}

impl Network {
    /// Fills in everything that hangs on the removed elements.
    pub fn expand(&self, r: &Removal) -> Removal {
        let mut out = r.clone();
        for (i, l) in self.links.iter().enumerate() {
            let gone = |side: &(usize, String)| {
                out.devices.contains(&side.0) || out.interfaces.contains(side)
            };
            if gone(&l.a) || gone(&l.b) {
                out.links.insert(i);
            }
        }
        let ifs: HashSet<(usize, &str)> = out
            .interfaces
            .iter()
            .map(|(d, i)| (*d, i.as_str()))
            .collect();
        let removed_addrs: HashSet<IpAddr> = self
            .addresses
            .iter()
            .filter(|(d, i, _)| out.devices.contains(d) || ifs.contains(&(*d, &**i)))
            .map(|(_, _, n)| n.addr())
            .collect();
        for (i, s) in self.sessions.iter().enumerate() {
            let local_gone = out.devices.contains(&s.device)
                || s.local_interface.as_ref().is_some_and(|li| {
                    out.interfaces
                        .iter()
                        .any(|(d, n)| *d == s.device && crate::ifname::same(li, n))
                });
            let peer_gone = s.peer_device.is_some_and(|p| out.devices.contains(&p))
                || removed_addrs.contains(&s.peer);
            if local_gone || peer_gone {
                out.sessions.insert(i);
            }
        }
        out
    }

    fn build(&self, r: &Removal) -> Built {
        let mut g = UnGraph::new_undirected();
        let sup = g.add_node(Node::Super);
        let mut dev_node = vec![None; self.devices.len()];
        for (i, d) in self.devices.iter().enumerate() {
            if r.devices.contains(&i) {
                continue;
            }
            let n = g.add_node(Node::Device(i));
            dev_node[i] = Some(n);
            if d.anchor {
                g.add_edge(sup, n, ());
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            if r.links.contains(&i) {
                continue;
            }
            if let (Some(a), Some(b)) = (dev_node[l.a.0], dev_node[l.b.0]) {
                g.add_edge(a, b, ());
            }
        }
        let mut peers: HashMap<u32, NodeIndex> = HashMap::new();
        for (i, s) in self.sessions.iter().enumerate() {
            if r.sessions.contains(&i) || s.shutdown || s.peer_device.is_some() {
                continue;
            }
            let (Some(asn), Some(d)) = (s.peer_asn, dev_node[s.device]) else {
                continue;
            };
            let p = *peers.entry(asn).or_insert_with(|| {
                let p = g.add_node(Node::Peer(asn));
                g.add_edge(sup, p, ());
                p
            });
            g.add_edge(d, p, ());
        }
        Built { g, dev_node, sup }
    }

    /// The blast radius of removing `r` (expanded first).
    pub fn blast_radius(&self, r: &Removal) -> BlastRadius {
        let r = self.expand(r);
        // The network before and after the removal are two graphs of their own, each
        // walked on a thread of its own.
        let judged = |r: &Removal| {
            let g = self.build(r);
            let reach = graph::reachable(&g.g, [g.sup]);
            let prot = graph::protected_by(&g.g, g.sup);
            (g, reach, prot)
        };
        let ((before, reach_before, prot_before), (after, reach, prot_after)) =
            crate::parallel::both(|| judged(&Removal::default()), || judged(&r));
        let mut br = BlastRadius {
            isolation_unknown: !self.devices.iter().any(|d| d.anchor)
                && self.external_peers().is_empty(),
            ..BlastRadius::default()
        };
        let mut gone: BTreeSet<usize> = r.devices.clone();
        for (i, d) in self.devices.iter().enumerate() {
            let Some(n) = after.dev_node[i] else {
                br.removed_devices.push(d.hostname.clone());
                continue;
            };
            if !reach[n.index()] {
                // Only what this removal cuts off: a device already cut off is not its doing.
                if before.dev_node[i].is_some_and(|b| reach_before[b.index()]) {
                    br.isolated.push(d.hostname.clone());
                    gone.insert(i);
                }
                continue;
            }
            let was = before.dev_node[i].is_some_and(|b| prot_before[b.index()]);
            if !d.anchor && was && !prot_after[n.index()] {
                br.degraded.push(d.hostname.clone());
            }
        }
        for (d, i) in &r.interfaces {
            if !r.devices.contains(d) {
                br.removed_interfaces
                    .push(format!("{}:{i}", self.devices[*d].hostname));
            }
        }
        for &li in &r.links {
            let l = &self.links[li];
            br.removed_links.push(format!(
                "{}:{} – {}:{}",
                self.devices[l.a.0].hostname, l.a.1, self.devices[l.b.0].hostname, l.b.1
            ));
        }
        // Sessions of isolated devices are lost too: they no longer reach anything.
        let lost: BTreeSet<usize> = self
            .sessions
            .iter()
            .enumerate()
            .filter(|(i, s)| r.sessions.contains(i) || gone.contains(&s.device))
            .map(|(i, _)| i)
            .collect();
        br.sessions_lost = lost
            .iter()
            .map(|&i| {
                let s = &self.sessions[i];
                SessionRef {
                    hostname: self.devices[s.device].hostname.clone(),
                    peer: s.peer.to_string(),
                    peer_asn: s.peer_asn,
                }
            })
            .collect();
        br.sessions_lost.sort();
        for (asn, sessions) in self.external_peers() {
            if sessions
                .iter()
                .all(|i| lost.contains(i) || self.sessions[*i].shutdown)
            {
                br.external_peers_lost
                    .push(format!("{} (AS{asn})", self.peer_name(asn)));
            }
        }
        // The prefixes of what is gone, then whether anything left still has them.
        let ifs: HashSet<(usize, &str)> =
            r.interfaces.iter().map(|(d, i)| (*d, i.as_str())).collect();
        // A port taken down takes its units and subinterfaces (`xe-0/1/2.0`, `Gi0/1.100`).
        let on_gone = |d: &usize, i: &str| {
            gone.contains(d)
                || ifs.contains(&(*d, i))
                || i.split_once('.')
                    .is_some_and(|(port, _)| ifs.contains(&(*d, port)))
        };
        let mut candidates: HashSet<IpNet> = self
            .addresses
            .iter()
            .filter(|(d, i, n)| n.prefix_len() < n.max_prefix_len() && on_gone(d, i))
            .map(|(_, _, n)| n.trunc())
            .chain(
                self.bgp_networks
                    .iter()
                    .filter(|(d, _)| gone.contains(d))
                    .map(|(_, p)| p.trunc()),
            )
            .collect();
        let surviving: HashSet<IpNet> = self
            .addresses
            .iter()
            .filter(|(d, i, _)| !on_gone(d, i))
            .map(|(_, _, n)| n.trunc())
            .chain(
                self.bgp_networks
                    .iter()
                    .filter(|(d, _)| !gone.contains(d))
                    .map(|(_, p)| p.trunc()),
            )
            .filter(|p| candidates.contains(p))
            .collect();
        candidates.retain(|p| !surviving.contains(p));
        let withdrawn: BTreeSet<IpNet> = candidates.into_iter().collect();
        br.prefixes_withdrawn = withdrawn.iter().map(|p| p.to_string()).collect();
        for s in &self.services {
            let lost = s
                .endpoints
                .iter()
                .filter(|e| match e {
                    Endpoint::Device(d) => gone.contains(d),
                    Endpoint::Interface(d, i) => on_gone(d, i),
                    Endpoint::Prefix(p) => withdrawn.iter().any(|w| w.contains(p)),
                })
                .count();
            if lost > 0 {
                br.services_affected.push(ServiceRef {
                    name: s.name.clone(),
                    criticality: s.criticality.clone(),
                    endpoints: s.endpoints.len(),
                    remaining: s.endpoints.len() - lost,
                });
            }
        }
        br
    }

    /// How an external peer AS is reached: sessions, and the single devices and links
    /// whose loss alone would cut the network off from it.
    pub fn redundancy_to_peer(&self, asn: u32, extra_sessions: &[Session]) -> PeerRedundancy {
        let mut net = self.clone();
        net.sessions.extend(extra_sessions.iter().cloned());
        let b = net.build(&Removal::default());
        let peer = b.g.node_indices().find(|n| b.g[*n] == Node::Peer(asn));
        let sessions: Vec<&Session> = net
            .sessions
            .iter()
            .filter(|s| s.peer_asn == Some(asn) && s.peer_device.is_none() && !s.shutdown)
            .collect();
        let mut out = PeerRedundancy {
            peer: format!("{} (AS{asn})", net.peer_name(asn)),
            sessions: sessions
                .iter()
                .map(|s| {
                    format!(
                        "{} {} via {}",
                        net.devices[s.device].hostname,
                        s.peer,
                        s.local_interface.as_deref().unwrap_or("?")
                    )
                })
                .collect(),
            single_points: Vec::new(),
        };
        let Some(peer) = peer else {
            return out;
        };
        // Separate the peer from the inside of the network: a core device, else any other anchor.
        let mut g = b.g.clone();
        let inside = g.add_node(Node::Super);
        let mut any = false;
        for (i, d) in net.devices.iter().enumerate() {
            let hosts_session = sessions.iter().any(|s| s.device == i);
            if d.anchor && !hosts_session {
                if let Some(n) = b.dev_node[i] {
                    g.add_edge(inside, n, ());
                    any = true;
                }
            }
        }
        // The virtual super node joins every anchor; without removing it the peer looks redundant.
        g.remove_node(b.sup);
        if !any {
            return out;
        }
        let peer = g
            .node_indices()
            .find(|n| g[*n] == Node::Peer(asn))
            .unwrap_or(peer);
        let inside = g
            .node_indices()
            .rev()
            .find(|n| g[*n] == Node::Super)
            .unwrap_or(inside);
        let (nodes, edges) = graph::separators(&g, peer, inside);
        for n in nodes {
            if let Node::Device(d) = g[n] {
                out.single_points
                    .push(format!("device {}", net.devices[d].hostname));
            }
        }
        for e in edges {
            if let Some((a, bb)) = g.edge_endpoints(e) {
                let name = |n: NodeIndex| match g[n] {
                    Node::Device(d) => net.devices[d].hostname.clone(),
                    Node::Peer(asn) => format!("AS{asn}"),
                    Node::Super => "inside".to_owned(),
                };
                let (x, y) = (name(a), name(bb));
                let kind = if matches!(g[a], Node::Peer(_)) || matches!(g[bb], Node::Peer(_)) {
                    "session"
                } else {
                    "link"
                };
                out.single_points.push(format!("{kind} {x} – {y}"));
            }
        }
        out
    }
}

/// Redundancy towards one external peer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PeerRedundancy {
    /// `Name (ASn)`.
    pub peer: String,
    /// Sessions: `device address via interface`.
    pub sessions: Vec<String>,
    /// Single points of failure between the peer and the core.
    pub single_points: Vec<String>,
}
