//! `--budget N` for one JSON document the JSON compressor could not fit:
//! the document's main collection (the array or object that holds most of
//! its bytes, found by descending while one child holds most of its
//! parent) keeps whole elements in priority order — those that carry an
//! error first, then query hits, then the first and the last, then the
//! rest in order — while the view fits; one marker element (a marker
//! member for an object) counts what went and how many error elements did
//! not fit. Everything outside the collection is written as it is, so the
//! view is JSON and a sub-document of the original.

use crate::compress::shared::signal;
use crate::go::json::{self, Json, Keys, Options, Value};

mod errors;
use errors::errors_in;

/// Parts of a container: `(key, value)`; arrays have no keys.
type Part<'t> = (Option<&'t str>, Json<'t>);

/// The fitted view, or `None` when the body is not one JSON document or
/// even its skeleton does not fit.
pub fn fit(body: &[u8], budget: usize, query: &str) -> Option<Vec<u8>> {
    let text = crate::go::unicode::trim_space(body);
    let opts = Options {
        keys: Keys::InputOrder,
        max_depth: json::MAX_DEPTH,
    };
    // JSONP (`callback({...});`): the document inside its call, written
    // back inside it.
    let (text, wrapper): (&[u8], (&[u8], &[u8])) = match jsonp(text) {
        Some((head, inner, tail)) => (inner, (head, tail)),
        None => (text, (b"", b"")),
    };
    let tape = json::decode_exact(text, opts).ok()?;
    let root = tape.root();
    let path = collection(root)?;
    let coll = walk(root, &path);
    let parts = parts_of(coll);
    let n = parts.len();
    let terms: Vec<String> = query
        .split_whitespace()
        .map(str::to_lowercase)
        .filter(|t| !t.is_empty())
        .collect();
    let errors: Vec<bool> = parts.iter().map(|p| carries_error(*p)).collect();
    // The surest errors first: a strong word or shape (`failed`,
    // `KeyError`) before a weak word alone (`cannot`, `not found`).
    let sure: Vec<bool> = (0..n)
        .map(|i| errors[i] && carries_sure_error(parts[i]))
        .collect();
    let hits: Vec<bool> = parts
        .iter()
        .map(|p| !terms.is_empty() && holds_term(*p, &terms))
        .collect();
    let mut rank: Vec<usize> = (0..n).filter(|&i| sure[i]).collect();
    rank.extend((0..n).filter(|&i| errors[i] && !sure[i]));
    rank.extend((0..n).filter(|&i| hits[i] && !errors[i]));
    for i in [0, n - 1] {
        if !rank.contains(&i) {
            rank.push(i);
        }
    }
    let ranked: std::collections::BTreeSet<usize> = rank.iter().copied().collect();
    rank.extend((0..n).filter(|i| !ranked.contains(i)));
    let total_errors = errors.iter().filter(|&&e| e).count();

    let mut chosen: Vec<Option<Chosen>> = vec![None; n];
    let view = |chosen: &[Option<Chosen>], values_left: usize| {
        let mut out = Vec::new();
        let kept_errors = (0..n).filter(|&i| chosen[i].is_some() && errors[i]).count();
        let marker = Marker {
            total: n,
            dropped: n - chosen.iter().filter(|c| c.is_some()).count(),
            errors_left: total_errors - kept_errors,
            values_left,
            cut: chosen
                .iter()
                .filter(|c| matches!(c, Some(Chosen::Cut(_))))
                .count(),
            object: coll.is_object(),
        };
        write_doc(&mut out, root, &path, &parts, chosen, &marker);
        let mut doc = wrapper.0.to_vec();
        doc.extend_from_slice(&out);
        doc.extend_from_slice(wrapper.1);
        doc.push(b'\n');
        doc
    };
    let skeleton = crate::tokens::count(&view(&chosen, 0));
    // Error values a view does not hold are counted by its marker.
    let all = error_count(text).unwrap_or(0);
    if skeleton > budget {
        // What lies beside the collection does not fit either: the whole
        // document cut to what carries its errors, when something does.
        // Its marker counts the error values that did not fit.
        let room = budget.checked_sub(wrapper_cost(wrapper) + 1)?;
        let doc = |cut: &[u8]| {
            let mut doc = wrapper.0.to_vec();
            doc.extend_from_slice(cut);
            doc.extend_from_slice(wrapper.1);
            doc.push(b'\n');
            doc
        };
        let noted_cut = room
            .checked_sub(NOTE_ROOM)
            .and_then(|r| cut_to_errors(root, r))
            .map(|(cut, _)| doc(&noted(&cut, all)))
            .filter(|d| crate::tokens::count(d) <= budget);
        if noted_cut.is_some() {
            return noted_cut;
        }
        let (cut, _) = cut_to_errors(root, room)?;
        let doc = doc(&cut);
        return (crate::tokens::count(&doc) <= budget).then_some(doc);
    }
    // Greedy by rank on each part's own count (a part costs its tokens
    // plus a separator), then checked on the whole view. An error part
    // too large for what is left is cut inside: its error-bearing fields
    // (and what names it) stay, the rest is counted by a marker member.
    let mut used = skeleton + if all > 0 { NOTE_ROOM } else { 0 };
    let mut added = Vec::new();
    // Error parts whole while they fit, then the error parts left cut to
    // their errors, then the rest whole: an error element that fits whole
    // is never crowded out by cuts of larger ones.
    let errors_end = rank.iter().take_while(|&&i| errors[i]).count();
    let order = rank[..errors_end]
        .iter()
        .map(|&i| (i, false))
        .chain(rank[..errors_end].iter().map(|&i| (i, true)))
        .chain(rank[errors_end..].iter().map(|&i| (i, false)));
    for (i, cut) in order {
        if chosen[i].is_some() {
            continue;
        }
        let mut one = Vec::new();
        if let Some(k) = parts[i].0 {
            write_str(&mut one, k);
            one.push(b':');
        }
        let head = one.len();
        if !cut {
            write_value(&mut one, parts[i].1);
            let cost = crate::tokens::count(&one) + 1;
            if used + cost <= budget {
                chosen[i] = Some(Chosen::Whole);
                used += cost;
                added.push(i);
            }
        } else if used + MIN_CUT < budget {
            let key = crate::tokens::count(&one[..head]) + 1;
            let room = budget.saturating_sub(used + key + CUT_NOTE);
            if let Some((bytes, t)) = cut_to_errors(parts[i].1, room) {
                chosen[i] = Some(Chosen::Cut(bytes));
                used += t + key + CUT_NOTE;
                added.push(i);
            }
        }
    }
    loop {
        let mut out = view(&chosen, 0);
        let lost = all.saturating_sub(error_count(&out).unwrap_or(all));
        if lost > 0 {
            out = view(&chosen, lost);
        }
        if crate::tokens::count(&out) <= budget {
            return Some(out);
        }
        let last = added.pop()?;
        chosen[last] = None;
    }
}

/// Tokens of a JSONP call's head and tail.
fn wrapper_cost((head, tail): (&[u8], &[u8])) -> usize {
    crate::tokens::count(head) + crate::tokens::count(tail)
}

/// A part of the collection in the view: whole, or cut to its errors.
#[derive(Clone)]
enum Chosen {
    Whole,
    Cut(Vec<u8>),
}

/// Tokens left that make cutting an error part worth a try.
const MIN_CUT: usize = 24;
/// Tokens the marker's note of cut parts may add.
const CUT_NOTE: usize = 12;
/// Members that name a record: kept beside its errors when cut.
const NAMING: &[&str] = &[
    "id",
    "name",
    "type",
    "title",
    "key",
    "kind",
    "status",
    "state",
    "code",
    "tool",
    "uri",
    "path",
    "file",
    "version",
    "created_at",
];
/// A naming member's value longer than this is not kept.
const NAMING_MAX: usize = 96;

/// `v` cut to what carries its error within `room` tokens: an object
/// keeps its naming members (`id`, `name`, `type`, …) and its members that
/// carry an error, each cut in turn when too large; an array keeps its
/// error elements; whatever went is counted by a marker member (element).
/// `None` when not even one error-bearing leaf fits.
fn cut_to_errors(v: Json<'_>, room: usize) -> Option<(Vec<u8>, usize)> {
    let mut whole = Vec::new();
    write_value(&mut whole, v);
    let t = crate::tokens::count(&whole);
    if t <= room {
        return Some((whole, t));
    }
    let object = v.is_object();
    let parts = parts_of(v);
    if parts.is_empty() {
        // A scalar too large for the room: not cut (a value is kept whole
        // or not at all).
        return None;
    }
    let marker = |dropped: usize| {
        if object {
            format!("\"__caveman_elided__\":{dropped}")
        } else {
            format!("{{\"__caveman_elided__\":{dropped}}}")
        }
    };
    // Room for the brackets and the marker.
    let overhead = 2 + crate::tokens::count(marker(parts.len()).as_bytes()) + 1;
    let mut left = room.checked_sub(overhead)?;
    let mut kept: Vec<Option<Vec<u8>>> = vec![None; parts.len()];
    let mut any_error = false;
    // Naming members, then sure errors, then weak ones.
    for pass in [Pass::Naming, Pass::Sure, Pass::Weak] {
        for (i, p) in parts.iter().enumerate() {
            if kept[i].is_some() {
                continue;
            }
            let named = object
                && p.0.is_some_and(|k| NAMING.contains(&k))
                && !p.1.is_container()
                && size(p.1) <= NAMING_MAX;
            let wanted = match pass {
                Pass::Naming => named,
                Pass::Sure => !named && carries_sure_error(*p),
                Pass::Weak => !named && carries_error(*p),
            };
            if !wanted {
                continue;
            }
            let mut key = Vec::new();
            if let Some(k) = p.0 {
                write_str(&mut key, k);
                key.push(b':');
            }
            let kt = crate::tokens::count(&key) + 1;
            let Some(r) = left.checked_sub(kt) else {
                continue;
            };
            if let Some((bytes, bt)) = cut_to_errors(p.1, r) {
                key.extend_from_slice(&bytes);
                kept[i] = Some(key);
                left -= kt + bt;
                any_error |= carries_error(*p);
            }
        }
    }
    if !any_error {
        return None;
    }
    let mut out = Vec::new();
    out.push(if object { b'{' } else { b'[' });
    let mut first = true;
    for k in kept.iter().flatten() {
        if !first {
            out.push(b',');
        }
        first = false;
        out.extend_from_slice(k);
    }
    let dropped = kept.iter().filter(|k| k.is_none()).count();
    if dropped > 0 {
        if !first {
            out.push(b',');
        }
        out.extend_from_slice(marker(dropped).as_bytes());
    }
    out.push(if object { b'}' } else { b']' });
    let t = crate::tokens::count(&out);
    (t <= room).then_some((out, t))
}

/// Whether `body` is JSONP: one JSON document inside a call.
pub fn is_jsonp(body: &[u8]) -> bool {
    jsonp(crate::go::unicode::trim_space(body)).is_some()
}

/// Whether a JSON document (JSONP too) carries an error outside the
/// engine's own markers (`__caveman_…` members); `None` when `doc` is not
/// one JSON document.
pub fn holds_error(doc: &[u8]) -> Option<bool> {
    let text = crate::go::unicode::trim_space(doc);
    let text = jsonp(text).map_or(text, |(_, inner, _)| inner);
    let opts = Options {
        keys: Keys::InputOrder,
        max_depth: json::MAX_DEPTH,
    };
    let tape = json::decode_exact(text, opts).ok()?;
    let mut stack: Vec<(Option<&str>, Json<'_>)> = vec![(None, tape.root())];
    while let Some((k, v)) = stack.pop() {
        if k.is_some_and(|k| k.starts_with("__caveman_")) {
            continue;
        }
        if k.is_some_and(|k| error_key(k) || signal::is_error(k)) && truthy(v)
            || matches!(v.get(), Value::String(s) if signal::is_error(s))
        {
            return Some(true);
        }
        stack.extend(parts_of(v));
    }
    Some(false)
}

/// How many values of a JSON document (JSONP too; NDJSON by line) carry a
/// sure error outside the engine's markers: strings, and truthy members
/// by their key (`"failures": 3`; `"alert": "green"` is a level, a weak
/// word); `None` when `doc` is no JSON. A view holding fewer lost some.
pub fn error_count(doc: &[u8]) -> Option<usize> {
    let text = crate::go::unicode::trim_space(doc);
    let text = jsonp(text).map_or(text, |(_, inner, _)| inner);
    let opts = Options {
        keys: Keys::InputOrder,
        max_depth: json::MAX_DEPTH,
    };
    let Ok(tape) = json::decode_exact(text, opts) else {
        // NDJSON: the values of its lines.
        let counts: Vec<usize> = text
            .split(|&b| b == b'\n')
            .filter_map(|l| {
                let l = crate::go::unicode::trim_space(l);
                let t = json::decode_exact(l, opts).ok()?;
                Some(errors_in(t.root()))
            })
            .collect();
        return (!counts.is_empty()).then(|| counts.iter().sum());
    };
    Some(errors_in(tape.root()))
}

/// Tokens a note of error values that did not fit may cost.
pub const NOTE_ROOM: usize = 16;

/// `view` (JSON or NDJSON) with a marker counting the `all` error values
/// of its original ([`error_count`]) it does not hold: a member of a root
/// object, an element of a root array, a line of NDJSON; else unchanged.
pub fn noted(view: &[u8], all: usize) -> Vec<u8> {
    let lost = error_count(view).map_or(0, |kept| all.saturating_sub(kept));
    if lost == 0 {
        return view.to_vec();
    }
    let note = format!("\"__caveman_invariants__\":\"{lost} values with errors did not fit\"");
    let opts = Options {
        keys: Keys::InputOrder,
        max_depth: json::MAX_DEPTH,
    };
    let end = view
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |e| e + 1);
    if jsonp(crate::go::unicode::trim_space(view)).is_some() {
        return view.to_vec();
    }
    let Ok(tape) = json::decode_exact(&view[..end], opts) else {
        // NDJSON: a line of its own.
        let mut out = view[..end].to_vec();
        out.push(b'\n');
        out.extend_from_slice(format!("{{{note}}}").as_bytes());
        out.extend_from_slice(&view[end..]);
        return out;
    };
    let (insert, empty) = match tape.root().get() {
        Value::Array(a) => (format!("{{{note}}}"), a.is_empty()),
        Value::Object(m) if !m.iter().any(|(k, _)| k == "__caveman_invariants__") => {
            (note, m.is_empty())
        }
        _ => return view.to_vec(),
    };
    let close = end - 1;
    let mut out = view[..close].to_vec();
    if !empty {
        out.push(b',');
    }
    out.extend_from_slice(insert.as_bytes());
    out.extend_from_slice(&view[close..]);
    out
}

/// A JSONP body: the callback's head (`name(`), the JSON document inside,
/// and the tail (`);` and a line break).
fn jsonp(text: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let open = text.iter().position(|&b| b == b'(')?;
    let name = std::str::from_utf8(&text[..open]).ok()?.trim_end();
    let callable = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
    if !callable {
        return None;
    }
    let mut end = text.len();
    if text.get(end - 1) == Some(&b';') {
        end -= 1;
    }
    let close = text[..end].iter().rposition(|b| !b.is_ascii_whitespace())?;
    if text[close] != b')' || close <= open {
        return None;
    }
    let inner = crate::go::unicode::trim_space(&text[open + 1..close]);
    matches!(inner.first(), Some(b'{' | b'[')).then_some((&text[..open + 1], inner, &text[close..]))
}

/// What the marker says.
struct Marker {
    total: usize,
    dropped: usize,
    errors_left: usize,
    /// Error parts kept cut to their errors.
    cut: usize,
    /// Error values of the document the view does not hold.
    values_left: usize,
    object: bool,
}

impl Marker {
    fn invariants(&self) -> String {
        let what = if self.object { "members" } else { "elements" };
        let mut s = format!(
            "{} total {what}, {} elided to fit the budget (errors first, then query hits, then the first and last)",
            self.total, self.dropped
        );
        if self.cut > 0 {
            s.push_str(&format!(
                "; {} {what} with errors cut to their error fields, the rest of each counted inside it",
                self.cut
            ));
        }
        if self.errors_left > 0 {
            s.push_str(&format!(
                "; {} {what} with errors did not fit",
                self.errors_left
            ));
        } else if self.values_left > 0 {
            s.push_str(&format!(
                "; {} values with errors did not fit",
                self.values_left
            ));
        }
        s
    }
}

/// The path (child indexes) to the document's main collection.
fn collection(root: Json<'_>) -> Option<Vec<usize>> {
    let mut path = Vec::new();
    let mut at = root;
    loop {
        let parts = parts_of(at);
        if parts.is_empty() {
            return None;
        }
        let sizes: Vec<usize> = parts.iter().map(|p| size(p.1)).collect();
        let whole: usize = sizes.iter().sum();
        let (big, &most) = sizes.iter().enumerate().max_by_key(|(_, s)| **s)?;
        let child = parts[big].1;
        if child.is_container() && !parts_of(child).is_empty() && most * 5 >= whole * 4 {
            path.push(big);
            at = child;
            continue;
        }
        return (parts.len() >= 2).then_some(path);
    }
}

fn walk<'t>(mut at: Json<'t>, path: &[usize]) -> Json<'t> {
    for &i in path {
        at = parts_of(at)[i].1;
    }
    at
}

fn parts_of(j: Json<'_>) -> Vec<Part<'_>> {
    match j.get() {
        Value::Array(a) => a.iter().map(|v| (None, v)).collect(),
        Value::Object(m) => m.iter().map(|(k, v)| (Some(k), v)).collect(),
        _ => Vec::new(),
    }
}

/// The encoded length of a value, near enough to rank by.
fn size(j: Json<'_>) -> usize {
    match j.get() {
        Value::Null => 4,
        Value::Bool(_) => 5,
        Value::Number(t) => t.len(),
        Value::String(s) => s.len() + 2,
        Value::Array(a) => 2 + a.iter().map(|v| size(v) + 1).sum::<usize>(),
        Value::Object(m) => 2 + m.iter().map(|(k, v)| k.len() + 4 + size(v)).sum::<usize>(),
    }
}

/// A part carries an error: a string value (or its key) the classifier
/// calls one, or a truthy `error`/`errors`/`exception`/`failure` member
/// (at any depth).
fn carries_error((key, v): Part<'_>) -> bool {
    if key.is_some_and(signal::is_error) {
        return true;
    }
    any_leaf(v, &mut |k, leaf| {
        k.is_some_and(error_key) && truthy(leaf)
            || matches!(leaf.get(), Value::String(s) if signal::is_error(s))
    })
}

/// As [`carries_error`], but a weak word (`cannot`, `not found`: prose as
/// often as a failure) does not count.
fn carries_sure_error((key, v): Part<'_>) -> bool {
    if key.is_some_and(signal::is_error_cell) {
        return true;
    }
    any_leaf(v, &mut |k, leaf| {
        k.is_some_and(error_key) && truthy(leaf)
            || matches!(leaf.get(), Value::String(s) if signal::is_error_cell(s))
    })
}

/// The passes of [`cut_to_errors`] over an element's members.
#[derive(Clone, Copy)]
enum Pass {
    Naming,
    Sure,
    Weak,
}

/// A member whose name says it holds an error.
fn error_key(k: &str) -> bool {
    matches!(
        k.to_ascii_lowercase().as_str(),
        "error" | "errors" | "exception" | "failure" | "err"
    )
}

/// A value that says something: not null, false, zero or empty.
fn truthy(j: Json<'_>) -> bool {
    match j.get() {
        Value::Null | Value::Bool(false) => false,
        Value::Bool(true) => true,
        Value::Number(t) => t.bytes().any(|b| (b'1'..=b'9').contains(&b)),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

fn holds_term((key, v): Part<'_>, terms: &[String]) -> bool {
    let has = |s: &str| {
        let l = s.to_lowercase();
        terms.iter().any(|t| l.contains(t.as_str()))
    };
    key.is_some_and(has)
        || any_leaf(v, &mut |_, leaf| match leaf.get() {
            Value::String(s) | Value::Number(s) => has(s),
            _ => false,
        })
}

/// Whether `f` holds for some value in `j` (containers too, with the key
/// they sit under), depth first.
fn any_leaf<'t>(j: Json<'t>, f: &mut impl FnMut(Option<&str>, Json<'t>) -> bool) -> bool {
    let mut stack: Vec<(Option<&str>, Json<'t>)> = vec![(None, j)];
    while let Some((k, v)) = stack.pop() {
        if f(k, v) {
            return true;
        }
        match v.get() {
            Value::Array(a) => stack.extend(a.iter().map(|x| (None, x))),
            Value::Object(m) => {
                stack.extend(m.iter().map(|(mk, mv)| (Some(mk), mv)));
            }
            _ => {}
        }
    }
    false
}

fn write_doc(
    out: &mut Vec<u8>,
    at: Json<'_>,
    path: &[usize],
    coll: &[Part<'_>],
    chosen: &[Option<Chosen>],
    marker: &Marker,
) {
    let Some((&next, rest)) = path.split_first() else {
        write_collection(out, coll, chosen, marker);
        return;
    };
    let object = at.is_object();
    out.push(if object { b'{' } else { b'[' });
    for (i, (k, v)) in parts_of(at).into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if let Some(k) = k {
            write_str(out, k);
            out.push(b':');
        }
        if i == next {
            write_doc(out, v, rest, coll, chosen, marker);
        } else {
            write_value(out, v);
        }
    }
    out.push(if object { b'}' } else { b']' });
}

fn write_collection(
    out: &mut Vec<u8>,
    parts: &[Part<'_>],
    chosen: &[Option<Chosen>],
    marker: &Marker,
) {
    let object = marker.object;
    out.push(if object { b'{' } else { b'[' });
    let mut first = true;
    for (p, c) in parts.iter().zip(chosen) {
        let Some(c) = c else { continue };
        if !first {
            out.push(b',');
        }
        first = false;
        if let Some(k) = p.0 {
            write_str(out, k);
            out.push(b':');
        }
        match c {
            Chosen::Whole => write_value(out, p.1),
            Chosen::Cut(bytes) => out.extend_from_slice(bytes),
        }
    }
    if marker.dropped > 0 {
        if !first {
            out.push(b',');
        }
        let inv = marker.invariants();
        if object {
            out.extend_from_slice(format!("\"__caveman_elided__\":{},", marker.dropped).as_bytes());
            out.extend_from_slice(b"\"__caveman_invariants__\":");
            write_str(out, &inv);
        } else {
            out.extend_from_slice(
                format!("{{\"__caveman_elided__\":{},", marker.dropped).as_bytes(),
            );
            out.extend_from_slice(b"\"__caveman_invariants__\":");
            write_str(out, &inv);
            out.push(b'}');
        }
    }
    out.push(if object { b'}' } else { b']' });
}

/// Compact JSON; strings escaped as JSON requires and no more (no
/// `\u003c` for `<`: the view is read, not embedded in HTML).
fn write_value(out: &mut Vec<u8>, j: Json<'_>) {
    match j.get() {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        Value::Number(t) => out.extend_from_slice(t.as_bytes()),
        Value::String(s) => write_str(out, s),
        Value::Array(a) => {
            out.push(b'[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, v);
            }
            out.push(b']');
        }
        Value::Object(m) => {
            out.push(b'{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(out, k);
                out.push(b':');
                write_value(out, v);
            }
            out.push(b'}');
        }
    }
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    match serde_json::to_string(s) {
        Ok(q) => out.extend_from_slice(q.as_bytes()),
        Err(_) => json::write_json_str(out, s.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(n: usize, bad: usize) -> String {
        let items: Vec<String> = (0..n)
            .map(|i| {
                let status = if i == bad { "failed: disk full" } else { "ok" };
                format!(r#"{{"id":{i},"name":"job-{i}","status":"{status}","note":"an ordinary record with some words"}}"#)
            })
            .collect();
        format!(r#"{{"kind":"List","items":[{}]}}"#, items.join(","))
    }

    #[test]
    fn the_error_element_comes_first_and_counts_add_up() {
        let doc = records(500, 321);
        let out = fit(doc.as_bytes(), 300, "").expect("fits");
        assert!(crate::tokens::count(&out) <= 300);
        let v: serde_json::Value = serde_json::from_slice(&out).expect("valid JSON");
        assert_eq!(v["kind"], "List");
        let items = v["items"].as_array().unwrap();
        assert!(items.iter().any(|e| e["id"] == 321), "{v}");
        let kept = items.iter().filter(|e| e.get("id").is_some()).count();
        let marker = items.last().unwrap();
        assert_eq!(
            kept as u64 + marker["__caveman_elided__"].as_u64().unwrap(),
            500
        );
    }

    #[test]
    fn query_hits_follow_errors() {
        let doc = records(400, 7);
        let out = fit(doc.as_bytes(), 300, "job-250").unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let items = v["items"].as_array().unwrap();
        assert!(items.iter().any(|e| e["id"] == 7));
        assert!(items.iter().any(|e| e["id"] == 250));
    }

    #[test]
    fn a_map_of_members_keeps_a_marker_member() {
        let members: Vec<String> = (0..300)
            .map(|i| {
                format!(
                    r#""pkg{i}":{{"version":"1.{i}.0","error":{}}}"#,
                    if i == 99 { "\"yanked\"" } else { "null" }
                )
            })
            .collect();
        let doc = format!("{{{}}}", members.join(","));
        let out = fit(doc.as_bytes(), 200, "").unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let m = v.as_object().unwrap();
        assert!(m.contains_key("pkg99"), "{v}");
        let kept = m.keys().filter(|k| k.starts_with("pkg")).count() as u64;
        assert_eq!(kept + m["__caveman_elided__"].as_u64().unwrap(), 300);
    }

    #[test]
    fn not_json_or_too_small_a_budget_is_none() {
        assert!(fit(b"{\"a\":1", 100, "").is_none());
        assert!(fit(records(50, 1).as_bytes(), 5, "").is_none());
    }
}
