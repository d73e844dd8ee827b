//! Static routes, added or removed. A removal's rollback is the route's own stored line.

use super::{blast_section, capitalise, header, is_junos, os_of, pre_change, slug, Ctx, Draft};
use crate::agents::analyzer::facts::Facts;
use crate::dialect::junos;
use crate::dialect::running::Running;
use crate::import::parse::parser_for;
use crate::model::Vendor;
use crate::plan::{ConfigBlock, Plan, Target};
use crate::topology::BlastRadius;
use ipnet::IpNet;
use std::fmt::Write as _;
use std::net::IpAddr;

fn route_line(os: &str, prefix: IpNet, next_hop: IpAddr) -> String {
    match (os, prefix) {
        ("ios", IpNet::V4(p)) => format!("ip route {} {} {next_hop}", p.network(), p.netmask()),
        _ => format!("ip route {prefix} {next_hop}"),
    }
}

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
        verification: if is_junos(os) {
            format!(
                "On {}:\n\n```\nshow route {} exact\n```",
                r.device, r.prefix
            )
        } else {
            format!(
                "On {}:\n\n```\nshow ip route {}\n```",
                r.device,
                r.prefix.network()
            )
        },
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
    let (route, rollback) = if is_junos(os) {
        let st = junos::Stored::new(&ctx.running(device)?);
        let at = junos::path(&["routing-options", "static", "route", &prefix.to_string()]);
        let hop = junos::path(&["next-hop", &next_hop.to_string()]);
        let with_hop: Vec<String> = at.iter().chain(&hop).cloned().collect();
        // Another next hop to the prefix stays when this one is rolled back.
        let undo = if st.route_paths(&prefix.to_string(), None).is_empty() {
            junos::delete(&at)
        } else {
            junos::delete(&with_hop)
        };
        (junos::set(&with_hop), undo)
    } else {
        let r = route_line(os, prefix, next_hop);
        (r.clone(), format!("no {r}"))
    };
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
    let parsed = parser_for(Vendor::from_os(os)).parse(&text);
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
    if is_junos(os) {
        let hops = parsed
            .static_routes
            .iter()
            .filter(|r| r.prefix == prefix && r.vrf == route.vrf)
            .count();
        let (implementation, rollback, at) =
            junos_removal(&junos::Stored::new(&text), route, hops, device)?;
        return Ok(plan(
            RoutePlan {
                device,
                intent: "remove_static_route",
                title: format!("Remove the static route to {prefix} via {via} on {device}"),
                topic: format!("remove-route-{}-{}", slug(device), slug(&prefix.to_string())),
                implementation,
                rollback,
                scope: format!("- Device: {device} ({os})\n- Route: {at} (line {} of the stored config)", route.line),
                risks: vec![format!(
                    "Traffic to {prefix} on {device} follows the next-best route once this one is gone, or is dropped if there is none."
                )],
                prefix,
            },
            f,
            ctx,
        ));
    }
    let stored = Running::new(&text).line_with_context(route.line);
    let Some(line) = stored.last() else {
        return Err(format!(
            "the stored line of the route to {prefix} on {device} cannot be found"
        ));
    };
    let implementation = stored
        .iter()
        .map(|l| {
            if l == line {
                let ind = &l[..l.len() - l.trim_start().len()];
                format!("{ind}no {}", l.trim())
            } else {
                l.clone()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    Ok(plan(
        RoutePlan {
            device,
            intent: "remove_static_route",
            title: format!("Remove the static route to {prefix} via {via} on {device}"),
            topic: format!("remove-route-{}-{}", slug(device), slug(&prefix.to_string())),
            implementation,
            rollback: stored.join("\n"),
            scope: format!(
                "- Device: {device} ({os})\n- Route: {} (line {} of the stored config)",
                line.trim(),
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

/// A Junos route removal: the whole route when it has one next hop, else that next hop
/// alone; the rollback is the stored statements of what goes. Returns the lines, the
/// rollback and the route's path.
fn junos_removal(
    st: &junos::Stored,
    route: &crate::model::StaticRoute,
    hops: usize,
    device: &str,
) -> Result<(String, String, String), String> {
    let prefix = route.prefix.to_string();
    let paths = st.route_paths(&prefix, route.vrf.as_deref());
    let [at] = paths.as_slice() else {
        return Err(format!(
            "the stored configuration of {device} configures the route to {prefix} in {} places; a faithful rollback cannot be written",
            paths.len()
        ));
    };
    let what = if hops <= 1 {
        at.clone()
    } else {
        let hop = route.next_hop.map(|n| n.to_string()).ok_or_else(|| {
            format!("the route to {prefix} on {device} has several next hops; name the next-hop address to remove")
        })?;
        // `next-hop [ A B ]` is one statement: deleting A alone cannot be written as a
        // path, and deleting the statement would take B too.
        if st.lines_under(at).iter().any(|l| l.contains('[')) {
            return Err(format!(
                "the next hops of the route to {prefix} on {device} are configured as one list; olav cannot remove one of them faithfully — edit the list by hand"
            ));
        }
        let sub = ["next-hop", "qualified-next-hop"]
            .iter()
            .map(|k| {
                at.iter()
                    .cloned()
                    .chain(junos::path(&[k, &hop]))
                    .collect::<Vec<_>>()
            })
            .find(|p| st.has(p))
            .ok_or_else(|| {
                format!("the stored configuration of {device} has no next hop {hop} for {prefix}")
            })?;
        sub
    };
    Ok((
        junos::delete(&what),
        st.lines_under(&what).join("\n"),
        junos::set(at).trim_start_matches("set ").to_owned(),
    ))
}
