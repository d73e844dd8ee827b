//! Interface names in their usual spellings: `Gi0/1`, `gig0/1`, `GigabitEthernet0/1`,
//! `Et1`, `Eth1/1`, `Po1`, `Lo0` all name the same interface as the config does.

/// Long forms of the interface types, and the abbreviations engineers type for them.
const TYPES: &[(&str, &[&str])] = &[
    (
        "GigabitEthernet",
        &["gi", "gig", "ge", "gigabitethernet", "gigabit"],
    ),
    (
        "TenGigabitEthernet",
        &["te", "ten", "tengig", "tengigabitethernet", "xe"],
    ),
    ("TwentyFiveGigE", &["twe", "twentyfivegige"]),
    ("FortyGigabitEthernet", &["fo", "fortygigabitethernet"]),
    ("HundredGigE", &["hu", "hundredgige"]),
    ("FastEthernet", &["fa", "fastethernet"]),
    ("Ethernet", &["e", "et", "eth", "ethernet"]),
    ("Port-channel", &["po", "port-channel", "portchannel"]),
    ("Loopback", &["lo", "loopback"]),
    ("Vlan", &["vl", "vlan"]),
    ("Management", &["ma", "mgmt", "management"]),
    ("Tunnel", &["tu", "tunnel"]),
    // IOS-XR.
    ("TenGigE", &["tengige"]),
    ("FortyGigE", &["fortygige"]),
    ("Bundle-Ether", &["be", "bundle-ether"]),
    // Linux (FRR on Cumulus): switch ports and bonds.
    ("swp", &["swp"]),
    ("bond", &["bond"]),
];

/// Whether `kind` (the letters before an interface's number: `Gi`, `swp`, `Bundle-Ether`)
/// is an interface type olav knows.
pub fn known_kind(kind: &str) -> bool {
    let lower = kind.to_ascii_lowercase();
    TYPES
        .iter()
        .any(|(long, shorts)| long.eq_ignore_ascii_case(&lower) || shorts.contains(&lower.as_str()))
}

/// Splits `Gi0/1` into (`Gi`, `0/1`).
fn split(name: &str) -> (&str, &str) {
    let i = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    (name[..i].trim(), name[i..].trim())
}

/// The long form of an abbreviated interface name (`Gi0/1` → `GigabitEthernet0/1`);
/// unknown types come back unchanged.
pub fn expand(name: &str) -> String {
    let (kind, num) = split(name);
    let lower = kind.to_ascii_lowercase();
    for (long, shorts) in TYPES {
        if shorts.contains(&lower.as_str()) {
            return format!("{long}{num}");
        }
    }
    name.to_owned()
}

/// Whether an interface is a physical port (not a unit or subinterface, a port-channel,
/// an SVI, a loopback, a tunnel or a management port): the only kind Batfish deactivates.
pub fn is_physical(name: &str) -> bool {
    if name.contains('.') {
        return false;
    }
    let (kind, num) = split(name);
    let kind = kind.to_ascii_lowercase();
    let junos_port = ["ge-", "xe-", "et-", "fe-", "gr-", "mge-"]
        .iter()
        .any(|p| name.to_ascii_lowercase().starts_with(p));
    if junos_port {
        return true;
    }
    let long = expand(&format!("{kind}{num}"));
    [
        "GigabitEthernet",
        "TenGigabitEthernet",
        "TenGigE",
        "FortyGigE",
        "swp",
        "TwentyFiveGigE",
        "FortyGigabitEthernet",
        "HundredGigE",
        "FastEthernet",
        "Ethernet",
    ]
    .iter()
    .any(|t| long.starts_with(t) && long[t.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether the interface `named` takes `configured` with it: itself, or a unit or
/// subinterface of the named port (`xe-0/1/2` takes `xe-0/1/2.0`, `Gi0/1` `Gi0/1.100`).
pub fn covers(named: &str, configured: &str) -> bool {
    same(named, configured)
        || (!named.contains('.')
            && configured
                .split_once('.')
                .is_some_and(|(port, _)| same(named, port)))
}

/// Whether `typed` names the configured interface `configured`.
pub fn same(typed: &str, configured: &str) -> bool {
    if typed.eq_ignore_ascii_case(configured) {
        return true;
    }
    let (tk, tn) = split(typed);
    let (ck, cn) = split(configured);
    if tn != cn || tn.is_empty() {
        return false;
    }
    let tk = tk.to_ascii_lowercase();
    let ck = ck.to_ascii_lowercase();
    TYPES.iter().any(|(long, shorts)| {
        let long = long.to_ascii_lowercase();
        (shorts.contains(&tk.as_str()) || tk == long)
            && (shorts.contains(&ck.as_str()) || ck == long)
    })
}

/// The configured name among `names` that `typed` refers to.
pub fn resolve<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    names.into_iter().find(|n| same(typed, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn physical_ports_are_told_from_logical_interfaces() {
        for p in [
            "GigabitEthernet0/1",
            "Gi0/1",
            "Ethernet1",
            "Et49/1",
            "TwentyFiveGigE1/0/5",
            "ge-0/0/0",
            "xe-1/2/3",
            "et-0/0/1",
        ] {
            assert!(is_physical(p), "{p}");
        }
        for p in [
            "Vlan10",
            "Port-channel1",
            "Loopback0",
            "ge-0/0/0.0",
            "Gi0/1.100",
            "ae0",
            "irb.10",
            "lo0",
            "Tunnel1",
            "Management1",
            "mgmt0",
        ] {
            assert!(!is_physical(p), "{p}");
        }
    }

    #[test]
    fn usual_spellings() {
        assert!(same("Gi0/1", "GigabitEthernet0/1"));
        assert!(same("gig0/1", "GigabitEthernet0/1"));
        assert!(same("Et1", "Ethernet1"));
        assert!(same("eth1/1", "Ethernet1/1"));
        assert!(same("Po1", "Port-channel1"));
        assert!(same("mgmt0", "mgmt0"));
        assert!(!same("Gi0/1", "GigabitEthernet0/10"));
        assert!(!same("Te0/1", "GigabitEthernet0/1"));
        assert_eq!(expand("Lo0"), "Loopback0");
        assert_eq!(resolve("Vl20", ["Vlan10", "Vlan20"]), Some("Vlan20"));
        // IOS-XR and FRR (Cumulus) names.
        assert!(same("BE45", "Bundle-Ether45"));
        assert!(known_kind("swp") && known_kind("Bundle-Ether") && known_kind("TenGigE"));
        assert!(is_physical("swp2") && is_physical("TenGigE0/0/0/1"));
        assert!(!is_physical("Bundle-Ether45") && !is_physical("bond0"));
    }
}
