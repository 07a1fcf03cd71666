//! Go `strconv.ParseFloat(s, 64)` acceptance and value (invariants.md §9):
//! underscores between digits, hex floats with a `p` exponent, `inf`/`nan`
//! words, and overflow as an error (unlike Rust's `f64::from_str`).

/// Go `underscoreOK`: underscores only between digits (a base prefix counts).
fn underscore_ok(s: &[u8]) -> bool {
    let mut saw = b'^';
    let mut i = 0;
    if !s.is_empty() && (s[0] == b'+' || s[0] == b'-') {
        i = 1;
    }
    let mut hex = false;
    if s.len() >= i + 2 && s[i] == b'0' && matches!(s[i + 1] | 0x20, b'b' | b'o' | b'x') {
        hex = s[i + 1] | 0x20 == b'x';
        i += 2;
        saw = b'0';
    }
    while i < s.len() {
        let c = s[i];
        if c.is_ascii_digit() || (hex && (c | 0x20).is_ascii_hexdigit() && c.is_ascii_alphabetic())
        {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

/// Parses like Go's `ParseFloat(s, 64)`; `None` on any error.
pub fn parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let first = *b.first()?;
    // Fast rejection: every accepted form starts with a sign, a digit, `.`,
    // or the `i`/`n` of inf/infinity/nan.
    if !(first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'.' | b'i' | b'I' | b'n' | b'N'))
    {
        return None;
    }
    let (neg, body) = match first {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        return Some(if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if body.eq_ignore_ascii_case("nan") {
        return if body.len() == s.len() {
            Some(f64::NAN)
        } else {
            None
        };
    }
    let v = if body.contains('_') {
        if !underscore_ok(b) {
            return None;
        }
        let clean: String = body.chars().filter(|&c| c != '_').collect();
        parse_unsigned(&clean)?
    } else {
        parse_unsigned(body)?
    };
    Some(if neg { -v } else { v })
}

fn parse_unsigned(clean: &str) -> Option<f64> {
    if clean.len() > 2 && (clean.starts_with("0x") || clean.starts_with("0X")) {
        parse_hex(&clean[2..])
    } else {
        parse_dec(clean)
    }
}

fn parse_dec(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    // Plain integers of at most 15 digits are exact in an f64: no need for
    // the general parser (most numeric cells and leaves are such).
    if !b.is_empty() && b.len() <= 15 && b.iter().all(u8::is_ascii_digit) {
        let n = b.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
        return Some(n as f64);
    }
    let mut i = 0;
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let e0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let v: f64 = s.parse().ok()?;
    if v.is_infinite() {
        return None;
    }
    Some(v)
}

fn parse_hex(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut mant = 0f64;
    let mut digits = 0;
    let mut exp: i64 = 0;
    let mut seen_dot = false;
    while i < b.len() {
        let c = b[i];
        if c == b'.' && !seen_dot {
            seen_dot = true;
        } else if let Some(d) = (c as char).to_digit(16) {
            mant = mant * 16.0 + d as f64;
            digits += 1;
            if seen_dot {
                exp -= 4;
            }
        } else {
            break;
        }
        i += 1;
    }
    if digits == 0 || i >= b.len() || (b[i] | 0x20) != b'p' {
        return None;
    }
    i += 1;
    let e: i64 = s.get(i..)?.parse().ok()?;
    let v = mant * 2f64.powi((exp + e).clamp(-2000, 2000) as i32);
    if v.is_infinite() {
        return None;
    }
    Some(v)
}

/// Formats a float64 as Go's `encoding/json` does: shortest round-trip
/// digits, plain notation for 1e-6 <= |x| < 1e21 (and 0), exponent
/// notation otherwise (`1e-7`, `1e+21`).
pub fn format_float(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let a = x.abs();
    if (1e-6..1e21).contains(&a) {
        return format!("{x}");
    }
    // Rust's `{:e}` gives the same shortest digits as `1.5e-7` / `1e21`.
    let s = format!("{x:e}");
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => s,
    }
}

/// Go's `strconv.Quote`: `"` and `\\` escaped, the C escapes for the
/// controls that have one, `\xNN` for other ASCII controls, `\uNNNN` or
/// `\UNNNNNNNN` for every other rune that is not printable (Go's
/// `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the
/// ASCII space; so U+00A0 and U+200B are escaped), printable runes as
/// they are.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if crate::go::unicode::is_print(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.ParseInt(s, 10, 64)`.
pub fn parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok()
}

#[cfg(test)]
mod tests {
    use super::{parse_float, parse_int, quote};

    #[test]
    fn go_grammar() {
        for (s, v) in [
            ("5.", 5.0),
            (".5", 0.5),
            ("00012", 12.0),
            ("1E+2", 100.0),
            ("1_000", 1000.0),
            ("1e1_0", 1e10),
            ("0x1p3", 8.0),
            ("0x_1p3", 8.0),
            ("-inf", f64::NEG_INFINITY),
            ("+Infinity", f64::INFINITY),
        ] {
            assert_eq!(parse_float(s), Some(v), "{s}");
        }
        assert!(parse_float("NaN").unwrap().is_nan());
        for s in [
            "1,000",
            "0b101",
            "0o7",
            "+NaN",
            "-nan",
            "1e",
            ".",
            "_1",
            "1_",
            "1__0",
            "1_.5",
            "0x10",
            "1e400",
            "1.7976931348623159e308",
            " 1",
            "١",
        ] {
            assert_eq!(parse_float(s), None, "{s}");
        }
        assert_eq!(parse_float("1e-400"), Some(0.0));
    }

    #[test]
    fn integer_fast_path_is_exact() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 1..=17 {
            for _ in 0..200 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let digits: String = format!("{:020}", x >> 1)[20 - len..].to_string();
                let want: f64 = digits.parse().unwrap();
                assert_eq!(parse_float(&digits), Some(want), "{digits}");
                assert_eq!(parse_float(&format!("-{digits}")), Some(-want), "-{digits}");
            }
        }
    }

    #[test]
    fn floats_like_go() {
        assert_eq!(super::format_float(0.0), "0");
        assert_eq!(super::format_float(1.0), "1");
        assert_eq!(super::format_float(0.5), "0.5");
        assert_eq!(super::format_float(0.000002), "0.000002");
        assert_eq!(super::format_float(1e-7), "1e-7");
        assert_eq!(super::format_float(9.5e-7), "9.5e-7");
        assert_eq!(super::format_float(1e21), "1e+21");
        assert_eq!(
            super::format_float(0.9320943531093638),
            "0.9320943531093638"
        );
    }

    #[test]
    fn go_ints() {
        assert_eq!(parse_int("+5"), Some(5));
        assert_eq!(parse_int("-5"), Some(-5));
        assert_eq!(parse_int("1_0"), None);
        assert_eq!(parse_int(""), None);
        assert_eq!(parse_int("99999999999999999999"), None);
    }

    #[test]
    fn quote_like_go() {
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("\u{7}\n\u{1}\u{7f}"), r#""\a\n\x01\x7f""#);
        assert_eq!(quote("é 日 \u{a0}\u{200b}"), r#""é 日 \u00a0\u200b""#);
        assert_eq!(quote("\u{e0001}😀"), r#""\U000e0001😀""#);
    }
}
