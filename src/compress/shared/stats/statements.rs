//! The statements of a summary, field by field (`all k=v`, `k=lo..hi`,
//! `k: v×n w×m`, `k: N distinct`, a span of dates), and how a list of
//! values and sections is written within its room.

use super::field::{statable, Field, Mode, Seen};
use super::{Stats, MAX_DISTINCT, MAX_NUMERIC_SPREAD, MAX_VALUE};
use crate::compress::shared::secrets::holds_credential;

impl Stats<'_> {
    /// What held for `n` units: per field, as `mode` says, the fields
    /// stated and the section stating them (constants joined in one).
    pub(super) fn statements_of(
        &self,
        n: usize,
        mode: &dyn Fn(&Field<'_>) -> Mode,
    ) -> Vec<(Vec<usize>, String)> {
        let mut all = Vec::new();
        let mut ranges = Vec::new();
        let mut enums = Vec::new();
        let mut many = Vec::new();
        for (fi, f) in self.fields.iter().enumerate() {
            let mode = mode(f);
            if !f.stated() || mode == Mode::Skip {
                continue;
            }
            let name = f.shown_name();
            // `count` values are every value of the field: one per unit
            // (one per occurrence when pooled).
            let (objects, arrays) = self.containers_of(f);
            let all_of = |count: usize| {
                objects + arrays == 0
                    && if f.pooled {
                        count == f.present
                    } else {
                        count == n && f.present == n
                    }
            };
            if mode == Mode::Constant {
                let one = f.categories();
                if one.len() == 1 && all_of(one[0].count) && statable(one[0].text) {
                    all.push((fi, format!("{name}={}", one[0].text)));
                }
                continue;
            }
            if f.numeric() {
                let (lo, hi) = (f.min.expect("numeric"), f.max.expect("numeric"));
                if f.constant() && all_of(f.numbers) {
                    all.push((fi, format!("{name}={}", lo.text)));
                } else {
                    let mut s = if f.constant() && f.blanks > 0 && f.numbers == f.present {
                        format!("{name}={}", bound(lo.text))
                    } else {
                        format!("{name}={}..{}", bound(lo.text), bound(hi.text))
                    };
                    let spread = &f.numeric_values;
                    if !f.numeric_many
                        && spread.len() >= 2
                        && spread.len() <= MAX_NUMERIC_SPREAD
                        && 2 * spread.len() <= f.numbers
                    {
                        let mut vs: Vec<&Seen<'_>> = spread.iter().collect();
                        vs.sort_by(|a, b| b.count.cmp(&a.count).then(a.first().cmp(&b.first())));
                        let list: Vec<String> = vs
                            .iter()
                            .map(|s| format!("{}×{}", s.text, s.count))
                            .collect();
                        s.push_str(&format!(" ({})", list.join(" ")));
                    }
                    if objects + arrays > 0 {
                        s.push_str(&format!(" (numbers×{}", f.numbers));
                        for (c, what) in [(objects, "objects"), (arrays, "arrays")] {
                            if c > 0 {
                                s.push_str(&format!(" {what}×{c}"));
                            }
                        }
                        s.push(')');
                    }
                    if f.blanks > 0 {
                        s.push_str(&format!(" ({} blank)", f.blanks));
                    }
                    ranges.push((fi, s));
                }
                continue;
            }
            // Dates as a span, unless they are a few categories.
            if f.dated() && (f.many || !f.categorical() || mode == Mode::Span) {
                if let Some(span) = f.dates.span() {
                    many.push((fi, format!("{name}: {span}{}", blanks(f, ", "))));
                }
                continue;
            }
            if f.enumerable() {
                let mixed = f.numbers > 0 || f.bools() > 0;
                if !mixed
                    && f.values.len() == 1
                    && all_of(f.values[0].count)
                    && statable(f.values[0].text)
                {
                    all.push((fi, format!("{name}={}", f.values[0].text)));
                } else if f.categorical() || mode == Mode::Enumerate {
                    // Every value: as it is, or shortened (`head…`) when
                    // it is long; what cannot be written is counted
                    // (`+N other values (M)`), never left out silently. A
                    // unit holding a value not written whole stays
                    // (holders).
                    let (vs, other) = shown_values(&f.values);
                    let mut list: Vec<String> = vs
                        .iter()
                        .map(|(text, count)| format!("{text}×{count}"))
                        .collect();
                    for b in f.trues.iter().chain(f.falses.iter()) {
                        list.push(format!("{}×{}", b.text, b.count));
                    }
                    if f.numbers > 0 {
                        list.push(format!("(numbers×{})", f.numbers));
                    }
                    if f.nulls > 0 {
                        list.push(format!("null×{}", f.nulls));
                    }
                    let empty = f.present - f.strings - f.numbers - f.bools() - f.nulls;
                    if empty > 0 {
                        list.push(format!("(empty)×{empty}"));
                    }
                    if f.blanks > 0 {
                        list.push(format!("(blank)×{}", f.blanks));
                    }
                    let (objects, arrays) = self.containers_of(f);
                    if objects > 0 {
                        list.push(format!("(objects)×{objects}"));
                    }
                    if arrays > 0 {
                        list.push(format!("(arrays)×{arrays}"));
                    }
                    if other.0 > 0 {
                        list.push(format!("+{} other values ({})", other.0, other.1));
                    }
                    if !vs.is_empty() || other.0 > 0 {
                        enums.push((fi, format!("{name}: {}", list.join(" "))));
                    }
                }
                // A few values each held once are the units' own data.
                continue;
            }
            if f.bools() > 0 && f.strings == 0 && f.numbers == 0 {
                let (t, fa) = (
                    f.trues.as_ref().map_or(0, |s| s.count),
                    f.falses.as_ref().map_or(0, |s| s.count),
                );
                if all_of(t) {
                    all.push((fi, format!("{name}=true")));
                } else if all_of(fa) {
                    all.push((fi, format!("{name}=false")));
                } else {
                    let mut parts = Vec::new();
                    if t > 0 {
                        parts.push(format!("true×{t}"));
                    }
                    if fa > 0 {
                        parts.push(format!("false×{fa}"));
                    }
                    if f.nulls > 0 {
                        parts.push(format!("null×{}", f.nulls));
                    }
                    if f.blanks > 0 {
                        parts.push(format!("(blank)×{}", f.blanks));
                    }
                    if objects > 0 {
                        parts.push(format!("(objects)×{objects}"));
                    }
                    if arrays > 0 {
                        parts.push(format!("(arrays)×{arrays}"));
                    }
                    enums.push((fi, format!("{name}: {}", parts.join(" "))));
                }
                continue;
            }
            if f.many && f.numbers == 0 {
                // The basis of the count: strings, unless every value was
                // one.
                let (objects, arrays) = self.containers_of(f);
                let mut others = Vec::new();
                for (c, what) in [
                    (objects, "objects"),
                    (arrays, "arrays"),
                    (f.bools(), "booleans"),
                    (f.nulls, "nulls"),
                ] {
                    if c > 0 {
                        others.push(format!("{c} {what}"));
                    }
                }
                // Free text (descriptions, comments) is counted, never
                // measured: its lengths and any numbers in it say nothing
                // a reader can use.
                let text = if others.is_empty() {
                    format!("{name}: {} distinct{}", distinct_text(f), blanks(f, ", "))
                } else {
                    format!(
                        "{name}: {} distinct among {} strings, and {}{}",
                        distinct_text(f),
                        f.strings,
                        others.join(", "),
                        blanks(f, ", ")
                    )
                };
                many.push((fi, text));
            }
        }
        let mut sections: Vec<(Vec<usize>, String)> = Vec::new();
        if !all.is_empty() {
            let (fields, texts): (Vec<usize>, Vec<String>) = all.into_iter().unzip();
            sections.push((fields, format!("all {}", texts.join(" "))));
        }
        // Each range its own section: room sheds them one by one.
        for (fi, t) in ranges.into_iter().chain(enums).chain(many) {
            sections.push((vec![fi], t));
        }
        sections
    }
}

/// `head` then each section after `; ` while the text stays within
/// `room` bytes; a section that does not fit ends the text with how many
/// more there were (`; (+3 more)`).
pub(super) fn join_within(head: String, sections: &[String], room: usize) -> String {
    join_counted(head, sections, room, true).0
}

/// [`join_within`] (without the count of the sections that did not fit
/// unless `count_rest`), and how many sections fit.
pub(super) fn join_counted(
    head: String,
    sections: &[String],
    room: usize,
    count_rest: bool,
) -> (String, usize) {
    let mut out = head;
    for (i, s) in sections.iter().enumerate() {
        if out.len() + 2 + s.len() > room {
            // Said in words: a marker already ends with `…`.
            if count_rest {
                out.push_str(&format!("; (+{} more)", sections.len() - i));
            }
            return (out, i);
        }
        out.push_str("; ");
        out.push_str(s);
    }
    (out, sections.len())
}

/// Characters of a long value an enumeration writes before `…`.
const SHORT_VALUE: usize = 40;

/// Values as an enumeration writes them, with their counts.
type Shown<'s> = Vec<(std::borrow::Cow<'s, str>, usize)>;

/// The values of an enumeration as it writes them, most held first (then
/// by first holder): each as it is when [`statable`], else its first
/// [`SHORT_VALUE`] characters and `…`; and how many values (and their
/// holders) cannot be written either way (a credential, a head that is
/// empty or the same as another value's).
fn shown_values<'s>(values: &'s [Seen<'_>]) -> (Shown<'s>, (usize, usize)) {
    let mut vs: Vec<&Seen<'_>> = values.iter().collect();
    vs.sort_by(|a, b| b.count.cmp(&a.count).then(a.first().cmp(&b.first())));
    let mut shown: Shown<'s> = Vec::new();
    let mut other = (0, 0);
    let texts: Vec<Option<std::borrow::Cow<'s, str>>> = vs
        .iter()
        .map(|v| {
            if statable(v.text) {
                Some(std::borrow::Cow::Borrowed(v.text))
            } else {
                quoted(v.text)
                    .filter(|_| v.text.len() <= MAX_VALUE)
                    .or_else(|| shortened(v.text))
                    .map(std::borrow::Cow::Owned)
            }
        })
        .collect();
    for (i, v) in vs.iter().enumerate() {
        let unique = texts[i]
            .as_ref()
            .filter(|t| texts.iter().filter(|u| u.as_ref() == Some(*t)).count() == 1);
        // Two long values with one head are each written whole, quoted,
        // when they are not too long.
        match unique.cloned().or_else(|| quoted(v.text).map(Into::into)) {
            Some(t) => shown.push((t, v.count)),
            None => {
                other.0 += 1;
                other.1 += v.count;
            }
        }
    }
    (shown, other)
}

/// A value with a separator (`, `, `; `, two spaces) but otherwise clean
/// and not long, written whole between typographic quotes (a CSV or JSON
/// marker does not escape them): `“honest, kind and loyal”` and
/// `“honest, kind, and loyal”` are two values, not one head.
fn quoted(v: &str) -> Option<String> {
    let clean = !v.is_empty()
        && v.len() <= 2 * MAX_VALUE
        && v.trim() == v
        && !v.contains(['"', '\u{201c}', '\u{201d}'])
        && !v.contains('×')
        && !v.contains("caveman")
        && !v.chars().any(|c| c.is_control() || c == '\u{2026}')
        && !holds_credential(v);
    clean.then(|| format!("\u{201c}{v}\u{201d}"))
}

/// A value too long (or with a separator) to be stated, as an
/// enumeration writes it: its head up to [`SHORT_VALUE`] characters (and
/// before any separator), then `…`; the whole value when it is clean and
/// that short (long only in bytes). `None` when no head can be written.
fn shortened(v: &str) -> Option<String> {
    if holds_credential(v) || v.contains("caveman") {
        return None;
    }
    let mut end = 0;
    for (n, (i, c)) in v.char_indices().enumerate() {
        let rest = &v[i..];
        if n >= SHORT_VALUE
            || c.is_control()
            || c == '\u{2026}'
            || c == '×'
            || rest.starts_with("; ")
            || rest.starts_with(", ")
            || rest.starts_with("  ")
        {
            break;
        }
        end = i + c.len_utf8();
    }
    let head = v[..end].trim();
    if head.is_empty() || !v.starts_with(head) {
        return None;
    }
    if head.len() == v.len() {
        return Some(v.to_string());
    }
    Some(format!("{head}…"))
}

/// `, M blank` (after `sep`) when the field had blank cells.
fn blanks(f: &Field<'_>, sep: &str) -> String {
    if f.blanks > 0 {
        format!("{sep}{} blank", f.blanks)
    } else {
        String::new()
    }
}

fn distinct_text(f: &Field<'_>) -> String {
    if f.seen.len() >= MAX_DISTINCT {
        format!("{MAX_DISTINCT}+")
    } else {
        f.seen.len().to_string()
    }
}

/// A range's bound as written, with a zero before a bare decimal point
/// (`.012` → `0.012`): `.012...301` would not read as a range.
fn bound(text: &str) -> std::borrow::Cow<'_, str> {
    let (sign, rest) = match text.as_bytes().first() {
        Some(b'-' | b'+') => text.split_at(1),
        _ => ("", text),
    };
    if rest.starts_with('.') {
        format!("{sign}0{rest}").into()
    } else {
        text.into()
    }
}
