//! Interface changes: shutdown / no shutdown, description, MTU, primary address. The
//! rollback restores each changed attribute to the line the stored config has.

use super::{
    blast_section, capitalise, header, list, os_of, pre_change, slug, vendor_of, Ctx, Draft,
};
use crate::agents::analyzer::facts::{Facts, Iface};
use crate::dialect::{self, is_junos, junos, Change, IfChange, Show};
use crate::plan::{ConfigBlock, Plan, Target};
use crate::topology::{BlastRadius, Network, Removal};
use std::fmt::Write as _;

/// Why a change would change nothing (or cannot be made on any vendor), if so.
fn refused(c: &IfChange, current: &Iface, device: &str, interface: &str) -> Option<String> {
    match c {
        IfChange::Mtu(m) if current.mtu == Some(*m) => {
            Some(format!("{device} {interface} already has MTU {m}"))
        }
        IfChange::Shutdown if current.admin_state == "down" => {
            Some(format!("{device} {interface} is already shut down"))
        }
        IfChange::NoShutdown if current.admin_state != "down" => {
            Some(format!("{device} {interface} is already up (no shutdown)"))
        }
        IfChange::Address(a) if current.addresses.first() == Some(a) => {
            Some(format!("{device} {interface} already has the address {a}"))
        }
        _ => None,
    }
}

/// IGP adjacency checks after a change that can disturb them on a linked interface.
fn igp_after(current: &Iface, changes: &[IfChange], text: &str) -> String {
    if current.linked
        && changes.iter().any(|c| {
            matches!(
                c,
                IfChange::Mtu(_) | IfChange::Address(_) | IfChange::NoShutdown
            )
        })
    {
        dialect::igp_checks(text)
            .iter()
            .map(|c| format!("\n{c}"))
            .collect()
    } else {
        String::new()
    }
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
    let current = f
        .interfaces
        .get(device)
        .and_then(|v| v.iter().find(|x| x.name == interface))
        .ok_or_else(|| format!("{device} has no interface {interface}"))?;
    let text = ctx.running(device)?;
    if let Some(why) = changes
        .iter()
        .find_map(|c| refused(c, current, device, interface))
    {
        return Err(why);
    }
    let what: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
    let vendor = vendor_of(f, device);
    // The address an address change replaces: a Junos port keeps its on unit 0.
    let replaced = if is_junos(vendor) && junos::port_of(interface) == interface {
        f.interfaces
            .get(device)
            .and_then(|v| v.iter().find(|i| i.name == format!("{interface}.0")))
            .and_then(|u| u.addresses.first().copied())
    } else {
        current.addresses.first().copied()
    };
    let change = Change::Interface {
        name: interface,
        changes,
        switchport: current.switchport_mode.as_deref(),
        replaced,
    };
    let (cfg, rb) = dialect::render(vendor, device, &text, &change)?.texts();
    let verification = format!(
        "On {device}:\n\n```\n{}{}\n```",
        dialect::show(vendor, Show::Interface(interface)).join("\n"),
        igp_after(current, changes, &text)
    );

    // Links whose far end would no longer share a subnet with the new address.
    let new_addr = changes.iter().find_map(|c| match c {
        IfChange::Address(a) => Some(*a),
        _ => None,
    });
    let mut broken: Vec<String> = Vec::new();
    let mut broken_links = std::collections::BTreeSet::new();
    if let (Some(new), Some(d)) = (new_addr, net.device(device)) {
        for (li, l) in net.links.iter().enumerate() {
            let far = if l.a.0 == d && crate::ifname::same(&l.a.1, interface) {
                &l.b
            } else if l.b.0 == d && crate::ifname::same(&l.b.1, interface) {
                &l.a
            } else {
                continue;
            };
            let far_dev = &net.devices[far.0].hostname;
            let far_addrs: Vec<ipnet::IpNet> = f
                .interfaces
                .get(far_dev)
                .and_then(|v| v.iter().find(|x| x.name == far.1))
                .map(|x| x.addresses.clone())
                .unwrap_or_default();
            if !far_addrs.is_empty() && !far_addrs.iter().any(|x| x.trunc() == new.trunc()) {
                broken_links.insert(li);
                broken.push(format!(
                    "{far_dev} {} ({}) keeps its address: the link to it is lost",
                    far.1,
                    far_addrs
                        .iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    // Shutting an interface, or breaking its links, removes them: quote that blast radius.
    let shut = changes.contains(&IfChange::Shutdown);
    let br = if shut || !broken_links.is_empty() {
        net.blast_radius(&Removal {
            interfaces: if shut {
                net.device(device)
                    .map(|d| (d, interface.to_owned()))
                    .into_iter()
                    .collect()
            } else {
                Default::default()
            },
            links: broken_links,
            ..Removal::default()
        })
    } else {
        BlastRadius::default()
    };
    // A new address moves the interface out of its old subnet: where no other
    // interface has that subnet, its hosts lose their gateway, and the services there
    // are hit (declared here; the pre-check recomputes them and fails a plan that omits
    // them).
    let mut br = br;
    let mut left_behind = Vec::new();
    if let (Some(new), Some(d)) = (new_addr, net.device(device)) {
        let (left, hit) = net.readdressed(d, interface, new);
        for h in hit {
            match br.services_affected.iter_mut().find(|x| x.name == h.name) {
                Some(x) => x.remaining = x.remaining.min(h.remaining),
                None => br.services_affected.push(h),
            }
        }
        br.services_affected.sort_by(|a, b| a.name.cmp(&b.name));
        left_behind = left;
    }
    let (blast, cite) = blast_section(&br);
    let title = format!("Change {device} {interface}: {}", what.join(", "));
    let topic = format!("modify-{}-{}", slug(device), slug(interface));
    let mut risks = format!("- {}.\n", capitalise(&cite));
    if changes.iter().any(|c| matches!(c, IfChange::Mtu(_))) && current.linked {
        let _ = writeln!(risks, "- An MTU change on a link must match the far end, or packets larger than the smaller MTU are dropped (and an OSPF adjacency over it stays in EXSTART).");
    }
    for b in &broken {
        let _ = writeln!(risks, "- {b}, with everything behind it (counted in the blast radius). Change the far end in the same window, or the pre-check fails this plan.");
    }
    for (s, kept) in &left_behind {
        match kept {
            None => {
                let _ = writeln!(risks, "- {device} {interface} leaves {s}, which no other interface has: hosts there lose their gateway until they are re-addressed (services in it are counted in the blast radius).");
            }
            Some(k) => {
                let _ = writeln!(risks, "- {device} {interface} narrows {s} to {k}: hosts outside {k} lose their gateway until they are re-addressed (services there are counted in the blast radius).");
            }
        }
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
            list(&shown_addresses(f, device, current)),
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
            text: cfg,
        }],
        rollback: vec![ConfigBlock {
            device: device.to_owned(),
            os: os.to_owned(),
            text: rb,
        }],
        verification,
        blast_radius: blast,
        claimed_blast_radius: Some(br.number() as u32),
        risks,
        pre_change: pre_change(&if shut {
            format!("--interface {device}:{interface}")
        } else {
            String::new()
        }),
    };
    Ok(Draft {
        topic,
        summary: vec![format!("Drafted: {title}"), format!("  {cite}")],
        plan,
    })
}

/// The addresses to show for a port: its own, or on a Junos port, those of its unit 0
/// (where Junos puts a port's address), marked as such.
fn shown_addresses(f: &Facts, device: &str, current: &Iface) -> Vec<String> {
    let own: Vec<String> = current.addresses.iter().map(|a| a.to_string()).collect();
    if !own.is_empty() {
        return own;
    }
    let unit0 = format!("{}.0", current.name);
    f.interfaces
        .get(device)
        .and_then(|v| v.iter().find(|x| x.name == unit0))
        .map(|u| {
            u.addresses
                .iter()
                .map(|a| format!("{a} on unit {unit0}"))
                .collect()
        })
        .unwrap_or_default()
}
