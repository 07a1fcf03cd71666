//! Integration tests: every test drives the real binary through `TestCommand`.

mod util;

#[path = "integration/agent.rs"]
mod agent;
#[path = "integration/build_once.rs"]
mod build_once;
#[path = "integration/cli.rs"]
mod cli;
#[path = "integration/config.rs"]
mod config;
#[path = "integration/environment.rs"]
mod environment;
#[path = "integration/gofmt.rs"]
mod gofmt;
#[path = "integration/golden.rs"]
mod golden;
#[path = "integration/hardening.rs"]
mod hardening;
#[path = "integration/lean_answers.rs"]
mod lean_answers;
#[path = "integration/lean_budget_errors.rs"]
mod lean_budget_errors;
#[path = "integration/lean_code.rs"]
mod lean_code;
#[path = "integration/lean_doc_size.rs"]
mod lean_doc_size;
#[path = "integration/lean_docs.rs"]
mod lean_docs;
#[path = "integration/lean_json_size.rs"]
mod lean_json_size;
#[path = "integration/lean_json_views.rs"]
mod lean_json_views;
#[path = "integration/lean_log_size.rs"]
mod lean_log_size;
#[path = "integration/lean_logs.rs"]
mod lean_logs;
#[path = "integration/lean_members.rs"]
mod lean_members;
#[path = "integration/lean_probe.rs"]
mod lean_probe;
#[path = "integration/lean_properties.rs"]
mod lean_properties;
#[path = "integration/lean_records.rs"]
mod lean_records;
#[path = "integration/lean_search.rs"]
mod lean_search;
#[path = "integration/lean_table_claims.rs"]
mod lean_table_claims;
#[path = "integration/lean_tables.rs"]
mod lean_tables;
#[path = "integration/lean_text.rs"]
mod lean_text;
#[path = "integration/lean_unseen.rs"]
mod lean_unseen;
#[path = "integration/lean_within_compat.rs"]
mod lean_within_compat;
#[path = "integration/lines.rs"]
mod lines;
#[path = "integration/mcp.rs"]
mod mcp;
#[path = "integration/object_store.rs"]
mod object_store;
#[path = "integration/pixel.rs"]
mod pixel;
#[path = "integration/pixel_simulate.rs"]
mod pixel_simulate;
#[path = "integration/properties.rs"]
mod properties;
#[path = "integration/schemas.rs"]
mod schemas;
#[path = "integration/store.rs"]
mod store;
#[path = "integration/ux.rs"]
mod ux;
