//! What a run of names shares: lines that are each one word (file
//! names, paths, URLs, package files of an index) cut at `/` and `-`
//! into the same fields, stated as one pattern whose varying fields list
//! their values (`../dist/{pkg|pkg_full}-{1.0|1.1|…}-{cp39|cp310}`, past 16 values
//! the first 8 and how many more).
//! The pattern is a fact of every line of the run: each line is the
//! pattern with one of each field's values, and each value is some line's.
//! A name that holds a credential (`user:password@` in a URL, a token)
//! leaves the run unstated.

use rustc_hash::FxHashSet;

use super::secrets::holds_credential;

/// Lines a run must have for a pattern to say more than the lines.
const MIN_NAMES: usize = 4;
/// A name longer than this (bytes) is not a name.
const MAX_NAME: usize = 300;
/// Values a varying field lists whole; past this, its first
/// [`SHOWN_VALUES`] and how many more.
const ALL_VALUES: usize = 16;
const SHOWN_VALUES: usize = 8;
/// Fields a pattern has at most.
const MAX_FIELDS: usize = 16;

/// Whether `c` separates two fields of a name.
fn separator(c: char) -> bool {
    c == '/' || c == '-'
}

/// The pattern of the run's names, at most `room` bytes (past it, each
/// varying field lists fewer of its values, then only counts them); empty when a line is not one
/// word, the lines do not share their separators, fewer than
/// [`MIN_NAMES`] lines, or a name holds a credential.
pub(crate) fn pattern<'a>(lines: impl Iterator<Item = &'a str>, room: usize) -> String {
    // The separators of the first name, and each field's distinct
    // values in order of first appearance.
    let mut seps: Option<Vec<char>> = None;
    let mut fields: Vec<Vec<&'a str>> = Vec::new();
    let mut seen: Vec<FxHashSet<&'a str>> = Vec::new();
    let mut n = 0usize;
    for line in lines {
        let name = line.trim();
        if name.is_empty() {
            continue;
        }
        if name.len() > MAX_NAME || name.contains(char::is_whitespace) || holds_credential(name) {
            return String::new();
        }
        let these: Vec<char> = name.chars().filter(|&c| separator(c)).collect();
        match &seps {
            None => {
                if these.is_empty() || these.len() >= MAX_FIELDS {
                    return String::new();
                }
                fields = vec![Vec::new(); these.len() + 1];
                seen = vec![FxHashSet::default(); these.len() + 1];
                seps = Some(these);
            }
            Some(s) if *s != these => return String::new(),
            Some(_) => {}
        }
        for (k, v) in name.split(separator).enumerate() {
            if seen[k].insert(v) {
                fields[k].push(v);
            }
        }
        n += 1;
    }
    let Some(seps) = seps else {
        return String::new();
    };
    if n < MIN_NAMES {
        return String::new();
    }
    // Every value of a field up to 16, then up to 6 (the first 4 past
    // it), then counts only: the richest that fits.
    for lists in [Some((ALL_VALUES, SHOWN_VALUES)), Some((6, 4)), None] {
        let mut s = String::from("names ");
        for (k, values) in fields.iter().enumerate() {
            if k > 0 {
                s.push(seps[k - 1]);
            }
            s.push_str(&field(values, lists));
        }
        if s.len() <= room {
            return s;
        }
    }
    String::new()
}

/// One field of the pattern: its value when all lines share it, else
/// `{a|b|c}` (at most `all` values), or `{a b c d … (+N)}` (its first
/// `shown`), or `{N values}` (`lists` is `None`).
fn field(values: &[&str], lists: Option<(usize, usize)>) -> String {
    match (values, lists) {
        ([one], _) => (*one).to_string(),
        (_, None) => format!("{{{} values}}", values.len()),
        (_, Some((all, _))) if values.len() <= all => format!("{{{}}}", values.join("|")),
        (_, Some((_, shown))) => format!(
            "{{{} \u{2026} (+{})}}",
            values[..shown].join(" "),
            values.len() - shown
        ),
    }
}

/// Consecutive names in a row that folds into a range: at least this
/// many.
const MIN_SEQUENCE: usize = 4;

/// A name as its prefix and the number it ends in (`t-17` is ("t-", 17));
/// `None` without one, or with a leading zero (`v007` is a name whose
/// width matters).
fn numbered(name: &str) -> Option<(&str, u64)> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (prefix, number) = name.split_at(name.len() - digits);
    if digits == 0 || digits > 18 || (digits > 1 && number.starts_with('0')) {
        return None;
    }
    Some((prefix, number.parse().ok()?))
}

/// The names with every run of [`MIN_SEQUENCE`] or more numbered in
/// steps of one under one prefix written as its ends (`t-2..t-511`): the
/// same names, each of the run's stated by its range.
pub(crate) fn fold_sequences<'a>(names: &[&'a str]) -> Vec<std::borrow::Cow<'a, str>> {
    use std::borrow::Cow;
    let mut out: Vec<Cow<'a, str>> = Vec::with_capacity(names.len());
    let mut i = 0;
    while i < names.len() {
        let mut end = i + 1;
        if let Some((prefix, first)) = numbered(names[i]) {
            while end < names.len()
                && numbered(names[end]) == Some((prefix, first + (end - i) as u64))
            {
                end += 1;
            }
        }
        if end - i >= MIN_SEQUENCE {
            out.push(Cow::Owned(format!("{}..{}", names[i], names[end - 1])));
        } else {
            out.extend(names[i..end].iter().map(|&n| Cow::Borrowed(n)));
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{fold_sequences, pattern};

    #[test]
    fn a_package_index_states_each_field_and_its_values() {
        let mut names = Vec::new();
        for pkg in ["mmcv", "mmcv_full"] {
            for v in ["1.6.0", "1.6.1", "1.6.2", "1.7.0", "1.7.1", "1.7.2"] {
                for py in ["cp38", "cp39"] {
                    for plat in ["manylinux1_x86_64.whl", "win_amd64.whl"] {
                        names.push(format!("../torch1.12.0/{pkg}-{v}-{py}-{py}-{plat}"));
                    }
                }
            }
        }
        assert_eq!(
            pattern(names.iter().map(String::as_str), 200),
            "names ../torch1.12.0/{mmcv|mmcv_full}-{1.6.0|1.6.1|1.6.2|1.7.0|1.7.1|1.7.2}-{cp38|cp39}-{cp38|cp39}-{manylinux1_x86_64.whl|win_amd64.whl}"
        );
        assert_eq!(
            pattern(names.iter().map(String::as_str), 80),
            "names ../torch1.12.0/{2 values}-{6 values}-{2 values}-{2 values}-{2 values}"
        );
        // Up to 16 values are listed whole (which versions exist is the
        // question an index answers); past that, the first 8 and a count.
        let more: Vec<String> = (0..13).map(|k| format!("dist/app-1.{k}.whl")).collect();
        assert_eq!(
            pattern(more.iter().map(String::as_str), 200),
            "names dist/app-{1.0.whl|1.1.whl|1.2.whl|1.3.whl|1.4.whl|1.5.whl|1.6.whl|1.7.whl\
             |1.8.whl|1.9.whl|1.10.whl|1.11.whl|1.12.whl}"
        );
        let most: Vec<String> = (0..20).map(|k| format!("d/a-{k}")).collect();
        assert_eq!(
            pattern(most.iter().map(String::as_str), 200),
            "names d/a-{0 1 2 3 4 5 6 7 \u{2026} (+12)}"
        );
    }

    #[test]
    fn prose_mixed_shapes_few_lines_and_secrets_say_nothing() {
        let say = |l: &[&str]| pattern(l.iter().copied(), 200);
        assert_eq!(say(&["a-1", "a-2", "a b-3", "a-4"]), "");
        assert_eq!(say(&["a-1", "a/2", "a-3", "a-4"]), "");
        assert_eq!(say(&["a-1", "a-2", "a-3"]), "");
        assert_eq!(say(&["plain", "words", "only", "here"]), "");
        assert_eq!(
            say(&[
                "https://u:hunter22@db/a-1",
                "https://u:hunter22@db/a-2",
                "https://u:hunter22@db/a-3",
                "https://u:hunter22@db/a-4"
            ]),
            ""
        );
        assert_eq!(say(&["a-1", "", "a-2", "a-3", "a-4"]), "names a-{1|2|3|4}");
    }

    #[test]
    fn numbered_runs_fold_to_their_ends() {
        let names = [
            "t-2", "t-3", "t-4", "t-5", "t-7", "a1", "a2", "v007", "v008", "v009", "v010", "x9",
            "x10", "x11", "x12",
        ];
        let folded: Vec<String> = fold_sequences(&names)
            .into_iter()
            .map(|c| c.into_owned())
            .collect();
        assert_eq!(
            folded,
            ["t-2..t-5", "t-7", "a1", "a2", "v007", "v008", "v009", "v010", "x9..x12"]
        );
    }
}
