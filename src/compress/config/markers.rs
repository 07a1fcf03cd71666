//! The text of a marker that stands for dropped nodes: how many of how
//! many values or records, with what they hide (a list's first and last
//! hidden values, every hidden record's name and the status values they
//! all share, the path of the copy a repeat stands for).

use super::plan::{identifier, scalar, Why};
use super::tree::{Class, Tree};
use crate::compress::shared::secrets;

/// Values shown in a list marker are cut to this many characters.
const PREVIEW: usize = 60;

/// Keys whose shared values a records marker states.
const STATUS_KEYS: [&str; 7] = [
    "kind",
    "phase",
    "status",
    "ready",
    "started",
    "restartCount",
    "reason",
];

/// The value a one-line list item holds: no `- `, no comment, no comma.
pub(super) fn item_value<'a>(tree: &Tree<'a>, id: usize) -> &'a str {
    let l = tree.lines[tree.nodes[id].start].trim();
    let l = l.strip_prefix("- ").unwrap_or(l);
    let mut quote = None;
    let mut prev = ' ';
    let mut end = l.len();
    for (k, c) in l.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if prev == ' ' || prev == '\t' => {
                end = k;
                break;
            }
            _ => {}
        }
        prev = c;
    }
    l[..end].trim_end().trim_end_matches(',').trim_end()
}

/// A value of a list item as a marker shows it.
fn preview(tree: &Tree<'_>, id: usize) -> String {
    let l = item_value(tree, id);
    let l = if secrets::holds_credential(l) {
        "\u{2026}"
    } else {
        l
    };
    match l.char_indices().nth(PREVIEW) {
        Some((k, _)) => format!("{}…", &l[..k]),
        None => l.to_string(),
    }
}

fn label(tree: &Tree<'_>, id: Option<usize>) -> String {
    match id {
        Some(p) => tree.nodes[p].key.clone().unwrap_or_else(|| tree.path(p)),
        None => "top-level".to_string(),
    }
}

pub(super) fn node_marker(tree: &Tree<'_>, parent: Option<usize>, run: &[usize], w: Why) -> String {
    let first = run[0];
    let lines = tree.nodes[run[run.len() - 1]].end - tree.nodes[first].start;
    match w {
        Why::Repeat(of) => {
            let what = match &tree.nodes[first].key {
                Some(k) => format!("{k}: "),
                None => String::new(),
            };
            format!(
                "# \u{2026} {what}{lines} lines elided (caveman) \u{2026} the same as {}",
                tree.path(of)
            )
        }
        Why::Run(of) => {
            let key = |c: usize| tree.nodes[c].key.clone().unwrap_or_default();
            let (a, b) = (key(first), key(run[run.len() - 1]));
            let keys = if a == b {
                a
            } else {
                format!("{a} \u{2026} {b}")
            };
            format!(
                "# \u{2026} {keys}: {lines} lines elided (caveman) \u{2026} the same as in {}",
                tree.path(of)
            )
        }
        Why::List => {
            let total: usize = parent
                .map(|p| {
                    tree.nodes[p]
                        .children
                        .iter()
                        .map(|&c| tree.nodes[c].values)
                        .sum()
                })
                .unwrap_or(0);
            let k: usize = run.iter().map(|&c| tree.nodes[c].values).sum();
            let shown = if run.len() == 1 {
                preview(tree, first)
            } else {
                format!(
                    "{} \u{2026} {}",
                    preview(tree, first),
                    preview(tree, run[run.len() - 1])
                )
            };
            let span = tree.nodes[first].start..tree.nodes[run[run.len() - 1]].end;
            let comments = span
                .clone()
                .filter(|&i| tree.class[i] == Class::Comment)
                .count();
            let blanks = span.filter(|&i| tree.class[i] == Class::Blank).count();
            format!(
                "# \u{2026} {k} of {total} {} values{}{} elided (caveman) \u{2026} {shown}",
                label(tree, parent),
                and_lines(comments, "comment"),
                and_lines(blanks, "blank"),
            )
        }
        Why::Record => {
            let total = parent.map_or(0, |p| tree.nodes[p].children.len());
            let mut names = Vec::new();
            let mut id_key = String::new();
            for &c in run {
                if let Some((k, v)) = identifier(tree, c) {
                    id_key = k;
                    names.push(if secrets::holds_credential(&v) {
                        "…".to_string()
                    } else {
                        v
                    });
                }
            }
            let mut shared = shared_status(tree, run);
            if let Some(p) = parent {
                let more = shared_fields(tree, run, &tree.nodes[p].children, &shared);
                if !more.is_empty() && !shared.is_empty() {
                    shared.push_str(", ");
                }
                shared.push_str(&more);
            }
            let shared = if shared.is_empty() {
                String::new()
            } else {
                format!("all {shared}; ")
            };
            format!(
                "# \u{2026} {} of {total} {} elided ({lines} lines) (caveman) \u{2026} {shared}{id_key}: {}",
                run.len(),
                label(tree, parent),
                names.join(", ")
            )
        }
    }
}

/// ` and 3 comment lines`, or nothing for none.
pub(super) fn and_lines(n: usize, what: &str) -> String {
    match n {
        0 => String::new(),
        1 => format!(" and 1 {what} line"),
        n => format!(" and {n} {what} lines"),
    }
}

/// Fields the hidden records share that tell them from the others: a
/// direct field every record of `run` holds with one value, which some
/// other record of the list holds with another (`role: viewer` when the
/// admins are shown). At most 4, none already in `said`.
const SHARED_FIELDS: usize = 4;

fn shared_fields(tree: &Tree<'_>, run: &[usize], items: &[usize], said: &str) -> String {
    if run.len() < 2 {
        return String::new();
    }
    let value =
        |item: usize, key: &str| super::plan::child(tree, item, key).and_then(|n| scalar(tree, n));
    let hidden: rustc_hash::FxHashSet<usize> = run.iter().copied().collect();
    let others: Vec<usize> = items
        .iter()
        .copied()
        .filter(|c| !hidden.contains(c))
        .collect();
    let mut out = Vec::new();
    for &g in &tree.nodes[run[0]].children {
        let Some(key) = tree.nodes[g].key.as_deref() else {
            continue;
        };
        let Some(v) = scalar(tree, g) else { continue };
        if said.contains(&format!("{key}: ")) || secrets::holds_credential(&v) {
            continue;
        }
        if !run[1..]
            .iter()
            .all(|&c| value(c, key).as_deref() == Some(v.as_str()))
        {
            continue;
        }
        let differs = others
            .iter()
            .any(|&c| value(c, key).as_deref() != Some(v.as_str()));
        if differs {
            out.push(format!("{key}: {v}"));
            if out.len() == SHARED_FIELDS {
                break;
            }
        }
    }
    out.join(", ")
}

/// `kind: Pod, status.phase: Running`: status-like values every record
/// of the run holds, the same in each. A path through a list
/// (`status.conditions[].reason`) is stated only when every element of
/// every record holds the one value (a Deployment's `Available` and
/// `Progressing` conditions have two reasons: no claim).
fn shared_status(tree: &Tree<'_>, run: &[usize]) -> String {
    let mut common: Option<Vec<(String, String)>> = None;
    for &item in run {
        // A path's value, `None` once two of its elements disagree.
        let mut found: Vec<(String, Option<String>)> = Vec::new();
        let mut stack: Vec<(usize, String)> = tree.nodes[item]
            .children
            .iter()
            .rev()
            .map(|&c| (c, String::new()))
            .collect();
        while let Some((n, prefix)) = stack.pop() {
            let node = &tree.nodes[n];
            let path = match &node.key {
                Some(k) if prefix.is_empty() => k.clone(),
                Some(k) => format!("{prefix}.{k}"),
                None => format!("{prefix}[]"),
            };
            if node
                .key
                .as_deref()
                .is_some_and(|k| STATUS_KEYS.contains(&k))
            {
                if let Some(v) = scalar(tree, n) {
                    match found.iter_mut().find(|f| f.0 == path) {
                        None => found.push((path.clone(), Some(v))),
                        Some(f) => {
                            if f.1.as_ref() != Some(&v) {
                                f.1 = None;
                            }
                        }
                    }
                }
            }
            for &c in node.children.iter().rev() {
                stack.push((c, path.clone()));
            }
        }
        let found: Vec<(String, String)> = found
            .into_iter()
            .filter_map(|(k, v)| Some((k, v?)))
            .collect();
        common = Some(match common {
            None => found,
            Some(c) => c.into_iter().filter(|x| found.contains(x)).collect(),
        });
    }
    common
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}
