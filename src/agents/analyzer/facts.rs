//! What the analyzer reads from the state DB to resolve a request and draft a plan.

use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use std::collections::BTreeMap;

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

/// The facts.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// Devices by hostname.
    pub devices: BTreeMap<String, Dev>,
    /// Interfaces per device, in config order.
    pub interfaces: BTreeMap<String, Vec<Iface>>,
    /// BGP sessions with a peer address.
    pub sessions: Vec<Bgp>,
    /// Every subnet in use (interfaces, BGP networks, service prefixes, static routes but defaults).
    pub used: Vec<IpNet>,
    /// Links: ((device, interface), (device, interface)).
    pub links: Vec<LinkEnds>,
    /// State version.
    pub state_version: i64,
    /// Every address configured on an interface of the network.
    pub owned: std::collections::HashSet<String>,
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
        let (m, ifs) = (
            crate::network::NetworkModel::shared(db)?,
            crate::network::Interfaces::shared(db)?,
        );
        let mut f = Facts::from_model(&m, &ifs);
        let e = |source| StateError::Sqlite {
            path: db.path().to_path_buf(),
            source,
        };
        // What open plans already claim: a new draft does not take it again.
        let mut st = db
            .conn()
            .prepare(
                "SELECT c.kind, c.hostname, c.element FROM plan_claim c JOIN plan p ON p.plan_id = c.plan_id
                 WHERE p.status IN ('draft', 'prechecked', 'verified', 'approved', 'stale')
                   AND c.kind IN ('addresses', 'subnet')",
            )
            .map_err(e)?;
        for row in st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(e)?
        {
            let (kind, h, el) = row.map_err(e)?;
            if kind == "addresses" {
                f.claimed_interfaces.insert((h, el));
            } else if let Ok(p) = el.parse::<IpNet>() {
                f.used.push(p);
            }
        }
        Ok(f)
    }

    /// The facts of the state version's model.
    pub fn from_model(m: &crate::network::NetworkModel, ifs: &crate::network::Interfaces) -> Facts {
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
        let n = |s| m.name(s);
        f.links = m
            .links
            .iter()
            .map(|l| {
                (
                    (n(l.hostname_a).to_owned(), n(l.ifname_a).to_owned()),
                    (n(l.hostname_b).to_owned(), n(l.ifname_b).to_owned()),
                )
            })
            .collect();
        let linked: std::collections::HashSet<(&str, &str)> = m
            .links
            .iter()
            .flat_map(|l| {
                [
                    (n(l.hostname_a), n(l.ifname_a)),
                    (n(l.hostname_b), n(l.ifname_b)),
                ]
            })
            .collect();
        let i_n = |s| ifs.name(s).to_owned();
        for (di, d) in m.devices.iter().enumerate() {
            let rows = ifs.of(di);
            if rows.is_empty() {
                continue;
            }
            f.interfaces.insert(
                d.hostname.clone(),
                rows.iter()
                    .map(|i| Iface {
                        name: i_n(i.name),
                        description: i.description.clone(),
                        admin_state: i_n(i.admin_state),
                        vrf: i_n(i.vrf),
                        switchport_mode: i.switchport_mode.map(i_n),
                        channel_group: i.channel_group.map(i_n),
                        addresses: Vec::new(),
                        linked: linked.contains(&(d.hostname.as_str(), ifs.name(i.name))),
                        mtu: i.mtu,
                    })
                    .collect(),
            );
        }
        for a in &m.addresses {
            f.used.push(a.prefix);
            f.owned.insert(a.address.to_string());
            if let (Some(iface), Ok(net)) = (
                f.interfaces
                    .get_mut(n(a.hostname))
                    .and_then(|v| v.iter_mut().find(|x| x.name == n(a.ifname))),
                IpNet::new(a.address, a.prefix.prefix_len()),
            ) {
                iface.addresses.push(net);
            }
        }
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
                    f.used.push(p);
                }
            }
        }
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

    /// Whether an address belongs to a device of the network.
    pub fn owns(&self, addr: &str) -> bool {
        self.owned.contains(addr)
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
        self.external_sessions()
            .filter(|s| s.peer_asn == Some(asn))
            .find_map(|s| {
                s.description
                    .as_deref()?
                    .split_whitespace()
                    .next()
                    .map(str::to_owned)
            })
            .unwrap_or_else(|| format!("AS{asn}"))
    }

    /// Sessions to peers outside the network.
    pub fn external_sessions(&self) -> impl Iterator<Item = &Bgp> {
        self.sessions.iter().filter(|s| !self.owns(&s.peer))
    }

    /// The interface of `device` holding `addr`.
    pub fn interface_with(&self, device: &str, addr: &str) -> Option<&Iface> {
        self.interfaces
            .get(device)?
            .iter()
            .find(|i| i.addresses.iter().any(|a| a.addr().to_string() == addr))
    }
}
