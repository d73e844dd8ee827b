//! BGP of `router "Base"`: the instance, its groups and neighbors. A setting resolves
//! neighbor over group over instance (the most specific level that sets it wins), as
//! SR OS inherits them.

use super::Statement;
use crate::import::parse::common::reference;
use crate::model::{BgpNeighbor, BgpPeer, BgpProcess, DeviceConfig, StructureKind};
use std::collections::HashMap;
use std::net::IpAddr;

/// The settings one level (instance, group, neighbor) may set.
#[derive(Default, Clone)]
struct Level {
    peer_as: Option<u32>,
    internal: Option<bool>,
    local_address: Option<IpAddr>,
    next_hop_self: Option<bool>,
    multihop: Option<u32>,
    shutdown: Option<bool>,
    import: Option<Vec<String>>,
    export: Option<Vec<String>>,
    cluster: Option<bool>,
    local_as: Option<u32>,
    description: Option<String>,
    families: Vec<String>,
    reject_import: Option<bool>,
    reject_export: Option<bool>,
    /// Statements that change routes and that olav does not compute.
    unmodelled: Vec<String>,
}

impl Level {
    /// The most specific value of each setting.
    fn resolve(levels: [&Level; 3]) -> Level {
        let mut out = Level::default();
        for l in levels {
            macro_rules! take {
                ($($f:ident),*) => { $( if l.$f.is_some() { out.$f = l.$f.clone(); } )* };
            }
            take!(
                peer_as,
                internal,
                local_address,
                next_hop_self,
                multihop,
                shutdown,
                import,
                export,
                cluster,
                local_as,
                description,
                reject_import,
                reject_export
            );
            if !l.families.is_empty() {
                out.families = l.families.clone();
            }
            out.unmodelled.extend(l.unmodelled.iter().cloned());
        }
        out
    }
}

/// Settings that change no route (timers, authentication, session handling).
const HARMLESS: &[&str] = &[
    "authentication-key",
    "authentication-keychain",
    "hold-time",
    "keepalive",
    "connect-retry",
    "min-route-advertisement",
    "bfd-liveness",
    "passive",
    "peer-tracking",
    "graceful-restart",
    "fast-external-failover",
    "close-notification",
    "initial-send-delay-zero",
    "damp-peer-oscillations",
    "error-handling",
    "prefix-limit",
    "ttl-security",
    "peer-ip-tracking",
    "rapid-withdrawal",
    "bgp-tunnel-metric",
    "convergence",
    "next-hop-resolution",
    "best-path-selection",
];

/// What `bgp` of `router "Base"` holds.
#[derive(Default)]
pub(super) struct Bgp {
    pub(super) asn: Option<u32>,
    /// `router-id` of the router (BGP's own comes first).
    pub(super) router_level_id: Option<IpAddr>,
    router_id: Option<IpAddr>,
    line: Option<u32>,
    instance: Level,
    groups: HashMap<String, Level>,
    /// Neighbors in file order: (address, group, own settings, line).
    neighbors: Vec<(IpAddr, Option<String>, Level, u32)>,
    max_paths: Option<u32>,
}

impl Bgp {
    /// One statement under `bgp`.
    pub(super) fn statement(&mut self, w: &[&str], st: &Statement, dev: &mut DeviceConfig) {
        self.line.get_or_insert(st.line);
        match w {
            ["router-id", id] => match id.parse() {
                Ok(ip) => self.router_id = Some(ip),
                Err(_) => dev.warn(st.line, format!("bgp router-id: '{id}' is not an address")),
            },
            ["multipath", "max-paths", n] => self.max_paths = n.parse().ok(),
            ["group", g, rest @ ..] => {
                let l = self.groups.entry((*g).to_owned()).or_default();
                setting(l, rest, st, dev);
            }
            ["neighbor", a, rest @ ..] => {
                let Ok(ip) = a.parse::<IpAddr>() else {
                    dev.warn(st.line, format!("bgp neighbor: '{a}' is not an address"));
                    return;
                };
                let i = match self.neighbors.iter().position(|n| n.0 == ip) {
                    Some(i) => i,
                    None => {
                        self.neighbors.push((ip, None, Level::default(), st.line));
                        self.neighbors.len() - 1
                    }
                };
                let n = &mut self.neighbors[i];
                match rest {
                    ["group", g] => n.1 = Some((*g).to_owned()),
                    _ => setting(&mut n.2, rest, st, dev),
                }
            }
            _ => setting(&mut self.instance, w, st, dev),
        }
    }

    /// The BGP process into the model.
    pub(super) fn finish(&mut self, dev: &mut DeviceConfig) {
        let Some(line) = self.line else { return };
        // SR OS's router id: BGP's, else the router's, else the system interface's address.
        let system = dev
            .interfaces
            .iter()
            .find(|i| i.name == "system")
            .and_then(|i| i.addresses.first())
            .map(|a| a.address.addr());
        let mut process = BgpProcess {
            local_as: self.asn,
            router_id: self.router_id.or(self.router_level_id).or(system),
            line,
            ..BgpProcess::default()
        };
        if let Some(n) = self.max_paths.filter(|n| *n > 1) {
            process.routing.maximum_paths.push((None, n));
            process.routing.maximum_paths_ibgp.push((None, n));
        }
        let empty = Level::default();
        for (ip, group, own, nline) in &self.neighbors {
            let g = match group {
                Some(name) => match self.groups.get(name) {
                    Some(g) => g,
                    None => {
                        dev.warn(
                            *nline,
                            format!("bgp neighbor {ip}: group \"{name}\" is not configured"),
                        );
                        &empty
                    }
                },
                None => &empty,
            };
            let eff = Level::resolve([&self.instance, g, own]);
            let mut n = BgpNeighbor::new(None, BgpPeer::Address(*ip), *nline);
            n.peer_group = group.clone();
            n.local_as = eff.local_as.filter(|a| Some(*a) != self.asn);
            let internal = eff.internal == Some(true)
                || (eff.internal.is_none() && eff.peer_as.is_some() && eff.peer_as == self.asn);
            n.peer_asn = if internal {
                n.local_as.or(self.asn)
            } else {
                eff.peer_as
            };
            n.description = eff.description.clone();
            n.local_address = eff.local_address;
            n.update_source = eff.local_address.and_then(|a| {
                dev.interfaces
                    .iter()
                    .find(|i| i.addresses.iter().any(|x| x.address.addr() == a))
                    .map(|i| i.name.clone())
            });
            let import = eff.import.clone().unwrap_or_default();
            let export = eff.export.clone().unwrap_or_default();
            for (names, context) in [
                (&import, "bgp import policy"),
                (&export, "bgp export policy"),
            ] {
                for p in names {
                    reference(dev, StructureKind::PolicyStatement, p, context, *nline);
                }
            }
            n.route_map_in = import.first().cloned();
            n.route_map_out = export.first().cloned();
            n.routing.import_chain = import;
            n.routing.export_chain = export;
            // Configured in the model-driven interface: RFC 8212's default is on.
            n.routing.ebgp_default_reject = (
                eff.reject_import.unwrap_or(true),
                eff.reject_export.unwrap_or(true),
            );
            n.routing.next_hop_self = eff.next_hop_self == Some(true);
            n.routing.route_reflector_client = internal && eff.cluster == Some(true);
            n.routing.unmodelled = eff.unmodelled;
            n.ebgp_multihop = eff.multihop;
            n.shutdown = eff.shutdown == Some(true);
            n.address_families = if eff.families.is_empty() {
                vec!["ipv4 unicast".to_owned()]
            } else {
                eff.families
            };
            process.neighbors.push(n);
        }
        // An export policy can announce any active route; each chain then decides.
        if process.neighbors.iter().any(|n| n.route_map_out.is_some()) {
            process.redistribute = vec![("static".into(), None), ("connected".into(), None)];
        }
        dev.bgp = Some(process);
    }
}

/// The family a `family` leaf names, as the model names families.
fn family(f: &str) -> Option<&'static str> {
    Some(match f {
        "ipv4" => "ipv4 unicast",
        "ipv6" => "ipv6 unicast",
        "vpn-ipv4" => "vpnv4",
        "vpn-ipv6" => "vpnv6",
        "evpn" => "evpn",
        "label-ipv4" => "ipv4 labeled-unicast",
        _ => return None,
    })
}

/// One setting of a level.
fn setting(l: &mut Level, w: &[&str], st: &Statement, dev: &mut DeviceConfig) {
    let line = st.line;
    let flag = |v: &str| v == "true";
    match w {
        ["peer-as", a] => match a.parse() {
            Ok(n) => l.peer_as = Some(n),
            Err(_) => dev.warn(line, format!("bgp peer-as: '{a}' is not an AS number")),
        },
        ["type", t] => l.internal = Some(*t == "internal"),
        ["local-address", a] => match a.parse() {
            Ok(ip) => l.local_address = Some(ip),
            Err(_) => dev.warn(line, format!("bgp local-address: '{a}' is not an address")),
        },
        ["next-hop-self", v] => l.next_hop_self = Some(flag(v)),
        ["multihop", n] => l.multihop = n.parse().ok(),
        ["admin-state", s] => l.shutdown = Some(*s == "disable"),
        ["description", d] => l.description = Some((*d).to_owned()),
        ["import", "policy", names @ ..] => {
            l.import = Some(names.iter().map(|s| (*s).to_owned()).collect())
        }
        ["export", "policy", names @ ..] => {
            l.export = Some(names.iter().map(|s| (*s).to_owned()).collect())
        }
        ["cluster", "cluster-id", _] => l.cluster = Some(true),
        ["local-as", "as-number", a] => l.local_as = a.parse().ok(),
        ["local-as", ..] => l.unmodelled.push(w.join(" ")),
        ["family", f, v] => {
            if let Some(name) = family(f) {
                l.families.retain(|x| x != name);
                if flag(v) {
                    l.families.push(name.to_owned());
                }
            }
        }
        ["ebgp-default-reject-policy", "import", v] => l.reject_import = Some(flag(v)),
        ["ebgp-default-reject-policy", "export", v] => l.reject_export = Some(flag(v)),
        [first, ..] if HARMLESS.contains(first) => {}
        [] => {}
        _ => l.unmodelled.push(w.join(" ")),
    }
}
