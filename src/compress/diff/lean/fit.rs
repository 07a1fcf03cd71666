//! The lean diff under `--budget`: parts kept by class while they fit.

use super::{Body, Class, Part};
use crate::compress::shared::lines::Lines;

/// The `--explain` reason of a class.
pub(super) fn reason(c: Class) -> &'static str {
    match c {
        Class::Heading => "header",
        Class::Error => "change with an error word",
        Class::Query => "query",
        Class::Change => "change",
        Class::Text => "message or other text",
        Class::Context => "context",
        Class::Marker => "marker",
    }
}

/// Under a budget: parts kept in class order (then document order) while
/// the view fits, each dropped run one marker; a part is never kept
/// without its file and hunk headers. Returns the parts and how many
/// changed lines with error words did not fit.
pub(super) fn fit(
    doc: &Lines<'_>,
    parts: Vec<Part>,
    budget: usize,
    note: &mut String,
) -> (Vec<Part>, usize) {
    use crate::tokens::count;
    note.truncate(note.len() - " \u{2026}".len());
    note.push_str(
        "; then lines dropped to fit the budget: this view does not apply as a patch \u{2026}",
    );
    let marker = count("\u{2026} 9999 lines elided (caveman) \u{2026}".as_bytes()) + 1;
    let cost = |p: &Part| -> usize {
        match &p.body {
            Body::Lines(r) => count(doc.span(r.clone()).as_bytes()) + 1,
            Body::Text(t) => count(t.as_bytes()) + 1,
        }
    };
    let n = parts.len();
    let mut order: Vec<usize> = (0..n)
        .filter(|&k| parts[k].class != Class::Marker)
        .collect();
    order.sort_by_key(|&k| (parts[k].class, k));
    let mut kept = vec![false; n];
    let mut total = count(note.as_bytes()) + 1 + marker;
    let mut unfit_errors = 0;
    for k in order {
        let owners_ok = [parts[k].file, parts[k].hunk]
            .iter()
            .all(|o| o.is_none_or(|o| o == k || kept[o]));
        let left = k > 0 && kept[k - 1];
        let right = k + 1 < n && kept[k + 1];
        let delta = (usize::from(k > 0 && !left) + usize::from(k + 1 < n && !right)) as isize - 1;
        let c = cost(&parts[k]) as isize + delta * marker as isize;
        if owners_ok && total as isize + c <= budget as isize {
            kept[k] = true;
            total = (total as isize + c) as usize;
        } else if parts[k].class == Class::Error {
            unfit_errors += doc_lines(&parts[k]);
        }
    }
    let mut out = Vec::with_capacity(n);
    let mut run = 0usize;
    for (k, p) in parts.into_iter().enumerate() {
        if kept[k] {
            if run > 0 {
                out.push(marker_part(run));
                run = 0;
            }
            out.push(p);
        } else {
            run += p.covers;
        }
    }
    if run > 0 {
        out.push(marker_part(run));
    }
    (out, unfit_errors)
}

fn doc_lines(p: &Part) -> usize {
    match &p.body {
        Body::Lines(r) => r.len(),
        Body::Text(_) => 0,
    }
}

fn marker_part(lines: usize) -> Part {
    Part {
        body: Body::Text(format!("\u{2026} {lines} lines elided (caveman) \u{2026}")),
        class: Class::Marker,
        covers: lines,
        file: None,
        hunk: None,
    }
}
