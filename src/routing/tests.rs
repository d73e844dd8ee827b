//! Each rule on a small hand-made configuration, read by the vendor's own parser.

use super::{compute, DeviceRib, NextHop, Protocol};
use crate::import::parse::parser_for;
use crate::model::Vendor;

fn rib(vendor: Vendor, text: &str) -> DeviceRib {
    compute("r1", vendor, &parser_for(vendor).parse(text), text)
}

/// `vrf network protocol [AD] next-hop` per row.
fn rows(r: &DeviceRib) -> Vec<String> {
    r.routes
        .iter()
        .map(|r| {
            format!(
                "{} {} {} [{}] {}",
                r.vrf, r.network, r.protocol, r.admin_distance, r.next_hop
            )
        })
        .collect()
}

const IOS: &str = "hostname r1
interface GigabitEthernet0/1
 ip address 10.0.0.1 255.255.255.252
!
interface GigabitEthernet0/2
 ip address 10.0.1.1 255.255.255.0
 shutdown
!
interface Loopback0
 ip address 1.1.1.1 255.255.255.255
!
";

#[test]
fn connected_and_local_follow_ios() {
    let r = rib(Vendor::CiscoIos, &format!("{IOS}end\n"));
    assert_eq!(
        rows(&r),
        [
            "default 1.1.1.1/32 connected [0] Loopback0",
            "default 10.0.0.0/30 connected [0] GigabitEthernet0/1",
            "default 10.0.0.1/32 local [0] GigabitEthernet0/1",
        ],
        "a shut interface installs nothing; a /32 is connected only"
    );
    assert!(r.incomplete.is_empty());
}

#[test]
fn static_routes_resolve_recursively_and_unresolved_ones_are_left_out() {
    let text = format!(
        "{IOS}ip route 10.8.0.0 255.255.0.0 10.0.0.2
ip route 10.9.0.0 255.255.0.0 10.8.0.1
ip route 10.7.0.0 255.255.0.0 192.0.2.1
ip route 10.6.0.0 255.255.0.0 10.0.1.2
end
"
    );
    let r = rib(Vendor::CiscoIos, &text);
    let statics: Vec<String> = rows(&r)
        .into_iter()
        .filter(|l| l.contains("static"))
        .collect();
    assert_eq!(
        statics,
        [
            "default 10.8.0.0/16 static [1] 10.0.0.2",
            "default 10.9.0.0/16 static [1] 10.8.0.1",
        ],
        "10.7/16 has no route to its next hop; 10.6/16's is on a shut interface"
    );
    assert_eq!(r.unresolved_statics, 2);
}

#[test]
fn a_static_route_via_the_devices_own_address_installs_nothing() {
    // IOS refuses `ip route … 10.0.0.1` on the router holding 10.0.0.1; the route to the
    // neighbour's address beside it installs.
    let text = format!(
        "{IOS}ip route 10.8.0.0 255.255.0.0 10.0.0.1
ip route 10.9.0.0 255.255.0.0 10.0.0.2
end
"
    );
    let r = rib(Vendor::CiscoIos, &text);
    let statics: Vec<String> = rows(&r)
        .into_iter()
        .filter(|l| l.contains("static"))
        .collect();
    assert_eq!(statics, ["default 10.9.0.0/16 static [1] 10.0.0.2"]);
}

#[test]
fn a_floating_static_installs_only_when_the_better_one_does_not() {
    let text = format!(
        "{IOS}ip route 10.9.0.0 255.255.0.0 10.0.0.2
ip route 10.9.0.0 255.255.0.0 10.0.0.3 200
ip route 10.5.0.0 255.255.0.0 GigabitEthernet0/2
ip route 10.5.0.0 255.255.0.0 10.0.0.2 250
end
"
    );
    let r = rib(Vendor::CiscoIos, &text);
    let statics: Vec<String> = rows(&r)
        .into_iter()
        .filter(|l| l.contains("static"))
        .collect();
    assert_eq!(
        statics,
        [
            "default 10.5.0.0/16 static [250] 10.0.0.2",
            "default 10.9.0.0/16 static [1] 10.0.0.2",
        ]
    );
}

#[test]
fn equal_distance_next_hops_are_one_row_each() {
    let text = format!(
        "{IOS}ip route 10.9.0.0 255.255.0.0 10.0.0.2
ip route 10.9.0.0 255.255.0.0 10.0.0.3
end
"
    );
    let r = rib(Vendor::CiscoIos, &text);
    assert_eq!(
        r.routes
            .iter()
            .filter(|r| r.protocol == Protocol::Static)
            .count(),
        2
    );
}

#[test]
fn discard_routes_on_ios_and_junos() {
    let r = rib(
        Vendor::CiscoIos,
        &format!("{IOS}ip route 10.0.0.0 255.0.0.0 Null0\nend\n"),
    );
    assert!(rows(&r).contains(&"default 10.0.0.0/8 static [1] discard".to_owned()));
    let r = rib(
        Vendor::JuniperJunos,
        "set system host-name r1
set routing-options static route 10.10.8.0/32 discard
set routing-options static route 10.10.9.0/32 next-hop 10.10.8.0
set routing-options static route 10.10.9.0/32 resolve
",
    );
    assert_eq!(
        rows(&r),
        ["default 10.10.8.0/32 static [5] discard"],
        "Junos' static preference is 5; `resolve` does not resolve through a discard route"
    );
}

#[test]
fn vrfs_keep_their_own_routes() {
    let text = "hostname r1
vrf definition RED
 address-family ipv4
!
interface GigabitEthernet0/1
 vrf forwarding RED
 ip address 10.0.0.1 255.255.255.252
!
interface GigabitEthernet0/2
 ip address 10.0.1.1 255.255.255.0
!
ip route vrf RED 10.9.0.0 255.255.0.0 10.0.0.2
ip route vrf RED 10.8.0.0 255.255.0.0 10.0.1.2
ip route 10.7.0.0 255.255.0.0 10.0.0.2
end
";
    let r = rib(Vendor::CiscoIos, text);
    let statics: Vec<String> = rows(&r)
        .into_iter()
        .filter(|l| l.contains("static"))
        .collect();
    assert_eq!(
        statics,
        ["RED 10.9.0.0/16 static [1] 10.0.0.2"],
        "a next hop resolves only in the route's own VRF"
    );
    assert!(rows(&r).contains(&"RED 10.0.0.0/30 connected [0] GigabitEthernet0/1".to_owned()));
}

#[test]
fn local_routes_differ_by_vendor() {
    let eos = rib(
        Vendor::AristaEos,
        "hostname r1
interface Ethernet1
   no switchport
   ip address 10.0.0.1/31
interface Loopback0
   ip address 1.1.1.1/32
interface Management1
   ip address 192.168.0.10/24
",
    );
    assert_eq!(
        rows(&eos),
        [
            "default 1.1.1.1/32 connected [0] Loopback0",
            "default 10.0.0.0/31 connected [0] Ethernet1",
        ],
        "EOS installs no local routes; the management interface is kept out"
    );
    let nxos = rib(
        Vendor::CiscoNxos,
        "hostname r1
interface Ethernet1/1
  no switchport
  ip address 10.0.0.1/30
  no shutdown
interface loopback0
  ip address 1.1.1.1/32
",
    );
    assert_eq!(
        rows(&nxos),
        [
            "default 1.1.1.1/32 connected [0] loopback0",
            "default 1.1.1.1/32 local [0] loopback0",
            "default 10.0.0.0/30 connected [0] Ethernet1/1",
            "default 10.0.0.1/32 local [0] Ethernet1/1",
        ],
        "NX-OS installs a local route for a /32 too"
    );
    let junos = rib(
        Vendor::JuniperJunos,
        "set system host-name r1
set interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/30
set interfaces lo0 unit 0 family inet address 1.1.1.1/32
set interfaces lo0 unit 0 family inet address 127.0.0.1/32
set interfaces fxp0 unit 0 family inet address 192.168.0.10/24
",
    );
    assert_eq!(
        rows(&junos),
        [
            "default 1.1.1.1/32 connected [0] lo0.0",
            "default 10.0.0.0/30 connected [0] ge-0/0/0.0",
            "default 10.0.0.1/32 local [0] ge-0/0/0.0",
        ],
        "Junos: 127/8 and fxp0 install nothing"
    );
}

#[test]
fn first_hop_redundancy_addresses_install_nothing_of_their_own() {
    let r = rib(
        Vendor::CiscoIos,
        "hostname r1
interface GigabitEthernet0/1
 ip address 10.0.0.2 255.255.255.0
 vrrp 1 ip 10.0.0.1
 standby 2 ip 10.0.0.3
end
",
    );
    assert_eq!(
        rows(&r),
        [
            "default 10.0.0.0/24 connected [0] GigabitEthernet0/1",
            "default 10.0.0.2/32 local [0] GigabitEthernet0/1",
        ]
    );
}

#[test]
fn dynamic_protocols_make_the_rib_incomplete() {
    let r = rib(
        Vendor::CiscoIos,
        &format!(
            "{IOS}router ospf 1
 network 10.0.0.0 0.0.0.3 area 0
!
router rip
 network 10.0.0.0
!
router bgp 65001
 neighbor 10.0.0.2 remote-as 65002
end
"
        ),
    );
    let reasons: Vec<&str> = r.incomplete_in("default");
    assert_eq!(
        reasons,
        [
            "RIP routes are not computed yet",
            "BGP routes from peers outside the network (r1 peer 10.0.0.2): not computed yet",
        ],
        "RIP (from the text) on every VRF, then BGP's peer outside the network; OSPF is computed"
    );
    assert!(rib(Vendor::CiscoIos, &format!("{IOS}end\n"))
        .incomplete_in("default")
        .is_empty());
    let n = NextHop::Interface {
        interface: "Gi0/1".into(),
        ip: None,
    };
    assert_eq!(n.to_string(), "Gi0/1");
}

#[test]
fn svis_need_an_up_port_carrying_their_vlan_on_nxos_and_eos() {
    let nxos = rib(
        Vendor::CiscoNxos,
        "hostname r1
interface Vlan10
  no shutdown
  ip address 10.10.10.1/24
interface Vlan20
  no shutdown
  ip address 10.20.20.1/24
interface port-channel1
  shutdown
  switchport mode trunk
  switchport trunk allowed vlan 10
interface Ethernet1/1
  switchport mode trunk
  switchport trunk allowed vlan 10
  channel-group 1 mode active
  no shutdown
interface Ethernet1/2
  switchport access vlan 20
  no shutdown
ip route 10.99.0.0/16 Vlan10
",
    );
    assert_eq!(
        rows(&nxos),
        [
            "default 10.20.20.0/24 connected [0] Vlan20",
            "default 10.20.20.1/32 local [0] Vlan20",
        ],
        "VLAN 10 rides only a shut port-channel: its SVI is down, and so is a route out of it"
    );
    let eos = rib(
        Vendor::AristaEos,
        "hostname r1
interface Ethernet1
   switchport access vlan 30
interface Vlan30
   ip address 10.30.0.1/24
interface Vlan40
   ip address 10.40.0.1/24
",
    );
    assert_eq!(rows(&eos), ["default 10.30.0.0/24 connected [0] Vlan30"]);
}

#[test]
fn junos_next_table_routes_make_the_vrf_incomplete() {
    let r = rib(
        Vendor::JuniperJunos,
        "set system host-name r1
set routing-instances RED instance-type vrf
set routing-instances RED routing-options static route 0.0.0.0/0 next-table inet.0
",
    );
    assert!(r.routes.is_empty());
    assert_eq!(
        r.incomplete_in("RED"),
        ["Junos next-table static routes are not computed yet"]
    );
    assert!(r.incomplete_in("default").is_empty());
}

#[test]
fn a_tracked_static_route_makes_its_vrf_incomplete() {
    let r = rib(
        Vendor::CiscoIos,
        &format!(
            "{IOS}{}\nend\n",
            crate::dialect::cisco::sample::ip_route("10.98.0.0 255.255.0.0 10.0.0.2 track 5")
        ),
    );
    assert!(
        r.incomplete_in("default")
            .iter()
            .any(|i| i.contains("`track`")),
        "{:?}",
        r.incomplete
    );
}

/// An address from DHCP is not in the configuration: the RIB says so (a trial user's
/// finding: IOS `ip address dhcp` gave a complete table without the interface's subnet).
#[test]
fn an_address_from_dhcp_is_said() {
    for (vendor, text) in [
        (
            Vendor::CiscoIos,
            format!("{IOS}interface GigabitEthernet0/3\n ip address dhcp\nend\n"),
        ),
        (
            Vendor::JuniperJunos,
            "set system host-name r1\nset interfaces ge-0/0/3 unit 0 family inet dhcp\n".to_owned(),
        ),
    ] {
        let r = rib(vendor, &text);
        assert!(
            r.incomplete
                .iter()
                .any(|i| i.reason.contains("takes its address from DHCP")),
            "{vendor:?}: {:?}",
            r.incomplete
        );
    }
}
