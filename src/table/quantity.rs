//! Numbers as command-line tables print them: plain (`1,234.5`), or with a
//! unit — sizes (`512Ki`, `1005Mi`, `2.1G`, `20kB`), percentages (`45%`),
//! durations (`12ms`, `3d`, `2d21h`, `1h30m`) and milli-CPU (`250m`) — so
//! that a column of them has a least and a greatest row.
//!
//! A column is numeric when every non-empty cell is a quantity of one
//! family (plain numbers go with any); `m` is minutes in a column of
//! durations, else milli.

use crate::compress::shared::stats::number;

/// What a unit measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Plain,
    Size,
    Percent,
    Duration,
    /// `m`: milli, or minutes among durations.
    Milli,
}

/// A cell read as a quantity: its family and its value in the family's
/// scale (bytes, percent, seconds, or the number for plain and milli).
pub fn quantity(cell: &str) -> Option<(Family, f64)> {
    let t = measured(cell.trim());
    if let Some(x) = number(t) {
        return Some((Family::Plain, x));
    }
    if t.is_empty() || t.len() > 24 {
        return None;
    }
    if let Some(d) = composite_duration(t) {
        return Some((Family::Duration, d));
    }
    let split = t
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '-' || *c == '+'))
        .map(|(i, _)| i)?;
    let (num, unit) = t.split_at(split);
    let x = number(num)?;
    let unit = unit.strip_prefix(' ').unwrap_or(unit);
    let (family, scale) = unit_scale(unit)?;
    Some((family, x * scale))
}

/// A measurement's value without its error (`373.36 ± 2.25` → `373.36`,
/// as a benchmark prints it); any other cell as it is.
fn measured(t: &str) -> &str {
    match t.split_once('\u{b1}') {
        Some((v, e)) if number(e.trim()).is_some() && !v.trim().is_empty() => v.trim_end(),
        _ => t,
    }
}

/// The family and scale of a unit.
fn unit_scale(unit: &str) -> Option<(Family, f64)> {
    const K: f64 = 1000.0;
    const KI: f64 = 1024.0;
    Some(match unit {
        "%" => (Family::Percent, 1.0),
        "m" => (Family::Milli, 1.0),
        "B" => (Family::Size, 1.0),
        "k" | "K" | "kB" | "KB" => (Family::Size, K),
        "M" | "MB" => (Family::Size, K * K),
        "G" | "GB" => (Family::Size, K * K * K),
        "T" | "TB" => (Family::Size, K * K * K * K),
        "P" | "PB" => (Family::Size, K.powi(5)),
        "E" | "EB" => (Family::Size, K.powi(6)),
        "Ki" | "KiB" => (Family::Size, KI),
        "Mi" | "MiB" => (Family::Size, KI * KI),
        "Gi" | "GiB" => (Family::Size, KI.powi(3)),
        "Ti" | "TiB" => (Family::Size, KI.powi(4)),
        "Pi" | "PiB" => (Family::Size, KI.powi(5)),
        "Ei" | "EiB" => (Family::Size, KI.powi(6)),
        _ => return Some((Family::Duration, duration_unit(unit)?)),
    })
}

/// Seconds in a duration unit (`m` is minutes here).
fn duration_unit(unit: &str) -> Option<f64> {
    Some(match unit {
        "ns" => 1e-9,
        "us" | "µs" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => return None,
    })
}

/// `2d21h`, `1h30m`, `3m12.5s`: two parts or more, in seconds.
fn composite_duration(t: &str) -> Option<f64> {
    let mut total = 0.0;
    let mut parts = 0;
    let mut rest = t;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter(|&i| i > 0)?;
        let (num, tail) = rest.split_at(digits);
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (unit, next) = tail.split_at(unit_len);
        total += num.parse::<f64>().ok()? * duration_unit(unit)?;
        parts += 1;
        rest = next;
    }
    (parts >= 2).then_some(total)
}

/// The values of a column, in one scale, when every non-empty cell is a
/// quantity of one family (plain numbers go with any); `None` otherwise.
/// The family is `Plain` only when every cell is a plain number.
pub fn column<'c>(cells: impl Iterator<Item = &'c str>) -> Option<(Family, Vec<Option<f64>>)> {
    let mut out = Vec::new();
    let mut families: Vec<Family> = Vec::new();
    let mut milli = Vec::new();
    let mut forms = Forms::default();
    for c in cells {
        let t = c.trim();
        if t.is_empty() {
            out.push(None);
            continue;
        }
        let (f, x) = quantity(t)?;
        if f == Family::Plain {
            forms.add(measured(t))?;
        }
        if f == Family::Milli {
            milli.push(out.len());
        }
        if f != Family::Plain && !families.contains(&f) {
            families.push(f);
        }
        out.push(Some(x));
    }
    if !forms.consistent() {
        return None;
    }
    let family = match families.as_slice() {
        [] => Family::Plain,
        [f] => *f,
        [a, b] if families.contains(&Family::Milli) => {
            let other = if *a == Family::Milli { *b } else { *a };
            if other != Family::Duration {
                return None;
            }
            // Minutes among durations.
            for &i in &milli {
                out[i] = out[i].map(|x| x * 60.0);
            }
            Family::Duration
        }
        _ => return None,
    };
    out.iter().any(Option::is_some).then_some((family, out))
}

/// How the plain numbers of a column are written: a comma reads as a
/// thousands separator only when every number that has one groups its
/// digits by three (`1,234,567`) and no number of four digits or more
/// goes without (`356,064` beside `008` is two codes, `2,2` a list).
#[derive(Default)]
struct Forms {
    grouped: bool,
    /// A number of four integer digits or more without a comma, or an
    /// integer with a leading zero (a code: `008`).
    ungrouped: bool,
}

impl Forms {
    /// Notes the form of `t`; `None` when it has a comma that is not a
    /// strict thousands separator.
    fn add(&mut self, t: &str) -> Option<()> {
        let digits = t.trim_start_matches(['-', '+']);
        let int = digits.split(['.', 'e', 'E']).next().unwrap_or("");
        if int.contains(',') {
            let mut groups = int.split(',');
            let head = groups.next()?;
            let strict = (1..=3).contains(&head.len())
                && !head.starts_with('0')
                && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()));
            if !strict || digits[int.len()..].contains(',') {
                return None;
            }
            self.grouped = true;
        } else if digits.contains(',') {
            return None;
        } else if int.len() >= 4 || (int.len() > 1 && int.starts_with('0')) {
            self.ungrouped = true;
        }
        Some(())
    }

    fn consistent(&self) -> bool {
        !(self.grouped && self.ungrouped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A benchmark's `value ± error` is its value: a column of them has a
    /// least and a greatest row.
    #[test]
    fn a_measurement_is_its_value_without_its_error() {
        assert_eq!(
            quantity("373.36 \u{b1} 2.25"),
            Some((Family::Plain, 373.36))
        );
        assert_eq!(quantity("12ms\u{b1}3"), Some((Family::Duration, 0.012)));
        assert_eq!(quantity("\u{b1} 2.25"), None);
        assert_eq!(quantity("a \u{b1} 2"), None);
        let (f, v) = column(["13.45 \u{b1} 0.93", "2400.01 \u{b1} 7.72"].into_iter()).unwrap();
        assert_eq!((f, v), (Family::Plain, vec![Some(13.45), Some(2400.01)]));
    }

    #[test]
    fn commas_are_thousands_only_in_strict_consistent_groups() {
        let col = |cells: &[&'static str]| column(cells.iter().copied()).map(|(f, _)| f);
        assert_eq!(col(&["1,234", "12", "1,000,000.5"]), Some(Family::Plain));
        assert_eq!(col(&["2", "0", "2,2", "3"]), None);
        assert_eq!(col(&["008", "971", "356,064"]), None);
        assert_eq!(col(&["1234", "1,234"]), None);
        assert_eq!(col(&["1,23"]), None);
        assert_eq!(col(&["008", "971"]), Some(Family::Plain));
    }

    #[test]
    fn units_and_families() {
        assert_eq!(quantity("1005Mi"), Some((Family::Size, 1005.0 * 1048576.0)));
        assert_eq!(quantity("250m"), Some((Family::Milli, 250.0)));
        assert_eq!(quantity("45%"), Some((Family::Percent, 45.0)));
        assert_eq!(
            quantity("2d21h"),
            Some((Family::Duration, 2.0 * 86400.0 + 21.0 * 3600.0))
        );
        assert_eq!(quantity("12 ms"), Some((Family::Duration, 0.012)));
        assert_eq!(quantity("1,234"), Some((Family::Plain, 1234.0)));
        assert_eq!(quantity("1/1"), None);
        assert_eq!(quantity("Running"), None);
        let (f, v) = column(["3d", "45m", "2h"].into_iter()).unwrap();
        assert_eq!(f, Family::Duration);
        assert_eq!(v, vec![Some(259200.0), Some(2700.0), Some(7200.0)]);
        assert!(column(["3Mi", "45%"].into_iter()).is_none());
        assert_eq!(
            column(["250m", "", "1"].into_iter()).unwrap().0,
            Family::Milli
        );
    }
}
