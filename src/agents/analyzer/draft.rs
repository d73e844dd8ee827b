//! Drafting a plan from an intent and the state: vendor-correct configuration for the
//! device's OS, rollback, verification commands and the claimed blast radius.

use super::facts::{Facts, Iface};
use super::intent::{IfChange, Intent, Peer};
use crate::plan::{ConfigBlock, Header, Plan, Target, FORMAT_VERSION, NUMBER_LABEL};
use crate::topology::{BlastRadius, Network, PeerRedundancy, Removal, Session};
use ipnet::IpNet;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::IpAddr;

/// Replaced by the plan's own path when the file is written.
pub const PATH_TOKEN: &str = "{PLAN_PATH}";

/// A drafted plan and the analyzer's summary of it.
#[derive(Debug, Clone)]
pub struct Draft {
    /// File-name topic.
    pub topic: String,
    /// The plan (its pre-change section holds [`PATH_TOKEN`]).
    pub plan: Plan,
    /// Lines for the analyzer's reply.
    pub summary: Vec<String>,
}

/// Run context for drafting.
pub struct Ctx<'a> {
    /// The request.
    pub request: &'a str,
    /// Workflow name.
    pub workflow: &'a str,
    /// Now, RFC 3339.
    pub now: &'a str,
}

fn ind(os: &str) -> &'static str {
    match os {
        "eos" => "   ",
        "nxos" => "  ",
        _ => " ",
    }
}

fn addr_line(os: &str, a: IpNet) -> String {
    match (os, a) {
        ("ios", IpNet::V4(v4)) => format!("ip address {} {}", v4.addr(), v4.netmask()),
        _ => format!("ip address {a}"),
    }
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

fn list(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_owned()
    } else {
        v.join(", ")
    }
}

/// Affected services as `name (criticality)`.
fn service_list(br: &BlastRadius) -> Vec<String> {
    br.services_affected
        .iter()
        .map(|s| {
            format!(
                "{} ({})",
                s.name,
                s.criticality.as_deref().unwrap_or("unrated")
            )
        })
        .collect()
}

/// The Blast radius section and the one-line citation for Summary and Risks.
pub fn blast_section(br: &BlastRadius) -> (String, String) {
    let services = service_list(br);
    let sessions: Vec<String> = br
        .sessions_lost
        .iter()
        .map(|s| {
            format!(
                "{} → {}{}",
                s.hostname,
                s.peer,
                s.peer_asn.map(|a| format!(" (AS{a})")).unwrap_or_default()
            )
        })
        .collect();
    let mut s = format!(
        "**{NUMBER_LABEL} {}** (removed {} + isolated {} devices)\n\n",
        br.number(),
        br.removed_devices.len(),
        br.isolated.len()
    );
    s.push_str("| element | affected |\n|---|---|\n");
    let rows: [(&str, String); 9] = [
        ("Removed devices", list(&br.removed_devices)),
        ("Removed interfaces", list(&br.removed_interfaces)),
        ("Removed links", list(&br.removed_links)),
        ("Isolated devices", list(&br.isolated)),
        (
            "Degraded devices (new single point of failure)",
            list(&br.degraded),
        ),
        ("BGP sessions lost", list(&sessions)),
        ("External peers lost", list(&br.external_peers_lost)),
        ("Prefixes withdrawn", list(&br.prefixes_withdrawn)),
        ("Services affected", list(&services)),
    ];
    for (k, v) in rows {
        let _ = writeln!(s, "| {k} | {v} |");
    }
    let cite = format!(
        "blast radius {} device(s) ({} removed, {} isolated); services affected: {}",
        br.number(),
        br.removed_devices.len(),
        br.isolated.len(),
        list(&services)
    );
    (s, cite)
}

fn pre_change(targets_args: &str) -> String {
    format!(
        "```sh\nolav precheck {PATH_TOKEN}\nolav verify {PATH_TOKEN}\nolav blast-radius {targets_args}\n```"
    )
}

fn header(intent: &str, targets: Vec<Target>, f: &Facts, ctx: &Ctx<'_>, topic: &str) -> Header {
    // Random, not derived: two drafts of one request in one second are two plans.
    let id = uuid::Uuid::new_v4().simple().to_string();
    Header {
        olav_plan: FORMAT_VERSION,
        plan_id: format!(
            "{}-{topic}-{}",
            ctx.now.get(..10).unwrap_or("0000-00-00"),
            &id[..6]
        ),
        workflow: ctx.workflow.to_owned(),
        intent: intent.to_owned(),
        targets,
        state_version: f.state_version,
        created: ctx.now.to_owned(),
        request: ctx.request.to_owned(),
    }
}

fn os_of<'a>(f: &'a Facts, device: &str) -> &'a str {
    f.devices.get(device).map_or("ios", |d| d.os.as_str())
}

/// Drafts a plan for an intent.
pub fn draft(intent: &Intent, f: &Facts, net: &Network, ctx: &Ctx<'_>) -> Result<Draft, String> {
    match intent {
        Intent::AddUplink {
            device,
            peer,
            redundant,
        } => add_uplink(device, peer, *redundant, f, net, ctx),
        Intent::ModifyInterface {
            device,
            interface,
            changes,
        } => modify_interface(device, interface, changes, f, net, ctx),
        Intent::AddStaticRoute {
            device,
            prefix,
            next_hop,
        } => static_route(device, *prefix, *next_hop, f, ctx),
        Intent::DecommissionDevice { device } => decommission(
            Decom {
                removal: Removal {
                    devices: net.device(device).into_iter().collect(),
                    ..Removal::default()
                },
                intent: "decommission_device",
                targets: vec![Target::Device {
                    device: device.clone(),
                }],
                topic: format!("decommission-{}", slug(device)),
                title: format!("Decommission {device}"),
                br_args: format!("--device {device}"),
            },
            f,
            net,
            ctx,
        ),
        Intent::DecommissionInterface { device, interface } => decommission(
            Decom {
                removal: Removal {
                    interfaces: net
                        .device(device)
                        .map(|d| (d, interface.clone()))
                        .into_iter()
                        .collect(),
                    ..Removal::default()
                },
                intent: "decommission_interface",
                targets: vec![Target::Interface {
                    device: device.clone(),
                    interface: interface.clone(),
                }],
                topic: format!("decommission-{}-{}", slug(device), slug(interface)),
                title: format!("Decommission {device} {interface}"),
                br_args: format!("--interface {device}:{interface}"),
            },
            f,
            net,
            ctx,
        ),
        Intent::DecommissionLink { a, b } => {
            let idx: Vec<usize> = net
                .links
                .iter()
                .enumerate()
                .filter(|(_, l)| {
                    let side = |s: &(usize, String), x: &(String, String)| {
                        net.devices[s.0].hostname == x.0 && s.1 == x.1
                    };
                    (side(&l.a, a) && side(&l.b, b)) || (side(&l.a, b) && side(&l.b, a))
                })
                .map(|(i, _)| i)
                .collect();
            decommission(
                Decom {
                    removal: Removal {
                        links: idx.into_iter().collect(),
                        ..Removal::default()
                    },
                    intent: "decommission_link",
                    targets: vec![Target::Link {
                        device_a: a.0.clone(),
                        interface_a: a.1.clone(),
                        device_b: b.0.clone(),
                        interface_b: b.1.clone(),
                    }],
                    topic: format!("decommission-link-{}-{}", slug(&a.0), slug(&b.0)),
                    title: format!("Decommission the link {}:{} – {}:{}", a.0, a.1, b.0, b.1),
                    br_args: format!("--link {}:{}-{}:{}", a.0, a.1, b.0, b.1),
                },
                f,
                net,
                ctx,
            )
        }
        Intent::DecommissionPeer { device, peer } => {
            let idx: Vec<usize> = net
                .sessions
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    net.devices[s.device].hostname == *device
                        && s.peer_asn == Some(peer.asn)
                        && s.peer_device.is_none()
                })
                .map(|(i, _)| i)
                .collect();
            let addr = peer
                .sessions
                .iter()
                .find(|s| s.0 == *device)
                .map(|s| s.1.clone())
                .unwrap_or_default();
            decommission(
                Decom {
                    removal: Removal {
                        sessions: idx.into_iter().collect(),
                        ..Removal::default()
                    },
                    intent: "decommission_peer",
                    targets: vec![Target::Peer {
                        device: device.clone(),
                        peer: addr.clone(),
                        asn: Some(peer.asn),
                        name: Some(peer.name.clone()),
                    }],
                    topic: format!("remove-peer-{}-{}", slug(&peer.name), slug(device)),
                    title: format!(
                        "Remove the BGP peer {} (AS{}) from {device}",
                        peer.name, peer.asn
                    ),
                    br_args: format!("--peer {addr}"),
                },
                f,
                net,
                ctx,
            )
        }
    }
}

/// A free interface: no address, no link, not switched, not bundled, not virtual.
pub fn free_interface<'a>(f: &'a Facts, device: &str) -> Option<&'a Iface> {
    let virtual_kind = |n: &str| {
        let l = n.to_ascii_lowercase();
        [
            "loopback",
            "vlan",
            "management",
            "mgmt",
            "tunnel",
            "port-channel",
            "null",
            "nve",
            "vxlan",
        ]
        .iter()
        .any(|p| l.starts_with(p))
    };
    let mut free: Vec<&Iface> = f
        .interfaces
        .get(device)?
        .iter()
        .filter(|i| {
            i.addresses.is_empty()
                && !i.linked
                && i.switchport_mode.is_none()
                && i.channel_group.is_none()
                && !virtual_kind(&i.name)
                && !i.vrf.to_ascii_lowercase().contains("mgmt")
        })
        .collect();
    // Prefer ports marked spare/unused, then natural order.
    free.sort_by_key(|i| {
        let spare = i.description.as_deref().is_some_and(|d| {
            d.to_ascii_lowercase().contains("spare") || d.to_ascii_lowercase().contains("unused")
        });
        (!spare, natural_key(&i.name))
    });
    free.first().copied()
}

fn natural_key(name: &str) -> (String, Vec<u32>) {
    let i = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let nums = name[i..]
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|p| p.parse().ok())
        .collect();
    (name[..i].to_owned(), nums)
}

/// The first subnet of `len` inside `within` that overlaps nothing in use.
pub fn free_subnet(f: &Facts, within: IpNet, len: u8) -> Option<IpNet> {
    let subnets = within.subnets(len).ok()?;
    subnets.take(65_536).find(|cand| {
        !f.used
            .iter()
            .any(|u| u.contains(&cand.network()) || cand.contains(&u.network()))
    })
}

fn add_uplink(
    device: &str,
    peer: &Peer,
    redundant: bool,
    f: &Facts,
    net: &Network,
    ctx: &Ctx<'_>,
) -> Result<Draft, String> {
    let os = os_of(f, device);
    let i = ind(os);
    let Some(iface) = free_interface(f, device) else {
        return Err(format!(
            "{device} has no free interface (one with no address, no link, not a switchport, not in a port-channel); free one first"
        ));
    };
    let existing: Vec<&super::facts::Bgp> = f
        .external_sessions()
        .filter(|s| s.peer_asn == Some(peer.asn))
        .collect();
    let template = existing
        .iter()
        .find(|s| s.hostname == device)
        .or(existing.first())
        .copied();
    // Take the link subnet next to the existing uplink's (the provider's block), else the shared-address pool.
    let existing_net = template
        .and_then(|s| s.local_ip.as_deref())
        .and_then(|ip| {
            f.interface_with(
                &template.map(|t| t.hostname.clone()).unwrap_or_default(),
                ip,
            )
        })
        .and_then(|ifc| ifc.addresses.first().copied());
    let len = existing_net.map_or(30, |n| n.prefix_len().clamp(30, 31));
    let subnet = existing_net
        .and_then(|n| IpNet::new(n.addr(), 24).ok())
        .and_then(|blk| free_subnet(f, blk.trunc(), len))
        .or_else(|| {
            "100.64.0.0/10"
                .parse()
                .ok()
                .and_then(|pool| free_subnet(f, pool, len))
        })
        .ok_or("no free link subnet could be allocated")?;
    let mut hosts = subnet.hosts();
    let (Some(ours), Some(theirs)) = (hosts.next(), hosts.next()) else {
        return Err(format!("subnet {subnet} has no room for two hosts"));
    };
    let our_addr = IpNet::new(ours, subnet.prefix_len()).map_err(|e| e.to_string())?;
    let local_as = f.devices.get(device).and_then(|d| d.asn).ok_or_else(|| {
        format!("{device} runs no BGP (no local AS); an eBGP uplink needs `router bgp` first")
    })?;
    let desc = format!(
        "{} transit (AS{}){}",
        peer.name,
        peer.asn,
        if redundant { " - redundant uplink" } else { "" }
    );
    let rm_in = template.and_then(|t| t.route_map_in.clone());
    let rm_out = template.and_then(|t| t.route_map_out.clone());
    let mut cfg = format!("interface {}\n{i}description {desc}\n", iface.name);
    if os != "ios" {
        let _ = writeln!(cfg, "{i}no switchport");
    }
    let _ = writeln!(cfg, "{i}{}\n{i}no shutdown\n!", addr_line(os, our_addr));
    let _ = writeln!(cfg, "router bgp {local_as}");
    let _ = writeln!(cfg, "{i}neighbor {theirs} remote-as {}", peer.asn);
    let _ = writeln!(cfg, "{i}neighbor {theirs} description {desc}");
    let af_ind = if os == "eos" { "      " } else { "  " };
    match os {
        "eos" => {
            if let Some(rm) = &rm_in {
                let _ = writeln!(cfg, "{i}neighbor {theirs} route-map {rm} in");
            }
            if let Some(rm) = &rm_out {
                let _ = writeln!(cfg, "{i}neighbor {theirs} route-map {rm} out");
            }
            let _ = writeln!(
                cfg,
                "{i}address-family ipv4\n{af_ind}neighbor {theirs} activate"
            );
        }
        _ => {
            let _ = writeln!(
                cfg,
                "{i}address-family ipv4\n{af_ind}neighbor {theirs} activate"
            );
            if let Some(rm) = &rm_in {
                let _ = writeln!(cfg, "{af_ind}neighbor {theirs} route-map {rm} in");
            }
            if let Some(rm) = &rm_out {
                let _ = writeln!(cfg, "{af_ind}neighbor {theirs} route-map {rm} out");
            }
            let _ = writeln!(cfg, "{i}exit-address-family");
        }
    }
    let rollback = format!(
        "router bgp {local_as}\n{i}no neighbor {theirs}\n!\ndefault interface {}\ninterface {}\n{i}shutdown",
        iface.name, iface.name
    );
    let (show_if, ping) = match os {
        "eos" => (
            format!("show interfaces {}", iface.name),
            format!("ping {theirs} source {ours}"),
        ),
        _ => (
            format!("show interfaces {}", iface.name),
            format!("ping {theirs} source {}", iface.name),
        ),
    };
    let verification = format!(
        "On {device}, after the provider has configured their side:\n\n```\n{show_if}\n{ping}\nshow ip bgp summary\nshow ip bgp neighbors {theirs}\nshow ip bgp neighbors {theirs} received-routes\n```\n\nExpect the session Established and the same prefixes received from both sessions to {}.",
        peer.name
    );
    // Redundancy towards the peer, before and after.
    let before = net.redundancy_to_peer(peer.asn, &[]);
    let new_session = net.device(device).map(|d| Session {
        device: d,
        vrf: "default".into(),
        peer: theirs,
        peer_asn: Some(peer.asn),
        description: Some(desc.clone()),
        local_interface: Some(iface.name.clone()),
        peer_device: None,
        shutdown: false,
    });
    let after = net.redundancy_to_peer(peer.asn, &new_session.into_iter().collect::<Vec<_>>());
    let br = BlastRadius::default();
    let (mut blast, _) = blast_section(&br);
    let red = |r: &PeerRedundancy| {
        format!(
            "{} session(s): {}; single points of failure: {}",
            r.sessions.len(),
            list(&r.sessions),
            list(&r.single_points)
        )
    };
    let _ = write!(
        blast,
        "\nThe change adds and removes nothing. Redundancy towards {}:\n\n- **before:** {}\n- **after:** {}\n",
        before.peer,
        red(&before),
        red(&after)
    );
    let removed_spofs: Vec<&String> = before
        .single_points
        .iter()
        .filter(|p| !after.single_points.contains(p))
        .collect();
    let remaining: &[String] = &after.single_points;
    let spof_line = format!(
        "removes the single point(s) of failure {}; remaining: {}",
        if removed_spofs.is_empty() {
            "none".to_owned()
        } else {
            removed_spofs
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        },
        list(remaining)
    );
    let title = format!(
        "Add a {}eBGP uplink from {device} to {} (AS{})",
        if redundant { "redundant " } else { "" },
        peer.name,
        peer.asn
    );
    let summary = format!(
        "{title} on {} with link subnet {subnet} ({device} {ours}, {} {theirs}).\n\nBlast radius 0: the change adds a session and removes nothing; it {spof_line}.",
        iface.name, peer.name
    );
    let scope = format!(
        "- Device: {device} ({os}, AS{local_as})\n- Interface: {} (free: no address, no link{})\n- New BGP session: {theirs} AS{} ({}){}\n- Link subnet: {subnet} — overlaps nothing in the state DB (state version {})",
        iface.name,
        if iface.admin_state == "down" { ", now shut" } else { "" },
        peer.asn,
        peer.name,
        match (&rm_in, &rm_out) {
            (None, None) => String::new(),
            _ => format!("; policy copied from the existing session: in {} / out {}", rm_in.as_deref().unwrap_or("-"), rm_out.as_deref().unwrap_or("-")),
        },
        f.state_version
    );
    let mut risks = format!(
        "- Blast radius 0; {spof_line}.\n- The provider must configure {theirs} with remote AS {local_as} and accept {ours}; confirm the addressing ({subnet}) with {} before the window.\n- If the existing session uses an MD5 password, maximum-prefix or BFD, configure the same on the new one (passwords are not in the state DB).\n",
        peer.name
    );
    if remaining.iter().any(|p| p.starts_with("device ")) {
        let _ = writeln!(
            risks,
            "- {} remains a single point of failure towards {}: a second border device would remove it.",
            remaining
                .iter()
                .filter(|p| p.starts_with("device "))
                .map(|p| p.trim_start_matches("device "))
                .collect::<Vec<_>>()
                .join(", "),
            peer.name
        );
    }
    if rm_in.is_none() || rm_out.is_none() {
        let _ = writeln!(risks, "- No inbound/outbound route-map was found to copy: without policy the session would accept and announce everything.");
    }
    let topic = format!("add-uplink-{}-{}", slug(&peer.name), slug(device));
    let plan = Plan {
        header: header(
            "add_uplink",
            vec![
                Target::Interface {
                    device: device.to_owned(),
                    interface: iface.name.clone(),
                },
                Target::Peer {
                    device: device.to_owned(),
                    peer: theirs.to_string(),
                    asn: Some(peer.asn),
                    name: Some(peer.name.clone()),
                },
            ],
            f,
            ctx,
            &topic,
        ),
        title: title.clone(),
        summary,
        scope,
        implementation_notes: String::new(),
        implementation: vec![ConfigBlock {
            device: device.to_owned(),
            os: os.to_owned(),
            text: cfg,
        }],
        rollback: vec![ConfigBlock {
            device: device.to_owned(),
            os: os.to_owned(),
            text: rollback,
        }],
        verification,
        blast_radius: blast,
        claimed_blast_radius: Some(0),
        risks,
        pre_change: pre_change(&format!("--peer {theirs}")),
    };
    Ok(Draft {
        topic,
        summary: vec![
            format!("Drafted: {title}"),
            format!("  interface  {} (free: no address, no link)", iface.name),
            format!(
                "  subnet     {subnet} — {device} {ours}, {} {theirs}",
                peer.name
            ),
            format!(
                "  redundancy {} → {} session(s); {spof_line}",
                before.sessions.len(),
                after.sessions.len()
            ),
            "  blast radius 0 (adds, removes nothing)".to_owned(),
        ],
        plan,
    })
}

fn modify_interface(
    device: &str,
    interface: &str,
    changes: &[IfChange],
    f: &Facts,
    net: &Network,
    ctx: &Ctx<'_>,
) -> Result<Draft, String> {
    let os = os_of(f, device);
    let i = ind(os);
    let current = f
        .interfaces
        .get(device)
        .and_then(|v| v.iter().find(|x| x.name == interface))
        .ok_or_else(|| format!("{device} has no interface {interface}"))?;
    let mut cfg = format!("interface {interface}\n");
    let mut rb = format!("interface {interface}\n");
    let mut what = Vec::new();
    for c in changes {
        match c {
            IfChange::Description(d) => {
                let _ = writeln!(cfg, "{i}description {d}");
                match &current.description {
                    Some(old) => {
                        let _ = writeln!(rb, "{i}description {old}");
                    }
                    None => {
                        let _ = writeln!(rb, "{i}no description");
                    }
                }
                what.push(format!("description → \"{d}\""));
            }
            IfChange::Mtu(m) => {
                let _ = writeln!(cfg, "{i}mtu {m}");
                match current.mtu {
                    Some(old) => {
                        let _ = writeln!(rb, "{i}mtu {old}");
                    }
                    None => {
                        let _ = writeln!(rb, "{i}no mtu");
                    }
                }
                what.push(format!("MTU → {m}"));
            }
            IfChange::Shutdown => {
                let _ = writeln!(cfg, "{i}shutdown");
                let _ = writeln!(rb, "{i}no shutdown");
                what.push("shutdown".into());
            }
            IfChange::NoShutdown => {
                let _ = writeln!(cfg, "{i}no shutdown");
                let _ = writeln!(rb, "{i}shutdown");
                what.push("no shutdown".into());
            }
            IfChange::Address(a) => {
                let _ = writeln!(cfg, "{i}{}", addr_line(os, *a));
                match current.addresses.first() {
                    Some(old) => {
                        let _ = writeln!(rb, "{i}{}", addr_line(os, *old));
                    }
                    None => {
                        let _ = writeln!(rb, "{i}no ip address");
                    }
                }
                what.push(format!("address → {a}"));
            }
        }
    }
    // Shutting an interface removes it from the topology: quote that blast radius.
    let br = if changes.contains(&IfChange::Shutdown) {
        net.blast_radius(&Removal {
            interfaces: net
                .device(device)
                .map(|d| (d, interface.to_owned()))
                .into_iter()
                .collect(),
            ..Removal::default()
        })
    } else {
        BlastRadius::default()
    };
    let (blast, cite) = blast_section(&br);
    let title = format!("Modify {device} {interface}: {}", what.join(", "));
    let topic = format!("modify-{}-{}", slug(device), slug(interface));
    let plan = Plan {
        header: header(
            "modify_interface",
            vec![Target::Interface {
                device: device.to_owned(),
                interface: interface.to_owned(),
            }],
            f,
            ctx,
            &topic,
        ),
        title: title.clone(),
        summary: format!("{title}.\n\nCurrent: description {}, admin {}, MTU {}, addresses {}.\n\n{}.", current.description.as_deref().unwrap_or("-"), current.admin_state, current.mtu.map_or("default".into(), |m| m.to_string()), list(&current.addresses.iter().map(|a| a.to_string()).collect::<Vec<_>>()), capitalise(&cite)),
        scope: format!("- Device: {device} ({os})\n- Interface: {interface}{}", if current.linked { " (has a link)" } else { "" }),
        implementation_notes: String::new(),
        implementation: vec![ConfigBlock {
            device: device.to_owned(),
            os: os.to_owned(),
            text: cfg.trim_end().to_owned(),
        }],
        rollback: vec![ConfigBlock {
            device: device.to_owned(),
            os: os.to_owned(),
            text: rb.trim_end().to_owned(),
        }],
        verification: format!("```\nshow running-config interface {interface}\nshow interfaces {interface}\n```"),
        blast_radius: blast,
        claimed_blast_radius: Some(br.number() as u32),
        risks: format!("- {}.\n- An MTU change on a routed link must match the other end, or OSPF adjacencies stay in EXSTART.", capitalise(&cite)),
        pre_change: pre_change(&format!("--interface {device}:{interface}")),
    };
    Ok(Draft {
        topic,
        summary: vec![format!("Drafted: {title}"), format!("  {cite}")],
        plan,
    })
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn static_route(
    device: &str,
    prefix: IpNet,
    next_hop: IpAddr,
    f: &Facts,
    ctx: &Ctx<'_>,
) -> Result<Draft, String> {
    let os = os_of(f, device);
    let connected = f
        .interfaces
        .get(device)
        .into_iter()
        .flatten()
        .any(|i| i.addresses.iter().any(|a| a.contains(&next_hop)));
    let route = match (os, prefix) {
        ("ios", IpNet::V4(p)) => format!("ip route {} {} {next_hop}", p.network(), p.netmask()),
        _ => format!("ip route {prefix} {next_hop}"),
    };
    let no_route = format!("no {route}");
    let title = format!("Add a static route to {prefix} via {next_hop} on {device}");
    let topic = format!(
        "static-route-{}-{}",
        slug(device),
        slug(&prefix.to_string())
    );
    let (blast, cite) = blast_section(&BlastRadius::default());
    let mut risks = format!(
        "- {}.\n- A static route overrides dynamic routes with a higher administrative distance.\n",
        capitalise(&cite)
    );
    if !connected {
        let _ = writeln!(risks, "- {next_hop} is not in a subnet connected to {device}: the route resolves recursively.");
    }
    let plan = Plan {
        header: header(
            "add_static_route",
            vec![Target::Device {
                device: device.to_owned(),
            }],
            f,
            ctx,
            &topic,
        ),
        title: title.clone(),
        summary: format!("{title}.\n\n{}.", capitalise(&cite)),
        scope: format!(
            "- Device: {device} ({os})\n- Next hop {next_hop}: {}",
            if connected {
                "directly connected"
            } else {
                "not directly connected"
            }
        ),
        implementation_notes: String::new(),
        implementation: vec![ConfigBlock {
            device: device.to_owned(),
            os: os.to_owned(),
            text: route,
        }],
        rollback: vec![ConfigBlock {
            device: device.to_owned(),
            os: os.to_owned(),
            text: no_route,
        }],
        verification: format!("```\nshow ip route {}\n```", prefix.network()),
        blast_radius: blast,
        claimed_blast_radius: Some(0),
        risks,
        pre_change: pre_change(&format!("--device {device}")),
    };
    Ok(Draft {
        topic,
        summary: vec![format!("Drafted: {title}")],
        plan,
    })
}

/// What a decommission removes, and how its plan is named.
struct Decom {
    removal: Removal,
    intent: &'static str,
    targets: Vec<Target>,
    topic: String,
    title: String,
    /// The `olav blast-radius` arguments naming the same removal.
    br_args: String,
}

fn decommission(d: Decom, f: &Facts, net: &Network, ctx: &Ctx<'_>) -> Result<Draft, String> {
    let Decom {
        removal,
        intent,
        targets,
        topic,
        title,
        br_args,
    } = d;
    let r = net.expand(&removal);
    let br = net.blast_radius(&removal);
    let isolated: Vec<usize> = br.isolated.iter().filter_map(|h| net.device(h)).collect();
    let (blast, cite) = blast_section(&br);
    // Per device: the lines that drain and remove, and their rollback.
    let mut implementation: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut touched_ifs: Vec<(String, String)> = Vec::new();
    for &li in &r.links {
        let l = &net.links[li];
        for (side, other) in [(&l.a, &l.b), (&l.b, &l.a)] {
            let dev = &net.devices[side.0].hostname;
            // A removed device is powered off and an isolated one is out of reach: neither is reconfigured.
            if r.devices.contains(&side.0) || isolated.contains(&side.0) {
                continue;
            }
            touched_ifs.push((dev.clone(), side.1.clone()));
            let os = os_of(f, dev);
            let i = ind(os);
            let old_desc = f
                .interfaces
                .get(dev)
                .and_then(|v| v.iter().find(|x| x.name == side.1))
                .and_then(|x| x.description.clone());
            let e = implementation.entry(dev.clone()).or_default();
            let _ = writeln!(
                e.0,
                "interface {}\n{i}description DECOMMISSIONED - was {} {}\n{i}shutdown\n!",
                side.1, net.devices[other.0].hostname, other.1
            );
            let _ = writeln!(
                e.1,
                "interface {}\n{i}{}\n{i}no shutdown\n!",
                side.1,
                old_desc.map_or("no description".to_owned(), |d| format!("description {d}"))
            );
        }
    }
    for &(d, ref ifn) in &r.interfaces {
        let dev = &net.devices[d].hostname;
        if touched_ifs.iter().any(|(x, y)| x == dev && y == ifn) {
            continue;
        }
        let os = os_of(f, dev);
        let i = ind(os);
        let e = implementation.entry(dev.clone()).or_default();
        let _ = writeln!(
            e.0,
            "interface {ifn}\n{i}description DECOMMISSIONED\n{i}shutdown\n!"
        );
        let _ = writeln!(e.1, "interface {ifn}\n{i}no shutdown\n!");
    }
    for &si in &r.sessions {
        let s = &net.sessions[si];
        if r.devices.contains(&s.device) {
            continue;
        }
        let dev = &net.devices[s.device].hostname;
        let os = os_of(f, dev);
        let i = ind(os);
        let Some(local_as) = f.devices.get(dev).and_then(|d| d.asn) else {
            continue;
        };
        let fact = f
            .sessions
            .iter()
            .find(|x| x.hostname == *dev && x.peer == s.peer.to_string());
        let e = implementation.entry(dev.clone()).or_default();
        let _ = writeln!(
            e.0,
            "router bgp {local_as}\n{i}neighbor {} shutdown\n{i}no neighbor {}\n!",
            s.peer, s.peer
        );
        let mut restore = format!("router bgp {local_as}\n");
        match fact.and_then(|x| x.peer_group.clone()) {
            Some(g) => {
                let _ = writeln!(restore, "{i}neighbor {} peer group {g}", s.peer);
            }
            None => {
                if let Some(a) = s.peer_asn {
                    let _ = writeln!(restore, "{i}neighbor {} remote-as {a}", s.peer);
                }
            }
        }
        if let Some(d) = &s.description {
            let _ = writeln!(restore, "{i}neighbor {} description {d}", s.peer);
        }
        if let Some(u) = fact.and_then(|x| x.update_source.clone()) {
            let _ = writeln!(restore, "{i}neighbor {} update-source {u}", s.peer);
        }
        if let Some(rm) = fact.and_then(|x| x.route_map_in.clone()) {
            let _ = writeln!(restore, "{i}neighbor {} route-map {rm} in", s.peer);
        }
        if let Some(rm) = fact.and_then(|x| x.route_map_out.clone()) {
            let _ = writeln!(restore, "{i}neighbor {} route-map {rm} out", s.peer);
        }
        let af = if os == "eos" { "      " } else { "  " };
        let _ = writeln!(
            restore,
            "{i}address-family ipv4\n{af}neighbor {} activate\n!",
            s.peer
        );
        e.1.push_str(&restore);
    }
    let implementation_blocks: Vec<ConfigBlock> = implementation
        .iter()
        .map(|(d, (cfg, _))| ConfigBlock {
            device: d.clone(),
            os: os_of(f, d).to_owned(),
            text: cfg.trim_end().trim_end_matches('!').trim_end().to_owned(),
        })
        .collect();
    let rollback_blocks: Vec<ConfigBlock> = implementation
        .iter()
        .map(|(d, (_, rb))| ConfigBlock {
            device: d.clone(),
            os: os_of(f, d).to_owned(),
            text: rb.trim_end().trim_end_matches('!').trim_end().to_owned(),
        })
        .collect();
    let removed_devices: Vec<String> = r
        .devices
        .iter()
        .map(|d| net.devices[*d].hostname.clone())
        .collect();
    let mut scope = String::new();
    let hanging: Vec<String> = r
        .links
        .iter()
        .map(|&li| {
            let l = &net.links[li];
            format!(
                "{}:{} – {}:{}",
                net.devices[l.a.0].hostname, l.a.1, net.devices[l.b.0].hostname, l.b.1
            )
        })
        .collect();
    let _ = writeln!(scope, "- Removed devices: {}", list(&removed_devices));
    let _ = writeln!(scope, "- Links that go with it: {}", list(&hanging));
    let sessions: Vec<String> = br
        .sessions_lost
        .iter()
        .map(|s| format!("{} → {}", s.hostname, s.peer))
        .collect();
    let _ = writeln!(scope, "- BGP sessions that go with it: {}", list(&sessions));
    let _ = writeln!(scope, "- Devices cut off behind it: {}", list(&br.isolated));
    let services = service_list(&br);
    let _ = writeln!(scope, "- Services lost: {}", list(&services));
    let mut steps = String::from("Ordered steps:\n\n");
    let _ = writeln!(steps, "1. **Drain.** Move the services listed above first ({}); on BGP speakers shut the sessions listed in Implementation before removing them; on OSPF devices set `max-metric router-lsa` on {} and wait for traffic to move.", list(&services), list(&removed_devices));
    let _ = writeln!(
        steps,
        "2. **Shut** the facing interfaces on the neighbors (Implementation, per device)."
    );
    let _ = writeln!(steps, "3. **Remove configuration** that points at the removed elements (BGP neighbors, descriptions); power off and unrack removed devices.");
    let _ = writeln!(steps, "4. **Update the source of truth**: set {} to status `offline` in the inventory / state.yaml and re-import the snapshot.", if removed_devices.is_empty() { "the elements".to_owned() } else { removed_devices.join(", ") });
    let summary = format!(
        "{title}. {}.\n\n{}",
        capitalise(&cite),
        if br.isolated.is_empty() {
            "No other device is cut off.".to_owned()
        } else {
            format!("Cut off behind it: {}.", br.isolated.join(", "))
        }
    );
    let mut risks = format!("- {}.\n", capitalise(&cite));
    for s in &br.services_affected {
        if matches!(s.criticality.as_deref(), Some("critical" | "high")) {
            let _ = writeln!(
                risks,
                "- Service {} ({}) goes down unless it is moved first.",
                s.name,
                s.criticality.as_deref().unwrap_or("")
            );
        }
    }
    if !br.isolated.is_empty() {
        let _ = writeln!(
            risks,
            "- {} will be cut off and unreachable for configuration: re-home them first or decommission them in the same window.",
            br.isolated.join(", ")
        );
    }
    if !br.degraded.is_empty() {
        let _ = writeln!(
            risks,
            "- New single point of failure for: {}.",
            br.degraded.join(", ")
        );
    }
    if !br.external_peers_lost.is_empty() {
        let _ = writeln!(
            risks,
            "- External peers lost entirely: {}.",
            br.external_peers_lost.join(", ")
        );
    }
    let verification = format!(
        "After the change:\n\n```\nshow ip ospf neighbor\nshow ip bgp summary\nshow interfaces status\n```\n\nExpect no adjacency or session to {} and the neighbors' facing interfaces administratively down.",
        if removed_devices.is_empty() { list(&hanging) } else { removed_devices.join(", ") }
    );
    let plan = Plan {
        header: header(intent, targets, f, ctx, &topic),
        title: title.clone(),
        summary,
        scope,
        implementation_notes: steps,
        implementation: implementation_blocks,
        rollback: rollback_blocks,
        verification,
        blast_radius: blast,
        claimed_blast_radius: Some(br.number() as u32),
        risks,
        pre_change: pre_change(&br_args),
    };
    Ok(Draft {
        topic,
        summary: vec![
            format!("Drafted: {title}"),
            format!("  {cite}"),
            format!(
                "  isolated {} · degraded {} · sessions lost {} · prefixes withdrawn {}",
                list(&br.isolated),
                list(&br.degraded),
                br.sessions_lost.len(),
                br.prefixes_withdrawn.len()
            ),
        ],
        plan,
    })
}
