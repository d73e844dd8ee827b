//! The plan registry: every drafted plan, its status (draft → prechecked → verified →
//! approved → done, or stale / withdrawn) and its pre-check history.

use super::{now, StateDb, StateError};
use crate::output::Table;
use crate::plan::{Plan, Target};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};
use rusqlite::{params, OptionalExtension, ToSql};
use serde::Serialize;

/// A plan's place in its life (the `plan.status` column, stored as its text).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum PlanStatus {
    /// Drafted, not yet pre-checked (or a pre-check that failed first time).
    Draft,
    /// Its last pre-check passed.
    Prechecked,
    /// Batfish verified it.
    Verified,
    /// Approved by an engineer.
    Approved,
    /// Applied and closed.
    Done,
    /// It passed once and fails now, or its file is gone.
    Stale,
    /// Withdrawn, superseded, or a what-if analysis.
    Withdrawn,
}

impl PlanStatus {
    /// Every status, open ones first.
    pub const ALL: [PlanStatus; 7] = [
        PlanStatus::Draft,
        PlanStatus::Prechecked,
        PlanStatus::Verified,
        PlanStatus::Approved,
        PlanStatus::Stale,
        PlanStatus::Done,
        PlanStatus::Withdrawn,
    ];

    /// The status as stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            PlanStatus::Draft => "draft",
            PlanStatus::Prechecked => "prechecked",
            PlanStatus::Verified => "verified",
            PlanStatus::Approved => "approved",
            PlanStatus::Done => "done",
            PlanStatus::Stale => "stale",
            PlanStatus::Withdrawn => "withdrawn",
        }
    }

    /// The status stored as `s`, if it is one.
    pub fn parse(s: &str) -> Option<PlanStatus> {
        PlanStatus::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// Whether a plan in this status is open (re-checked by `precheck --all`).
    pub fn is_open(self) -> bool {
        !matches!(self, PlanStatus::Done | PlanStatus::Withdrawn)
    }
}

impl std::fmt::Display for PlanStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ToSql for PlanStatus {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for PlanStatus {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let s = value.as_str()?;
        PlanStatus::parse(s)
            .ok_or_else(|| FromSqlError::Other(format!("unknown plan status '{s}'").into()))
    }
}

/// The SQL list of open statuses, `('draft', …)`, for `status IN` clauses.
pub(super) fn open_sql() -> String {
    let open: Vec<String> = PlanStatus::ALL
        .into_iter()
        .filter(|s| s.is_open())
        .map(|s| format!("'{s}'"))
        .collect();
    format!("({})", open.join(", "))
}

/// A registered plan.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PlanRow {
    /// Plan id.
    pub plan_id: String,
    /// File path.
    pub path: String,
    /// Workflow.
    pub workflow: String,
    /// Intent.
    pub intent: String,
    /// Title.
    pub title: String,
    /// Created.
    pub created: String,
    /// State version drafted against.
    pub state_version: i64,
    /// Status.
    pub status: PlanStatus,
    /// Why (for stale, withdrawn, …).
    pub status_reason: Option<String>,
}

/// What recording a pre-check did to the plan.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Recorded {
    /// Status before.
    pub before: PlanStatus,
    /// Status after.
    pub after: PlanStatus,
    /// What drifted since the last pre-check.
    pub drift: Option<String>,
}

/// A pre-check result to record.
#[derive(Debug, Clone)]
pub struct PrecheckRecord<'a> {
    /// PASS / WARN / FAIL.
    pub verdict: &'a str,
    /// Error count.
    pub errors: usize,
    /// Warning count.
    pub warnings: usize,
    /// The first error, for the stale reason.
    pub first_error: Option<String>,
    /// Saved report.
    pub report_path: Option<String>,
    /// The scheduler cycle, if any.
    pub cycle_id: Option<i64>,
    /// Why the HTML report could not be written, when it could not.
    pub html_missing: Option<String>,
}

/// A verification result to record.
#[derive(Debug, Clone)]
pub struct VerifyRecord<'a> {
    /// PASS / WARN / FAIL / UNVERIFIED.
    pub verdict: &'a str,
    /// Whether Batfish verified it (else the static checks alone ran).
    pub formal: bool,
    /// `Batfish <version>` or `static checks`.
    pub engine: &'a str,
    /// Problems found.
    pub problems: usize,
    /// The first of them, for the stale reason.
    pub first_problem: Option<&'a str>,
    /// Saved report.
    pub report_path: Option<String>,
}

/// A recorded verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// PASS / WARN / FAIL / UNVERIFIED.
    pub verdict: String,
    /// `Batfish <version>` or `static checks`.
    pub engine: String,
    /// When.
    pub ran_at: String,
    /// The first problem found.
    pub first_problem: Option<String>,
}

/// Another file carrying a registered plan's id (a copy, an edit elsewhere) never moves
/// the registered plan: what a pre-check or verification of it records (nothing).
fn another_file(registered: &PlanRow, path: &str) -> Option<Recorded> {
    (canonical(&registered.path) != canonical(path)).then(|| Recorded {
        before: registered.status,
        after: registered.status,
        drift: Some(format!(
            "not recorded: plan id {} is registered for {}, and {path} is another file",
            registered.plan_id, registered.path
        )),
    })
}

fn row(r: &rusqlite::Row<'_>) -> Result<PlanRow, rusqlite::Error> {
    Ok(PlanRow {
        plan_id: r.get(0)?,
        path: r.get(1)?,
        workflow: r.get(2)?,
        intent: r.get(3)?,
        title: r.get(4)?,
        created: r.get(5)?,
        state_version: r.get(6)?,
        status: r.get(7)?,
        status_reason: r.get(8)?,
    })
}

const COLS: &str =
    "plan_id, path, workflow, intent, title, created, state_version, status, status_reason";

/// A plan file's canonical absolute path, so that one file has one name in the registry
/// whatever directory olav runs from (a missing file: made absolute).
pub fn canonical(path: &str) -> String {
    std::fs::canonicalize(path)
        .or_else(|_| std::env::current_dir().map(|d| d.join(path)))
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| path.to_owned())
}

/// Devices a plan touches (targets and configuration blocks).
pub fn plan_devices(plan: &Plan) -> Vec<String> {
    let mut v: Vec<String> = plan
        .header
        .targets
        .iter()
        .flat_map(|t| match t {
            Target::Device { device }
            | Target::Interface { device, .. }
            | Target::Peer { device, .. } => vec![device.clone()],
            Target::Link {
                device_a, device_b, ..
            } => vec![device_a.clone(), device_b.clone()],
        })
        .chain(plan.implementation.iter().map(|b| b.device.clone()))
        .collect();
    v.sort();
    v.dedup();
    v
}

impl StateDb {
    /// Registers a plan (once; a second call changes nothing).
    pub fn register_plan(&self, plan: &Plan, path: &str) -> Result<(), StateError> {
        let path = canonical(path);
        let path = path.as_str();
        // The plan and its claims land together or not at all.
        let tx = self.conn.unchecked_transaction().map_err(|e| self.err(e))?;
        // A what-if is an analysis, not a change to make: registered closed.
        let (status, reason) = if plan.header.what_if {
            (
                PlanStatus::Withdrawn,
                Some("a what-if analysis: no change to make"),
            )
        } else {
            (PlanStatus::Draft, None)
        };
        let inserted = tx
            .execute(
                "INSERT OR IGNORE INTO plan (plan_id, path, workflow, intent, title, created, state_version, status, status_reason, updated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    plan.header.plan_id,
                    path,
                    plan.header.workflow,
                    plan.header.intent,
                    plan.title,
                    plan.header.created,
                    plan.header.state_version,
                    status,
                    reason,
                    now()
                ],
            )
            .map_err(|e| self.err(e))?;
        // A file that now carries another plan id supersedes what was registered for it.
        if inserted > 0 {
            tx.execute(
                &format!(
                    "UPDATE plan SET status = ?5, status_reason = ?3, updated = ?4
                     WHERE path = ?1 AND plan_id != ?2 AND status IN {}",
                    open_sql()
                ),
                params![
                    path,
                    plan.header.plan_id,
                    format!(
                        "superseded: the file now carries plan id {}",
                        plan.header.plan_id
                    ),
                    now(),
                    PlanStatus::Withdrawn
                ],
            )
            .map_err(|e| self.err(e))?;
        }
        // The claims are the plan's own: stored once, with the plan.
        let have: bool = tx
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM plan_claim WHERE plan_id = ?1)",
                [&plan.header.plan_id],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        if !have && !plan.header.what_if {
            let mut st = tx
                .prepare_cached(
                    "INSERT INTO plan_claim (plan_id, kind, hostname, element) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(|e| self.err(e))?;
            for c in crate::plan::claims::claims(plan) {
                st.execute(params![plan.header.plan_id, c.kind, c.device, c.element])
                    .map_err(|e| self.err(e))?;
            }
            tx.execute(
                "UPDATE plan SET claim_set = ?2 WHERE plan_id = ?1",
                params![plan.header.plan_id, super::claims::claim_set(plan)],
            )
            .map_err(|e| self.err(e))?;
        }
        tx.commit().map_err(|e| self.err(e))
    }

    /// The claims of every open plan of the given kinds (see `plan::claims`), as
    /// (kind, device, element).
    pub fn open_plan_claims(
        &self,
        kinds: &[&str],
    ) -> Result<Vec<(String, String, String)>, StateError> {
        let kinds_sql = vec!["?"; kinds.len()].join(", ");
        let mut st = self
            .conn
            .prepare(&format!(
                "SELECT c.kind, c.hostname, c.element FROM plan_claim c JOIN plan p ON p.plan_id = c.plan_id
                 WHERE p.status IN {}
                   AND c.kind IN ({kinds_sql})",
                open_sql()
            ))
            .map_err(|e| self.err(e))?;
        let rows = st
            .query_map(rusqlite::params_from_iter(kinds), |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Plans, newest first; only open ones unless `all`.
    pub fn plans(&self, all: bool) -> Result<Vec<PlanRow>, StateError> {
        let sql = format!(
            "SELECT {COLS} FROM plan {} ORDER BY created DESC, plan_id",
            if all {
                String::new()
            } else {
                format!("WHERE status IN {}", open_sql())
            }
        );
        let mut st = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = st.query_map([], row).map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// One plan, by id or by path.
    pub fn plan(&self, id_or_path: &str) -> Result<Option<PlanRow>, StateError> {
        self.conn
            .query_row(
                &format!("SELECT {COLS} FROM plan WHERE plan_id = ?1 OR path = ?1 OR path = ?2"),
                [id_or_path, &canonical(id_or_path)],
                row,
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// The pre-check history of a plan.
    pub fn precheck_history(&self, plan_id: &str) -> Result<Table, StateError> {
        self.table_with(
            "SELECT ran_at, state_version, verdict, errors, warnings, COALESCE(first_error, '') AS first_error, COALESCE(drift, '') AS drift,
                    CASE WHEN html_missing IS NULL THEN '' ELSE 'MISSING: ' || html_missing END AS html_report
             FROM precheck_run WHERE plan_id = ?1 ORDER BY id",
            [plan_id],
        )
    }

    /// The digest of the configuration a plan's last pre-check saw
    /// ([`Plan::config_digest`]; None before any, or for a run recorded without one).
    pub fn last_precheck_digest(&self, plan_id: &str) -> Result<Option<String>, StateError> {
        self.conn
            .query_row(
                "SELECT plan_digest FROM precheck_run WHERE plan_id = ?1 ORDER BY id DESC LIMIT 1",
                [plan_id],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()
            .map(Option::flatten)
            .map_err(|e| self.err(e))
    }

    /// A plan's verifications, oldest first.
    pub fn verify_history(&self, plan_id: &str) -> Result<Table, StateError> {
        self.table_with(
            "SELECT ran_at, state_version, verdict, engine, problems, COALESCE(first_problem, '') AS first_problem
             FROM verify_run WHERE plan_id = ?1 ORDER BY id",
            [plan_id],
        )
    }

    /// A plan's last verification, or its last by Batfish when `formal`: the history
    /// follows the plan, not its id — a verification recorded under any id for the same
    /// file, or for the same configuration (`digest`, [`Plan::config_digest`]), counts.
    pub fn last_verification(
        &self,
        plan_id: &str,
        digest: &str,
        formal: bool,
    ) -> Result<Option<Verified>, StateError> {
        self.conn
            .query_row(
                "SELECT verdict, engine, ran_at, first_problem FROM verify_run
                 WHERE (plan_id = ?1
                        OR plan_id IN (SELECT o.plan_id FROM plan o JOIN plan p ON o.path = p.path
                                       WHERE p.plan_id = ?1)
                        OR plan_digest = ?3)
                   AND (formal = 1 OR ?2 = 0)
                 ORDER BY id DESC LIMIT 1",
                params![plan_id, formal, digest],
                |r| {
                    Ok(Verified {
                        verdict: r.get(0)?,
                        engine: r.get(1)?,
                        ran_at: r.get(2)?,
                        first_problem: r.get(3)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Records a verification of `plan` in one transaction and moves its status: a
    /// Batfish pass makes a draft or prechecked plan verified; a failure makes a plan
    /// that had passed (prechecked, verified, approved) stale, with the first problem as
    /// the reason. Static checks alone (UNVERIFIED) never make a plan verified.
    pub fn record_verification(
        &mut self,
        plan: &Plan,
        path: &str,
        rec: &VerifyRecord<'_>,
    ) -> Result<Recorded, StateError> {
        self.register_plan(plan, path)?;
        let id = plan.header.plan_id.as_str();
        let Some(registered) = self.plan(id)? else {
            return Ok(Recorded {
                before: PlanStatus::Draft,
                after: PlanStatus::Draft,
                drift: None,
            });
        };
        if let Some(r) = another_file(&registered, path) {
            return Ok(r);
        }
        let version = self.state_version()?;
        let before = registered.status;
        let (after, reason): (PlanStatus, Option<String>) = match (rec.verdict, before) {
            ("PASS" | "WARN", PlanStatus::Draft | PlanStatus::Prechecked) if rec.formal => {
                (PlanStatus::Verified, None)
            }
            ("FAIL", PlanStatus::Prechecked | PlanStatus::Verified | PlanStatus::Approved) => (
                PlanStatus::Stale,
                Some(format!(
                    "verification ({}) failed on state v{version}: {}",
                    rec.engine,
                    rec.first_problem.unwrap_or("see the report")
                )),
            ),
            (_, b) => (b, None),
        };
        let wrap = |source| StateError::Sqlite {
            path: self.path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(wrap)?;
        tx.execute(
            "INSERT INTO verify_run (plan_id, ran_at, state_version, verdict, formal, engine, problems, first_problem, report_path, plan_digest)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                id,
                now(),
                version,
                rec.verdict,
                rec.formal,
                rec.engine,
                rec.problems as i64,
                rec.first_problem,
                rec.report_path,
                plan.config_digest()
            ],
        )
        .map_err(wrap)?;
        if after != before || reason.is_some() {
            tx.execute(
                "UPDATE plan SET status = ?2, status_reason = ?3, updated = ?4 WHERE plan_id = ?1",
                params![id, after, reason, now()],
            )
            .map_err(wrap)?;
        }
        tx.commit().map_err(wrap)?;
        Ok(Recorded {
            before,
            after,
            drift: None,
        })
    }

    /// Sets a plan's status.
    pub fn set_plan_status(
        &self,
        plan_id: &str,
        status: PlanStatus,
        reason: Option<&str>,
    ) -> Result<(), StateError> {
        self.conn
            .execute(
                "UPDATE plan SET status = ?2, status_reason = ?3, updated = ?4 WHERE plan_id = ?1",
                params![plan_id, status, reason, now()],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// The last pre-check verdict of a plan.
    pub fn last_verdict(&self, plan_id: &str) -> Result<Option<(String, i64, String)>, StateError> {
        self.conn
            .query_row(
                "SELECT verdict, state_version, ran_at FROM precheck_run WHERE plan_id = ?1 ORDER BY id DESC LIMIT 1",
                [plan_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Records a pre-check of `plan` in one transaction and moves its status: a pass
    /// makes a draft (or a stale plan) prechecked; a failure after a pass makes it stale.
    pub fn record_precheck(
        &mut self,
        plan: &Plan,
        path: &str,
        rec: &PrecheckRecord<'_>,
    ) -> Result<Recorded, StateError> {
        self.register_plan(plan, path)?;
        let id = plan.header.plan_id.as_str();
        if let Some(r) = self.plan(id)?.and_then(|reg| another_file(&reg, path)) {
            return Ok(r);
        }
        let version = self.state_version()?;
        let before = self.plan(id)?.map_or(PlanStatus::Draft, |p| p.status);
        let last = self.last_verdict(id)?;
        let digest = plan.config_digest();
        let mut drift = Vec::new();
        if self.last_precheck_digest(id)?.is_some_and(|d| d != digest) {
            drift.push("the plan's configuration was edited since the last pre-check".to_owned());
        }
        if let Some((v, sv, _)) = &last {
            if v != rec.verdict {
                drift.push(format!("verdict {v} → {}", rec.verdict));
            }
            if *sv != version {
                let touched = plan_devices(plan);
                let what = match self.changed_since(*sv)? {
                    Some(c) => {
                        let hit: Vec<String> = c
                            .changed
                            .iter()
                            .chain(&c.removed)
                            .filter(|d| touched.contains(d))
                            .cloned()
                            .collect();
                        if hit.is_empty() {
                            "no device of the plan changed".to_owned()
                        } else {
                            format!("changed or gone: {}", hit.join(", "))
                        }
                    }
                    None => "the older state is not known".to_owned(),
                };
                drift.push(format!("state v{sv} → v{version}: {what}"));
            }
        }
        let passed_before = last
            .as_ref()
            .is_some_and(|(v, _, _)| v == "PASS" || v == "WARN");
        let (after, reason): (PlanStatus, Option<String>) = match (rec.verdict, before) {
            ("FAIL", b) if passed_before && b.is_open() => (
                PlanStatus::Stale,
                Some(format!(
                    "passed on {} (state v{}), fails on state v{version}: {}",
                    last.as_ref().map_or("", |l| l.2.as_str()),
                    last.as_ref().map_or(0, |l| l.1),
                    rec.first_error.as_deref().unwrap_or("see the report")
                )),
            ),
            ("PASS" | "WARN", PlanStatus::Draft | PlanStatus::Stale) => {
                (PlanStatus::Prechecked, None)
            }
            (_, b) => (b, None),
        };
        let drift = (!drift.is_empty()).then(|| drift.join("; "));
        let tx = self.conn.transaction().map_err(|e| StateError::Sqlite {
            path: self.path.clone(),
            source: e,
        })?;
        let wrap = |source| StateError::Sqlite {
            path: self.path.clone(),
            source,
        };
        tx.execute(
            "INSERT INTO precheck_run (plan_id, ran_at, state_version, verdict, errors, warnings, first_error, report_path, drift, cycle_id, plan_digest, html_missing)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                id,
                now(),
                version,
                rec.verdict,
                rec.errors as i64,
                rec.warnings as i64,
                rec.first_error,
                rec.report_path,
                drift,
                rec.cycle_id,
                digest,
                rec.html_missing
            ],
        )
        .map_err(wrap)?;
        if after != before || reason.is_some() {
            tx.execute(
                "UPDATE plan SET status = ?2, status_reason = ?3, updated = ?4 WHERE plan_id = ?1",
                params![id, after, reason, now()],
            )
            .map_err(wrap)?;
        }
        tx.commit().map_err(wrap)?;
        Ok(Recorded {
            before,
            after,
            drift,
        })
    }
}
