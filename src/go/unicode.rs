//! Go's `unicode` package as the reference uses it: `IsSpace` trimming over
//! possibly invalid UTF-8 (an invalid byte is U+FFFD, never a space; on
//! valid text `unicode.IsSpace` is exactly `char::is_whitespace`, so
//! `strings.TrimSpace` is `str::trim`), the simple one-rune lower-case
//! mapping, simple case folding onto ASCII letters (what `(?i)` and
//! `strings.EqualFold` do with the reference's ASCII patterns), and the
//! general categories the tokenizers test.

use unicode_general_category::{get_general_category, GeneralCategory as G};

use super::utf8::decode_rune;

/// Length of the whitespace character at the start of `s`, or 0.
#[inline]
fn space_len_at(s: &[u8]) -> usize {
    match decode_rune(s) {
        (Some(c), l) if c.is_whitespace() => l,
        _ => 0,
    }
}

/// Length of the whitespace character ending at `s.len()`, or 0.
#[inline]
fn space_len_before(s: &[u8]) -> usize {
    let n = s.len();
    if n == 0 {
        return 0;
    }
    if s[n - 1] < 0x80 {
        return usize::from((s[n - 1] as char).is_whitespace());
    }
    // Multi-byte spaces are 2 or 3 bytes long.
    for l in [2usize, 3] {
        if n >= l {
            if let (Some(c), w) = decode_rune(&s[n - l..]) {
                if w == l && c.is_whitespace() {
                    return l;
                }
            }
        }
    }
    0
}

/// Number of leading whitespace bytes.
pub fn leading_space(s: &[u8]) -> usize {
    let mut i = 0;
    while i < s.len() {
        let l = space_len_at(&s[i..]);
        if l == 0 {
            break;
        }
        i += l;
    }
    i
}

/// Number of trailing whitespace bytes (never overlapping `from`).
pub fn trailing_space(s: &[u8], from: usize) -> usize {
    let mut e = s.len();
    while e > from {
        let l = space_len_before(&s[from..e]);
        if l == 0 {
            break;
        }
        e -= l;
    }
    s.len() - e
}

/// Go `bytes.TrimSpace`.
pub fn trim_space(s: &[u8]) -> &[u8] {
    let a = leading_space(s);
    let b = trailing_space(s, a);
    &s[a..s.len() - b]
}

/// True when `s` is empty or only whitespace.
pub fn is_blank(s: &[u8]) -> bool {
    leading_space(s) == s.len()
}

/// Go `unicode.ToLower` of one rune: the simple mapping (one rune to one
/// rune, no context). Rust's `char::to_lowercase` differs where the full
/// mapping is longer (`İ` U+0130 lowers to `i` here) and `str::to_lowercase`
/// applies the final-sigma rule.
#[inline]
pub fn simple_lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    if c == '\u{130}' {
        return 'i';
    }
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

/// `s` with [`simple_lower`] applied to every rune.
pub fn lower(s: &str) -> String {
    s.chars().map(simple_lower).collect()
}

/// `s` starts with `prefix` (ASCII lowercase) once lowered rune by rune
/// (`strings.HasPrefix(strings.ToLower(s), prefix)` without the copy).
pub fn starts_with_lower(s: &str, prefix: &str) -> bool {
    let mut it = s.chars().map(simple_lower);
    prefix.chars().all(|p| it.next() == Some(p))
}

/// `s` lowered rune by rune contains `needle` (ASCII lowercase): the
/// `strings.Contains(strings.ToLower(s), needle)` the reference runs, with
/// no copy unless `s` holds one of the two non-ASCII runes that lower to an
/// ASCII letter (`İ` U+0130 to `i`, the Kelvin sign U+212A to `k`).
pub fn contains_lower(s: &str, needle: &str) -> bool {
    let (n, b) = (needle.as_bytes(), s.as_bytes());
    if n.is_empty() {
        return true;
    }
    if !s.contains(['\u{130}', '\u{212A}']) {
        let first = n[0];
        let alt = first.to_ascii_uppercase();
        return memchr::memchr2_iter(first, alt, b).any(|i| {
            b.get(i..i + n.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(n))
        });
    }
    lower(s).contains(needle)
}

/// The ASCII lowercase letter `c` is equivalent to under Go's simple case
/// folding, if any: ASCII letters, `ſ` (U+017F, folds with `s`) and the
/// Kelvin sign (U+212A, folds with `k`). Every other rune is returned as it
/// is: it can never equal an ASCII letter under `(?i)` or `EqualFold`.
#[inline]
pub fn fold(c: char) -> char {
    match c {
        '\u{17F}' => 's',
        '\u{212A}' => 'k',
        c => c.to_ascii_lowercase(),
    }
}

/// `s` with [`fold`] applied to every rune: comparable with an ASCII
/// lowercase pattern as Go's `(?i)` compares it.
pub fn fold_str(s: &str) -> String {
    s.chars().map(fold).collect()
}

/// Go `strings.EqualFold(s, ascii)` for an ASCII lowercase `ascii`.
pub fn equal_fold_ascii(s: &str, ascii: &str) -> bool {
    let mut it = s.chars().map(fold);
    ascii.chars().all(|a| it.next() == Some(a)) && it.next().is_none()
}

/// Unicode general category L (letters: Lu, Ll, Lt, Lm, Lo), as Go's
/// `unicode.IsLetter`. Not `char::is_alphabetic`, which adds Nl and marks.
#[inline]
pub fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
    )
}

/// Unicode general category Nd (decimal digits), as Go's `unicode.IsDigit`.
/// Not `char::is_numeric`, which adds Nl and No.
#[inline]
pub fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    get_general_category(c) == G::DecimalNumber
}

/// Unicode category N (any number: Nd, Nl, No), as Go's `unicode.IsNumber`.
#[inline]
pub fn is_number(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    matches!(
        get_general_category(c),
        G::DecimalNumber | G::LetterNumber | G::OtherNumber
    )
}

/// Go's `unicode.IsGraphic`: categories L, M, N, P, S and Zs.
pub fn is_graphic(c: char) -> bool {
    is_print(c) || get_general_category(c) == G::SpaceSeparator
}

/// Go's `unicode.IsPrint`: categories L, M, N, P, S and the ASCII space.
pub fn is_print(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    !matches!(
        get_general_category(c),
        G::SpaceSeparator
            | G::LineSeparator
            | G::ParagraphSeparator
            | G::Control
            | G::Format
            | G::Surrogate
            | G::PrivateUse
            | G::Unassigned
    )
}

/// Unicode category Lu, as Go's `unicode.IsUpper`.
#[inline]
pub fn is_upper(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_uppercase();
    }
    get_general_category(c) == G::UppercaseLetter
}

#[cfg(test)]
mod tests {
    /// `IsGraphic` is `IsPrint` plus the non-ASCII space separators.
    #[test]
    fn graphic_is_print_and_zs() {
        for c in [' ', 'a', '~', 'é', '中', '\u{0301}', '€'] {
            assert!(super::is_graphic(c) && super::is_print(c), "{c:?}");
        }
        for c in ['\u{a0}', '\u{2000}', '\u{3000}'] {
            assert!(super::is_graphic(c) && !super::is_print(c), "{c:?}");
        }
        for c in [
            '\t', '\n', '\u{7f}', '\u{85}', '\u{2028}', '\u{200b}', '\u{e000}',
        ] {
            assert!(!super::is_graphic(c), "{c:?}");
        }
    }

    use super::*;

    #[test]
    fn trims_unicode_space_only() {
        assert_eq!(trim_space(b" \t a b \n"), b"a b");
        assert_eq!(trim_space("\u{3000}x\u{a0}".as_bytes()), b"x");
        assert_eq!(trim_space(b"\xef\xbb\xbfx "), b"\xef\xbb\xbfx");
        assert_eq!(trim_space(b"\xff "), b"\xff");
        assert!(is_blank(b" \r\n"));
        assert!(!is_blank(b" \xa0"));
        for (s, want) in [
            ("x", "x"),
            ("ab", "ab"),
            (" x", "x"),
            ("x\x0b", "x"),
            ("\x0bx", "x"),
            ("x\u{85}", "x"),
            ("\u{3000}x", "x"),
            ("é", "é"),
            ("\x0c", ""),
            ("", ""),
        ] {
            assert_eq!(s.trim(), want, "str::trim is Go TrimSpace: {s:?}");
        }
    }

    #[test]
    fn lowering_and_folding_like_go() {
        assert_eq!(simple_lower('\u{130}'), 'i');
        assert_eq!(simple_lower('Σ'), 'σ');
        assert_eq!(simple_lower('ǅ'), 'ǆ');
        assert_eq!(lower("ΟΔΟΣ"), "οδοσ");
        assert_eq!(fold_str("ſtack"), "stack");
        assert_eq!(fold_str("TRACE\u{212A}"), "tracek");
        assert_eq!(fold_str("Éx"), "Éx");
        assert!(equal_fold_ascii("BEST-OF", "best-of"));
        assert!(equal_fold_ascii("be\u{17F}t-of", "best-of"));
        assert!(!equal_fold_ascii("best-of ", "best-of"));
        assert!(!equal_fold_ascii("best-o", "best-of"));
        assert!(contains_lower("x<BODY y", "<body"));
        assert!(contains_lower("\u{212A}EY", "key") && !contains_lower("KE", "key"));
        assert!(starts_with_lower("<!DOCTYPE HTML>", "<!doctype html"));
    }

    #[test]
    fn categories_like_go() {
        assert!(is_letter('ʰ') && !is_letter('\u{301}') && !is_letter('Ⅷ'));
        assert!(is_decimal('٣') && !is_decimal('½') && !is_decimal('Ⅷ'));
        assert!(is_number('½') && is_number('Ⅷ'));
        assert!(is_upper('É') && !is_upper('ǅ'));
    }
}
