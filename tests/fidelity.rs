//! Fidelity to real networks (`fixtures/fidelity/`): each fixture holds one class of
//! constructs that real configurations use, and the tests assert what olav must read
//! from it, as the devices and Batfish see it.

mod common;

use assert_cmd::Command;
use olav::checks::model::Model;
use olav::checks::{self, Findings};
use olav::import::{parse_snapshot, ParsedSnapshot, Snapshot};
use olav::model::{AddressKind, RouteActivity};
use olav::state::StateDb;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fidelity")
        .join(name)
}

fn parsed(name: &str) -> ParsedSnapshot {
    parse_snapshot(&Snapshot::from_dir(&fixture(name)).expect("snapshot")).expect("parses")
}

/// The fixture imported into a fresh state DB, with the static checks' findings.
fn imported(name: &str) -> (tempfile::TempDir, StateDb, Findings) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut db = StateDb::open(&dir.path().join("s.db")).expect("db");
    db.import(&parsed(name)).expect("import");
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
    let bare = parse_snapshot(&Snapshot::from_dir(tmp.path()).expect("snapshot")).expect("parses");
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
        let out = Command::cargo_bin("olav")
            .expect("binary")
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
    let missing = Command::cargo_bin("olav")
        .expect("binary")
        .arg("--db")
        .arg(&db)
        .args(["state", "file", "batfish/runtime_data.json"])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("batfish/isp_config.json"));
}
