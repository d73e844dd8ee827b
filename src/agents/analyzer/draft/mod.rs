//! Drafting a plan from an intent and the state: vendor-correct configuration for the
//! device's OS, a rollback made of the stored running config's own lines, verification
//! commands and the claimed blast radius. One module per intent family; each resolves its
//! request into vendor-neutral changes ([`crate::dialect::Change`]) and the device's
//! dialect ([`crate::dialect`]) writes the lines, the rollback and the `show` commands.

mod decommission;
mod interface;
mod static_route;
pub(crate) mod uplink;

use super::facts::Facts;
use super::intent::Intent;
use crate::model::Vendor;
use crate::plan::{Header, Plan, Target, FORMAT_VERSION, NUMBER_LABEL};
use crate::topology::{BlastRadius, Network, Removal};
use std::fmt::Write as _;

pub use uplink::free_subnet;

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
    /// The reading of the request ("Understood: …").
    pub reading: &'a str,
    /// The stored running configuration of a device, by hostname.
    pub config: &'a dyn Fn(&str) -> Option<String>,
}

impl Ctx<'_> {
    /// A device's stored running configuration, or why a faithful rollback is impossible.
    fn running(&self, device: &str) -> Result<String, String> {
        (self.config)(device).ok_or_else(|| {
            format!("the stored configuration of {device} is missing from the state DB; a faithful rollback cannot be written")
        })
    }
}

/// A file-name topic: lower-case letters and digits, dashes between.
pub(crate) fn slug(s: &str) -> String {
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

pub(super) fn list(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_owned()
    } else {
        v.join(", ")
    }
}

/// Affected services as `name (criticality)`.
pub(super) fn service_list(br: &BlastRadius) -> Vec<String> {
    br.services_affected
        .iter()
        .map(|s| {
            let crit = s.criticality.as_deref().unwrap_or("unrated");
            if s.down() {
                format!("{} ({crit}, down)", s.name)
            } else {
                format!(
                    "{} ({crit}, degraded: {} of {} endpoints remain)",
                    s.name, s.remaining, s.endpoints
                )
            }
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
    // Without anchors nothing can be called cut off: unknown, never "none".
    let isolated = if br.isolation_unknown {
        "unknown: no device has a border, core, edge or spine role and no external peer is known"
            .to_owned()
    } else {
        list(&br.isolated)
    };
    let mut s = format!(
        "**{NUMBER_LABEL} {}** (removed {} + isolated {})\n\n",
        br.number(),
        br.removed_devices.len(),
        if br.isolation_unknown {
            "unknown".to_owned()
        } else {
            format!("{} devices", br.isolated.len())
        }
    );
    s.push_str("| element | affected |\n|---|---|\n");
    let rows: [(&str, String); 9] = [
        ("Removed devices", list(&br.removed_devices)),
        ("Removed interfaces", list(&br.removed_interfaces)),
        ("Removed links", list(&br.removed_links)),
        ("Isolated devices", isolated),
        (
            "Degraded devices (new single point of failure)",
            list(&br.degraded),
        ),
        ("BGP sessions lost", list(&sessions)),
        ("External peers lost", list(&br.external_peers_lost)),
        (
            "Prefixes withdrawn (held only by removed or cut-off devices)",
            list(&br.prefixes_withdrawn),
        ),
        ("Services affected", list(&services)),
    ];
    for (k, v) in rows {
        let _ = writeln!(s, "| {k} | {} |", crate::output::md_cell(&v));
    }
    let cite = format!(
        "blast radius {} device(s) ({} removed, {} isolated); services hit by removed or cut-off elements: {}",
        br.number(),
        br.removed_devices.len(),
        if br.isolation_unknown {
            "unknown".to_owned()
        } else {
            br.isolated.len().to_string()
        },
        list(&services)
    );
    (s, cite)
}

/// The commands to run before the window; `blast-radius` only when the plan removes
/// something it names (`targets_args` empty otherwise).
pub(super) fn pre_change(targets_args: &str) -> String {
    let what_if = if targets_args.is_empty() {
        String::new()
    } else {
        format!("olav blast-radius {targets_args}\n")
    };
    format!("```sh\nolav precheck {PATH_TOKEN}\nolav verify {PATH_TOKEN}\n{what_if}```")
}

pub(super) fn header(
    intent: &str,
    targets: Vec<Target>,
    f: &Facts,
    ctx: &Ctx<'_>,
    topic: &str,
) -> Header {
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
        understood: ctx.reading.to_owned(),
        what_if: crate::language::what_if(&crate::language::normalise(ctx.request)),
        drafted: String::new(),
        removes: Vec::new(),
    }
}

pub(super) fn os_of<'a>(f: &'a Facts, device: &str) -> &'a str {
    f.devices.get(device).map_or("ios", |d| d.os.as_str())
}

/// The vendor whose dialect configures a device.
pub(super) fn vendor_of(f: &Facts, device: &str) -> Vendor {
    Vendor::from_os(os_of(f, device))
}

/// Drafts a plan for an intent, in the dialect of each device it configures, stamped
/// with the digest of its configuration.
pub fn draft(intent: &Intent, f: &Facts, net: &Network, ctx: &Ctx<'_>) -> Result<Draft, String> {
    let mut d = draft_for(intent, f, net, ctx)?;
    d.plan.header.drafted = d.plan.config_digest();
    Ok(d)
}

fn draft_for(intent: &Intent, f: &Facts, net: &Network, ctx: &Ctx<'_>) -> Result<Draft, String> {
    match intent {
        Intent::AddUplink {
            device,
            peer,
            redundant,
            link,
        } => uplink::add_uplink(device, peer, *redundant, *link, f, net, ctx),
        Intent::AddPeering { device, peer } => uplink::add_peering(device, peer, f, net, ctx),
        Intent::ModifyInterface {
            device,
            interface,
            changes,
        } => interface::modify_interface(device, interface, changes, f, net, ctx),
        Intent::AddStaticRoute {
            device,
            prefix,
            next_hop,
        } => static_route::add(device, *prefix, *next_hop, f, ctx),
        Intent::AddDiscardRoute { device, prefix } => {
            static_route::add_discard(device, *prefix, f, ctx)
        }
        Intent::DecommissionInterfaces { interfaces } => decommission::decommission(
            decommission::Decom {
                removal: Removal {
                    interfaces: interfaces
                        .iter()
                        .filter_map(|(d, i)| net.device(d).map(|x| (x, i.clone())))
                        .collect(),
                    ..Removal::default()
                },
                intent: "decommission_interface",
                targets: interfaces
                    .iter()
                    .map(|(d, i)| Target::Interface {
                        device: d.clone(),
                        interface: i.clone(),
                    })
                    .collect(),
                topic: format!(
                    "decommission-{}",
                    interfaces
                        .iter()
                        .map(|(d, i)| format!("{}-{}", slug(d), slug(i)))
                        .collect::<Vec<_>>()
                        .join("-")
                ),
                title: format!(
                    "Decommission {}",
                    interfaces
                        .iter()
                        .map(|(d, i)| format!("{d} {i}"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
                br_args: interfaces
                    .iter()
                    .map(|(d, i)| format!("--interface {d}:{i}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            },
            f,
            net,
            ctx,
        ),
        Intent::RemoveStaticRoute {
            device,
            prefix,
            next_hop,
        } => static_route::remove(device, *prefix, *next_hop, f, ctx),
        Intent::DecommissionDevice { devices } => decommission::decommission(
            decommission::Decom {
                removal: Removal {
                    devices: devices.iter().filter_map(|d| net.device(d)).collect(),
                    ..Removal::default()
                },
                intent: "decommission_device",
                targets: devices
                    .iter()
                    .map(|d| Target::Device { device: d.clone() })
                    .collect(),
                topic: format!(
                    "decommission-{}",
                    devices
                        .iter()
                        .map(|d| slug(d))
                        .collect::<Vec<_>>()
                        .join("-")
                ),
                title: format!("Decommission {}", devices.join(" and ")),
                br_args: devices
                    .iter()
                    .map(|d| format!("--device {d}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            },
            f,
            net,
            ctx,
        ),
        Intent::DecommissionInterface { device, interface } => decommission::decommission(
            decommission::Decom {
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
            decommission::decommission(
                decommission::Decom {
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
            let addrs: Vec<String> = peer
                .sessions
                .iter()
                .filter(|s| s.0 == *device)
                .map(|s| s.1.clone())
                .collect();
            decommission::decommission(
                decommission::Decom {
                    removal: Removal {
                        sessions: idx.into_iter().collect(),
                        ..Removal::default()
                    },
                    intent: "decommission_peer",
                    targets: addrs
                        .iter()
                        .map(|a| Target::Peer {
                            device: device.clone(),
                            peer: a.clone(),
                            asn: Some(peer.asn),
                            name: Some(peer.name.clone()),
                        })
                        .collect(),
                    topic: format!("remove-peer-{}-{}", slug(&peer.name), slug(device)),
                    title: format!(
                        "Remove the BGP peer {} (AS{}) from {device}",
                        peer.name, peer.asn
                    ),
                    br_args: addrs
                        .iter()
                        .map(|a| format!("--peer {device}:{a}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                },
                f,
                net,
                ctx,
            )
        }
        Intent::RemoveSession {
            device,
            peer,
            peer_device,
            ..
        } => {
            // A session inside the network has two ends: both go, or the far end is
            // left half-open.
            let local_ip = f
                .sessions
                .iter()
                .find(|s| s.hostname == *device && s.peer == *peer)
                .and_then(|s| s.local_ip.clone());
            let ours = net.device(device);
            let mut idx: Vec<usize> = Vec::new();
            let mut targets = Vec::new();
            for (i, s) in net.sessions.iter().enumerate() {
                let near = Some(s.device) == ours && s.peer.to_string() == *peer;
                let far = peer_device.as_deref().is_some_and(|pd| {
                    net.devices[s.device].hostname == pd
                        && ours.is_some()
                        && s.peer_device == ours
                        && local_ip.as_ref().is_none_or(|l| s.peer.to_string() == *l)
                });
                if near || far {
                    idx.push(i);
                    targets.push(Target::Peer {
                        device: net.devices[s.device].hostname.clone(),
                        peer: s.peer.to_string(),
                        asn: s.peer_asn,
                        name: s.description.clone(),
                    });
                }
            }
            let br_args = targets
                .iter()
                .filter_map(|t| match t {
                    Target::Peer { device, peer, .. } => Some(format!("--peer {device}:{peer}")),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" ");
            decommission::decommission(
                decommission::Decom {
                    removal: Removal {
                        sessions: idx.into_iter().collect(),
                        ..Removal::default()
                    },
                    intent: "remove_session",
                    targets,
                    topic: format!("remove-session-{}-{}", slug(device), slug(peer)),
                    title: format!(
                        "Remove the BGP session {device} → {peer}{}",
                        peer_device
                            .as_ref()
                            .map(|d| format!(" ({d})"))
                            .unwrap_or_default()
                    ),
                    br_args,
                },
                f,
                net,
                ctx,
            )
        }
    }
}

pub(super) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
