//! Bounded loss when unsure (lean): when no rule recognised a payload's
//! structure, its view may fold what repeats and what is invisible, never
//! drop a unique line by position. A wrong guess then costs savings, not
//! content.
//!
//! - trailing spaces and tabs go (a terminal shows nothing there);
//! - a run of three or more identical lines keeps the first and a marker
//!   that counts the repeats;
//! - a run of three or more blank lines keeps one and a marker.

use super::lines::{Lines, Trace};

/// A run this long or longer is folded.
const MIN_RUN: usize = 3;

/// The folded text and its account, or `None` when nothing folds.
pub(crate) fn fold(text: &str) -> Option<(Vec<u8>, Trace)> {
    let doc = Lines::split(text);
    let n = doc.len();
    let mut out = Vec::with_capacity(text.len());
    let mut trace = Trace::default();
    let mut kept = 0usize;
    let mut i = 0;
    let mut first = true;
    let push = |out: &mut Vec<u8>, s: &str, first: &mut bool| {
        if !*first {
            out.push(b'\n');
        }
        out.extend_from_slice(s.as_bytes());
        *first = false;
    };
    while i < n {
        let line = trim_end(doc.line(i));
        let mut j = i + 1;
        while j < n && trim_end(doc.line(j)) == line {
            j += 1;
        }
        let run = j - i;
        push(&mut out, line, &mut first);
        kept += 1;
        if run >= MIN_RUN {
            let what = if line.trim().is_empty() {
                format!("\u{2026} {} more blank lines (caveman) \u{2026}", run - 1)
            } else {
                format!(
                    "\u{2026} the line above repeats {} more times: {} identical lines elided (caveman) \u{2026}",
                    run - 1,
                    run - 1
                )
            };
            push(&mut out, &format!("{what}{}", doc.cr), &mut first);
            trace.dropped += run - 1;
        } else {
            for _ in 1..run {
                push(&mut out, line, &mut first);
                kept += 1;
            }
        }
        i = j;
    }
    if doc.trailing_lf {
        out.push(b'\n');
    }
    if out.len() >= text.len() {
        return None;
    }
    trace
        .kept
        .push(("each distinct line (structure not recognised)", kept));
    Some((out, trace))
}

/// The line without trailing spaces and tabs (a CR ending stays).
fn trim_end(l: &str) -> &str {
    match l.strip_suffix('\r') {
        Some(b) => {
            let t = b.trim_end_matches([' ', '\t']);
            // Keep the CR: `t` is a prefix of `l`, so re-slice.
            if t.len() == b.len() {
                l
            } else {
                &l[..t.len()]
            }
        }
        None => l.trim_end_matches([' ', '\t']),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Option<String> {
        fold(s).map(|(b, _)| String::from_utf8(b).unwrap())
    }

    #[test]
    fn folds_repeats_and_padding_only() {
        let b = "retrying connection to db:5432 (attempt pending)";
        assert_eq!(
            f(&format!("a   \n{}c\n", format!("{b}\n").repeat(5))).unwrap(),
            format!("a\n{b}\n\u{2026} the line above repeats 4 more times: 4 identical lines elided (caveman) \u{2026}\nc\n")
        );
        assert_eq!(f("a\nb\nc\n"), None);
        assert_eq!(f("a\na\nb\n"), None);
        assert_eq!(
            f(&format!("x{}y", "\n".repeat(80))).unwrap(),
            "x\n\n\u{2026} 78 more blank lines (caveman) \u{2026}\ny"
        );
        // Not smaller: nothing.
        assert_eq!(f("x\n\n\n\n\ny"), None);
    }

    proptest::proptest! {
        /// Every distinct line of the input is in the view, in order.
        #[test]
        fn never_drops_a_unique_line(lines in proptest::collection::vec("(a|b|c|)( )?", 0..40)) {
            let text = lines.join("\n");
            if let Some(v) = f(&text) {
                let view: Vec<&str> = v.split('\n').filter(|l| !l.contains("(caveman)")).collect();
                let mut k = 0;
                for l in text.split('\n').map(|l| l.trim_end()) {
                    if k < view.len() && view[k] == l {
                        k += 1;
                    } else {
                        proptest::prop_assert!(k > 0 && view[k - 1] == l, "{:?} lost", l);
                    }
                }
            }
        }
    }
}
