//! The lean diff's commit and mail headers, messages, diffstats, DEP-3
//! and quilt fields, and binary patch data.

use std::ops::Range;

use super::{Body, Class, Cut, DEP3, MAIL_FROM, MESSAGE_KEEP, STAT_OTHER};
use crate::compress::shared::commits::{self, Role, COMMIT, STAT_FILE};

impl Cut<'_, '_> {
    /// `commit <hash>` and its fields on one line (hash, author, date,
    /// merge parents; other fields as they are), then the indented
    /// message.
    pub(super) fn commit(&mut self, i: usize) -> usize {
        let n = self.doc.len();
        self.file = None;
        self.hunk = None;
        let Some(head) = commits::header(self.doc, i) else {
            self.keep(i..i + 1, Class::Heading);
            return i + 1;
        };
        let mut j = head.end;
        let covers = j - i - head.other.len();
        self.account.commits += 1;
        self.push(Body::Text(head.line), Class::Heading, covers);
        self.keep(j - head.other.len()..j, Class::Heading);
        let start = j;
        while j < n && (self.blank(j) || self.line(j).starts_with("    ")) {
            j += 1;
        }
        let mut end = j;
        while end > start && self.blank(end - 1) {
            end -= 1;
        }
        self.message(start..end, "    ");
        self.keep(end..j, Class::Text);
        j
    }

    /// A `git format-patch` mail: its From line, the From, Date and
    /// Subject fields (other headers in a marker), the message up to `---`.
    pub(super) fn mail(&mut self, i: usize) -> usize {
        let n = self.doc.len();
        self.file = None;
        self.hunk = None;
        self.keep(i..i + 1, Class::Heading);
        let mut j = i + 1;
        let mut kept_field = false;
        let mut other = j..j;
        while j < n && !self.blank(j) {
            let l = self.line(j);
            let continued = l.starts_with([' ', '\t']);
            let keep = if continued {
                kept_field
            } else {
                kept_field = ["From:", "Date:", "Subject:"]
                    .iter()
                    .any(|k| l.starts_with(k));
                kept_field
            };
            if keep {
                let dropped = std::mem::replace(&mut other, j + 1..j + 1);
                self.account.other += self.drop(dropped, "", "mail header lines");
                self.keep(j..j + 1, Class::Heading);
            } else {
                other.end = j + 1;
            }
            j += 1;
        }
        self.account.other += self.drop(other, "", "mail header lines");
        let start = j;
        while j < n {
            let l = self.line(j).trim_end_matches('\r');
            if l == "---" || l.starts_with("diff ") || l.starts_with("Index: ") {
                break;
            }
            j += 1;
        }
        self.message(start..j, "");
        if j < n && self.line(j).trim_end_matches('\r') == "---" {
            self.keep(j..j + 1, Class::Text);
            j += 1;
        }
        j
    }

    /// A message cut by [`commits::message`] (a body of at most
    /// `MESSAGE_KEEP` bytes whole; none when the view holds to compat's
    /// size, `subjects`): each run of dropped lines in a marker indented
    /// by `indent`.
    pub(super) fn message(&mut self, r: Range<usize>, indent: &str) {
        let mut roles = commits::message(self.doc, r.clone(), MESSAGE_KEEP, &[]);
        if let Some(s) = roles.iter().position(|&x| x == Role::Subject) {
            if self.subjects {
                roles[s + 1..].fill(Role::Dropped);
            }
            self.account.body += roles[s + 1..].iter().filter(|&&x| x == Role::Kept).count();
        }
        let mut k = r.start;
        for run in roles.chunk_by(|a, b| (*a == Role::Dropped) == (*b == Role::Dropped)) {
            let lines = k..k + run.len();
            k = lines.end;
            if run[0] == Role::Dropped {
                self.account.other += self.drop(lines, indent, "lines of the message");
                continue;
            }
            let s = run
                .iter()
                .position(|&x| x == Role::Subject)
                .map_or(lines.end, |s| lines.start + s);
            self.keep(lines.start..s, Class::Text);
            if s < lines.end {
                self.keep(s..s + 1, Class::Heading);
                self.keep(s + 1..lines.end, Class::Text);
            }
        }
    }

    /// A diffstat: its per-file and mode lines go when every file of it
    /// follows as a diff (before the next commit or mail); the summary
    /// line stays.
    pub(super) fn stat(&mut self, i: usize) -> usize {
        let n = self.doc.len();
        let (mut j, mut files) = (i, 0usize);
        let mut summary = None;
        while j < n {
            let l = self.line(j).trim_end_matches('\r');
            if STAT_FILE.is_match(l) {
                files += 1;
            } else if l.starts_with(" ") && STAT_OTHER.is_match(l) {
                if l.contains(" changed") {
                    summary.get_or_insert(j);
                }
            } else {
                break;
            }
            j += 1;
        }
        let mut diffs = 0usize;
        let mut k = j;
        while k < n && diffs < files {
            let l = self.line(k);
            if COMMIT.is_match(l) || MAIL_FROM.is_match(l) {
                break;
            }
            if l.starts_with("diff ") || l.starts_with("Index: ") {
                diffs += 1;
            }
            k += 1;
        }
        if diffs < files || files == 0 {
            self.keep(i..j, Class::Text);
            return j;
        }
        match summary {
            Some(s) => {
                self.account.other += self.drop(i..s, "", "diffstat lines");
                self.keep(s..s + 1, Class::Text);
                self.account.other += self.drop(s + 1..j, "", "diffstat lines");
            }
            None => self.account.other += self.drop(i..j, "", "diffstat lines"),
        }
        j
    }

    /// DEP-3 or quilt header fields at the top of a patch: the fields,
    /// and the first sentence of a long description.
    pub(super) fn dep3(&mut self, i: usize) -> usize {
        let n = self.doc.len();
        let mut j = i;
        while j < n && DEP3.is_match(self.line(j)) {
            let mut k = j + 1;
            while k < n && self.line(k).starts_with([' ', '\t']) {
                k += 1;
            }
            self.keep(j..j + 1, Class::Heading);
            self.message(j + 1..k, " ");
            j = k;
        }
        j
    }

    /// Binary patch data after `GIT binary patch`, to the blank line.
    pub(super) fn binary(&mut self, i: usize) -> usize {
        let n = self.doc.len();
        self.keep(i..i + 1, Class::Heading);
        let mut j = i + 1;
        while j < n && !self.blank(j) {
            j += 1;
        }
        self.account.other += self.drop(i + 1..j, "", "lines of binary patch data");
        j
    }
}
