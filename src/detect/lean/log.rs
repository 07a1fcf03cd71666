//! Logs: timestamped or levelled lines, and record streams.

use std::sync::LazyLock;

use crate::rx::Regex;

use super::{share, Ctx, Hit, Sample};
use crate::content_type::ContentType;
use crate::detect::lang;

static TIMESTAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?-u)^[\[(<]?\s*(",
        r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?",
        r"|\d{4}/\d{2}/\d{2}[ T]\d{2}:\d{2}",
        r"|\d{2}/\d{2}/\d{4}[ T]\d{2}:\d{2}",
        r"|\d{2}-\d{2} \d{2}:\d{2}:\d{2}",
        r"|\d{2}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}",
        r"|\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}",
        r"|(Mon|Tue|Wed|Thu|Fri|Sat|Sun),? ",
        r"|(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}",
        r"|\d{8}[ T-]\d{2}:?\d{2}",
        r"|\d{10}(\.\d+)?\b",
        r"|\d{2}:\d{2}:\d{2}",
        r"|\d+\.\d{3,}\s",
        r"|(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL|SEVERE)\b",
        r"|[IWEF]\d{4} \d{2}:\d{2}",
        r"|[VDIWEF]/\w",
        r")"
    ))
    .expect("log timestamp pattern")
});

/// Log lines: most lines start with a timestamp (many formats) or a
/// level, or carry one as compat's rule reads it, or a log-shaped record
/// (syslog, Apache, W3C, Zeek, numbered records).
/// Its score: the share of stamped lines and of the continuation lines
/// (stack frames, wrapped messages) that sit between them.
pub(super) fn log<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    if s.non_blank < 3 {
        return None;
    }
    let mut stamped = 0;
    let mut cont = 0;
    for l in s.non_blank_lines() {
        if TIMESTAMP.is_match(l.trim_start().as_bytes()) || crate::detect::log_line(l) {
            stamped += 1;
        } else if stamped > 0 && continues(l) {
            cont += 1;
        }
    }
    let rule = "a log: most lines start with a timestamp or carry a level";
    // Continuation lines (stack traces) sit between stamped records.
    if stamped * 2 >= s.non_blank
        || (stamped >= 3 && stamped * 4 >= s.non_blank && starts_stamped(s))
    {
        return Some(Hit::new(
            ContentType::Log,
            rule,
            share(stamped + cont, s.non_blank),
        ));
    }
    (record_stream(s) && lang::identify(s.text).is_none()).then(|| {
        Hit::new(
            ContentType::Log,
            "a record stream: many lines of few shapes (access logs, strace, event records)",
            70,
        )
    })
}

/// A line that continues the record above it: an indented line, a
/// numbered stack frame (`#0 /app/x.php(12)`), `Caused by`, `[stacktrace]`,
/// a closing bracket.
fn continues(l: &str) -> bool {
    l.starts_with([' ', '\t', '}', ']', ')'])
        || l.starts_with("Caused by")
        || l.starts_with("[stacktrace]")
        || l.starts_with("Traceback")
        || (l.starts_with('#') && l[1..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Many lines of few shapes (strace, numbered event records, access
/// logs without a leading timestamp): the first four words of a line,
/// with every word that holds a digit or a quote as a wildcard, take few
/// distinct values, and each names something.
fn record_stream(s: &Sample<'_>) -> bool {
    if s.non_blank < 20 {
        return false;
    }
    let mut keys = rustc_hash::FxHashSet::default();
    let mut unnamed = 0;
    // Headings and list items (`## [1.2.0]`, `* Changes in 1.6`, `- Fixed
    // …`) make a document of few shapes (a changelog, NEWS), not records.
    let mut outline = 0;
    for l in s.non_blank_lines() {
        let t = l.trim_start();
        let marks = t.bytes().take_while(|&b| b == b'#' || b == b'*').count();
        if (marks > 0 && t.as_bytes().get(marks) == Some(&b' '))
            || t.starts_with("- ")
            || t.starts_with("+ ")
        {
            outline += 1;
        }
        let key = shape(l, 3);
        if !key.bytes().any(|b| b.is_ascii_alphabetic()) {
            unnamed += 1;
        }
        keys.insert(key);
    }
    unnamed * 5 <= s.non_blank && keys.len() * 5 <= s.non_blank && outline * 5 < s.non_blank
}

fn starts_stamped(s: &Sample<'_>) -> bool {
    s.non_blank_lines()
        .find(|l| !l.starts_with('#'))
        .is_some_and(|l| TIMESTAMP.is_match(l.as_bytes()))
}

/// The shape of a line's first `words` words: digit runs become `#`,
/// quoted text is emptied.
fn shape(l: &str, words: usize) -> String {
    let mut key = String::new();
    for w in l.split_whitespace().take(words) {
        let mut quote = None;
        let mut digits = false;
        for c in w.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => {
                    quote = None;
                    key.push(c);
                }
                (Some(_), _) => {}
                (None, '"' | '\'') => {
                    quote = Some(c);
                    key.push(c);
                }
                (None, c) if c.is_ascii_digit() => {
                    if !digits {
                        key.push('#');
                    }
                    digits = true;
                    continue;
                }
                (None, c) => key.push(c),
            }
            digits = false;
        }
        key.push(' ');
    }
    key
}
