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
    let family = if n.ours.addr().is_ipv4() { "ip" } else { "ipv6" };
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

