//! Junos policy chains on a BGP path: every policy of the chain in order, each one's
//! terms in order; a term whose conditions all hold applies its actions, and the first
//! `accept` or `reject` ends the chain (`next policy` goes to the chain's next policy;
//! `next term` or no verdict to the next term). A chain that ends without a verdict takes
//! the protocol's default: BGP import accepts; BGP export accepts active BGP routes and
//! rejects everything else. Conditions and actions olav does not evaluate are
//! [`Unknown`].

use super::policy::Unknown;
use super::{Origin, Path};
use crate::model::{DeviceConfig, PolicyAction, PolicyMatch, PolicyTerm};
use crate::routing::route::Protocol;
use ipnet::IpNet;
use std::net::{IpAddr, Ipv4Addr};

/// What a route is to a policy beyond its path.
pub struct Context<'a> {
    /// The protocol it comes from (BGP for a received path).
    pub protocol: Protocol,
    /// The interface it leaves by, when it has one (a direct route's own).
    pub interface: Option<&'a str>,
    /// The peer it was received from.
    pub neighbor: Option<Ipv4Addr>,
    /// The session's own address (`next-hop self`).
    pub local_ip: Ipv4Addr,
    /// Export (else import): the default policy differs.
    pub export: bool,
}

/// Junos' name of a protocol in `from protocol`.
fn junos_name(p: Protocol) -> &'static str {
    match p {
        Protocol::Connected => "direct",
        Protocol::Local => "local",
        Protocol::Static => "static",
        Protocol::Ospf
        | Protocol::OspfIA
        | Protocol::OspfE1
        | Protocol::OspfE2
        | Protocol::OspfIS => "ospf",
        Protocol::IsisL1 | Protocol::IsisL2 => "isis",
        Protocol::Eigrp | Protocol::EigrpEx => "eigrp",
        Protocol::Bgp | Protocol::Ibgp => "bgp",
        Protocol::Aggregate => "aggregate",
    }
}

fn prefix_in(
    config: &DeviceConfig,
    list: &str,
    path: &Path,
    modifier: &str,
) -> Result<bool, Unknown> {
    let entries: Vec<_> = config
        .prefix_lists
        .iter()
        .filter(|e| e.name == list)
        .collect();
    if entries.is_empty() {
        // Junos matches nothing with an undefined or empty prefix-list.
        return Ok(false);
    }
    let p = IpNet::V4(path.prefix);
    Ok(entries.iter().any(|e| {
        let l = e.prefix.trunc();
        match modifier {
            "orlonger" => l.contains(&p) && p.prefix_len() >= l.prefix_len(),
            "longer" => l.contains(&p) && p.prefix_len() > l.prefix_len(),
            _ => l == p,
        }
    }))
}

fn community_members<'a>(config: &'a DeviceConfig, name: &str) -> Result<&'a [String], Unknown> {
    let members = config
        .policy_options
        .communities
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, m)| m.as_slice())
        .ok_or_else(|| Unknown(format!("community {name} is not defined")))?;
    Ok(members)
}

/// Whether a member is a regular expression rather than one community.
fn is_expression(member: &str) -> bool {
    member.contains(['*', '.', '^', '$', '[', '(', '+', '?', '|'])
}

/// Whether community member `member` (a literal, or a regular expression whose AS part
/// and value part each match the community's, as Junos matches them) matches community
/// `c`. None: an expression olav does not evaluate (alternatives, groups).
fn member_matches(member: &str, c: &str) -> Option<bool> {
    if !is_expression(member) {
        return Some(member == c);
    }
    if member.contains(['|', '(']) {
        return None;
    }
    let (ma, mv) = member.split_once(':')?;
    let Some((ca, cv)) = c.split_once(':') else {
        return Some(false);
    };
    Some(
        super::expression::matches(&format!("^{ma}$"), ca)?
            && super::expression::matches(&format!("^{mv}$"), cv)?,
    )
}

/// Whether any of `communities` matches `member`.
fn any_matches(name: &str, member: &str, communities: &[String]) -> Result<bool, Unknown> {
    let mut hit = false;
    for c in communities {
        hit |= member_matches(member, c).ok_or_else(|| {
            Unknown(format!(
                "community {name}: the regular expression {member} (not evaluated)"
            ))
        })?;
    }
    Ok(hit)
}

/// Whether every condition of `t` holds (prefix conditions are alternatives of one
/// another, as Junos takes them).
fn matches(
    config: &DeviceConfig,
    t: &PolicyTerm,
    path: &Path,
    ctx: &Context<'_>,
) -> Result<bool, Unknown> {
    let mut prefix_conditions = 0;
    let mut prefix_hit = false;
    for m in &t.from {
        let ok = match m {
            PolicyMatch::Protocol(ps) => ps.iter().any(|p| p == junos_name(ctx.protocol)),
            PolicyMatch::PrefixList(l) => {
                prefix_conditions += 1;
                prefix_hit |= prefix_in(config, l, path, "exact")?;
                continue;
            }
            PolicyMatch::PrefixListFilter { name, modifier } => {
                prefix_conditions += 1;
                prefix_hit |= prefix_in(config, name, path, modifier)?;
                continue;
            }
            PolicyMatch::RouteFilter { prefix, lengths } => {
                prefix_conditions += 1;
                let p = IpNet::V4(path.prefix);
                prefix_hit |= prefix.contains(&p)
                    && (lengths.0..=lengths.1).contains(&path.prefix.prefix_len());
                continue;
            }
            PolicyMatch::Community(names) => {
                let mut any = false;
                for n in names {
                    // Every member matched by one of the route's communities.
                    let mut all = true;
                    for m in community_members(config, n)? {
                        all &= any_matches(n, m, &path.communities)?;
                    }
                    any |= all;
                }
                any
            }
            PolicyMatch::Neighbor(addrs) => {
                ctx.neighbor.is_some_and(|n| addrs.contains(&IpAddr::V4(n)))
            }
            PolicyMatch::Interface(names) => ctx
                .interface
                .is_some_and(|i| names.iter().any(|n| crate::ifname::same(n, i) || *n == i)),
            PolicyMatch::AsPath(names) => {
                let mut any = false;
                for n in names {
                    any |= as_path_matches(config, n, &path.as_path)?;
                }
                any
            }
            PolicyMatch::LocalPreference(v) => path.local_pref == *v,
            PolicyMatch::Other(o) => return Err(Unknown(o.clone())),
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(prefix_conditions == 0 || prefix_hit)
}

/// Applies the chain `names` to `path`: Some(the path as changed) when accepted.
pub fn chain(
    config: &DeviceConfig,
    names: &[String],
    path: Path,
    ctx: &Context<'_>,
) -> Result<Option<Path>, Unknown> {
    match evaluate(config, names, path, ctx)? {
        Verdict::Accept(p) => Ok(Some(p)),
        Verdict::Reject => Ok(None),
        Verdict::Undecided(p) => Ok(default_accepts(ctx).then_some(p)),
    }
}

/// What a chain decides on a path.
pub enum Verdict {
    /// A term accepted it (as changed).
    Accept(Path),
    /// A term rejected it.
    Reject,
    /// No term decided: the protocol's default does (the path as changed).
    Undecided(Path),
}

/// The default policy of BGP: import accepts; export accepts active BGP routes only.
pub fn default_accepts(ctx: &Context<'_>) -> bool {
    !ctx.export || matches!(ctx.protocol, Protocol::Bgp | Protocol::Ibgp)
}

/// Runs the chain `names` on `path` up to its first `accept` or `reject`.
pub fn evaluate(
    config: &DeviceConfig,
    names: &[String],
    mut path: Path,
    ctx: &Context<'_>,
) -> Result<Verdict, Unknown> {
    for name in names {
        let Some(policy) = config
            .policy_options
            .statements
            .iter()
            .find(|s| s.name == *name)
        else {
            return Err(Unknown(format!("policy-statement {name} is not defined")));
        };
        'terms: for t in &policy.terms {
            if !matches(config, t, &path, ctx)? {
                continue;
            }
            for a in &t.then {
                match a {
                    PolicyAction::Accept => return Ok(Verdict::Accept(path)),
                    PolicyAction::Reject => return Ok(Verdict::Reject),
                    PolicyAction::NextTerm => continue 'terms,
                    PolicyAction::NextPolicy => break 'terms,
                    PolicyAction::LocalPreference(v) => path.local_pref = *v,
                    PolicyAction::Metric(v) => path.med = *v,
                    PolicyAction::LocalPreferenceAdd(v) => {
                        path.local_pref = add(path.local_pref, *v)
                    }
                    PolicyAction::MetricAdd(v) => path.med = add(path.med, *v),
                    PolicyAction::ValidationState(_) => {}
                    PolicyAction::NextHopSelf => path.next_hop = ctx.local_ip,
                    PolicyAction::NextHop(IpAddr::V4(ip)) => path.next_hop = *ip,
                    PolicyAction::Prepend(asns) => {
                        let mut p = asns.clone();
                        p.extend_from_slice(&path.as_path);
                        path.as_path = p;
                    }
                    PolicyAction::Community { op, name } => {
                        let members = community_members(config, name)?.to_vec();
                        if op != "delete" && members.iter().any(|m| is_expression(m)) {
                            return Err(Unknown(format!(
                                "community {name}: a regular expression to {op}"
                            )));
                        }
                        match op.as_str() {
                            "set" => path.communities = members,
                            "delete" => {
                                let mut keep = Vec::new();
                                for c in std::mem::take(&mut path.communities) {
                                    let mut hit = false;
                                    for m in &members {
                                        hit |= any_matches(name, m, std::slice::from_ref(&c))?;
                                    }
                                    if !hit {
                                        keep.push(c);
                                    }
                                }
                                path.communities = keep;
                            }
                            _ => {
                                for m in members {
                                    if !path.communities.contains(&m) {
                                        path.communities.push(m);
                                    }
                                }
                            }
                        }
                    }
                    PolicyAction::Origin(o) => {
                        path.origin = match o.as_str() {
                            "igp" => Origin::Igp,
                            "egp" => Origin::Egp,
                            "incomplete" => Origin::Incomplete,
                            other => return Err(Unknown(format!("origin {other}"))),
                        }
                    }
                    PolicyAction::NextHop(other) => {
                        return Err(Unknown(format!("then next-hop {other}")))
                    }
                    PolicyAction::RemoveAs(_) => return Err(Unknown("as-path remove".into())),
                    PolicyAction::Other(o) => return Err(Unknown(o.clone())),
                }
            }
        }
    }
    Ok(Verdict::Undecided(path))
}

/// `v + d`, kept within 0..=u32::MAX.
fn add(v: u32, d: i64) -> u32 {
    u32::try_from((i64::from(v) + d).clamp(0, i64::from(u32::MAX))).unwrap_or(u32::MAX)
}

/// One term of a Junos AS-path regular expression: an AS number or `.` (any), with how
/// often it repeats.
#[derive(Debug, Clone, Copy)]
struct Term {
    asn: Option<u32>,
    min: usize,
    max: usize,
}

/// A Junos AS-path expression as terms (whole AS numbers, `.` any, `*` `+` `?` `{n}`
/// `{n,m}`; matched against the whole path). None for what olav does not evaluate
/// (alternation, groups, character classes, anchors).
fn terms(regex: &str) -> Option<Vec<Term>> {
    let chars: Vec<char> = regex.chars().collect();
    let mut out: Vec<Term> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' => i += 1,
            '.' => {
                out.push(Term {
                    asn: None,
                    min: 1,
                    max: 1,
                });
                i += 1;
            }
            '0'..='9' => {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let n: String = chars[start..i].iter().collect();
                out.push(Term {
                    asn: Some(n.parse().ok()?),
                    min: 1,
                    max: 1,
                });
            }
            '*' | '+' | '?' | '{' => {
                let last = out.last_mut()?;
                let (min, max) = match c {
                    '*' => (0, usize::MAX),
                    '+' => (1, usize::MAX),
                    '?' => (0, 1),
                    _ => {
                        let end = chars[i..].iter().position(|x| *x == '}')? + i;
                        let inner: String = chars[i + 1..end].iter().collect();
                        i = end;
                        match inner.split_once(',') {
                            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
                            None => {
                                let n = inner.trim().parse().ok()?;
                                (n, n)
                            }
                        }
                    }
                };
                last.min = min;
                last.max = max;
                i += 1;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Whether `terms` match the whole `path` (backtracking; paths are short).
fn full_match(terms: &[Term], path: &[u32]) -> bool {
    let Some((t, rest)) = terms.split_first() else {
        return path.is_empty();
    };
    let fits = |a: &u32| t.asn.is_none_or(|x| x == *a);
    let most = path.iter().take_while(|a| fits(a)).count().min(t.max);
    (t.min..=most).rev().any(|k| full_match(rest, &path[k..]))
}

/// Whether the as-path `name` matches `path`.
fn as_path_matches(config: &DeviceConfig, name: &str, path: &[u32]) -> Result<bool, Unknown> {
    let regex = config
        .policy_options
        .as_paths
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, r)| r.as_str())
        .ok_or_else(|| Unknown(format!("as-path {name} is not defined")))?;
    let t = terms(regex).ok_or_else(|| Unknown(format!("as-path {name} \"{regex}\"")))?;
    Ok(full_match(&t, path))
}

#[cfg(test)]
mod tests {
    use super::{full_match, terms};

    #[test]
    fn junos_as_path_expressions_match_whole_as_numbers() {
        let m = |re: &str, p: &[u32]| full_match(&terms(re).expect("read"), p);
        assert!(m(".*", &[]));
        assert!(m(".*", &[1, 2]));
        assert!(m(".*65100", &[65001, 65100]));
        assert!(!m(".*65100", &[65100, 65001]));
        assert!(m("65102.*", &[65102, 7]));
        assert!(!m("65.*", &[65100]));
        assert!(m("65099 .*", &[65099]));
        assert!(m("1 2{1,2} 3", &[1, 2, 2, 3]));
        assert!(!m("1 2{1,2} 3", &[1, 2, 2, 2, 3]));
        assert!(terms("(1|2)").is_none());
    }
}
