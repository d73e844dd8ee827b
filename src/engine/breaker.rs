//! The tool-call circuit breaker. A call's signature is the tool's name plus its
//! arguments in canonical form (JSON, keys sorted). The same signature failing 3 times
//! in a row is short-circuited — not executed, answered with a breaker error naming the
//! call — and at the 6th the run is hard-stopped. A success resets that signature only.
//! One breaker per run.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// Failures in a row after which a signature is short-circuited.
pub const SHORT_CIRCUIT_AFTER: u32 = 3;
/// Identical failing calls at which the run is stopped.
pub const HARD_STOP_AT: u32 = 6;

/// Why a tool call did not give a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// The tool ran and failed. Shown as the tool's own message, which names what and
    /// where; the call's signature is for the breaker and the run records.
    #[error("{message}")]
    Failed {
        /// The call.
        signature: String,
        /// The tool's error.
        message: String,
        /// What kind of failure.
        class: ErrorClass,
    },
    /// Not executed: the same call failed too often.
    #[error("circuit breaker: {signature} failed {count} times in a row; not executed")]
    ShortCircuited {
        /// The call.
        signature: String,
        /// Failures counted so far, this one included.
        count: u32,
    },
    /// The run is stopped.
    #[error("circuit breaker: {signature} failed {count} times in a row; run stopped")]
    HardStop {
        /// The call.
        signature: String,
        /// Failures counted.
        count: u32,
    },
}

/// Failure classes recorded with step results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorClass {
    /// The request or its arguments are wrong; retrying will not help.
    Parameter,
    /// Something outside (files, DB, network) failed.
    Environment,
    /// Not allowed (a path outside the exports folder, an unwritable folder).
    Permission,
    /// Took longer than allowed.
    Timeout,
}

impl ErrorClass {
    /// Column value.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorClass::Parameter => "parameter",
            ErrorClass::Environment => "environment",
            ErrorClass::Permission => "permission",
            ErrorClass::Timeout => "timeout",
        }
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ToolError {
    /// The failure class.
    pub fn class(&self) -> ErrorClass {
        match self {
            ToolError::Failed { class, .. } => *class,
            ToolError::ShortCircuited { .. } | ToolError::HardStop { .. } => {
                ErrorClass::Environment
            }
        }
    }
}

/// Counts failing calls per signature.
#[derive(Debug, Default)]
pub struct Breaker {
    failures: HashMap<String, u32>,
    stopped: Option<String>,
    executed: u64,
}

/// A tool call's signature: name plus canonical arguments.
pub fn signature(tool: &str, args: &serde_json::Value) -> String {
    // serde_json's map keeps keys sorted, so equal arguments print equally.
    format!("{tool}({args})")
}

impl Breaker {
    /// Runs `f` as the call `tool(args)` unless the breaker forbids it.
    pub fn call<T>(
        &mut self,
        tool: &str,
        args: &serde_json::Value,
        f: impl FnOnce() -> Result<T, (ErrorClass, String)>,
    ) -> Result<T, ToolError> {
        let sig = self.admit(tool, args)?;
        let result = f();
        self.settle(sig, result)
    }

    /// Whether the call `tool(args)` may run now: its signature if so, else why not.
    fn admit(&mut self, tool: &str, args: &serde_json::Value) -> Result<String, ToolError> {
        let sig = signature(tool, args);
        if let Some(stopped) = &self.stopped {
            return Err(ToolError::HardStop {
                signature: stopped.clone(),
                count: HARD_STOP_AT,
            });
        }
        let count = self.failures.get(&sig).copied().unwrap_or(0);
        if count >= SHORT_CIRCUIT_AFTER {
            let count = count + 1;
            self.failures.insert(sig.clone(), count);
            if count >= HARD_STOP_AT {
                self.stopped = Some(sig.clone());
                return Err(ToolError::HardStop {
                    signature: sig,
                    count,
                });
            }
            return Err(ToolError::ShortCircuited {
                signature: sig,
                count,
            });
        }
        self.executed += 1;
        Ok(sig)
    }

    /// Counts an admitted call's outcome against its signature.
    fn settle<T>(
        &mut self,
        sig: String,
        result: Result<T, (ErrorClass, String)>,
    ) -> Result<T, ToolError> {
        match result {
            Ok(v) => {
                self.failures.remove(&sig);
                Ok(v)
            }
            Err((class, message)) => {
                *self.failures.entry(sig.clone()).or_insert(0) += 1;
                Err(ToolError::Failed {
                    signature: sig,
                    message,
                    class,
                })
            }
        }
    }

    /// The signature that stopped the run, if any.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Calls actually executed.
    pub fn executed(&self) -> u64 {
        self.executed
    }
}

/// The run's breaker, shared by every handle of every step.
#[derive(Debug, Clone, Default)]
pub struct Tools {
    breaker: Arc<Mutex<Breaker>>,
}

impl Tools {
    /// Runs a tool call through the breaker.
    pub fn call<T>(
        &self,
        tool: &str,
        args: serde_json::Value,
        f: impl FnOnce() -> Result<T, (ErrorClass, String)>,
    ) -> Result<T, ToolError> {
        // The lock is not held while the call runs: a step may make calls side by side.
        let sig = self.with(|b| b.admit(tool, &args))?;
        let result = f();
        self.with(|b| b.settle(sig, result))
    }

    fn with<R>(&self, f: impl FnOnce(&mut Breaker) -> R) -> R {
        match self.breaker.lock() {
            Ok(mut b) => f(&mut b),
            Err(poisoned) => f(&mut poisoned.into_inner()),
        }
    }

    /// The signature that stopped the run, if the breaker stopped it.
    pub fn stopped(&self) -> Option<String> {
        self.with(|b| b.stopped().map(str::to_owned))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fail() -> Result<(), (ErrorClass, String)> {
        Err((ErrorClass::Environment, "boom".into()))
    }

    #[test]
    fn fourth_identical_failure_is_not_executed_and_sixth_stops() {
        let mut b = Breaker::default();
        let args = json!({"path": "x"});
        for _ in 0..3 {
            assert!(matches!(
                b.call("read", &args, fail),
                Err(ToolError::Failed { .. })
            ));
        }
        let mut ran = false;
        let r = b.call("read", &args, || {
            ran = true;
            Ok(())
        });
        assert!(!ran, "the 4th call is not executed");
        assert!(matches!(r, Err(ToolError::ShortCircuited { count: 4, .. })));
        assert!(matches!(
            b.call("read", &args, fail),
            Err(ToolError::ShortCircuited { count: 5, .. })
        ));
        assert!(matches!(
            b.call("read", &args, fail),
            Err(ToolError::HardStop { count: 6, .. })
        ));
        assert!(b.stopped().is_some());
        assert!(matches!(
            b.call("other", &json!({}), || Ok(())),
            Err(ToolError::HardStop { .. })
        ));
        assert_eq!(b.executed(), 3);
    }

    #[test]
    fn success_resets_only_its_own_signature() {
        let mut b = Breaker::default();
        let (x, y) = (json!({"a": 1}), json!({"a": 2}));
        for _ in 0..2 {
            let _ = b.call("t", &x, fail);
            let _ = b.call("t", &y, fail);
        }
        assert!(b.call("t", &x, || Ok(())).is_ok());
        // x starts again from zero; y is at 2, one more failure reaches 3.
        let _ = b.call("t", &y, fail);
        assert!(matches!(
            b.call("t", &y, || Ok(())),
            Err(ToolError::ShortCircuited { .. })
        ));
        for _ in 0..3 {
            assert!(matches!(
                b.call("t", &x, fail),
                Err(ToolError::Failed { .. })
            ));
        }
    }

    #[test]
    fn arguments_in_another_order_are_the_same_call() {
        let a =
            serde_json::from_str::<serde_json::Value>(r#"{"b": 1, "a": 2}"#).unwrap_or_default();
        let b =
            serde_json::from_str::<serde_json::Value>(r#"{"a": 2, "b": 1}"#).unwrap_or_default();
        assert_eq!(signature("t", &a), signature("t", &b));
        assert_ne!(signature("t", &a), signature("t", &json!({"a": 3, "b": 1})));
    }

    #[test]
    fn calls_run_side_by_side() {
        // Each call waits for the other to have started: a breaker that held its lock
        // while a call ran would make the first wait in vain.
        let tools = Tools::default();
        let (to_a, a_hears) = std::sync::mpsc::channel();
        let (to_b, b_hears) = std::sync::mpsc::channel();
        let wait = std::time::Duration::from_secs(10);
        let call =
            |name: &str, tell: std::sync::mpsc::Sender<()>, hear: std::sync::mpsc::Receiver<()>| {
                tools.call(name, json!({}), move || {
                    let _ = tell.send(());
                    hear.recv_timeout(wait)
                        .map_err(|_| (ErrorClass::Timeout, "the other call never started".into()))
                })
            };
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| call("a", to_b, a_hears));
            let b = call("b", to_a, b_hears);
            (a.join().expect("a's thread"), b)
        });
        assert_eq!((a, b), (Ok(()), Ok(())));
    }
}
