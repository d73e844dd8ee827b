//! The rollback of hand-written Junos lines, derived from the stored configuration: the
//! candidate's statements (`display set` form) compared with the stored ones.
//!
//! Decisions:
//! - A statement the plan added is deleted at the shortest path the stored configuration
//!   has nothing under (`delete firewall family inet filter NEW`, not each of its terms).
//! - A statement the plan deleted or changed comes back with its stored `set` line (and
//!   `deactivate` when it was inactive); a statement whose only change is being
//!   (de)activated is `activate`d or `deactivate`d back.
//! - Deletes first, then sets: a single-valued statement (`mtu 9000`) is deleted and its
//!   stored value set again.

use super::apply_text;
use crate::import::parse::junos::{quote, set_lines, SetLine};
use std::collections::{HashMap, HashSet};

/// A statement's path as `set`/`delete` write it.
fn path(words: &[String]) -> String {
    words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

/// The lines that undo `lines` on a device whose stored configuration is `stored`.
pub fn derive(stored: &str, lines: &str) -> String {
    let before = set_lines(stored);
    let after = set_lines(&apply_text(stored, lines));
    let key = |l: &SetLine| l.path();
    let had: HashMap<String, &SetLine> = before.iter().map(|l| (key(l), l)).collect();
    let has: HashMap<String, &SetLine> = after.iter().map(|l| (key(l), l)).collect();
    // Every path prefix the stored configuration has something under.
    let mut stored_prefixes: HashSet<Vec<String>> = HashSet::new();
    for l in &before {
        for k in 1..=l.words.len() {
            stored_prefixes.insert(l.words[..k].to_vec());
        }
    }
    let mut deletes: Vec<String> = Vec::new();
    let mut toggles: Vec<String> = Vec::new();
    let mut sets: Vec<String> = Vec::new();
    let mut deleted: HashSet<Vec<String>> = HashSet::new();
    // The paths the plan (de)activates.
    let plan_toggles: Vec<Vec<String>> = lines
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l
                .strip_prefix("deactivate ")
                .or_else(|| l.strip_prefix("activate "))?;
            Some(set_lines(&format!("set {rest}")).pop()?.words)
        })
        .collect();
    let mut toggled: HashSet<Vec<String>> = HashSet::new();
    for l in &after {
        match had.get(&key(l)) {
            Some(b) if b.inactive != l.inactive => {
                // Undone where the plan wrote its `deactivate` / `activate`: the plan line
                // whose path holds this statement.
                let verb = if b.inactive { "deactivate" } else { "activate" };
                let written = plan_toggles
                    .iter()
                    .filter(|p| l.words.starts_with(p))
                    .max_by_key(|p| p.len())
                    .cloned()
                    .unwrap_or_else(|| l.words.clone());
                if toggled.insert(written.clone()) {
                    toggles.push(format!("{verb} {}", path(&written)));
                }
            }
            Some(_) => {}
            None => {
                let k = (1..=l.words.len())
                    .find(|&k| !stored_prefixes.contains(&l.words[..k]))
                    .unwrap_or(l.words.len());
                let prefix = l.words[..k].to_vec();
                let covered = (1..=prefix.len()).any(|j| deleted.contains(&prefix[..j]));
                if !covered && deleted.insert(prefix.clone()) {
                    deletes.push(format!("delete {}", path(&prefix)));
                }
            }
        }
    }
    for l in &before {
        if !has.contains_key(&key(l)) {
            sets.push(l.render());
        }
    }
    let mut out: Vec<String> = deletes;
    out.extend(sets);
    out.extend(toggles);
    let mut text = out.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::derive;
    use crate::dialect::junos::apply_text;

    const STORED: &str = "set system host-name r1\nset interfaces ge-0/0/1 mtu 1500\nset interfaces ge-0/0/1 unit 0 family inet address 10.0.0.1/30\nset interfaces ge-0/0/2 unit 0 family inet address 10.0.1.1/30\nset protocols ospf area 0.0.0.0 interface ge-0/0/1.0 metric 10\nset firewall family inet filter EDGE term ssh from protocol tcp\nset firewall family inet filter EDGE term ssh then accept\n";

    fn restores(lines: &str) -> String {
        let rb = derive(STORED, lines);
        let back = apply_text(&apply_text(STORED, lines), &rb);
        let sorted = |t: &str| {
            let mut v: Vec<String> = crate::import::parse::junos::set_form(t)
                .lines()
                .map(str::to_owned)
                .collect();
            v.sort();
            v
        };
        assert_eq!(sorted(&back), sorted(STORED), "not restored by\n{rb}");
        rb
    }

    #[test]
    fn an_added_statement_goes_at_the_shortest_new_path() {
        assert_eq!(
            restores("set interfaces ge-0/0/1 disable"),
            "delete interfaces ge-0/0/1 disable\n"
        );
        assert_eq!(
            restores("set firewall family inet filter NEW term a from protocol udp\nset firewall family inet filter NEW term a then discard"),
            "delete firewall family inet filter NEW\n"
        );
    }

    #[test]
    fn a_changed_or_deleted_statement_comes_back_as_stored() {
        assert_eq!(
            restores("set protocols ospf area 0.0.0.0 interface ge-0/0/1.0 metric 500"),
            "delete protocols ospf area 0.0.0.0 interface ge-0/0/1.0 metric 500\nset protocols ospf area 0.0.0.0 interface ge-0/0/1.0 metric 10\n"
        );
        assert_eq!(
            restores("delete interfaces ge-0/0/2"),
            "set interfaces ge-0/0/2 unit 0 family inet address 10.0.1.1/30\n"
        );
        assert_eq!(
            restores("deactivate firewall family inet filter EDGE term ssh"),
            "activate firewall family inet filter EDGE term ssh\n"
        );
    }
}
