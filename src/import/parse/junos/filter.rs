//! Junos firewall filters of family inet (`firewall family inet filter F`, `firewall
//! filter F`) as packet filters: each term one line, its `from` conditions and `then`
//! action; a term without a terminating action accepts (Junos' rule), a packet no term
//! matches is discarded. Conditions olav does not evaluate make the term `unknown`.

use super::{Junos, Statement};
use crate::model::{port_number, protocol_number, FilterLine, PacketFilter, PortRange, Wildcard};
use ipnet::Ipv4Net;
use std::net::Ipv4Addr;

impl Junos {
    /// A statement under `firewall [family inet] filter F` (the words after F).
    pub(super) fn filter_statement(&mut self, filter: &str, w: &[&str], st: &Statement) {
        let (term, rest) = match w {
            ["term", t, rest @ ..] => (*t, rest),
            // `interface-specific`, `physical-interface-filter`: no effect on the verdict.
            _ => return,
        };
        let fi = match self.dev.filters.iter().position(|f| f.name == filter) {
            Some(i) => i,
            None => {
                self.dev.filters.push(PacketFilter {
                    name: filter.to_owned(),
                    lines: Vec::new(),
                });
                self.dev.filters.len() - 1
            }
        };
        let lines = &mut self.dev.filters[fi].lines;
        let li = match lines.iter().position(|l| l.term.as_deref() == Some(term)) {
            Some(i) => i,
            None => {
                let mut l = FilterLine::any(true, format!("term {term}"), st.line);
                l.term = Some(term.to_owned());
                lines.push(l);
                lines.len() - 1
            }
        };
        let l = &mut lines[li];
        if !rest.is_empty() {
            l.text.push_str(&format!(" {};", rest.join(" ")));
        }
        let bad = match rest {
            ["from", cond @ ..] => from(l, cond).err(),
            ["then", action @ ..] => {
                then(l, action);
                None
            }
            [] => None,
            [other, ..] => {
                l.not_evaluated(format!("'{other}' is not evaluated"));
                None
            }
        };
        if let Some(why) = bad {
            self.dev.warn(
                st.line,
                format!("firewall filter {filter} term {term}: {why}"),
            );
        }
    }

    /// `interfaces X unit N family inet filter input|output F` on the unit `unit`.
    pub(super) fn bind_filter(&mut self, unit: &str, dir: &str, filter: &str, line: u32) {
        crate::import::parse::common::acl::bind(
            &mut self.dev,
            unit,
            filter,
            if dir == "input" { "in" } else { "out" },
            line,
        );
    }
}

/// A `from` condition.
fn from(l: &mut FilterLine, w: &[&str]) -> Result<(), String> {
    match w {
        ["protocol", ps @ ..] if !ps.is_empty() => {
            for p in ps {
                match protocol_number(p) {
                    Some(n) => l.protocols.push(n),
                    None => l.not_evaluated(format!("protocol {p}")),
                }
            }
        }
        ["source-address" | "destination-address", _, "except", ..] => {
            l.not_evaluated("an address with except");
        }
        [side @ ("source-address" | "destination-address"), a] => {
            let net = a
                .parse::<Ipv4Net>()
                .ok()
                .or_else(|| a.parse::<Ipv4Addr>().ok().map(Ipv4Net::from));
            let Some(net) = net else {
                // An IPv6 address in a family inet filter would not commit either.
                return Err(format!("'{a}' is not an IPv4 prefix"));
            };
            let pattern = Wildcard::prefix(net.addr(), net.prefix_len());
            if *side == "source-address" {
                l.src.push(pattern);
            } else {
                l.dst.push(pattern);
            }
        }
        [side @ ("source-port" | "destination-port"), ps @ ..] if !ps.is_empty() => {
            let out = if *side == "source-port" {
                &mut l.src_ports
            } else {
                &mut l.dst_ports
            };
            for p in ps {
                out.push(port_range(p)?);
            }
        }
        ["tcp-established"] => {
            l.established = true;
            if l.protocols != [6] {
                l.not_evaluated("tcp-established without protocol tcp");
            }
        }
        [other, ..] => l.not_evaluated(format!("from {other}")),
        [] => {}
    }
    Ok(())
}

/// `179`, `bgp`, `1024-65535`.
fn port_range(p: &str) -> Result<PortRange, String> {
    let one = |x: &str| port_number(x).ok_or_else(|| format!("'{x}' is not a port"));
    match p.split_once('-') {
        Some((a, b)) if a.parse::<u16>().is_ok() => {
            let (lo, hi) = (one(a)?, one(b)?);
            if lo > hi {
                return Err(format!("'{p}' is an empty range"));
            }
            Ok(PortRange { lo, hi })
        }
        _ => {
            let n = one(p)?;
            Ok(PortRange { lo: n, hi: n })
        }
    }
}

/// A `then` action: the terminating ones decide, counting and logging do not.
fn then(l: &mut FilterLine, w: &[&str]) {
    match w {
        ["accept"] => l.permit = true,
        ["discard" | "reject", ..] => l.permit = false,
        ["count" | "log" | "syslog" | "sample" | "policer" | "loss-priority"
        | "forwarding-class" | "dscp" | "packet-mode", ..] => {}
        [other, ..] => l.not_evaluated(format!("then {other}")),
        [] => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Direction;

    #[test]
    fn terms_conditions_actions_and_bindings() {
        let d = super::super::parse(
            "set firewall family inet filter EDGE term bgp from protocol tcp\n\
             set firewall family inet filter EDGE term bgp from source-address 192.0.2.1/32\n\
             set firewall family inet filter EDGE term bgp from destination-port [ bgp 1024-2048 ]\n\
             set firewall family inet filter EDGE term bgp then accept\n\
             set firewall family inet filter EDGE term icmp from icmp-type echo-request\n\
             set firewall family inet filter EDGE term icmp then accept\n\
             set firewall family inet filter EDGE term rest then count dropped\n\
             set firewall family inet filter EDGE term rest then discard\n\
             set firewall filter PLAIN term all then count x\n\
             set firewall family inet6 filter V6 term a then accept\n\
             set firewall family inet filter BAD term a from source-address 10.0.0.300/8\n\
             set interfaces ge-0/0/0 unit 0 family inet filter input EDGE\n\
             set interfaces ge-0/0/0 unit 0 family inet address 192.0.2.2/30\n",
        );
        let names: Vec<&str> = d.filters.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, vec!["EDGE", "PLAIN", "BAD"]);
        let e = &d.filters[0].lines;
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].protocols, vec![6]);
        assert_eq!(e[0].dst_ports.len(), 2);
        assert!(e[0].permit && e[0].unknown.is_none());
        assert!(e[1].unknown.is_some());
        assert!(!e[2].permit);
        // A term without a terminating action accepts.
        assert!(d.filters[1].lines[0].permit);
        assert_eq!(d.warnings.len(), 1, "{:?}", d.warnings);
        let b = &d.filter_bindings;
        assert_eq!(b.len(), 1);
        assert_eq!(
            (
                b[0].interface.as_str(),
                b[0].filter.as_str(),
                b[0].direction
            ),
            ("ge-0/0/0.0", "EDGE", Direction::In)
        );
    }
}
