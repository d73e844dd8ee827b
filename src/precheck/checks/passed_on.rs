//! Routes learned from peers outside the network, passed on to iBGP peers: olav does not
//! know those routes, so a plan that changes how a border passes them on (next-hop-self,
//! the outbound policy towards its iBGP peers) has effects the routing model cannot show.

use super::{Check, Context, Findings, Outcome};
use crate::model::{BgpNeighbor, DeviceConfig};
use crate::precheck::Severity;
use crate::state::StateError;

/// Changes to how a border passes on what outside peers send are said.
pub const CHECK: Check = Check {
    codes: &["precheck.passed_on"],
    name: "how a border passes on routes from outside peers to its iBGP peers is kept",
    reads: "the plan's devices' iBGP neighbors before and after (next-hop-self, outbound route-map and prefix-list); their external sessions",
    run,
};

/// The device's iBGP neighbors by peer (the default and every VRF).
fn ibgp(c: &DeviceConfig) -> Vec<&BgpNeighbor> {
    let Some(b) = &c.bgp else { return Vec::new() };
    b.neighbors
        .iter()
        .filter(|n| !n.shutdown && n.peer_asn.is_some() && n.peer_asn == b.local_as)
        .collect()
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let cand = &cx.cand;
    let mut applies = false;
    for d in &cand.touched {
        let Some(x) = cand.devices.get(d) else {
            continue;
        };
        let outside: Vec<String> = cx
            .announcements
            .before
            .iter()
            .filter(|s| s.device == *d)
            .map(|s| match s.peer_asn {
                Some(a) => format!("{} (AS{a})", s.peer),
                None => s.peer.clone(),
            })
            .collect();
        if outside.is_empty() {
            continue;
        }
        let before = ibgp(&x.base);
        for n in ibgp(&x.cand) {
            let Some(b) = before.iter().find(|b| b.peer == n.peer && b.vrf == n.vrf) else {
                continue;
            };
            applies = true;
            let el = format!("{d} → {}", n.peer);
            let from = outside.join(", ");
            if b.routing.next_hop_self && !n.routing.next_hop_self {
                out.add(
                    Severity::Warning,
                    el.clone(),
                    format!(
                        "next-hop-self removed: what {d} learns from {from} now reaches this iBGP peer with the outside peer's address as its next hop. olav does not know those routes, so whether this peer (and those it reflects to) can resolve that next hop is not checked: where the IGP does not carry the outside link's subnet, they drop those routes"
                    ),
                    "keep next-hop-self, or make sure the IGP carries the outside links' subnets; after the change, check `show ip bgp` on an iBGP peer",
                );
            }
            if (&b.route_map_out, &b.prefix_list_out) != (&n.route_map_out, &n.prefix_list_out) {
                out.add(
                    Severity::Warning,
                    el,
                    format!(
                        "the outbound policy towards this iBGP peer changes ({} → {}): what it passes on of the routes {d} learns from {from} changes too, and olav does not know those routes",
                        policy(b),
                        policy(n)
                    ),
                    "compare `show ip bgp neighbors PEER advertised-routes` before and after the change",
                );
            }
        }
    }
    Ok(if applies {
        out.ran()
    } else {
        out.not_applicable()
    })
}

/// A neighbor's outbound policy in words.
fn policy(n: &BgpNeighbor) -> String {
    let parts: Vec<String> = [
        n.route_map_out.as_ref().map(|r| format!("route-map {r}")),
        n.prefix_list_out
            .as_ref()
            .map(|p| format!("prefix-list {p}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::dialect::cisco::sample::bgp;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    /// The triangle with r1 setting next-hop-self towards r2.
    fn with_next_hop_self() -> Net {
        let r1 = R1.replace(
            " neighbor 10.0.12.2 remote-as 65001\n",
            " neighbor 10.0.12.2 remote-as 65001\n neighbor 10.0.12.2 next-hop-self\n",
        );
        network(
            &[("r1", &r1), ("r2", R2), ("r3", "hostname r3\nend\n")],
            STATE,
        )
    }

    #[test]
    fn next_hop_self_removed_on_a_border_is_a_warning() {
        let p = plan(
            "custom",
            vec![device("r1")],
            &[("r1", &bgp(65001, " no neighbor 10.0.12.2 next-hop-self"))],
            &[],
        );
        let o = run(&CHECK, &with_next_hop_self(), &p);
        assert!(
            has(
                &o,
                Severity::Warning,
                "next-hop-self removed: what r1 learns from 203.0.113.2 (AS64500)"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn a_device_without_outside_peers_is_not_applicable_and_adding_next_hop_self_passes() {
        let p = plan(
            "custom",
            vec![device("r2")],
            &[("r2", &bgp(65001, " neighbor 10.0.12.1 next-hop-self"))],
            &[],
        );
        assert!(!run(&CHECK, &triangle(), &p).applies);
        let p = plan(
            "custom",
            vec![device("r1")],
            &[("r1", &bgp(65001, " neighbor 10.0.12.2 next-hop-self"))],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(o.applies && o.findings.is_empty(), "{o:?}");
    }
}
