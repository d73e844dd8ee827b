//! The model's serialized values and field names in words for people: snake_case field
//! names as words (`speed_mbps` → "speed (Mbit/s)"), values short (addresses as text,
//! bools as yes/no, absent as "none", enum variants as words).

use serde_json::Value;

/// The longest value shown; longer ones are cut with "…".
const MAX_VALUE: usize = 160;

/// Field names whose words are not their parts', by the name as serialized.
const NAMES: &[(&str, &str)] = &[
    ("admin_up", "shutdown"),
    ("peer_asn", "remote AS"),
    ("local_as", "local AS"),
    ("route_map_in", "inbound route-map"),
    ("route_map_out", "outbound route-map"),
    ("prefix_list_in", "inbound prefix-list"),
    ("prefix_list_out", "outbound prefix-list"),
    ("prefix_lists", "match prefix-lists"),
    ("route_map", "route-map"),
    ("speed_mbps", "speed (Mbit/s)"),
    ("reference_bandwidth_mbps", "reference bandwidth (Mbit/s)"),
    ("bandwidth_kbps", "bandwidth (kbit/s)"),
    ("delay_tens_us", "delay (tens of µs)"),
    ("unsupported", "not modelled"),
    ("other", "other statements"),
    ("ebgp_multihop", "eBGP multihop"),
    ("matches", "match"),
    ("sets", "set"),
];

/// Bools shown by their own words, with no field name: (field, when true, when false).
const BOOL_WORDS: &[(&str, &str, &str)] = &[("permit", "permit", "deny")];

/// Fields shown inverted under another name: `admin_up` is "shutdown" (no when up).
const INVERTED: &[&str] = &["admin_up"];

/// Words written in capitals or their own spelling wherever they appear in a name.
const ACRONYMS: &[(&str, &str)] = &[
    ("mtu", "MTU"),
    ("ip", "IP"),
    ("vrf", "VRF"),
    ("vrfs", "VRFs"),
    ("bgp", "BGP"),
    ("ospf", "OSPF"),
    ("eigrp", "EIGRP"),
    ("isis", "IS-IS"),
    ("iso", "ISO"),
    ("as", "AS"),
    ("asn", "AS"),
    ("id", "ID"),
    ("vlan", "VLAN"),
    ("vlans", "VLANs"),
    ("dhcp", "DHCP"),
    ("nssa", "NSSA"),
    ("vpn", "VPN"),
    ("vni", "VNI"),
    ("vtep", "VTEP"),
    ("ibgp", "iBGP"),
    ("ebgp", "eBGP"),
    ("rfc1583", "RFC 1583"),
];

/// Fields of a nested object whose word is left out (their value says it).
const SILENT: &[&str] = &["routing", "kind"];

/// Enum variants serialized as strings, in words (whole values only).
const VARIANTS: &[(&str, &str)] = &[
    ("PointToPoint", "point-to-point"),
    ("Broadcast", "broadcast"),
    ("L1", "level-1"),
    ("L2", "level-2"),
    ("L1L2", "level-1-2"),
    ("Md5", "MD5"),
    ("Plain", "plain text"),
    ("Accept", "accept"),
    ("Reject", "reject"),
    ("NextTerm", "next term"),
    ("NextPolicy", "next policy"),
    ("NextHopSelf", "next-hop self"),
];

/// Fields that name an object, the first present standing alone in its words.
const LEADS: &[&str] = &[
    "name",
    "address",
    "prefix",
    "protocol",
    "interface",
    "area",
    "vrf",
];

/// A field name in words (`trunk_vlans` → "trunk VLANs"); empty for a bool shown by its
/// own words (`permit`).
pub fn field(name: &str) -> String {
    if BOOL_WORDS.iter().any(|(n, _, _)| *n == name) {
        return String::new();
    }
    if let Some((_, w)) = NAMES.iter().find(|(n, _)| *n == name) {
        return (*w).to_owned();
    }
    name.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            ACRONYMS
                .iter()
                .find(|(a, _)| *a == p)
                .map_or_else(|| p.to_owned(), |(_, w)| (*w).to_owned())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A dotted path of field names in words (`bgp.routing.vrf_vpn` → "BGP VRF VPN").
pub fn path(p: &str) -> String {
    p.split('.')
        .filter(|s| !SILENT.contains(s))
        .map(field)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `name` is shown inverted (a bool whose words are its opposite's).
pub fn inverted(name: &str) -> bool {
    INVERTED.contains(&name)
}

/// Whether a nested object's field is left out of its words.
pub fn silent(name: &str) -> bool {
    SILENT.contains(&name)
}

/// An enum variant name in words (`LocalPreference` → "local preference").
fn variant(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push(' ');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Whether an object is an externally tagged enum variant (`{"Address": "192.0.2.1"}`).
pub fn is_variant(m: &serde_json::Map<String, Value>) -> bool {
    m.len() == 1
        && m.keys()
            .next()
            .and_then(|k| k.chars().next())
            .is_some_and(|c| c.is_ascii_uppercase())
}

/// Whether a value says nothing: absent, false, empty.
pub fn is_default(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.iter().all(is_default),
        Value::Object(m) => m.values().all(is_default),
        Value::Bool(true) | Value::Number(_) => false,
    }
}

/// Whether a field's value says nothing worth listing in an element added or removed:
/// unset, false, empty — but "shutdown: yes" and "deny" say something.
pub fn says_nothing(name: &str, v: &Value) -> bool {
    match v {
        Value::Bool(b) if inverted(name) => *b,
        Value::Bool(_) if BOOL_WORDS.iter().any(|(n, _, _)| *n == name) => false,
        _ => is_default(v),
    }
}

/// A value in words, cut to a short length.
pub fn value(v: &Value) -> String {
    let s = text(v);
    if s.chars().count() <= MAX_VALUE {
        return s;
    }
    let mut cut: String = s.chars().take(MAX_VALUE - 1).collect();
    cut.push('…');
    cut
}

/// A bool field's value, inverted for the fields shown under their opposite's name.
pub fn field_value(name: &str, v: &Value) -> String {
    match v {
        Value::Bool(b) if inverted(name) => yes_no(!b).to_owned(),
        Value::Bool(b) => match BOOL_WORDS.iter().find(|(n, _, _)| *n == name) {
            Some((_, yes, no)) => (if *b { yes } else { no }).to_string(),
            None => value(v),
        },
        _ => value(v),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::Null => "none".to_owned(),
        Value::Bool(b) => yes_no(*b).to_owned(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => VARIANTS.iter().find(|(k, _)| k == s).map_or_else(
            || crate::output::one_line_printable(s),
            |(_, w)| (*w).to_owned(),
        ),
        Value::Array(a) if a.is_empty() => "none".to_owned(),
        Value::Array(a) => a
            .iter()
            .map(|e| match e {
                // A tuple: its parts side by side, absent ones left out.
                Value::Array(t) => t
                    .iter()
                    .filter(|p| !p.is_null())
                    .map(text)
                    .collect::<Vec<_>>()
                    .join(" "),
                other => text(other),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(m) if is_variant(m) => {
            let Some((k, inner)) = m.iter().next() else {
                return "none".to_owned();
            };
            // A peer address needs no "address" before it.
            let word = if k.as_str() == "Address" {
                String::new()
            } else {
                variant(k)
            };
            match (word.is_empty(), inner.is_null()) {
                (true, _) => text(inner),
                (false, true) => word,
                (false, false) => format!("{word} {}", text(inner)),
            }
        }
        Value::Object(m) => {
            // What names it stands alone (a name, an address); the rest say what they
            // are; a flag is its name.
            let lead = LEADS
                .iter()
                .find(|l| m.get(**l).is_some_and(|v| !is_default(v)));
            let rest: Vec<String> = m
                .iter()
                .filter(|(k, v)| !is_default(v) && Some(&k.as_str()) != lead)
                .map(|(k, v)| match v {
                    Value::Bool(true) => field(k),
                    _ if silent(k) => text(v),
                    _ => format!("{} {}", field(k), text(v)),
                })
                .collect();
            match (lead.and_then(|l| m.get(*l)), rest.is_empty()) {
                (None, true) => "none".to_owned(),
                (None, false) => rest.join(", "),
                (Some(l), true) => text(l),
                (Some(l), false) => format!("{} ({})", text(l), rest.join(", ")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn names_and_values_read_as_words() {
        assert_eq!(super::field("trunk_vlans"), "trunk VLANs");
        assert_eq!(super::field("admin_up"), "shutdown");
        assert_eq!(super::path("bgp.routing.vrf_vpn"), "BGP VRF VPN");
        assert_eq!(super::field_value("admin_up", &json!(false)), "yes");
        assert_eq!(super::value(&json!(null)), "none");
        assert_eq!(super::value(&json!({"Address": "192.0.2.1"})), "192.0.2.1");
        assert_eq!(
            super::value(&json!([{"LocalPreference": 200}, {"Continue": null}])),
            "local preference 200, continue"
        );
        assert_eq!(
            super::value(&json!([{"address": "10.0.0.1/30", "kind": "primary"}])),
            "10.0.0.1/30 (primary)"
        );
        assert_eq!(super::value(&json!([[null, 4], ["red", 2]])), "4, red 2");
        assert_eq!(super::value(&json!("line\u{1b}[2Jnext")), "line [2Jnext");
        let long = "x".repeat(500);
        assert_eq!(super::value(&json!(long)).chars().count(), 160);
    }
}
