//! Interface changes: shutdown / no shutdown, description, MTU, primary address. The
//! rollback restores each changed attribute to the line the stored config has.

use super::{
    addr_line, blast_section, capitalise, header, ind, list, os_of, pre_change, slug, Ctx, Draft,
};
use crate::agents::analyzer::facts::Facts;
use crate::agents::analyzer::intent::IfChange;
use crate::agents::analyzer::running::Running;
use crate::plan::{ConfigBlock, Plan, Target};
use crate::topology::{BlastRadius, Network, Removal};
use std::fmt::Write as _;

/// The stored line of the stanza that starts with `key`, trimmed.
fn stored<'a>(stanza: &'a [String], key: &str) -> Option<&'a str> {
    stanza
        .iter()
        .skip(1)
        .map(|l| l.trim())
        .find(|l| *l == key || l.starts_with(&format!("{key} ")))
}

/// Drafts an interface change.
pub fn modify_interface(
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
    let text = ctx.running(device)?;
    let stanza = Running::new(&text).interface(interface);
    let mut cfg = format!("interface {interface}\n");
    let mut rb = format!("interface {interface}\n");
    let mut what = Vec::new();
    for c in changes {
        match c {
            IfChange::Description(d) => {
                let _ = writeln!(cfg, "{i}description {d}");
                let _ = writeln!(
                    rb,
                    "{i}{}",
                    stored(&stanza, "description").unwrap_or("no description")
                );
            }
            IfChange::NoDescription => {
                let Some(old) = stored(&stanza, "description") else {
                    return Err(format!(
                        "{device} {interface} has no description: nothing to remove"
                    ));
                };
                let _ = writeln!(cfg, "{i}no description");
                let _ = writeln!(rb, "{i}{old}");
            }
            IfChange::Mtu(m) => {
                if current.mtu == Some(*m) {
                    return Err(format!("{device} {interface} already has MTU {m}"));
                }
                let _ = writeln!(cfg, "{i}mtu {m}");
                let _ = writeln!(rb, "{i}{}", stored(&stanza, "mtu").unwrap_or("no mtu"));
            }
            IfChange::Shutdown => {
                if current.admin_state == "down" {
                    return Err(format!("{device} {interface} is already shut down"));
                }
                let _ = writeln!(cfg, "{i}shutdown");
                let _ = writeln!(rb, "{i}no shutdown");
            }
            IfChange::NoShutdown => {
                if current.admin_state != "down" {
                    return Err(format!("{device} {interface} is already up (no shutdown)"));
                }
                let _ = writeln!(cfg, "{i}no shutdown");
                let _ = writeln!(rb, "{i}shutdown");
            }
            IfChange::Address(a) => {
                if let Some(mode) = &current.switchport_mode {
                    return Err(format!(
                        "{device} {interface} is a switched port ({mode}{}); olav cannot plan converting it to a routed port yet — it would drop the VLANs it carries",
                        stored(&stanza, "switchport access vlan")
                            .or(stored(&stanza, "switchport trunk allowed vlan"))
                            .map(|l| format!(", {l}"))
                            .unwrap_or_default()
                    ));
                }
                if current.addresses.first() == Some(a) {
                    return Err(format!("{device} {interface} already has the address {a}"));
                }
                let _ = writeln!(cfg, "{i}{}", addr_line(os, *a));
                let primary = stanza.iter().skip(1).map(|l| l.trim()).find(|l| {
                    l.starts_with("ip address ")
                        && !l.ends_with(" secondary")
                        && !l.contains(" virtual ")
                });
                let _ = writeln!(rb, "{i}{}", primary.unwrap_or("no ip address"));
            }
        }
        what.push(c.to_string());
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
    let title = format!("Change {device} {interface}: {}", what.join(", "));
    let topic = format!("modify-{}-{}", slug(device), slug(interface));
    let mut risks = format!("- {}.\n", capitalise(&cite));
    if changes.iter().any(|c| matches!(c, IfChange::Mtu(_))) && current.linked {
        let _ = writeln!(risks, "- An MTU change on a link must match the far end, or OSPF adjacencies stay in EXSTART and large packets are dropped.");
    }
    if changes.iter().any(|c| matches!(c, IfChange::Address(_))) && current.linked {
        let _ = writeln!(risks, "- {interface} has a link: the far end must move to the same subnet, or the link and everything behind it is lost.");
    }
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
        summary: format!(
            "{title}.\n\nCurrent: description {}, admin {}, MTU {}, addresses {}.\n\n{}.",
            current.description.as_deref().unwrap_or("-"),
            current.admin_state,
            current.mtu.map_or("default".into(), |m| m.to_string()),
            list(&current.addresses.iter().map(|a| a.to_string()).collect::<Vec<_>>()),
            capitalise(&cite)
        ),
        scope: format!(
            "- Device: {device} ({os})\n- Interface: {interface}{}",
            if current.linked { " (has a link)" } else { "" }
        ),
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
        verification: format!(
            "On {device}:\n\n```\nshow running-config interface {interface}\nshow interfaces {interface}\n```"
        ),
        blast_radius: blast,
        claimed_blast_radius: Some(br.number() as u32),
        risks,
        pre_change: pre_change(&format!("--interface {device}:{interface}")),
    };
    Ok(Draft {
        topic,
        summary: vec![format!("Drafted: {title}"), format!("  {cite}")],
        plan,
    })
}
