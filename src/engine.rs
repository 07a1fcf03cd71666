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
use crate::store::{Handle, HandleOf, NewRecord, PutError, Store};
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
    /// `--explain`: lean detection also names the other rules that held
    /// ([`Account::others`]); the answer is the same without.
    pub explain: bool,
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
    /// Lean: the other detection rules that held, with their scores.
    pub others: Vec<(&'static str, u32)>,
    /// The compressor's account of kept and dropped units, when it
    /// selected units.
    pub trace: Option<compress::Trace>,
}

/// Tokens a lean view under a budget keeps free for its retrieve line.
pub(crate) const NOTE_RESERVE: usize = 40;

/// Tokens the retrieve line naming `handle` adds after a lean code view
/// in `lang` (give or take the tokens where it joins the view): a
/// compressor that must stay within a size (a lean Go view within compat's
/// view) leaves that much room.
pub(crate) fn code_note_tokens(lang: crate::detect::Language, handle: &Handle) -> usize {
    let view = b"}\n";
    let noted = retrieve_note(
        &ContentType::Code,
        Some(lang),
        view,
        handle,
        Whole::No,
        false,
    );
    tokens::count(&noted).saturating_sub(tokens::count(view))
}

/// What a lean view kept of its input, for the wording of its retrieve
/// line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Whole {
    /// Parts were elided.
    No,
    /// Every line, regrouped ([`compress::Trace::regrouped`]).
    Regrouped,
}

/// `view` with a line that names the handle, in the view's own syntax: a
/// member or element of a JSON view, a comment in a config, source file
/// or HTML page, a marker line anywhere else.
fn retrieve_note(
    ct: &ContentType,
    lang: Option<crate::detect::Language>,
    view: &[u8],
    handle: &Handle,
    whole: Whole,
    compact: bool,
) -> Vec<u8> {
    use crate::detect::Language as L;
    let h = handle.as_str();
    // An MCP host's text content gets its own `caveman_retrieve` line
    // (`mcp/tools.rs`): the note names only the command.
    let text = if compact {
        // Under a budget with no room for more: the command alone.
        format!("caveman-engine retrieve {h} [QUERY]")
    } else if whole == Whole::Regrouped {
        format!("nothing elided, lines regrouped; original: caveman-engine retrieve {h}")
    } else {
        format!("elided parts: caveman-engine retrieve {h} [QUERY]")
    };
    // Trailing whitespace goes before the note, but in a diff only line
    // ends do: the spaces of its last line are content (a blank context
    // line is one space).
    let ws_end = view
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let line_end = view
        .iter()
        .rposition(|&b| b != b'\n' && b != b'\r')
        .map_or(0, |i| i + 1);
    let line = |out: &mut Vec<u8>, s: String| {
        if !out.is_empty() {
            out.push(b'\n');
        }
        out.extend_from_slice(s.as_bytes());
    };
    let trimmed = &view[..ws_end];
    let first = trimmed.iter().find(|b| !b.is_ascii_whitespace()).copied();
    let one_value = !trimmed.contains(&b'\n') || crate::go::json::is_valid(trimmed);
    // A view that is one JSON document (toolschema, a11y and the other
    // JSON types too) stays one.
    let json_view = *ct == ContentType::Json
        || (matches!(first, Some(b'{' | b'[')) && crate::go::json::is_valid(trimmed));
    let end = if *ct == ContentType::Diff && !json_view {
        line_end
    } else {
        ws_end
    };
    let mut out = view[..end].to_vec();
    let trailing = &view[end..];
    match ct {
        _ if json_view && one_value && first == Some(b'{') && out.ends_with(b"}") => {
            out.pop();
            let inner_empty = out.iter().rev().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
            if !inner_empty {
                out.push(b',');
            }
            out.extend_from_slice(format!("\"__caveman_retrieve__\":\"{text}\"}}").as_bytes());
        }
        _ if json_view && one_value && first == Some(b'[') && out.ends_with(b"]") => {
            out.pop();
            let inner_empty = out.iter().rev().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
            if !inner_empty {
                out.push(b',');
            }
            out.extend_from_slice(format!("{{\"__caveman_retrieve__\":\"{text}\"}}]").as_bytes());
        }
        // NDJSON: one more object line.
        ContentType::Json => line(&mut out, format!("{{\"__caveman_retrieve__\":\"{text}\"}}")),
        ContentType::Config => line(&mut out, format!("# caveman: {text}")),
        ContentType::Html => line(&mut out, format!("<!-- caveman: {text} -->")),
        ContentType::Code => {
            let hash = matches!(lang, Some(L::Python | L::Ruby | L::Shell));
            let prefix = if hash { "#" } else { "//" };
            line(&mut out, format!("{prefix} caveman: {text}"));
        }
        _ => line(&mut out, format!("\u{2026} caveman: {text} \u{2026}")),
    }
    out.extend_from_slice(if trailing.is_empty() { b"" } else { b"\n" });
    out
}

/// Whether `view` holds the same bytes as `text` once ASCII whitespace is
/// skipped in both: lean removed nothing but escapes and spacing.
fn same_but_spacing(view: &[u8], text: &[u8]) -> bool {
    let mut a = view.iter().filter(|b| !b.is_ascii_whitespace());
    let mut b = text.iter().filter(|b| !b.is_ascii_whitespace());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
    }
}

/// Compresses `input` (engine.md §1).
pub fn compress(input: &[u8], opts: &Options, store: &Store) -> Outcome {
    let mut clock = crate::timings::Clock::new("engine");
    // Hashed once, by whichever asks first: a compressor that sizes the
    // retrieve line its view will carry, or the thread beside the count.
    let handle_of = HandleOf::new(input);
    std::thread::scope(|scope| {
        let counter = crate::par::spawn(scope, || tokens::count(input));
        // Lean reads the text as a terminal shows it (escapes, overstrike
        // and redraws resolved); the original is stored as it came.
        let cleaned = match opts.profile {
            Profile::Lean => crate::compress::shared::clean::clean(input),
            Profile::Compat => std::borrow::Cow::Borrowed(input),
        };
        let coloured = matches!(cleaned, std::borrow::Cow::Owned(_));
        // Lean reads invalid UTF-8 as U+FFFD, as detection does: one bad
        // byte must not turn the view into nothing.
        let cleaned = match (opts.profile, std::str::from_utf8(&cleaned)) {
            (Profile::Lean, Err(_)) => {
                // Text with no UTF-8 character at all is a Latin-1 or
                // Windows-1252 export: read every byte as its character.
                let lossy = String::from_utf8_lossy(&cleaned);
                let utf8 = lossy.chars().any(|c| c >= '\u{80}' && c != '\u{fffd}');
                let text = if utf8 {
                    lossy.into_owned()
                } else {
                    crate::compress::shared::clean::windows_1252(&cleaned)
                };
                std::borrow::Cow::Owned(text.into_bytes())
            }
            _ => cleaned,
        };
        let (body, layers) = unwrap::unwrap_as(&cleaned, opts.profile);
        clock.mark("unwrap");
        let mut account = Account {
            forced: opts.forced_type.is_some(),
            peeled: layers.iter().map(unwrap::Wrapper::name).collect(),
            rule: "",
            others: Vec::new(),
            trace: None,
        };
        let (ct, parsed) = match &opts.forced_type {
            Some(t) => (t.clone(), Parsed::Nothing),
            None => {
                let d = match opts.profile {
                    Profile::Lean => detect::detect_lean(&body, true, coloured, opts.explain),
                    Profile::Compat => detect::detect_as(&body, opts.profile, true, false),
                };
                account.rule = d.rule;
                account.others = d.others;
                (d.ct, d.parsed)
            }
        };
        clock.mark("detect");
        let entry = compress::lookup(&ct);
        let lang = match &parsed {
            Parsed::Code(l) => Some(*l),
            _ => None,
        };
        // A body of at most N bytes has at most N tokens: no budget to keep.
        // Lean keeps room for the line that names the handle.
        let budget = opts
            .budget
            .filter(|&b| input.len() > b)
            .map(|b| match opts.profile {
                Profile::Lean if b > 2 * NOTE_RESERVE => b - NOTE_RESERVE,
                _ => b,
            });
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
                    handle: Some(&handle_of),
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
        // Lean's floor: the text as a terminal shows it, when the
        // compressor has nothing better (it declined, or its view is
        // larger than the cleaned text).
        let candidate = match (&cleaned, candidate) {
            (
                std::borrow::Cow::Owned(c),
                Err(PassThrough::Declined(_) | PassThrough::Unchanged),
            ) => Ok((c.clone(), None, None, Vec::new())),
            (std::borrow::Cow::Owned(c), Ok(v)) if v.0.len() > c.len() => {
                Ok((c.clone(), None, None, Vec::new()))
            }
            (_, c) => c,
        };
        // The handle (SHA-256 of the input) is computed beside the output's
        // count rather than after it.
        let hasher = (candidate.is_ok() || budget.is_some()).then(|| {
            crate::par::spawn(scope, || {
                handle_of.get();
            })
        });
        let candidate = candidate.map(|(out, reported, known, metadata)| {
            let after = known.unwrap_or_else(|| tokens::count(&out));
            (out, reported, after, metadata)
        });
        clock.mark("count output");
        let before = counter.join().unwrap_or_else(|_| tokens::count(input));
        clock.mark("count input");
        let mut over_budget = false;
        let candidate = match budget {
            None => candidate,
            // Under the budget already: the view the flag would not change.
            Some(b) if before <= b => {
                let parsed = match &opts.forced_type {
                    Some(_) => Parsed::Nothing,
                    None => match opts.profile {
                        Profile::Lean => detect::detect_lean(&body, true, coloured, false).parsed,
                        Profile::Compat => {
                            detect::detect_as(&body, opts.profile, true, false).parsed
                        }
                    },
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
                    let fitted = if ct == ContentType::Json || crate::budget::json::is_jsonp(&body)
                    {
                        crate::budget::json::fit(&body, b, &opts.query)
                    } else {
                        crate::budget::fit_lines(base, b, &opts.query)
                    };
                    let view = match fitted {
                        Some(v) => v,
                        None => crate::budget::smallest(&ct, &body, handle_of.get(), before),
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
        let mut over = over_budget;
        let (mut out, reported, mut after, metadata) = match candidate {
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
        // A panic of the hashing thread leaves the handle to this one.
        let _ = hasher.map(crate::par::Task::join);
        let handle = handle_of.get().clone();
        // A lossy lean view names its handle and how to get the rest: an
        // agent that sees only the view (stdout, an MCP text block) can
        // still retrieve.
        // A view that differs from the text a terminal shows only in its
        // spacing elided nothing a reader sees: it needs no such line (the
        // report still names the handle).
        if opts.profile == Profile::Lean
            && !lossless
            && !out.windows(4).any(|w| w == b"ccr_")
            && !same_but_spacing(&out, &cleaned)
        {
            let whole = if account.trace.as_ref().is_some_and(|t| t.regrouped) {
                Whole::Regrouped
            } else {
                Whole::No
            };
            let note =
                |v: &[u8], compact: bool| retrieve_note(&ct, lang, v, &handle, whole, compact);
            let mut noted = note(&out, false);
            let mut n = tokens::count(&noted);
            if opts.budget.is_some_and(|b| n > b) {
                noted = note(&out, true);
                n = tokens::count(&noted);
            }
            // The handle line is never cut: a view the line pushes past
            // the budget is fitted again into what the line leaves, and
            // when nothing fits beside it the view is the smallest one (a
            // budget smaller than that line is exceeded, and the report
            // says so).
            if let Some(b) = opts.budget.filter(|&b| n > b) {
                let cost = n.saturating_sub(after).max(1);
                let refit = (b > cost)
                    .then(|| {
                        if ct == ContentType::Json || crate::budget::json::is_jsonp(&body) {
                            crate::budget::json::fit(&body, b - cost, &opts.query)
                        } else {
                            crate::budget::fit_lines(&out, b - cost, &opts.query)
                        }
                    })
                    .flatten()
                    .map(|v| note(&v, true))
                    .filter(|v| tokens::count(v) <= b);
                noted =
                    refit.unwrap_or_else(|| crate::budget::smallest(&ct, &body, &handle, before));
                n = tokens::count(&noted);
            }
            if n < before {
                out = noted;
                after = n;
                if let Some(b) = opts.budget {
                    over = after > b;
                }
            }
        }
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
                over_budget: over,
            },
            pass_through: None,
            account,
        }
    })
}
