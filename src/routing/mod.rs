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

/// Returns the memory freed so far to the system. mimalloc keeps freed pages for reuse;
/// between the routing build's phases that kept 100–250 MB at 50,000 devices, which the
/// next phase's larger allocations did not reuse (docs/performance.md, "Memory of the
/// routing build"). Without mimalloc as the allocator (the tests) it does nothing.
pub(crate) fn release_freed() {
    // SAFETY: mi_collect takes no pointer and may be called at any time from any thread.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

/// After a phase of the build: returns the memory it freed ([`release_freed`]) and logs
/// the process's resident and peak memory (Linux, at debug level).
pub(crate) fn memory(phase: &str) {
    release_freed();
    if !tracing::enabled!(tracing::Level::DEBUG) {
        return;
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .map(|l| l[k.len()..].trim().to_owned())
            .unwrap_or_default()
    };
    tracing::debug!(
        "routing model: {phase}: resident {}, peak {}",
        field("VmRSS:"),
        field("VmHWM:")
    );
}
