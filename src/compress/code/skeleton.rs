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
//! `--query` keeps the bodies of the functions it matches best.

use std::ops::Range;

use tree_sitter::{Node, Parser};

use super::comments::{self, Span};
use super::grammars::{self, Grammar, Style};
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
        return skeleton_of(text, lang, query, tolerant);
    }
    let parts = top_level_parts(text);
    let views = crate::par::map_each(&parts, crate::par::workers(), |r| {
        (r.len() <= MAX_PARSE)
            .then(|| skeleton_of(&text[r.clone()], lang, query, tolerant).ok())
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

/// The skeleton of one file (or part) in `lang`.
fn skeleton_of(
    text: &str,
    lang: Language,
    query: &str,
    tolerant: bool,
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
    let mut c = Collector {
        src: text,
        g: &g,
        starts: &starts,
        test_file: test_file(text, lang),
        funcs: Vec::new(),
        literals: Vec::new(),
        comments: Vec::new(),
    };
    c.walk(tree.root_node());
    // The edits are byte ranges: the tree (~50 bytes a byte of C) goes
    // before the view is parsed again.
    drop(tree);
    clock.mark("walk");
    // The query keeps the bodies of the functions it matches.
    let mut keep = vec![false; c.funcs.len()];
    // A test file keeps one test whole: how its tests are written.
    let tests = c.funcs.iter().enumerate().filter(|(_, f)| f.test);
    let whole = tests
        .clone()
        .find(|(_, f)| f.edit.lines <= WHOLE_TEST_LINES)
        .or_else(|| tests.min_by_key(|(_, f)| f.edit.lines))
        .map(|(i, _)| i);
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
    let comments = comments::plan(text, &starts, &c.comments);
    let full = apply(
        text,
        lang,
        &g,
        bodies.iter().chain(&c.literals).chain(&comments),
    );
    clock.mark("edits");
    let (out, used) = match &full {
        Some((out, n)) if parses(out, &g, errors) => (out.clone(), *n),
        // Bodies alone, when literals or comments would break the view.
        _ => match apply(text, lang, &g, bodies.iter()) {
            Some((out, n)) if parses(&out, &g, errors) => (out, n),
            _ => {
                return Err(Decline(
                    "no body, literal or comment to elide, or the view would not parse",
                ))
            }
        },
    };
    clock.mark("check view parses");
    let mut trace = Trace::default();
    trace.add("function kept for the query", kept_by_query);
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
            if self.g.funcs.contains(&kind) && self.example(n) {
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
                if er == sr || interior < MIN_BODY_LINES {
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
                Edit {
                    range: b.byte_range(),
                    text: format!(
                        "{{\n{inner}{filler}{c} \u{2026} {interior} lines elided\n{close}}}"
                    ),
                    lines: interior,
                    kind: EditKind::Body,
                }
            }
            Style::Indented(filler) => {
                if b.kind() == "expression" || body_text.starts_with('{') {
                    return None;
                }
                let lines = er - sr + 1;
                if lines < MIN_BODY_LINES {
                    return None;
                }
                let inner = indent_of(self.src, self.starts, sr);
                let doc = docstring(self.src, b, inner)
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
                if lines < MIN_BODY_LINES {
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

/// A Python docstring opening a block, cut to its first sentence and
/// the sentences that state rules (see [`comments::shorten`]), as a
/// string literal; `None` when it has nothing to cut or cannot be cut
/// safely.
fn docstring(src: &str, block: Node<'_>, indent: &str) -> Option<String> {
    let first = block.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let s = first.named_child(0)?;
    if s.kind() != "string" {
        return None;
    }
    let raw = &src[s.byte_range()];
    let quote = ["\"\"\"", "'''", "\"", "'"]
        .into_iter()
        .find(|q| raw.ends_with(q))?;
    let open = raw.find(quote)?;
    let prefix = &raw[..open];
    let inner = raw[open + quote.len()..raw.len() - quote.len()].trim();
    let lines: Vec<&str> = inner.lines().map(str::trim).collect();
    let kept = if lines.len() <= 2 {
        vec![lines.join(" ")]
    } else {
        comments::shorten(&lines, false, 72).unwrap_or_else(|| vec![lines[0].to_string()])
    };
    let text = kept.join(" ");
    if text.contains(quote) || kept.iter().any(|l| l.ends_with('\\')) {
        return None;
    }
    if kept.len() == 1 || quote.len() == 1 {
        return Some(format!("{prefix}{quote}{text}{quote}"));
    }
    let mut out = format!("{prefix}{quote}{}", kept[0]);
    for l in &kept[1..] {
        out.push('\n');
        if !l.is_empty() {
            out.push_str(indent);
            out.push_str(l);
        }
    }
    out.push('\n');
    out.push_str(indent);
    out.push_str(quote);
    Some(out)
}

/// The source with the edits applied (overlapping ones skipped) and a
/// first comment line that says what was cut; `None` when nothing was.
fn apply<'e>(
    text: &str,
    lang: Language,
    g: &Grammar,
    edits: impl Iterator<Item = &'e Edit>,
) -> Option<(String, usize)> {
    let mut es: Vec<&Edit> = edits.collect();
    es.sort_by_key(|e| (e.range.start, std::cmp::Reverse(e.range.end)));
    let mut out = String::with_capacity(text.len() / 2);
    let mut at = 0;
    let (mut bodies, mut body_lines, mut literals, mut comments) = (0, 0, 0, 0);
    let (mut guides, mut repeats) = (0, 0);
    for e in es {
        if e.range.start < at {
            continue;
        }
        out.push_str(&text[at..e.range.start]);
        out.push_str(&e.text);
        at = e.range.end;
        match e.kind {
            EditKind::Body => {
                bodies += 1;
                body_lines += e.lines;
            }
            EditKind::Literal => literals += 1,
            EditKind::Comment => comments += 1,
            EditKind::Guide => guides += 1,
            EditKind::Repeat => repeats += 1,
            EditKind::Note => {}
        }
    }
    let used = bodies + literals + comments + guides + repeats;
    if used == 0 {
        return None;
    }
    out.push_str(&text[at..]);
    let c = g.comment;
    let mut note = format!("{c} caveman: {lang} skeleton:");
    if bodies > 0 {
        note.push_str(&format!(
            " {bodies} function bodies ({body_lines} lines) elided"
        ));
    }
    if literals > 0 {
        note.push_str(&format!(", {literals} long literals elided"));
    }
    if comments > 0 {
        note.push_str(&format!(
            ", {comments} doc comments cut to their first and rule sentences (\u{2026} marks each cut)"
        ));
    }
    if guides > 0 {
        note.push_str(&format!(
            ", {guides} long comments cut to headings, short examples and each \
             paragraph's first and rule sentences"
        ));
    }
    if repeats > 0 {
        note.push_str(&format!(
            ", {repeats} copies of repeated comments dropped (the first copy says how many)"
        ));
    }
    if bodies == 0 {
        note = note.replacen("skeleton:, ", "skeleton: ", 1);
    }
    note.push('\n');
    // After a `#!` or `<?php` line.
    let first_end = out.find('\n').map_or(out.len(), |i| i + 1);
    let at = if out.starts_with("#!") || out.starts_with("<?php") {
        first_end
    } else {
        0
    };
    if at == out.len() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.insert_str(at.min(out.len()), &note);
    Some((out, used))
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
