//! Networks and snapshots: created, listed, uploaded as a zip, forked and deleted.

use super::http::seconds;
use super::{BatfishError, Client, SnapshotInfo, Upload};
use serde_json::{json, Value};
use std::time::Duration;

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

impl Client {
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
}
