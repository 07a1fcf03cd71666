//! The compat JSON elider (content type `json`, method `elision`): seed
//! 000_656f229b3ac24bb5.txt, completed by spec/json.md. Output is streamed in
//! sorted key order, which is also the (deterministic) walk order: the walk,
//! the per-array selection and the streamed writer share the decoded tape;
//! the numeric rules live in [`numeric`], the rest in `shared/` (kinds,
//! invariants, relevance).

use std::ops::Range;
use std::sync::LazyLock;

use super::super::shared::invariants::{self, Unit};
use super::super::shared::{kinds, relevance};
use super::super::Trace;
use super::numeric;
use super::{is_preserve_key, ELIDED_KEY};
use crate::go::json::{self as gojson, write_json_str, Indexed, Json, Value};
use crate::go::regexp::WordSet;

/// Arrays longer than this are collapse candidates.
const ARRAY_THRESHOLD: usize = 8;
/// Leading elements always kept.
const HEAD: usize = 3;
/// Trailing elements always kept.
const TAIL: usize = 2;
/// The query fill stops at this many kept elements.
const RELEVANCE_CAP: usize = 50;
/// The first marker carries the note only if its run dropped this many bytes.
const NOTE_THRESHOLD: usize = 4096;
/// Marker cost beyond its summary: the two key names plus framing.
const MARKER_OVERHEAD: usize = 56;
/// At most this many fields of an element feed its summary.
const MAX_UNIT_FIELDS: usize = 24;

const INVARIANTS_KEY: &str = "__caveman_invariants__";
const NOTE_KEY: &str = "__caveman_note__";
const NOTE: &str = "\u{2026} caveman: elided elements resemble shown elements and match the stated invariants \u{2014} answer from this view; if you truly cannot, one broad caveman_retrieve \u{2026}";

static ERROR_WORDS: LazyLock<WordSet> = LazyLock::new(|| {
    WordSet::new(&[
        "error",
        "errors",
        "exception",
        "failed",
        "failure",
        "critical",
        "fatal",
        "crash",
        "panic",
        "abort",
        "timeout",
        "denied",
        "rejected",
    ])
});

/// Compresses a JSON body; `None` when it declines (json.md §3).
pub fn compress(body: &[u8], query: &str) -> Option<Vec<u8>> {
    compress_traced(body, query).map(|(bytes, _)| bytes)
}

/// `compress_decoded_traced` without the trace.
pub fn compress_decoded(body: &[u8], trimmed: Json<'_>, query: &str) -> Option<Vec<u8>> {
    compress_decoded_traced(body, trimmed, query).map(|(bytes, _)| bytes)
}

/// [`compress`] with the account of what was kept and why.
pub(super) fn compress_traced(body: &[u8], query: &str) -> Option<(Vec<u8>, Trace)> {
    let mut clock = crate::timings::Clock::new("json");
    let v = gojson::decode_go(body).ok()?;
    clock.mark("decode");
    walk_value(v.root(), body.len(), query, clock)
}

/// [`compress`] given the value detection decoded from the body with its
/// Unicode spaces trimmed. The elider's own decode reads the untrimmed
/// body, so it would fail on any space JSON does not allow around the
/// value (U+00A0, vertical tab, …): decline then, as it would.
pub(super) fn compress_decoded_traced(
    body: &[u8],
    trimmed: Json<'_>,
    query: &str,
) -> Option<(Vec<u8>, Trace)> {
    let t = crate::go::unicode::trim_space(body);
    let lead = t.as_ptr() as usize - body.as_ptr() as usize;
    let json_ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    if !body[..lead].iter().all(json_ws) || !body[lead + t.len()..].iter().all(json_ws) {
        return None;
    }
    walk_value(
        trimmed,
        body.len(),
        query,
        crate::timings::Clock::new("json"),
    )
}

/// `size` is the body's length: the output's room. Output is rarely longer
/// than its input, so it seldom grows (each doubling would leave the old
/// buffer's pages with the allocator), and pages it does not fill are
/// never touched.
fn walk_value(
    v: Json<'_>,
    size: usize,
    query: &str,
    clock: crate::timings::Clock,
) -> Option<(Vec<u8>, Trace)> {
    let mut w = Walker {
        query,
        collapsed: false,
        out: Vec::with_capacity(size),
        clock,
        trace: Trace::default(),
    };
    w.walk(v, false);
    w.clock.mark("walk, emit");
    if !w.collapsed {
        return None;
    }
    Some((w.out, w.trace))
}

struct Walker<'q> {
    query: &'q str,
    collapsed: bool,
    out: Vec<u8>,
    clock: crate::timings::Clock,
    /// Elements kept per reason and dropped, over every array.
    trace: Trace,
}

fn holds_marker(items: gojson::Items<'_>) -> bool {
    items.iter().any(|it| match it.get() {
        Value::Object(m) => m.iter().any(|(k, _)| k == ELIDED_KEY),
        _ => false,
    })
}

/// True when the walk could change `v`: it holds an array of more than
/// [`ARRAY_THRESHOLD`] elements. Otherwise the walk writes exactly the
/// canonical text.
fn may_collapse(v: Json<'_>) -> bool {
    match v.get() {
        Value::Array(items) => items.len() > ARRAY_THRESHOLD || items.iter().any(may_collapse),
        Value::Object(m) => m.iter().any(|(_, x)| may_collapse(x)),
        _ => false,
    }
}

/// Canonical length of each element and whether its text carries an
/// error word, on every core for long arrays, written straight into the
/// two result vectors (no per-part copies). The texts themselves are not
/// kept: a 30 MB array would hold another ~25 MB of them. The few shown
/// elements are written again when emitted.
fn measure(items: &Indexed<'_>) -> (Vec<u32>, Vec<bool>) {
    let n = items.len();
    // Zeroed vectors come from fresh pages: nothing is touched twice.
    let mut lens = vec![0u32; n];
    let mut errors = vec![false; n];
    let size = n.div_ceil(crate::par::parts_for(n, 2048)).max(1);
    let parts: Vec<_> = lens
        .chunks_mut(size)
        .zip(errors.chunks_mut(size))
        .enumerate()
        .collect();
    crate::par::map(parts, |(k, (lens, errors))| {
        let mut buf = Vec::new();
        for (j, (len, error)) in lens.iter_mut().zip(errors.iter_mut()).enumerate() {
            let item = items.get(k * size + j);
            buf.clear();
            gojson::write(&mut buf, item);
            // An element is part of a 64 MiB input.
            *len = buf.len() as u32;
            // Numbers, booleans and null spell no error word; the writer
            // emits only valid UTF-8 (strings are decoded text).
            *error = matches!(
                item.get(),
                Value::String(_) | Value::Array(_) | Value::Object(_)
            ) && ERROR_WORDS.is_match_utf8(&buf);
        }
    });
    (lens, errors)
}

/// The kind of an element (redundancy.md §3) from its canonical text,
/// written into a buffer each thread keeps.
fn profile_of(item: Json<'_>) -> kinds::Profile {
    thread_local! {
        static DOC: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    DOC.with_borrow_mut(|buf| {
        buf.clear();
        gojson::write(buf, item);
        // The writer emits only valid UTF-8 (strings are decoded text).
        kinds::profile(std::str::from_utf8(buf).unwrap_or_default())
    })
}

/// The canonical text of an element.
fn doc_of(item: Json<'_>) -> String {
    // The writer emits only valid UTF-8 (strings are decoded text).
    String::from_utf8(gojson::to_vec(item)).unwrap_or_default()
}

/// Fields of an element for its summary (invariants.md §1).
fn unit_of<'v>(v: Json<'v>, u: &mut Unit<'v>) {
    if let Value::Object(m) = v.get() {
        for (k, val) in m {
            if u.len() >= MAX_UNIT_FIELDS {
                break;
            }
            let s: &str = match val.get() {
                Value::String(s) => s,
                Value::Number(n) => n,
                Value::Bool(true) => "true",
                Value::Bool(false) => "false",
                _ => continue,
            };
            if s.is_empty() {
                continue;
            }
            u.push((k, s));
        }
    }
}

/// Each run's summary and dropped bytes (its elements' canonical lengths
/// plus one separator each), on every core when there are many runs.
fn run_summaries(items: &Indexed<'_>, lens: &[u32], runs: &[Range<usize>]) -> Vec<(String, usize)> {
    let elements: usize = runs.iter().map(|r| r.len()).sum();
    crate::par::map_each(runs, crate::par::parts_for(elements, 4096), |run| {
        let elided: usize = lens[run.clone()].iter().map(|&l| l as usize + 1).sum();
        let summary = invariants::summary_of(
            run.len(),
            |j, u| unit_of(items.get(run.start + j), u),
            elided as i64,
        );
        (summary, elided)
    })
}

impl Walker<'_> {
    fn walk(&mut self, v: Json<'_>, preserve: bool) {
        match v.get() {
            Value::Object(m) => {
                self.out.push(b'{');
                for (i, (k, val)) in m.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    write_json_str(&mut self.out, k.as_bytes());
                    self.out.push(b':');
                    self.walk(val, preserve || is_preserve_key(k));
                }
                self.out.push(b'}');
            }
            Value::Array(items) => {
                if preserve || holds_marker(items) {
                    gojson::write(&mut self.out, v);
                } else if items.len() <= ARRAY_THRESHOLD {
                    self.out.push(b'[');
                    for (i, it) in items.iter().enumerate() {
                        if i > 0 {
                            self.out.push(b',');
                        }
                        self.walk(it, false);
                    }
                    self.out.push(b']');
                } else {
                    self.select(&items.indexed());
                }
            }
            _ => gojson::write(&mut self.out, v),
        }
    }

    /// Element selection and emission for an array of n > 8 (json.md §5, §6).
    fn select(&mut self, items: &Indexed<'_>) {
        let n = items.len();
        let big = n >= 4096;
        if big {
            self.clock.mark("walk");
        }
        let (lens, errors) = measure(items);
        if big {
            self.clock.mark("docs, errors");
        }
        let mut keep = errors;
        let mut counted = keep.iter().filter(|&&k| k).count();
        self.trace.add("error word", counted);
        let mut account = |trace: &mut Trace, keep: &[bool], reason| {
            let now = keep.iter().filter(|&&k| k).count();
            trace.add(reason, now - counted);
            counted = now;
        };
        for k in keep.iter_mut().take(HEAD) {
            *k = true;
        }
        for k in keep.iter_mut().skip(n - TAIL) {
            *k = true;
        }
        account(&mut self.trace, &keep, "head/tail");
        numeric::rules(items, &lens, &mut keep);
        account(&mut self.trace, &keep, "anomaly or change point");
        if big {
            self.clock.mark("numeric rules");
        }
        if !self.query.is_empty() {
            let scores = relevance::scores_of(self.query, n, |i| doc_of(items.get(i)).into());
            let kept = keep.iter().filter(|&&k| k).count();
            let room = RELEVANCE_CAP.saturating_sub(kept);
            for i in relevance::candidates(&scores, &keep).into_iter().take(room) {
                keep[i] = true;
            }
            account(&mut self.trace, &keep, "query");
        }
        kinds::guard(|i| profile_of(items.get(i)), &mut keep);
        account(&mut self.trace, &keep, "one of each kind");
        if big {
            self.clock.mark("kind guard");
        }

        let runs = super::super::shared::dropped_runs(&keep);
        let summaries = run_summaries(items, &lens, &runs);
        if big {
            self.clock.mark("summaries");
        }
        self.out.push(b'[');
        let mut first = true;
        let mut next = 0;
        for (run, (summary, elided)) in runs.iter().zip(summaries) {
            for i in next..run.start {
                self.emit_element(items.get(i), &mut first);
            }
            next = run.end;
            self.flush(items, run.clone(), &summary, elided, &mut first);
        }
        for i in next..n {
            self.emit_element(items.get(i), &mut first);
        }
        self.out.push(b']');
        if big {
            self.clock.mark("runs, summaries");
        }
    }

    /// Writes an element as the walk would: its canonical text when nothing
    /// inside it can collapse.
    fn emit_element(&mut self, item: Json<'_>, first: &mut bool) {
        if !*first {
            self.out.push(b',');
        }
        *first = false;
        if may_collapse(item) {
            self.walk(item, false);
        } else {
            gojson::write(&mut self.out, item);
        }
    }

    /// Writes a dropped run (json.md §6): a marker, or the elements
    /// themselves when a marker would not pay.
    fn flush(
        &mut self,
        items: &Indexed<'_>,
        run: Range<usize>,
        summary: &str,
        elided: usize,
        first: &mut bool,
    ) {
        let r = run.len();
        let cost = summary.len() + MARKER_OVERHEAD;
        let worth = r >= 3 || (!summary.is_empty() && 2 * cost <= elided);
        if worth {
            self.trace.dropped += r;
        } else {
            self.trace.add("marker would not pay", r);
        }
        if !worth {
            for i in run {
                self.emit_element(items.get(i), first);
            }
            return;
        }
        if !*first {
            self.out.push(b',');
        }
        *first = false;
        self.out
            .extend_from_slice(format!("{{\"{ELIDED_KEY}\":{r}").as_bytes());
        if !summary.is_empty() {
            self.out
                .extend_from_slice(format!(",\"{INVARIANTS_KEY}\":").as_bytes());
            write_json_str(&mut self.out, summary.as_bytes());
        }
        if !self.collapsed && elided >= NOTE_THRESHOLD {
            self.out
                .extend_from_slice(format!(",\"{NOTE_KEY}\":").as_bytes());
            write_json_str(&mut self.out, NOTE.as_bytes());
        }
        self.out.push(b'}');
        self.collapsed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Option<String> {
        compress(s.as_bytes(), "").map(|v| String::from_utf8(v).unwrap())
    }

    #[test]
    fn example_a() {
        let items: Vec<String> = (0..10)
            .map(|i| format!("{{\"sku\":\"k-{i}\",\"qty\":1}}"))
            .collect();
        let input = format!("{{\"page\":2,\"items\":[{}]}}", items.join(","));
        assert_eq!(
            c(&input).unwrap(),
            r#"{"items":[{"qty":1,"sku":"k-0"},{"qty":1,"sku":"k-1"},{"qty":1,"sku":"k-2"},{"__caveman_elided__":5,"__caveman_invariants__":"all qty=1; sku: k-3..k-7 all 5 present"},{"qty":1,"sku":"k-8"},{"qty":1,"sku":"k-9"}],"page":2}"#
        );
    }

    #[test]
    fn example_b_and_e() {
        let items: Vec<String> = (0..150)
            .map(|i| format!("{{\"seq\":{i},\"ok\":true}}"))
            .collect();
        let out = c(&format!("[{}]", items.join(","))).unwrap();
        assert_eq!(
            out,
            r#"[{"ok":true,"seq":0},{"ok":true,"seq":1},{"ok":true,"seq":2},{"__caveman_elided__":145,"__caveman_invariants__":"all ok=true; range seq=3..147"},{"ok":true,"seq":148},{"ok":true,"seq":149}]"#
        );
        assert_eq!(
            c("[10,10,10,10,10,10,10,10,90,90,90,90,90,90,90,90]").unwrap(),
            r#"[10,10,10,{"__caveman_elided__":11},90,90]"#
        );
    }

    #[test]
    fn example_f_declines() {
        let names = [
            "ana", "bob", "cy", "dee", "eli", "fay", "gus", "hal", "ivy", "jo", "kit", "lu",
        ];
        let teams = [
            "web", "ops", "db", "ml", "qa", "ux", "sec", "net", "api", "ios", "bi", "hr",
        ];
        let items: Vec<String> = (0..12)
            .map(|i| {
                format!(
                    "{{\"id\":{i},\"name\":\"{}\",\"team\":\"{}\"}}",
                    names[i], teams[i]
                )
            })
            .collect();
        assert_eq!(c(&format!("[{}]", items.join(","))), None);
    }

    #[test]
    fn second_pass_leaves_markers() {
        let items: Vec<String> = (0..150)
            .map(|i| format!("{{\"seq\":{i},\"ok\":true}}"))
            .collect();
        let once = c(&format!("[{}]", items.join(","))).unwrap();
        assert_eq!(c(&once), None);
    }
}
