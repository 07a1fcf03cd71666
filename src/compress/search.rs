//! The search-result compressor (content type `search-result`, method
//! `search-result`; spec/searchresult.md): grep-style `path:line:` hits or
//! URL lists of 18 lines or more keep their first 8 and last 4 lines,
//! lines with diagnostic or security words, query hits and one line per
//! kind; every other run becomes a marker.

use std::sync::LazyLock;

use super::shared::lines::{join_lines, Keep, Lines};
use super::{Compressed, Decline, Input};
use crate::go::regexp::WordSet;

/// Shorter lists are left alone.
const MIN_LINES: usize = 18;
const HEAD: usize = 8;
const TAIL: usize = 4;
/// At most this many lines are added by the query fill.
const QUERY_FILL: usize = 24;
const MARKER_TEXT: &str = "search result lines elided (caveman)";

/// `(?i)\b(ERROR|FAIL|…|KEY)\b` (searchresult.md §3 step 2).
static SIGNAL: LazyLock<WordSet> = LazyLock::new(|| {
    WordSet::new(&[
        "ERROR", "FAIL", "FAILED", "PANIC", "ACTION", "FOLLOWUP", "SECURITY", "SECRET", "TOKEN",
        "PASSWORD", "KEY",
    ])
});

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    compress(text, input.query)
}

pub(crate) fn compress(text: &str, query: &str) -> Result<Compressed, Decline> {
    let doc = Lines::split(text);
    let n = doc.len();
    if n < MIN_LINES {
        return Err(Decline("fewer than 18 lines"));
    }
    let mut keep = Keep::new(n);
    for (i, line) in doc.lines.iter().enumerate() {
        if i < HEAD {
            keep.set(i, "head");
        } else if i >= n - TAIL {
            keep.set(i, "tail");
        } else if line.contains(MARKER_TEXT) || SIGNAL.is_match(line) {
            keep.set(i, "diagnostic or security word");
        }
    }
    keep.fill_query(query, QUERY_FILL, |i| doc.lines[i].into());
    keep.guard(|i| doc.lines[i]);
    let (pieces, _, trace) = keep.collapse(|run| {
        let m = format!(
            "\u{2026} {} search result lines elided (caveman) \u{2026}",
            run.len()
        );
        Some((m, 0))
    });
    if pieces.count() == n {
        return Err(Decline("nothing dropped but single lines"));
    }
    Ok(Compressed::traced(join_lines(&doc, &pieces), trace))
}
