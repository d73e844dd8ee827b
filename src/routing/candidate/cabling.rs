//! A cable's far end goes down with the end a plan shuts or removes: the line protocol
//! follows the cable, so the far interface's connected subnet, the static routes through
//! it and the adjacencies over it go too. Only where the cabling is known (LLDP, a
//! declared link, Batfish's layer-1 file): two ports that merely share a subnet may sit
//! on a switch or a carrier's circuit that keeps both up.

use crate::model::{DeviceConfig, LinkEnds};
use crate::routing::connected::active;
use std::collections::HashMap;

/// The interfaces of a device that carry traffic before and not after: shut or removed
/// by the plan, or all of them when the plan removes the device (`after` None).
pub fn shut(before: &DeviceConfig, after: Option<&DeviceConfig>) -> Vec<String> {
    before
        .interfaces
        .iter()
        .filter(|i| active(i))
        .filter(|i| {
            after.is_none_or(|a| !a.interfaces.iter().any(|j| j.name == i.name && active(j)))
        })
        .map(|i| i.name.clone())
        .collect()
}

/// The far ends of `shut` interfaces over `cables`, by device: (device, interface) pairs
/// whose cable reaches exactly one far end.
pub fn far_ends<'a>(
    cables: &'a [LinkEnds],
    shut: &[(&str, Vec<String>)],
) -> HashMap<&'a str, Vec<&'a str>> {
    let far = crate::checks::model::far_ends(cables);
    let mut out: HashMap<&str, Vec<&str>> = HashMap::new();
    for (device, ifnames) in shut {
        for i in ifnames {
            if let Some(Some(f)) = far.get(&(*device, i.as_str())) {
                out.entry(f.0.as_str()).or_default().push(f.1.as_str());
            }
        }
    }
    out
}

/// Takes `ifnames` of `config` down (their far ends are shut): they install nothing.
pub fn take_down(config: &mut DeviceConfig, ifnames: &[&str]) {
    for i in config
        .interfaces
        .iter_mut()
        .filter(|i| ifnames.contains(&i.name.as_str()))
    {
        i.admin_up = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Interface;

    fn device(ports: &[(&str, bool)]) -> DeviceConfig {
        DeviceConfig {
            interfaces: ports
                .iter()
                .map(|(name, up)| Interface {
                    admin_up: *up,
                    ..Interface::new((*name).to_owned(), 1)
                })
                .collect(),
            ..DeviceConfig::default()
        }
    }

    #[test]
    fn a_shut_end_takes_its_cabled_far_end_down_and_nothing_else() {
        let before = device(&[
            ("Ethernet1", true),
            ("Ethernet2", true),
            ("Ethernet3", false),
        ]);
        let after = device(&[
            ("Ethernet1", false),
            ("Ethernet2", true),
            ("Ethernet3", false),
        ]);
        assert_eq!(shut(&before, Some(&after)), vec!["Ethernet1".to_owned()]);
        // A removed device shuts every port that was up.
        assert_eq!(shut(&before, None), vec!["Ethernet1", "Ethernet2"]);
        let end = |h: &str, i: &str| (h.to_owned(), i.to_owned());
        let cables = vec![
            (end("r1", "Ethernet1"), end("r2", "Gi0/1")),
            (end("r1", "Ethernet2"), end("r3", "Gi0/1")),
        ];
        let down = far_ends(&cables, &[("r1", vec!["Ethernet1".to_owned()])]);
        assert_eq!(down.get("r2"), Some(&vec!["Gi0/1"]));
        assert!(!down.contains_key("r3"));
        let mut r2 = device(&[("Gi0/1", true), ("Gi0/2", true)]);
        take_down(&mut r2, &["Gi0/1"]);
        assert!(!r2.interfaces[0].admin_up && r2.interfaces[1].admin_up);
    }
}
