//! The simulator: plan path → formal verification with Batfish, or the built-in static
//! checks when Batfish is absent. Capabilities: read plans, read configs, write reports,
//! call Batfish.

use super::capability::{PlanReader, ReportWriter};
use super::{StepError, StepRunner};

/// The simulator step agent.
pub struct Simulator {
    plans: PlanReader,
    reports: ReportWriter,
}

impl Simulator {
    /// A simulator with its capabilities.
    pub fn new(plans: PlanReader, reports: ReportWriter) -> Self {
        Simulator { plans, reports }
    }
}

impl StepRunner for Simulator {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        let path = super::path_in_prompt(prompt)?;
        let (file, _) = self.plans.read(&path)?;
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = format!(
            "# Formal verification of {path}\n\nVERDICT: UNVERIFIED — formal verification is not implemented yet: neither Batfish nor the static checks ran.\n"
        );
        let report = self.reports.write(&format!("{stem}.verify.md"), &text)?;
        Ok(format!(
            "Formal verification is not implemented yet: neither Batfish nor the static checks ran.\n\nPLAN_PATH: {path}\nREPORT_PATH: {}\nVERDICT: UNVERIFIED\n",
            report.display()
        ))
    }
}
