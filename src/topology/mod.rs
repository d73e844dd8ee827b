//! The network as a graph, and the blast radius of removing elements from it, as
//! PRODUCT.md defines it. This is the analyzer's computation; the reporter checks it
//! with an implementation of its own.
//!
//! Graph: devices are nodes, links are edges (parallel links kept apart), external BGP
//! peers (one node per peer AS) attach where their sessions terminate. Anchors: border
//! and core devices and the external peers.

pub mod graph;

use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use petgraph::graph::{NodeIndex, UnGraph};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::net::IpAddr;

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
    /// Connected subnets: (device, interface, address).
    pub addresses: Vec<(usize, String, IpNet)>,
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
    /// Loads the network from the state DB.
    pub fn load(db: &StateDb) -> Result<Network, StateError> {
        let conn = db.conn();
        let e = |source| StateError::Sqlite {
            path: db.path().to_path_buf(),
            source,
        };
        let mut net = Network {
            state_version: db.state_version()?,
            ..Network::default()
        };
        let mut st = conn
            .prepare(
                "SELECT hostname, role, os FROM device WHERE status != 'offline' ORDER BY hostname",
            )
            .map_err(e)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(e)?;
        for row in rows {
            let (hostname, role, os) = row.map_err(e)?;
            net.index.insert(hostname.clone(), net.devices.len());
            net.devices.push(Device {
                anchor: is_anchor_role(role.as_deref()),
                hostname,
                role,
                os,
            });
        }
        let mut st = conn
            .prepare("SELECT hostname_a, ifname_a, hostname_b, ifname_b FROM link WHERE status = 'up' ORDER BY 1, 2, 3, 4")
            .map_err(e)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .map_err(e)?;
        for row in rows {
            let (ha, ia, hb, ib) = row.map_err(e)?;
            if let (Some(&a), Some(&b)) = (net.index.get(&ha), net.index.get(&hb)) {
                net.links.push(Link {
                    a: (a, ia),
                    b: (b, ib),
                });
            }
        }
        let mut st = conn
            .prepare(
                "SELECT hostname, ifname, address, prefix FROM ip_address WHERE kind != 'virtual'",
            )
            .map_err(e)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .map_err(e)?;
        let mut owner: HashMap<IpAddr, usize> = HashMap::new();
        let mut if_of: HashMap<(usize, IpAddr), String> = HashMap::new();
        for row in rows {
            let (h, i, a, p) = row.map_err(e)?;
            let (Some(&d), Ok(addr), Ok(prefix)) =
                (net.index.get(&h), a.parse::<IpAddr>(), p.parse::<IpNet>())
            else {
                continue;
            };
            owner.insert(addr, d);
            if_of.insert((d, addr), i.clone());
            if let Ok(n) = IpNet::new(addr, prefix.prefix_len()) {
                net.addresses.push((d, i, n));
            }
        }
        let mut st = conn
            .prepare(
                "SELECT hostname, vrf, peer_address, peer_asn, description, local_ip, update_source, shutdown
                 FROM bgp_session WHERE peer_address IS NOT NULL ORDER BY hostname, source_line",
            )
            .map_err(e)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<u32>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, bool>(7)?,
                ))
            })
            .map_err(e)?;
        for row in rows {
            let (h, vrf, peer, asn, description, local_ip, update_source, shutdown) =
                row.map_err(e)?;
            let (Some(&d), Ok(peer)) = (net.index.get(&h), peer.parse::<IpAddr>()) else {
                continue;
            };
            let local_interface = update_source.or_else(|| {
                let ip: IpAddr = local_ip?.parse().ok()?;
                if_of.get(&(d, ip)).cloned()
            });
            net.sessions.push(Session {
                device: d,
                vrf,
                peer,
                peer_asn: asn,
                description,
                local_interface,
                peer_device: owner.get(&peer).copied(),
                shutdown,
            });
        }
        let mut st = conn
            .prepare("SELECT hostname, prefix FROM bgp_network")
            .map_err(e)?;
        let rows = st
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .map_err(e)?;
        for row in rows {
            let (h, p) = row.map_err(e)?;
            if let (Some(&d), Ok(p)) = (net.index.get(&h), p.parse()) {
                net.bgp_networks.push((d, p));
            }
        }
        let mut st = conn
            .prepare(
                "SELECT s.name, s.kind, s.criticality, e.hostname, e.ifname, e.prefix
                 FROM service s LEFT JOIN service_endpoint e ON e.service = s.name ORDER BY s.name",
            )
            .map_err(e)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<String>>(5)?,
                ))
            })
            .map_err(e)?;
        for row in rows {
            let (name, kind, crit, h, i, p) = row.map_err(e)?;
            if net.services.last().is_none_or(|s| s.name != name) {
                net.services.push(Service {
                    name,
                    kind,
                    criticality: crit,
                    endpoints: Vec::new(),
                });
            }
            let ep = match (h.as_ref().and_then(|h| net.index.get(h)), i, p) {
                (Some(&d), Some(i), _) => Some(Endpoint::Interface(d, i)),
                (Some(&d), None, _) => Some(Endpoint::Device(d)),
                (None, _, Some(p)) => p.parse().ok().map(Endpoint::Prefix),
                _ => None,
            };
            if let (Some(ep), Some(s)) = (ep, net.services.last_mut()) {
                s.endpoints.push(ep);
            }
        }
        Ok(net)
    }

    /// Device index by hostname.
    pub fn device(&self, hostname: &str) -> Option<usize> {
        self.index.get(hostname).copied()
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
        self.sessions
            .iter()
            .filter(|s| s.peer_asn == Some(asn) && s.peer_device.is_none())
            .find_map(|s| {
                s.description
                    .as_deref()?
                    .split_whitespace()
                    .next()
                    .map(str::to_owned)
            })
            .unwrap_or_else(|| format!("AS{asn}"))
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
        let removed_addrs: HashSet<IpAddr> = self
            .addresses
            .iter()
            .filter(|(d, i, _)| {
                out.devices.contains(d) || out.interfaces.contains(&(*d, i.clone()))
            })
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
        let before = self.build(&Removal::default());
        let after = self.build(&r);
        let reach = graph::reachable(&after.g, [after.sup]);
        let reach_before = graph::reachable(&before.g, [before.sup]);
        let prot_before = graph::protected_by(&before.g, before.sup);
        let prot_after = graph::protected_by(&after.g, after.sup);
        let mut br = BlastRadius::default();
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
        let surviving: HashSet<IpNet> = self
            .addresses
            .iter()
            .filter(|(d, i, _)| !gone.contains(d) && !r.interfaces.contains(&(*d, i.clone())))
            .map(|(_, _, n)| n.trunc())
            .chain(
                self.bgp_networks
                    .iter()
                    .filter(|(d, _)| !gone.contains(d))
                    .map(|(_, p)| p.trunc()),
            )
            .collect();
        let mut withdrawn: BTreeSet<IpNet> = BTreeSet::new();
        for (d, i, n) in &self.addresses {
            let on_gone = gone.contains(d) || r.interfaces.contains(&(*d, i.clone()));
            if on_gone && n.prefix_len() < n.max_prefix_len() && !surviving.contains(&n.trunc()) {
                withdrawn.insert(n.trunc());
            }
        }
        for (d, p) in &self.bgp_networks {
            if gone.contains(d) && !surviving.contains(&p.trunc()) {
                withdrawn.insert(p.trunc());
            }
        }
        br.prefixes_withdrawn = withdrawn.iter().map(|p| p.to_string()).collect();
        for s in &self.services {
            let lost = s
                .endpoints
                .iter()
                .filter(|e| match e {
                    Endpoint::Device(d) => gone.contains(d),
                    Endpoint::Interface(d, i) => {
                        gone.contains(d) || r.interfaces.contains(&(*d, i.clone()))
                    }
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
