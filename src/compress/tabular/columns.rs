//! What the lean rules read of a table's columns and rows: which row
//! carries an error, which column ranks the table or groups a long-format
//! one, and a row's cells as summary fields.

use std::sync::LazyLock;

use super::super::shared::signal;
use super::super::shared::stats::{is_date, Scalar, Stats};
use crate::table::quantity::{self, Family};

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
    // A cell that is a timestamped log line (`gh run view --log-failed`:
    // job, step, then `2026-12-05T09:16:43.0000000Z E       assert 3 == 5`)
    // is read as the line after its timestamp.
    let c = LEAD_TIMESTAMP.find(c).map_or(c, |m| &c[m.end()..]);
    signal::cell_level(c) >= signal::Level::Warning || FAILED_STATE.is_match(c)
}

/// An ISO 8601 timestamp that starts a cell, with the space after it.
static LEAD_TIMESTAMP: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})? ")
        .expect("leading timestamp")
});

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
pub(super) fn row_is_error(names: &[&str], cells: &[&str]) -> bool {
    cells.iter().any(|c| failing_cell(c))
        || names.iter().zip(cells).any(|(n, c)| {
            let n = n.trim().to_ascii_lowercase();
            is_status_column(&n)
                && c.trim()
                    .parse::<u32>()
                    .is_ok_and(|v| (400..600).contains(&v) || (n.starts_with("exit") && v != 0))
        })
}

/// A (lower-case) column name that holds a state: `State`, `STATUS`,
/// `Phase`, `Health`, `Conclusion`, `READY` (or one that ends in one of
/// them after a space, `_` or `-`: `Container State`).
fn is_state_column(n: &str) -> bool {
    const STATES: [&str; 9] = [
        "state",
        "status",
        "phase",
        "health",
        "result",
        "outcome",
        "conclusion",
        "ready",
        "condition",
    ];
    let last = n.rsplit([' ', '_', '-']).next().unwrap_or(n);
    STATES.contains(&last)
}

/// The rows of every value of a state column that is not its default
/// (issue 40 rule 5: "every row with a non-default status among
/// defaults"): one group per value, fewest rows first. A column has a
/// default when one value fills at least half of its non-blank cells and
/// it holds few values ([`MAX_STATES`]); a value is not a default when
/// its rows are at most a quarter of the default's (`LISTEN`×11 among
/// `ESTAB`×120). A rare value's few rows stay by the shared rare rule
/// already; this one reaches the values held by more rows than that.
pub(super) fn state_rows(names: &[&str], cells: &[Vec<&str>]) -> Vec<Vec<usize>> {
    /// A column with more distinct values is not a state.
    const MAX_STATES: usize = 8;
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (c, name) in names.iter().enumerate() {
        if !is_state_column(&name.trim().to_ascii_lowercase()) {
            continue;
        }
        let mut values: Vec<(&str, Vec<usize>)> = Vec::new();
        for (i, row) in cells.iter().enumerate() {
            let t = row.get(c).map_or("", |x| x.trim());
            if t.is_empty() {
                continue;
            }
            if let Some(k) = values.iter().position(|(v, _)| *v == t) {
                values[k].1.push(i);
            } else if values.len() < MAX_STATES {
                values.push((t, vec![i]));
            } else {
                values.clear();
                break;
            }
        }
        let held: usize = values.iter().map(|(_, r)| r.len()).sum();
        let Some(mode) = values.iter().map(|(_, r)| r.len()).max() else {
            continue;
        };
        if 2 * mode < held {
            continue;
        }
        out.extend(
            values
                .into_iter()
                .filter(|(_, r)| 4 * r.len() <= mode)
                .map(|(_, r)| r),
        );
    }
    out.sort_by_key(Vec::len);
    out
}

/// A row's cells into `st`: a numeric column's cells as numbers (in its
/// family's scale), the others as text, blank cells counted.
pub(super) fn add_row<'a>(
    st: &mut Stats<'a>,
    unit: usize,
    cells: &[&'a str],
    names: &[&'a str],
    numeric: &[Option<Family>],
) {
    for (c, name) in names.iter().enumerate() {
        let t = cells.get(c).map_or("", |x| x.trim());
        let name = name.trim();
        if name.is_empty() || (numeric[c].is_some() && is_id_column(name)) {
            continue;
        }
        // A blank cell (or a short row's missing one) is counted.
        if t.is_empty() {
            st.blank(name);
            continue;
        }
        match numeric[c] {
            // A measurement (`373.36 ± 2.25`) counts as its value.
            Some(Family::Plain) => match crate::compress::shared::stats::number(t)
                .or_else(|| quantity::quantity(t).map(|q| q.1))
            {
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
pub(super) fn is_id_column(name: &str) -> bool {
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
pub(super) const RANK_HEAD: usize = 12;
pub(super) const RANK_TAIL: usize = 3;
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
pub(super) fn ranked_column(
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
pub(super) fn group_column(
    names: &[&str],
    cells: &[Vec<&str>],
    numeric: &[Option<Family>],
) -> Option<usize> {
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
            let time = is_time_name(names[k]) || cells.iter().take(64).all(|r| is_date(cell(r, k)));
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
/// its first row, the rows of its greatest and least value of the first
/// [`GROUP_MEASURES`] measures, its last row (most telling first, each
/// once); groups in order of first appearance.
pub(super) fn group_rows(
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
            // Most telling first: the group's first row (a gap then
            // holds one group, its marker the group's ranges), the
            // greatest and least value of each measure (which year had
            // most), its last row.
            let mut rows = vec![first];
            for ((_, lo), (_, hi)) in ext.into_iter().flatten() {
                rows.extend([hi, lo]);
            }
            rows.push(last);
            let mut seen = rustc_hash::FxHashSet::default();
            rows.retain(|&r| seen.insert(r));
            rows
        })
        .collect()
}
