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
    #[error("Batfish answered {what} with HTTP {status}: {body}")]
    Http {
        /// Which request.
        what: String,
        /// Status code.
        status: u16,
        /// The body (trimmed).
        body: String,
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
            items
                .iter()
                .map(|i| cell_text(inner, i))
                .collect::<Vec<_>>()
                .join(", ")
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
            _ => Value::Object(o.clone()).to_string(),
        },
    }
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
}

fn uuid() -> String {
    uuid::Uuid::new_v4().to_string()
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

    fn send(
        &self,
        what: &str,
        req: reqwest::blocking::RequestBuilder,
        timeout: Duration,
    ) -> Result<(u16, String), BatfishError> {
        let limit = timeout.min(self.remaining(what)?);
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
                    BatfishError::Timeout {
                        address: self.endpoint.address(),
                        what: what.to_owned(),
                        secs: limit.as_secs_f64(),
                    }
                } else {
                    BatfishError::Unreachable {
                        address: self.endpoint.address(),
                        reason: if e.is_connect() {
                            "connection refused or no route".to_owned()
                        } else {
                            e.to_string()
                        },
                    }
                }
            })?;
        let status = resp.status().as_u16();
        let body = resp.text().map_err(|e| BatfishError::Timeout {
            address: self.endpoint.address(),
            what: format!("{what} (reading the body: {e})"),
            secs: limit.as_secs_f64(),
        })?;
        Ok((status, body))
    }

    fn expect_ok(&self, what: &str, (status, body): (u16, String)) -> Result<String, BatfishError> {
        if (200..300).contains(&status) {
            Ok(body)
        } else {
            Err(BatfishError::Http {
                what: what.to_owned(),
                status,
                body: body.chars().take(300).collect(),
            })
        }
    }

    fn json(&self, what: &str, body: &str) -> Result<Value, BatfishError> {
        serde_json::from_str(body).map_err(|e| BatfishError::Malformed {
            what: what.to_owned(),
            reason: e.to_string(),
        })
    }

    /// `GET /v2/version` with a short timeout: the probe.
    pub fn version(&self, probe: Duration) -> Result<String, BatfishError> {
        let what = "GET /v2/version";
        let r = self.send(
            what,
            self.http.get(format!("{}/version", self.endpoint.base())),
            probe,
        )?;
        let body = self.expect_ok(what, r)?;
        let v = self.json(what, &body)?;
        Ok(v.get("Batfish")
            .or_else(|| v.get("version"))
            .and_then(Value::as_str)
            .unwrap_or("unknown")
            .to_owned())
    }

    /// Creates the network unless it exists.
    pub fn ensure_network(&self, net: &str) -> Result<(), BatfishError> {
        let base = self.endpoint.base();
        let what = format!("GET /v2/networks/{net}");
        let (status, body) = self.send(
            &what,
            self.http.get(format!("{base}/networks/{net}")),
            self.request_timeout,
        )?;
        if status == 404 {
            let what = format!("POST /v2/networks?name={net}");
            let r = self.send(
                &what,
                self.http
                    .post(format!("{base}/networks"))
                    .query(&[("name", net)]),
                self.request_timeout,
            )?;
            self.expect_ok(&what, r)?;
            return Ok(());
        }
        self.expect_ok(&what, (status, body)).map(|_| ())
    }

    /// The snapshots of a network.
    pub fn snapshots(&self, net: &str) -> Result<Vec<String>, BatfishError> {
        let what = format!("GET /v2/networks/{net}/snapshots");
        let r = self.send(
            &what,
            self.http
                .get(format!("{}/networks/{net}/snapshots", self.endpoint.base())),
            self.request_timeout,
        )?;
        let body = self.expect_ok(&what, r)?;
        let v = self.json(&what, &body)?;
        Ok(v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| {
                        x.as_str()
                            .map(str::to_owned)
                            .or_else(|| x.get("name").and_then(Value::as_str).map(str::to_owned))
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    /// Uploads a snapshot zip (one top folder with `configs/`).
    pub fn upload_snapshot(&self, net: &str, ss: &str, zip: Vec<u8>) -> Result<(), BatfishError> {
        let what = format!("POST /v2/networks/{net}/snapshots/{ss}");
        let r = self.send(
            &what,
            self.http
                .post(format!(
                    "{}/networks/{net}/snapshots/{ss}",
                    self.endpoint.base()
                ))
                .header("Content-Type", "application/octet-stream")
                .body(zip),
            self.request_timeout,
        )?;
        self.expect_ok(&what, r).map(|_| ())
    }

    /// Forks `base` into `new` with replaced files and deactivated nodes and interfaces.
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
            "deactivateNodes": if deactivate_nodes.is_empty() { Value::Null } else { json!(deactivate_nodes) },
            "deactivateInterfaces": if deactivate_interfaces.is_empty() {
                Value::Null
            } else {
                Value::Array(deactivate_interfaces.iter().map(|(h, i)| json!({"hostname": h, "interface": i})).collect())
            },
            "restoreInterfaces": null,
            "restoreNodes": null,
            "deactivateLinks": null,
            "restoreLinks": null,
            "zipFile": zip.map(|z| base64::engine::general_purpose::STANDARD.encode(z)),
        });
        let what = format!("POST /v2/networks/{net}/snapshots:fork");
        let r = self.send(
            &what,
            self.http
                .post(format!(
                    "{}/networks/{net}/snapshots:fork",
                    self.endpoint.base()
                ))
                .json(&body),
            self.request_timeout,
        )?;
        self.expect_ok(&what, r).map(|_| ())
    }

    fn queue(&self, net: &str, item: &Value) -> Result<(), BatfishError> {
        let what = format!("POST /v2/networks/{net}/work");
        let r = self.send(
            &what,
            self.http
                .post(format!("{}/networks/{net}/work", self.endpoint.base()))
                .json(item),
            self.request_timeout,
        )?;
        self.expect_ok(&what, r).map(|_| ())
    }

    /// Polls a work item to its end (0.1 s, ×1.5, capped at 1 s), bounded by the deadline.
    fn wait(&self, net: &str, ss: &str, id: &str, what: &str) -> Result<(), BatfishError> {
        let mut sleep = Duration::from_millis(100);
        loop {
            let req = format!("GET /v2/networks/{net}/work/{id}");
            let r = self.send(
                &req,
                self.http
                    .get(format!("{}/networks/{net}/work/{id}", self.endpoint.base())),
                self.request_timeout,
            )?;
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
                        self.send(
                            &lreq,
                            self.http.get(format!(
                                "{}/networks/{net}/snapshots/{ss}/worklog/{id}",
                                self.endpoint.base()
                            )),
                            self.request_timeout,
                        )
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

    /// Parses a snapshot (queued work).
    pub fn parse(&self, net: &str, ss: &str) -> Result<(), BatfishError> {
        let id = uuid();
        let item = json!({"containerName": net, "id": id, "testrigName": ss,
            "requestParams": {"testrig": ss, "si": "", "sv": "", "initinfo": ""}});
        self.queue(net, &item)?;
        self.wait(net, ss, &id, &format!("parsing snapshot {ss}"))
    }

    /// Asks a question of `ss` (against `reference` for differential questions).
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
        let r = self.send(
            &what,
            self.http
                .put(format!("{base}/networks/{net}/questions/{qname}"))
                .json(question),
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
        let mut req = self
            .http
            .get(format!("{base}/networks/{net}/questions/{qname}/answer"))
            .query(&[("snapshot", ss)]);
        if let Some(reference) = reference {
            req = req.query(&[("referenceSnapshot", reference)]);
        }
        let r = self.send(&what, req, self.request_timeout)?;
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

/// A snapshot zip: one top folder holding `configs/<file>`.
pub fn snapshot_zip(top: &str, files: &[(String, String)]) -> Result<Vec<u8>, std::io::Error> {
    use std::io::Write;
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (path, text) in files {
            z.start_file(format!("{top}/{path}"), opts)
                .map_err(std::io::Error::other)?;
            z.write_all(text.as_bytes())?;
        }
        z.finish().map_err(std::io::Error::other)?;
    }
    Ok(buf.into_inner())
}
