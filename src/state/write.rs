//! Writing an import: one transaction that replaces the network's state and records a
//! new state version. A failure anywhere leaves the previous state untouched.

use super::schema::STATE_TABLES;
use super::{StateDb, StateError};
use crate::ifname;
use crate::import::opstate::{self, OpState};
use crate::import::{FileIssue, FullDevice, ParsedSnapshot, Streamed};
use crate::model::{BgpNeighbor, BgpPeer, DeviceConfig};
use rusqlite::{params, Statement, ToSql};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashMap;
use std::net::IpAddr;

/// What an import did.
#[derive(Debug, Clone, Serialize)]
pub struct ImportSummary {
    /// The state version this import created.
    pub state_version: i64,
    /// Devices imported.
    pub devices: usize,
    /// Links stored.
    pub links: usize,
    /// BGP sessions stored.
    pub bgp_sessions: usize,
    /// Services stored.
    pub services: usize,
    /// Config lines read.
    pub lines_total: u64,
    /// Lines ignored as unknown.
    pub lines_unrecognised: u64,
    /// Files not imported, with the reason (`file: reason`).
    pub skipped: Vec<String>,
    /// Warnings (`file:line: message`).
    pub warnings: Vec<String>,
    /// Whether the snapshot's files are identical to the previous import's.
    pub unchanged: bool,
}

fn state_file_issue(message: String) -> FileIssue {
    FileIssue {
        file: opstate::FILE_NAME.to_owned(),
        line: None,
        message,
    }
}

/// The local address a session uses: the update-source's address, else the address of
/// the interface whose subnet holds the peer (eBGP single-hop, as Batfish computes it).
/// None for unnumbered peerings (IPv6 link-local addresses no config names) and for a
/// source the configuration does not name (`BgpNeighbor::local_address_unknown`).
fn local_ip(cfg: &DeviceConfig, n: &BgpNeighbor) -> Option<IpAddr> {
    let vrf_of = |v: &Option<String>| v.as_deref().unwrap_or("default").to_owned();
    let peer_v4 = match &n.peer {
        BgpPeer::Address(p) => p.is_ipv4(),
        BgpPeer::ListenRange(r) => r.addr().is_ipv4(),
        BgpPeer::Interface(_) => return None,
    };
    if n.local_address.is_some() || n.local_address_unknown {
        return n.local_address;
    }
    if let Some(src) = &n.update_source {
        let iface = cfg.interfaces.iter().find(|i| ifname::same(src, &i.name))?;
        return iface
            .addresses
            .iter()
            .find(|a| a.address.addr().is_ipv4() == peer_v4)
            .map(|a| a.address.addr());
    }
    let BgpPeer::Address(peer) = &n.peer else {
        return None;
    };
    cfg.interfaces
        .iter()
        .filter(|i| vrf_of(&i.vrf) == vrf_of(&n.vrf))
        .flat_map(|i| i.addresses.iter())
        .find(|a| a.address.contains(peer) && a.address.addr() != *peer)
        .map(|a| a.address.addr())
}

/// Binds `values` to parameters 2, 3, … of `st` (1 is the hostname; the last two, the
/// source file and collected_at, are bound apart) and inserts the row.
fn bind(st: &mut Statement<'_>, values: &[&dyn ToSql]) -> rusqlite::Result<()> {
    for (i, v) in values.iter().enumerate() {
        st.raw_bind_parameter(i + 2, v)?;
    }
    st.raw_execute().map(drop)
}

/// The tables of the rows that hang on a device.
const DEVICE_TABLES: &[&str] = &[
    "device_config",
    "interface",
    "ip_address",
    "bgp_session",
    "bgp_network",
    "static_route",
    "ospf_network",
    "structure_def",
    "structure_ref",
];

/// Puts the rows of [`DEVICE_TABLES`] in hostname order, each device's in the order they
/// were written, when the devices came in another: the network model reads them back in
/// the order they are stored, as it did when every import wrote them in hostname order,
/// and a DB is the same whatever its snapshot's files are called.
fn reorder(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    for t in DEVICE_TABLES {
        tx.execute_batch(&format!(
            "CREATE TEMP TABLE olav_reorder AS SELECT * FROM {t} ORDER BY hostname, rowid;
             DELETE FROM {t};
             INSERT INTO {t} SELECT * FROM olav_reorder ORDER BY rowid;
             DROP TABLE olav_reorder;"
        ))?;
    }
    Ok(())
}

/// `v` written into `buf`, in place of what it held.
fn show(buf: &mut String, v: impl std::fmt::Display) -> &str {
    use std::fmt::Write;
    buf.clear();
    // Writing into a String cannot fail.
    let _ = write!(buf, "{v}");
    buf
}

/// Every device handed, parsed in full, to the writer of an import.
type EachDevice<'w> = &'w mut dyn FnMut(FullDevice<'_>) -> Result<(), StateError>;

impl StateDb {
    /// Replaces the network's state with `snap` in one transaction.
    pub fn import(&mut self, snap: &ParsedSnapshot) -> Result<ImportSummary, StateError> {
        self.replace_state(&snap.opstate, |write| {
            for d in &snap.devices {
                write(d.full())?;
            }
            Ok(Cow::Borrowed(snap))
        })
    }

    /// Replaces the network's state with a streamed snapshot in one transaction: each
    /// device's rows are written while the next configs are parsed.
    pub fn import_streamed(&mut self, snap: &Streamed<'_>) -> Result<ImportSummary, StateError> {
        self.replace_state(snap.opstate(), |write| snap.run(write).map(Cow::Owned))
    }

    /// Writes the rows of the devices `fill` hands over, then the rest of the snapshot it
    /// returns; `opstate` is the snapshot's state file.
    fn replace_state<'s>(
        &mut self,
        opstate: &OpState,
        fill: impl FnOnce(EachDevice<'_>) -> Result<Cow<'s, ParsedSnapshot>, StateError>,
    ) -> Result<ImportSummary, StateError> {
        let path = self.path.clone();
        let wrap = |source| StateError::Sqlite {
            path: path.clone(),
            source,
        };
        // Every row an import writes refers only to rows it wrote itself (devices first,
        // then what hangs on them): with the checks of foreign keys off for the import,
        // the previous state is cleared table by table instead of row by row, and no
        // insert looks its parent up. The pragma cannot change inside a transaction.
        self.conn
            .pragma_update(None, "foreign_keys", "OFF")
            .map_err(wrap)?;
        let written = self.write_state(opstate, fill);
        let restored = self
            .conn
            .pragma_update(None, "foreign_keys", "ON")
            .map_err(wrap);
        let summary = written?;
        restored?;
        Ok(summary)
    }

    fn write_state<'s>(
        &mut self,
        opstate: &OpState,
        fill: impl FnOnce(EachDevice<'_>) -> Result<Cow<'s, ParsedSnapshot>, StateError>,
    ) -> Result<ImportSummary, StateError> {
        let path = self.path.clone();
        let wrap = |source| StateError::Sqlite {
            path: path.clone(),
            source,
        };
        let previous_hash: Option<String> = self
            .conn
            .query_row(
                "SELECT content_hash FROM import_run ORDER BY state_version DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .ok();
        // 2 MiB of page cache while the devices are read: with the indexes built after the
        // rows, every table grows at its end, and memory is what a large import runs short
        // of while it finds links (docs/performance.md).
        self.conn
            .pragma_update(None, "cache_size", -2048)
            .map_err(wrap)?;
        let started = std::time::Instant::now();
        // The write lock is taken at once: the transaction reads the schema before its
        // first write, and a deferred one could then not wait for another writer.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(wrap)?;
        // The state tables' indexes are built once after the rows are in (a sort), not
        // kept up to date row by row (a random insert each).
        let indexes: Vec<(String, String)> = {
            let list = STATE_TABLES
                .iter()
                .map(|t| format!("'{t}'"))
                .collect::<Vec<_>>()
                .join(", ");
            let mut st = tx
                .prepare(&format!(
                    "SELECT name, sql FROM sqlite_master
                     WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ({list})"
                ))
                .map_err(wrap)?;
            let rows = st
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(wrap)?;
            rows.collect::<Result<_, _>>().map_err(wrap)?
        };
        for (name, _) in &indexes {
            tx.execute(&format!("DROP INDEX \"{name}\""), [])
                .map_err(wrap)?;
        }
        for t in STATE_TABLES {
            tx.execute(&format!("DELETE FROM {t}"), []).map_err(wrap)?;
        }
        let at = opstate.collected_at.as_deref();
        let observed: HashMap<(&str, &str, &str), &str> = opstate
            .bgp_sessions
            .iter()
            .map(|s| {
                (
                    (
                        s.hostname.as_str(),
                        s.vrf.as_deref().unwrap_or("default"),
                        s.peer.as_str(),
                    ),
                    s.state.as_str(),
                )
            })
            .collect();
        let mut bgp_count = 0usize;
        let mut sorted = true;
        let snap = {
            // Statements of the rows that hang on a device. Their first parameter is the
            // hostname and their last two the source file and collected_at: those are bound
            // once per device (collected_at once per import), only the rest per row
            // (SQLite keeps bindings across executions).
            let prep = |sql: &str, params: usize| -> Result<Statement<'_>, StateError> {
                let mut st = tx.prepare(sql).map_err(wrap)?;
                st.raw_bind_parameter(params, at).map_err(wrap)?;
                Ok(st)
            };
            let mut if_st = prep(
                "INSERT INTO interface (hostname, ifname, description, admin_state, oper_state, mtu, speed_mbps, vrf, switchport_mode, access_vlan, trunk_vlans, channel_group, source_line, source_file, collected_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                15,
            )?;
            let mut ip_st = prep(
                "INSERT INTO ip_address (hostname, ifname, vrf, address, prefix, kind, source_line, source_file, collected_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                9,
            )?;
            let mut bgp_st = prep(
                "INSERT INTO bgp_session (hostname, vrf, local_as, local_ip, update_source, peer_address, listen_range, peer_interface, peer_asn, peer_group, description, route_map_in, route_map_out, ebgp_multihop, shutdown, address_families, state, source_line, source_file, collected_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
                20,
            )?;
            let mut net_st = prep(
                "INSERT INTO bgp_network (hostname, vrf, prefix, source_line, source_file, collected_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                6,
            )?;
            let mut sr_st = prep(
                "INSERT INTO static_route (hostname, vrf, prefix, next_hop, next_hop_interface, distance, activity, source_line, source_file, collected_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                10,
            )?;
            let mut ospf_st = prep(
                "INSERT INTO ospf_network (hostname, process, prefix, ifname, area, source_line, source_file, collected_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                8,
            )?;
            let mut def_st = prep(
                "INSERT OR IGNORE INTO structure_def (hostname, kind, name, source_line, source_file, collected_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                6,
            )?;
            let mut ref_st = prep(
                "INSERT INTO structure_ref (hostname, kind, name, context, source_line, source_file, collected_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                7,
            )?;
            let mut cfg_st = tx
                .prepare("INSERT INTO device_config (hostname, source_file, config_text) VALUES (?1, ?2, ?3)")
                .map_err(wrap)?;
            let oper: HashMap<(&str, String), &str> = opstate
                .interfaces
                .iter()
                .map(|s| {
                    (
                        (s.hostname.as_str(), ifname::expand(&s.ifname)),
                        s.oper_state.as_str(),
                    )
                })
                .collect();
            // Whether the devices came in hostname order, as the rows are read back (the
            // files' order: the same wherever files are named after their devices).
            let mut last: Option<String> = None;
            // Addresses and prefixes are formatted into these, row after row, instead of
            // into a new string each: the writer's garbage would otherwise sit between the
            // outlines this thread keeps of the devices (docs/performance.md).
            let (mut text_a, mut text_b) = (String::new(), String::new());
            let mut write = |d: FullDevice<'_>| -> rusqlite::Result<()> {
                let c = d.config;
                let f = d.source_file;
                let bgp = c.bgp.as_ref();
                match &mut last {
                    Some(l) => {
                        sorted &= l.as_str() < d.hostname;
                        l.clear();
                        l.push_str(d.hostname);
                    }
                    None => last = Some(d.hostname.to_owned()),
                }
                for (st, n) in [
                    (&mut if_st, 15),
                    (&mut ip_st, 9),
                    (&mut bgp_st, 20),
                    (&mut net_st, 6),
                    (&mut sr_st, 10),
                    (&mut ospf_st, 8),
                    (&mut def_st, 6),
                    (&mut ref_st, 7),
                ] {
                    st.raw_bind_parameter(1, d.hostname)?;
                    st.raw_bind_parameter(n - 1, f)?;
                }
                cfg_st.execute(params![d.hostname, f, d.text])?;
                for i in &c.interfaces {
                    let vrf = i.vrf.as_deref().unwrap_or("default");
                    // Most snapshots carry no interface states: skip the per-interface lookups.
                    let op = if oper.is_empty() {
                        None
                    } else {
                        oper.get(&(d.hostname, i.name.clone()))
                            .or_else(|| oper.get(&(d.hostname, ifname::expand(&i.name))))
                            .copied()
                    };
                    bind(
                        &mut if_st,
                        &[
                            &i.name,
                            &i.description,
                            &if i.admin_up { "up" } else { "down" },
                            &op,
                            &i.mtu,
                            &i.speed_mbps,
                            &vrf,
                            &i.switchport_mode.map(|m| match m {
                                crate::model::SwitchportMode::Access => "access",
                                crate::model::SwitchportMode::Trunk => "trunk",
                            }),
                            &i.access_vlan,
                            &i.trunk_vlans,
                            &i.channel_group,
                            &i.line,
                        ],
                    )?;
                    for a in &i.addresses {
                        bind(
                            &mut ip_st,
                            &[
                                &i.name,
                                &vrf,
                                &show(&mut text_a, a.address.addr()),
                                &show(&mut text_b, a.address.trunc()),
                                &a.kind.as_str(),
                                &a.line,
                            ],
                        )?;
                    }
                }
                if let Some(b) = bgp {
                    for n in &b.neighbors {
                        let vrf = n.vrf.as_deref().unwrap_or("default");
                        let (peer_address, listen_range, peer_interface) = match &n.peer {
                            BgpPeer::Address(a) => (Some(a.to_string()), None, None),
                            BgpPeer::ListenRange(r) => (None, Some(r.to_string()), None),
                            BgpPeer::Interface(i) => (None, None, Some(i.as_str())),
                        };
                        let state = peer_address
                            .as_deref()
                            .and_then(|p| observed.get(&(d.hostname, vrf, p)).copied());
                        bind(
                            &mut bgp_st,
                            &[
                                &vrf,
                                &b.local_as,
                                &local_ip(c, n).map(|a| a.to_string()),
                                &n.update_source,
                                &peer_address,
                                &listen_range,
                                &peer_interface,
                                &n.peer_asn,
                                &n.peer_group,
                                &n.description,
                                &n.route_map_in,
                                &n.route_map_out,
                                &n.ebgp_multihop,
                                &n.shutdown,
                                &n.address_families.join(","),
                                &state,
                                &n.line,
                            ],
                        )?;
                        bgp_count += 1;
                    }
                    for net in &b.networks {
                        bind(
                            &mut net_st,
                            &[
                                &net.vrf.as_deref().unwrap_or("default"),
                                &show(&mut text_a, net.prefix),
                                &net.line,
                            ],
                        )?;
                    }
                }
                for r in &c.static_routes {
                    bind(
                        &mut sr_st,
                        &[
                            &r.vrf.as_deref().unwrap_or("default"),
                            &show(&mut text_a, r.prefix),
                            &r.next_hop.map(|h| show(&mut text_b, h)),
                            &r.next_hop_interface,
                            &r.distance,
                            &r.activity.as_str(),
                            &r.line,
                        ],
                    )?;
                }
                for o in &c.ospf_networks {
                    bind(
                        &mut ospf_st,
                        &[
                            &o.process,
                            &o.prefix.map(|p| show(&mut text_a, p)),
                            &o.interface,
                            &o.area,
                            &o.line,
                        ],
                    )?;
                }
                for s in &c.structures {
                    bind(&mut def_st, &[&s.kind.as_str(), &s.name, &s.line])?;
                }
                for r in &c.references {
                    bind(
                        &mut ref_st,
                        &[&r.kind.as_str(), &r.name, &r.context, &r.line],
                    )?;
                }
                Ok(())
            };
            fill(&mut |d| write(d).map_err(wrap))?
        };
        // 32 MiB once they are: the indexes' sorts take as much (a larger cache, it was
        // 256 MiB, buys no speed).
        tx.pragma_update(None, "cache_size", -32_768)
            .map_err(wrap)?;
        if !sorted {
            reorder(&tx).map_err(wrap)?;
        }
        {
            // A device's own row waits for its role, known once every device is read.
            let mut dev_st = tx
                .prepare(
                    "INSERT INTO device (hostname, vendor, os, os_version, model, role, role_inferred, site, status, asn, router_id, management_address, source_line, source_file, collected_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                )
                .map_err(wrap)?;
            for d in &snap.devices {
                let bgp = d.config.bgp.as_ref();
                dev_st
                    .execute(params![
                        d.hostname,
                        d.vendor.vendor_name(),
                        d.vendor.os_name(),
                        d.config.os_version,
                        d.model,
                        d.role,
                        d.role_inferred,
                        d.site,
                        d.status,
                        bgp.and_then(|b| b.local_as),
                        bgp.and_then(|b| b.router_id).map(|r| r.to_string()),
                        d.management_address,
                        Option::<u32>::None,
                        d.source_file,
                        at
                    ])
                    .map_err(wrap)?;
            }
        }
        tracing::debug!("import: devices written in {:?}", started.elapsed());
        {
            let mut st = tx
                .prepare(
                    "INSERT INTO link (hostname_a, ifname_a, hostname_b, ifname_b, source, status, subnet, source_file, collected_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                )
                .map_err(wrap)?;
            for l in &snap.links {
                let file = match l.source {
                    crate::import::links::LinkSource::Inferred => "configs/",
                    _ => opstate::FILE_NAME,
                };
                st.execute(params![
                    l.a.0,
                    l.a.1,
                    l.b.0,
                    l.b.1,
                    l.source.as_str(),
                    l.status,
                    l.subnet.map(|s| s.to_string()),
                    file,
                    at
                ])
                .map_err(wrap)?;
            }
        }
        let mut warnings: Vec<FileIssue> = snap.warnings.clone();
        {
            let mut svc = tx
                .prepare("INSERT INTO service (name, kind, criticality, source_file, collected_at) VALUES (?1, ?2, ?3, ?4, ?5)")
                .map_err(wrap)?;
            let mut ep = tx
                .prepare("INSERT INTO service_endpoint (service, hostname, ifname, prefix) VALUES (?1, ?2, ?3, ?4)")
                .map_err(wrap)?;
            let hosts: HashMap<&str, &crate::import::ParsedDevice> = snap
                .devices
                .iter()
                .map(|d| (d.hostname.as_str(), d))
                .collect();
            let mut seen = std::collections::HashSet::new();
            for s in &snap.opstate.services {
                if !seen.insert(s.name.as_str()) {
                    warnings.push(state_file_issue(format!(
                        "services: '{}' is listed twice; the first entry is kept",
                        s.name
                    )));
                    continue;
                }
                svc.execute(params![
                    s.name,
                    s.kind,
                    s.criticality,
                    opstate::FILE_NAME,
                    at
                ])
                .map_err(wrap)?;
                for e in &s.endpoints {
                    let (host, ifn) = match (&e.device, &e.interface) {
                        (Some(h), _) => (Some(h.clone()), None),
                        (None, Some(spec)) => match spec.split_once(':') {
                            Some((h, i)) => {
                                let canon = hosts.get(h).and_then(|d| {
                                    ifname::resolve(
                                        i,
                                        d.config.interfaces.iter().map(|x| x.name.as_str()),
                                    )
                                });
                                (Some(h.to_owned()), Some(canon.unwrap_or(i).to_owned()))
                            }
                            None => (None, None),
                        },
                        _ => (None, None),
                    };
                    let prefix = match &e.prefix {
                        Some(p) => match p.parse::<ipnet::IpNet>() {
                            Ok(n) => Some(n.trunc().to_string()),
                            Err(_) => {
                                warnings.push(state_file_issue(format!(
                                    "service '{}': '{p}' is not a prefix",
                                    s.name
                                )));
                                None
                            }
                        },
                        None => None,
                    };
                    if let Some(h) = &host {
                        if !hosts.contains_key(h.as_str()) {
                            warnings.push(state_file_issue(format!(
                                "service '{}': device '{h}' has no config in this snapshot",
                                s.name
                            )));
                        }
                    }
                    if host.is_none() && prefix.is_none() {
                        warnings.push(state_file_issue(format!(
"service '{}': an endpoint names no device, interface (device:ifname) or prefix",
s.name
                        )));
                        continue;
                    }
                    ep.execute(params![s.name, host, ifn, prefix])
                        .map_err(wrap)?;
                }
            }
        }
        {
            use sha2::{Digest, Sha256};
            let mut st = tx
                .prepare("INSERT INTO batfish_file (path, content, bytes, sha256, collected_at) VALUES (?1, ?2, ?3, ?4, ?5)")
                .map_err(wrap)?;
            for f in &snap.batfish_files {
                let digest: String = Sha256::digest(&f.bytes)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                st.execute(params![f.path, f.bytes, f.bytes.len() as i64, digest, at])
                    .map_err(wrap)?;
            }
        }
        {
            let mut st = tx
                .prepare("INSERT INTO import_warning (source_file, source_line, severity, message) VALUES (?1, ?2, ?3, ?4)")
                .map_err(wrap)?;
            for w in &snap.warnings {
                st.execute(params![w.file, w.line, "warning", w.message])
                    .map_err(wrap)?;
            }
            for w in &snap.skipped {
                st.execute(params![w.file, w.line, "skipped", w.message])
                    .map_err(wrap)?;
            }
        }
        let imported_at = super::now();
        tx.execute(
            "INSERT INTO import_run (snapshot, content_hash, collected_at, imported_at, devices, files_skipped, warnings, lines_total, lines_unrecognised)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                snap.label,
                snap.content_hash,
                at,
                imported_at,
                snap.devices.len() as i64,
                snap.skipped.len() as i64,
                warnings.len() as i64,
                snap.lines_total as i64,
                snap.lines_unrecognised as i64
            ],
        )
        .map_err(wrap)?;
        let state_version = tx.last_insert_rowid();
        {
            // Per-device config digests, kept across imports: "what changed since version N".
            let mut st = tx
                .prepare("INSERT INTO device_version (state_version, hostname, config_hash) VALUES (?1, ?2, ?3)")
                .map_err(wrap)?;
            for d in &snap.devices {
                st.execute(params![state_version, d.hostname, d.config_hash])
                    .map_err(wrap)?;
            }
        }
        tracing::debug!("import: all rows written in {:?}", started.elapsed());
        for (_, sql) in &indexes {
            tx.execute(sql, []).map_err(wrap)?;
        }
        tracing::debug!("import: indexes built in {:?}", started.elapsed());
        tx.commit().map_err(wrap)?;
        tracing::debug!("import: committed in {:?}", started.elapsed());
        Ok(ImportSummary {
            state_version,
            devices: snap.devices.len(),
            links: snap.links.len(),
            bgp_sessions: bgp_count,
            services: snap.opstate.services.len(),
            lines_total: snap.lines_total,
            lines_unrecognised: snap.lines_unrecognised,
            skipped: snap.skipped.iter().map(|s| s.to_string()).collect(),
            warnings: warnings.iter().map(|w| w.to_string()).collect(),
            unchanged: previous_hash.as_deref() == Some(snap.content_hash.as_str()),
        })
    }
}
