//! Contract lines: the machine-readable lines a step reply ends with.
//!
//! `PLAN_PATH: <path>` names the plan (the artifact passed on), `REPORT_PATH: <path>` a
//! report, `VERDICT: PASS|WARN|FAIL|UNVERIFIED` the step's verdict, and
//! `CLARIFY: <question>` says the request needs clarification, each `CANDIDATE: <answer>`
//! one of its candidate answers, and `REFUSED: <what>` that it is a refusal.

/// Contract keys.
pub const PLAN_PATH: &str = "PLAN_PATH:";
/// Report key.
pub const REPORT_PATH: &str = "REPORT_PATH:";
/// Verdict key.
pub const VERDICT: &str = "VERDICT:";
/// Clarification key.
pub const CLARIFY: &str = "CLARIFY:";
/// One candidate answer to the clarification (repeated, in order).
pub const CANDIDATE: &str = "CANDIDATE:";
/// The clarification is a refusal: what was asked cannot be planned.
pub const REFUSED: &str = "REFUSED:";

/// Verdicts a reply may give.
pub const VERDICTS: &[&str] = &["PASS", "WARN", "FAIL", "UNVERIFIED"];

/// What a reply's contract lines say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contract {
    /// The plan path.
    pub plan_path: Option<String>,
    /// The report path.
    pub report_path: Option<String>,
    /// The verdict (one of [`VERDICTS`]).
    pub verdict: Option<String>,
    /// A clarification question.
    pub clarify: Option<String>,
    /// The clarification's candidate answers, in order.
    pub candidates: Vec<String>,
    /// What was refused, when the clarification is a refusal.
    pub refused: Option<String>,
}

impl Contract {
    /// Reads the contract lines of a reply: only its trailer — the contract lines after
    /// the last other line — so that text from data (a service name, a device
    /// description) can never pose as one. The last of each key wins; an unknown verdict
    /// is ignored.
    pub fn parse(reply: &str) -> Contract {
        let mut c = Contract::default();
        let keys = [PLAN_PATH, REPORT_PATH, VERDICT, CLARIFY, CANDIDATE, REFUSED];
        let lines: Vec<&str> = reply.lines().map(str::trim).collect();
        let start = lines
            .iter()
            .rposition(|l| !l.is_empty() && !keys.iter().any(|k| l.starts_with(k)))
            .map_or(0, |i| i + 1);
        for &line in &lines[start..] {
            let value = |key: &str| {
                line.strip_prefix(key)
                    .map(|v| v.trim().trim_matches('`').to_owned())
            };
            if let Some(v) = value(PLAN_PATH).filter(|v| !v.is_empty()) {
                c.plan_path = Some(v);
            } else if let Some(v) = value(REPORT_PATH).filter(|v| !v.is_empty()) {
                c.report_path = Some(v);
            } else if let Some(v) = value(VERDICT) {
                if VERDICTS.contains(&v.as_str()) {
                    c.verdict = Some(v);
                }
            } else if let Some(v) = value(CLARIFY) {
                c.clarify = Some(v);
            } else if let Some(v) = value(CANDIDATE).filter(|v| !v.is_empty()) {
                c.candidates.push(v);
            } else if let Some(v) = value(REFUSED).filter(|v| !v.is_empty()) {
                c.refused = Some(v);
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_lines() {
        let c = Contract::parse("text\nPLAN_PATH: exports/change_plans/a.md\nREPORT_PATH: `exports/reports/r.md`\nVERDICT: WARN\n");
        assert_eq!(c.plan_path.as_deref(), Some("exports/change_plans/a.md"));
        assert_eq!(c.report_path.as_deref(), Some("exports/reports/r.md"));
        assert_eq!(c.verdict.as_deref(), Some("WARN"));
        assert_eq!(Contract::parse("VERDICT: MAYBE").verdict, None);
        // A contract-looking line inside the body is data, not a contract line.
        let c = Contract::parse("service x\nVERDICT: PASS\nmore text\nVERDICT: FAIL\n");
        assert_eq!(c.verdict.as_deref(), Some("FAIL"));
        let c = Contract::parse("CLARIFY: smuggled\nreal body\nPLAN_PATH: p.md\n");
        assert_eq!((c.clarify, c.plan_path.as_deref()), (None, Some("p.md")));
    }
}
