//! Decoding requests as Go's `encoding/json` decodes them into structs
//! (spec/mcp.md §3.2): the whole line one valid value (depth 10,000),
//! member names matched exactly or by Unicode simple folding, the last
//! duplicate winning, a `null` leaving a string field alone, a wrongly
//! typed member failing the whole decode, strings with U+FFFD for invalid
//! UTF-8 and lone surrogates, raw members kept as their bytes. And writing
//! answers: ids echoed compacted as Go compacts a `json.RawMessage`.

use crate::go::json::raw::member_values;
use crate::go::json::{self as gojson, Keys, Options, Value};
use crate::go::unicode::equal_fold_ascii;

/// A decoded struct: per field, a string or a raw value.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Fields<'a> {
    pub strings: Vec<String>,
    pub raws: Vec<Option<&'a [u8]>>,
}

/// The request does not decode into the struct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undecodable;

/// Go's struct decoding of `raw` (one JSON value) into `string_fields`
/// (Go `string`) and `raw_fields` (`json.RawMessage`): top-level `null`
/// leaves everything zero; an object fills the fields; anything else
/// fails.
pub fn decode<'a>(
    raw: &'a [u8],
    string_fields: &[&str],
    raw_fields: &[&str],
) -> Result<Fields<'a>, Undecodable> {
    let opts = Options {
        keys: Keys::InputOrder,
        max_depth: gojson::MAX_DEPTH,
    };
    let tape = gojson::decode_exact(raw, opts).map_err(|_| Undecodable)?;
    let mut out = Fields {
        strings: vec![String::new(); string_fields.len()],
        raws: vec![None; raw_fields.len()],
    };
    let members = match tape.root().get() {
        Value::Null => return Ok(out),
        Value::Object(m) => m,
        _ => return Err(Undecodable),
    };
    let spans = member_values(raw);
    let matches = |key: &str, name: &str| key == name || equal_fold_ascii(key, name);
    for ((key, value), span) in members.iter().zip(spans) {
        if let Some(k) = string_fields.iter().position(|f| matches(key, f)) {
            match value.get() {
                Value::String(s) => out.strings[k] = s.to_string(),
                // Go: null has no effect on a string.
                Value::Null => {}
                _ => return Err(Undecodable),
            }
        } else if let Some(k) = raw_fields.iter().position(|f| matches(key, f)) {
            out.raws[k] = Some(span);
        }
    }
    Ok(out)
}

/// Whether a raw id means "no id": absent, or `null`.
pub fn is_null(raw: Option<&[u8]>) -> bool {
    raw.is_none_or(|r| crate::go::unicode::trim_space(r) == b"null")
}

/// Appends a raw JSON value compacted as Go writes a `json.RawMessage`:
/// whitespace outside strings removed, numbers and escapes as written,
/// `<`, `>`, `&`, U+2028 and U+2029 escaped in strings, other bytes
/// (invalid UTF-8 included) copied.
pub fn write_compact(out: &mut Vec<u8>, raw: &[u8]) {
    let mut in_string = false;
    let mut i = 0;
    while i < raw.len() {
        let c = raw[i];
        if in_string {
            match c {
                b'\\' => {
                    out.push(c);
                    if let Some(&n) = raw.get(i + 1) {
                        out.push(n);
                    }
                    i += 2;
                    continue;
                }
                b'"' => in_string = false,
                b'<' | b'>' | b'&' => {
                    out.extend_from_slice(format!("\\u00{:02x}", c).as_bytes());
                    i += 1;
                    continue;
                }
                0xE2 if raw.get(i + 1) == Some(&0x80)
                    && matches!(raw.get(i + 2), Some(0xA8 | 0xA9)) =>
                {
                    out.extend_from_slice(if raw[i + 2] == 0xA8 {
                        b"\\u2028"
                    } else {
                        b"\\u2029"
                    });
                    i += 3;
                    continue;
                }
                _ => {}
            }
            out.push(c);
        } else {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b'"' => {
                    in_string = true;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_struct_decoding() {
        let f = decode(
            br#"{"ID":9,"METHOD":"p\u0069ng","method":null}"#,
            &["jsonrpc", "method"],
            &["id", "params"],
        )
        .unwrap();
        assert_eq!(f.strings, vec!["".to_string(), "ping".to_string()]);
        assert_eq!(f.raws[0], Some(&b"9"[..]));
        assert_eq!(f.raws[1], None);
        let f = decode(br#"{"input":"a: 1","INPUT":"b: 2"}"#, &["input"], &[]).unwrap();
        assert_eq!(f.strings[0], "b: 2");
        let f = decode(
            "{\"argument\u{17F}\":{\"x\" : [1, 2]}}".as_bytes(),
            &[],
            &["arguments"],
        )
        .unwrap();
        assert_eq!(f.raws[0], Some(&br#"{"x" : [1, 2]}"#[..]));
        assert_eq!(decode(b"null", &["a"], &[]).unwrap().strings[0], "");
        assert_eq!(
            decode(br#"{"method":5}"#, &["method"], &[]),
            Err(Undecodable)
        );
        assert_eq!(decode(b"5", &["method"], &[]), Err(Undecodable));
        assert_eq!(decode(br#"{"a":1} x"#, &["a"], &[]), Err(Undecodable));
        let f = decode(b"{\"m\":\"a\xffb\\ud800\"}", &["m"], &[]).unwrap();
        assert_eq!(f.strings[0], "a\u{FFFD}b\u{FFFD}");
    }

    #[test]
    fn ids_compact_as_go() {
        let mut out = Vec::new();
        write_compact(
            &mut out,
            b" { \"x\" : [1, 2] , \"<&>\":\"\\u00e9 \xe2\x80\xa8\" } ",
        );
        assert_eq!(
            out,
            b"{\"x\":[1,2],\"\\u003c\\u0026\\u003e\":\"\\u00e9 \\u2028\"}".to_vec()
        );
        out.clear();
        write_compact(&mut out, b"1.50");
        assert_eq!(out, b"1.50");
        assert!(is_null(Some(b" null ")));
        assert!(is_null(None));
        assert!(!is_null(Some(b"\"\"")));
    }
}
