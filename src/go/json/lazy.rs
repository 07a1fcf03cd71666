//! A JSON text already checked valid ([`super::scan::check_valid`]), read on
//! demand: no tree is built, a container's members are walked from its
//! text each time they are asked for, and a string is decoded only when
//! its value is needed. What `json.RawMessage` gives Go code: a value that
//! is still its own bytes, so that it can be decoded into different shapes,
//! compacted or indented as written (`json.Compact`, `json.Indent`), or
//! re-encoded as `json.Marshal` writes a decoded `any`.
//!
//! Memory is the text itself plus the strings a caller decodes, which keeps
//! a 10 MB request body at about its own size while it is read.

use std::borrow::Cow;

use super::parse::hex4;
use super::raw::{skip_ws, string_end, value_end};

/// The JSON kind of a value, named as Go's `UnmarshalTypeError` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    /// The word Go's decoder uses for a value of this kind in
    /// `json: cannot unmarshal <word> into …`.
    pub fn go_name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "bool",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
}

/// One JSON value as its text, without surrounding whitespace. The text
/// must be valid JSON: every reader here assumes it and never fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lazy<'a>(&'a [u8]);

impl<'a> Lazy<'a> {
    /// The value whose text is `text` (valid JSON, whitespace around it
    /// allowed).
    pub fn new(text: &'a [u8]) -> Lazy<'a> {
        let start = skip_ws(text, 0);
        let end = value_end(text, start);
        Lazy(&text[start..end])
    }

    /// The value's text as written.
    pub fn text(self) -> &'a [u8] {
        self.0
    }

    pub fn kind(self) -> Kind {
        match self.0.first() {
            Some(b'{') => Kind::Object,
            Some(b'[') => Kind::Array,
            Some(b'"') => Kind::String,
            Some(b't' | b'f') => Kind::Bool,
            Some(b'n') | None => Kind::Null,
            _ => Kind::Number,
        }
    }

    pub fn is_null(self) -> bool {
        self.kind() == Kind::Null
    }

    /// JSON `true`.
    pub fn is_true(self) -> bool {
        self.0 == b"true"
    }

    /// The decoded string, for a string value (Go's rules: invalid UTF-8
    /// and lone surrogates become U+FFFD).
    pub fn str(self) -> Option<Cow<'a, str>> {
        (self.kind() == Kind::String).then(|| unquote(self.0))
    }

    /// The members of an object in the order written, duplicates included
    /// (empty for any other kind).
    pub fn members(self) -> Members<'a> {
        Members {
            b: self.0,
            i: if self.kind() == Kind::Object {
                1
            } else {
                self.0.len()
            },
        }
    }

    /// The elements of an array (empty for any other kind).
    pub fn items(self) -> Items<'a> {
        Items {
            b: self.0,
            i: if self.kind() == Kind::Array {
                1
            } else {
                self.0.len()
            },
        }
    }

    /// The member named exactly `key`, the last one when repeated: a Go
    /// map's view of the object.
    pub fn get(self, key: &str) -> Option<Lazy<'a>> {
        self.members().filter(|(k, _)| k == key).last().map(|m| m.1)
    }

    /// The value Go's decoder stores in the struct field `name` (ASCII
    /// lower case): members are matched without case (Go's `EqualFold`),
    /// a later one overwrites an earlier one, and a `null` leaves a
    /// non-pointer field as it was (`skip_null`).
    pub fn field(self, name: &str, skip_null: bool) -> Option<Lazy<'a>> {
        self.members()
            .filter(|(k, v)| {
                crate::go::unicode::equal_fold_ascii(k, name) && !(skip_null && v.is_null())
            })
            .last()
            .map(|m| m.1)
    }

    /// The members as a Go `map[string]…` holds them: sorted by key bytes,
    /// the last of a repeated key kept.
    pub fn map(self) -> Vec<(Cow<'a, str>, Lazy<'a>)> {
        let mut m: Vec<_> = self.members().collect();
        // Stable: among equal keys the last written stays last.
        m.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut out: Vec<(Cow<'a, str>, Lazy<'a>)> = Vec::with_capacity(m.len());
        for (k, v) in m {
            match out.last_mut() {
                Some(last) if last.0 == k => last.1 = v,
                _ => out.push((k, v)),
            }
        }
        out
    }
}

/// Iterator over an object's members: the decoded key and the value.
pub struct Members<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (Cow<'a, str>, Lazy<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.b;
        let i = skip_ws(b, self.i);
        if i >= b.len() || b[i] != b'"' {
            self.i = b.len();
            return None;
        }
        let kend = string_end(b, i);
        let key = unquote(&b[i..kend]);
        let vstart = skip_ws(b, skip_ws(b, kend) + 1);
        let vend = value_end(b, vstart);
        let mut j = skip_ws(b, vend);
        if b.get(j) == Some(&b',') {
            j += 1;
        }
        self.i = j;
        Some((key, Lazy(&b[vstart..vend])))
    }
}

/// Iterator over an array's elements.
pub struct Items<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Iterator for Items<'a> {
    type Item = Lazy<'a>;

    fn next(&mut self) -> Option<Lazy<'a>> {
        let b = self.b;
        let i = skip_ws(b, self.i);
        if i >= b.len() || b[i] == b']' {
            self.i = b.len();
            return None;
        }
        let end = value_end(b, i);
        let mut j = skip_ws(b, end);
        if b.get(j) == Some(&b',') {
            j += 1;
        }
        self.i = j;
        Some(Lazy(&b[i..end]))
    }
}

/// Decodes the JSON string literal `lit` (quotes included) as Go does.
pub fn unquote(lit: &[u8]) -> Cow<'_, str> {
    let inner = &lit[1..lit.len().saturating_sub(1).max(1)];
    if inner
        .iter()
        .all(|&b| (0x20..0x80).contains(&b) && b != b'\\')
    {
        // Plain ASCII: the text is the value.
        return Cow::Borrowed(std::str::from_utf8(inner).unwrap_or_default());
    }
    let mut out = String::with_capacity(inner.len());
    let s = inner;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\\' => {
                let e = s.get(i + 1).copied().unwrap_or(b'\\');
                i += 2;
                match e {
                    b'b' => out.push('\u{8}'),
                    b'f' => out.push('\u{c}'),
                    b'n' => out.push('\n'),
                    b'r' => out.push('\r'),
                    b't' => out.push('\t'),
                    b'u' => {
                        let r = hex4(s, i).unwrap_or(0xFFFD);
                        i += 4;
                        if (0xD800..0xE000).contains(&r) {
                            if r < 0xDC00 && s.get(i) == Some(&b'\\') && s.get(i + 1) == Some(&b'u')
                            {
                                if let Some(r2) =
                                    hex4(s, i + 2).filter(|r2| (0xDC00..0xE000).contains(r2))
                                {
                                    let c = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
                                    out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                                    i += 6;
                                    continue;
                                }
                            }
                            out.push('\u{FFFD}');
                        } else {
                            out.push(char::from_u32(r).unwrap_or('\u{FFFD}'));
                        }
                    }
                    other => out.push(other as char),
                }
            }
            b if b < 0x80 => {
                let start = i;
                while i < s.len() && s[i] < 0x80 && s[i] != b'\\' {
                    i += 1;
                }
                out.push_str(std::str::from_utf8(&s[start..i]).unwrap_or_default());
            }
            _ => {
                let (c, l) = crate::go::utf8::decode_rune(&s[i..]);
                out.push(c.unwrap_or('\u{FFFD}'));
                i += l.max(1);
            }
        }
    }
    Cow::Owned(out)
}

/// Go `json.Compact`: whitespace outside strings removed, everything else
/// as written; with `escape_html` (what `json.Marshal` does to a
/// `RawMessage`) also `<`, `>`, `&`, U+2028 and U+2029 escaped.
pub fn compact(out: &mut Vec<u8>, text: &[u8], escape_html: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut in_str = false;
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if escape_html {
            if matches!(c, b'<' | b'>' | b'&') {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(c >> 4) as usize]);
                out.push(HEX[(c & 0xF) as usize]);
                i += 1;
                continue;
            }
            if c == 0xE2
                && text.get(i + 1) == Some(&0x80)
                && text.get(i + 2).is_some_and(|&b| b & !1 == 0xA8)
            {
                out.extend_from_slice(b"\\u202");
                out.push(HEX[(text[i + 2] & 0xF) as usize]);
                i += 3;
                continue;
            }
        }
        if in_str {
            out.push(c);
            match c {
                // An escape's next byte is ASCII and never `<>&`.
                b'\\' => {
                    if let Some(&n) = text.get(i + 1) {
                        out.push(n);
                        i += 1;
                    }
                }
                b'"' => in_str = false,
                _ => {}
            }
        } else if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            out.push(c);
            in_str = c == b'"';
        }
        i += 1;
    }
}

/// Go `json.Indent(dst, src, "", indent)`: one element or member per line,
/// `": "` after a key, empty `{}`/`[]` kept on one line, strings and
/// numbers as written, no final newline.
pub fn indent(out: &mut Vec<u8>, text: &[u8], unit: &str) {
    let newline = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        for _ in 0..depth {
            out.extend_from_slice(unit.as_bytes());
        }
    };
    let mut need_indent = false;
    let mut depth = 0usize;
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
            continue;
        }
        if need_indent && c != b'}' && c != b']' {
            need_indent = false;
            depth += 1;
            newline(out, depth);
        }
        match c {
            b'"' => {
                let end = string_end(text, i);
                out.extend_from_slice(&text[i..end]);
                i = end;
                continue;
            }
            b'{' | b'[' => {
                need_indent = true;
                out.push(c);
            }
            b',' => {
                out.push(c);
                newline(out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            b'}' | b']' => {
                if need_indent {
                    need_indent = false;
                } else {
                    depth = depth.saturating_sub(1);
                    newline(out, depth);
                }
                out.push(c);
            }
            _ => out.push(c),
        }
        i += 1;
    }
}

/// Go `json.Marshal` of a `map[string]json.RawMessage` holding `members`:
/// keys sorted by bytes (the last of a repeated key kept), written as Go
/// strings, values compacted with HTML escaping.
pub fn marshal_raw_map<'a>(
    out: &mut Vec<u8>,
    members: impl IntoIterator<Item = (Cow<'a, str>, Lazy<'a>)>,
) {
    let mut m: Vec<_> = members.into_iter().collect();
    m.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out.push(b'{');
    let mut first = true;
    for (n, (k, v)) in m.iter().enumerate() {
        if m.get(n + 1).is_some_and(|next| next.0 == *k) {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        super::write_json_str(out, k.as_bytes());
        out.push(b':');
        compact(out, v.text(), true);
    }
    out.push(b'}');
}

/// Go `json.Marshal` of the value decoded into `any` (without
/// `UseNumber`): objects with sorted, unique keys, strings re-encoded from
/// their decoded text, numbers through `float64` in Go's shortest form.
///
/// The text is decoded once into a tape (sorted keys, last duplicate
/// kept) and written from it, so that deep nesting costs no more than
/// its size.
pub fn marshal_any(out: &mut Vec<u8>, v: Lazy<'_>) {
    match super::decode_exact(v.text(), super::Options::GO) {
        Ok(tape) => write_any(out, tape.root()),
        // A text too large for a tape (over 128 MiB): as written.
        Err(_) => out.extend_from_slice(v.text()),
    }
}

fn write_any(out: &mut Vec<u8>, v: super::Json<'_>) {
    use super::Value;
    match v.get() {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        Value::Number(t) => match t.parse::<f64>() {
            Ok(x) if x.is_finite() => {
                if x == 0.0 && x.is_sign_negative() {
                    out.extend_from_slice(b"-0");
                } else {
                    out.extend_from_slice(crate::go::strconv::format_float(x).as_bytes());
                }
            }
            _ => out.extend_from_slice(t.as_bytes()),
        },
        Value::String(s) => super::write_json_str(out, s.as_bytes()),
        Value::Array(items) => {
            out.push(b'[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                write_any(out, item);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            out.push(b'{');
            for (n, (k, item)) in members.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                super::write_json_str(out, k.as_bytes());
                out.push(b':');
                write_any(out, item);
            }
            out.push(b'}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: Vec<u8>) -> String {
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn reads_members_and_items() {
        let v = Lazy::new(br#" {"b": [1, "x", {"c": null}], "a": true, "b": 2 } "#);
        assert_eq!(v.kind(), Kind::Object);
        let keys: Vec<String> = v.members().map(|m| m.0.into_owned()).collect();
        assert_eq!(keys, ["b", "a", "b"]);
        assert_eq!(v.get("b").unwrap().text(), b"2");
        let first = v.members().next().unwrap().1;
        let items: Vec<&[u8]> = first.items().map(|i| i.text()).collect();
        assert_eq!(items, [&b"1"[..], b"\"x\"", b"{\"c\": null}"]);
        assert!(v.get("a").unwrap().is_true());
        assert_eq!(Lazy::new(b"[]").items().count(), 0);
        assert_eq!(Lazy::new(b"{ }").members().count(), 0);
    }

    #[test]
    fn struct_fields_fold_and_skip_null() {
        let v = Lazy::new(br#"{"role":"user","ROLE":"assistant","Role":null}"#);
        assert_eq!(v.field("role", true).unwrap().str().unwrap(), "assistant");
        assert!(v.field("role", false).unwrap().is_null());
        let k = Lazy::new("{\"\u{212A}ind\":1}".as_bytes());
        assert!(k.field("kind", false).is_some());
    }

    #[test]
    fn unquotes_like_go() {
        assert_eq!(
            unquote(br#""a\u003c\n\ud83d\ude00\ud800x""#),
            "a<\n\u{1F600}\u{FFFD}x"
        );
        assert_eq!(unquote(b"\"a\xffb\""), "a\u{FFFD}b");
        assert_eq!(unquote(br#""\/""#), "/");
    }

    #[test]
    fn compact_and_indent() {
        let t = b"{ \"a\" : [ 1 , \"x <y>\" ] ,\n \"b\":{ } }";
        let mut out = Vec::new();
        compact(&mut out, t, false);
        assert_eq!(s(out), r#"{"a":[1,"x <y>"],"b":{}}"#);
        let mut out = Vec::new();
        compact(&mut out, "\"<\u{2028}\\\"\"".as_bytes(), true);
        assert_eq!(s(out), r#""\u003c\u2028\"""#);
        let mut out = Vec::new();
        indent(&mut out, t, "  ");
        assert_eq!(
            s(out),
            "{\n  \"a\": [\n    1,\n    \"x <y>\"\n  ],\n  \"b\": {}\n}"
        );
    }

    #[test]
    fn marshals() {
        let v = Lazy::new(br#"{"b":1.50,"a":"\u0041<","a":[1e3, 12345678901234567890, -0.0]}"#);
        let mut out = Vec::new();
        marshal_any(&mut out, v);
        assert_eq!(s(out), r#"{"a":[1000,12345678901234567000,-0],"b":1.5}"#);
        let mut out = Vec::new();
        marshal_raw_map(&mut out, v.members());
        assert_eq!(s(out), r#"{"a":[1e3,12345678901234567890,-0.0],"b":1.50}"#);
    }
}
