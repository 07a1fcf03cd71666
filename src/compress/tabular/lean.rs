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

use super::super::shared::dropped_runs;
use super::cut::lean_cut;
use super::{contains, rebuild, Out, MARKER_GUARD};
use crate::compress::{Compressed, Decline, Input};
use crate::detect::Parsed;
use crate::table::{self, Table};

/// Data rows needed before a lean table is cut: a shorter table is read
/// whole (a CLI's options, a short pod list are the answer, not a sample).
pub(super) const LEAN_MIN_ROWS: usize = 16;
/// Bytes needed before a lean table is cut: a short data dictionary or
/// option list is the answer whatever its row count.
pub(super) const LEAN_MIN_BYTES: usize = 1024;
/// Trailing data rows a lean table keeps.
pub(super) const LEAN_TAIL: usize = 1;
/// The greatest rows of each numeric column a command's table keeps
/// (within a budget): `kubectl top`'s heaviest pods, not only the first.
pub(super) const TOP_ROWS: usize = 3;
/// Non-blank lines an aligned table may have before it (a tool's first
/// line, a `kubectl` warning); they stay as they are.
const MAX_PREAMBLE: usize = 3;
/// Columns summarised per table at most.
pub(super) const MAX_COLUMNS: usize = 256;

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
    /// Whether rows the rules did not choose fill what a budget leaves,
    /// in order (a ceiling from compat's size, not the user's budget: a
    /// data dictionary over it loses a few rows, not all but its ends).
    pub fill: bool,
    /// Whether a budget is compat's size (issue 40 rule 8), not the
    /// user's: it never drops a row of rule 5 (an error, an extreme, a
    /// state other than the default, a row unlike the others) nor
    /// shortens the table's summary.
    pub ceiling: bool,
}

/// The line that states what held for every row of a cut table, on its
/// own (on the first gap's marker it would read as the gap's).
pub(crate) fn lean_summary(summary: &str) -> String {
    format!("\u{2026} whole table (caveman): {summary} \u{2026}")
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
        // Compat reads a Markdown table as text (or as a table): the
        // ceiling is its view, whichever compressor made it.
        let cut = |budget, ceiling| {
            super::markdown::lean_markdown(input.body, &t, input.query, budget, ceiling)
        };
        let compat = || crate::compress::compat_ceiling(input.body, input.query);
        return super::ceiling::within_compat(input.body, input.budget, cut, compat).ok_or(NO);
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
        let cut = |budget, ceiling| lean_dsv(input.body, t, input.query, budget, ceiling);
        let compat = || super::ceiling::compat_room(input.body, t, input.query);
        return super::ceiling::within_compat(input.body, input.budget, cut, compat).ok_or(NO);
    }
    let Ok(text) = std::str::from_utf8(input.body) else {
        // A Latin-1 or Windows-1252 export, read in that encoding; the
        // view is UTF-8 (the original is stored as it was).
        let text = crate::compress::shared::clean::windows_1252(input.body);
        if let Some(t) = table::parse_text(&text) {
            return lean_dsv(text.as_bytes(), &t, input.query, input.budget, false).ok_or(NO);
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
    // The header printed again every screenful is no row: markers count
    // its copies apart.
    let repeated = t.take_repeated_headers(&plain);
    if t.rows.len() < LEAN_MIN_ROWS {
        return None;
    }
    let names: Vec<&str> = match t.header {
        Some(h) => t.names(plain[h]),
        None => Vec::new(),
    };
    let width = t.cells(plain[t.rows[0]]).len();
    // A tool's table within the threshold every table has (`gh release
    // list`, `docker ps`, `pip list`) is the answer, read whole as a CSV
    // table is.
    let plan = super::whole::plan(
        super::whole::tokens(text.as_bytes()),
        width,
        t.rows.len(),
        |i| t.cells(plain[t.rows[i]]),
        budget,
    );
    if plan.whole {
        return Some(Compressed::new(text.as_bytes().to_vec()));
    }
    const LS: [&str; 9] = [
        "mode", "links", "owner", "group", "size", "month", "day", "time", "name",
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
        fill: false,
        ceiling: false,
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
    let mut again = vec![false; doc.len()];
    for &line in &repeated {
        again[line] = true;
    }
    for (i, &r) in row_of.iter().enumerate() {
        if r == usize::MAX && !again[i] {
            keep.set(i, "header, border or text around the table");
        }
    }
    keep.fit_text(budget, |i| plain[i], &lean_marker(999, None), &cut.summary);
    let flags = keep.flags();
    let runs = dropped_runs(&flags);
    // The summary goes with the first marker of rows.
    let first_run = runs
        .iter()
        .find(|r| (r.start..r.end).any(|l| row_of[l] != usize::MAX))
        .map(|r| r.start);
    let (pieces, _, mut trace) = keep.collapse(|run| {
        // The rows of the run (only rows and repeated headers are ever
        // dropped).
        let mut rows = run
            .clone()
            .filter(|&l| row_of[l] != usize::MAX)
            .map(|l| row_of[l]);
        let first = rows.next();
        let last = rows.next_back().or(first);
        let headers = run.clone().filter(|&l| again[l]).count();
        let note = (headers > 0).then(|| format!("{headers} header lines printed again"));
        let text = match (first, last) {
            (Some(a), Some(b)) if b + 1 - a + headers == run.len() => {
                cut.marker_noted(a..b + 1, Some(run.start) == first_run, note.as_deref())
            }
            (None, _) => {
                format!("\u{2026} {headers} header lines printed again (caveman) \u{2026}")
            }
            _ => lean_marker(run.len(), None),
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

/// The names of a header-less table's columns: their positions (beyond
/// the 16th, none: not summarised).
const BY_POSITION: [&str; 16] = [
    "#1", "#2", "#3", "#4", "#5", "#6", "#7", "#8", "#9", "#10", "#11", "#12", "#13", "#14", "#15",
    "#16",
];

/// Rows read to tell a header from data.
const HEADER_ROWS_READ: usize = 1000;

/// Whether a CSV's or TSV's first row is data, not a header: a cell of it
/// holds a URL, or a word that is a frequent value of its column (in a
/// tenth of the rows below or more: `pass` over 60 more `pass` is a
/// status, not the column's name; a header printed again, the whole row
/// repeated, does not count).
fn first_row_is_data(t: &Table<'_>) -> bool {
    if t.kind == table::Kind::Markdown || t.rows.len() < 3 {
        return false;
    }
    let head = t.rows.row(0);
    let rows = t.rows.len().min(HEADER_ROWS_READ);
    let repeated: Vec<bool> = (0..rows)
        .map(|i| t.rows.row(i).iter().eq(head.iter()))
        .collect();
    let frequent = ((rows - 1) / 10).max(2);
    head.iter().enumerate().any(|(c, cell)| {
        let cell = cell.trim();
        cell.contains("://")
            || (cell.chars().any(char::is_alphabetic)
                && (1..rows)
                    .filter(|&i| !repeated[i] && t.rows.row(i).get(c).map(str::trim) == Some(cell))
                    .nth(frequent - 1)
                    .is_some())
    })
}

/// A CSV, TSV or Markdown table cut by the lean rules; under a
/// `ceiling` (the budget is compat's size, [`super::ceiling::within_compat`]) a short or
/// small one too, and a reference table's other rows fill the budget.
pub(super) fn lean_dsv(
    input: &[u8],
    t: &Table<'_>,
    query: &str,
    budget: Option<usize>,
    ceiling: bool,
) -> Option<Compressed> {
    // A table printed without its header (`gh pr checks` piped, a
    // `--no-headers` listing) has its columns named by position and its
    // first line counted as the row it is.
    let headerless = first_row_is_data(t);
    let hr = if headerless { 0 } else { t.header_rows() };
    let n = t.rows.len();
    if n <= hr || (!ceiling && (n < hr + LEAN_MIN_ROWS || input.len() < LEAN_MIN_BYTES)) {
        return None;
    }
    let width = t.rows.row(0).len();
    let plan = super::whole::plan(
        super::whole::tokens(input),
        width,
        n - hr,
        |i| t.rows.row(hr + i).iter().collect(),
        budget,
    );
    if plan.whole {
        return None;
    }
    let (key, rows) = (plan.key, plan.rows);
    let g = Grid {
        // A byte-order mark is not part of the first column's name.
        names: if headerless {
            (0..width)
                .map(|c| BY_POSITION.get(c).copied().unwrap_or(""))
                .collect()
        } else {
            t.rows
                .row(0)
                .iter()
                .map(|n| n.trim_start_matches('\u{feff}'))
                .collect()
        },
        row: Box::new(move |i| t.rows.row(hr + i).iter().collect()),
        rows: n - hr,
        tail: LEAN_TAIL,
        top: 1,
        errors: true,
        // A data table's rows stay chosen by value.
        fill: ceiling && key.is_some(),
        ceiling,
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
        // Past the threshold of reading whole (2000 tokens).
        for i in 0..300 {
            let (cpu, mem) = match i {
                11 => ("900m", "1005Mi"),
                19 => ("1200m", "998Mi"),
                24 => ("700m", "0.9Gi"),
                _ => ("5m", "40Mi"),
            };
            s.push_str(&format!("pod-{i:03}              {cpu:<12} {mem}\n"));
        }
        let out = aligned(&s);
        assert!(
            out.contains("pod-011              900m         1005Mi"),
            "{out}"
        );
        assert!(
            out.contains("pod-019              1200m        998Mi"),
            "{out}"
        );
        assert!(out.contains("300 total rows"), "{out}");
        assert!(
            out.contains("all CPU(cores)=5m MEMORY(bytes)=40Mi"),
            "{out}"
        );
    }

    fn csv(text: &str) -> String {
        let t = table::parse(text.as_bytes()).unwrap();
        String::from_utf8(
            lean_dsv(text.as_bytes(), &t, "", None, false)
                .unwrap()
                .bytes,
        )
        .unwrap()
    }

    /// A gap of two wide rows is a marker (it costs less than they do);
    /// a gap's few repeated times are its span, not a list with counts.
    #[test]
    fn wide_gaps_are_markers_and_their_times_a_span() {
        let mut s = String::from("LineId,Time,Level,Content\n");
        for i in 0..300 {
            let level = if i % 3 == 0 { "error" } else { "notice" };
            s.push_str(&format!(
                "{i},2021-03-01 10:{:02}:{:02},{level},worker {} found child {} in scoreboard slot {}\n",
                i / 60,
                i / 4 % 60,
                i % 5,
                6000 + i,
                i % 11
            ));
        }
        let out = csv(&s);
        assert!(out.contains("\n\u{2026} 2 rows elided (caveman)"), "{out}");
        assert!(!out.contains("\n4,2021-03-01"), "{out}");
        let mut s = String::from("LineId,Time,Level,Content\n");
        for i in 0..300 {
            let level = if i % 8 == 0 { "error" } else { "notice" };
            s.push_str(&format!(
                "{i},2021-03-01 10:{:02}:{:02},{level},worker {} found child {}\n",
                i / 24 % 60,
                i / 3 % 8,
                i % 5,
                6000 + i
            ));
        }
        let out = csv(&s);
        let gap = out
            .lines()
            .find(|l| l.starts_with("\u{2026} 7 rows elided"))
            .expect("a gap of seven rows");
        assert!(!gap.contains("\u{d7}"), "{gap}");
        if gap.contains("Time:") {
            assert!(gap.contains(" \u{2192} "), "{gap}");
        }
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
        // Past the threshold of a reference table (6000 tokens).
        for i in 0..700 {
            s.push_str(&format!("| [top](#t) | c{i:03} | name number {i} |\n"));
        }
        let out = aligned(&s);
        assert!(
            out.starts_with("| | code | name |\n| - | :-: | - |\n"),
            "{out}"
        );
        assert!(out.contains("700 total rows"), "{out}");
        assert!(out.contains("code: 700 distinct"), "{out}");
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

    /// Issue C of the last review: `gh release list` of 30 tags hid 25.
    #[test]
    fn a_tool_table_of_any_width_within_the_threshold_is_read_whole() {
        let mut s = String::from("TITLE          TYPE    TAG NAME  PUBLISHED\n");
        for i in 0..30 {
            let kind = if i == 0 { "Latest" } else { "" };
            s.push_str(&format!(
                "v1.{:<2}.0        {kind:<7} v1.{:<2}.0   about {} days ago\n",
                30 - i,
                30 - i,
                i * 3 + 1
            ));
        }
        assert!(s.len() > LEAN_MIN_BYTES);
        assert_eq!(aligned(&s), s);
        // Past the threshold the same table is cut.
        let mut long = s.clone();
        for i in 30..400 {
            long.push_str(&format!(
                "v0.{i:<3}.0       {:<7} v0.{i:<3}.0  about {i} days ago\n",
                ""
            ));
        }
        assert!(aligned(&long).contains("rows elided"));
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
        let mut s = String::from("NAME        READY   STATUS             RESTARTS   AGE\n");
        for i in 0..300 {
            let (ready, status, restarts) = match i {
                9 => ("0/1", "Pending", "0"),
                23 => ("0/1", "CrashLoopBackOff", "37"),
                _ => ("1/1", "Running", "0"),
            };
            s.push_str(&format!(
                "web-{i:03}     {ready}     {status:<18} {restarts:<10} 3d\n"
            ));
        }
        let out = aligned(&s);
        assert!(out.contains("web-009     0/1     Pending"), "{out}");
        assert!(
            out.contains("web-023     0/1     CrashLoopBackOff"),
            "{out}"
        );
        assert!(out.contains("all READY=1/1 STATUS=Running"), "{out}");
    }

    /// Issue 40 §5: a `kubectl get pods` table with usage columns keeps
    /// each numeric column's top and bottom rows (quantities compared by
    /// value, `0.9Gi` above `998Mi`), every row with a non-default
    /// status, and its markers say what the dropped rows share.
    #[test]
    fn pods_are_kept_by_value_and_markers_say_what_the_rest_share() {
        let mut s =
            String::from("NAME            READY   STATUS      RESTARTS   CPU    MEMORY   AGE\n");
        for i in 0..240 {
            let (status, restarts, cpu, mem) = match i {
                40 => ("Pending", 0, "0m".to_string(), "0Mi".to_string()),
                77 => ("Running", 2, "1900m".to_string(), "552Mi".to_string()),
                130 => ("Running", 1, "3m".to_string(), "0.9Gi".to_string()),
                _ => (
                    "Running",
                    i % 2,
                    format!("{}m", 10 + i % 50),
                    format!("{}Mi", 12 + i % 300),
                ),
            };
            s.push_str(&format!(
                "api-{i:03}-x7k2   1/1     {status:<11} {restarts:<10} {cpu:<6} {mem:<8} 5d\n"
            ));
        }
        let out = aligned(&s);
        let kept = |name: &str| out.lines().any(|l| l.starts_with(name));
        // The heaviest by CPU and memory (0.9Gi is about 922Mi), the
        // lightest, and the pending pod.
        for name in ["api-077", "api-130", "api-040"] {
            assert!(kept(name), "{name} dropped: {out}");
        }
        // The longest gap's marker (a short one has room for little).
        let marker = out
            .lines()
            .filter(|l| l.contains("rows elided") && !l.contains("total rows"))
            .max_by_key(|l| {
                l[4..]
                    .split(' ')
                    .next()
                    .and_then(|n| n.parse::<usize>().ok())
            })
            .expect("a gap's marker");
        assert!(marker.contains("STATUS=Running"), "{marker}");
        assert!(marker.contains("RESTARTS=0..1"), "{marker}");
        assert!(marker.contains("MEMORY="), "{marker}");
    }
}
