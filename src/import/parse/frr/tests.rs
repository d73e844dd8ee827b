use super::*;
use crate::model::{AddressKind, BgpPeer};

fn addrs(dev: &DeviceConfig, name: &str) -> Vec<(String, AddressKind)> {
    dev.interfaces
        .iter()
        .find(|i| i.name == name)
        .map(|i| {
            i.addresses
                .iter()
                .map(|a| (a.address.to_string(), a.kind))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn plain_frr_conf_with_unnumbered_peers_and_kinds() {
    let cfg = "frr version 7.5\nfrr defaults datacenter\nhostname leaf1\n!\ninterface lo\n ip address 10.0.0.1/32\n ip address 10.0.0.2/32\n!\ninterface swp1 vrf red\n description to spine\n ip address 10.1.0.1/31\n ip ospf area 0\n!\nrouter bgp 65001\n bgp router-id 10.0.0.1\n neighbor fabric peer-group\n neighbor fabric remote-as external\n neighbor swp2 interface peer-group fabric\n neighbor swp3 interface remote-as internal\n neighbor 10.9.9.9 remote-as 65009\n !\n address-family ipv4 unicast\n  network 10.0.0.1/32\n  neighbor swp2 route-map IN in\n exit-address-family\n!\nrouter bgp 65001 vrf red\n neighbor 10.1.0.0 remote-as external\n!\nrouter ospf\n ospf router-id 10.0.0.1\n!\nbgp community-list standard C permit 65001:1\nroute-map IN permit 10\n match community C\n!\nline vty\n!\n";
    let dev = FrrParser.parse(cfg);
    assert_eq!(dev.hostname.as_deref(), Some("leaf1"));
    assert_eq!(dev.os_version.as_deref(), Some("7.5"));
    assert_eq!(
        addrs(&dev, "lo"),
        [
            ("10.0.0.1/32".to_owned(), AddressKind::Primary),
            ("10.0.0.2/32".to_owned(), AddressKind::Secondary)
        ]
    );
    let swp1 = dev.interfaces.iter().find(|i| i.name == "swp1");
    assert_eq!(swp1.and_then(|i| i.vrf.as_deref()), Some("red"));
    let bgp = dev.bgp.as_ref().expect("bgp");
    assert_eq!(bgp.local_as, Some(65001));
    let swp2 = bgp
        .neighbors
        .iter()
        .find(|n| n.peer == BgpPeer::Interface("swp2".into()))
        .expect("swp2");
    assert_eq!(swp2.peer_asn, None);
    assert!(swp2.accepts_as(&[65002]) && !swp2.accepts_as(&[65001]));
    assert_eq!(swp2.route_map_in.as_deref(), Some("IN"));
    let swp3 = bgp
        .neighbors
        .iter()
        .find(|n| n.peer == BgpPeer::Interface("swp3".into()))
        .expect("swp3");
    assert!(swp3.accepts_as(&[65001]) && !swp3.accepts_as(&[65002]));
    let red = bgp
        .neighbors
        .iter()
        .find(|n| n.vrf.as_deref() == Some("red"))
        .expect("vrf neighbor");
    assert!(red.accepts_as(&[65002]));
    assert_eq!(dev.ospf.processes.len(), 1);
    assert_eq!(
        dev.ospf.processes[0].router_id,
        Some("10.0.0.1".parse().expect("ip"))
    );
    assert!(dev.warnings.is_empty(), "{:?}", dev.warnings);
    assert!(dev.lines_unrecognised == 0, "{}", dev.lines_unrecognised);
}

#[test]
fn cumulus_concatenated_layout() {
    let cfg = "leaf9\n# This file describes the network interfaces\nsource /etc/network/interfaces.d/*.intf\n\nauto lo\niface lo inet loopback\n    address 10.0.0.9/32\n    address 10.0.0.10/32\n\nauto eth0\niface eth0\n    address 10.254.0.9/16\n    vrf mgmt\n\nauto mgmt\niface mgmt\n    vrf-table auto\n\nauto swp1\niface swp1\n    address 10.1.0.1/31\n    alias to spine\n    mtu 9000\n\nauto swp2\niface swp2\n    link-down yes\n\nauto bond0\niface bond0\n    bond-slaves swp3 swp4\n# ports.conf --\n#\n#   The ports in Cumulus VX are not configurable from here.\n#frr version\nfrr version 4.0+cl3u8\nfrr defaults datacenter\nhostname leaf9\n!\ninterface swp1\n ip ospf network point-to-point\n!\n";
    let dev = FrrParser.parse(cfg);
    assert_eq!(dev.hostname.as_deref(), Some("leaf9"));
    assert_eq!(dev.model.as_deref(), Some("Cumulus Linux"));
    assert_eq!(dev.os_version.as_deref(), Some("4.0+cl3u8"));
    let names: Vec<&str> = dev.interfaces.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        ["lo", "eth0", "mgmt", "swp1", "swp2", "bond0", "swp3", "swp4"]
    );
    assert_eq!(addrs(&dev, "lo").len(), 2);
    let swp1 = &dev.interfaces[3];
    assert_eq!(
        (swp1.mtu, swp1.description.as_deref()),
        (Some(9000), Some("to spine"))
    );
    assert!(!dev.interfaces[4].admin_up);
    assert_eq!(dev.interfaces[6].channel_group.as_deref(), Some("bond0"));
    assert_eq!(dev.interfaces[1].vrf.as_deref(), Some("mgmt"));
    assert_eq!(dev.interfaces[2].vrf.as_deref(), Some("mgmt"));
    assert!(dev.warnings.is_empty(), "{:?}", dev.warnings);
}

#[test]
fn sonic_pair_layout() {
    let db = br#"{"DEVICE_METADATA": {"localhost": {"hostname": "fr01", "hwsku": "S5248"}},
"PORT": {"Ethernet0": {"admin_status": "up", "mtu": "9100", "description": "to ag"}, "Ethernet2": {"admin_status": "down"}},
"INTERFACE": {"Ethernet0": {}, "Ethernet0|10.1.11.2/30": {}, "Ethernet0|2022:cafe:11::2/96": {}},
"LOOPBACK_INTERFACE": {"Loopback0|1.1.1.1/32": {}}}"#;
    let frr = b"frr version 7.2-sonic\nfrr defaults traditional\nhostname fr01\nrouter bgp 65040\n neighbor 10.1.11.1 remote-as 11643\n";
    let joined = sonic::join(db, frr);
    let text = std::str::from_utf8(&joined).expect("utf8");
    assert!(is_frr(text));
    let dev = FrrParser.parse(text);
    assert_eq!(dev.hostname.as_deref(), Some("fr01"));
    assert_eq!(dev.model.as_deref(), Some("SONiC S5248"));
    assert_eq!(dev.os_version.as_deref(), Some("7.2-sonic"));
    assert_eq!(addrs(&dev, "Ethernet0").len(), 2);
    assert_eq!(addrs(&dev, "Loopback0")[0].0, "1.1.1.1/32");
    assert!(!dev
        .interfaces
        .iter()
        .any(|i| i.name == "Ethernet2" && i.admin_up));
    assert_eq!(dev.bgp.as_ref().map(|b| b.neighbors.len()), Some(1));
    assert_eq!(
        sonic::split(text),
        Some((
            std::str::from_utf8(db)
                .map(|d| format!("{d}\n"))
                .as_deref()
                .unwrap_or(""),
            std::str::from_utf8(frr).unwrap_or("")
        ))
    );
    let broken = sonic::join(b"{\"PORT\": ", frr);
    let dev = FrrParser.parse(std::str::from_utf8(&broken).expect("utf8"));
    assert!(dev
        .warnings
        .iter()
        .any(|w| w.message.contains("config_db.json")));
}
