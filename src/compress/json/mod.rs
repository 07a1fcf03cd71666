//! The JSON elider (content type `json`, method `elision`): seed
//! 000_656f229b3ac24bb5.txt, completed by spec/json.md. Output is streamed in
//! sorted key order, which is also the (deterministic) walk order.
//!
//! Over 600 lines: the walk, the per-array selection and the streamed
//! writer share the decoded tape and its per-path indices; the rules they
//! apply are already in `shared/` (kinds, invariants, robust, relevance).

mod lean;

pub(crate) use lean::INPUT_ORDER;

use std::ops::Range;
use std::sync::LazyLock;

use super::shared::invariants::{self, Unit};
use super::shared::{kinds, relevance, robust};
use super::{Compressed, Decline, Input, Trace};
use crate::content_type::Method;
use crate::detect::Parsed;
use crate::go::json::{self as gojson, write_json_str, Indexed, Json, Value};
use crate::go::regexp::WordSet;
use crate::go::unicode::fold_str;
use crate::tokens;

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

pub const ELIDED_KEY: &str = "__caveman_elided__";
const INVARIANTS_KEY: &str = "__caveman_invariants__";
const NOTE_KEY: &str = "__caveman_note__";
const NOTE: &str = "\u{2026} caveman: elided elements resemble shown elements and match the stated invariants \u{2014} answer from this view; if you truly cannot, one broad caveman_retrieve \u{2026}";

/// Keys whose whole subtree is copied verbatim (matched as
/// `(?i)^(…)$` with Go's simple case folding).
const PRESERVE_KEYS: [&str; 15] = [
    "error",
    "errors",
    "message",
    "msg",
    "stack",
    "stacktrace",
    "stack_trace",
    "trace",
    "traceback",
    "exception",
    "reason",
    "detail",
    "details",
    "warning",
    "warnings",
];

pub(super) fn is_preserve_key(k: &str) -> bool {
    // Longest key is 11 runes; `ſ` and the Kelvin sign take 2-3 bytes.
    k.len() <= 33 && PRESERVE_KEYS.contains(&fold_str(k).as_str())
}

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

/// The `json` registry row: the elider on what detection decoded, or the
/// best-of selector under `CAVE_ENGINE_TOON=best-of`.
pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    // A budget needs the lean view's levels, in either profile.
    if input.profile.is_lean() || input.budget.is_some() {
        return run_lean(input);
    }
    const NOTHING: Decline = Decline("invalid JSON, a second value, or no array collapsed");
    let elided = |(bytes, trace)| Compressed {
        reported: Some((Method::Elision, false)),
        ..Compressed::traced(bytes, trace)
    };
    if input.toon_best_of {
        return best_of(input.body, input.query).ok_or(Decline(
            "neither TOON nor elision has fewer tokens than the body",
        ));
    }
    match &input.parsed {
        Parsed::Json(v) => compress_decoded_traced(input.body, v.root(), input.query),
        _ => compress_traced(input.body, input.query),
    }
    .map(elided)
    .ok_or(NOTHING)
}

/// Lossless TOON wins over the cut view when it costs at most this much
/// more (in tokens): nothing is lost.
const LOSSLESS_SLACK: f64 = 1.10;
/// TOON is tried on bodies up to this size.
const TOON_MAX: usize = 8 << 20;

/// The lean JSON view (see [`lean`]): the cut view, or lossless TOON when
/// it costs about as little.
fn run_lean(input: &Input<'_>) -> Result<Compressed, Decline> {
    let decoded;
    let root = match &input.parsed {
        Parsed::Json(v) => Some(v.root()),
        _ => {
            decoded = gojson::decode_exact(
                crate::go::unicode::trim_space(input.body),
                lean::INPUT_ORDER,
            )
            .ok();
            decoded.as_ref().map(|t| t.root())
        }
    };
    let text = std::str::from_utf8(input.body).ok();
    let view_at = |level: lean::Level| match root {
        Some(r) => lean::view(r, input.query, level),
        None => text.and_then(|t| lean::view_ndjson(t, input.query, level)),
    };
    // Under a budget, the first level whose view fits (views shrink level
    // by level: a binary search).
    let levels = lean::Level::ALL;
    let counted = |level: lean::Level| {
        let v = view_at(level);
        let n = v.as_ref().map(|(b, _)| tokens::count(b));
        (v, n)
    };
    let (mut cut, mut cut_tokens) = counted(levels[0]);
    if let (Some(b), Some(n)) = (input.budget, cut_tokens) {
        if n > b {
            let (mut lo, mut hi) = (1, levels.len() - 1);
            let mut best = None;
            while lo <= hi {
                let mid = (lo + hi) / 2;
                let (v, n) = counted(levels[mid]);
                if n.is_some_and(|n| n <= b) {
                    best = Some((v, n));
                    if mid == 0 {
                        break;
                    }
                    hi = mid - 1;
                } else {
                    lo = mid + 1;
                }
            }
            match best {
                Some((v, n)) => {
                    cut = v;
                    cut_tokens = n;
                }
                None => {
                    let (v, n) = counted(levels[levels.len() - 1]);
                    cut = v;
                    cut_tokens = n;
                }
            }
        }
    }
    if root.is_none() && text.is_none() {
        return Err(Decline("not valid UTF-8"));
    }
    let toon_room = input
        .budget
        .map_or(TOON_MAX, |b| TOON_MAX.min(b.saturating_mul(8)));
    let toon = (root.is_some() && input.body.len() <= toon_room)
        .then(|| crate::toon::encode(input.body).ok())
        .flatten();
    if let Some(t) = toon {
        let n = tokens::count(&t);
        let wins = match cut_tokens {
            Some(c) => (n as f64) <= c as f64 * LOSSLESS_SLACK,
            None => true,
        } && input.budget.is_none_or(|b| n <= b);
        if wins {
            let mut trace = Trace::default();
            trace.add("every element (lossless TOON table)", 1);
            return Ok(Compressed {
                reported: Some((Method::Toon, true)),
                tokens: Some(n),
                ..Compressed::traced(t, trace)
            });
        }
    }
    match (cut, cut_tokens) {
        (Some((bytes, trace)), Some(n)) => Ok(Compressed {
            reported: Some((Method::Elision, false)),
            tokens: Some(n),
            ..Compressed::traced(bytes, trace)
        }),
        _ => Err(Decline("no array, map or string long enough to cut")),
    }
}

/// JSON best-of (engine.md §5): TOON or elision, whichever counts fewer
/// tokens than the body (ties go to TOON).
fn best_of(body: &[u8], query: &str) -> Option<Compressed> {
    let b0 = tokens::count(body);
    let mut best: Option<(Compressed, usize)> = None;
    if let Ok(t) = crate::toon::encode(body) {
        let n = tokens::count(&t);
        if n < b0 {
            let c = Compressed {
                reported: Some((Method::Toon, true)),
                tokens: Some(n),
                ..Compressed::new(t)
            };
            best = Some((c, n));
        }
    }
    if let Some(e) = compress(body, query) {
        let n = tokens::count(&e);
        if n < b0 && best.as_ref().is_none_or(|(_, m)| n < *m) {
            let c = Compressed {
                reported: Some((Method::Elision, false)),
                tokens: Some(n),
                ..Compressed::new(e)
            };
            best = Some((c, n));
        }
    }
    best.map(|(c, _)| c)
}

/// Compresses a JSON body; `None` when it declines (json.md §3).
pub fn compress(body: &[u8], query: &str) -> Option<Vec<u8>> {
    compress_traced(body, query).map(|(bytes, _)| bytes)
}

/// `compress_decoded_traced` without the trace.
pub fn compress_decoded(body: &[u8], trimmed: Json<'_>, query: &str) -> Option<Vec<u8>> {
    compress_decoded_traced(body, trimmed, query).map(|(bytes, _)| bytes)
}

/// [`compress`] with the account of what was kept and why.
fn compress_traced(body: &[u8], query: &str) -> Option<(Vec<u8>, Trace)> {
    let mut clock = crate::timings::Clock::new("json");
    let v = gojson::decode_go(body).ok()?;
    clock.mark("decode");
    walk_value(v.root(), body.len(), query, clock)
}

/// [`compress`] given the value detection decoded from the body with its
/// Unicode spaces trimmed. The elider's own decode reads the untrimmed
/// body, so it would fail on any space JSON does not allow around the
/// value (U+00A0, vertical tab, …): decline then, as it would.
fn compress_decoded_traced(
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

/// Interns numeric-leaf paths.
#[derive(Default)]
struct Paths {
    ids: rustc_hash::FxHashMap<String, u32>,
    names: Vec<String>,
    empty: Option<u32>,
}

impl Paths {
    fn id(&mut self, p: &str) -> u32 {
        // The path of an array of scalars, looked up once per element.
        if p.is_empty() {
            if let Some(i) = self.empty {
                return i;
            }
        }
        let i = self.intern(p);
        if p.is_empty() {
            self.empty = Some(i);
        }
        i
    }

    fn intern(&mut self, p: &str) -> u32 {
        if let Some(&i) = self.ids.get(p) {
            return i;
        }
        let i = self.names.len() as u32;
        self.ids.insert(p.to_string(), i);
        self.names.push(p.to_string());
        i
    }
}

/// Numeric leaves of one element, members in ascending key order, a later
/// write to the same path winning (json.md §5.3 step 1).
fn leaves(v: Json<'_>, path: &mut String, paths: &mut Paths, out: &mut Vec<(u32, f64)>) {
    match v.get() {
        Value::Number(n) => {
            if let Ok(x) = n.parse::<f64>() {
                if x.is_finite() {
                    let id = paths.id(path);
                    out.push((id, x));
                }
            }
        }
        Value::Object(m) => {
            for (k, val) in m {
                let keep = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                leaves(val, path, paths, out);
                path.truncate(keep);
            }
        }
        _ => {}
    }
}

/// What the numeric rules need of an array whose elements are all finite
/// numbers (the one path `""`, in every element).
enum Numbers {
    /// Some element is something else: every element's leaves are walked.
    Not,
    /// At most a few distinct values: their counts (no value is kept).
    Counted(Vec<(f64, usize)>),
    /// The values, parsed on every core straight into the result.
    Values(Vec<f64>),
}

/// The value of a number element, if it is a finite one.
fn number(item: Json<'_>) -> Option<f64> {
    match item.get() {
        Value::Number(t) => t.parse::<f64>().ok().filter(|v| v.is_finite()),
        _ => None,
    }
}

/// [`Numbers`] of an array: one pass on every core that checks and counts
/// its elements, a second that stores the values only when they are many.
fn numbers_only(items: &Indexed<'_>) -> Numbers {
    let n = items.len();
    if n == 0 || number(items.get(0)).is_none() {
        return Numbers::Not;
    }
    let tallies = crate::par::map(crate::par::ranges(n, 4096), |part| {
        let mut t = robust::Tally::default();
        for i in part {
            t.push(number(items.get(i))?);
        }
        Some(t)
    });
    let mut tally = robust::Tally::default();
    for t in tallies {
        let Some(t) = t else { return Numbers::Not };
        tally.merge(t);
    }
    if let Some(counts) = tally.finish() {
        return Numbers::Counted(counts);
    }
    let mut xs = vec![0.0f64; n];
    let size = n.div_ceil(crate::par::parts_for(n, 4096)).max(1);
    let parts: Vec<_> = xs.chunks_mut(size).enumerate().collect();
    crate::par::map(parts, |(k, xs)| {
        for (j, x) in xs.iter_mut().enumerate() {
            // Checked finite by the first pass.
            *x = number(items.get(k * size + j)).unwrap_or_default();
        }
    });
    Numbers::Values(xs)
}

/// Keeps the last value per path, in place, each path where it first
/// appeared.
fn last_wins(v: &mut Vec<(u32, f64)>) {
    let mut kept = 0;
    for j in 0..v.len() {
        let (id, x) = v[j];
        match v[..kept].iter_mut().find(|e| e.0 == id) {
            Some(e) => e.1 = x,
            None => {
                v[kept] = (id, x);
                kept += 1;
            }
        }
    }
    v.truncate(kept);
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
        self.numeric_rules(items, &lens, &mut keep);
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

        let runs = super::shared::dropped_runs(&keep);
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

    /// Anomalies (§5.3) and change-point seams (§5.4).
    fn numeric_rules(&self, items: &Indexed<'_>, lens: &[u32], keep: &mut [bool]) {
        let n = items.len();
        let mut paths = Paths::default();
        // Per path: the elements that have it, and its values.
        let mut per_path: Vec<(Option<Vec<u32>>, Vec<f64>)> = Vec::new();
        let mut buf = Vec::new();
        let mut path = String::new();
        // A path first seen at element i has at most n - i values: give it
        // that room rather than doubling (each outgrown buffer's pages stay
        // with the allocator), as long as all the room given stays within
        // the number of numbers in the array. Untouched room costs nothing.
        let mut room = 0;
        let mut stats = robust::Robust::default();
        match numbers_only(items) {
            Numbers::Counted(counts) => {
                // The one path's anomalies from its counts, its values
                // parsed again only to find them; the change-point series
                // is the lengths (an unnamed path is never chosen).
                let (c, s) = robust::robust_counted(&counts, n);
                if n >= robust::MIN_VALUES && s > 0.0 {
                    for (i, k) in keep.iter_mut().enumerate() {
                        if number(items.get(i)).is_some_and(|v| robust::is_anomaly(v, c, s)) {
                            *k = true;
                        }
                    }
                }
            }
            Numbers::Values(xs) => {
                paths.id("");
                per_path.push((None, xs));
            }
            Numbers::Not => room = (0..n).map(|i| items.get(i).numbers()).sum::<usize>(),
        }
        let walk = room > 0;
        // Anything but an array of numbers: every element's leaves.
        let scan = if walk { 0..n } else { 0..0 };
        for i in scan {
            buf.clear();
            leaves(items.get(i), &mut path, &mut paths, &mut buf);
            last_wins(&mut buf);
            for &(id, x) in &buf {
                let id = id as usize;
                if per_path.len() <= id {
                    per_path.resize(id + 1, Default::default());
                    if room >= n - i {
                        room -= n - i;
                        per_path[id].1.reserve_exact(n - i);
                    }
                }
                let (at, xs) = &mut per_path[id];
                // `at` stays `None` while the path is in every element so
                // far (element j holds value j): no index per element for
                // a full-coverage path.
                if at.is_none() && xs.len() != i {
                    *at = Some((0..xs.len() as u32).collect());
                }
                if let Some(at) = at {
                    at.push(i as u32);
                }
                xs.push(x);
            }
        }
        // Change-point series: the full-coverage path with the highest variance.
        let mut full: Vec<usize> = (0..per_path.len())
            .filter(|&p| per_path[p].1.len() == n)
            .collect();
        full.sort_by(|&a, &b| paths.names[a].as_bytes().cmp(paths.names[b].as_bytes()));
        let mut best = -1.0;
        let mut chosen: Option<usize> = None;
        for p in full {
            let vals = &per_path[p].1;
            let mut sum = 0.0;
            for &x in vals {
                sum += x;
            }
            let mean = sum / n as f64;
            let mut ss = 0.0;
            for &x in vals {
                ss += (x - mean) * (x - mean);
            }
            let var = ss / (n - 1) as f64;
            if var > best {
                best = var;
                chosen = Some(p);
            }
        }
        // Anomalies: every path, with the synthetic length path replacing
        // `__len__`; lengths are read as they are, not copied to floats.
        let len_id = paths.ids.get("__len__").copied();
        for (p, (at, xs)) in per_path.iter().enumerate() {
            if Some(p as u32) == len_id {
                continue;
            }
            for j in stats.anomalies(xs) {
                keep[at.as_ref().map_or(j, |at| at[j] as usize)] = true;
            }
        }
        for j in stats.anomalies(lens) {
            keep[j] = true;
        }
        let seams = match chosen {
            Some(p) if !paths.names[p].is_empty() => stats.change_points(&per_path[p].1),
            _ => stats.change_points(lens),
        };
        for s in seams {
            keep[s] = true;
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
