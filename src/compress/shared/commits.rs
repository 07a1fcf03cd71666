//! Commits as `git log` prints them (with or without patches): the
//! commit line and its fields read into one header line, and a message
//! cut to what an agent needs from it. The lean diff (`git log -p`,
//! format-patch mail) and the lean `git log` view both read commits here.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::lines::Lines;
use crate::compress::doc::first_sentence;

/// `commit <hash>` and what follows it (`(HEAD -> main)`, or a parent
/// list with `--parents`).
pub static COMMIT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^commit ([0-9a-f]{7,64})\b(.*?)\r?$").expect("commit line"));
/// A header field of a commit or a mail (`Author: x`).
pub static FIELD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Za-z][A-Za-z0-9-]*):( |$)").expect("field line"));
/// A diffstat's file line (` path | 12 +++---`, ` path | Bin 0 -> 12
/// bytes`); group 1 is the line without its `+-` bar, group 2 the bar.
pub static STAT_FILE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^( \S.*? \|\s+(?:\d+|Bin .*?))( ?[+-]*)\r?$").expect("stat file line")
});
/// Message lines that point elsewhere: kept from a long message.
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(fixes|fixed|closes|closed|resolves|resolved|refs|see|breaking[ -]change|reverts?|cherry picked from)\b")
        .expect("reference line")
});

/// Hex digits of a hash a one-line header keeps (`git show` takes them).
pub const SHORT_HASH: usize = 10;

/// A commit's header read from its `commit` line on.
#[derive(Debug)]
pub struct Header<'a> {
    /// `commit <short hash>[ rest] | author | date[ | Merge: …]`.
    pub line: String,
    /// Fields other than Author, Date and Merge (`Commit:`, `CommitDate:`,
    /// `Reflog:`), kept as they are.
    pub other: Vec<&'a str>,
    /// The line after the last field.
    pub end: usize,
}

/// The header of the commit whose `commit` line is `i`, or `None` when
/// line `i` is not one.
pub fn header<'a>(doc: &Lines<'a>, i: usize) -> Option<Header<'a>> {
    let c = COMMIT.captures(doc.line(i))?;
    let hash = &c[1];
    let mut line = format!("commit {}{}", &hash[..hash.len().min(SHORT_HASH)], &c[2]);
    let mut other = Vec::new();
    let mut j = i + 1;
    while j < doc.len() {
        let l = doc.line(j).trim_end_matches('\r');
        let Some(f) = FIELD.captures(l) else { break };
        let value = l[f[0].len()..].trim();
        match &f[1] {
            "Author" | "Date" => {
                line.push_str(" | ");
                line.push_str(value);
            }
            "Merge" => {
                line.push_str(" | Merge: ");
                line.push_str(value);
            }
            _ => other.push(l),
        }
        j += 1;
    }
    Some(Header {
        line,
        other,
        end: j,
    })
}

/// What a message line becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A blank line among kept lines.
    Blank,
    Subject,
    Kept,
    /// Dropped (blank or not) from a long message.
    Dropped,
}

/// The roles of the message lines `r`: blank lines before the subject,
/// the subject, and a body of at most `keep_bytes` whole; a longer body
/// keeps its first sentence, its reference lines (`Fixes #12`,
/// `BREAKING CHANGE`) and lines holding a `query` word (lowercase), and
/// drops the rest.
pub fn message(doc: &Lines<'_>, r: Range<usize>, keep_bytes: usize, query: &[String]) -> Vec<Role> {
    let blank = |k: usize| doc.line(k).trim().is_empty();
    let mut roles = Vec::with_capacity(r.len());
    let mut k = r.start;
    while k < r.end && blank(k) {
        roles.push(Role::Blank);
        k += 1;
    }
    if k >= r.end {
        return roles;
    }
    roles.push(Role::Subject);
    let body = k + 1..r.end;
    let bytes: usize = doc.range(body.clone()).map(|l| l.trim().len()).sum();
    let by_blank = |k: usize, other: Role| if blank(k) { Role::Blank } else { other };
    if bytes <= keep_bytes {
        roles.extend(body.map(|k| by_blank(k, Role::Kept)));
        return roles;
    }
    let mut p = body.start;
    while p < body.end && blank(p) {
        roles.push(Role::Blank);
        p += 1;
    }
    let mut q = p;
    while q < body.end && !blank(q) {
        q += 1;
    }
    let upto = first_sentence(doc.range(p..q), 0).map_or(q, |e| p + e.line + 1);
    roles.extend((p..upto).map(|_| Role::Kept));
    roles.extend((upto..body.end).map(|k| {
        let l = doc.line(k);
        let hit = !blank(k) && {
            let low = l.to_lowercase();
            REFERENCE.is_match(l) || query.iter().any(|w| low.contains(w.as_str()))
        };
        if hit {
            Role::Kept
        } else {
            Role::Dropped
        }
    }));
    roles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_becomes_one_line() {
        let text = "commit 77d5f394e741db0969b2d497fd7ceb3538a9fdc4 (HEAD -> main)\nMerge: 4a716bc 67630d7\nAuthor: Dana Lee <d@example.com>\nCommit: Sam Roe <s@example.com>\nDate:   Wed Sep 10 23:05:53 2025 -0400\n\n    Subject\n";
        let doc = Lines::split(text);
        let h = header(&doc, 0).unwrap();
        assert_eq!(
            h.line,
            "commit 77d5f394e7 (HEAD -> main) | Merge: 4a716bc 67630d7 | Dana Lee <d@example.com> | Wed Sep 10 23:05:53 2025 -0400"
        );
        assert_eq!(h.other, ["Commit: Sam Roe <s@example.com>"]);
        assert_eq!(h.end, 5);
        assert!(header(&doc, 1).is_none());
    }

    #[test]
    fn stat_lines_lose_their_bars_only() {
        let c = STAT_FILE.captures(" src/a.rs |  31 +++++-----\r").unwrap();
        assert_eq!(&c[1], " src/a.rs |  31");
        let c = STAT_FILE
            .captures(" img.png  | Bin 0 -> 1234 bytes")
            .unwrap();
        assert_eq!(&c[1], " img.png  | Bin 0 -> 1234 bytes");
        assert!(STAT_FILE.is_match(" docs/x.md | 2 "));
        assert!(!STAT_FILE.is_match(" 1 file changed, 2 insertions(+)"));
    }

    #[test]
    fn long_messages_keep_subject_first_sentence_and_references() {
        let mut text = String::from("\n    Subject line\n\n    First sentence here. More of it.\n");
        for k in 0..6 {
            text.push_str(&format!(
                "    Line {k} of a longer explanation of the change.\n"
            ));
        }
        text.push_str("    The timeout bug is here.\n\n    Fixes #12\n");
        let doc = Lines::split(&text);
        let roles = message(&doc, 0..doc.len(), 100, &["timeout".to_string()]);
        use Role::*;
        assert_eq!(
            roles,
            [
                Blank, Subject, Blank, Kept, Dropped, Dropped, Dropped, Dropped, Dropped, Dropped,
                Kept, Dropped, Kept
            ]
        );
        let whole = message(&doc, 0..doc.len(), 10_000, &[]);
        assert!(!whole.contains(&Dropped));
        assert_eq!(whole[2], Blank);
    }
}
