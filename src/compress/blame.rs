//! The lean view of `git blame` / `git annotate` output: source code with
//! a commit, an author and a date on every line. A log's rules would fold
//! its lines by template and drop most of the code (issue 39 rule 3: when
//! unsure, never drop unique lines by position), so every source line
//! stays here; what goes is the repetition: the header of consecutive
//! lines of one commit (hash, author, date) is written once over them,
//! and a path every line repeats is written once at the top. Each code
//! line keeps its line number (`12) code`), so the view is the blame with
//! nothing elided, only regrouped.

use std::sync::LazyLock;

use regex::Regex;

use super::shared::lines::{Lines, Trace};
use super::Compressed;

/// A blame line: hash (`^` for a boundary commit), an optional path
/// column, then `(author date zone line) code`.
static BLAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(\^?[0-9a-f]{7,40})\s+(?:(\S+)\s+)?\((.*?)\s+(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: [+-]\d{4})?)\s+(\d+)\)(.*)$",
    )
    .expect("blame line")
});

/// Fewer blame lines are left to the other rules.
const MIN_LINES: usize = 8;

/// One line of the blame, read.
struct Row<'a> {
    hash: &'a str,
    /// The path column, when the line has one.
    path: Option<&'a str>,
    /// The author (with a path when the tool wrote it inside the
    /// parentheses).
    who: &'a str,
    date: &'a str,
    number: &'a str,
    code: &'a str,
}

fn row(line: &str) -> Option<Row<'_>> {
    let c = BLAME.captures(line.trim_end_matches('\r'))?;
    let get = |i: usize| c.get(i).map_or("", |m| m.as_str());
    Some(Row {
        hash: get(1),
        path: c.get(2).map(|m| m.as_str()),
        who: get(3),
        date: get(4),
        number: get(5),
        code: get(6),
    })
}

/// The first word of `who` when it is a path that every row starts with
/// (`(src/cart/totals.py Carol White …`): written once.
fn shared_path<'a>(rows: &[Row<'a>]) -> Option<&'a str> {
    let first = rows.first()?;
    if let Some(p) = first.path {
        return rows.iter().all(|r| r.path == Some(p)).then_some(p);
    }
    let (p, _) = first.who.split_once(char::is_whitespace)?;
    let pathlike = p.contains('/') || p.contains('.');
    (pathlike
        && rows.iter().all(|r| {
            r.who
                .split_once(char::is_whitespace)
                .is_some_and(|(q, _)| q == p)
        }))
    .then_some(p)
}

/// The view, or `None` when `text` is not blame output (every non-blank
/// line a blame line, at least [`MIN_LINES`] of them).
pub(super) fn lean(text: &str) -> Option<Compressed> {
    // Every log reaches here first: a first line that does not start
    // with a commit hash costs no pattern and no line index.
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    let hex = first
        .trim_start_matches('^')
        .bytes()
        .take_while(u8::is_ascii_hexdigit)
        .count();
    if hex < 7 {
        return None;
    }
    let doc = Lines::split(text);
    let mut rows: Vec<Row<'_>> = Vec::new();
    for l in doc.iter() {
        if l.trim().is_empty() {
            continue;
        }
        rows.push(row(l)?);
    }
    if rows.len() < MIN_LINES {
        return None;
    }
    let path = shared_path(&rows);
    let who = |r: &Row<'_>| -> String {
        let w = match (path, r.path) {
            (Some(_), Some(_)) | (None, _) => r.who,
            (Some(p), None) => r.who[p.len()..].trim_start(),
        };
        w.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let width = rows.iter().map(|r| r.number.len()).max().unwrap_or(1);
    let mut out = String::with_capacity(text.len() / 2);
    out.push_str(&format!(
        "\u{2026} caveman: blame of {} lines{}, each commit's hash, author and date once over its consecutive lines \u{2026}\n",
        rows.len(),
        path.map_or(String::new(), |p| format!(" of {p}")),
    ));
    let mut last: Option<(&str, Option<&str>, String, &str)> = None;
    for r in &rows {
        // A path column that varies stays on each header.
        let own = r.path.filter(|_| path.is_none());
        let head = (r.hash, own, who(r), r.date);
        if last.as_ref() != Some(&head) {
            let (h, p, w, d) = &head;
            match p {
                Some(p) => out.push_str(&format!("{h} {p} ({w} {d})\n")),
                None => out.push_str(&format!("{h} ({w} {d})\n")),
            }
            last = Some(head);
        }
        out.push_str(&format!("{:>width$}){}\n", r.number, r.code));
    }
    if !doc.trailing_lf {
        out.pop();
    }
    let mut trace = Trace::default();
    trace.add(
        "every source line (blame headers once per commit run)",
        rows.len(),
    );
    trace.regrouped = true;
    Some(Compressed::traced(out.into_bytes(), trace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_default_format_and_a_path_column() {
        let r = row("^a1b2c3d (Carol White 2026-04-16 10:00:00 +0000 12)     x = 1").unwrap();
        assert_eq!(
            (r.hash, r.who, r.number, r.code),
            ("^a1b2c3d", "Carol White", "12", "     x = 1")
        );
        let r = row("a1b2c3d4 src/a.py (Bob 2026-04-16 10:00:00 +0000  3) pass").unwrap();
        assert_eq!((r.path, r.who, r.number), (Some("src/a.py"), "Bob", "3"));
        assert!(row("2026-04-16 10:00:00 INFO started").is_none());
    }
}
