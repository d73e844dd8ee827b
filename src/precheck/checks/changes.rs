//! The change does something olav models: a device the plan gives lines to whose model
//! does not change is a warning — olav cannot tell what those lines do, so no other
//! check can judge them. What does change is the report's first section ("What the
//! change does", [`Context::changes`]), the evidence itself: it is not repeated as
//! findings.

use super::{Check, Context, Findings, Outcome, Severity};
use crate::import::parse::parser_for;
use crate::model::Vendor;
use crate::precheck::semantic;
use crate::state::StateError;

const CODE: &str = "precheck.changes";

/// The check.
pub const CHECK: Check = Check {
    codes: &[CODE],
    name: "the change does something olav models",
    reads:
        "the plan's lines for each device, and each configured device's stored and candidate models",
    run,
};

/// The plan's configuration lines for `device`: comments (`!`, `#`) and blank lines aside.
fn lines_for<'p>(cx: &'p Context, device: &str) -> Vec<&'p str> {
    cx.plan
        .implementation
        .iter()
        .filter(|b| b.device == device)
        .flat_map(|b| b.text.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('!') && !l.starts_with('#'))
        .collect()
}

/// `one` for a single line, else `many` with the number in place of `{}`.
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        one.to_owned()
    } else {
        many.replace("{}", &n.to_string())
    }
}

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut f = Findings::new(CODE);
    if cx.changes.is_empty() {
        return Ok(f.not_applicable());
    }
    for d in cx.changes.iter().filter(|d| d.changes.is_empty()) {
        // A device the state does not hold is the targets check's error.
        let Some((os, stored)) = cx.db.os_and_config(&d.device)? else {
            continue;
        };
        let lines = lines_for(cx, &d.device);
        let Some(first) = lines.first() else {
            continue;
        };
        let text = lines.join("\n");
        // Already there: every line is a stored one and applying them leaves the text.
        let held: std::collections::HashSet<&str> = stored.lines().map(str::trim).collect();
        let already = lines.iter().all(|l| held.contains(l))
            && crate::dialect::candidate_text(Vendor::from_os(&os), &stored, &text) == stored;
        // What olav reads in the lines on their own, removals aside: something, when they
        // set what they then undo (a change and its rollback in one plan).
        // Raw lines: indentation is structure (an IOS-XR `router static` block).
        let setting: Vec<&str> = cx
            .plan
            .implementation
            .iter()
            .filter(|b| b.device == d.device)
            .flat_map(|b| b.text.lines())
            .filter(|l| !crate::dialect::readable::removes(l))
            .collect();
        let parsed = parser_for(Vendor::from_os(&os)).parse(&setting.join("\n"));
        let read = !semantic::diff(&crate::model::DeviceConfig::default(), &parsed).is_empty();
        // Quoted in backticks: one of its own would end the quote.
        let shown = crate::output::one_line_printable(first).replace('`', "'");
        if already {
            f.add(
                Severity::Warning,
                d.device.clone(),
                format!(
                    "{} already in its stored configuration: the plan changes nothing on it",
                    count(
                        lines.len(),
                        "the plan's line for it is",
                        "the plan's {} lines for it are"
                    )
                ),
                "check that these are the lines you mean, and that the state is current",
            );
        } else if read {
            f.add(
                Severity::Info,
                d.device.clone(),
                "its model is as stored: the plan's lines undo on it what they change",
                "none, if the plan is meant to leave it as it is",
            );
        } else {
            f.add(
                Severity::Warning,
                d.device.clone(),
                format!(
                    "nothing olav models changes on it: olav cannot tell what {} (first: `{shown}`)",
                    count(lines.len(), "this line does", "these {} lines do")
                ),
                "review these lines yourself: no other check can judge them (olav models interfaces, static routes, OSPF, IS-IS, EIGRP, BGP, route-maps, prefix-lists, community and AS-path lists, and filters)",
            );
        }
    }
    Ok(f.ran())
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{self, device};
    use super::CHECK;
    use crate::precheck::Severity;

    fn lines(name: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/semantic/changes")
            .join(format!("{name}.txt"));
        std::fs::read_to_string(p).expect("fixtures/semantic/changes")
    }

    fn custom(block: &str) -> crate::plan::Plan {
        testkit::plan("custom", vec![device("r1")], &[("r1", block)], &[])
    }

    #[test]
    fn lines_olav_does_not_model_are_a_warning() {
        let net = testkit::triangle();
        let o = testkit::run(&CHECK, &net, &custom(&lines("unmodelled")));
        assert!(o.applies);
        assert_eq!(o.findings.len(), 1, "{:?}", o.findings);
        assert_eq!(o.findings[0].element, "r1");
        assert!(testkit::has(
            &o,
            Severity::Warning,
            "olav cannot tell what this line does (first: `snmp-server community public RO`)"
        ));
    }

    #[test]
    fn lines_already_there_change_nothing() {
        let net = testkit::triangle();
        let o = testkit::run(&CHECK, &net, &custom(&lines("r1-already")));
        assert!(
            testkit::has(&o, Severity::Warning, "already in its stored configuration"),
            "{:?}",
            o.findings
        );
    }

    #[test]
    fn the_report_says_what_the_change_does_first_and_as_text() {
        let net = testkit::triangle();
        let mut plan = custom(&lines("hostile-description"));
        plan.implementation.push(crate::plan::ConfigBlock {
            device: "r2".into(),
            os: "ios".into(),
            text: lines("unmodelled"),
        });
        let opts = crate::precheck::Options::default();
        let r = crate::precheck::precheck(&net.db, "plan.md", &plan.to_markdown(), &opts)
            .expect("pre-check");
        let md = r.to_markdown();
        let section = md.find("## What the change does").expect("the section");
        assert!(section < md.find("## Findings").expect("findings"));
        assert!(md.contains(
            "| r1 | interface GigabitEthernet0/0 | description to r2 → &lt;img src=x onerror=alert(1)&gt; \\| \\*\\*b\\*\\* \\[l\\](javascript:x) |"
        ), "{md}");
        assert!(
            md.contains("| r2 | — | nothing olav models changes |"),
            "{md}"
        );
        assert!(r
            .findings
            .iter()
            .any(|f| f.code == "precheck.changes" && f.element == "r2"));
        let json = serde_json::to_value(&r).expect("serializes");
        assert_eq!(json["changes"][0]["device"], "r1");
        assert_eq!(json["changes"][0]["changes"][0]["status"], "changed");
        assert_eq!(
            json["changes"][0]["changes"][0]["fields"][0]["field"],
            "description"
        );
    }

    #[test]
    fn lines_that_undo_what_they_change_are_info() {
        let net = testkit::triangle();
        let both = format!("{}{}", lines("shut"), lines("no-shut"));
        let o = testkit::run(&CHECK, &net, &custom(&both));
        assert!(o.passed(), "{:?}", o.findings);
        assert!(testkit::has(
            &o,
            Severity::Info,
            "the plan's lines undo on it what they change"
        ));
    }

    #[test]
    fn a_change_olav_models_passes_and_is_listed() {
        let net = testkit::triangle();
        let (plan, opts) = (testkit::description_only(), Default::default());
        let cx = testkit::context(&net, &plan, &opts);
        let o = (CHECK.run)(&cx).expect("runs");
        assert!(o.passed() && o.findings.is_empty(), "{:?}", o.findings);
        assert_eq!(cx.changes.len(), 1);
        assert_eq!(
            cx.changes[0].changes[0].to_string(),
            "interface GigabitEthernet0/0: description none → uplink to r1"
        );
    }
}
