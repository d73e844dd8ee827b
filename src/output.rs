//! Output for people (aligned text tables) and machines (JSON).

use comfy_table::{presets::NOTHING, ContentArrangement, Table as Comfy};
use serde::{Deserialize, Serialize};

/// Output format chosen with `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned text for people.
    #[default]
    Text,
    /// JSON for machines.
    Json,
}

/// Which verdict makes a command exit 1 (`--fail-on`): pipelines that gate on warnings
/// choose `warn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FailOn {
    /// Only a FAIL exits 1.
    #[default]
    Fail,
    /// A WARN exits 1 as well (UNVERIFIED still does not: it says what was not run).
    Warn,
}

impl FailOn {
    /// Whether `verdict` fails the command.
    pub fn fails(self, verdict: &str) -> bool {
        verdict == "FAIL" || (self == FailOn::Warn && verdict == "WARN")
    }
}

/// One finding of a pre-check or a verification as scripts read it, saved beside the
/// step's Markdown report ([`findings_beside`]) so that a run's JSON can list them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepFinding {
    /// Stable code (`precheck.links`, `check.duplicate_ip`, `verify.<Batfish question>`).
    pub code: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// What it is about.
    pub element: String,
    /// What was found.
    pub message: String,
}

impl StepFinding {
    /// A pre-check finding (the forwarding checks of the verification give these too).
    pub fn of(f: &crate::precheck::Finding) -> Self {
        StepFinding {
            code: f.code.to_owned(),
            severity: f.severity.as_str().to_owned(),
            element: f.element.clone(),
            message: f.message.clone(),
        }
    }
}

/// A step's findings file: its verdict and findings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepFindings {
    /// The step's verdict.
    pub verdict: String,
    /// Every finding, in the report's order.
    pub findings: Vec<StepFinding>,
}

/// The findings file saved beside a step's Markdown report: `<stem>.precheck.md` →
/// `<stem>.precheck.json`.
pub fn findings_beside(report_md: &std::path::Path) -> std::path::PathBuf {
    report_md.with_extension("json")
}

/// A result table: named columns, rows of JSON values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, one value per column.
    pub rows: Vec<Vec<serde_json::Value>>,
}

impl Table {
    /// Renders as an aligned text table (no borders, headers in capitals).
    pub fn to_text(&self) -> String {
        let mut t = Comfy::new();
        t.load_preset(NOTHING)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_header(self.columns.iter().map(|c| c.to_uppercase()));
        for r in &self.rows {
            t.add_row(r.iter().map(cell));
        }
        let mut s = String::new();
        for line in t.to_string().lines() {
            s.push_str(line.trim_end());
            s.push('\n');
        }
        s
    }

    /// Renders as a JSON array of objects keyed by column name.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.rows
                .iter()
                .map(|r| {
                    serde_json::Value::Object(
                        self.columns
                            .iter()
                            .cloned()
                            .zip(r.iter().cloned())
                            .collect(),
                    )
                })
                .collect(),
        )
    }
}

/// Characters a text table shows of one cell: laying out a table costs more than linear
/// time in a cell's length (a 15 MB workflow title took 40 s), and no reader wants more.
pub const CELL_LIMIT: usize = 400;

fn cell(v: &serde_json::Value) -> String {
    let text: std::borrow::Cow<'_, str> = match v {
        serde_json::Value::Null => return "-".to_owned(),
        serde_json::Value::String(s) if s.is_empty() => return "-".to_owned(),
        serde_json::Value::String(s) => s.into(),
        other => other.to_string().into(),
    };
    let total = text.chars().count();
    if total <= CELL_LIMIT {
        return printable(&text);
    }
    let shown: String = text.chars().take(CELL_LIMIT).collect();
    format!(
        "{} … ({} more characters; --format json shows all)",
        printable(&shown),
        total - CELL_LIMIT
    )
}

/// Text as a terminal should show it: control characters (escape sequences, newlines,
/// carriage returns) written as escapes, so a stored name or request cannot redraw the
/// screen or forge a line.
pub fn printable(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_owned();
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Text as one cell of a Markdown table: on one line, `|` escaped and `&`, `<`, `>` as
/// entities, so a hostile name (a service `<img …> | col |`) cannot break the table or
/// become markup in a plan or report. [`md_uncell`] reads it back.
pub fn md_cell(s: &str) -> String {
    one_line_printable(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
}

/// Text from configurations as one cell of a Markdown table that no reader takes as
/// markup: [`md_cell`], with Markdown's inline marks (code, emphasis, links) escaped too,
/// so a name like `[x](javascript:…)` or `**x**` stays text.
pub fn md_text(s: &str) -> String {
    let mut marked = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '~') {
            marked.push('\\');
        }
        marked.push(c);
    }
    md_cell(&marked)
}

/// Markdown prose that no reader takes as markup: a `<` that could open an HTML tag
/// (`<img …>`, `</x>`, `<!--`) is written `&lt;`, outside fenced blocks and code spans
/// (show commands and config stay as typed). Nothing else changes, and text already
/// escaped stays the same, so a plan read back and written again is unchanged.
pub fn md_prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            out.push_str(line);
            continue;
        }
        if fenced {
            out.push_str(line);
            continue;
        }
        let mut in_code = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '`' => {
                    in_code = !in_code;
                    out.push(c);
                }
                '<' if !in_code
                    && chars.peek().is_some_and(|n| {
                        n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')
                    }) =>
                {
                    out.push_str("&lt;")
                }
                _ => out.push(c),
            }
        }
    }
    out
}

/// The text of a Markdown table cell written by [`md_cell`].
pub fn md_uncell(s: &str) -> String {
    s.replace("\\|", "|")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Text on one line: each run of control characters (newlines, escape sequences' ESC)
/// becomes one space, the rest kept.
pub fn one_line_printable(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_control = false;
    for c in s.chars() {
        if c.is_control() {
            if !in_control {
                out.push(' ');
            }
            in_control = true;
        } else {
            out.push(c);
            in_control = false;
        }
    }
    out
}

/// Pretty JSON text of a serialisable value.
pub fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The name to write in "Next:" lines: how the user invoked olav when that was a path
/// (`./target/release/olav`, `target/debug/olav` under `cargo run`), else `olav`.
pub fn invoked() -> String {
    std::env::args()
        .next()
        .filter(|a| a.contains('/') && a.rsplit('/').next() == Some("olav"))
        .unwrap_or_else(|| "olav".to_owned())
}

#[cfg(test)]
mod md_tests {
    #[test]
    fn prose_keeps_code_and_escapes_tags_once() {
        let text = "service <img src=x onerror=alert(1)> down, < 5 ms\n`show ip <x>`\n```\nshow <y>\n```\n";
        let once = super::md_prose(text);
        assert_eq!(
            once,
            "service &lt;img src=x onerror=alert(1)> down, < 5 ms\n`show ip <x>`\n```\nshow <y>\n```\n"
        );
        assert_eq!(super::md_prose(&once), once);
    }

    #[test]
    fn a_cell_reads_back_and_holds_no_markup() {
        let hostile = "<img src=x onerror=alert(1)> | col | a&b\nnext";
        let cell = super::md_cell(hostile);
        assert!(!cell.contains('<') && !cell.contains('\n'), "{cell}");
        assert_eq!(cell.matches('|').count(), cell.matches("\\|").count());
        assert_eq!(super::md_uncell(&cell), hostile.replace('\n', " "));
    }

    #[test]
    fn text_from_configs_is_no_markup() {
        let hostile = "[x](javascript:alert(1)) **b** `c` <b>|";
        assert_eq!(
            super::md_text(hostile),
            "\\[x\\](javascript:alert(1)) \\*\\*b\\*\\* \\`c\\` &lt;b&gt;\\|"
        );
    }
}
