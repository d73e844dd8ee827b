//! The engine: runs a routed workflow's steps in order, deterministically. It fills each
//! prompt, passes on only the artifact the previous reply named, enforces each agent's
//! timeout, retries a failed step at most once, never reorders, stops the run when the
//! circuit breaker says so, and assembles the stacked answer under the headers.

pub mod breaker;
pub mod contract;

pub use crate::state::runs::{Clarification, RunOutcome, RunStatus, StepRecord};

use crate::agents::{AgentFactory, Orchestrator, RunEnv, StepError};
use crate::workflow::Workflow;
use breaker::{ErrorClass, Tools};
use contract::Contract;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The placeholder for the request in step prompts.
pub const REQUEST_PLACEHOLDER: &str = "<the original user request>";
/// The placeholder for the artifact in step prompts.
pub const PATH_PLACEHOLDER: &str = "<path>";

/// Progress notices while a run goes.
pub trait Progress {
    /// A step starts.
    fn started(&self, seq: usize, agent: &str);
    /// A step ends.
    fn finished(&self, seq: usize, agent: &str, outcome: &str, elapsed: Duration);
}

/// No progress output.
pub struct Silent;

impl Progress for Silent {
    fn started(&self, _: usize, _: &str) {}
    fn finished(&self, _: usize, _: &str, _: &str, _: Duration) {}
}

/// Progress lines on stderr: `→ analyzer … done (0.12 s)`.
pub struct StderrProgress;

impl Progress for StderrProgress {
    fn started(&self, _: usize, agent: &str) {
        eprint!("→ {agent} … ");
    }
    fn finished(&self, _: usize, _: &str, outcome: &str, elapsed: Duration) {
        eprintln!("{outcome} ({:.2} s)", elapsed.as_secs_f64());
    }
}

/// Everything a run needs.
pub struct Engine<'a> {
    /// The orchestrator (for timeouts).
    pub orchestrator: &'a Orchestrator,
    /// Builds the step agents.
    pub agents: &'a dyn AgentFactory,
    /// State DB path.
    pub db: PathBuf,
    /// Exports folder.
    pub exports: PathBuf,
    /// Today's date for plan names.
    pub today: String,
    /// Progress sink.
    pub progress: &'a dyn Progress,
    /// How the simulator reaches Batfish.
    pub batfish: crate::agents::capability::BatfishSettings,
}

fn fill(prompt: &str, request: &str, artifact: Option<&str>) -> String {
    let p = prompt.replace(REQUEST_PLACEHOLDER, request);
    match artifact {
        Some(a) => p.replace(PATH_PLACEHOLDER, a),
        None => p,
    }
}

impl Engine<'_> {
    /// Runs `wf` for `request`, recording the run when the DB allows.
    pub fn run(&self, wf: &Workflow, request: &str) -> RunOutcome {
        let tools = Tools::default();
        let env = RunEnv {
            db: self.db.clone(),
            exports: self.exports.clone(),
            tools: tools.clone(),
            today: self.today.clone(),
            batfish: self.batfish.clone(),
            model: Default::default(),
        };
        let recorder = crate::state::runs::Recorder::start(
            &self.db,
            self.orchestrator.name,
            &wf.name,
            request,
        );
        let mut steps: Vec<StepRecord> = Vec::new();
        let mut artifact: Option<String> = None;
        let mut stopped_by: Option<String> = None;
        let mut needs_input = false;
        let mut clarification: Option<Clarification> = None;
        for (i, step) in wf.steps.iter().enumerate() {
            let seq = i + 1;
            let header = wf
                .headers
                .get(i)
                .cloned()
                .unwrap_or_else(|| step.agent.clone());
            let mut rec = StepRecord {
                seq,
                agent: step.agent.clone(),
                header,
                prompt: None,
                reply: None,
                artifact: None,
                verdict: None,
                duration_ms: 0,
                attempts: 0,
                error_class: None,
                error: None,
                skipped: false,
            };
            let skip_reason = if let Some(sig) = &stopped_by {
                Some(format!(
                    "skipped: the run was stopped by the circuit breaker ({sig})"
                ))
            } else if needs_input {
                Some("skipped: the request needs clarification first".to_owned())
            } else if i > 0 && artifact.is_none() {
                Some(format!(
                    "skipped: step {} ({}) named no artifact to pass on",
                    i,
                    wf.steps[i - 1].agent
                ))
            } else {
                None
            };
            if let Some(reason) = skip_reason {
                rec.skipped = true;
                rec.error = Some(reason);
                recorder.step(&rec);
                steps.push(rec);
                continue;
            }
            let prompt = fill(&step.prompt, request, artifact.as_deref());
            rec.prompt = Some(prompt.clone());
            let timeout = self
                .orchestrator
                .agent(&step.agent)
                .map_or(Duration::from_secs(60), |a| a.timeout);
            self.progress.started(seq, &step.agent);
            let t0 = Instant::now();
            // Only the artifact this step's reply names may go on.
            artifact = None;
            loop {
                rec.attempts += 1;
                match self.attempt(&step.agent, &env, &prompt, timeout) {
                    Ok(reply) => {
                        let c = Contract::parse(&reply);
                        rec.artifact = c.plan_path.clone();
                        rec.verdict = c.verdict.clone();
                        needs_input = c.clarify.is_some();
                        if let Some(question) = c.clarify.clone() {
                            clarification = Some(Clarification {
                                kind: if c.refused.is_some() {
                                    "refusal"
                                } else {
                                    "question"
                                },
                                question,
                                candidates: c.candidates.clone(),
                                refused: c.refused.clone(),
                            });
                        }
                        artifact = c.plan_path;
                        rec.reply = Some(reply);
                        rec.error = None;
                        rec.error_class = None;
                        break;
                    }
                    Err(e) => {
                        rec.error_class = Some(e.class);
                        rec.error = Some(e.message.clone());
                        stopped_by = tools.stopped();
                        // Parameter errors repeat identically; a stopped run retries nothing.
                        let retry = rec.attempts < 2
                            && stopped_by.is_none()
                            && e.class != ErrorClass::Parameter;
                        if !retry {
                            break;
                        }
                    }
                }
            }
            let elapsed = t0.elapsed();
            rec.duration_ms = elapsed.as_millis() as u64;
            let outcome = match (&rec.error, &rec.verdict) {
                (Some(_), _) => "failed".to_owned(),
                (None, Some(v)) => format!("done, {v}"),
                (None, None) if needs_input => "needs clarification".to_owned(),
                (None, None) => "done".to_owned(),
            };
            self.progress.finished(seq, &step.agent, &outcome, elapsed);
            recorder.step(&rec);
            steps.push(rec);
        }
        let status = if stopped_by.is_some() {
            RunStatus::Partial
        } else if needs_input {
            RunStatus::NeedsInput
        } else if steps.first().is_some_and(|s| s.error.is_some()) {
            RunStatus::Failed
        } else if steps.iter().any(|s| s.error.is_some() || s.skipped) {
            RunStatus::Partial
        } else {
            RunStatus::Ok
        };
        let mut outcome = RunOutcome {
            run_id: recorder.id(),
            workflow: wf.name.clone(),
            status,
            steps,
            answer: String::new(),
            stopped_by,
            clarification,
            verdict: None,
            plan_path: None,
            understood: None,
        };
        outcome.verdict = outcome.worst_verdict().map(str::to_owned);
        outcome.plan_path = outcome.steps.first().and_then(|s| s.artifact.clone());
        outcome.understood = outcome
            .steps
            .first()
            .and_then(|s| s.reply.as_deref())
            .and_then(|r| r.lines().find(|l| l.starts_with("Understood: ")))
            .map(str::to_owned);
        outcome.answer = assemble(&outcome);
        recorder.finish(&outcome);
        outcome
    }

    /// One attempt of one step, under the agent's timeout.
    fn attempt(
        &self,
        agent: &str,
        env: &RunEnv,
        prompt: &str,
        timeout: Duration,
    ) -> Result<String, StepError> {
        let Some(mut runner) = self.agents.make(agent, env) else {
            return Err(StepError::new(
                ErrorClass::Parameter,
                format!("no step agent '{agent}' is available"),
            ));
        };
        let (tx, rx) = mpsc::channel();
        let prompt = prompt.to_owned();
        // A step that overruns is abandoned: its thread may finish later, its result is dropped.
        std::thread::spawn(move || {
            let _ = tx.send(runner.run(&prompt));
        });
        match rx.recv_timeout(timeout) {
            Ok(r) => r,
            Err(mpsc::RecvTimeoutError::Timeout) => Err(StepError::new(
                ErrorClass::Timeout,
                format!("{agent} did not answer within {} s", timeout.as_secs_f64()),
            )),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(StepError::new(
                ErrorClass::Environment,
                format!("{agent} stopped without an answer"),
            )),
        }
    }
}

/// The stacked answer: the verdict first (the worst, then each step's), each step's
/// reply under its header, then the run's label with the command that shows it again.
pub fn assemble(o: &RunOutcome) -> String {
    let mut s = String::new();
    let per_step: Vec<String> = o
        .steps
        .iter()
        .filter_map(|st| Some(format!("{} {}", st.header, st.verdict.as_deref()?)))
        .collect();
    // A partial run has no overall verdict: a step that did not answer may be the one
    // that would have failed it.
    let failed: Vec<&str> = o
        .steps
        .iter()
        .filter(|st| st.error.is_some() && !st.skipped)
        .map(|st| st.header.as_str())
        .collect();
    match (o.status, o.worst_verdict()) {
        (RunStatus::Ok, Some(v)) => {
            s.push_str(&format!("Verdict {v} — {}\n\n", per_step.join(" · ")));
        }
        (RunStatus::Partial, _) => s.push_str(&format!(
            "PARTIAL RESULT, no overall verdict — did not complete: {}{}\n\n",
            failed.join(", "),
            if per_step.is_empty() {
                String::new()
            } else {
                format!(" · {}", per_step.join(" · "))
            }
        )),
        (RunStatus::NeedsInput, _) => s.push_str("Needs clarification — nothing was drafted\n\n"),
        (RunStatus::Failed, _) => s.push_str("Failed — nothing was obtained\n\n"),
        (RunStatus::Ok, None) => {}
    }
    for st in &o.steps {
        s.push_str(&format!("## {}\n\n", st.header));
        match (&st.reply, &st.error) {
            (Some(r), _) => s.push_str(r.trim_end()),
            (None, Some(e)) if st.skipped => s.push_str(&format!("_{} — {e}_", st.agent)),
            (None, Some(e)) => s.push_str(&format!(
                "**Step {} ({}) failed** after {} attempt(s) [{}]: {e}",
                st.seq,
                st.agent,
                st.attempts,
                st.error_class.map_or("error", ErrorClass::as_str)
            )),
            (None, None) => {}
        }
        s.push_str("\n\n");
    }
    let label = match o.status {
        RunStatus::Ok => "complete".to_owned(),
        RunStatus::NeedsInput => "needs clarification — nothing was drafted".to_owned(),
        RunStatus::Failed => "failed — nothing was obtained".to_owned(),
        RunStatus::Partial => match &o.stopped_by {
            Some(sig) => format!(
                "PARTIAL RESULT — stopped by the circuit breaker after repeated failures of {sig}"
            ),
            None => {
                let failed: Vec<String> = o
                    .steps
                    .iter()
                    .filter(|s| s.error.is_some() && !s.skipped)
                    .map(|s| format!("step {} ({})", s.seq, s.agent))
                    .collect();
                format!("PARTIAL RESULT — failed: {}", failed.join(", "))
            }
        },
    };
    let verdict = o
        .worst_verdict()
        .filter(|_| o.status == RunStatus::Ok)
        .map(|v| format!(" · verdict {v}"))
        .unwrap_or_default();
    match o.run_id {
        Some(id) => s.push_str(&format!(
            "---\nRun {id} · {} · {label}{verdict} · {} runs show {id}\n",
            o.workflow,
            crate::output::invoked()
        )),
        None => s.push_str(&format!(
            "---\nRun not recorded · {} · {label}{verdict}\n",
            o.workflow
        )),
    }
    s
}
