//! A narrow request's plan configures only what the request names: an interface
//! change its interface, a static-route change the static routes. A hand-edited plan
//! that reaches further (an ACL removed, an IGP setting changed) is a plan wider than its
//! request: an error, whatever else passes.

use super::{Finding, Severity};
use crate::plan::{Plan, Target};

/// The configuration sections a block's lines touch: IOS-style top-level commands
/// (`interface X`, `router ospf 1`, `ip route`), Junos statement paths
/// (`interfaces xe-0/1/0`, `routing-options static`, `protocols ospf`).
fn sections(text: &str, os: &str) -> Vec<String> {
    let vendor = crate::model::Vendor::from_os(os);
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim_end) {
        let Some(section) = crate::dialect::section_of(vendor, line) else {
            continue;
        };
        if !out.contains(&section) {
            out.push(section);
        }
    }
    out
}

/// A section test: whether a configuration section is within a plan's request.
type InScope = Box<dyn Fn(&str) -> bool>;

/// What a narrow request may configure, by device: an interface change its interface
/// (a Junos unit's port), a static route change the static routes. None for the
/// requests whose drafts reach further (uplinks, removals).
fn scope_of(plan: &Plan) -> Option<Vec<(String, InScope)>> {
    match plan.header.intent.as_str() {
        "modify_interface" => Some(
            plan.header
                .targets
                .iter()
                .filter_map(|t| match t {
                    Target::Interface { device, interface } => {
                        let want = interface.clone();
                        let port = want.split('.').next().unwrap_or(&want).to_owned();
                        let ok: InScope = Box::new(move |s: &str| {
                            s.strip_prefix("interface ")
                                .is_some_and(|n| crate::ifname::same(&want, n))
                                || s.strip_prefix("interfaces ").is_some_and(|p| p == port)
                        });
                        Some((device.clone(), ok))
                    }
                    _ => None,
                })
                .collect(),
        ),
        "add_static_route" | "remove_static_route" => Some(
            plan.header
                .targets
                .iter()
                .filter_map(|t| match t {
                    Target::Device { device } | Target::Interface { device, .. } => {
                        let ok: InScope = Box::new(crate::dialect::is_static_route_section);
                        Some((device.clone(), ok))
                    }
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The prefixes of the static-route lines of a block (`ip route P …`, `no ip route P …`,
/// Junos `… static route P …`), in the text's form.
fn route_prefixes(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim) {
        let Some(prefix) = crate::dialect::route_prefix(line) else {
            continue;
        };
        if !out.contains(&prefix) {
            out.push(prefix);
        }
    }
    out
}

/// The findings, or None when the plan's request is not a narrow one.
pub fn check(plan: &Plan) -> Option<Vec<Finding>> {
    let allowed = scope_of(plan)?;
    let mut out = Vec::new();
    // A static-route request changes one route: one prefix across all its lines.
    if plan.header.intent.ends_with("_static_route") {
        let mut prefixes: Vec<String> = Vec::new();
        for b in plan.implementation.iter().chain(&plan.rollback) {
            for p in route_prefixes(&b.text) {
                if !prefixes.contains(&p) {
                    prefixes.push(p);
                }
            }
        }
        if prefixes.len() > 1 {
            out.push(Finding {
                code: "precheck.scope",
                severity: Severity::Error,
                element: "static routes".to_owned(),
                message: format!(
                    "the plan changes the static routes to {}, and its request ({}) names one route: a plan wider than its request",
                    prefixes.join(", "),
                    plan.header.intent
                ),
                suggestion: "keep only the requested route, or plan the others on their own".to_owned(),
                path: None,
                covers: Vec::new(),
            });
        }
    }
    let mut seen: Vec<(String, String)> = Vec::new();
    for b in plan.implementation.iter().chain(&plan.rollback) {
        for section in sections(&b.text, &b.os) {
            // Implementation and rollback name a section alike: reported once.
            if seen.contains(&(b.device.clone(), section.clone())) {
                continue;
            }
            seen.push((b.device.clone(), section.clone()));
            if !allowed.iter().any(|(d, ok)| *d == b.device && ok(&section)) {
                out.push(Finding {
                    code: "precheck.scope",
                    severity: Severity::Error,
                    element: format!("{} {section}", b.device),
                    message: format!(
                        "the plan configures {section} on {}, which its request ({}) does not name: a plan wider than its request",
                        b.device, plan.header.intent
                    ),
                    suggestion: "remove those lines, or plan that change on its own".to_owned(),
                    path: None,
                    covers: Vec::new(),
                });
            }
        }
    }
    Some(out)
}
