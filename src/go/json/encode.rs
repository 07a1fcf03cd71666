//! Output written exactly as Go's `json.Marshal` writes it: compact or
//! two-space indented, keys sorted, HTML-safe string escaping.

use super::tape::*;

/// Writes `v` as Go's `json.Marshal` would (compact, sorted keys, HTML-safe).
pub fn write(out: &mut Vec<u8>, v: Json<'_>) {
    write_node(out, v.tape, v.i as usize);
}

/// Writes the subtree at node `i`.
fn write_node(out: &mut Vec<u8>, t: &Tape<'_>, i: usize) {
    let n = t.nodes[i];
    match n.tag() {
        NULL => out.extend_from_slice(b"null"),
        BOOL if n.len() == 1 => out.extend_from_slice(b"true"),
        BOOL => out.extend_from_slice(b"false"),
        NUMBER => out.extend_from_slice(span(t.src, &t.decoded, n)),
        PLAIN | DECODED => write_json_str(out, span(t.src, &t.decoded, n)),
        ARRAY => {
            out.push(b'[');
            let mut j = i + 1;
            for k in 0..n.len() {
                if k > 0 {
                    out.push(b',');
                }
                write_node(out, t, j);
                j += t.nodes[j].size();
            }
            out.push(b']');
        }
        _ => {
            out.push(b'{');
            for (m, k) in t.keys(i).enumerate() {
                if m > 0 {
                    out.push(b',');
                }
                write_json_str(out, span(t.src, &t.decoded, t.nodes[k]));
                out.push(b':');
                write_node(out, t, k + 1);
            }
            out.push(b'}');
        }
    }
}

/// `write` into a new buffer.
pub fn to_vec(v: Json<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    write(&mut out, v);
    out
}

/// Writes `v` indented by two spaces per level (Go `json.MarshalIndent(v, "", "  ")`),
/// with an initial indent prefix level.
pub fn write_indented(out: &mut Vec<u8>, v: Json<'_>, level: usize) {
    let nl = |out: &mut Vec<u8>, l: usize| {
        out.push(b'\n');
        for _ in 0..l {
            out.extend_from_slice(b"  ");
        }
    };
    match v.get() {
        Value::Array(items) if !items.is_empty() => {
            out.push(b'[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                nl(out, level + 1);
                write_indented(out, it, level + 1);
            }
            nl(out, level);
            out.push(b']');
        }
        Value::Object(members) if !members.is_empty() => {
            out.push(b'{');
            for (i, (k, val)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                nl(out, level + 1);
                write_json_str(out, k.as_bytes());
                out.extend_from_slice(b": ");
                write_indented(out, val, level + 1);
            }
            nl(out, level);
            out.push(b'}');
        }
        _ => write(out, v),
    }
}

/// Appends `s` as a JSON string the way Go's `encoding/json` writes it
/// (HTML-escaped, U+2028/U+2029 escaped, invalid UTF-8 as `\ufffd`).
pub fn write_json_str(out: &mut Vec<u8>, s: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < s.len() {
        // Runs of bytes written as they are, one table probe each.
        while i < s.len() && PLAIN_BYTES[s[i] as usize] {
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
        let (c, len) = crate::go::utf8::decode_rune(&s[i..]);
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
static PLAIN_BYTES: [bool; 256] = {
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
