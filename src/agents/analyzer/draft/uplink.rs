//! New eBGP sessions to providers: a redundant uplink to an existing provider (its
//! interface template and session policy copied from the existing uplink), or a peering
//! to a provider the network has no session to yet.

use super::{blast_section, header, list, os_of, pre_change, slug, vendor_of, Ctx, Draft};
use crate::agents::analyzer::facts::{free_interface, Bgp, Facts, Iface};
use crate::agents::analyzer::intent::{NewPeer, Peer};
use crate::dialect::policy::Decided;
use crate::dialect::{cisco, frr, iosxr, is_junos, junos};
use crate::model::Vendor;
use crate::plan::{ConfigBlock, Plan, Target};
use crate::topology::{BlastRadius, Network, PeerRedundancy, Session};
use ipnet::IpNet;
use std::fmt::Write as _;
use std::net::IpAddr;

/// The first subnet of `len` inside `within` that overlaps nothing in use.
pub fn free_subnet(f: &Facts, within: IpNet, len: u8) -> Option<IpNet> {
    let subnets = within.subnets(len).ok()?;
    subnets.take(65_536).find(|cand| {
        !f.used()
            .iter()
            .any(|u| u.contains(&cand.network()) || cand.contains(&u.network()))
    })
}

/// What a new session looks like, before rendering.
struct NewSession<'a> {
    device: &'a str,
    name: &'a str,
    asn: u32,
    redundant: bool,
    iface: &'a Iface,
    subnet: IpNet,
    ours: IpAddr,
    theirs: IpAddr,
    /// The existing session to the same provider, when there is one.
    template: Option<&'a Bgp>,
    /// Whether the provider gave the addressing (else olav chose it).
    assigned: bool,
}

/// A new session's lines in one dialect, with what the plan says about them.
struct Rendered {
    cfg: String,
    rollback: String,
    /// Verification commands, one a line.
    checks: String,
    /// The interface the session runs on.
    interface: String,
    copied_from: Option<String>,
    not_copied: Option<String>,
    /// The risk line when the existing session authenticates.
    password: Option<String>,
    /// Where the session's policy came from, and whether it is drafted shut.
    policy: Decided,
}

/// Cisco-style lines (IOS, EOS, NX-OS; IOS-XR in RPL and FRR in vtysh, each its own
/// module): the interface stanza and `router bgp` neighbor lines, the policy copied from
/// the existing uplink when it is on a device of the same OS; the rollback removes the
/// neighbor and returns the interface as stored.
fn cisco_session(
    n: &NewSession<'_>,
    f: &Facts,
    ctx: &Ctx<'_>,
    local_as: u32,
    desc: &str,
    our_addr: IpNet,
) -> Result<Rendered, String> {
    let os = os_of(f, n.device);
    let theirs = n.theirs;
    // Policy copied from the existing uplink when it sits on a device of the same OS.
    let mut template_text = None;
    let mut copied_from: Option<String> = None;
    let mut not_copied: Option<String> = None;
    if let Some(t) = n.template {
        if os_of(f, &t.hostname) == os {
            template_text = Some(ctx.running(&t.hostname)?);
            copied_from = Some(format!("{} neighbor {}", t.hostname, t.peer));
        } else {
            not_copied = Some(format!(
                "the existing session ({} neighbor {}) is on a {} device; its policy was not copied into {os} syntax",
                t.hostname,
                t.peer,
                os_of(f, &t.hostname)
            ));
        }
    }
    let own = ctx.running(n.device)?;
    let template = match (n.template, &template_text) {
        (Some(t), Some(text)) => Some(cisco::Template {
            text,
            interface: t
                .local_ip
                .as_deref()
                .and_then(|ip| f.interface_with(&t.hostname, ip))
                .map(|i| i.name.as_str()),
            peer: &t.peer,
        }),
        _ => None,
    };
    let vendor = vendor_of(f, n.device);
    let new = match vendor {
        Vendor::CiscoIosXr => iosxr::session::new_session,
        Vendor::Frr => frr::session::new_session,
        _ => cisco::new_session,
    };
    let s = new(&cisco::NewSession {
        vendor,
        interface: &n.iface.name,
        description: desc,
        ours: our_addr,
        theirs,
        asn: n.asn,
        local_as,
        text: &own,
        template,
        provider: n.name,
    });
    let (cfg, rollback) = s.lines.texts();
    Ok(Rendered {
        cfg,
        rollback,
        checks: s.checks,
        interface: n.iface.name.clone(),
        copied_from,
        not_copied,
        password: s.password.then(|| cisco::password_risk(n.name, theirs)),
        policy: s.policy,
    })
}

/// Junos lines: unit 0 of the free port addressed (the existing unit's filters copied),
/// the neighbor in the existing session's group when that is on this device, so that it
/// inherits the group's peer AS and import / export chains; the rollback deletes the
/// neighbor and gives the port back exactly as stored.
fn junos_session(
    n: &NewSession<'_>,
    f: &Facts,
    ctx: &Ctx<'_>,
    desc: &str,
    our_addr: IpNet,
) -> Result<Rendered, String> {
    let text = ctx.running(n.device)?;
    let st = junos::Stored::new(&text);
    // Only a template on this device is reused: its group and filters are defined here.
    let template = n.template.filter(|t| t.hostname == n.device);
    let template_unit = template
        .and_then(|t| t.local_ip.as_deref())
        .and_then(|ip| f.interface_with(n.device, ip))
        .map(|i| i.name.clone());
    let s = junos::new_session(
        &st,
        &junos::NewSession {
            port: &n.iface.name,
            description: desc,
            ours: our_addr,
            theirs: n.theirs,
            asn: n.asn,
            name: n.name,
            text: &text,
        },
        template
            .or(n.template)
            .map(|t| junos::Template {
                hostname: &t.hostname,
                peer: &t.peer,
            })
            .as_ref(),
        template_unit.as_deref(),
    );
    let (cfg, rollback) = s.lines.texts();
    Ok(Rendered {
        cfg,
        rollback,
        checks: junos::session_checks(&s.unit, n.ours, n.theirs),
        interface: s.unit,
        copied_from: s.copied_from.map(|c| format!("{} {c}", n.device)),
        not_copied: s.not_copied,
        password: s.authenticated.then(|| junos::key_risk(n.name)),
        policy: s.policy,
    })
}

fn render(n: &NewSession<'_>, f: &Facts, net: &Network, ctx: &Ctx<'_>) -> Result<Draft, String> {
    let device = n.device;
    let os = os_of(f, device);
    let our_addr = IpNet::new(n.ours, n.subnet.prefix_len()).map_err(|e| e.to_string())?;
    let local_as = f.devices.get(device).and_then(|d| d.asn).ok_or_else(|| {
        format!("{device} runs no BGP (no local AS); an eBGP session needs `router bgp` first")
    })?;
    let theirs = n.theirs;
    let desc = format!(
        "{} transit (AS{}){}",
        n.name,
        n.asn,
        if n.redundant {
            " - redundant uplink"
        } else {
            ""
        }
    );
    crate::dialect::drafts_sessions(vendor_of(f, device), device)?;
    let r = if is_junos(vendor_of(f, device)) {
        junos_session(n, f, ctx, &desc, our_addr)?
    } else {
        cisco_session(n, f, ctx, local_as, &desc, our_addr)?
    };
    let shut = r.policy.shut;
    let verification = format!(
        "On {device}, after {} has configured their side{}:\n\n```\n{}\n```\n\n{}",
        n.name,
        if shut {
            " and the session has been enabled with its outbound policy (it is drafted shut)"
        } else {
            ""
        },
        r.checks,
        if n.template.is_some() {
            format!("Expect the session Established, the prefixes received accepted by the inbound policy, and the advertised prefixes the same as on the existing session to {}.", n.name)
        } else {
            "Expect the session Established, and only the prefixes the policy above allows received and advertised.".to_owned()
        }
    );
    let before = net.redundancy_to_peer(n.asn, &[]);
    let new_session = net.device(device).map(|d| Session {
        device: d,
        vrf: "default".into(),
        peer: theirs,
        peer_asn: Some(n.asn),
        description: Some(desc.clone()),
        local_interface: Some(r.interface.clone()),
        peer_device: None,
        shutdown: false,
    });
    let after = net.redundancy_to_peer(n.asn, &new_session.into_iter().collect::<Vec<_>>());
    let (mut blast, _) = blast_section(&BlastRadius::default());
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
        after.peer,
        red(&before),
        red(&after)
    );
    let removed_spofs: Vec<&String> = before
        .single_points
        .iter()
        .filter(|p| !after.single_points.contains(p))
        .collect();
    let remaining: &[String] = &after.single_points;
    let spof_line = if n.template.is_none() {
        format!("gives the network its first session to {}", n.name)
    } else if removed_spofs.is_empty() {
        format!(
            "removes no single point of failure; remaining: {}",
            list(remaining)
        )
    } else {
        format!(
            "removes the single point(s) of failure {}; remaining: {}",
            removed_spofs
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            list(remaining)
        )
    };
    let title = if n.template.is_some() {
        format!(
            "Add {}eBGP uplink from {device} to {} (AS{})",
            if n.redundant { "a redundant " } else { "an " },
            n.name,
            n.asn
        )
    } else {
        format!(
            "Add an eBGP peering from {device} to {} (AS{})",
            n.name, n.asn
        )
    };
    let summary = format!(
        "{title} on {} with link subnet {} ({device} {}, {} {theirs}).\n\nBlast radius 0: the change adds a session and removes nothing; {}it {spof_line}.",
        n.iface.name,
        n.subnet,
        n.ours,
        n.name,
        if shut {
            "the session is drafted shut until its outbound policy is agreed; once enabled, "
        } else {
            ""
        }
    );
    let mut scope = format!(
        "- Device: {device} ({os}, AS{local_as})\n- Interface: {} (free: no address, no link{})\n- New BGP session: {theirs} AS{} ({})\n- Link subnet: {} — overlaps nothing in the state DB (state version {})",
        n.iface.name,
        if n.iface.admin_state == "down" { ", now shut" } else { "" },
        n.asn,
        n.name,
        n.subnet,
        f.state_version
    );
    if let Some(c) = &r.copied_from {
        // IOS-XR and FRR copy the session's policy only: their port lines are not IOS's.
        let what = match vendor_of(f, device) {
            Vendor::CiscoIosXr | Vendor::Frr => "Session policy",
            _ => "Interface template and session policy",
        };
        let _ = write!(scope, "\n- {what} copied from {c}");
    }
    for note in &r.policy.notes {
        let _ = write!(scope, "\n- Policy, {note}");
    }
    let mut risks = format!(
        "- Blast radius 0; {}the change {spof_line}.\n",
        if shut {
            "once the session is enabled, "
        } else {
            ""
        }
    );
    let _ = writeln!(
        risks,
        "- {} must configure {theirs} with remote AS {local_as} and accept {}; {} the addressing ({}) with {} before the window.",
        n.name,
        n.ours,
        if n.assigned { "the addressing is as given in the request; confirm" } else { "olav chose the addressing; agree" },
        n.subnet,
        n.name
    );
    if let Some(p) = &r.password {
        let _ = writeln!(risks, "- {p}");
    }
    if let Some(why) = &r.not_copied {
        let _ = writeln!(
            risks,
            "- Policy not copied: {why}; the session's policy was decided as for a new provider instead (see Scope): compare it with the existing session's."
        );
    }
    if shut {
        let _ = writeln!(risks, "- The session is drafted shut: olav found no outbound policy to reuse and no public prefix {device} originates, and never drafts a session that announces everything. It stays down until the outbound policy is agreed and added (see Scope).");
    } else if n.template.is_none() {
        let _ = writeln!(risks, "- The policy is reused or built by olav (see Scope): review it with {}, and agree a maximum-prefix limit for the session.", n.name);
    }
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
            n.name
        );
    }
    let intent = if n.template.is_some() {
        "add_uplink"
    } else {
        "add_peering"
    };
    let topic = format!(
        "{}-{}-{}",
        if n.template.is_some() {
            "add-uplink"
        } else {
            "add-peering"
        },
        slug(n.name),
        slug(device)
    );
    let plan = Plan {
        header: header(
            intent,
            vec![
                Target::Interface {
                    device: device.to_owned(),
                    interface: n.iface.name.clone(),
                },
                Target::Peer {
                    device: device.to_owned(),
                    peer: theirs.to_string(),
                    asn: Some(n.asn),
                    name: Some(n.name.to_owned()),
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
            text: r.cfg.trim_end().to_owned(),
        }],
        rollback: vec![ConfigBlock {
            device: device.to_owned(),
            os: os.to_owned(),
            text: r.rollback.trim_end().to_owned(),
        }],
        verification,
        blast_radius: blast,
        claimed_blast_radius: Some(0),
        risks,
        pre_change: pre_change(""),
    };
    Ok(Draft {
        topic,
        summary: vec![
            format!("Drafted: {title}"),
            format!("  interface  {} (free: no address, no link)", n.iface.name),
            format!(
                "  subnet     {} — {device} {}, {} {theirs}",
                n.subnet, n.ours, n.name
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

/// Our and their address on a link subnet the request gives: with host bits set, the
/// address is ours; else the first host is ours. The subnet must be unused.
fn link_ends(f: &Facts, link: IpNet) -> Result<(IpAddr, IpAddr), String> {
    let subnet = link.trunc();
    if let Some(u) = f
        .used()
        .iter()
        .find(|u| u.contains(&subnet.network()) || subnet.contains(&u.network()))
    {
        return Err(format!(
            "the link subnet {subnet} overlaps {u}, already in use"
        ));
    }
    let hosts: Vec<IpAddr> = subnet.hosts().take(2).collect();
    let [a, b] = hosts.as_slice() else {
        return Err(format!("subnet {subnet} has no room for two hosts"));
    };
    Ok(if link.addr() == *b {
        (*b, *a)
    } else {
        (*a, *b)
    })
}

fn no_free_interface(device: &str) -> String {
    format!("{device} has no free interface (one with no address, no link, not a switchport, not in a port-channel, not addressed by another open plan); free one first")
}

/// A redundant (or first) uplink to a provider the network already peers with.
pub fn add_uplink(
    device: &str,
    peer: &Peer,
    redundant: bool,
    link: Option<IpNet>,
    f: &Facts,
    net: &Network,
    ctx: &Ctx<'_>,
) -> Result<Draft, String> {
    let iface = free_interface(f, device).ok_or_else(|| no_free_interface(device))?;
    let existing: Vec<&Bgp> = f
        .external_sessions()
        .filter(|s| s.peer_asn == Some(peer.asn))
        .collect();
    let template = existing
        .iter()
        .find(|s| s.hostname == device)
        .or(existing.first())
        .copied();
    // The link subnet next to the existing uplink's (the provider's block), else the shared-address pool.
    let existing_net = template
        .and_then(|s| Some((s, s.local_ip.as_deref()?)))
        .and_then(|(s, ip)| f.interface_with(&s.hostname, ip))
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
    let (subnet, ours, theirs, assigned) = match link {
        Some(l) => {
            let (ours, theirs) = link_ends(f, l)?;
            (l.trunc(), ours, theirs, true)
        }
        None => {
            let mut hosts = subnet.hosts();
            let (Some(ours), Some(theirs)) = (hosts.next(), hosts.next()) else {
                return Err(format!("subnet {subnet} has no room for two hosts"));
            };
            (subnet, ours, theirs, false)
        }
    };
    render(
        &NewSession {
            device,
            name: &peer.name,
            asn: peer.asn,
            redundant,
            iface,
            subnet,
            ours,
            theirs,
            template,
            assigned,
        },
        f,
        net,
        ctx,
    )
}

/// A peering to a provider the network has no session to yet, on the link subnet the
/// provider assigned (the request's address is ours when it has host bits set).
pub fn add_peering(
    device: &str,
    peer: &NewPeer,
    f: &Facts,
    net: &Network,
    ctx: &Ctx<'_>,
) -> Result<Draft, String> {
    let link = peer.link;
    let iface = match peer.interface.as_deref() {
        Some(want) => {
            let i = f
                .interfaces
                .get(device)
                .and_then(|v| v.iter().find(|i| i.name == want))
                .ok_or_else(|| format!("{device} has no interface {want}"))?;
            if !i.addresses.is_empty()
                || i.linked
                || i.switchport_mode.is_some()
                || i.channel_group.is_some()
            {
                return Err(format!("{device} {want} is in use (an address, a link, a switchport or a port-channel); name a free interface"));
            }
            i
        }
        None => free_interface(f, device).ok_or_else(|| no_free_interface(device))?,
    };
    let subnet = link.trunc();
    let (ours, theirs) = link_ends(f, link)?;
    render(
        &NewSession {
            device,
            name: &peer.name,
            asn: peer.asn,
            redundant: false,
            iface,
            subnet,
            ours,
            theirs,
            template: None,
            assigned: true,
        },
        f,
        net,
        ctx,
    )
}
