//! Comments fold to one marker per section: a top-level key (a job of a
//! large top-level mapping), a `[table]` or `[section]`, a run of
//! one-line top-level keys, the whole of a flat file; the blank lines
//! between a section's comments go with them. A section whose comments
//! are a remark or two keeps them.

use super::markers::and_lines;
use super::plan::{Group, Plan, NONE};
use super::tree::{indent, Class, Tree};

/// A section's comments fold when they hold at least this many bytes (a
/// remark or two stays where it is).
const COMMENT_BYTES: usize = 160;
/// A large top-level YAML mapping folds its comments per child instead.
const SECTION_SPLIT: usize = 60;

/// The section a comment line belongs to: the top-level node it is in
/// (a child of a large top-level mapping, a job say, when it is in one);
/// between nodes, the next one when the comment sits right above it (no
/// blank line between), else the one before; among one-line top-level
/// keys, the first of their run. `None` in a flat file and for a file's
/// head comments.
fn section_of(tree: &Tree<'_>, i: usize) -> Option<usize> {
    if tree.flat {
        return None;
    }
    let r = owner(tree, &tree.roots, i)?;
    if is_leaf_root(tree, r) {
        let k = tree.roots.iter().position(|&x| x == r)?;
        let first = tree.roots[..k]
            .iter()
            .rposition(|&x| !is_leaf_root(tree, x))
            .map_or(0, |p| p + 1);
        return Some(tree.roots[first]);
    }
    let node = &tree.nodes[r];
    if node.section || node.end - node.start <= SECTION_SPLIT || !tree.span(r).contains(&i) {
        return Some(r);
    }
    Some(owner(tree, &node.children, i).unwrap_or(r))
}

/// Which of the sibling nodes `nodes` comment line `i` goes with: the one
/// it is in, the next one when it sits right above it, else the one
/// before; `None` before the first one (and not right above it).
fn owner(tree: &Tree<'_>, nodes: &[usize], i: usize) -> Option<usize> {
    if let Some(&n) = nodes.iter().find(|&&n| tree.span(n).contains(&i)) {
        return Some(n);
    }
    let next = nodes.iter().copied().find(|&n| tree.nodes[n].start > i);
    let prev = nodes
        .iter()
        .copied()
        .rev()
        .find(|&n| tree.nodes[n].start < i);
    let above = next.filter(|&n| (i..tree.nodes[n].start).all(|j| tree.class[j] == Class::Comment));
    above.or(prev)
}

/// A top-level key with its value on its own line (no section header).
fn is_leaf_root(tree: &Tree<'_>, r: usize) -> bool {
    let node = &tree.nodes[r];
    node.children.is_empty() && !node.section
}

/// A section keeps at most this many commented-out settings as lines;
/// past it they fold with its other comments (a file of documented
/// defaults, one per setting).
const KEPT_SETTINGS: usize = 12;

/// A comment that is a setting switched off (`#PreferLocal=true`,
/// `# max_connections = 100`, `#  image: nginx`): the key a reader can
/// switch on. Prose (`# Note: this …`) is not one: the key is one word,
/// and after a colon the value is one word too.
fn commented_setting(line: &str) -> bool {
    let body = line
        .trim_start()
        .trim_start_matches(['#', ';'])
        .trim_start();
    let key_end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(body.len());
    if key_end == 0
        || key_end > 48
        || !body.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    {
        return false;
    }
    let rest = body[key_end..].trim_start();
    if let Some(value) = rest.strip_prefix('=') {
        // A value of a few words (`-Xmx1g -Xms1g`), not a sentence.
        return value.split_whitespace().count() <= 4;
    }
    match rest.strip_prefix(':') {
        Some(value) if value.starts_with(' ') => {
            let value = value.trim();
            !value.is_empty()
                && !value.contains(' ')
                && body.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        }
        _ => false,
    }
}

/// A remark over a key in a flat file is at most this many lines.
const KEY_REMARK_LINES: usize = 2;
/// ... of at most this many bytes each.
const KEY_REMARK_BYTES: usize = 160;
/// Remarks over keys stay while they take at most 1/this of the file.
const KEY_REMARK_SHARE: usize = 3;

/// Whether the comment run `first..end` of a flat file (.env,
/// .properties) is a short remark right above a key (`# Required since
/// v3.0: …` over `REDIS_URL=`, `# --- Auth ---` over the section's first
/// key): in a file with no sections, the comments are its documentation
/// and its structure, and stay. Longer runs (a licence, a header) fold.
fn documents_key(tree: &Tree<'_>, first: usize, end: usize) -> bool {
    end < tree.lines.len()
        && matches!(tree.class[end], Class::Own(_))
        && end - first <= KEY_REMARK_LINES
        && (first..end).all(|j| tree.lines[j].len() <= KEY_REMARK_BYTES)
}

/// The remarks over keys of a flat file that stay ([`documents_key`]):
/// all of them when they take at most 1/[`KEY_REMARK_SHARE`] of the
/// file's bytes, else none (a comment over every key, the same words each
/// time, is the file's bulk and folds).
fn key_remarks(tree: &Tree<'_>) -> Vec<bool> {
    if !tree.flat {
        return Vec::new();
    }
    // Each run of comment lines read once.
    let n = tree.lines.len();
    let mut marks = vec![false; n];
    let mut i = 0;
    while i < n {
        if tree.class[i] != Class::Comment {
            i += 1;
            continue;
        }
        let first = i;
        while i < n && tree.class[i] == Class::Comment {
            i += 1;
        }
        if documents_key(tree, first, i) {
            marks[first..i].fill(true);
        }
    }
    let size = |i: usize| tree.lines[i].len() + 1;
    let remarks: usize = (0..n).filter(|&i| marks[i]).map(size).sum();
    let total: usize = (0..n).map(size).sum();
    if remarks * KEY_REMARK_SHARE <= total {
        marks
    } else {
        Vec::new()
    }
}

/// Comments fold to one marker per section (with the blank lines between
/// them), when they hold enough to pay for it; a section's first
/// commented-out settings stay as lines.
pub(super) fn comment_groups(tree: &Tree<'_>, plan: &mut Plan) {
    let mut sections: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
    let mut settings: Vec<(Option<usize>, usize)> = Vec::new();
    let remarks = key_remarks(tree);
    for i in 0..tree.lines.len() {
        if tree.class[i] != Class::Comment
            || plan.group[i] != NONE
            || tree.lines[i].contains("(caveman)")
        {
            continue;
        }
        if remarks.get(i).copied().unwrap_or(false) {
            continue;
        }
        if commented_setting(tree.lines[i]) {
            let s = section_of(tree, i);
            match settings.iter_mut().find(|x| x.0 == s) {
                Some(x) if x.1 >= KEPT_SETTINGS => {}
                Some(x) => {
                    x.1 += 1;
                    continue;
                }
                None => {
                    settings.push((s, 1));
                    continue;
                }
            }
        }
        let s = section_of(tree, i);
        match sections.iter_mut().find(|x| x.0 == s) {
            Some(x) => x.1.push(i),
            None => sections.push((s, vec![i])),
        }
    }
    for (s, lines) in sections {
        let bytes: usize = lines.iter().map(|&i| tree.lines[i].len() + 1).sum();
        if bytes < COMMENT_BYTES {
            continue;
        }
        let g = plan.groups.len();
        for &i in &lines {
            plan.group[i] = g;
        }
        // Blank lines between two of the section's comments go with them.
        let mut blanks = 0;
        for w in lines.windows(2) {
            let (a, b) = (w[0], w[1]);
            if (a + 1..b).all(|j| tree.class[j] == Class::Blank && plan.group[j] == NONE) {
                for j in a + 1..b {
                    plan.group[j] = g;
                    blanks += 1;
                }
            }
        }
        let first = lines[0];
        // Runs: comments not joined by other comments or blank lines of
        // the group; a reader learns the marker stands for several places.
        let runs = 1 + lines
            .windows(2)
            .filter(|w| (w[0] + 1..w[1]).any(|j| plan.group[j] != g))
            .count();
        let runs = if runs > 1 {
            format!(" ({runs} runs)")
        } else {
            String::new()
        };
        let place = match s {
            Some(id) if !is_leaf_root(tree, id) => format!(" in {}", section_label(tree, id)),
            _ => String::new(),
        };
        let blank = and_lines(blanks, "blank");
        let text = format!(
            "# \u{2026} {} comment line{}{blank}{place}{runs} elided (caveman) \u{2026}",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" }
        );
        plan.groups.push(Group {
            first,
            col: indent(tree.lines[first]),
            text,
        });
    }
}

fn section_label(tree: &Tree<'_>, id: usize) -> String {
    let node = &tree.nodes[id];
    match (&node.key, node.section) {
        (Some(k), true) if node.item => format!("[[{k}]]"),
        (Some(k), true) => format!("[{k}]"),
        _ => tree.path(id),
    }
}

#[cfg(test)]
mod tests {
    use super::commented_setting;

    #[test]
    fn commented_out_settings_are_told_from_prose() {
        for yes in [
            "#PreferLocalMetainfoData=true",
            "# max_connections = 100",
            ";extension=gd",
            "#  image: nginx:1.25",
            "#export_dir=",
        ] {
            assert!(commented_setting(yes), "{yes}");
        }
        for no in [
            "# Note: this option is only useful in tests",
            "# Set this value to have AppStream prefer local data",
            "#",
            "# See: https://example.com/docs",
            "# TODO: remove",
            "# x = y when you want the behaviour the manual describes",
        ] {
            assert!(!commented_setting(no), "{no}");
        }
    }
}
