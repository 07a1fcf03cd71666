//! The text compressor (content type `text`, method `text`; spec/text.md):
//! prose cut into sections (paragraphs when the document has a blank line,
//! single lines otherwise; a fenced code block is always one section); 2
//! head and 2 tail sections, headings, signal sections, query hits and
//! one section per kind stay, every run of dropped sections becomes a
//! marker, and the pieces are re-joined with one blank line. HTML-looking
//! input first loses its script, style and svg blocks and its comments.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::shared::lines::{join, Keep};
use super::{Compressed, Decline, Input};
use crate::go::regexp::{self, WordSet};
use crate::go::unicode::{contains_lower, starts_with_lower};

/// Smaller inputs (once trimmed) are left alone.
const MIN_BYTES: usize = 1600;
const HEAD: usize = 2;
const TAIL: usize = 2;
/// Documents of at most HEAD + TAIL + 2 sections are left alone.
const MIN_SECTIONS: usize = 7;
/// A heading without `#`: at most this long, with at most this many words.
const HEADING_BYTES: usize = 96;
const HEADING_WORDS: usize = 8;
/// At most this many sections are added by the query fill.
const QUERY_FILL: usize = 12;
const MARKER_TEXT: &str = "sections elided (caveman)";
/// What a script, style or svg block becomes in the pre-pass.
const BLOCK_MARKER: &str = "\u{2026} 1 sections elided (caveman) \u{2026}";

/// `(?i)\b(ERROR|WARNING|…|RECOMMENDATION)\b` (text.md §5 step 1).
static SIGNAL: LazyLock<WordSet> = LazyLock::new(|| {
    WordSet::new(&[
        "ERROR",
        "WARNING",
        "IMPORTANT",
        "NOTE",
        "ACTION",
        "FOLLOWUP",
        "SECURITY",
        "SUMMARY",
        "CONCLUSION",
        "DECISION",
        "RECOMMENDATION",
    ])
});

/// The HTML-noise pre-pass (text.md §3), in order: blocks, then comments.
static NOISE: LazyLock<[(Regex, &'static str); 4]> = LazyLock::new(|| {
    [
        (
            regexp::compile(r"(?is)<script\b[^>]*>.*?</script>"),
            BLOCK_MARKER,
        ),
        (
            regexp::compile(r"(?is)<style\b[^>]*>.*?</style>"),
            BLOCK_MARKER,
        ),
        (regexp::compile(r"(?is)<svg\b[^>]*>.*?</svg>"), BLOCK_MARKER),
        (regexp::compile(r"(?s)<!--.*?-->"), ""),
    ]
});

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    if input.profile.is_lean() {
        if matches!(input.parsed, crate::detect::Parsed::Unsure) {
            return unsure(text);
        }
        return super::doc::lean(text, input.query, input.budget, &|| {
            super::compat_room(input.body)
        });
    }
    compress(text, input.query)
}

/// Lean, when detection recognised no structure: repetition and padding
/// folded, no unique line dropped.
pub(crate) fn unsure(text: &str) -> Result<Compressed, Decline> {
    match super::shared::fold::fold(text) {
        Some((bytes, trace)) => Ok(Compressed::traced(bytes, trace)),
        None => Err(Decline("structure not recognised and nothing repeats")),
    }
}

pub(crate) fn compress(text: &str, query: &str) -> Result<Compressed, Decline> {
    let trimmed = text.trim();
    if trimmed.len() < MIN_BYTES {
        return Err(Decline("under 1600 bytes"));
    }
    let cleaned = if starts_with_lower(trimmed, "<!doctype html")
        || starts_with_lower(trimmed, "<html")
        || contains_lower(trimmed, "<body")
    {
        strip_noise(text)
    } else {
        Cow::Borrowed(text)
    };
    let sections = Sections::of(&cleaned);
    let n = sections.len();
    if n < MIN_SECTIONS {
        return Err(Decline("fewer than 7 sections"));
    }
    let mut keep = Keep::new(n);
    for (i, s) in (0..n).map(|i| (i, sections.get(i))) {
        if i < HEAD {
            keep.set(i, "head");
        } else if i >= n - TAIL {
            keep.set(i, "tail");
        } else if is_heading(s) {
            keep.set(i, "heading");
        } else if s.contains(MARKER_TEXT) || SIGNAL.is_match(s) {
            keep.set(i, "signal word");
        }
    }
    keep.fill_query(query, QUERY_FILL, |i| sections.get(i).into());
    keep.guard(|i| sections.get(i));
    let (pieces, _, trace) = keep.collapse(|run| {
        Some((
            format!("\u{2026} {} sections elided (caveman) \u{2026}", run.len()),
            0,
        ))
    });
    if pieces.count() == n {
        return Err(Decline("nothing dropped but single sections"));
    }
    Ok(Compressed::traced(
        join(&pieces, |i| sections.get(i), "\n\n", "", ""),
        trace,
    ))
}

/// Script, style and svg blocks replaced by a marker, comments removed.
fn strip_noise(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    for (re, with) in NOISE.iter() {
        if let Cow::Owned(s) = re.replace_all(&out, *with) {
            out = Cow::Owned(s);
        }
    }
    out
}

/// A fence opener or closer: up to three ASCII spaces, then a run of at
/// least three backticks or tildes (`^\s{0,3}(`{3,}|~{3,})`). Returns the
/// fence character and the run's length.
pub(crate) fn fence(line: &str) -> Option<(u8, usize)> {
    let b = line.as_bytes();
    let lead = b
        .iter()
        .take(3)
        .take_while(|&&c| matches!(c, b'\t' | b'\n' | 0x0c | b'\r' | b' '))
        .count();
    let c = *b.get(lead)?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let run = b[lead..].iter().take_while(|&&x| x == c).count();
    (run >= 3).then_some((c, run))
}

/// The sections of a document (text.md §4), each a trimmed slice of it.
#[cfg(test)]
fn sections(text: &str) -> Vec<&str> {
    let s = Sections::of(text);
    (0..s.len()).map(|i| s.get(i)).collect()
}

/// The sections of a document (text.md §4), found again on demand: a
/// section starts where the scan holds nothing, so the scan can resume at
/// the line it starts on. Held: that line's offset for every 2^`shift`-th
/// section (at most a quarter of the text), not a slice per section; each
/// thread remembers where its last section ended, so reading sections in
/// order scans the text once.
struct Sections<'a> {
    text: &'a str,
    paragraphs: bool,
    marks: Vec<usize>,
    shift: u32,
    n: usize,
    id: u64,
}

/// Documents' ids for the per-thread cursor (0 is none).
static NEXT_SECTIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

thread_local! {
    /// The last section found on this thread: the document's id, the
    /// section's number, its range and where the scan resumes after it.
    static SECTION_CURSOR: std::cell::Cell<(u64, usize, usize, usize, usize)> =
        const { std::cell::Cell::new((0, 0, 0, 0, 0)) };
}

impl<'a> Sections<'a> {
    fn of(text: &'a str) -> Sections<'a> {
        let paragraphs = text.contains("\n\n") || text.contains("\r\n\r\n");
        // Two scans: the count decides how sparse the marks are.
        let scan = || {
            let mut pos = 0;
            std::iter::from_fn(move || {
                let (line, _, next) = next_section(text, paragraphs, pos)?;
                pos = next;
                Some(line)
            })
        };
        let n = scan().count();
        let shift = super::shared::lines::sparse_shift(n, text.len(), std::mem::size_of::<usize>());
        let marks: Vec<usize> = scan().step_by(1 << shift).collect();
        Sections {
            text,
            paragraphs,
            marks,
            shift,
            n,
            id: NEXT_SECTIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    fn len(&self) -> usize {
        self.n
    }

    /// Section `i`.
    fn get(&self, i: usize) -> &'a str {
        let k = i >> self.shift;
        let (mut at, mut pos) = (k << self.shift, self.marks[k]);
        let last = SECTION_CURSOR.get();
        if last.0 == self.id && last.1 <= i && last.1 >= at {
            if last.1 == i {
                return &self.text[last.2..last.3];
            }
            (at, pos) = (last.1 + 1, last.4);
        }
        loop {
            let (_, r, next) =
                next_section(self.text, self.paragraphs, pos).expect("section within the count");
            if at == i {
                SECTION_CURSOR.set((self.id, i, r.start, r.end, next));
                return &self.text[r];
            }
            at += 1;
            pos = next;
        }
    }
}

/// The first section at or after `pos` (a line start where the scan holds
/// nothing): the start of the line it begins on, its trimmed range, and
/// where the scan resumes after it.
fn next_section(
    text: &str,
    paragraphs: bool,
    mut pos: usize,
) -> Option<(usize, Range<usize>, usize)> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut open: Option<(u8, usize)> = None;
    // A flushed buffer: its trimmed range, if not empty.
    let flush = |start: Option<usize>, end: usize| -> Option<(usize, Range<usize>)> {
        let s = start?;
        let raw = &text[s..end];
        let t = raw.trim_start();
        let t = t.trim_end();
        if t.is_empty() {
            return None;
        }
        let from = s + (raw.len() - raw.trim_start().len());
        Some((s, from..from + t.len()))
    };
    while pos <= body.len() {
        let le = memchr::memchr(b'\n', &body.as_bytes()[pos..]).map_or(body.len(), |p| pos + p);
        let (ls, line) = (pos, &body[pos..le]);
        let after = le + 1;
        if let Some((c, run)) = open {
            start.get_or_insert(ls);
            end = le;
            if fence(line).is_some_and(|(d, r)| d == c && r >= run) {
                open = None;
                if let Some((s, r)) = flush(start.take(), end) {
                    return Some((s, r, after));
                }
            }
        } else if let Some(f) = fence(line) {
            if let Some((s, r)) = flush(start.take(), end) {
                // The fence line begins the next section.
                return Some((s, r, ls));
            }
            open = Some(f);
            start = Some(ls);
            end = le;
        } else if line.trim().is_empty() {
            if let Some((s, r)) = flush(start.take(), end) {
                return Some((s, r, after));
            }
        } else {
            start.get_or_insert(ls);
            end = le;
            if !paragraphs {
                if let Some((s, r)) = flush(start.take(), end) {
                    return Some((s, r, after));
                }
            }
        }
        pos = after;
    }
    flush(start, end).map(|(s, r)| (s, r, pos))
}

/// A heading (text.md §5 step 1): starts with `#`, or is short, has no
/// sentence punctuation and 1–8 words.
fn is_heading(s: &str) -> bool {
    if s.starts_with('#') {
        return true;
    }
    s.len() <= HEADING_BYTES
        && !s.contains(['.', '!', '?'])
        && (1..=HEADING_WORDS).contains(&s.split_whitespace().count())
}

#[cfg(test)]
mod section_properties {
    use super::*;
    use proptest::prelude::*;

    /// The sections in one forward scan, as text.md §4 reads: the oracle
    /// the on-demand [`Sections`] must agree with.
    fn one_scan(text: &str) -> Vec<&str> {
        let paragraphs = text.contains("\n\n") || text.contains("\r\n\r\n");
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut out = Vec::new();
        let mut start: Option<usize> = None;
        let mut end = 0;
        let mut open: Option<(u8, usize)> = None;
        let mut flush = |start: &mut Option<usize>, end: usize| {
            if let Some(s) = start.take() {
                let section = text[s..end].trim();
                if !section.is_empty() {
                    out.push(section);
                }
            }
        };
        let mut pos = 0;
        for line in body.split('\n') {
            let (ls, le) = (pos, pos + line.len());
            pos = le + 1;
            if let Some((c, run)) = open {
                start.get_or_insert(ls);
                end = le;
                if fence(line).is_some_and(|(d, r)| d == c && r >= run) {
                    open = None;
                    flush(&mut start, end);
                }
            } else if let Some(f) = fence(line) {
                flush(&mut start, end);
                open = Some(f);
                start = Some(ls);
                end = le;
            } else if line.trim().is_empty() {
                flush(&mut start, end);
            } else {
                start.get_or_insert(ls);
                end = le;
                if !paragraphs {
                    flush(&mut start, end);
                }
            }
        }
        flush(&mut start, end);
        out
    }

    fn texts() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just(String::new()),
                Just(" ".to_string()),
                "[a-b]{1,2}",
                "[a-z ]{1,30}",
                Just("```".to_string()),
                Just("````".to_string()),
                Just("~~~ x".to_string()),
                Just("\r".to_string()),
                Just("  \u{a0}".to_string()),
            ],
            0..200,
        )
        .prop_map(|ls| ls.join("\n"))
    }

    proptest! {
        #[test]
        fn sections_on_demand_are_the_one_scan_sections(text in texts(), probes in proptest::collection::vec(0usize..1000, 0..30)) {
            let want = one_scan(&text);
            let got = Sections::of(&text);
            prop_assert_eq!(got.len(), want.len());
            for (i, w) in want.iter().enumerate() {
                prop_assert_eq!(got.get(i), *w);
            }
            for p in probes {
                if !want.is_empty() {
                    let i = p % want.len();
                    prop_assert_eq!(got.get(i), want[i]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_and_headings() {
        assert_eq!(fence("```rust"), Some((b'`', 3)));
        assert_eq!(fence("   ~~~~ x"), Some((b'~', 4)));
        assert_eq!(fence("    ```"), None);
        assert_eq!(fence("``"), None);
        assert!(is_heading("Short heading like line"));
        assert!(is_heading("Status: green"));
        assert!(!is_heading("See below."));
        assert!(is_heading("# Title."));
    }

    #[test]
    fn sections_keep_fences_whole() {
        let t = "intro\n\n   ~~~~\ncode\n\nmore\n~~~~~ trailing info\nafter\n\nend\n";
        assert_eq!(
            sections(t),
            [
                "intro",
                "~~~~\ncode\n\nmore\n~~~~~ trailing info",
                "after",
                "end"
            ]
        );
        assert_eq!(sections("a\nb\n\n"), ["a\nb"]);
        assert_eq!(sections("a\nb\n \nc"), ["a", "b", "c"]);
        assert_eq!(
            sections("x\n```\nopen\n\nfence"),
            ["x", "```\nopen\n\nfence"]
        );
    }

    #[test]
    fn noise_is_removed_lazily() {
        assert_eq!(
            strip_noise("<p>a</p><STYLE>.x{color:red}</STYLE><!-- c\n\nd --> after<script>1</script><script>2</script>"),
            "<p>a</p>… 1 sections elided (caveman) … after… 1 sections elided (caveman) …… 1 sections elided (caveman) …"
        );
        assert_eq!(strip_noise("<scripts>x</scripts>"), "<scripts>x</scripts>");
        let open = "<script>".to_string() + &"x".repeat(1000);
        assert_eq!(strip_noise(&open), open);
    }
}
