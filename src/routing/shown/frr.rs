//! FRR's `show ip route vrf all json` (Cumulus' vtysh; one JSON document per VRF, the
//! default first) and the text `show ip route [bgp]` SONiC's labs hold.

use super::{ShownError, ShownRoute};
use ipnet::Ipv4Net;
use serde_json::Value;
use std::net::Ipv4Addr;

/// Batfish's protocol name for an FRR protocol and distance: FRR names eBGP and iBGP
/// routes alike (`bgp`); the distance tells them apart.
fn protocol(p: &str, distance: u32) -> String {
    match p {
        "bgp" if distance == 200 => "ibgp".to_owned(),
        "kernel" => "kernel".to_owned(),
        other => other.to_ascii_lowercase(),
    }
}

/// `10.0.0.0\/24` (old FRR escapes the slash) → the network.
fn network(s: &str) -> Option<Ipv4Net> {
    s.replace('\\', "").parse::<Ipv4Net>().ok()
}

/// Routes of `show ip route vrf all json`, selected ones only, one row per next hop.
/// The documents follow one another, one per VRF in the kernel's VRF order, and FRR 4
/// names none: a document's VRF is the one `vrf_of` gives the interface of its first
/// connected route (None: the default VRF); a route's `vrfName` wins where it is shown.
pub fn frr(
    text: &str,
    vrf_of: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<ShownRoute>, ShownError> {
    let mut out = Vec::new();
    let docs = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    for doc in docs {
        let doc = doc?;
        let Some(obj) = doc.as_object() else {
            return Err(ShownError::Shape("not a JSON object"));
        };
        let connected_via = obj
            .values()
            .filter_map(Value::as_array)
            .flatten()
            .filter(|r| r.get("protocol").and_then(Value::as_str) == Some("connected"))
            .filter_map(|r| {
                r.get("nexthops")?
                    .as_array()?
                    .first()?
                    .get("interfaceName")?
                    .as_str()
            })
            .next();
        let vrf = match connected_via {
            Some(i) => vrf_of(i).unwrap_or_else(|| "default".to_owned()),
            None => "unknown".to_owned(),
        };
        let vrf = vrf.as_str();
        // Newer FRR: `{ "default": { prefix: [...] }, "red": {...} }`.
        let nested = obj.values().all(Value::is_object);
        let tables: Vec<(&str, &serde_json::Map<String, Value>)> = if nested {
            obj.iter()
                .filter_map(|(v, t)| Some((v.as_str(), t.as_object()?)))
                .collect()
        } else {
            vec![(vrf, obj)]
        };
        for (vrf, table) in tables {
            for (prefix, routes) in table {
                let Some(net) = network(prefix) else { continue };
                for r in routes.as_array().into_iter().flatten() {
                    if r.get("selected").and_then(Value::as_bool) != Some(true) {
                        continue;
                    }
                    let distance = r
                        .get("distance")
                        .and_then(Value::as_u64)
                        .map_or(0, |d| d.min(u64::from(u32::MAX)) as u32);
                    let p = protocol(
                        r.get("protocol").and_then(Value::as_str).unwrap_or(""),
                        distance,
                    );
                    let vrf = r.get("vrfName").and_then(Value::as_str).unwrap_or(vrf);
                    let mut base = ShownRoute::new(vrf, net, &p);
                    base.admin_distance = distance;
                    base.metric = r.get("metric").and_then(Value::as_u64).unwrap_or(0);
                    base.tag = r.get("tag").and_then(Value::as_u64);
                    let hops = r.get("nexthops").and_then(Value::as_array);
                    for h in hops.into_iter().flatten() {
                        let mut row = base.clone();
                        if h.get("unreachable").and_then(Value::as_bool) == Some(true)
                            || h.get("blackhole").and_then(Value::as_bool) == Some(true)
                        {
                            row.discard = true;
                        }
                        // A link-local IPv6 next hop (BGP unnumbered) is shown by its interface.
                        row.next_hop_ip = h
                            .get("ip")
                            .and_then(Value::as_str)
                            .and_then(|a| a.parse::<Ipv4Addr>().ok());
                        if let Some(i) = h.get("interfaceName").and_then(Value::as_str) {
                            row.set_interface(i);
                        }
                        out.push(row);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// FRR's one-letter protocol codes.
fn code(c: char) -> Option<&'static str> {
    Some(match c {
        'C' => "connected",
        'S' => "static",
        'O' => "ospf",
        'B' => "bgp",
        'K' => "kernel",
        'L' => "local",
        'I' => "isis",
        _ => return None,
    })
}

/// Routes of the text `show ip route [bgp]` (`B>* 3.3.3.3/32 [20/0] via 10.1.21.1,
/// Ethernet1, 04:02:22`), selected ones (`>`) only, in `vrf`.
pub fn frr_text(text: &str, vrf: &str) -> Vec<ShownRoute> {
    let mut out: Vec<ShownRoute> = Vec::new();
    let mut last: Option<ShownRoute> = None;
    for line in text.lines() {
        let t = line.trim_start();
        let words: Vec<&str> = t.split_whitespace().collect();
        let Some(first) = words.first() else { continue };
        // An ECMP continuation: `  *                    via 10.0.0.5, swp2, …`.
        if line.starts_with(' ') && first.starts_with('*') {
            if let Some(prev) = &last {
                let mut r = prev.clone();
                hop(&mut r, &words);
                out.push(r);
            }
            continue;
        }
        let mut chars = first.chars();
        let Some(p) = chars.next().and_then(code) else {
            last = None;
            continue;
        };
        let flags: String = chars.collect();
        let Some(net) = words.get(1).and_then(|w| w.parse::<Ipv4Net>().ok()) else {
            last = None;
            continue;
        };
        if !flags.contains('>') {
            last = None;
            continue;
        }
        let (distance, metric) = words
            .get(2)
            .and_then(|w| w.strip_prefix('[')?.strip_suffix(']')?.split_once('/'))
            .map_or((0, 0), |(d, m)| {
                (d.parse().unwrap_or(0), m.parse().unwrap_or(0))
            });
        let mut r = ShownRoute::new(vrf, net, &protocol(p, distance));
        r.admin_distance = distance;
        r.metric = metric;
        let base = r.clone();
        hop(&mut r, &words);
        out.push(r);
        last = Some(base);
    }
    out
}

/// The next hop of a text route line: `via A, IFACE` or `is directly connected, IFACE`.
fn hop(r: &mut ShownRoute, words: &[&str]) {
    if let Some(i) = words.iter().position(|w| *w == "via") {
        r.next_hop_ip = words
            .get(i + 1)
            .map(|a| a.trim_end_matches(','))
            .and_then(|a| a.parse().ok());
        if let Some(name) = words.get(i + 2).filter(|w| w.ends_with(',')) {
            r.set_interface(name.trim_end_matches(','));
        }
    } else if let Some(i) = words.iter().position(|w| *w == "connected,") {
        if let Some(name) = words.get(i + 1) {
            r.set_interface(name.trim_end_matches(','));
        }
    }
    if words
        .iter()
        .any(|w| w.starts_with("blackhole") || w.starts_with("Null0"))
    {
        r.discard = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_documents_per_vrf_and_unnumbered_hops() {
        let text = "{\"10.0.0.0\\\\/24\": [{\"prefix\": \"10.0.0.0\\\\/24\", \"protocol\": \"connected\", \"selected\": true, \"nexthops\": [{\"directlyConnected\": true, \"interfaceName\": \"swp1\"}]}], \"10.9.0.0/24\": [{\"protocol\": \"bgp\", \"selected\": true, \"distance\": 20, \"metric\": 0, \"nexthops\": [{\"ip\": \"fe80::1\", \"afi\": \"ipv6\", \"interfaceName\": \"swp2\"}, {\"ip\": \"fe80::2\", \"afi\": \"ipv6\", \"interfaceName\": \"swp3\"}]}, {\"protocol\": \"ospf\", \"selected\": false, \"nexthops\": []}]}\n{\"0.0.0.0/0\": [{\"protocol\": \"static\", \"selected\": true, \"distance\": 1, \"nexthops\": [{\"ip\": \"10.254.0.1\", \"interfaceName\": \"eth0\"}]}], \"10.254.0.0/16\": [{\"protocol\": \"connected\", \"selected\": true, \"nexthops\": [{\"interfaceName\": \"eth0\"}]}]}";
        let vrf_of = |i: &str| (i == "eth0").then(|| "mgmt".to_owned());
        let rows = frr(text, &vrf_of).expect("reads");
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[0].network.to_string(), "10.0.0.0/24");
        assert_eq!(rows[1].next_hop_ip, None);
        assert_eq!(rows[2].next_hop_interface.as_deref(), Some("swp3"));
        assert_eq!((rows[3].vrf.as_str(), rows[3].admin_distance), ("mgmt", 1));
        assert!(frr("[1]", &vrf_of).is_err());
    }

    #[test]
    fn text_selected_rows_and_ecmp() {
        let text = "Codes: K - kernel route, C - connected, S - static\n\nB>*  3.3.3.3/32 [20/0] via 10.1.21.1, Ethernet1, 04:02:22\n  *                   via 10.1.22.1, Ethernet2, 04:02:22\nB    10.1.11.0/30 [20/0] via 10.1.11.1 inactive, 04:02:43\nC>* 10.1.21.0/30 is directly connected, Ethernet1, 04:02:22\nB>*  7.7.7.7/32 [200/0] via 10.1.11.1, Ethernet0, 04:02:43\n";
        let rows = frr_text(text, "default");
        let got: Vec<(String, String, Option<String>)> = rows
            .iter()
            .map(|r| {
                (
                    r.network.to_string(),
                    r.protocol.clone(),
                    r.next_hop_interface.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("3.3.3.3/32".into(), "bgp".into(), Some("Ethernet1".into())),
                ("3.3.3.3/32".into(), "bgp".into(), Some("Ethernet2".into())),
                (
                    "10.1.21.0/30".into(),
                    "connected".into(),
                    Some("Ethernet1".into())
                ),
                ("7.7.7.7/32".into(), "ibgp".into(), Some("Ethernet0".into())),
            ]
        );
    }
}
