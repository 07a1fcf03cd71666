//! Walking JSON text already known to be valid without decoding it: where
//! a value ends, where a string ends, past whitespace. For callers that
//! keep or cut byte spans (the MCP request decoder, the annotations
//! compressor). Every function stops at the end of `b`, so a truncated
//! text gives a short span, never a panic.

/// The index of the first byte at or after `i` that is not JSON whitespace.
pub fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// End of the string starting at `b[i] == '"'` (one past its quote).
pub fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// End of the value starting at `b[i]` (brackets inside strings do not
/// count).
pub fn value_end(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        None => b.len(),
        Some(b'"') => string_end(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            j
        }
    }
}

/// The raw value of each member of the object `b`, in input order (empty
/// when `b` is not an object).
pub fn member_values(b: &[u8]) -> Vec<&[u8]> {
    spans(b, b'{', b'}')
}

/// The raw bytes of each element of the array `b` (empty when `b` is not
/// an array).
pub fn elements(b: &[u8]) -> Vec<&[u8]> {
    spans(b, b'[', b']')
}

/// The values of the container `b` opened by `open`; an object's keys and
/// colons are skipped.
fn spans(b: &[u8], open: u8, close: u8) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&open) {
        return out;
    }
    i = skip_ws(b, i + 1);
    while i < b.len() && b[i] != close {
        if open == b'{' {
            if b[i] != b'"' {
                break;
            }
            i = skip_ws(b, string_end(b, i));
            i = skip_ws(b, i + 1); // the colon
        }
        let end = value_end(b, i);
        out.push(&b[i..end]);
        i = skip_ws(b, end);
        if b.get(i) == Some(&b',') {
            i = skip_ws(b, i + 1);
        }
    }
    out
}
