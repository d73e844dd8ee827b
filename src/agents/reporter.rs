//! The reporter: plan path → pre-check against the state DB. Capabilities: read state,
//! read plans, write reports.

use super::capability::{PlanReader, ReportWriter, StateReader};
use super::{StepError, StepRunner};

/// The reporter step agent.
pub struct Reporter {
    #[allow(dead_code)]
    state: StateReader,
    plans: PlanReader,
    #[allow(dead_code)]
    reports: ReportWriter,
}

impl Reporter {
    /// A reporter with its capabilities.
    pub fn new(state: StateReader, plans: PlanReader, reports: ReportWriter) -> Self {
        Reporter {
            state,
            plans,
            reports,
        }
    }
}

impl StepRunner for Reporter {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        let path = super::path_in_prompt(prompt)?;
        let (_, text) = self.plans.read(&path)?;
        let plan = crate::plan::Plan::from_markdown(&text).map_err(|e| {
            StepError::new(
                crate::engine::breaker::ErrorClass::Parameter,
                format!("{path}: {e}"),
            )
        })?;
        Ok(format!(
            "Pre-check is not implemented yet: the plan was read ({} config block(s), claimed blast radius {}), nothing was checked.\n\nPLAN_PATH: {path}\nVERDICT: UNVERIFIED\n",
            plan.implementation.len(),
            plan.claimed_blast_radius.map_or("missing".to_owned(), |n| n.to_string())
        ))
    }
}
