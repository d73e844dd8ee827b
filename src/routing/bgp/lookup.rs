//! Longest-prefix lookups in a device's RIB before BGP (peer reachability, next-hop
//! resolution, `network` statements), by hashing (VRF, prefix) and probing the prefix
//! lengths the RIB holds: a RIB of a large network has a row per prefix of it, too many
//! to scan per path.

use crate::routing::route::Route;
use ipnet::Ipv4Net;
use std::collections::HashMap;
use std::net::Ipv4Addr;

/// A RIB indexed by (VRF, network).
#[derive(Default)]
pub struct Lookup<'a> {
    by: HashMap<&'a str, HashMap<Ipv4Net, Vec<&'a Route>>>,
    /// Prefix lengths present, longest first.
    lengths: Vec<u8>,
}

impl<'a> Lookup<'a> {
    /// Indexes `rib`.
    pub fn new(rib: &'a [Route]) -> Self {
        let mut by: HashMap<&str, HashMap<Ipv4Net, Vec<&Route>>> = HashMap::new();
        let mut present = [false; 33];
        for r in rib {
            by.entry(r.vrf.as_str())
                .or_default()
                .entry(r.network)
                .or_default()
                .push(r);
            present[usize::from(r.network.prefix_len())] = true;
        }
        let lengths = (0..=32u8)
            .rev()
            .filter(|l| present[usize::from(*l)])
            .collect();
        Lookup { by, lengths }
    }

    /// The rows of the longest prefix holding `ip` in `vrf`, among those `keep` accepts
    /// (the longest such prefix; empty when none).
    pub fn longest(
        &self,
        vrf: &str,
        ip: Ipv4Addr,
        keep: impl Fn(&Route) -> bool,
    ) -> Vec<&'a Route> {
        let Some(table) = self.by.get(vrf) else {
            return Vec::new();
        };
        for &len in &self.lengths {
            let Ok(net) = Ipv4Net::new(ip, len) else {
                continue;
            };
            if let Some(rows) = table.get(&net.trunc()) {
                let kept: Vec<&Route> = rows.iter().copied().filter(|r| keep(r)).collect();
                if !kept.is_empty() {
                    return kept;
                }
            }
        }
        Vec::new()
    }

    /// The rows for exactly `net` in `vrf`.
    pub fn exact(&self, vrf: &str, net: Ipv4Net) -> &[&'a Route] {
        self.by
            .get(vrf)
            .and_then(|t| t.get(&net))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}
