//! Cron expressions → systemd `OnCalendar=` lines: a table of expected values. When
//! `systemd-analyze` is installed, each line is also checked with it — systemd reads it
//! back in the same normal form, and the next elapses of all the lines together are
//! exactly the next times the built-in scheduler (croner) computes. Without it, the
//! expected strings are the test.

use crate::common::olav;

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use olav::calendar::Cron;
use std::collections::BTreeSet;

/// (cron, the OnCalendar lines).
const TABLE: &[(&str, &[&str])] = &[
    ("*/15 9-17 * * 1-5", &["Mon..Fri *-*-* 09..17:00/15:00"]),
    ("0 * * * *", &["*-*-* *:00:00"]),
    ("*/15 * * * *", &["*-*-* *:00/15:00"]),
    ("30 6 * * *", &["*-*-* 06:30:00"]),
    ("5,35 8,12,18 * * *", &["*-*-* 08,12,18:05,35:00"]),
    ("5-50/15 */6 * * *", &["*-*-* 00/6:05..50/15:00"]),
    ("10/20 1-23/2 * * *", &["*-*-* 01..23/2:10/20:00"]),
    ("30/45 3 * * *", &["*-*-* 03:30:00"]),
    ("0 0 1 * *", &["*-*-01 00:00:00"]),
    ("0 0 1,15 */3 *", &["*-01/3-01,15 00:00:00"]),
    ("0 12 */2 JAN-MAR *", &["*-01..03-01/2 12:00:00"]),
    ("0 22 * * MON-FRI", &["Mon..Fri *-*-* 22:00:00"]),
    ("0 8 * * sat,SUN", &["Sat,Sun *-*-* 08:00:00"]),
    ("0 8 * * 6-7", &["Sat,Sun *-*-* 08:00:00"]),
    ("0 8 * * 1-3,5", &["Mon..Wed,Fri *-*-* 08:00:00"]),
    ("0 8 * * */2", &["Tue,Thu,Sat,Sun *-*-* 08:00:00"]),
    ("0 8 * * 1/2", &["Mon,Wed,Fri,Sun *-*-* 08:00:00"]),
    ("0 8 * * 0-7", &["*-*-* 08:00:00"]),
    ("0 8 ? * ?", &["*-*-* 08:00:00"]),
    // Both day fields restricted: cron runs when either matches.
    (
        "0 9 1,15 * MON",
        &["*-*-01,15 09:00:00", "Mon *-*-* 09:00:00"],
    ),
    ("0 18 L * *", &["*-*~01 18:00:00"]),
    ("0 18 1,L FEB *", &["*-02-01 18:00:00", "*-02~01 18:00:00"]),
    ("0 10 * * 5#2", &["Fri *-*-08..14 10:00:00"]),
    ("0 10 * * 1#1,3#1", &["Mon,Wed *-*-01..07 10:00:00"]),
    ("0 10 * * 4#5", &["Thu *-*-29..31 10:00:00"]),
    ("0 23 * * 5L", &["Fri *-*~07/1 23:00:00"]),
    (
        "0 23 * DEC 1-5,0L",
        &["Mon..Fri *-12-* 23:00:00", "Sun *-12~07/1 23:00:00"],
    ),
    ("*/20 * * * * *", &["*-*-* *:*:00/20"]),
    ("15 30 4 * * *", &["*-*-* 04:30:15"]),
];

#[test]
fn cron_expressions_become_exact_on_calendar_lines() {
    for (cron, expected) in TABLE {
        let parsed = Cron::parse(cron).unwrap_or_else(|e| panic!("{cron}: {e}"));
        assert_eq!(&parsed.on_calendar(), expected, "{cron}");
    }
}

fn systemd_analyze() -> Option<std::path::PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("systemd-analyze"))
            .find(|p| p.is_file())
    })
}

/// systemd's normal form and next `n` elapses after `base` (UTC) of one line.
fn analyze(
    tool: &std::path::Path,
    line: &str,
    base: DateTime<Utc>,
    n: usize,
) -> (String, Vec<DateTime<Utc>>) {
    let out = std::process::Command::new(tool)
        .env("TZ", "UTC")
        .args([
            "calendar",
            &format!("--iterations={n}"),
            &format!("--base-time=@{}", base.timestamp()),
            line,
        ])
        .output()
        .expect("systemd-analyze runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "systemd-analyze refuses '{line}': {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let normal = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Normalized form: "))
        .unwrap_or_default()
        .to_owned();
    let times = text
        .lines()
        .filter_map(|l| {
            let (k, v) = l.trim().split_once(": ")?;
            (k == "Next elapse" || k.starts_with("Iter. #")).then_some(v)
        })
        .filter_map(|v| {
            // "Thu 2026-01-01 09:00:00 UTC"
            let v = v.split_once(' ')?.1.strip_suffix(" UTC")?;
            NaiveDateTime::parse_from_str(v, "%Y-%m-%d %H:%M:%S")
                .ok()
                .map(|t| Utc.from_utc_datetime(&t))
        })
        .collect();
    (normal, times)
}

#[test]
fn systemd_reads_them_back_and_elapses_when_cron_would() {
    let Some(tool) = systemd_analyze() else {
        eprintln!("systemd-analyze is not installed: the expected strings are the test");
        return;
    };
    // A leap year's end of February, at an odd second: month ends and leap days count.
    let base = Utc
        .with_ymd_and_hms(2028, 2, 26, 10, 17, 33)
        .single()
        .expect("a time");
    const N: usize = 40;
    for (cron, _) in TABLE {
        let lines = Cron::parse(cron).expect("parses").on_calendar();
        let mut elapses: BTreeSet<DateTime<Utc>> = BTreeSet::new();
        for line in &lines {
            let (normal, times) = analyze(&tool, line, base, N);
            assert_eq!(&normal, line, "{cron}: systemd's normal form");
            assert_eq!(times.len(), N, "{cron}: {line}");
            elapses.extend(times);
        }
        let systemd: Vec<DateTime<Utc>> = elapses.into_iter().take(N).collect();
        let schedule = croner::Cron::new(cron)
            .with_seconds_optional()
            .parse()
            .expect("croner parses");
        let mut croner_times = Vec::new();
        let mut t = base;
        for _ in 0..N {
            t = schedule
                .find_next_occurrence(&t, false)
                .expect("a next time");
            croner_times.push(t);
        }
        assert_eq!(systemd, croner_times, "{cron} → {lines:?}");
    }
}

#[test]
fn what_systemd_cannot_express_is_refused_by_name() {
    let err = Cron::parse("0 9 15W * *")
        .map(|c| c.on_calendar())
        .expect_err("W is refused");
    assert!(
        err.to_string()
            .contains("'15W' (W, the weekday nearest a day) has no systemd calendar form"),
        "{err}"
    );
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = olav(tmp.path())
        .args(["schedule", "--cron", "0 9 15W * *", "--print-systemd"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("W, the weekday nearest a day"), "{stderr}");
    assert!(out.get_output().stdout.is_empty(), "nothing half-printed");
}

#[test]
fn print_systemd_carries_the_exact_calendar_and_the_snapshot_folder() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("backups");
    std::fs::create_dir_all(snap.join("configs")).expect("mkdir");
    let out = olav(tmp.path())
        .args([
            "schedule",
            "--cron",
            "*/15 9-17 * * 1-5",
            "--import",
            "backups",
            "--print-systemd",
        ])
        .assert()
        .success();
    let units = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        units.contains("\nOnCalendar=Mon..Fri *-*-* 09..17:00/15:00\nPersistent=true\n"),
        "{units}"
    );
    assert!(!units.contains("adjust"), "no placeholder to fix by hand");
    let real = tmp.path().join("backups");
    assert!(
        units.contains(&format!(" schedule --once --import {}\n", real.display())),
        "{units}"
    );
    let out = olav(tmp.path())
        .args([
            "schedule",
            "--cron",
            "0 9 1,15 * MON",
            "--import",
            "backups",
            "--print-crontab",
        ])
        .assert()
        .success();
    let line = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        line.contains(&format!("\n0 9 1,15 * MON cd {} && ", tmp.path().display()))
            && line.contains(&format!(" schedule --once --import {} >> ", real.display())),
        "{line}"
    );
    assert!(
        !tmp.path().join(".olav").exists(),
        "printing an entry creates no state DB"
    );
    // A folder that is not a snapshot is refused before anything is printed.
    olav(tmp.path())
        .args(["schedule", "--import", "nowhere", "--print-systemd"])
        .assert()
        .code(2)
        .stdout("");
}
