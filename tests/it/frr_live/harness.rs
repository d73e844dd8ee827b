//! Brings a fixture network up as real FRR routers, one network namespace each, and
//! records what the daemons show.
//!
//! A network is `configs/<router>/frr.conf` plus the cabling olav itself reads
//! (`batfish/layer1_topology.json`) and, optionally, the BGP peers meant never to come up
//! (`expected_down`). Each cable becomes a veth pair named as the configs
//! name the interfaces; an `interface` the cabling does not name (a server LAN) becomes one
//! end of a veth pair kept in the namespace, so its connected route exists. Each router runs zebra, staticd, ospfd
//! and bgpd in its namespace with their sockets, pid files and logs in a temporary
//! folder (no watchfrr, no /etc/frr, no TCP vty ports: nothing collides with a system
//! FRR or a parallel run), and the config is applied by `vtysh -f`, as `vtysh -b` does at
//! boot. Namespaces are named `olavfrr-<pid>-<run>-<n>`: unique per network brought up, removed on
//! drop (also when a test panics), and those of a process that no longer runs (killed
//! mid-test) are removed by the next run.

use olav::import::layer1::Layer1;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Where Debian's `frr` package puts the daemons.
const SBIN: &str = "/usr/lib/frr";

/// The daemons each router runs (zebra first: the others connect to it).
const DAEMONS: [&str; 4] = ["zebra", "staticd", "ospfd", "bgpd"];

/// Namespace name prefix: `olavfrr-<pid>-<run>-<n>`.
const PREFIX: &str = "olavfrr-";

/// Networks brought up by this process so far: tests running side by side in one
/// process get namespaces of their own.
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// The commands recorded per router, and their files, named as batfish/lab-validation
/// names its Cumulus show output (`show/<router>/vtysh_-c_'<command>'.txt`).
pub const SHOWN: [(&str, &str); 3] = [
    (
        "show ip route vrf all json",
        "vtysh_-c_'show_ip_route_vrf_all_json'.txt",
    ),
    (
        "show bgp vrf all summary json",
        "vtysh_-c_'show_bgp_vrf_all_summary_json'.txt",
    ),
    (
        "show ip ospf vrf all neighbor json",
        "vtysh_-c_'show_ip_ospf_vrf_all_neighbor_json'.txt",
    ),
];

/// Why the live part cannot run on this machine, or None when it can.
pub fn unavailable() -> Option<String> {
    let uid = match run(Command::new("id").arg("-u")) {
        Ok(uid) => uid,
        Err(e) => return Some(format!("cannot tell the user (`id -u`: {e})")),
    };
    if uid.trim() != "0" {
        return Some(format!(
            "not root (uid {}): namespaces and veth pairs need it",
            uid.trim()
        ));
    }
    if !Path::new(SBIN).join("zebra").exists() || run(Command::new("vtysh").arg("--help")).is_err()
    {
        return Some(format!(
            "FRR is not installed (no {SBIN}/zebra or vtysh: apt-get install frr)"
        ));
    }
    if run(Command::new("id").arg("frr")).is_err() {
        return Some("no `frr` user (the daemons drop to it)".into());
    }
    let probe = format!("{PREFIX}{}-probe", std::process::id());
    if let Err(e) = run(Command::new("ip").args(["netns", "add", &probe])) {
        return Some(format!(
            "no network namespaces (`ip netns add` failed: {e})"
        ));
    }
    // The cables are veth pairs: a kernel or sandbox without them cannot run the test.
    let veth = run(Command::new("ip").args([
        "-n", &probe, "link", "add", "probe0", "type", "veth", "peer", "name", "probe1",
    ]));
    let _ = run(Command::new("ip").args(["netns", "del", &probe]));
    if let Err(e) = veth {
        return Some(format!(
            "no veth pairs (`ip link add … type veth` failed: {e})"
        ));
    }
    None
}

/// Runs a command; its stdout, or why it failed (its stderr).
fn run(c: &mut Command) -> Result<String, String> {
    let out: Output = c.output().map_err(|e| format!("{c:?}: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "{c:?}: {}{}",
            String::from_utf8_lossy(&out.stderr).trim(),
            String::from_utf8_lossy(&out.stdout).trim()
        ))
    }
}

/// One router up: its name, namespace and run folder.
struct Router {
    name: String,
    ns: String,
    run: PathBuf,
}

/// A network up; dropping it stops the daemons and removes the namespaces.
pub struct Live {
    routers: Vec<Router>,
    /// BGP peers not waited for (`expected_down`: router, VRF, peer per line).
    down: Vec<String>,
    _tmp: tempfile::TempDir,
}

impl Drop for Live {
    fn drop(&mut self) {
        for r in &self.routers {
            remove_namespace(&r.ns);
        }
    }
}

/// Stops every process in the namespace (only the daemons this harness started live
/// there) and removes it.
fn remove_namespace(ns: &str) {
    let pids = || run(Command::new("ip").args(["netns", "pids", ns])).unwrap_or_default();
    // TERM first (the daemons take up to a few seconds to exit), KILL what remains, and
    // wait for the processes to be gone before the namespace is.
    for (signal, wait) in [("-TERM", 30), ("-KILL", 20)] {
        let listed = pids();
        if listed.trim().is_empty() {
            break;
        }
        for pid in listed.split_whitespace() {
            let _ = run(Command::new("kill").args([signal, pid]));
        }
        for _ in 0..wait {
            if pids().trim().is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let _ = run(Command::new("ip").args(["netns", "del", ns]));
}

/// Removes the namespaces of test processes that no longer run (killed before their
/// drop ran).
fn sweep_stale() {
    let list = run(Command::new("ip").args(["netns", "list"])).unwrap_or_default();
    for name in list.lines().filter_map(|l| l.split_whitespace().next()) {
        let Some(pid) = name
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split('-').next())
        else {
            continue;
        };
        if !Path::new("/proc").join(pid).exists() {
            remove_namespace(name);
        }
    }
}

/// The interfaces a config names (`interface X`), but `lo`.
fn config_interfaces(conf: &str) -> Vec<String> {
    conf.lines()
        .filter_map(|l| l.strip_prefix("interface "))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|i| *i != "lo")
        .map(str::to_owned)
        .collect()
}

/// The config's defaults profile (`frr defaults datacenter`): the daemons take it at
/// start (`-F`), as FRR's init script (`frrcommon.sh`) gives it them — datacenter on
/// Cumulus — and the saved config records it.
fn profile(conf: &str) -> &str {
    conf.lines()
        .find_map(|l| l.strip_prefix("frr defaults "))
        .map(str::trim)
        .unwrap_or("traditional")
}

impl Live {
    /// Brings the network at `net` up: namespaces, cables, daemons, configs.
    pub fn up(net: &Path) -> Result<Live, String> {
        sweep_stale();
        let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
        let down = std::fs::read_to_string(net.join("expected_down"))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        let mut live = Live {
            routers: Vec::new(),
            down,
            _tmp: tmp,
        };
        let mut names: Vec<String> = std::fs::read_dir(net.join("configs"))
            .map_err(|e| format!("{}: {e}", net.display()))?
            .filter_map(Result::ok)
            .filter(|e| e.path().join("frr.conf").is_file())
            .filter_map(|e| e.file_name().to_str().map(str::to_owned))
            .collect();
        names.sort();
        let cabling = std::fs::read_to_string(net.join("batfish/layer1_topology.json"))
            .map_err(|e| format!("cabling: {e}"))?;
        let cabling = Layer1::parse(&cabling).map_err(|e| format!("cabling: {e}"))?;
        let run_no = RUNS.fetch_add(1, Ordering::Relaxed);
        for (i, name) in names.iter().enumerate() {
            let ns = format!("{PREFIX}{}-{run_no}-{i}", std::process::id());
            run(Command::new("ip").args(["netns", "add", &ns]))?;
            let dir = live._tmp.path().join(name);
            live.routers.push(Router {
                name: name.clone(),
                ns: ns.clone(),
                run: dir.clone(),
            });
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            run(Command::new("ip").args(["-n", &ns, "link", "set", "lo", "up"]))?;
            // A new namespace does not forward: a router between two BGP speakers
            // (iBGP over OSPF) would drop their session's packets.
            run(Command::new("ip")
                .args(["netns", "exec", &ns, "sysctl", "-qw"])
                .args(["net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1"]))?;
        }
        let mut cabled = BTreeSet::new();
        for e in &cabling.edges {
            let a = live.router(&e.node1.hostname)?;
            let b = live.router(&e.node2.hostname)?;
            let (ia, ib) = (&e.node1.interface_name, &e.node2.interface_name);
            run(Command::new("ip").args([
                "link", "add", ia, "netns", &a.ns, "type", "veth", "peer", "name", ib, "netns",
                &b.ns,
            ]))?;
            for (ns, i) in [(&a.ns, ia), (&b.ns, ib)] {
                run(Command::new("ip").args(["-n", ns, "link", "set", i, "up"]))?;
            }
            cabled.insert((a.name.clone(), ia.clone()));
            cabled.insert((b.name.clone(), ib.clone()));
        }
        for r in &live.routers {
            let conf = std::fs::read_to_string(net.join("configs").join(&r.name).join("frr.conf"))
                .map_err(|e| e.to_string())?;
            let lans = config_interfaces(&conf)
                .into_iter()
                .filter(|i| !cabled.contains(&(r.name.clone(), i.clone())));
            for (k, i) in lans.enumerate() {
                // A veth pair inside the namespace: its far end (`lanN`) keeps the
                // carrier up. Dummy interfaces would do, but not every kernel has them.
                let far = format!("lan{k}");
                run(Command::new("ip").args([
                    "-n", &r.ns, "link", "add", &i, "type", "veth", "peer", "name", &far,
                ]))?;
                for x in [&i, &far] {
                    run(Command::new("ip").args(["-n", &r.ns, "link", "set", x, "up"]))?;
                }
            }
            std::fs::write(r.run.join("frr.conf"), &conf).map_err(|e| e.to_string())?;
        }
        // The daemons drop to the `frr` user: their run folders must be its own.
        run(Command::new("chown")
            .args(["-R", "frr:frr"])
            .arg(live._tmp.path()))?;
        for r in &live.routers {
            let conf =
                std::fs::read_to_string(r.run.join("frr.conf")).map_err(|e| e.to_string())?;
            for d in DAEMONS {
                let pid = r.run.join(format!("{d}.pid"));
                let log = format!("file:{}", r.run.join(format!("{d}.log")).display());
                run(Command::new("ip")
                    .args(["netns", "exec", &r.ns])
                    .arg(Path::new(SBIN).join(d))
                    .args(["-d", "-F", profile(&conf), "-P", "0", "-f", "/dev/null"])
                    .arg("--vty_socket")
                    .arg(&r.run)
                    .arg("-i")
                    .arg(&pid)
                    .arg("-z")
                    .arg(r.run.join("zserv.api"))
                    .args(["--log", &log]))?;
            }
        }
        for r in &live.routers {
            live.wait_for_sockets(r)?;
            run(Command::new("vtysh")
                .arg("--vty_socket")
                .arg(&r.run)
                .arg("-f")
                .arg(r.run.join("frr.conf")))
            .map_err(|e| format!("{}: the config did not apply: {e}", r.name))?;
        }
        Ok(live)
    }

    fn router(&self, name: &str) -> Result<&Router, String> {
        self.routers
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!("the cabling names {name}, which has no configs/{name}/frr.conf")
            })
    }

    /// Waits until every daemon of `r` listens on its vty socket.
    fn wait_for_sockets(&self, r: &Router) -> Result<(), String> {
        let start = Instant::now();
        loop {
            let missing: Vec<&str> = DAEMONS
                .into_iter()
                .filter(|d| !r.run.join(format!("{d}.vty")).exists())
                .collect();
            if missing.is_empty() {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(15) {
                return Err(format!("{}: {} did not start", r.name, missing.join(", ")));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// One router's answer to a `show` command.
    fn show(&self, r: &Router, command: &str) -> Result<String, String> {
        run(Command::new("vtysh")
            .arg("--vty_socket")
            .arg(&r.run)
            .args(["-c", command]))
    }

    /// Waits until every BGP peer but those `expected_down` names is Established, every
    /// OSPF interface that is not passive has a Full adjacency, and the routing tables
    /// have not changed for `quiet`; on timeout, what did not converge.
    pub fn converge(&self, timeout: Duration, quiet: Duration) -> Result<Duration, String> {
        let start = Instant::now();
        let mut last: Option<(String, Instant)> = None;
        loop {
            let mut pending = Vec::new();
            let mut tables = String::new();
            for r in &self.routers {
                let bgp = self.show(r, "show bgp vrf all summary json")?;
                pending.extend(
                    not_established(&bgp)
                        .into_iter()
                        .filter(|(vrf, peer, _)| {
                            !self.down.contains(&format!("{} {vrf} {peer}", r.name))
                        })
                        .map(|(vrf, peer, state)| format!("{} BGP {vrf} {peer}: {state}", r.name)),
                );
                let ospf = self.show(r, "show ip ospf vrf all interface json")?;
                pending.extend(
                    not_adjacent(&ospf)
                        .into_iter()
                        .map(|i| format!("{} OSPF {i}", r.name)),
                );
                tables.push_str(&stable_routes(&self.show(r, "show ip route vrf all json")?));
            }
            if pending.is_empty() {
                match &last {
                    Some((t, since)) if *t == tables => {
                        if since.elapsed() >= quiet {
                            return Ok(start.elapsed());
                        }
                    }
                    _ => last = Some((tables, Instant::now())),
                }
            } else {
                last = None;
            }
            if start.elapsed() > timeout {
                return Err(if pending.is_empty() {
                    format!("the routing tables kept changing for {timeout:?}")
                } else {
                    format!("not converged after {timeout:?}: {}", pending.join("; "))
                });
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// Writes every router's answers to [`SHOWN`] under `out/<router>/`.
    pub fn record(&self, out: &Path) -> Result<(), String> {
        for r in &self.routers {
            let dir = out.join(&r.name);
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            for (command, file) in SHOWN {
                let text = self.show(r, command)?;
                std::fs::write(dir.join(file), text).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }
}

/// The BGP peers of a `show bgp vrf all summary json` not Established: VRF, peer, state.
fn not_established(text: &str) -> Vec<(String, String, String)> {
    let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let mut out = Vec::new();
    for (vrf, afs) in v.as_object().into_iter().flatten() {
        for s in afs.as_object().into_iter().flatten().map(|(_, s)| s) {
            for (peer, p) in s["peers"].as_object().into_iter().flatten() {
                let state = p["state"].as_str().unwrap_or("?");
                if state != "Established" {
                    out.push((vrf.clone(), peer.clone(), state.to_owned()));
                }
            }
        }
    }
    out
}

/// The OSPF interfaces of a `show ip ospf vrf all interface json` that are not passive
/// and have no Full adjacency.
fn not_adjacent(text: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let mut out = Vec::new();
    for (vrf, body) in v.as_object().into_iter().flatten() {
        for (name, i) in body["interfaces"].as_object().into_iter().flatten() {
            let passive = i["timerPassiveIface"].as_bool().unwrap_or(false);
            if !passive && i["nbrAdjacentCount"].as_u64().unwrap_or(0) == 0 {
                out.push(format!("{vrf} {name}: no Full adjacency"));
            }
        }
    }
    out
}

/// A routing table's rows without what changes on its own (uptimes): equal texts are
/// equal tables.
fn stable_routes(text: &str) -> String {
    text.lines()
        .filter(|l| !l.contains("\"uptime\""))
        .collect::<Vec<_>>()
        .join("\n")
}
