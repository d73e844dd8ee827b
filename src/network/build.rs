//! Building the model of a state version from the state tables, once.

use super::sessions;
use super::{
    Address, BgpNetwork, Device, Endpoint, Interface, Interfaces, Link, NetworkModel,
    ParsedConfigs, ParsedDevice, Service, StaticRoute, Sym,
};
use crate::import::parse::parser_for;
use crate::model::{DeviceConfig, Vendor};
use crate::state::{StateDb, StateError};
use rusqlite::Row;
use std::collections::HashMap;

fn sql(db: &StateDb) -> impl Fn(rusqlite::Error) -> StateError + '_ {
    |source| StateError::Sqlite {
        path: db.path().to_path_buf(),
        source,
    }
}

/// Every row of `query`, mapped.
fn rows<T>(
    db: &StateDb,
    query: &str,
    f: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, StateError> {
    let e = sql(db);
    let mut st = db.conn().prepare(query).map_err(&e)?;
    let out = st
        .query_map([], f)
        .map_err(&e)?
        .collect::<Result<Vec<T>, _>>()
        .map_err(&e);
    out
}

impl NetworkModel {
    /// Reads the state tables of the current state version.
    pub(super) fn build(db: &StateDb) -> Result<NetworkModel, StateError> {
        let mut m = NetworkModel {
            state_version: db.state_version()?,
            ..NetworkModel::default()
        };
        m.devices = rows(
            db,
            "SELECT hostname, role, site, os, asn, status FROM device ORDER BY hostname",
            |r| {
                Ok(Device {
                    hostname: r.get(0)?,
                    role: r.get(1)?,
                    site: r.get(2)?,
                    os: r.get(3)?,
                    asn: r.get(4)?,
                    status: r.get(5)?,
                })
            },
        )?;
        m.reindex();
        for (h, i, v, a, p, k, up) in rows(
            db,
            "SELECT a.hostname, a.ifname, a.vrf, a.address, a.prefix, a.kind, COALESCE(i.admin_state = 'up', 0)
             FROM ip_address a LEFT JOIN interface i ON i.hostname = a.hostname AND i.ifname = a.ifname
             ORDER BY a.rowid",
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, bool>(6)?,
                ))
            },
        )? {
            if let (Ok(address), Ok(prefix)) = (a.parse(), p.parse()) {
                let a = Address {
                    hostname: m.intern(&h),
                    ifname: m.intern(&i),
                    vrf: m.intern(&v),
                    address,
                    prefix,
                    kind: m.intern(&k),
                    up,
                };
                m.addresses.push(a);
            }
        }
        for (ha, ia, hb, ib, st) in rows(
            db,
            "SELECT hostname_a, ifname_a, hostname_b, ifname_b, status FROM link ORDER BY 1, 2, 3, 4",
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                ))
            },
        )? {
            let l = Link {
                hostname_a: m.intern(&ha),
                ifname_a: m.intern(&ia),
                hostname_b: m.intern(&hb),
                ifname_b: m.intern(&ib),
                status: m.intern(&st),
            };
            m.links.push(l);
        }
        m.sessions = rows(
            db,
            &format!(
                "SELECT {} FROM bgp_session WHERE peer_address IS NOT NULL ORDER BY rowid",
                sessions::COLUMNS
            ),
            sessions::row,
        )?;
        m.bgp_networks = rows(
            db,
            "SELECT hostname, vrf, prefix FROM bgp_network ORDER BY rowid",
            |r| {
                Ok(BgpNetwork {
                    hostname: r.get(0)?,
                    vrf: r.get(1)?,
                    prefix: r.get(2)?,
                })
            },
        )?;
        m.static_routes = rows(
            db,
            "SELECT hostname, vrf, prefix, next_hop, next_hop_interface, distance, source_line
             FROM static_route ORDER BY rowid",
            |r| {
                Ok(StaticRoute {
                    hostname: r.get(0)?,
                    vrf: r.get(1)?,
                    prefix: r.get(2)?,
                    next_hop: r.get(3)?,
                    next_hop_interface: r.get(4)?,
                    distance: r.get(5)?,
                    source_line: r.get(6)?,
                })
            },
        )?;
        m.ospf = rows(
            db,
            "SELECT DISTINCT hostname FROM ospf_network ORDER BY hostname",
            |r| r.get(0),
        )?;
        m.services = rows(
            db,
            "SELECT name, kind, criticality FROM service ORDER BY name",
            |r| {
                Ok(Service {
                    name: r.get(0)?,
                    kind: r.get(1)?,
                    criticality: r.get(2)?,
                    endpoints: Vec::new(),
                })
            },
        )?;
        for (service, ep) in rows(
            db,
            "SELECT service, hostname, ifname, prefix FROM service_endpoint ORDER BY rowid",
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    Endpoint {
                        hostname: r.get(1)?,
                        ifname: r.get(2)?,
                        prefix: r.get(3)?,
                    },
                ))
            },
        )? {
            if let Ok(i) = m
                .services
                .binary_search_by(|s| s.name.as_str().cmp(service.as_str()))
            {
                m.services[i].endpoints.push(ep);
            }
        }
        Ok(m)
    }

    /// Rebuilds the lookups a stored model leaves out.
    pub(super) fn after_load(&mut self) {
        self.reindex();
    }
}

impl Interfaces {
    /// Reads every interface, by device in config order.
    pub(super) fn build(db: &StateDb) -> Result<Interfaces, StateError> {
        let devices: Vec<String> =
            rows(db, "SELECT hostname FROM device ORDER BY hostname", |r| {
                r.get(0)
            })?;
        let index: HashMap<&str, u32> = devices
            .iter()
            .enumerate()
            .map(|(i, h)| (h.as_str(), i as u32))
            .collect();
        let mut names: Vec<String> = Vec::new();
        let mut sym: HashMap<String, Sym> = HashMap::new();
        let mut intern = |n: &str| -> Sym {
            if let Some(&s) = sym.get(n) {
                return s;
            }
            let s = names.len() as Sym;
            names.push(n.to_owned());
            sym.insert(n.to_owned(), s);
            s
        };
        let mut out: Vec<(Option<u32>, Interface)> = Vec::new();
        let mut st = db
            .conn()
            .prepare(
                "SELECT hostname, source_line, ifname, description, admin_state, vrf, switchport_mode, channel_group, mtu
                 FROM interface",
            )
            .map_err(sql(db))?;
        let mut q = st.query([]).map_err(sql(db))?;
        while let Some(r) = q.next().map_err(sql(db))? {
            let text = |i: usize| -> Result<Option<String>, StateError> {
                r.get::<_, Option<String>>(i).map_err(sql(db))
            };
            let h: String = r.get(0).map_err(sql(db))?;
            let Some(&dev) = index.get(h.as_str()) else {
                continue;
            };
            let line: Option<u32> = r.get(1).map_err(sql(db))?;
            let i = Interface {
                dev,
                name: intern(&text(2)?.unwrap_or_default()),
                description: text(3)?,
                admin_state: intern(&text(4)?.unwrap_or_default()),
                vrf: intern(&text(5)?.unwrap_or_default()),
                switchport_mode: text(6)?.map(|x| intern(&x)),
                channel_group: text(7)?.map(|x| intern(&x)),
                mtu: r.get(8).map_err(sql(db))?,
            };
            out.push((line, i));
        }
        // Config order per device, as `ORDER BY hostname, source_line` gave it.
        out.sort_by_key(|(line, i)| (i.dev, *line));
        let rows: Vec<Interface> = out.into_iter().map(|(_, i)| i).collect();
        Ok(Interfaces::encode(
            db.state_version()?,
            names,
            devices.len(),
            &rows,
        ))
    }
}

/// What the checks and the Batfish ISP file read of a configuration, and nothing else:
/// the interfaces that hold an address or a cable or that BGP names, the BGP process,
/// and the references to structures the device does not define. The rest (prefix-lists,
/// route-maps, routes, descriptions, VLANs, warnings) is read from the state tables.
fn for_checks(c: DeviceConfig, cabled: impl Fn(&str) -> bool) -> DeviceConfig {
    let defined: std::collections::HashSet<(crate::model::StructureKind, &str)> = c
        .structures
        .iter()
        .map(|s| (s.kind, s.name.as_str()))
        .collect();
    let references = c
        .references
        .iter()
        .filter(|r| !defined.contains(&(r.kind, r.name.as_str())))
        .cloned()
        .collect();
    let named_by_bgp = |name: &str| {
        c.bgp.as_ref().is_some_and(|b| {
            b.neighbors.iter().any(|n| {
                n.update_source
                    .as_deref()
                    .is_some_and(|u| crate::ifname::same(u, name))
                    || matches!(&n.peer, crate::model::BgpPeer::Interface(x) if crate::ifname::same(x, name))
            })
        })
    };
    let interfaces = c
        .interfaces
        .iter()
        .filter(|i| !i.addresses.is_empty() || cabled(&i.name) || named_by_bgp(&i.name))
        .map(|i| crate::model::Interface {
            description: None,
            trunk_vlans: None,
            ..i.clone()
        })
        .collect();
    DeviceConfig {
        hostname: c.hostname,
        interfaces,
        bgp: c.bgp,
        references,
        ..DeviceConfig::default()
    }
}

impl ParsedConfigs {
    /// Parses every stored configuration, on every core, a chunk of devices at a time so
    /// that the texts never sit in memory all at once.
    pub(super) fn build(db: &StateDb) -> Result<ParsedConfigs, StateError> {
        let e = sql(db);
        let names: Vec<(String, String, String)> = rows(
            db,
            "SELECT d.hostname, d.os, c.source_file FROM device d
             JOIN device_config c ON c.hostname = d.hostname ORDER BY d.hostname",
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let links: Vec<crate::model::LinkEnds> = rows(
            db,
            "SELECT hostname_a, ifname_a, hostname_b, ifname_b FROM link",
            |r| Ok(((r.get(0)?, r.get(1)?), (r.get(2)?, r.get(3)?))),
        )?;
        // Each link end's far end, None where more than one link ends on an interface.
        let far_of = &crate::checks::model::far_ends(&links);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut out = ParsedConfigs {
            state_version: db.state_version()?,
            ..ParsedConfigs::default()
        };
        let mut text_st = db
            .conn()
            .prepare_cached("SELECT config_text FROM device_config WHERE hostname = ?1")
            .map_err(&e)?;
        for chunk in names.chunks(512 * threads) {
            let mut texts: Vec<String> = Vec::with_capacity(chunk.len());
            for (h, _, _) in chunk {
                texts.push(text_st.query_row([h], |r| r.get(0)).map_err(&e)?);
            }
            let per = chunk.len().div_ceil(threads).max(1);
            std::thread::scope(|s| {
                let handles: Vec<_> = chunk
                    .chunks(per)
                    .zip(texts.chunks(per))
                    .map(|(part, texts)| {
                        s.spawn(move || {
                            part.iter()
                                .zip(texts)
                                .map(|((h, os, file), text)| {
                                    let vendor = Vendor::from_os(os);
                                    let whole = parser_for(vendor).parse(text);
                                    let mut down_svis: Vec<String> =
                                        crate::routing::autostate::down_svis(&whole, vendor)
                                            .into_iter()
                                            .collect();
                                    down_svis.sort_unstable();
                                    let mut config = for_checks(whole, |i| {
                                        far_of.contains_key(&(h.as_str(), i))
                                    });
                                    crate::checks::model::link_interfaces(h, &mut config, far_of);
                                    let d = ParsedDevice {
                                        hostname: h.clone(),
                                        os: os.clone(),
                                        source_file: file.clone(),
                                        vtep: super::vtep_interfaces(text),
                                        config,
                                        down_svis,
                                    };
                                    // Kept encoded: the parsed form of every device
                                    // at once is what made this build large.
                                    postcard::to_stdvec(&d).unwrap_or_default()
                                })
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                for h in handles {
                    // A parser that panicked must not leave its devices silently out.
                    match h.join() {
                        Ok(v) => {
                            for bytes in v {
                                out.starts.push(out.rows.len() as u32);
                                out.rows.extend_from_slice(&bytes);
                            }
                        }
                        Err(p) => std::panic::resume_unwind(p),
                    }
                }
            });
        }
        Ok(out)
    }
}
