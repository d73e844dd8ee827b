//! VRFs and route targets on small hand-made networks: local leaking (IOS) and EVPN
//! type-5 routes (EOS over an eBGP overlay, NX-OS over iBGP with `auto` targets).

use super::tests::run;
use crate::model::Vendor;
use crate::routing::DeviceRib;

/// `vrf network protocol [AD/metric] next-hop` of the BGP rows.
fn rows(r: &DeviceRib) -> Vec<String> {
    r.routes
        .iter()
        .filter(|r| r.protocol.as_str().contains("bgp"))
        .map(|r| {
            format!(
                "{} {} {} [{}/{}] {}",
                r.vrf, r.network, r.protocol, r.admin_distance, r.metric, r.next_hop
            )
        })
        .collect()
}

fn nxos(name: &str, me: u8, peer: u8, vlan: u8) -> String {
    format!(
        "hostname {name}
feature bgp
feature ospf
vrf context T1
  vni 50001
  rd auto
  address-family ipv4 unicast
    route-target both auto
    route-target both auto evpn
interface nve1
  no shutdown
  host-reachability protocol bgp
  source-interface loopback0
  member vni 50001 associate-vrf
vlan {vlan}
interface Ethernet1/2
  switchport
  switchport access vlan {vlan}
  no shutdown
interface Vlan{vlan}
  no shutdown
  vrf member T1
  ip address 192.168.{vlan}.1/24
interface Ethernet1/1
  no switchport
  ip address 10.0.0.{me}/24
  ip router ospf 1 area 0.0.0.0
  no shutdown
interface loopback0
  ip address {me}.{me}.{me}.{me}/32
  ip router ospf 1 area 0.0.0.0
router ospf 1
router bgp 65000
  router-id {me}.{me}.{me}.{me}
  neighbor {peer}.{peer}.{peer}.{peer}
    remote-as 65000
    update-source loopback0
    address-family l2vpn evpn
      send-community extended
  vrf T1
    address-family ipv4 unicast
      redistribute direct route-map all
route-map all permit 10
"
    )
}

#[test]
fn nxos_imports_the_peers_tenant_subnet_over_ibgp_evpn_with_auto_targets() {
    let r = run(&[
        (Vendor::CiscoNxos, &nxos("nx1", 1, 2, 10)),
        (Vendor::CiscoNxos, &nxos("nx2", 2, 1, 20)),
    ]);
    for x in &r {
        assert!(x.incomplete.is_empty(), "{:?}", x.incomplete);
    }
    assert_eq!(
        rows(&r[0]),
        ["T1 192.168.20.0/24 ibgp [200/0] vtep 2.2.2.2 vni 50001"]
    );
    assert_eq!(
        rows(&r[1]),
        ["T1 192.168.10.0/24 ibgp [200/0] vtep 1.1.1.1 vni 50001"]
    );
}

fn eos_leaf(i: u8) -> String {
    format!(
        "hostname leaf{i}
vrf instance T
interface Ethernet1
   no switchport
   ip address 10.0.{i}.1/31
interface Loopback0
   ip address 192.168.0.1{i}/32
interface Loopback1
   ip address 192.168.1.1{i}/32
interface Loopback10
   vrf T
   ip address 10.255.0.{i}/32
interface Vxlan1
   vxlan source-interface Loopback1
   vxlan vrf T vni 5000
ip routing
ip routing vrf T
router bgp 6500{i}
   router-id 192.168.0.1{i}
   no bgp default ipv4-unicast
   neighbor 10.0.{i}.0 remote-as 65000
   neighbor 192.168.0.1 remote-as 65000
   neighbor 192.168.0.1 update-source Loopback0
   neighbor 192.168.0.1 ebgp-multihop 3
   neighbor 192.168.0.1 send-community extended
   address-family evpn
      neighbor 192.168.0.1 activate
   address-family ipv4
      neighbor 10.0.{i}.0 activate
      network 192.168.0.1{i}/32
      network 192.168.1.1{i}/32
   vrf T
      rd 192.168.0.1{i}:5000
      route-target import evpn 5000:5000
      route-target export evpn 5000:5000
      redistribute connected
end
"
    )
}

const EOS_SPINE: &str = "hostname spine
interface Ethernet1
   no switchport
   ip address 10.0.1.0/31
interface Ethernet2
   no switchport
   ip address 10.0.2.0/31
interface Loopback0
   ip address 192.168.0.1/32
ip routing
router bgp 65000
   router-id 192.168.0.1
   no bgp default ipv4-unicast
   neighbor 10.0.1.1 remote-as 65001
   neighbor 10.0.2.1 remote-as 65002
   neighbor 192.168.0.11 remote-as 65001
   neighbor 192.168.0.11 update-source Loopback0
   neighbor 192.168.0.11 ebgp-multihop 3
   neighbor 192.168.0.11 next-hop-unchanged
   neighbor 192.168.0.11 send-community extended
   neighbor 192.168.0.12 remote-as 65002
   neighbor 192.168.0.12 update-source Loopback0
   neighbor 192.168.0.12 ebgp-multihop 3
   neighbor 192.168.0.12 next-hop-unchanged
   neighbor 192.168.0.12 send-community extended
   address-family evpn
      neighbor 192.168.0.11 activate
      neighbor 192.168.0.12 activate
   address-family ipv4
      neighbor 10.0.1.1 activate
      neighbor 10.0.2.1 activate
      network 192.168.0.1/32
end
";

/// The tenant rows of a RIB.
fn tenant(r: &DeviceRib) -> Vec<String> {
    rows(r)
        .into_iter()
        .filter(|l| l.starts_with("T "))
        .collect()
}

#[test]
fn eos_leaves_import_each_others_tenant_routes_over_an_ebgp_overlay() {
    let r = run(&[
        (Vendor::AristaEos, EOS_SPINE),
        (Vendor::AristaEos, &eos_leaf(1)),
        (Vendor::AristaEos, &eos_leaf(2)),
    ]);
    for x in &r {
        assert!(x.incomplete.is_empty(), "{:?}", x.incomplete);
    }
    // EOS's default distance in a VRF is 200 for eBGP too; the next hop is the VTEP.
    assert_eq!(
        tenant(&r[1]),
        ["T 10.255.0.2/32 bgp [200/0] vtep 192.168.1.12 vni 5000"]
    );
    assert_eq!(
        tenant(&r[2]),
        ["T 10.255.0.1/32 bgp [200/0] vtep 192.168.1.11 vni 5000"]
    );
    // The spine has no tenant VRF; the path went through its AS.
    assert!(tenant(&r[0]).is_empty());
    let path: Vec<_> = r[1]
        .bgp
        .iter()
        .filter(|b| b.vrf == "T" && b.network.to_string() == "10.255.0.2/32")
        .map(|b| b.as_path.clone())
        .collect();
    assert_eq!(path, [vec![65000, 65002]]);
}

#[test]
fn leaves_of_one_as_refuse_each_others_evpn_routes_and_a_missing_vni_is_said() {
    // Both leaves in AS 65001: the path back through the spine holds their own AS.
    let leaf2 = eos_leaf(2)
        .replace("bgp 65002", "bgp 65001")
        .replace("remote-as 65002", "remote-as 65001");
    let spine = EOS_SPINE.replace("remote-as 65002", "remote-as 65001");
    let r = run(&[
        (Vendor::AristaEos, &spine),
        (Vendor::AristaEos, &eos_leaf(1)),
        (Vendor::AristaEos, &leaf2),
    ]);
    assert!(tenant(&r[1]).is_empty() && tenant(&r[2]).is_empty());
    // Without its layer-3 VNI a VRF's EVPN export is not computed: said, not guessed.
    let r = run(&[
        (Vendor::AristaEos, EOS_SPINE),
        (
            Vendor::AristaEos,
            &eos_leaf(1).replace("   vxlan vrf T vni 5000\n", ""),
        ),
        (Vendor::AristaEos, &eos_leaf(2)),
    ]);
    assert!(r[2]
        .incomplete_in("T")
        .iter()
        .any(|w| w.contains("without a layer-3 VNI")));
}

/// Without extended communities the EVPN routes carry no route target and no VRF imports
/// them; a route-map in the EVPN address family is not evaluated and says so (a trial
/// user's findings: both left the tenant tables unchanged and complete).
#[test]
fn evpn_needs_extended_communities_and_its_policies_are_said() {
    let spine = EOS_SPINE.replace("   neighbor 192.168.0.12 send-community extended\n", "");
    let r = run(&[
        (Vendor::AristaEos, &spine),
        (Vendor::AristaEos, &eos_leaf(1)),
        (Vendor::AristaEos, &eos_leaf(2)),
    ]);
    assert!(tenant(&r[2]).is_empty(), "{:?}", tenant(&r[2]));
    assert_eq!(
        tenant(&r[1]),
        ["T 10.255.0.2/32 bgp [200/0] vtep 192.168.1.12 vni 5000"]
    );
    let leaf1 = eos_leaf(1).replace(
        "   address-family evpn\n      neighbor 192.168.0.1 activate\n",
        "   address-family evpn\n      neighbor 192.168.0.1 activate\n      neighbor 192.168.0.1 route-map DENY in\n",
    )
    .replace("end\n", "route-map DENY deny 10\nend\n");
    let r = run(&[
        (Vendor::AristaEos, EOS_SPINE),
        (Vendor::AristaEos, &leaf1),
        (Vendor::AristaEos, &eos_leaf(2)),
    ]);
    for x in &r[1..] {
        assert!(
            x.incomplete_in("T")
                .iter()
                .any(|w| w.contains("EVPN policy not evaluated")),
            "{:?}",
            x.incomplete
        );
    }
    // An IPv4 neighbor of the leaf is not filtered by it.
    assert!(!r[1]
        .routes
        .iter()
        .all(|x| x.protocol.as_str() != "bgp" || x.vrf != "default"));
}

const IOS_LEAK: &str = "hostname r1
vrf definition A
 rd 1:1
 address-family ipv4
  route-target export 1:1
 exit-address-family
vrf definition B
 rd 1:2
 address-family ipv4
  route-target import 1:1
  route-target export 1:2
 exit-address-family
interface Loopback1
 vrf forwarding A
 ip address 10.1.1.1 255.255.255.255
interface GigabitEthernet1
 vrf forwarding B
 ip address 10.0.0.1 255.255.255.252
router bgp 65001
 address-family ipv4 vrf A
  network 10.1.1.1 mask 255.255.255.255
 exit-address-family
 address-family ipv4 vrf B
  neighbor 10.0.0.2 remote-as 65002
  neighbor 10.0.0.2 activate
 exit-address-family
end
";

const IOS_PEER: &str = "hostname r2
interface Loopback2
 ip address 10.2.2.2 255.255.255.255
interface GigabitEthernet1
 ip address 10.0.0.2 255.255.255.252
router bgp 65002
 neighbor 10.0.0.1 remote-as 65001
 network 10.2.2.2 mask 255.255.255.255
end
";

#[test]
fn ios_leaks_a_vrfs_routes_into_another_which_advertises_them() {
    let r = run(&[(Vendor::CiscoIos, IOS_LEAK), (Vendor::CiscoIos, IOS_PEER)]);
    for x in &r {
        assert!(x.incomplete.is_empty(), "{:?}", x.incomplete);
    }
    // B takes A's network (looked up in A, eBGP's distance as Batfish gives it); A
    // imports nothing (it has no import target).
    assert_eq!(
        rows(&r[0]),
        [
            "B 10.1.1.1/32 bgp [20/0] vrf A",
            "B 10.2.2.2/32 bgp [20/0] 10.0.0.2"
        ]
    );
    assert_eq!(rows(&r[1]), ["default 10.1.1.1/32 bgp [20/0] 10.0.0.1"]);
}

#[test]
fn an_import_map_leaves_the_vrf_incomplete() {
    let leak = IOS_LEAK.replace(
        "  route-target import 1:1\n",
        "  route-target import 1:1\n  import map ONLY\n",
    );
    let r = run(&[(Vendor::CiscoIos, &leak), (Vendor::CiscoIos, IOS_PEER)]);
    assert!(r[0]
        .incomplete_in("B")
        .iter()
        .any(|w| w.contains("import map ONLY")));
}

#[test]
fn a_leaked_path_carries_the_exporters_route_targets_to_an_extcommunity_match() {
    let leak = IOS_LEAK.replace(
        "  neighbor 10.0.0.2 activate\n",
        "  neighbor 10.0.0.2 activate\n  neighbor 10.0.0.2 send-community both\n",
    );
    let peer = IOS_PEER
        .replace(
            " neighbor 10.0.0.1 remote-as 65001\n",
            " neighbor 10.0.0.1 remote-as 65001\n neighbor 10.0.0.1 route-map IN in\n",
        )
        .replace(
            "end\n",
            "ip extcommunity-list standard RT permit rt 1:1\nroute-map IN permit 10\n match extcommunity RT\n set local-preference 110\nroute-map IN permit 20\nend\n",
        );
    let local_pref = |r: &DeviceRib| -> Vec<u32> {
        r.bgp
            .iter()
            .filter(|b| b.network.to_string() == "10.1.1.1/32")
            .map(|b| b.local_pref)
            .collect()
    };
    let r = run(&[(Vendor::CiscoIos, &leak), (Vendor::CiscoIos, &peer)]);
    assert!(r[1].incomplete.is_empty(), "{:?}", r[1].incomplete);
    assert_eq!(local_pref(&r[1]), [110]);
    // Without `send-community both` IOS sends no route target: the second clause.
    let r = run(&[(Vendor::CiscoIos, IOS_LEAK), (Vendor::CiscoIos, &peer)]);
    assert_eq!(local_pref(&r[1]), [100]);
}

/// A leaf with its AS, VRFs (import target, export target, VNI or none) and whether it
/// leaks locally too (VPN targets).
fn random_leaf(i: u8, asn: u8, vrfs: &[(u8, u8, bool)], local: bool) -> String {
    let mut s = eos_leaf(i)
        .replace(&format!("bgp 6500{i}"), &format!("bgp 6510{asn}"))
        .replace("end\n", "");
    // Back into the BGP block after each VRF's own lines.
    let bgp_block = s
        .lines()
        .find(|l| l.starts_with("router ") && l.contains(" bgp "))
        .map(|l| format!("{l}\n"))
        .unwrap_or_default();
    for (k, (imp, exp, vni)) in vrfs.iter().enumerate() {
        let family = if local { "" } else { "evpn " };
        s.push_str(&format!(
            "   vrf V{k}\n      route-target import {family}{imp}:{imp}\n      route-target export {family}{exp}:{exp}\n      redistribute connected\n"
        ));
        s.push_str(&format!(
            "vrf instance V{k}\ninterface Loopback2{k}\n   vrf V{k}\n   ip address 10.{i}.{k}.1/32\n"
        ));
        if *vni {
            s.push_str(&format!("interface Vxlan1\n   vxlan vrf V{k} vni 60{k}\n"));
        }
        s.push_str(&bgp_block);
    }
    s + "end\n"
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Random EVPN fabrics (leaves of random AS numbers, VRFs importing and exporting a
    /// few targets, some without a VNI, some leaking locally): BGP always finishes and
    /// every imported route's next hop is a VTEP or another VRF.
    #[test]
    fn evpn_fabrics_never_panic(
        leaves in proptest::collection::vec(
            (0u8..3, proptest::collection::vec((0u8..3, 0u8..3, proptest::prelude::any::<bool>()), 0..3), proptest::prelude::any::<bool>()),
            1..3,
        )
    ) {
        let mut spine = EOS_SPINE.to_owned();
        let mut texts = Vec::new();
        for (i, (asn, vrfs, local)) in leaves.iter().enumerate() {
            let i = i as u8 + 1;
            spine = spine.replace(&format!("remote-as 6500{i}"), &format!("remote-as 6510{asn}"));
            texts.push(random_leaf(i, *asn, vrfs, *local));
        }
        texts.insert(0, spine);
        let input: Vec<(Vendor, &str)> = texts.iter().map(|t| (Vendor::AristaEos, t.as_str())).collect();
        let ribs = run(&input);
        proptest::prop_assert_eq!(ribs.len(), texts.len());
        for r in &ribs {
            for route in r.routes.iter().filter(|x| x.vrf.starts_with('V') && x.protocol.as_str().contains("bgp")) {
                proptest::prop_assert!(matches!(
                    route.next_hop,
                    crate::routing::NextHop::Vtep { .. } | crate::routing::NextHop::Vrf(_)
                ), "{:?}", route);
            }
        }
    }
}

/// A shut VXLAN interface carries no EVPN route either way, and is no reason to call
/// the tables incomplete (a trial user's finding: the routes stayed).
#[test]
fn a_shut_vtep_exports_and_imports_nothing() {
    let leaf2 = eos_leaf(2).replace("interface Vxlan1\n", "interface Vxlan1\n   shutdown\n");
    let r = run(&[
        (Vendor::AristaEos, EOS_SPINE),
        (Vendor::AristaEos, &eos_leaf(1)),
        (Vendor::AristaEos, &leaf2),
    ]);
    assert!(tenant(&r[1]).is_empty(), "{:?}", tenant(&r[1]));
    assert!(tenant(&r[2]).is_empty(), "{:?}", tenant(&r[2]));
    assert!(r.iter().all(|x| x.incomplete.is_empty()), "{r:?}");
}
