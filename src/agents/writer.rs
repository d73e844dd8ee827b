//! The writer: an engineer's own configuration lines → a registered `custom` change plan,
//! the rollback derived from the stored configuration by the device's dialect when none
//! is given. It refuses, with the file and line, what olav cannot read, and an unknown
//! device with the closest names. Capabilities: read state, write plans.

use super::analyzer::facts::Facts;
use super::capability::{PlanWriter, StateReader};
use super::{StepError, StepRunner};
use crate::dialect::readable::{unreadable, without_scaffolding};
use crate::engine::contract::{CANDIDATE, CLARIFY, PLAN_PATH, REFUSED};
use crate::model::Vendor;
use crate::plan::{ConfigBlock, Header, Plan, Target, FORMAT_VERSION};
use std::fmt::Write as _;

/// The intent a hand-written plan carries.
pub const INTENT: &str = "custom";

/// The workflow that pre-checks and verifies hand-written lines.
pub const WORKFLOW: &str = "custom_plan";

/// Lines for one device, as the engineer gave them.
#[derive(Debug, Clone)]
pub struct DeviceLines {
    /// The device, as typed.
    pub device: String,
    /// Where the lines came from (a file name, or `stdin`), for messages.
    pub source: String,
    /// The lines.
    pub text: String,
    /// A rollback the engineer wrote: (where from, lines).
    pub rollback: Option<(String, String)>,
}

/// A hand-written change: its title and its lines per device.
#[derive(Debug, Clone, Default)]
pub struct CustomChange {
    /// The plan's title, when given.
    pub title: Option<String>,
    /// Lines per device, in the order given.
    pub devices: Vec<DeviceLines>,
}

/// The writer step agent.
pub struct Writer {
    state: StateReader,
    plans: PlanWriter,
    change: CustomChange,
    today: String,
}

impl Writer {
    /// A writer with its two capabilities and the lines it registers.
    pub fn new(state: StateReader, plans: PlanWriter, change: CustomChange, today: String) -> Self {
        Writer {
            state,
            plans,
            change,
            today,
        }
    }
}

fn one_line(s: &str) -> String {
    crate::output::one_line_printable(s)
}

/// A refusal: what is wrong, and each line or candidate under it.
fn refusal(question: &str, items: &[String]) -> String {
    let mut s = format!("No plan registered: {}\n", one_line(question));
    for i in items {
        let _ = writeln!(s, "  - {}", one_line(i));
    }
    let _ = writeln!(s, "\n{CLARIFY} {}", one_line(question));
    for i in items {
        let _ = writeln!(s, "{CANDIDATE} {}", one_line(i));
    }
    let _ = writeln!(s, "{REFUSED} {}", one_line(question));
    s
}

/// The known hostnames closest to `typed`, nearest first (at most three).
fn closest(typed: &str, names: &[String]) -> Vec<String> {
    let t = typed.to_ascii_lowercase();
    let mut scored: Vec<(usize, &String)> = names
        .iter()
        .map(|n| (crate::fuzzy::edit_distance(&t, &n.to_ascii_lowercase()), n))
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, n)| n.clone()).collect()
}

/// One device's lines, read and ready: (hostname, vendor, lines, rollback, rollback
/// derived?).
struct Ready {
    device: String,
    vendor: Vendor,
    lines: String,
    rollback: String,
    derived: bool,
}

impl Writer {
    /// Reads every device's lines; the refusal text when anything cannot be read.
    fn prepare(&self, facts: &Facts) -> Result<Vec<Ready>, String> {
        let names: Vec<String> = facts.devices.keys().cloned().collect();
        let mut out: Vec<Ready> = Vec::new();
        for d in &self.change.devices {
            let Some(dev) = facts.devices.get(&d.device).or_else(|| {
                facts
                    .devices
                    .values()
                    .find(|x| x.hostname.eq_ignore_ascii_case(&d.device))
            }) else {
                let near = closest(&d.device, &names);
                return Err(refusal(
                    &format!("no device '{}' in the state DB. Closest names:", d.device),
                    &near,
                ));
            };
            let device = dev.hostname.clone();
            let vendor = Vendor::from_os(&dev.os);
            let stored = self
                .state
                .query(
                    "state.config",
                    serde_json::json!({ "device": device }),
                    |db| db.config_text(&device),
                )
                .ok()
                .flatten()
                .ok_or_else(|| {
                    refusal(
                        &format!("the stored configuration of {device} is missing from the state DB: olav cannot apply lines to it or derive their rollback"),
                        &[],
                    )
                })?;
            let lines = without_scaffolding(&d.text);
            let mut bad: Vec<String> = unreadable(vendor, &stored, &lines)
                .into_iter()
                .map(|u| format!("{}:{}: `{}` — {}", d.source, u.line, u.text, u.why))
                .collect();
            if lines.trim().is_empty() {
                return Err(refusal(
                    &format!(
                        "{} holds no configuration lines for {device} (blank lines, comments and CLI scaffolding only)",
                        d.source
                    ),
                    &[],
                ));
            }
            let (rollback, derived) = match &d.rollback {
                Some((source, text)) => {
                    let text = without_scaffolding(text);
                    let candidate = crate::dialect::candidate_text(vendor, &stored, &lines);
                    bad.extend(
                        unreadable(vendor, &candidate, &text)
                            .into_iter()
                            .map(|u| format!("{source}:{}: `{}` — {}", u.line, u.text, u.why)),
                    );
                    (text, false)
                }
                None => match crate::dialect::derived_rollback(vendor, &stored, &lines) {
                    Some(r) => (r, true),
                    None => {
                        return Err(refusal(
                            &format!("olav derives rollbacks for IOS, IOS-XE, NX-OS, EOS and Junos; {device} runs {vendor}: give its rollback with --rollback FILE"),
                            &[],
                        ))
                    }
                },
            };
            if !bad.is_empty() {
                return Err(refusal(
                    &format!(
                        "olav cannot read {} line(s) for {device}; it judges only lines it reads:",
                        bad.len()
                    ),
                    &bad,
                ));
            }
            if derived && rollback.trim().is_empty() {
                return Err(refusal(
                    &format!("the lines for {device} change nothing in its stored configuration (each is already there): there is nothing to verify"),
                    &[],
                ));
            }
            out.push(Ready {
                device,
                vendor,
                lines: lines
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .collect::<Vec<_>>()
                    .join("\n"),
                rollback,
                derived,
            });
        }
        if out.is_empty() {
            return Err(refusal("no device and no lines were given", &[]));
        }
        Ok(out)
    }
}

/// The plan for the lines read.
fn plan_of(
    ready: &[Ready],
    title: &str,
    request: &str,
    state_version: i64,
    now: &str,
) -> (Plan, String) {
    let devices: Vec<&str> = ready.iter().map(|r| r.device.as_str()).collect();
    let topic = format!(
        "custom-{}",
        crate::agents::analyzer::draft::slug(&devices.join("-"))
    );
    let id = uuid::Uuid::new_v4().simple().to_string();
    let block = |r: &Ready, text: &str| ConfigBlock {
        device: r.device.clone(),
        os: r.vendor.os_name().to_owned(),
        text: text.to_owned(),
    };
    let count = |t: &str| t.lines().filter(|l| !l.trim().is_empty()).count();
    let mut scope = String::new();
    for r in ready {
        let _ = writeln!(
            scope,
            "- {} ({}): {} line(s) as written by the engineer; rollback {}",
            r.device,
            r.vendor,
            count(&r.lines),
            if r.derived {
                "derived by olav from the stored configuration"
            } else {
                "as written by the engineer"
            }
        );
    }
    let mut verification = String::new();
    for r in ready {
        let _ = writeln!(verification, "On {}:\n\n```", r.device);
        for c in crate::dialect::show_changed(r.vendor, &r.lines) {
            let _ = writeln!(verification, "{c}");
        }
        let _ = writeln!(verification, "```\n");
    }
    let mut plan = Plan {
        header: Header {
            olav_plan: FORMAT_VERSION,
            plan_id: format!("{}-{topic}-{}", now.get(..10).unwrap_or("0000-00-00"), &id[..6]),
            workflow: WORKFLOW.to_owned(),
            intent: INTENT.to_owned(),
            targets: ready
                .iter()
                .map(|r| Target::Device {
                    device: r.device.clone(),
                })
                .collect(),
            state_version,
            created: now.to_owned(),
            request: request.to_owned(),
            understood: format!(
                "Understood: verify hand-written configuration for {}",
                devices.join(", ")
            ),
            what_if: false,
            drafted: String::new(),
            removes: Vec::new(),
        },
        title: title.to_owned(),
        summary: format!(
            "Hand-written configuration for {}: olav declares nothing for it, so the pre-check lists every effect it computes (what the change does, forwarding, sessions, services, filters, announcements) and calls an effect that breaks one an error.",
            devices.join(", ")
        ),
        scope,
        implementation_notes: String::new(),
        implementation: ready.iter().map(|r| block(r, &r.lines)).collect(),
        rollback: ready.iter().map(|r| block(r, &r.rollback)).collect(),
        verification,
        blast_radius: "Not claimed: a custom plan declares nothing. The pre-check recomputes it from the candidate network.".to_owned(),
        claimed_blast_radius: None,
        risks: "Lines written by hand: olav judges what it models (interfaces, routing, policy objects, filters); what the pre-check cannot tell is said there as unknown.".to_owned(),
        pre_change: format!(
            "```sh\nolav precheck {}\nolav verify {}\n```",
            crate::agents::analyzer::draft::PATH_TOKEN,
            crate::agents::analyzer::draft::PATH_TOKEN
        ),
    };
    plan.header.drafted = plan.config_digest();
    (plan, topic)
}

impl StepRunner for Writer {
    fn run(&mut self, prompt: &str) -> Result<String, StepError> {
        let facts = self
            .state
            .query("state.facts", serde_json::json!({}), Facts::load)?;
        let ready = match self.prepare(&facts) {
            Ok(r) => r,
            Err(refused) => return Ok(refused),
        };
        let devices: Vec<&str> = ready.iter().map(|r| r.device.as_str()).collect();
        let title = self
            .change
            .title
            .clone()
            .map(|t| one_line(&t))
            .unwrap_or_else(|| format!("Custom change on {}", devices.join(", ")));
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let (plan, topic) = plan_of(&ready, &title, &one_line(prompt), facts.state_version, &now);
        let md = plan.to_markdown();
        let path = self.plans.save(&plan, &topic, &self.today, &|p| {
            md.replace(crate::agents::analyzer::draft::PATH_TOKEN, p)
        })?;
        let path = path.to_string_lossy();
        let mut reply = format!("{}\n", plan.header.understood);
        for r in &ready {
            let _ = writeln!(
                reply,
                "{}: {} line(s); rollback {} ({} line(s))",
                r.device,
                r.lines.lines().count(),
                if r.derived {
                    "derived from the stored configuration"
                } else {
                    "as given"
                },
                r.rollback.lines().filter(|l| !l.trim().is_empty()).count()
            );
        }
        let _ = writeln!(reply, "Plan saved: {path}\n\n{PLAN_PATH} {path}");
        Ok(reply)
    }
}
