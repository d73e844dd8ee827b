//! The analyzer: request → intent resolved against the state DB → change plan file.
//! It asks instead of guessing when the request is ambiguous. Capabilities: read state,
//! write plans.

pub mod draft;
pub mod facts;
pub mod intent;

use super::capability::{PlanWriter, StateReader};
use super::{StepError, StepRunner};
use crate::engine::contract::{CANDIDATE, CLARIFY, PLAN_PATH, REFUSED};
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

/// Data from the state DB or the request is shown to people but never read as a
/// contract line: one line, no control characters.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn clarification(question: &str, candidates: &[intent::Candidate]) -> String {
    let question = one_line(question);
    let mut s = format!("No plan drafted: {question}\n");
    for c in candidates {
        match (&c.request, &c.reading) {
            (Some(r), Some(d)) if *d != c.text => s.push_str(&format!(
                "  - {} ({}) — run: olav --agent netops \"{}\"\n",
                one_line(&c.text),
                one_line(d),
                one_line(r)
            )),
            (Some(r), _) => s.push_str(&format!(
                "  - {} — run: olav --agent netops \"{}\"\n",
                one_line(&c.text),
                one_line(r)
            )),
            _ => s.push_str(&format!("  - {}\n", one_line(&c.text))),
        }
    }
    s.push_str(&format!("\n{CLARIFY} {question}\n"));
    for c in candidates {
        s.push_str(&format!("{CANDIDATE} {}\n", one_line(&c.line())));
    }
    s
}

fn refusal(what: &str) -> String {
    let can: Vec<intent::Candidate> = intent::CAN_PLAN
        .iter()
        .map(|c| intent::Candidate::text(*c))
        .collect();
    let mut s = clarification(&format!("olav cannot plan {what} yet. It can plan:"), &can);
    s.push_str(&format!("{REFUSED} {}\n", one_line(what)));
    s
}

impl StepRunner for Analyzer {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        // The facts and the graph are both made from the model, on two threads: decoded
        // first and held, it is shared rather than decoded by each.
        let model = self.state.model()?;
        let (facts, net) = std::thread::scope(|s| {
            let net = s.spawn(|| self.state.network());
            let facts = self
                .state
                .query("state.facts", serde_json::json!({}), Facts::load);
            (facts, net.join())
        });
        drop(model);
        let facts = facts?;
        let net = net.map_err(|_| {
            StepError::new(
                crate::engine::breaker::ErrorClass::Environment,
                "the network graph could not be made (its thread stopped)",
            )
        })?;
        let intent = match intent::resolve(prompt, &facts) {
            Resolution::Clarify {
                question,
                candidates,
            } => return Ok(clarification(&question, &candidates)),
            Resolution::Refuse { what } => return Ok(refusal(&what)),
            Resolution::Intent(i) => i,
        };
        let reading = one_line(&intent.reading());
        let net = net?;
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        // Stored running configs, read once per device the draft needs.
        let cache: std::cell::RefCell<std::collections::HashMap<String, Option<String>>> =
            std::cell::RefCell::default();
        let config = |device: &str| -> Option<String> {
            if let Some(t) = cache.borrow().get(device) {
                return t.clone();
            }
            let t = self
                .state
                .query(
                    "state.config",
                    serde_json::json!({ "device": device }),
                    |db| db.config_text(device),
                )
                .ok()
                .flatten();
            cache.borrow_mut().insert(device.to_owned(), t.clone());
            t
        };
        let ctx = draft::Ctx {
            config: &config,
            request: prompt,
            workflow: if intent.is_removal() {
                "decommission_impact"
            } else {
                "change_plan"
            },
            now: &now,
            reading: &reading,
        };
        let d = match draft::draft(&intent, &facts, &net, &ctx) {
            Ok(d) => d,
            // What was understood cannot be planned as asked: a refusal with the reason.
            Err(reason) => {
                let mut r = clarification(&format!("cannot plan this: {reason}"), &[]);
                r.push_str(&format!("{REFUSED} {}\n", one_line(&reason)));
                return Ok(format!("{reading}\n{r}"));
            }
        };
        let md = d.plan.to_markdown();
        let path = self.plans.save(&d.plan, &d.topic, &self.today, &|p| {
            md.replace(draft::PATH_TOKEN, p)
        })?;
        let path = path.to_string_lossy();
        let mut reply = format!("{reading}\n{}", d.summary.join("\n"));
        reply.push_str(&format!("\nPlan saved: {path}\n\n{PLAN_PATH} {path}\n"));
        crate::parallel::drop_aside((net, facts));
        Ok(reply)
    }
}
