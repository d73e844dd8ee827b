//! `olav --agent netops "<request>"`: route a request to a workflow and run it.

use super::workflows::catalog;
use super::{open_or_demo, Cli, Exit};
use crate::agents::NetopsAgents;
use crate::engine::contract::Contract;
use crate::engine::{
    Clarification, Engine, Progress, RunOutcome, RunStatus, Silent, StderrProgress, StepRecord,
};
use crate::output::{self, FailOn, Format, StepFinding, StepFindings};
use crate::workflow::route::{route, Route};
use anyhow::Result;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The exit status of a run.
pub fn exit_of(o: &RunOutcome) -> Exit {
    exit_with(o, FailOn::Fail)
}

/// The exit status of a run when `fail_on` says which verdict fails it.
pub fn exit_with(o: &RunOutcome, fail_on: FailOn) -> Exit {
    match o.status {
        RunStatus::Ok if o.worst_verdict().is_some_and(|v| fail_on.fails(v)) => Exit::Fail,
        RunStatus::Ok => Exit::Ok,
        RunStatus::NeedsInput | RunStatus::Failed => Exit::BadInput,
        RunStatus::Partial => Exit::Partial,
    }
}

/// The reports a run wrote, by the paths its steps named.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ReportPaths {
    /// The pre-check's Markdown report.
    pub precheck: Option<String>,
    /// The verification's Markdown report.
    pub verification: Option<String>,
    /// The plan's HTML page.
    pub html: Option<String>,
}

/// A finding of one step of the run.
#[derive(Debug, Clone, Serialize)]
pub struct RunFinding {
    /// The finding.
    #[serde(flatten)]
    pub finding: StepFinding,
    /// The agent of the step that found it (`reporter`, `simulator`).
    pub step: String,
}

/// What `--format json` prints for a request: one shape whether it ran, asked or matched
/// no workflow (`docs/json.md`).
#[derive(Debug, Clone, Serialize)]
pub struct RequestAnswer {
    /// `workflow` (it ran), `ambiguous` or `none` (no workflow chosen: nothing ran).
    pub route: &'static str,
    /// `ok`, `needs_input`, `partial` or `failed`.
    pub status: RunStatus,
    /// The worst verdict of the steps.
    pub verdict: Option<String>,
    /// The plan drafted.
    pub plan_path: Option<String>,
    /// The reports written.
    pub report_paths: ReportPaths,
    /// Every finding of every step.
    pub findings: Vec<RunFinding>,
    /// olav's reading of the request.
    pub understood: Option<String>,
    /// The question or refusal, with its candidates.
    pub clarification: Option<Asked>,
    /// The workflow run.
    pub workflow: Option<String>,
    /// The run's record.
    pub run_id: Option<i64>,
    /// Each step.
    pub steps: Vec<StepRecord>,
    /// The text answer.
    pub answer: String,
    /// The circuit-breaker signature that stopped the run.
    pub stopped_by: Option<String>,
}

impl RequestAnswer {
    /// The answer of a run: report paths and findings read from the reports its steps
    /// named (paths as the steps wrote them, from the working folder).
    pub fn of_run(o: &RunOutcome) -> Self {
        let mut paths = ReportPaths::default();
        let mut findings = Vec::new();
        for st in &o.steps {
            let Some(report) = st
                .reply
                .as_deref()
                .and_then(|r| Contract::parse(r).report_path)
            else {
                continue;
            };
            let md = PathBuf::from(&report);
            if let Some(data) = std::fs::read_to_string(output::findings_beside(&md))
                .ok()
                .and_then(|t| serde_json::from_str::<StepFindings>(&t).ok())
            {
                findings.extend(data.findings.into_iter().map(|finding| RunFinding {
                    finding,
                    step: st.agent.clone(),
                }));
            }
            if report.ends_with(".precheck.md") {
                let html = crate::report::beside(Path::new(&report));
                if html.exists() {
                    paths.html = Some(html.to_string_lossy().into_owned());
                }
                paths.precheck = Some(report);
            } else if report.ends_with(".verify.md") {
                paths.verification = Some(report);
            }
        }
        RequestAnswer {
            route: "workflow",
            status: o.status,
            verdict: o.verdict.clone(),
            plan_path: o.plan_path.clone(),
            report_paths: paths,
            findings,
            understood: o.understood.clone(),
            clarification: o.clarification.as_ref().map(Asked::of),
            workflow: Some(o.workflow.clone()),
            run_id: o.run_id,
            steps: o.steps.clone(),
            answer: o.answer.clone(),
            stopped_by: o.stopped_by.clone(),
        }
    }

    /// The answer when no workflow was chosen: a question, nothing run.
    fn unrouted(
        route: &'static str,
        question: String,
        candidates: Vec<String>,
        answer: String,
    ) -> Self {
        RequestAnswer {
            route,
            status: RunStatus::NeedsInput,
            verdict: None,
            plan_path: None,
            report_paths: ReportPaths::default(),
            findings: Vec::new(),
            understood: None,
            clarification: Some(Asked::of(&Clarification {
                kind: "question",
                refused: None,
                question,
                candidates,
            })),
            workflow: None,
            run_id: None,
            steps: Vec::new(),
            answer,
            stopped_by: None,
        }
    }
}

/// Routes and runs a request.
pub fn run(cli: &Cli, request: &str) -> Result<Exit> {
    // A request is one sentence: control characters (escape sequences, newlines) are
    // spaces, so that no echo of it can redraw the terminal or forge an output line.
    let request = crate::output::one_line_printable(request);
    let request = request.as_str();
    let (orch, cat) = catalog(cli)?;
    let r = route(&cat, request);
    let workflow = match r {
        Route::Workflow { workflow, .. } => workflow,
        Route::Ambiguous { candidates } => {
            let question = "Which do you mean? This request matches more than one workflow:";
            let lines: Vec<String> = candidates
                .iter()
                .map(|c| {
                    format!(
                        "{:<22} {} (matched: {})",
                        c.workflow.name,
                        c.workflow.title,
                        c.matched.join(", ")
                    )
                })
                .collect();
            let mut text = format!("{question}\n");
            for l in &lines {
                text.push_str(&format!("  {l}\n"));
            }
            text.push_str("Ask again with the intent words of one of them only.\n");
            let can = candidates
                .iter()
                .map(|c| format!("{} — {}", c.workflow.name, c.workflow.title))
                .collect();
            print_unrouted(cli, "ambiguous", question, can, text);
            return Ok(Exit::BadInput);
        }
        Route::None => {
            let question = format!(
                "No workflow of the {} agent matches this request.",
                orch.name
            );
            let mut text = format!("{question}\nIt can:\n");
            for w in cat.workflows.iter().filter(|w| w.command.is_none()) {
                text.push_str(&format!(
                    "  {:<22} {} — say: {}\n",
                    w.name,
                    w.title,
                    w.keywords.join(" / ")
                ));
            }
            text.push_str("Closest commands:\n");
            text.push_str("  olav state show devices|interfaces|links|bgp|services|routes\n");
            text.push_str("  olav workflows list\n");
            let can = cat
                .workflows
                .iter()
                .filter(|w| w.command.is_none())
                .map(|w| format!("{} — say: {}", w.name, w.keywords.join(" / ")))
                .collect();
            print_unrouted(cli, "none", &question, can, text);
            return Ok(Exit::BadInput);
        }
    };
    // The state DB must exist before the steps read it (the demo when there is none).
    drop(open_or_demo(cli)?);
    let show_progress = !cli.quiet && (cli.progress || std::io::stderr().is_terminal());
    let progress: &dyn Progress = if show_progress {
        &StderrProgress
    } else {
        &Silent
    };
    let engine = Engine {
        orchestrator: orch,
        agents: &NetopsAgents,
        db: cli.db.clone(),
        exports: cli.exports.clone(),
        today: chrono::Local::now().format("%Y-%m-%d").to_string(),
        progress,
        batfish: super::batfish_settings(cli),
    };
    let outcome = engine.run(workflow, request);
    match cli.format {
        Format::Json => println!("{}", output::json(&RequestAnswer::of_run(&outcome))),
        Format::Text => print!("{}", outcome.answer),
    }
    Ok(exit_with(&outcome, cli.fail_on))
}

/// A question or refusal as a request's JSON gives it: each candidate in its parts.
#[derive(Debug, Clone, Serialize)]
pub struct Asked {
    /// `question` or `refusal`.
    pub kind: &'static str,
    /// What was refused, for a refusal.
    pub refused: Option<String>,
    /// The question.
    pub question: String,
    /// The answers it offers: what each shows, and for a reading of the request the exact
    /// request to run, its intent and the reading in one line.
    pub candidates: Vec<crate::agents::analyzer::intent::Candidate>,
}

impl Asked {
    /// The run's clarification, its candidates read back from their lines.
    fn of(c: &Clarification) -> Asked {
        Asked {
            kind: c.kind,
            refused: c.refused.clone(),
            question: c.question.clone(),
            candidates: c
                .candidates
                .iter()
                .map(|l| crate::agents::analyzer::intent::Candidate::parse(l))
                .collect(),
        }
    }
}

fn print_unrouted(
    cli: &Cli,
    route: &'static str,
    question: &str,
    candidates: Vec<String>,
    text: String,
) {
    match cli.format {
        Format::Json => println!(
            "{}",
            output::json(&RequestAnswer::unrouted(
                route,
                question.to_owned(),
                candidates,
                text
            ))
        ),
        Format::Text => print!("{text}"),
    }
}
