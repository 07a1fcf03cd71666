//! The strict table parser shared by detection, the tabular compressor and
//! `retrieve` (spec/tabular.md §3): Markdown pipe tables first, then CSV/TSV
//! read with Go `encoding/csv` default rules; and the Go `csv.Writer`.

use std::borrow::Cow;

use crate::text::{is_blank, trim_space, trim_str};

/// Most columns a table may have.
pub const MAX_COLUMNS: usize = 128;

/// What kind of table was parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Markdown,
    Csv,
    Tsv,
}

/// A parsed table; `rows[0]` is the header (and for Markdown `rows[1]` the
/// separator).
#[derive(Debug, Clone)]
pub struct Table<'a> {
    pub kind: Kind,
    pub rows: Vec<Vec<Cow<'a, str>>>,
    /// Majority of line ends were CRLF (tabular.md §3.5).
    pub crlf: bool,
    /// CSV/TSV: byte offset just past each record in the input.
    pub ends: Vec<usize>,
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
    let text = std::str::from_utf8(input).ok()?;
    if is_blank(input) {
        return None;
    }
    if let Some(t) = parse_markdown(text) {
        return Some(t);
    }
    parse_dsv(text)
}

/// Rows the parser accepts as a table at all, for detection (>= 8 rows).
/// Same checks as [`parse`], without keeping the records.
pub fn looks_tabular(input: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(input) else {
        return false;
    };
    if is_blank(input) {
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
    if !trim_str(first).starts_with('|') {
        return None;
    }
    let crlf = majority_crlf(text.as_bytes());
    let norm = text.replace("\r\n", "\n");
    let norm = norm.strip_suffix('\n').unwrap_or(&norm);
    let lines: Vec<&str> = norm.split('\n').collect();
    if lines.len() < 3 {
        return None;
    }
    let mut rows: Vec<Vec<Cow<'_, str>>> = Vec::with_capacity(lines.len());
    for line in &lines {
        let t = trim_str(line);
        if !(t.starts_with('|') && t.ends_with('|')) {
            return None;
        }
        let inner = t.trim_matches('|');
        let cells: Vec<Cow<'_, str>> = inner
            .split('|')
            .map(|c| Cow::Owned(trim_str(c).to_string()))
            .collect();
        rows.push(cells);
    }
    let width = rows[0].len();
    if width < 2 {
        return None;
    }
    if rows[1].len() != width || !rows[1].iter().all(|c| is_separator_cell(c)) {
        return None;
    }
    if rows.iter().any(|r| r.len() != width) {
        return None;
    }
    Some(Table {
        kind: Kind::Markdown,
        rows,
        crlf,
        ends: Vec::new(),
    })
}

/// One physical line: content without its terminator, whether it had a
/// `\n`, and the offset after it.
struct Line<'a> {
    content: &'a str,
    has_nl: bool,
    next: usize,
}

/// Go `csv.Reader.readLine`: CRLF counts as LF; a lone CR right before end
/// of input is dropped.
fn read_line(text: &str, pos: usize) -> Option<Line<'_>> {
    if pos >= text.len() {
        return None;
    }
    let bytes = text.as_bytes();
    match memchr::memchr(b'\n', &bytes[pos..]) {
        Some(off) => {
            let nl = pos + off;
            let end = if nl > pos && bytes[nl - 1] == b'\r' {
                nl - 1
            } else {
                nl
            };
            Some(Line {
                content: &text[pos..end],
                has_nl: true,
                next: nl + 1,
            })
        }
        None => {
            let mut end = text.len();
            if bytes[end - 1] == b'\r' {
                end -= 1;
            }
            Some(Line {
                content: &text[pos..end],
                has_nl: false,
                next: text.len(),
            })
        }
    }
}

/// Records (fields per record) and the byte offset after each record.
pub type Records<'a> = (Vec<Vec<Cow<'a, str>>>, Vec<usize>);

/// Reads every record with Go `encoding/csv` defaults; `None` on any error.
pub fn read_csv(text: &str, delim: u8) -> Option<Records<'_>> {
    scan_csv(text, delim, true).map(|(records, ends, _, _)| (records, ends))
}

/// Record count and field count of a valid CSV text, without keeping the
/// records (detection only needs the shape).
pub fn csv_shape(text: &str, delim: u8) -> Option<(usize, usize)> {
    scan_csv(text, delim, false).map(|(_, _, n, w)| (n, w))
}

/// What a scan found: records and ends (when built), record count, width.
type Scan<'a> = (Vec<Vec<Cow<'a, str>>>, Vec<usize>, usize, usize);

/// The reader. With `build` false no record is kept and no field text is
/// copied: the same checks run, allocation-free per record.
fn scan_csv(text: &str, delim: u8, build: bool) -> Option<Scan<'_>> {
    let mut records: Vec<Vec<Cow<'_, str>>> = Vec::new();
    let mut count = 0usize;
    let mut fields: Vec<Cow<'_, str>> = Vec::new();
    let mut buf = String::new();
    let mut ends = Vec::new();
    let mut pos = 0;
    let mut width = None;
    let d = delim as char;
    while let Some(line) = read_line(text, pos) {
        pos = line.next;
        if line.content.is_empty() && (line.has_nl || line.next == text.len()) {
            // Empty line (or a lone CR at the very end): skipped.
            continue;
        }
        fields.clear();
        let mut rest = line.content;
        let mut has_nl = line.has_nl;
        loop {
            if !rest.starts_with('"') {
                let (field, more) = match memchr::memchr(delim, rest.as_bytes()) {
                    Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                    None => (rest, None),
                };
                if memchr::memchr(b'"', field.as_bytes()).is_some() {
                    return None;
                }
                fields.push(Cow::Borrowed(field));
                match more {
                    Some(m) => {
                        rest = m;
                        continue;
                    }
                    None => break,
                }
            }
            // Quoted field, possibly spanning lines.
            buf.clear();
            rest = &rest[1..];
            let more_fields = loop {
                if let Some(i) = memchr::memchr(b'"', rest.as_bytes()) {
                    buf.push_str(&rest[..i]);
                    rest = &rest[i + 1..];
                    if rest.starts_with('"') {
                        buf.push('"');
                        rest = &rest[1..];
                    } else if rest.starts_with(d) {
                        rest = &rest[1..];
                        break true;
                    } else if rest.is_empty() {
                        break false;
                    } else {
                        return None;
                    }
                } else {
                    buf.push_str(rest);
                    if !has_nl {
                        return None;
                    }
                    buf.push('\n');
                    let next = read_line(text, pos)?;
                    pos = next.next;
                    rest = next.content;
                    has_nl = next.has_nl;
                }
            };
            fields.push(if build {
                Cow::Owned(std::mem::take(&mut buf))
            } else {
                Cow::Borrowed("")
            });
            if !more_fields {
                break;
            }
        }
        let w = fields.len();
        count += 1;
        if build {
            records.push(std::mem::take(&mut fields));
            ends.push(pos);
        }
        match width {
            None => width = Some(w),
            Some(x) if x != w => return None,
            _ => {}
        }
    }
    Some((records, ends, count, width.unwrap_or(0)))
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
    let (rows, ends) = read_csv(text, delim)?;
    if rows.len() < 2 {
        return None;
    }
    let w = rows[0].len();
    if !(2..=MAX_COLUMNS).contains(&w) {
        return None;
    }
    Some(Table {
        kind: if delim == b'\t' { Kind::Tsv } else { Kind::Csv },
        rows,
        crlf: majority_crlf(text.as_bytes()),
        ends,
    })
}

/// Go `csv.Writer.fieldNeedsQuotes`.
fn needs_quotes(field: &str, delim: u8) -> bool {
    if field.is_empty() {
        return false;
    }
    if field == "\\." {
        return true;
    }
    if field
        .bytes()
        .any(|b| b == delim || b == b'"' || b == b'\r' || b == b'\n')
    {
        return true;
    }
    field
        .chars()
        .next()
        .is_some_and(crate::tokens::is_unicode_space)
}

/// Appends one record as Go's `csv.Writer` writes it.
pub fn write_record<S: AsRef<str>>(out: &mut Vec<u8>, fields: &[S], delim: u8, crlf: bool) {
    for (i, f) in fields.iter().enumerate() {
        let f = f.as_ref();
        if i > 0 {
            out.push(delim);
        }
        if !needs_quotes(f, delim) {
            out.extend_from_slice(f.as_bytes());
            continue;
        }
        out.push(b'"');
        for &b in f.as_bytes() {
            match b {
                b'"' => out.extend_from_slice(b"\"\""),
                b'\r' if crlf => {}
                b'\n' if crlf => out.extend_from_slice(b"\r\n"),
                _ => out.push(b),
            }
        }
        out.push(b'"');
    }
    out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
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
    }

    #[test]
    fn markdown_basics() {
        let t = "| a | b |\n|---|:---:|\n| 1 | 2 |\n";
        assert_eq!(rows(t)[1], vec!["---", ":---:"]);
        assert!(rows("| a | b |\n| -- | --- |\n| 1 | 2 |\n").is_empty());
    }

    #[test]
    fn writer_quoting() {
        let mut out = Vec::new();
        write_record(
            &mut out,
            &["1", "plain", " lead", "a,b", "q\"", ""],
            b',',
            false,
        );
        assert_eq!(out, b"1,plain,\" lead\",\"a,b\",\"q\"\"\",\n");
        let mut out = Vec::new();
        write_record(&mut out, &["a\nb", "c"], b'\t', true);
        assert_eq!(out, b"\"a\r\nb\"\tc\r\n");
    }
}
