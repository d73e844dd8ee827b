//! The model the static checks run over: every device's configuration as parsed once
//! per state version (crate::network), either as imported or as a candidate with a
//! plan's lines merged into the devices it configures.

use crate::import::parse::parser_for;
use crate::model::{LinkEnds, Vendor};
use crate::network::{ParsedConfigs, ParsedDevice};
use crate::plan::{Plan, Target};
use crate::state::{StateDb, StateError};
use std::collections::HashMap;
use std::sync::Arc;

/// All devices, sorted by hostname. Devices are shared: a candidate copies only the
/// devices the plan changes.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// Devices, by hostname.
    pub devices: Vec<Arc<ParsedDevice>>,
}

/// Each link end's far end, by (device, interface); None where more than one link
/// ends on the interface.
pub type FarEnds<'a> = HashMap<(&'a str, &'a str), Option<&'a (String, String)>>;

/// The far ends of `links`.
pub fn far_ends(links: &[LinkEnds]) -> FarEnds<'_> {
    let mut far_of: FarEnds<'_> = HashMap::new();
    for (a, b) in links {
        for (near, far) in [(a, b), (b, a)] {
            far_of
                .entry((near.0.as_str(), near.1.as_str()))
                .and_modify(|f| *f = None)
                .or_insert(Some(far));
        }
    }
    far_of
}

/// Sets each interface's `linked_to` where exactly one stored link ends on it.
pub fn link_interfaces(
    hostname: &str,
    config: &mut crate::model::DeviceConfig,
    far_of: &FarEnds<'_>,
) {
    for i in config.interfaces.iter_mut() {
        if let Some(Some(far)) = far_of.get(&(hostname, i.name.as_str())) {
            i.linked_to = Some(Box::new((*far).clone()));
        }
    }
}

impl Model {
    /// The network as imported.
    pub fn from_state(db: &StateDb) -> Result<Model, StateError> {
        Ok(Model {
            devices: ParsedConfigs::shared(db)?.devices(),
        })
    }

    /// The network as it would be after `plan`: its configuration lines applied to each
    /// device's stored configuration by the device's dialect
    /// ([`crate::dialect::candidate_text`]), and decommissioned devices removed. Only the
    /// devices the plan touches are read and parsed again.
    pub fn candidate(&self, db: &StateDb, plan: &Plan) -> Result<Model, StateError> {
        let removed = removed_devices(plan);
        let mut devices: Vec<Arc<ParsedDevice>> = self
            .devices
            .iter()
            .filter(|d| !removed.contains(&d.hostname.as_str()))
            .cloned()
            .collect();
        let lines = crate::dialect::plan_lines(plan);
        for d in devices.iter_mut() {
            if let Some(lines) = lines.get(&d.hostname) {
                *d = Arc::new(candidate_device(db, d, lines)?);
            }
        }
        Ok(Model { devices })
    }
}

/// Device `d` as the plan's `lines` leave it: applied to its stored configuration and
/// parsed again, its cabling as imported.
pub fn candidate_device(
    db: &StateDb,
    d: &ParsedDevice,
    lines: &str,
) -> Result<ParsedDevice, StateError> {
    let stored = db.config_text(&d.hostname)?.unwrap_or_default();
    let vendor = Vendor::from_os(&d.os);
    let text = crate::dialect::candidate_text(vendor, &stored, lines);
    let mut config = parser_for(vendor).parse(&text);
    config.warnings = Vec::new();
    let mut down_svis: Vec<String> = crate::routing::autostate::down_svis(&config, vendor)
        .into_iter()
        .collect();
    down_svis.sort_unstable();
    // The cabling stays as imported; a port the plan shuts is down in its config.
    for i in config.interfaces.iter_mut() {
        if let Some(old) = d.config.interfaces.iter().find(|o| o.name == i.name) {
            i.linked_to.clone_from(&old.linked_to);
        }
    }
    Ok(ParsedDevice {
        hostname: d.hostname.clone(),
        os: d.os.clone(),
        // Its lines are the candidate's, not the stored file's: say so where a problem
        // is cited.
        source_file: format!("{} as the plan leaves it", d.source_file),
        vtep: crate::network::vtep_interfaces(&text),
        config,
        down_svis,
    })
}

/// The devices a plan takes out of the network (a decommission's targets, and those of
/// the decommissions in a combination of plans).
pub fn removed_devices(plan: &Plan) -> Vec<&str> {
    plan.header
        .targets
        .iter()
        .filter_map(|t| match t {
            Target::Device { device } if plan.header.intent == "decommission_device" => {
                Some(device.as_str())
            }
            _ => None,
        })
        .chain(plan.header.removes.iter().map(String::as_str))
        .collect()
}
