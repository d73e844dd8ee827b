//! Scheduled pre-checks: `precheck --all` re-checks every open plan against the current
//! state and records drift; the scheduler runs it on a cron schedule, one cycle at a
//! time, and stops cleanly on SIGINT / SIGTERM. With a snapshot folder, each cycle first
//! re-imports it when its contents changed. Crontab lines and systemd units carry the
//! same cycle for the system's own schedulers.

use crate::agents::capability::{PlanReader, ReportWriter, StateReader, Tools};
use crate::agents::reporter::{Checked, Reporter};
use crate::calendar::{CalendarError, Cron};
use crate::precheck::window::{together, Open, Together};
use crate::precheck::{Finding, Options, Severity};
use crate::state::plans::PlanStatus;
use crate::state::{StateDb, StateError};
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
    pub before: PlanStatus,
    /// Status after.
    pub after: PlanStatus,
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
    /// The worst verdict of the open plans: FAIL, WARN, else PASS — for scripts.
    pub verdict: &'static str,
    /// One row per open plan.
    pub rows: Vec<CycleRow>,
    /// Effects that only the open plans together have (each also noted on the rows of
    /// the plans involved).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub together: Vec<Together>,
    /// What the cycle did with the snapshot folder it re-imports (`--import`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh: Option<Refresh>,
}

/// What a cycle did with the snapshot folder it keeps the state DB in step with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Refresh {
    /// The folder's contents differed from the last import's: imported.
    Imported {
        /// The folder.
        dir: String,
        /// The new state version.
        state_version: i64,
        /// Devices imported.
        devices: usize,
        /// Files skipped (`olav state show warnings` lists them).
        skipped: usize,
    },
    /// The same contents as the last import: nothing imported.
    Unchanged {
        /// The folder.
        dir: String,
        /// The state version kept.
        state_version: i64,
    },
    /// The import failed; the state is as it was and the plans were re-checked against it.
    Failed {
        /// The folder.
        dir: String,
        /// Why.
        error: String,
    },
}

impl Refresh {
    /// Whether the cycle's result is partial: the import failed or skipped files.
    pub fn partial(&self) -> bool {
        match self {
            Refresh::Imported { skipped, .. } => *skipped > 0,
            Refresh::Unchanged { .. } => false,
            Refresh::Failed { .. } => true,
        }
    }
}

impl std::fmt::Display for Refresh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refresh::Imported {
                dir,
                state_version,
                devices,
                skipped,
            } => {
                write!(
                    f,
                    "snapshot {dir} changed: imported {devices} devices → state v{state_version}"
                )?;
                if *skipped > 0 {
                    write!(f, " ({skipped} file(s) skipped: olav state show warnings)")?;
                }
                Ok(())
            }
            Refresh::Unchanged { dir, state_version } => {
                write!(f, "snapshot {dir} unchanged since state v{state_version}")
            }
            Refresh::Failed { dir, error } => write!(
                f,
                "snapshot {dir} not imported: {error}; plans re-checked against the state as it was"
            ),
        }
    }
}

/// Imports the snapshot folder `dir` when its contents differ from the last import's
/// (the digest of every file's path and bytes, kept in `import_run`).
pub fn refresh(db_path: &Path, dir: &Path) -> Refresh {
    let shown = dir.display().to_string();
    let run = || -> Result<Refresh, String> {
        let snap = crate::import::SnapshotDir::open(dir).map_err(|e| e.to_string())?;
        let mut db = StateDb::open(db_path).map_err(|e| e.to_string())?;
        if let Some(last) = db.last_import().map_err(|e| e.to_string())? {
            if last.content_hash == snap.content_hash() {
                return Ok(Refresh::Unchanged {
                    dir: shown.clone(),
                    state_version: last.state_version,
                });
            }
        }
        let streamed = crate::import::stream(&snap).map_err(|e| e.to_string())?;
        let s = db.import_streamed(&streamed).map_err(|e| e.to_string())?;
        Ok(Refresh::Imported {
            dir: shown.clone(),
            state_version: s.state_version,
            devices: s.devices,
            skipped: s.skipped.len(),
        })
    };
    run().unwrap_or_else(|error| Refresh::Failed {
        dir: shown.clone(),
        error,
    })
}

/// One cycle: re-imports `import` when it changed, then re-checks every open plan.
pub fn cycle(
    db_path: &Path,
    exports: &Path,
    options: &Options,
    note: &str,
    import: Option<&Path>,
) -> Result<Cycle, StateError> {
    let refresh = import.map(|dir| refresh(db_path, dir));
    let note = match &refresh {
        Some(r) => format!("{note}; {r}"),
        None => note.to_owned(),
    };
    let mut c = precheck_all(db_path, exports, options, Some(&note))?;
    c.refresh = refresh;
    Ok(c)
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
    let id = db.start_cycle(note)?;
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
    // Every plan is checked against one network model: held here, it is decoded once
    // for the cycle, not once per plan.
    let _model = StateReader::new(db_path, tools.clone()).model().ok();
    let mut rows = Vec::new();
    // The plans read and checked, with what each found alone, for the window as a whole.
    let mut checked: Vec<(String, String, Vec<Finding>)> = Vec::new();
    for p in plans {
        let reporter = reporter_for(&p.path);
        if !Path::new(&p.path).is_file() {
            let reason = format!("the plan file {} is gone", p.path);
            db.set_plan_status(&p.plan_id, PlanStatus::Stale, Some(&reason))?;
            tracing::warn!("{}: {reason}", p.plan_id);
            rows.push(CycleRow {
                plan_id: p.plan_id,
                path: p.path,
                before: p.status,
                after: PlanStatus::Stale,
                verdict: "MISSING".into(),
                drift: None,
                note: Some(reason),
            });
            continue;
        }
        match reporter.check(&p.path) {
            Ok(Checked {
                report,
                recorded,
                html,
                ..
            }) => {
                if report.plan_id.is_some() {
                    checked.push((
                        p.plan_id.clone(),
                        p.created.clone(),
                        report.findings.clone(),
                    ));
                }
                let first_error = report
                    .findings
                    .iter()
                    .find(|f| f.severity == crate::precheck::Severity::Error)
                    .map(|f| format!("{}: {}", f.element, f.message))
                    .or_else(|| html.err().map(|why| format!("HTML report missing: {why}")));
                rows.push(CycleRow {
                    plan_id: p.plan_id,
                    path: p.path,
                    before: recorded.as_ref().map_or(p.status, |r| r.before),
                    after: recorded.as_ref().map_or(p.status, |r| r.after),
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
                    before: p.status,
                    after: p.status,
                    verdict: "ERROR".into(),
                    drift: None,
                    note: Some(err.to_string()),
                });
            }
        }
    }
    let together = window(&db, &p_paths(&rows), checked, options)?;
    for row in &mut rows {
        let mine: Vec<&Together> = together
            .iter()
            .filter(|t| t.plans.contains(&row.plan_id))
            .collect();
        let Some(worst) = mine.iter().map(|t| t.finding.severity).min() else {
            continue;
        };
        match worst {
            Severity::Error => row.verdict = "FAIL".into(),
            Severity::Warning if row.verdict == "PASS" => row.verdict = "WARN".into(),
            _ => {}
        }
        let mut others: Vec<&str> = mine
            .iter()
            .flat_map(|t| t.plans.iter())
            .filter(|o| **o != row.plan_id)
            .map(String::as_str)
            .collect();
        others.sort_unstable();
        others.dedup();
        let first = mine
            .iter()
            .find(|t| t.finding.severity == worst)
            .map(|t| format!("{}: {}", t.finding.element, t.finding.message))
            .unwrap_or_default();
        let said = format!(
            "together with {}: {} effect(s) no plan has alone, worst {}: {first}",
            others.join(", "),
            mine.len(),
            worst.as_str()
        );
        row.note = Some(match row.note.take() {
            Some(n) if worst != Severity::Error => format!("{n}; {said}"),
            Some(n) => format!("{said}; {n}"),
            None => said,
        });
    }
    let failing = rows
        .iter()
        .any(|r| r.verdict != "PASS" && r.verdict != "WARN");
    let cycle = Cycle {
        id,
        // The worst row: a warning anywhere is a WARN cycle.
        verdict: if failing {
            "FAIL"
        } else if rows.iter().any(|r| r.verdict == "WARN") {
            "WARN"
        } else {
            "PASS"
        },
        rows,
        together,
        refresh: None,
    };
    db.finish_cycle(
        id,
        if cycle.failed() == 0 { "ok" } else { "failed" },
        cycle.rows.len(),
        cycle.failed(),
    )?;
    Ok(cycle)
}

/// Each checked plan's file, by id.
fn p_paths(rows: &[CycleRow]) -> Vec<(String, String)> {
    rows.iter()
        .map(|r| (r.plan_id.clone(), r.path.clone()))
        .collect()
}

/// The open plans checked this cycle applied together, oldest first (olav knows no
/// change-window times: the registry's order is the window's).
fn window(
    db: &StateDb,
    paths: &[(String, String)],
    mut checked: Vec<(String, String, Vec<Finding>)>,
    options: &Options,
) -> Result<Vec<Together>, StateError> {
    checked.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let mut plans = Vec::new();
    for (id, _, findings) in &checked {
        let Some((_, path)) = paths.iter().find(|(p, _)| p == id) else {
            continue;
        };
        // A plan that cannot be read again (changed since) is left out of the window.
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(plan) = crate::plan::Plan::from_markdown(&text) else {
            continue;
        };
        plans.push((id.as_str(), plan, findings.as_slice()));
    }
    let open: Vec<Open<'_>> = plans
        .iter()
        .map(|(id, plan, alone)| Open { id, plan, alone })
        .collect();
    together(db, &open, options)
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
    if let Some(r) = &c.refresh {
        eprintln!("olav schedule: {r}");
    }
    let stale: Vec<&str> = c
        .rows
        .iter()
        .filter(|r| r.after == PlanStatus::Stale && r.before != PlanStatus::Stale)
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
/// With `import`, each cycle first re-imports that snapshot folder when it changed.
pub fn run(
    schedule: &Schedule,
    db: PathBuf,
    exports: PathBuf,
    options: Options,
    import: Option<PathBuf>,
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
            let (db, exports, options, import) =
                (db.clone(), exports.clone(), options.clone(), import.clone());
            let slot = at;
            let cycle = tokio::task::spawn_blocking(move || {
                cycle(&db, &exports, &options, "scheduled", import.as_deref())
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

/// Where and how a scheduled `schedule --once` runs.
#[derive(Debug, Clone, Copy)]
pub struct Invocation<'a> {
    /// The olav binary.
    pub exe: &'a Path,
    /// Its working directory.
    pub cwd: &'a Path,
    /// The state DB.
    pub db: &'a Path,
    /// The exports folder.
    pub exports: &'a Path,
    /// The snapshot folder to re-import each cycle, if any.
    pub import: Option<&'a Path>,
}

/// A word for `sh`: quoted when it holds anything but plain path characters; `%` is
/// escaped for cron, which would read it as a newline.
fn sh_word(p: &Path) -> String {
    let s = p.display().to_string();
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-+=:,@%".contains(c));
    let quoted = if plain {
        s
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    };
    quoted.replace('%', "\\%")
}

/// A word for a systemd unit: quoted when it holds a space or a quote; `%` and `$`
/// doubled (systemd's specifiers and variables).
fn unit_word(p: &Path) -> String {
    let s = p
        .display()
        .to_string()
        .replace('%', "%%")
        .replace('$', "$$");
    if s.chars()
        .any(|c| c.is_whitespace() || c == '"' || c == '\'' || c == '\\')
    {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        s
    }
}

fn once_args(word: fn(&Path) -> String, inv: &Invocation<'_>) -> String {
    format!(
        "{} --db {} --exports {} schedule --once{}",
        word(inv.exe),
        word(inv.db),
        word(inv.exports),
        inv.import
            .map(|d| format!(" --import {}", word(d)))
            .unwrap_or_default()
    )
}

/// A crontab line running one cycle; refused (saying why) for what cron cannot express.
pub fn crontab(expr: &str, inv: &Invocation<'_>) -> Result<String, CalendarError> {
    let when = Cron::parse(expr)?.crontab()?;
    Ok(format!(
        "# olav: pre-check open plans ({expr}{})\n{when} cd {} && {} >> {}/olav-schedule.log 2>&1\n",
        inv.import
            .map(|d| format!("; re-import {} when it changes", d.display()))
            .unwrap_or_default(),
        sh_word(inv.cwd),
        once_args(sh_word, inv),
        sh_word(inv.exports)
    ))
}

/// systemd service and timer units running one cycle, with the exact `OnCalendar=`
/// lines of the cron expression (several when cron's day-of-month OR day-of-week rule
/// needs it).
pub fn systemd(expr: &str, inv: &Invocation<'_>) -> Result<String, CalendarError> {
    let calendars: String = Cron::parse(expr)?
        .on_calendar()
        .iter()
        .map(|c| format!("OnCalendar={c}\n"))
        .collect();
    Ok(format!(
        "# /etc/systemd/system/olav-precheck.service\n[Unit]\nDescription=olav: pre-check open change plans\n\n[Service]\nType=oneshot\nWorkingDirectory={}\nExecStart={}\n\n# /etc/systemd/system/olav-precheck.timer\n[Unit]\nDescription=olav: pre-check open change plans (cron {})\n\n[Timer]\n{calendars}Persistent=true\n\n[Install]\nWantedBy=timers.target\n\n# then: systemctl daemon-reload && systemctl enable --now olav-precheck.timer\n",
        inv.cwd.display().to_string().replace('%', "%%"),
        once_args(unit_word, inv),
        expr.replace('%', "%%")
    ))
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
        let inv = Invocation {
            exe: Path::new("/usr/bin/olav"),
            cwd: Path::new("/srv"),
            db: Path::new("/srv/db"),
            exports: Path::new("/srv/exports"),
            import: None,
        };
        let u = |e: &str| systemd(e, &inv).map_err(|e| e.to_string());
        assert!(u("*/15 * * * *").is_ok_and(|t| t.contains("OnCalendar=*-*-* *:00/15:00\n")));
        assert!(u("30 6 * * *").is_ok_and(|t| t.contains("OnCalendar=*-*-* 06:30:00\n")));
        assert!(u("0 6 * * 1-5").is_ok_and(|t| t.contains("OnCalendar=Mon..Fri *-*-* 06:00:00\n")));
        assert!(u("0 6 15W * *").is_err_and(|e| e.contains("W, the weekday nearest a day")));
        assert_eq!(
            crontab("*/15 * * * *", &inv).ok().as_deref(),
            Some("# olav: pre-check open plans (*/15 * * * *)\n*/15 * * * * cd /srv && /usr/bin/olav --db /srv/db --exports /srv/exports schedule --once >> /srv/exports/olav-schedule.log 2>&1\n")
        );
    }

    #[test]
    fn scheduled_commands_quote_what_needs_it() {
        let inv = Invocation {
            exe: Path::new("/opt/my tools/olav"),
            cwd: Path::new("/srv"),
            db: Path::new("/srv/100%/db"),
            exports: Path::new("/srv/exports"),
            import: Some(Path::new("/backups/it's configs")),
        };
        let line = crontab("0 6 * * *", &inv).unwrap_or_default();
        assert!(
            line.contains("'/opt/my tools/olav' --db /srv/100\\%/db --exports /srv/exports schedule --once --import '/backups/it'\\''s configs'"),
            "{line}"
        );
        let units = systemd("0 6 * * *", &inv).unwrap_or_default();
        assert!(
            units.contains("ExecStart=\"/opt/my tools/olav\" --db /srv/100%%/db --exports /srv/exports schedule --once --import \"/backups/it's configs\"\n"),
            "{units}"
        );
        assert!(crontab("30 0 6 * * *", &inv)
            .is_err_and(|e| e.to_string().contains("no seconds field")));
        assert!(crontab("0 0 6 * * *", &inv).is_ok_and(|l| l.contains("\n0 6 * * * cd ")));
        assert!(crontab("0 6 L * *", &inv).is_err());
        assert!(crontab("0 6 * * 5#2", &inv).is_err());
    }

    #[test]
    fn refresh_outcomes_read_as_sentences() {
        let r = Refresh::Unchanged {
            dir: "/snap".into(),
            state_version: 4,
        };
        assert_eq!(r.to_string(), "snapshot /snap unchanged since state v4");
        assert!(!r.partial());
        let f = Refresh::Failed {
            dir: "/snap".into(),
            error: "no configs/ folder".into(),
        };
        assert!(
            f.partial()
                && f.to_string()
                    .contains("re-checked against the state as it was")
        );
    }
}
