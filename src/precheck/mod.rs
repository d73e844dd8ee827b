//! The pre-check: a plan checked against the state DB, its blast radius recomputed
//! independently (`blast`), and a verdict with evidence. `olav precheck` and the
//! reporter step run this same code.

pub mod announce;
pub mod blast;
pub mod candidate;
mod routes;
mod scope;

use crate::import::parse::parser_for;
use crate::model::{AddressKind, BgpPeer, Vendor};
use crate::plan::{Plan, Target};
use crate::state::{StateDb, StateError};
use ipnet::IpNet;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

use std::fmt::Write as _;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Blocks the change.
    Error,
    /// Needs a look.
    Warning,
    /// For the record.
    Info,
}

impl Severity {
    fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One evidence row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable code of the check that found it (`precheck.links`), for scripts.
    pub code: &'static str,
    /// Severity.
    pub severity: Severity,
    /// What it is about (`alpha-border-1 GigabitEthernet0/0/3`).
    pub element: String,
    /// What was found.
    pub message: String,
    /// What to do.
    pub suggestion: String,
}

/// Options.
#[derive(Debug, Clone)]
pub struct Options {
    /// State older than this is a warning.
    pub max_age: chrono::Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_age: chrono::Duration::days(7),
        }
    }
}

/// The pre-check's result.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The plan's path as given.
    pub plan: String,
    /// Plan title.
    pub title: String,
    /// Plan id.
    pub plan_id: Option<String>,
    /// PASS, WARN or FAIL.
    pub verdict: &'static str,
    /// Findings, most severe first.
    pub findings: Vec<Finding>,
    /// Checks that ran on this plan and found nothing.
    pub passed: Vec<String>,
    /// Checks that do not apply to this plan (and so did not run).
    pub not_applicable: Vec<String>,
    /// The recomputed blast radius.
    pub blast: Option<blast::Blast>,
    /// The plan's claimed number.
    pub claimed: Option<u32>,
    /// Redundancy towards the peer, for additions: (before, after).
    pub redundancy: Option<(String, String)>,
    /// What each provider is sent, before and after the plan.
    pub announcements: Option<announce::Announcements>,
    /// Current state version.
    pub state_version: i64,
    /// The version the plan was drafted against.
    pub plan_state_version: Option<i64>,
}

struct Checker<'a> {
    /// The code of the check running now (findings added outside a check name theirs).
    current: &'static str,
    findings: Vec<Finding>,
    passed: Vec<String>,
    not_applicable: Vec<String>,
    db: &'a StateDb,
}

/// Whether a check had anything to look at in this plan.
enum Applies {
    /// It ran.
    Ran,
    /// Nothing in the plan is of its kind.
    NotApplicable,
}

impl Checker<'_> {
    fn add(
        &mut self,
        severity: Severity,
        element: impl Into<String>,
        message: impl Into<String>,
        suggestion: impl Into<String>,
    ) {
        let code = self.current;
        self.add_as(code, severity, element, message, suggestion);
    }

    fn add_as(
        &mut self,
        code: &'static str,
        severity: Severity,
        element: impl Into<String>,
        message: impl Into<String>,
        suggestion: impl Into<String>,
    ) {
        self.findings.push(Finding {
            code,
            severity,
            element: element.into(),
            message: message.into(),
            suggestion: suggestion.into(),
        });
    }

    /// Runs a named check; it passes when it ran and added no error or warning.
    fn check(
        &mut self,
        code: &'static str,
        name: &str,
        f: impl FnOnce(&mut Self) -> Result<Applies, StateError>,
    ) -> Result<(), StateError> {
        self.current = code;
        let before = self
            .findings
            .iter()
            .filter(|x| x.severity != Severity::Info)
            .count();
        if let Applies::NotApplicable = f(self)? {
            self.not_applicable.push(name.to_owned());
            return Ok(());
        }
        if self
            .findings
            .iter()
            .filter(|x| x.severity != Severity::Info)
            .count()
            == before
        {
            self.passed.push(name.to_owned());
        }
        Ok(())
    }
}

/// What the pre-check reads from the state DB: devices and sessions up front, the rest
/// by targeted queries (a pre-check touches a few devices of a large network).
struct State<'a> {
    db: &'a StateDb,
    devices: HashMap<String, (String, String, Option<u32>)>,
    sessions: Vec<(String, String, Option<u32>, Option<String>)>,
    /// Observed session states: (device, peer) → state.
    observed: HashMap<(String, String), String>,
    all_addresses: std::cell::OnceCell<Vec<(String, String, String, IpNet)>>,
    collected_at: Option<String>,
}

fn load(db: &StateDb) -> Result<State<'_>, StateError> {
    let mut s = State {
        db,
        devices: HashMap::new(),
        sessions: Vec::new(),
        observed: HashMap::new(),
        all_addresses: std::cell::OnceCell::new(),
        collected_at: None,
    };
    let m = crate::network::NetworkModel::shared(db)?;
    for d in &m.devices {
        s.devices
            .insert(d.hostname.clone(), (d.status.clone(), d.os.clone(), d.asn));
    }
    for x in &m.sessions {
        if let Some(state) = &x.state {
            s.observed
                .insert((x.hostname.clone(), x.peer.clone()), state.clone());
        }
        s.sessions.push((
            x.hostname.clone(),
            x.peer.clone(),
            x.peer_asn,
            x.description.clone(),
        ));
    }
    s.collected_at = db.collected_at().unwrap_or(None);
    Ok(s)
}

impl State<'_> {
    /// The configured name and VRF of the interface `typed` names on `dev`.
    fn iface(&self, dev: &str, typed: &str) -> Result<Option<(String, String)>, StateError> {
        Ok(self
            .db
            .interface_vrfs(dev)?
            .into_iter()
            .find(|(name, _)| crate::ifname::same(typed, name)))
    }

    fn addresses_on(&self, dev: &str, ifname: &str) -> Result<Vec<IpNet>, StateError> {
        Ok(self
            .all_addresses()?
            .iter()
            .filter(|a| a.0 == dev && a.1 == ifname)
            .map(|a| a.3)
            .collect())
    }

    fn is_linked(&self, dev: &str, ifname: &str) -> Result<bool, StateError> {
        self.db.is_linked(dev, ifname)
    }

    fn is_defined(&self, dev: &str, kind: &str, name: &str) -> Result<bool, StateError> {
        self.db.is_defined(dev, kind, name)
    }

    /// Every interface address (device, interface, vrf, address/len), loaded once when needed.
    fn all_addresses(&self) -> Result<&Vec<(String, String, String, IpNet)>, StateError> {
        if let Some(v) = self.all_addresses.get() {
            return Ok(v);
        }
        let m = crate::network::NetworkModel::shared(self.db)?;
        let virt = m.sym("virtual");
        let v = m
            .addresses
            .iter()
            .filter(|a| Some(a.kind) != virt)
            .filter_map(|a| {
                Some((
                    m.name(a.hostname).to_owned(),
                    m.name(a.ifname).to_owned(),
                    m.name(a.vrf).to_owned(),
                    IpNet::new(a.address, a.prefix.prefix_len()).ok()?,
                ))
            })
            .collect();
        Ok(self.all_addresses.get_or_init(|| v))
    }
}

/// Whether a VLAN list as configured (`10,20,30-40`, `all`, `add …` already folded) holds `vlan`.
fn vlan_list_contains(list: &str, vlan: u32) -> bool {
    list.split(',')
        .map(str::trim)
        .any(|part| match part.split_once('-') {
            _ if part.eq_ignore_ascii_case("all") => true,
            Some((a, b)) => match (a.parse::<u32>(), b.parse::<u32>()) {
                (Ok(a), Ok(b)) => (a..=b).contains(&vlan),
                _ => false,
            },
            None => part.parse::<u32>() == Ok(vlan),
        })
}

/// A device model in comparable sections, line numbers and statement order aside (a
/// rollback re-adds lines at the end).
fn sections(c: &crate::model::DeviceConfig) -> [(&'static str, String); 4] {
    let mut c = c.clone();
    for i in &mut c.interfaces {
        i.line = 0;
        for a in &mut i.addresses {
            a.line = 0;
        }
    }
    // Order carries no meaning: a Junos rollback re-adds a deleted interface's statements
    // after the others, as the device itself would list them.
    c.interfaces.sort_by(|a, b| a.name.cmp(&b.name));
    for i in &mut c.interfaces {
        i.addresses.sort_by_key(|a| format!("{a:?}"));
    }
    if let Some(b) = &mut c.bgp {
        b.line = 0;
        for n in &mut b.neighbors {
            n.line = 0;
            n.address_families.sort();
        }
        b.neighbors
            .sort_by_key(|n| (n.vrf.clone(), n.peer.to_string()));
        for n in &mut b.networks {
            n.line = 0;
        }
        b.networks.sort_by_key(|n| (n.vrf.clone(), n.prefix));
    }
    for r in &mut c.static_routes {
        r.line = 0;
    }
    c.static_routes.sort_by_key(|r| format!("{r:?}"));
    for e in &mut c.prefix_lists {
        e.line = 0;
    }
    c.prefix_lists.sort_by_key(|e| format!("{e:?}"));
    for r in &mut c.route_map_clauses {
        r.line = 0;
    }
    c.route_map_clauses.sort_by_key(|r| format!("{r:?}"));
    [
        ("interfaces", format!("{:?}", c.interfaces)),
        ("BGP", format!("{:?}", c.bgp)),
        ("static routes", format!("{:?}", c.static_routes)),
        (
            "routing policy",
            format!("{:?}{:?}", c.prefix_lists, c.route_map_clauses),
        ),
    ]
}

/// Services hit by prefixes no provider hears any more (a prefix endpoint inside one is
/// lost; an internet service whose devices are all borders that fell silent is down),
/// and by subnets a plan's new addresses leave behind (a prefix endpoint inside one, or
/// the re-addressed interface itself, is lost).
fn service_hits(
    db: &StateDb,
    withdrawn: &[IpNet],
    silent: &[&str],
    left: &[Left],
) -> Result<Vec<blast::ServiceHit>, StateError> {
    let rows = db.service_endpoints()?;
    let mut out: Vec<blast::ServiceHit> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let name = rows[i].service.clone();
        let eps: Vec<&crate::state::ServiceEndpoint> =
            rows[i..].iter().take_while(|r| r.service == name).collect();
        i += eps.len();
        let internet = eps[0].kind.as_deref() == Some("internet");
        let lost = eps
            .iter()
            .filter(|r| {
                let prefix = r.prefix.as_deref().and_then(|p| p.parse::<IpNet>().ok());
                let in_withdrawn = prefix.is_some_and(|p| {
                    withdrawn.iter().any(|w| w.contains(&p)) || left.iter().any(|l| l.loses(&p))
                });
                let moved = match (&r.hostname, &r.ifname) {
                    (Some(h), Some(i)) => left.iter().any(|l| {
                        l.kept.is_none() && l.device == *h && crate::ifname::same(i, &l.interface)
                    }),
                    _ => false,
                };
                let silent_border =
                    internet && r.hostname.as_deref().is_some_and(|h| silent.contains(&h));
                in_withdrawn || moved || silent_border
            })
            .count();
        if lost > 0 {
            out.push(blast::ServiceHit {
                name,
                criticality: eps[0].criticality.clone(),
                endpoints: eps.len(),
                remaining: eps.len() - lost,
            });
        }
    }
    Ok(out)
}

/// A subnet an interface leaves (the plan gives it another address, or removes its
/// address) that no other interface of the network keeps; or narrows, keeping part.
#[derive(Debug, Clone)]
struct Left {
    device: String,
    interface: String,
    subnet: IpNet,
    /// The part still covered when the interface's new subnet lies inside the old one.
    kept: Option<IpNet>,
}

impl Left {
    /// Whether a prefix lies in the part no longer covered.
    fn loses(&self, p: &IpNet) -> bool {
        self.subnet.contains(p) && !self.kept.is_some_and(|k| k.contains(p))
    }
}

/// A gateway address that moves within its subnet: (device, interface, from, to).
type Moved = (String, String, std::net::IpAddr, std::net::IpAddr);

/// What the candidate's new addresses leave behind, on each device the plan
/// configures: each subnet an up interface had and no longer covers (shut interfaces
/// are the blast radius's), unless another interface of the network still has it; and
/// each gateway address that moves within its subnet when no HSRP/VRRP address stands
/// in for it.
fn readdressing(
    db: &StateDb,
    cand: &candidate::Candidate,
) -> Result<(Vec<Left>, Vec<Moved>), StateError> {
    let nets = |i: &crate::model::Interface| -> Vec<IpNet> {
        i.addresses
            .iter()
            .filter(|a| a.kind != crate::model::AddressKind::Virtual)
            .map(|a| a.address.trunc())
            .filter(|n| n.prefix_len() < n.max_prefix_len())
            .collect()
    };
    let mut gone: Vec<Left> = Vec::new();
    let mut moved: Vec<Moved> = Vec::new();
    for (h, dev) in &cand.devices {
        for bi in dev.base.interfaces.iter().filter(|i| i.admin_up) {
            let Some(ci) = dev.cand.interfaces.iter().find(|i| i.name == bi.name) else {
                continue;
            };
            if !ci.admin_up {
                continue;
            }
            let now = nets(ci);
            for subnet in nets(bi) {
                if now.iter().any(|n| n.contains(&subnet)) {
                    continue;
                }
                gone.push(Left {
                    device: h.clone(),
                    interface: bi.name.clone(),
                    subnet,
                    kept: now.iter().find(|n| subnet.contains(*n)).copied(),
                });
            }
            let has_virtual = bi
                .addresses
                .iter()
                .any(|a| a.kind == crate::model::AddressKind::Virtual);
            for a in bi
                .addresses
                .iter()
                .filter(|a| a.kind == crate::model::AddressKind::Primary && !has_virtual)
            {
                let same_subnet = ci.addresses.iter().find(|c| {
                    c.kind != crate::model::AddressKind::Virtual
                        && c.address.trunc() == a.address.trunc()
                });
                let kept = ci
                    .addresses
                    .iter()
                    .any(|c| c.address.addr() == a.address.addr());
                if let (Some(c), false) = (same_subnet, kept) {
                    moved.push((
                        h.clone(),
                        bi.name.clone(),
                        a.address.addr(),
                        c.address.addr(),
                    ));
                }
            }
        }
    }
    if gone.is_empty() {
        return Ok((gone, moved));
    }
    // Another holder keeps the subnet: one on an untouched device, or one the candidate
    // still has on a device the plan configures.
    let m = crate::network::NetworkModel::shared(db)?;
    let virt = m.sym("virtual");
    let kept = |l: &Left| {
        m.addresses
            .iter()
            .filter(|a| Some(a.kind) != virt && a.up && a.prefix.trunc() == l.subnet)
            .any(|a| {
                let (h, i) = (m.name(a.hostname), m.name(a.ifname));
                if h == l.device && i == l.interface {
                    return false;
                }
                match cand.devices.get(h) {
                    None => true,
                    Some(d) => d
                        .cand
                        .interfaces
                        .iter()
                        .find(|x| x.name == i)
                        .is_some_and(|x| x.admin_up && nets(x).contains(&l.subnet)),
                }
            })
    };
    gone.retain(|l| !kept(l));
    Ok((gone, moved))
}

/// The services a plan names in its blast radius ("Services affected").
fn declared_services(plan: &Plan) -> Vec<String> {
    let Some(cell) = plan.blast_radius.lines().find_map(|l| {
        l.trim()
            .strip_prefix("| Services affected |")
            .map(|rest| rest.trim_end_matches('|').trim())
    }) else {
        return Vec::new();
    };
    // Entries are `name (criticality, …)`, separated by commas outside parentheses.
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in cell.char_indices().chain([(cell.len(), ',')]) {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                let entry = cell[start..i].trim();
                let name = entry.split(" (").next().unwrap_or(entry).trim();
                if !name.is_empty() && name != "none" {
                    out.push(name.to_owned());
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// Pre-checks a plan's text against the state DB.
pub fn precheck(
    db: &StateDb,
    plan_path: &str,
    text: &str,
    opts: &Options,
) -> Result<Report, StateError> {
    let state_version = db.state_version()?;
    let mut report = Report {
        plan: plan_path.to_owned(),
        title: String::new(),
        plan_id: None,
        verdict: "FAIL",
        findings: Vec::new(),
        passed: Vec::new(),
        not_applicable: Vec::new(),
        blast: None,
        claimed: None,
        redundancy: None,
        announcements: None,
        state_version,
        plan_state_version: None,
    };
    let plan = match Plan::from_markdown(text) {
        Ok(p) => p,
        Err(e) => {
            report.findings.push(Finding {
                code: "precheck.plan_unreadable",
                severity: Severity::Error,
                element: plan_path.to_owned(),
                message: format!("the plan cannot be read: {e}"),
                suggestion: "re-draft the plan, or restore what is missing (docs/plan-format.md)"
                    .into(),
            });
            return Ok(report);
        }
    };
    report.title = plan.title.clone();
    report.plan_id = Some(plan.header.plan_id.clone());
    report.claimed = plan.claimed_blast_radius;
    report.plan_state_version = Some(plan.header.state_version);
    let st = load(db)?;
    let mut ck = Checker {
        current: "precheck.other",
        findings: Vec::new(),
        passed: Vec::new(),
        not_applicable: Vec::new(),
        db,
    };
    let adding = plan.header.intent.starts_with("add_");
    ck.check(
        "precheck.targets",
        "targets and configured devices exist and are active",
        |ck| {
            let mut devices: Vec<String> = Vec::new();
            for t in &plan.header.targets {
                match t {
                    Target::Device { device }
                    | Target::Interface { device, .. }
                    | Target::Peer { device, .. } => devices.push(device.clone()),
                    Target::Link {
                        device_a, device_b, ..
                    } => devices.extend([device_a.clone(), device_b.clone()]),
                }
            }
            devices.extend(plan.implementation.iter().map(|b| b.device.clone()));
            devices.sort();
            devices.dedup();
            {
                for d in devices {
                    match st.devices.get(&d) {
                        None => ck.add(
                            Severity::Error,
                            &d,
                            "device is not in the state DB",
                            "check the name; was it decommissioned since the plan was drafted?",
                        ),
                        Some((status, _, _)) if status != "active" => ck.add(
                            Severity::Warning,
                            &d,
                            format!("device status is '{status}', not active"),
                            "confirm the device is in service before the window",
                        ),
                        Some(_) => {}
                    }
                }
            }
            Ok(Applies::Ran)
        },
    )?;
    ck.check(
        "precheck.interfaces",
        "interfaces exist and, for additions, are free",
        |ck| {
            if !plan
                .header
                .targets
                .iter()
                .any(|t| matches!(t, Target::Interface { .. } | Target::Link { .. }))
            {
                return Ok(Applies::NotApplicable);
            }
            for t in &plan.header.targets {
                let ends: Vec<(&String, &String)> = match t {
                    Target::Interface { device, interface } => vec![(device, interface)],
                    Target::Link {
                        device_a,
                        interface_a,
                        device_b,
                        interface_b,
                    } => vec![(device_a, interface_a), (device_b, interface_b)],
                    _ => Vec::new(),
                };
                for (d, i) in ends {
                    if !st.devices.contains_key(d) {
                        continue;
                    }
                    let Some((real, _)) = st.iface(d, i)? else {
                        ck.add(
                        Severity::Error,
                        format!("{d} {i}"),
                        "interface does not exist",
                        "check the interface name against `olav state show interfaces --device`",
                    );
                        continue;
                    };
                    if adding {
                        let addrs: Vec<String> = st
                            .addresses_on(d, &real)?
                            .iter()
                            .map(|a| a.to_string())
                            .collect();
                        if !addrs.is_empty() {
                            ck.add(
                                Severity::Error,
                                format!("{d} {real}"),
                                format!("interface is not free: it has {}", addrs.join(", ")),
                                "pick another free interface (re-draft the plan)",
                            );
                        }
                        if st.is_linked(d, &real)? {
                            ck.add(
                                Severity::Error,
                                format!("{d} {real}"),
                                "interface is not free: a link ends on it",
                                "pick another free interface (re-draft the plan)",
                            );
                        }
                    }
                }
            }
            Ok(Applies::Ran)
        },
    )?;
    // The plan's configuration, parsed with the importer's own parsers.
    let blocks: Vec<(String, crate::model::DeviceConfig, &str)> = plan
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
    let cand = candidate::Candidate::build(db, &plan)?;
    ck.check(
        "precheck.addresses",
        "new addresses duplicate and overlap nothing",
        |ck| {
            if !blocks
                .iter()
                .any(|(_, c, _)| c.interfaces.iter().any(|i| !i.addresses.is_empty()))
            {
                return Ok(Applies::NotApplicable);
            }
            for (dev, cfg, _) in &blocks {
                for i in &cfg.interfaces {
                    let vrf = match &i.vrf {
                        Some(v) => v.clone(),
                        None => st
                            .iface(dev, &i.name)?
                            .map_or_else(|| "default".into(), |(_, v)| v),
                    };
                    for a in i
                        .addresses
                        .iter()
                        .filter(|a| a.kind != AddressKind::Virtual)
                    {
                        for (h, ifn, v, existing) in st.all_addresses()? {
                            let same_place = h == dev && crate::ifname::same(&i.name, ifn);
                            if same_place {
                                continue;
                            }
                            if existing.addr() == a.address.addr() {
                                ck.add(
                                    Severity::Error,
                                    format!("{dev} {}", i.name),
                                    format!(
                                        "{} is already configured on {h} {ifn}",
                                        a.address.addr()
                                    ),
                                    "choose an unused address",
                                );
                            } else if *v == vrf
                                && (existing.contains(&a.address.network())
                                    || a.address.contains(&existing.network()))
                            {
                                if existing.trunc() == a.address.trunc()
                                    && a.address.prefix_len() >= 30
                                {
                                    ck.add(
                                        Severity::Info,
                                        format!("{dev} {}", i.name),
                                        format!(
                                            "{} joins the link subnet of {h} {ifn} ({existing})",
                                            a.address
                                        ),
                                        "intended: the other end of the new link",
                                    );
                                } else {
                                    ck.add(
                                        Severity::Error,
                                        format!("{dev} {}", i.name),
                                        format!(
                                            "{} overlaps {existing} on {h} {ifn} (vrf {v})",
                                            a.address
                                        ),
                                        "allocate a subnet that overlaps nothing",
                                    );
                                }
                            }
                        }
                    }
                }
            }
            Ok(Applies::Ran)
        },
    )?;
    ck.check("precheck.new_neighbors", "new BGP neighbors are reachable, match the peer's AS and are new", |ck| {
        // New: on the device as the plan leaves it, not on it before (settings inherited
        // from peer-groups included); a plan that re-adds what exists adds nothing.
        let mut new_neighbors: Vec<(String, crate::model::BgpNeighbor)> = Vec::new();
        for d in &cand.touched {
            let Some(x) = cand.devices.get(d) else { continue };
            let Some(after) = &x.cand.bgp else { continue };
            for n in after.neighbors.iter().filter(|n| !n.shutdown) {
                let before = x
                    .base
                    .bgp
                    .as_ref()
                    .and_then(|b| b.neighbors.iter().find(|o| o.peer == n.peer && o.vrf == n.vrf));
                match before {
                    None => new_neighbors.push((d.clone(), n.clone())),
                    Some(o) if o.peer_asn != n.peer_asn && o.peer_asn.is_some() => ck.add(
                        Severity::Error,
                        format!("{d} neighbor {}", n.peer),
                        format!(
                            "the plan changes the remote AS of an existing session from {} to {}",
                            o.peer_asn.map_or("none".into(), |a| format!("AS{a}")),
                            n.peer_asn.map_or("none".into(), |a| format!("AS{a}"))
                        ),
                        "remove the neighbor first, or leave its remote-as as it is",
                    ),
                    Some(_) => {}
                }
            }
        }
        if new_neighbors.is_empty() {
            return Ok(Applies::NotApplicable);
        }
        for (dev, n) in &new_neighbors {
            let dev = dev.clone();
            let dev = &dev;
            let Some(cfg) = cand.devices.get(dev).map(|x| &x.cand) else { continue };
            let BgpPeer::Address(peer) = n.peer else { continue };
            {
                let el = format!("{dev} neighbor {peer}");
                let connected = cfg
                    .interfaces
                    .iter()
                    .flat_map(|i| i.addresses.iter())
                    .map(|a| a.address)
                    .chain(st.all_addresses()?.iter().filter(|a| a.0 == *dev).map(|a| a.3))
                    .any(|a| a.contains(&peer));
                let ibgp = n.peer_asn.is_some() && n.peer_asn == st.devices.get(dev).and_then(|d| d.2);
                if !connected && !((n.ebgp_multihop.is_some() || ibgp) && n.update_source.is_some()) {
                    ck.add(Severity::Error, &el, "the peer is in no connected subnet of the device, and the session has no ebgp-multihop with update-source", "put the neighbor in the new interface's subnet, or add ebgp-multihop and update-source");
                }
                let known: Vec<u32> = st
                    .sessions
                    .iter()
                    .filter(|s| {
                        s.1 == peer.to_string()
                            || n.description.as_deref().zip(s.3.as_deref()).is_some_and(|(a, b)| {
                                a.split_whitespace().next().map(str::to_ascii_lowercase) == b.split_whitespace().next().map(str::to_ascii_lowercase)
                            })
                    })
                    .filter_map(|s| s.2)
                    .collect();
                if let (Some(asn), Some(k)) = (n.peer_asn, known.first()) {
                    if !known.contains(&asn) {
                        ck.add(Severity::Error, &el, format!("remote-as {asn}, but the state DB knows this peer as AS{k}"), format!("use remote-as {k}"));
                    }
                }
                // A new eBGP session needs filters both ways, or it accepts and announces
                // everything (a route leak between providers).
                let local_as = st.devices.get(dev).and_then(|d| d.2);
                if n.peer_asn.is_some() && n.peer_asn != local_as {
                    let cand_n = cand
                        .devices
                        .get(dev)
                        .and_then(|d| d.cand.bgp.as_ref())
                        .and_then(|b| b.neighbors.iter().find(|x| x.peer == n.peer));
                    let text = blocks
                        .iter()
                        .filter(|(d, _, _)| d == dev)
                        .map(|(_, _, t)| *t)
                        .collect::<Vec<_>>()
                        .join("\n");
                    let filtered = |dir: &str| {
                        let by_map = cand_n.is_some_and(|x| {
                            if dir == "in" {
                                x.route_map_in.is_some()
                            } else {
                                x.route_map_out.is_some()
                            }
                        });
                        by_map
                            || text.lines().any(|l| {
                                let w: Vec<&str> = l.split_whitespace().collect();
                                w.last() == Some(&dir)
                                    && w.iter().any(|x| {
                                        matches!(*x, "route-map" | "prefix-list" | "filter-list" | "distribute-list")
                                    })
                                    && (l.contains(&peer.to_string()) || !l.trim_start().starts_with("neighbor"))
                            })
                    };
                    let missing: Vec<&str> = ["in", "out"].into_iter().filter(|d| !filtered(d)).collect();
                    if !missing.is_empty() {
                        ck.add(
                            Severity::Warning,
                            &el,
                            format!(
                                "new eBGP session with no {} filter: it {}",
                                missing.join(" and no "),
                                match missing.as_slice() {
                                    ["in"] => "accepts every route the peer sends",
                                    ["out"] => "announces every route the device has (a route leak)",
                                    _ => "accepts and announces everything (a route leak between providers)",
                                }
                            ),
                            "add inbound and outbound route-maps or prefix-lists, and maximum-prefix, in the same plan",
                        );
                    }
                }
                // A peer inside the network: its AS is its device's, and it must peer back.
                let owner = st
                    .all_addresses()?
                    .iter()
                    .find(|a| a.3.addr() == peer && a.0 != *dev)
                    .map(|a| (a.0.clone(), a.1.clone()));
                if let Some((owner, ifname)) = owner {
                    let owner_as = st.devices.get(&owner).and_then(|d| d.2);
                    if let (Some(asn), Some(oa)) = (n.peer_asn, owner_as) {
                        if asn != oa {
                            ck.add(Severity::Error, &el, format!("{peer} is {owner} {ifname}, in AS{oa}, not AS{asn}"), format!("use remote-as {oa}, or the address of the intended peer"));
                        }
                    }
                    // Our end of this session: the update-source's address, else the
                    // connected interface's, on the device as the plan leaves it.
                    let ours: Vec<String> = cand
                        .devices
                        .get(dev)
                        .map(|d| {
                            d.cand
                                .interfaces
                                .iter()
                                .filter(|i| match &n.update_source {
                                    Some(src) => crate::ifname::same(src, &i.name),
                                    None => i.addresses.iter().any(|a| a.address.contains(&peer)),
                                })
                                .flat_map(|i| i.addresses.iter().map(|a| a.address.addr().to_string()))
                                .collect()
                        })
                        .unwrap_or_default();
                    let back_stored = st.sessions.iter().any(|s| s.0 == owner && ours.contains(&s.1));
                    let back_planned = blocks.iter().any(|(d, c, _)| {
                        *d == owner
                            && c.bgp.as_ref().is_some_and(|b| b.neighbors.iter().any(|x| ours.contains(&x.peer.to_string())))
                    });
                    if !back_stored && !back_planned {
                        ck.add(Severity::Warning, &el, format!("{owner} has no neighbor back to {dev}: the session stays half-open until {owner} is configured too"), format!("add the neighbor on {owner} in the same plan"));
                    }
                }
            }
        }
        Ok(Applies::Ran)
    })?;
    ck.check(
        "precheck.sessions_relied_on",
        "sessions the plan relies on are up",
        |ck| {
            if plan.header.intent != "add_uplink" {
                return Ok(Applies::NotApplicable);
            }
            for t in &plan.header.targets {
                let Target::Peer {
                    asn: Some(asn),
                    name,
                    ..
                } = t
                else {
                    continue;
                };
                for (h, p, _, _) in st.sessions.iter().filter(|s| s.2 == Some(*asn)) {
                    if let Some(state) = st.observed.get(&(h.clone(), p.clone())) {
                        if !state.eq_ignore_ascii_case("established") {
                            ck.add(
                                Severity::Error,
                                format!("{h} neighbor {p}"),
                                format!(
                                "the existing session to {} (AS{asn}) is {state}, not Established",
                                name.as_deref().unwrap_or("the peer")
                            ),
                                "find out why before adding a redundant session to the same peer",
                            );
                        }
                    }
                }
            }
            Ok(Applies::Ran)
        },
    )?;
    ck.check(
        "precheck.references",
        "route-maps and prefix-lists referenced exist",
        |ck| {
            if blocks.iter().all(|(_, c, _)| c.references.is_empty()) {
                return Ok(Applies::NotApplicable);
            }
            for (dev, cfg, _) in &blocks {
                for r in &cfg.references {
                    let kind = r.kind.as_str();
                    let in_state = st.is_defined(dev, kind, &r.name)?;
                    let in_plan = cfg
                        .structures
                        .iter()
                        .any(|s| s.kind == r.kind && s.name == r.name);
                    if !in_state && !in_plan {
                        ck.add(
                            Severity::Error,
                            dev,
                            format!(
                                "{kind} {} ({}) is not defined on the device or in the plan",
                                r.name, r.context
                            ),
                            format!(
                                "define {kind} {} in the plan, or reference an existing one",
                                r.name
                            ),
                        );
                    }
                }
            }
            Ok(Applies::Ran)
        },
    )?;
    ck.check(
        "precheck.links",
        "links the plan touches stay up (or go down only where the plan shuts a port), share a subnet and are routed or switched at both ends",
        |ck| {
            if cand.links.is_empty() {
                return Ok(Applies::NotApplicable);
            }
            for l in &cand.lost_links {
                let el = format!("{}:{} – {}:{}", l.a.0, l.a.1, l.b.0, l.b.1);
                if l.cause == candidate::Cause::Down {
                    ck.add(
                        Severity::Info,
                        el,
                        format!("link taken down by the plan: {}", l.detail),
                        "counted in the blast radius",
                    );
                } else {
                    ck.add(
                        Severity::Error,
                        el,
                        format!("the plan breaks this link: {}", l.detail),
                        "change both ends together, or plan the link's removal explicitly",
                    );
                }
            }
            Ok(Applies::Ran)
        },
    )?;
    // A switched port the plan shuts may be the only layer-2 path of the device's SVIs:
    // olav does not model layer-2 paths, so it says so and names them.
    for (d, ifn) in &cand.shut {
        let Some(dev) = cand.devices.get(d) else {
            continue;
        };
        let Some(port) = dev.base.interfaces.iter().find(|i| i.name == *ifn) else {
            continue;
        };
        if port.switchport_mode.is_none() {
            continue;
        }
        let carried = |vlan: u32| match (&port.trunk_vlans, port.access_vlan) {
            (Some(list), _) => vlan_list_contains(list, vlan),
            (None, Some(a)) => a == vlan,
            (None, None) => true,
        };
        let svis: Vec<String> = dev
            .base
            .interfaces
            .iter()
            .filter(|i| i.admin_up && !i.addresses.is_empty())
            .filter_map(|i| {
                let n = i.name.to_ascii_lowercase();
                let vlan: u32 = n.strip_prefix("vlan")?.parse().ok()?;
                carried(vlan).then(|| i.name.clone())
            })
            .collect();
        if !svis.is_empty() {
            ck.add_as(
                "precheck.links",
                Severity::Warning,
                format!("{d} {ifn}"),
                format!(
                    "a switched port that carries the VLANs of {}: if it is their only layer-2 path, they and what rides them (BGP sessions, gateways) go — olav does not model layer-2 paths",
                    svis.join(", ")
                ),
                "check the VLANs have another path (`show spanning-tree`, `show vlan`) before the window",
            );
        }
    }
    ck.check("precheck.mtu", "MTU equal at both ends of links the plan touches", |ck| {
        let changes_mtu = cand.touched.iter().any(|d| {
            cand.devices.get(d).is_some_and(|x| {
                x.base
                    .interfaces
                    .iter()
                    .zip(&x.cand.interfaces)
                    .any(|(a, b)| a.mtu != b.mtu)
            })
        });
        if cand.links.is_empty() || !changes_mtu {
            return Ok(Applies::NotApplicable);
        }
        for m in &cand.mtu {
            // A mismatch that was there before and is no wider after is the network's,
            // not the plan's; one the plan widens is the plan's.
            let wider = m
                .before
                .is_some_and(|(here, there)| m.changed.2.abs_diff(m.far.2) > here.abs_diff(there));
            if let Some((here, there)) = m.before.filter(|_| !wider) {
                ck.add(
                    Severity::Warning,
                    format!("{} {}", m.changed.0, m.changed.1),
                    format!(
                        "MTU {} here, {} at the far end {} {}: the ends already differed before the plan ({here} and {there}) and still differ after it",
                        m.changed.2, m.far.2, m.far.0, m.far.1
                    ),
                    format!("set MTU {} on {} {} too, or make the ends equal in this plan", m.changed.2, m.far.0, m.far.1),
                );
                continue;
            }
            ck.add(
                Severity::Error,
                format!("{} {}", m.changed.0, m.changed.1),
                format!(
                    "MTU {} here, {} at the far end {} {}: OSPF adjacencies stall in EXSTART and large packets are dropped",
                    m.changed.2, m.far.2, m.far.0, m.far.1
                ),
                format!("set MTU {} on {} {} in the same plan, or keep the MTUs equal", m.changed.2, m.far.0, m.far.1),
            );
        }
        Ok(Applies::Ran)
    })?;
    ck.check("precheck.sessions_lost", "BGP sessions the plan ends are the ones it means to end", |ck| {
        let touches_bgp = cand
            .touched
            .iter()
            .any(|d| cand.devices.get(d).is_some_and(|x| x.base.bgp.is_some()));
        if !touches_bgp && cand.lost_sessions.is_empty() && cand.route_unknown.is_empty() {
            return Ok(Applies::NotApplicable);
        }
        let removal = plan.header.intent.starts_with("decommission")
            || plan.header.intent == "remove_session";
        for s in &cand.lost_sessions {
            let el = format!("{} → {}", s.device, s.peer);
            if removal {
                ck.add(Severity::Info, el, "session ended by the plan", "counted in the blast radius");
            } else if s.cause == candidate::Cause::NeighborRemoved {
                // Only a removal request ends a session by removing or shutting its
                // neighbor: anything else that does is wider than its request.
                ck.add(
                    Severity::Error,
                    el,
                    format!("the plan removes or shuts this existing neighbor, which its request ({}) does not ask for: a plan wider than its request", plan.header.intent),
                    "remove those lines, or plan the session's removal on its own",
                );
            } else if !cand.shut.is_empty() {
                // Declared by the shutdown, but worth a look: routing over it goes.
                ck.add(
                    Severity::Warning,
                    el,
                    "the session ends with the interface the plan shuts",
                    "move what the session carries first, or confirm it is redundant",
                );
            } else if s.cause == candidate::Cause::RouteGone {
                ck.add(
                    Severity::Error,
                    el,
                    "the session is lost as a side effect: the static route that reached its peer is removed, and no other route olav knows of (connected, static; the device runs no IGP) reaches it",
                    "keep a route to the peer, or move the session in the same plan",
                );
            } else {
                ck.add(
                    Severity::Error,
                    el,
                    "the session is lost as a side effect: its local or peer address is no longer on an active interface",
                    "keep the session's addresses, or move the session in the same plan",
                );
            }
        }
        for (s, route) in &cand.route_unknown {
            ck.add(
                Severity::Warning,
                format!("{} → {}", s.device, s.peer),
                format!(
                    "the static route that reached this session's peer ({route}) is removed; the device runs an IGP, whose routes olav does not model, so whether the session stays up is unknown"
                ),
                format!("check `show ip route {}` on {} before the window", s.peer, s.device),
            );
        }
        Ok(Applies::Ran)
    })?;
    ck.check(
        "precheck.static_routes",
        "static routes are new, not connected, resolvable; removed ones exist",
        |ck| {
            let texts: Vec<(String, String, &str)> = plan
                .implementation
                .iter()
                .map(|b| (b.device.clone(), b.os.clone(), b.text.as_str()))
                .collect();
            match routes::check(ck.db, &cand, &texts) {
                None => Ok(Applies::NotApplicable),
                Some(found) => {
                    ck.findings.extend(found);
                    Ok(Applies::Ran)
                }
            }
        },
    )?;
    ck.check(
        "precheck.rollback",
        "the rollback restores every device the plan configures",
        |ck| {
            if plan.implementation.is_empty() {
                return Ok(Applies::NotApplicable);
            }
            let targets: std::collections::BTreeSet<&str> = plan
                .header
                .targets
                .iter()
                .flat_map(|t| match t {
                    Target::Device { device }
                    | Target::Interface { device, .. }
                    | Target::Peer { device, .. } => vec![device.as_str()],
                    Target::Link {
                        device_a, device_b, ..
                    } => vec![device_a.as_str(), device_b.as_str()],
                })
                .collect();
            let decommission = plan.header.intent.starts_with("decommission");
            let devices: std::collections::BTreeSet<&str> =
                plan.implementation.iter().map(|b| b.device.as_str()).collect();
            for d in devices {
                if !decommission && !targets.contains(d) {
                    ck.add(
                        Severity::Warning,
                        d,
                        "the plan configures this device, which its header's targets do not name (edited after drafting?)",
                        "re-draft the plan, or review every block by hand",
                    );
                }
                let Some(text) = ck.db.config_text(d)? else {
                    continue;
                };
                let os = plan
                    .implementation
                    .iter()
                    .find(|b| b.device == d)
                    .map_or("ios", |b| b.os.as_str());
                let lines = |blocks: &[crate::plan::ConfigBlock]| {
                    blocks
                        .iter()
                        .filter(|b| b.device == d)
                        .map(|b| format!("\n{}\n", b.text))
                        .collect::<String>()
                };
                let rollback = lines(&plan.rollback);
                if rollback.trim().is_empty() {
                    ck.add(
                        Severity::Error,
                        d,
                        "the plan configures this device and has no rollback for it",
                        "add the rollback block (the lines that restore the stored config)",
                    );
                    continue;
                }
                let parser = parser_for(Vendor::from_os(os));
                let before = sections(&parser.parse(&text));
                let after = sections(&parser.parse(&format!(
                    "{text}{}{rollback}",
                    lines(&plan.implementation)
                )));
                let differ: Vec<&str> = before
                    .iter()
                    .zip(&after)
                    .filter(|(a, b)| a.1 != b.1)
                    .map(|(a, _)| a.0)
                    .collect();
                if !differ.is_empty() {
                    ck.add(
                        Severity::Error,
                        d,
                        format!(
                            "the plan followed by its rollback does not give back the stored configuration: {} differ",
                            differ.join(", ")
                        ),
                        "make the rollback undo every line of the implementation",
                    );
                }
            }
            Ok(Applies::Ran)
        },
    )?;
    ck.check("precheck.as_drafted", "the configuration is the one olav drafted for the request", |ck| {
        if plan.header.drafted.is_empty() {
            return Ok(Applies::NotApplicable);
        }
        if plan.header.drafted != plan.config_digest() {
            ck.add(
                Severity::Warning,
                "implementation",
                "the implementation or rollback differs from what olav drafted for the request: lines edited by hand are checked only where a check covers them (addresses, links, sessions, static routes, MTU, announcements); ACLs, IGP settings and the rest are not",
                "review every edited line, or draft the plan again",
            );
        }
        Ok(Applies::Ran)
    })?;
    ck.check(
        "precheck.scope",
        "the configuration stays within what the request names",
        |ck| match scope::check(&plan) {
            None => Ok(Applies::NotApplicable),
            Some(found) => {
                ck.findings.extend(found);
                Ok(Applies::Ran)
            }
        },
    )?;
    ck.check("precheck.registered_file", "the file is the plan registered under its id", |ck| {
        let Some(registered) = ck.db.plan(&plan.header.plan_id)? else {
            return Ok(Applies::NotApplicable);
        };
        let here = crate::state::plans::canonical(plan_path);
        if crate::state::plans::canonical(&registered.path) != here {
            ck.add(
                Severity::Error,
                plan_path,
                format!(
                    "plan id {} is registered for {}; this is another file with the same id, so its result is not recorded against that plan",
                    plan.header.plan_id, registered.path
                ),
                "pre-check the registered file, or give this file a plan id of its own",
            );
        }
        Ok(Applies::Ran)
    })?;
    ck.check("precheck.plan_conflict", "no conflict with other open plans", |ck| {
        let others = ck.db.claims_of_other_open_plans(&plan.header.plan_id)?;
        if others.is_empty() {
            // No other open plan claims anything: nothing to conflict with.
            return Ok(Applies::Ran);
        }
        let mine = crate::plan::claims::claims(&plan);
        let has = |kind: &str, dev: &str, el: &str| {
            mine.iter()
                .any(|c| c.kind == kind && c.device == dev && c.element == el)
        };
        // A plan claiming exactly what this one claims is the same change drafted twice
        // (the same request asked again): said once, not as a conflict per element.
        type ClaimSet<'a> = std::collections::BTreeSet<(&'a str, &'a str, &'a str)>;
        let my_set: ClaimSet = mine
            .iter()
            .map(|c| (c.kind, c.device.as_str(), c.element.as_str()))
            .collect();
        let mut by_plan: BTreeMap<&str, (&str, ClaimSet)> = BTreeMap::new();
        for o in &others {
            by_plan
                .entry(o.plan_id.as_str())
                .or_insert_with(|| (o.path.as_str(), Default::default()))
                .1
                .insert((o.kind.as_str(), o.device.as_str(), o.element.as_str()));
        }
        let duplicates: Vec<&str> = by_plan
            .iter()
            .filter(|(_, (_, set))| !my_set.is_empty() && *set == my_set)
            .map(|(id, _)| *id)
            .collect();
        for id in &duplicates {
            let path = by_plan.get(id).map_or("", |p| p.0);
            ck.add(
                Severity::Warning,
                plan_path,
                format!("plan {id} ({path}) drafts the same change: a duplicate"),
                format!("keep one: olav plans withdraw {id}"),
            );
        }
        let mut seen: BTreeMap<(String, String), (Severity, String)> = BTreeMap::new();
        for o in others.iter().filter(|o| !duplicates.contains(&o.plan_id.as_str())) {
            let (id, kind, dev, el) = (&o.plan_id, &o.kind, &o.device, &o.element);
            let other = format!("plan {id} ({})", o.path);
            let hit = match kind.as_str() {
                "address" if has("address", dev, el) => Some((
                    Severity::Error,
                    format!("address {el}"),
                    format!("{other} assigns the same address"),
                )),
                "subnet" if has("subnet", dev, el) => Some((
                    Severity::Error,
                    format!("subnet {el}"),
                    format!("{other} uses the same subnet"),
                )),
                "session" if has("session", dev, el) => Some((
                    Severity::Error,
                    format!("{dev} neighbor {el}"),
                    format!("{other} configures the same BGP session"),
                )),
                "addresses" if has("addresses", dev, el) => Some((
                    Severity::Error,
                    format!("{dev} {el}"),
                    format!("{other} addresses the same interface"),
                )),
                "interface" if has("interface", dev, el) => Some((
                    Severity::Warning,
                    format!("{dev} {el}"),
                    format!("{other} changes the same interface"),
                )),
                "removes" if has("configures", dev, "") => Some((
                    Severity::Error,
                    dev.clone(),
                    format!("{other} removes this device, which this plan configures"),
                )),
                "configures" if has("removes", dev, "") => Some((
                    Severity::Error,
                    dev.clone(),
                    format!("this plan removes the device {other} configures"),
                )),
                _ => None,
            };
            if let Some((sev, el, msg)) = hit {
                // One finding per element and plan: the most severe.
                let key = (el, id.clone());
                match seen.get(&key) {
                    Some((s, _)) if *s <= sev => {}
                    _ => {
                        seen.insert(key, (sev, msg));
                    }
                }
            }
        }
        for ((el, _), (sev, msg)) in seen {
            let hint = if sev == Severity::Error {
                "both cannot be applied as drafted: withdraw one, or re-draft it after the other"
            } else {
                "apply one, re-import, then re-check the other"
            };
            ck.add(sev, el, msg, hint);
        }
        Ok(Applies::Ran)
    })?;
    ck.check("precheck.drift", "drafted against the current state version", |ck| {
        let v = plan.header.state_version;
        if v == state_version {
            return Ok(Applies::Ran);
        }
        // What the plan depends on: the devices it targets or configures, the far ends
        // of the links it touches, the far ends of the sessions it changes.
        let mut deps: std::collections::BTreeSet<String> =
            crate::state::plans::plan_devices(&plan).into_iter().collect();
        deps.extend(cand.touched_link_ends());
        deps.extend(cand.lost_sessions.iter().map(|s| s.device.clone()));
        match ck.db.changed_since(v)? {
            None => ck.add(
                Severity::Warning,
                "state",
                format!("the plan was drafted against state version {v}, which is no longer known (now {state_version})"),
                "re-read the plan against the current state, or re-draft it",
            ),
            Some(c) => {
                let hit = |v: &[String]| -> Vec<String> {
                    v.iter().filter(|d| deps.contains(*d)).cloned().collect()
                };
                let (changed, removed) = (hit(&c.changed), hit(&c.removed));
                let elsewhere = c.changed.len() + c.removed.len() + c.added.len()
                    - changed.len()
                    - removed.len();
                let mut parts = Vec::new();
                if !changed.is_empty() {
                    parts.push(format!("config changed on {}", changed.join(", ")));
                }
                if !removed.is_empty() {
                    parts.push(format!("gone: {}", removed.join(", ")));
                }
                if parts.is_empty() {
                    ck.add(
                        Severity::Info,
                        "state",
                        format!("the state moved from version {v} to {state_version}; {elsewhere} device(s) changed, none that this plan depends on"),
                        "nothing to do",
                    );
                } else {
                    ck.add(
                        Severity::Warning,
                        "state",
                        format!("the plan was drafted against state version {v}, the state is now version {state_version}: {}", parts.join("; ")),
                        "re-read the plan against the changes, or re-draft it",
                    );
                }
            }
        }
        Ok(Applies::Ran)
    })?;
    ck.check("precheck.freshness", "state is fresh", |ck| {
        let Some(at) = st.collected_at.as_deref() else {
            ck.add(
                Severity::Warning,
                "state",
                "the state has no collected_at time",
                "set collected_at in state.yaml",
            );
            return Ok(Applies::NotApplicable);
        };
        if let Ok(t) = chrono::DateTime::parse_from_rfc3339(at) {
            let age = chrono::Utc::now().signed_duration_since(t);
            if age > opts.max_age {
                ck.add(
                    Severity::Warning,
                    "state",
                    format!("the state was collected {} days ago ({at})", age.num_days()),
                    "import a fresh snapshot before the window",
                );
            }
        }
        Ok(Applies::Ran)
    })?;
    // The blast radius, recomputed from the plan's targets and configuration.
    let g = blast::Graph::load(db)?;
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
    // What the candidate network loses: shut interfaces, links whose ends no longer
    // meet, sessions that end at either side.
    for (d, i) in &cand.shut {
        spec.interfaces.push((d.clone(), i.clone()));
    }
    for l in cand
        .lost_links
        .iter()
        .filter(|l| l.cause != candidate::Cause::Down)
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
    let b = g.blast(&spec);
    let recomputed = b.number();
    ck.check("precheck.blast_claim", "the claimed blast radius matches the recomputed one", |ck| {
        match plan.claimed_blast_radius {
            None => ck.add(Severity::Error, "blast radius", format!("the plan quotes no blast-radius number; recomputed: {recomputed}"), "add 'Blast-radius number: N' to the Blast radius section"),
            Some(c) if c as usize != recomputed => ck.add(
                Severity::Error,
                "blast radius",
                format!("the plan claims {c}, recomputed independently: {recomputed} (removed {} + isolated {})", b.removed.len(), b.isolated.len()),
                "correct the plan's number and its Summary and Risks, or re-draft it",
            ),
            Some(_) => {}
        }
        Ok(Applies::Ran)
    })?;
    let removed_devices: Vec<String> = if plan.header.intent == "decommission_device" {
        plan.header
            .targets
            .iter()
            .filter_map(|t| match t {
                Target::Device { device } => Some(device.clone()),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let ann = announce::evaluate(db, &cand, &removed_devices)?;
    let mut b = b;
    ck.check("precheck.announcements", "every prefix announced to a provider before is announced after", |ck| {
        if ann.before.is_empty() && ann.after.is_empty() {
            return Ok(Applies::NotApplicable);
        }
        let removal = plan.header.intent.starts_with("decommission") || plan.header.intent == "remove_session";
        for p in ann.withdrawn() {
            let was: Vec<String> = ann
                .before
                .iter()
                .filter(|s| s.prefixes.contains(&p))
                .map(|s| format!("{} → {}{}", s.device, s.peer, s.peer_asn.map(|a| format!(" (AS{a})")).unwrap_or_default()))
                .collect();
            ck.add(
                if removal { Severity::Warning } else { Severity::Error },
                format!("prefix {p}"),
                format!("no provider hears {p} after the plan (announced before via {}): it is withdrawn from the internet", was.join(", ")),
                "keep another session announcing it, or accept the outage for what lives in it",
            );
        }
        for (d, peer, p) in ann.newly_announced() {
            ck.add(
                Severity::Error,
                format!("{d} → {peer}"),
                format!("the plan makes {d} announce {p} to {peer}, which it did not before (an undeclared wider announcement: a route leak if {peer} is a provider)"),
                "keep the outbound policy as it was, or declare the new announcement in its own plan",
            );
        }
        // An unknown the plan neither causes nor touches (the same before, and the plan's
        // lines on that device name neither the session nor any routing policy) is not
        // this plan's finding: the table still says it.
        let touches = |s: &announce::Sent| {
            plan.implementation.iter().any(|b| {
                b.device == s.device
                    && (b.text.contains(&s.peer)
                        || ["route-map", "prefix-list", "policy-options", " export", " import"]
                            .iter()
                            .any(|w| b.text.contains(w)))
            })
        };
        for (s, same_before) in ann.unknown_after() {
            if same_before && !touches(s) {
                continue;
            }
            ck.add(
                Severity::Warning,
                "announcements",
                format!(
                    "what {} → {}: {}: olav cannot tell what is announced there",
                    s.device,
                    s.peer,
                    s.unknown.as_deref().unwrap_or_default()
                ),
                "check the outbound policy by hand",
            );
        }
        Ok(Applies::Ran)
    })?;
    // Subnets the plan's new addresses leave behind: their hosts lose their gateway.
    let (left, moved) = readdressing(db, &cand)?;
    for l in &left {
        ck.add_as(
            "precheck.readdressed",
            Severity::Warning,
            format!("{} {}", l.device, l.interface),
            match l.kept {
                None => format!(
                    "leaves {}, which no other interface has: hosts there lose their gateway",
                    l.subnet
                ),
                Some(k) => format!(
                    "narrows {} to {k}: hosts outside {k} lose their gateway",
                    l.subnet
                ),
            },
            "re-address the hosts in the same window, or keep the subnet on another interface",
        );
    }
    for (d, i, from, to) in &moved {
        ck.add_as(
            "precheck.readdressed",
            Severity::Warning,
            format!("{d} {i}"),
            format!("the gateway address moves from {from} to {to} in the same subnet, and no HSRP/VRRP address stands in for it: hosts configured with {from} lose their gateway"),
            "hand out the new gateway (DHCP) before the window, or keep the old address as a secondary",
        );
    }
    // Services that live in withdrawn prefixes or in subnets left behind, and internet
    // services whose border no longer announces anything.
    let withdrawn = ann.withdrawn();
    if !withdrawn.is_empty() || !left.is_empty() {
        let silent: Vec<&str> = ann
            .before
            .iter()
            .filter(|s| !s.prefixes.is_empty())
            .map(|s| s.device.as_str())
            .filter(|d| {
                !ann.after
                    .iter()
                    .any(|a| a.device == *d && !a.prefixes.is_empty())
            })
            .collect();
        for hit in service_hits(db, &withdrawn, &silent, &left)? {
            // Hit twice (cut off and withdrawn): the larger loss stands.
            match b.services.iter_mut().find(|x| x.name == hit.name) {
                Some(x) => x.remaining = x.remaining.min(hit.remaining),
                None => b.services.push(hit),
            }
        }
        b.services.sort_by(|x, y| x.name.cmp(&y.name));
    }
    report.announcements = Some(ann);
    // Sessions the recomputed blast radius loses that the candidate did not end itself:
    // the change splits the network between their two ends.
    for lost in &b.sessions_split {
        let ended_here = cand
            .lost_sessions
            .iter()
            .any(|s| format!("{} → {}", s.device, s.peer) == *lost);
        if !ended_here {
            ck.add_as(
                "precheck.sessions_lost",
                Severity::Warning,
                lost.clone(),
                "no path is left between the two ends of this session: the change splits the network",
                "keep a second path between the two parts, or accept that routing between them stops",
            );
        }
    }
    if g.anchor_count() == 0 {
        ck.add_as(
            "precheck.blast_unknown",
            Severity::Warning,
            "blast radius",
            "no device has a border or core role and no external peer is known: which devices the change cuts off cannot be computed (isolation is unknown, not none)",
            "give the devices roles in state.yaml (border, core, distribution, access) and re-import",
        );
    }
    if !b.unknown.is_empty() {
        ck.add_as(
            "precheck.blast_unknown",
            Severity::Warning,
            "blast radius",
            format!(
                "not in the state DB, left out of the blast radius: {}",
                b.unknown.join(", ")
            ),
            "check the plan's targets",
        );
    }
    if !b.isolated.is_empty() {
        // Cutting devices off is the outage itself, declared or not: never a quiet PASS.
        let shown: Vec<&str> = b.isolated.iter().take(10).map(String::as_str).collect();
        ck.add_as(
            "precheck.isolated",
            Severity::Warning,
            "blast radius",
            format!(
                "{} device(s) cut off from every border, core and external peer: {}{}",
                b.isolated.len(),
                shown.join(", "),
                if b.isolated.len() > shown.len() {
                    ", …"
                } else {
                    ""
                }
            ),
            "confirm each is meant to go dark, or keep a path for it",
        );
    }
    if !b.degraded.is_empty() {
        ck.add_as(
            "precheck.degraded",
            Severity::Warning,
            "blast radius",
            format!("new single point of failure for: {}", b.degraded.join(", ")),
            "make sure the remaining path is healthy before the window",
        );
    }
    // A removal's services are its point: shown, warning for critical and high ones
    // down. Any other plan must declare what it hits (PRODUCT.md): an undeclared
    // service hit is an error.
    let removal =
        plan.header.intent.starts_with("decommission") || plan.header.intent == "remove_session";
    let declared = declared_services(&plan);
    for h in &b.services {
        let (name, crit) = (&h.name, &h.criticality);
        let what = if h.down() {
            format!(
                "{crit} service down: none of its {} endpoint(s) remains",
                h.endpoints
            )
        } else {
            format!(
                "{crit} service degraded: {} of {} endpoints remain",
                h.remaining, h.endpoints
            )
        };
        let code = if h.down() {
            "precheck.service_down"
        } else {
            "precheck.service_degraded"
        };
        if !removal && !declared.iter().any(|d| d == name) {
            ck.add_as(
                code,
                Severity::Error,
                format!("service {name}"),
                format!("{what}, and the plan does not declare it"),
                "declare it in the plan's blast radius, or change the plan so that the service keeps its endpoints",
            );
        } else if !h.down() {
            ck.add_as(
                code,
                Severity::Info,
                format!("service {name}"),
                what,
                "the remaining endpoints carry it; check their capacity",
            );
        } else if crit != "critical" && crit != "high" {
            ck.add_as(
                code,
                Severity::Info,
                format!("service {name}"),
                what,
                "move or announce it if it matters",
            );
        } else {
            ck.add_as(
                code,
                Severity::Warning,
                format!("service {name}"),
                what,
                "move or announce it before the window",
            );
        }
    }
    if plan.header.intent == "add_uplink" {
        if let Some((dev, ifn, asn)) = uplink_target(&plan) {
            let (n0, before) = g.peer_single_points(asn, &[]);
            let (n1, after) = g.peer_single_points(asn, &[(dev.clone(), ifn.clone())]);
            let gone: Vec<&String> = before.iter().filter(|p| !after.contains(p)).collect();
            let fmt = |n: usize, v: &[String]| {
                format!(
                    "{n} session(s); single points of failure: {}",
                    if v.is_empty() {
                        "none".to_owned()
                    } else {
                        v.join(", ")
                    }
                )
            };
            report.redundancy = Some((fmt(n0, &before), fmt(n1, &after)));
            let msg = if gone.is_empty() {
                "the change removes no single point of failure towards the peer".to_owned()
            } else {
                format!(
                    "single point(s) of failure removed: {}",
                    gone.iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            ck.add_as(
                "precheck.redundancy",
                Severity::Info,
                format!("redundancy to AS{asn}"),
                format!(
                    "{msg}; before: {}; after: {}",
                    fmt(n0, &before),
                    fmt(n1, &after)
                ),
                if after.is_empty() {
                    "none".to_owned()
                } else {
                    format!("remaining: {}", after.join(", "))
                },
            );
        }
    }
    let mut findings = ck.findings;
    findings.sort_by_key(|f| f.severity);
    report.verdict = if findings.iter().any(|f| f.severity == Severity::Error) {
        "FAIL"
    } else if findings.iter().any(|f| f.severity == Severity::Warning) {
        "WARN"
    } else {
        "PASS"
    };
    report.findings = findings;
    report.passed = ck.passed;
    report.not_applicable = ck.not_applicable;
    report.blast = Some(b);
    Ok(report)
}

fn uplink_target(plan: &Plan) -> Option<(String, String, u32)> {
    let mut dev_if = None;
    let mut asn = None;
    for t in &plan.header.targets {
        match t {
            Target::Interface { device, interface } => {
                dev_if = Some((device.clone(), interface.clone()))
            }
            Target::Peer { asn: Some(a), .. } => asn = Some(*a),
            _ => {}
        }
    }
    let (d, i) = dev_if?;
    Some((d, i, asn?))
}

impl Report {
    /// Counts by severity.
    pub fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for s in [Severity::Error, Severity::Warning, Severity::Info] {
            m.insert(
                s.as_str(),
                self.findings.iter().filter(|f| f.severity == s).count(),
            );
        }
        m
    }

    fn recommendation(&self) -> &'static str {
        match self.verdict {
            "PASS" => "Proceed to formal verification and the change window.",
            "WARN" => "Review the warnings; proceed only if each is understood and accepted.",
            _ => "Do not proceed: fix the errors (or re-draft the plan) and pre-check again.",
        }
    }

    /// The validation report as Markdown.
    pub fn to_markdown(&self) -> String {
        let c = self.counts();
        let mut s = format!(
            "# Pre-check: {}\n\n",
            if self.title.is_empty() {
                &self.plan
            } else {
                &self.title
            }
        );
        let _ = writeln!(
            s,
            "**Verdict: {}** — {} error(s), {} warning(s), {} info · plan `{}` · state version {}{}\n",
            self.verdict,
            c["error"],
            c["warning"],
            c["info"],
            self.plan,
            self.state_version,
            self.plan_state_version.map(|v| format!(" (drafted against {v})")).unwrap_or_default()
        );
        s.push_str("## Findings\n\n");
        if self.findings.is_empty() {
            s.push_str("None.\n\n");
        } else {
            s.push_str("| severity | element | finding | suggestion |\n|---|---|---|---|\n");
            for f in &self.findings {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} |",
                    f.severity.as_str(),
                    f.element,
                    f.message.replace('|', "/"),
                    f.suggestion.replace('|', "/")
                );
            }
            s.push('\n');
        }
        s.push_str("## Passed\n\nChecks that ran on this plan and found nothing:\n\n");
        for p in &self.passed {
            let _ = writeln!(s, "- {p}");
        }
        if !self.not_applicable.is_empty() {
            s.push_str("\n## Not applicable\n\nChecks that did not run: nothing in this plan is of their kind.\n\n");
            for p in &self.not_applicable {
                let _ = writeln!(s, "- {p}");
            }
        }
        if let Some(b) = &self.blast {
            let _ = writeln!(
                s,
                "\n## Blast radius (recomputed independently)\n\n**{} device(s)** (removed {} + isolated {}); the plan claims {}.\n",
                b.number(),
                b.removed.len(),
                b.isolated.len(),
                self.claimed.map_or("nothing".to_owned(), |n| n.to_string())
            );
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_owned()
                } else {
                    v.join(", ")
                }
            };
            let services: Vec<String> = b.services.iter().map(ToString::to_string).collect();
            s.push_str("| element | affected |\n|---|---|\n");
            for (k, v) in [
                ("Removed", list(&b.removed)),
                ("Isolated", list(&b.isolated)),
                ("Degraded", list(&b.degraded)),
                ("Sessions lost", list(&b.sessions_lost)),
                ("External peers lost", list(&b.peers_lost)),
                ("Prefixes withdrawn", list(&b.prefixes_withdrawn)),
                ("Services affected", list(&services)),
            ] {
                let _ = writeln!(s, "| {k} | {v} |");
            }
        }
        if let Some(a) = &self.announcements {
            if !a.before.is_empty() || !a.after.is_empty() {
                s.push_str("\n## What the internet sees\n\nPrefixes announced to each provider, through its outbound policy:\n\n| session | before | after |\n|---|---|---|\n");
                for [session, before, after] in a.rows() {
                    let _ = writeln!(s, "| {session} | {before} | {after} |");
                }
            }
        }
        if let Some((before, after)) = &self.redundancy {
            let _ = writeln!(
                s,
                "\nRedundancy towards the peer — before: {before}; after: {after}."
            );
        }
        let _ = writeln!(s, "\n## Recommendation\n\n{}", self.recommendation());
        s
    }

    /// The reporter's reply body (without contract lines): verdict first, evidence after.
    pub fn summary(&self) -> String {
        let c = self.counts();
        let mut s = format!(
            "Pre-check {} — {} error(s), {} warning(s), {} info (state version {})\n",
            self.verdict, c["error"], c["warning"], c["info"], self.state_version
        );
        for f in self.findings.iter().take(10) {
            let _ = writeln!(
                s,
                "  {:<7} {}: {}",
                f.severity.as_str(),
                f.element,
                f.message
            );
        }
        if self.findings.len() > 10 {
            let _ = writeln!(s, "  … {} more in the report", self.findings.len() - 10);
        }
        if let Some(b) = &self.blast {
            let services: Vec<String> = b.services.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                s,
                "  blast radius recomputed: {} (removed {}, isolated {}, degraded {}); plan claims {}; services: {}",
                b.number(),
                b.removed.len(),
                b.isolated.len(),
                b.degraded.len(),
                self.claimed.map_or("nothing".to_owned(), |n| n.to_string()),
                if services.is_empty() { "none".to_owned() } else { services.join(", ") }
            );
        }
        let _ = writeln!(s, "  {}", self.recommendation());
        s
    }
}
