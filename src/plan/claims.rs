//! What a plan lays claim to — the interfaces, addresses, subnets and sessions it
//! configures, the devices it configures or removes, and a digest of its lines — so that two open plans that
//! cannot both be applied are told apart before the window.

use super::{Plan, Target};
use crate::import::parse::parser_for;
use crate::model::{AddressKind, BgpPeer, Vendor};

/// One claim: its kind, device and element (`interface`, `addresses` — the interface
/// gets an address —, `address`, `subnet`, `session`, `configures`, `removes`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Claim {
    /// Kind of element.
    pub kind: &'static str,
    /// Device (empty for a subnet, which is the network's).
    pub device: String,
    /// The element (interface name, address, subnet, peer address; empty for devices).
    pub element: String,
}

fn text_digest(text: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for l in text.lines().map(str::trim_end).filter(|l| !l.is_empty()) {
        h.update(l.as_bytes());
        h.update([b'\n']);
    }
    format!("{:x}", h.finalize())
}

/// The plan's claims, sorted and without duplicates.
pub fn claims(plan: &Plan) -> Vec<Claim> {
    let mut out = Vec::new();
    let claim = |kind: &'static str, device: &str, element: String| Claim {
        kind,
        device: device.to_owned(),
        element,
    };
    for t in &plan.header.targets {
        if let Target::Device { device } = t {
            if plan.header.intent == "decommission_device" {
                out.push(claim("removes", device, String::new()));
            }
        }
    }
    for b in &plan.implementation {
        out.push(claim("configures", &b.device, String::new()));
        // The lines themselves, as a digest: two plans with the same claims and the same
        // text are one change drafted twice; the same claims with other text conflict.
        out.push(claim("text", &b.device, text_digest(&b.text)));
        let cfg = parser_for(Vendor::from_os(&b.os)).parse(&b.text);
        for i in &cfg.interfaces {
            out.push(claim("interface", &b.device, i.name.clone()));
            if !i.addresses.is_empty() {
                out.push(claim("addresses", &b.device, i.name.clone()));
            }
            for a in i
                .addresses
                .iter()
                .filter(|a| a.kind != AddressKind::Virtual)
            {
                out.push(claim("address", "", a.address.addr().to_string()));
                out.push(claim("subnet", "", a.address.trunc().to_string()));
            }
        }
        if let Some(bgp) = &cfg.bgp {
            for n in &bgp.neighbors {
                if let BgpPeer::Address(p) = n.peer {
                    out.push(claim("session", &b.device, p.to_string()));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}
