//! The reference's TOON subset (spec/toon.md): `encode` (JSON → TOON, fails
//! on anything outside the subset) and `decode` (TOON → compact Go JSON).
//!
//! Over 600 lines with its tests: encoder and decoder are one format's two
//! directions and are checked against each other (round-trip tests).

use crate::go::json::write_json_str;
use crate::go::json::{self as gojson, Json, Keys, Members, Options, Value};
use crate::go::strconv::quote as go_quote;
use crate::go::unicode::{is_blank, leading_space, trailing_space};

/// Nesting the encoder accepts; far beyond the spec's 50,000-level example,
/// bounded so the recursive walk stays within the thread's stack.
const ENCODE_MAX_DEPTH: usize = 200_000;

fn is_safe_key(k: &[u8]) -> bool {
    match k.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return false,
    }
    k[1..]
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'))
}

fn is_scalar(v: Json<'_>) -> bool {
    !v.is_container()
}

fn needs_quotes(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    let b = s.as_bytes();
    if leading_space(b) > 0 || trailing_space(b, 0) > 0 {
        return true;
    }
    if s.bytes()
        .any(|c| matches!(c, b'\n' | b'\r' | b'\t' | b'"' | b':' | b','))
    {
        return true;
    }
    if matches!(b[0], b'[' | b'{' | b'"' | b'-') || b[0].is_ascii_digit() {
        return true;
    }
    matches!(s, "true" | "false" | "null") || gojson::is_number_literal(b)
}

fn scalar(out: &mut Vec<u8>, v: Json<'_>) {
    match v.get() {
        Value::String(s) if needs_quotes(s) => write_json_str(out, s.as_bytes()),
        Value::String(s) => out.extend_from_slice(s.as_bytes()),
        _ => gojson::write(out, v),
    }
}

thread_local! {
    /// The output the current encoding may reach; past it the encoding
    /// stops (indentation grows with depth: 100 KB of nested objects would
    /// otherwise take gigabytes).
    static LIMIT: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
    static OVER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The most TOON output `encode` writes for an input of `n` bytes: four
/// times the input and 64 KiB.
pub fn output_limit(n: usize) -> usize {
    n.saturating_mul(4).saturating_add(64 << 10)
}

fn indent(out: &mut Vec<u8>, level: usize) -> Result<(), ()> {
    if out.len() + 2 * level > LIMIT.get() {
        OVER.set(true);
        return Err(());
    }
    for _ in 0..level {
        out.extend_from_slice(b"  ");
    }
    Ok(())
}

/// Field names of a uniform flat object array, or `None`.
fn uniform_fields(items: gojson::Items<'_>) -> Option<Vec<&str>> {
    let Value::Object(first) = items.iter().next()?.get() else {
        return None;
    };
    if first.is_empty() {
        return None;
    }
    let names: Vec<&str> = first.iter().map(|(k, _)| k).collect();
    for it in items {
        let Value::Object(m) = it.get() else {
            return None;
        };
        if m.len() != names.len()
            || m.iter()
                .zip(&names)
                .any(|((k, v), n)| k != *n || !is_scalar(v))
        {
            return None;
        }
    }
    if names.iter().any(|n| !is_safe_key(n.as_bytes())) {
        return None;
    }
    Some(names)
}

fn array(out: &mut Vec<u8>, name: &str, items: gojson::Items<'_>, level: usize) -> Result<(), ()> {
    indent(out, level)?;
    out.extend_from_slice(name.as_bytes());
    if items.is_empty() {
        out.extend_from_slice(if name.is_empty() {
            b"[]\n"
        } else {
            b"[0]: []\n"
        });
        return Ok(());
    }
    if items.iter().all(is_scalar) {
        out.extend_from_slice(format!("[{}]: ", items.len()).as_bytes());
        for (i, it) in items.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            scalar(out, it);
        }
        out.push(b'\n');
        return Ok(());
    }
    let fields = uniform_fields(items).ok_or(())?;
    out.extend_from_slice(format!("[{}]{{{}}}:\n", items.len(), fields.join(",")).as_bytes());
    for it in items {
        let Value::Object(m) = it.get() else {
            return Err(());
        };
        indent(out, level + 1)?;
        for (i, (_, v)) in m.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            scalar(out, v);
        }
        out.push(b'\n');
    }
    Ok(())
}

fn fields(out: &mut Vec<u8>, members: Members<'_>, level: usize) -> Result<(), ()> {
    let mut sorted: Vec<(&str, Json<'_>)> = members.iter().collect();
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for (k, v) in sorted {
        if !is_safe_key(k.as_bytes()) {
            return Err(());
        }
        match v.get() {
            Value::Object(m) if m.is_empty() => {
                indent(out, level)?;
                out.extend_from_slice(k.as_bytes());
                out.extend_from_slice(b": {}\n");
            }
            Value::Object(m) => {
                indent(out, level)?;
                out.extend_from_slice(k.as_bytes());
                out.extend_from_slice(b":\n");
                fields(out, m, level + 1)?;
            }
            Value::Array(items) => array(out, k, items, level)?,
            _ => {
                indent(out, level)?;
                out.extend_from_slice(k.as_bytes());
                out.extend_from_slice(b": ");
                scalar(out, v);
                out.push(b'\n');
            }
        }
    }
    Ok(())
}

/// The value is outside the TOON subset (or not JSON at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotEncodable;

impl std::fmt::Display for NotEncodable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "not losslessly TOON-encodable (invalid JSON, or nested/non-uniform shape); keep JSON",
        )
    }
}

/// Why a JSON value was not encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodeError {
    /// Outside the TOON subset (or not JSON): the reference's refusal.
    NotEncodable,
    /// The encoding would pass [`output_limit`] (deep nesting).
    TooLarge { limit: usize },
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EncodeError::NotEncodable => NotEncodable.fmt(f),
            EncodeError::TooLarge { limit } => write!(
                f,
                "the TOON encoding would pass {limit} bytes (four times the input and 64 KiB: \
                 nesting this deep indents every line); keep JSON"
            ),
        }
    }
}

/// JSON → TOON; `Err` when the value is outside the subset (toon.md §2),
/// or when the encoding would pass [`output_limit`].
pub fn encode(input: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let limit = output_limit(input.len());
    LIMIT.set(limit);
    OVER.set(false);
    let r = encode_inner(input);
    LIMIT.set(usize::MAX);
    match r {
        Ok(v) => Ok(v),
        Err(()) if OVER.get() => Err(EncodeError::TooLarge { limit }),
        Err(()) => Err(EncodeError::NotEncodable),
    }
}

fn encode_inner(input: &[u8]) -> Result<Vec<u8>, ()> {
    let v = gojson::decode_exact(
        input,
        Options {
            keys: Keys::InputOrderUnique,
            max_depth: ENCODE_MAX_DEPTH,
        },
    )
    .map_err(|_| ())?;
    let mut out = Vec::with_capacity(input.len());
    let v = v.root();
    match v.get() {
        Value::Object(m) if m.is_empty() => out.extend_from_slice(b"{}"),
        Value::Object(m) => fields(&mut out, m, 0)?,
        Value::Array(items) => array(&mut out, "", items, 0)?,
        _ => scalar(&mut out, v),
    }
    while out.last() == Some(&b'\n') {
        out.pop();
    }
    Ok(out)
}

/// A decoded TOON value (strings may hold raw invalid UTF-8).
#[derive(Debug)]
enum TVal {
    Null,
    Bool(bool),
    Num(Vec<u8>),
    Str(Vec<u8>),
    Arr(Vec<TVal>),
    Obj(Vec<(Vec<u8>, TVal)>),
}

struct Lines<'a> {
    lines: Vec<(usize, &'a [u8])>,
    i: usize,
}

type D<T> = Result<T, ()>;

fn split_cells(s: &[u8]) -> D<Vec<&[u8]>> {
    let mut cells = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'"' => quoted = !quoted,
            b'\\' if quoted => {
                i += 1;
                if i >= s.len() {
                    return Err(());
                }
            }
            b',' if !quoted => {
                cells.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if quoted {
        return Err(());
    }
    cells.push(&s[start..]);
    Ok(cells)
}

fn json_ws_trim(s: &[u8]) -> &[u8] {
    let a = s
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    let rest = &s[a..];
    let z = rest
        .iter()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    &rest[..rest.len() - z]
}

fn parse_scalar(s: &[u8]) -> D<TVal> {
    if s.is_empty() {
        return Err(());
    }
    if s[0] == b'"' {
        return match gojson::decode_exact(s, Options::GO)
            .map_err(|_| ())?
            .root()
            .get()
        {
            Value::String(v) => Ok(TVal::Str(v.as_bytes().to_vec())),
            _ => Err(()),
        };
    }
    match s {
        b"true" => return Ok(TVal::Bool(true)),
        b"false" => return Ok(TVal::Bool(false)),
        b"null" => return Ok(TVal::Null),
        _ => {}
    }
    if gojson::is_number_literal(json_ws_trim(s)) {
        return Ok(TVal::Num(s.to_vec()));
    }
    if s.iter().any(|b| matches!(b, b'\n' | b'\r' | b'\t')) {
        return Err(());
    }
    if leading_space(s) > 0 || trailing_space(s, 0) > 0 {
        return Err(());
    }
    Ok(TVal::Str(s.to_vec()))
}

/// Splits `name[n]…` into name, count and the text after `]`.
fn header(text: &[u8]) -> Option<(&[u8], usize, &[u8])> {
    let lb = text.iter().position(|&b| b == b'[')?;
    let name = &text[..lb];
    if !name.is_empty() && !is_safe_key(name) {
        return None;
    }
    let rest = &text[lb + 1..];
    let rb = rest.iter().position(|&b| b == b']')?;
    let digits = &rest[..rb];
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
    Some((name, n, &rest[rb + 1..]))
}

impl<'a> Lines<'a> {
    fn array_after_header(&mut self, level: usize, n: usize, after: &[u8]) -> D<TVal> {
        if after.starts_with(b"{") {
            // Tabular: `{fields}:` exactly.
            if !after.ends_with(b"}:") {
                return Err(());
            }
            let inner = &after[1..after.len() - 2];
            if inner.contains(&b'}') {
                return Err(());
            }
            let names: Vec<&[u8]> = inner.split(|&b| b == b',').collect();
            let mut seen: Vec<&[u8]> = Vec::new();
            for f in &names {
                if !is_safe_key(f) || seen.contains(f) {
                    return Err(());
                }
                seen.push(f);
            }
            if n > self.lines.len() - self.i {
                return Err(());
            }
            let mut rows = Vec::with_capacity(n);
            for _ in 0..n {
                let (lvl, text) = *self.lines.get(self.i).ok_or(())?;
                if lvl != level + 1 {
                    return Err(());
                }
                self.i += 1;
                let cells = split_cells(text)?;
                if cells.len() != names.len() {
                    return Err(());
                }
                let mut obj = Vec::with_capacity(names.len());
                for (f, c) in names.iter().zip(cells) {
                    obj.push((f.to_vec(), parse_scalar(c)?));
                }
                rows.push(TVal::Obj(obj));
            }
            return Ok(TVal::Arr(rows));
        }
        // Inline: `:` or `: rest`.
        let rest: &[u8] = if after == b":" {
            b""
        } else if let Some(r) = after.strip_prefix(b": ") {
            r
        } else {
            return Err(());
        };
        if n == 0 {
            return if rest == b"[]" {
                Ok(TVal::Arr(Vec::new()))
            } else {
                Err(())
            };
        }
        let cells = split_cells(rest)?;
        if cells.len() != n {
            return Err(());
        }
        Ok(TVal::Arr(
            cells.into_iter().map(parse_scalar).collect::<D<Vec<_>>>()?,
        ))
    }

    fn object(&mut self, level: usize) -> D<TVal> {
        let mut members: Vec<(Vec<u8>, TVal)> = Vec::new();
        while let Some(&(lvl, text)) = self.lines.get(self.i) {
            if lvl < level {
                break;
            }
            if lvl > level {
                return Err(());
            }
            self.i += 1;
            let (key, value) =
                if let Some((name, n, after)) = header(text).filter(|h| !h.0.is_empty()) {
                    (name.to_vec(), self.array_after_header(level, n, after)?)
                } else {
                    let colon = text.iter().position(|&b| b == b':').ok_or(())?;
                    let key = &text[..colon];
                    if !is_safe_key(key) {
                        return Err(());
                    }
                    let after = &text[colon + 1..];
                    let rest: &[u8] = if after.is_empty() {
                        b""
                    } else if let Some(r) = after.strip_prefix(b" ") {
                        r
                    } else {
                        return Err(());
                    };
                    let v = if rest == b"{}" {
                        TVal::Obj(Vec::new())
                    } else if rest.is_empty() {
                        match self.lines.get(self.i) {
                            Some(&(l, _)) if l == level + 1 => self.object(level + 1)?,
                            _ => return Err(()),
                        }
                    } else {
                        parse_scalar(rest)?
                    };
                    (key.to_vec(), v)
                };
            if members.iter().any(|(k, _)| *k == key) {
                return Err(());
            }
            members.push((key, value));
        }
        Ok(TVal::Obj(members))
    }
}

/// Why decoding failed.
#[derive(Debug)]
pub enum DecodeError {
    Invalid,
    /// A number text with whitespace cannot be written as JSON.
    Number(String),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Invalid => f.write_str("not valid TOON"),
            DecodeError::Number(t) => write!(f, "json: invalid number literal {}", go_quote(t)),
        }
    }
}

fn write_tval(out: &mut Vec<u8>, v: &TVal) -> Result<(), DecodeError> {
    match v {
        TVal::Null => out.extend_from_slice(b"null"),
        TVal::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        TVal::Num(n) => {
            if !gojson::is_number_literal(n) {
                return Err(DecodeError::Number(String::from_utf8_lossy(n).into_owned()));
            }
            out.extend_from_slice(n);
        }
        TVal::Str(s) => write_json_str(out, s),
        TVal::Arr(items) => {
            out.push(b'[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_tval(out, it)?;
            }
            out.push(b']');
        }
        TVal::Obj(m) => {
            let mut sorted: Vec<&(Vec<u8>, TVal)> = m.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            out.push(b'{');
            for (i, (k, val)) in sorted.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json_str(out, k);
                out.push(b':');
                write_tval(out, val)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

/// TOON → compact JSON (toon.md §3).
pub fn decode(input: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let v = decode_value(input).map_err(|_| DecodeError::Invalid)?;
    let mut out = Vec::with_capacity(input.len());
    write_tval(&mut out, &v)?;
    Ok(out)
}

fn decode_value(input: &[u8]) -> D<TVal> {
    let mut end = input.len();
    while end > 0 && input[end - 1] == b'\n' {
        end -= 1;
    }
    let body = &input[..end];
    if is_blank(body) {
        return Err(());
    }
    let mut lines = Vec::new();
    for line in body.split(|&b| b == b'\n') {
        if is_blank(line) {
            return Err(());
        }
        let spaces = line.iter().take_while(|&&b| b == b' ').count();
        if spaces % 2 != 0 {
            return Err(());
        }
        lines.push((spaces / 2, &line[spaces..]));
    }
    let mut ls = Lines { lines, i: 0 };
    let (lvl, first) = ls.lines[0];
    if lvl != 0 {
        return Err(());
    }
    let v = if first == b"{}" {
        ls.i = 1;
        TVal::Obj(Vec::new())
    } else if first == b"[]" {
        ls.i = 1;
        TVal::Arr(Vec::new())
    } else if first.starts_with(b"\"") {
        ls.i = 1;
        parse_scalar(first)?
    } else if first.starts_with(b"[") {
        ls.i = 1;
        let (name, n, after) = header(first).ok_or(())?;
        if !name.is_empty() {
            return Err(());
        }
        ls.array_after_header(0, n, after)?
    } else if !first.contains(&b':') {
        ls.i = 1;
        parse_scalar(first)?
    } else {
        ls.object(0)?
    };
    if ls.i != ls.lines.len() {
        return Err(());
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(s: &str) -> Option<String> {
        encode(s.as_bytes())
            .ok()
            .map(|v| String::from_utf8(v).unwrap())
    }

    fn dec(s: &[u8]) -> Result<String, String> {
        decode(s)
            .map(|v| String::from_utf8_lossy(&v).into_owned())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn encode_examples() {
        let input = r#"{"users":[{"id":1,"name":"ana"},{"id":2,"name":"sam"}],"team":"hikers","meta":{"z":1,"b":{}},"e":[],"s":["a b","1","",null,true,"-x","<y>"]}"#;
        assert_eq!(
            enc(input).unwrap(),
            "e[0]: []\nmeta:\n  b: {}\n  z: 1\ns[7]: a b,\"1\",\"\",null,true,\"-x\",<y>\nteam: hikers\nusers[2]{id,name}:\n  1,ana\n  2,sam"
        );
        assert_eq!(
            enc(r#"[{"b":1,"a":2},{"b":3,"a":4}]"#).unwrap(),
            "[2]{b,a}:\n  1,2\n  3,4"
        );
        assert_eq!(enc(r#""hello""#).unwrap(), "hello");
        assert_eq!(enc(r#""a:b""#).unwrap(), "\"a:b\"");
        assert_eq!(enc("1.50").unwrap(), "1.50");
        assert_eq!(enc("{}").unwrap(), "{}");
        assert_eq!(enc("[]").unwrap(), "[]");
        assert_eq!(enc(r#"{"a":"x<y:z"}"#).unwrap(), "a: \"x\\u003cy:z\"");
        assert_eq!(
            enc(r#"{"a":{"b":{"c":[{"k":"v"}]}}}"#).unwrap(),
            "a:\n  b:\n    c[1]{k}:\n      v"
        );
        for bad in [
            r#"[{"a":1,"b":2},{"b":3,"a":4}]"#,
            r#"{"my key":1}"#,
            "[[1,2]]",
            r#"[1,{"a":1}]"#,
            r#"{"a":1,"a":2}"#,
            r#"{"rows":[{"id":1,"meta":{"nested":true}}]}"#,
            r#"{"bad":[1,2,"#,
        ] {
            assert_eq!(enc(bad), None, "{bad}");
        }
        // Deep nesting indents every line: 50,000 levels would write 2.5 GB
        // from 300 KB; the encoding stops at four times the input.
        let deep = "{\"a\":".repeat(50_000) + "1" + &"}".repeat(50_000);
        let n = deep.len();
        let r = crate::with_big_stack(move || encode(deep.as_bytes()));
        assert_eq!(
            r,
            Err(EncodeError::TooLarge {
                limit: output_limit(n)
            })
        );
        let shallow = "{\"a\":".repeat(100) + "1" + &"}".repeat(100);
        assert!(enc(&shallow).is_some());
    }

    #[test]
    fn decode_examples() {
        assert_eq!(
            dec(b"rows[2]{id,name}:\n  1,ana\n  2,sam\n\n\n").unwrap(),
            r#"{"rows":[{"id":1,"name":"ana"},{"id":2,"name":"sam"}]}"#
        );
        assert!(dec(b"rows[2]{id,name}:\n  1,ana").is_err());
        assert_eq!(dec(b"[2]: 1,2").unwrap(), "[1,2]");
        assert_eq!(dec(b"x[0]: []").unwrap(), r#"{"x":[]}"#);
        assert!(dec(b"x[0]:").is_err());
        assert_eq!(dec(b"\"root\"").unwrap(), r#""root""#);
        assert_eq!(dec(b"plain words").unwrap(), r#""plain words""#);
        assert_eq!(dec(b"a: b: c").unwrap(), r#"{"a":"b: c"}"#);
        assert_eq!(
            dec(b"a: {}\nb:\n  c: []").unwrap(),
            r#"{"a":{},"b":{"c":"[]"}}"#
        );
        assert_eq!(dec(b"a: 1e400").unwrap(), r#"{"a":1e400}"#);
        assert_eq!(dec(b"a: 01").unwrap(), r#"{"a":"01"}"#);
        assert_eq!(dec(b"a: -").unwrap(), r#"{"a":"-"}"#);
        assert_eq!(dec(b"k[2]: \"a,b\",c").unwrap(), r#"{"k":["a,b","c"]}"#);
        assert_eq!(
            dec(b"k[1]{a}:\n  1\nz: 2").unwrap(),
            r#"{"k":[{"a":1}],"z":2}"#
        );
        for bad in [
            &b"name: first\nname: second"[..],
            b"rows[1]{id,id}:\n  1,2",
            b"  a: 1",
            b"a:\n    b: 1",
            b"\n\na: 1",
            b"a:\tb",
        ] {
            assert_eq!(
                dec(bad).unwrap_err(),
                "not valid TOON",
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(
            dec(b"a:  1").unwrap_err(),
            "json: invalid number literal \" 1\""
        );
        assert_eq!(
            dec(b"a: 1\r\nb: 2").unwrap_err(),
            "json: invalid number literal \"1\\r\""
        );
        assert_eq!(dec(b"a: \xff").unwrap(), "{\"a\":\"\\ufffd\"}");
        assert_eq!(
            dec(b"[2]: \xff,\"\xff\"").unwrap(),
            "[\"\\ufffd\",\"\u{FFFD}\"]"
        );
    }
}
