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
        return lean(text, input.query, input.budget);
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

/// The cells of a Markdown table row.
fn pipe_cells(l: &str) -> Vec<&str> {
    let t = l.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(str::trim).collect()
}

/// What a block of a lean document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Heading,
    Code,
    Table,
    List,
    Paragraph,
}

static MD_HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s{0,3}#{1,6}\s+\S").expect("heading pattern"));
static UNDERLINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(={3,}|-{3,}|~{3,}|\^{3,}|`{3,}|'{3,}|#{3,}|\*{3,}|\+{3,})\s*$")
        .expect("underline pattern")
});
static LIST_ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*([-*+]|\d{1,3}[.)])\s+\S").expect("list item pattern"));
static ERROR_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(errors?|fail|failed|failure|failing|exception|fatal|panic|panicked|timeout|timed out|denied|refused|traceback)\b")
        .expect("error words")
});

/// Lines a lean code block keeps whole; longer ones keep their head.
const LEAN_CODE_LINES: usize = 40;
const LEAN_CODE_HEAD: usize = 15;
/// Items of a list, rows of a table kept.
const LEAN_ITEMS: usize = 3;

/// The lean text view: every heading and the first block under it, code
/// blocks and command lines, lines with error words, the first items of
/// lists and the first rows of tables; every other run of lines counted
/// in a marker at its place. A document without paragraph structure
/// (lines, not blocks) follows the lean line rules.
pub(crate) fn lean(text: &str, query: &str, budget: Option<usize>) -> Result<Compressed, Decline> {
    use super::shared::lines::Lines;
    if text.trim().len() < 600 {
        return Err(Decline("under 600 bytes"));
    }
    let doc = Lines::split(text);
    let n = doc.len();
    // Blocks, (first line, end, kind), read twice rather than listed (a
    // block a line would be 24 bytes a line).
    let doc = &doc;
    let blocks = || {
        let mut i = 0;
        std::iter::from_fn(move || {
            let b = next_block(doc, i)?;
            i = b.1;
            Some(b)
        })
    };
    // Lines in long blocks that are neither code nor tables nor lists.
    let (mut unstructured, mut count) = (0usize, 0usize);
    for (s, e, kind) in blocks() {
        count += 1;
        if kind == Block::Paragraph && e - s > 20 {
            unstructured += e - s;
        }
    }
    if n > 60 && unstructured * 2 > n {
        // Lines, not blocks: a listing or plain output.
        use super::shared::lean;
        let rules = lean::Rules {
            tail: 2,
            extra: None,
            unit: "lines",
        };
        let (pieces, trace) =
            lean::cut(doc, &rules, query, budget).ok_or(Decline("too few lines"))?;
        return Ok(Compressed::traced(lean::join(doc, &pieces), trace));
    }
    let mut keep = Keep::new(n);
    let mut summaries: rustc_hash::FxHashMap<usize, String> = Default::default();
    let mut lead_due = true;
    let last = count.saturating_sub(1);
    for (b, (s, e, kind)) in blocks().enumerate() {
        let all = |keep: &mut Keep, why| {
            for k in s..e {
                keep.set(k, why);
            }
        };
        match kind {
            Block::Heading => {
                all(&mut keep, "heading");
                lead_due = true;
                continue;
            }
            _ if lead_due || b == 0 || b == last => all(&mut keep, "first block of a section"),
            Block::Code if e - s <= LEAN_CODE_LINES => all(&mut keep, "code block"),
            Block::Code => {
                for k in s..s + LEAN_CODE_HEAD {
                    keep.set(k, "code block");
                }
                if fence(doc.line(e - 1)).is_some() {
                    keep.set(e - 1, "code block");
                }
            }
            Block::Table if e - s > 2 + 8 => {
                // A long table: the lean table rules, in place.
                let cells = pipe_cells;
                let rows: Vec<usize> = (s + 2..e).collect();
                let data: Vec<&str> = rows.iter().map(|&k| doc.line(k)).collect();
                let g = super::tabular::Grid {
                    names: cells(doc.line(s)),
                    row: Box::new(move |i| cells(data[i])),
                    rows: rows.len(),
                    tail: 1,
                    top: 1,
                    errors: true,
                };
                let cut = super::tabular::lean_cut(&g, query, None);
                keep.set(s, "table header");
                keep.set(s + 1, "table header");
                for (r, &k) in rows.iter().enumerate() {
                    if cut.keep[r] {
                        keep.set(k, "table row");
                    }
                }
                if let Some(first) = rows.iter().zip(&cut.keep).find(|(_, &k)| !k) {
                    summaries.insert(*first.0, cut.summary);
                }
            }
            Block::Table => all(&mut keep, "table"),
            Block::List => {
                let mut items = 0;
                for (k, line) in (s..e).zip(doc.range(s..e)) {
                    if LIST_ITEM.is_match(line) {
                        items += 1;
                    }
                    if items <= LEAN_ITEMS {
                        keep.set(k, "first items of a list");
                    }
                }
            }
            Block::Paragraph => {}
        }
        lead_due = false;
        // A paragraph with an error word stays whole; in a list the item,
        // elsewhere the line; command lines stay wherever they are.
        let erring = (s..e).any(|k| ERROR_WORD.is_match(doc.line(k)));
        if erring && kind == Block::Paragraph {
            all(&mut keep, "error word");
        }
        let mut item_start = s;
        for k in s..e {
            if kind == Block::List && LIST_ITEM.is_match(doc.line(k)) {
                item_start = k;
            }
            let t = doc.line(k).trim_start();
            if ERROR_WORD.is_match(doc.line(k)) {
                let from = if kind == Block::List { item_start } else { k };
                let mut to = k + 1;
                while kind == Block::List && to < e && !LIST_ITEM.is_match(doc.line(to)) {
                    to += 1;
                }
                for j in from..to {
                    keep.set(j, "error word");
                }
            } else if t.starts_with("$ ") || t.starts_with("> $ ") {
                keep.set(k, "command line");
            }
        }
    }
    // Blank lines are kept; a run of dropped lines swallows the blanks
    // inside it.
    // One pass: each run of blank lines has the same neighbours.
    let dropped = |keep: &Keep, j: Option<usize>| j.is_some_and(|j| !keep.get(j));
    let (mut before, mut blank_run) = (None, None);
    for (k, l) in doc.iter().enumerate() {
        if l.trim().is_empty() {
            blank_run.get_or_insert(k);
            continue;
        }
        if let Some(from) = blank_run.take() {
            if !(dropped(&keep, before) && dropped(&keep, Some(k))) {
                for j in from..k {
                    keep.set(j, "blank line");
                }
            }
        }
        before = Some(k);
    }
    // Blank lines at the end have nothing dropped after them.
    for j in blank_run.map_or(n..n, |from| from..n) {
        keep.set(j, "blank line");
    }
    keep.fill_query(query, 12, |i| doc.line(i).into());
    let unfit = keep.fit_text(
        budget,
        |i| doc.line(i),
        "\u{2026} 9999 lines elided (caveman) \u{2026}",
        "",
    );
    let fitted = budget.is_some();
    let (mut pieces, _, trace) = keep.collapse(|run| {
        if let Some(summary) = summaries.get(&run.start) {
            // Rows of a table: a marker row with what held for every row.
            let m = super::tabular::lean_marker(run.len(), Some(summary));
            return Some((format!("| {m} |"), 0));
        }
        let content = run
            .clone()
            .filter(|&k| !doc.line(k).trim().is_empty())
            .count();
        (fitted || content >= 2 || run.len() >= 3).then(|| {
            (
                format!("\u{2026} {content} lines elided (caveman) \u{2026}"),
                0,
            )
        })
    });
    if let Some(note) = unfit.note("lines") {
        pieces.marker(note);
    }
    if trace.dropped == 0 {
        return Err(Decline("nothing to drop"));
    }
    Ok(Compressed::traced(
        super::shared::lines::join_lines(doc, &pieces),
        trace,
    ))
}

/// The lean reading's next block at or after line `i`: (first line, end,
/// kind), or `None` when only blank lines are left.
fn next_block(
    doc: &super::shared::lines::Lines<'_>,
    mut i: usize,
) -> Option<(usize, usize, Block)> {
    let n = doc.len();
    while i < n && doc.line(i).trim().is_empty() {
        i += 1;
    }
    if i >= n {
        return None;
    }
    let l = doc.line(i);
    if let Some((c, run)) = fence(l) {
        let mut j = i + 1;
        while j < n && !fence(doc.line(j)).is_some_and(|(d, r)| d == c && r >= run) {
            j += 1;
        }
        return Some((i, (j + 1).min(n), Block::Code));
    }
    if MD_HEADING.is_match(l) || (i + 1 < n && UNDERLINE.is_match(doc.line(i + 1))) {
        let end = if MD_HEADING.is_match(l) { i + 1 } else { i + 2 };
        // An RST title may have an overline too.
        return Some((i, end, Block::Heading));
    }
    if UNDERLINE.is_match(l) && i + 2 < n && UNDERLINE.is_match(doc.line(i + 2)) {
        return Some((i, i + 3, Block::Heading));
    }
    let mut j = i;
    while j < n
        && !doc.line(j).trim().is_empty()
        && fence(doc.line(j)).is_none()
        && (j == i || !MD_HEADING.is_match(doc.line(j)))
    {
        j += 1;
    }
    let kind = if doc.range(i..j).all(|l| l.trim_start().starts_with('|')) {
        Block::Table
    } else if LIST_ITEM.is_match(doc.line(i)) {
        Block::List
    } else if doc
        .range(i..j)
        .all(|l| l.starts_with("    ") || l.starts_with('\t'))
    {
        Block::Code
    } else {
        Block::Paragraph
    };
    Some((i, j, kind))
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
fn fence(line: &str) -> Option<(u8, usize)> {
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
