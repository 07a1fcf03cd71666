//! Lean summaries: what held across *all* units of a collection (every
//! element of an array, every row of a table, every line of a template),
//! stated once so that fewer representatives need be kept. Per field:
//! the range of a numeric field, every value of a field with few values
//! (with counts), how many units lack it; the collection's total.
//!
//! The grammar is the compat marker grammar (spec/invariants.md) widened:
//! sections joined by `; `; `all k=v` for a value every unit has;
//! `k=lo..hi` for ranges; `k: v×n w×m` for enumerations; `k: N distinct`
//! when there are many values; `fields: a, b, c×n` for the keys of object
//! units, `×n` on a key only some units hold.
//!
//! A field or value that cannot be written unambiguously in that grammar
//! (a name with spaces, a value with `; ` or `×`, a long value) is not
//! stated: the caller keeps a unit that holds it instead ([`Field::holders`]).
//! Nothing is stated of a field whose name looks secret, or of a value
//! that holds a credential.

use rustc_hash::FxHashMap;

use super::secrets::holds_credential;

/// A field with more distinct values than this is not enumerated.
pub const MAX_ENUM: usize = 12;
/// Values longer than this are not stated.
pub const MAX_VALUE: usize = 64;
/// Distinct values counted for a many-valued field, at most.
const MAX_DISTINCT: usize = 4096;

/// One scalar of a unit.
#[derive(Debug, Clone, Copy)]
pub enum Scalar<'a> {
    /// A number: its literal text and value.
    Num(&'a str, f64),
    Str(&'a str),
    Bool(bool),
    Null,
}

/// What held for one field across the units.
#[derive(Debug, Clone)]
pub struct Field<'a> {
    pub name: String,
    /// Units holding the field.
    pub present: usize,
    /// Values that were numbers.
    pub numbers: usize,
    /// (value, literal, first unit) of the least and greatest number.
    pub min: Option<(f64, &'a str, usize)>,
    pub max: Option<(f64, &'a str, usize)>,
    /// Values that were non-empty strings.
    pub strings: usize,
    /// Distinct non-empty strings with their count and first unit, in
    /// order of first appearance; at most `MAX_ENUM + 1`.
    pub values: Vec<(&'a str, usize, usize)>,
    /// More than `MAX_ENUM` distinct strings were seen.
    pub many: bool,
    /// The distinct strings once there are many, up to [`MAX_DISTINCT`].
    seen: rustc_hash::FxHashSet<&'a str>,
    pub trues: usize,
    pub falses: usize,
    pub nulls: usize,
    /// The field is in the first unit (for the order of `fields:`).
    order: usize,
}

impl<'a> Field<'a> {
    fn new(name: &str, order: usize) -> Field<'a> {
        Field {
            name: name.to_string(),
            present: 0,
            numbers: 0,
            min: None,
            max: None,
            strings: 0,
            values: Vec::new(),
            many: false,
            seen: Default::default(),
            trues: 0,
            falses: 0,
            nulls: 0,
            order,
        }
    }

    /// Every present value was a number.
    pub fn numeric(&self) -> bool {
        self.numbers > 0 && self.numbers + self.nulls == self.present
    }

    /// The field has few distinct strings (and only strings).
    pub fn enumerable(&self) -> bool {
        self.strings > 0 && !self.many
    }

    fn add(&mut self, unit: usize, v: Scalar<'a>) {
        self.present += 1;
        match v {
            Scalar::Num(text, x) => {
                self.numbers += 1;
                if self
                    .min
                    .is_none_or(|m| cmp_number((x, text), (m.0, m.1)).is_lt())
                {
                    self.min = Some((x, text, unit));
                }
                if self
                    .max
                    .is_none_or(|m| cmp_number((x, text), (m.0, m.1)).is_gt())
                {
                    self.max = Some((x, text, unit));
                }
            }
            Scalar::Str("") => {}
            Scalar::Str(s) => {
                self.strings += 1;
                if self.many {
                    if self.seen.len() < MAX_DISTINCT {
                        self.seen.insert(s);
                    }
                    return;
                }
                let len = self.values.len();
                match self.values.iter_mut().find(|e| e.0 == s) {
                    Some(e) => e.1 += 1,
                    None if len < MAX_ENUM => self.values.push((s, 1, unit)),
                    None => {
                        self.many = true;
                        self.seen = self.values.iter().map(|v| v.0).collect();
                        self.seen.insert(s);
                        self.values.clear();
                    }
                }
            }
            Scalar::Bool(true) => self.trues += 1,
            Scalar::Bool(false) => self.falses += 1,
            Scalar::Null => self.nulls += 1,
        }
    }

    /// The name can be written as a marker key (no spaces or separators).
    pub fn markable(&self) -> bool {
        !self.name.is_empty()
            && self.name.len() <= 64
            && self
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.@$/-".contains(&b) || b >= 0x80)
            && !self.name.contains("..")
    }

    /// Whether a summary may speak of this field at all.
    pub fn speakable(&self) -> bool {
        !is_secret_name(&self.name)
    }
}

/// A value can be stated in an enumeration as it is.
pub fn statable(v: &str) -> bool {
    !v.is_empty()
        && v.len() <= MAX_VALUE
        && !v.contains("; ")
        && !v.contains('×')
        && !v.contains('\n')
        && !v.contains('\r')
        && !v.contains("caveman")
        && !v.starts_with(' ')
        && !v.ends_with(' ')
        && !v.contains("  ")
        && !v.chars().any(|c| c.is_control() || c == '\u{2026}')
        && !holds_credential(v)
}

pub use super::secrets::is_secret_name;

/// Fields of a collection of units, in order of first appearance.
#[derive(Debug, Default)]
pub struct Stats<'a> {
    pub fields: Vec<Field<'a>>,
    index: FxHashMap<String, usize>,
    /// Units added.
    pub units: usize,
    /// Stop tracking new fields beyond this many.
    cap: usize,
}

impl<'a> Stats<'a> {
    pub fn new(max_fields: usize) -> Stats<'a> {
        Stats {
            cap: max_fields,
            ..Stats::default()
        }
    }

    /// Records that unit `unit` holds `v` under `name`.
    pub fn add(&mut self, unit: usize, name: &str, v: Scalar<'a>) {
        let i = match self.index.get(name) {
            Some(&i) => i,
            None => {
                if self.fields.len() >= self.cap {
                    return;
                }
                let i = self.fields.len();
                self.fields.push(Field::new(name, i));
                self.index.insert(name.to_string(), i);
                i
            }
        };
        self.fields[i].add(unit, v);
    }

    /// Counts one more unit.
    pub fn unit(&mut self) {
        self.units += 1;
    }

    /// The units that must stay so that every extreme and every value of
    /// a few-valued field is seen in the view: those of fields the summary
    /// cannot state.
    pub fn holders(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for f in &self.fields {
            let stated = f.markable() && f.speakable();
            if f.numeric() && !stated {
                out.extend(f.min.map(|m| m.2));
                out.extend(f.max.map(|m| m.2));
            }
            if f.enumerable() {
                for &(v, _, first) in &f.values {
                    if !stated || !statable(v) {
                        out.push(first);
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The summary of every unit: `N total` (with `what`), then constants,
    /// ranges, enumerations, many-valued fields, and (`keys`) the fields
    /// with how many units hold them. At most `room` bytes: sections are
    /// shed from the end, the total always stays.
    pub fn render(&self, what: &str, keys: bool, room: usize) -> String {
        let n = self.units;
        let mut sections: Vec<String> = vec![format!("{n} total {what}")];
        let mut all = Vec::new();
        let mut ranges = Vec::new();
        let mut enums = Vec::new();
        let mut many = Vec::new();
        for f in &self.fields {
            if !f.markable() || !f.speakable() {
                continue;
            }
            let name = &f.name;
            if f.numeric() {
                let (lo, hi) = (f.min.expect("numeric"), f.max.expect("numeric"));
                if cmp_number((lo.0, lo.1), (hi.0, hi.1)).is_eq() && f.present == n && f.nulls == 0
                {
                    all.push(format!("{name}={}", lo.1));
                } else {
                    ranges.push(format!("{name}={}..{}", lo.1, hi.1));
                }
                continue;
            }
            if f.enumerable() && f.values.iter().all(|v| statable(v.0)) {
                let only = f.values.len() == 1 && f.values[0].1 == n;
                if only {
                    all.push(format!("{name}={}", f.values[0].0));
                } else {
                    let mut vs: Vec<&(&str, usize, usize)> = f.values.iter().collect();
                    vs.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
                    let list: Vec<String> = vs.iter().map(|(v, c, _)| format!("{v}×{c}")).collect();
                    let mut s = format!("{name}: {}", list.join(" "));
                    if f.nulls > 0 {
                        s.push_str(&format!(" null×{}", f.nulls));
                    }
                    enums.push(s);
                }
                continue;
            }
            if f.trues + f.falses > 0 && f.strings == 0 && f.numbers == 0 {
                if f.trues == n {
                    all.push(format!("{name}=true"));
                } else if f.falses == n {
                    all.push(format!("{name}=false"));
                } else {
                    enums.push(format!("{name}: true×{} false×{}", f.trues, f.falses));
                }
                continue;
            }
            if f.many {
                many.push(format!("{name}: {} distinct", distinct_text(f)));
            }
        }
        if !all.is_empty() {
            sections.push(format!("all {}", all.join(" ")));
        }
        if !ranges.is_empty() {
            sections.push(ranges.join(" "));
        }
        sections.extend(enums);
        sections.extend(many);
        if keys && !self.fields.is_empty() {
            let mut fs: Vec<&Field<'_>> = self
                .fields
                .iter()
                .filter(|f| !f.name.contains('.'))
                .collect();
            fs.sort_by_key(|f| f.order);
            let list: Vec<String> = fs
                .iter()
                .map(|f| {
                    if f.present >= n {
                        f.name.clone()
                    } else {
                        format!("{}×{}", f.name, f.present)
                    }
                })
                .collect();
            if !list.is_empty() {
                sections.push(format!("fields: {}", list.join(", ")));
            }
        }
        let mut out = sections[0].clone();
        for s in &sections[1..] {
            if out.len() + 2 + s.len() > room {
                out.push_str("; …");
                break;
            }
            out.push_str("; ");
            out.push_str(s);
        }
        out
    }
}

fn distinct_text(f: &Field<'_>) -> String {
    if f.seen.len() >= MAX_DISTINCT {
        format!("{MAX_DISTINCT}+")
    } else {
        f.seen.len().to_string()
    }
}

/// Two numbers in order, exactly: by value, and where the floats are
/// equal (integers beyond 2^53, long decimals) by their decimal literals.
pub fn cmp_number(a: (f64, &str), b: (f64, &str)) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match a.0.partial_cmp(&b.0) {
        Some(Ordering::Equal) | None => {}
        Some(o) => return o,
    }
    match (decimal(a.1), decimal(b.1)) {
        (Some(x), Some(y)) => {
            let o =
                x.1.len()
                    .cmp(&y.1.len())
                    .then_with(|| x.1.cmp(&y.1))
                    .then_with(|| {
                        // Fractions: compare digit by digit, missing digits are 0.
                        let (p, q) = (x.2.as_bytes(), y.2.as_bytes());
                        (0..p.len().max(q.len()))
                            .map(|i| p.get(i).unwrap_or(&b'0').cmp(q.get(i).unwrap_or(&b'0')))
                            .find(|o| o.is_ne())
                            .unwrap_or(Ordering::Equal)
                    });
            let zero = |d: &(bool, String, String)| d.1 == "0" && d.2.is_empty();
            if zero(&x) && zero(&y) {
                return Ordering::Equal;
            }
            match (x.0, y.0) {
                (false, false) => o,
                (true, true) => o.reverse(),
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
            }
        }
        _ => Ordering::Equal,
    }
}

/// A plain decimal literal as (negative, integer digits without leading
/// zeros, fraction digits without trailing zeros); `None` with an exponent.
fn decimal(t: &str) -> Option<(bool, String, String)> {
    let t = t.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let t: String = t.chars().filter(|&c| c != ',').collect();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let (int, frac) = t.split_once('.').unwrap_or((&t, ""));
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    Some((neg, int.to_string(), frac.trim_end_matches('0').to_string()))
}

/// A number as summaries read it: the literal text parsed as a float
/// (commas between digit groups allowed), finite.
pub fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() || t.len() > 40 {
        return None;
    }
    let b = t.as_bytes();
    let first = b[0];
    if !(first.is_ascii_digit() || first == b'-' || first == b'+' || first == b'.') {
        return None;
    }
    let plain: std::borrow::Cow<'_, str> = if t.contains(',') {
        t.replace(',', "").into()
    } else {
        t.into()
    };
    plain.parse::<f64>().ok().filter(|x| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_ranges_values_and_fields() {
        let mut s = Stats::new(64);
        let rows = [
            ("1", "ok", "a"),
            ("5", "ok", "b"),
            ("3", "fail", "c"),
            ("2", "ok", "d"),
        ];
        for (i, (q, st, name)) in rows.iter().enumerate() {
            s.unit();
            s.add(i, "qty", Scalar::Num(q, q.parse().unwrap()));
            s.add(i, "status", Scalar::Str(st));
            s.add(i, "name", Scalar::Str(name));
            if i == 0 {
                s.add(i, "note", Scalar::Str("x"));
            }
        }
        assert_eq!(
            s.render("elements", true, 1000),
            "4 total elements; qty=1..5; status: ok×3 fail×1; name: a×1 b×1 c×1 d×1; note: x×1; fields: qty, status, name, note×1"
        );
        assert!(s.holders().is_empty());
    }

    #[test]
    fn unmarkable_names_keep_holders() {
        let mut s = Stats::new(64);
        for (i, x) in ["3", "9", "1"].iter().enumerate() {
            s.unit();
            s.add(i, "US Gross", Scalar::Num(x, x.parse().unwrap()));
        }
        assert_eq!(s.holders(), vec![1, 2]);
        assert_eq!(s.render("rows", false, 1000), "3 total rows");
    }

    #[test]
    fn secrets_are_never_stated() {
        let mut s = Stats::new(64);
        for i in 0..3 {
            s.unit();
            s.add(i, "password", Scalar::Str("hunter2"));
            s.add(i, "note", Scalar::Str("AKIAIOSFODNN7EXAMPLE"));
        }
        let r = s.render("rows", true, 1000);
        assert!(!r.contains("hunter2") && !r.contains("AKIA"), "{r}");
    }

    #[test]
    fn numbers_compare_exactly() {
        use std::cmp::Ordering::*;
        let n = |t: &'static str| (number(t).unwrap(), t);
        assert_eq!(
            cmp_number(n("1700000000000000000"), n("1700000000000000001")),
            Less
        );
        assert_eq!(cmp_number(n("0.10000000000000000001"), n("0.1")), Greater);
        assert_eq!(cmp_number(n("-5"), n("3")), Less);
        assert_eq!(
            cmp_number(n("-1700000000000000001"), n("-1700000000000000000")),
            Less
        );
        assert_eq!(cmp_number(n("2.50"), n("2.5")), Equal);
        let mut s = Stats::new(8);
        for (i, t) in ["1700000000000000000", "1700000000000000001"]
            .iter()
            .enumerate()
        {
            s.unit();
            s.add(i, "span_id", Scalar::Num(t, number(t).unwrap()));
        }
        assert_eq!(
            s.render("lines", false, 1000),
            "2 total lines; span_id=1700000000000000000..1700000000000000001"
        );
    }

    #[test]
    fn numbers_with_group_commas() {
        assert_eq!(number("1,234.5"), Some(1234.5));
        assert_eq!(number("abc"), None);
        assert_eq!(number("inf"), None);
        assert_eq!(number("-3e2"), Some(-300.0));
    }
}
