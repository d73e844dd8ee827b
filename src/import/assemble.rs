//! Assembling the parsed devices into a snapshot: names, order, roles, links, services
//! and the facts `state.yaml` gives.

use super::opstate::OpState;
use super::snapshot::{ContentHasher, SourceFile};
use super::{layer1, links, opstate, roles};
use super::{Examined, FileIssue, ImportError, ParsedDevice, ParsedSnapshot};
use crate::model::Vendor;

/// A snapshot's files other than its configs.
pub(super) struct Source<'a> {
    pub(super) label: &'a str,
    pub(super) state_file: Option<&'a SourceFile>,
    pub(super) batfish_files: &'a [SourceFile],
    pub(super) unreadable: Vec<FileIssue>,
}

/// Names the devices as their files are read, in path order: the config's hostname, else
/// the file's name; the first file to claim a name keeps it, later ones are skipped.
pub(super) struct Namer {
    devices: Vec<ParsedDevice>,
    unreadable: Vec<FileIssue>,
    skipped: Vec<FileIssue>,
    warnings: Vec<FileIssue>,
    seen: std::collections::HashMap<String, String>,
    lines_total: u64,
    lines_unrecognised: u64,
}

impl Namer {
    /// A namer whose warnings start with `warnings` (the state file's).
    pub(super) fn new(warnings: Vec<FileIssue>) -> Namer {
        Namer {
            devices: Vec::new(),
            unreadable: Vec::new(),
            skipped: Vec::new(),
            warnings,
            seen: std::collections::HashMap::new(),
            lines_total: 0,
            lines_unrecognised: 0,
        }
    }

    /// Room for `files` devices, made once: a list grown by doubling holds up to twice
    /// what it needs while links are found, the import's peak.
    pub(super) fn expect(&mut self, files: usize) {
        self.devices.reserve_exact(files);
    }

    /// A file that could not be read.
    pub(super) fn unreadable(&mut self, issue: FileIssue) {
        self.unreadable.push(issue);
    }

    /// Names the device of one file read, with its warnings; `None` when the file is
    /// skipped (not a config, no usable name, a name taken).
    pub(super) fn admit(&mut self, e: Examined) -> Option<&ParsedDevice> {
        let r = match e.outcome {
            Ok(r) => r,
            Err(why) => {
                self.skipped.push(FileIssue::whole_file(&e.path, why));
                return None;
            }
        };
        self.lines_total += u64::from(r.lines_total);
        self.lines_unrecognised += u64::from(r.lines_unrecognised);
        let configured = r.configured.clone().filter(|h| !h.is_empty());
        if let Some(bad) = configured.as_ref().filter(|h| !valid_hostname(h)) {
            self.warnings.push(FileIssue::whole_file(
                &e.path,
                format!(
                    "hostname {bad:?} has a path separator or a control character; named '{}' after the file instead",
                    e.name_hint
                ),
            ));
        }
        let hostname = configured
            .filter(|h| valid_hostname(h))
            .unwrap_or_else(|| e.name_hint.clone());
        if !valid_hostname(&hostname) {
            self.skipped.push(FileIssue::whole_file(
                &e.path,
                format!("no usable hostname (the config's and the file's name are not names): {hostname:?}"),
            ));
            return None;
        }
        if let Some(first) = self.seen.get(&hostname) {
            self.skipped.push(FileIssue::whole_file(
                &e.path,
                format!("hostname '{hostname}' already imported from {first}"),
            ));
            return None;
        }
        self.seen.insert(hostname.clone(), e.path.clone());
        for w in &r.warnings {
            self.warnings.push(FileIssue {
                file: e.path.clone(),
                line: Some(w.line),
                message: w.message.clone(),
            });
        }
        // NX-OS, Junos, SR OS and FRR configs have no closing line (the brace walk warns
        // about unclosed blocks itself).
        if !r.saw_end
            && !matches!(
                r.vendor,
                Vendor::CiscoNxos | Vendor::JuniperJunos | Vendor::NokiaSros | Vendor::Frr
            )
        {
            self.warnings.push(FileIssue::whole_file(
                &e.path,
                format!(
                    "no closing 'end' line after {} lines: the file looks truncated; imported what it holds",
                    r.lines_total
                ),
            ));
        }
        if r.bare {
            self.warnings.push(FileIssue::whole_file(
                &e.path,
                "no interfaces and no BGP: is this a whole running config?".into(),
            ));
        }
        let mut config = r.config;
        // The parts the read took out to keep, given back to a whole device.
        if r.whole {
            config.hostname = r.configured;
            config.model.clone_from(&r.model);
            config.warnings = r.warnings;
        }
        self.devices.push(ParsedDevice {
            hostname,
            vendor: r.vendor,
            source_file: e.path,
            model: r.model,
            config,
            text: r.text,
            config_hash: r.config_hash,
            role: None,
            role_inferred: false,
            site: None,
            status: "active".to_owned(),
            management_address: None,
            down_svis: r.down_svis,
        });
        self.devices.last()
    }
}

/// Orders and completes the devices named: skipped files, warnings, facts from the state
/// file, roles and links.
pub(super) fn assemble(
    src: Source<'_>,
    opstate: OpState,
    namer: Namer,
    hasher: ContentHasher,
) -> Result<ParsedSnapshot, ImportError> {
    let Namer {
        mut devices,
        unreadable,
        skipped: named,
        mut warnings,
        seen,
        lines_total,
        lines_unrecognised,
    } = namer;
    let mut skipped = unreadable;
    skipped.extend(src.unreadable);
    skipped.extend(named);
    if devices.is_empty() {
        return Err(ImportError::NoDevices {
            label: src.label.to_owned(),
            skipped: skipped.len(),
            why: reasons(&skipped).join("; "),
        });
    }
    devices.sort_by(|a, b| a.hostname.cmp(&b.hostname));
    // Names that differ only in case are two devices to olav and one to many tools (and to
    // Batfish, which lowercases): say so.
    let mut by_lower: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, d) in devices.iter().enumerate() {
        if let Some(&first) = by_lower.get(&d.hostname.to_lowercase()) {
            let f = &devices[first];
            warnings.push(FileIssue::whole_file(
                &d.source_file,
                format!(
                    "hostname '{}' differs from '{}' ({}) only in case: requests naming either must use the exact case",
                    d.hostname, f.hostname, f.source_file
                ),
            ));
        } else {
            by_lower.insert(d.hostname.to_lowercase(), i);
        }
    }
    // The name maps are done with: 50,000 names each, kept beside the links would be the
    // import's peak (docs/performance.md).
    drop((seen, by_lower));
    apply_facts(&mut devices, &opstate, &mut warnings);
    roles::infer(&mut devices);
    let layer1 = src
        .batfish_files
        .iter()
        .find(|f| f.path == layer1::FILE_NAME)
        .and_then(
            |f| match layer1::Layer1::parse(&String::from_utf8_lossy(&f.bytes)) {
                Ok(l1) => Some(l1),
                Err(e) => {
                    // Batfish ignores an unreadable file too; links are then inferred.
                    warnings.push(FileIssue::whole_file(
                        &f.path,
                        format!(
                            "not Batfish's layer-1 topology ({e}); links are inferred from subnets"
                        ),
                    ));
                    None
                }
            },
        );
    crate::memory::phase("import", "devices named");
    let links = links::build(&devices, &opstate, layer1.as_ref(), &mut warnings);
    // What finding links freed (the subnets' list) is given back before roles are
    // inferred from them.
    crate::memory::release_freed();
    roles::infer_from_topology(&mut devices, &links);
    // Only a time the snapshot states: a file's modification time says when it was
    // copied, not when the network was read, and would make the freshness warning fire
    // (or stay quiet) for the wrong reason.
    let collected_at = opstate.collected_at.clone();
    Ok(ParsedSnapshot {
        label: src.label.to_owned(),
        devices,
        links,
        batfish_files: src.batfish_files.to_vec(),
        opstate,
        collected_at,
        skipped,
        warnings,
        content_hash: hasher.finish(src.state_file, src.batfish_files),
        lines_total,
        lines_unrecognised,
    })
}

/// A hostname olav can store, show and send to Batfish: not empty, no path separator,
/// no control character, not `.` or `..`.
pub fn valid_hostname(h: &str) -> bool {
    !h.is_empty()
        && h != "."
        && h != ".."
        && !h.contains(['/', '\\'])
        && !h.chars().any(char::is_control)
}

/// Applies the state file's per-device facts; management addresses fall back to the
/// management interface's address.
fn apply_facts(devices: &mut [ParsedDevice], opstate: &OpState, warnings: &mut Vec<FileIssue>) {
    // `devices` is sorted by hostname: binary search keeps this linear-logarithmic.
    for facts in &opstate.devices {
        match devices
            .binary_search_by(|d| d.hostname.as_str().cmp(&facts.hostname))
            .ok()
            .and_then(|i| devices.get_mut(i))
        {
            Some(d) => {
                d.role.clone_from(&facts.role);
                d.site.clone_from(&facts.site);
                if let Some(s) = &facts.status {
                    d.status.clone_from(s);
                }
                if facts.model.is_some() {
                    d.model.clone_from(&facts.model);
                }
                d.management_address.clone_from(&facts.management_address);
            }
            None => warnings.push(FileIssue::whole_file(
                opstate::FILE_NAME,
                format!(
                    "devices: '{}' has no config in this snapshot",
                    facts.hostname
                ),
            )),
        }
    }
    for d in devices.iter_mut() {
        if d.management_address.is_none() {
            d.management_address = d
                .config
                .interfaces
                .iter()
                .filter(|i| links::is_management(i))
                .flat_map(|i| i.addresses.first())
                .map(|a| a.address.addr().to_string())
                .next();
        }
    }
}

/// The reasons files were skipped, each with how many: `Cisco IOS-XR: not read yet (3
/// files)`, most frequent first.
pub(super) fn reasons(skipped: &[FileIssue]) -> Vec<String> {
    let mut count: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for f in skipped {
        *count.entry(f.message.as_str()).or_default() += 1;
    }
    let mut v: Vec<(&str, usize)> = count.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    v.into_iter()
        .map(|(m, n)| format!("{m} ({n} file{})", if n == 1 { "" } else { "s" }))
        .collect()
}
