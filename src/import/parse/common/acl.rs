//! IPv4 access lists as packet filters (IOS / IOS-XE, EOS, NX-OS): named `ip access-list
//! [standard|extended] NAME` blocks, numbered `access-list N …` lines, and `ip
//! access-group` bindings. Entries are kept in sequence-number order, as the device
//! evaluates them; a condition olav does not evaluate makes the entry `unknown`, a line
//! that cannot be read is a warning.

use crate::model::{
    port_number, protocol_number, DeviceConfig, Direction, FilterBinding, FilterLine, PacketFilter,
    PortRange, Wildcard,
};
use std::net::Ipv4Addr;

/// Whether a numbered list is a standard one (1–99, 1300–1999), an extended one
/// (100–199, 2000–2699), or not an IPv4 packet filter (None).
pub fn numbered_kind(name: &str) -> Option<bool> {
    match name.parse::<u32>().ok()? {
        1..=99 | 1300..=1999 => Some(true),
        100..=199 | 2000..=2699 => Some(false),
        _ => None,
    }
}

/// The filter named `name`, created (empty) when new: a block opened again continues it.
fn filter_mut<'a>(dev: &'a mut DeviceConfig, name: &str) -> &'a mut PacketFilter {
    let i = match dev.filters.iter().position(|f| f.name == name) {
        Some(i) => i,
        None => {
            dev.filters.push(PacketFilter {
                name: name.to_owned(),
                lines: Vec::new(),
            });
            dev.filters.len() - 1
        }
    };
    &mut dev.filters[i]
}

/// `ip access-list [standard|extended] NAME` (a block follows).
pub fn open(dev: &mut DeviceConfig, name: &str) {
    filter_mut(dev, name);
}

/// `no ip access-list [standard|extended] NAME`, `no access-list N`: the whole list.
pub fn remove(dev: &mut DeviceConfig, name: &str) {
    dev.filters.retain(|f| f.name != name);
}

/// A line inside an ACL block: `[N] permit|deny …`, `no N`, `no permit|deny …`,
/// `remark`, counters. Returns false when the line is not one of them.
pub fn block_line(
    dev: &mut DeviceConfig,
    name: &str,
    standard: bool,
    w: &[&str],
    text: &str,
    line: u32,
) -> bool {
    match w {
        ["no", n] if n.parse::<u32>().is_ok() => {
            let seq = n.parse::<u32>().ok();
            filter_mut(dev, name).lines.retain(|l| l.seq != seq);
        }
        ["no", action @ ("permit" | "deny"), rest @ ..] => {
            let written = format!("{action} {}", rest.join(" "));
            filter_mut(dev, name).lines.retain(|l| {
                let body = l.text.split_ascii_whitespace().collect::<Vec<_>>();
                let body = match body.split_first() {
                    Some((s, b)) if s.parse::<u32>().is_ok() => b.join(" "),
                    _ => body.join(" "),
                };
                body != written
            });
        }
        [n, rest @ ..] if n.parse::<u32>().is_ok() => match rest {
            ["remark", ..] => {}
            _ => entry(dev, name, standard, n.parse().ok(), rest, text, line),
        },
        ["permit" | "deny", ..] => entry(dev, name, standard, None, w, text, line),
        // A reflexive ACL's entries are made by traffic: what they permit is unknown.
        ["evaluate", reflexive, ..] => {
            let f = filter_mut(dev, name);
            let seq = f.lines.iter().filter_map(|l| l.seq).max().unwrap_or(0) + 10;
            let mut l = FilterLine::any(true, text.trim().to_owned(), line);
            l.seq = Some(seq);
            l.not_evaluated(format!("reflexive ACL {reflexive}"));
            f.lines.push(l);
        }
        ["remark" | "statistics" | "counters" | "fragments" | "description", ..] => {}
        _ => return false,
    }
    true
}

/// `access-list N permit|deny …` (the words after the number).
pub fn numbered_line(dev: &mut DeviceConfig, name: &str, w: &[&str], text: &str, line: u32) {
    let Some(standard) = numbered_kind(name) else {
        return;
    };
    match w {
        ["permit" | "deny", ..] => entry(dev, name, standard, None, w, text, line),
        _ => {
            filter_mut(dev, name);
        }
    }
}

/// `ip access-group NAME in|out` (and NX-OS `ip port access-group`) on an interface.
pub fn bind(dev: &mut DeviceConfig, interface: &str, filter: &str, dir: &str, line: u32) {
    let direction = match dir {
        "in" => Direction::In,
        "out" => Direction::Out,
        _ => return,
    };
    dev.filter_bindings
        .retain(|b| !(b.interface == interface && b.direction == direction));
    dev.filter_bindings.push(FilterBinding {
        interface: interface.to_owned(),
        filter: filter.to_owned(),
        direction,
        line,
    });
}

/// `no ip access-group NAME in|out` on an interface.
pub fn unbind(dev: &mut DeviceConfig, interface: &str, dir: &str) {
    let direction = if dir == "out" {
        Direction::Out
    } else {
        Direction::In
    };
    dev.filter_bindings
        .retain(|b| !(b.interface == interface && b.direction == direction));
}

/// One entry, placed by its sequence number (none given: 10 past the last).
fn entry(
    dev: &mut DeviceConfig,
    name: &str,
    standard: bool,
    seq: Option<u32>,
    w: &[&str],
    text: &str,
    line: u32,
) {
    let parsed = match w {
        [action @ ("permit" | "deny"), rest @ ..] => {
            let mut l = FilterLine::any(*action == "permit", text.trim().to_owned(), line);
            let read = if standard {
                standard_entry(rest, &mut l)
            } else {
                extended_entry(rest, &mut l)
            };
            read.map(|()| l)
        }
        _ => Err(format!("cannot read '{}'", w.join(" "))),
    };
    let mut l = match parsed {
        Ok(l) => l,
        Err(why) => {
            dev.warn(line, format!("access-list {name}: {why}"));
            return;
        }
    };
    let f = filter_mut(dev, name);
    let seq = seq.unwrap_or_else(|| f.lines.iter().filter_map(|l| l.seq).max().unwrap_or(0) + 10);
    if f.lines.iter().any(|x| x.seq == Some(seq)) {
        dev.warn(
            line,
            format!("access-list {name}: sequence {seq} is already used"),
        );
        return;
    }
    l.seq = Some(seq);
    let at = f.lines.partition_point(|x| x.seq.is_some_and(|s| s < seq));
    f.lines.insert(at, l);
}

/// A standard entry: `A [W]`, `A/L`, `host A`, `any`, then `log`.
fn standard_entry(w: &[&str], l: &mut FilterLine) -> Result<(), String> {
    let (src, rest) = match w {
        [a, m, rest @ ..] if a.parse::<Ipv4Addr>().is_ok() && m.parse::<Ipv4Addr>().is_ok() => {
            (Some(wild(a, m)?), rest)
        }
        [a, rest @ ..] if a.parse::<Ipv4Addr>().is_ok() => (Some(wild(a, "0.0.0.0")?), rest),
        _ => address(w, l)?,
    };
    l.src.extend(src);
    trailing(rest, l);
    Ok(())
}

/// An extended entry: `PROTO SRC [PORTS] DST [PORTS] [established] [log] …`.
fn extended_entry(w: &[&str], l: &mut FilterLine) -> Result<(), String> {
    let Some((proto, rest)) = w.split_first() else {
        return Err("no protocol".into());
    };
    let ported = match *proto {
        "ip" => false,
        "object-group" => {
            l.not_evaluated("protocol object-group");
            return Ok(());
        }
        p => match protocol_number(p) {
            Some(n) => {
                l.protocols.push(n);
                matches!(n, 6 | 17)
            }
            None => {
                l.not_evaluated(format!("protocol {p}"));
                return Ok(());
            }
        },
    };
    let (src, rest) = address(rest, l)?;
    l.src.extend(src);
    let rest = if ported {
        ports(rest, &mut l.src_ports)?
    } else {
        rest
    };
    let (dst, rest) = address(rest, l)?;
    l.dst.extend(dst);
    let rest = if ported {
        ports(rest, &mut l.dst_ports)?
    } else {
        rest
    };
    trailing(rest, l);
    if l.established && l.protocols != [6] {
        l.established = false;
        l.not_evaluated("established on a protocol other than tcp");
    }
    Ok(())
}

/// `any`, `host A`, `A W`, `A/L`; an object group is not evaluated (any address).
fn address<'a, 'b>(
    w: &'a [&'b str],
    l: &mut FilterLine,
) -> Result<(Option<Wildcard>, &'a [&'b str]), String> {
    match w {
        ["any", rest @ ..] => Ok((None, rest)),
        ["host", a, rest @ ..] => Ok((Some(wild(a, "0.0.0.0")?), rest)),
        [kind @ ("object-group" | "addrgroup" | "net-group"), _, rest @ ..] => {
            l.not_evaluated(format!("address {kind}"));
            Ok((None, rest))
        }
        [p, rest @ ..] if p.contains('/') => {
            let net: ipnet::Ipv4Net = p.parse().map_err(|_| format!("'{p}' is not a prefix"))?;
            Ok((Some(Wildcard::prefix(net.addr(), net.prefix_len())), rest))
        }
        [a, m, rest @ ..] => Ok((Some(wild(a, m)?), rest)),
        [a] => Err(format!("'{a}' has no wildcard")),
        [] => Err("an address is missing".into()),
    }
}

fn wild(a: &str, m: &str) -> Result<Wildcard, String> {
    let a: Ipv4Addr = a.parse().map_err(|_| format!("'{a}' is not an address"))?;
    let m: Ipv4Addr = m.parse().map_err(|_| format!("'{m}' is not a wildcard"))?;
    Ok(Wildcard::new(a, m))
}

/// `eq P…`, `neq P`, `lt P`, `gt P`, `range A B` (none: the words as they are).
fn ports<'a, 'b>(w: &'a [&'b str], out: &mut Vec<PortRange>) -> Result<&'a [&'b str], String> {
    let port = |p: &str| port_number(p).ok_or_else(|| format!("'{p}' is not a port"));
    match w {
        ["eq", rest @ ..] => {
            let n = rest.iter().take_while(|p| port_number(p).is_some()).count();
            if n == 0 {
                return Err(format!(
                    "'eq {}' names no port",
                    rest.first().unwrap_or(&"")
                ));
            }
            for p in &rest[..n] {
                let p = port(p)?;
                out.push(PortRange { lo: p, hi: p });
            }
            Ok(&rest[n..])
        }
        ["neq", p, rest @ ..] => {
            let p = port(p)?;
            if p > 0 {
                out.push(PortRange { lo: 0, hi: p - 1 });
            }
            if p < u16::MAX {
                out.push(PortRange {
                    lo: p + 1,
                    hi: u16::MAX,
                });
            }
            Ok(rest)
        }
        ["lt", p, rest @ ..] => match port(p)? {
            0 => Err("'lt 0' matches no port".into()),
            p => {
                out.push(PortRange { lo: 0, hi: p - 1 });
                Ok(rest)
            }
        },
        ["gt", p, rest @ ..] => match port(p)? {
            u16::MAX => Err("'gt 65535' matches no port".into()),
            p => {
                out.push(PortRange {
                    lo: p + 1,
                    hi: u16::MAX,
                });
                Ok(rest)
            }
        },
        ["range", a, b, rest @ ..] => {
            let (lo, hi) = (port(a)?, port(b)?);
            if lo > hi {
                return Err(format!("range {lo} {hi} is empty"));
            }
            out.push(PortRange { lo, hi });
            Ok(rest)
        }
        _ => Ok(w),
    }
}

/// What follows the addresses: `established`, logging (no effect on the verdict), and
/// anything else — ICMP types, TCP flags, DSCP, fragments, time ranges — not evaluated.
fn trailing(w: &[&str], l: &mut FilterLine) {
    let mut i = 0;
    while i < w.len() {
        match w[i] {
            "established" => l.established = true,
            "log" | "log-input" => {}
            other => {
                l.not_evaluated(format!("'{other}' is not evaluated"));
                return;
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(dev: &DeviceConfig, name: &str) -> Vec<(Option<u32>, bool, Option<String>)> {
        dev.filters
            .iter()
            .find(|f| f.name == name)
            .map(|f| {
                f.lines
                    .iter()
                    .map(|l| (l.seq, l.permit, l.unknown.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn entries_are_ordered_by_sequence_and_removed() {
        let mut d = DeviceConfig::default();
        open(&mut d, "A");
        let add = |d: &mut DeviceConfig, t: &str| {
            let w: Vec<&str> = t.split_whitespace().collect();
            assert!(block_line(d, "A", false, &w, t, 1));
        };
        add(&mut d, "10 permit tcp any any eq bgp");
        add(&mut d, "deny ip 10.0.0.0 0.255.0.255 any");
        add(
            &mut d,
            "15 permit udp host 1.1.1.1 range 1000 2000 10.0.0.0/8 neq 53 log",
        );
        add(&mut d, "30 permit icmp any any echo");
        add(&mut d, "evaluate MIRROR");
        assert_eq!(
            lines(&d, "A"),
            vec![
                (Some(10), true, None),
                (Some(15), true, None),
                (Some(20), false, None),
                (Some(30), true, Some("'echo' is not evaluated".into())),
                (Some(40), true, Some("reflexive ACL MIRROR".into())),
            ]
        );
        let f = &d.filters[0];
        assert_eq!(f.lines[0].dst_ports, vec![PortRange { lo: 179, hi: 179 }]);
        assert_eq!(f.lines[1].dst_ports.len(), 2);
        assert_eq!(
            f.lines[2].src[0].to_string(),
            "10.0.0.0 wildcard 0.255.0.255"
        );
        add(&mut d, "no 15");
        add(&mut d, "no deny ip 10.0.0.0 0.255.0.255 any");
        assert_eq!(lines(&d, "A").len(), 3);
        assert!(d.warnings.is_empty());
        add(&mut d, "50 permit tcp any");
        add(&mut d, "10 deny ip any any");
        assert_eq!(d.warnings.len(), 2, "{:?}", d.warnings);
    }

    #[test]
    fn numbered_lists_and_bindings() {
        let mut d = DeviceConfig::default();
        numbered_line(
            &mut d,
            "10",
            &["permit", "10.0.0.0", "0.255.255.255"],
            "",
            1,
        );
        numbered_line(
            &mut d,
            "101",
            &["deny", "tcp", "any", "any", "eq", "23"],
            "",
            2,
        );
        numbered_line(&mut d, "700", &["permit", "x"], "", 3);
        assert_eq!(d.filters.len(), 2);
        assert_eq!(d.filters[0].lines[0].src[0].prefix_len(), Some(8));
        bind(&mut d, "Gi1", "101", "in", 4);
        bind(&mut d, "Gi1", "10", "in", 5);
        assert_eq!(d.filter_bindings.len(), 1);
        assert_eq!(d.filter_bindings[0].filter, "10");
    }
}

#[cfg(test)]
mod dialect_tests {
    use crate::import::parse::parser_for;
    use crate::model::{DeviceConfig, Direction, Vendor};

    /// Each filter's name and its entries' (sequence, permit).
    type Summary = Vec<(String, Vec<(Option<u32>, bool)>)>;

    fn summary(d: &DeviceConfig) -> Summary {
        d.filters
            .iter()
            .map(|f| {
                (
                    f.name.clone(),
                    f.lines.iter().map(|l| (l.seq, l.permit)).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn ios_eos_and_nxos_forms() {
        let ios = "hostname r1\ninterface GigabitEthernet1\n ip address 192.0.2.2 255.255.255.252\n ip access-group EDGE-IN in\n ip access-group 101 out\n!\nip access-list extended EDGE-IN\n 10 permit tcp host 192.0.2.1 host 192.0.2.2 eq bgp\n permit tcp host 192.0.2.1 eq 179 host 192.0.2.2\n 15 remark ospf\n 15 permit ospf any any\n 30 deny ip any any log\nip access-list standard MGMT\n permit 10.0.0.0 0.0.0.255\n deny any\naccess-list 101 permit ip any any\naccess-list 10 permit 10.1.1.1\nend\n";
        let d = parser_for(Vendor::CiscoIos).parse(ios);
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
        assert_eq!(
            summary(&d),
            vec![
                (
                    "EDGE-IN".into(),
                    vec![
                        (Some(10), true),
                        (Some(15), true),
                        (Some(20), true),
                        (Some(30), false)
                    ]
                ),
                ("MGMT".into(), vec![(Some(10), true), (Some(20), false)]),
                ("101".into(), vec![(Some(10), true)]),
                ("10".into(), vec![(Some(10), true)]),
            ]
        );
        let b: Vec<(&str, &str, Direction)> = d
            .filter_bindings
            .iter()
            .map(|b| (b.interface.as_str(), b.filter.as_str(), b.direction))
            .collect();
        assert_eq!(
            b,
            vec![
                ("GigabitEthernet1", "EDGE-IN", Direction::In),
                ("GigabitEthernet1", "101", Direction::Out)
            ]
        );
        let eos = "hostname e1\ninterface Ethernet1\n   ip access-group EDGE in\nip access-list EDGE\n   10 permit tcp 10.0.0.0/8 any eq bgp\n   20 deny ip any any\nip access-list standard MGMT\n   10 permit 192.168.100.0/24\nipv6 access-list V6\n   10 permit ipv6 any any\nend\n";
        let d = parser_for(Vendor::AristaEos).parse(eos);
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
        assert_eq!(d.filters.len(), 2);
        assert_eq!(d.filters[0].lines[0].src[0].to_string(), "10.0.0.0/8");
        assert_eq!(d.filters[1].lines[0].src[0].to_string(), "192.168.100.0/24");
        let nx = "hostname n1\ninterface Ethernet1/1\n  ip port access-group EDGE in\ninterface Ethernet1/2\n  ip access-group EDGE out\nip access-list EDGE\n  statistics per-entry\n  10 permit tcp 10.0.0.0/8 any eq 179\n  20 permit udp any any range 1000 2000\n  30 deny ip any any\n";
        let d = parser_for(Vendor::CiscoNxos).parse(nx);
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
        assert_eq!(d.filters[0].lines.len(), 3);
        assert_eq!(d.filter_bindings.len(), 2);
    }

    #[test]
    fn malformed_entries_warn_with_their_line() {
        let ios = "hostname r1\nip access-list extended A\n 10 permit tcp host 1.2.3 any\n 20 permit tcp any any eq nothing\n 30 permit tcp any any range 9 3\n 40 permit pim any any\n";
        let d = parser_for(Vendor::CiscoIos).parse(ios);
        let lines: Vec<u32> = d.warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, vec![3, 4, 5]);
        assert_eq!(d.filters[0].lines.len(), 1);
    }

    #[test]
    fn a_candidate_with_an_acl_edit_parses_back() {
        let stored = "hostname r1\n!\ninterface GigabitEthernet1\n ip address 192.0.2.2 255.255.255.252\n!\nip access-list extended EDGE-IN\n 10 permit tcp host 192.0.2.1 host 192.0.2.2 eq bgp\n 20 permit ospf any any\n 30 deny ip any any\n!\nend\n";
        let plan = "ip access-list extended EDGE-IN\n 25 deny tcp any any eq 22\n no 20\ninterface GigabitEthernet1\n ip access-group EDGE-IN in\n";
        let text = crate::dialect::candidate_text(Vendor::CiscoIos, stored, plan);
        let d = parser_for(Vendor::CiscoIos).parse(&text);
        assert!(d.warnings.is_empty(), "{:?}\n{text}", d.warnings);
        assert_eq!(
            summary(&d),
            vec![(
                "EDGE-IN".into(),
                vec![(Some(10), true), (Some(25), false), (Some(30), false)]
            )],
            "{text}"
        );
        assert_eq!(d.filter_bindings.len(), 1, "{text}");
        assert_eq!(d.filter_bindings[0].interface, "GigabitEthernet1");
    }
}
