//! The `json` content type: the compat elider ([`compat`], byte-frozen),
//! the lean view ([`lean`]), and JSON best-of (TOON or elision) under
//! `CAVE_ENGINE_TOON=best-of`.

mod compat;
mod lean;
mod numeric;

pub(crate) use lean::INPUT_ORDER;

use super::{Compressed, Decline, Input};
use crate::content_type::Method;
use crate::detect::Parsed;
use crate::go::unicode::fold_str;
use crate::tokens;

pub use compat::{compress, compress_decoded};

/// The marker key of a dropped run, in both profiles.
pub const ELIDED_KEY: &str = "__caveman_elided__";

/// Keys whose whole subtree is copied verbatim (matched as
/// `(?i)^(…)$` with Go's simple case folding).
const PRESERVE_KEYS: [&str; 15] = [
    "error",
    "errors",
    "message",
    "msg",
    "stack",
    "stacktrace",
    "stack_trace",
    "trace",
    "traceback",
    "exception",
    "reason",
    "detail",
    "details",
    "warning",
    "warnings",
];

pub(super) fn is_preserve_key(k: &str) -> bool {
    // Longest key is 11 runes; `ſ` and the Kelvin sign take 2-3 bytes.
    k.len() <= 33 && PRESERVE_KEYS.contains(&fold_str(k).as_str())
}

/// The `json` registry row: the elider on what detection decoded, or the
/// best-of selector under `CAVE_ENGINE_TOON=best-of`.
pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    // A budget needs the lean view's levels, in either profile.
    if input.profile.is_lean() || input.budget.is_some() {
        return lean::run(input);
    }
    const NOTHING: Decline = Decline("invalid JSON, a second value, or no array collapsed");
    let elided = |(bytes, trace)| Compressed {
        reported: Some((Method::Elision, false)),
        ..Compressed::traced(bytes, trace)
    };
    if input.toon_best_of {
        return best_of(input.body, input.query).ok_or(Decline(
            "neither TOON nor elision has fewer tokens than the body",
        ));
    }
    match &input.parsed {
        Parsed::Json(v) => compat::compress_decoded_traced(input.body, v.root(), input.query),
        _ => compat::compress_traced(input.body, input.query),
    }
    .map(elided)
    .ok_or(NOTHING)
}

/// JSON best-of (engine.md §5): TOON or elision, whichever counts fewer
/// tokens than the body (ties go to TOON).
fn best_of(body: &[u8], query: &str) -> Option<Compressed> {
    let b0 = tokens::count(body);
    let mut best: Option<(Compressed, usize)> = None;
    if let Ok(t) = crate::toon::encode(body) {
        let n = tokens::count(&t);
        if n < b0 {
            let c = Compressed {
                reported: Some((Method::Toon, true)),
                tokens: Some(n),
                ..Compressed::new(t)
            };
            best = Some((c, n));
        }
    }
    if let Some(e) = compat::compress(body, query) {
        let n = tokens::count(&e);
        if n < b0 && best.as_ref().is_none_or(|(_, m)| n < *m) {
            let c = Compressed {
                reported: Some((Method::Elision, false)),
                tokens: Some(n),
                ..Compressed::new(e)
            };
            best = Some((c, n));
        }
    }
    best.map(|(c, _)| c)
}
