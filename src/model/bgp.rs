//! What the routing model reads of BGP beyond the session checks' view: per-neighbor
//! route handling (reflection, next-hop-self, allowas-in, communities, weight),
//! multipath, aggregates, redistribution per VRF, route-map `set` statements, and the
//! statements olav reads but does not compute (so that the routes they touch are marked
//! incomplete, never guessed).

use ipnet::IpNet;
use serde::{Deserialize, Serialize};
use std::net::IpAddr;

/// A BGP process's route-handling settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgpRouting {
    /// `maximum-paths N` (eBGP; EOS: both kinds), per VRF (None: default).
    pub maximum_paths: Vec<(Option<String>, u32)>,
    /// `maximum-paths ibgp N`, per VRF.
    pub maximum_paths_ibgp: Vec<(Option<String>, u32)>,
    /// `bgp bestpath as-path multipath-relax`: the VRFs where paths through different
    /// ASes of the same length share the load.
    #[serde(default)]
    pub multipath_relax: Vec<Option<String>>,
    /// `aggregate-address` statements, every VRF.
    pub aggregates: Vec<BgpAggregate>,
    /// `redistribute <protocol> [route-map M]`, every VRF: (VRF, protocol, route-map).
    pub redistribute: Vec<(Option<String>, String, Option<String>)>,
    /// Statements that change routes and that olav does not compute: (VRF, statement).
    pub unmodelled: Vec<(Option<String>, String)>,
    /// `distance bgp E I L` (NX-OS `distance E I L`): (VRF, eBGP, iBGP, local).
    pub distances: Vec<(Option<String>, u32, u32, u32)>,
    /// Each VRF's route targets and layer-3 VNI (BGP VPN and EVPN).
    #[serde(default)]
    pub vrf_vpn: Vec<VrfVpn>,
    /// The interface whose address is the device's VTEP (EOS `vxlan source-interface`,
    /// NX-OS `interface nve1 / source-interface`).
    #[serde(default)]
    pub vtep_interface: Option<String>,
    /// VRFs whose BGP routes stay out of the main RIB (PAN-OS without `install-route`):
    /// selected and advertised, never installed.
    #[serde(default)]
    pub not_installed: Vec<Option<String>>,
}

/// Which routes a route target applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RtFamily {
    /// VPNv4 routes (IOS `route-target`, EOS `vpn-ipv4`, NX-OS without `evpn`), and the
    /// VRFs of one device.
    Vpn,
    /// EVPN type-5 routes (EOS and NX-OS `… evpn`).
    Evpn,
    /// Both (EOS `route-target import X` without a family).
    Both,
}

/// One `route-target import|export` value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteTarget {
    /// `ASN:NN`, `IP:NN`, or `auto`.
    pub value: String,
    /// What it applies to.
    pub family: RtFamily,
}

/// A VRF's BGP VPN identity: route targets and layer-3 VNI.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VrfVpn {
    /// The VRF.
    pub vrf: String,
    /// Import route targets.
    pub import: Vec<RouteTarget>,
    /// Export route targets.
    pub export: Vec<RouteTarget>,
    /// The VRF's layer-3 VNI (EOS `vxlan vrf X vni N`, NX-OS `vrf context X / vni N`).
    pub vni: Option<u32>,
}

/// One `aggregate-address`.
/// One rule of an EOS `peer-filter`: `SEQ match as-range LOW[-HIGH] result accept|reject`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AsRange {
    /// Lowest AS number matched.
    pub low: u32,
    /// Highest AS number matched.
    pub high: u32,
    /// `result accept` (else `reject`).
    pub accept: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgpAggregate {
    /// VRF (None: default).
    pub vrf: Option<String>,
    /// The aggregate prefix.
    pub prefix: IpNet,
    /// `summary-only`: the contributing routes are not advertised.
    pub summary_only: bool,
    /// Options olav does not compute (`as-set`, `attribute-map`, …).
    pub other: Vec<String>,
}

/// A BGP neighbor's route-handling settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgpNeighborRouting {
    /// `route-reflector-client`.
    pub route_reflector_client: bool,
    /// `next-hop-self`.
    pub next_hop_self: bool,
    /// `allowas-in [N]`: how often the own AS may appear in a received path (3 unwritten).
    pub allowas_in: Option<u32>,
    /// `send-community` (any form).
    pub send_community: bool,
    /// `send-community both|extended|all`: extended communities (route targets) too.
    #[serde(default)]
    pub send_ext_community: bool,
    /// `weight N`.
    pub weight: Option<u32>,
    /// `local-as … no-prepend`: received paths do not get the local AS prepended.
    pub local_as_no_prepend: bool,
    /// `local-as … replace-as`: sent paths carry the local AS only.
    pub local_as_replace_as: bool,
    /// `remove-private-as [all] [replace-as]` (Junos `remove-private`): the words after it
    /// (`all`, `replace-as`), None when not configured.
    pub remove_private_as: Option<Vec<String>>,
    /// `default-originate` (without a route-map).
    pub default_originate: bool,
    /// NX-OS `disable-peer-as-check`: paths holding the peer's AS are sent to it.
    pub disable_peer_as_check: bool,
    /// Junos `advertise-peer-as`: routes learned from the peer's AS are sent back to it
    /// (Junos holds them back by default).
    pub advertise_peer_as: bool,
    /// Junos `advertise-inactive`: the best BGP path is sent even where a route of another
    /// protocol is active.
    #[serde(default)]
    pub advertise_inactive: bool,
    /// SR OS `ebgp-default-reject-policy` (import, export): on an eBGP session, a route no
    /// policy of the chain accepts or rejects is rejected (RFC 8212), not given the
    /// protocol's default.
    #[serde(default)]
    pub ebgp_default_reject: (bool, bool),
    /// Junos import policy chain, in order.
    pub import_chain: Vec<String>,
    /// Junos export policy chain, in order.
    pub export_chain: Vec<String>,
    /// Settings that change routes and that olav does not compute (`default-originate`,
    /// `remove-private-as`, `filter-list`, …).
    pub unmodelled: Vec<String>,
    /// `password …`: the session is authenticated (whether the keys match is not known;
    /// the key itself is not kept).
    #[serde(default)]
    pub password: bool,
    /// Route policies of another address family than IPv4 unicast that routes olav
    /// computes cross (EVPN, VPNv4): `route-map RM in (address-family l2vpn evpn)`.
    #[serde(default)]
    pub family_policies: Vec<String>,
}

/// One `match` (or `continue`) statement of a route-map clause, as the routing model
/// evaluates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RouteMapMatch {
    /// `match ip address prefix-list L…` (any of them).
    PrefixList(Vec<String>),
    /// `match interface I…` (any of them): the interface a redistributed route leaves by.
    Interface(Vec<String>),
    /// `match ip address N…` (access lists, any of them).
    AccessList(Vec<String>),
    /// `match as-path N…` (any of the lists).
    AsPath(Vec<String>),
    /// `match community C… [exact-match]` (any of the lists).
    Community {
        /// The lists.
        names: Vec<String>,
        /// `exact-match` (not evaluated).
        exact: bool,
    },
    /// `continue [N]`: after the clause permits, evaluation goes on at clause N (None:
    /// the next clause) with the clause's sets applied.
    Continue(Option<u32>),
    /// `match tag N…` (any of them): the route's tag, as a clause before set it (FRR).
    Tag(Vec<u32>),
    /// `match extcommunity L…` (any of the lists): route targets.
    ExtCommunity(Vec<String>),
    /// Any other statement, as written (not evaluated).
    Other(String),
}

/// One `set` statement of a route-map clause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RouteMapSet {
    /// `set local-preference N`.
    LocalPreference(u32),
    /// `set metric N`.
    Metric(u32),
    /// `set weight N`.
    Weight(u32),
    /// `set as-path prepend A B …`.
    Prepend(Vec<u32>),
    /// `set community C … [additive]`.
    Community {
        /// The communities as written (`65000:1`, `no-export`).
        values: Vec<String>,
        /// Added to the route's communities (else they replace them).
        additive: bool,
    },
    /// `set ip next-hop A`.
    NextHop(IpAddr),
    /// `set origin igp|egp|incomplete`.
    Origin(String),
    /// `set tag N`.
    Tag(u32),
    /// Any other `set` (olav does not evaluate it), as written.
    Other(String),
}

/// Junos `policy-options`: policy-statements and communities, as the routing model
/// evaluates them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyOptions {
    /// Policy-statements, each its terms in order.
    pub statements: Vec<PolicyStatement>,
    /// `community NAME members […]`: (name, members as written).
    pub communities: Vec<(String, Vec<String>)>,
    /// `as-path NAME "regex"`: (name, regular expression as written).
    #[serde(default)]
    pub as_paths: Vec<(String, String)>,
}

/// One Junos policy-statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyStatement {
    /// Its name.
    pub name: String,
    /// Its terms in order (statements outside a term form the unnamed last term).
    pub terms: Vec<PolicyTerm>,
}

/// One term of a policy-statement.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyTerm {
    /// Its name (empty: the statements outside any term).
    pub name: String,
    /// Its `from` conditions (all must hold; values of one condition are alternatives).
    pub from: Vec<PolicyMatch>,
    /// Its `then` actions, in order.
    pub then: Vec<PolicyAction>,
}

/// A `from` condition of a Junos term.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PolicyMatch {
    /// `from protocol P…` (Junos names: `direct`, `static`, `bgp`, `ospf`, …).
    Protocol(Vec<String>),
    /// `from prefix-list L` (its prefixes exactly).
    PrefixList(String),
    /// `from prefix-list-filter L exact|orlonger|longer`.
    PrefixListFilter {
        /// The list.
        name: String,
        /// The modifier.
        modifier: String,
    },
    /// `from route-filter P M`: the prefixes within `prefix` whose length is in
    /// `lengths`.
    RouteFilter {
        /// The prefix.
        prefix: IpNet,
        /// Lengths matched (inclusive).
        lengths: (u8, u8),
    },
    /// `from community C…` (any of them).
    Community(Vec<String>),
    /// `from neighbor A…` (the peer a route came from).
    Neighbor(Vec<IpAddr>),
    /// `from interface I…` (the interface a route leaves by: a direct route's own).
    Interface(Vec<String>),
    /// `from as-path NAME…` (any of them).
    AsPath(Vec<String>),
    /// `from local-preference N`.
    LocalPreference(u32),
    /// Any other condition, as written (not evaluated).
    Other(String),
}

/// A `then` action of a Junos term.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PolicyAction {
    /// `accept`.
    Accept,
    /// `reject`.
    Reject,
    /// `next term`.
    NextTerm,
    /// `next policy`.
    NextPolicy,
    /// `local-preference N`.
    LocalPreference(u32),
    /// `local-preference add|subtract N` (subtract: negative).
    LocalPreferenceAdd(i64),
    /// `metric N`.
    Metric(u32),
    /// `metric add|subtract N` (subtract: negative).
    MetricAdd(i64),
    /// `validation-state S`: the RPKI state, which only an RPKI condition reads (none is
    /// evaluated): no effect on the route.
    ValidationState(String),
    /// `community add|set|delete C`.
    Community {
        /// `add`, `set` or `delete`.
        op: String,
        /// The community's name.
        name: String,
    },
    /// `next-hop self`.
    NextHopSelf,
    /// `next-hop A`.
    NextHop(IpAddr),
    /// `as-path-prepend "A B"`.
    Prepend(Vec<u32>),
    /// The BGP origin set (`igp`, `egp`, `incomplete`; SR OS `origin`, PAN-OS
    /// `update origin`), as written.
    Origin(String),
    /// PAN-OS `update as-path remove`: the AS numbers the named AS-path lists' expressions
    /// match are taken out of the path.
    RemoveAs(Vec<String>),
    /// Any other action, as written (not evaluated).
    Other(String),
}

/// The lists route-maps match routes against beyond prefix-lists: numbered IPv4 access
/// lists and community lists (IOS, NX-OS, EOS).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteLists {
    /// Numbered access-list entries, in file order.
    pub access_lists: Vec<AccessListEntry>,
    /// Community-list entries, in file order.
    pub community_lists: Vec<CommunityListEntry>,
    /// `ip as-path access-list N permit|deny EXPR` entries, in file order: (list, permit,
    /// expression).
    #[serde(default)]
    pub as_path_lists: Vec<(String, bool, String)>,
    /// `ip extcommunity-list standard L permit|deny rt V…` entries, in file order (the
    /// route-target values; an expanded list or another kind is kept as not evaluated).
    #[serde(default)]
    pub ext_community_lists: Vec<CommunityListEntry>,
}

/// One entry of a numbered IPv4 access list, as a route-map reads it: a standard entry
/// matches the route's network address; an extended one its network address (source)
/// and its mask (destination).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessListEntry {
    /// The list's number.
    pub name: String,
    /// Permit (else deny).
    pub permit: bool,
    /// Source address and wildcard (`any`: 0.0.0.0 255.255.255.255).
    pub source: (std::net::Ipv4Addr, std::net::Ipv4Addr),
    /// Destination address and wildcard (extended entries).
    pub destination: Option<(std::net::Ipv4Addr, std::net::Ipv4Addr)>,
}

/// One entry of a community list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommunityListEntry {
    /// The list's name or number.
    pub name: String,
    /// Permit (else deny).
    pub permit: bool,
    /// Expanded (a regular expression over the communities), else standard (every value
    /// present).
    pub expanded: bool,
    /// The values (standard) or the expression (expanded, one element).
    pub values: Vec<String>,
}
