//! Dates of a field: a column of `2012-01-01`, `Jan 1 2000`,
//! `Sun Dec 04 04:47:44 2005` or `3/14/2021` is stated as a span (first →
//! last, in order of appearance, and whether it is sorted), not as
//! `N distinct`. Dates are ordered exactly: a key is nanoseconds (a
//! fraction of a second read whole, a zone's offset applied), and a span
//! is stated only when it holds under every reading the values allow.

/// A date as read: its key, whether it named its zone, and, for a date
/// of numbers only (`3/4/2021`, `4.3.2021`), the key when the first
/// number is the day instead of the month.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Read {
    /// Month first (`None`: the first number cannot be a month).
    month_first: Option<i128>,
    /// Day first (`None`: the second cannot be a month, or not numeric).
    day_first: Option<i128>,
    zoned: bool,
}

/// One reading of a field's dates (month first, or day first).
#[derive(Debug, Clone, Default)]
struct Order<'a> {
    /// Every value read as a date under this reading.
    valid: bool,
    prev: i128,
    ascending: bool,
    descending: bool,
    earliest: Option<(i128, &'a str)>,
    latest: Option<(i128, &'a str)>,
}

impl<'a> Order<'a> {
    fn new() -> Order<'a> {
        Order {
            valid: true,
            ascending: true,
            descending: true,
            ..Order::default()
        }
    }

    fn add(&mut self, k: Option<i128>, s: &'a str, first: bool) {
        let Some(k) = k.filter(|_| self.valid) else {
            self.valid = false;
            return;
        };
        if !first {
            self.ascending &= k >= self.prev;
            self.descending &= k <= self.prev;
        }
        self.prev = k;
        // Equal instants are equally earliest: the first stays.
        if self.earliest.is_none_or(|(e, _)| k < e) {
            self.earliest = Some((k, s));
        }
        if self.latest.is_none_or(|(l, _)| k > l) {
            self.latest = Some((k, s));
        }
    }

    /// The span this reading states, when every value read under it.
    fn span(&self, first: &str, last: &str) -> Option<String> {
        if !self.valid {
            return None;
        }
        let (e, l) = (self.earliest?, self.latest?);
        if e.0 == l.0 {
            return None;
        }
        Some(if self.ascending {
            format!("{first} \u{2192} {last} (sorted ascending)")
        } else if self.descending {
            format!("{first} \u{2192} {last} (sorted descending)")
        } else {
            format!(
                "earliest {}, latest {} (not sorted: first {first}, last {last})",
                e.1, l.1
            )
        })
    }
}

/// The order a field's dates came in, while every string was a date.
#[derive(Debug, Clone, Default)]
pub struct Dates<'a> {
    /// Dates read; `None` once a string was not one.
    read: Option<usize>,
    pub first: Option<&'a str>,
    pub last: Option<&'a str>,
    /// The dates read month first, and day first (the two differ only
    /// for dates of numbers only).
    orders: [Order<'a>; 2],
    /// Dates with a zone and dates without one were both read: their
    /// order is not known.
    zoned: (bool, bool),
}

impl<'a> Dates<'a> {
    pub(super) fn new() -> Dates<'a> {
        Dates {
            read: Some(0),
            orders: [Order::new(), Order::new()],
            ..Dates::default()
        }
    }

    pub(super) fn add(&mut self, s: &'a str) {
        let Some(n) = self.read else { return };
        let Some(r) = read(s) else {
            self.read = None;
            return;
        };
        self.orders[0].add(r.month_first, s, n == 0);
        self.orders[1].add(r.day_first, s, n == 0);
        if !self.orders[0].valid && !self.orders[1].valid {
            self.read = None;
            return;
        }
        if r.zoned {
            self.zoned.0 = true;
        } else {
            self.zoned.1 = true;
        }
        self.first.get_or_insert(s);
        self.last = Some(s);
        self.read = Some(n + 1);
    }

    /// How many dates were read, when every string was one.
    pub fn count(&self) -> Option<usize> {
        self.read.filter(|&n| n > 0)
    }

    /// The span as a summary states it: `2012-01-01 → 2015-12-31 (sorted
    /// ascending)`, or first → last with the earliest and latest when
    /// the dates are not in order. `None` when the values allow two
    /// readings that state different spans (`3/4/2021` month or day
    /// first), or mix zoned and unzoned times.
    pub fn span(&self) -> Option<String> {
        let (first, last) = (self.first?, self.last?);
        self.count()?;
        if self.zoned.0 && self.zoned.1 {
            return None;
        }
        match [0, 1].map(|o| self.orders[o].span(first, last)) {
            [Some(a), Some(b)] => (a == b).then_some(a),
            [a, b] => a.or(b),
        }
    }
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Digits of a fraction of a second read (nanoseconds); a longer
/// fraction is not ordered exactly, and is not read as a date.
const MAX_FRACTION: usize = 9;
const NANOS: i128 = 1_000_000_000;

/// A clock time: nanoseconds since midnight, and the zone's offset in
/// seconds when one is named.
type Clock = (i128, Option<i64>);

/// Leading ASCII digits of `s`, at most `max`, and the rest.
fn digits(s: &str, max: usize) -> (&str, &str) {
    let n = s.bytes().take(max).take_while(u8::is_ascii_digit).count();
    s.split_at(n)
}

/// A zone after a time: `Z`, `UTC`, `GMT`, `+02:00`, `-0500`, `+02`
/// (with or without a space before it): its offset in seconds.
fn zone(z: &str) -> Option<i64> {
    let z = z.trim_start();
    if ["Z", "z", "UTC", "GMT"].contains(&z) {
        return Some(0);
    }
    let sign = match z.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (h, rest) = digits(&z[1..], 2);
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let (m, rest) = digits(rest, 2);
    let h: i64 = h.parse().ok().filter(|_| h.len() == 2)?;
    let m: i64 = if m.is_empty() {
        0
    } else {
        m.parse().ok().filter(|_| m.len() == 2)?
    };
    (rest.is_empty() && h <= 14 && m < 60).then_some(sign * (h * 3600 + m * 60))
}

/// `hh:mm`, `hh:mm:ss` or `hh:mm:ss.fffffffff`, then perhaps a zone.
fn time_of(t: &str) -> Option<Clock> {
    let (h, rest) = digits(t, 2);
    let rest = rest.strip_prefix(':')?;
    let (m, rest) = digits(rest, 2);
    let (sec, rest) = match rest.strip_prefix(':') {
        Some(r) => digits(r, 2),
        None => ("0", rest),
    };
    let (frac, rest) = match rest.strip_prefix(['.', ',']) {
        Some(r) => {
            let (f, rest) = digits(r, MAX_FRACTION + 1);
            if f.is_empty() || f.len() > MAX_FRACTION {
                return None;
            }
            (f, rest)
        }
        None => ("", rest),
    };
    if m.len() != 2 || (sec.len() != 2 && sec != "0") {
        return None;
    }
    let (h, m, sec): (i128, i128, i128) = (h.parse().ok()?, m.parse().ok()?, sec.parse().ok()?);
    if h >= 24 || m >= 60 || sec >= 61 {
        return None;
    }
    let nanos: i128 = if frac.is_empty() {
        0
    } else {
        frac.parse::<i128>().ok()? * 10i128.pow((MAX_FRACTION - frac.len()) as u32)
    };
    let zone = if rest.is_empty() {
        None
    } else {
        Some(zone(rest)?)
    };
    Some(((h * 3600 + m * 60 + sec) * NANOS + nanos, zone))
}

/// Days in month `m` of year `y`.
fn month_days(y: i64, m: i64) -> i64 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a day of the proleptic Gregorian calendar.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The instant of a day and a clock time, in nanoseconds (a zone's offset
/// applied), when the day exists.
fn key(y: i64, m: i64, d: i64, clock: Clock) -> Option<i128> {
    let valid =
        (1..=12).contains(&m) && (1000..=2999).contains(&y) && (1..=month_days(y, m)).contains(&d);
    valid.then(|| {
        let day = days_from_civil(y, m, d) as i128 * 86_400 * NANOS;
        day + clock.0 - clock.1.unwrap_or(0) as i128 * NANOS
    })
}

/// A date's instant (nanoseconds, ordering dates exactly) when it has
/// one reading: an ISO date (`2012-01-01`, `2012-01`, `2012/01/01`, with
/// a time after `T` or a space, a fraction and a zone), a date with a
/// month's name (`Jan 1 2000`, `1 January 2000`, `Sun Dec 04 04:47:44
/// 2005`, `March 5, 2021`), or a date of numbers that reads one way only
/// (`3/14/2021`, `14.3.2021`). `None` for anything else.
#[cfg(test)]
fn date_key(s: &str) -> Option<i128> {
    let r = read(s)?;
    match (r.month_first, r.day_first) {
        (Some(a), Some(b)) => (a == b).then_some(a),
        (a, b) => a.or(b),
    }
}

/// Whether `s` reads as a date, one way or another.
pub fn is_date(s: &str) -> bool {
    read(s).is_some()
}

/// A date as read, in every reading it allows.
fn read(s: &str) -> Option<Read> {
    let s = s.trim();
    if s.len() < 7 || s.len() > 48 {
        return None;
    }
    let b = s.as_bytes();
    let (date, time) = match s.find(['T', ' ']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let clock = match time {
        Some(t) => time_of(t),
        None => Some((0, None)),
    };
    let one = |k: Option<i128>, zoned: bool| {
        k.map(|k| Read {
            month_first: Some(k),
            day_first: Some(k),
            zoned,
        })
    };
    if b[..4].iter().all(u8::is_ascii_digit) && (b[4] == b'-' || b[4] == b'/') {
        let clock = clock?;
        let mut p = date.split(date.as_bytes()[4] as char);
        let y: i64 = p.next()?.parse().ok()?;
        let m = p.next()?;
        let d = p.next();
        if p.next().is_some() || m.len() > 2 || d.is_some_and(|d| d.len() > 2) {
            return None;
        }
        let m: i64 = m.parse().ok()?;
        let d: i64 = d.map_or(Some(1), |d| d.parse().ok())?;
        return one(key(y, m, d, clock), clock.1.is_some());
    }
    if let Some(r) = numeric(date, clock) {
        return Some(r);
    }
    let (mut y, mut m, mut d) = (None, None, None);
    let mut clock: Clock = (0, None);
    for w in s.split([' ', ',']).filter(|w| !w.is_empty()) {
        let lower = w.to_ascii_lowercase();
        let word = lower.trim_end_matches('.');
        if ["utc", "gmt"].contains(&word) || (w.starts_with(['+', '-']) && w.len() > 2) {
            clock.1 = Some(zone(w)?);
        } else if word.len() >= 3 && word.bytes().all(|c| c.is_ascii_alphabetic()) {
            // A name or its abbreviation (`Sep`, `Sept`), not a word that
            // starts like one (`Marching`).
            let named = |x: &&str| x.starts_with(word);
            if let Some(i) = MONTHS.iter().position(&named) {
                if m.is_some() {
                    return None;
                }
                m = Some(i as i64 + 1);
            } else if !WEEKDAYS.iter().any(named) {
                return None;
            }
        } else if w.contains(':') {
            let (t, z) = time_of(w)?;
            clock = (t, z.or(clock.1));
        } else if w.len() == 4 && w.bytes().all(|c| c.is_ascii_digit()) && y.is_none() {
            y = w.parse().ok();
        } else if w.len() <= 2 && w.bytes().all(|c| c.is_ascii_digit()) && d.is_none() {
            d = w.parse().ok();
        } else {
            return None;
        }
    }
    one(key(y?, m?, d.unwrap_or(1), clock), clock.1.is_some())
}

/// A date of numbers, `a/b/yyyy` or `a.b.yyyy` (the same separator
/// twice): read month first and day first, each where it is a date.
fn numeric(date: &str, clock: Option<Clock>) -> Option<Read> {
    let sep = date.bytes().find(|c| !c.is_ascii_digit())?;
    if sep != b'/' && sep != b'.' {
        return None;
    }
    let mut p = date.split(sep as char);
    let (a, b, y) = (p.next()?, p.next()?, p.next()?);
    let short = |x: &str| (1..=2).contains(&x.len()) && x.bytes().all(|c| c.is_ascii_digit());
    if p.next().is_some() || !short(a) || !short(b) || y.len() != 4 {
        return None;
    }
    let clock = clock?;
    let (a, b, y): (i64, i64, i64) = (a.parse().ok()?, b.parse().ok()?, y.parse().ok()?);
    let r = Read {
        month_first: key(y, a, b, clock),
        day_first: key(y, b, a, clock),
        zoned: clock.1.is_some(),
    };
    (r.month_first.is_some() || r.day_first.is_some()).then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_ordered() {
        let k = |s| date_key(s).unwrap();
        assert!(k("2012-01-01") < k("2012-01-02"));
        assert!(k("2012-01") < k("2012-02-01"));
        assert!(k("2012-01-01T10:00:00Z") < k("2012-01-01 11:00"));
        assert!(k("Dec 1 2009") < k("Jan 1 2010"));
        assert!(k("1 March 2000") < k("March 5, 2000"));
        assert!(k("Sun Dec 04 04:47:44 2005") < k("Sun Dec 04 04:47:45 2005"));
        assert!(k("2012-01-31") < k("2012-02-01"));
        assert!(k("2012-02-29") < k("2012-03-01"));
        for no in [
            "2012",
            "Customer 12 2000",
            "2012-13-01",
            "2013-02-29",
            "Marching 1 2000",
            "soon",
            "v1.2.3",
            "10.0.0.1",
            "2012-01-01 10:00 PM",
            "2012-01-01T10:00:00.1234567891Z",
        ] {
            assert_eq!(date_key(no), None, "{no}");
        }
    }

    #[test]
    fn fractions_and_zones_order_exactly() {
        let k = |s| date_key(s).unwrap();
        assert!(k("2017-10-20T18:26:06.587016622Z") < k("2017-10-20T18:26:06.587026663Z"));
        assert!(k("2017-10-20T18:26:06.5Z") > k("2017-10-20T18:26:06.49Z"));
        assert_eq!(k("2017-10-20T20:26:06+02:00"), k("2017-10-20T18:26:06Z"));
        assert!(k("2017-10-20T23:30:00-05:00") > k("2017-10-21T04:00:00Z"));
        assert_eq!(
            k("Sun Dec 04 04:47:44 +0000 2005"),
            k("2005-12-04T04:47:44Z")
        );
        let mut d = Dates::new();
        for s in [
            "2017-10-20T18:26:06.587026663Z",
            "2017-10-20T18:26:06.587016622Z",
            "2017-10-20T18:27:55.851305996Z",
        ] {
            d.add(s);
        }
        assert_eq!(
            d.span().unwrap(),
            "earliest 2017-10-20T18:26:06.587016622Z, latest 2017-10-20T18:27:55.851305996Z \
             (not sorted: first 2017-10-20T18:26:06.587026663Z, last 2017-10-20T18:27:55.851305996Z)"
        );
    }

    #[test]
    fn zoned_and_unzoned_times_claim_no_span() {
        let mut d = Dates::new();
        for s in [
            "2017-10-20T18:26:06Z",
            "2017-10-20T19:00:00",
            "2017-10-21T01:00:00Z",
        ] {
            d.add(s);
        }
        assert_eq!(d.span(), None);
    }

    #[test]
    fn dates_of_numbers_are_read_where_one_reading_holds() {
        // `3/14` can only be month first.
        let mut d = Dates::new();
        for s in ["3/4/2021", "3/14/2021", "4/2/2021"] {
            d.add(s);
        }
        assert_eq!(
            d.span().unwrap(),
            "3/4/2021 \u{2192} 4/2/2021 (sorted ascending)"
        );
        // `14.3` can only be day first.
        let mut d = Dates::new();
        for s in ["2.3.2021", "14.3.2021", "1.4.2021"] {
            d.add(s);
        }
        assert_eq!(
            d.span().unwrap(),
            "2.3.2021 \u{2192} 1.4.2021 (sorted ascending)"
        );
        // Either reading: the two spans differ, none is stated.
        let mut d = Dates::new();
        for s in ["3/4/2021", "4/3/2021", "5/1/2021"] {
            d.add(s);
        }
        assert_eq!(d.span(), None);
        // Both readings give the same span: it is stated.
        let mut d = Dates::new();
        for s in ["1/1/2020", "2/2/2020", "3/3/2020"] {
            d.add(s);
        }
        assert!(d.span().is_some());
        // One value month first only, another day first only.
        let mut d = Dates::new();
        d.add("3/14/2021");
        d.add("14/3/2021");
        assert_eq!(d.count(), None);
    }

    #[test]
    fn a_span_says_whether_it_is_sorted() {
        let mut d = Dates::new();
        for s in ["Jan 1 2000", "Feb 1 2000", "Mar 1 2010"] {
            d.add(s);
        }
        assert_eq!(
            d.span().unwrap(),
            "Jan 1 2000 \u{2192} Mar 1 2010 (sorted ascending)"
        );
        let mut d = Dates::new();
        for s in ["2001-05-01", "2000-01-01", "2003-01-01", "2002-01-01"] {
            d.add(s);
        }
        assert_eq!(
            d.span().unwrap(),
            "earliest 2000-01-01, latest 2003-01-01 (not sorted: first 2001-05-01, last 2002-01-01)"
        );
        let mut d = Dates::new();
        d.add("2000-01-01");
        d.add("north");
        assert_eq!(d.span(), None);
    }
}
