//! A new eBGP session's inbound and outbound policy in Cisco-style syntax (IOS, EOS,
//! NX-OS), by the rule of [`crate::dialect::policy`]: what the copied session filters is
//! kept when this device defines it; a direction left unfiltered reuses the filter
//! another provider session on this device applies (a route-map that sets attributes is
//! copied under the new provider's name without its `set` lines), else gets one olav
//! builds; with no outbound policy at all the session is drafted shut.

use super::running::Running;
use crate::dialect::policy::{self as shared, Decided};
use crate::model::{BgpNeighbor, BgpPeer, DeviceConfig, PrefixListEntry, Vendor};
use ipnet::IpNet;
use std::net::IpAddr;

/// The keywords that filter a neighbor's routes.
const FILTERS: &[&str] = &["route-map", "prefix-list", "filter-list", "distribute-list"];

/// What a new session's policy adds to the device.
#[derive(Debug, Default)]
pub struct Policy {
    /// The copied session's lines that are kept (a filter this device does not define is
    /// dropped: an undefined prefix-list permits everything on IOS).
    pub kept: Vec<String>,
    /// Filters to apply to the new neighbor: (keyword, name, `in` / `out`).
    pub attach: Vec<(&'static str, String, &'static str)>,
    /// New prefix-lists and route-maps, as the OS prints them.
    pub define: Vec<String>,
    /// Their removal, for the rollback.
    pub undefine: Vec<String>,
    /// What was decided, in words.
    pub decided: Decided,
}

/// The filter a line applies and its direction: `neighbor X route-map M in`, NX-OS
/// `route-map M in`.
fn filter_of(line: &str) -> Option<(&str, &str, &str)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let dir = *w.last()?;
    if dir != "in" && dir != "out" {
        return None;
    }
    let k = w.iter().position(|x| FILTERS.contains(x))?;
    Some((w[k], w.get(k + 1)?, dir))
}

/// Whether a prefix-list lets (almost) every route through: a permit entry on the
/// default route with a length range. No outbound filter that.
fn permits_all(entries: &[&PrefixListEntry]) -> bool {
    entries
        .iter()
        .any(|e| e.permit && e.prefix.prefix_len() == 0 && (e.le.is_some() || e.ge.is_some()))
}

struct Device<'a> {
    cfg: DeviceConfig,
    run: Running<'a>,
    vendor: Vendor,
}

impl Device<'_> {
    fn defines(&self, name: &str) -> bool {
        self.cfg.structures.iter().any(|s| s.name == name)
    }

    fn prefix_list(&self, name: &str) -> Vec<&PrefixListEntry> {
        self.cfg
            .prefix_lists
            .iter()
            .filter(|e| e.name == name)
            .collect()
    }

    /// Whether a route-map is an own-prefix filter fit to announce through: every permit
    /// clause matches something, and no prefix-list it matches permits everything.
    fn route_map_filters(&self, name: &str) -> bool {
        self.cfg
            .route_map_clauses
            .iter()
            .filter(|c| c.name == name && c.permit)
            .all(|c| {
                (!c.prefix_lists.is_empty() || !c.matches.is_empty() || !c.other.is_empty())
                    && !c
                        .prefix_lists
                        .iter()
                        .any(|l| permits_all(&self.prefix_list(l)))
            })
    }

    /// A route-map's clauses as written, and its `set` lines.
    fn route_map(&self, name: &str) -> (Vec<Vec<String>>, Vec<String>) {
        let mut clauses = Vec::new();
        let mut sets = Vec::new();
        for c in self.cfg.route_map_clauses.iter().filter(|c| c.name == name) {
            let block = self.run.block_at(c.line);
            sets.extend(
                block
                    .iter()
                    .map(|l| l.trim())
                    .filter(|l| l.starts_with("set "))
                    .map(str::to_owned),
            );
            clauses.push(block);
        }
        (clauses, sets)
    }

    /// Another provider session's filter in `dir`, made fit for the new provider.
    fn reuse(&self, n: &BgpNeighbor, dir: &'static str, provider: &str, p: &mut Policy) -> bool {
        let (list, map) = if dir == "in" {
            (&n.prefix_list_in, &n.route_map_in)
        } else {
            (&n.prefix_list_out, &n.route_map_out)
        };
        let peer = match &n.peer {
            BgpPeer::Address(a) => a.to_string(),
            _ => return false,
        };
        let asn = n.peer_asn.map(|a| format!(" (AS{a})")).unwrap_or_default();
        let mut parts = Vec::new();
        if let Some(l) = list.as_deref().filter(|l| self.defines(l)) {
            if dir == "in" || !permits_all(&self.prefix_list(l)) {
                p.attach.push(("prefix-list", l.to_owned(), dir));
                parts.push(format!("prefix-list {l}"));
            }
        }
        if let Some(m) = map.as_deref() {
            let (clauses, sets) = self.route_map(m);
            if !clauses.is_empty() && (dir == "in" || self.route_map_filters(m)) {
                if sets.is_empty() {
                    p.attach.push(("route-map", m.to_owned(), dir));
                    parts.push(format!("route-map {m}"));
                } else {
                    let suffix = if dir == "in" { "IN" } else { "OUT" };
                    let new = shared::name_for(provider, suffix, |x| self.defines(x));
                    for block in clauses {
                        let mut lines = block.into_iter().filter(|l| !l.trim().starts_with("set "));
                        if let Some(head) = lines.next() {
                            let mut w: Vec<&str> = head.split_whitespace().collect();
                            if w.len() > 1 {
                                w[1] = &new;
                            }
                            p.define.push(w.join(" "));
                        }
                        p.define.extend(lines);
                        p.define.push("!".to_owned());
                    }
                    p.undefine.push(format!("no route-map {new}"));
                    p.attach.push(("route-map", new.clone(), dir));
                    parts.push(format!(
                        "route-map {m} copied as {new} without its set lines ({}), which are that provider's",
                        sets.join("; ")
                    ));
                }
            }
        }
        if parts.is_empty() {
            return false;
        }
        p.decided.notes.push(format!(
            "{}: {}, as applied to neighbor {peer}{asn} on this device",
            if dir == "in" { "inbound" } else { "outbound" },
            parts.join(" and ")
        ));
        true
    }

    /// A new prefix-list, as the OS prints it.
    fn prefix_list_lines(&self, name: &str, entries: &[(bool, IpNet, Option<u8>)]) -> Vec<String> {
        let entry = |seq: usize, (permit, prefix, le): &(bool, IpNet, Option<u8>)| {
            format!(
                "seq {} {} {prefix}{}",
                (seq + 1) * 5,
                if *permit { "permit" } else { "deny" },
                le.map(|l| format!(" le {l}")).unwrap_or_default()
            )
        };
        let mut out = Vec::new();
        if self.vendor == Vendor::AristaEos {
            out.push(format!("ip prefix-list {name}"));
            out.extend(
                entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| format!("{}{}", super::ind(self.vendor), entry(i, e))),
            );
        } else {
            out.extend(
                entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| format!("ip prefix-list {name} {}", entry(i, e))),
            );
        }
        out.push("!".to_owned());
        out
    }

    fn build(&self, dir: &'static str, provider: &str, p: &mut Policy) -> bool {
        let taken = |x: &str| self.defines(x) || p.attach.iter().any(|a| a.1 == x);
        let entries: Vec<(bool, IpNet, Option<u8>)> = if dir == "in" {
            let any: IpNet = IpNet::V4(Default::default());
            std::iter::once((false, any, None))
                .chain(shared::bogons().into_iter().map(|b| (false, b, Some(32))))
                .chain(std::iter::once((true, any, Some(shared::LONGEST_ACCEPTED))))
                .collect()
        } else {
            let bgp = self.cfg.bgp.as_ref();
            let originated = bgp
                .map(|b| {
                    b.networks
                        .iter()
                        .filter(|n| n.vrf.is_none())
                        .map(|n| n.prefix)
                        .chain(b.aggregates.iter().copied())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            shared::own_prefixes(originated)
                .into_iter()
                .map(|o| (true, o, None))
                .collect()
        };
        if entries.is_empty() {
            return false;
        }
        let name = shared::name_for(provider, if dir == "in" { "IN" } else { "OUT" }, taken);
        p.define.extend(self.prefix_list_lines(&name, &entries));
        p.undefine.push(format!("no ip prefix-list {name}"));
        p.attach.push(("prefix-list", name.clone(), dir));
        p.decided.notes.push(if dir == "in" {
            format!("inbound: new prefix-list {name} (no other provider session on this device filters what it accepts): the default route, the bogons ({}) and anything longer than /{} rejected", shared::BOGONS.join(", "), shared::LONGEST_ACCEPTED)
        } else {
            format!("outbound: new prefix-list {name} (no other provider session on this device filters what it announces): only what this device originates into BGP, {}", entries.iter().map(|e| e.1.to_string()).collect::<Vec<_>>().join(", "))
        });
        true
    }
}

/// Decides the policy of a new session to `theirs` (the provider `provider`) on the
/// device whose stored configuration is `text`, given the session lines copied from the
/// existing uplink (`copied`, possibly none).
pub fn decide(
    vendor: Vendor,
    text: &str,
    theirs: IpAddr,
    provider: &str,
    copied: Vec<String>,
) -> Policy {
    let d = Device {
        cfg: crate::import::parse::parser_for(vendor).parse(text),
        run: Running::new(text),
        vendor,
    };
    let mut p = Policy::default();
    let mut covered: Vec<&str> = Vec::new();
    for l in copied {
        match filter_of(&l) {
            Some((kind, name, dir)) if !d.defines(name) => p.decided.notes.push(format!(
                "the existing session's {kind} {name} ({dir}) is not defined on this device: not copied"
            )),
            Some((_, _, dir)) => {
                covered.push(if dir == "in" { "in" } else { "out" });
                p.kept.push(l);
            }
            None => p.kept.push(l),
        }
    }
    let local_as = d.cfg.bgp.as_ref().and_then(|b| b.local_as);
    let mut others: Vec<&BgpNeighbor> = d
        .cfg
        .bgp
        .iter()
        .flat_map(|b| b.neighbors.iter())
        .filter(|n| {
            n.vrf.is_none()
                && !n.shutdown
                && n.peer_asn.is_some()
                && n.peer_asn != local_as
                && n.peer != BgpPeer::Address(theirs)
        })
        .collect();
    others.sort_by_key(|n| n.line);
    for dir in ["in", "out"] {
        if covered.contains(&dir) {
            continue;
        }
        let mut reused = false;
        for n in &others {
            if d.reuse(n, dir, provider, &mut p) {
                reused = true;
                break;
            }
        }
        if !reused && !d.build(dir, provider, &mut p) && dir == "out" {
            p.decided.shut = true;
        }
    }
    if p.decided.shut {
        let bgp = format!("router bgp {}", local_as.unwrap_or_default());
        let (how, enable) = if vendor == Vendor::CiscoNxos {
            (
                format!("`shutdown` under `{bgp}` / `neighbor {theirs}`"),
                "`no shutdown` there".to_owned(),
            )
        } else {
            (
                format!("`neighbor {theirs} shutdown`"),
                format!("`no neighbor {theirs} shutdown` under `{bgp}`"),
            )
        };
        p.decided.notes.push(shared::shut_note(&how, &enable));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    const IOS: &str = "hostname b1\n!\nrouter bgp 65001\n neighbor 203.0.113.2 remote-as 7575\n !\n address-family ipv4\n  network 10.10.0.0 mask 255.255.0.0\n  network 185.7.0.0 mask 255.255.252.0\n  neighbor 203.0.113.2 activate\n  neighbor 203.0.113.2 prefix-list AARNET-IN in\n  neighbor 203.0.113.2 route-map AARNET-IN in\n  neighbor 203.0.113.2 route-map AARNET-OUT out\n exit-address-family\n!\nip prefix-list AARNET-IN seq 5 deny 0.0.0.0/0\nip prefix-list AARNET-IN seq 10 permit 0.0.0.0/0 le 24\nip prefix-list OURS seq 10 permit 185.7.0.0/22\n!\nroute-map AARNET-IN permit 10\n match ip address prefix-list AARNET-IN\n set local-preference 200\n!\nroute-map AARNET-OUT permit 10\n match ip address prefix-list OURS\n!\nroute-map AARNET-OUT deny 100\n!\nend\n";

    fn peer() -> IpAddr {
        "198.18.0.0".parse().unwrap()
    }

    #[test]
    fn another_providers_filters_are_reused_without_their_sets() {
        let p = decide(Vendor::CiscoIos, IOS, peer(), "Cogent", Vec::new());
        assert!(!p.decided.shut);
        assert_eq!(
            p.attach,
            vec![
                ("prefix-list", "AARNET-IN".to_owned(), "in"),
                ("route-map", "COGENT-IN".to_owned(), "in"),
                ("route-map", "AARNET-OUT".to_owned(), "out"),
            ]
        );
        assert_eq!(
            p.define,
            vec![
                "route-map COGENT-IN permit 10",
                " match ip address prefix-list AARNET-IN",
                "!"
            ]
        );
        assert_eq!(p.undefine, vec!["no route-map COGENT-IN"]);
        assert!(
            p.decided.notes[0].contains("set local-preference 200"),
            "{:?}",
            p.decided.notes
        );
    }

    #[test]
    fn without_a_filter_to_reuse_olav_builds_one_from_the_public_networks() {
        let text = "hostname b1\n!\nrouter bgp 65001\n address-family ipv4\n  network 10.10.0.0 mask 255.255.0.0\n  network 185.7.0.0 mask 255.255.252.0\n  aggregate-address 185.8.0.0 255.255.0.0\n exit-address-family\n!\nend\n";
        let p = decide(Vendor::CiscoIos, text, peer(), "Cogent", Vec::new());
        assert!(!p.decided.shut);
        assert!(p
            .define
            .contains(&"ip prefix-list COGENT-IN seq 5 deny 0.0.0.0/0".to_owned()));
        assert!(p
            .define
            .contains(&"ip prefix-list COGENT-IN seq 10 deny 0.0.0.0/8 le 32".to_owned()));
        assert!(
            p.define
                .contains(&"ip prefix-list COGENT-IN seq 80 permit 0.0.0.0/0 le 24".to_owned()),
            "{:?}",
            p.define
        );
        assert!(p
            .define
            .contains(&"ip prefix-list COGENT-OUT seq 5 permit 185.7.0.0/22".to_owned()));
        assert!(p
            .define
            .contains(&"ip prefix-list COGENT-OUT seq 10 permit 185.8.0.0/16".to_owned()));
        assert!(!p.define.iter().any(|l| l.contains("10.10.0.0")));
        assert_eq!(
            p.undefine,
            vec![
                "no ip prefix-list COGENT-IN",
                "no ip prefix-list COGENT-OUT"
            ]
        );
    }

    #[test]
    fn eos_prints_a_prefix_list_as_a_block_and_nothing_known_means_shut() {
        let text =
            "hostname b1\n!\nrouter bgp 65001\n   neighbor 192.0.2.9 remote-as 65001\n!\nend\n";
        let p = decide(Vendor::AristaEos, text, peer(), "Cogent", Vec::new());
        assert!(p.decided.shut);
        assert_eq!(
            p.define.first().map(String::as_str),
            Some("ip prefix-list COGENT-IN")
        );
        assert_eq!(
            p.define.get(1).map(String::as_str),
            Some("   seq 5 deny 0.0.0.0/0")
        );
        assert_eq!(
            p.attach,
            vec![("prefix-list", "COGENT-IN".to_owned(), "in")]
        );
    }

    #[test]
    fn an_outbound_map_that_permits_everything_is_not_reused() {
        let text = "hostname b1\n!\nrouter bgp 65001\n neighbor 203.0.113.2 remote-as 7575\n neighbor 203.0.113.2 route-map ANY out\n!\nroute-map ANY permit 10\n!\nend\n";
        let p = decide(Vendor::CiscoIos, text, peer(), "Cogent", Vec::new());
        assert!(p.decided.shut, "{p:?}");
    }

    #[test]
    fn a_copied_filter_this_device_does_not_define_is_dropped() {
        let copied = vec![
            " address-family ipv4".to_owned(),
            "  neighbor 198.18.0.0 activate".to_owned(),
            "  neighbor 198.18.0.0 prefix-list ELSEWHERE out".to_owned(),
            "  neighbor 198.18.0.0 route-map AARNET-IN in".to_owned(),
        ];
        let p = decide(Vendor::CiscoIos, IOS, peer(), "AARNet", copied);
        assert_eq!(p.kept.len(), 3);
        assert!(p.decided.notes[0].contains("ELSEWHERE"));
        assert_eq!(
            p.attach,
            vec![("route-map", "AARNET-OUT".to_owned(), "out")]
        );
    }
}
