//! Junos configuration text → flat statements, one per leaf, as `show configuration |
//! display set` prints them (without the `set`), each with its source line.
//!
//! Both syntaxes end here: `set` lines are split into words; the hierarchical brace form
//! is walked with a stack of the enclosing blocks' words, so `interfaces { lo0 { unit 0 {
//! family inet { address 10.0.0.1/32; } } } }` becomes `interfaces lo0 unit 0 family inet
//! address 10.0.0.1/32`. The model is then built from statements once, whatever the syntax.
//!
//! Inactive configuration (`inactive:` in the brace form, `deactivate …` in the set form)
//! is not in force on the device and is dropped here. Configuration groups are resolved
//! here too: the statements of a group named by `apply-groups` are inherited at that
//! level, before the explicit statements so that explicit configuration wins.

use crate::model::LineWarning;
use std::collections::{BTreeSet, HashMap, HashSet};

/// One configuration statement: its full path of words from the top of the hierarchy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// Words, quotes removed, list brackets dropped (`import [ A B ]` → `import A B`).
    pub words: Vec<String>,
    /// The 1-based source line of each word (in the brace form the words of one statement
    /// sit on the lines of its enclosing blocks; for an inherited statement, in its group).
    pub word_lines: Vec<u32>,
    /// The line of the statement itself: where its innermost part is written.
    pub line: u32,
    /// Inherited from a configuration group through `apply-groups`.
    pub inherited: bool,
}

impl Statement {
    /// The line of the first of `rest`, a tail of this statement's words (the statement's
    /// own line when `rest` is empty).
    pub fn line_of(&self, rest: &[&str]) -> u32 {
        let i = self.words.len().saturating_sub(rest.len());
        self.word_lines.get(i).copied().unwrap_or(self.line)
    }
}

/// What reading a configuration produced.
#[derive(Debug, Default)]
pub struct Statements {
    /// Statements in force: inherited ones first, then explicit ones in file order.
    pub list: Vec<Statement>,
    /// Lines that are neither configuration, comments nor CLI prompts.
    pub unrecognised_lines: BTreeSet<u32>,
    /// Structural problems (unclosed blocks, unknown groups, wildcard groups).
    pub warnings: Vec<LineWarning>,
}

/// Reads a configuration in either syntax.
pub fn read(text: &str) -> Statements {
    let mut out = Statements::default();
    let mut raw: Vec<Statement> = Vec::new();
    let mut edits = SetEdits::default();
    let set_form = looks_set_form(text);
    let mut brace = BraceReader::default();
    for (i, line) in text.lines().enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let t = line.trim();
        if brace.at_top() {
            if t.is_empty() || t.starts_with('#') || is_prompt(t) {
                continue;
            }
            if let Some(cmd) = SetCommand::parse(t) {
                edits.apply(cmd, no, &mut raw);
                continue;
            }
            // At the top of the hierarchy every brace-form line ends a statement or opens
            // or closes a block; anything else (a CLI prompt, a pasted command) is not config.
            let ends_config = t.ends_with(['{', ';', '}']) || t.starts_with("/*");
            if set_form || !ends_config {
                out.unrecognised_lines.insert(no);
                continue;
            }
        }
        brace.feed(line, no, &mut raw);
    }
    brace.finish(&mut raw, &mut out.warnings);
    let raw = edits.without_inactive(raw, brace.inactive);
    out.list = apply_groups(raw, &mut out.warnings);
    out
}

/// Whether the text is in `display set` form: more `set` lines than brace-form lines.
fn looks_set_form(text: &str) -> bool {
    let (mut set, mut brace) = (0usize, 0usize);
    for l in text.lines().map(str::trim) {
        if SetCommand::parse(l).is_some() {
            set += 1;
        } else if l.ends_with(['{', ';', '}']) {
            brace += 1;
        }
    }
    set > 0 && set >= brace
}

/// CLI prompt and mode lines a capture may hold: `{master:0}`, `[edit]`.
fn is_prompt(t: &str) -> bool {
    let prompt = t.len() > 2 && t.starts_with('{') && t.ends_with('}');
    (prompt && !t.contains(char::is_whitespace))
        || t == "[edit]"
        || (t.starts_with("[edit ") && t.ends_with(']'))
}

/// A set-form command.
enum SetCommand {
    Set(Vec<String>),
    Deactivate(Vec<String>),
    Activate(Vec<String>),
    Delete(Vec<String>),
}

impl SetCommand {
    fn parse(t: &str) -> Option<SetCommand> {
        let (verb, rest) = t.split_once(char::is_whitespace)?;
        let words = split_words(rest);
        Some(match verb {
            "set" => SetCommand::Set(words),
            "deactivate" => SetCommand::Deactivate(words),
            "activate" => SetCommand::Activate(words),
            "delete" => SetCommand::Delete(words),
            _ => return None,
        })
    }
}

/// `deactivate`, `activate` and `delete` lines of the set form.
#[derive(Default)]
struct SetEdits {
    deactivated: Vec<Vec<String>>,
}

impl SetEdits {
    fn apply(&mut self, cmd: SetCommand, line: u32, raw: &mut Vec<Statement>) {
        match cmd {
            SetCommand::Set(words) if !words.is_empty() => raw.push(Statement {
                word_lines: vec![line; words.len()],
                words,
                line,
                inherited: false,
            }),
            SetCommand::Set(_) => {}
            SetCommand::Deactivate(path) => self.deactivated.push(path),
            SetCommand::Activate(path) => self.deactivated.retain(|p| *p != path),
            SetCommand::Delete(path) => raw.retain(|s| !s.words.starts_with(&path)),
        }
    }

    /// Drops statements under a deactivated path and the brace form's inactive ones.
    fn without_inactive(self, raw: Vec<Statement>, inactive: HashSet<usize>) -> Vec<Statement> {
        raw.into_iter()
            .enumerate()
            .filter(|(i, s)| {
                !inactive.contains(i) && !self.deactivated.iter().any(|p| s.words.starts_with(p))
            })
            .map(|(_, s)| s)
            .collect()
    }
}

/// Splits a set-form line into words: quoted strings are one word, brackets dropped.
fn split_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut w = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        if let Some(n) = chars.next() {
                            w.push(n);
                        }
                    }
                    '"' => break,
                    c => w.push(c),
                }
            }
            out.push(w);
        } else {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                w.push(c);
                chars.next();
            }
            if w != "[" && w != "]" {
                out.push(w);
            }
        }
    }
    out
}

/// An open block of the brace form.
struct Frame {
    words: Vec<String>,
    word_lines: Vec<u32>,
    inactive: bool,
    line: u32,
    children: usize,
}

/// The brace-form walk: tokens across lines, a stack of open blocks.
#[derive(Default)]
struct BraceReader {
    stack: Vec<Frame>,
    pending: Vec<String>,
    pending_lines: Vec<u32>,
    pending_line: u32,
    pending_inactive: bool,
    /// A quoted string being read (it may span lines).
    quote: Option<String>,
    in_comment: bool,
    /// Indexes of emitted statements that are inactive.
    inactive: HashSet<usize>,
}

impl BraceReader {
    /// Outside every block, between statements.
    fn at_top(&self) -> bool {
        self.stack.is_empty() && self.pending.is_empty() && self.quote.is_none() && !self.in_comment
    }

    fn word(&mut self, w: String, no: u32) {
        if self.pending.is_empty() {
            self.pending_line = no;
            // Markers before a statement: `inactive:` takes it out of force; `protect:`
            // and `replace:` only steer commits and loads.
            match w.as_str() {
                "inactive:" => {
                    self.pending_inactive = true;
                    return;
                }
                "protect:" | "replace:" => return,
                _ => {}
            }
        }
        if w != "[" && w != "]" {
            self.pending.push(w);
            self.pending_lines.push(no);
        }
    }

    fn feed(&mut self, line: &str, no: u32, out: &mut Vec<Statement>) {
        let mut chars = line.chars().peekable();
        let mut word = String::new();
        while let Some(c) = chars.next() {
            if self.in_comment {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    self.in_comment = false;
                }
                continue;
            }
            if let Some(q) = self.quote.as_mut() {
                match c {
                    '\\' => {
                        if let Some(n) = chars.next() {
                            q.push(n);
                        }
                    }
                    '"' => {
                        let q = self.quote.take().unwrap_or_default();
                        self.word(q, no);
                    }
                    c => q.push(c),
                }
                continue;
            }
            match c {
                '"' if word.is_empty() => self.quote = Some(String::new()),
                '#' if word.is_empty() => break,
                '/' if word.is_empty() && chars.peek() == Some(&'*') => {
                    chars.next();
                    self.in_comment = true;
                }
                '{' | '}' | ';' => {
                    if !word.is_empty() {
                        self.word(std::mem::take(&mut word), no);
                    }
                    match c {
                        '{' => self.open(no),
                        '}' => self.close(out),
                        _ => self.end_statement(out),
                    }
                }
                c if c.is_whitespace() => {
                    if !word.is_empty() {
                        self.word(std::mem::take(&mut word), no);
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            self.word(word, no);
        }
        if let Some(q) = self.quote.as_mut() {
            q.push('\n');
        }
    }

    fn open(&mut self, no: u32) {
        if let Some(parent) = self.stack.last_mut() {
            parent.children += 1;
        }
        let line = if self.pending.is_empty() {
            no
        } else {
            self.pending_line
        };
        self.stack.push(Frame {
            words: std::mem::take(&mut self.pending),
            word_lines: std::mem::take(&mut self.pending_lines),
            inactive: std::mem::take(&mut self.pending_inactive),
            line,
            children: 0,
        });
    }

    fn emit(
        &mut self,
        (words, word_lines): (Vec<String>, Vec<u32>),
        line: u32,
        inactive: bool,
        out: &mut Vec<Statement>,
    ) {
        if words.is_empty() {
            return;
        }
        let inactive = inactive || self.stack.iter().any(|f| f.inactive);
        if inactive {
            self.inactive.insert(out.len());
        }
        out.push(Statement {
            words,
            word_lines,
            line,
            inherited: false,
        });
    }

    /// The open blocks' words followed by `tail`, with their lines.
    fn path_with(&self, tail: &[String], tail_lines: &[u32]) -> (Vec<String>, Vec<u32>) {
        let words = self
            .stack
            .iter()
            .flat_map(|f| f.words.iter())
            .chain(tail)
            .cloned()
            .collect();
        let lines = self
            .stack
            .iter()
            .flat_map(|f| f.word_lines.iter())
            .chain(tail_lines)
            .copied()
            .collect();
        (words, lines)
    }

    fn end_statement(&mut self, out: &mut Vec<Statement>) {
        if self.pending.is_empty() {
            self.pending_inactive = false;
            return;
        }
        if let Some(parent) = self.stack.last_mut() {
            parent.children += 1;
        }
        let pending = std::mem::take(&mut self.pending);
        let lines = std::mem::take(&mut self.pending_lines);
        let words = self.path_with(&pending, &lines);
        let inactive = std::mem::take(&mut self.pending_inactive);
        self.emit(words, self.pending_line, inactive, out);
    }

    fn close(&mut self, out: &mut Vec<Statement>) {
        // Words before a `}` without `;`: a statement the writer did not terminate.
        self.end_statement(out);
        let Some(frame) = self.stack.last() else {
            return;
        };
        // An empty block still configures its path (`unit 0 { }` is `set … unit 0`).
        if frame.children == 0 {
            let words = self.path_with(&[], &[]);
            let (line, inactive) = (frame.line, frame.inactive);
            self.emit(words, line, inactive, out);
        }
        self.stack.pop();
    }

    fn finish(&mut self, out: &mut Vec<Statement>, warnings: &mut Vec<LineWarning>) {
        if !self.pending.is_empty() {
            warnings.push(LineWarning {
                line: self.pending_line,
                message:
                    "statement not closed with ';' at the end of the file: the file looks truncated"
                        .into(),
            });
            self.end_statement(out);
        }
        if let Some(first) = self.stack.first() {
            warnings.push(LineWarning {
                line: first.line,
                message: format!(
                    "{} block(s) not closed at the end of the file: the file looks truncated; imported what it holds",
                    self.stack.len()
                ),
            });
        }
    }
}

/// Resolves `groups` and `apply-groups`: group statements applied at a level are
/// inherited there (the first group named has priority, a deeper `apply-groups` over a
/// shallower one), explicit statements come after them so that a single-valued setting
/// configured explicitly wins. Groups with wildcard names (`<*>`, `<ge-*>`) are not
/// modelled: applying one is a warning.
fn apply_groups(raw: Vec<Statement>, warnings: &mut Vec<LineWarning>) -> Vec<Statement> {
    let mut groups: HashMap<String, Vec<Statement>> = HashMap::new();
    let mut applies: Vec<(Vec<String>, Vec<String>, u32)> = Vec::new();
    let mut explicit = Vec::new();
    for s in raw {
        if s.words.first().map(String::as_str) == Some("groups") {
            if let Some(name) = s.words.get(1) {
                let rest = s.words[2..].to_vec();
                let entry = groups.entry(name.clone()).or_default();
                if !rest.is_empty() {
                    entry.push(Statement {
                        words: rest,
                        word_lines: s.word_lines.get(2..).unwrap_or_default().to_vec(),
                        line: s.line,
                        inherited: true,
                    });
                }
            }
            continue;
        }
        if let Some(i) = s.words.iter().position(|w| w == "apply-groups") {
            // `display set` prints `apply-groups [ A B ]` as one line per group: one list.
            let (path, names) = (&s.words[..i], &s.words[i + 1..]);
            match applies.iter_mut().find(|(p, _, _)| p.as_slice() == path) {
                Some(a) => a.1.extend(names.iter().cloned()),
                None => applies.push((path.to_vec(), names.to_vec(), s.line)),
            }
            continue;
        }
        explicit.push(s);
    }
    if applies.is_empty() {
        return explicit;
    }
    // Lowest priority first: shallow levels before deep ones, the last group named first.
    applies.sort_by_key(|(path, _, _)| path.len());
    let explicit_words: HashSet<&Vec<String>> = explicit.iter().map(|s| &s.words).collect();
    let mut seen: HashSet<Vec<String>> = HashSet::new();
    let mut inherited = Vec::new();
    let mut wildcard_warned: HashSet<String> = HashSet::new();
    for (path, names, line) in &applies {
        for name in names.iter().rev() {
            let Some(body) = groups.get(name) else {
                warnings.push(LineWarning {
                    line: *line,
                    message: format!("apply-groups: group '{name}' is not defined"),
                });
                continue;
            };
            let mut wildcards = 0;
            for s in body.iter().filter(|s| s.words.starts_with(path)) {
                // Wildcards are matched against the configuration; nested `apply-groups`
                // would need a second round. Neither is modelled.
                if s.words
                    .iter()
                    .any(|w| (w.starts_with('<') && w.ends_with('>')) || w == "apply-groups")
                {
                    wildcards += 1;
                    continue;
                }
                if explicit_words.contains(&s.words) || !seen.insert(s.words.clone()) {
                    continue;
                }
                inherited.push(s.clone());
            }
            if wildcards > 0 && wildcard_warned.insert(name.clone()) {
                warnings.push(LineWarning {
                    line: *line,
                    message: format!(
                        "group '{name}': {wildcards} statement(s) with wildcards (<*> patterns) or nested apply-groups are not modelled and not inherited"
                    ),
                });
            }
        }
    }
    inherited.extend(explicit);
    inherited
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<(String, u32)> {
        read(text)
            .list
            .into_iter()
            .map(|s| (s.words.join(" "), s.line))
            .collect()
    }

    #[test]
    fn brace_form_becomes_set_statements() {
        let text = "## Last commit: 2024\nversion 17.4R1;\nsystem {\n    host-name \"r 1\";\n}\ninterfaces {\n    /* uplink\n       to core */\n    ge-0/0/0 {\n        unit 0 {\n            family inet {\n                address 10.0.0.1/31;\n            }\n            family mpls;\n        }\n    }\n    lo0 {\n        unit 0 { }\n    }\n}\nprotocols { bgp { group G { import [ A B ]; } } }\n";
        assert_eq!(
            words(text),
            vec![
                ("version 17.4R1".into(), 2),
                ("system host-name r 1".into(), 4),
                (
                    "interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/31".into(),
                    12
                ),
                ("interfaces ge-0/0/0 unit 0 family mpls".into(), 14),
                ("interfaces lo0 unit 0".into(), 18),
                ("protocols bgp group G import A B".into(), 21),
            ]
        );
    }

    #[test]
    fn set_form_quotes_prompts_and_deactivate() {
        let text = "set system host-name r1\nset interfaces ge-0/0/0 description \"to \\\"core\\\"\"\nset interfaces ge-0/0/1 unit 0 family inet address 10.0.1.1/24\ndeactivate interfaces ge-0/0/1\n\n{master:0}\nuser@r1> exit\n";
        let r = read(text);
        let got: Vec<String> = r.list.iter().map(|s| s.words.join("|")).collect();
        assert_eq!(
            got,
            vec![
                "system|host-name|r1",
                "interfaces|ge-0/0/0|description|to \"core\""
            ]
        );
        assert_eq!(
            r.unrecognised_lines.into_iter().collect::<Vec<_>>(),
            vec![7]
        );
    }

    #[test]
    fn inactive_and_protect_markers() {
        let text = "interfaces {\n    inactive: ge-0/0/1 {\n        unit 0;\n    }\n    protect: ge-0/0/2 {\n        inactive: description x;\n        mtu 9000;\n    }\n}\n";
        assert_eq!(
            words(text),
            vec![("interfaces ge-0/0/2 mtu 9000".into(), 7)]
        );
    }

    #[test]
    fn groups_are_inherited_and_explicit_wins_by_order() {
        let text = "set groups G interfaces ge-0/0/0 mtu 9000\nset groups G interfaces ge-0/0/0 description from-group\nset groups W interfaces <*> mtu 1500\nset apply-groups [ W G ]\nset interfaces ge-0/0/0 description explicit\nset groups G interfaces ge-0/0/0 description explicit\n";
        let r = read(text);
        let got: Vec<(String, bool)> = r
            .list
            .iter()
            .map(|s| (s.words.join(" "), s.inherited))
            .collect();
        assert_eq!(
            got,
            vec![
                ("interfaces ge-0/0/0 mtu 9000".into(), true),
                ("interfaces ge-0/0/0 description from-group".into(), true),
                ("interfaces ge-0/0/0 description explicit".into(), false),
            ]
        );
        assert_eq!(r.warnings.len(), 1);
        assert!(
            r.warnings[0].message.contains("wildcard"),
            "{:?}",
            r.warnings
        );
    }

    #[test]
    fn every_word_keeps_its_line() {
        let r = read("protocols {\n    bgp {\n        group G {\n            neighbor 10.0.0.1 {\n                description x;\n            }\n        }\n    }\n}\n");
        let s = &r.list[0];
        assert_eq!(s.word_lines, vec![1, 2, 3, 3, 4, 4, 5, 5]);
        assert_eq!(s.line, 5);
        let w: Vec<&str> = s.words.iter().map(String::as_str).collect();
        assert_eq!(s.line_of(&w[4..]), 4);
        assert_eq!(s.line_of(&[]), 5);
    }

    #[test]
    fn unclosed_blocks_warn() {
        let r = read("interfaces {\n    lo0 {\n        unit 0 {\n            family inet;\n");
        assert_eq!(r.list.len(), 1);
        assert_eq!(r.warnings.len(), 1);
        assert_eq!(r.warnings[0].line, 1);
    }
}
