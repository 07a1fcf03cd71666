//! Which lines count as rare for the lean cut ([`super::cut`]), and how
//! much of a document they may take: a kind is a template with its runs
//! of variables folded, and rare lines are capped by count and, in a
//! longer document, by a share of its bytes.

use std::borrow::Cow;

use rustc_hash::{FxHashMap, FxHashSet};

use super::super::lines::Lines;
use super::{is_own_template, template};

/// Rare lines kept at most: a tenth of the lines, and at least 64.
pub(super) fn max_rare(lines: usize) -> usize {
    (lines / 10).max(64)
}

/// In a document of more non-blank lines than this, rare lines take at
/// most 1/[`RARE_SHARE`] of its bytes.
pub(super) const RARE_SHARE_FROM: usize = 200;
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

/// The rare lines kept so far, each with its context: its text after a
/// leading timestamp and the text of the non-blank line before it. A
/// line whose text and context repeat a kept one's (a sync cycle's
/// `initDataPrivacy the dataPrivacy is true` after the same `… switch is
/// open` line, run after run) is the same event again; a line of the
/// same text after another line (a session's `startup archives unpack`
/// after another session's last upgrade) is not.
/// The same text again within [`NEAR`] lines of a kept copy (a burst of
/// `getBinderPackageName packageName = …` calls) is the same event
/// again too, whatever line it follows.
#[derive(Default)]
pub(super) struct Again<'a> {
    kept: FxHashSet<(&'a str, &'a str)>,
    last: FxHashMap<&'a str, usize>,
}

/// Non-blank lines looked back over for a line's context, at most.
const CONTEXT_LOOKBACK: usize = 8;
/// Lines after a kept copy within which the same text is the same event.
const NEAR: usize = 32;

impl<'a> Again<'a> {
    /// Whether line `i` repeats a line kept before in the same context,
    /// or near it; when it does not, it is recorded as kept.
    pub(super) fn seen(&mut self, doc: &Lines<'a>, i: usize) -> bool {
        let text = |l: &'a str| super::strip_lead_ts(l.trim_end());
        let own = text(doc.line(i));
        let near = self.last.get(own).is_some_and(|&k| k < i && i - k <= NEAR);
        let before = (i.saturating_sub(CONTEXT_LOOKBACK)..i)
            .rev()
            .map(|k| doc.line(k))
            .find(|l| !l.trim().is_empty())
            .map_or("", text);
        // (A near copy's context is recorded too: the same pair later is
        // the same event again.)
        if !self.kept.insert((own, before)) || near {
            return true;
        }
        self.last.insert(own, i);
        false
    }
}

/// Whether line `i` stands inside a burst of lines of its template (the
/// lines right before and after it are of it too: `upLoadOneMinuteData
/// time=…` five times in a row): the burst's first and last lines show
/// it, and the marker between them counts the rest.
pub(super) fn inside_burst(doc: &Lines<'_>, i: usize) -> bool {
    if i == 0 || i + 1 >= doc.len() {
        return false;
    }
    let t = line_template(doc.line(i));
    [i - 1, i + 1].iter().all(|&k| {
        let l = doc.line(k);
        !l.trim().is_empty() && line_template(l) == t
    })
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

    /// A line again after the same line, or within [`NEAR`] lines of a
    /// kept copy, is the same event again; after another line, further
    /// on, it is not.
    #[test]
    fn a_line_again_in_its_context_or_near_is_seen() {
        let mut text = String::from("10:00:00 boot\n10:00:01 sync open\n10:00:02 sync done\n");
        for k in 0..40 {
            text.push_str(&format!("10:01:{k:02} fill {k}\n"));
        }
        text.push_str("10:05:01 sync open\n10:05:02 sync done\n10:05:03 other\n");
        text.push_str("10:05:04 sync done\n10:05:05 sync done\n");
        let doc = Lines::split(&text);
        let mut again = Again::default();
        assert!(!again.seen(&doc, 2));
        // After `sync open` again, 40 lines on: the same event.
        assert!(again.seen(&doc, 44));
        // After another line, 44 lines on: another.
        assert!(!again.seen(&doc, 46));
        // The next line: near the copy kept.
        assert!(again.seen(&doc, 47));
    }

    #[test]
    fn a_burst_keeps_its_ends() {
        let doc = Lines::split("t 1\nt 2\nt 3\nu\n");
        assert!(!inside_burst(&doc, 0));
        assert!(inside_burst(&doc, 1));
        assert!(!inside_burst(&doc, 2));
        assert!(!inside_burst(&doc, 3));
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
