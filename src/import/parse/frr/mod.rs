//! FRRouting in the three layouts Batfish reads: a plain `frr.conf`; Cumulus Linux's
//! concatenated file (hostname line, `/etc/network/interfaces`, `# ports.conf --`, then
//! `frr.conf`; [`ifupdown`]); and SONiC's `config_db.json` + `frr.conf` pair, joined into
//! one text by the snapshot reader ([`sonic`]). The `frr.conf` part goes through the
//! Cisco-style walk (route-maps and prefix-lists are IOS syntax) with FRR's forms on.

mod ifupdown;
pub mod sonic;

use super::cisco_style::{self, Dialect};
use super::ConfigParser;
use crate::model::{AddressKind, DeviceConfig, Interface, Vendor};

/// Parser for FRR configurations (plain, Cumulus Linux, SONiC).
pub struct FrrParser;

/// The line that opens Cumulus' `ports.conf` section in a concatenated file.
const PORTS_CONF: &str = "# ports.conf --";
/// The first comment line of `/etc/network/interfaces`.
const INTERFACES_FILE: &str = "# This file describes the network interfaces";

impl ConfigParser for FrrParser {
    fn vendor(&self) -> Vendor {
        Vendor::Frr
    }

    fn markers(&self) -> &'static [(&'static str, u32)] {
        &[
            ("frr version", 5),
            ("frr defaults", 5),
            (PORTS_CONF, 5),
            (sonic::CONFIG_DB_MARKER, 5),
            ("iface ", 2),
        ]
    }

    fn rancid_types(&self) -> &'static [&'static str] {
        &["frr", "cumulus", "sonic"]
    }

    fn parse(&self, text: &str) -> DeviceConfig {
        if text.starts_with(sonic::CONFIG_DB_MARKER) {
            return sonic::parse(text);
        }
        let lines: Vec<&str> = text.lines().collect();
        let frr_start = lines
            .iter()
            .position(|l| l.starts_with("frr version") || l.starts_with("frr defaults"));
        let cumulus = lines
            .iter()
            .take(frr_start.unwrap_or(lines.len()))
            .any(|l| l.starts_with(PORTS_CONF) || l.starts_with(INTERFACES_FILE));
        if !cumulus {
            let mut dev = parse_frr_conf(text, 0);
            dev.model = Some("FRR".to_owned());
            return dev;
        }
        // Cumulus concatenated: the interfaces file runs to `# ports.conf --` (or to
        // `frr version`); the FRR part starts at `frr version` (after ports.conf).
        let if_end = lines
            .iter()
            .position(|l| l.starts_with(PORTS_CONF))
            .or(frr_start)
            .unwrap_or(lines.len());
        let frr_from = frr_start.unwrap_or_else(|| after_ports_conf(&lines, if_end));
        let mut dev = parse_frr_conf(text, frr_from);
        let first = lines.first().map(|l| l.trim()).unwrap_or("");
        // Batfish's layout: the first line is the hostname alone.
        let starts_with_hostname = !first.is_empty()
            && !first.starts_with('#')
            && first.split_whitespace().count() == 1
            && !first.contains('=');
        if starts_with_hostname {
            dev.hostname = Some(first.to_owned());
        }
        let from = usize::from(starts_with_hostname);
        let ifaces = ifupdown::parse(&mut dev, &lines[from.min(if_end)..if_end], from);
        merge_interfaces(&mut dev, ifaces, false);
        dev.lines_total = lines.len() as u32;
        dev.model = Some("Cumulus Linux".to_owned());
        dev
    }
}

/// Where the FRR part starts when no `frr version` line says so: the first line after
/// the `ports.conf` section that is neither a comment nor a port setting (`1=4x10G`).
fn after_ports_conf(lines: &[&str], ports: usize) -> usize {
    lines
        .iter()
        .enumerate()
        .skip(ports)
        .find(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#') && !t.contains('=')
        })
        .map_or(lines.len(), |(i, _)| i)
}

/// Whether `text` is FRR's (a plain `frr.conf`, a Cumulus concatenated file, a SONiC
/// pair): the tells Batfish's format detection uses, at the start of a line.
pub fn is_frr(text: &str) -> bool {
    text.starts_with(sonic::CONFIG_DB_MARKER) || text.lines().take(super::DETECT_LINES).any(tells)
}

/// Whether `line` is one of FRR's tells ([`is_frr`], a line at a time).
pub(super) fn tells(line: &str) -> bool {
    line.starts_with("frr version")
        || line.starts_with("frr defaults")
        || line.starts_with(PORTS_CONF)
        || line.starts_with(INTERFACES_FILE)
}

/// Reads the `frr.conf` part of `text`, from line index `from` on; the lines before it
/// are blanked so that line numbers stay the file's.
fn parse_frr_conf(text: &str, from: usize) -> DeviceConfig {
    let dialect = Dialect {
        frr: true,
        ..Dialect::default()
    };
    let mut dev = if from == 0 {
        cisco_style::parse(text, dialect)
    } else {
        let mut blanked = "\n".repeat(from);
        for l in text.lines().skip(from) {
            blanked.push_str(l);
            blanked.push('\n');
        }
        cisco_style::parse(&blanked, dialect)
    };
    // `frr version 4.0+cl3u8`: the version `version` lines do not give.
    dev.os_version = text
        .lines()
        .skip(from)
        .find_map(|l| l.strip_prefix("frr version "))
        .map(|v| v.trim().to_owned());
    dev
}

/// Joins the interfaces the host's files define (ifupdown2, `config_db.json`) with the
/// ones `frr.conf` names: the host gives addresses, VRFs and state; FRR adds its own
/// addresses and descriptions and its `shutdown`. With `only_host` (SONiC) an interface
/// only `frr.conf` names does not exist on the device (zebra keeps its settings for a
/// port the kernel lacks): it is left out with a warning.
fn merge_interfaces(dev: &mut DeviceConfig, host: Vec<Interface>, only_host: bool) {
    let frr = std::mem::take(&mut dev.interfaces);
    let mut out = host;
    for f in frr {
        match out.iter_mut().find(|i| i.name == f.name) {
            Some(i) => {
                i.admin_up &= f.admin_up;
                if f.description.is_some() {
                    i.description = f.description;
                }
                if f.vrf.is_some() {
                    i.vrf = f.vrf;
                }
                for mut a in f.addresses {
                    if i.addresses.iter().any(|x| x.address == a.address) {
                        continue;
                    }
                    let v4 = a.address.addr().is_ipv4();
                    if a.kind == AddressKind::Primary
                        && i.addresses.iter().any(|x| {
                            x.kind == AddressKind::Primary && x.address.addr().is_ipv4() == v4
                        })
                    {
                        a.kind = AddressKind::Secondary;
                    }
                    i.addresses.push(a);
                }
            }
            None if only_host => dev.warnings.push(crate::model::LineWarning {
                line: f.line,
                message: format!(
                    "interface {}: in frr.conf but not in config_db.json: no such port on the device, left out",
                    f.name
                ),
            }),
            None => out.push(f),
        }
    }
    dev.interfaces = out;
    unnumbered_host_addresses(dev);
}

/// A port holding only its loopback's /32 (`address 10.0.0.1/32` on `swp1` and `lo`) is
/// unnumbered, as FRR runs OSPF over it: it borrows the loopback's address and installs
/// no route of its own.
fn unnumbered_host_addresses(dev: &mut DeviceConfig) {
    let Some(lo) = dev.interfaces.iter().position(|i| i.name == "lo") else {
        return;
    };
    let lo_addrs: Vec<ipnet::IpNet> = dev.interfaces[lo]
        .addresses
        .iter()
        .map(|a| a.address)
        .collect();
    for (k, i) in dev.interfaces.iter_mut().enumerate() {
        let v4: Vec<&crate::model::InterfaceAddress> = i
            .addresses
            .iter()
            .filter(|a| a.address.addr().is_ipv4() && a.kind != AddressKind::Virtual)
            .collect();
        let borrowed = k != lo
            && !v4.is_empty()
            && v4
                .iter()
                .all(|a| a.address.prefix_len() == 32 && lo_addrs.contains(&a.address));
        if borrowed {
            i.addresses.retain(|a| !a.address.addr().is_ipv4());
            i.unnumbered = Some("lo".to_owned());
        }
    }
}

#[cfg(test)]
mod tests;
