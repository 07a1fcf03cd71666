//! The tabular compressor (content type `tabular`, method `tabular`): seed
//! 001_09701529cdd52f66.txt, completed by spec/tabular.md.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use super::shared::invariants::{self, Unit};
use super::shared::{kinds, relevance};
use super::{Compressed, Decline, Input, Trace};
use crate::detect::Parsed;
use crate::go::regexp::WordSet;
use crate::go::strconv;
use crate::table::{self, Kind, Table};

/// Tables with fewer rows (header rows included) pass through.
const MIN_ROWS: usize = 12;
/// Leading data rows always kept.
const HEAD: usize = 3;
/// Trailing rows always kept.
const TAIL: usize = 2;
/// At most this many rows are added by the query fill.
const QUERY_FILL: usize = 24;
/// The contract row is appended when the collapsed runs dropped this much.
const CONTRACT_THRESHOLD: usize = 4096;
/// At most this many columns feed a summary.
const MAX_UNIT_FIELDS: usize = 24;

/// Marker text of a payload that was already compressed.
const MARKER_GUARD: &[u8] = b"rows elided (caveman)";

const CONTRACT: &str = "\u{2026} caveman: elided rows resemble shown rows and match the stated invariants \u{2014} answer from this view; if you truly cannot, one broad caveman_retrieve \u{2026}";

static FAILURE_WORDS: LazyLock<WordSet> = LazyLock::new(|| {
    WordSet::new(&[
        "ERROR",
        "FAIL",
        "FAILED",
        "FATAL",
        "PANIC",
        "EXCEPTION",
        "WARNING",
        "SECURITY",
        "DENIED",
        "REJECTED",
    ])
});

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}

/// The `tabular` registry row, on the table detection parsed when it did.
pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    // A budget needs the lean rules' priorities, in either profile.
    if input.profile.is_lean() || input.budget.is_some() {
        return run_lean(input);
    }
    let traced = match &input.parsed {
        Parsed::Table(t) if !contains(input.body, MARKER_GUARD) => sample(
            input.body,
            t,
            input.query,
            crate::timings::Clock::new("tabular"),
        ),
        Parsed::Table(_) => None,
        _ => parse_and_sample(input.body, input.query),
    };
    traced
        .map(|(bytes, trace)| Compressed::traced(bytes, trace))
        .ok_or(Decline(
            "not a table, already compressed, too few rows, no run collapsed, or not smaller",
        ))
}

/// Compresses a table; `None` when it declines (tabular.md §2).
pub fn compress(input: &[u8], query: &str) -> Option<Vec<u8>> {
    parse_and_sample(input, query).map(|(bytes, _)| bytes)
}

fn parse_and_sample(input: &[u8], query: &str) -> Option<(Vec<u8>, Trace)> {
    if contains(input, MARKER_GUARD) {
        return None;
    }
    let mut clock = crate::timings::Clock::new("tabular");
    let t = table::parse(input)?;
    clock.mark("parse");
    sample(input, &t, query, clock)
}

/// [`compress`] given the table detection parsed from `input`.
pub fn compress_parsed(input: &[u8], t: &Table<'_>, query: &str) -> Option<Vec<u8>> {
    if contains(input, MARKER_GUARD) {
        return None;
    }
    sample(input, t, query, crate::timings::Clock::new("tabular")).map(|(bytes, _)| bytes)
}

fn sample(
    input: &[u8],
    t: &Table<'_>,
    query: &str,
    mut clock: crate::timings::Clock,
) -> Option<(Vec<u8>, Trace)> {
    let hr = t.header_rows();
    let n = t.rows.len();
    if n < MIN_ROWS || n <= hr + 6 {
        return None;
    }
    let width = t.rows.row(0).len();
    // A row's text is its fields joined with spaces. The texts are not
    // kept (they would take as much again as the table): rows are joined
    // again for the kind guard and the query.
    let doc_of = |i: usize| {
        let mut doc = String::new();
        t.rows.row(i).join_into(" ", &mut doc);
        doc
    };
    let failures: Vec<bool> = crate::par::map(crate::par::ranges(n, 4096), |chunk| {
        let mut doc = String::new();
        let mut out = Vec::with_capacity(chunk.len());
        for i in chunk {
            doc.clear();
            t.rows.row(i).join_into(" ", &mut doc);
            out.push(FAILURE_WORDS.is_match(&doc));
        }
        out
    })
    .concat();
    let mut keep = vec![false; n];
    let mut trace = Trace::default();
    let mut counted = 0;
    let mut account = |trace: &mut Trace, keep: &[bool], reason| {
        let now = keep.iter().filter(|&&k| k).count();
        trace.add(reason, now - counted);
        counted = now;
    };
    for k in keep.iter_mut().take(hr + HEAD) {
        *k = true;
    }
    for k in keep.iter_mut().skip(n.saturating_sub(TAIL).max(hr)) {
        *k = true;
    }
    account(&mut trace, &keep, "header, head/tail");
    for (k, &failure) in keep.iter_mut().zip(&failures) {
        *k |= failure;
    }
    account(&mut trace, &keep, "failure word");
    clock.mark("docs, failures");
    extrema(t, &mut keep);
    account(&mut trace, &keep, "column minimum or maximum");
    clock.mark("extrema");
    if !query.is_empty() {
        let scores = relevance::scores_of(query, n, |i| doc_of(i).into());
        for i in relevance::candidates(&scores, &keep)
            .into_iter()
            .take(QUERY_FILL)
        {
            keep[i] = true;
        }
        account(&mut trace, &keep, "query");
    }
    clock.mark("query");
    kinds::guard(|i| kinds::profile(&doc_of(i)), &mut keep);
    account(&mut trace, &keep, "one of each kind");
    clock.mark("kind guard");
    let (mut rows, dropped) = emit(t, &keep);
    if rows.len() >= n {
        return None;
    }
    let shown = rows.iter().filter(|r| matches!(r, Out::Row(_))).count();
    trace.add("marker would not pay", shown - counted);
    trace.dropped = n - shown;
    if dropped >= CONTRACT_THRESHOLD {
        rows.push(Out::Marker(Cow::Borrowed(CONTRACT)));
    }
    clock.mark("runs, summaries");
    let out = rebuild(t, &rows, width, input);
    clock.mark("write");
    if out.len() >= input.len() {
        return None;
    }
    Some((out, trace))
}

/// Keeps each mostly-numeric column's first minimum and maximum row.
fn extrema(t: &Table<'_>, keep: &mut [bool]) {
    let hr = t.header_rows();
    let data_rows = t.rows.len() - hr;
    for c in 0..t.rows.row(0).len() {
        let mut count = 0usize;
        let mut min: Option<(f64, usize)> = None;
        let mut max: Option<(f64, usize)> = None;
        for r in hr..t.rows.len() {
            let Some(v) = t
                .rows
                .row(r)
                .get(c)
                .and_then(|cell| strconv::parse_float(cell.trim()))
            else {
                continue;
            };
            count += 1;
            match min {
                None => {
                    min = Some((v, r));
                    max = Some((v, r));
                }
                Some((m, _)) => {
                    if v < m {
                        min = Some((v, r));
                    }
                    if let Some((x, _)) = max {
                        if v > x {
                            max = Some((v, r));
                        }
                    }
                }
            }
        }
        if count * 10 < data_rows * 7 {
            continue;
        }
        if let (Some((_, a)), Some((_, b))) = (min, max) {
            keep[a] = true;
            keep[b] = true;
        }
    }
}

/// A row of the output: a row of the table, or a marker row (its text in
/// the first field, the others empty).
enum Out {
    Row(usize),
    Marker(Cow<'static, str>),
}

/// Walks the rows, collapsing dropped runs into marker rows; returns the
/// output rows and the bytes the collapsed runs dropped. The runs'
/// summaries are computed first, on every core.
fn emit(t: &Table<'_>, keep: &[bool]) -> (Vec<Out>, usize) {
    let header: Vec<&str> = t.rows.row(0).iter().map(str::trim).collect();
    let runs = super::shared::dropped_runs(keep);
    let rows_in_runs: usize = runs.iter().map(|r| r.len()).sum();
    let markers = crate::par::map_each(&runs, crate::par::parts_for(rows_in_runs, 4096), |run| {
        marker_of(t, &header, run.clone())
    });
    let mut out: Vec<Out> = Vec::new();
    let mut dropped = 0usize;
    let mut next = 0;
    for (run, marker) in runs.iter().zip(markers) {
        out.extend((next..run.start).map(Out::Row));
        next = run.end;
        match marker {
            Some((text, run_bytes)) => {
                out.push(Out::Marker(Cow::Owned(text)));
                dropped += run_bytes;
            }
            None => out.extend(run.clone().map(Out::Row)),
        }
    }
    out.extend((next..t.rows.len()).map(Out::Row));
    (out, dropped)
}

/// A run's marker text and the bytes it drops, or `None` when a marker
/// would not pay (the rows are then written as they are).
fn marker_of<'t>(
    t: &'t Table<'_>,
    header: &[&'t str],
    run: Range<usize>,
) -> Option<(String, usize)> {
    let r = run.len();
    // len(cells joined with ",") + 1, per row.
    let run_bytes: usize = run
        .clone()
        .map(|i| {
            let row = t.rows.row(i);
            row.iter().map(|c| c.len()).sum::<usize>() + row.len()
        })
        .sum();
    let unit = |j: usize, u: &mut Unit<'t>| {
        let row = t.rows.row(run.start + j);
        for (c, name) in header.iter().enumerate().take(MAX_UNIT_FIELDS) {
            let value = row.get(c).map(str::trim).unwrap_or("");
            if !name.is_empty() && !value.is_empty() {
                u.push((*name, value));
            }
        }
    };
    let summary = invariants::summary_of(r, unit, run_bytes as i64);
    let text = if summary.is_empty() {
        format!("\u{2026} {r} rows elided (caveman) \u{2026}")
    } else {
        format!("\u{2026} {r} rows elided (caveman): {summary} \u{2026}")
    };
    let worth = r >= 3 || (!summary.is_empty() && 2 * text.len() <= run_bytes);
    worth.then_some((text, run_bytes))
}

/// The fields of an output row, into `fields`.
fn fields_into<'r>(t: &'r Table<'_>, o: &'r Out, width: usize, fields: &mut Vec<&'r str>) {
    fields.clear();
    match o {
        Out::Row(i) => fields.extend(t.rows.row(*i).iter()),
        Out::Marker(text) => {
            fields.push(text);
            fields.resize(width, "");
        }
    }
}

/// Rebuilds the table in its own format (tabular.md §6).
fn rebuild(t: &Table<'_>, rows: &[Out], width: usize, input: &[u8]) -> Vec<u8> {
    let ends_lf = input.last() == Some(&b'\n');
    let mut out = Vec::with_capacity(input.len());
    let mut fields: Vec<&str> = Vec::with_capacity(width);
    match t.kind {
        Kind::Markdown => {
            for r in rows {
                fields_into(t, r, width, &mut fields);
                out.extend_from_slice(b"| ");
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(b" | ");
                    }
                    out.extend_from_slice(f.as_bytes());
                }
                out.extend_from_slice(b" |\n");
            }
            if !ends_lf {
                out.pop();
            }
            if t.crlf {
                let mut v = Vec::with_capacity(out.len() + rows.len());
                for &b in &out {
                    if b == b'\n' {
                        v.push(b'\r');
                    }
                    v.push(b);
                }
                out = v;
            }
        }
        Kind::Csv | Kind::Tsv => {
            for r in rows {
                fields_into(t, r, width, &mut fields);
                crate::go::csv::write_record(
                    &mut out,
                    fields.iter().copied(),
                    t.delimiter(),
                    t.crlf,
                );
            }
            if !ends_lf {
                let cut = if t.crlf { 2 } else { 1 };
                out.truncate(out.len().saturating_sub(cut));
            }
        }
    }
    out
}

/// Data rows needed before a lean table is cut.
const LEAN_MIN_ROWS: usize = 9;
/// Leading and trailing data rows a lean table keeps.
const LEAN_HEAD: usize = 2;
const LEAN_TAIL: usize = 1;

/// A table as the lean rules read it: column names and data rows of
/// cells, whatever its format.
pub(crate) struct Grid<'a> {
    pub names: Vec<&'a str>,
    /// Cells of data row `i`.
    pub row: Box<dyn Fn(usize) -> Vec<&'a str> + Sync + 'a>,
    pub rows: usize,
    /// Trailing rows kept.
    pub tail: usize,
}

/// What the lean rules keep of a grid, and the summary of every row for
/// the first marker.
pub(crate) struct LeanCut {
    pub keep: Vec<bool>,
    pub summary: String,
    pub trace: Trace,
}

static LEAN_FAILURE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b(errors?|exceptions?|fail|failed|failures?|failing|fatal|panic|panicked|timeout|timed out|denied|refused|rejected|traceback|critical|crash(ed)?|abort(ed)?|crashloopbackoff|oomkilled|evicted|security|warning)\b",
    )
    .expect("failure words")
});

/// The lean selection (shared by CSV, TSV, Markdown and aligned tables):
/// the first rows and the last, every row with a failure word, the rows
/// holding an extreme or a value the summary cannot state, query hits.
pub(crate) fn lean_cut(g: &Grid<'_>, query: &str, budget: Option<usize>) -> LeanCut {
    use super::shared::stats::{number, Scalar, Stats};
    let n = g.rows;
    let mut keep = vec![false; n];
    let mut trace = Trace::default();
    let mut counted = 0;
    let mut account = |trace: &mut Trace, keep: &[bool], reason| {
        let now = keep.iter().filter(|&&k| k).count();
        trace.add(reason, now - counted);
        counted = now;
    };
    for k in keep.iter_mut().take(LEAN_HEAD) {
        *k = true;
    }
    for k in keep.iter_mut().skip(n.saturating_sub(g.tail)) {
        *k = true;
    }
    account(&mut trace, &keep, "head/tail");
    // Rows are read again from the grid where needed, never held: a
    // joined copy and a cell list of every row were 6× a 60 MB CSV.
    let mut why: Vec<u8> = keep.iter().map(|&k| u8::from(k)).collect();
    let doc = |i: usize| (g.row)(i).join(" ");
    for (i, k) in keep.iter_mut().enumerate() {
        if LEAN_FAILURE.is_match(&doc(i)) {
            why[i] = 2;
            *k = true;
        }
    }
    account(&mut trace, &keep, "failure word");
    // A column is numeric when every non-empty cell is a number.
    let width = g.names.len();
    let mut numeric = vec![true; width];
    for i in 0..n {
        for (c, cell) in (g.row)(i).iter().enumerate().take(width) {
            let t = cell.trim();
            if !t.is_empty() && number(t).is_none() {
                numeric[c] = false;
            }
        }
    }
    let mut st = Stats::new(256);
    for i in 0..n {
        st.unit();
        for (c, cell) in (g.row)(i).into_iter().enumerate().take(width) {
            let t = cell.trim();
            if t.is_empty() || g.names[c].trim().is_empty() {
                continue;
            }
            let name = g.names[c].trim();
            if numeric[c] {
                if let Some(x) = number(t) {
                    st.add(i, name, Scalar::Num(t, x));
                }
            } else {
                st.add(i, name, Scalar::Str(t));
            }
        }
    }
    for h in st.holders() {
        if !keep[h] {
            why[h] = 3;
        }
        keep[h] = true;
    }
    account(
        &mut trace,
        &keep,
        "extreme or value the summary cannot state",
    );
    if !query.is_empty() {
        let scores = relevance::scores_of(query, n, |i| doc(i).into());
        for i in relevance::candidates(&scores, &keep)
            .into_iter()
            .take(QUERY_FILL)
        {
            keep[i] = true;
            why[i] = 4;
        }
        account(&mut trace, &keep, "query");
    }
    // A single dropped row costs about what its marker costs.
    for run in super::shared::dropped_runs(&keep) {
        if run.len() == 1 {
            keep[run.start] = true;
        }
    }
    account(&mut trace, &keep, "marker would not pay");
    let dropped_bytes: usize = (0..n).filter(|&i| !keep[i]).map(|i| doc(i).len() + 1).sum();
    let mut summary = st.render("rows", false, (dropped_bytes / 4).max(600));
    if let Some(b) = budget {
        // Rows by priority within the budget; the summary shrinks first.
        use super::shared::lines::Keep;
        const WHY: [&str; 5] = [
            "rest",
            "head/tail",
            "failure word",
            "extreme or value the summary cannot state",
            "query",
        ];
        let names = g.names.join(" ");
        let overhead = |s: &str| format!("{names}\n{s}");
        if crate::tokens::count(overhead(&summary).as_bytes()) * 2 > b {
            summary = st.render("rows", false, 0);
        }
        let mut k = Keep::new(n);
        for i in 0..n {
            if keep[i] {
                k.set(i, WHY[why[i] as usize]);
            }
        }
        let count = |s: &str| crate::tokens::count(s.as_bytes()) + 1;
        k.fit(
            b,
            |i| count(&doc(i)),
            count(&lean_marker(999, None)),
            count(&overhead(&summary)),
        );
        keep = k.flags();
    }
    trace.dropped = keep.iter().filter(|&&k| !k).count();
    LeanCut {
        keep,
        summary,
        trace,
    }
}

/// The marker of a lean run: its count, and for the first the summary
/// of every row.
pub(crate) fn lean_marker(r: usize, summary: Option<&str>) -> String {
    match summary {
        Some(s) => format!("\u{2026} {r} rows elided (caveman): {s} \u{2026}"),
        None => format!("\u{2026} {r} rows elided (caveman) \u{2026}"),
    }
}

/// The lean `tabular` row: CSV, TSV and Markdown tables rebuilt in their
/// own format; whitespace-aligned and box-drawn tables as their lines.
fn run_lean(input: &Input<'_>) -> Result<Compressed, Decline> {
    const NO: Decline = Decline("not a table, too few rows, or nothing to cut");
    if contains(input.body, MARKER_GUARD) {
        return Err(Decline("already compressed"));
    }
    let parsed;
    let t = match &input.parsed {
        Parsed::Table(t) => Some(t),
        _ => {
            parsed = table::parse(input.body);
            parsed.as_ref()
        }
    };
    if let Some(t) = t {
        return lean_dsv(input.body, t, input.query, input.budget).ok_or(NO);
    }
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    lean_aligned(text, input.query, LEAN_TAIL, input.budget).ok_or(NO)
}

/// A whitespace-aligned or box-drawn table cut by the lean rules: its
/// lines as they were (borders, the header and lines around the table
/// kept), dropped runs of rows as marker lines.
pub(crate) fn lean_aligned(
    text: &str,
    query: &str,
    tail: usize,
    budget: Option<usize>,
) -> Option<Compressed> {
    use super::shared::lines::{join_lines, Keep, Lines};
    let doc = Lines::split(text);
    if !table::aligned::may_parse(doc.iter().map(|l| l.trim_end_matches('\r'))) {
        return None;
    }
    let plain: Vec<&str> = doc.iter().map(|l| l.trim_end_matches('\r')).collect();
    let t = table::aligned::parse(&plain)?;
    if t.rows.len() < LEAN_MIN_ROWS {
        return None;
    }
    let names: Vec<&str> = match t.header {
        Some(h) => t.cells(plain[h]),
        // ls -l has no header: the columns are named by position.
        None => Vec::new(),
    };
    let width = t.cells(plain[t.rows[0]]).len();
    const LS: [&str; 9] = [
        "mode", "links", "owner", "group", "size", "month", "day", "time", "name",
    ];
    let names: Vec<&str> = if names.is_empty() {
        (0..width)
            .map(|c| LS.get(c).copied().unwrap_or(""))
            .collect()
    } else {
        names
    };
    let rows = t.rows.clone();
    let split = t.clone();
    let plain_rows = plain.clone();
    let g = Grid {
        names,
        row: Box::new(move |i| split.cells(plain_rows[rows[i]])),
        rows: t.rows.len(),
        tail,
    };
    let cut = lean_cut(&g, query, budget);
    // Every line that is not a data row stays; rows follow the cut.
    let mut keep = Keep::new(doc.len());
    let mut is_row = vec![false; doc.len()];
    for (k, &line) in t.rows.iter().enumerate() {
        is_row[line] = true;
        if cut.keep[k] {
            keep.set(line, "row");
        }
    }
    for (i, r) in is_row.iter().enumerate() {
        if !r {
            keep.set(i, "header, border or text around the table");
        }
    }
    keep.fit_text(budget, |i| plain[i], &lean_marker(999, None), &cut.summary);
    let summary = cut.summary.clone();
    let first_run = super::shared::dropped_runs(&keep.flags())
        .first()
        .map(|r| r.start);
    let (pieces, _, mut trace) = keep.collapse(|run| {
        let s = (Some(run.start) == first_run).then_some(summary.as_str());
        Some((lean_marker(run.len(), s), 0))
    });
    trace.kept = cut.trace.kept.clone();
    Some(Compressed::traced(join_lines(&doc, &pieces), trace))
}

/// A CSV, TSV or Markdown table cut by the lean rules.
fn lean_dsv(input: &[u8], t: &Table<'_>, query: &str, budget: Option<usize>) -> Option<Compressed> {
    let hr = t.header_rows();
    let n = t.rows.len();
    if n < hr + LEAN_MIN_ROWS {
        return None;
    }
    let width = t.rows.row(0).len();
    let g = Grid {
        names: t.rows.row(0).iter().collect(),
        row: Box::new(move |i| t.rows.row(hr + i).iter().collect()),
        rows: n - hr,
        tail: LEAN_TAIL,
    };
    let cut = lean_cut(&g, query, budget);
    let mut out: Vec<Out> = (0..hr).map(Out::Row).collect();
    let mut first = true;
    let mut next = 0;
    for run in super::shared::dropped_runs(&cut.keep) {
        out.extend((next..run.start).map(|i| Out::Row(hr + i)));
        next = run.end;
        let m = lean_marker(run.len(), first.then_some(cut.summary.as_str()));
        first = false;
        out.push(Out::Marker(Cow::Owned(m)));
    }
    out.extend((next..n - hr).map(|i| Out::Row(hr + i)));
    if first {
        return None;
    }
    let bytes = rebuild(t, &out, width, input);
    (bytes.len() < input.len()).then(|| Compressed::traced(bytes, cut.trace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_a() {
        let ms = [20, 21, 22, 23, 24, 25, 99, 23, 22, 5, 24, 21, 20, 99];
        let mut s = String::from("id,host,state,ms\n");
        for (i, m) in ms.iter().enumerate() {
            let n = i + 1;
            let state = match n {
                9 => "failed",
                12 => "timeout",
                _ => "ok",
            };
            s.push_str(&format!("{n},web-{n},{state},{m}\n"));
        }
        let out = String::from_utf8(compress(s.as_bytes(), "").unwrap()).unwrap();
        assert_eq!(
            out,
            "id,host,state,ms\n1,web-1,ok,20\n2,web-2,ok,21\n3,web-3,ok,22\n… 3 rows elided (caveman) …,,,\n7,web-7,ok,99\n8,web-8,ok,23\n9,web-9,failed,22\n10,web-10,ok,5\n11,web-11,ok,24\n12,web-12,timeout,21\n13,web-13,ok,20\n14,web-14,ok,99\n"
        );
    }

    #[test]
    fn example_d_tsv() {
        let mut s = String::from("a\tb\tc\n");
        for n in 1..=14 {
            s.push_str(&format!("x{n:02}\tsame\t{}\n", n % 3));
        }
        let out = String::from_utf8(compress(s.as_bytes(), "").unwrap()).unwrap();
        assert!(out.contains("… 9 rows elided (caveman): all b=same; a: x04..x12 all 9 present; +1 omitted …\t\t\n"), "{out}");
        assert_eq!(compress(out.as_bytes(), ""), None);
    }
}
