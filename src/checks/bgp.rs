//! BGP session compatibility, as Batfish's bgpSessionCompatibility question defines it:
//! one row per configured peering (per compatible remote for dynamic ones), with
//! Batfish's columns, session types and status names.

use super::model::Model;
use crate::model::{AddressKind, BgpNeighbor, BgpPeer, Interface};
use serde::{Deserialize, Serialize};
use std::net::IpAddr;

/// Batfish's session types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SessionType {
    /// Same AS on both sides.
    Ibgp,
    /// eBGP between directly connected peers.
    EbgpSinglehop,
    /// eBGP with ebgp-multihop.
    EbgpMultihop,
}

impl SessionType {
    /// Batfish's name.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionType::Ibgp => "IBGP",
            SessionType::EbgpSinglehop => "EBGP_SINGLEHOP",
            SessionType::EbgpMultihop => "EBGP_MULTIHOP",
        }
    }
}

/// Batfish's configured-status names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    /// Exactly one compatible remote peering.
    UniqueMatch,
    /// A dynamic (listen-range) peering with a compatible remote.
    DynamicMatch,
    /// No local AS.
    NoLocalAs,
    /// No remote AS.
    NoRemoteAs,
    /// eBGP single-hop with no interface facing the peer.
    NoLocalIp,
    /// iBGP or multihop without an update-source, peer not directly connected.
    LocalIpUnknownStatically,
    /// The local IP belongs to no active interface.
    InvalidLocalIp,
    /// The remote IP is not in the network.
    UnknownRemote,
    /// The remote device has no compatible peering back.
    HalfOpen,
    /// More than one compatible remote peering.
    MultipleRemotes,
    /// A dynamic peering with no compatible remote.
    NoMatchFound,
}

impl Status {
    /// Batfish's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::UniqueMatch => "UNIQUE_MATCH",
            Status::DynamicMatch => "DYNAMIC_MATCH",
            Status::NoLocalAs => "NO_LOCAL_AS",
            Status::NoRemoteAs => "NO_REMOTE_AS",
            Status::NoLocalIp => "NO_LOCAL_IP",
            Status::LocalIpUnknownStatically => "LOCAL_IP_UNKNOWN_STATICALLY",
            Status::InvalidLocalIp => "INVALID_LOCAL_IP",
            Status::UnknownRemote => "UNKNOWN_REMOTE",
            Status::HalfOpen => "HALF_OPEN",
            Status::MultipleRemotes => "MULTIPLE_REMOTES",
            Status::NoMatchFound => "NO_MATCH_FOUND",
        }
    }
}

/// One row: Batfish's columns.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Session {
    /// Node.
    pub node: String,
    /// VRF.
    pub vrf: String,
    /// Local AS.
    pub local_as: Option<u32>,
    /// Local interface (single-hop).
    pub local_interface: Option<String>,
    /// Local IP.
    pub local_ip: Option<String>,
    /// Remote AS.
    pub remote_as: Option<u32>,
    /// Remote node.
    pub remote_node: Option<String>,
    /// Remote interface.
    pub remote_interface: Option<String>,
    /// Remote IP (or the listen range for dynamic peerings; empty for unnumbered ones,
    /// which Batfish shows without one and names by `local_interface`).
    pub remote_ip: String,
    /// Session type.
    pub session_type: Option<SessionType>,
    /// Status.
    pub configured_status: Status,
}

impl Session {
    /// Whether the status is a problem. UNKNOWN_REMOTE is not one for an eBGP peer:
    /// the peer is outside the network by design (a provider, a customer).
    pub fn is_problem(&self) -> bool {
        match self.configured_status {
            Status::UniqueMatch | Status::DynamicMatch => false,
            Status::UnknownRemote => self.session_type == Some(SessionType::Ibgp),
            _ => true,
        }
    }
}

/// What a device offers as the far end of a session.
struct End<'a> {
    dev: usize,
    vrf: String,
    n: &'a BgpNeighbor,
    /// The AS numbers the device presents to this neighbor.
    local_as: Vec<u32>,
    local_ip: Option<IpAddr>,
}

/// Where an address is owned: device, interface, VRF.
struct Owner<'a> {
    dev: usize,
    iface: &'a str,
    vrf: &'a str,
}

fn vrf_name(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "default".into())
}

/// Address → its owners (active interfaces, non-virtual addresses), in every VRF: VRF
/// names are device-local, so a peering may cross from one VRF name to another. Sorted
/// by address (owners of one address in device order), looked up by binary search.
struct Owners<'a>(Vec<(IpAddr, Owner<'a>)>);

impl<'a> Owners<'a> {
    fn get(&self, ip: &IpAddr) -> Option<&[(IpAddr, Owner<'a>)]> {
        let start = self.0.partition_point(|(a, _)| a < ip);
        let end = start + self.0[start..].partition_point(|(a, _)| a == ip);
        (end > start).then(|| &self.0[start..end])
    }
}

/// Each device's SVIs autostate holds down (no active port carries their VLAN,
/// [`crate::routing::autostate::down_svis`]): while down they own no address, as on the
/// device (`nxos_l3_vlan_no_active_member`: the iBGP session over such a `Vlan2000` is
/// Idle).
struct Down<'a>(Vec<&'a [String]>);

impl<'a> Down<'a> {
    fn of(m: &'a Model) -> Down<'a> {
        Down(m.devices.iter().map(|d| d.down_svis.as_slice()).collect())
    }

    /// Whether device `dev`'s interface `i` is up: administratively, and by autostate.
    fn up(&self, dev: usize, i: &Interface) -> bool {
        i.admin_up && !self.0[dev].contains(&i.name)
    }
}

fn owners<'a>(m: &'a Model, down: &Down<'_>) -> Owners<'a> {
    let mut o: Vec<(IpAddr, Owner<'_>)> = Vec::with_capacity(m.devices.len() * 8);
    for (di, d) in m.devices.iter().enumerate() {
        for i in d.config.interfaces.iter().filter(|i| down.up(di, i)) {
            for a in i
                .addresses
                .iter()
                .filter(|a| a.kind != AddressKind::Virtual)
            {
                o.push((
                    a.address.addr(),
                    Owner {
                        dev: di,
                        iface: &i.name,
                        vrf: i.vrf.as_deref().unwrap_or("default"),
                    },
                ));
            }
        }
    }
    // Stable: the owners of one address stay in device order.
    o.sort_by_key(|(a, _)| *a);
    Owners(o)
}

fn owns(own: &Owners<'_>, ip: IpAddr, dev: usize, vrf: &str) -> bool {
    own.get(&ip)
        .is_some_and(|v| v.iter().any(|(_, o)| o.dev == dev && o.vrf == vrf))
}

/// The local interface and IP of a peering, or the status saying why there is none.
fn local_end(
    m: &Model,
    di: usize,
    n: &BgpNeighbor,
    stype: SessionType,
    own: &Owners<'_>,
    down: &Down<'_>,
) -> Result<(Option<String>, IpAddr), Status> {
    let d = &m.devices[di];
    let vrf = n.vrf.clone().unwrap_or_else(|| "default".into());
    let peer_v4 = match &n.peer {
        BgpPeer::Address(a) => a.is_ipv4(),
        BgpPeer::ListenRange(r) => r.addr().is_ipv4(),
        // Unnumbered peerings use IPv6 link-local addresses no config names.
        BgpPeer::Interface(_) => return Err(Status::NoLocalIp),
    };
    if n.local_address_unknown {
        return Err(Status::LocalIpUnknownStatically);
    }
    // Junos `local-address`: the address itself is the source, owned or not.
    if let Some(ip) = n.local_address {
        return if owns(own, ip, di, &vrf) {
            Ok((None, ip))
        } else {
            Err(Status::InvalidLocalIp)
        };
    }
    if let Some(src) = &n.update_source {
        let iface = d
            .config
            .interfaces
            .iter()
            .find(|i| crate::ifname::same(src, &i.name));
        let addr = iface.filter(|i| down.up(di, i)).and_then(|i| {
            i.addresses
                .iter()
                .find(|a| a.kind == AddressKind::Primary && a.address.addr().is_ipv4() == peer_v4)
        });
        return match addr {
            Some(a) if owns(own, a.address.addr(), di, &vrf) => Ok((None, a.address.addr())),
            _ => Err(Status::InvalidLocalIp),
        };
    }
    // No update-source: the interface whose subnet holds the peer, as Batfish infers it.
    if let BgpPeer::Address(peer) = &n.peer {
        for i in
            d.config.interfaces.iter().filter(|i| {
                down.up(di, i) && i.vrf.clone().unwrap_or_else(|| "default".into()) == vrf
            })
        {
            if let Some(a) = i.addresses.iter().find(|a| {
                a.kind != AddressKind::Virtual
                    && a.address.contains(peer)
                    && a.address.addr() != *peer
            }) {
                return Ok((Some(i.name.clone()), a.address.addr()));
            }
        }
    }
    Err(match stype {
        SessionType::EbgpSinglehop => Status::NoLocalIp,
        _ => Status::LocalIpUnknownStatically,
    })
}

/// The far end of device `di`'s interface `ifname` when a point-to-point link joins them:
/// each end's only link leads to the other, and the far interface is up.
fn point_to_point(m: &Model, di: usize, ifname: &str, down: &Down<'_>) -> Option<(usize, String)> {
    let host = &m.devices[di].hostname;
    let (far_host, far_if) = *m.devices[di]
        .config
        .interfaces
        .iter()
        .find(|i| i.name == ifname)?
        .linked_to
        .clone()?;
    let fd = m
        .devices
        .binary_search_by(|d| d.hostname.as_str().cmp(far_host.as_str()))
        .ok()?;
    m.devices[fd]
        .config
        .interfaces
        .iter()
        .any(|i| {
            i.name == far_if
                && down.up(fd, i)
                && i.linked_to
                    .as_deref()
                    .is_some_and(|(h, n)| h == host && n == ifname)
        })
        .then_some((fd, far_if))
}

fn session_type(local_as: &[u32], remote_as: u32, n: &BgpNeighbor) -> SessionType {
    if local_as.contains(&remote_as) {
        SessionType::Ibgp
    } else if n.ebgp_multihop.is_some() {
        SessionType::EbgpMultihop
    } else {
        SessionType::EbgpSinglehop
    }
}

/// Every configured peering with its status.
pub fn compatibility(m: &Model) -> Vec<Session> {
    compatibility_of(m, |_| true)
}

/// The peerings of the devices `of` selects (by number), matched against every device of
/// `m`: a candidate's scoped checks want a few devices' rows out of thousands read.
pub(crate) fn compatibility_of(m: &Model, of: impl Fn(usize) -> bool) -> Vec<Session> {
    let down = Down::of(m);
    let own = owners(m, &down);
    // Every active peering's local end, to match remotes against.
    let mut ends: Vec<End<'_>> = Vec::new();
    for (di, d) in m.devices.iter().enumerate() {
        let Some(bgp) = &d.config.bgp else { continue };
        for n in bgp.neighbors.iter().filter(|n| !n.shutdown) {
            let local_as = bgp.presented_as(n);
            let local_ip = match n.peer_asn {
                Some(ra) if !local_as.is_empty() => {
                    local_end(m, di, n, session_type(&local_as, ra, n), &own, &down)
                        .ok()
                        .map(|(_, ip)| ip)
                }
                _ => None,
            };
            ends.push(End {
                dev: di,
                vrf: vrf_name(&n.vrf),
                n,
                local_as,
                local_ip,
            });
        }
    }
    // Ends are pushed in device order: `ends[start[d]..start[d + 1]]` are device d's.
    let mut start = vec![0usize; m.devices.len() + 1];
    for e in &ends {
        start[e.dev + 1] += 1;
    }
    for d in 0..m.devices.len() {
        start[d + 1] += start[d];
    }
    let ends_of = |dev: usize| &ends[start[dev]..start[dev + 1]];
    let mut out = Vec::new();
    for (di, d) in m.devices.iter().enumerate().filter(|(di, _)| of(*di)) {
        let Some(bgp) = &d.config.bgp else { continue };
        for n in bgp.neighbors.iter().filter(|n| !n.shutdown) {
            let vrf = vrf_name(&n.vrf);
            let la = bgp.presented_as(n);
            let mut row = Session {
                node: d.hostname.clone(),
                vrf: vrf.clone(),
                local_as: la.first().copied(),
                local_interface: None,
                local_ip: None,
                remote_as: n.peer_asn,
                remote_node: None,
                remote_interface: None,
                remote_ip: n.peer.to_string(),
                session_type: None,
                configured_status: Status::UniqueMatch,
            };
            if la.is_empty() {
                row.configured_status = Status::NoLocalAs;
                out.push(row);
                continue;
            };
            // A listen range with a peer filter accepts a set of AS numbers: the remote
            // AS (and the session's type) is each dynamic peer's own.
            let filtered = n.peer_asn.is_none() && n.peer_filter.is_some();
            if n.peer_asn.is_none() && !filtered {
                row.configured_status = Status::NoRemoteAs;
                out.push(row);
                continue;
            }
            let stype = n.peer_asn.map(|ra| session_type(&la, ra, n));
            // Both ends agree on each other's AS numbers.
            let as_compatible = |e: &End<'_>| e.n.accepts_as(&la) && n.accepts_as(&e.local_as);
            row.session_type = stype;
            match &n.peer {
                BgpPeer::Interface(name) => {
                    // Unnumbered: the peer on the far end of a point-to-point link whose
                    // own unnumbered peering names that end (Batfish's rule).
                    let local = d
                        .config
                        .interfaces
                        .iter()
                        .find(|i| crate::ifname::same(name, &i.name));
                    row.local_interface =
                        Some(local.map_or_else(|| name.clone(), |i| i.name.clone()));
                    row.remote_ip = String::new();
                    let far = local
                        .filter(|i| down.up(di, i))
                        .and_then(|i| point_to_point(m, di, &i.name, &down));
                    let compatible = far.as_ref().map_or(0, |(fd, fi)| {
                        ends_of(*fd)
                            .iter()
                            .filter(|e| as_compatible(e))
                            .filter(|e| {
                                matches!(&e.n.peer, BgpPeer::Interface(x) if crate::ifname::same(x, fi))
                            })
                            .count()
                    });
                    if let Some((fd, fi)) = far {
                        row.remote_node = Some(m.devices[fd].hostname.clone());
                        row.remote_interface = Some(fi);
                    }
                    row.configured_status = match compatible {
                        0 => Status::HalfOpen,
                        1 => Status::UniqueMatch,
                        _ => Status::MultipleRemotes,
                    };
                    out.push(row);
                }
                BgpPeer::ListenRange(range) => {
                    // Dynamic: one row per active remote peering inside the range that points back.
                    let mut any = false;
                    // A configured neighbor for an address takes precedence over the
                    // range (IOS, EOS, NX-OS): no dynamic peer is made for it.
                    let configured: std::collections::HashSet<IpAddr> = bgp
                        .neighbors
                        .iter()
                        .filter(|o| !o.shutdown && vrf_name(&o.vrf) == vrf)
                        .filter_map(|o| match o.peer {
                            BgpPeer::Address(a) => Some(a),
                            _ => None,
                        })
                        .collect();
                    for e in &ends {
                        let (Some(rip), BgpPeer::Address(back)) = (e.local_ip, &e.n.peer) else {
                            continue;
                        };
                        let points_back = d
                            .config
                            .interfaces
                            .iter()
                            .any(|i| i.addresses.iter().any(|a| a.address.addr() == *back));
                        if e.dev != di
                            && range.contains(&rip)
                            && points_back
                            && !configured.contains(&rip)
                            && as_compatible(e)
                        {
                            any = true;
                            let mut r = row.clone();
                            if filtered {
                                r.remote_as = e.local_as.first().copied();
                                r.session_type = r.remote_as.map(|ra| session_type(&la, ra, n));
                            }
                            r.remote_node = Some(m.devices[e.dev].hostname.clone());
                            r.remote_ip = rip.to_string();
                            r.local_ip = Some(back.to_string());
                            r.configured_status = Status::DynamicMatch;
                            out.push(r);
                        }
                    }
                    if !any {
                        row.configured_status = Status::NoMatchFound;
                        out.push(row);
                    }
                }
                BgpPeer::Address(peer) => {
                    // An address neighbor has its remote AS (a filter is a range's).
                    let Some(stype) = stype else { continue };
                    let (lif, lip) = match local_end(m, di, n, stype, &own, &down) {
                        Ok(v) => v,
                        Err(status) => {
                            row.configured_status = status;
                            out.push(row);
                            continue;
                        }
                    };
                    row.local_interface = lif;
                    row.local_ip = Some(lip.to_string());
                    let Some(remotes) = own.get(peer).filter(|r| !r.is_empty()) else {
                        row.configured_status = Status::UnknownRemote;
                        out.push(row);
                        continue;
                    };
                    // Candidates sit in a VRF where their device owns the peer address,
                    // point back at our local address, and agree on the AS numbers.
                    let mut devs: Vec<usize> = remotes.iter().map(|(_, o)| o.dev).collect();
                    devs.sort_unstable();
                    devs.dedup();
                    let mut compatible: Vec<&End<'_>> = devs
                        .iter()
                        .flat_map(|&dev| ends_of(dev))
                        .filter(|e| {
                            remotes
                                .iter()
                                .any(|(_, o)| o.dev == e.dev && o.vrf == e.vrf)
                        })
                        .filter(|e| match &e.n.peer {
                            BgpPeer::Address(a) => *a == lip,
                            BgpPeer::ListenRange(r) => r.contains(&lip),
                            BgpPeer::Interface(_) => false,
                        })
                        .filter(|e| as_compatible(e))
                        .filter(|e| e.local_ip.is_none_or(|ip| ip == *peer))
                        // A remote whose source the configuration does not name cannot
                        // be said to point back from the address we peer with.
                        .filter(|e| !e.n.local_address_unknown)
                        .collect();
                    // A configured neighbor takes precedence over a listen range covering
                    // the same address on that device and VRF.
                    let configured: Vec<(usize, String)> = compatible
                        .iter()
                        .filter(|e| matches!(e.n.peer, BgpPeer::Address(_)))
                        .map(|e| (e.dev, e.vrf.clone()))
                        .collect();
                    compatible.retain(|e| {
                        !matches!(e.n.peer, BgpPeer::ListenRange(_))
                            || !configured.contains(&(e.dev, e.vrf.clone()))
                    });
                    // The same address pair reused once per VRF (MLAG peers peering per
                    // VRF over per-VRF SVIs): the session in the same-named VRF is the one.
                    if compatible.len() > 1 && compatible.iter().any(|e| e.vrf == vrf) {
                        compatible.retain(|e| e.vrf == vrf);
                    }
                    // One subnet reused on separate links (the same addresses on several
                    // devices): the device the local interface's link leads to is the peer.
                    if compatible.len() > 1 {
                        // The local interface: named, or the one holding the source
                        // address (a `local-address`).
                        let far = d
                            .config
                            .interfaces
                            .iter()
                            .find(|i| match row.local_interface.as_deref() {
                                Some(l) => i.name == l,
                                None => i.addresses.iter().any(|a| a.address.addr() == lip),
                            })
                            .and_then(|i| i.linked_to.as_deref())
                            .map(|(h, _)| h.as_str());
                        if let Some(far) = far {
                            if compatible.iter().any(|e| m.devices[e.dev].hostname == far) {
                                compatible.retain(|e| m.devices[e.dev].hostname == far);
                            }
                        }
                    }
                    let owner = &compatible
                        .first()
                        .and_then(|e| {
                            remotes
                                .iter()
                                .find(|(_, o)| o.dev == e.dev && o.vrf == e.vrf)
                        })
                        .unwrap_or(&remotes[0])
                        .1;
                    row.remote_node = Some(m.devices[owner.dev].hostname.clone());
                    row.remote_interface = Some(owner.iface.to_owned());
                    row.configured_status = match compatible.len() {
                        0 => Status::HalfOpen,
                        1 => Status::UniqueMatch,
                        _ => Status::MultipleRemotes,
                    };
                    out.push(row);
                }
            }
        }
    }
    out.sort();
    out
}
