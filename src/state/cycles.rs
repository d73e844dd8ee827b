//! The scheduler's cycles: when each `precheck --all` started and ended, how many open
//! plans it checked and how many failed.

use super::{now, StateDb, StateError};
use rusqlite::params;

impl StateDb {
    /// Records the start of a cycle (status `running`) and returns its id.
    pub fn start_cycle(&self, note: Option<&str>) -> Result<i64, StateError> {
        self.mark_interrupted()?;
        self.conn
            .execute(
                "INSERT INTO schedule_cycle (started, status, note, owner) VALUES (?1, 'running', ?2, ?3)",
                params![now(), note, super::owner::current().unwrap_or_default()],
            )
            .map_err(|e| self.err(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Records the end of cycle `id`: its status (`ok` or `failed`), the plans it checked
    /// and how many failed.
    pub fn finish_cycle(
        &self,
        id: i64,
        status: &str,
        plans: usize,
        failed: usize,
    ) -> Result<(), StateError> {
        self.conn
            .execute(
                "UPDATE schedule_cycle SET finished = ?2, status = ?3, plans = ?4, failed = ?5 WHERE id = ?1",
                params![id, now(), status, plans as i64, failed as i64],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }
}
