//! PAN-OS import and export rules on a BGP path.
//!
//! A peer group's rules (`policy import|export rules`, the enabled ones `used-by` the
//! group) apply in order and the first one whose conditions all hold decides: `allow`
//! with its updates, or `deny`. A group with rules refuses what none of them matches; a
//! group without rules takes everything (Batfish's conversion, `Conversions.java`, does
//! the same). `reject-default-route` (on unless configured `no`) refuses a received
//! default route before the rules. The parser writes each direction and group as one
//! policy statement (`import::parse::panos::bgp`): a term per rule, a last term with that
//! default. A term's conditions: address prefixes (alternatives of one another), the
//! peer a route came from, AS-path and community regular expressions (Cisco-style, kept
//! as the lists route-maps read, [`super::policy`]); `update as-path remove` takes out
//! the AS numbers the rule's expression matches; `update community append|overwrite|
//! remove-all` change the communities. A condition or update olav does not
//! evaluate is [`Unknown`] — when the other conditions of its rule all hold. Export
//! candidates are BGP's own paths only (received, or originated by `redist-rules`), as
//! PAN-OS' common export policy takes them.

use super::expression;
use super::policy::{self, Unknown};
use super::{Origin, Path};
use crate::model::{BgpNeighbor, DeviceConfig, PolicyAction, PolicyMatch, PolicyTerm};
use ipnet::IpNet;
use std::net::{IpAddr, Ipv4Addr};

/// The neighbor's import rules on a path received from `peer`: Some(the path as
/// updated) when taken.
pub fn import(
    config: &DeviceConfig,
    n: &BgpNeighbor,
    path: Path,
    peer: Ipv4Addr,
) -> Result<Option<Path>, Unknown> {
    rules(config, &n.routing.import_chain, path, Some(peer))
}

/// The neighbor's export rules on a path this device selected (`from`: the peer it was
/// received from, for `match from-peer`): Some(the path as updated) when sent.
pub fn export(
    config: &DeviceConfig,
    n: &BgpNeighbor,
    path: Path,
    from: Option<Ipv4Addr>,
) -> Result<Option<Path>, Unknown> {
    rules(config, &n.routing.export_chain, path, from)
}

/// Whether a condition other than an address prefix holds; None when olav does not
/// evaluate it.
fn holds(
    config: &DeviceConfig,
    m: &PolicyMatch,
    path: &Path,
    peer: Option<Ipv4Addr>,
) -> Option<bool> {
    match m {
        PolicyMatch::Neighbor(addrs) => Some(peer.is_some_and(|p| addrs.contains(&IpAddr::V4(p)))),
        PolicyMatch::AsPath(lists) => {
            let mut any = false;
            for l in lists {
                any |= policy::as_path_list(config, l, path)?;
            }
            Some(any)
        }
        PolicyMatch::Community(lists) => {
            let mut any = false;
            for l in lists {
                any |= policy::community_list(config, l, path)?;
            }
            Some(any)
        }
        _ => None,
    }
}

/// Whether term `t` applies to `path`: every condition it evaluates holds (its address
/// prefixes being alternatives); Unknown when those hold and one it does not evaluate
/// remains.
fn applies(
    config: &DeviceConfig,
    t: &PolicyTerm,
    path: &Path,
    peer: Option<Ipv4Addr>,
) -> Result<bool, Unknown> {
    let mut prefixes = 0;
    let mut prefix_hit = false;
    let mut unknown: Option<Unknown> = None;
    for m in &t.from {
        if let PolicyMatch::RouteFilter { prefix, lengths } = m {
            prefixes += 1;
            let p = IpNet::V4(path.prefix);
            prefix_hit |=
                prefix.contains(&p) && (lengths.0..=lengths.1).contains(&path.prefix.prefix_len());
            continue;
        }
        match holds(config, m, path, peer) {
            Some(true) => {}
            Some(false) => return Ok(false),
            None => {
                unknown.get_or_insert_with(|| match m {
                    PolicyMatch::Other(o) => Unknown(o.clone()),
                    other => Unknown(format!("PAN-OS rule {}: {other:?}", t.name)),
                });
            }
        }
    }
    if prefixes > 0 && !prefix_hit {
        return Ok(false);
    }
    unknown.map_or(Ok(true), Err)
}

/// The path's AS numbers without those the lists' expressions match (each AS number
/// matched written alone).
fn remove_as(config: &DeviceConfig, lists: &[String], path: &Path) -> Result<Vec<u32>, Unknown> {
    let mut out = Vec::with_capacity(path.as_path.len());
    for a in &path.as_path {
        let mut hit = false;
        for l in lists {
            let expr = config
                .route_lists
                .as_path_lists
                .iter()
                .find(|(n, _, _)| n == l)
                .map(|(_, _, e)| e.as_str())
                .unwrap_or_default();
            hit |= expression::matches(expr, &a.to_string())
                .ok_or_else(|| Unknown(format!("update as-path remove with \"{expr}\"")))?;
        }
        if !hit {
            out.push(*a);
        }
    }
    Ok(out)
}

/// The rules of the statement `chain` names on `path`.
fn rules(
    config: &DeviceConfig,
    chain: &[String],
    mut path: Path,
    peer: Option<Ipv4Addr>,
) -> Result<Option<Path>, Unknown> {
    let Some(name) = chain.first() else {
        return Ok(Some(path));
    };
    let statement = config
        .policy_options
        .statements
        .iter()
        .find(|s| s.name == *name)
        .ok_or_else(|| Unknown(format!("PAN-OS rules {name} were not read")))?;
    for t in &statement.terms {
        if !applies(config, t, &path, peer)? {
            continue;
        }
        for a in &t.then {
            match a {
                PolicyAction::Accept => return Ok(Some(path)),
                PolicyAction::Reject => return Ok(None),
                PolicyAction::Metric(v) => path.med = *v,
                PolicyAction::LocalPreference(v) => path.local_pref = *v,
                PolicyAction::Prepend(asns) => {
                    let mut p = asns.clone();
                    p.extend_from_slice(&path.as_path);
                    path.as_path = p;
                }
                PolicyAction::Origin(o) => {
                    path.origin = match o.as_str() {
                        "igp" => Origin::Igp,
                        "egp" => Origin::Egp,
                        _ => Origin::Incomplete,
                    }
                }
                PolicyAction::RemoveAs(lists) => path.as_path = remove_as(config, lists, &path)?,
                PolicyAction::Community { op, name } => {
                    let members = config
                        .policy_options
                        .communities
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, m)| m.clone())
                        .unwrap_or_default();
                    if op == "set" {
                        path.communities.clear();
                    }
                    for m in members {
                        if !path.communities.contains(&m) {
                            path.communities.push(m);
                        }
                    }
                }
                PolicyAction::Other(o) => return Err(Unknown(o.clone())),
                other => return Err(Unknown(format!("PAN-OS rule {}: {other:?}", t.name))),
            }
        }
    }
    // The parser ends every statement with a deciding term; a statement without one
    // refuses, as PAN-OS refuses what no rule allows.
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FW: &str = "set network interface ethernet ethernet1/1 layer3 ip 10.0.0.0/31
set network virtual-router default interface ethernet1/1
set network virtual-router default protocol bgp router-id 192.0.2.1
set network virtual-router default protocol bgp local-as 65001
set network virtual-router default protocol bgp peer-group G peer p peer-as 65002
set network virtual-router default protocol bgp peer-group G peer p peer-address ip 10.0.0.1
set network virtual-router default protocol bgp policy import rules NO-65009 match as-path regex _65009_
set network virtual-router default protocol bgp policy import rules NO-65009 action deny
set network virtual-router default protocol bgp policy import rules NO-65009 used-by G
set network virtual-router default protocol bgp policy import rules TEN match address-prefix 10.0.0.0/8 exact no
set network virtual-router default protocol bgp policy import rules TEN action allow update local-preference 300
set network virtual-router default protocol bgp policy import rules TEN used-by G
set network virtual-router default protocol bgp policy import rules ODD match address-prefix 172.16.0.0/12 exact no
set network virtual-router default protocol bgp policy import rules ODD match med 5
set network virtual-router default protocol bgp policy import rules ODD action allow
set network virtual-router default protocol bgp policy import rules ODD used-by G
set network virtual-router default protocol bgp policy export rules STRIP match as-path regex _65009_
set network virtual-router default protocol bgp policy export rules STRIP action allow update as-path remove
set network virtual-router default protocol bgp policy export rules STRIP used-by G
set network virtual-router default protocol bgp policy export rules TAG match address-prefix 10.0.0.0/8 exact no
set network virtual-router default protocol bgp policy export rules TAG action allow update community append [ 65001:7 no-export ]
set network virtual-router default protocol bgp policy export rules TAG used-by G
";

    fn path(prefix: &str, as_path: &[u32]) -> Path {
        Path {
            next_hop: Ipv4Addr::new(10, 0, 0, 1),
            as_path: as_path.to_vec(),
            ..Path::originated(prefix.parse().expect("prefix"))
        }
    }

    #[test]
    fn the_first_matching_rule_decides_and_the_rest_is_refused() {
        let c = crate::import::parse::panos::parse(FW);
        let n = &c.bgp.as_ref().expect("bgp").neighbors[0];
        let peer = Ipv4Addr::new(10, 0, 0, 1);
        let got = |p: Path| import(&c, n, p, peer);
        // reject-default-route is on.
        assert_eq!(got(path("0.0.0.0/0", &[65002])), Ok(None));
        // The AS-path rule comes first.
        assert_eq!(got(path("10.1.0.0/16", &[65002, 65009])), Ok(None));
        let taken = got(path("10.1.0.0/16", &[65002])).expect("evaluated");
        assert_eq!(taken.map(|p| p.local_pref), Some(300));
        // No rule matches: refused.
        assert_eq!(got(path("192.168.0.0/16", &[65002])), Ok(None));
        // A rule whose prefix holds but whose MED condition olav does not evaluate.
        assert!(got(path("172.16.1.0/24", &[65002])).is_err());
    }

    #[test]
    fn remove_takes_out_what_the_expression_matches() {
        let c = crate::import::parse::panos::parse(FW);
        let n = &c.bgp.as_ref().expect("bgp").neighbors[0];
        let sent = export(&c, n, path("10.1.0.0/16", &[65002, 65009, 65003]), None);
        assert_eq!(
            sent.map(|p| p.map(|p| p.as_path)),
            Ok(Some(vec![65002, 65003]))
        );
        // The next rule adds communities.
        let tagged = export(&c, n, path("10.1.0.0/16", &[65002]), None);
        assert_eq!(
            tagged.map(|p| p.map(|p| p.communities)),
            Ok(Some(vec!["65001:7".to_owned(), "no-export".to_owned()]))
        );
        // No export rule matches: refused.
        assert_eq!(
            export(&c, n, path("192.0.2.0/24", &[65002]), None),
            Ok(None)
        );
    }

    #[test]
    fn a_group_without_rules_takes_and_sends_everything() {
        let text: String = FW
            .lines()
            .filter(|l| !l.contains(" policy "))
            .map(|l| format!("{l}\n"))
            .collect();
        let c = crate::import::parse::panos::parse(&text);
        let n = &c.bgp.as_ref().expect("bgp").neighbors[0];
        let p = path("192.168.0.0/16", &[65002]);
        assert_eq!(export(&c, n, p.clone(), None), Ok(Some(p.clone())));
        assert_eq!(
            import(&c, n, p.clone(), Ipv4Addr::new(10, 0, 0, 1)),
            Ok(Some(p))
        );
    }
}
