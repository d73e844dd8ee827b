//! BGP sessions as stored, per device.

use super::{StateDb, StateError};

/// A stored session with a peer address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSession {
    /// The device.
    pub hostname: String,
    /// Peer address.
    pub peer_address: String,
    /// Peer AS.
    pub peer_asn: Option<u32>,
    /// Description.
    pub description: Option<String>,
    /// Administratively shut.
    pub shutdown: bool,
}

impl StateDb {
    /// The sessions of `hostname` that have a peer address (not listen ranges), by peer
    /// address.
    pub fn sessions_of(&self, hostname: &str) -> Result<Vec<StoredSession>, StateError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT hostname, peer_address, peer_asn, description, shutdown FROM bgp_session WHERE hostname = ?1 AND peer_address IS NOT NULL ORDER BY peer_address")
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([hostname], |r| {
                Ok(StoredSession {
                    hostname: r.get(0)?,
                    peer_address: r.get(1)?,
                    peer_asn: r.get(2)?,
                    description: r.get(3)?,
                    shutdown: r.get(4)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }
}
