//! The stored running configuration of a device, read as the device wrote it: the exact
//! lines of an interface, a BGP neighbor or a static route, with the parent lines that
//! give them context. Rollbacks are made of these lines, so that a plan followed by its
//! rollback leaves the device as it was.
//!
//! Cisco-style configurations (IOS, EOS, NX-OS) nest by indentation; that is all this
//! module relies on: the importer's own walk of those lines.

use crate::import::parse::lines::{ConfigLines, ContextStack};

/// A configuration text split into lines with their nesting.
pub struct Running<'a> {
    lines: Vec<&'a str>,
    /// Whether a line is configuration (not a separator, comment or banner body).
    meaningful: Vec<bool>,
    /// Index of each line's parent (None at top level).
    parent: Vec<Option<usize>>,
}

impl<'a> Running<'a> {
    /// Reads a configuration text with the importer's walk ([`ConfigLines`] and
    /// [`ContextStack`]), keeping each line as written.
    pub fn new(text: &'a str) -> Self {
        let lines: Vec<&str> = text.lines().collect();
        let mut parent = vec![None; lines.len()];
        let mut meaningful = vec![false; lines.len()];
        let mut stack: ContextStack<usize> = ContextStack::default();
        let mut next = 0;
        for l in ConfigLines::new(text) {
            let i = l.no as usize - 1;
            // `!` at column 0 closes every block; an indented one closes nothing.
            if lines[next..i].iter().any(|s| s.starts_with('!')) {
                stack.enter_line(0);
            }
            next = i + 1;
            stack.enter_line(l.indent);
            parent[i] = stack.top().copied();
            meaningful[i] = true;
            stack.push(l.indent, i);
        }
        Running {
            lines,
            meaningful,
            parent,
        }
    }

    fn ancestors(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut p = self.parent.get(i).copied().flatten();
        while let Some(x) = p {
            out.push(x);
            p = self.parent[x];
        }
        out.reverse();
        out
    }

    fn descends_from(&self, i: usize, root: usize) -> bool {
        let mut p = self.parent[i];
        while let Some(x) = p {
            if x == root {
                return true;
            }
            p = self.parent[x];
        }
        false
    }

    /// The selected lines with their ancestors, in file order, as written.
    fn with_context(&self, selected: &[usize]) -> Vec<String> {
        let mut keep = std::collections::BTreeSet::new();
        for &i in selected {
            keep.extend(self.ancestors(i));
            keep.insert(i);
        }
        keep.into_iter().map(|i| self.lines[i].to_owned()).collect()
    }

    /// The line (1-based) and everything nested under it.
    pub fn block_at(&self, line: u32) -> Vec<String> {
        let Some(root) = (line as usize).checked_sub(1) else {
            return Vec::new();
        };
        if root >= self.lines.len() {
            return Vec::new();
        }
        let selected: Vec<usize> = (root..self.lines.len())
            .filter(|&i| i == root || (self.meaningful[i] && self.descends_from(i, root)))
            .collect();
        self.with_context(&selected)
    }

    /// Every `interface <name>` stanza (a name may recur), header and body, as written.
    pub fn interface(&self, name: &str) -> Vec<String> {
        let headers: Vec<usize> = (0..self.lines.len())
            .filter(|&i| {
                self.meaningful[i] && self.parent[i].is_none() && {
                    let w: Vec<&str> = self.lines[i].split_whitespace().collect();
                    w.first() == Some(&"interface") && w[1..].concat() == name
                }
            })
            .collect();
        let mut out = Vec::new();
        for h in headers {
            out.extend(self.block_at(h as u32 + 1));
        }
        out
    }

    /// Every line that configures BGP neighbor `peer` — `neighbor <peer> …` anywhere
    /// under `router bgp`, and everything in an NX-OS `neighbor <peer>` block — with its
    /// parent lines (`router bgp`, `vrf`, `address-family`), in file order.
    pub fn neighbor(&self, peer: &str) -> Vec<String> {
        let names_peer = |i: usize| {
            let mut w = self.lines[i].split_whitespace();
            w.next() == Some("neighbor") && w.next() == Some(peer)
        };
        let heads: Vec<usize> = (0..self.lines.len())
            .filter(|&i| self.meaningful[i] && names_peer(i))
            .collect();
        let selected: Vec<usize> = (0..self.lines.len())
            .filter(|&i| {
                self.meaningful[i]
                    && (heads.contains(&i) || heads.iter().any(|&h| self.descends_from(i, h)))
            })
            .collect();
        self.with_context(&selected)
    }

    /// The block reached by `path` — a top-level line, then one of its children, … each
    /// given by its words (`["router bgp 65001", "vrf RED", "neighbor 10.0.0.2"]`) —
    /// with its parents and everything nested under it; empty when there is none.
    pub fn path(&self, path: &[&str]) -> Vec<String> {
        let same = |i: usize, want: &str| {
            self.meaningful[i] && self.lines[i].split_whitespace().eq(want.split_whitespace())
        };
        let mut at: Option<usize> = None;
        for want in path {
            let found = (at.map_or(0, |a| a + 1)..self.lines.len())
                .find(|&i| self.parent[i] == at && same(i, want));
            let Some(i) = found else {
                return Vec::new();
            };
            at = Some(i);
        }
        at.map_or_else(Vec::new, |i| self.block_at(i as u32 + 1))
    }

    /// Every line that configures BGP neighbor `peer` under the top-level block `root`
    /// (given by its words, `router bgp 65001 vrf RED`), with its parents, in file order.
    pub fn neighbor_under(&self, root: &str, peer: &str) -> Vec<String> {
        let Some(top) = (0..self.lines.len()).find(|&i| {
            self.meaningful[i]
                && self.parent[i].is_none()
                && self.lines[i].split_whitespace().eq(root.split_whitespace())
        }) else {
            return Vec::new();
        };
        let names_peer = |i: usize| {
            let mut w = self.lines[i].split_whitespace();
            w.next() == Some("neighbor") && w.next() == Some(peer)
        };
        let selected: Vec<usize> = (top..self.lines.len())
            .filter(|&i| self.meaningful[i] && names_peer(i) && self.descends_from(i, top))
            .collect();
        self.with_context(&selected)
    }

    /// The line at `line` (1-based) with its parents, as written.
    pub fn line_with_context(&self, line: u32) -> Vec<String> {
        match (line as usize).checked_sub(1) {
            Some(i) if i < self.lines.len() => self.with_context(&[i]),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IOS: &str = "hostname r1\n!\ninterface GigabitEthernet1\n description up\n ip address 10.0.0.1 255.255.255.252\n!\nrouter bgp 65001\n neighbor 10.0.0.2 remote-as 7575\n neighbor 10.0.0.2 password 7 0822455D0A16\n neighbor 10.0.0.9 remote-as 65001\n !\n address-family ipv4\n  neighbor 10.0.0.2 activate\n  neighbor 10.0.0.2 prefix-list OUT out\n  neighbor 10.0.0.9 activate\n exit-address-family\n!\nend\n";

    #[test]
    fn a_neighbor_with_every_line_and_its_parents() {
        let r = Running::new(IOS);
        assert_eq!(
            r.neighbor("10.0.0.2"),
            vec![
                "router bgp 65001",
                " neighbor 10.0.0.2 remote-as 7575",
                " neighbor 10.0.0.2 password 7 0822455D0A16",
                " address-family ipv4",
                "  neighbor 10.0.0.2 activate",
                "  neighbor 10.0.0.2 prefix-list OUT out",
            ]
        );
    }

    #[test]
    fn an_nxos_neighbor_block() {
        let nx = "router bgp 65600\n  neighbor 10.1.1.1\n    remote-as 65501\n    address-family ipv4 unicast\n      route-map IN in\n  neighbor 10.1.1.9\n    remote-as 1\n";
        assert_eq!(
            Running::new(nx).neighbor("10.1.1.1"),
            vec![
                "router bgp 65600",
                "  neighbor 10.1.1.1",
                "    remote-as 65501",
                "    address-family ipv4 unicast",
                "      route-map IN in",
            ]
        );
    }

    #[test]
    fn an_interface_stanza() {
        assert_eq!(
            Running::new(IOS).interface("GigabitEthernet1"),
            vec![
                "interface GigabitEthernet1",
                " description up",
                " ip address 10.0.0.1 255.255.255.252",
            ]
        );
    }
}
