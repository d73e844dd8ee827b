//! PAN-OS import and export rules on a BGP path.
//!
//! A peer group's rules (`policy import|export rules`, the enabled ones `used-by` the
//! group) apply in order and the first one whose conditions all hold decides: `allow`
//! with its updates, or `deny`. A group with rules refuses what none of them matches; a
//! group without rules takes everything (Batfish's conversion, `Conversions.java`, does
//! the same). `reject-default-route` (on unless configured `no`) refuses a received
//! default route before the rules. The parser writes each direction and group as one
//! policy statement whose terms are those rules and whose last term is that default
//! (`import::parse::panos::bgp`), so the walk is the one of Junos terms
//! ([`super::junos::chain`]): every term ends in accept or reject, the Junos default is
//! never reached. Export candidates are BGP's own paths only (received, or originated
//! by `redist-rules`), as PAN-OS' common export policy takes them.

use super::junos::{self, Context};
use super::policy::Unknown;
use super::Path;
use crate::model::{BgpNeighbor, DeviceConfig};
use crate::routing::route::Protocol;
use std::net::Ipv4Addr;

/// The neighbor's import rules on a path received from `peer`: Some(the path as
/// updated) when taken.
pub fn import(
    config: &DeviceConfig,
    n: &BgpNeighbor,
    path: Path,
    peer: Ipv4Addr,
    local_ip: Ipv4Addr,
    ebgp: bool,
) -> Result<Option<Path>, Unknown> {
    let ctx = Context {
        protocol: if ebgp { Protocol::Bgp } else { Protocol::Ibgp },
        interface: None,
        neighbor: Some(peer),
        local_ip,
        export: false,
    };
    junos::chain(config, &n.routing.import_chain, path, &ctx)
}

/// The neighbor's export rules on a path this device selected (`from`: the peer it was
/// received from, for `match from-peer`): Some(the path as updated) when sent.
pub fn export(
    config: &DeviceConfig,
    n: &BgpNeighbor,
    path: Path,
    protocol: Protocol,
    from: Option<Ipv4Addr>,
    local_ip: Ipv4Addr,
) -> Result<Option<Path>, Unknown> {
    let ctx = Context {
        protocol,
        interface: None,
        neighbor: from,
        local_ip,
        export: true,
    };
    junos::chain(config, &n.routing.export_chain, path, &ctx)
}
