//! JSON with Go's `encoding/json` semantics (spec/json.md §2 and §8):
//! numbers kept as their literal text, duplicate keys last-wins (or
//! refused, for TOON), invalid UTF-8 and lone surrogates as U+FFFD, a
//! nesting limit, and output written exactly as `json.Marshal` writes it.

use std::borrow::Cow;

use crate::gofmt::write_json_str;

/// Go's `maxNestingDepth`: 10,000 nested arrays/objects are fine, 10,001 not.
pub const MAX_DEPTH: usize = 10_000;

/// A decoded JSON value borrowing from the input where it can.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// The number's literal text, exactly as written.
    Number(&'a str),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    /// Members; sorted by key with duplicates resolved when decoded with
    /// [`Keys::SortedLastWins`], in input order with [`Keys::InputOrderUnique`].
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

/// How object members are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// Go `map[string]any`: sorted byte-wise, a duplicate key keeps the last value.
    SortedLastWins,
    /// Input order, a duplicate key is an error (TOON encode).
    InputOrderUnique,
}

/// Decoder settings.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub keys: Keys,
    pub max_depth: usize,
}

impl Options {
    /// Go `json.Decoder` with `UseNumber`, decoding into `any`.
    pub const GO: Options = Options {
        keys: Keys::SortedLastWins,
        max_depth: MAX_DEPTH,
    };
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    opts: Options,
    /// Scratch stacks of pending object members and array items.
    members: Vec<(Cow<'a, str>, Value<'a>)>,
    items: Vec<Value<'a>>,
}

/// The input is not JSON the decoder accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxError;

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid JSON")
    }
}

impl std::error::Error for SyntaxError {}

type PResult<T> = Result<T, SyntaxError>;

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

impl<'a> Parser<'a> {
    #[inline]
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && is_ws(self.s[self.pos]) {
            self.pos += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn value(&mut self, depth: usize) -> PResult<Value<'a>> {
        self.skip_ws();
        match self.peek().ok_or(SyntaxError)? {
            b'{' => {
                if depth + 1 > self.opts.max_depth {
                    return Err(SyntaxError);
                }
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    return Ok(Value::Object(Vec::new()));
                }
                // Members go on a shared scratch stack first, so each object
                // gets one exactly-sized allocation.
                let base = self.members.len();
                loop {
                    self.skip_ws();
                    if self.peek() != Some(b'"') {
                        return Err(SyntaxError);
                    }
                    let k = self.string()?;
                    self.skip_ws();
                    if self.peek() != Some(b':') {
                        return Err(SyntaxError);
                    }
                    self.pos += 1;
                    let v = self.value(depth + 1)?;
                    self.members.push((k, v));
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            break;
                        }
                        _ => return Err(SyntaxError),
                    }
                }
                let mut members: Vec<(Cow<'a, str>, Value<'a>)> =
                    self.members.drain(base..).collect();
                match self.opts.keys {
                    Keys::SortedLastWins => {
                        // Stable sort keeps input order among equal keys;
                        // the last of each run wins.
                        if !members
                            .windows(2)
                            .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes())
                        {
                            members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                            if members.windows(2).any(|w| w[0].0 == w[1].0) {
                                let mut out: Vec<(Cow<'a, str>, Value<'a>)> =
                                    Vec::with_capacity(members.len());
                                for m in members {
                                    match out.last_mut() {
                                        Some(last) if last.0 == m.0 => *last = m,
                                        _ => out.push(m),
                                    }
                                }
                                members = out;
                            }
                        }
                        Ok(Value::Object(members))
                    }
                    Keys::InputOrderUnique => {
                        let mut keys: Vec<&str> = members.iter().map(|m| m.0.as_ref()).collect();
                        keys.sort_unstable();
                        if keys.windows(2).any(|w| w[0] == w[1]) {
                            return Err(SyntaxError);
                        }
                        Ok(Value::Object(members))
                    }
                }
            }
            b'[' => {
                if depth + 1 > self.opts.max_depth {
                    return Err(SyntaxError);
                }
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(Value::Array(Vec::new()));
                }
                let base = self.items.len();
                loop {
                    let v = self.value(depth + 1)?;
                    self.items.push(v);
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        _ => return Err(SyntaxError),
                    }
                }
                Ok(Value::Array(self.items.drain(base..).collect()))
            }
            b'"' => Ok(Value::String(self.string()?)),
            b't' => self.literal(b"true", Value::Bool(true)),
            b'f' => self.literal(b"false", Value::Bool(false)),
            b'n' => self.literal(b"null", Value::Null),
            b'-' | b'0'..=b'9' => {
                let start = self.pos;
                self.pos = scan_number(self.s, self.pos).ok_or(SyntaxError)?;
                // Number literals are ASCII.
                Ok(Value::Number(
                    std::str::from_utf8(&self.s[start..self.pos]).map_err(|_| SyntaxError)?,
                ))
            }
            _ => Err(SyntaxError),
        }
    }

    fn literal(&mut self, word: &[u8], v: Value<'a>) -> PResult<Value<'a>> {
        if self.s[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(SyntaxError)
        }
    }

    /// A string at `pos` (which holds `"`), decoded.
    fn string(&mut self) -> PResult<Cow<'a, str>> {
        let start = self.pos + 1;
        let mut i = start;
        let s = self.s;
        // Fast path: plain ASCII without escapes.
        while i < s.len() {
            let b = s[i];
            if b == b'"' {
                self.pos = i + 1;
                // Plain ASCII bytes >= 0x20: valid UTF-8.
                return Ok(Cow::Borrowed(
                    std::str::from_utf8(&s[start..i]).map_err(|_| SyntaxError)?,
                ));
            }
            if b == b'\\' || !(0x20..0x80).contains(&b) {
                break;
            }
            i += 1;
        }
        // Slow path: validate, unescape, replace invalid bytes.
        let mut out = String::with_capacity(i - start + 16);
        out.push_str(std::str::from_utf8(&s[start..i]).map_err(|_| SyntaxError)?);
        loop {
            let b = *s.get(i).ok_or(SyntaxError)?;
            match b {
                b'"' => {
                    self.pos = i + 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    let e = *s.get(i + 1).ok_or(SyntaxError)?;
                    i += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let r = hex4(s, i).ok_or(SyntaxError)?;
                            i += 4;
                            if (0xD800..0xE000).contains(&r) {
                                // A valid pair consumes the second escape.
                                if r < 0xDC00
                                    && s.get(i) == Some(&b'\\')
                                    && s.get(i + 1) == Some(&b'u')
                                {
                                    if let Some(r2) = hex4(s, i + 2) {
                                        if (0xDC00..0xE000).contains(&r2) {
                                            let c = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
                                            out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                                            i += 6;
                                            continue;
                                        }
                                    }
                                }
                                out.push('\u{FFFD}');
                            } else {
                                out.push(char::from_u32(r).unwrap_or('\u{FFFD}'));
                            }
                        }
                        _ => return Err(SyntaxError),
                    }
                }
                0..=0x1f => return Err(SyntaxError),
                0x20..=0x7f => {
                    let run_start = i;
                    while i < s.len()
                        && s[i] >= 0x20
                        && s[i] < 0x80
                        && s[i] != b'"'
                        && s[i] != b'\\'
                    {
                        i += 1;
                    }
                    out.push_str(std::str::from_utf8(&s[run_start..i]).map_err(|_| SyntaxError)?);
                }
                _ => {
                    let (c, l) = crate::gofmt::decode_go_rune(&s[i..]);
                    out.push(c.unwrap_or('\u{FFFD}'));
                    i += l;
                }
            }
        }
    }
}

fn hex4(s: &[u8], i: usize) -> Option<u32> {
    let h = s.get(i..i + 4)?;
    let mut v = 0u32;
    for &b in h {
        v = v * 16 + (b as char).to_digit(16)?;
    }
    Some(v)
}

/// End of a JSON number starting at `i`, or `None` if malformed.
fn scan_number(s: &[u8], mut i: usize) -> Option<usize> {
    if s.get(i) == Some(&b'-') {
        i += 1;
    }
    match s.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => {
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
        }
        _ => return None,
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        if !s.get(i)?.is_ascii_digit() {
            return None;
        }
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !s.get(i)?.is_ascii_digit() {
            return None;
        }
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    Some(i)
}

/// True when `t` is exactly one JSON number literal.
pub fn is_number_literal(t: &[u8]) -> bool {
    !t.is_empty() && scan_number(t, 0) == Some(t.len())
}

/// Decodes the first value of `s`; returns it and the offset after it.
pub fn decode_first(s: &[u8], opts: Options) -> PResult<(Value<'_>, usize)> {
    let mut p = Parser {
        s,
        pos: 0,
        opts,
        members: Vec::new(),
        items: Vec::new(),
    };
    let v = p.value(0)?;
    Ok((v, p.pos))
}

/// Go `json.Decoder` + `More()` as the JSON compressor uses it (json.md §2):
/// one value; after whitespace, a further byte other than `]`/`}` fails.
pub fn decode_go(s: &[u8]) -> PResult<Value<'_>> {
    let (v, mut end) = decode_first(s, Options::GO)?;
    while end < s.len() && is_ws(s[end]) {
        end += 1;
    }
    if end < s.len() && s[end] != b']' && s[end] != b'}' {
        return Err(SyntaxError);
    }
    Ok(v)
}

/// Exactly one value with only JSON whitespace around it.
pub fn decode_exact(s: &[u8], opts: Options) -> PResult<Value<'_>> {
    let (v, mut end) = decode_first(s, opts)?;
    while end < s.len() && is_ws(s[end]) {
        end += 1;
    }
    if end != s.len() {
        return Err(SyntaxError);
    }
    Ok(v)
}

/// Go `json.Valid`, without building values: one value, whitespace around,
/// depth <= 10,000, invalid UTF-8 inside strings accepted.
pub fn is_valid(s: &[u8]) -> bool {
    let mut stack: Vec<u8> = Vec::new();
    let mut i = 0;
    let n = s.len();
    let skip = |i: &mut usize| {
        while *i < n && is_ws(s[*i]) {
            *i += 1;
        }
    };
    // State: expecting a value.
    'value: loop {
        skip(&mut i);
        if i >= n {
            return false;
        }
        match s[i] {
            b'{' | b'[' => {
                if stack.len() >= MAX_DEPTH {
                    return false;
                }
                let open = s[i];
                i += 1;
                skip(&mut i);
                let close = if open == b'{' { b'}' } else { b']' };
                if i < n && s[i] == close {
                    i += 1;
                } else {
                    stack.push(open);
                    if open == b'{' {
                        if i >= n || s[i] != b'"' {
                            return false;
                        }
                        match skip_string(s, i) {
                            Some(e) => i = e,
                            None => return false,
                        }
                        skip(&mut i);
                        if i >= n || s[i] != b':' {
                            return false;
                        }
                        i += 1;
                    }
                    continue 'value;
                }
            }
            b'"' => match skip_string(s, i) {
                Some(e) => i = e,
                None => return false,
            },
            b't' if s[i..].starts_with(b"true") => i += 4,
            b'f' if s[i..].starts_with(b"false") => i += 5,
            b'n' if s[i..].starts_with(b"null") => i += 4,
            b'-' | b'0'..=b'9' => match scan_number(s, i) {
                Some(e) => i = e,
                None => return false,
            },
            _ => return false,
        }
        // After a value: close containers or continue.
        loop {
            skip(&mut i);
            let Some(&top) = stack.last() else {
                return i == n;
            };
            if i >= n {
                return false;
            }
            match (top, s[i]) {
                (_, b',') => {
                    i += 1;
                    if top == b'{' {
                        skip(&mut i);
                        if i >= n || s[i] != b'"' {
                            return false;
                        }
                        match skip_string(s, i) {
                            Some(e) => i = e,
                            None => return false,
                        }
                        skip(&mut i);
                        if i >= n || s[i] != b':' {
                            return false;
                        }
                        i += 1;
                    }
                    continue 'value;
                }
                (b'{', b'}') | (b'[', b']') => {
                    stack.pop();
                    i += 1;
                }
                _ => return false,
            }
        }
    }
}

/// Bytes that end a plain run inside a string: `"`, `\\` and controls.
static STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// End of the string starting at `i` (a `"`), validating escapes and
/// rejecting raw control bytes; invalid UTF-8 is accepted.
fn skip_string(s: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    loop {
        while i < s.len() && !STRING_STOP[s[i] as usize] {
            i += 1;
        }
        let b = *s.get(i)?;
        match b {
            b'"' => return Some(i + 1),
            b'\\' => match *s.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                b'u' => {
                    hex4(s, i + 2)?;
                    i += 6;
                }
                _ => return None,
            },
            0..=0x1f => return None,
            _ => i += 1,
        }
    }
}

/// Writes `v` as Go's `json.Marshal` would (compact, sorted keys, HTML-safe).
pub fn write(out: &mut Vec<u8>, v: &Value<'_>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => out.extend_from_slice(n.as_bytes()),
        Value::String(s) => write_json_str(out, s.as_bytes()),
        Value::Array(items) => {
            out.push(b'[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(out, it);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            out.push(b'{');
            for (i, (k, val)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json_str(out, k.as_bytes());
                out.push(b':');
                write(out, val);
            }
            out.push(b'}');
        }
    }
}

/// `write` into a new buffer.
pub fn to_vec(v: &Value<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    write(&mut out, v);
    out
}

/// Writes `v` indented by two spaces per level (Go `json.MarshalIndent(v, "", "  ")`),
/// with an initial indent prefix level.
pub fn write_indented(out: &mut Vec<u8>, v: &Value<'_>, level: usize) {
    let nl = |out: &mut Vec<u8>, l: usize| {
        out.push(b'\n');
        for _ in 0..l {
            out.extend_from_slice(b"  ");
        }
    };
    match v {
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
        other => write(out, other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_duplicates_and_escapes() {
        let v = decode_go(br#"{"b":"x\/y","a":"<&>","a":1.50}"#).unwrap();
        assert_eq!(to_vec(&v), br#"{"a":1.50,"b":"x/y"}"#);
        let v = decode_go(br#"["<&>"]"#).unwrap();
        assert_eq!(to_vec(&v), br#"["\u003c\u0026\u003e"]"#);
    }

    #[test]
    fn surrogates_and_invalid_bytes() {
        let v = decode_go(b"[\"\\ud800\\u0041\", \"\\udc00\", \"\\ud83d\\ude00\", \"a\xffb\"]")
            .unwrap();
        assert_eq!(
            String::from_utf8(to_vec(&v)).unwrap(),
            "[\"\u{FFFD}A\",\"\u{FFFD}\",\"\u{1F600}\",\"a\u{FFFD}b\"]"
        );
    }

    #[test]
    fn trailing_data_rule() {
        assert!(decode_go(b"{\"a\":1}}").is_ok());
        assert!(decode_go(b"[1]]garbage").is_ok());
        assert!(decode_go(b"[1] [2]").is_err());
        assert!(decode_go(b"[1] x").is_err());
        assert!(decode_go(b"  ").is_err());
    }

    #[test]
    fn depth_limit() {
        crate::with_big_stack(depth_limit_body);
    }

    fn depth_limit_body() {
        let ok = "[".repeat(10_000) + &"]".repeat(10_000);
        assert!(is_valid(ok.as_bytes()));
        assert!(decode_go(ok.as_bytes()).is_ok());
        let bad = "[".repeat(10_001) + &"]".repeat(10_001);
        assert!(!is_valid(bad.as_bytes()));
        assert!(decode_go(bad.as_bytes()).is_err());
    }

    #[test]
    fn validity() {
        for good in [
            "{}",
            " [1, -0.5e+3, \"x\", true, null] ",
            "\"\\u00e9\"",
            "0",
        ] {
            assert!(is_valid(good.as_bytes()), "{good}");
        }
        for bad in [
            "",
            "[1,]",
            "{\"a\"}",
            "01",
            "[1",
            "\u{feff}{}",
            "\"\u{1}\"",
            "{} {}",
            "1.",
            "-",
        ] {
            assert!(!is_valid(bad.as_bytes()), "{bad}");
        }
        assert!(is_valid(b"\"\xff\""));
    }
}
