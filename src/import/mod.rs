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

use crate::model::{BgpNeighbor, BgpPeer, BgpProcess, DeviceConfig, LineWarning, Vendor};
use opstate::OpState;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
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
    /// A config file changed between the two readings of a streamed import.
    #[error(
        "{0}: changed while it was being imported; import the snapshot again when it is complete"
    )]
    Changed(String),
    /// A worker thread of the import stopped without an answer.
    #[error("the import's parser thread stopped unexpectedly")]
    Worker,
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
    /// Reads a snapshot folder from disk, every file into memory.
    pub fn from_dir(dir: &Path) -> Result<Snapshot, ImportError> {
        let listed = SnapshotDir::open(dir)?;
        let mut configs = Vec::with_capacity(listed.configs.len());
        let mut unreadable = Vec::new();
        for i in 0..listed.configs.len() {
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
struct ContentHasher(Sha256);

impl ContentHasher {
    fn add(&mut self, f: &SourceFile) {
        self.0.update(f.path.as_bytes());
        self.0.update([0]);
        self.0.update((f.bytes.len() as u64).to_le_bytes());
        self.0.update(&f.bytes);
    }

    fn finish(mut self, state_file: Option<&SourceFile>, batfish: &[SourceFile]) -> String {
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
    /// The state file, if present.
    pub state_file: Option<SourceFile>,
    /// Every file of the `batfish/` folder, in path order.
    pub batfish_files: Vec<SourceFile>,
    /// `batfish/` files passed over, with the reason (config files are judged when read).
    pub unreadable: Vec<FileIssue>,
}

impl SnapshotDir {
    /// Lists a snapshot folder's config files and reads its other files.
    pub fn open(dir: &Path) -> Result<SnapshotDir, ImportError> {
        let configs_dir = dir.join("configs");
        if !configs_dir.is_dir() {
            return Err(ImportError::NoConfigsDir(dir.to_path_buf()));
        }
        let mut configs = Vec::new();
        walk(&configs_dir, &mut configs)?;
        configs.sort();
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
            state_file,
            batfish_files,
            unreadable,
        })
    }

    /// The digest of every file's path and bytes, as [`Snapshot::content_hash`] computes
    /// it, reading the config files one at a time.
    pub fn content_hash(&self) -> String {
        let mut h = ContentHasher::default();
        for i in 0..self.configs.len() {
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
        self.configs.len()
    }

    fn read(&self, i: usize) -> Result<Cow<'_, SourceFile>, FileIssue> {
        let p = self
            .configs
            .get(i)
            .ok_or_else(|| FileIssue::whole_file("configs/", format!("no config file {i}")))?;
        read_one(&self.root, p).map(Cow::Owned)
    }
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
    /// Digest of the text (`device_version.config_hash`).
    pub config_hash: String,
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
    /// Index of its config among the snapshot's config files.
    file: usize,
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

/// Pass 1 of a streamed import: every config parsed once (on every core) and let go,
/// keeping what naming, ordering, roles, links and services need. The writer parses each
/// device again as it writes it ([`Prepared::each_device`]), so that no more than a few
/// parsed configs are in memory at once.
#[derive(Debug)]
pub struct Prepared {
    /// The snapshot with each device's config reduced to what links, roles and services
    /// read, and without its text.
    pub outline: ParsedSnapshot,
}

/// The interfaces and BGP neighbors pass 1 keeps of each config.
#[derive(Debug, Clone)]
enum Keep {
    /// Everything (a parse for its own sake).
    Everything,
    /// What links, roles and services need: every interface of the devices the state file
    /// or the layer-1 topology names (lower-cased; all of them when there is a layer-1
    /// file), only the interfaces that can make an inferred link or give the management
    /// address of the others.
    Outline {
        all_interfaces: bool,
        named: HashSet<String>,
    },
}

impl Keep {
    fn outline(opstate: &OpState, layer1: Option<&layer1::Layer1>) -> Keep {
        let side = |s: &str| {
            s.split_once(':')
                .map_or(s, |(h, _)| h)
                .trim()
                .to_lowercase()
        };
        let named = opstate
            .lldp
            .iter()
            .flat_map(|n| [n.hostname.to_lowercase(), n.neighbor.to_lowercase()])
            .chain(opstate.links.iter().flat_map(|l| [side(&l.a), side(&l.b)]))
            .chain(opstate.services.iter().flat_map(|s| {
                s.endpoints.iter().flat_map(|e| {
                    e.device
                        .iter()
                        .map(|d| d.to_lowercase())
                        .chain(e.interface.iter().map(|i| side(i)))
                })
            }))
            .collect();
        Keep::Outline {
            all_interfaces: layer1.is_some(),
            named,
        }
    }

    /// What of `config` is kept for the device named `names` (configured, from the path).
    fn apply(&self, config: DeviceConfig, names: [&str; 2]) -> DeviceConfig {
        let Keep::Outline {
            all_interfaces,
            named,
        } = self
        else {
            return config;
        };
        let whole = *all_interfaces || names.iter().any(|n| named.contains(&n.to_lowercase()));
        let interfaces = config
            .interfaces
            .into_iter()
            .filter(|i| whole || links::may_link(i) || links::gives_management_address(i))
            .map(|mut i| {
                i.description = None;
                i
            })
            .collect();
        let bgp = config.bgp.map(|b| BgpProcess {
            local_as: b.local_as,
            neighbors: b
                .neighbors
                .into_iter()
                .filter(|n| n.peer_asn.is_some() || matches!(n.peer, BgpPeer::Interface(_)))
                .map(|n| {
                    let mut kept = BgpNeighbor::new(None, n.peer, n.line);
                    kept.peer_asn = n.peer_asn;
                    kept.shutdown = n.shutdown;
                    kept
                })
                .collect(),
            ..BgpProcess::default()
        });
        DeviceConfig {
            interfaces,
            bgp,
            ..DeviceConfig::default()
        }
    }
}

/// What reading one config file found.
#[derive(Clone)]
struct Examined {
    file: usize,
    path: String,
    name_hint: String,
    modified: Option<SystemTime>,
    outcome: Result<Read, String>,
}

/// A config file decoded and parsed.
#[derive(Clone)]
struct Read {
    vendor: Vendor,
    configured: Option<String>,
    model: Option<String>,
    warnings: Vec<LineWarning>,
    lines_total: u32,
    lines_unrecognised: u32,
    saw_end: bool,
    bare: bool,
    whole: bool,
    config: DeviceConfig,
    text: String,
    config_hash: String,
}

/// The digest of a config's text kept per device and state version.
fn config_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn examine(f: &SourceFile, file: usize, keep: &Keep) -> Examined {
    let outcome = (|| {
        let text = parse::decode(&f.bytes).map_err(|e| e.to_string())?;
        let vendor = parse::detect(&text).map_err(|e| e.to_string())?;
        let mut config = parse::parser_for(vendor).parse(&text);
        let configured = config.hostname.take();
        let read = Read {
            vendor,
            model: config.model.take(),
            warnings: std::mem::take(&mut config.warnings),
            lines_total: config.lines_total,
            lines_unrecognised: config.lines_unrecognised,
            saw_end: config.saw_end,
            bare: config.interfaces.is_empty() && config.bgp.is_none(),
            whole: matches!(keep, Keep::Everything),
            config_hash: config_hash(&text),
            text: match keep {
                Keep::Everything => text.into_owned(),
                Keep::Outline { .. } => String::new(),
            },
            config: keep.apply(config, [configured.as_deref().unwrap_or(""), &f.name_hint]),
            configured,
        };
        Ok(read)
    })();
    Examined {
        file,
        path: f.path.clone(),
        name_hint: f.name_hint.clone(),
        modified: f.modified,
        outcome,
    }
}

/// Threads to parse on: every core (the writer waits while they work).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Items a worker hands over at once: one hand-over per item costs a wake-up of the
/// other thread each (futex system calls, context switches on a busy machine).
const BATCH: usize = 32;

/// Runs `work` on the items `0..n` on `workers` threads and hands each result to `each` on
/// this thread, in item order (batch b of [`BATCH`] items comes from thread b mod
/// `workers`: no sorting, no waiting on more than a few batches ahead). A batch then goes
/// back to the thread that made it to be freed there: freeing another thread's memory
/// would scatter chunks into its malloc arena (glibc) and slow its every allocation down,
/// a third of an import. Stops at the first error of `each`.
fn in_order<T, E>(
    n: usize,
    workers: usize,
    work: impl Fn(usize) -> T + Sync,
    mut each: impl FnMut(&mut T) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    E: From<ImportError>,
{
    let workers = workers.max(1);
    let batches = n.div_ceil(BATCH);
    std::thread::scope(|s| {
        let work = &work;
        let mut results = Vec::with_capacity(workers);
        let mut returns = Vec::with_capacity(workers);
        for w in 0..workers {
            let (tx, rx) = mpsc::sync_channel::<Vec<T>>(4);
            let (back, done) = mpsc::channel::<Vec<T>>();
            results.push(rx);
            returns.push(back);
            s.spawn(move || {
                for b in (w..batches).step_by(workers) {
                    // This thread's earlier results, handed back, are freed here.
                    done.try_iter().for_each(drop);
                    let batch = (b * BATCH..n.min((b + 1) * BATCH)).map(work).collect();
                    // The receiver stopped (an error): nothing more is needed.
                    if tx.send(batch).is_err() {
                        break;
                    }
                }
                drop(tx);
                done.into_iter().for_each(drop);
            });
        }
        for b in 0..batches {
            let mut batch = results[b % workers]
                .recv()
                .map_err(|_| ImportError::Worker)?;
            for r in &mut batch {
                each(r)?;
            }
            // A worker that stopped has nothing left to free.
            let _ = returns[b % workers].send(batch);
        }
        Ok(())
    })
}

/// Reads every config file and parses it on every core, digesting the files in path
/// order on this thread. Returns what each file gave, in path order, the files that could
/// not be read, and the configs' part of the snapshot's digest.
fn examine_all<F: ConfigFiles + ?Sized>(
    files: &F,
    keep: &Keep,
) -> Result<(Vec<Examined>, Vec<FileIssue>, ContentHasher), ImportError> {
    let mut hasher = ContentHasher::default();
    let mut unreadable = Vec::new();
    let mut examined = Vec::new();
    in_order(
        files.count(),
        cores(),
        |i| match files.read(i) {
            Ok(f) => {
                let e = examine(&f, i, keep);
                Ok((f, Some(e)))
            }
            Err(issue) => Err(issue),
        },
        |r: &mut Result<(Cow<'_, SourceFile>, Option<Examined>), FileIssue>| {
            match r {
                Ok((f, e)) => {
                    hasher.add(f);
                    // An outline is kept for the whole import: a copy made here is laid
                    // out compactly, where the original is interleaved with the parse's
                    // garbage in the worker's heap.
                    let kept = match keep {
                        Keep::Everything => e.take(),
                        Keep::Outline { .. } => e.clone(),
                    };
                    examined.extend(kept);
                }
                Err(issue) => unreadable.push(issue.clone()),
            }
            Ok::<_, ImportError>(())
        },
    )?;
    Ok((examined, unreadable, hasher))
}

/// Parses every file of a snapshot.
pub fn parse_snapshot(snap: &Snapshot) -> Result<ParsedSnapshot, ImportError> {
    let (opstate, warnings) = read_state_file(snap.state_file.as_ref())?;
    let (examined, _, hasher) = examine_all(snap, &Keep::Everything)?;
    assemble(
        Source {
            label: &snap.label,
            state_file: snap.state_file.as_ref(),
            batfish_files: &snap.batfish_files,
            unreadable: snap.unreadable.clone(),
        },
        opstate,
        warnings,
        examined,
        hasher,
    )
}

/// Pass 1 of a streamed import of `files` (see [`Prepared`]).
pub fn prepare(snap: &SnapshotDir) -> Result<Prepared, ImportError> {
    let (opstate, warnings) = read_state_file(snap.state_file.as_ref())?;
    let layer1 = snap
        .batfish_files
        .iter()
        .find(|f| f.path == layer1::FILE_NAME)
        .and_then(|f| layer1::Layer1::parse(&String::from_utf8_lossy(&f.bytes)).ok());
    let keep = Keep::outline(&opstate, layer1.as_ref());
    let (examined, mut unreadable, hasher) = examine_all(snap, &keep)?;
    unreadable.extend(snap.unreadable.iter().cloned());
    let mut outline = assemble(
        Source {
            label: &snap.label,
            state_file: snap.state_file.as_ref(),
            batfish_files: &snap.batfish_files,
            unreadable,
        },
        opstate,
        warnings,
        examined,
        hasher,
    )?;
    // Links and roles are known: only the services' devices are read again (their
    // interface names), each from the outline.
    if let Keep::Outline { named, .. } = &keep {
        for d in &mut outline.devices {
            if !named.contains(&d.hostname.to_lowercase()) {
                d.config = DeviceConfig::default();
            }
        }
    }
    Ok(Prepared { outline })
}

impl Prepared {
    /// Parses every device again, in hostname order, on the other cores, and hands each to
    /// `write` on this thread as soon as it is parsed. A file that changed since pass 1 is
    /// an error.
    pub fn each_device<F, E>(
        &self,
        files: &F,
        mut write: impl FnMut(&ParsedDevice) -> Result<(), E>,
    ) -> Result<(), E>
    where
        F: ConfigFiles + ?Sized,
        E: From<ImportError>,
    {
        let devices = &self.outline.devices;
        // This thread writes while the others parse.
        in_order(
            devices.len(),
            cores().saturating_sub(1),
            |i| reparse(files, &devices[i]),
            |r| match r {
                Ok(d) => write(d),
                Err(e) => Err(std::mem::replace(e, ImportError::Worker).into()),
            },
        )
    }
}

/// A device of pass 1, parsed again from its file in full.
fn reparse<F: ConfigFiles + ?Sized>(
    files: &F,
    outline: &ParsedDevice,
) -> Result<ParsedDevice, ImportError> {
    let changed = || ImportError::Changed(outline.source_file.clone());
    let f = files.read(outline.file).map_err(|_| changed())?;
    let text = parse::decode(&f.bytes).map_err(|_| changed())?;
    if config_hash(&text) != outline.config_hash {
        return Err(changed());
    }
    let config = parse::parser_for(outline.vendor).parse(&text);
    Ok(ParsedDevice {
        hostname: outline.hostname.clone(),
        vendor: outline.vendor,
        source_file: outline.source_file.clone(),
        config,
        text: text.into_owned(),
        config_hash: outline.config_hash.clone(),
        role: outline.role.clone(),
        role_inferred: outline.role_inferred,
        site: outline.site.clone(),
        status: outline.status.clone(),
        model: outline.model.clone(),
        management_address: outline.management_address.clone(),
        file: outline.file,
    })
}

/// The state file read, with its warnings; a malformed one refuses the import.
fn read_state_file(f: Option<&SourceFile>) -> Result<(OpState, Vec<FileIssue>), ImportError> {
    let mut warnings = Vec::new();
    let opstate = match f {
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
    Ok((opstate, warnings))
}

/// A snapshot's files other than its configs.
struct Source<'a> {
    label: &'a str,
    state_file: Option<&'a SourceFile>,
    batfish_files: &'a [SourceFile],
    unreadable: Vec<FileIssue>,
}

/// Names, orders and completes the devices pass 1 found: skipped files, duplicates,
/// warnings, facts from the state file, roles and links.
fn assemble(
    src: Source<'_>,
    opstate: OpState,
    mut warnings: Vec<FileIssue>,
    examined: Vec<Examined>,
    hasher: ContentHasher,
) -> Result<ParsedSnapshot, ImportError> {
    let mut skipped = src.unreadable;
    let mut devices: Vec<ParsedDevice> = Vec::new();
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut lines_total = 0u64;
    let mut lines_unrecognised = 0u64;
    let collected = examined.iter().filter_map(|e| e.modified).max();
    for e in examined {
        let r = match e.outcome {
            Ok(r) => r,
            Err(why) => {
                skipped.push(FileIssue::whole_file(&e.path, why));
                continue;
            }
        };
        lines_total += u64::from(r.lines_total);
        lines_unrecognised += u64::from(r.lines_unrecognised);
        let configured = r.configured.clone().filter(|h| !h.is_empty());
        if let Some(bad) = configured.as_ref().filter(|h| !valid_hostname(h)) {
            warnings.push(FileIssue::whole_file(
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
            skipped.push(FileIssue::whole_file(
                &e.path,
                format!("no usable hostname (the config's and the file's name are not names): {hostname:?}"),
            ));
            continue;
        }
        if let Some(first) = seen.get(&hostname) {
            skipped.push(FileIssue::whole_file(
                &e.path,
                format!("hostname '{hostname}' already imported from {first}"),
            ));
            continue;
        }
        seen.insert(hostname.clone(), e.path.clone());
        for w in &r.warnings {
            warnings.push(FileIssue {
                file: e.path.clone(),
                line: Some(w.line),
                message: w.message.clone(),
            });
        }
        // NX-OS and Junos configs have no closing line (the Junos parser warns about
        // unclosed blocks itself).
        if !r.saw_end && !matches!(r.vendor, Vendor::CiscoNxos | Vendor::JuniperJunos) {
            warnings.push(FileIssue::whole_file(
                &e.path,
                format!(
                    "no closing 'end' line after {} lines: the file looks truncated; imported what it holds",
                    r.lines_total
                ),
            ));
        }
        if r.bare {
            warnings.push(FileIssue::whole_file(
                &e.path,
                "no interfaces and no BGP: is this a whole running config?".into(),
            ));
        }
        let mut config = r.config;
        // The parts pass 1 took out to keep, given back to a full parse.
        if r.whole {
            config.hostname = r.configured;
            config.model.clone_from(&r.model);
            config.warnings = r.warnings;
        }
        devices.push(ParsedDevice {
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
            file: e.file,
        });
    }
    if devices.is_empty() {
        return Err(ImportError::NoDevices {
            label: src.label.to_owned(),
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
    let links = links::build(&devices, &opstate, layer1.as_ref(), &mut warnings);
    let collected_at = opstate.collected_at.clone().or_else(|| {
        collected.map(|t| {
            chrono::DateTime::<chrono::Utc>::from(t)
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        })
    });
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
