//! `olav plan --device NAME --config FILE …`: an engineer's own lines registered as a
//! plan, then pre-checked and verified by the `custom_plan` workflow like a drafted plan.

use super::request::{exit_with, RequestAnswer};
use super::workflows::catalog;
use super::{open_or_demo, Cli, Exit};
use crate::agents::writer::{CustomChange, DeviceLines, WORKFLOW};
use crate::agents::CustomAgents;
use crate::engine::{Engine, Progress, Silent, StderrProgress};
use crate::output::{self, Format};
use anyhow::{bail, Context, Result};
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

/// The most configuration one file may hold (a full running config is well below).
const MAX_LINES_BYTES: u64 = 4 << 20;

/// The most lines one device's change may have: each line is read in its block, which
/// grows faster than the lines (10,000 took 28 s), and a change is rarely a tenth of it.
const MAX_CHANGE_LINES: usize = 2_000;

/// What `olav plan` was given.
pub struct Args<'a> {
    /// Devices, in order.
    pub devices: &'a [String],
    /// Their configuration files, in the same order (`-`: stdin).
    pub configs: &'a [PathBuf],
    /// Their rollbacks, in the same order, when given.
    pub rollbacks: &'a [PathBuf],
    /// The plan's title.
    pub title: Option<&'a str>,
}

/// Reads a file of lines, or stdin for `-`.
fn read_lines(path: &Path, stdin_used: &mut bool) -> Result<(String, String)> {
    if path == Path::new("-") {
        if *stdin_used {
            bail!("stdin (-) can be given once only");
        }
        *stdin_used = true;
        let mut s = String::new();
        std::io::stdin()
            .take(MAX_LINES_BYTES)
            .read_to_string(&mut s)
            .context("reading configuration lines from stdin")?;
        return within_cap("stdin".to_owned(), s);
    }
    let text = crate::fsutil::read_text(path, MAX_LINES_BYTES)
        .with_context(|| format!("reading {}", path.display()))?;
    within_cap(path.display().to_string(), text)
}

/// Refuses a change longer than [`MAX_CHANGE_LINES`], naming the file.
fn within_cap(name: String, text: String) -> Result<(String, String)> {
    let n = text.lines().count();
    if n > MAX_CHANGE_LINES {
        bail!(
            "{name}: {n} lines; olav verifies a change of at most {MAX_CHANGE_LINES} lines per device (a whole configuration is imported instead: olav state import)"
        );
    }
    Ok((name, text))
}

/// Registers the lines as a plan and runs the `custom_plan` workflow on it.
pub fn run(cli: &Cli, a: &Args<'_>) -> Result<Exit> {
    if a.devices.len() != a.configs.len() {
        bail!(
            "{} --device and {} --config given: give one --config FILE after each --device NAME",
            a.devices.len(),
            a.configs.len()
        );
    }
    if !a.rollbacks.is_empty() && a.rollbacks.len() != a.devices.len() {
        bail!(
            "{} --rollback for {} --device: give one rollback per device, or none (olav derives them)",
            a.rollbacks.len(),
            a.devices.len()
        );
    }
    let mut stdin_used = false;
    let mut change = CustomChange {
        title: a.title.map(str::to_owned),
        devices: Vec::new(),
    };
    for (i, device) in a.devices.iter().enumerate() {
        let (source, text) = read_lines(&a.configs[i], &mut stdin_used)?;
        let rollback = match a.rollbacks.get(i) {
            Some(p) => Some(read_lines(p, &mut stdin_used)?),
            None => None,
        };
        change.devices.push(DeviceLines {
            device: device.clone(),
            source,
            text,
            rollback,
        });
    }
    let (orch, cat) = catalog(cli)?;
    let Some(workflow) = cat.workflows.iter().find(|w| w.name == WORKFLOW) else {
        bail!(
            "the {} agent has no '{WORKFLOW}' workflow (workflows/{WORKFLOW}.workflow.yaml): it cannot verify hand-written lines",
            orch.name
        );
    };
    drop(open_or_demo(cli)?);
    let show_progress = !cli.quiet && (cli.progress || std::io::stderr().is_terminal());
    let progress: &dyn Progress = if show_progress {
        &StderrProgress
    } else {
        &Silent
    };
    let request = match a.title {
        Some(t) => output::one_line_printable(t),
        None => format!(
            "Verify hand-written configuration for {}",
            a.devices.join(", ")
        ),
    };
    let agents = CustomAgents(change);
    let engine = Engine {
        orchestrator: orch,
        agents: &agents,
        db: cli.db.clone(),
        exports: cli.exports.clone(),
        today: chrono::Local::now().format("%Y-%m-%d").to_string(),
        progress,
        batfish: super::batfish_settings(cli),
    };
    let outcome = engine.run(workflow, &request);
    match cli.format {
        Format::Json => println!("{}", output::json(&RequestAnswer::of_run(&outcome))),
        Format::Text => print!("{}", outcome.answer),
    }
    Ok(exit_with(&outcome, cli.fail_on))
}
