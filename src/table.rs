//! The strict table parser shared by detection, the tabular compressor and
//! `retrieve` (spec/tabular.md §3): Markdown pipe tables first, then CSV/TSV
//! read with Go `encoding/csv` default rules; and the Go `csv.Writer`.

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

/// A parsed table; `rows.row(0)` is the header (and for Markdown
/// `rows.row(1)` the separator).
#[derive(Debug, Clone)]
pub struct Table<'a> {
    pub kind: Kind,
    pub rows: Rows<'a>,
    /// Majority of line ends were CRLF (tabular.md §3.5).
    pub crlf: bool,
}

/// Records of fields, stored flat: 4 bytes a field, where a vector of
/// strings per record took 24 a field plus 24 a record (a 64 MB CSV of
/// 7.7M fields: 31 MB, not 210). A field of the input is stored as its
/// start: it runs to the next delimiter or line end, as the reader found
/// it. A field that needed decoding (quoted CSV fields, Markdown cells)
/// is a span of one decoded buffer, stored aside.
#[derive(Debug, Clone, Default)]
pub struct Rows<'a> {
    src: &'a str,
    delim: u8,
    /// Per field: its start in `src`, or with [`DECODED`] set the index of
    /// its span in `spans`.
    cells: Vec<u32>,
    decoded: String,
    spans: Vec<(u32, u32)>,
    /// Record i's fields are `cells[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    /// CSV/TSV: byte offset just past each record in the input.
    pub ends: Vec<u32>,
}

const DECODED: u32 = 1 << 31;

impl<'a> Rows<'a> {
    fn new(src: &'a str, delim: u8) -> Rows<'a> {
        Rows {
            src,
            delim,
            starts: vec![0],
            ..Rows::default()
        }
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i`.
    pub fn row(&self, i: usize) -> Row<'_> {
        Row {
            rows: self,
            cells: &self.cells[self.starts[i] as usize..self.starts[i + 1] as usize],
        }
    }

    /// Every record, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Row<'_>> + '_ {
        (0..self.len()).map(|i| self.row(i))
    }

    fn text(&self, c: u32) -> &str {
        if c & DECODED != 0 {
            let (start, end) = self.spans[(c & !DECODED) as usize];
            return &self.decoded[start as usize..end as usize];
        }
        // As `read_line` and the reader cut it: up to the delimiter, or to
        // the line end without a CR before it (or before the end of input).
        let s = self.src.as_bytes();
        let start = c as usize;
        match memchr::memchr2(self.delim, b'\n', &s[start..]) {
            Some(i) if s[start + i] == self.delim => &self.src[start..start + i],
            found => {
                let mut end = found.map_or(s.len(), |i| start + i);
                if end > start && s[end - 1] == b'\r' {
                    end -= 1;
                }
                &self.src[start..end]
            }
        }
    }

    /// A field that is a span of the input, as the reader found it.
    fn push_span(&mut self, field: &str) {
        self.cells
            .push((field.as_ptr() as usize - self.src.as_ptr() as usize) as u32);
    }

    /// A field of the decoded buffer, from `start` to its end.
    fn push_decoded(&mut self, start: usize) {
        self.cells.push(self.spans.len() as u32 | DECODED);
        self.spans.push((start as u32, self.decoded.len() as u32));
    }

    /// Closes the current record.
    fn end_row(&mut self) {
        self.starts.push(self.cells.len() as u32);
    }
}

/// One record of a [`Rows`].
#[derive(Clone, Copy)]
pub struct Row<'t> {
    rows: &'t Rows<'t>,
    cells: &'t [u32],
}

impl<'t> Row<'t> {
    /// Number of fields.
    pub fn len(self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(self) -> bool {
        self.cells.is_empty()
    }

    /// Field `c`, if the record has it.
    pub fn get(self, c: usize) -> Option<&'t str> {
        self.cells.get(c).map(|&cell| self.rows.text(cell))
    }

    /// The fields, in order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = &'t str> {
        self.cells.iter().map(move |&cell| self.rows.text(cell))
    }

    /// The fields joined with `sep`.
    pub fn join(self, sep: &str) -> String {
        let mut out = String::new();
        self.join_into(sep, &mut out);
        out
    }

    /// The fields joined with `sep`, appended to `out`.
    pub fn join_into(self, sep: &str, out: &mut String) {
        for (i, f) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(f);
        }
    }
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
    let mut rows = Rows::new(text, b'|');
    for line in &lines {
        let t = trim_str(line);
        if !(t.starts_with('|') && t.ends_with('|')) {
            return None;
        }
        for c in t.trim_matches('|').split('|') {
            let start = rows.decoded.len();
            rows.decoded.push_str(trim_str(c));
            rows.push_decoded(start);
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

/// Inputs up to this size are read (a field's start, its top bit spare,
/// fits 32 bits); the CLI reads at most 64 MiB.
pub const MAX_INPUT: usize = 1 << 31;

/// Reads every record with Go `encoding/csv` defaults; `None` on any error.
pub fn read_csv(text: &str, delim: u8) -> Option<Rows<'_>> {
    if text.len() >= MAX_INPUT {
        return None;
    }
    scan_csv(text, delim, true).map(|(rows, _, _)| rows)
}

/// Record count and field count of a valid CSV text, without keeping the
/// records (detection only needs the shape).
pub fn csv_shape(text: &str, delim: u8) -> Option<(usize, usize)> {
    scan_csv(text, delim, false).map(|(_, n, w)| (n, w))
}

/// What a scan found: the records (when built), record count, width.
type Scan<'a> = (Rows<'a>, usize, usize);

/// The reader. With `build` false no record is kept and no field text is
/// copied: the same checks run, allocation-free per record.
fn scan_csv(text: &str, delim: u8, build: bool) -> Option<Scan<'_>> {
    let mut rows = Rows::new(text, delim);
    let mut count = 0usize;
    let mut pos = 0;
    let mut width = None;
    let d = delim as char;
    while let Some(line) = read_line(text, pos) {
        pos = line.next;
        if line.content.is_empty() && (line.has_nl || line.next == text.len()) {
            // Empty line (or a lone CR at the very end): skipped.
            continue;
        }
        // Fields of this record.
        let mut fields = 0usize;
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
                if build {
                    rows.push_span(field);
                }
                fields += 1;
                match more {
                    Some(m) => {
                        rest = m;
                        continue;
                    }
                    None => break,
                }
            }
            // Quoted field, possibly spanning lines, decoded (when built)
            // into the buffer.
            let start = rows.decoded.len();
            let buf = &mut rows.decoded;
            rest = &rest[1..];
            let more_fields = loop {
                if let Some(i) = memchr::memchr(b'"', rest.as_bytes()) {
                    if build {
                        buf.push_str(&rest[..i]);
                    }
                    rest = &rest[i + 1..];
                    if rest.starts_with('"') {
                        if build {
                            buf.push('"');
                        }
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
                    if !has_nl {
                        return None;
                    }
                    if build {
                        buf.push_str(rest);
                        buf.push('\n');
                    }
                    let next = read_line(text, pos)?;
                    pos = next.next;
                    rest = next.content;
                    has_nl = next.has_nl;
                }
            };
            if build {
                rows.push_decoded(start);
            }
            fields += 1;
            if !more_fields {
                break;
            }
        }
        let w = fields;
        count += 1;
        if build {
            if count == 1 {
                // No more records than lines, each as wide as the first:
                // room for all of them up front, as growing by doubling
                // would leave every outgrown buffer with the allocator.
                // Room a table does not fill is never touched.
                let records = memchr_count(b'\n', text.as_bytes()) + 1;
                rows.cells.reserve(records.saturating_mul(w));
                rows.starts.reserve(records);
                rows.ends.reserve(records);
            }
            rows.end_row();
            rows.ends.push(pos as u32);
        }
        match width {
            None => width = Some(w),
            Some(x) if x != w => return None,
            _ => {}
        }
    }
    Some((rows, count, width.unwrap_or(0)))
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
pub fn write_record<'f>(
    out: &mut Vec<u8>,
    fields: impl IntoIterator<Item = &'f str>,
    delim: u8,
    crlf: bool,
) {
    for (i, f) in fields.into_iter().enumerate() {
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

    #[test]
    fn writer_quoting() {
        let mut out = Vec::new();
        write_record(
            &mut out,
            ["1", "plain", " lead", "a,b", "q\"", ""],
            b',',
            false,
        );
        assert_eq!(out, b"1,plain,\" lead\",\"a,b\",\"q\"\"\",\n");
        let mut out = Vec::new();
        write_record(&mut out, ["a\nb", "c"], b'\t', true);
        assert_eq!(out, b"\"a\r\nb\"\tc\r\n");
    }
}
