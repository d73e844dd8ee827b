//! Arista EOS.

use super::cisco_style::{self, Dialect};
use super::ConfigParser;
use crate::model::{DeviceConfig, Vendor};

/// Parser for Arista EOS running configurations.
pub struct EosParser;

impl ConfigParser for EosParser {
    fn vendor(&self) -> Vendor {
        Vendor::AristaEos
    }

    fn markers(&self) -> &'static [(&'static str, u32)] {
        &[
            ("! device: ", 5),
            ("! Command: show running-config", 3),
            ("transceiver qsfp", 3),
            ("management api http-commands", 5),
            ("daemon TerminAttr", 5),
            ("service routing protocols model", 5),
            ("vrf instance ", 3),
            ("   ip address ", 2),
            ("   no switchport", 1),
            ("ip virtual-router mac-address", 3),
        ]
    }

    fn rancid_types(&self) -> &'static [&'static str] {
        &["arista", "eos", "arista-eos"]
    }

    fn parse(&self, text: &str) -> DeviceConfig {
        let mut dev = cisco_style::parse(text, Dialect::default());
        // `! device: r1 (vEOS, EOS-4.23.0.1F)` names the model and the version.
        if let Some(banner) = text
            .lines()
            .take(5)
            .find_map(|l| l.strip_prefix("! device: "))
        {
            if let Some((_, inside)) = banner.split_once('(') {
                let inside = inside.trim_end_matches(')');
                let mut parts = inside.split(", ");
                dev.model = parts.next().map(str::to_owned);
                dev.os_version = parts.next().map(|v| {
                    v.trim_start_matches("EOS-")
                        .split_whitespace()
                        .next()
                        .unwrap_or(v)
                        .to_owned()
                });
            }
        }
        dev
    }
}
