//! The shared corpus of real device configs (`../shared/reference/configs`): every
//! config imports without a panic, and for each lab the interfaces, addresses and BGP
//! neighbors extracted agree with the devices' own show output (Cisco and Arista text or
//! JSON; Junos `| display json`).
//!
//! Skips (and says so) when the folder does not exist.

use crate::common;

use olav::checks::reach::{Established, Reachability};
use olav::import::{parse_snapshot, ParsedDevice, Snapshot};
use olav::model::{AddressKind, BgpPeer, Vendor};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The labs: the shared corpus, or `OLAV_CORPUS` (a folder of labs laid out alike, such
/// as the held-out labs `benches/routing_held_out.sh` extracts) to measure elsewhere.
fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("OLAV_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/configs/lab-validation"),
        PathBuf::from,
    );
    if p.is_dir() {
        Some(p)
    } else {
        say(&format!(
            "SKIPPED: {} does not exist; corpus checks not run",
            p.display()
        ));
        None
    }
}

fn labs(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("corpus readable")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("configs").is_dir())
        .collect();
    v.sort();
    v
}

/// (interface, address/len) pairs and interface names from a device's show output.
struct ShownInterfaces {
    names: BTreeSet<String>,
    addresses: BTreeSet<(String, String)>,
}

/// An EOS `| json` capture holding `key`. Some captures hold only `{"errors": ["This is
/// an unconverted command"]}` (`eos_bgp_weight_behavior_ribd`): the text capture beside
/// it is then the device's answer.
fn eos_json(show: &Path, file: &str, key: &str) -> Option<Value> {
    let text = std::fs::read_to_string(show.join(file)).ok()?;
    let v: Value = serde_json::from_str(&text).expect("show json");
    v.get(key).is_some().then_some(v)
}

fn shown_interfaces(show: &Path) -> Option<ShownInterfaces> {
    let mut names = BTreeSet::new();
    let mut addresses = BTreeSet::new();
    for file in [
        "show_interfaces_pipe_json.txt",
        "show_interfaces_pipe_json.json",
    ] {
        if let Some(v) = eos_json(show, file, "interfaces") {
            for (name, i) in v["interfaces"].as_object().expect("interfaces") {
                names.insert(name.clone());
                for a in i["interfaceAddress"].as_array().into_iter().flatten() {
                    let p = &a["primaryIp"];
                    if p["maskLen"].as_u64().unwrap_or(0) > 0 {
                        addresses.insert((
                            name.clone(),
                            format!("{}/{}", p["address"].as_str().unwrap_or(""), p["maskLen"]),
                        ));
                    }
                }
            }
            return Some(ShownInterfaces { names, addresses });
        }
    }
    let text = ["show_interfaces.txt", "show_interface.txt"]
        .iter()
        .find_map(|f| std::fs::read_to_string(show.join(f)).ok())?;
    let mut current = String::new();
    for line in text.lines() {
        if !line.starts_with(' ') && line.split_whitespace().nth(1) == Some("is") {
            current = line.split_whitespace().next().unwrap_or("").to_owned();
            names.insert(current.clone());
        } else if let Some(rest) = ["Internet address is ", "Internet Address is "]
            .iter()
            // NX-OS prints it after the description on the same line.
            .find_map(|m| line.find(m).map(|i| &line[i + m.len()..]))
        {
            let addr = rest.split([' ', ',']).next().unwrap_or("");
            // IOS-XR: `Internet address is Unknown` on an interface without one.
            if addr != "Unknown" {
                addresses.insert((current.clone(), addr.to_owned()));
            }
        }
    }
    Some(ShownInterfaces { names, addresses })
}

/// A device's BGP neighbor text: IOS and NX-OS one file; IOS-XR `show bgp all all
/// neighbors` (the default VRF) with `show bgp vrf all neighbors` when captured.
fn neighbor_text(show: &Path) -> Option<String> {
    if let Ok(t) = std::fs::read_to_string(show.join("show_bgp_all_all_neighbors.txt")) {
        let vrfs = std::fs::read_to_string(show.join("show_bgp_vrf_all_neighbors.txt"))
            .unwrap_or_default();
        return Some(format!("{t}\n{vrfs}"));
    }
    [
        "show_ip_bgp_all_neighbor.txt",
        "show_ip_bgp_neighbors_vrf_all.txt",
    ]
    .iter()
    .find_map(|f| std::fs::read_to_string(show.join(f)).ok())
}

/// (vrf, peer) → the local AS the device shows for that session, where it shows one
/// (EOS JSON always; IOS and NX-OS text only when a per-neighbor local-as is in force).
/// (vrf, peer, remote AS) of every BGP neighbor.
type Neighbors = BTreeSet<(String, String, u32)>;

type ShownLocalAs = std::collections::BTreeMap<(String, String), u32>;

/// (vrf, peer, remote AS) from a device's BGP neighbor show output, and the local AS
/// where shown.
fn shown_neighbors(show: &Path) -> Option<(Neighbors, ShownLocalAs)> {
    let mut out = BTreeSet::new();
    let mut local = ShownLocalAs::new();
    for file in [
        "show_ip_bgp_neighbors_vrf_all_pipe_json.txt",
        "show_ip_bgp_neighbors_vrf_all_pipe_json.json",
    ] {
        if let Some(v) = eos_json(show, file, "vrfs") {
            for (vrf, body) in v["vrfs"].as_object().into_iter().flatten() {
                for p in body["peerList"].as_array().into_iter().flatten() {
                    let asn = p["asn"].as_str().and_then(|a| a.parse().ok()).unwrap_or(0);
                    let peer = p["peerAddress"].as_str().unwrap_or("").to_owned();
                    if let Some(l) = p["localAsn"].as_str().and_then(|a| a.parse().ok()) {
                        local.insert((vrf.clone(), peer.clone()), l);
                    }
                    out.insert((vrf.clone(), peer, asn));
                }
            }
            return Some((out, local));
        }
    }
    let text = neighbor_text(show)?;
    let mut vrf_of_last: Option<usize> = None;
    let mut rows: Vec<(String, String, u32)> = Vec::new();
    let mut local_rows: Vec<(usize, u32)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("BGP neighbor is ") {
            let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
            let peer = parts[0].to_owned();
            let mut vrf = "default".to_owned();
            let mut asn = 0;
            for p in &parts[1..] {
                if let Some(v) = p.strip_prefix("vrf ") {
                    vrf = v.to_owned();
                }
                if let Some(a) = p.strip_prefix("remote AS ") {
                    asn = a.parse().unwrap_or(0);
                }
                if let Some(a) = p.strip_prefix("local AS ").and_then(|a| a.parse().ok()) {
                    local_rows.push((rows.len(), a));
                }
            }
            rows.push((vrf, peer, asn));
            vrf_of_last = Some(rows.len() - 1);
        } else if let Some(rest) = line.strip_prefix(" Remote AS ") {
            // IOS-XR: ` Remote AS 65200, local AS 65300, external link` below the peer.
            let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
            if let Some(row) = rows.last_mut() {
                row.2 = parts[0].parse().unwrap_or(0);
            }
            if let Some(a) = parts
                .iter()
                .find_map(|p| p.strip_prefix("local AS "))
                .and_then(|a| a.split_whitespace().next())
                .and_then(|a| a.parse().ok())
                .filter(|_| !rows.is_empty())
            {
                local_rows.push((rows.len() - 1, a));
            }
        } else if let (Some(i), Some(pos)) = (vrf_of_last, line.find(", VRF ")) {
            // EOS text: `  BGP version 4, remote router ID 10.2.2.2, VRF default`
            rows[i].0 = line[pos + 6..].trim().to_owned();
            vrf_of_last = None;
        }
    }
    for (i, a) in local_rows {
        local.insert((rows[i].0.clone(), rows[i].1.clone()), a);
    }
    out.extend(rows);
    Some((out, local))
}

/// The configured neighbor a shown session belongs to: the one naming its address, else
/// a listen range holding it (a dynamic peer) in the same VRF.
fn configured_for<'a>(
    d: &'a ParsedDevice,
    vrf: &str,
    peer: &str,
) -> Option<&'a olav::model::BgpNeighbor> {
    let ns = &d.config.bgp.as_ref()?.neighbors;
    let in_vrf = |n: &&olav::model::BgpNeighbor| n.vrf.as_deref().unwrap_or("default") == vrf;
    ns.iter()
        .filter(in_vrf)
        .find(|n| n.peer.to_string() == peer)
        .or_else(|| {
            let ip: std::net::IpAddr = peer.parse().ok()?;
            ns.iter()
                .filter(in_vrf)
                .find(|n| matches!(&n.peer, BgpPeer::ListenRange(r) if r.contains(&ip)))
        })
}

/// The neighbors the config names, and of the `shown` ones, each dynamic peer a listen
/// range of the config accepts (its `remote-as` or `peer-filter` admitting the shown AS):
/// a range the device fills with peers is compared peer by peer.
fn config_neighbors_for(
    d: &ParsedDevice,
    shown: &BTreeSet<(String, String, u32)>,
) -> BTreeSet<(String, String, u32)> {
    let mut out = config_neighbors(d);
    for (vrf, peer, asn) in shown {
        if let Some(n) = configured_for(d, vrf, peer) {
            if matches!(n.peer, BgpPeer::ListenRange(_)) && n.accepts_as(&[*asn]) {
                out.insert((vrf.clone(), peer.clone(), *asn));
            }
        }
    }
    out
}

fn config_neighbors(d: &ParsedDevice) -> BTreeSet<(String, String, u32)> {
    d.config
        .bgp
        .iter()
        .flat_map(|b| b.neighbors.iter())
        .filter_map(|n| match n.peer {
            BgpPeer::Address(a) => Some((
                n.vrf.clone().unwrap_or_else(|| "default".into()),
                a.to_string(),
                n.peer_asn.unwrap_or(0),
            )),
            // Listen ranges and unnumbered peers are not in the neighbor tables by address.
            BgpPeer::ListenRange(_) | BgpPeer::Interface(_) => None,
        })
        .collect()
}

/// Written past the test harness's output capture, so that it is always seen.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Imports a lab; every file must become a device.
fn parse_lab(lab: &Path, failures: &mut Vec<String>) -> olav::import::ParsedSnapshot {
    let snap = Snapshot::from_dir(lab).expect("snapshot readable");
    let parsed = parse_snapshot(&snap).expect("parses");
    let name = lab.file_name().unwrap_or_default().to_string_lossy();
    for s in &parsed.skipped {
        failures.push(format!("{name}: skipped {s}"));
    }
    if parsed.devices.len() != snap.configs.len() {
        failures.push(format!(
            "{name}: {} configs, {} devices imported",
            snap.configs.len(),
            parsed.devices.len()
        ));
    }
    parsed
}

// --- Junos `| display json` show output -------------------------------------------

/// The first JSON document of a Junos capture (the CLI prompt `{master:0}` may follow).
fn junos_json(show: &Path, file: &str) -> Option<Value> {
    let text = std::fs::read_to_string(show.join(file)).ok()?;
    let mut docs = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
    Some(docs.next()?.expect("junos json"))
}

/// Junos JSON wraps every leaf as `"key": [{"data": "value"}]`.
fn data<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v[key][0]["data"].as_str()
}

fn list<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v[key].as_array().into_iter().flatten()
}

/// The first object under `key` anywhere in `v` (single- and multi-RE outputs differ).
fn find<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    match v {
        Value::Object(m) => m
            .get(key)
            .and_then(|x| x.get(0))
            .or_else(|| m.values().find_map(|x| find(x, key))),
        Value::Array(a) => a.iter().find_map(|x| find(x, key)),
        _ => None,
    }
}

/// Routing instance as olav names VRFs: the master instance is `default`.
fn junos_vrf(instance: &str) -> String {
    if instance == "master" {
        "default".into()
    } else {
        instance.to_owned()
    }
}

/// The VRF of a Junos routing table (`inet.0` → default, `RED.inet.0` → RED); None for
/// tables that are not unicast ones (`inet.3`, `mpls.0`).
fn table_vrf(table: &str) -> Option<String> {
    let mut parts = table.rsplitn(3, '.');
    let (zero, family, instance) = (parts.next()?, parts.next()?, parts.next());
    (zero == "0" && matches!(family, "inet" | "inet6"))
        .then(|| instance.map_or_else(|| "default".into(), str::to_owned))
}

/// What a Junos device shows about its interfaces.
struct JunosInterfaces {
    /// Physical and logical interface names.
    names: BTreeSet<String>,
    /// (unit, address/len, primary) of every IPv4 address.
    addresses: BTreeSet<(String, String, bool)>,
}

fn junos_interfaces(show: &Path) -> Option<JunosInterfaces> {
    let v = junos_json(show, "show_interfaces_pipe_display_json.txt")?;
    let mut names = BTreeSet::new();
    let mut addresses = BTreeSet::new();
    for p in list(&v["interface-information"][0], "physical-interface") {
        names.insert(data(p, "name").unwrap_or_default().to_owned());
        for l in list(p, "logical-interface") {
            let unit = data(l, "name").unwrap_or_default().to_owned();
            names.insert(unit.clone());
            for af in list(l, "address-family") {
                if data(af, "address-family-name") != Some("inet") {
                    continue;
                }
                for a in list(af, "interface-address") {
                    let Some(local) = data(a, "ifa-local") else {
                        continue;
                    };
                    // `10.12.0/24`; none for a host address.
                    let len = data(a, "ifa-destination")
                        .and_then(|d| d.split_once('/'))
                        .map_or("32", |(_, l)| l);
                    let primary = a["ifa-flags"][0]
                        .as_object()
                        .is_some_and(|f| f.contains_key("ifaf-current-primary"));
                    addresses.insert((unit.clone(), format!("{local}/{len}"), primary));
                }
            }
        }
    }
    Some(JunosInterfaces { names, addresses })
}

/// A Junos BGP peer as the device shows it.
struct JunosPeer {
    vrf: String,
    peer: String,
    peer_as: u32,
    local_as: u32,
    established: bool,
}

fn junos_peers(show: &Path) -> Option<Vec<JunosPeer>> {
    let v = junos_json(show, "show_bgp_neighbor_pipe_display_json.txt")?;
    let without_port = |a: Option<&str>| a.unwrap_or("").split('+').next().unwrap_or("").to_owned();
    let asn = |p: &Value, k: &str| data(p, k).and_then(|a| a.parse().ok()).unwrap_or(0);
    Some(
        list(&v["bgp-information"][0], "bgp-peer")
            .map(|p| JunosPeer {
                vrf: junos_vrf(data(p, "peer-cfg-rti").unwrap_or("master")),
                peer: without_port(data(p, "peer-address")),
                peer_as: asn(p, "peer-as"),
                local_as: asn(p, "local-as"),
                established: data(p, "peer-state") == Some("Established"),
            })
            .collect(),
    )
}

/// What a Junos routing table shows: the VRFs whose tables show each interface's direct or
/// local route, and every installed static route (vrf, prefix) → (preference, next hops).
struct JunosRoutes {
    interface_vrf: BTreeMap<String, BTreeSet<String>>,
    statics: BTreeMap<(String, String), (u32, BTreeSet<String>)>,
}

fn junos_routes(show: &Path) -> Option<JunosRoutes> {
    let v = junos_json(show, "show_route_pipe_display_json.txt")?;
    let mut interface_vrf: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut statics = BTreeMap::new();
    for t in list(&v["route-information"][0], "route-table") {
        let Some(vrf) = data(t, "table-name").and_then(table_vrf) else {
            continue;
        };
        for r in list(t, "rt") {
            let dest = data(r, "rt-destination").unwrap_or_default();
            for e in list(r, "rt-entry") {
                match data(e, "protocol-name") {
                    Some("Direct" | "Local") => {
                        for nh in list(e, "nh") {
                            if let Some(i) = data(nh, "via").or(data(nh, "nh-local-interface")) {
                                interface_vrf
                                    .entry(i.to_owned())
                                    .or_default()
                                    .insert(vrf.clone());
                            }
                        }
                    }
                    Some("Static") => {
                        let pref = data(e, "preference")
                            .and_then(|p| p.parse().ok())
                            .unwrap_or(0);
                        let hops: BTreeSet<String> = match data(e, "nh-type") {
                            Some("Discard") => ["discard".to_owned()].into(),
                            Some("Reject") => ["reject".to_owned()].into(),
                            _ => list(e, "nh")
                                .filter_map(|nh| data(nh, "to").or(data(nh, "via")))
                                .map(str::to_owned)
                                .collect(),
                        };
                        statics.insert((vrf.clone(), dest.to_owned()), (pref, hops));
                    }
                    _ => {}
                }
            }
        }
    }
    Some(JunosRoutes {
        interface_vrf,
        statics,
    })
}

/// Counts of what the Junos comparison covered.
#[derive(Default)]
struct JunosCounts {
    addresses: usize,
    neighbors: usize,
    local_as: usize,
    interface_vrfs: usize,
    statics: usize,
}

/// Compares a Junos device's model with its own show output.
fn compare_junos(
    d: &ParsedDevice,
    show: &Path,
    ctx: &str,
    counts: &mut JunosCounts,
    failures: &mut Vec<String>,
) {
    // No show output for the device at all (`junos_commit_check`, only `commit check`
    // was run): nothing to compare, as for Cisco and Arista devices.
    if !show.is_dir() {
        return;
    }
    if let Some(v) = junos_json(show, "show_version_pipe_display_json.txt") {
        let sw = find(&v, "software-information")
            .cloned()
            .unwrap_or_default();
        if data(&sw, "host-name") != Some(d.hostname.as_str()) {
            failures.push(format!(
                "{ctx}: hostname shown {:?}",
                data(&sw, "host-name")
            ));
        }
        if data(&sw, "junos-version") != d.config.os_version.as_deref() {
            failures.push(format!(
                "{ctx}: version {:?} in the config, {:?} shown",
                d.config.os_version,
                data(&sw, "junos-version")
            ));
        }
    }
    let Some(shown) = junos_interfaces(show) else {
        failures.push(format!("{ctx}: no interface show output"));
        return;
    };
    for i in &d.config.interfaces {
        if !shown.names.contains(&i.name) {
            failures.push(format!("{ctx}: {} configured but not shown", i.name));
        }
    }
    let configured: BTreeSet<(String, String, bool)> = d
        .config
        .interfaces
        .iter()
        .flat_map(|i| {
            i.addresses
                .iter()
                .filter(|a| a.kind != AddressKind::Virtual && a.address.addr().is_ipv4())
                .map(|a| {
                    (
                        i.name.clone(),
                        a.address.to_string(),
                        a.kind == AddressKind::Primary,
                    )
                })
        })
        .collect();
    // Only units the config has: the device also shows internal ones (em2.32768, jsrv.1).
    let shown_here: BTreeSet<(String, String, bool)> = shown
        .addresses
        .into_iter()
        .filter(|(n, _, _)| d.config.interfaces.iter().any(|i| &i.name == n))
        .collect();
    if configured != shown_here {
        failures.push(format!(
            "{ctx}: interface addresses (unit, address, primary): config only {:?}, show only {:?}",
            configured.difference(&shown_here).collect::<Vec<_>>(),
            shown_here.difference(&configured).collect::<Vec<_>>()
        ));
    }
    counts.addresses += configured.len();
    if let Some(routes) = junos_routes(show) {
        for (ifname, vrfs) in &routes.interface_vrf {
            let Some(i) = d.config.interfaces.iter().find(|i| &i.name == ifname) else {
                continue;
            };
            // A direct route leaked into other instances (`auto-export` with their
            // `vrf-import`, `junos_evpn_type5`) is shown there too, alike: the interface is
            // in one of the tables that show it.
            let configured = i.vrf.as_deref().unwrap_or("default");
            if !vrfs.contains(configured) {
                failures.push(format!(
                    "{ctx}: {ifname} in VRF {configured} in the config, in {vrfs:?} on the device"
                ));
            }
            counts.interface_vrfs += 1;
        }
        for ((vrf, prefix), (pref, hops)) in &routes.statics {
            let rows: Vec<_> = d
                .config
                .static_routes
                .iter()
                .filter(|r| {
                    r.vrf.as_deref().unwrap_or("default") == vrf && r.prefix.to_string() == *prefix
                })
                .collect();
            let configured_hops: BTreeSet<String> = rows
                .iter()
                .filter_map(|r| {
                    r.next_hop
                        .map(|h| h.to_string())
                        .or_else(|| r.next_hop_interface.clone())
                })
                .collect();
            // Junos' default static preference is 5.
            let configured_pref: BTreeSet<u32> =
                rows.iter().map(|r| r.distance.unwrap_or(5)).collect();
            // A `resolve` route shows the next hop it resolved to, not the configured one.
            let resolves = d
                .text
                .lines()
                .any(|l| l.contains(&format!("static route {prefix} resolve")));
            if !(resolves || hops.is_subset(&configured_hops)) || !configured_pref.contains(pref) {
                failures.push(format!(
                    "{ctx}: static {vrf} {prefix}: shown preference {pref} via {hops:?}, configured {configured_pref:?} via {configured_hops:?}"
                ));
            }
            counts.statics += 1;
        }
    }
    if let Some(peers) = junos_peers(show) {
        let shown: BTreeSet<(String, String, u32)> = peers
            .iter()
            .map(|p| (p.vrf.clone(), p.peer.clone(), p.peer_as))
            .collect();
        let mut configured = config_neighbors_for(d, &shown);
        // IOS-XR captures without `show bgp vrf all neighbors` show the default VRF only.
        if show.join("show_bgp_all_all_neighbors.txt").is_file()
            && !show.join("show_bgp_vrf_all_neighbors.txt").is_file()
        {
            configured.retain(|(vrf, _, _)| vrf == "default");
        }
        if configured != shown {
            failures.push(format!(
                "{ctx}: BGP neighbors: config only {:?}, show only {:?}",
                configured.difference(&shown).collect::<Vec<_>>(),
                shown.difference(&configured).collect::<Vec<_>>()
            ));
        }
        counts.neighbors += shown.len();
        for p in &peers {
            let presented = d.config.bgp.as_ref().and_then(|b| {
                configured_for(d, &p.vrf, &p.peer).and_then(|n| b.presented_as(n).first().copied())
            });
            if presented != Some(p.local_as) {
                failures.push(format!(
                    "{ctx}: BGP {} {}: local AS {presented:?} in the config, {} shown",
                    p.vrf, p.peer, p.local_as
                ));
            }
            counts.local_as += 1;
        }
    }
}

/// Counts of what the Cisco and Arista comparison covered.
#[derive(Default)]
struct CiscoCounts {
    addresses: usize,
    neighbors: usize,
    local_as: usize,
}

/// The address an unnumbered interface borrows, as the device shows it: its source
/// interface's primary IPv4 address as a /32.
fn borrowed(d: &ParsedDevice, i: &olav::model::Interface) -> Option<String> {
    let source = i.unnumbered.as_deref()?;
    d.config
        .interfaces
        .iter()
        .find(|s| olav::ifname::same(source, &s.name))?
        .addresses
        .iter()
        .find(|a| a.kind == AddressKind::Primary && a.address.addr().is_ipv4())
        .map(|a| format!("{}/32", a.address.addr()))
}

/// Compares an IOS, EOS or NX-OS device's model with its own show output: primary IPv4
/// addresses with their length, every physical interface shown, BGP neighbors with remote
/// AS and VRF, the local AS where shown.
fn compare_cisco(
    d: &ParsedDevice,
    show: &Path,
    ctx: &str,
    counts: &mut CiscoCounts,
    failures: &mut Vec<String>,
) {
    if let Some(shown) = shown_interfaces(show) {
        let configured: BTreeSet<(String, String)> = d
            .config
            .interfaces
            .iter()
            .filter(|i| shown.names.contains(&i.name))
            .flat_map(|i| {
                i.addresses
                    .iter()
                    .filter(|a| a.kind == AddressKind::Primary && a.address.addr().is_ipv4())
                    .map(|a| (i.name.clone(), a.address.to_string()))
                    .chain(borrowed(d, i).map(|a| (i.name.clone(), a)))
            })
            .collect();
        let shown_here: BTreeSet<(String, String)> = shown
            .addresses
            .iter()
            .filter(|(n, _)| d.config.interfaces.iter().any(|i| &i.name == n))
            .cloned()
            .collect();
        if configured != shown_here {
            failures.push(format!(
                "{ctx}: interface addresses: config only {:?}, show only {:?}",
                configured.difference(&shown_here).collect::<Vec<_>>(),
                shown_here.difference(&configured).collect::<Vec<_>>()
            ));
        }
        for name in &shown.names {
            let physical =
                !name.contains('.') && !name.starts_with("Vlan") && !name.starts_with("Null");
            if physical
                && !name.starts_with("Tunnel")
                && !d.config.interfaces.iter().any(|i| &i.name == name)
            {
                failures.push(format!("{ctx}: {name} shown but not imported"));
            }
        }
        counts.addresses += configured.len();
    }
    if let Some((shown, shown_local)) = shown_neighbors(show) {
        for ((vrf, peer), shown_as) in &shown_local {
            let configured_as = d.config.bgp.as_ref().and_then(|b| {
                configured_for(d, vrf, peer).and_then(|n| b.presented_as(n).first().copied())
            });
            if configured_as != Some(*shown_as) {
                failures.push(format!(
                    "{ctx}: BGP {vrf} {peer}: local AS {configured_as:?} in the config, {shown_as} shown"
                ));
            }
            counts.local_as += 1;
        }
        let mut configured = config_neighbors_for(d, &shown);
        // IOS-XR captures without `show bgp vrf all neighbors` show the default VRF only.
        if show.join("show_bgp_all_all_neighbors.txt").is_file()
            && !show.join("show_bgp_vrf_all_neighbors.txt").is_file()
        {
            configured.retain(|(vrf, _, _)| vrf == "default");
        }
        if configured != shown {
            failures.push(format!(
                "{ctx}: BGP neighbors: config only {:?}, show only {:?}",
                configured.difference(&shown).collect::<Vec<_>>(),
                shown.difference(&configured).collect::<Vec<_>>()
            ));
        }
        counts.neighbors += shown.len();
    }
}

#[test]
fn every_corpus_config_imports_and_agrees_with_show_output() {
    let Some(root) = corpus() else { return };
    let mut cisco = CiscoCounts::default();
    let mut junos = JunosCounts::default();
    let mut junos_devices = 0;
    let mut failures = Vec::new();
    for lab in labs(&root) {
        let parsed = parse_lab(&lab, &mut failures);
        for d in &parsed.devices {
            let folder = d.source_file.split('/').nth(1).unwrap_or_default();
            let show = lab.join("show").join(folder);
            let ctx = format!(
                "{} {}",
                lab.file_name().unwrap_or_default().to_string_lossy(),
                d.hostname
            );
            if d.vendor == Vendor::JuniperJunos {
                junos_devices += 1;
                compare_junos(d, &show, &ctx, &mut junos, &mut failures);
                continue;
            }
            compare_cisco(d, &show, &ctx, &mut cisco, &mut failures);
        }
    }
    say(&format!(
        "corpus: {} interface addresses, {} BGP neighbors and {} local AS numbers compared with show output (Cisco, Arista)",
        cisco.addresses, cisco.neighbors, cisco.local_as
    ));
    say(&format!(
        "corpus: Junos, {junos_devices} devices: {} interface addresses (with their primary flag), {} BGP neighbors, {} local AS numbers, {} interface VRFs and {} installed static routes compared with show output",
        junos.addresses, junos.neighbors, junos.local_as, junos.interface_vrfs, junos.statics
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(cisco.addresses > 50 && cisco.neighbors > 10);
    assert!(junos_devices >= 12 && junos.addresses > 30 && junos.neighbors > 20);
}

/// BGP unnumbered sessions the device shows up: (vrf, interface as shown, peer's link-local
/// address), from the routes it learned over them (EOS `show ip bgp vrf all | json`:
/// `peerAddr` `fe80::…%Et1`); its neighbor table lists no link-local peers.
fn unnumbered_up(show: &Path) -> BTreeSet<(String, String, std::net::Ipv6Addr)> {
    let mut out = BTreeSet::new();
    for file in [
        "show_ip_bgp_vrf_all_pipe_json.txt",
        "show_ip_bgp_vrf_all_pipe_json.json",
    ] {
        let Ok(text) = std::fs::read_to_string(show.join(file)) else {
            continue;
        };
        let v: Value = serde_json::from_str(&text).expect("bgp json");
        for (vrf, body) in v["vrfs"].as_object().into_iter().flatten() {
            for e in body["bgpRouteEntries"].as_object().into_iter().flatten() {
                for p in e.1["bgpRoutePaths"].as_array().into_iter().flatten() {
                    let Some((addr, ifname)) = p["peerEntry"]["peerAddr"]
                        .as_str()
                        .and_then(|a| a.split_once('%'))
                    else {
                        continue;
                    };
                    if let Ok(ll) = addr.parse() {
                        out.insert((vrf.clone(), ifname.to_owned(), ll));
                    }
                }
            }
        }
    }
    out
}

/// The MAC address an EUI-64 link-local address is made from (`fe80::a8c1:abff:fe88:3132`
/// → `aa:c1:ab:88:31:32`).
fn eui64_mac(ll: std::net::Ipv6Addr) -> Option<String> {
    let o = ll.octets();
    (o[11] == 0xff && o[12] == 0xfe).then(|| {
        [o[8] ^ 0x02, o[9], o[10], o[13], o[14], o[15]]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(":")
    })
}

/// Interface MAC addresses a device shows (EOS JSON `physicalAddress`).
fn shown_macs(show: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for file in [
        "show_interfaces_pipe_json.txt",
        "show_interfaces_pipe_json.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(show.join(file)) {
            let v: Value = serde_json::from_str(&text).expect("show json");
            for (name, i) in v["interfaces"].as_object().into_iter().flatten() {
                if let Some(mac) = i["physicalAddress"].as_str() {
                    out.insert(mac.to_owned(), name.clone());
                }
            }
        }
    }
    out
}

/// (vrf, peer) of every session the device's own show output reports Established.
fn established(show: &Path) -> BTreeSet<(String, String)> {
    bgp_states(show)
        .into_iter()
        .filter(|(_, up)| *up)
        .map(|(k, _)| k)
        .collect()
}

/// (vrf, peer) → whether the device shows the session Established, for every neighbor it
/// shows a state for (EOS JSON, IOS and NX-OS text).
fn bgp_states(show: &Path) -> BTreeMap<(String, String), bool> {
    let mut out = BTreeMap::new();
    for file in [
        "show_ip_bgp_neighbors_vrf_all_pipe_json.txt",
        "show_ip_bgp_neighbors_vrf_all_pipe_json.json",
    ] {
        if let Some(v) = eos_json(show, file, "vrfs") {
            for (vrf, body) in v["vrfs"].as_object().into_iter().flatten() {
                for p in body["peerList"].as_array().into_iter().flatten() {
                    if let Some(state) = p["state"].as_str() {
                        out.insert(
                            (
                                vrf.clone(),
                                p["peerAddress"].as_str().unwrap_or("").to_owned(),
                            ),
                            state == "Established",
                        );
                    }
                }
            }
            return out;
        }
    }
    let Some(text) = neighbor_text(show) else {
        return out;
    };
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("BGP neighbor is ") {
            let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
            let vrf = parts
                .iter()
                .find_map(|p| p.strip_prefix("vrf "))
                .unwrap_or("default")
                .to_owned();
            current = Some((vrf, parts[0].to_owned()));
        } else if let Some(pos) = line.find(", VRF ") {
            if let Some(c) = current.as_mut() {
                c.0 = line[pos + 6..].trim().to_owned();
            }
        } else if let Some(pos) = line
            .find("BGP state = ")
            .map(|p| p + 12)
            .or_else(|| line.find("BGP state is ").map(|p| p + 13))
        {
            if let Some(c) = current.take() {
                out.insert(c, line[pos..].starts_with("Established"));
            }
        }
    }
    out
}

/// Whether the routing model says the session cannot come up (`checks::reach`).
fn not_established(reach: &Reachability, s: &olav::checks::bgp::Session) -> bool {
    reach.sessions.iter().any(|t| {
        t.node == s.node
            && t.vrf == s.vrf
            && t.remote_ip == s.remote_ip
            && t.established_status == Established::NotEstablished
    })
}

/// The sessions of a lab the devices show Established (unnumbered ones by the routes
/// learned over them), each of which the BGP check must not flag: (sessions, on Junos).
fn check_established(
    lab: &Path,
    parsed: &olav::import::ParsedSnapshot,
    f: &olav::checks::Findings,
    reach: &Reachability,
    failures: &mut Vec<String>,
) -> (usize, usize) {
    let (mut checked, mut junos) = (0, 0);
    for d in &parsed.devices {
        let folder = d.source_file.split('/').nth(1).unwrap_or_default();
        let show = lab.join("show").join(folder);
        let up = if d.vendor == Vendor::JuniperJunos {
            junos_peers(&show)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| p.established)
                .map(|p| (p.vrf, p.peer))
                .collect()
        } else {
            established(&show)
        };
        let unnumbered: BTreeSet<(String, String)> = unnumbered_up(&show)
            .into_iter()
            .filter_map(|(vrf, typed, _)| {
                let names = d.config.interfaces.iter().map(|i| i.name.as_str());
                olav::ifname::resolve(&typed, names).map(|i| (vrf, i.to_owned()))
            })
            .collect();
        for s in f.bgp.iter().filter(|s| s.node == d.hostname) {
            let shown_up = if s.remote_ip.is_empty() {
                let iface = s.local_interface.clone().unwrap_or_default();
                unnumbered.contains(&(s.vrf.clone(), iface))
            } else {
                up.contains(&(s.vrf.clone(), s.remote_ip.clone()))
            };
            if !shown_up {
                continue;
            }
            checked += 1;
            if d.vendor == Vendor::JuniperJunos {
                junos += 1;
            }
            if s.is_problem() || not_established(reach, s) {
                failures.push(format!(
                    "{}: {} → {} {:?} (vrf {}) is Established on the device but flagged {}{}",
                    lab.file_name().unwrap_or_default().to_string_lossy(),
                    s.node,
                    s.remote_ip,
                    s.local_interface,
                    s.vrf,
                    s.configured_status.as_str(),
                    if not_established(reach, s) {
                        ", NOT_ESTABLISHED"
                    } else {
                        ""
                    }
                ));
            }
        }
    }
    (checked, junos)
}

/// The sessions of a lab the devices show down (not Established), none of which `olav
/// check` may call UNIQUE_MATCH (a false pass): how many were compared.
fn check_down(
    lab: &Path,
    parsed: &olav::import::ParsedSnapshot,
    f: &olav::checks::Findings,
    reach: &Reachability,
    failures: &mut Vec<String>,
) -> usize {
    let mut checked = 0;
    for d in &parsed.devices {
        let folder = d.source_file.split('/').nth(1).unwrap_or_default();
        let show = lab.join("show").join(folder);
        let down: Vec<(String, String)> = if d.vendor == Vendor::JuniperJunos {
            junos_peers(&show)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| !p.established)
                .map(|p| (p.vrf, p.peer))
                .collect()
        } else {
            bgp_states(&show)
                .into_iter()
                .filter(|(_, up)| !*up)
                .map(|(k, _)| k)
                .collect()
        };
        for (vrf, peer) in down {
            let rows: Vec<_> = f
                .bgp
                .iter()
                .filter(|s| s.node == d.hostname && s.vrf == vrf && s.remote_ip == peer)
                .collect();
            if rows.is_empty() {
                continue;
            }
            checked += 1;
            if rows.iter().any(|s| {
                s.configured_status == olav::checks::bgp::Status::UniqueMatch
                    && !not_established(reach, s)
            }) {
                failures.push(format!(
                    "{}: {} → {peer} (vrf {vrf}) is down on the device but UNIQUE_MATCH",
                    lab.file_name().unwrap_or_default().to_string_lossy(),
                    d.hostname
                ));
            }
        }
    }
    checked
}

#[test]
fn static_checks_are_precise_on_the_corpus() {
    use olav::checks::{self, model::Model};
    let Some(root) = corpus() else { return };
    let mut established_checked = 0;
    let mut junos_established = 0;
    let mut failures = Vec::new();
    for lab in labs(&root) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let parsed = parse_lab(&lab, &mut failures);
        let db = common::state_db(&tmp.path().join("s.db"), &parsed);
        let f = checks::run(&Model::from_state(&db).expect("model"), &[]);
        let reach = checks::reach::judge(&db, &f.bgp).expect("reachability");
        // A healthy lab has no duplicate address and no overlap: a false alarm otherwise.
        for p in f
            .problems()
            .iter()
            .filter(|p| !p.code.starts_with("check.bgp."))
        {
            failures.push(format!(
                "{}: {} on a healthy lab",
                lab.file_name().unwrap_or_default().to_string_lossy(),
                p.message
            ));
        }
        let (n, on_junos) = check_established(&lab, &parsed, &f, &reach, &mut failures);
        established_checked += n;
        junos_established += on_junos;
        for d in parsed
            .devices
            .iter()
            .filter(|d| d.vendor == Vendor::JuniperJunos)
        {
            junos_references(d, &f.references, &mut failures);
        }
        for r in &f.references {
            let text = parsed
                .devices
                .iter()
                .find(|d| d.hostname == r.node)
                .map(|d| d.text.clone())
                .unwrap_or_default();
            // Definitions start at the margin (an indented `route-map X in` is a use).
            let defines = text.lines().any(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (l.starts_with("route-map ")
                    || l.starts_with("ip prefix-list ")
                    || l.starts_with("access-list ")
                    || l.starts_with("ip access-list ")
                    || l.starts_with("ip community-list "))
                    && w.contains(&r.ref_name.as_str())
            });
            if defines {
                failures.push(format!(
                    "{}: {} {} is reported undefined but the config defines it",
                    lab.display(),
                    r.struct_type,
                    r.ref_name
                ));
            }
        }
    }
    say(&format!(
        "corpus: {established_checked} Established sessions checked ({junos_established} on Junos devices), {} problems",
        failures.len()
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(established_checked >= 20 && junos_established >= 20);
}

/// Junos: the undefined references olav reports are exactly those a plain reading of the
/// `set` lines finds (names referenced by BGP, routing instances, policies and filters
/// minus names policy-options and firewall define), and the empty prefix-lists it warns
/// about exactly those with no entry.
fn junos_references(
    d: &ParsedDevice,
    found: &[olav::checks::UndefinedRef],
    failures: &mut Vec<String>,
) {
    let lines: Vec<Vec<&str>> = d
        .text
        .lines()
        .filter_map(|l| l.strip_prefix("set "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let mut defined = BTreeSet::new();
    let mut referenced = BTreeSet::new();
    let mut prefix_lists: BTreeMap<&str, bool> = BTreeMap::new();
    for w in &lines {
        match w.as_slice() {
            ["policy-options", kind, name, rest @ ..] => {
                defined.insert((kind.to_string(), name.to_string()));
                if *kind == "prefix-list" {
                    *prefix_lists.entry(name).or_default() |= !rest.is_empty();
                }
            }
            ["firewall", "filter", name, ..]
            | ["firewall", "family", "inet", "filter", name, ..] => {
                defined.insert(("firewall filter".into(), name.to_string()));
            }
            _ => {}
        }
        for (at, pair) in w.windows(2).enumerate() {
            // `then community add|delete|set NAME`: the name follows the operation.
            let name = match (pair[0], pair[1]) {
                ("community", "add" | "delete" | "set") => match w.get(at + 2) {
                    Some(n) => *n,
                    None => continue,
                },
                _ => pair[1],
            };
            let kind = match pair[0] {
                "import" | "export" | "vrf-import" | "vrf-export" | "policy"
                    if w.contains(&"bgp")
                        || w.contains(&"routing-instances")
                        || w.contains(&"from") =>
                {
                    "policy-statement"
                }
                "prefix-list" | "prefix-list-filter" if w.contains(&"from") => "prefix-list",
                "community" if w.contains(&"from") || w.contains(&"then") => "community",
                "as-path" if w.contains(&"from") => "as-path",
                "input" | "output" if w.contains(&"filter") => "firewall filter",
                _ => continue,
            };
            referenced.insert((kind.to_string(), name.to_string()));
        }
    }
    let expected: BTreeSet<(String, String)> = referenced.difference(&defined).cloned().collect();
    let reported: BTreeSet<(String, String)> = found
        .iter()
        .filter(|r| r.node == d.hostname)
        .map(|r| (r.struct_type.clone(), r.ref_name.clone()))
        .collect();
    if expected != reported {
        failures.push(format!(
            "{}: undefined references: expected {expected:?}, reported {reported:?}",
            d.hostname
        ));
    }
    let empty: BTreeSet<String> = prefix_lists
        .iter()
        .filter(|(_, has)| !**has)
        .map(|(n, _)| format!("prefix-list '{n}' is empty"))
        .collect();
    let warned: BTreeSet<String> = d
        .config
        .warnings
        .iter()
        .filter_map(|w| w.message.split(':').next())
        .filter(|m| m.starts_with("prefix-list "))
        .map(str::to_owned)
        .collect();
    if empty != warned {
        failures.push(format!(
            "{}: empty prefix-lists: expected warnings {empty:?}, got {warned:?}",
            d.hostname
        ));
    }
}

/// Junos labs keep the brace-form configuration that was loaded onto the routers
/// (`source/configs/<host>.cfg`); the running configuration they show in `display set`
/// form holds it plus the system's defaults. What olav reads from the brace form must be
/// found, identical, in what it reads from the set form.
#[test]
fn junos_brace_sources_agree_with_the_running_configs() {
    use olav::import::parse::{decode, detect, junos};
    let Some(root) = corpus() else { return };
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut files = 0;
    for lab in labs(&root) {
        let Ok(entries) = std::fs::read_dir(lab.join("source/configs")) else {
            continue;
        };
        for e in entries.flatten() {
            let bytes = std::fs::read(e.path()).expect("source readable");
            let text = decode(&bytes).expect("text");
            if detect(&text) != Ok(Vendor::JuniperJunos) {
                continue;
            }
            files += 1;
            let host = e
                .path()
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let running = std::fs::read_to_string(
                lab.join("configs")
                    .join(&host)
                    .join("show_configuration_pipe_display_set.txt"),
            )
            .expect("running config");
            let (brace, set) = (junos::parse(&text), junos::parse(&running));
            let ctx = format!("{}/source/configs/{host}.cfg", lab.display());
            if brace.lines_unrecognised != 0 || !brace.warnings.is_empty() {
                failures.push(format!(
                    "{ctx}: {} unrecognised lines, warnings {:?}",
                    brace.lines_unrecognised, brace.warnings
                ));
            }
            let addresses = |d: &olav::model::DeviceConfig| -> BTreeSet<String> {
                d.interfaces
                    .iter()
                    .flat_map(|i| {
                        i.addresses.iter().map(move |a| {
                            format!("{} {} {:?} {:?}", i.name, a.address, a.kind, i.vrf)
                        })
                    })
                    .collect()
            };
            let statics = |d: &olav::model::DeviceConfig| -> BTreeSet<String> {
                d.static_routes
                    .iter()
                    .map(|r| {
                        format!(
                            "{:?} {} {:?} {:?} {:?}",
                            r.vrf, r.prefix, r.next_hop, r.next_hop_interface, r.distance
                        )
                    })
                    .collect()
            };
            let neighbors = |d: &olav::model::DeviceConfig| -> BTreeSet<String> {
                d.bgp
                    .iter()
                    .flat_map(|b| {
                        b.neighbors.iter().map(|n| {
                            format!(
                                "{:?} {} {:?} {:?} {:?} {:?} {:?}",
                                n.vrf,
                                n.peer,
                                n.peer_asn,
                                n.local_address,
                                n.update_source,
                                n.address_families,
                                b.presented_as(n)
                            )
                        })
                    })
                    .collect()
            };
            for (what, from_brace, from_set) in [
                ("addresses", addresses(&brace), addresses(&set)),
                ("static routes", statics(&brace), statics(&set)),
                ("BGP neighbors", neighbors(&brace), neighbors(&set)),
            ] {
                compared += from_brace.len();
                let missing: Vec<_> = from_brace.difference(&from_set).collect();
                if !missing.is_empty() {
                    failures.push(format!(
                        "{ctx}: {what} read from the brace form only: {missing:?}"
                    ));
                }
            }
        }
    }
    say(&format!(
        "corpus: {files} Junos brace-form sources, {compared} addresses, static routes and neighbors found identical in the running configs"
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(files >= 3 && compared >= 15);
}

// --- The fidelity table: per lab, what olav reads against what the devices show -------

/// Interface name → administratively up, as the device shows it (None: no output).
fn shown_admin(show: &Path, vendor: Vendor) -> Option<BTreeMap<String, bool>> {
    let mut out = BTreeMap::new();
    if vendor == Vendor::JuniperJunos {
        let v = junos_json(show, "show_interfaces_pipe_display_json.txt")?;
        for p in list(&v["interface-information"][0], "physical-interface") {
            let name = data(p, "name").unwrap_or_default().to_owned();
            out.insert(name, data(p, "admin-status") == Some("up"));
        }
        return Some(out);
    }
    for file in [
        "show_interfaces_pipe_json.txt",
        "show_interfaces_pipe_json.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(show.join(file)) {
            let v: Value = serde_json::from_str(&text).expect("show json");
            for (name, i) in v["interfaces"].as_object().expect("interfaces") {
                out.insert(name.clone(), i["interfaceStatus"] != "disabled");
            }
            return Some(out);
        }
    }
    let text = ["show_interfaces.txt", "show_interface.txt"]
        .iter()
        .find_map(|f| std::fs::read_to_string(show.join(f)).ok())?;
    let mut current = None;
    for line in text.lines() {
        if !line.starts_with(' ') && line.split_whitespace().nth(1) == Some("is") {
            let name = line.split_whitespace().next().unwrap_or("").to_owned();
            // IOS, EOS: `is administratively down`; NX-OS: `is down (Administratively down)`.
            out.insert(name.clone(), !line.contains("dministratively down"));
            current = Some(name);
        } else if line.trim_start().starts_with("admin state is down") {
            if let Some(n) = &current {
                out.insert(n.clone(), false);
            }
        }
    }
    Some(out)
}

/// What a device's routing tables hold: every (vrf, prefix), and those with a static route.
#[derive(Default)]
struct Rib {
    all: BTreeSet<(String, String)>,
    statics: BTreeSet<(String, String)>,
}

/// The prefix a Cisco-style route line names (`192.168.123.2` under `… /32 is subnetted`).
fn route_prefix(word: &str, subnetted: Option<u8>) -> Option<String> {
    if word.contains('/') {
        return word.parse::<ipnet::IpNet>().ok().map(|n| n.to_string());
    }
    let ip: std::net::Ipv4Addr = word.parse().ok()?;
    let len = subnetted.unwrap_or(match ip.octets()[0] {
        0..=127 => 8,
        128..=191 => 16,
        _ => 24,
    });
    Some(format!("{ip}/{len}"))
}

/// Reads `show ip route` text (IOS, EOS) into `rib` for `vrf`.
fn read_cisco_routes(text: &str, default_vrf: &str, rib: &mut Rib) {
    let mut vrf = default_vrf.to_owned();
    let mut subnetted = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(v) = t
            .strip_prefix("VRF: ")
            .or_else(|| t.strip_prefix("Routing Table: "))
        {
            vrf = v.trim().to_owned();
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if words.get(1..3) == Some(&["is", "subnetted,"])
            || words.get(1..3) == Some(&["is", "variably"])
        {
            subnetted = words[0].split_once('/').and_then(|(_, l)| l.parse().ok());
            if words[2] == "variably" {
                subnetted = None;
            }
            continue;
        }
        // Route lines: codes (`S*`, `O E2`, `A B`), then the prefix.
        let Some(k) = words
            .iter()
            .position(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        else {
            continue;
        };
        if k == 0 || k > 3 || !words[..k].iter().all(|w| w.len() <= 3) {
            continue;
        }
        let Some(prefix) = route_prefix(words[k], subnetted) else {
            continue;
        };
        rib.all.insert((vrf.clone(), prefix.clone()));
        if words[0].starts_with('S') {
            rib.statics.insert((vrf.clone(), prefix));
        }
    }
}

/// A device's routing tables from its show output, in whichever form it has them.
fn shown_rib(show: &Path, vendor: Vendor) -> Option<Rib> {
    let mut rib = Rib::default();
    if vendor == Vendor::JuniperJunos {
        let routes = junos_routes(show)?;
        for (k, _) in routes.statics {
            rib.all.insert(k.clone());
            rib.statics.insert(k);
        }
        return Some(rib);
    }
    for file in [
        "show_ip_route_vrf_all_pipe_json.txt",
        "show_ip_route_vrf_all_pipe_json.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(show.join(file)) {
            let v: Value = serde_json::from_str(&text).expect("route json");
            for (vrf, body) in v["vrfs"].as_object().into_iter().flatten() {
                for (prefix, r) in body["routes"].as_object().into_iter().flatten() {
                    rib.all.insert((vrf.clone(), prefix.clone()));
                    if r["routeType"] == "static" {
                        rib.statics.insert((vrf.clone(), prefix.clone()));
                    }
                }
            }
            return Some(rib);
        }
    }
    if vendor == Vendor::CiscoNxos {
        let text = std::fs::read_to_string(show.join("show_ip_route_vrf_all.txt")).ok()?;
        let (mut vrf, mut prefix) = ("default".to_owned(), String::new());
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("IP Route Table for VRF \"") {
                vrf = rest.trim_end_matches('"').to_owned();
            } else if !line.starts_with(' ') && line.contains(", ubest/mbest") {
                prefix = line.split(',').next().unwrap_or("").to_owned();
                rib.all.insert((vrf.clone(), prefix.clone()));
            } else if line.trim_start().starts_with("*via") && line.trim_end().ends_with(", static")
            {
                rib.statics.insert((vrf.clone(), prefix.clone()));
            }
        }
        return Some(rib);
    }
    let mut any = false;
    for e in std::fs::read_dir(show).ok()?.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let vrf = match name.as_str() {
            "show_ip_route.txt" | "show_ip_route_vrf_all.txt" => "default".to_owned(),
            n => match n
                .strip_prefix("show_ip_route_vrf_")
                .and_then(|v| v.strip_suffix(".txt"))
            {
                Some(v) => v.to_owned(),
                None => continue,
            },
        };
        let text = std::fs::read_to_string(e.path()).expect("route text");
        read_cisco_routes(&text, &vrf, &mut rib);
        any = true;
    }
    any.then_some(rib)
}

/// Interface name → line protocol up, as the device shows it.
fn shown_oper(show: &Path, vendor: Vendor) -> BTreeMap<String, bool> {
    let mut out = BTreeMap::new();
    if vendor == Vendor::JuniperJunos {
        if let Some(v) = junos_json(show, "show_interfaces_pipe_display_json.txt") {
            for p in list(&v["interface-information"][0], "physical-interface") {
                let name = data(p, "name").unwrap_or_default().to_owned();
                out.insert(name, data(p, "oper-status") == Some("up"));
                for l in list(p, "logical-interface") {
                    let unit = data(l, "name").unwrap_or_default().to_owned();
                    let up = l["if-config-flags"][0]
                        .as_object()
                        .is_some_and(|f| f.contains_key("iff-up"));
                    out.insert(unit, up);
                }
            }
        }
        return out;
    }
    for file in [
        "show_interfaces_pipe_json.txt",
        "show_interfaces_pipe_json.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(show.join(file)) {
            let v: Value = serde_json::from_str(&text).expect("show json");
            for (name, i) in v["interfaces"].as_object().expect("interfaces") {
                out.insert(name.clone(), i["lineProtocolStatus"] == "up");
            }
            return out;
        }
    }
    let Some(text) = ["show_interfaces.txt", "show_interface.txt"]
        .iter()
        .find_map(|f| std::fs::read_to_string(show.join(f)).ok())
    else {
        return out;
    };
    for line in text.lines() {
        if !line.starts_with(' ') && line.split_whitespace().nth(1) == Some("is") {
            let name = line.split_whitespace().next().unwrap_or("").to_owned();
            let up = if line.contains("line protocol is") {
                line.contains("line protocol is up")
            } else {
                line.split_whitespace().nth(2) == Some("up")
            };
            out.insert(name, up);
        }
    }
    out
}

/// One end of an adjacency: (device, interface).
type End = (String, String);

/// An adjacency, ends in order.
fn pair(a: End, b: End) -> (End, End) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The interface of `d` in `vrf` whose subnet holds `ip` (not `ip` itself).
fn facing(d: &ParsedDevice, vrf: &str, ip: std::net::IpAddr) -> Option<String> {
    // A loopback holding the peer in its subnet (`ios_bgp_path_select_8`: Loopback0
    // 172.16.0.4/24, the spines' loopbacks /32s in it) faces no one: such a session
    // rides the IGP, never a shared wire.
    let loopback = |n: &str| {
        let n = n.to_ascii_lowercase();
        n.starts_with("loopback")
            || (n.starts_with("lo") && n[2..].starts_with(|c: char| c.is_ascii_digit()))
    };
    d.config
        .interfaces
        .iter()
        .filter(|i| {
            i.admin_up && i.vrf.as_deref().unwrap_or("default") == vrf && !loopback(&i.name)
        })
        .find(|i| {
            i.addresses.iter().any(|a| {
                a.kind != AddressKind::Virtual
                    && a.address.prefix_len() < a.address.max_prefix_len()
                    && a.address.contains(&ip)
                    && a.address.addr() != ip
            })
        })
        .map(|i| i.name.clone())
}

/// The interface of `d` that owns `ip` (non-virtual), with its VRF.
fn owner(d: &ParsedDevice, ip: std::net::IpAddr) -> Vec<(String, String)> {
    d.config
        .interfaces
        .iter()
        .filter(|i| {
            i.admin_up
                && i.addresses
                    .iter()
                    .any(|a| a.kind != AddressKind::Virtual && a.address.addr() == ip)
        })
        .map(|i| {
            (
                i.name.clone(),
                i.vrf.clone().unwrap_or_else(|| "default".into()),
            )
        })
        .collect()
}

/// Adjacencies the devices' own show output proves: OSPF and EIGRP neighbors (the local
/// interface and the neighbor's address), and BGP sessions both ends show Established
/// between directly connected addresses.
fn shown_adjacencies(lab: &Path, devices: &[ParsedDevice]) -> BTreeSet<(End, End)> {
    let show_of = |d: &ParsedDevice| {
        lab.join("show")
            .join(d.source_file.split('/').nth(1).unwrap_or_default())
    };
    let mut out = BTreeSet::new();
    // (device, local interface as written, neighbor address)
    let mut igp: Vec<(usize, String, std::net::IpAddr)> = Vec::new();
    for (di, d) in devices.iter().enumerate() {
        let show = show_of(d);
        let Ok(entries) = std::fs::read_dir(&show) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let ospf = name == "show_ip_ospf_neighbor.txt";
            let eigrp = name.starts_with("show_ip_eigrp_") && name.ends_with(".txt");
            if !(ospf || eigrp) {
                continue;
            }
            let text = std::fs::read_to_string(e.path()).expect("neighbors");
            for line in text.lines() {
                let w: Vec<&str> = line.split_whitespace().collect();
                let found = if ospf {
                    // `… Address Interface` at the end of the line.
                    w.len() >= 3
                        && w[0].parse::<std::net::Ipv4Addr>().is_ok()
                        && w[w.len() - 2].parse::<std::net::IpAddr>().is_ok()
                } else {
                    // `H Address Interface Hold …`
                    w.len() >= 3
                        && w[0].parse::<u32>().is_ok()
                        && w[1].parse::<std::net::IpAddr>().is_ok()
                };
                if !found {
                    continue;
                }
                let (addr, ifname) = if ospf {
                    (w[w.len() - 2], w[w.len() - 1])
                } else {
                    (w[1], w[2])
                };
                if let Ok(ip) = addr.parse() {
                    igp.push((di, ifname.to_owned(), ip));
                }
            }
        }
    }
    for (di, typed, ip) in igp {
        let d = &devices[di];
        let Some(local) =
            olav::ifname::resolve(&typed, d.config.interfaces.iter().map(|i| i.name.as_str()))
        else {
            continue;
        };
        for (bi, b) in devices.iter().enumerate() {
            if bi == di {
                continue;
            }
            for (remote, _) in owner(b, ip) {
                out.insert(pair(
                    (d.hostname.clone(), local.to_owned()),
                    (b.hostname.clone(), remote),
                ));
            }
        }
    }
    // BGP unnumbered: the peer's link-local address is made from its interface's MAC.
    let macs: Vec<BTreeMap<String, String>> =
        devices.iter().map(|d| shown_macs(&show_of(d))).collect();
    for (di, d) in devices.iter().enumerate() {
        for (_, typed, ll) in unnumbered_up(&show_of(d)) {
            let names = d.config.interfaces.iter().map(|i| i.name.as_str());
            let (Some(local), Some(mac)) = (olav::ifname::resolve(&typed, names), eui64_mac(ll))
            else {
                continue;
            };
            for (bi, b) in devices.iter().enumerate() {
                if let (true, Some(remote)) = (bi != di, macs[bi].get(&mac)) {
                    out.insert(pair(
                        (d.hostname.clone(), local.to_owned()),
                        (b.hostname.clone(), remote.clone()),
                    ));
                }
            }
        }
    }
    // BGP: (device, vrf, peer) Established, both ways.
    let up: Vec<BTreeSet<(String, String)>> = devices
        .iter()
        .map(|d| {
            if d.vendor == Vendor::JuniperJunos {
                junos_peers(&show_of(d))
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|p| p.established)
                    .map(|p| (p.vrf, p.peer))
                    .collect()
            } else {
                established(&show_of(d))
            }
        })
        .collect();
    for (di, d) in devices.iter().enumerate() {
        for (vrf, peer) in &up[di] {
            let Ok(p) = peer.parse::<std::net::IpAddr>() else {
                continue;
            };
            let Some(local) = facing(d, vrf, p) else {
                continue;
            };
            let local_ip = d
                .config
                .interfaces
                .iter()
                .find(|i| i.name == local)
                .and_then(|i| i.addresses.iter().find(|a| a.address.contains(&p)))
                .map(|a| a.address.addr());
            let Some(local_ip) = local_ip else { continue };
            let mut ends = Vec::new();
            for (bi, b) in devices.iter().enumerate() {
                if bi == di {
                    continue;
                }
                // One address pair reused once per VRF (MLAG peers): each session's
                // other end is the one in the same-named VRF when there is one.
                let mut back: Vec<(String, String)> = owner(b, p)
                    .into_iter()
                    .filter(|(_, rvrf)| up[bi].contains(&(rvrf.clone(), local_ip.to_string())))
                    .collect();
                if back.len() > 1 && back.iter().any(|(_, rvrf)| rvrf == vrf) {
                    back.retain(|(_, rvrf)| rvrf == vrf);
                }
                if !back.is_empty() {
                    ends.push((bi, back));
                }
            }
            // One address pair on several devices, each showing its session up
            // (`junos_default_address_selection`: four pairs all on 10.1.1.1/30 and .2): the
            // show output cannot tell which of them is this session's other end.
            if ends.len() > 1 {
                continue;
            }
            for (bi, back) in ends {
                for (remote, _) in back {
                    out.insert(pair(
                        (d.hostname.clone(), local.clone()),
                        (devices[bi].hostname.clone(), remote),
                    ));
                }
            }
        }
    }
    out
}

/// The physical ports an interface's frames can leave by: itself or its parent (a
/// subinterface or unit), an SVI's switchports carrying its VLAN, a port-channel's members.
fn physical_ports(d: &ParsedDevice, ifname: &str) -> BTreeSet<String> {
    let ifs = &d.config.interfaces;
    let carries = |i: &olav::model::Interface, vlan: u32| -> bool {
        match i.switchport_mode {
            Some(olav::model::SwitchportMode::Trunk) => i.trunk_vlans.as_deref().is_none_or(|l| {
                l.split(',').any(|p| match p.split_once('-') {
                    Some((a, b)) => {
                        (a.parse().unwrap_or(0)..=b.parse().unwrap_or(0)).contains(&vlan)
                    }
                    None => p.parse() == Ok(vlan),
                })
            }),
            _ => i.access_vlan == Some(vlan) && i.addresses.is_empty(),
        }
    };
    let mut ports: BTreeSet<String> = BTreeSet::new();
    let svi = ifname
        .strip_prefix("Vlan")
        .and_then(|v| v.parse::<u32>().ok());
    match svi {
        Some(v) => ports.extend(ifs.iter().filter(|i| carries(i, v)).map(|i| i.name.clone())),
        None => {
            // An SR OS router interface (`to-r2`) leaves by the port it names.
            let port = ifs
                .iter()
                .find(|i| i.name == ifname)
                .and_then(|i| i.port.clone());
            ports.insert(
                port.unwrap_or_else(|| ifname.split('.').next().unwrap_or(ifname).to_owned()),
            );
        }
    }
    let members: Vec<String> = ifs
        .iter()
        .filter(|i| {
            i.channel_group
                .as_deref()
                .is_some_and(|c| ports.iter().any(|p| olav::ifname::same(c, p)))
        })
        .map(|i| i.name.clone())
        .collect();
    ports.extend(members);
    ports
}

/// The cables of a lab's `batfish/layer1_topology.json`, resolved to configured devices
/// and interfaces (hostnames case-insensitively, interface names as written).
fn cables(lab: &Path, devices: &[ParsedDevice]) -> Option<Vec<(End, End)>> {
    let text = std::fs::read_to_string(lab.join("batfish/layer1_topology.json")).ok()?;
    let v: Value = serde_json::from_str(&text).expect("layer1 json");
    let end = |n: &Value| -> Option<End> {
        let host = n["hostname"].as_str()?;
        let d = devices
            .iter()
            .find(|d| d.hostname.eq_ignore_ascii_case(host))?;
        let i = olav::ifname::resolve(
            n["interfaceName"].as_str()?,
            d.config.interfaces.iter().map(|i| i.name.as_str()),
        )?;
        Some((d.hostname.clone(), i.to_owned()))
    };
    Some(
        v["edges"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| Some((end(&e["node1"])?, end(&e["node2"])?)))
            .collect(),
    )
}

/// Virtual addresses a device shows: EOS `ip address virtual` (JSON `virtualIp`, with its
/// length), NX-OS HSRP / VRRP (the host routes `via …, Vlan10, …, hsrp` it installs):
/// (interface, address, length when shown).
fn shown_virtuals(show: &Path) -> Vec<(String, std::net::IpAddr, Option<u8>)> {
    let mut out = Vec::new();
    for file in [
        "show_interfaces_pipe_json.txt",
        "show_interfaces_pipe_json.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(show.join(file)) {
            let v: Value = serde_json::from_str(&text).expect("show json");
            for (name, i) in v["interfaces"].as_object().into_iter().flatten() {
                for a in i["interfaceAddress"].as_array().into_iter().flatten() {
                    let vip = &a["virtualIp"];
                    let len = vip["maskLen"].as_u64().unwrap_or(0);
                    if let (Some(ip), true) = (
                        vip["address"].as_str().and_then(|x| x.parse().ok()),
                        len > 0,
                    ) {
                        out.push((name.clone(), ip, u8::try_from(len).ok()));
                    }
                }
            }
        }
    }
    if let Ok(text) = std::fs::read_to_string(show.join("show_ip_route_vrf_all.txt")) {
        for line in text.lines() {
            let w: Vec<&str> = line.trim().trim_start_matches('*').split(", ").collect();
            if let (Some(via), Some(proto)) = (w.first(), w.last()) {
                if matches!(*proto, "hsrp" | "vrrp") && w.len() >= 3 {
                    if let Ok(ip) = via.trim_start_matches("via ").parse() {
                        out.push((w[1].to_owned(), ip, None));
                    }
                }
            }
        }
    }
    out
}

/// One lab's row: compared / disagreeing per measure.
#[derive(Default)]
struct Row {
    devices: usize,
    /// Addresses compared (with their length; Junos with the primary flag).
    addresses: (usize, usize),
    /// BGP neighbors compared (remote AS, VRF) and local AS numbers shown.
    neighbors: (usize, usize),
    /// Sessions the devices show Established, and those `olav check` flags.
    established: (usize, usize),
    /// Sessions the devices show down (Idle, Active, Connect…), and those `olav check`
    /// calls UNIQUE_MATCH.
    down_sessions: (usize, usize),
    /// Virtual addresses the devices show (EOS anycast, NX-OS HSRP), found configured.
    virtuals: (usize, usize),
    admin: (usize, usize),
    statics: (usize, usize),
    statics_unjudged: usize,
    links: usize,
    /// Cables in the layer-1 file (None: the lab has none).
    cables: Option<usize>,
    /// Links between cabled devices, and those no cable explains.
    explained: (usize, usize),
    /// Adjacencies the cables and configs call for, and those olav has no link for.
    covered: (usize, usize),
    /// Adjacencies the show output proves, and those olav has no link for.
    shown: (usize, usize),
    /// Links with an end the device shows down (not connected).
    down_ends: usize,
}

/// Links against the cabling (where the lab has it) and against the adjacencies the
/// devices show.
fn compare_links(
    lab: &Path,
    parsed: &olav::import::ParsedSnapshot,
    row: &mut Row,
    failures: &mut Vec<String>,
) {
    let name = lab.file_name().unwrap_or_default().to_string_lossy();
    let devices = &parsed.devices;
    let dev = |h: &str| devices.iter().find(|d| d.hostname == h);
    let links: BTreeSet<(End, End)> = parsed
        .links
        .iter()
        .map(|l| pair(l.a.clone(), l.b.clone()))
        .collect();
    row.links = links.len();
    for adj in shown_adjacencies(lab, devices) {
        row.shown.0 += 1;
        if !links.contains(&adj) {
            row.shown.1 += 1;
            failures.push(format!(
                "{name}: the devices show {adj:?} adjacent; no link"
            ));
        }
    }
    let Some(cables) = cables(lab, devices) else {
        return;
    };
    row.cables = Some(cables.len());
    let cabled: BTreeSet<&str> = cables
        .iter()
        .flat_map(|(a, b)| [a.0.as_str(), b.0.as_str()])
        .collect();
    let svi = |i: &str| i.strip_prefix("Vlan").and_then(|v| v.parse::<u32>().ok());
    let on_cable = |a: &End, b: &End| -> bool {
        let (Some(da), Some(db)) = (dev(&a.0), dev(&b.0)) else {
            return false;
        };
        if let (Some(x), Some(y)) = (svi(&a.1), svi(&b.1)) {
            if x != y {
                return false;
            }
        }
        let (pa, pb) = (physical_ports(da, &a.1), physical_ports(db, &b.1));
        cables.iter().any(|(x, y)| {
            (x.0 == a.0 && y.0 == b.0 && pa.contains(&x.1) && pb.contains(&y.1))
                || (y.0 == a.0 && x.0 == b.0 && pa.contains(&y.1) && pb.contains(&x.1))
        })
    };
    for (a, b) in &links {
        if cabled.contains(a.0.as_str()) && cabled.contains(b.0.as_str()) {
            row.explained.0 += 1;
            if !on_cable(a, b) {
                row.explained.1 += 1;
                failures.push(format!("{name}: link {a:?} – {b:?} rides no cable"));
            }
        }
    }
    // What the cables carry: interfaces on both ends sharing a subnet (SVIs on one VLAN,
    // subinterfaces with one tag), active, not management.
    let routed = |d: &ParsedDevice, port: &str| -> Vec<String> {
        d.config
            .interfaces
            .iter()
            .filter(|i| i.admin_up && !olav::import::links::is_management(i))
            .filter(|i| !d.down_svis.contains(&i.name))
            .filter(|i| physical_ports(d, &i.name).contains(port))
            .filter(|i| {
                i.addresses.iter().any(|a| {
                    a.kind != AddressKind::Virtual
                        && a.address.prefix_len() < a.address.max_prefix_len()
                })
            })
            .map(|i| i.name.clone())
            .collect()
    };
    let nets = |i: &olav::model::Interface| -> Vec<ipnet::IpNet> {
        i.addresses
            .iter()
            .filter(|a| a.kind != AddressKind::Virtual)
            .map(|a| a.address)
            .collect()
    };
    let mut expected = BTreeSet::new();
    for (a, b) in &cables {
        let (Some(da), Some(db)) = (dev(&a.0), dev(&b.0)) else {
            continue;
        };
        for ia in routed(da, &a.1) {
            for ib in routed(db, &b.1) {
                let x = da.config.interfaces.iter().find(|i| i.name == ia);
                let y = db.config.interfaces.iter().find(|i| i.name == ib);
                let (Some(x), Some(y)) = (x, y) else { continue };
                let (nx, ny) = (nets(x), nets(y));
                let shared = nx.iter().any(|p| ny.iter().any(|q| p.trunc() == q.trunc()));
                let common_ip = nx.iter().any(|p| ny.iter().any(|q| p.addr() == q.addr()));
                let tag_x = svi(&ia).or(x.encapsulation_vlan);
                let tag_y = svi(&ib).or(y.encapsulation_vlan);
                let vlans_agree = match (tag_x, tag_y) {
                    (Some(p), Some(q)) => p == q,
                    (None, None) => true,
                    _ => x.encapsulation_vlan.is_none() && y.encapsulation_vlan.is_none(),
                };
                if shared && !common_ip && vlans_agree {
                    expected.insert(pair((a.0.clone(), ia.clone()), (b.0.clone(), ib.clone())));
                }
            }
        }
    }
    // A cable between routed ports one end peers over unnumbered carries an adjacency.
    let unnumbered_on = |d: &ParsedDevice, port: &str| {
        d.config.bgp.iter().flat_map(|b| &b.neighbors).any(|n| {
            matches!(&n.peer, olav::model::BgpPeer::Interface(i) if olav::ifname::same(i, port))
        })
    };
    for (a, b) in &cables {
        let (Some(da), Some(db)) = (dev(&a.0), dev(&b.0)) else {
            continue;
        };
        if unnumbered_on(da, &a.1) || unnumbered_on(db, &b.1) {
            expected.insert(pair(a.clone(), b.clone()));
        }
    }
    for adj in expected {
        row.covered.0 += 1;
        if !links.contains(&adj) {
            row.covered.1 += 1;
            failures.push(format!("{name}: cabled adjacency {adj:?} has no link"));
        }
    }
}

fn cell((n, bad): (usize, usize)) -> String {
    if bad == 0 {
        n.to_string()
    } else {
        format!("{n} ({bad} off)")
    }
}

/// Per lab: interfaces' admin state against the device's own, and the static routes
/// olav judges usable or not against the device's routing table. Prints the table.
#[test]
fn fidelity_table() {
    use olav::model::RouteActivity;
    let Some(root) = corpus() else { return };
    let mut failures = Vec::new();
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for lab in labs(&root) {
        let name = lab
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let parsed = parse_lab(&lab, &mut failures);
        let row = rows.entry(name.clone()).or_default();
        row.devices = parsed.devices.len();
        compare_links(&lab, &parsed, row, &mut failures);
        {
            let tmp = tempfile::tempdir().expect("tempdir");
            let db = common::state_db(&tmp.path().join("s.db"), &parsed);
            let model = olav::checks::model::Model::from_state(&db).expect("model");
            let f = olav::checks::run(&model, &[]);
            let reach = olav::checks::reach::judge(&db, &f.bgp).expect("reachability");
            let before = failures.len();
            row.established.0 = check_established(&lab, &parsed, &f, &reach, &mut failures).0;
            row.established.1 = failures.len() - before;
            let before = failures.len();
            row.down_sessions.0 = check_down(&lab, &parsed, &f, &reach, &mut failures);
            row.down_sessions.1 = failures.len() - before;
        }
        for d in &parsed.devices {
            let folder = d.source_file.split('/').nth(1).unwrap_or_default();
            let show = lab.join("show").join(folder);
            let ctx = format!("{name} {}", d.hostname);
            // What the model says against the device's own show output; disagreements
            // are counted by the measure their message names.
            let before = failures.len();
            let (addresses, neighbors) = if d.vendor == Vendor::JuniperJunos {
                let mut c = JunosCounts::default();
                compare_junos(d, &show, &ctx, &mut c, &mut failures);
                (c.addresses, c.neighbors + c.local_as)
            } else {
                let mut c = CiscoCounts::default();
                compare_cisco(d, &show, &ctx, &mut c, &mut failures);
                (c.addresses, c.neighbors + c.local_as)
            };
            row.addresses.0 += addresses;
            row.neighbors.0 += neighbors;
            for f in &failures[before..] {
                if f.contains("BGP") {
                    row.neighbors.1 += 1;
                } else {
                    row.addresses.1 += 1;
                }
            }
            for (ifname, ip, len) in shown_virtuals(&show) {
                row.virtuals.0 += 1;
                let configured = d
                    .config
                    .interfaces
                    .iter()
                    .filter(|i| olav::ifname::same(&ifname, &i.name))
                    .flat_map(|i| &i.addresses)
                    .any(|a| {
                        a.kind == AddressKind::Virtual
                            && a.address.addr() == ip
                            && len.is_none_or(|l| a.address.prefix_len() == l)
                    });
                if !configured {
                    row.virtuals.1 += 1;
                    failures.push(format!(
                        "{ctx}: virtual {ip}/{len:?} shown on {ifname}, not configured so"
                    ));
                }
            }
            if let Some(admin) = shown_admin(&show, d.vendor) {
                for i in &d.config.interfaces {
                    if let Some(up) = admin.get(&i.name) {
                        row.admin.0 += 1;
                        if *up != i.admin_up {
                            row.admin.1 += 1;
                            failures.push(format!(
                                "{ctx}: {} admin {} in the config, {} shown",
                                i.name,
                                if i.admin_up { "up" } else { "down" },
                                if *up { "up" } else { "down" }
                            ));
                        }
                    }
                }
            }
            let oper = shown_oper(&show, d.vendor);
            for l in &parsed.links {
                for (h, i) in [&l.a, &l.b] {
                    if h == &d.hostname && oper.get(i) == Some(&false) {
                        row.down_ends += 1;
                        failures.push(format!("{ctx}: link {l:?} ends on {i}, shown down"));
                    }
                }
            }
            let Some(rib) = shown_rib(&show, d.vendor) else {
                continue;
            };
            // Per (vrf, prefix): usable when any of its next hops is.
            let mut judged: BTreeMap<(String, String), Vec<RouteActivity>> = BTreeMap::new();
            for r in d
                .config
                .static_routes
                .iter()
                .filter(|r| d.vendor == Vendor::JuniperJunos || r.prefix.addr().is_ipv4())
            {
                let vrf = r.vrf.clone().unwrap_or_else(|| "default".into());
                judged
                    .entry((vrf, r.prefix.to_string()))
                    .or_default()
                    .push(r.activity);
            }
            for (key, acts) in judged {
                if acts.contains(&RouteActivity::Usable) {
                    row.statics.0 += 1;
                    // A usable route another protocol's better route displaces is not installed.
                    if !rib.statics.contains(&key) && !rib.all.contains(&key) {
                        row.statics.1 += 1;
                        failures.push(format!(
                            "{ctx}: static {key:?} judged usable, not in the routing table"
                        ));
                    }
                } else if acts
                    .iter()
                    .all(|a| matches!(a, RouteActivity::InterfaceDown | RouteActivity::Unresolved))
                {
                    row.statics.0 += 1;
                    if rib.statics.contains(&key) {
                        row.statics.1 += 1;
                        failures.push(format!(
                            "{ctx}: static {key:?} judged {acts:?}, installed on the device"
                        ));
                    }
                } else {
                    row.statics_unjudged += 1;
                }
            }
        }
    }
    let header = [
        "lab",
        "devices",
        "addresses",
        "BGP neighbors",
        "Established",
        "shown down",
        "virtual addresses",
        "admin states",
        "static routes",
        "unjudged statics",
        "links",
        "cables",
        "links on cables",
        "cabled adjacencies",
        "shown adjacencies",
        "links shown down",
    ];
    let table: Vec<[String; 16]> = rows
        .iter()
        .map(|(lab, r)| {
            let cabled = |x: (usize, usize)| r.cables.map_or("-".to_owned(), |_| cell(x));
            [
                lab.clone(),
                r.devices.to_string(),
                cell(r.addresses),
                cell(r.neighbors),
                cell(r.established),
                cell(r.down_sessions),
                cell(r.virtuals),
                cell(r.admin),
                cell(r.statics),
                r.statics_unjudged.to_string(),
                r.links.to_string(),
                r.cables.map_or("-".to_owned(), |c| c.to_string()),
                cabled(r.explained),
                cabled(r.covered),
                cell(r.shown),
                r.down_ends.to_string(),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].len())
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    say(&line(&header.map(String::from)));
    for r in &table {
        say(&line(r));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let total = |f: fn(&Row) -> usize| rows.values().map(f).sum::<usize>();
    assert!(total(|r| r.admin.0) > 300 && total(|r| r.statics.0) > 30);
}
