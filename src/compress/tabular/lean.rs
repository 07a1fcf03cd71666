//! The lean rules for tables, whatever their format (CSV, TSV, Markdown,
//! whitespace-aligned command output such as `kubectl get`/`top`, `docker
//! ps`, `ps aux`, `df -h`, box-drawn): rows by value, not by position.
//!
//! A table keeps its first rows and its last, every row that carries an
//! error, the top and bottom row of every numeric column (units read:
//! `Mi`/`Gi`, `%`, durations, `m` for milli-CPU), every row with a rare
//! value of a column that has a default (`Pending` among `Running`, a
//! non-zero restart count among zeros), one row of each pattern of empty
//! cells when there are few, and query hits. Each dropped run becomes one
//! marker that says what its rows share (`all STATUS=Running`,
//! `RESTARTS=0..2`, `MEMORY(bytes)=12Mi..552Mi`); the first also says how
//! many rows the table has.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use super::super::shared::stats::{date_key, Field, Mode, Scalar, Stats};
use super::super::shared::{dropped_runs, relevance, signal};
use super::{contains, rebuild, Out, MARKER_GUARD, QUERY_FILL};
use crate::compress::{Compressed, Decline, Input, Trace};
use crate::detect::Parsed;
use crate::table::quantity::{self, Family};
use crate::table::{self, Table};

/// Data rows needed before a lean table is cut: a shorter table is read
/// whole (a CLI's options, a short pod list are the answer, not a sample).
pub(super) const LEAN_MIN_ROWS: usize = 16;
/// Bytes needed before a lean table is cut: a short data dictionary or
/// option list is the answer whatever its row count.
pub(super) const LEAN_MIN_BYTES: usize = 1024;
/// Leading and trailing data rows a lean table keeps.
const LEAN_HEAD: usize = 2;
pub(super) const LEAN_TAIL: usize = 1;
/// The greatest rows of each numeric column a command's table keeps
/// (within a budget): `kubectl top`'s heaviest pods, not only the first.
pub(super) const TOP_ROWS: usize = 3;
/// Non-blank lines an aligned table may have before it (a tool's first
/// line, a `kubectl` warning); they stay as they are.
const MAX_PREAMBLE: usize = 3;
/// A run of fewer rows than this has a bare marker (its summary would
/// cost about what the rows do).
const MIN_SUMMARISED_RUN: usize = 3;
/// Columns summarised per table at most.
pub(super) const MAX_COLUMNS: usize = 256;
/// Patterns of empty cells kept one row each, when there are at most this
/// many.
const MAX_PATTERNS: usize = 4;
/// A marker's own summary, in bytes at least and at most.
const MARKER_ROOM: (usize, usize) = (60, 1200);
/// A run of this many rows or more lists the categories its rows hold.
const LONG_RUN: usize = 8;

/// A table as the lean rules read it: column names and data rows of
/// cells, whatever its format.
pub(crate) struct Grid<'a> {
    pub names: Vec<&'a str>,
    /// Cells of data row `i`.
    pub row: Box<dyn Fn(usize) -> Vec<&'a str> + 'a>,
    pub rows: usize,
    /// Trailing rows kept.
    pub tail: usize,
    /// Greatest rows kept per numeric column (the least one always).
    pub top: usize,
    /// Whether a row can carry an error (a listing's file names do not:
    /// `libgpg-error.so` is a file, not a failure).
    pub errors: bool,
}

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
    /// The column the table is ranked by.
    ranked: Option<usize>,
}

impl LeanCut<'_> {
    /// The marker of the dropped run `run`: its count, and what its rows
    /// share; the first marker says instead what held for every row of
    /// the table (its total, ranges, categories).
    pub(crate) fn marker(&self, run: Range<usize>, first: bool) -> String {
        self.marker_noted(run, first, None)
    }

    /// [`LeanCut::marker`] with a note before what the rows share (a
    /// listing's directory and its number of entries).
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
        let room = (bytes / 6).clamp(MARKER_ROOM.0, MARKER_ROOM.1);
        // A short run says what its rows share; a long one also lists the
        // values of the table's categories it holds.
        let long = r >= LONG_RUN;
        let varied = self.most_varied(run.clone());
        let mut st = Stats::new(MAX_COLUMNS);
        for (j, i) in run.enumerate() {
            st.unit();
            add_row(&mut st, j, &self.cells[i], &self.names, &self.numeric);
        }
        let shared = st.render_shared(room, |f: &Field<'_>| {
            match self.names.iter().position(|n| n.trim() == f.name) {
                // A run's dates are its span.
                Some(c) if Some(c) == self.ranked => Mode::Skip,
                Some(_) if f.dated() => Mode::Normal,
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

/// The line that states what held for every row of a cut table, on its
/// own (on the first gap's marker it would read as the gap's).
pub(crate) fn lean_summary(summary: &str) -> String {
    format!("\u{2026} whole table (caveman): {summary} \u{2026}")
}

/// States of processes and services that a table reports in a cell of
/// its own, beyond what the shared classifier calls an error or warning:
/// a dead unit, a container that exited non-zero, a security update.
static FAILED_STATE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"(?i:\b(dead|security)\b)|\bExited \([1-9]\d*\)").expect("failed states")
});

/// Whether a cell reports a failure: an error or warning by the
/// classifier every lean rule shares (read as a cell: weak words do not
/// count), or a failed state.
fn failing_cell(c: &str) -> bool {
    signal::cell_level(c) >= signal::Level::Warning || FAILED_STATE.is_match(c)
}

/// Column names that hold an HTTP status or an exit code.
const STATUS_COLUMNS: [&str; 5] = ["status", "code", "status_code", "exit", "exit_code"];

/// A (lower-case) column name that holds an HTTP status or an exit code:
/// one of [`STATUS_COLUMNS`], or one that ends in `status` or
/// `status_code` (`EdgeResponseStatus`, `upstream_status`).
fn is_status_column(n: &str) -> bool {
    let plain: String = n
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | '.' | ' '))
        .collect();
    STATUS_COLUMNS.contains(&n) || plain.ends_with("status") || plain.ends_with("statuscode")
}

/// The one error test of a lean table row: a failure word in a cell, or a
/// status column holding an HTTP error or a non-zero exit code.
fn row_is_error(names: &[&str], cells: &[&str]) -> bool {
    cells.iter().any(|c| failing_cell(c))
        || names.iter().zip(cells).any(|(n, c)| {
            let n = n.trim().to_ascii_lowercase();
            is_status_column(&n)
                && c.trim()
                    .parse::<u32>()
                    .is_ok_and(|v| (400..600).contains(&v) || (n.starts_with("exit") && v != 0))
        })
}

/// A row's cells into `st`: a numeric column's cells as numbers (in its
/// family's scale), the others as text.
fn add_row<'a>(
    st: &mut Stats<'a>,
    unit: usize,
    cells: &[&'a str],
    names: &[&'a str],
    numeric: &[Option<Family>],
) {
    for (c, cell) in cells.iter().enumerate().take(names.len()) {
        let t = cell.trim();
        let name = names[c].trim();
        if t.is_empty() || name.is_empty() || (numeric[c].is_some() && is_id_column(name)) {
            continue;
        }
        match numeric[c] {
            Some(Family::Plain) => match crate::compress::shared::stats::number(t) {
                Some(x) => st.add(unit, name, Scalar::Num(t, x)),
                None => st.add(unit, name, Scalar::Str(t)),
            },
            Some(_) => match quantity::quantity(t) {
                Some((f, x)) => {
                    let x = if f == Family::Milli && numeric[c] == Some(Family::Duration) {
                        x * 60.0
                    } else {
                        x
                    };
                    st.add(unit, name, Scalar::Qty(t, x))
                }
                None => st.add(unit, name, Scalar::Str(t)),
            },
            None => st.add(unit, name, Scalar::Str(t)),
        }
    }
}

/// A column that numbers or ranks its rows (`id`, `rank`, `#`, `user_id`):
/// its range says nothing, so no summary states one.
fn is_id_column(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "id", "#", "no", "no.", "rank", "ranking", "index", "idx", "row",
    ]
    .contains(&n.as_str())
        || n.ends_with("_id")
        || n.ends_with("_rank")
}

/// Rows a ranked table keeps from its top, contiguous (a leaderboard's
/// leaders, not a sample of them), and from its bottom.
const RANK_HEAD: usize = 12;
const RANK_TAIL: usize = 3;
/// Groups of a long-format table (`symbol` of `symbol,date,price`) whose
/// first, last and extreme rows are kept, at most.
const MAX_GROUPS: usize = 40;
/// Measures of a long-format table whose extremes are kept per group, at
/// most.
const GROUP_MEASURES: usize = 3;

/// A column that ranks its rows by name (`rank`, `#`, `place`).
fn is_rank_name(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    [
        "rank", "ranking", "#", "place", "position", "pos", "standing",
    ]
    .contains(&n.as_str())
        || n.ends_with("_rank")
        || n.ends_with(" rank")
}

/// A column whose order is time's, not a ranking (`year`, `date`,
/// `timestamp`): a series sorted by it is not a leaderboard.
fn is_time_name(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    [
        "time", "date", "year", "month", "day", "epoch", "week", "hour",
    ]
    .iter()
    .any(|w| n.contains(w))
}

/// The column a table is ranked by, and whether it descends: a column
/// named as a rank (`Rank` 1, 2, 3 …) that ascends, else the first
/// numeric measure (not an id, not a time, not evenly stepped like a row
/// number) whose values never turn back in at least 90 % of the rows,
/// with at least three distinct values.
fn ranked_column(
    names: &[&str],
    cells: &[Vec<&str>],
    numeric: &[Option<Family>],
) -> Option<(usize, bool)> {
    let n = cells.len();
    let order = |c: usize| -> Option<(bool, bool, bool)> {
        numeric[c]?;
        let xs: Vec<f64> = cells
            .iter()
            .filter_map(|r| quantity::quantity(r.get(c)?.trim()).map(|q| q.1))
            .collect();
        if xs.len() * 10 < n * 9 || xs.len() < 3 {
            return None;
        }
        let steps: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0]).collect();
        let changes = steps.iter().filter(|&&d| d != 0.0).count();
        let asc = steps.iter().all(|&d| d >= 0.0);
        let desc = steps.iter().all(|&d| d <= 0.0);
        let even = steps.iter().all(|&d| d == steps[0]);
        (changes >= 2).then_some((asc, desc, even))
    };
    let by_name = (0..names.len())
        .find(|&c| is_rank_name(names[c]) && order(c).is_some_and(|(asc, _, _)| asc));
    if let Some(c) = by_name {
        return Some((c, false));
    }
    (0..names.len()).find_map(|c| {
        let name = names[c].trim();
        // `RespondentID`, `userId`: identifiers, sorted or not.
        let id = name.ends_with("ID") || name.ends_with("Id") || is_id_column(name);
        if name.is_empty() || id || is_time_name(name) {
            return None;
        }
        let (asc, desc, even) = order(c)?;
        (!even && (asc || desc)).then_some((c, desc))
    })
}

/// The group column of a long-format table (`symbol,date,price`,
/// `country,year,value`): a text column of 2 to [`MAX_GROUPS`] values,
/// and a time column (named as one, or of dates) that repeats across the
/// groups, so that a group and a time name a row (90 % of the rows at
/// least).
fn group_column(names: &[&str], cells: &[Vec<&str>], numeric: &[Option<Family>]) -> Option<usize> {
    let width = names.len();
    let n = cells.len();
    fn cell<'a>(r: &[&'a str], c: usize) -> &'a str {
        r.get(c).map_or("", |x| x.trim())
    }
    let distinct = |c: usize, cap: usize| -> Option<usize> {
        let mut seen = rustc_hash::FxHashSet::default();
        for r in cells {
            seen.insert(cell(r, c));
            if seen.len() > cap {
                return None;
            }
        }
        Some(seen.len())
    };
    (0..width).filter(|&c| numeric[c].is_none()).find(|&g| {
        let Some(groups) = distinct(g, MAX_GROUPS) else {
            return false;
        };
        if groups < 2 || n < 2 * groups {
            return false;
        }
        (0..width).filter(|&k| k != g).any(|k| {
            // The repeating column is time: a year, a date.
            let time = is_time_name(names[k])
                || cells
                    .iter()
                    .take(64)
                    .all(|r| date_key(cell(r, k)).is_some());
            let Some(keys) = distinct(k, n / 2).filter(|_| time) else {
                return false;
            };
            let mut pairs = rustc_hash::FxHashSet::default();
            for r in cells {
                pairs.insert((cell(r, g), cell(r, k)));
            }
            keys >= 3 && keys * groups * 10 >= n * 9 && pairs.len() * 10 >= n * 9
        })
    })
}

/// The rows of each group of a long-format table that show its course:
/// its first and last row, and the rows of its least and greatest value
/// of the first [`GROUP_MEASURES`] measures; groups in order of first
/// appearance.
fn group_rows(
    names: &[&str],
    cells: &[Vec<&str>],
    numeric: &[Option<Family>],
    group: usize,
) -> Vec<Vec<usize>> {
    let measures: Vec<usize> = (0..names.len())
        .filter(|&c| numeric[c].is_some() && !is_id_column(names[c].trim()))
        .filter(|&c| !is_time_name(names[c]))
        .take(GROUP_MEASURES)
        .collect();
    // Per group: first row, last row, and per measure (least, greatest).
    type Course = (usize, usize, Vec<Option<((f64, usize), (f64, usize))>>);
    let mut index: rustc_hash::FxHashMap<&str, usize> = Default::default();
    let mut courses: Vec<Course> = Vec::new();
    for (i, r) in cells.iter().enumerate() {
        let g = r.get(group).map_or("", |x| x.trim());
        let at = *index.entry(g).or_insert_with(|| {
            courses.push((i, i, vec![None; measures.len()]));
            courses.len() - 1
        });
        let course = &mut courses[at];
        course.1 = i;
        for (m, &c) in measures.iter().enumerate() {
            let Some(x) = r.get(c).and_then(|t| quantity::quantity(t.trim())) else {
                continue;
            };
            let x = x.1;
            let e = course.2[m].get_or_insert(((x, i), (x, i)));
            if x < e.0 .0 {
                e.0 = (x, i);
            }
            if x > e.1 .0 {
                e.1 = (x, i);
            }
        }
    }
    courses
        .into_iter()
        .map(|(first, last, ext)| {
            let mut rows = vec![first, last];
            for ((_, lo), (_, hi)) in ext.into_iter().flatten() {
                rows.extend([lo, hi]);
            }
            rows.sort_unstable();
            rows.dedup();
            rows
        })
        .collect()
}

/// Keeps `units` if they still fit in `room` bytes (those already kept
/// cost nothing).
fn admit(keep: &mut [bool], units: &[usize], lens: &[usize], room: &mut usize) {
    let cost: usize = units.iter().filter(|&&u| !keep[u]).map(|&u| lens[u]).sum();
    if cost <= *room {
        *room -= cost;
        for &u in units {
            keep[u] = true;
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
    }
    account(
        &mut trace,
        &keep,
        &mut why,
        "extreme or value the summary cannot state",
    );
    let mut room = (total / 16).clamp(2048, 32768);
    for (_, units) in st.rare() {
        admit(&mut keep, &units, &lens, &mut room);
    }
    account(
        &mut trace,
        &keep,
        &mut why,
        "rare value of a column with a default",
    );
    let mut room = (total / 16).clamp(1024, 32768);
    for pair in st.extremes(g.top) {
        admit(&mut keep, &pair, &lens, &mut room);
    }
    account(
        &mut trace,
        &keep,
        &mut why,
        "top or bottom of a numeric column",
    );
    // A long-format table: each group's course, not a global sample.
    if let Some(group) = group_column(&g.names, &cells, &numeric) {
        let mut room = (total / 16).clamp(2048, 32768);
        for rows in group_rows(&g.names, &cells, &numeric, group) {
            admit(&mut keep, &rows, &lens, &mut room);
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
    // A gap of one or two rows costs about what its marker costs.
    for run in dropped_runs(&keep) {
        if run.len() <= 2 {
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
        use super::super::shared::lines::Keep;
        let names = g.names.join(" ");
        let overhead = |s: &str| format!("{names}\n{s}");
        if crate::tokens::count(overhead(&summary).as_bytes()) * 2 > b {
            summary = st.render("rows", false, 0);
        }
        let docs: Vec<String> = (0..n).map(doc).collect();
        let mut k = Keep::new(n);
        for i in 0..n {
            if keep[i] {
                k.set(i, if why[i].is_empty() { "rest" } else { why[i] });
            }
        }
        k.fit_text(
            Some(b),
            |i| docs[i].as_str(),
            &lean_marker(999, None),
            &overhead(&summary),
        );
        keep = k.flags();
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
    LeanCut {
        keep,
        summary,
        trace,
        cells,
        names: g.names.clone(),
        numeric,
        categorical,
        spans,
        distinct,
        ranked: ranked.map(|r| r.0),
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

/// The marker of a lean run: its count and what it states.
pub(crate) fn lean_marker(r: usize, summary: Option<&str>) -> String {
    match summary {
        Some(s) => format!("\u{2026} {r} rows elided (caveman): {s} \u{2026}"),
        None => format!("\u{2026} {r} rows elided (caveman) \u{2026}"),
    }
}

/// The lean `tabular` row: CSV, TSV and Markdown tables rebuilt in their
/// own format; whitespace-aligned and box-drawn tables as their lines.
pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    const NO: Decline = Decline("not a table, too few rows, or nothing to cut");
    if contains(input.body, MARKER_GUARD) {
        return Err(Decline("already compressed"));
    }
    if let Some(t) = std::str::from_utf8(input.body)
        .ok()
        .and_then(super::markdown::parse)
    {
        return super::markdown::lean_markdown(input.body, &t, input.query, input.budget).ok_or(NO);
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
    let Ok(text) = std::str::from_utf8(input.body) else {
        // A Latin-1 or Windows-1252 export, read in that encoding; the
        // view is UTF-8 (the original is stored as it was).
        let text = crate::compress::shared::clean::windows_1252(input.body);
        if let Some(t) = table::parse_text(&text) {
            return lean_dsv(text.as_bytes(), &t, input.query, input.budget).ok_or(NO);
        }
        return lean_aligned(&text, input.query, LEAN_TAIL, input.budget).ok_or(NO);
    };
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
    use super::super::shared::lines::{join_lines, Keep, Lines};
    if text.len() < LEAN_MIN_BYTES {
        return None;
    }
    let doc = Lines::split(text);
    if !table::aligned::may_parse(doc.iter().map(|l| l.trim_end_matches('\r'))) {
        return None;
    }
    if let Some(c) = super::listing::lean_listing(text, query, budget) {
        return Some(c);
    }
    let plain: Vec<&str> = doc.iter().map(|l| l.trim_end_matches('\r')).collect();
    let mut t = after_preamble(&plain)?;
    // A barred table whose first row stands over a border (a Markdown
    // delimiter row) has that row for header, even with empty names.
    if t.header.is_none()
        && matches!(t.split, table::aligned::Split::Bars(_))
        && t.rows.len() > 1
        && plain[t.rows[0] + 1..t.rows[1]]
            .iter()
            .any(|l| table::aligned::is_border(l))
    {
        t.header = Some(t.rows.remove(0));
    }
    if t.rows.len() < LEAN_MIN_ROWS {
        return None;
    }
    let names: Vec<&str> = match t.header {
        Some(h) => t.cells(plain[h]),
        None => Vec::new(),
    };
    let width = t.cells(plain[t.rows[0]]).len();
    // A two-column tool table is a lookup (`pip list`: package → version):
    // read whole as a CSV lookup is, its rows are the answer.
    if width == 2 && t.rows.len() <= super::whole::REFERENCE_ROWS && text.len() <= 64 * 1024 {
        let rows: Vec<Vec<&str>> = t.rows.iter().map(|&r| t.cells(plain[r])).collect();
        let key = super::whole::reference_key(width, &rows);
        let tokens = crate::tokens::count(text.as_bytes());
        if super::whole::read_whole(tokens, rows.len(), key, budget) {
            return Some(Compressed::new(text.as_bytes().to_vec()));
        }
    }
    const LS: [&str; 9] = [
        "mode", "links", "owner", "group", "size", "month", "day", "time", "name",
    ];
    const BY_POSITION: [&str; 16] = [
        "#1", "#2", "#3", "#4", "#5", "#6", "#7", "#8", "#9", "#10", "#11", "#12", "#13", "#14",
        "#15", "#16",
    ];
    // Without a header, `ls -l`'s columns have their names; any other
    // table's are named by position (beyond the 16th, not summarised).
    let by_name: &[&str] = if super::listing::LS_ROW.is_match(plain[t.rows[0]]) {
        &LS
    } else {
        &BY_POSITION
    };
    let names: Vec<&str> = if names.is_empty() {
        (0..width)
            .map(|c| by_name.get(c).copied().unwrap_or(""))
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
        top: TOP_ROWS,
        errors: true,
    };
    let cut = lean_cut(&g, query, budget);
    // Every line that is not a data row stays; rows follow the cut.
    let mut keep = Keep::new(doc.len());
    let mut row_of = vec![usize::MAX; doc.len()];
    for (k, &line) in t.rows.iter().enumerate() {
        row_of[line] = k;
        if cut.keep[k] {
            keep.set(line, "row");
        }
    }
    for (i, &r) in row_of.iter().enumerate() {
        if r == usize::MAX {
            keep.set(i, "header, border or text around the table");
        }
    }
    keep.fit_text(budget, |i| plain[i], &lean_marker(999, None), &cut.summary);
    let flags = keep.flags();
    let runs = dropped_runs(&flags);
    let first_run = runs.first().map(|r| r.start);
    let (pieces, _, mut trace) = keep.collapse(|run| {
        // The rows of the run (only rows are ever dropped).
        let rows = row_of[run.start]..row_of[run.end - 1] + 1;
        let text = if rows.len() == run.len() {
            cut.marker(rows, Some(run.start) == first_run)
        } else {
            lean_marker(run.len(), None)
        };
        Some((text, 0))
    });
    trace.kept = cut.trace.kept.clone();
    Some(Compressed::traced(join_lines(&doc, &pieces), trace))
}

/// The aligned table of `plain`, after at most [`MAX_PREAMBLE`] non-blank
/// lines that are not part of it.
fn after_preamble(plain: &[&str]) -> Option<table::aligned::Aligned> {
    let starts = plain
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i)
        .skip(1)
        .take(MAX_PREAMBLE);
    std::iter::once(0).chain(starts).find_map(|from| {
        let mut t = table::aligned::parse(&plain[from..])?;
        t.header = t.header.map(|h| h + from);
        for r in &mut t.rows {
            *r += from;
        }
        Some(t)
    })
}

/// A CSV, TSV or Markdown table cut by the lean rules.
fn lean_dsv(input: &[u8], t: &Table<'_>, query: &str, budget: Option<usize>) -> Option<Compressed> {
    let hr = t.header_rows();
    let n = t.rows.len();
    if n < hr + LEAN_MIN_ROWS || input.len() < LEAN_MIN_BYTES {
        return None;
    }
    let width = t.rows.row(0).len();
    // A reference table is a document's (an alias list, a catalogue):
    // past this many rows a table is a data set, and its cells are not
    // gathered to look for a key (33 million one-cell rows held 650 MB).
    let rows: Vec<Vec<&str>> = if n - hr <= super::whole::REFERENCE_ROWS {
        (hr..n).map(|i| t.rows.row(i).iter().collect()).collect()
    } else {
        Vec::new()
    };
    // Token counts of large tables are not needed: they exceed every
    // threshold of reading whole.
    let tokens = if input.len() <= 64 * 1024 {
        crate::tokens::count(input)
    } else {
        usize::MAX
    };
    let key = super::whole::reference_key(width, &rows);
    if super::whole::read_whole(tokens, n - hr, key, budget) {
        return None;
    }
    let g = Grid {
        // A byte-order mark is not part of the first column's name.
        names: t
            .rows
            .row(0)
            .iter()
            .map(|n| n.trim_start_matches('\u{feff}'))
            .collect(),
        row: Box::new(move |i| t.rows.row(hr + i).iter().collect()),
        rows: n - hr,
        tail: LEAN_TAIL,
        top: 1,
        errors: true,
    };
    let cut = lean_cut(&g, query, budget);
    let mut out: Vec<Out> = (0..hr).map(Out::Row).collect();
    let mut first = true;
    let mut next = 0;
    for run in dropped_runs(&cut.keep) {
        if first {
            out.push(Out::Marker(Cow::Owned(lean_summary(&cut.summary))));
        }
        out.extend((next..run.start).map(|i| Out::Row(hr + i)));
        next = run.end;
        let note = key.and_then(|k| super::whole::keys_note(g.names[k], &rows, run.clone(), k));
        let m = cut.marker_noted(run, false, note.as_deref());
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

    fn aligned(text: &str) -> String {
        String::from_utf8(lean_aligned(text, "", LEAN_TAIL, None).unwrap().bytes).unwrap()
    }

    #[test]
    fn kubectl_top_keeps_the_heaviest_pods() {
        let mut s = String::from("NAME                 CPU(cores)   MEMORY(bytes)\n");
        for i in 0..60 {
            let (cpu, mem) = match i {
                11 => ("900m", "1005Mi"),
                19 => ("1200m", "998Mi"),
                24 => ("700m", "0.9Gi"),
                _ => ("5m", "40Mi"),
            };
            s.push_str(&format!("pod-{i:02}               {cpu:<12} {mem}\n"));
        }
        let out = aligned(&s);
        assert!(
            out.contains("pod-11               900m         1005Mi"),
            "{out}"
        );
        assert!(
            out.contains("pod-19               1200m        998Mi"),
            "{out}"
        );
        assert!(out.contains("60 total rows"), "{out}");
        assert!(
            out.contains("all CPU(cores)=5m MEMORY(bytes)=40Mi"),
            "{out}"
        );
    }

    fn csv(text: &str) -> String {
        let t = table::parse(text.as_bytes()).unwrap();
        String::from_utf8(lean_dsv(text.as_bytes(), &t, "", None).unwrap().bytes).unwrap()
    }

    #[test]
    fn a_ranked_table_keeps_its_leaders_whole() {
        let mut s = String::from("rank,player,club,score\n");
        for i in 1..=300 {
            let club = ["north harbour rovers", "south bay united"][i % 2];
            s.push_str(&format!("{i},player number {i},{club},{}\n", 5000 - i * 7));
        }
        let out = csv(&s);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[1].contains("ranked by rank (ascending)"), "{out}");
        for (k, i) in (1..=12).enumerate() {
            assert!(
                lines[2 + k].starts_with(&format!("{i},player number {i},")),
                "{out}"
            );
        }
        assert!(
            lines[14].contains("rows elided") && lines[14].contains("rank=13.."),
            "{out}"
        );
        for i in 298..=300 {
            assert!(out.contains(&format!("\n{i},player number {i},")), "{out}");
        }
    }

    #[test]
    fn a_table_sorted_by_a_measure_is_ranked_by_it() {
        let mut s = String::from("player,club,score\n");
        for i in 1..=300 {
            let club = ["north harbour rovers", "south bay united"][i % 2];
            let score = 9000 - i * 7 - (i * i) % 5;
            s.push_str(&format!("player number {i},{club},{score}\n"));
        }
        let out = csv(&s);
        assert!(out.contains("ranked by score (descending)"), "{out}");
        assert!(out.contains("player number 12,"), "{out}");
        // The hidden rows' scores, least first.
        let lo = 9000 - 297 * 7 - (297 * 297) % 5;
        let hi = 9000 - 13 * 7 - (13 * 13) % 5;
        assert!(
            out.contains(&format!("rows elided (caveman): score={lo}..{hi}")),
            "{out}"
        );
    }

    #[test]
    fn a_long_format_table_keeps_each_groups_course() {
        let mut s = String::from("symbol,date,price\n");
        for (k, sym) in ["MSFT", "AMZN", "IBM", "AAPL"].iter().enumerate() {
            for m in 0..120 {
                let price = 100 + (m * 37 + k * 11) % 90;
                s.push_str(&format!(
                    "{sym},{}-{:02}-01,{price}.25\n",
                    2000 + m / 12,
                    m % 12 + 1
                ));
            }
        }
        let out = csv(&s);
        for sym in ["MSFT", "AMZN", "IBM", "AAPL"] {
            assert!(out.contains(&format!("\n{sym},2000-01-01,")), "{out}");
            assert!(out.contains(&format!("\n{sym},2009-12-01,")), "{out}");
            assert!(out.contains(&format!("all symbol={sym}; price=")), "{out}");
        }
        assert!(out.contains("(sorted ascending)"), "{out}");
    }

    #[test]
    fn a_barred_table_over_a_delimiter_row_has_its_header() {
        let mut s = String::from("| | code | name |\n| - | :-: | - |\n");
        for i in 0..60 {
            s.push_str(&format!("| [top](#t) | c{i:02} | name number {i} |\n"));
        }
        let out = aligned(&s);
        assert!(
            out.starts_with("| | code | name |\n| - | :-: | - |\n"),
            "{out}"
        );
        assert!(out.contains("60 total rows"), "{out}");
        assert!(out.contains("code: 60 distinct"), "{out}");
        assert!(!out.contains("mode") && !out.contains("#1"), "{out}");
    }

    #[test]
    fn a_two_column_lookup_is_read_whole() {
        let mut s = String::from(
            "Package                   Version\n------------------------- -----------\n",
        );
        for k in 0..84 {
            s.push_str(&format!("pkg-alpha-{k:<15} {}.{}.{}\n", k % 5, k % 7, k));
        }
        let out = aligned(&s);
        assert_eq!(out, s);
    }

    #[test]
    fn a_short_table_is_read_whole() {
        let mut s = String::from("NAME   VALUE   NOTE\n");
        for i in 0..40 {
            s.push_str(&format!("n{i:02}    {i:<5}   x\n"));
        }
        assert!(s.len() < LEAN_MIN_BYTES);
        assert!(lean_aligned(&s, "", LEAN_TAIL, None).is_none());
    }

    #[test]
    fn non_default_status_rows_stay() {
        let mut s = String::from("NAME       READY   STATUS             RESTARTS   AGE\n");
        for i in 0..40 {
            let (ready, status, restarts) = match i {
                9 => ("0/1", "Pending", "0"),
                23 => ("0/1", "CrashLoopBackOff", "37"),
                _ => ("1/1", "Running", "0"),
            };
            s.push_str(&format!(
                "web-{i:02}     {ready}     {status:<18} {restarts:<10} 3d\n"
            ));
        }
        let out = aligned(&s);
        assert!(out.contains("web-09     0/1     Pending"), "{out}");
        assert!(out.contains("web-23     0/1     CrashLoopBackOff"), "{out}");
        assert!(out.contains("all READY=1/1 STATUS=Running"), "{out}");
    }
}
