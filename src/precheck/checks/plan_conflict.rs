//! The plan claims nothing another open plan claims.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::claims::Matches;
use crate::state::StateError;
use std::collections::{BTreeMap, BTreeSet};

/// No conflict with other open plans.
pub const CHECK: Check = Check {
    codes: &["precheck.plan_conflict"],
    name: "no conflict with other open plans",
    reads: "the plan's claims; other open plans' claims",
    run,
};

/// What another plan's claim means for this one: the claim to look for, the severity,
/// the element named and what the other plans do (one plan, several plans).
struct Meets {
    other: (&'static str, String, String),
    severity: Severity,
    element: String,
    does: (&'static str, &'static str),
}

/// The claims of other plans that conflict with `mine`, by kind (see `plan::claims`).
fn meets(kind: &str, dev: &str, el: &str) -> Option<Meets> {
    let same = |k: &'static str, severity, element: String, does| Meets {
        other: (k, dev.to_owned(), el.to_owned()),
        severity,
        element,
        does,
    };
    Some(match kind {
        "address" => same(
            "address",
            Severity::Error,
            format!("address {el}"),
            ("assigns the same address", "assign the same address"),
        ),
        "subnet" => same(
            "subnet",
            Severity::Error,
            format!("subnet {el}"),
            ("uses the same subnet", "use the same subnet"),
        ),
        "session" => same(
            "session",
            Severity::Error,
            format!("{dev} neighbor {el}"),
            (
                "configures the same BGP session",
                "configure the same BGP session",
            ),
        ),
        "addresses" => same(
            "addresses",
            Severity::Error,
            format!("{dev} {el}"),
            ("addresses the same interface", "address the same interface"),
        ),
        "interface" => same(
            "interface",
            Severity::Warning,
            format!("{dev} {el}"),
            ("changes the same interface", "change the same interface"),
        ),
        "configures" => Meets {
            other: ("removes", dev.to_owned(), String::new()),
            severity: Severity::Error,
            element: dev.to_owned(),
            does: (
                "removes this device, which this plan configures",
                "remove this device, which this plan configures",
            ),
        },
        "removes" => Meets {
            other: ("configures", dev.to_owned(), String::new()),
            severity: Severity::Error,
            element: dev.to_owned(),
            does: (
                "configures the device this plan removes",
                "configure the device this plan removes",
            ),
        },
        _ => return None,
    })
}

/// `plan X (path)`, or `plans X (path), Y (path) and 7 more`.
fn name_plans(m: &Matches) -> String {
    let named: Vec<String> = m
        .named
        .iter()
        .map(|(id, path)| format!("{id} ({path})"))
        .collect();
    match (named.len(), m.total.saturating_sub(named.len())) {
        (1, 0) => format!("plan {}", named[0]),
        (_, 0) => format!("plans {}", named.join(", ")),
        (_, more) => format!("plans {} and {more} more", named.join(", ")),
    }
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    // A plan claiming exactly what this one claims is the same change drafted twice
    // (the same request asked again): said once, not as a conflict per element.
    let mine = crate::plan::claims::claims(plan);
    let set = crate::state::claims::of_claims(&mine);
    let duplicates = cx
        .db
        .open_duplicates(&plan.header.plan_id, set.as_deref())?;
    if duplicates.total > 0 {
        let (verb, hint) = match duplicates.named.as_slice() {
            [(id, _)] if duplicates.total == 1 => (
                "drafts the same change: a duplicate",
                format!("keep one: olav plans withdraw {id}"),
            ),
            _ => (
                "draft the same change: duplicates",
                "keep one: olav plans withdraw <plan> for the others (olav plans list)".into(),
            ),
        };
        out.add(
            Severity::Warning,
            cx.plan_path,
            format!("{} {verb}", name_plans(&duplicates)),
            hint,
        );
    }
    // One finding per element: the most severe of what other plans do to it.
    let mut seen: BTreeMap<String, (Severity, String)> = BTreeMap::new();
    let mut asked = BTreeSet::new();
    for c in &mine {
        let Some(m) = meets(c.kind, &c.device, &c.element) else {
            continue;
        };
        if !asked.insert(m.other.clone()) {
            continue;
        }
        let (k, d, e) = &m.other;
        let found = cx
            .db
            .open_claimants(&plan.header.plan_id, set.as_deref(), (k, d, e))?;
        if found.total == 0 {
            continue;
        }
        let does = if found.total == 1 { m.does.0 } else { m.does.1 };
        let msg = format!("{} {does}", name_plans(&found));
        match seen.get(&m.element) {
            Some((s, _)) if *s <= m.severity => {}
            _ => {
                seen.insert(m.element, (m.severity, msg));
            }
        }
    }
    for (el, (sev, msg)) in seen {
        let hint = if sev == Severity::Error {
            "both cannot be applied as drafted: withdraw one, or re-draft it after the other"
        } else {
            "apply one, re-import, then re-check the other"
        };
        out.add(sev, el, msg, hint);
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn another_open_plan_with_the_same_claims_is_a_duplicate() {
        let net = triangle();
        let mut other = description_only();
        other.header.plan_id = "other-plan".into();
        net.db.register_plan(&other, "other.md").expect("register");
        let o = run(&CHECK, &net, &description_only());
        assert!(
            has(
                &o,
                Severity::Warning,
                "other.md) drafts the same change: a duplicate"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn no_other_open_plan_passes() {
        assert!(run(&CHECK, &triangle(), &description_only()).passed());
    }
}
