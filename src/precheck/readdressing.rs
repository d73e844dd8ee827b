//! What a plan's new addresses leave behind: subnets no interface keeps any more, and
//! gateway addresses that move within their subnet.

use super::candidate::Candidate;
use crate::state::{StateDb, StateError};
use ipnet::IpNet;

/// A subnet an interface leaves (the plan gives it another address, or removes its
/// address) that no other interface of the network keeps; or narrows, keeping part.
#[derive(Debug, Clone)]
pub struct Left {
    /// The device.
    pub device: String,
    /// The interface.
    pub interface: String,
    /// The subnet it had.
    pub subnet: IpNet,
    /// The part still covered when the interface's new subnet lies inside the old one.
    pub kept: Option<IpNet>,
}

impl Left {
    /// Whether a prefix lies in the part no longer covered.
    pub fn loses(&self, p: &IpNet) -> bool {
        self.subnet.contains(p) && !self.kept.is_some_and(|k| k.contains(p))
    }
}

/// A gateway address that moves within its subnet: (device, interface, from, to).
pub type Moved = (String, String, std::net::IpAddr, std::net::IpAddr);

/// What the candidate's new addresses leave behind, on each device the plan
/// configures: each subnet an up interface had and no longer covers (shut interfaces
/// are the blast radius's), unless another interface of the network still has it; and
/// each gateway address that moves within its subnet when no HSRP/VRRP address stands
/// in for it.
pub fn readdressing(db: &StateDb, cand: &Candidate) -> Result<(Vec<Left>, Vec<Moved>), StateError> {
    let nets = |i: &crate::model::Interface| -> Vec<IpNet> {
        i.addresses
            .iter()
            .filter(|a| a.kind != crate::model::AddressKind::Virtual)
            .map(|a| a.address.trunc())
            .filter(|n| n.prefix_len() < n.max_prefix_len())
            .collect()
    };
    let mut gone: Vec<Left> = Vec::new();
    let mut moved: Vec<Moved> = Vec::new();
    for (h, dev) in &cand.devices {
        for bi in dev.base.interfaces.iter().filter(|i| i.admin_up) {
            let Some(ci) = dev.cand.interfaces.iter().find(|i| i.name == bi.name) else {
                continue;
            };
            if !ci.admin_up {
                continue;
            }
            let now = nets(ci);
            for subnet in nets(bi) {
                if now.iter().any(|n| n.contains(&subnet)) {
                    continue;
                }
                gone.push(Left {
                    device: h.clone(),
                    interface: bi.name.clone(),
                    subnet,
                    kept: now.iter().find(|n| subnet.contains(*n)).copied(),
                });
            }
            let has_virtual = bi
                .addresses
                .iter()
                .any(|a| a.kind == crate::model::AddressKind::Virtual);
            for a in bi
                .addresses
                .iter()
                .filter(|a| a.kind == crate::model::AddressKind::Primary && !has_virtual)
            {
                let same_subnet = ci.addresses.iter().find(|c| {
                    c.kind != crate::model::AddressKind::Virtual
                        && c.address.trunc() == a.address.trunc()
                });
                let kept = ci
                    .addresses
                    .iter()
                    .any(|c| c.address.addr() == a.address.addr());
                if let (Some(c), false) = (same_subnet, kept) {
                    moved.push((
                        h.clone(),
                        bi.name.clone(),
                        a.address.addr(),
                        c.address.addr(),
                    ));
                }
            }
        }
    }
    if gone.is_empty() {
        return Ok((gone, moved));
    }
    // Another holder keeps the subnet: one on an untouched device, or one the candidate
    // still has on a device the plan configures.
    let m = crate::network::NetworkModel::shared(db)?;
    let virt = m.sym("virtual");
    let kept = |l: &Left| {
        m.addresses
            .iter()
            .filter(|a| Some(a.kind) != virt && a.up && a.prefix.trunc() == l.subnet)
            .any(|a| {
                let (h, i) = (m.name(a.hostname), m.name(a.ifname));
                if h == l.device && i == l.interface {
                    return false;
                }
                match cand.devices.get(h) {
                    None => true,
                    Some(d) => d
                        .cand
                        .interfaces
                        .iter()
                        .find(|x| x.name == i)
                        .is_some_and(|x| x.admin_up && nets(x).contains(&l.subnet)),
                }
            })
    };
    gone.retain(|l| !kept(l));
    Ok((gone, moved))
}
