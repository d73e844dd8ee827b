//! The pipeline end to end: both requests of PRODUCT.md through the binary, the
//! analyzer's reading of twenty phrasings, the circuit breaker inside a run, and the
//! failure cases (plan deleted between steps, unwritable exports, unknown device).

use crate::common::{self, olav};

use olav::agents::capability::Tools;
use olav::agents::{AgentFactory, NetopsAgents, RunEnv, StepError, StepRunner, NETOPS};
use olav::engine::breaker::ErrorClass;
use olav::engine::{Engine, RunStatus, Silent};
use olav::plan::Plan;
use olav::workflow::{load, AgentDir};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

const CHANGE: &str = "Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router";
const DECOM: &str = "Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose";

fn today() -> String {
    chrono::Local::now().format("%Y-%m-%d").to_string()
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

/// A Batfish endpoint where nothing listens.
fn absent_batfish() -> olav::agents::capability::BatfishSettings {
    olav::agents::capability::BatfishSettings {
        endpoint: olav::batfish::client::Endpoint {
            host: "127.0.0.1".into(),
            port: 9,
            ssl: false,
            apikey: String::new(),
        },
        ..Default::default()
    }
}

fn demo_db(dir: &Path) -> PathBuf {
    let db = dir.join("state.db");
    common::state_db(&db, &olav::demo::parsed().expect("demo parses"));
    db
}

#[test]
fn both_product_requests_draft_a_plan_and_stack_three_headers() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (request, headers, file) in [
        (
            CHANGE,
            [
                "## Draft",
                "## Pre-check (reporter)",
                "## Formal verification (Batfish)",
            ],
            format!("add-uplink-aarnet-alpha-border-1_{}.md", today()),
        ),
        (
            DECOM,
            [
                "## Decommission plan",
                "## Pre-check (reporter)",
                "## Formal verification (Batfish)",
            ],
            format!("decommission-alpha-br-3560_{}.md", today()),
        ),
    ] {
        let out = olav(tmp.path())
            .args(["--agent", "netops", request])
            .assert()
            .success();
        let text = stdout(&out);
        let pos: Vec<usize> = headers
            .iter()
            .map(|h| {
                text.find(h)
                    .unwrap_or_else(|| panic!("{h} missing:\n{text}"))
            })
            .collect();
        assert!(
            pos.windows(2).all(|w| w[0] < w[1]),
            "headers in order:\n{text}"
        );
        // The verdict comes first: the worst, then each step's.
        let first = text.lines().next().unwrap_or_default();
        let expected = if request == CHANGE {
            "Verdict UNVERIFIED — Pre-check (reporter) PASS · Formal verification (Batfish) UNVERIFIED"
        } else {
            "Verdict WARN — Pre-check (reporter) WARN · Formal verification (Batfish) UNVERIFIED"
        };
        assert_eq!(first, expected, "{text}");
        let path = tmp.path().join("exports/change_plans").join(&file);
        assert!(path.is_file(), "{} not written:\n{text}", path.display());
        assert!(
            text.contains(&format!("PLAN_PATH: exports/change_plans/{file}")),
            "{text}"
        );
        let plan = Plan::from_markdown(&std::fs::read_to_string(&path).expect("read plan"))
            .expect("plan reads back");
        assert_eq!(plan.header.request, request);
        assert_eq!(plan.header.state_version, 1);
        assert!(plan
            .pre_change
            .contains(&format!("olav precheck exports/change_plans/{file}")));
    }
    let change = std::fs::read_to_string(tmp.path().join(format!(
        "exports/change_plans/add-uplink-aarnet-alpha-border-1_{}.md",
        today()
    )))
    .expect("plan");
    let plan = Plan::from_markdown(&change).expect("plan");
    assert_eq!(plan.implementation.len(), 1);
    let cfg = &plan.implementation[0];
    assert_eq!(
        (cfg.device.as_str(), cfg.os.as_str()),
        ("alpha-border-1", "ios")
    );
    assert!(
        cfg.text.contains("interface GigabitEthernet0/0/3"),
        "{}",
        cfg.text
    );
    assert!(
        cfg.text.contains("ip address 203.0.113.5 255.255.255.252"),
        "{}",
        cfg.text
    );
    assert!(
        cfg.text.contains("neighbor 203.0.113.6 remote-as 7575"),
        "{}",
        cfg.text
    );
    assert!(
        cfg.text
            .contains("neighbor 203.0.113.6 route-map AARNET-IN in"),
        "{}",
        cfg.text
    );
    assert_eq!(plan.claimed_blast_radius, Some(0));
    assert!(plan.blast_radius.contains(
        "single points of failure: device alpha-border-1, session alpha-border-1 – AS7575"
    ));

    let decom = std::fs::read_to_string(tmp.path().join(format!(
        "exports/change_plans/decommission-alpha-br-3560_{}.md",
        today()
    )))
    .expect("plan");
    let plan = Plan::from_markdown(&decom).expect("plan");
    assert_eq!(plan.claimed_blast_radius, Some(3));
    assert!(plan
        .blast_radius
        .contains("| Isolated devices | alpha-br-2960-1, alpha-br-2960-2 |"));
    for s in [
        "alpha-branch-voice (critical, down)",
        "alpha-branch-data (high, down)",
        "alpha-branch-wifi (medium, down)",
    ] {
        assert!(plan.summary.contains(s), "{s} in summary: {}", plan.summary);
    }
    let devices: Vec<&str> = plan
        .implementation
        .iter()
        .map(|b| b.device.as_str())
        .collect();
    assert_eq!(
        devices,
        vec!["alpha-dist-1"],
        "only the reachable neighbor is reconfigured"
    );
    for step in [
        "Drain.",
        "Apply the configuration",
        "Power off and unrack",
        "Update the source of truth",
    ] {
        assert!(plan.implementation_notes.contains(step), "{step}");
    }

    // Both runs are recorded; the second can be shown again.
    let list = olav(tmp.path()).args(["runs", "list"]).assert().success();
    let text = stdout(&list);
    assert!(
        text.contains("change_plan") && text.contains("decommission_impact"),
        "{text}"
    );
    let show = olav(tmp.path())
        .args(["runs", "show", "2"])
        .assert()
        .success();
    let text = stdout(&show);
    assert!(
        text.contains("## Decommission plan") && text.contains("Run 2 · decommission_impact"),
        "{text}"
    );

    // A second identical request never overwrites the first plan.
    olav(tmp.path())
        .args(["--agent", "netops", DECOM])
        .assert()
        .success();
    assert!(tmp
        .path()
        .join(format!(
            "exports/change_plans/decommission-alpha-br-3560_{}-2.md",
            today()
        ))
        .is_file());
}

#[test]
fn an_unknown_device_asks_with_the_closest_names() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args(["--agent", "netops", "decommission alpha-br-3650 please"])
        .assert()
        .code(2);
    let text = stdout(&out);
    assert!(
        text.contains("There is no device 'alpha-br-3650'"),
        "{text}"
    );
    assert!(text.contains("  - alpha-br-3560"), "{text}");
    assert!(text.contains("needs clarification"), "{text}");
    assert!(
        !tmp.path().join("exports/change_plans").exists(),
        "nothing drafted"
    );
    let list = olav(tmp.path())
        .args(["runs", "list", "--format", "json"])
        .assert()
        .success();
    let rows: serde_json::Value = serde_json::from_slice(&list.get_output().stdout).expect("json");
    assert_eq!(rows[0]["status"], "needs_input");
}

#[test]
fn an_unwritable_exports_folder_fails_clearly_and_is_recorded() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(tmp.path().join("not-a-folder"), "x").expect("write");
    let out = olav(tmp.path())
        .args([
            "--exports",
            "not-a-folder/exports",
            "--agent",
            "netops",
            DECOM,
        ])
        .assert()
        .code(2);
    let text = stdout(&out);
    assert!(text.contains("**Step 1 (analyzer) failed**"), "{text}");
    assert!(
        text.contains("cannot create not-a-folder/exports/change_plans"),
        "{text}"
    );
    assert!(
        text.contains("skipped: step 1 (analyzer) named no artifact"),
        "{text}"
    );
    let show = olav(tmp.path())
        .args(["runs", "show", "1", "--format", "json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&show.get_output().stdout).expect("json");
    assert_eq!(v["run"]["status"], "failed");
    assert_eq!(v["steps"][0]["error_class"], "environment");
    assert_eq!(
        v["steps"][0]["attempts"], 2,
        "an environment failure is retried once"
    );
}

/// The real agents, except that the plan disappears right after the analyzer writes it.
struct DeletingFactory;

struct DeleteAfter(Box<dyn StepRunner>);

impl StepRunner for DeleteAfter {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        let reply = self.0.run(prompt)?;
        let c = olav::engine::contract::Contract::parse(&reply);
        if let Some(p) = c.plan_path {
            std::fs::remove_file(p)
                .map_err(|e| StepError::new(ErrorClass::Environment, e.to_string()))?;
        }
        Ok(reply)
    }
}

impl AgentFactory for DeletingFactory {
    fn make(&self, name: &str, env: &RunEnv) -> Option<Box<dyn StepRunner>> {
        let real = NetopsAgents.make(name, env)?;
        Some(if name == "analyzer" {
            Box::new(DeleteAfter(real))
        } else {
            real
        })
    }
}

#[test]
fn a_plan_deleted_between_steps_gives_a_clear_partial_answer() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = demo_db(tmp.path());
    let exports = tmp.path().join("exports");
    let cat = load(&NETOPS, &AgentDir::Bundled).expect("workflows");
    let wf = cat
        .workflows
        .iter()
        .find(|w| w.name == "decommission_impact")
        .expect("wf");
    let engine = Engine {
        orchestrator: &NETOPS,
        agents: &DeletingFactory,
        db,
        exports,
        today: today(),
        progress: &Silent,
        batfish: absent_batfish(),
    };
    let o = engine.run(wf, DECOM);
    assert_eq!(o.status, RunStatus::Partial);
    assert_eq!(olav::cli::request::exit_of(&o) as i32, 3);
    let reporter = &o.steps[1];
    assert!(
        reporter
            .error
            .as_deref()
            .is_some_and(|e| e.contains("No such file")),
        "{reporter:?}"
    );
    assert_eq!(reporter.error_class, Some(ErrorClass::Parameter));
    assert!(o.steps[2].skipped);
    assert!(
        o.answer.contains("**Step 2 (reporter) failed**"),
        "{}",
        o.answer
    );
    assert!(
        o.answer
            .contains("PARTIAL RESULT — failed: step 2 (reporter)"),
        "{}",
        o.answer
    );
    // No overall verdict is claimed for a run that did not complete.
    assert!(
        o.answer.starts_with(
            "PARTIAL RESULT, no overall verdict — did not complete: Pre-check (reporter)"
        ),
        "{}",
        o.answer
    );
    assert!(!o.answer.contains("· verdict "), "{}", o.answer);
    assert!(o.run_id.is_some(), "recorded");
}

/// A stand-in agent whose every attempt calls one failing tool three times.
struct Flaky {
    tools: Tools,
    executed: Arc<AtomicU32>,
}

impl StepRunner for Flaky {
    fn run(&mut self, _prompt: &str) -> Result<String, StepError> {
        let mut last = None;
        for _ in 0..3 {
            let executed = self.executed.clone();
            let r: Result<(), _> =
                self.tools
                    .call("state.query", serde_json::json!({"sql": "x"}), move || {
                        executed.fetch_add(1, Ordering::SeqCst);
                        Err((ErrorClass::Environment, "database is locked".to_owned()))
                    });
            last = r.err();
        }
        Err(last
            .map(StepError::from)
            .unwrap_or_else(|| StepError::new(ErrorClass::Environment, "?")))
    }
}

struct FlakyFactory(Arc<AtomicU32>);

impl AgentFactory for FlakyFactory {
    fn make(&self, _name: &str, env: &RunEnv) -> Option<Box<dyn StepRunner>> {
        Some(Box::new(Flaky {
            tools: env.tools.clone(),
            executed: self.0.clone(),
        }))
    }
}

#[test]
fn the_breaker_short_circuits_then_stops_the_run() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = demo_db(tmp.path());
    let cat = load(&NETOPS, &AgentDir::Bundled).expect("workflows");
    let wf = cat
        .workflows
        .iter()
        .find(|w| w.name == "change_plan")
        .expect("wf");
    let executed = Arc::new(AtomicU32::new(0));
    let engine = Engine {
        orchestrator: &NETOPS,
        agents: &FlakyFactory(executed.clone()),
        db,
        exports: tmp.path().join("exports"),
        today: today(),
        progress: &Silent,
        batfish: absent_batfish(),
    };
    let o = engine.run(wf, CHANGE);
    // Attempt 1: calls 1–3 run and fail. Retry: call 4 and 5 are short-circuited, call 6 stops the run.
    assert_eq!(
        executed.load(Ordering::SeqCst),
        3,
        "the 4th identical call is not executed"
    );
    assert_eq!(o.status, RunStatus::Partial);
    assert_eq!(olav::cli::request::exit_of(&o) as i32, 3);
    assert_eq!(o.steps[0].attempts, 2);
    assert!(
        o.steps[0]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("run stopped")),
        "{:?}",
        o.steps[0]
    );
    assert!(o.steps[1].skipped && o.steps[2].skipped);
    assert!(
        o.answer.contains("PARTIAL RESULT — stopped by the circuit breaker after repeated failures of state.query({\"sql\":\"x\"})"),
        "{}",
        o.answer
    );
}

#[test]
fn the_decommission_plan_matches_its_snapshot() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args(["-q", "--format", "json", DECOM])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    let path = v["steps"][0]["artifact"]
        .as_str()
        .expect("plan path")
        .to_owned();
    let text = std::fs::read_to_string(tmp.path().join(&path)).expect("plan");
    // Ids, times and dates change from run to run; everything else is the format.
    let redacted: String = text
        .lines()
        .map(|l| {
            if l.starts_with("plan_id: ") {
                "plan_id: [id]".to_owned()
            } else if l.starts_with("created: ") {
                "created: [time]".to_owned()
            } else {
                l.replace(&today(), "[date]")
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("decommission_plan", redacted);
}
