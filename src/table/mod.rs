//! The strict table parser shared by detection, the tabular compressor and
//! `retrieve` (spec/tabular.md §3): Markdown pipe tables first, then CSV/TSV
//! read with Go `encoding/csv` default rules ([`crate::go::csv`]).

use crate::go::csv::{csv_shape, read_csv, Rows, MAX_INPUT};
use crate::go::unicode::{is_blank, trim_space};

pub mod aligned;
pub mod quantity;

/// Most columns a table may have.
pub const MAX_COLUMNS: usize = 128;

/// What kind of table was parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Markdown,
    Csv,
    Tsv,
}

/// A parsed table; `rows.row(0)` is the header (and for Markdown
/// `rows.row(1)` the separator).
#[derive(Debug, Clone)]
pub struct Table<'a> {
    pub kind: Kind,
    pub rows: Rows<'a>,
    /// Majority of line ends were CRLF (tabular.md §3.5).
    pub crlf: bool,
}

impl Table<'_> {
    /// Number of header rows (2 for Markdown, 1 otherwise).
    pub fn header_rows(&self) -> usize {
        if self.kind == Kind::Markdown {
            2
        } else {
            1
        }
    }

    pub fn delimiter(&self) -> u8 {
        if self.kind == Kind::Tsv {
            b'\t'
        } else {
            b','
        }
    }
}

/// True iff the input has at least one LF and 2 x CRLF > LF.
pub fn majority_crlf(input: &[u8]) -> bool {
    let lf = memchr_count(b'\n', input);
    if lf == 0 {
        return false;
    }
    let crlf = memchr::memmem::find_iter(input, b"\r\n").count();
    2 * crlf > lf
}

fn memchr_count(b: u8, s: &[u8]) -> usize {
    memchr::memchr_iter(b, s).count()
}

/// Parses a table (tabular.md §3), or `None`.
pub fn parse(input: &[u8]) -> Option<Table<'_>> {
    parse_text(std::str::from_utf8(input).ok()?)
}

/// [`parse`] of input already known to be UTF-8.
pub fn parse_text(text: &str) -> Option<Table<'_>> {
    let input = text.as_bytes();
    if is_blank(input) || input.len() >= MAX_INPUT {
        return None;
    }
    if let Some(t) = parse_markdown(text) {
        return Some(t);
    }
    parse_dsv(text)
}

/// Rows the parser accepts as a table at all, for detection (>= 8 rows).
/// Same checks as [`parse`], without keeping the records.
pub fn looks_tabular(text: &str) -> bool {
    if is_blank(text.as_bytes()) {
        return false;
    }
    if let Some(t) = parse_markdown(text) {
        return t.rows.len() >= 8;
    }
    match dsv_delimiter(text) {
        Some(d) => {
            csv_shape(text, d).is_some_and(|(n, w)| n >= 8 && (2..=MAX_COLUMNS).contains(&w))
        }
        None => false,
    }
}

fn is_separator_cell(c: &str) -> bool {
    let c = c.strip_prefix(':').unwrap_or(c);
    let c = c.strip_suffix(':').unwrap_or(c);
    c.len() >= 3 && c.bytes().all(|b| b == b'-')
}

fn parse_markdown(text: &str) -> Option<Table<'_>> {
    // Every line must start with `|` after trimming: check the first one
    // before copying anything.
    let first = text.split('\n').next().unwrap_or(text);
    if !str::trim(first).starts_with('|') {
        return None;
    }
    let crlf = majority_crlf(text.as_bytes());
    let norm = text.replace("\r\n", "\n");
    let norm = norm.strip_suffix('\n').unwrap_or(&norm);
    let lines: Vec<&str> = norm.split('\n').collect();
    if lines.len() < 3 {
        return None;
    }
    let mut rows = Rows::new(text, b'|');
    for line in &lines {
        let t = str::trim(line);
        if !(t.starts_with('|') && t.ends_with('|')) {
            return None;
        }
        for c in t.trim_matches('|').split('|') {
            rows.push_field(c.trim());
        }
        rows.end_row();
    }
    let width = rows.row(0).len();
    if width < 2 {
        return None;
    }
    let sep = rows.row(1);
    if sep.len() != width || !sep.iter().all(is_separator_cell) {
        return None;
    }
    if rows.iter().any(|r| r.len() != width) {
        return None;
    }
    Some(Table {
        kind: Kind::Markdown,
        rows,
        crlf,
    })
}

/// The delimiter the first line picks (tabular.md §3.3 steps 1-2).
fn dsv_delimiter(text: &str) -> Option<u8> {
    let trimmed = trim_space(text.as_bytes());
    let first = match memchr::memchr(b'\n', trimmed) {
        Some(i) => &trimmed[..i],
        None => trimmed,
    };
    let tabs = memchr_count(b'\t', first);
    let commas = memchr_count(b',', first);
    let delim = if tabs >= 1 && tabs > commas {
        b'\t'
    } else {
        b','
    };
    first.contains(&delim).then_some(delim)
}

fn parse_dsv(text: &str) -> Option<Table<'_>> {
    let delim = dsv_delimiter(text)?;
    let rows = read_csv(text, delim)?;
    if rows.len() < 2 {
        return None;
    }
    let w = rows.row(0).len();
    if !(2..=MAX_COLUMNS).contains(&w) {
        return None;
    }
    Some(Table {
        kind: if delim == b'\t' { Kind::Tsv } else { Kind::Csv },
        rows,
        crlf: majority_crlf(text.as_bytes()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(t: &str) -> Vec<Vec<String>> {
        parse(t.as_bytes())
            .map(|t| {
                t.rows
                    .iter()
                    .map(|r| r.iter().map(|c| c.to_string()).collect())
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn csv_basics() {
        assert_eq!(rows("a,b\n1,2\n"), vec![vec!["a", "b"], vec!["1", "2"]]);
        assert_eq!(rows("a,b\n1,2\n\r"), vec![vec!["a", "b"], vec!["1", "2"]]);
        assert_eq!(
            rows("a,b\r\n\r\n\"x\"\"y\",\"multi\r\nline\"\r\n"),
            vec![vec!["a", "b"], vec!["x\"y", "multi\nline"]]
        );
        assert_eq!(rows("a,b\n1,\"2\",\n"), Vec::<Vec<String>>::new());
        assert_eq!(
            rows("a,b,\n1,\"2\",\n"),
            vec![vec!["a", "b", ""], vec!["1", "2", ""]]
        );
        assert!(rows("a,b\n1,x\"y\n").is_empty());
        assert!(rows("a,b\n1,\"x\"y\n").is_empty());
        assert!(rows("a,b\n1,\"open\n").is_empty());
        assert!(rows("a,b\n1,2,3\n").is_empty());
        assert!(rows("a\tb,c\n1\t2\n").is_empty());
        // Fields stored as their start end where the reader cut them: a
        // CR stays unless it ends the line or the input.
        assert_eq!(
            rows("a,b\r\nx\ry,z\r\nq\r,w\n1,2\r"),
            vec![
                vec!["a", "b"],
                vec!["x\ry", "z"],
                vec!["q\r", "w"],
                vec!["1", "2"]
            ]
        );
        assert_eq!(
            rows("a\tb\n\t\n\"x\ty\"\t\"\"\n"),
            vec![vec!["a", "b"], vec!["", ""], vec!["x\ty", ""]]
        );
    }

    #[test]
    fn markdown_basics() {
        let t = "| a | b |\n|---|:---:|\n| 1 | 2 |\n";
        assert_eq!(rows(t)[1], vec!["---", ":---:"]);
        assert!(rows("| a | b |\n| -- | --- |\n| 1 | 2 |\n").is_empty());
    }
}
