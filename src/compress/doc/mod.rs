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
//!   of This Memo" or contents section, and a licence's text.
//!
//! What goes first: examples, link reference definitions, markup and
//! badges, tables of contents, and the targets of inline links (`[text](…)`).
//! Every dropped run is a marker that counts its lines (blank lines
//! included) and names the examples, link definitions or markup it holds;
//! the rest of a line cut after its first sentence is a marker at its end
//! that counts the words it hides. Terminal escapes and nroff overstrike
//! are resolved first.

mod blocks;
mod boiler;
mod fit;
mod prose;

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use self::blocks::{
    indent, is_list_item, item_text_start, level, term_like, Block, Kind, Reader, Shape,
};
use self::fit::{emit, fit};
use self::prose::{amount, fold_links, key_sentence};
use super::shared::dropped_runs;
use super::shared::lines::Lines;
use super::text::fence;
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
/// A list item of at most this much text (bytes, link targets folded)
/// is not cut inside: its tail is its point (a citation's title, an
/// option's values).
const SHORT_ITEM: usize = 320;
/// A view that saves less than this share (percent) of the document is
/// not made: the document stays whole (without a budget).
const MIN_SAVING: usize = 15;
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

pub(crate) fn lean(text: &str, query: &str, budget: Option<usize>) -> Result<Compressed, Decline> {
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
        // weighed against the document with its targets folded.
        let folded: usize = doc.iter().map(|l| fold_links(l).0.len() + 1).sum();
        if out.len() * 100 > folded * (100 - MIN_SAVING) {
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

/// A piece of the view: lines as they were, one line rewritten (link
/// targets folded, or cut after its first sentence with a marker at its
/// end), or a marker.
#[derive(Debug)]
enum Body {
    Same,
    Text(String),
    Marker(String),
}

/// A piece and the lines of the input it stands for.
#[derive(Debug)]
struct Item {
    body: Body,
    lines: Range<usize>,
    reason: &'static str,
}

/// What a run of dropped lines held, for its marker.
#[derive(Debug, Default)]
struct Gap {
    lines: Option<Range<usize>>,
    examples: usize,
    link_defs: usize,
    markup: usize,
    toc: usize,
    boiler: Option<&'static str>,
    /// Non-blank lines of prose (paragraphs, list items).
    prose: usize,
}

/// What a dropped range is.
#[derive(Debug, Clone, Copy)]
enum What {
    Prose,
    /// Lines of a code block (`true` for the first drop in the block).
    Code(bool),
    LinkDefs,
    Markup,
    Toc,
    /// Boilerplate, by name.
    Boiler(&'static str),
}

impl Gap {
    fn marker(&self) -> Option<(String, Range<usize>)> {
        let r = self.lines.clone()?;
        let mut parts = Vec::new();
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if let Some(name) = self.boiler {
            parts.push(name.to_string());
        }
        match self.examples {
            0 => {}
            1 => parts.push("part of an example".to_string()),
            n => parts.push(format!("parts of {n} examples")),
        }
        if self.link_defs > 0 {
            parts.push(plural(
                self.link_defs,
                "link definition",
                "link definitions",
            ));
        }
        if self.markup > 0 {
            parts.push(plural(self.markup, "line of markup", "lines of markup"));
        }
        if self.toc > 0 {
            parts.push(plural(self.toc, "table of contents", "tables of contents"));
        }
        // A label accounts for every line it covers: prose among named
        // lines is named too (a run of prose alone needs no label).
        if self.prose > 0 && !parts.is_empty() {
            parts.push(plural(self.prose, "line of prose", "lines of prose"));
        }
        let detail = if parts.is_empty() {
            String::new()
        } else {
            format!(": {}", parts.join(", "))
        };
        Some((
            format!(
                "\u{2026} {} lines elided (caveman){detail} \u{2026}",
                r.len()
            ),
            r,
        ))
    }
}

/// The view as it is decided, block by block.
struct Plan<'d, 'a> {
    doc: &'d Lines<'a>,
    hits: &'d [usize],
    /// Under a budget: runs of kept lines are split by reason and length.
    fine: bool,
    items: Vec<Item>,
    gap: Gap,
    /// Blank lines met while a gap was open: kept if the gap closes on a
    /// kept line, else inside the gap.
    held: Option<Range<usize>>,
    /// The next line no block has covered.
    next: usize,
    links: usize,
    /// A document with little prose: no sentence is cut.
    whole: bool,
    /// Inside boilerplate: the level of its heading (0: any heading ends
    /// it) and its name.
    fold: Option<(usize, &'static str)>,
}

impl<'d, 'a> Plan<'d, 'a> {
    fn new(doc: &'d Lines<'a>, hits: &'d [usize], fine: bool) -> Self {
        Plan {
            doc,
            hits,
            fine,
            items: Vec::new(),
            gap: Gap::default(),
            held: None,
            next: 0,
            links: 0,
            whole: false,
            fold: None,
        }
    }

    fn line(&self, i: usize) -> &'a str {
        self.doc.line(i)
    }

    fn hit(&self, i: usize) -> bool {
        self.hits.binary_search(&i).is_ok()
    }

    /// A line that stays whole wherever it is, and why: a query hit or a
    /// command line. Never a word: prose and code are not filtered by
    /// error vocabulary (a paragraph is one unit, its sentences chosen by
    /// role; a code block is whole or head and tail).
    fn must(&self, i: usize) -> Option<&'static str> {
        let l = self.line(i);
        if self.hit(i) {
            Some("query")
        } else if command(l) {
            Some("command line")
        } else {
            None
        }
    }

    /// The open gap becomes a marker, then the blank lines held after it.
    fn close_gap(&mut self) {
        let marker = self.gap.marker();
        self.gap = Gap::default();
        if let Some((text, lines)) = marker {
            // A few short lines cost less than their marker: they stay.
            let short = lines.len() <= 3
                && self
                    .doc
                    .range(lines.clone())
                    .map(|l| l.len() + 1)
                    .sum::<usize>()
                    <= text.len();
            if short {
                self.push_same(lines, "marker would not pay");
            } else {
                self.items.push(Item {
                    body: Body::Marker(text),
                    lines,
                    reason: "",
                });
            }
        }
        if let Some(h) = self.held.take() {
            self.push_same(h, "blank line");
        }
    }

    fn push_same(&mut self, r: Range<usize>, reason: &'static str) {
        if r.is_empty() {
            return;
        }
        if self.gap.lines.is_some() {
            self.close_gap();
        }
        if let Some(last) = self.items.last_mut() {
            let joins = matches!(last.body, Body::Same)
                && last.lines.end == r.start
                && (!self.fine || (last.reason == reason && last.lines.len() < BUDGET_RUN));
            if joins {
                last.lines.end = r.end;
                return;
            }
        }
        self.items.push(Item {
            body: Body::Same,
            lines: r,
            reason,
        });
    }

    fn push_text(&mut self, r: Range<usize>, text: String, reason: &'static str) {
        if self.gap.lines.is_some() {
            self.close_gap();
        }
        self.items.push(Item {
            body: Body::Text(text),
            lines: r,
            reason,
        });
    }

    /// A marker of the caller's own (a table's rows) for `r`.
    fn push_marker(&mut self, r: Range<usize>, text: String) {
        if self.gap.lines.is_some() {
            self.close_gap();
        }
        if let Some(h) = self.held.take() {
            self.push_same(h, "blank line");
        }
        self.items.push(Item {
            body: Body::Marker(text),
            lines: r,
            reason: "",
        });
    }

    fn drop(&mut self, r: Range<usize>, what: What) {
        if r.is_empty() {
            return;
        }
        let start = match (&self.gap.lines, self.held.take()) {
            (Some(g), _) => g.start,
            (None, Some(h)) => {
                // Blank lines before the first dropped line stay.
                self.push_same(h, "blank line");
                r.start
            }
            (None, None) => r.start,
        };
        self.gap.lines = Some(start..r.end);
        match what {
            What::Prose => {
                self.gap.prose += self
                    .doc
                    .range(r.clone())
                    .filter(|l| !l.trim().is_empty())
                    .count()
            }
            What::Code(first) => self.gap.examples += usize::from(first),
            What::LinkDefs => self.gap.link_defs += r.len(),
            What::Markup => self.gap.markup += r.len(),
            What::Toc => self.gap.toc += 1,
            What::Boiler(name) => self.gap.boiler = Some(name),
        }
    }

    /// Drops `r`, keeping its query hits.
    fn drop_but_hits(&mut self, r: Range<usize>, what: What) {
        let mut from = r.start;
        for i in r.clone() {
            if self.hit(i) {
                self.drop(from..i, what);
                self.push_same(i..i + 1, "query");
                from = i + 1;
            }
        }
        self.drop(from..r.end, what);
    }

    fn blank(&mut self, i: usize) {
        if self.gap.lines.is_some() {
            let h = self.held.get_or_insert(i..i);
            h.end = i + 1;
        } else {
            self.push_same(i..i + 1, "blank line");
        }
    }

    /// Keeps line `i` of prose: its link targets folded (a line with a
    /// problem word stays as it is).
    fn keep_prose(&mut self, i: usize, reason: &'static str) {
        let l = self.line(i);
        if problem(l) {
            return self.push_same(i..i + 1, reason);
        }
        match fold_links(l) {
            (std::borrow::Cow::Owned(t), n) => {
                self.links += n;
                self.push_text(i..i + 1, t, reason);
            }
            _ => self.push_same(i..i + 1, reason),
        }
    }

    /// Block `b`; `after` are the blocks that follow it.
    fn block(&mut self, b: Block, after: &[Block]) {
        for i in self.next..b.start {
            self.blank(i);
        }
        self.next = b.end;
        let r = b.start..b.end;
        if b.kind == Kind::Heading {
            let name = boiler::section(self.line(b.start));
            // A table of contents ends at the next heading, whatever its
            // level (the document's sections may sit under it).
            let lvl = match name {
                Some("table of contents") => 0,
                _ => level(self.doc, &b),
            };
            let ends = |l: usize| lvl == 0 || l == 0 || lvl <= l;
            if self.fold.is_some_and(|(l, _)| ends(l)) {
                self.fold = None;
            }
            self.push_same(r, "heading");
            if let Some(name) = name {
                let ends = |h: &Block| {
                    h.kind == Kind::Heading && {
                        let l = level(self.doc, h);
                        l == 0 || lvl == 0 || l <= lvl
                    }
                };
                let body: usize = after
                    .iter()
                    .take_while(|h| !ends(h))
                    .flat_map(|h| self.doc.range(h.start..h.end))
                    .filter(|l| !l.trim().is_empty())
                    .count();
                if body > BOILER_LINES {
                    self.fold = Some((lvl, name));
                }
            }
            return;
        }
        if self.fold.is_none()
            && b.kind == Kind::Paragraph
            && boiler::licence_text(self.line(b.start))
        {
            self.fold = Some((0, "licence text"));
        }
        if let Some((_, name)) = self.fold {
            return self.drop_but_hits(r, What::Boiler(name));
        }
        match b.kind {
            Kind::Heading => self.push_same(r, "heading"),
            Kind::Rule => self.push_same(r, "section rule"),
            Kind::Fence => self.code(r, true),
            Kind::Indented => self.code(r, false),
            Kind::Table => self.table(r),
            Kind::LinkDefs => self.drop_but_hits(r, What::LinkDefs),
            Kind::Markup => self.drop_but_hits(r, What::Markup),
            Kind::List => self.list(r),
            Kind::Paragraph => self.paragraph(r),
        }
    }

    fn finish(mut self) -> (Vec<Item>, usize) {
        for i in self.next..self.doc.len() {
            self.blank(i);
        }
        if self.gap.lines.is_some() {
            self.close_gap();
        }
        if let Some(h) = self.held.take() {
            self.push_same(h, "blank line");
        }
        (self.items, self.links)
    }

    /// A code block: whole when short or when it shows an error; else its
    /// fences, its first line, its command lines and query hits.
    fn code(&mut self, r: Range<usize>, fenced: bool) {
        let (s, e) = (r.start, r.end);
        let close = fenced && e > s + 1 && fence(self.line(e - 1)).is_some();
        let body = (s + usize::from(fenced))..(e - usize::from(close));
        let content = self
            .doc
            .range(body.clone())
            .filter(|l| !l.trim().is_empty())
            .count();
        let shows_error = body.len() <= ERROR_CODE
            && self
                .doc
                .range(body.clone())
                .any(|l| ERROR_OUTPUT.is_match(l) || problem(l));
        if content <= SHORT_CODE || shows_error || body.is_empty() {
            let why = if shows_error {
                "example with a problem word"
            } else {
                "short example"
            };
            return self.push_same(r, why);
        }
        if fenced {
            self.push_same(s..s + 1, "example fence");
        }
        // A patch in a document is its changes: every changed line stays.
        let info = self.line(s).trim().trim_start_matches(['`', '~']).trim();
        let patch = fenced && matches!(info, "diff" | "patch" | "udiff");
        let mut first = true;
        let mut from = body.start;
        let head = body.start + HEAD_CODE;
        let tail = body.end.saturating_sub(TAIL_CODE);
        for i in body.clone() {
            let l = self.line(i);
            let why = if i < head {
                Some("example's head")
            } else if i >= tail {
                Some("example's tail")
            } else if let Some(why) = self.must(i) {
                Some(why)
            } else if ERROR_OUTPUT.is_match(l) {
                Some("error output")
            } else if patch && l.starts_with(['+', '-', '@']) {
                Some("change in a patch")
            } else {
                None
            };
            if let Some(why) = why {
                if from < i {
                    self.drop(from..i, What::Code(first));
                    first = false;
                }
                self.push_same(i..i + 1, why);
                from = i + 1;
            }
        }
        if from < body.end {
            self.drop(from..body.end, What::Code(first));
        }
        if close {
            self.push_same(e - 1..e, "example fence");
        }
    }

    /// A Markdown table over 8 data rows: the lean table rules, its rows
    /// dropped in runs with the summary of every row on the first marker.
    fn table(&mut self, r: Range<usize>) {
        let (s, e) = (r.start, r.end);
        let pipe = e > s + 1 && TABLE_RULE.is_match(self.line(s + 1));
        if !pipe || e - s <= 2 + SHORT_TABLE {
            return self.push_same(r, "table");
        }
        let cells = |l: &'a str| -> Vec<&'a str> {
            let t = l.trim();
            let t = t.strip_prefix('|').unwrap_or(t);
            let t = t.strip_suffix('|').unwrap_or(t);
            t.split('|').map(str::trim).collect()
        };
        let doc = self.doc;
        let g = super::tabular::Grid {
            names: cells(doc.line(s)),
            row: Box::new(move |i| cells(doc.line(s + 2 + i))),
            rows: e - s - 2,
            tail: 1,
            top: 1,
            errors: true,
        };
        let cut = super::tabular::lean_cut(&g, "", None);
        self.push_same(s..s + 2, "table header");
        let mut summary = Some(cut.summary.as_str());
        let mut k = 0;
        while k < g.rows {
            let i = s + 2 + k;
            if cut.keep[k] || self.hit(i) {
                self.push_same(i..i + 1, "table row");
                k += 1;
                continue;
            }
            let mut j = k;
            while j < g.rows && !cut.keep[j] && !self.hit(s + 2 + j) {
                j += 1;
            }
            let m = super::tabular::lean_marker(j - k, summary.take());
            self.push_marker(s + 2 + k..s + 2 + j, format!("| {m} |"));
            k = j;
        }
    }

    /// A list: each item's first sentence; a table of contents (items
    /// that only link within the page) goes whole.
    fn list(&mut self, r: Range<usize>) {
        let toc = |l: &str| TOC_ITEM.is_match(l) || blocks::TOC_LEADER.is_match(l);
        if r.len() >= 3 && self.doc.range(r.clone()).all(toc) {
            return self.drop_but_hits(r, What::Toc);
        }
        let mut k = r.start;
        while k < r.end {
            let mut j = k + 1;
            while j < r.end && !is_list_item(self.line(j)) {
                j += 1;
            }
            let from = item_text_start(self.line(k));
            let size: usize = self
                .doc
                .range(k..j)
                .map(|l| fold_links(l.trim()).0.len())
                .sum::<usize>()
                - from.min(self.line(k).len());
            if size <= SHORT_ITEM {
                (k..j).for_each(|i| self.keep_prose(i, "short list item"));
            } else {
                self.sentence(k..j, from, "first sentence of a list item");
            }
            k = j;
        }
    }

    /// A paragraph: definitions (a short line over deeper lines) keep the
    /// line and their body's first sentence; a document written one
    /// paragraph a line has each line read as a paragraph; else the first
    /// sentence.
    fn paragraph(&mut self, r: Range<usize>) {
        let (s, e) = (r.start, r.end);
        let top = indent(self.line(s));
        let deeper = |p: &Self, k: usize| indent(p.line(k)) > top;
        if term_like(self.line(s)) && (s + 1..e).any(|k| deeper(self, k)) {
            let mut k = s;
            while k < e {
                let mut j = k + 1;
                while j < e && deeper(self, j) {
                    j += 1;
                }
                if j > k + 1 && term_like(self.line(k)) && !deeper(self, k) {
                    self.push_same(k..k + 1, "heading or definition");
                    self.sentence(k + 1..j, 0, "first sentence of a definition");
                } else {
                    self.sentence(k..j, 0, "first sentence");
                }
                k = j;
            }
            return;
        }
        if line_paragraphs(self.doc, s, e) {
            for k in s..e {
                self.sentence(k..k + 1, 0, "first sentence");
            }
            return;
        }
        self.sentence(r, 0, "first sentence");
    }

    /// Lines `r` of prose (a paragraph, an item, a definition's body):
    /// its first sentence and every sentence that states a rule or holds
    /// a figure (each run of other sentences a marker counting its words,
    /// the run's lines joined as one), the lines that must stay whole as
    /// they are. A document with little prose, a paragraph of one
    /// sentence, or one whose cut would hide little, stays whole.
    fn sentence(&mut self, r: Range<usize>, from: usize, reason: &'static str) {
        let (s, e) = (r.start, r.end);
        // A paragraph that reports a problem is one unit: whole, never a
        // wrapped line of it alone (a fragment without its subject).
        if (s..e).any(|i| problem(self.line(i))) {
            return (s..e).for_each(|i| self.keep_prose(i, "paragraph with a problem word"));
        }
        let Some(end) = first_sentence(self.doc.range(r.clone()), from) else {
            return (s..e).for_each(|i| self.keep_prose(i, reason));
        };
        // What a cut could hide, link targets folded (they go anyway).
        let k = s + end.line;
        let size = |l: &str| fold_links(l.trim()).0.len();
        let rest: usize = size(&self.line(k)[end.at..])
            + (k + 1..e)
                .filter(|&i| self.must(i).is_none())
                .map(|i| size(self.line(i)))
                .sum::<usize>();
        if self.whole || rest < MIN_CUT {
            return (s..e).for_each(|i| self.keep_prose(i, reason));
        }
        let mut i = s;
        while i < e {
            if let Some(why) = self.must(i) {
                self.push_same(i..i + 1, why);
                i += 1;
                continue;
            }
            let mut j = i;
            while j < e && self.must(j).is_none() {
                j += 1;
            }
            let at = if i == s { from } else { 0 };
            self.prose_run(i..j, at, i == s, reason);
            i = j;
        }
    }

    /// A run of prose lines (none of them must stay whole): the sentences
    /// that stay (the first when `first`), the others in markers.
    fn prose_run(&mut self, r: Range<usize>, from: usize, first: bool, reason: &'static str) {
        let lines: Vec<&'a str> = self.doc.range(r.clone()).collect();
        let l0 = lines[0];
        let from = from.min(l0.len());
        let lead = if from > 0 {
            &l0[..from]
        } else {
            &l0[..l0.len() - l0.trim_start().len()]
        };
        let mut text = String::new();
        for (k, l) in lines.iter().enumerate() {
            let t = if k == 0 {
                l[lead.len()..].trim()
            } else {
                l.trim()
            };
            if !t.is_empty() {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(t);
            }
        }
        let sents = sentences(&text);
        let n = sents.len();
        let mut keep: Vec<bool> = sents
            .iter()
            .enumerate()
            .map(|(k, x)| first && k == 0 || key_sentence(&text[x.clone()]))
            .collect();
        for run in dropped_runs(&keep) {
            if sents[run.end - 1].end - sents[run.start].start < MIN_GAP {
                keep[run].fill(true);
            }
        }
        if keep.iter().all(|&x| x) {
            return r.for_each(|i| self.keep_prose(i, reason));
        }
        if !keep.iter().any(|&x| x) {
            return self.drop(r, What::Prose);
        }
        let mut out = String::from(lead);
        let runs = dropped_runs(&keep);
        let mut runs = runs.iter().peekable();
        let mut k = 0;
        while k < n {
            if k > 0 {
                out.push(' ');
            }
            if let Some(run) = runs.next_if(|r| r.start == k) {
                let hidden = amount(&text[sents[k].start..sents[run.end - 1].end]);
                out.push_str(&format!("\u{2026} {hidden} elided (caveman) \u{2026}"));
                k = run.end;
                continue;
            }
            let (t, m) = fold_links(&text[sents[k].clone()]);
            self.links += m;
            out.push_str(&t);
            k += 1;
        }
        if lines[lines.len() - 1].ends_with('\r') {
            out.push('\r');
        }
        self.push_text(r, out, reason);
    }
}

/// A block written one paragraph a line: at least three lines, most of
/// them ending a sentence and many holding more than one (a block written
/// one sentence a line is one paragraph).
fn line_paragraphs(doc: &Lines<'_>, s: usize, e: usize) -> bool {
    let n = e - s;
    if n < 3 {
        return false;
    }
    let (mut ends, mut several) = (0usize, 0usize);
    for l in doc.range(s..e) {
        ends += usize::from(blocks::ends_sentence(l));
        several += usize::from(first_sentence(std::iter::once(l), 0).is_some());
    }
    ends * 10 >= n * 6 && several * 10 >= n * 4
}

#[cfg(test)]
mod tests;
