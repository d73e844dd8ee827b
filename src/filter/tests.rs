//! The analysis against brute force: every packet of a small domain evaluated line by
//! line, under every value of the unknown conditions.

use super::*;
use crate::model::{FilterLine, PacketFilter, PortRange, Wildcard};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn line(
    permit: bool,
    proto: Option<u8>,
    src: Option<Wildcard>,
    dst: Option<Wildcard>,
) -> FilterLine {
    let mut l = FilterLine::any(permit, String::new(), 0);
    l.protocols.extend(proto);
    l.src.extend(src);
    l.dst.extend(dst);
    l
}

fn ip(s: &str) -> std::net::Ipv4Addr {
    s.parse().unwrap_or(std::net::Ipv4Addr::UNSPECIFIED)
}

fn filter(lines: Vec<FilterLine>) -> PacketFilter {
    let lines = lines
        .into_iter()
        .enumerate()
        .map(|(i, mut l)| {
            if l.text.is_empty() {
                l.text = format!("line {i}");
            }
            l.line = i as u32 + 1;
            l
        })
        .collect();
    PacketFilter {
        name: "F".into(),
        lines,
    }
}

#[test]
fn a_deny_above_the_bgp_permit_is_newly_denied_with_the_pair_and_an_example() {
    let peer = Wildcard::host(ip("192.0.2.1"));
    let me = Wildcard::host(ip("192.0.2.2"));
    let mut bgp = line(true, Some(6), Some(peer), Some(me));
    bgp.dst_ports.push(PortRange { lo: 179, hi: 179 });
    bgp.text = "permit tcp host 192.0.2.1 host 192.0.2.2 eq bgp".into();
    let old = filter(vec![bgp.clone(), line(true, None, None, None)]);
    let mut block = line(
        false,
        Some(6),
        Some(Wildcard::prefix(ip("192.0.2.0"), 24)),
        None,
    );
    block.text = "deny tcp 192.0.2.0 0.0.0.255 any".into();
    let new = filter(vec![block, bgp, line(true, None, None, None)]);
    let c = compare(&old, &new);
    assert!(c.newly_permitted.is_empty());
    let pairs: Vec<(Option<usize>, Option<usize>)> = c
        .newly_denied
        .iter()
        .map(|d| (d.old.index, d.new.index))
        .collect();
    assert_eq!(pairs, vec![(Some(0), Some(0)), (Some(1), Some(0))]);
    assert_eq!(
        c.newly_denied[0].space,
        "tcp from 192.0.2.1 to 192.0.2.2 port 179"
    );
    assert!(c.newly_denied[1]
        .space
        .ends_with("where no earlier line matches"));
    let flow = HeaderSpace::flow(Some(6), peer, me, None, Some(179));
    let f = c.flow(&flow);
    assert_eq!((f.before, f.after), (Passes::All, Passes::Nothing));
    assert!(f
        .newly_denied
        .is_some_and(|p| p.dst_port == 179 && p.protocol == 6));
    // A flow the edit does not touch.
    let other = HeaderSpace::flow(Some(17), peer, me, None, None);
    assert_eq!(c.flow(&other).newly_denied, None);
}

#[test]
fn an_unknown_line_makes_what_it_may_match_unknown_never_a_pass() {
    let mut icmp = line(false, Some(1), None, None);
    icmp.text = "deny icmp any any echo".into();
    icmp.unknown = Some("'echo' is not evaluated".into());
    let old = filter(vec![line(true, None, None, None)]);
    let new = filter(vec![icmp, line(true, None, None, None)]);
    let c = compare(&old, &new);
    assert!(c.newly_denied.iter().all(|d| !d.certain));
    let ping = Packet {
        protocol: 1,
        src: ip("10.0.0.1"),
        dst: ip("10.0.0.2"),
        src_port: 0,
        dst_port: 0,
        ack: false,
    };
    assert_eq!(c.change_of(&ping), Change::Unknown);
    assert_eq!(permits(&new, &ping), None);
    assert_eq!(
        c.change_of(&Packet {
            protocol: 6,
            ..ping
        }),
        Change::Same
    );
    // The same unknown line in both versions matches the same packets.
    assert!(compare(&new, &new).is_same());
}

/// First match by hand, the unknown conditions given by text.
fn evaluate(f: &PacketFilter, p: &Packet, u: &BTreeMap<String, bool>) -> bool {
    for l in &f.lines {
        let cond = l.unknown.is_none() || u.get(&l.text).copied().unwrap_or(false);
        if line_matches(l, p) && cond {
            return l.permit;
        }
    }
    false
}

fn arb_wildcard() -> impl Strategy<Value = Option<Wildcard>> {
    prop_oneof![
        1 => Just(None),
        4 => (0u32..8, 0u32..8).prop_map(|(a, w)| Some(Wildcard::new(
            std::net::Ipv4Addr::from(0x0a00_0000 | a),
            std::net::Ipv4Addr::from(w)
        ))),
    ]
}

fn arb_ports() -> impl Strategy<Value = Vec<PortRange>> {
    prop_oneof![
        2 => Just(Vec::new()),
        3 => (0u16..8, 0u16..8).prop_map(|(a, b)| vec![PortRange { lo: a.min(b), hi: a.max(b) }]),
        1 => (0u16..8).prop_map(|p| vec![PortRange { lo: 0, hi: p }, PortRange { lo: p + 2, hi: u16::MAX }]),
    ]
}

fn arb_line() -> impl Strategy<Value = FilterLine> {
    (
        any::<bool>(),
        prop_oneof![Just(None), Just(Some(6u8)), Just(Some(17u8))],
        arb_wildcard(),
        arb_wildcard(),
        arb_ports(),
        arb_ports(),
        any::<bool>(),
        prop_oneof![6 => Just(None), 1 => Just(Some("U1")), 1 => Just(Some("U2"))],
    )
        .prop_map(|(permit, proto, src, dst, sp, dp, est, unknown)| {
            let mut l = line(permit, proto, src, dst);
            if proto.is_some() {
                l.src_ports = sp;
                l.dst_ports = dp;
            }
            l.established = est && proto == Some(6);
            if let Some(u) = unknown {
                l.unknown = Some("not evaluated".into());
                l.text = u.into();
            }
            l
        })
}

fn packets() -> impl Iterator<Item = Packet> {
    let protos = [1u8, 6, 17];
    protos.into_iter().flat_map(|protocol| {
        (0u32..8 * 8 * 8 * 8 * 2).map(move |i| Packet {
            protocol,
            src: std::net::Ipv4Addr::from(0x0a00_0000 | (i & 7)),
            dst: std::net::Ipv4Addr::from(0x0a00_0000 | (i >> 3 & 7)),
            src_port: (i >> 6 & 7) as u16,
            dst_port: (i >> 9 & 7) as u16,
            ack: i >> 12 & 1 == 1,
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A packet is newly denied exactly when the old filter permits it and the new one
    /// denies it, whatever the unknown conditions (newly permitted the same way;
    /// unknown when that holds for some of their values only); `permits` is the first
    /// match; every listed difference's example lies in its pair of lines.
    #[test]
    fn compare_and_permits_agree_with_brute_force(
        old in proptest::collection::vec(arb_line(), 0..4),
        new in proptest::collection::vec(arb_line(), 0..4),
    ) {
        let (old, new) = (filter(old), filter(new));
        let c = compare(&old, &new);
        let valuations: Vec<BTreeMap<String, bool>> = (0..4)
            .map(|m| [("U1".to_owned(), m & 1 == 1), ("U2".to_owned(), m & 2 == 2)].into())
            .collect();
        for p in packets() {
            let pairs: Vec<(bool, bool)> = valuations
                .iter()
                .map(|u| (evaluate(&old, &p, u), evaluate(&new, &p, u)))
                .collect();
            let expected = if pairs.iter().all(|(a, b)| *a && !*b) {
                Change::NewlyDenied
            } else if pairs.iter().all(|(a, b)| !*a && *b) {
                Change::NewlyPermitted
            } else if pairs.iter().any(|(a, b)| a != b) {
                Change::Unknown
            } else {
                Change::Same
            };
            prop_assert_eq!(c.change_of(&p), expected, "{}", p);
            for (f, i) in [(&old, 0), (&new, 1)] {
                let all: Vec<bool> = pairs.iter().map(|x| if i == 0 { x.0 } else { x.1 }).collect();
                match permits(f, &p) {
                    Some(v) => prop_assert!(all.iter().all(|x| *x == v), "{}", p),
                    None => prop_assert!(f.lines.iter().find(|l| line_matches(l, &p)).is_some_and(|l| l.unknown.is_some())),
                }
                if f.lines.iter().all(|l| l.unknown.is_none()) {
                    prop_assert_eq!(permits(f, &p), Some(all[0]));
                }
            }
        }
        for d in c.newly_denied.iter().chain(&c.newly_permitted) {
            let first = |f: &PacketFilter| f.lines.iter().position(|l| line_matches(l, &d.example) && l.unknown.is_none());
            if d.certain && old.lines.iter().chain(&new.lines).all(|l| l.unknown.is_none()) {
                prop_assert_eq!(first(&old), d.old.index);
                prop_assert_eq!(first(&new), d.new.index);
            }
            let flow = HeaderSpace::flow(
                Some(d.example.protocol),
                Wildcard::host(d.example.src),
                Wildcard::host(d.example.dst),
                Some(d.example.src_port),
                Some(d.example.dst_port),
            );
            let fc = c.flow(&flow);
            prop_assert!(fc.newly_denied.is_some() || fc.newly_permitted.is_some() || fc.unknown.is_some());
        }
    }
}
