//! The one place olav touches YAML. serde_yaml is unmaintained upstream; keeping every
//! use behind this module makes it a one-file swap.

use serde::de::DeserializeOwned;

/// A YAML document that could not be read, with its position.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    /// 1-based line and column, when known.
    pub location: Option<(usize, usize)>,
    /// What was wrong (serde_yaml's text, which names the line and column).
    pub message: String,
}

/// Aliases a document may use: real olav files need a few at most.
pub const MAX_ALIASES: usize = 64;
/// Nesting a document may have: olav's files are a handful of levels deep.
pub const MAX_DEPTH: usize = 64;
/// Size of a document that uses aliases: with [`MAX_ALIASES`], expansion stays under 64 MiB.
pub const MAX_ALIASED_BYTES: usize = 1024 * 1024;

/// Refuses, before any parsing, what could take unbounded memory or time: too many
/// aliases (`*name`), aliases in a large document (one big anchored string referenced
/// thousands of times), or nesting deeper than olav's files ever are.
fn budget(text: &str) -> Result<(), YamlError> {
    let refuse = |line: usize, message: String| YamlError {
        location: Some((line, 1)),
        message,
    };
    let mut aliases = 0usize;
    let mut flow_depth = 0usize;
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        // Block nesting: two spaces (or one dash) a level is as tight as YAML gets.
        let indent = raw.len() - raw.trim_start_matches([' ', '-']).len();
        if indent / 2 > MAX_DEPTH {
            return Err(refuse(
                line,
                format!("nesting deeper than {MAX_DEPTH} levels"),
            ));
        }
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        for c in raw.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') if matches!(prev, ' ' | ':' | '-' | '[' | '{' | ',') => {
                    quote = Some(c)
                }
                (None, '#') if prev == ' ' => break,
                (None, '[' | '{') => flow_depth += 1,
                (None, ']' | '}') => flow_depth = flow_depth.saturating_sub(1),
                (None, '*') if matches!(prev, ' ' | '[' | '{' | ',') => aliases += 1,
                _ => {}
            }
            if flow_depth > MAX_DEPTH {
                return Err(refuse(
                    line,
                    format!("nesting deeper than {MAX_DEPTH} levels"),
                ));
            }
            prev = c;
        }
    }
    if aliases > MAX_ALIASES {
        return Err(refuse(
            1,
            format!("{aliases} YAML aliases: at most {MAX_ALIASES} are accepted"),
        ));
    }
    if aliases > 0 && text.len() > MAX_ALIASED_BYTES {
        return Err(refuse(
            1,
            format!(
                "a document of {} bytes with YAML aliases: aliases are accepted only in documents under {} KiB",
                text.len(),
                MAX_ALIASED_BYTES >> 10
            ),
        ));
    }
    Ok(())
}

/// Deserialises a YAML document, within the alias and depth budget.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    budget(text)?;
    serde_yaml::from_str(text).map_err(|e| YamlError {
        location: e.location().map(|l| (l.line(), l.column())),
        message: e.to_string(),
    })
}

/// Parses a YAML document without a schema, for lenient loaders that check fields one
/// by one. The result is a JSON value so that no serde_yaml type leaks out.
pub fn parse_value(text: &str) -> Result<serde_json::Value, YamlError> {
    let v: serde_yaml::Value = from_str(text)?;
    serde_json::to_value(&v).map_err(|e| YamlError {
        location: None,
        message: format!("unsupported YAML (JSON-compatible data expected): {e}"),
    })
}

/// Serialises a value as a YAML document.
pub fn to_string<T: serde::Serialize>(v: &T) -> Result<String, YamlError> {
    serde_yaml::to_string(v).map_err(|e| YamlError {
        location: None,
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_refuses_bombs_and_depth_quickly() {
        let big = format!(
            "a: &x \"{}\"\nb: [{}]\n",
            "y".repeat(2 << 20),
            ["*x"; 10].join(", ")
        );
        assert!(parse_value(&big).is_err());
        let many = format!("a: &x 1\nb: [{}]\n", ["*x"; 100].join(", "));
        assert!(parse_value(&many)
            .unwrap_err()
            .message
            .contains("100 YAML aliases"));
        let deep = format!("{}{}", "[".repeat(20_000), "]".repeat(20_000));
        let t = std::time::Instant::now();
        assert!(parse_value(&deep)
            .unwrap_err()
            .message
            .contains("nesting deeper"));
        assert!(t.elapsed().as_secs() < 2);
        let ok = "a: &x 1\nb: *x\nc: 'it''s * fine'\nd: \"#*[\"\n";
        assert_eq!(
            parse_value(ok).expect("ok"),
            serde_json::json!({"a": 1, "b": 1, "c": "it's * fine", "d": "#*["})
        );
    }
}
