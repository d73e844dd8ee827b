//! The questions a change verifier asks of the base and the candidate, and how each
//! answer moves the verdict (`docs/verification.md`, "Questions"): one module per group —
//! whether Batfish modeled the plan ([`modeled`]), references and addresses
//! ([`references`]), BGP sessions network-wide ([`bgp`]), the plan's routes and sessions
//! visible in Batfish's answers ([`routes`]), forwarding ([`reachability`]).

mod bgp;
mod modeled;
mod reachability;
mod references;
mod routes;

use super::client::{question, Client, TableAnswer};
use super::{tool, Candidate, Configs, Finding, Inputs};
use crate::engine::breaker::{ToolError, Tools};
use crate::import::parse::{detect, parser_for};
use crate::model::DeviceConfig;
use serde_json::json;
use std::collections::{BTreeSet, HashMap};

/// A question olav asks: Batfish's class and the parameters pybatfish would send after
/// the server filled its template (template defaults included, unset optional ones left out).
pub(super) struct Ask {
    name: &'static str,
    class: &'static str,
}

/// Severity of a finding that says Batfish did not model part of the plan: the
/// verification cannot vouch for it (the verdict is UNVERIFIED unless something fails).
pub const UNVERIFIED: &str = "unverified";

/// A configuration text parsed by its vendor's parser (None: no vendor olav reads).
fn parsed(text: &str) -> Option<DeviceConfig> {
    detect(text).ok().map(|v| parser_for(v).parse(text))
}

/// One verification's questions: the client, the two snapshots, the names people see.
pub(super) struct Asker<'a> {
    tools: &'a Tools,
    c: &'a Client,
    net: &'a str,
    base: &'a str,
    candidate: &'a str,
    /// Lowercase node → hostname as stored.
    shown: HashMap<String, String>,
    /// The devices whose configuration the plan changes (lowercase).
    touched: BTreeSet<String>,
    cand: &'a Candidate,
    /// Every device's stored configuration.
    configs: &'a Configs,
    /// Whether olav generated the providers' model (`isp_config.json`) for the base.
    isp_generated: bool,
    /// Each changed device (lowercase) with its configuration before and after the plan,
    /// parsed once for every question that reads them.
    changed: Vec<(String, DeviceConfig, DeviceConfig)>,
}

impl Asker<'_> {
    /// Asks `q` of snapshot `ss` (against `reference` for a differential question).
    fn ask(
        &self,
        q: &Ask,
        ss: &str,
        reference: Option<&str>,
        params: serde_json::Value,
    ) -> Result<TableAnswer, ToolError> {
        let question = question(q.class, q.name, reference.is_some(), params);
        tool(
            self.tools,
            "batfish.ask",
            json!({"question": q.name, "snapshot": ss}),
            || self.c.ask(self.net, ss, reference, &question),
        )
    }

    /// A node's stored configuration, parsed (None: not stored, or no vendor olav reads).
    fn stored_config(&self, node: &str) -> Option<DeviceConfig> {
        let (_, text) = self
            .configs
            .iter()
            .find(|(h, _)| h.eq_ignore_ascii_case(node))?;
        parsed(text)
    }

    /// A node as people know it (answers name nodes in lowercase).
    fn show(&self, node: &str) -> String {
        self.shown
            .get(&node.to_lowercase())
            .cloned()
            .unwrap_or_else(|| node.to_owned())
    }
}

/// Every question, the base against the candidate; the findings in order.
pub(super) fn ask_all(
    tools: &Tools,
    c: &Client,
    net: &str,
    base: &str,
    candidate: &str,
    inputs: &Inputs,
    cand: &Candidate,
) -> Result<Vec<Finding>, ToolError> {
    tool(
        tools,
        "batfish.parse",
        json!({"snapshot": candidate}),
        || c.parse(net, candidate),
    )?;
    let a = Asker {
        tools,
        c,
        net,
        base,
        candidate,
        shown: inputs
            .configs
            .iter()
            .map(|(h, _)| (h.to_lowercase(), h.clone()))
            .collect(),
        touched: cand.touched.iter().map(|(h, _)| h.to_lowercase()).collect(),
        cand,
        configs: &inputs.configs,
        isp_generated: inputs.isp_base.is_some(),
        changed: cand
            .touched
            .iter()
            .filter_map(|(h, after)| {
                let (_, before) = inputs.configs.iter().find(|(x, _)| x == h)?;
                Some((h.to_lowercase(), parsed(before)?, parsed(after)?))
            })
            .collect(),
    };
    let mut out = Vec::new();
    if let Some(isp) = &inputs.isp_candidate {
        let asns: Vec<String> = isp.asns.iter().map(u32::to_string).collect();
        out.push(Finding {
            severity: "info",
            question: "ispConfig",
            message: format!(
                "the snapshot has no batfish/isp_config.json: olav generated one from the external BGP sessions (border interfaces: {}; peers without one: {}), so Batfish models the providers (AS {})",
                if isp.border_interfaces.is_empty() { "none".to_owned() } else { isp.border_interfaces.join(", ") },
                if isp.bgp_peers.is_empty() { "none".to_owned() } else { isp.bgp_peers.join(", ") },
                asns.join(", ")
            ),
        });
    }
    out.extend(modeled::findings(&a)?);
    out.extend(references::findings(&a)?);
    out.extend(bgp::findings(&a)?);
    out.extend(routes::findings(&a)?);
    out.extend(reachability::findings(&a)?);
    Ok(out)
}
