//! Which process owns a row marked `running` (a run or a scheduler cycle), so that the
//! next olav can tell a run still going from one whose process was killed.
//!
//! A process is named by boot, pid and start time (`/proc/self/stat` field 22): a pid
//! alone is reused, and after a reboot nothing from before is running. Where `/proc`
//! cannot be read, the owner is recorded empty and such rows are never marked
//! interrupted (olav cannot know); rows from before owners were recorded have none.

use super::{now, StateDb, StateError};
use rusqlite::params;

/// This process, as `boot:pid:start`, or None where `/proc` cannot tell.
pub fn current() -> Option<String> {
    identify(std::process::id())
}

/// The owner string of process `pid` as it is now, None when it is not running or
/// cannot be read.
fn identify(pid: u32) -> Option<String> {
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    let after = &stat[stat.rfind(')')? + 1..];
    // Fields from 3 on; the start time is field 22, the 20th of these.
    let start = after.split_whitespace().nth(19)?;
    Some(format!("{}:{pid}:{start}", boot.trim()))
}

/// Whether the process an owner string names is still running: false only when it is
/// known to have ended (another boot, or the pid gone or reused).
fn alive(owner: &str) -> bool {
    let mut parts = owner.rsplitn(3, ':');
    let (Some(_start), Some(pid), Some(_boot)) = (parts.next(), parts.next(), parts.next()) else {
        return true;
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return true;
    };
    if std::fs::read_to_string("/proc/sys/kernel/random/boot_id").is_err() {
        return true;
    }
    identify(pid).as_deref() == Some(owner)
}

impl StateDb {
    /// Marks `interrupted` every run and scheduler cycle still `running` whose process
    /// has ended (killed, or the machine restarted); returns how many. Rows without an
    /// owner (written before owners were recorded) are taken as ended: no olav older
    /// than this DB's schema can still be running against it. An empty owner (a process
    /// that could not name itself) is never taken as ended.
    pub fn mark_interrupted(&self) -> Result<usize, StateError> {
        let mut marked = 0;
        for table in ["run", "schedule_cycle"] {
            let ended: Vec<i64> = {
                let mut stmt = self
                    .conn
                    .prepare(&format!(
                        "SELECT id, owner FROM {table} WHERE status = 'running'"
                    ))
                    .map_err(|e| self.err(e))?;
                let rows = stmt
                    .query_map([], |r| {
                        Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?))
                    })
                    .map_err(|e| self.err(e))?;
                let mut v = Vec::new();
                for row in rows {
                    let (id, owner) = row.map_err(|e| self.err(e))?;
                    if owner.as_deref().is_none_or(|o| !alive(o)) {
                        v.push(id);
                    }
                }
                v
            };
            for id in ended {
                marked += self
                    .conn
                    .execute(
                        &format!(
                            "UPDATE {table} SET status = 'interrupted', finished = COALESCE(finished, ?2) WHERE id = ?1 AND status = 'running'"
                        ),
                        params![id, now()],
                    )
                    .map_err(|e| self.err(e))?;
            }
        }
        Ok(marked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_reused_pid_is_not() {
        let me = current().expect("/proc is readable here");
        assert!(alive(&me));
        let (rest, start) = me.rsplit_once(':').expect("three parts");
        assert!(!alive(&format!(
            "{rest}:{}",
            start.parse::<u64>().expect("n") + 1
        )));
        assert!(!alive("another-boot:1:1"));
        assert!(alive("garbage"));
        assert!(alive(""));
    }
}
