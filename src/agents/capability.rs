//! Capabilities as types. A step agent is built with exactly the handles it may use;
//! nothing else reaches the state DB, the plans folder, the reports folder or Batfish.
//! Every call goes through the run's circuit breaker.

use crate::engine::breaker::{Breaker, ErrorClass, ToolError};
use crate::state::StateDb;
use crate::topology::Network;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The run's breaker, shared by every handle of every step.
#[derive(Debug, Clone, Default)]
pub struct Tools {
    breaker: Arc<Mutex<Breaker>>,
}

impl Tools {
    /// Runs a tool call through the breaker.
    pub fn call<T>(
        &self,
        tool: &str,
        args: serde_json::Value,
        f: impl FnOnce() -> Result<T, (ErrorClass, String)>,
    ) -> Result<T, ToolError> {
        match self.breaker.lock() {
            Ok(mut b) => b.call(tool, &args, f),
            Err(poisoned) => poisoned.into_inner().call(tool, &args, f),
        }
    }

    /// The signature that stopped the run, if the breaker stopped it.
    pub fn stopped(&self) -> Option<String> {
        match self.breaker.lock() {
            Ok(b) => b.stopped().map(str::to_owned),
            Err(p) => p.into_inner().stopped().map(str::to_owned),
        }
    }
}

/// Read access to the state DB.
pub struct StateReader {
    db: PathBuf,
    tools: Tools,
}

impl StateReader {
    /// A reader of the DB at `db`.
    pub fn new(db: &Path, tools: Tools) -> Self {
        StateReader {
            db: db.to_path_buf(),
            tools,
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

/// Writes new plan files in `<exports>/change_plans/`, never overwriting one.
pub struct PlanWriter {
    dir: PathBuf,
    tools: Tools,
}

impl PlanWriter {
    /// A writer into `<exports>/change_plans`.
    pub fn new(exports: &Path, tools: Tools) -> Self {
        PlanWriter {
            dir: exports.join("change_plans"),
            tools,
        }
    }

    /// Writes `<topic>_<date>.md` (or `<topic>_<date>-2.md`, …) atomically and returns
    /// its path. `render` gets the final path, so a plan can name itself.
    pub fn write(
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
                let mut tmp = tempfile::NamedTempFile::new_in(&self.dir).map_err(|e| {
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
                "{named} is outside the exports folder {} (links are followed); refused",
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
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| (io_class(&e), format!("{}: {e}", path.display())))?;
                Ok((path, text))
            })
    }
}

/// Writes reports in `<exports>/reports/`.
pub struct ReportWriter {
    dir: PathBuf,
    tools: Tools,
}

impl ReportWriter {
    /// A writer into `<exports>/reports`.
    pub fn new(exports: &Path, tools: Tools) -> Self {
        ReportWriter {
            dir: exports.join("reports"),
            tools,
        }
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
