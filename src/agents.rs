//! The orchestrators and the step agents they declare. A workflow may only name a step
//! agent its orchestrator declares; each agent's capabilities bound what it can touch.

use serde::Serialize;
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

/// The netops orchestrator and its three step agents.
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
