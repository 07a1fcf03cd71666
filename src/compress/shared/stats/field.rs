//! One field of a summary: the values its units hold (numbers with their
//! extremes and few-valued spread, categories with their holders,
//! booleans), and whether a marker may name it.

use std::cmp::Ordering;

use super::date::Dates;
use super::number::cmp_number;
use super::{is_secret_name, MAX_DISTINCT, MAX_ENUM, MAX_VALUE, TOP, VALUE_UNITS};
use crate::compress::shared::secrets::holds_credential;

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
    pub(super) fn new(text: &'a str, unit: usize) -> Seen<'a> {
        Seen {
            text,
            count: 1,
            units: vec![unit],
        }
    }

    pub(super) fn again(&mut self, unit: usize) {
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
    pub(super) fn cmp_to(&self, value: f64, text: &str, scaled: bool) -> Ordering {
        if self.text == text {
            return Ordering::Equal;
        }
        match self.value.partial_cmp(&value) {
            Some(Ordering::Equal) if !scaled && !self.scaled => {
                cmp_number(self.text, text).unwrap_or(Ordering::Equal)
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
    pub(super) numeric_many: bool,
    /// Values that were non-empty strings.
    pub strings: usize,
    /// Distinct non-empty strings with their counts and first units, in
    /// order of first appearance; at most `MAX_ENUM`.
    pub values: Vec<Seen<'a>>,
    /// More than `MAX_ENUM` distinct strings were seen.
    pub many: bool,
    /// The distinct strings once there are many, up to [`MAX_DISTINCT`].
    pub(super) seen: rustc_hash::FxHashSet<&'a str>,
    pub trues: Option<Seen<'a>>,
    pub falses: Option<Seen<'a>>,
    pub nulls: usize,
    /// The field lies inside arrays of the units: counts are occurrences.
    pub pooled: bool,
    /// The field is in the first unit (for the order of `fields:`).
    pub(super) order: usize,
    /// The order of its strings while every one is a date.
    pub dates: Dates<'a>,
    /// Blank cells of a table's column (not counted as present: a blank
    /// is no value, and every statement says how many there were).
    pub blanks: usize,
}

impl<'a> Field<'a> {
    pub(super) fn new(name: &str, order: usize, pooled: bool) -> Field<'a> {
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
            dates: Dates::new(),
            blanks: 0,
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

    /// The field holds only dates, more than one (its summary is a span).
    pub fn dated(&self) -> bool {
        self.numbers == 0
            && self.bools() == 0
            && self.dates.count() == Some(self.strings)
            && self.dates.span().is_some()
    }

    /// The field's strings are categories: few distinct values, each held
    /// on average by two units or more.
    pub fn categorical(&self) -> bool {
        self.enumerable() && 2 * self.values.len() <= self.strings
    }

    pub(super) fn bools(&self) -> usize {
        self.trues.as_ref().map_or(0, |s| s.count) + self.falses.as_ref().map_or(0, |s| s.count)
    }

    pub(super) fn add(&mut self, unit: usize, v: Scalar<'a>) {
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
            // An empty string is a value of its own, not a string.
            Scalar::Str("") => {}
            Scalar::Str(s) => {
                self.strings += 1;
                self.dates.add(s);
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

    /// Every unit holding the field, when they are all known (not pooled,
    /// no null, each distinct value's holders all remembered): a summary
    /// need not speak of a field whose holders a view shows.
    pub fn known_units(&self) -> Option<Vec<usize>> {
        if self.pooled || self.nulls > 0 || self.many || self.numeric_many {
            return None;
        }
        let seen = self
            .values
            .iter()
            .chain(&self.numeric_values)
            .chain(self.trues.iter())
            .chain(self.falses.iter());
        let mut units = Vec::new();
        let mut count = 0;
        for s in seen {
            if s.units.len() != s.count {
                return None;
            }
            count += s.count;
            units.extend_from_slice(&s.units);
        }
        (count == self.present && count > 0).then_some(units)
    }

    /// The name can be written as a marker key ([`Field::shown_name`]): no
    /// control characters, quotes or marker glyphs.
    pub fn markable(&self) -> bool {
        !self.name.is_empty()
            && self.name.len() <= 64
            && !self.name.contains("..")
            && !self
                .name
                .chars()
                .any(|c| c.is_control() || c == '"' || c == '\u{2026}' || c == '\u{d7}')
            && !self.name.contains("caveman")
    }

    /// The name needs quotes in a summary ([`Field::shown_name`]).
    pub fn quoted(&self) -> bool {
        !self
            .name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.@$/-[]#()%+:".contains(&b) || b >= 0x80)
    }

    /// The name as a summary writes it: as it is when it reads as one word
    /// (letters, digits, `_.@$/-[]#()%+:`), else in double quotes
    /// (`"US Gross"=…`, `"First?"=…`), so that a column named with spaces
    /// or punctuation is stated like any other.
    pub fn shown_name(&self) -> std::borrow::Cow<'_, str> {
        if !self.quoted() {
            std::borrow::Cow::Borrowed(&self.name)
        } else {
            std::borrow::Cow::Owned(format!("\"{}\"", self.name))
        }
    }

    /// Whether a summary may speak of this field at all.
    pub fn speakable(&self) -> bool {
        !is_secret_name(&self.name)
    }

    /// The summary may state this field.
    pub(super) fn stated(&self) -> bool {
        self.markable() && self.speakable()
    }

    /// The least and the greatest value are the same number.
    pub(super) fn constant(&self) -> bool {
        match (self.min, self.max) {
            (Some(a), Some(b)) => a.cmp_to(b.value, b.text, b.scaled) == Ordering::Equal,
            _ => false,
        }
    }

    /// The field's distinct values (numbers, strings or booleans) with
    /// their holders, when it has few.
    pub(super) fn categories(&self) -> Vec<&Seen<'a>> {
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
    /// As `Normal`, but dates are always a span, even a few repeated ones
    /// (a gap between kept rows: its few times listed with counts cost
    /// more than the span and say less).
    Span,
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
