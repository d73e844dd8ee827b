//! The orchestrators and the step agents they declare. A workflow may only name a step
//! agent its orchestrator declares; each agent's capabilities bound what it can touch.

pub mod analyzer;
pub mod capability;
pub mod reporter;
pub mod simulator;
pub mod writer;

use crate::engine::breaker::{ErrorClass, ToolError};
use capability::{
    BatfishCaller, BatfishSettings, ConfigReader, PlanReader, PlanWriter, ReportWriter, RunModel,
    StateReader, Tools,
};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

/// What a step agent may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Capability {
    /// Query the state DB.
    ReadState,
    /// Read plan files in the exports folder.
    ReadPlans,
    /// Write plan files in `exports/change_plans/`.
    WritePlans,
    /// Write reports in `exports/reports/`.
    WriteReports,
    /// Read device configurations stored in the state DB.
    ReadConfigs,
    /// Talk to a Batfish service.
    CallBatfish,
}

impl Capability {
    /// How the capability reads in listings.
    pub fn label(self) -> &'static str {
        match self {
            Capability::ReadState => "read state",
            Capability::ReadPlans => "read plans",
            Capability::WritePlans => "write plans",
            Capability::WriteReports => "write reports",
            Capability::ReadConfigs => "read configs",
            Capability::CallBatfish => "call Batfish",
        }
    }
}

/// A step agent: a bounded task with an output contract.
#[derive(Debug, Clone, Serialize)]
pub struct StepAgent {
    /// Name workflows use.
    pub name: &'static str,
    /// One line: what it does.
    pub purpose: &'static str,
    /// What it may touch.
    pub capabilities: &'static [Capability],
    /// How long one step may run.
    #[serde(serialize_with = "secs")]
    pub timeout: Duration,
    /// The machine-readable lines its reply ends with.
    pub contract: &'static str,
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// An orchestrator: the agent a user addresses, which delegates to step agents.
#[derive(Debug, Clone, Serialize)]
pub struct Orchestrator {
    /// Name (`--agent`).
    pub name: &'static str,
    /// One line: what it is for.
    pub purpose: &'static str,
    /// The step agents it declares.
    pub agents: &'static [StepAgent],
}

impl Orchestrator {
    /// The declared step agent called `name`.
    pub fn agent(&self, name: &str) -> Option<&StepAgent> {
        self.agents.iter().find(|a| a.name == name)
    }
}

/// The netops orchestrator and its four step agents.
pub static NETOPS: Orchestrator = Orchestrator {
    name: "netops",
    purpose: "network change plans and decommission impact, verified against the state DB and Batfish",
    agents: &[
        StepAgent {
            name: "analyzer",
            purpose: "turns a request into an intent resolved against the state DB and drafts the change plan file",
            capabilities: &[Capability::ReadState, Capability::WritePlans],
            timeout: Duration::from_secs(30),
            contract: "PLAN_PATH: <path>",
        },
        StepAgent {
            name: "writer",
            purpose: "registers an engineer's own configuration lines as a change plan, the rollback derived from the stored configuration",
            capabilities: &[Capability::ReadState, Capability::WritePlans],
            timeout: Duration::from_secs(30),
            contract: "PLAN_PATH: <path>",
        },
        StepAgent {
            name: "reporter",
            purpose: "pre-checks a plan against the state DB and recomputes its blast radius independently",
            capabilities: &[Capability::ReadState, Capability::ReadPlans, Capability::WriteReports],
            timeout: Duration::from_secs(30),
            contract: "REPORT_PATH: <path> and VERDICT: PASS|WARN|FAIL",
        },
        StepAgent {
            name: "simulator",
            purpose: "verifies a plan formally with Batfish, or with the built-in static checks when Batfish is absent",
            capabilities: &[
                Capability::ReadPlans,
                Capability::ReadConfigs,
                Capability::WriteReports,
                Capability::CallBatfish,
            ],
            timeout: Duration::from_secs(300),
            contract: "REPORT_PATH: <path> and VERDICT: PASS|WARN|FAIL|UNVERIFIED",
        },
    ],
};

/// Every orchestrator olav has.
pub static ORCHESTRATORS: &[&Orchestrator] = &[&NETOPS];

/// The orchestrator called `name`.
pub fn orchestrator(name: &str) -> Option<&'static Orchestrator> {
    ORCHESTRATORS.iter().copied().find(|o| o.name == name)
}

/// A step's failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct StepError {
    /// What kind of failure.
    pub class: ErrorClass,
    /// What went wrong, for people.
    pub message: String,
}

impl StepError {
    /// A failure of the given class.
    pub fn new(class: ErrorClass, message: impl Into<String>) -> Self {
        StepError {
            class,
            message: message.into(),
        }
    }
}

impl From<ToolError> for StepError {
    fn from(e: ToolError) -> Self {
        StepError {
            class: e.class(),
            message: e.to_string(),
        }
    }
}

/// A step agent at work: one prompt in, one reply out (ending with its contract lines).
pub trait StepRunner: Send {
    /// Runs one step.
    fn run(&mut self, prompt: &str) -> Result<String, StepError>;
}

/// What a run gives the agents it builds.
#[derive(Debug, Clone)]
pub struct RunEnv {
    /// The state DB.
    pub db: PathBuf,
    /// The exports folder.
    pub exports: PathBuf,
    /// The run's breaker.
    pub tools: Tools,
    /// Today's date (`YYYY-MM-DD`), for plan names.
    pub today: String,
    /// How the simulator reaches Batfish.
    pub batfish: BatfishSettings,
    /// The network model kept between the steps that read it.
    pub model: RunModel,
}

/// Builds step agents with their capabilities.
pub trait AgentFactory: Sync {
    /// The agent called `name`, or None when this factory has none of that name.
    fn make(&self, name: &str, env: &RunEnv) -> Option<Box<dyn StepRunner>>;
}

/// The netops step agents, each with exactly its capabilities.
pub struct NetopsAgents;

impl AgentFactory for NetopsAgents {
    fn make(&self, name: &str, env: &RunEnv) -> Option<Box<dyn StepRunner>> {
        let t = || env.tools.clone();
        match name {
            "analyzer" => Some(Box::new(analyzer::Analyzer::new(
                StateReader::for_run(&env.db, t(), env.model.clone()),
                PlanWriter::new(&env.exports, &env.db, t()),
                env.today.clone(),
            ))),
            "reporter" => Some(Box::new(reporter::Reporter::new(
                StateReader::for_run(&env.db, t(), env.model.clone()),
                PlanReader::new(&env.exports, t()),
                ReportWriter::new(&env.exports, &env.db, t()),
            ))),
            "simulator" => Some(Box::new({
                // It reads configurations, not the model: the model is let go first.
                env.model.release();
                simulator::Simulator::new(
                    PlanReader::new(&env.exports, t()),
                    ReportWriter::new(&env.exports, &env.db, t()),
                    ConfigReader::new(&env.db, t()),
                    BatfishCaller::new(env.batfish.clone(), t()),
                )
            })),
            _ => None,
        }
    }
}

/// The netops step agents with an engineer's own lines for the writer
/// (`olav plan --device … --config …`).
pub struct CustomAgents(pub writer::CustomChange);

impl AgentFactory for CustomAgents {
    fn make(&self, name: &str, env: &RunEnv) -> Option<Box<dyn StepRunner>> {
        match name {
            "writer" => Some(Box::new(writer::Writer::new(
                StateReader::for_run(&env.db, env.tools.clone(), env.model.clone()),
                PlanWriter::new(&env.exports, &env.db, env.tools.clone()),
                self.0.clone(),
                env.today.clone(),
            ))),
            _ => NetopsAgents.make(name, env),
        }
    }
}

/// The plan path a reporter or simulator prompt names (`… the change plan at <path>: …`).
pub fn path_in_prompt(prompt: &str) -> Result<String, StepError> {
    prompt
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | ',' | ';' | ')' | '('))
                .trim_end_matches([':', '.'])
        })
        .find(|w| w.ends_with(".md"))
        .map(str::to_owned)
        .ok_or_else(|| {
            StepError::new(
                ErrorClass::Parameter,
                "the prompt names no plan file (*.md)",
            )
        })
}
