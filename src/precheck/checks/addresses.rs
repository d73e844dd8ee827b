//! The addresses the plan configures duplicate and overlap nothing in the network.

use super::{Check, Context, Findings, Outcome};
use crate::model::AddressKind;
use crate::precheck::Severity;
use crate::state::StateError;

/// New addresses duplicate and overlap nothing.
pub const CHECK: Check = Check {
    codes: &["precheck.addresses"],
    name: "new addresses duplicate and overlap nothing",
    reads: "the plan's interface addresses; every stored address",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let st = &cx.state;
    if !cx
        .blocks
        .iter()
        .any(|(_, c, _)| c.interfaces.iter().any(|i| !i.addresses.is_empty()))
    {
        return Ok(out.not_applicable());
    }
    for (dev, cfg, _) in &cx.blocks {
        for i in &cfg.interfaces {
            let vrf = match &i.vrf {
                Some(v) => v.clone(),
                None => st
                    .iface(dev, &i.name)?
                    .map_or_else(|| "default".into(), |(_, v)| v),
            };
            for a in i
                .addresses
                .iter()
                .filter(|a| a.kind != AddressKind::Virtual)
            {
                for (h, ifn, v, existing) in st.all_addresses()? {
                    let same_place = h == dev && crate::ifname::same(&i.name, ifn);
                    if same_place {
                        continue;
                    }
                    if existing.addr() == a.address.addr() {
                        out.add(
                            Severity::Error,
                            format!("{dev} {}", i.name),
                            format!("{} is already configured on {h} {ifn}", a.address.addr()),
                            "choose an unused address",
                        );
                    } else if *v == vrf
                        && (existing.contains(&a.address.network())
                            || a.address.contains(&existing.network()))
                    {
                        if existing.trunc() == a.address.trunc() && a.address.prefix_len() >= 30 {
                            out.add(
                                Severity::Info,
                                format!("{dev} {}", i.name),
                                format!(
                                    "{} joins the link subnet of {h} {ifn} ({existing})",
                                    a.address
                                ),
                                "intended: the other end of the new link",
                            );
                        } else {
                            out.add(
                                Severity::Error,
                                format!("{dev} {}", i.name),
                                format!("{} overlaps {existing} on {h} {ifn} (vrf {v})", a.address),
                                "allocate a subnet that overlaps nothing",
                            );
                        }
                    }
                }
            }
        }
    }
    Ok(out.ran())
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    fn address_on_gi03(addr: &str) -> Outcome {
        let p = plan(
            "modify_interface",
            vec![interface("r1", "GigabitEthernet0/3")],
            &[(
                "r1",
                &format!("interface GigabitEthernet0/3\n ip address {addr}"),
            )],
            &[],
        );
        run(&CHECK, &triangle(), &p)
    }

    #[test]
    fn a_duplicate_or_overlapping_address_fails() {
        let o = address_on_gi03("10.1.0.1 255.255.255.0");
        assert!(
            has(&o, Severity::Error, "10.1.0.1 is already configured on r2"),
            "{o:?}"
        );
        let o = address_on_gi03("10.1.0.5 255.255.0.0");
        assert!(
            has(&o, Severity::Error, "overlaps 10.1.0.1/24 on r2"),
            "{o:?}"
        );
    }

    #[test]
    fn an_unused_subnet_passes_and_no_address_is_not_applicable() {
        assert!(address_on_gi03("192.0.2.1 255.255.255.252").passed());
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }

    use super::super::Outcome;
}
