//! The model the static checks run over: every device's stored configuration parsed
//! again, either as imported or as a candidate with a plan's lines merged in.

use crate::import::parse::parser_for;
use crate::model::{DeviceConfig, LinkEnds, Vendor};
use crate::plan::{Plan, Target};
use crate::state::{StateDb, StateError};
use std::collections::HashMap;

/// One device of the model.
#[derive(Debug, Clone)]
pub struct ModelDevice {
    /// Hostname.
    pub hostname: String,
    /// OS (`ios`, `eos`, `nxos`, `junos`).
    pub os: String,
    /// Config file it came from.
    pub source_file: String,
    /// The configuration text (with a plan's lines appended for a candidate).
    pub text: String,
    /// The parsed configuration.
    pub config: DeviceConfig,
}

/// All devices.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// Devices, by hostname.
    pub devices: Vec<ModelDevice>,
}

/// Parses texts on every core: re-parsing a large network is the bulk of a check.
fn parse_all(raw: Vec<(String, String, String, String)>) -> Vec<ModelDevice> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .max(1);
    let chunk = raw.len().div_ceil(threads).max(1);
    let mut out: Vec<ModelDevice> = Vec::with_capacity(raw.len());
    std::thread::scope(|s| {
        let handles: Vec<_> = raw
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(h, os, file, text)| ModelDevice {
                            hostname: h.clone(),
                            os: os.clone(),
                            source_file: file.clone(),
                            config: parser_for(Vendor::from_os(os)).parse(text),
                            text: text.clone(),
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            if let Ok(v) = h.join() {
                out.extend(v);
            }
        }
    });
    out
}

fn load_texts(db: &StateDb) -> Result<Vec<(String, String, String, String)>, StateError> {
    let e = |source| StateError::Sqlite {
        path: db.path().to_path_buf(),
        source,
    };
    let mut st = db
        .conn()
        .prepare(
            "SELECT d.hostname, d.os, c.source_file, c.config_text FROM device d
             JOIN device_config c ON c.hostname = d.hostname ORDER BY d.hostname",
        )
        .map_err(e)?;
    let rows = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .map_err(e)?;
    rows.collect::<Result<_, _>>().map_err(e)
}

fn load_links(db: &StateDb) -> Result<Vec<LinkEnds>, StateError> {
    let e = |source| StateError::Sqlite {
        path: db.path().to_path_buf(),
        source,
    };
    let mut st = db
        .conn()
        .prepare("SELECT hostname_a, ifname_a, hostname_b, ifname_b FROM link")
        .map_err(e)?;
    let rows = st
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?), (r.get(2)?, r.get(3)?))))
        .map_err(e)?;
    rows.collect::<Result<_, _>>().map_err(e)
}

/// Sets each interface's `linked_to` where exactly one stored link ends on it.
fn link_interfaces(devices: &mut [ModelDevice], links: &[LinkEnds]) {
    let mut far_of: HashMap<(&str, &str), Option<&(String, String)>> = HashMap::new();
    for (a, b) in links {
        for (near, far) in [(a, b), (b, a)] {
            far_of
                .entry((near.0.as_str(), near.1.as_str()))
                .and_modify(|f| *f = None)
                .or_insert(Some(far));
        }
    }
    for d in devices.iter_mut() {
        for i in d.config.interfaces.iter_mut() {
            if let Some(Some(far)) = far_of.get(&(d.hostname.as_str(), i.name.as_str())) {
                i.linked_to = Some((*far).clone());
            }
        }
    }
}

impl Model {
    /// The network as imported.
    pub fn from_state(db: &StateDb) -> Result<Model, StateError> {
        let mut devices = parse_all(load_texts(db)?);
        link_interfaces(&mut devices, &load_links(db)?);
        Ok(Model { devices })
    }

    /// The network as it would be after `plan`: its configuration lines appended to
    /// each device's configuration (running-config semantics: later lines amend), and
    /// decommissioned devices removed. Only the devices the plan touches are parsed again.
    pub fn candidate(&self, plan: &Plan) -> Model {
        let removed: Vec<&str> = plan
            .header
            .targets
            .iter()
            .filter_map(|t| match t {
                Target::Device { device } if plan.header.intent == "decommission_device" => {
                    Some(device.as_str())
                }
                _ => None,
            })
            .collect();
        let mut devices: Vec<ModelDevice> = self
            .devices
            .iter()
            .filter(|d| !removed.contains(&d.hostname.as_str()))
            .cloned()
            .collect();
        for d in devices.iter_mut() {
            let blocks: Vec<&str> = plan
                .implementation
                .iter()
                .filter(|b| b.device == d.hostname)
                .map(|b| b.text.as_str())
                .collect();
            if blocks.is_empty() {
                continue;
            }
            for b in blocks {
                d.text.push('\n');
                d.text.push_str(b);
                d.text.push('\n');
            }
            // The cabling stays as imported; a port the plan shuts is down in its config.
            let linked: Vec<(String, Option<(String, String)>)> = d
                .config
                .interfaces
                .iter()
                .map(|i| (i.name.clone(), i.linked_to.clone()))
                .collect();
            d.config = parser_for(Vendor::from_os(&d.os)).parse(&d.text);
            for i in d.config.interfaces.iter_mut() {
                if let Some((_, far)) = linked.iter().find(|(n, _)| *n == i.name) {
                    i.linked_to.clone_from(far);
                }
            }
        }
        Model { devices }
    }
}
