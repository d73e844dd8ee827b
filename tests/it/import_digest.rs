//! The import's result, pinned: a digest of every state table's rows (in row order, so
//! readers that scan without ORDER BY see the same order) for the bundled fixtures and a
//! generated network. The digests were taken with the import as it was before it was made
//! fast; any change to what an import writes changes them.

use crate::common::{self, fixture};

use rusqlite::Connection;
use sha2::{Digest, Sha256};
use std::path::Path;

/// State tables and the order their rows are digested in. `collected_at` columns are left
/// out: without a `state.yaml` it is the newest file's modification time, which a
/// checkout sets.
const TABLES: &[(&str, &str)] = &[
    ("device", "rowid"),
    ("device_config", "hostname"),
    ("interface", "rowid"),
    ("ip_address", "rowid"),
    ("link", "rowid"),
    ("bgp_session", "rowid"),
    ("bgp_network", "rowid"),
    ("static_route", "rowid"),
    ("ospf_network", "rowid"),
    ("structure_def", "rowid"),
    ("structure_ref", "rowid"),
    ("service", "rowid"),
    ("service_endpoint", "rowid"),
    ("import_warning", "rowid"),
    ("batfish_file", "rowid"),
];

/// Row counts and a digest of every state table of the DB at `db`, plus the last
/// version's per-device config digests and the import's line counts.
fn digest(db: &Path) -> String {
    let conn = Connection::open(db).expect("open db");
    let dangling: i64 = conn
        .query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .expect("foreign key check");
    assert_eq!(
        dangling,
        0,
        "{}: rows refer to rows that are not there",
        db.display()
    );
    let mut h = Sha256::new();
    let mut counts = Vec::new();
    for (table, order) in TABLES {
        let cols: Vec<String> = conn
            .prepare(&format!("PRAGMA table_info({table})"))
            .and_then(|mut st| {
                st.query_map([], |r| r.get::<_, String>(1))?
                    .collect::<Result<_, _>>()
            })
            .expect("columns");
        let cols: Vec<&str> = cols
            .iter()
            .map(String::as_str)
            .filter(|c| *c != "collected_at")
            .collect();
        let mut st = conn
            .prepare(&format!(
                "SELECT {} FROM {table} ORDER BY {order}",
                cols.join(", ")
            ))
            .expect("select");
        let mut rows = st.query([]).expect("query");
        let mut n = 0u64;
        while let Some(r) = rows.next().expect("row") {
            for i in 0..cols.len() {
                let v: rusqlite::types::Value = r.get(i).expect("value");
                h.update(format!("{v:?}\u{1f}").as_bytes());
            }
            h.update(b"\n");
            n += 1;
        }
        h.update(format!("{table}={n}\n").as_bytes());
        counts.push(format!("{table}={n}"));
    }
    let mut st = conn
        .prepare(
            "SELECT hostname, config_hash FROM device_version
             WHERE state_version = (SELECT MAX(state_version) FROM import_run) ORDER BY hostname",
        )
        .expect("versions");
    let mut rows = st.query([]).expect("query");
    while let Some(r) = rows.next().expect("row") {
        let (host, hash): (String, String) = (r.get(0).expect("host"), r.get(1).expect("hash"));
        h.update(format!("{host}={hash}\n").as_bytes());
    }
    let run: (i64, i64, i64, i64, i64) = conn
        .query_row(
            "SELECT devices, files_skipped, warnings, lines_total, lines_unrecognised
             FROM import_run ORDER BY state_version DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .expect("import_run");
    h.update(format!("{run:?}").as_bytes());
    let hex: String = h
        .finalize()
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{hex} {}", counts.join(" "))
}

/// Imports `dir` through the library (snapshot read into memory) into a new DB.
fn import_in_memory(dir: &Path, db: &Path) {
    common::state_db(db, &common::parsed(dir));
}

/// Imports `dir` with `olav state import`, as users do.
fn import_cli(dir: &Path, db: &Path) {
    let tmp = db.parent().expect("db folder");
    let out = common::olav(tmp)
        .arg("--db")
        .arg(db)
        .args(["state", "import", "-q"])
        .arg(dir)
        .output()
        .expect("runs");
    assert!(
        matches!(out.status.code(), Some(0 | 3)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The digest of `dir` imported every way: through the library, through the binary into
/// a new DB, and through the binary over a DB holding another network's state (the
/// common re-import). All must agree.
fn digest_every_way(dir: &Path) -> String {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (lib, fresh, again) = (
        tmp.path().join("lib.db"),
        tmp.path().join("fresh.db"),
        tmp.path().join("again.db"),
    );
    import_in_memory(dir, &lib);
    import_cli(dir, &fresh);
    import_cli(&fixture("fidelity/vlans-vrfs"), &again);
    import_cli(dir, &again);
    let d = digest(&lib);
    assert_eq!(d, digest(&fresh), "{}: binary, new DB", dir.display());
    assert_eq!(d, digest(&again), "{}: binary, re-import", dir.display());
    d
}

#[test]
fn fixtures_import_unchanged() {
    let expected: &[(&str, &str)] = &[
        // The demo with its Junos router (merged after this pin was taken): every state
        // table compared row by row between the import before the two-pass one (da695fa)
        // and after it, identical.
        ("demo", "d59bad84bf4d57b071fc9608 device=18 device_config=18 interface=148 ip_address=107 link=31 bgp_session=43 bgp_network=3 static_route=15 ospf_network=40 structure_def=50 structure_ref=76 service=12 service_endpoint=22 import_warning=0 batfish_file=0"),
        ("nxos-site", "1e8eb262f9269a2b31f8ec9d device=3 device_config=3 interface=12 ip_address=9 link=2 bgp_session=3 bgp_network=1 static_route=2 ospf_network=6 structure_def=5 structure_ref=6 service=0 service_endpoint=0 import_warning=0 batfish_file=0"),
        ("fidelity/vlans-vrfs", "9854db6af34738af671d8fbb device=4 device_config=4 interface=22 ip_address=14 link=6 bgp_session=0 bgp_network=0 static_route=0 ospf_network=0 structure_def=0 structure_ref=0 service=0 service_endpoint=0 import_warning=0 batfish_file=0"),
        ("fidelity/layer1", "31803daf5b3d0a4f8e766dd8 device=5 device_config=5 interface=19 ip_address=12 link=7 bgp_session=0 bgp_network=0 static_route=0 ospf_network=0 structure_def=0 structure_ref=0 service=0 service_endpoint=0 import_warning=0 batfish_file=3"),
        ("fidelity/static-routes", "e24e050801f6984477a56156 device=2 device_config=2 interface=7 ip_address=5 link=0 bgp_session=1 bgp_network=0 static_route=14 ospf_network=0 structure_def=0 structure_ref=0 service=0 service_endpoint=0 import_warning=0 batfish_file=0"),
        ("fidelity/unnumbered", "c977c4c5f3dc1954df6a7de9 device=3 device_config=3 interface=9 ip_address=2 link=3 bgp_session=7 bgp_network=2 static_route=0 ospf_network=0 structure_def=3 structure_ref=6 service=0 service_endpoint=0 import_warning=0 batfish_file=1"),
        ("fidelity/gateways", "c91d0a38cc6e4bb2bc8ae8e1 device=6 device_config=6 interface=26 ip_address=32 link=6 bgp_session=0 bgp_network=0 static_route=0 ospf_network=0 structure_def=0 structure_ref=0 service=0 service_endpoint=0 import_warning=0 batfish_file=0"),
        ("checks/references", "789b7f08cc84e2890a1dbc2b device=1 device_config=1 interface=2 ip_address=2 link=0 bgp_session=2 bgp_network=0 static_route=0 ospf_network=0 structure_def=4 structure_ref=11 service=0 service_endpoint=0 import_warning=0 batfish_file=0"),
        ("checks/bgp-fidelity", "83deffdb873558a63ef79960 device=9 device_config=9 interface=14 ip_address=14 link=7 bgp_session=14 bgp_network=0 static_route=0 ospf_network=0 structure_def=0 structure_ref=0 service=0 service_endpoint=0 import_warning=0 batfish_file=0"),
        ("checks/junos", "af614de48e2b12598916dd54 device=4 device_config=4 interface=22 ip_address=13 link=3 bgp_session=10 bgp_network=0 static_route=1 ospf_network=0 structure_def=1 structure_ref=2 service=0 service_endpoint=0 import_warning=0 batfish_file=0"),
        ("checks/bgp", "f8518485114972b329126097 device=7 device_config=7 interface=13 ip_address=13 link=5 bgp_session=18 bgp_network=0 static_route=1 ospf_network=0 structure_def=2 structure_ref=2 service=0 service_endpoint=0 import_warning=1 batfish_file=0"),
    ];
    let mut got = Vec::new();
    for name in [
        "demo",
        "nxos-site",
        "fidelity/vlans-vrfs",
        "fidelity/layer1",
        "fidelity/static-routes",
        "fidelity/unnumbered",
        "fidelity/gateways",
        "checks/references",
        "checks/bgp-fidelity",
        "checks/junos",
        "checks/bgp",
    ] {
        got.push((name, digest_every_way(&fixture(name))));
    }
    let got: Vec<(&str, &str)> = got.iter().map(|(n, d)| (*n, d.as_str())).collect();
    assert_eq!(got, expected);
}

#[test]
fn generated_network_imports_unchanged() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("synth300");
    olav::synth::write(&dir, 300, 1).expect("synth");
    assert_eq!(
        digest_every_way(&dir),
        "d733bac935a408358cfbcf4f device=300 device_config=300 interface=4702 ip_address=3638 link=1251 bgp_session=126 bgp_network=4 static_route=300 ospf_network=600 structure_def=360 structure_ref=333 service=31 service_endpoint=31 import_warning=0 batfish_file=0"
    );
}
