//! The pre-checks, one file each, registered in one list ([`LIST`]). Each has its stable
//! finding code(s), a name for the report, what it reads, and a `run` that looks at the
//! plan's [`Context`] and says whether it applied and what it found. The runner walks the
//! list, so "passed" and "not applicable" hold for every code the pre-check emits.
//!
//! Adding a check: a file here with a `CHECK`, its entry in [`LIST`] (the report lists
//! passed checks in list order), and its unit tests on a small network (`testkit`).

mod addresses;
mod adjacencies;
mod announcements;
mod as_drafted;
mod blast_claim;
mod blast_unknown;
mod block_os;
mod changes;
mod degraded;
mod drift;
mod filters;
mod freshness;
mod interfaces;
mod isolated;
mod links;
mod lockout;
mod mtu;
mod new_neighbors;
mod passed_on;
mod plan_conflict;
mod reachability;
pub(crate) mod readable;
mod readdressed;
pub(crate) mod redundancy;
mod references;
mod registered_file;
mod rollback;
mod route_shifts;
mod scope;
mod services;
mod sessions_lost;
mod sessions_relied_on;
mod sessions_split;
mod single_points;
mod static_routes;
mod targets;
#[cfg(test)]
pub(crate) mod testkit;
mod withdrawn;

pub use super::context::Context;
use super::{Finding, Severity};
use crate::state::StateError;

/// One pre-check.
pub struct Check {
    /// The finding codes it emits, its own first (`precheck.links`).
    pub codes: &'static [&'static str],
    /// What it checks, as the report's Passed and Not applicable lists name it.
    pub name: &'static str,
    /// What it reads: the parts of the plan, the candidate and the state it looks at.
    pub reads: &'static str,
    /// Runs it on one plan.
    pub run: fn(&Context) -> Result<Outcome, StateError>,
}

/// What a check made of one plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Whether anything in the plan is of its kind (a check that does not apply may
    /// still say something, such as state with no collection time).
    pub applies: bool,
    /// What it found, in the order found.
    pub findings: Vec<Finding>,
}

impl Outcome {
    /// Passed: it applied and found no error and no warning.
    pub fn passed(&self) -> bool {
        self.applies && self.findings.iter().all(|f| f.severity == Severity::Info)
    }
}

/// Findings of one check, under its code.
pub struct Findings {
    code: &'static str,
    list: Vec<Finding>,
}

impl Findings {
    /// An empty list for the check whose code is `code`.
    pub fn new(code: &'static str) -> Findings {
        Findings {
            code,
            list: Vec::new(),
        }
    }

    /// Adds a finding under the check's own code.
    pub fn add(
        &mut self,
        severity: Severity,
        element: impl Into<String>,
        message: impl Into<String>,
        suggestion: impl Into<String>,
    ) {
        let code = self.code;
        self.add_as(code, severity, element, message, suggestion);
    }

    /// Adds a finding under another of the check's codes.
    pub fn add_as(
        &mut self,
        code: &'static str,
        severity: Severity,
        element: impl Into<String>,
        message: impl Into<String>,
        suggestion: impl Into<String>,
    ) {
        self.list.push(Finding {
            code,
            severity,
            element: element.into(),
            message: message.into(),
            suggestion: suggestion.into(),
            path: None,
            covers: Vec::new(),
        });
    }

    /// Adds a finding that groups `covers` (its message names the first few).
    pub fn add_grouped(
        &mut self,
        severity: Severity,
        element: impl Into<String>,
        message: impl Into<String>,
        suggestion: impl Into<String>,
        covers: Vec<String>,
    ) {
        self.add(severity, element, message, suggestion);
        if let Some(last) = self.list.last_mut() {
            last.covers = covers;
        }
    }

    /// Adds a finding under another of the check's codes, with the traced path it names.
    pub fn add_traced(
        &mut self,
        code: &'static str,
        severity: Severity,
        element: impl Into<String>,
        message: impl Into<String>,
        suggestion: impl Into<String>,
        path: crate::precheck::TracedPath,
    ) {
        self.add_as(code, severity, element, message, suggestion);
        if let Some(last) = self.list.last_mut() {
            last.path = Some(Box::new(path));
        }
    }

    /// Adds findings made elsewhere (they carry their code).
    pub fn extend(&mut self, found: impl IntoIterator<Item = Finding>) {
        self.list.extend(found);
    }

    /// The check ran.
    pub fn ran(self) -> Outcome {
        Outcome {
            applies: true,
            findings: self.list,
        }
    }

    /// Nothing in the plan is of the check's kind.
    pub fn not_applicable(self) -> Outcome {
        Outcome {
            applies: false,
            findings: self.list,
        }
    }
}

/// Every pre-check, in the order the report lists them (findings of equal severity keep
/// this order too).
pub const LIST: &[Check] = &[
    readable::CHECK,
    targets::CHECK,
    block_os::CHECK,
    changes::CHECK,
    interfaces::CHECK,
    addresses::CHECK,
    new_neighbors::CHECK,
    sessions_relied_on::CHECK,
    references::CHECK,
    links::CHECK,
    mtu::CHECK,
    sessions_lost::CHECK,
    filters::CHECK,
    adjacencies::CHECK,
    static_routes::CHECK,
    rollback::CHECK,
    as_drafted::CHECK,
    scope::CHECK,
    registered_file::CHECK,
    plan_conflict::CHECK,
    drift::CHECK,
    freshness::CHECK,
    blast_claim::CHECK,
    announcements::CHECK,
    passed_on::CHECK,
    readdressed::CHECK,
    sessions_split::CHECK,
    blast_unknown::CHECK,
    isolated::CHECK,
    lockout::CHECK,
    degraded::CHECK,
    single_points::CHECK,
    services::CHECK,
    redundancy::CHECK,
    reachability::CHECK,
    withdrawn::CHECK,
    route_shifts::CHECK,
];

/// The checks that answer for forwarding (flows, adjacencies, routes): what the static
/// fallback of the verification runs when Batfish does not.
pub const FORWARDING: &[Check] = &[
    reachability::CHECK,
    adjacencies::CHECK,
    withdrawn::CHECK,
    route_shifts::CHECK,
];

/// What running the list gave.
#[derive(Debug, Default)]
pub struct Results {
    /// Every finding, in list order.
    pub findings: Vec<Finding>,
    /// Names of the checks that applied and found nothing.
    pub passed: Vec<String>,
    /// Names of the checks that did not apply.
    pub not_applicable: Vec<String>,
    /// Each check's findings: `findings[start..end]`, by name.
    spans: Vec<(&'static str, std::ops::Range<usize>)>,
}

impl Results {
    /// The findings of the check named `name` (none when it did not run).
    pub fn of(&self, name: &str) -> &[Finding] {
        self.spans
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(&[], |(_, r)| &self.findings[r.clone()])
    }
}

/// Runs every check of the list on the plan's context.
pub fn run_all(cx: &Context) -> Result<Results, StateError> {
    let mut r = Results::default();
    for c in LIST {
        let o = (c.run)(cx)?;
        debug_assert!(
            o.findings.iter().all(|f| c.codes.contains(&f.code)),
            "{} emitted a code it does not declare",
            c.name
        );
        if !o.applies {
            r.not_applicable.push(c.name.to_owned());
        } else if o.passed() {
            r.passed.push(c.name.to_owned());
        }
        let start = r.findings.len();
        r.findings.extend(o.findings);
        r.spans.push((c.name, start..r.findings.len()));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::{run_all, testkit, LIST};
    use crate::precheck::Options;

    #[test]
    fn each_check_is_a_finding_a_pass_or_not_applicable() {
        let net = testkit::triangle();
        let opts = Options {
            max_age: chrono::Duration::days(100_000),
        };
        let quiet = testkit::description_only();
        let r = run_all(&testkit::context(&net, &quiet, &opts)).expect("runs");
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        assert_eq!(r.passed.len() + r.not_applicable.len(), LIST.len());
        assert_eq!(r.passed[0], "the plan reads");
        let mut cut = testkit::description_only();
        cut.implementation[0].text =
            "interface GigabitEthernet0/0\n shutdown\ninterface GigabitEthernet0/1\n shutdown"
                .into();
        let r = run_all(&testkit::context(&net, &cut, &opts)).expect("runs");
        let isolated = "no device is cut off from every border, core and external peer";
        assert!(r.findings.iter().any(|f| f.code == "precheck.isolated"));
        assert!(!r.passed.iter().any(|p| p == isolated), "{:?}", r.passed);
        assert!(!r.not_applicable.iter().any(|p| p == isolated));
    }

    #[test]
    fn every_code_and_name_belongs_to_one_check() {
        let mut codes: Vec<&str> = LIST.iter().flat_map(|c| c.codes.iter().copied()).collect();
        let n = codes.len();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), n, "a code is declared twice");
        let mut names: Vec<&str> = LIST.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LIST.len(), "a name is used twice");
        assert!(LIST
            .iter()
            .all(|c| !c.codes.is_empty() && !c.reads.is_empty()));
        assert!(codes.iter().all(|c| c.starts_with("precheck.")));
    }
}
