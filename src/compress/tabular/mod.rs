//! The tabular compressor (content type `tabular`, method `tabular`): seed
//! 001_09701529cdd52f66.txt, completed by spec/tabular.md (compat); the
//! lean rules for every table, CSV to `kubectl get`, are in [`lean`].

mod ceiling;

mod columns;

mod cut;

mod lean;

mod listing;

mod markdown;

mod whole;

pub(crate) use cut::lean_cut;
pub(crate) use lean::{lean_aligned, lean_marker, Grid};

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
pub(super) const QUERY_FILL: usize = 24;
/// The contract row is appended when the collapsed runs dropped this much.
const CONTRACT_THRESHOLD: usize = 4096;
/// At most this many columns feed a summary.
const MAX_UNIT_FIELDS: usize = 24;

/// Marker text of a payload that was already compressed.
pub(super) const MARKER_GUARD: &[u8] = b"rows elided (caveman)";

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

pub(super) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}

/// The `tabular` registry row, on the table detection parsed when it did.
pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    // A budget needs the lean rules' priorities, in either profile.
    if input.profile.is_lean() || input.budget.is_some() {
        return lean::run(input);
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
pub(super) enum Out {
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
pub(super) fn rebuild(t: &Table<'_>, rows: &[Out], width: usize, input: &[u8]) -> Vec<u8> {
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
