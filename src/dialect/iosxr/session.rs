//! A new eBGP session on IOS-XR: the free interface addressed, the neighbor under `router
//! bgp N` with its routing policy in RPL, as one commit. IOS-XR accepts and announces
//! nothing on an eBGP session without policies (RFC 8212), so both are always attached,
//! decided by the rule of [`crate::dialect::policy`]: the route-policies the copied
//! session applies, when this device defines them; else another provider session's on
//! this device (outbound only one that tests something: a bare `pass` announces
//! everything); else one olav writes — inbound, the default route, the bogons and
//! anything longer than /24 dropped; outbound, the public prefixes this device originates
//! into BGP. With no outbound policy to be had the session is drafted `shutdown`.
//!
//! The rollback is one commit: `no neighbor A`, the policies olav defined removed (the
//! route-policies before the prefix-sets they use), and the interface's stored lines put
//! back one by one (a physical port cannot be removed with `no interface`).

use super::commit;
use crate::dialect::cisco::{running::Running, stored, NewSession, Session};
use crate::dialect::policy::{self as shared, Decided};
use crate::dialect::stanza::attribute;
use crate::dialect::{IfChange, Lines};
use crate::model::{BgpPeer, DeviceConfig, StructureKind, Vendor};
use ipnet::IpNet;

/// What a new session's policy adds to the device.
#[derive(Debug, Default)]
struct Policy {
    /// The route-policy applied `in` and `out` (none: the session is drafted shut).
    attach: [Option<String>; 2],
    /// New prefix-sets and route-policies, as IOS-XR prints them.
    define: Vec<String>,
    /// Their removal, route-policies first.
    undefine: Vec<String>,
    decided: Decided,
}

/// The two directions, in the order of [`Policy::attach`].
const DIRS: [&str; 2] = ["in", "out"];

/// A route-policy's body lines, as stored.
fn body<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("route-policy {name}");
    text.lines()
        .skip_while(|l| l.trim_end() != head && !l.starts_with(&format!("{head}(")))
        .skip(1)
        .take_while(|l| l.trim() != "end-policy")
        .collect()
}

/// Whether a route-policy tests the routes it passes (an outbound policy must: a bare
/// `pass` announces everything).
fn filters(text: &str, name: &str) -> bool {
    body(text, name)
        .iter()
        .any(|l| l.trim_start().starts_with("if "))
}

/// The route-policies the copied session applies: `route-policy X in|out` lines of its
/// `neighbor` block on the template device.
fn copied(template: &str, peer: &str) -> Vec<(String, &'static str)> {
    Running::new(template)
        .neighbor(peer)
        .iter()
        .filter_map(
            |l| match l.split_whitespace().collect::<Vec<_>>().as_slice() {
                ["route-policy", name, dir] => {
                    let d = DIRS.iter().find(|d| *d == dir)?;
                    Some(((*name).to_owned(), *d))
                }
                _ => None,
            },
        )
        .collect()
}

/// A prefix-set of `entries` (`P [le N]`), as IOS-XR prints it.
fn prefix_set(name: &str, entries: &[(IpNet, Option<u8>)]) -> Vec<String> {
    let mut out = vec![format!("prefix-set {name}")];
    for (k, (p, le)) in entries.iter().enumerate() {
        out.push(format!(
            "  {p}{}{}",
            le.map(|l| format!(" le {l}")).unwrap_or_default(),
            if k + 1 < entries.len() { "," } else { "" }
        ));
    }
    out.push("end-set".to_owned());
    out.push("!".to_owned());
    out
}

/// Decides the policy of the session to `theirs` on the device stored as `text` (parsed
/// as `cfg`), given the route-policies the copied session applies.
fn decide(n: &NewSession<'_>, cfg: &DeviceConfig, copy: Vec<(String, &'static str)>) -> Policy {
    let defines = |x: &str| cfg.structures.iter().any(|s| s.name == x);
    let is_policy = |x: &str| {
        cfg.structures
            .iter()
            .any(|s| s.name == x && s.kind == StructureKind::RoutePolicy)
    };
    let mut p = Policy::default();
    for (name, dir) in copy {
        if is_policy(&name) {
            let k = usize::from(dir == "out");
            p.attach[k].get_or_insert(name);
        } else {
            p.decided.notes.push(format!(
                "the existing session's route-policy {name} ({dir}) is not defined on this device: not copied"
            ));
        }
    }
    let local_as = cfg.bgp.as_ref().and_then(|b| b.local_as);
    let mut others: Vec<_> = cfg
        .bgp
        .iter()
        .flat_map(|b| b.neighbors.iter())
        .filter(|o| {
            o.vrf.is_none()
                && !o.shutdown
                && o.peer_asn.is_some()
                && o.peer_asn != local_as
                && o.peer != BgpPeer::Address(n.theirs)
        })
        .collect();
    others.sort_by_key(|o| o.line);
    for (k, dir) in DIRS.iter().enumerate() {
        if let Some(name) = &p.attach[k] {
            p.decided.notes.push(format!(
                "{}: route-policy {name}, as the existing session applies it",
                if k == 0 { "inbound" } else { "outbound" }
            ));
            continue;
        }
        let reuse = others.iter().find_map(|o| {
            let name = if k == 0 {
                &o.route_map_in
            } else {
                &o.route_map_out
            };
            let name = name.as_deref().filter(|x| is_policy(x))?;
            (k == 0 || filters(n.text, name)).then(|| (name.to_owned(), o))
        });
        if let Some((name, o)) = reuse {
            p.decided.notes.push(format!(
                "{}: route-policy {name}, as applied to neighbor {}{} on this device",
                if k == 0 { "inbound" } else { "outbound" },
                o.peer,
                o.peer_asn.map(|a| format!(" (AS{a})")).unwrap_or_default()
            ));
            p.attach[k] = Some(name);
            continue;
        }
        build(n, cfg, dir, &defines, &mut p);
    }
    if p.attach[1].is_none() {
        p.decided.shut = true;
        p.decided.notes.push(shared::shut_note(
            &format!(
                "`shutdown` under `router bgp {}` / `neighbor {}`",
                n.local_as, n.theirs
            ),
            "`no shutdown` there, with `route-policy … out` under its `address-family ipv4 unicast`",
        ));
    }
    p
}

/// Writes the policy for `dir` when nothing can be reused (outbound: only when the
/// device originates a public prefix).
fn build(
    n: &NewSession<'_>,
    cfg: &DeviceConfig,
    dir: &str,
    defines: &dyn Fn(&str) -> bool,
    p: &mut Policy,
) {
    let suffix = if dir == "in" { "IN" } else { "OUT" };
    let taken = |x: &str| defines(x) || p.define.iter().any(|l| l.ends_with(&format!(" {x}")));
    let name = shared::name_for(n.provider, suffix, taken);
    let (sets, body, note) = if dir == "in" {
        let any: IpNet = IpNet::V4(Default::default());
        let reject: Vec<(IpNet, Option<u8>)> = std::iter::once((any, None))
            .chain(shared::bogons().into_iter().map(|b| (b, Some(32))))
            .collect();
        let (r, a) = (format!("{name}-REJECT"), format!("{name}-ACCEPT"));
        (
            vec![
                (r.clone(), reject),
                (a.clone(), vec![(any, Some(shared::LONGEST_ACCEPTED))]),
            ],
            vec![
                format!("  if destination in {r} then"),
                "    drop".to_owned(),
                "  endif".to_owned(),
                format!("  if destination in {a} then"),
                "    pass".to_owned(),
                "  endif".to_owned(),
            ],
            format!("inbound: new route-policy {name} (no other provider session on this device has one to reuse): the default route, the bogons ({}) and anything longer than /{} dropped", shared::BOGONS.join(", "), shared::LONGEST_ACCEPTED),
        )
    } else {
        let originated = cfg
            .bgp
            .iter()
            .flat_map(|b| {
                b.networks
                    .iter()
                    .filter(|x| x.vrf.is_none())
                    .map(|x| x.prefix)
                    .chain(b.aggregates.iter().copied())
            })
            .collect::<Vec<_>>();
        let own = shared::own_prefixes(originated);
        if own.is_empty() {
            return;
        }
        let s = format!("{name}-OWN");
        (
            vec![(s.clone(), own.iter().map(|o| (*o, None)).collect())],
            vec![
                format!("  if destination in {s} then"),
                "    pass".to_owned(),
                "  endif".to_owned(),
            ],
            format!("outbound: new route-policy {name} (no other provider session on this device filters what it announces): only what this device originates into BGP, {}", own.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")),
        )
    };
    p.undefine.push(format!("no route-policy {name}"));
    for (set, entries) in sets {
        p.define.extend(prefix_set(&set, &entries));
        p.undefine.push(format!("no prefix-set {set}"));
    }
    p.define.push(format!("route-policy {name}"));
    p.define.extend(body);
    p.define.push("end-policy".to_owned());
    p.define.push("!".to_owned());
    p.decided.notes.push(note);
    let k = usize::from(dir == "out");
    p.attach[k] = Some(name);
}

/// A new session: policy first (IOS-XR checks a neighbor's policies exist at commit),
/// then the interface and the neighbor, in one commit; the rollback commit removes the
/// neighbor, then the policies olav defined, and gives the interface back its stored
/// lines.
pub fn new_session(n: &NewSession<'_>) -> Session {
    let cfg = crate::import::parse::parser_for(Vendor::CiscoIosXr).parse(n.text);
    let copy = n
        .template
        .as_ref()
        .map(|t| copied(t.text, t.peer))
        .unwrap_or_default();
    let pol = decide(n, &cfg, copy);
    let theirs = n.theirs;
    let stanza = Running::new(n.text).interface(n.interface);
    let addr = match n.ours {
        IpNet::V4(v4) => format!("ipv4 address {} {}", v4.addr(), v4.netmask()),
        IpNet::V6(a) => format!("ipv6 address {a}"),
    };
    let family = if n.ours.addr().is_ipv4() {
        "ipv4"
    } else {
        "ipv6"
    };
    let mut apply = pol.define;
    apply.push(format!("interface {}", n.interface));
    let mut back_if = vec![format!("interface {}", n.interface)];
    let desc = IfChange::Description(n.description.to_owned());
    if let Some(Ok((a, r))) = attribute(&stanza, &desc, n.interface) {
        apply.push(format!(" {a}"));
        back_if.push(format!(" {r}"));
    }
    apply.push(format!(" {addr}"));
    back_if.push(format!(
        " {}",
        stored(&stanza, &format!("{family} address"))
            .map_or_else(|| format!("no {family} address"), str::to_owned)
    ));
    if let Some(Ok((a, r))) = attribute(&stanza, &IfChange::NoShutdown, n.interface) {
        apply.push(format!(" {a}"));
        back_if.push(format!(" {r}"));
    }
    apply.push("!".to_owned());
    apply.push(format!("router bgp {}", n.local_as));
    apply.push(format!(" neighbor {theirs}"));
    apply.push(format!("  remote-as {}", n.asn));
    apply.push(format!("  description {}", n.description));
    if pol.decided.shut {
        apply.push("  shutdown".to_owned());
    }
    apply.push(format!(
        "  address-family {} unicast",
        if theirs.is_ipv4() { "ipv4" } else { "ipv6" }
    ));
    for (k, dir) in DIRS.iter().enumerate() {
        if let Some(name) = &pol.attach[k] {
            apply.push(format!("   route-policy {name} {dir}"));
        }
    }
    let mut rollback = vec![
        format!("router bgp {}", n.local_as),
        format!(" no neighbor {theirs}"),
        "!".to_owned(),
    ];
    rollback.extend(pol.undefine);
    rollback.extend(back_if);
    let password = n.template.as_ref().is_some_and(|t| {
        Running::new(t.text)
            .neighbor(t.peer)
            .iter()
            .any(|l| l.trim_start().starts_with("password"))
    });
    Session {
        lines: Lines {
            apply: commit(apply),
            rollback: commit(rollback),
            at: None,
        },
        checks: format!(
            "show interfaces {i}\nping {theirs} source {ours}\nshow bgp summary\nshow bgp neighbor {theirs}\nshow bgp neighbor {theirs} routes\nshow bgp neighbor {theirs} advertised-routes",
            i = n.interface,
            ours = n.ours.addr()
        ),
        password,
        policy: pol.decided,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::candidate_text;
    use crate::dialect::cisco::Template;
    use crate::dialect::stanza::statements;
    use crate::import::parse::parser_for;

    const XR: &str = include_str!("../../../fixtures/dialect/iosxr.cfg");

    fn session<'a>(text: &'a str, template: Option<Template<'a>>) -> NewSession<'a> {
        NewSession {
            vendor: Vendor::CiscoIosXr,
            interface: "GigabitEthernet0/0/0/1",
            description: "Cogent transit (AS174)",
            ours: "203.0.113.8/31".parse().expect("net"),
            theirs: "203.0.113.9".parse().expect("ip"),
            asn: 174,
            local_as: 65001,
            text,
            template,
            provider: "Cogent",
        }
    }

    /// The plan's commit applied, then the rollback's: the stored statements come back.
    fn round_trip(text: &str, s: &Session) -> String {
        let (plan, rollback) = s.lines.texts();
        let cand = candidate_text(Vendor::CiscoIosXr, text, &plan);
        let back = candidate_text(Vendor::CiscoIosXr, &cand, &rollback);
        assert_eq!(
            statements(&back),
            statements(text),
            "{plan}\n--\n{rollback}\n--\n{back}"
        );
        cand
    }

    #[test]
    fn the_session_reuses_an_inbound_policy_and_is_shut_without_an_outbound_one() {
        let s = new_session(&session(XR, None));
        let (plan, rollback) = s.lines.texts();
        // PASS is reused inbound; outbound it tests nothing, and the device originates
        // no public prefix: the session is drafted shut.
        assert!(s.policy.shut, "{plan}");
        assert!(plan.starts_with("configure\n") && plan.ends_with("\ncommit\nend"));
        for l in [
            "interface GigabitEthernet0/0/0/1",
            " description Cogent transit (AS174)",
            " ipv4 address 203.0.113.8 255.255.255.254",
            " no shutdown",
            "router bgp 65001",
            " neighbor 203.0.113.9",
            "  remote-as 174",
            "  shutdown",
            "  address-family ipv4 unicast",
            "   route-policy PASS in",
        ] {
            assert!(plan.lines().any(|x| x == l), "`{l}` in\n{plan}");
        }
        assert!(!plan.contains("PASS out"), "{plan}");
        for l in [" no neighbor 203.0.113.9", " shutdown", " no ipv4 address"] {
            assert!(rollback.lines().any(|x| x == l), "`{l}` in\n{rollback}");
        }
        let cand = round_trip(XR, &s);
        let c = parser_for(Vendor::CiscoIosXr).parse(&cand);
        let n = c
            .bgp
            .iter()
            .flat_map(|b| &b.neighbors)
            .find(|n| n.peer.to_string() == "203.0.113.9")
            .expect("the new neighbor");
        assert!(n.shutdown && n.route_map_in.as_deref() == Some("PASS"));
    }

    #[test]
    fn olav_writes_rpl_when_there_is_nothing_to_reuse_and_removes_it_on_rollback() {
        let text = XR
            .replace("   route-policy PASS in\n   route-policy PASS out\n  !\n !\n vrf", "  !\n !\n vrf")
            .replace(
                " address-family ipv4 unicast\n !\n neighbor",
                " address-family ipv4 unicast\n  network 185.7.0.0/22\n  network 10.9.0.0/16\n !\n neighbor",
            );
        let s = new_session(&session(&text, None));
        let (plan, rollback) = s.lines.texts();
        assert!(!s.policy.shut, "{plan}");
        for l in [
            "prefix-set COGENT-IN-REJECT",
            "  0.0.0.0/0,",
            "  10.0.0.0/8 le 32,",
            "  240.0.0.0/4 le 32",
            "end-set",
            "route-policy COGENT-IN",
            "  if destination in COGENT-IN-REJECT then",
            "prefix-set COGENT-OUT-OWN",
            "  185.7.0.0/22",
            "route-policy COGENT-OUT",
            "end-policy",
            "   route-policy COGENT-IN in",
            "   route-policy COGENT-OUT out",
        ] {
            assert!(plan.lines().any(|x| x == l), "`{l}` in\n{plan}");
        }
        assert!(!plan.contains("10.9.0.0"), "{plan}");
        // Route-policies go before the prefix-sets they use.
        let at = |l: &str| rollback.find(l).unwrap_or(usize::MAX);
        assert!(at("no route-policy COGENT-IN\n") < at("no prefix-set COGENT-IN-REJECT"));
        assert!(
            at("no prefix-set COGENT-OUT-OWN") < usize::MAX,
            "{rollback}"
        );
        let cand = round_trip(&text, &s);
        let c = parser_for(Vendor::CiscoIosXr).parse(&cand);
        for name in [
            "COGENT-IN",
            "COGENT-OUT",
            "COGENT-IN-REJECT",
            "COGENT-OUT-OWN",
        ] {
            assert!(
                c.structures.iter().any(|x| x.name == name),
                "{name}\n{cand}"
            );
        }
    }

    #[test]
    fn the_copied_sessions_policies_are_kept_when_this_device_defines_them() {
        let t = Template {
            text: XR,
            interface: Some("GigabitEthernet0/0/0/0"),
            peer: "10.0.0.2",
        };
        let s = new_session(&session(XR, Some(t)));
        let (plan, _) = s.lines.texts();
        assert!(!s.policy.shut);
        assert!(plan.contains("   route-policy PASS in\n   route-policy PASS out\n"));
        round_trip(XR, &s);
    }
}
