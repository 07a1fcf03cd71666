//! The lean view of grep-style hits, lossless work first: each file's
//! path is written once over its hits (as `rg --heading` does), leading
//! indentation goes, each hit keeps its line. Only when that view is still
//! large are a file's hits capped, and then its definition lines and query
//! hits stay first (not its first hits): the most per file that fits
//! [`CAPPED_BYTES`]; a marker naming the file counts the rest. A marker
//! never stands for a single hit.

use std::sync::LazyLock;

use regex::Regex;

use super::{entries, Entry};
use crate::compress::shared::lines::{Lines, Trace};
use crate::compress::Compressed;

/// A grouped view up to this size is written whole.
const LOSSLESS_BYTES: usize = 8 * 1024;
/// A capped view holds the most hits per file that fit this size (at
/// least [`MIN_CAP`] per file).
const CAPPED_BYTES: usize = 8 * 1024;
/// Hits a capped file keeps at least.
const MIN_CAP: usize = 2;

/// A larger input is read by the per-file sampler alone (the grouped
/// view holds every record in memory, and renders it a few times).
const MAX_INPUT: usize = 4 << 20;

/// A definition: what a search for a name is usually after.
static DEFINITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(export\s+)?(default\s+)?(pub(\([\w:]+\))?\s+)?(async\s+|static\s+|const\s+|unsafe\s+)*(def|fn|func|class|struct|enum|trait|impl|interface|type|mod|module|function|macro_rules!)\b",
    )
    .expect("definition")
});

/// One line of a file's run: a hit or a context line.
struct Rec<'a> {
    n: &'a str,
    hit: bool,
    text: &'a str,
    /// A `--` came right before it in the input.
    after_sep: bool,
}

/// A line of the view's source, in input order.
enum Item<'a> {
    /// A run of one file's hits and context lines.
    File(&'a str, Vec<Rec<'a>>),
    /// A line kept as it was (a tool's message, a count).
    Line(&'a str),
}

/// `N:text` / `N-text` after the path `p` (or a heading's numbered line).
fn split_rec<'a>(line: &'a str, p: &str) -> Option<(&'a str, bool, &'a str)> {
    let rest = match line.strip_prefix(p) {
        Some(r) if r.starts_with([':', '-']) => &r[1..],
        _ if line.starts_with(|c: char| c.is_ascii_digit()) => line,
        _ => return None,
    };
    let d = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest.as_bytes().get(d) {
        Some(b':') if d > 0 => Some((&rest[..d], true, &rest[d + 1..])),
        Some(b'-') if d > 0 => Some((&rest[..d], false, &rest[d + 1..])),
        _ => None,
    }
}

/// The items of `doc`, or `None` when it is not a list of numbered hits
/// (a path or URL list, hits without line numbers).
fn items<'a>(doc: &Lines<'a>) -> Option<Vec<Item<'a>>> {
    let es = entries(doc.iter());
    let mut out: Vec<Item<'a>> = Vec::new();
    let mut sep = false;
    let mut hits = 0;
    for (i, raw) in doc.iter().enumerate() {
        let l = raw.trim_end_matches('\r');
        let (p, rec) = match es.get(i) {
            Entry::Hit(p) | Entry::Context(p) => (p, split_rec(l, p)),
            Entry::Heading(_) => continue,
            Entry::Listed(_) => return None,
            Entry::Other => {
                if l.trim().is_empty() || l == "--" {
                    sep = true;
                } else {
                    out.push(Item::Line(l));
                }
                continue;
            }
        };
        let (n, hit, text) = rec?;
        hits += usize::from(hit);
        let rec = Rec {
            n,
            hit,
            text: text.trim(),
            after_sep: std::mem::take(&mut sep),
        };
        match out.last_mut() {
            Some(Item::File(q, recs)) if *q == p => recs.push(rec),
            _ => out.push(Item::File(p, vec![rec])),
        }
    }
    (hits > 0).then_some(out)
}

/// The lines of one file's run with at most `cap` hits
/// (`None`: all), and how many lines a marker stands for.
fn render_file(
    path: &str,
    recs: &[Rec<'_>],
    cap: Option<usize>,
    query: &str,
    out: &mut Vec<String>,
) -> usize {
    out.push(path.to_string());
    // One text a hit, in order (a merged line `199,229:…` would make a
    // file's count of hits differ from its count of lines).
    let mut hit_recs: Vec<usize> = Vec::new();
    let mut hit_of = vec![usize::MAX; recs.len()];
    for (k, _) in recs.iter().enumerate().filter(|(_, r)| r.hit) {
        hit_of[k] = hit_recs.len();
        hit_recs.push(k);
    }
    // Which hits stay: all, or definitions first, then the others in
    // order; one hidden text stays too (its marker would cost as much).
    let mut kept = vec![true; hit_recs.len()];
    if let Some(cap) = cap {
        if hit_recs.len() > cap + 1 {
            // Query hits first, then definitions, then the rest.
            let rank = |t: usize| {
                let text = recs[hit_recs[t]].text;
                if !query.is_empty() && text.to_lowercase().contains(query) {
                    0
                } else if DEFINITION.is_match(text) {
                    1
                } else {
                    2
                }
            };
            let mut order: Vec<usize> = (0..hit_recs.len()).collect();
            order.sort_by_key(|&t| rank(t));
            kept = vec![false; hit_recs.len()];
            for &t in order.iter().take(cap) {
                kept[t] = true;
            }
        }
    }
    // A context line stays with its block (between separators) when a
    // hit of the block stays.
    let mut block_kept = Vec::new();
    let mut block = vec![0; recs.len()];
    for (k, r) in recs.iter().enumerate() {
        if k == 0 || r.after_sep {
            block_kept.push(false);
        }
        let b = block_kept.len() - 1;
        block[k] = b;
        if r.hit && kept[hit_of[k]] {
            block_kept[b] = true;
        }
    }
    let mut hidden: Vec<&str> = Vec::new();
    let mut hidden_context = 0;
    let mut shown_any = false;
    for (k, r) in recs.iter().enumerate() {
        let show = if r.hit {
            kept[hit_of[k]]
        } else {
            block_kept[block[k]]
        };
        if !show {
            if r.hit {
                hidden.push(r.n);
            } else {
                hidden_context += 1;
            }
            continue;
        }
        if r.after_sep && shown_any {
            out.push("--".to_string());
        }
        shown_any = true;
        if r.hit {
            out.push(format!("{}:{}", r.n, r.text));
        } else {
            out.push(format!("{}-{}", r.n, r.text));
        }
    }
    if hidden.is_empty() && hidden_context == 0 {
        return 0;
    }
    // The marker names its file: it reads alone (a search for the path
    // finds it, an agent quoting it knows where the hits are).
    let mut m = format!("\u{2026} {} more matches in {path}", hidden.len());
    if let (Some(a), Some(b)) = (hidden.first(), hidden.last()) {
        if a == b {
            m.push_str(&format!(" (line {a})"));
        } else {
            m.push_str(&format!(" (lines {a}\u{2013}{b})"));
        }
    }
    if hidden_context > 0 {
        m.push_str(&format!(", with {hidden_context} context lines"));
    }
    m.push_str(" elided (caveman) \u{2026}");
    out.push(m);
    hidden.len() + hidden_context
}

/// The view's lines with at most `cap` hits per file, and the
/// lines its markers stand for.
fn render(items: &[Item<'_>], cap: Option<usize>, query: &str) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut dropped = 0;
    for it in items {
        match it {
            Item::Line(l) => out.push((*l).to_string()),
            Item::File(p, recs) => dropped += render_file(p, recs, cap, query, &mut out),
        }
    }
    (out, dropped)
}

fn size(lines: &[String]) -> usize {
    lines.iter().map(|l| l.len() + 1).sum()
}

/// The grouped view of `text`, or `None` when it is not numbered hits.
pub(super) fn grouped(text: &str, query: &str) -> Option<Compressed> {
    if text.len() > MAX_INPUT {
        return None;
    }
    let query = query.trim().to_lowercase();
    let query = query.as_str();
    let doc = Lines::split(text);
    let items = items(&doc)?;
    let (mut lines, mut dropped) = render(&items, None, query);
    if size(&lines) > LOSSLESS_BYTES {
        let most = items
            .iter()
            .map(|it| match it {
                Item::File(_, recs) => recs.len(),
                Item::Line(_) => 0,
            })
            .max()
            .unwrap_or(0);
        // The greatest cap that fits, found by halving the range.
        let (mut lo, mut hi) = (MIN_CAP, most.max(MIN_CAP));
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if size(&render(&items, Some(mid), query).0) <= CAPPED_BYTES {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        (lines, dropped) = render(&items, Some(lo), query);
    }
    let mut bytes = lines.join("\n").into_bytes();
    if doc.trailing_lf {
        bytes.push(b'\n');
    }
    let mut trace = Trace::default();
    trace.add("hits grouped by file", doc.len() - dropped);
    trace.dropped = dropped;
    trace.regrouped = dropped == 0;
    Some(Compressed::traced(bytes, trace))
}
