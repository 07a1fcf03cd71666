//! Every claim a lean table marker makes is true of exactly the rows it
//! speaks for: for generated tables of names, numbers, quantities,
//! statuses, dates (fractions of a second included), free text and blank
//! cells, each section of the whole table's line and of every gap's
//! marker (`all X=Y`, ranges, distributions, enumerations, distinct
//! counts, spans, blanks, counts of rows) is checked against the rows;
//! a section the checker cannot read fails the test.

use caveman_engine::testing::{compress_lean_as, parse_table};
use caveman_engine::ContentType;
use proptest::prelude::*;

const NAMES: [&str; 6] = ["name", "status", "cpu", "mem", "seen", "note"];

/// One generated row: its cells, in the order of [`NAMES`]; `""` is a
/// blank cell.
type Row = Vec<String>;

/// What a row is made from: a status (an index), cpu, memory, a time
/// of day and its milliseconds, a note; `None` is a blank cell.
type Draw = (
    usize,
    Option<u32>,
    Option<u32>,
    Option<(u32, u32)>,
    Option<u32>,
);

fn row() -> impl Strategy<Value = Draw> {
    (
        0usize..8,
        prop::option::weighted(0.9, 0u32..5000),
        prop::option::weighted(0.95, 1u32..2000),
        prop::option::weighted(0.85, (0u32..86_400, 0u32..1000)),
        prop::option::weighted(0.7, 0u32..10_000),
    )
}

fn table() -> impl Strategy<Value = Vec<Row>> {
    (prop::collection::vec(row(), 120..260), any::<bool>()).prop_map(|(rows, sorted)| {
        let mut out: Vec<Row> = rows
            .into_iter()
            .enumerate()
            .map(|(i, (s, cpu, mem, seen, note))| {
                let status = [
                    "Running",
                    "Running",
                    "Running",
                    "Running",
                    "Running",
                    "Pending",
                    "Succeeded",
                    "",
                ][s];
                let seen = seen.map(|(secs, ms)| {
                    format!(
                        "2021-03-{:02}T{:02}:{:02}:{:02}.{ms:03}Z",
                        1 + secs % 28,
                        secs / 3600,
                        secs / 60 % 60,
                        secs % 60
                    )
                });
                vec![
                    format!("host-{i:04}"),
                    status.to_string(),
                    cpu.map_or(String::new(), |c| c.to_string()),
                    mem.map_or(String::new(), |m| format!("{m}Mi")),
                    seen.unwrap_or_default(),
                    note.map_or(String::new(), |n| {
                        format!("checked shard {} after {} retries", n % 97, n % 7)
                    }),
                ]
            })
            .collect();
        if sorted {
            // A column of dates in order: its span says so.
            let mut dates: Vec<String> = out
                .iter()
                .map(|r| r[4].clone())
                .filter(|d| !d.is_empty())
                .collect();
            dates.sort();
            let mut it = dates.into_iter();
            for r in out.iter_mut().filter(|r| !r[4].is_empty()) {
                r[4] = it.next().unwrap();
            }
        }
        out
    })
}

/// The value of a numeric cell: a plain number, or mebibytes.
fn value(cell: &str) -> f64 {
    cell.trim_end_matches("Mi").parse().unwrap()
}

/// The cells of column `c` in `rows`, blanks left out, and how many were
/// blank.
fn column<'r>(rows: &[&'r Row], c: usize) -> (Vec<&'r str>, usize) {
    let full: Vec<&str> = rows
        .iter()
        .map(|r| r[c].as_str())
        .filter(|v| !v.is_empty())
        .collect();
    let blank = rows.len() - full.len();
    (full, blank)
}

/// A trailing ` (M blank)` or `, M blank` of a section: the section
/// without it and M (0 when there is none).
fn blanks<'s>(s: &'s str, open: &str, close: &str) -> (&'s str, usize) {
    if let Some(head) = s.strip_suffix(close) {
        if let Some((head, n)) = head.rsplit_once(open) {
            if let Ok(n) = n.parse() {
                return (head, n);
            }
        }
    }
    (s, 0)
}

/// Checks one section of a marker against the rows it speaks for.
fn check(section: &str, rows: &[&Row], all_rows: usize) -> Result<(), TestCaseError> {
    let col = |k: &str| NAMES.iter().position(|n| *n == k);
    // `(+N more)`: statements a marker had no room for, counted.
    let more = section
        .strip_prefix("(+")
        .and_then(|s| s.strip_suffix(" more)"))
        .is_some_and(|n| n.parse::<usize>().is_ok_and(|n| n > 0));
    if more || section.starts_with("ranked by ") {
        return Ok(());
    }
    if let Some(n) = section.strip_suffix(" total rows") {
        prop_assert_eq!(n.parse::<usize>().unwrap(), all_rows);
        return Ok(());
    }
    if let Some(rest) = section.strip_prefix("all ") {
        for pair in rest.split(' ') {
            let (k, v) = pair.split_once('=').expect("k=v");
            let c = col(k).expect("a column");
            for r in rows {
                prop_assert_eq!(r[c].as_str(), v, "all {}={}", k, v);
            }
        }
        return Ok(());
    }
    if let Some((k, rest)) = section.split_once('=') {
        // A range of a numeric column, perhaps with its distribution and
        // its blanks.
        let c = col(k).expect("a column");
        prop_assert!(c == 2 || c == 3, "a range of a text column: {}", section);
        let (rest, blank) = blanks(rest, " (", " blank)");
        let (full, b) = column(rows, c);
        prop_assert_eq!(blank, b, "blanks of {}", section);
        let (range, spread) = match rest.split_once(" (") {
            Some((r, s)) => (r, s.strip_suffix(')')),
            None => (rest, None),
        };
        let (lo, hi) = range.split_once("..").unwrap_or((range, range));
        let least = full
            .iter()
            .copied()
            .min_by(|a, b| value(a).total_cmp(&value(b)))
            .unwrap();
        let most = full
            .iter()
            .copied()
            .max_by(|a, b| value(a).total_cmp(&value(b)))
            .unwrap();
        prop_assert_eq!(value(lo), value(least), "{}", section);
        prop_assert_eq!(value(hi), value(most), "{}", section);
        if let Some(spread) = spread {
            let mut held = 0;
            for item in spread.split(' ') {
                let (v, n) = item.rsplit_once('×').expect("v×n");
                let n: usize = n.parse().unwrap();
                prop_assert_eq!(full.iter().filter(|x| **x == v).count(), n, "{}", section);
                held += n;
            }
            prop_assert_eq!(held, full.len(), "{}", section);
        }
        return Ok(());
    }
    let (k, rest) = section.split_once(": ").expect("k: …");
    let c = col(k).expect("a column");
    if let Some((d, tail)) = rest.split_once(" distinct") {
        let (_, blank) = blanks(tail, ", ", " blank");
        let (full, b) = column(rows, c);
        prop_assert_eq!(blank, b, "blanks of {}", section);
        let mut seen = full.clone();
        seen.sort_unstable();
        seen.dedup();
        prop_assert_eq!(d.parse::<usize>().unwrap(), seen.len(), "{}", section);
        prop_assert!(
            tail.is_empty() || tail.starts_with(", ") && tail.ends_with(" blank"),
            "{}",
            section
        );
        return Ok(());
    }
    if rest.contains(" \u{2192} ") || rest.starts_with("earliest ") {
        let (rest, blank) = blanks(rest, ", ", " blank");
        let (full, b) = column(rows, c);
        prop_assert_eq!(blank, b, "blanks of {}", section);
        let (first, last) = (full[0], full[full.len() - 1]);
        let mut sorted = full.clone();
        sorted.sort_unstable();
        if let Some(order) = rest.strip_prefix(&format!("{first} \u{2192} {last} (sorted ")) {
            let ascending = full.windows(2).all(|w| w[0] <= w[1]);
            let descending = full.windows(2).all(|w| w[0] >= w[1]);
            match order {
                "ascending)" => prop_assert!(ascending, "{}", section),
                "descending)" => prop_assert!(descending, "{}", section),
                other => prop_assert!(false, "{}: {}", section, other),
            }
        } else {
            let want = format!(
                "earliest {}, latest {} (not sorted: first {first}, last {last})",
                sorted[0],
                sorted[sorted.len() - 1]
            );
            prop_assert_eq!(rest, want.as_str());
        }
        return Ok(());
    }
    // An enumeration: every value with its count, blanks and the rest
    // counted; together exactly the rows.
    let mut held = 0;
    let (full, b) = column(rows, c);
    for item in rest.split(' ') {
        let (v, n) = item.rsplit_once('×').expect("v×n");
        let n: usize = n.parse().unwrap();
        if v == "(blank)" {
            prop_assert_eq!(n, b, "{}", section);
        } else {
            prop_assert_eq!(full.iter().filter(|x| **x == v).count(), n, "{}", section);
        }
        held += n;
    }
    prop_assert_eq!(held, rows.len(), "{}", section);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_lean_table_claim_is_true_of_the_rows_it_hides(rows in table()) {
        let mut csv = NAMES.join(",");
        csv.push('\n');
        for r in &rows {
            csv.push_str(&r.join(","));
            csv.push('\n');
        }
        let out = compress_lean_as(&ContentType::Tabular, csv.as_bytes(), "").expect("a cut table");
        let t = parse_table(&out).expect("the view is a table");
        let mut at = 0;
        let mut markers = 0;
        for k in 1..t.rows.len() {
            let cells: Vec<&str> = t.rows.row(k).iter().collect();
            let Some(rest) = cells[0].strip_prefix("\u{2026} ") else {
                prop_assert_eq!(cells.join(","), rows[at].join(","));
                at += 1;
                continue;
            };
            let rest = rest.strip_suffix(" \u{2026}").expect("a marker ends with …");
            let (scope, n): (Vec<&Row>, usize) = match rest.strip_prefix("whole table (caveman): ") {
                Some(_) => (rows.iter().collect(), 0),
                None => {
                    let n: usize = rest.split(' ').next().unwrap().parse().unwrap();
                    prop_assert!(rest.starts_with(&format!("{n} rows elided (caveman)")), "{}", rest);
                    (rows[at..at + n].iter().collect(), n)
                }
            };
            markers += 1;
            if let Some((_, claims)) = rest.split_once("(caveman): ") {
                for section in claims.split("; ") {
                    check(section, &scope, rows.len())?;
                }
            }
            at += n;
        }
        prop_assert_eq!(at, rows.len(), "every row shown or inside a marker");
        prop_assert!(markers >= 2, "a table past the threshold is cut");
    }
}
