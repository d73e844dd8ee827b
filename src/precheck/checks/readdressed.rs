//! Subnets the plan's new addresses leave behind (their hosts lose their gateway), and
//! gateway addresses that move within their subnet with no HSRP/VRRP address standing in.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::Severity;
use crate::state::StateError;

/// New addresses leave no subnet and no gateway behind.
pub const CHECK: Check = Check {
    codes: &["precheck.readdressed"],
    name: "new addresses leave no subnet and no gateway address behind",
    reads: "the candidate's interface addresses; every stored address",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    // Only a plan that changes an interface's addresses can leave a subnet behind.
    let readdresses = cx.cand.touched.iter().any(|d| {
        cx.cand.devices.get(d).is_some_and(|x| {
            x.base.interfaces.iter().any(|b| {
                x.cand
                    .interfaces
                    .iter()
                    .find(|c| c.name == b.name)
                    .is_some_and(|c| {
                        let addrs = |i: &crate::model::Interface| {
                            let mut v: Vec<String> =
                                i.addresses.iter().map(|a| a.address.to_string()).collect();
                            v.sort();
                            v
                        };
                        addrs(c) != addrs(b)
                    })
            })
        })
    });
    for l in &cx.left {
        out.add(
            Severity::Warning,
            format!("{} {}", l.device, l.interface),
            match l.kept {
                None => format!(
                    "leaves {}, which no other interface has: hosts there lose their gateway",
                    l.subnet
                ),
                Some(k) => format!(
                    "narrows {} to {k}: hosts outside {k} lose their gateway",
                    l.subnet
                ),
            },
            "re-address the hosts in the same window, or keep the subnet on another interface",
        );
    }
    for (d, i, from, to) in &cx.moved {
        out.add(
            Severity::Warning,
            format!("{d} {i}"),
            format!("the gateway address moves from {from} to {to} in the same subnet, and no HSRP/VRRP address stands in for it: hosts configured with {from} lose their gateway"),
            "hand out the new gateway (DHCP) before the window, or keep the old address as a secondary",
        );
    }
    Ok(if readdresses {
        out.ran()
    } else {
        out.not_applicable()
    })
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn a_subnet_left_behind_warns() {
        let p = plan(
            "modify_interface",
            vec![interface("r2", "GigabitEthernet0/2")],
            &[(
                "r2",
                "interface GigabitEthernet0/2\n ip address 10.2.0.1 255.255.255.0",
            )],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(
                &o,
                Severity::Warning,
                "leaves 10.1.0.0/24, which no other interface has"
            ),
            "{o:?}"
        );
    }

    #[test]
    fn a_plan_that_changes_no_address_is_not_applicable() {
        assert!(!run(&CHECK, &triangle(), &description_only()).applies);
    }
}
