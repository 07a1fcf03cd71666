//! INI (setup.cfg, tox.ini, .conf, .editorconfig), .env and .properties
//! read into the line tree. INI: `[section]` headers own the `key = value`
//! lines below them, and each indented line that continues a value is an
//! item of that key (configparser's multi-line values: tox `deps`,
//! setup.cfg `install_requires`). .env and .properties are flat: every
//! assignment is a root, with its continuation lines (a quoted .env value
//! over several lines, a `\`-continued .properties line).

use std::sync::LazyLock;

use regex::Regex;

use super::check::{ends_continued, open_quote};
use super::tree::{indent, Class, Tree};
use crate::detect::ConfigKind;

pub(super) fn scan_ini(lines: Vec<&str>) -> Option<Tree<'_>> {
    let mut tree = Tree::new(lines, false);
    let mut section: Option<usize> = None;
    let mut entry: Option<usize> = None;
    for i in 0..tree.lines.len() {
        let l = tree.lines[i];
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') || t.starts_with(';') {
            tree.class[i] = Class::Comment;
            continue;
        }
        let indented = l.starts_with([' ', '\t']);
        if let (true, Some(e)) = (indented, entry) {
            tree.push(i, indent(l), None, true, Some(e));
            continue;
        }
        if t.starts_with('[') && t.ends_with(']') {
            let name = t[1..t.len() - 1].trim().to_string();
            let id = tree.push(i, indent(l), Some(name), false, None);
            tree.nodes[id].section = true;
            section = Some(id);
            entry = None;
            continue;
        }
        let key = t.split(['=', ':']).next().unwrap_or(t).trim();
        entry = Some(tree.push(i, indent(l), Some(key.to_string()), false, section));
    }
    tree.finish();
    Some(tree)
}

/// `NAME=value` as .env files write it.
static ENV_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=").expect("env line pattern")
});

/// .env (`kind` Env) or .properties: every assignment a root.
pub(super) fn scan_flat(lines: Vec<&str>, kind: ConfigKind) -> Option<Tree<'_>> {
    let mut tree = Tree::new(lines, true);
    let mut open: Option<usize> = None;
    for i in 0..tree.lines.len() {
        let l = tree.lines[i];
        if let Some(id) = open {
            tree.own(i, id);
            let done = match kind {
                ConfigKind::Properties => !ends_continued(l),
                _ => closes_env_quote(&tree, id, i),
            };
            if done {
                open = None;
            }
            continue;
        }
        let t = l.trim_start();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') || (kind == ConfigKind::Properties && t.starts_with('!')) {
            tree.class[i] = Class::Comment;
            continue;
        }
        let key = match kind {
            ConfigKind::Properties => t.split(['=', ':', ' ', '\t']).next().unwrap_or(t),
            _ => {
                if !ENV_LINE.is_match(t) {
                    return None;
                }
                let k = t.split('=').next().unwrap_or(t);
                k.strip_prefix("export").unwrap_or(k).trim()
            }
        };
        let id = tree.push(i, indent(l), Some(key.to_string()), false, None);
        let continues = match kind {
            ConfigKind::Properties => ends_continued(l),
            _ => open_quote(t),
        };
        if continues {
            open = Some(id);
        }
    }
    if open.is_some() {
        return None;
    }
    tree.finish();
    Some(tree)
}

/// Whether line `i` closes the quoted .env value node `id` opened.
fn closes_env_quote(tree: &Tree<'_>, id: usize, i: usize) -> bool {
    let start = tree.nodes[id].start;
    let joined = tree.lines[start..=i].join("\n");
    !open_quote(joined.trim_start())
}

/// Lines that are neither blank nor comments (`#`, `;`, `!`).
fn significant<'a>(text: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| {
            let t = l.trim();
            !(t.is_empty() || t.starts_with(['#', ';', '!']))
        })
}

/// INI: a `[section]` line at column 0 and assignments.
pub(super) fn looks_ini(text: &str) -> bool {
    let mut sections = 0;
    for l in significant(text) {
        let t = l.trim();
        if t.starts_with('[') && t.ends_with(']') && !l.starts_with([' ', '\t']) {
            sections += 1;
        }
    }
    sections > 0
}

/// .env: every assignment `NAME=value`.
pub(super) fn looks_env(text: &str) -> bool {
    let mut n = 0;
    let mut lines = significant(text);
    while let Some(l) = lines.next() {
        let t = l.trim_start();
        if !ENV_LINE.is_match(t) {
            return false;
        }
        n += 1;
        if open_quote(t) {
            let mut joined = t.to_string();
            for next in lines.by_ref() {
                joined.push('\n');
                joined.push_str(next);
                if !open_quote(&joined) {
                    break;
                }
            }
        }
    }
    n > 0
}

/// .properties: most lines `key=value`, `key: value` or `key value`.
pub(super) fn looks_properties(text: &str) -> bool {
    let (mut n, mut assigns) = (0, 0);
    let mut continued = false;
    for l in significant(text) {
        if continued {
            continued = ends_continued(l);
            continue;
        }
        n += 1;
        let t = l.trim_start();
        let key_end = t.find(['=', ':', ' ', '\t']).unwrap_or(t.len());
        if key_end > 0 && t[key_end..].trim_start().starts_with(['=', ':']) {
            assigns += 1;
        }
        continued = ends_continued(l);
    }
    assigns >= 2 && assigns * 5 >= n * 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ini_values_go_on_as_items() {
        let t = scan_ini(
            "root = true\n[tox]\nenvlist =\n    py310\n    # c\n    py311\n[x]\nk: v\n"
                .lines()
                .collect(),
        )
        .unwrap();
        assert_eq!(t.roots.len(), 3);
        let tox = t.roots[1];
        let envlist = t.nodes[tox].children[0];
        assert_eq!(t.nodes[envlist].children.len(), 2);
        assert_eq!(t.class[4], Class::Comment);
        assert_eq!(t.path(t.nodes[envlist].children[1]), "[tox].envlist[1]");
    }

    #[test]
    fn flat_files_and_their_continuations() {
        let t = scan_flat(
            "A=1\nexport B=\"x\ny\"\n# c\nC=3\n".lines().collect(),
            ConfigKind::Env,
        )
        .unwrap();
        assert_eq!(t.roots.len(), 3);
        assert_eq!(t.class[2], Class::Own(t.roots[1]));
        assert!(scan_flat(vec!["not an assignment"], ConfigKind::Env).is_none());
        let p = scan_flat(
            "a=1\\\n  2\n! c\nb value\n".lines().collect(),
            ConfigKind::Properties,
        )
        .unwrap();
        assert_eq!(p.roots.len(), 2);
        assert_eq!(p.class[2], Class::Comment);
    }

    #[test]
    fn sniffing_tells_the_flat_dialects_apart() {
        assert!(looks_ini("[a]\nx = 1\n"));
        assert!(!looks_ini("a = 1\n"));
        assert!(looks_env("# c\nA=1\nexport B='x'\n"));
        assert!(!looks_env("a.b = 1\n"));
        assert!(looks_properties("a.b=1\nc.d: 2\n! c\n"));
        assert!(!looks_properties("just some words\nand more\n"));
    }
}
