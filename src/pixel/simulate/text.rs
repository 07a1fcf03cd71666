//! The text operations every provider runs before pricing or drawing a
//! text (pixel-simulate.md §9.1). Minify, tab expansion, Reflow, content
//! width and WrapLines are the renderer's ([`crate::pixel::text`]); here
//! are the ones only the transform needs: Compact, Neutralise, the
//! one-pass preparations, and the gates' visual-row count. Lengths are
//! UTF-16 units ([`u16_len`]) or cells ([`crate::pixel::atlas::cells`]),
//! never bytes, unless a name says so.

pub use crate::pixel::text::{measure, reflow, u16_len, wrap, REFLOW_MARK as RETURN_MARK};

use crate::pixel::atlas::cells;

/// U+23CE `⏎`: what Neutralise turns a `↵` already in the text into.
pub const RETURN_SYMBOL: char = '\u{23CE}';
/// U+2192 `→`: a tab's first cell after expansion.
const TAB_MARK: char = '\u{2192}';
/// Tab stops every 4 cells.
const TAB_WIDTH: usize = 4;

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

/// Reflow, or the text unchanged when it cannot be reflowed.
pub fn reflow_or_keep(t: String) -> String {
    reflow(&t).unwrap_or(t)
}

/// `Reflow(Neutralise(Compact(t)))`: how Anthropic and Gemini prepare a
/// candidate (Reflow cannot fail after Neutralise). One pass, no
/// intermediate copies.
pub fn prepare(t: &str) -> String {
    reflowed(t, 2)
}

/// `Reflow(Neutralise(t))`: how history transcripts are prepared (no
/// Compact). One pass.
pub fn prepare_history(t: &str) -> String {
    reflowed(t, 3)
}

/// Neutralise and Reflow in one pass over `t`, with line ends trimmed and
/// newline runs cut to `newline_cap` (2 after Compact, 3 for Minify alone:
/// Minify after Compact changes nothing).
fn reflowed(t: &str, newline_cap: usize) -> String {
    let mut out = String::with_capacity(t.len() + t.len() / 16);
    let mut newlines = 0;
    let mut pending_blank = 0..0;
    let mut col = 0;
    for (i, c) in t.char_indices() {
        match c {
            '\n' => {
                newlines += 1;
                pending_blank = 0..0;
            }
            ' ' | '\t' => {
                if pending_blank.is_empty() {
                    pending_blank = i..i;
                }
                pending_blank.end = i + 1;
            }
            c => {
                flush_newlines(&mut out, &mut newlines, newline_cap, &mut col);
                if !pending_blank.is_empty() {
                    for b in t[pending_blank.clone()].chars() {
                        push_cell(&mut out, b, &mut col);
                    }
                    pending_blank = 0..0;
                }
                push_cell(
                    &mut out,
                    if c == RETURN_MARK { RETURN_SYMBOL } else { c },
                    &mut col,
                );
            }
        }
    }
    flush_newlines(&mut out, &mut newlines, newline_cap, &mut col);
    out
}

/// Writes a run of newlines (cut to `cap`) as `↵` marks; a new line
/// starts at column 0.
fn flush_newlines(out: &mut String, newlines: &mut usize, cap: usize, col: &mut usize) {
    for _ in 0..(*newlines).min(cap) {
        out.push(RETURN_MARK);
    }
    if *newlines > 0 {
        *col = 0;
    }
    *newlines = 0;
}

/// Appends one character of a line, a tab expanded at column `col`.
fn push_cell(out: &mut String, c: char, col: &mut usize) {
    if c == '\t' {
        let span = TAB_WIDTH - *col % TAB_WIDTH;
        out.push(TAB_MARK);
        out.extend(std::iter::repeat_n(' ', span - 1));
        *col += span;
    } else {
        out.push(c);
        *col += cells(c);
    }
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
            c => len += c.len_utf16(),
        }
    }
    rows + rows_of(len)
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

    fn text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        proptest::collection::vec(
            prop::sample::select(vec![
                "a",
                "bc",
                " ",
                "  ",
                "\t",
                "\n",
                "\n\n",
                "\u{21b5}",
                "\u{4e2d}",
                "\r",
                "\u{1F600}",
                "\u{23ce}",
            ]),
            0..40,
        )
        .prop_map(|v| v.concat())
    }

    proptest::proptest! {
        /// The one-pass preparations equal the spec's compositions.
        #[test]
        fn one_pass_preparation(t in text()) {
            proptest::prop_assert_eq!(prepare(&t), reflow_or_keep(neutralise(&compact(&t))));
            proptest::prop_assert_eq!(prepare_history(&t), reflow_or_keep(neutralise(&t)));
        }

    }

    #[test]
    fn commas() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(10612), "10,612");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
