//! Sessions the recomputed blast radius loses that the candidate did not end itself: the
//! change splits the network between their two ends.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// No session is left without a path between its two ends.
pub const CHECK: Check = Check {
    codes: &["precheck.sessions_split"],
    name: "no BGP session is left without a path between its two ends",
    reads: "the recomputed blast radius's split sessions; the candidate's lost sessions",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    for lost in &cx.blast.sessions_split {
        let ended_here = cx
            .cand
            .lost_sessions
            .iter()
            .any(|s| format!("{} → {}", s.device, s.peer) == *lost);
        if !ended_here {
            out.add(
                Severity::Warning,
                lost.clone(),
                "no path is left between the two ends of this session: the change splits the network",
                "keep a second path between the two parts, or accept that routing between them stops",
            );
        }
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::dialect::cisco::sample::bgp;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn a_session_whose_ends_the_change_splits_warns() {
        let (net, p, opts) = (triangle(), description_only(), Default::default());
        let mut cx = context(&net, &p, &opts);
        cx.blast.sessions_split = vec!["r1 → 10.0.12.2".into()];
        let o = (CHECK.run)(&cx).expect("runs");
        assert!(
            has(&o, Severity::Warning, "the change splits the network"),
            "{o:?}"
        );
    }

    #[test]
    fn a_session_the_candidate_ends_itself_is_not_said_twice() {
        let (net, opts) = (triangle(), Default::default());
        let p = plan(
            "remove_session",
            vec![device("r1")],
            &[("r1", &bgp(65001, " no neighbor 10.0.12.2"))],
            &[],
        );
        let mut cx = context(&net, &p, &opts);
        cx.blast.sessions_split = vec!["r1 → 10.0.12.2".into()];
        assert!((CHECK.run)(&cx).expect("runs").passed());
        assert!(run(&CHECK, &net, &description_only()).passed());
    }
}
