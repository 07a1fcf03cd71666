//! The lean document view under `--budget` (the kept pieces again, in
//! priority order, while they fit), and the view's bytes.

use super::{Body, Item};
use crate::compress::shared::lines::{Keep, Lines, Unfit};
use crate::compress::shared::signal;

/// The text of an item as the budget weighs it.
fn item_text<'a>(doc: &Lines<'a>, it: &'a Item) -> &'a str {
    match &it.body {
        Body::Same => doc.span(it.lines.clone()),
        Body::Text(t) | Body::Marker(t) => t,
    }
}

/// Under a budget: the kept pieces again in priority order while the view
/// fits; every run of pieces left out (with the markers between them)
/// becomes one marker counting the lines it stands for.
pub(super) fn fit(doc: &Lines<'_>, items: Vec<Item>, budget: usize) -> (Vec<Item>, Unfit) {
    let content: Vec<usize> = (0..items.len())
        .filter(|&k| !matches!(items[k].body, Body::Marker(_)))
        .collect();
    let mut keep = Keep::new(content.len());
    // The budget keeps the cause (as every lean view under a budget): the
    // first piece of each kind that names an error or failure comes
    // before headings and first sentences; later ones of the same kind
    // keep their own rank.
    let mut kinds = rustc_hash::FxHashSet::default();
    for (u, &k) in content.iter().enumerate() {
        let text = item_text(doc, &items[k]);
        let mut first_of_kind = || kinds.insert(crate::compress::shared::lean::template(text));
        let reason = if signal::is_error(text) && first_of_kind() {
            "error mention"
        } else {
            items[k].reason
        };
        keep.set(u, reason);
    }
    let unfit = keep.fit_text(
        Some(budget),
        |u| item_text(doc, &items[content[u]]),
        "\u{2026} 9999 lines elided (caveman) \u{2026}",
        "",
    );
    let mut kept = vec![true; items.len()];
    for (u, &k) in content.iter().enumerate() {
        kept[k] = keep.get(u);
    }
    // A kept blank line between two runs left out goes with them.
    for k in 1..items.len().saturating_sub(1) {
        let blank = items[k].reason == "blank line";
        if blank && !kept[k - 1] && !kept[k + 1] {
            kept[k] = false;
        }
    }
    let mut out: Vec<Item> = Vec::with_capacity(items.len());
    let mut run: Vec<Item> = Vec::new();
    let flush = |run: &mut Vec<Item>, out: &mut Vec<Item>| {
        if run.is_empty() {
            return;
        }
        let lines = run[0].lines.start..run[run.len() - 1].lines.end;
        let body = match (run.len(), &run[0].body) {
            (1, Body::Marker(_)) => run.pop().map(|it| it.body),
            _ => None,
        }
        .unwrap_or_else(|| {
            Body::Marker(format!(
                "\u{2026} {} lines elided (caveman) \u{2026}",
                lines.len()
            ))
        });
        run.clear();
        out.push(Item {
            body,
            lines,
            reason: "",
        });
    };
    for (k, it) in items.into_iter().enumerate() {
        let left_out = matches!(it.body, Body::Marker(_)) || !kept[k];
        if left_out {
            run.push(it);
        } else {
            flush(&mut run, &mut out);
            out.push(it);
        }
    }
    flush(&mut run, &mut out);
    (out, unfit)
}

/// The items as lines joined with LF, markers and rewritten lines ending
/// as the document's lines do.
pub(super) fn emit(doc: &Lines<'_>, items: &[Item]) -> Vec<u8> {
    let mut out = Vec::with_capacity(doc.body().len() / 2);
    for (k, it) in items.iter().enumerate() {
        if k > 0 {
            out.push(b'\n');
        }
        match &it.body {
            Body::Same => out.extend_from_slice(doc.span(it.lines.clone()).as_bytes()),
            Body::Text(t) => out.extend_from_slice(t.as_bytes()),
            Body::Marker(m) => {
                out.extend_from_slice(m.as_bytes());
                out.extend_from_slice(doc.cr.as_bytes());
            }
        }
    }
    if doc.trailing_lf {
        out.push(b'\n');
    }
    out
}
