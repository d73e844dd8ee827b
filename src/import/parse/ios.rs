//! Cisco IOS and IOS-XE.

use super::cisco_style::{self, Dialect};
use super::ConfigParser;
use crate::model::{DeviceConfig, Vendor};

/// Parser for Cisco IOS and IOS-XE running configurations.
pub struct IosParser;

impl ConfigParser for IosParser {
    fn vendor(&self) -> Vendor {
        Vendor::CiscoIos
    }

    fn markers(&self) -> &'static [(&'static str, u32)] {
        &[
            ("Building configuration", 5),
            ("Current configuration :", 5),
            ("boot-start-marker", 5),
            ("service timestamps", 3),
            ("version 1", 2),
            ("ip cef", 2),
            ("ip subnet-zero", 2),
            (" ip address ", 1),
            (" no ip address", 1),
            ("ip vrf ", 1),
            ("vrf definition ", 2),
        ]
    }

    fn rancid_types(&self) -> &'static [&'static str] {
        &["cisco", "ios", "cisco-ios", "ios-xe", "iosxe", "cisco-xe"]
    }

    fn parse(&self, text: &str) -> DeviceConfig {
        cisco_style::parse(text, Dialect::default())
    }
}
