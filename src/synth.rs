//! `olav synth`: large, realistic generated networks for benchmarks and tests.
//!
//! Per site: border routers (one at every seventh site, two elsewhere) with eBGP to
//! upstream ISPs, two cores (iBGP route reflectors, joined to the next site's cores),
//! distribution pairs, and access switches — most dual-homed to their pair with two
//! links each side, some single-homed, each paired sideways with a neighbor. Links are
//! routed /31s, so the importer infers them from shared subnets. Vendors mix IOS and
//! EOS. Same `devices` and `seed`, same bytes.
//!
//! Routing as a large enterprise runs it: OSPF area 0 is the backbone (borders, cores,
//! the ring between sites); each site is its own totally stubby area (`area N stub
//! no-summary`) whose ABRs are its two cores, so a site's routers hold their site's
//! routes and a default, and the user VLANs are advertised (passive); the borders
//! originate the default route. iBGP: each site's cores reflect for its borders and
//! distribution switches; the first site's first core reflects between the sites'
//! first cores (a hierarchy, not a ring: a route crosses at most two reflectors). The
//! borders announce 100.64.0.0/10 (held up by a discard route) to their ISPs and accept
//! their default route and prefixes up to /24 at local preference 200; what the ISPs
//! announce is not in the snapshot (they are not devices of it).

use crate::fsutil::write_atomic;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::fmt::Write as _;
use std::net::Ipv4Addr;
use std::path::Path;

/// What `synth` wrote.
#[derive(Debug, Clone, Serialize)]
pub struct SynthSummary {
    /// Devices written.
    pub devices: usize,
    /// Sites.
    pub sites: usize,
    /// Config lines across all files.
    pub config_lines: usize,
    /// Point-to-point links in the design.
    pub links: usize,
}

/// One generated snapshot in memory.
pub struct Generated {
    /// `(configs/<host>.cfg, text)` per device, in hostname order.
    pub configs: Vec<(String, String)>,
    /// The `state.yaml` text.
    pub state_yaml: String,
    /// Figures.
    pub summary: SynthSummary,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Os {
    Ios,
    Eos,
}

struct Dev {
    host: String,
    role: &'static str,
    site: String,
    os: Os,
    loopback: Ipv4Addr,
    ifaces: Vec<String>,
    bgp: Vec<String>,
    next_port: u32,
    /// The OSPF area of its site (0 for borders, and in a site without cores).
    area: u32,
    /// The first site's first core: it reflects iBGP routes between the sites.
    reflects_sites: bool,
}

impl Dev {
    fn port(&mut self) -> String {
        self.next_port += 1;
        match self.os {
            Os::Ios => format!("GigabitEthernet0/{}", self.next_port),
            Os::Eos => format!("Ethernet{}", self.next_port),
        }
    }

    fn addr(&self, ip: Ipv4Addr, len: u8) -> String {
        match self.os {
            Os::Ios => {
                let mask = Ipv4Addr::from(u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0));
                format!("ip address {ip} {mask}")
            }
            Os::Eos => format!("ip address {ip}/{len}"),
        }
    }

    fn indent(&self) -> &'static str {
        match self.os {
            Os::Ios => " ",
            Os::Eos => "   ",
        }
    }
}

struct Net {
    devs: Vec<Dev>,
    next_p2p: u32,
    links: usize,
}

const ISPS: &[(u32, &str)] = &[
    (7575, "AARNet"),
    (174, "Cogent"),
    (3356, "Lumen"),
    (2914, "NTT"),
];
const LOCAL_AS: u32 = 65000;

impl Net {
    /// A routed /31 between `a` and `b`; a core (whose interfaces are in two areas) runs
    /// OSPF on it in `area`, the other devices by their `network` statements.
    fn link(&mut self, a: usize, b: usize, area: u32) {
        let base = u32::from(Ipv4Addr::new(10, 0, 0, 0)) + self.next_p2p * 2;
        self.next_p2p += 1;
        self.links += 1;
        let (ip_a, ip_b) = (Ipv4Addr::from(base), Ipv4Addr::from(base + 1));
        let (host_a, host_b) = (self.devs[a].host.clone(), self.devs[b].host.clone());
        let pa = self.devs[a].port();
        let pb = self.devs[b].port();
        for (d, port, ip, peer, peer_port) in
            [(a, &pa, ip_a, &host_b, &pb), (b, &pb, ip_b, &host_a, &pa)]
        {
            let dev = &self.devs[d];
            let i = dev.indent();
            let mut s = format!("interface {port}\n{i}description {peer} {peer_port}\n");
            if dev.os == Os::Eos || dev.role == "access" {
                let _ = writeln!(s, "{i}no switchport");
            }
            let _ = writeln!(s, "{i}mtu 9000\n{i}{}", dev.addr(ip, 31));
            let _ = writeln!(s, "{i}ip ospf network point-to-point");
            if dev.role == "core" {
                let _ = writeln!(s, "{i}ip ospf area {}", Ipv4Addr::from(area));
            }
            s.push_str("!\n");
            self.devs[d].ifaces.push(s);
        }
    }
}

/// Generates a network of `devices` devices.
pub fn generate(devices: usize, seed: u64) -> Generated {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let devices = devices.max(1);
    let site_size = 200usize;
    let sites = devices.div_ceil(site_size).max(1);
    let mut net = Net {
        devs: Vec::with_capacity(devices),
        next_p2p: 0,
        links: 0,
    };
    let mut site_cores: Vec<Vec<usize>> = Vec::new();
    let mut upstreams = 0u32;
    let mut services: Vec<(String, &'static str, &'static str, String)> = Vec::new();
    let mut user_subnet = 0u32;
    for s in 0..sites {
        let site = format!("s{:03}", s + 1);
        let this_size = (devices - s * site_size).min(site_size);
        let n_core = if this_size >= 6 { 2 } else { 0 };
        // One OSPF area per site, totally stubby, its cores the ABRs; a site without
        // cores joins the backbone.
        let site_area = if n_core > 0 { s as u32 + 1 } else { 0 };
        let new_dev = |net: &mut Net, host: String, role: &'static str, os: Os| {
            let idx = net.devs.len();
            net.devs.push(Dev {
                host,
                role,
                site: site.clone(),
                os,
                loopback: Ipv4Addr::from(u32::from(Ipv4Addr::new(100, 64, 0, 1)) + idx as u32),
                ifaces: Vec::new(),
                bgp: Vec::new(),
                next_port: 0,
                area: if role == "border" { 0 } else { site_area },
                reflects_sites: false,
            });
            idx
        };
        let n_border = if this_size < 4 || s % 7 == 3 { 1 } else { 2 };
        let borders: Vec<usize> = (0..n_border)
            .map(|i| {
                new_dev(
                    &mut net,
                    format!("{site}-border-{}", i + 1),
                    "border",
                    Os::Ios,
                )
            })
            .collect();
        let cores: Vec<usize> = (0..n_core)
            .map(|i| new_dev(&mut net, format!("{site}-core-{}", i + 1), "core", Os::Eos))
            .collect();
        let remaining = this_size - n_border - n_core;
        let pairs = if remaining >= 3 {
            (remaining / 20).max(1)
        } else {
            0
        };
        let n_access = remaining - pairs * 2;
        let dist_os = if s % 2 == 0 { Os::Eos } else { Os::Ios };
        let dists: Vec<(usize, usize)> = (0..pairs)
            .map(|p| {
                (
                    new_dev(
                        &mut net,
                        format!("{site}-dist-{:02}a", p + 1),
                        "distribution",
                        dist_os,
                    ),
                    new_dev(
                        &mut net,
                        format!("{site}-dist-{:02}b", p + 1),
                        "distribution",
                        dist_os,
                    ),
                )
            })
            .collect();
        let access: Vec<usize> = (0..n_access)
            .map(|a| {
                let os = if rng.gen_ratio(1, 5) {
                    Os::Eos
                } else {
                    Os::Ios
                };
                new_dev(&mut net, format!("{site}-acc-{:04}", a + 1), "access", os)
            })
            .collect();
        // Uplinks of the border routers to their ISPs.
        for &b in &borders {
            let (asn, name) = ISPS[(upstreams as usize) % ISPS.len()];
            let base = u32::from(Ipv4Addr::new(203, 0, 0, 0)) + upstreams * 4;
            upstreams += 1;
            let (ours, theirs) = (Ipv4Addr::from(base + 1), Ipv4Addr::from(base + 2));
            let port = net.devs[b].port();
            let dev = &mut net.devs[b];
            dev.ifaces.push(format!(
                "interface {port}\n description {name} transit\n {}\n!\n",
                dev.addr(ours, 30)
            ));
            dev.bgp.push(format!(
                " neighbor {theirs} remote-as {asn}\n neighbor {theirs} description {name}\n neighbor {theirs} route-map {}-IN in\n neighbor {theirs} route-map {}-OUT out\n",
                name.to_uppercase(),
                name.to_uppercase()
            ));
            services.push((
                format!("{}-internet", dev.host),
                "internet",
                "critical",
                format!("device: {}", dev.host),
            ));
        }
        // Border ↔ core, core ↔ core.
        for &b in &borders {
            for &c in &cores {
                net.link(b, c, 0);
            }
            if cores.is_empty() {
                for &(da, _) in dists.iter().take(1) {
                    net.link(b, da, 0);
                }
            }
        }
        if cores.len() == 2 {
            net.link(cores[0], cores[1], 0);
            net.link(cores[0], cores[1], 0);
        }
        for &(da, db) in &dists {
            net.link(da, db, site_area);
            for &c in &cores {
                net.link(da, c, site_area);
                net.link(db, c, site_area);
            }
            if cores.is_empty() {
                if let Some(&b) = borders.first() {
                    net.link(db, b, 0);
                }
            }
        }
        for (k, &a) in access.iter().enumerate() {
            let Some(&(da, db)) = dists.get(k % dists.len().max(1)) else {
                if let Some(&b) = borders.first() {
                    net.link(a, b, 0);
                }
                continue;
            };
            let single = k % 20 == 19;
            net.link(a, da, site_area);
            net.link(a, da, site_area);
            if !single {
                net.link(a, db, site_area);
                net.link(a, db, site_area);
            }
            if k % 2 == 1 {
                net.link(access[k - 1], a, site_area);
            }
            // User VLANs: data and voice SVIs.
            let dev = &mut net.devs[a];
            let i = dev.indent();
            for (vlan, name) in [(10, "DATA"), (20, "VOICE")] {
                let base = u32::from(Ipv4Addr::new(10, 128, 0, 0)) + user_subnet * 64;
                user_subnet += 1;
                let gw = Ipv4Addr::from(base + 1);
                dev.ifaces.push(format!(
                    "interface Vlan{vlan}\n{i}description {name}\n{i}{}\n!\n",
                    dev.addr(gw, 26)
                ));
            }
            for p in 0..4 {
                let port = dev.port();
                let vlan = if p % 2 == 0 { 10 } else { 20 };
                dev.ifaces.push(format!(
                    "interface {port}\n{i}description user port\n{i}switchport mode access\n{i}switchport access vlan {vlan}\n!\n"
                ));
            }
            if k % 10 == 0 {
                let crit = if single { "high" } else { "medium" };
                services.push((
                    format!("{}-voice", dev.host),
                    "voice",
                    crit,
                    format!("device: {}", dev.host),
                ));
            }
        }
        // iBGP: borders and distribution switches are clients of both cores.
        let clients: Vec<usize> = borders
            .iter()
            .copied()
            .chain(dists.iter().flat_map(|&(a, b)| [a, b]))
            .collect();
        for &c in &cores {
            for &cl in &clients {
                let (cl_lo, c_lo) = (net.devs[cl].loopback, net.devs[c].loopback);
                net.devs[c]
                    .bgp
                    .push(format!("   neighbor {cl_lo} peer group RR-CLIENTS\n"));
                let i = net.devs[cl].indent();
                let client = &mut net.devs[cl];
                client.bgp.push(format!(
                    "{i}neighbor {c_lo} remote-as {LOCAL_AS}\n{i}neighbor {c_lo} update-source Loopback0\n{i}neighbor {c_lo} description {}\n",
                    format_args!("rr {}", c_lo)
                ));
            }
        }
        site_cores.push(cores);
    }
    // Sites' first cores in a ring of backbone (area 0) links. iBGP between sites:
    // the first site's first core reflects for every other site's first core (a ring of
    // plain iBGP sessions would not carry a route past the next site).
    if site_cores.len() > 1 {
        for s in 0..site_cores.len() {
            let next = (s + 1) % site_cores.len();
            if next == s || (site_cores.len() == 2 && s == 1) {
                continue;
            }
            if let (Some(&a), Some(&b)) = (site_cores[s].first(), site_cores[next].first()) {
                net.link(a, b, 0);
            }
        }
        if let Some(&top) = site_cores[0].first() {
            net.devs[top].reflects_sites = true;
            for &c in site_cores.iter().skip(1).filter_map(|c| c.first()) {
                let (lt, lc) = (net.devs[top].loopback, net.devs[c].loopback);
                net.devs[top]
                    .bgp
                    .push(format!("   neighbor {lc} peer group CORE-MESH\n"));
                net.devs[c]
                    .bgp
                    .push(format!("   neighbor {lt} peer group CORE-MESH\n"));
            }
        }
    }
    let mut configs = Vec::with_capacity(net.devs.len());
    let mut lines = 0usize;
    for d in &net.devs {
        let text = render(d);
        lines += text.lines().count();
        configs.push((format!("configs/{}.cfg", d.host), text));
    }
    configs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut y = String::from(
        "# Generated by `olav synth`.\ncollected_at: \"2026-01-01T00:00:00Z\"\ndevices:\n",
    );
    for d in &net.devs {
        let _ = writeln!(
            y,
            "  - {{hostname: {}, role: {}, site: {}}}",
            d.host, d.role, d.site
        );
    }
    y.push_str("services:\n");
    for (name, kind, crit, ep) in &services {
        let _ = writeln!(
            y,
            "  - {{name: {name}, kind: {kind}, criticality: {crit}, endpoints: [{{{ep}}}]}}"
        );
    }
    let summary = SynthSummary {
        devices: net.devs.len(),
        sites,
        config_lines: lines,
        links: net.links,
    };
    Generated {
        configs,
        state_yaml: y,
        summary,
    }
}

/// The OSPF process: a core runs it per interface (backbone and its site's area, a
/// totally stubby area whose ABR it is), the others by `network` statements in their
/// site's area (a stub area); access switches advertise their user VLANs, passive; the
/// borders originate the default route.
fn render_ospf(s: &mut String, d: &Dev) {
    let i = d.indent();
    let _ = write!(
        s,
        "router ospf 1\n{i}router-id {}\n{i}passive-interface Loopback0\n",
        d.loopback
    );
    let area = |a: u32| match d.os {
        Os::Ios => a.to_string(),
        Os::Eos => Ipv4Addr::from(a).to_string(),
    };
    let a = area(d.area);
    if d.role == "access" {
        let _ = write!(
            s,
            "{i}passive-interface Vlan10\n{i}passive-interface Vlan20\n"
        );
    }
    if d.role == "core" {
        if d.area != 0 {
            let _ = writeln!(s, "{i}area {a} stub no-summary");
        }
    } else {
        match d.os {
            Os::Ios => {
                let _ = write!(s, " network 10.0.0.0 0.127.255.255 area {a}\n network 100.64.0.0 0.63.255.255 area {a}\n");
            }
            Os::Eos => {
                let _ = write!(
                    s,
                    "   network 10.0.0.0/9 area {a}\n   network 100.64.0.0/10 area {a}\n"
                );
            }
        }
        if d.role == "access" {
            let net = match d.os {
                Os::Ios => "10.128.0.0 0.127.255.255",
                Os::Eos => "10.128.0.0/9",
            };
            let _ = writeln!(s, "{i}network {net} area {a}");
        }
        if d.area != 0 {
            let _ = writeln!(s, "{i}area {a} stub");
        }
    }
    if d.role == "border" {
        s.push_str(" default-information originate\n");
    }
    s.push_str("!\n");
}

fn render(d: &Dev) -> String {
    let i = d.indent();
    let mut s = String::with_capacity(4096);
    match d.os {
        Os::Ios => {
            s.push_str("Building configuration...\n\nCurrent configuration : 4096 bytes\n!\nversion 15.9\nservice timestamps debug datetime msec\nservice timestamps log datetime msec\nno service password-encryption\n!\n");
        }
        Os::Eos => {
            let _ = write!(s, "! Command: show running-config\n! device: {} (DCS-7280SR-48C6, EOS-4.28.3M)\n!\nservice routing protocols model multi-agent\n!\n", d.host);
        }
    }
    let _ = write!(s, "hostname {}\n!\nip domain name example.net\nntp server 192.0.2.123\nlogging host 192.0.2.50\n!\nsnmp-server community n3tw0rk RO MGMT-ACL\n!\n", d.host);
    if d.role == "access" {
        s.push_str("vlan 10\n name DATA\n!\nvlan 20\n name VOICE\n!\n");
    }
    let _ = write!(
        s,
        "interface Loopback0\n{i}description router-id\n{i}{}\n",
        d.addr(d.loopback, 32)
    );
    if d.role == "core" {
        let _ = writeln!(s, "{i}ip ospf area 0.0.0.0");
    }
    s.push_str("!\n");
    for f in &d.ifaces {
        s.push_str(f);
    }
    let mgmt = match d.os {
        Os::Ios => "GigabitEthernet0/0",
        Os::Eos => "Management1",
    };
    let _ = write!(s, "interface {mgmt}\n{i}description oob management\n");
    match d.os {
        Os::Ios => s.push_str(" vrf forwarding Mgmt-intf\n"),
        Os::Eos => s.push_str("   vrf MGMT\n"),
    }
    let _ = write!(
        s,
        "{i}{}\n!\n",
        d.addr(Ipv4Addr::from(u32::from(d.loopback) + (1 << 20)), 16)
    );
    render_ospf(&mut s, d);
    if !d.bgp.is_empty() {
        let _ = writeln!(s, "router bgp {LOCAL_AS}");
        match d.os {
            Os::Ios => {
                let _ = write!(
                    s,
                    " bgp router-id {}\n bgp log-neighbor-changes\n",
                    d.loopback
                );
            }
            Os::Eos => {
                let _ = writeln!(s, "   router-id {}", d.loopback);
                if d.role == "core" {
                    let _ = write!(s, "   neighbor RR-CLIENTS peer group\n   neighbor RR-CLIENTS remote-as {LOCAL_AS}\n   neighbor RR-CLIENTS update-source Loopback0\n   neighbor RR-CLIENTS route-reflector-client\n   neighbor CORE-MESH peer group\n   neighbor CORE-MESH remote-as {LOCAL_AS}\n   neighbor CORE-MESH update-source Loopback0\n");
                    if d.reflects_sites {
                        s.push_str("   neighbor CORE-MESH route-reflector-client\n");
                    }
                }
            }
        }
        for b in &d.bgp {
            s.push_str(b);
        }
        if d.role == "border" {
            s.push_str(" network 100.64.0.0 mask 255.192.0.0\n");
        }
        s.push_str("!\n");
        if d.role == "border" {
            for (_, name) in ISPS {
                let n = name.to_uppercase();
                // The ISP's default route and its prefixes up to /24.
                let _ = write!(s, "ip prefix-list {n}-IN seq 5 permit 0.0.0.0/0\nip prefix-list {n}-IN seq 10 deny 0.0.0.0/0 le 7\nip prefix-list {n}-IN seq 15 permit 0.0.0.0/0 le 24\n");
                let _ = write!(s, "route-map {n}-IN permit 10\n match ip address prefix-list {n}-IN\n set local-preference 200\n!\nroute-map {n}-OUT permit 10\n match ip address prefix-list OUR-PREFIXES\n!\n");
            }
            s.push_str("ip prefix-list OUR-PREFIXES seq 10 permit 100.64.0.0/10\n!\n");
        }
    }
    s.push_str(match d.os {
        Os::Ios => "ip route 0.0.0.0 0.0.0.0 Null0 250\n",
        Os::Eos => "ip route 0.0.0.0/0 Null0 250\n",
    });
    if d.role == "border" {
        // The announced aggregate needs a route of its own (`network` takes only what
        // the RIB holds).
        s.push_str("ip route 100.64.0.0 255.192.0.0 Null0\n");
    }
    match d.os {
        Os::Ios => s.push_str("ip access-list standard MGMT-ACL\n permit 192.0.2.0 0.0.0.255\n deny any log\n!\nline vty 0 4\n access-class MGMT-ACL in\n transport input ssh\n!\n"),
        Os::Eos => s.push_str("ip access-list standard MGMT-ACL\n   10 permit 192.0.2.0/24\n!\nmanagement ssh\n   ip access-group MGMT-ACL in\n!\n"),
    }
    s.push_str("end\n");
    s
}

impl Generated {
    /// The generated network as an in-memory snapshot, ready to import.
    pub fn to_snapshot(&self) -> crate::import::Snapshot {
        let file = |path: &str, text: &str, hint: &str| crate::import::SourceFile {
            path: path.to_owned(),
            name_hint: hint.to_owned(),
            bytes: text.as_bytes().to_vec(),
            modified: None,
        };
        crate::import::Snapshot {
            label: format!("olav synth ({} devices)", self.summary.devices),
            configs: self
                .configs
                .iter()
                .map(|(p, t)| {
                    let hint = p.trim_start_matches("configs/").trim_end_matches(".cfg");
                    file(p, t, hint)
                })
                .collect(),
            state_file: Some(file(
                crate::import::opstate::FILE_NAME,
                &self.state_yaml,
                "",
            )),
            batfish_files: Vec::new(),
            unreadable: Vec::new(),
        }
    }
}

/// Generates and writes a snapshot folder.
pub fn write(out: &Path, devices: usize, seed: u64) -> std::io::Result<SynthSummary> {
    let g = generate(devices, seed);
    std::fs::create_dir_all(out.join("configs"))?;
    for (path, text) in &g.configs {
        write_atomic(&out.join(path), text.as_bytes())?;
    }
    write_atomic(
        &out.join(crate::import::opstate::FILE_NAME),
        g.state_yaml.as_bytes(),
    )?;
    Ok(g.summary)
}
