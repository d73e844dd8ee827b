//! Change plans: the Markdown file the analyzer writes and the reporter and simulator
//! read. Format: `docs/plan-format.md`. Written atomically, never overwriting; read
//! back with pulldown-cmark.

pub mod claims;

use pulldown_cmark::{
    CodeBlockKind, Event, HeadingLevel, MetadataBlockKind, Options, Parser, Tag, TagEnd,
};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The plan format version written in every header.
pub const FORMAT_VERSION: u32 = 1;

/// What a plan changes, for machines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A whole device.
    Device {
        /// Hostname.
        device: String,
    },
    /// One interface.
    Interface {
        /// Hostname.
        device: String,
        /// Interface name as configured.
        interface: String,
    },
    /// A link between two interfaces.
    Link {
        /// One side's device.
        device_a: String,
        /// One side's interface.
        interface_a: String,
        /// Other side's device.
        device_b: String,
        /// Other side's interface.
        interface_b: String,
    },
    /// A BGP peer on a device.
    Peer {
        /// Hostname.
        device: String,
        /// Peer address.
        peer: String,
        /// Peer AS.
        asn: Option<u32>,
        /// Peer name (from the session description).
        name: Option<String>,
    },
}

/// The machine-readable header (a YAML metadata block).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Format version.
    pub olav_plan: u32,
    /// Unique plan id.
    pub plan_id: String,
    /// Workflow that drafted it.
    pub workflow: String,
    /// Intent kind (`add_uplink`, `decommission_device`, …).
    pub intent: String,
    /// What it changes.
    pub targets: Vec<Target>,
    /// State version it was drafted against.
    pub state_version: i64,
    /// When it was drafted (RFC 3339, UTC).
    pub created: String,
    /// The request it answers.
    pub request: String,
    /// olav's reading of the request ("Understood: …"), shown first.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub understood: String,
    /// A what-if analysis ("what if X fails"): answered with a plan, but not a change to
    /// make — registered closed, claiming nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub what_if: bool,
    /// Digest of the configuration olav drafted (implementation and rollback, per
    /// device): the pre-check tells a hand-edited plan from the draft by it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub drafted: String,
    /// The devices a combination of plans removes (the change window's, whose intent is
    /// no longer a decommission's): never read from or written to a file.
    #[serde(skip)]
    pub removes: Vec<String>,
}

/// A fenced configuration block labelled with its device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigBlock {
    /// Device the lines are for.
    pub device: String,
    /// Its OS (`ios`, `eos`, `nxos`, `junos`).
    pub os: String,
    /// The configuration lines.
    pub text: String,
}

/// A change plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Header.
    pub header: Header,
    /// Title (the H1).
    pub title: String,
    /// What and why, in a few lines (cites the blast radius).
    pub summary: String,
    /// What is touched.
    pub scope: String,
    /// Ordered steps in words, before the configuration blocks (may be empty).
    pub implementation_notes: String,
    /// Configuration to apply.
    pub implementation: Vec<ConfigBlock>,
    /// Configuration that undoes it.
    pub rollback: Vec<ConfigBlock>,
    /// How to see that it worked.
    pub verification: String,
    /// The claimed blast radius, in words.
    pub blast_radius: String,
    /// The claimed blast-radius number (removed + isolated devices).
    pub claimed_blast_radius: Option<u32>,
    /// What could go wrong.
    pub risks: String,
    /// Ready-to-run commands that pre-check and verify this plan.
    pub pre_change: String,
}

impl Plan {
    /// A digest of the configuration the plan applies and rolls back: each block's
    /// device and lines (trailing spaces and blank lines aside).
    pub fn config_digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        for (part, blocks) in [
            ("implementation", &self.implementation),
            ("rollback", &self.rollback),
        ] {
            h.update(part.as_bytes());
            for b in blocks {
                h.update(b"\0");
                h.update(b.device.as_bytes());
                for l in b.text.lines().map(str::trim_end).filter(|l| !l.is_empty()) {
                    h.update(b"\n");
                    h.update(l.as_bytes());
                }
            }
        }
        format!("{:x}", h.finalize())
    }
}

/// The section headings, in order.
pub const SECTIONS: &[&str] = &[
    "Summary",
    "Scope",
    "Implementation",
    "Rollback",
    "Verification",
    "Blast radius",
    "Risks",
    "Pre-change verification",
];

/// The phrase the claimed number follows in the Blast radius section.
pub const NUMBER_LABEL: &str = "Blast-radius number:";

/// Why a plan could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// No YAML header block.
    #[error("no plan header (a `---` YAML block at the top)")]
    NoHeader,
    /// The header is not valid.
    #[error("plan header: {0}")]
    BadHeader(String),
    /// A required section is missing.
    #[error("missing section '## {0}'")]
    MissingSection(String),
    /// A config block lacks its device label.
    #[error("a config block in '## {0}' has no device= label")]
    UnlabelledBlock(String),
    /// A section appears twice: which one holds the plan would be a guess.
    #[error("line {line}: a second '## {name}' section (the plan has one of each)")]
    DuplicateSection {
        /// The section.
        name: String,
        /// Line of the second heading.
        line: usize,
    },
    /// A config block outside Implementation and Rollback: nothing would apply or check it.
    #[error("line {line}: a config block in '{section}' (config blocks belong under '## Implementation' and '## Rollback' only)")]
    StrayConfig {
        /// Where it sits ("## Verification", "the header").
        section: String,
        /// Line of its opening fence.
        line: usize,
    },
}

/// The 1-based line of a byte offset.
fn line_of(md: &str, offset: usize) -> usize {
    md.get(..offset).map_or(0, |b| b.matches('\n').count()) + 1
}

fn render_blocks(out: &mut String, blocks: &[ConfigBlock]) {
    for b in blocks {
        let _ = writeln!(out, "```config device={} os={}", b.device, b.os);
        out.push_str(b.text.trim_end());
        out.push_str("\n```\n\n");
    }
}

impl Plan {
    /// The plan as Markdown.
    pub fn to_markdown(&self) -> String {
        let mut s = String::from("---\n");
        s.push_str(&crate::yaml::to_string(&self.header).unwrap_or_default());
        s.push_str("---\n\n");
        if !self.header.understood.is_empty() {
            let _ = writeln!(
                s,
                "> {}\n",
                crate::output::md_prose(&self.header.understood)
            );
        }
        let _ = writeln!(s, "# {}\n", crate::output::md_prose(&self.title));
        for section in SECTIONS {
            let _ = writeln!(s, "## {section}\n");
            match *section {
                "Summary" => push_text(&mut s, &self.summary),
                "Scope" => push_text(&mut s, &self.scope),
                "Implementation" => {
                    if !self.implementation_notes.trim().is_empty() {
                        push_text(&mut s, &self.implementation_notes);
                    }
                    render_blocks(&mut s, &self.implementation)
                }
                "Rollback" => render_blocks(&mut s, &self.rollback),
                "Verification" => push_text(&mut s, &self.verification),
                "Blast radius" => push_text(&mut s, &self.blast_radius),
                "Risks" => push_text(&mut s, &self.risks),
                _ => push_text(&mut s, &self.pre_change),
            }
        }
        s
    }

    /// Reads a plan from Markdown.
    pub fn from_markdown(md: &str) -> Result<Plan, PlanError> {
        struct Section {
            name: String,
            start: usize,
            end: usize,
            blocks: Vec<ConfigBlock>,
        }
        let opts = Options::ENABLE_YAML_STYLE_METADATA_BLOCKS | Options::ENABLE_TABLES;
        let mut header_text: Option<String> = None;
        let mut in_meta = false;
        let mut title = String::new();
        let mut in_h1 = false;
        let mut in_h2 = false;
        let mut h2_text = String::new();
        let mut sections: Vec<Section> = Vec::new();
        let mut code: Option<(String, String)> = None;
        // Said after a missing section, which explains a misplaced block better.
        let mut stray: Option<PlanError> = None;
        for (ev, range) in Parser::new_ext(md, opts).into_offset_iter() {
            match ev {
                Event::Start(Tag::MetadataBlock(MetadataBlockKind::YamlStyle)) => in_meta = true,
                Event::End(TagEnd::MetadataBlock(_)) => in_meta = false,
                Event::Text(t) if in_meta => {
                    header_text.get_or_insert_with(String::new).push_str(&t)
                }
                Event::Start(Tag::Heading {
                    level: HeadingLevel::H1,
                    ..
                }) => in_h1 = true,
                Event::End(TagEnd::Heading(HeadingLevel::H1)) => in_h1 = false,
                Event::Start(Tag::Heading {
                    level: HeadingLevel::H2,
                    ..
                }) => {
                    if let Some(last) = sections.last_mut() {
                        last.end = range.start;
                    }
                    in_h2 = true;
                    h2_text.clear();
                }
                Event::End(TagEnd::Heading(HeadingLevel::H2)) => {
                    in_h2 = false;
                    let name = h2_text.trim();
                    if sections.iter().any(|s| s.name == name) {
                        return Err(PlanError::DuplicateSection {
                            name: name.to_owned(),
                            line: line_of(md, range.start),
                        });
                    }
                    sections.push(Section {
                        name: h2_text.trim().to_owned(),
                        start: range.end,
                        end: md.len(),
                        blocks: Vec::new(),
                    });
                }
                Event::Text(t) | Event::Code(t) if in_h2 => h2_text.push_str(&t),
                Event::Text(t) | Event::Code(t) if in_h1 => title.push_str(&t),
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                    // Config outside the two sections that hold it would be shown to
                    // nobody and applied by nobody: refused, never ignored.
                    let section = sections.last().map(|s| s.name.as_str());
                    if info.split_whitespace().next() == Some("config")
                        && !matches!(section, Some("Implementation" | "Rollback"))
                    {
                        stray.get_or_insert(PlanError::StrayConfig {
                            section: section
                                .map_or("the title part, before any section".to_owned(), |n| {
                                    format!("## {n}")
                                }),
                            line: line_of(md, range.start),
                        });
                    }
                    code = Some((info.to_string(), String::new()));
                }
                Event::Text(t) if code.is_some() => {
                    if let Some((_, body)) = code.as_mut() {
                        body.push_str(&t);
                    }
                }
                Event::End(TagEnd::CodeBlock) => {
                    let (Some((info, body)), Some(section)) = (code.take(), sections.last_mut())
                    else {
                        continue;
                    };
                    let mut words = info.split_whitespace();
                    if words.next() != Some("config") {
                        continue;
                    }
                    let mut device = None;
                    let mut os = String::new();
                    for w in words {
                        if let Some(d) = w.strip_prefix("device=") {
                            device = Some(d.to_owned());
                        } else if let Some(o) = w.strip_prefix("os=") {
                            os = o.to_owned();
                        }
                    }
                    let device =
                        device.ok_or_else(|| PlanError::UnlabelledBlock(section.name.clone()))?;
                    section.blocks.push(ConfigBlock {
                        device,
                        os,
                        text: body.trim_end().to_owned(),
                    });
                }
                _ => {}
            }
        }
        let header_text = header_text.ok_or(PlanError::NoHeader)?;
        let header: Header =
            crate::yaml::from_str(&header_text).map_err(|e| PlanError::BadHeader(e.to_string()))?;
        // The id names the plan in the registry, in file names and on every output line.
        if header.plan_id.trim().is_empty() || header.plan_id.chars().any(char::is_control) {
            return Err(PlanError::BadHeader(format!(
                "plan_id {:?} must be one line of text (no newlines or control characters)",
                header.plan_id
            )));
        }
        let find = |name: &str| -> Result<&Section, PlanError> {
            sections
                .iter()
                .find(|s| s.name == name)
                .ok_or_else(|| PlanError::MissingSection(name.to_owned()))
        };
        let text = |name: &str| -> Result<String, PlanError> {
            let s = find(name)?;
            Ok(md[s.start..s.end].trim().to_owned())
        };
        let blast_radius = text("Blast radius")?;
        for name in SECTIONS {
            find(name)?;
        }
        if let Some(e) = stray {
            return Err(e);
        }
        Ok(Plan {
            header,
            title: title.trim().to_owned(),
            summary: text("Summary")?,
            scope: text("Scope")?,
            implementation_notes: {
                let t = text("Implementation")?;
                t.find("```config")
                    .map_or(t.as_str(), |i| &t[..i])
                    .trim()
                    .to_owned()
            },
            implementation: find("Implementation")?.blocks.clone(),
            rollback: find("Rollback")?.blocks.clone(),
            verification: text("Verification")?,
            claimed_blast_radius: claimed_number(&blast_radius),
            blast_radius,
            risks: text("Risks")?,
            pre_change: text("Pre-change verification")?,
        })
    }
}

fn push_text(s: &mut String, text: &str) {
    // Prose carries names from configs and requests: never markup (issue 31, item 12).
    s.push_str(&crate::output::md_prose(text.trim_end()));
    s.push_str("\n\n");
}

/// The number after `Blast-radius number:` (bold markers and spaces tolerated).
pub fn claimed_number(text: &str) -> Option<u32> {
    let at = text.find(NUMBER_LABEL)?;
    let rest = text[at + NUMBER_LABEL.len()..].trim_start_matches(['*', ' ']);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Plan {
        Plan {
            header: Header {
                olav_plan: FORMAT_VERSION,
                plan_id: "p-1".into(),
                workflow: "decommission_impact".into(),
                intent: "decommission_device".into(),
                targets: vec![Target::Device {
                    device: "alpha-br-3560".into(),
                }],
                state_version: 4,
                created: "2026-11-30T10:00:00Z".into(),
                request: "Decommission alpha-br-3560: what do we lose?".into(),
                understood: "Understood: decommission alpha-br-3560".into(),
                what_if: false,
                drafted: String::new(),
                removes: Vec::new(),
            },
            title: "Decommission alpha-br-3560".into(),
            summary: "Remove it.\n\n- point one".into(),
            scope: "| a | b |\n|---|---|\n| 1 | 2 |".into(),
            implementation_notes: "1. **Drain.** first\n2. Shut.".into(),
            implementation: vec![ConfigBlock {
                device: "alpha-dist-1".into(),
                os: "ios".into(),
                text: "interface TwentyFiveGigE1/0/10\n shutdown".into(),
            }],
            rollback: vec![ConfigBlock {
                device: "alpha-dist-1".into(),
                os: "ios".into(),
                text: "interface TwentyFiveGigE1/0/10\n no shutdown".into(),
            }],
            verification: "```\nshow ip ospf neighbor\n```".into(),
            blast_radius: format!("**{NUMBER_LABEL} 3** (removed 1 + isolated 2)"),
            claimed_blast_radius: Some(3),
            risks: "- none".into(),
            pre_change: "```sh\nolav precheck x.md\n```".into(),
        }
    }

    #[test]
    fn round_trip() {
        let p = sample();
        let back = Plan::from_markdown(&p.to_markdown());
        assert_eq!(back, Ok(p));
    }

    #[test]
    fn missing_section_is_named() {
        let md = sample().to_markdown().replace("## Risks", "## Hazards");
        assert_eq!(
            Plan::from_markdown(&md).err(),
            Some(PlanError::MissingSection("Risks".into()))
        );
    }

    #[test]
    fn hand_edited_number() {
        assert_eq!(claimed_number("x **Blast-radius number: 12** y"), Some(12));
        assert_eq!(claimed_number("no number"), None);
    }
}
