//! The log compressor (content type `log`, method `log`; spec/log.md): the
//! first 2 lines, the last 2 real lines, every error/warning/stack-frame
//! line, query hits and one line per kind are kept; every other run of
//! lines becomes one marker, with a summary of what held across it when
//! the lines read as logfmt or one JSON object per line.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::shared::invariants::{self, Unit};
use super::shared::lines::{join_lines, Keep, Lines};
use super::{Compressed, Decline, Input};
use crate::ascii_first::AsciiFirst;
use crate::go::json::{self as gojson, Value};
use crate::go::regexp;

/// Inputs with fewer lines are left alone.
const MIN_LINES: usize = 4;
/// Leading lines always kept.
const HEAD: usize = 2;
/// Trailing real lines always kept (markers there do not count).
const TAIL: usize = 2;
/// At most this many lines are added by the query fill.
const QUERY_FILL: usize = 16;
/// The contract line is added when the markers dropped this many bytes.
const CONTRACT_THRESHOLD: usize = 4096;
/// At most this many logfmt pairs or JSON members feed a line's summary.
const MAX_FIELDS: usize = 24;

/// What earlier passes (ours or another compressor's) wrote.
const MARKER_TEXT: &str = "lines elided (caveman)";
const NOTE_PREFIX: &str = "\u{2026} caveman: elided ";
const CONTRACT: &str = "\u{2026} caveman: elided lines resemble shown lines and match the stated invariants \u{2014} answer from this view; if you truly cannot, one broad caveman_retrieve \u{2026}";

/// Lines that are always kept (log.md §3 step 3).
static SIGNAL: LazyLock<Regex> = LazyLock::new(|| {
    regexp::compile(
        r#"(?i)(\b(ERROR|FATAL|PANIC|EXCEPTION|TRACEBACK|FAIL|FAILED|FAILURE|WARN|WARNING)\b|^\s+at\s|^\s+File "|\.go:\d+|^\s+--->|caused by)"#,
    )
});

/// An strace line that opens or executes a path (with strace's optional
/// pid and time prefixes): which files a program read, and the fallback
/// open after a failed one.
static STRACE_OPEN: AsciiFirst = AsciiFirst::new(
    r#"^(?:\[pid +\d+\] |\d+ +)?(?:\d{2}:\d{2}:\d{2}(?:\.\d+)? |\d+\.\d+ )?(?:open|openat|openat2|creat|execve|execveat)\((?:AT_FDCWD|-?\d+)?,? ?"[^"]*""#,
);

/// Lean keeps every distinct strace open/exec line (lean::Rules::extra).
fn is_strace_open(line: &str) -> bool {
    line.contains('"') && STRACE_OPEN.is_match(line)
}

/// An strace call on a path that found nothing there (`ENOENT`,
/// `ENOTDIR`): a program trying the places it searches (its libraries,
/// its locale), not the failure of a run. `EACCES` and the rest are not.
static STRACE_MISS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^(?:\[pid +\d+\] |\d+ +)?(?:\d{2}:\d{2}:\d{2}(?:\.\d+)? |\d+\.\d+ )?(?:open|openat|openat2|stat|lstat|newfstatat|statx|access|faccessat2?|readlink|readlinkat|execve|execveat)\((?:AT_FDCWD, |-?\d+, )?"([^"]*)".*\) += -1 (ENOENT|ENOTDIR) "#,
    )
    .expect("strace miss pattern")
});

/// An strace lookup that found nothing (its errno and its path), or an
/// open or exec that found its path (`opened`) (lean::Rules::probe).
fn strace_lookup(line: &str) -> Option<(&str, &str)> {
    if line.contains("= -1 ENO") {
        let c = STRACE_MISS.captures(line)?;
        return Some((c.get(2)?.as_str(), c.get(1)?.as_str()));
    }
    let (_, result) = line.rsplit_once(") = ")?;
    let fd = result.split_whitespace().next()?;
    if !fd.bytes().all(|b| b.is_ascii_digit()) || !is_strace_open(line) {
        return None;
    }
    let path = line.split('"').nth(1)?;
    Some(("opened", path))
}

fn is_marker(line: &str) -> bool {
    line.starts_with(NOTE_PREFIX) || line.contains(MARKER_TEXT)
}

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    if input.profile.is_lean() {
        return lean(text, input.query, input.budget);
    }
    compress(text, input.query)
}

/// The lean log view (shared::lean): errors and warnings verbatim, one
/// exemplar per frequent template, counted runs, totals.
fn lean(text: &str, query: &str, budget: Option<usize>) -> Result<Compressed, Decline> {
    use super::shared::lean;
    if let Some(Ok(view)) = super::gitlog::lean(text, query) {
        return Ok(view);
    }
    if let Some(view) = super::blame::lean(text) {
        return Ok(view);
    }
    if let Some(view) = super::junit::lean(text, query) {
        return Ok(view);
    }
    let doc = Lines::split(text);
    if let Some(view) =
        super::terminal::terraform::view(doc.body(), doc.trailing_lf, doc.cr, budget)
    {
        return Ok(view);
    }
    let rules = lean::Rules {
        tail: 2,
        extra: Some(is_strace_open),
        unit: "lines",
        extra_by_kind: true,
        probe: Some(strace_lookup),
    };
    let fits = lean::compat_fits(text.as_bytes(), query);
    let (view, trace) = lean::cut_within(&doc, &rules, query, budget, fits)
        .ok_or(Decline("fewer than 8 non-blank lines"))?;
    Ok(Compressed::traced(view, trace))
}

/// The log view of `text` (log.md §3). Every line kept returns the input
/// unchanged: the engine then passes it through.
pub(crate) fn compress(text: &str, query: &str) -> Result<Compressed, Decline> {
    let mut clock = crate::timings::Clock::new("log");
    let doc = Lines::split(text);
    let n = doc.len();
    clock.mark("lines");
    if n < MIN_LINES {
        return Err(Decline("fewer than 4 lines"));
    }
    let mut keep = Keep::new(n);
    for i in 0..HEAD {
        keep.set(i, "head");
    }
    // The signal lines' numbers (none held for the others).
    let signals = doc.matching(|l| is_marker(l) || SIGNAL.is_match(l));
    for &i in signals.iter().filter(|&&i| i >= HEAD) {
        keep.set(i, "error, warning or stack frame");
    }
    clock.mark("signals");
    let mut budget = TAIL;
    let mut i = n - 1;
    while budget > 0 && i >= HEAD {
        keep.set(i, "tail");
        if !is_marker(doc.line(i)) {
            budget -= 1;
        }
        i -= 1;
    }
    keep.fill_query(query, QUERY_FILL, |i| doc.line(i).into());
    clock.mark("query");
    keep.guard(|i| doc.line(i));
    clock.mark("kind guard");
    let (mut pieces, dropped_bytes, trace) = keep.collapse(|run| marker_for(&doc, run));
    clock.mark("markers");
    if dropped_bytes >= CONTRACT_THRESHOLD && !text.contains(NOTE_PREFIX) {
        pieces.marker(CONTRACT.to_string());
    }
    let out = join_lines(&doc, &pieces);
    clock.mark("join");
    Ok(Compressed::traced(out, trace))
}

/// The marker of a run of dropped lines and the bytes it replaces, or
/// `None` when the lines stay (log.md §3 step 7: a run of 1–2 lines is
/// collapsed only when its summary pays for the marker).
fn marker_for(doc: &Lines<'_>, run: Range<usize>) -> Option<(String, usize)> {
    let r = run.len();
    let run_bytes = doc.span(run.clone()).len() + 1;
    let summary = summary_of(r, doc.range(run), run_bytes);
    let marker = if summary.is_empty() {
        format!("\u{2026} {r} lines elided (caveman) \u{2026}")
    } else {
        format!("\u{2026} {r} lines elided (caveman): {summary} \u{2026}")
    };
    let worth = r >= 3 || (!summary.is_empty() && 2 * marker.len() <= run_bytes);
    worth.then_some((marker, run_bytes))
}

/// The fields of every line of a run, in one arena: a unit is a range of
/// `pairs`, a pair two ranges of `text`.
#[derive(Default)]
struct Fields {
    text: String,
    pairs: Vec<(Range<usize>, Range<usize>)>,
    units: Vec<Range<usize>>,
}

impl Fields {
    /// Writes unit `u`'s pairs, as the summary reads them.
    fn filler<'a>(&'a self) -> impl FnMut(usize, &mut Unit<'a>) + 'a {
        move |u, unit: &mut Unit<'a>| {
            for (name, value) in &self.pairs[self.units[u].clone()] {
                unit.push((&self.text[name.clone()], &self.text[value.clone()]));
            }
        }
    }

    fn push(&mut self, name: &str, value: &str) {
        let a = self.text.len();
        self.text.push_str(name);
        let b = self.text.len();
        self.text.push_str(value);
        self.pairs.push((a..b, b..self.text.len()));
    }
}

/// The invariant summary of a run of lines (log.md §4, invariants.md).
fn summary_of<'a>(n: usize, lines: impl Iterator<Item = &'a str>, run_bytes: usize) -> String {
    if n < 2 {
        return String::new();
    }
    let mut f = Fields::default();
    for line in lines {
        let start = f.pairs.len();
        line_fields(line, &mut f);
        if f.pairs.len() == start {
            // A unit without fields: no summary for the run.
            return String::new();
        }
        f.units.push(start..f.pairs.len());
    }
    invariants::summary_of(n, f.filler(), run_bytes as i64)
}

/// A line's fields: its JSON object's members, or else its logfmt pairs.
fn line_fields(line: &str, f: &mut Fields) {
    let t = line.trim();
    if t.len() > 1 && t.starts_with('{') && t.ends_with('}') && json_fields(t, f) {
        return;
    }
    logfmt_fields(line, f);
}

/// The JSON arm (log.md §4 step 1): members in key order, at most 24
/// fields, strings decoded, numbers as written, booleans as words; nulls,
/// containers and empty strings skipped. False when the line is not one
/// JSON object or gave no field.
fn json_fields(t: &str, f: &mut Fields) -> bool {
    let Ok(tape) = gojson::decode_go(t.as_bytes()) else {
        return false;
    };
    let Value::Object(members) = tape.root().get() else {
        return false;
    };
    let mut n = 0;
    for (k, v) in members {
        if n >= MAX_FIELDS {
            break;
        }
        let value: &str = match v.get() {
            Value::String(s) | Value::Number(s) => s,
            Value::Bool(true) => "true",
            Value::Bool(false) => "false",
            _ => continue,
        };
        if value.is_empty() {
            continue;
        }
        f.push(k, value);
        n += 1;
    }
    n > 0
}

/// The logfmt arm (log.md §4 step 2): Go's `FindAllStringSubmatch(line,
/// 24)` of
/// `(?:^|[\s,\[{(])([A-Za-z_][A-Za-z0-9_.\-]*)=("[^"]*"|'[^']*'|[^\s,\]})]+)`
/// as a scan: leftmost start first, each match consuming its separator,
/// the next search starting where the match ended.
fn logfmt_fields(line: &str, f: &mut Fields) {
    let b = line.as_bytes();
    let mut from = 0;
    let mut found = 0;
    while found < MAX_FIELDS {
        let Some((end, name, value)) = (from..b.len()).find_map(|p| pair_at(b, p)) else {
            break;
        };
        found += 1;
        from = end;
        let v = &line[value];
        let v = if v.len() >= 2
            && ((v.starts_with('"') && v.ends_with('"'))
                || (v.starts_with('\'') && v.ends_with('\'')))
        {
            &v[1..v.len() - 1]
        } else {
            v
        };
        if !v.is_empty() {
            f.push(&line[name], v);
        }
    }
}

/// RE2's `\s`: `[\t\n\f\r ]`.
fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

/// A logfmt match starting at `p`: its end, the name and the value.
fn pair_at(b: &[u8], p: usize) -> Option<(usize, Range<usize>, Range<usize>)> {
    // `^` (only at 0) is tried before a separator character.
    if p == 0 {
        if let Some(m) = name_value(b, 0) {
            return Some(m);
        }
    }
    let c = b[p];
    if is_space(c) || matches!(c, b',' | b'[' | b'{' | b'(') {
        return name_value(b, p + 1);
    }
    None
}

/// `([A-Za-z_][A-Za-z0-9_.\-]*)=(value)` at `s`.
fn name_value(b: &[u8], s: usize) -> Option<(usize, Range<usize>, Range<usize>)> {
    let first = *b.get(s)?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let mut e = s + 1;
    while e < b.len() && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'_' | b'.' | b'-')) {
        e += 1;
    }
    // The name cannot end earlier: a shorter one would need `=` where a
    // name character is.
    if b.get(e) != Some(&b'=') {
        return None;
    }
    let v = e + 1;
    let quoted = match b.get(v) {
        Some(&q @ (b'"' | b'\'')) => memchr::memchr(q, &b[v + 1..]).map(|i| v + 1 + i + 1),
        _ => None,
    };
    let end = match quoted {
        Some(end) => end,
        None => {
            let mut end = v;
            while end < b.len() && !is_space(b[end]) && !matches!(b[end], b',' | b']' | b'}' | b')')
            {
                end += 1;
            }
            if end == v {
                return None;
            }
            end
        }
    };
    Some((end, s..e, v..end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path lookup names its outcome and its path: `ENOENT`/`ENOTDIR`
    /// when it found nothing, `opened` when it did; a denied one or
    /// another call is none.
    #[test]
    fn an_strace_lookup_names_its_outcome_and_path() {
        assert_eq!(
            strace_lookup(
                r#"openat(AT_FDCWD, "/usr/lib/locale/C.UTF-8/LC_TIME", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)"#
            ),
            Some(("ENOENT", "/usr/lib/locale/C.UTF-8/LC_TIME"))
        );
        assert_eq!(
            strace_lookup(
                r#"[pid  4242] 10:00:01.123 stat("/etc/app.d", 0x7ffc) = -1 ENOTDIR (Not a directory)"#
            ),
            Some(("ENOTDIR", "/etc/app.d"))
        );
        assert_eq!(
            strace_lookup(r#"openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3"#),
            Some(("opened", "/etc/ld.so.cache"))
        );
        for l in [
            r#"openat(AT_FDCWD, "/etc/shadow", O_RDONLY) = -1 EACCES (Permission denied)"#,
            r#"read(3, "\177ELF"..., 832) = 832"#,
            r#"connect(3, {sa_family=AF_UNIX, sun_path="/run/x"}, 110) = -1 ENOENT (No such file or directory)"#,
        ] {
            assert_eq!(strace_lookup(l), None, "{l}");
        }
    }

    fn pairs(line: &str) -> Vec<(String, String)> {
        let mut f = Fields::default();
        line_fields(line, &mut f);
        f.pairs
            .iter()
            .map(|(n, v)| (f.text[n.clone()].to_string(), f.text[v.clone()].to_string()))
            .collect()
    }

    #[test]
    fn logfmt_as_go_finds_it() {
        let line = r#"msg="say \"hi\"" q=a=b arr=[1,2] 2fa=on x:y=1 [level=info] u="oops x=1 k='v w' e="" r=(z)"#;
        let got = pairs(line);
        let want = [
            ("msg", "say \\"),
            ("q", "a=b"),
            ("arr", "[1"),
            ("level", "info"),
            ("u", "oops x=1 k='v w' e="),
            ("r", "(z"),
        ];
        assert_eq!(
            got,
            want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec()
        );
        assert_eq!(
            pairs(r#"msg="oops x=1 k=v"#),
            [("msg", "\"oops"), ("x", "1"), ("k", "v")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert_eq!(pairs("a=1,b=2").len(), 2);
        assert!(pairs("path/a=b").is_empty());
        assert_eq!(pairs(" a=1")[0].0, "a");
    }

    #[test]
    fn json_lines() {
        let got = pairs(r#"{"level": "info", "event": "delivered", "id": "evt-012", "n": null}}"#);
        assert_eq!(
            got.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
            ["event", "id", "level"]
        );
        // Nothing usable in the object: the logfmt arm reads the line.
        assert!(pairs(r#"{"a": null}"#).is_empty());
        assert!(pairs(r#"{"a":{},"b":""} "#).is_empty());
        assert_eq!(
            pairs(r#"{"a":null,"b":{"(c=1":0}}"#),
            [("c".to_string(), "1\":0".to_string())]
        );
        // Not one object: logfmt.
        assert_eq!(pairs(r#"{"a":1} x=1"#).len(), 1);
    }

    #[test]
    fn example_a() {
        let mut s = String::from("[INFO] starting\n[INFO] step 0 ok\n");
        for k in 1..=49 {
            s.push_str(&format!("[INFO] step {k} ok\n"));
        }
        s.push_str("[ERROR] kaboom: undefined symbol\n  at frame (file.go:10)\n[INFO] done\n");
        let out = String::from_utf8(compress(&s, "").unwrap().bytes).unwrap();
        assert_eq!(
            out,
            "[INFO] starting\n[INFO] step 0 ok\n… 49 lines elided (caveman) …\n[ERROR] kaboom: undefined symbol\n  at frame (file.go:10)\n[INFO] done\n"
        );
        assert_eq!(compress(&out, "").unwrap().bytes, out.as_bytes());
    }
}
