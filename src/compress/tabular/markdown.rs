//! Lean Markdown pipe tables (GFM), with or without the outer pipes: read
//! as cells, written back without alignment padding (`| a    |` → `| a |`,
//! delimiter cells `---`, `:--`, `--:`, `:-:`); a marker is a row of the
//! table, never a bare line.

use std::borrow::Cow;

use super::cut::lean_cut;
use super::lean::{lean_summary, Grid, LEAN_TAIL};
use super::whole;
use crate::compress::shared::dropped_runs;
use crate::compress::{Compressed, Trace};

/// A pipe table: every non-blank line a row, the second a delimiter row
/// with as many cells as the header.
pub(super) struct Pipe<'a> {
    names: Vec<&'a str>,
    aligns: Vec<&'static str>,
    rows: Vec<Vec<&'a str>>,
    crlf: bool,
    ends_lf: bool,
    /// Whether the header or the first row has outer pipes (`| a | b |`,
    /// not `a | b`): a table is written back in its own style.
    outer: bool,
    /// The delimiter line as written, for a table without outer pipes
    /// (`---|---` is already compact).
    delim_line: &'a str,
}

/// The cells of a table line: outer pipes dropped, split on pipes that are
/// not escaped (`\|`), trimmed.
fn cells(line: &str) -> Vec<&str> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = match t.strip_suffix('|') {
        Some(s) if !s.ends_with('\\') => s,
        _ => t,
    };
    let mut out = Vec::new();
    let b = t.as_bytes();
    let mut start = 0;
    for i in 0..b.len() {
        if b[i] == b'|' && (i == 0 || b[i - 1] != b'\\') {
            out.push(t[start..i].trim());
            start = i + 1;
        }
    }
    out.push(t[start..].trim());
    out
}

/// The alignment of a delimiter cell (`:--`, `--:`, `:-:`, `---`), or
/// `None` when the cell is not one.
fn align(cell: &str) -> Option<&'static str> {
    let left = cell.starts_with(':');
    let right = cell.len() > 1 && cell.ends_with(':');
    let dashes = &cell[usize::from(left)..cell.len() - usize::from(right)];
    if dashes.is_empty() || !dashes.bytes().all(|b| b == b'-') {
        return None;
    }
    Some(match (left, right) {
        (true, true) => ":-:",
        (true, false) => ":--",
        (false, true) => "--:",
        (false, false) => "---",
    })
}

/// Reads `text` as one pipe table (blank lines only at its end).
pub(super) fn parse(text: &str) -> Option<Pipe<'_>> {
    let body = text.trim_end_matches(['\n', '\r']);
    // Every line a table row, checked before any line is gathered (a text
    // of 33 million lines is refused at its first).
    if !body.split('\n').all(|l| l.contains('|')) {
        return None;
    }
    let mut lines = body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let (head, delim_line) = (lines.next()?, lines.next()?);
    let names = cells(head);
    // Wider than any table a reader reads (and each marker row is as wide
    // as the header): the text is read by the other table readers.
    if names.len() > super::lean::MAX_COLUMNS {
        return None;
    }
    let delim = cells(delim_line);
    if names.len() != delim.len() || !delim_line.contains('-') {
        return None;
    }
    let aligns: Vec<&'static str> = delim.iter().map(|c| align(c)).collect::<Option<_>>()?;
    // Outer pipes on the header or the rows (a GFM header written
    // without them over rows written with them keeps the rows' style).
    let mut lines = lines.peekable();
    let outer = head.trim_start().starts_with('|')
        || lines
            .peek()
            .is_some_and(|l| l.trim_start().starts_with('|'));
    // Rows gathered as they are read, no list of lines first.
    let rows: Vec<Vec<&str>> = lines.map(cells).collect();
    if rows.is_empty() {
        return None;
    }
    Some(Pipe {
        names,
        aligns,
        rows,
        crlf: body.contains("\r\n"),
        ends_lf: text.ends_with('\n'),
        outer,
        delim_line,
    })
}

impl Pipe<'_> {
    /// A row as a compact table line (a pipe in a marker escaped), with
    /// outer pipes or without, as the table has them.
    fn line(&self, out: &mut String, cells: &[Cow<'_, str>]) {
        if !self.outer {
            let start = out.len();
            for (i, c) in cells.iter().enumerate() {
                if i > 0 {
                    out.push_str(" | ");
                }
                out.push_str(c);
            }
            let end = out[start..].trim_end().len();
            out.truncate(start + end);
            out.push('\n');
            return;
        }
        out.push('|');
        for c in cells {
            out.push(' ');
            out.push_str(c);
            if !c.is_empty() {
                out.push(' ');
            }
            out.push('|');
        }
        out.push('\n');
    }

    /// The table written back with the rows `keep` says, each dropped run
    /// as a marker row from `marker`.
    fn render(
        &self,
        keep: &[bool],
        summary: Option<&str>,
        mut marker: impl FnMut(std::ops::Range<usize>) -> String,
    ) -> String {
        let mut out = String::new();
        let names: Vec<Cow<'_, str>> = self.names.iter().map(|&n| n.into()).collect();
        self.line(&mut out, &names);
        if self.outer {
            let aligns: Vec<Cow<'_, str>> = self.aligns.iter().map(|&a| a.into()).collect();
            self.line(&mut out, &aligns);
        } else {
            out.push_str(self.delim_line.trim());
            out.push('\n');
        }
        let marker_row = |out: &mut String, text: &str| {
            let mut m: Vec<Cow<'_, str>> = vec![text.replace('|', "\\|").into()];
            // Without outer pipes, a row of one cell would be no row.
            m.resize(
                self.names.len().max(if self.outer { 1 } else { 2 }),
                Cow::Borrowed(""),
            );
            self.line(out, &m);
        };
        if let Some(s) = summary.filter(|_| keep.contains(&false)) {
            marker_row(&mut out, s);
        }
        let mut next = 0;
        let row = |out: &mut String, i: usize| {
            let cells: Vec<Cow<'_, str>> = self.rows[i].iter().map(|&c| c.into()).collect();
            self.line(out, &cells);
        };
        for run in dropped_runs(keep) {
            for i in next..run.start {
                row(&mut out, i);
            }
            next = run.end;
            marker_row(&mut out, &marker(run));
        }
        for i in next..self.rows.len() {
            row(&mut out, i);
        }
        if !self.ends_lf {
            out.pop();
        }
        if self.crlf {
            out = out.replace('\n', "\r\n");
        }
        out
    }
}

/// A Markdown pipe table by the lean rules: whole (without its padding)
/// when it is short or a reference table within its budget, else cut,
/// each marker a row; `None` when the view would not be smaller. Under a
/// `ceiling` (the budget is compat's size, [`super::ceiling::within_compat`])
/// a short or small table is cut too, and a reference table's other rows
/// fill the budget.
pub(super) fn lean_markdown(
    input: &[u8],
    t: &Pipe<'_>,
    query: &str,
    budget: Option<usize>,
    ceiling: bool,
) -> Option<Compressed> {
    let n = t.rows.len();
    let render_all = || t.render(&vec![true; n], None, |_| String::new());
    // Token counts of large tables are not needed without a budget: they
    // exceed every threshold of reading whole (and the table is not
    // rendered whole only to be counted).
    let tokens = if input.len() <= 64 * 1024 || budget.is_some() {
        crate::tokens::count(render_all().as_bytes())
    } else {
        usize::MAX
    };
    // A small table is read whole even over compat's view of it (compat
    // reads Markdown as text: its cut is no sample of the rows, and a cut
    // of a short benchmark or definition table loses the rows asked for).
    if ceiling && tokens <= whole::SMALL_TOKENS {
        return None;
    }
    let plan = whole::plan(tokens, t.names.len(), n, |i| t.rows[i].clone(), budget);
    if plan.whole || (!ceiling && n < super::lean::LEAN_MIN_ROWS) {
        let all = render_all();
        let mut trace = Trace::default();
        trace.add("table read whole", n);
        return (all.len() < input.len()).then(|| Compressed::traced(all.into_bytes(), trace));
    }
    let rows = &t.rows;
    let g = Grid {
        names: t.names.clone(),
        row: Box::new(move |i| rows[i].clone()),
        rows: n,
        tail: LEAN_TAIL,
        top: 1,
        errors: true,
        // A data table's rows stay chosen by value.
        fill: ceiling && plan.key.is_some(),
        ceiling,
    };
    let cut = lean_cut(&g, query, budget);
    if !cut.keep.contains(&false) {
        return None;
    }
    let view = t.render(&cut.keep, Some(&lean_summary(&cut.summary)), |run| {
        let note = plan
            .key
            .and_then(|k| whole::keys_note(t.names[k], &t.rows, run.clone(), k));
        cut.marker_noted(run, false, note.as_deref())
    });
    (view.len() < input.len()).then(|| Compressed::traced(view.into_bytes(), cut.trace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_without_outer_pipes_names_the_columns() {
        let t = parse("API | Auth |\n|---|:---|\n| [A](http://a) | `apiKey` |\n").unwrap();
        assert_eq!(t.names, ["API", "Auth"]);
        assert_eq!(t.aligns, ["---", ":--"]);
        assert_eq!(t.rows, [vec!["[A](http://a)", "`apiKey`"]]);
    }

    #[test]
    fn a_header_wider_than_any_table_is_no_pipe_table() {
        let wide = |w: usize| {
            let mut s = format!("|{}|\n", vec!["c"; w].join("|"));
            s.push_str(&format!("|{}|\n", vec!["-"; w].join("|")));
            s.push_str("| x |\n");
            s
        };
        assert_eq!(parse(&wide(256)).unwrap().names.len(), 256);
        // Each marker row would be as wide as the header, and every
        // column is weighed over every row.
        assert!(parse(&wide(257)).is_none());
    }

    #[test]
    fn escaped_pipes_stay_in_their_cell() {
        assert_eq!(cells(r"| a \| b | c |"), [r"a \| b", "c"]);
    }

    /// A table without outer pipes is written back without them, its
    /// delimiter row as written; a marker is still a row of it.
    #[test]
    fn a_table_without_outer_pipes_keeps_its_style() {
        let t = parse("a    | b\n---|---------\nx    | 1\ny | 2\n").unwrap();
        assert_eq!(
            t.render(&[true, false], None, |_| "\u{2026} 1 rows elided \u{2026}"
                .into()),
            "a | b\n---|---------\nx | 1\n\u{2026} 1 rows elided \u{2026} |\n"
        );
    }

    #[test]
    fn padding_is_collapsed() {
        let t = parse("| a    |   b |\n| :--- | --: |\n| x    |   1 |\n").unwrap();
        assert_eq!(
            t.render(&[true], None, |_| String::new()),
            "| a | b |\n| :-- | --: |\n| x | 1 |\n"
        );
    }
}
