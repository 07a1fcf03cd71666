//! Tables: CSV, TSV and Markdown pipe tables, and the whitespace-aligned
//! or box-drawn tables command-line tools print (`ls -l`, `ps`, `df`,
//! `kubectl get`, `docker ps`), also after a short preamble (a tool's
//! header line, a `kubectl` warning).

use crate::ascii_first::AsciiFirst;

use super::{prose, share, Ctx, Hit};
use crate::content_type::ContentType;
use crate::detect::Parsed;

/// Rows a table needs.
const MIN_ROWS: usize = 8;
/// Non-table lines an aligned table may have before it.
const MAX_PREAMBLE: usize = 3;

/// CSV, TSV or a Markdown table of 8+ rows that is the document (not one
/// part among prose).
pub(super) fn delimited<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    if let Some(t) = ctx.valid.and_then(crate::table::parse_text) {
        if t.rows.len() >= MIN_ROWS && !prose::around_table(&ctx.sample) && !splits_timestamps(&t) {
            let score = share(t.rows.len() + 1, ctx.sample.non_blank.max(1)).max(90);
            let parsed = if ctx.keep {
                Parsed::Table(t)
            } else {
                Parsed::Nothing
            };
            return Some(
                Hit::new(
                    ContentType::Tabular,
                    "8+ rows of one CSV, TSV or Markdown table",
                    score,
                )
                .with(parsed),
            );
        }
    }
    // Text that is not valid UTF-8 (a Latin-1 export): the same test on
    // its lossy reading, the compressor reads it again.
    if ctx.valid.is_none() && ctx.text.len() < 1 << 20 {
        if let Some(t) = crate::table::parse_text(ctx.text) {
            if t.rows.len() >= MIN_ROWS {
                return Some(Hit::new(
                    ContentType::Tabular,
                    "8+ rows of one CSV, TSV or Markdown table (not valid UTF-8)",
                    90,
                ));
            }
        }
    }
    markdown(ctx)
}

/// Rows of a CSV read to tell whether its commas split timestamps.
const TIMESTAMP_ROWS: usize = 200;

/// Whether a CSV's only comma is the decimal comma of its lines' leading
/// timestamps (`2026-12-07 14:02:11,000 INFO …`: Python logging's default
/// time, log4j's ISO8601): a log, not a two-column table. Most of its first
/// rows (the header too) end their first cell in a time of day and start
/// the second in three digits and a space.
fn splits_timestamps(t: &crate::table::Table<'_>) -> bool {
    if t.kind != crate::table::Kind::Csv {
        return false;
    }
    let time = |c: &str| {
        let b = c.as_bytes();
        b.len() >= 8 && {
            let b = &b[b.len() - 8..];
            b.iter().enumerate().all(|(i, &x)| match i {
                2 | 5 => x == b':',
                _ => x.is_ascii_digit(),
            })
        }
    };
    let millis = |c: &str| {
        let b = c.as_bytes();
        b.len() > 4 && b[..3].iter().all(u8::is_ascii_digit) && b[3] == b' '
    };
    let rows = t.rows.len().min(TIMESTAMP_ROWS);
    let split = (0..rows)
        .filter(|&i| {
            let r = t.rows.row(i);
            r.get(0).is_some_and(time) && r.get(1).is_some_and(millis)
        })
        .count();
    split * 5 >= rows * 4
}

/// A Markdown table's delimiter row: `---|---`, `|:--|--:|`.
static MD_DELIMITER: AsciiFirst = AsciiFirst::new(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$");

/// A Markdown pipe table, leading and trailing pipes optional, rows of
/// any cell count (escaped pipes, ragged rows), most of the document.
fn markdown<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let lines = &ctx.sample.lines;
    let mut table_lines = 0;
    let mut rows_best = 0;
    let mut i = 0;
    while i + 1 < lines.len() {
        if lines[i].contains('|') && MD_DELIMITER.is_match(lines[i + 1]) {
            let rows = lines[i + 2..]
                .iter()
                .take_while(|l| l.contains('|') && !l.trim().is_empty())
                .count();
            table_lines += rows + 2;
            rows_best = rows_best.max(rows);
            i += rows + 2;
        } else {
            i += 1;
        }
    }
    if rows_best < MIN_ROWS {
        return None;
    }
    let score = share(table_lines, ctx.sample.non_blank);
    (score >= 60).then(|| {
        Hit::new(
            ContentType::Tabular,
            "a Markdown pipe table of 8+ rows (most of the document)",
            score,
        )
    })
}

/// `ls -l` rows: a file-type and permission column.
static LS_ROW: AsciiFirst = AsciiFirst::new(r"^[-dlcbpsD][rwxsStTl-]{9}[.+@]?\s+\d+\s");

/// `ls -lR` (or `ls -l` of several directories): directory headers
/// (`./lib:`), `total N` lines and `ls -l` rows.
pub(super) fn listing<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    let rows = s.count(|l| LS_ROW.is_match(l));
    let heads = s.count(|l| l.ends_with(':') && !l.contains(' ') || l.starts_with("total "));
    (rows >= MIN_ROWS / 2 && rows + heads == s.non_blank && heads >= 2).then(|| {
        Hit::new(
            ContentType::Tabular,
            "ls -l listings: directory headers, totals and file rows",
            100,
        )
    })
}

/// A whitespace-aligned or box-drawn table, possibly after a short
/// preamble.
pub(super) fn aligned<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let lines = &ctx.sample.lines;
    if !crate::table::aligned::may_parse(lines.iter().copied()) {
        return None;
    }
    let content: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim().is_empty())
        .collect();
    for skip in 0..=MAX_PREAMBLE.min(content.len().saturating_sub(1)) {
        let from = content.get(skip).copied().unwrap_or(lines.len());
        if let Some(t) = crate::table::aligned::parse(&lines[from..]) {
            let rows = t.rows.len() + usize::from(t.header.is_some());
            let score = share(rows, ctx.sample.non_blank);
            if score >= 50 {
                let rule = if skip == 0 {
                    "a whitespace-aligned or box-drawn table (ls -l, ps, df, kubectl get, docker ps)"
                } else {
                    "a whitespace-aligned or box-drawn table after a short preamble"
                };
                return Some(Hit::new(ContentType::Tabular, rule, score));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both forms compile; the ASCII form answers as the Unicode one.
    #[test]
    fn patterns_compile_in_both_forms() {
        MD_DELIMITER.force();
        LS_ROW.force();
        assert!(MD_DELIMITER.is_match("|---|:--:|"));
        assert!(MD_DELIMITER.is_match("\u{a0}--- | ---"));
        assert!(!MD_DELIMITER.is_match("| a | b |"));
        assert!(LS_ROW.is_match("drwxr-xr-x  2 root root 4096 Jan  1 a"));
        assert!(LS_ROW.is_match("-rw-r--r--\u{2003}1 \u{e9} x"));
        assert!(!LS_ROW.is_match("total 8"));
    }

    /// A log whose timestamps carry a decimal comma is no two-column CSV;
    /// a real two-column CSV of times and counts still is a table.
    #[test]
    fn a_comma_before_the_milliseconds_splits_no_table() {
        let log: String = (0..40)
            .map(|i| {
                format!(
                    "2026-12-07 14:02:{:02},{:03} INFO [disk-monitor] host=db-{} usage={}%\n",
                    i % 60,
                    i * 7 % 1000,
                    i % 5,
                    40 + i % 50
                )
            })
            .collect();
        let t = crate::table::parse_text(&log).expect("reads as a CSV");
        assert!(splits_timestamps(&t));
        let csv: String = std::iter::once("time,count\n".to_string())
            .chain((0..40).map(|i| format!("2026-12-07 14:02:{:02},{}\n", i % 60, i * 3)))
            .collect();
        let t = crate::table::parse_text(&csv).expect("a CSV");
        assert!(!splits_timestamps(&t));
    }
}
