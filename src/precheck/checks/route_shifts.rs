//! Routes to loopbacks, defaults and service prefixes that the plan takes away or makes
//! single-path, and the paths it moves (next hops before → after), device by device:
//! evidence beside the traced flows and the blast radius.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// Routes to what the network exists for stay as they were.
pub const CHECK: Check = Check {
    codes: &["precheck.routes"],
    name: "routes to loopbacks, defaults and service prefixes are kept, with their next hops",
    reads: "the candidate network's RIBs against the stored routing model, for every device's loopback, the default route and the services' prefixes",
    run,
};

/// How many networks are named one by one before the rest are counted.
const SHOWN: usize = 30;

/// Up to five names, and how many more.
fn some(names: &[String]) -> String {
    let mut s = names.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > 5 {
        s.push_str(&format!(" and {} more", names.len() - 5));
    }
    s
}

/// Whether a request asks for `network` to be discarded: it names the prefix and a
/// discard (a deliberate blackhole is declared; a route re-pointed by hand is not).
fn asks_to_discard(request: &str, network: &ipnet::Ipv4Net) -> bool {
    let r = request.to_lowercase();
    r.contains(&network.to_string())
        && [
            "null0",
            "null 0",
            "discard",
            "reject",
            "blackhole",
            "black-hole",
            "black hole",
        ]
        .iter()
        .any(|w| r.contains(w))
}

/// The critical and high services' networks in the default VRF, as "name
/// (criticality)" ([`crate::network::NetworkModel::service_networks`]: a service given by
/// its gateway interface is as much blackholed as one given by prefix).
fn service_networks(model: &crate::network::NetworkModel) -> Vec<(ipnet::Ipv4Net, String)> {
    let mut out: Vec<(ipnet::Ipv4Net, String)> = model
        .service_networks()
        .into_iter()
        .filter(|(_, vrf, _)| *vrf == "default")
        .filter_map(|(k, _, n)| {
            let svc = &model.services[k];
            matches!(svc.criticality.as_deref(), Some("critical" | "high")).then(|| {
                let c = svc.criticality.as_deref().unwrap_or("");
                (n, format!("{} ({c})", svc.name))
            })
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The services of `networks` ([`service_networks`]) whose network is `network`.
fn services_in(networks: &[(ipnet::Ipv4Net, String)], network: &ipnet::Ipv4Net) -> Vec<String> {
    networks
        .iter()
        .filter(|(n, _)| n == network)
        .map(|(_, l)| l.clone())
        .collect()
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let f = &cx.forwarding;
    if f.not_computed.is_some() {
        return Ok(out.not_applicable());
    }
    // A removal's losses are its point (the blast radius counts them); elsewhere a route
    // lost or left with one next hop is an effect the request did not ask for. Traffic
    // that no longer arrives is the reachability check's error; here it is evidence.
    let severity = if cx.is_removal() {
        Severity::Info
    } else {
        Severity::Warning
    };
    let model = crate::network::NetworkModel::shared(cx.db)?;
    // Made at the first discarded network only.
    let mut services: Option<Vec<(ipnet::Ipv4Net, String)>> = None;
    let mut named = 0;
    let mut changed: Vec<String> = Vec::new();
    let mut narrowed: Vec<String> = Vec::new();
    let mut narrowed_on: Vec<String> = Vec::new();
    // Per device, the networks whose path moves ("net: a and b → b"), the default route
    // and loopbacks first.
    let mut moves: std::collections::BTreeMap<&str, Vec<(u8, String)>> = Default::default();
    for ((vrf, network), s) in &f.shifts {
        let net = if vrf == "default" {
            network.to_string()
        } else {
            format!("{network} (VRF {vrf})")
        };
        let rank = match network.prefix_len() {
            0 => 0,
            32 => 1,
            _ => 2,
        };
        for m in &s.moved {
            moves.entry(m.device.as_str()).or_default().push((
                rank,
                format!(
                    "{net}: {} → {}",
                    m.before.join(" and "),
                    m.after.join(" and ")
                ),
            ));
        }
        if !s.changed.is_empty() {
            changed.push(net.clone());
        }
        if !s.narrowed.is_empty() {
            narrowed.push(net.clone());
            for d in &s.narrowed {
                if !narrowed_on.contains(d) {
                    narrowed_on.push(d.clone());
                }
            }
        }
        if !s.discarded.is_empty() {
            // A critical or high service's prefix dropped where it was carried is a
            // blackhole of that service, an error unless the request names the prefix.
            let lives: Vec<String> = if vrf == "default" {
                let networks = services.get_or_insert_with(|| service_networks(&model));
                services_in(networks, network)
            } else {
                Vec::new()
            };
            let asked = asks_to_discard(&cx.plan.header.request, network);
            let sev = if severity == Severity::Warning && !lives.is_empty() && !asked {
                Severity::Error
            } else {
                severity
            };
            let service = if lives.is_empty() {
                String::new()
            } else {
                format!("; the prefix of service {}", lives.join(", "))
            };
            out.add(
                sev,
                net.clone(),
                format!(
                    "now routed to a discard route (Null0, discard, reject) on {} device(s): {} — its traffic is dropped there{service}",
                    s.discarded.len(),
                    some(&s.discarded)
                ),
                "olav routes --plan PLAN --prefix NETWORK shows the rows before and after",
            );
        }
        // A network no device routes any more is the withdrawn check's to report.
        let withdrawn = f
            .withdrawn
            .iter()
            .any(|(w, _)| w.vrf == *vrf && w.network == *network);
        if s.lost.is_empty() || withdrawn {
            continue;
        }
        named += 1;
        if named <= SHOWN {
            out.add(
                severity,
                net,
                format!(
                    "routes lost on {} device(s): {}",
                    s.lost.len(),
                    some(&s.lost)
                ),
                "olav routes --plan PLAN --prefix NETWORK shows the rows before and after",
            );
        }
    }
    if named > SHOWN {
        out.add(
            severity,
            "routes",
            format!("{} more network(s) lose routes", named - SHOWN),
            "olav routes --plan PLAN lists them",
        );
    }
    // Fewer equal-cost next hops is not a single point of failure (a costlier path may
    // remain): the blast radius judges that on the topology and warns; this is evidence
    // of where traffic now goes, one finding for the plan.
    if !narrowed.is_empty() {
        narrowed_on.sort();
        out.add(
            Severity::Info,
            "routes",
            format!(
                "routes to {} network(s) go down to one next hop (from two or more) on {}: {}",
                narrowed.len(),
                some(&narrowed_on),
                some(&narrowed)
            ),
            "confirm the remaining path is meant to carry it alone for the change",
        );
    }
    if !changed.is_empty() {
        out.add(
            Severity::Info,
            "routes",
            format!(
                "routes to {} network(s) change next hop, protocol or metric: {}",
                changed.len(),
                some(&changed)
            ),
            "olav routes --plan PLAN lists them",
        );
    }
    // Where traffic now goes, device by device: evidence (an IGP cost change moves
    // paths; a move that breaks a flow or leaves one path is reported above and by the
    // reachability and redundancy checks).
    // A removal moves paths by design: one finding names where.
    if cx.is_removal() && !moves.is_empty() {
        let devices: Vec<String> = moves.keys().map(|d| (*d).to_owned()).collect();
        out.add(
            Severity::Info,
            "routes",
            format!(
                "paths move to other next hops on {} device(s): {}",
                devices.len(),
                some(&devices)
            ),
            "olav routes --plan PLAN lists them",
        );
        moves.clear();
    }
    for (device, paths) in moves.iter_mut().take(SHOWN) {
        paths.sort();
        let shown: Vec<&str> = paths.iter().take(10).map(|(_, p)| p.as_str()).collect();
        let mut text = shown.join("; ");
        if paths.len() > 10 {
            text.push_str(&format!("; and {} more", paths.len() - 10));
        }
        out.add(
            Severity::Info,
            format!("{device} paths"),
            format!("paths that move on {device}: {text}"),
            "olav routes --plan PLAN --device DEVICE shows the rows before and after",
        );
    }
    if moves.len() > SHOWN {
        out.add(
            Severity::Info,
            "routes",
            format!("paths move on {} more device(s)", moves.len() - SHOWN),
            "olav routes --plan PLAN lists them",
        );
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{self, square};
    use super::{asks_to_discard, CHECK};

    #[test]
    fn only_a_request_naming_the_prefix_and_a_discard_declares_it() {
        let n = "10.20.110.0/24".parse().expect("a prefix");
        assert!(asks_to_discard(
            "blackhole 10.20.110.0/24 on alpha-border-1",
            &n
        ));
        assert!(asks_to_discard("route 10.20.110.0/24 to Null0 on r1", &n));
        assert!(!asks_to_discard(
            "add a static route 10.20.110.0/24 via 10.0.1.1 on r1",
            &n
        ));
        assert!(!asks_to_discard("route 10.20.111.0/24 to Null0 on r1", &n));
    }
    use crate::precheck::Severity;

    #[test]
    fn an_ospf_cost_change_names_each_path_that_moves_as_information() {
        let net = square();
        let p = testkit::square_plan(
            "modify_interface",
            vec![testkit::interface("r1", "GigabitEthernet0/0")],
            "r1",
            "ospf_cost",
            "no_ospf_cost",
        );
        let o = testkit::run(&CHECK, &net, &p);
        let moved = o
            .findings
            .iter()
            .find(|f| f.element == "r1 paths")
            .unwrap_or_else(|| panic!("{o:?}"));
        assert_eq!(moved.severity, Severity::Info);
        // r2's loopback was r1's neighbour over Gi0/0; at cost 500 it is reached round
        // the square, through r3.
        assert!(
            moved.message.contains(
                "10.255.0.2/32: 10.0.12.2 via GigabitEthernet0/0 → 10.0.13.2 via GigabitEthernet0/1"
            ),
            "{}",
            moved.message
        );
        assert!(
            !o.findings.iter().any(|f| f.severity != Severity::Info),
            "{o:?}"
        );
    }

    #[test]
    fn one_of_two_paths_shut_leaves_routes_with_one_next_hop_as_information() {
        let net = square();
        let p = testkit::square_shut();
        let o = testkit::run(&CHECK, &net, &p);
        let narrowed = o
            .findings
            .iter()
            .find(|f| f.message.contains("go down to one next hop"))
            .expect("the narrower routes are reported");
        // Not a single point of failure by itself: the blast radius judges that.
        assert_eq!(narrowed.severity, Severity::Info);
        // r1 reached r4's LAN over r2 and r3, now over r3 only; r2 and r3 reached each
        // other's loopbacks both ways round the square.
        assert!(
            narrowed.message.contains("6 network(s)")
                && narrowed
                    .message
                    .contains("on r1, r2, r3, r4: 10.1.1.0/24, 10.4.4.0/24"),
            "{}",
            narrowed.message
        );
    }

    #[test]
    fn a_discard_route_that_captures_a_service_prefix_is_named() {
        let net = square();
        let p = testkit::square_plan(
            "add_static_route",
            vec![testkit::device("r1")],
            "r1",
            "discard",
            "no_discard",
        );
        let o = testkit::run(&CHECK, &net, &p);
        // The office service is given by its gateway interface: its subnet blackholed
        // is an outage of a high service, an error.
        assert!(
            testkit::has(
                &o,
                Severity::Error,
                "now routed to a discard route (Null0, discard, reject) on 1 device(s): r1 — its traffic is dropped there; the prefix of service office (high)"
            ),
            "{:?}",
            o.findings
        );
    }

    #[test]
    fn a_description_change_moves_no_route() {
        let net = square();
        let p = testkit::square_description();
        let o = testkit::run(&CHECK, &net, &p);
        assert!(o.passed() && o.findings.is_empty(), "{:?}", o.findings);
    }

    #[test]
    fn routes_a_removal_loses_are_information() {
        let net = square();
        let p = testkit::square_isolate(true);
        let o = testkit::run(&CHECK, &net, &p);
        assert!(
            o.findings
                .iter()
                .any(|f| f.severity == Severity::Info && f.message.contains("routes lost on")),
            "{:?}",
            o.findings
        );
        assert!(o.findings.iter().all(|f| f.severity == Severity::Info));
    }
}
