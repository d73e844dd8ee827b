//! Static routes the plan adds are new, not connected and resolvable; removed ones exist.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// Static routes are new, not connected, resolvable; removed ones exist.
pub const CHECK: Check = Check {
    codes: &["precheck.static_routes"],
    name: "static routes are new, not connected, resolvable; removed ones exist",
    reads: "the plan's blocks; the candidate's static routes; stored addresses; the static routes the candidate's routing leaves uninstalled",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let cand = &cx.cand;
    let texts: Vec<(String, String, &str)> = plan
        .implementation
        .iter()
        .map(|b| (b.device.clone(), b.os.clone(), b.text.as_str()))
        .collect();
    let installs = cx
        .forwarding
        .not_computed
        .is_none()
        .then_some(&cx.forwarding.installs);
    // The network's own RIBs, read only when a check asks (a route to a subnet another
    // device holds) and only where forwarding is compared.
    let model = std::cell::OnceCell::new();
    let covered = |dev: &str, r: &crate::model::StaticRoute| -> Option<bool> {
        installs?;
        let ipnet::IpNet::V4(p) = r.prefix else {
            return None;
        };
        let rib = model
            .get_or_init(|| crate::routing::RoutingModel::shared(cx.db).ok())
            .as_ref()?
            .device(cx.db, dev)
            .ok()
            .flatten()?;
        let vrf = crate::routing::connected::vrf_name(&r.vrf);
        let has = rib
            .routes
            .iter()
            .any(|x| x.vrf == vrf && x.network.contains(&p));
        (has || rib.incomplete_in(&vrf).is_empty()).then_some(has)
    };
    let found = crate::precheck::routes::check(cx.db, cand, &texts, installs, &covered);
    // A static route the plan keeps but leaves without a next hop (a gateway readdressed
    // or shut away): its traffic goes by another route, or nowhere.
    let left = &cx.forwarding.uninstalled;
    if found.is_none() && left.is_empty() {
        return Ok(out.not_applicable());
    }
    out.extend(found.unwrap_or_default());
    let severity = if cx.is_removal() {
        Severity::Info
    } else if cx.shuts_only_targets() {
        Severity::Warning
    } else {
        Severity::Error
    };
    for (device, vrf, prefix, next_hop) in left {
        let vrf = if vrf == "default" {
            String::new()
        } else {
            format!(" (VRF {vrf})")
        };
        out.add(
            severity,
            format!("{device} {prefix} via {next_hop}{vrf}"),
            "the static route no longer installs after the plan: nothing left resolves its next hop, so its traffic follows another route or is dropped (what lies behind the next hop is cut off)",
            format!("keep a route to {next_hop}, or move the static route in the same plan (olav routes --plan PLAN --device {device} shows it)"),
        );
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::dialect::cisco::sample::{ip_route, no_ip_route};
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn route_lines(lines: &str) -> Outcome {
        let p = plan(
            "add_static_route",
            vec![device("r3")],
            &[("r3", lines)],
            &[],
        );
        run(&CHECK, &triangle(), &p)
    }

    #[test]
    fn removing_a_route_the_device_does_not_have_fails() {
        let o = route_lines(&no_ip_route("10.60.0.0 255.255.0.0 10.0.13.1"));
        assert!(
            o.findings.iter().any(|f| f.severity == Severity::Error),
            "{o:?}"
        );
    }

    #[test]
    fn a_new_route_via_a_connected_next_hop_passes_and_no_route_is_not_applicable() {
        assert!(route_lines(&ip_route("10.50.0.0 255.255.0.0 10.0.13.1")).passed());
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }

    /// r1 and r3 joined by EIGRP alone (no BGP, no OSPF): r3 reaches r1's loopback only
    /// through EIGRP.
    fn eigrp_pair() -> Net {
        use crate::dialect::cisco::sample::eigrp;
        let r1 = format!(
            "hostname r1\ninterface Loopback0\n ip address 10.255.0.1 255.255.255.255\ninterface GigabitEthernet0/0\n ip address 10.0.13.1 255.255.255.252\ninterface GigabitEthernet0/1\n ip address 172.16.1.1 255.255.255.0\ninterface GigabitEthernet0/2\n ip address 10.0.99.1 255.255.255.0\n{}end\n",
            eigrp(1, " network 10.0.0.0 0.255.255.255\n")
        );
        let r3 = format!(
            "hostname r3\ninterface GigabitEthernet0/0\n ip address 10.0.13.2 255.255.255.252\n{}end\n",
            eigrp(1, " network 10.0.13.0 0.0.0.3\n")
        );
        network(&[("r1", &r1), ("r3", &r3)], "devices: []\n")
    }

    #[test]
    fn an_eigrp_only_router_runs_a_routing_protocol() {
        let net = eigrp_pair();
        let p = plan(
            "add_static_route",
            vec![device("r3")],
            &[("r3", &ip_route("10.60.0.0 255.255.0.0 10.255.0.1"))],
            &[],
        );
        // Computed: the next hop resolves through EIGRP, the route installs.
        let o = run(&CHECK, &net, &p);
        assert!(o.passed(), "{o:?}");
        // Not computed (a network too large): unknown, never "runs no routing protocol".
        let opts = Default::default();
        let mut cx = context(&net, &p, &opts);
        cx.forwarding.not_computed = Some("too large".into());
        let o = (CHECK.run)(&cx).expect("runs");
        assert!(
            has(
                &o,
                Severity::Warning,
                "resolves only through a dynamic route"
            ),
            "{o:?}"
        );
        assert!(
            !o.findings.iter().any(|f| f.severity == Severity::Error),
            "{o:?}"
        );
    }

    /// A route to a subnet another router holds overrides the network's routing only
    /// when the network gives the device a route to it: r3 learns 10.0.99.0/24 from
    /// EIGRP, and nothing of 172.16.1.0/24 (r1 runs no EIGRP there).
    #[test]
    fn a_route_to_a_subnet_elsewhere_overrides_only_what_the_network_routes() {
        let net = eigrp_pair();
        let add = |spec: &str| {
            let p = plan(
                "add_static_route",
                vec![device("r3")],
                &[("r3", &ip_route(spec))],
                &[],
            );
            run(&CHECK, &net, &p)
        };
        let o = add("172.16.1.0 255.255.255.0 10.0.13.1");
        assert!(
            has(&o, Severity::Info, "r3 has no route to it now"),
            "{o:?}"
        );
        assert!(o.passed(), "{o:?}");
        let o = add("10.0.99.0 255.255.255.0 10.0.13.1");
        assert!(
            has(
                &o,
                Severity::Warning,
                "overrides the route the network's routing gives"
            ),
            "{o:?}"
        );
    }

    use super::super::Outcome;
}
