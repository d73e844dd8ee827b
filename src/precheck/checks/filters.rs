//! Packet filters the plan changes, analysed (`crate::filter`): per changed ACL or
//! firewall filter, the traffic newly denied and newly permitted (info), and what an
//! interface's filter now drops — a BGP session over it, an OSPF or EIGRP adjacency on it, a
//! service whose traffic crosses it (errors; a drop olav cannot decide is a warning).
//! A filter newly applied to an interface is compared with "permit everything".

use super::{Check, Context, Findings, Outcome};
use crate::filter::{compare, no_filter, Comparison, Difference, HeaderSpace, Packet};
use crate::model::{
    AddressKind, BgpPeer, DeviceConfig, Direction, FilterLine, PacketFilter, PortRange, Wildcard,
};
use crate::precheck::Severity;
use crate::state::{ServiceEndpoint, StateError};
use ipnet::{IpNet, Ipv4Net};
use std::collections::BTreeSet;
use std::net::{IpAddr, Ipv4Addr};

/// Packet filters the plan changes drop no session, adjacency or service.
pub const CHECK: Check = Check {
    codes: &["precheck.filters"],
    name: "packet filters the plan changes drop no BGP session, IGP adjacency or service",
    reads: "the stored and candidate configurations' ACLs / firewall filters and where they are applied, the sessions and services of the state",
    run,
};

/// A filter's lines without their source line numbers (the candidate's text shifts them).
fn lines_of(f: &PacketFilter) -> Vec<FilterLine> {
    f.lines
        .iter()
        .map(|l| FilterLine {
            line: 0,
            ..l.clone()
        })
        .collect()
}

fn filter_named<'a>(cfg: &'a DeviceConfig, name: &str) -> Option<&'a PacketFilter> {
    cfg.filters.iter().find(|f| f.name == name)
}

/// What filters an interface direction: the bound filter, or none (an ACL bound but not
/// defined filters nothing on IOS, EOS and NX-OS).
fn effective(cfg: &DeviceConfig, iface: &str, dir: Direction) -> (String, PacketFilter) {
    let bound = cfg
        .filter_bindings
        .iter()
        .find(|b| b.direction == dir && crate::ifname::same(&b.interface, iface));
    match bound.and_then(|b| filter_named(cfg, &b.filter)) {
        Some(f) => (f.name.clone(), f.clone()),
        None => ("no filter".into(), no_filter()),
    }
}

/// A filter that guards the device itself (`line vty` `access-class`, SNMP, EOS
/// `management ssh`) and now denies more: a warning naming what it guards — whether the
/// stations that manage the device are still let in is for people to say.
fn guards(out: &mut Findings, dev: &str, cand: &DeviceConfig, name: &str, c: &Comparison) {
    if c.newly_denied.is_empty() && c.more_denied == 0 {
        return;
    }
    let mut uses: Vec<String> = cand
        .references
        .iter()
        .filter(|r| r.name == name && !r.context.contains("access-group"))
        .map(|r| format!("{} (line {})", r.context, r.line))
        .collect();
    uses.dedup();
    if uses.is_empty() {
        return;
    }
    out.add(
        Severity::Warning,
        format!("{dev} filter {name}"),
        format!(
            "{name} guards access to {dev} itself ({}) and now denies more: a management station it no longer permits is locked out",
            uses.join(", ")
        ),
        "confirm every station that manages the device is still permitted, or keep a console path",
    );
}

/// A filter of one interface direction that the plan changes.
struct Bound {
    iface: String,
    dir: Direction,
    before: String,
    after: String,
    cmp: Comparison,
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let mut applies = false;
    let mut services: Option<Vec<ServiceEndpoint>> = None;
    for dev in &cx.cand.touched {
        let Some(d) = cx.cand.devices.get(dev) else {
            continue;
        };
        let (base, cand) = (&d.base, &d.cand);
        // Filters by name, changed (added and removed ones compared with an empty filter:
        // what they would deny or permit wherever applied).
        let names: BTreeSet<&str> = base
            .filters
            .iter()
            .chain(&cand.filters)
            .map(|f| f.name.as_str())
            .collect();
        for name in names {
            let empty = PacketFilter {
                name: name.to_owned(),
                lines: Vec::new(),
            };
            let a = filter_named(base, name).unwrap_or(&empty);
            let b = filter_named(cand, name).unwrap_or(&empty);
            if lines_of(a) == lines_of(b) {
                continue;
            }
            applies = true;
            let c = compare(a, b);
            if c.is_same() {
                out.add(
                    Severity::Info,
                    format!("{dev} filter {name}"),
                    format!("{name} is rewritten but permits and denies the same packets"),
                    "nothing to do",
                );
                continue;
            }
            differences(&mut out, &format!("{dev} filter {name}"), name, &c);
            guards(&mut out, dev, cand, name, &c);
        }
        let bound = bound_changes(base, cand);
        // The stored routing tells which interface a session's peer is reached by.
        let rib = if bound.is_empty() {
            None
        } else {
            crate::routing::RoutingModel::shared(cx.db)?.device(cx.db, dev)?
        };
        for b in bound {
            applies = true;
            if b.before != b.after {
                let element = format!("{dev} {}", b.iface);
                out.add(
                    Severity::Info,
                    element.clone(),
                    format!(
                        "{} filter on {}: {} before, {} after",
                        b.dir, b.iface, b.before, b.after
                    ),
                    "check the differences listed with it",
                );
                differences(&mut out, &element, &b.after, &b.cmp);
            }
            if services.is_none() {
                services = Some(cx.db.service_endpoints()?);
            }
            let seen = Seen {
                cand,
                rib: rib.as_ref(),
                services: services.as_deref().unwrap_or(&[]),
            };
            hits(cx, &mut out, dev, &seen, &b);
        }
    }
    Ok(if applies {
        out.ran()
    } else {
        out.not_applicable()
    })
}

/// The interface directions whose filtering changes.
fn bound_changes(base: &DeviceConfig, cand: &DeviceConfig) -> Vec<Bound> {
    let mut keys: Vec<(String, Direction)> = Vec::new();
    for b in base.filter_bindings.iter().chain(&cand.filter_bindings) {
        if !keys
            .iter()
            .any(|(i, d)| *d == b.direction && crate::ifname::same(i, &b.interface))
        {
            keys.push((b.interface.clone(), b.direction));
        }
    }
    let mut out = Vec::new();
    for (iface, dir) in keys {
        let (before, fb) = effective(base, &iface, dir);
        let (after, fa) = effective(cand, &iface, dir);
        if lines_of(&fb) == lines_of(&fa) {
            continue;
        }
        let cmp = compare(&fb, &fa);
        if cmp.is_same() {
            continue;
        }
        out.push(Bound {
            iface,
            dir,
            before,
            after,
            cmp,
        });
    }
    out
}

/// The listed differences of a comparison, one info finding each.
fn differences(out: &mut Findings, element: &str, name: &str, c: &Comparison) {
    let mut say = |kind: &str, d: &Difference| {
        let maybe = if d.certain {
            String::new()
        } else {
            " (may be: it depends on a condition olav does not evaluate)".to_owned()
        };
        out.add(
            Severity::Info,
            element.to_owned(),
            format!(
                "{name}: newly {kind}{maybe}: {} — '{}' decided it before, '{}' after; e.g. {}",
                d.space, d.old.text, d.new.text, d.example
            ),
            "confirm this traffic is meant to change",
        );
    };
    for d in &c.newly_denied {
        say("denied", d);
    }
    for d in &c.newly_permitted {
        say("permitted", d);
    }
    let more = c.more_denied + c.more_permitted;
    if more > 0 {
        out.add(
            Severity::Info,
            element.to_owned(),
            format!("{name}: {more} more regions change verdict"),
            "confirm this traffic is meant to change",
        );
    }
}

/// The interface's addresses (not virtual ones).
fn nets(cand: &DeviceConfig, iface: &str) -> Vec<Ipv4Net> {
    cand.interfaces
        .iter()
        .filter(|i| crate::ifname::same(&i.name, iface))
        .flat_map(|i| &i.addresses)
        .filter(|a| a.kind != AddressKind::Virtual)
        .filter_map(|a| match a.address {
            IpNet::V4(n) => Some(n),
            IpNet::V6(_) => None,
        })
        .collect()
}

fn prefix(n: &Ipv4Net) -> Wildcard {
    Wildcard::prefix(n.network(), n.prefix_len())
}

/// (source, destination) of packets between `near` and `far` as the filter sees them
/// (inbound: from far).
fn oriented(dir: Direction, near: Wildcard, far: Wildcard) -> (Wildcard, Wildcard) {
    match dir {
        Direction::In => (far, near),
        Direction::Out => (near, far),
    }
}

/// The first flow of `flows` the filter change newly drops (certain), else one whose
/// fate is unknown.
fn dropped(c: &Comparison, flows: &[HeaderSpace]) -> Option<(bool, Packet)> {
    let changes: Vec<_> = flows.iter().map(|f| c.flow(f)).collect();
    changes
        .iter()
        .find_map(|f| f.newly_denied.map(|p| (true, p)))
        .or_else(|| {
            changes
                .iter()
                .find_map(|f| f.maybe_denied.map(|p| (false, p)))
        })
}

/// Sessions, adjacencies and services whose packets the changed filter drops.
/// What the hits are looked for in: the device's candidate configuration, its stored
/// RIB, the services.
struct Seen<'a> {
    cand: &'a DeviceConfig,
    rib: Option<&'a crate::routing::DeviceRib>,
    services: &'a [ServiceEndpoint],
}

fn hits(cx: &Context, out: &mut Findings, dev: &str, seen: &Seen, b: &Bound) {
    let (cand, services) = (seen.cand, seen.services);
    let nets = nets(cand, &b.iface);
    let what = if b.after == "no filter" {
        format!(
            "{} without its {} filter ({} before)",
            b.iface, b.dir, b.before
        )
    } else {
        format!("the {} filter {} on {}", b.dir, b.after, b.iface)
    };
    // A provider-facing port left without its inbound filter: the edge is more open.
    // Only a port left with no filter at all: a permit written into the filter is the
    // opening the engineer means.
    if b.after == "no filter" && provider_facing(cx, dev, &nets, cand) && b.dir == Direction::In {
        if let Some(d) = b.cmp.newly_permitted.first() {
            out.add(
                Severity::Warning,
                format!("{dev} {}", b.iface),
                format!(
                    "{what} now lets in from the provider what it denied before: {}{}",
                    d.space,
                    match b.cmp.newly_permitted.len() + b.cmp.more_permitted {
                        1 => String::new(),
                        n => format!(" and {} more region(s)", n - 1),
                    }
                ),
                "confirm the edge is meant to be opened (anti-spoofing, bogons, management ports)",
            );
        }
    }
    let mut report = |subject: String, consequence: &str, found: (bool, Packet)| {
        let (sev, verb, advice) = if found.0 {
            (
                Severity::Error,
                "now drops",
                "permit this traffic above the new entries, or apply the filter elsewhere",
            )
        } else {
            (
                Severity::Warning,
                "may drop (a line olav does not evaluate decides)",
                "check the lines olav cannot evaluate by hand",
            )
        };
        out.add(
            sev,
            format!("{dev} {}", b.iface),
            format!(
                "{what} {verb} the packets of {subject}, e.g. {}: {consequence}",
                found.1
            ),
            advice,
        );
    };
    // BGP sessions over the interface: their peer on its subnet, or reached by a static
    // route through it.
    for (d, peer, asn, desc) in &cx.state.sessions {
        if d != dev {
            continue;
        }
        let Ok(p) = peer.parse::<Ipv4Addr>() else {
            continue;
        };
        let Some(local) = session_local(seen, &b.iface, &nets, p) else {
            continue;
        };
        let (src, dst) = oriented(b.dir, local, Wildcard::host(p));
        // Either end may open the connection, from an ephemeral port.
        let bgp = PortRange { lo: 179, hi: 179 };
        let ephemeral = PortRange {
            lo: 1024,
            hi: u16::MAX,
        };
        let flows = [(ephemeral, bgp), (bgp, ephemeral)].map(|(sp, dp)| HeaderSpace {
            protocols: vec![6],
            src: vec![src],
            dst: vec![dst],
            src_ports: vec![sp],
            dst_ports: vec![dp],
        });
        if let Some(found) = dropped(&b.cmp, &flows) {
            let who = match (asn, desc) {
                (Some(a), Some(t)) => format!(" (AS{a}, {t})"),
                (Some(a), None) => format!(" (AS{a})"),
                (None, Some(t)) => format!(" ({t})"),
                (None, None) => String::new(),
            };
            report(
                format!("the BGP session {dev} → {peer}{who}"),
                "the session goes down when its hold timer expires",
                found,
            );
        }
    }
    // An OSPF or EIGRP adjacency on the interface (protocol 89 or 88 between the
    // subnet's routers).
    for (proto, name) in igps(cand, &b.iface, &nets) {
        let flows: Vec<HeaderSpace> = nets
            .iter()
            .map(|n| {
                let src = match b.dir {
                    Direction::In => prefix(n),
                    Direction::Out => Wildcard::host(n.addr()),
                };
                HeaderSpace::flow(Some(proto), src, Wildcard::ANY, None, None)
            })
            .collect();
        if let Some(found) = dropped(&b.cmp, &flows) {
            report(
                format!("the {name} adjacency on {}", b.iface),
                "the adjacency goes down and the routes over it are withdrawn",
                found,
            );
        }
    }
    // Services whose traffic crosses the interface: an endpoint on it, its prefix on the
    // interface's subnet, or an internet service's prefix on a provider-facing interface.
    let provider = provider_facing(cx, dev, &nets, cand);
    let mut seen = BTreeSet::new();
    let mut untraced: Vec<(String, Packet)> = Vec::new();
    for s in services {
        let Some(p) = s.prefix.as_deref().and_then(|p| p.parse::<Ipv4Net>().ok()) else {
            continue;
        };
        let on_it = s.hostname.as_deref() == Some(dev)
            && s.ifname
                .as_deref()
                .is_some_and(|i| crate::ifname::same(i, &b.iface));
        let on_subnet = nets
            .iter()
            .any(|n| n.trunc().contains(&p) || p.contains(&n.trunc()));
        let internet = provider && s.kind.as_deref() == Some("internet");
        if !seen.insert(s.service.clone()) {
            continue;
        }
        let flows = [
            HeaderSpace::flow(None, prefix(&p), Wildcard::ANY, None, None),
            HeaderSpace::flow(None, Wildcard::ANY, prefix(&p), None, None),
        ];
        if !(on_it || on_subnet || internet) {
            // Elsewhere in the network: whether its traffic crosses this interface is not
            // traced, so a filter that now denies it is a warning, never a pass. At a
            // provider's port the service's own traffic leaves from it; what comes in
            // claiming its addresses is spoofed (an anti-spoofing entry's very point).
            // Judged on the usual service ports (HTTPS, HTTP, DNS): a filter that trims
            // one rare port off a prefix is evidence, not a warning.
            let (from, to) = match (provider, b.dir) {
                (true, Direction::In) => (false, false),
                (true, Direction::Out) => (true, false),
                (false, _) => (true, true),
            };
            let mut usual: Vec<HeaderSpace> = Vec::new();
            for (proto, port) in [(6u8, 443u16), (6, 80), (17, 53)] {
                if from {
                    usual.push(HeaderSpace::flow(
                        Some(proto),
                        prefix(&p),
                        Wildcard::ANY,
                        None,
                        Some(port),
                    ));
                }
                if to {
                    usual.push(HeaderSpace::flow(
                        Some(proto),
                        Wildcard::ANY,
                        prefix(&p),
                        None,
                        Some(port),
                    ));
                }
            }
            if let Some((_, packet)) = dropped(&b.cmp, &usual) {
                untraced.push((format!("{} ({}, {p})", s.service, s.criticality), packet));
            }
            continue;
        }
        if let Some(found) = dropped(&b.cmp, &flows) {
            report(
                format!(
                    "the service {} ({} criticality, {p})",
                    s.service, s.criticality
                ),
                "part of the service's traffic is no longer delivered",
                found,
            );
        }
    }
    // One warning per interface: the services, and one packet of the first.
    if let Some((_, packet)) = untraced.first() {
        let names: Vec<String> = untraced.iter().map(|(n, _)| n.clone()).collect();
        let shown = names.iter().take(4).cloned().collect::<Vec<_>>().join(", ");
        let more = names.len().saturating_sub(4);
        out.add_grouped(
            Severity::Warning,
            format!("{dev} {}", b.iface),
            format!(
                "{what} now denies traffic from or to {} service(s) elsewhere in the network: {shown}{}, e.g. {packet}; olav does not trace whether their traffic crosses {}",
                names.len(),
                if more > 0 { format!(" and {more} more") } else { String::new() },
                b.iface
            ),
            "check the paths the services' traffic takes, or narrow the new entries",
            names,
        );
    }
}

/// The session's local address as the interface's filter sees it, when the session
/// crosses the interface: the interface's address on the peer's subnet; for a peer the
/// stored routing (else a static route) reaches through the interface, the update
/// source's address (else any address).
fn session_local(seen: &Seen, iface: &str, nets: &[Ipv4Net], peer: Ipv4Addr) -> Option<Wildcard> {
    let cand = seen.cand;
    if let Some(n) = nets.iter().find(|n| n.contains(&peer)) {
        return Some(Wildcard::host(n.addr()));
    }
    let neighbor = cand
        .bgp
        .iter()
        .flat_map(|b| &b.neighbors)
        .find(|n| n.peer == BgpPeer::Address(IpAddr::V4(peer)));
    let vrf = crate::routing::connected::vrf_name(&neighbor.and_then(|n| n.vrf.clone()));
    let routed = seen
        .rib
        .and_then(|r| crate::routing::trace::egress(r, &vrf, peer))
        .is_some_and(|e| crate::ifname::same(&e, iface));
    let via = routed
        || cand
            .static_routes
            .iter()
            .filter(|r| r.prefix.contains(&IpAddr::V4(peer)))
            .max_by_key(|r| r.prefix.prefix_len())
            .is_some_and(|r| {
                r.next_hop_interface
                    .as_deref()
                    .is_some_and(|i| crate::ifname::same(i, iface))
                    || r.next_hop.is_some_and(|h| match h {
                        IpAddr::V4(h) => nets.iter().any(|n| n.contains(&h)),
                        IpAddr::V6(_) => false,
                    })
            });
    if !via {
        return None;
    }
    let source = neighbor
        .and_then(|n| n.update_source.as_deref())
        .and_then(|src| {
            self::nets(cand, src)
                .first()
                .map(|n| Wildcard::host(n.addr()))
        });
    Some(source.unwrap_or(Wildcard::ANY))
}

/// The IGPs that form adjacencies on the interface (not passive there): (protocol
/// number, name).
fn igps(cand: &DeviceConfig, iface: &str, nets: &[Ipv4Net]) -> Vec<(u8, &'static str)> {
    let on = |pfx: &Ipv4Net| nets.iter().any(|n| pfx.contains(&n.addr()));
    let ospf = cand.ospf_networks.iter().any(|o| {
        let passive = cand
            .ospf
            .processes
            .iter()
            .any(|p| p.id == o.process && p.is_passive(iface));
        !passive
            && (o
                .interface
                .as_deref()
                .is_some_and(|i| crate::ifname::same(i, iface))
                || o.prefix.is_some_and(|pfx| match pfx {
                    IpNet::V4(p) => on(&p),
                    IpNet::V6(_) => false,
                }))
    });
    let eigrp = cand
        .eigrp
        .processes
        .iter()
        .any(|p| !p.shutdown && !p.is_passive(iface) && p.networks.iter().any(&on));
    let mut out = Vec::new();
    if ospf {
        out.push((89, "OSPF"));
    }
    if eigrp {
        out.push((88, "EIGRP"));
    }
    out
}

/// Whether an external BGP peer sits on the interface's subnet.
fn provider_facing(cx: &Context, dev: &str, nets: &[Ipv4Net], cand: &DeviceConfig) -> bool {
    let own = cx.state.devices.get(dev).and_then(|d| d.2);
    let on_it = |p: Ipv4Addr| nets.iter().any(|n| n.contains(&p));
    let stored = cx.state.sessions.iter().any(|(d, peer, asn, _)| {
        d == dev && asn.is_some() && *asn != own && peer.parse::<Ipv4Addr>().is_ok_and(on_it)
    });
    // A session the plan adds (a new uplink) counts too.
    let local = cand.bgp.as_ref().and_then(|b| b.local_as);
    let added = cand.bgp.iter().flat_map(|b| &b.neighbors).any(|n| {
        n.peer_asn.is_some()
            && n.peer_asn != local
            && matches!(n.peer, BgpPeer::Address(IpAddr::V4(p)) if on_it(p))
    });
    stored || added
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn block(name: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/filters")
            .join(format!("{name}.txt"));
        std::fs::read_to_string(p).expect("fixtures/filters")
    }

    fn on_r1(name: &str, interface_target: &str) -> crate::plan::Plan {
        plan(
            "custom",
            vec![interface("r1", interface_target)],
            &[("r1", &block(name))],
            &[("r1", &block("remove-permit"))],
        )
    }

    #[test]
    fn an_entry_blocking_the_providers_bgp_is_an_error_naming_the_session() {
        let net = triangle_edge_acl(STATE);
        let o = run(
            &CHECK,
            &net,
            &on_r1("block-provider-bgp", "GigabitEthernet0/2"),
        );
        assert!(o.applies);
        assert!(
            has(
                &o,
                Severity::Error,
                "the BGP session r1 → 203.0.113.2 (AS64500, ISP-A uplink)"
            ),
            "{o:#?}"
        );
        assert!(has(&o, Severity::Info, "EDGE-IN: newly denied"), "{o:#?}");
    }

    #[test]
    fn an_added_permit_entry_is_info_only() {
        let net = triangle_edge_acl(STATE);
        let o = run(&CHECK, &net, &on_r1("add-permit", "GigabitEthernet0/2"));
        assert!(o.applies && o.passed(), "{o:#?}");
        assert!(has(&o, Severity::Info, "newly permitted"), "{o:#?}");
        assert!(
            has(&o, Severity::Info, "udp from any to 10.1.0.0/24 port 53"),
            "{o:#?}"
        );
        assert!(!has(&o, Severity::Info, "newly denied"), "{o:#?}");
        // A plan touching no filter: not applicable.
        assert!(!run(&CHECK, &net, &description_only()).applies);
    }

    #[test]
    fn a_filter_newly_applied_counts_from_permit_everything() {
        let net = triangle_edge_acl(STATE);
        let o = run(&CHECK, &net, &on_r1("bind-new", "GigabitEthernet0/0"));
        assert!(
            has(
                &o,
                Severity::Info,
                "inbound filter on GigabitEthernet0/0: no filter before, CORE-IN after"
            ),
            "{o:#?}"
        );
        // Telnet is not BGP (an ephemeral port is above 1023): the iBGP session stays.
        assert!(o.passed(), "{o:#?}");
    }

    #[test]
    fn a_service_whose_traffic_crosses_the_filter_is_hit() {
        let net = triangle_edge_acl(&STATE.replace("kind: data", "kind: internet"));
        let o = run(&CHECK, &net, &on_r1("block-web", "GigabitEthernet0/2"));
        assert!(has(&o, Severity::Error, "the service lan"), "{o:#?}");
    }

    #[test]
    fn a_drop_decided_by_a_line_olav_cannot_evaluate_is_a_warning() {
        let net = triangle_edge_acl(STATE);
        let o = run(
            &CHECK,
            &net,
            &on_r1("block-bgp-at-night", "GigabitEthernet0/2"),
        );
        assert!(
            has(&o, Severity::Warning, "may drop (a line olav does not evaluate decides) the packets of the BGP session r1 → 203.0.113.2"),
            "{o:#?}"
        );
        assert!(
            !o.findings.iter().any(|f| f.severity == Severity::Error),
            "{o:#?}"
        );
        assert!(has(&o, Severity::Info, "newly denied (may be"), "{o:#?}");
    }

    #[test]
    fn a_junos_filter_applied_to_a_unit_is_compared_with_no_filter() {
        let lines = block("junos-bind");
        let p = junos_plan("custom", vec![device("j1")], &lines, "");
        let o = run(&CHECK, &junos_eos(), &p);
        assert!(
            has(
                &o,
                Severity::Info,
                "inbound filter on xe-0/1/0.0: no filter before, LINK after"
            ),
            "{o:#?}"
        );
        assert!(
            has(&o, Severity::Info, "'(implicit deny)' decided it before"),
            "{o:#?}"
        );
        assert!(
            has(
                &o,
                Severity::Info,
                "LINK: newly denied: any protocol from any to any, where no earlier line matches"
            ),
            "{o:#?}"
        );
    }

    #[test]
    fn a_filter_dropping_ospf_on_a_link_is_an_error_naming_the_adjacency() {
        let p = plan(
            "custom",
            vec![interface("r2", "GigabitEthernet0/1")],
            &[("r2", &block("square-r2-no-ospf"))],
            &[],
        );
        let o = run(&CHECK, &square(), &p);
        assert!(
            has(
                &o,
                Severity::Error,
                "drops the packets of the OSPF adjacency on GigabitEthernet0/1"
            ),
            "{o:#?}"
        );
    }

    #[test]
    fn a_loopback_session_routed_over_the_filtered_interface_is_hit() {
        let p = plan(
            "custom",
            vec![device("r4")],
            &[("r4", &block("square-r4-no-bgp"))],
            &[],
        );
        let o = run(&CHECK, &square(), &p);
        assert!(
            has(&o, Severity::Error, "the BGP session r4 → 10.255.0.1"),
            "{o:#?}"
        );
        assert!(!has(&o, Severity::Error, "OSPF adjacency"), "{o:#?}");
    }
}
