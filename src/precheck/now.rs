//! The network as it is, for the forwarding comparison: each device's RIB from the
//! stored routing model, made when asked for, and the pass that hands every device's RIB
//! before and after a plan to the comparison, one device at a time per thread.

use super::forwarding::{flows, in_band, internet_probe, reach, Flow, InBand, Reach};
use crate::network::NetworkModel;
use crate::routing::candidate::{self, Candidate};
use crate::routing::kept::Kept;
use crate::routing::trace::{trace, Addresses};
use crate::routing::{DeviceRib, RoutingModel};
use crate::state::{StateDb, StateError};
use std::collections::HashSet;
use std::net::Ipv4Addr;
use std::sync::{Arc, Mutex, OnceLock};

/// The network as it is: each device's RIB from the stored routing model, made when it
/// is asked for (the ones traces ask for kept), with its addresses and the flows that
/// reach now: made once per DB and state version in a process — a pre-check of every
/// open plan compares each with it.
pub(super) struct Now {
    key: (std::path::PathBuf, i64),
    pub(super) model: Arc<RoutingModel>,
    /// The RIBs made so far with [`Reader::rib`], while they fit.
    pub(super) made: Kept,
    pub(super) addresses: Addresses,
    /// The devices managed in band (read once per state version, not per plan).
    pub(super) in_band: InBand,
    /// The address traced for the internet on the network as it is.
    pub(super) probe: Option<Ipv4Addr>,
    /// The flows that reach their destination now, with every RIB on the way complete:
    /// the same for every plan, traced once.
    reached: OnceLock<Vec<Flow>>,
}

impl Now {
    /// The flows of `m` that reach now ([`Now::reached`]); `base` gives the RIBs.
    pub(super) fn reached(
        &self,
        m: &NetworkModel,
        base: &dyn Fn(&str) -> Option<Arc<DeviceRib>>,
    ) -> &[Flow] {
        self.reached.get_or_init(|| {
            flows(m, &self.in_band, self.probe)
                .into_iter()
                .filter(|f| {
                    let was = trace(&base, &self.addresses, &f.source, &f.vrf, f.dst);
                    matches!(reach(f, was, &HashSet::new(), base), Reach::Reached)
                })
                .collect()
        })
    }
}

/// Reads [`Now`]'s RIBs from one DB, keeping the first error (a trace's lookups cannot
/// return one): [`Reader::finish`] returns it, so that a RIB that could not be read is
/// never taken for a device without routes.
pub(super) struct Reader<'a> {
    now: &'a Now,
    db: &'a StateDb,
    failed: std::cell::RefCell<Option<StateError>>,
}

impl<'a> Reader<'a> {
    pub(super) fn new(now: &'a Now, db: &'a StateDb) -> Reader<'a> {
        Reader {
            now,
            db,
            failed: std::cell::RefCell::new(None),
        }
    }

    /// `hostname`'s RIB as the network is, made once and kept (while [`Kept`] has room).
    pub(super) fn rib(&self, hostname: &str) -> Option<Arc<DeviceRib>> {
        self.now.made.get_or_make(hostname, || self.read(hostname))
    }

    fn read(&self, hostname: &str) -> Option<DeviceRib> {
        match self.now.model.device(self.db, hostname) {
            Ok(r) => r,
            Err(e) => {
                self.failed.borrow_mut().get_or_insert(e);
                None
            }
        }
    }

    /// The first error reading a RIB, if any.
    pub(super) fn finish(self) -> Result<(), StateError> {
        self.failed.into_inner().map_or(Ok(()), Err)
    }
}

/// This process's copies of networks as they are, the most recently used last: a few,
/// so that pre-checks on several DBs at once do not make each other's again.
static NOW: Mutex<Vec<Arc<Now>>> = Mutex::new(Vec::new());

/// How many networks [`NOW`] keeps.
const KEPT: usize = 4;

/// The network of `db`'s current state version as it is.
pub(super) fn now(db: &StateDb) -> Result<Arc<Now>, StateError> {
    let key = (db.path().to_path_buf(), db.state_version()?);
    if let Ok(held) = NOW.lock() {
        if let Some(n) = held.iter().find(|n| n.key == key) {
            return Ok(Arc::clone(n));
        }
    }
    let t0 = std::time::Instant::now();
    let model = RoutingModel::shared(db)?;
    let addresses = candidate::addresses(db)?;
    tracing::debug!(
        "forwarding: the network's routing and addresses in {:?}",
        t0.elapsed()
    );
    let in_band = in_band(db, &*NetworkModel::shared(db)?)?;
    let n = Arc::new(Now {
        in_band,
        probe: internet_probe(&addresses, None),
        key,
        model,
        made: Kept::default(),
        addresses,
        reached: OnceLock::new(),
    });
    if let Ok(mut held) = NOW.lock() {
        held.retain(|x| x.key != n.key);
        if held.len() >= KEPT {
            held.remove(0);
        }
        held.push(Arc::clone(&n));
    }
    Ok(n)
}

/// One device as the pass hands it over.
pub(super) struct Sides<'a> {
    /// The device.
    pub(super) hostname: &'a str,
    /// Its RIB as the network is.
    pub(super) was: Arc<DeviceRib>,
    /// Its RIB after the plan (None: the plan removes it).
    pub(super) is: Option<Arc<DeviceRib>>,
    /// Whether the plan leaves its RIB as it is (`is` is `was`).
    pub(super) same: bool,
}

/// Every device of the network as it is, in hostname order, before and after the plan
/// (`removed` says which devices it removes): handed to `each` with an accumulator that
/// `start` makes for each thread. The accumulators come back in hostname order: each
/// thread takes a run of consecutive devices. Each device's two tables are made, used and
/// let go (a thousand devices' tables at once are gigabytes).
pub(super) fn pass<A: Send>(
    db: &StateDb,
    now: &Now,
    after: &Candidate,
    removed: &(dyn Fn(&str) -> bool + Sync),
    start: &(dyn Fn() -> A + Sync),
    each: &(dyn Fn(&mut A, Sides<'_>) + Sync),
) -> Result<Vec<A>, StateError> {
    // Read first: a DB connection serves one thread.
    let mut configs: Vec<(String, String, String)> = Vec::new();
    db.each_config(|h, os, text| configs.push((h.to_owned(), os.to_owned(), text.to_owned())))?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let run = configs.len().div_ceil(threads).max(1);
    let one = |part: &[(String, String, String)]| {
        let mut acc = start();
        for (h, os, text) in part {
            let Some(was) = now
                .made
                .get(h)
                .or_else(|| now.model.device_from(h, os, text).map(Arc::new))
            else {
                continue;
            };
            let taken = removed(h);
            let same = !taken && !after.recomputed(h);
            let is = match (taken, same) {
                (true, _) => None,
                (false, true) => Some(Arc::clone(&was)),
                (false, false) => after.rib_once(h, &|_| None),
            };
            each(
                &mut acc,
                Sides {
                    hostname: h,
                    was,
                    is,
                    same,
                },
            );
        }
        acc
    };
    Ok(std::thread::scope(|s| {
        let workers: Vec<_> = configs
            .chunks(run)
            .map(|part| s.spawn(move || one(part)))
            .collect();
        workers
            .into_iter()
            // A worker that panicked is a bug: its panic goes on.
            .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    }))
}
