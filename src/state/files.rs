//! The snapshot's own files as the state DB keeps them (the `batfish/` folder and any
//! other file the snapshot carries besides its configs).

use super::{StateDb, StateError};
use rusqlite::types::ValueRef;

/// Tables that may hold the snapshot's own files, with the column names tried for each
/// file's path and its content. The table is another module's (the fidelity work keeps
/// the `batfish/` folder in the state DB); it is read only when it exists.
const FILE_TABLES: &[&str] = &[
    "snapshot_file",
    "snapshot_files",
    "batfish_file",
    "batfish_files",
];
const PATH_COLUMNS: &[&str] = &["path", "relpath", "relative_path", "file_path", "name"];
const CONTENT_COLUMNS: &[&str] = &["content", "contents", "body", "data", "text"];

impl StateDb {
    /// A file of the snapshot's `batfish/` folder as imported (`batfish/isp_config.json`).
    pub fn snapshot_file(&self, path: &str) -> Result<Option<Vec<u8>>, StateError> {
        use rusqlite::OptionalExtension;
        self.conn
            .query_row(
                "SELECT content FROM batfish_file WHERE path = ?1",
                [path],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Paths of the stored `batfish/` files, sorted.
    pub fn snapshot_file_paths(&self) -> Result<Vec<String>, StateError> {
        let mut st = self
            .conn
            .prepare("SELECT path FROM batfish_file ORDER BY path")
            .map_err(|e| self.err(e))?;
        let rows = st.query_map([], |r| r.get(0)).map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Every stored file of the snapshot, whatever table keeps them: (path as stored,
    /// bytes), by path. Empty when no such table exists, or its columns are not known.
    pub fn stored_snapshot_files(&self) -> Result<Vec<(String, Vec<u8>)>, StateError> {
        let e = |source| self.err(source);
        let conn = &self.conn;
        let mut found = None;
        for table in FILE_TABLES {
            let exists: i64 = conn
                .query_row(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                    [table],
                    |r| r.get(0),
                )
                .map_err(e)?;
            if exists > 0 {
                found = Some(*table);
                break;
            }
        }
        let Some(table) = found else {
            return Ok(Vec::new());
        };
        let mut st = conn
            .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
            .map_err(e)?;
        let columns: Vec<String> = st
            .query_map([], |r| r.get(0))
            .map_err(e)?
            .collect::<Result<_, _>>()
            .map_err(e)?;
        let pick = |names: &[&'static str]| -> Option<&'static str> {
            names
                .iter()
                .find(|n| columns.iter().any(|c| c == *n))
                .copied()
        };
        let (Some(path_col), Some(content_col)) = (pick(PATH_COLUMNS), pick(CONTENT_COLUMNS))
        else {
            tracing::warn!("table {table} has no path/content columns olav knows; its files are not sent to Batfish");
            return Ok(Vec::new());
        };
        let mut st = conn
            .prepare(&format!(
                "SELECT {path_col}, {content_col} FROM {table} ORDER BY {path_col}"
            ))
            .map_err(e)?;
        let rows = st
            .query_map([], |r| {
                let path: String = r.get(0)?;
                // Text or blob alike: the bytes as stored.
                let bytes = match r.get_ref(1)? {
                    ValueRef::Text(t) | ValueRef::Blob(t) => t.to_vec(),
                    _ => Vec::new(),
                };
                Ok((path, bytes))
            })
            .map_err(e)?;
        rows.collect::<Result<_, _>>().map_err(e)
    }
}
