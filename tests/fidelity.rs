//! Fidelity to real networks (`fixtures/fidelity/`): each fixture holds one class of
//! constructs that real configurations use, and the tests assert what olav must read
//! from it, as the devices and Batfish see it.

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
