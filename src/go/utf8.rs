//! Bytes to text the way Go converts them (`[]rune(string(b))`): each byte
//! that is not part of a well-formed UTF-8 sequence becomes one U+FFFD.
//! Rust's `from_utf8_lossy` replaces a maximal bad subpart by one U+FFFD
//! instead, which gives other token counts and other regex matches.

use std::borrow::Cow;

/// Text as the reference sees it: valid UTF-8 borrowed, otherwise each bad
/// byte replaced by one U+FFFD (Go's `[]rune` conversion, not Rust's
/// maximal-subpart rule).
pub fn go_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(e) => Cow::Owned(go_lossy_owned(bytes, e.valid_up_to())),
    }
}

/// [`go_lossy`] of bytes whose first `valid` bytes are valid UTF-8 and
/// the next are not (as `from_utf8` found them): the prefix is copied, not
/// decoded again.
pub(crate) fn go_lossy_owned(bytes: &[u8], valid: usize) -> String {
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    out.push_str(std::str::from_utf8(&bytes[..valid]).unwrap_or_default());
    let n = bytes.len();
    let mut i = valid;
    while i < n {
        if bytes[i] < 0x80 {
            let start = i;
            while i < n && bytes[i] < 0x80 {
                i += 1;
            }
            if i - start < 16 {
                // Short runs (random bytes: two on average) are cheaper
                // pushed one by one than checked and copied as a slice.
                out.extend(bytes[start..i].iter().map(|&b| b as char));
            } else {
                out.push_str(std::str::from_utf8(&bytes[start..i]).unwrap_or_default());
            }
            continue;
        }
        // One character if the sequence at `i` is well formed (Go's
        // DecodeRune and Rust agree on that), else one U+FFFD for this byte.
        match decode_at(bytes, i) {
            Some((c, width)) => {
                out.push(c);
                i += width;
            }
            None => {
                out.push('\u{FFFD}');
                i += 1;
            }
        }
    }
    out
}

/// The character encoded at `bytes[i]` (a byte of 0x80 or more) and its
/// width, if the sequence there is well formed UTF-8: the lead byte's range
/// and the first continuation's range (no overlong forms, no surrogates,
/// nothing past U+10FFFF) as in RFC 3629's table.
#[inline]
pub(crate) fn decode_at(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    let b = bytes[i];
    let (width, lo, hi, init) = match b {
        0xC2..=0xDF => (2, 0x80, 0xBF, b as u32 & 0x1F),
        0xE0 => (3, 0xA0, 0xBF, 0),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF, b as u32 & 0x0F),
        0xED => (3, 0x80, 0x9F, 0x0D),
        0xF0 => (4, 0x90, 0xBF, 0),
        0xF1..=0xF3 => (4, 0x80, 0xBF, b as u32 & 0x07),
        0xF4 => (4, 0x80, 0x8F, 4),
        _ => return None,
    };
    let seq = bytes.get(i + 1..i + width)?;
    if !(lo..=hi).contains(&seq[0]) || seq[1..].iter().any(|&c| c & 0xC0 != 0x80) {
        return None;
    }
    let cp = seq.iter().fold(init, |cp, &c| cp << 6 | (c as u32 & 0x3F));
    char::from_u32(cp).map(|c| (c, width))
}

/// Decodes one rune like Go's `utf8.DecodeRune`: `None` with width 1 for
/// any invalid or truncated sequence.
#[inline]
pub fn decode_rune(s: &[u8]) -> (Option<char>, usize) {
    let b0 = s[0];
    if b0 < 0x80 {
        return (Some(b0 as char), 1);
    }
    let len = match b0 {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return (None, 1),
    };
    if s.len() < len {
        return (None, 1);
    }
    match std::str::from_utf8(&s[..len]) {
        Ok(t) => (t.chars().next(), len),
        Err(_) => (None, 1),
    }
}
