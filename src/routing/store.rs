//! The routing model of a state version, stored with it as the `routing` part: each
//! device's routes before the network-wide protocols, encoded on its own, and the
//! network's OSPF as every router shares it (areas, ABR summaries). Asking for one
//! device decodes that device and computes its OSPF routes and RIB then: no device's
//! full table is made before it is asked for.

use super::ospf::{Learned, Speaker};
use super::rib::{finish, prepare, speaker, DeviceInput, DeviceRib, Prepared};
use super::route::{Protocol, Route};
use crate::import::parse::parser_for;
use crate::model::Vendor;
use crate::state::{StateDb, StateError};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// Every device's RIB of one state version, by hostname, made when asked for.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct RoutingModel {
    /// The state version.
    pub state_version: i64,
    /// Hostnames, sorted; device `i`'s routes before OSPF are `rows[starts[i]..starts[i +
    /// 1]]`, and it is device `i` of `ospf`.
    hostnames: Vec<String>,
    starts: Vec<u64>,
    #[serde(with = "serde_bytes")]
    rows: Vec<u8>,
    /// The network's OSPF, encoded: kept so while the part is written (decoded it is
    /// twice the size), decoded once when a device's routes are first asked for.
    #[serde(with = "serde_bytes")]
    ospf: Vec<u8>,
    #[serde(skip)]
    learned: OnceLock<Option<Learned>>,
}

/// Which rows of which RIBs to give.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Only this device (exact hostname).
    pub device: Option<String>,
    /// Only this VRF.
    pub vrf: Option<String>,
    /// Only routes for networks containing this prefix (an address is a /32).
    pub prefix: Option<Ipv4Net>,
    /// Only this protocol.
    pub protocol: Option<Protocol>,
}

impl Query {
    /// Whether a route passes the filters other than the device.
    pub fn matches(&self, r: &Route) -> bool {
        self.vrf.as_deref().is_none_or(|v| r.vrf == v)
            && self.prefix.is_none_or(|p| r.network.contains(&p))
            && self.protocol.is_none_or(|p| r.protocol == p)
    }
}

impl RoutingModel {
    /// The RIBs of the DB's current state version: stored with it, built on first use.
    pub fn shared(db: &StateDb) -> Result<Arc<RoutingModel>, StateError> {
        crate::network::store::shared(db, "routing", RoutingModel::build, |_| {})
    }

    /// Prepares every device's RIB from the stored configurations and computes what
    /// the network's OSPF shares.
    pub fn build(db: &StateDb) -> Result<RoutingModel, StateError> {
        let mut m = RoutingModel {
            state_version: db.state_version()?,
            ..RoutingModel::default()
        };
        // Each configuration parsed once; only what OSPF needs of it is kept, and the
        // device's routes before OSPF, encoded.
        let mut speakers: Vec<Speaker> = Vec::new();
        db.each_config(|hostname, os, text| {
            let vendor = Vendor::from_os(os);
            let config = parser_for(vendor).parse(text);
            let input = DeviceInput {
                hostname,
                vendor,
                config: &config,
                text,
            };
            let p = prepare(input);
            speakers.push(speaker(input, &p));
            m.push(&p);
        })?;
        // The rows' spare capacity (up to half of it) is given back before OSPF's peak.
        m.rows.shrink_to_fit();
        let names: Vec<&str> = m.hostnames.iter().map(String::as_str).collect();
        let learned = super::ospf::routes(&names, speakers);
        // Encoding plain data into a vector cannot fail.
        m.ospf = postcard::to_stdvec(&learned).unwrap_or_default();
        m.ospf.shrink_to_fit();
        Ok(m)
    }

    /// Adds a prepared device (hostnames in order).
    fn push(&mut self, p: &Prepared) {
        self.hostnames.push(p.hostname.clone());
        self.starts.push(self.rows.len() as u64);
        // Encoding plain rows into a vector cannot fail.
        if let Ok(bytes) = postcard::to_stdvec(p) {
            self.rows.extend_from_slice(&bytes);
        }
    }

    /// The hostnames, sorted.
    pub fn hostnames(&self) -> &[String] {
        &self.hostnames
    }

    /// One device's RIB: its prepared routes decoded, its OSPF routes computed, its
    /// static next hops resolved through them.
    pub fn device(&self, hostname: &str) -> Option<DeviceRib> {
        let i = self
            .hostnames
            .binary_search_by(|h| h.as_str().cmp(hostname))
            .ok()?;
        let s = *self.starts.get(i)? as usize;
        let e = self
            .starts
            .get(i + 1)
            .map_or(self.rows.len(), |&e| e as usize);
        let learned = self.learned.get_or_init(|| {
            postcard::from_bytes(&self.ospf)
                .map_err(|err| {
                    tracing::warn!("routing model: its OSPF part does not decode ({err})")
                })
                .ok()
        });
        match (
            postcard::from_bytes::<Prepared>(self.rows.get(s..e)?),
            learned,
        ) {
            (Ok(p), Some(learned)) => {
                let (routes, incomplete) = learned.device(i);
                Some(finish(&p, &routes, &incomplete))
            }
            (Err(err), _) => {
                tracing::warn!("routing model: the RIB of {hostname} does not decode ({err})");
                None
            }
            (_, None) => None,
        }
    }

    /// The RIBs the query asks for, with only the rows it asks for.
    pub fn select(&self, q: &Query) -> Vec<DeviceRib> {
        let names: Vec<&String> = match &q.device {
            Some(d) => self.hostnames.iter().filter(|h| *h == d).collect(),
            None => self.hostnames.iter().collect(),
        };
        names
            .into_iter()
            .filter_map(|h| self.device(h))
            .map(|mut rib| {
                rib.routes.retain(|r| q.matches(r));
                if let Some(v) = &q.vrf {
                    rib.incomplete
                        .retain(|i| i.vrf.as_deref().is_none_or(|x| x == v));
                }
                rib
            })
            .collect()
    }
}
