//! The language of requests, before anything is resolved: Chinese and English mixed
//! without spaces, Chinese verbs and nouns, verb typos, and "what if X fails" phrasings,
//! all brought to one plain English form that the router and the analyzer both read.
//!
//! Names (hostnames, interfaces, addresses) pass through untouched: only words made of
//! letters alone are corrected, and only against the small vocabulary of intents.

use crate::fuzzy::edit_distance;

/// Whether `c` belongs to a script written without spaces between words.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF01..=0xFF5E | 0x3000..=0x303F)
}

/// Chinese words and phrases → their English reading, longest first where one contains
/// another (静态路由 before 路由).
const CHINESE: &[(&str, &str)] = &[
    ("黑洞路由", " discard route "),
    ("静态路由", " static route "),
    ("不再需要", " unneeded "),
    ("不需要了", " unneeded "),
    ("拆掉", " decommission "),
    ("下掉", " decommission "),
    ("报废", " decommission "),
    ("断开", " remove "),
    ("恢复", " no shutdown "),
    ("开通", " add "),
    ("调到", " change to "),
    ("调成", " change to "),
    ("调整为", " change to "),
    ("指向", " via "),
    ("同时", " "),
    ("然后", " and then "),
    ("给", " "),
    ("下一跳", " via "),
    ("同时故障", " fails "),
    ("会丢失什么", " what do we lose "),
    ("丢失什么", " what do we lose "),
    ("会怎样", " what if "),
    ("会怎么样", " what if "),
    ("如果", " what if "),
    ("假如", " what if "),
    ("故障", " fails "),
    ("宕机", " fails "),
    ("挂了", " fails "),
    ("坏了", " fails "),
    ("删除", " remove "),
    ("移除", " remove "),
    ("去掉", " remove "),
    ("去除", " remove "),
    ("删掉", " remove "),
    ("下线", " decommission "),
    ("退役", " decommission "),
    ("拆除", " decommission "),
    ("下架", " decommission "),
    ("关闭", " shutdown "),
    ("关掉", " shutdown "),
    ("禁用", " shutdown "),
    ("开起来", " no shutdown "),
    ("开启", " no shutdown "),
    ("启用", " no shutdown "),
    ("打开", " no shutdown "),
    ("增加", " add "),
    ("添加", " add "),
    ("新增", " add "),
    ("修改", " change "),
    ("更改", " change "),
    ("变更", " change "),
    ("改为", " change to "),
    ("改成", " change to "),
    ("设置为", " to "),
    ("设为", " to "),
    ("描述", " description "),
    ("邻居", " neighbor "),
    ("会话", " session "),
    ("对等体", " peer "),
    ("路由器", " router "),
    ("路由", " route "),
    ("接口", " interface "),
    ("端口", " interface "),
    ("链路", " link "),
    ("上联", " uplink "),
    ("上行", " uplink "),
    ("冗余", " redundant "),
    ("备用", " redundant "),
    ("第二条", " second "),
    ("设备", " device "),
    ("交换机", " switch "),
    ("运营商", " provider "),
    ("地址", " address "),
    ("经由", " via "),
    ("经过", " via "),
    ("到", " to "),
    ("的", " "),
    ("在", " on "),
    ("上", " "),
    ("把", " "),
    ("将", " "),
    ("和", " and "),
    ("与", " and "),
    ("一条", " a "),
    ("一个", " a "),
    ("请", " "),
    ("加", " add "),
];

/// Phrases of the ticket language → the plain verb the intents are read by (lower case,
/// whole words; the longer phrase of two that overlap first). Names never match: they
/// have digits or hyphens.
const LEXICON: &[(&str, &str)] = &[
    // Removal.
    ("get rid of", "remove"),
    ("kill", "remove"),
    ("nuke", "remove"),
    ("pull", "remove"),
    ("zap", "remove"),
    ("drop", "remove"),
    ("deprovision", "remove"),
    ("withdraw", "remove"),
    ("disconnect", "remove"),
    ("decom", "decommission"),
    ("scrap", "decommission"),
    ("out of service", "decommission"),
    ("from service", "decommission"),
    ("offline for good", "decommission"),
    ("not needed any more", "unneeded"),
    ("not needed anymore", "unneeded"),
    ("no longer needed", "unneeded"),
    ("is not needed", "is unneeded"),
    ("isn't needed", "is unneeded"),
    // Shut and no shut.
    ("admin down", "shutdown"),
    ("admin-down", "shutdown"),
    ("take down", "shutdown"),
    ("bring down", "shutdown"),
    ("shut off", "shutdown"),
    ("back up", "no shutdown"),
    ("back online", "no shutdown"),
    ("admin up", "no shutdown"),
    ("admin-up", "no shutdown"),
    ("unshut", "no shutdown"),
    ("re-enable", "enable"),
    // Attribute changes.
    ("raise", "change"),
    ("bump", "change"),
    ("increase", "change"),
    ("lower", "change"),
    ("reduce", "change"),
    ("decrease", "change"),
    ("update", "change"),
    ("label", "set the description of"),
    ("readdress", "change the ip address of"),
    ("renumber", "change the ip address of"),
    ("re-ip", "change the ip address of"),
    // Additions.
    ("provision", "add"),
    ("peer with", "add a peering to"),
    ("2nd", "second"),
    ("one more", "another"),
    // Discard routes.
    ("null route", "discard route"),
    ("null-route", "discard route"),
    ("null0 route", "discard route"),
    ("blackhole route", "discard route"),
    ("blackhole", "add discard route"),
    ("sinkhole", "add discard route"),
    ("->", "via"),
];

/// "bring up", "turn up", …: a new thing added when the request names one, else an
/// interface brought up.
const UP_VERBS: &[&str] = &[
    "bring up", "turn up", "spin up", "stand up", "set up", "light up",
];

/// Words that make an "up" verb add something new.
const NEW_THINGS: &[&str] = &[
    "new", "peering", "transit", "uplink", "session", "provider", "upstream",
];

/// Rewrites the lexicon's phrases, word by word, case-insensitively.
fn rewrite_phrases(s: &str) -> String {
    let words: Vec<&str> = s.split(' ').collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let adds = NEW_THINGS.iter().any(|n| {
        lower
            .iter()
            .any(|w| w.trim_matches(|c: char| !c.is_alphanumeric()) == *n)
    }) || lower
        .iter()
        .any(|w| w.starts_with("as") && w.len() > 2 && w[2..].chars().all(|c| c.is_ascii_digit()));
    let up = if adds { "add" } else { "no shutdown" };
    let table: Vec<(&str, &str)> = LEXICON
        .iter()
        .copied()
        .chain(UP_VERBS.iter().map(|v| (*v, up)))
        .collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    'words: while i < words.len() {
        for (phrase, plain) in &table {
            let pw: Vec<&str> = phrase.split(' ').collect();
            let hit = lower.len() >= i + pw.len()
                && pw.iter().enumerate().all(|(k, p)| {
                    let w = lower[i + k].as_str();
                    // The last word may carry punctuation ("peer.").
                    w == *p
                        || (k + 1 == pw.len()
                            && w.trim_end_matches(['.', ',', '!', '?', ':']) == *p)
                });
            if hit {
                let last = words[i + pw.len() - 1];
                let tail = &last[last.trim_end_matches(['.', ',', '!', '?', ':']).len()..];
                out.push(format!("{plain}{tail}"));
                i += pw.len();
                continue 'words;
            }
        }
        out.push(words[i].to_owned());
        i += 1;
    }
    out.join(" ")
}

/// Words of intent a typo is corrected to (letters only; names are never touched).
const VOCABULARY: &[&str] = &[
    "decommission",
    "remove",
    "retire",
    "delete",
    "shutdown",
    "redundant",
    "description",
    "neighbor",
    "interface",
    "static",
    "route",
    "uplink",
    "provider",
    "peering",
    "modify",
    "change",
    "session",
    "address",
];

/// Corrects a word to the vocabulary when it is one or two edits away (one for short words).
fn correct(word: &str) -> Option<&'static str> {
    if word.len() < 5 || !word.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    // Words of the lexicon are read by it, not corrected ("readdress" is not "address").
    if VOCABULARY.contains(&lower.as_str()) || LEXICON.iter().any(|(p, _)| *p == lower) {
        return None;
    }
    let budget = if lower.len() >= 8 { 2 } else { 1 };
    let mut best: Option<(usize, &'static str)> = None;
    for v in VOCABULARY {
        // Inflections are the stemmer's business, not typos.
        if lower.starts_with(v) {
            return None;
        }
        let d = edit_distance(&lower, v);
        if d <= budget && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, v));
        }
    }
    best.map(|(_, v)| v)
}

/// The request in plain English words: scripts segmented, Chinese translated, intent
/// typos corrected, failure phrasings read as the impact of a removal.
pub fn normalise(request: &str) -> String {
    let mut s = request.to_owned();
    for (zh, en) in CHINESE {
        if s.contains(zh) {
            s = s.replace(zh, en);
        }
    }
    // Whatever Chinese is left stands apart from the ASCII around it.
    let mut spaced = String::with_capacity(s.len() + 8);
    let mut prev: Option<bool> = None;
    for c in s.chars() {
        let cjk = is_cjk(c);
        if prev.is_some_and(|p| p != cjk) && !c.is_whitespace() {
            spaced.push(' ');
        }
        spaced.push(c);
        prev = if c.is_whitespace() { None } else { Some(cjk) };
    }
    let words: Vec<String> = spaced
        .split(' ')
        .map(|w| {
            let core = w.trim_matches(|c: char| !c.is_alphanumeric());
            match correct(core) {
                Some(fixed) => w.replacen(core, fixed, 1),
                None => w.to_owned(),
            }
        })
        .collect();
    let mut out = rewrite_phrases(&words.join(" "));
    // "move Vlan10 … to 10.30.99.1/24": an address change.
    if out.contains('/') && out.split(' ').any(|w| w.eq_ignore_ascii_case("move")) {
        out = out
            .split(' ')
            .map(|w| {
                if w.eq_ignore_ascii_case("move") {
                    "change the ip address of"
                } else {
                    w
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
    }
    // "re-ip X" is an address change.
    for re_ip in ["re-ip", "re-IP", "readdress", "renumber"] {
        out = out.replace(re_ip, "change the ip address of");
    }
    // Removing an attribute is a change to its element, not a removal of it.
    let lower = out.to_lowercase();
    for verb in ["remove", "delete"] {
        for attr in ["description", "the description", "its description"] {
            let phrase = format!("{verb} {attr}");
            if let Some(i) = lower.find(&phrase) {
                out.replace_range(i..i + verb.len(), "clear");
            }
        }
    }
    if what_if(&out) {
        out.push_str(" decommission");
    }
    out
}

/// "what if X fails", "what do we lose if X goes away": the impact of X's removal.
pub fn what_if(s: &str) -> bool {
    let l = s.to_lowercase();
    [
        "what if",
        "what do we lose",
        "what would we lose",
        "what happens if",
        "goes away",
        "go away",
        "goes down",
        "went away",
        "what breaks",
        "impact if",
        "if we lose",
        "both go down",
        "go down together",
        "fail together",
    ]
    .iter()
    .any(|p| l.contains(p))
        || (l.contains(" if ")
            && l.split(|c: char| !c.is_alphanumeric())
                .any(|w| matches!(w, "fails" | "failed" | "fail" | "dies" | "died")))
}

/// Whether a request names an element of a network: a hostname-like word (letters,
/// a hyphen, a digit), an IPv4 address or prefix, or an interface name with its number.
pub fn names_element(s: &str) -> bool {
    s.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '\'' | '?' | '!')
    })
    .map(|w| w.trim_end_matches(['.', ':']))
    .any(|w| {
        let digit = w.chars().any(|c| c.is_ascii_digit());
        let letter = w.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
        let host = letter
            && digit
            && w.contains('-')
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        let addr = w
            .split('/')
            .next()
            .is_some_and(|a| a.parse::<std::net::Ipv4Addr>().is_ok());
        let port = letter && digit && w.contains('/');
        host || addr || port
    })
}

/// Whether a request asks to be shown something rather than to change it.
pub fn is_query(s: &str) -> bool {
    let l = s.to_lowercase();
    let first = l.split_whitespace().next().unwrap_or_default();
    matches!(
        first,
        "show"
            | "list"
            | "display"
            | "which"
            | "who"
            | "where"
            | "how"
            | "audit"
            | "print"
            | "describe"
            | "explain"
            | "is"
            | "are"
            | "does"
    ) || ["what is", "what are", "what's", "查看", "显示", "列出"]
        .iter()
        .any(|p| l.contains(p))
}

/// A light English stem: enough to equate add/adding/added, remove/removed/removal,
/// modify/modified/modifies, decommission/decommissioning, redundant/redundancy.
pub fn stem(word: &str) -> String {
    let mut w = word.to_lowercase();
    for (suffix, replacement) in [("ancy", "ant"), ("ency", "ent")] {
        if w.len() > suffix.len() + 3 && w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            w.push_str(replacement);
            return w;
        }
    }
    for suffix in ["ing", "ed", "es", "al", "s"] {
        if w.len() >= suffix.len() + 3 && w.ends_with(suffix) && !w.ends_with("ss") {
            w.truncate(w.len() - suffix.len());
            break;
        }
    }
    if w.ends_with('i') {
        w.pop();
        w.push('y');
    }
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    // adding → add, but planning → plann → plan.
    let b = w.as_bytes();
    if b.len() > 3
        && b[b.len() - 1] == b[b.len() - 2]
        && !matches!(b[b.len() - 1], b'l' | b's' | b'd')
    {
        w.pop();
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_without_spaces_is_segmented_and_read() {
        let n = normalise("删除alpha-border-1上的BGP邻居10.255.1.2");
        assert!(n.contains("remove"), "{n}");
        assert!(n.contains(" alpha-border-1 "), "{n}");
        assert!(n.contains("neighbor"), "{n}");
        assert!(n.contains(" 10.255.1.2"), "{n}");
        assert!(normalise("下线alpha-br-3560").contains("decommission alpha-br-3560"));
    }

    #[test]
    fn verb_typos_are_corrected_but_names_are_not() {
        assert_eq!(
            normalise("decomission alpha-br-3650"),
            "decommission alpha-br-3650"
        );
        assert_eq!(normalise("shutdwn Ethernet10"), "shutdown Ethernet10");
        assert_eq!(normalise("removed it"), "removed it");
        assert_eq!(normalise("add a route"), "add a route");
    }

    #[test]
    fn the_lexicon_reads_ticket_verbs() {
        for (said, read) in [
            (
                "kill the BGP session to 198.51.100.2",
                "remove the BGP session",
            ),
            ("drop the Telstra peer", "remove the Telstra peer"),
            ("pull alpha-br-2960-1 out of service", "decommission"),
            ("bring Et10 on alpha-core-1 back up", "no shutdown"),
            ("turn up alpha-dist-1 Twe1/0/11", "no shutdown alpha-dist-1"),
            (
                "turn up a new transit with Lumen AS3356",
                "add a new transit",
            ),
            ("raise mtu to 9228", "change mtu to 9228"),
            ("chnage the ip address", "change the ip address"),
            (
                "Readdress alpha-core-1 Et12",
                "change the ip address of alpha-core-1",
            ),
            ("拆掉 beta-acc-2", "decommission"),
        ] {
            assert!(
                normalise(said).contains(read),
                "{said} → {}",
                normalise(said)
            );
        }
        // Names are never rewritten: a hostname holding a lexicon word stays whole.
        assert!(normalise("shut drop-sw-1 Et1").contains("drop-sw-1"));
    }

    #[test]
    fn removing_an_attribute_reads_as_clearing_it() {
        assert_eq!(
            normalise("remove the description on alpha-core-1 Ethernet10"),
            "clear the description on alpha-core-1 Ethernet10"
        );
    }

    #[test]
    fn failure_phrasings_read_as_removal_impact() {
        assert!(normalise("what do we lose if alpha-dist-2 goes away").ends_with("decommission"));
        assert!(normalise("what if alpha-core-1 fails?").ends_with("decommission"));
        assert!(!normalise("add a redundant uplink").contains("decommission"));
    }

    #[test]
    fn stems_equate_inflections() {
        for (a, b) in [
            ("add", "adding"),
            ("add", "added"),
            ("remove", "removed"),
            ("remove", "removal"),
            ("remove", "removing"),
            ("modify", "modified"),
            ("modify", "modifies"),
            ("decommission", "decommissioning"),
            ("redundant", "redundancy"),
            ("configure", "configured"),
            ("change", "changes"),
            ("retire", "retiring"),
            ("delete", "deleted"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_ne!(stem("add"), stem("address"));
        assert_ne!(stem("change"), stem("channel"));
    }
}
