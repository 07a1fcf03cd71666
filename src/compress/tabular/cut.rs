//! The lean selection of a table's rows ([`lean_cut`]) and the markers of
//! the runs it drops ([`LeanCut::marker_noted`]), whatever the table's format.

use std::borrow::Cow;
use std::ops::Range;

use super::super::shared::stats::{Field, Mode, Stats};
use super::super::shared::{dropped_runs, relevance};
use super::columns::{
    add_row, group_column, group_rows, ranked_column, row_is_error, state_rows, RANK_HEAD,
    RANK_TAIL,
};
use super::lean::{lean_marker, Grid, MAX_COLUMNS};
use super::QUERY_FILL;
use crate::compress::Trace;
use crate::table::quantity::{self, Family};

/// Leading data rows a lean table keeps.
const LEAN_HEAD: usize = 2;
/// A run of fewer rows than this has a bare marker (its summary would
/// cost about what the rows do).
const MIN_SUMMARISED_RUN: usize = 3;
/// Patterns of empty cells kept one row each, when there are at most this
/// many.
const MAX_PATTERNS: usize = 4;
/// A marker's own summary, in bytes at least and at most.
const MARKER_ROOM: (usize, usize) = (60, 1200);
/// A run of this many rows or more lists the categories its rows hold.
const LONG_RUN: usize = 8;

/// What the lean rules keep of a grid; the summary of every row (for a
/// marker that has room for one only) and what each dropped run shares.
pub(crate) struct LeanCut<'a> {
    pub keep: Vec<bool>,
    pub summary: String,
    pub trace: Trace,
    cells: Vec<Vec<&'a str>>,
    names: Vec<&'a str>,
    /// Per column: the family of a numeric column.
    numeric: Vec<Option<Family>>,
    /// Per column: the whole table's field reads as a category.
    categorical: Vec<bool>,
    /// Per column: the least and greatest value of a numeric column.
    spans: Vec<Option<(f64, f64)>>,
    /// Per column: how many distinct values it holds.
    distinct: Vec<usize>,
    /// Per column: one value in every row (the summary says it).
    constant: Vec<bool>,
    /// The column the table is ranked by.
    ranked: Option<usize>,
    /// Under a budget: a gap's marker says what fits in its least room.
    terse: bool,
    /// Under compat's size as a ceiling: it does not count what it leaves
    /// out.
    ceiling: bool,
}

impl LeanCut<'_> {
    /// The marker of the dropped run `run`: its count, `note` (a listing's
    /// directory and its number of entries, the header lines printed again
    /// among the rows), and what its rows share; the first marker says
    /// instead what held for every row of the table (its total, ranges,
    /// categories).
    pub(crate) fn marker_noted(
        &self,
        run: Range<usize>,
        first: bool,
        note: Option<&str>,
    ) -> String {
        let r = run.len();
        // A ranked table's run says first what it ranks: `Median=40000..38000`.
        let rank_note = self.ranked.filter(|_| !first).and_then(|c| {
            let vals: Vec<&str> = run
                .clone()
                .map(|i| self.cells[i].get(c).map_or("", |x| x.trim()))
                .collect();
            let full: Vec<&str> = vals.iter().copied().filter(|v| !v.is_empty()).collect();
            // Least first, as every range is written.
            let (mut a, mut b) = (full.first()?, full.last()?);
            let value = |t: &str| quantity::quantity(t).map_or(0.0, |q| q.1);
            if value(a) > value(b) {
                std::mem::swap(&mut a, &mut b);
            }
            let name = shown_name(self.names[c]);
            let empty = vals.len() - full.len();
            Some(match (a == b, empty) {
                (true, 0) => format!("all {name}={a}"),
                (false, 0) => format!("{name}={a}..{b}"),
                (_, e) => format!("{name}={a}..{b} ({e} empty)"),
            })
        });
        let note = match (rank_note.as_deref(), note) {
            (Some(k), Some(n)) => Some(format!("{n}; {k}")),
            (Some(k), None) => Some(k.to_string()),
            (None, n) => n.map(str::to_string),
        };
        let note = note.as_deref();
        let noted = |s: Option<&str>| match (note, s) {
            (Some(n), Some(s)) => lean_marker(r, Some(&format!("{n}; {s}"))),
            (Some(n), None) => lean_marker(r, Some(n)),
            (None, s) => lean_marker(r, s),
        };
        if first {
            return noted(Some(&self.summary));
        }
        if r < MIN_SUMMARISED_RUN {
            return noted(None);
        }
        let bytes: usize = run
            .clone()
            .map(|i| self.cells[i].iter().map(|c| c.len() + 1).sum::<usize>())
            .sum();
        let room = if self.terse {
            MARKER_ROOM.0
        } else {
            (bytes / 6).clamp(MARKER_ROOM.0, MARKER_ROOM.1)
        };
        // A short run says what its rows share; a long one also lists the
        // values of the table's categories it holds.
        let long = r >= LONG_RUN;
        let varied = self.most_varied(run.clone());
        let mut st = Stats::new(MAX_COLUMNS);
        for (j, i) in run.enumerate() {
            st.unit();
            add_row(&mut st, j, &self.cells[i], &self.names, &self.numeric);
        }
        // Under a ceiling, what the marker leaves out goes uncounted (the
        // retrieve line has it): `; (+1 more)` on every gap costs tokens
        // and says nothing.
        let shared = st.render_shared(room, !self.ceiling, |f: &Field<'_>| {
            match self.names.iter().position(|n| n.trim() == f.name) {
                // Under compat's size, what the whole table's summary
                // states of every row is not said again by each gap.
                Some(c) if self.ceiling && self.constant[c] => Mode::Skip,
                // A run's dates are its span.
                Some(c) if Some(c) == self.ranked => Mode::Skip,
                Some(_) if f.dated() => Mode::Span,
                Some(c) if !varied.contains(&c) => Mode::Constant,
                Some(c) if self.numeric[c].is_some() => Mode::Normal,
                Some(c) if self.categorical[c] && long => Mode::Enumerate,
                Some(_) => Mode::Constant,
                None => Mode::Skip,
            }
        });
        noted((!shared.is_empty()).then_some(shared.as_str()))
    }

    /// The columns whose values in `run` vary most (at most
    /// [`GAP_COLUMNS`]): a numeric column by the share of the table's
    /// range the run spans, a category by the share of the table's values
    /// it holds; the other columns are stated only when constant.
    fn most_varied(&self, run: Range<usize>) -> Vec<usize> {
        let mut score: Vec<(f64, usize)> = Vec::new();
        for c in 0..self.names.len() {
            let vals = run.clone().filter_map(|i| {
                let t = self.cells[i].get(c)?.trim();
                (!t.is_empty()).then_some(t)
            });
            let s = match (self.numeric[c], self.spans[c]) {
                (Some(_), Some((lo, hi))) => {
                    let xs: Vec<f64> = vals
                        .filter_map(|t| quantity::quantity(t).map(|q| q.1))
                        .collect();
                    let (a, b) = xs
                        .iter()
                        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
                    if xs.is_empty() || hi <= lo {
                        0.0
                    } else {
                        (b - a) / (hi - lo)
                    }
                }
                _ if self.categorical[c] => {
                    let mut v: Vec<&str> = vals.collect();
                    v.sort_unstable();
                    v.dedup();
                    if v.len() <= 1 {
                        0.0
                    } else {
                        v.len() as f64 / self.distinct[c].max(1) as f64
                    }
                }
                _ => continue,
            };
            if s > 0.0 {
                score.push((s, c));
            }
        }
        score.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        score
            .into_iter()
            .take(GAP_COLUMNS)
            .map(|(_, c)| c)
            .collect()
    }
}

/// Columns a gap's marker states ranges or values of, at most (the
/// others only when constant over the gap).
const GAP_COLUMNS: usize = 4;

/// Keeps `units` if they still fit in `room` bytes (those already kept
/// cost nothing), and marks them `held`.
fn admit(keep: &mut [bool], held: &mut [bool], units: &[usize], lens: &[usize], room: &mut usize) {
    let cost: usize = units.iter().filter(|&&u| !keep[u]).map(|&u| lens[u]).sum();
    if cost <= *room {
        *room -= cost;
        for &u in units {
            keep[u] = true;
            held[u] = true;
        }
    }
}

/// The lean selection (shared by CSV, TSV, Markdown and aligned tables).
pub(crate) fn lean_cut<'a>(g: &Grid<'a>, query: &str, budget: Option<usize>) -> LeanCut<'a> {
    let n = g.rows;
    let width = g.names.len();
    let cells: Vec<Vec<&'a str>> = (0..n).map(|i| (g.row)(i)).collect();
    // A row's text is its cells joined by spaces: made when read (a
    // query, a budget), never held for every row without need.
    let doc = |i: usize| cells[i].join(" ");
    let lens: Vec<usize> = cells
        .iter()
        .map(|r| r.iter().map(|c| c.len()).sum::<usize>() + r.len().max(1))
        .collect();
    let total: usize = lens.iter().sum();
    let mut keep = vec![false; n];
    // Rows of issue 40 rule 5, whatever else they were kept for first (the
    // heaviest row may be the first): a ceiling never drops them.
    let mut held = vec![false; n];
    let mut why: Vec<&'static str> = vec![""; n];
    let mut trace = Trace::default();
    let mut counted = 0;
    let mut account = |trace: &mut Trace, keep: &[bool], why: &mut [&'static str], reason| {
        let now = keep.iter().filter(|&&k| k).count();
        trace.add(reason, now - counted);
        counted = now;
        for (w, &k) in why.iter_mut().zip(keep) {
            if k && w.is_empty() {
                *w = reason;
            }
        }
    };
    for (i, row) in cells.iter().enumerate() {
        if g.errors && row_is_error(&g.names, row) {
            keep[i] = true;
            held[i] = true;
        }
    }
    account(&mut trace, &keep, &mut why, "error");
    // Which columns are numbers, with or without units.
    let numeric: Vec<Option<Family>> = (0..width)
        .map(|c| {
            quantity::column(cells.iter().map(|r| r.get(c).copied().unwrap_or(""))).map(|(f, _)| f)
        })
        .collect();
    // A ranked table keeps its leaders whole and its last few.
    let ranked = ranked_column(&g.names, &cells, &numeric);
    let (head, tail) = match ranked {
        Some(_) => (RANK_HEAD, RANK_TAIL.max(g.tail)),
        None => (LEAN_HEAD, g.tail),
    };
    for k in keep.iter_mut().take(head) {
        *k = true;
    }
    for k in keep.iter_mut().skip(n.saturating_sub(tail)) {
        *k = true;
    }
    account(&mut trace, &keep, &mut why, "head/tail");
    let mut st = Stats::new(MAX_COLUMNS);
    for (i, row) in cells.iter().enumerate() {
        st.unit();
        add_row(&mut st, i, row, &g.names, &numeric);
    }
    for h in st.holders() {
        keep[h] = true;
        held[h] = true;
    }
    account(
        &mut trace,
        &keep,
        &mut why,
        "extreme or value the summary cannot state",
    );
    let mut room = (total / 16).clamp(2048, 32768);
    for (_, units) in st.rare() {
        admit(&mut keep, &mut held, &units, &lens, &mut room);
    }
    account(
        &mut trace,
        &keep,
        &mut why,
        "rare value of a column with a default",
    );
    let mut room = (total / 16).clamp(2048, 32768);
    for units in state_rows(&g.names, &cells) {
        admit(&mut keep, &mut held, &units, &lens, &mut room);
    }
    account(
        &mut trace,
        &keep,
        &mut why,
        "state other than the column's default",
    );
    let mut room = (total / 16).clamp(1024, 32768);
    for pair in st.extremes(g.top) {
        admit(&mut keep, &mut held, &pair, &lens, &mut room);
    }
    account(
        &mut trace,
        &keep,
        &mut why,
        "top or bottom of a numeric column",
    );
    // A long-format table: each group's course, not a global sample.
    let groups = match group_column(&g.names, &cells, &numeric) {
        Some(group) => group_rows(&g.names, &cells, &numeric, group),
        None => Vec::new(),
    };
    {
        let mut room = (total / 16).clamp(2048, 32768);
        // A group's ends are its course, not rule 5: a ceiling may drop them.
        let mut course = vec![false; n];
        for rows in &groups {
            admit(&mut keep, &mut course, rows, &lens, &mut room);
        }
    }
    account(
        &mut trace,
        &keep,
        &mut why,
        "first, last or extreme row of a group",
    );
    // Rows unlike their neighbours: one of each pattern of empty cells.
    let mut patterns: Vec<(Vec<bool>, usize)> = Vec::new();
    for (i, row) in cells.iter().enumerate() {
        let p: Vec<bool> = (0..width)
            .map(|c| row.get(c).is_none_or(|x| x.trim().is_empty()))
            .collect();
        if !patterns.iter().any(|(q, _)| *q == p) {
            if patterns.len() > MAX_PATTERNS {
                break;
            }
            patterns.push((p, i));
        }
    }
    if patterns.len() > 1 && patterns.len() <= MAX_PATTERNS {
        for (_, i) in &patterns {
            keep[*i] = true;
            held[*i] = true;
        }
    }
    account(&mut trace, &keep, &mut why, "row unlike the others");
    if !query.is_empty() {
        let scores = relevance::scores_of(query, n, |i| doc(i).into());
        for i in relevance::candidates(&scores, &keep)
            .into_iter()
            .take(QUERY_FILL)
        {
            keep[i] = true;
        }
        account(&mut trace, &keep, &mut why, "query");
    }
    // A gap of one row is a hole in what is read (its marker saves
    // little); a gap of two short rows costs no more than its marker.
    for run in dropped_runs(&keep) {
        let bytes: usize = lens[run.clone()].iter().sum();
        if run.len() == 1 || (run.len() == 2 && bytes <= lean_marker(2, None).len()) {
            keep[run].fill(true);
        }
    }
    account(&mut trace, &keep, &mut why, "marker would not pay");
    let dropped_bytes: usize = (0..n).filter(|&i| !keep[i]).map(|i| lens[i]).sum();
    let mut summary = st.render("rows", false, (dropped_bytes / 4).max(600));
    if let Some((c, desc)) = ranked {
        let by = format!(
            "ranked by {} ({})",
            shown_name(g.names[c]),
            if desc { "descending" } else { "ascending" }
        );
        summary = match summary.split_once("; ") {
            Some((head, rest)) => format!("{head}; {by}; {rest}"),
            None => format!("{summary}; {by}"),
        };
    }
    if let Some(b) = budget {
        // Rows by priority within the budget; the summary shrinks first.
        use super::super::shared::lines::{Keep, Unfit};
        let names = g.names.join(" ");
        let overhead = |s: &str| format!("{names}\n{s}");
        // Compat's size as a ceiling never shortens what the summary
        // states (its ranges), nor drops a row of rule 5: those cost what
        // they cost, the other rows fit in what is left.
        if !g.ceiling && crate::tokens::count(overhead(&summary).as_bytes()) * 2 > b {
            summary = st.render("rows", false, 0);
        }
        let docs: Vec<String> = (0..n).map(doc).collect();
        if !g.ceiling {
            held.fill(false);
        }
        let held_cost: usize = (0..n)
            .filter(|&i| held[i])
            .map(|i| crate::tokens::count(docs[i].as_bytes()) + 1)
            .sum();
        let mut b = b.saturating_sub(held_cost);
        // Under compat's size, each group's course comes before any other
        // row, round by round (every group's greatest and least value,
        // then its ends), while it fits: "which year had most" is a
        // group's answer.
        if g.ceiling {
            // A row amid dropped ones splits their gap: one more marker.
            let gap =
                crate::tokens::count(lean_marker(999, None).as_bytes()) + 1 + MARKER_ROOM.0 / 4;
            let rounds = groups.iter().map(Vec::len).max().unwrap_or(0);
            for r in 0..rounds {
                for &i in groups.iter().filter_map(|rows| rows.get(r)) {
                    let c = crate::tokens::count(docs[i].as_bytes()) + 1 + gap;
                    if !held[i] && c <= b {
                        b -= c;
                        held[i] = true;
                    }
                }
            }
        }
        let mut k = Keep::new(n);
        for i in 0..n {
            if held[i] {
                continue;
            }
            if keep[i] {
                k.set(i, if why[i].is_empty() { "rest" } else { why[i] });
            } else if g.fill {
                k.set(i, "rest");
            }
        }
        // Room for the note of error rows that may not fit.
        let unfit_room = if !g.ceiling && why.contains(&"error") {
            Unfit { errors: n }.said("rows").unwrap_or_default()
        } else {
            String::new()
        };
        let unfit = k.fit_text(
            Some(b),
            |i| docs[i].as_str(),
            &lean_marker(999, None),
            &overhead(&format!("{summary}; {unfit_room}")),
        );
        keep = k.flags();
        for (k, h) in keep.iter_mut().zip(&held) {
            *k |= h;
        }
        // The first marker says how many error rows the budget left out.
        if let Some(said) = unfit.said("rows") {
            summary = format!("{said}; {summary}");
        }
    }
    trace.dropped = keep.iter().filter(|&&k| !k).count();
    let categorical: Vec<bool> = (0..width)
        .map(|c| st.field(g.names[c].trim()).is_some_and(|f| f.categorical()))
        .collect();
    let spans = (0..width)
        .map(|c| {
            numeric[c]?;
            let xs = cells
                .iter()
                .filter_map(|r| quantity::quantity(r.get(c)?.trim()).map(|q| q.1));
            xs.fold(None, |acc: Option<(f64, f64)>, x| {
                Some(acc.map_or((x, x), |(a, b)| (a.min(x), b.max(x))))
            })
        })
        .collect();
    // Distinct values of the categorical columns (the only ones a gap's
    // marker weighs by them): few, so a set holds them, not every cell.
    let distinct = (0..width)
        .map(|c| {
            if !categorical[c] {
                return 0;
            }
            let mut seen = rustc_hash::FxHashSet::default();
            for r in &cells {
                seen.extend(r.get(c).map(|x| x.trim()));
            }
            seen.len()
        })
        .collect();
    let constant = (0..width)
        .map(|c| {
            let first = cells.first().map(|r| r.get(c).map_or("", |x| x.trim()));
            first.is_some_and(|f| cells.iter().all(|r| r.get(c).map_or("", |x| x.trim()) == f))
        })
        .collect();
    LeanCut {
        keep,
        summary,
        constant,
        trace,
        cells,
        names: g.names.clone(),
        numeric,
        categorical,
        spans,
        distinct,
        ranked: ranked.map(|r| r.0),
        terse: budget.is_some(),
        ceiling: budget.is_some() && g.ceiling,
    }
}

/// A column's name as a marker writes it: as it is when it is one word,
/// else quoted.
fn shown_name(name: &str) -> Cow<'_, str> {
    let name = name.trim();
    if !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-#/()%".contains(&b) || b >= 0x80)
    {
        name.into()
    } else {
        format!("\"{name}\"").into()
    }
}
