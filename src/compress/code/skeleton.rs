//! The lean code skeleton: the file as it is, with every function body of
//! three lines or more replaced by a comment that says how many lines it
//! had, long literals (tables, lists, maps outside bodies) elided the same
//! way, and doc comments cut to their first sentence. Imports, package
//! lines, types with their fields and members' signatures, decorators and
//! attributes, constants and top-level variables stay as written.
//!
//! Edits are byte ranges of the source replaced in the language's own
//! syntax (braces stay around the marker; Python gets `...`, Scala `???`,
//! shell `:`), so the view parses with the same grammar; it is parsed again
//! to make sure, and a file whose view would not parse is not cut.
//! `--query` keeps the bodies of the functions it matches best. Under a
//! ceiling (a Go view within compat's size) the view is the richest
//! [`Detail`] level that fits; `render` applies the edits.

use std::ops::Range;

use tree_sitter::{Node, Parser};

use super::comments::{self, Span};
use super::grammars::{self, Grammar, Style};
use super::render::apply;
use crate::compress::shared::relevance;
use crate::compress::{Decline, Trace};
use crate::detect::Language;

/// Bodies with fewer lines stay (a marker would cost about as much).
const MIN_BODY_LINES: usize = 5;
/// Literals spanning more lines than this are elided.
const LITERAL_LINES: usize = 12;
/// In a test file, case tables up to this many lines stay whole; a longer
/// one keeps its entries on its first [`TABLE_KEEP`] lines.
const TABLE_LINES: usize = 40;
const TABLE_KEEP: usize = 16;
/// In a test file, the first test function with a body of at most this
/// many lines stays whole (else the shortest one).
const WHOLE_TEST_LINES: usize = 60;
/// Bodies the query keeps, at most.
const QUERY_FILL: usize = 8;

/// One planned replacement.
pub(super) struct Edit {
    pub range: Range<usize>,
    pub text: String,
    /// Lines of source it stands for (bodies and literals).
    pub lines: usize,
    pub kind: EditKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum EditKind {
    Body,
    Literal,
    /// A doc comment cut to its first sentence and its rules.
    Comment,
    /// A long comment (a guide) cut to headings and first sentences.
    Guide,
    /// A repeated comment dropped.
    Repeat,
    /// A comment dropped (at the compact levels).
    Dropped,
    /// A doc comment cut to its first sentence (at the compact levels).
    First,
    /// An import list elided (`lines` counts its imports).
    Imports,
    /// A note added to a kept line (a repeated comment's count).
    Note,
}

/// A function whose body may be elided.
struct Func {
    /// The whole function (for the query).
    whole: Range<usize>,
    /// A test function (`TestX`, `test_x`) in a test file.
    test: bool,
    edit: Edit,
}

/// Sources larger than this are cut in parts: a syntax tree takes ~50
/// bytes a byte of C, so a part of 1 MiB and the tree of its view stay
/// within 3× a larger input and 100 MB on each core.
const CHUNKED_FROM: usize = 1 << 20;
/// A part is at least this long (it ends at the next top-level start).
const CHUNK: usize = 512 << 10;
/// A part is at most about this long: past it, one ends at the last line
/// that began at column 0 (else at the next line), top-level start or not.
const MAX_PART: usize = 1 << 20;
/// A part longer than this (one line of it: minified code) is not parsed
/// and stays as it is.
const MAX_PARSE: usize = 2 << 20;

/// The skeleton of `text` in `lang`. A large source is read as a series of
/// parts, each a file of its own, split where a top-level item starts (a
/// line after a blank line beginning with a letter, `/`, `#` or `@` at
/// column 0), and at most about [`MAX_PART`] long whatever the source
/// looks like: a syntax tree is 30 to 50 bytes per byte of source, so one
/// tree of 64 MiB would take 2 to 3 GB. A part that does not parse on its own
/// (a split inside a function, a string or a comment) stays as it is.
pub(crate) fn skeleton(
    text: &str,
    lang: Language,
    query: &str,
    tolerant: bool,
) -> Result<(String, Trace), Decline> {
    if text.len() < CHUNKED_FROM {
        return skeleton_of(text, lang, query, tolerant, None);
    }
    let parts = top_level_parts(text);
    let views = crate::par::map_each(&parts, crate::par::workers(), |r| {
        (r.len() <= MAX_PARSE)
            .then(|| skeleton_of(&text[r.clone()], lang, query, tolerant, None).ok())
            .flatten()
    });
    let mut out = String::with_capacity(text.len() / 2);
    let mut trace = Trace::default();
    for (r, view) in parts.iter().zip(views) {
        match view {
            Some((v, t)) => {
                out.push_str(&v);
                for (reason, n) in t.kept {
                    trace.add(reason, n);
                }
                trace.dropped += t.dropped;
            }
            None => out.push_str(&text[r.clone()]),
        }
    }
    if trace.dropped == 0 {
        return Err(Decline(
            "no body, literal or comment to elide, or the view would not parse",
        ));
    }
    Ok((out, trace))
}

/// `text` cut into parts of at least [`CHUNK`] bytes, each ending where a
/// top-level item starts, or past [`MAX_PART`] where a line starts (the
/// last one that begins at column 0 as a top-level item would, if any):
/// only a line longer than that makes a longer part.
pub(super) fn top_level_parts(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut parts = Vec::new();
    let mut start = 0;
    let mut prev_blank = false;
    // The last line past CHUNK that began at column 0 as an item would.
    let mut column0 = None;
    let mut pos = 0;
    while pos < b.len() {
        let end = memchr::memchr(b'\n', &b[pos..]).map_or(b.len(), |p| pos + p + 1);
        let line = &b[pos..end];
        let first = line.first().copied().unwrap_or(b'\n');
        let top = first.is_ascii_alphabetic() || matches!(first, b'/' | b'#' | b'@');
        if pos - start >= CHUNK {
            if prev_blank && top {
                parts.push(start..pos);
                start = pos;
                column0 = None;
            } else if pos - start >= MAX_PART {
                let cut = column0.unwrap_or(pos);
                parts.push(start..cut);
                start = cut;
                column0 = None;
            } else if top {
                column0 = Some(pos);
            }
        }
        prev_blank = line.iter().all(u8::is_ascii_whitespace);
        pos = end;
    }
    parts.push(start..b.len());
    parts
}

/// How much of a file a skeleton keeps. A view past its ceiling (compat's
/// view of the same file: lean is never larger) takes the next level.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Detail {
    /// Short bodies, examples, one whole test and doc comments' first and
    /// rule sentences stay.
    Full,
    /// Every body of a line or more is elided (tests too); comments as in
    /// `Full`.
    Bodies,
    /// The compact levels: every body, examples' too, is a bare `{}`; the
    /// package's doc comment and those of exported declarations and
    /// members keep their first sentence; every other comment on lines of
    /// its own or after code goes, but directives and cgo's preamble.
    Docs,
    /// As `Docs`, but only the package's and top-level declarations' docs.
    TopDocs,
    /// As `Docs`, with no doc comment: what compat's view keeps, with the
    /// first line's counts.
    Bare,
    /// As `Bare`, with Go's import list elided (its count kept): the last
    /// resort of a view that must not be larger than compat's.
    Signatures,
}

impl Detail {
    /// Richest first: a view takes the first whose view fits.
    const LEVELS: [Detail; 6] = [
        Detail::Full,
        Detail::Bodies,
        Detail::Docs,
        Detail::TopDocs,
        Detail::Bare,
        Detail::Signatures,
    ];

    /// Bodies are a bare `{}` and comments other than docs go.
    fn compact(self) -> bool {
        self >= Detail::Docs
    }
}

/// The skeleton of `text` in `lang` at the richest [`Detail`] whose view
/// has at most `ceiling` tokens (else the barest view).
pub(crate) fn skeleton_within(
    text: &str,
    lang: Language,
    tolerant: bool,
    ceiling: usize,
) -> Result<(String, Trace), Decline> {
    if text.len() >= CHUNKED_FROM {
        return skeleton(text, lang, "", tolerant);
    }
    skeleton_of(text, lang, "", tolerant, Some(ceiling))
}

/// The skeleton of one file (or part) in `lang`.
fn skeleton_of(
    text: &str,
    lang: Language,
    query: &str,
    tolerant: bool,
    ceiling: Option<usize>,
) -> Result<(String, Trace), Decline> {
    let mut clock = crate::timings::Clock::new("skeleton");
    let g = grammars::of(lang);
    let mut parser = Parser::new();
    parser
        .set_language(&(g.language)())
        .map_err(|_| Decline("grammar version mismatch"))?;
    let tree = parser
        .parse(text, None)
        .ok_or(Decline("the parser gave up"))?;
    clock.mark("parse");
    // A file the grammar reads with errors (macros, dialects) is cut only
    // where its functions parse, and only for the language detection
    // named; the view may not have more errors than the file.
    let errors = error_count(tree.root_node());
    if errors > 0 && !tolerant {
        return Err(Decline("the source does not parse cleanly in its language"));
    }
    let starts = line_starts(text);
    let Some(ceiling) = ceiling else {
        // The edits are byte ranges: the tree (~50 bytes a byte of C) goes
        // before the view is parsed again.
        let edits = plan(
            text,
            &g,
            &starts,
            lang,
            tree.root_node(),
            query,
            Detail::Full,
        );
        drop(tree);
        clock.mark("walk");
        return view(text, lang, &g, errors, edits, usize::MAX);
    };
    // One parse for every level: each walks the same tree, and only the
    // view a level keeps is parsed again to check it.
    let mut smallest: Option<((String, Trace), usize)> = None;
    for detail in Detail::LEVELS {
        let edits = plan(text, &g, &starts, lang, tree.root_node(), query, detail);
        if detail < Detail::Bare {
            if let Ok(v) = view(text, lang, &g, errors, edits, ceiling) {
                return Ok(v);
            }
            continue;
        }
        // The barest views: the first that fits, else the smaller.
        let Ok(v) = view(text, lang, &g, errors, edits, usize::MAX) else {
            continue;
        };
        let n = crate::tokens::count(v.0.as_bytes());
        if n <= ceiling {
            return Ok(v);
        }
        if smallest.as_ref().is_none_or(|(_, m)| n < *m) {
            smallest = Some((v, n));
        }
    }
    smallest.map(|(v, _)| v).ok_or(Decline(
        "no body, literal or comment to elide, or the view would not parse",
    ))
}

/// The edits of one view: bodies (but those the query keeps and, at
/// `Full`, one test), long literals and comments.
fn plan(
    text: &str,
    g: &Grammar,
    starts: &[usize],
    lang: Language,
    root: Node<'_>,
    query: &str,
    detail: Detail,
) -> Edits {
    let mut c = Collector {
        src: text,
        g,
        starts,
        test_file: test_file(text, lang),
        detail,
        funcs: Vec::new(),
        literals: Vec::new(),
        comments: Vec::new(),
    };
    c.walk(root);
    // The query keeps the bodies of the functions it matches.
    let mut keep = vec![false; c.funcs.len()];
    // A test file keeps one test whole: how its tests are written.
    let tests = c.funcs.iter().enumerate().filter(|(_, f)| f.test);
    let whole = tests
        .clone()
        .find(|(_, f)| f.edit.lines <= WHOLE_TEST_LINES)
        .or_else(|| tests.min_by_key(|(_, f)| f.edit.lines))
        .map(|(i, _)| i)
        .filter(|_| detail == Detail::Full);
    if let Some(i) = whole {
        keep[i] = true;
    }
    if !query.is_empty() && !c.funcs.is_empty() {
        let scores = relevance::scores_of(query, c.funcs.len(), |i| {
            text[c.funcs[i].whole.clone()].into()
        });
        for i in relevance::candidates(&scores, &keep)
            .into_iter()
            .take(QUERY_FILL)
        {
            keep[i] = true;
        }
    }
    let kept_by_query = keep.iter().filter(|&&k| k).count() - usize::from(whole.is_some());
    let bodies: Vec<Edit> = c
        .funcs
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| !k)
        .map(|(f, _)| f.edit)
        .collect();
    let docs = match detail {
        Detail::Full | Detail::Bodies => None,
        Detail::Docs => Some(comments::Docs::Exported),
        Detail::TopDocs => Some(comments::Docs::TopLevel),
        Detail::Bare | Detail::Signatures => Some(comments::Docs::None),
    };
    let comments = match docs {
        None => comments::plan(text, starts, &c.comments),
        Some(docs) => comments::compact(text, starts, &c.comments, docs, lang == Language::Go),
    };
    Edits {
        bodies,
        rest: c.literals.into_iter().chain(comments).collect(),
        kept_by_query,
    }
}

/// A view's planned edits.
struct Edits {
    bodies: Vec<Edit>,
    /// Literals and comments (a view that would not parse goes without).
    rest: Vec<Edit>,
    kept_by_query: usize,
}

/// The view with every edit, else with the bodies' alone, of at most
/// `room` tokens (counted only under a ceiling); it must parse.
fn view(
    text: &str,
    lang: Language,
    g: &Grammar,
    errors: usize,
    e: Edits,
    room: usize,
) -> Result<(String, Trace), Decline> {
    let mut clock = crate::timings::Clock::new("skeleton");
    let fits = |out: &str| room == usize::MAX || crate::tokens::count(out.as_bytes()) <= room;
    let full = apply(text, lang, g.comment, e.bodies.iter().chain(&e.rest));
    clock.mark("edits");
    let (out, used) = match full {
        Some((out, n)) if fits(&out) && parses(&out, g, errors) => (out, n),
        // Bodies alone, when literals or comments would break the view.
        _ => match apply(text, lang, g.comment, e.bodies.iter()) {
            Some((out, n)) if fits(&out) && parses(&out, g, errors) => (out, n),
            _ => {
                return Err(Decline(
                    "no body, literal or comment to elide, or the view would not parse",
                ))
            }
        },
    };
    clock.mark("check view parses");
    let mut trace = Trace::default();
    trace.add("function kept for the query", e.kept_by_query);
    trace.dropped = used;
    Ok((out, trace))
}

/// A file of tests: Go's `testing`, Python's pytest or unittest.
pub(super) fn test_file(text: &str, lang: Language) -> bool {
    match lang {
        Language::Go => text.contains("\"testing\""),
        Language::Python => {
            text.contains("import pytest")
                || text.contains("import unittest")
                || text.contains("\ndef test_")
        }
        _ => false,
    }
}

/// The view parses with no more errors than the source had.
fn parses(text: &str, g: &Grammar, errors: usize) -> bool {
    let mut p = Parser::new();
    p.set_language(&(g.language)()).is_ok()
        && p.parse(text, None)
            .is_some_and(|t| error_count(t.root_node()) <= errors)
}

/// Error and missing nodes in a tree.
fn error_count(root: Node<'_>) -> usize {
    if !root.has_error() {
        return 0;
    }
    let mut n = 0;
    let mut stack = vec![root];
    while let Some(x) = stack.pop() {
        if x.is_error() || x.is_missing() {
            n += 1;
            continue;
        }
        if x.has_error() {
            let mut cur = x.walk();
            stack.extend(x.children(&mut cur));
        }
    }
    n
}

/// Byte offset where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect()
}

/// The whitespace a line starts with.
fn indent_of<'a>(text: &'a str, starts: &[usize], row: usize) -> &'a str {
    let Some(&s) = starts.get(row) else {
        return "";
    };
    let line = &text[s..];
    let end = line
        .find(|c: char| c != ' ' && c != '\t')
        .unwrap_or(line.len());
    &line[..end]
}

struct Collector<'a> {
    src: &'a str,
    g: &'a Grammar,
    starts: &'a [usize],
    test_file: bool,
    detail: Detail,
    funcs: Vec<Func>,
    literals: Vec<Edit>,
    comments: Vec<Span>,
}

impl Collector<'_> {
    /// Visits the tree in document order, iteratively (deep nesting).
    fn walk(&mut self, root: Node<'_>) {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            let kind = n.kind();
            if kind.contains("comment") {
                // A line comment's node may hold its line break (Rust's
                // `///`): it ends on its own line.
                let (mut end, mut er) = (n.end_byte(), n.end_position().row);
                if self.src[..end].ends_with('\n') && n.end_position().column == 0 && er > 0 {
                    end -= 1;
                    er -= 1;
                }
                self.comments
                    .push((n.start_byte(), end, n.start_position().row, er));
                continue;
            }
            if kind == "import_spec_list" && self.detail == Detail::Signatures {
                if let Some(e) = imports(n) {
                    self.literals.push(e);
                    continue;
                }
            }
            if self.g.funcs.contains(&kind) && !self.detail.compact() && self.example(n) {
                // An example is documentation: kept whole, output and all.
                continue;
            }
            if self.g.funcs.contains(&kind) && !n.has_error() {
                if let Some(f) = self.func(n) {
                    self.funcs.push(f);
                    // The body is gone: nothing inside it matters, but the
                    // signature's children (parameters, attributes) may
                    // hold comments.
                    push_children(&mut stack, n, Some(f_body_start(self.funcs.last())));
                    continue;
                }
            } else if self.g.literals.contains(&kind) && !n.has_error() {
                if let Some(e) = self.literal(n) {
                    self.literals.push(e);
                    continue;
                }
            }
            push_children(&mut stack, n, None);
        }
    }

    /// Bodies shorter than this stay.
    fn min_body_lines(&self) -> usize {
        if self.detail == Detail::Full {
            MIN_BODY_LINES
        } else {
            1
        }
    }

    fn body<'t>(&self, n: Node<'t>) -> Option<Node<'t>> {
        let b = n.child_by_field_name("body").or_else(|| {
            let mut cur = n.walk();
            let found = n
                .named_children(&mut cur)
                .find(|c| self.g.bodies.contains(&c.kind()));
            found
        })?;
        if self.src[b.byte_range()].starts_with('{') {
            return Some(b);
        }
        // A wrapper (Kotlin's function_body, Swift's) around the block.
        let mut cur = b.walk();
        let inner = b
            .named_children(&mut cur)
            .find(|c| self.src[c.byte_range()].starts_with('{'));
        inner.or(Some(b))
    }

    /// The function's name, if it has one.
    fn name(&self, n: Node<'_>) -> &str {
        n.child_by_field_name("name")
            .map_or("", |x| &self.src[x.byte_range()])
    }

    /// A Go example function (`ExampleX`) or a function whose body ends
    /// with the output it prints (`// Output:`).
    fn example(&self, n: Node<'_>) -> bool {
        let whole = &self.src[n.byte_range()];
        self.name(n).starts_with("Example")
            || whole.contains("// Output:")
            || whole.contains("// Unordered output:")
    }

    fn func(&self, n: Node<'_>) -> Option<Func> {
        let name = self.name(n);
        let test = self.test_file && (name.starts_with("Test") || name.starts_with("test"));
        let b = self.body(n)?;
        let body_text = &self.src[b.byte_range()];
        let (sr, er) = (b.start_position().row, b.end_position().row);
        let c = self.g.comment;
        let edit = match self.g.style {
            Style::Braces | Style::ShellBraces | Style::Indented(_)
                if body_text.starts_with('{') && body_text.ends_with('}') =>
            {
                let interior = er.saturating_sub(sr + 1);
                // The compact views empty one-line bodies too, as compat.
                let one_line = er == sr
                    && self.detail.compact()
                    && !body_text[1..body_text.len() - 1].trim().is_empty();
                if !one_line && (er == sr || interior < self.min_body_lines()) {
                    return None;
                }
                let close = indent_of(self.src, self.starts, er);
                let inner = (sr + 1..er)
                    .map(|r| indent_of(self.src, self.starts, r))
                    .find(|i| !i.is_empty())
                    .map_or_else(|| format!("{close}    "), str::to_string);
                let filler = if self.g.style == Style::ShellBraces {
                    ": "
                } else {
                    ""
                };
                // The compact views spend no more on a body than compat
                // does: `{}`, which the header's count explains.
                let text = if self.detail.compact() {
                    "{}".to_string()
                } else {
                    format!("{{\n{inner}{filler}{c} \u{2026} {interior} lines elided\n{close}}}")
                };
                Edit {
                    range: b.byte_range(),
                    text,
                    lines: interior,
                    kind: EditKind::Body,
                }
            }
            Style::Indented(filler) => {
                if b.kind() == "expression" || body_text.starts_with('{') {
                    return None;
                }
                let lines = er - sr + 1;
                if lines < self.min_body_lines() {
                    return None;
                }
                let inner = indent_of(self.src, self.starts, sr);
                let doc = comments::docstring(self.src, b, inner)
                    .map(|d| format!("{d}\n{inner}"))
                    .unwrap_or_default();
                Edit {
                    range: b.byte_range(),
                    text: format!("{doc}{filler}  {c} \u{2026} {lines} lines elided"),
                    lines,
                    kind: EditKind::Body,
                }
            }
            Style::Statements => {
                let lines = er - sr + 1;
                if lines < self.min_body_lines() {
                    return None;
                }
                Edit {
                    range: b.byte_range(),
                    text: format!("{c} \u{2026} {lines} lines elided"),
                    lines,
                    kind: EditKind::Body,
                }
            }
            _ => return None,
        };
        Some(Func {
            whole: n.byte_range(),
            test,
            edit,
        })
    }

    fn literal(&self, n: Node<'_>) -> Option<Edit> {
        let (sr, er) = (n.start_position().row, n.end_position().row);
        let limit = if self.test_file {
            TABLE_LINES
        } else {
            LITERAL_LINES
        };
        if er - sr <= limit || n.child_count() < 2 {
            return None;
        }
        let open = n.child(0)?;
        let close = n.child(n.child_count() as u32 - 1)?;
        if open.is_named() || close.is_named() {
            return None;
        }
        let (or, cr) = (open.end_position().row, close.start_position().row);
        let interior = cr.saturating_sub(or + 1);
        if interior < limit {
            return None;
        }
        let close_indent = indent_of(self.src, self.starts, cr);
        let inner = indent_of(self.src, self.starts, or + 1);
        let c = if self.g.comment == "#" { "#" } else { "//" };
        if self.test_file {
            if let Some(e) = self.table_head(n, or, cr, &format!("{inner}{c}"), close_indent) {
                return Some(e);
            }
        }
        Some(Edit {
            range: open.end_byte()..close.start_byte(),
            text: format!("\n{inner}{c} \u{2026} {interior} lines elided\n{close_indent}"),
            lines: interior,
            kind: EditKind::Literal,
        })
    }

    /// A case table of a test file cut after the entries on its first
    /// [`TABLE_KEEP`] lines (`or` is the opening row, `cr` the closing
    /// one), where an entry ends a line.
    fn table_head(
        &self,
        n: Node<'_>,
        or: usize,
        cr: usize,
        marker: &str,
        close_indent: &str,
    ) -> Option<Edit> {
        let mut cur = n.walk();
        let kids: Vec<Node<'_>> = n
            .named_children(&mut cur)
            .filter(|k| !k.kind().contains("comment"))
            .collect();
        let kept = kids
            .iter()
            .take_while(|k| k.end_position().row <= or + TABLE_KEEP)
            .count();
        let last = kids.get(kept.checked_sub(1)?)?.end_position().row;
        let next = kids.get(kept)?;
        if next.start_position().row <= last || last + 1 >= cr {
            return None;
        }
        let lines = cr - last - 1;
        let more = kids.len() - kept;
        let close = n.child(n.child_count() as u32 - 1)?;
        Some(Edit {
            range: self.starts[last + 1]..close.start_byte(),
            text: format!(
                "{marker} \u{2026} {lines} more lines ({more} more entries) elided\n{close_indent}"
            ),
            lines,
            kind: EditKind::Literal,
        })
    }
}

/// Go's parenthesised import list as `(/* … N imports elided */)`.
fn imports(n: Node<'_>) -> Option<Edit> {
    let mut cur = n.walk();
    let k = n
        .named_children(&mut cur)
        .filter(|c| c.kind() == "import_spec")
        .count();
    (k >= 2).then(|| Edit {
        range: n.byte_range(),
        text: format!("(/* \u{2026} {k} imports elided */)"),
        lines: k,
        kind: EditKind::Imports,
    })
}

fn f_body_start(f: Option<&Func>) -> usize {
    f.map_or(usize::MAX, |f| f.edit.range.start)
}

/// Pushes `n`'s children (those before `before`, when given) so that they
/// pop in document order.
fn push_children<'t>(stack: &mut Vec<Node<'t>>, n: Node<'t>, before: Option<usize>) {
    let mut cur = n.walk();
    let kids: Vec<Node<'t>> = n
        .children(&mut cur)
        .filter(|k| before.is_none_or(|b| k.end_byte() <= b))
        .collect();
    stack.extend(kids.into_iter().rev());
}

/// Declarations of a syntax tree, for the differential test: (kind, name)
/// of every node that has a `name` field, outside function bodies.
#[cfg(test)]
pub(crate) fn declarations(text: &str, lang: Language) -> Vec<(String, String)> {
    let g = grammars::of(lang);
    let mut parser = Parser::new();
    parser.set_language(&(g.language)()).unwrap();
    let tree = parser.parse(text, None).unwrap();
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if let Some(name) = n.child_by_field_name("name") {
            out.push((n.kind().to_string(), text[name.byte_range()].to_string()));
        }
        if g.funcs.contains(&n.kind()) {
            // Only the signature: what a body holds is elided.
            continue;
        }
        let mut cur = n.walk();
        let kids: Vec<Node<'_>> = n.children(&mut cur).collect();
        stack.extend(kids.into_iter().rev());
    }
    out
}
