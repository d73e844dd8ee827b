//! Run records: every run and every step result, so that `olav runs show` can give the
//! answer again and nothing a run learned is lost.

use super::{now, StateDb, StateError};
use crate::engine::breaker::ErrorClass;
use crate::output::Table;
use rusqlite::params;
use serde::Serialize;
use std::path::Path;
use std::sync::Mutex;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Every step ran and named what it should.
    Ok,
    /// Something was obtained, but a step failed, was skipped or the breaker stopped the run.
    Partial,
    /// The first step failed: nothing was obtained.
    Failed,
    /// The request needs clarification (the analyzer asked).
    NeedsInput,
}

impl RunStatus {
    /// Column value.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Ok => "ok",
            RunStatus::Partial => "partial",
            RunStatus::Failed => "failed",
            RunStatus::NeedsInput => "needs_input",
        }
    }
}

/// One step's result.
#[derive(Debug, Clone, Serialize)]
pub struct StepRecord {
    /// 1-based position.
    pub seq: usize,
    /// Agent.
    pub agent: String,
    /// Assembly header.
    pub header: String,
    /// The prompt it got (None when skipped).
    pub prompt: Option<String>,
    /// Its reply.
    pub reply: Option<String>,
    /// The artifact its reply named.
    pub artifact: Option<String>,
    /// Its verdict line.
    pub verdict: Option<String>,
    /// Wall time over all attempts.
    pub duration_ms: u64,
    /// Attempts made (0 when skipped).
    pub attempts: u32,
    /// Failure class of the last attempt.
    pub error_class: Option<ErrorClass>,
    /// Failure message, or why it was skipped.
    pub error: Option<String>,
    /// Whether it was skipped.
    pub skipped: bool,
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct RunOutcome {
    /// Run id in the DB (None when it could not be recorded).
    pub run_id: Option<i64>,
    /// Workflow name.
    pub workflow: String,
    /// Status.
    pub status: RunStatus,
    /// Steps in order.
    pub steps: Vec<StepRecord>,
    /// The assembled answer.
    pub answer: String,
    /// The breaker signature that stopped the run, if it did.
    pub stopped_by: Option<String>,
    /// The question the request needs answered first, with its candidates.
    pub clarification: Option<Clarification>,
    /// The worst verdict of the steps (FAIL > WARN > UNVERIFIED > PASS), for scripts.
    pub verdict: Option<String>,
    /// The plan the run drafted, if any.
    pub plan_path: Option<String>,
    /// The analyzer's reading of the request ("Understood: …"), if it gave one.
    pub understood: Option<String>,
}

/// A question back to the user, or a refusal, as data.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Clarification {
    /// `question` (answer it and ask again) or `refusal` (olav cannot plan what was asked).
    pub kind: &'static str,
    /// What was refused, for a refusal (`BGP local-preference`).
    pub refused: Option<String>,
    /// The question (for a refusal: the sentence saying so, with what olav can plan).
    pub question: String,
    /// Candidate answers, in order (may be empty).
    pub candidates: Vec<String>,
}

impl RunOutcome {
    /// The worst verdict of the steps (FAIL > WARN > UNVERIFIED > PASS).
    pub fn worst_verdict(&self) -> Option<&str> {
        let rank = |v: &str| match v {
            "FAIL" => 3,
            "WARN" => 2,
            "UNVERIFIED" => 1,
            _ => 0,
        };
        self.steps
            .iter()
            .filter_map(|s| s.verdict.as_deref())
            .max_by_key(|v| rank(v))
    }
}

/// Records one run as it goes. Recording problems are logged, never fatal: the answer
/// still reaches the user and says the run was not recorded.
pub struct Recorder {
    db: Mutex<Option<StateDb>>,
    id: Option<i64>,
}

impl Recorder {
    /// Opens the DB and inserts the run.
    pub fn start(db: &Path, orchestrator: &str, workflow: &str, request: &str) -> Recorder {
        let opened = StateDb::open(db).and_then(|d| {
            d.mark_interrupted()?;
            let version = d.state_version()?;
            d.conn
                .execute(
                    "INSERT INTO run (orchestrator, workflow, request, started, status, state_version, owner) VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6)",
                    params![orchestrator, workflow, request, now(), version, super::owner::current().unwrap_or_default()],
                )
                .map_err(|e| d.err(e))?;
            let id = d.conn.last_insert_rowid();
            Ok((d, id))
        });
        match opened {
            Ok((d, id)) => Recorder {
                db: Mutex::new(Some(d)),
                id: Some(id),
            },
            Err(e) => {
                tracing::warn!("run not recorded: {e}");
                Recorder {
                    db: Mutex::new(None),
                    id: None,
                }
            }
        }
    }

    /// The run's id.
    pub fn id(&self) -> Option<i64> {
        self.id
    }

    fn with(&self, f: impl FnOnce(&StateDb, i64) -> Result<(), rusqlite::Error>) {
        let (Ok(guard), Some(id)) = (self.db.lock(), self.id) else {
            return;
        };
        if let Some(d) = guard.as_ref() {
            if let Err(e) = f(d, id) {
                tracing::warn!("run {id}: recording failed: {e}");
            }
        }
    }

    /// Records a step's result.
    pub fn step(&self, s: &StepRecord) {
        self.with(|d, id| {
            d.conn
                .execute(
                    "INSERT OR REPLACE INTO run_step (run_id, seq, agent, prompt, reply, artifact, verdict, duration_ms, attempts, skipped, error_class, error)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                    params![
                        id,
                        s.seq as i64,
                        s.agent,
                        s.prompt,
                        s.reply,
                        s.artifact,
                        s.verdict,
                        s.duration_ms as i64,
                        s.attempts,
                        s.skipped,
                        s.error_class.map(|c| c.as_str()),
                        s.error
                    ],
                )
                .map(|_| ())
        });
    }

    /// Records the end of the run.
    pub fn finish(&self, o: &RunOutcome) {
        self.with(|d, id| {
            d.conn
                .execute(
                    "UPDATE run SET finished = ?1, status = ?2, answer = ?3 WHERE id = ?4",
                    params![now(), o.status.as_str(), o.answer, id],
                )
                .map(|_| ())
        });
    }
}

/// A recorded run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RunRow {
    /// Id.
    pub id: i64,
    /// Workflow.
    pub workflow: String,
    /// Request.
    pub request: String,
    /// Started.
    pub started: String,
    /// Finished.
    pub finished: Option<String>,
    /// Status.
    pub status: String,
    /// The assembled answer.
    pub answer: Option<String>,
}

impl StateDb {
    /// Recent runs, newest first.
    pub fn runs(&self, limit: usize) -> Result<Table, StateError> {
        self.table_with(
            "SELECT r.id, r.started, r.status, r.workflow,
                    (SELECT group_concat(agent || ':' || COALESCE(verdict, CASE WHEN skipped THEN 'skipped' WHEN error IS NOT NULL THEN 'failed' ELSE 'ok' END), ' ') FROM run_step s WHERE s.run_id = r.id) AS steps,
                    r.request
             FROM run r ORDER BY r.id DESC LIMIT ?1",
            [limit as i64],
        )
    }

    /// One run.
    pub fn run(&self, id: i64) -> Result<Option<RunRow>, StateError> {
        let r = self.conn.query_row(
            "SELECT id, workflow, request, started, finished, status, answer FROM run WHERE id = ?1",
            [id],
            |r| {
                Ok(RunRow {
                    id: r.get(0)?,
                    workflow: r.get(1)?,
                    request: r.get(2)?,
                    started: r.get(3)?,
                    finished: r.get(4)?,
                    status: r.get(5)?,
                    answer: r.get(6)?,
                })
            },
        );
        match r {
            Ok(row) => Ok(Some(row)),
            Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
            Err(e) => Err(self.err(e)),
        }
    }

    /// The steps of a run.
    pub fn run_steps(&self, id: i64) -> Result<Table, StateError> {
        self.table_with(
            "SELECT seq, agent, attempts, duration_ms, artifact, verdict, error_class, error FROM run_step WHERE run_id = ?1 ORDER BY seq",
            [id],
        )
    }
}
