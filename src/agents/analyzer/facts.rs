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
    /// Loads the facts.
    pub fn load(db: &StateDb) -> Result<Facts, StateError> {
        let conn = db.conn();
        let e = |source| StateError::Sqlite {
            path: db.path().to_path_buf(),
            source,
        };
        let mut f = Facts {
            state_version: db.state_version()?,
            ..Facts::default()
        };
        let mut st = conn
            .prepare("SELECT hostname, role, site, os, asn FROM device ORDER BY hostname")
            .map_err(e)?;
        for row in st
            .query_map([], |r| {
                Ok(Dev {
                    hostname: r.get(0)?,
                    role: r.get(1)?,
                    site: r.get(2)?,
                    os: r.get(3)?,
                    asn: r.get(4)?,
                })
            })
            .map_err(e)?
        {
            let d = row.map_err(e)?;
            f.devices.insert(d.hostname.clone(), d);
        }
        let mut st = conn
            .prepare(
                "SELECT hostname_a, ifname_a, hostname_b, ifname_b FROM link ORDER BY 1, 2, 3, 4",
            )
            .map_err(e)?;
        for row in st
            .query_map([], |r| Ok(((r.get(0)?, r.get(1)?), (r.get(2)?, r.get(3)?))))
            .map_err(e)?
        {
            f.links.push(row.map_err(e)?);
        }
        let mut st = conn
            .prepare(
                "SELECT hostname, ifname, description, admin_state, vrf, switchport_mode, channel_group, mtu
                 FROM interface ORDER BY hostname, source_line",
            )
            .map_err(e)?;
        let linked: std::collections::HashSet<(String, String)> = f
            .links
            .iter()
            .flat_map(|(a, b)| [a.clone(), b.clone()])
            .collect();
        for row in st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    Iface {
                        name: r.get(1)?,
                        description: r.get(2)?,
                        admin_state: r.get(3)?,
                        vrf: r.get(4)?,
                        switchport_mode: r.get(5)?,
                        channel_group: r.get(6)?,
                        addresses: Vec::new(),
                        linked: false,
                        mtu: r.get(7)?,
                    },
                ))
            })
            .map_err(e)?
        {
            let (h, mut i) = row.map_err(e)?;
            i.linked = linked.contains(&(h.clone(), i.name.clone()));
            f.interfaces.entry(h).or_default().push(i);
        }
        let mut st = conn
            .prepare("SELECT hostname, ifname, address, prefix FROM ip_address ORDER BY rowid")
            .map_err(e)?;
        for row in st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .map_err(e)?
        {
            let (h, i, a, p) = row.map_err(e)?;
            let (Ok(a), Ok(p)) = (a.parse::<std::net::IpAddr>(), p.parse::<IpNet>()) else {
                continue;
            };
            f.used.push(p);
            f.owned.insert(a.to_string());
            if let (Some(iface), Ok(n)) = (
                f.interfaces
                    .get_mut(&h)
                    .and_then(|v| v.iter_mut().find(|x| x.name == i)),
                IpNet::new(a, p.prefix_len()),
            ) {
                iface.addresses.push(n);
            }
        }
        for sql in [
            "SELECT prefix FROM bgp_network",
            "SELECT prefix FROM service_endpoint WHERE prefix IS NOT NULL",
            "SELECT prefix FROM static_route",
        ] {
            let mut st = conn.prepare(sql).map_err(e)?;
            for row in st.query_map([], |r| r.get::<_, String>(0)).map_err(e)? {
                if let Ok(p) = row.map_err(e)?.parse::<IpNet>() {
                    // A default or summary route covers everything; it is not a subnet in use.
                    if p.prefix_len() >= 24 {
                        f.used.push(p);
                    }
                }
            }
        }
        // What open plans already claim: a new draft does not take it again.
        let mut st = conn
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
        let mut st = conn
            .prepare("SELECT DISTINCT hostname FROM ospf_network")
            .map_err(e)?;
        for row in st.query_map([], |r| r.get::<_, String>(0)).map_err(e)? {
            f.ospf.insert(row.map_err(e)?);
        }
        let mut st = conn
            .prepare(
                "SELECT hostname, vrf, prefix, next_hop, next_hop_interface, distance
                 FROM static_route ORDER BY hostname, source_line",
            )
            .map_err(e)?;
        for row in st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<u32>>(5)?,
                ))
            })
            .map_err(e)?
        {
            let (hostname, vrf, prefix, nh, nhi, distance) = row.map_err(e)?;
            if let Ok(prefix) = prefix.parse::<IpNet>() {
                f.routes.push(Route {
                    hostname,
                    vrf,
                    prefix,
                    next_hop: nh.and_then(|n| n.parse().ok()),
                    next_hop_interface: nhi,
                    distance,
                });
            }
        }
        let mut st = conn
            .prepare(
                "SELECT hostname, vrf, local_as, peer_address, peer_asn, description, local_ip, update_source, peer_group, route_map_in, route_map_out
                 FROM bgp_session WHERE peer_address IS NOT NULL ORDER BY hostname, source_line",
            )
            .map_err(e)?;
        for row in st
            .query_map([], |r| {
                Ok(Bgp {
                    hostname: r.get(0)?,
                    vrf: r.get(1)?,
                    local_as: r.get(2)?,
                    peer: r.get(3)?,
                    peer_asn: r.get(4)?,
                    description: r.get(5)?,
                    local_ip: r.get(6)?,
                    update_source: r.get(7)?,
                    peer_group: r.get(8)?,
                    route_map_in: r.get(9)?,
                    route_map_out: r.get(10)?,
                })
            })
            .map_err(e)?
        {
            f.sessions.push(row.map_err(e)?);
        }
        Ok(f)
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
