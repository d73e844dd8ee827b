//! Workflows through the binary: lenient loading, check, render, routing from a broken
//! folder; and the routing table over the shipped workflows.

use crate::common::{crate_dir, olav};
use olav::agents::NETOPS;
use olav::workflow::route::{route, Route};
use olav::workflow::{load, AgentDir};

const VALID: &str = r#"
schema_version: 1
name: link_audit
title: Link audit
trigger: 'audit intent ("audit / inspect")'
steps:
  - agent: analyzer
    prompt: <the original user request>
  - agent: reporter
    prompt: '"Pre-check the plan at <path>"'
"#;

/// One file per skip reason, with a word its reason must contain.
const BROKEN: &[(&str, &str, &str)] = &[
    ("a_malformed", "name: x\nsteps: [\n  - agent: analyzer\n", "malformed YAML"),
    ("b_list", "- agent: analyzer\n- agent: reporter\n", "top level is not a mapping"),
    ("c_version", "schema_version: 2\nname: c\nsteps:\n  - {agent: analyzer, prompt: x}\n  - {agent: reporter, prompt: <path>}\n", "schema_version is 2"),
    ("d_one_step", "name: d\nsteps:\n  - {agent: analyzer, prompt: x}\n", "1 step(s)"),
    ("e_no_prompt", "name: e\nsteps:\n  - {agent: analyzer, prompt: x}\n  - {agent: reporter}\n", "step 2 lacks prompt"),
    ("f_agent", "name: f\nsteps:\n  - {agent: analyzer, prompt: x}\n  - {agent: planner, prompt: <path>}\n", "names agent 'planner'"),
    ("g_headers", "name: g\nsteps:\n  - {agent: analyzer, prompt: x}\n  - {agent: reporter, prompt: <path>}\nassembly:\n  headers: [One]\n", "1 entries for 2 steps"),
    ("h_dup", VALID, "already taken by workflows/a_valid.workflow.yaml"),
];

fn broken_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let w = dir.path().join("workflows");
    std::fs::create_dir_all(&w).expect("mkdir");
    std::fs::write(w.join("a_valid.workflow.yaml"), VALID).expect("write");
    for (name, text, _) in BROKEN {
        std::fs::write(w.join(format!("{name}.workflow.yaml")), text).expect("write");
    }
    std::fs::write(w.join("README.md"), "not a workflow").expect("write");
    dir
}

#[test]
fn shipped_workflows_check_clean() {
    let out = olav(crate_dir())
        .args(["workflows", "check"])
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("OK: 3 loaded, 0 skipped"), "{text}");
    assert!(
        text.contains("(change_plan)")
            && text.contains("(decommission_impact)")
            && text.contains("(custom_plan)"),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
}

#[test]
fn each_broken_file_is_skipped_with_its_own_reason() {
    let dir = broken_dir();
    let out = olav(crate_dir())
        .args(["workflows", "check", "--agent-dir"])
        .arg(dir.path())
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("1 loaded, 8 skipped"), "{text}");
    assert!(
        text.contains("loaded   workflows/a_valid.workflow.yaml  (link_audit)"),
        "{text}"
    );
    for (name, _, reason) in BROKEN {
        let at = text
            .find(&format!("skipped  workflows/{name}.workflow.yaml"))
            .unwrap_or_else(|| panic!("{name} not reported as skipped: {text}"));
        let block: String = text[at..].lines().take(2).collect::<Vec<_>>().join("\n");
        assert!(
            block.contains(reason),
            "{name}: expected '{reason}' in:\n{block}"
        );
    }
    assert!(!text.contains("README"), "non-workflow files are not read");
}

#[test]
fn the_tool_still_starts_and_routes_with_a_broken_folder() {
    let dir = broken_dir();
    let out = olav(dir.path())
        .args(["--agent", "netops", "--agent-dir"])
        .arg(dir.path())
        .arg("Audit the uplinks of alpha-border-1")
        .assert();
    let o = out.get_output();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stdout.contains("## analyzer") && stdout.contains("## reporter"),
        "{stdout}"
    );
    assert!(stdout.contains("link_audit"), "{stdout}");
    assert!(
        stderr.contains("workflows/b_list.workflow.yaml skipped"),
        "skips are logged: {stderr}"
    );
}

#[test]
fn a_word_claimed_twice_is_a_conflict() {
    let dir = tempfile::tempdir().expect("tempdir");
    let w = dir.path().join("workflows");
    std::fs::create_dir_all(&w).expect("mkdir");
    std::fs::write(w.join("one.workflow.yaml"), VALID).expect("write");
    std::fs::write(
        w.join("two.workflow.yaml"),
        VALID
            .replace("link_audit", "deep_audit")
            .replace("inspect", "inspecting"),
    )
    .expect("write");
    let out = olav(crate_dir())
        .args(["workflows", "check", "--agent-dir"])
        .arg(dir.path())
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("conflict: intent word 'audit' is claimed by link_audit (workflows/one.workflow.yaml) and deep_audit"), "{text}");
    assert!(
        text.contains("conflict: intent word 'inspect'"),
        "inflections collide too: {text}"
    );
}

#[test]
fn render_is_identical_across_runs_and_ordered() {
    let a = olav(crate_dir())
        .args(["workflows", "render"])
        .assert()
        .success();
    let b = olav(crate_dir())
        .args(["workflows", "render"])
        .assert()
        .success();
    let (a, b) = (&a.get_output().stdout, &b.get_output().stdout);
    assert_eq!(a, b);
    let text = String::from_utf8_lossy(a);
    let pos = |s: &str| {
        text.find(s)
            .unwrap_or_else(|| panic!("'{s}' missing from:\n{text}"))
    };
    assert!(pos("## Change-plan workflow") < pos("## Decommission-impact workflow"));
    let cp = pos("## Change-plan workflow");
    let (s1, s2, s3) = (
        cp + text[cp..]
            .find("1. Call analyzer")
            .unwrap_or(usize::MAX / 4),
        cp + text[cp..]
            .find("2. Call reporter")
            .unwrap_or(usize::MAX / 4),
        cp + text[cp..]
            .find("3. Call simulator")
            .unwrap_or(usize::MAX / 4),
    );
    assert!(s1 < s2 && s2 < s3, "steps in order");
    assert!(text.contains(
        "## Decommission plan\n## Pre-check (reporter)\n## Formal verification (Batfish)"
    ));
}

#[derive(Debug, PartialEq)]
enum Expect {
    Change,
    Decom,
    Ask,
    Nothing,
}

#[test]
fn routing_table() {
    use Expect::*;
    let cat = load(&NETOPS, &AgentDir::Bundled).expect("bundled workflows load");
    let table: &[(&str, Expect)] = &[
        ("Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router", Change),
        ("Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose", Decom),
        ("add a static route to 10.99.0.0/16 on alpha-dist-1", Change),
        ("Adding a second uplink to Telstra on beta-border-1", Change),
        ("ADD A LOOPBACK ON ALPHA-CORE-1!", Change),
        ("please modify the description of Gi0/0/3 on alpha-border-1", Change),
        ("modifying the MTU on alpha-core-1 Ethernet2", Change),
        ("I want to change the MTU of Et2 on alpha-core-2", Change),
        ("changes needed: shut down Gi0/0/3", Change),
        ("configure a new BGP neighbor for AARNet", Change),
        ("Configuring ebgp-multihop on the AARNet session", Change),
        ("make the AARNet uplink redundant", Change),
        ("we need redundancy towards AARNet", Change),
        ("added a peer, please plan it", Change),
        ("在 alpha 边界路由器上新增一条到 AARNet 的冗余 eBGP 上联", Change),
        ("修改 alpha-core-1 的 Ethernet2 描述", Change),
        ("变更 beta-border-1 的 MTU", Change),
        ("冗余上联", Change),
        ("decommission alpha-br-2960-2", Decom),
        ("Decommissioning alpha-br-3560: what do we lose?", Decom),
        ("decommissioned switch impact report", Decom),
        ("remove the link between alpha-dist-1 and alpha-br-3560", Decom),
        ("Removing the Telstra peer from beta-border-1", Decom),
        ("removal of interface Gi0/0/3", Decom),
        ("retire beta-acc-2", Decom),
        ("retiring the old 2960s", Decom),
        ("delete the BGP peer 203.0.113.2", Decom),
        ("deleting interface Ethernet11 on alpha-core-1", Decom),
        ("tear down the WAN link alpha-core-2 to beta-core-2", Decom),
        ("Tearing down beta-dist-2 — blast radius?", Decom),
        ("退役 alpha-br-3560 交换机", Decom),
        ("下线 beta-acc-2，会影响什么", Decom),
        ("拆除 alpha-core-1 到 beta-core-1 的链路", Decom),
        ("remove the old uplink and add a new one", Ask),
        ("decommission alpha-br-3560 and add its VLANs to alpha-acc-1", Ask),
        ("退役旧交换机并新增一台", Ask),
        ("change and delete", Ask),
        ("show me the BGP sessions of alpha-border-1", Nothing),
        ("what is the address of alpha-core-1 Loopback0?", Nothing),
        ("hello", Nothing),
        ("", Nothing),
        ("list the addresses on alpha-dist-1", Nothing),
        ("which channel groups exist on beta-dist-1", Nothing),
        ("plan the window for Thursday", Nothing),
        ("audit alpha-border-1", Nothing),
    ];
    assert!(table.len() >= 40);
    for (request, expected) in table {
        let got = match route(&cat, request) {
            Route::Workflow { workflow, .. } if workflow.name == "change_plan" => Change,
            Route::Workflow { workflow, .. } if workflow.name == "decommission_impact" => Decom,
            Route::Workflow { workflow, .. } => panic!("unexpected workflow {}", workflow.name),
            Route::Ambiguous { candidates } => {
                assert_eq!(candidates.len(), 2, "{request}");
                Ask
            }
            Route::None => Nothing,
        };
        assert_eq!(&got, expected, "request: {request}");
    }
}

#[test]
fn render_matches_its_snapshot() {
    let out = olav(crate_dir())
        .args(["workflows", "render"])
        .assert()
        .success();
    insta::assert_snapshot!(
        "workflows_render",
        String::from_utf8_lossy(&out.get_output().stdout)
    );
}

#[test]
fn agents_listing_matches_its_snapshot() {
    let out = olav(crate_dir())
        .args(["agents", "--format", "json"])
        .assert()
        .success();
    insta::assert_snapshot!(
        "agents_json",
        String::from_utf8_lossy(&out.get_output().stdout)
    );
}
