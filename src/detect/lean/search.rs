//! grep, ripgrep, ag and git-grep output, and lists of paths or URLs.

use super::{share, Ctx, Hit};
use crate::content_type::ContentType;

/// grep/rg/ag/git-grep lines: `path:N:text` (or `path:N:col:text`),
/// `path-N-text` context, `path:text` with a file-looking path, `--`
/// separators, and rg --heading's path lines followed by `N:text`; or a
/// list of paths or URLs (`grep -l`, `find`, `fd`). A compiler's or test
/// runner's `path:N: error: …` is a diagnostic, not a hit.
pub(super) fn grep<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    let mut hits = 0;
    let mut explained = 0;
    let mut other = 0;
    let mut heading: Option<&str> = None;
    let mut heading_hits = 0;
    for l in &s.lines {
        if l.trim().is_empty() {
            heading = None;
            continue;
        }
        if *l == "--" {
            explained += 1;
            continue;
        }
        match search_line(l) {
            SearchLine::Hit if diagnostic(l) => other += 1,
            SearchLine::Hit => hits += 1,
            SearchLine::Context => explained += 1,
            SearchLine::Other => {
                if heading.is_some() && heading_hit(l) {
                    heading_hits += 1;
                } else if looks_path(l) {
                    heading = Some(l);
                    explained += 1;
                } else {
                    other += 1;
                }
            }
        }
    }
    let total = hits + heading_hits;
    if total >= 3 && total * 2 > other * 3 {
        return Some(Hit::new(
            ContentType::SearchResult,
            "grep/rg output: most lines are path:line: hits, context lines or file headings",
            share(total + explained, s.non_blank),
        ));
    }
    let listed = s.count(|l| looks_path(l.trim_end()) || is_url(l.trim_end()));
    (listed >= 3 && listed * 10 >= s.non_blank * 9).then(|| {
        Hit::new(
            ContentType::SearchResult,
            "a list of paths or URLs (grep -l, find, fd)",
            share(listed, s.non_blank),
        )
    })
}

/// What a compiler, linter or test runner prints after `path:N:` (or
/// `path:N:col:`): a severity or an exception name, not a grep hit.
fn diagnostic(l: &str) -> bool {
    let mut rest = l;
    // Up to three `:`-separated fields (path, line, column).
    for _ in 0..3 {
        match rest.split_once(':') {
            Some((_, r)) => {
                rest = r;
                let t = rest.trim_start();
                let word: String = t
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ' ')
                    .collect();
                let word = word.trim_end();
                if matches!(
                    word,
                    "error" | "warning" | "note" | "fatal error" | "fatal" | "info" | "hint"
                ) && t[word.len()..].starts_with([':', '['])
                {
                    return true;
                }
                // pytest's `path:N: AssertionError` (the name alone, or
                // with its message after `: `).
                let name = word.split(' ').next().unwrap_or("");
                let after = t[name.len()..].trim_end();
                if name.len() > 5
                    && name.starts_with(|c: char| c.is_ascii_uppercase())
                    && (name.ends_with("Error") || name.ends_with("Exception"))
                    && (after.is_empty() || after.starts_with(": "))
                {
                    return true;
                }
            }
            None => break,
        }
    }
    false
}

fn is_url(l: &str) -> bool {
    (l.starts_with("https://") || l.starts_with("http://")) && !l.contains(char::is_whitespace)
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SearchLine {
    Hit,
    Context,
    Other,
}

/// One line of grep output: a hit (`path:N:` or `path:` with a file
/// path), a context line (`path-N-`), or something else.
pub(crate) fn search_line(l: &str) -> SearchLine {
    let b = l.as_bytes();
    if b.is_empty() || b[0].is_ascii_whitespace() || b[0] == b':' || scheme_len(l).is_some() {
        return SearchLine::Other;
    }
    // `git grep REV` prefixes `REV:`.
    let start = l
        .find(':')
        .filter(|&c| {
            c <= 41
                && l[..c]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'^' || c == b'~')
                && l[c + 1..]
                    .find(':')
                    .is_some_and(|d| looks_path(&l[c + 1..c + 1 + d]))
        })
        .map_or(0, |c| c + 1);
    let rest = &l[start..];
    // path:N: (the path may hold no ':'; it stops at the first ':').
    if let Some(colon) = rest.find(':') {
        let path = &rest[..colon];
        let after = &rest.as_bytes()[colon + 1..];
        let digits = after.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && after.get(digits) == Some(&b':') && file_like(path) {
            return SearchLine::Hit;
        }
        if digits == 0 && looks_path(path) && (path.contains('/') || has_extension(path)) {
            return SearchLine::Hit;
        }
    }
    // path-N- context: the last `-N-` whose prefix is a path.
    let mut from = 0;
    while let Some(k) = rest[from..].find('-') {
        let k = from + k;
        let after = &rest.as_bytes()[k + 1..];
        let digits = after.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && after.get(digits) == Some(&b'-') && file_like(&rest[..k]) {
            return SearchLine::Context;
        }
        from = k + 1;
    }
    SearchLine::Other
}

/// The length of a URL's `scheme://` at the start of `l` (`https://`,
/// `git+ssh://`): such a line is a link, never a `path:N:` record.
pub(crate) fn scheme_len(l: &str) -> Option<usize> {
    let b = l.as_bytes();
    let n = b
        .iter()
        .take(32)
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-'))
        .count();
    (n > 0 && b[0].is_ascii_alphabetic() && l[n..].starts_with("://")).then_some(n + 3)
}

/// A path as grep prints it: no spaces, no control characters, short.
fn path_like(p: &str) -> bool {
    !p.is_empty()
        && p.len() < 300
        && !p.bytes().any(|c| c == b' ' || c == b'\t' || c < 0x20)
        && !p.starts_with("http")
        && p.bytes().any(|c| c.is_ascii_alphanumeric())
}

/// A path that names a file: path-like, with a directory or an extension.
fn file_like(p: &str) -> bool {
    path_like(p) && (p.contains('/') || has_extension(p)) && !p.contains(',')
}

fn has_extension(p: &str) -> bool {
    match p.rfind('.') {
        Some(d) => {
            let ext = &p[d + 1..];
            (1..=8).contains(&ext.len()) && ext.bytes().all(|c| c.is_ascii_alphanumeric()) && d > 0
        }
        None => false,
    }
}

/// A line that names a file (rg --heading's path line, `grep -l`).
pub(crate) fn looks_path(l: &str) -> bool {
    file_like(l) && !l.contains(':') && l.bytes().any(|b| b.is_ascii_alphabetic())
}

/// rg --heading's hit line: `N:text` or `N-text`.
fn heading_hit(l: &str) -> bool {
    let b = l.as_bytes();
    let d = b.iter().take_while(|c| c.is_ascii_digit()).count();
    d > 0 && matches!(b.get(d), Some(b':') | Some(b'-'))
}
