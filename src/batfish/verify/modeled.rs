//! Whether Batfish modeled the plan at all: each changed file's parse status, and the
//! initialization issues and parse warnings the candidate has and the base has not —
//! above all on the plan's own lines (`docs/verification.md`, "Was the plan modeled?").

use super::{Ask, Asker, UNVERIFIED};
use crate::batfish::client::TableAnswer;
use crate::batfish::{config_path, Finding};
use crate::engine::breaker::ToolError;
use serde_json::json;
use std::collections::{BTreeSet, HashMap};

const FILE_PARSE_STATUS: Ask = Ask {
    name: "fileParseStatus",
    class: "org.batfish.question.initialization.FileParseStatusQuestion",
};
const INIT_ISSUES: Ask = Ask {
    name: "initIssues",
    class: "org.batfish.question.initialization.InitIssuesQuestion",
};
const PARSE_WARNING: Ask = Ask {
    name: "parseWarning",
    class: "org.batfish.question.initialization.ParseWarningQuestion",
};

/// How a changed file's parse status moves the verdict, given the base's status of the
/// same file (`ParseStatus.java`): None when it does not.
pub(super) fn grade_status(
    file: &str,
    candidate: Option<&str>,
    base: Option<&str>,
) -> Option<Finding> {
    let was = base.unwrap_or("absent");
    let (severity, why) = match candidate {
        None => (
            UNVERIFIED,
            "Batfish's fileParseStatus does not list it: the plan's lines on it were not modeled"
                .to_owned(),
        ),
        Some("PASSED" | "PARTIALLY_UNRECOGNIZED") => return None,
        Some(s @ ("FAILED" | "WILL_NOT_COMMIT")) if base != Some(s) => (
            "error",
            if s == "WILL_NOT_COMMIT" {
                format!("WILL_NOT_COMMIT (was {was}): the device would refuse the candidate configuration")
            } else {
                format!("FAILED (was {was}): Batfish cannot parse the candidate configuration")
            },
        ),
        Some(s @ ("FAILED" | "WILL_NOT_COMMIT")) => (
            UNVERIFIED,
            format!("{s} before the plan too: Batfish does not model this device, so not the plan on it"),
        ),
        Some(s) => (
            UNVERIFIED,
            format!("{s} (was {was}): Batfish did not model this file, so not the plan's lines on it"),
        ),
    };
    Some(Finding {
        severity,
        question: "fileParseStatus",
        message: format!("{file}: {why}"),
    })
}

/// An initialization issue without its line numbers (the candidate's lines move):
/// (nodes, type, details, line text).
type IssueKey = (String, String, String, String);

fn issue_key(r: &[(String, String)]) -> IssueKey {
    let mut nodes: Vec<String> = TableAnswer::cell(r, "Nodes")
        .split(", ")
        .filter(|n| !n.is_empty())
        .map(str::to_lowercase)
        .collect();
    nodes.sort();
    (
        nodes.join(","),
        TableAnswer::cell(r, "Type").to_owned(),
        TableAnswer::cell(r, "Details").to_owned(),
        TableAnswer::cell(r, "Line_Text").trim().to_owned(),
    )
}

/// Whether a node is one of the provider nodes Batfish builds from `isp_config.json`
/// (`IspModelingUtils`: `isp_<AS>`, and the `internet` node).
pub(super) fn is_isp_node(node: &str) -> bool {
    node.starts_with("isp_") || node == "internet"
}

/// How one candidate-only initialization issue moves the verdict: on a plan line, an
/// error type is a line the device or Batfish rejects (FAIL), anything else a line
/// Batfish does not model (UNVERIFIED); on a provider node, the providers are not modeled
/// (UNVERIFIED); elsewhere the plan made something new Batfish complains about (warning).
pub(super) fn grade_issue(
    key: &IssueKey,
    plan_lines: &HashMap<String, BTreeSet<String>>,
) -> Finding {
    let (nodes, kind, details, line) = key;
    let on_plan_line = !line.is_empty()
        && nodes
            .split(',')
            .any(|n| plan_lines.get(n).is_some_and(|l| l.contains(line)));
    let severity = if nodes.split(',').any(is_isp_node) {
        UNVERIFIED
    } else if on_plan_line {
        if kind.contains("error") {
            "error"
        } else {
            UNVERIFIED
        }
    } else {
        "warning"
    };
    let what = if on_plan_line {
        format!("plan line '{line}' on {nodes}: {kind}: {details}")
    } else if nodes.split(',').any(is_isp_node) {
        format!("the providers Batfish models ({nodes}): {kind}: {details}")
    } else if line.is_empty() {
        format!("new on {nodes}: {kind}: {details}")
    } else {
        format!("new on {nodes}: {kind}: {details} ('{line}')")
    };
    Finding {
        severity,
        question: "initIssues",
        message: what,
    }
}

/// The findings of fileParseStatus, initIssues and parseWarning.
pub(super) fn findings(a: &Asker<'_>) -> Result<Vec<Finding>, ToolError> {
    let mut out = Vec::new();
    let parse_status = |ss: &str| -> Result<HashMap<String, String>, ToolError> {
        Ok(a.ask(&FILE_PARSE_STATUS, ss, None, json!({}))?
            .rows
            .iter()
            .map(|r| {
                (
                    TableAnswer::cell(r, "File_Name").to_owned(),
                    TableAnswer::cell(r, "Status").to_owned(),
                )
            })
            .collect())
    };
    let (fps_base, fps_cand) = (parse_status(a.base)?, parse_status(a.candidate)?);
    // A broken or foreign service answers without naming the snapshot it was given: then
    // no empty answer of it ("no session lost", "no flow fails") vouches for anything.
    for (which, fps) in [("base", &fps_base), ("candidate", &fps_cand)] {
        let named = a
            .configs
            .iter()
            .filter(|(h, _)| fps.contains_key(&config_path(h)))
            .count();
        if !a.configs.is_empty() && named == 0 {
            out.push(Finding {
                severity: UNVERIFIED,
                question: "fileParseStatus",
                message: format!(
                    "Batfish's answer for the {which} snapshot named none of the snapshot's {} configuration files ({} row(s) about other files): a broken or foreign service, so none of its answers can vouch for the plan",
                    a.configs.len(),
                    fps.len()
                ),
            });
        }
    }
    for (host, _) in &a.cand.touched {
        let file = config_path(host);
        out.extend(grade_status(
            &file,
            fps_cand.get(&file).map(String::as_str),
            fps_base.get(&file).map(String::as_str),
        ));
    }
    let plan_lines: HashMap<String, BTreeSet<String>> = a
        .cand
        .lines
        .iter()
        .map(|(h, l)| (h.clone(), l.clone()))
        .collect();
    let issues = |ss: &str| -> Result<BTreeSet<IssueKey>, ToolError> {
        Ok(a.ask(&INIT_ISSUES, ss, None, json!({}))?
            .rows
            .iter()
            .map(|r| issue_key(r))
            .collect())
    };
    let (init_base, init_cand) = (issues(a.base)?, issues(a.candidate)?);
    let mut named: BTreeSet<String> = BTreeSet::new();
    for key in init_cand.difference(&init_base) {
        named.insert(key.3.clone());
        out.push(grade_issue(key, &plan_lines));
    }
    // Provider red flags the base has too: the providers are not modeled in either.
    for key in init_cand.intersection(&init_base) {
        if key.0.split(',').any(is_isp_node) {
            out.push(grade_issue(key, &plan_lines));
        }
    }
    // parseWarning per file and line: a plan line Batfish did not recognise that
    // initIssues did not already name.
    let warnings = |ss: &str| -> Result<BTreeSet<(String, String, String)>, ToolError> {
        Ok(a.ask(
            &PARSE_WARNING,
            ss,
            None,
            json!({"aggregateDuplicates": false}),
        )?
        .rows
        .iter()
        .map(|r| {
            (
                TableAnswer::cell(r, "Filename").to_owned(),
                TableAnswer::cell(r, "Text").trim().to_owned(),
                TableAnswer::cell(r, "Comment").to_owned(),
            )
        })
        .collect())
    };
    let (pw_base, pw_cand) = (warnings(a.base)?, warnings(a.candidate)?);
    let new_warnings: Vec<&(String, String, String)> = pw_cand.difference(&pw_base).collect();
    for (file, text, comment) in &new_warnings {
        let host = a
            .cand
            .touched
            .iter()
            .find(|(h, _)| &config_path(h) == file)
            .map(|(h, _)| h.to_lowercase());
        let on_plan = host
            .as_ref()
            .and_then(|h| plan_lines.get(h))
            .is_some_and(|l| l.contains(text));
        if on_plan && !named.contains(text) {
            out.push(Finding {
                severity: UNVERIFIED,
                question: "parseWarning",
                message: format!("{file}: plan line '{text}' not understood by Batfish: {comment}"),
            });
        }
    }
    out.push(Finding {
        severity: "info",
        question: "initIssues",
        message: format!(
            "{} initialization issue(s), {} parse warning(s) in the candidate; {} and {} new",
            init_cand.len(),
            pw_cand.len(),
            init_cand.difference(&init_base).count(),
            new_warnings.len()
        ),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_statuses_are_graded_against_the_base() {
        let f = "configs/r1.cfg";
        assert!(grade_status(f, Some("PASSED"), Some("PASSED")).is_none());
        assert!(grade_status(f, Some("PARTIALLY_UNRECOGNIZED"), Some("PASSED")).is_none());
        let g = |c: Option<&str>, b: Option<&str>| grade_status(f, c, b).map(|x| x.severity);
        assert_eq!(g(Some("WILL_NOT_COMMIT"), Some("PASSED")), Some("error"));
        assert_eq!(g(Some("FAILED"), Some("PASSED")), Some("error"));
        assert_eq!(g(Some("FAILED"), Some("FAILED")), Some(UNVERIFIED));
        for s in ["UNKNOWN", "UNSUPPORTED", "EMPTY", "IGNORED"] {
            assert_eq!(g(Some(s), Some("PASSED")), Some(UNVERIFIED), "{s}");
        }
        assert_eq!(g(None, Some("PASSED")), Some(UNVERIFIED));
    }

    #[test]
    fn issues_on_plan_lines_and_providers_move_the_verdict() {
        let plan: HashMap<String, BTreeSet<String>> = [(
            "r1".to_owned(),
            ["snmp-server community olav RO".to_owned()].into(),
        )]
        .into();
        let key = |nodes: &str, kind: &str, line: &str| {
            (
                nodes.to_owned(),
                kind.to_owned(),
                "d".to_owned(),
                line.to_owned(),
            )
        };
        let sev = |k: IssueKey| grade_issue(&k, &plan).severity;
        assert_eq!(
            sev(key("r1", "Parse warning", "snmp-server community olav RO")),
            UNVERIFIED
        );
        assert_eq!(
            sev(key("r1", "Convert error", "snmp-server community olav RO")),
            "error"
        );
        assert_eq!(
            sev(key("isp_65000", "Convert warning (redflag)", "")),
            UNVERIFIED
        );
        assert_eq!(sev(key("r2", "Convert warning (redflag)", "")), "warning");
        assert!(grade_issue(
            &key("r1", "Parse warning", "snmp-server community olav RO"),
            &plan
        )
        .message
        .contains("plan line 'snmp-server community olav RO'"));
    }
}
