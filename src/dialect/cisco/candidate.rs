//! A Cisco-style configuration with a plan's lines applied, as the device would hold it:
//! the text read into a tree by the importer's walk, each plan line merged where the
//! device puts it, removals edited out instead of appended.
//!
//! Decisions (the device's own behaviour):
//! - A block line (`interface X`, `router bgp N`, `address-family …`, an NX-OS `neighbor
//!   X`) enters the stored block with the same words, or is added as a new one.
//! - `no W…` deletes every line under its parent whose words begin with `W…` (with what
//!   is nested under it); `no neighbor X` deletes that neighbor's lines at every depth
//!   (its address families too). It stays as a line only where the device shows it: the
//!   toggles `no shutdown` / `no switchport`, and a `no` that deleted nothing.
//! - `default W…` returns `W…` to its default: a block keeps only its header, a line goes.
//! - `no router ospf N` takes the interfaces' `ip ospf N area A` lines with the process
//!   (IOS); `passive-interface X` and `no passive-interface X` replace each other, and the
//!   form `passive-interface default` (or its absence) already gives lists nothing.
//! - A single-valued setting (description, MTU, primary address, remote AS, a neighbor's
//!   remote AS or description) replaces the stored one; a line already there is not added
//!   twice. New lines go before the block's first nested block (IOS lists a neighbor's
//!   `remote-as` before its address families), new blocks at its end, new top-level
//!   lines before a final `end`.

use crate::import::parse::lines::{ConfigLines, ContextStack};

/// What differs between the dialects that share this builder (IOS-XR and FRR beside the
/// Cisco family).
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// The `no` forms the device lists as lines of their own (IOS `no shutdown`, `no
    /// switchport`); IOS-XR and FRR list none: `no shutdown` only removes `shutdown`.
    pub toggles: &'static [&'static str],
    /// Whether a `no …` that deleted nothing stays as a line (IOS `no ip redirects`, FRR
    /// `no bgp ebgp-requires-policy`); IOS-XR lists no `no` lines.
    pub keeps_unmatched_no: bool,
    /// Whether a new primary address replaces the stored one (IOS `ip address`, IOS-XR
    /// `ipv4 address`); FRR's `ip address` lines add up, each removed by its own `no`.
    pub address_replaces: bool,
}

/// IOS / IOS-XE, EOS and NX-OS.
pub const CISCO: Style = Style {
    toggles: &["shutdown", "switchport"],
    keeps_unmatched_no: true,
    address_replaces: true,
};

/// One line and what is nested under it.
#[derive(Debug, Clone)]
pub(super) struct Node {
    /// Leading spaces.
    pub(super) indent: usize,
    /// The line as written (a stored line keeps its own spacing).
    pub(super) raw: String,
    /// Not configuration: a separator, comment or banner body, kept where it was.
    pub(super) trivia: bool,
    pub(super) children: Vec<Node>,
}

impl Node {
    pub(super) fn words(&self) -> Vec<&str> {
        self.raw.split_whitespace().collect()
    }

    /// The words that name a block (`interface Ethernet 1` is `interface Ethernet1`).
    pub(super) fn key(&self) -> Vec<String> {
        let w = self.words();
        match w.as_slice() {
            ["interface", rest @ ..] if rest.len() > 1 => {
                vec!["interface".to_owned(), rest.concat()]
            }
            _ => w.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    /// Whether the node's key is `key`, without building its own: a candidate applies
    /// every plan line against every sibling, so this runs lines × siblings times.
    fn has_key(&self, key: &[String]) -> bool {
        let mut words = self.raw.split_whitespace();
        if key.first().map(String::as_str) == Some("interface") && key.len() == 2 {
            return words.next() == Some("interface") && words.collect::<String>() == key[1];
        }
        let mut want = key.iter();
        loop {
            match (words.next(), want.next()) {
                (None, None) => return true,
                (Some(a), Some(b)) if a == b => {}
                _ => return false,
            }
        }
    }

    /// Moves the node and everything under it `by` columns.
    fn shift(&mut self, by: isize) {
        let indent = self.indent.saturating_add_signed(by);
        if indent != self.indent {
            self.raw = format!("{}{}", " ".repeat(indent), self.raw.trim_start());
            self.indent = indent;
        }
        for c in &mut self.children {
            c.shift(by);
        }
    }

    pub(super) fn render(&self, out: &mut String) {
        out.push_str(&self.raw);
        out.push('\n');
        for c in &self.children {
            c.render(out);
        }
    }
}

/// Reads a text into a forest of lines by indentation (the importer's walk).
pub(super) fn read(text: &str, keep_trivia: bool) -> Vec<Node> {
    let lines: Vec<&str> = text.lines().collect();
    // Paths (child indices from the root) of the open blocks, by indentation.
    let mut roots: Vec<Node> = Vec::new();
    let mut stack: ContextStack<Vec<usize>> = ContextStack::default();
    let mut next = 0;
    let trivia = |roots: &mut Vec<Node>, stack: &ContextStack<Vec<usize>>, raw: &str| {
        let t = raw.trim_start();
        let node = Node {
            indent: raw.len() - t.len(),
            raw: raw.to_owned(),
            trivia: true,
            children: Vec::new(),
        };
        // Indented trivia stays in the innermost block indented less; at column 0 it is
        // between blocks.
        let path = stack.top().filter(|_| node.indent > 0).and_then(|path| {
            (1..=path.len())
                .rev()
                .find(|&k| at(roots, &path[..k]).indent < node.indent)
                .map(|k| &path[..k])
        });
        match path {
            Some(p) => at(roots, p).children.push(node),
            None => roots.push(node),
        }
    };
    for l in ConfigLines::new(text) {
        let i = l.no as usize - 1;
        for raw in &lines[next..i] {
            // `!` at column 0 closes every block.
            if raw.starts_with('!') {
                stack.enter_line(0);
            }
            if keep_trivia {
                trivia(&mut roots, &stack, raw);
            }
        }
        next = i + 1;
        stack.enter_line(l.indent);
        let node = Node {
            indent: l.indent,
            raw: lines[i].to_owned(),
            trivia: false,
            children: Vec::new(),
        };
        let path = match stack.top() {
            Some(p) => {
                let parent = at(&mut roots, p);
                parent.children.push(node);
                let mut path = p.clone();
                path.push(parent.children.len() - 1);
                path
            }
            None => {
                roots.push(node);
                vec![roots.len() - 1]
            }
        };
        stack.push(l.indent, path);
    }
    if keep_trivia {
        for raw in &lines[next..] {
            trivia(&mut roots, &stack, raw);
        }
    }
    roots
}

/// The node at `path`.
fn at<'a>(roots: &'a mut [Node], path: &[usize]) -> &'a mut Node {
    let (first, rest) = path.split_first().unwrap_or((&0, &[]));
    let mut n = &mut roots[*first];
    for &i in rest {
        n = &mut n.children[i];
    }
    n
}

/// Whether `w` begins with the words `with`.
fn begins(w: &[&str], with: &[&str]) -> bool {
    w.len() >= with.len() && w[..with.len()] == *with
}

/// Deletes the nodes among `siblings` whose words begin with `target` (at every depth
/// when `deep`). Returns how many went.
fn delete(siblings: &mut Vec<Node>, target: &[&str], deep: bool) -> usize {
    let before = siblings.len();
    // Word by word, without collecting: this runs for every sibling of every `no` line.
    siblings.retain(|n| {
        n.trivia || {
            let mut words = n.raw.split_whitespace();
            !target.iter().all(|t| words.next() == Some(*t))
        }
    });
    let mut gone = before - siblings.len();
    if deep {
        // A VRF's neighbors are other sessions: `no neighbor X` reaches into them only
        // when it is written inside that VRF's block.
        for n in siblings.iter_mut().filter(|n| !vrf_block(n)) {
            gone += delete(&mut n.children, target, true);
        }
    }
    gone
}

/// Whether a block under `router bgp` is a VRF's: IOS `address-family ipv4 vrf V`,
/// NX-OS and EOS `vrf V`.
fn vrf_block(n: &Node) -> bool {
    match n.words().as_slice() {
        ["vrf", _, ..] => true,
        ["address-family", _, rest @ ..] => rest.contains(&"vrf"),
        _ => false,
    }
}

/// A pattern over a line's first words: `None` matches any word.
pub(super) type Pattern = Vec<Option<String>>;

/// Whether the words `w` begin with the pattern `p`.
pub(super) fn fits(w: &[&str], p: &Pattern) -> bool {
    w.len() >= p.len()
        && p.iter()
            .zip(w)
            .all(|(want, have)| want.as_deref().is_none_or(|x| x == *have))
}

/// The stored settings a single-valued line replaces: a pattern over their first words
/// (the device keeps one value of each: a second `ip ospf cost` replaces the first).
pub(super) fn replaces(w: &[&str], style: Style) -> Option<Pattern> {
    let own = |n: usize| Some(w[..n].iter().map(|s| Some((*s).to_owned())).collect());
    // The same words with the one at `any` free (a policy's name, keyed by direction).
    let but = |any: usize| {
        Some(
            w.iter()
                .enumerate()
                .map(|(i, s)| (i != any).then(|| (*s).to_owned()))
                .collect(),
        )
    };
    match w {
        ["shutdown"] => Some(vec![Some("no".into()), Some("shutdown".into())]),
        ["description" | "mtu" | "remote-as" | "bandwidth" | "delay" | "speed" | "duplex"
        | "encapsulation" | "channel-group" | "router-id" | "maximum-paths", ..] => own(1),
        ["ip" | "ipv4", "address", _, rest @ ..]
            if style.address_replaces && !rest.contains(&"secondary") && w[2] != "virtual" =>
        {
            own(2)
        }
        ["ip", "mtu" | "vrf", ..] | ["vrf", "forwarding" | "member", ..] => own(2),
        ["ip", "ospf", "cost" | "priority" | "network" | "hello-interval" | "dead-interval", ..]
        | ["switchport", "access", "vlan", ..] => own(3),
        ["isis", "metric", ..]
        | ["bgp", "router-id", ..]
        | ["switchport", "mode", ..]
        | ["auto-cost", "reference-bandwidth", ..] => own(2),
        ["switchport", "trunk", "native", "vlan", ..] => own(4),
        ["switchport", "trunk", "allowed", "vlan", v, ..]
            if !matches!(*v, "add" | "remove" | "except") =>
        {
            own(4)
        }
        ["standby" | "vrrp", _, "priority", ..] => own(3),
        ["ip" | "ipv4", "access-group", _, _] => but(2),
        ["neighbor", _, "route-map" | "prefix-list" | "filter-list", _, _] => but(3),
        // NX-OS, under a neighbor's address family: `route-map NAME in`.
        ["route-map" | "prefix-list" | "filter-list", _, "in" | "out"] => but(1),
        // A prefix-list entry is its list's sequence number (IOS `ip prefix-list L seq N
        // …`, EOS `seq N …` inside the list's block).
        ["ip" | "ipv6", "prefix-list", _, "seq", _, ..] => own(5),
        ["seq", _, "permit" | "deny", ..] => own(2),
        // A route-map clause sets one value of each.
        ["set", "local-preference" | "metric" | "weight" | "origin" | "tag" | "metric-type", ..] => {
            own(2)
        }
        ["neighbor", _, "remote-as" | "description" | "update-source" | "password" | "ebgp-multihop"
        | "local-as", ..] => own(3),
        // An interface is in one OSPF area: IOS `ip ospf 1 area 1`, EOS `ip ospf area 1`,
        // NX-OS `ip router ospf 1 area 0.0.0.1`.
        ["ip", "ospf", "area", ..] => own(3),
        ["ip", "ospf", _, "area", ..] => own(4),
        ["ip", "router", "ospf", _, "area", ..] => own(5),
        _ => None,
    }
}

/// Applies one plan line (with what is nested under it) among `siblings`, the children of
/// a block whose lines sit at `indent` (None: top level).
fn apply(siblings: &mut Vec<Node>, mut line: Node, indent: Option<usize>, style: Style) {
    let w = line.words();
    match w.as_slice() {
        // IOS removes a whole numbered access list for `no access-list N …`, whatever
        // follows the number.
        ["no", "access-list", n, ..] if line.children.is_empty() => {
            delete(siblings, &["access-list", n], false);
        }
        // The device lists `passive-interface X` only against no default and `no
        // passive-interface X` only against `passive-interface default`: either form
        // replaces the other, and the one the default already gives lists nothing.
        ["passive-interface", x @ ..] | ["no", "passive-interface", x @ ..]
            if !x.is_empty() && x != ["default"] && line.children.is_empty() =>
        {
            let passive = w[0] != "no";
            let default = siblings
                .iter()
                .any(|n| !n.trivia && n.words() == ["passive-interface", "default"]);
            let about_x = |nw: &[&str]| {
                let rest = nw.strip_prefix(&["no"]).unwrap_or(nw);
                rest.first() == Some(&"passive-interface") && rest[1..] == *x
            };
            siblings.retain(|n| n.trivia || !about_x(&n.words()));
            if passive != default {
                insert(siblings, line, indent);
            }
        }
        // IOS takes an OSPF process's interface lines (`ip ospf N area A`) away with
        // it: left behind, they would start the process again.
        ["no", "router", "ospf", pid, ..] if line.children.is_empty() => {
            let pid = (*pid).to_owned();
            delete(siblings, &w[1..], false);
            for n in siblings
                .iter_mut()
                .filter(|n| n.raw.split_whitespace().next() == Some("interface"))
            {
                delete(&mut n.children, &["ip", "ospf", &pid, "area"], false);
            }
        }
        ["no", target @ ..] if !target.is_empty() && line.children.is_empty() => {
            let toggle = matches!(target, [t] if style.toggles.contains(t));
            let gone = delete(siblings, target, target[0] == "neighbor");
            if toggle || (gone == 0 && style.keeps_unmatched_no) {
                delete(siblings, &w, false);
                insert(siblings, line, indent);
            }
        }
        ["default", target @ ..] if !target.is_empty() && line.children.is_empty() => {
            let key: Vec<String> = target.iter().map(|s| (*s).to_owned()).collect();
            let key = Node {
                raw: key.join(" "),
                indent: 0,
                trivia: false,
                children: Vec::new(),
            }
            .key();
            // A block (an interface) keeps its header; a setting goes, `no` form too.
            let block = |n: &Node| !n.children.is_empty() || n.key()[0] == "interface";
            siblings.retain_mut(|n| {
                if n.trivia {
                    return true;
                }
                if n.key() == key && block(n) {
                    n.children.clear();
                    return true;
                }
                let nw = n.words();
                !(begins(&nw, target) || (nw.first() == Some(&"no") && begins(&nw[1..], target)))
            });
        }
        _ => {
            let key = line.key();
            if let Some(same) = siblings.iter_mut().find(|n| !n.trivia && n.has_key(&key)) {
                // The block is there: its new lines go into it.
                let inner = same.children.iter().find(|c| !c.trivia).map(|c| c.indent);
                let by = line.indent;
                let acl = acl_block(&same.words());
                if acl {
                    number_entries(&mut same.children);
                }
                for mut c in std::mem::take(&mut line.children) {
                    let want = inner.unwrap_or(same.indent + c.indent.saturating_sub(by).max(1));
                    c.shift(want as isize - c.indent as isize);
                    if acl {
                        acl_apply(&mut same.children, c, want);
                    } else {
                        apply(&mut same.children, c, Some(want), style);
                    }
                }
                return;
            }
            // A setting configured again undoes its stored `no` form.
            siblings.retain(|n| {
                if n.trivia || !n.raw.trim_start().starts_with("no ") {
                    return true;
                }
                let nw = n.words();
                !(nw.len() == w.len() + 1 && nw[1..] == w[..])
            });
            if let Some(old) = replaces(&w, style) {
                let address = old.len() == 2 && old[1].as_deref() == Some("address");
                let first = old.first().cloned().flatten();
                siblings.retain(|n| {
                    // The first word rules out nearly every sibling without collecting
                    // its words: a combination of many plans applies thousands of lines.
                    if n.trivia
                        || first
                            .as_deref()
                            .is_some_and(|f| n.raw.split_whitespace().next() != Some(f))
                    {
                        return true;
                    }
                    let nw = n.words();
                    !fits(&nw, &old) || (address && nw.contains(&"secondary"))
                });
            }
            insert(siblings, line, indent);
        }
    }
}

/// Whether a block header opens an access list, whose entries carry sequence numbers
/// (IOS `ip access-list extended X`, EOS and NX-OS `ip access-list X`).
pub(crate) fn acl_block(w: &[&str]) -> bool {
    matches!(w, ["ip" | "ipv6", "access-list", _, ..])
}

/// An access-list entry's sequence number, when it is written.
pub(super) fn seq_of(n: &Node) -> Option<u32> {
    n.words().first().and_then(|w| w.parse().ok())
}

/// Writes every entry of an access list with its sequence number: IOS lists entries
/// without one and numbers them 10, 20, … after the last number in order.
pub(super) fn number_entries(entries: &mut [Node]) {
    let mut last = 0u32;
    for n in entries.iter_mut().filter(|n| !n.trivia) {
        match seq_of(n) {
            Some(s) => last = s,
            None => {
                last = last.saturating_add(10);
                n.raw = format!("{}{last} {}", " ".repeat(n.indent), n.raw.trim_start());
            }
        }
    }
}

/// Applies one line to an access list's numbered entries as the device does: `N …`
/// goes in sequence order (replacing entry N), an entry without a number after the last,
/// `no N` removes entry N and `no permit …` the entry with those words.
fn acl_apply(entries: &mut Vec<Node>, mut line: Node, indent: usize) {
    let w = line.words();
    let last = entries.iter().filter_map(seq_of).max().unwrap_or(0);
    match w.as_slice() {
        ["no", n] if n.parse::<u32>().is_ok() => {
            let n = n.parse::<u32>().ok();
            entries.retain(|e| e.trivia || seq_of(e) != n);
        }
        ["no", rest @ ..] => {
            if let Some(i) = entries
                .iter()
                .position(|e| !e.trivia && e.words().get(1..) == Some(rest))
            {
                entries.remove(i);
            }
        }
        _ => {
            let seq = match seq_of(&line) {
                Some(s) => s,
                None => {
                    let s = last.saturating_add(10);
                    line.raw = format!("{s} {}", line.raw.trim_start());
                    s
                }
            };
            line.raw = format!("{}{}", " ".repeat(indent), line.raw.trim_start());
            line.indent = indent;
            entries.retain(|e| e.trivia || seq_of(e) != Some(seq));
            let pos = entries
                .iter()
                .position(|e| !e.trivia && seq_of(e).is_some_and(|s| s > seq))
                .unwrap_or(entries.len());
            entries.insert(pos, line);
        }
    }
}

/// Adds a line where the device lists it: a block at the end, a line before the first
/// nested block; at top level before a final `end`.
fn insert(siblings: &mut Vec<Node>, line: Node, indent: Option<usize>) {
    let pos = match indent {
        None => siblings
            .iter()
            .rposition(|n| !n.trivia)
            .filter(|&i| siblings[i].words() == ["end"])
            .unwrap_or(siblings.len()),
        Some(_) if line.children.is_empty() => siblings
            .iter()
            .position(|n| !n.children.is_empty())
            .unwrap_or(siblings.len()),
        Some(_) => siblings.len(),
    };
    siblings.insert(pos, line);
}

/// The stored configuration `stored` with the plan's `lines` applied.
pub fn apply_text(stored: &str, lines: &str) -> String {
    apply_styled(stored, lines, CISCO)
}

/// The stored configuration `stored` with the plan's `lines` applied, in `style`.
pub fn apply_styled(stored: &str, lines: &str, style: Style) -> String {
    let mut roots = read(stored, true);
    for line in read(lines, false) {
        let mut line = line;
        line.shift(-(line.indent as isize));
        apply(&mut roots, line, None, style);
    }
    let mut out = String::with_capacity(stored.len() + lines.len());
    for n in &roots {
        n.render(&mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::apply_text;

    const IOS: &str = "hostname r1\n!\ninterface Gi1\n description up\n ip address 10.0.0.1 255.255.255.252\n ip address 10.1.0.1 255.255.255.0 secondary\n shutdown\n!\nrouter bgp 65001\n neighbor 10.0.0.2 remote-as 7575\n !\n address-family ipv4\n  neighbor 10.0.0.2 activate\n exit-address-family\n!\nip route 192.0.2.0 255.255.255.0 10.0.0.2 name X\n!\nend\n";

    #[test]
    fn no_neighbor_leaves_a_vrf_neighbor_with_the_same_address() {
        let ios = "router bgp 65001\n neighbor 10.0.0.2 remote-as 7575\n !\n address-family ipv4\n  neighbor 10.0.0.2 activate\n exit-address-family\n !\n address-family ipv4 vrf CUST\n  neighbor 10.0.0.2 remote-as 64999\n  neighbor 10.0.0.2 activate\n exit-address-family\n!\nend\n";
        let global = apply_text(ios, "router bgp 65001\n no neighbor 10.0.0.2");
        assert_eq!(global.matches("neighbor 10.0.0.2").count(), 2, "{global}");
        assert!(
            global.contains("  neighbor 10.0.0.2 remote-as 64999"),
            "{global}"
        );
        let in_vrf = apply_text(
            ios,
            "router bgp 65001\n address-family ipv4 vrf CUST\n  no neighbor 10.0.0.2",
        );
        assert!(!in_vrf.contains("64999"), "{in_vrf}");
        assert!(
            in_vrf.contains(" neighbor 10.0.0.2 remote-as 7575"),
            "{in_vrf}"
        );
        let nxos = "router bgp 65001\n  neighbor 10.0.0.2\n    remote-as 7575\n  vrf CUST\n    neighbor 10.0.0.2\n      remote-as 64999\n";
        let global = apply_text(nxos, "router bgp 65001\n  no neighbor 10.0.0.2");
        assert!(
            global.contains("remote-as 64999") && !global.contains("7575"),
            "{global}"
        );
    }

    #[test]
    fn an_ospf_process_removed_takes_its_interface_lines_with_it() {
        let stored = "interface Gi1\n ip address 10.0.0.1 255.255.255.254\n ip ospf 1 area 0\n ip ospf 2 area 0\n!\nrouter ospf 1\n passive-interface default\n!\nrouter ospf 2\n!\nend\n";
        let out = apply_text(stored, "no router ospf 1");
        assert!(
            !out.contains("router ospf 1\n") && !out.contains("ip ospf 1 area"),
            "{out}"
        );
        assert!(
            out.contains(" ip ospf 2 area 0\n") && out.contains("router ospf 2\n"),
            "{out}"
        );
    }

    #[test]
    fn a_passive_interface_undone_and_redone_gives_back_the_stored_text() {
        let stored = "router ospf 1\n passive-interface default\n!\nend\n";
        let changed = apply_text(stored, "router ospf 1\n no passive-interface Loopback0");
        assert!(
            changed.contains(" no passive-interface Loopback0\n"),
            "{changed}"
        );
        let back = apply_text(&changed, "router ospf 1\n passive-interface Loopback0");
        assert_eq!(back, stored);
        // Without the default, the setting is listed as the device lists it.
        let plain = "router ospf 1\n!\nend\n";
        let on = apply_text(plain, "router ospf 1\n passive-interface Loopback0");
        assert!(on.contains(" passive-interface Loopback0\n"), "{on}");
        assert_eq!(
            apply_text(&on, "router ospf 1\n no passive-interface Loopback0"),
            plain
        );
    }

    #[test]
    fn a_setting_undoes_its_no_form_and_an_interface_changes_area() {
        let stored = "router ospf 1\n passive-interface default\n no passive-interface Gi0/25\n!\ninterface Gi0/25\n ip ospf 1 area 0\n ip ospf cost 10\n!\nend\n";
        let out = apply_text(
            stored,
            "router ospf 1\n passive-interface Gi0/25\ninterface Gi0/25\n ip ospf 1 area 1",
        );
        assert!(!out.contains("no passive-interface Gi0/25"), "{out}");
        // Back to `passive-interface default`: nothing of Gi0/25 is listed.
        assert!(!out.contains(" passive-interface Gi0/25\n"), "{out}");
        assert!(!out.contains("area 0"), "{out}");
        assert!(
            out.contains(" ip ospf 1 area 1") && out.contains(" ip ospf cost 10"),
            "{out}"
        );
    }

    #[test]
    fn plan_lines_are_applied_where_the_device_keeps_them() {
        for (plan, expected) in [
            // A setting replaces the stored one; the toggle `no shutdown` stays.
            (
                "interface Gi1\n description new\n no shutdown\n ip address 10.9.0.1 255.255.255.0",
                "hostname r1\n!\ninterface Gi1\n ip address 10.1.0.1 255.255.255.0 secondary\n description new\n no shutdown\n ip address 10.9.0.1 255.255.255.0\n!\nrouter bgp 65001\n neighbor 10.0.0.2 remote-as 7575\n !\n address-family ipv4\n  neighbor 10.0.0.2 activate\n exit-address-family\n!\nip route 192.0.2.0 255.255.255.0 10.0.0.2 name X\n!\nend\n",
            ),
            // A neighbor goes at every depth; a route by its leading words.
            (
                "router bgp 65001\n neighbor 10.0.0.2 shutdown\n no neighbor 10.0.0.2\n!\nno ip route 192.0.2.0 255.255.255.0 10.0.0.2",
                "hostname r1\n!\ninterface Gi1\n description up\n ip address 10.0.0.1 255.255.255.252\n ip address 10.1.0.1 255.255.255.0 secondary\n shutdown\n!\nrouter bgp 65001\n !\n address-family ipv4\n exit-address-family\n!\n!\nend\n",
            ),
            // `default interface` keeps the header; new lines go before the first nested
            // block, new top-level lines before `end`.
            (
                "default interface Gi1\ninterface Gi1\n mtu 1400\nrouter bgp 65001\n neighbor 10.0.0.9 remote-as 1\n address-family ipv4\n  neighbor 10.0.0.9 activate\nip route 198.51.100.0 255.255.255.0 10.0.0.2",
                "hostname r1\n!\ninterface Gi1\n mtu 1400\n!\nrouter bgp 65001\n neighbor 10.0.0.2 remote-as 7575\n !\n neighbor 10.0.0.9 remote-as 1\n address-family ipv4\n  neighbor 10.0.0.2 activate\n  neighbor 10.0.0.9 activate\n exit-address-family\n!\nip route 192.0.2.0 255.255.255.0 10.0.0.2 name X\n!\nip route 198.51.100.0 255.255.255.0 10.0.0.2\nend\n",
            ),
        ] {
            assert_eq!(apply_text(IOS, plan), expected, "{plan}");
        }
    }

    #[test]
    fn an_nxos_neighbor_block_goes_whole_and_comes_back() {
        let nx = "router bgp 65600\n  neighbor 10.1.1.1\n    remote-as 65501\n    address-family ipv4 unicast\n  neighbor 10.1.1.9\n    remote-as 1\n";
        let gone = apply_text(
            nx,
            "router bgp 65600\n  neighbor 10.1.1.1\n    shutdown\n  no neighbor 10.1.1.1",
        );
        assert_eq!(
            gone,
            "router bgp 65600\n  neighbor 10.1.1.9\n    remote-as 1\n"
        );
        let back = apply_text(
            &gone,
            "router bgp 65600\n  neighbor 10.1.1.1\n    remote-as 65501\n    address-family ipv4 unicast",
        );
        assert_eq!(back, "router bgp 65600\n  neighbor 10.1.1.9\n    remote-as 1\n  neighbor 10.1.1.1\n    remote-as 65501\n    address-family ipv4 unicast\n");
    }
}
