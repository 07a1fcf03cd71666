//! The lean view of `git log` output without patches (plain, `--stat`,
//! `--name-status`, `--format=fuller`): every commit stays, each on one
//! header line (the hash cut to 10 characters, which `git show` still
//! takes, then the author and the date), its subject and short messages
//! whole, a long message cut after its first sentence with its
//! references (`Fixes #12`), each file of a diffstat without its `+++---`
//! bar, and the diffstat summary. Blank lines between commits go. A log
//! drawn with `--graph` is not read here (the line rules take it).

use super::{Compressed, Decline};
use crate::compress::shared::commits::{self, Role, COMMIT, SHORT_HASH, STAT_FILE};
use crate::compress::shared::lines::Lines;

/// A message body of at most this many bytes stays whole.
const MESSAGE_KEEP: usize = 300;
/// Fewer commits are left to the line rules.
const MIN_COMMITS: usize = 3;

/// The view, or `None` when `text` is not a plain `git log`.
pub(super) fn lean(text: &str, query: &str) -> Option<Result<Compressed, Decline>> {
    let words: Vec<String> = query
        .split_whitespace()
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_lowercase)
        .collect();
    let doc = Lines::split(text);
    let first = doc.iter().position(|l| !l.trim().is_empty())?;
    if !COMMIT.is_match(doc.line(first)) {
        return None;
    }
    let count = doc.iter().filter(|l| COMMIT.is_match(l)).count();
    if count < MIN_COMMITS {
        return None;
    }
    let mut out = String::with_capacity(text.len() / 2);
    let (mut blank, mut cut_message, mut bars) = (0usize, 0usize, 0usize);
    let n = doc.len();
    let mut i = first;
    let mut before = String::new();
    for l in doc.iter().take(first) {
        before.push_str(l);
        before.push('\n');
    }
    while i < n {
        let line = doc.line(i).trim_end_matches('\r');
        let Some(head) = commits::header(&doc, i) else {
            // Between commits: a diffstat, name-status lines, anything a
            // format printed. Blank lines go.
            if line.trim().is_empty() {
                blank += 1;
            } else if let Some(s) = STAT_FILE.captures(line).filter(|s| !s[2].trim().is_empty()) {
                out.push_str(&s[1]);
                out.push('\n');
                bars += 1;
            } else {
                out.push_str(line);
                out.push('\n');
            }
            i += 1;
            continue;
        };
        out.push_str(&head.line);
        out.push('\n');
        for l in head.other {
            out.push_str(l);
            out.push('\n');
        }
        i = head.end;
        // The message: indented lines and the blank lines among them.
        let start = i;
        while i < n {
            let l = doc.line(i);
            if l.starts_with("    ") || l.trim().is_empty() {
                i += 1;
            } else {
                break;
            }
        }
        let mut end = i;
        while end > start && doc.line(end - 1).trim().is_empty() {
            end -= 1;
        }
        blank += i - end;
        let (kept, dropped, blanks) = message(&doc, start, end, &words);
        out.push_str(&kept);
        cut_message += dropped;
        blank += blanks;
    }
    let mut said = vec![format!("{count} commits, each on one line with its author and date (hashes cut to {SHORT_HASH} characters)")];
    if blank > 0 {
        said.push(format!("{blank} blank lines dropped"));
    }
    if bars > 0 {
        said.push(format!("{bars} diffstat bars dropped"));
    }
    if cut_message > 0 {
        said.push(format!("{cut_message} message lines elided"));
    }
    let mut view = before;
    view.push_str(&format!(
        "\u{2026} caveman: git log: {} \u{2026}\n",
        said.join("; ")
    ));
    view.push_str(&out);
    if !text.ends_with('\n') && view.ends_with('\n') {
        view.pop();
    }
    Some(if view.len() < text.len() {
        Ok(Compressed::new(view.into_bytes()))
    } else {
        Err(Decline("the git log view would not be smaller"))
    })
}

/// A commit message (lines `start..end`) cut by [`commits::message`]:
/// the kept text, the message lines it drops, and the blank lines it
/// drops (every blank line goes).
fn message(doc: &Lines<'_>, start: usize, end: usize, query: &[String]) -> (String, usize, usize) {
    let mut out = String::new();
    let (mut dropped, mut blanks) = (0, 0);
    let roles = commits::message(doc, start..end, MESSAGE_KEEP, query);
    for (k, role) in (start..end).zip(roles) {
        let l = doc.line(k);
        match role {
            Role::Subject | Role::Kept => {
                out.push_str(l.trim_end_matches('\r'));
                out.push('\n');
            }
            _ if l.trim().is_empty() => blanks += 1,
            _ => dropped += 1,
        }
    }
    if dropped > 0 {
        out.push_str(&format!(
            "    \u{2026} {dropped} lines of the message elided (caveman) \u{2026}\n"
        ));
    }
    (out, dropped, blanks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(commits: usize, stat: bool, long: bool) -> String {
        let mut s = String::new();
        for k in 0..commits {
            let hash = format!("{:08x}", 0x5fe0_4267_u32.wrapping_mul(k as u32 + 1)).repeat(5);
            s.push_str(&format!(
                "commit {hash}\nAuthor: Dana Lee <dev{k}@example.com>\nDate:   Mon Dec {} 10:00:00 2026 +0000\n\n    fix(api): change number {k} to the billing path\n",
                1 + k % 28
            ));
            if long {
                s.push_str("\n    The first sentence says why. It goes on for a while here.\n");
                for j in 0..8 {
                    s.push_str(&format!(
                        "    Line {j} of a longer explanation that goes on and on.\n"
                    ));
                }
                s.push_str("    Fixes #1422\n");
            }
            s.push('\n');
            if stat {
                s.push_str(" src/db/models.py |  31 +++++++++++++------------------\n 1 file changed, 13 insertions(+), 18 deletions(-)\n\n");
            }
        }
        s
    }

    fn view(text: &str) -> String {
        String::from_utf8(lean(text, "").unwrap().unwrap().bytes).unwrap()
    }

    #[test]
    fn every_commit_stays_on_one_line() {
        let text = log(5, true, false);
        let v = view(&text);
        assert_eq!(v.matches("\ncommit ").count(), 5, "{v}");
        assert!(v.contains("commit 5fe042675f | Dana Lee <dev0@example.com> | Mon Dec 1 10:00:00 2026 +0000\n    fix(api): change number 0 to the billing path\n src/db/models.py |  31\n 1 file changed, 13 insertions(+), 18 deletions(-)\n"), "{v}");
        assert!(v.starts_with("\u{2026} caveman: git log: 5 commits"), "{v}");
        assert!(v.len() < text.len());
    }

    #[test]
    fn long_messages_keep_their_first_sentence_and_references() {
        let v = view(&log(3, false, true));
        assert!(v.contains("    The first sentence says why."), "{v}");
        assert!(v.contains("    Fixes #1422\n"), "{v}");
        assert!(
            v.contains("    \u{2026} 8 lines of the message elided (caveman) \u{2026}"),
            "{v}"
        );
        assert!(!v.contains("Line 3 of"), "{v}");
    }

    #[test]
    fn other_text_is_not_read() {
        assert!(lean("commit abc\nnot a log\n", "").is_none());
        assert!(lean("hello\ncommit 0123456789abcdef\n", "").is_none());
        assert!(lean(&log(2, false, false), "").is_none());
    }
}
