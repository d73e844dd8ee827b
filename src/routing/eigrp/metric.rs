//! EIGRP's composite metric with the default K values (K1 = K3 = 1, the others 0): from
//! the minimum bandwidth and the total delay along the path, as the devices print it.
//!
//! - classic: `256 × (10⁷ / min bandwidth in kbit/s + total delay in tens of µs)`;
//! - named mode (wide metrics): `65536 × 10⁷ / min bandwidth + total delay in ps × 65536 /
//!   10⁶`, shown in the routing table divided by the RIB scale (128).
//!
//! Interface defaults: bandwidth and delay by the interface's type (IOS: GigabitEthernet
//! 1 Gbit/s and 10 µs, loopbacks 8 Gbit/s and 5,000 µs, …); in named mode an interface of
//! 1 Gbit/s or more without a configured delay has 10⁷ / bandwidth (kbit/s) µs.

use crate::model::{DeviceConfig, Vendor};

/// The RIB scale named mode divides its wide metric by (`metric rib-scale`, default 128).
pub const RIB_SCALE: u64 = 128;

/// Picoseconds in ten microseconds: `delay N` and the `metric` commands' delay are in
/// tens of µs.
pub const PS_PER_TENS_US: u64 = 10_000_000;

/// An interface's bandwidth (kbit/s) and delay (ps) when none is configured, by its name.
pub fn interface_defaults(vendor: Vendor, name: &str) -> (u64, u64) {
    let n = name.to_ascii_lowercase();
    let starts = |p: &str| n.starts_with(p);
    let us = |d: u64| d * 1_000_000;
    if super::super::igp::is_loopback(name) {
        return (8_000_000, us(5_000));
    }
    if starts("hundred") {
        (100_000_000, us(10))
    } else if starts("forty") {
        (40_000_000, us(10))
    } else if starts("twentyfive") || starts("twe") {
        (25_000_000, us(10))
    } else if starts("tengig") || starts("te") {
        (10_000_000, us(10))
    } else if starts("fastethernet") || starts("fa") {
        (100_000, us(100))
    } else if starts("tunnel") {
        (100, us(50_000))
    } else if starts("serial") {
        (1_544, us(20_000))
    } else if starts("ethernet") && vendor == Vendor::CiscoIos {
        (10_000, us(1_000))
    } else {
        // GigabitEthernet, NX-OS Ethernet, SVIs, port-channels.
        (1_000_000, us(10))
    }
}

/// An interface's bandwidth (kbit/s): configured (`bandwidth`), else a port-channel's the
/// sum of its up members', a subinterface's its parent's, else by its type.
pub fn bandwidth(vendor: Vendor, config: &DeviceConfig, name: &str) -> u64 {
    let configured = |n: &str| {
        config
            .eigrp
            .interface(n)
            .and_then(|s| s.bandwidth_kbps)
            .unwrap_or_else(|| interface_defaults(vendor, n).0)
    };
    if let Some(b) = config.eigrp.interface(name).and_then(|s| s.bandwidth_kbps) {
        return b;
    }
    let (parent, sub) = match name.split_once('.') {
        Some((p, _)) => (p, true),
        None => (name, false),
    };
    if parent.to_ascii_lowercase().starts_with("port-channel") {
        let members: u64 = config
            .interfaces
            .iter()
            .filter(|i| {
                i.admin_up
                    && i.channel_group
                        .as_deref()
                        .is_some_and(|g| crate::ifname::same(g, parent))
            })
            .map(|i| configured(&i.name))
            .sum();
        if members > 0 {
            return members;
        }
    }
    if sub {
        return configured(parent);
    }
    interface_defaults(vendor, name).0
}

/// The delay (ps) named mode gives an interface of `bw` kbit/s without a configured one.
pub fn named_delay(bw: u64, classic: u64) -> u64 {
    if bw >= 1_000_000 {
        10_000_000_000_000 / bw
    } else {
        classic
    }
}

/// The composite metric of a path (`named`: the wide metric), before any RIB scaling.
pub fn composite(named: bool, bw_kbps: u64, delay_ps: u64) -> u64 {
    let bw = bw_kbps.max(1);
    if named {
        (10_000_000u64 * 65_536 / bw).saturating_add(delay_ps.saturating_mul(65_536) / 1_000_000)
    } else {
        (10_000_000 / bw)
            .saturating_add(delay_ps / PS_PER_TENS_US)
            .saturating_mul(256)
            .min(u64::from(u32::MAX))
    }
}

/// The metric the routing table shows: classic as it is, named mode over the RIB scale.
pub fn shown(named: bool, composite: u64) -> u32 {
    let m = if named {
        composite / RIB_SCALE
    } else {
        composite
    };
    u32::try_from(m).unwrap_or(u32::MAX)
}
