//! The routing model against the devices' own routing tables (`olav routes`).
//!
//! `fixtures/lab-validation/<lab>/{configs,show}` (18 labs of batfish/lab-validation,
//! the shared corpus's, copied with their license) holds each lab device's show output.
//! For each device, olav's main RIB is compared with the device's, restricted to the
//! protocols olav computes so far (connected, local, static, OSPF, EIGRP, IS-IS; every
//! lab's RIBs computed at once), the way batfish/lab-validation's validators compare
//! Batfish's: rows paired by (VRF, network, protocol, metric, administrative distance)
//! and a matching next hop; the device agrees when every row on both sides pairs.

use crate::common;

use olav::import::{parse_snapshot, ParsedDevice, Snapshot};
use olav::model::Vendor;
use olav::routing::connected::is_management;
use olav::routing::shown::{self, ShownRoute};
use olav::routing::{network, DeviceInput, NextHop, Route};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// Devices that agree, measured (`docs/fidelity.md`): a regression fails.
const AGREEING_FLOOR: usize = 64;

fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The labs olav is developed against, copied into the repository with their license.
fn corpus() -> PathBuf {
    common::fixture("lab-validation")
}

/// The device's show folder: named after its hostname (any case) or its config file.
fn show_dir(lab: &Path, d: &ParsedDevice) -> Option<PathBuf> {
    let stem = Path::new(&d.source_file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_owned();
    std::fs::read_dir(lab.join("show"))
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .find(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            n.eq_ignore_ascii_case(&d.hostname) || n.eq_ignore_ascii_case(&stem)
        })
}

fn read(p: &Path) -> Option<String> {
    std::fs::read(p)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// The device's own routing table, as its vendor's lab-validation validator reads it,
/// restricted to connected, local, static, OSPF, EIGRP and IS-IS routes. None when there is no show
/// output. `vrf_of`: an interface's VRF in the configuration (FRR's JSON names none). The
/// flag: the output holds BGP routes only (SONiC's `show ip route bgp`).
fn device_rib(
    dir: &Path,
    vendor: Vendor,
    vrf_of: &dyn Fn(&str) -> Option<String>,
) -> Option<(Vec<ShownRoute>, bool)> {
    let mut bgp_only = false;
    let rows: Vec<ShownRoute> = match vendor {
        Vendor::CiscoIos => {
            let mut rows = shown::ios(&read(&dir.join("show_ip_route.txt"))?, "default");
            let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
                .ok()?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .collect();
            files.sort();
            for f in files {
                let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                if let Some(v) = name
                    .strip_prefix("show_ip_route_vrf_")
                    .and_then(|v| v.strip_suffix(".txt"))
                {
                    rows.extend(shown::ios(&read(&f)?, v));
                }
            }
            rows
        }
        Vendor::CiscoNxos => shown::nxos(&read(&dir.join("show_ip_route_vrf_all.txt"))?)
            .into_iter()
            .filter(|r| r.best)
            .collect(),
        Vendor::AristaEos => {
            let text = read(&dir.join("show_ip_route_vrf_all_pipe_json.txt"))
                .or_else(|| read(&dir.join("show_ip_route_vrf_all_pipe_json.json")))
                .or_else(|| read(&dir.join("show_ip_route_vrf_all_|_json.txt")))
                .or_else(|| read(&dir.join("show_ip_route_vrf_all_|_json.json")))?;
            shown::eos(&text).ok()?
        }
        Vendor::JuniperJunos => shown::junos(&read(&dir.join("show_route_pipe_display_json.txt"))?)
            .ok()?
            .into_iter()
            .filter(|r| r.best && r.network.addr().octets()[..3] != [224, 0, 0])
            .collect(),
        Vendor::NokiaSros => shown::sros(
            &read(&dir.join("info_json_state_router_Base_route-table.txt"))?,
            read(&dir.join("info_json_state_router_Base_interface.txt")).as_deref(),
        )
        .ok()?,
        // `show route vrf all` leaves the default VRF out.
        Vendor::CiscoIosXr => {
            let mut rows = shown::iosxr(&read(&dir.join("show_route.txt"))?);
            rows.extend(
                shown::iosxr(&read(&dir.join("show_route_vrf_all.txt")).unwrap_or_default())
                    .into_iter()
                    .filter(|r| r.vrf != "default"),
            );
            rows
        }
        // PAN-OS' `show routing route` is not read: lab-validation does not compare it
        // either (its sickbays skip the firewalls).
        Vendor::PaloAltoPanos => return None,
        // Cumulus: vtysh's JSON; SONiC: the text of `show ip route bgp` only.
        Vendor::Frr => match read(&dir.join("vtysh_-c_show_ip_route_vrf_all_json.txt")) {
            Some(text) => shown::frr(&text, vrf_of).ok()?,
            None => {
                bgp_only = true;
                shown::frr_text(&read(&dir.join("show_ip_route_bgp.txt"))?, "default")
            }
        },
    };
    Some((
        rows.into_iter()
            .filter(|r| {
                matches!(
                    r.protocol.as_str(),
                    "connected"
                        | "local"
                        | "static"
                        | "ospf"
                        | "ospfIA"
                        | "ospfE1"
                        | "ospfE2"
                        | "ospfIS"
                        | "eigrp"
                        | "eigrpEX"
                        | "isisL1"
                        | "isisL2"
                        | "bgp"
                        | "ibgp"
                        | "aggregate"
                )
            })
            .filter(|r| !is_management(r.next_hop_interface.as_deref().unwrap_or(""), &r.vrf))
            .collect(),
        bgp_only,
    ))
}

/// Whether olav's row and the device's are the same route and next hop.
/// `junos`: the next-hop address of a static route is not compared; `eos`: an OSPF row
/// shown without a preference is not compared by distance and metric; `sros`: nor the
/// metric of a BGP route; `tags`: tags are (NX-OS and Junos, as their validators do;
/// none ≡ 0).
fn pairs(o: &Route, d: &ShownRoute, vendor: Vendor) -> bool {
    let junos = vendor == Vendor::JuniperJunos;
    let eos = vendor == Vendor::AristaEos;
    let sros = vendor == Vendor::NokiaSros;
    let tags = matches!(vendor, Vendor::JuniperJunos | Vendor::CiscoNxos);
    // Junos and EOS show a static route's resolved gateway, not the written next hop:
    // lab-validation compares no address of their static routes (Junos: any route).
    let resolved = junos || (eos && o.protocol.as_str() == "static");
    let same_hop = match &o.next_hop {
        NextHop::Discard => d.discard,
        NextHop::Ip(ip) => !d.discard && (resolved || d.next_hop_ip.is_none_or(|x| x == *ip)),
        NextHop::Interface { interface, ip } => {
            !d.discard
                && d.next_hop_interface
                    .as_deref()
                    .is_some_and(|i| olav::ifname::same(i, interface))
                && ip.zip(d.next_hop_ip).is_none_or(|(a, b)| a == b)
        }
        // A route leaked from another VRF: olav (as Batfish) names the exporting VRF, IOS
        // shows the exporter's own next hop — and, for a connected route there, no
        // distance or metric (`is directly connected`, read as [0/0]).
        NextHop::Vrf(_) => !d.discard,
        // EOS shows the VTEP of an EVPN route (`vtepAddr`), NX-OS its address.
        NextHop::Vtep { vtep, .. } => {
            !d.discard && d.next_hop_interface.is_none() && d.next_hop_ip.is_none_or(|x| x == *vtep)
        }
    };
    let leaked_connected = matches!(o.next_hop, NextHop::Vrf(_))
        && d.admin_distance == 0
        && d.metric == 0
        && d.next_hop_ip.is_none();
    same_hop
        && o.vrf == d.vrf
        && o.network == d.network
        && (o.protocol.as_str() == d.protocol
            // Junos and FRR show every OSPF route as `OSPF` / `ospf` (Junos' validator
            // accepts any ospf*).
            || ((junos || vendor == Vendor::Frr)
                && d.protocol == "ospf"
                && o.protocol.as_str().starts_with("ospf"))
            // IOS `B`, NX-OS `bgp-N`, Junos `BGP`: eBGP, iBGP or (NX-OS, and IOS shows an
            // aggregate as `B` to Null0) an aggregate.
            || (d.protocol == "bgp"
                && matches!(o.protocol.as_str(), "bgp" | "ibgp" | "aggregate")))
        // The validators compare no distance or metric of an IOS summary's discard route
        // (`is a summary, Null0`) nor of an EOS OSPF route shown directly connected
        // (no preference, metric or next-hop address: a neighbour over an unnumbered link).
        && (d.protocol == "ospfIS"
            || leaked_connected
            || (eos
                && d.protocol == "ospf"
                && d.admin_distance == 0
                && d.metric == 0
                && d.next_hop_ip.is_none())
            || ((u64::from(o.metric) == d.metric
                // SR OS shows a BGP route's IGP cost to its next hop where olav (and
                // Batfish) has the MED: its validator compares no BGP metric.
                || (sros && matches!(o.protocol.as_str(), "bgp" | "ibgp")))
                && o.admin_distance == d.admin_distance))
        && (!tags || u64::from(o.tag.unwrap_or(0)) == d.tag.unwrap_or(0))
}

/// The rows left unpaired on each side.
fn compare(olav: &[Route], device: &[ShownRoute], vendor: Vendor) -> (Vec<String>, Vec<String>) {
    let mut taken = vec![false; device.len()];
    let mut only_olav = Vec::new();
    for o in olav {
        match (0..device.len()).find(|&i| !taken[i] && pairs(o, &device[i], vendor)) {
            Some(i) => taken[i] = true,
            None => only_olav.push(format!(
                "{} {} {} [{}/{}] {} tag {:?}",
                o.vrf, o.network, o.protocol, o.admin_distance, o.metric, o.next_hop, o.tag
            )),
        }
    }
    let only_device = device
        .iter()
        .zip(&taken)
        .filter(|(_, t)| !**t)
        .map(|(d, _)| {
            format!(
                "{} {} {} [{}/{}] {} tag {:?}",
                d.vrf,
                d.network,
                d.protocol,
                d.admin_distance,
                d.metric,
                if d.discard {
                    "discard".to_owned()
                } else {
                    format!(
                        "{} {}",
                        d.next_hop_ip.map(|i| i.to_string()).unwrap_or_default(),
                        d.next_hop_interface.clone().unwrap_or_default()
                    )
                },
                d.tag
            )
        })
        .collect();
    (only_olav, only_device)
}

/// The vendor a lab's `host_nos.txt` gives a device, when olav reads that OS (None:
/// another OS, or no file).
fn host_nos(lab: &Path) -> std::collections::HashMap<String, String> {
    read(&lab.join("show/host_nos.txt"))
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn vendor_of_nos(nos: &str) -> Option<Vendor> {
    match nos {
        "ios" | "iosxe" => Some(Vendor::CiscoIos),
        "nx" | "nxos" => Some(Vendor::CiscoNxos),
        "arista" | "eos" => Some(Vendor::AristaEos),
        "junos" => Some(Vendor::JuniperJunos),
        "sros" => Some(Vendor::NokiaSros),
        "iosxr" => Some(Vendor::CiscoIosXr),
        "cumulus" | "sonic" | "frr" => Some(Vendor::Frr),
        _ => None,
    }
}

/// Hosts whose main-RIB test lab-validation sickbays (Batfish does not agree there):
/// `validation/sickbay.yaml` entries for `test_main_rib_routes`, hostnames as regexes
/// (`.*`-suffixed and `|`-alternated ones are what the labs use).
fn sickbayed(lab: &Path, host: &str) -> bool {
    let Some(text) = read(&lab.join("validation/sickbay.yaml")) else {
        return false;
    };
    let Ok(doc) = serde_yaml::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    let entries = doc["entries"].as_array().cloned().unwrap_or_default();
    entries.iter().any(|e| {
        e["test_name"]
            .as_str()
            .is_some_and(|t| t.contains("main_rib"))
            && e["hostname"].as_str().is_none_or(|re| {
                re.split('|').any(|alt| {
                    let alt = alt.trim_matches(|c| c == '(' || c == ')' || c == '^' || c == '$');
                    pattern_matches(&alt.to_lowercase(), &host.to_lowercase())
                })
            })
    })
}

/// Whether `host` matches a sickbay hostname pattern: literal characters, `[…]`
/// classes (`fr0[12]`, `[a-c]`) and a trailing `.*`.
fn pattern_matches(pattern: &str, host: &str) -> bool {
    let (pattern, open) = match pattern.strip_suffix(".*") {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let mut h = host.chars();
    let mut p = pattern.chars();
    while let Some(c) = p.next() {
        let Some(x) = h.next() else { return false };
        if c == '[' {
            let class: String = p.by_ref().take_while(|c| *c != ']').collect();
            let chars: Vec<char> = class.chars().collect();
            let mut hit = false;
            let mut k = 0;
            while k < chars.len() {
                if k + 2 < chars.len() && chars[k + 1] == '-' {
                    hit |= (chars[k]..=chars[k + 2]).contains(&x);
                    k += 3;
                } else {
                    hit |= chars[k] == x;
                    k += 1;
                }
            }
            if !hit {
                return false;
            }
        } else if c != x {
            return false;
        }
    }
    open || h.next().is_none()
}

/// Per lab: devices compared, devices agreeing (every row pairs), devices lab-validation
/// does not sickbay (Batfish agrees there) and those of them olav agrees on; apart, the
/// agreeing devices olav marks incomplete (a mark that turned out cautious) and the
/// differing ones it does not mark (a silent difference, the worst kind).
#[derive(Default, Clone, Copy)]
struct Tally {
    compared: usize,
    agree: usize,
    batfish: usize,
    agree_where_batfish: usize,
    agree_marked: usize,
    silent: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.compared += o.compared;
        self.agree += o.agree;
        self.batfish += o.batfish;
        self.agree_where_batfish += o.agree_where_batfish;
        self.agree_marked += o.agree_marked;
        self.silent += o.silent;
    }
}

/// Compares every device of every lab under `root` with its show output; prints a
/// per-device and per-lab table.
fn measure(root: &Path) -> Tally {
    let mut labs: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("corpus readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("configs").is_dir() && p.join("show").is_dir())
        .collect();
    labs.sort();
    let mut total = Tally::default();
    let mut per_lab = Vec::new();
    say("lab                                      device               vendor  olav  device  verdict");
    for lab in &labs {
        let lab_name = lab.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let nos = host_nos(lab);
        let Ok(snap) = Snapshot::from_dir(lab) else {
            continue;
        };
        let Ok(mut parsed) = parse_snapshot(&snap) else {
            continue;
        };
        // Each interface's far end, as the stored model has it: OSPF over an unnumbered
        // interface runs to whoever the cabling names.
        let ends: Vec<olav::model::LinkEnds> = parsed
            .links
            .iter()
            .map(|l| (l.a.clone(), l.b.clone()))
            .collect();
        let far = olav::checks::model::far_ends(&ends);
        for d in parsed.devices.iter_mut() {
            olav::checks::model::link_interfaces(&d.hostname, &mut d.config, &far);
        }
        let mut t = Tally::default();
        let inputs: Vec<DeviceInput> = parsed.devices.iter().map(DeviceInput::of).collect();
        let ribs = network(&inputs);
        for (d, rib) in parsed.devices.iter().zip(&ribs) {
            let Some(dir) = show_dir(lab, d) else {
                continue;
            };
            let shown_name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if let Some(n) = nos.get(shown_name) {
                if vendor_of_nos(n) != Some(d.vendor) {
                    continue;
                }
            }
            let vrf_of = |name: &str| {
                d.config
                    .interfaces
                    .iter()
                    .find(|i| i.name == name)
                    .and_then(|i| i.vrf.clone())
            };
            let Some((device, bgp_only)) = device_rib(&dir, d.vendor, &vrf_of) else {
                continue;
            };
            let routes: Vec<Route> = rib
                .routes
                .iter()
                .filter(|r| !bgp_only || matches!(r.protocol.as_str(), "bgp" | "ibgp"))
                .cloned()
                .collect();
            let (only_olav, only_device) = compare(&routes, &device, d.vendor);
            // The rows decide; an incomplete mark is counted apart (olav said it might
            // miss something: it agrees anyway when nothing was missed).
            let marks: Vec<&str> = rib.incomplete.iter().map(|i| i.reason.as_str()).collect();
            let ok = only_olav.is_empty() && only_device.is_empty();
            let bf = !sickbayed(lab, shown_name);
            t.compared += 1;
            t.agree += usize::from(ok);
            t.batfish += usize::from(bf);
            t.agree_where_batfish += usize::from(ok && bf);
            t.agree_marked += usize::from(ok && !marks.is_empty());
            t.silent += usize::from(!ok && marks.is_empty());
            say(&format!(
                "{lab_name:<40} {:<20} {:<7} {:>4}  {:>6}  {}{}",
                d.hostname,
                d.vendor.os_name(),
                routes.len(),
                device.len(),
                match (ok, marks.is_empty()) {
                    (true, true) => "agrees",
                    (true, false) => "agrees (marked incomplete)",
                    (false, false) => "DIFFERS (marked incomplete)",
                    (false, true) => "DIFFERS SILENTLY",
                },
                if bf { "" } else { " (Batfish sickbayed)" }
            ));
            for l in marks.iter().take(3) {
                say(&format!("      incomplete:  {l}"));
            }
            for l in only_olav.iter().take(6) {
                say(&format!("      only olav:   {l}"));
            }
            for l in only_device.iter().take(6) {
                say(&format!("      only device: {l}"));
            }
        }
        if t.compared > 0 {
            per_lab.push((lab_name.to_owned(), t));
        }
        total.add(&t);
    }
    say("\n| lab | devices | olav agrees | Batfish agrees (not sickbayed) | olav agrees there | agreeing, marked incomplete | differing silently |");
    say("|---|---|---|---|---|---|---|");
    for (lab, t) in &per_lab {
        say(&format!(
            "| {lab} | {} | {} | {} | {} | {} | {} |",
            t.compared, t.agree, t.batfish, t.agree_where_batfish, t.agree_marked, t.silent
        ));
    }
    say(&format!(
        "routing fidelity (connected, local, static, OSPF, EIGRP, IS-IS, BGP) under {}: {}/{} devices agree; {}/{} where Batfish agrees; {} of the agreeing marked incomplete; {} differ silently",
        root.display(),
        total.agree,
        total.compared,
        total.agree_where_batfish,
        total.batfish,
        total.agree_marked,
        total.silent
    ));
    total
}

#[test]
fn routes_agree_with_the_devices_on_the_corpus() {
    let t = measure(&corpus());
    assert!(t.compared > 0, "no device with show output in the corpus");
    assert!(
        t.agree >= AGREEING_FLOOR,
        "{} devices agree, below the measured floor {AGREEING_FLOOR}",
        t.agree
    );
    // Where olav differs from a device it says why (an incomplete mark naming it).
    assert_eq!(t.silent, 0, "devices differ without an incomplete mark");
}

/// Labs olav was not developed against: batfish/lab-validation's `snapshots/`
/// (`benches/routing_held_out.sh` extracts them and sets `OLAV_ROUTING_LABS`); measured
/// against the target when given.
#[test]
fn routes_on_held_out_labs() {
    match std::env::var_os("OLAV_ROUTING_LABS") {
        Some(root) => {
            // The target: agreement on at least 80 % of the devices where Batfish
            // agrees.
            let t = measure(Path::new(&root));
            assert!(
                t.compared > 0,
                "no device with show output under the held-out labs"
            );
            assert!(
                t.agree_where_batfish * 5 >= t.batfish * 4,
                "{} of {} devices where Batfish agrees: below 80 %",
                t.agree_where_batfish,
                t.batfish
            );
        }
        None => say("SKIPPED: OLAV_ROUTING_LABS is not set; held-out labs not measured"),
    }
}

/// `olav routes` on the demo: the verdict first, Batfish's columns in JSON, exit 2 with a
/// suggestion for an unknown device.
#[test]
fn routes_command_answers_on_the_demo() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = common::olav(dir.path())
        .args([
            "routes",
            "--device",
            "gamma-border-1",
            "--protocol",
            "static",
        ])
        .assert()
        .code(3);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("2 routes on 1 device — INCOMPLETE on 1 device"),
        "{text}"
    );
    assert!(
        text.contains("BGP routes from peers outside the network")
            && text.contains("not computed yet — VRF default: gamma-border-1"),
        "{text}"
    );
    assert!(text.contains("10.40.0.0/16   discard"), "{text}");

    // A switch that runs no routing protocol has its whole table: exit 0.
    common::olav(dir.path())
        .args(["routes", "--device", "alpha-br-2960-1"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("routes on 1 device — complete"));

    let out = common::olav(dir.path())
        .args(["routes", "--device", "gamma-border-1", "--format", "json"])
        .assert()
        .code(3);
    let v: serde_json::Value =
        serde_json::from_slice(&out.get_output().stdout).expect("JSON answer");
    let rows = v["routes"].as_array().expect("routes");
    assert!(!rows.is_empty());
    for r in rows {
        let keys: Vec<&str> = r
            .as_object()
            .expect("row")
            .keys()
            .map(String::as_str)
            .collect();
        let mut want = olav::routing::COLUMNS.to_vec();
        want.sort_unstable();
        assert_eq!(keys, want, "exactly Batfish's routes columns");
        assert_eq!(r["Node"]["name"], "gamma-border-1");
    }
    let discard = rows
        .iter()
        .find(|r| r["Network"] == "10.40.0.0/16")
        .expect("the discard route");
    assert_eq!(discard["Next_Hop"], serde_json::json!({"type": "discard"}));
    assert_eq!(discard["Admin_Distance"], 5);
    assert_eq!(discard["Tag"], serde_json::Value::Null);
    assert_eq!(v["incomplete"][0]["node"], "gamma-border-1");
    assert_eq!(v["status"], "partial", "the exit status in words");

    let out = common::olav(dir.path())
        .args(["routes", "--device", "gamma-border1"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("did you mean gamma-border-1?"), "{err}");
    common::olav(dir.path())
        .args(["routes", "--protocol", "rip"])
        .assert()
        .code(2);

    // OSPF is computed network-wide: an access switch learns the other subnets over
    // both uplinks, each row with the outgoing interface and the neighbour's address.
    let out = common::olav(dir.path())
        .args(["routes", "--device", "alpha-acc-1", "--protocol", "ospf"])
        .args(["--format", "json"])
        .assert()
        .code(0);
    let v: serde_json::Value =
        serde_json::from_slice(&out.get_output().stdout).expect("JSON answer");
    let rows = v["routes"].as_array().expect("routes");
    assert!(rows.len() > 10, "{v}");
    for r in rows {
        assert_eq!(r["Protocol"], "ospf");
        assert_eq!(r["Admin_Distance"], 110);
        assert_eq!(r["Next_Hop"]["type"], "interface");
        assert!(r["Next_Hop"]["ip"].is_string(), "{r}");
    }
}

/// `olav routes --rib bgp`: Batfish's `bgpRib` columns in JSON, the text verdict first,
/// exit 3 while a BGP RIB is incomplete, exit 2 for an unknown RIB.
#[test]
fn routes_command_gives_the_bgp_rib() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = common::olav(dir.path())
        .args(["routes", "--rib", "bgp", "--device", "gamma-border-1"])
        .args(["--format", "json"])
        .assert()
        .code(3);
    let v: serde_json::Value =
        serde_json::from_slice(&out.get_output().stdout).expect("JSON answer");
    assert_eq!(
        v["columns"],
        serde_json::json!([
            "Node",
            "VRF",
            "Network",
            "Status",
            "Next_Hop",
            "Protocol",
            "AS_Path",
            "Metric",
            "Local_Pref",
            "Communities",
            "Origin_Type",
            "Weight"
        ])
    );
    assert!(v["routes"].is_array(), "{v}");
    assert_eq!(v["incomplete"][0]["node"], "gamma-border-1");
    let out = common::olav(dir.path())
        .args(["routes", "--rib", "bgp", "--device", "gamma-border-1"])
        .assert()
        .code(3);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.lines().next().unwrap_or_default().contains("BGP path"),
        "{text}"
    );
    common::olav(dir.path())
        .args(["routes", "--rib", "evpn"])
        .assert()
        .code(2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The show-output readers never panic, whatever the text.
    #[test]
    fn show_readers_never_panic(text in "\\PC{0,400}") {
        let _ = shown::ios(&text, "default");
        let _ = shown::nxos(&text);
        let _ = shown::eos(&text);
        let _ = shown::junos(&text);
        let _ = shown::frr(&text, &|_: &str| None);
        let _ = shown::frr_text(&text, "default");
    }

    /// Nor on lines made of the words real tables use, in any order.
    #[test]
    fn show_readers_never_panic_on_table_words(
        lines in prop::collection::vec(
            prop::collection::vec(
                prop::sample::select(vec![
                    "C", "S*", "O", "IA", "L", "10.0.0.0/8", "10.1.1.1", "0.0.0.0/0", "[1/0]",
                    "[110/20]", "via", "is", "directly", "connected,", "subnetted,", "variably",
                    "Null0", "Gi0/1", "*via", "ubest/mbest:", "1/0,", "00:01:14,", "direct",
                    "Routing", "Table:", "{", "}", "[", "]", "\"vrfs\":", "\"routes\":",
                    "IP Route Table for VRF \"x\"", "{master:0}", "/", "255",
                ]),
                0..8,
            ),
            0..20,
        ),
        indent in prop::collection::vec(any::<bool>(), 20),
    ) {
        let text: String = lines
            .iter()
            .zip(indent.iter().cycle())
            .map(|(w, i)| format!("{}{}\n", if *i { "    " } else { "" }, w.join(" ")))
            .collect();
        let _ = shown::ios(&text, "default");
        let _ = shown::nxos(&text);
        let _ = shown::eos(&text);
        let _ = shown::junos(&text);
    }
}
