//! Routing a request to exactly one workflow by its intent words — or to none, or,
//! when two match, to a question. Never a coin flip.
//!
//! Matching is tolerant of case, punctuation and inflection ("Adding", "removed",
//! "decommissioning"): words are compared by a light stem. Words in scripts without
//! spaces (Chinese) match as substrings.

use super::{Catalog, Workflow};
use serde::Serialize;

/// Where a request goes.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "route", rename_all = "snake_case")]
pub enum Route<'a> {
    /// Exactly one workflow matches.
    Workflow {
        /// The workflow.
        workflow: &'a Workflow,
        /// The intent words found in the request.
        matched: Vec<String>,
    },
    /// Several workflows match: ask which.
    Ambiguous {
        /// Each candidate with the words that matched it.
        candidates: Vec<Candidate<'a>>,
    },
    /// No workflow matches.
    None,
}

/// A workflow a request could mean.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate<'a> {
    /// The workflow.
    pub workflow: &'a Workflow,
    /// The intent words found in the request.
    pub matched: Vec<String>,
}

fn is_spaced_script(word: &str) -> bool {
    word.chars()
        .all(|c| c.is_ascii() || c.is_alphabetic() && !is_cjk(c))
}

use crate::language::{is_cjk, stem};

/// The form under which a keyword is compared (for conflict detection too).
pub fn normalise_keyword(k: &str) -> String {
    if is_spaced_script(k) {
        k.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(stem)
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        k.to_lowercase()
    }
}

fn tokens(request: &str) -> Vec<String> {
    request
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .flat_map(|w| w.split('\''))
        .filter(|w| !w.is_empty() && w.chars().all(|c| !is_cjk(c)))
        .map(stem)
        .collect()
}

/// The keywords of `w` found in the request.
fn matches(w: &Workflow, toks: &[String], lower: &str) -> Vec<String> {
    let mut found = Vec::new();
    for k in &w.keywords {
        let hit = if is_spaced_script(k) {
            let kt: Vec<String> = normalise_keyword(k).split(' ').map(str::to_owned).collect();
            !kt.is_empty() && toks.windows(kt.len()).any(|win| win == kt.as_slice())
        } else {
            lower.contains(&k.to_lowercase())
        };
        if hit && !found.contains(k) {
            found.push(k.clone());
        }
    }
    found
}

/// Routes a request.
pub fn route<'a>(catalog: &'a Catalog, request: &str) -> Route<'a> {
    // Chinese keywords match the request as written, English ones its normalised form.
    let normalised = crate::language::normalise(request);
    let toks = tokens(&normalised);
    let lower = format!("{} {}", request.to_lowercase(), normalised.to_lowercase());
    let mut hits: Vec<Candidate<'a>> = catalog
        .workflows
        .iter()
        .filter(|w| w.command.is_none())
        .map(|w| Candidate {
            workflow: w,
            matched: matches(w, &toks, &lower),
        })
        .filter(|c| !c.matched.is_empty())
        .collect();
    // A request that names an element but no verb the workflows declare is read by the
    // analyzer, which asks what to do with it (offering the readings): never a dead end.
    if hits.is_empty()
        && crate::language::names_element(&normalised)
        && !crate::language::is_query(request)
    {
        let neutral = vec![stem("change")];
        if let Some(w) = catalog
            .workflows
            .iter()
            .find(|w| !matches(w, &neutral, "change").is_empty())
        {
            return Route::Workflow {
                workflow: w,
                matched: vec!["(names an element; the analyzer reads it)".to_owned()],
            };
        }
    }
    match hits.len() {
        0 => Route::None,
        1 => {
            let c = hits.remove(0);
            Route::Workflow {
                workflow: c.workflow,
                matched: c.matched,
            }
        }
        _ => Route::Ambiguous { candidates: hits },
    }
}
