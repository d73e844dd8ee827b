//! Small hand-made networks for the routing tests: each device read by its vendor's
//! parser, the network computed at once, rows shown as the devices print them.

use crate::import::parse::parser_for;
use crate::model::Vendor;
use crate::routing::adjacency::Igps;
use crate::routing::{network, DeviceInput, DeviceRib};

/// The IGP adjacencies among the devices, as `describe` names them, and the speakers
/// (to ask why one does not form).
pub fn adjacencies(devices: &[(&str, Vendor, String)]) -> (Vec<String>, Igps) {
    let configs: Vec<_> = devices
        .iter()
        .map(|(_, v, t)| parser_for(*v).parse(t))
        .collect();
    let inputs: Vec<DeviceInput> = devices
        .iter()
        .zip(&configs)
        .map(|((h, v, t), c)| DeviceInput {
            hostname: h,
            vendor: *v,
            config: c,
            text: t,
        })
        .collect();
    let igps = Igps::of(&inputs);
    (
        igps.adjacencies().iter().map(|a| a.describe()).collect(),
        igps,
    )
}

/// Every device's RIB: (hostname, vendor, configuration text). The texts are whole
/// running configurations: an IOS or EOS one without its closing `end` gets it (else
/// its RIB would say it looks truncated).
pub fn run(devices: &[(&str, Vendor, String)]) -> Vec<DeviceRib> {
    let texts: Vec<String> = devices
        .iter()
        .map(|(_, v, t)| {
            let ends = matches!(v, Vendor::CiscoIos | Vendor::AristaEos);
            if ends && t.lines().last().map(str::trim) != Some("end") {
                format!("{t}\nend\n")
            } else {
                t.clone()
            }
        })
        .collect();
    let configs: Vec<_> = devices
        .iter()
        .zip(&texts)
        .map(|((_, v, _), t)| parser_for(*v).parse(t))
        .collect();
    let inputs: Vec<DeviceInput> = devices
        .iter()
        .zip(&configs)
        .zip(&texts)
        .map(|(((h, v, _), c), t)| DeviceInput {
            hostname: h,
            vendor: *v,
            config: c,
            text: t,
        })
        .collect();
    network(&inputs)
}

/// Every device's RIB, all of them IOS: (hostname, configuration text).
pub fn run_ios(devices: &[(String, String)]) -> Vec<DeviceRib> {
    let v: Vec<(&str, Vendor, String)> = devices
        .iter()
        .map(|(h, t)| (h.as_str(), Vendor::CiscoIos, t.clone()))
        .collect();
    run(&v)
}

/// `network protocol [AD/metric] next-hop` of the rows whose protocol starts with
/// `prefix` (`ospf`, `eigrp`, `isis`).
pub fn rows(r: &DeviceRib, prefix: &str) -> Vec<String> {
    r.routes
        .iter()
        .filter(|r| r.protocol.as_str().starts_with(prefix))
        .map(|r| {
            format!(
                "{} {} [{}/{}] {}",
                r.network, r.protocol, r.admin_distance, r.metric, r.next_hop
            )
        })
        .collect()
}
