//! Comments in the lean code skeleton.
//!
//! A doc comment longer than [`DOC_LINES`] lines keeps its first sentence
//! and every sentence that states a rule (nil, zero, empty, default,
//! panics, must, must not, deprecated, …: [`key`]), cut only where a
//! sentence ends, with `…` where text was left out. A comment that is a
//! large part of its file (a package guide) keeps its headings, each
//! paragraph's first sentence and its short code examples.
//!
//! Never cut: directives (`//go:…`, `//export`, `// +build`, lint
//! pragmas), the comment before `import "C"` (cgo's C preamble) and a
//! comment that reads as code. A comment repeated word for word away from
//! any declaration (a generated file's banner before every function) is
//! kept once, with its count. A Python docstring is cut as a doc comment.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;
use tree_sitter::Node;

use super::skeleton::{Edit, EditKind};
use crate::compress::doc::{normative, sentences};

/// Comments of at most this many lines stay whole.
const DOC_LINES: usize = 2;
/// A comment with at least a third of the file's lines (and this many)
/// is read as a guide.
const GUIDE_MIN_ROWS: usize = 20;
/// A guide keeps code examples of at most this many lines.
const GUIDE_CODE_LINES: usize = 8;
/// A detached comment seen this many times is kept once.
const REPEAT_MIN: usize = 3;

/// Words of a doc comment sentence that states a rule of the API, beyond
/// the prose rules ([`normative`]): what nil, zero, empty or negative
/// values do, what panics, what is returned when, what is not done.
static RULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(nil|null|none|zero|empty|negative|panics?|deprecated|unsafe|not safe",
        r"|concurrent(ly)?|blocks? until|returns? (false|true|nil|null|none|an? error|errors?|-1|0)",
        r"|(does|do|is|are|will|may|can|need) not|reports whether|otherwise|instead)\b",
    ))
    .expect("rule pattern")
});

/// A sentence kept beyond a doc comment's first.
pub(super) fn key(s: &str) -> bool {
    normative(s) || RULE.is_match(s)
}

/// A comment node: bytes and first and last rows.
pub(super) type Span = (usize, usize, usize, usize);

/// One comment on lines of its own: a block comment, or a run of line
/// comments on consecutive lines at one column.
struct Group {
    start: usize,
    end: usize,
    r0: usize,
    r1: usize,
    block: bool,
}

/// The edits of the comments of a file.
pub(super) fn plan(text: &str, starts: &[usize], comments: &[Span]) -> Vec<Edit> {
    let line = |row: usize| line_at(text, starts, row);
    let groups = groups(text, starts, comments);
    let mut out = Vec::new();
    let mut folded = vec![false; groups.len()];
    fold_repeats(text, starts, &groups, &mut folded, &mut out);
    let rows = starts.len();
    for (g, _) in groups.iter().zip(&folded).filter(|(_, &f)| !f) {
        if g.r1 - g.r0 < DOC_LINES || before_import_c(&line, g.r1, rows) {
            continue;
        }
        let guide = (g.r1 - g.r0 + 1) * 3 >= rows && g.r1 - g.r0 + 1 >= GUIDE_MIN_ROWS;
        let lines = if g.block {
            match block_lines(&line, g) {
                Some(l) => l,
                None => continue,
            }
        } else {
            (g.r0..=g.r1).map(|r| comment_line(line(r))).collect()
        };
        if reads_as_code(&lines) {
            continue;
        }
        // Directives split the comment: the prose between them is cut.
        for seg in lines.split(|l| l.directive) {
            if seg.len() > DOC_LINES {
                out.extend(cut(text, starts, seg, guide));
            }
        }
    }
    out
}

/// Which doc comments a compact view keeps, cut to their first sentence.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Docs {
    /// The package's and those of exported declarations and members.
    Exported,
    /// The package's and those of exported top-level declarations.
    TopLevel,
    /// None.
    None,
}

/// The edits of a compact view's comments: a doc comment `docs` keeps is
/// cut to its first sentence (on one line); every other comment on lines
/// of its own goes (with a blank line after it when one stands before it
/// too), and so does a line comment after code; a comment holding a
/// directive and cgo's C preamble stay. `go` says capitalised names are
/// the exported ones; in other languages every declaration is.
pub(super) fn compact(
    text: &str,
    starts: &[usize],
    comments: &[Span],
    docs: Docs,
    go: bool,
) -> Vec<Edit> {
    let line = |row: usize| line_at(text, starts, row);
    let rows = starts.len();
    let blank = |row: usize| line(row).trim().is_empty();
    let mut out = Vec::new();
    for g in groups(text, starts, comments) {
        let directive = (g.r0..=g.r1).any(|r| comment_line(line(r)).directive);
        // Code after a block comment's end keeps its line.
        let after = text[g.end..].split('\n').next().unwrap_or("");
        if before_import_c(&line, g.r1, rows) {
            out.extend(c_bodies(text, starts, g.r0, g.r1));
            continue;
        }
        if directive || !after.trim().is_empty() {
            continue;
        }
        let next = if g.r1 + 1 < rows { line(g.r1 + 1) } else { "" };
        if documents(next, docs, go) {
            out.extend(first_sentence(starts, &line, &g));
            continue;
        }
        let mut last = g.r1;
        if (g.r0 == 0 || blank(g.r0 - 1)) && last + 1 < rows && blank(last + 1) {
            last += 1;
        }
        let end = starts.get(last + 1).copied().unwrap_or(text.len());
        out.push(Edit {
            range: starts[g.r0]..end,
            text: String::new(),
            lines: g.r1 - g.r0 + 1,
            kind: EditKind::Dropped,
        });
    }
    // A line comment after code goes with the spaces before it.
    for &(s, e, r0, r1) in comments {
        let before = &text[starts[r0]..s];
        let rest = text[e..].split('\n').next().unwrap_or("");
        let t = &text[s..e];
        if r0 != r1 || before.trim().is_empty() || !rest.trim().is_empty() {
            continue;
        }
        if !(t.starts_with("//") || t.starts_with('#')) || comment_line(t).directive {
            continue;
        }
        let from = starts[r0] + before.trim_end().len();
        out.push(Edit {
            range: from..e,
            text: String::new(),
            lines: 0,
            kind: EditKind::Dropped,
        });
    }
    out
}

/// The comment ending on the line before `next` documents what `docs`
/// keeps: the package clause, or a declaration (at column 0 for
/// [`Docs::TopLevel`]) whose name is exported.
fn documents(next: &str, docs: Docs, go: bool) -> bool {
    if docs == Docs::None || next.trim().is_empty() {
        return false;
    }
    let t = next.trim_start();
    if t.starts_with("package ") {
        return true;
    }
    if docs == Docs::TopLevel && t.len() != next.len() {
        return false;
    }
    let mut rest = t;
    for kw in ["func ", "type ", "var ", "const "] {
        if let Some(r) = t.strip_prefix(kw) {
            rest = r.trim_start();
            break;
        }
    }
    // A method: the name after its receiver.
    if t.starts_with("func (") {
        rest = rest.find(')').map_or("", |i| rest[i + 1..].trim_start());
    }
    // A group (`var (`) is documented as a whole.
    if rest.starts_with('(') {
        return true;
    }
    let name = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    !name.is_empty() && (!go || name.starts_with(|c: char| c.is_uppercase()))
}

#[cfg(test)]
pub(super) fn documents_for_test(next: &str, docs: Docs, go: bool) -> bool {
    documents(next, docs, go)
}

/// The edit that cuts comment group `g` to its first sentence on one line
/// (none when that is all it says on one line).
fn first_sentence<'a>(
    starts: &[usize],
    line: &impl Fn(usize) -> &'a str,
    g: &Group,
) -> Option<Edit> {
    let lines = if g.block {
        block_lines(line, g)?
    } else {
        (g.r0..=g.r1).map(|r| comment_line(line(r))).collect()
    };
    // The first paragraph, joined.
    let para: Vec<&str> = lines
        .iter()
        .map(|l| l.content().trim())
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    let joined = para.join(" ");
    let first = sentences(&joined).into_iter().next()?;
    let sentence = joined[first].trim();
    // Nothing to cut: a sentence on one line, or all the comment says.
    let all: Vec<&str> = lines.iter().map(|l| l.content().trim()).collect();
    if sentence.is_empty() || (g.r0 == g.r1 && !g.block) || sentence == all.join(" ").trim() {
        return None;
    }
    let first_line = line(g.r0);
    let indent = &first_line[..first_line.len() - first_line.trim_start().len()];
    let lead = if g.block {
        format!("{indent}// ")
    } else {
        first_line[..lines[0].prefix].to_string()
    };
    Some(Edit {
        range: starts[g.r0]..starts[g.r1] + line(g.r1).len(),
        text: format!("{lead}{sentence}"),
        lines: g.r1 - g.r0,
        kind: EditKind::First,
    })
}

fn line_at<'a>(text: &'a str, starts: &[usize], row: usize) -> &'a str {
    let s = starts[row];
    let e = starts.get(row + 1).map_or(text.len(), |e| e - 1);
    text[s..e].strip_suffix('\r').unwrap_or(&text[s..e])
}

fn groups(text: &str, starts: &[usize], comments: &[Span]) -> Vec<Group> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < comments.len() {
        let (s0, e0, r0, r1) = comments[i];
        // Only a comment on its own line (not after code).
        let alone = text[starts[r0]..s0].trim().is_empty();
        if r1 > r0 {
            if alone {
                out.push(Group {
                    start: s0,
                    end: e0,
                    r0,
                    r1,
                    block: true,
                });
            }
            i += 1;
            continue;
        }
        let col = s0 - starts[r0];
        let mut j = i;
        while j + 1 < comments.len() {
            let (s, _, r, rr) = comments[j + 1];
            if r == comments[j].3 + 1 && rr == r && s - starts[r] == col {
                j += 1;
            } else {
                break;
            }
        }
        if alone {
            out.push(Group {
                start: s0,
                end: comments[j].1,
                r0,
                r1: comments[j].3,
                block: false,
            });
        }
        i = j + 1;
    }
    out
}

/// A line comment is kept once with its count when the same text stands
/// on its own (a blank line after it) [`REPEAT_MIN`] times or more.
fn fold_repeats(
    text: &str,
    starts: &[usize],
    groups: &[Group],
    folded: &mut [bool],
    out: &mut Vec<Edit>,
) {
    let blank = |row: usize| row >= starts.len() || line_at(text, starts, row).trim().is_empty();
    let mut seen: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (k, g) in groups.iter().enumerate() {
        let body = &text[g.start..g.end];
        let directive = (g.r0..=g.r1).any(|r| comment_line(line_at(text, starts, r)).directive);
        if !g.block && !directive && blank(g.r1 + 1) && body.trim().len() >= 16 {
            seen.entry(body).or_default().push(k);
        }
    }
    for ks in seen.values().filter(|ks| ks.len() >= REPEAT_MIN) {
        let n = ks.len();
        let first = &groups[ks[0]];
        out.push(Edit {
            range: first.end..first.end,
            text: format!(
                " (caveman: {n} times in this file; the {} later copies dropped)",
                n - 1
            ),
            lines: 0,
            kind: EditKind::Note,
        });
        for &k in &ks[1..] {
            let g = &groups[k];
            // The comment's lines and the blank line after it.
            let end = starts.get(g.r1 + 2).copied().unwrap_or(text.len());
            out.push(Edit {
                range: starts[g.r0]..end,
                text: String::new(),
                lines: g.r1 - g.r0 + 1,
                kind: EditKind::Repeat,
            });
            folded[k] = true;
        }
    }
}

/// The bodies of the C functions in cgo's preamble (rows `r0..=r1`), each
/// a bare `{}` as a Go body is at the compact levels: a function opens at
/// column 0 with `) {` (or a `{` line after a `)` line) and closes at the
/// next `}` at column 0. Declarations, `#include`s, `#cgo` flags and
/// type definitions stay.
fn c_bodies(text: &str, starts: &[usize], r0: usize, r1: usize) -> Vec<Edit> {
    // A row's code: a `//` preamble's line without its marks.
    let code = |row: usize| {
        let raw = line_at(text, starts, row);
        let t = raw.trim_start();
        match t.strip_prefix("//") {
            Some(rest) if raw.len() == t.len() => {
                let rest = rest.strip_prefix(' ').unwrap_or(rest);
                (starts[row] + raw.len() - rest.len(), rest)
            }
            _ => (starts[row], raw),
        }
    };
    let mut out = Vec::new();
    let mut row = r0;
    while row <= r1 {
        let (at, c) = code(row);
        let c = c.trim_end();
        let opens = !c.starts_with([' ', '\t'])
            && (c.ends_with(") {")
                || (c == "{" && row > r0 && code(row - 1).1.trim_end().ends_with(')')));
        if !opens {
            row += 1;
            continue;
        }
        let close = (row + 1..=r1).find(|&r| code(r).1.trim_end() == "}");
        let Some(close) = close else { break };
        if close > row + 1 {
            let (close_at, _) = code(close);
            out.push(Edit {
                range: at + c.len() - 1..close_at + 1,
                text: "{}".to_string(),
                lines: close - row - 1,
                kind: EditKind::Body,
            });
        }
        row = close + 1;
    }
    out
}

/// The next line that is not blank is `import "C"`: the comment is C code.
fn before_import_c<'a>(line: &impl Fn(usize) -> &'a str, r1: usize, rows: usize) -> bool {
    (r1 + 1..rows)
        .map(line)
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim() == "import \"C\"")
}

/// One line of a comment: its prefix (indentation and comment marks) and
/// its text.
#[derive(Clone, Copy)]
struct Line<'a> {
    row_text: &'a str,
    prefix: usize,
    directive: bool,
}

impl<'a> Line<'a> {
    fn content(&self) -> &'a str {
        &self.row_text[self.prefix..]
    }
}

fn comment_line(raw: &str) -> Line<'_> {
    let t = raw.trim_start();
    let ws = raw.len() - t.len();
    let marks = t
        .find(|c: char| !matches!(c, '/' | '!' | '#'))
        .unwrap_or(t.len());
    let space = usize::from(t[marks..].starts_with(' '));
    Line {
        row_text: raw,
        prefix: ws + marks + space,
        directive: directive(t),
    }
}

/// A line a tool reads: `//go:noescape`, `//export F`, `//line`, `//nolint`,
/// `// +build`, `#cgo`, lint and type-checker pragmas.
fn directive(t: &str) -> bool {
    if let Some(rest) = t.strip_prefix("//") {
        return rest.starts_with(|c: char| c.is_ascii_lowercase())
            || [
                " +build",
                " eslint",
                " @ts-",
                " prettier-ignore",
                " NOLINT",
                " istanbul",
            ]
            .iter()
            .any(|p| rest.starts_with(p));
    }
    if let Some(rest) = t.strip_prefix('#') {
        return rest.starts_with("cgo")
            || [
                " noqa",
                " type:",
                " pylint:",
                " shellcheck",
                " fmt:",
                " pragma",
                " -*-",
            ]
            .iter()
            .any(|p| rest.starts_with(p));
    }
    false
}

/// The lines of a block comment that may be cut: from the opening line
/// (when it holds text) to the line before the closing `*/` line.
fn block_lines<'a>(line: &impl Fn(usize) -> &'a str, g: &Group) -> Option<Vec<Line<'a>>> {
    if !line(g.r1).trim_start().starts_with("*/") {
        return None;
    }
    let mut out = Vec::new();
    let first = line(g.r0);
    let t = first.trim_start();
    let open = ["/**", "/*!", "/*"]
        .into_iter()
        .find(|o| t.starts_with(o))?;
    let rest = &t[open.len()..];
    if !rest.trim().is_empty() {
        let prefix = first.len() - rest.len() + usize::from(rest.starts_with(' '));
        out.push(Line {
            row_text: first,
            prefix,
            directive: false,
        });
    }
    let middle: Vec<&str> = (g.r0 + 1..g.r1).map(line).collect();
    // Lines without a leading `*` lose the indentation they share.
    let shared = middle
        .iter()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('*'))
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    for l in middle {
        let t = l.trim_start();
        let prefix = if let Some(rest) = t.strip_prefix('*') {
            let ws = l.len() - t.len();
            ws + 1 + usize::from(rest.starts_with(' '))
        } else {
            shared.min(l.len())
        };
        out.push(Line {
            row_text: l,
            prefix,
            directive: t.starts_with("#cgo"),
        });
    }
    Some(out)
}

/// Most of the comment's lines end like statements or are preprocessor
/// lines: commented-out or embedded code, kept whole.
fn reads_as_code(lines: &[Line<'_>]) -> bool {
    let text: Vec<&str> = lines
        .iter()
        .map(|l| l.content().trim())
        .filter(|l| !l.is_empty())
        .collect();
    let code = text
        .iter()
        .filter(|l| {
            l.ends_with([';', '{', '}'])
                || ["#include", "#define", "#if", "#endif", "#cgo"]
                    .iter()
                    .any(|p| l.starts_with(p))
        })
        .count();
    text.len() >= 2 && code * 2 >= text.len()
}

/// The edit that shortens one run of comment lines, if it saves enough.
fn cut(text: &str, starts: &[usize], seg: &[Line<'_>], guide: bool) -> Option<Edit> {
    let contents: Vec<&str> = seg.iter().map(Line::content).collect();
    let width = contents.iter().map(|c| c.len()).max().unwrap_or(0).max(60);
    let kept = shorten(&contents, guide, width)?;
    let row_of = |l: &Line<'_>| {
        let at = l.row_text.as_ptr() as usize - text.as_ptr() as usize;
        starts.partition_point(|&s| s <= at) - 1
    };
    let (first, last) = (row_of(&seg[0]), row_of(&seg[seg.len() - 1]));
    let lead = &seg[0].row_text[..seg[0].prefix];
    // Later lines take the prefix of the first later line with text (a
    // blank `//` line has no space after its marks).
    let next = seg[1..]
        .iter()
        .find(|l| !l.content().trim().is_empty())
        .map_or(lead, |l| &l.row_text[..l.prefix]);
    let mut out = String::new();
    for (k, l) in kept.iter().enumerate() {
        let p = if k == 0 { lead } else { next };
        if k > 0 {
            out.push('\n');
        }
        if l.is_empty() {
            out.push_str(p.trim_end());
        } else {
            out.push_str(p);
            out.push_str(l);
        }
    }
    let end = starts[last] + seg[seg.len() - 1].row_text.len();
    Some(Edit {
        range: starts[first]..end,
        text: out,
        lines: seg.len() - kept.len(),
        kind: if guide {
            EditKind::Guide
        } else {
            EditKind::Comment
        },
    })
}

/// A piece of a doc comment.
enum Block {
    /// A paragraph or list item: its lines, trimmed; the first line's
    /// indentation; whether it is a tag line (`@param`, `:returns:`).
    Para(Vec<String>, String, bool),
    Heading(String),
    Code(Vec<String>),
}

fn blocks(lines: &[&str]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut para: Option<(Vec<String>, String, bool)> = None;
    let mut code: Vec<String> = Vec::new();
    let mut fence = false;
    let flush = |para: &mut Option<(Vec<String>, String, bool)>, out: &mut Vec<Block>| {
        if let Some((l, lead, tag)) = para.take() {
            out.push(Block::Para(l, lead, tag));
        }
    };
    for &l in lines {
        let t = l.trim();
        if fence || t.starts_with("```") {
            flush(&mut para, &mut out);
            code.push(l.to_string());
            if t.starts_with("```") {
                fence = !fence;
            }
            if !fence {
                out.push(Block::Code(std::mem::take(&mut code)));
            }
            continue;
        }
        let indented = l.starts_with([' ', '\t']);
        let item = t.starts_with("- ")
            || t.starts_with("* ")
            || t.starts_with("+ ")
            || t.split_once(['.', ')']).is_some_and(|(n, r)| {
                !n.is_empty()
                    && n.len() <= 3
                    && n.bytes().all(|b| b.is_ascii_digit())
                    && r.starts_with(' ')
            });
        let tag = t.starts_with('@')
            || t.starts_with(":param")
            || t.starts_with(":return")
            || t.starts_with(":raise");
        if t.is_empty() {
            flush(&mut para, &mut out);
            if !code.is_empty() {
                code.push(String::new());
            }
            continue;
        }
        if indented && !item && para.is_none() {
            flush(&mut para, &mut out);
            code.push(l.to_string());
            continue;
        }
        if !code.is_empty() {
            while code.last().is_some_and(String::is_empty) {
                code.pop();
            }
            out.push(Block::Code(std::mem::take(&mut code)));
        }
        if !indented && t.starts_with("# ") && t.len() > 2 {
            flush(&mut para, &mut out);
            out.push(Block::Heading(l.to_string()));
            continue;
        }
        if item || tag {
            flush(&mut para, &mut out);
        }
        match &mut para {
            Some((ls, _, _)) => ls.push(t.to_string()),
            None => {
                let lead = l[..l.len() - l.trim_start().len()].to_string();
                para = Some((vec![t.to_string()], lead, tag));
            }
        }
    }
    flush(&mut para, &mut out);
    while code.last().is_some_and(String::is_empty) {
        code.pop();
    }
    if !code.is_empty() {
        out.push(Block::Code(code));
    }
    out
}

/// The lines a doc comment keeps: its first sentence and the sentences
/// that state rules (a guide: headings, each paragraph's first sentence
/// and short examples too), with `…` where text was left out, wrapped at
/// `width`. `None` when that would save little.
pub(super) fn shorten(lines: &[&str], guide: bool, width: usize) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut dropped = false;
    // Something was left out since the last line written.
    let mut gap = false;
    let mut first_para = true;
    let mut prev_item = false;
    for b in blocks(lines) {
        let piece: Option<(Vec<String>, bool)> = match b {
            Block::Heading(h) if guide => Some((vec![h], false)),
            Block::Code(c) if guide && c.len() <= GUIDE_CODE_LINES => Some((c, false)),
            Block::Heading(_) | Block::Code(_) => None,
            Block::Para(ls, lead, tag) => {
                let text = ls.join(" ");
                let mut s = String::new();
                let mut skipped = false;
                for (k, r) in sentences(&text).into_iter().enumerate() {
                    let sent = &text[r];
                    if (k == 0 && (first_para || guide || tag)) || key(sent) {
                        if skipped || (s.is_empty() && gap && out.is_empty()) {
                            s.push_str(if s.is_empty() {
                                "\u{2026} "
                            } else {
                                " \u{2026} "
                            });
                        } else if !s.is_empty() {
                            s.push(' ');
                        }
                        s.push_str(sent);
                        skipped = false;
                    } else {
                        skipped = true;
                        dropped = true;
                    }
                }
                first_para = false;
                if s.is_empty() {
                    None
                } else {
                    if skipped {
                        s.push_str(" \u{2026}");
                    }
                    let item = !lead.is_empty() || ls[0].starts_with(['-', '*', '+']);
                    Some((wrap(&s, &lead, width), item))
                }
            }
        };
        match piece {
            None => {
                dropped = true;
                gap = true;
            }
            Some((ls, item)) => {
                if gap {
                    match out.last_mut() {
                        Some(l) if !l.ends_with('\u{2026}') => l.push_str(" \u{2026}"),
                        Some(_) => {}
                        None if !ls[0].starts_with('\u{2026}') => out.push("\u{2026}".into()),
                        None => {}
                    }
                }
                // Items of one list stand on consecutive lines.
                let same_list = item && prev_item;
                if !out.is_empty() && !same_list {
                    out.push(String::new());
                }
                prev_item = item;
                out.extend(ls);
                gap = false;
            }
        }
    }
    if gap {
        match out.last_mut() {
            Some(l) if !l.ends_with('\u{2026}') => l.push_str(" \u{2026}"),
            Some(_) => {}
            None => out.push("\u{2026}".into()),
        }
    }
    let before: usize = lines.iter().map(|l| l.len() + 1).sum();
    let after: usize = out.iter().map(|l| l.len() + 1).sum();
    (dropped && out.len() + 2 <= lines.len() && after * 5 <= before * 4).then_some(out)
}

/// `text` in lines of at most `width` bytes (a longer word stands alone);
/// lines after the first of a list item are indented under its text.
fn wrap(text: &str, lead: &str, width: usize) -> Vec<String> {
    let hang = if text.starts_with(['-', '*', '+']) || !lead.is_empty() {
        format!("{lead}  ")
    } else {
        String::new()
    };
    let mut out = Vec::new();
    let mut cur = lead.to_string();
    let mut fresh = true;
    for w in text.split_whitespace() {
        if !fresh && cur.len() + 1 + w.len() > width {
            out.push(std::mem::replace(&mut cur, hang.clone()));
            fresh = true;
        }
        if !fresh {
            cur.push(' ');
        }
        cur.push_str(w);
        fresh = false;
    }
    out.push(cur);
    out
}

/// A Python docstring opening a block, cut to its first sentence and
/// the sentences that state rules (see [`shorten`]), as a
/// string literal; `None` when it has nothing to cut or cannot be cut
/// safely.
pub(super) fn docstring(src: &str, block: Node<'_>, indent: &str) -> Option<String> {
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
        shorten(&lines, false, 72).unwrap_or_else(|| vec![lines[0].to_string()])
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
