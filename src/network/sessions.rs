//! BGP sessions with a peer address as the state holds them — the one row every reader
//! of a stored session gets — and the peer-name rule: a session's description names its
//! peer by its first word.

use crate::state::{StateDb, StateError};
use rusqlite::Row;
use serde::{Deserialize, Serialize};

/// A BGP session row with a peer address, in the table's order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    /// Device.
    pub hostname: String,
    /// VRF.
    pub vrf: String,
    /// Local AS.
    pub local_as: Option<u32>,
    /// Peer address.
    pub peer: String,
    /// Peer AS.
    pub peer_asn: Option<u32>,
    /// Description.
    pub description: Option<String>,
    /// Local address.
    pub local_ip: Option<String>,
    /// Update source.
    pub update_source: Option<String>,
    /// Peer-group.
    pub peer_group: Option<String>,
    /// Inbound route-map.
    pub route_map_in: Option<String>,
    /// Outbound route-map.
    pub route_map_out: Option<String>,
    /// Administratively shut.
    pub shutdown: bool,
    /// Operational state from show output, when imported.
    pub state: Option<String>,
    /// Line in the config.
    pub source_line: Option<u32>,
}

impl Session {
    /// The name the session's description gives its peer ([`peer_name`]).
    pub fn peer_name(&self) -> Option<&str> {
        peer_name(self.description.as_deref())
    }
}

/// The peer-name rule: a session description names its peer by its first word
/// (`ISP-A transit 1G` → `ISP-A`).
pub fn peer_name(description: Option<&str>) -> Option<&str> {
    description?.split_whitespace().next()
}

/// A peer AS's name: the name the first of its sessions' descriptions gives, else
/// `AS<n>`.
pub fn peer_as_name<'a>(
    descriptions: impl IntoIterator<Item = Option<&'a str>>,
    asn: u32,
) -> String {
    descriptions
        .into_iter()
        .find_map(peer_name)
        .map_or_else(|| format!("AS{asn}"), str::to_owned)
}

/// The `bgp_session` columns [`row`] reads, in its order.
pub(super) const COLUMNS: &str =
    "hostname, vrf, local_as, peer_address, peer_asn, description, local_ip, update_source,
                    peer_group, route_map_in, route_map_out, shutdown, state, source_line";

/// A session from a row of [`COLUMNS`].
pub(super) fn row(r: &Row<'_>) -> rusqlite::Result<Session> {
    Ok(Session {
        hostname: r.get(0)?,
        vrf: r.get(1)?,
        local_as: r.get(2)?,
        peer: r.get(3)?,
        peer_asn: r.get(4)?,
        description: r.get(5)?,
        local_ip: r.get(6)?,
        update_source: r.get(7)?,
        peer_group: r.get(8)?,
        route_map_in: r.get(9)?,
        route_map_out: r.get(10)?,
        shutdown: r.get(11)?,
        state: r.get(12)?,
        source_line: r.get(13)?,
    })
}

/// The sessions of `hostname` that have a peer address (not listen ranges), by peer
/// address.
pub fn sessions_of(db: &StateDb, hostname: &str) -> Result<Vec<Session>, StateError> {
    let e = |source| StateError::Sqlite {
        path: db.path().to_path_buf(),
        source,
    };
    let mut st = db
        .conn()
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM bgp_session WHERE hostname = ?1 AND peer_address IS NOT NULL ORDER BY peer_address"
        ))
        .map_err(e)?;
    let rows = st.query_map([hostname], row).map_err(e)?;
    rows.collect::<Result<_, _>>().map_err(e)
}

#[cfg(test)]
mod tests {
    use super::{peer_as_name, peer_name};

    #[test]
    fn a_description_names_its_peer_by_its_first_word() {
        assert_eq!(peer_name(Some("ISP-A transit 1G")), Some("ISP-A"));
        assert_eq!(peer_name(Some("  ")), None);
        assert_eq!(peer_name(None), None);
        assert_eq!(
            peer_as_name([None, Some("CARRIER-B backup")], 65001),
            "CARRIER-B"
        );
        assert_eq!(peer_as_name([None, Some("")], 65001), "AS65001");
    }
}
