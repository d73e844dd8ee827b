//! Rendering workflows into the block an orchestrator's system prompt carries.
//! Deterministic: the same files give the same bytes on every run and machine.

use super::Catalog;
use crate::agents::Orchestrator;
use std::fmt::Write as _;

/// Renders every loaded workflow of `catalog`.
pub fn render(orch: &Orchestrator, catalog: &Catalog) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Workflows of the {} orchestrator\n", orch.name);
    s.push_str(
        "When a request matches a workflow's intent words, run that workflow's steps in order,\n\
         each as a call to the named step agent, and answer with the assembled replies.\n\
         Pass artifacts by reference: hand the next step the path the previous reply named,\n\
         never the content. If two workflows match, ask which one is meant.\n",
    );
    for w in &catalog.workflows {
        let _ = writeln!(s, "\n## {}\n", w.title);
        let _ = writeln!(s, "Workflow: {} ({})", w.name, w.file);
        if !w.trigger.is_empty() {
            let _ = writeln!(s, "When to use: {}", w.trigger);
        }
        match &w.command {
            Some(c) => {
                let _ = writeln!(s, "Started by: {c} (not from requests)");
            }
            None => {
                let _ = writeln!(s, "Intent words: {}", w.keywords.join(", "));
            }
        }
        if let Some(a) = &w.artifact {
            let _ = writeln!(s, "Artifact: {a}");
        }
        s.push_str("\nSteps, in this order:\n");
        for (i, step) in w.steps.iter().enumerate() {
            let _ = writeln!(s, "{}. Call {} with: {}", i + 1, step.agent, step.prompt);
            let contract = orch.agent(&step.agent).map(|a| a.contract).unwrap_or("");
            match &step.returns {
                Some(r) => {
                    let _ = writeln!(s, "   Returns: {r} (contract line: {contract})");
                }
                None => {
                    let _ = writeln!(s, "   Returns: its reply ends with {contract}");
                }
            }
        }
        s.push_str("\nAssemble the answer: each step's reply under its header, in step order:\n");
        for h in &w.headers {
            let _ = writeln!(s, "## {h}");
        }
        if let Some(f) = &w.on_failure {
            let _ = writeln!(s, "\nOn failure: {f}");
        }
    }
    s
}
