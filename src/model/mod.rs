//! The vendor-neutral device model that every config parser produces.
//!
//! Parsers (one module per vendor under `import::parse`) fill a [`DeviceConfig`];
//! the state store persists it. Nothing here knows about a vendor's syntax.
//!
//! Stored models are encoded with postcard, which is not self-describing: a new field
//! takes `#[serde(default)]` only, never `skip_serializing_if` (decoding would misalign).

mod bgp;
mod eigrp;
mod filter;
mod isis;
pub mod management;
mod mtu;
mod ospf;
mod per_interface;

pub use eigrp::{
    DistributeList, EigrpConfig, EigrpDistribute, EigrpInterface, EigrpProcess, EigrpRedistribute,
    EigrpStub,
};
pub use filter::{
    port_number, protocol_number, Direction, FilterBinding, FilterLine, PacketFilter, PortRange,
    Wildcard,
};
pub use isis::{IsisConfig, IsisInterface, IsisLevels, IsisProcess, IsisRedistribute};

pub use bgp::{AccessListEntry, AsRange, CommunityListEntry};
pub use bgp::{
    BgpAggregate, BgpNeighborRouting, BgpRouting, PolicyAction, PolicyMatch, PolicyOptions,
    PolicyStatement, PolicyTerm, RouteLists, RouteMapMatch, RouteMapSet, RouteTarget, RtFamily,
    VrfVpn,
};

pub use ospf::{
    OspfAreaRange, OspfAuth, OspfConfig, OspfDefaultOriginate, OspfInterfaceSettings,
    OspfNetworkType, OspfNssa, OspfProcess, OspfRedistribute,
};

use ipnet::IpNet;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::net::IpAddr;

/// The network operating systems olav can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vendor {
    /// Cisco IOS and IOS-XE.
    CiscoIos,
    /// Arista EOS.
    AristaEos,
    /// Cisco NX-OS.
    CiscoNxos,
    /// Cisco IOS-XR.
    CiscoIosXr,
    /// Juniper Junos (`display set` form and the hierarchical brace form).
    JuniperJunos,
    /// Nokia SR OS in its model-driven form (MD-CLI `configure { … }`).
    NokiaSros,
    /// Palo Alto PAN-OS (the `set` form).
    PaloAltoPanos,
    /// FRRouting: a plain `frr.conf`, Cumulus Linux (interfaces + `frr.conf`) and SONiC
    /// (`config_db.json` + `frr.conf`); which one the device is sits in `model`.
    Frr,
}

impl Vendor {
    /// The `vendor` column value.
    pub fn vendor_name(self) -> &'static str {
        match self {
            Vendor::CiscoIos | Vendor::CiscoNxos | Vendor::CiscoIosXr => "cisco",
            Vendor::AristaEos => "arista",
            Vendor::JuniperJunos => "juniper",
            Vendor::NokiaSros => "nokia",
            Vendor::PaloAltoPanos => "paloalto",
            Vendor::Frr => "frr",
        }
    }

    /// The vendor whose `os` column value is `os` (IOS for anything unknown).
    pub fn from_os(os: &str) -> Vendor {
        match os {
            "eos" => Vendor::AristaEos,
            "nxos" => Vendor::CiscoNxos,
            "iosxr" => Vendor::CiscoIosXr,
            "junos" => Vendor::JuniperJunos,
            "sros" => Vendor::NokiaSros,
            "panos" => Vendor::PaloAltoPanos,
            "frr" => Vendor::Frr,
            _ => Vendor::CiscoIos,
        }
    }

    /// The `os` column value.
    pub fn os_name(self) -> &'static str {
        match self {
            Vendor::CiscoIos => "ios",
            Vendor::AristaEos => "eos",
            Vendor::CiscoNxos => "nxos",
            Vendor::CiscoIosXr => "iosxr",
            Vendor::JuniperJunos => "junos",
            Vendor::NokiaSros => "sros",
            Vendor::PaloAltoPanos => "panos",
            Vendor::Frr => "frr",
        }
    }

    /// Whether BGP routes pass chains of policy-statements that see the whole routing
    /// table (Junos, SR OS), rather than a neighbor's route-map and prefix-list.
    pub fn policy_chains(self) -> bool {
        matches!(self, Vendor::JuniperJunos | Vendor::NokiaSros)
    }
}

impl fmt::Display for Vendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.os_name())
    }
}

/// A link by its two ends: ((device, interface), (device, interface)).
pub type LinkEnds = ((String, String), (String, String));

/// Everything one configuration file says about one device.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct DeviceConfig {
    /// Hostname from the config's own `hostname` line, if any.
    pub hostname: Option<String>,
    /// Software version the config declares (`version 15.7`, EOS device banner).
    pub os_version: Option<String>,
    /// Hardware model when the config names it.
    pub model: Option<String>,
    /// Interfaces in file order.
    pub interfaces: Vec<Interface>,
    /// The BGP process, if configured.
    pub bgp: Option<BgpProcess>,
    /// Static routes.
    pub static_routes: Vec<StaticRoute>,
    /// OSPF `network` statements and interface-level OSPF enablement.
    pub ospf_networks: Vec<OspfNetwork>,
    /// OSPF processes and per-interface OSPF settings.
    #[serde(default)]
    pub ospf: OspfConfig,
    /// EIGRP processes and per-interface EIGRP settings.
    #[serde(default)]
    pub eigrp: EigrpConfig,
    /// IS-IS processes and interfaces.
    #[serde(default)]
    pub isis: IsisConfig,
    /// Named structures defined (route-maps, prefix-lists, ACLs, community-lists, peer-groups).
    pub structures: Vec<StructureDef>,
    /// Every place a named structure is referenced.
    pub references: Vec<StructureRef>,
    /// IP prefix-list entries, in file order.
    pub prefix_lists: Vec<PrefixListEntry>,
    /// Route-map clauses, in file order.
    pub route_map_clauses: Vec<RouteMapClause>,
    /// Junos policy-statements and communities, as the routing model evaluates them.
    #[serde(default)]
    pub policy_options: PolicyOptions,
    /// Access lists and community lists as route-maps match against them.
    #[serde(default)]
    pub route_lists: RouteLists,
    /// IPv4 packet filters (ACLs, Junos firewall filters), in definition order.
    #[serde(default)]
    pub filters: Vec<PacketFilter>,
    /// Which filter is applied on which interface, in which direction.
    #[serde(default)]
    pub filter_bindings: Vec<FilterBinding>,
    /// Recognised lines that could not be understood.
    pub warnings: Vec<LineWarning>,
    /// Lines read.
    pub lines_total: u32,
    /// Lines no handler recognised (ignored and counted, never fatal).
    pub lines_unrecognised: u32,
    /// Whether the file ends with the `end` line a complete IOS/EOS running config has
    /// (NX-OS and Junos configs have none).
    pub saw_end: bool,
}

impl DeviceConfig {
    /// Records a warning about a recognised but malformed line.
    pub fn warn(&mut self, line: u32, message: impl Into<String>) {
        self.warnings.push(LineWarning {
            line,
            message: message.into(),
        });
    }
}

/// A warning tied to a line of the source file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineWarning {
    /// 1-based line number.
    pub line: u32,
    /// What was wrong.
    pub message: String,
}

/// How an address sits on an interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AddressKind {
    /// The interface's primary address.
    Primary,
    /// A secondary address.
    Secondary,
    /// A first-hop-redundancy virtual address (VRRP, HSRP, VARP).
    Virtual,
}

impl AddressKind {
    /// The `kind` column value.
    pub fn as_str(self) -> &'static str {
        match self {
            AddressKind::Primary => "primary",
            AddressKind::Secondary => "secondary",
            AddressKind::Virtual => "virtual",
        }
    }
}

/// An IP address configured on an interface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterfaceAddress {
    /// Address with prefix length (host bits kept).
    pub address: IpNet,
    /// Primary, secondary or virtual.
    pub kind: AddressKind,
    /// Source line.
    pub line: u32,
}

/// Layer-2 mode of a switchport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchportMode {
    /// Access port.
    Access,
    /// 802.1Q trunk.
    Trunk,
}

/// One interface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interface {
    /// Canonical name as the config spells it (`GigabitEthernet0/1`, `Ethernet1`; Junos
    /// physical `ge-0/0/0` and unit `ge-0/0/0.0`).
    pub name: String,
    /// `description` text.
    pub description: Option<String>,
    /// False when `shutdown` is configured.
    pub admin_up: bool,
    /// Configured MTU.
    pub mtu: Option<u32>,
    /// Its address comes from DHCP (IOS `ip address dhcp`, PAN-OS `dhcp-client`): not
    /// known from the configuration.
    #[serde(default)]
    pub dhcp: bool,
    /// IOS `ip mtu N`: the IP MTU where it differs from the interface's.
    #[serde(default)]
    pub ip_mtu: Option<u32>,
    /// Configured speed in Mbit/s (None for auto).
    pub speed_mbps: Option<u32>,
    /// VRF the interface is in (None for the default VRF).
    pub vrf: Option<String>,
    /// Switchport mode when the port is layer 2.
    pub switchport_mode: Option<SwitchportMode>,
    /// Access VLAN (Junos: also a routed unit's `vlan-id`, the tag it carries).
    pub access_vlan: Option<u32>,
    /// Trunk allowed VLANs as configured (`10,20,30-40`).
    pub trunk_vlans: Option<String>,
    /// Port-channel this member belongs to (`Port-channel1`; Junos: `ae0`).
    pub channel_group: Option<String>,
    /// The 802.1Q tag a routed subinterface or unit carries (`encapsulation dot1q N`,
    /// Junos `vlan-id N`), as Batfish's `encapsulationVlan`.
    pub encapsulation_vlan: Option<u32>,
    /// The (device, interface) at the far end of this interface's only link, from the
    /// snapshot's links (layer-1 cables, LLDP, declared): what pairs BGP unnumbered peers.
    /// Configs do not say it: parsers leave it empty, the checks' model fills it. Boxed:
    /// most interfaces have none, and the checks hold a million of them at 50k devices.
    pub linked_to: Option<Box<(String, String)>>,
    /// Addresses in file order.
    pub addresses: Vec<InterfaceAddress>,
    /// The interface whose address this one borrows (IOS and NX-OS `ip unnumbered
    /// Loopback0`, EOS `ip address unnumbered Loopback0`): the loopback's address, as a
    /// /32, with no subnet of its own, so its links come from the cabling only.
    pub unnumbered: Option<String>,
    /// The port a layer-3 interface rides on when its name does not say it (SR OS
    /// `interface "to-r2" { port 1/1/c1/1 }`; a Junos unit's is in its name, `ge-0/0/0.0`):
    /// what the cabling of that port reaches.
    #[serde(default)]
    pub port: Option<String>,
    /// Line of the `interface` stanza.
    pub line: u32,
}

impl Interface {
    /// A new interface with the defaults a running config implies (admin up).
    pub fn new(name: String, line: u32) -> Self {
        Interface {
            name,
            description: None,
            admin_up: true,
            mtu: None,
            dhcp: false,
            ip_mtu: None,
            speed_mbps: None,
            vrf: None,
            switchport_mode: None,
            access_vlan: None,
            trunk_vlans: None,
            channel_group: None,
            encapsulation_vlan: None,
            linked_to: None,
            addresses: Vec::new(),
            unnumbered: None,
            port: None,
            line,
        }
    }

    /// The VLAN of a switched virtual interface (`Vlan10`, `vlan10`): the bridge domain it
    /// routes for. None for every other interface.
    pub fn svi_vlan(&self) -> Option<u32> {
        let n = &self.name;
        let digits = n
            .get(..4)
            .filter(|p| p.eq_ignore_ascii_case("vlan"))
            .map(|_| &n[4..])?;
        digits.parse().ok()
    }
}

/// The BGP process of a device.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgpProcess {
    /// Local AS from `router bgp <asn>`.
    pub local_as: Option<u32>,
    /// Router ID, if configured.
    pub router_id: Option<IpAddr>,
    /// Neighbors and listen ranges, with peer-group settings already inherited.
    pub neighbors: Vec<BgpNeighbor>,
    /// Prefixes announced with `network` statements.
    pub networks: Vec<BgpNetwork>,
    /// `redistribute <protocol> [route-map M]` in the default VRF: (protocol, route-map).
    pub redistribute: Vec<(String, Option<String>)>,
    /// `aggregate-address` prefixes in the default VRF.
    pub aggregates: Vec<IpNet>,
    /// `bgp confederation identifier`: the AS peers outside the confederation see.
    pub confederation_id: Option<u32>,
    /// `bgp confederation peers`: the other member ASes of the confederation.
    pub confederation_peers: Vec<u32>,
    /// Line of `router bgp`.
    pub line: u32,
    /// What the routing model needs beyond the checks' view (`model::bgp`).
    #[serde(default)]
    pub routing: BgpRouting,
}

/// Who a BGP neighbor statement addresses.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BgpPeer {
    /// One peer address.
    Address(IpAddr),
    /// A dynamic listen range.
    ListenRange(IpNet),
    /// BGP unnumbered: the peer on the far end of this interface, reached by IPv6
    /// link-local addresses (EOS `neighbor interface Ethernet1 peer-group G`).
    Interface(String),
}

impl fmt::Display for BgpPeer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BgpPeer::Address(a) => write!(f, "{a}"),
            BgpPeer::ListenRange(n) => write!(f, "{n}"),
            BgpPeer::Interface(i) => write!(f, "{i}"),
        }
    }
}

/// One configured BGP neighbor (or listen range).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgpNeighbor {
    /// VRF (None for the default VRF).
    pub vrf: Option<String>,
    /// Peer address or listen range.
    pub peer: BgpPeer,
    /// Remote AS (inherited from the peer-group when not set directly).
    pub peer_asn: Option<u32>,
    /// Peer-group (EOS: peer group; NX-OS: template) the neighbor belongs to.
    pub peer_group: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Update-source interface (Junos: the interface owning `local-address`).
    pub update_source: Option<String>,
    /// Local address configured as such (Junos `local-address`); the session's source
    /// even when no interface owns it.
    pub local_address: Option<IpAddr>,
    /// Inbound route-map (Junos: the first policy of the import chain in force).
    pub route_map_in: Option<String>,
    /// Outbound route-map (Junos: the first policy of the export chain in force).
    pub route_map_out: Option<String>,
    /// eBGP multihop TTL when configured (without a value: 255 on Cisco and Arista, 64 on Junos).
    pub ebgp_multihop: Option<u32>,
    /// Inbound prefix-list (`neighbor X prefix-list P in`).
    pub prefix_list_in: Option<String>,
    /// Outbound prefix-list.
    pub prefix_list_out: Option<String>,
    /// Per-neighbor `local-as`: the AS this device presents to the neighbor instead of the process AS.
    pub local_as: Option<u32>,
    /// `local-as … dual-as`: the process AS is accepted as well.
    pub dual_as: bool,
    /// Administratively shut down.
    pub shutdown: bool,
    /// Address families the neighbor is activated in (`ipv4 unicast`, …).
    pub address_families: Vec<String>,
    /// Line where the neighbor first appears.
    pub line: u32,
    /// A listen range's EOS `peer-filter`, in order: the remote AS numbers it accepts
    /// instead of one `remote-as` (an undefined filter is empty and accepts none).
    #[serde(default)]
    pub peer_filter: Option<Vec<AsRange>>,
    /// The session's source is an address the configuration does not name: Junos `system
    /// default-address-selection` sends an iBGP or multihop session without
    /// `local-address` from the loopback's address, and without one from the primary
    /// interface's, which the device picks.
    #[serde(default)]
    pub local_address_unknown: bool,
    /// What the routing model needs beyond the checks' view (`model::bgp`).
    #[serde(default)]
    pub routing: BgpNeighborRouting,
}

impl BgpNeighbor {
    /// A neighbor with nothing but its identity.
    pub fn new(vrf: Option<String>, peer: BgpPeer, line: u32) -> Self {
        BgpNeighbor {
            vrf,
            peer,
            peer_asn: None,
            peer_group: None,
            description: None,
            update_source: None,
            local_address: None,
            route_map_in: None,
            route_map_out: None,
            ebgp_multihop: None,
            prefix_list_in: None,
            prefix_list_out: None,
            local_as: None,
            dual_as: false,
            shutdown: false,
            address_families: Vec::new(),
            line,
            peer_filter: None,
            local_address_unknown: false,
            routing: BgpNeighborRouting::default(),
        }
    }

    /// Whether a peer presenting one of `asns` is accepted: its `remote-as`, or the first
    /// rule of its `peer-filter` that matches (no rule matching: rejected).
    pub fn accepts_as(&self, asns: &[u32]) -> bool {
        if let Some(a) = self.peer_asn {
            return asns.contains(&a);
        }
        self.peer_filter.as_ref().is_some_and(|rules| {
            asns.iter().any(|a| {
                rules
                    .iter()
                    .find(|r| (r.low..=r.high).contains(a))
                    .is_some_and(|r| r.accept)
            })
        })
    }
}

impl BgpProcess {
    /// The AS numbers this device presents to neighbor `n` in its OPEN messages: a
    /// per-neighbor `local-as` (and the process AS too under `dual-as`); towards a peer
    /// outside its confederation, the confederation identifier; else the process AS.
    pub fn presented_as(&self, n: &BgpNeighbor) -> Vec<u32> {
        if let Some(l) = n.local_as {
            return match self.local_as {
                Some(g) if n.dual_as && g != l => vec![l, g],
                _ => vec![l],
            };
        }
        let Some(member) = self.local_as else {
            return Vec::new();
        };
        match (self.confederation_id, n.peer_asn) {
            (Some(c), Some(peer))
                if peer != member && !self.confederation_peers.contains(&peer) =>
            {
                vec![c]
            }
            _ => vec![member],
        }
    }
}

/// A prefix announced by a BGP `network` statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgpNetwork {
    /// VRF (None for default).
    pub vrf: Option<String>,
    /// The prefix.
    pub prefix: IpNet,
    /// Source line.
    pub line: u32,
    /// `network … route-map M`.
    #[serde(default)]
    pub route_map: Option<String>,
}

/// One entry of an IP prefix-list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrefixListEntry {
    /// List name.
    pub name: String,
    /// Sequence number, when written.
    pub seq: Option<u32>,
    /// Permit (else deny).
    pub permit: bool,
    /// The prefix.
    pub prefix: IpNet,
    /// `ge`, when given.
    pub ge: Option<u8>,
    /// `le`, when given.
    pub le: Option<u8>,
    /// Source line.
    pub line: u32,
}

impl PrefixListEntry {
    /// Whether `p` matches this entry: exactly, or within its `ge`/`le` lengths.
    pub fn matches(&self, p: &IpNet) -> bool {
        if self.prefix.addr().is_ipv4() != p.addr().is_ipv4() {
            return false;
        }
        if self.ge.is_none() && self.le.is_none() {
            return self.prefix.trunc() == p.trunc();
        }
        let lo = self.ge.unwrap_or(self.prefix.prefix_len());
        let hi = self.le.unwrap_or(p.max_prefix_len());
        self.prefix.trunc().contains(&p.network())
            && p.prefix_len() >= self.prefix.prefix_len()
            && (lo..=hi).contains(&p.prefix_len())
    }
}

/// One clause of a route-map, as far as olav evaluates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteMapClause {
    /// Route-map name.
    pub name: String,
    /// Sequence number (10 when not written).
    pub seq: u32,
    /// Permit (else deny).
    pub permit: bool,
    /// `match ip address prefix-list` names (any of them matches).
    pub prefix_lists: Vec<String>,
    /// Other match or flow statements olav does not evaluate (`match community …`, `continue`).
    pub other: Vec<String>,
    /// Source line.
    pub line: u32,
    /// The clause's `set` statements, in order.
    #[serde(default)]
    pub sets: Vec<RouteMapSet>,
    /// The clause's `match` and `continue` statements, typed where the routing model
    /// evaluates them (the checks read `prefix_lists` and `other`).
    #[serde(default)]
    pub matches: Vec<RouteMapMatch>,
}

/// A static route.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticRoute {
    /// VRF (None for default).
    pub vrf: Option<String>,
    /// Destination prefix.
    pub prefix: IpNet,
    /// Next-hop address.
    pub next_hop: Option<IpAddr>,
    /// Next-hop (exit) interface (Junos `discard` / `reject` routes: `discard` / `reject`,
    /// as IOS names `Null0`).
    pub next_hop_interface: Option<String>,
    /// Administrative distance when configured (Junos: the route's `preference`, else its
    /// static block's `defaults preference`).
    pub distance: Option<u32>,
    /// Metric when configured (Junos `metric`, else its static block's `defaults metric`).
    #[serde(default)]
    pub metric: Option<u32>,
    /// Route tag when configured (`tag N`; Junos: else its static block's `defaults tag`).
    #[serde(default)]
    pub tag: Option<u32>,
    /// Whether the route can be installed, judged from the device's own configuration
    /// ([`DeviceConfig::judge_static_routes`]); `Usable` until judged.
    pub activity: RouteActivity,
    /// Source line.
    pub line: u32,
}

impl StaticRoute {
    /// Whether it drops what it matches: no next hop, and no exit interface or a discard
    /// one (`Null0`, Junos `discard` / `reject`).
    pub fn discards(&self) -> bool {
        self.next_hop.is_none()
            && self
                .next_hop_interface
                .as_deref()
                .is_none_or(discard_interface)
    }
}

/// Whether an exit interface drops what is routed to it (`Null0`, `discard`, `reject`,
/// FRR's `blackhole`).
fn discard_interface(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.starts_with("null") || n == "discard" || n == "reject" || n == "blackhole"
}

/// Whether a static route can be active, as far as the configuration alone tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouteActivity {
    /// It can be installed: a discard route, an exit interface that is up, a next hop on
    /// an active connected subnet, or (where the device resolves recursively) one covered
    /// by another usable static route.
    Usable,
    /// Its exit interface is administratively down or not configured.
    InterfaceDown,
    /// Nothing resolves its next hop: no active connected subnet holds it, no usable
    /// static route covers it and no routing protocol runs in its VRF (Junos without
    /// `resolve`: it is not on a connected subnet).
    Unresolved,
    /// Its next hop is not connected; only routes a protocol learns (or, on Junos with
    /// `resolve`, the resolution policy) can resolve it, which the configuration does not tell.
    ViaRouting,
}

impl RouteActivity {
    /// The `activity` column value.
    pub fn as_str(self) -> &'static str {
        match self {
            RouteActivity::Usable => "usable",
            RouteActivity::InterfaceDown => "interface-down",
            RouteActivity::Unresolved => "unresolved",
            RouteActivity::ViaRouting => "via-routing",
        }
    }
}

/// How a device resolves a static route's next hop beyond its connected subnets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NextHopResolution {
    /// Through any installed route, static ones included (IOS, EOS, NX-OS).
    Recursive,
    /// Through routing protocols' routes only, under a resolution policy (Junos `resolve`).
    ProtocolsOnly,
    /// Not at all: the next hop must be on a connected subnet (Junos' default).
    ConnectedOnly,
}

impl DeviceConfig {
    /// Judges every static route's [`RouteActivity`]. `resolution` tells how the device
    /// resolves a route's next hop when no connected subnet holds it.
    pub fn judge_static_routes(&mut self, resolution: impl Fn(&StaticRoute) -> NextHopResolution) {
        let vrf_of = |v: &Option<String>| v.clone().unwrap_or_default();
        let connected = |vrf: &Option<String>, nh: IpAddr| {
            self.interfaces
                .iter()
                .filter(|i| i.admin_up && vrf_of(&i.vrf) == vrf_of(vrf))
                .flat_map(|i| i.addresses.iter())
                .any(|a| a.address.contains(&nh) && a.address.addr() != nh)
        };
        let mut activity: Vec<Option<RouteActivity>> = self
            .static_routes
            .iter()
            .map(|r| match (&r.next_hop_interface, r.next_hop) {
                (Some(name), _) => {
                    let discard = discard_interface(name);
                    let up = self
                        .interfaces
                        .iter()
                        .find(|i| crate::ifname::same(name, &i.name))
                        .is_some_and(|i| i.admin_up);
                    Some(if discard || up {
                        RouteActivity::Usable
                    } else {
                        RouteActivity::InterfaceDown
                    })
                }
                (None, Some(nh)) if connected(&r.vrf, nh) => Some(RouteActivity::Usable),
                (None, Some(_)) => None,
                (None, None) => Some(RouteActivity::Usable),
            })
            .collect();
        // Recursive resolution through other usable static routes, to a fixed point; a
        // route never resolves through itself.
        loop {
            let mut changed = false;
            for i in 0..activity.len() {
                let r = &self.static_routes[i];
                let Some(nh) = r.next_hop else { continue };
                if activity[i].is_some() || resolution(r) != NextHopResolution::Recursive {
                    continue;
                }
                let covered = self.static_routes.iter().enumerate().any(|(j, o)| {
                    j != i
                        && activity[j] == Some(RouteActivity::Usable)
                        && vrf_of(&o.vrf) == vrf_of(&r.vrf)
                        && o.prefix.contains(&nh)
                });
                if covered {
                    activity[i] = Some(RouteActivity::Usable);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (i, a) in activity.into_iter().enumerate() {
            let r = &self.static_routes[i];
            let judged = a.unwrap_or_else(|| match resolution(r) {
                NextHopResolution::Recursive if self.routing_in(&r.vrf) => {
                    RouteActivity::ViaRouting
                }
                NextHopResolution::ProtocolsOnly => RouteActivity::ViaRouting,
                _ => RouteActivity::Unresolved,
            });
            self.static_routes[i].activity = judged;
        }
    }

    /// Whether a routing protocol runs in `vrf`: a BGP neighbor there, or OSPF enabled on
    /// one of its interfaces (directly or by a `network` statement covering its address).
    fn routing_in(&self, vrf: &Option<String>) -> bool {
        let bgp = self
            .bgp
            .as_ref()
            .is_some_and(|b| b.neighbors.iter().any(|n| !n.shutdown && n.vrf == *vrf));
        bgp || self.ospf_networks.iter().any(|o| {
            self.interfaces.iter().filter(|i| i.vrf == *vrf).any(|i| {
                o.interface
                    .as_deref()
                    .is_some_and(|n| crate::ifname::same(n, &i.name))
                    || o.prefix
                        .is_some_and(|p| i.addresses.iter().any(|a| p.contains(&a.address.addr())))
            })
        })
    }
}

/// An OSPF enablement: a `network … area …` statement or `ip ospf … area …` on an interface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OspfNetwork {
    /// OSPF process id as configured (Junos: the routing instance, `default` for the master).
    pub process: String,
    /// Covered prefix (for interface enablement: the interface's primary subnet, if any).
    pub prefix: Option<IpNet>,
    /// Interface, for interface-level enablement.
    pub interface: Option<String>,
    /// Area as written (`0`, `0.0.0.0`).
    pub area: String,
    /// Source line.
    pub line: u32,
}

/// Kinds of named structures that can be defined and referenced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StructureKind {
    /// `route-map`.
    RouteMap,
    /// `ip prefix-list` / `ipv6 prefix-list`.
    PrefixList,
    /// `ip access-list` / numbered `access-list`.
    AccessList,
    /// `ip community-list`.
    CommunityList,
    /// BGP peer-group / peer group / template.
    PeerGroup,
    /// Junos `policy-options policy-statement`.
    PolicyStatement,
    /// Junos `policy-options community`.
    Community,
    /// Junos `policy-options as-path`.
    AsPath,
    /// Junos `policy-options as-path-group`.
    AsPathGroup,
    /// Junos `firewall filter` / `firewall family inet filter`.
    FirewallFilter,
    /// IOS-XR `route-policy`.
    RoutePolicy,
    /// IOS-XR `prefix-set`.
    PrefixSet,
    /// IOS-XR `community-set`.
    CommunitySet,
    /// IOS-XR `as-path-set`.
    AsPathSet,
}

impl StructureKind {
    /// The `kind` column value.
    pub fn as_str(self) -> &'static str {
        match self {
            StructureKind::RouteMap => "route-map",
            StructureKind::PrefixList => "prefix-list",
            StructureKind::AccessList => "access-list",
            StructureKind::CommunityList => "community-list",
            StructureKind::PeerGroup => "peer-group",
            // Batfish's names for Junos structures (JuniperStructureType).
            StructureKind::PolicyStatement => "policy-statement",
            StructureKind::Community => "community",
            StructureKind::AsPath => "as-path",
            StructureKind::AsPathGroup => "as-path-group",
            StructureKind::FirewallFilter => "firewall filter",
            // Batfish's names for IOS-XR's RPL structures (CiscoXrStructureType).
            StructureKind::RoutePolicy => "route-policy",
            StructureKind::PrefixSet => "prefix-set",
            StructureKind::CommunitySet => "community-set",
            StructureKind::AsPathSet => "as-path-set",
        }
    }
}

/// A named structure defined in the config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureDef {
    /// Kind.
    pub kind: StructureKind,
    /// Name (or number).
    pub name: String,
    /// Line of (the first clause of) the definition.
    pub line: u32,
}

/// A reference to a named structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureRef {
    /// Kind referenced.
    pub kind: StructureKind,
    /// Name referenced.
    pub name: String,
    /// Where, in words: "bgp inbound route-map", "interface inbound access-group".
    pub context: String,
    /// Source line.
    pub line: u32,
}
