//! Statement handlers shared by the Cisco-style dialects (IOS/IOS-XE, EOS, NX-OS).
//!
//! The three print much of their configuration the same way (interfaces, route-maps,
//! prefix-lists, `neighbor X …` lines). Each vendor module drives these handlers from
//! its own context walk and handles only what differs.

pub mod acl;
mod bgp;
pub mod eigrp;
mod interface;
pub mod isis;
mod neighbor_settings;
pub mod ospf;
mod routes;
mod structures;

pub use bgp::{BgpBuilder, Scope};
pub use interface::{frr_address, interface_line, push_virtual};
pub use routes::{redistribute, remove_static_route, static_route};
pub use structures::{prefix_list_entry, route_map_line, structure_line, StructureBlock};

use crate::model::{DeviceConfig, StructureDef, StructureKind, StructureRef};
use ipnet::{IpNet, Ipv4Net};
use std::net::Ipv4Addr;

/// Parses `a.b.c.d/len`, `a:b::/len`, keeping host bits.
pub fn parse_prefix(s: &str) -> Option<IpNet> {
    s.parse::<IpNet>().ok()
}

/// Parses an address and a dotted mask (`10.0.0.1 255.255.255.0`).
pub fn parse_addr_mask(addr: &str, mask: &str) -> Option<IpNet> {
    let a: Ipv4Addr = addr.parse().ok()?;
    let m: Ipv4Addr = mask.parse().ok()?;
    let len = ipnet::ipv4_mask_to_prefix(m).ok()?;
    Ipv4Net::new(a, len).ok().map(IpNet::V4)
}

/// Parses an OSPF wildcard (`0.0.0.255`) as a prefix with `addr`.
pub fn parse_addr_wildcard(addr: &str, wildcard: &str) -> Option<IpNet> {
    let a: Ipv4Addr = addr.parse().ok()?;
    let w: Ipv4Addr = wildcard.parse().ok()?;
    let mask = Ipv4Addr::from(!u32::from(w));
    let len = ipnet::ipv4_mask_to_prefix(mask).ok()?;
    Ipv4Net::new(a, len).ok().map(|n| IpNet::V4(n.trunc()))
}

/// Parses an AS number in asplain (`65001`) or asdot (`1.100`) notation.
pub fn parse_asn(s: &str) -> Option<u32> {
    if let Some((hi, lo)) = s.split_once('.') {
        let hi: u32 = hi.parse().ok()?;
        let lo: u32 = lo.parse().ok()?;
        if hi > 0xFFFF || lo > 0xFFFF {
            return None;
        }
        return Some(hi * 65536 + lo);
    }
    s.parse().ok()
}

/// The text after the first `n` words of `line`, as written.
pub fn rest_after_words(line: &str, n: usize) -> &str {
    let mut rest = line;
    for _ in 0..n {
        rest = rest.trim_start();
        match rest.find(char::is_whitespace) {
            Some(i) => rest = &rest[i..],
            None => return "",
        }
    }
    rest.trim()
}

/// Records a structure definition once per (kind, name).
pub fn define(dev: &mut DeviceConfig, kind: StructureKind, name: &str, line: u32) {
    if !dev
        .structures
        .iter()
        .any(|d| d.kind == kind && d.name == name)
    {
        dev.structures.push(StructureDef {
            kind,
            name: name.to_owned(),
            line,
        });
    }
}

/// Records a structure reference.
pub fn reference(
    dev: &mut DeviceConfig,
    kind: StructureKind,
    name: &str,
    context: &str,
    line: u32,
) {
    dev.references.push(StructureRef {
        kind,
        name: name.to_owned(),
        context: context.to_owned(),
        line,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_wildcards() {
        assert_eq!(
            parse_addr_mask("10.0.0.1", "255.255.255.252").map(|n| n.to_string()),
            Some("10.0.0.1/30".into())
        );
        assert_eq!(parse_addr_mask("10.0.0.1", "255.0.255.0"), None);
        assert_eq!(
            parse_addr_wildcard("192.168.1.0", "0.0.0.3").map(|n| n.to_string()),
            Some("192.168.1.0/30".into())
        );
    }

    #[test]
    fn asdot() {
        assert_eq!(parse_asn("1.100"), Some(65636));
        assert_eq!(parse_asn("7575"), Some(7575));
        assert_eq!(parse_asn("x"), None);
    }

    #[test]
    fn rest_keeps_spacing() {
        assert_eq!(rest_after_words(" description  to   core ", 1), "to   core");
    }
}
