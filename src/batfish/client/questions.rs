//! Questions: queued as work items, polled until done, their answers parsed.

use super::answer::{decode_table, TableAnswer};
use super::http::uuid;
use super::{BatfishError, Client};
use serde_json::{json, Value};
use std::time::Duration;

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

impl Client {
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
    pub(super) fn wait(
        &self,
        net: &str,
        ss: &str,
        id: &str,
        what: &str,
    ) -> Result<(), BatfishError> {
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
                            .map(|(_, b)| super::server_text(&b, 2000))
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
