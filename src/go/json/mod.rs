//! JSON with Go's `encoding/json` semantics (spec/json.md §2 and §8):
//! numbers kept as their literal text, duplicate keys last-wins (or
//! refused, for TOON), invalid UTF-8 and lone surrogates as U+FFFD, a
//! nesting limit, and output written exactly as `json.Marshal` writes it.
//!
//! A decoded document is a [`Tape`]: one flat array of 8-byte nodes in
//! document order, strings and numbers as spans of the input (or of one
//! buffer for strings that needed decoding). A 30 MB array of records takes
//! ~17 MB as a tape where a tree of enums, vectors and strings took ~85 MB,
//! and building it is one growing vector instead of an allocation per
//! container. [`Json`] is a cursor into it; [`Json::get`] shows one node as
//! a [`Value`].

mod encode;
pub mod lazy;
mod parse;
pub mod raw;
pub mod scan;
mod tape;
#[cfg(test)]
mod tests;
mod valid;

pub use encode::{json_str, to_vec, write, write_indented, write_json_str};
pub use tape::{Indexed, Items, Json, Members, Tape, Value};
pub use valid::is_valid;

pub use parse::decode_first;
use parse::scan_number;

/// Go's `maxNestingDepth`: 10,000 nested arrays/objects are fine, 10,001 not.
pub const MAX_DEPTH: usize = 10_000;

/// How object members are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// Go `map[string]any`: sorted byte-wise, a duplicate key keeps the last value.
    SortedLastWins,
    /// Input order, a duplicate key is an error (TOON encode).
    InputOrderUnique,
    /// Input order, duplicates kept: what Go's decoder sees when it fills a
    /// struct member by member (a later duplicate overwrites).
    InputOrder,
}

/// Decoder settings.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub keys: Keys,
    pub max_depth: usize,
}

impl Options {
    /// Go `json.Decoder` with `UseNumber`, decoding into `any`.
    pub const GO: Options = Options {
        keys: Keys::SortedLastWins,
        max_depth: MAX_DEPTH,
    };
}

/// The input is not JSON the decoder accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxError;

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid JSON")
    }
}

impl std::error::Error for SyntaxError {}

type PResult<T> = Result<T, SyntaxError>;

/// Inputs up to this size decode: every length and offset fits a node,
/// even a string of invalid bytes that triples in size as U+FFFDs. The
/// CLI reads at most 64 MiB.
pub const MAX_INPUT: usize = 1 << 27;

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// True when `t` is exactly one JSON number literal.
pub fn is_number_literal(t: &[u8]) -> bool {
    !t.is_empty() && scan_number(t, 0) == Some(t.len())
}

/// Go `json.Decoder` + `More()` as the JSON compressor uses it (json.md §2):
/// one value; after whitespace, a further byte other than `]`/`}` fails.
pub fn decode_go(s: &[u8]) -> PResult<Tape<'_>> {
    let (v, mut end) = decode_first(s, Options::GO)?;
    while end < s.len() && is_ws(s[end]) {
        end += 1;
    }
    if end < s.len() && s[end] != b']' && s[end] != b'}' {
        return Err(SyntaxError);
    }
    Ok(v)
}

/// Exactly one value with only JSON whitespace around it.
pub fn decode_exact(s: &[u8], opts: Options) -> PResult<Tape<'_>> {
    let (v, mut end) = decode_first(s, opts)?;
    while end < s.len() && is_ws(s[end]) {
        end += 1;
    }
    if end != s.len() {
        return Err(SyntaxError);
    }
    Ok(v)
}
