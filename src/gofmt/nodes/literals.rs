//! Literal spelling: gofmt's number normalization, import path
//! sanitizing, and `strconv.Unquote`.

use super::*;
use crate::go::unicode::is_graphic;

pub(super) fn normalized_number(kind: Token, value: &str) -> Option<String> {
    if !matches!(kind, Token::Int | Token::Float | Token::Imag) || value.len() < 2 {
        return None;
    }
    let x = value;
    let out = match &x[..2] {
        "0X" => {
            let mut s = format!("0x{}", &x[2..]);
            if let Some(i) = s.rfind('P') {
                s.replace_range(i..i + 1, "p");
            }
            s
        }
        "0x" => {
            let i = x.rfind('P')?;
            format!("{}p{}", &x[..i], &x[i + 1..])
        }
        "0O" => format!("0o{}", &x[2..]),
        "0o" => return None,
        "0B" => format!("0b{}", &x[2..]),
        "0b" => return None,
        _ => {
            if let Some(i) = x.rfind('E') {
                format!("{}e{}", &x[..i], &x[i + 1..])
            } else if x.ends_with('i') && !x.contains(['.', 'e']) {
                let t = x.trim_start_matches(['0', '_']);
                if t == "i" {
                    "0i".to_string()
                } else {
                    t.to_string()
                }
            } else {
                return None;
            }
        }
    };
    Some(out)
}

/// Go's `sanitizeImportPath`: an import path re-quoted in its canonical
/// form when it holds only graphic, non-space, legal characters.
pub(super) fn sanitize_import_path(value: &str) -> Option<String> {
    // Invalid UTF-8 would range as U+FFFD, an illegal character.
    let s = String::from_utf8(unquote(value)?).ok()?;
    if s.is_empty() {
        return None;
    }
    const ILLEGAL: &str = "!\"#$%&'()*,:;<=>?[\\]^{|}`\u{FFFD}";
    for c in s.chars() {
        if !is_graphic(c) || c.is_whitespace() || ILLEGAL.contains(c) {
            return None;
        }
    }
    let q = crate::go::strconv::quote(&s);
    (q != value).then_some(q)
}

/// Go's `strconv.Unquote` for the string literals the parser accepted,
/// as bytes: `\x` and octal escapes may make them invalid UTF-8.
pub(in crate::gofmt) fn unquote(v: &str) -> Option<Vec<u8>> {
    let b = v.as_bytes();
    if b.len() < 2 {
        return None;
    }
    if b[0] == b'`' && b[b.len() - 1] == b'`' {
        let inner = &v[1..v.len() - 1];
        if inner.contains('`') {
            return None;
        }
        return Some(inner.replace('\r', "").into_bytes());
    }
    if b[0] != b'"' || b[b.len() - 1] != b'"' {
        return None;
    }
    let inner = &v[1..v.len() - 1];
    if !inner.contains('\\') {
        return (!inner.contains('"') && !inner.contains('\n')).then(|| inner.as_bytes().to_vec());
    }
    let mut out: Vec<u8> = Vec::with_capacity(inner.len());
    let ib = inner.as_bytes();
    let mut i = 0;
    while i < ib.len() {
        let c = ib[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let e = *ib.get(i)?;
        i += 1;
        match e {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'\\' => out.push(b'\\'),
            b'"' => out.push(b'"'),
            b'\'' => return None,
            b'0'..=b'7' => {
                let d = std::str::from_utf8(ib.get(i - 1..i + 2)?).ok()?;
                out.push(u8::from_str_radix(d, 8).ok()?);
                i += 2;
            }
            b'x' => {
                let d = std::str::from_utf8(ib.get(i..i + 2)?).ok()?;
                out.push(u8::from_str_radix(d, 16).ok()?);
                i += 2;
            }
            b'u' | b'U' => {
                let n = if e == b'u' { 4 } else { 8 };
                let d = std::str::from_utf8(ib.get(i..i + n)?).ok()?;
                let c = char::from_u32(u32::from_str_radix(d, 16).ok()?)?;
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i += n;
            }
            _ => return None,
        }
    }
    Some(out)
}
