//! Which lines count as rare for the lean cut ([`super::cut`]), and how
//! much of a document they may take: a kind is a template with its runs
//! of variables folded, and rare lines are capped by count and, in a
//! longer document, by a share of its bytes.

use std::borrow::Cow;

use super::{is_own_template, template};

/// Rare lines kept at most: a tenth of the lines, and at least 64.
pub(super) fn max_rare(lines: usize) -> usize {
    (lines / 10).max(64)
}

/// In a document of more non-blank lines than this, rare lines take at
/// most 1/[`RARE_SHARE`] of its bytes.
const RARE_SHARE_FROM: usize = 200;
const RARE_SHARE: usize = 8;
/// In a document of more than half [`RARE_SHARE_FROM`] lines, most of
/// them of a kind of their own, rare lines take at most
/// 1/[`RARE_SHARE_DISTINCT`] of its bytes.
const RARE_SHARE_DISTINCT: usize = 3;

/// A template with every run of variables separated by whitespace
/// written as one (`ask <*> to delete <*> <*> <*>` → `ask <*> to delete
/// <*>`), borrowed when it has none.
pub(super) fn variable_runs_folded(t: &str) -> Cow<'_, str> {
    const RUN: &str = "<*> <*>";
    // (A template of variables alone is no kind: `<*> <*> <*>` stays.)
    if !t.contains(RUN) || !t.contains(|c: char| c.is_alphabetic()) {
        return Cow::Borrowed(t);
    }
    let mut s = t.to_owned();
    while s.contains(RUN) {
        s = s.replace(RUN, "<*>");
    }
    Cow::Owned(s)
}

/// A line's template, borrowed when the line is its own.
pub(super) fn line_template(line: &str) -> Cow<'_, str> {
    if is_own_template(line) {
        Cow::Borrowed(line)
    } else {
        Cow::Owned(template(line))
    }
}

/// Bytes the rare lines of a document of `total` non-blank lines, `kinds`
/// templates and `bytes` bytes may take: in a longer document a share of
/// its bytes (a scanner's hundred distinct 404s are not a hundred
/// signals), a larger one where most lines are of a kind of their own
/// (rarity then tells little); in a short one they are much of what
/// there is, and stay to the count cap.
pub(super) fn room(total: usize, kinds: usize, bytes: usize) -> usize {
    if total > RARE_SHARE_FROM {
        bytes / RARE_SHARE
    } else if total > RARE_SHARE_FROM / 2 && kinds * 2 > total {
        bytes / RARE_SHARE_DISTINCT
    } else {
        usize::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_variables_are_one_kind() {
        assert_eq!(
            variable_runs_folded("INFO BLOCK* ask <*> to delete <*> <*> <*>"),
            "INFO BLOCK* ask <*> to delete <*>"
        );
        assert_eq!(
            variable_runs_folded("ask <*> to delete <*>"),
            "ask <*> to delete <*>"
        );
        // Variables alone are no kind.
        assert_eq!(variable_runs_folded("<*> <*> <*>"), "<*> <*> <*>");
        assert!(matches!(variable_runs_folded("a <*> b"), Cow::Borrowed(_)));
    }

    #[test]
    fn rare_lines_take_a_share_of_longer_documents() {
        // Short: the count cap alone.
        assert_eq!(room(100, 90, 10_000), usize::MAX);
        // Over 100 lines, most of their own kind: a third.
        assert_eq!(room(150, 120, 9_000), 3_000);
        // Over 100 lines of few kinds: the count cap alone.
        assert_eq!(room(150, 40, 9_000), usize::MAX);
        // Over 200 lines: an eighth.
        assert_eq!(room(300, 10, 8_000), 1_000);
    }
}
