//! The pre-check: a plan checked against the state DB, its blast radius recomputed
//! independently (`blast`), and a verdict with evidence. `olav precheck` and the
//! reporter step run this same code.

pub mod announce;
#[cfg(test)]
mod announce_tests;
pub mod blast;
pub mod candidate;
pub mod checks;
mod context;
pub mod forwarding;
pub mod lockout;
pub mod model_sections;
mod now;
mod readdressing;
mod routes;
mod scope;
pub mod semantic;
mod services;
mod shifts;
mod state_view;
pub mod window;

pub use services::add_withdrawn;

pub use context::Context;

use crate::output::{md_cell, md_text};
use crate::state::{StateDb, StateError};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Blocks the change.
    Error,
    /// Needs a look.
    Warning,
    /// For the record.
    Info,
}

impl Severity {
    /// Its name in reports (`error`, `warning`, `info`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One evidence row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable code of the check that found it (`precheck.links`), for scripts.
    pub code: &'static str,
    /// Severity.
    pub severity: Severity,
    /// What it is about (`alpha-border-1 GigabitEthernet0/0/3`).
    pub element: String,
    /// What was found.
    pub message: String,
    /// What to do.
    pub suggestion: String,
    /// The traced path it names, for a flow the plan breaks (loops and blackholes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Box<TracedPath>>,
    /// Every element a grouped finding stands for (its message names the first few):
    /// what the change window compares plans by.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<String>,
}

/// One device on a traced path, with the interface the traffic leaves it by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PathHop {
    /// The device.
    pub device: String,
    /// The interface it leaves by (none where the path ends).
    pub egress: Option<String>,
}

/// How a traced path ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PathEnd {
    /// It comes back to a device it passed (the last hop repeats it).
    Loop,
    /// Its last device has no route for the destination, or hands it to an address
    /// nothing answers on any more.
    NoRoute,
    /// Its last device matches a discard route (`Null0`, `discard`, `reject`).
    Discard,
}

/// The failing branch of a flow the plan breaks, device by device.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TracedPath {
    /// The address traced.
    pub destination: std::net::Ipv4Addr,
    /// The route the last device matched, when one did.
    pub matched: Option<String>,
    /// How it ends.
    pub ends: PathEnd,
    /// Whether other ECMP branches of the flow still arrive.
    pub partial: bool,
    /// The devices in order, from the flow's source.
    pub hops: Vec<PathHop>,
}

impl TracedPath {
    /// The device a loop comes back to (the last hop, passed before), if it loops.
    pub fn loops_at(&self) -> Option<&str> {
        let (last, before) = self.hops.split_last()?;
        (self.ends == PathEnd::Loop && before.iter().any(|h| h.device == last.device))
            .then_some(last.device.as_str())
    }
}

/// Options.
#[derive(Debug, Clone)]
pub struct Options {
    /// State older than this is a warning.
    pub max_age: chrono::Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_age: chrono::Duration::days(7),
        }
    }
}

/// The pre-check's result.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The plan's path as given.
    pub plan: String,
    /// Plan title.
    pub title: String,
    /// Plan id.
    pub plan_id: Option<String>,
    /// PASS, WARN or FAIL.
    pub verdict: &'static str,
    /// What the change does on each device the plan configures, element by element
    /// (empty when the plan did not read).
    pub changes: Vec<semantic::DeviceChanges>,
    /// Findings, most severe first.
    pub findings: Vec<Finding>,
    /// Checks that ran on this plan and found nothing.
    pub passed: Vec<String>,
    /// Checks that do not apply to this plan (and so did not run).
    pub not_applicable: Vec<String>,
    /// The recomputed blast radius.
    pub blast: Option<blast::Blast>,
    /// The plan's claimed number.
    pub claimed: Option<u32>,
    /// Redundancy towards the peer, for additions: (before, after).
    pub redundancy: Option<(String, String)>,
    /// What each provider is sent, before and after the plan.
    pub announcements: Option<announce::Announcements>,
    /// Current state version.
    pub state_version: i64,
    /// The version the plan was drafted against.
    pub plan_state_version: Option<i64>,
}

/// Pre-checks a plan's text against the state DB: runs every check of [`checks::LIST`]
/// on the plan's [`Context`].
pub fn precheck(
    db: &StateDb,
    plan_path: &str,
    text: &str,
    opts: &Options,
) -> Result<Report, StateError> {
    let state_version = db.state_version()?;
    let mut report = Report {
        plan: plan_path.to_owned(),
        title: String::new(),
        plan_id: None,
        verdict: "FAIL",
        changes: Vec::new(),
        findings: Vec::new(),
        passed: Vec::new(),
        not_applicable: Vec::new(),
        blast: None,
        claimed: None,
        redundancy: None,
        announcements: None,
        state_version,
        plan_state_version: None,
    };
    let plan = match checks::readable::read(plan_path, text) {
        Ok(p) => p,
        Err(unreadable) => {
            report.findings.push(*unreadable);
            return Ok(report);
        }
    };
    report.title = plan.title.clone();
    report.plan_id = Some(plan.header.plan_id.clone());
    report.claimed = plan.claimed_blast_radius;
    report.plan_state_version = Some(plan.header.state_version);
    let cx = Context::build(db, plan_path, &plan, opts)?;
    let ran = checks::run_all(&cx)?;
    let forwarding = checks::FORWARDING
        .iter()
        .flat_map(|c| ran.of(c.name).iter().cloned())
        .collect();
    let answer = forwarding_of(&cx, forwarding)?;
    if let Ok(mut last) = LAST.lock() {
        let asked = (
            db.path().to_path_buf(),
            state_version,
            plan_path.to_owned(),
            plan.clone(),
        );
        *last = Some((asked, answer));
    }
    let mut findings = ran.findings;
    findings.sort_by_key(|f| f.severity);
    report.verdict = if findings.iter().any(|f| f.severity == Severity::Error) {
        "FAIL"
    } else if findings.iter().any(|f| f.severity == Severity::Warning) {
        "WARN"
    } else {
        "PASS"
    };
    report.findings = findings;
    report.passed = ran.passed;
    report.not_applicable = ran.not_applicable;
    report.redundancy = cx.redundancy.as_ref().map(|r| {
        (
            checks::redundancy::Redundancy::describe(&r.before),
            checks::redundancy::Redundancy::describe(&r.after),
        )
    });
    report.changes = cx.changes;
    report.announcements = Some(cx.announcements);
    report.blast = Some(cx.blast);
    Ok(report)
}

/// What olav's routing model says of a plan's effect on forwarding: the verification's
/// static fallback, labelled as such (`docs/verification.md`, "Without Batfish").
#[derive(Debug, Clone)]
pub struct ForwardingAnswer {
    /// Flows compared (reached before the plan, with complete RIBs).
    pub compared: usize,
    /// Flows whose fate after the plan cannot be told.
    pub unknown: usize,
    /// Why forwarding was not compared, when it was not.
    pub not_computed: Option<String>,
    /// The forwarding checks' findings, most severe first.
    pub findings: Vec<Finding>,
    /// The BGP sessions the plan ends as it declares ("device → peer"): the static
    /// checks' problems on them are the plan's point, not news.
    pub sessions_ended: Vec<String>,
}

/// What identifies a forwarding answer: the DB, its state version, the plan.
type Asked = (std::path::PathBuf, i64, String, crate::plan::Plan);

/// The forwarding answer of the plan this process pre-checked last: a request's
/// simulator asks it of the plan its reporter has just pre-checked, and building the
/// context again cost a 50,000-device request a tenth of its time.
static LAST: std::sync::Mutex<Option<(Asked, ForwardingAnswer)>> = std::sync::Mutex::new(None);

/// Runs the forwarding checks ([`checks::FORWARDING`]) on `plan`.
pub fn forwarding_answer(
    db: &StateDb,
    plan_path: &str,
    plan: &crate::plan::Plan,
) -> Result<ForwardingAnswer, StateError> {
    let asked = (
        db.path().to_path_buf(),
        db.state_version()?,
        plan_path.to_owned(),
        plan.clone(),
    );
    if let Ok(mut last) = LAST.lock() {
        if last.as_ref().is_some_and(|(a, _)| *a == asked) {
            if let Some((_, answer)) = last.take() {
                return Ok(answer);
            }
        }
    }
    let opts = Options::default();
    let cx = Context::build(db, plan_path, plan, &opts)?;
    let mut findings = Vec::new();
    for c in checks::FORWARDING {
        findings.extend((c.run)(&cx)?.findings);
    }
    forwarding_of(&cx, findings)
}

/// The forwarding answer on a built context, given the forwarding checks' findings (in
/// [`checks::FORWARDING`] order).
fn forwarding_of(cx: &Context, mut findings: Vec<Finding>) -> Result<ForwardingAnswer, StateError> {
    findings.sort_by_key(|f| f.severity);
    Ok(ForwardingAnswer {
        compared: cx.forwarding.flows,
        unknown: cx.forwarding.unknown.len(),
        not_computed: cx.forwarding.not_computed.clone(),
        findings,
        sessions_ended: cx.sessions_ended_as_declared()?,
    })
}

impl Report {
    /// Counts by severity.
    pub fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for s in [Severity::Error, Severity::Warning, Severity::Info] {
            m.insert(
                s.as_str(),
                self.findings.iter().filter(|f| f.severity == s).count(),
            );
        }
        m
    }

    fn recommendation(&self) -> &'static str {
        match self.verdict {
            "PASS" => "Proceed to formal verification and the change window.",
            "WARN" => "Review the warnings; proceed only if each is understood and accepted.",
            _ => "Do not proceed: fix the errors (or re-draft the plan) and pre-check again.",
        }
    }

    /// The validation report as Markdown.
    pub fn to_markdown(&self) -> String {
        let c = self.counts();
        let mut s = format!(
            "# Pre-check: {}\n\n",
            if self.title.is_empty() {
                &self.plan
            } else {
                &self.title
            }
        );
        let _ = writeln!(
            s,
            "**Verdict: {}** — {} error(s), {} warning(s), {} info · plan `{}` · state version {}{}\n",
            self.verdict,
            c["error"],
            c["warning"],
            c["info"],
            self.plan,
            self.state_version,
            self.plan_state_version.map(|v| format!(" (drafted against {v})")).unwrap_or_default()
        );
        self.changes_markdown(&mut s);
        s.push_str("## Findings\n\n");
        if self.findings.is_empty() {
            s.push_str("None.\n\n");
        } else {
            s.push_str("| severity | element | finding | suggestion |\n|---|---|---|---|\n");
            for f in &self.findings {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} |",
                    f.severity.as_str(),
                    md_cell(&f.element),
                    md_cell(&f.message),
                    md_cell(&f.suggestion)
                );
            }
            s.push('\n');
        }
        s.push_str("## Passed\n\nChecks that ran on this plan and found nothing:\n\n");
        for p in &self.passed {
            let _ = writeln!(s, "- {p}");
        }
        if !self.not_applicable.is_empty() {
            s.push_str("\n## Not applicable\n\nChecks that did not run: nothing in this plan is of their kind.\n\n");
            for p in &self.not_applicable {
                let _ = writeln!(s, "- {p}");
            }
        }
        if let Some(b) = &self.blast {
            let _ = writeln!(
                s,
                "\n## Blast radius (recomputed independently)\n\n**{} device(s)** (removed {} + isolated {}); the plan claims {}.\n",
                b.number(),
                b.removed.len(),
                b.isolated.len(),
                self.claimed.map_or("nothing".to_owned(), |n| n.to_string())
            );
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_owned()
                } else {
                    v.join(", ")
                }
            };
            let services: Vec<String> = b.services.iter().map(ToString::to_string).collect();
            s.push_str("| element | affected |\n|---|---|\n");
            for (k, v) in [
                ("Removed", list(&b.removed)),
                ("Isolated", list(&b.isolated)),
                ("Degraded", list(&b.degraded)),
                ("Sessions lost", list(&b.sessions_lost)),
                ("External peers lost", list(&b.peers_lost)),
                ("Prefixes withdrawn", list(&b.prefixes_withdrawn)),
                ("Services affected", list(&services)),
            ] {
                let _ = writeln!(s, "| {k} | {} |", md_cell(&v));
            }
        }
        if let Some(a) = &self.announcements {
            if !a.before.is_empty() || !a.after.is_empty() {
                s.push_str("\n## What the internet sees\n\nPrefixes announced to each provider, through its outbound policy:\n\n| session | before | after |\n|---|---|---|\n");
                for [session, before, after] in a.rows() {
                    let _ = writeln!(
                        s,
                        "| {} | {} | {} |",
                        md_cell(&session),
                        md_cell(&before),
                        md_cell(&after)
                    );
                }
                let accepts = a.accepts_rows();
                if !accepts.is_empty() {
                    s.push_str("\nWhat each provider's routes are accepted, through its inbound policy:\n\n| session | before | after |\n|---|---|---|\n");
                }
                for [session, before, after] in accepts {
                    let _ = writeln!(
                        s,
                        "| {} | {} | {} |",
                        md_cell(&session),
                        md_cell(&before),
                        md_cell(&after)
                    );
                }
            }
        }
        if let Some((before, after)) = &self.redundancy {
            let _ = writeln!(
                s,
                "\nRedundancy towards the peer — before: {before}; after: {after}."
            );
        }
        let _ = writeln!(s, "\n## Recommendation\n\n{}", self.recommendation());
        // Names from configs reach the prose lines too: never markup (issue 31, item 12).
        crate::output::md_prose(&s)
    }

    /// The section "What the change does": each changed element of each configured
    /// device on a row, or that nothing olav models changes on it. Every word from a
    /// configuration is escaped ([`md_text`]).
    fn changes_markdown(&self, s: &mut String) {
        if self.changes.is_empty() {
            return;
        }
        s.push_str("## What the change does\n\nEach device the plan configures, its configuration with the plan's lines applied against the stored one, as olav models it:\n\n| device | element | change |\n|---|---|---|\n");
        for d in &self.changes {
            if d.changes.is_empty() {
                let _ = writeln!(
                    s,
                    "| {} | — | nothing olav models changes |",
                    md_text(&d.device)
                );
            }
            for c in &d.changes {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} |",
                    md_text(&d.device),
                    md_text(&c.name()),
                    md_text(&c.what())
                );
            }
        }
        s.push('\n');
    }

    /// The reporter's reply body (without contract lines): verdict first, evidence after.
    pub fn summary(&self) -> String {
        let c = self.counts();
        let mut s = format!(
            "Pre-check {} — {} error(s), {} warning(s), {} info (state version {})\n",
            self.verdict, c["error"], c["warning"], c["info"], self.state_version
        );
        for f in self.findings.iter().take(10) {
            let _ = writeln!(
                s,
                "  {:<7} {}: {}",
                f.severity.as_str(),
                f.element,
                f.message
            );
        }
        if self.findings.len() > 10 {
            let _ = writeln!(s, "  … {} more in the report", self.findings.len() - 10);
        }
        if let Some(b) = &self.blast {
            let services: Vec<String> = b.services.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                s,
                "  blast radius recomputed: {} (removed {}, isolated {}, degraded {}); plan claims {}; services: {}",
                b.number(),
                b.removed.len(),
                b.isolated.len(),
                b.degraded.len(),
                self.claimed.map_or("nothing".to_owned(), |n| n.to_string()),
                if services.is_empty() { "none".to_owned() } else { services.join(", ") }
            );
        }
        let _ = writeln!(s, "  {}", self.recommendation());
        s
    }
}
