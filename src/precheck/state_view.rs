//! What the pre-check reads of the current state: devices and sessions up front, every
//! address when a check needs it, the rest by targeted reads (a pre-check touches a few
//! devices of a large network).

use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use std::collections::HashMap;

/// The current state, as the pre-check reads it.
pub struct StateView<'a> {
    db: &'a StateDb,
    /// Devices: hostname → (status, OS, AS).
    pub devices: HashMap<String, (String, String, Option<u32>)>,
    /// Configured sessions: (device, peer, peer AS, description).
    pub sessions: Vec<(String, String, Option<u32>, Option<String>)>,
    /// Observed session states: (device, peer) → state.
    pub observed: HashMap<(String, String), String>,
    all_addresses: std::cell::OnceCell<Vec<(String, String, String, IpNet)>>,
    /// When the state was collected (RFC 3339), if it says.
    pub collected_at: Option<String>,
}

impl<'a> StateView<'a> {
    /// Reads the devices and sessions of the current state.
    pub fn load(db: &'a StateDb) -> Result<StateView<'a>, StateError> {
        let mut s = StateView {
            db,
            devices: HashMap::new(),
            sessions: Vec::new(),
            observed: HashMap::new(),
            all_addresses: std::cell::OnceCell::new(),
            collected_at: None,
        };
        let m = crate::network::NetworkModel::shared(db)?;
        for d in &m.devices {
            s.devices
                .insert(d.hostname.clone(), (d.status.clone(), d.os.clone(), d.asn));
        }
        for x in &m.sessions {
            if let Some(state) = &x.state {
                s.observed
                    .insert((x.hostname.clone(), x.peer.clone()), state.clone());
            }
            s.sessions.push((
                x.hostname.clone(),
                x.peer.clone(),
                x.peer_asn,
                x.description.clone(),
            ));
        }
        s.collected_at = db.collected_at().unwrap_or(None);
        Ok(s)
    }

    /// The configured name and VRF of the interface `typed` names on `dev`.
    pub fn iface(&self, dev: &str, typed: &str) -> Result<Option<(String, String)>, StateError> {
        Ok(self
            .db
            .interface_vrfs(dev)?
            .into_iter()
            .find(|(name, _)| crate::ifname::same(typed, name)))
    }

    /// The addresses on one interface (its stored name).
    pub fn addresses_on(&self, dev: &str, ifname: &str) -> Result<Vec<IpNet>, StateError> {
        Ok(self
            .all_addresses()?
            .iter()
            .filter(|a| a.0 == dev && a.1 == ifname)
            .map(|a| a.3)
            .collect())
    }

    /// Whether a link ends on the interface (its stored name).
    pub fn is_linked(&self, dev: &str, ifname: &str) -> Result<bool, StateError> {
        self.db.is_linked(dev, ifname)
    }

    /// Whether the device defines a structure of that kind and name.
    pub fn is_defined(&self, dev: &str, kind: &str, name: &str) -> Result<bool, StateError> {
        self.db.is_defined(dev, kind, name)
    }

    /// Every interface address (device, interface, vrf, address/len), loaded once when needed.
    pub fn all_addresses(&self) -> Result<&Vec<(String, String, String, IpNet)>, StateError> {
        if let Some(v) = self.all_addresses.get() {
            return Ok(v);
        }
        let m = crate::network::NetworkModel::shared(self.db)?;
        let virt = m.sym("virtual");
        let v = m
            .addresses
            .iter()
            .filter(|a| Some(a.kind) != virt)
            .filter_map(|a| {
                Some((
                    m.name(a.hostname).to_owned(),
                    m.name(a.ifname).to_owned(),
                    m.name(a.vrf).to_owned(),
                    IpNet::new(a.address, a.prefix.prefix_len()).ok()?,
                ))
            })
            .collect();
        Ok(self.all_addresses.get_or_init(|| v))
    }
}
