//! caveman-engine: deterministic, byte-compatible compression of LLM tool
//! output with a file-backed recovery store. See README.md for the command
//! line and ARCHITECTURE.md for the layout.
//!
//! The library's surface is what the binaries and other programs need:
//! [`run`] for the command line, [`engine::compress`] and
//! [`detect::detect`] for the pipeline, the [`store`], the token counter
//! and TOON. Everything else is internal; [`testing`] exposes a few
//! internals to the integration tests and fuzz targets only.

pub(crate) mod ascii_first;
pub(crate) mod budget;
mod cmd;
pub(crate) mod compress;
pub mod content_type;
pub mod detect;
pub mod engine;
pub mod error;
pub mod evals;
pub(crate) mod go;
pub(crate) mod gofmt;
pub mod hook;
pub mod ledger;
pub mod mcp;
pub(crate) mod narrow;
#[doc(hidden)]
pub mod par;
pub mod pixel;
pub mod png;
pub mod profile;
pub mod report;
pub mod rules;
pub(crate) mod rx;
pub mod store;
pub(crate) mod table;
pub(crate) mod timings;
pub mod tokens;
pub mod toon;
pub(crate) mod unwrap;

pub use cmd::{run, MAX_STDIN};
pub use content_type::{ContentType, Method};
pub use error::{Error, Result};

/// Stack for the thread that runs a command: the JSON walk recurses once
/// per nesting level (up to 10,000) and TOON nests further.
pub const STACK_BYTES: usize = 1 << 30;

/// Smaller stacks tried, in order, when the address space is limited
/// (`ulimit -v`) and [`STACK_BYTES`] cannot be reserved. Each still holds
/// the deepest input the decoders accept (10,000 levels; measured need is
/// under 64 MiB for every command).
const FALLBACK_STACKS: [usize; 3] = [256 << 20, 64 << 20, 16 << 20];

/// Runs `f` on a thread with a large stack, falling back to smaller ones,
/// and to the calling thread when no thread can be started at all. A
/// panic in `f` becomes a fatal error with a message, never a silent exit.
pub fn on_large_stack<F>(f: F) -> Result<()>
where
    F: FnOnce() -> Result<()> + Send + 'static,
{
    let mut f = Some(f);
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None::<F>));
    // Under `ulimit -v`, a stack of at most a quarter of the limit: the
    // rest is the binary's and the work's.
    let cap = par::address_space_limit().map_or(usize::MAX, |l| l / 4);
    let sizes = std::iter::once(STACK_BYTES)
        .chain(FALLBACK_STACKS)
        .filter(|&s| s <= cap || s == FALLBACK_STACKS[FALLBACK_STACKS.len() - 1]);
    for size in sizes {
        *slot.lock().unwrap_or_else(|p| p.into_inner()) = f.take();
        let shared = std::sync::Arc::clone(&slot);
        let spawned = std::thread::Builder::new().stack_size(size).spawn(move || {
            let f = shared.lock().unwrap_or_else(|p| p.into_inner()).take();
            f.map(|f| f())
        });
        match spawned {
            Ok(h) => {
                return match h.join() {
                    Ok(Some(r)) => r,
                    Ok(None) => Err(Error::fatal("caveman-engine: internal error: no work")),
                    Err(_) => Err(Error::fatal(
                        "caveman-engine: internal error (a bug: please report it with the input)",
                    )),
                };
            }
            // The closure never ran: take it back and try a smaller stack.
            Err(_) => f = slot.lock().unwrap_or_else(|p| p.into_inner()).take(),
        }
    }
    match f {
        Some(f) => f(),
        None => Err(Error::fatal("caveman-engine: internal error: no work")),
    }
}

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

/// Internals the integration tests and fuzz targets exercise directly.
/// Not part of the library's API.
#[doc(hidden)]
pub mod testing {
    pub use crate::compress::json::compress as compress_json;
    pub use crate::compress::json::compress_decoded as compress_json_decoded;
    pub use crate::compress::tabular::compress as compress_table;
    pub use crate::compress::tabular::compress_parsed as compress_table_parsed;
    pub use crate::detect::{detect_parsed, Parsed};
    pub use crate::go::json::is_valid as json_valid;

    /// `encoding/json` decoding of exactly one value (the tape is dropped).
    pub fn json_decode_exact(b: &[u8]) -> bool {
        crate::go::json::decode_exact(b, crate::go::json::Options::GO).is_ok()
    }
    pub use crate::go::utf8::go_lossy;
    pub use crate::go::yaml::decodes as yaml_decodes;
    pub use crate::narrow::narrow;
    pub use crate::table::parse as parse_table;
    pub use crate::unwrap::unwrap;

    /// The code compressor's Go pipeline: the reduced file, or why not
    /// (`syntax`, `empty`).
    pub fn gofmt_code(src: &[u8]) -> Result<Vec<u8>, &'static str> {
        crate::gofmt::empty_bodies(src).map_err(|e| match e {
            crate::gofmt::Skip::Syntax(_) => "syntax",
            crate::gofmt::Skip::NothingToEmpty => "empty",
        })
    }

    /// Parse, print and gofmt `src` with every body kept.
    pub fn gofmt_reprint(src: &[u8]) -> Result<Vec<u8>, &'static str> {
        crate::gofmt::reprint(src).map_err(|_| "syntax")
    }

    /// The view the compressor registered for `ct` makes of `body` (no
    /// detection, no unwrapping, no token test, no store), or `None` when
    /// it declines.
    pub fn compress_as(ct: &crate::ContentType, body: &[u8], query: &str) -> Option<Vec<u8>> {
        let entry = crate::compress::lookup(ct)?;
        let input = crate::compress::Input::plain(body, query);
        (entry.run)(&input).ok().map(|c| c.bytes)
    }

    /// [`compress_as`] under the lean profile.
    pub fn compress_lean_as(ct: &crate::ContentType, body: &[u8], query: &str) -> Option<Vec<u8>> {
        let entry = crate::compress::lookup(ct)?;
        let input = crate::compress::Input {
            profile: crate::profile::Profile::Lean,
            ..crate::compress::Input::plain(body, query)
        };
        (entry.run)(&input).ok().map(|c| c.bytes)
    }

    /// The dialect the lean config compressor reads `text` as, if any.
    pub fn config_dialect(text: &str) -> Option<crate::detect::ConfigKind> {
        crate::compress::config_dialect(text, None)
    }

    /// The recovery metadata the compressor registered for `ct` stores
    /// beside the original (only a11y has any).
    pub fn metadata_as(ct: &crate::ContentType, body: &[u8], query: &str) -> Option<Vec<u8>> {
        let entry = crate::compress::lookup(ct)?;
        let input = crate::compress::Input::plain(body, query);
        (entry.run)(&input).ok().map(|c| c.metadata)
    }
}
