//! Real FRR as ground truth (issue 29): small networks written for this
//! (`fixtures/frr-live/<net>/configs/<router>/frr.conf` and their cabling), run by FRR's
//! own daemons in network namespaces ([`harness`]), and what the daemons show compared
//! with what olav computes from the same configs.
//!
//! Two halves, so the comparison also runs where FRR cannot:
//! - `recorded_output_is_current`: where the machine allows (root, `ip netns`, Debian's
//!   `frr`), brings each network up, waits for OSPF and BGP to converge and checks the
//!   daemons still show what `fixtures/frr-live/<net>/show/` records (routes, sessions).
//!   `OLAV_FRR_LIVE=record` rewrites the recorded output instead; `OLAV_FRR_LIVE=0` skips
//!   the live half. Where it cannot run, it says why and passes.
//! - `olav_agrees_with_frr`: imports each network with the olav binary and compares
//!   `olav routes` and `olav check` with the recorded output, router by router.

mod harness;

use crate::common;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The networks, folders of `fixtures/frr-live/`.
const NETWORKS: [&str; 3] = ["ospf-triangle", "bgp-unnumbered", "ibgp-ospf"];

/// How long a network may take to converge, and how long its routing tables must then
/// stay unchanged (longer than FRR's SPF hold time, 5 s by default).
const CONVERGE: Duration = Duration::from_secs(120);
const QUIET: Duration = Duration::from_secs(6);

fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn net_dir(net: &str) -> PathBuf {
    common::fixture("frr-live").join(net)
}

/// One next hop as FRR shows it. An IPv6 link-local gateway (BGP unnumbered) is kept
/// by its interface only: its address is derived from a MAC that changes every run, and
/// olav names the interface.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Hop {
    Discard,
    Via {
        ip: Option<IpAddr>,
        interface: Option<String>,
    },
}

/// One selected route of `show ip route vrf all json`: its next hops sorted.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct FrrRoute {
    vrf: String,
    prefix: String,
    protocol: String,
    distance: u64,
    metric: u64,
    hops: Vec<Hop>,
}

/// One BGP peer of `show bgp vrf all summary json`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct FrrPeer {
    vrf: String,
    peer: String,
    established: bool,
}

fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The selected routes. FRR keys the table by prefix, or by VRF then prefix when there
/// are VRFs; each route names its VRF itself.
fn frr_routes(v: &serde_json::Value) -> Vec<FrrRoute> {
    let mut tables = Vec::new();
    for (k, body) in v.as_object().into_iter().flatten() {
        if body.is_array() {
            tables.push((k, body));
        } else {
            tables.extend(body.as_object().into_iter().flatten());
        }
    }
    let mut out: Vec<FrrRoute> = tables
        .into_iter()
        .flat_map(|(_, rows)| rows.as_array().into_iter().flatten())
        .filter(|r| r["selected"].as_bool() == Some(true))
        .map(|r| {
            let mut hops: Vec<Hop> = r["nexthops"]
                .as_array()
                .into_iter()
                .flatten()
                // A recursive route shows its gateway, then the hops resolving it:
                // the gateway is the route's next hop, as olav and Batfish name it.
                .filter(|h| h["active"].as_bool() == Some(true) && h["resolver"].as_bool() != Some(true))
                .map(|h| {
                    if h["blackhole"].as_bool() == Some(true) || h["unreachable"].as_bool() == Some(true) {
                        return Hop::Discard;
                    }
                    let ip = h["ip"]
                        .as_str()
                        .and_then(|s| s.parse::<IpAddr>().ok())
                        .filter(|ip| !matches!(ip, IpAddr::V6(v6) if v6.segments()[0] & 0xffc0 == 0xfe80));
                    Hop::Via {
                        ip,
                        interface: h["interfaceName"].as_str().map(str::to_owned),
                    }
                })
                .collect();
            hops.sort();
            hops.dedup();
            FrrRoute {
                vrf: r["vrfName"].as_str().unwrap_or("default").to_owned(),
                prefix: r["prefix"].as_str().unwrap_or_default().to_owned(),
                protocol: r["protocol"].as_str().unwrap_or_default().to_owned(),
                distance: r["distance"].as_u64().unwrap_or(0),
                metric: r["metric"].as_u64().unwrap_or(0),
                hops,
            }
        })
        .collect();
    out.sort();
    out
}

/// The IPv4 unicast peers and whether each is Established.
fn frr_peers(v: &serde_json::Value) -> Vec<FrrPeer> {
    let mut out = Vec::new();
    for (vrf, afs) in v.as_object().into_iter().flatten() {
        for (peer, p) in afs["ipv4Unicast"]["peers"]
            .as_object()
            .into_iter()
            .flatten()
        {
            out.push(FrrPeer {
                vrf: vrf.clone(),
                peer: peer.clone(),
                established: p["state"].as_str() == Some("Established"),
            });
        }
    }
    out.sort();
    out
}

/// The routers of a recorded network, by their show folders.
fn recorded_routers(show: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(show)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn routes_file(show: &Path, router: &str) -> PathBuf {
    show.join(router).join(harness::SHOWN[0].1)
}

fn peers_file(show: &Path, router: &str) -> PathBuf {
    show.join(router).join(harness::SHOWN[1].1)
}

/// Brings every network up in FRR and checks the daemons show what is recorded (or
/// records it, with `OLAV_FRR_LIVE=record`).
#[test]
fn recorded_output_is_current() {
    let mode = std::env::var("OLAV_FRR_LIVE").unwrap_or_default();
    if mode == "0" {
        say("frr-live: the live FRR run is skipped (OLAV_FRR_LIVE=0); olav_agrees_with_frr compares the recorded output");
        return;
    }
    if let Some(why) = harness::unavailable() {
        say(&format!(
            "frr-live: live FRR cannot run here — {why}. The recorded output (fixtures/frr-live/*/show) is still compared with olav by olav_agrees_with_frr"
        ));
        return;
    }
    // The networks come up side by side (each in namespaces of its own): the run takes
    // as long as the slowest one, not the sum.
    let runs: Vec<(&str, tempfile::TempDir, Result<Duration, String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = NETWORKS
            .into_iter()
            .map(|net| s.spawn(move || (net, bring_up_and_record(&net_dir(net)))))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                let (net, (fresh, took)) = h.join().expect("a network's thread");
                (net, fresh, took)
            })
            .collect()
    });
    for (net, fresh, took) in runs {
        let took = took.unwrap_or_else(|e| panic!("{net}: {e}"));
        say(&format!(
            "frr-live {net}: converged in {:.1} s",
            took.as_secs_f64()
        ));
        let dir = net_dir(net);
        let show = dir.join("show");
        if mode == "record" {
            let _ = std::fs::remove_dir_all(&show);
            common::copy_dir(fresh.path(), &show);
            say(&format!("frr-live {net}: recorded into {}", show.display()));
            continue;
        }
        let routers = recorded_routers(fresh.path());
        assert_eq!(
            routers,
            recorded_routers(&show),
            "{net}: the recorded routers differ (regenerate: OLAV_FRR_LIVE=record cargo test --test it frr_live)"
        );
        for r in &routers {
            let now = frr_routes(&read_json(&routes_file(fresh.path(), r)));
            let then = frr_routes(&read_json(&routes_file(&show, r)));
            assert_eq!(
                now, then,
                "{net} {r}: FRR's routes differ from the recorded ones (regenerate: OLAV_FRR_LIVE=record cargo test --test it frr_live)"
            );
            let now = frr_peers(&read_json(&peers_file(fresh.path(), r)));
            let then = frr_peers(&read_json(&peers_file(&show, r)));
            assert_eq!(
                now, then,
                "{net} {r}: FRR's BGP sessions differ from the recorded ones"
            );
        }
    }
}

/// Brings one network up, waits for it to converge and records what its routers show
/// into a new folder; the network is torn down before this returns.
fn bring_up_and_record(dir: &Path) -> (tempfile::TempDir, Result<Duration, String>) {
    let fresh = tempfile::tempdir().expect("tempdir");
    let took = harness::Live::up(dir).and_then(|live| {
        let took = live.converge(CONVERGE, QUIET)?;
        live.record(fresh.path())?;
        Ok(took)
    });
    (fresh, took)
}
