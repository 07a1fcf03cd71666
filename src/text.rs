//! Byte-level text helpers with Go semantics: `unicode.IsSpace` trimming over
//! possibly invalid UTF-8 (an invalid byte is U+FFFD, never a space).

use crate::gofmt::decode_go_rune;
use crate::tokens::is_unicode_space;

/// Length of the whitespace character at the start of `s`, or 0.
#[inline]
fn space_len_at(s: &[u8]) -> usize {
    match decode_go_rune(s) {
        (Some(c), l) if is_unicode_space(c) => l,
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
        return usize::from(is_unicode_space(s[n - 1] as char));
    }
    // Multi-byte spaces are 2 or 3 bytes long.
    for l in [2usize, 3] {
        if n >= l {
            if let (Some(c), w) = decode_go_rune(&s[n - l..]) {
                if w == l && is_unicode_space(c) {
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

/// Go `strings.TrimSpace` for `&str`.
pub fn trim_str(s: &str) -> &str {
    // Every space Go trims starts with an ASCII whitespace byte or a
    // non-ASCII lead byte: a value framed by other ASCII bytes is as is.
    let framed = |b: u8| b.is_ascii() && !b.is_ascii_whitespace() && b != 0x0b;
    match s.as_bytes() {
        [a, .., z] if framed(*a) && framed(*z) => s,
        [a] if framed(*a) => s,
        _ => s.trim_matches(is_unicode_space),
    }
}

/// ASCII word character, as RE2's `\w` (`[0-9A-Za-z_]`).
#[inline]
pub const fn is_ascii_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The maximal runs of ASCII word characters: exactly the spans `\b…\b`
/// can match whole under RE2's ASCII word boundaries.
pub fn ascii_words(b: &[u8]) -> impl Iterator<Item = &[u8]> {
    b.split(|&c| !is_ascii_word(c)).filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
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
            assert_eq!(trim_str(s), want, "{s:?}");
        }
    }
}
