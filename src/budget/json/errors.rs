//! Counting the values of a JSON document that report errors, for the
//! budget's note of what did not fit.

use super::{error_key, parts_of, truthy};
use crate::compress::shared::signal;
use crate::go::json::{Json, Value};

/// [`error_count`] of one decoded value.
pub(super) fn errors_in(root: Json<'_>) -> usize {
    let mut stack: Vec<(Option<&str>, Json<'_>)> = vec![(None, root)];
    let mut n = 0;
    while let Some((k, v)) = stack.pop() {
        if k.is_some_and(|k| k.starts_with("__caveman_")) {
            continue;
        }
        if k.is_some_and(|k| error_key(k) || signal::is_error_cell(k)) && truthy(v)
            || matches!(v.get(), Value::String(s) if signal::is_error_cell(s) && !bare_code(s))
        {
            n += 1;
        }
        stack.extend(parts_of(v));
    }
    n
}

/// A value whose only error shape is a code-shaped token (`E6533` in a
/// phone's title, a model number): a diagnostic code says so only in a
/// compiler's `error[E0502]` or beside an error word.
fn bare_code(s: &str) -> bool {
    let b = s.as_bytes();
    let mut rest = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let code = b[i] == b'E'
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && b.len() >= i + 5
            && b[i + 1..i + 5].iter().all(u8::is_ascii_digit)
            && b.get(i + 5).is_none_or(|c| !c.is_ascii_alphanumeric());
        if code && !s[..i].ends_with("error[") {
            i += 5;
            continue;
        }
        let ch = s[i..].chars().next().unwrap_or(' ');
        rest.push(ch);
        i += ch.len_utf8();
    }
    rest.len() < s.len() && !signal::is_error_cell(&rest)
}

#[cfg(test)]
mod tests {
    use super::bare_code;

    #[test]
    fn a_code_alone_is_no_error() {
        assert!(bare_code("Sony Xperia Z3 Plus E6533 32GB Black"));
        assert!(bare_code("E6533"));
        assert!(!bare_code("error[E0502]: cannot borrow `x` as mutable"));
        assert!(!bare_code("E6533 failed to boot"));
        assert!(!bare_code("KeyError: 'price'"));
    }
}
