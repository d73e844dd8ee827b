//! `router "Base"`: its interfaces and static routes.

use super::Statement;
use crate::model::{
    AddressKind, DeviceConfig, Interface, InterfaceAddress, RouteActivity, StaticRoute,
};
use ipnet::{IpNet, Ipv4Net};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr};

/// One router interface as read.
#[derive(Default)]
struct RouterInterface {
    name: String,
    line: u32,
    port: Option<String>,
    loopback: bool,
    disabled: bool,
    description: Option<String>,
    primary: (Option<Ipv4Addr>, Option<u8>, u32),
    /// Secondary addresses: address → (prefix length, line).
    secondaries: Vec<(Ipv4Addr, Option<u8>, u32)>,
}

/// One next hop (or blackhole, or interface) of a static route.
struct Hop {
    prefix: IpNet,
    kind: HopKind,
    enabled: bool,
    preference: Option<u32>,
    metric: Option<u32>,
    tag: Option<u32>,
    line: u32,
}

#[derive(Clone, PartialEq, Eq)]
enum HopKind {
    NextHop(IpAddr),
    Indirect(IpAddr),
    Blackhole,
    Interface(String),
}

/// The ports and LAGs of the configuration.
pub(super) struct Ports<'a> {
    /// Every port and LAG, in file order, with its line.
    pub(super) list: &'a [(String, u32)],
    /// Those with `admin-state enable`.
    pub(super) up: &'a HashSet<String>,
    /// The LAG of each member port.
    pub(super) lag_of: &'a HashMap<String, String>,
}

/// What `router "Base"` holds of interfaces and static routes.
#[derive(Default)]
pub(super) struct Router {
    interfaces: Vec<RouterInterface>,
    index: HashMap<String, usize>,
    hops: Vec<Hop>,
    hop_index: HashMap<(IpNet, String), usize>,
    /// Static routes whose next hop is `indirect`: (prefix, next hop).
    pub(super) indirect: HashSet<(IpNet, Option<IpAddr>)>,
    /// `ecmp N` of the router: how many equal-preference next hops a route installs.
    pub(super) ecmp: Option<u32>,
}

fn number<T: std::str::FromStr>(
    dev: &mut DeviceConfig,
    line: u32,
    what: &str,
    v: &str,
) -> Option<T> {
    let n = v.parse().ok();
    if n.is_none() {
        dev.warn(line, format!("{what}: '{v}' is not a number"));
    }
    n
}

impl Router {
    fn interface_mut(&mut self, name: &str, line: u32) -> &mut RouterInterface {
        let i = *self.index.entry(name.to_owned()).or_insert_with(|| {
            self.interfaces.push(RouterInterface {
                name: name.to_owned(),
                line,
                ..RouterInterface::default()
            });
            self.interfaces.len() - 1
        });
        &mut self.interfaces[i]
    }

    /// `interface NAME …` of `router "Base"`.
    pub(super) fn interface(
        &mut self,
        name: &str,
        w: &[&str],
        st: &Statement,
        dev: &mut DeviceConfig,
    ) {
        let line = st.line;
        let bad = |dev: &mut DeviceConfig, v: &str| {
            dev.warn(
                line,
                format!("ip address of interface {name}: '{v}' is not an IPv4 address"),
            )
        };
        let i = self.interface_mut(name, st.line_of(&[]));
        match w {
            ["port", p] => i.port = Some((*p).to_owned()),
            ["loopback", ..] => i.loopback = true,
            ["admin-state", state] => i.disabled = *state == "disable",
            ["description", d] => i.description = Some((*d).to_owned()),
            ["ipv4", "primary", "address", a] => match a.parse() {
                Ok(ip) => i.primary = (Some(ip), i.primary.1, line),
                Err(_) => bad(dev, a),
            },
            ["ipv4", "primary", "prefix-length", l] => {
                i.primary.1 = number(dev, line, "ip address prefix-length", l)
            }
            ["ipv4", "secondary", a, rest @ ..] => match a.parse::<Ipv4Addr>() {
                Ok(ip) => {
                    let len = match rest {
                        ["prefix-length", l] => number(dev, line, "ip address prefix-length", l),
                        _ => None,
                    };
                    match i.secondaries.iter_mut().find(|s| s.0 == ip) {
                        Some(s) => s.1 = s.1.or(len),
                        None => i.secondaries.push((ip, len, line)),
                    }
                }
                Err(_) => bad(dev, a),
            },
            _ => {}
        }
    }

    /// `static-routes route P route-type unicast …`.
    pub(super) fn static_route(&mut self, w: &[&str], st: &Statement, dev: &mut DeviceConfig) {
        let line = st.line;
        let ["route", p, "route-type", "unicast", rest @ ..] = w else {
            if let ["route", p, ..] = w {
                dev.warn(
                    line,
                    format!("static route {p}: a route type other than unicast is not read"),
                );
            }
            return;
        };
        let Ok(prefix) = p.parse::<IpNet>() else {
            dev.warn(line, format!("static route: '{p}' is not a prefix"));
            return;
        };
        if prefix.addr().is_ipv6() {
            return;
        }
        let (kind, tail) = match rest {
            ["next-hop", nh, tail @ ..] => match nh.parse::<IpAddr>() {
                Ok(ip) => (HopKind::NextHop(ip), tail),
                Err(_) => {
                    dev.warn(
                        line,
                        format!("static route {p} next-hop: '{nh}' is not an address"),
                    );
                    return;
                }
            },
            ["indirect", nh, tail @ ..] => match nh.parse::<IpAddr>() {
                Ok(ip) => (HopKind::Indirect(ip), tail),
                Err(_) => {
                    dev.warn(
                        line,
                        format!("static route {p} indirect: '{nh}' is not an address"),
                    );
                    return;
                }
            },
            ["blackhole", tail @ ..] => (HopKind::Blackhole, tail),
            ["interface", i, tail @ ..] => (HopKind::Interface((*i).to_owned()), tail),
            [] => return,
            [other, ..] => {
                dev.warn(
                    line,
                    format!("static route {p} {other}: not read: the route may be missing"),
                );
                return;
            }
        };
        let key = (prefix, format!("{}", HopKey(&kind)));
        let at = *self.hop_index.entry(key).or_insert_with(|| {
            self.hops.push(Hop {
                prefix,
                kind,
                enabled: false,
                preference: None,
                metric: None,
                tag: None,
                line,
            });
            self.hops.len() - 1
        });
        let what = format!("static route {p}");
        match tail {
            ["admin-state", state] => self.hops[at].enabled = *state == "enable",
            ["preference", v] => self.hops[at].preference = number(dev, line, &what, v),
            ["metric", v] => self.hops[at].metric = number(dev, line, &what, v),
            ["tag", v] => self.hops[at].tag = number(dev, line, &what, v),
            [] | ["description", ..] | ["bfd-liveness", ..] => {}
            [other, ..] => dev.warn(
                line,
                format!("static route {p} {other}: not read: the route may differ on the device"),
            ),
        }
    }

    /// The interfaces and static routes into the model; a router interface is up when it
    /// and its port are (a port is down unless `admin-state enable`).
    pub(super) fn finish(&mut self, dev: &mut DeviceConfig, ports: &Ports<'_>) {
        let ports_up = ports.up;
        // Ports and LAGs are interfaces of their own (what the cabling names); a router
        // interface rides on one.
        for (name, line) in ports.list {
            let mut i = Interface::new(name.clone(), *line);
            i.admin_up = ports_up.contains(name);
            i.channel_group = ports.lag_of.get(name).cloned();
            dev.interfaces.push(i);
        }
        for ri in &self.interfaces {
            let mut i = Interface::new(ri.name.clone(), ri.line);
            i.description = ri.description.clone();
            i.port = ri.port.clone();
            let port_up = ri.port.as_ref().is_none_or(|p| ports_up.contains(p));
            i.admin_up = !ri.disabled
                && port_up
                && (ri.port.is_some() || ri.loopback || ri.name == "system");
            if let (Some(a), Some(l), line) = ri.primary {
                match Ipv4Net::new(a, l) {
                    Ok(n) => i.addresses.push(InterfaceAddress {
                        address: IpNet::V4(n),
                        kind: AddressKind::Primary,
                        line,
                    }),
                    Err(_) => dev.warn(
                        line,
                        format!(
                            "ip address of interface {}: /{l} is not a prefix length",
                            ri.name
                        ),
                    ),
                }
            }
            for (a, l, line) in &ri.secondaries {
                if let Some(n) = l.and_then(|l| Ipv4Net::new(*a, l).ok()) {
                    i.addresses.push(InterfaceAddress {
                        address: IpNet::V4(n),
                        kind: AddressKind::Secondary,
                        line: *line,
                    });
                }
            }
            dev.interfaces.push(i);
        }
        self.over_ecmp(dev);
        for h in self.hops.iter().filter(|h| h.enabled) {
            let (next_hop, next_hop_interface) = match &h.kind {
                HopKind::NextHop(ip) => (Some(*ip), None),
                HopKind::Indirect(ip) => {
                    self.indirect.insert((h.prefix, Some(*ip)));
                    (Some(*ip), None)
                }
                // A blackhole drops what it matches, as Junos `discard` does.
                HopKind::Blackhole => (None, Some("discard".to_owned())),
                HopKind::Interface(i) => (None, Some(i.clone())),
            };
            dev.static_routes.push(StaticRoute {
                vrf: None,
                prefix: h.prefix.trunc(),
                next_hop,
                next_hop_interface,
                distance: h.preference,
                metric: Some(h.metric.unwrap_or(1)),
                tag: h.tag,
                activity: RouteActivity::Usable,
                line: h.line,
            });
        }
    }
}

impl Router {
    /// A route with more next hops of its best preference than `ecmp` allows (1 unless
    /// configured): SR OS installs that many of them, and which is not computed — a
    /// routing warning, so the table is marked incomplete rather than guessed.
    fn over_ecmp(&self, dev: &mut DeviceConfig) {
        let ecmp = self.ecmp.unwrap_or(1);
        let mut best: BTreeMap<IpNet, (u32, u32, u32)> = BTreeMap::new();
        for h in self.hops.iter().filter(|h| h.enabled) {
            let pref = h.preference.unwrap_or(5);
            let e = best.entry(h.prefix).or_insert((pref, 0, h.line));
            if pref < e.0 {
                *e = (pref, 0, h.line);
            }
            if pref == e.0 {
                e.1 += 1;
            }
        }
        for (prefix, (pref, n, line)) in best {
            if n > ecmp {
                dev.warn(
                    line,
                    format!(
                        "static route {prefix}: {n} next hops of preference {pref} and router ecmp {ecmp}: SR OS installs {ecmp} of them, which is not computed"
                    ),
                );
            }
        }
    }
}

/// A hop's identity within its route, for grouping its statements.
struct HopKey<'a>(&'a HopKind);

impl std::fmt::Display for HopKey<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            HopKind::NextHop(ip) => write!(f, "next-hop {ip}"),
            HopKind::Indirect(ip) => write!(f, "indirect {ip}"),
            HopKind::Blackhole => f.write_str("blackhole"),
            HopKind::Interface(i) => write!(f, "interface {i}"),
        }
    }
}
