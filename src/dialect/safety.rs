//! The platforms' own rollback safety: a change that restores itself unless confirmed,
//! which a plan may rely on where it cuts off the device it configures
//! (`docs/precheck.md`, "Lock-out").

use crate::model::Vendor;

/// The safety named in `text` (a device's plan lines, or the plan's implementation
/// notes) for a device of `vendor`, as the plan spells it: Junos and IOS-XR `commit
/// confirmed` (IOS-XR: `commit confirmed 300` in place of the block's `commit`); FRR has
/// none (vtysh applies each line as it comes); IOS/IOS-XE/NX-OS/EOS `reload in`, `configure replace … time`, IOS-XE
/// `configure terminal revert timer`, EOS `commit timer` of a configure session.
pub fn rollback_safety(vendor: Vendor, text: &str) -> Option<&'static str> {
    let lower = text.to_ascii_lowercase();
    let has = |s: &str| lower.contains(s);
    match vendor {
        Vendor::JuniperJunos | Vendor::CiscoIosXr => {
            return has("commit confirmed").then_some("commit confirmed")
        }
        Vendor::Frr => return None,
        _ => {}
    }
    if has("configure terminal revert timer") {
        return Some("configure terminal revert timer");
    }
    if lower
        .lines()
        .any(|l| l.contains("configure replace") && l.contains(" time"))
    {
        return Some("configure replace … time");
    }
    if has("commit timer") {
        return Some("configure session … commit timer");
    }
    has("reload in ").then_some("reload in")
}

#[cfg(test)]
mod tests {
    use super::rollback_safety;
    use crate::model::Vendor;

    #[test]
    fn each_platform_names_its_own_safety() {
        assert_eq!(
            rollback_safety(Vendor::JuniperJunos, "run commit confirmed 5"),
            Some("commit confirmed")
        );
        assert_eq!(rollback_safety(Vendor::JuniperJunos, "reload in 10"), None);
        assert_eq!(
            rollback_safety(Vendor::CiscoIos, "Before the change: `reload in 10`."),
            Some("reload in")
        );
        assert_eq!(
            rollback_safety(
                Vendor::CiscoIos,
                "configure replace flash:base.cfg list time 300"
            ),
            Some("configure replace … time")
        );
        assert_eq!(
            rollback_safety(
                Vendor::AristaEos,
                "configure session s1\ncommit timer 00:05:00"
            ),
            Some("configure session … commit timer")
        );
        assert_eq!(
            rollback_safety(Vendor::CiscoIos, "interface Gi0/1\n shutdown"),
            None
        );
        assert_eq!(
            rollback_safety(
                Vendor::CiscoIosXr,
                "configure\ninterface Gi0/0/0/1\n shutdown\ncommit confirmed 300\nend"
            ),
            Some("commit confirmed")
        );
        assert_eq!(
            rollback_safety(Vendor::CiscoIosXr, "configure\ncommit\nend"),
            None
        );
        assert_eq!(rollback_safety(Vendor::Frr, "reload in 10"), None);
    }
}
