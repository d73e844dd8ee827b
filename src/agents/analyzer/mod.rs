//! The analyzer: request → intent resolved against the state DB → change plan file.
//! It asks instead of guessing when the request is ambiguous. Capabilities: read state,
//! write plans.

pub mod draft;
pub mod facts;
pub mod intent;

use super::capability::{PlanWriter, StateReader};
use super::{StepError, StepRunner};
use crate::engine::contract::{CLARIFY, PLAN_PATH};
use facts::Facts;
use intent::Resolution;

/// The analyzer step agent.
pub struct Analyzer {
    state: StateReader,
    plans: PlanWriter,
    today: String,
}

impl Analyzer {
    /// An analyzer with its two capabilities.
    pub fn new(state: StateReader, plans: PlanWriter, today: String) -> Self {
        Analyzer {
            state,
            plans,
            today,
        }
    }
}

fn clarification(question: &str, candidates: &[String]) -> String {
    let mut s = format!("No plan drafted: {question}\n");
    for c in candidates {
        s.push_str(&format!("  - {c}\n"));
    }
    s.push_str(&format!("\n{CLARIFY} {question}\n"));
    s
}

impl StepRunner for Analyzer {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        let facts = self
            .state
            .query("state.facts", serde_json::json!({}), Facts::load)?;
        let intent = match intent::resolve(prompt, &facts) {
            Resolution::Clarify {
                question,
                candidates,
            } => return Ok(clarification(&question, &candidates)),
            Resolution::Intent(i) => i,
        };
        let net = self.state.network()?;
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let ctx = draft::Ctx {
            request: prompt,
            workflow: if matches!(
                intent,
                intent::Intent::DecommissionDevice { .. }
                    | intent::Intent::DecommissionInterface { .. }
                    | intent::Intent::DecommissionLink { .. }
                    | intent::Intent::DecommissionPeer { .. }
            ) {
                "decommission_impact"
            } else {
                "change_plan"
            },
            now: &now,
        };
        let d = match draft::draft(&intent, &facts, &net, &ctx) {
            Ok(d) => d,
            Err(reason) => return Ok(clarification(&format!("cannot plan this: {reason}"), &[])),
        };
        let md = d.plan.to_markdown();
        let path = self
            .plans
            .write(&d.topic, &self.today, &|p| md.replace(draft::PATH_TOKEN, p))?;
        self.plans.register(&d.plan, &path)?;
        let path = path.to_string_lossy();
        let mut reply = d.summary.join("\n");
        reply.push_str(&format!("\nPlan saved: {path}\n\n{PLAN_PATH} {path}\n"));
        Ok(reply)
    }
}
