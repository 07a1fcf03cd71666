//! The lean JSON view (`--profile lean`): members in input order, strings
//! escaped only where JSON requires, and every array of more than
//! [`THRESHOLD`] elements cut to a few representatives — the first two and
//! the last, every element with an error word, the elements that hold a
//! fact the summary cannot state, query hits, one of each key set — with
//! each dropped run replaced by `{"__caveman_elided__":N}` and the first
//! such marker of an array stating what held for *all* its elements
//! (total, ranges, every value of a few-valued field, the fields; see
//! `shared::stats`). An array with markers is written one element per
//! line. Maps with many record-like members are cut the same way; very
//! long strings keep their head. NDJSON is one array of its lines and
//! stays NDJSON.
//!
//! When the lossless TOON encoding of the whole body costs about as few
//! tokens as the cut view, TOON wins (reported as method `toon`).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::super::shared::stats::{self, Scalar, Stats};
use super::super::shared::{dropped_runs, relevance};
use super::{is_preserve_key, ELIDED_KEY};
use crate::compress::Trace;
use crate::go::json::{self as gojson, Json, Value};

/// Arrays longer than this are cut.
const THRESHOLD: usize = 8;
/// Leading and trailing elements kept.
const HEAD: usize = 2;
const TAIL: usize = 1;
/// Query hits kept per array at most.
const QUERY_FILL: usize = 16;
/// Key sets kept one element each, when there are at most this many.
const MAX_SHAPES: usize = 4;
/// An array of at most this many elements, most of which hold a long
/// array themselves, keeps every element (each cut inside).
const MAX_NESTED_KEEP: usize = 64;
/// Maps with more members than this, mostly records, are cut.
const MAP_THRESHOLD: usize = 24;
/// Strings longer than this keep only their head.
const LONG_STRING: usize = 8192;
const STRING_HEAD: usize = 512;
/// A dropped run of fewer bytes than this stays (a marker would not pay).
const MARKER_COST: usize = 32;
/// Leaf paths tracked per array.
const MAX_FIELDS: usize = 256;
/// Nesting followed for leaf paths.
const MAX_LEAF_DEPTH: usize = 6;
/// How hard the view cuts: level 0 is the lean view; each level after it
/// keeps fewer representatives and states less, for `--budget`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Level {
    head: usize,
    tail: usize,
    /// Keep the elements holding what the summary cannot state, and one of
    /// each key set.
    holders: bool,
    /// Summary room: `None` in proportion to what was dropped.
    room: Option<usize>,
    /// Error elements kept per array, at most.
    errors: usize,
}

impl Level {
    pub(crate) const ALL: [Level; 8] = [
        Level {
            head: HEAD,
            tail: TAIL,
            holders: true,
            room: None,
            errors: usize::MAX,
        },
        Level {
            head: HEAD,
            tail: TAIL,
            holders: false,
            room: None,
            errors: usize::MAX,
        },
        Level {
            head: 1,
            tail: 1,
            holders: false,
            room: Some(1200),
            errors: usize::MAX,
        },
        Level {
            head: 1,
            tail: 1,
            holders: false,
            room: Some(600),
            errors: usize::MAX,
        },
        Level {
            head: 1,
            tail: 0,
            holders: false,
            room: Some(200),
            errors: usize::MAX,
        },
        Level {
            head: 0,
            tail: 0,
            holders: false,
            room: Some(80),
            errors: 16,
        },
        Level {
            head: 0,
            tail: 0,
            holders: false,
            room: Some(0),
            errors: 3,
        },
        Level {
            head: 0,
            tail: 0,
            holders: false,
            room: Some(0),
            errors: 0,
        },
    ];
}

/// Keys of the summary of the first marker.
const INVARIANTS_KEY: &str = "__caveman_invariants__";

/// Error words (whole words, any case), a superset of the compat list.
static ERROR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(errors?|exceptions?|fail|failed|failures?|failing|fatal|panic|panicked|timeout|timed out|denied|refused|rejected|traceback|critical|crash|crashed|abort|aborted)\b",
    )
    .expect("error words")
});

/// Keys whose truthy value marks an element as an error.
const ERROR_KEYS: [&str; 5] = ["error", "errors", "exception", "failure", "err"];

/// The lean view of a decoded body; `None` when nothing was cut (the
/// engine then tries TOON or passes through).
pub(crate) fn view(root: Json<'_>, query: &str, level: Level) -> Option<(Vec<u8>, Trace)> {
    let mut w = Writer {
        level,
        out: Vec::new(),
        query,
        cut: false,
        trace: Trace::default(),
        nested: 0,
    };
    w.value(root, false);
    w.cut.then_some((w.out, w.trace))
}

/// The lean view of NDJSON: one value per line (blank lines dropped).
pub(crate) fn view_ndjson(text: &str, query: &str, level: Level) -> Option<(Vec<u8>, Trace)> {
    // Line by line, stopping at the first that is not JSON (text that is
    // not NDJSON costs no list of its lines).
    let mut lines: Vec<&str> = Vec::new();
    let mut tapes: Vec<gojson::Tape<'_>> = Vec::new();
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        tapes.push(gojson::decode_exact(l.trim().as_bytes(), INPUT_ORDER).ok()?);
        lines.push(l);
    }
    let items: Vec<Json<'_>> = tapes.iter().map(|t| t.root()).collect();
    let mut w = Writer {
        level,
        out: Vec::new(),
        query,
        cut: false,
        trace: Trace::default(),
        nested: 0,
    };
    if items.len() <= THRESHOLD {
        for (i, it) in items.iter().enumerate() {
            let before = w.out.len();
            w.value(*it, false);
            if !w.cut {
                w.out.truncate(before);
                w.out.extend_from_slice(lines[i].trim().as_bytes());
            }
            w.out.push(b'\n');
        }
    } else {
        w.nested = 1;
        w.elements(&items, Some(&lines));
    }
    w.cut.then_some((w.out, w.trace))
}

/// Decoding for the lean view: members in input order.
pub(crate) const INPUT_ORDER: gojson::Options = gojson::Options {
    keys: gojson::Keys::InputOrder,
    max_depth: gojson::MAX_DEPTH,
};

struct Writer<'q> {
    level: Level,
    out: Vec<u8>,
    query: &'q str,
    /// Something was cut.
    cut: bool,
    trace: Trace,
    /// Arrays (and schema maps) the writer is inside: maps are cut only
    /// outside both (a map inside an element is part of that record).
    nested: usize,
}

/// Keys under which a map is a schema (its members are definitions a
/// reader needs), never cut.
const SCHEMA_KEYS: [&str; 8] = [
    "properties",
    "definitions",
    "$defs",
    "patternProperties",
    "schemas",
    "components",
    "parameters",
    "inputSchema",
];

/// Writes a string escaped only where JSON requires (quote, backslash,
/// control characters).
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let b = s.as_bytes();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        let esc: Option<&[u8]> = match c {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            b'\n' => Some(b"\\n"),
            b'\r' => Some(b"\\r"),
            b'\t' => Some(b"\\t"),
            c if c < 0x20 => None,
            _ => continue,
        };
        out.extend_from_slice(&b[start..i]);
        match esc {
            Some(e) => out.extend_from_slice(e),
            None => out.extend_from_slice(format!("\\u{c:04x}").as_bytes()),
        }
        start = i + 1;
    }
    out.extend_from_slice(&b[start..]);
    out.push(b'"');
}

/// A long string's head and how many bytes were cut.
fn cut_string(s: &str) -> String {
    let mut end = STRING_HEAD;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…[+{} bytes]", &s[..end], s.len() - end)
}

/// True when the subtree holds an error word in a string, or a truthy
/// error key.
fn has_error(v: Json<'_>) -> bool {
    match v.get() {
        Value::String(s) => ERROR.is_match(s),
        Value::Array(items) => items.iter().any(has_error),
        Value::Object(m) => m.iter().any(|(k, x)| {
            (ERROR_KEYS.contains(&k.to_ascii_lowercase().as_str()) && truthy(x)) || has_error(x)
        }),
        _ => false,
    }
}

fn truthy(v: Json<'_>) -> bool {
    match v.get() {
        Value::Null => false,
        Value::Bool(b) => b,
        Value::Number(n) => n.parse::<f64>().is_ok_and(|x| x != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// The scalar leaves of an element into `stats` (objects followed, arrays
/// not), with `unit` as the element's index.
fn leaves<'v>(v: Json<'v>, unit: usize, path: &mut String, depth: usize, stats: &mut Stats<'v>) {
    match v.get() {
        Value::Object(m) => {
            if depth >= MAX_LEAF_DEPTH {
                return;
            }
            for (k, x) in m.iter() {
                let keep = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                leaves(x, unit, path, depth + 1, stats);
                path.truncate(keep);
            }
        }
        Value::Array(_) => {}
        Value::Number(t) => {
            if let Ok(x) = t.parse::<f64>() {
                if x.is_finite() {
                    stats.add(unit, path, Scalar::Num(t, x));
                }
            }
        }
        Value::String(s) => stats.add(unit, path, Scalar::Str(s)),
        Value::Bool(b) => stats.add(unit, path, Scalar::Bool(b)),
        Value::Null => stats.add(unit, path, Scalar::Null),
    }
}

/// The sorted keys of an object element, as one string (its key set).
fn key_set(v: Json<'_>) -> Option<String> {
    match v.get() {
        Value::Object(m) => {
            let mut ks: Vec<&str> = m.iter().map(|(k, _)| k).collect();
            ks.sort_unstable();
            ks.dedup();
            Some(ks.join("\u{1}"))
        }
        _ => None,
    }
}

/// The element's text for BM25.
fn doc_of(v: Json<'_>) -> String {
    let mut out = Vec::new();
    let mut w = Writer {
        level: Level::ALL[0],
        out: Vec::new(),
        query: "",
        cut: false,
        trace: Trace::default(),
        nested: 0,
    };
    w.plain(v);
    out.append(&mut w.out);
    String::from_utf8(out).unwrap_or_default()
}

impl Writer<'_> {
    /// Writes `v`, cutting what is long inside it. `preserve`: under an
    /// error key, copied whole.
    fn value(&mut self, v: Json<'_>, preserve: bool) {
        match v.get() {
            Value::Object(m) => {
                if !preserve && self.nested == 0 && m.len() > MAP_THRESHOLD && record_map(v) {
                    self.map(v);
                    return;
                }
                self.out.push(b'{');
                for (i, (k, x)) in m.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    write_str(&mut self.out, k);
                    self.out.push(b':');
                    let schema = SCHEMA_KEYS.contains(&k);
                    self.nested += usize::from(schema);
                    self.value(x, preserve || is_preserve_key(k));
                    self.nested -= usize::from(schema);
                }
                self.out.push(b'}');
            }
            Value::Array(items) => {
                self.nested += 1;
                self.array(v, items, preserve);
                self.nested -= 1;
            }
            Value::String(s) if !preserve && s.len() > LONG_STRING => {
                self.cut = true;
                write_str(&mut self.out, &cut_string(s));
            }
            Value::String(s) => write_str(&mut self.out, s),
            Value::Number(t) => self.out.extend_from_slice(t.as_bytes()),
            Value::Bool(true) => self.out.extend_from_slice(b"true"),
            Value::Bool(false) => self.out.extend_from_slice(b"false"),
            Value::Null => self.out.extend_from_slice(b"null"),
        }
    }

    fn array(&mut self, v: Json<'_>, items: gojson::Items<'_>, preserve: bool) {
        {
            {
                let n = items.len();
                let nest = n <= MAX_NESTED_KEEP
                    && items.iter().filter(|x| holds_long_array(*x)).count() * 2 >= n;
                if nest && !preserve && !holds_marker(v) {
                    // Each element is cut inside: keeping them all costs
                    // little and keeps every inner array's account.
                    self.out.extend_from_slice(b"[\n");
                    for (i, x) in items.iter().enumerate() {
                        if i > 0 {
                            self.out.extend_from_slice(b",\n");
                        }
                        self.value(x, false);
                    }
                    self.out.extend_from_slice(b"\n]");
                } else if preserve || items.len() <= THRESHOLD || holds_marker(v) {
                    self.out.push(b'[');
                    for (i, x) in items.iter().enumerate() {
                        if i > 0 {
                            self.out.push(b',');
                        }
                        self.value(x, preserve);
                    }
                    self.out.push(b']');
                } else {
                    let all: Vec<Json<'_>> = items.iter().collect();
                    self.out.extend_from_slice(b"[\n");
                    self.elements(&all, None);
                    self.out.push(b']');
                }
            }
        }
    }

    /// Writes `v` compactly without cutting anything.
    fn plain(&mut self, v: Json<'_>) {
        match v.get() {
            Value::Object(m) => {
                self.out.push(b'{');
                for (i, (k, x)) in m.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    write_str(&mut self.out, k);
                    self.out.push(b':');
                    self.plain(x);
                }
                self.out.push(b'}');
            }
            Value::Array(items) => {
                self.out.push(b'[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    self.plain(x);
                }
                self.out.push(b']');
            }
            _ => self.value(v, true),
        }
    }

    /// Chooses the representatives of `items` and writes them one per
    /// line, dropped runs as markers (`lines`: NDJSON, whose kept lines
    /// are written as they were, without brackets or commas).
    fn elements(&mut self, items: &[Json<'_>], lines: Option<&[&str]>) {
        let n = items.len();
        let ndjson = lines.is_some();
        let mut keep = vec![false; n];
        let mut counted = 0;
        let mut account = |trace: &mut Trace, keep: &[bool], reason| {
            let now = keep.iter().filter(|&&k| k).count();
            trace.add(reason, now - counted);
            counted = now;
        };
        // Errors (at most `level.errors`, in document order).
        let mut errors = 0;
        let mut unshown_errors = 0;
        for (i, it) in items.iter().enumerate() {
            if has_error(*it) {
                if errors < self.level.errors {
                    keep[i] = true;
                    errors += 1;
                } else {
                    unshown_errors += 1;
                }
            }
        }
        account(&mut self.trace, &keep, "error word");
        for k in keep.iter_mut().take(self.level.head) {
            *k = true;
        }
        for k in keep.iter_mut().skip(n - self.level.tail.min(n)) {
            *k = true;
        }
        account(&mut self.trace, &keep, "head/tail");
        // What every element holds, and the elements the summary cannot
        // speak for.
        let mut st = Stats::new(MAX_FIELDS);
        let mut path = String::new();
        let mut shapes: Vec<(String, usize, usize)> = Vec::new();
        let mut keys_seen: Vec<(&str, usize)> = Vec::new();
        let header = table_header(items);
        if header.is_some() && self.level.holders {
            keep[0] = true;
        }
        for (i, it) in items.iter().enumerate() {
            st.unit();
            match &header {
                Some(names) if i > 0 => row_leaves(*it, i, names, &mut st),
                Some(_) => {}
                None => leaves(*it, i, &mut path, 0, &mut st),
            }
            if let Value::Object(m) = it.get() {
                for (k, _) in m.iter() {
                    let len = keys_seen.len();
                    match keys_seen.iter_mut().find(|e| e.0 == k) {
                        Some(e) => e.1 += 1,
                        None if len < MAX_FIELDS => keys_seen.push((k, 1)),
                        None => {}
                    }
                }
            }
            if let Some(ks) = key_set(*it) {
                let len = shapes.len();
                match shapes.iter_mut().find(|s| s.0 == ks) {
                    Some(s) => s.1 += 1,
                    None if len <= MAX_SHAPES => shapes.push((ks, 1, i)),
                    None => {}
                }
            }
        }
        if self.level.holders {
            for h in st.holders() {
                keep[h] = true;
            }
        }
        account(
            &mut self.trace,
            &keep,
            "extreme or value the summary cannot state",
        );
        if self.level.holders && shapes.len() > 1 && shapes.len() <= MAX_SHAPES {
            for s in &shapes {
                keep[s.2] = true;
            }
        }
        account(&mut self.trace, &keep, "one of each key set");
        if !self.query.is_empty() {
            let scores = relevance::scores_of(self.query, n, |i| doc_of(items[i]).into());
            for i in relevance::candidates(&scores, &keep)
                .into_iter()
                .take(QUERY_FILL)
            {
                keep[i] = true;
            }
            account(&mut self.trace, &keep, "query");
        }
        // A run too short to pay for its marker stays.
        let lens: Vec<usize> = items.iter().map(|it| plain_len(*it)).collect();
        for run in dropped_runs(&keep) {
            let bytes: usize = lens[run.clone()].iter().map(|l| l + 2).sum();
            if bytes < MARKER_COST {
                keep[run].iter_mut().for_each(|k| *k = true);
            }
        }
        account(&mut self.trace, &keep, "marker would not pay");
        let runs = dropped_runs(&keep);
        let dropped: usize = runs.iter().map(Range::len).sum();
        let dropped_bytes: usize = runs
            .iter()
            .map(|r| lens[r.clone()].iter().sum::<usize>())
            .sum();
        let what = if ndjson { "lines" } else { "elements" };
        let room = self.level.room.unwrap_or((dropped_bytes / 4).max(1200));
        let summary = if dropped > 0 && room > 0 {
            let mut s = st.render(what, false, room);
            if unshown_errors > 0 {
                s.push_str(&format!(
                    "; {unshown_errors} error {what} among those elided"
                ));
            }
            if !keys_seen.is_empty() && s.len() < room {
                let list: Vec<String> = keys_seen
                    .iter()
                    .map(|&(k, c)| {
                        if c == n {
                            k.to_string()
                        } else {
                            format!("{k}×{c}")
                        }
                    })
                    .collect();
                s.push_str(&format!("; fields: {}", list.join(", ")));
            }
            s
        } else {
            String::new()
        };
        let mut first_marker = true;
        let mut next = 0;
        let mut wrote = 0;
        let emit = |w: &mut Writer<'_>, i: usize, wrote: &mut usize| {
            if *wrote > 0 && !ndjson {
                w.out.extend_from_slice(b",\n");
            }
            *wrote += 1;
            match lines {
                Some(ls) if !holds_long_array(items[i]) => {
                    w.out.extend_from_slice(ls[i].trim().as_bytes())
                }
                _ => w.value(items[i], false),
            }
            if ndjson {
                w.out.push(b'\n');
            }
        };
        for run in &runs {
            for i in next..run.start {
                emit(self, i, &mut wrote);
            }
            next = run.end;
            if wrote > 0 && !ndjson {
                self.out.extend_from_slice(b",\n");
            }
            wrote += 1;
            self.cut = true;
            self.trace.dropped += run.len();
            self.out
                .extend_from_slice(format!("{{\"{ELIDED_KEY}\":{}", run.len()).as_bytes());
            if first_marker && !summary.is_empty() {
                self.out
                    .extend_from_slice(format!(",\"{INVARIANTS_KEY}\":").as_bytes());
                write_str(&mut self.out, &summary);
            }
            first_marker = false;
            self.out.push(b'}');
            if ndjson {
                self.out.push(b'\n');
            }
        }
        for i in next..n {
            emit(self, i, &mut wrote);
        }
        if !ndjson {
            self.out.push(b'\n');
        }
    }

    /// A map of many record-like members: the first and last members, and
    /// those with error words or query hits, around one marker member.
    fn map(&mut self, v: Json<'_>) {
        let Value::Object(m) = v.get() else { return };
        let members: Vec<(&str, Json<'_>)> = m.iter().collect();
        let n = members.len();
        let mut keep = vec![false; n];
        for (i, (_, x)) in members.iter().enumerate() {
            if has_error(*x) {
                keep[i] = true;
            }
        }
        for k in keep.iter_mut().take(self.level.head) {
            *k = true;
        }
        for k in keep.iter_mut().skip(n - self.level.tail.min(n)) {
            *k = true;
        }
        if !self.query.is_empty() {
            let scores = relevance::scores_of(self.query, n, |i| {
                format!("{} {}", members[i].0, doc_of(members[i].1)).into()
            });
            for i in relevance::candidates(&scores, &keep)
                .into_iter()
                .take(QUERY_FILL)
            {
                keep[i] = true;
            }
        }
        let dropped: Vec<usize> = (0..n).filter(|&i| !keep[i]).collect();
        let mut st = Stats::new(MAX_FIELDS);
        let mut path = String::new();
        for &i in &dropped {
            st.unit();
            leaves(members[i].1, i, &mut path, 0, &mut st);
        }
        let names: Vec<&str> = dropped.iter().map(|&i| members[i].0).collect();
        let mut summary = st.render("members", true, self.level.room.unwrap_or(1200));
        if let (Some(a), Some(b)) = (names.first(), names.last()) {
            if stats::statable(a) && stats::statable(b) {
                summary.push_str(&format!("; keys {a} … {b}"));
            }
        }
        self.cut = true;
        self.trace
            .add("head/tail, error word or query", n - dropped.len());
        self.trace.dropped += dropped.len();
        self.out.extend_from_slice(b"{\n");
        let mut wrote = 0;
        let mut marker_written = false;
        for i in 0..n {
            if !keep[i] {
                if marker_written {
                    continue;
                }
                marker_written = true;
                if wrote > 0 {
                    self.out.extend_from_slice(b",\n");
                }
                wrote += 1;
                self.out.extend_from_slice(
                    format!("\"{ELIDED_KEY}\":{},\"{INVARIANTS_KEY}\":", dropped.len()).as_bytes(),
                );
                write_str(&mut self.out, &summary);
                continue;
            }
            if wrote > 0 {
                self.out.extend_from_slice(b",\n");
            }
            wrote += 1;
            let (k, x) = members[i];
            write_str(&mut self.out, k);
            self.out.push(b':');
            self.value(x, is_preserve_key(k));
        }
        self.out.extend_from_slice(b"\n}");
    }
}

/// The compact length of a value.
fn plain_len(v: Json<'_>) -> usize {
    let mut w = Writer {
        level: Level::ALL[0],
        out: Vec::new(),
        query: "",
        cut: false,
        trace: Trace::default(),
        nested: 0,
    };
    w.plain(v);
    w.out.len()
}

/// The column names when the items are rows of one table: arrays of the
/// same length (2 or more), the first all strings.
fn table_header<'v>(items: &[Json<'v>]) -> Option<Vec<&'v str>> {
    let Value::Array(first) = items.first()?.get() else {
        return None;
    };
    let width = first.len();
    if width < 2 {
        return None;
    }
    let names: Vec<&str> = first
        .iter()
        .map(|x| match x.get() {
            Value::String(s) => Some(s),
            _ => None,
        })
        .collect::<Option<_>>()?;
    items[1..]
        .iter()
        .all(|it| matches!(it.get(), Value::Array(a) if a.len() == width))
        .then_some(names)
}

/// A table row's cells into `stats` under the column names.
fn row_leaves<'v>(v: Json<'v>, unit: usize, names: &[&str], stats: &mut Stats<'v>) {
    let Value::Array(cells) = v.get() else { return };
    for (name, x) in names.iter().zip(cells.iter()) {
        match x.get() {
            Value::Number(t) => {
                if let Ok(f) = t.parse::<f64>() {
                    if f.is_finite() {
                        stats.add(unit, name, Scalar::Num(t, f));
                    }
                }
            }
            Value::String(s) => stats.add(unit, name, Scalar::Str(s)),
            Value::Bool(b) => stats.add(unit, name, Scalar::Bool(b)),
            Value::Null => stats.add(unit, name, Scalar::Null),
            _ => {}
        }
    }
}

/// A map whose members are mostly records (objects or arrays): a keyed
/// collection, not a record itself.
fn record_map(v: Json<'_>) -> bool {
    let Value::Object(m) = v.get() else {
        return false;
    };
    let records = m.iter().filter(|(_, x)| x.is_container()).count();
    records * 10 >= m.len() * 9
}

fn holds_marker(v: Json<'_>) -> bool {
    match v.get() {
        Value::Array(items) => items.iter().any(|it| match it.get() {
            Value::Object(m) => m.iter().any(|(k, _)| k == ELIDED_KEY),
            _ => false,
        }),
        _ => false,
    }
}

/// The element holds something the writer would cut.
fn holds_long_array(v: Json<'_>) -> bool {
    match v.get() {
        Value::Array(items) => items.len() > THRESHOLD || items.iter().any(holds_long_array),
        Value::Object(m) => m.len() > MAP_THRESHOLD || m.iter().any(|(_, x)| holds_long_array(x)),
        Value::String(s) => s.len() > LONG_STRING,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lean(s: &str) -> Option<String> {
        let t = gojson::decode_exact(s.as_bytes(), INPUT_ORDER).unwrap();
        view(t.root(), "", Level::ALL[0]).map(|(b, _)| String::from_utf8(b).unwrap())
    }

    #[test]
    fn cuts_arrays_and_states_what_held() {
        let items: Vec<String> = (0..20)
            .map(|i| {
                let status = if i == 7 { "failed" } else { "ok" };
                format!("{{\"id\":{i},\"status\":\"{status}\",\"qty\":{}}}", i % 5)
            })
            .collect();
        let input = format!("{{\"page\":1,\"items\":[{}]}}", items.join(","));
        let out = lean(&input).unwrap();
        assert_eq!(
            out,
            "{\"page\":1,\"items\":[\n{\"id\":0,\"status\":\"ok\",\"qty\":0},\n{\"id\":1,\"status\":\"ok\",\"qty\":1},\n{\"__caveman_elided__\":5,\"__caveman_invariants__\":\"20 total elements; id=0..19 qty=0..4; status: ok×19 failed×1; fields: id, status, qty\"},\n{\"id\":7,\"status\":\"failed\",\"qty\":2},\n{\"__caveman_elided__\":11},\n{\"id\":19,\"status\":\"ok\",\"qty\":4}\n]}"
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v.is_object());
    }

    #[test]
    fn short_arrays_and_scalars_stay() {
        assert_eq!(lean("{\"a\":[1,2,3],\"b\":\"x<y\"}"), None);
    }

    #[test]
    fn ndjson_stays_one_value_per_line() {
        let text: String = (0..12)
            .map(|i| format!("{{\"level\":\"info\",\"n\":{i}}}\n"))
            .collect();
        let out = String::from_utf8(view_ndjson(&text, "", Level::ALL[0]).unwrap().0).unwrap();
        for l in out.lines() {
            serde_json::from_str::<serde_json::Value>(l).unwrap();
        }
        assert!(out.starts_with("{\"level\":\"info\",\"n\":0}\n{\"level\":\"info\",\"n\":1}\n{\"__caveman_elided__\":9,"));
    }
}
