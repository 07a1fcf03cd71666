//! Lean summaries: what held across the units of a collection (every
//! element of an array, every member of a map, every row of a table),
//! stated once so that fewer representatives need be kept. Per field: the
//! range of a numeric field (with its distribution when it has few
//! values), every value of a categorical field with counts, how many
//! units hold it; the collection's total.
//!
//! The grammar is the compat marker grammar (spec/invariants.md) widened:
//! sections joined by `; `; `all k=v` for a value every unit has;
//! `k=lo..hi` for ranges, `k=lo..hi (a×n b×m)` when few values repeat;
//! `k: v×n w×m` for categories; `k: N distinct` when there are many
//! values; `fields: a, b, c×n` for the keys of object units, `×n` on a key
//! only some units hold. A path through an array is written `a[].b` (a
//! pooled field: counts are occurrences, not units), a table column
//! without a name `#i`.
//!
//! A value is stated in an enumeration only when values repeat (a
//! category: on average each value held at least twice); a value held once
//! is a unit's own data, which only keeping that unit can show.
//!
//! A field or value that cannot be written unambiguously in that grammar
//! (a name with spaces, a value with `; ` or `×`, a long value) is not
//! stated: the caller keeps a unit that holds it instead ([`Stats::holders`]).
//! Nothing is stated of a field whose name looks secret, or of a value
//! that holds a credential. Numbers are compared exactly: two literals
//! that round to the same float (integers beyond 2^53, long decimals) are
//! told apart by their digits.

use std::cmp::Ordering;

use rustc_hash::FxHashMap;

use super::secrets::holds_credential;

/// A field with more distinct values than this is not enumerated.
pub const MAX_ENUM: usize = 12;
/// Values longer than this are not stated.
pub const MAX_VALUE: usize = 64;
/// Distinct values counted for a many-valued field, at most.
const MAX_DISTINCT: usize = 4096;
/// Units remembered per value (the holders of a rare value).
const VALUE_UNITS: usize = 4;
/// A numeric field with at most this many distinct values, repeating, has
/// its distribution stated beside its range.
const MAX_NUMERIC_SPREAD: usize = 6;
/// Greatest values remembered per numeric field.
pub const TOP: usize = 3;
/// A value is rare (its holders are kept) when at most this many units
/// hold it and the field's most common value is held 4 times as often.
pub const RARE: usize = 3;

/// One scalar of a unit.
#[derive(Debug, Clone, Copy)]
pub enum Scalar<'a> {
    /// A number: its literal text and value, compared exactly.
    Num(&'a str, f64),
    /// A quantity with a unit (`250m`, `1005Mi`, `45%`): its text and its
    /// value in the unit family's scale, compared by that value.
    Qty(&'a str, f64),
    Str(&'a str),
    Bool(bool),
    Null,
}

/// A distinct value of a field: its text, how many times it was seen, and
/// the first units that hold it.
#[derive(Debug, Clone)]
pub struct Seen<'a> {
    pub text: &'a str,
    pub count: usize,
    pub units: Vec<usize>,
}

impl<'a> Seen<'a> {
    fn new(text: &'a str, unit: usize) -> Seen<'a> {
        Seen {
            text,
            count: 1,
            units: vec![unit],
        }
    }

    fn again(&mut self, unit: usize) {
        self.count += 1;
        if self.units.len() < VALUE_UNITS && self.units.last() != Some(&unit) {
            self.units.push(unit);
        }
    }

    /// The first unit holding the value.
    pub fn first(&self) -> usize {
        self.units[0]
    }
}

/// An extreme of a numeric field: value, literal text, first unit.
#[derive(Debug, Clone, Copy)]
pub struct Extreme<'a> {
    pub value: f64,
    pub text: &'a str,
    pub unit: usize,
    /// Compared by value only (a quantity), not by literal digits.
    scaled: bool,
}

impl Extreme<'_> {
    /// How `self` orders against a new number: exactly for literals.
    fn cmp_to(&self, value: f64, text: &str, scaled: bool) -> Ordering {
        match self.value.partial_cmp(&value) {
            Some(Ordering::Equal) if !scaled && !self.scaled => {
                cmp_literal(self.text, text).unwrap_or(Ordering::Equal)
            }
            Some(o) => o,
            None => Ordering::Equal,
        }
    }
}

/// What held for one field across the units.
#[derive(Debug, Clone)]
pub struct Field<'a> {
    pub name: String,
    /// Values seen (units holding the field; occurrences when pooled).
    pub present: usize,
    /// Values that were numbers or quantities.
    pub numbers: usize,
    pub min: Option<Extreme<'a>>,
    pub max: Option<Extreme<'a>>,
    /// The [`TOP`] greatest values, greatest first (the first of equals).
    pub top: Vec<Extreme<'a>>,
    /// Distinct numbers (by literal text) while there are few.
    pub numeric_values: Vec<Seen<'a>>,
    numeric_many: bool,
    /// Values that were non-empty strings.
    pub strings: usize,
    /// Distinct non-empty strings with their counts and first units, in
    /// order of first appearance; at most `MAX_ENUM`.
    pub values: Vec<Seen<'a>>,
    /// More than `MAX_ENUM` distinct strings were seen.
    pub many: bool,
    /// The distinct strings once there are many, up to [`MAX_DISTINCT`].
    seen: rustc_hash::FxHashSet<&'a str>,
    pub trues: Option<Seen<'a>>,
    pub falses: Option<Seen<'a>>,
    pub nulls: usize,
    /// The field lies inside arrays of the units: counts are occurrences.
    pub pooled: bool,
    /// The field is in the first unit (for the order of `fields:`).
    order: usize,
}

impl<'a> Field<'a> {
    fn new(name: &str, order: usize, pooled: bool) -> Field<'a> {
        Field {
            name: name.to_string(),
            present: 0,
            numbers: 0,
            min: None,
            max: None,
            top: Vec::new(),
            numeric_values: Vec::new(),
            numeric_many: false,
            strings: 0,
            values: Vec::new(),
            many: false,
            seen: Default::default(),
            trues: None,
            falses: None,
            nulls: 0,
            pooled,
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

    /// The field's strings are categories: few distinct values, each held
    /// on average by two units or more.
    pub fn categorical(&self) -> bool {
        self.enumerable() && 2 * self.values.len() <= self.strings
    }

    fn bools(&self) -> usize {
        self.trues.as_ref().map_or(0, |s| s.count) + self.falses.as_ref().map_or(0, |s| s.count)
    }

    fn add(&mut self, unit: usize, v: Scalar<'a>) {
        self.present += 1;
        match v {
            Scalar::Num(text, x) | Scalar::Qty(text, x) => {
                let scaled = matches!(v, Scalar::Qty(..));
                self.numbers += 1;
                let e = Extreme {
                    value: x,
                    text,
                    unit,
                    scaled,
                };
                if self
                    .min
                    .is_none_or(|m| m.cmp_to(x, text, scaled) == Ordering::Greater)
                {
                    self.min = Some(e);
                }
                if self
                    .max
                    .is_none_or(|m| m.cmp_to(x, text, scaled) == Ordering::Less)
                {
                    self.max = Some(e);
                }
                let at = self
                    .top
                    .iter()
                    .position(|t| t.cmp_to(x, text, scaled) == Ordering::Less)
                    .unwrap_or(self.top.len());
                if at < TOP {
                    self.top.insert(at, e);
                    self.top.truncate(TOP);
                }
                if !self.numeric_many {
                    let distinct = self.numeric_values.len();
                    match self.numeric_values.iter_mut().find(|s| s.text == text) {
                        Some(s) => s.again(unit),
                        None if distinct < MAX_ENUM => {
                            self.numeric_values.push(Seen::new(text, unit))
                        }
                        None => {
                            self.numeric_many = true;
                            self.numeric_values.clear();
                        }
                    }
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
                match self.values.iter_mut().find(|e| e.text == s) {
                    Some(e) => e.again(unit),
                    None if len < MAX_ENUM => self.values.push(Seen::new(s, unit)),
                    None => {
                        self.many = true;
                        self.seen = self.values.iter().map(|v| v.text).collect();
                        self.seen.insert(s);
                        self.values.clear();
                    }
                }
            }
            Scalar::Bool(b) => {
                let slot = if b { &mut self.trues } else { &mut self.falses };
                match slot {
                    Some(s) => s.again(unit),
                    None => *slot = Some(Seen::new(if b { "true" } else { "false" }, unit)),
                }
            }
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
                .all(|b| b.is_ascii_alphanumeric() || b"_.@$/-[]#()%+:".contains(&b) || b >= 0x80)
            && !self.name.contains("..")
    }

    /// Whether a summary may speak of this field at all.
    pub fn speakable(&self) -> bool {
        !is_secret_name(&self.name)
    }

    /// The summary may state this field.
    fn stated(&self) -> bool {
        self.markable() && self.speakable()
    }

    /// The least and the greatest value are the same number.
    fn constant(&self) -> bool {
        match (self.min, self.max) {
            (Some(a), Some(b)) => a.cmp_to(b.value, b.text, b.scaled) == Ordering::Equal,
            _ => false,
        }
    }

    /// The field's distinct values (numbers, strings or booleans) with
    /// their holders, when it has few.
    fn categories(&self) -> Vec<&Seen<'a>> {
        if self.numeric() {
            if self.numeric_many {
                return Vec::new();
            }
            return self.numeric_values.iter().collect();
        }
        if self.strings > 0 && self.numbers == 0 && self.bools() == 0 {
            if self.many {
                return Vec::new();
            }
            return self.values.iter().collect();
        }
        if self.strings == 0 && self.numbers == 0 {
            return self.trues.iter().chain(self.falses.iter()).collect();
        }
        Vec::new()
    }
}

/// How a summary speaks of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Skip,
    /// Constants, ranges, categories, how many distinct values.
    Normal,
    /// As `Normal`, and a few values are listed even when they do not
    /// repeat (the field is a category of a larger collection).
    Enumerate,
    /// Only a value every unit shares.
    Constant,
}

/// A value can be stated in an enumeration as it is.
pub fn statable(v: &str) -> bool {
    !v.is_empty()
        && v.len() <= MAX_VALUE
        && !v.contains("; ")
        && !v.contains(", ")
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
        self.add_to(unit, name, v, false);
    }

    /// Records a value found inside an array of unit `unit` (a pooled
    /// field: every occurrence counts).
    pub fn add_pooled(&mut self, unit: usize, name: &str, v: Scalar<'a>) {
        self.add_to(unit, name, v, true);
    }

    fn add_to(&mut self, unit: usize, name: &str, v: Scalar<'a>, pooled: bool) {
        let i = match self.index.get(name) {
            Some(&i) => i,
            None => {
                if self.fields.len() >= self.cap {
                    return;
                }
                let i = self.fields.len();
                self.fields.push(Field::new(name, i, pooled));
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

    /// The units that must stay so that every extreme and every category
    /// is seen in the view: those of fields or values the summary cannot
    /// state.
    pub fn holders(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for f in &self.fields {
            let stated = f.stated();
            if f.numeric() && !stated {
                out.extend(f.min.map(|m| m.unit));
                out.extend(f.max.map(|m| m.unit));
            }
            if f.categorical() {
                for v in &f.values {
                    if !stated || !statable(v.text) {
                        out.push(v.first());
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The units holding the least and the greatest value of each numeric
    /// field that most units hold (not pooled), fields in order of first
    /// appearance; then (`top` > 1) the units of the next greatest values,
    /// second greatest of every field first.
    pub fn extremes(&self, top: usize) -> Vec<Vec<usize>> {
        let fields: Vec<&Field<'_>> = self
            .fields
            .iter()
            .filter(|f| f.numeric() && !f.pooled && 2 * f.numbers >= self.units)
            .collect();
        let mut out: Vec<Vec<usize>> = fields
            .iter()
            .filter_map(|f| Some(vec![f.min?.unit, f.max?.unit]))
            .collect();
        for k in 1..top.min(TOP) {
            out.extend(fields.iter().filter_map(|f| Some(vec![f.top.get(k)?.unit])));
        }
        out
    }

    /// The units holding a rare value of a field with a default (one
    /// value most units share): `(holders of the value, units)`, rarest
    /// first, then by field order.
    pub fn rare(&self) -> Vec<(usize, Vec<usize>)> {
        let mut out = Vec::new();
        for f in &self.fields {
            let cats = f.categories();
            if cats.len() < 2 {
                continue;
            }
            let mode = cats.iter().map(|s| s.count).max().unwrap_or(0);
            let held: usize = cats.iter().map(|s| s.count).sum();
            if 2 * mode < held {
                continue;
            }
            for s in cats {
                if s.count <= RARE && 4 * s.count <= mode {
                    out.push((s.count, s.units.clone()));
                }
            }
        }
        out.sort_by_key(|(c, _)| *c);
        out
    }

    /// The summary of every unit: `N total` (with `what`), then (`keys`)
    /// the fields with how many units hold them, constants, ranges,
    /// categories, many-valued fields. At most `room` bytes: sections are
    /// shed from the end, the total always stays.
    pub fn render(&self, what: &str, keys: bool, room: usize) -> String {
        let n = self.units;
        let head = format!("{n} total {what}");
        let mut sections: Vec<String> = Vec::new();
        if keys && !self.fields.is_empty() {
            let mut fs: Vec<&Field<'_>> = self
                .fields
                .iter()
                .filter(|f| !f.name.contains('.') && !f.pooled)
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
        sections.extend(self.statements(n));
        join_within(head, &sections, room)
    }

    /// `head`, then the `first` sections, then what held for the units
    /// (constants, ranges, categories), within `room` bytes; and the
    /// fields whose statements did not fit (their holders must stay).
    pub fn render_after(
        &self,
        head: String,
        first: &[String],
        room: usize,
    ) -> (String, Vec<usize>) {
        let stated = self.statements_of(self.units, &|_| Mode::Normal);
        let texts: Vec<String> = first
            .iter()
            .cloned()
            .chain(stated.iter().map(|(_, t)| t.clone()))
            .collect();
        let (text, fit) = join_counted(head, &texts, room);
        let shed = stated
            .iter()
            .skip(fit.saturating_sub(first.len()))
            .flat_map(|(fields, _)| fields.iter().copied())
            .collect();
        (text, shed)
    }

    /// The units holding what a field states: its least and greatest
    /// value, or the first holder of each of its categories.
    pub fn units_of(&self, field: usize) -> Vec<usize> {
        let f = &self.fields[field];
        if f.numeric() {
            return f.min.iter().chain(f.max.iter()).map(|e| e.unit).collect();
        }
        f.categories().iter().map(|s| s.first()).collect()
    }

    /// What held for the units, without the total or the fields, each
    /// field spoken of as `mode` says (a run of rows, say, whose fields
    /// are read against the whole table's); empty when nothing fits.
    pub fn render_shared(&self, room: usize, mode: impl Fn(&Field<'_>) -> Mode) -> String {
        let sections: Vec<String> = self
            .statements_of(self.units, &mode)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        let Some((first, rest)) = sections.split_first() else {
            return String::new();
        };
        if first.len() > room {
            return String::new();
        }
        join_within(first.clone(), rest, room)
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&Field<'a>> {
        self.index.get(name).map(|&i| &self.fields[i])
    }

    fn statements(&self, n: usize) -> Vec<String> {
        self.statements_of(n, &|_| Mode::Normal)
            .into_iter()
            .map(|(_, t)| t)
            .collect()
    }

    fn statements_of(
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
            let name = &f.name;
            // `count` values are every value of the field: one per unit
            // (one per occurrence when pooled).
            let all_of = |count: usize| {
                if f.pooled {
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
                    let mut s = format!("{name}={}..{}", lo.text, hi.text);
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
                    ranges.push((fi, s));
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
                    // The values a marker can write; a unit holding any
                    // other stays (holders).
                    let mut vs: Vec<&Seen<'_>> =
                        f.values.iter().filter(|v| statable(v.text)).collect();
                    vs.sort_by(|a, b| b.count.cmp(&a.count).then(a.first().cmp(&b.first())));
                    let mut list: Vec<String> = vs
                        .iter()
                        .map(|v| format!("{}×{}", v.text, v.count))
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
                    if !vs.is_empty() {
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
                    enums.push((fi, format!("{name}: {}", parts.join(" "))));
                }
                continue;
            }
            if f.many && f.numbers == 0 {
                many.push((fi, format!("{name}: {} distinct", distinct_text(f))));
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
/// `room` bytes; a section that does not fit ends the text with `; …`.
fn join_within(head: String, sections: &[String], room: usize) -> String {
    join_counted(head, sections, room).0
}

/// [`join_within`], and how many sections fit.
fn join_counted(head: String, sections: &[String], room: usize) -> (String, usize) {
    let mut out = head;
    for (i, s) in sections.iter().enumerate() {
        if out.len() + 2 + s.len() > room {
            out.push_str("; …");
            return (out, i);
        }
        out.push_str("; ");
        out.push_str(s);
    }
    (out, sections.len())
}

fn distinct_text(f: &Field<'_>) -> String {
    if f.seen.len() >= MAX_DISTINCT {
        format!("{MAX_DISTINCT}+")
    } else {
        f.seen.len().to_string()
    }
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

/// A decimal literal as sign, significant digits and the power of ten of
/// the first digit: `-0.0120` is (true, "12", -1).
fn decimal(text: &str) -> Option<(bool, Vec<u8>, i64)> {
    let t = text.trim();
    let (neg, t) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (int, frac) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    let mut digits = Vec::with_capacity(int.len() + frac.len());
    for b in int.bytes().chain(frac.bytes()) {
        match b {
            b'0'..=b'9' => digits.push(b),
            b',' => {}
            _ => return None,
        }
    }
    if digits.is_empty() {
        return None;
    }
    let int_len = int.bytes().filter(|b| b.is_ascii_digit()).count() as i64;
    let lead = digits.iter().take_while(|&&d| d == b'0').count();
    digits.drain(..lead);
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    let point = exp.saturating_add(int_len).saturating_sub(lead as i64);
    Some((neg && !digits.is_empty(), digits, point))
}

/// Orders two decimal literals exactly (no rounding), or `None` when one
/// is not a decimal literal.
pub fn cmp_literal(a: &str, b: &str) -> Option<Ordering> {
    let (na, da, pa) = decimal(a)?;
    let (nb, db, pb) = decimal(b)?;
    let magnitude = match (da.is_empty(), db.is_empty()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => pa.cmp(&pb).then_with(|| da.cmp(&db)),
    };
    Some(match (na, nb) {
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    })
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
            "4 total elements; fields: qty, status, name, note×1; qty=1..5; status: ok×3 fail×1"
        );
        assert!(s.holders().is_empty());
        assert_eq!(s.extremes(2), vec![vec![0, 1], vec![2]]);
    }

    #[test]
    fn rare_values_of_a_field_with_a_default() {
        let mut s = Stats::new(64);
        for i in 0..20 {
            s.unit();
            let (st, code) = match i {
                7 => ("Pending", "0"),
                13 => ("CrashLoopBackOff", "137"),
                _ => ("Running", "0"),
            };
            s.add(i, "STATUS", Scalar::Str(st));
            s.add(i, "code", Scalar::Num(code, code.parse().unwrap()));
        }
        let rare: Vec<Vec<usize>> = s.rare().into_iter().map(|(_, u)| u).collect();
        assert_eq!(rare, vec![vec![7], vec![13], vec![13]]);
        assert_eq!(
            s.render("rows", false, 1000),
            "20 total rows; code=0..137 (0×19 137×1); STATUS: Running×18 Pending×1 CrashLoopBackOff×1"
        );
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
    fn big_integers_are_compared_exactly() {
        let mut s = Stats::new(8);
        for (i, x) in ["1700000000000000000", "1700000000000000001"]
            .iter()
            .enumerate()
        {
            s.unit();
            s.add(i, "span_id", Scalar::Num(x, x.parse().unwrap()));
        }
        assert_eq!(
            s.render("elements", false, 1000),
            "2 total elements; span_id=1700000000000000000..1700000000000000001"
        );
        assert_eq!(cmp_literal("0.10", "1e-1"), Some(Ordering::Equal));
        assert_eq!(cmp_literal("-0", "0"), Some(Ordering::Equal));
        assert_eq!(cmp_literal("-2.5", "-2.45"), Some(Ordering::Less));
        assert_eq!(cmp_literal("12", "9.99"), Some(Ordering::Greater));
        assert_eq!(cmp_literal("1,000", "999"), Some(Ordering::Greater));
        assert_eq!(cmp_literal("abc", "1"), None);
    }

    #[test]
    fn pooled_fields_and_booleans() {
        let mut s = Stats::new(8);
        for i in 0..4 {
            s.unit();
            s.add(i, "ok", Scalar::Bool(i != 2));
            for x in ["1", "2"] {
                s.add_pooled(i, "arcs[]#0", Scalar::Num(x, x.parse().unwrap()));
            }
        }
        assert_eq!(
            s.render("elements", true, 1000),
            "4 total elements; fields: ok; arcs[]#0=1..2 (1×4 2×4); ok: true×3 false×1"
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
