//! A client for Batfish's v2 HTTP API (port 9996): networks, snapshots (upload, fork),
//! queued work with polling, questions and table answers. Notes on the API:
//! `../shared/reference/batfish/API.md`.

use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Where Batfish is and how to talk to it.
#[derive(Clone)]
pub struct Endpoint {
    /// Host name or address.
    pub host: String,
    /// Port (9996).
    pub port: u16,
    /// Use HTTPS.
    pub ssl: bool,
    /// API key (never printed).
    pub apikey: String,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Endpoint({}:{}, ssl={}, apikey=<hidden>)",
            self.host, self.port, self.ssl
        )
    }
}

/// `text` with every occurrence of `key` replaced; keys too short to be secret are left.
pub fn redact(text: &str, key: &str) -> String {
    if key.len() < 8 {
        return text.to_owned();
    }
    text.replace(key, "[redacted API key]")
}

/// The default API key Batfish accepts.
pub const DEFAULT_APIKEY: &str = "00000000000000000000000000000000";

impl Endpoint {
    /// From explicit values, falling back to `OLAV_BATFISH_*` variables and defaults.
    pub fn resolve(host: Option<&str>, port: Option<u16>) -> Endpoint {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        Endpoint {
            host: host
                .map(str::to_owned)
                .or_else(|| env("OLAV_BATFISH_HOST"))
                .unwrap_or_else(|| "localhost".into()),
            port: port
                .or_else(|| env("OLAV_BATFISH_HTTP_PORT").and_then(|p| p.parse().ok()))
                .unwrap_or(9996),
            ssl: env("OLAV_BATFISH_SSL")
                .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes")),
            apikey: env("OLAV_BATFISH_APIKEY").unwrap_or_else(|| DEFAULT_APIKEY.into()),
        }
    }

    /// `host:port`.
    pub fn address(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }

    fn base(&self) -> String {
        format!(
            "{}://{}:{}/v2",
            if self.ssl { "https" } else { "http" },
            self.host,
            self.port
        )
    }
}

/// What went wrong talking to Batfish.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BatfishError {
    /// Nothing listens there, or the connection failed.
    #[error("Batfish is not reachable at {address}: {reason}")]
    Unreachable {
        /// host:port.
        address: String,
        /// Why.
        reason: String,
    },
    /// A request took too long.
    #[error("Batfish at {address} did not answer {what} within {secs:.1} s")]
    Timeout {
        /// host:port.
        address: String,
        /// Which request.
        what: String,
        /// The limit.
        secs: f64,
    },
    /// An HTTP error status.
    #[error("Batfish answered {what} with HTTP {status}: {body}{}", if *attempts > 1 { format!(" (tried {attempts} times)") } else { String::new() })]
    Http {
        /// Which request.
        what: String,
        /// Status code.
        status: u16,
        /// The body (trimmed).
        body: String,
        /// How many times it was sent (429 and 5xx are retried).
        attempts: u32,
    },
    /// A response body larger than olav reads.
    #[error("Batfish answered {what} with a body over {limit_mb} MB; olav stops reading there (a proxy or another service on that port?)")]
    TooLarge {
        /// Which request.
        what: String,
        /// The cap, in MB.
        limit_mb: u64,
    },
    /// Not the JSON expected.
    #[error("Batfish answered {what} with malformed JSON: {reason}")]
    Malformed {
        /// Which request.
        what: String,
        /// Why.
        reason: String,
    },
    /// Work ended badly.
    #[error("Batfish work {what} ended {code}{}", log.as_ref().map(|l| format!("; work log:\n{l}")).unwrap_or_default())]
    Work {
        /// Which work.
        what: String,
        /// Terminal status code.
        code: String,
        /// The work log, when it could be fetched.
        log: Option<String>,
    },
    /// An answer with status FAILURE.
    #[error("Batfish could not answer {question}: {reason}")]
    AnswerFailed {
        /// Question.
        question: String,
        /// Its message.
        reason: String,
    },
    /// The overall deadline passed.
    #[error("the Batfish verification ran past its deadline of {secs:.0} s (at {what})")]
    Deadline {
        /// Where it was.
        what: String,
        /// The deadline.
        secs: f64,
    },
}

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
            .unwrap_or_else(|| format!("status {status}"));
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

/// A connection to one Batfish service, bounded by an overall deadline.
pub struct Client {
    endpoint: Endpoint,
    http: reqwest::blocking::Client,
    deadline: Instant,
    total: Duration,
    /// Per-request timeout.
    pub request_timeout: Duration,
    /// The largest response body read, in bytes.
    pub max_body: u64,
    /// How many times a request is sent when Batfish answers 429 or 5xx or the connection drops.
    pub attempts: u32,
    /// The first pause between two attempts (doubled after each).
    pub backoff: Duration,
}

/// What uploading a snapshot did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upload {
    /// The snapshot was created.
    Created,
    /// A snapshot of that name existed already (another run uploaded it first).
    AlreadyExists,
}

/// A snapshot of a network and its processing status (`PARSED`, `PARSING_FAIL`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotInfo {
    /// Its name.
    pub name: String,
    /// `initializationMetadata.currentStatus`, when Batfish gave one.
    pub status: Option<String>,
    /// When it was created, in seconds since 1970 (0 when not given).
    pub created: f64,
}

/// A `creationTimestamp` as Jackson writes an `Instant`: seconds (a number) or RFC 3339 text.
fn seconds(v: Option<&Value>) -> f64 {
    match v {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(Value::String(s)) => chrono::DateTime::parse_from_rfc3339(s)
            .map(|t| t.timestamp_millis() as f64 / 1000.0)
            .unwrap_or(0.0),
        _ => 0.0,
    }
}

fn uuid() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Whether a request is worth another attempt after this HTTP status, as pybatfish
/// retries (`pybatfish/client/restv2helper.py`: `_STATUS_FORCELIST`, idempotent methods
/// only): 429 refused the request before doing anything, so any method; 5xx only for a
/// request that can be repeated (GET, PUT, DELETE) — a POST may have done its work.
fn retryable(status: u16, idempotent: bool) -> bool {
    status == 429 || (idempotent && matches!(status, 500 | 502 | 503 | 504))
}

/// One failed attempt: the error and, for a status worth retrying, how long the server asked to wait.
struct Failure {
    error: BatfishError,
    retry: bool,
    wait: Option<Duration>,
}

impl Client {
    /// A client that gives up on everything after `total`.
    pub fn new(endpoint: Endpoint, total: Duration) -> Result<Client, BatfishError> {
        let http = reqwest::blocking::Client::builder()
            .connect_timeout(Duration::from_secs(2))
            .build()
            .map_err(|e| BatfishError::Unreachable {
                address: endpoint.address(),
                reason: format!("cannot build an HTTP client: {e}"),
            })?;
        Ok(Client {
            endpoint,
            http,
            deadline: Instant::now() + total,
            total,
            request_timeout: Duration::from_secs(30),
            max_body: 8 * 1024 * 1024,
            attempts: 5,
            backoff: Duration::from_millis(250),
        })
    }

    /// The endpoint.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    fn remaining(&self, what: &str) -> Result<Duration, BatfishError> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| BatfishError::Deadline {
                what: what.to_owned(),
                secs: self.total.as_secs_f64(),
            })
    }

    /// Sends a request, retrying 429, 5xx and dropped connections with a doubling pause,
    /// all inside the overall deadline. Returns the status and the (capped) body.
    fn send(
        &self,
        what: &str,
        build: impl Fn() -> reqwest::blocking::RequestBuilder,
        timeout: Duration,
    ) -> Result<(u16, String), BatfishError> {
        self.send_with(what, build, timeout, self.attempts)
    }

    fn send_with(
        &self,
        what: &str,
        build: impl Fn() -> reqwest::blocking::RequestBuilder,
        timeout: Duration,
        attempts: u32,
    ) -> Result<(u16, String), BatfishError> {
        // `what` starts with the method: only POST is not idempotent among those olav sends.
        let idempotent = !what.starts_with("POST ");
        let mut pause = self.backoff;
        let mut attempt = 1;
        loop {
            match self.attempt(what, build(), timeout, attempt, idempotent) {
                Ok(r) => return Ok(r),
                Err(f) if f.retry && attempt < attempts.max(1) => {
                    let wait = f.wait.unwrap_or(pause);
                    // No time left for another attempt: the error itself says most.
                    let Ok(left) = self.remaining(what) else {
                        return Err(f.error);
                    };
                    if left <= wait {
                        return Err(f.error);
                    }
                    tracing::debug!("{what}: {}; attempt {} in {wait:?}", f.error, attempt + 1);
                    std::thread::sleep(wait);
                    pause = pause.saturating_mul(2);
                    attempt += 1;
                }
                Err(f) => return Err(f.error),
            }
        }
    }

    fn attempt(
        &self,
        what: &str,
        req: reqwest::blocking::RequestBuilder,
        timeout: Duration,
        attempt: u32,
        idempotent: bool,
    ) -> Result<(u16, String), Failure> {
        let fail = |error| Failure {
            error,
            retry: false,
            wait: None,
        };
        let limit = timeout.min(self.remaining(what).map_err(fail)?);
        let resp = req
            .header("X-Batfish-Apikey", &self.endpoint.apikey)
            .header(
                "X-Batfish-Version",
                concat!("olav-", env!("CARGO_PKG_VERSION")),
            )
            .timeout(limit)
            .send()
            .map_err(|e| {
                if e.is_timeout() {
                    fail(BatfishError::Timeout {
                        address: self.endpoint.address(),
                        what: what.to_owned(),
                        secs: limit.as_secs_f64(),
                    })
                } else {
                    // Refused: the request never reached the service, so any method may be
                    // sent again; reset or closed mid-way: only one that can be repeated.
                    Failure {
                        error: BatfishError::Unreachable {
                            address: self.endpoint.address(),
                            reason: if e.is_connect() {
                                "connection refused or no route".to_owned()
                            } else {
                                e.to_string()
                            },
                        },
                        retry: e.is_connect() || idempotent,
                        wait: None,
                    }
                }
            })?;
        let status = resp.status().as_u16();
        let wait = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = self.read_body(what, resp, limit).map_err(fail)?;
        if retryable(status, idempotent) {
            return Err(Failure {
                error: BatfishError::Http {
                    what: what.to_owned(),
                    status,
                    body: body.chars().take(300).collect(),
                    attempts: attempt,
                },
                retry: true,
                wait,
            });
        }
        Ok((status, body))
    }

    /// Reads at most `max_body` bytes: a declared or streamed larger body is an error, never read whole.
    fn read_body(
        &self,
        what: &str,
        resp: reqwest::blocking::Response,
        limit: Duration,
    ) -> Result<String, BatfishError> {
        use std::io::Read;
        let too_large = || BatfishError::TooLarge {
            what: what.to_owned(),
            limit_mb: self.max_body / (1024 * 1024),
        };
        if resp.content_length().is_some_and(|n| n > self.max_body) {
            return Err(too_large());
        }
        let mut buf = Vec::new();
        resp.take(self.max_body + 1)
            .read_to_end(&mut buf)
            .map_err(|e| BatfishError::Timeout {
                address: self.endpoint.address(),
                what: format!("{what} (reading the body: {e})"),
                secs: limit.as_secs_f64(),
            })?;
        if buf.len() as u64 > self.max_body {
            return Err(too_large());
        }
        // Every text from the server passes here: the key it may echo (in an error body, a
        // work log, an answer) is gone before anything prints, stores or writes it.
        Ok(redact(
            &String::from_utf8_lossy(&buf),
            &self.endpoint.apikey,
        ))
    }

    fn expect_ok(&self, what: &str, (status, body): (u16, String)) -> Result<String, BatfishError> {
        if (200..300).contains(&status) {
            Ok(body)
        } else {
            Err(BatfishError::Http {
                what: what.to_owned(),
                status,
                body: body.chars().take(300).collect(),
                attempts: 1,
            })
        }
    }

    fn json(&self, what: &str, body: &str) -> Result<Value, BatfishError> {
        serde_json::from_str(body).map_err(|e| BatfishError::Malformed {
            what: what.to_owned(),
            reason: e.to_string(),
        })
    }

    /// Waits `d` (less when the deadline comes first; an error when it has come).
    pub fn pause(&self, d: Duration, what: &str) -> Result<(), BatfishError> {
        std::thread::sleep(d.min(self.remaining(what)?));
        Ok(())
    }

    /// `GET /v2/version` with a short timeout and one attempt: the probe.
    pub fn version(&self, probe: Duration) -> Result<String, BatfishError> {
        let what = "GET /v2/version";
        let url = format!("{}/version", self.endpoint.base());
        let r = self.send_with(what, || self.http.get(&url), probe, 1)?;
        let body = self.expect_ok(what, r)?;
        let v = self.json(what, &body)?;
        Ok(v.get("Batfish")
            .or_else(|| v.get("version"))
            .and_then(Value::as_str)
            .unwrap_or("unknown")
            .to_owned())
    }

    /// Creates the network unless it exists. Another run creating it at the same time is
    /// no error: the coordinator answers 400 "Network '…' already exists!" (`WorkMgr.initNetwork`).
    pub fn ensure_network(&self, net: &str) -> Result<(), BatfishError> {
        let base = self.endpoint.base();
        let what = format!("GET /v2/networks/{net}");
        let url = format!("{base}/networks/{net}");
        let (status, body) = self.send(&what, || self.http.get(&url), self.request_timeout)?;
        if status == 404 {
            let what = format!("POST /v2/networks?name={net}");
            let url = format!("{base}/networks");
            let (status, body) = self.send(
                &what,
                || self.http.post(&url).query(&[("name", net)]),
                self.request_timeout,
            )?;
            if status == 400 && body.contains("already exists") {
                return Ok(());
            }
            self.expect_ok(&what, (status, body))?;
            return Ok(());
        }
        self.expect_ok(&what, (status, body)).map(|_| ())
    }

    /// The snapshots of a network with their processing status (`?verbose=true`, as
    /// pybatfish's `list_snapshots(verbose=True)` asks).
    pub fn snapshots(&self, net: &str) -> Result<Vec<SnapshotInfo>, BatfishError> {
        let what = format!("GET /v2/networks/{net}/snapshots");
        let url = format!("{}/networks/{net}/snapshots", self.endpoint.base());
        let r = self.send(
            &what,
            || self.http.get(&url).query(&[("verbose", "true")]),
            self.request_timeout,
        )?;
        let body = self.expect_ok(&what, r)?;
        let v = self.json(&what, &body)?;
        let items = v.as_array().ok_or_else(|| BatfishError::Malformed {
            what: what.clone(),
            reason: "not a list".into(),
        })?;
        Ok(items
            .iter()
            .filter_map(|x| match x {
                Value::String(s) => Some(SnapshotInfo {
                    name: s.clone(),
                    status: None,
                    created: 0.0,
                }),
                other => other
                    .get("name")
                    .and_then(Value::as_str)
                    .map(|n| SnapshotInfo {
                        name: n.to_owned(),
                        status: other
                            .pointer("/metadata/initializationMetadata/currentStatus")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        created: seconds(other.pointer("/metadata/creationTimestamp")),
                    }),
            })
            .collect())
    }

    /// Deletes a snapshot; `false` when there was none of that name.
    pub fn delete_snapshot(&self, net: &str, ss: &str) -> Result<bool, BatfishError> {
        let what = format!("DELETE /v2/networks/{net}/snapshots/{ss}");
        let url = format!("{}/networks/{net}/snapshots/{ss}", self.endpoint.base());
        let (status, body) = self.send(&what, || self.http.delete(&url), self.request_timeout)?;
        if status == 404 {
            return Ok(false);
        }
        self.expect_ok(&what, (status, body)).map(|_| true)
    }

    /// Uploads a snapshot zip (one top folder). A snapshot of that name already there is
    /// reported, not an error: the coordinator answers 400 "… already exists" (`SnapshotResource`).
    pub fn upload_snapshot(
        &self,
        net: &str,
        ss: &str,
        zip: Vec<u8>,
    ) -> Result<Upload, BatfishError> {
        let what = format!("POST /v2/networks/{net}/snapshots/{ss}");
        let url = format!("{}/networks/{net}/snapshots/{ss}", self.endpoint.base());
        let (status, body) = self.send(
            &what,
            || {
                self.http
                    .post(&url)
                    .header("Content-Type", "application/octet-stream")
                    .body(zip.clone())
            },
            // Sending a snapshot takes as long as its size needs: only the deadline bounds it
            // (as pybatfish gives uploads no timeout of their own).
            Duration::MAX,
        )?;
        if status == 400 && body.contains("already exists") {
            return Ok(Upload::AlreadyExists);
        }
        self.expect_ok(&what, (status, body))
            .map(|_| Upload::Created)
    }

    /// Forks `base` into `new` with replaced files and deactivated nodes and interfaces.
    /// The body has the keys pybatfish's `Session.fork_snapshot` sends.
    pub fn fork(
        &self,
        net: &str,
        base: &str,
        new: &str,
        zip: Option<Vec<u8>>,
        deactivate_nodes: &[String],
        deactivate_interfaces: &[(String, String)],
    ) -> Result<(), BatfishError> {
        use base64::Engine;
        let body = json!({
            "snapshotBase": base,
            "snapshotNew": new,
            "deactivateInterfaces": if deactivate_interfaces.is_empty() {
                Value::Null
            } else {
                Value::Array(deactivate_interfaces.iter().map(|(h, i)| json!({"hostname": h, "interface": i})).collect())
            },
            "deactivateNodes": if deactivate_nodes.is_empty() { Value::Null } else { json!(deactivate_nodes) },
            "restoreInterfaces": null,
            "restoreNodes": null,
            "zipFile": zip.map(|z| base64::engine::general_purpose::STANDARD.encode(z)),
        });
        let what = format!("POST /v2/networks/{net}/snapshots:fork");
        let url = format!("{}/networks/{net}/snapshots:fork", self.endpoint.base());
        let r = self.send(
            &what,
            || self.http.post(&url).json(&body),
            self.request_timeout,
        )?;
        self.expect_ok(&what, r).map(|_| ())
    }

    fn queue(&self, net: &str, item: &Value) -> Result<(), BatfishError> {
        let what = format!("POST /v2/networks/{net}/work");
        let url = format!("{}/networks/{net}/work", self.endpoint.base());
        let (status, body) = self.send(
            &what,
            || self.http.post(&url).json(item),
            self.request_timeout,
        )?;
        // A retry after a dropped connection finds the first attempt queued (`WorkResource.queueWork`).
        if status == 400 && body.contains("is a duplicate of existing WorkID") {
            return Ok(());
        }
        self.expect_ok(&what, (status, body)).map(|_| ())
    }

    /// Polls a work item to its end (0.1 s, ×1.5, capped at 1 s), bounded by the deadline.
    fn wait(&self, net: &str, ss: &str, id: &str, what: &str) -> Result<(), BatfishError> {
        let mut sleep = Duration::from_millis(100);
        loop {
            let req = format!("GET /v2/networks/{net}/work/{id}");
            let url = format!("{}/networks/{net}/work/{id}", self.endpoint.base());
            let r = self.send(&req, || self.http.get(&url), self.request_timeout)?;
            let body = self.expect_ok(&req, r)?;
            let v = self.json(&req, &body)?;
            let code = v
                .get("workstatuscode")
                .and_then(Value::as_str)
                .ok_or_else(|| BatfishError::Malformed {
                    what: req.clone(),
                    reason: "no workstatuscode".into(),
                })?
                .to_owned();
            match code.as_str() {
                "TERMINATEDNORMALLY" => return Ok(()),
                "TERMINATEDABNORMALLY"
                | "TERMINATEDBYUSER"
                | "ASSIGNMENTERROR"
                | "REQUEUEFAILURE" => {
                    let log = if code == "TERMINATEDABNORMALLY" {
                        let lreq = format!("GET /v2/networks/{net}/snapshots/{ss}/worklog/{id}");
                        let url = format!(
                            "{}/networks/{net}/snapshots/{ss}/worklog/{id}",
                            self.endpoint.base()
                        );
                        self.send(&lreq, || self.http.get(&url), self.request_timeout)
                            .ok()
                            .filter(|(s, _)| (200..300).contains(s))
                            .map(|(_, b)| b.chars().take(2000).collect())
                    } else {
                        None
                    };
                    return Err(BatfishError::Work {
                        what: what.to_owned(),
                        code,
                        log,
                    });
                }
                _ => {
                    self.remaining(what)?;
                    std::thread::sleep(sleep.min(self.remaining(what)?));
                    sleep = (sleep.mul_f64(1.5)).min(Duration::from_secs(1));
                }
            }
        }
    }

    /// Parses a snapshot (queued work, the parameters of pybatfish's `get_workitem_parse`).
    pub fn parse(&self, net: &str, ss: &str) -> Result<(), BatfishError> {
        let id = uuid();
        let item = json!({"containerName": net, "id": id, "testrigName": ss,
            "requestParams": {"testrig": ss, "si": "", "sv": "", "initinfo": ""}});
        self.queue(net, &item)?;
        self.wait(net, ss, &id, &format!("parsing snapshot {ss}"))
    }

    /// Asks a question of `ss` (against `reference` for differential questions). The
    /// question is sent as pybatfish sends it: its JSON text as an octet stream.
    pub fn ask(
        &self,
        net: &str,
        ss: &str,
        reference: Option<&str>,
        question: &Value,
    ) -> Result<TableAnswer, BatfishError> {
        let qname = question
            .pointer("/instance/instanceName")
            .and_then(Value::as_str)
            .unwrap_or("question")
            .to_owned();
        let base = self.endpoint.base();
        let what = format!("PUT /v2/networks/{net}/questions/{qname}");
        let url = format!("{base}/networks/{net}/questions/{qname}");
        let text = question.to_string();
        let r = self.send(
            &what,
            || {
                self.http
                    .put(&url)
                    .header("Content-Type", "application/octet-stream")
                    .body(text.clone())
            },
            self.request_timeout,
        )?;
        self.expect_ok(&what, r)?;
        let id = uuid();
        let mut params = json!({"answer": "", "questionname": qname, "testrig": ss});
        if let (Some(reference), Some(p)) = (reference, params.as_object_mut()) {
            p.insert("deltatestrig".into(), json!(reference));
            p.insert("differential".into(), json!(""));
        }
        self.queue(
            net,
            &json!({"containerName": net, "id": id, "testrigName": ss, "requestParams": params}),
        )?;
        self.wait(net, ss, &id, &format!("answering {qname}"))?;
        let what = format!("GET /v2/networks/{net}/questions/{qname}/answer");
        let url = format!("{base}/networks/{net}/questions/{qname}/answer");
        let r = self.send(
            &what,
            || {
                let mut req = self.http.get(&url).query(&[("snapshot", ss)]);
                if let Some(reference) = reference {
                    req = req.query(&[("referenceSnapshot", reference)]);
                }
                req
            },
            self.request_timeout,
        )?;
        let body = self.expect_ok(&what, r)?;
        let v = self.json(&what, &body)?;
        decode_table(&v, &qname)
    }
}

/// A question: Batfish's class, its parameters set directly, a unique instance name.
pub fn question(class: &str, name: &str, differential: bool, params: Value) -> Value {
    let mut q = json!({
        "class": class,
        "differential": differential,
        "instance": {"instanceName": format!("olav_{name}_{}", &uuid()[..8]), "variables": {}},
    });
    if let (Some(obj), Value::Object(p)) = (q.as_object_mut(), params) {
        obj.extend(p);
    }
    q
}

/// A snapshot zip: one top folder holding the configs (`configs/<file>`, text) and the
/// extra files of the snapshot (`batfish/isp_config.json`, `hosts/…`; bytes; may be none),
/// each at its path relative to the snapshot's root.
pub fn snapshot_zip(
    top: &str,
    configs: &[(String, String)],
    extra: &[(String, Vec<u8>)],
) -> Result<Vec<u8>, std::io::Error> {
    use std::io::Write;
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        let files = configs
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_bytes()))
            .chain(extra.iter().map(|(p, b)| (p.as_str(), b.as_slice())));
        for (path, bytes) in files {
            z.start_file(format!("{top}/{path}"), opts)
                .map_err(std::io::Error::other)?;
            z.write_all(bytes)?;
        }
        z.finish().map_err(std::io::Error::other)?;
    }
    Ok(buf.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn only_requests_that_can_be_repeated_are_retried_after_a_server_error() {
        assert!(retryable(429, false));
        assert!(retryable(503, true));
        assert!(!retryable(503, false));
        assert!(!retryable(400, true));
    }
}
