//! The config compressor (content type `config`, method `config`).
//!
//! Compat (spec/config.md, this file): YAML, TOML and INI files of 14
//! lines or more keep 3 head and 2 tail lines, signal lines, every YAML
//! top-level key, query hits and one line per kind, then pull in
//! structure (YAML parents and children, TOML/INI section headers and
//! bodies); each dropped run becomes a comment line. A YAML result must
//! still parse.
//!
//! Lean (`lean.rs` and the files beside it): the config is read into a
//! line tree of its dialect (YAML, TOML, INI, .env, .properties); every
//! key is kept, comments fold to one marker per section, repeated
//! subtrees and long lists fold to markers that say what they hide, and
//! the view is printed only when it parses as a sub-tree of the original.

mod check;
mod comments;
mod ini;
mod lean;
mod markers;
mod plan;
mod toml_tree;
mod tree;
mod yaml;

pub(crate) use lean::dialect;

use std::sync::LazyLock;

use super::shared::lines::{join_lines, Keep, Lines};
use super::{Compressed, Decline, Input};
use crate::detect::{config_kind, ConfigKind, Parsed, SECTION, YAML_KEY};
use crate::go::regexp::WordSet;

/// Shorter files are left alone.
const MIN_LINES: usize = 14;
const HEAD: usize = 3;
const TAIL: usize = 2;
/// At most this many lines are added by the query fill.
const QUERY_FILL: usize = 16;
/// A parent or a section header pulls in at most this many lines after it.
const CHILD_WINDOW: usize = 8;
const MARKER_TEXT: &str = "config lines elided (caveman)";

/// `(?i)\b(ERROR|FAIL|…|ROLLBACK)\b` (config.md §4 step 2).
static SIGNAL: LazyLock<WordSet> = LazyLock::new(|| {
    WordSet::new(&[
        "ERROR",
        "FAIL",
        "FAILED",
        "FATAL",
        "PANIC",
        "EXCEPTION",
        "WARNING",
        "SECURITY",
        "SECRET",
        "TOKEN",
        "PASSWORD",
        "DENIED",
        "REJECTED",
        "ROLLBACK",
    ])
});

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    if memchr::memmem::find(input.body, MARKER_TEXT.as_bytes()).is_some() {
        return Err(Decline("already compressed"));
    }
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    if input.profile.is_lean() {
        let hint = match input.parsed {
            Parsed::Config(kind) => Some(kind),
            _ => None,
        };
        return lean::run(text, hint, input.query);
    }
    let kind = match input.parsed {
        Parsed::Config(kind) => Some(kind),
        _ => config_kind(text),
    }
    .ok_or(Decline("not YAML, TOML or INI the config parser accepts"))?;
    compress(text, kind, input.query)
}

/// Leading spaces count 1, TABs 2 (config.md §4).
fn indentation(line: &str) -> usize {
    line.bytes()
        .map_while(|b| match b {
            b' ' => Some(1),
            b'\t' => Some(2),
            _ => None,
        })
        .sum()
}

pub(crate) fn compress(text: &str, kind: ConfigKind, query: &str) -> Result<Compressed, Decline> {
    let doc = Lines::split(text);
    let n = doc.len();
    if n < MIN_LINES {
        return Err(Decline("fewer than 14 lines"));
    }
    let lines = &doc.to_vec();
    let indent: Vec<usize> = lines.iter().map(|l| indentation(l)).collect();
    let mut keep = Keep::new(n);
    for i in 0..HEAD {
        keep.set(i, "head");
    }
    for i in n - TAIL..n {
        keep.set(i, "tail");
    }
    for (i, l) in lines.iter().enumerate() {
        if SIGNAL.is_match(l) {
            keep.set(i, "signal word");
        }
    }
    let yaml_key: Vec<bool> = match kind {
        ConfigKind::Yaml => lines.iter().map(|l| YAML_KEY.is_match(l)).collect(),
        _ => Vec::new(),
    };
    if kind == ConfigKind::Yaml {
        for i in 0..n {
            if indent[i] == 0 && yaml_key[i] {
                keep.set(i, "top-level key");
            }
        }
    }
    keep.fill_query(query, QUERY_FILL, |i| lines[i].into());
    keep.guard(|i| lines[i]);
    match kind {
        ConfigKind::Yaml => {
            let parent: Vec<bool> = (0..n)
                .map(|i| {
                    let t = lines[i].trim();
                    yaml_key[i] && (t.ends_with(':') || t.starts_with("- "))
                })
                .collect();
            yaml_structure(&mut keep, &indent, &parent, lines);
        }
        _ => {
            let section: Vec<bool> = lines.iter().map(|l| SECTION.is_match(l)).collect();
            toml_structure(&mut keep, &section);
        }
    }
    let (pieces, _, trace) = keep.collapse(|run| {
        Some((
            format!(
                "# \u{2026} {} config lines elided (caveman) \u{2026}",
                run.len()
            ),
            0,
        ))
    });
    if pieces.count() >= n {
        return Err(Decline("nothing dropped but single lines"));
    }
    let out = join_lines(&doc, &pieces);
    if out.len() >= text.len() {
        return Err(Decline("not smaller"));
    }
    if kind == ConfigKind::Yaml {
        let parses = std::str::from_utf8(&out).is_ok_and(crate::go::yaml::decodes);
        if !parses {
            return Err(Decline("the YAML view would not parse"));
        }
    }
    Ok(Compressed::traced(out, trace))
}

/// YAML structure (config.md §4 step 6): the chain of shallower parents of
/// every kept line, then up to 8 children of every kept parent.
fn yaml_structure(keep: &mut Keep, indent: &[usize], parent: &[bool], lines: &[&str]) {
    let n = lines.len();
    let snapshot: Vec<bool> = keep.flags();
    // The nearest earlier parent line with indentation below d, for any d:
    // sweeping forward, parents that a later, no deeper parent hides are
    // dropped, leaving indentation strictly rising towards the top.
    let mut stack: Vec<usize> = Vec::new();
    for i in 0..n {
        if snapshot[i] {
            let mut d = indent[i];
            // Scanning down from the top finds the nearest qualifying
            // parent; the next one found for its smaller d lies below it.
            let mut top = stack.len();
            while d > 0 {
                match stack[..top].iter().rposition(|&j| indent[j] < d) {
                    Some(k) => {
                        let j = stack[k];
                        keep.set(j, "parent");
                        d = indent[j];
                        top = k;
                    }
                    None => break,
                }
            }
        }
        if parent[i] {
            while stack.last().is_some_and(|&j| indent[j] >= indent[i]) {
                stack.pop();
            }
            stack.push(i);
        }
    }
    for i in 0..n {
        if !(keep.get(i) && parent[i]) {
            continue;
        }
        let b = indent[i];
        for j in i + 1..=(i + CHILD_WINDOW).min(n - 1) {
            if lines[j].trim().is_empty() {
                continue;
            }
            if indent[j] <= b {
                break;
            }
            keep.set(j, "child");
        }
    }
}

/// TOML/INI structure (config.md §4 step 6): the section header owning
/// every kept line, then up to 8 lines of every kept section.
fn toml_structure(keep: &mut Keep, section: &[bool]) {
    let n = section.len();
    let mut owner: Option<usize> = None;
    for (i, &is_section) in section.iter().enumerate() {
        if is_section {
            owner = Some(i);
        }
        if keep.get(i) {
            if let Some(s) = owner {
                keep.set(s, "section header");
            }
        }
    }
    let snapshot: Vec<bool> = keep.flags();
    for i in (0..n).filter(|&i| snapshot[i] && section[i]) {
        let body = section[i + 1..].iter().take(CHILD_WINDOW);
        for (j, _) in (i + 1..).zip(body).take_while(|(_, &s)| !s) {
            keep.set(j, "section body");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_counts_tabs_twice() {
        assert_eq!(indentation("  \tx"), 4);
        assert_eq!(indentation("x"), 0);
    }
}
