//! What the pre-checks read, gathered once per plan: the plan and its parsed
//! configuration, the current state, the candidate network, the independently recomputed
//! blast radius, what each provider is sent before and after, and what new addresses
//! leave behind.

use super::announce::{self, Announcements};
use super::blast::{self, Blast};
use super::candidate::{Candidate, Cause, LostSession};
use super::checks::redundancy::{self, Redundancy};
use super::forwarding::{self, Declared, Forwarding, Purpose};
use super::readdressing::{readdressing, Left, Moved};
use super::semantic::{self, DeviceChanges};
use super::services::{add_withdrawn, merge_hits, service_hits};
use super::state_view::StateView;
use super::Options;
use crate::import::parse::parser_for;
use crate::model::{DeviceConfig, Vendor};
use crate::plan::{Plan, Target};
use crate::routing::connected::vrf_name;
use crate::state::{StateDb, StateError};
use ipnet::{IpNet, Ipv4Net};

/// Everything a check may read about one plan.
pub struct Context<'a> {
    /// The state DB.
    pub db: &'a StateDb,
    /// The plan.
    pub plan: &'a Plan,
    /// The plan's path as given.
    pub plan_path: &'a str,
    /// The pre-check's options.
    pub opts: &'a Options,
    /// The current state version.
    pub state_version: i64,
    /// The current state.
    pub state: StateView<'a>,
    /// The plan's implementation blocks: (device, lines parsed with the importer's own
    /// parser, lines).
    pub blocks: Vec<(String, DeviceConfig, &'a str)>,
    /// The candidate network around the plan (shared with the report's picture).
    pub cand: std::sync::Arc<Candidate>,
    /// The blast radius, recomputed from the plan's targets and candidate, with the
    /// services its withdrawn prefixes and abandoned subnets hit.
    pub blast: Blast,
    /// The stored topology's graph, which the blast radius was recomputed on (kept for
    /// the checks that recompute it again, block by block).
    pub graph: std::sync::Arc<blast::Graph>,
    /// What each provider is sent, before and after.
    pub announcements: Announcements,
    /// Subnets the plan's new addresses leave behind.
    pub left: Vec<Left>,
    /// Gateway addresses that move within their subnet.
    pub moved: Vec<Moved>,
    /// For an added uplink: redundancy towards the peer, before and after.
    pub redundancy: Option<Redundancy>,
    /// How forwarding changes: the candidate's RIBs against the stored ones.
    pub forwarding: Forwarding,
    /// Paths between sites and towards external peers that now depend on a single
    /// device or link.
    pub single_points: blast::SinglePoints,
    /// What the change does on each device the plan configures: its candidate model
    /// against its stored one, element by element (`semantic`).
    pub changes: Vec<DeviceChanges>,
}

/// The part of a context computed from the candidate's routing, beside the graph's.
struct RoutingSide {
    changes: Vec<DeviceChanges>,
    forwarding: Forwarding,
    announcements: Announcements,
    left: Vec<Left>,
    moved: Vec<Moved>,
}

impl<'a> Context<'a> {
    /// Gathers what the checks read about `plan`.
    pub fn build(
        db: &'a StateDb,
        plan_path: &'a str,
        plan: &'a Plan,
        opts: &'a Options,
    ) -> Result<Context<'a>, StateError> {
        let state_version = db.state_version()?;
        let state = StateView::load(db)?;
        let blocks = plan
            .implementation
            .iter()
            .map(|b| {
                (
                    b.device.clone(),
                    parser_for(Vendor::from_os(&b.os)).parse(&b.text),
                    b.text.as_str(),
                )
            })
            .collect();
        let cand = Candidate::shared(db, plan)?;
        let spec = blast_spec(plan, &cand);
        // The stored graph is decoded and walked on a thread of its own (with its own
        // connection) while this one computes forwarding and announcements: they do not
        // read each other, and together they were most of a 50,000-device pre-check.
        let path = db.path().to_path_buf();
        let (graph_side, rest) = crate::parallel::both(
            || -> Result<_, StateError> {
                let own = StateDb::open(&path)?;
                let graph = blast::Graph::load(&own)?;
                let blast = graph.blast(&spec);
                let redundancy = redundancy::towards_peer(plan, &graph, &spec);
                let t0 = std::time::Instant::now();
                let single_points = graph.single_points(&spec);
                tracing::debug!(
                    "single points between sites and towards peers in {:?}",
                    t0.elapsed()
                );
                Ok((graph, blast, redundancy, single_points))
            },
            || Self::routing_side(db, plan, &cand, &spec),
        );
        let (graph, mut blast, redundancy, single_points) = graph_side?;
        let RoutingSide {
            changes,
            forwarding,
            announcements,
            left,
            moved,
        } = rest?;
        // Services that live in withdrawn prefixes or in subnets left behind, and internet
        // services whose border no longer announces anything.
        let withdrawn = announcements.withdrawn();
        if !withdrawn.is_empty() || !left.is_empty() {
            let silent: Vec<&str> = announcements
                .before
                .iter()
                .filter(|s| !s.prefixes.is_empty())
                .map(|s| s.device.as_str())
                .filter(|d| {
                    !announcements
                        .after
                        .iter()
                        .any(|a| a.device == *d && !a.prefixes.is_empty())
                })
                .collect();
            merge_hits(
                &mut blast,
                service_hits(db, &withdrawn, &silent, &left, &|_| false)?,
            );
        }
        // Sessions whose peer address the candidate's routing no longer reaches end too.
        for b in &forwarding.broken {
            let s = format!("{} → {}", b.flow.source, b.flow.dst);
            if b.flow.purpose == Purpose::Session && !blast.sessions_lost.contains(&s) {
                blast.sessions_lost.push(s);
            }
        }
        blast.sessions_lost.sort();
        // Networks no device routes any more are withdrawn too, whatever the topology's
        // roles say (a router cut off from every neighbour, a LAN behind it).
        let still = |p: &IpNet| match p {
            IpNet::V4(p) => forwarding.service_prefixes_routed.contains(p),
            IpNet::V6(_) => false,
        };
        add_withdrawn(
            db,
            &mut blast,
            forwarding.withdrawn.iter().map(|(w, _)| w),
            &still,
        )?;
        Ok(Context {
            db,
            plan,
            plan_path,
            opts,
            state_version,
            state,
            blocks,
            cand,
            blast,
            graph,
            announcements,
            left,
            moved,
            redundancy,
            forwarding,
            single_points,
            changes,
        })
    }

    /// What the candidate changes on the devices it configures, how forwarding changes,
    /// what each provider is sent before and after, and what new addresses leave behind.
    fn routing_side(
        db: &StateDb,
        plan: &Plan,
        cand: &Candidate,
        spec: &blast::Spec,
    ) -> Result<RoutingSide, StateError> {
        let changes = semantic::of_candidate(cand);
        let removed_devices: Vec<String> = crate::checks::model::removed_devices(plan)
            .into_iter()
            .map(str::to_owned)
            .collect();
        let declared = Declared {
            devices: removed_devices.clone(),
            interfaces: spec.interfaces.clone(),
            statics: v4_routes(cand, |d| cand.route_changes(d).1),
        };
        // A discard route the plan adds drops on purpose: not traced.
        let added = v4_routes(cand, |d| {
            let mut a = cand.route_changes(d).0;
            a.retain(|r| !r.discards());
            a
        });
        let mut forwarding = forwarding::compute(db, plan, &declared, &added)?;
        // The routing model's answer; the configurations' alone where it is not computed.
        let announcements = match forwarding.announcements.take() {
            Some(a) => a,
            None => announce::evaluate(db, cand, &removed_devices)?,
        };
        let (left, moved) = readdressing(db, cand)?;
        Ok(RoutingSide {
            changes,
            forwarding,
            announcements,
            left,
            moved,
        })
    }

    /// Whether the plan's request removes something (a decommission or a session
    /// removal): what it ends is its point.
    pub fn is_removal(&self) -> bool {
        let intent = &self.plan.header.intent;
        intent.starts_with("decommission") || intent == "remove_session"
    }

    /// The sessions the plan ends as it declares, as "device → peer": every one a
    /// removal ends; with a shutdown the request asks for, those over the interfaces it
    /// shuts, not those a shut loopback sources (their loss is the routing's:
    /// `sessions_lost`). Whatever a session's ends say after it ends is no news.
    pub fn sessions_ended_as_declared(&self) -> Result<Vec<String>, StateError> {
        let requested = self.shuts_only_targets();
        if !self.is_removal() && !requested {
            return Ok(Vec::new());
        }
        let on_loopback = self.ends_on_shut_loopback()?;
        Ok(self
            .cand
            .lost_sessions
            .iter()
            .filter(|s| self.is_removal() || s.cause != Cause::NeighborRemoved && !on_loopback(s))
            .map(|s| format!("{} → {}", s.device, s.peer))
            .collect())
    }

    /// Whether a lost session ends with a loopback the plan shuts: its device's, or its
    /// peer address on one (a shut loopback's sessions are the network's routing, not
    /// the interface the request names: `sessions_lost`).
    pub fn ends_on_shut_loopback(&self) -> Result<impl Fn(&LostSession) -> bool + '_, StateError> {
        let mut addrs: Vec<std::net::IpAddr> = Vec::new();
        let mut devices: Vec<&str> = Vec::new();
        for (d, i) in self
            .cand
            .shut
            .iter()
            .filter(|(_, i)| crate::routing::igp::is_loopback(i))
        {
            devices.push(d);
            addrs.extend(self.state.addresses_on(d, i)?.iter().map(|n| n.addr()));
        }
        Ok(move |s: &LostSession| {
            devices.contains(&s.device.as_str())
                || s.peer
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|p| addrs.contains(&p))
        })
    }

    /// Whether every interface the plan shuts is one its targets name (a shutdown the
    /// request asks for), so what ends with them is declared; false when it shuts none.
    pub fn shuts_only_targets(&self) -> bool {
        !self.cand.shut.is_empty()
            && self.cand.shut.iter().all(|(d, i)| {
                self.plan.header.targets.iter().any(|t| match t {
                    Target::Interface { device, interface } => {
                        device == d && crate::ifname::covers(interface, i)
                    }
                    _ => false,
                })
            })
    }
}

/// What the blast radius is recomputed from: the plan's targets, and what the candidate
/// network loses (shut interfaces, links whose ends no longer meet, sessions that end
/// at either side).
pub(super) fn blast_spec(plan: &Plan, cand: &Candidate) -> blast::Spec {
    let mut spec = blast::Spec::default();
    for t in &plan.header.targets {
        match (plan.header.intent.as_str(), t) {
            ("decommission_device", Target::Device { device }) => spec.devices.push(device.clone()),
            ("decommission_interface", Target::Interface { device, interface }) => {
                spec.interfaces.push((device.clone(), interface.clone()))
            }
            (
                "decommission_link",
                Target::Link {
                    device_a,
                    interface_a,
                    device_b,
                    interface_b,
                },
            ) => spec.links.push((
                (device_a.clone(), interface_a.clone()),
                (device_b.clone(), interface_b.clone()),
            )),
            ("decommission_peer", Target::Peer { device, peer, .. }) => {
                spec.peers.push((Some(device.clone()), peer.clone()))
            }
            _ => {}
        }
    }
    for (d, i) in &cand.shut {
        spec.interfaces.push((d.clone(), i.clone()));
    }
    // A link whose end is shut or gone goes with that interface (above).
    for l in cand
        .lost_links
        .iter()
        .filter(|l| !matches!(l.cause, Cause::Down | Cause::Gone))
    {
        spec.links.push((l.a.clone(), l.b.clone()));
    }
    // Unnumbered sessions (named by their interface) go with their shut interface.
    for s in cand
        .lost_sessions
        .iter()
        .filter(|s| s.peer.parse::<std::net::IpAddr>().is_ok())
    {
        spec.peers.push((Some(s.device.clone()), s.peer.clone()));
    }
    spec
}

/// The IPv4 static routes `pick` gives for each device the plan configures: (device,
/// VRF, prefix).
fn v4_routes<'c>(
    cand: &'c Candidate,
    pick: impl Fn(&str) -> Vec<&'c crate::model::StaticRoute>,
) -> Vec<(String, String, Ipv4Net)> {
    cand.touched
        .iter()
        .flat_map(|d| {
            pick(d)
                .into_iter()
                .filter_map(|r| match r.prefix {
                    IpNet::V4(p) => Some((d.clone(), vrf_name(&r.vrf), p)),
                    IpNet::V6(_) => None,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}
