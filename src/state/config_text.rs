//! Stored device configurations and the import's collection time, as the pre-check and
//! the announcement model read them.

use super::{StateDb, StateError};
use rusqlite::OptionalExtension;

impl StateDb {
    /// A device's OS and stored running configuration, None for an unknown device or one
    /// imported without a configuration.
    pub fn os_and_config(&self, hostname: &str) -> Result<Option<(String, String)>, StateError> {
        self.conn
            .prepare_cached(
                "SELECT d.os, c.config_text FROM device d JOIN device_config c ON c.hostname = d.hostname WHERE d.hostname = ?1",
            )
            .and_then(|mut st| {
                st.query_row([hostname], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
            })
            .map_err(|e| self.err(e))
    }

    /// When the snapshot of the last import was collected (`collected_at` of its
    /// `state.yaml`), None when it does not say or nothing was imported.
    pub fn collected_at(&self) -> Result<Option<String>, StateError> {
        self.conn
            .query_row(
                "SELECT collected_at FROM import_run ORDER BY state_version DESC LIMIT 1",
                [],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()
            .map(Option::flatten)
            .map_err(|e| self.err(e))
    }

    /// Calls `each` with every device's (hostname, OS, stored configuration), in
    /// hostname order, one at a time (the texts are never all in memory).
    pub fn each_config(&self, mut each: impl FnMut(&str, &str, &str)) -> Result<(), StateError> {
        let mut st = self
            .conn
            .prepare(
                "SELECT d.hostname, d.os, c.config_text FROM device d JOIN device_config c ON c.hostname = d.hostname ORDER BY d.hostname",
            )
            .map_err(|e| self.err(e))?;
        let mut rows = st.query([]).map_err(|e| self.err(e))?;
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            let h: String = r.get(0).map_err(|e| self.err(e))?;
            let os: String = r.get(1).map_err(|e| self.err(e))?;
            let text: String = r.get(2).map_err(|e| self.err(e))?;
            each(&h, &os, &text);
        }
        Ok(())
    }
}
