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
        if t.rows.len() >= MIN_ROWS && !prose::around_table(&ctx.sample) {
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
}
