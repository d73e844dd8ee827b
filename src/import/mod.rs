//! Snapshot import: a Batfish-layout folder (`configs/` read recursively, one device
//! per file, plus an optional `state.yaml` and Batfish's own `batfish/` folder) → parsed
//! devices, links and services ready for the state store.
//!
//! Reading never stops at one bad file: binary, empty and non-config files are skipped
//! and named; malformed lines become warnings with file and line.

pub mod layer1;
pub mod links;
pub mod opstate;
pub mod parse;
pub mod roles;

use crate::model::{DeviceConfig, Vendor};
use opstate::OpState;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Files larger than this are not configurations (the largest real ones are a few MB).
pub const MAX_CONFIG_BYTES: u64 = 64 * 1024 * 1024;

/// Batfish's own folder in a snapshot (`batfish/layer1_topology.json`, `isp_config.json`, …).
pub const BATFISH_DIR: &str = "batfish";

/// Errors that stop an import before anything is written.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The snapshot folder has no `configs/` folder.
    #[error("{0}: no configs/ folder (a snapshot holds configs/<device>.cfg or configs/<device>/<file>)")]
    NoConfigsDir(PathBuf),
    /// A file or folder could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Nothing in the snapshot could be imported: importing it would wipe the state.
    #[error("{label}: no device could be imported ({skipped} file(s) skipped); the state is left as it was")]
    NoDevices {
        /// The snapshot.
        label: String,
        /// Files skipped.
        skipped: usize,
    },
    /// The state file is not valid.
    #[error("{path}: {source}")]
    StateFile {
        /// The path.
        path: String,
        /// The cause.
        source: crate::yaml::YamlError,
    },
}

/// A file of a snapshot, read into memory.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path as shown to users and stored as provenance (`configs/r1.cfg`).
    pub path: String,
    /// Device name the path implies (file stem, or the folder under `configs/`).
    pub name_hint: String,
    /// Contents.
    pub bytes: Vec<u8>,
    /// Modification time, when the file came from disk.
    pub modified: Option<SystemTime>,
}

/// A snapshot to import.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// Where it came from, for messages and the import log.
    pub label: String,
    /// Config files in path order.
    pub configs: Vec<SourceFile>,
    /// The state file, if present.
    pub state_file: Option<SourceFile>,
    /// Every file of the snapshot's `batfish/` folder (`layer1_topology.json`,
    /// `isp_config.json`, `runtime_data.json`, …), in path order: kept as they are.
    pub batfish_files: Vec<SourceFile>,
    /// Files passed over while reading (too large, unreadable), with the reason.
    pub unreadable: Vec<FileIssue>,
}

impl Snapshot {
    /// Reads a snapshot folder from disk.
    pub fn from_dir(dir: &Path) -> Result<Snapshot, ImportError> {
        let configs_dir = dir.join("configs");
        if !configs_dir.is_dir() {
            return Err(ImportError::NoConfigsDir(dir.to_path_buf()));
        }
        let mut paths = Vec::new();
        walk(&configs_dir, &mut paths)?;
        paths.sort();
        let mut unreadable = Vec::new();
        let configs = read_files(dir, paths, &mut unreadable);
        let batfish_dir = dir.join(BATFISH_DIR);
        let mut batfish_paths = Vec::new();
        if batfish_dir.is_dir() {
            walk(&batfish_dir, &mut batfish_paths)?;
        }
        batfish_paths.sort();
        let batfish_files = read_files(dir, batfish_paths, &mut unreadable);
        let state_path = dir.join(opstate::FILE_NAME);
        let state_file = if state_path.is_file() {
            let bytes = crate::fsutil::read_regular(&state_path, crate::fsutil::TEXT_LIMIT)
                .map_err(|source| ImportError::Io {
                    path: state_path.clone(),
                    source,
                })?;
            Some(SourceFile {
                path: opstate::FILE_NAME.to_owned(),
                name_hint: String::new(),
                bytes,
                modified: None,
            })
        } else {
            None
        };
        Ok(Snapshot {
            label: dir.display().to_string(),
            configs,
            state_file,
            batfish_files,
            unreadable,
        })
    }

    /// A digest of every file's path and bytes: equal digests mean the same snapshot.
    pub fn content_hash(&self) -> String {
        let mut h = Sha256::new();
        for f in self
            .configs
            .iter()
            .chain(self.state_file.as_ref())
            .chain(&self.batfish_files)
        {
            h.update(f.path.as_bytes());
            h.update([0]);
            h.update((f.bytes.len() as u64).to_le_bytes());
            h.update(&f.bytes);
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Reads `paths` (files under `dir`) into memory; files too large to be a snapshot's are
/// passed over and named in `unreadable`.
fn read_files(dir: &Path, paths: Vec<PathBuf>, unreadable: &mut Vec<FileIssue>) -> Vec<SourceFile> {
    let mut files = Vec::new();
    for p in paths {
        let rel = p.strip_prefix(dir).unwrap_or(&p);
        let rel_str = rel.to_string_lossy().replace('\\', "/");
        // One bad entry never stops the import: it is skipped and named.
        let meta = match std::fs::metadata(&p) {
            Ok(m) => m,
            Err(e) => {
                unreadable.push(FileIssue::whole_file(&rel_str, format!("cannot read: {e}")));
                continue;
            }
        };
        if meta.len() > MAX_CONFIG_BYTES {
            unreadable.push(FileIssue::whole_file(
                &rel_str,
                format!(
                    "{} bytes: larger than any configuration ({} MiB limit)",
                    meta.len(),
                    MAX_CONFIG_BYTES >> 20
                ),
            ));
            continue;
        }
        match crate::fsutil::read_regular(&p, MAX_CONFIG_BYTES) {
            Ok(bytes) => files.push(SourceFile {
                name_hint: name_hint(rel),
                path: rel_str,
                bytes,
                modified: meta.modified().ok(),
            }),
            Err(e) => unreadable.push(FileIssue::whole_file(&rel_str, format!("cannot read: {e}"))),
        }
    }
    files
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ImportError> {
    let entries = std::fs::read_dir(dir).map_err(|source| ImportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    walk_entries(entries, out, 0);
    Ok(())
}

/// Folders nested deeper than this are a link loop, not a snapshot.
const MAX_DEPTH: usize = 16;

/// Collects files below a folder; an entry that cannot be read (a dangling or looping
/// link, a name too long) is kept as a path so that reading it names the problem as a
/// skipped file, never stopping the walk.
fn walk_entries(entries: std::fs::ReadDir, out: &mut Vec<PathBuf>, depth: usize) {
    for entry in entries.flatten() {
        let path = entry.path();
        // Hidden files (.gitkeep, .DS_Store) are never configs.
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() && depth < MAX_DEPTH {
            match std::fs::read_dir(&path) {
                Ok(sub) => walk_entries(sub, out, depth + 1),
                Err(_) => out.push(path),
            }
        } else {
            out.push(path);
        }
    }
}

/// `configs/r1.cfg` → `r1`; `configs/r1/show_running-config.txt` → `r1`.
fn name_hint(rel: &Path) -> String {
    let comps: Vec<_> = rel.components().collect();
    if comps.len() >= 3 {
        return comps[1].as_os_str().to_string_lossy().into_owned();
    }
    rel.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A problem with one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIssue {
    /// Snapshot-relative path.
    pub file: String,
    /// Line, when the problem is one line.
    pub line: Option<u32>,
    /// What was wrong.
    pub message: String,
}

impl FileIssue {
    /// A problem with a whole file (no line).
    fn whole_file(file: &str, message: String) -> Self {
        FileIssue {
            file: file.to_owned(),
            line: None,
            message,
        }
    }
}

impl std::fmt::Display for FileIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.file, l, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// One parsed device.
#[derive(Debug, Clone)]
pub struct ParsedDevice {
    /// Hostname (config's own, else from the path).
    pub hostname: String,
    /// Detected vendor.
    pub vendor: Vendor,
    /// Snapshot-relative path of its config.
    pub source_file: String,
    /// The parsed model.
    pub config: DeviceConfig,
    /// The config text as read, kept for candidate snapshots.
    pub text: String,
    /// Role, from the state file or inferred.
    pub role: Option<String>,
    /// Whether the role was inferred rather than given.
    pub role_inferred: bool,
    /// Site.
    pub site: Option<String>,
    /// NetBox-style status.
    pub status: String,
    /// Hardware model.
    pub model: Option<String>,
    /// Management address.
    pub management_address: Option<String>,
}

/// Everything an import writes.
#[derive(Debug, Clone)]
pub struct ParsedSnapshot {
    /// Where it came from.
    pub label: String,
    /// Devices in hostname order.
    pub devices: Vec<ParsedDevice>,
    /// Links (LLDP, declared, inferred).
    pub links: Vec<links::Link>,
    /// The snapshot's `batfish/` files, stored as they are.
    pub batfish_files: Vec<SourceFile>,
    /// The state file's contents (empty when absent).
    pub opstate: OpState,
    /// When the snapshot was collected.
    pub collected_at: Option<String>,
    /// Files not imported, with the reason.
    pub skipped: Vec<FileIssue>,
    /// Warnings about imported files.
    pub warnings: Vec<FileIssue>,
    /// Digest of the snapshot's files.
    pub content_hash: String,
    /// Config lines read.
    pub lines_total: u64,
    /// Config lines no parser recognised.
    pub lines_unrecognised: u64,
}

/// Parses every file of a snapshot.
pub fn parse_snapshot(snap: &Snapshot) -> Result<ParsedSnapshot, ImportError> {
    let mut warnings = Vec::new();
    let opstate = match &snap.state_file {
        Some(f) => {
            let text = String::from_utf8_lossy(&f.bytes);
            let mut state = opstate::parse(&text).map_err(|source| ImportError::StateFile {
                path: f.path.clone(),
                source,
            })?;
            for (line, message) in opstate::validate(&mut state, &text) {
                warnings.push(FileIssue {
                    file: f.path.clone(),
                    line,
                    message,
                });
            }
            state
        }
        None => OpState::default(),
    };
    let mut skipped = snap.unreadable.clone();
    let mut devices: Vec<ParsedDevice> = Vec::new();
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut lines_total = 0u64;
    let mut lines_unrecognised = 0u64;
    for f in &snap.configs {
        let text = match parse::decode(&f.bytes) {
            Ok(t) => t,
            Err(e) => {
                skipped.push(FileIssue::whole_file(&f.path, e.to_string()));
                continue;
            }
        };
        let vendor = match parse::detect(&text) {
            Ok(v) => v,
            Err(e) => {
                skipped.push(FileIssue::whole_file(&f.path, e.to_string()));
                continue;
            }
        };
        let config = parse::parser_for(vendor).parse(&text);
        lines_total += u64::from(config.lines_total);
        lines_unrecognised += u64::from(config.lines_unrecognised);
        let configured = config.hostname.clone().filter(|h| !h.is_empty());
        if let Some(bad) = configured.as_ref().filter(|h| !valid_hostname(h)) {
            warnings.push(FileIssue::whole_file(
                &f.path,
                format!(
                    "hostname {bad:?} has a path separator or a control character; named '{}' after the file instead",
                    f.name_hint
                ),
            ));
        }
        let hostname = configured
            .filter(|h| valid_hostname(h))
            .unwrap_or_else(|| f.name_hint.clone());
        if !valid_hostname(&hostname) {
            skipped.push(FileIssue::whole_file(
                &f.path,
                format!("no usable hostname (the config's and the file's name are not names): {hostname:?}"),
            ));
            continue;
        }
        if let Some(first) = seen.get(&hostname) {
            skipped.push(FileIssue::whole_file(
                &f.path,
                format!("hostname '{hostname}' already imported from {first}"),
            ));
            continue;
        }
        seen.insert(hostname.clone(), f.path.clone());
        for w in &config.warnings {
            warnings.push(FileIssue {
                file: f.path.clone(),
                line: Some(w.line),
                message: w.message.clone(),
            });
        }
        // NX-OS and Junos configs have no closing line (the Junos parser warns about
        // unclosed blocks itself).
        if !config.saw_end && !matches!(vendor, Vendor::CiscoNxos | Vendor::JuniperJunos) {
            warnings.push(FileIssue::whole_file(
                &f.path,
                format!(
                    "no closing 'end' line after {} lines: the file looks truncated; imported what it holds",
                    config.lines_total
                ),
            ));
        }
        if config.interfaces.is_empty() && config.bgp.is_none() {
            warnings.push(FileIssue::whole_file(
                &f.path,
                "no interfaces and no BGP: is this a whole running config?".into(),
            ));
        }
        devices.push(ParsedDevice {
            hostname,
            vendor,
            source_file: f.path.clone(),
            model: config.model.clone(),
            config,
            text: text.into_owned(),
            role: None,
            role_inferred: false,
            site: None,
            status: "active".to_owned(),
            management_address: None,
        });
    }
    if devices.is_empty() {
        return Err(ImportError::NoDevices {
            label: snap.label.clone(),
            skipped: skipped.len(),
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
    apply_facts(&mut devices, &opstate, &mut warnings);
    roles::infer(&mut devices);
    let layer1 = snap
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
    let links = links::build(&devices, &opstate, layer1.as_ref(), &mut warnings);
    let collected_at = opstate.collected_at.clone().or_else(|| {
        snap.configs
            .iter()
            .filter_map(|f| f.modified)
            .max()
            .map(|t| {
                chrono::DateTime::<chrono::Utc>::from(t)
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            })
    });
    Ok(ParsedSnapshot {
        label: snap.label.clone(),
        devices,
        links,
        batfish_files: snap.batfish_files.clone(),
        opstate,
        collected_at,
        skipped,
        warnings,
        content_hash: snap.content_hash(),
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
