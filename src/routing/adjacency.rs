//! The IGP adjacencies (OSPF, EIGRP, IS-IS) the routing model forms between devices,
//! by the same rules its route computation uses ([`super::ospf::topology::segments`],
//! [`super::eigrp::forms_adjacencies`], [`super::isis::levels_between`]), and how a plan
//! changes them: adjacencies lost, each with why it no longer forms, and adjacencies
//! formed (`docs/precheck.md`, "IGP adjacencies").

use super::eigrp;
use super::isis;
use super::ospf::topology::{self, OspfIf};
use super::rib::{prepare, speakers, DeviceInput};
use ipnet::Ipv4Net;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// An interface at one end of an adjacency.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct End {
    /// The device.
    pub device: String,
    /// The interface, as configured.
    pub interface: String,
}

/// One adjacency between two devices' interfaces.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Adjacency {
    /// `OSPF`, `EIGRP` or `IS-IS`.
    pub protocol: &'static str,
    /// Where it runs: `area 0`, `AS 100`, `level 2`.
    pub scope: String,
    /// The subnet it forms on.
    pub subnet: Ipv4Net,
    /// Its ends, the lower first.
    pub ends: [End; 2],
}

impl Adjacency {
    /// The adjacency as a report names it: `OSPF area 0 r1 Ethernet1 ↔ r2 Ethernet1`.
    pub fn describe(&self) -> String {
        let [a, b] = &self.ends;
        format!(
            "{} {} {} {} ↔ {} {}",
            self.protocol, self.scope, a.device, a.interface, b.device, b.interface
        )
    }

    /// Whether `device`'s `interface` is one of its ends.
    pub fn on(&self, device: &str, interface: &str) -> bool {
        self.ends
            .iter()
            .any(|e| e.device == device && crate::ifname::same(&e.interface, interface))
    }
}

/// What the IGPs of a set of devices read to form adjacencies.
pub struct Igps {
    hostnames: Vec<String>,
    ospf: Vec<OspfIf>,
    eigrp: Vec<eigrp::Speaker>,
    isis: Vec<isis::Speaker>,
}

fn end(device: &str, interface: &str) -> End {
    End {
        device: device.to_owned(),
        interface: interface.to_owned(),
    }
}

fn pair(a: End, b: End) -> [End; 2] {
    if a <= b {
        [a, b]
    } else {
        [b, a]
    }
}

impl Igps {
    /// The IGP speakers of `devices`, as the route computation makes them.
    pub fn of(devices: &[DeviceInput<'_>]) -> Igps {
        let mut out = Igps {
            hostnames: Vec::with_capacity(devices.len()),
            ospf: Vec::new(),
            eigrp: Vec::with_capacity(devices.len()),
            isis: Vec::with_capacity(devices.len()),
        };
        for (k, d) in devices.iter().enumerate() {
            let s = speakers(*d, &prepare(*d));
            out.hostnames.push(d.hostname.to_owned());
            out.ospf.extend(s.ospf.ifs.into_iter().map(|mut i| {
                i.device = k;
                i
            }));
            out.eigrp.push(s.eigrp);
            out.isis.push(s.isis);
        }
        out
    }

    /// Every adjacency among these devices, sorted.
    pub fn adjacencies(&self) -> Vec<Adjacency> {
        let mut out: BTreeSet<Adjacency> = BTreeSet::new();
        let index: HashMap<String, usize> = self
            .hostnames
            .iter()
            .enumerate()
            .map(|(k, h)| (h.to_ascii_lowercase(), k))
            .collect();
        let device_of = |h: &str| index.get(&h.to_ascii_lowercase()).copied();
        let mut segs = topology::segments(&self.ospf);
        segs.extend(topology::unnumbered_segments(&self.ospf, &device_of).0);
        for s in &segs {
            for (x, &a) in s.members.iter().enumerate() {
                for &b in &s.members[x + 1..] {
                    let (ia, ib) = (&self.ospf[a], &self.ospf[b]);
                    out.insert(Adjacency {
                        protocol: "OSPF",
                        scope: format!("area {}", area_text(s.area)),
                        subnet: s.prefix.trunc(),
                        ends: pair(
                            end(&self.hostnames[ia.device], &ia.name),
                            end(&self.hostnames[ib.device], &ib.name),
                        ),
                    });
                }
            }
        }
        // EIGRP: interfaces of one subnet and AS on different devices.
        let mut by_subnet: BTreeMap<(Ipv4Net, u32), Vec<(usize, &str)>> = BTreeMap::new();
        for (d, s) in self.eigrp.iter().enumerate() {
            for inst in &s.instances {
                for i in inst.ifs.iter().filter(|i| eigrp::forms_adjacencies(i)) {
                    by_subnet
                        .entry((i.address.trunc(), inst.asn))
                        .or_default()
                        .push((d, &i.name));
                }
            }
        }
        for ((subnet, asn), members) in &by_subnet {
            for (x, (a, ia)) in members.iter().enumerate() {
                for (b, ib) in &members[x + 1..] {
                    if a != b {
                        out.insert(Adjacency {
                            protocol: "EIGRP",
                            scope: format!("AS {asn}"),
                            subnet: *subnet,
                            ends: pair(end(&self.hostnames[*a], ia), end(&self.hostnames[*b], ib)),
                        });
                    }
                }
            }
        }
        // IS-IS: per subnet, at each level the two circuits share.
        let mut by_subnet: BTreeMap<Ipv4Net, Vec<(usize, usize)>> = BTreeMap::new();
        for (d, s) in self.isis.iter().enumerate() {
            for (k, i) in s.ifs.iter().enumerate() {
                if isis::forms_adjacencies(i) {
                    by_subnet.entry(i.address.trunc()).or_default().push((d, k));
                }
            }
        }
        for (subnet, members) in &by_subnet {
            for (x, &(a, ka)) in members.iter().enumerate() {
                for &(b, kb) in &members[x + 1..] {
                    if a == b {
                        continue;
                    }
                    let (sa, sb) = (&self.isis[a], &self.isis[b]);
                    let (ia, ib) = (&sa.ifs[ka], &sb.ifs[kb]);
                    let (l1, l2) = isis::levels_between(sa, ia, sb, ib);
                    for (level, on) in [(1, l1), (2, l2)] {
                        if on {
                            out.insert(Adjacency {
                                protocol: "IS-IS",
                                scope: format!("level {level}"),
                                subnet: *subnet,
                                ends: pair(
                                    end(&self.hostnames[a], &ia.name),
                                    end(&self.hostnames[b], &ib.name),
                                ),
                            });
                        }
                    }
                }
            }
        }
        out.into_iter().collect()
    }

    /// Why `adj` does not form among these devices, from what each end runs now.
    pub fn why_not(&self, adj: &Adjacency) -> String {
        let device = |e: &End| {
            self.hostnames
                .iter()
                .position(|h| h.eq_ignore_ascii_case(&e.device))
        };
        let [ea, eb] = &adj.ends;
        let (Some(da), Some(db)) = (device(ea), device(eb)) else {
            let gone = if device(ea).is_none() { ea } else { eb };
            return format!("{} is removed", gone.device);
        };
        match adj.protocol {
            "OSPF" => {
                let find = |d: usize, e: &End| {
                    self.ospf
                        .iter()
                        .find(|i| i.device == d && crate::ifname::same(&i.name, &e.interface))
                };
                let (Some(a), Some(b)) = (find(da, ea), find(db, eb)) else {
                    return missing(adj, "OSPF", find(da, ea).is_none());
                };
                if a.passive || b.passive {
                    let e = if a.passive { ea } else { eb };
                    return format!("{} {} is passive", e.device, e.interface);
                }
                if a.address.trunc() != b.address.trunc() && !(a.unnumbered && b.unnumbered) {
                    return format!(
                        "the ends are no longer on one subnet ({} and {})",
                        a.address, b.address
                    );
                }
                if a.area != b.area {
                    return format!(
                        "the areas differ (area {} on {}, area {} on {})",
                        area_text(a.area),
                        ea.device,
                        area_text(b.area),
                        eb.device
                    );
                }
                if let (Some(x), Some(y)) = (a.mtu, b.mtu) {
                    if x != y {
                        return format!("the IP MTUs differ ({x} on {}, {y} on {}): the devices stop in EXSTART", ea.device, eb.device);
                    }
                }
                if a.hello != b.hello {
                    return "the hello and dead intervals or the authentication type differ".into();
                }
                if a.stub.is_some() != b.stub.is_some() || a.nssa.is_some() != b.nssa.is_some() {
                    return "the area's stub or NSSA flag differs between the ends".into();
                }
                if a.p2p != b.p2p {
                    return "the network types differ (point-to-point and broadcast)".into();
                }
                "it no longer forms (`olav routes` on both ends shows what they run)".into()
            }
            "EIGRP" => {
                let find = |d: usize, e: &End| {
                    self.eigrp[d].instances.iter().find_map(|inst| {
                        inst.ifs
                            .iter()
                            .find(|i| crate::ifname::same(&i.name, &e.interface))
                            .map(|i| (inst.asn, i))
                    })
                };
                let (Some((asa, a)), Some((asb, b))) = (find(da, ea), find(db, eb)) else {
                    return missing(adj, "EIGRP", find(da, ea).is_none());
                };
                if a.passive || b.passive {
                    let e = if a.passive { ea } else { eb };
                    return format!("{} {} is passive", e.device, e.interface);
                }
                if asa != asb {
                    return format!("the AS numbers differ ({asa} and {asb})");
                }
                if a.address.trunc() != b.address.trunc() {
                    return format!(
                        "the ends are no longer on one subnet ({} and {})",
                        a.address, b.address
                    );
                }
                "it no longer forms (`olav routes` on both ends shows what they run)".into()
            }
            _ => {
                let find = |d: usize, e: &End| {
                    self.isis[d]
                        .ifs
                        .iter()
                        .find(|i| crate::ifname::same(&i.name, &e.interface))
                };
                let (Some(a), Some(b)) = (find(da, ea), find(db, eb)) else {
                    return missing(adj, "IS-IS", find(da, ea).is_none());
                };
                if a.passive || b.passive {
                    let e = if a.passive { ea } else { eb };
                    return format!("{} {} is passive", e.device, e.interface);
                }
                if a.address.trunc() != b.address.trunc() {
                    return format!(
                        "the ends are no longer on one subnet ({} and {})",
                        a.address, b.address
                    );
                }
                "the levels or areas the ends share no longer match".into()
            }
        }
    }
}

/// An end that no longer runs the protocol on its interface.
fn missing(adj: &Adjacency, protocol: &str, first: bool) -> String {
    let e = &adj.ends[usize::from(!first)];
    format!(
        "{} {} no longer runs {protocol} (shut, removed, readdressed, or no longer covered by the process)",
        e.device, e.interface
    )
}

/// An OSPF area as written: `0`, or dotted when above 255 (`0.0.1.0`).
fn area_text(area: u32) -> String {
    if area <= 255 {
        area.to_string()
    } else {
        std::net::Ipv4Addr::from(area).to_string()
    }
}

/// How a plan changes the adjacencies of the devices it changes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Adjacencies that form now and not after the plan, each with why.
    pub lost: Vec<(Adjacency, String)>,
    /// Adjacencies that form after the plan and not now.
    pub formed: Vec<Adjacency>,
}

/// The adjacencies with an end on a device `changed` selects, before and after.
/// An adjacency is the same before and after when its protocol, scope and ends are:
/// both ends readdressed together keep it.
pub fn change(before: &Igps, after: &Igps, changed: &dyn Fn(&str) -> bool) -> Change {
    type Key = (&'static str, String, [End; 2]);
    let keyed = |g: &Igps| -> BTreeMap<Key, Adjacency> {
        g.adjacencies()
            .into_iter()
            .filter(|a| a.ends.iter().any(|e| changed(&e.device)))
            .map(|a| ((a.protocol, a.scope.clone(), a.ends.clone()), a))
            .collect()
    };
    let (was, is) = (keyed(before), keyed(after));
    Change {
        lost: was
            .iter()
            .filter(|(k, _)| !is.contains_key(*k))
            .map(|(_, a)| (a.clone(), after.why_not(a)))
            .collect(),
        formed: is
            .iter()
            .filter(|(k, _)| !was.contains_key(*k))
            .map(|(_, a)| a.clone())
            .collect(),
    }
}
