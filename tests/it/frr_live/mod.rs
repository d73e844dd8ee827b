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
use std::collections::BTreeMap;
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

/// Routers whose every route agrees with FRR's, and sessions judged as FRR shows them,
/// measured (`docs/fidelity.md`, "Live FRR"): a regression fails.
const ROUTERS_AGREEING_FLOOR: usize = 9;
const SESSIONS_AGREEING_FLOOR: usize = 12;

/// A route reduced to what both sides show: protocol family (FRR shows every OSPF route
/// as `ospf`, eBGP and iBGP as `bgp`), distance, metric and next hops.
fn family(protocol: &str) -> &str {
    match protocol {
        "ospfIA" | "ospfE1" | "ospfE2" | "ospfIS" => "ospf",
        "ibgp" | "aggregate" => "bgp",
        p => p,
    }
}

/// One side's routes of one router: (VRF, prefix) → (family, distance, metric, hops).
type Table = BTreeMap<(String, String), (String, u64, u64, Vec<Hop>)>;

fn frr_table(routes: &[FrrRoute]) -> Table {
    routes
        .iter()
        .map(|r| {
            (
                (r.vrf.clone(), r.prefix.clone()),
                (
                    family(&r.protocol).to_owned(),
                    r.distance,
                    r.metric,
                    r.hops.clone(),
                ),
            )
        })
        .collect()
}

/// `olav routes --format json`'s rows per router (lower-cased), one next hop a row.
/// `local` rows are left out: FRR 8.4 shows no local routes.
fn olav_tables(rows: &serde_json::Value) -> BTreeMap<String, Table> {
    let mut out: BTreeMap<String, Table> = BTreeMap::new();
    for r in rows.as_array().into_iter().flatten() {
        let protocol = r["Protocol"].as_str().unwrap_or_default();
        if protocol == "local" {
            continue;
        }
        let h = &r["Next_Hop"];
        let ip = h["ip"].as_str().and_then(|s| s.parse::<IpAddr>().ok());
        let hop = match h["type"].as_str() {
            Some("discard") => Hop::Discard,
            Some("interface") => Hop::Via {
                ip,
                interface: h["interface"].as_str().map(str::to_owned),
            },
            _ => Hop::Via {
                ip,
                interface: None,
            },
        };
        let node = r["Node"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_lowercase();
        let key = (
            r["VRF"].as_str().unwrap_or_default().to_owned(),
            r["Network"].as_str().unwrap_or_default().to_owned(),
        );
        let e = out.entry(node).or_default().entry(key).or_insert_with(|| {
            (
                family(protocol).to_owned(),
                r["Admin_Distance"].as_u64().unwrap_or(0),
                r["Metric"].as_u64().unwrap_or(0),
                Vec::new(),
            )
        });
        e.3.push(hop);
        e.3.sort();
    }
    out
}

/// Whether olav's next hop is FRR's: the same gateway, or the same interface (and
/// gateway where both name one). olav may name only the gateway where FRR adds the
/// interface it resolved through.
fn same_hop(o: &Hop, f: &Hop) -> bool {
    match (o, f) {
        (Hop::Discard, Hop::Discard) => true,
        (
            Hop::Via {
                ip: oi,
                interface: None,
            },
            Hop::Via { ip: fi, .. },
        ) => oi.is_some() && oi == fi,
        (
            Hop::Via {
                ip: oi,
                interface: Some(o_if),
            },
            Hop::Via {
                ip: fi,
                interface: Some(f_if),
            },
        ) => olav::ifname::same(o_if, f_if) && oi.zip(*fi).is_none_or(|(a, b)| a == b),
        _ => false,
    }
}

fn same_hops(o: &[Hop], f: &[Hop]) -> bool {
    o.len() == f.len()
        && o.iter().all(|x| f.iter().any(|y| same_hop(x, y)))
        && f.iter().all(|y| o.iter().any(|x| same_hop(x, y)))
}

fn show_hops(hops: &[Hop]) -> String {
    hops.iter()
        .map(|h| match h {
            Hop::Discard => "discard".to_owned(),
            Hop::Via { ip, interface } => format!(
                "{}{}",
                ip.map(|i| i.to_string()).unwrap_or_default(),
                interface
                    .as_deref()
                    .map(|i| format!(" {i}"))
                    .unwrap_or_default()
            ),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The differences between olav's table and FRR's, one line each.
fn route_differences(olav: &Table, frr: &Table) -> Vec<String> {
    let show =
        |(p, d, m, h): &(String, u64, u64, Vec<Hop>)| format!("{p} [{d}/{m}] via {}", show_hops(h));
    let mut out = Vec::new();
    for (k, f) in frr {
        match olav.get(k) {
            None => out.push(format!("only FRR:  {} {} {}", k.0, k.1, show(f))),
            Some(o) if o.0 != f.0 || o.1 != f.1 || o.2 != f.2 || !same_hops(&o.3, &f.3) => out
                .push(format!(
                    "differs:   {} {}: olav {} / FRR {}",
                    k.0,
                    k.1,
                    show(o),
                    show(f)
                )),
            Some(_) => {}
        }
    }
    for (k, o) in olav {
        if !frr.contains_key(k) {
            out.push(format!("only olav: {} {} {}", k.0, k.1, show(o)));
        }
    }
    out
}

/// olav check's judgement of one FRR peer: Some(true) when olav finds the session and
/// expects it up, Some(false) when it flags it, None when it has no such session.
fn olav_judges_up(check: &serde_json::Value, router: &str, p: &FrrPeer) -> Option<bool> {
    let row = check["bgp"].as_array().into_iter().flatten().find(|s| {
        s["node"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(router))
            && s["vrf"].as_str() == Some(p.vrf.as_str())
            && (s["remote_ip"].as_str() == Some(p.peer.as_str())
                || (s["remote_ip"].as_str() == Some("")
                    && s["local_interface"].as_str() == Some(p.peer.as_str())))
    })?;
    let compatible = matches!(
        row["configured_status"].as_str(),
        Some("UNIQUE_MATCH" | "DYNAMIC_MATCH")
    );
    let unreachable = check["established"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|t| {
            t["node"] == row["node"]
                && t["vrf"] == row["vrf"]
                && t["remote_ip"] == row["remote_ip"]
                && t["established_status"].as_str() == Some("NOT_ESTABLISHED")
        });
    Some(compatible && !unreachable)
}

/// Imports each network with the olav binary and compares `olav routes` and `olav
/// check` with what FRR showed (the recorded output), router by router.
#[test]
fn olav_agrees_with_frr() {
    let (mut routers, mut routers_agree, mut routes, mut routes_agree) = (0, 0, 0, 0);
    let (mut sessions, mut sessions_agree, mut silent) = (0, 0, 0);
    say("network          router   FRR routes  olav routes  sessions (agree)  agree");
    for net in NETWORKS {
        let dir = net_dir(net);
        let tmp = tempfile::tempdir().expect("tempdir");
        common::import(tmp.path(), &dir);
        let out = common::olav(tmp.path())
            .args(["routes", "--format", "json"])
            .output()
            .expect("olav routes runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("routes JSON");
        let olav = olav_tables(&v["routes"]);
        let marked: Vec<String> = v["incomplete"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["node"].as_str().map(str::to_lowercase))
            .collect();
        let out = common::olav(tmp.path())
            .args(["check", "--format", "json"])
            .output()
            .expect("olav check runs");
        let check: serde_json::Value = serde_json::from_slice(&out.stdout).expect("check JSON");
        let show = dir.join("show");
        for r in recorded_routers(&show) {
            let frr = frr_table(&frr_routes(&read_json(&routes_file(&show, &r))));
            let mine = olav.get(&r.to_lowercase()).cloned().unwrap_or_default();
            let diffs = route_differences(&mine, &frr);
            let differing = diffs.iter().filter(|d| !d.starts_with("only olav")).count();
            let peers = frr_peers(&read_json(&peers_file(&show, &r)));
            let mut session_lines = Vec::new();
            let mut agree_here = 0;
            for p in &peers {
                let judged = olav_judges_up(&check, &r, p);
                if judged == Some(p.established) {
                    agree_here += 1;
                } else {
                    session_lines.push(format!(
                        "session:   {} {}: FRR {}, olav {}",
                        p.vrf,
                        p.peer,
                        if p.established {
                            "Established"
                        } else {
                            "not Established"
                        },
                        match judged {
                            Some(true) => "expects it up",
                            Some(false) => "flags it",
                            None => "has no such session",
                        }
                    ));
                }
            }
            let is_marked = marked.contains(&r.to_lowercase());
            routers += 1;
            routers_agree += usize::from(diffs.is_empty());
            silent += usize::from(!diffs.is_empty() && !is_marked);
            routes += frr.len();
            routes_agree += frr.len() - differing;
            sessions += peers.len();
            sessions_agree += agree_here;
            say(&format!(
                "{net:<16} {r:<8} {:>10}  {:>11}  {:>8} ({agree_here})  {}",
                frr.len(),
                mine.len(),
                peers.len(),
                match (diffs.is_empty(), is_marked) {
                    (true, _) => "yes",
                    (false, true) => "NO (marked incomplete)",
                    (false, false) => "NO, SILENTLY",
                },
            ));
            for l in diffs.iter().chain(&session_lines) {
                say(&format!("      {l}"));
            }
        }
    }
    say(&format!(
        "\nrouters agreeing {routers_agree}/{routers} ({silent} differing without an incomplete mark); FRR routes olav agrees on {routes_agree}/{routes}; sessions judged as FRR shows them {sessions_agree}/{sessions}"
    ));
    assert!(
        routers_agree >= ROUTERS_AGREEING_FLOOR,
        "routers agreeing with FRR fell to {routers_agree} (floor {ROUTERS_AGREEING_FLOOR})"
    );
    assert!(
        sessions_agree >= SESSIONS_AGREEING_FLOOR,
        "sessions judged as FRR shows them fell to {sessions_agree} (floor {SESSIONS_AGREEING_FLOOR})"
    );
}
