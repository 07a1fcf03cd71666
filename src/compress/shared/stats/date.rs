//! Dates of a field: a column of `2012-01-01`, `Jan 1 2000` or
//! `Sun Dec 04 04:47:44 2005` is stated as a span (first → last, in order
//! of appearance, and whether it is sorted), not as `N distinct`.

/// The order a field's dates came in, while every string was a date.
#[derive(Debug, Clone, Default)]
pub struct Dates<'a> {
    /// Dates read; `None` once a string was not one.
    read: Option<usize>,
    pub first: Option<&'a str>,
    pub last: Option<&'a str>,
    prev: i64,
    /// No date was earlier (later) than the one before it.
    pub ascending: bool,
    pub descending: bool,
    pub earliest: Option<(i64, &'a str)>,
    pub latest: Option<(i64, &'a str)>,
    /// Two different strings read as the same second (fractions of a
    /// second, two spellings of a day): their order is not known, so no
    /// span is claimed.
    tied: bool,
}

impl<'a> Dates<'a> {
    pub(super) fn new() -> Dates<'a> {
        Dates {
            read: Some(0),
            ascending: true,
            descending: true,
            ..Dates::default()
        }
    }

    pub(super) fn add(&mut self, s: &'a str) {
        let Some(n) = self.read else { return };
        let Some(k) = date_key(s) else {
            self.read = None;
            return;
        };
        if n > 0 {
            self.ascending &= k >= self.prev;
            self.descending &= k <= self.prev;
            self.tied |= k == self.prev && self.last != Some(s);
        }
        let differs = |x: Option<(i64, &str)>| x.is_some_and(|(e, t)| e == k && t != s);
        self.tied |= differs(self.earliest) || differs(self.latest);
        self.first.get_or_insert(s);
        self.last = Some(s);
        self.prev = k;
        if self.earliest.is_none_or(|(e, _)| k < e) {
            self.earliest = Some((k, s));
        }
        if self.latest.is_none_or(|(l, _)| k > l) {
            self.latest = Some((k, s));
        }
        self.read = Some(n + 1);
    }

    /// How many dates were read, when every string was one.
    pub fn count(&self) -> Option<usize> {
        self.read.filter(|&n| n > 0)
    }

    /// The span as a summary states it: `2012-01-01 → 2015-12-31 (sorted
    /// ascending)`, or first → last with the earliest and latest when
    /// the dates are not in order.
    pub fn span(&self) -> Option<String> {
        let (first, last) = (self.first?, self.last?);
        self.count()?;
        if self.tied {
            return None;
        }
        let (e, l) = (self.earliest?.1, self.latest?.1);
        if e == l {
            return None;
        }
        Some(if self.ascending {
            format!("{first} \u{2192} {last} (sorted ascending)")
        } else if self.descending {
            format!("{first} \u{2192} {last} (sorted descending)")
        } else {
            format!("earliest {e}, latest {l} (not sorted: first {first}, last {last})")
        })
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

/// Seconds of `hh:mm` or `hh:mm:ss` (a fraction or zone after it read
/// as nothing).
fn time_of(t: &str) -> Option<i64> {
    let mut parts = t.split(':');
    let h: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.get(..2)?.parse().ok()?;
    let s: i64 = match parts.next() {
        Some(p) => p.get(..2)?.parse().ok()?,
        None => 0,
    };
    (h < 24 && m < 60 && s < 61).then_some(h * 3600 + m * 60 + s)
}

fn key(y: i64, m: i64, d: i64, secs: i64) -> Option<i64> {
    ((1..=12).contains(&m) && (1..=31).contains(&d) && (1000..=2999).contains(&y))
        .then_some(((y * 12 + m) * 31 + d) * 86_400 + secs)
}

/// A date's position in time (a number that orders dates), for ISO dates
/// (`2012-01-01`, `2012-01`, `2012/01/01`, with a time after `T` or a
/// space) and dates with a month's name (`Jan 1 2000`, `1 January 2000`,
/// `Sun Dec 04 04:47:44 2005`, `March 5, 2021`). `None` for anything else.
pub fn date_key(s: &str) -> Option<i64> {
    let s = s.trim();
    if s.len() < 7 || s.len() > 40 {
        return None;
    }
    let b = s.as_bytes();
    if b[..4].iter().all(u8::is_ascii_digit) && (b[4] == b'-' || b[4] == b'/') {
        let (date, time) = match s.find(['T', ' ']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let mut p = date.split(date.as_bytes()[4] as char);
        let y: i64 = p.next()?.parse().ok()?;
        let m = p.next()?;
        let d = p.next();
        if p.next().is_some() || m.len() > 2 || d.is_some_and(|d| d.len() > 2) {
            return None;
        }
        let m: i64 = m.parse().ok()?;
        let d: i64 = d.map_or(Some(1), |d| d.parse().ok())?;
        let secs = match time {
            Some(t) => time_of(t)?,
            None => 0,
        };
        return key(y, m, d, secs);
    }
    let (mut y, mut m, mut d, mut secs) = (None, None, None, 0);
    for w in s.split([' ', ',']).filter(|w| !w.is_empty()) {
        let lower = w.to_ascii_lowercase();
        let word = lower.trim_end_matches('.');
        if word.len() >= 3 && word.bytes().all(|c| c.is_ascii_alphabetic()) {
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
            secs = time_of(w)?;
        } else if w.len() == 4 && w.bytes().all(|c| c.is_ascii_digit()) && y.is_none() {
            y = w.parse().ok();
        } else if w.len() <= 2 && w.bytes().all(|c| c.is_ascii_digit()) && d.is_none() {
            d = w.parse().ok();
        } else {
            return None;
        }
    }
    key(y?, m?, d.unwrap_or(1), secs)
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
        for no in [
            "2012",
            "12/01/2012",
            "Customer 12 2000",
            "2012-13-01",
            "Marching 1 2000",
            "soon",
            "v1.2.3",
        ] {
            assert_eq!(date_key(no), None, "{no}");
        }
    }

    #[test]
    fn fractions_of_one_second_claim_no_span() {
        let mut d = Dates::new();
        for s in [
            "2017-10-20T18:26:06.587026663Z",
            "2017-10-20T18:26:06.587016622Z",
            "2017-10-20T18:27:55.851305996Z",
        ] {
            d.add(s);
        }
        assert_eq!(d.span(), None);
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
