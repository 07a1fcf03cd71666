//! Go `encoding/csv` with its default settings: the `Reader` (quoted fields
//! with `""`, multi-line quotes, a bare `"` in an unquoted field is an
//! error, empty lines skipped, CRLF read as LF, every record as wide as the
//! first) and the `Writer`; the records are stored flat.

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
    pub(crate) fn new(src: &'a str, delim: u8) -> Rows<'a> {
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

    /// A field that is not a span of the input (a trimmed Markdown cell).
    pub(crate) fn push_field(&mut self, text: &str) {
        let start = self.decoded.len();
        self.decoded.push_str(text);
        self.push_decoded(start);
    }

    /// Closes the current record.
    pub(crate) fn end_row(&mut self) {
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
                let records = memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1;
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
    field.chars().next().is_some_and(char::is_whitespace)
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
