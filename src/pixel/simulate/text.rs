//! The text operations every provider runs before pricing or drawing a
//! text (pixel-simulate.md §9.1): Compact, Neutralise, Minify, tab
//! expansion, Reflow, content width, wrapping, the gates' visual-row count
//! and the page split. Lengths here are UTF-16 units ([`u16_len`]) or
//! cells ([`super::atlas::cells`]), never bytes, unless a name says so.

use super::atlas::cells;

/// U+21B5 `↵`: the mark Reflow puts where a line ended.
pub const RETURN_MARK: char = '\u{21B5}';
/// U+23CE `⏎`: what Neutralise turns a `↵` already in the text into.
pub const RETURN_SYMBOL: char = '\u{23CE}';
/// U+2192 `→`: a tab's first cell after expansion.
const TAB_MARK: char = '\u{2192}';
/// Tab stops every 4 cells.
const TAB_WIDTH: usize = 4;

/// Length in UTF-16 code units (a code point above U+FFFF counts 2).
pub fn u16_len(s: &str) -> usize {
    // Every code point has one lead byte; those of four bytes count twice.
    s.bytes()
        .map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

/// UTF-16 length of one character.
#[inline]
pub fn u16_of(c: char) -> usize {
    c.len_utf16()
}

/// Each line's trailing run of `chars` removed.
fn trim_line_ends(t: &str, out: &mut String) {
    for (i, line) in t.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line.trim_end_matches([' ', '\t']));
    }
}

/// Every run of more than `keep` newlines cut to `keep`.
fn cap_newline_runs(t: &str, keep: usize) -> String {
    let mut out = String::with_capacity(t.len());
    let mut run = 0;
    for c in t.chars() {
        if c == '\n' {
            run += 1;
            if run > keep {
                continue;
            }
        } else {
            run = 0;
        }
        out.push(c);
    }
    out
}

/// Compact: trailing spaces and tabs off every line (not `\r`), then runs
/// of 3 or more newlines cut to 2.
pub fn compact(t: &str) -> String {
    let mut trimmed = String::with_capacity(t.len());
    trim_line_ends(t, &mut trimmed);
    cap_newline_runs(&trimmed, 2)
}

/// Neutralise: every `↵` already in the text becomes `⏎`, so that a `↵`
/// after Reflow always means a line break.
pub fn neutralise(t: &str) -> String {
    t.replace(RETURN_MARK, "\u{23CE}")
}

/// Minify: trailing spaces and tabs off every line, runs of 4 or more
/// newlines cut to 3.
pub fn minify(t: &str) -> String {
    let mut trimmed = String::with_capacity(t.len());
    trim_line_ends(t, &mut trimmed);
    cap_newline_runs(&trimmed, 3)
}

/// One line with its tabs expanded: a tab becomes `→` and spaces up to the
/// next multiple of 4 cells.
pub fn expand_tabs(line: &str, out: &mut String) {
    if !line.contains('\t') {
        out.push_str(line);
        return;
    }
    let mut col = 0;
    for c in line.chars() {
        if c == '\t' {
            let span = TAB_WIDTH - col % TAB_WIDTH;
            out.push(TAB_MARK);
            out.extend(std::iter::repeat_n(' ', span - 1));
            col += span;
        } else {
            out.push(c);
            col += cells(c);
        }
    }
}

/// Reflow: the whole text as one line, each line break drawn as `↵`
/// (after Minify and tab expansion). `None` when the text already holds a
/// `↵`: it is then used as it is.
pub fn reflow(t: &str) -> Option<String> {
    if t.contains(RETURN_MARK) {
        return None;
    }
    let m = minify(t);
    let mut out = String::with_capacity(m.len() + m.len() / 16);
    for (i, line) in m.split('\n').enumerate() {
        if i > 0 {
            out.push(RETURN_MARK);
        }
        expand_tabs(line, &mut out);
    }
    Some(out)
}

/// Reflow, or the text unchanged when it cannot be reflowed.
pub fn reflow_or_keep(t: String) -> String {
    reflow(&t).unwrap_or(t)
}

/// `Reflow(Neutralise(Compact(t)))`: how Anthropic and Gemini prepare a
/// candidate (Reflow cannot fail after Neutralise).
pub fn prepare(t: &str) -> String {
    reflow_or_keep(neutralise(&compact(t)))
}

/// Cells of one line once its tabs are expanded.
fn line_cells(line: &str) -> usize {
    let mut col = 0;
    for c in line.chars() {
        col += if c == '\t' {
            TAB_WIDTH - col % TAB_WIDTH
        } else {
            cells(c)
        };
    }
    col
}

/// MeasureContentCols: the widest line in cells (tabs expanded, nothing
/// trimmed), at least 1 and at most `max`.
pub fn measure(t: &str, max: usize) -> usize {
    t.split('\n')
        .map(line_cells)
        .max()
        .unwrap_or(0)
        .clamp(1, max.max(1))
}

/// WrapLines: Minify, then each line (tabs expanded) cut greedily into
/// rows of at most `k` cells; an empty line is one empty row. A character
/// wider than the room left starts a new row, even from an empty one.
pub fn wrap(t: &str, k: usize) -> Vec<String> {
    let mut rows = Vec::new();
    let mut expanded = String::new();
    for line in minify(t).split('\n') {
        expanded.clear();
        expand_tabs(line, &mut expanded);
        if expanded.is_empty() {
            rows.push(String::new());
            continue;
        }
        let mut cur = String::new();
        let mut used = 0;
        for c in expanded.chars() {
            let w = cells(c);
            if used + w > k {
                rows.push(std::mem::take(&mut cur));
                used = 0;
            }
            cur.push(c);
            used += w;
        }
        if !cur.is_empty() {
            rows.push(cur);
        }
    }
    rows
}

/// CountVisualRows: the row count every Anthropic gate (and the Gemini
/// history gate) prices. It counts UTF-16 units per segment, not cells,
/// and every segment (ended by `\n`, by `↵`, which counts as one unit of
/// its segment, or by the end) takes at least one row.
pub fn count_visual_rows(t: &str, k: usize) -> usize {
    let k = k.max(1);
    let rows_of = |len: usize| len.div_ceil(k).max(1);
    let mut rows = 0;
    let mut len = 0;
    for c in t.chars() {
        match c {
            '\n' => {
                rows += rows_of(len);
                len = 0;
            }
            RETURN_MARK => {
                rows += rows_of(len + 1);
                len = 0;
            }
            c => len += u16_of(c),
        }
    }
    rows + rows_of(len)
}

/// The page split: rows in order into pages of at most `max_rows` rows
/// and `max_chars` UTF-16 units (counting one per join). A page is never
/// empty unless the input is; no rows give one empty page. Returns the
/// row ranges of the pages.
pub fn split_pages<S: AsRef<str>>(
    rows: &[S],
    max_rows: usize,
    max_chars: usize,
) -> Vec<std::ops::Range<usize>> {
    let mut pages = Vec::new();
    let mut start = 0;
    let mut chars = 0;
    for (i, row) in rows.iter().enumerate() {
        let len = u16_len(row.as_ref());
        let open = i > start;
        if open && (i - start >= max_rows || chars + len + 1 > max_chars) {
            pages.push(start..i);
            start = i;
            chars = 0;
        }
        chars += len + usize::from(i > start);
    }
    pages.push(start..rows.len());
    pages
}

/// Go `strings.TrimSpace` (Unicode White_Space at both ends).
pub fn trim_space(s: &str) -> &str {
    let b = crate::go::unicode::trim_space(s.as_bytes());
    // Trimming removes whole characters, so the rest is still UTF-8.
    std::str::from_utf8(b).unwrap_or_default()
}

/// Go `strings.TrimSpace(s) == ""`.
pub fn is_blank(s: &str) -> bool {
    crate::go::unicode::is_blank(s.as_bytes())
}

/// Every run of 3 or more `\n` as `\n\n`, then Go `TrimSpace`.
pub fn squeeze_blank_lines(t: &str) -> String {
    trim_space(&cap_newline_runs(t, 2)).to_string()
}

/// `n` with commas between thousands (`10,612`).
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths() {
        assert_eq!(u16_len("a中😀"), 4);
        assert_eq!(u16_len(""), 0);
    }

    #[test]
    fn compact_minify_reflow() {
        assert_eq!(compact("a \t\nb\r \n\n\n\nc"), "a\nb\r\n\nc");
        assert_eq!(minify("a  \n\n\n\n\nb"), "a\n\n\nb");
        assert_eq!(reflow("a\tb\nc\n").unwrap(), "a→  b↵c↵");
        assert_eq!(reflow("中\tx").unwrap(), "中→ x");
        assert!(reflow("x↵y").is_none());
        assert_eq!(prepare("x↵y\n"), "x⏎y↵");
    }

    #[test]
    fn measure_and_wrap() {
        assert_eq!(measure("a\t\t\t", 100), 12);
        assert_eq!(measure("", 100), 1);
        assert_eq!(measure("中中中", 4), 4);
        assert_eq!(wrap("abcdef\n\nxy", 4), ["abcd", "ef", "", "xy"]);
        assert_eq!(wrap("", 4), [""]);
        // A wide character at one column first ends an empty row.
        assert_eq!(wrap("中", 1), ["", "中"]);
        assert_eq!(wrap("a中", 2), ["a", "中"]);
    }

    #[test]
    fn visual_rows_count_units_per_segment() {
        assert_eq!(count_visual_rows("", 10), 1);
        assert_eq!(count_visual_rows("abc↵", 10), 2);
        assert_eq!(count_visual_rows("0123456789↵x", 10), 3);
        assert_eq!(count_visual_rows("a\n\nb", 10), 3);
        assert_eq!(count_visual_rows("😀😀😀", 2), 3);
    }

    #[test]
    fn pages_count_joins() {
        let rows = vec!["x".repeat(312); 91];
        let pages = split_pages(&rows, 90, 28080);
        assert_eq!(pages, [0..89, 89..91]);
        let none = split_pages::<&str>(&[], 5, 10);
        assert!(none.len() == 1 && none[0].is_empty());
        assert_eq!(split_pages(&["a", "b", "c"], 2, 100), [0..2, 2..3]);
    }

    #[test]
    fn commas() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(10612), "10,612");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
