//! The integration tests, one binary: each module is one area of olav, run through the
//! library or the built binary (`common::olav`). One binary links the library once, not
//! once per area.

mod common;
mod standin;

mod answers;
mod batfish;
mod batfish_modeled;
mod calendar;
mod candidate;
mod checks;
mod corpus;
mod custom;
mod custom_props;
mod eigrp_lab;
mod fidelity;
mod frr;
mod frr_live;
mod growth;
mod import_digest;
mod intents;
mod json;
mod junos;
mod other_vendors;
mod panos;
mod parser_props;
mod pipeline;
mod policy;
mod precheck;
mod pybatfish;
mod report;
mod request_table;
mod requests;
mod robustness;
mod roles;
mod roundtrip;
mod routes;
mod routes_props;
mod schedule;
mod sros;
mod state_cli;
mod structure;
mod trace;
mod window;
mod withdrawn;
mod workflows;
