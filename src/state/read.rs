//! Reading the state store: the `state show` tables and `state stats`.

use super::{StateDb, StateError};
use crate::output::Table;
use rusqlite::types::ValueRef;
use serde::Serialize;

/// `olav state stats`.
#[derive(Debug, Clone, Serialize)]
pub struct Stats {
    /// Schema version of the DB.
    pub schema_version: i64,
    /// Current state version (0: never imported).
    pub state_version: i64,
    /// Snapshot last imported.
    pub snapshot: Option<String>,
    /// When it was collected.
    pub collected_at: Option<String>,
    /// When it was imported.
    pub imported_at: Option<String>,
    /// Row count per table.
    pub rows: Vec<(String, i64)>,
    /// Files skipped by the last import.
    pub files_skipped: i64,
    /// Warnings of the last import.
    pub warnings: i64,
    /// Config lines read by the last import.
    pub lines_total: i64,
    /// Lines ignored as unknown.
    pub lines_unrecognised: i64,
}

/// What `olav state show` can list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ShowKind {
    /// Devices.
    Devices,
    /// Interfaces with their addresses.
    Interfaces,
    /// Links.
    Links,
    /// BGP sessions.
    Bgp,
    /// Services and their endpoints.
    Services,
    /// Static routes.
    Routes,
    /// Import warnings and skipped files.
    Warnings,
    /// The snapshot's `batfish/` files (layer-1 topology, ISP and runtime data), as stored.
    Files,
}

impl ShowKind {
    fn sql(self) -> &'static str {
        match self {
            ShowKind::Devices => {
                "SELECT hostname, os, model, role || CASE WHEN role_inferred THEN ' (inferred)' ELSE '' END AS role,
                        site, status, asn, router_id, management_address
                 FROM device WHERE (?1 IS NULL OR hostname = ?1) ORDER BY site, hostname"
            }
            ShowKind::Interfaces => {
                "SELECT i.hostname, i.ifname, i.admin_state, i.oper_state,
                        (SELECT group_concat(a.address || '/' || substr(a.prefix, instr(a.prefix, '/') + 1)
                                || CASE a.kind WHEN 'primary' THEN '' ELSE ' (' || a.kind || ')' END, ', ')
                         FROM ip_address a WHERE a.hostname = i.hostname AND a.ifname = i.ifname) AS addresses,
                        i.vrf, i.switchport_mode, i.access_vlan, i.trunk_vlans, i.channel_group, i.description
                 FROM interface i WHERE (?1 IS NULL OR i.hostname = ?1) ORDER BY i.hostname, i.source_line"
            }
            ShowKind::Links => {
                "SELECT hostname_a, ifname_a, hostname_b, ifname_b, source, status, subnet
                 FROM link WHERE (?1 IS NULL OR hostname_a = ?1 OR hostname_b = ?1)
                 ORDER BY hostname_a, ifname_a, hostname_b, ifname_b"
            }
            ShowKind::Bgp => {
                "SELECT hostname, vrf, local_as, local_ip, COALESCE(peer_address, listen_range, peer_interface) AS peer,
                        peer_asn, peer_group, description, route_map_in, route_map_out,
                        CASE WHEN shutdown THEN 'shutdown' ELSE COALESCE(state, '') END AS state
                 FROM bgp_session WHERE (?1 IS NULL OR hostname = ?1) ORDER BY hostname, vrf, source_line"
            }
            ShowKind::Services => {
                "SELECT s.name, s.kind, s.criticality,
                        group_concat(COALESCE(e.hostname || COALESCE(':' || e.ifname, ''), e.prefix), ', ') AS endpoints
                 FROM service s LEFT JOIN service_endpoint e ON e.service = s.name
                 WHERE (?1 IS NULL OR EXISTS (SELECT 1 FROM service_endpoint x WHERE x.service = s.name AND x.hostname = ?1))
                 GROUP BY s.name ORDER BY s.name"
            }
            ShowKind::Routes => {
                "SELECT hostname, vrf, prefix, next_hop, next_hop_interface, distance, activity
                 FROM static_route WHERE (?1 IS NULL OR hostname = ?1) ORDER BY hostname, vrf, prefix"
            }
            // Files belong to the snapshot, not to a device: `--device` selects them all.
            ShowKind::Files => {
                "SELECT path, bytes, sha256 FROM batfish_file
                 WHERE ?1 IS NULL OR ?1 IS NOT NULL ORDER BY path"
            }
            ShowKind::Warnings => {
                "SELECT severity, source_file, source_line, message
                 FROM import_warning WHERE (?1 IS NULL OR source_file LIKE '%' || ?1 || '%')
                 ORDER BY severity DESC, source_file, source_line"
            }
        }
    }
}

impl StateDb {
    /// Device configurations the last import recognised but does not read (a Check Point
    /// or IOS-XR router, a SONiC switch): (file, what), in file order. What they route is
    /// in no table olav computes.
    pub fn unread_configs(&self) -> Result<Vec<(String, String)>, StateError> {
        let mut st = self
            .conn
            .prepare(
                "SELECT source_file, message FROM import_warning
                 WHERE severity = 'skipped' AND message LIKE '%: not read yet'
                   AND (source_file LIKE 'configs/%' OR source_file LIKE 'sonic_configs/%')
                   -- a management server's data routes nothing
                   AND message NOT LIKE 'Check Point management data%' 
                 ORDER BY source_file",
            )
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .map_err(|e| self.err(e))?;
        rows.map(|r| {
            r.map(|(f, m)| (f, m.trim_end_matches(": not read yet").to_owned()))
                .map_err(|e| self.err(e))
        })
        .collect()
    }

    /// Runs a query into a [`Table`].
    fn table(&self, sql: &str, device: Option<&str>) -> Result<Table, StateError> {
        self.table_with(sql, [device])
    }

    /// Runs a query with parameters into a [`Table`].
    pub(crate) fn table_with<P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
    ) -> Result<Table, StateError> {
        let mut st = self.conn.prepare(sql).map_err(|e| self.err(e))?;
        let columns: Vec<String> = st.column_names().iter().map(|c| (*c).to_owned()).collect();
        let n = columns.len();
        let rows = st
            .query_map(params, |r| {
                (0..n)
                    .map(|i| {
                        Ok(match r.get_ref(i)? {
                            ValueRef::Null => serde_json::Value::Null,
                            ValueRef::Integer(v) => serde_json::Value::from(v),
                            ValueRef::Real(v) => serde_json::Value::from(v),
                            ValueRef::Text(t) | ValueRef::Blob(t) => {
                                serde_json::Value::from(String::from_utf8_lossy(t).into_owned())
                            }
                        })
                    })
                    .collect::<Result<Vec<_>, rusqlite::Error>>()
            })
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(e))?;
        Ok(Table { columns, rows })
    }

    /// The rows `olav state show <kind>` prints.
    pub fn show(&self, kind: ShowKind, device: Option<&str>) -> Result<Table, StateError> {
        self.table(kind.sql(), device)
    }

    /// A device's stored running configuration, as imported.
    pub fn config_text(&self, hostname: &str) -> Result<Option<String>, StateError> {
        use rusqlite::OptionalExtension;
        self.conn()
            .query_row(
                "SELECT config_text FROM device_config WHERE hostname = ?1",
                [hostname],
                |r| r.get(0),
            )
            .optional()
            .map_err(|source| StateError::Sqlite {
                path: self.path().to_path_buf(),
                source,
            })
    }

    /// Every device's stored configuration, (hostname, text), sorted by hostname.
    pub fn config_texts(&self) -> Result<Vec<(String, String)>, StateError> {
        let e = |source| StateError::Sqlite {
            path: self.path().to_path_buf(),
            source,
        };
        let mut st = self
            .conn()
            .prepare("SELECT hostname, config_text FROM device_config ORDER BY hostname")
            .map_err(e)?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(e)?;
        rows.collect::<Result<_, _>>().map_err(e)
    }

    /// Whether a device exists.
    pub fn has_device(&self, hostname: &str) -> Result<bool, StateError> {
        self.conn
            .query_row(
                "SELECT COUNT(*) FROM device WHERE hostname = ?1",
                [hostname],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    /// Every hostname, sorted.
    pub fn hostnames(&self) -> Result<Vec<String>, StateError> {
        let mut st = self
            .conn
            .prepare("SELECT hostname FROM device ORDER BY hostname")
            .map_err(|e| self.err(e))?;
        let rows = st.query_map([], |r| r.get(0)).map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Row counts, versions and the last import's figures.
    pub fn stats(&self) -> Result<Stats, StateError> {
        let mut rows = Vec::new();
        for t in [
            "device",
            "interface",
            "ip_address",
            "link",
            "bgp_session",
            "bgp_network",
            "static_route",
            "ospf_network",
            "structure_def",
            "structure_ref",
            "service",
            "service_endpoint",
            "import_warning",
            "batfish_file",
        ] {
            let n: i64 = self
                .conn
                .query_row(&format!("SELECT COUNT(*) FROM {t}"), [], |r| r.get(0))
                .map_err(|e| self.err(e))?;
            rows.push((t.to_owned(), n));
        }
        let last = self
            .conn
            .query_row(
                "SELECT state_version, snapshot, collected_at, imported_at, files_skipped, warnings, lines_total, lines_unrecognised
                 FROM import_run ORDER BY state_version DESC LIMIT 1",
                [],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, i64>(5)?,
                        r.get::<_, i64>(6)?,
                        r.get::<_, i64>(7)?,
                    ))
                },
            );
        let last = match last {
            Ok(v) => Some(v),
            Err(rusqlite::Error::QueryReturnedNoRows) => None,
            Err(e) => return Err(self.err(e)),
        };
        Ok(Stats {
            schema_version: self.schema_version()?,
            state_version: last.as_ref().map_or(0, |l| l.0),
            snapshot: last.as_ref().map(|l| l.1.clone()),
            collected_at: last.as_ref().and_then(|l| l.2.clone()),
            imported_at: last.as_ref().map(|l| l.3.clone()),
            rows,
            files_skipped: last.as_ref().map_or(0, |l| l.4),
            warnings: last.as_ref().map_or(0, |l| l.5),
            lines_total: last.as_ref().map_or(0, |l| l.6),
            lines_unrecognised: last.as_ref().map_or(0, |l| l.7),
        })
    }
}
