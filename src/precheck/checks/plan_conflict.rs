//! The plan claims nothing another open plan claims.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;
use std::collections::BTreeMap;

/// No conflict with other open plans.
pub const CHECK: Check = Check {
    codes: &["precheck.plan_conflict"],
    name: "no conflict with other open plans",
    reads: "the plan's claims; other open plans' claims",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let plan = cx.plan;
    let plan_path = cx.plan_path;
    let others = cx.db.claims_of_other_open_plans(&plan.header.plan_id)?;
    if others.is_empty() {
        // No other open plan claims anything: nothing to conflict with.
        return Ok(out.ran());
    }
    let mine = crate::plan::claims::claims(plan);
    let has = |kind: &str, dev: &str, el: &str| {
        mine.iter()
            .any(|c| c.kind == kind && c.device == dev && c.element == el)
    };
    // A plan claiming exactly what this one claims is the same change drafted twice
    // (the same request asked again): said once, not as a conflict per element.
    type ClaimSet<'a> = std::collections::BTreeSet<(&'a str, &'a str, &'a str)>;
    let my_set: ClaimSet = mine
        .iter()
        .map(|c| (c.kind, c.device.as_str(), c.element.as_str()))
        .collect();
    let mut by_plan: BTreeMap<&str, (&str, ClaimSet)> = BTreeMap::new();
    for o in &others {
        by_plan
            .entry(o.plan_id.as_str())
            .or_insert_with(|| (o.path.as_str(), Default::default()))
            .1
            .insert((o.kind.as_str(), o.device.as_str(), o.element.as_str()));
    }
    let duplicates: Vec<&str> = by_plan
        .iter()
        .filter(|(_, (_, set))| !my_set.is_empty() && *set == my_set)
        .map(|(id, _)| *id)
        .collect();
    for id in &duplicates {
        let path = by_plan.get(id).map_or("", |p| p.0);
        out.add(
            Severity::Warning,
            plan_path,
            format!("plan {id} ({path}) drafts the same change: a duplicate"),
            format!("keep one: olav plans withdraw {id}"),
        );
    }
    let mut seen: BTreeMap<(String, String), (Severity, String)> = BTreeMap::new();
    for o in others
        .iter()
        .filter(|o| !duplicates.contains(&o.plan_id.as_str()))
    {
        let (id, kind, dev, el) = (&o.plan_id, &o.kind, &o.device, &o.element);
        let other = format!("plan {id} ({})", o.path);
        let hit = match kind.as_str() {
            "address" if has("address", dev, el) => Some((
                Severity::Error,
                format!("address {el}"),
                format!("{other} assigns the same address"),
            )),
            "subnet" if has("subnet", dev, el) => Some((
                Severity::Error,
                format!("subnet {el}"),
                format!("{other} uses the same subnet"),
            )),
            "session" if has("session", dev, el) => Some((
                Severity::Error,
                format!("{dev} neighbor {el}"),
                format!("{other} configures the same BGP session"),
            )),
            "addresses" if has("addresses", dev, el) => Some((
                Severity::Error,
                format!("{dev} {el}"),
                format!("{other} addresses the same interface"),
            )),
            "interface" if has("interface", dev, el) => Some((
                Severity::Warning,
                format!("{dev} {el}"),
                format!("{other} changes the same interface"),
            )),
            "removes" if has("configures", dev, "") => Some((
                Severity::Error,
                dev.clone(),
                format!("{other} removes this device, which this plan configures"),
            )),
            "configures" if has("removes", dev, "") => Some((
                Severity::Error,
                dev.clone(),
                format!("this plan removes the device {other} configures"),
            )),
            _ => None,
        };
        if let Some((sev, el, msg)) = hit {
            // One finding per element and plan: the most severe.
            let key = (el, id.clone());
            match seen.get(&key) {
                Some((s, _)) if *s <= sev => {}
                _ => {
                    seen.insert(key, (sev, msg));
                }
            }
        }
    }
    for ((el, _), (sev, msg)) in seen {
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
