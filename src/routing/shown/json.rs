//! EOS `show ip route vrf all | json` and Junos `show route | display json`.

use super::{ShownError, ShownRoute};
use ipnet::Ipv4Net;
use serde_json::Value;
use std::net::Ipv4Addr;

/// The JSON document of a show output (Junos appends a `{master:0}` prompt, captures may
/// carry lines before the document).
fn document(text: &str) -> Result<Value, ShownError> {
    let start = text.find('{').ok_or(ShownError::Shape("no JSON object"))?;
    let body = &text[start..];
    let body = match body.rfind("{master") {
        Some(end) if end > 0 => &body[..end],
        _ => body,
    };
    Ok(serde_json::from_str(body)?)
}

/// Batfish's protocol name for an EOS `routeType`.
fn eos_protocol(route_type: &str) -> String {
    let t = route_type.to_ascii_lowercase();
    match t.as_str() {
        "ebgp" => "bgp".to_owned(),
        "ibgp" => "ibgp".to_owned(),
        "bgpaggregate" => "aggregate".to_owned(),
        // EOS's OSPF kinds under Batfish's names (lab-validation lowercases them and so
        // never pairs inter-area or external ones; olav compares them).
        "ospfinterarea" => "ospfIA".to_owned(),
        "ospfexternaltype1" => "ospfE1".to_owned(),
        "ospfexternaltype2" => "ospfE2".to_owned(),
        "isislevel1" => "isisL1".to_owned(),
        "isislevel2" => "isisL2".to_owned(),
        _ => t,
    }
}

/// Routes of EOS `show ip route vrf all | json`, one row per via (none: a discard row).
pub fn eos(text: &str) -> Result<Vec<ShownRoute>, ShownError> {
    let doc = document(text)?;
    let vrfs = doc
        .get("vrfs")
        .and_then(Value::as_object)
        .ok_or(ShownError::Shape("no vrfs object"))?;
    let mut out = Vec::new();
    for (vrf, v) in vrfs {
        let Some(routes) = v.get("routes").and_then(Value::as_object) else {
            continue;
        };
        for (prefix, r) in routes {
            let Ok(network) = prefix.parse::<Ipv4Net>() else {
                continue;
            };
            let protocol = eos_protocol(r.get("routeType").and_then(Value::as_str).unwrap_or(""));
            let default_pref = match protocol.as_str() {
                "static" => 1,
                "aggregate" => 200,
                _ => 0,
            };
            let mut base = ShownRoute::new(vrf, network, &protocol);
            base.admin_distance = r
                .get("preference")
                .and_then(Value::as_u64)
                .map_or(default_pref, |p| p.min(u32::MAX as u64) as u32);
            base.metric = r.get("metric").and_then(Value::as_u64).unwrap_or(0);
            let vias = r
                .get("vias")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if vias.is_empty() {
                let mut d = base.clone();
                d.discard = true;
                out.push(d);
            }
            for via in vias {
                let mut row = base.clone();
                row.next_hop_ip = via
                    .get("nexthopAddr")
                    .and_then(Value::as_str)
                    .and_then(|a| a.parse::<Ipv4Addr>().ok())
                    // An EVPN route's next hop is its VTEP.
                    .or_else(|| {
                        via.get("vtepAddr")
                            .and_then(Value::as_str)
                            .and_then(|a| a.parse::<Ipv4Addr>().ok())
                    });
                if let Some(i) = via.get("interface").and_then(Value::as_str) {
                    row.set_interface(i);
                }
                out.push(row);
            }
        }
    }
    Ok(out)
}

/// The `data` of the first element of `v[key]` (Junos' JSON wraps every value so).
fn data<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key)?.as_array()?.first()?.get("data")
}

fn data_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    data(v, key)?.as_str()
}

fn data_u64(v: &Value, key: &str) -> Option<u64> {
    data_str(v, key)?.trim().parse().ok()
}

/// Batfish's protocol name for a Junos `protocol-name`.
fn junos_protocol(name: &str) -> String {
    match name {
        "Direct" => "connected".to_owned(),
        "Local" => "local".to_owned(),
        "Static" => "static".to_owned(),
        "Aggregate" => "aggregate".to_owned(),
        "BGP" => "bgp".to_owned(),
        "OSPF" => "ospf".to_owned(),
        other => other.to_lowercase(),
    }
}

/// Routes of Junos `show route | display json`, `inet.0` tables only (`X.inet.0` is VRF
/// `X`), one row per next hop; `best` is the active tag (`*`).
pub fn junos(text: &str) -> Result<Vec<ShownRoute>, ShownError> {
    let doc = document(text)?;
    let infos = doc
        .get("route-information")
        .and_then(Value::as_array)
        .ok_or(ShownError::Shape("no route-information"))?;
    let mut out = Vec::new();
    for info in infos {
        for table in info
            .get("route-table")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = data_str(table, "table-name").unwrap_or_default();
            let vrf = match name {
                "inet.0" => "default",
                n => match n.strip_suffix(".inet.0") {
                    Some(v) => v,
                    None => continue,
                },
            };
            for rt in table
                .get("rt")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(network) =
                    data_str(rt, "rt-destination").and_then(|p| p.parse::<Ipv4Net>().ok())
                else {
                    continue;
                };
                for entry in rt
                    .get("rt-entry")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let proto_name = data_str(entry, "protocol-name").unwrap_or_default();
                    let mut base = ShownRoute::new(vrf, network, &junos_protocol(proto_name));
                    base.best =
                        data_str(entry, "active-tag").is_some_and(|t| t.contains(['*', '@', '#']));
                    base.admin_distance =
                        data_u64(entry, "preference").map_or(0, |p| p.min(u32::MAX as u64) as u32);
                    if proto_name == "IS-IS" {
                        // Junos names no level: its default preferences tell them apart.
                        base.protocol = match base.admin_distance {
                            15 => "isisL1",
                            18 => "isisL2",
                            _ => "isis",
                        }
                        .to_owned();
                    }
                    let metric_key = if proto_name == "BGP" { "med" } else { "metric" };
                    base.metric = data_u64(entry, metric_key).unwrap_or(0);
                    base.tag = data_u64(entry, "rt-tag");
                    let hops = entry
                        .get("nh")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    if hops.is_empty() {
                        let mut d = base.clone();
                        d.discard = data_str(entry, "nh-type")
                            .is_some_and(|t| matches!(t, "Discard" | "Reject"));
                        out.push(d);
                    }
                    let if_key = if proto_name == "Local" {
                        "nh-local-interface"
                    } else {
                        "via"
                    };
                    for nh in hops {
                        let mut row = base.clone();
                        row.next_hop_ip = data_str(&nh, "to").and_then(|a| a.parse().ok());
                        if let Some(i) = data_str(&nh, if_key) {
                            row.next_hop_interface = Some(i.to_owned());
                        }
                        out.push(row);
                    }
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eos_vias_are_rows_and_no_via_is_a_discard() {
        let text = r#"{"vrfs":{"default":{"routes":{
            "10.0.0.0/31":{"routeType":"connected","vias":[{"interface":"Ethernet1"}]},
            "10.9.0.0/16":{"routeType":"static","vias":[]},
            "2.2.2.2/32":{"routeType":"eBGP","preference":200,"metric":0,"vias":[{"interface":"Ethernet1","nexthopAddr":"10.0.0.1"}]}}}}}"#;
        let mut r = eos(text).unwrap();
        r.sort_by_key(|r| r.network);
        assert_eq!(r[0].protocol, "bgp");
        assert_eq!(r[1].next_hop_interface.as_deref(), Some("Ethernet1"));
        assert!(r[2].discard && r[2].admin_distance == 1);
        assert!(eos("not json").is_err());
    }

    #[test]
    fn junos_tables_entries_and_the_prompt() {
        let text = r#"{"route-information":[{"route-table":[{"table-name":[{"data":"inet.0"}],"rt":[
            {"rt-destination":[{"data":"10.0.0.0/31"}],"rt-entry":[{"active-tag":[{"data":"*"}],"protocol-name":[{"data":"Direct"}],"preference":[{"data":"0"}],"nh":[{"via":[{"data":"ge-0/0/0.0"}]}]}]},
            {"rt-destination":[{"data":"10.9.0.0/16"}],"rt-entry":[{"active-tag":[{"data":"*"}],"protocol-name":[{"data":"Static"}],"preference":[{"data":"5"}],"nh-type":[{"data":"Discard"}]}]}]},
            {"table-name":[{"data":"inet6.0"}],"rt":[]}]}]}
{master:0}"#;
        let r = junos(text).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].protocol, "connected");
        assert!(r[1].discard && r[1].admin_distance == 5);
    }

    #[test]
    fn isis_levels_by_name_and_preference() {
        let eos_text = r#"{"vrfs":{"default":{"routes":{
            "10.0.0.4/30":{"routeType":"isisLevel2","preference":115,"metric":20,"vias":[{"interface":"Ethernet1","nexthopAddr":"10.0.0.1"}]}}}}}"#;
        assert_eq!(eos_protocol("isisLevel1"), "isisL1");
        assert_eq!(eos(eos_text).unwrap()[0].protocol, "isisL2");
        let text = r#"{"route-information":[{"route-table":[{"table-name":[{"data":"inet.0"}],"rt":[
            {"rt-destination":[{"data":"10.255.0.2/32"}],"rt-entry":[{"active-tag":[{"data":"*"}],"protocol-name":[{"data":"IS-IS"}],"preference":[{"data":"18"}],"metric":[{"data":"10"}],"nh":[{"to":[{"data":"10.0.0.2"}],"via":[{"data":"ge-0/0/0.0"}]}]}]}]}]}]}"#;
        let r = junos(text).unwrap();
        assert_eq!((r[0].protocol.as_str(), r[0].metric), ("isisL2", 10));
    }
}
