//! `--budget N`: a view of at most N tokens (o200k, counted on the final
//! bytes). The compressors choose their units by the skeleton's priority
//! order under the budget (`Keep::fit`); what this module adds is the
//! engine's side: the view of a compressor that could not fit (its units
//! are the view's lines, in the same priority order), and the smallest
//! view, one marker that names the handle and the counts.

pub mod json;

use crate::compress::shared::lines::{Keep, Lines};
use crate::content_type::ContentType;
use crate::store::Handle;

static MARKER_COUNT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"^\W*(?:\u{2026}\s*)?(\d+)\s+(?:more\s+)?[\w ]{0,24}?(?:lines|rows|sections|matches|elements|members)\b[^\n]*elided")
        .expect("marker count")
});

/// How many units of the original a line of a view stands for: a
/// marker's count, or 1.
fn stands_for(line: &str) -> usize {
    if line.starts_with("\u{2026} caveman:") {
        // A note about the view, not a line of the original.
        return 0;
    }
    if !line.contains("(caveman)") {
        return 1;
    }
    MARKER_COUNT
        .captures(line)
        .and_then(|c| c[1].parse().ok())
        .unwrap_or(1)
}

/// Whether a line of a view counts error units a budget left out (the
/// skeleton's note, a table's first marker, the JSON fit's marker).
fn unfit_errors_noted(line: &str) -> bool {
    (line.contains("(caveman)") || line.starts_with("\u{2026} caveman:"))
        && (line.contains(" are among those elided") || line.contains(" with errors did not fit"))
}

/// Fits a text view into `budget` tokens by its lines: lines with error
/// words first, then query hits, then the first and last lines and
/// unindented lines (declarations, headings), then the rest, each in
/// document order; dropped runs become markers that count the lines of
/// the original they stand for. `None` when even the markers do not fit.
pub fn fit_lines(view: &[u8], budget: usize, query: &str) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(view).ok()?;
    // A compressor's closing summary (`… caveman: 5001 lines in all …`)
    // stands for no line of the original: when its view did not fit it
    // goes first, rather than become a marker that counts it as a line.
    // Its note of the errors it could not fit stays.
    let note =
        |l: &str| l.starts_with("\u{2026} caveman:") && !l.contains("are among those elided");
    let stripped: String;
    let text = if text.lines().any(note) {
        stripped = text.split_inclusive('\n').filter(|l| !note(l)).collect();
        &stripped
    } else {
        text
    };
    // The markers and the note of what did not fit are counted after the
    // lines are chosen: leave them room, more when they do not fit.
    [16, 48, 128, budget / 4]
        .into_iter()
        .filter(|&slack| slack < budget)
        .find_map(|slack| fit_lines_within(text, budget, budget - slack, query))
}

fn fit_lines_within(text: &str, budget: usize, room: usize, query: &str) -> Option<Vec<u8>> {
    let doc = Lines::split(text);
    let n = doc.len();
    let mut keep = Keep::new(n);
    // The compressor's own notes (`… caveman: 3 error lines are among
    // those elided …`) are structure, not error lines to count again.
    let note = |l: &str| l.starts_with("\u{2026} caveman:");
    for (i, l) in doc.iter().enumerate() {
        // A note (or marker) that counts errors the compressor could not
        // fit goes with the errors: it is what says they exist.
        if unfit_errors_noted(l) {
            keep.set(i, "note of errors elided");
        } else if !note(l) && crate::compress::shared::signal::is_error(l) {
            keep.set(i, "error word");
        }
    }
    keep.fill_query(query, 16, |i| doc.line(i).into());
    for (i, l) in doc.iter().enumerate() {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        if note(l) || i < 2 || i + 1 == n || !l.starts_with([' ', '\t']) {
            keep.set(i, "first lines, last line, unindented line (structure)");
        } else {
            keep.set(i, "rest");
        }
    }
    let unfit = keep.fit_text(
        Some(room),
        |i| doc.line(i),
        "\u{2026} 99999 lines elided (caveman) \u{2026}",
        "",
    );
    let (mut pieces, _, _) = keep.collapse(|run| {
        let count: usize = doc.range(run.clone()).map(stands_for).sum();
        if count == 0 {
            // Only notes: they stay (the view may then not fit).
            return None;
        }
        Some((
            format!("\u{2026} {count} lines elided (caveman) \u{2026}"),
            0,
        ))
    });
    if let Some(note) = unfit.note("lines") {
        pieces.marker(note);
    }
    let out = crate::compress::shared::lines::join_lines(&doc, &pieces);
    (crate::tokens::count(&out) <= budget).then_some(out)
}

/// The smallest view: one marker naming the handle and the counts. JSON
/// stays JSON (an array or object holding one marker element or member).
pub fn smallest(ct: &ContentType, body: &[u8], handle: &Handle, tokens: usize) -> Vec<u8> {
    let h = handle.as_str();
    if *ct == ContentType::Json {
        let t = crate::go::unicode::trim_space(body);
        let (units, open, close) =
            match crate::go::json::decode_first(t, crate::go::json::Options::GO) {
                Ok((v, _)) => match v.root().get() {
                    crate::go::json::Value::Array(a) => (a.len(), "[", "]"),
                    crate::go::json::Value::Object(m) => (m.len(), "", ""),
                    _ => (1, "[", "]"),
                },
                // NDJSON: one line per value.
                Err(_) => (Lines::split(&String::from_utf8_lossy(body)).len(), "", ""),
            };
        let what = if open.is_empty() && !t.starts_with(b"{") {
            "lines"
        } else if open.is_empty() {
            "members"
        } else {
            "elements"
        };
        return format!(
            "{open}{{\"__caveman_elided__\":{units},\"__caveman_invariants__\":\"{units} total {what}; {tokens} tokens; caveman-engine retrieve {h} gives them back\"}}{close}\n"
        )
        .into_bytes();
    }
    let lines = bytecount_lines(body);
    format!(
        "\u{2026} caveman: all {lines} lines elided ({ct}, {tokens} tokens); caveman-engine retrieve {h} gives them back \u{2026}\n"
    )
    .into_bytes()
}

fn bytecount_lines(b: &[u8]) -> usize {
    let n = memchr::memchr_iter(b'\n', b).count();
    if b.last().is_some_and(|&c| c != b'\n') {
        n + 1
    } else {
        n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitted_lines_keep_errors_and_count_what_went() {
        let mut text = String::new();
        for i in 0..400 {
            text.push_str(&format!("    line {i} of ordinary output here\n"));
            if i == 200 {
                text.push_str("    ERROR: disk failed on /dev/sda\n");
            }
        }
        let out = fit_lines(text.as_bytes(), 100, "").unwrap();
        let s = String::from_utf8(out.clone()).unwrap();
        assert!(crate::tokens::count(&out) <= 100, "{s}");
        assert!(s.contains("ERROR: disk failed"), "{s}");
        let counted: usize = s.lines().map(stands_for).sum();
        assert_eq!(counted, 401, "{s}");
    }

    #[test]
    fn a_compressors_notes_go_first_and_count_no_line() {
        let mut text = String::from("first line\n");
        text.push_str("\u{2026} 4998 lines elided (caveman) \u{2026}\n");
        text.push_str("2026-12-07 ERROR boom in the payment worker\n");
        text.push_str("last line\n");
        text.push_str("\u{2026} caveman: 5001 lines in all, from 2026-12-07T10:00:00 to 2026-12-07T10:41:40, 2 kinds; most frequent (lines matching, <*> = any text): 5000\u{d7} INFO ok <*> \u{2026}\n");
        let out = fit_lines(text.as_bytes(), 60, "").unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(s.contains("ERROR boom"), "{s}");
        assert!(!s.contains("caveman:"), "{s}");
        let counted: usize = s.lines().map(stands_for).sum();
        assert_eq!(counted, 5001, "{s}");
    }

    #[test]
    fn smallest_json_is_json() {
        let h = Handle::of(b"[1,2,3]");
        let v = smallest(&ContentType::Json, b"[1,2,3]", &h, 7);
        let parsed: serde_json::Value = serde_json::from_slice(&v).unwrap();
        assert!(parsed.is_array());
        let v = smallest(&ContentType::Json, b"{\"a\":1}", &h, 7);
        assert!(serde_json::from_slice::<serde_json::Value>(&v)
            .unwrap()
            .is_object());
    }
}
