use super::parse;
use crate::import::parse::{detect, NotAConfig};
use crate::model::{AddressKind, BgpPeer, OspfNetworkType, RouteMapMatch, RouteMapSet, Vendor};

const PE: &str = "Building configuration...
!! IOS XR Configuration version = 6.2.2
!
hostname pe1
vrf blue
 address-family ipv4 unicast
  import route-target
   65000:1
  !
  export route-target
   65000:1
  !
 !
!
interface Bundle-Ether23
 description To core
 mtu 9216
 ipv4 address 10.0.0.1 255.255.255.252
 ipv4 address 10.9.0.1 255.255.255.0 secondary
!
interface Loopback0
 ipv4 address 1.1.1.1 255.255.255.255
!
interface GigabitEthernet0/0/0/2
 bundle id 23 mode active
!
interface GigabitEthernet0/0/0/3.35
 vrf blue
 ipv4 address 11.1.1.1 255.255.255.0
 encapsulation dot1q 35
!
interface GigabitEthernet0/0/0/4
 shutdown
!
prefix-set OUT
  10.0.0.0/8 le 32,
  192.168.0.0/16 eq 24
end-set
!
route-policy EBGP-IN
  if destination in OUT then
    set local-preference 200
  elseif destination in MISSING then
    prepend as-path 65000 2
    pass
  else
    drop
  endif
end-policy
!
route-policy PASS
  pass
end-policy
!
router static
 address-family ipv4 unicast
  192.0.2.1/32 Null0
 !
 vrf blue
  address-family ipv4 unicast
   11.0.0.0/8 GigabitEthernet0/0/0/3.35 11.1.1.2
  !
 !
!
router ospf 1
 router-id 1.1.1.1
 network point-to-point
 area 0
  interface Bundle-Ether23
   cost 10
  !
  interface Loopback0
   passive enable
  !
 !
!
router bgp 65000
 bgp router-id 1.1.1.1
 address-family ipv4 unicast
  network 1.1.1.1/32
  aggregate-address 10.0.0.0/8 summary-only
 !
 neighbor-group RR
  remote-as 65000
  update-source Loopback0
  address-family ipv4 unicast
   route-policy PASS out
   next-hop-self
  !
 !
 neighbor 2.2.2.2
  use neighbor-group RR
 !
 vrf blue
  rd 1.1.1.1:1
  neighbor 11.1.1.2
   remote-as 65100
   address-family ipv4 unicast
    route-policy EBGP-IN in
   !
  !
 !
!
end
";

#[test]
fn detected_and_read() {
    assert_eq!(detect(PE), Ok(Vendor::CiscoIosXr));
    assert_eq!(
        detect("!RANCID-CONTENT-TYPE: cisco-xr\nhostname x\n"),
        Ok(Vendor::CiscoIosXr)
    );
    let c = parse(PE);
    assert_eq!(c.hostname.as_deref(), Some("pe1"));
    assert!(c.saw_end);
    let be = &c.interfaces[0];
    assert_eq!(be.mtu, Some(9202));
    assert_eq!(be.addresses.len(), 2);
    assert_eq!(be.addresses[1].kind, AddressKind::Secondary);
    let member = c
        .interfaces
        .iter()
        .find(|i| i.name == "GigabitEthernet0/0/0/2");
    assert_eq!(
        member.and_then(|i| i.channel_group.as_deref()),
        Some("Bundle-Ether23")
    );
    let sub = c.interfaces.iter().find(|i| i.name.ends_with(".35"));
    assert_eq!(sub.and_then(|i| i.encapsulation_vlan), Some(35));
    assert_eq!(sub.and_then(|i| i.vrf.as_deref()), Some("blue"));
    assert!(!c
        .interfaces
        .iter()
        .any(|i| i.name.ends_with("/4") && i.admin_up));
    assert_eq!(c.static_routes.len(), 2);
    assert_eq!(c.static_routes[1].vrf.as_deref(), Some("blue"));
    assert!(c.static_routes[0].discards());
}

#[test]
fn ospf_inherits_process_settings() {
    let c = parse(PE);
    let be = c.ospf.interface("Bundle-Ether23");
    assert_eq!(be.and_then(|s| s.cost), Some(10));
    assert_eq!(
        be.and_then(|s| s.network_type),
        Some(OspfNetworkType::PointToPoint)
    );
    assert_eq!(
        c.ospf.interface("Loopback0").and_then(|s| s.passive),
        Some(true)
    );
    assert_eq!(c.ospf_networks.len(), 2);
    assert!(c.ospf_networks[0].prefix.is_some());
}

#[test]
fn bgp_groups_and_vrfs() {
    let c = parse(PE);
    let Some(b) = &c.bgp else { panic!("no bgp") };
    assert_eq!(b.local_as, Some(65000));
    let rr = &b.neighbors[0];
    assert_eq!(rr.peer, BgpPeer::Address("2.2.2.2".parse().unwrap()));
    assert_eq!(rr.peer_asn, Some(65000));
    assert_eq!(rr.update_source.as_deref(), Some("Loopback0"));
    assert_eq!(rr.route_map_out.as_deref(), Some("PASS"));
    assert!(rr.routing.next_hop_self && rr.routing.send_community);
    let ce = &b.neighbors[1];
    assert_eq!(ce.vrf.as_deref(), Some("blue"));
    assert_eq!(ce.route_map_in.as_deref(), Some("EBGP-IN"));
    assert!(!ce.routing.send_community);
    assert_eq!(b.routing.vrf_vpn[0].import.len(), 1);
    assert!(b.routing.aggregates[0].summary_only);
}

#[test]
fn route_policy_becomes_clauses_in_order() {
    let c = parse(PE);
    let clauses: Vec<_> = c
        .route_map_clauses
        .iter()
        .filter(|r| r.name == "EBGP-IN")
        .collect();
    assert_eq!(clauses.len(), 3);
    assert!(clauses[0].permit);
    assert_eq!(
        clauses[0].matches,
        [RouteMapMatch::PrefixList(vec!["OUT".into()])]
    );
    assert_eq!(clauses[0].sets, [RouteMapSet::LocalPreference(200)]);
    assert_eq!(clauses[1].sets, [RouteMapSet::Prepend(vec![65000, 65000])]);
    assert!(!clauses[2].permit && clauses[2].matches.is_empty());
    let entries: Vec<_> = c.prefix_lists.iter().filter(|p| p.name == "OUT").collect();
    assert_eq!((entries[1].ge, entries[1].le), (Some(24), Some(24)));
    // `MISSING` is referenced and never defined.
    assert!(c.references.iter().any(|r| r.name == "MISSING"));
    assert!(!c.structures.iter().any(|d| d.name == "MISSING"));
}

#[test]
fn ios_nxos_and_eos_are_not_claimed() {
    for text in [
        "hostname r1\ninterface GigabitEthernet0/1\n description to the IOS XR box (end-policy)\n ip address 10.0.0.1 255.255.255.0\nrouter static\nend\n",
        "hostname leaf\ninterface Ethernet1\n   ip address 10.0.0.1/31\n",
        "hostname n\ninterface Ethernet1/1\n  ip address 10.0.0.1/31\nrouter bgp 1\n  address-family ipv4 unicast\n",
    ] {
        assert!(!matches!(detect(text), Ok(Vendor::CiscoIosXr)), "{text}");
        assert!(!matches!(detect(text), Err(NotAConfig::OtherVendor(_))), "{text}");
    }
}

const CORE: &str = "!! IOS XR Configuration version = 7.3.2
hostname p1
interface Loopback0
 ipv4 address 9.9.9.1 255.255.255.255
!
interface GigabitEthernet0/0/0/0
 ipv4 unnumbered Loopback0
!
community-set TAGS
  65000:1,
  65000:2
end-set
!
route-policy TAG
  if community matches-any TAGS then
    drop
  endif
  if destination in (10.0.0.0/8 le 24) then
    set community TAGS additive
  endif
end-policy
!
router isis CORE
 is-type level-2-only
 net 49.0001.0000.0000.0001.00
 address-family ipv4 unicast
  metric-style wide
  metric 20
 !
 interface Loopback0
  passive
  address-family ipv4 unicast
  !
 !
 interface GigabitEthernet0/0/0/0
  point-to-point
  address-family ipv4 unicast
   metric 5 level 2
  !
 !
!
router eigrp 1
!
end
";

#[test]
fn isis_unnumbered_and_what_is_not_read() {
    let c = parse(CORE);
    let p = &c.isis.processes[0];
    assert_eq!(
        (p.areas.as_slice(), p.wide),
        (&["49.0001".to_owned()][..], Some(true))
    );
    let lo = c.isis.interface("Loopback0");
    assert!(lo.is_some_and(|i| i.passive && i.process.as_deref() == Some("CORE")));
    assert_eq!(lo.map(|i| i.metric), Some((Some(20), Some(20))));
    let ge = c.isis.interface("GigabitEthernet0/0/0/0");
    assert_eq!(ge.map(|i| i.metric.1), Some(Some(5)));
    assert_eq!(c.interfaces[1].unnumbered.as_deref(), Some("Loopback0"));
    assert!(c
        .warnings
        .iter()
        .any(|w| w.message.contains("router eigrp")));
}

#[test]
fn rpl_conditions_olav_does_not_evaluate_stay_unknown() {
    let c = parse(CORE);
    let clauses: Vec<_> = c
        .route_map_clauses
        .iter()
        .filter(|r| r.name == "TAG")
        .collect();
    // The community condition is kept as a condition olav does not evaluate, never dropped.
    assert!(clauses[0]
        .matches
        .iter()
        .any(|m| matches!(m, RouteMapMatch::Other(o) if o.contains("community matches-any"))));
    assert!(!clauses[0].permit);
    // The inline prefix set is a list of its own; the named community set gives its values.
    let inline = clauses
        .iter()
        .find(|k| k.permit && !k.sets.is_empty())
        .map(|k| (k.prefix_lists.clone(), k.sets.clone()));
    assert_eq!(
        inline,
        Some((
            vec!["TAG~inline1".to_owned()],
            vec![RouteMapSet::Community {
                values: vec!["65000:1".into(), "65000:2".into()],
                additive: true
            }]
        ))
    );
    assert!(c
        .prefix_lists
        .iter()
        .any(|p| p.name == "TAG~inline1" && p.le == Some(24)));
}
