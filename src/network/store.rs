//! Keeping the model with the state: one row per part in `network_model`, encoded with
//! postcard, and a per-process copy so that every step of a request shares one load.

use super::{Interfaces, NetworkModel, ParsedConfigs};
use crate::state::{StateDb, StateError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::any::Any;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};

/// Bumped whenever a part's layout changes (postcard is not self-describing: a part of
/// another layout may decode into nonsense): a stored part of another format is rebuilt.
const FORMAT: i64 = 6;

/// What a stored part was made by: its layout and the olav executable that built it. The
/// `configs` and `checks` parts are olav's own reading of the configurations, so a part
/// built by another olav (an upgrade, a rebuild) is built again rather than trusted: the
/// answers `olav check` gives are always the running olav's. Without the executable's
/// metadata only the layout counts.
fn stamp() -> i64 {
    use std::hash::{Hash, Hasher};
    static STAMP: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *STAMP.get_or_init(|| {
        let exe = std::env::current_exe().and_then(std::fs::metadata);
        let Ok(meta) = exe else { return FORMAT };
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (FORMAT, meta.len(), meta.modified().ok()).hash(&mut h);
        // Positive, and never equal to a bare FORMAT from a build without metadata.
        (h.finish() >> 2) as i64 + 1024
    })
}

/// What a loaded part is known by: the DB, its state version and when that was imported
/// (a DB made again at the same path starts its versions again).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    db: PathBuf,
    part: &'static str,
    version: i64,
    imported_at: String,
}

type Loaded = (Key, Weak<dyn Any + Send + Sync>);

/// Parts loaded by this process and still in use: every reader of a part while one
/// holds it shares that copy. A part nobody holds any more is freed (a request's
/// analyzer, reporter and simulator read different parts; holding them all at once
/// doubled a 50,000-device request's memory), and decoded again if asked for later.
static LOADED: Mutex<Vec<Loaded>> = Mutex::new(Vec::new());

fn key(db: &StateDb, part: &'static str) -> Result<Key, StateError> {
    let (version, imported_at) = db
        .conn()
        .query_row(
            "SELECT state_version, imported_at FROM import_run ORDER BY state_version DESC LIMIT 1",
            [],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)),
        )
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok((0, String::new())),
            e => Err(e),
        })
        .map_err(|source| StateError::Sqlite {
            path: db.path().to_path_buf(),
            source,
        })?;
    Ok(Key {
        db: std::fs::canonicalize(db.path()).unwrap_or_else(|_| db.path().to_path_buf()),
        part,
        version,
        imported_at,
    })
}

/// The part `part` of the current state version: this process's copy, else the stored
/// one, else built now and stored for the next process.
pub(crate) fn shared<T>(
    db: &StateDb,
    part: &'static str,
    build: impl FnOnce(&StateDb) -> Result<T, StateError>,
    after_load: impl FnOnce(&mut T),
) -> Result<Arc<T>, StateError>
where
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
{
    let k = key(db, part)?;
    if let Ok(loaded) = LOADED.lock() {
        if let Some(v) = loaded
            .iter()
            .find(|(x, _)| *x == k)
            .and_then(|(_, v)| v.upgrade())
        {
            if let Ok(t) = v.downcast::<T>() {
                return Ok(t);
            }
        }
    }
    let mut value = match read::<T>(db, &k) {
        Some(v) => v,
        None => {
            let v = build(db)?;
            write(db, &k, &v);
            v
        }
    };
    after_load(&mut value);
    let value = Arc::new(value);
    if let Ok(mut loaded) = LOADED.lock() {
        // One state per DB is all a process needs: older copies are dropped.
        loaded.retain(|(x, v)| !(x.db == k.db && x.part == k.part) && v.strong_count() > 0);
        let any: Arc<dyn Any + Send + Sync> = Arc::clone(&value) as _;
        loaded.push((k, Arc::downgrade(&any)));
    }
    Ok(value)
}

/// The stored part, if it is there, of this format, and decodes.
fn read<T: DeserializeOwned>(db: &StateDb, k: &Key) -> Option<T> {
    // Decoded where SQLite holds the bytes, not from a copy (the routing part is 23 MB
    // at 50,000 devices: a copy is fresh memory the kernel zeroes).
    let decoded: Result<T, postcard::Error> = db
        .conn()
        .query_row(
            "SELECT bytes FROM network_model WHERE state_version = ?1 AND part = ?2 AND format = ?3",
            rusqlite::params![k.version, k.part, stamp()],
            |r| {
                let bytes = r.get_ref(0)?.as_blob().map_err(|e| {
                    rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Blob, e.into())
                })?;
                Ok(postcard::from_bytes(bytes))
            },
        )
        .ok()?;
    match decoded {
        Ok(v) => Some(v),
        Err(err) => {
            tracing::warn!(
                "state DB {}: stored network model part {} does not decode ({err}); rebuilding it",
                db.path().display(),
                k.part
            );
            None
        }
    }
}

/// Stores a part for later processes. A DB that cannot be written (read-only) only
/// means the next process builds the part again, so failure is logged, not returned.
fn write<T: Serialize>(db: &StateDb, k: &Key, v: &T) {
    let result = postcard::to_stdvec(v)
        .map_err(|e| e.to_string())
        .and_then(|bytes| {
            db.conn()
                .execute(
                    "INSERT OR REPLACE INTO network_model (state_version, part, format, bytes) VALUES (?1, ?2, ?3, ?4)",
                    rusqlite::params![k.version, k.part, stamp(), bytes],
                )
                .map_err(|e| e.to_string())
        });
    if let Err(e) = result {
        tracing::debug!(
            "state DB {}: network model part {} not stored: {e}",
            db.path().display(),
            k.part
        );
    }
}

/// At most this many bytes are set aside for a sequence before its elements are read: a
/// stored part is olav's own, but a damaged one must not ask for all memory at once.
const RESERVE_AT_MOST: usize = 256 << 20;

/// Decodes a sequence into a vector sized for it at once (serde's own sizes it for at
/// most 1 MiB and doubles it: a 50,000-device model's 600,000 addresses were copied, and
/// their fresh pages faulted in, five times over). For a part's large fields:
/// `#[serde(deserialize_with = "crate::network::store::sized")]`.
pub fn sized<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    struct Sized<T>(std::marker::PhantomData<T>);
    impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Sized<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let most = RESERVE_AT_MOST / std::mem::size_of::<T>().max(1);
            let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(most));
            while let Some(x) = seq.next_element()? {
                v.push(x);
            }
            Ok(v)
        }
    }
    d.deserialize_seq(Sized(std::marker::PhantomData))
}

impl NetworkModel {
    /// The model of the DB's current state version, loaded once per process.
    pub fn shared(db: &StateDb) -> Result<Arc<NetworkModel>, StateError> {
        shared(db, "network", NetworkModel::build, NetworkModel::after_load)
    }
}

impl Interfaces {
    /// Every interface of the current state version, loaded once per process.
    pub fn shared(db: &StateDb) -> Result<Arc<Interfaces>, StateError> {
        shared(db, "interfaces", Interfaces::build, |_| {})
    }
}

impl ParsedConfigs {
    /// Every device's parsed configuration for the current state version, parsed once
    /// per state version and loaded once per process.
    pub fn shared(db: &StateDb) -> Result<Arc<ParsedConfigs>, StateError> {
        shared(db, "configs", ParsedConfigs::build, |_| {})
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Part {
        #[serde(deserialize_with = "super::sized")]
        rows: Vec<(u32, String)>,
        tail: u8,
    }

    #[test]
    fn a_sized_sequence_decodes_as_serde_s_own() {
        let part = Part {
            rows: (0..100_000).map(|i| (i, format!("r{i}"))).collect(),
            tail: 7,
        };
        let bytes = postcard::to_stdvec(&part).expect("encodes");
        let back: Part = postcard::from_bytes(&bytes).expect("decodes");
        assert_eq!(back, part);
        assert!(back.rows.capacity() == back.rows.len(), "sized at once");
    }

    #[test]
    fn a_damaged_length_is_an_error_not_an_allocation_of_everything() {
        // A length of 2^40 rows and nothing after it.
        let mut bytes = Vec::new();
        let mut n: u64 = 1 << 40;
        while n >= 0x80 {
            bytes.push((n as u8) | 0x80);
            n >>= 7;
        }
        bytes.push(n as u8);
        assert!(postcard::from_bytes::<Part>(&bytes).is_err());
    }
}
