//! The shape issue #23 gave the code, kept by the suite: no source file over 1,000 lines,
//! configuration syntax written only by the dialects (read only by the parsers), and SQL
//! only in the state layer and the network model that lives beside it.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/`, with its path relative to the crate.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("src is readable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root)
                .expect("under the crate")
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).expect("utf-8 source"))
        })
        .collect()
}

/// The files whose text holds one of `needles`, outside the folders `allowed`.
fn offenders(needles: &[&str], allowed: &[&str]) -> Vec<String> {
    sources()
        .into_iter()
        .filter(|(p, _)| !allowed.iter().any(|a| p.starts_with(a)))
        .filter(|(_, text)| needles.iter().any(|n| text.contains(n)))
        .map(|(p, _)| p)
        .collect()
}

#[test]
fn no_source_file_is_over_a_thousand_lines() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|(_, t)| t.lines().count() > 1000)
        .map(|(p, t)| format!("{p} ({} lines)", t.lines().count()))
        .collect();
    assert!(long.is_empty(), "split along their jobs: {long:?}");
}

#[test]
fn configuration_syntax_is_written_only_by_the_dialects() {
    let syntax = [
        "\"router bgp",
        "\"ip route",
        "\"no ip route",
        "\"default interface",
        "\"set interfaces",
        "\"set routing-options",
        "\"delete ",
    ];
    let found = offenders(
        &syntax,
        &["src/dialect/", "src/import/parse/", "src/synth.rs"],
    );
    assert!(
        found.is_empty(),
        "vendor syntax outside src/dialect: {found:?}"
    );
}

#[test]
fn sql_stays_in_the_state_layer() {
    let sql = [
        "SELECT ",
        "INSERT INTO",
        "INSERT OR",
        "DELETE FROM",
        "UPDATE ",
        ".conn()",
        "rusqlite::",
    ];
    let found = offenders(&sql, &["src/state/", "src/network/"]);
    assert!(
        found.is_empty(),
        "SQL outside src/state and src/network: {found:?}"
    );
}
