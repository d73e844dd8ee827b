//! The routing model of a state version, stored with it as the `routing` part: the
//! network's OSPF as every router shares it (areas, what the ABRs summarise), and per
//! device what EIGRP, IS-IS and BGP gave it — what needs the whole network. Asking for
//! one device parses that device's stored configuration again (a fraction of a
//! millisecond) and computes its OSPF routes and RIB then: no device's full table is made
//! or stored before it is asked for.

use super::dynamic::Incomplete;
use super::ospf::Learned;
use super::rib::{
    bgp_over, computed_here, finish_filled, prepare, speakers, BgpLearned, DeviceInput, DeviceRib,
    Prepared,
};
use super::route::{Protocol, Route};
use crate::import::parse::parser_for;
use crate::model::Vendor;
use crate::state::{StateDb, StateError};
use ipnet::Ipv4Net;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// The routing model of one state version: each device's RIB made when asked for.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct RoutingModel {
    /// The state version.
    pub state_version: i64,
    /// Hostnames, sorted; device `i` is device `i` of the OSPF part.
    hostnames: Vec<String>,
    /// The network's OSPF, encoded: kept so while the part is written (decoded it is
    /// four times the size), decoded once when a device's routes are first asked for.
    #[serde(with = "serde_bytes")]
    ospf: Vec<u8>,
    #[serde(skip)]
    learned: OnceLock<Option<Learned>>,
    /// Device `i`'s [`Extra`], encoded, is `extra[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    #[serde(with = "serde_bytes")]
    extra: Vec<u8>,
}

/// What the network-wide protocols other than OSPF gave one device.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Extra {
    /// EIGRP and IS-IS: routes and what they leave incomplete.
    igp: (Vec<Route>, Vec<Incomplete>),
    /// BGP, when the device runs it.
    bgp: Option<BgpLearned>,
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

    /// Computes what the network's OSPF shares from the stored configurations.
    pub fn build(db: &StateDb) -> Result<RoutingModel, StateError> {
        let mut m = RoutingModel {
            state_version: db.state_version()?,
            ..RoutingModel::default()
        };
        let shared = Shared::over(|each| {
            // Each interface's far end: OSPF over an unnumbered interface runs to it. The
            // links are read only while parsing (60 MB at 50,000 devices).
            let ends = db.link_ends()?;
            let far = crate::checks::model::far_ends(&ends);
            db.each_config(|hostname, os, text| {
                let vendor = Vendor::from_os(os);
                let mut config = parser_for(vendor).parse(text);
                crate::checks::model::link_interfaces(hostname, &mut config, &far);
                each(DeviceInput {
                    hostname,
                    vendor,
                    config: &config,
                    text,
                });
            })
        })?;
        m.hostnames = shared.hostnames;
        for extra in shared.extra {
            m.starts.push(m.extra.len() as u32);
            // Encoding plain data into a vector cannot fail.
            if let Ok(bytes) = postcard::to_stdvec(&extra) {
                m.extra.extend_from_slice(&bytes);
            }
        }
        // Encoding plain data into a vector cannot fail.
        m.ospf = postcard::to_stdvec(&shared.learned).unwrap_or_default();
        m.ospf.shrink_to_fit();
        m.extra.shrink_to_fit();
        crate::memory::phase("routing model", "part encoded");
        Ok(m)
    }

    /// The hostnames, sorted.
    pub fn hostnames(&self) -> &[String] {
        &self.hostnames
    }

    /// Whether `hostname` is one of its devices.
    pub fn has(&self, hostname: &str) -> bool {
        self.hostnames
            .binary_search_by(|h| h.as_str().cmp(hostname))
            .is_ok()
    }

    /// The network's OSPF, decoded on first use (None: the stored part does not decode).
    fn learned(&self) -> Option<&Learned> {
        self.learned
            .get_or_init(|| {
                postcard::from_bytes(&self.ospf)
                    .map_err(|err| {
                        tracing::warn!("routing model: its OSPF part does not decode ({err})")
                    })
                    .ok()
            })
            .as_ref()
    }

    /// What EIGRP, IS-IS and BGP gave device `i`.
    fn extra(&self, i: usize) -> Extra {
        let s = self.starts.get(i).map_or(0, |&s| s as usize);
        let e = self
            .starts
            .get(i + 1)
            .map_or(self.extra.len(), |&e| e as usize);
        match self.extra.get(s..e).map(postcard::from_bytes::<Extra>) {
            Some(Ok(x)) => x,
            _ => {
                tracing::warn!("routing model: device {i}'s protocols part does not decode");
                Extra::default()
            }
        }
    }

    /// The RIB of device `hostname` from its configuration `(os, text)`: its
    /// connected, local and static routes, its OSPF, EIGRP, IS-IS and BGP routes, its
    /// static next hops resolved through them.
    fn rib(&self, hostname: &str, os: &str, text: &str) -> Option<DeviceRib> {
        let i = self
            .hostnames
            .binary_search_by(|h| h.as_str().cmp(hostname))
            .ok()?;
        let learned = self.learned()?;
        let vendor = Vendor::from_os(os);
        let config = parser_for(vendor).parse(text);
        let input = DeviceInput {
            hostname,
            vendor,
            config: &config,
            text,
        };
        Some(device_rib(learned, i, input, self.extra(i)))
    }

    /// One device's RIB from its configuration as the DB holds it, `(os, text)` (None:
    /// not in the model).
    pub fn device_from(&self, hostname: &str, os: &str, text: &str) -> Option<DeviceRib> {
        self.rib(hostname, os, text)
    }

    /// One device's RIB (None: not in the model).
    pub fn device(&self, db: &StateDb, hostname: &str) -> Result<Option<DeviceRib>, StateError> {
        Ok(db
            .os_and_config(hostname)?
            .and_then(|(os, text)| self.rib(hostname, &os, &text)))
    }

    /// The RIBs the query asks for, with only the rows it asks for, made one at a time
    /// in hostname order (a whole network's tables at once may not fit in memory: a
    /// 10,000-device network's are 50 million rows).
    pub fn ribs<'a>(
        &'a self,
        db: &'a StateDb,
        q: &'a Query,
    ) -> impl Iterator<Item = Result<DeviceRib, StateError>> + 'a {
        self.hostnames
            .iter()
            .filter(|h| q.device.as_ref().is_none_or(|d| d == *h))
            .filter_map(move |h| match self.device(db, h) {
                Ok(Some(mut rib)) => {
                    rib.routes.retain(|r| q.matches(r));
                    if let Some(v) = &q.vrf {
                        rib.incomplete
                            .retain(|i| i.vrf.as_deref().is_none_or(|x| x == v));
                    }
                    Some(Ok(rib))
                }
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            })
    }

    /// The RIBs the query asks for, with only the rows it asks for, all at once.
    pub fn select(&self, db: &StateDb, q: &Query) -> Result<Vec<DeviceRib>, StateError> {
        self.ribs(db, q).collect()
    }
}

/// Device `i`'s RIB from its parsed configuration, the network's OSPF and what the other
/// network-wide protocols gave it.
fn device_rib(learned: &Learned, i: usize, input: DeviceInput<'_>, extra: Extra) -> DeviceRib {
    let mut p = prepare(input);
    p.incomplete.retain(|x| !computed_here(x));
    let fill = |spare, rows: &mut Vec<Route>| learned.device_into(i, None, spare, rows);
    finish_filled(&p, fill, extra.igp, extra.bgp)
}

/// Devices parsed between two returns of the parses' freed memory to the system.
const RELEASE_EVERY: usize = 4096;

/// What the network-wide protocols share: OSPF as every router sees it, and per device
/// what EIGRP, IS-IS and BGP gave it.
struct Shared {
    /// The devices' hostnames, in the order they were given.
    hostnames: Vec<String>,
    learned: Learned,
    extra: Vec<Extra>,
}

impl Shared {
    /// Computed over the devices `feed` hands to the closure it is given, one at a time:
    /// each parsed configuration is read while it is handed over and not kept (only what
    /// the network-wide protocols need of it is: a BGP speaker's prepared RIB).
    fn over(
        feed: impl FnOnce(&mut dyn FnMut(DeviceInput<'_>)) -> Result<(), StateError>,
    ) -> Result<Shared, StateError> {
        let mut hostnames = Vec::new();
        let (mut o, mut e, mut i) = (Vec::new(), Vec::new(), Vec::new());
        // The OSPF interfaces of every device in one vector, as OSPF takes them.
        let mut ospf_ifs = Vec::new();
        let mut bgp_prepared: Vec<(usize, Prepared)> = Vec::new();
        feed(&mut |input| {
            let mut p = prepare(input);
            p.incomplete.retain(|x| !computed_here(x));
            let mut s = speakers(input, &p);
            ospf_ifs.extend(super::ospf::take_ifs(hostnames.len(), &mut s.ospf));
            o.push(s.ospf);
            e.push(s.eigrp);
            i.push(s.isis);
            if p.bgp.is_some() {
                bgp_prepared.push((hostnames.len(), p));
            }
            hostnames.push(input.hostname.to_owned());
            if hostnames.len() % RELEASE_EVERY == 0 {
                crate::memory::release_freed();
            }
        })?;
        // The speakers' prepared RIBs were made among their configurations' parses, whose
        // garbage they keep from being returned; copied now, they fill the freed holes.
        bgp_prepared = bgp_prepared
            .into_iter()
            .map(|(d, p)| (d, p.clone()))
            .collect();
        crate::memory::phase("routing model", "configurations parsed");
        let started = std::time::Instant::now();
        let names: Vec<&str> = hostnames.iter().map(String::as_str).collect();
        let learned = super::ospf::routes_over(&names, o, ospf_ifs);
        crate::memory::phase("routing model", "OSPF computed");
        let mut igp: Vec<(Vec<Route>, Vec<Incomplete>)> = super::eigrp::routes(&names, &e);
        drop(e);
        for (k, (r, inc)) in super::isis::routes(&names, &i).into_iter().enumerate() {
            igp[k].0.extend(r);
            igp[k].1.extend(inc);
        }
        drop(i);
        crate::memory::phase("routing model", "EIGRP, IS-IS computed");
        // BGP over the BGP speakers' RIBs with every IGP's routes (next hops, IGP costs),
        // each made for what BGP reads of it (`bgp_over`).
        tracing::debug!("routing model: the IGPs in {:?}", started.elapsed());
        let (device_of, speakers_only): (Vec<usize>, Vec<Prepared>) =
            bgp_prepared.into_iter().unzip();
        let bgp = bgp_over(&speakers_only, |k, only| {
            let d = device_of[k];
            let (mut routes, mut inc) = learned.device_for(d, only);
            routes.extend(igp[d].0.iter().cloned());
            inc.extend(igp[d].1.iter().cloned());
            (routes, inc)
        });
        drop(speakers_only);
        crate::memory::phase("routing model", "BGP computed");
        tracing::debug!("routing model: with BGP in {:?}", started.elapsed());
        let mut bgp_of: Vec<Option<BgpLearned>> = (0..names.len()).map(|_| None).collect();
        for (d, b) in device_of.into_iter().zip(bgp) {
            bgp_of[d] = b;
        }
        let extra = bgp_of
            .into_iter()
            .enumerate()
            .map(|(d, bgp)| Extra {
                igp: std::mem::take(&mut igp[d]),
                bgp,
            })
            .collect();
        Ok(Shared {
            hostnames,
            learned,
            extra,
        })
    }
}

/// A network's RIBs computed from parsed configurations held in memory (a candidate's),
/// each device's made when asked for, as the stored model makes them: the network-wide
/// protocols computed once, no device's whole table made before it is asked for.
pub struct Lazy<T> {
    /// Each device's parsed configuration, with what [`Lazy::rib`] needs to read it.
    devices: Vec<T>,
    /// Hostname → index in `devices`.
    index: std::collections::HashMap<String, usize>,
    learned: Learned,
    extra: Vec<Extra>,
}

impl<T> Lazy<T> {
    /// The network of `devices`, each read through `input`.
    pub fn new(
        devices: Vec<T>,
        input: impl Fn(&T) -> DeviceInput<'_>,
    ) -> Result<Lazy<T>, StateError> {
        let shared = Shared::over(|each| {
            devices.iter().for_each(|d| each(input(d)));
            Ok(())
        })?;
        let index = shared
            .hostnames
            .into_iter()
            .enumerate()
            .map(|(k, h)| (h, k))
            .collect();
        Ok(Lazy {
            devices,
            index,
            learned: shared.learned,
            extra: shared.extra,
        })
    }

    /// How many devices it has.
    pub fn len(&self) -> usize {
        self.devices.len()
    }

    /// Whether it has no device.
    pub fn is_empty(&self) -> bool {
        self.devices.is_empty()
    }

    /// Whether `hostname` is one of its devices.
    pub fn has(&self, hostname: &str) -> bool {
        self.index.contains_key(hostname)
    }

    /// The RIB of `hostname` (None: not one of its devices), read through `input`.
    pub fn rib(&self, hostname: &str, input: impl Fn(&T) -> DeviceInput<'_>) -> Option<DeviceRib> {
        let &k = self.index.get(hostname)?;
        let x = self.extra.get(k)?;
        let extra = Extra {
            igp: x.igp.clone(),
            bgp: x.bgp.clone(),
        };
        Some(device_rib(
            &self.learned,
            k,
            input(self.devices.get(k)?),
            extra,
        ))
    }
}
