//! The lean document view's plan: the pieces of the view (lines kept,
//! lines rewritten, markers) decided block by block, and the gap that
//! a run of dropped lines becomes. How each kind of block is read is in
//! `kinds.rs`.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::blocks::{item_text_start, level, Block, Kind};
use super::prose::fold_links;
use super::{boiler, command, problem, BOILER_LINES, BUDGET_RUN};
use crate::compress::shared::lines::Lines;

/// A piece of the view: lines as they were, one line rewritten (link
/// targets folded, or cut after its first sentence with a marker at its
/// end), or a marker.
#[derive(Debug)]
pub(super) enum Body {
    Same,
    Text(String),
    Marker(String),
}

/// A piece and the lines of the input it stands for.
#[derive(Debug)]
pub(super) struct Item {
    pub(super) body: Body,
    pub(super) lines: Range<usize>,
    pub(super) reason: &'static str,
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
pub(super) enum What {
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
pub(super) struct Plan<'d, 'a> {
    pub(super) doc: &'d Lines<'a>,
    pub(super) hits: &'d [usize],
    /// Under a budget: runs of kept lines are split by reason and length.
    fine: bool,
    items: Vec<Item>,
    gap: Gap,
    /// Blank lines met while a gap was open: kept if the gap closes on a
    /// kept line, else inside the gap.
    held: Option<Range<usize>>,
    /// The next line no block has covered.
    next: usize,
    pub(super) links: usize,
    /// A document with little prose: no sentence is cut.
    pub(super) whole: bool,
    /// The compact level of a document larger than compat's view: a code
    /// block keeps its lines of interest only ([`Plan::code`]).
    pub(super) compact: bool,
    /// Inside boilerplate: the level of its heading (0: any heading ends
    /// it) and its name.
    fold: Option<(usize, &'static str)>,
}

impl<'d, 'a> Plan<'d, 'a> {
    pub(super) fn new(doc: &'d Lines<'a>, hits: &'d [usize], fine: bool) -> Self {
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
            compact: false,
            fold: None,
        }
    }

    pub(super) fn line(&self, i: usize) -> &'a str {
        self.doc.line(i)
    }

    pub(super) fn hit(&self, i: usize) -> bool {
        self.hits.binary_search(&i).is_ok()
    }

    /// A line that stays whole wherever it is, and why: a query hit or a
    /// command line. Never a word: prose and code are not filtered by
    /// error vocabulary (a paragraph is one unit, its sentences chosen by
    /// role; a code block is whole or head and tail).
    pub(super) fn must(&self, i: usize) -> Option<&'static str> {
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

    pub(super) fn push_same(&mut self, r: Range<usize>, reason: &'static str) {
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

    pub(super) fn push_text(&mut self, r: Range<usize>, text: String, reason: &'static str) {
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
    pub(super) fn push_marker(&mut self, r: Range<usize>, text: String) {
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

    pub(super) fn drop(&mut self, r: Range<usize>, what: What) {
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
    pub(super) fn drop_but_hits(&mut self, r: Range<usize>, what: What) {
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
    pub(super) fn keep_prose(&mut self, i: usize, reason: &'static str) {
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
    pub(super) fn block(&mut self, b: Block, after: &[Block]) {
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
                let section = after.iter().take_while(|h| !ends(h)).count();
                let body: usize = after[..section]
                    .iter()
                    .flat_map(|h| self.doc.range(h.start..h.end))
                    .filter(|l| !l.trim().is_empty())
                    .count();
                let outline = name != "table of contents"
                    || self.entries_are_headings(&after[..section], &after[section..]);
                if body > BOILER_LINES && outline {
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

    /// Whether most entries of a table of contents (its non-blank lines,
    /// list markers, link targets and dot leaders aside) name a heading
    /// in `rest`, the blocks after it: then it repeats the document's
    /// outline and folds. A contents list of other pages (an index page,
    /// a book's chapters) is what the page holds and is read as any list.
    fn entries_are_headings(&self, section: &[Block], rest: &[Block]) -> bool {
        let headings: Vec<String> = rest
            .iter()
            .filter(|h| h.kind == Kind::Heading)
            .filter_map(|h| {
                self.doc
                    .range(h.start..h.end)
                    .map(outline_key)
                    .find(|k| !k.is_empty())
            })
            .collect();
        let (mut entries, mut named) = (0usize, 0usize);
        for l in section.iter().flat_map(|b| self.doc.range(b.start..b.end)) {
            let key = outline_key(&l[item_text_start(l).min(l.len())..]);
            if key.is_empty() {
                continue;
            }
            entries += 1;
            let names = |h: &String| h.ends_with(&key) || key.ends_with(h.as_str());
            named += usize::from(headings.iter().any(names));
        }
        named * 2 >= entries
    }

    pub(super) fn finish(mut self) -> (Vec<Item>, usize) {
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
}

/// Link targets (`](…)`) of an outline entry or heading.
static LINK_TARGET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\]\([^)]*\)").expect("link target pattern"));

/// A heading or a contents entry as [`Plan::entries_are_headings`]
/// compares them: its letters and digits, lower-cased, without link
/// targets or a dot leader to a page number.
fn outline_key(line: &str) -> String {
    let line = LINK_TARGET.replace_all(line, "");
    let text = line.split("....").next().unwrap_or_default();
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}
