//! Links between devices: from LLDP and declared links in the state file, otherwise
//! inferred from interfaces sharing a subnet, as Batfish infers layer-3 edges.
//!
//! Decisions:
//! - Management interfaces (named Management*/mgmt*, Junos fxp0/em0/me0, or in a
//!   management VRF) never make inferred links; nor do two interfaces sharing an address.
//!   Every device's management port sits in one out-of-band subnet; inferring from it
//!   would join every device to every other and hide all single points of failure.
//! - An SVI autostate holds down (no active port carries its VLAN:
//!   [`crate::routing::autostate::down_svis`]) makes no inferred link, and a declared or
//!   LLDP link on it is `down`, as the devices show it (lab `nxos_l3_vlan_no_active_member`).
//! - An unnumbered interface (`ip unnumbered Loopback0`) has no subnet of its own: it
//!   links through LLDP, a declared link or a cable of the layer-1 file between two routed
//!   ports (as BGP unnumbered peerings do), never by subnet; without any of these it makes
//!   no link, and says nothing false.
//! - Loopbacks (`Loopback0`, NX-OS `loopback0`, Junos `lo0` and its units) never make
//!   inferred links, whatever their length: Batfish never infers a layer-3 edge on one,
//!   and six routers with `Loopback123` in one /24 (lab `ospf_lab_validation`) would
//!   otherwise be a full mesh of 15 links that do not exist — false redundancy.
//! - Two interfaces in one subnet are adjacent only on the same VLAN (`vlan_compatible`):
//!   two SVIs on the same VLAN, a tagged subinterface with the SVI of its tag or a
//!   subinterface with the same tag; an untagged routed port meets SVIs (through an access
//!   port) and untagged ports, never a tagged subinterface. VRF names play no part: they
//!   are device-local, and a VRF on one device peers with the global table or a VRF of
//!   another name on its neighbour (route leaking), as Batfish's layer-3 edges ignore VRFs.
//! - With Batfish's layer-1 topology (`batfish/layer1_topology.json`), a device the file
//!   names is adjacent only through its cables: directly, through port-channels whose
//!   members are cabled, or through switched ports on the same VLAN (`Layer2`). Devices
//!   the file does not name keep subnet inference (Batfish's HybridL3Adjacencies).

use super::layer1::Layer1;
use super::opstate::OpState;
use super::{FileIssue, ParsedDevice};
use crate::ifname;
use crate::model::{AddressKind, BgpPeer, DeviceConfig, Interface, SwitchportMode};
use ipnet::IpNet;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Where a link came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LinkSource {
    /// LLDP neighbor tables.
    Lldp,
    /// Declared by a source of truth.
    Declared,
    /// Inferred from a shared subnet.
    Inferred,
}

impl LinkSource {
    /// The `source` column value.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkSource::Lldp => "lldp",
            LinkSource::Declared => "declared",
            LinkSource::Inferred => "inferred",
        }
    }
}

/// A link between two device interfaces, sides in sorted order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// First side (device, interface).
    pub a: (String, String),
    /// Second side.
    pub b: (String, String),
    /// Where it came from.
    pub source: LinkSource,
    /// `up` when both interfaces are up (administratively; SVIs also by autostate), else
    /// `down`.
    pub status: &'static str,
    /// The shared subnet, for inferred links.
    pub subnet: Option<IpNet>,
}

/// Whether an interface is a management port that must not make links
/// ([`crate::model::management::is_management`]).
pub fn is_management(i: &Interface) -> bool {
    crate::model::management::is_management(&i.name, i.vrf.as_deref().unwrap_or(""))
}

/// Whether an address can make an inferred link: not virtual, not a host route.
fn linkable(a: &crate::model::InterfaceAddress) -> bool {
    a.kind != AddressKind::Virtual && a.address.prefix_len() != a.address.max_prefix_len()
}

/// Whether an interface can make an inferred link: administratively up, not management,
/// not a loopback, holding a linkable address.
pub fn may_link(i: &Interface) -> bool {
    i.admin_up
        && !is_management(i)
        && !crate::routing::igp::is_loopback(&i.name)
        && i.addresses.iter().any(linkable)
}

/// Whether an interface can give its device's management address.
pub fn gives_management_address(i: &Interface) -> bool {
    is_management(i) && !i.addresses.is_empty()
}

fn find<'a>(devices: &'a [ParsedDevice], host: &str) -> Option<&'a ParsedDevice> {
    devices
        .binary_search_by(|d| d.hostname.as_str().cmp(host))
        .ok()
        .map(|i| &devices[i])
}

/// Whether an interface is up: administratively, and for an SVI by autostate.
fn admin_up(d: &ParsedDevice, ifname: &str) -> bool {
    !d.down_svis.contains(ifname)
        && d.config
            .interfaces
            .iter()
            .find(|i| i.name == ifname)
            .is_none_or(|i| i.admin_up)
}

/// Resolves `typed` against a device's interfaces; unknown names are kept as typed.
fn canonical(d: &ParsedDevice, typed: &str) -> String {
    ifname::resolve(typed, d.config.interfaces.iter().map(|i| i.name.as_str()))
        .map_or_else(|| typed.to_owned(), str::to_owned)
}

/// One end of a link: (device, interface).
type Side = (String, String);

fn ordered(x: Side, y: Side) -> (Side, Side) {
    if x <= y {
        (x, y)
    } else {
        (y, x)
    }
}

/// Builds every link of a snapshot; `devices` must be sorted by hostname.
pub fn build(
    devices: &[ParsedDevice],
    opstate: &OpState,
    layer1: Option<&Layer1>,
    warnings: &mut Vec<FileIssue>,
) -> Vec<Link> {
    let layer2 = layer1.map(|l1| Layer2::new(devices, l1));
    // Each link found: sorted and the first of each pair of ends kept at the end. A list
    // rather than a map: 200,000 inferred links at 50,000 devices were the import's peak
    // memory as map nodes.
    let mut out: Vec<Link> = Vec::new();
    let mut lldp_hosts: HashSet<&str> = HashSet::new();
    let push = |a: Side, b: Side, source, subnet, out: &mut Vec<Link>| {
        let (a, b) = ordered(a, b);
        let status = match (find(devices, &a.0), find(devices, &b.0)) {
            (Some(da), Some(db)) if admin_up(da, &a.1) && admin_up(db, &b.1) => "up",
            _ => "down",
        };
        out.push(Link {
            a,
            b,
            source,
            status,
            subnet,
        });
    };
    for n in &opstate.lldp {
        let (Some(da), Some(db)) = (find(devices, &n.hostname), find(devices, &n.neighbor)) else {
            warnings.push(FileIssue {
                file: super::opstate::FILE_NAME.to_owned(),
                line: None,
                message: format!(
                    "lldp: {} {} → {} {}: a device has no config in this snapshot; link ignored",
                    n.hostname, n.ifname, n.neighbor, n.neighbor_ifname
                ),
            });
            continue;
        };
        lldp_hosts.insert(da.hostname.as_str());
        lldp_hosts.insert(db.hostname.as_str());
        push(
            (da.hostname.clone(), canonical(da, &n.ifname)),
            (db.hostname.clone(), canonical(db, &n.neighbor_ifname)),
            LinkSource::Lldp,
            None,
            &mut out,
        );
    }
    for l in &opstate.links {
        let side = |s: &str| -> Option<(String, String)> {
            let (h, i) = s.split_once(':')?;
            let d = find(devices, h.trim())?;
            Some((d.hostname.clone(), canonical(d, i.trim())))
        };
        match (side(&l.a), side(&l.b)) {
            (Some(a), Some(b)) => push(a, b, LinkSource::Declared, None, &mut out),
            _ => warnings.push(FileIssue {
                file: super::opstate::FILE_NAME.to_owned(),
                line: None,
                message: format!(
                    "links: '{}' – '{}': expected device:interface with a known device; link ignored",
                    l.a, l.b
                ),
            }),
        }
    }
    // Inferred links only where LLDP says nothing about both ends.
    // Device and interface numbers as u32: a third less than usize for 600,000 addresses.
    let mut by_subnet: Vec<(IpNet, u32, u32)> = Vec::new();
    for (di, d) in devices.iter().enumerate() {
        for (ii, i) in d.config.interfaces.iter().enumerate() {
            if !may_link(i) || d.down_svis.contains(&i.name) {
                continue;
            }
            for a in i.addresses.iter().filter(|a| linkable(a)) {
                by_subnet.push((a.address.trunc(), di as u32, ii as u32));
            }
        }
    }
    let taken: BTreeSet<(String, String)> = out
        .iter()
        .flat_map(|l| [l.a.clone(), l.b.clone()])
        .collect();
    // Every subnet's members in subnet order, each subnet's in device and interface order
    // (one flat list sorted in place: far less memory than a map of lists; members were
    // pushed in device and interface order, so the whole tuple is the stable order).
    by_subnet.sort_unstable();
    // The pairs found, by device and interface number, named once the subnets' list is
    // gone: it and the named links together were the import's peak memory.
    let mut found: Vec<(u32, u32, u32, u32, IpNet)> = Vec::new();
    let lldp_dev: Vec<bool> = devices
        .iter()
        .map(|d| lldp_hosts.contains(d.hostname.as_str()))
        .collect();
    for group in by_subnet.chunk_by(|x, y| x.0 == y.0) {
        let subnet = group[0].0;
        for ((da, ia), (db, ib)) in subnet_pairs(devices, group, &lldp_dev) {
            let (dev_a, dev_b) = (&devices[da], &devices[db]);
            let (ia_if, ib_if) = (&dev_a.config.interfaces[ia], &dev_b.config.interfaces[ib]);
            // Two interfaces holding the same address are a duplicate, not a link
            // (Batfish's rule: every vQFX has 169.254.0.2/24 on its internal em1).
            // Shared VRRP/HSRP/VARP addresses are the point of a redundant pair.
            let own = |i: &'_ Interface| {
                i.addresses
                    .iter()
                    .filter(|a| a.kind != AddressKind::Virtual)
                    .map(|a| a.address.addr())
                    .collect::<Vec<_>>()
            };
            let (own_a, own_b) = (own(ia_if), own(ib_if));
            if own_a.iter().any(|x| own_b.contains(x))
                || layer2
                    .as_ref()
                    .is_some_and(|l2| !l2.adjacent((da, ia), (db, ib)))
            {
                continue;
            }
            found.push((da as u32, ia as u32, db as u32, ib as u32, subnet));
        }
    }
    drop(by_subnet);
    crate::memory::release_freed();
    out.reserve(found.len());
    for (da, ia, db, ib, subnet) in found {
        let (dev_a, dev_b) = (&devices[da as usize], &devices[db as usize]);
        let a = (
            dev_a.hostname.clone(),
            dev_a.config.interfaces[ia as usize].name.clone(),
        );
        let b = (
            dev_b.hostname.clone(),
            dev_b.config.interfaces[ib as usize].name.clone(),
        );
        if taken.contains(&a) && taken.contains(&b) {
            continue;
        }
        // Both ends passed `may_link` and are no held-down SVI: the link is up.
        let (a, b) = ordered(a, b);
        out.push(Link {
            a,
            b,
            source: LinkSource::Inferred,
            status: "up",
            subnet: Some(subnet),
        });
    }
    // A cable between two routed ports carries a layer-3 adjacency without a shared
    // subnet when one end borrows its address (`ip unnumbered Loopback0`) or peers BGP
    // unnumbered over it (IPv6 link-local addresses).
    if let Some(l2) = &layer2 {
        for &((da, pa), (db, pb)) in &l2.cables {
            let (dev_a, dev_b) = (&devices[da], &devices[db]);
            if lldp_hosts.contains(dev_a.hostname.as_str())
                && lldp_hosts.contains(dev_b.hostname.as_str())
            {
                continue;
            }
            let (ia, ib) = (&dev_a.config.interfaces[pa], &dev_b.config.interfaces[pb]);
            let routed = switched(ia).is_none() && switched(ib).is_none();
            let borrowed = ia.unnumbered.is_some() || ib.unnumbered.is_some();
            if routed
                && (borrowed
                    || peers_over(&dev_a.config, &ia.name)
                    || peers_over(&dev_b.config, &ib.name))
            {
                push(
                    (dev_a.hostname.clone(), ia.name.clone()),
                    (dev_b.hostname.clone(), ib.name.clone()),
                    LinkSource::Inferred,
                    None,
                    &mut out,
                );
            }
        }
    }
    // The first found of each pair of ends is kept: LLDP, then declared, inferred by
    // subnet (in subnet order), cabled. That order is in the sort's key, so the sort
    // needs no buffer (a stable one took half the list again at the import's peak) and
    // the list is the answer as it stands (its copy into another was the peak too).
    out.sort_unstable_by(|x, y| {
        let key = |l: &Link| (l.source, l.subnet.is_none(), l.subnet);
        (&x.a, &x.b)
            .cmp(&(&y.a, &y.b))
            .then_with(|| key(x).cmp(&key(y)))
    });
    out.dedup_by(|later, first| later.a == first.a && later.b == first.b);
    out
}

/// Two (device, interface) members of one subnet.
type Pair = ((usize, usize), (usize, usize));

/// The pairs of one subnet's members (device, interface) that may be adjacent: on two
/// devices, with compatible framing (`vlan_compatible`), not both on devices LLDP
/// speaks for. Members are bucketed by VLAN first, so the work grows with the members
/// and the pairs returned, not with the square of the subnet (two switches with 20,000
/// SVIs in one /16 make 20,000 candidate pairs, not 800 million).
fn subnet_pairs(
    devices: &[ParsedDevice],
    group: &[(IpNet, u32, u32)],
    lldp_dev: &[bool],
) -> Vec<Pair> {
    // Members of one bucket, devices LLDP does not cover first, each device's together.
    #[derive(Default)]
    struct Bucket {
        members: Vec<(usize, usize)>,
        /// How many members lead the list on devices LLDP does not cover.
        open: usize,
    }
    impl Bucket {
        fn seal(&mut self, lldp_dev: &[bool]) {
            self.members.sort_by_key(|&(d, i)| (lldp_dev[d], d, i));
            self.open = self.members.iter().take_while(|m| !lldp_dev[m.0]).count();
        }
        /// Every pair within, across devices, with at least one open member.
        fn within(&self, out: &mut Vec<Pair>) {
            let m = &self.members;
            // Where each member's device run ends: pairs start past it, found at once
            // (a device with thousands of interfaces in one subnet is no square).
            let mut run_end = vec![m.len(); m.len()];
            for i in (0..m.len().saturating_sub(1)).rev() {
                run_end[i] = if m[i + 1].0 == m[i].0 {
                    run_end[i + 1]
                } else {
                    i + 1
                };
            }
            for x in 0..self.open {
                out.extend(m[run_end[x]..].iter().map(|&b| (m[x], b)));
            }
        }
        /// Every pair with `other`, across devices, with at least one open member.
        fn across(&self, other: &[(usize, usize)], other_open: usize, out: &mut Vec<Pair>) {
            for (x, &a) in self.members.iter().enumerate() {
                let partners = if x < self.open {
                    other
                } else {
                    &other[..other_open]
                };
                out.extend(partners.iter().filter(|b| b.0 != a.0).map(|&b| (a, b)));
            }
        }
    }
    let mut vlans: BTreeMap<u32, Bucket> = BTreeMap::new();
    let (mut untagged, mut unknown, mut svis) =
        (Bucket::default(), Bucket::default(), Bucket::default());
    for &(_, d, i) in group {
        let (d, i) = (d as usize, i as usize);
        match framing(&devices[d].config.interfaces[i]) {
            Framing::Svi(v) => {
                vlans.entry(v).or_default().members.push((d, i));
                svis.members.push((d, i));
            }
            Framing::Tagged(v) => vlans.entry(v).or_default().members.push((d, i)),
            Framing::Untagged => untagged.members.push((d, i)),
            Framing::Unknown => unknown.members.push((d, i)),
        }
    }
    let mut others = Bucket {
        members: vlans
            .values()
            .flat_map(|b| b.members.iter().copied())
            .chain(untagged.members.iter().copied())
            .collect(),
        open: 0,
    };
    for b in vlans
        .values_mut()
        .chain([&mut untagged, &mut unknown, &mut svis, &mut others])
    {
        b.seal(lldp_dev);
    }
    let mut out = Vec::new();
    for b in vlans.values() {
        b.within(&mut out);
    }
    untagged.within(&mut out);
    untagged.across(&svis.members, svis.open, &mut out);
    unknown.within(&mut out);
    unknown.across(&others.members, others.open, &mut out);
    out
}

/// Whether a device has an unnumbered BGP peering over interface `ifname`.
fn peers_over(d: &DeviceConfig, ifname: &str) -> bool {
    d.bgp
        .iter()
        .flat_map(|b| &b.neighbors)
        .any(|n| !n.shutdown && matches!(&n.peer, BgpPeer::Interface(i) if ifname::same(i, ifname)))
}

/// What a routed interface sends and receives on its wire, for adjacency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// An SVI: the frames of its VLAN, tagged on trunks or untagged on access ports.
    Svi(u32),
    /// A subinterface or unit carrying one 802.1Q tag.
    Tagged(u32),
    /// A routed port sending untagged frames.
    Untagged,
    /// A VLAN interface whose VLAN the model does not know (Junos `irb.N`, `vlan.N`).
    Unknown,
}

fn framing(i: &Interface) -> Framing {
    if let Some(v) = i.svi_vlan() {
        return Framing::Svi(v);
    }
    if let Some(t) = i.encapsulation_vlan {
        return Framing::Tagged(t);
    }
    let lower = i.name.to_ascii_lowercase();
    if lower.starts_with("irb.") || lower.starts_with("vlan.") {
        Framing::Unknown
    } else {
        Framing::Untagged
    }
}

/// Whether two interfaces of one subnet can be in one broadcast domain by their VLANs
/// (Batfish's layer-2 rules: tags must agree; a tagged frame never reaches an untagged
/// routed port).
pub fn vlan_compatible(a: &Interface, b: &Interface) -> bool {
    use Framing::*;
    match (framing(a), framing(b)) {
        (Unknown, _) | (_, Unknown) => true,
        (Svi(x) | Tagged(x), Svi(y) | Tagged(y)) => x == y,
        (Tagged(_), Untagged) | (Untagged, Tagged(_)) => false,
        (Svi(_) | Untagged, Untagged) | (Untagged, Svi(_)) => true,
    }
}

/// The port an interface's frames leave by: a subinterface's or unit's parent, and a
/// port-channel member's channel (Batfish's logical layer-1 node).
fn port_of(d: &DeviceConfig, i: usize) -> usize {
    let find = |name: &str| {
        d.interfaces
            .iter()
            .position(|x| ifname::same(name, &x.name))
    };
    let name = &d.interfaces[i].name;
    let base = name
        .split_once('.')
        .and_then(|(parent, _)| find(parent))
        .or_else(|| d.interfaces[i].port.as_deref().and_then(find))
        .unwrap_or(i);
    d.interfaces[base]
        .channel_group
        .as_deref()
        .and_then(find)
        .unwrap_or(base)
}

/// VLANs a trunk allows: `10,20,30-40`, `all` (or none written), `none`. A range olav
/// cannot read allows everything rather than cut a link.
fn trunk_allows(list: Option<&str>, vlan: u32) -> bool {
    let Some(list) = list.map(str::trim).filter(|l| !l.is_empty() && *l != "all") else {
        return true;
    };
    if list == "none" {
        return false;
    }
    list.split(',').any(|part| {
        let part = part.trim();
        match part.split_once('-') {
            Some((lo, hi)) => match (lo.parse::<u32>(), hi.parse::<u32>()) {
                (Ok(lo), Ok(hi)) => (lo..=hi).contains(&vlan),
                _ => true,
            },
            None => part.parse::<u32>().map_or(true, |v| v == vlan),
        }
    })
}

/// How an interface switches: its mode, or access when it names an access VLAN and
/// routes nothing (`switchport access vlan 10` alone, as EOS and NX-OS print it).
fn switched(i: &Interface) -> Option<SwitchportMode> {
    i.switchport_mode.or_else(|| {
        (i.access_vlan.is_some() && i.encapsulation_vlan.is_none() && i.addresses.is_empty())
            .then_some(SwitchportMode::Access)
    })
}

/// A point of a broadcast domain: a port's wire carrying one tag (None: untagged), a
/// device's VLAN bridge, or a routed interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Point {
    Wire(usize, usize, Option<u32>),
    Bridge(usize, u32),
    Routed(usize, usize),
}

/// The broadcast domains of the devices a layer-1 topology names, as Batfish computes
/// them from cables, port-channels, switchports and VLANs (union-find over `Point`s).
struct Layer2 {
    cabled: Vec<bool>,
    /// Cables between active ports, as (device, logical port) pairs.
    cables: Vec<((usize, usize), (usize, usize))>,
    index: HashMap<Point, usize>,
    parent: Vec<usize>,
    /// Each root's set size: the smaller set joins the larger, so chains stay short.
    size: Vec<usize>,
}

impl Layer2 {
    fn new(devices: &[ParsedDevice], l1: &Layer1) -> Layer2 {
        let named = l1.hostnames();
        let cabled: Vec<bool> = devices
            .iter()
            .map(|d| named.contains(&d.hostname.to_ascii_lowercase()))
            .collect();
        let mut l2 = Layer2 {
            cabled,
            cables: Vec::new(),
            index: HashMap::new(),
            parent: Vec::new(),
            size: Vec::new(),
        };
        // Only VLANs something routes or switches in matter; VLAN 1 is every trunk's
        // native (untagged) VLAN.
        let mut vlans: BTreeSet<u32> = [1].into();
        for d in devices {
            for i in &d.config.interfaces {
                vlans.extend(i.svi_vlan());
                vlans.extend(i.encapsulation_vlan);
                if i.switchport_mode.is_some() {
                    vlans.extend(i.access_vlan);
                }
            }
        }
        let tags: Vec<Option<u32>> = std::iter::once(None)
            .chain(vlans.iter().map(|v| Some(*v)))
            .collect();
        let names: Vec<(&str, Vec<&str>)> = devices
            .iter()
            .map(|d| {
                (
                    d.hostname.as_str(),
                    d.config
                        .interfaces
                        .iter()
                        .map(|i| i.name.as_str())
                        .collect(),
                )
            })
            .collect();
        for ((da, ia), (db, ib)) in l1.resolve(&names) {
            let (ca, cb) = (&devices[da].config, &devices[db].config);
            let (pa, pb) = (port_of(ca, ia), port_of(cb, ib));
            // Batfish keeps only cables between active interfaces.
            if !(ca.interfaces[pa].admin_up && cb.interfaces[pb].admin_up) {
                continue;
            }
            for t in &tags {
                l2.union(Point::Wire(da, pa, *t), Point::Wire(db, pb, *t));
            }
            l2.cables.push(((da, pa), (db, pb)));
        }
        for (di, d) in devices.iter().enumerate() {
            if !l2.cabled[di] {
                continue;
            }
            for (ii, i) in d.config.interfaces.iter().enumerate() {
                if !i.admin_up {
                    continue;
                }
                let port = port_of(&d.config, ii);
                match switched(i) {
                    Some(SwitchportMode::Access) => {
                        let v = i.access_vlan.unwrap_or(1);
                        l2.union(Point::Wire(di, port, None), Point::Bridge(di, v));
                    }
                    Some(SwitchportMode::Trunk) => {
                        for &v in vlans
                            .iter()
                            .filter(|v| trunk_allows(i.trunk_vlans.as_deref(), **v))
                        {
                            let tag = (v != 1).then_some(v);
                            l2.union(Point::Wire(di, port, tag), Point::Bridge(di, v));
                        }
                    }
                    None => match framing(i) {
                        Framing::Svi(v) => l2.union(Point::Routed(di, ii), Point::Bridge(di, v)),
                        Framing::Tagged(t) => {
                            l2.union(Point::Routed(di, ii), Point::Wire(di, port, Some(t)))
                        }
                        Framing::Untagged | Framing::Unknown => {
                            l2.union(Point::Routed(di, ii), Point::Wire(di, port, None))
                        }
                    },
                }
            }
        }
        l2
    }

    fn id(&mut self, p: Point) -> usize {
        let next = self.parent.len();
        let id = *self.index.entry(p).or_insert(next);
        if id == next {
            self.parent.push(next);
            self.size.push(1);
        }
        id
    }

    fn root(&self, mut x: usize) -> usize {
        while self.parent[x] != x {
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: Point, b: Point) {
        let (a, b) = (self.id(a), self.id(b));
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            let (small, large) = if self.size[ra] < self.size[rb] {
                (ra, rb)
            } else {
                (rb, ra)
            };
            self.parent[small] = large;
            self.size[large] += self.size[small];
        }
    }

    /// Whether two routed interfaces can be adjacent: either device is not cabled in the
    /// file (its broadcast domains are unknown), or both sit in one broadcast domain.
    fn adjacent(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        if !(self.cabled[a.0] && self.cabled[b.0]) {
            return true;
        }
        let at =
            |(d, i): (usize, usize)| self.index.get(&Point::Routed(d, i)).map(|x| self.root(*x));
        matches!((at(a), at(b)), (Some(x), Some(y)) if x == y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iface(name: &str) -> Interface {
        Interface::new(name.to_owned(), 1)
    }

    #[test]
    fn vlans_decide_adjacency() {
        let mut tagged100 = iface("GigabitEthernet1.100");
        tagged100.encapsulation_vlan = Some(100);
        let mut tagged200 = iface("GigabitEthernet1.200");
        tagged200.encapsulation_vlan = Some(200);
        let (svi100, svi200, routed) = (iface("Vlan100"), iface("Vlan200"), iface("Ethernet1"));
        assert!(vlan_compatible(&svi100, &svi100.clone()));
        assert!(!vlan_compatible(&svi100, &svi200));
        assert!(vlan_compatible(&svi100, &tagged100));
        assert!(!vlan_compatible(&tagged100, &tagged200));
        assert!(!vlan_compatible(&tagged100, &routed));
        assert!(vlan_compatible(&svi200, &routed));
        assert!(vlan_compatible(&routed, &routed.clone()));
        assert!(vlan_compatible(&iface("irb.10"), &tagged200));
    }

    #[test]
    fn trunk_lists() {
        assert!(trunk_allows(None, 7));
        assert!(trunk_allows(Some("2-4094"), 3004));
        assert!(!trunk_allows(Some("2-4094"), 1));
        assert!(trunk_allows(Some("10,2000"), 2000));
        assert!(!trunk_allows(Some("10,2000"), 20));
        assert!(!trunk_allows(Some("none"), 10));
        assert!(trunk_allows(Some("x"), 10));
    }
}
