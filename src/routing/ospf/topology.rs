//! Which interfaces run OSPF, with what cost, and who is adjacent to whom.
//!
//! - an interface runs OSPF in the area of its interface-mode enablement (EOS `ip ospf
//!   area`, NX-OS `ip router ospf N area`, Junos `area A interface I`), else of the most
//!   specific `network` statement holding its primary address; it must be up and hold an
//!   IPv4 address;
//! - its cost is the configured one, else the reference bandwidth over its bandwidth
//!   (at least 1), with each vendor's defaults ([`default_cost`]);
//! - two interfaces are adjacent when they share a subnet on different devices, are in
//!   the same area, neither is passive nor a loopback, their network types agree and their
//!   MTUs are equal (unless `ip ospf mtu-ignore`).

use crate::model::{DeviceConfig, OspfNetworkType, Vendor};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;

/// An area number (`0`, `0.0.0.0` and `1.2.3.4` dotted forms read as numbers).
pub fn area_number(area: &str) -> Option<u32> {
    area.parse::<u32>()
        .ok()
        .or_else(|| area.parse::<Ipv4Addr>().ok().map(u32::from))
}

/// What OSPF neighbours must agree on besides the subnet, area and area flags: the hello
/// and dead intervals and the authentication type (the hello packet's fields; the
/// devices form no adjacency otherwise). Keys are not compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hello {
    /// Hello interval, seconds.
    pub hello: u16,
    /// Dead interval, seconds.
    pub dead: u16,
    /// Authentication type.
    pub auth: crate::model::OspfAuth,
}

/// One interface running OSPF.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OspfIf {
    /// The device (index in the network).
    pub device: usize,
    /// The interface name, as configured.
    pub name: String,
    /// Its primary address.
    pub address: Ipv4Net,
    /// Its secondary subnets (advertised as stubs).
    pub secondaries: Vec<Ipv4Net>,
    /// The area.
    pub area: u32,
    /// The cost out of it.
    pub cost: u32,
    /// Passive (no adjacency; its subnet is advertised).
    pub passive: bool,
    /// A loopback: advertised as a host route, never adjacent.
    pub loopback: bool,
    /// Point-to-point (else broadcast).
    pub p2p: bool,
    /// The IP MTU compared with the neighbour's (None: `mtu-ignore`).
    pub mtu: Option<u32>,
    /// Its area is a stub area here (`area A stub`): Some(no-summary).
    pub stub: Option<bool>,
    /// Its area is a not-so-stubby area here (`area A nssa`).
    pub nssa: Option<super::spf::Nssa>,
    /// The cost of the default route this router, as the ABR of a stub area or a
    /// `no-summary` NSSA, sends into the area (IOS `default-cost`, 1 unless written;
    /// Junos `default-metric`, none unless written).
    pub default_cost: Option<u32>,
    /// Unnumbered (it borrows `address`, a /32, from another interface): advertises
    /// nothing of its own and is adjacent only to the interface cabled to it, `peer`.
    pub unnumbered: bool,
    /// An unnumbered interface's far end (device, interface), from the snapshot's links.
    pub peer: Option<Box<(String, String)>>,
    /// What a neighbour must match: intervals and authentication type.
    pub hello: Hello,
    /// The router priority (0: never the designated router).
    pub priority: u8,
}

/// Whether an interface name is a loopback (`Loopback0`, `loopback0`, Junos `lo0.0`).
pub fn is_loopback(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.starts_with("loopback") || n.starts_with("lo0") || n == "lo"
}

/// The interface's bandwidth in kbit/s when none is configured, by its name's type.
fn default_bandwidth_kbps(vendor: Vendor, name: &str) -> u64 {
    let n = name.to_ascii_lowercase();
    let starts = |p: &str| n.starts_with(p);
    if is_loopback(name) {
        return 8_000_000;
    }
    match vendor {
        // FRR reads the kernel's speed; the Cumulus VX labs' ports show cost 100 (the
        // reference 100 Mbit/s over 1 Mbit/s) where no speed is configured.
        Vendor::Frr => 1_000,
        Vendor::JuniperJunos => {
            if starts("xe-") {
                10_000_000
            } else if starts("et-") {
                100_000_000
            } else {
                1_000_000
            }
        }
        _ => {
            if starts("hundred") {
                100_000_000
            } else if starts("forty") {
                40_000_000
            } else if starts("twentyfive") || starts("twe") {
                25_000_000
            } else if starts("tengig") || starts("te") {
                10_000_000
            } else if starts("fastethernet") || starts("fa") {
                100_000
            } else if starts("tunnel") {
                100
            } else if starts("serial") {
                1_544
            } else if starts("ethernet") && vendor == Vendor::CiscoIos {
                10_000
            } else {
                1_000_000
            }
        }
    }
}

/// The vendor's default reference bandwidth in Mbit/s: 100 (IOS, EOS, Junos), 40,000
/// (NX-OS).
pub fn default_reference_mbps(vendor: Vendor) -> u64 {
    match vendor {
        Vendor::CiscoNxos => 40_000,
        _ => 100,
    }
}

/// The cost of an interface with none configured: EOS 10 on every interface; loopbacks
/// 1 (Junos `lo0`: 0); else the reference bandwidth over the interface's bandwidth, at least 1.
pub fn default_cost(
    vendor: Vendor,
    name: &str,
    reference_mbps: Option<u64>,
    bw_kbps: Option<u64>,
) -> u32 {
    if vendor == Vendor::AristaEos && reference_mbps.is_none() {
        return 10;
    }
    if is_loopback(name) {
        // Junos and FRR advertise the loopback at 0; the Cisco family at 1 whatever the
        // reference.
        return if matches!(vendor, Vendor::JuniperJunos | Vendor::Frr) {
            0
        } else {
            1
        };
    }
    let reference = reference_mbps.unwrap_or_else(|| default_reference_mbps(vendor)) * 1000;
    let bw = bw_kbps
        .unwrap_or_else(|| default_bandwidth_kbps(vendor, name))
        .max(1);
    u32::try_from((reference / bw).clamp(1, 65_535)).unwrap_or(65_535)
}

/// The area an interface runs OSPF in (default VRF processes), if any: interface-mode
/// first, else the most specific `network` statement holding `address`.
fn area_of(config: &DeviceConfig, name: &str, address: Ipv4Addr) -> Option<u32> {
    // Enablements of processes in other VRFs (`router ospf 2 vrf X`) are theirs; a shut
    // process (`shutdown`, Junos `disable`) enables nothing.
    let elsewhere: Vec<&str> = config
        .ospf
        .processes
        .iter()
        .filter(|p| p.vrf.is_some() || p.shutdown)
        .map(|p| p.id.as_str())
        .collect();
    let ours = || {
        config
            .ospf_networks
            .iter()
            .filter(|o| !elsewhere.contains(&o.process.as_str()))
    };
    let direct = ours().find(|o| {
        o.interface
            .as_deref()
            .is_some_and(|n| crate::ifname::same(n, name))
    });
    if let Some(o) = direct {
        return area_number(&o.area);
    }
    ours()
        .filter(|o| o.interface.is_none())
        .filter_map(|o| match o.prefix {
            Some(ipnet::IpNet::V4(p)) if p.contains(&address) => Some((p.prefix_len(), o)),
            _ => None,
        })
        .max_by_key(|(len, _)| *len)
        .and_then(|(_, o)| area_number(&o.area))
}

/// The OSPF interfaces of one device in the default VRF; `up` tells whether an interface
/// installs routes (not shut, not the management plane's, its SVI up). Interfaces enabled
/// without an IPv4 address are named in `unnumbered`.
pub fn interfaces(
    device: usize,
    vendor: Vendor,
    config: &DeviceConfig,
    up: &dyn Fn(&str) -> bool,
    unnumbered: &mut Vec<String>,
) -> Vec<OspfIf> {
    let reference = config
        .ospf
        .processes
        .iter()
        .filter(|p| p.vrf.is_none())
        .find_map(|p| p.reference_bandwidth_mbps);
    let mut out = Vec::new();
    for i in &config.interfaces {
        if i.vrf
            .as_deref()
            .is_some_and(|v| v != "master" && !v.is_empty())
        {
            continue;
        }
        // An unnumbered interface installs no connected route of its own: it is up when
        // configured up and its source interface is.
        let borrowed = i.unnumbered.as_deref().and_then(|src| {
            let s = config
                .interfaces
                .iter()
                .find(|x| crate::ifname::same(&x.name, src))?;
            let a = s.addresses.iter().find_map(|a| match (a.kind, a.address) {
                (crate::model::AddressKind::Virtual, _) => None,
                (_, ipnet::IpNet::V4(n)) => Some(n.addr()),
                _ => None,
            })?;
            (i.admin_up && up(&s.name)).then_some(a)
        });
        if borrowed.is_none() && !up(&i.name) {
            continue;
        }
        let mut v4 = i
            .addresses
            .iter()
            .filter_map(|a| match (a.kind, a.address) {
                (crate::model::AddressKind::Virtual, _) => None,
                (k, ipnet::IpNet::V4(n)) => Some((k, n)),
                _ => None,
            });
        let own = v4.next().map(|(_, n)| n);
        let is_unnumbered = own.is_none() && borrowed.is_some();
        let Some(primary) = own.or_else(|| borrowed.and_then(|a| Ipv4Net::new(a, 32).ok())) else {
            let enabled = config.ospf_networks.iter().any(|o| {
                o.interface
                    .as_deref()
                    .is_some_and(|n| crate::ifname::same(n, &i.name))
            });
            if enabled {
                unnumbered.push(i.name.clone());
            }
            continue;
        };
        // IOS also enables it by a `network` statement holding the borrowed address.
        let Some(area) = area_of(config, &i.name, primary.addr()) else {
            continue;
        };
        if is_unnumbered && i.linked_to.is_none() {
            // Its neighbour is whoever is cabled to it: not known without the cabling.
            unnumbered.push(i.name.clone());
            continue;
        }
        let settings = config.ospf.interface(&i.name);
        let passive = settings.and_then(|s| s.passive).unwrap_or_else(|| {
            config
                .ospf
                .processes
                .iter()
                .filter(|p| p.vrf.is_none())
                .any(|p| p.is_passive(&i.name))
        });
        let cost = settings.and_then(|s| s.cost).unwrap_or_else(|| {
            default_cost(
                vendor,
                &i.name,
                reference,
                settings.and_then(|s| s.bandwidth_kbps),
            )
        });
        let p2p = settings.and_then(|s| s.network_type) == Some(OspfNetworkType::PointToPoint);
        let mtu_ignore = settings.is_some_and(|s| s.mtu_ignore);
        // Hello 10 s; dead four hellos (IOS, NX-OS, Junos), 40 s on EOS unless written.
        let hello_s = settings.and_then(|s| s.hello).unwrap_or(10);
        let dead_s = settings.and_then(|s| s.dead).unwrap_or(match vendor {
            Vendor::AristaEos => 40,
            _ => hello_s.saturating_mul(4),
        });
        let auth = settings.and_then(|s| s.auth).unwrap_or_else(|| {
            config
                .ospf
                .processes
                .iter()
                .filter(|p| p.vrf.is_none())
                .flat_map(|p| &p.area_auth)
                .find(|(a, _)| area_number(a) == Some(area))
                .map_or(crate::model::OspfAuth::Null, |(_, t)| *t)
        });
        let hello = Hello {
            hello: u16::try_from(hello_s).unwrap_or(u16::MAX),
            dead: u16::try_from(dead_s).unwrap_or(u16::MAX),
            auth,
        };
        let priority = settings
            .and_then(|s| s.priority)
            .map_or(1, |p| u8::try_from(p).unwrap_or(u8::MAX));
        // Compared as IP MTUs, by the rule the pre-check's MTU check uses.
        let mtu = config.ip_mtu(vendor, i).0;
        let secondaries = v4
            .map(|(_, n)| n.trunc())
            .filter(|n| *n != primary.trunc())
            .collect();
        out.push(OspfIf {
            device,
            name: i.name.clone(),
            address: primary,
            secondaries,
            area,
            cost,
            passive,
            loopback: is_loopback(&i.name),
            p2p,
            mtu: (!mtu_ignore).then_some(mtu),
            stub: config
                .ospf
                .processes
                .iter()
                .filter(|p| p.vrf.is_none())
                .flat_map(|p| &p.stub_areas)
                .find(|(a, _)| area_number(a) == Some(area))
                .map(|(_, no_summary)| *no_summary),
            nssa: config
                .ospf
                .processes
                .iter()
                .filter(|p| p.vrf.is_none())
                .flat_map(|p| &p.nssa_areas)
                .find(|n| area_number(&n.area) == Some(area))
                .map(|n| super::spf::Nssa {
                    no_summary: n.no_summary,
                    default: n.default_originate.map(|(m, t)| (m.unwrap_or(1), t == 1)),
                }),
            default_cost: config
                .ospf
                .processes
                .iter()
                .filter(|p| p.vrf.is_none())
                .flat_map(|p| &p.default_costs)
                .find(|(a, _)| area_number(a) == Some(area))
                .map(|(_, c)| *c)
                .or((vendor != Vendor::JuniperJunos).then_some(1)),
            hello,
            priority,
            unnumbered: is_unnumbered,
            peer: if is_unnumbered {
                i.linked_to.clone()
            } else {
                None
            },
        });
    }
    out
}

/// A segment: the OSPF interfaces (indexes into the interface list) that are adjacent on
/// one subnet in one area. Two members on a point-to-point segment are linked directly;
/// more, or broadcast ones, through a transit network.
#[derive(Debug, Clone)]
pub struct Segment {
    /// The subnet.
    pub prefix: Ipv4Net,
    /// The area.
    pub area: u32,
    /// Point-to-point (exactly two members).
    pub p2p: bool,
    /// The member interfaces.
    pub members: Vec<usize>,
}

/// What the members of one segment share: subnet, area, point-to-point, stub, NSSA.
type SegmentKey = (Ipv4Net, u32, bool, bool, bool, Hello);

/// The adjacency segments among `ifs`: per subnet and area, the non-passive,
/// non-loopback interfaces of at least two devices whose network types, stub and NSSA
/// flags, hello fields (intervals, authentication type) and MTUs agree.
pub fn segments(ifs: &[OspfIf]) -> Vec<Segment> {
    // Both ends must agree on the area's stub flag. Grouped by sorting (a map of
    // vectors was a small allocation per subnet: 60 MB at 50,000 devices).
    let mut keyed: Vec<(SegmentKey, usize)> = ifs
        .iter()
        .enumerate()
        .filter(|(_, i)| !(i.passive || i.loopback || i.address.prefix_len() >= 32))
        .map(|(k, i)| {
            let key = (
                i.address.trunc(),
                i.area,
                i.p2p,
                i.stub.is_some(),
                i.nssa.is_some(),
                i.hello,
            );
            (key, k)
        })
        .collect();
    keyed.sort_unstable();
    let mut out = Vec::new();
    for group in keyed.chunk_by(|a, b| a.0 == b.0) {
        let key = group[0].0;
        let members: Vec<usize> = group.iter().map(|(_, k)| *k).collect();
        // MTU: the members agreeing with the first one that compares MTUs.
        let mtu = members.iter().find_map(|&m| ifs[m].mtu);
        let members: Vec<usize> = members
            .into_iter()
            .filter(|&m| ifs[m].mtu.is_none() || ifs[m].mtu == mtu)
            .collect();
        let mut devices: Vec<usize> = members.iter().map(|&m| ifs[m].device).collect();
        devices.sort_unstable();
        devices.dedup();
        if devices.len() < 2 || devices.len() != members.len() {
            continue;
        }
        // A broadcast segment where no router may be the designated router forms no
        // full adjacency (every priority 0).
        if !key.2 && members.iter().all(|&m| ifs[m].priority == 0) {
            continue;
        }
        out.push(Segment {
            prefix: key.0,
            area: key.1,
            p2p: key.2 && members.len() == 2,
            members,
        });
    }
    out
}

/// Why two cabled unnumbered interfaces are not adjacent where the devices may differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Their IP MTUs differ (the devices stop the exchange, as on a subnet).
    Mtu,
    /// Not both point-to-point: olav does not know what the devices do.
    NotPointToPoint,
    /// The far end is a numbered OSPF interface: olav does not know what the devices do.
    Numbered,
}

/// The adjacencies over unnumbered interfaces: an unnumbered interface and the one its
/// link names on the far device (`device_of` finds a device by hostname) when that one is
/// unnumbered too and names it back, both in the same area, neither passive, agreeing on
/// the stub flag; equal MTUs (unless ignored) and point-to-point, else refused.
pub fn unnumbered_segments(
    ifs: &[OspfIf],
    device_of: &dyn Fn(&str) -> Option<usize>,
) -> (Vec<Segment>, Vec<(usize, usize, Refused)>) {
    let mut by_device: std::collections::HashMap<usize, Vec<usize>> =
        std::collections::HashMap::new();
    for (k, i) in ifs.iter().enumerate() {
        by_device.entry(i.device).or_default().push(k);
    }
    let names = |k: usize, peer: &(String, String)| {
        device_of(&peer.0) == Some(ifs[k].device) && crate::ifname::same(&peer.1, &ifs[k].name)
    };
    let (mut segs, mut refused) = (Vec::new(), Vec::new());
    for (k, i) in ifs.iter().enumerate().filter(|(_, i)| i.unnumbered) {
        let Some(peer) = i.peer.as_deref() else {
            continue;
        };
        let Some(d) = device_of(&peer.0) else {
            continue;
        };
        let on_far = || by_device.get(&d).into_iter().flatten().copied();
        if let Some(j) = on_far().find(|&j| {
            !ifs[j].unnumbered && !ifs[j].loopback && crate::ifname::same(&ifs[j].name, &peer.1)
        }) {
            if ifs[j].area == i.area && !i.passive && !ifs[j].passive {
                refused.push((k, j, Refused::Numbered));
            }
            continue;
        }
        let far = on_far().find(|&j| {
            ifs[j].unnumbered
                && crate::ifname::same(&ifs[j].name, &peer.1)
                && ifs[j].peer.as_deref().is_some_and(|p| names(k, p))
        });
        let Some(j) = far.filter(|&j| j > k && d != i.device) else {
            continue;
        };
        let o = &ifs[j];
        if o.area != i.area
            || i.passive
            || o.passive
            || i.stub.is_some() != o.stub.is_some()
            || i.nssa.is_some() != o.nssa.is_some()
            || i.hello != o.hello
        {
            continue;
        }
        if i.mtu.is_some() && o.mtu.is_some() && i.mtu != o.mtu {
            refused.push((k, j, Refused::Mtu));
        } else if !(i.p2p && o.p2p) {
            refused.push((k, j, Refused::NotPointToPoint));
        } else {
            segs.push(Segment {
                prefix: i.address,
                area: i.area,
                p2p: true,
                members: vec![k, j],
            });
        }
    }
    (segs, refused)
}

/// The OSPF interfaces that share a subnet and area and would be neighbours but compare
/// different IP MTUs (neither side `mtu-ignore`): (interface, interface) index pairs. The
/// devices stop such an adjacency before exchanging routes (EXSTART/EXCHANGE), so
/// [`segments`] leaves them out; these say so.
pub fn mtu_mismatches(ifs: &[OspfIf]) -> Vec<(usize, usize)> {
    let mut keyed: Vec<((Ipv4Net, u32, bool), usize)> = ifs
        .iter()
        .enumerate()
        .filter(|(_, i)| !(i.passive || i.loopback || i.address.prefix_len() >= 32))
        .map(|(k, i)| ((i.address.trunc(), i.area, i.p2p), k))
        .collect();
    keyed.sort_unstable();
    let mut out = Vec::new();
    for group in keyed.chunk_by(|a, b| a.0 == b.0) {
        for (x, (_, a)) in group.iter().enumerate() {
            for (_, b) in &group[x + 1..] {
                let (ia, ib) = (&ifs[*a], &ifs[*b]);
                if ia.device != ib.device
                    && ia.mtu.is_some()
                    && ib.mtu.is_some()
                    && ia.mtu != ib.mtu
                {
                    out.push((*a, *b));
                }
            }
        }
    }
    out
}
