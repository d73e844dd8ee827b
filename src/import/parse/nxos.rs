//! Cisco NX-OS.

use super::cisco_style::{self, Dialect};
use super::ConfigParser;
use crate::model::{DeviceConfig, Vendor};

/// Parser for Cisco NX-OS running configurations.
pub struct NxosParser;

impl ConfigParser for NxosParser {
    fn vendor(&self) -> Vendor {
        Vendor::CiscoNxos
    }

    fn markers(&self) -> &'static [(&'static str, u32)] {
        &[
            ("!Command: show running-config", 5),
            ("!Time:", 2),
            ("feature ", 3),
            ("vdc ", 5),
            ("vrf context ", 3),
            ("copp profile", 5),
            ("  vrf member ", 2),
        ]
    }

    fn rancid_types(&self) -> &'static [&'static str] {
        &["cisco-nx", "nxos", "cisco-nxos"]
    }

    fn parse(&self, text: &str) -> DeviceConfig {
        cisco_style::parse(
            text,
            Dialect {
                svi_shut_by_default: true,
                ..Dialect::default()
            },
        )
    }
}
