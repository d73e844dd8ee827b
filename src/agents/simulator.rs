//! The simulator: plan path → candidate snapshot → Batfish questions and a verdict; when
//! Batfish is not running, deployment guidance plus the built-in static checks on the
//! candidate network, labelled as such. Capabilities: read plans, read configs, write
//! reports, call Batfish. The result also goes into the plan's HTML page when the
//! pre-check wrote one.

use super::capability::{BatfishCaller, ConfigReader, PlanReader, ReportWriter};
use super::{StepError, StepRunner};
use crate::engine::breaker::ErrorClass;
use crate::engine::contract::{PLAN_PATH, REPORT_PATH, VERDICT};
use crate::output::{StepFinding, StepFindings};
use crate::plan::Plan;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The simulator step agent.
pub struct Simulator {
    plans: PlanReader,
    reports: ReportWriter,
    configs: ConfigReader,
    batfish: BatfishCaller,
}

/// The verification's result.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Verification {
    /// PASS, WARN, FAIL or UNVERIFIED.
    pub verdict: &'static str,
    /// Batfish's version when it answered.
    pub batfish: Option<String>,
    /// Why Batfish did not run, when it did not.
    pub absent: Option<String>,
    /// Findings (Batfish's, or the static checks' problems the plan introduces).
    pub findings: Vec<String>,
    /// The reply body.
    pub text: String,
    /// The saved report.
    pub report: PathBuf,
}

impl Simulator {
    /// A simulator with its capabilities.
    pub fn new(
        plans: PlanReader,
        reports: ReportWriter,
        configs: ConfigReader,
        batfish: BatfishCaller,
    ) -> Self {
        Simulator {
            plans,
            reports,
            configs,
            batfish,
        }
    }

    /// Verifies the plan at `path`.
    pub fn verify(&self, path: &str) -> Result<Verification, StepError> {
        let (file, text) = self.plans.read(path)?;
        let plan = Plan::from_markdown(&text)
            .map_err(|e| StepError::new(ErrorClass::Parameter, format!("{path}: {e}")))?;
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut body = String::new();
        // The findings as data as well, saved beside the report for a run's JSON.
        let mut data: Vec<StepFinding> = Vec::new();
        let (verdict, batfish, absent, findings) = match self.batfish.probe() {
            Ok(version) => {
                let inputs = self.configs.batfish_inputs(&plan)?;
                let found = self.batfish.verify(&inputs, &plan)?;
                // Batfish not modeling part of the plan leaves that part unproven: never a
                // PASS (`docs/verification.md`, "Verdict").
                let verdict = if found.iter().any(|f| f.severity == "error") {
                    "FAIL"
                } else if found.iter().any(|f| f.severity == "warning") {
                    "WARN"
                } else if found
                    .iter()
                    .any(|f| f.severity == crate::batfish::UNVERIFIED)
                {
                    "UNVERIFIED"
                } else {
                    "PASS"
                };
                let _ = writeln!(
                    body,
                    "Batfish {version} at {}: {verdict}",
                    self.batfish.address()
                );
                let lines: Vec<String> = found
                    .iter()
                    .map(|f| format!("{} {}: {}", f.severity, f.question, f.message))
                    .collect();
                for l in &lines {
                    let _ = writeln!(body, "  {l}");
                }
                data.extend(found.iter().map(|f| StepFinding {
                    code: format!("verify.{}", f.question),
                    severity: f.severity.to_owned(),
                    element: f.question.to_owned(),
                    message: f.message.clone(),
                }));
                (verdict, Some(version), None, lines)
            }
            Err(e) if self.batfish.required() => {
                return Err(StepError::new(
                    ErrorClass::Environment,
                    format!("Batfish is required (--require-batfish) but {e}"),
                ));
            }
            Err(e) => {
                let (imported, after) = self.configs.checks_before_and_after(&plan)?;
                let forwarding = self.configs.forwarding(path, &plan)?;
                // A session the plan ends as it declares (a removal, a requested
                // shutdown) loses its local address or peer: its plan's point, as the
                // pre-check and Batfish's verification judge it.
                let (ended, problems): (Vec<_>, Vec<_>) = after
                    .introduced_since(&imported)
                    .into_iter()
                    .partition(|p| {
                        p.code.starts_with("check.bgp.")
                            && forwarding.sessions_ended.iter().any(|s| {
                                s.split_once(" → ").is_some_and(|(d, peer)| {
                                    p.element.starts_with(&format!("{d} "))
                                        && p.element.ends_with(&format!("→ {peer}"))
                                })
                            })
                    });
                let mut introduced: Vec<String> =
                    problems.iter().map(|p| p.message.clone()).collect();
                data.extend(problems.into_iter().map(|p| StepFinding {
                    code: p.code,
                    severity: "error".to_owned(),
                    element: p.element,
                    message: p.message,
                }));
                let breaks = forwarding
                    .findings
                    .iter()
                    .any(|f| f.severity == crate::precheck::Severity::Error);
                // Never PASS without Batfish: the fallback can only find problems.
                let verdict = if introduced.is_empty() && !breaks {
                    "UNVERIFIED"
                } else {
                    "FAIL"
                };
                let why = match &e {
                    crate::engine::breaker::ToolError::Failed { message, .. } => message.clone(),
                    other => other.to_string(),
                };
                let _ = writeln!(body, "Formal verification did not run: {why}.");
                let _ = writeln!(
                    body,
                    "Static checks (not Batfish) on the candidate network: {} — {} problem(s) introduced by the plan ({} BGP peerings checked)",
                    if introduced.is_empty() { "no conflict found" } else { "CONFLICT" },
                    introduced.len(),
                    after.bgp.len()
                );
                for l in &introduced {
                    let _ = writeln!(body, "  {l}");
                }
                for p in &ended {
                    let _ = writeln!(body, "  ended as the plan declares: {}", p.message);
                }
                forwarding_lines(&mut body, &mut introduced, &forwarding);
                data.extend(
                    forwarding
                        .findings
                        .iter()
                        .filter(|x| x.severity != crate::precheck::Severity::Info)
                        .map(StepFinding::of),
                );
                body.push_str(&crate::batfish::guidance(&self.batfish.address(), path));
                (verdict, None, Some(why), introduced)
            }
        };
        let report_md = format!(
            "# Formal verification: {}\n\n**Verdict: {verdict}**\n\n```\n{body}```\n",
            plan.title
        );
        let report = self
            .reports
            .write(&format!("{stem}.verify.md"), &report_md)?;
        self.reports.write(
            &format!("{stem}.verify.json"),
            &crate::output::json(&StepFindings {
                verdict: verdict.to_owned(),
                findings: data,
            }),
        )?;
        // The page is secondary: failing to update it never fails the verification.
        if let Err(e) = self.update_page(&stem, &report_md, path) {
            tracing::warn!("the HTML report of {path} keeps its old verification: {e}");
        }
        // Recorded so that approval can refuse a plan whose verification failed.
        let engine = batfish
            .as_ref()
            .map_or_else(|| "static checks".to_owned(), |v| format!("Batfish {v}"));
        // Batfish's lines carry their severity; the static checks' are all problems.
        let problems: Vec<&str> = findings
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("info "))
            .collect();
        let first_problem = problems
            .iter()
            .find(|l| l.starts_with("error "))
            .or(problems.first())
            .copied();
        self.reports.record_verification(
            &plan,
            path,
            &crate::state::plans::VerifyRecord {
                verdict,
                formal: batfish.is_some(),
                engine: &engine,
                problems: problems.len(),
                first_problem,
                report_path: Some(report.display().to_string()),
            },
        )?;
        Ok(Verification {
            verdict,
            batfish,
            absent,
            findings,
            text: body,
            report,
        })
    }
}

/// The fallback's forwarding answer in the body, its errors and warnings also among the
/// findings (as `error precheck.loop: element: message`).
fn forwarding_lines(
    body: &mut String,
    findings: &mut Vec<String>,
    f: &crate::precheck::ForwardingAnswer,
) {
    use crate::precheck::Severity;
    if let Some(why) = &f.not_computed {
        let _ = writeln!(
            body,
            "Forwarding (olav's routing model, not Batfish): not compared — {why}"
        );
        return;
    }
    let count = |s: Severity| f.findings.iter().filter(|x| x.severity == s).count();
    let _ = writeln!(
        body,
        "Forwarding (olav's routing model, not Batfish): {} flow(s) compared ({} unknown after the plan) — {} error(s), {} warning(s)",
        f.compared,
        f.unknown,
        count(Severity::Error),
        count(Severity::Warning)
    );
    for x in f.findings.iter().filter(|x| x.severity != Severity::Info) {
        let line = format!(
            "{} {}: {}: {}",
            x.severity.as_str(),
            x.code,
            x.element,
            x.message
        );
        let _ = writeln!(body, "  {line}");
        findings.push(line);
    }
}

impl Simulator {
    /// Writes the verification into the plan's HTML page, which the pre-check wrote
    /// before this step (nothing to do when there is none).
    fn update_page(
        &self,
        stem: &str,
        report_md: &str,
        path: &str,
    ) -> Result<(), crate::engine::breaker::ToolError> {
        let name = crate::report::file_name(stem);
        if let (Some((page, _)), Some(v)) = (
            self.reports.read(&name)?,
            crate::report::html::Verified::from_markdown(report_md),
        ) {
            if let Some(updated) = crate::report::html::with_verification(&page, &v, path) {
                self.reports.write(&name, &updated)?;
            }
        }
        Ok(())
    }
}

/// The reply: the body, then the contract lines.
pub fn reply(v: &Verification, plan: &str) -> String {
    format!(
        "{}\n{PLAN_PATH} {plan}\n{REPORT_PATH} {}\n{VERDICT} {}\n",
        v.text,
        v.report.display(),
        v.verdict
    )
}

impl StepRunner for Simulator {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        let path = super::path_in_prompt(prompt)?;
        let v = self.verify(&path)?;
        Ok(reply(&v, &path))
    }
}
