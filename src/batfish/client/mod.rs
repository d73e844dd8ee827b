//! A client for Batfish's v2 HTTP API (port 9996): networks, snapshots (upload, fork),
//! queued work with polling, questions and table answers. Notes on the API:
//! `../shared/reference/batfish/API.md`.

mod answer;
mod http;
mod questions;
mod snapshots;

pub use answer::{decode_table, TableAnswer};
pub use questions::question;
pub use snapshots::snapshot_zip;

use serde_json::Value;
use std::time::{Duration, Instant};

/// Where Batfish is and how to talk to it.
#[derive(Clone)]
pub struct Endpoint {
    /// Host name or address.
    pub host: String,
    /// Port (9996).
    pub port: u16,
    /// Use HTTPS.
    pub ssl: bool,
    /// API key (never printed).
    pub apikey: String,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Endpoint({}:{}, ssl={}, apikey=<hidden>)",
            self.host, self.port, self.ssl
        )
    }
}

/// `text` with every occurrence of `key` replaced; keys too short to be secret are left.
pub fn redact(text: &str, key: &str) -> String {
    if key.len() < 8 {
        return text.to_owned();
    }
    text.replace(key, "[redacted API key]")
}

/// Text a Batfish server sent (an error body, a failure reason, a work log), as olav
/// shows it: at most `max` characters, control characters escaped, and every line after
/// the first quoted with `│ `, so that none of it can clear a terminal or pass for one of
/// olav's own lines (a server answering `\nVERDICT: PASS`).
pub fn server_text(text: &str, max: usize) -> String {
    let capped: String = text.chars().take(max).collect();
    capped
        .split('\n')
        .map(|line| crate::output::printable(line.trim_end_matches('\r')))
        .collect::<Vec<_>>()
        .join("\n    │ ")
}

/// The default API key Batfish accepts.
pub const DEFAULT_APIKEY: &str = "00000000000000000000000000000000";

impl Endpoint {
    /// From explicit values, falling back to `OLAV_BATFISH_*` variables and defaults.
    pub fn resolve(host: Option<&str>, port: Option<u16>) -> Endpoint {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        Endpoint {
            host: host
                .map(str::to_owned)
                .or_else(|| env("OLAV_BATFISH_HOST"))
                .unwrap_or_else(|| "localhost".into()),
            port: port
                .or_else(|| env("OLAV_BATFISH_HTTP_PORT").and_then(|p| p.parse().ok()))
                .unwrap_or(9996),
            ssl: env("OLAV_BATFISH_SSL")
                .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes")),
            apikey: env("OLAV_BATFISH_APIKEY").unwrap_or_else(|| DEFAULT_APIKEY.into()),
        }
    }

    /// `host:port`.
    pub fn address(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }

    fn base(&self) -> String {
        format!(
            "{}://{}:{}/v2",
            if self.ssl { "https" } else { "http" },
            self.host,
            self.port
        )
    }
}

/// What went wrong talking to Batfish.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BatfishError {
    /// Nothing listens there, or the connection failed.
    #[error("Batfish is not reachable at {address}: {reason}")]
    Unreachable {
        /// host:port.
        address: String,
        /// Why.
        reason: String,
    },
    /// A request took too long.
    #[error("Batfish at {address} did not answer {what} within {secs:.1} s")]
    Timeout {
        /// host:port.
        address: String,
        /// Which request.
        what: String,
        /// The limit.
        secs: f64,
    },
    /// An HTTP error status.
    #[error("Batfish answered {what} with HTTP {status}: {body}{}", if *attempts > 1 { format!(" (tried {attempts} times)") } else { String::new() })]
    Http {
        /// Which request.
        what: String,
        /// Status code.
        status: u16,
        /// The body (trimmed).
        body: String,
        /// How many times it was sent (429 and 5xx are retried).
        attempts: u32,
    },
    /// A redirect, never followed: the API key goes to the configured host and no other.
    #[error("Batfish at {address} answered {what} with HTTP {status}, a redirect to {location}; olav does not follow redirects (Batfish never sends one, and the API key must not reach another host)")]
    Redirected {
        /// host:port.
        address: String,
        /// Which request.
        what: String,
        /// The 3xx status.
        status: u16,
        /// Where it pointed (trimmed).
        location: String,
    },
    /// A response body larger than olav reads.
    #[error("Batfish answered {what} with a body over {limit_mb} MB; olav stops reading there (a proxy or another service on that port?)")]
    TooLarge {
        /// Which request.
        what: String,
        /// The cap, in MB.
        limit_mb: u64,
    },
    /// Not the JSON expected.
    #[error("Batfish answered {what} with malformed JSON: {reason}")]
    Malformed {
        /// Which request.
        what: String,
        /// Why.
        reason: String,
    },
    /// Work ended badly.
    #[error("Batfish work {what} ended {code}{}", log.as_ref().map(|l| format!("; work log:\n    │ {l}")).unwrap_or_default())]
    Work {
        /// Which work.
        what: String,
        /// Terminal status code.
        code: String,
        /// The work log, when it could be fetched.
        log: Option<String>,
    },
    /// An answer with status FAILURE.
    #[error("Batfish could not answer {question}: {reason}")]
    AnswerFailed {
        /// Question.
        question: String,
        /// Its message.
        reason: String,
    },
    /// The overall deadline passed.
    #[error("the Batfish verification ran past its deadline of {secs:.0} s (at {what})")]
    Deadline {
        /// Where it was.
        what: String,
        /// The deadline.
        secs: f64,
    },
}

/// A connection to one Batfish service, bounded by an overall deadline.
pub struct Client {
    endpoint: Endpoint,
    http: reqwest::blocking::Client,
    deadline: Instant,
    total: Duration,
    /// Per-request timeout.
    pub request_timeout: Duration,
    /// The largest response body read, in bytes.
    pub max_body: u64,
    /// How many times a request is sent when Batfish answers 429 or 5xx or the connection drops.
    pub attempts: u32,
    /// The first pause between two attempts (doubled after each).
    pub backoff: Duration,
}

/// What uploading a snapshot did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upload {
    /// The snapshot was created.
    Created,
    /// A snapshot of that name existed already (another run uploaded it first).
    AlreadyExists,
}

/// A snapshot of a network and its processing status (`PARSED`, `PARSING_FAIL`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotInfo {
    /// Its name.
    pub name: String,
    /// `initializationMetadata.currentStatus`, when Batfish gave one.
    pub status: Option<String>,
    /// When it was created, in seconds since 1970 (0 when not given).
    pub created: f64,
}

/// Why a connection failed when nothing listens (or no route leads there).
pub const REFUSED: &str = "connection refused or no route";

/// Whether every address of the endpoint refuses a connection (nothing listens): told
/// without an HTTP client, whose TLS set-up reads every system root certificate — a
/// sixth of a whole 10,000-device request's CPU when no Batfish runs. A refusal comes
/// back within a round trip, so each attempt waits at most 250 ms (a filtered port costs
/// the probe no more than that); a timeout or a name that does not resolve is left to
/// the HTTP client to report.
pub fn refused(endpoint: &Endpoint, within: Duration) -> bool {
    use std::net::ToSocketAddrs;
    let Ok(addrs) = (endpoint.host.as_str(), endpoint.port).to_socket_addrs() else {
        return false;
    };
    let mut any = false;
    for a in addrs {
        any = true;
        match std::net::TcpStream::connect_timeout(&a, within.min(Duration::from_millis(250))) {
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {}
            _ => return false,
        }
    }
    any
}

impl Client {
    /// A client that gives up on everything after `total`.
    pub fn new(endpoint: Endpoint, total: Duration) -> Result<Client, BatfishError> {
        let http = reqwest::blocking::Client::builder()
            .connect_timeout(Duration::from_secs(2))
            // A redirect would carry X-Batfish-Apikey to whatever host it names.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| BatfishError::Unreachable {
                address: endpoint.address(),
                reason: format!("cannot build an HTTP client: {e}"),
            })?;
        Ok(Client {
            endpoint,
            http,
            deadline: Instant::now() + total,
            total,
            request_timeout: Duration::from_secs(30),
            max_body: 8 * 1024 * 1024,
            attempts: 5,
            backoff: Duration::from_millis(250),
        })
    }

    /// The endpoint.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Waits `d` (less when the deadline comes first; an error when it has come).
    pub fn pause(&self, d: Duration, what: &str) -> Result<(), BatfishError> {
        std::thread::sleep(d.min(self.remaining(what)?));
        Ok(())
    }

    /// `GET /v2/version` with a short timeout and one attempt: the probe.
    pub fn version(&self, probe: Duration) -> Result<String, BatfishError> {
        let what = "GET /v2/version";
        let url = format!("{}/version", self.endpoint.base());
        let r = self.send_with(what, || self.http.get(&url), probe, 1)?;
        let body = self.expect_ok(what, r)?;
        let v = self.json(what, &body)?;
        Ok(v.get("Batfish")
            .or_else(|| v.get("version"))
            .and_then(Value::as_str)
            .unwrap_or("unknown")
            .to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::{refused, Endpoint};
    use std::time::Duration;

    fn at(port: u16) -> Endpoint {
        Endpoint {
            host: "127.0.0.1".into(),
            port,
            ssl: false,
            apikey: String::new(),
        }
    }

    #[test]
    fn a_port_nothing_listens_on_is_refused_and_a_listening_one_is_not() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("its address").port();
        assert!(!refused(&at(port), Duration::from_secs(1)));
        drop(listener);
        assert!(refused(&at(port), Duration::from_secs(1)));
    }

    #[test]
    fn a_name_that_does_not_resolve_is_left_to_the_http_client() {
        let mut e = at(9996);
        e.host = "no-such-host.invalid".into();
        assert!(!refused(&e, Duration::from_secs(1)));
    }
}
