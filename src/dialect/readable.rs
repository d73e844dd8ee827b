//! Whether olav reads each line of hand-written configuration: a line the importer's own
//! parser does not recognise where it stands, or warns about, cannot be judged — its
//! plan is refused with the line, never guessed at.
//!
//! Decisions:
//! - A Cisco-style line is read in its block: its headers (the lines indented less above
//!   it) and the line itself parsed alone. A line written at the top level that belongs
//!   in a block (`ip ospf cost 500` without its `interface` above it, unindented) is not
//!   read: the device would take it in whatever block the session is in.
//! - `no X` and `default X` read when `X` reads, or when the stored configuration has a
//!   line beginning with `X` in that block; `no N` inside an access list reads.
//! - A Junos `set` reads when the parser recognises the statement; `delete`,
//!   `deactivate` and `activate` when a stored or earlier statement lies under the path.
//! - CLI scaffolding is not configuration and is dropped before anything is read:
//!   `configure terminal`, `end`, `exit`, `commit`, `write memory`, comments and blanks.

use crate::import::parse::parser_for;
use crate::model::Vendor;

/// A line olav cannot read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// 1-based line number in the text given.
    pub line: usize,
    /// The line as written.
    pub text: String,
    /// Why.
    pub why: String,
}

/// Whether a line is CLI scaffolding rather than configuration.
pub fn scaffolding(line: &str) -> bool {
    let t = line.trim();
    let w: Vec<&str> = t.split_whitespace().collect();
    t.is_empty()
        || t.starts_with('!')
        || t.starts_with('#')
        || matches!(
            w.as_slice(),
            ["configure" | "conf" | "config", ..]
                | ["end" | "exit" | "commit" | "top" | "quit"]
                | ["commit", "and-quit" | "check" | "confirmed", ..]
                | ["write" | "wr", ..]
                | ["copy", "running-config" | "run", ..]
        )
}

/// Whether a line takes configuration away (`no …`, `default …`, Junos `delete …` and
/// `deactivate …`) rather than setting it.
pub fn removes(line: &str) -> bool {
    let l = line.trim_start();
    ["no ", "delete ", "deactivate ", "default "]
        .iter()
        .any(|p| l.starts_with(p))
}

/// The text with its scaffolding lines blanked (line numbers kept).
pub fn without_scaffolding(text: &str) -> String {
    text.lines()
        .map(|l| if scaffolding(l) { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines of `text`, for a device of `v` whose stored configuration is `stored`, that
/// olav cannot read.
pub fn unreadable(v: Vendor, stored: &str, text: &str) -> Vec<Unreadable> {
    match v {
        Vendor::JuniperJunos => junos(stored, text),
        _ => cisco_style(v, stored, text),
    }
}

/// Unrecognised lines and warnings of a small configuration.
fn read_count(v: Vendor, text: &str) -> (u32, Vec<String>) {
    let d = parser_for(v).parse(text);
    (
        d.lines_unrecognised,
        d.warnings.into_iter().map(|w| w.message).collect(),
    )
}

fn cisco_style(v: Vendor, stored: &str, text: &str) -> Vec<Unreadable> {
    let stored_lines: Vec<(usize, &str)> = stored
        .lines()
        .map(|l| (l.len() - l.trim_start().len(), l.trim()))
        .collect();
    let mut out = Vec::new();
    // The open headers: (indent, line).
    let mut open: Vec<(usize, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if scaffolding(raw) {
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        let t = raw.trim();
        while open.last().is_some_and(|(d, _)| *d >= indent) {
            open.pop();
        }
        let heads: Vec<String> = open
            .iter()
            .enumerate()
            .map(|(d, (_, h))| format!("{}{h}", " ".repeat(d)))
            .collect();
        let pad = " ".repeat(open.len());
        let context = heads.join("\n");
        let (base_unknown, base_warn) = read_count(v, &context);
        let reads = |line: &str| {
            let (u, w) = read_count(v, &format!("{context}\n{pad}{line}"));
            (
                u <= base_unknown,
                w.into_iter().skip(base_warn.len()).collect::<Vec<_>>(),
            )
        };
        let w: Vec<&str> = t.split_whitespace().collect();
        let in_acl = open.last().is_some_and(|(_, h)| {
            super::cisco::candidate::acl_block(&h.split_whitespace().collect::<Vec<_>>())
        });
        let verdict: Result<(), String> = match w.as_slice() {
            ["no", n] if in_acl && n.parse::<u32>().is_ok() => Ok(()),
            // A command that renumbers rather than configures.
            ["ip" | "ipv6", "access-list", "resequence", ..] => Err(
                "`resequence` renumbers the list's entries; olav does not model it: write the entries with their new numbers".into(),
            ),
            ["no" | "default", rest @ ..] if !rest.is_empty() => {
                let positive = rest.join(" ");
                let (ok, _) = reads(&positive);
                let stored_has = stored_lines
                    .iter()
                    .any(|(_, l)| *l == positive || l.starts_with(&format!("{positive} ")));
                if ok || stored_has || reads(t).0 {
                    Ok(())
                } else {
                    Err(format!(
                        "olav does not read `{positive}`, and the stored configuration has no such line"
                    ))
                }
            }
            _ => {
                let (ok, warns) = reads(t);
                match (ok, warns.first()) {
                    (_, Some(w)) => Err(w.clone()),
                    (true, None) => Ok(()),
                    (false, None) if open.is_empty() && looks_nested(t) => Err(
                        "olav does not read this at the top level: indent the lines of a block under its header (`interface …`, `router …`)".into(),
                    ),
                    (false, None) if open.is_empty() => {
                        Err("olav does not read this command".into())
                    }
                    (false, None) => Err(format!(
                        "olav does not read this command under `{}`",
                        open.last().map(|(_, h)| h.as_str()).unwrap_or_default()
                    )),
                }
            }
        };
        if let Err(why) = verdict {
            out.push(Unreadable {
                line: i + 1,
                text: t.to_owned(),
                why,
            });
        }
        open.push((indent, t.to_owned()));
    }
    out
}

/// A line that reads as a block's setting rather than a command of its own.
fn looks_nested(t: &str) -> bool {
    let w: Vec<&str> = t.split_whitespace().collect();
    matches!(
        w.as_slice(),
        [
            "ip",
            "address" | "ospf" | "access-group" | "mtu" | "helper-address",
            ..
        ] | [
            "description"
                | "mtu"
                | "shutdown"
                | "neighbor"
                | "network"
                | "switchport"
                | "bandwidth"
                | "match"
                | "set"
                | "permit"
                | "deny"
                | "remark",
            ..
        ]
    )
}

fn junos(stored: &str, text: &str) -> Vec<Unreadable> {
    use crate::import::parse::junos::set_lines;
    let mut known: Vec<Vec<String>> = set_lines(stored).into_iter().map(|l| l.words).collect();
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if scaffolding(raw) {
            continue;
        }
        let t = raw.trim();
        let (verb, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let path = set_lines(&format!("set {rest}")).pop().map(|l| l.words);
        let why = match (verb, path) {
            (_, None) => Some("no statement after the command".to_owned()),
            ("set", Some(p)) => {
                let (u, w) = read_count(Vendor::JuniperJunos, &format!("set {rest}"));
                known.push(p);
                match w.first() {
                    Some(w) => Some(w.clone()),
                    None if u > 0 => Some("olav does not read this statement".into()),
                    None => None,
                }
            }
            ("delete" | "deactivate" | "activate", Some(p)) => {
                let there = known.iter().any(|k| k.starts_with(&p));
                (!there).then(|| {
                    format!("nothing in the stored configuration or the lines above is at `{rest}`")
                })
            }
            _ => Some(format!(
                "`{verb}` is not a Junos configuration command here (write `set`, `delete`, `deactivate` or `activate` lines)"
            )),
        };
        if let Some(why) = why {
            out.push(Unreadable {
                line: i + 1,
                text: t.to_owned(),
                why,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unreadable;
    use crate::model::Vendor;

    const IOS: &str = "interface Gi1\n ip address 10.0.0.1 255.255.255.0\n ip ospf cost 10\n!\nip access-list extended EDGE\n permit ip any any\n!\nend\n";

    fn lines(v: Vendor, stored: &str, text: &str) -> Vec<usize> {
        unreadable(v, stored, text).iter().map(|u| u.line).collect()
    }

    #[test]
    fn lines_in_their_blocks_read_and_stray_ones_do_not() {
        assert_eq!(lines(Vendor::CiscoIos, IOS, "configure terminal\ninterface Gi1\n ip ospf cost 500\n no ip ospf cost 10\nip access-list extended EDGE\n 25 deny tcp any any eq 23\n no 25\nend"), Vec::<usize>::new());
        assert_eq!(
            lines(Vendor::CiscoIos, IOS, "interface Gi1\nip ospf cost 500"),
            vec![2]
        );
        assert_eq!(
            lines(Vendor::CiscoIos, IOS, "interfce Gi1\n ip ospf cost 500"),
            vec![1, 2]
        );
    }

    #[test]
    fn junos_deletes_need_something_there() {
        let stored = "set interfaces ge-0/0/1 unit 0 family inet address 10.0.0.1/30\n";
        assert_eq!(lines(Vendor::JuniperJunos, stored, "set interfaces ge-0/0/1 disable\ndelete interfaces ge-0/0/1 disable\ndelete interfaces ge-0/0/9"), vec![3]);
        assert_eq!(
            lines(Vendor::JuniperJunos, stored, "interfaces ge-0/0/1 disable"),
            vec![1]
        );
    }
}
