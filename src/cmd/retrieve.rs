//! `retrieve <handle> [query]` (spec/cli.md §5, store.md §4 and §6).

use super::{fatal, write_stdout, WriteOutcome};
use crate::store::{GetError, Store, StoreEnv};

pub fn run(args: &[String]) -> i32 {
    let Some(handle) = args.first() else {
        return fatal("usage: caveman-engine retrieve <handle> [query]");
    };
    let store = match Store::open(&StoreEnv::from_process()) {
        Ok(s) => s,
        Err(e) => return fatal(&e.to_string()),
    };
    let original = match store.get(handle) {
        Ok(b) => b,
        Err(e @ GetError::NotFound) => return fatal(&format!("retrieve: {e}")),
        Err(e) => return fatal(&format!("retrieve: {e}")),
    };
    let query = args.get(1).map(String::as_str).unwrap_or("");
    let view = if crate::text::trim_str(query).is_empty() {
        original
    } else {
        crate::retrieve::narrow(original, query)
    };
    match write_stdout(&view) {
        WriteOutcome::Failed(e) => fatal(&format!("write stdout: {e}")),
        _ => 0,
    }
}
