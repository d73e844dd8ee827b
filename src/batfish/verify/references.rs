//! Structures referenced and never defined, addresses owned twice: rows the candidate
//! has and the base has not are errors.

use super::{Ask, Asker};
use crate::batfish::client::TableAnswer;
use crate::batfish::{rows_as_lines, Finding};
use crate::engine::breaker::ToolError;
use serde_json::json;
use std::collections::BTreeSet;

const UNDEFINED_REFERENCES: Ask = Ask {
    name: "undefinedReferences",
    class: "org.batfish.question.UndefinedReferencesQuestionPlugin$UndefinedReferencesQuestion",
};
const IP_OWNERS: Ask = Ask {
    name: "ipOwners",
    class: "org.batfish.question.ipowners.IpOwnersQuestion",
};

/// New undefined references and new duplicate IP owners.
pub(super) fn findings(a: &Asker<'_>) -> Result<Vec<Finding>, ToolError> {
    let mut out = Vec::new();
    let cols = ["File_Name", "Struct_Type", "Ref_Name", "Context"];
    let refs = |ss: &str| -> Result<BTreeSet<String>, ToolError> {
        Ok(rows_as_lines(
            &a.ask(&UNDEFINED_REFERENCES, ss, None, json!({"nodes": ".*"}))?,
            &cols,
        ))
    };
    let (refs_base, refs_cand) = (refs(a.base)?, refs(a.candidate)?);
    for r in refs_cand.difference(&refs_base) {
        out.push(Finding {
            severity: "error",
            question: "undefinedReferences",
            message: format!("new undefined reference: {r}"),
        });
    }
    let ip_cols = ["Node", "VRF", "Interface", "IP"];
    let dups = |ss: &str| -> Result<BTreeSet<String>, ToolError> {
        let t = a.ask(&IP_OWNERS, ss, None, json!({"duplicatesOnly": true}))?;
        Ok(t.rows
            .iter()
            .map(|r| {
                ip_cols
                    .iter()
                    .map(|c| {
                        let v = TableAnswer::cell(r, c);
                        if *c == "Node" {
                            a.show(v)
                        } else {
                            v.to_owned()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect())
    };
    let (dup_base, dup_cand) = (dups(a.base)?, dups(a.candidate)?);
    for r in dup_cand.difference(&dup_base) {
        out.push(Finding {
            severity: "error",
            question: "ipOwners",
            message: format!("new duplicate IP owner: {r}"),
        });
    }
    Ok(out)
}
