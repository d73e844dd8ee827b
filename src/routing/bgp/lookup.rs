//! Longest-prefix lookups in a device's RIB before BGP (peer reachability, next-hop
//! resolution, `network` statements), by hashing (VRF, prefix) and probing the prefix
//! lengths the RIB holds: a RIB of a large network has a row per prefix of it, too many
//! to scan per path. A RIB made for BGP alone holds only what a [`Scope`] names; a
//! lookup outside it is recorded, and BGP is computed again with it.

use crate::routing::route::Route;
use crate::routing::{FastMap as HashMap, FastSet as HashSet};
use ipnet::Ipv4Net;
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;

/// What a speaker's RIB before BGP holds when it is made for BGP alone: every row of
/// every prefix holding one of `addrs`, every row of `nets` (a backbone router's whole
/// table is 350,000 rows at 50,000 devices; BGP reads a few). What BGP looked up
/// outside it is recorded ([`Scope::widen`]).
#[derive(Debug, Default)]
pub struct Scope {
    addrs: BTreeSet<Ipv4Addr>,
    nets: BTreeSet<Ipv4Net>,
    /// Every prefix whose rows the RIB holds: each holding an address, and the nets.
    prefixes: HashSet<Ipv4Net>,
    missed: RefCell<(BTreeSet<Ipv4Addr>, BTreeSet<Ipv4Net>)>,
    /// Whether BGP read the RIB whole (what reads every row: the RIB must be whole).
    whole: Cell<bool>,
}

impl Scope {
    /// The scope of these addresses (longest-match lookups) and networks (exact ones).
    pub fn new(addrs: BTreeSet<Ipv4Addr>, nets: BTreeSet<Ipv4Net>) -> Scope {
        let mut s = Scope {
            addrs,
            nets,
            ..Scope::default()
        };
        s.index();
        s
    }

    fn index(&mut self) {
        self.prefixes = self.nets.iter().copied().collect();
        for ip in &self.addrs {
            for len in 0..=32u8 {
                if let Ok(n) = Ipv4Net::new(*ip, len) {
                    self.prefixes.insert(n.trunc());
                }
            }
        }
    }

    /// Every prefix whose rows the RIB must hold.
    pub fn prefixes(&self) -> &HashSet<Ipv4Net> {
        &self.prefixes
    }

    /// Whether BGP read the RIB whole: it must be made whole.
    pub fn whole(&self) -> bool {
        self.whole.get()
    }

    /// Records that BGP read the RIB whole.
    pub fn needs_whole(&self) {
        self.whole.set(true);
    }

    /// Takes in what was looked up outside it; whether there was anything.
    pub fn widen(&mut self) -> bool {
        let (addrs, nets) = std::mem::take(self.missed.get_mut());
        if addrs.is_empty() && nets.is_empty() {
            return false;
        }
        self.addrs.extend(addrs);
        self.nets.extend(nets);
        self.index();
        true
    }

    fn has_addr(&self, ip: Ipv4Addr) {
        if !self.addrs.contains(&ip) {
            self.missed.borrow_mut().0.insert(ip);
        }
    }

    fn has_net(&self, net: Ipv4Net) {
        if !self.prefixes.contains(&net) {
            self.missed.borrow_mut().1.insert(net);
        }
    }
}

/// A RIB indexed by (VRF, network).
#[derive(Default)]
pub struct Lookup<'a> {
    by: HashMap<&'a str, HashMap<Ipv4Net, Vec<&'a Route>>>,
    /// Prefix lengths present, longest first.
    lengths: Vec<u8>,
    /// What the RIB holds, when it was made for BGP alone (None: all of it).
    scope: Option<&'a Scope>,
}

impl<'a> Lookup<'a> {
    /// Indexes `rib`, which holds what `scope` names (None: the whole RIB).
    pub fn scoped(rib: &'a [Route], scope: Option<&'a Scope>) -> Self {
        Lookup {
            scope,
            ..Lookup::new(rib)
        }
    }

    /// Indexes `rib`.
    pub fn new(rib: &'a [Route]) -> Self {
        let mut by: HashMap<&str, HashMap<Ipv4Net, Vec<&Route>>> = HashMap::default();
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
        Lookup {
            by,
            lengths,
            scope: None,
        }
    }

    /// The rows of the longest prefix holding `ip` in `vrf`, among those `keep` accepts
    /// (the longest such prefix; empty when none).
    pub fn longest(
        &self,
        vrf: &str,
        ip: Ipv4Addr,
        keep: impl Fn(&Route) -> bool,
    ) -> Vec<&'a Route> {
        if let Some(s) = self.scope {
            s.has_addr(ip);
        }
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
        if let Some(s) = self.scope {
            s.has_net(net);
        }
        self.by
            .get(vrf)
            .and_then(|t| t.get(&net))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}
