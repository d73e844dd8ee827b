//! Interface addresses as stored.

use super::{StateDb, StateError};
use rusqlite::OptionalExtension;

impl StateDb {
    /// The device (first by name) holding `address` on an interface, virtual addresses
    /// (HSRP, VRRP) aside.
    pub fn address_owner(&self, address: &str) -> Result<Option<String>, StateError> {
        self.conn
            .prepare_cached("SELECT hostname FROM ip_address WHERE address = ?1 AND kind != 'virtual' ORDER BY hostname LIMIT 1")
            .and_then(|mut st| st.query_row([address], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))
    }
}
