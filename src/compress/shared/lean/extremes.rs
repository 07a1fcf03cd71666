//! A log's lines that hold a field's extreme value: the largest and the
//! smallest `k=v` number of a field most lines carry (`usage=97%` among
//! thousands of `usage=40%..78%`, `took=4812ms` among `took=3ms..40ms`).
//! Rows by value, as a table keeps them: the anomaly an agent looks for
//! is seldom an error line, and no template rule tells it from its kind.

use super::super::lines::{Keep, Lines};

/// Longer documents are not read for extremes (the pass costs a scan of
/// every line's fields).
const MAX_LINES: usize = 200_000;
/// Fields followed at most, in order of first appearance.
const MAX_FIELDS: usize = 16;
/// Fields whose extremes are kept at most (the most frequent).
const KEPT_FIELDS: usize = 8;
/// Fields read per line.
const MAX_LINE_FIELDS: usize = 24;
/// The longest unit after a number (`%`, `ms`, `MiB`).
const MAX_UNIT: usize = 3;

/// A numeric field: where its values are, and its extremes.
struct Field<'a> {
    name: &'a str,
    /// The unit every value carries (`%`, `ms`, or none).
    unit: &'a str,
    /// Lines holding it as a number.
    seen: usize,
    /// The last line that did (a key twice on a line counts once).
    at: usize,
    /// A value was not a number of that unit: no extremes.
    mixed: bool,
    max: (f64, usize),
    min: (f64, usize),
}

/// `k=v` pairs of a line: a key of letters, digits, `_`, `.` and `-`
/// starting in a letter, its value up to whitespace or `,;)]}`, quotes
/// removed.
fn pairs(line: &str) -> impl Iterator<Item = (&str, &str)> {
    line.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter_map(|w| {
            let (k, v) = w.split_once('=')?;
            let k = k.trim_start_matches(['(', '[', '{', '"', '\'']);
            let ok = k.starts_with(|c: char| c.is_ascii_alphabetic())
                && k.len() <= 40
                && k.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
            let v = v
                .trim_end_matches([')', ']', '}'])
                .trim_matches(['"', '\'']);
            ok.then_some((k, v))
        })
        .take(MAX_LINE_FIELDS)
}

/// A value as a number and its unit: `97%` is (97, "%"), `-0.5` is
/// (-0.5, ""); `007` and `v1` are names, not numbers.
fn quantity(v: &str) -> Option<(f64, &str)> {
    let digits = v
        .bytes()
        .position(|b| !(b.is_ascii_digit() || b == b'.' || b == b'-'))
        .unwrap_or(v.len());
    let (num, unit) = v.split_at(digits);
    let bare = num.trim_start_matches('-');
    if bare.is_empty()
        || !bare.starts_with(|c: char| c.is_ascii_digit())
        || (bare.len() > 1 && bare.starts_with('0') && !bare.starts_with("0."))
        || unit.len() > MAX_UNIT
        || !unit.bytes().all(|b| b.is_ascii_alphabetic() || b == b'%')
    {
        return None;
    }
    num.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .map(|x| (x, unit))
}

/// Keeps, for each of the most frequent numeric fields held by at least
/// half the non-blank lines, the first line of its largest and of its
/// smallest value (when they differ).
pub(super) fn keep_extremes(doc: &Lines<'_>, keep: &mut Keep) {
    let n = doc.len();
    if n > MAX_LINES {
        return;
    }
    let mut fields: Vec<Field<'_>> = Vec::new();
    let mut non_blank = 0usize;
    for i in 0..n {
        let line = doc.line(i);
        if line.trim().is_empty() {
            continue;
        }
        non_blank += 1;
        if !line.contains('=') {
            continue;
        }
        for (k, v) in pairs(line) {
            let at = match fields.iter().position(|f| f.name == k) {
                Some(at) => at,
                None if fields.len() < MAX_FIELDS => {
                    let Some((x, unit)) = quantity(v) else {
                        continue;
                    };
                    fields.push(Field {
                        name: k,
                        unit,
                        seen: 0,
                        at: usize::MAX,
                        mixed: false,
                        max: (x, i),
                        min: (x, i),
                    });
                    fields.len() - 1
                }
                None => continue,
            };
            let f = &mut fields[at];
            if f.mixed {
                continue;
            }
            match quantity(v) {
                Some((x, unit)) if unit == f.unit => {
                    if f.at != i {
                        f.seen += 1;
                        f.at = i;
                    }
                    if x > f.max.0 {
                        f.max = (x, i);
                    }
                    if x < f.min.0 {
                        f.min = (x, i);
                    }
                }
                _ => f.mixed = true,
            }
        }
    }
    let mut kept: Vec<&Field<'_>> = fields
        .iter()
        .filter(|f| !f.mixed && f.seen * 2 >= non_blank && f.max.0 > f.min.0)
        .collect();
    kept.sort_by_key(|f| std::cmp::Reverse(f.seen));
    for f in kept.into_iter().take(KEPT_FIELDS) {
        keep.set(f.max.1, "extreme: a field's largest value");
        keep.set(f.min.1, "extreme: a field's smallest value");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_with_units_are_numbers_and_names_are_not() {
        assert_eq!(quantity("97%"), Some((97.0, "%")));
        assert_eq!(quantity("-0.5"), Some((-0.5, "")));
        assert_eq!(quantity("4812ms"), Some((4812.0, "ms")));
        for name in ["007", "v1", "abc", "1.2.3.4x5", "12seconds", "-", ""] {
            assert_eq!(quantity(name), None, "{name}");
        }
    }

    #[test]
    fn keeps_the_line_of_each_fields_extremes() {
        let text: String = (0..300)
            .map(|i| {
                let usage = match i {
                    211 => 97,
                    40 => 12,
                    _ => 40 + i % 30,
                };
                format!(
                    "2026-12-07 14:{:02}:{:02} INFO disk host=db-{} usage={usage}% took={}ms\n",
                    i / 60,
                    i % 60,
                    i % 4,
                    3 + i % 9
                )
            })
            .collect();
        let doc = Lines::split(&text);
        let mut keep = Keep::new(doc.len());
        keep_extremes(&doc, &mut keep);
        assert!(keep.get(211) && keep.get(40));
        // took's first largest and smallest values.
        assert!(keep.get(8) && keep.get(0));
        // A field of mixed units, or of few lines, has no extremes.
        let mixed = "a took=3ms\nb took=2s\nc took=9ms\n";
        let doc = Lines::split(mixed);
        let mut keep = Keep::new(doc.len());
        keep_extremes(&doc, &mut keep);
        assert!((0..3).all(|i| !keep.get(i)));
    }
}
