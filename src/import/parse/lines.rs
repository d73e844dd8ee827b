//! Splits a Cisco-style configuration into meaningful lines: numbered, indentation
//! measured, comments, blank lines and banner bodies skipped.
//!
//! IOS, IOS-XE, EOS and NX-OS all print hierarchical configuration as indented lines;
//! the per-vendor parsers walk these lines with a context stack (see [`ContextStack`]).

/// One meaningful line of a configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based line number in the file.
    pub no: u32,
    /// Leading spaces (a tab counts as one).
    pub indent: usize,
    /// The line without leading and trailing white space.
    pub text: &'a str,
}

/// Iterator over the meaningful lines of a configuration.
pub struct ConfigLines<'a> {
    rest: std::str::Lines<'a>,
    no: u32,
    /// Lines consumed by banners and comments, which count as neither recognised nor unknown.
    pub skipped: u32,
}

impl<'a> ConfigLines<'a> {
    /// Starts reading `text`.
    pub fn new(text: &'a str) -> Self {
        ConfigLines {
            rest: text.lines(),
            no: 0,
            skipped: 0,
        }
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> u32 {
        self.no
    }

    /// Skips a banner body. `first` is the text after `banner <kind>`.
    fn skip_banner(&mut self, first: &str) {
        let first = first.trim();
        // EOS: `banner login` followed by lines up to `EOF`.
        if first.is_empty() {
            for l in self.rest.by_ref() {
                self.no += 1;
                self.skipped += 1;
                if l.trim() == "EOF" {
                    return;
                }
            }
            return;
        }
        // IOS / NX-OS: a delimiter (`^C`, ETX, `#`, …) opens and closes the body.
        let delim: &str = if first.starts_with("^C") {
            "^C"
        } else {
            let end = first.char_indices().nth(1).map_or(first.len(), |(i, _)| i);
            &first[..end]
        };
        let delim = delim.to_owned();
        if first[delim.len()..].contains(delim.as_str()) {
            return;
        }
        for l in self.rest.by_ref() {
            self.no += 1;
            self.skipped += 1;
            if l.contains(delim.as_str()) {
                return;
            }
        }
    }
}

impl<'a> Iterator for ConfigLines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        loop {
            let raw = self.rest.next()?;
            self.no += 1;
            let trimmed_start = raw.trim_start_matches([' ', '\t']);
            let indent = raw.len() - trimmed_start.len();
            let text = trimmed_start.trim_end();
            if text.is_empty() || text.starts_with('!') || text.starts_with('#') {
                self.skipped += 1;
                continue;
            }
            if indent == 0 {
                if let Some(rest) = text.strip_prefix("banner ") {
                    let after_kind = rest
                        .split_once(char::is_whitespace)
                        .map_or("", |(_, after)| after);
                    self.skipped += 1;
                    self.skip_banner(after_kind);
                    continue;
                }
            }
            return Some(Line {
                no: self.no,
                indent,
                text,
            });
        }
    }
}

/// A stack of nested configuration contexts keyed by indentation.
///
/// A line closes every open context indented as much as or more than itself; what is
/// left on top is the context the line belongs to.
pub struct ContextStack<C> {
    frames: Vec<(usize, C)>,
}

impl<C> Default for ContextStack<C> {
    fn default() -> Self {
        ContextStack { frames: Vec::new() }
    }
}

impl<C> ContextStack<C> {
    /// Closes the contexts a line at `indent` leaves.
    pub fn enter_line(&mut self, indent: usize) {
        while self.frames.last().is_some_and(|(i, _)| *i >= indent) {
            self.frames.pop();
        }
    }

    /// The context of the current line.
    pub fn top(&self) -> Option<&C> {
        self.frames.last().map(|(_, c)| c)
    }

    /// Opens a context begun by a line at `indent`.
    pub fn push(&mut self, indent: usize, ctx: C) {
        self.frames.push((indent, ctx));
    }

    /// Closes the innermost context (`exit`, `exit-address-family`).
    pub fn pop(&mut self) {
        self.frames.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_comments_and_ios_banners() {
        let cfg = "hostname r1\n!\nbanner motd ^C\nhello\nworld^C\ninterface Gi1\n description x\n";
        let lines: Vec<_> = ConfigLines::new(cfg)
            .map(|l| (l.no, l.indent, l.text))
            .collect();
        assert_eq!(
            lines,
            vec![
                (1, 0, "hostname r1"),
                (6, 0, "interface Gi1"),
                (7, 1, "description x")
            ]
        );
    }

    #[test]
    fn skips_eos_banner_until_eof() {
        let cfg = "banner login\nWelcome\ninterface Ethernet1\nEOF\nhostname a\n";
        let lines: Vec<_> = ConfigLines::new(cfg).map(|l| l.text).collect();
        assert_eq!(lines, vec!["hostname a"]);
    }

    #[test]
    fn single_line_banner() {
        let cfg = "banner motd #Authorised only#\nhostname a\n";
        let lines: Vec<_> = ConfigLines::new(cfg).map(|l| l.text).collect();
        assert_eq!(lines, vec!["hostname a"]);
    }

    #[test]
    fn context_stack_pops_by_indent() {
        let mut s = ContextStack::default();
        s.push(0, "bgp");
        s.enter_line(1);
        s.push(1, "af");
        s.enter_line(2);
        assert_eq!(s.top(), Some(&"af"));
        s.enter_line(1);
        assert_eq!(s.top(), Some(&"bgp"));
        s.enter_line(0);
        assert_eq!(s.top(), None);
    }
}
