//! `olav precheck --all`, `olav plans …`, `olav schedule …`.

use super::check::parse_age;
use super::{open_or_demo, Cli, Exit, PlansCmd};
use crate::output::{self, Format, Table};
use crate::precheck::Options;
use crate::schedule::{self, Cycle, Schedule};
use crate::state::plans::PlanStatus;
use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;

fn print_cycle(cli: &Cli, c: &Cycle) {
    match cli.format {
        Format::Json => println!("{}", output::json(c)),
        Format::Text => {
            if let Some(r) = &c.refresh {
                println!("{r}");
            }
            println!(
                "{} — {} open plan(s) pre-checked, {} failing (cycle {})",
                c.verdict,
                c.rows.len(),
                c.failed(),
                c.id
            );
            let mut t = Table {
                columns: ["plan", "verdict", "status", "drift / reason"]
                    .map(String::from)
                    .to_vec(),
                rows: Vec::new(),
            };
            for r in &c.rows {
                let status = if r.before == r.after {
                    r.after.to_string()
                } else {
                    format!("{} → {}", r.before, r.after)
                };
                let why = match (&r.drift, &r.note) {
                    (Some(d), Some(n)) => format!("{d}; {n}"),
                    (Some(d), None) => d.clone(),
                    (None, Some(n)) => n.clone(),
                    (None, None) => String::new(),
                };
                t.rows.push(vec![
                    r.plan_id.clone().into(),
                    r.verdict.clone().into(),
                    status.into(),
                    why.into(),
                ]);
            }
            if !t.rows.is_empty() {
                print!("{}", t.to_text());
            }
            if !c.together.is_empty() {
                println!(
                    "The open plans together ({} effect(s) no plan has alone):",
                    c.together.len()
                );
                const SHOWN: usize = 10;
                for x in c.together.iter().take(SHOWN) {
                    println!(
                        "  {:<7} {}: {} [{}]",
                        x.finding.severity.as_str(),
                        x.finding.element,
                        x.finding.message,
                        x.plans.join(" + ")
                    );
                }
                if c.together.len() > SHOWN {
                    println!("  … {} more (--format json)", c.together.len() - SHOWN);
                }
            }
            if c.failed() > 0 {
                println!("Next: {} plans show <plan>", crate::output::invoked());
            }
        }
    }
}

/// `olav precheck --all`.
pub fn precheck_all(cli: &Cli, max_age: &str, note: Option<&str>) -> Result<Exit> {
    let options = Options {
        max_age: parse_age(max_age)?,
    };
    drop(open_or_demo(cli)?);
    let c = schedule::precheck_all(&cli.db, &cli.exports, &options, note)?;
    print_cycle(cli, &c);
    Ok(cycle_exit(&c))
}

/// A plan that fails makes the cycle FAIL; else an import that failed or skipped files
/// makes it partial.
fn cycle_exit(c: &Cycle) -> Exit {
    if c.failed() > 0 {
        Exit::Fail
    } else if c.refresh.as_ref().is_some_and(schedule::Refresh::partial) {
        Exit::Partial
    } else {
        Exit::Ok
    }
}

/// What `olav schedule` prints instead of running, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Print {
    /// Run.
    Nothing,
    /// A crontab line.
    Crontab,
    /// systemd units.
    Systemd,
}

/// `olav plans …`.
pub fn plans(cli: &Cli, cmd: &PlansCmd) -> Result<Exit> {
    let db = open_or_demo(cli)?;
    let find = |id: &str| -> Result<crate::state::plans::PlanRow> {
        db.plan(id)?
            .ok_or_else(|| anyhow!("no plan '{id}' in the registry; see: olav plans list --all"))
    };
    match cmd {
        PlansCmd::List { all } => {
            let rows = db.plans(*all)?;
            match cli.format {
                Format::Json => println!("{}", output::json(&rows)),
                Format::Text if rows.is_empty() => println!("(no open plans)"),
                Format::Text => {
                    let mut t = Table {
                        columns: [
                            "plan",
                            "status",
                            "workflow",
                            "created",
                            "state",
                            "last pre-check",
                            "path",
                        ]
                        .map(String::from)
                        .to_vec(),
                        rows: Vec::new(),
                    };
                    for p in rows {
                        let last = db
                            .last_verdict(&p.plan_id)?
                            .map(|(v, sv, _)| format!("{v} @ v{sv}"))
                            .unwrap_or_else(|| "never".into());
                        let status = if edited_since_precheck(&db, &p)? {
                            format!("{} (edited since)", p.status)
                        } else {
                            p.status.to_string()
                        };
                        t.rows.push(vec![
                            p.plan_id.into(),
                            status.into(),
                            p.workflow.into(),
                            p.created.into(),
                            format!("v{}", p.state_version).into(),
                            last.into(),
                            p.path.into(),
                        ]);
                    }
                    print!("{}", t.to_text());
                }
            }
            Ok(Exit::Ok)
        }
        PlansCmd::Show { id } => {
            let p = find(id)?;
            let history = db.precheck_history(&p.plan_id)?;
            let verifications = db.verify_history(&p.plan_id)?;
            match cli.format {
                Format::Json => println!(
                    "{}",
                    output::json(&serde_json::json!({
                        "plan": p,
                        "prechecks": history.to_json(),
                        "verifications": verifications.to_json(),
                    }))
                ),
                Format::Text => {
                    println!("{} — {}", p.plan_id, p.status);
                    if edited_since_precheck(&db, &p)? {
                        println!(
                            "  EDITED   the file's configuration changed after its last pre-check: it is not what was checked; run: {} precheck {}",
                            crate::output::invoked(),
                            p.path
                        );
                    }
                    if let Some(r) = &p.status_reason {
                        println!("  reason   {r}");
                    }
                    println!("  title    {}", p.title);
                    println!("  path     {}", p.path);
                    println!(
                        "  workflow {} · intent {} · drafted {} against state v{}",
                        p.workflow, p.intent, p.created, p.state_version
                    );
                    if history.rows.is_empty() {
                        println!(
                            "\nNo pre-check yet. Next: {} precheck {}",
                            crate::output::invoked(),
                            p.path
                        );
                    } else {
                        println!();
                        print!("{}", history.to_text());
                    }
                    if !verifications.rows.is_empty() {
                        println!("\nVerifications:");
                        print!("{}", verifications.to_text());
                    }
                }
            }
            Ok(Exit::Ok)
        }
        PlansCmd::Approve { id } => {
            let found = find(id)?;
            // What is approved is what was pre-checked: an edit since then needs a new
            // pre-check first.
            let text = std::fs::read_to_string(&found.path)
                .with_context(|| format!("reading the plan file {}", found.path))?;
            let now = crate::plan::Plan::from_markdown(&text)
                .map_err(|e| anyhow!("{}: {e}", found.path))?
                .config_digest();
            // Checked and set in one write transaction: a pre-check or verification that
            // lands meanwhile is either seen here or waits until the approval is recorded.
            db.in_write_transaction(|db| approve(db, &found.plan_id, &now))?;
            println!("{} approved", found.plan_id);
            Ok(Exit::Ok)
        }
        PlansCmd::Close { id } | PlansCmd::Withdraw { id } => {
            let p = find(id)?;
            let to = if matches!(cmd, PlansCmd::Close { .. }) {
                PlanStatus::Done
            } else {
                PlanStatus::Withdrawn
            };
            if !p.status.is_open() {
                bail!("{} is already {}", p.plan_id, p.status);
            }
            db.set_plan_status(&p.plan_id, to, None)?;
            println!(
                "{} {}",
                p.plan_id,
                if to == PlanStatus::Done {
                    "closed (done)"
                } else {
                    "withdrawn"
                }
            );
            Ok(Exit::Ok)
        }
    }
}

/// Approves a plan when the rule of `docs/schedule.md` allows it (its file's
/// configuration digest `now`); the caller holds the write transaction.
fn approve(db: &crate::state::StateDb, plan_id: &str, now: &str) -> Result<()> {
    let p = db.plan(plan_id)?.ok_or_else(|| {
        anyhow!("no plan '{plan_id}' in the registry; see: olav plans list --all")
    })?;
    match db.last_verdict(&p.plan_id)? {
        None => bail!("{} has never been pre-checked; run: olav precheck {}", p.plan_id, p.path),
        Some((v, _, at)) if v == "FAIL" => bail!("{} cannot be approved: its last pre-check ({at}) failed; fix it and run: olav precheck {}", p.plan_id, p.path),
        Some(_) => {}
    }
    if db
        .last_precheck_digest(&p.plan_id)?
        .is_some_and(|d| d != now)
    {
        bail!(
            "{} cannot be approved: its configuration was edited after its last pre-check; run: olav precheck {}",
            p.plan_id,
            p.path
        );
    }
    // A verification that failed stands until the plan is verified again, even when a
    // later pre-check passes (the pre-check does not simulate the network); a failure
    // Batfish found stands until Batfish passes it (static checks alone cannot overrule it).
    for formal in [false, true] {
        if let Some(v) = db.last_verification(&p.plan_id, now, formal)? {
            if v.verdict == "FAIL" {
                bail!(
                    "{} cannot be approved: its last verification{} ({}, {}) failed: {}; fix the plan, then run: olav precheck {path} and olav verify {path}",
                    p.plan_id,
                    if formal { " by Batfish" } else { "" },
                    v.engine,
                    v.ran_at,
                    v.first_problem.as_deref().unwrap_or("see the report"),
                    path = p.path
                );
            }
        }
    }
    if !matches!(p.status, PlanStatus::Prechecked | PlanStatus::Verified) {
        bail!(
            "{} is {}: only prechecked or verified plans can be approved",
            p.plan_id,
            p.status
        );
    }
    db.set_plan_status(&p.plan_id, PlanStatus::Approved, None)?;
    Ok(())
}

/// Whether a plan's file no longer holds the configuration its last pre-check saw (a
/// file that no longer parses counts as edited).
fn edited_since_precheck(
    db: &crate::state::StateDb,
    p: &crate::state::plans::PlanRow,
) -> Result<bool> {
    let Some(seen) = db.last_precheck_digest(&p.plan_id)? else {
        return Ok(false);
    };
    // A file that is gone is the scheduler's to report (the plan turns stale).
    let Ok(text) = std::fs::read_to_string(&p.path) else {
        return Ok(false);
    };
    let now = crate::plan::Plan::from_markdown(&text)
        .ok()
        .map(|plan| plan.config_digest());
    Ok(now.as_deref() != Some(seen.as_str()))
}

/// `olav schedule …`.
pub fn schedule(
    cli: &Cli,
    cron: &str,
    import: Option<&Path>,
    once: bool,
    print: Print,
) -> Result<Exit> {
    let s = Schedule::parse(cron).map_err(|e| anyhow!(e))?;
    let exe = std::env::current_exe().unwrap_or_else(|_| "olav".into());
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let abs = |p: &Path| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            cwd.join(p)
        }
    };
    if let Some(dir) = import {
        if !dir.join("configs").is_dir() {
            bail!(
                "--import {}: not a snapshot folder (no configs/ folder in it)",
                dir.display()
            );
        }
    }
    let (db, exports, import_abs) = (abs(&cli.db), abs(&cli.exports), import.map(abs));
    let inv = schedule::Invocation {
        exe: &exe,
        cwd: &cwd,
        db: &db,
        exports: &exports,
        import: import_abs.as_deref(),
    };
    match print {
        Print::Crontab => {
            print!("{}", schedule::crontab(&s.expr, &inv)?);
            return Ok(Exit::Ok);
        }
        Print::Systemd => {
            print!("{}", schedule::systemd(&s.expr, &inv)?);
            return Ok(Exit::Ok);
        }
        Print::Nothing => {}
    }
    // With a snapshot folder the state comes from it: no demo network first.
    if import.is_none() {
        drop(open_or_demo(cli)?);
    }
    if once {
        let c = schedule::cycle(&cli.db, &cli.exports, &Options::default(), "once", import)?;
        print_cycle(cli, &c);
        return Ok(cycle_exit(&c));
    }
    schedule::run(
        &s,
        cli.db.clone(),
        cli.exports.clone(),
        Options::default(),
        import.map(Path::to_path_buf),
    )
    .map_err(|e| anyhow!(e))?;
    Ok(Exit::Ok)
}
