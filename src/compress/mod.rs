//! The registry (spec/engine.md §3): one row per content type, naming the
//! function that compresses it, the method its report names and whether
//! the view is lossless to the model. The engine looks a type up here and
//! knows no compressor by name; adding a compressor is one file in this
//! folder and one row below.

mod a11y;
mod annotations;
mod blame;
mod code;
mod config;
mod diff;
mod doc;
mod gitlog;
mod html;
pub mod json;
pub(crate) mod junit;
mod log;
mod repetition;
mod search;
pub(crate) mod shared;
pub mod tabular;
pub(crate) mod terminal;
mod text;
mod toolschema;
mod toon;

use crate::content_type::{ContentType, Method};
use crate::detect::Parsed;
use crate::profile::Profile;
pub(crate) use config::dialect as config_dialect;

/// What a compressor is given.
pub(crate) struct Input<'a> {
    /// The unwrapped body (gutters and `<file>` wrappers peeled).
    pub body: &'a [u8],
    /// `--query`; empty means none (an empty query always gives the plain
    /// output).
    pub query: &'a str,
    /// What detection already parsed, so the compressor need not again.
    pub parsed: Parsed<'a>,
    /// `CAVE_ENGINE_TOON=best-of` (engine.md §5).
    pub toon_best_of: bool,
    /// Which rules to follow.
    pub profile: Profile,
    /// `--budget N`: the view's token ceiling, when given.
    pub budget: Option<usize>,
    /// The handle the engine stores the original under (the body's own
    /// when not given): a lean view's retrieve line names it.
    pub handle: Option<&'a crate::store::HandleOf<'a>>,
}

impl<'a> Input<'a> {
    /// The input for `body` with a query, compat rules, nothing parsed.
    pub fn plain(body: &'a [u8], query: &'a str) -> Input<'a> {
        Input {
            body,
            query,
            parsed: Parsed::Nothing,
            toon_best_of: false,
            profile: Profile::Compat,
            budget: None,
            handle: None,
        }
    }

    /// The handle the view's retrieve line will name.
    pub fn handle(&self) -> crate::store::Handle {
        match self.handle {
            Some(h) => h.get().clone(),
            None => crate::store::Handle::of(self.body),
        }
    }
}

pub use shared::lines::Trace;

/// A compressor's view of the body.
#[derive(Debug)]
pub struct Compressed {
    pub bytes: Vec<u8>,
    /// Method and lossless flag the compressor reports, when it reports
    /// them (json, toon, best-of, a11y); else the registry row's.
    pub reported: Option<(Method, bool)>,
    /// Token count of `bytes`, when the compressor already counted them
    /// (the best-of selector does): not counted again.
    pub tokens: Option<usize>,
    /// Recovery metadata stored beside the original (only a11y has any).
    pub metadata: Vec<u8>,
    /// Why units were kept and how many were dropped, for `--explain`
    /// (compressors that select units fill it).
    pub trace: Option<Trace>,
}

impl Compressed {
    /// A view that reports the registry row's method.
    pub fn new(bytes: Vec<u8>) -> Compressed {
        Compressed {
            bytes,
            reported: None,
            tokens: None,
            metadata: Vec::new(),
            trace: None,
        }
    }

    /// A view with the account of its selection.
    pub fn traced(bytes: Vec<u8>, trace: Trace) -> Compressed {
        Compressed {
            trace: Some(trace),
            ..Compressed::new(bytes)
        }
    }
}

/// Why a compressor left the body alone (the engine then passes the input
/// through); the text is for `--explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decline(pub &'static str);

/// A compressor: body in, view or decline out.
pub(crate) type Run = fn(&Input<'_>) -> Result<Compressed, Decline>;

/// One row of the registry.
pub(crate) struct Entry {
    pub content_type: ContentType,
    pub method: Method,
    pub lossless: bool,
    pub run: Run,
    /// The segment kinds the transform is advertised for in the
    /// capability manifest (`registry`); empty: not advertised.
    pub segments: &'static [&'static str],
}

/// Segment kinds most transforms take.
const ALL_SEGMENTS: &[&str] = &["artifact", "history", "skill", "tool_result"];

const fn row(content_type: ContentType, method: Method, run: Run) -> Entry {
    row_for(content_type, method, run, ALL_SEGMENTS)
}

const fn row_for(
    content_type: ContentType,
    method: Method,
    run: Run,
    segments: &'static [&'static str],
) -> Entry {
    Entry {
        content_type,
        method,
        lossless: false,
        run,
        segments,
    }
}

/// The advertised rows: content type and segment kinds (spec/registry.md),
/// in registry order.
pub(crate) fn advertised() -> impl Iterator<Item = (&'static ContentType, &'static [&'static str])>
{
    REGISTRY
        .iter()
        .filter(|e| !e.segments.is_empty())
        .map(|e| (&e.content_type, e.segments))
}

/// Every registered compressor (engine.md §3). All are safety class S4
/// (lossy, needs a stored original) except TOON, lossless to the model.
static REGISTRY: [Entry; 15] = [
    row(ContentType::Json, Method::Elision, json::run),
    row(ContentType::Log, Method::Log, log::run),
    row(ContentType::Code, Method::Code, code::run),
    row(ContentType::Diff, Method::Diff, diff::run),
    row(ContentType::SearchResult, Method::SearchResult, search::run),
    row(ContentType::Text, Method::Text, text::run),
    row(ContentType::Html, Method::Html, html::run),
    row(ContentType::Tabular, Method::Tabular, tabular::run),
    row(ContentType::Config, Method::Config, config::run),
    row(ContentType::Terminal, Method::Terminal, terminal::run),
    row_for(
        ContentType::Toolschema,
        Method::Toolschema,
        toolschema::run,
        &["tool_schema"],
    ),
    // Reachable with --type, deliberately not advertised.
    row_for(
        ContentType::ToolschemaAnnotations,
        Method::ToolschemaAnnotations,
        annotations::run,
        &[],
    ),
    Entry {
        content_type: ContentType::Toon,
        method: Method::Toon,
        lossless: true,
        run: toon::run,
        segments: ALL_SEGMENTS,
    },
    row_for(
        ContentType::A11y,
        Method::A11y,
        a11y::run,
        &["artifact", "tool_result"],
    ),
    row_for(
        ContentType::Repetition,
        Method::Repetition,
        repetition::run,
        &["history", "tool_result"],
    ),
];

/// Compat's view of `body` as the engine makes it (compat's detection,
/// its compressor), or `None` when compat declines: the size a lean view
/// stays within (issue 40 §8: never larger than compat's view).
fn compat_compressed(body: &[u8], query: &str) -> Option<Compressed> {
    let (ct, parsed) = crate::detect::detect_parsed(body);
    let entry = lookup(&ct)?;
    let input = Input {
        parsed,
        ..Input::plain(body, query)
    };
    (entry.run)(&input).ok()
}

/// The tokens of compat's view of `body` for `query`
/// ([`compat_compressed`]; counted once, by the compressor or here).
fn compat_tokens(body: &[u8], query: &str) -> Option<usize> {
    let view = compat_compressed(body, query)?;
    Some(
        view.tokens
            .unwrap_or_else(|| crate::tokens::count(&view.bytes)),
    )
}

/// The room under compat's view of `body` for `query` (issue 40 §8: a lean
/// view is never larger than compat's): its tokens less the reserve of a
/// lean view's retrieve line; `None` when compat declines.
pub(crate) fn compat_ceiling(body: &[u8], query: &str) -> Option<usize> {
    compat_tokens(body, query).map(|t| t.saturating_sub(crate::engine::NOTE_RESERVE))
}

/// [`compat_ceiling`] without a query, `None` also when compat passes the
/// body whole (its view is the input, which no lean view exceeds).
pub(crate) fn compat_room(body: &[u8]) -> Option<usize> {
    let tokens = compat_tokens(body, "")?;
    (tokens < crate::tokens::count(body))
        .then(|| tokens.saturating_sub(crate::engine::NOTE_RESERVE))
}

/// The compressor registered for `ct`, if any.
pub(crate) fn lookup(ct: &ContentType) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| &e.content_type == ct)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_type_has_one_row() {
        for t in ContentType::REGISTERED {
            assert_eq!(
                REGISTRY.iter().filter(|e| e.content_type == t).count(),
                1,
                "{t}"
            );
        }
        assert!(lookup(&ContentType::Other("foo".into())).is_none());
    }
}
