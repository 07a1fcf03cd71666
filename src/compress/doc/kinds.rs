//! How the lean document view reads each kind of block: code blocks,
//! tables, lists, paragraphs and definitions, and the sentences of
//! prose it keeps.

use std::ops::Range;

use super::blocks::{self, indent, is_list_item, item_text_start, term_like};
use super::plan::{Plan, What};
use super::prose::{amount, first_sentence, fold_links, key_sentence, sentences};
use super::{
    problem, COMPACT_CODE, ERROR_CODE, ERROR_OUTPUT, HEAD_CODE, MIN_CUT, MIN_GAP, SHORT_CODE,
    SHORT_GAP_LINE, SHORT_ITEM, SHORT_TABLE, TABLE_RULE, TAIL_CODE, TOC_ITEM,
};
use crate::compress::shared::dropped_runs;
use crate::compress::shared::lines::Lines;
use crate::compress::text::fence;

impl<'a> Plan<'_, 'a> {
    /// fences, its first line, its command lines and query hits.
    pub(super) fn code(&mut self, r: Range<usize>, fenced: bool) {
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
        if self.compact && content > COMPACT_CODE {
            return self.code_compact(s, body, close);
        }
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

    /// A code block at the compact level: its fences, its first line, its
    /// lines of error output and those naming a problem, a diagnostic's
    /// location (`--> file:line`), a patch's file lines and changed lines,
    /// command lines and query hits; the rest in markers.
    fn code_compact(&mut self, s: usize, body: Range<usize>, close: bool) {
        if body.start > s {
            self.push_same(s..s + 1, "example fence");
        }
        let info = self.line(s).trim().trim_start_matches(['`', '~']).trim();
        let patch = body.start > s && matches!(info, "diff" | "patch" | "udiff");
        let why: Vec<Option<&'static str>> = body
            .clone()
            .map(|i| {
                let l = self.line(i);
                if i == body.start {
                    Some("example's head")
                } else if let Some(why) = self.must(i) {
                    Some(why)
                } else if ERROR_OUTPUT.is_match(l) || problem(l) {
                    Some("error output")
                } else if l.trim_start().starts_with("--> ") {
                    Some("a diagnostic's location")
                } else if patch
                    && (l.starts_with("diff ")
                        || l.starts_with('+') && !l.starts_with("+++ ")
                        || l.starts_with('-') && !l.starts_with("--- "))
                {
                    Some("change in a patch")
                } else {
                    None
                }
            })
            .collect();
        let mut first = true;
        let mut k = 0;
        while k < why.len() {
            let i = body.start + k;
            if let Some(w) = why[k] {
                self.push_same(i..i + 1, w);
                k += 1;
                continue;
            }
            let mut j = k;
            while j < why.len() && why[j].is_none() {
                j += 1;
            }
            // One short line costs less than the marker that would hide it.
            if j == k + 1 && self.line(i).len() <= SHORT_GAP_LINE {
                self.push_same(i..i + 1, "short line between kept ones");
            } else {
                self.drop(i..body.start + j, What::Code(first));
                first = false;
            }
            k = j;
        }
        if close {
            self.push_same(body.end..body.end + 1, "example fence");
        }
    }

    /// A Markdown table over 8 data rows: the lean table rules, its rows
    /// dropped in runs with the summary of every row on the first marker.
    pub(super) fn table(&mut self, r: Range<usize>) {
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
        let g = crate::compress::tabular::Grid {
            names: cells(doc.line(s)),
            row: Box::new(move |i| cells(doc.line(s + 2 + i))),
            rows: e - s - 2,
            tail: 1,
            top: 1,
            errors: true,
            fill: false,
            ceiling: false,
        };
        let cut = crate::compress::tabular::lean_cut(&g, "", None);
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
            let m = crate::compress::tabular::lean_marker(j - k, summary.take());
            self.push_marker(s + 2 + k..s + 2 + j, format!("| {m} |"));
            k = j;
        }
    }

    /// A list: each item's first sentence; a table of contents (items
    /// that only link within the page) goes whole.
    pub(super) fn list(&mut self, r: Range<usize>) {
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
    pub(super) fn paragraph(&mut self, r: Range<usize>) {
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
