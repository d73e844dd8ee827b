//! A BGP neighbor's or peer-group's settings as `router bgp` lines give them, and how a
//! neighbor inherits its group's (the Cisco-style dialects; [`super::bgp`]).

use crate::model::{AsRange, BgpNeighborRouting};

/// FRR's `remote-as external` / `remote-as internal`: any AS but the own, or the own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PeerKind {
    External,
    Internal,
}

impl PeerKind {
    /// `external` / `internal`, else None.
    pub(super) fn parse(word: &str) -> Option<PeerKind> {
        match word {
            "external" => Some(PeerKind::External),
            "internal" => Some(PeerKind::Internal),
            _ => None,
        }
    }

    /// The AS numbers it accepts, as a peer filter over the process's own AS.
    pub(super) fn filter(self, local_as: Option<u32>) -> Vec<AsRange> {
        let Some(own) = local_as else {
            return Vec::new();
        };
        let range = |low, high, accept| AsRange { low, high, accept };
        match self {
            PeerKind::Internal => vec![range(own, own, true)],
            PeerKind::External => vec![range(own, own, false), range(1, u32::MAX, true)],
        }
    }
}

/// BGP settings of a neighbor or of a peer-group, before inheritance.
#[derive(Debug, Clone, Default)]
pub(super) struct Settings {
    pub(super) peer_asn: Option<u32>,
    /// FRR `remote-as external|internal`, when no AS number is given.
    pub(super) peer_kind: Option<PeerKind>,
    pub(super) peer_group: Option<String>,
    pub(super) description: Option<String>,
    pub(super) update_source: Option<String>,
    pub(super) route_map_in: Option<String>,
    pub(super) route_map_out: Option<String>,
    pub(super) ebgp_multihop: Option<u32>,
    pub(super) prefix_list_in: Option<String>,
    pub(super) prefix_list_out: Option<String>,
    pub(super) local_as: Option<u32>,
    pub(super) dual_as: bool,
    pub(super) shutdown: bool,
    pub(super) address_families: Vec<String>,
    /// `no neighbor X activate` in IPv4 unicast: the default activation is off.
    pub(super) ipv4_deactivated: bool,
    /// EOS `peer-filter` named by a listen range.
    pub(super) peer_filter: Option<String>,
    pub(super) routing: BgpNeighborRouting,
}

impl Settings {
    pub(super) fn inherit(&mut self, g: &Settings) {
        if self.peer_asn.is_none() && self.peer_kind.is_none() {
            self.peer_asn = g.peer_asn;
            self.peer_kind = g.peer_kind;
        }
        if self.description.is_none() {
            self.description.clone_from(&g.description);
        }
        if self.update_source.is_none() {
            self.update_source.clone_from(&g.update_source);
        }
        if self.route_map_in.is_none() {
            self.route_map_in.clone_from(&g.route_map_in);
        }
        if self.route_map_out.is_none() {
            self.route_map_out.clone_from(&g.route_map_out);
        }
        self.ebgp_multihop = self.ebgp_multihop.or(g.ebgp_multihop);
        if self.prefix_list_in.is_none() {
            self.prefix_list_in.clone_from(&g.prefix_list_in);
        }
        if self.prefix_list_out.is_none() {
            self.prefix_list_out.clone_from(&g.prefix_list_out);
        }
        if self.local_as.is_none() {
            self.local_as = g.local_as;
            self.dual_as = g.dual_as;
        }
        self.shutdown |= g.shutdown;
        let (r, gr) = (&mut self.routing, &g.routing);
        r.route_reflector_client |= gr.route_reflector_client;
        r.next_hop_self |= gr.next_hop_self;
        r.allowas_in = r.allowas_in.or(gr.allowas_in);
        r.send_community |= gr.send_community;
        r.send_ext_community |= gr.send_ext_community;
        r.weight = r.weight.or(gr.weight);
        if r.remove_private_as.is_none() {
            r.remove_private_as.clone_from(&gr.remove_private_as);
        }
        r.default_originate |= gr.default_originate;
        r.disable_peer_as_check |= gr.disable_peer_as_check;
        r.password |= gr.password;
        if self.local_as.is_none() {
            r.local_as_no_prepend = gr.local_as_no_prepend;
            r.local_as_replace_as = gr.local_as_replace_as;
        }
        for u in &gr.unmodelled {
            if !r.unmodelled.contains(u) {
                r.unmodelled.push(u.clone());
            }
        }
        for u in &gr.family_policies {
            if !r.family_policies.contains(u) {
                r.family_policies.push(u.clone());
            }
        }
        self.ipv4_deactivated |= g.ipv4_deactivated;
        for af in &g.address_families {
            if !self.address_families.contains(af) {
                self.address_families.push(af.clone());
            }
        }
    }
}
