//! The IP MTU an interface applies, as each vendor reads its `mtu`: the one rule the
//! pre-check's MTU comparison and the OSPF adjacency test share.

use super::{DeviceConfig, Interface, Vendor};

/// IP MTU when none is configured: 1500 on every vendor olav reads (a Junos Ethernet
/// port's default media MTU, 1514, less its 14-byte header).
const DEFAULT_MTU: u32 = 1500;

/// The Ethernet header a Junos media MTU includes: 14 bytes, 18 with a VLAN tag.
const JUNOS_L2_HEADER: u32 = 14;
const JUNOS_L2_HEADER_TAGGED: u32 = 18;

impl DeviceConfig {
    /// The IP MTU of a link end as the device applies it, and how it was derived when that
    /// is not the configured value as is.
    ///
    /// Cisco-style `mtu` (IOS, EOS, NX-OS) is the layer-3 MTU. On Junos the link's address
    /// sits on a unit (`xe-0/1/0.0`) and the port's `mtu` is the media MTU, which includes
    /// the Ethernet header: a unit's IP MTU is its `family inet mtu` when set, else its
    /// port's `mtu` less 14 bytes (18 on a VLAN-tagged unit), else 1500.
    pub fn ip_mtu(&self, vendor: Vendor, i: &Interface) -> (u32, Option<String>) {
        if vendor != Vendor::JuniperJunos {
            // IOS `ip mtu` sets the IP MTU below the interface's.
            return (i.ip_mtu.or(i.mtu).unwrap_or(DEFAULT_MTU), None);
        }
        let (port, header) = match i.name.split_once('.') {
            // A unit's `family inet mtu`: an IP MTU already.
            Some(_) if i.mtu.is_some() => return (i.mtu.unwrap_or(DEFAULT_MTU), None),
            Some((port, _)) => (
                self.interfaces
                    .iter()
                    .find(|p| crate::ifname::same(&p.name, port)),
                if i.encapsulation_vlan.is_some() {
                    JUNOS_L2_HEADER_TAGGED
                } else {
                    JUNOS_L2_HEADER
                },
            ),
            None => (Some(i), JUNOS_L2_HEADER),
        };
        match port.and_then(|p| p.mtu.map(|m| (p, m))) {
            Some((p, media)) => {
                let ip = media.saturating_sub(header);
                (
                    ip,
                    Some(format!(
                        "{} IP MTU {ip}: port {} mtu {media} less the {header}-byte Ethernet header",
                        i.name, p.name
                    )),
                )
            }
            None => (DEFAULT_MTU, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::import::parse::parser_for;
    use crate::model::Vendor;

    /// The IP MTU of `interface` in `text`, read by `vendor`'s parser.
    fn ip_mtu(vendor: Vendor, text: &str, interface: &str) -> (u32, Option<String>) {
        let config = parser_for(vendor).parse(text);
        let i = config
            .interfaces
            .iter()
            .find(|i| i.name == interface)
            .unwrap_or_else(|| panic!("{interface} not in {:?}", config.interfaces));
        config.ip_mtu(vendor, i)
    }

    #[test]
    fn ios_mtu_is_the_ip_mtu_unless_ip_mtu_lowers_it() {
        // IOS `mtu` is the layer-2 payload, the IP packet: no header to take off.
        let ios = "hostname r1\ninterface GigabitEthernet0/1\n mtu 9198\n ip address 10.0.0.0 255.255.255.254\n!\ninterface GigabitEthernet0/2\n mtu 9198\n ip mtu 9000\n!\ninterface GigabitEthernet0/3\n ip address 10.0.0.2 255.255.255.254\n";
        assert_eq!(
            ip_mtu(Vendor::CiscoIos, ios, "GigabitEthernet0/1"),
            (9198, None)
        );
        assert_eq!(
            ip_mtu(Vendor::CiscoIos, ios, "GigabitEthernet0/2"),
            (9000, None)
        );
        assert_eq!(
            ip_mtu(Vendor::CiscoIos, ios, "GigabitEthernet0/3"),
            (1500, None)
        );
    }

    #[test]
    fn eos_and_nxos_mtu_on_a_routed_port_is_the_ip_mtu() {
        let eos = "hostname e1\ninterface Ethernet1\n   mtu 9214\n   no switchport\n   ip address 10.0.0.1/31\n!\ninterface Ethernet2\n   no switchport\n   ip address 10.0.0.3/31\n";
        assert_eq!(ip_mtu(Vendor::AristaEos, eos, "Ethernet1"), (9214, None));
        assert_eq!(ip_mtu(Vendor::AristaEos, eos, "Ethernet2"), (1500, None));
        let nxos = "hostname n1\ninterface Ethernet1/1\n  no switchport\n  mtu 9216\n  ip address 10.0.0.1/31\n  no shutdown\n";
        assert_eq!(ip_mtu(Vendor::CiscoNxos, nxos, "Ethernet1/1"), (9216, None));
    }

    #[test]
    fn a_junos_unit_takes_its_ports_media_mtu_less_the_header_or_its_family_mtu() {
        let junos = "set system host-name j1\n\
            set interfaces xe-0/1/0 mtu 9228\n\
            set interfaces xe-0/1/0 unit 0 family inet address 10.0.3.0/31\n\
            set interfaces xe-0/1/1 mtu 9214\n\
            set interfaces xe-0/1/1 unit 0 family inet mtu 9000\n\
            set interfaces xe-0/1/1 unit 0 family inet address 10.0.3.2/31\n\
            set interfaces xe-0/1/2 vlan-tagging\n\
            set interfaces xe-0/1/2 mtu 1522\n\
            set interfaces xe-0/1/2 unit 100 vlan-id 100\n\
            set interfaces xe-0/1/2 unit 100 family inet address 10.0.3.4/31\n\
            set interfaces xe-0/1/3 unit 0 family inet address 10.0.3.6/31\n";
        let (mtu, how) = ip_mtu(Vendor::JuniperJunos, junos, "xe-0/1/0.0");
        assert_eq!(mtu, 9214);
        assert_eq!(
            how.as_deref(),
            Some("xe-0/1/0.0 IP MTU 9214: port xe-0/1/0 mtu 9228 less the 14-byte Ethernet header")
        );
        // `family inet mtu` is an IP MTU already, whatever the port's.
        assert_eq!(
            ip_mtu(Vendor::JuniperJunos, junos, "xe-0/1/1.0"),
            (9000, None)
        );
        // A VLAN-tagged unit loses the tag too.
        assert_eq!(ip_mtu(Vendor::JuniperJunos, junos, "xe-0/1/2.100").0, 1504);
        // No MTU anywhere: the default media MTU, 1514, less the header.
        assert_eq!(
            ip_mtu(Vendor::JuniperJunos, junos, "xe-0/1/3.0"),
            (1500, None)
        );
    }
}
