//! FRR (Cumulus Linux, SONiC) against the devices' own show output in
//! `fixtures/lab-validation/`: every IPv4 address olav reads is the one the device shows
//! on that interface, and the IPv4 BGP sessions olav matches are the ones the devices show
//! Established — no session the devices show Established flagged, none olav matches
//! shown down.

use crate::common;

use olav::checks::bgp::Status;
use olav::checks::model::Model;
use olav::import::ParsedSnapshot;
use olav::model::{AddressKind, Vendor};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const LABS: [&str; 3] = [
    "cumulusfrr_ospf_unnumbered",
    "cumulusfrr_bgp_community",
    "sonic_bgp_lab",
];

fn lab(name: &str) -> PathBuf {
    common::fixture("lab-validation").join(name)
}

fn read(p: &Path) -> Option<String> {
    std::fs::read(p)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// (interface, address/len) of the IPv4 addresses a device shows: Cumulus `show interface
/// vrf all` (`Interface X is …`, `inet A/L`), SONiC `show ip interfaces` (a table). The
/// host's own 127/8 and SONiC's docker bridge are not configuration.
fn shown_addresses(dir: &Path) -> Option<BTreeSet<(String, String)>> {
    let mut out = BTreeSet::new();
    if let Some(text) = read(&dir.join("vtysh_-c_show_interface_vrf_all.txt")) {
        let mut current = String::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("Interface ") {
                current = rest.split_whitespace().next().unwrap_or("").to_owned();
            } else if let Some(a) = line.trim().strip_prefix("inet ") {
                // `inet 10.0.0.1/32 unnumbered`: the address the port borrows.
                let a = a.split_whitespace().next().unwrap_or("");
                out.insert((current.clone(), a.to_owned()));
            }
        }
    } else {
        let text = read(&dir.join("show_ip_interfaces.txt"))?;
        for line in text.lines().skip(2) {
            let w: Vec<&str> = line.split_whitespace().collect();
            if let [name, addr, ..] = w.as_slice() {
                if addr.contains('/') && *name != "docker0" {
                    out.insert(((*name).to_owned(), (*addr).to_owned()));
                }
            }
        }
    }
    out.retain(|(_, a)| !a.starts_with("127."));
    Some(out)
}

/// The same of olav's model; an interface olav reads as unnumbered (a port holding only
/// its loopback's /32) shows the loopback's address it borrows, as the device does.
fn model_addresses(p: &ParsedSnapshot, host: &str) -> BTreeSet<(String, String)> {
    let Some(d) = p.devices.iter().find(|d| d.hostname == host) else {
        return BTreeSet::new();
    };
    let v4 = |name: &str| -> Vec<String> {
        d.config
            .interfaces
            .iter()
            .filter(|i| i.name == name)
            .flat_map(|i| &i.addresses)
            .filter(|a| a.kind != AddressKind::Virtual && a.address.addr().is_ipv4())
            .map(|a| a.address.to_string())
            .collect()
    };
    let mut out = BTreeSet::new();
    for i in &d.config.interfaces {
        for a in v4(&i.name) {
            out.insert((i.name.clone(), a));
        }
        if let Some(src) = &i.unnumbered {
            for a in v4(src).into_iter().filter(|a| a.ends_with("/32")) {
                out.insert((i.name.clone(), a));
            }
        }
    }
    out
}

/// The IPv4 BGP neighbors a device shows, with whether each is Established: Cumulus
/// `show ip bgp vrf all neighbors json` (by address or interface), SONiC `show bgp ipv4
/// unicast summary` (a count of prefixes in the last column: Established).
fn shown_neighbors(dir: &Path) -> Option<Vec<(String, bool)>> {
    if let Some(text) = read(&dir.join("vtysh_-c_show_ip_bgp_vrf_all_neighbors_json.txt")) {
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        let mut out = Vec::new();
        for vrf in v.as_object()?.values() {
            for (peer, n) in vrf.as_object().into_iter().flatten() {
                if let Some(state) = n.get("bgpState").and_then(|s| s.as_str()) {
                    out.push((peer.clone(), state == "Established"));
                }
            }
        }
        return Some(out);
    }
    let text = read(&dir.join("show_bgp_ipv4_unicast_summary.txt"))?;
    Some(
        text.lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let peer = w.first()?.parse::<std::net::Ipv4Addr>().ok()?;
                let last = w.last()?;
                Some((peer.to_string(), last.parse::<u64>().is_ok()))
            })
            .collect(),
    )
}

#[test]
fn addresses_agree_with_the_devices_show_output() {
    let mut compared = 0;
    for name in LABS {
        let p = common::parsed(&lab(name));
        for d in p.devices.iter().filter(|d| d.vendor == Vendor::Frr) {
            let Some(shown) = shown_addresses(&lab(name).join("show").join(&d.hostname)) else {
                continue;
            };
            let ours = model_addresses(&p, &d.hostname);
            assert_eq!(ours, shown, "{name} {}", d.hostname);
            compared += 1;
        }
    }
    assert_eq!(compared, 10, "every FRR device of the three labs compared");
}

#[test]
fn bgp_sessions_agree_with_the_devices_show_output() {
    let mut compared = 0;
    for name in LABS {
        let p = common::parsed(&lab(name));
        let dir = tempfile::tempdir().expect("tempdir");
        let db = common::state_db(&dir.path().join("s.db"), &p);
        let f = olav::checks::run(&Model::from_state(&db).expect("model"), &[]);
        for d in p.devices.iter().filter(|d| d.vendor == Vendor::Frr) {
            let Some(shown) = shown_neighbors(&lab(name).join("show").join(&d.hostname)) else {
                continue;
            };
            for (peer, established) in shown {
                let row = f.bgp.iter().find(|s| {
                    s.node == d.hostname
                        && (s.remote_ip == peer || s.local_interface.as_deref() == Some(&peer))
                });
                let up = row.is_some_and(|s| s.configured_status == Status::UniqueMatch);
                assert_eq!(
                    up, established,
                    "{name} {} {peer}: olav {row:?}, device Established {established}",
                    d.hostname
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 15, "{compared} sessions compared");
}
