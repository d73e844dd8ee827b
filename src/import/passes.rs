//! The pass over the configs: every config parsed on every core, handed in path order
//! to this thread, which names each device and gives it, parsed in full, to the writer
//! before keeping an outline of it.

use super::assemble::{assemble, Namer, Source};
use super::opstate::OpState;
use super::snapshot::{ConfigFiles, ContentHasher, Snapshot, SnapshotDir, SourceFile};
use super::{layer1, opstate, parse};
use super::{Examined, FileIssue, FullDevice, ImportError, Keep, ParsedSnapshot, Read, Streamed};
use crate::model::{BgpProcess, DeviceConfig};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::sync::mpsc;

/// The digest of a config's text kept per device and state version.
pub(super) fn config_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Reads and parses one config file in full, and makes what `keep` keeps of it.
fn examine(f: &SourceFile, keep: &Keep) -> Examined {
    let outcome = (|| {
        let text = parse::decode(&f.bytes).map_err(|e| e.to_string())?;
        let vendor = parse::detect(&text).map_err(|e| e.to_string())?;
        let mut config = parse::parser_for(vendor).parse(&text);
        let configured = config.hostname.take();
        let down_svis = crate::routing::autostate::down_svis(&config, vendor);
        let read = Read {
            vendor,
            model: config.model.take(),
            warnings: std::mem::take(&mut config.warnings),
            lines_total: config.lines_total,
            lines_unrecognised: config.lines_unrecognised,
            saw_end: config.saw_end,
            bare: config.interfaces.is_empty() && config.bgp.is_none(),
            whole: true,
            config_hash: config_hash(&text),
            text: text.into_owned(),
            kept: match keep {
                Keep::Everything => None,
                Keep::Outline { .. } => Some(Box::new(keep.outline_of(
                    &config,
                    [configured.as_deref().unwrap_or(""), &f.name_hint],
                    &down_svis,
                ))),
            },
            config: Box::new(config),
            down_svis,
            configured,
        };
        Ok(read)
    })();
    Examined {
        path: f.path.clone(),
        name_hint: f.name_hint.clone(),
        outcome,
    }
}

impl Examined {
    /// What an import keeps of a file read in full: the outline made beside its parse,
    /// without its text, copied compactly into this thread's heap (the worker's
    /// interleaves it with the parser's garbage).
    fn outline(&self) -> Examined {
        Examined {
            path: self.path.clone(),
            name_hint: self.name_hint.clone(),
            outcome: self.outcome.as_ref().map_err(Clone::clone).map(|r| Read {
                vendor: r.vendor,
                configured: r.configured.clone(),
                model: r.model.clone(),
                warnings: r.warnings.clone(),
                lines_total: r.lines_total,
                lines_unrecognised: r.lines_unrecognised,
                saw_end: r.saw_end,
                bare: r.bare,
                whole: false,
                config: r.kept.clone().unwrap_or_default(),
                kept: None,
                down_svis: r.down_svis.clone(),
                text: String::new(),
                config_hash: r.config_hash.clone(),
            }),
        }
    }
}

/// Threads to parse on: every core (the writer shares them).
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
                // What this thread freed is given back before it ends: pages left in an
                // ended thread's heap stay resident until another thread takes them over.
                crate::memory::release_freed();
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

/// Reads every config file and parses it on every core, digesting the files and naming
/// the devices in path order on this thread. With [`Keep::Everything`] each device is kept
/// whole; else each is handed, parsed in full, to `each` as soon as it is named, and an
/// outline of it is kept. Returns the configs' part of the snapshot's digest.
fn read_all<F, E>(
    files: &F,
    keep: &Keep,
    namer: &mut Namer,
    mut each: impl FnMut(FullDevice<'_>) -> Result<(), E>,
) -> Result<ContentHasher, E>
where
    F: ConfigFiles + ?Sized,
    E: From<ImportError>,
{
    let mut hasher = ContentHasher::default();
    namer.expect(files.count());
    in_order(
        files.count(),
        cores(),
        |i| match files.read(i) {
            Ok(f) => {
                let e = examine(&f, keep);
                Ok((f, Some(e)))
            }
            Err(issue) => Err(issue),
        },
        |r: &mut Result<(Cow<'_, SourceFile>, Option<Examined>), FileIssue>| -> Result<(), E> {
            let (f, e) = match r {
                Ok(found) => found,
                Err(issue) => {
                    namer.unreadable(issue.clone());
                    return Ok(());
                }
            };
            hasher.add(f);
            if let Keep::Everything = keep {
                if let Some(e) = e.take() {
                    namer.admit(e);
                }
                return Ok(());
            }
            let Some(e) = e.as_ref() else { return Ok(()) };
            // The full parse stays in the batch, freed by the thread that made it.
            if let (Some(d), Ok(full)) = (namer.admit(e.outline()), &e.outcome) {
                each(FullDevice {
                    hostname: &d.hostname,
                    source_file: &d.source_file,
                    config: &full.config,
                    text: &full.text,
                })?;
            }
            Ok(())
        },
    )?;
    Ok(hasher)
}

/// Parses every file of a snapshot.
pub fn parse_snapshot(snap: &Snapshot) -> Result<ParsedSnapshot, ImportError> {
    let (opstate, warnings) = read_state_file(snap.state_file.as_ref())?;
    let mut namer = Namer::new(warnings);
    let hasher = read_all(snap, &Keep::Everything, &mut namer, |_| {
        Ok::<_, ImportError>(())
    })?;
    assemble(
        Source {
            label: &snap.label,
            state_file: snap.state_file.as_ref(),
            batfish_files: &snap.batfish_files,
            unreadable: snap.unreadable.clone(),
        },
        opstate,
        namer,
        hasher,
    )
}

/// A streamed import of the snapshot folder `snap` (see [`Streamed`]); a malformed state
/// file refuses it.
pub fn stream(snap: &SnapshotDir) -> Result<Streamed<'_>, ImportError> {
    let (opstate, warnings) = read_state_file(snap.state_file.as_ref())?;
    let layer1 = snap
        .batfish_files
        .iter()
        .find(|f| f.path == layer1::FILE_NAME)
        .and_then(|f| layer1::Layer1::parse(&String::from_utf8_lossy(&f.bytes)).ok());
    let keep = Keep::outline(&opstate, layer1.as_ref());
    Ok(Streamed {
        snap,
        opstate,
        warnings,
        keep,
    })
}

impl Streamed<'_> {
    /// The snapshot's state file.
    pub fn opstate(&self) -> &OpState {
        &self.opstate
    }

    /// Parses every config, handing each device parsed in full to `each` in path order,
    /// and returns the snapshot with an outline of each device (in hostname order), its
    /// roles, links and services.
    pub fn run<E: From<ImportError>>(
        &self,
        each: impl FnMut(FullDevice<'_>) -> Result<(), E>,
    ) -> Result<ParsedSnapshot, E> {
        let mut namer = Namer::new(self.warnings.clone());
        let hasher = read_all(self.snap, &self.keep, &mut namer, each)?;
        // The parsers' garbage, freed on threads that ended, is given back before the
        // outline is assembled beside it.
        crate::memory::phase("import", "configurations outlined");
        let mut outline = assemble(
            Source {
                label: &self.snap.label,
                state_file: self.snap.state_file.as_ref(),
                batfish_files: &self.snap.batfish_files,
                unreadable: self.snap.unreadable.clone(),
            },
            self.opstate.clone(),
            namer,
            hasher,
        )?;
        // Links and roles are known: of the devices the state file does not name (whose
        // interfaces services read), only what their own rows hold is kept.
        if let Keep::Outline { named, .. } = &self.keep {
            for d in &mut outline.devices {
                if !named.contains(&d.hostname.to_lowercase()) {
                    *d.config = own_row(&mut d.config);
                }
            }
        }
        crate::memory::phase("import", "links and roles found");
        Ok(outline)
    }
}

/// What a device's own row holds of its config (OS version, AS, router ID), taken.
fn own_row(c: &mut DeviceConfig) -> DeviceConfig {
    DeviceConfig {
        os_version: c.os_version.take(),
        bgp: c.bgp.as_ref().map(|b| BgpProcess {
            local_as: b.local_as,
            router_id: b.router_id,
            ..BgpProcess::default()
        }),
        ..DeviceConfig::default()
    }
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
