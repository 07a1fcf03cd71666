//! The compress flow (spec/engine.md §1): unwrap → detect (or forced type)
//! → count the whole input → run the compressor on the body → rewrap →
//! keep only if strictly fewer tokens → store the original → publish.
//!
//! The input is counted on a second thread while the body is detected and
//! compressed, so the two largest costs overlap on a two-core machine.

use crate::detect::Parsed;
use crate::report::{Report, StoreFailure, Transformed};
use crate::store::{Handle, NewRecord, PutError, Store};
use crate::{compress, detect, tokens, unwrap};

/// What the caller asked for.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// `--type`: `None` (or `auto`/empty, normalised by the caller) detects.
    pub forced_type: Option<String>,
    /// `--query`; empty means none.
    pub query: String,
    /// `CAVE_ENGINE_TOON=best-of`.
    pub toon_best_of: bool,
}

/// Output bytes and report of one compress.
#[derive(Debug)]
pub struct Outcome {
    /// `None` means the input passes through unchanged.
    pub output: Option<Vec<u8>>,
    pub report: Report,
}

/// A compressor's result: bytes, method, lossless_to_model.
pub struct Compressed {
    pub bytes: Vec<u8>,
    pub method: &'static str,
    pub lossless: bool,
    /// Token count of `bytes`, when the compressor already counted them
    /// (the best-of selector does): not counted again.
    pub tokens: Option<usize>,
}

/// Runs the compressor registered for `ct` on `body` (engine.md §3).
pub fn run_compressor(ct: &str, body: &[u8], opts: &Options) -> Option<Compressed> {
    run_parsed(ct, body, Parsed::Nothing, opts)
}

/// [`run_compressor`] reusing what detection parsed.
fn run_parsed(ct: &str, body: &[u8], parsed: Parsed<'_>, opts: &Options) -> Option<Compressed> {
    let elision = |bytes| Compressed {
        bytes,
        method: "elision",
        lossless: false,
        tokens: None,
    };
    let tabular = |bytes| Compressed {
        bytes,
        method: "tabular",
        lossless: false,
        tokens: None,
    };
    match (ct, parsed) {
        ("json", _) if opts.toon_best_of => compress::best_of(body, &opts.query),
        ("json", Parsed::Json(v)) => {
            compress::json::compress_decoded(body, v.root(), &opts.query).map(elision)
        }
        ("json", _) => compress::json::compress(body, &opts.query).map(elision),
        ("tabular", Parsed::Table(t)) => {
            compress::tabular::compress_parsed(body, &t, &opts.query).map(tabular)
        }
        ("tabular", _) => compress::tabular::compress(body, &opts.query).map(tabular),
        ("toon", _) => crate::toon::encode(body).ok().map(|bytes| Compressed {
            bytes,
            method: "toon",
            lossless: true,
            tokens: None,
        }),
        // Registered in the reference but not built here (log, code, diff,
        // search-result, text, html, config, terminal, …): they decline,
        // which is always safe: the input passes through.
        _ => None,
    }
}

/// Compresses `input` (engine.md §1).
pub fn compress(input: &[u8], opts: &Options, store: &Store) -> Outcome {
    let mut clock = crate::profile::Clock::new("engine");
    std::thread::scope(|scope| {
        let counter = scope.spawn(|| tokens::count(input));
        let (body, layers) = unwrap::unwrap(input);
        clock.mark("unwrap");
        let (ct, parsed) = match &opts.forced_type {
            Some(t) => (t.clone(), Parsed::Nothing),
            None => {
                let (word, parsed) = detect::detect_parsed(&body);
                (word.to_string(), parsed)
            }
        };
        clock.mark("detect");
        let compressed = run_parsed(&ct, &body, parsed, opts);
        clock.mark("compressor");
        let candidate = compressed
            .map(|c| {
                // A count of the compressor's bytes holds for the output
                // only when no wrapper goes back around them.
                let known = c.tokens.filter(|_| layers.is_empty());
                (
                    unwrap::rewrap(c.bytes, &layers),
                    c.method,
                    c.lossless,
                    known,
                )
            })
            .filter(|(out, _, _, _)| out.as_slice() != input);
        // The handle (SHA-256 of the input) is computed beside the output's
        // count rather than after it.
        let hasher = candidate
            .is_some()
            .then(|| scope.spawn(|| Handle::of(input)));
        let candidate = candidate.map(|(out, m, l, known)| {
            let after = known.unwrap_or_else(|| tokens::count(&out));
            (out, m, l, after)
        });
        clock.mark("count output");
        let before = counter.join().unwrap_or_else(|_| tokens::count(input));
        clock.mark("count input");
        let pass = |error| Outcome {
            output: None,
            report: Report {
                content_type: ct.clone(),
                tokens_before: before,
                tokens_after: before,
                ratio: 0.0,
                transformed: None,
                error,
            },
        };
        let Some((out, method, lossless, after)) = candidate else {
            return pass(None);
        };
        if after >= before {
            return pass(None);
        }
        let handle = hasher
            .and_then(|h| h.join().ok())
            .unwrap_or_else(|| Handle::of(input));
        let put = store.put_as(
            handle,
            &NewRecord {
                content_type: &ct,
                compressor: &ct,
                tokens_before: before as u64,
                tokens_after: after as u64,
                original: input,
                metadata: &[],
            },
        );
        clock.mark("store");
        let handle = match put {
            Ok(h) => h,
            Err(PutError::Budget) => return pass(Some(StoreFailure::BudgetExceeded)),
            Err(PutError::Io(_)) => return pass(Some(StoreFailure::Unavailable)),
        };
        Outcome {
            output: Some(out),
            report: Report {
                content_type: ct.clone(),
                tokens_before: before,
                tokens_after: after,
                ratio: (before - after) as f64 / before as f64,
                transformed: Some(Transformed {
                    recovery_handle: handle.as_str().to_string(),
                    method: method.to_string(),
                    lossless_to_model: lossless,
                }),
                error: None,
            },
        }
    })
}
