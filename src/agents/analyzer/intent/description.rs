//! A description given without quotes: the text after the interface it is set on
//! ("… Et11 to planned link to beta-core-2", "… Gi0/0/3: spare", "…的描述改为 备用端口"),
//! or between the word and the device ("set description spare on alpha-border-1 Gi0/0/3").

use super::mentions::{interface_like, quoted};

/// Words that introduce the text, dropped from its start (each at most once, in order).
const LEAD: &[&str] = &[
    "的",
    "描述",
    "修改为",
    "设置为",
    "改为",
    "设为",
    "为",
    "description",
    "desc",
    "should be",
    "to be",
    "to",
    "as",
    "is",
    "=",
];

/// Words that name a description in the request.
const WORDS: &[&str] = &["description", "descr", "desc", "描述", "label"];

/// The text without the words that introduce it, and whether there were any.
fn trim_lead(mut s: &str) -> (bool, &str) {
    let mut marked = false;
    for w in LEAD {
        s = s.trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, ':' | '：' | ',' | '，')
        });
        let Some(rest) = s.strip_prefix(w) else {
            continue;
        };
        // An English word ends at a space: "tomorrow" is not "to".
        if w.is_ascii() && w.chars().all(|c| c.is_ascii_alphabetic()) && !rest.starts_with(' ') {
            continue;
        }
        s = rest;
        marked = true;
    }
    (
        marked,
        s.trim_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '：' | '.' | '。')),
    )
}

/// The text after "on <device>" / "of <device>" when the rest starts with one.
fn past_device(s: &str) -> &str {
    let t = s.trim_start();
    for p in ["on ", "of ", "at ", "for ", "from "] {
        if let Some(rest) = t.strip_prefix(p) {
            let rest = rest.trim_start();
            return rest.find(' ').map_or("", |i| &rest[i..]);
        }
    }
    s
}

/// The description text the request sets without quotes, and the request without it (so
/// that names inside the text are not read as what the request names). `None` when the
/// request names no description, quotes it, or gives no text.
pub(super) fn unquoted(request: &str) -> Option<(String, String)> {
    let lower = request.to_lowercase();
    // The longest word at the first place one is ("description", not its "desc").
    let at = WORDS
        .iter()
        .filter_map(|w| lower.find(w).map(|i| (i, w.len())))
        .min_by_key(|&(i, len)| (i, std::cmp::Reverse(len)))?;
    if quoted(request).is_some() {
        return None;
    }
    // The first interface named, as written: the text follows it.
    let mut pos = 0;
    let mut after_if = None;
    for word in request.split(|c: char| c.is_whitespace() || matches!(c, ',' | '，' | ':' | '：'))
    {
        let start = request[pos..].find(word).map_or(pos, |i| pos + i);
        pos = start + word.len();
        // Chinese glued to the name: "Ethernet11的描述" — the name is the ASCII part.
        let ascii: String = word.chars().take_while(char::is_ascii).collect();
        if interface_like(ascii.trim_end_matches(['.', ':'])) {
            after_if = Some(start + ascii.trim_end_matches(['.', ':']).len());
            break;
        }
    }
    let if_end = after_if?;
    // A colon counts as introducing the text ("… Gi0/0/3: spare").
    let rest = &request[if_end..];
    let colon = rest.trim_start().starts_with([':', '：']);
    let (marked, after) = trim_lead(past_device(rest));
    let text = if (marked || colon) && !after.is_empty() {
        after.to_owned()
    } else if at.0 < if_end {
        // "set description spare on alpha-border-1 Gi0/0/3": between the word and "on".
        let between = &request[at.0 + at.1..];
        let until = [" on ", " of ", " for ", " at ", " from "]
            .iter()
            .filter_map(|m| between.find(m))
            .min()
            .unwrap_or(between.len());
        trim_lead(&between[..until]).1.to_owned()
    } else {
        String::new()
    };
    if text.is_empty() {
        return None;
    }
    let without = request.replacen(&text, " ", 1);
    Some((text, without))
}

#[cfg(test)]
mod tests {
    use super::unquoted;

    #[test]
    fn the_text_follows_the_interface_or_the_word() {
        let t = |r: &str| unquoted(r).map(|(t, _)| t);
        assert_eq!(
            t("set description on alpha-core-1 Et11 to planned link to beta-core-2").as_deref(),
            Some("planned link to beta-core-2")
        );
        assert_eq!(
            t("description on alpha-border-1 Gi0/0/3: spare reserved for Lumen").as_deref(),
            Some("spare reserved for Lumen")
        );
        assert_eq!(
            t("set description spare on alpha-border-1 Gi0/0/3").as_deref(),
            Some("spare")
        );
        assert_eq!(
            t("把alpha-core-1 Ethernet11的描述改为 预留给beta-core-2").as_deref(),
            Some("预留给beta-core-2")
        );
        assert_eq!(t("clear the description on alpha-core-1 Et10"), None);
        assert_eq!(t("删除beta-border-1 Et3的描述"), None);
        assert_eq!(
            t("Delete the description of Ethernet11 on alpha-core-1"),
            None
        );
        assert_eq!(
            t("set the description of Et11 on alpha-core-1 to spare").as_deref(),
            Some("spare")
        );
        assert_eq!(
            t("label alpha-core-1 Et11 as to beta-core-2 planned").as_deref(),
            Some("to beta-core-2 planned")
        );
        assert_eq!(
            t("set the description of alpha-core-1 Ethernet11 to \"x y\""),
            None
        );
    }
}
