//! Byte-exact reproductions of the Go formatting the reference's output
//! depends on: `encoding/json` string escaping and float64 formatting,
//! `strconv.Quote` for paths in messages, and Go's errno texts.

/// Appends `s` as a JSON string the way Go's `encoding/json` writes it
/// (HTML-escaped, U+2028/U+2029 escaped, invalid UTF-8 as `\ufffd`).
pub fn write_json_str(out: &mut Vec<u8>, s: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < s.len() {
        // Runs of bytes written as they are, one table probe each.
        while i < s.len() && PLAIN[s[i] as usize] {
            i += 1;
        }
        if i == s.len() {
            break;
        }
        let b = s[i];
        if b < 0x80 {
            let esc: Option<&[u8]> = match b {
                b'"' => Some(b"\\\""),
                b'\\' => Some(b"\\\\"),
                b'\n' => Some(b"\\n"),
                b'\r' => Some(b"\\r"),
                b'\t' => Some(b"\\t"),
                0x08 => Some(b"\\b"),
                0x0c => Some(b"\\f"),
                _ => None,
            };
            if let Some(e) = esc {
                out.extend_from_slice(&s[start..i]);
                out.extend_from_slice(e);
                i += 1;
                start = i;
            } else if b < 0x20 || b == b'<' || b == b'>' || b == b'&' {
                out.extend_from_slice(&s[start..i]);
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(b >> 4) as usize]);
                out.push(HEX[(b & 0xf) as usize]);
                i += 1;
                start = i;
            } else {
                i += 1;
            }
            continue;
        }
        let (c, len) = decode_go_rune(&s[i..]);
        if c.is_none() {
            out.extend_from_slice(&s[start..i]);
            out.extend_from_slice(b"\\ufffd");
            i += 1;
            start = i;
            continue;
        }
        let c = c.unwrap_or('\u{FFFD}');
        if c == '\u{2028}' || c == '\u{2029}' {
            out.extend_from_slice(&s[start..i]);
            out.extend_from_slice(if c == '\u{2028}' {
                b"\\u2028"
            } else {
                b"\\u2029"
            });
            i += len;
            start = i;
            continue;
        }
        i += len;
    }
    out.extend_from_slice(&s[start..]);
    out.push(b'"');
}

/// ASCII bytes a Go JSON string holds as they are: printable, and not
/// `"`, `\\`, `<`, `>` or `&` (HTML-safe escaping).
static PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b < 0x80 {
        t[b] = !matches!(b as u8, b'"' | b'\\' | b'<' | b'>' | b'&');
        b += 1;
    }
    t
};

/// JSON string of `s`, Go style.
pub fn json_str(s: &str) -> String {
    let mut v = Vec::with_capacity(s.len() + 2);
    write_json_str(&mut v, s.as_bytes());
    String::from_utf8(v).unwrap_or_default()
}

/// Decodes one rune like Go's `utf8.DecodeRune`: `None` with width 1 for
/// any invalid or truncated sequence.
#[inline]
pub fn decode_go_rune(s: &[u8]) -> (Option<char>, usize) {
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

/// Formats a float64 as Go's `encoding/json` does: shortest round-trip
/// digits, plain notation for 1e-6 <= |x| < 1e21 (and 0), exponent
/// notation otherwise (`1e-7`, `1e+21`).
pub fn go_float(x: f64) -> String {
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

/// Go's `strconv.Quote` for the ASCII-and-printable strings paths usually are.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's text for an OS error: the errno string, lowercase, without Rust's
/// ` (os error N)` suffix.
pub fn go_errno(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(code) => {
            let s = std::io::Error::from_raw_os_error(code).to_string();
            let s = match s.rfind(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            };
            let mut cs = s.chars();
            match cs.next() {
                Some(f) => f.to_lowercase().collect::<String>() + cs.as_str(),
                None => s,
            }
        }
        None => e.to_string(),
    }
}

/// Go's `*PathError` text: `op path: errno`.
pub fn go_path_error(op: &str, path: &std::path::Path, e: &std::io::Error) -> String {
    format!("{op} {}: {}", path.display(), go_errno(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_like_go() {
        assert_eq!(go_float(0.0), "0");
        assert_eq!(go_float(1.0), "1");
        assert_eq!(go_float(0.5), "0.5");
        assert_eq!(go_float(0.000002), "0.000002");
        assert_eq!(go_float(1e-7), "1e-7");
        assert_eq!(go_float(9.5e-7), "9.5e-7");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(go_float(0.9320943531093638), "0.9320943531093638");
    }

    #[test]
    fn json_strings_like_go() {
        assert_eq!(json_str("<&>"), "\"\\u003c\\u0026\\u003e\"");
        assert_eq!(json_str("a\u{2028}b"), "\"a\\u2028b\"");
        assert_eq!(json_str("\u{1}\n"), "\"\\u0001\\n\"");
        let mut v = Vec::new();
        write_json_str(&mut v, b"a\xffb");
        assert_eq!(v, b"\"a\\ufffdb\"");
    }
}
