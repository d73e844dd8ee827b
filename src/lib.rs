//! olav: a change-verification pipeline for network engineers.
//!
//! Data flow: a snapshot is imported ([`import`]) into the state DB ([`state`]). A request
//! is routed to a workflow ([`workflow`]); the [`engine`] runs its steps — the step
//! [`agents`] — which draft a [`plan`] file, pre-check it ([`precheck`]) and verify it
//! ([`batfish`], else [`checks`]), writing reports; [`schedule`] re-checks open plans.
//! The binary is a thin shell over [`cli`]. Map: `docs/architecture.md`.

pub mod agents;
pub mod batfish;
pub mod calendar;
pub mod checks;
pub mod cli;
pub mod demo;
pub mod dialect;
pub mod engine;
pub mod filter;
pub mod fsutil;
pub mod fuzzy;
pub mod ifname;
pub mod import;
pub mod language;
mod memory;
pub mod model;
pub mod network;
pub mod output;
pub mod parallel;
pub mod plan;
pub mod precheck;
pub mod report;
pub mod routing;
pub mod schedule;
pub mod state;
pub mod synth;
pub mod topology;
pub mod workflow;
pub mod yaml;
