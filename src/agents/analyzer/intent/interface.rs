//! An interface change: a description, an address, shutdown or no shutdown, an MTU.

use super::mentions::{has_word, interfaces_on, number_after, quoted};
use super::{clarify, IfChange, Intent, Resolution};
use crate::agents::analyzer::facts::Facts;
use ipnet::IpNet;

/// The request as written, and the description it sets without quotes.
pub(super) struct Said<'a> {
    /// The request (without an unquoted description's text).
    pub request: &'a str,
    /// The description given without quotes.
    pub description: Option<&'a str>,
}

/// Interface changes: shutdown / no shutdown, description, MTU, address. `None` when the
/// request names no interface attribute (it may still name an interface to decommission).
pub(super) fn resolve_interface_change(
    said: &Said<'_>,
    toks: &[String],
    lower: &str,
    devs: &[String],
    removal: bool,
    facts: &Facts,
) -> Option<Resolution> {
    let no_shut = lower.contains("no shutdown")
        || lower.contains("no shut")
        || has_word(toks, lower, &["enable", "unshut"])
        || lower.contains("bring up");
    let shut = !no_shut
        && (lower.contains("shutdown")
            || lower.contains("shut down")
            || has_word(toks, lower, &["shut", "disable"]));
    let mtu = has_word(toks, lower, &["mtu"]);
    let description = has_word(toks, lower, &["description", "descr", "desc"]);
    let address = (has_word(toks, lower, &["address", "ip"]))
        && (removal
            || toks
                .iter()
                .any(|t| t.contains('/') && t.parse::<IpNet>().is_ok()));
    let named_route = has_word(toks, lower, &["route"]);
    // "… address of Vlan10 on X to 10.10.99.1": an address without its prefix length.
    if has_word(toks, lower, &["address", "ip"]) && !address && !removal && !named_route {
        let bare_v4 = toks
            .iter()
            .find(|t| t.parse::<std::net::Ipv4Addr>().is_ok());
        let on_interface = devs
            .iter()
            .any(|d| !interfaces_on(toks, d, facts).0.is_empty());
        if let (Some(ip), true) = (bare_v4, on_interface) {
            return Some(clarify(
                format!("Which prefix length for {ip}? Say e.g. {ip}/24."),
                Vec::new(),
            ));
        }
    }
    if !(no_shut || shut || mtu || description || (address && !named_route)) {
        return None;
    }
    // "shutdown bgp on X", "disable the ospf process": not an interface.
    if has_word(toks, lower, &["bgp", "ospf", "isis", "process", "routing"])
        && devs
            .iter()
            .all(|d| interfaces_on(toks, d, facts).0.is_empty())
    {
        return Some(Resolution::Refuse {
            what: "shutting down or changing a routing process".to_owned(),
        });
    }
    if address && removal && !description {
        return Some(Resolution::Refuse {
            what: "removing an interface address".to_owned(),
        });
    }
    let device = match devs {
        [d] => d.clone(),
        [] => {
            return Some(clarify(
                "On which device? Name the device and the interface.",
                Vec::new(),
            ))
        }
        _ => {
            return Some(clarify(
                "The request names more than one device. Which one?",
                devs.to_vec(),
            ))
        }
    };
    let all_ifs: Vec<String> = facts
        .interfaces
        .get(&device)
        .map(|v| v.iter().map(|i| i.name.clone()).collect())
        .unwrap_or_default();
    let (ifs, unknown_ifs) = interfaces_on(toks, &device, facts);
    if let Some(u) = unknown_ifs.first() {
        return Some(clarify(
            format!("{device} has no interface '{u}'. Its interfaces:"),
            all_ifs,
        ));
    }
    let interface = match ifs.as_slice() {
        [i] => i.clone(),
        [] => return Some(clarify(format!("Which interface of {device}?"), all_ifs)),
        _ => return Some(clarify("Which interface? The request names several:", ifs)),
    };
    let mut changes = Vec::new();
    if no_shut {
        changes.push(IfChange::NoShutdown);
    } else if shut {
        changes.push(IfChange::Shutdown);
    }
    if mtu {
        match number_after(toks, "mtu") {
            Some(m) if (576..=65_535).contains(&m) => changes.push(IfChange::Mtu(m)),
            Some(m) => {
                return Some(clarify(
                    format!("MTU {m} is not a plausible MTU (576–65535)."),
                    Vec::new(),
                ))
            }
            None => {
                return Some(clarify(
                    format!("Which MTU should {device} {interface} have?"),
                    Vec::new(),
                ))
            }
        }
    }
    if description {
        match said.description.map(str::to_owned).or_else(|| quoted(said.request)) {
            Some(d) => changes.push(IfChange::Description(d)),
            None if removal => changes.push(IfChange::NoDescription),
            None => {
                return Some(clarify(
                    "What should the description say? Say e.g. description \"to alpha-dist-2\" (quotes are optional at the end of the request).",
                    Vec::new(),
                ))
            }
        }
    }
    if address {
        let mut named: Vec<IpNet> = Vec::new();
        for a in toks
            .iter()
            .filter(|t| t.contains('/'))
            .filter_map(|t| t.parse::<IpNet>().ok())
        {
            if !named.contains(&a) {
                named.push(a);
            }
        }
        match named.as_slice() {
            [] => {}
            // An interface needs a host address of its subnet.
            [a] if a.prefix_len() < 8 => {
                return Some(clarify(
                    format!("{a} is not an interface subnet. Which address and prefix length?"),
                    Vec::new(),
                ))
            }
            [a] if a.addr().is_ipv4()
                && a.max_prefix_len() - a.prefix_len() >= 2
                && (a.addr() == a.network() || a.addr() == a.broadcast()) =>
            {
                return Some(clarify(
                    format!("{} is the {} address of {}, not a host address. Which host address?", a.addr(), if a.addr() == a.network() { "network" } else { "broadcast" }, a.trunc()),
                    Vec::new(),
                ))
            }
            [a] => changes.push(IfChange::Address(*a)),
            // One address is planned; a second is never dropped silently.
            _ => {
                return Some(clarify(
                    format!("The request names more than one address for {device} {interface}; a plan sets one. Which one?"),
                    named.iter().map(ToString::to_string).collect(),
                ))
            }
        }
    }
    if removal
        && changes
            .iter()
            .any(|c| matches!(c, IfChange::Shutdown | IfChange::NoShutdown))
    {
        return Some(clarify(
            format!("Decommission {device} {interface}, or only shut it? Say 'decommission' or 'shutdown'."),
            vec![
                format!("decommission {device} {interface}"),
                format!("shutdown {device} {interface}"),
            ],
        ));
    }
    Some(Resolution::Intent(Intent::ModifyInterface {
        device,
        interface,
        changes,
    }))
}
