//! Vendor dialects: the only place olav writes configuration syntax. One module per
//! vendor family — [`cisco`] (IOS / IOS-XE, EOS, NX-OS, their differences inside),
//! [`iosxr`] (`configure` … `commit`), [`frr`] (vtysh, for plain FRR, Cumulus and SONiC)
//! and [`junos`] — each rendering vendor-neutral changes into config lines, the exact
//! rollback from the stored configuration, the verification `show` commands, and the
//! candidate configuration: a stored config with a plan's lines applied, as the device
//! would hold it. The intents (`agents::analyzer::draft`) say *what* changes; a dialect
//! says how the device is told. Nothing here reads the state DB or the analyzer.

pub mod cisco;
pub mod frr;
pub mod iosxr;
pub mod junos;
pub mod policy;
pub mod readable;
pub mod safety;
mod stanza;

use crate::model::{StaticRoute, Vendor};
use ipnet::IpNet;
use std::net::IpAddr;

/// A change to an interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfChange {
    /// New description.
    Description(String),
    /// New primary address.
    Address(IpNet),
    /// Shut it.
    Shutdown,
    /// Bring it up.
    NoShutdown,
    /// New MTU.
    Mtu(u32),
    /// Remove the description.
    NoDescription,
}

impl std::fmt::Display for IfChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IfChange::Description(d) => write!(f, "description → \"{d}\""),
            IfChange::Address(a) => write!(f, "address → {a}"),
            IfChange::Shutdown => f.write_str("shutdown"),
            IfChange::NoShutdown => f.write_str("no shutdown"),
            IfChange::Mtu(m) => write!(f, "MTU → {m}"),
            IfChange::NoDescription => f.write_str("remove the description"),
        }
    }
}

/// A vendor-neutral change to one device, as an intent resolves it.
#[derive(Debug, Clone, Copy)]
pub enum Change<'a> {
    /// Attributes of one interface.
    Interface {
        /// The interface.
        name: &'a str,
        /// What changes, in order.
        changes: &'a [IfChange],
        /// Its switched mode, when it is a switched port (no address can be planned).
        switchport: Option<&'a str>,
        /// The address an address change replaces (Junos keeps addresses on units: a
        /// port's is its unit 0's).
        replaced: Option<IpNet>,
    },
    /// A new static route in the global table.
    AddStaticRoute {
        /// Destination.
        prefix: IpNet,
        /// Next hop.
        next_hop: IpAddr,
    },
    /// A new static route to discard (Null0; Junos `discard`) in the global table.
    AddDiscardRoute {
        /// Destination.
        prefix: IpNet,
    },
    /// A stored static route removed.
    RemoveStaticRoute {
        /// The route as parsed from the stored configuration.
        route: &'a StaticRoute,
        /// How many next hops its prefix has in its VRF.
        hops: usize,
    },
    /// An interface re-described and shut, for a decommission.
    ShutForDecommission {
        /// The interface.
        name: &'a str,
        /// Its new description.
        description: &'a str,
        /// How many units its port has (Junos: the port goes dark when this is its only one).
        units: usize,
    },
    /// A BGP neighbor removed where it is configured.
    RemoveNeighbor {
        /// Its address.
        peer: &'a str,
        /// Its VRF (`default`: the global table).
        vrf: &'a str,
        /// The device's AS.
        local_as: u32,
    },
}

/// A change in one dialect: the lines that make it and the lines that undo it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lines {
    /// The change.
    pub apply: Vec<String>,
    /// Its rollback.
    pub rollback: Vec<String>,
    /// Where the change sits in the stored configuration, as the dialect names it (a
    /// removed route's line or path), when that says more than the lines.
    pub at: Option<String>,
}

impl Lines {
    /// Both, as text.
    pub fn texts(&self) -> (String, String) {
        (self.apply.join("\n"), self.rollback.join("\n"))
    }
}

/// Whether a device of `v` speaks the Junos dialect.
pub fn is_junos(v: Vendor) -> bool {
    v == Vendor::JuniperJunos
}

/// Renders `change` for `device` (of vendor `v`, stored configuration `text`): its lines
/// and the exact rollback.
pub fn render(v: Vendor, device: &str, text: &str, change: &Change<'_>) -> Result<Lines, String> {
    // olav reads SR OS for the routing model but writes no SR OS configuration yet.
    if v == Vendor::NokiaSros {
        return Err(format!(
            "{device} runs Nokia SR OS: olav does not draft SR OS changes yet"
        ));
    }
    match v {
        Vendor::JuniperJunos => return junos::render(&junos::Stored::new(text), device, change),
        Vendor::CiscoIosXr => return iosxr::render(device, text, change),
        Vendor::Frr => return frr::render(device, text, change),
        _ => {}
    }
    // PAN-OS is read for the routing model; no change is drafted in its syntax yet.
    if v == Vendor::PaloAltoPanos {
        return Err(format!(
            "{device} runs PAN-OS: olav does not draft PAN-OS changes yet"
        ));
    }
    match *change {
        Change::Interface {
            name,
            changes,
            switchport,
            ..
        } => cisco::interface_change(v, device, name, switchport, changes, text),
        Change::AddStaticRoute { prefix, next_hop } => {
            Ok(cisco::add_static_route(v, prefix, next_hop))
        }
        Change::AddDiscardRoute { prefix } => Ok(cisco::add_discard_route(v, prefix)),
        Change::RemoveStaticRoute { route, .. } => cisco::remove_static_route(device, text, route),
        Change::ShutForDecommission {
            name, description, ..
        } => Ok(cisco::shut_for_decommission(v, text, name, description)),
        Change::RemoveNeighbor {
            peer,
            vrf,
            local_as,
        } => cisco::remove_neighbor(v, device, text, peer, vrf, local_as),
    }
}

/// Whether olav drafts a new provider session (interface, neighbor and its policy) on a
/// device of `v`: on every vendor it writes configuration for (IOS-XR in RPL, FRR in
/// vtysh); SR OS and PAN-OS say so by name.
pub fn drafts_sessions(v: Vendor, device: &str) -> Result<(), String> {
    match v {
        Vendor::NokiaSros => Err(format!(
            "{device} runs Nokia SR OS: olav does not draft SR OS changes yet"
        )),
        Vendor::PaloAltoPanos => Err(format!(
            "{device} runs PAN-OS: olav does not draft PAN-OS changes yet"
        )),
        _ => Ok(()),
    }
}

/// The candidate configuration of a device of `v`: its stored configuration with a plan's
/// lines applied, as the device would hold it after the change — removals edited out,
/// not appended. The one candidate builder: the pre-check, the static checks and the
/// Batfish snapshot all read this.
pub fn candidate_text(v: Vendor, stored: &str, lines: &str) -> String {
    match v {
        Vendor::JuniperJunos => junos::apply_text(stored, lines),
        Vendor::CiscoIosXr => iosxr::apply_text(stored, lines),
        Vendor::Frr => frr::apply_text(stored, lines),
        _ => cisco::candidate::apply_text(stored, lines),
    }
}

/// The lines that undo hand-written `lines` on a device of `v` whose stored configuration
/// is `stored`, derived by comparing the candidate with it; None for the vendors whose
/// rollback olav does not derive (IOS-XR, FRR and the others: a rollback must be given).
pub fn derived_rollback(v: Vendor, stored: &str, lines: &str) -> Option<String> {
    match v {
        Vendor::JuniperJunos => Some(junos::rollback::derive(stored, lines)),
        Vendor::CiscoIos | Vendor::AristaEos | Vendor::CiscoNxos => Some(cisco::rollback::derive(
            stored,
            lines,
            cisco::candidate::CISCO,
            v == Vendor::CiscoNxos,
        )),
        _ => None,
    }
}

/// A plan's implementation lines per device, in the plan's order (several blocks for one
/// device are applied one after the other).
pub fn plan_lines(plan: &crate::plan::Plan) -> std::collections::BTreeMap<String, String> {
    let mut out: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    for b in &plan.implementation {
        let e = out.entry(b.device.clone()).or_default();
        e.push_str(&b.text);
        e.push('\n');
    }
    out
}

/// A plan line that adds or removes a static route.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticRouteLine {
    /// Whether the line removes the route (`no ip route …`, Junos `delete … static route`).
    pub removes: bool,
    /// The route it names, when readable (a Junos `delete` of a whole route names no next
    /// hop: every next hop of the prefix).
    pub route: Option<StaticRoute>,
}

/// Reads one plan line (trimmed) of a device of `v` as a static-route change, if it is one.
pub fn static_route_line(v: Vendor, line: &str) -> Option<StaticRouteLine> {
    match v {
        Vendor::JuniperJunos => junos::static_route_line(line),
        Vendor::CiscoIosXr => iosxr::static_route_line(line),
        Vendor::Frr => frr::static_route_line(line),
        _ => cisco::static_route_line(v, line),
    }
}

/// The static-route changes of a device's plan lines, in order, each route in the VRF
/// its enclosing block names (IOS-XR `router static` / `vrf V`, FRR `vrf V`, NX-OS `vrf
/// context V`): a trimmed line alone does not say it.
pub fn static_route_changes(v: Vendor, text: &str) -> Vec<StaticRouteLine> {
    let mut vrf: Option<(usize, String)> = None;
    let mut out = Vec::new();
    for raw in text.lines() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('!') {
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        if vrf.as_ref().is_some_and(|(i, _)| indent <= *i) {
            vrf = None;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if let (false, ["vrf", name] | ["vrf", "context", name]) = (is_junos(v), words.as_slice()) {
            vrf = Some((indent, (*name).to_owned()));
            continue;
        }
        if let Some(mut l) = static_route_line(v, t) {
            if let (Some(r), Some((_, name))) = (&mut l.route, &vrf) {
                r.vrf.get_or_insert_with(|| name.clone());
            }
            out.push(l);
        }
    }
    out
}

/// The configuration sections a plan line (trimmed at its end) of a device of `v` touches:
/// a Cisco-style top-level command (`interface X`, `router ospf`, `ip route`), a Junos
/// statement path (`interfaces xe-0/1/0`, `routing-options static`, `protocols ospf`).
/// None for a line that configures no section of its own (a nested line, `end`, `!`).
pub fn section_of(v: Vendor, line: &str) -> Option<String> {
    match v {
        Vendor::JuniperJunos => junos::section_of(line),
        Vendor::CiscoIosXr => iosxr::section_of(line),
        // vtysh's `configure terminal`, `end` and `write memory` are the Cisco family's.
        _ => cisco::section_of(line),
    }
}

/// Whether a section (as [`section_of`] names it) holds the static routes.
pub fn is_static_route_section(section: &str) -> bool {
    [
        cisco::STATIC_ROUTES,
        junos::STATIC_ROUTES,
        iosxr::STATIC_ROUTES,
    ]
    .contains(&section)
}

/// The prefix a static-route line names (`ip route P …`, `no ip route P …`, Junos `…
/// static route P …`, IOS-XR `P …` / `no P …` under `router static`), in the line's own
/// form (`P M` where IOS gives a netmask).
pub fn route_prefix(line: &str) -> Option<String> {
    cisco::route_prefix(line)
        .or_else(|| junos::route_prefix(line))
        .or_else(|| iosxr::route_prefix(line))
}

/// What a verification command shows.
#[derive(Debug, Clone, Copy)]
pub enum Show<'a> {
    /// One interface: its configuration and state.
    Interface(&'a str),
    /// The route to a prefix.
    Route(IpNet),
    /// The BGP sessions.
    BgpSummary,
    /// Every interface's state, briefly.
    Interfaces,
}

/// The `show` commands for `what` on a device of `v`.
pub fn show(v: Vendor, what: Show<'_>) -> Vec<String> {
    match v {
        Vendor::CiscoIosXr => return show_iosxr(what),
        Vendor::Frr => return vec![format!("vtysh -c '{}'", show_frr(what))],
        _ => {}
    }
    let junos = is_junos(v);
    match what {
        Show::Interface(i) if junos => vec![
            format!("show configuration interfaces {}", junos::port_of(i)),
            format!("show interfaces {i} terse"),
        ],
        Show::Interface(i) => vec![
            format!("show running-config interface {i}"),
            format!("show interfaces {i}"),
        ],
        Show::Route(p) if junos => vec![format!("show route {p} exact")],
        Show::Route(p) => vec![format!("show ip route {}", p.network())],
        Show::BgpSummary if junos => vec!["show bgp summary".to_owned()],
        Show::BgpSummary => vec!["show ip bgp summary".to_owned()],
        Show::Interfaces if junos => vec!["show interfaces terse".to_owned()],
        Show::Interfaces => vec!["show ip interface brief".to_owned()],
    }
}

/// The `show` commands that display what hand-written `lines` touch on a device of `v`:
/// each interface's configuration and state, each other block's configuration, then the
/// interfaces and BGP sessions in brief.
pub fn show_changed(v: Vendor, lines: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |c: String| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    for l in lines
        .lines()
        .filter(|l| !l.starts_with(char::is_whitespace))
    {
        let w: Vec<&str> = l.split_whitespace().collect();
        match (is_junos(v), w.as_slice()) {
            (true, ["set" | "delete" | "deactivate" | "activate", "interfaces", port, ..]) => {
                show(v, Show::Interface(port))
                    .into_iter()
                    .for_each(&mut add)
            }
            (true, ["set" | "delete" | "deactivate" | "activate", rest @ ..])
                if !rest.is_empty() =>
            {
                let keep = rest.len().saturating_sub(1).clamp(1, 5);
                add(format!("show configuration {}", rest[..keep].join(" ")))
            }
            (false, ["interface", name, ..]) => show(v, Show::Interface(name))
                .into_iter()
                .for_each(&mut add),
            (false, ["no", ..]) | (false, []) | (true, _) => {}
            (false, _) if v == Vendor::Frr => add("vtysh -c 'show running-config'".to_owned()),
            (false, _) if v == Vendor::CiscoIosXr => add(format!("show running-config {l}")),
            (false, _) => add(format!("show running-config | section ^{}", l.trim())),
        }
    }
    show(v, Show::Interfaces).into_iter().for_each(&mut add);
    show(v, Show::BgpSummary).into_iter().for_each(&mut add);
    out
}

/// The IOS-XR `show` commands.
fn show_iosxr(what: Show<'_>) -> Vec<String> {
    match what {
        Show::Interface(i) => vec![
            format!("show running-config interface {i}"),
            format!("show interfaces {i}"),
        ],
        Show::Route(p) => vec![format!("show route {p}")],
        Show::BgpSummary => vec!["show bgp summary".to_owned()],
        Show::Interfaces => vec!["show ipv4 interface brief".to_owned()],
    }
}

/// An FRR `show` command, as vtysh takes it.
fn show_frr(what: Show<'_>) -> String {
    match what {
        Show::Interface(i) => format!("show interface {i}"),
        Show::Route(p @ IpNet::V4(_)) => format!("show ip route {p}"),
        Show::Route(p) => format!("show ipv6 route {p}"),
        Show::BgpSummary => "show bgp summary".to_owned(),
        Show::Interfaces => "show interface brief".to_owned(),
    }
}

/// The IGP adjacency checks worth running on a device: only for the IGPs its stored
/// configuration runs (the dialect told by the text itself).
pub fn igp_checks(text: &str) -> Vec<&'static str> {
    match crate::import::parse::detect(text) {
        Ok(Vendor::JuniperJunos) => junos::Stored::new(text).igp_checks(),
        Ok(Vendor::CiscoIosXr) => iosxr::igp_checks(text),
        Ok(Vendor::Frr) => frr::igp_checks(text),
        _ => cisco::igp_checks(text),
    }
}

/// How an OSPF router is drained before it goes, in the vendor's words.
pub fn ospf_drain(v: Vendor) -> &'static str {
    if is_junos(v) {
        "OSPF `overload`"
    } else {
        "OSPF `max-metric router-lsa`"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::parse::parser_for;

    const IOS: &str = "hostname r1\n!\ninterface GigabitEthernet1\n description up\n ip address 10.0.0.1 255.255.255.252\n!\ninterface GigabitEthernet2\n shutdown\n!\nrouter bgp 65001\n neighbor 10.0.0.2 remote-as 7575\n neighbor 10.0.0.2 description Telia\n !\n address-family ipv4\n  neighbor 10.0.0.2 activate\n  neighbor 10.0.0.2 prefix-list OUT out\n exit-address-family\n!\nip route 192.0.2.0 255.255.255.0 10.0.0.2\n!\nend\n";
    const EOS: &str = "hostname e1\n!\ninterface Ethernet1\n   description up\n   no switchport\n   ip address 10.0.0.1/30\n!\ninterface Ethernet2\n   shutdown\n!\nip route 192.0.2.0/24 10.0.0.2\n!\nrouter bgp 65001\n   neighbor 10.0.0.2 remote-as 7575\n   neighbor 10.0.0.2 description Telia\n   !\n   address-family ipv4\n      neighbor 10.0.0.2 activate\n!\nend\n";
    const NXOS: &str = "hostname n1\n\ninterface Ethernet1/1\n  description up\n  no switchport\n  ip address 10.0.0.1/30\n  no shutdown\n\ninterface Ethernet1/2\n  shutdown\n\nvrf context RED\n  ip route 192.0.2.0/24 10.0.0.2\n\nrouter bgp 65001\n  neighbor 10.0.0.2\n    remote-as 7575\n    description Telia\n    address-family ipv4 unicast\n";
    const JUNOS: &str = "system {\n    host-name j1;\n}\ninterfaces {\n    xe-0/0/1 {\n        description up;\n        unit 0 {\n            family inet {\n                address 10.0.0.1/30;\n            }\n        }\n    }\n    xe-0/0/2 {\n        disable;\n    }\n}\nrouting-options {\n    static {\n        route 192.0.2.0/24 next-hop 10.0.0.2;\n    }\n}\nprotocols {\n    bgp {\n        group T {\n            type external;\n            peer-as 7575;\n            neighbor 10.0.0.2 {\n                description Telia;\n            }\n        }\n    }\n}\n";

    /// What a change can alter, one line per element (line numbers and order aside).
    fn model(v: Vendor, text: &str) -> Vec<String> {
        let c = parser_for(v).parse(text);
        let mut out: Vec<String> = c
            .interfaces
            .iter()
            .map(|i| {
                let mut a: Vec<String> =
                    i.addresses.iter().map(|a| a.address.to_string()).collect();
                a.sort();
                format!(
                    "{} {:?} {} {:?} {a:?}",
                    i.name, i.description, i.admin_up, i.mtu
                )
            })
            .collect();
        out.extend(
            c.bgp
                .iter()
                .flat_map(|b| &b.neighbors)
                .map(|n| format!("neighbor {} {:?} {:?}", n.peer, n.peer_asn, n.description)),
        );
        out.extend(
            c.static_routes
                .iter()
                .map(|r| format!("route {:?} {} {:?}", r.vrf, r.prefix, r.next_hop)),
        );
        out.sort();
        out
    }

    fn route(v: Vendor, text: &str) -> StaticRoute {
        parser_for(v).parse(text).static_routes[0].clone()
    }

    /// Every vendor family, every kind of change: the plan changes the model, its rollback
    /// restores it, and the candidate is the stored config with the lines applied.
    #[test]
    fn render_then_rollback_restores_the_model() {
        let address: Vec<IfChange> = vec![IfChange::Address("10.9.9.1/30".parse().unwrap())];
        let with_mtu = [
            IfChange::Description("new".into()),
            IfChange::Mtu(1400),
            IfChange::Shutdown,
        ];
        let up = [IfChange::NoShutdown];
        let xr = include_str!("../../fixtures/dialect/iosxr.cfg");
        let cumulus = include_str!("../../fixtures/dialect/frr-net/configs/leaf1.cfg");
        for (v, text, port, shut) in [
            (
                Vendor::CiscoIos,
                IOS,
                "GigabitEthernet1",
                "GigabitEthernet2",
            ),
            (Vendor::AristaEos, EOS, "Ethernet1", "Ethernet2"),
            (Vendor::CiscoNxos, NXOS, "Ethernet1/1", "Ethernet1/2"),
            (Vendor::JuniperJunos, JUNOS, "xe-0/0/1", "xe-0/0/2"),
            (
                Vendor::CiscoIosXr,
                xr,
                "GigabitEthernet0/0/0/0",
                "GigabitEthernet0/0/0/1",
            ),
            (Vendor::Frr, cumulus, "swp2", "swp3"),
        ] {
            // FRR does not hold an interface's MTU (the dialect refuses it).
            let attrs: Vec<IfChange> = with_mtu
                .iter()
                .filter(|c| v != Vendor::Frr || !matches!(c, IfChange::Mtu(_)))
                .cloned()
                .collect();
            let r = route(v, text);
            let changes = [
                Change::Interface {
                    name: port,
                    changes: &attrs,
                    switchport: None,
                    replaced: None,
                },
                Change::Interface {
                    name: port,
                    changes: &address,
                    switchport: None,
                    replaced: Some("10.0.0.1/30".parse().unwrap()),
                },
                Change::ShutForDecommission {
                    name: port,
                    description: "DECOMMISSIONED",
                    units: 1,
                },
                Change::RemoveNeighbor {
                    peer: "10.0.0.2",
                    vrf: "default",
                    local_as: 65001,
                },
                Change::AddStaticRoute {
                    prefix: "198.51.100.0/24".parse().unwrap(),
                    next_hop: "10.0.0.2".parse().unwrap(),
                },
                Change::AddDiscardRoute {
                    prefix: "198.51.100.0/24".parse().unwrap(),
                },
                Change::RemoveStaticRoute { route: &r, hops: 1 },
            ];
            let before = model(v, text);
            for c in &changes {
                let l = render(v, "r1", text, c).unwrap_or_else(|e| panic!("{v} {c:?}: {e}"));
                let (plan, rollback) = l.texts();
                let cand = candidate_text(v, text, &plan);
                assert_ne!(
                    model(v, &cand),
                    before,
                    "{v} {c:?}: the plan changes nothing\n{cand}"
                );
                let back = candidate_text(v, &cand, &rollback);
                assert_eq!(
                    model(v, &back),
                    before,
                    "{v} {c:?}:\n{plan}\n--\n{rollback}\n--\n{back}"
                );
            }
            // A shut interface brought up, its description removed.
            let l = render(
                v,
                "r1",
                text,
                &Change::Interface {
                    name: shut,
                    changes: &up,
                    switchport: None,
                    replaced: None,
                },
            )
            .unwrap_or_else(|e| panic!("{v}: {e}"));
            let cand = candidate_text(v, text, &l.texts().0);
            assert_ne!(model(v, &cand), before, "{v}: no shutdown\n{cand}");
            assert_eq!(
                model(v, &candidate_text(v, &cand, &l.texts().1)),
                before,
                "{v}"
            );
        }
    }

    /// Removals are edited out of the candidate, not appended as `no` / `delete` lines.
    #[test]
    fn the_candidate_holds_no_removal_lines() {
        for (v, text) in [
            (Vendor::CiscoIos, IOS),
            (Vendor::AristaEos, EOS),
            (Vendor::CiscoNxos, NXOS),
            (Vendor::JuniperJunos, JUNOS),
        ] {
            let c = Change::RemoveNeighbor {
                peer: "10.0.0.2",
                vrf: "default",
                local_as: 65001,
            };
            let plan = render(v, "r1", text, &c).unwrap().texts().0;
            let cand = candidate_text(v, text, &plan);
            assert!(!cand.contains("10.0.0.2 "), "{v}:\n{cand}");
            assert!(
                !cand.contains("no neighbor") && !cand.contains("delete"),
                "{v}:\n{cand}"
            );
            let r = route(v, text);
            let plan = render(
                v,
                "r1",
                text,
                &Change::RemoveStaticRoute { route: &r, hops: 1 },
            )
            .unwrap()
            .texts()
            .0;
            let cand = candidate_text(v, text, &plan);
            assert!(!cand.contains("192.0.2.0"), "{v}:\n{cand}");
        }
    }

    #[test]
    fn show_commands_per_family() {
        assert_eq!(
            show(
                Vendor::CiscoIos,
                Show::Route("10.1.0.0/16".parse().unwrap())
            ),
            ["show ip route 10.1.0.0"]
        );
        assert_eq!(
            show(Vendor::JuniperJunos, Show::Interface("xe-0/0/1.0")),
            [
                "show configuration interfaces xe-0/0/1",
                "show interfaces xe-0/0/1.0 terse"
            ]
        );
        assert_eq!(
            show(Vendor::CiscoNxos, Show::BgpSummary),
            ["show ip bgp summary"]
        );
    }

    #[test]
    fn igp_checks_follow_the_configured_igps() {
        assert_eq!(
            igp_checks("hostname a\nrouter ospf 1\n network 10.0.0.0 0.0.0.255 area 0\n"),
            ["show ip ospf neighbor"]
        );
        assert_eq!(
            igp_checks("router isis CORE\n net 49.0001.0000.0000.0001.00\n"),
            ["show isis neighbors"]
        );
        // BGP only, and an OSPF word inside another stanza: nothing to suggest.
        assert!(igp_checks("router bgp 65000\n description router ospf\n").is_empty());
    }
}
