//! The reporter: plan path → pre-check against the state DB, blast radius recomputed
//! independently, verdict and validation report. Capabilities: read state, read plans,
//! write reports. `olav precheck` runs the same code.

use super::capability::{PlanReader, ReportWriter, StateReader};
use super::{StepError, StepRunner};
use crate::engine::breaker::ToolError;
use crate::engine::contract::{PLAN_PATH, REPORT_PATH, VERDICT};
use crate::precheck::{self, Options, Report};
use crate::state::plans::{PrecheckRecord, Recorded};
use std::path::PathBuf;

/// The reporter step agent.
pub struct Reporter {
    state: StateReader,
    plans: PlanReader,
    reports: ReportWriter,
    options: Options,
    cycle: Option<i64>,
}

impl Reporter {
    /// A reporter with its capabilities.
    pub fn new(state: StateReader, plans: PlanReader, reports: ReportWriter) -> Self {
        Reporter {
            state,
            plans,
            reports,
            options: Options::default(),
            cycle: None,
        }
    }

    /// Records pre-checks as part of a scheduler cycle.
    pub fn in_cycle(mut self, cycle: i64) -> Self {
        self.cycle = Some(cycle);
        self
    }

    /// With non-default options.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Pre-checks the plan at `path` (a path from text), saves the report and records
    /// the result in the plan's history (when the plan can be read).
    pub fn check(&self, path: &str) -> Result<(Report, PathBuf, Option<Recorded>), ToolError> {
        let (file, text) = self.plans.read(path)?;
        let opts = self.options.clone();
        let report =
            self.state
                .query("state.precheck", serde_json::json!({"plan": path}), |db| {
                    precheck::precheck(db, path, &text, &opts)
                })?;
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let saved = self
            .reports
            .write(&format!("{stem}.precheck.md"), &report.to_markdown())?;
        let recorded = match crate::plan::Plan::from_markdown(&text) {
            Ok(plan) => {
                let counts = report.counts();
                let rec = PrecheckRecord {
                    verdict: report.verdict,
                    errors: counts["error"],
                    warnings: counts["warning"],
                    first_error: report
                        .findings
                        .iter()
                        .find(|f| f.severity == precheck::Severity::Error)
                        .map(|f| format!("{}: {}", f.element, f.message)),
                    report_path: Some(saved.to_string_lossy().into_owned()),
                    cycle_id: self.cycle,
                };
                Some(self.reports.record_precheck(&plan, path, &rec)?)
            }
            Err(_) => None,
        };
        Ok((report, saved, recorded))
    }
}

/// The reply: the summary, then the contract lines.
pub fn reply(report: &Report, plan: &str, saved: &std::path::Path) -> String {
    format!(
        "{}\n{PLAN_PATH} {plan}\n{REPORT_PATH} {}\n{VERDICT} {}\n",
        report.summary(),
        saved.display(),
        report.verdict
    )
}

impl StepRunner for Reporter {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        let path = super::path_in_prompt(prompt)?;
        let (report, saved, _) = self.check(&path)?;
        Ok(reply(&report, &path, &saved))
    }
}
