//! Targeted reads of the stored topology — one device's interfaces, the links ending on
//! it, the sessions towards an address, the holder of a subnet — for steps that touch a
//! few devices of a large network and so do not load the whole model.

use super::{StateDb, StateError};
use rusqlite::OptionalExtension;

/// One end of a link: (device, interface).
pub type LinkEnd = (String, String);

impl StateDb {
    /// A device's interfaces as configured: (name, VRF), in stored order.
    pub fn interface_vrfs(&self, hostname: &str) -> Result<Vec<(String, String)>, StateError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT ifname, vrf FROM interface WHERE hostname = ?1")
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([hostname], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Whether a link ends on the interface (its stored name).
    pub fn is_linked(&self, hostname: &str, ifname: &str) -> Result<bool, StateError> {
        self.conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM link WHERE (hostname_a = ?1 AND ifname_a = ?2) OR (hostname_b = ?1 AND ifname_b = ?2))",
            )
            .and_then(|mut st| st.query_row([hostname, ifname], |r| r.get(0)))
            .map_err(|e| self.err(e))
    }

    /// The links with an end on the device: (a, b) ends, as stored.
    pub fn links_of(&self, hostname: &str) -> Result<Vec<(LinkEnd, LinkEnd)>, StateError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT hostname_a, ifname_a, hostname_b, ifname_b FROM link
                 WHERE hostname_a = ?1 OR hostname_b = ?1",
            )
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([hostname], |r| {
                Ok(((r.get(0)?, r.get(1)?), (r.get(2)?, r.get(3)?)))
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Every stored link: (a, b) ends.
    pub fn link_ends(&self) -> Result<Vec<(LinkEnd, LinkEnd)>, StateError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT hostname_a, ifname_a, hostname_b, ifname_b FROM link")
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([], |r| Ok(((r.get(0)?, r.get(1)?), (r.get(2)?, r.get(3)?))))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// The links that are known cables: seen by LLDP, declared, or from Batfish's
    /// layer-1 file (an inferred link without a subnet); not those inferred from a
    /// shared subnet alone.
    pub fn cable_ends(&self) -> Result<Vec<(LinkEnd, LinkEnd)>, StateError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT hostname_a, ifname_a, hostname_b, ifname_b FROM link
                 WHERE source IN ('lldp', 'declared') OR subnet IS NULL",
            )
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([], |r| Ok(((r.get(0)?, r.get(1)?), (r.get(2)?, r.get(3)?))))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// The BGP sessions anywhere in the network towards a peer address: (device, peer).
    pub fn sessions_to(&self, peer_address: &str) -> Result<Vec<(String, String)>, StateError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT hostname, peer_address FROM bgp_session WHERE peer_address = ?1",
            )
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map([peer_address], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// An interface of a device other than `not_on` whose (non-virtual) address lies in
    /// exactly the subnet `prefix`: (device, interface).
    pub fn subnet_holder(
        &self,
        prefix: &str,
        not_on: &str,
    ) -> Result<Option<(String, String)>, StateError> {
        self.conn
            .prepare_cached("SELECT hostname, ifname FROM ip_address WHERE prefix = ?1 AND hostname != ?2 AND kind != 'virtual' LIMIT 1")
            .and_then(|mut st| {
                st.query_row([prefix, not_on], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
            })
            .map_err(|e| self.err(e))
    }

    /// Whether the device defines a structure (a route-map, a prefix-list …) of that kind
    /// and name.
    pub fn is_defined(&self, hostname: &str, kind: &str, name: &str) -> Result<bool, StateError> {
        self.conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM structure_def WHERE hostname = ?1 AND kind = ?2 AND name = ?3)",
            )
            .and_then(|mut st| st.query_row([hostname, kind, name], |r| r.get(0)))
            .map_err(|e| self.err(e))
    }
}
