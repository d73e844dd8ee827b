//! Batfish's table answers: rows decoded into typed columns, and cells (flows, traces)
//! printed as pybatfish prints them.

use super::BatfishError;
use serde_json::Value;

/// A decoded table answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableAnswer {
    /// Column names and schemas.
    pub columns: Vec<(String, String)>,
    /// Rows keyed by column name, cells decoded to plain text.
    pub rows: Vec<Vec<(String, String)>>,
}

impl TableAnswer {
    /// A row's cell.
    pub fn cell<'a>(row: &'a [(String, String)], col: &str) -> &'a str {
        row.iter()
            .find(|(c, _)| c == col)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// Decodes a cell by its column schema (Node, Interface, Ip, …) into text.
fn cell_text(schema: &str, v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => {
            let inner = schema
                .trim_start_matches("Set<")
                .trim_start_matches("List<")
                .trim_end_matches('>');
            // Traces are several lines each: one per line, never run together.
            let sep = if inner == "Trace" { "\n" } else { ", " };
            items
                .iter()
                .map(|i| cell_text(inner, i))
                .collect::<Vec<_>>()
                .join(sep)
        }
        Value::Object(o) => match schema {
            "Node" => o
                .get("name")
                .map(|n| cell_text("String", n))
                .unwrap_or_default(),
            "Interface" => format!(
                "{}:{}",
                o.get("hostname")
                    .map(|n| cell_text("String", n))
                    .unwrap_or_default(),
                o.get("interface")
                    .map(|n| cell_text("String", n))
                    .unwrap_or_default()
            ),
            "FileLines" => format!(
                "{}:{}",
                o.get("filename")
                    .map(|n| cell_text("String", n))
                    .unwrap_or_default(),
                o.get("lines")
                    .map(|n| cell_text("List<Integer>", n))
                    .unwrap_or_default()
            ),
            "SelfDescribing" => o
                .get("value")
                .map(|n| cell_text("String", n))
                .unwrap_or_default(),
            "Flow" => flow_text(o),
            "Trace" => trace_text(o),
            _ => Value::Object(o.clone()).to_string(),
        },
    }
}

fn field<'a>(o: &'a serde_json::Map<String, Value>, k: &str) -> Option<&'a Value> {
    o.get(k).filter(|v| !v.is_null())
}

fn field_text(o: &serde_json::Map<String, Value>, k: &str) -> String {
    field(o, k)
        .map(|v| cell_text("String", v))
        .unwrap_or_default()
}

/// A flow as pybatfish's `Flow.__str__` prints it (`pybatfish/datamodel/flow.py`):
/// `start=node [interface=…] [vrf=…] [src->dst PROTOCOL …]`, ports only for TCP/UDP/DCCP/SCTP.
fn flow_text(o: &serde_json::Map<String, Value>) -> String {
    let proto = field_text(o, "ipProtocol");
    let num = |k: &str| field(o, k).and_then(Value::as_i64);
    let has_ports = matches!(proto.as_str(), "TCP" | "UDP" | "DCCP" | "SCTP")
        && num("srcPort").is_some()
        && num("dstPort").is_some();
    let ip_port = |ip: &str, port: &str| {
        let ip = field_text(o, ip);
        match num(port) {
            Some(p) if has_ports => format!("{ip}:{p}"),
            _ => ip,
        }
    };
    let proto_text = if let Some(n) = proto
        .strip_prefix("UNNAMED_")
        .or_else(|| proto.strip_prefix("unnamed_"))
    {
        format!("ipProtocol={n}")
    } else if proto.eq_ignore_ascii_case("tcp") {
        let flags: Vec<&str> = [
            ("tcpFlagsSyn", "SYN"),
            ("tcpFlagsFin", "FIN"),
            ("tcpFlagsAck", "ACK"),
            ("tcpFlagsRst", "RST"),
            ("tcpFlagsCwr", "CWR"),
            ("tcpFlagsEce", "ECE"),
            ("tcpFlagsPsh", "PSH"),
            ("tcpFlagsUrg", "URG"),
        ]
        .iter()
        .filter(|(k, _)| num(k).is_some_and(|v| v != 0))
        .map(|(_, n)| *n)
        .collect();
        if flags.is_empty() {
            "TCP (no flags set)".to_owned()
        } else {
            format!("TCP ({})", flags.join("-"))
        }
    } else if proto.eq_ignore_ascii_case("icmp") {
        let show = |k: &str| num(k).map_or_else(|| "None".to_owned(), |v| v.to_string());
        format!("ICMP (type={}, code={})", show("icmpVar"), show("icmpCode"))
    } else {
        proto.clone()
    };
    let mut extra = String::new();
    for (k, label) in [
        ("dscp", "dscp"),
        ("ecn", "ecn"),
        ("fragmentOffset", "fragmentOffset"),
    ] {
        if let Some(v) = num(k).filter(|v| *v != 0) {
            extra.push_str(&format!(" {label}={v}"));
        }
    }
    // 512 is Batfish's default packet length, which pybatfish leaves out.
    if let Some(v) = num("packetLength").filter(|v| *v != 512) {
        extra.push_str(&format!(" length={v}"));
    }
    let iface = field(o, "ingressInterface")
        .map(|v| format!(" interface={}", cell_text("String", v)))
        .unwrap_or_default();
    let vrf = field(o, "ingressVrf")
        .map(|v| cell_text("String", v))
        .filter(|v| v != "default")
        .map(|v| format!(" vrf={v}"))
        .unwrap_or_default();
    format!(
        "start={}{iface}{vrf} [{}->{} {proto_text}{extra}]",
        field_text(o, "ingressNode"),
        ip_port("srcIp", "srcPort"),
        ip_port("dstIp", "dstPort"),
    )
}

/// A step's detail as pybatfish prints the common ones (interfaces, routes, filters).
fn step_detail(kind: &str, d: &serde_json::Map<String, Value>) -> String {
    let iface = |k: &str| {
        field(d, k)
            .and_then(|v| v.get("interface"))
            .map(|v| cell_text("String", v))
            .unwrap_or_default()
    };
    match kind {
        "EnterInputInterface" => iface("inputInterface"),
        "ExitOutputInterface" => iface("outputInterface"),
        "Delivered" => {
            let i = iface("outputInterface");
            if i.is_empty() {
                String::new()
            } else {
                format!("Output Interface: {i}")
            }
        }
        "Originate" => field_text(d, "originatingVrf"),
        "Routing" => field(d, "routes")
            .and_then(Value::as_array)
            .map(|routes| {
                routes
                    .iter()
                    .map(|r| {
                        let g = |k: &str| {
                            r.get(k)
                                .filter(|v| !v.is_null())
                                .map(|v| cell_text("String", v))
                                .unwrap_or_default()
                        };
                        format!(
                            "{} (Network: {}, Next Hop IP:{})",
                            g("protocol"),
                            g("network"),
                            g("nextHopIp")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default(),
        "Filter" => format!("{} ({})", field_text(d, "filter"), field_text(d, "type")),
        _ => String::new(),
    }
}

/// A trace as pybatfish's `Trace.__str__` prints it: the disposition, then numbered hops,
/// each `node: N` and its steps as `ACTION(detail)`.
fn trace_text(o: &serde_json::Map<String, Value>) -> String {
    let mut out = field_text(o, "disposition");
    for (n, hop) in field(o, "hops")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let node = hop
            .pointer("/node/name")
            .map(|v| cell_text("String", v))
            .unwrap_or_default();
        out.push_str(&format!("\n{}. node: {node}", n + 1));
        for step in hop
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let action = step
                .get("action")
                .map(|v| cell_text("String", v))
                .unwrap_or_default();
            let kind = step.get("type").and_then(Value::as_str).unwrap_or("");
            let detail = step
                .get("detail")
                .and_then(Value::as_object)
                .map(|d| step_detail(kind, d))
                .unwrap_or_default();
            if detail.is_empty() {
                out.push_str(&format!("\n  {action}"));
            } else {
                out.push_str(&format!("\n  {action}({detail})"));
            }
        }
    }
    out
}

/// Decodes the first table answer element of an answer.
pub fn decode_table(answer: &Value, question: &str) -> Result<TableAnswer, BatfishError> {
    let status = answer
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("SUCCESS");
    if status != "SUCCESS" {
        let reason = answer
            .pointer("/answerElements/0/answer")
            .or_else(|| answer.get("summary").and_then(|s| s.get("notes")))
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            .map(|r| super::server_text(&r, 2000))
            .unwrap_or_else(|| format!("status {}", super::server_text(status, 100)));
        return Err(BatfishError::AnswerFailed {
            question: question.to_owned(),
            reason,
        });
    }
    let malformed = |reason: &str| BatfishError::Malformed {
        what: format!("the answer to {question}"),
        reason: reason.to_owned(),
    };
    let el = answer
        .pointer("/answerElements/0")
        .ok_or_else(|| malformed("no answerElements"))?;
    let cols = el
        .pointer("/metadata/columnMetadata")
        .and_then(Value::as_array)
        .ok_or_else(|| malformed("no metadata.columnMetadata"))?;
    let columns: Vec<(String, String)> = cols
        .iter()
        .map(|c| {
            (
                c.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                c.get("schema")
                    .and_then(Value::as_str)
                    .unwrap_or("String")
                    .to_owned(),
            )
        })
        .collect();
    let rows = el
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| malformed("no rows"))?
        .iter()
        .map(|r| {
            columns
                .iter()
                .map(|(name, schema)| {
                    (
                        name.clone(),
                        r.get(name)
                            .map(|v| cell_text(schema, v))
                            .unwrap_or_default(),
                    )
                })
                .collect()
        })
        .collect();
    Ok(TableAnswer { columns, rows })
}

#[cfg(test)]
mod tests {
    use super::cell_text;
    use serde_json::json;

    #[test]
    fn flows_print_as_pybatfish_prints_them() {
        let tcp = json!({"dscp": 0, "dstIp": "10.0.0.2", "dstPort": 22, "ecn": 0, "fragmentOffset": 0,
            "ingressNode": "r1", "ingressVrf": "mgmt", "ipProtocol": "TCP", "packetLength": 512,
            "srcIp": "10.0.0.1", "srcPort": 49152, "tcpFlagsSyn": 1, "tcpFlagsAck": 1});
        assert_eq!(
            cell_text("Flow", &tcp),
            "start=r1 vrf=mgmt [10.0.0.1:49152->10.0.0.2:22 TCP (SYN-ACK)]"
        );
        let icmp = json!({"dscp": 0, "dstIp": "10.0.0.2", "ecn": 0, "fragmentOffset": 0, "icmpCode": 0,
            "icmpVar": 8, "ingressInterface": "Gi0/1", "ingressNode": "r1", "ingressVrf": "default",
            "ipProtocol": "ICMP", "packetLength": 100, "srcIp": "10.0.0.1"});
        assert_eq!(
            cell_text("Flow", &icmp),
            "start=r1 interface=Gi0/1 [10.0.0.1->10.0.0.2 ICMP (type=8, code=0) length=100]"
        );
    }
}
