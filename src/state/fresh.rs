//! A DB that does not exist yet, built whole in a temporary file beside its final name and
//! moved into place when complete: without a journal, since nothing else can read the
//! temporary file and a failure only removes it.

use super::{StateDb, StateError};
use rusqlite::Connection;
use std::path::Path;

impl StateDb {
    /// Runs `fill` on a new DB and moves it to `path`; `None` (nothing written) when a DB
    /// exists at `path`, before or by the time it is complete. An import into a new DB
    /// writes every page once: no journal to write them to first and copy them from at
    /// the end (a third of a 50,000-device import).
    pub fn create_with<T>(
        path: &Path,
        fill: impl FnOnce(&mut StateDb) -> Result<T, StateError>,
    ) -> Result<Option<T>, StateError> {
        if exists(path) {
            return Ok(None);
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let io = |source| StateError::Create {
            path: path.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(|source| StateError::CreateDir {
            path: path.to_path_buf(),
            source,
        })?;
        // Removed when dropped, on every early return.
        let tmp = crate::fsutil::temp_in(dir).map_err(io)?;
        let conn = Connection::open(tmp.path()).map_err(|source| StateError::Sqlite {
            path: path.to_path_buf(),
            source,
        })?;
        let mut db = StateDb {
            conn,
            path: path.to_path_buf(),
        };
        db.configure()?;
        db.configure_journal("OFF", "OFF")?;
        db.migrate()?;
        let made = fill(&mut db)?;
        // The DB is handed over as every other is opened: in WAL mode.
        db.configure_journal("WAL", "NORMAL")?;
        db.conn.close().map_err(|(_, source)| StateError::Sqlite {
            path: path.to_path_buf(),
            source,
        })?;
        tmp.as_file().sync_all().map_err(io)?;
        if exists(path) {
            return Ok(None);
        }
        // Linked, never renamed over a DB another process created meanwhile.
        match tmp.persist_noclobber(path) {
            Ok(_) => Ok(Some(made)),
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(None),
            Err(e) => Err(io(e.error)),
        }
    }
}

/// Whether a DB, or what is left of one (its write-ahead log), is at `path`.
fn exists(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    path.exists() || Path::new(&wal).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .expect("the test folder lists")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_new_db_is_moved_into_place_whole_and_in_wal_mode() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("sub/state.db");
        let made = StateDb::create_with(&path, |db| {
            db.conn
                .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
                .map_err(|e| db.err(e))?;
            Ok(1)
        })
        .expect("created");
        assert_eq!(made, Some(1));
        assert_eq!(files(&dir.path().join("sub")), ["state.db"]);
        let db = StateDb::open(&path).expect("opens");
        let mode: String = db
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .expect("mode");
        assert_eq!(mode, "wal");
        let n: i64 = db
            .conn
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .expect("count");
        assert_eq!(n, 1);
    }

    #[test]
    fn a_failure_leaves_nothing_behind() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("state.db");
        let failed = StateDb::create_with(&path, |db| -> Result<(), StateError> {
            db.conn
                .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
                .map_err(|e| db.err(e))?;
            Err(db.err(rusqlite::Error::InvalidQuery))
        });
        assert!(failed.is_err());
        assert!(files(dir.path()).is_empty(), "{:?}", files(dir.path()));
    }

    #[test]
    fn an_existing_db_is_never_replaced() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("state.db");
        std::fs::write(&path, b"not ours").expect("written");
        let mut called = false;
        let made = StateDb::create_with(&path, |_| {
            called = true;
            Ok(())
        })
        .expect("no error");
        assert_eq!(made, None);
        assert!(!called);
        // One that appears while the new one is filled is kept too.
        let other = dir.path().join("other.db");
        let made = StateDb::create_with(&other, |_| {
            std::fs::write(&other, b"theirs").map_err(|source| StateError::Create {
                path: other.clone(),
                source,
            })
        })
        .expect("no error");
        assert_eq!(made, None);
        assert_eq!(std::fs::read(&other).expect("read"), b"theirs");
        assert_eq!(std::fs::read(&path).expect("read"), b"not ours");
        assert_eq!(files(dir.path()), ["other.db", "state.db"]);
    }
}
