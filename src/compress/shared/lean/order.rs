//! Whether a document's timestamps run in time order, for the closing
//! marker's span ([`super::cut`]): a span is said to run "from" its first
//! timestamp "to" its last only when they do.

use super::super::lines::Lines;
use super::TS_EACH;

/// Lines between the first and last timestamp looked at, at most, to
/// tell whether the timestamps run in time order.
const ORDER_SAMPLE: usize = 20_000;

/// A timestamp of format `f` as a number that orders like the time, for
/// the formats whose digits run from year (or month) to second: ISO
/// 8601, `2024/03/05`, `20240305-…`, `240305 101500`, syslog's `Mar  5
/// 10:15:00` and epoch seconds; `None` for the others.
fn time_key(f: usize, ts: &str) -> Option<u64> {
    let digits = |n: usize| -> Option<u64> {
        let d: String = ts.chars().filter(char::is_ascii_digit).take(n).collect();
        (d.len() == n).then(|| d.parse().ok()).flatten()
    };
    match f {
        0 | 5 => digits(14),
        6 => digits(8),
        7 => digits(12),
        10 => ts.split('.').next()?.parse().ok(),
        3 => {
            const MONTHS: [&str; 12] = [
                "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
            ];
            let mut w = ts.split_whitespace();
            let mon = w.next()?;
            let month = MONTHS.iter().position(|m| *m == mon)? as u64;
            let day: u64 = w.next()?.parse().ok()?;
            let time: u64 = w.next()?.replace(':', "").parse().ok()?;
            Some((month * 100 + day) * 1_000_000 + time)
        }
        _ => None,
    }
}

/// Whether the timestamps of format `f` from line `a` to line `b` never
/// go back in time (sampled evenly; true when the format cannot be
/// ordered). A year's end in a syslog reads as out of order: the span is
/// then not claimed, which is never false.
pub(super) fn in_time_order(doc: &Lines<'_>, f: usize, a: usize, b: usize) -> bool {
    let step = ((b - a) / ORDER_SAMPLE).max(1);
    let mut last = None;
    for i in (a..=b).step_by(step).chain(std::iter::once(b)) {
        let Some(m) = TS_EACH[f].find(doc.line(i)) else {
            continue;
        };
        let Some(k) = time_key(f, m.as_str()) else {
            return true;
        };
        if last.is_some_and(|l| k < l) {
            return false;
        }
        last = Some(k);
    }
    true
}
