//! The state is not older than the allowed age, judged from the collection time the
//! snapshot states (`collected_at` in its state file), never from file times.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// State is fresh.
pub const CHECK: Check = Check {
    codes: &["precheck.freshness"],
    name: "state is fresh",
    reads: "the state's collection time; the options' maximum age",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let st = &cx.state;
    let opts = cx.opts;
    // Without a stated time there is nothing to judge: an info, so that a WARN keeps
    // meaning something was found on imports that state none.
    let Some(at) = st.collected_at.as_deref() else {
        out.add(
            Severity::Info,
            "state",
            "the snapshot states no collection time: how old the state is is not known",
            "set collected_at in the snapshot's state.yaml",
        );
        return Ok(out.not_applicable());
    };
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(at) {
        let age = chrono::Utc::now().signed_duration_since(t);
        if age > opts.max_age {
            out.add(
                Severity::Warning,
                "state",
                format!("the state was collected {} days ago ({at})", age.num_days()),
                "import a fresh snapshot before the window",
            );
        }
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn state_older_than_allowed_warns() {
        let opts = crate::precheck::Options {
            max_age: chrono::Duration::seconds(1),
        };
        let o = run_with(&CHECK, &triangle(), &description_only(), &opts);
        assert!(
            has(&o, Severity::Warning, "the state was collected"),
            "{o:?}"
        );
    }

    #[test]
    fn state_within_the_allowed_age_passes() {
        let opts = crate::precheck::Options {
            max_age: chrono::Duration::days(100_000),
        };
        assert!(run_with(&CHECK, &triangle(), &description_only(), &opts).passed());
    }
}
