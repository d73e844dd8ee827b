//! The network model of one state version: what every step reads.
//!
//! The import writes tables; reading them row by row for each step of a request took
//! seconds at 50,000 devices, and the checks parsed every configuration again on each
//! run. This model is built once per state version — the state tables read once, every
//! configuration parsed once — and stored with the state as two compact binary parts
//! (`network_model` table): [`NetworkModel`] (devices, interfaces, addresses, links,
//! sessions, routes, services) and [`ParsedConfigs`] (each device's parsed
//! configuration, for the static checks). A process loads each part at most once
//! ([`NetworkModel::shared`], [`ParsedConfigs::shared`]); the analyzer's facts, the
//! topology, the reporter's graph and the checks' model are all views built from it.
//!
//! Rows keep the tables' text where the readers parse it (an address the import stored
//! is parsed by whoever reads it, exactly as it was from SQL), so answers do not change.

mod build;
mod sessions;
pub(crate) mod store;

pub use sessions::{peer_as_name, peer_name, sessions_of, Session};

use crate::model::DeviceConfig;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// A device row.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Device {
    /// Hostname.
    pub hostname: String,
    /// Role.
    pub role: Option<String>,
    /// Site.
    pub site: Option<String>,
    /// OS (`ios`, `eos`, `nxos`, `junos`).
    pub os: String,
    /// Local AS.
    pub asn: Option<u32>,
    /// `active`, `offline`, `decommissioned`, …
    pub status: String,
}

/// A name in the model's table of names (hostnames, interface names, VRFs, kinds).
pub type Sym = u32;

/// An interface row.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Interface {
    /// Device index.
    pub dev: u32,
    /// Name as configured.
    pub name: Sym,
    /// Description.
    pub description: Option<String>,
    /// `up` / `down`.
    pub admin_state: Sym,
    /// VRF.
    pub vrf: Sym,
    /// Switchport mode.
    pub switchport_mode: Option<Sym>,
    /// Port-channel membership.
    pub channel_group: Option<Sym>,
    /// MTU.
    pub mtu: Option<u32>,
}

/// An address row (`ip_address`), in the table's order. Rows whose address or subnet
/// does not parse are left out (the import writes only parsed ones).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Address {
    /// Device hostname (a row may name a device the table lacks).
    pub hostname: Sym,
    /// Interface.
    pub ifname: Sym,
    /// VRF.
    pub vrf: Sym,
    /// The address.
    pub address: std::net::IpAddr,
    /// Its subnet.
    pub prefix: ipnet::IpNet,
    /// `primary`, `secondary`, `virtual`.
    pub kind: Sym,
    /// Whether its interface is administratively up.
    pub up: bool,
}

/// A link row, ordered by its four ends.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Link {
    /// Side A device.
    pub hostname_a: Sym,
    /// Side A interface.
    pub ifname_a: Sym,
    /// Side B device.
    pub hostname_b: Sym,
    /// Side B interface.
    pub ifname_b: Sym,
    /// `up` or why not.
    pub status: Sym,
}

/// A `network` statement row.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BgpNetwork {
    /// Device.
    pub hostname: String,
    /// VRF.
    pub vrf: String,
    /// Prefix as stored.
    pub prefix: String,
}

/// A static route row.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StaticRoute {
    /// Device.
    pub hostname: String,
    /// VRF.
    pub vrf: String,
    /// Destination as stored.
    pub prefix: String,
    /// Next hop.
    pub next_hop: Option<String>,
    /// Exit interface.
    pub next_hop_interface: Option<String>,
    /// Administrative distance.
    pub distance: Option<u32>,
    /// Line in the config.
    pub source_line: Option<u32>,
}

/// A service endpoint row.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Endpoint {
    /// Device.
    pub hostname: Option<String>,
    /// Interface.
    pub ifname: Option<String>,
    /// Prefix.
    pub prefix: Option<String>,
}

/// A service with its endpoints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Service {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: Option<String>,
    /// Criticality.
    pub criticality: Option<String>,
    /// Endpoints in the table's order.
    pub endpoints: Vec<Endpoint>,
}

/// The network of one state version, as the state tables hold it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct NetworkModel {
    /// The state version it was built from.
    pub state_version: i64,
    /// The names rows refer to by number.
    #[serde(deserialize_with = "crate::network::store::sized")]
    pub names: Vec<String>,
    /// Devices, sorted by hostname.
    #[serde(deserialize_with = "crate::network::store::sized")]
    pub devices: Vec<Device>,
    /// Addresses in the table's order.
    #[serde(deserialize_with = "crate::network::store::sized")]
    pub addresses: Vec<Address>,
    /// Links ordered by their ends.
    #[serde(deserialize_with = "crate::network::store::sized")]
    pub links: Vec<Link>,
    /// BGP sessions with a peer address, in the table's order.
    #[serde(deserialize_with = "crate::network::store::sized")]
    pub sessions: Vec<Session>,
    /// `network` statements.
    pub bgp_networks: Vec<BgpNetwork>,
    /// Static routes.
    #[serde(deserialize_with = "crate::network::store::sized")]
    pub static_routes: Vec<StaticRoute>,
    /// Devices that run OSPF, sorted.
    pub ospf: Vec<String>,
    /// Services, sorted by name.
    pub services: Vec<Service>,
    #[serde(skip)]
    index: HashMap<String, u32>,
    #[serde(skip)]
    sym: HashMap<String, Sym>,
}

/// Every interface of the state version, by device in config order (the analyzer's
/// part: the graph and the checks never read it). A request reads the interfaces of a
/// few devices, so each device's rows stay encoded until asked for.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Interfaces {
    /// The state version.
    pub state_version: i64,
    /// The names rows refer to by number (this part's own table).
    pub names: Vec<String>,
    /// Device `d`'s rows (the model's device numbers) are `rows[starts[d]..starts[d + 1]]`.
    starts: Vec<u32>,
    /// Each device's `Vec<Interface>`, encoded.
    #[serde(with = "serde_bytes")]
    rows: Vec<u8>,
}

/// One device's parsed configuration.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ParsedDevice {
    /// Hostname.
    pub hostname: String,
    /// OS.
    pub os: String,
    /// Config file it came from.
    pub source_file: String,
    /// Interfaces a `vxlan source-interface` line names (an MLAG pair's shared VTEP).
    pub vtep: Vec<String>,
    /// The parsed configuration (its warnings dropped: the import reported them).
    pub config: DeviceConfig,
    /// The SVIs autostate holds down ([`crate::routing::autostate::down_svis`]), read from
    /// the whole configuration: `config` keeps too few ports to tell.
    pub down_svis: Vec<String>,
}

/// Every device's configuration, parsed once per state version and kept encoded, a
/// device at a time: building it never holds every parsed configuration at once, and
/// a reader decodes them only when it runs the checks.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ParsedConfigs {
    /// The state version.
    pub state_version: i64,
    /// Device `i` (by hostname) is encoded in `rows[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    /// Each device's [`ParsedDevice`], encoded.
    #[serde(with = "serde_bytes")]
    rows: Vec<u8>,
}

impl NetworkModel {
    /// Device index by hostname.
    pub fn device(&self, hostname: &str) -> Option<usize> {
        self.index.get(hostname).map(|&i| i as usize)
    }

    /// The text of a name.
    pub fn name(&self, s: Sym) -> &str {
        self.names.get(s as usize).map_or("", String::as_str)
    }

    /// The number of a name, if the model has it.
    pub fn sym(&self, name: &str) -> Option<Sym> {
        self.sym.get(name).copied()
    }

    /// Each service's networks, as (service index, VRF, network): its prefix endpoints
    /// (default VRF), and the subnet of every IPv4 address on its interface endpoints.
    pub fn service_networks(&self) -> Vec<(usize, &str, ipnet::Ipv4Net)> {
        let mut out = Vec::new();
        // Interface endpoints by hostname: one pass over the addresses, not one per service.
        let mut on: HashMap<&str, Vec<(&str, usize)>> = HashMap::new();
        for (k, svc) in self.services.iter().enumerate() {
            for e in &svc.endpoints {
                if let Some(p) = e
                    .prefix
                    .as_deref()
                    .and_then(|p| p.parse::<ipnet::Ipv4Net>().ok())
                {
                    out.push((k, "default", p.trunc()));
                }
                if let (Some(h), Some(i)) = (&e.hostname, &e.ifname) {
                    on.entry(h.as_str()).or_default().push((i.as_str(), k));
                }
            }
        }
        for a in &self.addresses {
            let (ipnet::IpNet::V4(p), Some(ends)) = (a.prefix, on.get(self.name(a.hostname)))
            else {
                continue;
            };
            let i = self.name(a.ifname);
            for (_, k) in ends.iter().filter(|(e, _)| crate::ifname::same(e, i)) {
                out.push((*k, self.name(a.vrf), p.trunc()));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn reindex(&mut self) {
        self.index = self
            .devices
            .iter()
            .enumerate()
            .map(|(i, d)| (d.hostname.clone(), i as u32))
            .collect();
        self.sym = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as Sym))
            .collect();
    }

    /// The number of `name`, added to the table if new (while building).
    fn intern(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.sym.get(name) {
            return s;
        }
        let s = self.names.len() as Sym;
        self.names.push(name.to_owned());
        self.sym.insert(name.to_owned(), s);
        s
    }
}

impl Interfaces {
    /// The text of a name.
    pub fn name(&self, s: Sym) -> &str {
        self.names.get(s as usize).map_or("", String::as_str)
    }

    /// Encodes rows sorted by device (numbers below `devices`).
    fn encode(
        state_version: i64,
        names: Vec<String>,
        devices: usize,
        rows: &[Interface],
    ) -> Interfaces {
        let mut out = Interfaces {
            state_version,
            names,
            starts: Vec::with_capacity(devices + 1),
            rows: Vec::new(),
        };
        let mut at = 0;
        for d in 0..devices as u32 {
            out.starts.push(out.rows.len() as u32);
            let n = rows[at..].partition_point(|i| i.dev == d);
            // Encoding plain rows into a vector cannot fail.
            if let Ok(bytes) = postcard::to_stdvec(&rows[at..at + n]) {
                out.rows.extend_from_slice(&bytes);
            }
            at += n;
        }
        out.starts.push(out.rows.len() as u32);
        out
    }

    /// The interfaces of device `dev`, in config order.
    pub fn of(&self, dev: usize) -> Vec<Interface> {
        let (Some(&s), Some(&e)) = (self.starts.get(dev), self.starts.get(dev + 1)) else {
            return Vec::new();
        };
        let bytes = self.rows.get(s as usize..e as usize).unwrap_or_default();
        postcard::from_bytes(bytes).unwrap_or_else(|err| {
            tracing::warn!("network model: the interfaces of device {dev} do not decode ({err})");
            Vec::new()
        })
    }
}

impl ParsedConfigs {
    /// Every device, decoded, sorted by hostname; shared so a candidate copies none.
    pub fn devices(&self) -> Vec<Arc<ParsedDevice>> {
        (0..self.len()).filter_map(|i| self.at(i)).collect()
    }

    /// How many devices the part holds.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether the part holds no device.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Device `i` (by hostname), decoded alone; None when it does not decode.
    pub fn at(&self, i: usize) -> Option<Arc<ParsedDevice>> {
        let s = *self.starts.get(i)? as usize;
        let e = self
            .starts
            .get(i + 1)
            .map_or(self.rows.len(), |&e| e as usize);
        match postcard::from_bytes(self.rows.get(s..e)?) {
            Ok(d) => Some(Arc::new(d)),
            Err(err) => {
                tracing::warn!("network model: a parsed configuration does not decode ({err})");
                None
            }
        }
    }
}

/// The interfaces named by `vxlan source-interface` lines of a configuration.
pub fn vtep_interfaces(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("vxlan source-interface "))
        .map(|s| s.trim().to_owned())
        .collect()
}
