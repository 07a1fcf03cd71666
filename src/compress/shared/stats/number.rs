//! Numbers as summaries read them, and compared exactly: two literals
//! that round to the same float (integers beyond 2^53, long decimals) are
//! told apart by their digits.

use std::cmp::Ordering;

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
pub fn cmp_number(a: &str, b: &str) -> Option<Ordering> {
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
    fn numbers_with_group_commas() {
        assert_eq!(number("1,234.5"), Some(1234.5));
        assert_eq!(number("abc"), None);
        assert_eq!(number("inf"), None);
        assert_eq!(number("-3e2"), Some(-300.0));
    }

    #[test]
    fn literals_are_ordered_exactly() {
        assert_eq!(
            cmp_number("1700000000000000000", "1700000000000000001"),
            Some(Ordering::Less)
        );
        assert_eq!(cmp_number("0.10", "1e-1"), Some(Ordering::Equal));
        assert_eq!(cmp_number("-0", "0"), Some(Ordering::Equal));
        assert_eq!(cmp_number("-2.5", "-2.45"), Some(Ordering::Less));
        assert_eq!(cmp_number("12", "9.99"), Some(Ordering::Greater));
        assert_eq!(cmp_number("1,000", "999"), Some(Ordering::Greater));
        assert_eq!(cmp_number("abc", "1"), None);
    }
}
