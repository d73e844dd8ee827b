//! Networks the plan withdraws from the network's routing: some device routed them
//! before, none does after (`routing::withdrawn`). What the network can no longer
//! reach at all, whatever the topology's roles say.

use super::{Check, Context, Findings, Outcome};
use crate::network::NetworkModel;
use crate::precheck::Severity;
use crate::routing::withdrawn::Withdrawn;
use crate::state::StateError;
use ipnet::IpNet;
use std::net::IpAddr;

/// No network leaves the network's routing unless the plan means it to.
pub const CHECK: Check = Check {
    codes: &["precheck.withdrawn"],
    name: "no network leaves the network's routing unless the plan takes it away",
    reads: "every network some device routes before the plan (not its own connected or local route, not a discard), against the candidate's RIBs; the subnets of what the plan removes or shuts; the plan's lines",
    run,
};

/// How many networks a grouped row names before counting the rest (the change window
/// reads the names back: a network named here is the plan's own).
const SHOWN: usize = 50;

/// `network`, with its VRF when it is not the global table.
fn label(w: &Withdrawn) -> String {
    if w.vrf == "default" {
        w.network.to_string()
    } else {
        format!("{} (VRF {})", w.network, w.vrf)
    }
}

/// Up to [`SHOWN`] labels, and how many more.
fn some(list: &[String]) -> String {
    let mut s = list
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if list.len() > SHOWN {
        s.push_str(&format!(" and {} more", list.len() - SHOWN));
    }
    s
}

/// Up to five device names, and how many more.
fn devices(names: &[String]) -> String {
    match names.len() {
        0 => "only devices the plan removes".to_owned(),
        n if n <= 5 => names.join(", "),
        n => format!("{} and {} more", names[..5].join(", "), n - 5),
    }
}

/// Whether the plan's lines name the network (its address): withdrawn as asked, e.g.
/// a static route or a `network` statement removed.
fn named_by_lines(cx: &Context, w: &Withdrawn) -> bool {
    let addr = w.network.network().to_string();
    cx.plan.implementation.iter().any(|b| {
        b.text
            .split(|c: char| c.is_whitespace() || c == '/')
            .any(|t| t == addr)
    })
}

/// Whether `net` is an address (as a host route) or subnet an interface of a device the
/// plan configures had and no longer has: a loopback renumbered, a gateway moved within
/// its subnet (the readdressing check leaves host routes to this one).
fn readdresses(cx: &Context, net: IpNet) -> bool {
    cx.cand
        .touched
        .iter()
        .filter_map(|d| cx.cand.devices.get(d))
        .any(|dev| {
            dev.base.interfaces.iter().any(|i| {
                i.addresses.iter().any(|a| {
                    (IpNet::from(a.address.addr()) == net || a.address.trunc() == net)
                        && !dev.cand.interfaces.iter().any(|c| {
                            c.name.eq_ignore_ascii_case(&i.name)
                                && c.addresses.iter().any(|x| x.address == a.address)
                        })
                })
            })
        })
}

/// The device the plan configures (not one it removes) that holds an address inside the
/// withdrawn network, if any.
fn configured_in(cx: &Context, model: &NetworkModel, w: &Withdrawn) -> Option<String> {
    let removed = crate::checks::model::removed_devices(cx.plan);
    model
        .addresses
        .iter()
        .filter(|a| matches!(a.address, IpAddr::V4(ip) if w.network.contains(&ip)))
        .map(|a| model.name(a.hostname))
        .find(|h| !removed.contains(h) && cx.plan.implementation.iter().any(|b| b.device == *h))
        .map(str::to_owned)
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let f = &cx.forwarding;
    if f.not_computed.is_some() {
        return Ok(out.not_applicable());
    }
    let model = NetworkModel::shared(cx.db)?;
    // What a removal or a shutdown takes away on purpose: one row, the blast radius
    // lists them.
    let mut meant: Vec<String> = Vec::new();
    let mut asked: Vec<String> = Vec::new();
    for (w, declared) in &f.withdrawn {
        // An address or subnet the plan readdresses away goes on purpose too (the
        // readdressing check names what it leaves behind).
        let net = IpNet::V4(w.network);
        let readdressed = cx.left.iter().any(|l| l.loses(&net)) || readdresses(cx, net);
        if *declared || readdressed || cx.is_removal() {
            meant.push(label(w));
            continue;
        }
        if named_by_lines(cx, w) {
            asked.push(label(w));
            continue;
        }
        let mut lost = format!(
            "no device routes it after the plan; before, {} did ({})",
            w.lost_on.len(),
            devices(&w.lost_on)
        );
        if w.assumed {
            lost.push_str(&format!(" ({})", crate::routing::trace::ASSUMED));
        }
        // A device the plan configures, cut off by it: nothing can send its rollback.
        let own = configured_in(cx, &model, w);
        if let (Some(device), false) = (&own, w.uncertain) {
            let vendor = cx
                .plan
                .implementation
                .iter()
                .find(|b| b.device == *device)
                .map(|b| crate::model::Vendor::from_os(&b.os));
            let safety =
                vendor.and_then(|v| crate::precheck::lockout::named_safety(cx.plan, device, v));
            out.add(
                if safety.is_some() { Severity::Warning } else { Severity::Error },
                label(w),
                format!(
                    "withdrawn from the network's routing: {lost}; it holds an address of {device}, which the plan configures: once cut off, nothing can send {device} its rollback{}",
                    safety.map(|s| format!(" (the plan names {s} for it)")).unwrap_or_default()
                ),
                "keep a path to the device until its rollback is no longer needed, or use the platform's own safety (commit confirmed, reload in) and say so",
            );
            continue;
        }
        if w.uncertain {
            out.add(
                Severity::Warning,
                label(w),
                format!("{lost} — a protocol olav does not compute on those devices may still bring it"),
                "check the device's routing table after the change (olav routes --plan PLAN --prefix NETWORK shows the rows before and after)",
            );
        } else if cx.shuts_only_targets() {
            // The request shuts what it names: what that cuts off is its consequence,
            // to be confirmed, as a service it hits is.
            out.add(
                Severity::Warning,
                label(w),
                format!("withdrawn from the network's routing by the shutdown the request asks for: {lost}"),
                "confirm that what lives there may be cut off for the change",
            );
        } else {
            out.add(
                Severity::Error,
                label(w),
                format!("withdrawn from the network's routing: {lost}; the plan does not take it away, so what lives there is cut off"),
                "keep a path to it (a redundant link, the IGP on the new interface), or make the plan remove it and say so",
            );
        }
    }
    if !meant.is_empty() {
        out.add_grouped(
            Severity::Info,
            "routes",
            format!(
                "{} network(s) withdrawn with what the plan removes, shuts or readdresses: {}",
                meant.len(),
                some(&meant)
            ),
            "counted in the blast radius",
            meant,
        );
    }
    if !asked.is_empty() {
        out.add_grouped(
            Severity::Info,
            "routes",
            format!(
                "{} network(s) the plan's lines name are withdrawn from the network's routing: {}",
                asked.len(),
                some(&asked)
            ),
            "confirm nothing still needs them (the services and reachability checks trace what the network exists for)",
            asked,
        );
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{self, square};
    use super::CHECK;
    use crate::precheck::Severity;

    #[test]
    fn cutting_a_router_off_withdraws_its_networks() {
        let o = testkit::run(&CHECK, &square(), &testkit::square_isolate(false));
        // r4's loopback and LAN: no other router routes them after both links shut.
        for n in ["10.255.0.4/32", "10.4.4.0/24"] {
            assert!(
                o.findings
                    .iter()
                    .any(|f| f.severity == Severity::Error && f.element == n),
                "{n}: {:?}",
                o.findings
            );
        }
    }

    #[test]
    fn a_removal_lists_what_it_withdraws_as_information() {
        let o = testkit::run(&CHECK, &square(), &testkit::square_isolate(true));
        assert!(o.passed(), "{:?}", o.findings);
        assert!(
            testkit::has(
                &o,
                Severity::Info,
                "withdrawn with what the plan removes, shuts or readdresses"
            ),
            "{:?}",
            o.findings
        );
    }

    #[test]
    fn one_of_two_paths_shut_withdraws_nothing_but_its_own_subnet() {
        let o = testkit::run(&CHECK, &square(), &testkit::square_shut());
        assert!(o.passed(), "{:?}", o.findings);
        let d = testkit::run(&CHECK, &square(), &testkit::square_description());
        assert!(d.passed() && d.findings.is_empty(), "{:?}", d.findings);
    }
}
