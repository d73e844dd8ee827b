//! `olav agents` and `olav workflows list|check|render`.

use super::{Cli, Exit, WorkflowsCmd};
use crate::agents::{self, Orchestrator};
use crate::output::{self, Format, Table};
use crate::workflow::{self, AgentDir, Catalog, Severity};
use anyhow::{anyhow, Result};

/// The orchestrator `--agent` names.
pub fn orchestrator(cli: &Cli) -> Result<&'static Orchestrator> {
    agents::orchestrator(&cli.agent).ok_or_else(|| {
        let known: Vec<&str> = agents::ORCHESTRATORS.iter().map(|o| o.name).collect();
        anyhow!(
            "no agent '{}'; known agents: {}",
            cli.agent,
            known.join(", ")
        )
    })
}

/// Loads the workflows of `--agent` from `--agent-dir` (or the bundled ones).
pub fn catalog(cli: &Cli) -> Result<(&'static Orchestrator, Catalog)> {
    let orch = orchestrator(cli)?;
    let dir = AgentDir::from_option(cli.agent_dir.as_deref());
    Ok((orch, workflow::load(orch, &dir)?))
}

/// `olav agents`.
pub fn agents(cli: &Cli) -> Result<Exit> {
    match cli.format {
        Format::Json => println!("{}", output::json(&agents::ORCHESTRATORS)),
        Format::Text => {
            for o in agents::ORCHESTRATORS {
                println!("{} — {}", o.name, o.purpose);
                let mut t = Table {
                    columns: [
                        "agent",
                        "purpose",
                        "capabilities",
                        "timeout",
                        "reply ends with",
                    ]
                    .map(String::from)
                    .to_vec(),
                    rows: Vec::new(),
                };
                for a in o.agents {
                    let caps: Vec<&str> = a.capabilities.iter().map(|c| c.label()).collect();
                    t.rows.push(vec![
                        a.name.into(),
                        a.purpose.into(),
                        caps.join(", ").into(),
                        format!("{} s", a.timeout.as_secs()).into(),
                        a.contract.into(),
                    ]);
                }
                print!("{}", t.to_text());
            }
            println!("\nNext: {} workflows list", crate::output::invoked());
        }
    }
    Ok(Exit::Ok)
}

/// `olav workflows …`.
pub fn run(cli: &Cli, cmd: &WorkflowsCmd) -> Result<Exit> {
    let (orch, cat) = catalog(cli)?;
    match cmd {
        WorkflowsCmd::List => {
            let mut t = Table {
                columns: ["name", "title", "steps", "keywords", "file"]
                    .map(String::from)
                    .to_vec(),
                rows: Vec::new(),
            };
            for w in &cat.workflows {
                let steps: Vec<&str> = w.steps.iter().map(|s| s.agent.as_str()).collect();
                t.rows.push(vec![
                    w.name.clone().into(),
                    w.title.clone().into(),
                    steps.join(" → ").into(),
                    w.keywords.join(", ").into(),
                    w.file.clone().into(),
                ]);
            }
            match cli.format {
                Format::Json => println!("{}", output::json(&cat.workflows)),
                Format::Text if t.rows.is_empty() => {
                    println!("(no workflows loaded; run: olav workflows check)")
                }
                Format::Text => print!("{}", t.to_text()),
            }
            Ok(Exit::Ok)
        }
        WorkflowsCmd::Render => {
            print!("{}", workflow::render::render(orch, &cat));
            Ok(Exit::Ok)
        }
        WorkflowsCmd::Check => {
            let exit = if cat.any_skipped() || cat.has_conflicts() {
                Exit::Fail
            } else {
                Exit::Ok
            };
            if cli.format == Format::Json {
                println!("{}", output::json(&cat));
                return Ok(exit);
            }
            let dir = AgentDir::from_option(cli.agent_dir.as_deref());
            let loaded = cat.files.iter().filter(|f| f.loaded.is_some()).count();
            let skipped = cat.files.len() - loaded;
            let verdict = if exit == Exit::Ok { "OK" } else { "FAIL" };
            println!(
                "{verdict}: {loaded} loaded, {skipped} skipped — workflows of the {} agent in {}",
                orch.name,
                dir.describe()
            );
            for f in &cat.files {
                match &f.loaded {
                    Some(name) => println!("  loaded   {}  ({name})", f.file),
                    None => println!("  skipped  {}", f.file),
                }
                for finding in &f.findings {
                    let label = match finding.severity {
                        Severity::Error => "error",
                        Severity::Warning => "warning",
                    };
                    println!("           {label}: {}", finding.message);
                    println!("           → {}", finding.suggestion);
                }
            }
            for finding in &cat.set_findings {
                let label = match finding.severity {
                    Severity::Error => "conflict",
                    Severity::Warning => "warning",
                };
                println!("  {label}: {}", finding.message);
                println!("           → {}", finding.suggestion);
            }
            println!("\nNext: {} workflows render", crate::output::invoked());
            Ok(exit)
        }
    }
}
