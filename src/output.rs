//! Output for people (aligned text tables) and machines (JSON).

use comfy_table::{presets::NOTHING, ContentArrangement, Table as Comfy};
use serde::Serialize;

/// Output format chosen with `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned text for people.
    #[default]
    Text,
    /// JSON for machines.
    Json,
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

fn cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "-".to_owned(),
        serde_json::Value::String(s) if s.is_empty() => "-".to_owned(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
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
