//! Snapshot import: a Batfish-layout folder (`configs/` read recursively, one device
//! per file, plus an optional `state.yaml` and Batfish's own `batfish/` folder) → parsed
//! devices, links and services ready for the state store.
//!
//! Reading never stops at one bad file: binary, empty and non-config files are skipped
//! and named; malformed lines become warnings with file and line.

mod assemble;
pub mod layer1;
pub mod links;
pub mod opstate;
pub mod parse;
mod passes;
pub mod roles;
mod snapshot;

pub use assemble::valid_hostname;
pub use passes::{parse_snapshot, stream};
pub use snapshot::{ConfigFiles, Snapshot, SnapshotDir, SourceFile};

use crate::model::{BgpNeighbor, BgpPeer, BgpProcess, DeviceConfig, LineWarning, Vendor};
use opstate::OpState;
use std::collections::HashSet;
use std::path::PathBuf;

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
    #[error("{label}: no device could be imported ({}); the state is left as it was", skipped_why(*.skipped, .why))]
    NoDevices {
        /// The snapshot.
        label: String,
        /// Files skipped.
        skipped: usize,
        /// The reasons, each with how many files it skipped.
        why: String,
    },
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

/// Why an import found no device: the files it skipped and why, or that it found none.
fn skipped_why(skipped: usize, why: &str) -> String {
    if skipped == 0 {
        "no config file found".to_owned()
    } else {
        format!("{skipped} file(s) skipped: {why}")
    }
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
    /// The parsed model (boxed: pass 1's outline moves it, a kilobyte per device even
    /// when nearly empty, instead of copying it).
    pub config: Box<DeviceConfig>,
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
    /// The SVIs autostate holds down ([`crate::routing::autostate::down_svis`]), from the
    /// whole configuration: links do not use them, though the outline may keep no port.
    pub down_svis: HashSet<String>,
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

/// A streamed import of a snapshot folder: its state file read, its configs not yet.
/// [`Streamed::run`] parses every config once (on every core) and hands each device,
/// parsed in full, to the writer as soon as it is named, keeping of it only what naming,
/// roles, links and services need: no more than a few parsed configs are in memory at
/// once, and the writer works while the parsers do.
#[derive(Debug)]
pub struct Streamed<'s> {
    snap: &'s SnapshotDir,
    opstate: OpState,
    warnings: Vec<FileIssue>,
    keep: Keep,
}

/// A device parsed in full, handed to the writer of a streamed import in path order.
#[derive(Debug, Clone, Copy)]
pub struct FullDevice<'a> {
    /// Its hostname, as the import names it.
    pub hostname: &'a str,
    /// Snapshot-relative path of its config.
    pub source_file: &'a str,
    /// The whole parse.
    pub config: &'a DeviceConfig,
    /// The config text as read.
    pub text: &'a str,
}

impl ParsedDevice {
    /// The device as the writer takes it.
    pub fn full(&self) -> FullDevice<'_> {
        FullDevice {
            hostname: &self.hostname,
            source_file: &self.source_file,
            config: &self.config,
            text: &self.text,
        }
    }
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

    /// What of `config` is kept for the device named `names` (configured, from the path);
    /// `down` are its SVIs autostate holds down, which make no link. The device's own row
    /// (OS version, AS, router ID) is written from it once roles are known.
    fn outline_of(
        &self,
        config: &DeviceConfig,
        names: [&str; 2],
        down: &HashSet<String>,
    ) -> DeviceConfig {
        let Keep::Outline {
            all_interfaces,
            named,
        } = self
        else {
            return config.clone();
        };
        let whole = *all_interfaces || names.iter().any(|n| named.contains(&n.to_lowercase()));
        let interfaces = config
            .interfaces
            .iter()
            .filter(|i| {
                whole
                    || (links::may_link(i) && !down.contains(&i.name))
                    || links::gives_management_address(i)
            })
            .map(|i| crate::model::Interface {
                description: None,
                ..i.clone()
            })
            .collect();
        let bgp = config.bgp.as_ref().map(|b| BgpProcess {
            local_as: b.local_as,
            router_id: b.router_id,
            neighbors: b
                .neighbors
                .iter()
                .filter(|n| n.peer_asn.is_some() || matches!(n.peer, BgpPeer::Interface(_)))
                .map(|n| {
                    let mut kept = BgpNeighbor::new(None, n.peer.clone(), n.line);
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
            os_version: config.os_version.clone(),
            ..DeviceConfig::default()
        }
    }
}

/// What reading one config file found.
#[derive(Clone)]
struct Examined {
    path: String,
    name_hint: String,
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
    config: Box<DeviceConfig>,
    /// What a streamed import keeps of `config` ([`Keep::outline_of`]), made beside the
    /// parse.
    kept: Option<Box<DeviceConfig>>,
    down_svis: HashSet<String>,
    text: String,
    config_hash: String,
}
