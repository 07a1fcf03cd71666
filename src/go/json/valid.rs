//! Go `json.Valid`, without building values.

use super::parse::{hex4, scan_number};
use super::{is_ws, MAX_DEPTH};

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
