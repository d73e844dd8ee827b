//! The two passes over the configs: pass 1 parses every config on every core and keeps
//! an outline of each device; pass 2 parses each device again beside the writer, handed
//! over in order.

use super::assemble::{assemble, Source};
use super::opstate::OpState;
use super::snapshot::{ConfigFiles, ContentHasher, Snapshot, SnapshotDir, SourceFile};
use super::{layer1, opstate, parse};
use super::{Examined, FileIssue, ImportError, Keep, ParsedDevice, ParsedSnapshot, Prepared, Read};
use crate::model::DeviceConfig;
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

fn examine(f: &SourceFile, file: usize, keep: &Keep) -> Examined {
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
            whole: matches!(keep, Keep::Everything),
            config_hash: config_hash(&text),
            text: match keep {
                Keep::Everything => text.into_owned(),
                Keep::Outline { .. } => String::new(),
            },
            config: Box::new(keep.apply(
                config,
                [configured.as_deref().unwrap_or(""), &f.name_hint],
                &down_svis,
            )),
            down_svis,
            configured,
        };
        Ok(read)
    })();
    Examined {
        file,
        path: f.path.clone(),
        name_hint: f.name_hint.clone(),
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
    // The parsers' garbage, freed on threads that ended, is given back before the
    // outline is assembled beside it.
    crate::memory::phase("import", "configurations outlined");
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
                *d.config = DeviceConfig::default();
            }
        }
    }
    crate::memory::phase("import", "links and roles found");
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
        config: Box::new(config),
        text: text.into_owned(),
        config_hash: outline.config_hash.clone(),
        role: outline.role.clone(),
        role_inferred: outline.role_inferred,
        site: outline.site.clone(),
        status: outline.status.clone(),
        model: outline.model.clone(),
        management_address: outline.management_address.clone(),
        down_svis: outline.down_svis.clone(),
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
