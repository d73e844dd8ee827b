//! The BGP sessions that come up: both ends configured towards each other (the rules of
//! `checks::bgp`: the peer address owned by the far device, its neighbor statement
//! naming our source address, the AS numbers agreeing through `presented_as`), IPv4
//! unicast active on both, and each end's peer address reachable through its RIB before
//! BGP (a connected subnet for single-hop eBGP, any route for iBGP and multihop).

use super::{Speaker, Table};
use crate::model::{AddressKind, BgpNeighbor, BgpPeer, BgpProcess, DeviceConfig, Vendor};
use crate::routing::connected::vrf_name;
use crate::routing::route::{NextHop, Protocol};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};

/// One end of an established session, as its device sees it.
#[derive(Debug, Clone)]
pub struct End {
    /// The device's table (device, VRF) it belongs to.
    pub table: usize,
    /// The neighbor statement (index into the device's `bgp.neighbors`).
    pub neighbor: usize,
    /// The address this end speaks from (its next hop when it sets itself).
    pub local_ip: Ipv4Addr,
    /// The peer's address.
    pub peer_ip: Ipv4Addr,
    /// Whether the session is eBGP (outside the confederation, if any).
    pub ebgp: bool,
    /// Whether it joins two member ASes of one confederation (confederation eBGP: iBGP's
    /// attributes, the member AS in AS_CONFED_SEQUENCE).
    pub confed: bool,
    /// The far end (index into the ends).
    pub far: usize,
    /// A BGP unnumbered session's interface (EOS `neighbor interface`, FRR `neighbor
    /// swp1 interface`): the addresses are stand-ins in 0.0.0.0/8, no device's, and a
    /// route learned over it leaves by this interface.
    pub interface: Option<String>,
}

/// Whether the neighbor exchanges IPv4 unicast routes.
pub fn ipv4_unicast(vendor: Vendor, n: &BgpNeighbor) -> bool {
    if n.address_families.is_empty() {
        // Outside the default VRF IOS and EOS activate IPv4 with the neighbor; NX-OS
        // needs its address family.
        return n.vrf.is_some() && vendor != Vendor::CiscoNxos;
    }
    n.address_families
        .iter()
        .any(|a| a == "ipv4 unicast" || a == "ipv4" || a == "inet unicast" || a == "inet")
}

/// Whether the neighbor exchanges EVPN routes (`address-family evpn`, `l2vpn evpn`).
pub fn evpn(_vendor: Vendor, n: &BgpNeighbor) -> bool {
    n.address_families
        .iter()
        .any(|a| a == "evpn" || a == "l2vpn" || a == "l2vpn evpn")
}

/// The source address of a peering (update-source, `local-address`, else the interface
/// whose subnet holds the peer), in the neighbor's VRF.
fn local_ip(config: &DeviceConfig, n: &BgpNeighbor, peer: Ipv4Addr) -> Option<Ipv4Addr> {
    let v4 = |a: IpAddr| match a {
        IpAddr::V4(a) => Some(a),
        IpAddr::V6(_) => None,
    };
    if let Some(a) = n.local_address {
        return v4(a);
    }
    if n.local_address_unknown {
        return None;
    }
    let in_vrf = |i: &&crate::model::Interface| i.admin_up && i.vrf == n.vrf;
    if let Some(src) = &n.update_source {
        let i = config
            .interfaces
            .iter()
            .filter(in_vrf)
            .find(|i| crate::ifname::same(src, &i.name))?;
        return i
            .addresses
            .iter()
            .find(|a| a.kind == AddressKind::Primary && a.address.addr().is_ipv4())
            .and_then(|a| v4(a.address.addr()));
    }
    config
        .interfaces
        .iter()
        .filter(in_vrf)
        .flat_map(|i| i.addresses.iter())
        .find(|a| {
            a.kind != AddressKind::Virtual
                && a.address.contains(&IpAddr::V4(peer))
                && a.address.addr() != IpAddr::V4(peer)
        })
        .and_then(|a| v4(a.address.addr()))
}

/// Whether the device reaches `ip` in `vrf` before BGP: by a connected subnet only
/// (`connected`), else by any route but a discard one (longest match).
fn reaches(s: &Speaker<'_>, vrf: &str, ip: Ipv4Addr, connected: bool) -> bool {
    let rows = s.lookup.longest(vrf, ip, |_| true);
    rows.iter().any(|r| {
        if connected {
            matches!(r.protocol, Protocol::Connected | Protocol::Local)
        } else {
            r.next_hop != NextHop::Discard
        }
    })
}

/// The sessions between tables and what else their configuration says.
pub struct Established {
    /// The established sessions' ends, each pointing at the other.
    pub ends: Vec<End>,
    /// Peerings towards an address no device owns: a router outside the network whose
    /// routes olav cannot know. Each an end whose `far` is `usize::MAX` (no far end),
    /// `ebgp` when the peer AS is not the device's own.
    pub outside: Vec<End>,
    /// Tables configured towards each other, whether their session comes up or not.
    pub configured: Vec<(usize, usize)>,
}

/// The established sessions of the address family `family` says (a neighbor active in
/// it) between `tables` (one per device and VRF running BGP).
pub fn established(
    devices: &[Speaker<'_>],
    hostnames: &[&str],
    tables: &[Table],
    family: fn(Vendor, &BgpNeighbor) -> bool,
) -> Established {
    let table_of: HashMap<(usize, &str), usize> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| ((t.dev, t.vrf.as_str()), i))
        .collect();
    // Address → (device, VRF name) owning it on an up interface.
    let mut owners: HashMap<Ipv4Addr, Vec<(usize, String)>> = HashMap::new();
    for (d, dev) in devices.iter().enumerate() {
        for i in dev.config.interfaces.iter().filter(|i| i.admin_up) {
            for a in i
                .addresses
                .iter()
                .filter(|a| a.kind != AddressKind::Virtual)
            {
                if let IpAddr::V4(ip) = a.address.addr() {
                    owners.entry(ip).or_default().push((d, vrf_name(&i.vrf)));
                }
            }
        }
    }
    // Addresses of the network's devices on interfaces that are down (shut, or a port
    // olav holds down): a peering towards one is a session that does not come up, not a
    // router outside the network (a shut link's far end is still a known device).
    let held_down: std::collections::HashSet<Ipv4Addr> = devices
        .iter()
        .flat_map(|dev| dev.config.interfaces.iter())
        .flat_map(|i| i.addresses.iter())
        .filter(|a| a.kind != AddressKind::Virtual)
        .filter_map(|a| match a.address.addr() {
            IpAddr::V4(ip) => Some(ip),
            IpAddr::V6(_) => None,
        })
        .filter(|ip| !owners.contains_key(ip))
        .collect();
    // Every configured IPv4 peering with its source address: (device, neighbor, local, peer).
    struct Half<'a> {
        dev: usize,
        idx: usize,
        n: &'a BgpNeighbor,
        bgp: &'a BgpProcess,
        local: Ipv4Addr,
        peer: Ipv4Addr,
    }
    let mut halves: Vec<Half<'_>> = Vec::new();
    for (d, dev) in devices.iter().enumerate() {
        let Some(bgp) = &dev.config.bgp else { continue };
        for (idx, n) in bgp.neighbors.iter().enumerate() {
            let BgpPeer::Address(IpAddr::V4(peer)) = n.peer else {
                continue;
            };
            if n.shutdown
                || !family(dev.vendor, n)
                || (n.peer_asn.is_none() && n.peer_filter.is_none())
            {
                continue;
            }
            if let Some(local) = local_ip(dev.config, n, peer) {
                halves.push(Half {
                    dev: d,
                    idx,
                    n,
                    bgp,
                    local,
                    peer,
                });
            }
        }
    }
    // (device, VRF, local, peer): the same address pair may be reused once per VRF (MLAG
    // peers peering per VRF over per-VRF SVIs).
    let mut by_addr: HashMap<(usize, String, Ipv4Addr, Ipv4Addr), usize> = halves
        .iter()
        .enumerate()
        .map(|(i, h)| ((h.dev, vrf_name(&h.n.vrf), h.local, h.peer), i))
        .collect();
    // Dynamic neighbors: a listen range of the peer's device holding our source address
    // answers a peering no neighbor statement of its names.
    let mut dynamic: Vec<Half<'_>> = Vec::new();
    for a in &halves {
        for (bd, bvrf) in owners.get(&a.peer).into_iter().flatten() {
            if by_addr.contains_key(&(*bd, bvrf.clone(), a.peer, a.local)) {
                continue;
            }
            let Some(bgp) = &devices[*bd].config.bgp else {
                continue;
            };
            let range = bgp.neighbors.iter().enumerate().find(|(_, n)| {
                !n.shutdown
                    && vrf_name(&n.vrf) == *bvrf
                    && matches!(n.peer, BgpPeer::ListenRange(r) if r.contains(&IpAddr::V4(a.local)))
                    && n.accepts_as(&a.bgp.presented_as(a.n))
            });
            if let Some((idx, n)) = range {
                by_addr.insert(
                    (*bd, bvrf.clone(), a.peer, a.local),
                    halves.len() + dynamic.len(),
                );
                dynamic.push(Half {
                    dev: *bd,
                    idx,
                    n,
                    bgp,
                    local: a.peer,
                    peer: a.local,
                });
            }
        }
    }
    halves.extend(dynamic);
    let mut ends: Vec<End> = Vec::new();
    let mut outside = Vec::new();
    let mut configured = Vec::new();
    for (hi, a) in halves.iter().enumerate() {
        let Some(own) = owners.get(&a.peer) else {
            if held_down.contains(&a.peer) {
                continue;
            }
            // A router outside the network matters only where the session could come up:
            // its address reachable as the session's kind requires.
            if let Some(&t) = table_of.get(&(a.dev, vrf_name(&a.n.vrf).as_str())) {
                let external =
                    a.n.peer_asn
                        .is_some_and(|x| !a.bgp.presented_as(a.n).contains(&x));
                let single = external && a.n.ebgp_multihop.is_none();
                if reaches(&devices[a.dev], &tables[t].vrf, a.peer, single) {
                    outside.push(End {
                        table: t,
                        neighbor: a.idx,
                        local_ip: a.local,
                        peer_ip: a.peer,
                        ebgp: external,
                        confed: false,
                        far: usize::MAX,
                        interface: None,
                    });
                }
            }
            continue;
        };
        // An address reused once per VRF: the copy in the same-named VRF is the peer.
        let avrf = vrf_name(&a.n.vrf);
        let same: Vec<&(usize, String)> = own.iter().filter(|(_, v)| *v == avrf).collect();
        let own: Vec<&(usize, String)> = if same.is_empty() {
            own.iter().collect()
        } else {
            same
        };
        for (bd, bvrf) in own {
            // Configured towards the device, up or not: its incomplete parts reach us.
            if let (Some(&ta), Some(&tb)) = (
                table_of.get(&(a.dev, vrf_name(&a.n.vrf).as_str())),
                table_of.get(&(*bd, bvrf.as_str())),
            ) {
                configured.push((ta, tb));
            }
            let Some(&bi) = by_addr.get(&(*bd, bvrf.clone(), a.peer, a.local)) else {
                continue;
            };
            // Each session once, from its lower half.
            if bi <= hi {
                continue;
            }
            let b = &halves[bi];
            let (a_as, b_as) = (a.bgp.presented_as(a.n), b.bgp.presented_as(b.n));
            // An MD5 password on one side only: the TCP session never opens.
            let agree = a.n.accepts_as(&b_as)
                && b.n.accepts_as(&a_as)
                && a.n.routing.password == b.n.routing.password;
            let (Some(&ta), Some(&tb)) = (
                table_of.get(&(a.dev, vrf_name(&a.n.vrf).as_str())),
                table_of.get(&(b.dev, vrf_name(&b.n.vrf).as_str())),
            ) else {
                continue;
            };
            // FRR `remote-as external|internal`: the AS numbers presented decide.
            let external = match a.n.peer_asn {
                Some(x) => !a_as.contains(&x),
                None => !b_as.iter().any(|x| a_as.contains(x)),
            };
            let confed = external
                && a.bgp.confederation_id.is_some()
                && a.n
                    .peer_asn
                    .is_some_and(|x| a.bgp.confederation_peers.contains(&x));
            let ebgp = external && !confed;
            let reach = |h: &Half<'_>, t: usize| {
                let single = external && h.n.ebgp_multihop.is_none();
                reaches(&devices[h.dev], &tables[t].vrf, h.peer, single)
            };
            if !agree || a.dev == b.dev || !reach(a, ta) || !reach(b, tb) {
                continue;
            }
            let k = ends.len();
            ends.push(End {
                table: ta,
                neighbor: a.idx,
                local_ip: a.local,
                peer_ip: a.peer,
                ebgp,
                confed,
                far: k + 1,
                interface: None,
            });
            ends.push(End {
                table: tb,
                neighbor: b.idx,
                local_ip: b.local,
                peer_ip: b.peer,
                ebgp,
                confed,
                far: k,
                interface: None,
            });
        }
    }
    unnumbered(
        devices,
        hostnames,
        &table_of,
        family,
        &mut ends,
        &mut configured,
    );
    Established {
        ends,
        outside,
        configured,
    }
}

/// BGP unnumbered sessions: a neighbor named by its interface peers with the device cabled
/// to that interface when the far end names its own interface back and both accept the
/// other's AS (Batfish's rule). Each end gets a stand-in address in 0.0.0.0/8.
fn unnumbered(
    devices: &[Speaker<'_>],
    hostnames: &[&str],
    table_of: &HashMap<(usize, &str), usize>,
    family: fn(Vendor, &BgpNeighbor) -> bool,
    ends: &mut Vec<End>,
    configured: &mut Vec<(usize, usize)>,
) {
    let by_host: HashMap<&str, usize> =
        hostnames.iter().enumerate().map(|(i, h)| (*h, i)).collect();
    let usable = |d: usize, n: &BgpNeighbor| {
        !n.shutdown
            && family(devices[d].vendor, n)
            && (n.peer_asn.is_some() || n.peer_filter.is_some())
    };
    let mut stand_in = 0u32;
    for (d, dev) in devices.iter().enumerate() {
        for (idx, n) in dev.bgp.neighbors.iter().enumerate() {
            let BgpPeer::Interface(name) = &n.peer else {
                continue;
            };
            if !usable(d, n) {
                continue;
            }
            let local = dev
                .config
                .interfaces
                .iter()
                .find(|i| i.admin_up && crate::ifname::same(&i.name, name));
            let Some((far_host, far_if)) = local.and_then(|i| i.linked_to.as_deref()) else {
                continue;
            };
            let Some(&fd) = by_host.get(far_host.as_str()) else {
                continue;
            };
            // Each pair once, from the lower device.
            if fd <= d {
                continue;
            }
            let far = &devices[fd];
            if !far
                .config
                .interfaces
                .iter()
                .any(|i| i.admin_up && crate::ifname::same(&i.name, far_if))
            {
                continue;
            }
            let Some((fidx, fnb)) = far.bgp.neighbors.iter().enumerate().find(|(_, m)| {
                usable(fd, m)
                    && matches!(&m.peer, BgpPeer::Interface(x) if crate::ifname::same(x, far_if))
            }) else {
                continue;
            };
            let (ta, tb) = match (
                table_of.get(&(d, vrf_name(&n.vrf).as_str())),
                table_of.get(&(fd, vrf_name(&fnb.vrf).as_str())),
            ) {
                (Some(a), Some(b)) => (*a, *b),
                _ => continue,
            };
            configured.push((ta, tb));
            let (a_as, b_as) = (dev.bgp.presented_as(n), far.bgp.presented_as(fnb));
            if !n.accepts_as(&b_as) || !fnb.accepts_as(&a_as) {
                continue;
            }
            let ebgp = !b_as.iter().any(|x| a_as.contains(x));
            let (la, lb) = (Ipv4Addr::from(stand_in + 1), Ipv4Addr::from(stand_in + 2));
            stand_in += 2;
            let k = ends.len();
            ends.push(End {
                table: ta,
                neighbor: idx,
                local_ip: la,
                peer_ip: lb,
                ebgp,
                confed: false,
                far: k + 1,
                interface: Some(name.clone()),
            });
            ends.push(End {
                table: tb,
                neighbor: fidx,
                local_ip: lb,
                peer_ip: la,
                ebgp,
                confed: false,
                far: k,
                interface: Some(far_if.clone()),
            });
        }
    }
}
