//! The diff compressor (content type `diff`, method `diff`; spec/diff.md):
//! every header and changed line of a unified diff stays with 2 lines of
//! context on each side; every other run of lines becomes a marker.

use std::ops::Range;

use super::shared::lines::{join_lines, Keep, Lines};
use super::{Compressed, Decline, Input, Trace};

/// Shorter diffs are left alone.
const MIN_LINES: usize = 12;
/// Context kept on each side of a structural line.
const CONTEXT: usize = 2;
const MARKER_TEXT: &str = "context lines elided (caveman)";

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    if input.profile.is_lean() {
        return lean(text, input.query, input.budget);
    }
    compress(text)
}

/// The lean diff's lines under a budget: file headers and hunk headers
/// first, then changed lines (those with error words and query hits
/// before the others), then context, each in document order; dropped runs
/// counted in markers, which means the view no longer applies as a patch.
fn fit(
    lines: &[&str],
    budget: usize,
    query: &str,
    cr: &str,
    trailing_lf: bool,
    trimmed: usize,
) -> Compressed {
    use super::shared::lean::is_error;
    let n = lines.len();
    let mut keep = Keep::new(n);
    for (i, l) in lines.iter().enumerate() {
        let b = l.as_bytes();
        let header = l.starts_with("diff ")
            || l.starts_with("--- ")
            || l.starts_with("+++ ")
            || l.starts_with("new file")
            || l.starts_with("deleted file")
            || l.starts_with("rename ")
            || l.starts_with("similarity")
            || l.starts_with("Binary");
        let why = if header {
            "file heading"
        } else if l.starts_with("@@") {
            "hunk context"
        } else if matches!(b.first(), Some(b'+' | b'-')) && is_error(l) {
            "change with an error word"
        } else if matches!(b.first(), Some(b'+' | b'-')) {
            "change"
        } else {
            "context"
        };
        keep.set(i, why);
    }
    keep.fill_query(query, 16, |i| lines[i].into());
    let note = format!(
        "\u{2026} caveman: {trimmed} context lines elided, then lines dropped to fit {budget} tokens; this view does not apply as a patch \u{2026}"
    );
    let unfit = keep.fit_text(
        Some(budget),
        |i| lines[i],
        "\u{2026} 9999 lines elided (caveman) \u{2026}",
        &note,
    );
    let (mut pieces, _, trace) = keep.collapse(|run| {
        Some((
            format!("\u{2026} {} lines elided (caveman) \u{2026}", run.len()),
            0,
        ))
    });
    if let Some(u) = unfit.note("lines") {
        pieces.marker(u);
    }
    let mut out = note.into_bytes();
    out.extend_from_slice(cr.as_bytes());
    out.push(b'\n');
    out.extend(super::shared::lines::join(
        &pieces,
        |i| lines[i],
        "\n",
        cr,
        if trailing_lf { "\n" } else { "" },
    ));
    Compressed::traced(out, trace)
}

/// Context lines a lean hunk keeps on each side of a change.
const LEAN_CONTEXT: usize = 1;
/// A hunk is cut in two only where this many context lines would go
/// (fewer cost less than the new hunk header).
const SPLIT_GAP: usize = 4;

/// `@@ -a[,b] +c[,d] @@ tail`: (a, b, c, d, tail).
fn hunk_header(l: &str) -> Option<(usize, usize, usize, usize, &str)> {
    let rest = l.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, tail) = rest.split_once(" @@")?;
    let range = |r: &str| -> Option<(usize, usize)> {
        match r.split_once(',') {
            Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (a, b) = range(old)?;
    let (c, d) = range(new)?;
    Some((a, b, c, d, tail))
}

/// The lean diff: every file header and changed line; each hunk re-cut to
/// one line of context around its changes, with headers whose line
/// numbers are recomputed, so the view still applies to the pre-image;
/// `index` lines dropped. A first line states what was cut.
fn lean(text: &str, query: &str, budget: Option<usize>) -> Result<Compressed, Decline> {
    let doc = Lines::split(text);
    let n = doc.len();
    if n < MIN_LINES {
        return Err(Decline("fewer than 12 lines"));
    }
    let line = |i: usize| doc.line(i);
    let cr = doc.cr;
    // The view's lines: runs of the input's lines and new hunk headers
    // (no copy of a line, no slice held per line).
    let mut out = View::default();
    let (mut dropped_context, mut dropped_index) = (0usize, 0usize);
    let mut i = 0;
    while i < n {
        let l = line(i);
        let Some((a, b, c, d, tail)) = hunk_header(l.trim_end_matches('\r')) else {
            if l.starts_with("index ") {
                dropped_index += 1;
            } else {
                out.line(i);
            }
            i += 1;
            continue;
        };
        // The hunk's body: exactly b old and d new lines (and `\` notes).
        let mut body: Vec<usize> = Vec::new();
        let (mut olds, mut news) = (0, 0);
        let mut j = i + 1;
        while j < n && (olds < b || news < d || line(j).starts_with('\\')) {
            match line(j).as_bytes().first() {
                Some(b' ') => {
                    olds += 1;
                    news += 1;
                }
                Some(b'-') => olds += 1,
                Some(b'+') => news += 1,
                Some(b'\\') => {}
                // A bare empty line is a context line some tools strip.
                None => {
                    olds += 1;
                    news += 1;
                }
                _ => break,
            }
            body.push(j);
            j += 1;
        }
        if olds != b || news != d {
            // Not a hunk we can count: copy it as it is.
            out.line(i);
            body.iter().for_each(|&k| out.line(k));
            i = j;
            continue;
        }
        let is_change = |k: usize| matches!(line(k).as_bytes().first(), Some(b'+' | b'-'));
        let is_note = |k: usize| line(k).starts_with('\\');
        // Keep changes, notes and LEAN_CONTEXT lines around changes.
        let m = body.len();
        let mut keep = vec![false; m];
        for (p, &k) in body.iter().enumerate() {
            if is_change(k) {
                let lo = p.saturating_sub(LEAN_CONTEXT);
                let hi = (p + LEAN_CONTEXT).min(m - 1);
                keep[lo..=hi].iter_mut().for_each(|x| *x = true);
            }
        }
        // A gap too short to pay for another hunk header stays.
        let mut p = 0;
        while p < m {
            if keep[p] {
                p += 1;
                continue;
            }
            let mut q = p;
            while q < m && !keep[q] {
                q += 1;
            }
            if p > 0 && q < m && q - p < SPLIT_GAP {
                keep[p..q].iter_mut().for_each(|x| *x = true);
            }
            p = q;
        }
        for (p, &k) in body.iter().enumerate() {
            if is_note(k) && p > 0 && keep[p - 1] {
                keep[p] = true;
            }
        }
        // Sub-hunks: maximal kept runs, with their line numbers.
        let (mut old_no, mut new_no) = (a, c);
        let mut p = 0;
        while p < m {
            let k = body[p];
            if !keep[p] {
                if !is_note(k) {
                    dropped_context += 1;
                    old_no += 1;
                    new_no += 1;
                }
                p += 1;
                continue;
            }
            let (start_old, start_new) = (old_no, new_no);
            let mut q = p;
            let (mut oc, mut nc) = (0, 0);
            let mut part: Vec<usize> = Vec::new();
            while q < m && keep[q] {
                let k = body[q];
                match line(k).as_bytes().first() {
                    Some(b'-') => oc += 1,
                    Some(b'+') => nc += 1,
                    Some(b'\\') => {}
                    _ => {
                        oc += 1;
                        nc += 1;
                    }
                }
                part.push(k);
                q += 1;
            }
            // Unified diffs name the line before an empty range.
            let so = if oc == 0 {
                start_old.saturating_sub(1)
            } else {
                start_old
            };
            let sn = if nc == 0 {
                start_new.saturating_sub(1)
            } else {
                start_new
            };
            let so = if b == 0 && oc == 0 { a } else { so };
            let sn = if d == 0 && nc == 0 { c } else { sn };
            out.text(format!("@@ -{so},{oc} +{sn},{nc} @@{tail}"));
            part.iter().for_each(|&k| out.line(k));
            old_no = start_old + oc;
            new_no = start_new + nc;
            p = q;
        }
        i = j;
    }
    if dropped_context == 0 && dropped_index == 0 {
        return Err(Decline("no context to trim"));
    }
    if let Some(b) = budget {
        let lines = out.lines(&doc);
        return Ok(fit(&lines, b, query, cr, doc.trailing_lf, dropped_context));
    }
    let mut text_out = String::with_capacity(text.len());
    let mut note = format!(
        "\u{2026} caveman: {dropped_context} context lines elided; hunks re-cut to {LEAN_CONTEXT} line of context with their line numbers, so the diff still applies"
    );
    if dropped_index > 0 {
        note.push_str(&format!("; {dropped_index} index lines elided"));
    }
    note.push_str(" \u{2026}");
    text_out.push_str(&note);
    text_out.push_str(cr);
    text_out.push('\n');
    for (k, part) in out.0.iter().enumerate() {
        if k > 0 {
            text_out.push('\n');
        }
        match part {
            Part::Lines(r) => text_out.push_str(doc.span(r.clone())),
            Part::Text(t) => text_out.push_str(t),
        }
    }
    if doc.trailing_lf {
        text_out.push('\n');
    }
    let mut trace = Trace::default();
    trace.add("header or change", out.len());
    trace.dropped = dropped_context + dropped_index;
    Ok(Compressed::traced(text_out.into_bytes(), trace))
}

/// A part of the lean diff's view.
enum Part {
    /// Input lines, as they were.
    Lines(Range<usize>),
    /// A line written anew (a re-cut hunk header).
    Text(String),
}

/// The lean diff's view: its parts in order, runs of lines merged.
#[derive(Default)]
struct View(Vec<Part>);

impl View {
    /// Appends input line `i`.
    fn line(&mut self, i: usize) {
        if let Some(Part::Lines(r)) = self.0.last_mut() {
            if r.end == i {
                r.end += 1;
                return;
            }
        }
        self.0.push(Part::Lines(i..i + 1));
    }

    fn text(&mut self, t: String) {
        self.0.push(Part::Text(t));
    }

    /// The view's lines.
    fn len(&self) -> usize {
        self.0
            .iter()
            .map(|p| match p {
                Part::Lines(r) => r.len(),
                Part::Text(_) => 1,
            })
            .sum()
    }

    /// The view's lines as a list (the budget's fit reads them by number).
    fn lines<'a>(&'a self, doc: &Lines<'a>) -> Vec<&'a str> {
        let mut out = Vec::with_capacity(self.len());
        for p in &self.0 {
            match p {
                Part::Lines(r) => out.extend(doc.range(r.clone())),
                Part::Text(t) => out.push(t.as_str()),
            }
        }
        out
    }
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
