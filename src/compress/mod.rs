//! The compressors this engine implements, and the JSON best-of selector.

pub mod json;
pub mod shared;
pub mod tabular;

use crate::engine::Compressed;
use crate::tokens;

/// JSON best-of (engine.md §5): TOON or elision, whichever counts fewer
/// tokens than the body (ties go to TOON).
pub fn best_of(body: &[u8], query: &str) -> Option<Compressed> {
    let b0 = tokens::count(body);
    let mut best: Option<(Compressed, usize)> = None;
    if let Ok(t) = crate::toon::encode(body) {
        let n = tokens::count(&t);
        if n < b0 {
            best = Some((
                Compressed {
                    bytes: t,
                    method: "toon",
                    lossless: true,
                    tokens: Some(n),
                },
                n,
            ));
        }
    }
    if let Some(e) = json::compress(body, query) {
        let n = tokens::count(&e);
        if n < b0 && best.as_ref().is_none_or(|(_, m)| n < *m) {
            best = Some((
                Compressed {
                    bytes: e,
                    method: "elision",
                    lossless: false,
                    tokens: Some(n),
                },
                n,
            ));
        }
    }
    best.map(|(c, _)| c)
}
