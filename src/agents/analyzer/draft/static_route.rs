//! Static routes, added or removed. A removal's rollback is the route's own stored line.

use super::{blast_section, capitalise, header, os_of, pre_change, slug, vendor_of, Ctx, Draft};
use crate::agents::analyzer::facts::Facts;
use crate::dialect::{self, is_junos, Change, Show};
use crate::import::parse::parser_for;
use crate::plan::{ConfigBlock, Plan, Target};
use crate::topology::BlastRadius;
use ipnet::IpNet;
use std::fmt::Write as _;
use std::net::IpAddr;

struct RoutePlan<'a> {
    device: &'a str,
    intent: &'static str,
    title: String,
    topic: String,
    implementation: String,
    rollback: String,
    scope: String,
    risks: Vec<String>,
    prefix: IpNet,
}

fn plan(r: RoutePlan<'_>, f: &Facts, ctx: &Ctx<'_>) -> Draft {
    let os = os_of(f, r.device);
    let (blast, cite) = blast_section(&BlastRadius::default());
    let mut risks = format!("- {}.\n", capitalise(&cite));
    for l in &r.risks {
        let _ = writeln!(risks, "- {l}");
    }
    let plan = Plan {
        header: header(
            r.intent,
            vec![Target::Device {
                device: r.device.to_owned(),
            }],
            f,
            ctx,
            &r.topic,
        ),
        title: r.title.clone(),
        summary: format!("{}.\n\n{}.", r.title, capitalise(&cite)),
        scope: r.scope,
        implementation_notes: String::new(),
        implementation: vec![ConfigBlock {
            device: r.device.to_owned(),
            os: os.to_owned(),
            text: r.implementation,
        }],
        rollback: vec![ConfigBlock {
            device: r.device.to_owned(),
            os: os.to_owned(),
            text: r.rollback,
        }],
        verification: format!(
            "On {}:\n\n```\n{}\n```",
            r.device,
            dialect::show(vendor_of(f, r.device), Show::Route(r.prefix)).join("\n")
        ),
        blast_radius: blast,
        claimed_blast_radius: Some(0),
        risks,
        pre_change: pre_change(""),
    };
    Draft {
        topic: r.topic,
        summary: vec![format!("Drafted: {}", r.title)],
        plan,
    }
}

/// Adds a static route.
pub fn add(
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
    let vendor = vendor_of(f, device);
    // Only the Junos dialect reads the stored config for an added route (another next
    // hop to the prefix); the others need none.
    let text = if is_junos(vendor) {
        ctx.running(device)?
    } else {
        String::new()
    };
    let (route, rollback) = dialect::render(
        vendor,
        device,
        &text,
        &Change::AddStaticRoute { prefix, next_hop },
    )?
    .texts();
    let mut risks = vec![
        "A static route overrides dynamic routes with a higher administrative distance.".to_owned(),
    ];
    if !connected {
        risks.push(format!(
            "{next_hop} is not in a subnet connected to {device}: the route resolves recursively."
        ));
    }
    Ok(plan(
        RoutePlan {
            device,
            intent: "add_static_route",
            title: format!("Add a static route to {prefix} via {next_hop} on {device}"),
            topic: format!(
                "static-route-{}-{}",
                slug(device),
                slug(&prefix.to_string())
            ),
            rollback,
            implementation: route,
            scope: format!(
                "- Device: {device} ({os})\n- Next hop {next_hop}: {}",
                if connected {
                    "directly connected"
                } else {
                    "not directly connected"
                }
            ),
            risks,
            prefix,
        },
        f,
        ctx,
    ))
}

/// Adds a static route to discard (Null0, Junos `discard`).
pub fn add_discard(device: &str, prefix: IpNet, f: &Facts, ctx: &Ctx<'_>) -> Result<Draft, String> {
    let os = os_of(f, device);
    let vendor = vendor_of(f, device);
    // The Junos dialect reads the stored config: a prefix already routed is not replaced.
    let text = if is_junos(vendor) {
        ctx.running(device)?
    } else {
        String::new()
    };
    let (implementation, rollback) =
        dialect::render(vendor, device, &text, &Change::AddDiscardRoute { prefix })?.texts();
    Ok(plan(
        RoutePlan {
            device,
            intent: "add_static_route",
            title: format!("Add a static route to {prefix} to discard (Null0) on {device}"),
            topic: format!(
                "discard-route-{}-{}",
                slug(device),
                slug(&prefix.to_string())
            ),
            implementation,
            rollback,
            scope: format!("- Device: {device} ({os})\n- Next hop: discard (Null0)"),
            risks: vec![
                format!("Traffic to {prefix} that matches no longer route is dropped on {device}."),
                "A discard route redistributed into BGP or OSPF attracts the traffic of the whole prefix to this device.".to_owned(),
            ],
            prefix,
        },
        f,
        ctx,
    ))
}

/// Removes a static route; the rollback is its stored line, with any VRF context.
pub fn remove(
    device: &str,
    prefix: IpNet,
    next_hop: Option<IpAddr>,
    f: &Facts,
    ctx: &Ctx<'_>,
) -> Result<Draft, String> {
    let os = os_of(f, device);
    let text = ctx.running(device)?;
    let vendor = vendor_of(f, device);
    let parsed = parser_for(vendor).parse(&text);
    let routes: Vec<_> = parsed
        .static_routes
        .iter()
        .filter(|r| r.prefix == prefix && next_hop.is_none_or(|n| r.next_hop == Some(n)))
        .collect();
    let [route] = routes.as_slice() else {
        return Err(format!(
            "{device} has {} static routes to {prefix}{}; name exactly one",
            routes.len(),
            next_hop.map(|n| format!(" via {n}")).unwrap_or_default()
        ));
    };
    let via = route
        .next_hop
        .map(|n| n.to_string())
        .or(route.next_hop_interface.clone())
        .unwrap_or_default();
    let hops = parsed
        .static_routes
        .iter()
        .filter(|r| r.prefix == prefix && r.vrf == route.vrf)
        .count();
    let lines = dialect::render(
        vendor,
        device,
        &text,
        &Change::RemoveStaticRoute { route, hops },
    )?;
    let (implementation, rollback) = lines.texts();
    Ok(plan(
        RoutePlan {
            device,
            intent: "remove_static_route",
            title: format!("Remove the static route to {prefix} via {via} on {device}"),
            topic: format!("remove-route-{}-{}", slug(device), slug(&prefix.to_string())),
            implementation,
            rollback,
            scope: format!(
                "- Device: {device} ({os})\n- Route: {} (line {} of the stored config)",
                lines.at.unwrap_or_default(),
                route.line
            ),
            risks: vec![format!(
                "Traffic to {prefix} on {device} follows the next-best route once this one is gone, or is dropped if there is none."
            )],
            prefix,
        },
        f,
        ctx,
    ))
}
