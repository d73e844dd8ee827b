//! The state store: one SQLite DB holding the network as imported (devices, interfaces,
//! addresses, links, BGP sessions, routes, structures, services) with provenance, and a
//! state version that increases with every import.

mod addresses;
pub mod claims;
mod config_text;
mod cycles;
mod files;
mod fresh;
pub mod owner;
pub mod plans;
mod read;
mod read_only;
pub mod runs;
pub mod schema;
mod services;
mod topology;
mod write;

pub use addresses::{ManagementAccess, UnheldManagement};
pub use read::{ShowKind, Stats};
pub use services::ServiceEndpoint;
pub use topology::LinkEnd;
pub use write::ImportSummary;

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Now, as the RFC 3339 UTC text every record stores.
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// How long a writer waits for another writer before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Errors of the state store.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// SQLite said no.
    #[error("state DB {path}: {}", sqlite_text(source))]
    Sqlite {
        /// The DB file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The DB's folder could not be created.
    #[error("state DB {path}: cannot create its folder: {source}")]
    CreateDir {
        /// The DB file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A new DB's file could not be made or moved into place.
    #[error("state DB {path}: cannot create it: {source}")]
    Create {
        /// The DB file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A snapshot could not be read while it was being written.
    #[error(transparent)]
    Import(#[from] crate::import::ImportError),
    /// The DB's folder cannot be written, and the DB cannot be read without writing.
    #[error("state DB {path}: {why}")]
    ReadOnly {
        /// The DB file.
        path: PathBuf,
        /// Why it cannot be opened read-only.
        why: String,
    },
    /// The DB was written by a newer olav.
    #[error("state DB {path}: schema version {found} is newer than this olav knows ({known}); upgrade olav")]
    TooNew {
        /// The DB file.
        path: PathBuf,
        /// Version in the file.
        found: i64,
        /// Latest version known here.
        known: i64,
    },
}

/// Whether an error in a chain is SQLite's own code and text ("Error code 13: …"), which
/// a state DB error has already said in words.
pub fn is_sqlite_detail(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<rusqlite::ffi::Error>().is_some()
}

/// SQLite's text, with what to do when the DB cannot be written (a read-only folder or
/// file, where olav opened it read-only).
fn sqlite_text(e: &rusqlite::Error) -> String {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ReadOnly) => format!(
            "{e} (the DB or its folder cannot be written by this user: only reading commands work here)"
        ),
        // A full file system often shows as an I/O error (no room for the shared-memory
        // file), never naming the disk.
        Some(rusqlite::ErrorCode::SystemIoFailure) => format!(
            "{e} (is the DB's file system full, or the DB moved or made unwritable meanwhile?)"
        ),
        _ => e.to_string(),
    }
}

/// The last import's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastImport {
    /// The state version it created.
    pub state_version: i64,
    /// The digest of the snapshot's files (`import::Snapshot::content_hash`).
    pub content_hash: String,
    /// When it ran (RFC 3339).
    pub imported_at: String,
}

/// Devices that differ between two state versions.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Changes {
    /// New devices.
    pub added: Vec<String>,
    /// Devices gone.
    pub removed: Vec<String>,
    /// Devices whose config changed.
    pub changed: Vec<String>,
}

impl Changes {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// An open state DB.
pub struct StateDb {
    conn: Connection,
    path: PathBuf,
}

impl StateDb {
    /// Opens (creating if needed) the DB at `path` and brings its schema up to date; an
    /// existing DB in a folder olav cannot write is opened read-only.
    pub fn open(path: &Path) -> Result<StateDb, StateError> {
        match Self::open_writable(path) {
            Err(StateError::Sqlite { .. } | StateError::CreateDir { .. })
                if path.is_file()
                    && read_only::folder_refuses_writes(
                        path.parent()
                            .filter(|p| !p.as_os_str().is_empty())
                            .unwrap_or(Path::new(".")),
                    ) =>
            {
                Self::open_read_only(path)
            }
            other => other,
        }
    }

    fn open_writable(path: &Path) -> Result<StateDb, StateError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| StateError::CreateDir {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let mut db = Self::connect(path, path)?;
        // A DB from a newer olav is refused before anything is written to it (not even
        // the journal mode).
        let known = schema::MIGRATIONS.len() as i64;
        let found = db.schema_version()?;
        if found > known {
            return Err(StateError::TooNew {
                path: db.path.clone(),
                found,
                known,
            });
        }
        db.configure()?;
        db.migrate()?;
        Ok(db)
    }

    /// A connection to `file`, for the DB at `path` (the name errors give).
    fn connect(file: &Path, path: &Path) -> Result<StateDb, StateError> {
        let conn = Connection::open(file).map_err(|source| StateError::Sqlite {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(StateDb {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// The DB file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in one write transaction (`BEGIN IMMEDIATE`): nothing another process
    /// records can land between what `f` reads and what it writes. Rolled back when `f`
    /// fails.
    pub fn in_write_transaction<T, E: From<StateError>>(
        &self,
        f: impl FnOnce(&StateDb) -> Result<T, E>,
    ) -> Result<T, E> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| self.err(e))?;
        match f(self) {
            Ok(v) => {
                self.conn.execute_batch("COMMIT").map_err(|e| self.err(e))?;
                Ok(v)
            }
            Err(e) => {
                // The failure is what matters; a rollback that fails leaves nothing written.
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }

    fn err(&self, source: rusqlite::Error) -> StateError {
        StateError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    fn configure(&self) -> Result<(), StateError> {
        // OLAV_BUSY_TIMEOUT_MS shortens or lengthens the wait for another writer.
        let busy = std::env::var("OLAV_BUSY_TIMEOUT_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(BUSY_TIMEOUT, Duration::from_millis);
        self.conn.busy_timeout(busy).map_err(|e| self.err(e))?;
        // 16 KiB pages for a new DB (an existing one keeps its size): a quarter of the
        // pages, WAL frames and writes of 4 KiB ones for an import, which rewrites the
        // whole state.
        self.conn
            .pragma_update(None, "page_size", 16_384)
            .map_err(|e| self.err(e))?;
        // WAL lets readers (pre-checks, the scheduler) run while an import writes.
        self.configure_journal("WAL", "NORMAL")?;
        self.conn
            .pragma_update(None, "foreign_keys", "ON")
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Sets the journal mode and how often SQLite syncs.
    fn configure_journal(&self, mode: &str, synchronous: &str) -> Result<(), StateError> {
        self.conn
            .pragma_update(None, "journal_mode", mode)
            .map_err(|e| self.err(e))?;
        self.conn
            .pragma_update(None, "synchronous", synchronous)
            .map_err(|e| self.err(e))
    }

    /// The schema version stored in the DB.
    pub fn schema_version(&self) -> Result<i64, StateError> {
        self.conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    fn migrate(&mut self) -> Result<(), StateError> {
        let known = schema::MIGRATIONS.len() as i64;
        let current = self.schema_version()?;
        if current > known {
            return Err(StateError::TooNew {
                path: self.path.clone(),
                found: current,
                known,
            });
        }
        for (i, sql) in schema::MIGRATIONS.iter().enumerate().skip(current as usize) {
            let path = self.path.clone();
            let wrap = |source| StateError::Sqlite {
                path: path.clone(),
                source,
            };
            // The write lock first, then the version again: another process opening the
            // same new DB may have applied this migration meanwhile.
            let tx = self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .map_err(wrap)?;
            let now: i64 = tx
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .map_err(wrap)?;
            if now > i as i64 {
                continue;
            }
            tx.execute_batch(sql).map_err(wrap)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)
                .map_err(wrap)?;
            tx.commit().map_err(wrap)?;
        }
        Ok(())
    }

    /// The current state version (0 before the first import).
    pub fn state_version(&self) -> Result<i64, StateError> {
        self.conn
            .query_row(
                "SELECT COALESCE(MAX(state_version), 0) FROM import_run",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    /// The last import, None before the first.
    pub fn last_import(&self) -> Result<Option<LastImport>, StateError> {
        use rusqlite::OptionalExtension;
        self.conn
            .query_row(
                "SELECT state_version, content_hash, imported_at FROM import_run ORDER BY state_version DESC LIMIT 1",
                [],
                |r| {
                    Ok(LastImport {
                        state_version: r.get(0)?,
                        content_hash: r.get(1)?,
                        imported_at: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// What changed between state version `from` and the current one: devices added,
    /// removed and with a different config. None when `from` is no longer known.
    pub fn changed_since(&self, from: i64) -> Result<Option<Changes>, StateError> {
        let current = self.state_version()?;
        let load = |v: i64| -> Result<std::collections::BTreeMap<String, String>, StateError> {
            let mut st = self
                .conn
                .prepare(
                    "SELECT hostname, config_hash FROM device_version WHERE state_version = ?1",
                )
                .map_err(|e| self.err(e))?;
            let rows = st
                .query_map([v], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
                })
                .map_err(|e| self.err(e))?;
            rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
        };
        let (old, new) = (load(from)?, load(current)?);
        if old.is_empty() {
            return Ok(None);
        }
        let mut c = Changes::default();
        for (h, hash) in &new {
            match old.get(h) {
                None => c.added.push(h.clone()),
                Some(o) if o != hash => c.changed.push(h.clone()),
                Some(_) => {}
            }
        }
        c.removed = old
            .keys()
            .filter(|h| !new.contains_key(*h))
            .cloned()
            .collect();
        Ok(Some(c))
    }

    /// Runs `PRAGMA integrity_check`; `Ok(true)` when the DB is sound.
    pub fn integrity_ok(&self) -> Result<bool, StateError> {
        let s: String = self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        Ok(s == "ok")
    }

    /// The raw connection, for `network` alone (it keeps its parts beside the state
    /// tables); every other reader goes through a named accessor.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }
}
