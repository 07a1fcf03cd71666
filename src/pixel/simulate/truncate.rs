//! Truncation of a long tool result to the image cap (pixel-simulate.md
//! §9.3): a text that would take more than the cap's images keeps a head
//! (structured output: JSON, YAML front matter, diffs) or a head and a tail
//! (logs and everything else), with a marker saying what was left out.

use super::text::{count_visual_rows, thousands, u16_len, RETURN_MARK};

/// The limits a text is cut to.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Images at most.
    pub cap: usize,
    /// Columns of a page.
    pub cols: usize,
    /// Characters per image.
    pub budget: usize,
    /// Rows one image holds (all layers).
    pub rows_per_image: usize,
}

/// A text cut to its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truncated {
    pub text: String,
    /// UTF-16 units left out.
    pub omitted: usize,
}

/// Only this many leading bytes decide whether a text is structured.
const SHAPE_PREFIX: usize = 4096;
/// The share of the budgets a head gets when a tail is kept too.
const HEAD_SHARE: f64 = 0.6;

/// `text` cut to `lim`, or `None` when it fits.
pub fn truncate(text: &str, lim: Limits) -> Option<Truncated> {
    let k = lim.cols.max(1);
    let total = u16_len(text);
    let est = 1
        .max(count_visual_rows(text, k).div_ceil(lim.rows_per_image.max(1)))
        .max(total.div_ceil(lim.budget.max(1)));
    if est <= lim.cap {
        return None;
    }
    let row_budget = (lim.cap * lim.rows_per_image).saturating_sub(6).max(8);
    let char_budget = (lim.cap * lim.budget).saturating_sub(512).max(128);
    let sep = if text.contains('\n') {
        '\n'
    } else {
        RETURN_MARK
    };
    let lines: Vec<&str> = text.split(sep).collect();
    let lens: Vec<usize> = lines.iter().map(|l| u16_len(l)).collect();
    let rows = |i: usize| lens[i].div_ceil(k).max(1);
    // A line's characters with the separator before it.
    let head_chars = |i: usize| lens[i] + usize::from(i > 0);
    let take_head = |row_cap: usize, char_cap: usize| {
        let (mut r, mut c, mut n) = (0, 0, 0);
        while n < lines.len() {
            let (nr, nc) = (r + rows(n), c + head_chars(n));
            if n > 0 && (nr > row_cap || nc > char_cap) {
                break;
            }
            (r, c, n) = (nr, nc, n + 1);
        }
        n
    };
    let (head, tail) = if is_structured(text) {
        (take_head(row_budget, char_budget), 0)
    } else {
        let head_rows = (HEAD_SHARE * row_budget as f64) as usize;
        let head_chars_cap = (HEAD_SHARE * char_budget as f64) as usize;
        let head = take_head(head_rows, head_chars_cap);
        let (tail_rows, tail_chars) = (row_budget - head_rows, char_budget - head_chars_cap);
        let last = lines.len() - 1;
        let (mut r, mut c, mut start) = (0, 0, lines.len());
        while start > head {
            let i = start - 1;
            let (nr, nc) = (r + rows(i), c + lens[i] + usize::from(i != last));
            if nr > tail_rows || nc > tail_chars {
                break;
            }
            (r, c, start) = (nr, nc, i);
        }
        let tail = lines.len() - start;
        if tail == 0 || start == head {
            (head, 0)
        } else {
            (head, tail)
        }
    };
    let joined = |ls: &[&str]| {
        let mut s = String::new();
        for (i, l) in ls.iter().enumerate() {
            if i > 0 {
                s.push(sep);
            }
            s.push_str(l);
        }
        s
    };
    let head_text = joined(&lines[..head]);
    let tail_text = joined(&lines[lines.len() - tail..]);
    let omitted = total - u16_len(&head_text) - u16_len(&tail_text);
    let showing = if tail > 0 {
        format!("Showing first {head} lines and last {tail} lines.")
    } else {
        format!("Showing first {head} lines (tail elided).")
    };
    let marker = format!(
        "\n\n[ pxpipe paging: omitted {} lines ({} chars) of content here. Original length: {} chars ({} lines, ~{est} images). {showing} ]\n\n",
        thousands(lines.len() - head - tail),
        thousands(omitted),
        thousands(total),
        thousands(lines.len()),
    );
    Some(Truncated {
        text: head_text + &marker + &tail_text,
        omitted,
    })
}

/// JSON, YAML front matter or a diff, judged from its first 4096 bytes.
fn is_structured(text: &str) -> bool {
    let b = &text.as_bytes()[..text.len().min(SHAPE_PREFIX)];
    let start = b
        .iter()
        .position(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
        .unwrap_or(b.len());
    let b = &b[start..];
    let is_s = |c: u8| matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
    let after_ws = |from: usize| {
        let mut i = from;
        while i < b.len() && is_s(b[i]) {
            i += 1;
        }
        &b[i..]
    };
    let word = |rest: &[u8], w: &[u8]| {
        rest.starts_with(w)
            && rest
                .get(w.len())
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
    };
    match b.first() {
        Some(b'{') => matches!(after_ws(1).first(), Some(b'"' | b'}')),
        Some(b'[') => {
            let r = after_ws(1);
            let digit = r.strip_prefix(b"-").unwrap_or(r);
            matches!(r.first(), Some(b'"' | b'{' | b'[' | b']'))
                || digit.first().is_some_and(u8::is_ascii_digit)
                || word(r, b"true")
                || word(r, b"false")
                || word(r, b"null")
        }
        _ => {
            b.starts_with(b"---\n")
                || b.starts_with(b"---\r\n")
                || b.starts_with(b"diff --git ")
                || b.strip_prefix(b"---").is_some_and(|r| {
                    let n = r.iter().take_while(|&&c| is_s(c)).count();
                    n > 0 && r.get(n).is_some_and(|&c| !is_s(c))
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pixel::simulate::text::prepare;

    const STD: Limits = Limits {
        cap: 10,
        cols: 312,
        budget: 28080,
        rows_per_image: 90,
    };

    #[test]
    fn shapes() {
        assert!(is_structured("  [{\"a\":1}]"));
        assert!(is_structured("[ -3, 4]"));
        assert!(is_structured("[true]"));
        assert!(!is_structured("[trueish]"));
        assert!(is_structured("{ \"a\": 1 }"));
        assert!(!is_structured("{\u{21b5}  \"a\": 1}"));
        assert!(is_structured("--- a/x\n+++ b/x"));
        assert!(is_structured("diff --git a/x b/x"));
        assert!(!is_structured("---"));
        assert!(!is_structured("2026-01-01 INFO start"));
    }

    #[test]
    fn log_example_keeps_head_and_tail() {
        // §9.3: 1000 log lines of under 312 characters, 100049 units once
        // reflowed (1001 lines with the empty last one).
        let mut log = String::new();
        for i in 0..1000 {
            let width = if i < 49 { 100 } else { 99 };
            log.push_str(&format!("{i:0>width$}\n"));
        }
        let p = prepare(&log);
        assert_eq!((u16_len(&p), p.split('\u{21b5}').count()), (100049, 1001));
        let t = truncate(&p, STD).unwrap();
        assert!(t.text.contains("[ pxpipe paging: omitted 107 lines ("));
        assert!(t.text.contains(
            "Original length: 100,049 chars (1,001 lines, ~12 images). Showing first 536 lines and last 358 lines. ]\n\n"
        ));
        // Head: 49 lines of 100, 487 of 99 and 535 joins; tail: 357 lines
        // of 99, the empty last line and 357 joins.
        assert_eq!(
            t.omitted,
            100049 - (4900 + 487 * 99 + 535) - (357 * 99 + 357)
        );
    }

    #[test]
    fn fitting_text_is_kept() {
        assert_eq!(truncate("short", STD), None);
    }
}
