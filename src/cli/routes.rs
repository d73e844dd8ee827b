//! `olav routes`: the computed main RIBs, as a table for people or Batfish's `routes`
//! rows in JSON.

use super::{open_or_demo, Cli, Exit};
use crate::output::Format;
use crate::routing::bgp::BGP_COLUMNS;
use crate::routing::{DeviceRib, Protocol, Query, RoutingModel, COLUMNS};
use anyhow::{bail, Result};
use ipnet::Ipv4Net;
use std::io::Write;

/// Reads `--prefix`: a prefix, or an address (its /32).
fn prefix(p: &str) -> Result<Ipv4Net> {
    if let Ok(n) = p.parse::<Ipv4Net>() {
        if n != n.trunc() {
            bail!(
                "--prefix '{p}' has host bits set: did you mean the network {} or the address {}?",
                n.trunc(),
                n.addr()
            );
        }
        return Ok(n);
    }
    match p.parse::<std::net::Ipv4Addr>() {
        Ok(a) => Ok(Ipv4Net::from(a)),
        Err(_) => bail!("--prefix '{p}': expected an IPv4 prefix (10.0.0.0/8) or address"),
    }
}

/// Reads `--protocol`: Batfish's name of a protocol olav computes.
fn protocol(p: &str) -> Result<Protocol> {
    match Protocol::from_name(p) {
        Some(p) => Ok(p),
        None => {
            let names: Vec<String> = Protocol::ALL.map(|p| p.as_str().to_owned()).to_vec();
            bail!(
                "--protocol '{p}': not a protocol olav computes{}; it computes {}",
                crate::fuzzy::closest(p, &names)
                    .map(|c| format!(" (did you mean {c}?)"))
                    .unwrap_or_default(),
                names.join(", ")
            )
        }
    }
}

/// The incomplete RIBs, one line per reason: the devices (with the VRF where it is not
/// every one), and the static routes left out with them.
fn incomplete_lines(ribs: &[DeviceRib]) -> Vec<String> {
    const SHOWN: usize = 8;
    // Per reason and VRF (None: every VRF of the device), the devices.
    let mut by_reason: std::collections::BTreeMap<(&str, Option<&str>), Vec<&str>> =
        Default::default();
    for r in ribs {
        for i in &r.incomplete {
            let list = by_reason
                .entry((i.reason.as_str(), i.vrf.as_deref()))
                .or_default();
            if !list.contains(&r.hostname.as_str()) {
                list.push(&r.hostname);
            }
        }
    }
    let mut out: Vec<String> = by_reason
        .into_iter()
        .map(|((reason, vrf), devices)| {
            let more = devices.len().saturating_sub(SHOWN);
            let mut names = devices[..devices.len().min(SHOWN)].join(", ");
            if more > 0 {
                names.push_str(&format!(", … {more} more (--format json lists them)"));
            }
            let scope = vrf.map_or_else(|| "every VRF".to_owned(), |v| format!("VRF {v}"));
            format!("  {reason} — {scope}: {names}")
        })
        .collect();
    let left: u32 = ribs
        .iter()
        .filter(|r| !r.incomplete.is_empty())
        .map(|r| r.unresolved_statics)
        .sum();
    if left > 0 {
        out.push(format!(
            "  {left} static route{} left out: no computed route resolves the next hop (a dynamic protocol may)",
            if left == 1 { "" } else { "s" }
        ));
    }
    out
}

/// An error unless the model has device `d` (with a suggestion for a typo).
pub fn known_device(db: &crate::state::StateDb, model: &RoutingModel, d: &str) -> Result<()> {
    if model.hostnames().iter().any(|h| h == d) {
        return Ok(());
    }
    if db.has_device(d)? {
        bail!("device '{d}' has no stored configuration: olav has no routes for it");
    }
    let names = db.hostnames()?;
    bail!(
        "no device '{d}' in {}{}",
        db.path().display(),
        crate::fuzzy::closest(d, &names)
            .map(|c| format!("; did you mean {c}?"))
            .unwrap_or_default()
    )
}

/// Whether `vrf` is the management plane's (kept out of the model); an error when no
/// device in scope (`device`, else any) has a VRF of that name.
pub fn known_vrf(db: &crate::state::StateDb, vrf: &str, device: Option<&str>) -> Result<bool> {
    if vrf == "default" {
        return Ok(false);
    }
    let m = crate::network::NetworkModel::shared(db)?;
    let in_scope = |h: &str| device.is_none_or(|d| d == h);
    let mut names: std::collections::BTreeSet<String> = m
        .addresses
        .iter()
        .filter(|a| in_scope(m.name(a.hostname)))
        .map(|a| m.name(a.vrf).to_owned())
        .collect();
    names.extend(
        m.static_routes
            .iter()
            .filter(|r| in_scope(&r.hostname))
            .map(|r| r.vrf.clone()),
    );
    names.insert("default".to_owned());
    if names.contains(vrf) {
        return Ok(crate::routing::connected::is_management("", vrf));
    }
    let list: Vec<&str> = names.iter().map(String::as_str).collect();
    bail!(
        "--vrf '{vrf}': no VRF of that name{}; VRFs: {}",
        device.map(|d| format!(" on {d}")).unwrap_or_default(),
        list.join(", ")
    )
}

/// The filters of `olav routes`, read.
pub fn query(
    device: Option<&str>,
    vrf: Option<&str>,
    prefix_arg: Option<&str>,
    protocol_arg: Option<&str>,
) -> Result<Query> {
    Ok(Query {
        device: device.map(str::to_owned),
        vrf: vrf.map(str::to_owned),
        prefix: prefix_arg.map(prefix).transpose()?,
        protocol: protocol_arg.map(protocol).transpose()?,
    })
}

/// What `olav routes` is asked.
pub struct Ask<'a> {
    /// `--device`.
    pub device: Option<&'a str>,
    /// `--vrf`.
    pub vrf: Option<&'a str>,
    /// `--prefix`.
    pub prefix: Option<&'a str>,
    /// `--protocol`.
    pub protocol: Option<&'a str>,
    /// `--rib`: `main` or `bgp`.
    pub rib: &'a str,
}

/// `olav routes`.
pub fn routes(cli: &Cli, ask: Ask<'_>) -> Result<Exit> {
    let Ask {
        device,
        vrf,
        prefix: prefix_arg,
        protocol: protocol_arg,
        rib,
    } = ask;
    let bgp_rib = match rib {
        "main" => false,
        "bgp" => true,
        other => bail!("--rib '{other}': expected main or bgp"),
    };
    let q = query(device, vrf, prefix_arg, protocol_arg)?;
    let db = open_or_demo(cli)?;
    let model = RoutingModel::shared(&db)?;
    if let Some(d) = device {
        known_device(&db, &model, d)?;
    }
    let management = match vrf {
        Some(v) => known_vrf(&db, v, device)?,
        None => false,
    };
    if management {
        let why = format!(
            "VRF {} is the management plane's: olav keeps it out of the routing model, as Batfish does — its routes are not known",
            vrf.unwrap_or_default()
        );
        match cli.format {
            Format::Json => println!(
                "{}",
                serde_json::json!({"state_version": model.state_version, "columns": COLUMNS,
                    "routes": [], "incomplete": [{"node": device, "vrf": vrf, "reason": why}]})
            ),
            Format::Text => println!("UNKNOWN — {why}"),
        }
        return Ok(Exit::Partial);
    }
    let network = unread_reason(&db)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if bgp_rib {
        // The BGP RIB: its rows by the same VRF and prefix; the main RIB's rows unused.
        let mut ribs = model.select(&db, &q)?;
        for r in &mut ribs {
            r.routes.clear();
            r.bgp.retain(|b| {
                q.vrf.as_ref().is_none_or(|v| *v == b.vrf)
                    && q.prefix.is_none_or(|p| b.network.contains(&p))
                    && q.protocol.is_none_or(|p| p.as_str() == b.protocol)
            });
        }
        match cli.format {
            Format::Json => write_bgp_json(&mut out, model.state_version, &ribs)?,
            Format::Text => write_bgp_text(&mut out, &ribs)?,
        }
        out.flush()?;
        return Ok(
            if network.is_some() || ribs.iter().any(|r| !r.incomplete.is_empty()) {
                Exit::Partial
            } else {
                Exit::Ok
            },
        );
    }
    // One device's RIB is made once; a whole network's one at a time, never held
    // together (50 million rows at 10,000 devices): JSON as they come, text in two
    // passes (the column widths, then the rows).
    let one = match q.device {
        Some(_) => Some(model.select(&db, &q)?),
        None => None,
    };
    let mut partial = false;
    let mut each = |f: &mut dyn FnMut(&DeviceRib) -> Result<()>| -> Result<()> {
        let mut visit = |rib: &DeviceRib| {
            partial |= !rib.incomplete.is_empty();
            f(rib)
        };
        match &one {
            Some(ribs) => ribs.iter().try_for_each(&mut visit),
            None => model.ribs(&db, &q).try_for_each(|rib| visit(&rib?)),
        }
    };
    match cli.format {
        Format::Json => write_json(&mut out, model.state_version, &mut each, network.as_deref())?,
        Format::Text => write_text(&mut out, &mut each, network.as_deref())?,
    }
    out.flush()?;
    // An incomplete RIB is a partial answer (PRODUCT.md: exit 3), so that a script never
    // takes it for the whole table.
    Ok(if partial || network.is_some() {
        Exit::Partial
    } else {
        Exit::Ok
    })
}

/// Why every table may miss routes: the snapshot holds device configurations olav does
/// not read (their routes, and what they pass on, are not computed).
fn unread_reason(db: &crate::state::StateDb) -> Result<Option<String>> {
    let unread = db.unread_configs()?;
    let Some((file, what)) = unread.first() else {
        return Ok(None);
    };
    let more = match unread.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    Ok(Some(format!(
        "the snapshot holds device configurations olav does not read ({file}: {what}{more}): routes they send are in no table here"
    )))
}

/// Visits each RIB of the answer, in order.
type Each<'a> = dyn FnMut(&mut dyn FnMut(&DeviceRib) -> Result<()>) -> Result<()> + 'a;

/// The JSON answer, a row at a time (a whole network's rows held as JSON values took a
/// gigabyte at 10,000 devices).
fn write_json(
    out: &mut impl Write,
    state_version: i64,
    each: &mut Each<'_>,
    network: Option<&str>,
) -> Result<()> {
    writeln!(out, "{{")?;
    writeln!(out, "  \"state_version\": {state_version},")?;
    writeln!(out, "  \"columns\": {},", serde_json::to_string(&COLUMNS)?)?;
    writeln!(out, "  \"routes\": [")?;
    let mut first = true;
    let mut incomplete: Vec<serde_json::Value> = Vec::new();
    let mut rows = JsonRows::default();
    each(&mut |r| {
        rows.device(&r.hostname);
        for x in &r.routes {
            let sep: &[u8] = if std::mem::take(&mut first) {
                b"    "
            } else {
                b",\n    "
            };
            out.write_all(sep)?;
            out.write_all(rows.row(x))?;
        }
        incomplete.extend(
            r.incomplete
                .iter()
                .map(|i| serde_json::json!({"node": r.hostname, "vrf": i.vrf, "reason": i.reason})),
        );
        Ok(())
    })?;
    if let Some(why) = network {
        incomplete.push(serde_json::json!({"node": null, "vrf": null, "reason": why}));
    }
    writeln!(out, "\n  ],")?;
    writeln!(
        out,
        "  \"incomplete\": {},",
        serde_json::to_string(&incomplete)?
    )?;
    // The exit status in words, as every JSON answer carries it (docs/json.md).
    let status = if incomplete.is_empty() {
        "ok"
    } else {
        "partial"
    };
    writeln!(out, "  \"status\": \"{status}\"")?;
    writeln!(out, "}}")?;
    Ok(())
}

/// The rows of the JSON answer written by hand into one reused buffer, byte for byte
/// [`crate::routing::Route::to_json`] (whose keys serde_json sorts): serde wrote each
/// row's node, addresses and names through its formatting machinery, half of a
/// backbone router's answer (350,000 rows at 50,000 devices).
#[derive(Default)]
struct JsonRows {
    row: Vec<u8>,
    /// `{"id":"node-<name>","name":"<name>"}` of the device whose rows are written.
    node: Vec<u8>,
}

impl JsonRows {
    /// The rows that follow are device `hostname`'s (its name lowercase, as Batfish
    /// names nodes).
    fn device(&mut self, hostname: &str) {
        let name = hostname.to_lowercase();
        self.node.clear();
        self.node.extend_from_slice(b"{\"id\":");
        json_str(&mut self.node, &format!("node-{name}"));
        self.node.extend_from_slice(b",\"name\":");
        json_str(&mut self.node, &name);
        self.node.push(b'}');
    }

    /// Route `x` of the current device, as one JSON object.
    fn row(&mut self, x: &crate::routing::Route) -> &[u8] {
        use crate::routing::NextHop;
        let b = &mut self.row;
        b.clear();
        b.extend_from_slice(b"{\"Admin_Distance\":");
        push_u32(b, x.admin_distance);
        b.extend_from_slice(b",\"Metric\":");
        push_u32(b, x.metric);
        b.extend_from_slice(b",\"Network\":\"");
        b.extend_from_slice(Short::ip(x.network.addr()).as_bytes());
        b.push(b'/');
        push_u32(b, u32::from(x.network.prefix_len()));
        b.extend_from_slice(b"\",\"Next_Hop\":{");
        let ip = |b: &mut Vec<u8>, key: &[u8], ip: std::net::Ipv4Addr| {
            b.extend_from_slice(key);
            b.push(b'"');
            b.extend_from_slice(Short::ip(ip).as_bytes());
            b.push(b'"');
        };
        match &x.next_hop {
            NextHop::Discard => b.extend_from_slice(b"\"type\":\"discard\""),
            NextHop::Interface { interface, ip: a } => {
                b.extend_from_slice(b"\"interface\":");
                json_str(b, interface);
                if let Some(a) = a {
                    ip(b, b",\"ip\":", *a);
                }
                b.extend_from_slice(b",\"type\":\"interface\"");
            }
            NextHop::Ip(a) => {
                ip(b, b"\"ip\":", *a);
                b.extend_from_slice(b",\"type\":\"ip\"");
            }
            NextHop::Vrf(v) => {
                b.extend_from_slice(b"\"type\":\"vrf\",\"vrf\":");
                json_str(b, v);
            }
            NextHop::Vtep { vni, vtep } => {
                b.extend_from_slice(b"\"type\":\"vtep\",\"vni\":");
                push_u32(b, *vni);
                ip(b, b",\"vtep\":", *vtep);
            }
        }
        b.extend_from_slice(b"},\"Node\":");
        b.extend_from_slice(&self.node);
        b.extend_from_slice(b",\"Protocol\":");
        json_str(b, x.protocol.as_str());
        b.extend_from_slice(b",\"Tag\":");
        match x.tag {
            Some(t) => push_u32(b, t),
            None => b.extend_from_slice(b"null"),
        }
        b.extend_from_slice(b",\"VRF\":");
        json_str(b, &x.vrf);
        b.push(b'}');
        b
    }
}

/// Writes a JSON string as serde_json does: as it is when nothing in it needs escaping
/// (quotes, backslashes, control characters), else through serde_json.
fn json_str(b: &mut Vec<u8>, s: &str) {
    if s.bytes().all(|c| c >= 0x20 && c != b'"' && c != b'\\') {
        b.push(b'"');
        b.extend_from_slice(s.as_bytes());
        b.push(b'"');
    } else {
        // Writing a string into a vector cannot fail.
        let _ = serde_json::to_writer(&mut *b, s);
    }
}

/// Writes a number in decimal, without the formatting machinery.
fn push_u32(b: &mut Vec<u8>, n: u32) {
    b.extend_from_slice(Short::num(n).as_bytes());
}

/// The `incomplete` entries of a JSON answer.
fn incomplete_json(ribs: &[DeviceRib]) -> Vec<serde_json::Value> {
    ribs.iter()
        .flat_map(|r| {
            r.incomplete.iter().map(
                move |i| serde_json::json!({"node": r.hostname, "vrf": i.vrf, "reason": i.reason}),
            )
        })
        .collect()
}

/// The BGP RIB as JSON: Batfish's `bgpRib` rows.
fn write_bgp_json(out: &mut impl Write, state_version: i64, ribs: &[DeviceRib]) -> Result<()> {
    let rows: Vec<serde_json::Value> = ribs
        .iter()
        .flat_map(|r| r.bgp.iter().map(move |b| b.to_json(&r.hostname)))
        .collect();
    let answer = serde_json::json!({
        "state_version": state_version,
        "columns": BGP_COLUMNS,
        "routes": rows,
        "incomplete": incomplete_json(ribs),
    });
    writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    Ok(())
}

/// The BGP RIB as text: the verdict, then one line per path (`*` the best ones).
fn write_bgp_text(out: &mut impl Write, ribs: &[DeviceRib]) -> Result<()> {
    let header = [
        "",
        "NODE",
        "VRF",
        "NETWORK",
        "NEXT_HOP",
        "PROTOCOL",
        "AS_PATH",
        "MED",
        "LOCAL_PREF",
        "WEIGHT",
        "ORIGIN",
        "COMMUNITIES",
    ]
    .map(str::to_owned);
    let rows: Vec<[String; 12]> = ribs
        .iter()
        .flat_map(|r| {
            r.bgp.iter().map(move |b| {
                [
                    if b.installed { "*" } else { " " }.to_owned(),
                    r.hostname.clone(),
                    b.vrf.clone(),
                    b.network.to_string(),
                    b.next_hop
                        .map_or_else(|| "local".to_owned(), |n| n.to_string()),
                    b.protocol.clone(),
                    b.as_path
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                    b.med.to_string(),
                    b.local_pref.to_string(),
                    b.weight.to_string(),
                    b.origin.as_str().to_owned(),
                    b.communities.join(" "),
                ]
            })
        })
        .collect();
    let partial = ribs.iter().filter(|r| !r.incomplete.is_empty()).count();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    writeln!(
        out,
        "{} BGP path{} on {} device{} (* installed) — {}",
        rows.len(),
        plural(rows.len()),
        ribs.len(),
        plural(ribs.len()),
        if partial == 0 {
            "complete".to_owned()
        } else {
            format!("INCOMPLETE on {partial} device{}", plural(partial))
        }
    )?;
    for l in incomplete_lines(ribs) {
        writeln!(out, "{l}")?;
    }
    if rows.is_empty() {
        writeln!(out, "(no BGP paths)")?;
        return Ok(());
    }
    let mut widths = header.clone().map(|h| h.chars().count());
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    writeln!(out)?;
    for r in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        writeln!(out, "{}", cells.join("  ").trim_end())?;
    }
    Ok(())
}

/// A route's cells in the text table, written into one reused buffer (a border router's
/// 350,000 rows made eight strings each).
#[derive(Default)]
struct Cells {
    text: String,
    /// Where each cell ends in `text`.
    ends: [usize; 8],
}

impl Cells {
    /// The cells of route `x` of `hostname`.
    fn fill(&mut self, hostname: &str, x: &crate::routing::Route) -> &Self {
        use std::fmt::Write as _;
        self.text.clear();
        let t = &mut self.text;
        // Writing into a String cannot fail.
        let cells: [&dyn Fn(&mut String) -> std::fmt::Result; 8] = [
            &|t| t.write_str(hostname),
            &|t| t.write_str(&x.vrf),
            &|t| {
                push_ip(t, x.network.addr());
                t.push('/');
                t.write_str(Short::num(u32::from(x.network.prefix_len())).as_str())
            },
            &|t| push_hop(t, &x.next_hop),
            &|t| t.write_str(x.protocol.as_str()),
            &|t| t.write_str(Short::num(x.metric).as_str()),
            &|t| t.write_str(Short::num(x.admin_distance).as_str()),
            &|t| match x.tag {
                Some(tag) => t.write_str(Short::num(tag).as_str()),
                None => t.write_str("-"),
            },
        ];
        for (end, cell) in self.ends.iter_mut().zip(cells) {
            let _ = cell(t);
            *end = t.len();
        }
        self
    }

    /// The width of each cell of route `x` (`host`: the width of its device's name),
    /// as [`Cells::fill`] writes them, counted without writing the common ones.
    fn widths(&mut self, host: usize, x: &crate::routing::Route) -> [usize; 8] {
        use crate::routing::NextHop;
        let digits = |n: u32| n.checked_ilog10().map_or(1, |l| l as usize + 1);
        // Each octet's digits, and the dots.
        let ip_len = |ip: std::net::Ipv4Addr| {
            3 + ip
                .octets()
                .into_iter()
                .map(|o| 1 + usize::from(o >= 10) + usize::from(o >= 100))
                .sum::<usize>()
        };
        let hop = match &x.next_hop {
            NextHop::Ip(ip) => ip_len(*ip),
            NextHop::Interface {
                interface,
                ip: Some(ip),
            } => ip_len(*ip) + " via ".len() + width(interface),
            NextHop::Interface {
                interface,
                ip: None,
            } => width(interface),
            other => {
                self.text.clear();
                // Writing into a String cannot fail.
                let _ = push_hop(&mut self.text, other);
                width(&self.text)
            }
        };
        [
            host,
            width(&x.vrf),
            ip_len(x.network.addr()) + 1 + digits(u32::from(x.network.prefix_len())),
            hop,
            width(x.protocol.as_str()),
            digits(x.metric),
            digits(x.admin_distance),
            x.tag.map_or(1, digits),
        ]
    }

    /// The cells, in order.
    fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(s, e)| self.text.get(s..e).unwrap_or_default())
    }
}

/// A number or an address in text, made without the formatting machinery: a backbone
/// router's table writes 700,000 addresses and as many numbers.
struct Short {
    text: [u8; 15],
    len: usize,
}

impl Short {
    /// A number in decimal.
    fn num(n: u32) -> Short {
        let mut digits = [0u8; 10];
        let mut k = digits.len();
        let mut n = n;
        loop {
            k -= 1;
            digits[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let mut s = Short {
            text: [0; 15],
            len: digits.len() - k,
        };
        s.text[..s.len].copy_from_slice(&digits[k..]);
        s
    }

    /// An address as its `Display` writes it.
    fn ip(ip: std::net::Ipv4Addr) -> Short {
        let mut s = Short {
            text: [0; 15],
            len: 0,
        };
        let mut push = |c: u8| {
            s.text[s.len] = c;
            s.len += 1;
        };
        for (k, o) in ip.octets().into_iter().enumerate() {
            if k > 0 {
                push(b'.');
            }
            if o >= 100 {
                push(b'0' + o / 100);
            }
            if o >= 10 {
                push(b'0' + o / 10 % 10);
            }
            push(b'0' + o % 10);
        }
        s
    }

    fn as_bytes(&self) -> &[u8] {
        &self.text[..self.len]
    }

    /// The text (digits and dots: always ASCII).
    fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// Writes an address as its `Display` does (a backbone router's table writes 700,000 of
/// them, twice: the widths, then the rows).
fn push_ip(t: &mut String, ip: std::net::Ipv4Addr) {
    t.push_str(Short::ip(ip).as_str());
}

/// Writes a next hop as its `Display` does, the addresses by [`push_ip`].
fn push_hop(t: &mut String, hop: &crate::routing::NextHop) -> std::fmt::Result {
    use crate::routing::NextHop;
    use std::fmt::Write as _;
    match hop {
        NextHop::Ip(ip) => push_ip(t, *ip),
        NextHop::Interface {
            interface,
            ip: Some(ip),
        } => {
            push_ip(t, *ip);
            t.push_str(" via ");
            t.push_str(interface);
        }
        NextHop::Interface {
            interface,
            ip: None,
        } => t.push_str(interface),
        other => write!(t, "{other}")?,
    }
    Ok(())
}

/// The width of a cell in characters (a byte each when it is ASCII, as almost all are).
fn width(c: &str) -> usize {
    if c.is_ascii() {
        c.len()
    } else {
        c.chars().count()
    }
}

/// Writes one line of the text table: each cell but the last padded to its column's
/// width and two spaces.
fn write_line<'a>(
    out: &mut impl Write,
    cells: impl Iterator<Item = &'a str>,
    widths: &[usize; 8],
) -> std::io::Result<()> {
    const SPACES: &[u8] = &[b' '; 64];
    let mut cells = cells.zip(widths).peekable();
    while let Some((c, w)) = cells.next() {
        out.write_all(c.as_bytes())?;
        if cells.peek().is_some() {
            let mut pad = w.saturating_sub(width(c)) + 2;
            while pad > 0 {
                let n = pad.min(SPACES.len());
                out.write_all(&SPACES[..n])?;
                pad -= n;
            }
        }
    }
    out.write_all(b"\n")
}

/// The text answer: the verdict, the incomplete RIBs, then the aligned rows. The RIBs
/// are visited twice: for the verdict and the column widths, then for the rows.
fn write_text(out: &mut impl Write, each: &mut Each<'_>, network: Option<&str>) -> Result<()> {
    let header = COLUMNS.map(str::to_uppercase);
    let mut widths = header.clone().map(|h| h.chars().count());
    let (mut rows, mut devices) = (0usize, 0usize);
    let mut cells = Cells::default();
    // What the verdict needs of each RIB: all but its routes.
    let mut verdicts: Vec<DeviceRib> = Vec::new();
    each(&mut |r| {
        devices += 1;
        rows += r.routes.len();
        let host = width(&r.hostname);
        for x in &r.routes {
            for (w, c) in widths.iter_mut().zip(cells.widths(host, x)) {
                *w = (*w).max(c);
            }
        }
        if !r.incomplete.is_empty() {
            verdicts.push(DeviceRib {
                hostname: r.hostname.clone(),
                vendor: r.vendor,
                routes: Vec::new(),
                incomplete: r.incomplete.clone(),
                unresolved_statics: r.unresolved_statics,
                bgp: Vec::new(),
                external: Vec::new(),
            });
        }
        Ok(())
    })?;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let partial = verdicts.len();
    let verdict = if partial == 0 && network.is_some() {
        "INCOMPLETE: configurations olav does not read (below)".to_owned()
    } else if partial == 0 {
        "complete".to_owned()
    } else {
        format!(
            "INCOMPLETE on {partial} device{}: routes olav does not compute or could not read (below)",
            plural(partial)
        )
    };
    writeln!(
        out,
        "{} route{} on {} device{} — {verdict}",
        rows,
        plural(rows),
        devices,
        plural(devices)
    )?;
    if let Some(why) = network {
        writeln!(out, "  {why}")?;
    }
    for l in incomplete_lines(&verdicts) {
        writeln!(out, "{l}")?;
    }
    if rows == 0 {
        writeln!(out, "(no routes)")?;
        return Ok(());
    }
    writeln!(out)?;
    write_line(out, header.iter().map(String::as_str), &widths)?;
    // Each line made whole, then written at once.
    let mut line = Vec::new();
    each(&mut |r| {
        for x in &r.routes {
            line.clear();
            write_line(&mut line, cells.fill(&r.hostname, x).iter(), &widths)?;
            out.write_all(&line)?;
        }
        Ok(())
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::{NextHop, Route};

    fn route(next_hop: NextHop, tag: Option<u32>) -> Route {
        Route {
            vrf: "bl\"ue".into(),
            network: "10.1.0.0/16".parse().unwrap(),
            next_hop,
            protocol: Protocol::OspfIA,
            metric: 20,
            admin_distance: 110,
            tag,
        }
    }

    /// One next hop of each kind, through `ip`.
    fn every_next_hop(ip: std::net::Ipv4Addr) -> [NextHop; 6] {
        [
            NextHop::Discard,
            NextHop::Ip(ip),
            NextHop::Vrf("red".to_owned()),
            NextHop::Interface {
                interface: "Ethernet1/1".into(),
                ip: Some(ip),
            },
            NextHop::Interface {
                interface: "ge-0/0/0.0".into(),
                ip: None,
            },
            NextHop::Vtep {
                vni: 10010,
                vtep: ip,
            },
        ]
    }

    #[test]
    fn json_rows_are_route_to_json_byte_for_byte() {
        for (k, h) in every_next_hop("10.0.0.1".parse().unwrap())
            .into_iter()
            .enumerate()
        {
            let mut r = route(h, (k % 2 == 0).then_some(7 * k as u32));
            r.metric = [0, 9, 10, 99, 100, u32::MAX][k];
            let mut rows = JsonRows::default();
            rows.device("Core-1");
            let row = String::from_utf8(rows.row(&r).to_vec()).unwrap();
            assert_eq!(row, r.to_json("Core-1").to_string());
            rows.device("Es\\cap\u{1}é\"d");
            let row = String::from_utf8(rows.row(&r).to_vec()).unwrap();
            assert_eq!(row, r.to_json("Es\\cap\u{1}é\"d").to_string());
        }
    }

    #[test]
    fn cells_write_addresses_and_next_hops_as_display_does() {
        for ip in [
            "0.0.0.0",
            "10.0.0.1",
            "9.99.100.255",
            "255.255.255.255",
            "1.20.3.40",
        ] {
            let ip: std::net::Ipv4Addr = ip.parse().unwrap();
            for h in every_next_hop(ip) {
                let mut t = String::new();
                push_hop(&mut t, &h).unwrap();
                assert_eq!(t, h.to_string());
            }
            let mut t = String::new();
            push_ip(&mut t, ip);
            assert_eq!(t, ip.to_string());
        }
        for n in [0, 1, 9, 10, 99, 100, 65_535, 16_777_215, u32::MAX] {
            assert_eq!(Short::num(n).as_str(), n.to_string());
        }
    }

    #[test]
    fn text_lines_pad_every_cell_but_the_last() {
        let r = route(NextHop::Ip("10.0.0.1".parse().unwrap()), None);
        let mut cells = Cells::default();
        let got: Vec<&str> = cells.fill("é1", &r).iter().collect();
        assert_eq!(
            got,
            [
                "é1",
                "bl\"ue",
                "10.1.0.0/16",
                "10.0.0.1",
                "ospfIA",
                "20",
                "110",
                "-"
            ]
        );
        let mut out = Vec::new();
        write_line(&mut out, cells.iter(), &[3, 1, 12, 8, 6, 2, 3, 1]).unwrap();
        // The widths counted are those of the cells written, for every next hop.
        for (k, h) in every_next_hop("9.99.100.255".parse().unwrap())
            .into_iter()
            .enumerate()
        {
            let mut x = route(h, (k % 2 == 0).then_some(7_000 * k as u32));
            x.metric = [0, 9, 10, 99, 100, u32::MAX][k];
            x.network = [
                "0.0.0.0/0",
                "10.1.0.0/16",
                "100.64.0.0/10",
                "9.9.9.9/32",
                "1.2.3.0/24",
                "255.255.255.254/31",
            ][k]
                .parse()
                .unwrap();
            let mut c = Cells::default();
            let counted = c.widths(width("é1"), &x);
            let written: Vec<usize> = c.fill("é1", &x).iter().map(width).collect();
            assert_eq!(counted.to_vec(), written, "{x:?}");
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "é1   bl\"ue  10.1.0.0/16   10.0.0.1  ospfIA  20  110  -\n"
        );
    }
}
