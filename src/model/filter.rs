//! Packet filters (IOS / EOS / NX-OS access lists, Junos firewall filters) as ordered
//! lines over the IPv4 header, and where they are applied. `crate::filter` analyses them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::net::Ipv4Addr;

/// A packet filter: its lines in evaluation order (first match wins; a packet no line
/// matches is denied — IOS's implicit deny, Junos' default discard).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PacketFilter {
    /// The ACL's or firewall filter's name.
    pub name: String,
    /// Lines, in evaluation order (IOS-family entries sorted by sequence number).
    pub lines: Vec<FilterLine>,
}

/// An address pattern: `addr` with the bits set in `wildcard` ignored (IOS wildcards may
/// be non-contiguous).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Wildcard {
    /// The address (bits under the wildcard are zeroed).
    pub addr: Ipv4Addr,
    /// The bits that do not matter.
    pub wildcard: Ipv4Addr,
}

impl Wildcard {
    /// Every address.
    pub const ANY: Wildcard = Wildcard {
        addr: Ipv4Addr::UNSPECIFIED,
        wildcard: Ipv4Addr::BROADCAST,
    };

    /// The pattern `addr` / `wildcard`, the ignored bits of `addr` cleared.
    pub fn new(addr: Ipv4Addr, wildcard: Ipv4Addr) -> Wildcard {
        Wildcard {
            addr: Ipv4Addr::from(u32::from(addr) & !u32::from(wildcard)),
            wildcard,
        }
    }

    /// One host.
    pub fn host(addr: Ipv4Addr) -> Wildcard {
        Wildcard::new(addr, Ipv4Addr::UNSPECIFIED)
    }

    /// A prefix `addr/len` (len ≤ 32).
    pub fn prefix(addr: Ipv4Addr, len: u8) -> Wildcard {
        let mask = if len == 0 {
            0
        } else {
            u32::MAX << (32 - u32::from(len.min(32)))
        };
        Wildcard::new(addr, Ipv4Addr::from(!mask))
    }

    /// Whether `a` matches.
    pub fn matches(&self, a: Ipv4Addr) -> bool {
        (u32::from(a) & !u32::from(self.wildcard)) == u32::from(self.addr)
    }

    /// The prefix length when the wildcard is contiguous (`0.0.0.255` → 24).
    pub fn prefix_len(&self) -> Option<u8> {
        let w = u32::from(self.wildcard);
        (w.wrapping_add(1) & w == 0).then(|| (32 - w.count_ones()) as u8)
    }
}

impl fmt::Display for Wildcard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix_len() {
            Some(0) => f.write_str("any"),
            Some(32) => write!(f, "{}", self.addr),
            Some(l) => write!(f, "{}/{l}", self.addr),
            None => write!(f, "{} wildcard {}", self.addr, self.wildcard),
        }
    }
}

/// Ports `lo..=hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PortRange {
    /// First port.
    pub lo: u16,
    /// Last port.
    pub hi: u16,
}

impl fmt::Display for PortRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lo == self.hi {
            write!(f, "{}", self.lo)
        } else {
            write!(f, "{}-{}", self.lo, self.hi)
        }
    }
}

/// One line (IOS entry, Junos term) of a filter. Empty lists match everything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterLine {
    /// Permit / accept (else deny / discard / reject).
    pub permit: bool,
    /// IP protocol numbers, any of them (empty: any protocol).
    pub protocols: Vec<u8>,
    /// Source address patterns, any of them (empty: any address).
    pub src: Vec<Wildcard>,
    /// Destination address patterns, any of them (empty: any address).
    pub dst: Vec<Wildcard>,
    /// Source port ranges, any of them (empty: any port).
    pub src_ports: Vec<PortRange>,
    /// Destination port ranges, any of them (empty: any port).
    pub dst_ports: Vec<PortRange>,
    /// TCP `established`: only segments with ACK or RST set.
    pub established: bool,
    /// Why the line cannot be evaluated exactly (a condition olav does not model): the
    /// fields above are then what it matches at most, and a packet it may match has an
    /// unknown fate.
    pub unknown: Option<String>,
    /// The IOS-family sequence number (given or implied), or none (Junos).
    pub seq: Option<u32>,
    /// The Junos term's name.
    pub term: Option<String>,
    /// The line as written (a Junos term: its statements).
    pub text: String,
    /// 1-based line of the entry (a Junos term: its first statement).
    pub line: u32,
}

impl FilterLine {
    /// A line matching everything with the given action, before its conditions are read.
    pub fn any(permit: bool, text: String, line: u32) -> FilterLine {
        FilterLine {
            permit,
            protocols: Vec::new(),
            src: Vec::new(),
            dst: Vec::new(),
            src_ports: Vec::new(),
            dst_ports: Vec::new(),
            established: false,
            unknown: None,
            seq: None,
            term: None,
            text,
            line,
        }
    }

    /// Records a condition that is not evaluated (the first reason is kept).
    pub fn not_evaluated(&mut self, why: impl Into<String>) {
        if self.unknown.is_none() {
            self.unknown = Some(why.into());
        }
    }
}

/// Which traffic a bound filter sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Packets received on the interface.
    In,
    /// Packets sent out of the interface.
    Out,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::In => "inbound",
            Direction::Out => "outbound",
        })
    }
}

/// A filter applied to an interface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterBinding {
    /// The interface (a Junos unit: `ge-0/0/0.0`).
    pub interface: String,
    /// The filter's name.
    pub filter: String,
    /// Which traffic it sees.
    pub direction: Direction,
    /// The line binding it.
    pub line: u32,
}

/// IP protocol names as IOS, EOS, NX-OS and Junos write them (`ip` is any protocol and
/// not listed).
pub fn protocol_number(name: &str) -> Option<u8> {
    Some(match name {
        "icmp" => 1,
        "igmp" => 2,
        "ipinip" | "ipip" => 4,
        "tcp" => 6,
        "egp" => 8,
        "udp" => 17,
        "gre" => 47,
        "esp" => 50,
        "ahp" | "ah" => 51,
        "eigrp" => 88,
        "ospf" => 89,
        "nos" => 94,
        "pim" => 103,
        "pcp" => 108,
        "vrrp" => 112,
        "sctp" => 132,
        n => return n.parse().ok(),
    })
}

/// Port names as IOS, EOS, NX-OS and Junos write them.
pub fn port_number(name: &str) -> Option<u16> {
    Some(match name {
        "echo" => 7,
        "discard" => 9,
        "daytime" => 13,
        "chargen" => 19,
        "ftp-data" => 20,
        "ftp" => 21,
        "ssh" => 22,
        "telnet" => 23,
        "smtp" => 25,
        "time" => 37,
        "nameserver" => 42,
        "whois" => 43,
        "tacacs" | "tacacs-ds" => 49,
        "domain" | "dns" => 53,
        "bootps" => 67,
        "bootpc" => 68,
        "tftp" => 69,
        "gopher" => 70,
        "finger" => 79,
        "www" | "http" => 80,
        "hostname" => 101,
        "pop2" => 109,
        "pop3" => 110,
        "sunrpc" => 111,
        "ident" => 113,
        "nntp" => 119,
        "ntp" => 123,
        "netbios-ns" => 137,
        "netbios-dgm" => 138,
        "netbios-ss" | "netbios-ssn" => 139,
        "imap" | "imap4" => 143,
        "snmp" => 161,
        "snmptrap" | "snmp-trap" => 162,
        "bgp" => 179,
        "irc" => 194,
        "ldap" => 389,
        "https" => 443,
        "isakmp" => 500,
        "exec" | "biff" => 512,
        "login" | "who" => 513,
        "cmd" | "syslog" | "rsh" => 514,
        "lpd" | "printer" => 515,
        "talk" => 517,
        "rip" => 520,
        "klogin" => 543,
        "kshell" => 544,
        "ldp" => 646,
        "radius" => 1812,
        "radius-acct" => 1813,
        "bfd" | "bfd-control" => 3784,
        "non500-isakmp" => 4500,
        n => return n.parse().ok(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_prefixes_and_names() {
        let w = Wildcard::new("10.1.2.3".parse().unwrap(), "0.0.0.255".parse().unwrap());
        assert_eq!(w.to_string(), "10.1.2.0/24");
        assert!(w.matches("10.1.2.200".parse().unwrap()));
        assert!(!w.matches("10.1.3.1".parse().unwrap()));
        let odd = Wildcard::new("10.0.0.1".parse().unwrap(), "0.0.255.0".parse().unwrap());
        assert_eq!(odd.prefix_len(), None);
        assert!(odd.matches("10.0.77.1".parse().unwrap()));
        assert_eq!(
            Wildcard::prefix("10.9.0.0".parse().unwrap(), 16).prefix_len(),
            Some(16)
        );
        assert_eq!(Wildcard::ANY.to_string(), "any");
        assert_eq!(protocol_number("ospf"), Some(89));
        assert_eq!(port_number("bgp"), Some(179));
        assert_eq!(port_number("nope"), None);
    }
}
