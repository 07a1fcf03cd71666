//! The most frequent kinds of lines, as the closing marker states them: a
//! kind is a template whose `<*>` matches any text, and the count printed
//! beside it is the number of lines whose template it matches, over the
//! whole input. Narrower templates fold into a general one that matches
//! them (`… chrome.exe <*> - www.google.com:<*> …` into `… chrome.exe <*>
//! - <*>:<*> …`), and no line is counted under two listed kinds.

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
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        // No variable: the whole text.
        return rest.is_empty();
    };
    // Leftmost matches of the middle parts leave the most room for the
    // rest; the last part must end the text.
    for p in middle {
        match rest.find(p) {
            Some(at) => rest = &rest[at + p.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
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
