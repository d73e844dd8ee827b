//! The routing model: each device's main RIB per VRF, computed from its parsed
//! configuration, as Batfish's `routes` question gives it (`docs/routing.md`).
//!
//! It computes connected, local and static routes ([`connected`], [`statics`]) and OSPF
//! over the whole network ([`ospf`]), chosen per prefix by administrative distance in
//! [`rib`]; a device or VRF that runs a protocol (or an OSPF feature) olav does not
//! compute yet is marked incomplete with the reason ([`dynamic`], [`ospf`]), never
//! presented as complete. The model of a state version is stored with it as the
//! `routing` part ([`RoutingModel::shared`]). [`shown`] reads the devices' own routing
//! tables (show output), which the fidelity tests compare against.

pub mod adjacency;
pub mod autostate;
pub mod bgp;
pub mod candidate;
pub mod connected;
pub mod dynamic;
pub mod eigrp;
pub mod igp;
pub mod isis;
pub mod kept;
pub mod ospf;
pub mod rib;
pub mod route;
pub mod shown;
pub mod statics;
mod store;
pub mod trace;
pub mod withdrawn;

pub use dynamic::Incomplete;
pub use rib::{compute, network, DeviceInput, DeviceRib};
pub use route::{NextHop, Protocol, Route, COLUMNS};
pub use store::{Lazy, Query, RoutingModel};

/// A hash map with a fast hasher: the routing model's tables are keyed by prefixes,
/// addresses and device numbers, hashed millions of times per build (SipHash, the
/// standard one, was a fifth of a backbone router's query).
pub type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;
/// A hash set with a fast hasher ([`FastMap`]).
pub type FastSet<T> = std::collections::HashSet<T, foldhash::fast::FixedState>;

#[cfg(test)]
mod scope_tests;
#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests;
