//! caveman-engine: deterministic, byte-compatible compression of LLM tool
//! output (JSON array elision, CSV/TSV/Markdown row sampling) with a
//! file-backed recovery store. See README.md for the command-line surface.

pub mod cmd;
pub mod compress;
pub mod detect;
pub mod engine;
pub mod gofmt;
pub mod gojson;
pub mod par;
pub mod profile;
pub mod report;
pub mod retrieve;
pub mod store;
pub mod table;
pub mod text;
pub mod tokens;
pub mod toon;
pub mod unwrap;
mod vocab_hash;
pub mod yaml;

/// Runs `f` on a thread with the binary's stack size (deep-nesting tests).
#[doc(hidden)]
pub fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(f)
        .expect("spawn test thread")
        .join()
        .expect("test thread panicked")
}

/// Stack for the thread that runs a command: the JSON walk recurses once per
/// nesting level (up to 10,000) and TOON nests further.
pub const STACK_BYTES: usize = 1 << 30;
