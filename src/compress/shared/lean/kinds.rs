//! The most frequent kinds of lines, as the closing marker states them: a
//! kind is a template whose `<*>` matches any text, and the count printed
//! beside it is the number of lines whose template it matches, over the
//! whole input. Narrower templates fold into a general one that matches
//! them (`… chrome.exe <*> - www.google.com:<*> …` into `… chrome.exe <*>
//! - <*>:<*> …`), and no line is counted under two listed kinds.

use std::cell::OnceCell;

/// Templates tried as a listed kind, at most (the most frequent ones).
const CANDIDATES: usize = 32;
/// Letters a listed kind holds outside its variables, at least: a
/// template of variables and punctuation matches nearly anything.
const MIN_LETTERS: usize = 3;

/// The variable of a template.
const VAR: &str = "<*>";

/// True when `pattern` (a template; each `<*>` matches any text, empty
/// included) matches all of `text`.
pub(super) fn glob(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split(VAR);
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let Some(mut part) = parts.next() else {
        // No variable: the whole text.
        return rest.is_empty();
    };
    // Leftmost matches of the middle parts leave the most room for the
    // rest; the last part must end the text.
    for next in parts {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
        part = next;
    }
    rest.len() >= part.len() && rest.ends_with(part)
}

/// The kinds to list: `(template, lines it matches)`, most lines first,
/// at most `listed`, each over more than two lines. `by_count` holds every
/// template of the input with its line count, most frequent first.
pub(super) fn frequent<'a>(by_count: &[(&'a str, usize)], listed: usize) -> Vec<(&'a str, usize)> {
    if listed == 0 {
        return Vec::new();
    }
    let letters = |t: &str| {
        t.split(VAR)
            .flat_map(str::chars)
            .filter(|c| c.is_alphabetic())
            .count()
    };
    // Each candidate's templates: the ones it matches (itself included).
    let candidates: Vec<(usize, Vec<usize>, usize)> = by_count
        .iter()
        .enumerate()
        .filter(|(_, (t, c))| *c > 2 && letters(t) >= MIN_LETTERS)
        .take(CANDIDATES)
        .map(|(k, (t, _))| {
            let members: Vec<usize> = if t.contains(VAR) {
                by_count
                    .iter()
                    .enumerate()
                    .filter(|(_, (u, _))| glob(t, u))
                    .map(|(j, _)| j)
                    .collect()
            } else {
                vec![k]
            };
            let lines = members.iter().map(|&j| by_count[j].1).sum();
            (k, members, lines)
        })
        .collect();
    // Greedy: the candidate over most lines whose templates no listed kind
    // holds yet (ties: the more frequent template first).
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| {
        candidates[b]
            .2
            .cmp(&candidates[a].2)
            .then(candidates[a].0.cmp(&candidates[b].0))
    });
    let mut claimed = vec![false; by_count.len()];
    let mut out = Vec::new();
    for c in order {
        if out.len() >= listed {
            break;
        }
        let (k, members, lines) = &candidates[c];
        if members.iter().any(|&j| claimed[j]) {
            continue;
        }
        for &j in members {
            claimed[j] = true;
        }
        out.push((by_count[*k].0, *lines));
    }
    out
}

/// Characters of a listed pattern at most; a longer one is cut and ends
/// in `<*>` (it then matches at least the lines the whole one does).
const MAX_PATTERN: usize = 160;

/// The kinds as the closing marker prints them, each counted again over
/// the lines themselves (whitespace collapsed, a leading timestamp
/// removed: what the pattern is read against): a line's template can
/// differ from its text where a timestamp or quoted text was masked, and
/// the count beside a pattern is every line it matches. A kind that
/// shares a line with an earlier one is left out.
pub(super) fn recount<'a>(
    doc: &super::super::lines::Lines<'a>,
    kinds: &[(&str, usize)],
) -> Vec<(String, usize)> {
    let shown: Vec<String> = kinds
        .iter()
        .map(|(t, _)| {
            if t.chars().count() > MAX_PATTERN {
                let mut c: String = t.chars().take(MAX_PATTERN).collect();
                c.push_str(VAR);
                c
            } else {
                (*t).to_string()
            }
        })
        .take(32)
        .collect();
    if shown.is_empty() {
        return Vec::new();
    }
    // The longest word of each pattern's literal parts: a line without
    // it cannot match (whitespace runs of the line collapse first).
    let keys: Vec<&str> = shown
        .iter()
        .map(|t| {
            t.split(VAR)
                .flat_map(str::split_whitespace)
                .max_by_key(|p| p.len())
                .unwrap_or("")
        })
        .collect();
    let parts = crate::par::map(crate::par::ranges(doc.len(), 4096), |r| {
        let mut counts = vec![0usize; shown.len()];
        let mut overlaps: Vec<u32> = Vec::new();
        for line in doc.range(r) {
            if line.trim().is_empty() {
                continue;
            }
            // The line as the patterns read it, made once for the line.
            let norm: OnceCell<String> = OnceCell::new();
            let read: OnceCell<&str> = OnceCell::new();
            let mut mask = 0u32;
            for (k, t) in shown.iter().enumerate() {
                if !line.contains(keys[k]) {
                    continue;
                }
                let n = norm.get_or_init(|| line.split_whitespace().collect::<Vec<_>>().join(" "));
                if glob(t, read.get_or_init(|| super::strip_lead_ts(n).trim())) {
                    counts[k] += 1;
                    mask |= 1 << k;
                }
            }
            if mask.count_ones() > 1 && !overlaps.contains(&mask) {
                overlaps.push(mask);
            }
        }
        (counts, overlaps)
    });
    let mut counts = vec![0usize; shown.len()];
    let mut overlaps: Vec<u32> = Vec::new();
    for (c, o) in parts {
        for (a, b) in counts.iter_mut().zip(c) {
            *a += b;
        }
        overlaps.extend(o);
    }
    let mut kept = 0u32;
    let mut out = Vec::new();
    for (k, t) in shown.into_iter().enumerate() {
        let bit = 1u32 << k;
        if overlaps.iter().any(|m| m & bit != 0 && m & kept != 0) || counts[k] <= 2 {
            continue;
        }
        kept |= bit;
        out.push((t, counts[k]));
    }
    out.sort_by_key(|k| std::cmp::Reverse(k.1));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_matches_any_text() {
        assert!(glob("a <*> b", "a x y b"));
        assert!(glob("a <*> b", "a <*> b"));
        assert!(glob("<*>", ""));
        assert!(glob("x <*>:<*> y", "x www.google.com:<*> y"));
        assert!(!glob("x <*> - <*> y", "x - proxy y"));
        assert!(!glob("ab", "abc"));
        assert!(glob("ab<*>", "abc"));
        assert!(!glob("a<*>a", "a"));
        assert!(glob("a<*>b<*>b", "abbb"));
    }

    #[test]
    fn narrower_kinds_fold_and_no_line_counts_twice() {
        let by_count = [
            ("go <*> - <*>:<*> open", 138),
            ("go - proxy:<*> open", 120),
            ("go <*> - www.google.com:<*> open", 11),
            ("go <*> - www.evernote.com:<*> open", 9),
            ("Passed: c/<*>/<*>", 5),
            ("Passed: c/a/B.java", 1),
            ("<*> <*>", 400),
        ];
        let got = frequent(&by_count, 8);
        assert_eq!(
            got,
            [
                ("go <*> - <*>:<*> open", 158),
                ("go - proxy:<*> open", 120),
                ("Passed: c/<*>/<*>", 6)
            ]
        );
    }
}
