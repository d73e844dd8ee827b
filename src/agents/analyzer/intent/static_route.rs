//! A static route added or removed.

use super::mentions::has_word;
use super::{clarify, Intent, Resolution};
use crate::agents::analyzer::facts::{Facts, Route};
use ipnet::IpNet;
use std::net::IpAddr;

/// Next hops that discard: `Null0`, Junos `discard` / `reject`.
const DISCARD: &[&str] = &["null0", "null", "discard", "reject", "blackhole"];

/// Static routes: `<prefix> via <next hop>` (or to discard), added or removed. `verb`: the
/// request says what to do (else an existing route is asked about, not added again).
pub(super) fn resolve_static_route(
    toks: &[String],
    lower: &str,
    devs: &[String],
    removal: bool,
    verb: bool,
    facts: &Facts,
) -> Option<Resolution> {
    let discard = toks
        .iter()
        .any(|t| DISCARD.contains(&t.to_ascii_lowercase().as_str()));
    let prefix = toks
        .iter()
        .find_map(|t| t.parse::<IpNet>().ok().filter(|_| t.contains('/')))
        .or_else(|| {
            (lower.contains("default route") || lower.contains("default gateway route"))
                .then(|| "0.0.0.0/0".parse().ok())
                .flatten()
        });
    let routed = has_word(toks, lower, &["route"])
        || (discard && prefix.is_some())
        || (has_word(toks, lower, &["static"]) && prefix.is_some());
    if !routed {
        return None;
    }
    // Details olav does not draft are refused, never dropped: a "floating" route drafted
    // at distance 1 would override the routes it was meant to back up.
    if has_word(
        toks,
        lower,
        &[
            "distance",
            "floating",
            "tag",
            "track",
            "tracked",
            "name",
            "named",
            "permanent",
            "metric",
            "preference",
        ],
    ) {
        return Some(Resolution::Refuse {
            what: "a static route with an administrative distance, tag, tracking or name (olav drafts plain static routes only)".to_owned(),
        });
    }
    // A prefix with host bits set is asked about, not silently truncated.
    if let Some(p) = toks
        .iter()
        .filter(|t| t.contains('/'))
        .filter_map(|t| t.parse::<IpNet>().ok())
        .find(|p| p.trunc() != *p)
    {
        return Some(clarify(
            format!("{p} has host bits set. Did you mean {}?", p.trunc()),
            vec![p.trunc().to_string()],
        ));
    }
    // One plan is one change: a second prefix or next hop is never dropped silently.
    let mut prefixes: Vec<IpNet> = Vec::new();
    for p in toks
        .iter()
        .filter(|t| t.contains('/'))
        .filter_map(|t| t.parse::<IpNet>().ok())
    {
        if !prefixes.contains(&p.trunc()) {
            prefixes.push(p.trunc());
        }
    }
    if prefixes.len() > 1 {
        return Some(clarify(
            "The request names more than one route; a plan is one change. Which one?",
            prefixes.iter().map(ToString::to_string).collect(),
        ));
    }
    let mut hops: Vec<IpAddr> = Vec::new();
    for h in toks
        .iter()
        .filter(|t| !t.contains('/'))
        .filter_map(|t| t.parse::<IpAddr>().ok())
    {
        if !hops.contains(&h) {
            hops.push(h);
        }
    }
    if hops.len() > 1 {
        return Some(clarify(
            "The request names more than one next hop; a plan is one change. Which one?",
            hops.iter().map(ToString::to_string).collect(),
        ));
    }
    let device = match devs {
        [d] => d.clone(),
        [] => return Some(clarify("On which device is the static route?", Vec::new())),
        _ => {
            return Some(clarify(
                "The request names more than one device. On which one?",
                devs.to_vec(),
            ))
        }
    };
    let on_device: Vec<&Route> = facts
        .routes
        .iter()
        .filter(|r| r.hostname == device)
        .collect();
    let next_hop = toks
        .iter()
        .filter(|t| !t.contains('/'))
        .find_map(|t| t.parse::<IpAddr>().ok());
    let show = |r: &Route| {
        format!(
            "{}{}",
            r.prefix,
            r.next_hop
                .map(|n| format!(" via {n}"))
                .or(r.next_hop_interface.as_ref().map(|i| format!(" via {i}")))
                .unwrap_or_default()
        )
    };
    let Some(prefix) = prefix.map(|p| p.trunc()) else {
        return Some(if removal {
            clarify(
                format!("Which static route of {device}?"),
                on_device.iter().map(|r| show(r)).collect(),
            )
        } else {
            clarify(
                "A static route needs a prefix and a next-hop address, e.g. '10.99.0.0/16 via 10.0.1.1'.",
                Vec::new(),
            )
        });
    };
    let same: Vec<&&Route> = on_device
        .iter()
        .filter(|r| r.prefix == prefix && next_hop.is_none_or(|n| r.next_hop == Some(n)))
        .collect();
    if removal {
        return Some(match same.as_slice() {
            [r] => Resolution::Intent(Intent::RemoveStaticRoute {
                device,
                prefix,
                next_hop: r.next_hop,
            }),
            [] => clarify(
                format!(
                    "{device} has no static route to {prefix}{}. Its static routes:",
                    next_hop.map(|n| format!(" via {n}")).unwrap_or_default()
                ),
                on_device.iter().map(|r| show(r)).collect(),
            ),
            _ => clarify(
                format!("{device} has several static routes to {prefix}. Which next hop?"),
                same.iter().map(|r| show(r)).collect(),
            ),
        });
    }
    if discard && next_hop.is_none() {
        let stored = on_device
            .iter()
            .find(|r| r.prefix == prefix && r.next_hop.is_none());
        return Some(match stored {
            Some(r) if !verb => super::offer(
                format!("{device} already routes {prefix} to {}. Remove it?", r.next_hop_interface.as_deref().unwrap_or("discard")),
                vec![super::Candidate::run(format!("remove {}", show(r)), format!("remove the static route {prefix} on {device}"))],
            ),
            Some(_) => Resolution::Refuse {
                what: format!("adding the static route {prefix} to discard on {device}: it is already configured (nothing to add, nothing to roll back)"),
            },
            None => Resolution::Intent(Intent::AddDiscardRoute { device, prefix }),
        });
    }
    let Some(next_hop) = next_hop else {
        return Some(clarify(
            "A static route needs a prefix and a next-hop address, e.g. '10.99.0.0/16 via 10.0.1.1'.",
            Vec::new(),
        ));
    };
    if same.iter().any(|r| r.next_hop == Some(next_hop)) {
        return Some(Resolution::Refuse {
            what: format!(
                "adding the static route {prefix} via {next_hop} on {device}: it is already configured (nothing to add, nothing to roll back)"
            ),
        });
    }
    Some(Resolution::Intent(Intent::AddStaticRoute {
        device,
        prefix,
        next_hop,
    }))
}
