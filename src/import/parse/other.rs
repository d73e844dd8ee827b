//! Configurations of vendors olav does not read, recognised by content so that they are
//! named and skipped — never parsed as IOS, NX-OS, EOS, Junos or PAN-OS. The tells follow
//! Batfish's own format detection (`VendorConfigurationFormatDetector.java`), tightened
//! where a tell could sit in a description of a device olav does read.

use std::fmt;

/// A vendor or OS whose configurations olav recognises but does not read yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OtherOs {
    /// Cisco ASA.
    Asa,
    /// Cumulus Linux NCLU command files (`net add …`): the commands, not the files they
    /// write (concatenated interface + FRR files are read: [`super::frr`]).
    Cumulus,
    /// A10 ACOS.
    A10,
    /// Nokia SR OS in the classic CLI (the model-driven form, `configure {`, is read:
    /// [`super::sros`]).
    SrOs,
    /// Palo Alto PAN-OS.
    PanOs,
    /// Fortinet FortiOS.
    FortiOs,
    /// Check Point Gaia.
    CheckPoint,
    /// Check Point management API data (`show-hosts.json`, `show-access-rulebase.json`: the
    /// objects and rules a management server pushes to its gateways).
    CheckPointManagement,
    /// F5 BIG-IP.
    F5,
    /// VyOS.
    Vyos,
}

impl OtherOs {
    /// The name people know it by.
    pub fn name(self) -> &'static str {
        match self {
            OtherOs::Asa => "Cisco ASA",
            OtherOs::Cumulus => "Cumulus Linux",
            OtherOs::A10 => "A10 ACOS",
            OtherOs::SrOs => "Nokia SR OS (classic CLI)",
            OtherOs::PanOs => "Palo Alto PAN-OS",
            OtherOs::FortiOs => "Fortinet FortiOS",
            OtherOs::CheckPoint => "Check Point Gaia",
            OtherOs::CheckPointManagement => "Check Point management data",
            OtherOs::F5 => "F5 BIG-IP",
            OtherOs::Vyos => "VyOS",
        }
    }

    /// The OS a RANCID content type names, when it is one of these.
    pub fn from_rancid(kind: &str) -> Option<OtherOs> {
        Some(match kind {
            "cisco-asa" | "asa" => OtherOs::Asa,
            "a10" => OtherOs::A10,
            "sros" | "nokia" | "alcatel-lucent" | "timos" => OtherOs::SrOs,
            "paloalto" | "palo-alto" => OtherOs::PanOs,
            "fortigate" | "fortigate-full" | "fortios" => OtherOs::FortiOs,
            "checkpoint" | "check-point" => OtherOs::CheckPoint,
            "bigip" | "f5" => OtherOs::F5,
            "vyos" => OtherOs::Vyos,
            _ => return None,
        })
    }
}

impl fmt::Display for OtherOs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An A10 version line: `version 4.1.4-GR1-P5, build 81 (Oct-01-2020,12:12)`.
fn a10_version(line: &str) -> bool {
    let Some(i) = line.find("version ") else {
        return false;
    };
    let rest = &line[i + "version ".len()..];
    rest.starts_with(|c: char| c.is_ascii_digit())
        && rest.contains(", build ")
        && rest.contains('(')
        && rest.trim_end().ends_with(')')
}

/// The vendor `text` was written by, when it is one olav recognises but does not read.
pub fn identify(text: &str) -> Option<OtherOs> {
    if let Some(os) = json_tell(text) {
        return Some(os);
    }
    let mut tells = Tells::default();
    for line in text.lines().take(super::DETECT_LINES) {
        if let Some(os) = tells.line(line.trim()) {
            return Some(os);
        }
    }
    tells.finish()
}

/// A JSON document whose objects name their Check Point domain type (`"domain-type":
/// "domain"`): what the management API answers (`checkpoint_basic_fw_policy`'s
/// `cp-mgmt/`). Its empty answers and errors hold no tell and stay "no configuration".
pub(super) fn json_tell(text: &str) -> Option<OtherOs> {
    (text.trim_start().starts_with('{') && text.contains("\"domain-type\""))
        .then_some(OtherOs::CheckPointManagement)
}

/// What the lines read so far tell of another vendor ([`identify`], a line at a time).
#[derive(Default)]
pub(super) struct Tells {
    saw_config_of: bool,
    pan_tells: u32,
    braces: bool,
    xml: bool,
}

impl Tells {
    /// The vendor trimmed line `t` names, if it names one.
    pub(super) fn line(&mut self, t: &str) -> Option<OtherOs> {
        if t.starts_with("# TiMOS-")
            || t.starts_with("#TiMOS-")
            || t.starts_with("# Configuration format version")
            || t.starts_with("/configure ")
        {
            return Some(OtherOs::SrOs);
        }
        if t.starts_with("# Configuration of ") {
            self.saw_config_of = true;
        }
        if self.saw_config_of && t.starts_with("# Language version:") {
            return Some(OtherOs::CheckPoint);
        }
        if t == "config system global" {
            return Some(OtherOs::FortiOs);
        }
        if t == "net del all" || t.starts_with("net add ") {
            return Some(OtherOs::Cumulus);
        }
        if t.starts_with("#TMSH-VERSION:") || t.starts_with("sys global-settings {") {
            return Some(OtherOs::F5);
        }
        if t.starts_with("ASA Version") {
            return Some(OtherOs::Asa);
        }
        // The cheap test first: a search of every line for "version " was a tenth of
        // reading a config.
        if (t.starts_with('!') || t.starts_with("version")) && a10_version(t) {
            return Some(OtherOs::A10);
        }
        if t.starts_with("set system config-management commit-revisions") {
            return Some(OtherOs::Vyos);
        }
        if t.starts_with("deviceconfig")
            || t.starts_with("<deviceconfig>")
            || (t.contains("panorama")
                && (t.contains("send-to-panorama") || t.contains("panorama-server")))
        {
            self.pan_tells += 1;
        }
        self.braces |= t.ends_with('{');
        self.xml |= t.starts_with('<');
        None
    }

    /// What every line read tells together.
    pub(super) fn finish(&self) -> Option<OtherOs> {
        // The `set` form is read (`super::panos`); the brace and XML forms are not yet.
        (self.pan_tells > 0 && (self.braces || self.xml)).then_some(OtherOs::PanOs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tell_names_its_vendor() {
        let cases = [
            ("net del all\nnet add hostname leaf1\n", OtherOs::Cumulus),
            ("!Current configuration: 1 bytes\n!version 4.1.4-GR1-P5, build 81 (Oct-01-2020,12:12)\nhostname lb\n", OtherOs::A10),
            ("# TiMOS-B-20.10.R1\n/configure router interface \"a\"\n", OtherOs::SrOs),
            ("config system global\n    set hostname fw\nend\n", OtherOs::FortiOs),
            ("# Configuration of fw1\n# Language version: 13.4v1\nset hostname fw1\n", OtherOs::CheckPoint),
            ("{\n    \"objects\": [\n        {\n            \"uid\": \"c00f7ca4-4cdc-044e-b96b-49d980858c35\",\n            \"name\": \"AD_Dcerpc_services\",\n            \"type\": \"service-group\",\n            \"domain\": {\n                \"uid\": \"a0bbbc99-adef-4ef8-bb6d-cebcebcebceb\",\n                \"name\": \"IPS Data\",\n                \"domain-type\": \"data domain\"\n", OtherOs::CheckPointManagement),
            ("#TMSH-VERSION: 13.1.1\nsys global-settings {\n}\n", OtherOs::F5),
            ("ASA Version 9.8(2)\nhostname asa\n", OtherOs::Asa),
            ("config {\n  devices {\n    deviceconfig {\n      system {\n", OtherOs::PanOs),
            ("<config version=\"10.1.0\">\n  <devices>\n    <entry>\n      <deviceconfig>\n        <system>\n          <panorama-server>10.0.0.1</panorama-server>\n", OtherOs::PanOs),
        ];
        for (text, os) in cases {
            assert_eq!(identify(text), Some(os), "{text}");
        }
    }

    #[test]
    fn configs_olav_reads_are_not_claimed() {
        for text in [
            "hostname r1\ninterface GigabitEthernet0/1\n description to the IOS XR box (end-policy)\n ip address 10.0.0.1 255.255.255.0\n",
            "hostname leaf\ninterface Ethernet1\n   ip address 10.0.0.1/31\n",
            "set system host-name r1\nset interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/31\n",
            "system {\n    host-name r1;\n}\n",
            "set deviceconfig system hostname fw1\nset network interface ethernet ethernet1/1 layer3 ip 10.0.0.1/31\n",
        ] {
            assert_eq!(identify(text), None, "{text}");
        }
    }
}
