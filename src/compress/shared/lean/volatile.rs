//! Lines that differ only in their volatile fields (issue 40 §3, rarity
//! is signal): a timestamp, a process id, a request or trace id. Such a
//! line repeated is one event seen again: the lean cut keeps its first
//! and last copies, and the marker between them says how many copies it
//! stands for and the time span they cover (first → last, in order of
//! appearance), rather than the hundredth copy outranking a rare line.

use std::borrow::Cow;
use std::ops::Range;

use crate::ascii_first::AsciiFirst;

use super::super::lines::Lines;
use super::TIMESTAMP;

/// Process ids (`sshd[1234]:`, `pid=1234`, `[pid 1234]`), request, trace
/// and span ids (`request_id=…`, `req-…`), UUIDs, long hex runs, and a
/// time field's epoch seconds (`"ts":1761019822.31`, `time=1761019822`).
static VOLATILE: AsciiFirst = AsciiFirst::new(
    r#"(?i)(?:\b(?:ts|time|timestamp)"?\s*[=:]\s*"?\d{9,13}(?:\.\d+)?\b|\b(?:pid|tid|ppid|thread[-_]?id|process[-_]?id)\b\s*[=:]?\s*\d+|\b[a-z][\w.-]*\[\d+\]|\b(?:req(?:uest)?|trace|span|correlation|x-request)[-_]?id\b"?\s*[=:]\s*"?[\w.:-]+|\breq-[\w-]+|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b[0-9a-f]{12,}\b)"#,
);

/// The line with its timestamps and volatile ids masked: two lines with
/// the same key differ in nothing else.
fn key(line: &str) -> Cow<'_, str> {
    let line = line.trim_end();
    let masked = TIMESTAMP.replace_all(line, "\u{0}");
    // A long run of digits alone is a number (a count, a size), not an id.
    let id = |m: &str, out: &mut String| {
        if m.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(m);
        } else {
            out.push('\u{0}');
        }
    };
    let owned = match VOLATILE.replace_all_with(&masked, id) {
        Cow::Owned(s) => Some(s),
        Cow::Borrowed(_) => None,
    };
    owned.map_or(masked, Cow::Owned)
}

/// Whether lines `a` and `b` differ only in their timestamps and ids.
pub(crate) fn same_event(doc: &Lines<'_>, a: usize, b: usize) -> bool {
    key(doc.line(a)) == key(doc.line(b))
}

/// The marker of a dropped run whose every line is a copy of the kept
/// line right above it, but for its volatile fields: `… 1498 lines
/// elided (caveman): the line above again ×1498 (only timestamps and
/// ids differ), 2024-03-05T10:00:01Z → 2024-03-05T10:24:58Z …`. `None`
/// when some line of the run is another line (or blank).
pub(crate) fn repeat_marker(doc: &Lines<'_>, run: Range<usize>, unit: &str) -> Option<String> {
    let above = doc.line(run.start.checked_sub(1)?);
    if above.trim().is_empty() {
        return None;
    }
    let want = key(above);
    // The cheap test first: most runs are other lines.
    let first = doc.line(run.start);
    if first.len().abs_diff(above.len()) > 64 || key(first) != want {
        return None;
    }
    if !doc.range(run.clone()).all(|l| key(l) == want) {
        return None;
    }
    let count = run.len();
    let same = if doc
        .range(run.clone())
        .all(|l| l.trim_end() == above.trim_end())
    {
        "identical"
    } else {
        "only timestamps and ids differ"
    };
    let ts = |l: &'_ str| TIMESTAMP.find(l).map(|m| m.as_str().to_string());
    let span = match (ts(first), ts(doc.line(run.end - 1))) {
        (Some(a), Some(b)) if count > 1 => format!(", {a} \u{2192} {b}"),
        (Some(a), _) => format!(", at {a}"),
        _ => String::new(),
    };
    Some(format!(
        "\u{2026} {count} {unit} elided (caveman): the line above again \u{d7}{count} ({same}){span} \u{2026}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_compiles_in_both_forms() {
        VOLATILE.force();
    }

    #[test]
    fn the_same_event_differs_in_times_and_ids_only() {
        let doc = Lines::split(
            "Jun  9 09:09:03 combo acpid[509]: starting up\nJun 10 21:09:03 combo acpid[809]: starting up\nJun 10 21:09:04 combo acpid[809]: stopping\n",
        );
        assert!(same_event(&doc, 0, 1));
        assert!(!same_event(&doc, 0, 2));
    }

    #[test]
    fn keys_mask_times_and_ids_only() {
        let a = "2024-03-05T10:00:01.120Z WARN [pool] sshd[4242]: slow query request_id=ab12-x9 took long";
        let b = "2024-03-05T10:07:44.981Z WARN [pool] sshd[977]: slow query request_id=ffe0-q1 took long";
        assert_eq!(key(a), key(b));
        // A number that is not an id is a fact: another line.
        let c = "2024-03-05T10:00:01Z WARN disk 91% full";
        let d = "2024-03-05T10:00:02Z WARN disk 95% full";
        assert_ne!(key(c), key(d));
        assert_eq!(
            key("Mar  5 10:00:01 web1 cron[123]: job done"),
            key("Mar  5 10:00:09 web1 cron[77]: job done")
        );
        // A time field's epoch seconds are a timestamp.
        assert_eq!(
            key(r#"{"level":"info","ts":1761019822.3152757,"msg":"adapted config"}"#),
            key(r#"{"level":"info","ts":1761019847.6426964,"msg":"adapted config"}"#)
        );
        assert_ne!(
            key(r#"{"ts":1761019822.31,"try_again":1761106222.3}"#),
            key(r#"{"ts":1761019822.31,"try_again":1761106247.6}"#)
        );
        assert_ne!(
            key("sent 123456789012 bytes"),
            key("sent 123456789013 bytes")
        );
        assert_eq!(
            key("2024-03-05 10:00:01 trace 0af7651916cd43dd8448eb211c80319c ok"),
            key("2024-03-05 10:00:02 trace b7ad6b7169203331b7ad6b7169203331 ok")
        );
    }

    #[test]
    fn a_run_of_copies_says_how_many_and_when() {
        let mut text = String::from("start\n");
        for s in 0..10 {
            text.push_str(&format!(
                "2024-03-05T10:00:{s:02}Z WARN cache miss pid=1{s}\n"
            ));
        }
        text.push_str("end\n");
        let doc = Lines::split(&text);
        let m = repeat_marker(&doc, 2..10, "lines").unwrap();
        assert_eq!(
            m,
            "\u{2026} 8 lines elided (caveman): the line above again \u{d7}8 (only timestamps and ids differ), 2024-03-05T10:00:01Z \u{2192} 2024-03-05T10:00:08Z \u{2026}"
        );
        // A run holding another line is not a repeat.
        assert!(repeat_marker(&doc, 2..12, "lines").is_none());
        assert!(repeat_marker(&doc, 0..1, "lines").is_none());
    }
}
