//! Links between devices: from LLDP and declared links in the state file, otherwise
//! inferred from interfaces sharing a subnet, as Batfish infers layer-3 edges.
//!
//! Decision: management interfaces (named Management*/mgmt*, Junos fxp0/em0/me0, or in a
//! management VRF) never make inferred links; nor do two interfaces sharing an address. Every device's management port sits in one out-of-band
//! subnet; inferring from it would join every device to every other and hide all
//! single points of failure.

use super::opstate::OpState;
use super::{FileIssue, ParsedDevice};
use crate::ifname;
use crate::model::{AddressKind, Interface};
use ipnet::IpNet;
use std::collections::{BTreeMap, BTreeSet, HashSet};

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
    /// `up` when both interfaces are administratively up, else `down`.
    pub status: &'static str,
    /// The shared subnet, for inferred links.
    pub subnet: Option<IpNet>,
}

/// Junos management ports (and their units): `fxp0` on routers, `em0` on EX/QFX, `me0`
/// on older EX; the names Batfish treats as management.
const JUNOS_MANAGEMENT: &[&str] = &["fxp0", "em0", "me0"];

/// Whether an interface is a management port that must not make links.
pub fn is_management(i: &Interface) -> bool {
    let n = i.name.to_ascii_lowercase();
    let vrf = i.vrf.as_deref().unwrap_or("").to_ascii_lowercase();
    n.starts_with("management")
        || n.starts_with("mgmt")
        || JUNOS_MANAGEMENT.contains(&n.split('.').next().unwrap_or(""))
        || vrf.contains("mgmt")
        || vrf.contains("management")
}

fn find<'a>(devices: &'a [ParsedDevice], host: &str) -> Option<&'a ParsedDevice> {
    devices
        .binary_search_by(|d| d.hostname.as_str().cmp(host))
        .ok()
        .map(|i| &devices[i])
}

fn admin_up(d: &ParsedDevice, ifname: &str) -> bool {
    d.config
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
    warnings: &mut Vec<FileIssue>,
) -> Vec<Link> {
    let mut out: BTreeMap<(Side, Side), Link> = BTreeMap::new();
    let mut lldp_hosts: HashSet<&str> = HashSet::new();
    let push =
        |a: (String, String), b: (String, String), source, subnet, out: &mut BTreeMap<_, Link>| {
            let (a, b) = ordered(a, b);
            let status = match (find(devices, &a.0), find(devices, &b.0)) {
                (Some(da), Some(db)) if admin_up(da, &a.1) && admin_up(db, &b.1) => "up",
                _ => "down",
            };
            out.entry((a.clone(), b.clone())).or_insert(Link {
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
    let mut by_subnet: BTreeMap<IpNet, Vec<(usize, usize)>> = BTreeMap::new();
    for (di, d) in devices.iter().enumerate() {
        for (ii, i) in d.config.interfaces.iter().enumerate() {
            if !i.admin_up || is_management(i) {
                continue;
            }
            for a in &i.addresses {
                let host_route = a.address.prefix_len() == a.address.max_prefix_len();
                if a.kind == AddressKind::Virtual || host_route {
                    continue;
                }
                by_subnet
                    .entry(a.address.trunc())
                    .or_default()
                    .push((di, ii));
            }
        }
    }
    let taken: BTreeSet<(String, String)> = out
        .values()
        .flat_map(|l| [l.a.clone(), l.b.clone()])
        .collect();
    for (subnet, members) in by_subnet {
        for (x, &(da, ia)) in members.iter().enumerate() {
            for &(db, ib) in &members[x + 1..] {
                if da == db {
                    continue;
                }
                let (dev_a, dev_b) = (&devices[da], &devices[db]);
                if lldp_hosts.contains(dev_a.hostname.as_str())
                    && lldp_hosts.contains(dev_b.hostname.as_str())
                {
                    continue;
                }
                let a = (
                    dev_a.hostname.clone(),
                    dev_a.config.interfaces[ia].name.clone(),
                );
                let b = (
                    dev_b.hostname.clone(),
                    dev_b.config.interfaces[ib].name.clone(),
                );
                if taken.contains(&a) && taken.contains(&b) {
                    continue;
                }
                // Two interfaces holding the same address are a duplicate, not a link
                // (Batfish's rule: every vQFX has 169.254.0.2/24 on its internal em1).
                // Shared VRRP/HSRP/VARP addresses are the point of a redundant pair.
                let (ia_if, ib_if) = (&dev_a.config.interfaces[ia], &dev_b.config.interfaces[ib]);
                let own = |i: &'_ Interface| {
                    i.addresses
                        .iter()
                        .filter(|a| a.kind != AddressKind::Virtual)
                        .map(|a| a.address.addr())
                        .collect::<Vec<_>>()
                };
                let (own_a, own_b) = (own(ia_if), own(ib_if));
                if own_a.iter().any(|x| own_b.contains(x)) {
                    continue;
                }
                push(a, b, LinkSource::Inferred, Some(subnet), &mut out);
            }
        }
    }
    out.into_values().collect()
}
