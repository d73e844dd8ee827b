//! Where the services live: their endpoints as stored.

use super::{StateDb, StateError};

impl StateDb {
    /// The devices holding an endpoint of `service`, by name.
    pub fn service_devices(&self, service: &str) -> Result<Vec<String>, StateError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT DISTINCT hostname FROM service_endpoint WHERE service = ?1 AND hostname IS NOT NULL ORDER BY hostname")
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([service], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }
}
