//! Capabilities as types. A step agent is built with exactly the handles it may use;
//! nothing else reaches the state DB, the plans folder, the reports folder or Batfish.
//! Every call goes through the run's circuit breaker.

pub use crate::engine::breaker::Tools;

use crate::engine::breaker::{ErrorClass, ToolError};
use crate::network::NetworkModel;
use crate::state::StateDb;
use crate::topology::Network;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Read access to the state DB.
pub struct StateReader {
    db: PathBuf,
    tools: Tools,
    run: Option<RunModel>,
}

/// A run's copy of the network model, kept from one step that reads it to the next: a
/// process frees a part nobody holds, and decoding the model again for the reporter was
/// a tenth of a 50,000-device request. Released before a step that reads configurations
/// instead (the simulator): the model and the configurations together are the run's
/// largest memory.
#[derive(Debug, Clone, Default)]
pub struct RunModel(Arc<Mutex<Option<Arc<NetworkModel>>>>);

impl RunModel {
    fn keep(&self, m: &Arc<NetworkModel>) {
        if let Ok(mut held) = self.0.lock() {
            *held = Some(Arc::clone(m));
        }
    }

    /// Lets the model go (it is freed when no step holds it).
    pub fn release(&self) {
        if let Ok(mut held) = self.0.lock() {
            if let Some(model) = held.take() {
                crate::parallel::drop_aside(model);
            }
        }
    }
}

impl StateReader {
    /// A reader of the DB at `db`.
    pub fn new(db: &Path, tools: Tools) -> Self {
        StateReader {
            db: db.to_path_buf(),
            tools,
            run: None,
        }
    }

    /// A reader that keeps the model it reads for the run's next step.
    pub fn for_run(db: &Path, tools: Tools, run: RunModel) -> Self {
        StateReader {
            run: Some(run),
            ..StateReader::new(db, tools)
        }
    }

    /// Runs a read-only query.
    pub fn query<T>(
        &self,
        tool: &str,
        args: serde_json::Value,
        f: impl FnOnce(&StateDb) -> Result<T, crate::state::StateError>,
    ) -> Result<T, ToolError> {
        self.tools.call(tool, args, || {
            let db =
                StateDb::open(&self.db).map_err(|e| (ErrorClass::Environment, e.to_string()))?;
            f(&db).map_err(|e| (ErrorClass::Environment, e.to_string()))
        })
    }

    /// The state version's network model. A process frees a part nobody holds, so a
    /// step that queries it several times holds it for the step.
    pub fn model(&self) -> Result<Arc<NetworkModel>, ToolError> {
        let m = self.query("state.model", serde_json::json!({}), NetworkModel::shared)?;
        if let Some(run) = &self.run {
            run.keep(&m);
        }
        Ok(m)
    }

    /// The whole network as a graph-ready model.
    pub fn network(&self) -> Result<Network, ToolError> {
        self.query("state.network", serde_json::json!({}), Network::load)
    }
}

fn io_class(e: &std::io::Error) -> ErrorClass {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
            ErrorClass::Permission
        }
        std::io::ErrorKind::NotFound => ErrorClass::Parameter,
        _ => ErrorClass::Environment,
    }
}

/// Writes new plan files in `<exports>/change_plans/`, never overwriting one, and
/// registers them in the plan registry.
pub struct PlanWriter {
    dir: PathBuf,
    db: PathBuf,
    tools: Tools,
}

impl PlanWriter {
    /// A writer into `<exports>/change_plans`, registering in the DB at `db`.
    pub fn new(exports: &Path, db: &Path, tools: Tools) -> Self {
        PlanWriter {
            dir: exports.join("change_plans"),
            db: db.to_path_buf(),
            tools,
        }
    }

    /// Writes a new plan file (as [`PlanWriter::write`]) and registers it (status draft).
    /// A plan the registry refuses (DB full, locked or read-only) is removed again: a
    /// retried step would otherwise leave one orphan file per attempt.
    pub fn save(
        &self,
        plan: &crate::plan::Plan,
        topic: &str,
        date: &str,
        render: &dyn Fn(&str) -> String,
    ) -> Result<PathBuf, ToolError> {
        let path = self.write(topic, date, render)?;
        if let Err(e) = self.register(plan, &path) {
            if let Err(rm) = std::fs::remove_file(&path) {
                tracing::warn!(
                    "{}: not registered, and could not be removed: {rm}",
                    path.display()
                );
            }
            return Err(e);
        }
        Ok(path)
    }

    fn register(&self, plan: &crate::plan::Plan, path: &Path) -> Result<(), ToolError> {
        let p = path.to_string_lossy().into_owned();
        self.tools.call(
            "plans.register",
            serde_json::json!({"plan": plan.header.plan_id}),
            || {
                StateDb::open(&self.db)
                    .and_then(|db| db.register_plan(plan, &p))
                    .map_err(|e| (ErrorClass::Environment, e.to_string()))
            },
        )
    }

    /// Writes `<topic>_<date>.md` (or `<topic>_<date>-2.md`, …) atomically and returns
    /// its path. `render` gets the final path, so a plan can name itself.
    fn write(
        &self,
        topic: &str,
        date: &str,
        render: &dyn Fn(&str) -> String,
    ) -> Result<PathBuf, ToolError> {
        let args = serde_json::json!({"topic": topic, "date": date});
        self.tools.call("plans.write", args, || {
            std::fs::create_dir_all(&self.dir).map_err(|e| {
                (
                    io_class(&e),
                    format!("cannot create {}: {e}", self.dir.display()),
                )
            })?;
            for n in 1..1000 {
                let name = if n == 1 {
                    format!("{topic}_{date}.md")
                } else {
                    format!("{topic}_{date}-{n}.md")
                };
                let path = self.dir.join(name);
                if path.exists() {
                    continue;
                }
                let mut tmp = crate::fsutil::temp_in(&self.dir).map_err(|e| {
                    (
                        io_class(&e),
                        format!("cannot write in {}: {e}", self.dir.display()),
                    )
                })?;
                std::io::Write::write_all(&mut tmp, render(&path.to_string_lossy()).as_bytes())
                    .map_err(|e| (io_class(&e), format!("cannot write the plan: {e}")))?;
                // persist_noclobber: a plan created meanwhile under that name is never overwritten.
                match tmp.persist_noclobber(&path) {
                    Ok(_) => return Ok(path),
                    Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                    Err(e) => {
                        return Err((
                            io_class(&e.error),
                            format!("cannot save {}: {}", path.display(), e.error),
                        ))
                    }
                }
            }
            Err((
                ErrorClass::Environment,
                format!("999 plans named {topic}_{date} already exist"),
            ))
        })
    }
}

/// Resolves a path named in text and refuses anything outside the exports folder.
pub fn confine(exports: &Path, named: &str) -> Result<PathBuf, (ErrorClass, String)> {
    let root = exports.canonicalize().map_err(|e| {
        (
            io_class(&e),
            format!("exports folder {}: {e}", exports.display()),
        )
    })?;
    let p = Path::new(named.trim());
    let real = p
        .canonicalize()
        .map_err(|e| (io_class(&e), format!("{}: {e}", p.display())))?;
    if !real.starts_with(&root) {
        return Err((
            ErrorClass::Permission,
            format!(
                "{named} is outside the exports folder {} (links are followed); refused — copy it into the exports folder to use it",
                exports.display()
            ),
        ));
    }
    Ok(real)
}

/// Reads plan files, only inside the exports folder.
pub struct PlanReader {
    exports: PathBuf,
    tools: Tools,
}

impl PlanReader {
    /// A reader confined to `exports`.
    pub fn new(exports: &Path, tools: Tools) -> Self {
        PlanReader {
            exports: exports.to_path_buf(),
            tools,
        }
    }

    /// Reads the plan at `named` (a path from text).
    pub fn read(&self, named: &str) -> Result<(PathBuf, String), ToolError> {
        self.tools
            .call("plans.read", serde_json::json!({"path": named}), || {
                let path = confine(&self.exports, named)?;
                let text = crate::fsutil::read_text(&path, crate::fsutil::TEXT_LIMIT)
                    .map_err(|e| (io_class(&e), format!("{}: {e}", path.display())))?;
                Ok((path, text))
            })
    }
}

/// Writes reports in `<exports>/reports/` and the pre-check history in the plan registry.
pub struct ReportWriter {
    dir: PathBuf,
    db: PathBuf,
    tools: Tools,
}

impl ReportWriter {
    /// A writer into `<exports>/reports`, recording history in the DB at `db`.
    pub fn new(exports: &Path, db: &Path, tools: Tools) -> Self {
        ReportWriter {
            dir: exports.join("reports"),
            db: db.to_path_buf(),
            tools,
        }
    }

    /// Records a pre-check of a plan and moves its status.
    pub fn record_precheck(
        &self,
        plan: &crate::plan::Plan,
        path: &str,
        rec: &crate::state::plans::PrecheckRecord<'_>,
    ) -> Result<crate::state::plans::Recorded, ToolError> {
        self.tools.call(
            "plans.record_precheck",
            serde_json::json!({"plan": plan.header.plan_id}),
            || {
                StateDb::open(&self.db)
                    .and_then(|mut db| db.record_precheck(plan, path, rec))
                    .map_err(|e| (ErrorClass::Environment, e.to_string()))
            },
        )
    }

    /// Records a verification of the plan at `path` in its history (and moves its
    /// status: see [`StateDb::record_verification`]).
    pub fn record_verification(
        &self,
        plan: &crate::plan::Plan,
        path: &str,
        rec: &crate::state::plans::VerifyRecord<'_>,
    ) -> Result<crate::state::plans::Recorded, ToolError> {
        self.tools.call(
            "plans.record_verification",
            serde_json::json!({"plan": plan.header.plan_id, "verdict": rec.verdict}),
            || {
                StateDb::open(&self.db)
                    .and_then(|mut db| db.record_verification(plan, path, rec))
                    .map_err(|e| (ErrorClass::Environment, e.to_string()))
            },
        )
    }

    /// Reads a report written earlier, with its modification time; None when there is none.
    pub fn read(
        &self,
        name: &str,
    ) -> Result<Option<(String, Option<std::time::SystemTime>)>, ToolError> {
        self.tools
            .call("reports.read", serde_json::json!({"name": name}), || {
                let path = self.dir.join(name);
                let modified = match std::fs::metadata(&path) {
                    Ok(m) => m.modified().ok(),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                    Err(e) => {
                        return Err((io_class(&e), format!("cannot read {}: {e}", path.display())))
                    }
                };
                let text = crate::fsutil::read_text(&path, crate::fsutil::TEXT_LIMIT)
                    .map_err(|e| (io_class(&e), format!("cannot read {}: {e}", path.display())))?;
                Ok(Some((text, modified)))
            })
    }

    /// Writes `name` atomically (replacing an older report of the same name).
    pub fn write(&self, name: &str, content: &str) -> Result<PathBuf, ToolError> {
        self.tools
            .call("reports.write", serde_json::json!({"name": name}), || {
                let path = self.dir.join(name);
                crate::fsutil::write_atomic(&path, content.as_bytes()).map_err(|e| {
                    (
                        io_class(&e),
                        format!("cannot write {}: {e}", path.display()),
                    )
                })?;
                Ok(path)
            })
    }
}

/// Read access to the device configurations stored in the state DB (nothing else of it).
pub struct ConfigReader {
    db: PathBuf,
    tools: Tools,
}

impl ConfigReader {
    /// A reader of the configs in the DB at `db`.
    pub fn new(db: &Path, tools: Tools) -> Self {
        ConfigReader {
            db: db.to_path_buf(),
            tools,
        }
    }

    fn open(&self) -> Result<StateDb, (ErrorClass, String)> {
        StateDb::open(&self.db).map_err(|e| (ErrorClass::Environment, e.to_string()))
    }

    /// What a Batfish verification of `plan` sends: every device's configuration, the
    /// snapshot's other files the DB keeps, and an ISP-modeling file generated for base
    /// and candidate when the snapshot has none.
    pub fn batfish_inputs(
        &self,
        plan: &crate::plan::Plan,
    ) -> Result<crate::batfish::Inputs, ToolError> {
        self.tools.call(
            "configs.batfish_inputs",
            serde_json::json!({"plan": plan.header.plan_id}),
            || {
                let db = self.open()?;
                let env = |e: crate::state::StateError| (ErrorClass::Environment, e.to_string());
                let base = crate::checks::model::Model::from_state(&db).map_err(env)?;
                let extra = crate::batfish::snapshot::extra_files(&db).map_err(env)?;
                let has_isp = extra
                    .iter()
                    .any(|(p, _)| p == crate::batfish::snapshot::ISP_CONFIG);
                let (isp_base, isp_candidate) = if has_isp {
                    (None, None)
                } else {
                    // Multihop provider sessions are attached where the routing model
                    // sends their peer.
                    let routing = crate::routing::RoutingModel::shared(&db).map_err(env)?;
                    let egress = |host: &str, vrf: &str, peer: std::net::IpAddr| {
                        let std::net::IpAddr::V4(p) = peer else {
                            return None;
                        };
                        crate::routing::trace::egress(
                            &routing.device(&db, host).ok().flatten()?,
                            vrf,
                            p,
                        )
                    };
                    let isp_base = crate::batfish::snapshot::isp_config(&base, &egress);
                    let isp_candidate = crate::batfish::snapshot::isp_config(
                        &base.candidate(&db, plan).map_err(env)?,
                        &egress,
                    );
                    // The base's providers stay as they are; the candidate only adds.
                    let isp_candidate = match (&isp_base, isp_candidate) {
                        (Some(b), Some(c)) => Some(b.extended_with(&c)),
                        (Some(b), None) => Some(b.clone()),
                        (None, c) => c,
                    };
                    (isp_base, isp_candidate)
                };
                Ok(crate::batfish::Inputs {
                    configs: db.config_texts().map_err(env)?,
                    extra,
                    isp_base,
                    isp_candidate,
                })
            },
        )
    }

    /// The static checks' answers on the network as imported (computed once per state
    /// version) and on the network as the plan would leave it.
    pub fn checks_before_and_after(
        &self,
        plan: &crate::plan::Plan,
    ) -> Result<
        (
            std::sync::Arc<crate::checks::Findings>,
            crate::checks::Findings,
        ),
        ToolError,
    > {
        self.tools.call(
            "configs.checks",
            serde_json::json!({"plan": plan.header.plan_id}),
            || {
                let db = self.open()?;
                let env = |e: crate::state::StateError| (ErrorClass::Environment, e.to_string());
                let version = db.state_version().map_err(env)?;
                let before = crate::checks::imported(&db).map_err(env)?;
                let after = crate::checks::candidate(&db, plan, &before, version).map_err(env)?;
                Ok((before, after))
            },
        )
    }
}

impl ConfigReader {
    /// What olav's routing model says of the plan's effect on forwarding (flows,
    /// adjacencies, routes), for the verification's static fallback.
    pub fn forwarding(
        &self,
        plan_path: &str,
        plan: &crate::plan::Plan,
    ) -> Result<crate::precheck::ForwardingAnswer, ToolError> {
        self.tools.call(
            "configs.forwarding",
            serde_json::json!({"plan": plan.header.plan_id}),
            || {
                let db = self.open()?;
                crate::precheck::forwarding_answer(&db, plan_path, plan)
                    .map_err(|e| (ErrorClass::Environment, e.to_string()))
            },
        )
    }
}

/// How the simulator reaches Batfish.
#[derive(Debug, Clone)]
pub struct BatfishSettings {
    /// Where.
    pub endpoint: crate::batfish::client::Endpoint,
    /// The probe's timeout.
    pub probe: std::time::Duration,
    /// The whole verification's deadline.
    pub deadline: std::time::Duration,
    /// Fail instead of falling back when Batfish is absent.
    pub required: bool,
    /// Candidate snapshots left in Batfish for debugging (0: each is deleted once read).
    pub keep_snapshots: usize,
}

impl Default for BatfishSettings {
    fn default() -> Self {
        BatfishSettings {
            endpoint: crate::batfish::client::Endpoint::resolve(None, None),
            probe: std::time::Duration::from_secs(2),
            deadline: std::time::Duration::from_secs(240),
            required: false,
            keep_snapshots: 0,
        }
    }
}

/// Calls to a Batfish service.
pub struct BatfishCaller {
    settings: BatfishSettings,
    tools: Tools,
    client: std::cell::OnceCell<Result<crate::batfish::client::Client, String>>,
}

impl BatfishCaller {
    /// A caller with these settings.
    pub fn new(settings: BatfishSettings, tools: Tools) -> Self {
        BatfishCaller {
            settings,
            tools,
            client: std::cell::OnceCell::new(),
        }
    }

    fn client(&self) -> Result<&crate::batfish::client::Client, ToolError> {
        self.client
            .get_or_init(|| {
                crate::batfish::client::Client::new(
                    self.settings.endpoint.clone(),
                    self.settings.deadline,
                )
                .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| ToolError::Failed {
                signature: "batfish.client".into(),
                message: e.clone(),
                class: ErrorClass::Environment,
            })
    }

    /// `host:port`.
    pub fn address(&self) -> String {
        self.settings.endpoint.address()
    }

    /// Whether absence is an error.
    pub fn required(&self) -> bool {
        self.settings.required
    }

    /// Batfish's version, or why it cannot be reached. Nothing listening is said as the
    /// HTTP client would say it, without making one.
    pub fn probe(&self) -> Result<String, ToolError> {
        let e = &self.settings.endpoint;
        if crate::batfish::client::refused(e, self.settings.probe) {
            return crate::batfish::unreachable(&self.tools, e);
        }
        crate::batfish::probe(&self.tools, self.client()?, self.settings.probe)
    }

    /// The formal verification of `plan` against the network in `inputs`.
    pub fn verify(
        &self,
        inputs: &crate::batfish::Inputs,
        plan: &crate::plan::Plan,
    ) -> Result<Vec<crate::batfish::Finding>, ToolError> {
        crate::batfish::verify(
            &self.tools,
            self.client()?,
            inputs,
            plan,
            crate::batfish::Housekeeping {
                keep_snapshots: self.settings.keep_snapshots,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_keeps_the_model_between_its_readers_until_released() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("state.db");
        let mut db = StateDb::open(&path).expect("open");
        let snap = crate::import::parse_snapshot(&crate::demo::snapshot()).expect("parse");
        db.import(&snap).expect("import");
        let run = RunModel::default();
        let first = StateReader::for_run(&path, Tools::default(), run.clone());
        let m = first.model().expect("model");
        let kept = Arc::downgrade(&m);
        drop((m, first));
        let next = StateReader::for_run(&path, Tools::default(), run.clone());
        let again = next.model().expect("model");
        assert!(
            kept.upgrade().is_some_and(|k| Arc::ptr_eq(&k, &again)),
            "the next step reads the copy the first one decoded"
        );
        drop((again, next));
        run.release();
        assert!(
            run.0.lock().is_ok_and(|held| held.is_none()),
            "released, the run holds nothing"
        );
        // It is freed beside the next step, on a thread of its own.
        let freed = (0..500).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            kept.strong_count() == 0
        });
        assert!(freed, "released, nobody holds it");
        // A reader outside a run keeps nothing.
        let alone = StateReader::new(&path, Tools::default())
            .model()
            .expect("model");
        let weak = Arc::downgrade(&alone);
        drop(alone);
        assert!(weak.upgrade().is_none());
    }
}
