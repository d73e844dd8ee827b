//! A DB that does not exist yet, built whole in a temporary file beside its final name and
//! moved into place when complete: without a journal, since nothing else can read the
//! temporary file and a failure only removes it.

use super::{StateDb, StateError};
use std::path::Path;

impl StateDb {
    /// Runs `fill` on a new DB and moves it to `path`; `None` (nothing written) when a DB,
    /// or what is left of one, is at `path` before or by the time it is complete, or the
    /// folder cannot take the move: the caller then writes into the DB at `path` as
    /// usual. An import into a new DB writes every page once: no journal to write them
    /// to first and copy them from at the end (a third of a 50,000-device import).
    pub fn create_with<T>(
        path: &Path,
        fill: impl FnOnce(&mut StateDb) -> Result<T, StateError>,
    ) -> Result<Option<T>, StateError> {
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return Ok(None);
        };
        if taken(path) {
            return Ok(None);
        }
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let io = |e: std::io::Error| StateError::Create {
            path: path.to_path_buf(),
            // tempfile's errors name the temporary file; the DB's name is the one to tell.
            source: std::io::Error::new(
                e.kind(),
                e.to_string()
                    .split(" at path ")
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            ),
        };
        std::fs::create_dir_all(dir).map_err(|source| StateError::CreateDir {
            path: path.to_path_buf(),
            source,
        })?;
        let prefix = format!(".{}.importing-", name.to_string_lossy());
        remove_abandoned(dir, &prefix);
        // Named after the DB and this process, made as SQLite makes a DB (0644 less the
        // umask), removed when dropped: on every early return.
        let ours = format!("{prefix}{}-", std::process::id());
        let mut b = tempfile::Builder::new();
        b.prefix(&ours);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            b.permissions(std::fs::Permissions::from_mode(0o644));
        }
        let tmp = b.tempfile_in(dir).map_err(io)?;
        let made = std::thread::scope(|s| {
            let (stop, stopped) = std::sync::mpsc::channel::<()>();
            let file = tmp.as_file();
            s.spawn(move || write_back(file, &stopped));
            let made: Result<T, StateError> = (|| {
                let mut db = StateDb::connect(tmp.path(), path)?;
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
                Ok(made)
            })();
            drop(stop);
            made
        })?;
        tmp.as_file().sync_all().map_err(io)?;
        if taken(path) {
            return Ok(None);
        }
        // Never over a DB another process created meanwhile; a folder that cannot move a
        // file without replacing (some network mounts) takes the import as usual.
        if tmp.persist_noclobber(path).is_err() {
            return Ok(None);
        }
        // The new name itself is made durable with the folder.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(Some(made))
    }
}

/// Has the system write the new DB's pages to disk while it is being filled, until
/// `stopped` says it is: the sync before it is moved into place then waits for what the
/// last moments wrote, not for the whole file (a fifth of a 10,000-device import).
/// Linux only; elsewhere the final sync writes it all.
fn write_back(file: &std::fs::File, stopped: &std::sync::mpsc::Receiver<()>) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        use std::sync::mpsc::RecvTimeoutError;
        while let Err(RecvTimeoutError::Timeout) =
            stopped.recv_timeout(std::time::Duration::from_millis(200))
        {
            // SAFETY: the descriptor stays open for the whole scope this runs in; the call
            // only starts the write of pages already dirty, and its result changes nothing
            // (the final sync is what makes the file durable).
            unsafe {
                libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, stopped);
}

/// Whether anything is at `path`, or beside it what is left of a DB there (SQLite's
/// journal or write-ahead log would be read into a new DB of that name), or `path` names
/// a folder (a trailing separator).
fn taken(path: &Path) -> bool {
    let beside = |suffix: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        std::fs::symlink_metadata(Path::new(&p)).is_ok()
    };
    let text = path.as_os_str().to_string_lossy();
    text.ends_with(std::path::MAIN_SEPARATOR)
        || text.ends_with('/')
        || std::fs::symlink_metadata(path).is_ok()
        || ["-wal", "-journal", "-shm"].into_iter().any(beside)
}

/// Removes the temporary files of imports into this DB whose process has ended (killed
/// mid-import: a signal leaves no chance to remove them), found by `prefix` and the
/// process number in their name. Where processes cannot be looked up (no `/proc`),
/// nothing is removed.
fn remove_abandoned(dir: &Path, prefix: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(e.path());
        }
    }
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

    #[test]
    fn what_is_left_of_a_db_is_never_built_over() {
        let dir = tempfile::tempdir().expect("a temp dir");
        for (i, left) in ["-journal", "-wal", "-shm"].into_iter().enumerate() {
            let path = dir.path().join(format!("s{i}.db"));
            let mut side = path.as_os_str().to_owned();
            side.push(left);
            std::fs::write(&side, b"x").expect("written");
            let made = StateDb::create_with(&path, |_| Ok(())).expect("no error");
            assert_eq!(made, None, "{left}");
            assert!(!path.exists(), "{left}");
        }
        let made = StateDb::create_with(&dir.path().join("folder/"), |_| Ok(()));
        assert_eq!(made.expect("no error"), None);
    }

    #[test]
    fn temporary_files_of_ended_imports_are_removed() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let ended = dir.path().join(".state.db.importing-4000000000-abcdef");
        let running = dir
            .path()
            .join(format!(".state.db.importing-{}-abcdef", std::process::id()));
        let other = dir.path().join(".other.db.importing-4000000000-abcdef");
        for f in [&ended, &running, &other] {
            std::fs::write(f, b"partial").expect("written");
        }
        let made = StateDb::create_with(&dir.path().join("state.db"), |_| Ok(()));
        assert_eq!(made.expect("created"), Some(()));
        if Path::new("/proc/self").exists() {
            assert!(!ended.exists());
        }
        assert!(running.exists() && other.exists());
    }
}
