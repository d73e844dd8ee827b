//! Cisco IOS-XR, as `show running-config` prints it: blocks nested by indentation (one
//! space a level, RPL bodies two) and closed by `!`, RPL definitions closed by
//! `end-policy` / `end-set`.
//!
//! The text is read into a tree by indentation ([`tree`]), then each top-level block once:
//!
//! - `hostname`; `interface` blocks: `ipv4 address A M [secondary]`, `ipv4 unnumbered`,
//!   `shutdown`, `mtu` (IOS-XR's counts the 14-byte Ethernet header: olav keeps the IP
//!   MTU, `mtu` − 14), `ipv4 mtu`, `description`, `vrf`, `bundle id N` (a member of
//!   `Bundle-EtherN`, as a channel group), `encapsulation dot1q N`;
//! - `vrf X`: its IPv4 unicast route targets;
//! - `router static` (per `vrf` too): the `address-family ipv4 unicast` routes;
//! - `router ospf`, `router isis`: see [`igp`]; `router bgp`: see [`bgp`];
//! - RPL: `prefix-set`, `route-policy`, `as-path-set`, `community-set` ([`rpl`]): a
//!   route-policy becomes the route-map clauses the routing model evaluates.
//!
//! Everything else is counted as unrecognised; blocks that make routes olav does not
//! compute (`router eigrp`, `router rip`, `multicast-routing`) are warned about so the
//! routing model marks the device incomplete.

mod bgp;
mod igp;
mod rpl;
mod tree;

use super::common::{self, parse_addr_mask};
use super::ConfigParser;
use crate::model::Vendor;
use crate::model::{
    AddressKind, DeviceConfig, Interface, InterfaceAddress, NextHopResolution, RouteTarget,
    RtFamily, VrfVpn,
};
use tree::Node;

/// Parser for Cisco IOS-XR configurations.
pub struct IosXrParser;

impl ConfigParser for IosXrParser {
    fn vendor(&self) -> Vendor {
        Vendor::CiscoIosXr
    }

    fn markers(&self) -> &'static [(&'static str, u32)] {
        &[
            ("!! IOS XR", 10),
            (" ipv4 address ", 3),
            ("route-policy ", 3),
            ("end-policy", 3),
            ("end-set", 3),
            ("prefix-set ", 3),
            ("interface Bundle-Ether", 3),
        ]
    }

    fn rancid_types(&self) -> &'static [&'static str] {
        &["cisco-xr", "ios-xr", "iosxr", "xr"]
    }

    fn parse(&self, text: &str) -> DeviceConfig {
        parse(text)
    }
}

/// Whether `text` is an IOS-XR configuration: its banner, or IOS-XR's own syntax
/// (`ipv4 address` under an interface, RPL's `end-policy` / `end-set`, `router static`
/// with an address family) that IOS, NX-OS and EOS never print.
pub fn is_iosxr(text: &str) -> bool {
    let mut tells = Tells::default();
    text.lines()
        .take(super::DETECT_LINES)
        .any(|line| tells.line(line, line.trim()))
}

/// What the lines read so far tell of IOS-XR ([`is_iosxr`], a line at a time).
#[derive(Default)]
pub(in crate::import::parse) struct Tells {
    in_static: bool,
}

impl Tells {
    /// Whether `line` (`t` trimmed) is one only IOS-XR writes.
    pub(in crate::import::parse) fn line(&mut self, line: &str, t: &str) -> bool {
        if t.starts_with("!! IOS XR")
            || t == "end-policy"
            || t == "end-set"
            || (line.starts_with(' ') && t.starts_with("ipv4 address "))
            || (self.in_static && t == "address-family ipv4 unicast")
        {
            return true;
        }
        if !line.starts_with(' ') {
            self.in_static = t == "router static";
        }
        false
    }
}

/// Parses an IOS-XR configuration.
pub fn parse(text: &str) -> DeviceConfig {
    let roots = tree::read(text);
    let mut x = Xr::default();
    for n in &roots {
        x.top(n);
    }
    x.finish(text)
}

/// The walk's state.
#[derive(Default)]
struct Xr {
    dev: DeviceConfig,
    rpl: rpl::Rpl,
    /// Lines no handler read.
    unrecognised: u32,
}

impl Xr {
    fn top(&mut self, n: &Node) {
        let w = n.words();
        match w.as_slice() {
            ["hostname", h, ..] => self.dev.hostname = Some((*h).to_owned()),
            ["interface", name, ..] => self.interface(name, n),
            ["vrf", name] => self.vrf(name, n),
            ["router", "static"] => self.statics(None, n),
            ["router", "ospf", id, ..] => igp::ospf(&mut self.dev, id, n),
            ["router", "isis", tag, ..] => igp::isis(&mut self.dev, tag, n),
            ["router", "bgp", asn, ..] => bgp::read(&mut self.dev, asn, n),
            ["router", other, ..] => {
                self.dev.warn(
                    n.line,
                    format!("router: 'router {other}' is not read: its routes are left out"),
                );
            }
            ["prefix-set" | "route-policy" | "as-path-set" | "community-set", ..] => {
                self.rpl.definition(&mut self.dev, n);
            }
            ["end"] => self.dev.saw_end = true,
            ["end-policy" | "end-set"] => {}
            _ => self.unrecognised += 1 + n.count(),
        }
    }

    fn interface(&mut self, name: &str, n: &Node) {
        let mut i = Interface::new(name.to_owned(), n.line);
        if let Some((base, _)) = name.split_once('.') {
            // A subinterface rides on its parent port.
            i.port = Some(base.to_owned());
        }
        for c in &n.children {
            let w = c.words();
            match w.as_slice() {
                ["description", ..] => {
                    i.description = Some(common::rest_after_words(&c.text, 1).to_owned());
                }
                ["shutdown"] => i.admin_up = false,
                ["mtu", m] => i.mtu = m.parse::<u32>().ok().map(|m| m.saturating_sub(14)),
                ["ipv4", "mtu", m] => i.ip_mtu = m.parse().ok(),
                ["vrf", v] => i.vrf = Some((*v).to_owned()),
                ["ipv4", "address", a, m, rest @ ..] => match parse_addr_mask(a, m) {
                    Some(address) => i.addresses.push(InterfaceAddress {
                        address,
                        kind: if rest.contains(&"secondary") {
                            AddressKind::Secondary
                        } else {
                            AddressKind::Primary
                        },
                        line: c.line,
                    }),
                    None => self.dev.warn(
                        c.line,
                        format!("interface {name}: cannot read the address '{a} {m}'"),
                    ),
                },
                ["ipv4", "unnumbered", src] => i.unnumbered = Some((*src).to_owned()),
                ["bundle", "id", id, ..] => i.channel_group = Some(format!("Bundle-Ether{id}")),
                ["encapsulation", "dot1q", v, ..] => i.encapsulation_vlan = v.parse().ok(),
                _ => self.unrecognised += 1 + c.count(),
            }
        }
        self.dev.interfaces.push(i);
    }

    fn vrf(&mut self, name: &str, n: &Node) {
        let mut vpn = VrfVpn {
            vrf: name.to_owned(),
            import: Vec::new(),
            export: Vec::new(),
            vni: None,
        };
        for af in n
            .children
            .iter()
            .filter(|c| c.text == "address-family ipv4 unicast")
        {
            for c in &af.children {
                let list = match c.words().as_slice() {
                    ["import", "route-target", ..] => &mut vpn.import,
                    ["export", "route-target", ..] => &mut vpn.export,
                    _ => continue,
                };
                // The values sit on the block's lines, or after the words on one line.
                let inline = c.words().into_iter().skip(2);
                let nested = c.children.iter().flat_map(|v| v.words());
                list.extend(inline.chain(nested).map(|v| RouteTarget {
                    value: v.to_owned(),
                    family: RtFamily::Vpn,
                }));
            }
        }
        let bgp = self.dev.bgp.get_or_insert_with(Default::default);
        bgp.routing.vrf_vpn.push(vpn);
    }

    fn statics(&mut self, vrf: Option<String>, n: &Node) {
        for c in &n.children {
            match c.words().as_slice() {
                ["address-family", "ipv4", "unicast"] => {
                    for r in &c.children {
                        let w = r.words();
                        common::static_route(&mut self.dev, vrf.clone(), &w, r.line);
                    }
                }
                ["vrf", v] if vrf.is_none() => self.statics(Some((*v).to_owned()), c),
                ["address-family", ..] => {}
                _ => self.unrecognised += 1,
            }
        }
    }

    fn finish(mut self, text: &str) -> DeviceConfig {
        self.rpl.finish(&mut self.dev);
        igp::finish(&mut self.dev);
        // A `vrf` block written without BGP leaves an empty process: none runs.
        if self.dev.bgp.as_ref().is_some_and(|b| b.local_as.is_none()) {
            if let Some(b) = self.dev.bgp.as_mut() {
                b.routing
                    .vrf_vpn
                    .retain(|v| !v.import.is_empty() || !v.export.is_empty());
            }
            if self
                .dev
                .bgp
                .as_ref()
                .is_some_and(|b| b.routing.vrf_vpn.is_empty())
            {
                self.dev.bgp = None;
            }
        }
        self.dev
            .judge_static_routes(|_| NextHopResolution::Recursive);
        self.dev.warnings.sort_by_key(|w| w.line);
        self.dev.lines_total = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
        self.dev.lines_unrecognised = self.unrecognised;
        self.dev
    }
}

#[cfg(test)]
mod tests;
