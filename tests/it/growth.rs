//! Inputs that once made olav's work grow faster than their size stay near-linear:
//! through the binary, with sizes that took minutes before each fix (issue 31, items 7–9).

use crate::common::olav;

use rusqlite::Connection;
use std::path::Path;
use std::time::{Duration, Instant};

fn text_of(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Two switches with `n` SVIs each, every SVI in one /16 on its own VLAN (sw-a holds the
/// odd hosts, sw-b the even ones).
fn svi_snapshot(dir: &Path, n: usize) {
    let configs = dir.join("configs");
    std::fs::create_dir_all(&configs).expect("mkdir");
    for (side, host) in [(0usize, "a"), (1, "b")] {
        let mut s = format!("hostname sw-{host}\n!\n");
        for i in 0..n {
            let h = 2 * i + 1 + side;
            s += &format!(
                "interface Vlan{}\n ip address 10.0.{}.{} 255.255.0.0\n no shutdown\n!\n",
                i + 2,
                h >> 8,
                h & 255
            );
        }
        s += "end\n";
        std::fs::write(configs.join(format!("sw-{host}.cfg")), s).expect("write");
    }
}

/// Every pair of interfaces in one subnet was compared, and each link's status looked up
/// by scanning the device's interfaces: two configs with 10,000 SVIs in one /16 took over
/// two minutes. The pairs now come from VLAN buckets; the same 10,000 links result, one
/// per VLAN, and nothing between different VLANs.
#[test]
fn link_inference_in_one_crowded_subnet_is_near_linear() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("snap");
    svi_snapshot(&snap, 10_000);
    let started = Instant::now();
    let out = olav(tmp.path())
        .args(["state", "import"])
        .arg(&snap)
        .timeout(Duration::from_secs(120))
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", text_of(&out));
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let db = Connection::open(tmp.path().join(".olav/state.db")).expect("db");
    let (links, same_vlan): (i64, i64) = db
        .query_row(
            "SELECT COUNT(*), SUM(ifname_a = ifname_b) FROM link",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("count");
    assert_eq!((links, same_vlan), (10_000, 10_000));
}

/// A workflow whose keywords or title run to megabytes: `workflows list` laid the whole
/// cell out (150,000 keywords: over 100 s). A cell is cut at 400 characters and says how
/// much more there is.
#[test]
fn a_huge_workflow_lists_quickly_and_says_what_it_cut() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let wdir = tmp.path().join("agent/workflows");
    std::fs::create_dir_all(&wdir).expect("mkdir");
    let base = include_str!("../../workflows/decommission_impact.workflow.yaml");
    let words: Vec<String> = (0..150_000).map(|i| format!("k{i}")).collect();
    let long_title = "t".repeat(2_000_000);
    let text = base
        .replace("keywords: [", &format!("keywords: [{}, ", words.join(", ")))
        .replace(
            "title: Decommission-impact workflow",
            &format!("title: {long_title} Decommission-impact workflow"),
        );
    std::fs::write(wdir.join("decommission_impact.workflow.yaml"), text).expect("write");
    let started = Instant::now();
    let out = olav(tmp.path())
        .args(["workflows", "list", "--agent-dir"])
        .arg(tmp.path().join("agent"))
        .timeout(Duration::from_secs(120))
        .output()
        .expect("runs");
    let shown = text_of(&out);
    assert!(out.status.success(), "{}", &shown[..shown.len().min(2000)]);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(shown.len() < 5_000, "{} bytes", shown.len());
    assert!(shown.contains("more characters; --format json shows all"));
    let json = olav(tmp.path())
        .args(["--format", "json", "workflows", "list", "--agent-dir"])
        .arg(tmp.path().join("agent"))
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&json.stdout).contains("\"k149999\""));
}

/// Thirty copies of one plan, all open: each plan's pre-check read every other open
/// plan's claims and named every duplicate in a finding of its own (1,001 plans: 57 s,
/// growing like n^1.8). Duplicates are found by index and named once, three of them and
/// a count; the cycle checks every plan.
#[test]
fn precheck_all_names_duplicates_once_with_a_count() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let drafted = crate::common::draft(tmp.path(), "decommission branch switch alpha-br-3560");
    let text = std::fs::read_to_string(tmp.path().join(&drafted)).expect("plan");
    let plans = tmp.path().join("exports/change_plans");
    for i in 1..30 {
        let copy: String = text
            .lines()
            .map(|l| {
                if l.starts_with("plan_id: ") {
                    format!("plan_id: copy-{i:02}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let path = plans.join(format!("copy-{i:02}.md"));
        std::fs::write(&path, copy).expect("write");
        olav(tmp.path()).arg("precheck").arg(&path).assert().code(0);
    }
    let out = olav(tmp.path())
        .args(["precheck", "--all"])
        .output()
        .expect("runs");
    let shown = text_of(&out);
    assert!(
        shown.starts_with("WARN — 30 open plan(s) pre-checked, 0 failing"),
        "{shown}"
    );
    let json = std::fs::read_to_string(tmp.path().join("exports/reports/copy-07.precheck.json"))
        .expect("report data");
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    let duplicates: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["message"].as_str())
        .filter(|m| m.contains("the same change"))
        .collect();
    assert_eq!(duplicates.len(), 1, "{duplicates:?}");
    assert!(
        duplicates[0].contains(" and 26 more draft the same change: duplicates"),
        "{duplicates:?}"
    );
}
