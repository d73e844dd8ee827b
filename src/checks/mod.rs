//! Built-in static verification: the answers Batfish gives to its most used
//! configuration questions, computed locally, with Batfish's column and status names —
//! duplicate IP ownership, overlapping subnets, BGP session compatibility, undefined
//! references. It runs over the imported network or over a candidate model (the state
//! plus a plan's configuration lines), which is what the simulator uses when no Batfish
//! service runs.

pub mod bgp;
pub mod model;
pub mod reach;
pub mod scope;
pub mod whole;

use crate::model::{AddressKind, StructureKind};
use model::Model;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which checks to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Only {
    /// Duplicate IP ownership.
    Duplicates,
    /// Overlapping subnets.
    Overlaps,
    /// BGP session compatibility.
    Bgp,
    /// Undefined references.
    References,
    /// Management addresses no interface of their device holds (a warning).
    Management,
}

/// One owner of a duplicated address (Batfish ipOwners, duplicatesOnly).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct IpOwner {
    /// Node.
    pub node: String,
    /// VRF.
    pub vrf: String,
    /// Interface.
    pub interface: String,
    /// IP.
    pub ip: String,
    /// Mask length.
    pub mask: u8,
    /// Whether the interface is active.
    pub active: bool,
}

/// Two interfaces whose subnets overlap without being the same subnet.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Overlap {
    /// VRF.
    pub vrf: String,
    /// First interface (`node:interface`).
    pub interface_a: String,
    /// Its subnet.
    pub subnet_a: String,
    /// Second interface.
    pub interface_b: String,
    /// Its subnet.
    pub subnet_b: String,
}

/// A reference to a structure the device does not define (Batfish undefinedReferences).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UndefinedRef {
    /// Node.
    pub node: String,
    /// Config file.
    pub file_name: String,
    /// Structure type.
    pub struct_type: String,
    /// Name referenced.
    pub ref_name: String,
    /// Where: "bgp inbound route-map".
    pub context: String,
    /// Line.
    pub line: u32,
}

/// Everything the checks found.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Findings {
    /// Duplicate owners (every owner of each duplicated active address).
    pub duplicates: Vec<IpOwner>,
    /// Overlapping subnets.
    pub overlaps: Vec<Overlap>,
    /// Every configured peering with its compatibility status.
    pub bgp: Vec<bgp::Session>,
    /// Undefined references.
    pub references: Vec<UndefinedRef>,
}

impl Findings {
    /// Peerings whose status is a problem.
    pub fn bgp_problems(&self) -> impl Iterator<Item = &bgp::Session> {
        self.bgp.iter().filter(|s| s.is_problem())
    }

    /// Whether anything is wrong.
    pub fn clean(&self) -> bool {
        self.duplicates.is_empty()
            && self.overlaps.is_empty()
            && self.references.is_empty()
            && self.bgp_problems().next().is_none()
    }

    /// Problems as one line each, for replies and reports.
    pub fn problem_lines(&self) -> Vec<String> {
        self.problems().into_iter().map(|p| p.message).collect()
    }

    /// The problem lines of `self` (a candidate) that `before` (the network as imported)
    /// does not have. A problem is known by what it is about, not where it is cited: the
    /// plan's lines move the stored ones, and a Junos candidate is in set form, so a
    /// reference that was already undefined is the same problem at another line. One more
    /// reference than before (the plan adds a second use) is new.
    pub fn introduced_since(&self, before: &Findings) -> Vec<Problem> {
        let mut had: BTreeMap<String, usize> = BTreeMap::new();
        for (id, _) in before.identified() {
            *had.entry(id).or_default() += 1;
        }
        self.identified()
            .into_iter()
            .filter_map(|(id, p)| match had.get_mut(&id) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    None
                }
                _ => Some(p),
            })
            .collect()
    }

    /// Every problem as a row with a stable code (`check.duplicate_ip`, `check.overlap`,
    /// `check.bgp.half_open`, `check.undefined_reference`), for people and scripts.
    pub fn problems(&self) -> Vec<Problem> {
        self.identified().into_iter().map(|(_, p)| p).collect()
    }

    /// Every problem with what identifies it: its code and what it is about, its
    /// citation (file and line) left out.
    fn identified(&self) -> Vec<(String, Problem)> {
        let mut out: Vec<Problem> = Vec::new();
        let mut about: Vec<String> = Vec::new();
        let mut by_ip: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
        for d in &self.duplicates {
            by_ip
                .entry((&d.vrf, &d.ip))
                .or_default()
                .push(format!("{}:{}", d.node, d.interface));
        }
        for ((vrf, ip), owners) in by_ip {
            out.push(Problem {
                code: "check.duplicate_ip".into(),
                element: format!("{ip} (vrf {vrf})"),
                message: format!("duplicate IP {ip} (vrf {vrf}) on {}", owners.join(", ")),
            });
        }
        for o in &self.overlaps {
            out.push(Problem {
                code: "check.overlap".into(),
                element: format!("{} {}", o.interface_a, o.subnet_a),
                message: format!(
                    "overlapping subnets (vrf {}): {} {} and {} {}",
                    o.vrf, o.interface_a, o.subnet_a, o.interface_b, o.subnet_b
                ),
            });
        }
        for s in self.bgp_problems() {
            // An unnumbered peering has no remote IP: it is known by its interface.
            let remote = if s.remote_ip.is_empty() {
                format!(
                    "unnumbered over {}",
                    s.local_interface.as_deref().unwrap_or("?")
                )
            } else {
                s.remote_ip.clone()
            };
            out.push(Problem {
                code: format!(
                    "check.bgp.{}",
                    s.configured_status.as_str().to_ascii_lowercase()
                ),
                element: format!("{} {} → {}", s.node, s.vrf, remote),
                message: format!(
                    "BGP {} {} → {} ({}): {}",
                    s.node,
                    s.vrf,
                    remote,
                    s.session_type.map_or("?", |t| t.as_str()),
                    s.configured_status.as_str()
                ),
            });
        }
        let mut cited = Vec::with_capacity(self.references.len());
        for r in &self.references {
            cited.push(format!(
                "{} {} {} {}",
                r.node, r.struct_type, r.ref_name, r.context
            ));
            out.push(Problem {
                code: "check.undefined_reference".into(),
                element: format!("{} {} {}", r.node, r.struct_type, r.ref_name),
                message: format!(
                    "undefined {} {} on {} ({}, {}:{})",
                    r.struct_type, r.ref_name, r.node, r.context, r.file_name, r.line
                ),
            });
        }
        // Only references carry a citation; every other problem is known by its message.
        let cited_from = out.len() - cited.len();
        about.extend(out[..cited_from].iter().map(|p| p.message.clone()));
        about.extend(cited);
        about
            .into_iter()
            .zip(out)
            .map(|(a, p)| (format!("{} {a}", p.code), p))
            .collect()
    }
}

/// One problem the static checks found. Every one is an error: the static checks report
/// only what Batfish would count as a problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// Stable code.
    pub code: String,
    /// The element it is about.
    pub element: String,
    /// In words.
    pub message: String,
}

/// A warning of `olav check`: not a problem Batfish would count, but a fault in what the
/// rest of olav relies on; it does not fail the check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// Stable code.
    pub code: &'static str,
    /// The element it is about.
    pub element: String,
    /// In words.
    pub message: String,
}

/// The imported network's warnings: each device whose management address no interface
/// of its own holds (the address is where a change reaches the device).
pub fn warnings(db: &crate::state::StateDb) -> Result<Vec<Warning>, crate::state::StateError> {
    Ok(db
        .management_addresses_unheld()?
        .into_iter()
        .map(|u| {
            let instead = match &u.held_by {
                Some((h, i)) => format!("; {h} {i} holds it instead"),
                None => String::new(),
            };
            Warning {
                code: "check.management_address",
                element: u.hostname.clone(),
                message: format!(
                    "{}: management address {} is on none of its interfaces{instead}: the device cannot be reached there (correct the state file's management_address, or the device's configuration)",
                    u.hostname, u.address
                ),
            }
        })
        .collect())
}

/// Every check's answer on the network as imported: computed once per state version,
/// kept with the network model, loaded once per process.
pub fn imported(
    db: &crate::state::StateDb,
) -> Result<std::sync::Arc<Findings>, crate::state::StateError> {
    crate::network::store::shared(
        db,
        "checks",
        |db| {
            // A run of devices at a time ([`whole`]); the network decoded at once only
            // where a device does not decode.
            let configs = crate::network::ParsedConfigs::shared(db)?;
            let prints = footprints(db)?;
            if prints.state_version == configs.state_version {
                if let Some(f) = whole::findings(&prints, |i| configs.at(i as usize), whole::RUN) {
                    return Ok(f);
                }
            }
            Ok(run(&Model::from_state(db)?, &[]))
        },
        |_| {},
    )
}

/// Every device's footprint ([`scope::Footprints`]): computed once per state version, a
/// device decoded at a time, kept with the network model.
pub fn footprints(
    db: &crate::state::StateDb,
) -> Result<std::sync::Arc<scope::Footprints>, crate::state::StateError> {
    crate::network::store::shared(
        db,
        "footprints",
        |db| {
            let configs = crate::network::ParsedConfigs::shared(db)?;
            Ok(scope::Footprints::of(
                configs.state_version,
                (0..configs.len()).map(|i| configs.at(i)),
            ))
        },
        |_| {},
    )
}

/// Every check's answer on the network as `plan` would leave it, given the answers on
/// the network as imported (of state version `version`): recomputed only where the plan
/// reaches ([`scope`]), or on the whole candidate network when it reaches most of it,
/// when a device does not decode, or when the state changed meanwhile.
pub fn candidate(
    db: &crate::state::StateDb,
    plan: &crate::plan::Plan,
    imported: &Findings,
    version: i64,
) -> Result<Findings, crate::state::StateError> {
    match scoped(db, plan, imported, version)? {
        Some(f) if db.state_version()? == version => Ok(f),
        _ => Ok(run(&Model::from_state(db)?.candidate(db, plan)?, &[])),
    }
}

/// [`candidate`] where the plan reaches; None where it cannot be scoped.
fn scoped(
    db: &crate::state::StateDb,
    plan: &crate::plan::Plan,
    imported: &Findings,
    version: i64,
) -> Result<Option<Findings>, crate::state::StateError> {
    let configs = crate::network::ParsedConfigs::shared(db)?;
    let footprints = footprints(db)?;
    if configs.state_version != version || footprints.state_version != version {
        return Ok(None);
    }
    // Devices the network lacks are neither changed nor removed (as in a whole candidate).
    let removed: Vec<&str> = model::removed_devices(plan)
        .into_iter()
        .filter(|h| footprints.device(h).is_some())
        .collect();
    let mut changed = Vec::new();
    for (host, lines) in crate::dialect::plan_lines(plan) {
        let Some(i) = footprints.device(&host) else {
            continue;
        };
        if removed.contains(&host.as_str()) {
            continue;
        }
        let Some(d) = configs.at(i as usize) else {
            return Ok(None);
        };
        changed.push(std::sync::Arc::new(model::candidate_device(
            db, &d, &lines,
        )?));
    }
    Ok(scope::findings(
        imported,
        &footprints,
        &changed,
        &removed,
        |i| configs.at(i as usize),
    ))
}

impl Findings {
    /// Only the findings of the selected checks (all when `only` is empty).
    pub fn only(&self, only: &[Only]) -> Findings {
        let want = |o: Only| only.is_empty() || only.contains(&o);
        Findings {
            duplicates: if want(Only::Duplicates) {
                self.duplicates.clone()
            } else {
                Vec::new()
            },
            overlaps: if want(Only::Overlaps) {
                self.overlaps.clone()
            } else {
                Vec::new()
            },
            bgp: if want(Only::Bgp) {
                self.bgp.clone()
            } else {
                Vec::new()
            },
            references: if want(Only::References) {
                self.references.clone()
            } else {
                Vec::new()
            },
        }
    }
}

/// Runs the selected checks (all when `only` is empty).
pub fn run(m: &Model, only: &[Only]) -> Findings {
    let want = |o: Only| only.is_empty() || only.contains(&o);
    Findings {
        duplicates: if want(Only::Duplicates) {
            duplicates(m)
        } else {
            Vec::new()
        },
        overlaps: if want(Only::Overlaps) {
            overlaps(m)
        } else {
            Vec::new()
        },
        bgp: if want(Only::Bgp) {
            bgp::compatibility(m)
        } else {
            Vec::new()
        },
        references: if want(Only::References) {
            references(m)
        } else {
            Vec::new()
        },
    }
}

/// Addresses owned by more than one active interface in one VRF. Shared by design and so
/// not counted: virtual addresses (VRRP, HSRP, VARP), management interfaces (out-of-band
/// networks reuse addresses), link-local addresses, and an MLAG pair's anycast VTEP
/// loopback (the VXLAN source interface).
pub fn duplicates(m: &Model) -> Vec<IpOwner> {
    // Link-local addresses never leave their link: the same one on many devices
    // (a vQFX's em1 169.254.0.2) is not a conflict.
    let link_local = |ip: std::net::IpAddr| match ip {
        std::net::IpAddr::V4(v) => v.is_link_local(),
        std::net::IpAddr::V6(v) => (v.segments()[0] & 0xffc0) == 0xfe80,
    };
    // Owners by reference first: only the few duplicated addresses are written out.
    type Owned<'a> = (
        &'a str,
        &'a crate::model::Interface,
        &'a crate::model::InterfaceAddress,
    );
    // One array sorted by (VRF, address) rather than a map of vectors: a large network
    // has a million addresses and a handful of duplicates.
    let mut owners: Vec<((&str, std::net::IpAddr), Owned<'_>)> =
        Vec::with_capacity(m.devices.len() * 8);
    for d in &m.devices {
        // The loopback a VXLAN interface sources from is an anycast VTEP address that an
        // MLAG pair shares by design.
        let vtep = &d.vtep;
        for i in d
            .config
            .interfaces
            .iter()
            .filter(|i| i.admin_up && !crate::import::links::is_management(i))
            .filter(|i| !vtep.iter().any(|v| crate::ifname::same(v, &i.name)))
        {
            let vrf = i.vrf.as_deref().unwrap_or("default");
            for a in i
                .addresses
                .iter()
                .filter(|a| a.kind != AddressKind::Virtual && !link_local(a.address.addr()))
            {
                owners.push(((vrf, a.address.addr()), (&d.hostname, i, a)));
            }
        }
    }
    owners.sort_unstable_by_key(|(k, _)| *k);
    let mut out: Vec<IpOwner> = owners
        .chunk_by(|x, y| x.0 == y.0)
        .filter(|group| group.len() > 1)
        .flatten()
        .map(|((vrf, _), (node, i, a))| IpOwner {
            node: (*node).to_owned(),
            vrf: (*vrf).to_owned(),
            interface: i.name.clone(),
            ip: a.address.addr().to_string(),
            mask: a.address.prefix_len(),
            active: i.admin_up,
        })
        .collect();
    out.sort();
    out
}

/// Interface subnets in one VRF that overlap without being the same subnet.
///
/// Two interfaces with the same subnet are one segment (a link, a LAN, a VRRP/HSRP
/// pair); only a subnet inside another one is an overlap. Management interfaces, host
/// routes and virtual addresses are left out.
pub fn overlaps(m: &Model) -> Vec<Overlap> {
    overlaps_between(m).into_iter().map(|(o, _)| o).collect()
}

/// [`overlaps`], each with the numbers of the two devices it is between.
pub(crate) fn overlaps_between(m: &Model) -> Vec<(Overlap, [usize; 2])> {
    // (subnet, device, interface) by reference: a large network has a million subnets
    // and a handful of overlaps, so names are written out only for those.
    type Net<'a> = (ipnet::IpNet, usize, &'a str);
    let mut by_vrf: BTreeMap<&str, Vec<Net<'_>>> = BTreeMap::new();
    for (di, d) in m.devices.iter().enumerate() {
        for i in d
            .config
            .interfaces
            .iter()
            .filter(|i| i.admin_up && !crate::import::links::is_management(i))
        {
            for a in i
                .addresses
                .iter()
                .filter(|a| a.kind != AddressKind::Virtual)
            {
                let net = a.address.trunc();
                if net.prefix_len() == net.max_prefix_len() {
                    continue;
                }
                by_vrf
                    .entry(i.vrf.as_deref().unwrap_or("default"))
                    .or_default()
                    .push((net, di, &i.name));
            }
        }
    }
    let mut out = Vec::new();
    for (vrf, mut nets) in by_vrf {
        // Sorted by network then length: a subnet's containers come before it. Stable:
        // one subnet's holders stay in device order.
        nets.sort_by(|a, b| {
            (a.0.network(), a.0.prefix_len()).cmp(&(b.0.network(), b.0.prefix_len()))
        });
        let mut open: Vec<Net<'_>> = Vec::new();
        for (net, dev, ifname) in nets {
            open.retain(|(o, _, _)| o.contains(&net.network()));
            for (o, odev, oif) in &open {
                if o.prefix_len() != net.prefix_len() {
                    let host = |d: usize| &m.devices[d].hostname;
                    out.push((
                        Overlap {
                            vrf: vrf.to_owned(),
                            interface_a: format!("{}:{oif}", host(*odev)),
                            subnet_a: o.to_string(),
                            interface_b: format!("{}:{ifname}", host(dev)),
                            subnet_b: net.to_string(),
                        },
                        [*odev, dev],
                    ));
                }
            }
            open.push((net, dev, ifname));
        }
    }
    out.sort();
    out
}

/// References to route-maps, prefix-lists, ACLs, community-lists and peer-groups the
/// device does not define.
pub fn references(m: &Model) -> Vec<UndefinedRef> {
    let mut out = Vec::new();
    for d in &m.devices {
        let defined: std::collections::HashSet<(StructureKind, &str)> = d
            .config
            .structures
            .iter()
            .map(|s| (s.kind, s.name.as_str()))
            .collect();
        for r in &d.config.references {
            if !defined.contains(&(r.kind, r.name.as_str())) {
                out.push(UndefinedRef {
                    node: d.hostname.clone(),
                    file_name: d.source_file.clone(),
                    struct_type: r.kind.as_str().to_owned(),
                    ref_name: r.name.clone(),
                    context: r.context.clone(),
                    line: r.line,
                });
            }
        }
    }
    out.sort();
    out
}
