//! Packet filters analysed, not just diffed: Batfish's `compareFilters` question. Two
//! versions of a filter are compared as boolean functions over the IPv4 header — which
//! packets the old one permits and the new one denies (newly denied), and the reverse —
//! each difference named by the pair of lines whose first-match regions overlap with
//! different actions, the header space of that overlap in words, and one example packet.
//!
//! Why a BDD (`biodivine-lib-bdd`): a filter is a boolean function over 105 header bits
//! (protocol 8, source 32, destination 32, source port 16, destination port 16, TCP
//! ACK/RST 1); a BDD represents each line's first-match region exactly, so "newly
//! denied" is one conjunction and its emptiness and an example packet are exact, where
//! enumerating packets or comparing lines textually would be neither.
//!
//! A line olav cannot evaluate (`FilterLine::unknown`) matches at most what its read
//! conditions say, and beyond that an unknown condition: one free variable per distinct
//! line text, shared by the two versions (the same line matches the same packets). A
//! packet is newly denied for certain when it is so whatever those conditions are, and
//! unknown when it is so for some of them only — never guessed either way.

mod bdd;
mod compare;
#[cfg(test)]
mod tests;

pub use compare::{compare, Change, Comparison, Difference, FlowChange, LineRef, Passes};

use crate::model::{FilterLine, PacketFilter, PortRange, Wildcard};
use std::fmt;
use std::net::Ipv4Addr;

/// One IPv4 packet's header, as far as filters read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Packet {
    /// IP protocol number.
    pub protocol: u8,
    /// Source address.
    pub src: Ipv4Addr,
    /// Destination address.
    pub dst: Ipv4Addr,
    /// Source port (meaningful for TCP and UDP).
    pub src_port: u16,
    /// Destination port.
    pub dst_port: u16,
    /// TCP ACK or RST set (what `established` matches).
    pub ack: bool,
}

impl fmt::Display for Packet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.protocol {
            6 | 17 => write!(
                f,
                "{} {}:{} → {}:{}{}",
                protocol_name(self.protocol),
                self.src,
                self.src_port,
                self.dst,
                self.dst_port,
                if self.protocol == 6 && self.ack {
                    " (ack)"
                } else {
                    ""
                }
            ),
            p => write!(f, "{} {} → {}", protocol_name(p), self.src, self.dst),
        }
    }
}

/// A protocol's usual name, else its number.
pub fn protocol_name(p: u8) -> String {
    match p {
        1 => "icmp".into(),
        6 => "tcp".into(),
        17 => "udp".into(),
        47 => "gre".into(),
        50 => "esp".into(),
        51 => "ah".into(),
        88 => "eigrp".into(),
        89 => "ospf".into(),
        103 => "pim".into(),
        112 => "vrrp".into(),
        n => format!("protocol {n}"),
    }
}

/// A set of headers as a box: any of the protocols, sources, destinations and ports
/// (an empty list: any). A filter line's conditions, or a flow asked about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderSpace {
    /// Protocol numbers.
    pub protocols: Vec<u8>,
    /// Source patterns.
    pub src: Vec<Wildcard>,
    /// Destination patterns.
    pub dst: Vec<Wildcard>,
    /// Source ports.
    pub src_ports: Vec<PortRange>,
    /// Destination ports.
    pub dst_ports: Vec<PortRange>,
}

impl HeaderSpace {
    /// The conditions of a line (without `established` and unknown conditions).
    pub fn of_line(l: &FilterLine) -> HeaderSpace {
        HeaderSpace {
            protocols: l.protocols.clone(),
            src: l.src.clone(),
            dst: l.dst.clone(),
            src_ports: l.src_ports.clone(),
            dst_ports: l.dst_ports.clone(),
        }
    }

    /// Packets of `protocol` from `src` to `dst`, with the ports given (None: any).
    pub fn flow(
        protocol: Option<u8>,
        src: Wildcard,
        dst: Wildcard,
        src_port: Option<u16>,
        dst_port: Option<u16>,
    ) -> HeaderSpace {
        let port = |p: Option<u16>| p.map(|p| PortRange { lo: p, hi: p }).into_iter().collect();
        HeaderSpace {
            protocols: protocol.into_iter().collect(),
            src: vec![src],
            dst: vec![dst],
            src_ports: port(src_port),
            dst_ports: port(dst_port),
        }
    }

    /// The headers in both boxes, or None when they share none.
    pub fn intersect(&self, o: &HeaderSpace) -> Option<HeaderSpace> {
        fn both<T: Clone>(a: &[T], b: &[T], meet: impl Fn(&T, &T) -> Option<T>) -> Option<Vec<T>> {
            match (a.is_empty(), b.is_empty()) {
                (true, _) => Some(b.to_vec()),
                (_, true) => Some(a.to_vec()),
                _ => {
                    let v: Vec<T> = a
                        .iter()
                        .flat_map(|x| b.iter().filter_map(|y| meet(x, y)))
                        .collect();
                    (!v.is_empty()).then_some(v)
                }
            }
        }
        let wild = |a: &Wildcard, b: &Wildcard| {
            let (aa, wa, ab, wb) = (
                u32::from(a.addr),
                u32::from(a.wildcard),
                u32::from(b.addr),
                u32::from(b.wildcard),
            );
            ((aa ^ ab) & !wa & !wb == 0)
                .then(|| Wildcard::new(Ipv4Addr::from(aa | ab), Ipv4Addr::from(wa & wb)))
        };
        let port = |a: &PortRange, b: &PortRange| {
            let (lo, hi) = (a.lo.max(b.lo), a.hi.min(b.hi));
            (lo <= hi).then_some(PortRange { lo, hi })
        };
        Some(HeaderSpace {
            protocols: both(&self.protocols, &o.protocols, |a, b| (a == b).then_some(*a))?,
            src: both(&self.src, &o.src, wild)?,
            dst: both(&self.dst, &o.dst, wild)?,
            src_ports: both(&self.src_ports, &o.src_ports, port)?,
            dst_ports: both(&self.dst_ports, &o.dst_ports, port)?,
        })
    }
}

impl fmt::Display for HeaderSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list<T: fmt::Display>(v: &[T], any: &str) -> String {
            if v.is_empty() {
                any.to_owned()
            } else {
                v.iter().map(T::to_string).collect::<Vec<_>>().join(", ")
            }
        }
        let protos: Vec<String> = self.protocols.iter().map(|p| protocol_name(*p)).collect();
        write!(
            f,
            "{} from {}",
            list(&protos, "any protocol"),
            list(&self.src, "any")
        )?;
        if !self.src_ports.is_empty() {
            write!(f, " port {}", list(&self.src_ports, ""))?;
        }
        write!(f, " to {}", list(&self.dst, "any"))?;
        if !self.dst_ports.is_empty() {
            write!(f, " port {}", list(&self.dst_ports, ""))?;
        }
        Ok(())
    }
}

/// Whether a line's read conditions hold for the packet (its unknown condition aside).
pub fn line_matches(l: &FilterLine, p: &Packet) -> bool {
    let ports = |v: &[PortRange], x: u16| v.is_empty() || v.iter().any(|r| r.lo <= x && x <= r.hi);
    let addrs = |v: &[Wildcard], a: Ipv4Addr| v.is_empty() || v.iter().any(|w| w.matches(a));
    (l.protocols.is_empty() || l.protocols.contains(&p.protocol))
        && addrs(&l.src, p.src)
        && addrs(&l.dst, p.dst)
        && ports(&l.src_ports, p.src_port)
        && ports(&l.dst_ports, p.dst_port)
        && (!l.established || p.ack)
}

/// Whether the filter permits the packet: the first matching line's action (none: the
/// implicit deny); None when a line olav cannot evaluate may match before that.
pub fn permits(filter: &PacketFilter, p: &Packet) -> Option<bool> {
    for l in &filter.lines {
        if line_matches(l, p) {
            return match l.unknown {
                None => Some(l.permit),
                Some(_) => None,
            };
        }
    }
    Some(false)
}

/// What an interface without a filter does: permit everything (a filter newly bound is
/// compared with this).
pub fn no_filter() -> PacketFilter {
    PacketFilter {
        name: "(no filter)".into(),
        lines: vec![FilterLine::any(
            true,
            "no filter: every packet passes".into(),
            0,
        )],
    }
}
