//! Links the plan touches stay up (or go down where it shuts a port), share a subnet and
//! are routed or switched alike; a shut switched port names the SVIs it may carry.

use super::{Check, Context, Findings, Outcome};
use crate::precheck::candidate::Cause;
use crate::precheck::Severity;
use crate::state::StateError;

/// Links the plan touches stay up (or go down only where the plan shuts a port), share a
/// subnet and are routed or switched at both ends.
pub const CHECK: Check = Check {
    codes: &["precheck.links"],
    name: "links the plan touches stay up (or go down only where the plan shuts a port), share a subnet and are routed or switched at both ends",
    reads: "the candidate's links and shut interfaces",
    run,
};

fn run(cx: &Context) -> Result<Outcome, StateError> {
    let mut out = Findings::new(CHECK.codes[0]);
    let cand = &cx.cand;
    if cand.links.is_empty() {
        switched_ports(cx, &mut out);
        return Ok(out.not_applicable());
    }
    for l in &cand.lost_links {
        let el = format!("{}:{} – {}:{}", l.a.0, l.a.1, l.b.0, l.b.1);
        // A shut port is the plan's declared effect; an end the plan deletes is one
        // only when the request removes something (a decommission), as with any
        // other way of breaking a link.
        if l.cause == Cause::Down || (l.cause == Cause::Gone && cx.is_removal()) {
            out.add(
                Severity::Info,
                el,
                format!("link taken down by the plan: {}", l.detail),
                "counted in the blast radius",
            );
        } else {
            out.add(
                Severity::Error,
                el,
                format!("the plan breaks this link: {}", l.detail),
                "change both ends together, or plan the link's removal explicitly",
            );
        }
    }
    switched_ports(cx, &mut out);
    Ok(out.ran())
}

/// A switched port the plan shuts may be the only layer-2 path of the device's SVIs:
/// olav does not model layer-2 paths, so it says so and names them.
fn switched_ports(cx: &Context, out: &mut Findings) {
    let cand = &cx.cand;
    for (d, ifn) in &cand.shut {
        let Some(dev) = cand.devices.get(d) else {
            continue;
        };
        let Some(port) = dev.base.interfaces.iter().find(|i| i.name == *ifn) else {
            continue;
        };
        if port.switchport_mode.is_none() {
            continue;
        }
        let carried = |vlan: u32| match (&port.trunk_vlans, port.access_vlan) {
            (Some(list), _) => vlan_list_contains(list, vlan),
            (None, Some(a)) => a == vlan,
            (None, None) => true,
        };
        let svis: Vec<String> = dev
            .base
            .interfaces
            .iter()
            .filter(|i| i.admin_up && !i.addresses.is_empty())
            .filter_map(|i| {
                let n = i.name.to_ascii_lowercase();
                let vlan: u32 = n.strip_prefix("vlan")?.parse().ok()?;
                carried(vlan).then(|| i.name.clone())
            })
            .collect();
        if !svis.is_empty() {
            out.add(
                Severity::Warning,
                format!("{d} {ifn}"),
                format!(
                    "a switched port that carries the VLANs of {}: if it is their only layer-2 path, they and what rides them (BGP sessions, gateways) go — olav does not model layer-2 paths",
                    svis.join(", ")
                ),
                "check the VLANs have another path (`show spanning-tree`, `show vlan`) before the window",
            );
        }
    }
}

/// Whether a VLAN list as configured (`10,20,30-40`, `all`, `add …` already folded) holds
/// `vlan`.
fn vlan_list_contains(list: &str, vlan: u32) -> bool {
    list.split(',')
        .map(str::trim)
        .any(|part| match part.split_once('-') {
            _ if part.eq_ignore_ascii_case("all") => true,
            Some((a, b)) => match (a.parse::<u32>(), b.parse::<u32>()) {
                (Ok(a), Ok(b)) => (a..=b).contains(&vlan),
                _ => false,
            },
            None => part.parse::<u32>() == Ok(vlan),
        })
}

#[cfg(test)]
mod tests {
    use super::CHECK;
    use crate::precheck::checks::testkit::*;
    use crate::precheck::Severity;

    #[test]
    fn a_readdressed_link_end_breaks_the_link() {
        let p = plan(
            "modify_interface",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[(
                "r3",
                "interface GigabitEthernet0/0\n ip address 10.9.9.1 255.255.255.252",
            )],
            &[],
        );
        let o = run(&CHECK, &triangle(), &p);
        assert!(
            has(&o, Severity::Error, "the plan breaks this link"),
            "{o:?}"
        );
    }

    #[test]
    fn a_description_keeps_the_links_and_a_shutdown_is_counted() {
        let net = triangle();
        assert!(run(&CHECK, &net, &description_only()).passed());
        let p = plan(
            "shutdown_interface",
            vec![interface("r3", "GigabitEthernet0/0")],
            &[("r3", "interface GigabitEthernet0/0\n shutdown")],
            &[],
        );
        let o = run(&CHECK, &net, &p);
        assert!(
            o.passed() && has(&o, Severity::Info, "link taken down by the plan"),
            "{o:?}"
        );
    }

    #[test]
    fn a_junos_link_unit_deleted_breaks_the_link_unless_the_plan_removes_it() {
        let p = |intent: &str| {
            junos_plan(
                intent,
                vec![interface("j1", "xe-0/1/0.0")],
                &junos_delete("interfaces xe-0/1/0 unit 0 family inet address 10.0.3.0/31"),
                &junos_set("interfaces xe-0/1/0 unit 0 family inet address 10.0.3.0/31"),
            )
        };
        let net = junos_eos();
        let o = run(&CHECK, &net, &p("modify_interface"));
        assert!(
            has(
                &o,
                Severity::Error,
                "the plan breaks this link: e1 Ethernet12 (10.0.3.1/31) loses its far end; j1 xe-0/1/0.0 (10.0.3.0/31) is no longer configured"
            ),
            "{o:?}"
        );
        let o = run(&CHECK, &net, &p("decommission_interface"));
        assert!(
            o.passed() && has(&o, Severity::Info, "link taken down by the plan"),
            "{o:?}"
        );
    }

    #[test]
    fn vlan_lists_hold_ranges_and_all() {
        assert!(super::vlan_list_contains("10,20,30-40", 35));
        assert!(super::vlan_list_contains("all", 7));
        assert!(!super::vlan_list_contains("10,20,30-40", 41));
    }
}
