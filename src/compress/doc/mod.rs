//! The lean document view (content type `text` under `--profile lean`,
//! and HTML once rendered to text): a document keeps its skeleton.
//!
//! - every heading (Markdown, setext and reStructuredText titles, outline
//!   headings, a changelog's version lines, a man page's section lines);
//! - every definition line (an option, a signature, a term, a variable:
//!   a short line with an indented body) with the first sentence of its
//!   body;
//! - the first sentence of every paragraph and of every list item (each
//!   line of a document written one paragraph a line), and every later
//!   sentence that states a rule (must, should, never, required, the
//!   default) or holds a figure (a number with its unit, a version, a
//!   command, an option); a document with little prose keeps all of it;
//! - command lines (`$ …`) and query hits, wherever they are; a
//!   paragraph (wrapped lines joined) is one unit: one that reports a
//!   problem stays whole, never a wrapped line of it alone, and a code
//!   block is whole or its head and tail with its lines of error output
//!   (`error[E0382]:`, a traceback), never a comment kept for its word;
//! - code blocks of up to 24 lines whole; a longer example keeps its
//!   fences, its first and last lines, and a code block that shows an
//!   error stays whole;
//! - tables of up to 20 rows whole, longer ones by the lean table rules;
//! - boilerplate folds to one marker that names it: the body of a
//!   licence, copyright, authors or contributors, code of conduct, "Status
//!   of This Memo" section, a contents section whose entries are the
//!   document's own headings (a list of other pages is read as any list),
//!   and a licence's text.
//!
//! What goes first: examples, link reference definitions, markup and
//! badges, tables of contents, and the targets of inline links (`[text](…)`).
//! A document that would pass whole while compat's view of it is smaller
//! is read again at a compact level (see [`lean`]).
//!
//! Every dropped run is a marker that counts its lines (blank lines
//! included) and names the examples, link definitions or markup it holds;
//! the rest of a line cut after its first sentence is a marker at its end
//! that counts the words it hides. Terminal escapes and nroff overstrike
//! are resolved first.

mod blocks;
mod boiler;
mod fit;
mod kinds;
mod plan;
mod prose;

use std::sync::LazyLock;

use regex::Regex;

use self::blocks::{Block, Kind, Reader, Shape};
use self::fit::{emit, fit};
use self::plan::{Body, Item, Plan};
use self::prose::fold_links;
use super::shared::lines::Lines;
use super::{Compressed, Decline, Trace};

pub(crate) use self::prose::{cleaned, first_sentence, normative, sentences};

/// Shorter documents (trimmed) are left alone.
const MIN_BYTES: usize = 600;
/// A cut must hide at least this many bytes: a marker costs about ten
/// tokens.
const MIN_CUT: usize = 120;
/// Code blocks of at most this many non-blank lines stay whole: an
/// example that is the documentation (a README's usage, a tutorial's
/// listing) keeps the lines that call the API.
const SHORT_CODE: usize = 24;
/// A longer code block keeps this many lines at its head and
/// [`TAIL_CODE`] at its end.
const HEAD_CODE: usize = 6;
const TAIL_CODE: usize = 3;
/// Tables of at most this many data rows stay whole.
const SHORT_TABLE: usize = 20;
/// A document with at most this much prose (bytes of paragraphs and list
/// items) keeps all of it.
const WHOLE_PROSE: usize = 2400;
/// A run of sentences shorter than this (bytes) costs less than its
/// marker: it stays.
const MIN_GAP: usize = 60;
/// A boilerplate section of at most this many non-blank lines is read as
/// any other.
const BOILER_LINES: usize = 4;
/// A code block that shows an error stays whole up to this many lines.
const ERROR_CODE: usize = 40;
/// At the compact level, code blocks of at most this many non-blank lines
/// stay whole (a marker would cost what it hides).
const COMPACT_CODE: usize = 3;
/// At the compact level, one dropped code line of at most this many bytes
/// between kept ones stays (its marker would cost as much).
const SHORT_GAP_LINE: usize = 60;
/// Documents of at most this many bytes are held to compat's view's size:
/// the check reads the document with compat's rules too.
const CEILING_BYTES: usize = 256 << 10;
/// A list item of at most this much text (bytes, link targets folded)
/// is not cut inside: its tail is its point (a citation's title, an
/// option's values).
const SHORT_ITEM: usize = 320;
/// A view that saves less than this share (percent) of the document is
/// not made: the document stays whole (without a budget).
const MIN_SAVING: usize = 15;
/// A document of at least this many bytes (about 10,000 tokens) counts
/// its folded link targets in the saving [`MIN_SAVING`] asks for: read
/// whole it costs the agent more than a view that shows `[#123](…)`.
const LONG_DOC: usize = 40_000;
/// Query hits kept.
const QUERY_FILL: usize = 12;
/// Under a budget, a run of kept lines is one unit of at most this many
/// lines (the budget weighs units).
const BUDGET_RUN: usize = 32;

/// A table of contents' entry: an in-page link (or a title with a dot
/// leader to its page number, [`blocks::TOC_LEADER`]).
static TOC_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*([-*+]|\d{1,3}[.)])\s+\[[^\]]+\]\(#[^)]*\)\s*$").expect("toc item pattern")
});
/// Error output shown in a code block: a diagnostic's head (`error:`,
/// `error[E0382]:`, `fatal:`), a runner's failure line, a traceback, a
/// panic, an exception with its message (not a word in a comment).
static ERROR_OUTPUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*(\$ )?(error|fatal|warning)(\[[A-Z]*\d+\])?:|\berror\[E\d+\]",
        r"|^\s*(Error|ERROR|FATAL|FAILED|FAIL|panic|Segmentation fault)\b",
        r"|Traceback \(most recent call last\)|panicked at|\b[A-Z]\w*(Error|Exception)\b:",
        r"|^E {2,}\S|npm ERR!",
    ))
    .expect("error output pattern")
});
static TABLE_RULE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*\|?\s*:?-{3,}").expect("table rule pattern"));

/// A line with a word that names a problem (kept wherever it is).
fn problem(line: &str) -> bool {
    super::shared::lean::is_error(line)
}

/// A shell command line in prose or an example.
fn command(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("$ ") || t.starts_with("> $ ")
}

/// The lean document view. Issue 40 rule 8: a document (up to
/// [`CEILING_BYTES`]) the view cannot cut (it would save under
/// [`MIN_SAVING`] %, so the document would pass whole) while compat's view
/// of the same input (`compat`: its tokens less the retrieve line's) is
/// smaller is read again at the compact level, taken when it saves
/// [`MIN_SAVING`] % as the view would: every heading, definition and sentence as before (a
/// page's one story stays whole), and a code block of more than
/// [`COMPACT_CODE`] lines cut to its first line, its lines of error
/// output, a diagnostic's location and a patch's changes (a guide made of
/// patches and compiler errors).
pub(crate) fn lean(
    text: &str,
    query: &str,
    budget: Option<usize>,
    compat: &dyn Fn() -> Option<usize>,
) -> Result<Compressed, Decline> {
    let view = lean_at(text, query, budget, false);
    if view.is_ok() || budget.is_some() || !query.is_empty() || text.len() > CEILING_BYTES {
        return view;
    }
    let whole = crate::tokens::count(text.as_bytes());
    if compat().is_none_or(|room| whole <= room) {
        return view;
    }
    match lean_at(text, query, None, true) {
        Ok(c) if crate::tokens::count(&c.bytes) < whole => Ok(c),
        _ => view,
    }
}

fn lean_at(
    text: &str,
    query: &str,
    budget: Option<usize>,
    compact: bool,
) -> Result<Compressed, Decline> {
    let clean = cleaned(text);
    let was_cleaned = clean.len() != text.len();
    let text: &str = &clean;
    if text.trim().len() < MIN_BYTES {
        return Err(Decline("under 600 bytes"));
    }
    let doc = Lines::split(text);
    let shape = Shape::of(&doc);
    if listing(&doc, &shape) {
        // Lines, not a document: a listing or plain output.
        use super::shared::lean;
        let rules = lean::Rules {
            tail: 2,
            extra: None,
            unit: "lines",
            extra_by_kind: false,
            probe: None,
        };
        let (pieces, trace) =
            lean::cut(&doc, &rules, query, budget).ok_or(Decline("too few lines"))?;
        return Ok(Compressed::traced(lean::join(&doc, &pieces), trace));
    }
    let hits = query_hits(&doc, query);
    let blocks: Vec<Block> = Reader::new(&doc, &shape).collect();
    let prose: usize = blocks
        .iter()
        .filter(|b| matches!(b.kind, Kind::Paragraph | Kind::List))
        .flat_map(|b| doc.range(b.start..b.end))
        .map(|l| l.trim().len())
        .sum();
    let mut plan = Plan::new(&doc, &hits, budget.is_some());
    plan.whole = prose <= WHOLE_PROSE;
    plan.compact = compact;
    for (k, b) in blocks.iter().enumerate() {
        plan.block(*b, &blocks[k + 1..]);
    }
    let (mut items, links) = plan.finish();
    let mut unfit = None;
    if let Some(b) = budget {
        let (fitted, u) = fit(&doc, items, b);
        items = fitted;
        unfit = u.note("lines");
    }
    let mut trace = Trace::default();
    let mut changed = was_cleaned || links > 0;
    for it in &items {
        match &it.body {
            Body::Same => trace.add(it.reason, it.lines.len()),
            Body::Text(_) => {
                trace.add(it.reason, 1);
                trace.dropped += it.lines.len() - 1;
                changed = true;
            }
            Body::Marker(_) => trace.dropped += it.lines.len(),
        }
    }
    if trace.dropped == 0 && !changed {
        return Err(Decline("nothing to drop"));
    }
    let mut out = emit(&doc, &items);
    if budget.is_none() && !was_cleaned {
        // Folded link targets are not what the cut saves: the saving is
        // weighed against the document with its targets folded, but for
        // a long document (whose targets are the first thing to go).
        let basis = if text.len() >= LONG_DOC {
            text.len()
        } else {
            doc.iter().map(|l| fold_links(l).0.len() + 1).sum()
        };
        if out.len() * 100 > basis * (100 - MIN_SAVING) {
            return Err(Decline("the cut would save under 15 %"));
        }
    }
    let mut notes = Vec::new();
    if links > 0 {
        notes.push(format!(
            "\u{2026} caveman: {links} link targets shown as (\u{2026}) \u{2026}"
        ));
    }
    notes.extend(unfit);
    for note in notes {
        if !doc.trailing_lf && !out.is_empty() {
            out.push(b'\n');
        }
        out.extend_from_slice(note.as_bytes());
        out.extend_from_slice(doc.cr.as_bytes());
        if doc.trailing_lf {
            out.push(b'\n');
        }
    }
    Ok(Compressed::traced(out, trace))
}

/// Whether the document is mostly long runs of lines that are neither
/// prose nor structure (a listing or program output named text): over 60
/// lines, more than half of them in such paragraphs of over 20 lines.
fn listing(doc: &Lines<'_>, shape: &Shape) -> bool {
    let n = doc.len();
    if n <= 60 {
        return false;
    }
    let mut plain = 0usize;
    for b in Reader::new(doc, shape) {
        let len = b.end - b.start;
        if b.kind != Kind::Paragraph || len <= 20 {
            continue;
        }
        let prose = doc
            .range(b.start..b.end)
            .filter(|l| blocks::prose_like(l))
            .count();
        if prose * 10 < len * 6 {
            plain += len;
        }
    }
    plain * 2 > n
}

/// The query's hit lines, in order (none without a query).
fn query_hits(doc: &Lines<'_>, query: &str) -> Vec<usize> {
    use super::shared::relevance;
    if query.is_empty() {
        return Vec::new();
    }
    let n = doc.len();
    let scores = relevance::scores_of(query, n, |i| doc.line(i).into());
    let mut hits = relevance::candidates(&scores, &vec![false; n]);
    hits.truncate(QUERY_FILL);
    hits.sort_unstable();
    hits
}

#[cfg(test)]
mod tests;
