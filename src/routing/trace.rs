//! The forwarding path of one address through the computed RIBs (`olav routes --trace`):
//! from a device, the longest-prefix match in its RIB, each next hop resolved to the
//! device that owns it, hop by hop, every ECMP branch followed, until the packet is
//! accepted, delivered to a subnet, leaves the network, is dropped, or loops. Routing
//! only: ACLs, policy-based routing and NAT are not applied (`docs/routing.md`, "Trace").

use super::connected::{active, vrf_name};
use super::rib::DeviceRib;
use super::route::{NextHop, Route};
use crate::model::DeviceConfig;
use ipnet::{IpNet, Ipv4Net};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::net::Ipv4Addr;
use std::sync::Arc;

/// How many hops one branch may take before it is called a loop (Batfish's traceroute
/// stops looping packets the same way: a device and VRF seen twice).
const MAX_HOPS: usize = 64;

/// How many branches (ECMP paths) are followed before the rest are cut off.
const MAX_PATHS: usize = 256;

/// How many times a next-hop address is looked up again (recursive routes).
const MAX_RECURSION: usize = 8;

/// An interface address some device owns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The device.
    pub hostname: String,
    /// The interface.
    pub interface: String,
    /// Its VRF.
    pub vrf: String,
    /// The address's subnet.
    pub subnet: Ipv4Net,
    /// Whether the interface is up.
    pub up: bool,
}

/// The caveat of a trace that took peers outside the network to send no route for its
/// destination.
pub const ASSUMED: &str =
    "assumed: no peer outside the network sends a route for the network's own addresses (one AS, no allowas-in)";

/// Who owns which address: the devices' interface addresses.
#[derive(Debug, Clone, Default)]
pub struct Addresses {
    owners: HashMap<Ipv4Addr, Vec<Owner>>,
    /// Every interface subnet of the network.
    subnets: std::collections::HashSet<Ipv4Net>,
    /// The ASes the network's BGP speakers use (router AS, per-neighbor `local-as`).
    asns: std::collections::BTreeSet<u32>,
    /// Whether some speaker accepts its own AS back (`allowas-in`), sits in a
    /// confederation, or its AS is not known.
    own_as_may_return: bool,
}

impl Addresses {
    /// Records that `owner` holds `address`.
    pub fn add(&mut self, address: Ipv4Addr, owner: Owner) {
        self.subnets.insert(owner.subnet);
        self.owners.entry(address).or_default().push(owner);
    }

    /// Records every IPv4 address of a device's configuration (up: the interface is
    /// administratively up and not the management plane's).
    pub fn of_config(&mut self, hostname: &str, config: &DeviceConfig) {
        if let Some(b) = &config.bgp {
            match b.local_as {
                Some(a) => {
                    self.asns.insert(a);
                }
                None => self.own_as_may_return = true,
            }
            self.own_as_may_return |= b.confederation_id.is_some();
            for n in &b.neighbors {
                self.asns.extend(n.local_as);
                self.own_as_may_return |= n.routing.allowas_in.is_some();
            }
        }
        for i in &config.interfaces {
            for a in &i.addresses {
                if let IpNet::V4(n) = a.address {
                    let owner = Owner {
                        hostname: hostname.to_owned(),
                        interface: i.name.clone(),
                        vrf: vrf_name(&i.vrf),
                        subnet: n.trunc(),
                        up: active(i),
                    };
                    self.add(n.addr(), owner);
                }
            }
        }
    }

    /// Every address of the state's devices, from the network model.
    pub fn of_model(m: &crate::network::NetworkModel) -> Addresses {
        // The model keeps no `allowas-in`: outside peers are never assumed away here.
        let mut out = Addresses {
            own_as_may_return: true,
            ..Addresses::default()
        };
        for a in &m.addresses {
            if let (std::net::IpAddr::V4(ip), IpNet::V4(p)) = (a.address, a.prefix) {
                out.add(
                    ip,
                    Owner {
                        hostname: m.name(a.hostname).to_owned(),
                        interface: m.name(a.ifname).to_owned(),
                        vrf: vrf_name(&Some(m.name(a.vrf).to_owned())),
                        subnet: p.trunc(),
                        up: a.up,
                    },
                );
            }
        }
        out
    }

    /// Whether no route from a peer outside the network can cover `dst`: it lies in a
    /// subnet of the network's own, and every BGP speaker is in one AS that none accepts
    /// back — a path the network announced comes back with its own AS in it and is
    /// dropped (`docs/routing.md`, "Tracing").
    pub fn stays_inside(&self, dst: Ipv4Addr) -> bool {
        !self.own_as_may_return && self.asns.len() <= 1 && self.in_own_subnet(dst)
    }

    /// Whether `dst` lies in a subnet some interface of the network holds (up or not).
    pub fn in_own_subnet(&self, dst: Ipv4Addr) -> bool {
        (0..=32u8)
            .any(|len| Ipv4Net::new(dst, len).is_ok_and(|n| self.subnets.contains(&n.trunc())))
    }

    /// The up interfaces that hold `address`.
    fn owners(&self, address: Ipv4Addr) -> Vec<&Owner> {
        self.owners
            .get(&address)
            .map(|v| v.iter().filter(|o| o.up).collect())
            .unwrap_or_default()
    }

    /// The up interface of `vrf` on which `hostname` holds `address`, if any.
    fn owned_by(&self, address: Ipv4Addr, hostname: &str, vrf: &str) -> Option<String> {
        self.owners(address)
            .iter()
            .find(|o| o.hostname == hostname && o.vrf == vrf)
            .map(|o| o.interface.clone())
    }

    /// The devices that hold `address` on an up interface, in order, each once.
    pub fn holders(&self, address: Ipv4Addr) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for o in self.owners(address) {
            if !out.contains(&o.hostname) {
                out.push(o.hostname.clone());
            }
        }
        out
    }

    /// The device and VRF an address belongs to, when one device holds it.
    pub fn device_of(&self, address: Ipv4Addr) -> Option<(&str, &str)> {
        let o = self.owners(address);
        let first = o.first()?;
        o.iter()
            .all(|x| x.hostname == first.hostname)
            .then_some((first.hostname.as_str(), first.vrf.as_str()))
    }
}

/// How a branch ends, with Batfish's traceroute disposition names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Disposition {
    /// A device owns the address.
    Accepted,
    /// Sent onto a connected subnet where no device olav knows owns the address.
    DeliveredToSubnet,
    /// Sent to a next hop no device olav knows owns (a provider, a server).
    ExitsNetwork,
    /// No route for the address.
    NoRoute,
    /// A discard (`Null0`, `discard`, `reject`) route.
    NullRouted,
    /// The branch came back to a device and VRF it had passed.
    Loop,
    /// olav cannot tell: the RIB it would read is incomplete or the device is unknown.
    InsufficientInfo,
}

impl fmt::Display for Disposition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Disposition::Accepted => "ACCEPTED",
            Disposition::DeliveredToSubnet => "DELIVERED_TO_SUBNET",
            Disposition::ExitsNetwork => "EXITS_NETWORK",
            Disposition::NoRoute => "NO_ROUTE",
            Disposition::NullRouted => "NULL_ROUTED",
            Disposition::Loop => "LOOP",
            Disposition::InsufficientInfo => "INSUFFICIENT_INFO",
        })
    }
}

/// One device a branch passes: the route it matched and where that sent the packet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hop {
    /// The device.
    pub node: String,
    /// The VRF looked up.
    pub vrf: String,
    /// The matched route's network (None: nothing matched, or the device owns the address).
    pub network: Option<String>,
    /// The matched route's protocol.
    pub protocol: Option<String>,
    /// The matched route's next hop, as the RIB has it (Batfish's next-hop object in JSON).
    #[serde(serialize_with = "next_hop_json")]
    pub next_hop: Option<NextHop>,
    /// The interface the packet leaves by, when known; for the device that accepts it,
    /// the interface that holds the address.
    pub egress: Option<String>,
}

/// A hop's next hop as Batfish's `NextHop` object.
fn next_hop_json<S: serde::Serializer>(n: &Option<NextHop>, s: S) -> Result<S::Ok, S::Error> {
    match n {
        Some(n) => serde::Serialize::serialize(&n.to_json(), s),
        None => s.serialize_none(),
    }
}

/// One branch from the source to its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Branch {
    /// The devices passed, in order.
    pub hops: Vec<Hop>,
    /// How it ends.
    pub disposition: Disposition,
    /// Why the branch may differ on the network: incomplete RIBs it read, shared
    /// addresses, cut-off recursion.
    pub caveats: Vec<String>,
}

/// Where one lookup sends the packet.
#[derive(Debug, Clone)]
enum Step {
    /// To another device (and VRF), out of `egress`.
    Next {
        egress: Option<String>,
        node: String,
        vrf: String,
        caveat: Option<String>,
    },
    /// The branch ends here.
    End(Disposition, Option<String>),
    /// Look up again in another VRF of the same device.
    Vrf(String),
}

/// The RIBs a trace reads, by hostname (shared: a trace visits a device's RIB once per
/// branch, and a pre-check traces many flows through the same RIBs).
pub trait Ribs {
    /// The device's RIB, when olav has its configuration.
    fn rib(&self, hostname: &str) -> Option<Arc<DeviceRib>>;
}

impl<F: Fn(&str) -> Option<Arc<DeviceRib>>> Ribs for F {
    fn rib(&self, hostname: &str) -> Option<Arc<DeviceRib>> {
        self(hostname)
    }
}

/// The longest-prefix matches for `dst` in `vrf`: every row of the most specific network.
fn longest_match<'a>(rib: &'a DeviceRib, vrf: &str, dst: Ipv4Addr) -> Vec<&'a Route> {
    let matching: Vec<&Route> = rib
        .routes
        .iter()
        .filter(|r| r.network.contains(&dst) && r.vrf == vrf)
        .collect();
    let Some(len) = matching.iter().map(|r| r.network.prefix_len()).max() else {
        return Vec::new();
    };
    matching
        .into_iter()
        .filter(|r| r.network.prefix_len() == len)
        .collect()
}

/// Where sending to `ip` out of `egress` (when known) from `node` leads: the device that
/// owns it, or out of the network.
fn towards(addresses: &Addresses, node: &str, ip: Ipv4Addr, egress: Option<String>) -> Step {
    let owners: Vec<&Owner> = addresses
        .owners(ip)
        .into_iter()
        .filter(|o| o.hostname != node)
        .collect();
    match owners.as_slice() {
        [] => End(Disposition::ExitsNetwork, None),
        [o] => Step::Next {
            egress,
            node: o.hostname.clone(),
            vrf: o.vrf.clone(),
            caveat: None,
        },
        [o, ..] => Step::Next {
            egress,
            node: o.hostname.clone(),
            vrf: o.vrf.clone(),
            caveat: Some(format!(
                "{ip} is held by {} devices ({}): followed to {}",
                owners.len(),
                owners
                    .iter()
                    .map(|o| o.hostname.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                o.hostname
            )),
        },
    }
}

use Step::End;

/// Whether `dst` lies in a connected subnet of `interface` (in `vrf`).
fn on_subnet(rib: &DeviceRib, vrf: &str, interface: &str, dst: Ipv4Addr) -> bool {
    rib.routes.iter().any(|r| {
        r.vrf == vrf
            && r.protocol == super::route::Protocol::Connected
            && r.network.contains(&dst)
            && matches!(&r.next_hop, NextHop::Interface { interface: i, .. } if i == interface)
    })
}

/// The steps one route sends `dst` to from `node`: its next hop resolved through the
/// RIB (recursively, every ECMP branch) to an egress interface and neighbor.
fn steps(
    addresses: &Addresses,
    rib: &DeviceRib,
    vrf: &str,
    dst: Ipv4Addr,
    route: &Route,
    depth: usize,
) -> Vec<Step> {
    let node = rib.hostname.as_str();
    match &route.next_hop {
        NextHop::Discard => vec![End(Disposition::NullRouted, None)],
        NextHop::Vrf(v) => vec![Step::Vrf(v.clone())],
        NextHop::Vtep { vni, vtep } => vec![End(
            Disposition::InsufficientInfo,
            Some(format!(
                "{node} sends {dst} into a VXLAN tunnel to VTEP {vtep} (VNI {vni}): the tunnel is not traced"
            )),
        )],
        NextHop::Interface {
            interface,
            ip: Some(ip),
        } => vec![towards(addresses, node, *ip, Some(interface.to_string()))],
        NextHop::Interface {
            interface,
            ip: None,
        } if !on_subnet(rib, vrf, interface, dst) => vec![End(
            Disposition::InsufficientInfo,
            Some(format!(
                "{node} sends {dst} out of {interface}, outside that interface's subnets: it is delivered only if a neighbour answers ARP for it (proxy ARP)"
            )),
        )],
        NextHop::Interface {
            interface,
            ip: None,
        } => {
            // On-link: the packet goes to whoever owns the destination on that subnet.
            match towards(addresses, node, dst, Some(interface.to_string())) {
                End(Disposition::ExitsNetwork, _) => {
                    vec![End(Disposition::DeliveredToSubnet, None)]
                }
                s => vec![s],
            }
        }
        NextHop::Ip(ip) => {
            if depth >= MAX_RECURSION {
                return vec![End(
                    Disposition::InsufficientInfo,
                    Some(format!("next hop {ip} resolves recursively too deep")),
                )];
            }
            let under = longest_match(rib, vrf, *ip);
            if under.is_empty() {
                return vec![End(Disposition::NoRoute, None)];
            }
            under
                .into_iter()
                // The resolving route carries the packet towards the next hop: an on-link
                // route sends it to the next hop itself.
                .flat_map(|r| match &r.next_hop {
                    NextHop::Interface {
                        interface,
                        ip: None,
                    } => vec![towards(addresses, node, *ip, Some(interface.to_string()))],
                    _ => steps(addresses, rib, vrf, *ip, r, depth + 1),
                })
                .collect()
        }
    }
}

/// The interface `rib`'s device sends `dst` out of in `vrf` (the first ECMP branch,
/// next hops resolved recursively); None without a route or for a discard route.
pub fn egress(rib: &DeviceRib, vrf: &str, dst: Ipv4Addr) -> Option<String> {
    let mut target = dst;
    for _ in 0..MAX_RECURSION {
        let r = longest_match(rib, vrf, target).into_iter().next()?;
        match &r.next_hop {
            NextHop::Interface { interface, .. } => return Some(interface.to_string()),
            NextHop::Ip(ip) => target = *ip,
            NextHop::Discard | NextHop::Vrf(_) | NextHop::Vtep { .. } => return None,
        }
    }
    None
}

/// Every branch of `dst` from `source` (VRF `vrf`), in order.
pub fn trace(
    ribs: &dyn Ribs,
    addresses: &Addresses,
    source: &str,
    vrf: &str,
    dst: Ipv4Addr,
) -> Vec<Branch> {
    let mut done: Vec<Branch> = Vec::new();
    // Branches in progress: (hops so far, caveats, device, VRF).
    let mut work: Vec<(Vec<Hop>, Vec<String>, String, String)> =
        vec![(Vec::new(), Vec::new(), source.to_owned(), vrf.to_owned())];
    let mut cache: HashMap<String, Option<Arc<DeviceRib>>> = HashMap::new();
    let inside = addresses.stays_inside(dst);
    while let Some((hops, mut caveats, node, vrf)) = work.pop() {
        let end = |mut hops: Vec<Hop>, caveats: Vec<String>, hop: Hop, d: Disposition| {
            hops.push(hop);
            Branch {
                hops,
                disposition: d,
                caveats,
            }
        };
        let bare = Hop {
            node: node.clone(),
            vrf: vrf.clone(),
            network: None,
            protocol: None,
            next_hop: None,
            egress: None,
        };
        if done.len() + work.len() >= MAX_PATHS {
            caveats.push(format!(
                "more than {MAX_PATHS} branches: the rest are not followed"
            ));
            done.push(end(hops, caveats, bare, Disposition::InsufficientInfo));
            continue;
        }
        if hops.len() >= MAX_HOPS || hops.iter().any(|h| h.node == node && h.vrf == vrf) {
            done.push(end(hops, caveats, bare, Disposition::Loop));
            continue;
        }
        if let Some(on) = addresses.owned_by(dst, &node, &vrf) {
            let hop = Hop {
                egress: Some(on),
                ..bare
            };
            done.push(end(hops, caveats, hop, Disposition::Accepted));
            continue;
        }
        let rib = cache
            .entry(node.clone())
            .or_insert_with(|| ribs.rib(&node))
            .clone();
        let Some(rib) = rib else {
            caveats.push(format!("olav has no configuration of {node}"));
            done.push(end(hops, caveats, bare, Disposition::InsufficientInfo));
            continue;
        };
        let mut unknown = rib.incomplete_in(&vrf);
        if inside {
            let before = unknown.len();
            unknown.retain(|r| !super::dynamic::from_outside(r));
            if unknown.len() < before && !caveats.iter().any(|c| c == ASSUMED) {
                caveats.push(ASSUMED.to_owned());
            }
        }
        if !unknown.is_empty() {
            caveats.push(format!(
                "{node}'s RIB is incomplete: {}",
                unknown.join("; ")
            ));
        }
        let matched = longest_match(&rib, &vrf, dst);
        if matched.is_empty() {
            let d = if unknown.is_empty() {
                Disposition::NoRoute
            } else {
                Disposition::InsufficientInfo
            };
            done.push(end(hops, caveats, bare, d));
            continue;
        }
        for r in matched {
            let hop = Hop {
                network: Some(r.network.to_string()),
                protocol: Some(r.protocol.as_str().to_owned()),
                next_hop: Some(r.next_hop.clone()),
                ..bare.clone()
            };
            for step in steps(addresses, &rib, &vrf, dst, r, 0) {
                let mut hops = hops.clone();
                let mut caveats = caveats.clone();
                match step {
                    Step::Next {
                        egress,
                        node: next,
                        vrf: next_vrf,
                        caveat,
                    } => {
                        caveats.extend(caveat);
                        hops.push(Hop {
                            egress,
                            ..hop.clone()
                        });
                        work.push((hops, caveats, next, next_vrf));
                    }
                    Step::Vrf(v) => {
                        hops.push(hop.clone());
                        work.push((hops, caveats, node.clone(), v));
                    }
                    End(d, why) => {
                        caveats.extend(why);
                        // A less specific discard or no route in an incomplete RIB: a
                        // route olav does not compute may be more specific.
                        let d = if d == Disposition::NullRouted
                            && !unknown.is_empty()
                            && r.network.prefix_len() < 32
                        {
                            caveats.push(format!(
                                "{node} matches {} (discard), but a more specific route of a protocol olav does not compute may carry the packet",
                                r.network
                            ));
                            Disposition::InsufficientInfo
                        } else {
                            d
                        };
                        done.push(end(hops, caveats, hop.clone(), d));
                    }
                }
            }
        }
    }
    // Depth-first order popped the last branch first: give them as the RIBs list them.
    done.sort_by(|a, b| {
        let key = |x: &Branch| {
            x.hops
                .iter()
                .map(|h| (h.node.clone(), h.egress.clone()))
                .collect::<Vec<_>>()
        };
        key(a).cmp(&key(b))
    });
    done.dedup();
    done
}

#[cfg(test)]
mod tests;
