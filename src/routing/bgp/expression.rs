//! The Cisco-style regular expressions of expanded community lists, matched against a
//! route's communities written out (`65000:1 65000:2`): literals, `.`, `_` (a delimiter:
//! the start, the end, a space, a comma, a brace or a parenthesis), `^`, `$`, character
//! classes (`[0-9]`, `[^…]`), `*`, `+`, `?` and top-level `|`. Anything else (groups,
//! back references) is not evaluated: None.

/// One atom of an expression.
#[derive(Debug, Clone)]
enum Atom {
    Char(char),
    Any,
    Delimiter,
    Start,
    End,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

/// An atom with how often it repeats.
#[derive(Debug, Clone)]
struct Piece {
    atom: Atom,
    min: usize,
    max: usize,
}

/// The alternatives of an expression, each a sequence of pieces.
fn parse(expr: &str) -> Option<Vec<Vec<Piece>>> {
    expr.split('|').map(parse_sequence).collect()
}

fn parse_sequence(expr: &str) -> Option<Vec<Piece>> {
    let chars: Vec<char> = expr.chars().collect();
    let mut out: Vec<Piece> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let atom = match chars[i] {
            '.' => Atom::Any,
            '_' => Atom::Delimiter,
            '^' => Atom::Start,
            '$' => Atom::End,
            '\\' => {
                i += 1;
                Atom::Char(*chars.get(i)?)
            }
            '[' => {
                let end = chars[i..].iter().position(|c| *c == ']')? + i;
                let mut inner: &[char] = &chars[i + 1..end];
                let negated = inner.first() == Some(&'^');
                if negated {
                    inner = &inner[1..];
                }
                let mut ranges = Vec::new();
                let mut k = 0;
                while k < inner.len() {
                    if k + 2 < inner.len() && inner[k + 1] == '-' {
                        ranges.push((inner[k], inner[k + 2]));
                        k += 3;
                    } else {
                        ranges.push((inner[k], inner[k]));
                        k += 1;
                    }
                }
                i = end;
                Atom::Class { negated, ranges }
            }
            '*' | '+' | '?' => {
                let last = out.last_mut()?;
                let (min, max) = match chars[i] {
                    '*' => (0, usize::MAX),
                    '+' => (1, usize::MAX),
                    _ => (0, 1),
                };
                last.min = min;
                last.max = max;
                i += 1;
                continue;
            }
            '(' | ')' | '{' | '}' => return None,
            c => Atom::Char(c),
        };
        out.push(Piece {
            atom,
            min: 1,
            max: 1,
        });
        i += 1;
    }
    Some(out)
}

fn delimiter(c: char) -> bool {
    matches!(c, ' ' | ',' | '{' | '}' | '(' | ')')
}

/// Matches `pieces` at position `at` of `text` (backtracking).
fn here(pieces: &[Piece], text: &[char], at: usize) -> bool {
    let Some((p, rest)) = pieces.split_first() else {
        return true;
    };
    match p.atom {
        // Zero-width atoms (the delimiter also at the text's ends).
        Atom::Start => return at == 0 && here(rest, text, at),
        Atom::End => return at == text.len() && here(rest, text, at),
        Atom::Delimiter if (at == 0 || at == text.len()) && here(rest, text, at) => {
            return true;
        }
        _ => {}
    }
    let fits = |c: char| match &p.atom {
        Atom::Char(x) => c == *x,
        Atom::Any => true,
        Atom::Delimiter => delimiter(c),
        Atom::Class { negated, ranges } => {
            ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)) != *negated
        }
        Atom::Start | Atom::End => false,
    };
    let mut n = 0;
    while n < p.max && at + n < text.len() && fits(text[at + n]) {
        n += 1;
    }
    (p.min..=n).rev().any(|k| here(rest, text, at + k))
}

/// Whether `expr` matches somewhere in `text`; None when olav does not evaluate it.
pub fn matches(expr: &str, text: &str) -> Option<bool> {
    let alternatives = parse(expr)?;
    let chars: Vec<char> = text.chars().collect();
    Some(
        alternatives
            .iter()
            .any(|seq| (0..=chars.len()).any(|at| here(seq, &chars, at))),
    )
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn cisco_expressions_match_communities() {
        assert_eq!(matches("_2:", "2:1"), Some(true));
        assert_eq!(matches("_2:", "12:1"), Some(false));
        assert_eq!(matches("_2:", "1:1 2:5"), Some(true));
        assert_eq!(matches("^65000:[0-9]+$", "65000:17"), Some(true));
        assert_eq!(matches("^65000:[0-9]+$", "65000:17 1:1"), Some(false));
        assert_eq!(matches(".*", ""), Some(true));
        assert_eq!(matches("1:1|2:2", "2:2"), Some(true));
        assert_eq!(matches("(1:1)", "1:1"), None);
    }
}
