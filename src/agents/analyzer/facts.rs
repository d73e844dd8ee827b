//! What the analyzer reads from the state DB to resolve a request and draft a plan.

use crate::network::{Interfaces, NetworkModel, Sym};
use crate::routing::FastSet;
use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// A device.
#[derive(Debug, Clone)]
pub struct Dev {
    /// Hostname.
    pub hostname: String,
    /// Role.
    pub role: Option<String>,
    /// Site.
    pub site: Option<String>,
    /// OS (`ios`, `eos`, `nxos`).
    pub os: String,
    /// Local AS.
    pub asn: Option<u32>,
}

/// An interface.
#[derive(Debug, Clone)]
pub struct Iface {
    /// Name as configured.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// `up` / `down`.
    pub admin_state: String,
    /// VRF.
    pub vrf: String,
    /// Switchport mode.
    pub switchport_mode: Option<String>,
    /// Port-channel membership.
    pub channel_group: Option<String>,
    /// Addresses with prefix length.
    pub addresses: Vec<IpNet>,
    /// Whether a link ends here.
    pub linked: bool,
    /// MTU.
    pub mtu: Option<u32>,
}

/// A BGP session.
#[derive(Debug, Clone)]
pub struct Bgp {
    /// Device.
    pub hostname: String,
    /// VRF.
    pub vrf: String,
    /// Local AS.
    pub local_as: Option<u32>,
    /// Peer address.
    pub peer: String,
    /// Peer AS.
    pub peer_asn: Option<u32>,
    /// Description.
    pub description: Option<String>,
    /// Local address.
    pub local_ip: Option<String>,
    /// Update source.
    pub update_source: Option<String>,
    /// Peer-group.
    pub peer_group: Option<String>,
    /// Inbound route-map.
    pub route_map_in: Option<String>,
    /// Outbound route-map.
    pub route_map_out: Option<String>,
}

/// A static route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// Device.
    pub hostname: String,
    /// VRF.
    pub vrf: String,
    /// Destination.
    pub prefix: IpNet,
    /// Next-hop address.
    pub next_hop: Option<std::net::IpAddr>,
    /// Exit interface.
    pub next_hop_interface: Option<String>,
    /// Administrative distance, when configured.
    pub distance: Option<u32>,
}

pub use crate::model::LinkEnds;

/// Each device's interfaces, made from the network model when a device is first asked
/// for: a request reads a few devices of a network that may have a million interfaces.
#[derive(Debug, Clone, Default)]
pub struct DeviceInterfaces {
    model: Arc<NetworkModel>,
    rows: Arc<Interfaces>,
    /// Per device index, once made.
    made: Vec<OnceLock<Vec<Iface>>>,
    /// Address rows and link ends by device index, indexed once enough devices are asked.
    index: OnceLock<ByDevice>,
    /// Devices found by a scan so far.
    scans: Arc<std::sync::atomic::AtomicUsize>,
}

/// Devices whose interfaces are found by a scan of every row before the rows are indexed.
const SCANS_BEFORE_INDEX: usize = 8;

/// Address rows per device index, and the interfaces links end on.
type ByDevice = (Vec<Vec<u32>>, Vec<Vec<Sym>>);

impl DeviceInterfaces {
    fn new(model: Arc<NetworkModel>, rows: Arc<Interfaces>) -> DeviceInterfaces {
        DeviceInterfaces {
            made: (0..model.devices.len()).map(|_| OnceLock::new()).collect(),
            model,
            rows,
            index: OnceLock::new(),
            scans: Default::default(),
        }
    }

    /// The interfaces of `device`, in config order; None for a device without any.
    pub fn get(&self, device: &str) -> Option<&Vec<Iface>> {
        let d = self.model.device(device)?;
        let ifs = self.made.get(d)?.get_or_init(|| self.make(d));
        (!ifs.is_empty()).then_some(ifs)
    }

    /// Device `d`'s address rows and the interfaces links end on. The first few devices
    /// asked for are found by a scan of the rows (a request reads a device or two;
    /// indexing a 50,000-device network's 600,000 addresses for it was a tenth of the
    /// request); after that every device is indexed once.
    fn rows_of(&self, d: usize) -> (Vec<u32>, Vec<Sym>) {
        let m = &self.model;
        let Some(h) = m.sym(&m.devices[d].hostname) else {
            return Default::default();
        };
        if self.index.get().is_none()
            && self
                .scans
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                < SCANS_BEFORE_INDEX
        {
            let addrs = (0..m.addresses.len() as u32)
                .filter(|&i| m.addresses[i as usize].hostname == h)
                .collect();
            let linked = m
                .links
                .iter()
                .flat_map(|l| [(l.hostname_a, l.ifname_a), (l.hostname_b, l.ifname_b)])
                .filter(|&(x, _)| x == h)
                .map(|(_, i)| i)
                .collect();
            return (addrs, linked);
        }
        let (addrs, linked) = self.index.get_or_init(|| {
            // A hostname's number → its device's, made once: a million rows looked up
            // by hostname text took a tenth of a 50,000-device request.
            let mut sym_dev = vec![u32::MAX; m.names.len()];
            for (d, dev) in m.devices.iter().enumerate() {
                if let Some(s) = m.sym(&dev.hostname) {
                    sym_dev[s as usize] = d as u32;
                }
            }
            let dev_of = |s: Sym| sym_dev.get(s as usize).copied().filter(|&d| d != u32::MAX);
            let mut addrs: Vec<Vec<u32>> = vec![Vec::new(); m.devices.len()];
            for (i, a) in m.addresses.iter().enumerate() {
                if let Some(d) = dev_of(a.hostname) {
                    addrs[d as usize].push(i as u32);
                }
            }
            let mut linked: Vec<Vec<Sym>> = vec![Vec::new(); m.devices.len()];
            for l in &m.links {
                for (h, i) in [(l.hostname_a, l.ifname_a), (l.hostname_b, l.ifname_b)] {
                    if let Some(d) = dev_of(h) {
                        linked[d as usize].push(i);
                    }
                }
            }
            (addrs, linked)
        });
        (addrs[d].clone(), linked[d].clone())
    }

    fn make(&self, d: usize) -> Vec<Iface> {
        let m = &self.model;
        let (addrs, linked) = self.rows_of(d);
        let r = &self.rows;
        let mut out: Vec<Iface> = r
            .of(d)
            .into_iter()
            .map(|i| Iface {
                name: r.name(i.name).to_owned(),
                description: i.description,
                admin_state: r.name(i.admin_state).to_owned(),
                vrf: r.name(i.vrf).to_owned(),
                switchport_mode: i.switchport_mode.map(|x| r.name(x).to_owned()),
                channel_group: i.channel_group.map(|x| r.name(x).to_owned()),
                addresses: Vec::new(),
                linked: m.sym(r.name(i.name)).is_some_and(|s| linked.contains(&s)),
                mtu: i.mtu,
            })
            .collect();
        for &ai in &addrs {
            let a = &m.addresses[ai as usize];
            if let (Some(iface), Ok(net)) = (
                out.iter_mut().find(|x| x.name == m.name(a.ifname)),
                IpNet::new(a.address, a.prefix.prefix_len()),
            ) {
                iface.addresses.push(net);
            }
        }
        out
    }
}

/// The facts.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// Devices by hostname.
    pub devices: BTreeMap<String, Dev>,
    /// Interfaces per device, in config order (read from the model when first asked).
    pub interfaces: DeviceInterfaces,
    /// BGP sessions with a peer address.
    pub sessions: Vec<Bgp>,
    /// Subnets open plans already claim.
    pub claimed_subnets: Vec<IpNet>,
    /// Every subnet in use, made when first asked for ([`Facts::used`]).
    used: OnceLock<Vec<IpNet>>,
    /// State version.
    pub state_version: i64,
    /// Every address configured on an interface of the network, sorted; made when first
    /// asked for ([`Facts::owned`]).
    owned: OnceLock<Vec<std::net::IpAddr>>,
    /// Whether each session's peer is outside the network, made when first asked for.
    external: OnceLock<Vec<bool>>,
    /// Static routes.
    pub routes: Vec<Route>,
    /// Devices that run OSPF.
    pub ospf: std::collections::HashSet<String>,
    /// Interfaces that open plans already address: (device, interface).
    pub claimed_interfaces: std::collections::HashSet<(String, String)>,
}

impl Facts {
    /// Loads the facts: the state version's model, and what open plans claim.
    pub fn load(db: &StateDb) -> Result<Facts, StateError> {
        let m = crate::network::NetworkModel::shared(db)?;
        let ifs = crate::network::Interfaces::shared(db)?;
        let mut f = Facts::from_model(&m, &ifs);
        // What open plans already claim: a new draft does not take it again.
        for (kind, h, el) in db.open_plan_claims(&["addresses", "subnet"])? {
            if kind == "addresses" {
                f.claimed_interfaces.insert((h, el));
            } else if let Ok(p) = el.parse::<IpNet>() {
                f.claimed_subnets.push(p);
            }
        }
        Ok(f)
    }

    /// The facts of the state version's model.
    pub fn from_model(m: &Arc<NetworkModel>, ifs: &Arc<Interfaces>) -> Facts {
        let mut f = Facts {
            state_version: m.state_version,
            ..Facts::default()
        };
        for d in &m.devices {
            f.devices.insert(
                d.hostname.clone(),
                Dev {
                    hostname: d.hostname.clone(),
                    role: d.role.clone(),
                    site: d.site.clone(),
                    os: d.os.clone(),
                    asn: d.asn,
                },
            );
        }
        f.interfaces = DeviceInterfaces::new(Arc::clone(m), Arc::clone(ifs));
        f.ospf = m.ospf.iter().cloned().collect();
        let mut routes: Vec<&crate::network::StaticRoute> = m.static_routes.iter().collect();
        routes.sort_by(|a, b| (&a.hostname, a.source_line).cmp(&(&b.hostname, b.source_line)));
        for r in routes {
            if let Ok(prefix) = r.prefix.parse::<IpNet>() {
                f.routes.push(Route {
                    hostname: r.hostname.clone(),
                    vrf: r.vrf.clone(),
                    prefix,
                    next_hop: r.next_hop.as_deref().and_then(|n| n.parse().ok()),
                    next_hop_interface: r.next_hop_interface.clone(),
                    distance: r.distance,
                });
            }
        }
        let mut sessions: Vec<&crate::network::Session> = m.sessions.iter().collect();
        sessions.sort_by(|a, b| (&a.hostname, a.source_line).cmp(&(&b.hostname, b.source_line)));
        f.sessions = sessions
            .into_iter()
            .map(|s| Bgp {
                hostname: s.hostname.clone(),
                vrf: s.vrf.clone(),
                local_as: s.local_as,
                peer: s.peer.clone(),
                peer_asn: s.peer_asn,
                description: s.description.clone(),
                local_ip: s.local_ip.clone(),
                update_source: s.update_source.clone(),
                peer_group: s.peer_group.clone(),
                route_map_in: s.route_map_in.clone(),
                route_map_out: s.route_map_out.clone(),
            })
            .collect();
        f
    }

    /// Every address configured on an interface of the network, sorted.
    fn owned(&self) -> &[std::net::IpAddr] {
        self.owned.get_or_init(|| {
            let mut owned: Vec<std::net::IpAddr> = self
                .interfaces
                .model
                .addresses
                .iter()
                .map(|a| a.address)
                .collect();
            owned.sort_unstable();
            owned.dedup();
            owned
        })
    }

    /// Every subnet in use: interfaces', BGP networks, service prefixes, static routes
    /// but defaults and summaries, and what open plans claim. Made on first use: only
    /// a request that allocates a subnet reads it.
    pub fn used(&self) -> &[IpNet] {
        self.used.get_or_init(|| {
            let m = &self.interfaces.model;
            let mut used: Vec<IpNet> = m.addresses.iter().map(|a| a.prefix).collect();
            let service_prefixes = m
                .services
                .iter()
                .flat_map(|s| &s.endpoints)
                .filter_map(|e| e.prefix.as_deref());
            for p in m
                .bgp_networks
                .iter()
                .map(|n| n.prefix.as_str())
                .chain(service_prefixes)
                .chain(m.static_routes.iter().map(|r| r.prefix.as_str()))
            {
                if let Ok(p) = p.parse::<IpNet>() {
                    // A default or summary route covers everything; it is not a subnet in use.
                    if p.prefix_len() >= 24 {
                        used.push(p);
                    }
                }
            }
            used.extend(self.claimed_subnets.iter().copied());
            used
        })
    }

    /// The links with an end on `device`: ((device, interface), (device, interface)).
    pub fn links_of(&self, device: &str) -> Vec<LinkEnds> {
        let m = &self.interfaces.model;
        let Some(h) = m.sym(device) else {
            return Vec::new();
        };
        let n = |s| m.name(s).to_owned();
        m.links
            .iter()
            .filter(|l| l.hostname_a == h || l.hostname_b == h)
            .map(|l| {
                (
                    (n(l.hostname_a), n(l.ifname_a)),
                    (n(l.hostname_b), n(l.ifname_b)),
                )
            })
            .collect()
    }

    /// Whether an address belongs to a device of the network.
    pub fn owns(&self, addr: &str) -> bool {
        addr.parse()
            .is_ok_and(|a| self.owned().binary_search(&a).is_ok())
    }

    /// The providers (external peers by AS) `device` has sessions to, with a name each.
    pub fn providers_of(&self, device: &str) -> Vec<(String, u32)> {
        let mut out: Vec<(String, u32)> = Vec::new();
        for s in self.external_sessions().filter(|s| s.hostname == device) {
            if let Some(a) = s.peer_asn {
                if !out.iter().any(|(_, x)| *x == a) {
                    out.push((self.peer_name(a), a));
                }
            }
        }
        out
    }

    /// A provider's name: the first word of a session description to its AS, else `AS<n>`.
    pub fn peer_name(&self, asn: u32) -> String {
        crate::network::peer_as_name(
            self.external_sessions()
                .filter(|s| s.peer_asn == Some(asn))
                .map(|s| s.description.as_deref()),
            asn,
        )
    }

    /// Sessions to peers outside the network.
    pub fn external_sessions(&self) -> impl Iterator<Item = &Bgp> {
        let external = self.external.get_or_init(|| {
            // Only the sessions' peers are looked for among the addresses: sorting every
            // address of the network (`owned`) was a tenth of a 50,000-device request.
            let peers: Vec<Option<std::net::IpAddr>> =
                self.sessions.iter().map(|s| s.peer.parse().ok()).collect();
            let wanted: FastSet<std::net::IpAddr> = peers.iter().flatten().copied().collect();
            let owned: FastSet<std::net::IpAddr> = self
                .interfaces
                .model
                .addresses
                .iter()
                .map(|a| a.address)
                .filter(|a| wanted.contains(a))
                .collect();
            peers
                .iter()
                .map(|p| !p.is_some_and(|a| owned.contains(&a)))
                .collect()
        });
        self.sessions
            .iter()
            .zip(external)
            .filter(|(_, &e)| e)
            .map(|(s, _)| s)
    }

    /// The device (first by name) with `addr` on one of its interfaces.
    pub fn owner_of(&self, addr: &str) -> Option<String> {
        let ip: std::net::IpAddr = addr.parse().ok()?;
        if self.owned().binary_search(&ip).is_err() {
            return None;
        }
        let m = &self.interfaces.model;
        m.addresses
            .iter()
            .filter(|a| a.address == ip)
            .map(|a| m.name(a.hostname))
            .filter(|h| m.device(h).is_some())
            .min()
            .map(str::to_owned)
    }

    /// The interface of `device` holding `addr`.
    pub fn interface_with(&self, device: &str, addr: &str) -> Option<&Iface> {
        self.interfaces
            .get(device)?
            .iter()
            .find(|i| i.addresses.iter().any(|a| a.addr().to_string() == addr))
    }
}

/// A free interface: no address, no link, not switched, not bundled, not virtual, and
/// not addressed by another open plan.
pub fn free_interface<'a>(f: &'a Facts, device: &str) -> Option<&'a Iface> {
    let virtual_kind = |n: &str| {
        let l = n.to_ascii_lowercase();
        [
            "loopback",
            "vlan",
            "management",
            "mgmt",
            "tunnel",
            "port-channel",
            "null",
            "nve",
            "vxlan",
        ]
        .iter()
        .any(|p| l.starts_with(p))
    };
    let all = f.interfaces.get(device)?;
    let junos = f
        .devices
        .get(device)
        .is_some_and(|d| crate::dialect::is_junos(crate::model::Vendor::from_os(&d.os)));
    // A port whose units or subinterfaces are in use is not free (Junos keeps addresses
    // and links on units: `xe-0/1/0.0`).
    let units_free = |port: &str| {
        let prefix = format!("{port}.");
        all.iter()
            .filter(|u| u.name.starts_with(&prefix))
            .all(|u| u.addresses.is_empty() && !u.linked && u.switchport_mode.is_none())
    };
    let mut free: Vec<&Iface> = all
        .iter()
        .filter(|i| (!junos || crate::dialect::junos::is_port(&i.name)) && units_free(&i.name))
        .filter(|i| {
            i.addresses.is_empty()
                && !i.linked
                && i.switchport_mode.is_none()
                && i.channel_group.is_none()
                && !virtual_kind(&i.name)
                && !i.vrf.to_ascii_lowercase().contains("mgmt")
                && !f
                    .claimed_interfaces
                    .contains(&(device.to_owned(), i.name.clone()))
        })
        .collect();
    // Prefer ports marked spare/unused, then natural order.
    free.sort_by_key(|i| {
        let spare = i.description.as_deref().is_some_and(|d| {
            d.to_ascii_lowercase().contains("spare") || d.to_ascii_lowercase().contains("unused")
        });
        (!spare, natural_key(&i.name))
    });
    free.first().copied()
}

fn natural_key(name: &str) -> (String, Vec<u32>) {
    let i = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let nums = name[i..]
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|p| p.parse().ok())
        .collect();
    (name[..i].to_owned(), nums)
}
