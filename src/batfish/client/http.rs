//! One HTTP request to Batfish: the API key and version headers, the timeout left,
//! retries of what can be repeated, and error bodies read into `BatfishError`.

use super::{redact, BatfishError, Client};
use serde_json::Value;
use std::time::{Duration, Instant};

/// A `creationTimestamp` as Jackson writes an `Instant`: seconds (a number) or RFC 3339 text.
pub(super) fn seconds(v: Option<&Value>) -> f64 {
    match v {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(Value::String(s)) => chrono::DateTime::parse_from_rfc3339(s)
            .map(|t| t.timestamp_millis() as f64 / 1000.0)
            .unwrap_or(0.0),
        _ => 0.0,
    }
}

pub(super) fn uuid() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Whether a request is worth another attempt after this HTTP status, as pybatfish
/// retries (`pybatfish/client/restv2helper.py`: `_STATUS_FORCELIST`, idempotent methods
/// only): 429 refused the request before doing anything, so any method; 5xx only for a
/// request that can be repeated (GET, PUT, DELETE) — a POST may have done its work.
fn retryable(status: u16, idempotent: bool) -> bool {
    status == 429 || (idempotent && matches!(status, 500 | 502 | 503 | 504))
}

/// One failed attempt: the error and, for a status worth retrying, how long the server asked to wait.
struct Failure {
    error: BatfishError,
    retry: bool,
    wait: Option<Duration>,
}

impl Client {
    pub(super) fn remaining(&self, what: &str) -> Result<Duration, BatfishError> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| BatfishError::Deadline {
                what: what.to_owned(),
                secs: self.total.as_secs_f64(),
            })
    }

    /// Sends a request, retrying 429, 5xx and dropped connections with a doubling pause,
    /// all inside the overall deadline. Returns the status and the (capped) body.
    pub(super) fn send(
        &self,
        what: &str,
        build: impl Fn() -> reqwest::blocking::RequestBuilder,
        timeout: Duration,
    ) -> Result<(u16, String), BatfishError> {
        self.send_with(what, build, timeout, self.attempts)
    }

    pub(super) fn send_with(
        &self,
        what: &str,
        build: impl Fn() -> reqwest::blocking::RequestBuilder,
        timeout: Duration,
        attempts: u32,
    ) -> Result<(u16, String), BatfishError> {
        // `what` starts with the method: only POST is not idempotent among those olav sends.
        let idempotent = !what.starts_with("POST ");
        let mut pause = self.backoff;
        let mut attempt = 1;
        loop {
            match self.attempt(what, build(), timeout, attempt, idempotent) {
                Ok(r) => return Ok(r),
                Err(f) if f.retry && attempt < attempts.max(1) => {
                    let wait = f.wait.unwrap_or(pause);
                    // No time left for another attempt: the error itself says most.
                    let Ok(left) = self.remaining(what) else {
                        return Err(f.error);
                    };
                    if left <= wait {
                        return Err(f.error);
                    }
                    tracing::debug!("{what}: {}; attempt {} in {wait:?}", f.error, attempt + 1);
                    std::thread::sleep(wait);
                    pause = pause.saturating_mul(2);
                    attempt += 1;
                }
                Err(f) => return Err(f.error),
            }
        }
    }

    fn attempt(
        &self,
        what: &str,
        req: reqwest::blocking::RequestBuilder,
        timeout: Duration,
        attempt: u32,
        idempotent: bool,
    ) -> Result<(u16, String), Failure> {
        let fail = |error| Failure {
            error,
            retry: false,
            wait: None,
        };
        let limit = timeout.min(self.remaining(what).map_err(fail)?);
        let resp = req
            .header("X-Batfish-Apikey", &self.endpoint.apikey)
            .header(
                "X-Batfish-Version",
                concat!("olav-", env!("CARGO_PKG_VERSION")),
            )
            .timeout(limit)
            .send()
            .map_err(|e| {
                if e.is_timeout() {
                    fail(BatfishError::Timeout {
                        address: self.endpoint.address(),
                        what: what.to_owned(),
                        secs: limit.as_secs_f64(),
                    })
                } else {
                    // Refused: the request never reached the service, so any method may be
                    // sent again; reset or closed mid-way: only one that can be repeated.
                    Failure {
                        error: BatfishError::Unreachable {
                            address: self.endpoint.address(),
                            reason: if e.is_connect() {
                                super::REFUSED.to_owned()
                            } else {
                                e.to_string()
                            },
                        },
                        retry: e.is_connect() || idempotent,
                        wait: None,
                    }
                }
            })?;
        let status = resp.status().as_u16();
        let wait = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let location = resp
            .headers()
            .get("location")
            .map(|v| {
                String::from_utf8_lossy(v.as_bytes())
                    .chars()
                    .take(200)
                    .collect()
            })
            .unwrap_or_else(|| "an address it did not give".to_owned());
        let body = self.read_body(what, resp, limit).map_err(fail)?;
        if (300..400).contains(&status) {
            return Err(fail(BatfishError::Redirected {
                address: self.endpoint.address(),
                what: what.to_owned(),
                status,
                location: super::redact(&location, &self.endpoint.apikey),
            }));
        }
        if retryable(status, idempotent) {
            return Err(Failure {
                error: BatfishError::Http {
                    what: what.to_owned(),
                    status,
                    body: super::server_text(&body, 300),
                    attempts: attempt,
                },
                retry: true,
                wait,
            });
        }
        Ok((status, body))
    }

    /// Reads at most `max_body` bytes: a declared or streamed larger body is an error, never read whole.
    fn read_body(
        &self,
        what: &str,
        resp: reqwest::blocking::Response,
        limit: Duration,
    ) -> Result<String, BatfishError> {
        use std::io::Read;
        let too_large = || BatfishError::TooLarge {
            what: what.to_owned(),
            limit_mb: self.max_body / (1024 * 1024),
        };
        if resp.content_length().is_some_and(|n| n > self.max_body) {
            return Err(too_large());
        }
        let mut buf = Vec::new();
        let started = Instant::now();
        resp.take(self.max_body + 1)
            .read_to_end(&mut buf)
            .map_err(|e| {
                // A body cut short before the time ran out is a closed connection, not a timeout.
                if e.kind() == std::io::ErrorKind::TimedOut || started.elapsed() >= limit {
                    BatfishError::Timeout {
                        address: self.endpoint.address(),
                        what: format!("{what} (reading the body: {e})"),
                        secs: limit.as_secs_f64(),
                    }
                } else {
                    BatfishError::Unreachable {
                        address: self.endpoint.address(),
                        reason: format!(
                            "the connection closed after {:.2} s, {} bytes into the answer to {what} ({e})",
                            started.elapsed().as_secs_f64(),
                            buf.len()
                        ),
                    }
                }
            })?;
        if buf.len() as u64 > self.max_body {
            return Err(too_large());
        }
        // Every text from the server passes here: the key it may echo (in an error body, a
        // work log, an answer) is gone before anything prints, stores or writes it.
        Ok(redact(
            &String::from_utf8_lossy(&buf),
            &self.endpoint.apikey,
        ))
    }

    pub(super) fn expect_ok(
        &self,
        what: &str,
        (status, body): (u16, String),
    ) -> Result<String, BatfishError> {
        if (200..300).contains(&status) {
            Ok(body)
        } else {
            Err(BatfishError::Http {
                what: what.to_owned(),
                status,
                body: super::server_text(&body, 300),
                attempts: 1,
            })
        }
    }

    pub(super) fn json(&self, what: &str, body: &str) -> Result<Value, BatfishError> {
        serde_json::from_str(body).map_err(|e| BatfishError::Malformed {
            what: what.to_owned(),
            reason: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::retryable;

    #[test]
    fn only_requests_that_can_be_repeated_are_retried_after_a_server_error() {
        assert!(retryable(429, false));
        assert!(retryable(503, true));
        assert!(!retryable(503, false));
        assert!(!retryable(400, true));
    }
}
