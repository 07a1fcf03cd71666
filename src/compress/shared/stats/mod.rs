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

mod date;
mod field;
pub use date::is_date;
mod number;
mod statements;

pub use field::{statable, Field, Mode, Scalar};
pub use number::number;

use rustc_hash::FxHashMap;
use statements::{join_counted, join_within};

/// A field with more distinct values than this is not enumerated.
pub const MAX_ENUM: usize = 12;
/// Values longer than this are not stated.
pub const MAX_VALUE: usize = 64;
/// Distinct values counted for a many-valued field, at most.
pub(super) const MAX_DISTINCT: usize = 4096;
/// Units remembered per value (the holders of a rare value).
pub(super) const VALUE_UNITS: usize = 4;
/// A numeric field with at most this many distinct values, repeating, has
/// its distribution stated beside its range.
pub(super) const MAX_NUMERIC_SPREAD: usize = 6;
/// Greatest values remembered per numeric field.
pub const TOP: usize = 3;
/// A value is rare (its holders are kept) when at most this many units
/// hold it and the field's most common value is held 4 times as often.
pub const RARE: usize = 3;
/// A field of at most this many values has rare values without a default.
const FEW: usize = 8;
/// How many times more often than a rare value the most common one is
/// held, in a field without a default.
const SPREAD: usize = 8;

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
    /// Objects and arrays seen where a field's values are (by path).
    containers: FxHashMap<String, (usize, usize)>,
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

    /// Records a blank cell under `name` (a table's
    /// column): counted, never a value.
    pub fn blank(&mut self, name: &str) {
        if let Some(i) = self.slot(name, false) {
            self.fields[i].blanks += 1;
        }
    }

    /// Records a value found inside an array of unit `unit` (a pooled
    /// field: every occurrence counts).
    pub fn add_pooled(&mut self, unit: usize, name: &str, v: Scalar<'a>) {
        self.add_to(unit, name, v, true);
    }

    fn add_to(&mut self, unit: usize, name: &str, v: Scalar<'a>, pooled: bool) {
        if let Some(i) = self.slot(name, pooled) {
            self.fields[i].add(unit, v);
        }
    }

    /// The field named `name`, made when new (`None` beyond the cap).
    fn slot(&mut self, name: &str, pooled: bool) -> Option<usize> {
        if let Some(&i) = self.index.get(name) {
            return Some(i);
        }
        if self.fields.len() >= self.cap {
            return None;
        }
        let i = self.fields.len();
        self.fields.push(Field::new(name, i, pooled));
        self.index.insert(name.to_string(), i);
        Some(i)
    }

    /// Records that a unit holds an object (or an array) under `name`,
    /// where other units may hold a scalar: what a field's statements
    /// must not leave out.
    pub fn add_container(&mut self, name: &str, array: bool) {
        let len = self.containers.len();
        let e = match self.containers.get_mut(name) {
            Some(e) => e,
            None if len < self.cap => self.containers.entry(name.to_string()).or_default(),
            None => return,
        };
        if array {
            e.1 += 1;
        } else {
            e.0 += 1;
        }
    }

    /// The objects and arrays seen where `f`'s values are.
    fn containers_of(&self, f: &Field<'_>) -> (usize, usize) {
        self.containers.get(&f.name).copied().unwrap_or_default()
    }

    /// Counts one more unit.
    pub fn unit(&mut self) {
        self.units += 1;
    }

    /// The units that must stay so that every extreme and every category
    /// is seen in the view: those of fields or values the summary cannot
    /// state, or states only under a quoted name (`"US Gross"=…`): a
    /// reader that takes `key=value` words would not find them, so their
    /// rows stay too.
    pub fn holders(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for f in &self.fields {
            let stated = f.stated() && !f.quoted();
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
    /// value most units share) or of a list's members of at most [`FEW`]
    /// values:
    /// `(holders of the value, units)`, rarest first, then by field order.
    pub fn rare(&self) -> Vec<(usize, Vec<usize>)> {
        let mut out = Vec::new();
        for f in &self.fields {
            let cats = f.categories();
            if cats.len() < 2 {
                continue;
            }
            let mode = cats.iter().map(|s| s.count).max().unwrap_or(0);
            let held: usize = cats.iter().map(|s| s.count).sum();
            // A default (one value most units share), or a few common
            // values (labels spread over kinds of issue, one `security`).
            // A list's members (labels, tags) are spread over kinds with no
            // default: there a value the common ones outnumber many times
            // over is rare.
            let default = 2 * mode >= held;
            if !default && (!f.pooled || cats.len() > FEW) {
                continue;
            }
            let times = if default { 4 } else { SPREAD };
            for s in cats {
                if s.count <= RARE && times * s.count <= mode {
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
                        f.shown_name().into_owned()
                    } else {
                        format!("{}×{}", f.shown_name(), f.present)
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
    /// (constants, ranges, categories; of the fields `mode` does not
    /// skip), within `room` bytes; and the fields whose statements did
    /// not fit (their holders must stay).
    pub fn render_after(
        &self,
        head: String,
        first: &[String],
        room: usize,
        mode: impl Fn(&Field<'_>) -> Mode,
    ) -> (String, Vec<usize>) {
        let stated = self.statements_of(self.units, &mode);
        let texts: Vec<String> = first
            .iter()
            .cloned()
            .chain(stated.iter().map(|(_, t)| t.clone()))
            .collect();
        let (text, fit) = join_counted(head, &texts, room, true);
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
    /// are read against the whole table's); empty when nothing fits. The
    /// sections that did not fit are counted (`; (+3 more)`) when
    /// `count_rest`.
    pub fn render_shared(
        &self,
        room: usize,
        count_rest: bool,
        mode: impl Fn(&Field<'_>) -> Mode,
    ) -> String {
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
        join_counted(first.clone(), rest, room, count_rest).0
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
    fn values_with_separators_are_quoted_not_counted() {
        let mut s = Stats::new(64);
        for i in 0..10 {
            s.unit();
            let v = if i % 3 == 0 {
                "honest, kind and loyal"
            } else {
                "honest, kind, and loyal"
            };
            s.add(i, "answer", Scalar::Str(v));
        }
        assert_eq!(
            s.render("rows", false, 1000),
            "10 total rows; answer: \u{201c}honest, kind, and loyal\u{201d}×6 \u{201c}honest, kind and loyal\u{201d}×4"
        );
    }

    #[test]
    fn free_text_is_counted_not_measured() {
        let mut s = Stats::new(64);
        let texts: Vec<String> = (0..20)
            .map(|i| format!("comment {i}: {}", "word ".repeat(i % 9 + 1).trim_end()))
            .collect();
        for (i, t) in texts.iter().enumerate() {
            s.unit();
            s.add(i, "comment", Scalar::Str(t));
        }
        assert_eq!(
            s.render("rows", false, 1000),
            "20 total rows; comment: 20 distinct"
        );
    }

    #[test]
    fn blank_cells_are_counted() {
        let mut s = Stats::new(64);
        let texts: Vec<String> = (0..20).map(|i| format!("note number {i}")).collect();
        for (i, t) in texts.iter().enumerate() {
            s.unit();
            if i % 5 == 0 {
                s.blank("note");
                s.blank("qty");
                s.blank("state");
                continue;
            }
            s.add(i, "note", Scalar::Str(t));
            s.add(i, "qty", Scalar::Num("7", 7.0));
            s.add(i, "state", Scalar::Str(["up", "down"][i % 2]));
        }
        assert_eq!(
            s.render("rows", false, 1000),
            "20 total rows; qty=7 (4 blank); state: down×8 up×8 (blank)×4; note: 16 distinct, 4 blank"
        );
    }

    #[test]
    fn dates_are_stated_as_a_span() {
        let mut s = Stats::new(64);
        for (i, day) in DAYS.iter().enumerate() {
            s.unit();
            s.add(i, "date", Scalar::Str(day));
        }
        assert_eq!(
            s.render("rows", false, 1000),
            "40 total rows; date: 2012-01-01 \u{2192} 2012-02-09 (sorted ascending)"
        );
    }

    const DAYS: [&str; 40] = [
        "2012-01-01",
        "2012-01-02",
        "2012-01-03",
        "2012-01-04",
        "2012-01-05",
        "2012-01-06",
        "2012-01-07",
        "2012-01-08",
        "2012-01-09",
        "2012-01-10",
        "2012-01-11",
        "2012-01-12",
        "2012-01-13",
        "2012-01-14",
        "2012-01-15",
        "2012-01-16",
        "2012-01-17",
        "2012-01-18",
        "2012-01-19",
        "2012-01-20",
        "2012-01-21",
        "2012-01-22",
        "2012-01-23",
        "2012-01-24",
        "2012-01-25",
        "2012-01-26",
        "2012-01-27",
        "2012-01-28",
        "2012-01-29",
        "2012-01-30",
        "2012-01-31",
        "2012-02-01",
        "2012-02-02",
        "2012-02-03",
        "2012-02-04",
        "2012-02-05",
        "2012-02-06",
        "2012-02-07",
        "2012-02-08",
        "2012-02-09",
    ];

    #[test]
    fn a_rare_member_of_lists_spread_over_kinds() {
        // Labels spread over four kinds (no default); one issue holds a
        // `security` label the common ones outnumber many times over.
        let mut s = Stats::new(64);
        for i in 0..40 {
            s.unit();
            let kind = ["bug", "docs", "enhancement", "triage"][i % 4];
            s.add_pooled(i, "labels[].name", Scalar::Str(kind));
            if i == 17 {
                s.add_pooled(i, "labels[].name", Scalar::Str("security"));
            }
            // A flat field spread the same way has no rare value.
            s.add(i, "area", Scalar::Str(if i == 17 { "auth" } else { kind }));
        }
        let rare: Vec<Vec<usize>> = s.rare().into_iter().map(|(_, u)| u).collect();
        assert_eq!(rare, vec![vec![17]]);
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
    fn names_with_spaces_are_stated_quoted() {
        let mut s = Stats::new(64);
        for (i, x) in ["3", "9", "1"].iter().enumerate() {
            s.unit();
            s.add(i, "US Gross", Scalar::Num(x, x.parse().unwrap()));
            s.add(i, "First?", Scalar::Str("yes"));
        }
        assert_eq!(s.holders(), vec![0, 1, 2], "the rows of quoted fields stay");
        assert_eq!(
            s.render("rows", true, 1000),
            "3 total rows; fields: \"US Gross\", \"First?\"; all \"First?\"=yes; \"US Gross\"=1..9"
        );
    }

    #[test]
    fn bare_decimal_points_get_their_zero_in_ranges() {
        let mut s = Stats::new(64);
        for (i, x) in [".301", ".012", "-.5"].iter().enumerate() {
            s.unit();
            s.add(i, "share", Scalar::Num(x, x.parse().unwrap()));
        }
        assert_eq!(
            s.render("rows", false, 1000),
            "3 total rows; share=-0.5..0.301"
        );
    }

    #[test]
    fn unmarkable_names_keep_holders() {
        let mut s = Stats::new(64);
        for (i, x) in ["3", "9", "1"].iter().enumerate() {
            s.unit();
            s.add(i, "bad\tname", Scalar::Num(x, x.parse().unwrap()));
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
}
