//! A skeleton's text: the source with its edits applied, and a first
//! comment line that counts what was cut.

use super::skeleton::{Edit, EditKind};
use crate::detect::Language;

/// What one view's edits did, for its first line.
#[derive(Default)]
struct Counts {
    bodies: usize,
    body_lines: usize,
    /// Bodies printed as a bare `{}` (the compact levels).
    bare: bool,
    literals: usize,
    comments: usize,
    guides: usize,
    repeats: usize,
    firsts: usize,
    dropped: usize,
    dropped_lines: usize,
    imports: usize,
}

impl Counts {
    fn used(&self) -> usize {
        self.bodies
            + self.literals
            + self.comments
            + self.guides
            + self.repeats
            + self.firsts
            + self.dropped
            + self.imports
    }

    /// The first line: what was cut, counted (`c` is the comment mark).
    fn note(&self, c: &str, lang: Language) -> String {
        let mut parts = Vec::new();
        if self.bodies > 0 {
            parts.push(if self.bare {
                format!(
                    "{} bodies now {{}} ({} lines)",
                    self.bodies, self.body_lines
                )
            } else {
                format!(
                    "{} function bodies ({} lines) elided",
                    self.bodies, self.body_lines
                )
            });
        }
        if self.literals > 0 {
            parts.push(format!("{} long literals elided", self.literals));
        }
        if self.comments > 0 {
            parts.push(format!(
                "{} doc comments cut to their first and rule sentences (\u{2026} marks each cut)",
                self.comments
            ));
        }
        if self.guides > 0 {
            parts.push(format!(
                "{} long comments cut to headings, short examples and each \
                 paragraph's first and rule sentences",
                self.guides
            ));
        }
        if self.repeats > 0 {
            parts.push(format!(
                "{} copies of repeated comments dropped (the first copy says how many)",
                self.repeats
            ));
        }
        if self.firsts > 0 {
            parts.push(format!("{} docs cut to their first sentence", self.firsts));
        }
        if self.dropped > 0 {
            parts.push(format!(
                "{} comments dropped ({} lines)",
                self.dropped, self.dropped_lines
            ));
        }
        if self.imports > 0 {
            parts.push(format!("{} imports elided", self.imports));
        }
        // A compact view's line is short: it is what lean adds to a view
        // no larger than compat's.
        if self.bare {
            return format!("{c} caveman: {}\n", parts.join(", "));
        }
        format!("{c} caveman: {lang} skeleton: {}\n", parts.join(", "))
    }
}

/// The source with the edits applied (overlapping ones skipped) and a
/// first comment line that says what was cut; `None` when nothing was.
pub(super) fn apply<'e>(
    text: &str,
    lang: Language,
    comment: &str,
    edits: impl Iterator<Item = &'e Edit>,
) -> Option<(String, usize)> {
    let mut es: Vec<&Edit> = edits.collect();
    es.sort_by_key(|e| (e.range.start, std::cmp::Reverse(e.range.end)));
    let mut out = String::with_capacity(text.len() / 2);
    let mut at = 0;
    let mut n = Counts::default();
    for e in es {
        if e.range.start < at {
            continue;
        }
        out.push_str(&text[at..e.range.start]);
        out.push_str(&e.text);
        at = e.range.end;
        match e.kind {
            EditKind::Body => {
                n.bare |= e.text == "{}";
                n.bodies += 1;
                n.body_lines += e.lines;
            }
            EditKind::Literal => n.literals += 1,
            EditKind::Comment => n.comments += 1,
            EditKind::Guide => n.guides += 1,
            EditKind::Repeat => n.repeats += 1,
            EditKind::First => n.firsts += 1,
            EditKind::Dropped => {
                n.dropped += 1;
                n.dropped_lines += e.lines;
            }
            EditKind::Imports => n.imports += e.lines,
            EditKind::Note => {}
        }
    }
    let used = n.used();
    if used == 0 {
        return None;
    }
    out.push_str(&text[at..]);
    let note = n.note(comment, lang);
    // After a `#!` or `<?php` line.
    let first_end = out.find('\n').map_or(out.len(), |i| i + 1);
    let at = if out.starts_with("#!") || out.starts_with("<?php") {
        first_end
    } else {
        0
    };
    if at == out.len() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.insert_str(at.min(out.len()), &note);
    Some((out, used))
}
