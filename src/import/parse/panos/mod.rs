//! Palo Alto PAN-OS in its `set` form (`show config running` in set format).
//!
//! Every line is a path of words; one pass collects what the routing model needs, a
//! second step turns it into the vendor-neutral model:
//!
//! - interfaces: layer-3 Ethernet and aggregate ports and their `units` (subinterfaces,
//!   named `ethernet1/1.5` as PAN-OS names them, their `tag` the 802.1Q tag), loopback,
//!   tunnel and VLAN interfaces and units; an address may name an address object
//!   (`set address NAME ip-netmask P`).
//! - virtual routers are VRFs (`default` the default VRF): `interface [ … ]` places
//!   interfaces in them. An interface in no virtual router carries no traffic (Batfish
//!   shuts it down too): it is read as administratively down.
//! - static routes (`routing-table ip static-route`), with PAN-OS' defaults (distance
//!   10, metric 10) and the virtual router's `admin-dists static`.
//! - BGP ([`bgp`]): the process, peer groups and peers, import and export rules as
//!   policy statements, redistribution rules.

mod bgp;

use super::common::parse_prefix;
use super::ConfigParser;
use crate::model::{
    AddressKind, DeviceConfig, Interface, InterfaceAddress, NextHopResolution, RouteActivity,
    StaticRoute, Vendor,
};
use ipnet::IpNet;
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;

/// Parser for Palo Alto PAN-OS configurations in `set` form.
pub struct PanosParser;

impl ConfigParser for PanosParser {
    fn vendor(&self) -> Vendor {
        Vendor::PaloAltoPanos
    }

    fn markers(&self) -> &'static [(&'static str, u32)] {
        &[
            ("set deviceconfig system hostname ", 10),
            ("set deviceconfig ", 3),
            ("set network interface ", 3),
            ("set network virtual-router ", 3),
            ("set rulebase ", 3),
        ]
    }

    fn rancid_types(&self) -> &'static [&'static str] {
        &[]
    }

    fn parse(&self, text: &str) -> DeviceConfig {
        parse(text)
    }
}

/// One `set` line: its words after `set` (quotes removed, `[` and `]` kept as words)
/// and its line number.
pub(crate) struct Line {
    words: Vec<String>,
    line: u32,
}

/// The words of a PAN-OS statement: white space separates them, double or single
/// quotes hold one word, brackets are words of their own.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut quoted = false;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                quoted = true;
            }
            (None, '[' | ']') => {
                if !cur.is_empty() || quoted {
                    out.push(std::mem::take(&mut cur));
                }
                quoted = false;
                out.push(c.to_string());
            }
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() || quoted {
                    out.push(std::mem::take(&mut cur));
                }
                quoted = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() || quoted {
        out.push(cur);
    }
    out
}

/// The values a statement ends with: one word, or the words of a `[ … ]` list.
pub(crate) fn values(rest: &[String]) -> Vec<String> {
    match rest.first().map(String::as_str) {
        Some("[") => rest[1..]
            .iter()
            .take_while(|w| *w != "]")
            .cloned()
            .collect(),
        Some(_) => rest[..1].to_vec(),
        None => Vec::new(),
    }
}

/// A layer-3 interface as its lines describe it.
#[derive(Default)]
struct PendingInterface {
    line: u32,
    addresses: Vec<(String, u32)>,
    comment: Option<String>,
    mtu: Option<u32>,
    tag: Option<u32>,
    down: bool,
    /// `dhcp-client`: its address comes from DHCP.
    dhcp: bool,
    aggregate: Option<String>,
}

/// A static route as its lines describe it.
#[derive(Default)]
struct PendingStatic {
    line: u32,
    destination: Option<String>,
    next_hop: Option<String>,
    discard: bool,
    next_vr: Option<String>,
    interface: Option<String>,
    distance: Option<u32>,
    metric: Option<u32>,
    no_install: bool,
}

#[derive(Default)]
struct Reader {
    dev: DeviceConfig,
    interfaces: Vec<(String, PendingInterface)>,
    /// Interface → the virtual router it is placed in.
    membership: HashMap<String, String>,
    /// Address objects: name → value (`ip-netmask`).
    objects: HashMap<String, String>,
    /// (virtual router, route name) → the route.
    statics: BTreeMap<(String, String), PendingStatic>,
    /// Virtual router → its `admin-dists static`.
    static_distance: HashMap<String, u32>,
    bgp: bgp::Reader,
}

/// Parses a PAN-OS `set`-form configuration.
pub fn parse(text: &str) -> DeviceConfig {
    let mut r = Reader::default();
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        r.dev.lines_total += 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut w = words(t);
        if w.first().map(String::as_str) != Some("set") {
            r.dev.lines_unrecognised += 1;
            continue;
        }
        w.remove(0);
        // A firewall's own objects may sit under `shared` or a `vsys`.
        let skip = match w.as_slice() {
            [a, ..] if a == "shared" => 1,
            [a, _, ..] if a == "vsys" => 2,
            _ => 0,
        };
        if let [a, name, kind, value, ..] = &w[skip.min(w.len())..] {
            if a == "address" && kind == "ip-netmask" {
                r.objects.insert(name.clone(), value.clone());
            }
        }
        lines.push(Line { words: w, line: n });
    }
    for l in &lines {
        if !r.read(l) {
            r.dev.lines_unrecognised += 1;
        }
    }
    r.finish()
}

impl Reader {
    /// Reads one line; false when nothing here reads it.
    fn read(&mut self, l: &Line) -> bool {
        let w: Vec<&str> = l.words.iter().map(String::as_str).collect();
        match w.as_slice() {
            ["deviceconfig", "system", "hostname", name, ..] => {
                self.dev.hostname = Some((*name).to_owned());
            }
            ["network", "interface", kind, rest @ ..] => return self.interface(kind, rest, l),
            ["network", "virtual-router", vr, "interface", ..] => {
                for i in values(&l.words[4..]) {
                    self.membership.insert(i, (*vr).to_owned());
                }
            }
            ["network", "virtual-router", vr, "admin-dists", kind, n, ..] => {
                let Ok(n) = n.parse::<u32>() else {
                    self.dev
                        .warn(l.line, format!("admin-dists {kind}: not a number"));
                    return true;
                };
                match *kind {
                    "static" => {
                        self.static_distance.insert((*vr).to_owned(), n);
                    }
                    _ => self.bgp.distance(vr, kind, n),
                }
            }
            ["network", "virtual-router", vr, "routing-table", "ip", "static-route", name, rest @ ..] =>
            {
                self.static_route(vr, name, rest, l);
            }
            ["network", "virtual-router", vr, "protocol", "bgp", ..] => {
                self.bgp.line(vr, &l.words[5..], l.line, &mut self.dev);
            }
            ["network", "virtual-router", vr, "redist-profile", name, ..] => {
                self.bgp
                    .redist_profile(vr, name, &l.words[5..], l.line, &mut self.dev);
            }
            ["network", "virtual-router", vr, "ecmp", "enable", "yes"] => {
                self.bgp.unmodelled(vr, "ecmp (multipath)");
            }
            _ => return false,
        }
        true
    }

    /// `network interface KIND …`: Ethernet and aggregate ports (`NAME [layer3] …`,
    /// `NAME layer3 units UNIT …`), loopback, tunnel and VLAN (`[units UNIT] …`).
    fn interface(&mut self, kind: &str, rest: &[&str], l: &Line) -> bool {
        let (name, attrs): (String, &[&str]) = match (kind, rest) {
            ("ethernet" | "aggregate-ethernet", [_, "layer3", "units", unit, attrs @ ..]) => {
                ((*unit).to_owned(), attrs)
            }
            ("ethernet" | "aggregate-ethernet", [port, "layer3", attrs @ ..]) => {
                ((*port).to_owned(), attrs)
            }
            ("ethernet" | "aggregate-ethernet", [port, attrs @ ..]) => ((*port).to_owned(), attrs),
            ("loopback" | "tunnel" | "vlan", ["units", unit, attrs @ ..]) => {
                ((*unit).to_owned(), attrs)
            }
            ("loopback" | "tunnel" | "vlan", attrs) => (kind.to_owned(), attrs),
            _ => return false,
        };
        let at = self.interfaces.iter().position(|(n, _)| *n == name);
        let i = match at {
            Some(i) => i,
            None => {
                self.interfaces.push((
                    name,
                    PendingInterface {
                        line: l.line,
                        ..Default::default()
                    },
                ));
                self.interfaces.len() - 1
            }
        };
        let offset = l.words.len() - attrs.len();
        let p = &mut self.interfaces[i].1;
        match attrs {
            ["ip", ..] => {
                for a in values(&l.words[offset + 1..]) {
                    p.addresses.push((a, l.line));
                }
            }
            ["comment", c, ..] => p.comment = Some((*c).to_owned()),
            ["mtu", n, ..] => p.mtu = n.parse().ok(),
            ["tag", n, ..] => p.tag = n.parse().ok(),
            ["link-state", s, ..] => p.down = *s == "down",
            ["aggregate-group", g, ..] => p.aggregate = Some((*g).to_owned()),
            ["dhcp-client", ..] => {
                p.dhcp = true;
                self.dev.warn(
                    l.line,
                    "interface address from DHCP: not known from the configuration",
                )
            }
            _ => {}
        }
        true
    }

    fn static_route(&mut self, vr: &str, name: &str, rest: &[&str], l: &Line) {
        let r = self
            .statics
            .entry((vr.to_owned(), name.to_owned()))
            .or_insert_with(|| PendingStatic {
                line: l.line,
                ..Default::default()
            });
        match rest {
            ["destination", d, ..] => r.destination = Some((*d).to_owned()),
            ["nexthop", "ip-address", a, ..] => r.next_hop = Some((*a).to_owned()),
            ["nexthop", "discard", ..] => r.discard = true,
            ["nexthop", "next-vr", v, ..] => r.next_vr = Some((*v).to_owned()),
            ["interface", i, ..] => r.interface = Some((*i).to_owned()),
            ["admin-dist", n, ..] => r.distance = n.parse().ok(),
            ["metric", n, ..] => r.metric = n.parse().ok(),
            ["route-table", t, ..] => r.no_install = !matches!(*t, "unicast" | "both"),
            _ => {}
        }
    }

    /// An address as written or through its address object; host bits kept.
    fn address(&self, value: &str) -> Option<IpNet> {
        let v = self.objects.get(value).map_or(value, String::as_str);
        parse_prefix(v).or_else(|| v.parse::<IpAddr>().ok().map(IpNet::from))
    }

    fn finish(mut self) -> DeviceConfig {
        let pending = std::mem::take(&mut self.interfaces);
        for (name, p) in pending {
            let mut i = Interface::new(name.clone(), p.line);
            i.description = p.comment;
            i.mtu = p.mtu;
            i.encapsulation_vlan = p.tag;
            i.channel_group = p.aggregate;
            i.admin_up = !p.down;
            i.dhcp = p.dhcp;
            for (k, (a, line)) in p.addresses.iter().enumerate() {
                match self.address(a) {
                    Some(address) => i.addresses.push(InterfaceAddress {
                        address,
                        kind: if k == 0 {
                            AddressKind::Primary
                        } else {
                            AddressKind::Secondary
                        },
                        line: *line,
                    }),
                    None => self.dev.warn(
                        *line,
                        format!("interface {name}: address {a} not understood"),
                    ),
                }
            }
            match self.membership.get(&name) {
                Some(vr) => i.vrf = vrf(vr),
                // Layer-3 data on an interface in no virtual router routes nothing.
                None if !i.addresses.is_empty() => {
                    i.admin_up = false;
                    self.dev.warn(
                        p.line,
                        format!("interface {name} is in no virtual-router: it routes nothing"),
                    );
                }
                None => {}
            }
            self.dev.interfaces.push(i);
        }
        let statics = std::mem::take(&mut self.statics);
        for ((vr, name), s) in statics {
            self.finish_static(&vr, &name, s);
        }
        let objects = std::mem::take(&mut self.objects);
        let resolve = |v: &str| {
            let v = objects.get(v).map_or(v, String::as_str);
            parse_prefix(v)
                .map(|n| n.addr())
                .or_else(|| v.parse::<IpAddr>().ok())
        };
        let bgp = std::mem::take(&mut self.bgp);
        bgp.finish(&mut self.dev, &resolve);
        self.dev
            .judge_static_routes(|_| NextHopResolution::Recursive);
        // PAN-OS prints no closing line.
        self.dev.saw_end = true;
        self.dev
    }

    fn finish_static(&mut self, vr: &str, name: &str, s: PendingStatic) {
        if s.no_install {
            return;
        }
        let Some(prefix) = s.destination.as_deref().and_then(|d| self.address(d)) else {
            self.dev.warn(
                s.line,
                format!("static route {name}: no destination olav understands"),
            );
            return;
        };
        if let Some(v) = &s.next_vr {
            self.dev.warn(
                s.line,
                format!("static route {name}: next-vr {v} is not computed"),
            );
            return;
        }
        let next_hop = match s.next_hop.as_deref() {
            Some(a) => match self.address(a) {
                Some(n) => Some(n.addr()),
                None => {
                    self.dev.warn(
                        s.line,
                        format!("static route {name}: next hop {a} not understood"),
                    );
                    return;
                }
            },
            None => None,
        };
        if next_hop.is_none() && s.interface.is_none() && !s.discard {
            self.dev
                .warn(s.line, format!("static route {name}: no next hop"));
            return;
        }
        self.dev.static_routes.push(StaticRoute {
            vrf: vrf(vr),
            prefix: prefix.trunc(),
            next_hop,
            next_hop_interface: if s.discard {
                Some("discard".into())
            } else {
                s.interface
            },
            distance: Some(
                s.distance
                    .or_else(|| self.static_distance.get(vr).copied())
                    .unwrap_or(DEFAULT_STATIC_DISTANCE),
            ),
            metric: Some(s.metric.unwrap_or(DEFAULT_STATIC_METRIC)),
            tag: None,
            activity: RouteActivity::Usable,
            line: s.line,
        });
    }
}

/// A static route's administrative distance unless configured (PAN-OS' default).
const DEFAULT_STATIC_DISTANCE: u32 = 10;
/// A static route's metric unless configured (PAN-OS' default; the device shows it).
const DEFAULT_STATIC_METRIC: u32 = 10;

/// The VRF of a virtual router: `default` is the default VRF.
pub(crate) fn vrf(vr: &str) -> Option<String> {
    (vr != "default").then(|| vr.to_owned())
}

#[cfg(test)]
mod tests;
