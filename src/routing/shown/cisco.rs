//! IOS `show ip route [vrf X]`, IOS-XR `show route [vrf all]` and NX-OS `show ip route vrf
//! all` text.

use super::ShownRoute;
use ipnet::Ipv4Net;
use std::net::Ipv4Addr;

/// Batfish's protocol name for IOS route codes (`O` with `IA`, `E2`, …).
fn ios_protocol(codes: &[&str]) -> String {
    let raw = codes.first().copied().unwrap_or_default();
    // A candidate default runs into its sub-code: `O*IA`, `O*E2`.
    let (first, joined) = match raw.split_once('*') {
        Some((c, rest)) if !rest.is_empty() => (c, Some(rest)),
        _ => (raw.trim_end_matches(['*', '+', '%', 'p']), None),
    };
    let ext = joined.or(codes.get(1).copied()).unwrap_or_default();
    let name = match (first, ext) {
        ("C", _) => "connected",
        ("L", _) => "local",
        ("S", _) => "static",
        ("B", _) => "bgp",
        ("O", "IA") => "ospfIA",
        ("O", "E1" | "N1") => "ospfE1",
        ("O", "E2" | "N2") => "ospfE2",
        ("O", _) => "ospf",
        ("D", "EX") => "eigrpEX",
        ("D", _) => "eigrp",
        ("R", _) => "rip",
        ("i", "L1") => "isisL1",
        ("i", "L2") => "isisL2",
        ("i", _) => "isis",
        (other, _) => return other.to_lowercase(),
    };
    name.to_owned()
}

/// `A.B.C.D` or `A.B.C.D/L`: the address and the length when written.
fn network_word(w: &str) -> Option<(Ipv4Addr, Option<u8>)> {
    match w.split_once('/') {
        Some((a, l)) => Some((a.parse().ok()?, Some(l.parse().ok().filter(|l| *l <= 32)?))),
        None => Some((w.parse().ok()?, None)),
    }
}

/// `[AD/metric]`.
fn distance_metric(w: &str) -> Option<(u32, u64)> {
    let inner = w
        .strip_prefix('[')?
        .trim_end_matches(',')
        .strip_suffix(']')?;
    let (a, m) = inner.split_once('/')?;
    Some((a.parse().ok()?, m.parse().ok()?))
}

/// Fills a route's next hop, distance and metric from the words after its network.
fn fill(r: &mut ShownRoute, words: &[&str]) {
    if let Some((a, m)) = words.iter().find_map(|w| distance_metric(w)) {
        r.admin_distance = a;
        r.metric = m;
    }
    if let Some(i) = words.iter().position(|w| *w == "via") {
        let rest = &words[i + 1..];
        let hop = rest
            .first()
            .map(|w| w.trim_end_matches(','))
            .unwrap_or_default();
        match hop.parse::<Ipv4Addr>() {
            Ok(ip) => r.next_hop_ip = Some(ip),
            Err(_) if !hop.is_empty() => r.set_interface(hop),
            Err(_) => {}
        }
        let iface = rest
            .iter()
            .skip(1)
            .map(|w| w.trim_end_matches(','))
            .rfind(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()));
        if let Some(name) = iface {
            r.set_interface(name);
        }
    } else if let Some(i) = words
        .windows(2)
        .position(|w| w == ["directly", "connected,"])
    {
        if let Some(name) = words.get(i + 2) {
            r.set_interface(name.trim_end_matches(','));
        }
    }
}

/// Routes of IOS `show ip route` text; `vrf` is the table's VRF (`Routing Table:` lines
/// override it). Lines it does not know are skipped.
pub fn ios(text: &str, vrf: &str) -> Vec<ShownRoute> {
    let mut out: Vec<ShownRoute> = Vec::new();
    let mut vrf = vrf.to_owned();
    let mut subnet_len: Option<u8> = None;
    // The last route line, for ECMP continuation lines and a wrapped next hop.
    let mut last: Option<ShownRoute> = None;
    let mut last_complete = true;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else { continue };
        if let Some(v) = line.strip_prefix("Routing Table:") {
            vrf = v.trim().to_owned();
            continue;
        }
        if line.starts_with(char::is_whitespace) {
            // A classful header: `10.0.0.0/8 is variably subnetted, …` or
            // `10.0.0.0/24 is subnetted, 2 subnets`.
            if words.get(1) == Some(&"is") && words.contains(&"subnetted,") {
                subnet_len = network_word(first)
                    .and_then(|(_, l)| l)
                    .filter(|_| !words.contains(&"variably"));
                continue;
            }
            if network_word(first).is_some() && words.get(1) == Some(&"is") {
                continue;
            }
            // `[1/0] via 10.0.0.2`: another next hop of the last route, or the wrapped rest
            // of its line.
            if let Some(prev) = &last {
                if distance_metric(first).is_some() || *first == "via" || words.contains(&"via") {
                    let mut r = prev.clone();
                    if !last_complete {
                        fill(&mut r, &words);
                        if let Some(l) = out.last_mut() {
                            *l = r.clone();
                        }
                        last = Some(r);
                        last_complete = true;
                    } else {
                        r.next_hop_ip = None;
                        r.next_hop_interface = None;
                        r.discard = false;
                        fill(&mut r, &words);
                        out.push(r);
                    }
                }
            }
            continue;
        }
        // A route line: codes, then the network.
        let Some(at) = words.iter().position(|w| network_word(w).is_some()) else {
            continue;
        };
        // Codes are short (`O`, `IA`, `S*`); a candidate default joins them (`O*IA`).
        if at == 0 || at > 3 || words[..at].iter().any(|c| c.len() > 4) {
            continue;
        }
        let Some((addr, len)) = network_word(words[at]) else {
            continue;
        };
        let len = len.or(subnet_len).unwrap_or_else(|| classful(addr));
        let Ok(network) = Ipv4Net::new(addr, len) else {
            continue;
        };
        let rest = &words[at + 1..];
        let mut protocol = ios_protocol(&words[..at]);
        // `O 10.4.0.0/16 is a summary, 01:05:17, Null0`: an area range's discard route.
        let summary = rest.windows(2).any(|w| w == ["a", "summary,"]);
        if summary && protocol.starts_with("ospf") {
            protocol = "ospfIS".to_owned();
        }
        let mut r = ShownRoute::new(&vrf, network, &protocol);
        if protocol == "static" {
            r.admin_distance = 1;
        }
        r.discard |= summary && rest.contains(&"Null0");
        fill(&mut r, rest);
        last_complete = !rest.is_empty();
        out.push(r.clone());
        last = Some(r);
    }
    out
}

/// Routes of IOS-XR `show route` or `show route vrf all` text: IOS's layout with `VRF: X`
/// headers, a VRF route's next hop in another VRF written `via A (nexthop in vrf V)`, and a
/// BGP aggregate's discard next hop `via 0.0.0.0, …, Null0`.
pub fn iosxr(text: &str) -> Vec<ShownRoute> {
    let mut lines = String::with_capacity(text.len());
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("VRF:") {
            lines.push_str("Routing Table: ");
            lines.push_str(v.trim());
        } else {
            let mut l = line.to_owned();
            while let Some(i) = l.find(" (nexthop in vrf ") {
                let end = l[i..].find(')').map_or(l.len(), |e| i + e + 1);
                l.replace_range(i..end, "");
            }
            // The route's age (`00:12:14,`, `1d02h,`) sits where IOS has the interface.
            let kept: Vec<&str> = l.split(' ').filter(|w| !uptime(w)).collect();
            lines.push_str(&kept.join(" "));
        }
        lines.push('\n');
    }
    let mut rows = ios(&lines, "default");
    let subnets: Vec<(String, Ipv4Net)> = rows
        .iter()
        .filter(|r| r.protocol == "connected")
        .map(|r| (r.vrf.clone(), r.network))
        .collect();
    for r in &mut rows {
        if r.next_hop_ip == Some(Ipv4Addr::UNSPECIFIED) {
            r.next_hop_ip = None;
        }
        // A /32 interface address is shown `L` alone: it is the interface's connected
        // route (Batfish's, and olav's, name for it).
        if r.protocol == "local"
            && !subnets
                .iter()
                .any(|(v, n)| *v == r.vrf && n.prefix_len() < 32 && n.contains(&r.network.addr()))
        {
            r.protocol = "connected".to_owned();
        }
    }
    rows
}

/// Whether a word is an IOS-XR route age followed by its comma: `00:12:14,`, `1d02h,`,
/// `2w3d,`.
fn uptime(w: &str) -> bool {
    let Some(t) = w.strip_suffix(',') else {
        return false;
    };
    t.starts_with(|c: char| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ':' | 'w' | 'd' | 'h' | 'm' | 'y'))
        && (t.contains(':') || t.ends_with(|c: char| c.is_ascii_alphabetic()))
}

/// The classful length of an address (a route shown without one, outside a header).
fn classful(a: Ipv4Addr) -> u8 {
    match a.octets()[0] {
        0 => 0,
        1..=127 => 8,
        128..=191 => 16,
        _ => 24,
    }
}

/// Batfish's protocol name for an NX-OS `via` line's protocol words
/// (`direct`, `bgp-65001, external`, `ospf-1, intra`).
fn nxos_protocol(words: &[&str]) -> String {
    let first = words.first().copied().unwrap_or_default();
    let base = first.split('-').next().unwrap_or_default();
    let kind = words.get(1).copied().unwrap_or_default();
    let name = match (base, kind) {
        ("direct", _) => "connected",
        ("local", _) => "local",
        ("static", _) => "static",
        ("bgp", "internal") => "ibgp",
        ("bgp", _) => "bgp",
        ("ospf", "inter") => "ospfIA",
        ("ospf", "type-1") => "ospfE1",
        ("ospf", "type-2") => "ospfE2",
        ("ospf", _) => "ospf",
        ("eigrp", "external") => "eigrpEX",
        ("eigrp", _) => "eigrp",
        // As lab-validation reads them: a route of both levels, or leaked between
        // levels, is the level-2 one.
        ("isis", "L1") => "isisL1",
        ("isis", "L2" | "L1-L2" | "inter-area") => "isisL2",
        (other, _) => return other.to_lowercase(),
    };
    name.to_owned()
}

/// Routes of NX-OS `show ip route vrf all` text, every `via` line one row (`best` says
/// whether it is starred).
pub fn nxos(text: &str) -> Vec<ShownRoute> {
    let mut out = Vec::new();
    let mut vrf = "default".to_owned();
    let mut network: Option<Ipv4Net> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("IP Route Table for VRF \"") {
            vrf = rest.trim_end_matches('"').to_owned();
            network = None;
            continue;
        }
        if !line.starts_with(char::is_whitespace) {
            network = t
                .split(',')
                .next()
                .and_then(|w| w.parse::<Ipv4Net>().ok())
                .filter(|_| t.contains("ubest/mbest"));
            continue;
        }
        let (best, via) = match t.strip_prefix("*via ") {
            Some(v) => (true, v),
            None => match t.strip_prefix("via ") {
                Some(v) => (false, v),
                None => continue,
            },
        };
        let Some(net) = network else { continue };
        let fields: Vec<&str> = via.split(", ").map(str::trim).collect();
        let Some(dm) = fields.iter().position(|f| distance_metric(f).is_some()) else {
            continue;
        };
        // After [AD/metric]: the age, then the protocol words.
        let proto_words: Vec<&str> = fields.get(dm + 2..).unwrap_or_default().to_vec();
        let mut r = ShownRoute::new(&vrf, net, &nxos_protocol(&proto_words));
        r.best = best;
        if let Some((a, m)) = distance_metric(fields[dm]) {
            r.admin_distance = a;
            r.metric = m;
        }
        let hop = fields[0].split('%').next().unwrap_or_default();
        match hop.parse::<Ipv4Addr>() {
            Ok(ip) => r.next_hop_ip = Some(ip),
            Err(_) => r.set_interface(hop),
        }
        if dm >= 2 {
            r.set_interface(fields[1]);
        }
        r.tag = proto_words
            .iter()
            .find_map(|w| w.strip_prefix("tag "))
            // An EVPN route: `tag 65000 (evpn) segid: …`.
            .and_then(|t| t.split_whitespace().next()?.parse().ok());
        out.push(r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_defaults_keep_their_sub_code() {
        assert_eq!(ios_protocol(&["O*IA", "0.0.0.0/0"]), "ospfIA");
        assert_eq!(ios_protocol(&["O*E2", "0.0.0.0/0"]), "ospfE2");
        assert_eq!(ios_protocol(&["S*", "0.0.0.0/0"]), "static");
        assert_eq!(ios_protocol(&["O", "IA", "1.1.1.1"]), "ospfIA");
    }

    #[test]
    fn eigrp_and_isis_codes() {
        assert_eq!(ios_protocol(&["D", "192.168.123.3"]), "eigrp");
        assert_eq!(ios_protocol(&["D", "EX", "192.168.123.1"]), "eigrpEX");
        assert_eq!(ios_protocol(&["i", "L1", "10.0.0.0/30"]), "isisL1");
        assert_eq!(ios_protocol(&["i", "L2", "10.0.0.0/30"]), "isisL2");
        assert_eq!(ios_protocol(&["i*L1", "0.0.0.0/0"]), "isisL1");
        assert_eq!(ios_protocol(&["i", "ia", "10.0.0.0/30"]), "isis");
        assert_eq!(nxos_protocol(&["isis-CORE", "L1"]), "isisL1");
        assert_eq!(nxos_protocol(&["isis-CORE", "L1-L2"]), "isisL2");
        assert_eq!(nxos_protocol(&["isis-CORE", "inter-area"]), "isisL2");
        assert_eq!(nxos_protocol(&["eigrp-1", "external"]), "eigrpEX");
    }

    #[test]
    fn an_area_range_summary_is_an_ospf_is_discard_row() {
        let r = ios(
            "O        10.4.0.0/16 is a summary, 01:05:17, Null0",
            "default",
        );
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].protocol.as_str(), r[0].discard), ("ospfIS", true));
    }

    #[test]
    fn ios_lines_become_rows() {
        let text = [
            "Gateway of last resort is 10.0.0.1 to network 0.0.0.0",
            "",
            "S*    0.0.0.0/0 [1/0] via 10.0.0.1",
            "      10.0.0.0/8 is variably subnetted, 2 subnets, 2 masks",
            "C        10.0.0.0/30 is directly connected, GigabitEthernet0/1",
            "L        10.0.0.2/32 is directly connected, GigabitEthernet0/1",
            "      192.168.1.0/24 is subnetted, 1 subnets",
            "S        192.168.1.0 [5/0] via 10.0.0.1",
            "                     [5/0] via 10.0.0.5",
            "S     172.16.0.0/16 is directly connected, Null0",
        ]
        .join("\n");
        let text = text.as_str();
        let r = ios(text, "default");
        let got: Vec<String> = r
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} {:?} {:?} {}",
                    r.network,
                    r.protocol,
                    r.admin_distance,
                    r.next_hop_ip,
                    r.next_hop_interface,
                    r.discard
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                "0.0.0.0/0 static 1 Some(10.0.0.1) None false",
                "10.0.0.0/30 connected 0 None Some(\"GigabitEthernet0/1\") false",
                "10.0.0.2/32 local 0 None Some(\"GigabitEthernet0/1\") false",
                "192.168.1.0/24 static 5 Some(10.0.0.1) None false",
                "192.168.1.0/24 static 5 Some(10.0.0.5) None false",
                "172.16.0.0/16 static 1 None None true",
            ]
        );
    }

    #[test]
    fn nxos_via_lines_become_rows() {
        let text = [
            "IP Route Table for VRF \"default\"",
            "192.168.123.1/32, ubest/mbest: 2/0, attached",
            "    *via 192.168.123.1, Lo123, [0/0], 00:01:56, local",
            "    *via 192.168.123.1, Lo123, [0/0], 00:01:56, direct",
            "10.0.0.0/8, ubest/mbest: 1/0",
            "    *via 10.12.11.2, [1/0], 00:01:14, static",
            "    *via 10.0.0.9, [20/0], 00:01:14, bgp-1, external, tag 65002",
            "192.168.20.0/24, ubest/mbest: 1/0",
            "    *via 2.2.2.2%default, [200/0], 1d18h, bgp-65000, internal, tag 65000 (evpn) segid: 100777 tunnelid: 0x2020202 encap: VXLAN",
        ]
        .join("\n");
        let text = text.as_str();
        let r = nxos(text);
        assert_eq!(r.len(), 5);
        assert_eq!(r[0].protocol, "local");
        assert_eq!(r[1].next_hop_interface.as_deref(), Some("Lo123"));
        assert_eq!(r[2].next_hop_ip, Some("10.12.11.2".parse().unwrap()));
        assert_eq!((r[3].protocol.as_str(), r[3].tag), ("bgp", Some(65002)));
        assert_eq!((r[4].protocol.as_str(), r[4].tag), ("ibgp", Some(65000)));
        assert_eq!(r[4].next_hop_ip, Some("2.2.2.2".parse().unwrap()));
    }
}
