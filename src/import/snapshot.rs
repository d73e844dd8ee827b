//! The snapshot folder: its config files (read recursively, size-bounded, content-hashed),
//! its `state.yaml` and `batfish/` files, and the files skipped with why.

use super::opstate;
use super::{FileIssue, ImportError, BATFISH_DIR, MAX_CONFIG_BYTES};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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
    /// Reads a snapshot folder from disk, every file into memory.
    pub fn from_dir(dir: &Path) -> Result<Snapshot, ImportError> {
        let listed = SnapshotDir::open(dir)?;
        let mut configs = Vec::with_capacity(listed.configs.len());
        let mut unreadable = Vec::new();
        for i in 0..listed.count() {
            match listed.read(i) {
                Ok(f) => configs.push(f.into_owned()),
                Err(issue) => unreadable.push(issue),
            }
        }
        unreadable.extend(listed.unreadable);
        Ok(Snapshot {
            label: listed.label,
            configs,
            state_file: listed.state_file,
            batfish_files: listed.batfish_files,
            unreadable,
        })
    }

    /// A digest of every file's path and bytes: equal digests mean the same snapshot.
    pub fn content_hash(&self) -> String {
        let mut h = ContentHasher::default();
        for f in &self.configs {
            h.add(f);
        }
        h.finish(self.state_file.as_ref(), &self.batfish_files)
    }
}

/// The digest of a snapshot's files, fed config by config in path order, then the state
/// file and the `batfish/` files.
#[derive(Default)]
pub(super) struct ContentHasher(Sha256);

impl ContentHasher {
    pub(super) fn add(&mut self, f: &SourceFile) {
        self.0.update(f.path.as_bytes());
        self.0.update([0]);
        self.0.update((f.bytes.len() as u64).to_le_bytes());
        self.0.update(&f.bytes);
    }

    pub(super) fn finish(
        mut self,
        state_file: Option<&SourceFile>,
        batfish: &[SourceFile],
    ) -> String {
        for f in state_file.into_iter().chain(batfish) {
            self.add(f);
        }
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// A snapshot folder whose config files are listed, not read: an import reads them one at
/// a time, so that a large snapshot is never in memory whole. The state file and the
/// `batfish/` files (small) are read at once.
#[derive(Debug)]
pub struct SnapshotDir {
    /// Where it came from, for messages and the import log.
    pub label: String,
    root: PathBuf,
    /// Config files in path order.
    configs: Vec<PathBuf>,
    /// SONiC device folders (`sonic_configs/<host>/`), each read as one config after the
    /// files of `configs/`.
    sonic: Vec<PathBuf>,
    /// The state file, if present.
    pub state_file: Option<SourceFile>,
    /// Every file of the `batfish/` folder, in path order.
    pub batfish_files: Vec<SourceFile>,
    /// `batfish/` files passed over, with the reason (config files are judged when read).
    pub unreadable: Vec<FileIssue>,
}

/// Folders of Batfish's snapshot layout olav does not read, and what they hold.
const OTHER_FOLDERS: [(&str, &str); 4] = [
    ("aws_configs", "AWS configurations"),
    ("hosts", "host files (servers' interfaces and filters)"),
    ("iptables", "iptables rules of hosts"),
    ("checkpoint_management", "Check Point management data"),
];

impl SnapshotDir {
    /// Lists a snapshot folder's config files and reads its other files.
    pub fn open(dir: &Path) -> Result<SnapshotDir, ImportError> {
        let configs_dir = dir.join("configs");
        let sonic_dir = dir.join(SONIC_DIR);
        if !configs_dir.is_dir() && !sonic_dir.is_dir() {
            return Err(ImportError::NoConfigsDir(dir.to_path_buf()));
        }
        let mut configs = Vec::new();
        if configs_dir.is_dir() {
            walk(&configs_dir, &mut configs)?;
        }
        configs.sort();
        let mut sonic = Vec::new();
        if sonic_dir.is_dir() {
            let entries = std::fs::read_dir(&sonic_dir).map_err(|source| ImportError::Io {
                path: sonic_dir.clone(),
                source,
            })?;
            sonic.extend(entries.flatten().map(|e| e.path()).filter(|p| {
                p.is_dir()
                    && !p
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            }));
        }
        sonic.sort();
        let batfish_dir = dir.join(BATFISH_DIR);
        let mut batfish_paths = Vec::new();
        if batfish_dir.is_dir() {
            walk(&batfish_dir, &mut batfish_paths)?;
        }
        batfish_paths.sort();
        let mut unreadable = Vec::new();
        let mut batfish_files = Vec::new();
        for p in &batfish_paths {
            match read_one(dir, p) {
                Ok(f) => batfish_files.push(f),
                Err(issue) => unreadable.push(issue),
            }
        }
        // Batfish's other snapshot folders hold what olav does not read: named, never
        // passed over in silence.
        for (folder, what) in OTHER_FOLDERS {
            let d = dir.join(folder);
            if d.is_dir() {
                let mut files = Vec::new();
                walk(&d, &mut files)?;
                files.sort();
                for f in files {
                    let rel = f.strip_prefix(dir).unwrap_or(&f);
                    unreadable.push(FileIssue {
                        file: rel.to_string_lossy().replace('\\', "/"),
                        line: None,
                        message: format!("{what}: not read yet"),
                    });
                }
            }
        }
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
        Ok(SnapshotDir {
            label: dir.display().to_string(),
            root: dir.to_path_buf(),
            configs,
            sonic,
            state_file,
            batfish_files,
            unreadable,
        })
    }

    /// The digest of every file's path and bytes, as [`Snapshot::content_hash`] computes
    /// it, reading the config files one at a time.
    pub fn content_hash(&self) -> String {
        let mut h = ContentHasher::default();
        for i in 0..self.count() {
            if let Ok(f) = self.read(i) {
                h.add(&f);
            }
        }
        h.finish(self.state_file.as_ref(), &self.batfish_files)
    }
}

/// The config files of a snapshot, in path order: held in memory or read when asked for.
pub trait ConfigFiles: Sync {
    /// How many there are.
    fn count(&self) -> usize;
    /// The `i`th file with its contents, or why it cannot be read.
    fn read(&self, i: usize) -> Result<Cow<'_, SourceFile>, FileIssue>;
}

impl ConfigFiles for Snapshot {
    fn count(&self) -> usize {
        self.configs.len()
    }

    fn read(&self, i: usize) -> Result<Cow<'_, SourceFile>, FileIssue> {
        self.configs
            .get(i)
            .map(Cow::Borrowed)
            .ok_or_else(|| FileIssue::whole_file("configs/", format!("no config file {i}")))
    }
}

impl ConfigFiles for SnapshotDir {
    fn count(&self) -> usize {
        self.configs.len() + self.sonic.len()
    }

    fn read(&self, i: usize) -> Result<Cow<'_, SourceFile>, FileIssue> {
        if let Some(d) = i
            .checked_sub(self.configs.len())
            .and_then(|k| self.sonic.get(k))
        {
            return read_sonic(&self.root, d).map(Cow::Owned);
        }
        let p = self
            .configs
            .get(i)
            .ok_or_else(|| FileIssue::whole_file("configs/", format!("no config file {i}")))?;
        read_one(&self.root, p).map(Cow::Owned)
    }
}

/// Batfish's folder of SONiC devices: one folder per device.
const SONIC_DIR: &str = "sonic_configs";

/// A SONiC device folder (`config_db.json` + `frr.conf`) as one config file, the two
/// joined ([`crate::import::parse::frr::sonic::join`]); a missing or unreadable file is
/// named.
fn read_sonic(dir: &Path, device: &Path) -> Result<SourceFile, FileIssue> {
    let rel = device.strip_prefix(dir).unwrap_or(device);
    let rel_str = rel.to_string_lossy().replace('\\', "/");
    let mut parts = Vec::with_capacity(2);
    let mut modified = None;
    for name in ["config_db.json", "frr.conf"] {
        let f = read_one(dir, &device.join(name)).map_err(|mut issue| {
            if !device.join(name).is_file() {
                issue = FileIssue::whole_file(
                    &rel_str,
                    format!(
                        "SONiC device folder without {name} (it needs config_db.json and frr.conf)"
                    ),
                );
            }
            issue
        })?;
        modified = modified.max(f.modified);
        parts.push(f.bytes);
    }
    Ok(SourceFile {
        name_hint: name_hint(rel),
        path: rel_str,
        bytes: crate::import::parse::frr::sonic::join(&parts[0], &parts[1]),
        modified,
    })
}

/// Reads one file of the snapshot under `dir`; a file too large to be a snapshot's, or
/// one that cannot be read, is passed over with the reason.
fn read_one(dir: &Path, p: &Path) -> Result<SourceFile, FileIssue> {
    let rel = p.strip_prefix(dir).unwrap_or(p);
    let rel_str = rel.to_string_lossy().replace('\\', "/");
    // One bad entry never stops the import: it is skipped and named.
    let meta = std::fs::metadata(p)
        .map_err(|e| FileIssue::whole_file(&rel_str, format!("cannot read: {e}")))?;
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(FileIssue::whole_file(
            &rel_str,
            format!(
                "{} bytes: larger than any configuration ({} MiB limit)",
                meta.len(),
                MAX_CONFIG_BYTES >> 20
            ),
        ));
    }
    match crate::fsutil::read_regular_known(p, &meta, MAX_CONFIG_BYTES) {
        Ok(bytes) => Ok(SourceFile {
            name_hint: name_hint(rel),
            path: rel_str,
            bytes,
            modified: meta.modified().ok(),
        }),
        Err(e) => Err(FileIssue::whole_file(&rel_str, format!("cannot read: {e}"))),
    }
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
pub(super) fn name_hint(rel: &Path) -> String {
    let comps: Vec<_> = rel.components().collect();
    if comps.len() >= 3 {
        return comps[1].as_os_str().to_string_lossy().into_owned();
    }
    rel.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
