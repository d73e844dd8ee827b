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
    /// Index of the first word written inside `[ ]` (a list such as an import chain).
    pub list_from: Option<usize>,
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
    let (raw, edits, mut out) = read_raw(text);
    let raw = edits.in_force(raw);
    out.list = apply_groups(raw, &mut out.warnings);
    out
}

/// Reads a brace configuration whose statements end at the end of their line, without
/// `;`, and whose lists may touch their words (`["a" "b"]`): Nokia SR OS MD-CLI. No set
/// form, no groups; what stands outside the blocks is skipped as the caller decides.
pub fn read_line_ended(text: &str) -> Statements {
    let mut out = Statements::default();
    let mut raw: Vec<Raw> = Vec::new();
    let mut brace = BraceReader {
        line_ended: true,
        ..BraceReader::default()
    };
    for (i, line) in text.lines().enumerate() {
        brace.feed(line, u32::try_from(i + 1).unwrap_or(u32::MAX), &mut raw);
    }
    brace.finish(&mut raw, &mut out.warnings);
    out.list = raw.into_iter().map(|r| r.st).collect();
    out
}

/// A statement as written, before configuration groups are applied.
struct Raw {
    st: Statement,
    /// Marked `inactive:` in the brace form (set-form `deactivate` lines are in
    /// [`SetEdits`], since they apply to statements written after them too).
    inactive: bool,
}

/// Every statement as written (set-form `delete` lines applied), the set-form
/// deactivations, and what was not configuration.
fn read_raw(text: &str) -> (Vec<Raw>, SetEdits, Statements) {
    let mut out = Statements::default();
    let mut raw: Vec<Raw> = Vec::new();
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
    (raw, edits, out)
}

/// One statement of a configuration in `display set` form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetLine {
    /// Words after `set`.
    pub words: Vec<String>,
    /// Index of the first word inside `[ ]`.
    pub list_from: Option<usize>,
    /// Not in force (`inactive:` or `deactivate`): rendered with its `deactivate` line.
    pub inactive: bool,
}

impl SetLine {
    /// The statement's words as written after `set`, `delete` or `deactivate`: quoted
    /// where needed, a list in brackets.
    pub fn path(&self) -> String {
        let mut out: Vec<String> = Vec::with_capacity(self.words.len() + 2);
        for (i, w) in self.words.iter().enumerate() {
            if Some(i) == self.list_from {
                out.push("[".into());
            }
            out.push(quote(w));
        }
        if self.list_from.is_some_and(|i| i < self.words.len()) {
            out.push("]".into());
        }
        out.join(" ")
    }

    /// `set …`, followed by `deactivate …` when the statement is not in force.
    pub fn render(&self) -> String {
        let path = self.path();
        if self.inactive {
            format!("set {path}\ndeactivate {path}")
        } else {
            format!("set {path}")
        }
    }
}

/// A word as the set form writes it: quoted when it holds spaces or syntax characters.
pub fn quote(w: &str) -> String {
    let plain = !w.is_empty()
        && !w.chars().any(|c| {
            c.is_whitespace() || matches!(c, '"' | '\\' | ';' | '{' | '}' | '[' | ']' | '#' | '\'')
        });
    if plain {
        return w.to_owned();
    }
    let mut q = String::from('"');
    for c in w.chars() {
        if matches!(c, '"' | '\\') {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// The configuration as `show configuration | display set` prints it: every explicit
/// statement (groups and `apply-groups` included, not resolved) in file order, inactive
/// ones flagged. Either syntax in; a set-form text's `delete` lines already applied.
pub fn set_lines(text: &str) -> Vec<SetLine> {
    let (raw, edits, _) = read_raw(text);
    raw.into_iter()
        .map(|r| SetLine {
            inactive: r.inactive || edits.deactivates(&r.st.words),
            words: r.st.words,
            list_from: r.st.list_from,
        })
        .collect()
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
    /// Words, and where a bracketed list starts.
    Set((Vec<String>, Option<usize>)),
    Deactivate(Vec<String>),
    Activate(Vec<String>),
    Delete(Vec<String>),
}

impl SetCommand {
    fn parse(t: &str) -> Option<SetCommand> {
        let (verb, rest) = t.split_once(char::is_whitespace)?;
        let (words, list_from) = split_words(rest);
        Some(match verb {
            "set" => SetCommand::Set((words, list_from)),
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
    fn apply(&mut self, cmd: SetCommand, line: u32, raw: &mut Vec<Raw>) {
        match cmd {
            SetCommand::Set((words, list_from)) if !words.is_empty() => {
                raw.retain(|r| !replaced_by(&r.st.words, &words));
                raw.push(Raw {
                    st: Statement {
                        word_lines: vec![line; words.len()],
                        words,
                        line,
                        inherited: false,
                        list_from,
                    },
                    inactive: false,
                })
            }
            SetCommand::Set(_) => {}
            SetCommand::Deactivate(path) => self.deactivated.push(path),
            // What `display set` prints as one `deactivate` per statement under an inactive
            // path is one flag on the device: activating the path clears them all.
            SetCommand::Activate(path) => self.deactivated.retain(|p| !p.starts_with(&path)),
            // A deleted statement goes with its inactive mark, as on the device.
            SetCommand::Delete(path) => {
                raw.retain(|r| !r.st.words.starts_with(&path));
                self.deactivated.retain(|p| !p.starts_with(&path));
            }
        }
    }

    fn deactivates(&self, words: &[String]) -> bool {
        self.deactivated.iter().any(|p| words.starts_with(p))
    }

    /// The statements in force: neither marked inactive nor under a deactivated path.
    fn in_force(self, raw: Vec<Raw>) -> Vec<Statement> {
        raw.into_iter()
            .filter(|r| !r.inactive && !self.deactivates(&r.st.words))
            .map(|r| r.st)
            .collect()
    }
}

/// Leaves that hold one value: a second `set` replaces the first (Junos keeps the last).
const SINGLE_VALUED: &[&str] = &[
    "mtu",
    "metric",
    "description",
    "peer-as",
    "local-as",
    "type",
    "preference",
    "local-preference",
    "vlan-id",
    "hold-time",
    "local-address",
    "router-id",
    "autonomous-system",
    "speed",
    "interface-mode",
    "next-hop-self",
];

/// Whether the statement `old` is replaced by a later `set new`: the same statement, a
/// single-valued leaf given another value, or a term's other final action (`then accept`
/// after `then discard`).
fn replaced_by(old: &[String], new: &[String]) -> bool {
    if old == new {
        return true;
    }
    let n = new.len();
    if n < 2 || old.len() != n || old[..n - 1] != new[..n - 1] {
        return false;
    }
    let leaf = new[n - 2].as_str();
    let action = |w: &str| matches!(w, "accept" | "discard" | "reject");
    // An interface's `filter input F` / `filter output F`: one filter each way.
    let filter = matches!(leaf, "input" | "output") && n >= 3 && new[n - 3] == "filter";
    SINGLE_VALUED.contains(&leaf)
        || filter
        || (leaf == "then" && action(&new[n - 1]) && action(&old[n - 1]))
}

/// Splits a set-form line into words: quoted strings are one word, brackets dropped (and
/// where the list they opened starts, returned beside the words).
fn split_words(s: &str) -> (Vec<String>, Option<usize>) {
    let mut out = Vec::new();
    let mut list_from = None;
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
            if w == "[" {
                list_from = list_from.or(Some(out.len()));
            } else if w != "]" {
                out.push(w);
            }
        }
    }
    (out, list_from)
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
    /// Where a bracketed list starts among the pending words.
    pending_list_from: Option<usize>,
    /// A quoted string being read (it may span lines).
    quote: Option<String>,
    in_comment: bool,
    /// A line's end ends its statement and `[` `]` stand alone (SR OS MD-CLI).
    line_ended: bool,
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
        if w == "[" {
            self.pending_list_from = self.pending_list_from.or(Some(self.pending.len()));
        } else if w != "]" {
            self.pending.push(w);
            self.pending_lines.push(no);
        }
    }

    fn feed(&mut self, line: &str, no: u32, out: &mut Vec<Raw>) {
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
                '[' | ']' if self.line_ended => {
                    if !word.is_empty() {
                        self.word(std::mem::take(&mut word), no);
                    }
                    self.word(c.to_string(), no);
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
        } else if self.line_ended {
            self.end_statement(out);
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
        self.pending_list_from = None;
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
        list_from: Option<usize>,
        out: &mut Vec<Raw>,
    ) {
        if words.is_empty() {
            return;
        }
        let inactive = inactive || self.stack.iter().any(|f| f.inactive);
        out.push(Raw {
            st: Statement {
                words,
                word_lines,
                line,
                inherited: false,
                list_from,
            },
            inactive,
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

    fn end_statement(&mut self, out: &mut Vec<Raw>) {
        let list_at = self.pending_list_from.take();
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
        let list_from = list_at.map(|i| words.0.len() - pending.len() + i);
        self.emit(words, self.pending_line, inactive, list_from, out);
    }

    fn close(&mut self, out: &mut Vec<Raw>) {
        // Words before a `}` without `;`: a statement the writer did not terminate.
        self.end_statement(out);
        let Some(frame) = self.stack.last() else {
            return;
        };
        // An empty block still configures its path (`unit 0 { }` is `set … unit 0`).
        if frame.children == 0 {
            let words = self.path_with(&[], &[]);
            let (line, inactive) = (frame.line, frame.inactive);
            self.emit(words, line, inactive, None, out);
        }
        self.stack.pop();
    }

    fn finish(&mut self, out: &mut Vec<Raw>, warnings: &mut Vec<LineWarning>) {
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
                        list_from: s.list_from.and_then(|i| i.checked_sub(2)),
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
            // The group's second description replaces its first, as on the device.
            vec![
                ("interfaces ge-0/0/0 mtu 9000".into(), true),
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
    fn the_set_form_reads_back_as_the_same_statements() {
        let brace = "system {\n    host-name \"r 1\";\n}\ngroups {\n    G {\n        interfaces { ge-0/0/0 { mtu 9000; } }\n    }\n}\napply-groups G;\ninterfaces {\n    ge-0/0/0 {\n        description \"to \\\"core\\\"\";\n        unit 0 { family inet { address 10.0.0.1/31; } }\n    }\n    inactive: ge-0/0/1 { unit 0; }\n}\nprotocols { bgp { group G { import [ A B ]; neighbor 10.0.0.0; } } }\n";
        let lines = set_lines(brace);
        let text: String = lines.iter().map(|l| format!("{}\n", l.render())).collect();
        assert!(
            text.contains("set protocols bgp group G import [ A B ]\n"),
            "{text}"
        );
        assert!(text.contains("set system host-name \"r 1\"\n"), "{text}");
        assert!(
            text.contains(
                "set interfaces ge-0/0/1 unit 0\ndeactivate interfaces ge-0/0/1 unit 0\n"
            ),
            "{text}"
        );
        let words =
            |t: &str| -> Vec<String> { read(t).list.iter().map(|s| s.words.join("|")).collect() };
        assert_eq!(words(&text), words(brace));
        assert_eq!(set_lines(&text), lines);
    }

    #[test]
    fn a_delete_line_takes_the_statements_and_their_inactive_marks() {
        let text = "interfaces {\n    ge-0/0/0 { mtu 9000; }\n    inactive: ge-0/0/1 { mtu 1500; }\n    ge-0/0/2 { mtu 1400; }\n}\ndelete interfaces ge-0/0/0\n";
        // The inactive statement after the deleted one stays inactive.
        assert_eq!(
            words(text),
            vec![("interfaces ge-0/0/2 mtu 1400".into(), 4)]
        );
        let set = "set interfaces ge-0/0/1 mtu 1500\ndeactivate interfaces ge-0/0/1\ndelete interfaces ge-0/0/1\nset interfaces ge-0/0/1 mtu 9000\n";
        assert_eq!(words(set), vec![("interfaces ge-0/0/1 mtu 9000".into(), 4)]);
    }

    #[test]
    fn unclosed_blocks_warn() {
        let r = read("interfaces {\n    lo0 {\n        unit 0 {\n            family inet;\n");
        assert_eq!(r.list.len(), 1);
        assert_eq!(r.warnings.len(), 1);
        assert_eq!(r.warnings[0].line, 1);
    }
}
