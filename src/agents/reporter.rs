//! The reporter: plan path → pre-check against the state DB, blast radius recomputed
//! independently, verdict and validation report. Capabilities: read state, read plans,
//! write reports. `olav precheck` runs the same code. Beside the Markdown report it
//! writes the HTML page (`report`) engineers attach to the change ticket.

use super::capability::{PlanReader, ReportWriter, StateReader};
use super::{StepError, StepRunner};
use crate::engine::breaker::ToolError;
use crate::engine::contract::{PLAN_PATH, REPORT_PATH, VERDICT};
use crate::output::{self, StepFinding, StepFindings};
use crate::precheck::{self, Options, Report};
use crate::report::html::{self, PlanPage, Verified};
use crate::report::{self, FlowPath, Impact, Picture};
use crate::state::plans::{PrecheckRecord, Recorded};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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

    /// Pre-checks the plan at `path` (a path from text), saves the report (Markdown, and
    /// the HTML page beside it) and records the result in the plan's history (when the
    /// plan can be read). An HTML page that cannot be written (a full exports folder)
    /// loses nothing else: the pre-check is recorded with why the page is missing.
    pub fn check(&self, path: &str) -> Result<Checked, ToolError> {
        let (file, text) = self.plans.read(path)?;
        // The pre-check and the picture read one copy of the model.
        let _model = self.state.model()?;
        let report = self.precheck(path, &text)?;
        let stem = stem(&file);
        let saved = self
            .reports
            .write(&format!("{stem}.precheck.md"), &report.to_markdown())?;
        // Beside it, the findings as data: a run's JSON lists them (`docs/json.md`).
        let data = StepFindings {
            verdict: report.verdict.to_owned(),
            findings: report.findings.iter().map(StepFinding::of).collect(),
        };
        self.reports
            .write(&format!("{stem}.precheck.json"), &output::json(&data))?;
        let html = self
            .write_html(path, &stem, &text, &report)
            .map_err(|e| e.to_string());
        if let Err(why) = &html {
            tracing::warn!("{path}: the HTML report was not written: {why}");
        }
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
                    html_missing: html.as_ref().err().cloned(),
                };
                Some(self.reports.record_precheck(&plan, path, &rec)?)
            }
            Err(_) => None,
        };
        Ok(Checked {
            report,
            saved,
            recorded,
            html,
        })
    }

    /// Writes the HTML report of the plan at `path` again from the current state. The
    /// pre-check runs but is not recorded in the plan's history, nor is its Markdown
    /// report replaced.
    pub fn render(&self, path: &str) -> Result<(Report, PathBuf), ToolError> {
        let (file, text) = self.plans.read(path)?;
        // The pre-check and the picture read one copy of the model.
        let _model = self.state.model()?;
        let report = self.precheck(path, &text)?;
        let page = self.write_html(path, &stem(&file), &text, &report)?;
        Ok((report, page))
    }

    fn precheck(&self, path: &str, text: &str) -> Result<Report, ToolError> {
        let opts = self.options.clone();
        self.state
            .query("state.precheck", serde_json::json!({"plan": path}), |db| {
                precheck::precheck(db, path, text, &opts)
            })
    }

    /// The HTML page: the pre-check, the picture of what the plan touches, and the
    /// formal verification when one was saved (with a caution when the state was
    /// imported again after it).
    fn write_html(
        &self,
        path: &str,
        stem: &str,
        text: &str,
        report: &Report,
    ) -> Result<PathBuf, ToolError> {
        let plan = crate::plan::Plan::from_markdown(text).ok();
        let (picture, imported_at) =
            self.state
                .query("state.picture", serde_json::json!({"plan": path}), |db| {
                    let picture = match (&plan, &report.blast) {
                        (Some(plan), Some(blast)) => {
                            let mut impact = Impact::of_plan(db, plan)?;
                            impact.paths = FlowPath::of_findings(&report.findings);
                            Some(Picture::load(db, &impact, blast)?)
                        }
                        _ => None,
                    };
                    Ok((picture, db.last_import()?.map(|l| l.imported_at)))
                })?;
        let verified = self
            .reports
            .read(&format!("{stem}.verify.md"))?
            .and_then(|(md, saved)| {
                let mut v = Verified::from_markdown(&md)?;
                v.caution = caution(saved, imported_at.as_deref());
                Some(v)
            });
        let page = html::plan_page(&PlanPage {
            path,
            plan: plan.as_ref(),
            report,
            picture: picture.as_ref(),
            verified: verified.as_ref(),
            generated: &crate::state::now(),
        });
        self.reports.write(&report::file_name(stem), &page)
    }
}

fn stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A verification saved before the state's last import was made against another network.
fn caution(saved: Option<SystemTime>, imported_at: Option<&str>) -> Option<String> {
    let saved: chrono::DateTime<chrono::Utc> = saved?.into();
    let imported = chrono::DateTime::parse_from_rfc3339(imported_at?).ok()?;
    (saved < imported).then(|| {
        format!(
            "This verification was saved at {}, before the state DB was last imported ({}): it checked an older network. Verify again.",
            saved.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            imported.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        )
    })
}

/// What one pre-check gave: the report, where it was saved, what recording it did, and
/// the HTML page's path or why it is missing.
#[derive(Debug)]
pub struct Checked {
    /// The pre-check.
    pub report: Report,
    /// The Markdown report's path.
    pub saved: PathBuf,
    /// What recording it did to the plan (None for a plan that cannot be read).
    pub recorded: Option<Recorded>,
    /// The HTML page, or why it could not be written.
    pub html: Result<PathBuf, String>,
}

impl Checked {
    /// `HTML report: <path>`, or that it is missing and why.
    pub fn html_line(&self) -> String {
        match &self.html {
            Ok(p) => format!("HTML report: {}", p.display()),
            Err(why) => format!(
                "HTML report: MISSING — it could not be written ({why}); free space in the exports folder, then: {} report <plan>",
                crate::output::invoked()
            ),
        }
    }
}

/// The reply: the summary, where the HTML page is, then the contract lines.
pub fn reply(c: &Checked, plan: &str) -> String {
    format!(
        "{}  {}\n\n{PLAN_PATH} {plan}\n{REPORT_PATH} {}\n{VERDICT} {}\n",
        c.report.summary(),
        c.html_line(),
        c.saved.display(),
        c.report.verdict
    )
}

impl StepRunner for Reporter {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        let path = super::path_in_prompt(prompt)?;
        let checked = self.check(&path)?;
        Ok(reply(&checked, &path))
    }
}
