//! Config parsers: one module per vendor, each turning a configuration's text into the
//! vendor-neutral [`DeviceConfig`], plus the content-based vendor detection that picks
//! the module.
//!
//! Adding a vendor is one more module implementing [`ConfigParser`] and one more entry
//! in [`PARSERS`]; Junos (`junos`) is the one that does not share the Cisco-style walk.

mod cisco_style;
mod common;
pub mod eos;
pub mod frr;
pub mod ios;
pub mod iosxr;
pub mod junos;
pub mod lines;
pub mod nxos;
pub mod other;
pub mod panos;
pub mod sros;

use crate::model::{DeviceConfig, Vendor};

/// A vendor's configuration parser.
pub trait ConfigParser: Sync {
    /// The vendor this parser reads.
    fn vendor(&self) -> Vendor;
    /// Line prefixes that point to this vendor, with their weight.
    fn markers(&self) -> &'static [(&'static str, u32)];
    /// Names accepted in a `!RANCID-CONTENT-TYPE:` first line.
    fn rancid_types(&self) -> &'static [&'static str];
    /// Parses a whole configuration. Never fails: what it cannot read becomes warnings.
    fn parse(&self, text: &str) -> DeviceConfig;
}

/// Every parser olav has, in detection-tie order.
pub static PARSERS: &[&dyn ConfigParser] = &[
    &ios::IosParser,
    &eos::EosParser,
    &nxos::NxosParser,
    &iosxr::IosXrParser,
    &junos::JunosParser,
    &sros::SrosParser,
    &panos::PanosParser,
    &frr::FrrParser,
];

/// The parser for a vendor.
pub fn parser_for(vendor: Vendor) -> &'static dyn ConfigParser {
    match vendor {
        Vendor::CiscoIos => &ios::IosParser,
        Vendor::AristaEos => &eos::EosParser,
        Vendor::CiscoNxos => &nxos::NxosParser,
        Vendor::CiscoIosXr => &iosxr::IosXrParser,
        Vendor::JuniperJunos => &junos::JunosParser,
        Vendor::NokiaSros => &sros::SrosParser,
        Vendor::PaloAltoPanos => &panos::PanosParser,
        Vendor::Frr => &frr::FrrParser,
    }
}

/// Why a file is not read as a configuration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAConfig {
    /// The file is empty or only white space.
    #[error("empty file")]
    Empty,
    /// The file holds binary data.
    #[error("binary file (NUL bytes or not text)")]
    Binary,
    /// A RANCID content type olav has no parser for.
    #[error(
        "RANCID content type '{0}' is not supported (supported: ios, eos, nxos, iosxr, junos, paloalto, frr)"
    )]
    UnsupportedRancidType(String),
    /// Nothing in the text looks like device configuration.
    #[error("no device configuration found (no hostname, interface or router lines)")]
    NoConfigLines,
    /// The configuration of a vendor olav recognises but does not read yet.
    #[error("{0}: not read yet")]
    OtherVendor(other::OtherOs),
}

/// How many lines detection looks at; markers sit near the top of a config.
const DETECT_LINES: usize = 3000;

/// Decides whether `text` is a configuration and which vendor wrote it.
pub fn detect(text: &str) -> Result<Vendor, NotAConfig> {
    if text.trim().is_empty() {
        return Err(NotAConfig::Empty);
    }
    let first = text.lines().next().unwrap_or("");
    if let Some(kind) = first.trim().strip_prefix("!RANCID-CONTENT-TYPE:") {
        let kind = kind.trim().to_ascii_lowercase();
        if let Some(os) = other::OtherOs::from_rancid(&kind) {
            return Err(NotAConfig::OtherVendor(os));
        }
        return PARSERS
            .iter()
            .find(|p| p.rancid_types().contains(&kind.as_str()))
            .map(|p| p.vendor())
            .ok_or(NotAConfig::UnsupportedRancidType(kind));
    }
    // One walk over the lines gathers every tell (it was five walks, half of reading a
    // config). They weigh in this order: SR OS's model-driven form (read; its classic
    // CLI is named below); IOS-XR's own syntax, never in IOS, NX-OS or EOS
    // configurations; FRR (plain, Cumulus concatenated, SONiC: `frr version`, `frr
    // defaults`, the interfaces file's header, `# ports.conf --`); another vendor's
    // configuration, named, never read as one olav reads; then the markers' scores.
    let mut xr_tells = iosxr::Tells::default();
    let mut other_tells = other::Tells::default();
    let (mut xr, mut frr, mut other) =
        (false, text.starts_with(frr::sonic::CONFIG_DB_MARKER), None);
    let mut scores = [0u32; PARSERS.len()];
    let mut generic = 0u32;
    let mut indent_votes = [0u32; 3];
    let mut in_interface = false;
    for line in text.lines().take(DETECT_LINES) {
        if sros::tells(line) {
            return Ok(Vendor::NokiaSros);
        }
        let t = line.trim();
        xr = xr || xr_tells.line(line, t);
        frr = frr || frr::tells(line);
        if other.is_none() {
            other = other_tells.line(t);
        }
        for (score, parser) in scores.iter_mut().zip(PARSERS) {
            for (prefix, weight) in parser.markers() {
                if line.starts_with(prefix) {
                    *score += weight;
                }
            }
        }
        if line.starts_with("hostname ")
            || line.starts_with("interface ")
            || line.starts_with("set interfaces ")
            || line.starts_with("interfaces {")
            || line.starts_with("router ")
            || line.starts_with("ip route ")
        {
            generic += 1;
        }
        // Sub-command indentation: IOS 1 space, NX-OS 2, EOS 3.
        if in_interface && line.starts_with(' ') {
            let n = line.len() - line.trim_start_matches(' ').len();
            if (1..=3).contains(&n) {
                indent_votes[n - 1] += 1;
            }
        }
        in_interface = line.starts_with("interface ") || (in_interface && line.starts_with(' '));
    }
    if xr {
        return Ok(Vendor::CiscoIosXr);
    }
    if frr {
        return Ok(Vendor::Frr);
    }
    if let Some(os) = other::json_tell(text)
        .or(other)
        .or_else(|| other_tells.finish())
    {
        return Err(NotAConfig::OtherVendor(os));
    }
    let best = scores
        .iter()
        .enumerate()
        .max_by_key(|(i, s)| (**s, std::cmp::Reverse(*i)))
        .map(|(i, s)| (i, *s));
    match best {
        Some((i, s)) if s >= 3 => Ok(PARSERS[i].vendor()),
        _ if generic == 0 => Err(NotAConfig::NoConfigLines),
        _ => {
            let by_indent = [Vendor::CiscoIos, Vendor::CiscoNxos, Vendor::AristaEos];
            let i = indent_votes
                .iter()
                .enumerate()
                .max_by_key(|(i, v)| (**v, std::cmp::Reverse(*i)))
                .map_or(0, |(i, _)| i);
            Ok(by_indent[i])
        }
    }
}

/// Reads bytes as configuration text: refuses binary data, tolerates stray non-UTF-8
/// bytes in descriptions and banners.
pub fn decode(bytes: &[u8]) -> Result<std::borrow::Cow<'_, str>, NotAConfig> {
    if bytes.contains(&0) {
        return Err(NotAConfig::Binary);
    }
    // Valid text is checked by the standard library's word-at-a-time validation (the
    // lossy decoder walks it byte by byte), and borrowed as the lossy one would.
    let text = match std::str::from_utf8(bytes) {
        Ok(valid) => std::borrow::Cow::Borrowed(valid),
        Err(_) => String::from_utf8_lossy(bytes),
    };
    // Nearly every config holds no replacement character: one search says so, and only
    // a text with some is walked char by char to count them.
    if !text.contains(char::REPLACEMENT_CHARACTER) {
        return Ok(text);
    }
    let replaced = text
        .chars()
        .filter(|c| *c == char::REPLACEMENT_CHARACTER)
        .count();
    if replaced * 20 > text.len().max(1) {
        return Err(NotAConfig::Binary);
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::{Just, Strategy};

    #[test]
    fn rancid_header_forces_vendor() {
        assert_eq!(
            detect("!RANCID-CONTENT-TYPE: arista\nhostname x\n"),
            Ok(Vendor::AristaEos)
        );
        assert_eq!(
            detect("!RANCID-CONTENT-TYPE: juniper\nhostname x\n"),
            Ok(Vendor::JuniperJunos)
        );
        assert_eq!(
            detect("!RANCID-CONTENT-TYPE: junos\n"),
            Ok(Vendor::JuniperJunos)
        );
        assert_eq!(
            detect("!RANCID-CONTENT-TYPE: fortigate\nhostname x\n"),
            Err(NotAConfig::OtherVendor(other::OtherOs::FortiOs))
        );
        assert_eq!(
            detect("!RANCID-CONTENT-TYPE: foundry\nhostname x\n"),
            Err(NotAConfig::UnsupportedRancidType("foundry".into()))
        );
    }

    #[test]
    fn detects_by_markers_and_indent() {
        assert_eq!(
            detect("Building configuration...\nversion 15.7\nhostname a\n"),
            Ok(Vendor::CiscoIos)
        );
        assert_eq!(
            detect("! device: r1 (vEOS, EOS-4.23)\nhostname r1\n"),
            Ok(Vendor::AristaEos)
        );
        assert_eq!(
            detect("hostname x\ninterface Ethernet1\n   no switchport\n"),
            Ok(Vendor::AristaEos)
        );
        assert_eq!(
            detect("hostname x\ninterface Gi1\n shutdown\n"),
            Ok(Vendor::CiscoIos)
        );
        assert_eq!(
            detect("lorem ipsum\ndolor\n"),
            Err(NotAConfig::NoConfigLines)
        );
        assert_eq!(detect("  \n\n"), Err(NotAConfig::Empty));
        for junos in [
            "set version 25.4R1.12\nset system host-name pe1\n",
            "set interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/31\n",
            "## Last commit\nversion 12.1;\nsystem {\n    host-name r1;\n}\n",
            "version 12.1;\ninterfaces {\n    lo0 {\n        unit 0;\n    }\n}\n",
        ] {
            assert_eq!(detect(junos), Ok(Vendor::JuniperJunos), "{junos}");
        }
        assert_eq!(
            detect("# TiMOS-B-26.3.R1 both/x86_64\nconfigure {\n    system {\n        name \"r1\"\n    }\n}\n"),
            Ok(Vendor::NokiaSros)
        );
        assert_eq!(
            detect("# TiMOS-B-20.10.R1\n/configure system name \"r1\"\n"),
            Err(NotAConfig::OtherVendor(other::OtherOs::SrOs))
        );
    }

    #[test]
    fn binary_is_refused() {
        assert_eq!(decode(b"abc\0def").err(), Some(NotAConfig::Binary));
        assert!(decode("hostname caf\u{e9}".as_bytes()).is_ok());
    }

    /// The decoding as it was written first: every text decoded lossily, every char
    /// walked.
    fn decoded_plainly(bytes: &[u8]) -> Result<String, NotAConfig> {
        if bytes.contains(&0) {
            return Err(NotAConfig::Binary);
        }
        let text = String::from_utf8_lossy(bytes);
        let replaced = text
            .chars()
            .filter(|c| *c == char::REPLACEMENT_CHARACTER)
            .count();
        if replaced * 20 > text.len().max(1) {
            return Err(NotAConfig::Binary);
        }
        Ok(text.into_owned())
    }

    proptest::proptest! {
        #[test]
        fn decoding_takes_the_shortcuts_without_changing_an_answer(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    "[ -~\n]{0,40}".prop_map(String::into_bytes),
                    Just("\u{FFFD}".as_bytes().to_vec()),
                    Just("caf\u{e9} \u{2014}".as_bytes().to_vec()),
                    proptest::collection::vec(0x80u8..=0xff, 1..3),
                    Just(vec![0u8]),
                ],
                0..12,
            )
        ) {
            let bytes = parts.concat();
            let got = decode(&bytes).map(std::borrow::Cow::into_owned);
            proptest::prop_assert_eq!(got, decoded_plainly(&bytes));
        }
    }
}
