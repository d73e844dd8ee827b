//! What a Batfish snapshot holds besides `configs/`: the snapshot's other files as the
//! state DB keeps them (`batfish/layer1_topology.json`, `batfish/isp_config.json`,
//! `batfish/runtime_data.json`, `hosts/…`), and, when the snapshot has no
//! `isp_config.json`, one generated from the network's external BGP sessions so that
//! Batfish models the providers instead of answering UNKNOWN_REMOTE.

use crate::checks::model::Model;
use crate::model::{AddressKind, BgpPeer};
use crate::state::{StateDb, StateError};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;

/// Where Batfish reads its ISP-modeling file (`FileBasedStorage`: `batfish/` + `BfConsts.RELPATH_ISP_CONFIG_FILE`).
pub const ISP_CONFIG: &str = "batfish/isp_config.json";

/// The snapshot's files other than configs, from the state DB, when it keeps them:
/// (path relative to the snapshot root, bytes). A path without a folder is taken as one
/// of the `batfish/` folder's files. Empty when no such table exists.
pub fn extra_files(db: &StateDb) -> Result<Vec<(String, Vec<u8>)>, StateError> {
    let mut out = Vec::new();
    for (path, bytes) in db.stored_snapshot_files()? {
        let path = path.trim_start_matches("./").trim_start_matches('/');
        // The configs go in from the device table; a stored copy would be a second one.
        if path.is_empty() || path.starts_with("configs/") {
            continue;
        }
        let path = if path.contains('/') {
            path.to_owned()
        } else {
            format!("batfish/{path}")
        };
        out.push((path, bytes));
    }
    Ok(out)
}

/// An `isp_config.json` generated from the network's external BGP sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedIsp {
    /// The file's content.
    pub json: Vec<u8>,
    /// Border interfaces listed (`node:interface`, hostnames as stored).
    pub border_interfaces: Vec<String>,
    /// Sessions listed as BGP peers without an interface facing the peer (`node → peer`).
    pub bgp_peers: Vec<String>,
    /// The providers' AS numbers.
    pub asns: BTreeSet<u32>,
}

/// A `bgpPeers` entry: its summary for people, its attachment interface, its local address.
type Peer = (String, Option<String>, Option<IpAddr>);

/// The interface a device sends an address out of in a VRF, from the routing model:
/// (hostname, VRF, address) → interface.
pub type Egress<'a> = dyn Fn(&str, &str, IpAddr) -> Option<String> + 'a;

/// Generates Batfish's ISP-modeling file from the external eBGP sessions of `model`: a
/// session whose peer address no device of the network owns and whose peer AS is not
/// the device's own. A session on an interface whose subnet holds the peer becomes a
/// `borderInterfaces` entry (Batfish wires an ISP node to that interface); one without
/// (multihop, loopback-sourced) becomes a `bgpPeers` entry with its `ispAttachment` (the
/// interface `egress` says the device reaches the peer by: without one Batfish wires the
/// ISP to nothing and answers UNKNOWN_REMOTE, `IspModelingUtils.java`) and the session's
/// source as `overrideLocalAddress` (Batfish matches the configured local IP first).
/// Format:
/// `IspConfiguration`, `BorderInterfaceInfo`, `BgpPeerInfo` in Batfish's
/// `org.batfish.datamodel.isp_configuration`. Hostnames are lowercase, as Batfish names
/// nodes. `None` when the network has no external session.
pub fn isp_config(model: &Model, egress: &Egress<'_>) -> Option<GeneratedIsp> {
    let owned: BTreeSet<IpAddr> = model
        .devices
        .iter()
        .flat_map(|d| d.config.interfaces.iter())
        .flat_map(|i| i.addresses.iter())
        .filter(|a| a.kind != AddressKind::Virtual)
        .map(|a| a.address.addr())
        .collect();
    // (hostname, interface) → stored hostname, for the summary; BTreeMap for a stable file.
    let mut border: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut peers: BTreeMap<(String, IpAddr, String), Peer> = BTreeMap::new();
    let mut asns = BTreeSet::new();
    for d in &model.devices {
        let Some(bgp) = &d.config.bgp else { continue };
        for n in bgp.neighbors.iter().filter(|n| !n.shutdown) {
            let (BgpPeer::Address(peer), Some(asn)) = (&n.peer, n.peer_asn) else {
                continue;
            };
            if owned.contains(peer) || bgp.presented_as(n).contains(&asn) {
                continue;
            }
            asns.insert(asn);
            let vrf = n.vrf.clone().unwrap_or_else(|| "default".into());
            let facing = d.config.interfaces.iter().find(|i| {
                i.admin_up
                    && i.vrf.clone().unwrap_or_else(|| "default".into()) == vrf
                    && i.addresses.iter().any(|a| {
                        a.kind != AddressKind::Virtual
                            && a.address.contains(peer)
                            && a.address.addr() != *peer
                    })
            });
            match facing {
                Some(i) if n.ebgp_multihop.is_none() => {
                    border.insert(
                        (d.hostname.to_lowercase(), i.name.clone()),
                        format!("{}:{}", d.hostname, i.name),
                    );
                }
                _ => {
                    let attachment = egress(&d.hostname, &vrf, *peer);
                    let local = n.local_address.or_else(|| {
                        let src = n.update_source.as_deref()?;
                        d.config
                            .interfaces
                            .iter()
                            .find(|i| crate::ifname::same(src, &i.name))?
                            .addresses
                            .iter()
                            .find(|a| a.kind == AddressKind::Primary)
                            .map(|a| a.address.addr())
                    });
                    peers.insert(
                        (d.hostname.to_lowercase(), *peer, vrf),
                        (format!("{} → {peer}", d.hostname), attachment, local),
                    );
                }
            }
        }
    }
    if border.is_empty() && peers.is_empty() {
        return None;
    }
    let file = json!({
        "borderInterfaces": border.keys().map(|(h, i)| json!({"borderInterface": {"hostname": h, "interface": i}})).collect::<Vec<_>>(),
        "bgpPeers": peers.iter().map(|((h, ip, vrf), (_, attachment, local))| {
            let mut p = json!({"hostname": h, "peerAddress": ip.to_string()});
            if let Some(o) = p.as_object_mut() {
                if vrf != "default" {
                    o.insert("vrf".into(), Value::String(vrf.clone()));
                }
                if let Some(i) = attachment {
                    o.insert("ispAttachment".into(), json!({"interface": i}));
                }
                if let Some(l) = local {
                    o.insert("overrideLocalAddress".into(), Value::String(l.to_string()));
                }
            }
            p
        }).collect::<Vec<_>>(),
    });
    Some(GeneratedIsp {
        json: serde_json::to_vec_pretty(&file).unwrap_or_default(),
        border_interfaces: border.into_values().collect(),
        bgp_peers: peers
            .into_values()
            .map(|(s, attachment, _)| match attachment {
                Some(i) => format!("{s} via {i}"),
                None => format!("{s} (no route to the peer: not attached)"),
            })
            .collect(),
        asns,
    })
}

impl GeneratedIsp {
    /// The candidate's file: the base's entries, kept as they are so that the providers
    /// Batfish models differ only by what the plan adds, and `candidate`'s new ones.
    pub fn extended_with(&self, candidate: &GeneratedIsp) -> GeneratedIsp {
        let parse = |j: &[u8]| serde_json::from_slice::<Value>(j).unwrap_or(Value::Null);
        let (mut base, cand) = (parse(&self.json), parse(&candidate.json));
        for key in ["borderInterfaces", "bgpPeers"] {
            let added: Vec<Value> = cand[key]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|e| !base[key].as_array().is_some_and(|b| b.contains(e)))
                .cloned()
                .collect();
            if let Some(list) = base[key].as_array_mut() {
                list.extend(added);
            }
        }
        let merge = |a: &[String], b: &[String]| {
            let mut out = a.to_vec();
            out.extend(b.iter().filter(|x| !a.contains(x)).cloned());
            out
        };
        GeneratedIsp {
            json: serde_json::to_vec_pretty(&base).unwrap_or_default(),
            border_interfaces: merge(&self.border_interfaces, &candidate.border_interfaces),
            bgp_peers: merge(&self.bgp_peers, &candidate.bgp_peers),
            asns: self.asns.union(&candidate.asns).copied().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::parse::parser_for;
    use crate::model::Vendor;
    use crate::network::ParsedDevice;

    fn model(devices: &[(&str, &str)]) -> Model {
        Model {
            devices: devices
                .iter()
                .map(|(h, text)| {
                    std::sync::Arc::new(ParsedDevice {
                        hostname: (*h).to_owned(),
                        os: "ios".into(),
                        source_file: format!("configs/{h}.cfg"),
                        vtep: Vec::new(),
                        config: parser_for(Vendor::from_os("ios")).parse(text),
                        down_svis: Vec::new(),
                    })
                })
                .collect(),
        }
    }

    #[test]
    fn external_sessions_become_border_interfaces_or_bgp_peers() {
        // Test input, read by the IOS parser.
        let edge = "hostname Edge-1\ninterface GigabitEthernet0/0\n ip address 203.0.113.1 255.255.255.252\ninterface Loopback0\n ip address 192.0.2.1 255.255.255.255\ninterface GigabitEthernet0/1\n ip address 10.0.0.1 255.255.255.254\nrouter bgp 65000\n neighbor 203.0.113.2 remote-as 7575\n neighbor 198.51.100.9 remote-as 174\n neighbor 198.51.100.9 ebgp-multihop 2\n neighbor 198.51.100.9 update-source Loopback0\n neighbor 10.0.0.0 remote-as 65000";
        let core = "hostname core-1\ninterface GigabitEthernet0/1\n ip address 10.0.0.0 255.255.255.254\nrouter bgp 65000\n neighbor 10.0.0.1 remote-as 65000";
        let m = model(&[("Edge-1", edge), ("core-1", core)]);
        let isp = isp_config(&m, &|_, _, _| Some("GigabitEthernet0/0".to_owned()))
            .expect("external sessions");
        let v: Value = serde_json::from_slice(&isp.json).expect("json");
        assert_eq!(
            v["borderInterfaces"],
            json!([{"borderInterface": {"hostname": "edge-1", "interface": "GigabitEthernet0/0"}}])
        );
        assert_eq!(
            v["bgpPeers"],
            json!([{"hostname": "edge-1", "peerAddress": "198.51.100.9",
                "ispAttachment": {"interface": "GigabitEthernet0/0"},
                "overrideLocalAddress": "192.0.2.1"}])
        );
        assert_eq!(isp.asns, BTreeSet::from([174, 7575]));
        assert_eq!(isp.border_interfaces, vec!["Edge-1:GigabitEthernet0/0"]);
    }

    #[test]
    fn the_candidate_keeps_the_base_providers_and_adds_only_new_sessions() {
        let one = "hostname e1\ninterface Gi0/0\n ip address 203.0.113.1 255.255.255.252\nrouter bgp 65000\n neighbor 203.0.113.2 remote-as 7575";
        let two = format!("{one}\ninterface Gi0/1\n ip address 198.51.100.1 255.255.255.252\nrouter bgp 65000\n neighbor 198.51.100.2 remote-as 174");
        let none = |_: &str, _: &str, _: IpAddr| None;
        let base = isp_config(&model(&[("e1", one)]), &none).expect("one provider");
        let cand = isp_config(&model(&[("e1", &two)]), &none).expect("two providers");
        let merged = base.extended_with(&cand);
        let v: Value = serde_json::from_slice(&merged.json).expect("json");
        let ifs: Vec<&str> = v["borderInterfaces"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|b| b["borderInterface"]["interface"].as_str())
            .collect();
        assert_eq!(ifs, ["Gi0/0", "Gi0/1"]);
        assert_eq!(merged.asns, BTreeSet::from([174, 7575]));
        // Nothing added: the base's file, byte for byte.
        assert_eq!(base.extended_with(&base).json, base.json);
    }

    #[test]
    fn a_network_without_external_sessions_gets_no_file() {
        let m = model(&[(
            "core-1",
            "hostname core-1\ninterface Gi0/1\n ip address 10.0.0.0 255.255.255.254\nrouter bgp 65000\n neighbor 10.0.0.1 remote-as 65000\n",
        )]);
        assert_eq!(isp_config(&m, &|_, _, _| None), None);
    }
}
