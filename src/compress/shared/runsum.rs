//! What the dropped lines of a run share, for lean line markers (the
//! facts compat's markers state, widened): the level of each line, the
//! fields of logfmt (`k=v`) and JSON lines, the parts of access-log
//! records (client, method, path, status, bytes), and the time span from
//! the run's first to its last timestamp of one format. Stated through
//! [`super::stats::Stats`]: exact ranges, enumerations with counts, `all
//! k=v` only when every line holds it, secrets never stated.

use std::sync::LazyLock;

use regex::Regex;

use super::stats::{number, Scalar, Stats};

/// Fields tracked per run.
const MAX_FIELDS: usize = 32;
/// Fields read per line.
const MAX_LINE_FIELDS: usize = 24;

/// An access-log record (common and combined formats).
static ACCESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(\S+) \S+ \S+ \[[^\]]+\] "([A-Z]+) ([^ "?]+)[^"]*" (\d{3}) (\d+|-)"#)
        .expect("access log pattern")
});

/// `k=v` (logfmt) and `"k":v` (JSON) pairs.
static PAIR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[\s,\[{(])([A-Za-z_][A-Za-z0-9_.\-]{0,40})=("[^"]*"|'[^']*'|[^\s,\]})]+)|"([A-Za-z_][A-Za-z0-9_.\-]{0,40})"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false)"#,
    )
    .expect("pair pattern")
});

/// A level word among a line's first words.
fn level(line: &str) -> Option<&str> {
    line.split(|c: char| c.is_whitespace() || "[]():|".contains(c))
        .filter(|w| !w.is_empty())
        .take(6)
        .find(|w| {
            matches!(
                *w,
                "TRACE"
                    | "DEBUG"
                    | "INFO"
                    | "NOTICE"
                    | "WARN"
                    | "WARNING"
                    | "ERROR"
                    | "FATAL"
                    | "CRITICAL"
            )
        })
}

fn leading_zero(v: &str) -> bool {
    v.len() > 1 && v.starts_with('0') && !v.starts_with("0.")
}

fn scalar(v: &str) -> Scalar<'_> {
    match number(v) {
        // `+5` and `007` are names, not numbers.
        Some(x) if !(v.starts_with('+') || leading_zero(v)) => Scalar::Num(v, x),
        _ => Scalar::Str(v),
    }
}

fn unquote(v: &str) -> &str {
    if v.len() >= 2
        && ((v.starts_with('"') && v.ends_with('"')) || (v.starts_with('\'') && v.ends_with('\'')))
    {
        &v[1..v.len() - 1]
    } else {
        v
    }
}

/// Bytes past `room` a summary may take to say how many statements did
/// not fit (`; (+12 more)`).
const MORE_NOTE: usize = 16;

/// The facts every line of the run shares, at most `room` bytes (and a
/// count of what did not fit); empty
/// when there is nothing to say.
pub(crate) fn summary<'a>(lines: impl Iterator<Item = &'a str>, room: usize) -> String {
    let mut stats: Stats<'a> = Stats::new(MAX_FIELDS);
    let mut n = 0;
    for (u, line) in lines.enumerate() {
        stats.unit();
        n += 1;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(l) = level(line) {
            stats.add(u, "level", Scalar::Str(l));
        }
        if let Some(c) = ACCESS.captures(line) {
            let get = |i: usize| c.get(i).map_or("", |m| m.as_str());
            stats.add(u, "client", Scalar::Str(get(1)));
            stats.add(u, "method", Scalar::Str(get(2)));
            stats.add(u, "path", Scalar::Str(get(3)));
            stats.add(u, "status", scalar(get(4)));
            if get(5) != "-" {
                stats.add(u, "bytes", scalar(get(5)));
            }
            continue;
        }
        for c in PAIR.captures_iter(line).take(MAX_LINE_FIELDS) {
            let (k, v) = match (c.get(1), c.get(2), c.get(3), c.get(4)) {
                (Some(k), Some(v), _, _) | (_, _, Some(k), Some(v)) => (k.as_str(), v.as_str()),
                _ => continue,
            };
            let v = unquote(v);
            match v {
                "true" => stats.add(u, k, Scalar::Bool(true)),
                "false" => stats.add(u, k, Scalar::Bool(false)),
                _ => stats.add(u, k, scalar(v)),
            }
        }
    }
    if n < 2 || stats.fields.is_empty() {
        return String::new();
    }
    // The total (`N total lines; `) is the marker's own count: the facts
    // get `room` bytes after it, and a list cut for room ends with how
    // many statements it left out (`; (+3 more)`).
    let head = format!("{n} total lines; ").len();
    let rendered = stats.render("lines", false, room + head);
    match rendered.split_once("; ") {
        Some((_, facts)) if facts.len() <= room + MORE_NOTE => facts.to_string(),
        Some((_, facts)) => {
            let mut end = room;
            while !facts.is_char_boundary(end) {
                end -= 1;
            }
            let mut cut = facts[..end].to_string();
            if let Some(k) = cut.rfind("; ") {
                cut.truncate(k);
            }
            cut
        }
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_levels_fields_and_access_log_parts() {
        let lines = [
            "2024-03-05 INFO req path=/a status=200 took=3ms",
            "2024-03-05 INFO req path=/b status=200 took=12ms",
            "2024-03-05 INFO req path=/a status=200 took=7ms",
            "2024-03-05 INFO req path=/a status=200 took=9ms",
            "2024-03-05 INFO req path=/b status=200 took=4ms",
            "2024-03-05 INFO req path=/a status=200 took=5ms",
        ];
        let s = summary(lines.iter().copied(), 200);
        assert!(s.contains("all level=INFO status=200"), "{s}");
        assert!(s.contains("path: /a×4 /b×2"), "{s}");
        let access = [
            r#"10.0.0.1 - - [05/Mar/2024:10:00:01 +0000] "GET /health HTTP/1.1" 200 2 "-" "x""#,
            r#"10.0.0.2 - - [05/Mar/2024:10:00:02 +0000] "GET /api?id=1 HTTP/1.1" 200 512 "-" "x""#,
            r#"10.0.0.1 - - [05/Mar/2024:10:00:03 +0000] "GET /health HTTP/1.1" 200 2 "-" "x""#,
            r#"10.0.0.2 - - [05/Mar/2024:10:00:04 +0000] "GET /api?id=2 HTTP/1.1" 200 300 "-" "x""#,
        ];
        let s = summary(access.iter().copied(), 200);
        assert!(s.contains("all method=GET status=200"), "{s}");
        assert!(s.contains("bytes=2..512"), "{s}");
        assert!(s.contains("/health×2"), "{s}");
    }

    #[test]
    fn never_states_secrets_or_false_claims() {
        let lines = [
            "level=info dsn=postgres://admin:hunterhunter@db:5432/app password=x1",
            "level=info dsn=postgres://admin:hunterhunter@db:5432/app password=x2",
        ];
        let s = summary(lines.iter().copied(), 200);
        assert!(!s.contains("hunterhunter") && !s.contains("x1"), "{s}");
        let lines = ["a=1", "b=2"];
        let s = summary(lines.iter().copied(), 200);
        assert!(!s.contains("all a=1"), "{s}");
    }
}
