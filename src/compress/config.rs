//! The config compressor (content type `config`, method `config`;
//! spec/config.md): YAML, TOML and INI files of 14 lines or more keep 3
//! head and 2 tail lines, signal lines, every YAML top-level key, query
//! hits and one line per kind, then pull in structure (YAML parents and
//! children, TOML/INI section headers and bodies); each dropped run
//! becomes a comment line. A YAML result must still parse.

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
        let kind = match input.parsed {
            Parsed::Config(kind) => kind,
            _ if crate::go::yaml::decodes(text) && !text.trim_start().starts_with('[') => {
                ConfigKind::Yaml
            }
            _ => ConfigKind::Toml,
        };
        return lean(text, kind, input.query, input.budget);
    }
    let kind = match input.parsed {
        Parsed::Config(kind) => Some(kind),
        _ => config_kind(text),
    }
    .ok_or(Decline("not YAML, TOML or INI the config parser accepts"))?;
    compress(text, kind, input.query)
}

/// Items of one list a lean config keeps.
const LEAN_ITEMS: usize = 2;
/// YAML key lines kept down to this depth (mappings and list items
/// nest).
const LEAN_DEPTH: usize = 3;

/// The lean config view: every key line down to depth 3 with its value
/// (YAML), every section and key line (TOML, INI); comments, deeper
/// lines and all but the first items of a long list or a multi-line
/// value dropped, each run counted in a comment line at its place. A
/// YAML view must still parse, or the compat view is used.
fn lean(
    text: &str,
    kind: ConfigKind,
    query: &str,
    budget: Option<usize>,
) -> Result<Compressed, Decline> {
    let doc = Lines::split(text);
    let n = doc.len();
    if n < 8 {
        return Err(Decline("fewer than 8 lines"));
    }
    let mut keep = Keep::new(n);
    let comment = |l: &str| {
        let t = l.trim_start();
        t.starts_with('#') || (kind == ConfigKind::Toml && t.starts_with(';'))
    };
    match kind {
        ConfigKind::Yaml => lean_yaml(&doc, &mut keep),
        ConfigKind::Toml => lean_ini(&doc, &mut keep),
    }
    for i in 0..n {
        if doc.line(i).trim().is_empty() {
            keep.set(i, "blank line");
        }
    }
    keep.fill_query(query, QUERY_FILL, |i| doc.line(i).into());
    keep.fit_text(
        budget,
        |i| doc.line(i),
        "    # \u{2026} 99 lines elided (caveman) \u{2026}",
        "",
    );
    // A marker goes at the dropped run's own indentation, or its parent's
    // when the run is inside a block scalar.
    let (pieces, _, trace) = keep.collapse(|run| {
        let comments = run.clone().filter(|&i| comment(doc.line(i))).count();
        let other = run.len() - comments;
        let indent = run
            .clone()
            .map(|i| indentation(doc.line(i)))
            .min()
            .unwrap_or(0)
            .min(
                run.start
                    .checked_sub(1)
                    .map_or(0, |p| indentation(doc.line(p)) + 2),
            );
        let pad = " ".repeat(indent);
        let what = match (other, comments) {
            (0, c) => format!("{c} comment lines"),
            (o, 0) => format!("{o} lines"),
            (o, c) => format!("{o} lines and {c} comment lines"),
        };
        Some((
            format!("{pad}# \u{2026} {what} elided (caveman) \u{2026}"),
            0,
        ))
    });
    let out = join_lines(&doc, &pieces);
    if kind == ConfigKind::Yaml {
        let ok = std::str::from_utf8(&out).is_ok_and(crate::go::yaml::decodes);
        if !ok {
            return compress(text, kind, query);
        }
    }
    Ok(Compressed::traced(out, trace))
}

/// YAML lines by structure: key lines down to [`LEAN_DEPTH`], the first
/// items of each list, document markers.
fn lean_yaml(doc: &Lines<'_>, keep: &mut Keep) {
    // Open parents: (indentation, is a list item, items seen so far).
    let mut stack: Vec<(usize, bool, usize)> = Vec::new();
    let mut block: Option<usize> = None;
    let mut dropping_item: Option<usize> = None;
    for (i, l) in doc.iter().enumerate() {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        let ind = indentation(l);
        if let Some(b) = block {
            if ind > b {
                continue;
            }
            block = None;
        }
        if t.starts_with('#') {
            continue;
        }
        if t == "---" || t == "..." || t.starts_with("%") {
            stack.clear();
            keep.set(i, "document marker");
            continue;
        }
        while stack
            .last()
            .is_some_and(|p| p.0 > ind || (p.0 == ind && !p.1))
        {
            stack.pop();
        }
        if let Some(d) = dropping_item {
            if ind > d {
                continue;
            }
            dropping_item = None;
        }
        let item = t.starts_with("- ") || t == "-";
        if item {
            // Count items of the list at this indentation.
            let count = match stack.last_mut() {
                Some(p) if p.0 == ind && p.1 => {
                    p.2 += 1;
                    p.2
                }
                _ => {
                    stack.push((ind, true, 1));
                    1
                }
            };
            if count > LEAN_ITEMS {
                dropping_item = Some(ind);
                continue;
            }
        }
        let depth = stack.iter().filter(|p| !p.1).count() + usize::from(item);
        let is_key = YAML_KEY.is_match(l) || item;
        if is_key && depth < LEAN_DEPTH + usize::from(item) {
            keep.set(
                i,
                if depth <= 1 {
                    "key (depth 1-2)"
                } else {
                    "key (depth 3)"
                },
            );
        } else if !is_key && depth <= LEAN_DEPTH {
            keep.set(i, "value");
        }
        let after = t.rsplit_once(':').map_or("", |x| x.1).trim();
        if after.starts_with('|') || after.starts_with('>') {
            block = Some(ind);
            // The first lines of a block scalar stay with its key.
            for j in i + 1..(i + 3).min(doc.len()) {
                if keep.get(i) && indentation(doc.line(j)) > ind && !doc.line(j).trim().is_empty() {
                    keep.set(j, "value");
                }
            }
        }
        if YAML_KEY.is_match(l) && !item {
            stack.push((ind, false, 0));
        } else if item && YAML_KEY.is_match(&l.replacen('-', " ", 1)) {
            stack.push((ind + 2, false, 0));
        }
    }
}

/// TOML and INI lines: sections and key lines stay; comments, and all but
/// the first lines of a multi-line value (arrays, continuation lines), go.
fn lean_ini(doc: &Lines<'_>, keep: &mut Keep) {
    let mut depth: i32 = 0;
    let mut items = 0;
    for (i, l) in doc.iter().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        let indented = l.starts_with([' ', '\t']);
        if depth > 0 || (indented && items > 0) {
            items += 1;
            depth += brackets(t);
            if items <= LEAN_ITEMS || (depth <= 0 && (t == "]" || t == "}")) {
                keep.set(i, "first items of a multi-line value");
            }
            if depth < 0 {
                depth = 0;
            }
            continue;
        }
        keep.set(i, "section or key");
        items = 0;
        let value = t.split_once(['=', ':']).map_or("", |x| x.1);
        depth = brackets(value).max(0);
        if depth > 0 || value.trim().is_empty() {
            items = 1;
        }
    }
}

/// Net opening brackets outside strings.
fn brackets(v: &str) -> i32 {
    let mut d = 0;
    let mut quote = None;
    for c in v.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') => break,
            (None, '[' | '{') => d += 1,
            (None, ']' | '}') => d -= 1,
            _ => {}
        }
    }
    d
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
        ConfigKind::Toml => Vec::new(),
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
        ConfigKind::Toml => {
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
