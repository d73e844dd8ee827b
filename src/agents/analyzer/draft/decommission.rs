//! Removals: devices, interfaces, links, a provider's sessions, one session. What the
//! neighbours must change is drafted; each rollback restores the stored lines.

use super::{
    blast_section, capitalise, header, list, os_of, pre_change, service_list, vendor_of, Ctx, Draft,
};
use crate::agents::analyzer::facts::Facts;
use crate::dialect::{self, junos, Change, Lines, Show};
use crate::model::Vendor;
use crate::plan::{ConfigBlock, Plan, Target};
use crate::topology::{Network, Removal};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// What a decommission removes, and how its plan is named.
pub struct Decom {
    /// The elements removed.
    pub removal: Removal,
    /// Intent name for the plan header.
    pub intent: &'static str,
    /// Plan targets.
    pub targets: Vec<Target>,
    /// File-name topic.
    pub topic: String,
    /// Plan title.
    pub title: String,
    /// The `olav blast-radius` arguments naming the same removal.
    pub br_args: String,
}

/// How many units the port of a Junos interface has (0 on other devices: only Junos
/// shuts a port by its units, and reading every neighbour's interfaces cost a 50,000-device
/// decommission a tenth of its draft).
fn units(f: &Facts, device: &str, interface: &str) -> usize {
    if !crate::dialect::is_junos(vendor_of(f, device)) {
        return 0;
    }
    let prefix = format!("{}.", junos::port_of(interface));
    f.interfaces.get(device).map_or(0, |v| {
        v.iter().filter(|i| i.name.starts_with(&prefix)).count()
    })
}

/// Adds a change's lines to a device's implementation and rollback.
fn push(e: &mut (String, String), l: &Lines) {
    for x in &l.apply {
        e.0.push_str(x);
        e.0.push('\n');
    }
    for x in &l.rollback {
        e.1.push_str(x);
        e.1.push('\n');
    }
}

/// Drafts a removal.
pub fn decommission(d: Decom, f: &Facts, net: &Network, ctx: &Ctx<'_>) -> Result<Draft, String> {
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
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut stored = |dev: &str| -> Result<String, String> {
        if let Some(t) = texts.get(dev) {
            return Ok(t.clone());
        }
        let t = ctx.running(dev)?;
        texts.insert(dev.to_owned(), t.clone());
        Ok(t)
    };
    let mut touched_ifs: Vec<(String, String)> = Vec::new();
    // The devices where an interface is shut, and where a BGP neighbor goes.
    let mut shut: BTreeSet<String> = BTreeSet::new();
    let mut unpeered: BTreeSet<String> = BTreeSet::new();
    for &li in &r.links {
        let l = &net.links[li];
        for (side, other) in [(&l.a, &l.b), (&l.b, &l.a)] {
            let dev = &net.devices[side.0].hostname;
            // A removed device is powered off and an isolated one is out of reach: neither is reconfigured.
            if r.devices.contains(&side.0) || isolated.contains(&side.0) {
                continue;
            }
            touched_ifs.push((dev.clone(), side.1.clone()));
            let text = stored(dev)?;
            let why = format!(
                "DECOMMISSIONED - was {} {}",
                net.devices[other.0].hostname, other.1
            );
            let change = Change::ShutForDecommission {
                name: &side.1,
                description: &why,
                units: units(f, dev, &side.1),
            };
            let l = dialect::render(vendor_of(f, dev), dev, &text, &change)?;
            push(implementation.entry(dev.clone()).or_default(), &l);
            shut.insert(dev.clone());
        }
    }
    for &(d, ref ifn) in &r.interfaces {
        let dev = &net.devices[d].hostname;
        if touched_ifs.iter().any(|(x, y)| x == dev && y == ifn) {
            continue;
        }
        let text = stored(dev)?;
        let change = Change::ShutForDecommission {
            name: ifn,
            description: "DECOMMISSIONED",
            units: units(f, dev, ifn),
        };
        let l = dialect::render(vendor_of(f, dev), dev, &text, &change)?;
        push(implementation.entry(dev.clone()).or_default(), &l);
        shut.insert(dev.clone());
    }
    for &si in &r.sessions {
        let s = &net.sessions[si];
        if r.devices.contains(&s.device) {
            continue;
        }
        let dev = &net.devices[s.device].hostname;
        let Some(local_as) = f.devices.get(dev).and_then(|d| d.asn) else {
            continue;
        };
        let text = stored(dev)?;
        let change = Change::RemoveNeighbor {
            peer: &s.peer.to_string(),
            vrf: &s.vrf,
            local_as,
        };
        let l = dialect::render(vendor_of(f, dev), dev, &text, &change)?;
        push(implementation.entry(dev.clone()).or_default(), &l);
        unpeered.insert(dev.clone());
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
    let sessions: Vec<String> = br
        .sessions_lost
        .iter()
        .map(|s| format!("{} → {}", s.hostname, s.peer))
        .collect();
    let services = service_list(&br);
    // Only what applies: a row per kind of element the removal touches.
    for (label, v) in [
        ("Removed devices", &removed_devices),
        ("Links that go with it", &hanging),
        ("BGP sessions that go with it", &sessions),
        ("Devices cut off behind it", &br.isolated),
        ("Services affected", &services),
    ] {
        if !v.is_empty() {
            let _ = writeln!(scope, "- {label}: {}", v.join(", "));
        }
    }
    if scope.is_empty() {
        scope.push_str("- Nothing else goes with it.\n");
    }
    let mut steps = String::from("Ordered steps:\n\n");
    let mut n = 0;
    let mut step = |text: String| {
        n += 1;
        let _ = writeln!(steps, "{n}. {text}");
    };
    if !services.is_empty() {
        step(format!(
            "**Drain.** Move the affected services first ({}).",
            services.join(", ")
        ));
    }
    for d in &removed_devices {
        let ospf = f.ospf.contains(d);
        let bgp = f.devices.get(d).is_some_and(|x| x.asn.is_some());
        let ospf_drain = dialect::ospf_drain(vendor_of(f, d));
        let what = match (ospf, bgp) {
            (true, true) => format!("set {ospf_drain} and shut its BGP sessions"),
            (true, false) => format!("set {ospf_drain}"),
            (false, true) => "shut its BGP sessions".to_owned(),
            (false, false) => continue,
        };
        step(format!(
            "**Drain routing.** On {d}, {what}; wait for traffic to move."
        ));
    }
    if !implementation_blocks.is_empty() {
        step(format!(
            "**Apply the configuration** in Implementation ({}).",
            implementation_blocks
                .iter()
                .map(|b| b.device.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !removed_devices.is_empty() {
        step(format!(
            "**Power off and unrack** {}.",
            removed_devices.join(", ")
        ));
        step(format!("**Update the source of truth**: set {} to status `offline` in the inventory / state.yaml and re-import the snapshot.", removed_devices.join(", ")));
    } else {
        step("**Re-import the snapshot** once the change is made, so the state DB matches the network.".to_owned());
    }
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
    for s in br.services_affected.iter().filter(|s| s.down()) {
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
    let external: Vec<String> = br
        .sessions_lost
        .iter()
        .filter(|s| s.peer_asn.is_some() && !r.sessions.is_empty())
        .filter(|s| {
            net.sessions
                .iter()
                .any(|x| x.peer.to_string() == s.peer && x.peer_device.is_none())
        })
        .map(|s| format!("{} → {}", s.hostname, s.peer))
        .collect();
    if !external.is_empty() {
        let _ = writeln!(
            risks,
            "- Sessions to external peers end ({}): what the internet stops hearing is evaluated by the pre-check, through each provider's outbound policy (\"What the internet sees\").",
            external.join(", ")
        );
    }
    let mut verification = String::from("After the change:\n");
    for b in &implementation_blocks {
        let mut cmds: Vec<String> = Vec::new();
        let vendor = Vendor::from_os(&b.os);
        if unpeered.contains(&b.device) {
            cmds.extend(dialect::show(vendor, Show::BgpSummary));
        }
        if shut.contains(&b.device) {
            cmds.extend(dialect::show(vendor, Show::Interfaces));
            cmds.extend(
                texts
                    .get(&b.device)
                    .map(|t| dialect::igp_checks(t))
                    .unwrap_or_default()
                    .into_iter()
                    .map(str::to_owned),
            );
        }
        let _ = write!(
            verification,
            "\nOn {}:\n\n```\n{}\n```\n",
            b.device,
            cmds.join("\n")
        );
    }
    let touches_interfaces = !shut.is_empty();
    let _ = write!(
        verification,
        "\nExpect no adjacency or session to {}{}.",
        if !removed_devices.is_empty() {
            removed_devices.join(", ")
        } else if !hanging.is_empty() {
            hanging.join(", ")
        } else {
            list(&sessions)
        },
        if touches_interfaces {
            " and the facing interfaces administratively down"
        } else {
            ""
        }
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
            // Without anchors what is cut off, and the prefixes only it holds, are
            // unknown: never "none" and "0".
            if br.isolation_unknown {
                format!(
                    "  isolated unknown · degraded {} · sessions lost {} · prefixes withdrawn {} or more (held only by removed devices; the pre-check lists the routes lost)",
                    list(&br.degraded),
                    br.sessions_lost.len(),
                    br.prefixes_withdrawn.len()
                )
            } else {
                format!(
                    "  isolated {} · degraded {} · sessions lost {} · prefixes withdrawn {}",
                    list(&br.isolated),
                    list(&br.degraded),
                    br.sessions_lost.len(),
                    br.prefixes_withdrawn.len()
                )
            },
        ],
        plan,
    })
}
