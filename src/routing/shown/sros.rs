//! Nokia SR OS `info json /state router "Base" route-table`, with the router's
//! `interface` state to name each next hop's `if-index` — what lab-validation's
//! `SrosValidator` reads.

use super::{ShownError, ShownRoute};
use ipnet::Ipv4Net;
use serde_json::Value;
use std::collections::HashMap;
use std::net::Ipv4Addr;

/// Batfish's protocol name for an SR OS route-table protocol (`local` is an interface's
/// subnet: `connected`); the others as SR OS writes them.
fn protocol(p: &str) -> String {
    match p {
        "local" => "connected".to_owned(),
        other => other.to_ascii_lowercase(),
    }
}

/// The interface names by `if-index`, from `info json /state router "Base" interface`.
fn interface_names(text: &str) -> HashMap<u64, String> {
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return HashMap::new();
    };
    doc.get("nokia-state:interface")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|i| {
            Some((
                i.get("if-index")?.as_u64()?,
                i.get("interface-name")?.as_str()?.to_owned(),
            ))
        })
        .collect()
}

/// Routes of the `Base` route table (VRF `default`), one row per next hop; a next hop
/// with neither address nor interface is a blackhole. `interfaces`: the interface state,
/// without which next hops carry no interface name.
pub fn sros(route_table: &str, interfaces: Option<&str>) -> Result<Vec<ShownRoute>, ShownError> {
    let names = interfaces.map(interface_names).unwrap_or_default();
    let doc: Value = serde_json::from_str(route_table)?;
    // An instance without a table answers `{}`.
    if doc.as_object().is_some_and(|o| o.is_empty()) {
        return Ok(Vec::new());
    }
    let routes = doc
        .get("nokia-state:unicast")
        .ok_or(ShownError::Shape("no nokia-state:unicast object"))?
        .get("ipv4")
        .and_then(|v| v.get("route"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut out = Vec::new();
    for r in &routes {
        let Some(network) = r
            .get("ipv4-prefix")
            .and_then(Value::as_str)
            .and_then(|p| p.parse::<Ipv4Net>().ok())
        else {
            continue;
        };
        let proto = protocol(r.get("protocol").and_then(Value::as_str).unwrap_or(""));
        let mut base = ShownRoute::new("default", network, &proto);
        base.admin_distance = r
            .get("preference")
            .and_then(Value::as_u64)
            .map_or(0, |p| u32::try_from(p).unwrap_or(u32::MAX));
        let hops = r
            .get("nexthop")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if hops.is_empty() {
            let mut d = base.clone();
            d.discard = true;
            out.push(d);
        }
        for h in &hops {
            let mut row = base.clone();
            row.metric = h.get("metric").and_then(Value::as_u64).unwrap_or(0);
            row.next_hop_ip = h
                .get("nexthop-ip")
                .and_then(Value::as_str)
                .and_then(|a| a.parse::<Ipv4Addr>().ok());
            row.next_hop_interface = h
                .get("if-index")
                .and_then(Value::as_u64)
                .and_then(|i| names.get(&i).cloned());
            row.discard = row.next_hop_ip.is_none() && h.get("if-index").is_none();
            out.push(row);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::sros;

    #[test]
    fn rows_per_next_hop_with_interface_names_and_blackholes() {
        let table = r#"{"nokia-state:unicast":{"ipv4":{"route":[
            {"ipv4-prefix":"10.0.0.0/31","preference":0,"protocol":"local","nexthop":[{"if-index":2,"metric":0}]},
            {"ipv4-prefix":"192.0.2.0/24","preference":5,"protocol":"static","nexthop":[
                {"if-index":2,"metric":1,"nexthop-ip":"10.0.0.1"},{"if-index":3,"metric":1,"nexthop-ip":"10.0.1.1"}]},
            {"ipv4-prefix":"198.51.100.0/24","preference":5,"protocol":"static","nexthop":[{"metric":1}]}]}}}"#;
        let ifs = r#"{"nokia-state:interface":[{"interface-name":"to-r2","if-index":2},{"interface-name":"to-r2-b","if-index":3}]}"#;
        let rows = sros(table, Some(ifs)).expect("reads");
        let show: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{} {} {}/{} {:?} {:?} {}",
                    r.network,
                    r.protocol,
                    r.admin_distance,
                    r.metric,
                    r.next_hop_ip,
                    r.next_hop_interface,
                    r.discard
                )
            })
            .collect();
        assert_eq!(
            show,
            [
                "10.0.0.0/31 connected 0/0 None Some(\"to-r2\") false",
                "192.0.2.0/24 static 5/1 Some(10.0.0.1) Some(\"to-r2\") false",
                "192.0.2.0/24 static 5/1 Some(10.0.1.1) Some(\"to-r2-b\") false",
                "198.51.100.0/24 static 5/1 None None true",
            ]
        );
        assert!(sros("{}", None).expect("empty").is_empty());
        assert!(sros("not json", None).is_err());
    }
}
