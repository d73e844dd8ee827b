//! IOS-XR's running config as a tree: a line deeper indented than the one before it is
//! that line's child; `!` lines and blank lines only close blocks.

/// One configuration line and the lines nested under it.
#[derive(Debug, Clone)]
pub struct Node {
    /// The line without its indentation.
    pub text: String,
    /// 1-based line number.
    pub line: u32,
    /// Its indentation.
    indent: usize,
    /// The lines under it, in order.
    pub children: Vec<Node>,
}

impl Node {
    /// Its words.
    pub fn words(&self) -> Vec<&str> {
        self.text.split_whitespace().collect()
    }

    /// How many lines sit under it, at any depth.
    pub fn count(&self) -> u32 {
        self.children.iter().map(|c| 1 + c.count()).sum()
    }

    /// It and every line under it, depth first, in file order.
    pub fn flatten(&self) -> Vec<&Node> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.flatten());
        }
        out
    }
}

/// The top-level lines of `text`, each with its block.
pub fn read(text: &str) -> Vec<Node> {
    // The open blocks, outermost first.
    let mut stack: Vec<Node> = Vec::new();
    let mut roots: Vec<Node> = Vec::new();
    let close = |stack: &mut Vec<Node>, roots: &mut Vec<Node>, indent: usize| {
        while stack.last().is_some_and(|n| n.indent >= indent) {
            if let Some(done) = stack.pop() {
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => roots.push(done),
                }
            }
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim();
        let indent = raw.len() - raw.trim_start().len();
        if t.is_empty() || t.starts_with("!!") || t.starts_with('#') {
            continue;
        }
        if t == "!" {
            // A `!` closes the blocks at its depth and deeper.
            close(&mut stack, &mut roots, indent + 1);
            continue;
        }
        if indent == 0 && (t.starts_with("Building configuration") || t.starts_with("!")) {
            continue;
        }
        close(&mut stack, &mut roots, indent);
        stack.push(Node {
            text: t.to_owned(),
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            indent,
            children: Vec::new(),
        });
    }
    close(&mut stack, &mut roots, 0);
    roots
}
