//! The HTML report through the binary: the page beside each product request's plan
//! (verdict first, reading, changes and rollback, findings, verification, the picture
//! of what it touches), `olav report` to write it again, `blast-radius --html`, and
//! text from data (a service name, a request) coming out inert.

use crate::common::{self, demo_dir, olav};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

const CHANGE: &str = "Draft a change plan to add a redundant eBGP uplink to the AARNet peer on the 'alpha' border router";
const DECOM: &str = "Decommission the branch switch alpha-br-3560 — draft the removal plan and tell me what we lose";

/// Runs a request; returns the plan's path (relative to `dir`).
fn request(dir: &Path, text: &str) -> String {
    let out = olav(dir)
        .args(["-q", "--format", "json", text])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    v["steps"][0]["artifact"]
        .as_str()
        .expect("plan path")
        .to_owned()
}

/// The HTML page beside a plan.
fn page_of(dir: &Path, plan: &str) -> PathBuf {
    let stem = Path::new(plan)
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    dir.join("exports/reports").join(format!("{stem}.html"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The inline SVG of a page.
fn svg(page: &str) -> &str {
    let start = page.find("<svg class=\"network\"").expect("an SVG picture");
    let end = start + page[start..].find("</svg>").expect("svg ends");
    &page[start..end]
}

/// (class, device) of each device box in the picture.
fn boxes(svg: &str) -> Vec<(String, String)> {
    svg.split("<g class=\"node ")
        .skip(1)
        .filter_map(|g| {
            let (class, rest) = g.split_once('"')?;
            let title = rest.split_once("<title>")?.1.split_once(" — ")?.0;
            Some((class.to_owned(), title.to_owned()))
        })
        .collect()
}

fn with_class(svg: &str, class: &str) -> Vec<String> {
    let mut v: Vec<String> = boxes(svg)
        .into_iter()
        .filter(|(c, _)| c == class)
        .map(|(_, d)| d)
        .collect();
    v.sort();
    v
}

/// Service pills: (title, status line).
fn services(svg: &str) -> Vec<String> {
    let mut v: Vec<String> = svg
        .split("<g class=\"service\"><title>service ")
        .skip(1)
        .filter_map(|g| Some(g.split_once("</title>")?.0.to_owned()))
        .collect();
    v.sort();
    v
}

/// A row of the blast-radius table.
fn row<'a>(page: &'a str, key: &str) -> &'a str {
    let k = format!("<td class=\"k\">{key}</td><td>");
    let start = page.find(&k).unwrap_or_else(|| panic!("row {key}")) + k.len();
    let end = start + page[start..].find("</td>").expect("cell ends");
    &page[start..end]
}

fn self_contained(page: &str) {
    assert!(page.starts_with("<!DOCTYPE html>"), "an HTML document");
    for bad in [
        "http://", "https://", "<script", "<link", "@import", "url(http", "src=",
    ] {
        assert!(!page.contains(bad), "no {bad} in a self-contained page");
    }
    assert!(page.contains("<style>") && page.contains("@media print"));
}

/// Verdict first: the banner comes before every other part of the body, with the run's
/// verdict (the worse of the pre-check's and the verification's) and the pre-check's.
fn verdict_first(page: &str, run: &str, precheck: &str) {
    let body = page.split_once("<body>").expect("body").1;
    assert!(
        body.trim_start()
            .starts_with(&format!("<header class=\"verdict v-{run}\">")),
        "{}",
        &body[..200.min(body.len())]
    );
    assert!(body.contains(&format!(
        "Verdict: <!--olav:run-verdict-->{run}<!--/olav:run-verdict-->"
    )));
    assert!(body.contains(&format!(
        "Pre-check: <b><!--olav:precheck-verdict-->{precheck}<!--/olav:precheck-verdict--></b>"
    )));
}

#[test]
fn the_decommission_report_shows_what_we_lose() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request(tmp.path(), DECOM);
    let page = read(&page_of(tmp.path(), &plan));
    self_contained(&page);
    verdict_first(&page, "WARN", "WARN");
    assert!(page.contains("<p class=\"understood\">Understood: decommission alpha-br-3560</p>"));
    assert!(page.contains("Request: “Decommission the branch switch alpha-br-3560"));
    // Changes and rollback, per device.
    let apply = page.split_once("<h3>Apply</h3>").expect("apply").1;
    let (apply, rollback) = apply.split_once("<h3>Rollback</h3>").expect("rollback");
    assert!(apply.contains("<h3>alpha-dist-1 <span class=\"small\">(ios)</span></h3>"));
    assert!(apply.contains("interface TwentyFiveGigE1/0/10\n description DECOMMISSIONED"));
    assert!(apply.contains(" shutdown</pre>"));
    assert!(rollback.contains(" no shutdown</pre>"));
    // The picture: removed, isolated, changed and context devices, each drawn as such.
    let pic = svg(&page);
    assert_eq!(with_class(pic, "removed"), vec!["alpha-br-3560"]);
    assert_eq!(
        with_class(pic, "isolated"),
        vec!["alpha-br-2960-1", "alpha-br-2960-2"]
    );
    assert_eq!(with_class(pic, "changed"), vec!["alpha-dist-1"]);
    assert!(with_class(pic, "degraded").is_empty());
    let context = with_class(pic, "unaffected");
    for d in [
        "alpha-core-1",
        "alpha-core-2",
        "alpha-dist-2",
        "alpha-acc-1",
    ] {
        assert!(context.contains(&d.to_owned()), "{d} within two hops");
    }
    assert!(
        !context.iter().any(|d| d.starts_with("beta-dist")),
        "three hops away: not drawn: {context:?}"
    );
    assert_eq!(
        pic.matches("<path class=\"link lost\"").count(),
        3,
        "the removed switch's three links are lost"
    );
    assert_eq!(
        services(pic),
        vec![
            "alpha-branch-data: high · DOWN",
            "alpha-branch-voice: critical · DOWN",
            "alpha-branch-wifi: medium · DOWN"
        ]
    );
    assert!(pic.contains("class=\"legend\""));
    assert!(pic.contains("site alpha") && pic.contains("DISTRIBUTION"));
    // The tables say the same.
    assert_eq!(row(&page, "Removed devices"), "alpha-br-3560");
    assert_eq!(
        row(&page, "Isolated devices"),
        "alpha-br-2960-1, alpha-br-2960-2"
    );
    assert_eq!(
        row(&page, "Services affected"),
        "alpha-branch-data (high, down), alpha-branch-voice (critical, down), alpha-branch-wifi (medium, down)"
    );
    assert!(row(&page, "Blast-radius number").starts_with("3 device(s)"));
    // The findings, with their severity.
    let findings = page
        .split_once("<table class=\"findings\">")
        .expect("findings")
        .1;
    assert!(findings.contains("<span class=\"sev sev-warning\">WARNING</span></td><td>service alpha-branch-voice</td><td>critical service down"));
    // The simulator ran after the page was written and put its result in it.
    assert!(page.contains("Formal verification — static fallback (not Batfish)"));
    assert!(page.contains("Formal verification: <b>UNVERIFIED</b> — static fallback (not Batfish)"));
    assert!(!page.contains("not run yet"));
}

#[test]
fn the_uplink_report_shows_the_new_session() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request(tmp.path(), CHANGE);
    let page = read(&page_of(tmp.path(), &plan));
    self_contained(&page);
    verdict_first(&page, "UNVERIFIED", "PASS");
    assert!(page.contains(
        "Understood: add a redundant eBGP uplink from alpha-border-1 to AARNet (AS7575)"
    ));
    assert!(page.contains(" neighbor 203.0.113.6 remote-as 7575\n"));
    assert!(page.contains(" no neighbor 203.0.113.6\n"));
    // What the change does, under the changes: the new session and its port.
    let does = page
        .split_once("<h3>What the change does</h3>")
        .expect("what the change does")
        .1;
    assert!(
        does.contains("<tr><td>alpha-border-1</td><td>BGP neighbor 203.0.113.6</td><td>added ("),
        "{does}"
    );
    let pic = svg(&page);
    assert_eq!(with_class(pic, "changed"), vec!["alpha-border-1"]);
    for gone in ["removed", "isolated", "degraded"] {
        assert!(with_class(pic, gone).is_empty(), "no {gone} device");
    }
    assert!(pic.contains("AARNet · AS7575"), "the provider is drawn");
    assert_eq!(
        pic.matches("<path class=\"session new\"").count(),
        1,
        "one new session"
    );
    assert!(pic.contains("BGP session alpha-border-1 → 203.0.113.6 (new)"));
    assert!(
        pic.matches("<path class=\"session\"").count() >= 1,
        "the existing session"
    );
    assert!(services(pic).is_empty());
    assert_eq!(row(&page, "Removed devices"), "none");
    assert_eq!(row(&page, "Isolated devices"), "none");
    assert_eq!(row(&page, "Services affected"), "none");
    assert!(page.contains("Redundancy towards the peer — before: 1 session(s)"));
    assert!(page.contains("Formal verification — static fallback (not Batfish)"));
}

#[test]
fn olav_report_writes_the_page_again_without_recording_a_precheck() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request(tmp.path(), DECOM);
    let page = page_of(tmp.path(), &plan);
    std::fs::remove_file(&page).expect("rm");
    let history = |dir: &Path| -> usize {
        let out = olav(dir)
            .args(["plans", "show", &plan, "--format", "json"])
            .assert()
            .success();
        let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
        v["prechecks"].as_array().map_or(0, Vec::len)
    };
    let before = history(tmp.path());
    let out = olav(tmp.path()).args(["report", &plan]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let stem = Path::new(&plan)
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    assert_eq!(
        text,
        format!("HTML report: exports/reports/{stem}.html (pre-check WARN on state version 1)\n")
    );
    let again = read(&page);
    assert_eq!(with_class(svg(&again), "removed"), vec!["alpha-br-3560"]);
    assert!(again.contains("Formal verification — static fallback (not Batfish)"));
    assert_eq!(
        history(tmp.path()),
        before,
        "olav report records no pre-check"
    );
    let out = olav(tmp.path())
        .args(["--format", "json", "report", &plan])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    let keys: Vec<&String> = v
        .as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, ["html_path", "verdict"], "docs/json.md");
    assert_eq!(v["verdict"], "WARN");
    // A plan outside the exports folder is refused, as for every plan reader.
    olav(tmp.path())
        .args(["report", "/etc/hostname"])
        .assert()
        .code(2);
}

#[test]
fn precheck_writes_the_page_and_says_where() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request(tmp.path(), DECOM);
    let page = page_of(tmp.path(), &plan);
    std::fs::remove_file(&page).expect("rm");
    let out = olav(tmp.path())
        .args(["-q", "precheck", &plan])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("HTML report: exports/reports/"), "{text}");
    assert!(page.is_file());
}

#[test]
fn a_verification_older_than_the_state_is_flagged() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request(tmp.path(), DECOM);
    // The verification was saved an hour before the import (its file's time says when).
    let verified = page_of(tmp.path(), &plan).with_extension("verify.md");
    std::fs::File::options()
        .write(true)
        .open(&verified)
        .and_then(|f| f.set_modified(SystemTime::now() - Duration::from_secs(3600)))
        .unwrap_or_else(|e| panic!("{}: {e}", verified.display()));
    common::import(tmp.path(), &demo_dir());
    olav(tmp.path())
        .args(["-q", "report", &plan])
        .assert()
        .success();
    let page = read(&page_of(tmp.path(), &plan));
    assert!(
        page.contains("before the state DB was last imported"),
        "caution shown"
    );
}

#[test]
fn blast_radius_html_writes_where_the_user_says() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args([
            "-q",
            "blast-radius",
            "--device",
            "alpha-br-3560",
            "--html",
            "tickets/what-if.html",
        ])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("HTML page: tickets/what-if.html"), "{text}");
    let page = read(&tmp.path().join("tickets/what-if.html"));
    self_contained(&page);
    assert!(page.contains("What-if: blast radius 3 device(s)"));
    assert!(page.contains("<h1>What if we remove alpha-br-3560?</h1>"));
    assert!(page.contains("<code>olav blast-radius --device alpha-br-3560</code>"));
    let pic = svg(&page);
    assert_eq!(with_class(pic, "removed"), vec!["alpha-br-3560"]);
    assert_eq!(
        with_class(pic, "isolated"),
        vec!["alpha-br-2960-1", "alpha-br-2960-2"]
    );
    assert_eq!(services(pic).len(), 3);
    assert_eq!(row(&page, "Removed devices"), "alpha-br-3560");
    assert!(
        !tmp.path().join("exports/reports").exists()
            || std::fs::read_dir(tmp.path().join("exports/reports"))
                .map(|d| d.count())
                .unwrap_or(0)
                == 0,
        "a what-if writes nothing in the exports folder"
    );
}

/// Replaces `from` by `to` in every file below `dir`.
fn replace_everywhere(dir: &Path, from: &str, to: &str) {
    for e in std::fs::read_dir(dir).expect("read_dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            replace_everywhere(&p, from, to);
        } else {
            let t = read(&p);
            if t.contains(from) {
                std::fs::write(&p, t.replace(from, to)).expect("write");
            }
        }
    }
}

#[test]
fn text_from_data_comes_out_inert() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = common::demo_copy(tmp.path());
    // A hostname (config, roles, LLDP, services) and a service name carrying markup.
    let host = "alpha-br-2960-1<script>alert(1)";
    replace_everywhere(&snap, "alpha-br-2960-1", host);
    let state = snap.join("state.yaml");
    let t = read(&state);
    let evil = "alpha-branch-data<script>alert(2)</script>";
    assert!(t.contains("  - name: alpha-branch-data\n"));
    std::fs::write(
        &state,
        t.replace(
            "  - name: alpha-branch-data\n",
            &format!("  - name: \"{evil}\"\n"),
        ),
    )
    .expect("write");
    common::import(tmp.path(), &snap);
    let plan = request(tmp.path(), DECOM);
    let page = read(&page_of(tmp.path(), &plan));
    self_contained(&page);
    let pic = svg(&page);
    assert_eq!(
        with_class(pic, "isolated"),
        vec!["alpha-br-2960-1&lt;script&gt;alert(1)", "alpha-br-2960-2"],
        "the isolated device is drawn, its name as text"
    );
    assert_eq!(
        row(&page, "Isolated devices"),
        "alpha-br-2960-1&lt;script&gt;alert(1), alpha-br-2960-2"
    );
    assert!(page.contains("alpha-branch-data&lt;script&gt;alert(2)&lt;/script&gt;"));
    assert!(pic.contains("alpha-branch-data&lt;script&gt;alert(2)&lt;/script&gt;"));
}

#[test]
fn a_lost_internal_session_is_titled_by_its_two_devices() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request(tmp.path(), "decommission alpha-border-1");
    let page = read(&page_of(tmp.path(), &plan));
    let pic = svg(&page);
    let devices: Vec<String> = boxes(pic).into_iter().map(|(_, d)| d).collect();
    // The titles of internal lost sessions: "BGP session a – b (lost)", both devices drawn.
    let titles: Vec<&str> = pic
        .split("<title>BGP session ")
        .skip(1)
        .filter_map(|t| t.split_once("</title>").map(|x| x.0))
        .filter(|t| t.contains(" – "))
        .collect();
    assert!(
        !titles.is_empty(),
        "the border's iBGP sessions are drawn lost"
    );
    for t in &titles {
        let (pair, fate) = t.split_once(" (").expect("a fate");
        assert_eq!(fate, "lost)", "{t}");
        let (a, b) = pair.split_once(" – ").expect("two ends");
        assert!(devices.iter().any(|d| d == a), "{a} is drawn");
        assert!(devices.iter().any(|d| d == b), "{b} is drawn");
        assert_ne!(a, b);
    }
}

#[test]
fn a_plan_that_loops_a_flow_draws_its_path_on_the_picture() {
    // The square of fixtures/forwarding, and a hand-written plan: a static route on r2
    // that sends r4's loopback back to r1, which sends half of it to r2 (ECMP).
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    common::import(dir, &common::fixture("forwarding"));
    let stats = olav(dir)
        .args(["-q", "state", "stats", "--format", "json"])
        .assert()
        .success();
    let stats: Value = serde_json::from_slice(&stats.get_output().stdout).expect("json");
    let block = |text: &str| olav::plan::ConfigBlock {
        device: "r2".into(),
        os: "ios".into(),
        text: text.into(),
    };
    let plan = olav::plan::Plan {
        header: olav::plan::Header {
            olav_plan: 1,
            plan_id: "loop-by-hand".into(),
            workflow: "by-hand".into(),
            intent: "add_static_route".into(),
            targets: Vec::new(),
            state_version: stats["state_version"].as_i64().expect("a version"),
            created: "2026-12-01T07:00:00Z".into(),
            request: "route r4's loopback via r1 on r2".into(),
            understood: String::new(),
            what_if: false,
            drafted: String::new(),
            removes: Vec::new(),
        },
        title: "Static route on r2".into(),
        summary: String::new(),
        scope: String::new(),
        implementation_notes: String::new(),
        implementation: vec![block("ip route 10.255.0.4 255.255.255.255 10.0.12.1")],
        rollback: vec![block("no ip route 10.255.0.4 255.255.255.255 10.0.12.1")],
        verification: String::new(),
        blast_radius: String::new(),
        claimed_blast_radius: Some(0),
        risks: String::new(),
        pre_change: String::new(),
    };
    let plans = dir.join("exports/change_plans");
    std::fs::create_dir_all(&plans).expect("mkdir");
    std::fs::write(plans.join("loop.md"), plan.to_markdown()).expect("write");
    let out = olav(dir)
        .args([
            "precheck",
            "exports/change_plans/loop.md",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["report"]["verdict"], "FAIL", "{v:#}");
    // The finding carries its path as data.
    let session = v["report"]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["code"] == "precheck.loop" && f["element"] == "BGP session r1 → 10.255.0.4")
        .unwrap_or_else(|| panic!("the session loops: {v:#}"));
    let hops: Vec<String> = session["path"]["hops"]
        .as_array()
        .expect("hops")
        .iter()
        .map(|h| format!("{} {}", h["device"], h["egress"]))
        .collect();
    assert_eq!(
        hops,
        vec![
            "\"r1\" \"GigabitEthernet0/0\"",
            "\"r2\" \"GigabitEthernet0/0\"",
            "\"r1\" null"
        ]
    );
    assert_eq!(session["path"]["ends"], "loop");
    assert_eq!(session["path"]["destination"], "10.255.0.4");
    // The page beside it draws that path: r1 → r2 → r1, the loop's badge on r1.
    let page = read(&page_of(dir, "exports/change_plans/loop.md"));
    self_contained(&page);
    verdict_first(&page, "FAIL", "FAIL");
    let pic = svg(&page);
    let drawn: Vec<(String, String)> = boxes(pic);
    assert!(drawn.iter().any(|(_, d)| d == "r1") && drawn.iter().any(|(_, d)| d == "r2"));
    assert!(
        pic.contains("<title>path 1: r1 (GigabitEthernet0/0) → r2</title>")
            && pic.contains("<title>path 1: r2 (GigabitEthernet0/0) → r1</title>"),
        "{pic}"
    );
    let badge = pic
        .split("<g class=\"path-loop\"><title>")
        .nth(1)
        .and_then(|b| b.split_once("</title>"))
        .map(|b| b.0)
        .expect("the loop's badge");
    assert!(
        badge.starts_with("path 1: loops: comes back to r1"),
        "{badge}"
    );
    assert!(pic.contains("path of a broken flow"));
    // Listed under the picture with its destination and how it ends.
    let table = page
        .split_once("<table class=\"paths\">")
        .expect("the flows listed")
        .1;
    let row = table
        .split("<tr>")
        .find(|r| r.contains("BGP session r1 → 10.255.0.4"))
        .expect("the session's row");
    assert!(row.contains("<td>10.255.0.4"), "{row}");
    assert!(row.contains("loops: comes back to r1"), "{row}");
    assert!(
        row.contains("r1 (GigabitEthernet0/0) → r2 (GigabitEthernet0/0) → <b>r1</b> (again)"),
        "{row}"
    );
}

/// Runs a request whatever its verdict; returns the plan's path (relative to `dir`).
fn request_any(dir: &Path, text: &str) -> String {
    let out = olav(dir)
        .args(["-q", "--format", "json", text])
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    v["plan_path"].as_str().expect("plan path").to_owned()
}

/// Site panels of a picture: (label, left, right).
fn panels(svg: &str) -> Vec<(String, f64, f64)> {
    svg.split("<rect x=\"")
        .skip(1)
        .filter(|r| r.contains("rx=\"8\" fill=\"#f8fafc\""))
        .filter_map(|r| {
            let (x, rest) = r.split_once('"')?;
            let w = rest.split_once("width=\"")?.1.split_once('"')?.0;
            let label = rest.split_once("font-weight=\"700\" fill=\"#334155\">")?.1;
            let label = label.split_once("</text>")?.0;
            let x: f64 = x.parse().ok()?;
            Some((label.to_owned(), x, x + w.parse::<f64>().ok()?))
        })
        .collect()
}

/// Service pills: (name, left, right).
fn service_boxes(svg: &str) -> Vec<(String, f64, f64)> {
    svg.split("<g class=\"service\"><title>service ")
        .skip(1)
        .filter_map(|g| {
            let name = g.split_once(':')?.0;
            let x = g.split_once("<rect x=\"")?.1.split_once('"')?.0;
            let w = g.split_once("width=\"")?.1.split_once('"')?.0;
            let x: f64 = x.parse().ok()?;
            Some((name.to_owned(), x, x + w.parse::<f64>().ok()?))
        })
        .collect()
}

#[test]
fn services_are_drawn_inside_their_own_sites_panel() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // alpha's border: five alpha services hit, drawn beside the beta and gamma panels.
    let plan = request_any(tmp.path(), "decommission alpha-border-1");
    let page = read(&page_of(tmp.path(), &plan));
    let pic = svg(&page);
    let sites = panels(pic);
    assert!(sites.iter().any(|(l, ..)| l == "site beta"), "{sites:?}");
    let drawn = service_boxes(pic);
    assert!(drawn.len() >= 3, "{drawn:?}");
    for (name, left, right) in &drawn {
        let site = format!("site {}", name.split('-').next().unwrap_or_default());
        let (_, lo, hi) = sites
            .iter()
            .find(|(l, ..)| *l == site)
            .unwrap_or_else(|| panic!("{site} has no panel: {sites:?}"));
        assert!(
            lo <= left && right <= hi,
            "{name} at {left}..{right} is outside {site} ({lo}..{hi})"
        );
    }
}

#[test]
fn the_banner_gives_the_verdict_of_both_steps() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request(tmp.path(), DECOM);
    let page = page_of(tmp.path(), &plan);
    verdict_first(&read(&page), "WARN", "WARN");
    // The plan gains a block that duplicates alpha-border-1's address: the static
    // checks fail the verification, after the pre-check said WARN.
    let file = tmp.path().join(&plan);
    let text = read(&file);
    let at = text.find("```config device=alpha-dist-1").expect("a block");
    let body = at + text[at..].find('\n').expect("opening line") + 1;
    let end = body + text[body..].find("```\n").expect("block ends") + 4;
    let edited = format!(
        "{}\n```config device=alpha-dist-1 os=ios\ninterface Loopback99\n ip address 10.0.1.0 255.255.255.254\n```\n{}",
        &text[..end],
        &text[end..]
    );
    std::fs::write(&file, edited).expect("write");
    olav(tmp.path())
        .args(["-q", "verify", &plan])
        .assert()
        .code(1);
    let after = read(&page);
    verdict_first(&after, "FAIL", "WARN");
    assert!(after.contains("Formal verification: <b>FAIL</b>"));
    assert!(!after.contains("<span class=\"big\">Pre-check"));
}

#[test]
fn a_junos_port_shows_the_address_on_its_unit_0() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request_any(
        tmp.path(),
        "change the MTU on gamma-border-1 xe-0/1/0 to 9000",
    );
    let page = read(&page_of(tmp.path(), &plan));
    assert!(
        page.contains("addresses 10.0.3.0/31 on unit xe-0/1/0.0."),
        "{}",
        page.split_once("Current:").map_or("", |x| &x.1[..200])
    );
}

#[test]
fn prefixes_no_provider_hears_are_counted_as_withdrawn() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = request(tmp.path(), "remove the Telstra peer");
    let page = read(&page_of(tmp.path(), &plan));
    assert!(page.contains("no provider hears 10.30.0.0/16 after the plan"));
    assert_eq!(
        row(&page, "Prefixes withdrawn"),
        "10.30.0.0/16 (no provider hears it after the plan)"
    );
    assert!(!page.contains("via ?"));
}
