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

/// How a device is reached for management: its management address and the interface
/// of its own that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagementAccess {
    /// The management address, as stored.
    pub address: String,
    /// The device's interface holding it, and that interface's VRF (None when no
    /// interface of the device holds it).
    pub held_on: Option<(String, String)>,
}

impl StateDb {
    /// The management address of `hostname` (from the state file, else the
    /// configuration's management interface) and where on the device it is; None when
    /// the device has none.
    pub fn management_access(
        &self,
        hostname: &str,
    ) -> Result<Option<ManagementAccess>, StateError> {
        let address: Option<Option<String>> = self
            .conn
            .prepare_cached("SELECT management_address FROM device WHERE hostname = ?1")
            .and_then(|mut st| st.query_row([hostname], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))?;
        let Some(address) = address.flatten() else {
            return Ok(None);
        };
        let spelled = address
            .parse::<std::net::IpAddr>()
            .map_or_else(|_| address.clone(), |a| a.to_string());
        let held_on = self
            .conn
            .prepare_cached(
                "SELECT ifname, vrf FROM ip_address WHERE hostname = ?1 AND address = ?2 ORDER BY ifname LIMIT 1",
            )
            .and_then(|mut st| {
                st.query_row([hostname, spelled.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
            })
            .map_err(|e| self.err(e))?;
        Ok(Some(ManagementAccess { address, held_on }))
    }
}

/// A device's management address that no interface of the device holds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UnheldManagement {
    /// The device.
    pub hostname: String,
    /// Its management address, as stored.
    pub address: String,
    /// The device and interface that hold the address instead, when one does.
    pub held_by: Option<(String, String)>,
}

impl StateDb {
    /// Devices whose management address (from the state file, else the configuration's
    /// management interface) is on no interface of theirs: a change reaches the device
    /// there, so an address the device does not answer on is a fault of the state file
    /// or of the device.
    pub fn management_addresses_unheld(&self) -> Result<Vec<UnheldManagement>, StateError> {
        let devices: Vec<(String, String)> = self
            .conn
            .prepare_cached(
                "SELECT hostname, management_address FROM device
                 WHERE management_address IS NOT NULL ORDER BY hostname",
            )
            .and_then(|mut st| {
                st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect::<Result<_, _>>()
            })
            .map_err(|e| self.err(e))?;
        let mut holders = self
            .conn
            .prepare_cached(
                "SELECT hostname, ifname FROM ip_address WHERE address = ?1 ORDER BY hostname, ifname",
            )
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for (hostname, address) in devices {
            // Addresses are stored as they print: compare the parsed spelling.
            let spelled = address
                .parse::<std::net::IpAddr>()
                .map_or_else(|_| address.clone(), |a| a.to_string());
            let held: Vec<(String, String)> = holders
                .query_map([&spelled], |r| Ok((r.get(0)?, r.get(1)?)))
                .and_then(|rows| rows.collect::<Result<_, _>>())
                .map_err(|e| self.err(e))?;
            if held.iter().any(|(h, _)| *h == hostname) {
                continue;
            }
            out.push(UnheldManagement {
                hostname,
                address,
                held_by: held.into_iter().next(),
            });
        }
        Ok(out)
    }
}
