//! What the internet sees: for every external BGP session (default VRF), the prefixes
//! the device announces to it and what its inbound policy accepts, before and after a
//! plan, so that a prefix no provider hears any more is seen. From the routing model
//! ([`from_ribs`]): the session's adj-RIB-out as BGP computes it (the device's best
//! paths through the session's outbound policy) and its inbound policy on the routes a
//! provider may send (`crate::routing::bgp::external`). Where the routing model is not
//! computed (a network larger than the candidate's limit), [`evaluate`] reads the
//! configurations alone: `network` statements with a matching route (its own, and those
//! of the AS's other BGP speakers), redistributed static and connected routes,
//! aggregates, through the outbound prefix-list and route-map. A construct olav cannot
//! evaluate (a policy it does not read, an undefined policy) makes the session's answer
//! "unknown", never "none".

use super::candidate::Candidate;
use crate::import::parse::parser_for;
use crate::model::{BgpPeer, DeviceConfig, Vendor};
use crate::routing::DeviceRib;
use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// What one external session is sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sent {
    /// Device.
    pub device: String,
    /// Peer address.
    pub peer: String,
    /// Peer AS.
    pub peer_asn: Option<u32>,
    /// Prefixes announced.
    pub prefixes: BTreeSet<IpNet>,
    /// Prefixes that may or may not be announced (their policy cannot be evaluated).
    pub maybe: BTreeSet<IpNet>,
    /// Why the answer is incomplete, when it is.
    pub unknown: Option<String>,
    /// The inbound policy on the routes a provider may send: (prefix, Some(accepted) or
    /// None when not evaluated); empty where it was not judged ([`evaluate`]).
    pub accepts: Vec<(IpNet, Option<bool>)>,
}

impl Sent {
    /// What the inbound policy accepts, in words: the default route, and "all prefixes"
    /// (every ordinary internet prefix probed) or the prefixes it takes
    /// ("default route: rejected; all prefixes: accepted"). None where not judged.
    pub fn accepts_summary(&self) -> Option<String> {
        let (default, rest) = self.accepts.split_first()?;
        let word = |v: Option<bool>| match v {
            Some(true) => "accepted",
            Some(false) => "rejected",
            None => "unknown",
        };
        let samples: Vec<IpNet> = crate::routing::bgp::external::samples()
            .into_iter()
            .map(IpNet::V4)
            .collect();
        let sampled: Vec<Option<bool>> = rest
            .iter()
            .filter(|(p, _)| samples.contains(p))
            .map(|(_, v)| *v)
            .collect();
        let all = if sampled.iter().any(Option::is_none) {
            "unknown".to_owned()
        } else if sampled.iter().all(|v| *v == Some(true)) {
            "accepted".to_owned()
        } else {
            let taken: Vec<String> = rest
                .iter()
                .filter(|(_, v)| *v == Some(true))
                .map(|(p, _)| p.to_string())
                .collect();
            match taken.len() {
                0 => "rejected".to_owned(),
                1 => format!("only 1 prefix ({})", taken.join(", ")),
                n if n <= 5 => format!("only {n} prefixes ({})", taken.join(", ")),
                n => format!("only {n} prefixes"),
            }
        };
        Some(format!(
            "default route: {}; all prefixes: {all}",
            word(default.1)
        ))
    }
}

/// Per-provider announcements before and after a plan.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Announcements {
    /// Sessions before the plan.
    pub before: Vec<Sent>,
    /// Sessions after the plan (a removed session is absent).
    pub after: Vec<Sent>,
}

impl Announcements {
    /// One row per external session, in order: its label ("device → peer (ASn)"), what
    /// it is sent before and after ("no session", "none", or the prefixes and any unknown).
    pub fn rows(&self) -> Vec<[String; 3]> {
        let show = |x: Option<&Sent>| match x {
            None => "no session".to_owned(),
            Some(x) => {
                let mut v: Vec<String> = x.prefixes.iter().map(|p| p.to_string()).collect();
                if let Some(u) = &x.unknown {
                    v.push(format!("unknown: {u}"));
                }
                if v.is_empty() {
                    "none".to_owned()
                } else {
                    v.join(", ")
                }
            }
        };
        let mut keys: Vec<(&str, &str, Option<u32>)> = self
            .before
            .iter()
            .chain(&self.after)
            .map(|x| (x.device.as_str(), x.peer.as_str(), x.peer_asn))
            .collect();
        keys.sort();
        keys.dedup();
        keys.into_iter()
            .map(|(d, p, asn)| {
                [
                    format!(
                        "{d} → {p}{}",
                        asn.map(|a| format!(" (AS{a})")).unwrap_or_default()
                    ),
                    show(self.before.iter().find(|x| x.device == d && x.peer == p)),
                    show(self.after.iter().find(|x| x.device == d && x.peer == p)),
                ]
            })
            .collect()
    }

    /// One row per external session whose inbound policy was judged: its label, what
    /// it accepts before and after ([`Sent::accepts_summary`]; "no session").
    pub fn accepts_rows(&self) -> Vec<[String; 3]> {
        let show = |x: Option<&Sent>| {
            x.map_or("no session".to_owned(), |x| {
                x.accepts_summary()
                    .unwrap_or_else(|| "not judged".to_owned())
            })
        };
        if !self
            .before
            .iter()
            .chain(&self.after)
            .any(|x| !x.accepts.is_empty())
        {
            return Vec::new();
        }
        self.rows()
            .into_iter()
            .zip(self.keys())
            .map(|([label, ..], (d, p))| {
                let find = |v: &'_ [Sent]| v.iter().find(|x| x.device == d && x.peer == p).cloned();
                [
                    label,
                    show(find(&self.before).as_ref()),
                    show(find(&self.after).as_ref()),
                ]
            })
            .collect()
    }

    /// Each session once, in the order of [`Announcements::rows`]: (device, peer).
    fn keys(&self) -> Vec<(String, String)> {
        let mut keys: Vec<(&str, &str, Option<u32>)> = self
            .before
            .iter()
            .chain(&self.after)
            .map(|x| (x.device.as_str(), x.peer.as_str(), x.peer_asn))
            .collect();
        keys.sort();
        keys.dedup();
        keys.into_iter()
            .map(|(d, p, _)| (d.to_owned(), p.to_owned()))
            .collect()
    }

    fn union(v: &[Sent]) -> BTreeSet<IpNet> {
        v.iter().flat_map(|s| s.prefixes.iter().copied()).collect()
    }

    /// Prefixes some provider heard before and none hears — or may hear — after.
    pub fn withdrawn(&self) -> Vec<IpNet> {
        let after = Self::union(&self.after);
        let maybe: BTreeSet<IpNet> = self
            .after
            .iter()
            .flat_map(|s| s.maybe.iter().copied())
            .collect();
        Self::union(&self.before)
            .into_iter()
            .filter(|p| !after.contains(p) && !maybe.contains(p))
            .collect()
    }

    /// Prefixes a session that existed before hears after the plan and did not before —
    /// a wider announcement (a route leak, when it is a provider): (device, peer, prefix).
    pub fn newly_announced(&self) -> Vec<(String, String, IpNet)> {
        let mut out = Vec::new();
        for a in &self.after {
            let Some(b) = self
                .before
                .iter()
                .find(|b| b.device == a.device && b.peer == a.peer)
            else {
                continue;
            };
            for p in a.prefixes.difference(&b.prefixes) {
                if !b.maybe.contains(p) {
                    out.push((a.device.clone(), a.peer.clone(), *p));
                }
            }
        }
        out
    }

    /// Prefixes a session that stays up no longer hears though another session still
    /// does (a prefix no session hears is [`Announcements::withdrawn`]): (device, peer,
    /// prefix) — the provider's traffic for it moves to the others.
    pub fn withdrawn_from_one(&self) -> Vec<(String, String, IpNet)> {
        let after = Self::union(&self.after);
        let mut out = Vec::new();
        for a in &self.after {
            let Some(b) = self
                .before
                .iter()
                .find(|b| b.device == a.device && b.peer == a.peer)
            else {
                continue;
            };
            for p in b.prefixes.difference(&a.prefixes) {
                if !a.maybe.contains(p) && after.contains(p) {
                    out.push((a.device.clone(), a.peer.clone(), *p));
                }
            }
        }
        out
    }

    /// Sessions whose inbound policy accepts otherwise after the plan: (device, peer,
    /// before, after), each "default route: …; all prefixes: …".
    pub fn accepts_changed(&self) -> Vec<(String, String, String, String)> {
        let mut out = Vec::new();
        for a in &self.after {
            let Some(b) = self
                .before
                .iter()
                .find(|b| b.device == a.device && b.peer == a.peer)
            else {
                continue;
            };
            if let (Some(x), Some(y)) = (b.accepts_summary(), a.accepts_summary()) {
                if x != y || b.accepts != a.accepts {
                    out.push((a.device.clone(), a.peer.clone(), x, y));
                }
            }
        }
        out
    }

    /// Whether any answer after the plan is incomplete (then "withdrawn" may be too long).
    pub fn unknown_after(&self) -> Vec<(&Sent, bool)> {
        self.after
            .iter()
            .filter(|s| s.unknown.is_some())
            .map(|s| {
                let same_before = self.before.iter().any(|b| {
                    b.device == s.device
                        && b.peer == s.peer
                        && b.unknown == s.unknown
                        && b.maybe == s.maybe
                });
                (s, same_before)
            })
            .collect()
    }
}

/// The eBGP sessions of the default VRF towards peers outside the network, as the
/// routing model computes them, of `ribs` (the devices in `removed` left out).
fn sessions<'a>(ribs: impl Iterator<Item = &'a DeviceRib>, removed: &[String]) -> Vec<Sent> {
    let mut out: Vec<Sent> = ribs
        .filter(|r| !removed.contains(&r.hostname))
        .flat_map(|r| {
            r.external
                .iter()
                .filter(|x| x.ebgp && x.vrf == "default")
                .map(|x| Sent {
                    device: r.hostname.clone(),
                    peer: x.peer.to_string(),
                    peer_asn: x.peer_asn,
                    prefixes: x.sent.iter().map(|p| IpNet::V4(*p)).collect(),
                    maybe: x.maybe.iter().map(|p| IpNet::V4(*p)).collect(),
                    unknown: (!x.unknown.is_empty()).then(|| x.unknown.join("; ")),
                    accepts: x.accepts.iter().map(|(p, v)| (IpNet::V4(*p), *v)).collect(),
                })
        })
        .collect();
    out.sort_by(|a, b| (&a.device, &a.peer).cmp(&(&b.device, &b.peer)));
    out
}

/// The announcements of every external session from the routing model: `before` the
/// network's RIBs, `after` the candidate's; the devices in `removed` (taken out by the
/// plan) announce nothing after it. A session that does not come up (its link shut, its
/// address gone) is absent.
pub fn from_ribs<'a>(
    before: impl Iterator<Item = &'a DeviceRib>,
    after: impl Iterator<Item = &'a DeviceRib>,
    removed: &[String],
) -> Announcements {
    Announcements {
        before: sessions(before, &[]),
        after: sessions(after, removed),
    }
}

/// Evaluates a prefix-list by name: Some(true) permit, Some(false) deny, None undefined.
fn prefix_list(cfg: &DeviceConfig, name: &str, p: &IpNet) -> Option<bool> {
    let mut entries: Vec<_> = cfg.prefix_lists.iter().filter(|e| e.name == name).collect();
    if entries.is_empty() {
        return None;
    }
    entries.sort_by_key(|e| (e.seq.unwrap_or(u32::MAX), e.line));
    Some(
        entries
            .iter()
            .find(|e| e.matches(p))
            .is_some_and(|e| e.permit),
    )
}

/// Evaluates a route-map: Ok(permit?) or Err(why it cannot be evaluated).
fn route_map(cfg: &DeviceConfig, name: &str, p: &IpNet) -> Result<bool, String> {
    let mut clauses: Vec<_> = cfg
        .route_map_clauses
        .iter()
        .filter(|c| c.name == name)
        .collect();
    if clauses.is_empty() {
        // A Junos export policy is a policy-statement, whose terms olav does not evaluate.
        if cfg
            .structures
            .iter()
            .any(|d| d.kind == crate::model::StructureKind::PolicyStatement && d.name == name)
        {
            return Err(format!(
                "the Junos export policy {name} (a policy-statement) is not evaluated by olav"
            ));
        }
        return Err(format!("route-map {name} is not defined"));
    }
    clauses.sort_by_key(|c| c.seq);
    for c in clauses {
        if let Some(o) = c.other.first() {
            return Err(format!(
                "route-map {name} {} uses '{o}', which olav does not evaluate",
                c.seq
            ));
        }
        let matched = if c.prefix_lists.is_empty() {
            true
        } else {
            let mut any = false;
            for pl in &c.prefix_lists {
                match prefix_list(cfg, pl, p) {
                    Some(true) => any = true,
                    Some(false) => {}
                    None => {
                        return Err(format!(
                            "prefix-list {pl} (route-map {name}) is not defined"
                        ))
                    }
                }
            }
            any
        };
        if matched {
            return Ok(c.permit);
        }
    }
    Ok(false)
}

/// Routes a device holds that a `network` statement can announce: connected subnets of
/// active interfaces and static routes (default VRF).
fn rib(cfg: &DeviceConfig) -> HashSet<IpNet> {
    cfg.interfaces
        .iter()
        .filter(|i| i.admin_up && i.vrf.is_none())
        .flat_map(|i| i.addresses.iter().map(|a| a.address.trunc()))
        .chain(
            cfg.static_routes
                .iter()
                .filter(|r| r.vrf.is_none())
                .map(|r| r.prefix),
        )
        .collect()
}

/// What a device originates itself (before policy): `network` statements with a route,
/// redistributed static and connected routes, aggregates.
fn originated(cfg: &DeviceConfig) -> BTreeSet<IpNet> {
    let mut out = BTreeSet::new();
    let Some(bgp) = &cfg.bgp else { return out };
    let rib = rib(cfg);
    for n in bgp.networks.iter().filter(|n| n.vrf.is_none()) {
        if rib.contains(&n.prefix) {
            out.insert(n.prefix);
        }
    }
    for (proto, _) in &bgp.redistribute {
        match proto.as_str() {
            "static" => out.extend(
                cfg.static_routes
                    .iter()
                    .filter(|r| r.vrf.is_none() && r.prefix.prefix_len() > 0)
                    .map(|r| r.prefix),
            ),
            "connected" => out.extend(
                cfg.interfaces
                    .iter()
                    .filter(|i| i.admin_up && i.vrf.is_none())
                    .flat_map(|i| i.addresses.iter().map(|a| a.address.trunc())),
            ),
            _ => {}
        }
    }
    out.extend(bgp.aggregates.iter().copied());
    out
}

/// The announcements of every external session, before and after the plan.
/// `removed`: devices the plan takes out of the network (a decommission); after the plan
/// they announce nothing and originate nothing.
pub fn evaluate(
    db: &StateDb,
    cand: &Candidate,
    removed: &[String],
) -> Result<Announcements, StateError> {
    let m = crate::network::NetworkModel::shared(db)?;
    // Speakers of BGP and their AS, and every address the network owns.
    let asn_of: HashMap<&str, Option<u32>> = m
        .devices
        .iter()
        .filter(|d| d.asn.is_some())
        .map(|d| (d.hostname.as_str(), d.asn))
        .collect();
    // Only addresses sessions name are asked about: one pass over the addresses answers
    // them all (a large network has a million addresses and a few thousand peers).
    // Hashed fast: every address of the network is looked up once.
    let mut asked: crate::routing::FastMap<std::net::IpAddr, bool> = m
        .sessions
        .iter()
        .filter_map(|s| Some((s.peer.parse().ok()?, false)))
        .collect();
    for a in &m.addresses {
        if let Some(owned) = asked.get_mut(&a.address) {
            *owned = true;
        }
    }
    let owned = |a: &str| -> Result<bool, StateError> {
        let Ok(ip) = a.parse::<std::net::IpAddr>() else {
            return Ok(false);
        };
        Ok(match asked.get(&ip) {
            Some(&o) => o,
            None => m.addresses.iter().any(|x| x.address == ip),
        })
    };
    let mut borders: BTreeSet<String> = BTreeSet::new();
    for s in m.sessions.iter().filter(|s| s.vrf == "default") {
        if !owned(&s.peer)? {
            borders.insert(s.hostname.clone());
        }
    }
    // Devices the plan configures may gain external sessions.
    borders.extend(cand.touched.iter().cloned());
    // iBGP-learned: network statements of the other speakers, with their routes, from
    // the state (touched devices from the candidate instead).
    let default = m.sym("default");
    // Which `network` statements have a route behind them: only those are looked up.
    let mut routed: crate::routing::FastMap<(&str, IpNet), bool> = m
        .bgp_networks
        .iter()
        .filter(|n| n.vrf == "default")
        .filter_map(|n| Some(((n.hostname.as_str(), n.prefix.parse().ok()?), false)))
        .collect();
    // Only the speakers' addresses can be behind a statement: a million addresses are
    // not each hashed with their hostname.
    let mut speaks = vec![false; m.names.len()];
    for (h, _) in routed.keys() {
        if let Some(s) = m.sym(h) {
            speaks[s as usize] = true;
        }
    }
    let speaker = |h: &str| m.sym(h).and_then(|s| speaks.get(s as usize)) == Some(&true);
    let candidates = m
        .static_routes
        .iter()
        .filter(|r| r.vrf == "default" && speaker(&r.hostname))
        .filter_map(|r| Some((r.hostname.as_str(), r.prefix.parse().ok()?)))
        .chain(
            m.addresses
                .iter()
                .filter(|a| speaks.get(a.hostname as usize) == Some(&true))
                .filter(|a| a.up && Some(a.vrf) == default)
                .map(|a| (m.name(a.hostname), a.prefix)),
        );
    for k in candidates {
        if let Some(r) = routed.get_mut(&k) {
            *r = true;
        }
    }
    let mut learned: BTreeMap<Option<u32>, BTreeSet<IpNet>> = BTreeMap::new();
    for n in m.bgp_networks.iter().filter(|n| n.vrf == "default") {
        let h = n.hostname.as_str();
        if cand.touched.contains(h) || borders.contains(h) {
            continue;
        }
        if let Ok(p) = n.prefix.parse::<IpNet>() {
            if routed.get(&(h, p)) == Some(&true) {
                learned
                    .entry(asn_of.get(h).copied().flatten())
                    .or_default()
                    .insert(p.trunc());
            }
        }
    }
    let mut parsed: HashMap<String, (DeviceConfig, DeviceConfig)> = HashMap::new();
    for b in &borders {
        if let Some(d) = cand.devices.get(b) {
            parsed.insert(b.clone(), (d.base.clone(), d.cand.clone()));
            continue;
        }
        let row = db.os_and_config(b)?;
        if let Some((os, text)) = row {
            let c = parser_for(Vendor::from_os(&os)).parse(&text);
            parsed.insert(b.clone(), (c.clone(), c));
        }
    }
    let mut out = Announcements::default();
    for after in [false, true] {
        // What each AS originates, from every speaker in this state.
        let mut by_as: BTreeMap<Option<u32>, BTreeSet<IpNet>> = learned.clone();
        let gone = |h: &str| after && removed.iter().any(|r| r == h);
        for (h, (b, a)) in &parsed {
            if gone(h) {
                continue;
            }
            let cfg = if after { a } else { b };
            let asn = cfg
                .bgp
                .as_ref()
                .and_then(|x| x.local_as)
                .or(asn_of.get(h.as_str()).copied().flatten());
            by_as.entry(asn).or_default().extend(originated(cfg));
        }
        for d in &cand.touched {
            if parsed.contains_key(d) {
                continue;
            }
            if let Some(x) = cand.devices.get(d) {
                let cfg = if after { &x.cand } else { &x.base };
                let asn = cfg.bgp.as_ref().and_then(|b| b.local_as);
                by_as.entry(asn).or_default().extend(originated(cfg));
            }
        }
        let mut sent = Vec::new();
        for (h, (b, a)) in &parsed {
            if gone(h) {
                continue;
            }
            let cfg = if after { a } else { b };
            let Some(bgp) = &cfg.bgp else { continue };
            let candidates = by_as.get(&bgp.local_as).cloned().unwrap_or_default();
            for n in bgp
                .neighbors
                .iter()
                .filter(|n| !n.shutdown && n.vrf.is_none())
            {
                let BgpPeer::Address(peer) = n.peer else {
                    continue;
                };
                if n.peer_asn.is_none() || n.peer_asn == bgp.local_as || owned(&peer.to_string())? {
                    continue;
                }
                // A session the plan ends (its interface shut, its address gone) hears nothing.
                if after
                    && cand
                        .lost_sessions
                        .iter()
                        .any(|l| l.device == *h && l.peer == peer.to_string())
                {
                    continue;
                }
                let mut s = Sent {
                    device: h.clone(),
                    peer: peer.to_string(),
                    peer_asn: n.peer_asn,
                    prefixes: BTreeSet::new(),
                    maybe: BTreeSet::new(),
                    unknown: None,
                    accepts: Vec::new(),
                };
                for p in &candidates {
                    let by_list = match &n.prefix_list_out {
                        None => Some(true),
                        Some(pl) => prefix_list(cfg, pl, p),
                    };
                    let by_map = match &n.route_map_out {
                        None => Ok(true),
                        Some(rm) => route_map(cfg, rm, p),
                    };
                    match (by_list, by_map) {
                        (Some(true), Ok(true)) => {
                            s.prefixes.insert(*p);
                        }
                        (None, _) => {
                            s.maybe.insert(*p);
                            s.unknown = Some(format!(
                                "prefix-list {} is not defined",
                                n.prefix_list_out.as_deref().unwrap_or("")
                            ))
                        }
                        (_, Err(why)) => {
                            s.maybe.insert(*p);
                            s.unknown = Some(why);
                        }
                        _ => {}
                    }
                }
                sent.push(s);
            }
        }
        sent.sort_by(|a, b| (&a.device, &a.peer).cmp(&(&b.device, &b.peer)));
        if after {
            out.after = sent;
        } else {
            out.before = sent;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::parse::parser_for;

    const CFG: &str = "hostname b\n!\nip prefix-list OURS seq 10 permit 10.10.0.0/16\nip prefix-list OURS seq 20 permit 10.20.0.0/16 le 24\nip prefix-list NONE seq 5 deny 0.0.0.0/0 le 32\n!\nroute-map OUT deny 5\n match ip address prefix-list NONE\nroute-map OUT permit 10\n match ip address prefix-list OURS\nroute-map OUT deny 100\nroute-map TAGGED permit 10\n match community C1\n!\nend\n";

    fn cfg() -> DeviceConfig {
        parser_for(Vendor::CiscoIos).parse(CFG)
    }

    fn sent(peer: &str, prefixes: &[&str], accepts: &[(&str, Option<bool>)]) -> Sent {
        let p = |s: &str| s.parse::<IpNet>().expect("prefix");
        Sent {
            device: "b".into(),
            peer: peer.into(),
            peer_asn: Some(64500),
            prefixes: prefixes.iter().map(|x| p(x)).collect(),
            maybe: BTreeSet::new(),
            unknown: None,
            accepts: accepts.iter().map(|(x, v)| (p(x), *v)).collect(),
        }
    }

    #[test]
    fn what_is_accepted_is_said_for_the_default_route_and_all_prefixes() {
        let samples: Vec<String> = crate::routing::bgp::external::samples()
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut all: Vec<(&str, Option<bool>)> = vec![("0.0.0.0/0", Some(false))];
        all.extend(samples.iter().map(|s| (s.as_str(), Some(true))));
        assert_eq!(
            sent("p", &[], &all).accepts_summary().as_deref(),
            Some("default route: rejected; all prefixes: accepted")
        );
        let mut some: Vec<(&str, Option<bool>)> = vec![("0.0.0.0/0", Some(true))];
        some.extend(samples.iter().map(|s| (s.as_str(), Some(false))));
        some.push(("192.0.2.0/24", Some(true)));
        assert_eq!(
            sent("p", &[], &some).accepts_summary().as_deref(),
            Some("default route: accepted; all prefixes: only 1 prefix (192.0.2.0/24)")
        );
        assert_eq!(sent("p", &[], &[]).accepts_summary(), None);
    }

    #[test]
    fn a_prefix_one_provider_stops_hearing_is_told_from_one_no_provider_hears() {
        let a = Announcements {
            before: vec![
                sent("p1", &["10.0.0.0/16", "10.1.0.0/16"], &[]),
                sent("p2", &["10.0.0.0/16"], &[]),
            ],
            after: vec![sent("p1", &[], &[]), sent("p2", &["10.0.0.0/16"], &[])],
        };
        let p = |s: &str| s.parse::<IpNet>().expect("prefix");
        assert_eq!(a.withdrawn(), vec![p("10.1.0.0/16")]);
        assert_eq!(
            a.withdrawn_from_one(),
            vec![("b".to_owned(), "p1".to_owned(), p("10.0.0.0/16"))]
        );
    }

    #[test]
    fn prefix_lists_match_exactly_or_within_lengths() {
        let c = cfg();
        let p = |s: &str| s.parse::<IpNet>().expect("prefix");
        assert_eq!(prefix_list(&c, "OURS", &p("10.10.0.0/16")), Some(true));
        assert_eq!(prefix_list(&c, "OURS", &p("10.10.1.0/24")), Some(false));
        assert_eq!(prefix_list(&c, "OURS", &p("10.20.5.0/24")), Some(true));
        assert_eq!(prefix_list(&c, "OURS", &p("10.20.5.0/25")), Some(false));
        assert_eq!(prefix_list(&c, "MISSING", &p("10.20.5.0/25")), None);
    }

    #[test]
    fn route_maps_take_the_first_matching_clause() {
        let c = cfg();
        let p = |s: &str| s.parse::<IpNet>().expect("prefix");
        // The deny clause's prefix-list denies everything, so it never matches.
        assert_eq!(route_map(&c, "OUT", &p("10.10.0.0/16")), Ok(true));
        assert_eq!(route_map(&c, "OUT", &p("192.0.2.0/24")), Ok(false));
        assert!(route_map(&c, "TAGGED", &p("10.10.0.0/16")).is_err());
        assert!(route_map(&c, "NOPE", &p("10.10.0.0/16")).is_err());
    }
}
