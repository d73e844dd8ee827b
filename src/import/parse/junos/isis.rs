//! Junos IS-IS: `protocols isis interface I [passive | point-to-point | disable | level N
//! (disable | metric M | passive)]`, `protocols isis level N (disable | wide-metrics-only)`,
//! and on units `family iso [address NET]` (IS-IS runs only on units with `family iso`;
//! the NET, on `lo0`, gives the area).

use super::statements::Statement;
use super::Junos;
use crate::import::parse::common::isis::area_of_net;
use crate::model::IsisLevels;

/// A unit name: `ge-0/0/0` means `ge-0/0/0.0`.
fn unit_name(name: &str) -> String {
    if name.contains('.') || name == "all" {
        name.to_owned()
    } else {
        format!("{name}.0")
    }
}

impl Junos {
    /// `interfaces I unit U family iso …`.
    pub(super) fn iso_family(&mut self, name: &str, unit: &str, w: &[&str], st: &Statement) {
        let u = format!("{name}.{unit}");
        if !self.dev.isis.iso_units.contains(&u) {
            self.dev.isis.iso_units.push(u);
        }
        if let ["address", net, ..] = w {
            match area_of_net(net) {
                Some(a) => {
                    let p = self.dev.isis.process_mut("default", st.line);
                    if !p.areas.contains(&a) {
                        p.areas.push(a);
                    }
                }
                None => self
                    .dev
                    .warn(st.line, format!("family iso address: cannot read '{net}'")),
            }
        }
    }

    /// `[routing-instances R] protocols isis …`.
    pub(super) fn isis(&mut self, inst: Option<&str>, w: &[&str], st: &Statement) {
        let id = inst.unwrap_or("default");
        let p = self.dev.isis.process_mut(id, st.line);
        if inst.is_some() {
            p.vrf = inst.map(str::to_owned);
        }
        // Junos sends narrow and wide metrics unless told otherwise.
        p.transition = p.wide.is_none();
        match w {
            ["interface", name, rest @ ..] => {
                let unit = unit_name(name);
                if unit == "all" {
                    p.unsupported("`interface all`");
                    return;
                }
                let s = self.dev.isis.interface_mut(&unit);
                s.process = Some(id.to_owned());
                match rest {
                    ["disable"] => s.disabled = true,
                    ["passive", ..] => s.passive = true,
                    ["level", l, tail @ ..] => {
                        let level = IsisLevels::parse(l);
                        match (level, tail) {
                            (Some(level), ["disable"]) => {
                                let now = s.circuit.unwrap_or_default();
                                s.circuit = match (now, level) {
                                    (IsisLevels::L1L2, IsisLevels::L1) => Some(IsisLevels::L2),
                                    (IsisLevels::L1L2, IsisLevels::L2) => Some(IsisLevels::L1),
                                    _ => {
                                        s.disabled = true;
                                        Some(now)
                                    }
                                };
                            }
                            (Some(level), ["metric", m]) => match m.parse::<u32>() {
                                Ok(m) if level == IsisLevels::L1 => s.metric.0 = Some(m),
                                Ok(m) => s.metric.1 = Some(m),
                                Err(_) => self
                                    .dev
                                    .warn(st.line, format!("isis metric: '{m}' is not a number")),
                            },
                            (Some(_), ["passive", ..]) => s.passive = true,
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
            ["level", l, "disable"] => match IsisLevels::parse(l) {
                Some(IsisLevels::L1) if p.levels.l2() => p.levels = IsisLevels::L2,
                Some(IsisLevels::L2) if p.levels.l1() => p.levels = IsisLevels::L1,
                _ => p.shutdown = true,
            },
            ["level", _, "wide-metrics-only"] => {
                p.wide = Some(true);
                p.transition = false;
            }
            ["disable"] => p.shutdown = true,
            ["export", ..] => p.unsupported("export policies"),
            // What changes no route.
            ["traceoptions" | "graceful-restart" | "spf-options" | "lsp-lifetime", ..] => {}
            ["no-ipv6-routing" | "no-adjacency-down-notification", ..] => {}
            ["level", _, "authentication-key" | "authentication-type", ..] => {}
            ["overload", ..] => p.unsupported("the overload bit"),
            [word, ..] => p.unsupported(&format!("Junos IS-IS `{word}`")),
            [] => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::import::parse::parser_for;
    use crate::model::{IsisLevels, Vendor};

    #[test]
    fn set_and_brace_forms() {
        let set = "set interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/24\nset interfaces ge-0/0/0 unit 0 family iso\nset interfaces lo0 unit 0 family iso address 49.0001.0000.0000.0001.00\nset protocols isis interface ge-0/0/0.0 level 1 disable\nset protocols isis interface ge-0/0/0.0 level 2 metric 30\nset protocols isis interface lo0.0 passive\nset protocols isis level 2 wide-metrics-only\nset protocols isis export REDIST\n";
        let brace = "interfaces {\n    ge-0/0/0 {\n        unit 0 {\n            family inet {\n                address 10.0.0.1/24;\n            }\n            family iso;\n        }\n    }\n    lo0 {\n        unit 0 {\n            family iso {\n                address 49.0001.0000.0000.0001.00;\n            }\n        }\n    }\n}\nprotocols {\n    isis {\n        export REDIST;\n        level 2 wide-metrics-only;\n        interface ge-0/0/0.0 {\n            level 1 disable;\n            level 2 metric 30;\n        }\n        interface lo0.0 {\n            passive;\n        }\n    }\n}\n";
        for text in [set, brace] {
            let d = parser_for(Vendor::JuniperJunos).parse(text);
            assert_eq!(d.isis.iso_units, ["ge-0/0/0.0", "lo0.0"]);
            let p = &d.isis.processes[0];
            assert_eq!(
                (p.tag.as_str(), p.areas.as_slice()),
                ("default", &["49.0001".to_owned()][..])
            );
            assert_eq!((p.wide, p.transition), (Some(true), false));
            assert_eq!(p.unsupported, ["export policies"]);
            let ge = d.isis.interface("ge-0/0/0.0").expect("ge");
            assert_eq!(
                (ge.circuit, ge.metric),
                (Some(IsisLevels::L2), (None, Some(30)))
            );
            assert!(d.isis.interface("lo0.0").is_some_and(|i| i.passive));
        }
    }
}
