//! The accessibility-tree compressor (content type `a11y`, method `a11y`;
//! `--type a11y` only; spec/a11y.md): a Chrome DevTools AX tree walked
//! from its roots, ignored/generic/inline-text-box noise and duplicated
//! static text dropped, one indented line per remaining node with a short
//! `[uid]` handle on actionable ones. With a query only the best-matching
//! nodes, their ancestors and whole rows/list items are printed. The
//! uid → DOM node map is stored as the record's metadata, never printed.
//!
//! Over 600 lines with its tests: the walk, the noise rules and the query
//! selection share one node table and are read together; decoding the
//! DevTools envelope already lives in `decode.rs`.

mod decode;

use std::collections::BTreeMap;

use self::decode::Node;
use super::{Compressed, Decline, Input};
use crate::content_type::Method;
use crate::go::json::{self as gojson, write_json_str, Json, Keys, Options, Value};
use crate::go::strconv::{format_float, quote};
use crate::go::unicode::{is_letter, is_number, lower};

/// At most this many nodes are matched by a query.
const QUERY_MATCHES: usize = 12;

const STATE_NAMES: [&str; 6] = [
    "disabled", "checked", "expanded", "selected", "focused", "editable",
];
const UID_ROLES: [&str; 16] = [
    "button",
    "checkbox",
    "combobox",
    "link",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "searchbox",
    "slider",
    "spinbutton",
    "switch",
    "tab",
    "textbox",
    "treeitem",
];
const NO_UID_ROLES: [&str; 38] = [
    "main",
    "navigation",
    "region",
    "group",
    "generic",
    "none",
    "presentational",
    "heading",
    "paragraph",
    "statictext",
    "inlinetextbox",
    "labeltext",
    "list",
    "listitem",
    "table",
    "row",
    "cell",
    "rowheader",
    "columnheader",
    "grid",
    "tree",
    "directory",
    "separator",
    "toolbar",
    "banner",
    "complementary",
    "contentinfo",
    "article",
    "figure",
    "img",
    "image",
    "form",
    "status",
    "alert",
    "log",
    "timer",
    "tooltip",
    "document",
];

/// A node's state: each state property's value, as read.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct State {
    disabled: Option<bool>,
    checked: Option<bool>,
    expanded: Option<bool>,
    selected: Option<bool>,
    focused: Option<bool>,
    editable: Option<bool>,
}

impl State {
    fn is_empty(&self) -> bool {
        *self == State::default()
    }

    fn set(&mut self, name: &str, v: bool) {
        match name {
            "disabled" => self.disabled = Some(v),
            "checked" => self.checked = Some(v),
            "expanded" => self.expanded = Some(v),
            "selected" => self.selected = Some(v),
            "focused" => self.focused = Some(v),
            _ => self.editable = Some(v),
        }
    }

    /// The labels rendering prints (a11y.md §7 step 6), in order.
    fn labels(&self) -> Vec<&'static str> {
        let mut l = Vec::new();
        if self.disabled == Some(true) {
            l.push("disabled");
        }
        match self.checked {
            Some(true) => l.push("checked"),
            Some(false) => l.push("unchecked"),
            None => {}
        }
        match self.expanded {
            Some(true) => l.push("expanded"),
            Some(false) => l.push("collapsed"),
            None => {}
        }
        if self.selected == Some(true) {
            l.push("selected");
        }
        if self.focused == Some(true) {
            l.push("focused");
        }
        if self.editable == Some(true) {
            l.push("editable");
        }
        l
    }
}

/// One line of output.
#[derive(Debug, Clone)]
struct Record {
    depth: usize,
    role: String,
    name: String,
    value: String,
    state: State,
    uid: Option<String>,
}

/// Where a uid points: what the recovery metadata stores.
#[derive(Debug, Clone)]
struct Target {
    backend: i64,
    frame: String,
    node_id: String,
}

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let body = input.body;
    if crate::go::unicode::is_blank(body) || !gojson::is_valid(body) {
        return Err(Decline("blank or not valid JSON"));
    }
    let opts = Options {
        keys: Keys::InputOrder,
        max_depth: gojson::MAX_DEPTH,
    };
    let tape = gojson::decode_exact(body, opts).map_err(|_| Decline("not valid JSON"))?;
    let nodes = match decode::bare(tape.root()) {
        Ok(n) if !n.is_empty() => n,
        _ => match decode::envelope(tape.root()) {
            Ok(n) if !n.is_empty() => n,
            _ => return Err(Decline("no accessibility nodes")),
        },
    };
    check(&nodes)?;
    let (mut records, targets) = curate(&nodes);
    if records.is_empty() {
        return Err(Decline("no node survives curation"));
    }
    if !input.query.is_empty() {
        records = focus(records, input.query);
    }
    let mut text = String::new();
    let mut printed: BTreeMap<&str, &Target> = BTreeMap::new();
    for (k, r) in records.iter().enumerate() {
        if k > 0 {
            text.push('\n');
        }
        render(&mut text, r);
        if let Some(uid) = &r.uid {
            if let Some(t) = targets.get(uid) {
                printed.insert(uid, t);
            }
        }
    }
    Ok(Compressed {
        reported: Some((Method::A11y, false)),
        metadata: metadata(&printed),
        ..Compressed::new(text.into_bytes())
    })
}

/// The body is a Chrome DevTools accessibility tree (the nodes of
/// `Accessibility.getFullAXTree`: a list, or `{"nodes": [...]}`, of
/// objects with a `nodeId` and a `role` object): the lean JSON view
/// renders it as this compressor does (an outline), never as sampled
/// JSON. A cheap look at the first node; [`run`] checks the rest.
pub(super) fn is_tree(root: Json<'_>) -> bool {
    let nodes = match root.get() {
        Value::Array(items) => items,
        Value::Object(m) => match m.iter().find(|(k, _)| *k == "nodes").map(|(_, v)| v.get()) {
            Some(Value::Array(items)) => items,
            _ => return false,
        },
        _ => return false,
    };
    let Some(first) = nodes.iter().next() else {
        return false;
    };
    let Value::Object(m) = first.get() else {
        return false;
    };
    let has = |key: &str, object: bool| {
        m.iter()
            .any(|(k, v)| k == key && (!object || matches!(v.get(), Value::Object(_))))
    };
    has("nodeId", false) && has("role", true)
}

/// a11y.md §2 step 3: unique non-empty ids, a role on every node that is
/// not ignored, and at least one such node.
fn check(nodes: &[Node<'_>]) -> Result<(), Decline> {
    let mut ids = rustc_hash::FxHashSet::default();
    let mut any = false;
    for n in nodes {
        if n.node_id.is_empty() || !ids.insert(n.node_id.as_str()) {
            return Err(Decline("a node id is empty or repeated"));
        }
        if !n.ignored {
            if compact(n.role.value).is_empty() {
                return Err(Decline("a node has no role"));
            }
            any = true;
        }
    }
    if !any {
        return Err(Decline("every node is ignored"));
    }
    Ok(())
}

/// compact(v) of a11y.md §3.
fn compact(v: Option<Json<'_>>) -> String {
    let Some(v) = v else {
        return String::new();
    };
    match v.get() {
        Value::Null => String::new(),
        Value::String(s) => fields(s),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            crate::go::strconv::parse_float(n).map_or_else(String::new, |f| format!("{f}"))
        }
        Value::Array(_) | Value::Object(_) => {
            let mut out = Vec::new();
            marshal_any(&mut out, v);
            fields(&String::from_utf8_lossy(&out))
        }
    }
}

/// Go `strings.Join(strings.Fields(s), " ")`.
fn fields(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Go `json.Marshal` of a decoded `any`: maps with sorted keys (the last of
/// equal keys wins), numbers as float64.
fn marshal_any(out: &mut Vec<u8>, v: Json<'_>) {
    match v.get() {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        Value::Number(n) => {
            let f = crate::go::strconv::parse_float(n).unwrap_or(0.0);
            out.extend_from_slice(format_float(f).as_bytes());
        }
        Value::String(s) => write_json_str(out, s.as_bytes()),
        Value::Array(items) => {
            out.push(b'[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                marshal_any(out, it);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            let mut map: BTreeMap<&str, Json<'_>> = BTreeMap::new();
            for (k, m) in members {
                map.insert(k, m);
            }
            out.push(b'{');
            for (i, (k, m)) in map.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json_str(out, k.as_bytes());
                out.push(b':');
                marshal_any(out, m);
            }
            out.push(b'}');
        }
    }
}

/// Go `strings.ToLower(strings.TrimSpace(s))`.
fn norm(s: &str) -> String {
    lower(s.trim())
}

/// state(n) of a11y.md §4.
fn state_of(n: &Node<'_>) -> State {
    let mut st = State::default();
    for p in &n.properties {
        let name = p.name.as_str();
        if !STATE_NAMES.contains(&name) {
            continue;
        }
        let Some(v) = p.value.value else { continue };
        let read = match v.get() {
            Value::Bool(b) => Some(b),
            Value::String(s) => match norm(s).as_str() {
                "true" | "1" | "yes" => Some(true),
                "false" | "0" | "no" | "" => Some(false),
                "mixed" if name == "checked" => Some(true),
                "plaintext" | "richtext" if name == "editable" => Some(true),
                _ => None,
            },
            Value::Number(x) if name != "editable" => {
                crate::go::strconv::parse_float(x).map(|f| f != 0.0)
            }
            _ => None,
        };
        if let Some(b) = read {
            st.set(name, b);
        }
    }
    st
}

/// loose(v) of a11y.md §4.
fn loose(v: Option<Json<'_>>) -> Option<bool> {
    match v?.get() {
        Value::Bool(b) => Some(b),
        Value::String(s) => match norm(s).as_str() {
            "true" | "1" | "yes" => Some(true),
            "false" | "0" | "no" | "" => Some(false),
            _ => None,
        },
        Value::Number(x) => crate::go::strconv::parse_float(x).map(|f| f != 0.0),
        _ => None,
    }
}

fn actionable(n: &Node<'_>) -> bool {
    n.properties.iter().any(|p| {
        (p.name == "focusable" || p.name == "clickable") && loose(p.value.value) == Some(true)
    })
}

fn backend(n: &Node<'_>) -> i64 {
    if n.backend_id != 0 {
        n.backend_id
    } else {
        n.backend_id_caps
    }
}

fn frame<'n>(n: &'n Node<'_>) -> &'n str {
    if n.frame_id.is_empty() {
        &n.frame_id_caps
    } else {
        &n.frame_id
    }
}

fn expose_uid(role: &str, n: &Node<'_>) -> bool {
    if backend(n) <= 0 {
        return false;
    }
    let r = lower(role);
    if r == "rootwebarea" || r == "webarea" {
        return false;
    }
    if UID_ROLES.contains(&r.as_str()) {
        return true;
    }
    if actionable(n) {
        return true;
    }
    !NO_UID_ROLES.contains(&r.as_str())
}

fn droppable(rec: &Record, n: &Node<'_>) -> bool {
    let r = lower(&rec.role);
    if r == "inlinetextbox" {
        return true;
    }
    if r == "labeltext" && rec.name.is_empty() && rec.value.is_empty() && rec.state.is_empty() {
        return true;
    }
    if r != "generic" && r != "presentational" && r != "none" {
        return false;
    }
    if !rec.name.is_empty() || !rec.value.is_empty() {
        return false;
    }
    let only_editable = State {
        editable: Some(true),
        ..State::default()
    };
    if !rec.state.is_empty() && rec.state != only_editable {
        return false;
    }
    !actionable(n)
}

/// Lowercase base-36 of a positive number.
fn base36(mut x: i64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut s = Vec::new();
    while x > 0 {
        s.push(DIGITS[(x % 36) as usize]);
        x /= 36;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// Curation (a11y.md §5): the records in walk order and every uid made.
fn curate(nodes: &[Node<'_>]) -> (Vec<Record>, BTreeMap<String, Target>) {
    let index: rustc_hash::FxHashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.node_id.as_str(), i))
        .collect();
    let children: rustc_hash::FxHashSet<&str> = nodes
        .iter()
        .flat_map(|n| n.child_ids.iter().map(String::as_str))
        .collect();
    let mut roots: Vec<usize> = (0..nodes.len())
        .filter(|&i| !children.contains(nodes[i].node_id.as_str()))
        .collect();
    if roots.is_empty() {
        roots = (0..nodes.len()).collect();
    }
    let mut visited = vec![false; nodes.len()];
    let mut records = Vec::new();
    let mut targets = BTreeMap::new();
    let mut uses: rustc_hash::FxHashMap<i64, usize> = Default::default();
    let starts = roots.into_iter().chain(0..nodes.len());
    for start in starts {
        // Depth-first in child order; a node is skipped when met again.
        let mut stack = vec![(start, 0usize)];
        while let Some((i, depth)) = stack.pop() {
            if visited[i] {
                continue;
            }
            visited[i] = true;
            let n = &nodes[i];
            let child_depth = if n.ignored {
                depth
            } else {
                let mut rec = Record {
                    depth,
                    role: compact(n.role.value),
                    name: compact(n.name.value),
                    value: compact(n.value.value),
                    state: state_of(n),
                    uid: None,
                };
                if expose_uid(&rec.role, n) {
                    let b = backend(n);
                    let k = uses.entry(b).or_insert(0);
                    *k += 1;
                    let uid = if *k == 1 {
                        format!("u{}", base36(b))
                    } else {
                        format!("u{}_{}", base36(b), k)
                    };
                    targets.insert(
                        uid.clone(),
                        Target {
                            backend: b,
                            frame: frame(n).to_string(),
                            node_id: n.node_id.clone(),
                        },
                    );
                    rec.uid = Some(uid);
                }
                if droppable(&rec, n) {
                    depth
                } else {
                    records.push(rec);
                    depth + 1
                }
            };
            for c in n.child_ids.iter().rev() {
                if let Some(&j) = index.get(c.as_str()) {
                    if !visited[j] {
                        stack.push((j, child_depth));
                    }
                }
            }
        }
    }
    (dedupe_static_text(records), targets)
}

/// a11y.md §5 step 4: static text that repeats another node's name or
/// value goes; the static text that stays loses its state.
fn dedupe_static_text(records: Vec<Record>) -> Vec<Record> {
    let is_text = |r: &Record| {
        let l = lower(&r.role);
        l == "statictext" || l == "inlinetextbox"
    };
    let mut seen: rustc_hash::FxHashSet<String> = Default::default();
    for r in records.iter().filter(|r| !is_text(r)) {
        seen.insert(norm(&r.name));
        seen.insert(norm(&r.value));
    }
    records
        .into_iter()
        .filter_map(|mut r| {
            if lower(&r.role) != "statictext" {
                return Some(r);
            }
            let name = norm(&r.name);
            if !name.is_empty() && seen.contains(&name) {
                return None;
            }
            r.state = State::default();
            Some(r)
        })
        .collect()
}

/// The query focus (a11y.md §6).
fn focus(records: Vec<Record>, query: &str) -> Vec<Record> {
    let q = lower(query);
    let terms: Vec<&str> = q
        .split(|c: char| !is_letter(c) && !is_number(c))
        .filter(|t| !t.is_empty())
        .collect();
    if terms.is_empty() {
        return records;
    }
    let scores: Vec<usize> = records
        .iter()
        .map(|r| {
            let hay = lower(&format!(
                "{} {} {} {}",
                r.role,
                r.name,
                r.value,
                r.state.labels().join(" ")
            ));
            terms.iter().filter(|t| hay.contains(*t)).count()
        })
        .collect();
    let max = scores.iter().copied().max().unwrap_or(0);
    if max == 0 {
        let mut first = records[0].clone();
        first.depth = 0;
        let note = Record {
            depth: 1,
            role: "note".into(),
            name: "no accessible match".into(),
            value: String::new(),
            state: State::default(),
            uid: None,
        };
        return vec![first, note];
    }
    let n = records.len();
    let mut keep = vec![false; n];
    let min = if max == terms.len() { max } else { 1 };
    let mut matches = 0;
    let mut wanted = max;
    while wanted >= min && matches < QUERY_MATCHES {
        for i in 0..n {
            if matches >= QUERY_MATCHES {
                break;
            }
            if scores[i] != wanted {
                continue;
            }
            keep[i] = true;
            matches += 1;
            keep_ancestors(&records, i, &mut keep);
        }
        wanted -= 1;
    }
    // Whole rows and list items around what is kept.
    for i in 0..n {
        if !keep[i] {
            continue;
        }
        let item = if is_item(&records[i]) {
            Some(i)
        } else {
            ancestors(&records, i).find(|&a| is_item(&records[a]))
        };
        if let Some(it) = item {
            keep[it] = true;
            let d = records[it].depth;
            for j in it + 1..n {
                if records[j].depth <= d {
                    break;
                }
                keep[j] = true;
            }
        }
    }
    // Re-depth: a kept record sits under its kept ancestors only.
    let mut open: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for (i, mut r) in records.into_iter().enumerate() {
        open.retain(|&d| d < r.depth);
        if !keep[i] {
            continue;
        }
        let d = r.depth;
        r.depth = open.iter().filter(|&&o| o < d).count();
        open.push(d);
        out.push(r);
    }
    out
}

fn is_item(r: &Record) -> bool {
    r.role == "row" || r.role == "listitem"
}

/// The ancestors of record `i`: the nearest earlier record one level up,
/// then the nearest before that one level further up, down to depth 0.
fn ancestors(records: &[Record], i: usize) -> impl Iterator<Item = usize> + '_ {
    let mut at = i;
    let mut want = records[i].depth;
    std::iter::from_fn(move || {
        if want == 0 {
            return None;
        }
        want -= 1;
        let j = (0..at).rev().find(|&j| records[j].depth == want)?;
        at = j;
        Some(j)
    })
}

fn keep_ancestors(records: &[Record], i: usize, keep: &mut [bool]) {
    for a in ancestors(records, i) {
        keep[a] = true;
    }
}

/// One line (a11y.md §7).
fn render(out: &mut String, r: &Record) {
    for _ in 0..r.depth {
        out.push_str("  ");
    }
    if let Some(uid) = &r.uid {
        out.push('[');
        out.push_str(uid);
        out.push_str("] ");
    }
    let role = lower(&r.role);
    out.push_str(match role.as_str() {
        "rootwebarea" | "webarea" => "page",
        "statictext" => "text",
        "labeltext" => "label",
        other => other,
    });
    if !r.name.is_empty() {
        out.push(' ');
        out.push_str(&quote(&r.name));
    }
    if !r.value.is_empty() && r.value != r.name {
        out.push_str(" = ");
        out.push_str(&quote(&r.value));
    }
    let labels = r.state.labels();
    if !labels.is_empty() {
        out.push_str(" {");
        out.push_str(&labels.join(","));
        out.push('}');
    }
}

/// `{"uids":{UID:{"backendDOMNodeId":N,"frameId":F,"nodeId":ID}}}`.
fn metadata(printed: &BTreeMap<&str, &Target>) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"{\"uids\":{");
    for (i, (uid, t)) in printed.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_json_str(&mut out, uid.as_bytes());
        out.extend_from_slice(format!(":{{\"backendDOMNodeId\":{}", t.backend).as_bytes());
        if !t.frame.is_empty() {
            out.extend_from_slice(b",\"frameId\":");
            write_json_str(&mut out, t.frame.as_bytes());
        }
        out.extend_from_slice(b",\"nodeId\":");
        write_json_str(&mut out, t.node_id.as_bytes());
        out.push(b'}');
    }
    out.extend_from_slice(b"}}");
    out
}
