//! New BGP neighbors: reachable, the peer's AS, filtered both ways, peered back; an
//! existing session keeps its remote AS.

use super::{Check, Context, Findings, Outcome};
use crate::model::BgpPeer;
use crate::network::peer_name;
use crate::precheck::Severity;
use crate::state::StateError;

/// New BGP neighbors are reachable, match the peer's AS and are new.
pub const CHECK: Check = Check {
    codes: &["precheck.new_neighbors"],
    name: "new BGP neighbors are reachable, match the peer's AS and are new",
    reads: "the candidate's BGP neighbors; stored sessions, addresses and device AS numbers",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let st = &cx.state;
    let cand = &cx.cand;
    let blocks = &cx.blocks;
    // New: on the device as the plan leaves it, not on it before (settings inherited
    // from peer-groups included); a plan that re-adds what exists adds nothing.
    let mut new_neighbors: Vec<(String, crate::model::BgpNeighbor)> = Vec::new();
    for d in &cand.touched {
        let Some(x) = cand.devices.get(d) else {
            continue;
        };
        let Some(after) = &x.cand.bgp else { continue };
        for n in after.neighbors.iter().filter(|n| !n.shutdown) {
            let before = x.base.bgp.as_ref().and_then(|b| {
                b.neighbors
                    .iter()
                    .find(|o| o.peer == n.peer && o.vrf == n.vrf)
            });
            match before {
                None => new_neighbors.push((d.clone(), n.clone())),
                Some(o) if o.peer_asn != n.peer_asn && o.peer_asn.is_some() => out.add(
                    Severity::Error,
                    format!("{d} neighbor {}", n.peer),
                    format!(
                        "the plan changes the remote AS of an existing session from {} to {}",
                        o.peer_asn.map_or("none".into(), |a| format!("AS{a}")),
                        n.peer_asn.map_or("none".into(), |a| format!("AS{a}"))
                    ),
                    "remove the neighbor first, or leave its remote-as as it is",
                ),
                Some(_) => {}
            }
        }
    }
    if new_neighbors.is_empty() {
        return Ok(out.not_applicable());
    }
    for (dev, n) in &new_neighbors {
        let dev = dev.clone();
        let dev = &dev;
        let Some(cfg) = cand.devices.get(dev).map(|x| &x.cand) else {
            continue;
        };
        let BgpPeer::Address(peer) = n.peer else {
            continue;
        };
        {
            let el = format!("{dev} neighbor {peer}");
            let connected = cfg
                .interfaces
                .iter()
                .flat_map(|i| i.addresses.iter())
                .map(|a| a.address)
                .chain(
                    st.all_addresses()?
                        .iter()
                        .filter(|a| a.0 == *dev)
                        .map(|a| a.3),
                )
                .any(|a| a.contains(&peer));
            let ibgp = n.peer_asn.is_some() && n.peer_asn == st.devices.get(dev).and_then(|d| d.2);
            if !connected && !((n.ebgp_multihop.is_some() || ibgp) && n.update_source.is_some()) {
                out.add(Severity::Error, &el, "the peer is in no connected subnet of the device, and the session has no ebgp-multihop with update-source", "put the neighbor in the new interface's subnet, or add ebgp-multihop and update-source");
            }
            let known: Vec<u32> = st
                .sessions
                .iter()
                .filter(|s| {
                    s.1 == peer.to_string()
                        || n.description
                            .as_deref()
                            .zip(s.3.as_deref())
                            .is_some_and(|(a, b)| {
                                let name = |d| peer_name(Some(d)).map(str::to_ascii_lowercase);
                                name(a) == name(b)
                            })
                })
                .filter_map(|s| s.2)
                .collect();
            if let (Some(asn), Some(k)) = (n.peer_asn, known.first()) {
                if !known.contains(&asn) {
                    out.add(
                        Severity::Error,
                        &el,
                        format!("remote-as {asn}, but the state DB knows this peer as AS{k}"),
                        format!("use remote-as {k}"),
                    );
                }
            }
            // A new eBGP session needs filters both ways, or it accepts and announces
            // everything (a route leak between providers).
            let local_as = st.devices.get(dev).and_then(|d| d.2);
            if n.peer_asn.is_some() && n.peer_asn != local_as {
                let cand_n = cand
                    .devices
                    .get(dev)
                    .and_then(|d| d.cand.bgp.as_ref())
                    .and_then(|b| b.neighbors.iter().find(|x| x.peer == n.peer));
                let text = blocks
                    .iter()
                    .filter(|(d, _, _)| d == dev)
                    .map(|(_, _, t)| *t)
                    .collect::<Vec<_>>()
                    .join("\n");
                let filtered = |dir: &str| {
                    let by_map = cand_n.is_some_and(|x| {
                        if dir == "in" {
                            x.route_map_in.is_some()
                        } else {
                            x.route_map_out.is_some()
                        }
                    });
                    by_map
                        || text.lines().any(|l| {
                            let w: Vec<&str> = l.split_whitespace().collect();
                            w.last() == Some(&dir)
                                && w.iter().any(|x| {
                                    matches!(
                                        *x,
                                        "route-map"
                                            | "prefix-list"
                                            | "filter-list"
                                            | "distribute-list"
                                    )
                                })
                                && (l.contains(&peer.to_string())
                                    || !l.trim_start().starts_with("neighbor"))
                        })
                };
                let missing: Vec<&str> =
                    ["in", "out"].into_iter().filter(|d| !filtered(d)).collect();
                if !missing.is_empty() {
                    out.add(
                            Severity::Warning,
                            &el,
                            format!(
                                "new eBGP session with no {} filter: it {}",
                                missing.join(" and no "),
                                match missing.as_slice() {
                                    ["in"] => "accepts every route the peer sends",
                                    ["out"] => "announces every route the device has (a route leak)",
                                    _ => "accepts and announces everything (a route leak between providers)",
                                }
                            ),
                            "add inbound and outbound route-maps or prefix-lists, and maximum-prefix, in the same plan",
                        );
                }
            }
            // A peer inside the network: its AS is its device's, and it must peer back.
            let owner = st
                .all_addresses()?
                .iter()
                .find(|a| a.3.addr() == peer && a.0 != *dev)
                .map(|a| (a.0.clone(), a.1.clone()));
            if let Some((owner, ifname)) = owner {
                let owner_as = st.devices.get(&owner).and_then(|d| d.2);
                if let (Some(asn), Some(oa)) = (n.peer_asn, owner_as) {
                    if asn != oa {
                        out.add(
                            Severity::Error,
                            &el,
                            format!("{peer} is {owner} {ifname}, in AS{oa}, not AS{asn}"),
                            format!("use remote-as {oa}, or the address of the intended peer"),
                        );
                    }
                }
                // Our end of this session: the update-source's address, else the
                // connected interface's, on the device as the plan leaves it.
                let ours: Vec<String> = cand
                    .devices
                    .get(dev)
                    .map(|d| {
                        d.cand
                            .interfaces
                            .iter()
                            .filter(|i| match &n.update_source {
                                Some(src) => crate::ifname::same(src, &i.name),
                                None => i.addresses.iter().any(|a| a.address.contains(&peer)),
                            })
                            .flat_map(|i| i.addresses.iter().map(|a| a.address.addr().to_string()))
                            .collect()
                    })
                    .unwrap_or_default();
                let back_stored = st
                    .sessions
                    .iter()
                    .any(|s| s.0 == owner && ours.contains(&s.1));
                let back_planned = blocks.iter().any(|(d, c, _)| {
                    *d == owner
                        && c.bgp.as_ref().is_some_and(|b| {
                            b.neighbors
                                .iter()
                                .any(|x| ours.contains(&x.peer.to_string()))
                        })
                });
                if !back_stored && !back_planned {
                    out.add(Severity::Warning, &el, format!("{owner} has no neighbor back to {dev}: the session stays half-open until {owner} is configured too"), format!("add the neighbor on {owner} in the same plan"));
                }
            }
        }
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::dialect::cisco::sample::bgp;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn neighbor_lines(lines: &str) -> Outcome {
        let p = plan(
            "add_uplink",
            vec![interface("r1", "GigabitEthernet0/3")],
            &[("r1", lines)],
            &[],
        );
        run(&CHECK, &triangle(), &p)
    }

    #[test]
    fn an_unreachable_unfiltered_peer_and_a_changed_remote_as_fail() {
        let o = neighbor_lines(&bgp(65001, " neighbor 198.51.100.2 remote-as 64501"));
        assert!(has(&o, Severity::Error, "in no connected subnet"), "{o:?}");
        assert!(
            has(
                &o,
                Severity::Warning,
                "new eBGP session with no in and no out filter"
            ),
            "{o:?}"
        );
        let o = neighbor_lines(&bgp(65001, " neighbor 203.0.113.2 remote-as 64999"));
        assert!(
            has(
                &o,
                Severity::Error,
                "changes the remote AS of an existing session from AS64500 to AS64999"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn a_connected_filtered_peer_passes_and_no_new_neighbor_is_not_applicable() {
        let o = neighbor_lines(
            "interface GigabitEthernet0/3\n ip address 198.51.100.1 255.255.255.252\n no shutdown\nrouter bgp 65001\n neighbor 198.51.100.2 remote-as 64501\n neighbor 198.51.100.2 route-map ISP-IN in\n neighbor 198.51.100.2 route-map ISP-OUT out",
        );
        assert!(o.passed(), "{o:?}");
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }

    use super::super::Outcome;
}
