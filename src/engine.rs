//! The compress flow (spec/engine.md §1): unwrap → detect (or forced type)
//! → count the whole input → run the registered compressor on the body →
//! rewrap → keep only if strictly fewer tokens → store the original →
//! publish. The engine names no compressor: it looks the content type up
//! in the registry (`crate::compress`).
//!
//! The input is counted on a second thread while the body is detected and
//! compressed, so the two largest costs overlap on a two-core machine.

use crate::compress::{self, Decline, Input};
use crate::content_type::ContentType;
use crate::detect::{self, Parsed};
use crate::profile::Profile;
use crate::report::{Report, StoreFailure, Transformed};
use crate::store::{Handle, NewRecord, PutError, Store};
use crate::{tokens, unwrap};

/// What the caller asked for.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// `--type`: `None` (or `auto`/empty, normalised by the caller) detects.
    pub forced_type: Option<ContentType>,
    /// `--query`; empty means none.
    pub query: String,
    /// `CAVE_ENGINE_TOON=best-of`.
    pub toon_best_of: bool,
    /// `--profile` (or `CAVEMAN_ENGINE_PROFILE`).
    pub profile: Profile,
    /// `--budget N` (or `CAVEMAN_ENGINE_BUDGET`): at most N tokens.
    pub budget: Option<usize>,
}

/// Why the input passed through unchanged (for `--explain`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PassThrough {
    /// No compressor is registered for the content type.
    Unregistered,
    /// The compressor declined, for this reason.
    Declined(&'static str),
    /// The view was the input itself.
    Unchanged,
    /// The view did not have fewer tokens than the input.
    NotSmaller { after: usize },
    /// The store refused the original.
    StoreRefused(StoreFailure),
}

/// Output bytes and report of one compress.
#[derive(Debug)]
pub struct Outcome {
    /// `None` means the input passes through unchanged.
    pub output: Option<Vec<u8>>,
    pub report: Report,
    /// Why it passed through, when it did.
    pub pass_through: Option<PassThrough>,
    /// What `--explain` tells besides the pass-through reason.
    pub account: Account,
}

/// How the engine got to its answer, for `--explain`: every fact comes
/// from the decision itself.
#[derive(Debug, Default, Clone)]
pub struct Account {
    /// The type was forced with `--type`.
    pub forced: bool,
    /// Wrappers peeled before detection, outermost first.
    pub peeled: Vec<&'static str>,
    /// The detection rule that named the type (empty when forced).
    pub rule: &'static str,
    /// The compressor's account of kept and dropped units, when it
    /// selected units.
    pub trace: Option<compress::Trace>,
}

/// Compresses `input` (engine.md §1).
pub fn compress(input: &[u8], opts: &Options, store: &Store) -> Outcome {
    let mut clock = crate::timings::Clock::new("engine");
    std::thread::scope(|scope| {
        let counter = crate::par::spawn(scope, || tokens::count(input));
        let (body, layers) = unwrap::unwrap_as(input, opts.profile);
        clock.mark("unwrap");
        let mut account = Account {
            forced: opts.forced_type.is_some(),
            peeled: layers.iter().map(unwrap::Wrapper::name).collect(),
            rule: "",
            trace: None,
        };
        let (ct, parsed) = match &opts.forced_type {
            Some(t) => (t.clone(), Parsed::Nothing),
            None => {
                let d = detect::detect_as(&body, opts.profile, true);
                account.rule = d.rule;
                (d.ct, d.parsed)
            }
        };
        clock.mark("detect");
        let entry = compress::lookup(&ct);
        // A body of at most N bytes has at most N tokens: no budget to keep.
        let budget = opts.budget.filter(|&b| input.len() > b);
        let run = |parsed: Parsed<'_>, budget: Option<usize>| match entry {
            None => Err(PassThrough::Unregistered),
            Some(e) => {
                let req = Input {
                    body: &body,
                    query: &opts.query,
                    parsed,
                    toon_best_of: opts.toon_best_of,
                    profile: opts.profile,
                    budget,
                };
                (e.run)(&req).map_err(|Decline(why)| PassThrough::Declined(why))
            }
        };
        let compressed = run(parsed, budget);
        clock.mark("compressor");
        let candidate = compressed.and_then(|c| {
            // A count of the compressor's bytes holds for the output only
            // when no wrapper goes back around them.
            let known = c.tokens.filter(|_| layers.is_empty());
            let out = unwrap::rewrap(c.bytes, &layers);
            account.trace = c.trace;
            if out.as_slice() == input {
                return Err(PassThrough::Unchanged);
            }
            Ok((out, c.reported, known, c.metadata))
        });
        // The handle (SHA-256 of the input) is computed beside the output's
        // count rather than after it.
        let hasher = (candidate.is_ok() || budget.is_some())
            .then(|| crate::par::spawn(scope, || Handle::of(input)));
        let candidate = candidate.map(|(out, reported, known, metadata)| {
            let after = known.unwrap_or_else(|| tokens::count(&out));
            (out, reported, after, metadata)
        });
        clock.mark("count output");
        let before = counter.join().unwrap_or_else(|_| tokens::count(input));
        clock.mark("count input");
        let mut over_budget = false;
        let mut hasher = hasher;
        let candidate = match budget {
            None => candidate,
            // Under the budget already: the view the flag would not change.
            Some(b) if before <= b => {
                let parsed = match &opts.forced_type {
                    Some(_) => Parsed::Nothing,
                    None => detect::detect_as(&body, opts.profile, true).parsed,
                };
                run(parsed, None).and_then(|c| {
                    let known = c.tokens.filter(|_| layers.is_empty());
                    let out = unwrap::rewrap(c.bytes, &layers);
                    account.trace = c.trace;
                    if out.as_slice() == input {
                        return Err(PassThrough::Unchanged);
                    }
                    let after = known.unwrap_or_else(|| tokens::count(&out));
                    Ok((out, c.reported, after, c.metadata))
                })
            }
            Some(b) => {
                let fits = matches!(&candidate, Ok(c) if c.2 <= b);
                if fits {
                    candidate
                } else {
                    // The compressor could not fit: the view's (or the
                    // body's) lines by the same priorities, else the
                    // smallest view.
                    let (reported, metadata) = match &candidate {
                        Ok(c) => (c.1, c.3.clone()),
                        Err(_) => (None, Vec::new()),
                    };
                    let base: &[u8] = match &candidate {
                        Ok(c) => &c.0,
                        Err(_) => input,
                    };
                    let fitted = (ct != ContentType::Json)
                        .then(|| crate::budget::fit_lines(base, b, &opts.query))
                        .flatten();
                    let view = match fitted {
                        Some(v) => v,
                        None => {
                            let h = hasher
                                .take()
                                .and_then(|h| h.join().ok())
                                .unwrap_or_else(|| Handle::of(input));
                            let v = crate::budget::smallest(&ct, &body, &h, before);
                            hasher = Some(crate::par::spawn(scope, move || h));
                            v
                        }
                    };
                    let after = tokens::count(&view);
                    over_budget = after > b;
                    let lossy = reported.map(|(m, _)| (m, false));
                    Ok((view, lossy, after, metadata))
                }
            }
        };
        let pass = |why: PassThrough| Outcome {
            output: None,
            report: Report {
                content_type: ct.clone(),
                tokens_before: before,
                tokens_after: before,
                ratio: 0.0,
                transformed: None,
                error: match why {
                    PassThrough::StoreRefused(f) => Some(f),
                    _ => None,
                },
                profile: opts.profile,
                budget: opts.budget,
                over_budget,
            },
            pass_through: Some(why),
            account: account.clone(),
        };
        let (out, reported, after, metadata) = match candidate {
            Ok(c) => c,
            Err(why) => return pass(why),
        };
        if after >= before {
            return pass(PassThrough::NotSmaller { after });
        }
        let (method, lossless) = match (reported, entry) {
            (Some(r), _) => r,
            (None, Some(e)) => (e.method, e.lossless),
            // A budget's smallest view of a type no compressor has.
            (None, None) => (crate::content_type::Method::Text, false),
        };
        let compressor = entry.map_or(ct.as_str(), |e| e.content_type.as_str());
        let handle = hasher
            .and_then(|h| h.join().ok())
            .unwrap_or_else(|| Handle::of(input));
        let put = store.put_as(
            handle,
            &NewRecord {
                content_type: ct.as_str(),
                compressor,
                tokens_before: before as u64,
                tokens_after: after as u64,
                original: input,
                metadata: &metadata,
            },
        );
        clock.mark("store");
        let handle = match put {
            Ok(h) => h,
            Err(PutError::Budget) => {
                return pass(PassThrough::StoreRefused(StoreFailure::BudgetExceeded))
            }
            Err(PutError::Io(_)) => {
                return pass(PassThrough::StoreRefused(StoreFailure::Unavailable))
            }
        };
        Outcome {
            output: Some(out),
            report: Report {
                content_type: ct.clone(),
                tokens_before: before,
                tokens_after: after,
                ratio: (before - after) as f64 / before as f64,
                transformed: Some(Transformed {
                    recovery_handle: handle,
                    method,
                    lossless_to_model: lossless,
                }),
                error: None,
                profile: opts.profile,
                budget: opts.budget,
                over_budget,
            },
            pass_through: None,
            account,
        }
    })
}
