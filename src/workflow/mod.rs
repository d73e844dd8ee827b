//! Declarative workflows: `<agent-dir>/workflows/*.workflow.yaml`, loaded leniently
//! (a broken file is skipped with its reason, never an abort), validated, rendered into
//! the block an orchestrator's prompt carries, and used to route requests.
//!
//! Authoring guide: `docs/workflows.md`.

pub mod render;
pub mod route;

use crate::agents::Orchestrator;
use include_dir::{include_dir, Dir};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The bundled netops agent's workflows (the repository's `workflows/`).
static BUNDLED: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/workflows");

/// The only schema version this olav reads.
pub const SCHEMA_VERSION: i64 = 1;

/// File name ending of workflow files.
pub const FILE_SUFFIX: &str = ".workflow.yaml";

/// Recommended most workflows per agent: each costs prompt space.
pub const MAX_PER_AGENT: usize = 3;

/// A loaded workflow.
#[derive(Debug, Clone, Serialize)]
pub struct Workflow {
    /// Unique name (falls back to the file stem).
    pub name: String,
    /// Title (falls back to the name).
    pub title: String,
    /// When to use it, in words.
    pub trigger: String,
    /// What passes between steps.
    pub artifact: Option<String>,
    /// Intent words that route a request here.
    pub keywords: Vec<String>,
    /// The olav command that starts it, when a command does (`olav plan`): such a
    /// workflow takes no requests.
    pub command: Option<String>,
    /// Steps in order.
    pub steps: Vec<Step>,
    /// Assembly headers, one per step (fall back to the agents' names).
    pub headers: Vec<String>,
    /// The failure rule.
    pub on_failure: Option<String>,
    /// Where it came from (relative to the agent dir).
    pub file: String,
}

/// One step.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// Declared step agent.
    pub agent: String,
    /// Prompt, with `<the original user request>` and `<path>` placeholders.
    pub prompt: String,
    /// What the reply returns, in words.
    pub returns: Option<String>,
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The file is skipped (or, for conflicts, routing is unreliable).
    Error,
    /// Loaded, but worth fixing.
    Warning,
}

/// A validation finding with a suggestion.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// What to do.
    pub suggestion: String,
}

impl Finding {
    fn error(message: impl Into<String>, suggestion: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Error,
            message: message.into(),
            suggestion: suggestion.into(),
        }
    }

    fn warning(message: impl Into<String>, suggestion: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Warning,
            message: message.into(),
            suggestion: suggestion.into(),
        }
    }
}

/// What became of one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    /// Path relative to the agent dir.
    pub file: String,
    /// The workflow's name when loaded.
    pub loaded: Option<String>,
    /// Errors (the first is why it was skipped) and warnings.
    pub findings: Vec<Finding>,
}

/// Where an orchestrator's workflows live.
#[derive(Debug, Clone)]
pub enum AgentDir {
    /// Compiled into the binary (the repository's `workflows/`).
    Bundled,
    /// A folder holding `workflows/`.
    Path(PathBuf),
}

impl AgentDir {
    /// From `--agent-dir`.
    pub fn from_option(p: Option<&Path>) -> Self {
        p.map_or(AgentDir::Bundled, |p| AgentDir::Path(p.to_path_buf()))
    }

    /// For messages.
    pub fn describe(&self) -> String {
        match self {
            AgentDir::Bundled => "the bundled netops agent".to_owned(),
            AgentDir::Path(p) => p.display().to_string(),
        }
    }
}

/// An agent dir that cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum WorkflowError {
    /// The folder is missing or unreadable.
    #[error("{path}: cannot read workflows: {source}")]
    Dir {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Everything loaded for one orchestrator.
#[derive(Debug, Clone, Serialize)]
pub struct Catalog {
    /// The orchestrator's name.
    pub orchestrator: String,
    /// Loaded workflows, in file order.
    pub workflows: Vec<Workflow>,
    /// One report per file, in file order.
    pub files: Vec<FileReport>,
    /// Findings about the set: intent words claimed twice, too many workflows.
    pub set_findings: Vec<Finding>,
}

impl Catalog {
    /// Whether any file was skipped.
    pub fn any_skipped(&self) -> bool {
        self.files.iter().any(|f| f.loaded.is_none())
    }

    /// Whether two workflows claim one intent word.
    pub fn has_conflicts(&self) -> bool {
        self.set_findings
            .iter()
            .any(|f| f.severity == Severity::Error)
    }
}

/// Loads an orchestrator's workflows from `dir`.
pub fn load(orch: &Orchestrator, dir: &AgentDir) -> Result<Catalog, WorkflowError> {
    let files = match dir {
        AgentDir::Bundled => BUNDLED
            .files()
            .filter(|f| f.path().to_string_lossy().ends_with(FILE_SUFFIX))
            .map(|f| {
                (
                    format!("workflows/{}", f.path().display()),
                    Ok(String::from_utf8_lossy(f.contents()).into_owned()),
                )
            })
            .collect(),
        AgentDir::Path(root) => {
            let wdir = root.join("workflows");
            let entries = std::fs::read_dir(&wdir).map_err(|source| WorkflowError::Dir {
                path: wdir.clone(),
                source,
            })?;
            let mut v = Vec::new();
            for e in entries {
                let e = e.map_err(|source| WorkflowError::Dir {
                    path: wdir.clone(),
                    source,
                })?;
                let name = e.file_name().to_string_lossy().into_owned();
                if !name.ends_with(FILE_SUFFIX) {
                    continue;
                }
                let text = crate::fsutil::read_text(&e.path(), crate::fsutil::TEXT_LIMIT)
                    .map_err(|err| format!("cannot read: {err}"));
                v.push((format!("workflows/{name}"), text));
            }
            v
        }
    };
    Ok(load_texts(orch, files))
}

/// Loads workflows from `(path, text)` pairs; files are taken in sorted path order.
pub fn load_texts(
    orch: &Orchestrator,
    mut files: Vec<(String, Result<String, String>)>,
) -> Catalog {
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut workflows: Vec<Workflow> = Vec::new();
    let mut reports = Vec::new();
    for (path, text) in files {
        let mut findings = Vec::new();
        let result = match text {
            Ok(t) => parse_one(orch, &path, &t, &workflows, &mut findings),
            Err(reason) => Err(Finding::error(reason, "save the file as UTF-8 text")),
        };
        match result {
            Ok(wf) => {
                reports.push(FileReport {
                    file: path,
                    loaded: Some(wf.name.clone()),
                    findings,
                });
                workflows.push(wf);
            }
            Err(f) => {
                tracing::warn!("workflow {path} skipped: {}", f.message);
                findings.insert(0, f);
                reports.push(FileReport {
                    file: path,
                    loaded: None,
                    findings,
                });
            }
        }
    }
    let set_findings = set_findings(orch, &workflows);
    for f in &set_findings {
        tracing::warn!("workflows: {}", f.message);
    }
    Catalog {
        orchestrator: orch.name.to_owned(),
        workflows,
        files: reports,
        set_findings,
    }
}

const KNOWN_KEYS: &[&str] = &[
    "schema_version",
    "name",
    "title",
    "trigger",
    "keywords",
    "command",
    "artifact",
    "steps",
    "assembly",
    "on_failure",
];

fn text_field(m: &serde_json::Map<String, Value>, key: &str) -> Option<String> {
    m.get(key).and_then(|v| match v {
        Value::String(s) => Some(s.trim().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

fn parse_one(
    orch: &Orchestrator,
    path: &str,
    text: &str,
    earlier: &[Workflow],
    findings: &mut Vec<Finding>,
) -> Result<Workflow, Finding> {
    let doc = crate::yaml::parse_value(text).map_err(|e| {
        Finding::error(
            format!("malformed YAML: {e}"),
            "fix the YAML at the line shown; quote strings that hold ': ' or ' #'",
        )
    })?;
    let Value::Object(m) = doc else {
        return Err(Finding::error(
            "the top level is not a mapping",
            "a workflow file is a mapping with schema_version, name, trigger, steps, assembly, on_failure",
        ));
    };
    if let Some(v) = m.get("schema_version") {
        if v.as_i64() != Some(SCHEMA_VERSION) {
            return Err(Finding::error(
                format!("schema_version is {v}, not {SCHEMA_VERSION}"),
                "set schema_version: 1 (the only version this olav reads)",
            ));
        }
    }
    let stem = path
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .trim_end_matches(FILE_SUFFIX)
        .to_owned();
    let name = text_field(&m, "name")
        .filter(|n| !n.is_empty())
        .unwrap_or(stem);
    let steps_v = m
        .get("steps")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if steps_v.len() < 2 {
        return Err(Finding::error(
            format!("{} step(s): a workflow chains at least 2", steps_v.len()),
            "one step is plain routing to that agent; add the steps it chains or delete the file",
        ));
    }
    let mut steps = Vec::new();
    for (i, s) in steps_v.iter().enumerate() {
        let n = i + 1;
        let Some(sm) = s.as_object() else {
            return Err(Finding::error(
                format!("step {n} is not a mapping"),
                format!("write step {n} as `- agent: <name>` with `prompt:` and `returns:`"),
            ));
        };
        let agent = text_field(sm, "agent").filter(|a| !a.is_empty());
        let prompt = text_field(sm, "prompt").filter(|p| !p.is_empty());
        let (Some(agent), Some(prompt)) = (agent, prompt) else {
            let missing = match (sm.contains_key("agent"), sm.contains_key("prompt")) {
                (false, false) => "agent and prompt",
                (false, true) => "agent",
                _ => "prompt",
            };
            return Err(Finding::error(
                format!("step {n} lacks {missing}"),
                format!("give step {n} both `agent:` and `prompt:`"),
            ));
        };
        if orch.agent(&agent).is_none() {
            let known: Vec<&str> = orch.agents.iter().map(|a| a.name).collect();
            return Err(Finding::error(
                format!(
                    "step {n} names agent '{agent}', which the {} orchestrator does not declare",
                    orch.name
                ),
                format!("use one of: {} (see `olav agents`)", known.join(", ")),
            ));
        }
        steps.push(Step {
            agent,
            prompt,
            returns: text_field(sm, "returns"),
        });
    }
    let headers = match m.get("assembly").and_then(|a| a.get("headers")) {
        Some(Value::Array(h)) => {
            let h: Vec<String> = h
                .iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_owned))
                .collect();
            if h.len() != steps.len() {
                return Err(Finding::error(
                    format!(
                        "assembly.headers has {} entries for {} steps",
                        h.len(),
                        steps.len()
                    ),
                    format!("give exactly one header per step ({} headers)", steps.len()),
                ));
            }
            h
        }
        Some(other) => {
            return Err(Finding::error(
                format!("assembly.headers is not a list: {other}"),
                "write headers as a list: [Draft, Pre-check (reporter), …]",
            ))
        }
        None => steps.iter().map(|s| s.agent.clone()).collect(),
    };
    if let Some(first) = earlier.iter().find(|w| w.name == name) {
        return Err(Finding::error(
            format!("name '{name}' is already taken by {}", first.file),
            "rename this workflow (`name:`); names are unique per agent",
        ));
    }
    for k in m.keys().filter(|k| !KNOWN_KEYS.contains(&k.as_str())) {
        let near = KNOWN_KEYS
            .iter()
            .find(|known| known.starts_with(k.as_str()) || k.starts_with(*known));
        findings.push(Finding::warning(
            format!("unknown key '{k}' is ignored"),
            near.map_or_else(
                || format!("known keys: {}", KNOWN_KEYS.join(", ")),
                |n| format!("did you mean '{n}'?"),
            ),
        ));
    }
    let trigger = text_field(&m, "trigger").unwrap_or_default();
    let keywords = match m.get("keywords") {
        Some(Value::Array(ks)) => {
            let mut v = Vec::new();
            for k in ks {
                match k.as_str().map(str::trim) {
                    Some(s) if !s.is_empty() => v.push(s.to_lowercase()),
                    _ => findings.push(Finding::warning(
                        format!("keywords: entry {k} is not a word and is ignored"),
                        "list intent words as strings",
                    )),
                }
            }
            v
        }
        Some(other) => {
            findings.push(Finding::warning(
                format!("keywords is not a list ({other}); intent words come from the trigger"),
                "write keywords as a list: [add, modify, …]",
            ));
            keywords_from_trigger(&trigger)
        }
        None => keywords_from_trigger(&trigger),
    };
    let command = text_field(&m, "command").filter(|c| !c.is_empty());
    if keywords.is_empty() && command.is_none() {
        findings.push(Finding::warning(
            "no intent words: no request will be routed here",
            "name them in the trigger as (\"add / modify\") or list them under keywords:",
        ));
    }
    if steps.len() > 4 {
        findings.push(Finding::warning(
            format!("{} steps: long chains fail more often", steps.len()),
            "keep 2–4 steps, each a bounded task of an existing agent",
        ));
    }
    for (i, s) in steps.iter().enumerate().skip(1) {
        if !s.prompt.contains("<path>") {
            findings.push(Finding::warning(
                format!("step {} ({}) does not reference <path>", i + 1, s.agent),
                "pass the previous step's artifact by reference: put <path> in the prompt",
            ));
        }
    }
    Ok(Workflow {
        title: text_field(&m, "title")
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| name.clone()),
        name,
        trigger,
        artifact: text_field(&m, "artifact"),
        keywords: if command.is_some() {
            Vec::new()
        } else {
            keywords
        },
        command,
        steps,
        headers,
        on_failure: text_field(&m, "on_failure"),
        file: path.to_owned(),
    })
}

/// Intent words named in a trigger as `("add / modify / redundant")`.
pub fn keywords_from_trigger(trigger: &str) -> Vec<String> {
    let Some(start) = trigger.find("(\"") else {
        return Vec::new();
    };
    let rest = &trigger[start + 2..];
    let Some(end) = rest.find("\")") else {
        return Vec::new();
    };
    rest[..end]
        .split('/')
        .map(|w| {
            w.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn set_findings(orch: &Orchestrator, workflows: &[Workflow]) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut owners: BTreeMap<String, Vec<&Workflow>> = BTreeMap::new();
    for w in workflows {
        for k in &w.keywords {
            let key = route::normalise_keyword(k);
            let list = owners.entry(key).or_default();
            if !list.iter().any(|x| x.name == w.name) {
                list.push(w);
            }
        }
    }
    for (word, ws) in owners.iter().filter(|(_, ws)| ws.len() > 1) {
        let names: Vec<String> = ws
            .iter()
            .map(|w| format!("{} ({})", w.name, w.file))
            .collect();
        out.push(Finding::error(
            format!("intent word '{word}' is claimed by {}", names.join(" and ")),
            "triggers must be disjoint: keep the word in one workflow only",
        ));
    }
    if workflows.len() > MAX_PER_AGENT {
        out.push(Finding::warning(
            format!(
                "{} workflows for the {} agent; each costs prompt space",
                workflows.len(),
                orch.name
            ),
            format!("keep 2–{MAX_PER_AGENT} workflows per agent"),
        ));
    }
    out
}
