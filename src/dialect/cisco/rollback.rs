//! The rollback of hand-written lines, derived from the stored configuration: the
//! candidate (stored + lines, as the device would hold it) compared with the stored
//! configuration block by block, and every difference undone with the device's own
//! syntax.
//!
//! Decisions:
//! - A line the plan added is undone with its `no` form (`no shutdown` for `shutdown`, the
//!   plain line for a `no …` the device keeps); a block it added with `no <header>`.
//! - A line the plan changed or removed comes back as stored. A single-valued setting
//!   (`mtu`, `description`, `ip ospf cost`, a neighbor's `remote-as`: the same words but
//!   the value) is restored by its stored line alone — its `no` form could remove more
//!   (`no neighbor X remote-as N` removes the neighbor).
//! - Access-list entries are compared by sequence number (IOS numbers entries 10, 20, …
//!   when the running config shows none): an added entry is undone with `no N`, a changed
//!   or removed one comes back with its number, so it lands where it was.
//! - A numbered access list (`access-list 101 …`) changed in any way is removed and
//!   written again whole, because IOS removes the whole list for any `no access-list 101 …`.
//! - Within a block: the `no` lines first, then nested blocks, then the stored lines.

use super::candidate::{
    acl_block, apply_styled, fits, number_entries, read, replaces, seq_of, Node, Style,
};

/// The lines that undo `lines` on a device whose stored configuration is `stored`.
/// `lists_no_shutdown`: the device lists `no shutdown` for every port that is up (NX-OS),
/// so a port without either line is down; elsewhere such a port is up, and a `no
/// shutdown` the plan adds to it changes nothing to undo.
pub fn derive(stored: &str, lines: &str, style: Style, lists_no_shutdown: bool) -> String {
    let candidate = apply_styled(stored, lines, style);
    let mut before = read(stored, false);
    let mut after = read(&candidate, false);
    number_all(&mut before);
    number_all(&mut after);
    let mut out = Vec::new();
    let ctx = Diff {
        style,
        lists_no_shutdown,
    };
    diff(&before, &after, None, ctx, &mut out);
    let mut text = out.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    text
}

/// Numbers the entries of every access list in the forest.
fn number_all(nodes: &mut [Node]) {
    for n in nodes {
        if acl_block(&n.words()) {
            number_entries(&mut n.children);
        } else {
            number_all(&mut n.children);
        }
    }
}

/// The words a node is matched by: a block's key, an access-list entry's number, a
/// line's words.
fn ident(n: &Node, in_acl: bool) -> Vec<String> {
    if in_acl {
        if let Some(s) = seq_of(n) {
            return vec![s.to_string()];
        }
    }
    n.key()
}

/// A numbered access list's number, for its top-level lines.
fn numbered_acl(n: &Node) -> Option<String> {
    match n.words().as_slice() {
        ["access-list", num, ..] => Some((*num).to_owned()),
        _ => None,
    }
}

/// Whether `added` is a single-valued setting that the stored line `old` held before.
fn same_setting(added: &Node, old: &Node, style: Style) -> bool {
    let (a, o) = (added.words(), old.words());
    replaces(&a, style).is_some_and(|p| fits(&o, &p))
}

/// The line that undoes an added line `n`.
fn undo(n: &Node, in_acl: bool) -> String {
    let pad = " ".repeat(n.indent);
    let w = n.words();
    if in_acl {
        if let Some(s) = seq_of(n) {
            return format!("{pad}no {s}");
        }
    }
    match w.as_slice() {
        ["no", rest @ ..] if !rest.is_empty() => format!("{pad}{}", rest.join(" ")),
        _ => format!("{pad}no {}", n.raw.trim()),
    }
}

/// A node and what is nested under it, as lines.
fn render(n: &Node) -> Vec<String> {
    let mut s = String::new();
    n.render(&mut s);
    s.lines().map(str::to_owned).collect()
}

/// What the comparison knows of the device.
#[derive(Clone, Copy)]
struct Diff {
    style: Style,
    lists_no_shutdown: bool,
}

/// The lines that turn `after` back into `before` (siblings under `parent`).
fn diff(before: &[Node], after: &[Node], parent: Option<&Node>, ctx: Diff, out: &mut Vec<String>) {
    let style = ctx.style;
    let in_acl = parent.is_some_and(|p| acl_block(&p.words()));
    let real = |v: &[Node]| -> Vec<usize> { (0..v.len()).filter(|&i| !v[i].trivia).collect() };
    let (b_idx, a_idx) = (real(before), real(after));
    // Numbered access lists that differ at all are written again whole.
    let acl_lines = |v: &[Node], idx: &[usize], num: &str| -> Vec<String> {
        idx.iter()
            .filter(|&&i| numbered_acl(&v[i]).as_deref() == Some(num))
            .map(|&i| v[i].raw.trim().to_owned())
            .collect()
    };
    let mut renumbered: Vec<String> = Vec::new();
    if parent.is_none() {
        let mut nums: Vec<String> = a_idx
            .iter()
            .filter_map(|&i| numbered_acl(&after[i]))
            .chain(b_idx.iter().filter_map(|&i| numbered_acl(&before[i])))
            .collect();
        nums.sort();
        nums.dedup();
        for num in nums {
            if acl_lines(before, &b_idx, &num) != acl_lines(after, &a_idx, &num) {
                renumbered.push(num);
            }
        }
    }
    let skip = |n: &Node| numbered_acl(n).is_some_and(|num| renumbered.contains(&num));
    let mut undos: Vec<String> = Vec::new();
    let mut nested: Vec<String> = Vec::new();
    let mut restores: Vec<Vec<String>> = Vec::new();
    let mut matched_before = vec![false; before.len()];
    let mut added: Vec<&Node> = Vec::new();
    for &ai in &a_idx {
        let a = &after[ai];
        if parent.is_none() && skip(a) {
            continue;
        }
        let id = ident(a, in_acl);
        let found = b_idx
            .iter()
            .copied()
            .find(|&bi| !matched_before[bi] && ident(&before[bi], in_acl) == id);
        match found {
            Some(bi) => {
                matched_before[bi] = true;
                let b = &before[bi];
                let blocks = !a.children.is_empty() || !b.children.is_empty();
                if blocks && !in_acl {
                    let mut inner = Vec::new();
                    diff(&b.children, &a.children, Some(a), ctx, &mut inner);
                    if !inner.is_empty() {
                        nested.push(a.raw.trim_end().to_owned());
                        nested.extend(inner);
                    }
                } else if a.words() != b.words() {
                    // Same number, other words: the entry goes and the stored one returns.
                    undos.push(undo(a, in_acl));
                    restores.push(render(b));
                }
            }
            None => added.push(a),
        }
    }
    let removed: Vec<&Node> = b_idx
        .iter()
        .filter(|&&bi| !(matched_before[bi] || parent.is_none() && skip(&before[bi])))
        .map(|&bi| &before[bi])
        .collect();
    for a in added {
        let replaced = a.children.is_empty()
            && !in_acl
            && removed
                .iter()
                .any(|o| o.children.is_empty() && same_setting(a, o, style));
        // `no shutdown` on a port that was up without saying so changes nothing.
        let was_up = !ctx.lists_no_shutdown
            && a.words() == ["no", "shutdown"]
            && !before.iter().any(|b| b.words() == ["shutdown"]);
        if replaced || was_up {
            continue;
        }
        if a.children.is_empty() {
            undos.push(undo(a, in_acl));
        } else {
            undos.push(format!("{}no {}", " ".repeat(a.indent), a.raw.trim()));
        }
    }
    for o in removed {
        restores.push(render(o));
    }
    for num in &renumbered {
        undos.push(format!("no access-list {num}"));
        restores.extend(acl_lines(before, &b_idx, num).into_iter().map(|l| vec![l]));
    }
    // `no shutdown` undone and `shutdown` restored are one line.
    let mut seen = std::collections::HashSet::new();
    out.extend(
        undos
            .into_iter()
            .filter(|l| seen.insert(l.trim().to_owned())),
    );
    // Stored lines before nested blocks: IOS takes a neighbor's address-family lines only
    // after its `remote-as`.
    let (leaves, blocks): (Vec<Vec<String>>, Vec<Vec<String>>) =
        restores.into_iter().partition(|r| r.len() == 1);
    for r in leaves {
        if r.first().is_some_and(|l| seen.insert(l.trim().to_owned())) {
            out.extend(r);
        }
    }
    out.extend(nested);
    for r in blocks {
        if r.first().is_some_and(|l| seen.insert(l.trim().to_owned())) {
            out.extend(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::derive;
    use crate::dialect::cisco::candidate::{apply_text, CISCO};

    const IOS: &str = "hostname r1\n!\ninterface Gi1\n description up\n mtu 1500\n ip address 10.0.0.1 255.255.255.252\n ip ospf cost 10\n!\ninterface Gi2\n shutdown\n!\nip access-list extended EDGE-IN\n permit tcp any any eq 22\n permit tcp any any eq 179\n deny   ip any any\n!\naccess-list 10 permit 10.0.0.0 0.255.255.255\naccess-list 10 deny any\n!\nrouter bgp 65001\n neighbor 10.0.0.2 remote-as 7575\n neighbor 10.0.0.2 route-map IN in\n!\nroute-map IN permit 10\n match ip address prefix-list P\n set local-preference 200\n!\nip prefix-list P seq 5 permit 10.0.0.0/8\n!\nend\n";

    /// The rollback applied to the candidate gives the stored device back: its model,
    /// and its access lists entry by entry.
    fn restores(lines: &str) -> String {
        let rb = derive(IOS, lines, CISCO, false);
        let back = apply_text(&apply_text(IOS, lines), &rb);
        let parse = |t: &str| {
            crate::precheck::model_sections::sections(
                &crate::import::parse::parser_for(crate::model::Vendor::CiscoIos).parse(t),
            )
        };
        assert_eq!(
            parse(&back),
            parse(IOS),
            "not restored by\n{rb}\n--- gives\n{back}"
        );
        let again = derive(IOS, &format!("{lines}\n{rb}"), CISCO, false);
        assert!(!again.contains("access-list"), "{again}");
        rb
    }

    #[test]
    fn an_added_acl_entry_is_undone_by_its_number() {
        let rb =
            restores("ip access-list extended EDGE-IN\n 25 deny tcp host 192.0.2.1 any eq 179");
        assert_eq!(rb, "ip access-list extended EDGE-IN\n no 25\n");
        let cand = apply_text(
            IOS,
            "ip access-list extended EDGE-IN\n 25 deny tcp host 192.0.2.1 any eq 179",
        );
        assert!(cand.contains(" 20 permit tcp any any eq 179\n 25 deny tcp host 192.0.2.1 any eq 179\n 30 deny   ip any any"), "{cand}");
    }

    #[test]
    fn a_removed_or_changed_entry_comes_back_in_its_place() {
        let rb = restores("ip access-list extended EDGE-IN\n no 20");
        assert_eq!(
            rb,
            "ip access-list extended EDGE-IN\n 20 permit tcp any any eq 179\n"
        );
        let rb = restores("ip access-list extended EDGE-IN\n no 10\n 10 permit tcp 10.0.0.0 0.255.255.255 any eq 22");
        assert_eq!(
            rb,
            "ip access-list extended EDGE-IN\n no 10\n 10 permit tcp any any eq 22\n"
        );
    }

    #[test]
    fn a_changed_setting_comes_back_as_stored_and_an_added_one_goes() {
        let rb = restores("interface Gi1\n mtu 9000\n ip ospf cost 500\n bandwidth 1000");
        assert_eq!(
            restores("ip prefix-list P seq 5 permit 10.0.0.0/8 le 24\nroute-map IN permit 10\n set local-preference 50"),
            "ip prefix-list P seq 5 permit 10.0.0.0/8\nroute-map IN permit 10\n set local-preference 200\n"
        );
        assert_eq!(
            rb,
            "interface Gi1\n no bandwidth 1000\n mtu 1500\n ip ospf cost 10\n"
        );
        let rb = restores("interface Gi2\n no shutdown\ninterface Gi1\n shutdown");
        assert_eq!(
            rb,
            "interface Gi1\n no shutdown\ninterface Gi2\n shutdown\n"
        );
        let rb = restores("router bgp 65001\n neighbor 10.0.0.2 route-map OTHER in");
        assert_eq!(rb, "router bgp 65001\n neighbor 10.0.0.2 route-map IN in\n");
    }

    #[test]
    fn new_blocks_go_and_removed_ones_come_back_whole() {
        let rb = restores(
            "interface Loopback9\n ip address 10.9.9.9 255.255.255.255\nroute-map IN permit 20",
        );
        assert_eq!(rb, "no interface Loopback9\nno route-map IN permit 20\n");
        let rb = restores("no route-map IN permit 10\nno ip prefix-list P seq 5 permit 10.0.0.0/8");
        assert_eq!(rb, "ip prefix-list P seq 5 permit 10.0.0.0/8\nroute-map IN permit 10\n match ip address prefix-list P\n set local-preference 200\n");
    }

    #[test]
    fn a_numbered_access_list_is_written_again_whole() {
        let rb = restores("access-list 10 permit 192.168.0.0 0.0.255.255");
        assert_eq!(rb, "no access-list 10\naccess-list 10 permit 10.0.0.0 0.255.255.255\naccess-list 10 deny any\n");
    }

    #[test]
    fn nxos_blocks_come_back_in_their_own_indentation() {
        let nx = "hostname n1\n\ninterface Ethernet1/1\n  no switchport\n  ip address 10.0.0.1/30\n\ninterface Vlan10\n  ip address 10.10.0.1/24\n\nip access-list EDGE\n  10 permit tcp any any eq 22\n  20 deny ip any any\n\nrouter bgp 65001\n  neighbor 10.0.0.2\n    remote-as 7575\n    address-family ipv4 unicast\n      route-map IN in\n";
        // NX-OS lists `no shutdown` for a port that is up: a port without it is down, and
        // the `no shutdown` a plan adds is undone.
        assert_eq!(
            derive(nx, "interface Vlan10\n  no shutdown", CISCO, true),
            "interface Vlan10\n  shutdown\n"
        );
        assert_eq!(
            derive(
                nx,
                "ip access-list EDGE\n  15 permit udp any any eq 53",
                CISCO,
                true
            ),
            "ip access-list EDGE\n  no 15\n"
        );
        assert_eq!(
            derive(
                nx,
                "router bgp 65001\n  neighbor 10.0.0.2\n    address-family ipv4 unicast\n      route-map OTHER in",
                CISCO,
                true
            ),
            "router bgp 65001\n  neighbor 10.0.0.2\n    address-family ipv4 unicast\n      route-map IN in\n"
        );
    }
}
