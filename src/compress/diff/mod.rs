//! The diff compressor (content type `diff`, method `diff`; spec/diff.md):
//! every header and changed line of a unified diff stays with 2 lines of
//! context on each side; every other run of lines becomes a marker.

mod lean;

use super::shared::lines::{join_lines, Keep, Lines};
use super::{Compressed, Decline, Input};

/// Shorter diffs are left alone.
const MIN_LINES: usize = 12;
/// Context kept on each side of a structural line.
const CONTEXT: usize = 2;
const MARKER_TEXT: &str = "context lines elided (caveman)";

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    if input.profile.is_lean() {
        return lean::run(text, input.query, input.budget);
    }
    compress(text)
}

/// Headers, changes and our own markers (diff.md §3 step 2).
fn is_structural(line: &str) -> bool {
    const HEADERS: [&str; 5] = ["diff --git ", "index ", "--- ", "+++ ", "@@ "];
    matches!(line.as_bytes().first(), Some(b'+' | b'-'))
        || HEADERS.iter().any(|h| line.starts_with(h))
        || line.contains(MARKER_TEXT)
}

pub(crate) fn compress(text: &str) -> Result<Compressed, Decline> {
    let doc = Lines::split(text);
    let n = doc.len();
    if n < MIN_LINES {
        return Err(Decline("fewer than 12 lines"));
    }
    let mut keep = Keep::new(n);
    for (i, line) in doc.iter().enumerate() {
        if is_structural(line) {
            for j in i.saturating_sub(CONTEXT)..=(i + CONTEXT).min(n - 1) {
                keep.set(
                    j,
                    if j == i {
                        "header or change"
                    } else {
                        "context"
                    },
                );
            }
        }
    }
    let (pieces, _, trace) = keep.collapse(|run| {
        let m = format!(
            "\u{2026} {} context lines elided (caveman) \u{2026}",
            run.len()
        );
        Some((m, 0))
    });
    if pieces.count() == n {
        return Err(Decline("nothing dropped but single lines"));
    }
    Ok(Compressed::traced(join_lines(&doc, &pieces), trace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_structure_is_one_marker() {
        let s: String = (1..=12).map(|k| format!(" ctx {k}\n")).collect();
        assert_eq!(
            compress(&s).unwrap().bytes,
            "… 12 context lines elided (caveman) …\n".as_bytes()
        );
    }

    #[test]
    fn single_dropped_lines_decline() {
        let mut s = String::from(
            "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,12 +1,12 @@\n ctx 1\n ctx 2\n-a\n+b\n",
        );
        for k in 3..=7 {
            s.push_str(&format!(" ctx {k}\n"));
        }
        s.push_str("-c\n+d\n ctx 8\n");
        assert_eq!(
            compress(&s).map(|c| c.bytes),
            Err(Decline("nothing dropped but single lines"))
        );
    }
}
