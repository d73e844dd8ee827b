//! Fidelity to real networks (`fixtures/fidelity/`): each fixture holds one class of
//! constructs that real configurations use, and the tests assert what olav must read
//! from it, as the devices and Batfish see it.

use crate::common;

use olav::checks::model::Model;
use olav::checks::{self, Findings};
use olav::import::ParsedSnapshot;
use olav::model::{AddressKind, RouteActivity};
use olav::state::StateDb;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    common::fixture("fidelity").join(name)
}

fn parsed(name: &str) -> ParsedSnapshot {
    common::parsed(&fixture(name))
}

/// The fixture imported into a fresh state DB, with the static checks' findings.
fn imported(name: &str) -> (tempfile::TempDir, StateDb, Findings) {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = common::state_db(&dir.path().join("s.db"), &parsed(name));
    let f = checks::run(&Model::from_state(&db).expect("model"), &[]);
    (dir, db, f)
}

/// (device, interface, address/len) of every address of one kind.
fn addresses(p: &ParsedSnapshot, kind: AddressKind) -> Vec<(String, String, String)> {
    p.devices
        .iter()
        .flat_map(|d| {
            d.config.interfaces.iter().flat_map(move |i| {
                i.addresses
                    .iter()
                    .filter(move |a| a.kind == kind)
                    .map(move |a| (d.hostname.clone(), i.name.clone(), a.address.to_string()))
            })
        })
        .collect()
}

fn links(p: &ParsedSnapshot) -> Vec<String> {
    p.links
        .iter()
        .map(|l| format!("{}:{}-{}:{}", l.a.0, l.a.1, l.b.0, l.b.1))
        .collect()
}

/// NX-OS SVIs are shut until `no shutdown`; HSRP and VRRP groups (NX-OS blocks, IOS
/// `standby` with and without a group, IOS and EOS `vrrp` lines), EOS VARP and the EOS
/// anycast `ip address virtual A/len` are virtual addresses with their subnet's length:
/// shared by the pair, so neither duplicates nor a reason to drop the pair's link.
#[test]
fn gateways_are_virtual_addresses_and_nxos_svis_start_shut() {
    let p = parsed("gateways");
    let shut: Vec<String> = p
        .devices
        .iter()
        .flat_map(|d| {
            d.config
                .interfaces
                .iter()
                .filter(|i| !i.admin_up)
                .map(move |i| format!("{}:{}", d.hostname, i.name))
        })
        .collect();
    assert_eq!(
        shut,
        [
            "nx-gw1:Vlan1",
            "nx-gw1:Vlan30",
            "nx-gw2:Vlan1",
            "nx-gw2:Vlan30"
        ]
    );
    let virtuals: Vec<(String, String, String)> = addresses(&p, AddressKind::Virtual)
        .into_iter()
        .filter(|(h, _, _)| h.ends_with('1'))
        .collect();
    let expect = [
        ("eos-leaf1", "Ethernet3", "10.3.0.1/24"),
        ("eos-leaf1", "Vlan100", "10.1.100.1/24"),
        ("eos-leaf1", "Vlan150", "10.1.150.1/24"),
        ("ios-gw1", "GigabitEthernet0/1", "192.168.1.1/24"),
        ("ios-gw1", "GigabitEthernet0/1", "192.168.1.254/24"),
        ("ios-gw1", "GigabitEthernet0/2", "192.168.2.254/24"),
        ("nx-gw1", "Vlan10", "10.10.10.1/24"),
        ("nx-gw1", "Vlan20", "10.20.0.1/24"),
    ]
    .map(|(h, i, a)| (h.to_owned(), i.to_owned(), a.to_owned()));
    assert_eq!(virtuals, expect);
    assert!(addresses(&p, AddressKind::Primary)
        .iter()
        .all(|(_, i, _)| i != "Vlan150"));
    // Each redundant pair is one segment; the shut SVIs and the anycast-only SVIs make
    // no link.
    assert_eq!(
        links(&p),
        [
            "eos-leaf1:Ethernet3-eos-leaf2:Ethernet3",
            "eos-leaf1:Vlan100-eos-leaf2:Vlan100",
            "ios-gw1:GigabitEthernet0/1-ios-gw2:GigabitEthernet0/1",
            "ios-gw1:GigabitEthernet0/2-ios-gw2:GigabitEthernet0/2",
            "nx-gw1:Vlan10-nx-gw2:Vlan10",
            "nx-gw1:Vlan20-nx-gw2:Vlan20",
        ]
    );
    let (_dir, db, f) = imported("gateways");
    assert!(f.duplicates.is_empty(), "{:#?}", f.duplicates);
    let down = db
        .show(olav::state::ShowKind::Interfaces, Some("nx-gw1"))
        .expect("show");
    let state_of = |name: &str| {
        down.rows
            .iter()
            .find(|r| r[1] == name)
            .map(|r| r[2].clone())
            .unwrap_or_default()
    };
    assert_eq!(
        (state_of("Vlan1"), state_of("Vlan10")),
        ("down".into(), "up".into())
    );
}

/// Static routes carry whether they can be installed: next hop on an active connected
/// subnet, resolved through another usable static route (IOS), a discard route, an exit
/// interface that is up — or not: exit interface shut or missing, next hop on a shut
/// interface, resolved only through an unusable route, Junos next hops off-link without
/// `resolve`; next hops only a routing protocol can resolve are marked as such.
#[test]
fn static_routes_carry_whether_they_can_be_active() {
    let p = parsed("static-routes");
    let activity = |host: &str, prefix: &str| {
        p.devices
            .iter()
            .find(|d| d.hostname == host)
            .and_then(|d| {
                d.config
                    .static_routes
                    .iter()
                    .find(|r| r.prefix.to_string() == prefix)
            })
            .map(|r| r.activity)
            .unwrap_or_else(|| panic!("no route {prefix} on {host}"))
    };
    use RouteActivity::*;
    let expect = [
        ("rt1", "192.0.2.0/24", Usable),
        ("rt1", "198.51.100.0/24", InterfaceDown),
        ("rt1", "198.51.101.0/24", Unresolved),
        ("rt1", "203.0.113.0/24", Usable),
        ("rt1", "203.0.114.0/24", Unresolved),
        ("rt1", "10.99.0.0/16", Usable),
        ("rt1", "10.50.0.0/16", Usable),
        ("rt1", "0.0.0.0/0", InterfaceDown),
        ("rt1", "172.16.0.0/16", ViaRouting),
        ("jr1", "10.60.0.0/16", Usable),
        ("jr1", "10.61.0.0/16", Unresolved),
        ("jr1", "10.62.0.0/16", ViaRouting),
        ("jr1", "10.63.0.0/16", Usable),
        ("jr1", "10.64.0.0/16", Unresolved),
    ];
    for (host, prefix, want) in expect {
        assert_eq!(activity(host, prefix), want, "{host} {prefix}");
    }
    // Stored and shown: `olav state show routes` has the column.
    let (_dir, db, _) = imported("static-routes");
    let t = db
        .show(olav::state::ShowKind::Routes, Some("rt1"))
        .expect("show");
    let col = t
        .columns
        .iter()
        .position(|c| c == "activity")
        .expect("activity column");
    let shut = t
        .rows
        .iter()
        .find(|r| r[2] == "198.51.100.0/24")
        .expect("row");
    assert_eq!(shut[col], "interface-down");
}

/// Two devices reusing one /31 on several SVIs (one per VRF) or subinterfaces (one per
/// tag) are adjacent once per VLAN, never across VLANs; a tagged subinterface never meets
/// an untagged port; a VRF meets the global table of its neighbour (VRF names are
/// device-local).
#[test]
fn links_follow_vlans_not_vrf_names() {
    assert_eq!(
        links(&parsed("vlans-vrfs")),
        [
            "mlag-a:Vlan3010-mlag-b:Vlan3010",
            "mlag-a:Vlan3020-mlag-b:Vlan3020",
            "mlag-a:Vlan4093-mlag-b:Vlan4093",
            "pe-1:GigabitEthernet1.100-pe-2:GigabitEthernet1.100",
            "pe-1:GigabitEthernet1.200-pe-2:GigabitEthernet1.200",
            "pe-1:GigabitEthernet3-pe-2:GigabitEthernet3",
        ]
    );
}

/// With Batfish's layer-1 topology, devices it names are adjacent only through their
/// cables: through a switch's access ports on one VLAN (not another), over a port-channel
/// whose members are cabled, never over an uncabled shared subnet or a shared segment
/// whose switch is not in the snapshot. A device the file does not name keeps subnet
/// inference (Batfish's rule). Names in the file resolve as written (`R1`, `Gi0/1`, `Et2`).
#[test]
fn layer1_topology_is_the_truth_for_cabled_devices() {
    assert_eq!(
        links(&parsed("layer1")),
        [
            "r1:GigabitEthernet0/1-r2:GigabitEthernet0/1",
            "r1:GigabitEthernet0/1-sw1:Vlan10",
            "r1:GigabitEthernet0/10-r4:GigabitEthernet0/10",
            "r1:Port-channel1-r2:Port-channel1",
            "r2:GigabitEthernet0/1-sw1:Vlan10",
            "r2:GigabitEthernet0/10-r4:GigabitEthernet0/10",
            "r3:GigabitEthernet0/10-r4:GigabitEthernet0/10",
        ]
    );
    // Without the file, the same configs give the subnet mesh Batfish infers.
    let tmp = tempfile::tempdir().expect("tempdir");
    common::copy_dir(
        &fixture("layer1").join("configs"),
        &tmp.path().join("configs"),
    );
    let bare = common::parsed(tmp.path());
    let bare = links(&bare);
    for l in [
        "r1:GigabitEthernet0/10-r2:GigabitEthernet0/10",
        "r1:GigabitEthernet0/4-r2:GigabitEthernet0/4",
        "r1:GigabitEthernet0/1-r3:GigabitEthernet0/1",
    ] {
        assert!(bare.iter().any(|x| x == l), "{l} in {bare:?}");
    }
}

/// Every file of the snapshot's `batfish/` folder is stored byte for byte, listed by
/// `state show files`, printed by `state file`, and part of the snapshot's digest.
#[test]
fn batfish_folder_is_kept_in_the_state_db() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("snap");
    common::copy_dir(&fixture("layer1"), &snap);
    let db = tmp.path().join("s.db");
    let olav = |args: &[&str]| {
        let out = common::olav(tmp.path())
            .arg("--db")
            .arg(&db)
            .args(args)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let snap_arg = snap.to_string_lossy().into_owned();
    olav(&["state", "import", &snap_arg]);
    let files = olav(&["--format", "json", "state", "show", "files"]);
    let files: serde_json::Value = serde_json::from_str(&files).expect("json");
    let paths: Vec<&str> = files
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["path"].as_str())
        .collect();
    assert_eq!(
        paths,
        [
            "batfish/extra/notes.txt",
            "batfish/isp_config.json",
            "batfish/layer1_topology.json"
        ]
    );
    let isp = std::fs::read(snap.join("batfish/isp_config.json")).expect("read");
    assert_eq!(
        olav(&["state", "file", "batfish/isp_config.json"]).as_bytes(),
        isp
    );
    assert!(olav(&["state", "import", &snap_arg]).contains("same files as the previous import"));
    // A changed batfish/ file is a changed snapshot.
    std::fs::write(snap.join("batfish/extra/notes.txt"), "changed\n").expect("write");
    assert!(!olav(&["state", "import", &snap_arg]).contains("same files"));
    let missing = common::olav(tmp.path())
        .arg("--db")
        .arg(&db)
        .args(["state", "file", "batfish/runtime_data.json"])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("batfish/isp_config.json"));
}

/// EOS BGP unnumbered (`neighbor interface Ethernet1-2 peer-group G [remote-as N]`): one
/// interface peering per interface, linked over the cable it peers on, and matched as
/// Batfish matches them — over a point-to-point link with the AS numbers crossed.
#[test]
fn bgp_unnumbered_peers_match_over_their_cables() {
    use olav::checks::bgp::{SessionType, Status};
    use olav::model::BgpPeer;
    let p = parsed("unnumbered");
    let spine = p
        .devices
        .iter()
        .find(|d| d.hostname == "spine")
        .expect("spine");
    let peers: Vec<(String, Option<u32>)> = spine
        .config
        .bgp
        .iter()
        .flat_map(|b| &b.neighbors)
        .map(|n| (n.peer.to_string(), n.peer_asn))
        .collect();
    assert_eq!(
        peers,
        [
            ("Ethernet1".to_owned(), Some(65001)),
            ("Ethernet2".to_owned(), Some(65001)),
            ("Ethernet3".to_owned(), Some(65002)),
        ]
    );
    assert!(spine
        .config
        .bgp
        .iter()
        .flat_map(|b| &b.neighbors)
        .all(|n| matches!(n.peer, BgpPeer::Interface(_))));
    assert_eq!(
        links(&p),
        [
            "leaf1:Ethernet1-spine:Ethernet1",
            "leaf1:Ethernet2-spine:Ethernet2",
            "leaf2:Ethernet1-spine:Ethernet3",
        ]
    );
    let (_dir, db, f) = imported("unnumbered");
    let row = |node: &str, iface: &str| {
        f.bgp
            .iter()
            .find(|s| s.node == node && s.local_interface.as_deref() == Some(iface))
            .unwrap_or_else(|| panic!("no row {node} {iface}: {:#?}", f.bgp))
    };
    for (node, iface, remote, remote_iface) in [
        ("spine", "Ethernet1", "leaf1", "Ethernet1"),
        ("spine", "Ethernet2", "leaf1", "Ethernet2"),
        ("leaf1", "Ethernet1", "spine", "Ethernet1"),
        ("leaf1", "Ethernet2", "spine", "Ethernet2"),
    ] {
        let s = row(node, iface);
        assert_eq!(
            (
                s.configured_status,
                s.session_type,
                s.remote_node.as_deref(),
                s.remote_interface.as_deref(),
                s.remote_ip.as_str()
            ),
            (
                Status::UniqueMatch,
                Some(SessionType::EbgpSinglehop),
                Some(remote),
                Some(remote_iface),
                ""
            ),
            "{node} {iface}"
        );
    }
    // The AS numbers do not cross over spine Ethernet3 – leaf2 Ethernet1; leaf2's
    // Ethernet2 has no cable.
    assert_eq!(
        row("spine", "Ethernet3").configured_status,
        Status::HalfOpen
    );
    assert_eq!(
        row("leaf2", "Ethernet1").configured_status,
        Status::HalfOpen
    );
    let lonely = row("leaf2", "Ethernet2");
    assert_eq!(
        (lonely.configured_status, lonely.remote_node.as_deref()),
        (Status::HalfOpen, None)
    );
    // Stored as interface sessions.
    let bgp = db
        .show(olav::state::ShowKind::Bgp, Some("spine"))
        .expect("show");
    let col = bgp.columns.iter().position(|c| c == "peer").expect("peer");
    let shown: Vec<&serde_json::Value> = bgp.rows.iter().map(|r| &r[col]).collect();
    assert_eq!(shown, ["Ethernet1", "Ethernet2", "Ethernet3"]);

    // Without the cabling nothing pairs the interfaces: Batfish has no point-to-point
    // link either, so every unnumbered peering is half open.
    let tmp = tempfile::tempdir().expect("tempdir");
    common::copy_dir(
        &fixture("unnumbered").join("configs"),
        &tmp.path().join("configs"),
    );
    let bare = common::parsed(tmp.path());
    assert!(bare.links.is_empty());
    let db = common::state_db(&tmp.path().join("s.db"), &bare);
    let f = checks::run(&Model::from_state(&db).expect("model"), &[]);
    assert!(f
        .bgp
        .iter()
        .all(|s| s.configured_status == Status::HalfOpen));
}

/// A state DB written before these migrations keeps its BGP sessions when the table is
/// rebuilt for unnumbered peerings, and gains the new columns and table.
#[test]
fn older_state_dbs_migrate_with_their_sessions() {
    use olav::state::schema::MIGRATIONS;
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("old.db");
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        // The five migrations every DB had before static-route activity.
        for (i, sql) in MIGRATIONS.iter().take(5).enumerate() {
            conn.execute_batch(sql).expect("migration");
            conn.pragma_update(None, "user_version", (i + 1) as i64)
                .expect("version");
        }
        conn.execute_batch(
            "INSERT INTO device (hostname, vendor, os, status, source_file) VALUES ('r1', 'cisco', 'ios', 'active', 'configs/r1.cfg');
             INSERT INTO bgp_session (hostname, vrf, peer_address, peer_asn, source_file) VALUES ('r1', 'default', '10.0.0.2', 65002, 'configs/r1.cfg');
             INSERT INTO interface (hostname, ifname, admin_state, source_file) VALUES ('r1', 'Ethernet1', 'up', 'configs/r1.cfg');
             INSERT INTO ip_address (hostname, ifname, address, prefix, kind, source_file) VALUES ('r1', 'Ethernet1', '10.0.0.1', '10.0.0.0/31', 'primary', 'configs/r1.cfg');
             INSERT INTO link (hostname_a, ifname_a, hostname_b, ifname_b, source, status, source_file) VALUES ('r1', 'Ethernet1', 'r2', 'Ethernet1', 'inferred', 'up', 'configs/');
             INSERT INTO static_route (hostname, prefix, next_hop, source_file) VALUES ('r1', '0.0.0.0/0', '10.0.0.0', 'configs/r1.cfg');",
        )
        .expect("rows");
    }
    let db = StateDb::open(&path).expect("migrates");
    // The tables as SQLite holds them: the state layer keeps its connection to itself.
    let raw = rusqlite::Connection::open(&path).expect("open");
    assert_eq!(
        db.schema_version().expect("version"),
        MIGRATIONS.len() as i64
    );
    let (peer, asn, iface): (String, i64, Option<String>) = raw
        .query_row(
            "SELECT peer_address, peer_asn, peer_interface FROM bgp_session",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("row kept");
    assert_eq!((peer.as_str(), asn, iface), ("10.0.0.2", 65002, None));
    // The tables rebuilt without IN lists in their checks keep their rows and checks.
    let kept: (String, String, String) = raw
        .query_row(
            "SELECT a.kind, l.source, r.prefix FROM ip_address a, link l, static_route r",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("rows kept");
    assert_eq!(
        kept,
        ("primary".into(), "inferred".into(), "0.0.0.0/0".into())
    );
    assert!(raw
        .execute("UPDATE ip_address SET kind = 'anycast'", [])
        .is_err());
    // Exactly one of address, range and interface: a row with none is refused.
    assert!(raw
        .execute(
            "INSERT INTO bgp_session (hostname, source_file) VALUES ('r1', 'configs/r1.cfg')",
            []
        )
        .is_err());
    assert_eq!(
        db.snapshot_file_paths().expect("table"),
        Vec::<String>::new()
    );
}

/// The stored `batfish/` files are what the Batfish client sends with the configs.
#[test]
fn stored_batfish_files_are_the_ones_sent_to_batfish() {
    let (_dir, db, _) = imported("layer1");
    let sent = olav::batfish::snapshot::extra_files(&db).expect("files");
    let paths: Vec<&str> = sent.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "batfish/extra/notes.txt",
            "batfish/isp_config.json",
            "batfish/layer1_topology.json"
        ]
    );
    let l1 = std::fs::read(fixture("layer1").join("batfish/layer1_topology.json")).expect("read");
    assert_eq!(sent[2].1, l1);
}

/// Real labs of issue #27 (`fixtures/real-networks/`).
fn real(lab: &str) -> ParsedSnapshot {
    common::parsed(&common::fixture("real-networks").join(lab))
}

/// Loopbacks never form links (lab `ospf_lab_validation`): six routers with `Loopback123`
/// (NX-OS `loopback123`) in one /24 were a full mesh of 15 links; the devices' OSPF
/// neighbours are the six physical links, which stay.
#[test]
fn loopbacks_never_form_links() {
    let p = real("ospf_lab_validation");
    assert_eq!(
        links(&p),
        [
            "R1-ios:Ethernet1/0-R3-iosxe:GigabitEthernet1",
            "R1-ios:Ethernet1/1-R5-nxos:Ethernet1/1",
            "R1-ios:Ethernet2/0-R4-ios:Ethernet2/0",
            "R1-ios:Ethernet2/7-R6-ios:Ethernet2/7",
            "R1-ios:GigabitEthernet0/0-R2-ios:GigabitEthernet0/0",
            "R3-iosxe:GigabitEthernet2-R7-iosxe:GigabitEthernet2",
        ]
    );
    // Every vendor's loopback naming.
    let lo = |name: &str| {
        let mut i = olav::model::Interface::new(name.to_owned(), 1);
        i.addresses.push(olav::model::InterfaceAddress {
            address: "192.168.123.2/24".parse().expect("net"),
            kind: AddressKind::Primary,
            line: 2,
        });
        olav::import::links::may_link(&i)
    };
    for name in ["Loopback123", "loopback0", "lo0", "lo0.5"] {
        assert!(!lo(name), "{name}");
    }
    assert!(lo("GigabitEthernet1"));
}

/// An SVI is up only while an active port carries its VLAN (lab
/// `nxos_l3_vlan_no_active_member`: VLANs 10 and 2000's only members are a shut
/// port-channel and a shut port; the devices show `Vlan2000 is down (VLAN/BD is down)` and
/// the iBGP session over it Idle). No link on the down SVIs, with or without the layer-1
/// file, and the session is not UNIQUE_MATCH.
#[test]
fn an_svi_without_an_active_member_is_down() {
    let lab = common::fixture("real-networks").join("nxos_l3_vlan_no_active_member");
    for host in ["nxos1", "nxos2"] {
        let shown =
            std::fs::read_to_string(lab.join(format!("show/{host}/show_interface_vlans.txt")))
                .expect("show");
        assert!(shown.contains("Vlan2000 is down (VLAN/BD is down)"));
        let sessions =
            std::fs::read_to_string(lab.join(format!("show/{host}/show_ip_bgp_all_neighbor.txt")))
                .expect("show");
        assert!(sessions.contains("BGP state = Idle"));
    }
    let p = common::parsed(&lab);
    for d in &p.devices {
        let mut down: Vec<&str> = d.down_svis.iter().map(String::as_str).collect();
        down.sort_unstable();
        assert_eq!(down, ["Vlan10", "Vlan2000"], "{}", d.hostname);
    }
    assert!(links(&p).is_empty(), "{:?}", links(&p));
    // Without the cabling, subnet inference would pair the SVIs too: autostate keeps them
    // apart (the routed ports' shared `192.168.122.0/24` remains).
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_dir(&lab.join("configs"), &dir.path().join("snap/configs"));
    let bare = common::parsed(&dir.path().join("snap"));
    assert_eq!(links(&bare), ["nxos1:Ethernet1/4-nxos2:Ethernet1/4"]);
    let db = common::state_db(&dir.path().join("s.db"), &p);
    let f = checks::run(&Model::from_state(&db).expect("model"), &[]);
    assert_eq!(f.bgp.len(), 2);
    for s in &f.bgp {
        assert!(s.is_problem(), "{s:?}");
        assert_ne!(s.configured_status.as_str(), "UNIQUE_MATCH");
    }
}

/// Unnumbered interfaces (lab `eos_ospf_unnumbered`: EOS `ip address unnumbered Loopback0`
/// on every spine–leaf port) borrow their loopback's address, read without a warning and
/// as the devices show it (`primaryIp` the loopback's /32, `unnumberedIntf` Loopback0);
/// their links come from the cabling, and the spine's blast radius isolates both leaves.
#[test]
fn unnumbered_interfaces_link_by_their_cables() {
    let lab = common::fixture("real-networks").join("eos_ospf_unnumbered");
    let p = common::parsed(&lab);
    for d in &p.devices {
        assert!(
            d.config
                .warnings
                .iter()
                .all(|w| !w.message.contains("cannot read")),
            "{:?}",
            d.config.warnings
        );
        let show = lab.join(format!("show/{}/show_interfaces_pipe_json.txt", d.hostname));
        let shown: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(show).expect("show")).expect("json");
        let loopback = d
            .config
            .interfaces
            .iter()
            .find(|i| i.name == "Loopback0")
            .and_then(|i| i.addresses.first())
            .map(|a| a.address.addr().to_string())
            .expect("Loopback0");
        let mut unnumbered = 0;
        for i in d
            .config
            .interfaces
            .iter()
            .filter(|i| i.name.starts_with("Ethernet"))
        {
            let a = &shown["interfaces"][&i.name]["interfaceAddress"][0];
            assert_eq!(
                a["unnumberedIntf"].as_str(),
                i.unnumbered.as_deref(),
                "{}",
                i.name
            );
            assert_eq!(a["primaryIp"]["address"].as_str(), Some(loopback.as_str()));
            assert_eq!(a["primaryIp"]["maskLen"].as_u64(), Some(32));
            // Modelled as borrowed, never as an address of its own.
            assert!(i.addresses.is_empty(), "{:?}", i.addresses);
            unnumbered += 1;
        }
        assert!(unnumbered > 0, "{}", d.hostname);
    }
    assert_eq!(
        links(&p),
        [
            "leaf1:Ethernet1-spine:Ethernet1",
            "leaf2:Ethernet1-spine:Ethernet2"
        ]
    );
    let dir = tempfile::tempdir().expect("tempdir");
    common::import(dir.path(), &lab);
    common::olav(dir.path())
        .args(["blast-radius", "--device", "spine"])
        .assert()
        .stdout(predicates::str::contains("isolated       leaf1, leaf2"));
}

/// A line Junos refuses at commit is a warning naming it, never normalised (lab
/// `junos_commit_check`: one config per prefix context, each loaded with `192.168.1.111/24`
/// or `2001:db8::1/32`, named after what `commit check` did with it).
#[test]
fn prefixes_junos_refuses_at_commit_are_warnings_never_normalised() {
    let p = real("junos_commit_check");
    assert_eq!(p.devices.len(), 24);
    let mut named = Vec::new();
    for d in &p.devices {
        let refused: Vec<_> = d
            .config
            .warnings
            .iter()
            .filter(|w| w.message.contains("Junos refuses this at commit"))
            .collect();
        if d.hostname.starts_with("accepts-") {
            assert!(refused.is_empty(), "{}: {refused:?}", d.hostname);
            continue;
        }
        let set_line = d
            .text
            .lines()
            .position(|l| l.contains("192.168.1.111/24") || l.contains("2001:db8::1/32"))
            .map(|i| i as u32 + 1);
        for w in &refused {
            assert_eq!(Some(w.line), set_line, "{}: {w:?}", d.hostname);
        }
        if !refused.is_empty() {
            named.push(d.hostname.as_str());
        }
        // The refused route is not read as another prefix.
        assert!(d.config.static_routes.is_empty(), "{}", d.hostname);
    }
    named.sort_unstable();
    // Firewall filters and policy conditions are read by the policy parser, which does
    // not check yet.
    assert_eq!(
        named,
        [
            "rejects-aggregate",
            "rejects-aggregate-v6",
            "rejects-generate",
            "rejects-generate-v6",
            "rejects-ospf-area-range",
            "rejects-ospf3-area-range",
            "rejects-static",
            "rejects-static-v6",
        ]
    );
}

/// Confederations (lab `iosxe_bgp_confederation`: members 65112 and 65134 of confederation
/// 65100, external peers 65105 and 65106): a peer outside the confederation sees the
/// identifier (it is configured `remote-as 65100`), members peer with their member AS;
/// every session the devices show Established is UNIQUE_MATCH.
#[test]
fn peers_outside_a_confederation_see_its_identifier() {
    let lab = common::fixture("real-networks").join("iosxe_bgp_confederation");
    let p = common::parsed(&lab);
    let dir = tempfile::tempdir().expect("tempdir");
    let db = common::state_db(&dir.path().join("s.db"), &p);
    let f = checks::run(&Model::from_state(&db).expect("model"), &[]);
    let row = |node: &str, remote: &str| {
        f.bgp
            .iter()
            .find(|s| s.node == node && s.remote_ip == remote)
            .unwrap_or_else(|| panic!("no row {node} → {remote}: {:#?}", f.bgp))
    };
    // D2 (member 65112) towards D5 (AS 65105, outside): the identifier.
    assert_eq!(row("D2", "10.25.31.2").local_as, Some(65100));
    // D2 towards D4 (member 65134): its member AS, an eBGP-like session.
    assert_eq!(row("D2", "192.168.123.4").local_as, Some(65112));
    // Every session the devices show Established (all of them) matches uniquely.
    let mut shown = 0;
    for d in &p.devices {
        let text = std::fs::read_to_string(
            lab.join(format!("show/{}/show_ip_bgp_all_neighbor.txt", d.hostname)),
        )
        .expect("show");
        let mut peer = None;
        for l in text.lines() {
            if let Some(rest) = l.strip_prefix("BGP neighbor is ") {
                peer = rest.split(',').next().map(str::to_owned);
            } else if l.contains("BGP state = Established") {
                let peer = peer.take().expect("a neighbor before its state");
                shown += 1;
                assert_eq!(
                    row(&d.hostname, &peer).configured_status.as_str(),
                    "UNIQUE_MATCH",
                    "{} → {peer}",
                    d.hostname
                );
            }
        }
    }
    assert_eq!(shown, 12);
}

/// Junos `system default-address-selection` (lab `junos_default_address_selection`: four
/// pairs on 10.1.1.1/30 – .2; SW1, SW3, SW5, SW7 pinned to `local-address 10.1.1.1`; SW2
/// and SW4 eBGP single-hop, SW6 and SW8 iBGP, all without `local-address`; SW4 and SW8
/// with a `lo0` address). eBGP single-hop sessions still leave from the interface facing
/// the peer (Established on the devices); iBGP ones from the default address: SW8 from its
/// loopback 2.2.2.2, SW6 (no loopback address) from its primary interface's, which the
/// device picks (169.254.0.2 shown) — both Active/Connect on the devices, neither may be
/// UNIQUE_MATCH, and SW6's source is said to be unknown rather than guessed.
#[test]
fn default_address_selection_sources_ibgp_from_the_loopback() {
    let lab = common::fixture("real-networks").join("junos_default_address_selection");
    let p = common::parsed(&lab);
    let dir = tempfile::tempdir().expect("tempdir");
    let db = common::state_db(&dir.path().join("s.db"), &p);
    let f = checks::run(&Model::from_state(&db).expect("model"), &[]);
    let mut compared = 0;
    for d in &p.devices {
        let text = std::fs::read_to_string(lab.join(format!(
            "show/{}/show_bgp_neighbor_pipe_display_json.txt",
            d.hostname
        )))
        .expect("show");
        let (v, _) = serde_json::Deserializer::from_str(&text)
            .into_iter::<serde_json::Value>()
            .next()
            .map(|v| (v.expect("json"), ()))
            .expect("a document");
        for peer in v["bgp-information"][0]["bgp-peer"]
            .as_array()
            .expect("peers")
        {
            let at = |k: &str| peer[k][0]["data"].as_str().unwrap_or_default().to_owned();
            let remote = at("peer-address");
            let remote = remote.split('+').next().unwrap_or_default();
            let local = at("local-address");
            let local = local.split('+').next().unwrap_or_default();
            let row = f
                .bgp
                .iter()
                .find(|s| s.node == d.hostname && s.remote_ip == remote)
                .unwrap_or_else(|| panic!("{} → {remote}: no row in {:?}", d.hostname, f.bgp));
            compared += 1;
            if at("peer-state") == "Established" {
                assert!(!row.is_problem(), "{row:?}");
            } else {
                assert_ne!(row.configured_status.as_str(), "UNIQUE_MATCH", "{row:?}");
            }
            match d.hostname.as_str() {
                // The source the device picked and the configuration does not name.
                "SW6" => {
                    assert_eq!(local, "169.254.0.2");
                    assert_eq!(
                        row.configured_status.as_str(),
                        "LOCAL_IP_UNKNOWN_STATICALLY"
                    );
                }
                _ => assert_eq!(row.local_ip.as_deref(), Some(local), "{row:?}"),
            }
        }
    }
    assert_eq!(compared, 8);
    // The routes over SW6's session are not guessed either.
    let sw6 = p.devices.iter().find(|d| d.hostname == "SW6").expect("SW6");
    let n = &sw6.config.bgp.as_ref().expect("bgp").neighbors[0];
    assert!(n.local_address_unknown && n.local_address.is_none());
    assert!(n
        .routing
        .unmodelled
        .iter()
        .any(|u| u.contains("default-address-selection")));
}

/// A peer on a file olav did not read (lab `checkpoint_simple_routing`: the IOS router
/// `ibgp` peers over iBGP with the Check Point firewall `cp_fwl`, which the import names
/// and skips; the router shows the session Established). The row is UNKNOWN_REMOTE, as
/// Batfish would say without that file, but `olav check` cannot call it a failure: it
/// says the file was not read and gives the partial verdict (exit 3), not FAIL.
#[test]
fn a_peer_on_an_unread_file_is_not_a_failure() {
    let lab = common::fixture("real-networks").join("checkpoint_simple_routing");
    let shown =
        std::fs::read_to_string(lab.join("show/ibgp/show_ip_bgp_all_neighbor.txt")).expect("show");
    assert!(shown.contains("BGP neighbor is 10.13.21.1,  remote AS 65001, internal link"));
    assert!(shown.contains("BGP state = Established"));
    let dir = tempfile::tempdir().expect("tempdir");
    let import = common::olav(dir.path())
        .args(["state", "import", "--db", "s.db"])
        .arg(&lab)
        .output()
        .expect("import");
    assert_eq!(import.status.code(), Some(3), "the import is partial");
    assert!(String::from_utf8_lossy(&import.stdout).contains("Check Point Gaia: not read yet"));
    let out = common::olav(dir.path())
        .args(["check", "--db", "s.db"])
        .output()
        .expect("check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(text.starts_with("PARTIAL"), "{text}");
    assert!(
        text.contains("BGP ibgp default → 10.13.21.1 (IBGP): UNKNOWN_REMOTE"),
        "{text}"
    );
    assert!(
        text.contains("1 file(s) were not read by the last import"),
        "{text}"
    );
    let json = common::olav(dir.path())
        .args(["check", "--db", "s.db", "--format", "json"])
        .output()
        .expect("check");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["verdict"], "PARTIAL");
    assert!(v["not_read"]
        .as_str()
        .is_some_and(|n| n.contains("UNKNOWN_REMOTE")));
    // Another problem besides is still a FAIL: only what olav cannot tell is partial.
    let fwl = lab.join("configs");
    let copy = dir.path().join("snap");
    common::copy_dir(&fwl, &copy.join("configs"));
    let ibgp = copy.join("configs/ibgp/show_running-config.txt");
    let text = std::fs::read_to_string(&ibgp).expect("config");
    let broken = text.replacen("router bgp 65001", "router bgp 65001\n neighbor 10.99.99.99 remote-as 65001\n neighbor 10.99.99.99 update-source Loopback99", 1);
    assert_ne!(broken, text);
    std::fs::write(&ibgp, broken).expect("write");
    common::olav(dir.path())
        .args(["state", "import", "--db", "s.db"])
        .arg(&copy)
        .assert()
        .code(3);
    let out = common::olav(dir.path())
        .args(["check", "--db", "s.db"])
        .output()
        .expect("check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.starts_with("FAIL"), "{text}");
}

/// A compatible session whose ends cannot reach each other is not a pass (lab
/// `junos_evpn_type5`: the leaves node2-1 and node2-2 peer over iBGP between their
/// loopbacks, 172.16.0.11 ↔ .12, but the spines export only their direct routes, so
/// neither leaf has a route to the other's loopback; the devices show the session Active
/// and every other one Established). `olav check` traces each end's address through the
/// routing model: NOT_ESTABLISHED on that pair, a FAIL; ESTABLISHED on the others.
#[test]
fn a_session_whose_ends_cannot_reach_each_other_is_not_established() {
    let lab = common::fixture("real-networks").join("junos_evpn_type5");
    let mut shown_down = Vec::new();
    for host in [
        "edge1", "node1-1", "node1-2", "node2-1", "node2-2", "router1",
    ] {
        let text = std::fs::read_to_string(lab.join(format!(
            "show/{host}/show_bgp_neighbor_pipe_display_json.txt"
        )))
        .expect("show");
        let v: serde_json::Value = serde_json::Deserializer::from_str(&text)
            .into_iter::<serde_json::Value>()
            .next()
            .expect("a document")
            .expect("json");
        for peer in v["bgp-information"][0]["bgp-peer"]
            .as_array()
            .expect("peers")
        {
            let at = |k: &str| peer[k][0]["data"].as_str().unwrap_or_default().to_owned();
            if at("peer-state") != "Established" {
                shown_down.push(format!("{host} {}", at("peer-address")));
            }
        }
    }
    assert_eq!(shown_down, ["node2-1 172.16.0.12", "node2-2 172.16.0.11"]);
    let dir = tempfile::tempdir().expect("tempdir");
    common::olav(dir.path())
        .args(["state", "import", "--db", "s.db", "-q"])
        .arg(&lab)
        .assert()
        .success();
    let out = common::olav(dir.path())
        .args(["check", "--db", "s.db"])
        .output()
        .expect("check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.starts_with("FAIL"), "{text}");
    assert!(
        text.contains("BGP node2-1 default → 172.16.0.12 (IBGP): UNIQUE_MATCH but NOT_ESTABLISHED — node2-1 has no route to 172.16.0.12 in VRF default"),
        "{text}"
    );
    let json = common::olav(dir.path())
        .args(["check", "--db", "s.db", "--format", "json"])
        .output()
        .expect("check");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let mut not_established: Vec<String> = Vec::new();
    let mut established = 0;
    for t in v["established"].as_array().expect("established") {
        match t["established_status"].as_str() {
            Some("NOT_ESTABLISHED") => not_established.push(format!(
                "{} {}",
                t["node"].as_str().unwrap_or_default(),
                t["remote_ip"].as_str().unwrap_or_default()
            )),
            Some("ESTABLISHED") => established += 1,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(not_established, shown_down);
    // Every loopback session the devices show Established: 12 rows (6 pairs).
    assert_eq!(established, 12);
    assert!(v["not_judged"].is_null());
    let codes: Vec<&str> = v["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(|p| p["code"].as_str())
        .collect();
    assert_eq!(codes, ["check.bgp.not_established"; 2]);
}

/// A DB from before runs recorded their process and plans their claim set keeps its runs
/// and their steps (the run table is rebuilt under run_step's references), marks its
/// stale `running` run interrupted, and finds its duplicate plans by the backfilled
/// claim set.
#[test]
fn older_run_and_plan_records_migrate_whole() {
    use olav::state::schema::MIGRATIONS;
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("old.db");
    let before = MIGRATIONS.len() - 2;
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.pragma_update(None, "foreign_keys", "ON").expect("fk");
        for (i, sql) in MIGRATIONS.iter().take(before).enumerate() {
            conn.execute_batch(sql).expect("migration");
            conn.pragma_update(None, "user_version", (i + 1) as i64)
                .expect("version");
        }
        conn.execute_batch(
            "INSERT INTO run (orchestrator, workflow, request, started, status) VALUES ('netops', 'w', 'killed', '2026-01-01T00:00:00Z', 'running');
             INSERT INTO run (orchestrator, workflow, request, started, finished, status, answer) VALUES ('netops', 'w', 'done', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 'ok', 'the answer');
             INSERT INTO run_step (run_id, seq, agent, duration_ms, attempts, skipped) VALUES (2, 1, 'analyzer', 5, 1, 0);
             INSERT INTO plan (plan_id, path, workflow, intent, title, created, state_version, status, updated) VALUES ('a', '/x/a.md', 'w', 'i', 't', '2026-01-01', 1, 'draft', '2026-01-01'), ('b', '/x/b.md', 'w', 'i', 't', '2026-01-01', 1, 'draft', '2026-01-01');
             INSERT INTO plan_claim (plan_id, kind, hostname, element) VALUES ('a', 'interface', 'r1', 'Gi1'), ('a', 'configures', 'r1', ''), ('b', 'configures', 'r1', ''), ('b', 'interface', 'r1', 'Gi1');",
        )
        .expect("rows");
    }
    let db = StateDb::open(&path).expect("migrates");
    assert_eq!(db.mark_interrupted().expect("marks"), 1);
    let raw = rusqlite::Connection::open(&path).expect("open");
    let runs: Vec<(i64, String, Option<String>)> = raw
        .prepare("SELECT id, status, answer FROM run ORDER BY id")
        .and_then(|mut s| {
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
        .expect("runs");
    assert_eq!(
        runs,
        vec![
            (1, "interrupted".to_owned(), None),
            (2, "ok".to_owned(), Some("the answer".to_owned()))
        ]
    );
    let steps: i64 = raw
        .query_row("SELECT COUNT(*) FROM run_step WHERE run_id = 2", [], |r| {
            r.get(0)
        })
        .expect("steps");
    assert_eq!(steps, 1);
    let sets: Vec<Option<String>> = raw
        .prepare("SELECT claim_set FROM plan ORDER BY plan_id")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("sets");
    assert_eq!(sets[0], sets[1]);
    assert_eq!(
        sets[0].as_deref(),
        Some("configures\u{1f}r1\u{1f}\u{1e}interface\u{1f}r1\u{1f}Gi1")
    );
    let fk: i64 = raw
        .query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .expect("fk check");
    assert_eq!(fk, 0);
}
