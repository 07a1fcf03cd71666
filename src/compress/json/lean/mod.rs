//! The lean JSON view (`--profile lean`): members in input order, strings
//! escaped only where JSON requires, and every array of more than
//! [`THRESHOLD`] elements cut to what answers: every element that carries
//! an error, the first two and the last, the elements holding what the
//! summary cannot state, rows by value (the holders of each field's
//! extremes and of each rare value of a field with a default), one of each
//! key set, query hits ([`select`]). Each dropped run becomes
//! `{"__caveman_elided__":N,"__caveman_invariants__":…}`: the identifiers
//! of the members it replaces when the list is short enough for them to
//! be the answer (`name: a, b, c`), and on the first marker of an array
//! what held for *all* its elements (total, fields, ranges, categories;
//! see `shared::stats`). An array with markers is written one element per
//! line. Maps with many record-like members are cut the same way (one
//! marker naming the dropped keys); lists of tools and the arrays that are
//! a contract (`enum`, `required`, `args`, `command`) are never cut; very
//! long strings keep their head. NDJSON is one array of its lines and
//! stays NDJSON.
//!
//! [`run`] picks between that view, the lossless TOON encoding and the
//! JSON minified in input order, and keeps the view within compat's.

mod level;
mod outline;
mod run;
mod select;
mod shape;
mod status;

pub(crate) use level::Level;
pub(super) use run::run;

use select::{choose, Members};

use super::is_preserve_key;
use super::ELIDED_KEY;
use crate::compress::Trace;
use crate::go::json::{self as gojson, Json, Value};

/// Arrays longer than this are cut.
const THRESHOLD: usize = 8;
/// Leading and trailing elements kept.
const HEAD: usize = 2;
const TAIL: usize = 1;
/// An array of at most this many elements, most of which hold a long
/// array themselves, keeps every element (each cut inside); so does a
/// list of tools.
const MAX_NESTED_KEEP: usize = 64;
/// Bytes of its own (outside its long arrays) a wrapper holds on average
/// at most.
const MAX_WRAPPER: usize = 256;
const MAX_TOOLS: usize = 512;
/// Maps with more members than this, mostly records, are cut.
const MAP_THRESHOLD: usize = 24;
/// Strings longer than this keep only their head.
const LONG_STRING: usize = 8192;
const STRING_HEAD: usize = 512;
/// Bytes kept on each side of the first error a long string mentions.
const EVIDENCE: usize = 240;
/// Keys whose array is a contract (accepted values, required
/// parameters, a command line): never cut.
const CONTRACT_KEYS: [&str; 4] = ["enum", "required", "args", "command"];

/// Keys of the summary of the first marker.
const INVARIANTS_KEY: &str = "__caveman_invariants__";

/// Decoding for the lean view: members in input order.
pub(crate) const INPUT_ORDER: gojson::Options = gojson::Options {
    keys: gojson::Keys::InputOrder,
    max_depth: gojson::MAX_DEPTH,
};

/// The lean view of a decoded body; `None` when nothing was cut (the
/// registry row then tries the lossless views or passes through).
pub(crate) fn view(root: Json<'_>, query: &str, level: Level) -> Option<(Vec<u8>, Trace)> {
    let mut w = Writer::new(level, query);
    w.value(root, false);
    w.cut.then_some((w.out, w.trace))
}

/// The lean view of NDJSON: one value per line (blank lines dropped).
pub(crate) fn view_ndjson(text: &str, query: &str, level: Level) -> Option<(Vec<u8>, Trace)> {
    let (lines, tapes) = ndjson(text)?;
    let items: Vec<Json<'_>> = tapes.iter().map(|t| t.root()).collect();
    let mut w = Writer::new(level, query);
    if items.len() <= THRESHOLD {
        for (i, it) in items.iter().enumerate() {
            let before = w.out.len();
            let was_cut = w.cut;
            w.cut = false;
            if !shape::flat_row(*it) {
                w.value(*it, false);
            }
            if !w.cut {
                w.out.truncate(before);
                w.out.extend_from_slice(lines[i].trim().as_bytes());
            }
            w.cut |= was_cut;
            w.out.push(b'\n');
        }
    } else {
        w.nested = 1;
        w.elements(&items, None, Some(&lines));
    }
    w.cut.then_some((w.out, w.trace))
}

/// The lines of NDJSON and their values, line by line, stopping at the
/// first that is not JSON (text that is not NDJSON costs no list of its
/// lines).
fn ndjson(text: &str) -> Option<(Vec<&str>, Vec<gojson::Tape<'_>>)> {
    let mut lines: Vec<&str> = Vec::new();
    let mut tapes: Vec<gojson::Tape<'_>> = Vec::new();
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        tapes.push(gojson::decode_exact(l.trim().as_bytes(), INPUT_ORDER).ok()?);
        lines.push(l);
    }
    Some((lines, tapes))
}

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

/// A long string's head and how many bytes were cut; when an error is
/// mentioned after the head, the lines around its first mention too.
fn cut_string(s: &str) -> String {
    let floor = |mut i: usize| {
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let end = floor(STRING_HEAD);
    let head = &s[..end];
    let Some(at) = shape::first_error(&s[end..]).map(|i| i + end) else {
        return format!("{head}…[+{} bytes]", s.len() - end);
    };
    let from = floor(at.saturating_sub(EVIDENCE).max(end));
    let to = floor((at + EVIDENCE).min(s.len()));
    let mut out = format!("{head}…[{} bytes]…{}", from - end, &s[from..to]);
    if to < s.len() {
        out.push_str(&format!("…[+{} bytes]", s.len() - to));
    }
    out
}

/// The value written compactly, nothing cut (the lossless minification).
pub(crate) fn minified(v: Json<'_>) -> Vec<u8> {
    let mut w = Writer::new(Level::ALL[0], "");
    w.plain(v);
    w.out
}

/// The element's text for BM25.
fn doc_of(v: Json<'_>) -> String {
    String::from_utf8(minified(v)).unwrap_or_default()
}

/// The compact length of a value (what [`minified`] writes), counted
/// without writing it.
fn plain_len(v: Json<'_>) -> usize {
    match v.get() {
        Value::Object(m) => {
            1 + m
                .iter()
                .map(|(k, x)| str_len(k) + 2 + plain_len(x))
                .sum::<usize>()
                .max(1)
        }
        Value::Array(items) => 1 + items.iter().map(|x| plain_len(x) + 1).sum::<usize>().max(1),
        Value::String(s) => str_len(s),
        Value::Number(t) => t.len(),
        Value::Bool(true) | Value::Null => 4,
        Value::Bool(false) => 5,
    }
}

/// The length of a string as [`write_str`] writes it.
fn str_len(s: &str) -> usize {
    2 + s
        .bytes()
        .map(|c| match c {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' => 2,
            c if c < 0x20 => 6,
            _ => 1,
        })
        .sum::<usize>()
}

impl<'q> Writer<'q> {
    fn new(level: Level, query: &'q str) -> Writer<'q> {
        Writer {
            level,
            out: Vec::new(),
            query,
            cut: false,
            trace: Trace::default(),
            nested: 0,
        }
    }

    /// Writes `v`, cutting what is long inside it. `preserve`: under an
    /// error key, copied whole.
    fn value(&mut self, v: Json<'_>, preserve: bool) {
        match v.get() {
            Value::Object(m) => {
                if !preserve && self.nested == 0 && m.len() > MAP_THRESHOLD && shape::record_map(v)
                {
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
                    if CONTRACT_KEYS.contains(&k) && matches!(x.get(), Value::Array(_)) {
                        self.plain(x);
                        continue;
                    }
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
        let n = items.len();
        if preserve || n <= THRESHOLD || shape::holds_marker(v) {
            self.out.push(b'[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    self.out.push(b',');
                }
                self.value(x, preserve);
            }
            self.out.push(b']');
            return;
        }
        let all: Vec<Json<'_>> = items.iter().collect();
        if self.level.ids && shape::name_list(&all) {
            // A list of names is the content: on one line, whole.
            self.plain(v);
            return;
        }
        // Wrappers of long lists (a matrix's rows, pages of results):
        // most hold a long array and little else.
        let nest = self.level.nest
            && n <= MAX_NESTED_KEEP
            && all.iter().filter(|x| shape::holds_long_array(**x)).count() * 2 >= n
            && all.iter().map(|x| shape::own_len(*x)).sum::<usize>() <= n * MAX_WRAPPER;
        if nest || (n <= MAX_TOOLS && shape::tool_list(&all)) {
            // Each element is cut inside: keeping them all costs little
            // and keeps every inner account; a tool list is the answer.
            self.out.extend_from_slice(b"[\n");
            for (i, x) in all.iter().enumerate() {
                if i > 0 {
                    self.out.extend_from_slice(b",\n");
                }
                self.value(*x, false);
            }
            self.out.extend_from_slice(b"\n]");
            return;
        }
        self.elements(&all, None, None);
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

    /// Writes a long array (or NDJSON, `lines`, whose kept lines are
    /// written as they were, without brackets or commas): its chosen
    /// elements one per line, each dropped run as a marker; compactly when
    /// nothing was dropped.
    fn elements(&mut self, items: &[Json<'_>], keys: Option<&[&str]>, lines: Option<&[&str]>) {
        let ndjson = lines.is_some();
        let members = Members {
            items,
            keys,
            what: if ndjson { "lines" } else { "elements" },
        };
        let cut = choose(&members, self.level, self.query, &mut self.trace);
        let runs = super::super::shared::dropped_runs(&cut.keep);
        let emit = |w: &mut Writer<'_>, i: usize| match lines {
            Some(ls) if !shape::holds_long_array(items[i]) || shape::flat_row(items[i]) => {
                w.out.extend_from_slice(ls[i].trim().as_bytes())
            }
            _ => w.value(items[i], false),
        };
        if runs.is_empty() {
            if !ndjson {
                self.out.push(b'[');
            }
            for i in 0..items.len() {
                if i > 0 && !ndjson {
                    self.out.push(b',');
                }
                emit(self, i);
                if ndjson {
                    self.out.push(b'\n');
                }
            }
            if !ndjson {
                self.out.push(b']');
            }
            return;
        }
        let sep: &[u8] = if ndjson { b"\n" } else { b",\n" };
        if !ndjson {
            self.out.extend_from_slice(b"[\n");
        }
        let mut next = 0;
        let mut wrote = 0;
        for (r, run) in runs.iter().enumerate() {
            for i in next..run.start {
                if wrote > 0 {
                    self.out.extend_from_slice(sep);
                }
                wrote += 1;
                emit(self, i);
            }
            next = run.end;
            if wrote > 0 {
                self.out.extend_from_slice(sep);
            }
            wrote += 1;
            let text = marker_text(&cut, run.clone(), r == 0);
            self.marker_element(run.len(), &text);
        }
        for i in next..items.len() {
            if wrote > 0 {
                self.out.extend_from_slice(sep);
            }
            wrote += 1;
            emit(self, i);
        }
        self.out.push(b'\n');
        if !ndjson {
            self.out.push(b']');
        }
    }

    /// Writes `{"__caveman_elided__":r,"__caveman_invariants__":text}`.
    fn marker_element(&mut self, r: usize, text: &str) {
        self.cut = true;
        self.trace.dropped += r;
        self.out
            .extend_from_slice(format!("{{\"{ELIDED_KEY}\":{r}").as_bytes());
        if !text.is_empty() {
            self.out
                .extend_from_slice(format!(",\"{INVARIANTS_KEY}\":").as_bytes());
            write_str(&mut self.out, text);
        }
        self.out.push(b'}');
    }

    /// A map of many record-like members, chosen as an array's elements
    /// are, around one marker member that names the dropped keys.
    fn map(&mut self, v: Json<'_>) {
        let Value::Object(m) = v.get() else { return };
        let keys: Vec<&str> = m.iter().map(|(k, _)| k).collect();
        let items: Vec<Json<'_>> = m.iter().map(|(_, x)| x).collect();
        let members = Members {
            items: &items,
            keys: Some(&keys),
            what: "members",
        };
        let cut = choose(&members, self.level, self.query, &mut self.trace);
        let n = items.len();
        let dropped = cut.keep.iter().filter(|&&k| !k).count();
        if dropped == 0 {
            self.out.push(b'{');
            for i in 0..n {
                if i > 0 {
                    self.out.push(b',');
                }
                write_str(&mut self.out, keys[i]);
                self.out.push(b':');
                self.value(items[i], is_preserve_key(keys[i]));
            }
            self.out.push(b'}');
            return;
        }
        self.out.extend_from_slice(b"{\n");
        let mut wrote = 0;
        let mut marker_written = false;
        for i in 0..n {
            if !cut.keep[i] && marker_written {
                continue;
            }
            if wrote > 0 {
                self.out.extend_from_slice(b",\n");
            }
            wrote += 1;
            if !cut.keep[i] {
                marker_written = true;
                self.cut = true;
                self.trace.dropped += dropped;
                let text = marker_text(&cut, 0..n, true);
                self.out.extend_from_slice(
                    format!("\"{ELIDED_KEY}\":{dropped},\"{INVARIANTS_KEY}\":").as_bytes(),
                );
                write_str(&mut self.out, &text);
                continue;
            }
            write_str(&mut self.out, keys[i]);
            self.out.push(b':');
            self.value(items[i], is_preserve_key(keys[i]));
        }
        self.out.extend_from_slice(b"\n}");
    }
}

/// A collection of more members than this states a numbered run of
/// identifiers by its ends; a shorter one names each.
const FOLD_IDS_FROM: usize = 64;

/// A marker's text: the identifiers of the dropped members in `run`
/// (when listed), then, on the first marker, the summary.
fn marker_text(cut: &select::Cut, run: std::ops::Range<usize>, first: bool) -> String {
    let mut parts = Vec::new();
    let hidden: Vec<usize> = run.filter(|&i| !cut.keep[i]).collect();
    if let Some(ids) = cut.ids.as_ref().filter(|ids| ids.all) {
        let listed: Vec<&str> = hidden.iter().map(|&i| ids.names[i].as_str()).collect();
        if !listed.is_empty() {
            // A long collection's numbered run (`t-2..t-511`) by its ends.
            let listed = if ids.names.len() > FOLD_IDS_FROM {
                crate::compress::shared::names::fold_sequences(&listed)
            } else {
                listed.into_iter().map(std::borrow::Cow::Borrowed).collect()
            };
            parts.push(format!("{}: {}", ids.label, listed.join(", ")));
        }
    }
    if let Some(s) = &cut.status {
        if !hidden.is_empty() {
            parts.extend(s.describe(&hidden, cut.ids.as_ref()));
        }
    }
    if first && !cut.summary.is_empty() {
        parts.push(cut.summary.clone());
    }
    parts.join("; ")
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
        let items: Vec<String> = (0..40)
            .map(|i| {
                let status = if i == 7 { "failed" } else { "ok" };
                format!("{{\"seq\":{i},\"status\":\"{status}\",\"qty\":{}}}", i % 5)
            })
            .collect();
        let input = format!("{{\"page\":1,\"items\":[{}]}}", items.join(","));
        let out = lean(&input).unwrap();
        assert!(out.starts_with("{\"page\":1,\"items\":[\n{\"seq\":0,\"status\":\"ok\",\"qty\":0},\n{\"seq\":1,\"status\":\"ok\",\"qty\":1},\n"), "{out}");
        assert!(
            out.contains("\n{\"seq\":7,\"status\":\"failed\",\"qty\":2},\n"),
            "{out}"
        );
        assert!(out.contains("40 total elements; fields: seq, status, qty; seq=0..39; qty=0..4 (0×8 1×8 2×8 3×8 4×8); status: ok×39 failed×1"), "{out}");
        // Each marker says what the elements it hides share, of those.
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let mut hidden = 0;
        for m in v["items"].as_array().unwrap() {
            if let Some(n) = m.get(ELIDED_KEY).and_then(|n| n.as_u64()) {
                let text = m[INVARIANTS_KEY].as_str().unwrap();
                assert!(
                    text.starts_with(&format!("of these {n}, all status=ok")),
                    "{text}"
                );
                hidden += n;
            }
        }
        assert!(hidden > 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v.is_object());
    }

    #[test]
    fn a_field_shown_by_every_holder_is_not_summarised() {
        // Only the first line (kept) has `src`: its value is in the view,
        // a `src.line=20..20` in the marker would repeat it.
        let text: String = (0..12)
            .map(|i| {
                let src = if i == 0 { ",\"src\":{\"line\":20}" } else { "" };
                format!("{{\"level\":\"info\",\"n\":{i}{src}}}\n")
            })
            .collect();
        let out = String::from_utf8(view_ndjson(&text, "", Level::ALL[0]).unwrap().0).unwrap();
        assert!(
            out.starts_with("{\"level\":\"info\",\"n\":0,\"src\":{\"line\":20}}\n"),
            "{out}"
        );
        assert!(out.contains("fields: level, n, src×1"), "{out}");
        assert!(!out.contains("src.line"), "{out}");
        assert!(out.contains("n=0..11"), "{out}");
        // A holder cut inside (its long list) does not show it whole: the
        // marker still states the field.
        let ids: Vec<String> = (0..20).map(|k| k.to_string()).collect();
        let text: String = (0..12)
            .map(|i| {
                let src = if i == 0 {
                    format!(",\"src\":{{\"line\":20}},\"ids\":[{}]", ids.join(","))
                } else {
                    String::new()
                };
                format!("{{\"level\":\"info\",\"n\":{i}{src}}}\n")
            })
            .collect();
        let out = String::from_utf8(view_ndjson(&text, "", Level::ALL[0]).unwrap().0).unwrap();
        assert!(out.contains("src.line=20"), "{out}");
    }

    #[test]
    fn plain_len_is_the_minified_length() {
        for s in [
            "{}",
            "[]",
            "{\"a\":[1,2,{\"b\":null}],\"c\":\"x\\\"y\\n\\u0001\",\"d\":true,\"e\":false}",
            "[[],{},\"\",0]",
        ] {
            let t = gojson::decode_exact(s.as_bytes(), INPUT_ORDER).unwrap();
            assert_eq!(plain_len(t.root()), minified(t.root()).len(), "{s}");
        }
    }

    #[test]
    fn short_arrays_and_scalars_stay() {
        assert_eq!(lean("{\"a\":[1,2,3],\"b\":\"x<y\"}"), None);
    }

    #[test]
    fn contract_arrays_are_never_cut() {
        let values: Vec<String> = (0..30).map(|i| format!("\"v{i}\"")).collect();
        let records: Vec<String> = (0..30).map(|i| format!("{{\"v\":{i}}}")).collect();
        let input = format!(
            "{{\"type\":\"string\",\"enum\":[{}],\"x\":[{}]}}",
            values.join(","),
            records.join(",")
        );
        let out = lean(&input).unwrap();
        assert!(
            out.contains(&format!("\"enum\":[{}]", values.join(","))),
            "{out}"
        );
    }

    #[test]
    fn a_list_of_names_stays_whole() {
        let names: Vec<String> = (0..200).map(|i| format!("\"ext{i}\"")).collect();
        assert_eq!(lean(&format!("[{}]", names.join(","))), None);
    }

    #[test]
    fn members_are_named_in_markers() {
        let items: Vec<String> = (0..30)
            .map(|i| format!("{{\"name\":\"tool-{i}\",\"size\":{}}}", 100 + i % 3))
            .collect();
        let out = lean(&format!("[{}]", items.join(","))).unwrap();
        for i in 0..30 {
            assert!(out.contains(&format!("tool-{i}")), "{out}");
        }
    }

    #[test]
    fn ndjson_rows_are_never_cut_inside() {
        let mut text = String::from("[\"asin\",\"brand\",\"title\",\"url\",\"image\",\"rating\",\"reviewUrl\",\"totalReviews\",\"prices\"]\n");
        for i in 0..40 {
            text.push_str(&format!(
                "[\"B{i:05}\",\"Brand{}\",\"Phone {i}\",\"https://example.com/{i}\",\"https://img.example.com/{i}.jpg\",{},\"https://example.com/r/{i}\",{},\"${i}.99\"]\n",
                i % 3,
                i % 5 + 1,
                i * 7
            ));
        }
        let out = String::from_utf8(view_ndjson(&text, "", Level::ALL[0]).unwrap().0).unwrap();
        assert!(out.starts_with("[\"asin\",\"brand\",\"title\",\"url\",\"image\",\"rating\",\"reviewUrl\",\"totalReviews\",\"prices\"]\n"), "{out}");
        for l in out.lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(a) = v.as_array() {
                assert_eq!(a.len(), 9, "{l}");
            }
        }
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
        assert!(out.starts_with("{\"level\":\"info\",\"n\":0}\n{\"level\":\"info\",\"n\":1}\n{\"__caveman_elided__\":"), "{out}");
    }
}
