//! Junos routing instances and `routing-options`: VRFs, the AS and router ID, static
//! routes per instance and table, and OSPF.

use super::statements::Statement;
use super::{parse_net, Instance, Junos};
use crate::import::parse::common::parse_asn;
use crate::model::{
    AddressKind, Interface, OspfAreaRange, OspfNetwork, OspfNetworkType, OspfProcess,
    RouteActivity, StaticRoute,
};
use ipnet::IpNet;
use std::collections::HashMap;
use std::net::IpAddr;

/// A `static` block: one per routing instance and address family.
pub(super) struct StaticBlock {
    vrf: Option<String>,
    inet6: bool,
    default_preference: Option<u32>,
    default_metric: Option<u32>,
    default_tag: Option<u32>,
    routes: Vec<StaticSpec>,
    index: HashMap<IpNet, usize>,
}

/// Everything configured for one static prefix.
struct StaticSpec {
    prefix: IpNet,
    line: u32,
    next_hops: Vec<(String, u32)>,
    qualified: Vec<(String, Option<u32>, u32)>,
    discard: Option<u32>,
    reject: Option<u32>,
    next_table: Option<u32>,
    preference: Option<u32>,
    metric: Option<u32>,
    tag: Option<u32>,
    /// `resolve`: the next hop may be resolved recursively (default: connected only).
    resolve: bool,
}

impl Junos {
    fn instance(&mut self, name: &str) -> &mut Instance {
        let i = match self.instances.iter().position(|r| r.name == name) {
            Some(i) => i,
            None => {
                self.instances.push(Instance {
                    name: name.to_owned(),
                    ..Instance::default()
                });
                self.instances.len() - 1
            }
        };
        &mut self.instances[i]
    }

    pub(super) fn routing_instance(&mut self, name: &str, w: &[&str], st: &Statement) {
        let ri = self.instance(name);
        match w {
            ["instance-type", t, ..] => ri.kind = Some((*t).to_owned()),
            ["interface", i, ..] if !ri.interfaces.iter().any(|(n, _)| n == i) => {
                ri.interfaces.push(((*i).to_owned(), st.line_of(&w[1..])));
            }
            ["interface", ..] => {}
            ["routing-options", rest @ ..] => self.routing_options(Some(name), rest, st),
            ["protocols", "bgp", rest @ ..] => self.bgp(Some(name), rest, st),
            ["protocols", "ospf", rest @ ..] => self.ospf(Some(name), rest, st),
            ["protocols", "isis", rest @ ..] => self.isis(Some(name), rest, st),
            ["vrf-import", ps @ ..] => self.policy_refs(ps, "routing-instance vrf-import", st),
            ["vrf-export", ps @ ..] => self.policy_refs(ps, "routing-instance vrf-export", st),
            _ => {}
        }
    }

    pub(super) fn routing_options(&mut self, inst: Option<&str>, w: &[&str], st: &Statement) {
        let line = st.line;
        match w {
            ["autonomous-system", asn, ..] => match parse_asn(asn) {
                Some(a) => match inst {
                    Some(name) => self.instance(name).asn = Some(a),
                    None => self.asn = Some(a),
                },
                None => self.dev.warn(
                    line,
                    format!("autonomous-system: '{asn}' is not an AS number"),
                ),
            },
            ["router-id", id] => match id.parse::<IpAddr>() {
                // Only the master instance's router-id is the device's.
                Ok(ip) if inst.is_none() => self.router_id = Some(ip),
                Ok(_) => {}
                Err(_) => self
                    .dev
                    .warn(line, format!("router-id: '{id}' is not an address")),
            },
            ["confederation", id, rest @ ..] if inst.is_none() => {
                match parse_asn(id) {
                    Some(a) => self.confederation = Some(a),
                    None => self
                        .dev
                        .warn(line, format!("confederation: '{id}' is not an AS number")),
                }
                if let ["members", members @ ..] = rest {
                    for m in members {
                        match parse_asn(m) {
                            Some(a) if !self.confederation_members.contains(&a) => {
                                self.confederation_members.push(a)
                            }
                            Some(_) => {}
                            None => self.dev.warn(
                                line,
                                format!("confederation members: '{m}' is not an AS number"),
                            ),
                        }
                    }
                }
            }
            ["static", rest @ ..] => self.static_line(inst, false, rest, st),
            ["rib", rib, rest @ ..] => {
                // Only the unicast tables (`inet.0`, `inet6.0`, `X.inet6.0`) hold the
                // routes olav models; `inet.3` and the like are MPLS resolution tables.
                let table = rib.rsplit('.').nth(1).unwrap_or("");
                let unicast = rib.ends_with(".0") && matches!(table, "inet" | "inet6");
                match rest {
                    ["static", tail @ ..] if unicast => {
                        self.static_line(inst, table == "inet6", tail, st)
                    }
                    ["static", ..] => {}
                    _ => self.routing_options(inst, rest, st),
                }
            }
            [kind @ ("aggregate" | "generate" | "generated"), rest @ ..] => {
                if let ["route", p, ..] = rest {
                    if let Some(net) = parse_net(p) {
                        let what = format!("{kind} route");
                        self.refused_at_commit(&what, net, st.line_of(&rest[1..]));
                    }
                }
                let what = format!("routing-options {kind} routes");
                let at = (inst.map(str::to_owned), what);
                if !self.bgp_unmodelled.contains(&at) {
                    self.bgp_unmodelled.push(at);
                }
                if let Some(i) = rest.iter().position(|x| *x == "policy") {
                    let context = if *kind == "aggregate" {
                        "aggregate route policy"
                    } else {
                        "generated route policy-statement"
                    };
                    self.policy_refs(&rest[i + 1..], context, st);
                }
            }
            ["forwarding-table", "export", ps @ ..] => {
                self.policy_refs(ps, "forwarding-table export policy-statement", st)
            }
            ["resolution", "rib", _, "import", ps @ ..] => {
                let at = (
                    inst.map(str::to_owned),
                    "routing-options resolution (next-hop resolution policy)".to_owned(),
                );
                if !self.bgp_unmodelled.contains(&at) {
                    self.bgp_unmodelled.push(at);
                }
                self.policy_refs(ps, "routing-instance resolution rib import", st)
            }
            ["instance-import", ps @ ..] => self.policy_refs(ps, "instance import policy", st),
            _ => {}
        }
    }

    /// Whether `net`, as written, has host bits set (`192.168.1.111/24`): Junos refuses
    /// such a prefix at commit in routes and area ranges (lab `junos_commit_check`), so a
    /// device cannot run the line. Warns, naming it; never normalised into another prefix.
    pub(super) fn refused_at_commit(&mut self, what: &str, net: IpNet, line: u32) -> bool {
        if net.addr() == net.network() {
            return false;
        }
        self.dev.warn(
            line,
            format!(
                "{what} {net}: host bits set — Junos refuses this at commit ({} intended?); not read",
                net.trunc()
            ),
        );
        true
    }

    fn static_line(&mut self, inst: Option<&str>, inet6: bool, w: &[&str], st: &Statement) {
        let line = st.line;
        let vrf = inst.map(str::to_owned);
        let b = match self
            .statics
            .iter()
            .position(|b| b.vrf == vrf && b.inet6 == inet6)
        {
            Some(b) => b,
            None => {
                self.statics.push(StaticBlock {
                    vrf,
                    inet6,
                    default_preference: None,
                    default_metric: None,
                    default_tag: None,
                    routes: Vec::new(),
                    index: HashMap::new(),
                });
                self.statics.len() - 1
            }
        };
        match w {
            ["defaults", "metric", m, ..] => match m.parse() {
                Ok(m) => self.statics[b].default_metric = Some(m),
                Err(_) => self.dev.warn(
                    line,
                    format!("static defaults metric: '{m}' is not a number"),
                ),
            },
            ["defaults", "tag", t, ..] => match t.parse() {
                Ok(t) => self.statics[b].default_tag = Some(t),
                Err(_) => self
                    .dev
                    .warn(line, format!("static defaults tag: '{t}' is not a number")),
            },
            ["defaults", "preference", p, ..] => match p.parse() {
                Ok(p) => self.statics[b].default_preference = Some(p),
                Err(_) => self.dev.warn(
                    line,
                    format!("static defaults preference: '{p}' is not a number"),
                ),
            },
            ["route", p, tail @ ..] => {
                let Some(prefix) = parse_net(p) else {
                    self.dev.warn(
                        st.line_of(&w[1..]),
                        format!("static route: cannot read the prefix '{p}'"),
                    );
                    return;
                };
                if self.refused_at_commit("static route", prefix, st.line_of(&w[1..])) {
                    return;
                }
                let block = &mut self.statics[b];
                let routes = &mut block.routes;
                let r = match block.index.get(&prefix) {
                    Some(r) => *r,
                    None => {
                        block.index.insert(prefix, routes.len());
                        routes.push(StaticSpec {
                            prefix,
                            line: st.line_of(&w[1..]),
                            next_hops: Vec::new(),
                            qualified: Vec::new(),
                            discard: None,
                            reject: None,
                            next_table: None,
                            preference: None,
                            metric: None,
                            tag: None,
                            resolve: false,
                        });
                        routes.len() - 1
                    }
                };
                let r = &mut routes[r];
                match tail {
                    ["next-hop", hops @ ..] => {
                        for (k, h) in hops.iter().enumerate() {
                            if !r.next_hops.iter().any(|(x, _)| x == h) {
                                r.next_hops.push(((*h).to_owned(), st.line_of(&hops[k..])));
                            }
                        }
                    }
                    ["qualified-next-hop", h, rest @ ..] => {
                        let q = match r.qualified.iter().position(|(x, _, _)| x == h) {
                            Some(q) => q,
                            None => {
                                r.qualified
                                    .push(((*h).to_owned(), None, st.line_of(&tail[1..])));
                                r.qualified.len() - 1
                            }
                        };
                        if let ["preference", p, ..] = rest {
                            match p.parse() {
                                Ok(p) => r.qualified[q].1 = Some(p),
                                Err(_) => self.dev.warn(
                                    line,
                                    format!("qualified-next-hop preference: '{p}' is not a number"),
                                ),
                            }
                        }
                    }
                    ["discard", ..] => r.discard = Some(st.line_of(tail)),
                    ["reject", ..] => r.reject = Some(st.line_of(tail)),
                    ["next-table", ..] => r.next_table = Some(st.line_of(tail)),
                    ["resolve"] => r.resolve = true,
                    ["metric", m, ..] => r.metric = m.parse().ok(),
                    ["tag", t, ..] => r.tag = t.parse().ok(),
                    ["no-resolve"] => r.resolve = false,
                    ["preference", p, ..] => match p.parse() {
                        Ok(p) => r.preference = Some(p),
                        Err(_) => self.dev.warn(
                            line,
                            format!("static route preference: '{p}' is not a number"),
                        ),
                    },
                    _ => {}
                }
            }
            _ => {}
        }
    }

    pub(super) fn ospf(&mut self, inst: Option<&str>, w: &[&str], st: &Statement) {
        match w {
            ["area", area, "interface", ifname, rest @ ..] => {
                let disabled = rest.first() == Some(&"disable");
                let key = (
                    inst.map(str::to_owned),
                    (*area).to_owned(),
                    (*ifname).to_owned(),
                );
                match self.ospf_index.get(&key) {
                    Some(i) => self.ospf[*i].4 |= disabled,
                    None => {
                        self.ospf_index.insert(key.clone(), self.ospf.len());
                        self.ospf
                            .push((key.0, key.1, key.2, st.line_of(&w[3..]), disabled));
                    }
                }
            }
            ["export", ps @ ..] => {
                self.policy_refs(ps, "ospf export policy-statement", st);
                self.ospf_process(inst, st)
                    .unsupported("OSPF export policies");
            }
            ["reference-bandwidth", b] => match junos_bandwidth(b) {
                Some(mbps) => self.ospf_process(inst, st).reference_bandwidth_mbps = Some(mbps),
                None => self.dev.warn(
                    st.line,
                    format!("ospf reference-bandwidth: cannot read '{b}'"),
                ),
            },
            ["area", area, "area-range", p, opts @ ..] => {
                if let Some(net) = parse_net(p) {
                    if !self.refused_at_commit("OSPF area-range", net, st.line_of(&w[3..])) {
                        self.area_range(inst, area, net, opts, st);
                    }
                }
            }
            ["area", area, "stub", opts @ ..] => self.junos_stub(inst, area, opts, st),
            // The NSSA flag is read so that its neighbours see the same flag and stay
            // adjacent (their domain then carries the mark); what it sends is not computed.
            ["area", area, "nssa", ..] => {
                let p = self.ospf_process(inst, st);
                if !p.nssa_areas.iter().any(|n| n.area == *area) {
                    p.nssa_areas.push(crate::model::OspfNssa {
                        area: (*area).to_owned(),
                        no_summary: false,
                        default_originate: None,
                    });
                }
                p.unsupported("NSSA areas");
            }
            ["area", _, kind, ..] => {
                let what = match *kind {
                    "nssa" => "NSSA areas",
                    "virtual-link" => "virtual links",
                    _ => return,
                };
                self.ospf_process(inst, st).unsupported(what);
            }
            ["disable"] => self.ospf_process(inst, st).shutdown = true,
            // What changes no route is ignored; anything else may, and is named.
            ["no-rfc-1583"] => self.ospf_process(inst, st).rfc1583 = Some(false),
            ["traceoptions" | "graceful-restart" | "spf-options", ..] => {}
            [word, ..] => {
                let what = format!("Junos OSPF `{word}`");
                self.ospf_process(inst, st).unsupported(&what);
            }
            [] => {}
        }
        if let ["area", _, "interface", ifname, setting @ ..] = w {
            let unit = if ifname.contains('.') {
                (*ifname).to_owned()
            } else {
                format!("{ifname}.0")
            };
            self.ospf_process(inst, st);
            let s = self.dev.ospf.interface_mut(&unit);
            match setting {
                ["passive", ..] => s.passive = Some(true),
                ["metric", m] => match m.parse() {
                    Ok(m) => s.cost = Some(m),
                    Err(_) => self
                        .dev
                        .warn(st.line, format!("ospf metric: '{m}' is not a number")),
                },
                ["interface-type", "p2p"] => s.network_type = Some(OspfNetworkType::PointToPoint),
                ["hello-interval", n] => s.hello = n.parse().ok(),
                ["dead-interval", n] => s.dead = n.parse().ok(),
                ["priority", n] => s.priority = n.parse().ok(),
                ["authentication", kind, ..] => {
                    s.auth = Some(match *kind {
                        "md5" => crate::model::OspfAuth::Md5,
                        "simple-password" => crate::model::OspfAuth::Plain,
                        _ => crate::model::OspfAuth::Other,
                    })
                }
                ["interface-type", t] => {
                    let what = format!("OSPF interface-type {t}");
                    self.ospf_process(inst, st).unsupported(&what);
                }
                _ => {}
            }
        }
    }

    /// `area A stub [default-metric N] [no-summaries]`: each `set` line adds to the area's
    /// stub settings (without `default-metric` its ABR sends no default route).
    fn junos_stub(&mut self, inst: Option<&str>, area: &str, opts: &[&str], st: &Statement) {
        let p = self.ospf_process(inst, st);
        if !p.stub_areas.iter().any(|(a, _)| a == area) {
            p.stub_areas.push((area.to_owned(), false));
        }
        // One line may hold several options (`stub default-metric 10 no-summaries`).
        let mut rest = opts;
        loop {
            rest = match rest {
                [] => break,
                ["no-summaries", tail @ ..] => {
                    for s in p.stub_areas.iter_mut().filter(|(a, _)| a == area) {
                        s.1 = true;
                    }
                    tail
                }
                ["summaries", tail @ ..] => tail,
                ["default-metric", m, tail @ ..] => {
                    match m.parse() {
                        Ok(m) => {
                            p.default_costs.retain(|(a, _)| a != area);
                            p.default_costs.push((area.to_owned(), m));
                        }
                        Err(_) => p.unsupported(&format!("stub default-metric {m}")),
                    }
                    tail
                }
                [other, ..] => {
                    p.unsupported(&format!("stub option {other}"));
                    break;
                }
            };
        }
    }

    /// `area A area-range P [restrict] [exact] [override-metric N]`: each `set` line adds
    /// to the range of its area and prefix.
    fn area_range(
        &mut self,
        inst: Option<&str>,
        area: &str,
        net: IpNet,
        opts: &[&str],
        st: &Statement,
    ) {
        let IpNet::V4(prefix) = net else {
            return;
        };
        let mut unknown = None;
        let p = self.ospf_process(inst, st);
        let at = match p
            .ranges
            .iter()
            .position(|r| r.area == area && r.prefix == prefix)
        {
            Some(i) => i,
            None => {
                p.ranges.push(OspfAreaRange {
                    area: area.to_owned(),
                    prefix,
                    advertise: true,
                    cost: None,
                    exact: false,
                });
                p.ranges.len() - 1
            }
        };
        let r = &mut p.ranges[at];
        match opts {
            [] => {}
            ["restrict"] => r.advertise = false,
            ["exact"] => r.exact = true,
            ["override-metric", m] => match m.parse() {
                Ok(m) => r.cost = Some(m),
                Err(_) => unknown = Some(format!("area-range override-metric {m}")),
            },
            [other, ..] => unknown = Some(format!("area-range option {other}")),
        }
        if let Some(what) = unknown {
            p.unsupported(&what);
        }
    }

    /// The OSPF process of routing instance `inst` (the master's: `default`).
    fn ospf_process(&mut self, inst: Option<&str>, st: &Statement) -> &mut OspfProcess {
        let id = inst.unwrap_or("default");
        let p = self.dev.ospf.process_mut(id, st.line);
        if inst.is_some() {
            p.vrf = inst.map(str::to_owned);
        }
        p
    }

    pub(super) fn finish_statics(&mut self) {
        for b in std::mem::take(&mut self.statics) {
            for r in b.routes {
                if r.resolve {
                    self.resolving.insert((b.vrf.clone(), r.prefix));
                }
                let distance = r.preference.or(b.default_preference);
                let row = |line: u32| StaticRoute {
                    vrf: b.vrf.clone(),
                    prefix: r.prefix,
                    next_hop: None,
                    next_hop_interface: None,
                    distance,
                    metric: r.metric.or(b.default_metric),
                    tag: r.tag.or(b.default_tag),
                    activity: RouteActivity::Usable,
                    line,
                };
                let mut rows = Vec::new();
                let hop = |mut route: StaticRoute, h: &str| {
                    match h.parse::<IpAddr>() {
                        Ok(ip) => route.next_hop = Some(ip),
                        Err(_) => route.next_hop_interface = Some(h.to_owned()),
                    }
                    route
                };
                for (h, line) in &r.next_hops {
                    rows.push(hop(row(*line), h));
                }
                for (h, pref, line) in &r.qualified {
                    let mut route = hop(row(*line), h);
                    route.distance = pref.or(distance);
                    rows.push(route);
                }
                for (kind, line) in [("discard", r.discard), ("reject", r.reject)] {
                    if let Some(line) = line {
                        let mut route = row(line);
                        route.next_hop_interface = Some(kind.to_owned());
                        rows.push(route);
                    }
                }
                if rows.is_empty() {
                    match r.next_table {
                        // A lookup in another table: a route without a next hop of its own.
                        Some(line) => rows.push(row(line)),
                        None => self.dev.warn(
                            r.line,
                            format!(
                                "static route {}: no next-hop, qualified-next-hop, discard, reject or next-table",
                                r.prefix
                            ),
                        ),
                    }
                }
                self.dev.static_routes.extend(rows);
            }
        }
    }

    /// The interface owning `ip`, preferring one in `vrf`.
    pub(super) fn owner_of(&self, ip: IpAddr, vrf: Option<&str>) -> Option<String> {
        let owners: Vec<&Interface> = self
            .dev
            .interfaces
            .iter()
            .filter(|i| i.addresses.iter().any(|a| a.address.addr() == ip))
            .collect();
        owners
            .iter()
            .find(|i| i.vrf.as_deref() == vrf)
            .or(owners.first())
            .map(|i| i.name.clone())
    }

    pub(super) fn finish_ospf(&mut self) {
        if let Some(IpAddr::V4(id)) = self.router_id {
            for p in self
                .dev
                .ospf
                .processes
                .iter_mut()
                .filter(|p| p.vrf.is_none())
            {
                p.router_id = Some(id);
            }
        }
        for (vrf, area, ifname, line, disabled) in std::mem::take(&mut self.ospf) {
            if disabled {
                continue;
            }
            let unit = if ifname.contains('.') {
                ifname.clone()
            } else {
                format!("{ifname}.0")
            };
            let iface = self.index.get(&unit).map(|i| &self.dev.interfaces[*i]);
            let prefix = iface.and_then(|i| {
                i.addresses
                    .iter()
                    .find(|a| a.kind == AddressKind::Primary && a.address.addr().is_ipv4())
                    .map(|a| a.address.trunc())
            });
            self.dev.ospf_networks.push(OspfNetwork {
                process: vrf.unwrap_or_else(|| "default".to_owned()),
                prefix,
                interface: Some(ifname),
                area,
                line,
            });
        }
    }
}

/// A Junos bandwidth (`100m`, `10g`, `1000000000`, in bit/s without a unit) in Mbit/s.
fn junos_bandwidth(b: &str) -> Option<u64> {
    let lower = b.to_ascii_lowercase();
    let (digits, scale) = match lower.chars().last()? {
        'k' => (&lower[..lower.len() - 1], 1_000),
        'm' => (&lower[..lower.len() - 1], 1_000_000),
        'g' => (&lower[..lower.len() - 1], 1_000_000_000),
        _ => (lower.as_str(), 1),
    };
    let bps = digits.parse::<u64>().ok()?.checked_mul(scale)?;
    Some((bps / 1_000_000).max(1))
}
