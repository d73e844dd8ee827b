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

/// Deserialises a YAML document.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
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
