//! The search-result compressor (content type `search-result`, method
//! `search-result`; spec/searchresult.md): grep-style `path:line:` hits or
//! URL lists of 18 lines or more keep their first 8 and last 4 lines,
//! lines with diagnostic or security words, query hits and one line per
//! kind; every other run becomes a marker.

use std::sync::LazyLock;

use super::shared::lines::{join_lines, Keep, Lines};
use super::{Compressed, Decline, Input};
use crate::go::regexp::WordSet;

mod grouped;
mod urls;

/// Shorter lists are left alone.
const MIN_LINES: usize = 18;
const HEAD: usize = 8;
const TAIL: usize = 4;
/// At most this many lines are added by the query fill.
const QUERY_FILL: usize = 24;
const MARKER_TEXT: &str = "search result lines elided (caveman)";

/// `(?i)\b(ERROR|FAIL|…|KEY)\b` (searchresult.md §3 step 2).
static SIGNAL: LazyLock<WordSet> = LazyLock::new(|| {
    WordSet::new(&[
        "ERROR", "FAIL", "FAILED", "PANIC", "ACTION", "FOLLOWUP", "SECURITY", "SECRET", "TOKEN",
        "PASSWORD", "KEY",
    ])
});

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    if input.profile.is_lean() {
        return lean(text, input.query, input.budget);
    }
    compress(text, input.query)
}

/// Hits kept per file (lean).
const LEAN_PER_FILE: usize = 2;
/// Entries kept per directory or host of a path or URL list (lean).
const LEAN_PER_GROUP: usize = 2;
/// Files (or directories, hosts) a marker names; the others it counts.
const MARKER_NAMES: usize = 8;

/// What a line of search output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry<'a> {
    /// A match in a file.
    Hit(&'a str),
    /// A context line around a match.
    Context(&'a str),
    /// rg --heading's file line.
    Heading(&'a str),
    /// A line of a path or URL list, grouped by its directory or host.
    Listed(&'a str),
    /// `--`, blank lines and anything else.
    Other,
}

fn entries<'a>(lines: impl Iterator<Item = &'a str>) -> Entries<'a> {
    use crate::detect::lean::{looks_path, scheme_len, search_line, SearchLine};
    let mut out = Entries::default();
    let mut heading: Option<&'a str> = None;
    for raw in lines {
        let l = raw.trim_end_matches('\r');
        if l.trim().is_empty() {
            heading = None;
            out.push(Entry::Other);
            continue;
        }
        let path_of = |l: &'a str| -> &'a str {
            // `REV:path:N:` of git grep keeps REV with the path.
            let mut end = 0;
            for (k, c) in l.char_indices() {
                if c == ':' || (c == '-' && l[k + 1..].starts_with(|d: char| d.is_ascii_digit())) {
                    let rest = &l[k + 1..];
                    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                    if digits > 0 && matches!(rest.as_bytes().get(digits), Some(b':' | b'-')) {
                        return &l[..k];
                    }
                }
                end = k;
            }
            let _ = end;
            l.split(':').next().unwrap_or(l)
        };
        let e = match search_line(l) {
            SearchLine::Hit => Entry::Hit(path_of(l)),
            SearchLine::Context => Entry::Context(path_of(l)),
            SearchLine::Other => {
                let d = l.bytes().take_while(u8::is_ascii_digit).count();
                let numbered = d > 0 && matches!(l.as_bytes().get(d), Some(b':' | b'-'));
                match heading {
                    Some(h) if numbered && l.as_bytes()[d] == b':' => Entry::Hit(h),
                    Some(h) if numbered => Entry::Context(h),
                    _ if looks_path(l) => {
                        heading = Some(l);
                        Entry::Heading(l)
                    }
                    _ if scheme_len(l).is_some() => {
                        let rest = l.split_once("://").map_or("", |x| x.1);
                        let host = rest.split('/').next().unwrap_or(rest);
                        Entry::Listed(&l[..l.len() - rest.len() + host.len()])
                    }
                    _ => Entry::Other,
                }
            }
        };
        out.push(e);
    }
    out.finish();
    out
}

/// The entries of every line, in about a byte a line: a kind per line,
/// and a path number per line that names one (the paths interned). The
/// paths of line `i` are found by its rank among those lines, counted
/// from the nearest of a checkpoint every 64 lines.
#[derive(Default)]
struct Entries<'a> {
    kinds: Vec<u8>,
    ids: Vec<u32>,
    /// Lines naming a path before each block of 64 lines.
    ranks: Vec<u32>,
    paths: Vec<&'a str>,
    interned: rustc_hash::FxHashMap<&'a str, u32>,
}

const OTHER: u8 = 0;
const HIT: u8 = 1;
const CONTEXT: u8 = 2;
const HEADING: u8 = 3;
const LISTED: u8 = 4;

impl<'a> Entries<'a> {
    fn intern(&mut self, p: &'a str) -> u32 {
        let next = self.paths.len() as u32;
        *self.interned.entry(p).or_insert_with(|| {
            self.paths.push(p);
            next
        })
    }

    /// Appends the next line's entry. A heading with no numbered line
    /// right under it is a listed path.
    fn push(&mut self, e: Entry<'a>) {
        if let Some(&HEADING) = self.kinds.last() {
            if !matches!(e, Entry::Hit(_) | Entry::Context(_)) {
                self.unhead();
            }
        }
        if self.kinds.len().is_multiple_of(64) {
            self.ranks.push(self.ids.len() as u32);
        }
        let (k, p) = match e {
            Entry::Hit(p) => (HIT, p),
            Entry::Context(p) => (CONTEXT, p),
            Entry::Heading(p) => (HEADING, p),
            Entry::Listed(p) => (LISTED, p),
            Entry::Other => {
                self.kinds.push(OTHER);
                return;
            }
        };
        self.kinds.push(k);
        let id = self.intern(p);
        self.ids.push(id);
    }

    /// The last line, a heading, becomes the listed path of its directory.
    fn unhead(&mut self) {
        let last = self.kinds.len() - 1;
        let h = self.paths[*self.ids.last().expect("a heading names a path") as usize];
        let dir = h.rsplit_once('/').map_or("", |x| x.0);
        let id = self.intern(dir);
        self.kinds[last] = LISTED;
        *self.ids.last_mut().expect("a heading names a path") = id;
    }

    fn finish(&mut self) {
        if let Some(&HEADING) = self.kinds.last() {
            self.unhead();
        }
        self.interned = Default::default();
    }

    fn len(&self) -> usize {
        self.kinds.len()
    }

    fn get(&self, i: usize) -> Entry<'a> {
        let k = self.kinds[i];
        if k == OTHER {
            return Entry::Other;
        }
        let block = i & !63;
        let rank = self.ranks[i / 64] as usize
            + self.kinds[block..i].iter().filter(|&&k| k != OTHER).count();
        let p = self.paths[self.ids[rank] as usize];
        match k {
            HIT => Entry::Hit(p),
            CONTEXT => Entry::Context(p),
            HEADING => Entry::Heading(p),
            _ => Entry::Listed(p),
        }
    }

    /// Whether line `i` is a hit.
    fn is_hit(&self, i: usize) -> bool {
        self.kinds[i] == HIT
    }

    /// Whether line `i` is a context line of the file `p` names.
    fn is_context_of(&self, i: usize, p: &str) -> bool {
        self.kinds[i] == CONTEXT && self.get(i) == Entry::Context(p)
    }

    fn range(&self, r: std::ops::Range<usize>) -> impl Iterator<Item = Entry<'a>> + '_ {
        r.map(|i| self.get(i))
    }
}

/// The lean search view: grep hits grouped by file ([`grouped`]); under a
/// budget or for lists, per file its first hits (and their context), the
/// rest counted on a line that names the file; per directory or host of a
/// list its first entries, the rest counted.
fn lean(text: &str, query: &str, budget: Option<usize>) -> Result<Compressed, Decline> {
    let doc = Lines::split(text);
    let n = doc.len();
    if n < 8 {
        return Err(Decline("fewer than 8 lines"));
    }
    if budget.is_none() {
        if let Some(c) = grouped::grouped(text, query) {
            return Ok(c);
        }
        if let Some(c) = urls::grouped(text) {
            return Ok(c);
        }
    }
    let es = entries(doc.iter());
    let mut keep = Keep::new(n);
    // Hits per file and entries per group, in order.
    let mut seen: rustc_hash::FxHashMap<&str, usize> = rustc_hash::FxHashMap::default();
    for (i, e) in (0..es.len()).map(|i| (i, es.get(i))) {
        match e {
            Entry::Hit(p) => {
                let c = seen.entry(p).or_insert(0);
                *c += 1;
                if *c <= LEAN_PER_FILE {
                    keep.set(i, "first hits of each file");
                }
            }
            Entry::Listed(g) => {
                let c = seen.entry(g).or_insert(0);
                *c += 1;
                if *c <= LEAN_PER_GROUP {
                    keep.set(i, "first entries of each directory or host");
                }
            }
            Entry::Heading(_) => {
                keep.set(i, "file heading");
            }
            Entry::Context(_) | Entry::Other => {}
        }
    }
    keep.fill_query(query, QUERY_FILL, |i| doc.line(i).into());
    // Context lines right next to a kept hit stay with it (hits kept
    // before this rule: it only adds context lines).
    // Each run of one file's context lines is read once (a line-by-line
    // walk to the run's ends was quadratic in the run's length).
    let mut i = 0;
    while i < n {
        let Entry::Context(p) = es.get(i) else {
            i += 1;
            continue;
        };
        let mut k = i;
        while k + 1 < n && es.is_context_of(k + 1, p) {
            k += 1;
        }
        let near = |j: usize| keep.get(j) && es.is_hit(j) && es.get(j) == Entry::Hit(p);
        if (i > 0 && near(i - 1)) || (k + 1 < n && near(k + 1)) {
            for j in i..=k {
                keep.set(j, "context of a kept hit");
            }
        }
        i = k + 1;
    }
    // Blank lines and separators between kept parts stay.
    for i in 0..n {
        if es.get(i) == Entry::Other && doc.line(i).trim().is_empty() {
            keep.set(i, "blank line");
        }
    }
    keep.fit_text(
        budget,
        |i| doc.line(i),
        "\u{2026} 99 more matches in some/path/of/a/file.rs elided (caveman) \u{2026}",
        "",
    );
    let (pieces, _, trace) = keep.collapse(|run| {
        // Paths and groups in first-seen order, found by a map (a scan of
        // the list was quadratic in the files a run holds).
        let mut hits: Vec<(&str, usize)> = Vec::new();
        let mut listed: Vec<(&str, usize)> = Vec::new();
        let mut at: rustc_hash::FxHashMap<(bool, &str), usize> = Default::default();
        let mut context = 0;
        let mut other = 0;
        for e in es.range(run.clone()) {
            let v = match e {
                Entry::Hit(_) => &mut hits,
                Entry::Listed(_) => &mut listed,
                Entry::Context(_) => {
                    context += 1;
                    continue;
                }
                _ => {
                    other += 1;
                    continue;
                }
            };
            let key = match e {
                Entry::Hit(p) => (true, p),
                Entry::Listed(p) => (false, p),
                _ => unreachable!(),
            };
            let k = *at.entry(key).or_insert_with(|| {
                v.push((key.1, 0));
                v.len() - 1
            });
            v[k].1 += 1;
        }
        let mut parts: Vec<String> = Vec::new();
        for (p, c) in hits.iter().take(MARKER_NAMES) {
            parts.push(format!("\u{2026} {c} more matches in {p} elided (caveman)"));
        }
        if hits.len() > MARKER_NAMES {
            let rest = &hits[MARKER_NAMES..];
            let c: usize = rest.iter().map(|x| x.1).sum();
            parts.push(format!(
                "\u{2026} {c} more matches in {} other files elided (caveman)",
                rest.len()
            ));
        }
        for (g, c) in listed.iter().take(MARKER_NAMES) {
            let g = if g.is_empty() { "." } else { g };
            parts.push(format!(
                "\u{2026} {c} more lines under {g} elided (caveman)"
            ));
        }
        if listed.len() > MARKER_NAMES {
            let rest = &listed[MARKER_NAMES..];
            let c: usize = rest.iter().map(|x| x.1).sum();
            parts.push(format!(
                "\u{2026} {c} more lines under {} other directories or hosts elided (caveman)",
                rest.len()
            ));
        }
        let mut extra = Vec::new();
        if context > 0 {
            extra.push(format!("{context} context lines"));
        }
        if other > 0 {
            extra.push(format!("{other} other lines"));
        }
        if parts.is_empty() {
            return (run.len() >= 2).then(|| {
                (
                    format!("\u{2026} {} lines elided (caveman) \u{2026}", run.len()),
                    0,
                )
            });
        }
        let last = parts.len() - 1;
        if !extra.is_empty() {
            parts[last].push_str(&format!(", with {} too", extra.join(" and ")));
        }
        parts[last].push_str(" \u{2026}");
        for p in parts.iter_mut().take(last) {
            p.push_str(" \u{2026}");
        }
        Some((parts.join("\n"), 0))
    });
    if trace.dropped == 0 {
        return Err(Decline("nothing to drop"));
    }
    Ok(Compressed::traced(join_lines(&doc, &pieces), trace))
}

pub(crate) fn compress(text: &str, query: &str) -> Result<Compressed, Decline> {
    let doc = Lines::split(text);
    let n = doc.len();
    if n < MIN_LINES {
        return Err(Decline("fewer than 18 lines"));
    }
    let mut keep = Keep::new(n);
    for (i, line) in doc.iter().enumerate() {
        if i < HEAD {
            keep.set(i, "head");
        } else if i >= n - TAIL {
            keep.set(i, "tail");
        } else if line.contains(MARKER_TEXT) || SIGNAL.is_match(line) {
            keep.set(i, "diagnostic or security word");
        }
    }
    keep.fill_query(query, QUERY_FILL, |i| doc.line(i).into());
    keep.guard(|i| doc.line(i));
    let (pieces, _, trace) = keep.collapse(|run| {
        let m = format!(
            "\u{2026} {} search result lines elided (caveman) \u{2026}",
            run.len()
        );
        Some((m, 0))
    });
    if pieces.count() == n {
        return Err(Decline("nothing dropped but single lines"));
    }
    Ok(Compressed::traced(join_lines(&doc, &pieces), trace))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entry() -> impl Strategy<Value = Entry<'static>> {
        let path = prop_oneof![
            Just("src/a.rs"),
            Just("src/b.rs"),
            Just("lib/c.go"),
            Just("d")
        ];
        prop_oneof![
            Just(Entry::Other),
            path.clone().prop_map(Entry::Hit),
            path.clone().prop_map(Entry::Context),
            path.clone().prop_map(Entry::Heading),
            path.prop_map(Entry::Listed),
        ]
    }

    proptest! {
        #[test]
        fn compact_entries_read_back_as_a_list_would(es in proptest::collection::vec(entry(), 0..400)) {
            // The list, then its headings without numbered lines under
            // them turned into their directories.
            let mut want = es.clone();
            for (i, w) in want.iter_mut().enumerate() {
                if let Entry::Heading(h) = *w {
                    let followed = matches!(es.get(i + 1), Some(Entry::Hit(_) | Entry::Context(_)));
                    if !followed {
                        *w = Entry::Listed(h.rsplit_once('/').map_or("", |x| x.0));
                    }
                }
            }
            let mut got = Entries::default();
            for e in &es {
                got.push(*e);
            }
            got.finish();
            prop_assert_eq!(got.len(), want.len());
            let all: Vec<Entry<'_>> = got.range(0..got.len()).collect();
            prop_assert_eq!(&all, &want);
            for (i, w) in want.iter().enumerate().rev() {
                prop_assert_eq!(got.get(i), *w);
                prop_assert_eq!(got.is_hit(i), matches!(w, Entry::Hit(_)));
            }
        }
    }
}
