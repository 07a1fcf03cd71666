//! Go's `encoding/json` scanner as `json.Unmarshal` runs it before decoding
//! anything (`checkValid`): the whole text must be one JSON value with only
//! whitespace around it, and the first byte that breaks the grammar names
//! the error, in Go's words (`invalid character 'x' after object key`,
//! `unexpected end of JSON input`, …). Commands that print the decoder's
//! error verbatim (`pixel simulate parse: …`) need exactly these texts.

use super::MAX_DEPTH;

/// A Go `*json.SyntaxError`: its message, and the offset of the byte after
/// the one that failed (Go's `Offset`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub msg: String,
    pub offset: usize,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.msg)
    }
}

/// The scanner's states (Go's `state…` functions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    BeginValue,
    BeginValueOrEmpty,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    /// Inside `\u`, with this many hex digits read.
    InStringEscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    /// Inside a literal: the rest of the word still expected.
    Literal(&'static [u8], &'static str),
}

/// What a container on the stack expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

#[inline]
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: the byte as a one-rune Go quoted literal in single
/// quotes (a byte above 0x7F is the Latin-1 rune of that value).
pub fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        _ => {
            let q = crate::go::strconv::quote(&char::from(c).to_string());
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

/// Go `checkValid`: `Ok` when `s` is one JSON value (whitespace around it
/// allowed), else the scanner's error.
pub fn check_valid(s: &[u8]) -> Result<(), SyntaxError> {
    let mut st = State::BeginValue;
    let mut stack: Vec<Parse> = Vec::new();
    for (i, &c) in s.iter().enumerate() {
        step(&mut st, &mut stack, c).map_err(|ctx| error(c, &ctx, i + 1))?;
    }
    // Go's `eof`: a finished value, or one more space to end a number.
    if st == State::EndTop {
        return Ok(());
    }
    match step(&mut st, &mut stack, b' ') {
        Err(ctx) => Err(error(b' ', &ctx, s.len())),
        Ok(()) if st == State::EndTop => Ok(()),
        Ok(()) => Err(SyntaxError {
            msg: "unexpected end of JSON input".to_string(),
            offset: s.len(),
        }),
    }
}

fn error(c: u8, ctx: &str, offset: usize) -> SyntaxError {
    SyntaxError {
        msg: format!("invalid character {} {ctx}", quote_char(c)),
        offset,
    }
}

/// One byte through the scanner; the error context on failure.
fn step(st: &mut State, stack: &mut Vec<Parse>, c: u8) -> Result<(), String> {
    use State::*;
    match *st {
        BeginValueOrEmpty if is_space(c) => {}
        BeginValueOrEmpty if c == b']' => return end_value(st, stack, c),
        BeginValueOrEmpty => {
            *st = BeginValue;
            return step(st, stack, c);
        }
        BeginValue => return begin_value(st, stack, c),
        BeginStringOrEmpty if is_space(c) => {}
        BeginStringOrEmpty if c == b'}' => {
            if let Some(top) = stack.last_mut() {
                *top = Parse::ObjectValue;
            }
            return end_value(st, stack, c);
        }
        BeginStringOrEmpty => {
            *st = BeginString;
            return step(st, stack, c);
        }
        BeginString if is_space(c) => {}
        BeginString if c == b'"' => *st = InString,
        BeginString => return Err("looking for beginning of object key string".into()),
        EndValue => return end_value(st, stack, c),
        EndTop => {
            if !is_space(c) {
                return Err("after top-level value".into());
            }
        }
        InString => match c {
            b'"' => *st = EndValue,
            b'\\' => *st = InStringEsc,
            0..=0x1f => return Err("in string literal".into()),
            _ => {}
        },
        InStringEsc => match c {
            b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => *st = InString,
            b'u' => *st = InStringEscU(0),
            _ => return Err("in string escape code".into()),
        },
        InStringEscU(n) => {
            if !c.is_ascii_hexdigit() {
                return Err("in \\u hexadecimal character escape".into());
            }
            *st = if n == 3 {
                InString
            } else {
                InStringEscU(n + 1)
            };
        }
        Neg => match c {
            b'0' => *st = Zero,
            b'1'..=b'9' => *st = One,
            _ => return Err("in numeric literal".into()),
        },
        One if c.is_ascii_digit() => {}
        One | Zero => match c {
            b'.' => *st = Dot,
            b'e' | b'E' => *st = E,
            _ => return end_value(st, stack, c),
        },
        Dot if c.is_ascii_digit() => *st = Dot0,
        Dot => return Err("after decimal point in numeric literal".into()),
        Dot0 => match c {
            b'0'..=b'9' => {}
            b'e' | b'E' => *st = E,
            _ => return end_value(st, stack, c),
        },
        E if c == b'+' || c == b'-' => *st = ESign,
        E | ESign => {
            if !c.is_ascii_digit() {
                return Err("in exponent of numeric literal".into());
            }
            *st = E0;
        }
        E0 if c.is_ascii_digit() => {}
        E0 => return end_value(st, stack, c),
        Literal(rest, word) => {
            if c != rest[0] {
                return Err(format!(
                    "in literal {word} (expecting {})",
                    quote_char(rest[0])
                ));
            }
            *st = if rest.len() == 1 {
                EndValue
            } else {
                Literal(&rest[1..], word)
            };
        }
    }
    Ok(())
}

fn begin_value(st: &mut State, stack: &mut Vec<Parse>, c: u8) -> Result<(), String> {
    use State::*;
    match c {
        _ if is_space(c) => {}
        b'{' => {
            *st = BeginStringOrEmpty;
            return push(stack, Parse::ObjectKey);
        }
        b'[' => {
            *st = BeginValueOrEmpty;
            return push(stack, Parse::ArrayValue);
        }
        b'"' => *st = InString,
        b'-' => *st = Neg,
        b'0' => *st = Zero,
        b'1'..=b'9' => *st = One,
        b't' => *st = Literal(b"rue", "true"),
        b'f' => *st = Literal(b"alse", "false"),
        b'n' => *st = Literal(b"ull", "null"),
        _ => return Err("looking for beginning of value".into()),
    }
    Ok(())
}

fn push(stack: &mut Vec<Parse>, p: Parse) -> Result<(), String> {
    stack.push(p);
    if stack.len() > MAX_DEPTH {
        return Err("exceeded max depth".into());
    }
    Ok(())
}

/// Go's `stateEndValue`: what may follow a complete value.
fn end_value(st: &mut State, stack: &mut Vec<Parse>, c: u8) -> Result<(), String> {
    use State::*;
    let Some(&top) = stack.last() else {
        *st = EndTop;
        return step(st, stack, c);
    };
    if is_space(c) {
        *st = EndValue;
        return Ok(());
    }
    match top {
        Parse::ObjectKey if c == b':' => {
            *stack.last_mut().expect("non-empty") = Parse::ObjectValue;
            *st = BeginValue;
        }
        Parse::ObjectKey => return Err("after object key".into()),
        Parse::ObjectValue if c == b',' => {
            *stack.last_mut().expect("non-empty") = Parse::ObjectKey;
            *st = BeginString;
        }
        Parse::ObjectValue if c == b'}' => pop(st, stack),
        Parse::ObjectValue => return Err("after object key:value pair".into()),
        Parse::ArrayValue if c == b',' => *st = BeginValue,
        Parse::ArrayValue if c == b']' => pop(st, stack),
        Parse::ArrayValue => return Err("after array element".into()),
    }
    Ok(())
}

fn pop(st: &mut State, stack: &mut Vec<Parse>) {
    stack.pop();
    *st = if stack.is_empty() {
        State::EndTop
    } else {
        State::EndValue
    };
}

#[cfg(test)]
mod tests {
    use super::check_valid;

    fn msg(s: &[u8]) -> String {
        check_valid(s).err().map(|e| e.msg).unwrap_or_default()
    }

    #[test]
    fn go_messages() {
        for (text, want) in [
            (&b"{\"a\":1}"[..], ""),
            (b" [1, 2.5e-3, true, null, \"x\"] ", ""),
            (b"", "unexpected end of JSON input"),
            (b"{\"a\":", "unexpected end of JSON input"),
            (b"\"abc", "unexpected end of JSON input"),
            (b"12", ""),
            (
                b"1.",
                "invalid character ' ' after decimal point in numeric literal",
            ),
            (
                b"tru",
                "invalid character ' ' in literal true (expecting 'e')",
            ),
            (
                b"nul!",
                "invalid character '!' in literal null (expecting 'l')",
            ),
            (b"x", "invalid character 'x' looking for beginning of value"),
            (b"{} x", "invalid character 'x' after top-level value"),
            (b"{\"a\" 1}", "invalid character '1' after object key"),
            (
                b"{\"a\":1 2}",
                "invalid character '2' after object key:value pair",
            ),
            (b"[1 2]", "invalid character '2' after array element"),
            (
                b"{1:2}",
                "invalid character '1' looking for beginning of object key string",
            ),
            (
                b"{\"a\":1,}",
                "invalid character '}' looking for beginning of object key string",
            ),
            (
                b"[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            (b"\"a\nb\"", "invalid character '\\n' in string literal"),
            (b"\"\\x\"", "invalid character 'x' in string escape code"),
            (
                b"\"\\u12g4\"",
                "invalid character 'g' in \\u hexadecimal character escape",
            ),
            (b"-x", "invalid character 'x' in numeric literal"),
            (
                b"1ex",
                "invalid character 'x' in exponent of numeric literal",
            ),
            (b"01", "invalid character '1' after top-level value"),
            (
                b"'",
                "invalid character '\\'' looking for beginning of value",
            ),
            (
                b"\xef\xbb\xbf{}",
                "invalid character '\u{ef}' looking for beginning of value",
            ),
            (
                b"\x01",
                "invalid character '\\x01' looking for beginning of value",
            ),
            (
                b"\xa0",
                "invalid character '\\u00a0' looking for beginning of value",
            ),
        ] {
            assert_eq!(msg(text), want, "{:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn depth_limit() {
        let ok = "[".repeat(10_000) + &"]".repeat(10_000);
        assert_eq!(msg(ok.as_bytes()), "");
        let deep = "[".repeat(10_001) + &"]".repeat(10_001);
        assert_eq!(
            msg(deep.as_bytes()),
            "invalid character '[' exceeded max depth"
        );
    }

    #[test]
    fn agrees_with_is_valid() {
        for s in [
            &b"{\"a\":[1,{\"b\":null}]}"[..],
            b"[",
            b"{\"a\":1}}",
            b"-0.5E+10",
            b"\"\xff\"",
            b"  ",
            b"[1,2,]",
        ] {
            assert_eq!(check_valid(s).is_ok(), super::super::is_valid(s), "{s:?}");
        }
    }
}
