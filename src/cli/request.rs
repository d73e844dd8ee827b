//! `olav --agent netops "<request>"`: route a request to a workflow and run it.

use super::workflows::catalog;
use super::{open_or_demo, Cli, Exit};
use crate::agents::NetopsAgents;
use crate::engine::{Engine, Progress, RunOutcome, RunStatus, Silent, StderrProgress};
use crate::output::{self, Format};
use crate::workflow::route::{route, Route};
use anyhow::Result;
use std::io::IsTerminal;

/// The exit status of a run.
pub fn exit_of(o: &RunOutcome) -> Exit {
    match o.status {
        RunStatus::Ok if o.worst_verdict() == Some("FAIL") => Exit::Fail,
        RunStatus::Ok => Exit::Ok,
        RunStatus::NeedsInput | RunStatus::Failed => Exit::BadInput,
        RunStatus::Partial => Exit::Partial,
    }
}

/// Routes and runs a request.
pub fn run(cli: &Cli, request: &str) -> Result<Exit> {
    let (orch, cat) = catalog(cli)?;
    let r = route(&cat, request);
    let workflow = match r {
        Route::Workflow { workflow, .. } => workflow,
        Route::Ambiguous { candidates } => {
            if cli.format == Format::Json {
                println!("{}", output::json(&Route::Ambiguous { candidates }));
            } else {
                println!("Which do you mean? This request matches more than one workflow:");
                for c in &candidates {
                    println!(
                        "  {:<22} {} (matched: {})",
                        c.workflow.name,
                        c.workflow.title,
                        c.matched.join(", ")
                    );
                }
                println!("Ask again with the intent words of one of them only.");
            }
            return Ok(Exit::BadInput);
        }
        Route::None => {
            if cli.format == Format::Json {
                let can: Vec<String> = cat
                    .workflows
                    .iter()
                    .map(|w| format!("{} — say: {}", w.name, w.keywords.join(" / ")))
                    .collect();
                println!(
                    "{}",
                    output::json(&serde_json::json!({
                        "route": "none",
                        "status": "needs_input",
                        "clarification": {
                            "kind": "question",
                            "question": format!("No workflow of the {} agent matches this request.", orch.name),
                            "candidates": can,
                        },
                    }))
                );
            } else {
                println!(
                    "No workflow of the {} agent matches this request.",
                    orch.name
                );
                println!("It can:");
                for w in &cat.workflows {
                    println!(
                        "  {:<22} {} — say: {}",
                        w.name,
                        w.title,
                        w.keywords.join(" / ")
                    );
                }
                println!("Closest commands:");
                println!("  olav state show devices|interfaces|links|bgp|services|routes");
                println!("  olav workflows list");
            }
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
        Format::Json => println!("{}", output::json(&outcome)),
        Format::Text => print!("{}", outcome.answer),
    }
    Ok(exit_of(&outcome))
}
