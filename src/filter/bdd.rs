//! The header as BDD variables, most significant bit first per field (so that a prefix
//! is a short conjunction): protocol 0–7, source 8–39, destination 40–71, source port
//! 72–87, destination port 88–103, TCP ACK/RST 104, then one variable per distinct
//! unknown line.

use super::{HeaderSpace, Packet};
use crate::model::{FilterLine, PacketFilter, PortRange, Wildcard};
use biodivine_lib_bdd::{Bdd, BddPartialValuation, BddValuation, BddVariable, BddVariableSet};
use std::collections::HashMap;
use std::net::Ipv4Addr;

const PROTO: usize = 0;
const SRC: usize = 8;
const DST: usize = 40;
const SPORT: usize = 72;
const DPORT: usize = 88;
const ACK: usize = 104;
/// Header bits.
pub(super) const HEADER: usize = 105;

/// The variables of one comparison.
pub(super) struct Space {
    pub(super) vars: BddVariableSet,
    unknown: HashMap<String, BddVariable>,
}

/// A filter's first-match regions: one per line, then the implicit deny's.
pub(super) struct Encoded {
    pub(super) regions: Vec<Bdd>,
    pub(super) permit: Bdd,
}

fn var(i: usize) -> BddVariable {
    BddVariable::from_index(i)
}

impl Space {
    /// A space with one unknown-condition variable per distinct unknown line text.
    pub(super) fn new<'a>(filters: impl IntoIterator<Item = &'a PacketFilter>) -> Space {
        let mut unknown = HashMap::new();
        for l in filters.into_iter().flat_map(|f| &f.lines) {
            if l.unknown.is_some() && !unknown.contains_key(&l.text) {
                let v = var(HEADER + unknown.len());
                unknown.insert(l.text.clone(), v);
            }
        }
        let n = u16::try_from(HEADER + unknown.len()).unwrap_or(u16::MAX);
        Space {
            vars: BddVariableSet::new_anonymous(n),
            unknown,
        }
    }

    /// The unknown-condition variables.
    pub(super) fn unknown_vars(&self) -> Vec<BddVariable> {
        self.unknown.values().copied().collect()
    }

    /// The field at `at` of `width` bits equal to `value` where `care` has a 1.
    fn bits(&self, at: usize, width: usize, value: u32, care: u32) -> Bdd {
        let mut c = BddPartialValuation::empty();
        for i in 0..width {
            let bit = width - 1 - i;
            if care >> bit & 1 == 1 {
                c.set_value(var(at + i), value >> bit & 1 == 1);
            }
        }
        self.vars.mk_conjunctive_clause(&c)
    }

    /// The field at `at` of `width` bits within `lo..=hi`: x ≥ lo and x ≤ hi, each
    /// built from the least significant bit up.
    fn range(&self, at: usize, width: usize, lo: u32, hi: u32) -> Bdd {
        let mut ge = self.vars.mk_true();
        let mut le = self.vars.mk_true();
        for bit in 0..width {
            let x = self.vars.mk_var(var(at + width - 1 - bit));
            ge = if lo >> bit & 1 == 1 {
                x.and(&ge)
            } else {
                x.or(&ge)
            };
            le = if hi >> bit & 1 == 0 {
                x.not().and(&le)
            } else {
                x.not().or(&le)
            };
        }
        ge.and(&le)
    }

    fn any_of<T>(&self, v: &[T], one: impl Fn(&T) -> Bdd) -> Bdd {
        if v.is_empty() {
            return self.vars.mk_true();
        }
        v.iter()
            .fold(self.vars.mk_false(), |acc, x| acc.or(&one(x)))
    }

    fn addresses(&self, at: usize, v: &[Wildcard]) -> Bdd {
        self.any_of(v, |w| {
            self.bits(at, 32, u32::from(w.addr), !u32::from(w.wildcard))
        })
    }

    fn ports(&self, at: usize, v: &[PortRange]) -> Bdd {
        self.any_of(v, |r| self.range(at, 16, u32::from(r.lo), u32::from(r.hi)))
    }

    /// The headers of a box.
    pub(super) fn space(&self, h: &HeaderSpace) -> Bdd {
        self.any_of(&h.protocols, |p| self.bits(PROTO, 8, u32::from(*p), 0xff))
            .and(&self.addresses(SRC, &h.src))
            .and(&self.addresses(DST, &h.dst))
            .and(&self.ports(SPORT, &h.src_ports))
            .and(&self.ports(DPORT, &h.dst_ports))
    }

    /// The packets (and unknown conditions) a line matches.
    pub(super) fn line(&self, l: &FilterLine) -> Bdd {
        let mut b = self.space(&HeaderSpace::of_line(l));
        if l.established {
            b = b.and(&self.vars.mk_var(var(ACK)));
        }
        if l.unknown.is_some() {
            if let Some(u) = self.unknown.get(&l.text) {
                b = b.and(&self.vars.mk_var(*u));
            }
        }
        b
    }

    /// Each line's first-match region and the filter's permit set.
    pub(super) fn encode(&self, f: &PacketFilter) -> Encoded {
        let mut rest = self.vars.mk_true();
        let mut permit = self.vars.mk_false();
        let mut regions = Vec::with_capacity(f.lines.len() + 1);
        for l in &f.lines {
            let region = rest.and(&self.line(l));
            rest = rest.and_not(&region);
            if l.permit {
                permit = permit.or(&region);
            }
            regions.push(region);
        }
        regions.push(rest);
        Encoded { regions, permit }
    }

    /// One packet of a non-empty set, preferring TCP, UDP and ICMP ones (an example
    /// reads better as a known protocol).
    pub(super) fn witness(&self, b: &Bdd) -> Option<Packet> {
        for p in [6u32, 17, 1] {
            let w = b.and(&self.bits(PROTO, 8, p, 0xff)).sat_witness();
            if let Some(w) = w {
                return Some(self.packet(&w));
            }
        }
        b.sat_witness().map(|w| self.packet(&w))
    }

    fn packet(&self, v: &BddValuation) -> Packet {
        let field = |at: usize, width: usize| {
            (0..width).fold(0u32, |acc, i| acc << 1 | u32::from(v.value(var(at + i))))
        };
        Packet {
            protocol: field(PROTO, 8) as u8,
            src: Ipv4Addr::from(field(SRC, 32)),
            dst: Ipv4Addr::from(field(DST, 32)),
            src_port: field(SPORT, 16) as u16,
            dst_port: field(DPORT, 16) as u16,
            ack: v.value(var(ACK)),
        }
    }

    /// The packet as a valuation (unknown conditions false).
    pub(super) fn valuation(&self, p: &Packet) -> BddValuation {
        let mut v = BddValuation::all_false(self.vars.num_vars());
        let mut put = |at: usize, width: usize, x: u32| {
            for i in 0..width {
                v.set_value(var(at + i), x >> (width - 1 - i) & 1 == 1);
            }
        };
        put(PROTO, 8, u32::from(p.protocol));
        put(SRC, 32, u32::from(p.src));
        put(DST, 32, u32::from(p.dst));
        put(SPORT, 16, u32::from(p.src_port));
        put(DPORT, 16, u32::from(p.dst_port));
        v.set_value(var(ACK), p.ack);
        v
    }
}
