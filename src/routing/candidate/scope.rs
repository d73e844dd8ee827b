//! Which devices' RIBs a plan can change, and the candidate computed over those alone.
//!
//! The network's computation (`rib::network`) is a function of each device's parsed
//! configuration (and of its text, read only for what olav does not compute:
//! `dynamic::incomplete`) and of the cabling. A device is **changed** when the plan
//! removes it or when its candidate configuration differs from the stored one as the
//! computation reads it (a plan then its rollback, or a new description, changes
//! nothing). Devices interact only through the protocols that run between
//! them, so the devices whose RIBs can change are the **components** of the changed
//! devices in a graph that joins, over the network as it is *and* as the plan leaves it:
//!
//! - two devices holding addresses of overlapping IPv4 subnets (every interface, shut or
//!   not, any VRF): every OSPF, EIGRP and IS-IS adjacency olav forms is between
//!   interfaces of one subnet;
//! - two cabled devices (OSPF over unnumbered interfaces follows the cabling);
//! - every BGP speaker with every other one: a BGP route, its policy or its next hop's
//!   IGP cost can travel anywhere sessions reach (route reflection, eBGP onwards), and
//!   BGP's size limits count every speaker of the network.
//!
//! Each component is closed: its devices' adjacencies and sessions are among themselves,
//! so the protocols computed over its devices alone give them what the whole network
//! gives them (every per-domain limit included), and every device outside keeps the RIB
//! it has now. The graph over-approximates (a shared subnet without an adjacency joins
//! too): a wider scope costs time, never correctness — the whole network is the widest.

use crate::model::{DeviceConfig, LinkEnds};
use crate::routing::dynamic;
use crate::routing::rib::DeviceInput;
use ipnet::IpNet;
use std::collections::HashMap;

/// One device as it is and as the plan leaves it (None: the plan removes it).
#[derive(Debug, Clone, Copy)]
pub struct Sides<'a> {
    /// The device as it is.
    pub now: DeviceInput<'a>,
    /// The device after the plan.
    pub after: Option<DeviceInput<'a>>,
}

/// Whether the computation reads the same of both: the parsed configurations and what
/// the text says olav does not compute. Compared as plain data (equal values, equal
/// encodings) without what the routing does not read: the source line numbers, which a
/// plan's lines shift in the rest of the file (it reads none save the unread lines'
/// warnings', which name them: compared, and the file order of prefix-list entries, kept
/// in the lists' order), interface and neighbor descriptions, and `lines_total` beyond
/// its being above zero.
fn same(a: &DeviceInput<'_>, b: &DeviceInput<'_>) -> bool {
    if std::ptr::eq(a.config, b.config) && a.text == b.text {
        return true;
    }
    a.vendor == b.vendor
        && reads(a.config).is_some_and(|x| Some(x) == reads(b.config))
        && dynamic::incomplete(a.config, a.vendor, a.text)
            == dynamic::incomplete(b.config, b.vendor, b.text)
}

/// What the routing reads of a configuration, as plain data ([`same`]).
fn reads(c: &DeviceConfig) -> Option<serde_json::Value> {
    fn unlined(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("line");
                m.remove("description");
                m.values_mut().for_each(unlined);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(unlined),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(c).ok()?;
    let m = v.as_object_mut()?;
    let warnings = m.remove("warnings");
    m.remove("lines_unrecognised");
    m.insert("lines_total".into(), (c.lines_total > 0).into());
    unlined(&mut v);
    v.as_object_mut()?.insert("warnings".into(), warnings?);
    Some(v)
}

/// Union-find over device numbers.
struct Components(Vec<usize>);

impl Components {
    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        self.0[a] = b;
    }
}

/// Per device (in `devices`' order), whether the plan changes it: removes it, or leaves
/// a configuration the routing reads differently.
pub fn changed(devices: &[Sides<'_>]) -> Vec<bool> {
    devices
        .iter()
        .map(|d| d.after.is_none_or(|a| !same(&d.now, &a)))
        .collect()
}

/// Per device, whether it is `changed` or its direct neighbour: cabled to a changed
/// device, or holding an address in a subnet overlapping one of a changed device's
/// (either side). Every adjacency with a changed end is among these devices, and so is
/// every interface that decides it (all members of its subnet).
pub fn near(devices: &[Sides<'_>], ends: &[LinkEnds], changed: &[bool]) -> Vec<bool> {
    let mut out = changed.to_vec();
    let ranges = |d: &Sides<'_>| -> Vec<(u32, u32)> {
        [Some(d.now), d.after]
            .into_iter()
            .flatten()
            .flat_map(|input| input.config.interfaces.iter().flat_map(|i| &i.addresses))
            .filter_map(|a| match a.address {
                IpNet::V4(net) => Some((u32::from(net.network()), u32::from(net.broadcast()))),
                IpNet::V6(_) => None,
            })
            .collect()
    };
    let mut hot: Vec<(u32, u32)> = devices
        .iter()
        .zip(changed)
        .filter(|(_, c)| **c)
        .flat_map(|(d, _)| ranges(d))
        .collect();
    hot.sort_unstable();
    // The ranges start in order; a range overlaps one of them when some range starting at
    // or before its end ends at or after its start.
    let mut reach: Vec<u32> = Vec::with_capacity(hot.len());
    for (k, (_, e)) in hot.iter().enumerate() {
        reach.push(if k == 0 { *e } else { reach[k - 1].max(*e) });
    }
    let overlaps = |(s, e): (u32, u32)| {
        let k = hot.partition_point(|(x, _)| *x <= e);
        k > 0 && reach[k - 1] >= s
    };
    for (k, d) in devices.iter().enumerate() {
        if !out[k] && ranges(d).into_iter().any(overlaps) {
            out[k] = true;
        }
    }
    for (x, y) in cabled(devices, ends) {
        if changed[x] || changed[y] {
            out[x] = true;
            out[y] = true;
        }
    }
    out
}

/// The cabled pairs of devices, as indexes into `devices`.
fn cabled(devices: &[Sides<'_>], ends: &[LinkEnds]) -> Vec<(usize, usize)> {
    let index: HashMap<&str, usize> = devices
        .iter()
        .enumerate()
        .map(|(i, d)| (d.now.hostname, i))
        .collect();
    ends.iter()
        .filter_map(|((a, _), (b, _))| Some((*index.get(a.as_str())?, *index.get(b.as_str())?)))
        .collect()
}

/// Per device (in `devices`' order), whether the plan can change its RIB: its component
/// holds a changed device (the module's doc). All false when nothing changes.
/// `changed` is [`changed`]'s answer for `devices`.
pub fn affected(devices: &[Sides<'_>], ends: &[LinkEnds], changed: &[bool]) -> Vec<bool> {
    let n = devices.len();
    if !changed.contains(&true) {
        return changed.to_vec();
    }
    let mut c = Components((0..n).collect());
    for (x, y) in cabled(devices, ends) {
        c.join(x, y);
    }
    // Subnets as address ranges, sorted: each run of overlapping ranges is joined.
    let mut ranges: Vec<(u32, u32, usize)> = Vec::new();
    let mut speaker: Option<usize> = None;
    for (k, d) in devices.iter().enumerate() {
        for input in [Some(d.now), d.after].into_iter().flatten() {
            if input.config.bgp.is_some() {
                match speaker {
                    Some(s) => c.join(s, k),
                    None => speaker = Some(k),
                }
            }
            for a in input.config.interfaces.iter().flat_map(|i| &i.addresses) {
                if let IpNet::V4(net) = a.address {
                    let net = net.trunc();
                    ranges.push((u32::from(net.network()), u32::from(net.broadcast()), k));
                }
            }
        }
    }
    ranges.sort_unstable();
    let mut run: Option<(u32, usize)> = None;
    for (start, end, k) in ranges {
        match run {
            Some((last, first)) if start <= last => {
                c.join(first, k);
                run = Some((last.max(end), first));
            }
            _ => run = Some((end, k)),
        }
    }
    let mut hit = vec![false; n];
    for k in (0..n).filter(|&k| changed[k]) {
        let r = c.find(k);
        hit[r] = true;
    }
    (0..n).map(|k| hit[c.find(k)]).collect()
}

/// Per device (in `devices`' order), whether the candidate recomputes it: the affected
/// devices ([`affected`]); every other device keeps the RIB it has now. A kept device
/// outside the scope that `known` does not know (no RIB as the network is) widens the
/// scope to the whole network.
pub fn recomputed(
    devices: &[Sides<'_>],
    ends: &[LinkEnds],
    changed: &[bool],
    known: &dyn Fn(&str) -> bool,
) -> Vec<bool> {
    let hit = affected(devices, ends, changed);
    if devices
        .iter()
        .zip(&hit)
        .any(|(d, h)| !h && d.after.is_some() && !known(d.now.hostname))
    {
        return vec![true; devices.len()];
    }
    hit
}
