//! The blocks of a document, read one after another from its lines:
//! headings (Markdown, setext and reStructuredText titles, outline `**`
//! headings, changelog version lines, a man page's or an indented text's
//! out-dented section lines), fenced and indented code, tables, link
//! reference definitions, markup (HTML tags, badges), lists and
//! paragraphs. Blocks are found again on demand rather than listed: a
//! block per line would cost more than the line.

use std::sync::LazyLock;

use regex::Regex;

use crate::compress::shared::lines::Lines;
use crate::compress::text::fence;

/// What a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Heading,
    /// Fenced code, fences included.
    Fence,
    /// Code set off by indentation.
    Indented,
    Table,
    /// `[label]: url` and `.. _label: url` lines.
    LinkDefs,
    /// Lines of HTML tags only, or of badge images only.
    Markup,
    List,
    Paragraph,
    /// A thematic break (`* * *`, `---` after a blank line).
    Rule,
}

/// One block: lines `start..end` of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Block {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

static ATX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s{0,3}#{1,6}\s+\S").expect("heading pattern"));
static HTML_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*<h[1-6][^>]*>.*\S.*</h[1-6]>\s*$").expect("html heading pattern")
});
static OUTLINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\*{2,6} \S").expect("outline heading pattern"));
static UNDERLINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(={3,}|-{3,}|~{3,}|\^{3,}|`{3,}|'{3,}|#{3,}|\*{3,}|\+{3,})\s*$")
        .expect("underline pattern")
});
/// A list item's marker and the text after it.
static LIST_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*([-*+\u{2022}\u{b7}o]|#\.|\d{1,3}(\.\d{1,3})*[.)]|[a-zA-Z][.)]|\(\d{1,3}\))\s+\S",
    )
    .expect("list item pattern")
});
static RULE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s{0,3}([-*_])(\s*[-*_]){2,}\s*$").expect("rule pattern"));
/// A table of contents' dot leader to a page number.
pub(super) static TOC_LEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\S\s*\.{4,}\s*\d+\s*$").expect("dot leader pattern"));
static LINK_DEF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\s{0,3}\[[^\]]+\]:\s*\S|\.\. _[^:]+:\s*\S)").expect("link definition pattern")
});
static MARKUP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*((<[^<>]*>\s*)+|((\[!\[[^\]]*\](\([^)]*\)|\[[^\]]*\])?\](\([^)]*\)|\[[^\]]*\])|!\[[^\]]*\](\([^)]*\)|\[[^\]]*\]))\s*)+|\.\. _[^:]+:)$",
    )
    .expect("markup pattern")
});
/// A version number as changelogs write it: `1.2`, `v2.0.1`, `0.3.15-rc1`.
static VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(^|[\s\[(v])v?\d+\.\d+(\.\d+)*([-.+~][0-9A-Za-z.]+)?([\s\])/:,;]|$)")
        .expect("version pattern")
});
static RELEASE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(release|version|changes|news)\b").expect("release word pattern")
});
static DIRECTIVE_CODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*\.\. (code-block|code|sourcecode|highlight)::").expect("directive pattern")
});

/// What the whole document says about how to read its lines.
#[derive(Debug, Clone)]
pub(super) struct Shape {
    /// The body's indentation: the most common one among non-blank lines.
    pub base: usize,
    /// A document whose body is indented and whose section titles stand
    /// out to the left (a rendered man page, a GNU NEWS or ChangeLog).
    pub indented: bool,
    /// Running page headers and footers: laid out in columns (a gap of
    /// four spaces or more), their shape (digits as `#`) seen three times
    /// or more (`Internet-Draft   remoteStorage   December 2014`).
    running: Vec<String>,
}

/// A running header's gap between its columns.
const COLUMN_GAP: &str = "    ";
/// Lines of that layout that are read for running headers at most.
const RUNNING_LINES: usize = 4096;

/// A line's shape for running headers: digit runs as `#`, whitespace runs
/// as one space.
fn running_shape(l: &str) -> String {
    let mut out = String::with_capacity(l.len());
    let mut last = ' ';
    for c in l.trim().chars() {
        let c = if c.is_ascii_digit() {
            '#'
        } else if c.is_whitespace() {
            ' '
        } else {
            c
        };
        if !((c == '#' || c == ' ') && c == last) {
            out.push(c);
        }
        last = c;
    }
    out
}

impl Shape {
    pub fn of(doc: &Lines<'_>) -> Shape {
        let mut by_indent = [0usize; 17];
        let mut content = 0usize;
        let mut laid_out: rustc_hash::FxHashMap<String, usize> = Default::default();
        for l in doc.iter() {
            let t = l.trim();
            if t.is_empty() {
                continue;
            }
            content += 1;
            by_indent[indent(l).min(16)] += 1;
            if t.len() <= 100 && t.contains(COLUMN_GAP) && laid_out.len() < RUNNING_LINES {
                *laid_out.entry(running_shape(t)).or_default() += 1;
            }
        }
        // Ties go to the smaller indentation.
        let base = (0..17).rev().max_by_key(|&k| by_indent[k]).unwrap_or(0);
        let at_least_base: usize = by_indent[base..].iter().sum();
        let indented =
            base >= 2 && at_least_base * 2 >= content && by_indent[0] * 10 <= content * 3;
        let mut running: Vec<String> = laid_out
            .into_iter()
            .filter(|(_, n)| *n >= 3)
            .map(|(s, _)| s)
            .collect();
        running.sort_unstable();
        Shape {
            base,
            indented,
            running,
        }
    }

    /// A running page header or footer.
    pub fn running(&self, l: &str) -> bool {
        let t = l.trim();
        !self.running.is_empty()
            && t.contains(COLUMN_GAP)
            && self.running.binary_search(&running_shape(t)).is_ok()
    }
}

/// Whether `x` underlines the title `l`: Markdown's `===` and `---` of
/// any length; reStructuredText's other characters (a fence's backticks
/// or tildes among them) only as long as the title, so a code fence right
/// under a paragraph's line opens code rather than making a heading.
fn underlines(l: &str, x: &str) -> bool {
    UNDERLINE.is_match(x)
        && (x.starts_with(['=', '-']) || x.trim_end().chars().count() >= l.trim().chars().count())
}

/// A line's indentation in columns (a tab to the next multiple of 8).
pub(super) fn indent(l: &str) -> usize {
    let mut col = 0;
    for c in l.bytes() {
        match c {
            b' ' => col += 1,
            b'\t' => col = (col / 8 + 1) * 8,
            _ => break,
        }
    }
    col
}

/// A heading block's level: `#` marks, a setext underline (`=` 1, `-`
/// 2), an HTML `<hN>`; 0 when the document does not say (an underline of
/// other characters, a man page's section, a version line).
pub(super) fn level(doc: &Lines<'_>, b: &Block) -> usize {
    let l = doc.line(b.start).trim_start();
    if ATX.is_match(l) || OUTLINE.is_match(l) {
        let mark = if l.starts_with('#') { '#' } else { '*' };
        return l.chars().take_while(|&c| c == mark).count();
    }
    if HTML_HEADING.is_match(l) {
        return l.get(2..3).and_then(|d| d.parse().ok()).unwrap_or(0);
    }
    if b.end == b.start + 2 {
        let u = doc.line(b.start + 1).trim_start();
        return match u.chars().next() {
            Some('=') => 1,
            Some('-') => 2,
            _ => 0,
        };
    }
    0
}

pub(super) fn is_list_item(l: &str) -> bool {
    LIST_ITEM.is_match(l)
}

/// Where an item's text starts: after its marker and the spaces after it.
pub(super) fn item_text_start(l: &str) -> usize {
    LIST_ITEM
        .captures(l)
        .and_then(|c| c.get(1))
        .map_or(0, |m| l.len() - l[m.end()..].trim_start().len())
}

/// A short line that names something rather than says it: a term of a
/// definition list, an option, a signature, a variable.
pub(super) fn term_like(l: &str) -> bool {
    let t = l.trim();
    !t.is_empty()
        && t.len() <= 100
        && !t.ends_with(['.', ',', ';'])
        && t.split_whitespace().count() <= 12
}

/// A line that looks like code or a command rather than prose.
fn code_like(l: &str) -> bool {
    let t = l.trim();
    t.starts_with("$ ")
        || t.starts_with("% ")
        || t.starts_with(">>> ")
        || t.starts_with("# ")
        || t.contains(['{', '}', ';', '='])
        || t.contains("()")
        || t.contains("::")
        || t.contains("->")
        || t.contains("=>")
}

/// Lines that read as prose: a few words, mostly letters.
pub(super) fn prose_like(l: &str) -> bool {
    let t = l.trim();
    if t.split_whitespace().count() < 4 {
        return false;
    }
    let (mut letters, mut other) = (0usize, 0usize);
    for c in t.chars() {
        if c.is_alphabetic() {
            letters += 1;
        } else if !c.is_whitespace() {
            other += 1;
        }
    }
    letters * 10 >= (letters + other) * 7
}

/// Whether a line ends a sentence at its end.
pub(super) fn ends_sentence(l: &str) -> bool {
    let t = l
        .trim_end()
        .trim_end_matches(['"', '\'', ')', '\u{201d}', '\u{2019}', '*', '_']);
    t.ends_with(['.', '!', '?', ':', '\u{3002}', '\u{ff01}', '\u{ff1f}'])
}

/// Reads the blocks of `doc` in order.
pub(super) struct Reader<'d, 'a> {
    doc: &'d Lines<'a>,
    shape: &'d Shape,
    i: usize,
    /// The previous block opened a literal block (`::`, a code directive):
    /// the indentation of its first line.
    literal_next: Option<usize>,
    /// The kind of the block before.
    prev: Option<Kind>,
}

impl<'d, 'a> Reader<'d, 'a> {
    pub fn new(doc: &'d Lines<'a>, shape: &'d Shape) -> Self {
        Reader {
            doc,
            shape,
            i: 0,
            literal_next: None,
            prev: None,
        }
    }

    fn line(&self, i: usize) -> &'a str {
        self.doc.line(i)
    }

    fn blank(&self, i: usize) -> bool {
        self.line(i).trim().is_empty()
    }

    /// A heading starting at line `i`: its end, if it is one.
    fn heading(&self, i: usize) -> Option<usize> {
        let n = self.doc.len();
        let l = self.line(i);
        if ATX.is_match(l) || OUTLINE.is_match(l) || HTML_HEADING.is_match(l) {
            return Some(i + 1);
        }
        let next = (i + 1 < n).then(|| self.line(i + 1));
        if next.is_some_and(|x| underlines(l, x))
            && !UNDERLINE.is_match(l)
            && !is_list_item(l)
            && !l.trim_start().starts_with('|')
        {
            return Some(i + 2);
        }
        if UNDERLINE.is_match(l)
            && i + 2 < n
            && !self.blank(i + 1)
            && UNDERLINE.is_match(self.line(i + 2))
        {
            return Some(i + 3);
        }
        let t = l.trim();
        let outdented = indent(l) == 0 || indent(l) * 2 < self.shape.base;
        let toc = TOC_LEADER.is_match(t);
        if self.shape.indented && outdented && term_like(l) && t.len() <= 80 && !toc {
            return Some(i + 1);
        }
        // A changelog's version line: short, not a sentence, a version
        // number in it, followed by a blank line, a list, an underline or
        // deeper lines; a bulleted one must also say release/version.
        let version = indent(l) <= self.shape.base.min(1)
            && term_like(l)
            && VERSION.is_match(t)
            && (!is_list_item(l) || RELEASE_WORD.is_match(t));
        if version {
            let follows = match next {
                None => true,
                Some(x) => {
                    x.trim().is_empty()
                        || is_list_item(x) && indent(x) >= indent(l) && !is_list_item(l)
                        || indent(x) > indent(l) && !is_list_item(l)
                }
            };
            if follows {
                return Some(i + 1);
            }
        }
        None
    }

    /// The end of the run of lines from `i` that `hit` holds for.
    fn run(&self, mut i: usize, hit: impl Fn(&str) -> bool) -> usize {
        while i < self.doc.len() && hit(self.line(i)) {
            i += 1;
        }
        i
    }

    /// A block of lines indented past the body, from `i` to a blank line.
    fn indented_code(&self, i: usize, end: usize) -> bool {
        let base = if self.shape.indented {
            self.shape.base
        } else {
            0
        };
        let deep = self.doc.range(i..end).all(|l| indent(l) >= base + 4);
        if !deep {
            return false;
        }
        if self.literal_next.is_some() {
            return true;
        }
        // Markdown: an indented block is code unless it continues a list.
        if !self.shape.indented && self.prev != Some(Kind::List) {
            return true;
        }
        let lines = end - i;
        let code = self.doc.range(i..end).filter(|l| code_like(l)).count();
        let sentences = self
            .doc
            .range(i..end)
            .filter(|l| l.trim_end().ends_with(['.', '!', '?']))
            .count();
        code * 2 >= lines && sentences * 2 < lines
    }
}

impl Iterator for Reader<'_, '_> {
    type Item = Block;

    fn next(&mut self) -> Option<Block> {
        let n = self.doc.len();
        while self.i < n && self.blank(self.i) {
            self.i += 1;
        }
        let i = self.i;
        if i >= n {
            return None;
        }
        let l = self.line(i);
        let (end, kind) = if let Some((c, run)) = fence(l) {
            let mut j = i + 1;
            while j < n && !fence(self.line(j)).is_some_and(|(d, r)| d == c && r >= run) {
                j += 1;
            }
            ((j + 1).min(n), Kind::Fence)
        } else if self.shape.running(l) {
            (self.run(i, |x| self.shape.running(x)), Kind::Markup)
        } else if let Some(end) = self.heading(i) {
            (end, Kind::Heading)
        } else if RULE.is_match(l) {
            (i + 1, Kind::Rule)
        } else if l.trim_start().starts_with('|') {
            (
                self.run(i, |x| x.trim_start().starts_with('|')),
                Kind::Table,
            )
        } else if l.trim_start().starts_with("+-") || l.trim_start().starts_with("+=") {
            let end = self.run(i, |x| {
                let t = x.trim_start();
                t.starts_with('+') || t.starts_with('|')
            });
            (end, Kind::Table)
        } else if LINK_DEF.is_match(l) {
            (self.run(i, |x| LINK_DEF.is_match(x)), Kind::LinkDefs)
        } else if MARKUP.is_match(l) {
            (self.run(i, |x| MARKUP.is_match(x)), Kind::Markup)
        } else {
            // Lines up to a blank line or the start of another block.
            let mut j = i + 1;
            let list = is_list_item(l);
            while j < n {
                let x = self.line(j);
                // A list ends at an unindented line after a finished
                // sentence (lazy continuation goes on mid-sentence only).
                let after_list = list
                    && !is_list_item(x)
                    && indent(x) <= indent(l)
                    && ends_sentence(self.line(j - 1));
                if x.trim().is_empty()
                    || fence(x).is_some()
                    || ATX.is_match(x)
                    || OUTLINE.is_match(x)
                    || RULE.is_match(x)
                    || self.shape.running(x)
                    || after_list
                    || (!list && is_list_item(x) && indent(x) <= indent(l))
                    || (self.shape.indented && self.heading(j).is_some())
                {
                    break;
                }
                j += 1;
            }
            let kind = if list {
                Kind::List
            } else if self.indented_code(i, j) {
                Kind::Indented
            } else {
                Kind::Paragraph
            };
            if kind == Kind::Indented {
                // Code goes on across blank lines while it stays indented
                // (past the line that opened a literal block, or as deep
                // as its own first line).
                let deep = |x: &str| match self.literal_next {
                    Some(k) => indent(x) > k,
                    None => indent(x) >= indent(l),
                };
                let mut k = j;
                while k < n {
                    let x = self.line(k);
                    if x.trim().is_empty() {
                        k += 1;
                        continue;
                    }
                    if !deep(x) {
                        break;
                    }
                    k += 1;
                    j = k;
                }
            }
            (j, kind)
        };
        let last = self.line(end - 1).trim_end();
        // `::` ends a paragraph before a literal block; a directive line
        // (`.. note::`) opens one only when it names code.
        let directive = l.trim_start().starts_with(".. ");
        let opens =
            matches!(kind, Kind::Paragraph | Kind::List) && last.ends_with("::") && !directive
                || DIRECTIVE_CODE.is_match(l);
        // The literal block is indented past the paragraph that opens it:
        // a list item's text column, not its marker's.
        let column = if kind == Kind::List && !DIRECTIVE_CODE.is_match(l) {
            indent(l) + l[..item_text_start(l)].trim_start().chars().count()
        } else {
            indent(l)
        };
        self.literal_next = opens.then_some(column);
        self.prev = Some(kind);
        self.i = end;
        Some(Block {
            start: i,
            end,
            kind,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(usize, usize, Kind)> {
        let doc = Lines::split(text);
        let shape = Shape::of(&doc);
        Reader::new(&doc, &shape)
            .map(|b| (b.start, b.end, b.kind))
            .collect()
    }

    #[test]
    fn markdown_blocks() {
        let t = "# Title\n\nSome text\nmore text.\n\n- a\n- b\n  cont\n\n```sh\n$ x\n\n```\n\n| a | b |\n|---|---|\n\n[x]: https://example.com\n[y]: https://example.com\n\n[![b](https://i/x.svg)](https://c/d)\n\n    let x = 1;\n    f(x);\n\nTitle\n=====\n";
        assert_eq!(
            kinds(t),
            vec![
                (0, 1, Kind::Heading),
                (2, 4, Kind::Paragraph),
                (5, 8, Kind::List),
                (9, 13, Kind::Fence),
                (14, 16, Kind::Table),
                (17, 19, Kind::LinkDefs),
                (20, 21, Kind::Markup),
                (22, 24, Kind::Indented),
                (25, 27, Kind::Heading),
            ]
        );
    }

    #[test]
    fn a_fence_under_a_line_opens_code() {
        let t =
            "Filename: src/main.rs\n```\nfn main() {\n}\n```\n\nTitle\n~~~~~\n\nName: x\n=====\n";
        assert_eq!(
            kinds(t),
            vec![
                (0, 1, Kind::Paragraph),
                (1, 5, Kind::Fence),
                (6, 8, Kind::Heading),
                (9, 11, Kind::Heading),
            ]
        );
    }

    #[test]
    fn man_page_sections_are_headings() {
        let t = "LS(1)            User Commands            LS(1)\n\nNAME\n       ls - list directory contents\n\nSYNOPSIS\n       ls [OPTION]... [FILE]...\n\nDESCRIPTION\n       List information about the FILEs.\n       Sort entries alphabetically.\n\n       Mandatory arguments to long options are mandatory.\n       For short options too.\n\n       -a, --all\n              do not ignore entries starting with .\n              and more.\n              and more.\n";
        let k = kinds(t);
        assert_eq!(k[0], (0, 1, Kind::Heading));
        assert_eq!(k[1], (2, 3, Kind::Heading));
        assert_eq!(k[2], (3, 4, Kind::Paragraph));
        assert_eq!(k[3], (5, 6, Kind::Heading));
        assert_eq!(k[4], (6, 7, Kind::Paragraph));
        assert_eq!(k.last(), Some(&(15, 19, Kind::Paragraph)));
    }

    #[test]
    fn a_literal_block_ends_at_its_item_text_column() {
        // reStructuredText: the literal block after an item's `::` is
        // indented past the item's text; the item's next paragraph, at
        // the text column, is prose again.
        let t = "Contributing starts here.\nIt goes on.\nAnd on.\n\n#. Clone your fork and create a branch::\n\n    $ git clone x\n    $ cd pytest\n\n   Given we have versions, fixes will usually go in micro releases.\n";
        assert_eq!(
            kinds(t)[1..],
            [
                (4, 5, Kind::List),
                (6, 8, Kind::Indented),
                (9, 10, Kind::Paragraph),
            ]
        );
    }

    #[test]
    fn changelog_versions_are_headings() {
        let t = "1.2.0 (2024-01-01)\n\n- Fix x\n\nv1.1.0 / 2023-12-01\n- Add y 1.0\n  more\n\n* Noteworthy changes in release 9.5 (2024-03-28) [stable]\n\n- Update windows-sys to 0.59\n  [#98](https://x/98)\n";
        let k = kinds(t);
        assert_eq!(k[0], (0, 1, Kind::Heading));
        assert_eq!(k[2], (4, 5, Kind::Heading));
        assert_eq!(k[3], (5, 7, Kind::List));
        assert_eq!(k[4], (8, 9, Kind::Heading));
        assert_eq!(k[5], (10, 12, Kind::List));
    }
}
