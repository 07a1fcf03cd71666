//! The text model of the renderer (spec/pixel-render.md §3): Go-style
//! decoding, UTF-16 lengths, minify, tab expansion, reflow, content width
//! and wrapping. Shared with `pixel simulate` (spec/pixel-simulate.md
//! §9.1), which calls the same operations.

use super::atlas::cells;

/// U+21B5 `↵`: the visible line-join mark of reflow.
pub const REFLOW_MARK: char = '\u{21B5}';
/// U+2192 `→`: the visible mark a tab expands to.
pub const TAB_MARK: char = '\u{2192}';

/// The file's bytes as code points, the way Go ranges over a string: each
/// byte that does not start a well-formed UTF-8 sequence is one U+FFFD.
pub fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    crate::go::utf8::go_lossy(bytes)
}

/// Number of code points.
pub fn cp_len(s: &str) -> usize {
    s.chars().count()
}

/// Number of UTF-16 code units (JavaScript's `length`).
pub fn u16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// Trailing spaces and tabs removed from every line, and every run of
/// four or more newlines cut to three (§3.3).
pub fn minify(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    for (i, line) in t.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line.trim_end_matches([' ', '\t']));
    }
    if !out.contains("\n\n\n\n") {
        return out;
    }
    let mut collapsed = String::with_capacity(out.len());
    let mut run = 0;
    for c in out.chars() {
        if c == '\n' {
            run += 1;
            if run > 3 {
                continue;
            }
        } else {
            run = 0;
        }
        collapsed.push(c);
    }
    collapsed
}

/// A line with each tab replaced by `→` and spaces up to the next multiple
/// of 4 cells (§3.4); a line without tabs is returned as it is.
pub fn expand_tabs(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\t') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut col = 0;
    for c in line.chars() {
        if c == '\t' {
            let s = 4 - col % 4;
            out.push(TAB_MARK);
            out.extend(std::iter::repeat_n(' ', s - 1));
            col += s;
        } else {
            out.push(c);
            col += cells(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Reflow (§3.5): minify, expand tabs per line, join the lines with `↵`.
/// `None` when the text already holds a `↵` (it is then used as it is).
pub fn reflow(text: &str) -> Option<String> {
    if text.contains(REFLOW_MARK) {
        return None;
    }
    let m = minify(text);
    let mut out = String::with_capacity(m.len() + m.len() / 16);
    for (i, line) in m.split('\n').enumerate() {
        if i > 0 {
            out.push(REFLOW_MARK);
        }
        out.push_str(&expand_tabs(line));
    }
    Some(out)
}

/// The widest line of `source` in cells, tabs expanded but not minified,
/// at least 1 and at most `max_cols` (§3.6).
pub fn measure(source: &str, max_cols: usize) -> usize {
    let widest = source
        .split('\n')
        .map(|line| expand_tabs(line).chars().map(cells).sum::<usize>())
        .max()
        .unwrap_or(0)
        .max(1);
    widest.min(max_cols)
}

/// Wrap (§3.7): minify, then each line tab-expanded and cut greedily at
/// `cols` cells, per code point. Never empty.
pub fn wrap(text: &str, cols: usize) -> Vec<String> {
    let mut out = Vec::new();
    for r in minify(text).split('\n') {
        let r = expand_tabs(r);
        if r.is_empty() {
            out.push(String::new());
            continue;
        }
        let mut cur = String::new();
        let mut used = 0;
        for c in r.chars() {
            let w = cells(c);
            if used + w > cols {
                out.push(std::mem::take(&mut cur));
                used = 0;
            }
            cur.push(c);
            used += w;
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_is_per_byte() {
        assert_eq!(decode(b"\xE4\xB8 "), "\u{FFFD}\u{FFFD} ");
        assert_eq!(decode(b"\xED\xA0\x80"), "\u{FFFD}\u{FFFD}\u{FFFD}");
        assert_eq!(decode(b"\xC0\xAF"), "\u{FFFD}\u{FFFD}");
        assert_eq!(u16_len("a\u{1F600}"), 3);
    }

    #[test]
    fn minify_and_tabs() {
        assert_eq!(minify("a \t\nb\r \n\n\n\n\nc"), "a\nb\r\n\n\nc");
        assert_eq!(expand_tabs("中\tx"), "中→ x");
        assert_eq!(expand_tabs("\t"), "→   ");
        assert_eq!(reflow("a\nb\n").as_deref(), Some("a↵b↵"));
        assert_eq!(reflow("a↵b"), None);
    }

    #[test]
    fn measure_counts_trailing_whitespace() {
        assert_eq!(measure("a\t\t\t", 312), 12);
        assert_eq!(measure("", 312), 1);
        assert_eq!(measure("abc", 2), 2);
    }

    #[test]
    fn wrap_rules() {
        assert_eq!(wrap("", 5), vec![""]);
        assert_eq!(wrap("abcdef\n", 4), vec!["abcd", "ef", ""]);
        // cols 1: a wide glyph first emits an empty line.
        assert_eq!(wrap("中", 1), vec!["", "中"]);
        assert_eq!(wrap("a中", 2), vec!["a", "中"]);
    }
}
