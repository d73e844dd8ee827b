//! RIBs made once and kept for the lookups that come back to them (a pre-check's traces
//! cross the same core devices flow after flow), up to a budget of rows: a thousand
//! devices' whole tables are 4.6 million rows, 400 MB. Past the budget the RIB used
//! least recently goes.

use super::DeviceRib;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How many rows [`Kept`] holds at most.
pub const ROWS: usize = 500_000;

/// The kept RIBs: by hostname, with when each was last used; their rows; the clock.
type Held = (HashMap<String, (Arc<DeviceRib>, u64)>, usize, u64);

/// RIBs by hostname, kept while they fit in [`ROWS`].
#[derive(Debug, Default)]
pub struct Kept {
    held: Mutex<Held>,
}

impl Kept {
    /// The RIB of `hostname` if it is kept.
    pub fn get(&self, hostname: &str) -> Option<Arc<DeviceRib>> {
        let mut held = self.held.lock().ok()?;
        let (map, _, clock) = &mut *held;
        *clock += 1;
        let (r, used) = map.get_mut(hostname)?;
        *used = *clock;
        Some(Arc::clone(r))
    }

    /// The RIB of `hostname`: the kept one, or the one `make` makes, then kept (the
    /// least recently used ones let go to make room).
    pub fn get_or_make(
        &self,
        hostname: &str,
        make: impl FnOnce() -> Option<DeviceRib>,
    ) -> Option<Arc<DeviceRib>> {
        if let Some(r) = self.get(hostname) {
            return Some(r);
        }
        let r = Arc::new(make()?);
        if r.routes.len() > ROWS {
            return Some(r);
        }
        if let Ok(mut held) = self.held.lock() {
            let (map, rows, clock) = &mut *held;
            while *rows + r.routes.len() > ROWS {
                let Some(oldest) = map
                    .iter()
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(h, _)| h.clone())
                else {
                    break;
                };
                if let Some((gone, _)) = map.remove(&oldest) {
                    *rows -= gone.routes.len();
                }
            }
            *clock += 1;
            *rows += r.routes.len();
            map.insert(hostname.to_owned(), (Arc::clone(&r), *clock));
        }
        Some(r)
    }
}
