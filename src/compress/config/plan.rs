//! What a lean config view leaves out, decided on the line tree, and the
//! view itself. Nothing is cut by position or depth: every entry stays,
//! except
//!
//! - comments, which fold to one marker per section (a top-level key, a
//!   job of a large top-level mapping, a `[table]`; the whole of a flat
//!   file) when they are long enough to pay for it;
//! - a YAML subtree that repeats an earlier one line for line, which
//!   becomes a marker naming the earlier copy by its path; one that names
//!   a defining key (`name`, `image`, `run`, `script`, …) only when it is
//!   a block of some size (a repeated install step with its scripts), not
//!   a short step a reader follows in place, nor inside a member of a
//!   list of records shortened below (a failing pod stays whole);
//! - a run of a mapping's entries that repeats, entry for entry and line
//!   for line, the entries of an earlier mapping (a schema's second
//!   definition that opens with the first one's properties), which
//!   becomes a marker naming its first and last key and the earlier
//!   mapping by its path;
//! - the middle of a long list of one-line values whose key does not
//!   define the thing (a lint `ignore` list, not `dependencies`), which
//!   keeps its first values, its last, and any with an error word or a
//!   query hit;
//! - the healthy members of a long list of like records that each name
//!   themselves (a `kind: List` of pods): the first stays whole, every
//!   member with a non-default status (CrashLoopBackOff, exit 137, not
//!   ready) stays whole, and the marker lists the others by name with the
//!   values they all share.
//!
//! A marker sits at the column of what it replaces and counts it.

use std::sync::LazyLock;

use regex::Regex;
use rustc_hash::FxHashMap;

use super::comments::comment_groups;
use super::markers::node_marker;
use super::tree::{indent, Class, Tree};
use crate::compress::shared::lean;
use crate::compress::shared::lines::{Piece, Pieces, Trace};

/// A list of one-line values longer than this is shortened.
const LONG_LIST: usize = 24;
/// Items a shortened list keeps at its start.
const LIST_HEAD: usize = 10;
/// A list of records this long (and like each other) is shortened.
const LONG_RECORDS: usize = 12;
/// Records must average this many lines to be worth eliding.
const RECORD_LINES: usize = 4;
/// Share of records (in percent) that must have the majority's keys.
const RECORD_LIKE_PCT: usize = 80;
/// A subtree must have this many lines to be folded as a repeat.
const REPEAT_LINES: usize = 3;
/// A repeated subtree with a defining key must have this many lines to
/// fold: its marker (about twenty tokens) then replaces several times its
/// size, and the copy it names holds every key and value.
const REPEAT_DEFINING_LINES: usize = 6;
/// A repeated run of entries must have this many lines (and at least two
/// entries) to fold: its marker names two keys and a path, about twenty
/// tokens.
const RUN_LINES: usize = 8;
/// Configs of more lines than this are not searched for repeated runs
/// (each entry's text is compared whole).
const RUN_MAX_LINES: usize = 20_000;

/// Keys whose lists define the thing: never shortened.
const PROTECTED: [&str; 24] = [
    "depend",
    "require",
    "command",
    "arg",
    "script",
    "step",
    "env",
    "port",
    "matrix",
    "enum",
    "param",
    "run",
    "hook",
    "repo",
    "service",
    "container",
    "volume",
    "task",
    "job",
    "stage",
    "member",
    "package",
    "select",
    "enable",
];

/// Keys that define a thing: a subtree holding one is never folded.
const DEFINING: [&str; 15] = [
    "name", "image", "command", "args", "ports", "env", "run", "uses", "matrix", "version", "kind",
    "status", "reason", "message", "script",
];

/// Keys that name a record, in order of preference.
const ID_KEYS: [&str; 5] = ["name", "id", "key", "title", "uid"];

/// States that are not a healthy default (Kubernetes and the like).
static NON_DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r#"(?i)\b(CrashLoopBackOff|OOMKilled|ImagePullBackOff|ErrImagePull|CreateContainer(Config)?Error"#,
        r#"|InvalidImageName|Evicted|BackOff|Unhealthy|Unschedulable|NotReady|FailedScheduling"#,
        r#"|DeadlineExceeded|Pending|Unknown|Terminating|ContainerCreating|Completed)\b"#,
        r#"|exitCode:\s*[1-9]|\b(ready|started):\s*false\b|\bstatus:\s*["']?False\b"#,
        r#"|restartCount:\s*[1-9]"#,
    ))
    .expect("non-default status pattern")
});

/// What the planner may do besides folding comments.
pub(super) struct Rules {
    /// Fold repeats and shorten lists (off: comments only).
    pub lists: bool,
    /// Lowercase query words: a node holding one stays.
    pub query: Vec<String>,
    /// Repeats are folded (YAML, where a subtree is a block).
    pub repeats: bool,
}

/// Why a node goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Why {
    /// The same lines as node `0`.
    Repeat(usize),
    /// A value of a long list.
    List,
    /// A healthy member of a long list of records.
    Record,
    /// One of a run of entries that repeats the entries of mapping `0`.
    Run(usize),
}

/// One marker and what it stands for.
#[derive(Debug)]
pub(super) struct Group {
    pub first: usize,
    pub col: usize,
    pub text: String,
}

/// The lines a view drops and the markers that stand for them.
#[derive(Debug)]
pub(super) struct Plan {
    /// Per line, the group that replaces it (`NONE`: kept).
    pub group: Vec<usize>,
    pub groups: Vec<Group>,
}

pub(super) const NONE: usize = usize::MAX;

pub(super) fn plan(tree: &Tree<'_>, rules: &Rules) -> Plan {
    let mut why: Vec<Option<Why>> = vec![None; tree.nodes.len()];
    if rules.lists {
        records(tree, rules, &mut why);
        if rules.repeats {
            // A run of entries first: it folds more than the repeated
            // subtrees inside it would one by one.
            repeated_runs(tree, &mut why);
            repeats(tree, &mut why);
            // A run inside a subtree folded whole goes with it.
            for id in 0..tree.nodes.len() {
                if matches!(why[id], Some(Why::Run(_)))
                    && tree.ancestors(id).any(|a| why[a].is_some())
                {
                    why[id] = None;
                }
            }
        }
        lists(tree, rules, &mut why);
    }
    // A mapping or list never goes empty (it would read as null): its
    // last member stays.
    for node in &tree.nodes {
        if !node.children.is_empty() && node.children.iter().all(|&c| why[c].is_some()) {
            why[node.children[node.children.len() - 1]] = None;
        }
    }
    let mut plan = Plan {
        group: vec![NONE; tree.lines.len()],
        groups: Vec::new(),
    };
    node_groups(tree, &why, &mut plan);
    comment_groups(tree, &mut plan);
    plan
}

/// A node holds a query word.
fn hit(tree: &Tree<'_>, id: usize, query: &[String]) -> bool {
    !query.is_empty()
        && tree.span(id).any(|i| {
            let l = tree.lines[i].to_lowercase();
            query.iter().any(|q| l.contains(q.as_str()))
        })
}

/// A node holds an error or a non-default status.
fn alarming(tree: &Tree<'_>, id: usize) -> bool {
    tree.span(id).any(|i| {
        matches!(tree.class[i], Class::Own(_)) && {
            let l = tree.lines[i];
            lean::is_error(l) || NON_DEFAULT.is_match(l)
        }
    })
}

/// The last segment of a (dotted, quoted) key, lowercased.
fn last_key(key: &Option<String>) -> Option<String> {
    key.as_deref().map(|k| {
        let k = k.trim_matches(['"', '\'']).to_ascii_lowercase();
        k.rsplit('.').next().unwrap_or(&k).to_string()
    })
}

/// The key holds one of `list`'s words.
fn key_is(key: &Option<String>, list: &[&str]) -> bool {
    last_key(key).is_some_and(|k| list.iter().any(|p| k.contains(p)))
}

/// The key defines a thing: one of [`DEFINING`], or a dependency or
/// requirement list.
fn key_defines(key: &Option<String>) -> bool {
    last_key(key).is_some_and(|k| {
        DEFINING.contains(&k.as_str()) || k.contains("depend") || k.contains("require")
    })
}

/// The node's key and children keys of a record: its mapping's keys.
fn signature(tree: &Tree<'_>, item: usize) -> String {
    let mut s = String::new();
    for &c in &tree.nodes[item].children {
        if let Some(k) = &tree.nodes[c].key {
            s.push_str(k);
            s.push('\u{0}');
        }
    }
    s
}

/// The child entry of `id` with key `k`.
pub(super) fn child(tree: &Tree<'_>, id: usize, k: &str) -> Option<usize> {
    tree.nodes[id]
        .children
        .iter()
        .copied()
        .find(|&c| tree.nodes[c].key.as_deref() == Some(k))
}

/// The scalar a one-line entry holds (quotes and a comment off).
pub(super) fn scalar(tree: &Tree<'_>, id: usize) -> Option<String> {
    let node = &tree.nodes[id];
    if node.end != node.start + 1 || !node.children.is_empty() {
        return None;
    }
    let line = tree.lines[node.start];
    let (_, v) = super::yaml::split_key(line.trim_start().trim_start_matches("- "))?;
    let v = strip_comment(v.trim());
    let v = v.trim_matches(['"', '\'']);
    (!v.is_empty()).then(|| v.to_string())
}

pub(super) fn strip_comment(v: &str) -> &str {
    match v.find(" #") {
        Some(k) if !v.starts_with(['"', '\'']) => v[..k].trim_end(),
        _ => v,
    }
}

/// The name of a record: `metadata.name`, else its `name`, `id`, … .
pub(super) fn identifier(tree: &Tree<'_>, item: usize) -> Option<(String, String)> {
    if let Some(m) = child(tree, item, "metadata") {
        if let Some(v) = child(tree, m, "name").and_then(|n| scalar(tree, n)) {
            return Some(("metadata.name".into(), v));
        }
    }
    ID_KEYS.iter().find_map(|&k| {
        child(tree, item, k)
            .and_then(|n| scalar(tree, n))
            .map(|v| (k.to_string(), v))
    })
}

/// Long lists of like records: the healthy, unremarkable ones go.
fn records(tree: &Tree<'_>, rules: &Rules, why: &mut [Option<Why>]) {
    for node in &tree.nodes {
        let items = &node.children;
        if items.len() < LONG_RECORDS
            || key_is(&node.key, &PROTECTED)
            || !items.iter().all(|&c| {
                tree.nodes[c].item
                    && !tree.nodes[c].children.is_empty()
                    && tree.nodes[c]
                        .children
                        .iter()
                        .all(|&g| tree.nodes[g].key.is_some())
            })
        {
            continue;
        }
        let lines: usize = items.iter().map(|&c| tree.content_lines(c)).sum();
        if lines < RECORD_LINES * items.len()
            || !items.iter().all(|&c| identifier(tree, c).is_some())
        {
            continue;
        }
        let mut counts: FxHashMap<String, usize> = FxHashMap::default();
        for &c in items {
            *counts.entry(signature(tree, c)).or_default() += 1;
        }
        let Some((major, n)) = counts
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
        else {
            continue;
        };
        if n * 100 < items.len() * RECORD_LIKE_PCT {
            continue;
        }
        let rare = rare_records(tree, items);
        for (k, &c) in items.iter().enumerate() {
            if k == 0
                || !tree.detachable(c)
                || signature(tree, c) != major
                || alarming(tree, c)
                || rare[k]
                || hit(tree, c, &rules.query)
            {
                continue;
            }
            why[c] = Some(Why::Record);
        }
    }
}

/// A record holds a value of a field most records share another value
/// of (`role: admin` among `role: viewer`, `enabled: false` among
/// `true`): rows by value, the non-default ones stay.
const DEFAULT_PCT: usize = 80;
/// At most this share of the records (in percent) counts as rare.
const RARE_PCT: usize = 10;

/// Per item of `items`: it holds a rare value of a field whose most
/// common value most of them hold.
fn rare_records(tree: &Tree<'_>, items: &[usize]) -> Vec<bool> {
    let mut by_key: FxHashMap<&str, FxHashMap<String, usize>> = FxHashMap::default();
    let fields = |c: usize| {
        tree.nodes[c].children.iter().filter_map(move |&g| {
            let key = tree.nodes[g].key.as_deref()?;
            Some((key, scalar(tree, g)?))
        })
    };
    for &c in items {
        for (k, v) in fields(c) {
            *by_key.entry(k).or_default().entry(v).or_default() += 1;
        }
    }
    let n = items.len();
    let defaulted: FxHashMap<&str, &FxHashMap<String, usize>> = by_key
        .iter()
        .filter(|(_, vals)| {
            vals.values()
                .max()
                .is_some_and(|&m| m * 100 >= n * DEFAULT_PCT)
        })
        .map(|(k, v)| (*k, v))
        .collect();
    items
        .iter()
        .map(|&c| {
            fields(c).any(|(k, v)| {
                defaulted
                    .get(k)
                    .and_then(|vals| vals.get(&v))
                    .is_some_and(|&m| m * 100 <= n * RARE_PCT)
            })
        })
        .collect()
}

/// Whether `id` or a node above it already goes.
fn gone(tree: &Tree<'_>, why: &[Option<Why>], id: usize) -> bool {
    why[id].is_some() || tree.ancestors(id).any(|a| why[a].is_some())
}

/// Subtrees that repeat an earlier one line for line. One with a
/// defining key inside a member of a list the records rule shortened (a
/// failing pod, kept for its status) stays: that member is shown whole.
fn repeats(tree: &Tree<'_>, why: &mut [Option<Why>]) {
    let mut seen: FxHashMap<String, usize> = FxHashMap::default();
    let shortened = |kids: &[usize]| kids.iter().any(|&c| why[c] == Some(Why::Record));
    let short: Vec<bool> = tree.nodes.iter().map(|n| shortened(&n.children)).collect();
    let short_root = shortened(&tree.roots);
    let in_kept_record = |id: usize| {
        tree.ancestors(id)
            .any(|a| tree.nodes[a].item && tree.nodes[a].parent.map_or(short_root, |p| short[p]))
    };
    for id in 0..tree.nodes.len() {
        let node = &tree.nodes[id];
        if node.children.is_empty()
            || tree.depth(id) < 2
            || !tree.detachable(id)
            || tree.content_lines(id) < REPEAT_LINES
            || gone(tree, why, id)
            || tree.content_lines(id) < REPEAT_DEFINING_LINES && defines(tree, id)
        {
            continue;
        }
        let text = canonical(tree, id);
        if text.contains('&') && has_anchor(&text) {
            continue;
        }
        match seen.get(&text) {
            Some(&first)
                if !(tree.ancestors(id).any(|a| a == first)
                    || gone(tree, why, first)
                    || defines(tree, id) && in_kept_record(id)) =>
            {
                why[id] = Some(Why::Repeat(first));
            }
            Some(_) => {}
            None => {
                seen.insert(text, id);
            }
        }
    }
}

/// Earlier places of one entry's text a run is looked for at, at most
/// (a list of thousands of equal entries is no quadratic search).
const RUN_PLACES: usize = 16;

/// Runs of a mapping's entries (two or more, [`RUN_LINES`] lines) that
/// repeat, entry for entry, consecutive entries of an earlier mapping
/// that ends before them (none of them folded). The longest earlier run
/// is named; a run holding a defining key (a container's `name` and
/// `image`) folds only at twice [`RUN_LINES`].
fn repeated_runs(tree: &Tree<'_>, why: &mut [Option<Why>]) {
    if tree.lines.len() > RUN_MAX_LINES {
        return;
    }
    // Each keyed entry's text, interned; where each text sits.
    let mut ids: FxHashMap<String, u32> = FxHashMap::default();
    let mut text_of: Vec<Option<u32>> = vec![None; tree.nodes.len()];
    let mut at: FxHashMap<u32, Vec<(usize, usize)>> = FxHashMap::default();
    for (p, node) in tree.nodes.iter().enumerate() {
        for (k, &c) in node.children.iter().enumerate() {
            let n = &tree.nodes[c];
            if n.item || n.key.is_none() {
                continue;
            }
            let next = ids.len() as u32;
            let t = *ids.entry(canonical(tree, c)).or_insert(next);
            text_of[c] = Some(t);
            at.entry(t).or_default().push((p, k));
        }
    }
    for p in 0..tree.nodes.len() {
        let kids = &tree.nodes[p].children;
        let mut k = 0;
        while k < kids.len() {
            let start = tree.nodes[kids[k]].start;
            let mut best: Option<(usize, usize)> = None;
            let places = text_of[kids[k]].and_then(|t| at.get(&t));
            for &(q, j) in places.into_iter().flatten().take(RUN_PLACES) {
                let qk = &tree.nodes[q].children;
                if q == p || tree.nodes[q].end > start || gone(tree, why, q) {
                    continue;
                }
                let mut n = 0;
                while k + n < kids.len()
                    && j + n < qk.len()
                    && text_of[kids[k + n]].is_some()
                    && text_of[kids[k + n]] == text_of[qk[j + n]]
                    && why[qk[j + n]].is_none()
                {
                    n += 1;
                }
                if best.is_none_or(|(_, m)| n > m) {
                    best = Some((q, n));
                }
            }
            let Some((q, n)) = best.filter(|&(_, n)| n >= 2) else {
                k += 1;
                continue;
            };
            let run = &kids[k..k + n];
            let lines: usize = run.iter().map(|&c| tree.content_lines(c)).sum();
            let defining = run.iter().any(|&c| defines(tree, c));
            let free = run.iter().all(|&c| {
                tree.detachable(c) && !gone(tree, why, c) && !has_anchor(&canonical(tree, c))
            });
            if free && lines >= RUN_LINES && (!defining || lines >= 2 * RUN_LINES) {
                for &c in run {
                    why[c] = Some(Why::Run(q));
                }
                k += n;
            } else {
                k += 1;
            }
        }
    }
}

/// A subtree holds a key that defines a thing.
fn defines(tree: &Tree<'_>, id: usize) -> bool {
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        if key_defines(&tree.nodes[n].key) {
            return true;
        }
        stack.extend(&tree.nodes[n].children);
    }
    false
}

/// An anchor (`&name`) where a YAML value starts.
fn has_anchor(text: &str) -> bool {
    text.split([' ', '\n']).any(|w| {
        w.strip_prefix('&')
            .and_then(|name| name.chars().next())
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// A node's content lines, its own column taken off.
fn canonical(tree: &Tree<'_>, id: usize) -> String {
    let col = tree.nodes[id].col;
    let mut s = String::new();
    for i in tree.span(id) {
        if matches!(tree.class[i], Class::Own(_) | Class::Fixed) {
            let l = tree.lines[i];
            s.push_str(if indent(l) >= col { &l[col..] } else { l });
            s.push('\n');
        }
    }
    s
}

/// Long lists of one-line values: the middle goes.
fn lists(tree: &Tree<'_>, rules: &Rules, why: &mut [Option<Why>]) {
    for node in &tree.nodes {
        let items = &node.children;
        if items.is_empty()
            || node.key.is_none()
            || key_is(&node.key, &PROTECTED)
            || !items.iter().all(|&c| {
                tree.nodes[c].item
                    && tree.nodes[c].children.is_empty()
                    && tree.content_lines(c) == 1
            })
        {
            continue;
        }
        let values: usize = items.iter().map(|&c| tree.nodes[c].values).sum();
        if values <= LONG_LIST {
            continue;
        }
        let last = items.len() - 1;
        for (k, &c) in items.iter().enumerate() {
            if k < LIST_HEAD
                || k == last
                || gone(tree, why, c)
                || !tree.detachable(c)
                || hit(tree, c, &rules.query)
            {
                continue;
            }
            why[c] = Some(Why::List);
        }
    }
}

/// Runs of dropped siblings become groups (a repeat is a group alone).
fn node_groups(tree: &Tree<'_>, why: &[Option<Why>], plan: &mut Plan) {
    let mut parents: Vec<Option<usize>> = vec![None];
    parents.extend((0..tree.nodes.len()).map(Some));
    for parent in parents {
        let kids = match parent {
            Some(p) => &tree.nodes[p].children,
            None => &tree.roots,
        };
        let mut k = 0;
        while k < kids.len() {
            let Some(w) = why[kids[k]] else {
                k += 1;
                continue;
            };
            let mut e = k + 1;
            if !matches!(w, Why::Repeat(_)) {
                while e < kids.len() && why[kids[e]] == Some(w) {
                    e += 1;
                }
            }
            let run = &kids[k..e];
            let text = node_marker(tree, parent, run, w);
            let first = tree.nodes[run[0]].start;
            let end = tree.nodes[run[run.len() - 1]].end;
            // Indentation costs little: a marker pays when it is well
            // under the text it replaces.
            let text_bytes: usize = (first..end)
                .map(|i| tree.lines[i].trim_start().len() + 1)
                .sum();
            let col = tree.nodes[run[0]].col;
            if text.len() * 4 < text_bytes * 3 {
                let g = plan.groups.len();
                plan.groups.push(Group { first, col, text });
                for i in first..end {
                    plan.group[i] = g;
                }
            }
            k = e;
        }
    }
}

/// The view's pieces: kept lines as they were, one marker line per group
/// at its first line; and the account for `--explain`.
pub(super) fn render(tree: &Tree<'_>, plan: &Plan) -> (Pieces, Trace) {
    let mut pieces = Pieces::default();
    let mut trace = Trace::default();
    let mut run = 0..0;
    let flush = |pieces: &mut Pieces, run: &mut std::ops::Range<usize>| {
        if run.end > run.start {
            pieces.0.push(Piece::Units(run.clone()));
        }
    };
    for i in 0..tree.lines.len() {
        let g = plan.group[i];
        if g == NONE {
            if run.end != i {
                flush(&mut pieces, &mut run);
                run = i..i;
            }
            run.end = i + 1;
            trace.add(
                match tree.class[i] {
                    Class::Blank => "blank line",
                    Class::Comment => "comment (too short to fold, or a marker)",
                    _ => "key, value or item (every one is kept unless a marker says)",
                },
                1,
            );
            continue;
        }
        trace.dropped += 1;
        if plan.groups[g].first == i {
            flush(&mut pieces, &mut run);
            run = i + 1..i + 1;
            let m = &plan.groups[g];
            pieces.marker(format!("{}{}", " ".repeat(m.col), m.text));
        }
    }
    flush(&mut pieces, &mut run);
    (pieces, trace)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(src: &str, lists: bool) -> String {
        let tree = super::super::yaml::scan(src.lines().collect()).unwrap();
        let rules = Rules {
            lists,
            query: Vec::new(),
            repeats: true,
        };
        let plan = plan(&tree, &rules);
        let (pieces, _) = render(&tree, &plan);
        pieces
            .items()
            .map(|x| match x {
                Ok(i) => tree.lines[i].to_string(),
                Err(m) => m.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn comments_fold_to_one_marker_per_section() {
        let src = "# a long header comment that says a good deal about the file and\n# more of it, so that it pays: a remark or two would stay where it is\n# and a third line, long enough to make the three of them pay for it\na: 1\nb:\n  # the first comment of b, long enough to fold away with the next one\n  c: 1\n  # another one, so that the two pay for a marker: here they do, as the\n  # third line of them makes sure\n  d: 2\n";
        let v = view(src, false);
        assert_eq!(
            v,
            "# \u{2026} 3 comment lines elided (caveman) \u{2026}\na: 1\nb:\n  # \u{2026} 3 comment lines in b (2 runs) elided (caveman) \u{2026}\n  c: 1\n  d: 2"
        );
    }

    #[test]
    fn comments_between_sections_go_with_the_one_they_sit_against() {
        let long = "# a comment long enough that three of its lines pay for a marker";
        let src = format!(
            "a:\n  x: 1\n  {long}\n  {long}\n  {long}\n\n{long}\n{long}\n{long}\nb:\n  y: 2\n"
        );
        let v = view(&src, false);
        assert_eq!(
            v,
            "a:\n  x: 1\n  # \u{2026} 3 comment lines in a elided (caveman) \u{2026}\n\n# \u{2026} 3 comment lines in b elided (caveman) \u{2026}\nb:\n  y: 2"
        );
    }

    #[test]
    fn long_lists_keep_head_tail_and_errors() {
        let mut src = String::from("lint:\n  ignore:\n");
        for k in 0..40 {
            src.push_str(&format!("    - R{k:03}\n"));
        }
        src = src.replace(
            "    - R020",
            "    # a remark\n    - R020 # a value's remark",
        );
        let v = view(&src, true);
        assert!(v.contains("    - R009\n    # \u{2026} 29 of 40 ignore values and 1 comment line elided (caveman) \u{2026} R010 \u{2026} R038\n    - R039"), "{v}");
    }

    #[test]
    fn records_with_a_rare_value_stay_and_the_marker_says_what_the_rest_share() {
        let mut src = String::from("users:\n");
        for k in 0..30 {
            let role = if k == 7 { "admin" } else { "viewer" };
            let enabled = if k == 20 { "false" } else { "true" };
            src.push_str(&format!(
                "  - name: user{k:03}\n    role: {role}\n    enabled: {enabled}\n    shell: /bin/bash\n"
            ));
        }
        let v = view(&src, true);
        assert!(v.contains("  - name: user007\n    role: admin\n"), "{v}");
        assert!(
            v.contains("  - name: user020\n    role: viewer\n    enabled: false\n"),
            "{v}"
        );
        assert!(
            v.contains("all role: viewer, enabled: true; name: user001"),
            "{v}"
        );
    }

    #[test]
    fn protected_lists_stay_whole() {
        let mut src = String::from("dependencies:\n");
        for k in 0..40 {
            src.push_str(&format!("  - pkg{k}\n"));
        }
        assert_eq!(view(&src, true), src.trim_end());
    }

    #[test]
    fn records_keep_the_failing_member_and_name_the_rest() {
        let mut src = String::from("apiVersion: v1\nitems:\n");
        for k in 0..14 {
            let (phase, reason) = if k == 9 {
                ("Running", "CrashLoopBackOff")
            } else {
                ("Running", "")
            };
            src.push_str(&format!(
                "- kind: Pod\n  metadata:\n    name: web-{k}\n  status:\n    phase: {phase}\n    containerStatuses:\n    - ready: {}\n      reason: \"{reason}\"\n",
                k != 9
            ));
        }
        src.push_str("kind: List\n");
        let v = view(&src, true);
        assert!(v.contains("name: web-0\n"), "{v}");
        assert!(v.contains("name: web-9\n"), "{v}");
        assert!(v.contains("CrashLoopBackOff"), "{v}");
        assert!(!v.contains("name: web-3\n"), "{v}");
        assert!(v.contains("# \u{2026} 8 of 14 items elided (64 lines) (caveman) \u{2026} all kind: Pod, status.phase: Running, status.containerStatuses[].ready: true; metadata.name: web-1, web-2, web-3, web-4, web-5, web-6, web-7, web-8"), "{v}");
        assert!(v.contains("4 of 14 items elided (32 lines) (caveman) \u{2026} all kind: Pod, status.phase: Running, status.containerStatuses[].ready: true; metadata.name: web-10, web-11, web-12, web-13"), "{v}");
    }

    /// A list's elements that disagree (a Deployment's two conditions)
    /// make no "all" claim of the list's path; the values every element
    /// shares still are claimed.
    #[test]
    fn a_list_path_is_claimed_only_when_every_element_agrees() {
        let mut src = String::from("apiVersion: v1\nitems:\n");
        for k in 0..14 {
            let failing = k == 9;
            src.push_str(&format!(
                "- kind: Deployment\n  metadata:\n    name: api-{k}\n  status:\n    conditions:\n    - type: Available\n      status: \"{}\"\n      reason: {}\n    - type: Progressing\n      status: \"True\"\n      reason: {}\n",
                if failing { "False" } else { "True" },
                if failing { "MinimumReplicasUnavailable" } else { "MinimumReplicasAvailable" },
                if failing { "ProgressDeadlineExceeded" } else { "NewReplicaSetAvailable" },
            ));
        }
        src.push_str("kind: List\n");
        let v = view(&src, true);
        assert!(v.contains("ProgressDeadlineExceeded"), "{v}");
        assert!(v.contains("items elided"), "{v}");
        assert!(!v.contains("conditions[].reason"), "{v}");
        assert!(v.contains("status.conditions[].status: True"), "{v}");
    }

    #[test]
    fn anchors_are_names_not_and_operators() {
        assert!(has_anchor("key: &base\n  a: 1\n"));
        assert!(!has_anchor("run: make && make test\n"));
    }

    #[test]
    fn repeats_name_the_first_copy() {
        let block = "    resources:\n    - id: install\n      exec:\n        validate: \"[ -x /opt/agent/bin/agent ] && exit 100 || exit 101\"\n        interpreter: SHELL\n      enforce:\n        path: /opt/agent/install.sh --also-install --version=latest\n        interpreter: SHELL\n";
        let src = format!(
            "groups:\n- filters:\n  - os: a\n  x:\n{block}- filters:\n  - os: b\n  x:\n{block}"
        );
        let v = view(&src, true);
        assert!(v.contains("  - os: b\n  # \u{2026} x: 9 lines elided (caveman) \u{2026} the same as groups[0].x"), "{v}");
    }

    #[test]
    fn a_repeated_block_of_scripts_names_its_first_copy_and_a_short_step_stays() {
        let block = "  - id: install\n    exec:\n      validate:\n        script: \"[ -x /opt/agent/bin/agent ] && exit 100 || exit 101\"\n        interpreter: SHELL\n      enforce:\n        script: curl -sSO https://example.com/add-repo.sh; sudo bash add-repo.sh --also-install\n        interpreter: SHELL\n";
        let group = |os: &str| {
            format!("- os: {os}\n  resources:\n  - id: wait\n    timeout: {os}\n{block}")
        };
        let src = format!("groups:\n{}{}", group("a"), group("b"));
        let v = view(&src, true);
        assert!(
            v.ends_with("- os: b\n  resources:\n  - id: wait\n    timeout: b\n  # \u{2026} 8 lines elided (caveman) \u{2026} the same as groups[0].resources[1]"),
            "{v}"
        );
        let step = "    - name: Checkout\n      uses: actions/checkout@v4\n      with:\n        fetch-depth: 0\n";
        let src = format!("jobs:\n  a:\n    steps:\n{step}  b:\n    steps:\n{step}");
        assert_eq!(view(&src, true), src.trim_end());
    }
    #[test]
    fn a_run_of_entries_repeating_an_earlier_mapping_names_it() {
        let props = "      title:\n        type: string\n      size:\n        type: integer\n      home_directory:\n        type: string\n      support_bulk_export:\n        type: boolean\n      resource_attribute_renames:\n        type: object\n        additionalProperties: true\n      tags:\n        type: array\n        items:\n          type: string\n";
        let src = format!(
            "definitions:\n  base:\n    type: object\n    properties:\n{props}  full:\n    type: object\n    properties:\n{props}      extra:\n        type: boolean\n"
        );
        let v = view(&src, true);
        assert!(
            v.ends_with("    properties:\n      # \u{2026} title \u{2026} tags: 15 lines elided (caveman) \u{2026} the same as in definitions.base.properties\n      extra:\n        type: boolean"),
            "{v}"
        );
        // The first copy stays whole; two short entries do not fold.
        assert!(
            v.starts_with(&format!(
                "definitions:\n  base:\n    type: object\n    properties:\n{props}"
            )),
            "{v}"
        );
        let short = "      a: 1\n      b: 2\n";
        let src = format!("x:\n  p:\n{short}y:\n  p:\n{short}      c: 3\n");
        assert_eq!(view(&src, true), src.trim_end());
    }
}
