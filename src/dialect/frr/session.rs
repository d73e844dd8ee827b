//! A new eBGP session on FRR (plain FRR, Cumulus, SONiC), in vtysh: the free interface
//! addressed, the neighbor under `router bgp N` and its policy, in one `configure
//! terminal` … `end`, `write memory`. FRR's prefix-lists and route-maps are IOS's, so the
//! policy is decided by [`crate::dialect::cisco::policy::decide`] (copied from the
//! existing session when it is on an FRR device, else another provider session's on this
//! device, else built; with no outbound policy the session is drafted shut). FRR from 7.4
//! accepts and announces nothing on an eBGP session without policy (`bgp
//! ebgp-requires-policy`): the drafted session always has its inbound filter, and an
//! outbound one unless it is drafted shut.
//!
//! The address goes into `frr.conf` through vtysh, as every address change olav drafts
//! on FRR: the free interface has none to replace, so nothing lives outside `frr.conf`
//! that vtysh would contradict. The rollback removes the neighbor, the policies olav
//! defined and the new address, and puts back the interface's stored description and
//! admin state.

use super::vtysh;
use crate::dialect::cisco::{policy, running::Running, session_template, NewSession, Session};
use crate::dialect::stanza::attribute;
use crate::dialect::{IfChange, Lines};
use crate::model::Vendor;

/// A new session: policy first, then the interface and the neighbor; the rollback undoes
/// each.
pub fn new_session(n: &NewSession<'_>) -> Session {
    let theirs = n.theirs;
    let mut copied = Vec::new();
    let mut password = false;
    if let Some(t) = &n.template {
        let (lines, pw) = session_template(
            &Running::new(t.text).neighbor(t.peer),
            t.peer,
            &theirs.to_string(),
        );
        copied = lines;
        password = pw;
    }
    let pol = policy::decide(Vendor::Frr, n.text, theirs, n.provider, copied);
    let family = if n.ours.addr().is_ipv4() {
        "ip"
    } else {
        "ipv6"
    };
    let stanza = Running::new(n.text).interface(n.interface);
    let mut apply = pol.define;
    let mut back_if = vec![format!("interface {}", n.interface)];
    apply.push(format!("interface {}", n.interface));
    let desc = IfChange::Description(n.description.to_owned());
    if let Some(Ok((a, r))) = attribute(&stanza, &desc, n.interface) {
        apply.push(format!(" {a}"));
        back_if.push(format!(" {r}"));
    }
    apply.push(format!(" {family} address {}", n.ours));
    back_if.push(format!(" no {family} address {}", n.ours));
    // FRR lists no `no shutdown`: an interface is up unless shut.
    if crate::dialect::cisco::stored(&stanza, "shutdown").is_some() {
        apply.push(" no shutdown".to_owned());
        back_if.push(" shutdown".to_owned());
    }
    apply.push(format!("router bgp {}", n.local_as));
    apply.push(format!(" neighbor {theirs} remote-as {}", n.asn));
    apply.push(format!(" neighbor {theirs} description {}", n.description));
    if pol.decided.shut {
        apply.push(format!(" neighbor {theirs} shutdown"));
    }
    // The copied lines: the neighbor's own at the `router bgp` level, then those of its
    // IPv4 unicast family.
    let mut af: Vec<String> = Vec::new();
    let mut in_af: Option<bool> = None;
    for l in pol.kept {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("address-family ") {
            in_af = Some(rest == "ipv4" || rest == "ipv4 unicast");
            continue;
        }
        if t == "exit-address-family" {
            in_af = None;
            continue;
        }
        match in_af {
            None => apply.push(format!(" {t}")),
            Some(true) if !t.ends_with(" activate") => af.push(format!("  {t}")),
            Some(_) => {}
        }
    }
    apply.push(" address-family ipv4 unicast".to_owned());
    apply.push(format!("  neighbor {theirs} activate"));
    apply.extend(af);
    apply.extend(
        pol.attach
            .iter()
            .map(|(k, name, dir)| format!("  neighbor {theirs} {k} {name} {dir}")),
    );
    apply.push(" exit-address-family".to_owned());
    let mut rollback = vec![
        format!("router bgp {}", n.local_as),
        format!(" no neighbor {theirs}"),
    ];
    rollback.extend(pol.undefine);
    rollback.extend(back_if);
    let v = |c: &str| format!("vtysh -c '{c}'");
    let checks = [
        v(&format!("show interface {}", n.interface)),
        format!("ping -c 3 -I {} {theirs}", n.ours.addr()),
        v("show bgp summary"),
        v(&format!("show bgp neighbors {theirs}")),
        v(&format!("show bgp ipv4 unicast neighbors {theirs} routes")),
        v(&format!(
            "show bgp ipv4 unicast neighbors {theirs} advertised-routes"
        )),
    ];
    Session {
        lines: Lines {
            apply: vtysh(apply),
            rollback: vtysh(rollback),
            at: None,
        },
        checks: checks.join("\n"),
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

    const CUMULUS: &str = include_str!("../../../fixtures/dialect/frr-net/configs/leaf1.cfg");

    fn session<'a>(text: &'a str, template: Option<Template<'a>>) -> NewSession<'a> {
        NewSession {
            vendor: Vendor::Frr,
            interface: "swp3",
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

    /// The plan applied to the candidate, then the rollback: the stored statements come
    /// back, the files beside frr.conf untouched.
    fn round_trip(text: &str, s: &Session) -> String {
        let (plan, rollback) = s.lines.texts();
        let cand = candidate_text(Vendor::Frr, text, &plan);
        let back = candidate_text(Vendor::Frr, &cand, &rollback);
        assert_eq!(
            statements(&back),
            statements(text),
            "{plan}\n--\n{rollback}\n--\n{back}"
        );
        cand
    }

    fn neighbor(text: &str) -> crate::model::BgpNeighbor {
        parser_for(Vendor::Frr)
            .parse(text)
            .bgp
            .into_iter()
            .flat_map(|b| b.neighbors)
            .find(|n| n.peer.to_string() == "203.0.113.9")
            .expect("the new neighbor")
    }

    #[test]
    fn the_session_is_drafted_in_vtysh_and_rolled_back() {
        let s = new_session(&session(CUMULUS, None));
        let (plan, rollback) = s.lines.texts();
        assert!(plan.starts_with("configure terminal\n") && plan.ends_with("\nend\nwrite memory"));
        // PASS is reused inbound; it permits everything, so not outbound, and the leaf
        // originates no public prefix: the session is drafted shut.
        assert!(s.policy.shut, "{plan}");
        for l in [
            "interface swp3",
            " description Cogent transit (AS174)",
            " ip address 203.0.113.8/31",
            " no shutdown",
            "router bgp 65001",
            " neighbor 203.0.113.9 remote-as 174",
            " neighbor 203.0.113.9 description Cogent transit (AS174)",
            " address-family ipv4 unicast",
            " neighbor 203.0.113.9 shutdown",
            "  neighbor 203.0.113.9 activate",
            "  neighbor 203.0.113.9 route-map PASS in",
            " exit-address-family",
        ] {
            assert!(plan.lines().any(|x| x == l), "`{l}` in\n{plan}");
        }
        for l in [
            " no neighbor 203.0.113.9",
            " no ip address 203.0.113.8/31",
            " no description",
            " shutdown",
        ] {
            assert!(rollback.lines().any(|x| x == l), "`{l}` in\n{rollback}");
        }
        let cand = round_trip(CUMULUS, &s);
        let n = neighbor(&cand);
        assert_eq!(n.peer_asn, Some(174));
        assert!(
            n.shutdown && n.route_map_in.as_deref() == Some("PASS"),
            "{n:?}"
        );
    }

    #[test]
    fn olav_builds_prefix_lists_when_there_is_nothing_to_reuse() {
        let text = CUMULUS
            .replace("  neighbor 10.0.0.2 route-map PASS in\n", "")
            .replace(
                "  network 10.255.1.1/32\n",
                "  network 10.255.1.1/32\n  network 185.7.0.0/22\n",
            );
        let s = new_session(&session(&text, None));
        let (plan, rollback) = s.lines.texts();
        assert!(!s.policy.shut, "{plan}");
        for l in [
            "ip prefix-list COGENT-IN seq 5 deny 0.0.0.0/0",
            "ip prefix-list COGENT-OUT seq 5 permit 185.7.0.0/22",
            "  neighbor 203.0.113.9 prefix-list COGENT-IN in",
            "  neighbor 203.0.113.9 prefix-list COGENT-OUT out",
        ] {
            assert!(plan.lines().any(|x| x == l), "`{l}` in\n{plan}");
        }
        for l in [
            "no ip prefix-list COGENT-IN",
            "no ip prefix-list COGENT-OUT",
        ] {
            assert!(rollback.lines().any(|x| x == l), "`{l}` in\n{rollback}");
        }
        let cand = round_trip(&text, &s);
        assert!(!neighbor(&cand).shutdown);
    }

    #[test]
    fn the_copied_sessions_route_maps_are_kept() {
        let t = Template {
            text: CUMULUS,
            interface: Some("swp2"),
            peer: "10.0.0.2",
        };
        let s = new_session(&session(CUMULUS, Some(t)));
        let (plan, _) = s.lines.texts();
        assert!(!s.policy.shut, "{plan}");
        assert!(
            plan.contains("  neighbor 203.0.113.9 route-map PASS in\n"),
            "{plan}"
        );
        assert!(
            plan.contains("  neighbor 203.0.113.9 route-map PASS out\n"),
            "{plan}"
        );
        let n = neighbor(&round_trip(CUMULUS, &s));
        assert_eq!(n.route_map_out.as_deref(), Some("PASS"));
    }
}
