//! The management plane's interfaces and VRFs: one rule for every reader (links are not
//! inferred over them, the routing model keeps them out of the RIB, as Batfish does).

/// Junos management ports (and their units): `fxp0` on routers, `em0` on EX/QFX, `me0`
/// on older EX; `vme` is the EX virtual-chassis management port.
const JUNOS_MANAGEMENT: &[&str] = &["fxp0", "em0", "me0", "vme"];

/// Whether an interface (by name) in a VRF (`""` or `default` for the global table) is
/// the management plane's: named `management*` or `mgmt*`, a Junos management port or
/// its unit, or in a VRF whose name holds `mgmt` or `management` (`MGMT`, `Mgmt-intf`,
/// `mgmt_junos`, `oob-mgmt`).
pub fn is_management(interface: &str, vrf: &str) -> bool {
    // Compared without case and without copies: the checks ask this of every interface.
    let starts = |s: &str, p: &str| s.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p));
    let contains = |s: &str, p: &str| {
        s.as_bytes()
            .windows(p.len())
            .any(|w| w.eq_ignore_ascii_case(p.as_bytes()))
    };
    let port = interface.split('.').next().unwrap_or("");
    starts(interface, "management")
        || starts(interface, "mgmt")
        || JUNOS_MANAGEMENT
            .iter()
            .any(|m| port.eq_ignore_ascii_case(m))
        || contains(vrf, "mgmt")
        || contains(vrf, "management")
}

#[cfg(test)]
mod tests {
    use super::{is_management, JUNOS_MANAGEMENT};

    proptest::proptest! {
        /// The copy-free comparison answers as lowercasing both names did.
        #[test]
        fn management_ports_are_found_whatever_the_case(
            name in "(?i)(mgmt|management|fxp0|em0|me0|vme|eth|Ethernet)[0-9./]{0,4}",
            vrf in "(?i)[a-z-]{0,4}(mgmt|management|prod)?[a-z]{0,3}",
        ) {
            let n = name.to_ascii_lowercase();
            let v = vrf.to_ascii_lowercase();
            let expected = n.starts_with("management")
                || n.starts_with("mgmt")
                || JUNOS_MANAGEMENT.contains(&n.split('.').next().unwrap_or(""))
                || v.contains("mgmt")
                || v.contains("management");
            proptest::prop_assert_eq!(is_management(&name, &vrf), expected);
        }
    }

    #[test]
    fn management_ports_and_vrfs_by_every_vendor_s_names() {
        for (i, v) in [
            ("Management1", ""),
            ("mgmt0", "management"),
            ("fxp0.0", ""),
            ("em0", ""),
            ("vme", ""),
            ("GigabitEthernet0/0", "Mgmt-intf"),
            ("ge-0/0/0.0", "mgmt_junos"),
            ("Ethernet1", "oob-MGMT"),
        ] {
            assert!(is_management(i, v), "{i} in {v}");
        }
        for (i, v) in [
            ("Ethernet1", "default"),
            ("em1", ""),
            ("ge-0/0/0.0", "CUSTOMER"),
            ("Loopback0", ""),
        ] {
            assert!(!is_management(i, v), "{i} in {v}");
        }
    }
}
