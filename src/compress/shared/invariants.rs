//! Marker summaries (spec/invariants.md): the facts that hold for every unit
//! of a dropped run (constants, enumerations, ranges, identifier coverage),
//! rendered in a fixed order and shed whole, in a fixed priority, to fit a
//! byte budget; a shed summary ends with `+N omitted` (seed rule).

use crate::go::strconv;

/// One dropped unit: (name, value) pairs in field order.
pub type Unit<'a> = Vec<(&'a str, &'a str)>;

/// At most this many names are tracked per run.
const MAX_NAMES: usize = 48;
/// Enumerations hold at most this many buckets (absent included).
const MAX_ENUM: usize = 5;
/// The coverage set gives up beyond this many distinct values.
const MAX_COVERAGE: usize = 4096;
/// At most this many coverage entries per summary.
const MAX_COVERAGE_ENTRIES: usize = 2;
/// Names longer than this are left out.
const MAX_NAME: usize = 32;
/// Values longer than this are never stated.
const MAX_VALUE: usize = 40;
/// Enumerated values are at most this long.
const MAX_ENUM_VALUE: usize = 24;
/// Dense coverage reads digit runs of at most this many digits.
const MAX_DENSE_DIGITS: usize = 18;

use super::secrets::is_secret_name;

/// Substring test for the short names and values of a summary, where a
/// plain scan beats a searcher's setup.
fn contains_bytes(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn value_usable(v: &str) -> bool {
    if v.is_empty() || v.len() > MAX_VALUE {
        return false;
    }
    let b = v.as_bytes();
    if contains_bytes(b, b"caveman") {
        return false;
    }
    // Plain printable ASCII: only the word could have disqualified it.
    b.iter().all(|&c| (0x20..0x7f).contains(&c))
        || (!v.contains('\u{2026}')
            && !v
                .chars()
                .any(|c| (c as u32) < 0x20 || (0x7f..=0x9f).contains(&(c as u32))))
}

fn enum_usable(v: &str) -> bool {
    v.len() <= MAX_ENUM_VALUE && value_usable(v) && !v.bytes().any(|c| c == b' ' || c == b'\t')
}

struct Agg<'a> {
    name: &'a str,
    first: &'a str,
    constant: bool,
    numeric: bool,
    min: (f64, &'a str),
    max: (f64, &'a str),
    seen: usize,
    tally: Vec<(&'a str, usize)>,
    too_wide: bool,
    cov_usable: bool,
    cov: rustc_hash::FxHashSet<&'a str>,
    cov_min: &'a str,
    cov_max: &'a str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntryKind {
    Constant,
    Range,
    Enum,
    EnumWeak,
    Dense,
    Bounded,
}

/// Shedding priority: the first kind with a selected entry loses its last one.
const SHED_ORDER: [EntryKind; 6] = [
    EntryKind::EnumWeak,
    EntryKind::Range,
    EntryKind::Bounded,
    EntryKind::Constant,
    EntryKind::Dense,
    EntryKind::Enum,
];

struct Entry {
    kind: EntryKind,
    text: String,
    selected: bool,
}

/// Summary byte budget for a run that dropped `elided` bytes.
pub fn budget(elided: i64) -> usize {
    if elided <= 0 {
        return 160;
    }
    let mut b = elided / 4;
    if b < 96 {
        b = 96;
    }
    if b > elided / 2 {
        b = elided / 2;
    }
    if b > 160 {
        b = 160;
    }
    b.max(0) as usize
}

fn enumeration(a: &Agg<'_>, units: usize) -> Option<(EntryKind, String)> {
    if a.too_wide || a.tally.is_empty() {
        return None;
    }
    if a.tally
        .iter()
        .any(|(v, _)| *v == "absent" || !enum_usable(v))
    {
        return None;
    }
    let absent = units - a.seen;
    if a.tally.len() + usize::from(absent > 0) > MAX_ENUM {
        return None;
    }
    let mut buckets: Vec<(&str, usize)> = a.tally.clone();
    buckets.sort_by_key(|b| std::cmp::Reverse(b.1));
    if absent > 0 {
        buckets.push(("absent", absent));
    }
    if buckets.iter().all(|b| b.1 == 1) {
        return None;
    }
    let kind = if 2 * buckets.len() >= units {
        EntryKind::EnumWeak
    } else {
        EntryKind::Enum
    };
    let mut text = format!("{}:", a.name);
    for (v, c) in buckets {
        text.push_str(&format!(" {v}\u{d7}{c}"));
    }
    Some((kind, text))
}

/// Body and trailing ASCII digit run of a value.
fn split_digits(v: &str) -> (&str, &str) {
    let n = v.bytes().rev().take_while(|b| b.is_ascii_digit()).count();
    v.split_at(v.len() - n)
}

fn coverage(a: &Agg<'_>, units: usize) -> Option<(EntryKind, String)> {
    if a.cov.len() < 2 {
        return None;
    }
    let absent = units - a.seen;
    if absent == 0 {
        if let Some(t) = dense(a) {
            return Some((EntryKind::Dense, t));
        }
    }
    let mut text = format!(
        "{}: {} distinct, {}..{}",
        a.name,
        a.cov.len(),
        a.cov_min,
        a.cov_max
    );
    if absent > 0 {
        text.push_str(&format!(", absent\u{d7}{absent}"));
    }
    Some((EntryKind::Bounded, text))
}

fn dense(a: &Agg<'_>) -> Option<String> {
    let mut body: Option<&str> = None;
    let mut width = 0;
    let (mut lo, mut hi) = (u64::MAX, 0u64);
    let (mut lo_s, mut hi_s) = ("", "");
    for v in &a.cov {
        let (b, d) = split_digits(v);
        if d.is_empty() || d.len() > MAX_DENSE_DIGITS {
            return None;
        }
        match body {
            None => {
                body = Some(b);
                width = d.len();
            }
            Some(x) if x != b || d.len() != width => return None,
            _ => {}
        }
        let n: u64 = d.parse().ok()?;
        if n < lo {
            lo = n;
            lo_s = v;
        }
        if n > hi {
            hi = n;
            hi_s = v;
        }
    }
    if hi - lo + 1 != a.cov.len() as u64 {
        return None;
    }
    Some(format!(
        "{}: {lo_s}..{hi_s} all {} present",
        a.name,
        a.cov.len()
    ))
}

fn render(entries: &[Entry], shed: usize) -> String {
    let mut sections: Vec<String> = Vec::new();
    let consts: Vec<&str> = entries
        .iter()
        .filter(|e| e.selected && e.kind == EntryKind::Constant)
        .map(|e| e.text.as_str())
        .collect();
    if !consts.is_empty() {
        sections.push(format!("all {}", consts.join(" ")));
    }
    for e in entries {
        if e.selected
            && matches!(
                e.kind,
                EntryKind::Enum | EntryKind::EnumWeak | EntryKind::Dense | EntryKind::Bounded
            )
        {
            sections.push(e.text.clone());
        }
    }
    let ranges: Vec<&str> = entries
        .iter()
        .filter(|e| e.selected && e.kind == EntryKind::Range)
        .map(|e| e.text.as_str())
        .collect();
    if !ranges.is_empty() {
        sections.push(format!("range {}", ranges.join(" ")));
    }
    if sections.is_empty() {
        return String::new();
    }
    if shed > 0 {
        sections.push(format!("+{shed} omitted"));
    }
    sections.join("; ")
}

/// The summary of a run of units that dropped `elided` bytes; empty when
/// nothing can be said.
#[cfg(test)]
pub fn summary(units: &[Unit<'_>], elided: i64) -> String {
    summary_of(units.len(), |i, u| u.extend_from_slice(&units[i]), elided)
}

/// The summary (as `summary` makes it) of `n` units that `fill(i, unit)`
/// writes one at a time into a reused buffer, so a run of 100,000 rows
/// costs no per-row allocation.
pub fn summary_of<'a>(n: usize, mut fill: impl FnMut(usize, &mut Unit<'a>), elided: i64) -> String {
    if n < 2 {
        return String::new();
    }
    let mut aggs: Vec<Agg<'a>> = Vec::new();
    let mut index: rustc_hash::FxHashMap<&'a str, usize> = Default::default();
    // `taken[i] == u + 1` once aggregate `i` took a value from unit `u`: a
    // name repeated within a unit counts once.
    let mut taken: Vec<usize> = Vec::new();
    let mut unit: Unit<'a> = Vec::new();
    for u in 0..n {
        unit.clear();
        fill(u, &mut unit);
        if unit.is_empty() {
            return String::new();
        }
        let mark = u + 1;
        for (pos, &(name, value)) in unit.iter().enumerate() {
            // Units usually list the same names in the same order (often
            // the very same header strings): try the aggregate at this
            // position before hashing.
            let hit = aggs
                .get(pos)
                .filter(|a| std::ptr::eq(a.name, name) || a.name == name)
                .map(|_| pos);
            let idx = match hit.or_else(|| index.get(name).copied()) {
                Some(i) => {
                    if taken[i] == mark {
                        continue;
                    }
                    i
                }
                None => {
                    if aggs.len() >= MAX_NAMES {
                        continue;
                    }
                    let v = strconv::parse_float(value);
                    let num = v.unwrap_or(f64::NAN);
                    aggs.push(Agg {
                        name,
                        first: value,
                        constant: true,
                        numeric: v.is_some(),
                        min: (num, value),
                        max: (num, value),
                        seen: 0,
                        tally: Vec::new(),
                        too_wide: false,
                        cov_usable: true,
                        cov: Default::default(),
                        cov_min: value,
                        cov_max: value,
                    });
                    index.insert(name, aggs.len() - 1);
                    taken.push(0);
                    aggs.len() - 1
                }
            };
            taken[idx] = mark;
            let a = &mut aggs[idx];
            a.seen += 1;
            if a.constant && value != a.first {
                a.constant = false;
            }
            if a.numeric {
                match strconv::parse_float(value) {
                    None => a.numeric = false,
                    Some(v) => {
                        if v < a.min.0 {
                            a.min = (v, value);
                        }
                        if v > a.max.0 {
                            a.max = (v, value);
                        }
                    }
                }
            }
            if !a.too_wide {
                if let Some(t) = a.tally.iter_mut().find(|t| t.0 == value) {
                    t.1 += 1;
                } else if a.tally.len() >= MAX_ENUM {
                    a.too_wide = true;
                    a.tally.clear();
                } else {
                    a.tally.push((value, 1));
                }
            }
            // A value already in the set passed the usability test when it
            // went in: test only new ones.
            if a.cov_usable {
                if a.cov.len() >= MAX_COVERAGE {
                    a.cov_usable = false;
                    a.cov = Default::default();
                } else if !a.cov.contains(value) {
                    if !enum_usable(value) || value == "absent" {
                        a.cov_usable = false;
                        a.cov = Default::default();
                    } else {
                        if a.cov.capacity() == 0 {
                            a.cov.reserve(n.min(MAX_COVERAGE));
                        }
                        a.cov.insert(value);
                        if value < a.cov_min {
                            a.cov_min = value;
                        }
                        if value > a.cov_max {
                            a.cov_max = value;
                        }
                    }
                }
            }
        }
    }
    let mut entries: Vec<Entry> = Vec::new();
    let mut coverage_entries = 0;
    for a in &aggs {
        if a.name.is_empty() || a.name.len() > MAX_NAME || is_secret_name(a.name) {
            continue;
        }
        // An entry holding a credential-shaped value is dropped, like the
        // entry of a secret-named field (secrets.rs).
        let mut push = |kind, text: String| {
            if super::secrets::holds_credential(&text) {
                return false;
            }
            entries.push(Entry {
                kind,
                text,
                selected: true,
            });
            true
        };
        if a.seen == n && a.constant {
            if value_usable(a.first) {
                push(EntryKind::Constant, format!("{}={}", a.name, a.first));
            }
        } else if a.seen == n && a.numeric && a.min.1 != a.max.1 {
            if value_usable(a.min.1) && value_usable(a.max.1) {
                push(
                    EntryKind::Range,
                    format!("{}={}..{}", a.name, a.min.1, a.max.1),
                );
            }
        } else if let Some((k, t)) = enumeration(a, n) {
            push(k, t);
        } else if a.cov_usable && coverage_entries < MAX_COVERAGE_ENTRIES {
            if let Some((k, t)) = coverage(a, n) {
                if push(k, t) {
                    coverage_entries += 1;
                }
            }
        }
    }
    let limit = budget(elided);
    let mut shed = 0;
    loop {
        let text = render(&entries, shed);
        if text.len() <= limit {
            return text;
        }
        let victim = SHED_ORDER
            .iter()
            .find_map(|k| entries.iter().rposition(|e| e.selected && e.kind == *k));
        match victim {
            Some(i) => {
                entries[i].selected = false;
                shed += 1;
            }
            None => return String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units<'a>(rows: &'a [Vec<(&'a str, &'a str)>]) -> Vec<Unit<'a>> {
        rows.to_vec()
    }

    fn section6() -> Vec<Vec<(&'static str, &'static str)>> {
        let status = ["ok", "ok", "late", "ok", "late", "ok"];
        let ms = ["12", "40", "97", "33", "15", "20"];
        let seq = ["s-10", "s-11", "s-12", "s-13", "s-14", "s-15"];
        (0..6)
            .map(|i| {
                vec![
                    ("seq", seq[i]),
                    ("region", "eu"),
                    ("status", status[i]),
                    ("ms", ms[i]),
                ]
            })
            .collect()
    }

    #[test]
    fn section_6_example_and_budget_table() {
        let rows = section6();
        let u = units(&rows);
        let full =
            "all region=eu; seq: s-10..s-15 all 6 present; status: ok×4 late×2; range ms=12..97";
        assert_eq!(summary(&u, 168), full);
        assert_eq!(
            summary(&u, 160),
            "all region=eu; seq: s-10..s-15 all 6 present; status: ok×4 late×2; +1 omitted"
        );
        assert_eq!(
            summary(&u, 140),
            "seq: s-10..s-15 all 6 present; status: ok×4 late×2; +2 omitted"
        );
        assert_eq!(summary(&u, 120), "status: ok×4 late×2; +3 omitted");
        assert_eq!(summary(&u, 80), "status: ok×4 late×2; +3 omitted");
        assert_eq!(summary(&u, 60), "");
    }

    #[test]
    fn more_examples() {
        let r = vec![vec![("x", "1")], vec![("x", "1.0")]];
        assert_eq!(summary(&r, 1000), "x: 2 distinct, 1..1.0");
        let r = vec![vec![("x", "1")], vec![("x", "1.0")], vec![("x", "1")]];
        assert_eq!(summary(&r, 1000), "x: 1×2 1.0×1");
        let r = vec![vec![("p", "0.50")], vec![("p", "12")], vec![("p", "3.0")]];
        assert_eq!(summary(&r, 1000), "range p=0.50..12");
        let r: Vec<_> = ["v7", "v8", "v9", "v10"]
            .iter()
            .map(|v| vec![("v", *v)])
            .collect();
        assert_eq!(summary(&r, 1000), "v: 4 distinct, v10..v9");
        let r = vec![vec![("id", "u-01")], vec![("id", "u-02")], vec![("k", "z")]];
        assert_eq!(
            summary(&r, 1000),
            "id: 2 distinct, u-01..u-02, absent×1; k: z×1 absent×2"
        );
        let r: Vec<_> = ["a", "b", "c", "d", "d", "e"]
            .iter()
            .map(|v| vec![("s", *v)])
            .collect();
        assert_eq!(summary(&r, 1000), "s: d×2 a×1 b×1 c×1 e×1");
        let r: Vec<_> = ["NaN", "5", "7"].iter().map(|v| vec![("n", *v)]).collect();
        assert_eq!(summary(&r, 1000), "n: 3 distinct, 5..NaN");
        let r: Vec<_> = ["5", "NaN", "7"].iter().map(|v| vec![("n", *v)]).collect();
        assert_eq!(summary(&r, 1000), "range n=5..7");
        let r = vec![
            vec![("tier", "gold"), ("zone", "a")],
            vec![("tier", "gold")],
            vec![("tier", "gold"), ("zone", "b")],
            vec![("tier", "gold"), ("zone", "a")],
        ];
        assert_eq!(summary(&r, 1000), "all tier=gold; zone: a×2 b×1 absent×1");
        let r = vec![
            vec![("session_id", "a"), ("Auth_Token", "x")],
            vec![("session_id", "b"), ("Auth_Token", "x")],
        ];
        assert_eq!(summary(&r, 1000), "");
    }

    #[test]
    fn budgets() {
        assert_eq!(budget(0), 160);
        assert_eq!(budget(42), 21);
        assert_eq!(budget(99), 49);
        assert_eq!(budget(400), 100);
        assert_eq!(budget(10_000), 160);
    }
}
