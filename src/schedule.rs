//! Scheduled pre-checks: `precheck --all` re-checks every open plan against the current
//! state and records drift; the scheduler runs it on a cron schedule, one cycle at a
//! time, and stops cleanly on SIGINT / SIGTERM.

use crate::agents::capability::{PlanReader, ReportWriter, StateReader, Tools};
use crate::agents::reporter::Reporter;
use crate::precheck::Options;
use crate::state::{now, StateDb, StateError};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// One plan's line in a cycle.
#[derive(Debug, Clone, Serialize)]
pub struct CycleRow {
    /// Plan id.
    pub plan_id: String,
    /// Its file.
    pub path: String,
    /// Status before.
    pub before: String,
    /// Status after.
    pub after: String,
    /// PASS / WARN / FAIL, or MISSING when the file is gone, ERROR when it could not run.
    pub verdict: String,
    /// Drift since the last pre-check.
    pub drift: Option<String>,
    /// The first error, or what went wrong.
    pub note: Option<String>,
}

/// A whole cycle.
#[derive(Debug, Clone, Serialize)]
pub struct Cycle {
    /// Cycle id in the DB.
    pub id: i64,
    /// PASS when every open plan passed (or warned), else FAIL — for scripts.
    pub verdict: &'static str,
    /// One row per open plan.
    pub rows: Vec<CycleRow>,
}

impl Cycle {
    /// Plans that failed (or could not be checked).
    pub fn failed(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.verdict != "PASS" && r.verdict != "WARN")
            .count()
    }
}

/// Re-runs the pre-check of every open plan and records each result.
pub fn precheck_all(
    db_path: &Path,
    exports: &Path,
    options: &Options,
    note: Option<&str>,
) -> Result<Cycle, StateError> {
    let db = StateDb::open(db_path)?;
    let e = |source| StateError::Sqlite {
        path: db_path.to_path_buf(),
        source,
    };
    db.conn()
        .execute(
            "INSERT INTO schedule_cycle (started, status, note) VALUES (?1, 'running', ?2)",
            rusqlite::params![now(), note],
        )
        .map_err(e)?;
    let id = db.conn().last_insert_rowid();
    let plans = db.plans(false)?;
    let tools = Tools::default();
    // Registered plans carry absolute paths: each is read in, and reported to, the exports
    // folder it lives in, whatever directory the scheduler runs from.
    let reporter_for = |plan: &str| {
        let ex = Path::new(plan)
            .parent()
            .filter(|d| d.file_name().is_some_and(|n| n == "change_plans"))
            .and_then(Path::parent)
            .unwrap_or(exports);
        Reporter::new(
            StateReader::new(db_path, tools.clone()),
            PlanReader::new(ex, tools.clone()),
            ReportWriter::new(ex, db_path, tools.clone()),
        )
        .with_options(options.clone())
        .in_cycle(id)
    };
    let mut rows = Vec::new();
    for p in plans {
        let reporter = reporter_for(&p.path);
        if !Path::new(&p.path).is_file() {
            let reason = format!("the plan file {} is gone", p.path);
            db.set_plan_status(&p.plan_id, "stale", Some(&reason))?;
            tracing::warn!("{}: {reason}", p.plan_id);
            rows.push(CycleRow {
                plan_id: p.plan_id,
                path: p.path,
                before: p.status,
                after: "stale".into(),
                verdict: "MISSING".into(),
                drift: None,
                note: Some(reason),
            });
            continue;
        }
        match reporter.check(&p.path) {
            Ok((report, _, recorded)) => {
                let first_error = report
                    .findings
                    .iter()
                    .find(|f| f.severity == crate::precheck::Severity::Error)
                    .map(|f| format!("{}: {}", f.element, f.message));
                rows.push(CycleRow {
                    plan_id: p.plan_id,
                    path: p.path,
                    before: recorded
                        .as_ref()
                        .map_or(p.status.clone(), |r| r.before.clone()),
                    after: recorded.as_ref().map_or(p.status, |r| r.after.clone()),
                    verdict: report.verdict.to_owned(),
                    drift: recorded.and_then(|r| r.drift),
                    note: first_error,
                });
            }
            Err(err) => {
                tracing::warn!("{}: pre-check could not run: {err}", p.plan_id);
                rows.push(CycleRow {
                    plan_id: p.plan_id,
                    path: p.path,
                    before: p.status.clone(),
                    after: p.status,
                    verdict: "ERROR".into(),
                    drift: None,
                    note: Some(err.to_string()),
                });
            }
        }
    }
    let failing = rows
        .iter()
        .any(|r| r.verdict != "PASS" && r.verdict != "WARN");
    let cycle = Cycle {
        id,
        verdict: if failing { "FAIL" } else { "PASS" },
        rows,
    };
    db.conn()
        .execute(
            "UPDATE schedule_cycle SET finished = ?2, status = ?3, plans = ?4, failed = ?5 WHERE id = ?1",
            rusqlite::params![
                id,
                now(),
                if cycle.failed() == 0 { "ok" } else { "failed" },
                cycle.rows.len() as i64,
                cycle.failed() as i64
            ],
        )
        .map_err(e)?;
    Ok(cycle)
}

/// A parsed cron schedule.
pub struct Schedule {
    cron: croner::Cron,
    /// The expression as given.
    pub expr: String,
}

impl Schedule {
    /// Parses a 5-field cron expression (minute hour day month weekday), or 6 with seconds.
    pub fn parse(expr: &str) -> Result<Schedule, String> {
        let fields = expr.split_whitespace().count();
        if !(5..=6).contains(&fields) {
            return Err(format!(
                "cron expression '{expr}': expected 5 fields (minute hour day-of-month month day-of-week), found {fields}"
            ));
        }
        let cron = croner::Cron::new(expr)
            .with_seconds_optional()
            .parse()
            .map_err(|e| format!("cron expression '{expr}': {e}"))?;
        Ok(Schedule {
            cron,
            expr: expr.to_owned(),
        })
    }

    /// The next time after `t`.
    pub fn next_after(
        &self,
        t: chrono::DateTime<chrono::Local>,
    ) -> Option<chrono::DateTime<chrono::Local>> {
        self.cron.find_next_occurrence(&t, false).ok()
    }
}

/// How the scheduler logs a cycle.
fn log_cycle(c: &Cycle) {
    let stale: Vec<&str> = c
        .rows
        .iter()
        .filter(|r| r.after == "stale" && r.before != "stale")
        .map(|r| r.plan_id.as_str())
        .collect();
    eprintln!(
        "olav schedule: cycle {} — {} open plan(s), {} failing{}",
        c.id,
        c.rows.len(),
        c.failed(),
        if stale.is_empty() {
            String::new()
        } else {
            format!(", now stale: {}", stale.join(", "))
        }
    );
}

/// Runs cycles on the schedule until SIGINT or SIGTERM. A cycle in progress is finished
/// (each record is its own transaction) before the process ends; a cycle that outlasts
/// its slot makes the scheduler skip the slots it missed, and say so.
pub fn run(
    schedule: &Schedule,
    db: PathBuf,
    exports: PathBuf,
    options: Options,
) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the scheduler: {e}"))?;
    let stop = Arc::new(AtomicBool::new(false));
    rt.block_on(async {
        let stop_signal = stop.clone();
        let signals = async move {
            #[cfg(unix)]
            {
                use tokio::signal::unix::{signal, SignalKind};
                let mut term = match signal(SignalKind::terminate()) {
                    Ok(s) => s,
                    Err(_) => return,
                };
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            #[cfg(not(unix))]
            {
                let _ = tokio::signal::ctrl_c().await;
            }
            stop_signal.store(true, Ordering::SeqCst);
        };
        tokio::pin!(signals);
        eprintln!(
            "olav schedule: running pre-checks on '{}' (Ctrl-C or SIGTERM to stop)",
            schedule.expr
        );
        let mut next = schedule.next_after(chrono::Local::now());
        loop {
            let Some(at) = next else {
                eprintln!("olav schedule: the cron expression has no next time; stopping");
                return;
            };
            let wait = (at - chrono::Local::now()).to_std().unwrap_or_default();
            tokio::select! {
                _ = &mut signals => {
                    eprintln!("olav schedule: stopped");
                    return;
                }
                _ = tokio::time::sleep(wait) => {}
            }
            let (db, exports, options) = (db.clone(), exports.clone(), options.clone());
            let slot = at;
            let cycle = tokio::task::spawn_blocking(move || {
                precheck_all(&db, &exports, &options, Some("scheduled"))
            });
            tokio::pin!(cycle);
            let result = tokio::select! {
                r = &mut cycle => r,
                _ = &mut signals => {
                    eprintln!("olav schedule: stopping after the current cycle");
                    let r = cycle.await;
                    if let Ok(Ok(c)) = &r { log_cycle(c); }
                    eprintln!("olav schedule: stopped");
                    return;
                }
            };
            match result {
                Ok(Ok(c)) => log_cycle(&c),
                Ok(Err(e)) => eprintln!("olav schedule: cycle failed: {e}"),
                Err(e) => eprintln!("olav schedule: cycle aborted: {e}"),
            }
            if stop.load(Ordering::SeqCst) {
                return;
            }
            // Skip the slots the cycle overran.
            let now = chrono::Local::now();
            let mut upcoming = schedule.next_after(slot);
            let mut skipped = 0;
            while let Some(t) = upcoming {
                if t > now {
                    break;
                }
                skipped += 1;
                upcoming = schedule.next_after(t);
            }
            if skipped > 0 {
                eprintln!("olav schedule: the cycle outlasted its slot; skipped {skipped} slot(s)");
            }
            next = upcoming;
        }
    });
    Ok(())
}

/// A crontab line running one cycle.
pub fn crontab(expr: &str, exe: &Path, cwd: &Path, db: &Path, exports: &Path) -> String {
    format!(
        "# olav: pre-check open plans ({expr})\n{expr} cd {} && {} --db {} --exports {} schedule --once >> {}/olav-schedule.log 2>&1\n",
        cwd.display(),
        exe.display(),
        db.display(),
        exports.display(),
        exports.display()
    )
}

/// systemd service and timer units running one cycle.
pub fn systemd(expr: &str, exe: &Path, cwd: &Path, db: &Path, exports: &Path) -> String {
    let f: Vec<&str> = expr.split_whitespace().collect();
    let calendar = match f.as_slice() {
        [m, "*", "*", "*", "*"] if m.starts_with("*/") => format!("*:0/{}", &m[2..]),
        [m, h, "*", "*", "*"] if m.parse::<u32>().is_ok() && h.parse::<u32>().is_ok() => {
            format!("*-*-* {h:0>2}:{m:0>2}:00")
        }
        [m, "*", "*", "*", "*"] if m.parse::<u32>().is_ok() => format!("*:{m:0>2}"),
        _ => "hourly   # adjust: no exact OnCalendar form for the cron expression given".to_owned(),
    };
    format!(
        "# /etc/systemd/system/olav-precheck.service\n[Unit]\nDescription=olav: pre-check open change plans\n\n[Service]\nType=oneshot\nWorkingDirectory={}\nExecStart={} --db {} --exports {} schedule --once\n\n# /etc/systemd/system/olav-precheck.timer\n[Unit]\nDescription=olav: pre-check open change plans ({expr})\n\n[Timer]\nOnCalendar={calendar}\nPersistent=true\n\n[Install]\nWantedBy=timers.target\n\n# then: systemctl daemon-reload && systemctl enable --now olav-precheck.timer\n",
        cwd.display(),
        exe.display(),
        db.display(),
        exports.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cron_expressions() {
        assert!(Schedule::parse("*/15 * * * *").is_ok());
        assert!(Schedule::parse("0 6 * * 1-5").is_ok());
        assert!(
            Schedule::parse("* * * * * *").is_ok(),
            "six fields: seconds first"
        );
        assert!(Schedule::parse("every monday").is_err());
        assert!(Schedule::parse("0 25 * * *").is_err());
        let s = Schedule::parse("30 6 * * *").map_err(|e| e.to_string());
        let t = chrono::Local::now();
        let next = s.ok().and_then(|s| s.next_after(t));
        assert!(next.is_some_and(|n| n > t && n.format("%H:%M").to_string() == "06:30"));
    }

    #[test]
    fn systemd_calendars() {
        let u = |e: &str| {
            systemd(
                e,
                Path::new("/usr/bin/olav"),
                Path::new("/srv"),
                Path::new("/srv/db"),
                Path::new("/srv/exports"),
            )
        };
        assert!(u("*/15 * * * *").contains("OnCalendar=*:0/15\n"));
        assert!(u("30 6 * * *").contains("OnCalendar=*-*-* 06:30:00\n"));
        assert!(u("5 * * * *").contains("OnCalendar=*:05\n"));
        assert!(u("0 6 * * 1-5").contains("OnCalendar=hourly   # adjust"));
        assert!(crontab("*/15 * * * *", Path::new("/usr/bin/olav"), Path::new("/srv"), Path::new("/srv/db"), Path::new("/srv/exports"))
            .contains("*/15 * * * * cd /srv && /usr/bin/olav --db /srv/db --exports /srv/exports schedule --once"));
    }
}
