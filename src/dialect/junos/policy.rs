//! A new eBGP neighbor's import and export policy in Junos, by the rule of
//! [`crate::dialect::policy`]: a chain the neighbor inherits from the group it joins is
//! kept; a direction left without one reuses the policies another provider session on
//! this device applies that only filter (accept, reject, next term / policy — one that
//! sets local-preference or communities is that provider's and is left out), else gets
//! one olav builds (import only: Junos has no `network` statements telling olav the site's
//! own prefixes); with no export policy the neighbor is drafted `deactivate`d.

use super::{joined, path, set, Stored};
use crate::dialect::policy::{self as shared, Decided};
use crate::model::{BgpNeighbor, BgpPeer, PolicyAction, PolicyStatement, Vendor};
use std::net::IpAddr;

/// What a new neighbor's policy adds to the device.
#[derive(Debug, Default)]
pub struct Policy {
    /// Lines to add.
    pub apply: Vec<String>,
    /// Their removal, for the rollback.
    pub rollback: Vec<String>,
    /// What was decided, in words.
    pub decided: Decided,
}

/// Whether a policy-statement only filters: every action accepts, rejects or moves on.
fn only_filters(p: &PolicyStatement) -> bool {
    p.terms.iter().all(|t| {
        t.then.iter().all(|a| {
            matches!(
                a,
                PolicyAction::Accept
                    | PolicyAction::Reject
                    | PolicyAction::NextTerm
                    | PolicyAction::NextPolicy
            )
        })
    })
}

/// `import X` or `import [ X Y ]`.
fn chain_line(at: &[String], which: &str, names: &[&str]) -> String {
    match names {
        [one] => set(&joined(at, &[which, one])),
        _ => format!("{} [ {} ]", set(&joined(at, &[which])), names.join(" ")),
    }
}

/// Decides the import and export policy of the new neighbor `theirs` (the provider
/// `provider`), attached at `at` (the new group, or the neighbor in a group it joins);
/// `inherited`: the directions (`import`, `export`) the joined group already filters.
pub fn decide(
    st: &Stored,
    text: &str,
    theirs: IpAddr,
    provider: &str,
    at: &[String],
    inherited: &[&str],
) -> Policy {
    let cfg = crate::import::parse::parser_for(Vendor::JuniperJunos).parse(text);
    let statement = |name: &str| {
        cfg.policy_options
            .statements
            .iter()
            .find(|s| s.name == name)
    };
    let local_as = cfg.bgp.as_ref().and_then(|b| b.local_as);
    let mut others: Vec<&BgpNeighbor> = cfg
        .bgp
        .iter()
        .flat_map(|b| b.neighbors.iter())
        .filter(|n| {
            n.vrf.is_none()
                && n.peer_asn.is_some()
                && n.peer_asn != local_as
                && n.peer != BgpPeer::Address(theirs)
        })
        .collect();
    others.sort_by_key(|n| n.line);
    let mut p = Policy::default();
    for which in ["import", "export"] {
        if inherited.contains(&which) {
            continue;
        }
        let word = if which == "import" {
            "inbound"
        } else {
            "outbound"
        };
        let reused = others.iter().find_map(|n| {
            let chain = if which == "import" {
                &n.routing.import_chain
            } else {
                &n.routing.export_chain
            };
            let kept: Vec<&PolicyStatement> = chain
                .iter()
                .filter_map(|c| statement(c))
                .filter(|s| only_filters(s))
                .collect();
            let rejects = kept.iter().any(|s| {
                s.terms
                    .iter()
                    .any(|t| t.then.contains(&PolicyAction::Reject))
            });
            // Export: what the kept policies do not accept must be rejected at their end,
            // or Junos's default export announces every active BGP route.
            let closed = kept.last().and_then(|s| s.terms.last()).is_some_and(|t| {
                t.from.is_empty() && t.then.first() == Some(&PolicyAction::Reject)
            }) && !kept.iter().any(|s| {
                s.terms
                    .iter()
                    .any(|t| t.from.is_empty() && t.then.first() == Some(&PolicyAction::Accept))
            });
            let fit = !kept.is_empty() && rejects && (which == "import" || closed);
            fit.then(|| {
                let left: Vec<&str> = chain
                    .iter()
                    .filter(|c| !kept.iter().any(|k| &k.name == *c))
                    .map(String::as_str)
                    .collect();
                (n, kept, left)
            })
        });
        if let Some((n, kept, left)) = reused {
            let names: Vec<&str> = kept.iter().map(|s| s.name.as_str()).collect();
            p.apply.push(chain_line(at, which, &names));
            let peer = match &n.peer {
                BgpPeer::Address(a) => a.to_string(),
                other => format!("{other:?}"),
            };
            p.decided.notes.push(format!(
                "{word}: {which} {}, as the neighbor {peer}{} on this device applies it{}",
                names.join(" "),
                n.peer_asn.map(|a| format!(" (AS{a})")).unwrap_or_default(),
                if left.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; left out: {}, which set{} that provider's attributes",
                        left.join(" "),
                        if left.len() == 1 { "s" } else { "" }
                    )
                }
            ));
        } else if which == "import" {
            let name = shared::name_for(provider, "IN", |x| statement(x).is_some());
            let ps = path(&["policy-options", "policy-statement", &name]);
            let term = |t: &str, rest: &[&str]| {
                let mut w = vec!["term", t];
                w.extend_from_slice(rest);
                set(&joined(&ps, &w))
            };
            p.apply.push(term(
                "default",
                &["from", "route-filter", "0.0.0.0/0", "exact"],
            ));
            p.apply.push(term("default", &["then", "reject"]));
            for b in shared::BOGONS {
                p.apply
                    .push(term("bogons", &["from", "route-filter", b, "orlonger"]));
            }
            p.apply.push(term("bogons", &["then", "reject"]));
            let upto = format!("/{}", shared::LONGEST_ACCEPTED);
            p.apply.push(term(
                "rest",
                &["from", "route-filter", "0.0.0.0/0", "upto", &upto],
            ));
            p.apply.push(term("rest", &["then", "accept"]));
            p.apply.push(term("last", &["then", "reject"]));
            p.apply.push(chain_line(at, which, &[&name]));
            p.rollback.extend(st.restore(&ps));
            p.decided.notes.push(format!("inbound: new policy-statement {name} (no other provider session on this device has an import policy that only filters): the default route, the bogons ({}) and anything longer than /{} rejected", shared::BOGONS.join(", "), shared::LONGEST_ACCEPTED));
        } else {
            p.decided.shut = true;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMMA: &str = "set routing-options autonomous-system 65001\nset protocols bgp group TELIA type external\nset protocols bgp group TELIA peer-as 1299\nset protocols bgp group TELIA import [ TELIA-IN SET-LP ]\nset protocols bgp group TELIA export TELIA-OUT\nset protocols bgp group TELIA neighbor 62.115.152.89\nset policy-options prefix-list OURS 185.7.0.0/22\nset policy-options policy-statement TELIA-IN term default from route-filter 0.0.0.0/0 exact\nset policy-options policy-statement TELIA-IN term default then reject\nset policy-options policy-statement SET-LP term all then local-preference 200\nset policy-options policy-statement SET-LP term all then accept\nset policy-options policy-statement TELIA-OUT term ours from prefix-list OURS\nset policy-options policy-statement TELIA-OUT term ours then accept\nset policy-options policy-statement TELIA-OUT term last then reject\n";

    fn at() -> Vec<String> {
        path(&["protocols", "bgp", "group", "EBGP-COGENT"])
    }

    #[test]
    fn filter_only_policies_are_reused_and_setting_ones_left_out() {
        let p = decide(
            &Stored::new(GAMMA),
            GAMMA,
            "198.18.0.0".parse().unwrap(),
            "Cogent",
            &at(),
            &[],
        );
        assert!(!p.decided.shut);
        assert_eq!(
            p.apply,
            vec![
                "set protocols bgp group EBGP-COGENT import TELIA-IN",
                "set protocols bgp group EBGP-COGENT export TELIA-OUT"
            ]
        );
        assert!(
            p.decided.notes[0].contains("left out: SET-LP"),
            "{:?}",
            p.decided.notes
        );
    }

    #[test]
    fn nothing_to_reuse_builds_the_import_and_deactivates() {
        let text = "set routing-options autonomous-system 65001\n";
        let p = decide(
            &Stored::new(text),
            text,
            "198.18.0.0".parse().unwrap(),
            "Cogent",
            &at(),
            &[],
        );
        assert!(p.decided.shut);
        assert_eq!(
            p.apply.first().map(String::as_str),
            Some("set policy-options policy-statement COGENT-IN term default from route-filter 0.0.0.0/0 exact")
        );
        assert!(p.apply.contains(&"set policy-options policy-statement COGENT-IN term bogons from route-filter 10.0.0.0/8 orlonger".to_owned()));
        assert!(p.apply.contains(&"set policy-options policy-statement COGENT-IN term rest from route-filter 0.0.0.0/0 upto /24".to_owned()));
        assert_eq!(
            p.apply.last().map(String::as_str),
            Some("set protocols bgp group EBGP-COGENT import COGENT-IN")
        );
        assert_eq!(
            p.rollback,
            vec!["delete policy-options policy-statement COGENT-IN"]
        );
    }

    #[test]
    fn an_export_chain_that_does_not_end_in_reject_is_not_reused() {
        let text = GAMMA.replace(
            "set policy-options policy-statement TELIA-OUT term last then reject\n",
            "",
        );
        let p = decide(
            &Stored::new(&text),
            &text,
            "198.18.0.0".parse().unwrap(),
            "Cogent",
            &at(),
            &["import"],
        );
        assert!(p.decided.shut);
        assert!(p.apply.is_empty());
    }
}
