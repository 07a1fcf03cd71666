//! `ls -l` and `ls -lR` listings as the lean table rules read them: one
//! grid of every directory's rows (mode, links, owner, group, size,
//! modified, name), read by splitting on whitespace, not by gutters (a
//! directory header `./lib:` or a `total N` line would close every
//! gutter). Every line that is not a row stays: directory headers,
//! `total N`, blank lines, `ls:` errors. A dropped run's marker names its
//! directory and how many entries that directory holds.

use std::sync::LazyLock;

use regex::Regex;

use super::cut::lean_cut;
use super::lean::{lean_marker, Grid, LEAN_MIN_ROWS, LEAN_TAIL};
use crate::compress::shared::dropped_runs;
use crate::compress::shared::lines::{join_lines, Keep, Lines};
use crate::compress::Compressed;

/// An `ls -l` row: a file type and permissions, a link count.
pub(super) static LS_ROW: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[-dlcbpsD][rwxsStTl-]{9}[.+@]?\s+\d+\s").expect("ls row"));

/// A listing's time of day or year: the last field before the name.
static TIME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?|\d{4})$").expect("ls time"));

/// The columns of a listing's grid.
const NAMES: [&str; 7] = [
    "mode", "links", "owner", "group", "size", "modified", "name",
];

/// Rows of a listing outside the rows' other lines (headers, totals,
/// blanks, errors) at most, per ten rows.
const MAX_OTHER_PER_TEN: usize = 1;

/// A directory of a listing: its header line (none for the first of a
/// plain `ls -l`) and its rows' lines.
struct Section {
    header: Option<usize>,
    rows: Vec<usize>,
}

/// A directory header of `ls -lR`: `./lib:`, `/var/log:`.
fn is_header(line: &str) -> bool {
    line.len() > 1 && line.ends_with(':') && !LS_ROW.is_match(line)
}

/// The directories of a listing, when the lines are one: `ls -l` rows
/// under directory headers and `total N` lines, and few other lines.
fn sections(plain: &[&str]) -> Option<Vec<Section>> {
    let mut out: Vec<Section> = Vec::new();
    let mut other = 0;
    let mut headers = 0;
    for (i, l) in plain.iter().enumerate() {
        if l.trim().is_empty() || l.starts_with("total ") {
            continue;
        }
        if LS_ROW.is_match(l) {
            if out.is_empty() {
                out.push(Section {
                    header: None,
                    rows: Vec::new(),
                });
            }
            if let Some(s) = out.last_mut() {
                s.rows.push(i);
            }
        } else if is_header(l) {
            headers += 1;
            out.push(Section {
                header: Some(i),
                rows: Vec::new(),
            });
        } else {
            other += 1;
        }
    }
    let rows: usize = out.iter().map(|s| s.rows.len()).sum();
    // A plain `ls -l` has no header: its rows are nearly every line.
    (rows >= LEAN_MIN_ROWS && (headers > 0 || other == 0) && other * 10 <= rows * MAX_OTHER_PER_TEN)
        .then_some(out)
}

/// The cells of an `ls -l` row: mode, links, owner, group (empty under
/// `ls -o`), size (`4, 1` for a device), the modification time as
/// printed (`Jan  1 00:00`, `2024-01-01 12:00`), the name (with a link's
/// target).
fn cells(line: &str) -> Vec<&str> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    for w in line.split_ascii_whitespace().take(12) {
        let start = at + line[at..].find(w).unwrap_or(0);
        spans.push((start, start + w.len()));
        at = start + w.len();
    }
    let word = |k: usize| &line[spans[k].0..spans[k].1];
    let Some(t) = (5..spans.len().saturating_sub(1)).find(|&k| TIME.is_match(word(k))) else {
        return vec![line];
    };
    // `2024-01-01 12:00` or `Jan  1 00:00`.
    let date = if word(t - 1).contains('-') {
        t - 1
    } else {
        t - 2
    };
    let mut size = date - 1;
    if size >= 3 && word(size - 1).ends_with(',') {
        size -= 1;
    }
    if size < 3 {
        return vec![line];
    }
    let slice = |a: usize, b: usize| &line[spans[a].0..spans[b].1];
    let group = if size == 4 { word(3) } else { "" };
    vec![
        word(0),
        word(1),
        word(2),
        group,
        slice(size, date - 1),
        slice(date, t),
        line[spans[t + 1].0..].trim_end(),
    ]
}

/// A listing cut by the lean rules, or `None` when the lines are not
/// one.
pub(crate) fn lean_listing(text: &str, query: &str, budget: Option<usize>) -> Option<Compressed> {
    // A listing has a directory header (a line that ends with a colon),
    // or starts with `total N` or a row.
    let b = text.as_bytes();
    let first = text.trim_start().lines().next().unwrap_or("");
    if memchr::memmem::find(b, b":\n").is_none()
        && memchr::memmem::find(b, b":\r\n").is_none()
        && !first.starts_with("total ")
        && !LS_ROW.is_match(first)
    {
        return None;
    }
    let doc = Lines::split(text);
    let plain: Vec<&str> = doc.iter().map(|l| l.trim_end_matches('\r')).collect();
    let sections = sections(&plain)?;
    if budget.is_none() {
        return Some(by_name(&doc, &plain, &sections, query));
    }
    let rows: Vec<usize> = sections
        .iter()
        .flat_map(|s| s.rows.iter().copied())
        .collect();
    let table: Vec<Vec<&str>> = rows.iter().map(|&i| cells(plain[i])).collect();
    let g = Grid {
        names: NAMES.to_vec(),
        row: Box::new(move |i| table[i].clone()),
        rows: rows.len(),
        tail: LEAN_TAIL,
        top: super::lean::TOP_ROWS,
        errors: false,
        fill: false,
        ceiling: false,
    };
    let mut cut = lean_cut(&g, query, budget);
    // Each directory shows its first entry, and a directory's gap of one
    // or two rows stays (its marker would cost as much).
    let mut at = 0;
    let mut section_of = vec![usize::MAX; plain.len()];
    for (s, sec) in sections.iter().enumerate() {
        let span = at..at + sec.rows.len();
        at = span.end;
        if budget.is_none() {
            if !span.is_empty() {
                cut.keep[span.start] = true;
            }
            for run in dropped_runs(&cut.keep[span.clone()]) {
                for i in run.clone().filter(|_| run.len() <= 2) {
                    cut.keep[span.start + i] = true;
                }
            }
        }
        for &i in &sec.rows {
            section_of[i] = s;
        }
    }
    let mut keep = Keep::new(doc.len());
    let mut row_of = vec![usize::MAX; doc.len()];
    for (k, &line) in rows.iter().enumerate() {
        row_of[line] = k;
        if cut.keep[k] {
            keep.set(line, "row");
        }
    }
    for (i, &r) in row_of.iter().enumerate() {
        if r == usize::MAX {
            keep.set(i, "directory header, total or text around the listing");
        }
    }
    keep.fit_text(budget, |i| plain[i], &lean_marker(999, None), &cut.summary);
    let flags = keep.flags();
    let runs = dropped_runs(&flags);
    let first_run = runs.first().map(|r| r.start);
    let (pieces, _, mut trace) = keep.collapse(|run| {
        // Only rows are dropped, except under a budget.
        let (a, b) = (row_of[run.start], row_of[run.end - 1]);
        let (s, t) = (section_of[run.start], section_of[run.end - 1]);
        if a == usize::MAX || b == usize::MAX || b + 1 - a != run.len() || s != t {
            return Some((
                format!("\u{2026} {} lines elided (caveman) \u{2026}", run.len()),
                0,
            ));
        }
        let sec = &sections[s];
        let dir = match sec.header {
            Some(h) => plain[h].trim_end_matches(':'),
            None => ".",
        };
        let note = format!("{dir} holds {} entries", sec.rows.len());
        let first = Some(run.start) == first_run;
        Some((cut.marker_noted(a..b + 1, first, Some(&note)), 0))
    });
    trace.kept = cut.trace.kept.clone();
    Some(Compressed::traced(join_lines(&doc, &pieces), trace))
}

/// Rows of a run of alike entries written as names at least: a shorter
/// run stays as its rows (its marker would cost about as much).
const MIN_NAMED_RUN: usize = 3;

/// Kinds of row (mode, owner, group) counted per directory at most.
const MAX_KEYS: usize = 1024;

/// A listing whose names all stay: the name column is the key. Each
/// directory's usual mode, owner and group are said once per run of
/// entries that share them, with the names (and their sizes, unless one
/// size is common to the run); rows that differ (another mode or owner, a
/// symlink, the directory's largest entry, a query hit) stay whole.
fn by_name(doc: &Lines<'_>, plain: &[&str], sections: &[Section], query: &str) -> Compressed {
    let mut keep = Keep::new(doc.len());
    let mut alike = vec![false; doc.len()];
    let q = query.trim().to_lowercase();
    let hit = |line: usize| !q.is_empty() && plain[line].to_lowercase().contains(&q);
    // A row's cells are read again in each pass, never held for every
    // row (seven slices a row cost more than the row).
    let full = |line: usize| Some(cells(plain[line])).filter(|c| c.len() == NAMES.len());
    let size = |c: &[&str]| c[4].trim().parse::<u64>().ok();
    fn key<'t>(c: &[&'t str]) -> (&'t str, &'t str, &'t str) {
        (c[0], c[2], c[3])
    }
    for sec in sections {
        // In order of first appearance, found by an index (a listing of
        // as many owners as rows would be quadratic), at most
        // [`MAX_KEYS`]: a key first seen past them is never the usual one.
        let mut counts: Vec<((&str, &str, &str), usize)> = Vec::new();
        let mut index: rustc_hash::FxHashMap<(&str, &str, &str), usize> = Default::default();
        // The largest entry (the first of equals), and the least size.
        let mut largest: Option<(u64, usize)> = None;
        let mut least: Option<u64> = None;
        for (k, &line) in sec.rows.iter().enumerate() {
            let Some(c) = full(line) else {
                continue;
            };
            let slot = match index.get(&key(&c)) {
                Some(&slot) => Some(slot),
                None if counts.len() < MAX_KEYS => {
                    index.insert(key(&c), counts.len());
                    counts.push((key(&c), 0));
                    Some(counts.len() - 1)
                }
                None => None,
            };
            if let Some(slot) = slot {
                counts[slot].1 += 1;
            }
            if let Some(s) = size(&c) {
                if largest.is_none_or(|b| s > b.0) {
                    largest = Some((s, k));
                }
                least = Some(least.map_or(s, |l| l.min(s)));
            }
        }
        // The most frequent (first seen among equals).
        let usual = counts
            .iter()
            .fold(
                None::<&((&str, &str, &str), usize)>,
                |best, kc| match best {
                    Some(b) if b.1 >= kc.1 => Some(b),
                    _ => Some(kc),
                },
            )
            .map(|kc| kc.0);
        for (k, &line) in sec.rows.iter().enumerate() {
            alike[line] = full(line).is_some_and(|c| {
                Some(key(&c)) == usual
                    && !c[0].starts_with('l')
                    && !c[6].contains(" -> ")
                    && largest.map(|l| l.1) != Some(k)
                    && !hit(line)
            });
        }
        if let Some((s, k)) = largest {
            // The largest entry is news only when it stands out.
            if least == Some(s) {
                let line = sec.rows[k];
                alike[line] = full(line).is_some_and(|c| {
                    Some(key(&c)) == usual && !c[0].starts_with('l') && !hit(line)
                });
            }
        }
    }
    // Runs of alike rows in one directory, long enough to name.
    let mut i = 0;
    while i < doc.len() {
        if !alike[i] {
            keep.set(i, "directory header, total, text or a row that differs");
            i += 1;
            continue;
        }
        let start = i;
        while i < doc.len() && alike[i] {
            i += 1;
        }
        if i - start < MIN_NAMED_RUN {
            for j in start..i {
                keep.set(j, "row");
            }
        }
    }
    let (pieces, _, trace) = keep.collapse(|run| {
        // Every row of a run is alike: a full row.
        let c0 = cells(plain[run.start]);
        let one_size = run.clone().all(|i| cells(plain[i])[4] == c0[4]);
        let mut head = format!("\u{2026} {} entries: all {} {}", run.len(), c0[0], c0[2]);
        if !c0[3].is_empty() {
            head.push(' ');
            head.push_str(c0[3]);
        }
        let mut names = String::new();
        for (k, i) in run.clone().enumerate() {
            let c = cells(plain[i]);
            if k > 0 {
                names.push_str(if one_size { " " } else { ", " });
            }
            if c[6].contains([' ', ',', '\t']) {
                names.push('\'');
                names.push_str(c[6]);
                names.push('\'');
            } else {
                names.push_str(c[6]);
            }
            if !one_size {
                names.push(' ');
                names.push_str(c[4].trim());
            }
        }
        let text = if one_size {
            format!(
                "{head} size {}; links and dates elided (caveman): {names}",
                c0[4].trim()
            )
        } else {
            format!("{head}; as name size, links and dates elided (caveman): {names}")
        };
        Some((text, 0))
    });
    Compressed::traced(join_lines(doc, &pieces), trace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_split_into_named_cells() {
        assert_eq!(
            cells("-rw-r--r-- 1 root root  220 Jan  1 00:00 my file.txt"),
            vec![
                "-rw-r--r--",
                "1",
                "root",
                "root",
                "220",
                "Jan  1 00:00",
                "my file.txt"
            ]
        );
        assert_eq!(
            cells("lrwxrwxrwx 1 root root 21 Jan  8  2023 cpp -> /etc/alternatives/cpp"),
            vec![
                "lrwxrwxrwx",
                "1",
                "root",
                "root",
                "21",
                "Jan  8  2023",
                "cpp -> /etc/alternatives/cpp"
            ]
        );
        assert_eq!(
            cells("crw-rw---- 1 root tty 4, 1 Dec  2 09:00 tty1"),
            vec![
                "crw-rw----",
                "1",
                "root",
                "tty",
                "4, 1",
                "Dec  2 09:00",
                "tty1"
            ]
        );
        assert_eq!(
            cells("-rw-r--r-- 1 alice 4096 2024-01-01 12:00 notes"),
            vec![
                "-rw-r--r--",
                "1",
                "alice",
                "",
                "4096",
                "2024-01-01 12:00",
                "notes"
            ]
        );
    }
}
