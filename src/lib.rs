//! caveman-engine: deterministic, byte-compatible compression of LLM tool
//! output (JSON array elision, CSV/TSV/Markdown row sampling) with a
//! file-backed recovery store. See README.md for the command-line surface.

pub mod cmd;
pub mod compress;
pub mod detect;
pub mod engine;
pub mod gofmt;
pub mod gojson;
pub mod report;
pub mod retrieve;
pub mod store;
pub mod table;
pub mod text;
pub mod tokens;
pub mod toon;
pub mod unwrap;
pub mod yaml;
mod vocab_hash;
