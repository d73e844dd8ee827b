//! The shared corpus of real device configs (`../shared/reference/configs`): every
//! config imports without a panic, and for each lab the interfaces, addresses and BGP
//! neighbors extracted agree with the devices' own show output.
//!
//! Skips (and says so) when the folder does not exist.

use olav::import::parse::NotAConfig;
use olav::import::{parse_snapshot, ParsedDevice, Snapshot};
use olav::model::{AddressKind, BgpPeer};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn corpus() -> Option<PathBuf> {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/configs/lab-validation");
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

fn shown_interfaces(show: &Path) -> Option<ShownInterfaces> {
    let mut names = BTreeSet::new();
    let mut addresses = BTreeSet::new();
    for file in [
        "show_interfaces_pipe_json.txt",
        "show_interfaces_pipe_json.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(show.join(file)) {
            let v: serde_json::Value = serde_json::from_str(&text).expect("show json");
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
            addresses.insert((current.clone(), addr.to_owned()));
        }
    }
    Some(ShownInterfaces { names, addresses })
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
        if let Ok(text) = std::fs::read_to_string(show.join(file)) {
            let v: serde_json::Value = serde_json::from_str(&text).expect("bgp json");
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
    let text = [
        "show_ip_bgp_all_neighbor.txt",
        "show_ip_bgp_neighbors_vrf_all.txt",
    ]
    .iter()
    .find_map(|f| std::fs::read_to_string(show.join(f)).ok())?;
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
            BgpPeer::ListenRange(_) => None,
        })
        .collect()
}

/// Written past the test harness's output capture, so that it is always seen.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// A lab as olav imports it.
struct Lab {
    parsed: olav::import::ParsedSnapshot,
    /// Addresses configured on devices whose vendor olav does not parse yet: sessions
    /// towards them cannot be judged (olav cannot see the far end).
    unparsed_addresses: BTreeSet<String>,
}

/// Imports a lab; files of a vendor olav recognises but does not parse yet are named
/// (never passed over silently), any other skipped file is a failure.
fn parse_lab(lab: &Path, failures: &mut Vec<String>) -> Lab {
    let snap = Snapshot::from_dir(lab).expect("snapshot readable");
    let parsed = parse_snapshot(&snap).expect("parses");
    let name = lab.file_name().unwrap_or_default().to_string_lossy();
    let mut not_parsed_yet = 0;
    let mut unparsed_addresses = BTreeSet::new();
    for s in &parsed.skipped {
        let text = snap
            .configs
            .iter()
            .find(|f| f.path == s.file)
            .and_then(|f| olav::import::parse::decode(&f.bytes).ok());
        let vendor = text
            .as_ref()
            .and_then(|t| match olav::import::parse::detect(t) {
                Err(NotAConfig::UnsupportedVendor(v)) => Some(v),
                _ => None,
            });
        match (vendor, text) {
            (Some(v), Some(text)) => {
                not_parsed_yet += 1;
                say(&format!("SKIPPED {name}/{}: {v}, not parsed yet", s.file));
                // Junos `… family inet address A/len`.
                for w in text.lines().filter_map(|l| l.split(" address ").nth(1)) {
                    if let Some(a) = w.split(['/', ' ', ';']).next() {
                        unparsed_addresses.insert(a.to_owned());
                    }
                }
            }
            _ => failures.push(format!("{name}: skipped {s}")),
        }
    }
    if parsed.devices.len() + not_parsed_yet != snap.configs.len() {
        failures.push(format!(
            "{name}: {} configs, {} devices imported, {not_parsed_yet} not parsed yet",
            snap.configs.len(),
            parsed.devices.len()
        ));
    }
    Lab {
        parsed,
        unparsed_addresses,
    }
}

#[test]
fn every_corpus_config_imports_and_agrees_with_show_output() {
    let Some(root) = corpus() else { return };
    let mut checked_interfaces = 0;
    let mut checked_neighbors = 0;
    let mut checked_local_as = 0;
    let mut failures = Vec::new();
    for lab in labs(&root) {
        let parsed = parse_lab(&lab, &mut failures).parsed;
        for d in &parsed.devices {
            let folder = d.source_file.split('/').nth(1).unwrap_or_default();
            let show = lab.join("show").join(folder);
            let ctx = format!(
                "{} {}",
                lab.file_name().unwrap_or_default().to_string_lossy(),
                d.hostname
            );
            if let Some(shown) = shown_interfaces(&show) {
                let configured: BTreeSet<(String, String)> = d
                    .config
                    .interfaces
                    .iter()
                    .filter(|i| shown.names.contains(&i.name))
                    .flat_map(|i| {
                        i.addresses
                            .iter()
                            .filter(|a| {
                                a.kind == AddressKind::Primary && a.address.addr().is_ipv4()
                            })
                            .map(|a| (i.name.clone(), a.address.to_string()))
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
                    let physical = !name.contains('.')
                        && !name.starts_with("Vlan")
                        && !name.starts_with("Null");
                    if physical
                        && !name.starts_with("Tunnel")
                        && !d.config.interfaces.iter().any(|i| &i.name == name)
                    {
                        failures.push(format!("{ctx}: {name} shown but not imported"));
                    }
                }
                checked_interfaces += configured.len();
            }
            if let Some((shown, shown_local)) = shown_neighbors(&show) {
                for ((vrf, peer), shown_as) in &shown_local {
                    let configured_as = d.config.bgp.as_ref().and_then(|b| {
                        b.neighbors
                            .iter()
                            .find(|n| {
                                n.peer.to_string() == *peer
                                    && n.vrf.as_deref().unwrap_or("default") == vrf
                            })
                            .and_then(|n| b.presented_as(n).first().copied())
                    });
                    if configured_as != Some(*shown_as) {
                        failures.push(format!(
                            "{ctx}: BGP {vrf} {peer}: local AS {configured_as:?} in the config, {shown_as} shown"
                        ));
                    }
                    checked_local_as += 1;
                }
                let configured = config_neighbors(d);
                if configured != shown {
                    failures.push(format!(
                        "{ctx}: BGP neighbors: config only {:?}, show only {:?}",
                        configured.difference(&shown).collect::<Vec<_>>(),
                        shown.difference(&configured).collect::<Vec<_>>()
                    ));
                }
                checked_neighbors += shown.len();
            }
        }
    }
    say(&format!("corpus: {checked_interfaces} interface addresses, {checked_neighbors} BGP neighbors and {checked_local_as} local AS numbers compared with show output"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked_interfaces > 50 && checked_neighbors > 10);
}

/// (vrf, peer) of every session the device's own show output reports Established.
fn established(show: &Path) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for file in [
        "show_ip_bgp_neighbors_vrf_all_pipe_json.txt",
        "show_ip_bgp_neighbors_vrf_all_pipe_json.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(show.join(file)) {
            let v: serde_json::Value = serde_json::from_str(&text).expect("bgp json");
            for (vrf, body) in v["vrfs"].as_object().into_iter().flatten() {
                for p in body["peerList"].as_array().into_iter().flatten() {
                    if p["state"] == "Established" {
                        out.insert((
                            vrf.clone(),
                            p["peerAddress"].as_str().unwrap_or("").to_owned(),
                        ));
                    }
                }
            }
            return out;
        }
    }
    let Some(text) = [
        "show_ip_bgp_all_neighbor.txt",
        "show_ip_bgp_neighbors_vrf_all.txt",
    ]
    .iter()
    .find_map(|f| std::fs::read_to_string(show.join(f)).ok()) else {
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
        } else if line.contains("BGP state = Established")
            || line.contains("BGP state is Established")
        {
            if let Some(c) = current.take() {
                out.insert(c);
            }
        }
    }
    out
}

#[test]
fn static_checks_are_precise_on_the_corpus() {
    use olav::checks::{self, model::Model};
    let Some(root) = corpus() else { return };
    let mut established_checked = 0;
    let mut failures = Vec::new();
    for lab in labs(&root) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let Lab {
            parsed,
            unparsed_addresses,
        } = parse_lab(&lab, &mut failures);
        let mut db = olav::state::StateDb::open(&tmp.path().join("s.db")).expect("db");
        db.import(&parsed).expect("import");
        let f = checks::run(&Model::from_state(&db).expect("model"), &[]);
        for d in &parsed.devices {
            let folder = d.source_file.split('/').nth(1).unwrap_or_default();
            let up = established(&lab.join("show").join(folder));
            for s in f.bgp.iter().filter(|s| s.node == d.hostname) {
                if unparsed_addresses.contains(&s.remote_ip) {
                    say(&format!(
                        "NOT JUDGED {}: {} → {}: the peer's config is of a vendor not parsed yet",
                        lab.file_name().unwrap_or_default().to_string_lossy(),
                        s.node,
                        s.remote_ip
                    ));
                    continue;
                }
                if up.contains(&(s.vrf.clone(), s.remote_ip.clone())) {
                    established_checked += 1;
                    if s.is_problem() {
                        failures.push(format!(
                            "{}: {} → {} (vrf {}) is Established on the device but flagged {}",
                            lab.file_name().unwrap_or_default().to_string_lossy(),
                            s.node,
                            s.remote_ip,
                            s.vrf,
                            s.configured_status.as_str()
                        ));
                    }
                }
            }
        }
        for r in &f.references {
            let text = parsed
                .devices
                .iter()
                .find(|d| d.hostname == r.node)
                .map(|d| d.text.clone())
                .unwrap_or_default();
            let defines = text.lines().any(|l| {
                let l = l.trim_start();
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
        "corpus: {established_checked} Established sessions checked, {} flagged",
        failures.len()
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(established_checked >= 20);
}
