//! Opening a state DB whose folder olav cannot write (a read-only mount, a colleague's
//! folder): SQLite's write-ahead log needs files beside the DB even to read, so the DB is
//! opened read-only and immutable instead. Everything that only reads works; anything
//! that writes (an import, a recorded pre-check) fails with SQLite's "readonly
//! database", and the run is not recorded.

use super::{schema, StateDb, StateError};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

/// Whether `dir` refuses new files (permissions or a read-only filesystem).
pub(super) fn folder_refuses_writes(dir: &Path) -> bool {
    match tempfile::tempfile_in(dir) {
        Ok(_) => false,
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
        ),
    }
}

/// `path` as an SQLite URI opening it immutable: nothing is written beside it, and it is
/// read as it stands. Characters a URI gives a meaning to are escaped.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'%' | b'?' | b'#' => uri.push_str(&format!("%{b:02X}")),
            _ => uri.push(b as char),
        }
    }
    uri.push_str("?immutable=1");
    uri
}

impl StateDb {
    /// Opens the DB at `path` for reading only, as its folder cannot be written. Refused
    /// when a write-ahead log holds changes not yet in the DB file (reading without it
    /// would show an older state) or when the schema needs upgrading (which writes).
    pub(super) fn open_read_only(path: &Path) -> Result<StateDb, StateError> {
        let wal = path.with_extension(
            path.extension()
                .map(|e| format!("{}-wal", e.to_string_lossy()))
                .unwrap_or_else(|| "-wal".into()),
        );
        let wrap = |source| StateError::Sqlite {
            path: path.to_path_buf(),
            source,
        };
        if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
            return Err(StateError::ReadOnly {
                path: path.to_path_buf(),
                why: format!(
                    "its folder cannot be written and its write-ahead log {} holds changes not yet in the DB file; open it once where the folder is writable",
                    wal.display()
                ),
            });
        }
        let conn = Connection::open_with_flags(
            immutable_uri(path),
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
        )
        .map_err(wrap)?;
        let db = StateDb {
            conn,
            path: path.to_path_buf(),
        };
        let (found, known) = (db.schema_version()?, schema::MIGRATIONS.len() as i64);
        if found != known {
            return Err(StateError::ReadOnly {
                path: path.to_path_buf(),
                why: format!(
                    "its folder cannot be written and its schema (version {found}) needs upgrading to {known}; open it once where the folder is writable"
                ),
            });
        }
        // Said once a process, however many times a command opens the DB.
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            tracing::warn!(
                "state DB {}: its folder cannot be written; opened read-only (nothing will be recorded)",
                path.display()
            )
        });
        Ok(db)
    }
}
