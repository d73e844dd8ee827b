//! The Cisco-style dialect: IOS / IOS-XE, EOS and NX-OS, which nest by indentation and
//! undo with `no …`. Their differences live here: the indentation each prints (one,
//! three, two spaces), IOS's dotted netmask, EOS's switched-by-default ports, NX-OS's
//! `neighbor X` blocks and `vrf` under `router bgp`.
//!
//! Rollbacks are made of the stored configuration's own lines ([`Running`]), so a plan
//! followed by its rollback leaves the device's model as it was.

pub mod candidate;
pub mod policy;
pub mod rollback;
pub mod running;

use super::{IfChange, Lines, StaticRouteLine};
use crate::model::{StaticRoute, Vendor};
use ipnet::IpNet;
use running::Running;
use std::net::IpAddr;

/// The indentation of one nesting level as the OS prints it.
pub fn ind(v: Vendor) -> &'static str {
    match v {
        Vendor::AristaEos => "   ",
        Vendor::CiscoNxos => "  ",
        _ => " ",
    }
}

/// `ip address …`: IOS writes a dotted netmask, the others a prefix length.
fn addr_line(v: Vendor, a: IpNet) -> String {
    match (v, a) {
        (Vendor::CiscoIos, IpNet::V4(v4)) => format!("ip address {} {}", v4.addr(), v4.netmask()),
        _ => format!("ip address {a}"),
    }
}

/// `ip route …`: IOS writes a dotted netmask, the others a prefix length.
fn route_line(v: Vendor, prefix: IpNet, next_hop: IpAddr) -> String {
    match (v, prefix) {
        (Vendor::CiscoIos, IpNet::V4(p)) => {
            format!("ip route {} {} {next_hop}", p.network(), p.netmask())
        }
        _ => format!("ip route {prefix} {next_hop}"),
    }
}

/// The stored line of the stanza that starts with `key`, trimmed.
pub(crate) fn stored<'a>(stanza: &'a [String], key: &str) -> Option<&'a str> {
    stanza
        .iter()
        .skip(1)
        .map(|l| l.trim())
        .find(|l| *l == key || l.starts_with(&format!("{key} ")))
}

/// Attribute changes of one interface: the stanza's lines, each rollback line the stored
/// one (or its `no` form when there was none). `switchport`: the port's switched mode.
pub fn interface_change(
    v: Vendor,
    device: &str,
    interface: &str,
    switchport: Option<&str>,
    changes: &[IfChange],
    text: &str,
) -> Result<Lines, String> {
    let i = ind(v);
    let stanza = Running::new(text).interface(interface);
    let mut out = Lines {
        apply: vec![format!("interface {interface}")],
        rollback: vec![format!("interface {interface}")],
        ..Lines::default()
    };
    let (cfg, rb) = (&mut out.apply, &mut out.rollback);
    for c in changes {
        match c {
            IfChange::Description(d) => {
                cfg.push(format!("{i}description {d}"));
                rb.push(format!(
                    "{i}{}",
                    stored(&stanza, "description").unwrap_or("no description")
                ));
            }
            IfChange::NoDescription => {
                let Some(old) = stored(&stanza, "description") else {
                    return Err(format!(
                        "{device} {interface} has no description: nothing to remove"
                    ));
                };
                cfg.push(format!("{i}no description"));
                rb.push(format!("{i}{old}"));
            }
            IfChange::Mtu(m) => {
                cfg.push(format!("{i}mtu {m}"));
                rb.push(format!("{i}{}", stored(&stanza, "mtu").unwrap_or("no mtu")));
            }
            IfChange::Shutdown => {
                cfg.push(format!("{i}shutdown"));
                rb.push(format!("{i}no shutdown"));
            }
            IfChange::NoShutdown => {
                cfg.push(format!("{i}no shutdown"));
                rb.push(format!("{i}shutdown"));
            }
            IfChange::Address(a) => {
                // A port carrying VLANs is switched even without a `switchport mode` line
                // (EOS ports switch by default; IOS access ports often name only the VLAN).
                let routed = stored(&stanza, "no switchport").is_some();
                let carries = |k: &str| !routed && stored(&stanza, k).is_some();
                let implied = if carries("switchport trunk") || carries("switchport mode trunk") {
                    Some("trunk")
                } else if [
                    "switchport access vlan",
                    "switchport voice vlan",
                    "switchport phone vlan",
                ]
                .iter()
                .any(|k| carries(k))
                {
                    Some("access")
                } else {
                    None
                };
                if let Some(mode) = switchport.or(implied) {
                    return Err(format!(
                        "{device} {interface} is a switched port ({mode}{}); olav cannot plan converting it to a routed port yet — it would drop the VLANs it carries",
                        stored(&stanza, "switchport access vlan")
                            .or(stored(&stanza, "switchport trunk allowed vlan"))
                            .map(|l| format!(", {l}"))
                            .unwrap_or_default()
                    ));
                }
                // EOS ports are switched unless told otherwise: route this one first.
                let eos_switched =
                    v == Vendor::AristaEos && stored(&stanza, "no switchport").is_none();
                if eos_switched {
                    cfg.push(format!("{i}no switchport"));
                }
                cfg.push(format!("{i}{}", addr_line(v, *a)));
                let primary = stanza.iter().skip(1).map(|l| l.trim()).find(|l| {
                    l.starts_with("ip address ")
                        && !l.ends_with(" secondary")
                        && !l.contains(" virtual ")
                });
                rb.push(format!("{i}{}", primary.unwrap_or("no ip address")));
                if eos_switched {
                    rb.push(format!("{i}default switchport"));
                }
            }
        }
    }
    Ok(out)
}

/// A new static route; its rollback removes it.
pub fn add_static_route(v: Vendor, prefix: IpNet, next_hop: IpAddr) -> Lines {
    let r = route_line(v, prefix, next_hop);
    Lines {
        rollback: vec![format!("no {r}")],
        apply: vec![r],
        at: None,
    }
}

/// Adds a static route to Null0; the rollback is its `no` form.
pub fn add_discard_route(v: Vendor, prefix: IpNet) -> Lines {
    let r = match (v, prefix) {
        (Vendor::CiscoIos, IpNet::V4(p)) => {
            format!("ip route {} {} Null0", p.network(), p.netmask())
        }
        _ => format!("ip route {prefix} Null0"),
    };
    Lines {
        rollback: vec![format!("no {r}")],
        apply: vec![r],
        at: None,
    }
}

/// Removes a stored static route: its own line negated, under its parents (an NX-OS `vrf
/// context`); the rollback is the stored line with its parents.
pub fn remove_static_route(device: &str, text: &str, route: &StaticRoute) -> Result<Lines, String> {
    let stored = Running::new(text).line_with_context(route.line);
    let Some(line) = stored.last() else {
        return Err(format!(
            "the stored line of the route to {} on {device} cannot be found",
            route.prefix
        ));
    };
    let apply = stored
        .iter()
        .map(|l| {
            if l == line {
                let ind = &l[..l.len() - l.trim_start().len()];
                format!("{ind}no {}", l.trim())
            } else {
                l.clone()
            }
        })
        .collect();
    Ok(Lines {
        apply,
        at: Some(line.trim().to_owned()),
        rollback: stored,
    })
}

/// Re-describes and shuts an interface for a decommission; the rollback restores its
/// stored description and admin state.
pub fn shut_for_decommission(v: Vendor, text: &str, interface: &str, description: &str) -> Lines {
    let i = ind(v);
    let stanza = Running::new(text).interface(interface);
    let desc = stored(&stanza, "description").unwrap_or("no description");
    let admin = if stored(&stanza, "shutdown").is_some() {
        "shutdown"
    } else {
        "no shutdown"
    };
    Lines {
        apply: vec![
            format!("interface {interface}"),
            format!("{i}description {description}"),
            format!("{i}shutdown"),
            "!".to_owned(),
        ],
        rollback: vec![
            format!("interface {interface}"),
            format!("{i}{desc}"),
            format!("{i}{admin}"),
            "!".to_owned(),
        ],
        at: None,
    }
}

/// Removes a BGP neighbor where it lives (the global table or its VRF), shut first so the
/// peer sees a clean CEASE; the rollback is every stored line of it.
pub fn remove_neighbor(
    v: Vendor,
    device: &str,
    text: &str,
    peer: &str,
    vrf: &str,
    local_as: u32,
) -> Result<Lines, String> {
    let stored = Running::new(text).neighbor(peer);
    if stored.is_empty() {
        return Err(format!(
            "the stored configuration of {device} has no line for neighbor {peer}; a faithful rollback cannot be written"
        ));
    }
    let i = ind(v);
    let vrf = (vrf != "default").then_some(vrf);
    let p = peer;
    let body = match (v, vrf) {
        (Vendor::CiscoNxos, None) => {
            format!("{i}neighbor {p}\n{i}{i}shutdown\n{i}no neighbor {p}")
        }
        (Vendor::CiscoNxos, Some(v)) => {
            format!("{i}vrf {v}\n{i}{i}neighbor {p}\n{i}{i}{i}shutdown\n{i}{i}no neighbor {p}")
        }
        (Vendor::AristaEos, Some(v)) => {
            format!("{i}vrf {v}\n{i}{i}neighbor {p} shutdown\n{i}{i}no neighbor {p}")
        }
        (_, Some(v)) => format!(
            "{i}address-family ipv4 vrf {v}\n{i}{i}neighbor {p} shutdown\n{i}{i}no neighbor {p}"
        ),
        (_, None) => format!("{i}neighbor {p} shutdown\n{i}no neighbor {p}"),
    };
    let mut apply = vec![format!("router bgp {local_as}")];
    apply.extend(body.lines().map(str::to_owned));
    apply.push("!".to_owned());
    let mut rollback = stored;
    rollback.push("!".to_owned());
    Ok(Lines {
        apply,
        rollback,
        at: None,
    })
}

/// The existing session a new one copies its policy from, on a device of the same OS.
pub struct Template<'a> {
    /// That device's stored configuration.
    pub text: &'a str,
    /// The interface the existing session runs on, when known.
    pub interface: Option<&'a str>,
    /// The existing neighbor's address.
    pub peer: &'a str,
}

/// A new eBGP session on a free interface.
pub struct NewSession<'a> {
    /// The OS.
    pub vendor: Vendor,
    /// The free interface.
    pub interface: &'a str,
    /// Its description and the neighbor's.
    pub description: &'a str,
    /// Our address on the link.
    pub ours: IpNet,
    /// The provider's address.
    pub theirs: IpAddr,
    /// The provider's AS.
    pub asn: u32,
    /// Our AS.
    pub local_as: u32,
    /// This device's stored configuration.
    pub text: &'a str,
    /// The session copied.
    pub template: Option<Template<'a>>,
    /// The provider's name (for the names of new policies).
    pub provider: &'a str,
}

/// What drafting a session produced.
pub struct Session {
    /// Lines and rollback.
    pub lines: Lines,
    /// Verification commands, one a line.
    pub checks: String,
    /// Whether the copied session has a password (the new one needs its own).
    pub password: bool,
    /// Where the session's policy came from, and whether it is drafted shut.
    pub policy: crate::dialect::policy::Decided,
}

/// Interface lines of the existing uplink that are policy, not identity: ACLs and
/// hardening (`ip access-group`, `no ip redirects`, `no cdp enable`, MTU, BFD, …).
fn interface_template(lines: &[String]) -> Vec<String> {
    const IDENTITY: &[&str] = &[
        "description",
        "ip address",
        "ipv6 address",
        "shutdown",
        "no shutdown",
        "vrf",
        "ip vrf",
        "channel-group",
        "switchport",
        "no switchport",
        "standby",
        "vrrp",
        "ip ospf",
        "ip router",
        "encapsulation",
        "speed",
        "duplex",
        "mac-address",
    ];
    lines
        .iter()
        .skip(1)
        .filter(|l| {
            let t = l.trim();
            !IDENTITY
                .iter()
                .any(|p| t == *p || t.starts_with(&format!("{p} ")))
        })
        .cloned()
        .collect()
}

/// The existing session's policy lines (`prefix-list`, `maximum-prefix`,
/// `send-community`, `route-map`, timers, activation), re-addressed to `new`; the
/// session's identity (remote-as, description, update-source, shutdown) and its
/// password are left out. Returns the lines and whether a password was configured.
pub(crate) fn session_template(lines: &[String], old: &str, new: &str) -> (Vec<String>, bool) {
    const IDENTITY: &[&str] = &[
        "remote-as",
        "description",
        "update-source",
        "shutdown",
        "password",
    ];
    let mut password = false;
    let mut out = Vec::new();
    for l in lines {
        let t = l.trim();
        if t.starts_with("router bgp") {
            continue;
        }
        let attr = t
            .strip_prefix(&format!("neighbor {old}"))
            .map(str::trim)
            .unwrap_or(t);
        if attr.is_empty() {
            // An NX-OS `neighbor X` block header: the caller writes its own.
            continue;
        }
        let first = attr.split_whitespace().next().unwrap_or("");
        if first == "password" {
            password = true;
        }
        if IDENTITY.contains(&first) {
            continue;
        }
        out.push(l.replace(&format!("neighbor {old}"), &format!("neighbor {new}")));
    }
    (out, password)
}

/// A new session: the interface stanza and `router bgp` neighbor lines, the policy copied
/// from the template; the rollback removes the neighbor and returns the interface with
/// `default interface` plus its stored stanza.
pub fn new_session(n: &NewSession<'_>) -> Session {
    let v = n.vendor;
    let i = ind(v);
    let theirs = n.theirs;
    let desc = n.description;
    let mut if_lines: Vec<String> = Vec::new();
    let mut bgp_lines: Vec<String> = Vec::new();
    let mut password = false;
    if let Some(t) = &n.template {
        let run = Running::new(t.text);
        if let Some(tif) = t.interface {
            if_lines = interface_template(&run.interface(tif));
        }
        let (lines, pw) = session_template(&run.neighbor(t.peer), t.peer, &theirs.to_string());
        bgp_lines = lines;
        password = pw;
    }
    let pol = policy::decide(v, n.text, theirs, n.provider, bgp_lines);
    let bgp_lines = pol.kept;
    // Policy first: the session never comes up without it.
    let mut cfg = pol.define;
    cfg.push(format!("interface {}", n.interface));
    cfg.push(format!("{i}description {desc}"));
    if v != Vendor::CiscoIos {
        cfg.push(format!("{i}no switchport"));
    }
    cfg.extend(if_lines.iter().map(|l| format!("{i}{}", l.trim())));
    cfg.push(format!("{i}{}", addr_line(v, n.ours)));
    cfg.push(format!("{i}no shutdown"));
    cfg.push("!".to_owned());
    cfg.push(format!("router bgp {}", n.local_as));
    let shut = pol.decided.shut;
    if v == Vendor::CiscoNxos {
        cfg.push(format!("{i}neighbor {theirs}"));
        cfg.push(format!("{i}{i}remote-as {}", n.asn));
        cfg.push(format!("{i}{i}description {desc}"));
        if shut {
            cfg.push(format!("{i}{i}shutdown"));
        }
        cfg.extend(bgp_lines.iter().cloned());
        if !bgp_lines
            .iter()
            .any(|l| l.trim().starts_with("address-family"))
        {
            cfg.push(format!("{i}{i}address-family ipv4 unicast"));
        }
        cfg.extend(
            pol.attach
                .iter()
                .map(|(k, name, dir)| format!("{i}{i}{i}{k} {name} {dir}")),
        );
    } else {
        cfg.push(format!("{i}neighbor {theirs} remote-as {}", n.asn));
        cfg.push(format!("{i}neighbor {theirs} description {desc}"));
        if shut {
            cfg.push(format!("{i}neighbor {theirs} shutdown"));
        }
        // EOS applies a neighbor's filters at the `router bgp` level.
        if v == Vendor::AristaEos {
            cfg.extend(
                pol.attach
                    .iter()
                    .map(|(k, name, dir)| format!("{i}neighbor {theirs} {k} {name} {dir}")),
            );
        }
        cfg.extend(bgp_lines.iter().cloned());
        let af = if v == Vendor::AristaEos {
            "      "
        } else {
            "  "
        };
        if !bgp_lines.iter().any(|l| l.contains("activate")) {
            cfg.push(format!("{i}address-family ipv4"));
            cfg.push(format!("{af}neighbor {theirs} activate"));
        }
        if v != Vendor::AristaEos {
            cfg.extend(
                pol.attach
                    .iter()
                    .map(|(k, name, dir)| format!("{af}neighbor {theirs} {k} {name} {dir}")),
            );
        }
    }
    // Rollback: the session goes, the interface returns to exactly its stored lines.
    let stanza = Running::new(n.text).interface(n.interface);
    let mut rollback = vec![
        format!("router bgp {}", n.local_as),
        format!("{i}no neighbor {theirs}"),
        "!".to_owned(),
    ];
    rollback.extend(pol.undefine);
    rollback.push(format!("default interface {}", n.interface));
    if stanza.is_empty() {
        rollback.push(format!("interface {}", n.interface));
    }
    rollback.extend(stanza);
    let ping = match v {
        Vendor::AristaEos => format!("ping {theirs} source {}", n.ours.addr()),
        _ => format!("ping {theirs} source {}", n.interface),
    };
    Session {
        lines: Lines {
            apply: cfg,
            rollback,
            at: None,
        },
        checks: format!("show interfaces {}\n{ping}\nshow ip bgp summary\nshow ip bgp neighbors {theirs}\nshow ip bgp neighbors {theirs} routes\nshow ip bgp neighbors {theirs} advertised-routes", n.interface),
        password,
        policy: pol.decided,
    }
}

/// The risk when the copied session has a password: the new one needs its own.
pub fn password_risk(provider: &str, theirs: IpAddr) -> String {
    format!("The existing session to {provider} uses an MD5 password: the new session needs one too, agreed with {provider} — olav never copies a key. Add `neighbor {theirs} password …` before the session comes up.")
}

/// The IGP adjacency checks worth running: only for the IGPs the stored configuration
/// runs, so no `show ip ospf neighbor` is suggested where there is no OSPF.
pub fn igp_checks(text: &str) -> Vec<&'static str> {
    let runs = |igp: &str| {
        text.lines().any(|l| {
            let mut w = l.split_whitespace();
            !l.starts_with(' ') && w.next() == Some("router") && w.next() == Some(igp)
        })
    };
    let mut v = Vec::new();
    if runs("ospf") {
        v.push("show ip ospf neighbor");
    }
    if runs("isis") {
        v.push("show isis neighbors");
    }
    v
}

/// The section the static routes are in.
pub const STATIC_ROUTES: &str = "ip route";

/// `ip route …` adds a route, `no ip route …` removes it.
pub fn static_route_line(v: Vendor, line: &str) -> Option<StaticRouteLine> {
    let (removes, route) = match line.strip_prefix("no ") {
        Some(rest) if rest.starts_with("ip route") => (true, rest),
        _ if line.starts_with("ip route") => (false, line),
        _ => return None,
    };
    Some(StaticRouteLine {
        removes,
        route: crate::import::parse::parser_for(v)
            .parse(route)
            .static_routes
            .into_iter()
            .next(),
    })
}

/// The top-level command a line configures (`interface X`, `router ospf`, `ip route`);
/// nested lines, separators and session commands configure none of their own.
pub fn section_of(line: &str) -> Option<String> {
    if line.is_empty() || line.starts_with([' ', '\t', '!']) {
        return None;
    }
    let l = line.strip_prefix("no ").unwrap_or(line);
    let words: Vec<&str> = l.split_whitespace().collect();
    match words.as_slice() {
        ["end" | "exit" | "configure" | "conf" | "write" | "copy", ..] | [] => None,
        ["interface", name, ..] => Some(format!("interface {name}")),
        ["ip" | "ipv6", "route", ..] => Some(STATIC_ROUTES.to_owned()),
        [a, b, ..] => Some(format!("{a} {b}")),
        [a] => Some((*a).to_owned()),
    }
}

/// The prefix of an `ip route` / `no ip route` line (`P M` with an IOS netmask).
pub fn route_prefix(line: &str) -> Option<String> {
    let l = line.strip_prefix("no ").unwrap_or(line);
    let words: Vec<&str> = l.split_whitespace().collect();
    match words.as_slice() {
        ["ip" | "ipv6", "route", "vrf", _, p, m, ..] if m.contains('.') && !p.contains('/') => {
            Some(format!("{p} {m}"))
        }
        ["ip" | "ipv6", "route", "vrf", _, p, ..] => Some((*p).to_owned()),
        ["ip" | "ipv6", "route", p, m, ..] if m.contains('.') && !p.contains('/') => {
            Some(format!("{p} {m}"))
        }
        ["ip" | "ipv6", "route", p, ..] => Some((*p).to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_carrying_vlans_is_not_readdressed_even_without_a_mode_line() {
        let address = [IfChange::Address("10.9.9.0/31".parse().expect("net"))];
        let run = |stanza: &str| {
            let text = format!("hostname s\n!\ninterface Ethernet3\n{stanza}!\n");
            interface_change(Vendor::AristaEos, "s", "Ethernet3", None, &address, &text)
        };
        // An EOS desk port: VLAN 10 and a phone VLAN, no `switchport mode` line.
        let e = run("   switchport access vlan 10\n   switchport phone vlan 20\n")
            .expect_err("refused");
        assert!(
            e.contains("switched port (access, switchport access vlan 10)"),
            "{e}"
        );
        assert!(run("   switchport trunk allowed vlan 10,20\n")
            .expect_err("refused")
            .contains("switched port (trunk"));
        // A routed port, and a bare EOS port carrying nothing, are re-addressed.
        let routed = run("   no switchport\n   ip address 10.0.0.0/31\n").expect("planned");
        assert_eq!(
            routed.rollback,
            ["interface Ethernet3", "   ip address 10.0.0.0/31"]
        );
        let bare = run("   description spare\n").expect("planned");
        assert!(
            bare.apply.contains(&"   no switchport".to_owned()),
            "{bare:?}"
        );
    }

    #[test]
    fn plan_lines_read_as_sections_and_routes() {
        for (line, section, prefix, removes) in [
            (
                "ip route 10.0.0.0 255.0.0.0 192.0.2.1",
                Some("ip route"),
                Some("10.0.0.0 255.0.0.0"),
                Some(false),
            ),
            (
                "no ip route vrf RED 10.0.0.0/8 192.0.2.1",
                Some("ip route"),
                Some("10.0.0.0/8"),
                Some(true),
            ),
            (
                "interface GigabitEthernet1",
                Some("interface GigabitEthernet1"),
                None,
                None,
            ),
            ("no router ospf 1", Some("router ospf"), None, None),
            (" description x", None, None, None),
            ("end", None, None, None),
        ] {
            assert_eq!(section_of(line).as_deref(), section, "{line}");
            assert_eq!(route_prefix(line).as_deref(), prefix, "{line}");
            assert_eq!(
                static_route_line(Vendor::CiscoIos, line).map(|r| r.removes),
                removes,
                "{line}"
            );
        }
        let r = static_route_line(Vendor::CiscoIos, "no ip route 10.0.0.0 255.0.0.0 192.0.2.1")
            .and_then(|r| r.route);
        assert_eq!(
            r.map(|r| r.prefix.to_string()),
            Some("10.0.0.0/8".to_owned())
        );
    }
}

/// IOS lines for other modules' unit tests, so that their plans are written in the
/// dialect's words rather than with syntax of their own.
#[cfg(test)]
pub(crate) mod sample {
    /// `router bgp <asn>` with `lines` (already indented) under it.
    pub fn bgp(asn: u32, lines: &str) -> String {
        format!("router bgp {asn}\n{lines}")
    }

    /// A global static route: `ip route <spec>`.
    pub fn ip_route(spec: &str) -> String {
        format!("ip route {spec}")
    }

    /// `router eigrp <asn>` with `lines` (already indented) under it.
    pub fn eigrp(asn: u32, lines: &str) -> String {
        format!("router eigrp {asn}\n{lines}")
    }

    /// Its removal: `no ip route <spec>`.
    pub fn no_ip_route(spec: &str) -> String {
        format!("no {}", ip_route(spec))
    }
}
